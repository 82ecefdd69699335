"""Math at build time: the formulas of a build go to Temml in node (TeX to MathML), one node
process a build; the browser draws the MathML with a shipped math font.

MathML rather than KaTeX's HTML: the article's formulas took 524 KB of KaTeX markup (a dozen spans
per symbol, and a hidden MathML copy for screen readers) against 71 KB of MathML, and the page went
from 18,600 elements to 6,650, which is what the browser lays out and paints on every change.

Results are cached by (Temml version, render script, formula, display mode) in .cache/math.json,
so `--serve` rebuilds only pay for formulas that changed. The page carries no math JavaScript.
The prose's and captions' formulas are known before the figure builders run, so they start
rendering in a thread while the builders compute (`prefetch_math`); the few a builder writes are
rendered after. A build with no math cache starts its node process first thing (`start_renderer`,
called by the CLI before it imports the pipeline), so node and Temml load while Python does.
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
from typing import TYPE_CHECKING

from .errors import Diagnostics
from .memo import Memo

if TYPE_CHECKING:  # (the CLI starts node from here before it loads the Markdown parser)
    from .markdown import MathItem

SCRIPT = Path(__file__).with_name("math_render.cjs")


def renderer_version(node_modules: Path, memo: Memo | None = None) -> str:
    """Temml's version and the render script's hash: a change to either renders every formula again."""
    package, script = node_modules / "temml" / "package.json", SCRIPT
    if memo is None:
        return _version(package.read_bytes(), script.read_bytes())
    parts = (memo.files.bytes(package), memo.files.bytes(script))
    return memo.get(("math version", node_modules), parts, lambda: _version(*parts))


def _version(package: bytes, script: bytes) -> str:
    return json.loads(package)["version"] + "/" + hashlib.sha256(script).hexdigest()[:16]


def _key(version: str, memo: Memo | None = None):
    """Formula → its cache key; with a memo the keys are remembered (a rebuild needs all of them)."""
    def key(m: MathItem) -> str:
        return hashlib.sha256(f"{version}\0{int(m.display)}\0{m.tex}".encode()).hexdigest()

    if memo is None:
        return key
    known: dict = memo.keep(f"math keys {version}", dict)

    def remembered(m: MathItem) -> str:
        k = known.get(m)
        if k is None:
            k = known[m] = key(m)
        return k

    return remembered


class Renderer:
    """One node process for a build: a batch of formulas goes in as a JSON line and its results come
    back as one, so the figure builders' few formulas, rendered after the prose's, do not pay for
    a second node start and Temml load (~0.2 s of a cold build)."""

    def __init__(self, node: str, node_modules: Path):
        self.proc = subprocess.Popen([node, str(SCRIPT), str(node_modules)], stdin=subprocess.PIPE,
                                     stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, encoding="utf-8")
        # a build that stops before collecting its formulas drops the renderer: node sees the end
        # of its input and exits, rather than waiting for a batch that never comes; a dropped
        # renderer's process is reaped then (one that was closed has long exited by that time)
        weakref.finalize(self, _end, self.proc)

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
        """The build has all its formulas: node exits while the build goes on (not waited for here)."""
        self.proc.stdin.close()

    def stop(self) -> None:
        """End node at once: the build stopped before it had formulas to send."""
        self.proc.kill()
        self.proc.wait()


def _end(proc: subprocess.Popen) -> None:
    proc.stdin.close()
    proc.wait()


class Prefetch:
    """Formulas sent to node as soon as they are known, batch after batch on one node process, in
    a thread (node runs while Python goes on): the prose's and captions' before the builders run,
    each figure's own as its builder returns. render_math collects them."""

    def __init__(self, node: str, node_modules: Path, key, cache: dict, renderer: Renderer | None = None):
        self.node, self.node_modules, self.key, self.cache = node, node_modules, key, cache
        self.renderer = renderer
        self.pool: ThreadPoolExecutor | None = None
        self.sent: set[MathItem] = set()
        self.jobs: list[tuple[list[MathItem], Future]] = []

    def add(self, items: list[MathItem]) -> None:
        missing = [m for m in dict.fromkeys(items) if m not in self.sent and self.key(m) not in self.cache]
        if not missing:
            return
        if self.renderer is None:
            self.renderer = Renderer(self.node, self.node_modules)
        if self.pool is None:
            self.pool = ThreadPoolExecutor(max_workers=1)
        self.sent.update(missing)
        self.jobs.append((missing, self.pool.submit(self.renderer.render, missing)))

    def finish(self) -> None:
        if self.pool is not None:
            self.pool.shutdown(wait=False)


