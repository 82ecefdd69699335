"""Reserved heights: `python -m k3explainer.reserve [--write]`.

Builds the site, opens it in Chromium with the figure column at both ends of each width band of
`specs.RESERVE_WIDTHS` (a layout may switch inside a band), starts every figure and measures its
default view and the states its spec lists under `reserve_for`; a band needs the largest of them.
Then, at each viewport width of `estimates.SECTION_WIDTHS`, it lays every section out and measures
its height. Prints both tables; with --write it records the figures' heights (a few px of
headroom, rounded up to 10) as each spec's `height`, so the page holds exactly that much room
before a figure starts and nothing below it moves when it appears, and the sections' heights as
each section's `height`, so the page is as tall before the browser lays a section out as after.
Run it after changing a figure's layout or a section's text; tests/browser/test_page.py and
test_landing.py check the result.
"""

from __future__ import annotations

import argparse
import difflib
import math
import re
import sys
import tempfile
from pathlib import Path

from .browser import LAUNCH, serve
from .site.estimates import SECTION_WIDTHS
from .site.specs import RESERVE_WIDTHS

HEADROOM = 6  # px: sub-pixel text metrics differ a little between runs and machines
WIDEST = 1120  # the figure column's maximum width (--wide in base.css)
# Columns either side of the page's phone breakpoint (42.5rem = 680 px viewport in base.css): the
# widest phone layout can need more than both ends of its band.
PAGE_BREAK_COLUMNS = (640, 641)

# Each started figure's view, measured with its reservation lifted: {id: px}
MEASURE_JS = """() => Object.fromEntries([...document.querySelectorAll('figure[data-ready=true]')].map(f => {
  const stage = f.querySelector('.fig-stage');
  stage.style.minHeight = '0px';
  const used = f.querySelector('.fig-mount').getBoundingClientRect().height;
  stage.style.minHeight = '';
  return [f.id, used];
}))"""
RESERVED_JS = """() => Object.fromEntries([...document.querySelectorAll('figure[data-src]')].map(f =>
  [f.id, parseFloat(getComputedStyle(f.querySelector('.fig-stage')).minHeight)]))"""
# The math fonts, loaded as the runtime loads them once a formula nears the viewport: a formula
# set in a fallback font is not the height it will be.
MATH_FONTS_JS = r"""() => new Promise((resolve, reject) => {
  if (document.getElementById('k3-math-fonts')) return document.fonts.ready.then(resolve);
  const link = Object.assign(document.createElement('link'), {id: 'k3-math-fonts', rel: 'stylesheet', href: 'vendor/math/math-fonts.css'});
  link.onerror = reject;
  link.onload = () => Promise.all([
    document.fonts.load('1em "Latin Modern Math Web"', 'x\u{1D465}'),
    document.fonts.load('1em "Latin Modern Math Web"', '\u{1D400}\u2211'),
    document.fonts.load('1em Temml', 'x')]).then(resolve, reject);
  document.head.append(link); })"""
# Each section's content height (what contain-intrinsic-size stands in for: its box without
# padding and border), with every section laid out (`layOut`) or as the page has them: {id: px}
# (laid out as a section near the viewport is: contained, so its last margin stays inside it)
SECTION_HEIGHTS_JS = """layOut => {
  const s = document.createElement('style');
  s.textContent = 'section.section { content-visibility: visible !important; contain: layout style paint; }';
  if (layOut) document.head.append(s);
  const out = Object.fromEntries([...document.querySelectorAll('section.section')].map(el => {
    const c = getComputedStyle(el), edges = ['paddingTop', 'paddingBottom', 'borderTopWidth', 'borderBottomWidth'];
    return [el.id, edges.reduce((h, e) => h - parseFloat(c[e]), el.getBoundingClientRect().height)];
  }));
  s.remove();
  return out; }"""
ALL_READY_JS = "() => [...document.querySelectorAll('figure[data-src]')].every(f => f.dataset.ready === 'true')"


