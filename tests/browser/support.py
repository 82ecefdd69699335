"""Helpers for browser tests: reach a figure, run axe-core, read numbers as the page shows them."""

from __future__ import annotations

import os
from contextlib import contextmanager
from pathlib import Path

from .pages import page_name

ROOT = Path(__file__).resolve().parents[2]


def open_figure(page, site_url: str, fig_id: str, hash_: str = "", tries: int = 8):
    """Load the figure's test page (its section of the article: pages.py), optionally with a state
    hash, bring the figure in and wait until it is ready and the page has settled (math fonts
    swapped in), so hovers land where they aim. On a page that is already open (figure test
    modules share one) only the hash changes and the figure restarts, which costs ~0.1 s against
    ~0.5 s for a load; K3_FRESH_PAGE=1 loads the page every time.

    Scrolls again while waiting: on a slow machine the page may still be settling above the
    figure after the first scroll."""
    url = site_url + page_name(fig_id)
    if page.url.split("#")[0] == url and not os.environ.get("K3_FRESH_PAGE"):
        # already open: the new hash restores every started figure (an empty one: their defaults),
        # and the figure under test is destroyed and started again, so each test gets a fresh one
        page.evaluate(
            """([h, id]) => { location.hash = h;
                         return document.getElementById(id).dataset.status ? K3._.restart(id) : null; }""",
            [hash_ or "#", fig_id],
        )
    else:
        page.goto(url + hash_)
    fig = page.locator(f"#{fig_id}")
    for attempt in range(tries):
        fig.scroll_into_view_if_needed()
        try:
            page.wait_for_selector(f"#{fig_id}[data-ready='true']", timeout=2000 if attempt < tries - 1 else 15000)
            break
        except Exception:  # playwright's TimeoutError: not started yet, scroll again
            continue
    page.evaluate(
        "() => document.fonts.ready.then(() => new Promise(r => requestAnimationFrame(() => requestAnimationFrame(r))))"
    )
    fig.scroll_into_view_if_needed()
    return fig


def _prepare_axe(page) -> None:
    """Load axe-core once per page and let fonts and layout settle."""
    if not page.evaluate("() => !!window.__axeReady"):
        page.add_script_tag(url="/__test__/axe.min.js")
        page.evaluate("() => { window.__axeReady = true; }")
    page.evaluate(
        "() => document.fonts.ready.then(() => new Promise(r => requestAnimationFrame(() => requestAnimationFrame(r))))"
    )


@contextmanager
def _frozen(page):
    """Transitions and animations off while axe looks (a colour check must never sample a cell
    mid-fade), and back on after: figure test modules share one page, and the tests that follow
    an accessibility walk must see the page move as a reader does."""
    style = page.add_style_tag(
        content="*, *::before, *::after { transition: none !important; animation: none !important; }"
    )
    try:
        yield
    finally:
        style.evaluate("s => s.remove()")
        style.dispose()


def _serious(result: dict) -> list[dict]:
    return [
        {"id": v["id"], "impact": v["impact"], "nodes": [n.get("target") for n in v["nodes"]][:5]}
        for v in result["violations"]
        if v["impact"] in ("serious", "critical")
    ]


# What a run sends back: its violations, each with its rule, impact and nodes' selectors (axe's
# whole result, every rule's passes and descriptions, is ~50 KB to carry over per run).
_VIOLATIONS = """.then(r => ({violations: r.violations.map(v =>
  ({id: v.id, impact: v.impact, nodes: v.nodes.map(n => ({target: n.target}))}))}))"""


# axe's rules tagged experimental are off unless named; label-in-name (WCAG 2.5.3, which Lighthouse
# checks) is one of them: a control's visible words must be part of its accessible name.
_RULES = {"label-content-name-mismatch": {"enabled": True}}


