"""Math at build time: the formulas of a build go to Temml in node (TeX to MathML), one node
process a build; the browser draws the MathML with a shipped math font.

MathML rather than KaTeX's HTML: the article's formulas took 524 KB of KaTeX markup (a dozen spans
per symbol, and a hidden MathML copy for screen readers) against 71 KB of MathML, and the page went
from 18,600 elements to 6,650, which is what the browser lays out and paints on every change.

Results are cached by (Temml version, render script, formula, display mode) in .cache/math.json,
so `--serve` rebuilds only pay for formulas that changed. The page carries no math JavaScript.
The prose's and captions' formulas are known before the figure builders run, so they start
rendering in a thread while the builders compute (`prefetch_math`); the few a builder writes are
rendered after.
"""
from __future__ import annotations

import hashlib
import json
import os
import re
import shutil
import subprocess
import weakref
from concurrent.futures import Future, ThreadPoolExecutor
from pathlib import Path

from .errors import Diagnostics
from .markdown import MathItem

SCRIPT = Path(__file__).with_name("math_render.cjs")


def _renderer_version(node_modules: Path) -> str:
    """Temml's version and the render script's hash: a change to either renders every formula again."""
    temml = json.loads((node_modules / "temml" / "package.json").read_text())["version"]
    return temml + "/" + hashlib.sha256(SCRIPT.read_bytes()).hexdigest()[:16]


def _key(version: str):
    return lambda m: hashlib.sha256(f"{version}\0{int(m.display)}\0{m.tex}".encode()).hexdigest()


class Renderer:
    """One node process for a build: a batch of formulas goes in as a JSON line and its results come
    back as one, so the figure builders' few formulas, rendered after the prose's, do not pay for
    a second node start and Temml load (~0.2 s of a cold build)."""

    def __init__(self, node: str, node_modules: Path):
        self.proc = subprocess.Popen([node, str(SCRIPT), str(node_modules)], stdin=subprocess.PIPE,
                                     stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, encoding="utf-8")
        # a build that stops before collecting its formulas drops the renderer: node sees the end
        # of its input and exits, rather than waiting for a batch that never comes
        weakref.finalize(self, self.proc.stdin.close)

    def render(self, formulas: list[MathItem]) -> list[dict] | str:
        """The formulas' results in order, or node's error."""
        batch = json.dumps([{"tex": m.tex, "display": m.display} for m in formulas])
        try:
            self.proc.stdin.write(batch + "\n")
            self.proc.stdin.flush()
            line = self.proc.stdout.readline()
        except OSError:
            line = ""
        if line:
            return json.loads(line)
        self.proc.wait()
        return f"math renderer failed: {self.proc.stderr.read().strip()[:400]}"

    def close(self) -> None:
        self.proc.stdin.close()
        self.proc.wait()


Prefetch = tuple[list[MathItem], "Future[list[dict] | str]", Renderer]


def prefetch_math(items: list[MathItem], node_modules: Path, cache_file: Path) -> Prefetch | None:
    """Start rendering the formulas not in the cache in a thread (node runs while Python goes on);
    render_math collects them, and renders any others on the same node process. None when there is
    nothing to start (or no Temml or node: render_math reports that)."""
    node = shutil.which("node")
    if node is None or not (node_modules / "temml").is_dir():
        return None
    key, cache = _key(_renderer_version(node_modules)), _read_cache(cache_file)
    missing = [m for m in dict.fromkeys(items) if key(m) not in cache]
    if not missing:
        return None
    renderer = Renderer(node, node_modules)
    pool = ThreadPoolExecutor(max_workers=1)
    job = pool.submit(renderer.render, missing)
    pool.shutdown(wait=False)
    return missing, job, renderer


def render_math(items: list[tuple[MathItem, Path, int, int]], node_modules: Path, cache_file: Path,
                diags: Diagnostics, prefetched: Prefetch | None = None) -> dict[MathItem, str]:
    """Render every distinct formula; report failures at each place the formula was written."""
    if not (node_modules / "temml").is_dir():
        diags.add(node_modules, 1, 1, "Temml is not installed: run `npm ci --ignore-scripts`")
        return {}
    key = _key(_renderer_version(node_modules))
    cache = _read_cache(cache_file)
    fresh = False
    renderer = None
    try:
        if prefetched is not None:
            formulas, job, renderer = prefetched
            results = job.result()
            if isinstance(results, str):
                diags.add(SCRIPT, 1, 1, results)
                return {}
            cache.update((key(m), res) for m, res in zip(formulas, results))
            fresh = True
        missing = [m for m in dict.fromkeys(m for m, *_ in items) if key(m) not in cache]
        if missing:
            node = shutil.which("node")
            if node is None:
                diags.add(SCRIPT, 1, 1, "node is needed to render math with Temml")
                return {}
            renderer = renderer or Renderer(node, node_modules)
            results = renderer.render(missing)
            if isinstance(results, str):
                diags.add(SCRIPT, 1, 1, results)
                return {}
            cache.update((key(m), res) for m, res in zip(missing, results))
            fresh = True
    finally:
        if renderer is not None:
            renderer.close()
    if fresh:
        _write_cache(cache_file, cache)
    html: dict[MathItem, str] = {}
    for m, path, line, col in items:
        res = cache[key(m)]
        if "error" in res:
            diags.add(path, line, col, f"bad math ${m.tex}$: {res['error']}")
        else:
            html[m] = res["html"]
    return html


def _read_cache(path: Path) -> dict:
    try:
        return json.loads(path.read_text())
    except (OSError, ValueError):
        return {}


def _write_cache(path: Path, cache: dict) -> None:
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        tmp = path.with_suffix(f".{os.getpid()}.tmp")  # parallel test builds write side by side
        tmp.write_text(json.dumps(cache, sort_keys=True))
        tmp.replace(path)
    except OSError:
        pass  # a cache we cannot write only costs time


FONT_FACE = re.compile(r"@font-face\s*\{[^}]*\}")
COMMENT = re.compile(r"/\*.*?\*/", re.S)
FONT_FILES = ("latinmodern-math-core.woff2", "latinmodern-math-more.woff2")


def math_assets(node_modules: Path, fonts: Path) -> dict[str, bytes]:
    """Temml's stylesheet, and the math fonts with their @font-face rules in a sheet of their own.

    The font sheet is added by the runtime only when math nears the viewport, so the first view
    fetches no math font; within it, the browser fetches only the faces whose Unicode ranges the
    formulas use (theme/math-fonts/make_fonts.py). Temml's own small font draws primes and script capitals."""
    dist = node_modules / "temml" / "dist"
    css = COMMENT.sub("", (dist / "Temml-Latin-Modern.css").read_text(encoding="utf-8"))
    temml_face = next(f for f in FONT_FACE.findall(css) if "Temml.woff2" in f)
    css = FONT_FACE.sub("", css).replace('"Latin Modern Math"', '"Latin Modern Math Web"')
    faces = (fonts / "fonts.css").read_text(encoding="utf-8") + temml_face.replace("font-style", "font-display: swap;\n  font-style") + "\n"
    files = {
        "vendor/math/temml.css": "\n".join(line.rstrip() for line in css.splitlines() if line.strip()).encode() + b"\n",
        "vendor/math/math-fonts.css": faces.encode(),
        "vendor/math/Temml.woff2": (dist / "Temml.woff2").read_bytes(),
    }
    for name in FONT_FILES:
        files[f"vendor/math/{name}"] = (fonts / name).read_bytes()
    return files
