"""Benchmark: `python -m k3explainer.bench [--runs N]` measures the build and the built page.

Prints build times (cold = fresh process and empty caches; rebuild = fresh process, figure data
and math cached) against a bare markdown-it render of the same sections, rebuild-to-reload time under --serve
(after a prose edit, and after a figure param edit that runs its builder again),
byte counts (first view, per figure, after scrolling everything in), paint timings and layout
shift in Chromium at desktop and phone sizes, and for every live figure the p50/p95 time from an
input event to the next painted frame. Numbers, not assertions: budgets are tested elsewhere.
"""

from __future__ import annotations

import argparse
import functools
import gzip
import re
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
import urllib.request
from pathlib import Path

from .browser import LAUNCH, serve

BUILD = [sys.executable, "-m", "k3explainer.cli", "build"]


def _build_seconds(root: Path, out: Path, *, cold: bool) -> float:
    """A fresh process building `root` into `out`: cold (empty caches) or with the figure data
    and math the last build cached."""
    if cold:
        shutil.rmtree(root / ".cache", ignore_errors=True)
    t0 = time.perf_counter()
    subprocess.run([*BUILD, "--root", str(root), "--out", str(out)], check=True, capture_output=True)
    return time.perf_counter() - t0


def _bare_markdown_seconds(root: Path) -> float:
    """A fresh process that only renders the sections with plain markdown-it (the floor)."""
    code = (
        "import time,pathlib;t=time.perf_counter();from markdown_it import MarkdownIt;md=MarkdownIt('commonmark');"
        f"[md.render(p.read_text()) for p in sorted(pathlib.Path({str(root / 'content')!r}).glob('*.md'))];"
        "print(time.perf_counter()-t)"
    )
    t0 = time.perf_counter()
    subprocess.run([sys.executable, "-c", code], check=True, capture_output=True)
    return time.perf_counter() - t0


def _reload_seconds(root: Path, tmp: Path) -> float:
    """Edit one section under --serve and time until the reload event reaches a client."""

    def edit(project: Path) -> None:
        section = project / "content" / "06-deltanet.md"
        section.write_text(section.read_text() + "\nOne more sentence.\n")

    return _serve_edit_seconds(root, tmp, edit)


# A figure whose builder is cheap (a few ms) and writes no Markdown, and a param of it: the edit
# times what --serve itself adds to a builder's run (reparse the spec, run the builder, ship its data).
FIGURE_EDIT = ("fig-02", "seed")


def _figure_reload_seconds(root: Path, tmp: Path) -> float:
    """Edit a param of one figure spec under --serve (its builder runs again: the new params are
    in no cache) and time until the reload event reaches a client."""
    fid, param = FIGURE_EDIT

    def edit(project: Path) -> None:
        spec = next((project / "figures").glob(f"{fid}-*/figure.yaml"))
        text, n = re.subn(
            rf"(?m)^(  {param}: )(\d+)", lambda m: f"{m.group(1)}{int(m.group(2)) + 1}", spec.read_text(), count=1
        )
        if not n:
            raise RuntimeError(f"{spec.name} has no integer param {param!r} to edit (see bench.FIGURE_EDIT)")
        spec.write_text(text)

    return _serve_edit_seconds(root, tmp, edit)


def _serve_edit_seconds(root: Path, tmp: Path, edit) -> float:
    """Serve a copy of the project, make `edit(copy)` and time until the reload event reaches a
    client. The copy starts from the project's caches (figure data, math) but writes its own, so an
    edit measured here never invalidates the project's."""
    project = tmp / "project"
    for folder in ("content", "templates", "static", "figures", "experiments"):  # what exists of them
        if (root / folder).is_dir():
            shutil.copytree(root / folder, project / folder, ignore=shutil.ignore_patterns("__pycache__"))
    if (root / "derived.py").is_file():
        shutil.copy(root / "derived.py", project / "derived.py")
    (project / "node_modules").symlink_to(root / "node_modules")
    if (root / "tests").is_dir():  # the tests content/corrections.yaml names must exist
        (project / "tests").symlink_to(root / "tests")
    for cached in ("figures", "math.json"):
        source = root / ".cache" / cached
        if source.is_dir():
            shutil.copytree(source, project / ".cache" / cached)
        elif source.is_file():
            (project / ".cache").mkdir(exist_ok=True)
            shutil.copy(source, project / ".cache" / cached)
    log = tmp / "serve.log"
    with open(log, "w") as sink:
        proc = subprocess.Popen(
            [
                sys.executable,
                "-u",
                "-m",
                "k3explainer.cli",
                "serve",
                "--root",
                str(project),
                "--port",
                "0",
                "--out",
                str(tmp / "served"),
            ],
            stdout=sink,
            stderr=subprocess.STDOUT,
        )
    try:
        for _ in range(600):
            m = re.search(r"at (http://127\.0\.0\.1:\d+/)", log.read_text())
            if m or proc.poll() is not None:
                break
            time.sleep(0.1)
        if not m:
            raise RuntimeError(f"the server did not start; its log:\n{log.read_text()[-2000:]}")
        events = urllib.request.urlopen(m.group(1) + "__k3/events", timeout=60)
        t0 = time.perf_counter()
        edit(project)
        while True:
            line = events.readline()
            if not line:
                raise RuntimeError(f"the server closed the event stream; its log:\n{log.read_text()[-2000:]}")
            if b"event: reload" in line:
                break
            if b"event: error-report" in line:
                raise RuntimeError(f"the edit broke the build; the server's log:\n{log.read_text()[-2000:]}")
        return time.perf_counter() - t0
    finally:
        proc.terminate()
        proc.wait()