def _run_axe(page, script: str, arg) -> list[dict]:
    """Run axe (`script` takes [arg, options]) and return its serious violations. A run names no
    node (working out a CSS selector for every node it looks at is ~a quarter of a run); only
    when something is found does a second run name the nodes for the report."""
    options = {"resultTypes": ["violations"], "rules": _RULES}
    found = _serious(page.evaluate(script, [arg, {**options, "selectors": False}]))
    if found:
        found = _serious(page.evaluate(script, [arg, options]))
    return found


def axe_violations(page, selector: str | None = None) -> list[dict]:
    """Serious or critical axe-core violations on the page, or inside one element with the rest of
    the page out of axe's sight (_AXE_ON_ONE).

    A run on the whole article takes 2–6 s, on a figure inside its test page (pages.py) 0.3–0.9 s.
    axe is loaded from the page's own origin (the site fixture serves it) so the page's
    Content-Security-Policy, which forbids inline scripts, stays on during the check."""
    with _frozen(page):
        return _axe_now(page, selector)


def _axe_now(page, selector: str | None) -> list[dict]:
    _prepare_axe(page)
    if selector:
        return _run_axe(page, _AXE_ON_ONE, selector)
    return _run_axe(page, "([_, options]) => axe.run(document, options)" + _VIOLATIONS, None)


# axe on one element (a figure) and what is inside it. A verdict inside the figure depends only on the figure and its ancestors, so for the run the
# rest of the page is taken out of axe's sight in two ways that leave layout untouched (a hover
# or focus stays where the interaction put it):
# - it is hidden (visibility), so axe's colour check lays out only what can sit behind the figure;
# - the one tree walk axe makes over the document (utils.createGrid, which places every element
#   on a grid for the colour check: ~0.5 s of a run on a page with 7,000 elements, most of them
#   equations) skips it. Those elements are hidden, so the walk would never place them on the
#   grid: the verdicts are the same, node for node (passes and incomplete too, checked on every
#   figure's page), at 0.86 s a run instead of 1.33 s on FIG 17's.
_AXE_ON_ONE = (
    """([sel, options]) => {
  const root = document.querySelector(sel);
  const quiet = document.createElement("style");
  quiet.textContent = `body *:not(:has(${sel})):not(${sel}):not(${sel} *) { visibility: hidden !important; }`;
  document.head.appendChild(quiet);
  const walker = document.createTreeWalker;
  const inSight = {acceptNode: n => n.contains(root) || root.contains(n) ? NodeFilter.FILTER_ACCEPT : NodeFilter.FILTER_REJECT};
  document.createTreeWalker = (node, show) => walker.call(document, node, show, inSight);
  return axe.run({include: [root]}, options)
    .finally(() => { quiet.remove(); document.createTreeWalker = walker; })"""
    + _VIOLATIONS
    + """;
}"""
)


def assert_axe_clean_through(page, fig_id: str, states: dict) -> None:
    """axe inside the figure at load and in each named state, in order (each a callable taking
    the page that puts the figure in that state; states may build on each other).

    The states are chosen, not every interaction: those a reader reaches only by interacting that
    put something on screen the load did not (a mode with its own colours, a lit pathway, a focus
    ring, an appended label). A run costs 0.3–0.9 s on a figure's test page, and the controls
    themselves are driven, with what they show checked, by each figure's other tests."""
    sel = f"#{fig_id}"
    with _frozen(page):
        found = {"at load": _axe_now(page, sel)}
        for name, act in states.items():
            act(page)
            found[f"in {name}"] = _axe_now(page, sel)
    assert {k: v for k, v in found.items() if v} == {}


def serve_project(project: Path, out: Path, axe_js: Path):
    """Build another explainer (the starter, an example) into `out` and serve it: (server, url of
    index.html, its fig-01 data); axe-core beside it as on the flagship's site."""
    import json

    from k3explainer.browser import serve
    from k3explainer.site.pipeline import Project, build

    build(Project(project), out)
    (out / "__test__").mkdir()
    (out / "__test__" / "axe.min.js").write_bytes(axe_js.read_bytes())
    text = (out / "data" / "fig-01.js").read_text(encoding="utf-8")
    server, url = serve(out)
    return server, url, json.loads(text[text.index(", ") + 2 : text.rindex(")")])