def open_at_width(page, url: str, width: int) -> None:
    """Show `url` with the figure column exactly `width` px wide and its figures freshly started:
    the ones whose states its hash names (a round of state_hashes), or every figure if it names
    none. A page already showing the same document is not loaded again: its hash changes and the
    figures are destroyed and started at the new width, as a load would start them (a load of the
    whole article costs ~1.5 s; starting all 24 figures on an open page, well under that)."""
    base, _, hash_ = url.partition("#")
    # start from a viewport a little wider than the column: from a much wider one (a page left at
    # 1280 px), the column sits at its maximum and stepping the viewport down by the difference
    # may not reach the width in the tries below
    page.set_viewport_size({"width": width + 40, "height": 900})
    if page.url.split("#")[0] == base:
        page.evaluate("h => { location.hash = h; }", "#" + hash_)
    else:
        page.goto(url)
    viewport = page.viewport_size["width"]
    for _ in range(4):  # the page's margins differ between layouts: adjust until the column fits
        page.set_viewport_size({"width": viewport, "height": 900})
        got = page.evaluate("document.querySelector('figure.fig').clientWidth")
        if got == width:
            break
        viewport += width - got
    else:
        raise RuntimeError(f"could not size the figure column to {width} px (last {got} px)")
    # A section skipped for being far from view (content-visibility: auto) keeps the container
    # sizes of its last layout, and so the reserved height of the old width: lay every section out
    # once at the new width, as a load does.
    page.evaluate("""() => { const s = document.createElement('style');
        s.textContent = 'section.section { content-visibility: visible !important; }';
        document.head.append(s); document.body.offsetHeight; s.remove(); }""")
    named = sorted({key.split(".", 1)[0] for key in hash_.split("&") if "." in key.split("=")[0]})
    page.evaluate(
        """ids => Promise.all((ids.length ? ids : [...document.querySelectorAll('figure[data-src]')].map(f => f.id))
                       .map(id => K3._.restart(id)))""",
        named,
    )
    page.wait_for_function(
        ALL_READY_JS if not named else "ids => ids.every(id => document.getElementById(id).dataset.ready === 'true')",
        arg=named,
        timeout=60000,
    )
    page.evaluate(
        "() => document.fonts.ready.then(() => new Promise(r => requestAnimationFrame(() => requestAnimationFrame(r))))"
    )


def bands() -> dict[int, tuple[int, ...]]:
    """{width: columns to measure}: both ends of the band each reservation holds for, and any
    column beside the page's breakpoint that falls inside it"""
    tops = (WIDEST + 1,) + RESERVE_WIDTHS[:-1]
    return {
        w: (w, top - 1) + tuple(c for c in PAGE_BREAK_COLUMNS if w < c < top - 1)
        for w, top in zip(RESERVE_WIDTHS, tops, strict=True)
    }


def state_hashes(reserve_for: dict[str, list[dict]]) -> list[str]:
    """ "" (every default view), then one hash per round of listed states: the k-th state of every
    figure that lists one, restored together."""
    rounds = max((len(states) for states in reserve_for.values()), default=0)
    return [""] + [
        "#"
        + "&".join(
            f"{fid}.{key}={value}"
            for fid, states in sorted(reserve_for.items())
            if k < len(states)
            for key, value in states[k].items()
        )
        for k in range(rounds)
    ]


def measure(url: str, reserve_for: dict[str, list[dict]]) -> dict[str, dict[int, float]]:
    """{figure id: {width: px its views need anywhere in that width's band}}"""
    from playwright.sync_api import sync_playwright

    out: dict[str, dict[int, float]] = {}
    with sync_playwright() as p:
        browser = p.chromium.launch(**LAUNCH)
        page = browser.new_page()
        for width, ends in bands().items():
            for column in ends:
                for hash_ in state_hashes(reserve_for):
                    open_at_width(page, url + hash_, column)
                    for fid, used in page.evaluate(MEASURE_JS).items():
                        band = out.setdefault(fid, {})
                        band[width] = max(band.get(width, 0.0), used)
        browser.close()
    return out


def measure_sections(url: str) -> dict[str, dict[int, float]]:
    """{section id: {viewport width: px of content}}, the math fonts loaded, no figure started
    (each holds its reserved height, which its drawing fits)."""
    from playwright.sync_api import sync_playwright

    out: dict[str, dict[int, float]] = {}
    with sync_playwright() as p:
        browser = p.chromium.launch(**LAUNCH)
        page = browser.new_page()
        page.goto(url)
        page.evaluate(MATH_FONTS_JS)
        for width in SECTION_WIDTHS:
            page.set_viewport_size({"width": width, "height": 900})
            for sid, px in page.evaluate(SECTION_HEIGHTS_JS, True).items():
                out.setdefault(sid, {})[width] = px
        browser.close()
    return out


def reserved(used: float) -> int:
    return int(math.ceil((used + HEADROOM) / 10) * 10)


