"""Helpers for browser tests: reach a figure, run axe-core, read numbers as the page shows them."""
from __future__ import annotations

import os
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
        page.evaluate("""([h, id]) => { location.hash = h;
                         return document.getElementById(id).dataset.status ? K3._.restart(id) : null; }""",
                      [hash_ or "#", fig_id])
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
    page.evaluate("() => document.fonts.ready.then(() => new Promise(r => requestAnimationFrame(() => requestAnimationFrame(r))))")
    fig.scroll_into_view_if_needed()
    return fig


def axe_violations(page, selector: str | None = None) -> list[dict]:
    """Serious or critical axe-core violations on the page (or inside one element).

    axe flattens the whole document on every run: 2–6 s on the full article, ~0.5 s on a figure's
    test page (pages.py). It is loaded from the page's own origin (the site fixture serves it) so
    the page's Content-Security-Policy, which forbids inline scripts, stays on during the check."""
    # freeze transitions so colour checks never sample a cell mid-fade, and let fonts settle
    if not page.evaluate("() => !!window.__axeReady"):
        page.add_style_tag(content="*, *::before, *::after { transition: none !important; animation: none !important; }")
        page.add_script_tag(url="/__test__/axe.min.js")
        page.evaluate("() => { window.__axeReady = true; }")
    page.evaluate("() => document.fonts.ready.then(() => new Promise(r => requestAnimationFrame(() => requestAnimationFrame(r))))")
    context = f"document.querySelector({selector!r})" if selector else "document"
    result = page.evaluate(f"() => axe.run({context}, {{resultTypes: ['violations']}})")
    return [
        {"id": v["id"], "impact": v["impact"], "nodes": [n["target"] for n in v["nodes"]][:5]}
        for v in result["violations"]
        if v["impact"] in ("serious", "critical")
    ]


# What axe's verdict on a figure depends on: its elements, their attributes (classes, roles,
# ARIA, inline styles with their colours), which of them hold text, where focus is, and the media
# the page is shown for (colour scheme, viewport width). Geometry
# (path data, positions, sizes) and the words themselves are left out, so a state that differs from
# an already checked one only in values (a slider moved one notch, another panel's text) is not
# checked twice; a new element, class, colour or focus position is.
_SIGNATURE = """(sel) => {
  const geometry = new Set(["d", "points", "x", "y", "x1", "x2", "y1", "y2", "cx", "cy", "r", "rx", "ry",
                            "width", "height", "transform", "viewBox", "dx", "dy"]);
  const out = [];
  (function walk(n) {
    const attrs = [...n.attributes].filter(a => !geometry.has(a.name)).map(a => a.name + "=" + a.value).sort();
    const text = [...n.childNodes].some(c => c.nodeType === 3 && c.textContent.trim());
    out.push(n.tagName + (text ? "+" : "") + "[" + attrs.join(" ") + "]" + (n === document.activeElement ? "*" : ""));
    for (const c of n.children) walk(c);
    out.push("/");
  })(document.querySelector(sel));
  const media = [matchMedia("(prefers-color-scheme: dark)").matches, matchMedia("(prefers-reduced-motion: reduce)").matches,
                 innerWidth, innerHeight];
  return media.join(",") + out.join("");
}"""


def assert_axe_clean_through(page, fig_id: str, interactions: dict) -> None:
    """axe inside the figure at load and again after each named interaction (a callable taking
    the page), so a state only reachable by clicking (a new colour, a focus ring, an appended
    label) is checked too. Interactions run in order and may build on each other; a state whose
    signature (see _SIGNATURE) was already checked is not checked again."""
    seen = {page.evaluate(_SIGNATURE, f"#{fig_id}")}
    found = {"at load": axe_violations(page, f"#{fig_id}")}
    for name, act in interactions.items():
        act(page)
        signature = page.evaluate(_SIGNATURE, f"#{fig_id}")
        if signature not in seen:
            seen.add(signature)
            found[f"after {name}"] = axe_violations(page, f"#{fig_id}")
    assert {k: v for k, v in found.items() if v} == {}


def shown_number(text: str) -> float:
    """Parse a number as the page formats it (real minus sign, thousands separators)."""
    return float(text.strip().replace("\u2212", "-").replace(",", ""))


def shipped_data(site_dir: Path, fig_id: str) -> dict:
    """The data file a figure received, as the browser saw it."""
    import json

    text = (site_dir / "data" / f"{fig_id}.js").read_text(encoding="utf-8")
    prefix = f'K3.data("{fig_id}", '
    assert text.startswith(prefix) and text.rstrip().endswith(");")
    return json.loads(text[len(prefix): text.rstrip().rindex(")")])


def cell_texts(locator) -> list[str]:
    return [t.strip() for t in locator.all_inner_texts()]


def table_numbers(table) -> list[list]:
    """The body cells of a K3W.matrix table, row by row: floats, or the text of a non-number ("·", "—")."""
    rows = table.locator("tbody tr").evaluate_all(
        "trs => trs.map(tr => [...tr.querySelectorAll('td')].map(td => td.textContent.trim()))")

    def parse(text):
        try:
            return shown_number(text)
        except ValueError:
            return text

    return [[parse(t) for t in row] for row in rows]




def spec_heights() -> tuple[dict[str, dict[int, int]], dict[str, list[dict]]]:
    """From the specs, as the build reads them: {figure id: {figure width: px reserved}} and
    {figure id: [states the reservation must also hold]}."""
    from k3explainer.site.errors import Diagnostics
    from k3explainer.site.specs import load_specs

    specs = load_specs(ROOT / "content" / "figures", Diagnostics(ROOT))
    return ({fid: dict(spec.model.reserve) for fid, spec in specs.items()},
            {fid: spec.model.reserve_for for fid, spec in specs.items() if spec.model.reserve_for})