def open_project_figure(page, url: str, fig_id: str = "fig-01"):
    """Load another explainer's page (served by serve_project) and wait until its figure is
    drawn: (the figure, the list of console errors, which keeps filling while the test runs)."""
    errors: list[str] = []
    page.on("console", lambda m: m.type == "error" and errors.append(m.text))
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.goto(url)
    fig = page.locator(f"#{fig_id}")
    fig.scroll_into_view_if_needed()
    page.wait_for_selector(f"#{fig_id}[data-ready='true']")
    return fig, errors


def shown_number(text: str) -> float:
    """Parse a number as the page formats it (real minus sign, thousands separators)."""
    return float(text.strip().replace("\u2212", "-").replace(",", ""))


def shipped_data(site_dir: Path, fig_id: str) -> dict:
    """The data file a figure received, as the browser saw it."""
    import json

    text = (site_dir / "data" / f"{fig_id}.js").read_text(encoding="utf-8")
    prefix = f'K3.data("{fig_id}", '
    assert text.startswith(prefix) and text.rstrip().endswith(");")
    return json.loads(text[len(prefix) : text.rstrip().rindex(")")])


def cell_texts(locator) -> list[str]:
    return [t.strip() for t in locator.all_inner_texts()]


def _parsed(text: str):
    try:
        return shown_number(text)
    except ValueError:
        return text


def table_numbers(table) -> list[list]:
    """The body cells of a K3W.matrix table, row by row: floats, or the text of a non-number ("·", "—")."""
    rows = table.locator("tbody tr").evaluate_all(
        "trs => trs.map(tr => [...tr.querySelectorAll('td')].map(td => td.textContent.trim()))"
    )
    return [[_parsed(t) for t in row] for row in rows]


_TABLES = """sel => [...document.querySelectorAll(sel)].map(t => [...t.querySelectorAll('tbody tr')].map(tr =>
  [...tr.querySelectorAll('td')].map(td => td.textContent.trim())))"""


def tables_numbers(page, selector: str) -> list[list[list]]:
    """Every table the selector matches, in page order, each as table_numbers reads it, in one
    round trip: a stepping test that checks every cell at every stage then waits on the figure,
    not on one question to the browser per table."""
    return [[[_parsed(t) for t in row] for row in rows] for rows in page.evaluate(_TABLES, selector)]


def spec_heights() -> tuple[dict[str, dict[int, int]], dict[str, list[dict]]]:
    """From the specs, as the build reads them: {figure id: {figure width: px reserved}} and
    {figure id: [states the reservation must also hold]}."""
    from k3explainer.site.errors import Diagnostics
    from k3explainer.site.specs import load_specs

    specs = load_specs(ROOT / "figures", Diagnostics(ROOT))
    return (
        {fid: dict(spec.model.reserve) for fid, spec in specs.items()},
        {fid: spec.model.reserve_for for fid, spec in specs.items() if spec.model.reserve_for},
    )


def assert_shown_is_shipped(page, site_dir: Path, fig_id: str) -> int:
    """Every text a component placed with ctx.show (the narration line included, once it has
    spoken) is the shipped text at the path it is tagged with, its slots filled the way
    site/readertext.py fills them: one check of what is shown against what was shipped, the
    same for every figure and state. Returns how many texts it compared."""
    import json

    from k3explainer.site.readertext import at, fill

    data = shipped_data(site_dir, fig_id)
    shown = page.eval_on_selector_all(
        f"#{fig_id} [data-shows]",
        "els => els.map(e => [e.getAttribute('data-shows'), e.getAttribute('data-slots'), e.textContent, e.innerHTML])",
    )
    for path, slots, text, html in shown:
        path = json.loads(path)
        if str(path[-1]).endswith("_html"):
            assert html == at(data, path), (fig_id, path)
        else:
            assert text == fill(data, path, json.loads(slots) if slots else None), (fig_id, path, slots)
    return len(shown)