def start_renderer(node_modules: Path, cache_file: Path) -> Renderer | None:
    """The node process of a build that has no math cache (every formula will need it), started
    before the formulas are known: its start and Temml's load (~0.2 s of CPU) then overlap with
    Python's work. None with a cache, or without Temml or node."""
    node = shutil.which("node")
    if node is None or not (node_modules / "temml").is_dir() or cache_file.exists():
        return None
    return Renderer(node, node_modules)


def prefetch_math(items: list[MathItem], node_modules: Path, cache_file: Path, memo: Memo | None = None,
                  renderer: Renderer | None = None) -> Prefetch | None:
    """Start rendering the formulas not in the cache (more may be added to the returned Prefetch);
    render_math collects them, and renders any others on the same node process (`renderer` if
    one was started already). None without Temml or node (render_math reports that)."""
    node = shutil.which("node")
    if node is None or not (node_modules / "temml").is_dir():
        return None
    prefetch = Prefetch(node, node_modules, _key(renderer_version(node_modules, memo), memo), _read_cache(cache_file, memo),
                        renderer)
    prefetch.add(items)
    return prefetch


def render_math(items: list[tuple[MathItem, Path, int, int]], node_modules: Path, cache_file: Path,
                diags: Diagnostics, prefetched: Prefetch | None = None, memo: Memo | None = None) -> dict[MathItem, str]:
    """Render every distinct formula; report failures at each place the formula was written."""
    if not (node_modules / "temml").is_dir():
        diags.add(node_modules, 1, 1, "Temml is not installed: run `npm ci --ignore-scripts`")
        return {}
    key = _key(renderer_version(node_modules, memo), memo)
    cache = _read_cache(cache_file, memo)
    fresh = False
    renderer = None
    try:
        if prefetched is not None:
            renderer = prefetched.renderer
            for formulas, job in prefetched.jobs:
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
        if prefetched is not None:
            prefetched.finish()
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


def _read_cache(path: Path, memo: Memo | None = None) -> dict:
    """The rendered formulas; with a memo, read once and then kept in memory (entries are only
    ever added, each under a key naming the renderer's version, so the memory stays valid)."""
    if memo is not None:
        return memo.keep(f"math cache {path}", lambda: _read_cache(path))
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


def math_assets(node_modules: Path, fonts: Path, memo: Memo | None = None) -> dict[str, bytes]:
    """Temml's stylesheet, and the math fonts with their @font-face rules in a sheet of their own.

    The font sheet is added by the runtime only when math nears the viewport, so the first view
    fetches no math font; within it, the browser fetches only the faces whose Unicode ranges the
    formulas use (theme/math-fonts/make_fonts.py). Temml's own small font draws primes and script capitals."""
    dist = node_modules / "temml" / "dist"
    inputs = [dist / "Temml-Latin-Modern.css", fonts / "fonts.css", dist / "Temml.woff2", *(fonts / n for n in FONT_FILES)]
    if memo is None:
        return _math_assets([p.read_bytes() for p in inputs])
    contents = tuple(memo.files.bytes(p) for p in inputs)
    return dict(memo.get(("math assets", node_modules, fonts), contents, lambda: _math_assets(list(contents))))


def _math_assets(contents: list[bytes]) -> dict[str, bytes]:
    temml_css, fonts_css, temml_font, *font_files = contents
    css = COMMENT.sub("", _text(temml_css))
    temml_face = next(f for f in FONT_FACE.findall(css) if "Temml.woff2" in f)
    css = FONT_FACE.sub("", css).replace('"Latin Modern Math"', '"Latin Modern Math Web"')
    faces = _text(fonts_css) + temml_face.replace("font-style", "font-display: swap;\n  font-style") + "\n"
    files = {
        "vendor/math/temml.css": "\n".join(line.rstrip() for line in css.splitlines() if line.strip()).encode() + b"\n",
        "vendor/math/math-fonts.css": faces.encode(),
        "vendor/math/Temml.woff2": temml_font,
    }
    for name, data in zip(FONT_FILES, font_files):
        files[f"vendor/math/{name}"] = data
    return files


def _text(data: bytes) -> str:
    """As Path.read_text(encoding="utf-8") would read the file: newlines translated."""
    return data.decode("utf-8").replace("\r\n", "\n").replace("\r", "\n")
