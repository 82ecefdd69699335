"""Math at build time: the formulas of a build go to Temml in node (TeX to MathML), one node
process a build; the browser draws the MathML with a shipped math font.

MathML rather than KaTeX's HTML: the article's formulas took 524 KB of KaTeX markup (a dozen spans
per symbol, and a hidden MathML copy for screen readers) against 71 KB of MathML, and the page went
from 18,600 elements to 6,650, which is what the browser lays out and paints on every change.

Results are cached by (Temml version, render script, formula, display mode) in .cache/math.json,
so a rebuild renders only the formulas that changed. The page carries no math JavaScript.
"""

from __future__ import annotations

import hashlib
import json
import os
import re
import shutil
import subprocess
from pathlib import Path
from typing import TYPE_CHECKING

from .errors import Diagnostics

if TYPE_CHECKING:
    from .markdown import MathItem

SCRIPT = Path(__file__).with_name("math_render.cjs")


def renderer_version(node_modules: Path) -> str:
    """Temml's version and the render script's hash: a change to either renders every formula again."""
    package = json.loads((node_modules / "temml" / "package.json").read_bytes())
    return package["version"] + "/" + hashlib.sha256(SCRIPT.read_bytes()).hexdigest()[:16]


def _key(version: str, m: MathItem) -> str:
    return hashlib.sha256(f"{version}\0{int(m.display)}\0{m.tex}".encode()).hexdigest()


def run_temml(node: str, node_modules: Path, batches: list[list[MathItem]]) -> list[list[dict]] | str:
    """Each batch's results in order ({html} or {error}) from one node process, or node's error."""
    lines = "".join(json.dumps([{"tex": m.tex, "display": m.display} for m in b]) + "\n" for b in batches)
    done = subprocess.run(
        [node, str(SCRIPT), str(node_modules)], input=lines, capture_output=True, text=True, encoding="utf-8"
    )
    out = done.stdout.splitlines()
    if done.returncode != 0 or len(out) != len(batches):
        return f"math renderer failed: {done.stderr.strip()[:400]}"
    return [json.loads(line) for line in out]


def render_math(
    items: list[tuple[MathItem, Path, int, int]], node_modules: Path, cache_file: Path, diags: Diagnostics
) -> dict[MathItem, str]:
    """Render every distinct formula; report failures at each place the formula was written."""
    if not (node_modules / "temml").is_dir():
        diags.add(node_modules, 1, 1, "Temml is not installed: run `npm ci --ignore-scripts`")
        return {}
    version = renderer_version(node_modules)
    cache = _read_cache(cache_file)
    missing = [m for m in dict.fromkeys(m for m, *_ in items) if _key(version, m) not in cache]
    if missing:
        node = shutil.which("node")
        if node is None:
            diags.add(SCRIPT, 1, 1, "node is needed to render math with Temml")
            return {}
        results = run_temml(node, node_modules, [missing])
        if isinstance(results, str):
            diags.add(SCRIPT, 1, 1, results)
            return {}
        cache.update((_key(version, m), res) for m, res in zip(missing, results[0], strict=True))
        _write_cache(cache_file, cache)
    html: dict[MathItem, str] = {}
    for m, path, line, col in items:
        res = cache[_key(version, m)]
        if "error" in res:
            diags.add(path, line, col, f"bad math ${m.tex}$: {_first_line(res['error'])}")
        else:
            html[m] = res["html"]
    return html


def _first_line(error: str) -> str:
    """Temml's message without the copy of the formula it draws below it (a diagnostic is one line)."""
    return error.splitlines()[0].rstrip(": ") if error.strip() else error


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
    inputs = [
        dist / "Temml-Latin-Modern.css",
        fonts / "fonts.css",
        dist / "Temml.woff2",
        *(fonts / n for n in FONT_FILES),
    ]
    return _math_assets([p.read_bytes() for p in inputs])


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
    for name, data in zip(FONT_FILES, font_files, strict=True):
        files[f"vendor/math/{name}"] = data
    return files


def _text(data: bytes) -> str:
    """As Path.read_text(encoding="utf-8") would read the file: newlines translated."""
    return data.decode("utf-8").replace("\r\n", "\n").replace("\r", "\n")