PAINT_JS = """() => new Promise(resolve => {
  let lcp = 0, cls = 0;
  new PerformanceObserver(l => { for (const e of l.getEntries()) lcp = e.startTime; }).observe({type: 'largest-contentful-paint', buffered: true});
  new PerformanceObserver(l => { for (const e of l.getEntries()) if (!e.hadRecentInput) cls += e.value; }).observe({type: 'layout-shift', buffered: true});
  setTimeout(() => resolve({fcp: performance.getEntriesByName('first-contentful-paint')[0]?.startTime, lcp, cls}), 1500);
})"""

# The floor of the measure below on this machine: a button whose click changes one word, timed the
# same way. Machines here differ by 2× or more between sessions; a figure's excess over the floor
# is what its own code costs, so notes can be compared across machines.
FLOOR_JS = """async () => {
  const frame = () => new Promise(r => requestAnimationFrame(() => requestAnimationFrame(r)));
  const b = document.createElement('button');
  b.textContent = 'off';
  b.addEventListener('click', () => { b.textContent = b.textContent === 'off' ? 'on' : 'off'; });
  document.querySelector('main, body').appendChild(b);
  const times = [];
  for (let i = 0; i < 36; i++) {
    const t0 = performance.now();
    b.dispatchEvent(new MouseEvent('click', {bubbles: true}));
    await frame();
    times.push(performance.now() - t0);
  }
  b.remove();
  return times.sort((x, y) => x - y);
}"""

# Click every control of a figure (buttons, SVG buttons, radios, sliders) and time input → next painted
# frame: [ms, the control's name] per event, so a slow figure's report can say which control is slow.
INPUT_JS = """async (id) => {
  const fig = document.getElementById(id);
  const frame = () => new Promise(r => requestAnimationFrame(() => requestAnimationFrame(r)));
  const controls = () => [...fig.querySelectorAll('.fig-stage button:not([disabled]), .fig-stage [role=button], .fig-stage [role=radio], .fig-stage input[type=range]')];
  const n = Math.min(12, controls().length), times = [];
  for (let round = 0; round < 3; round++) for (let i = 0; i < n; i++) {
    const c = controls()[i];  // looked up each time: a figure may redraw its controls
    if (!c) continue;
    const t0 = performance.now();
    if (c.type === 'range') { c.value = (+c.value + 1) % (+c.max + 1); c.dispatchEvent(new Event('input', {bubbles: true})); }
    else c.dispatchEvent(new MouseEvent('click', {bubbles: true}));  // SVG controls have no .click()
    await frame();
    times.push([performance.now() - t0, (c.getAttribute('aria-label') || c.textContent || c.type || c.tagName).trim().slice(0, 40)]);
  }
  return times;
}"""


def _record_size(sizes: dict[str, int], response) -> None:
    from playwright.sync_api import Error as PlaywrightError

    if not response.ok:
        return
    try:
        sizes[response.url] = len(response.body())
    except PlaywrightError:  # the page closed while this response was in flight: nothing to count
        return


