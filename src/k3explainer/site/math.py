"""Math at build time: the formulas of a build go to KaTeX in node, at most two calls a build.

Results are cached by (KaTeX version, formula, display mode) in .cache/katex.json, so `--serve`
rebuilds only pay for formulas that changed. The page carries no math JavaScript. The prose's and
captions' formulas are known before the figure builders run, so they start rendering in a thread
while the builders compute (`prefetch_math`); the few a builder writes are rendered after.
"""
from __future__ import annotations

import hashlib
import json
import os
import re
import shutil
import subprocess
from concurrent.futures import Future, ThreadPoolExecutor
from pathlib import Path

from .errors import Diagnostics
from .markdown import MathItem

SCRIPT = Path(__file__).with_name("katex_render.cjs")
# KaTeX repeats each formula's TeX source inside its MathML; readers and screen readers use the
# MathML itself, so the copy only costs bytes (about 4% of the page, gzipped).
TEX_ANNOTATION = re.compile(r'<annotation encoding="application/x-tex">.*?</annotation>', re.S)


def katex_version(node_modules: Path) -> str:
    return json.loads((node_modules / "katex" / "package.json").read_text())["version"]


def _key(version: str):
    return lambda m: hashlib.sha256(f"{version}\0{int(m.display)}\0{m.tex}".encode()).hexdigest()


def _katex(formulas: list[MathItem], node: str, node_modules: Path) -> list[dict] | str:
    """One node call rendering the formulas in order: a result per formula, or node's error."""
    proc = subprocess.run([node, str(SCRIPT), str(node_modules)], capture_output=True, text=True,
                          input=json.dumps([{"tex": m.tex, "display": m.display} for m in formulas]))
    return json.loads(proc.stdout) if proc.returncode == 0 else f"KaTeX renderer failed: {proc.stderr.strip()[:400]}"


Prefetch = tuple[list[MathItem], "Future[list[dict] | str]"]


def prefetch_math(items: list[MathItem], node_modules: Path, cache_file: Path) -> Prefetch | None:
    """Start rendering the formulas not in the cache in a thread (node runs while Python goes on);
    render_math collects them. None when there is nothing to start (or no KaTeX or node: render_math
    reports that)."""
    node = shutil.which("node")
    if node is None or not (node_modules / "katex").is_dir():
        return None
    key, cache = _key(katex_version(node_modules)), _read_cache(cache_file)
    missing = [m for m in dict.fromkeys(items) if key(m) not in cache]
    if not missing:
        return None
    pool = ThreadPoolExecutor(max_workers=1)
    job = pool.submit(_katex, missing, node, node_modules)
    pool.shutdown(wait=False)
    return missing, job


def render_math(items: list[tuple[MathItem, Path, int, int]], node_modules: Path, cache_file: Path,
                diags: Diagnostics, prefetched: Prefetch | None = None) -> dict[MathItem, str]:
    """Render every distinct formula; report failures at each place the formula was written."""
    if not (node_modules / "katex").is_dir():
        diags.add(node_modules, 1, 1, "KaTeX is not installed: run `npm ci --ignore-scripts`")
        return {}
    key = _key(katex_version(node_modules))
    cache = _read_cache(cache_file)
    fresh = False
    if prefetched is not None:
        formulas, job = prefetched
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
            diags.add(SCRIPT, 1, 1, "node is needed to render math with KaTeX")
            return {}
        results = _katex(missing, node, node_modules)
        if isinstance(results, str):
            diags.add(SCRIPT, 1, 1, results)
            return {}
        cache.update((key(m), res) for m, res in zip(missing, results))
        fresh = True
    if fresh:
        _write_cache(cache_file, cache)
    html: dict[MathItem, str] = {}
    for m, path, line, col in items:
        res = cache[key(m)]
        if "error" in res:
            diags.add(path, line, col, f"bad math ${m.tex}$: {res['error']}")
        else:
            html[m] = TEX_ANNOTATION.sub("", res["html"])
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


FONT_FACE = re.compile(r"@font-face\{[^}]*\}")
NON_WOFF2 = re.compile(r',url\([^)]*\.(?:woff|ttf)\) format\("(?:woff|truetype)"\)')


def katex_assets(node_modules: Path) -> dict[str, bytes]:
    """KaTeX's stylesheet split in two, plus its woff2 fonts.

    The @font-face rules go to katex-fonts.css, which the runtime adds only when math nears the
    viewport, so the first view fetches no math fonts. Only woff2 is shipped, so the other
    formats are dropped from the rules; `swap` shows fallback glyphs while a font loads."""
    dist = node_modules / "katex" / "dist"
    css = (dist / "katex.min.css").read_text(encoding="utf-8")
    faces = [NON_WOFF2.sub("", f).replace("font-display:block", "font-display:swap") for f in FONT_FACE.findall(css)]
    files = {
        "vendor/katex/katex.min.css": FONT_FACE.sub("", css).encode(),
        "vendor/katex/katex-fonts.css": "\n".join(faces).encode(),
    }
    for font in sorted((dist / "fonts").glob("*.woff2")):
        files[f"vendor/katex/fonts/{font.name}"] = font.read_bytes()
    return files