def write_heights(path: Path, heights: dict[int, int], note: str) -> None:
    """Replace the file's top-level `height:` (one line, or a mapping block) with one height per
    width; a section's front matter without one gets it before its closing `---`."""
    text = path.read_text(encoding="utf-8")
    block = f"height:  # {note}: python -m k3explainer.reserve --write\n" + "".join(
        f"  {w}: {px}\n" for w, px in heights.items()
    )
    new, n = re.subn(r"^height:.*\n(?:[ \t]+.*\n)*", lambda _: block, text, count=1, flags=re.M)
    if n == 0 and path.suffix == ".md":
        new, n = re.subn(r"\A(---\n.*?)^---$", lambda m: m[1] + block + "---", text, count=1, flags=re.M | re.S)
    if n != 1:
        raise ValueError(f"{path}: no top-level `height:` to replace")
    path.write_text(new, encoding="utf-8")


def section_files(content: Path) -> dict[str, Path]:
    """{section id: its file}, from each front matter's `id:` line."""
    found = {}
    for path in sorted(content.glob("*.md")):
        front = re.match(r"---\n(.*?)^---$", path.read_text(encoding="utf-8"), flags=re.M | re.S)
        sid = front and re.search(r"^id:\s*(\S+)\s*$", front[1], flags=re.M)
        if sid:
            found[sid[1].strip("'\"")] = path
    return found


def main(argv: list[str] | None = None, *, prog: str | None = None) -> int:
    ap = argparse.ArgumentParser(prog=prog, description=__doc__.split("\n\n")[0])
    ap.add_argument("--root", type=Path, default=Path.cwd(), help="the project (default: the current folder)")
    ap.add_argument(
        "--write",
        action="store_true",
        help="record the measured heights in figures/*/figure.yaml and in each section's front matter",
    )
    ap.add_argument(
        "--figure",
        action="append",
        metavar="fig-NN",
        help="only this figure (repeatable); the other figures and the sections are neither printed nor written",
    )
    args = ap.parse_args(argv)
    from .site.errors import Diagnostics
    from .site.pipeline import Project, build
    from .site.specs import load_specs

    root = args.root.resolve()
    if not (root / "content").is_dir() or not (root / "figures").is_dir():
        ap.error(f"{root} is not a project: it has no content/ and figures/ (use --root)")
    specs = load_specs(root / "figures", Diagnostics(root))
    chosen = set(args.figure or specs)
    for fid in chosen - set(specs):
        near = difflib.get_close_matches(fid, specs, n=1)
        ap.error(f"unknown figure {fid!r}" + (f"; did you mean {near[0]!r}?" if near else ""))
    reserve_for = {
        fid: spec.model.reserve_for for fid, spec in specs.items() if spec.model.reserve_for and fid in chosen
    }
    with tempfile.TemporaryDirectory() as tmp:
        site = Path(tmp) / "_site"
        build(Project(root), site)
        server, url = serve(site)
        try:
            used = measure(url, reserve_for)
            used = {fid: px for fid, px in used.items() if fid in chosen}
            print(
                "figure   "
                + "".join(f"{w:>7}" for w in RESERVE_WIDTHS)
                + "   (px needed by the default view and reserve_for states, by figure width)"
            )
            for fid in sorted(used):
                print(f"{fid:<8} " + "".join(f"{used[fid][w]:>7.0f}" for w in RESERVE_WIDTHS))
                if args.write:
                    write_heights(
                        specs[fid].path,
                        {w: reserved(used[fid][w]) for w in RESERVE_WIDTHS},
                        "px reserved by figure width",
                    )
            if args.write:
                print(f"wrote the heights of {len(used)} specs (+{HEADROOM} px, rounded up to 10)")
            if args.figure:  # a figure's own run: the sections are left as they are
                return 0
            if args.write:  # the sections hold the figures' new heights
                build(Project(root), site)
            tall = measure_sections(url)
        finally:
            server.shutdown()
    print(
        "section              "
        + "".join(f"{w:>7}" for w in SECTION_WIDTHS)
        + "   (px of content before layout, by viewport width)"
    )
    files = section_files(root / "content")
    for sid, px in tall.items():
        print(f"{sid:<20} " + "".join(f"{px[w]:>7.0f}" for w in SECTION_WIDTHS))
        if args.write:
            write_heights(files[sid], {w: round(px[w]) for w in SECTION_WIDTHS}, "px before layout, by viewport width")
    if args.write:
        print(f"wrote the heights of {len(tall)} sections")
    return 0


if __name__ == "__main__":
    sys.exit(main())