def _browser_metrics(site: Path) -> dict:
    from playwright.sync_api import sync_playwright

    server, url = serve(site)
    out: dict = {}
    try:
        with sync_playwright() as p:
            browser = p.chromium.launch(**LAUNCH)
            for name, viewport in (
                ("desktop", {"width": 1280, "height": 900}),
                ("phone", {"width": 390, "height": 844}),
            ):
                page = browser.new_page(viewport=viewport)
                sizes: dict[str, int] = {}
                page.on("response", functools.partial(_record_size, sizes))
                page.goto(url)
                out[f"{name}_paint"] = page.evaluate(PAINT_JS)
                if name == "desktop":
                    out["first_view_files"] = sorted(u.split("/", 3)[3] for u in sizes)
                    page.evaluate("K3.initAll()")
                    page.wait_for_function(
                        "[...document.querySelectorAll('figure[data-src]')].every(f => f.dataset.ready)", timeout=60000
                    )
                    out["all_files"] = sorted(u.split("/", 3)[3] for u in sizes)
                    out["input_floor"] = page.evaluate(FLOOR_JS)
                    out["input_to_paint"] = {}
                    for fid in page.eval_on_selector_all("figure[data-src]", "els => els.map(e => e.id)"):
                        page.locator(f"#{fid}").scroll_into_view_if_needed()
                        # let math fonts that the scroll brought near finish and the page re-lay out,
                        # so the first clicks time the figure, not the page settling around it
                        page.evaluate("() => document.fonts.ready.then(() => new Promise(r => setTimeout(r, 500)))")
                        events = sorted(page.evaluate(INPUT_JS, fid), key=lambda e: e[0])
                        if events:
                            times = [ms for ms, _ in events]
                            out["input_to_paint"][fid] = (
                                times[len(times) // 2],
                                times[int(len(times) * 0.95) - 1 if len(times) > 1 else 0],
                                len(times),
                                events[::-1][:3],
                            )
                page.close()
            browser.close()
    finally:
        server.shutdown()
    return out


def _bytes(site: Path, files: list[str]) -> tuple[int, int]:
    paths = [site / f.split("#")[0].split("?")[0] for f in files]
    data = [p.read_bytes() for p in paths if p.is_file()]
    return sum(map(len, data)), sum(len(gzip.compress(d, mtime=0)) for d in data)


ARTICLE = re.compile(rb"(<main\b.*?</main>)", re.S)
TEXT = re.compile(rb">[^<]+<")


def _without_text_gzip(site: Path, files: list[str]) -> int:
    """The first view's gzip bytes with the article's own text taken out: every run of text
    between two tags inside <main> (its markup, attributes and MathML elements stay), so what is
    left is what the engine adds to the words."""
    paths = [site / f.split("#")[0].split("?")[0] for f in files]
    data = [p.read_bytes() for p in paths if p.is_file()]
    data = [
        ARTICLE.sub(lambda m: TEXT.sub(b"><", m.group(1)), d) if p.suffix == ".html" else d
        for p, d in zip(paths, data, strict=True)
    ]
    return sum(len(gzip.compress(d, mtime=0)) for d in data)


def _suite_seconds(root: Path, *marks: str) -> float:
    """The test suite as the README runs it (deps installed), optionally narrowed by `-m`."""
    t0 = time.perf_counter()
    subprocess.run(
        [sys.executable, "-m", "pytest", "-p", "no:cacheprovider", *marks], cwd=root, check=True, capture_output=True
    )
    return time.perf_counter() - t0


# Budgets (issue 34): measure → (limit, "max" | "min"); docs/performance.md keeps the measured values.
BUDGETS = {
    "Lighthouse mobile performance (median)": (95, "min"),
    "Lighthouse mobile total blocking time, ms": (200, "max"),
    "Lighthouse mobile LCP, ms": (2000, "max"),
    "Lighthouse desktop performance (median)": (99, "min"),
    "first view before any figure, gzip B": (100_000, "max"),
    "first view without the article's text, gzip B": (40_000, "max"),
    "input → next painted frame p95, worst figure, ms": (50, "max"),
    "--serve: edit a section → reload event, s": (0.5, "max"),
    "--serve: edit a figure's param → reload event, s": (0.5, "max"),
    "cold build, s": (2.0, "max"),
    "layout shift (desktop and phone)": (0, "max"),
    "whole suite (python -m pytest), s": (180, "max"),
    "suite without the browser (-m 'not browser'), s": (30, "max"),
}


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m k3explainer.bench", description=__doc__.split("\n")[0])
    parser.add_argument("--root", type=Path, default=Path.cwd(), help="the project (default: the current folder)")
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--lighthouse-runs", type=int, default=3, help="Lighthouse runs per preset (0 skips it)")
    parser.add_argument("--suite", action="store_true", help="also time the test suite, whole and without the browser")
    args = parser.parse_args(argv)
    root = args.root.resolve()
    measured: dict[str, float] = {}
    with tempfile.TemporaryDirectory() as tmp:
        tmp = Path(tmp)
        site = tmp / "site"
        cold = [_build_seconds(root, site, cold=True) for _ in range(args.runs)]
        rebuild = [_build_seconds(root, site, cold=False) for _ in range(args.runs)]
        bare = [_bare_markdown_seconds(root) for _ in range(args.runs)]
        reload_s = statistics.median(_reload_seconds(root, tmp / f"reload-{i}") for i in range(args.runs))
        figure_reload_s = statistics.median(
            _figure_reload_seconds(root, tmp / f"figure-reload-{i}") for i in range(args.runs)
        )
        summary = subprocess.run(
            [*BUILD, "--root", str(root), "--out", str(site)], check=True, capture_output=True, text=True
        ).stdout
        m = _browser_metrics(site)
        fmt = lambda xs: f"min {min(xs):.2f} s, median {statistics.median(xs):.2f} s"
        print(f"build, cold (empty caches):     {fmt(cold)}")
        print(f"rebuild, figure data cached:    {fmt(rebuild)}")
        print(
            f"bare markdown-it baseline:      {fmt(bare)}  → cold build is {statistics.median(cold) / statistics.median(bare):.1f}× the baseline"
        )
        print(
            f"--serve edit → reload event:    {reload_s:.2f} s (a section), {figure_reload_s:.2f} s "
            f"({FIGURE_EDIT[0]}'s {FIGURE_EDIT[1]}); median of {args.runs}"
        )
        raw, gz = _bytes(site, m["first_view_files"])
        measured["first view before any figure, gzip B"] = gz
        engine = measured["first view without the article's text, gzip B"] = _without_text_gzip(
            site, m["first_view_files"]
        )
        print(f"  without the article's text: {engine:,d} B gzip")
        print(f"first view ({len(m['first_view_files'])} files: HTML, CSS, JS, fonts): {raw:,d} B raw, {gz:,d} B gzip")
        print(f"  plotly fetched on first view: {any('plotly' in f for f in m['first_view_files'])}")
        raw, gz = _bytes(site, m["all_files"])
        print(f"after every figure has loaded ({len(m['all_files'])} files): {raw:,d} B raw, {gz:,d} B gzip")
        print("bytes per figure (data + component + sheet):")
        for line in summary.splitlines():
            if re.match(r"\s+fig-", line):
                print("  " + line.strip())
        for name in ("desktop", "phone"):
            p = m[f"{name}_paint"]
            print(f"{name}: FCP {p['fcp']:.0f} ms, LCP {p['lcp']:.0f} ms, layout shift {p['cls']:.4f}")
        floor = m["input_floor"]
        print(
            f"input → next painted frame (p50 / p95 over n events); the floor here, a click that changes one word: "
            f"{floor[len(floor) // 2]:.1f} / {floor[int(len(floor) * 0.95) - 1]:.1f} ms"
        )
        limit = BUDGETS["input → next painted frame p95, worst figure, ms"][0]
        for fid, (p50, p95, n, slowest) in m["input_to_paint"].items():
            over = ", ".join(f"{label!r} {ms:.0f} ms" for ms, label in slowest if ms > limit)
            print(f"  {fid:8s} {p50:6.1f} ms / {p95:6.1f} ms  (n={n})" + (f"  over {limit} ms: {over}" if over else ""))
        measured["input → next painted frame p95, worst figure, ms"] = max(
            p95 for _, p95, *_ in m["input_to_paint"].values()
        )
        measured["--serve: edit a section → reload event, s"] = reload_s
        measured["--serve: edit a figure's param → reload event, s"] = figure_reload_s
        measured["cold build, s"] = statistics.median(cold)
        measured["layout shift (desktop and phone)"] = max(m["desktop_paint"]["cls"], m["phone_paint"]["cls"])
        if args.lighthouse_runs:
            from .lighthouse import median_of

            lh = median_of(site, root, args.lighthouse_runs)
            for preset, v in lh.items():
                print(
                    f"lighthouse {preset} (median of {args.lighthouse_runs}): performance {v['score']:.0f}, "
                    f"FCP {v['FCP ms']:.0f} ms, LCP {v['LCP ms']:.0f} ms, TBT {v['TBT ms']:.0f} ms, CLS {v['CLS']:.3f}"
                )
            measured["Lighthouse mobile performance (median)"] = lh["mobile"]["score"]
            measured["Lighthouse mobile total blocking time, ms"] = lh["mobile"]["TBT ms"]
            measured["Lighthouse mobile LCP, ms"] = lh["mobile"]["LCP ms"]
            measured["Lighthouse desktop performance (median)"] = lh["desktop"]["score"]
    if args.suite:
        measured["whole suite (python -m pytest), s"] = _suite_seconds(root)
        measured["suite without the browser (-m 'not browser'), s"] = _suite_seconds(root, "-m", "not browser")
    print("\nbudgets:")
    for name, (limit, kind) in BUDGETS.items():
        if name not in measured:
            print(f"  {'skipped':7s} {name}")
            continue
        value = measured[name]
        ok = value <= limit if kind == "max" else value >= limit
        print(
            f"  {'pass' if ok else 'FAIL':7s} {name}: {value:,.{3 if value < 10 and value != int(value) else 0}f} "
            f"({'≤' if kind == 'max' else '≥'} {limit:,})"
        )
    return 0


if __name__ == "__main__":
    sys.exit(main())
