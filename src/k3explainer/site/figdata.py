"""Figure data: each live spec's builder runs once per build; its dict is frozen to JSON.

A builder is the project's figures/<builder>.py with `build(params, facts) -> dict` (imported by
projectcode.py). It calls the kernels and returns plain data for the client component, including
`provenance` (which kernels, which inputs, which seed) so every number on the page can be traced.
"""

from __future__ import annotations

import hashlib
import json
import math
import os
import traceback
from pathlib import Path
from typing import Any

from . import projectcode
from .errors import Diagnostics
from .facts import Facts
from .specs import Spec

_PLAIN = (str, int, bool, type(None))


def to_jsonable(value: Any) -> Any:
    """Plain JSON values from a builder's dict (numpy arrays and scalars become lists and numbers).

    Figure data is mostly long lists of floats, so plain values are answered first; numpy is only
    imported when a value is not plain, which a warm build (data from the cache) never meets."""
    t = type(value)
    if t is float:
        if not math.isfinite(value):
            raise ValueError(f"non-finite number {value} in figure data")
        return value
    if t in _PLAIN:
        return value
    if isinstance(value, dict):
        return {str(k): to_jsonable(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [to_jsonable(v) for v in value]
    import numpy as np

    if isinstance(value, np.ndarray):
        return to_jsonable(value.tolist())
    if isinstance(value, np.generic):
        return to_jsonable(value.item())
    if isinstance(value, float):  # a float subclass
        return to_jsonable(float(value))
    return value


def dumps(value: Any, *, ready: bool = False) -> str:
    """Canonical JSON: the same data always gives the same bytes. `ready`: the value is plain JSON
    data already (figure data is, once build_figure_data has it), so it is not walked again."""
    return json.dumps(
        value if ready else to_jsonable(value),
        sort_keys=True,
        separators=(",", ":"),
        ensure_ascii=False,
        allow_nan=False,
    )


def build_figure_data(
    specs: dict[str, Spec], facts: Facts, diags: Diagnostics, root: Path, cache: Path | None = None
) -> dict[str, dict]:
    """Figure id → its builder's data (JSON-ready), for every spec that is not pending, in id order.

    With a cache folder, a figure whose inputs are unchanged (its params, the facts, the source of
    the builders and kernels) is read back from the last build instead of recomputed, as Observable
    Framework caches its data loaders: a warm build or a prose edit in `--serve` runs no kernel."""
    out: dict[str, dict] = {}
    code = _code_digest(facts, root)
    for fid, spec in sorted(specs.items()):
        if not spec.model.pending:
            data = figure_data(fid, spec, facts, diags, root, code, cache)
            if data is not None:
                out[fid] = data
    return out


def figure_data(
    fid: str, spec: Spec, facts: Facts, diags: Diagnostics, root: Path, code: str, cache: Path | None = None
) -> dict | None:
    """One live figure's data (JSON-ready), or None with diagnostics; `code` is _code_digest's.
    Its params were checked already (params.check_params)."""
    key = hashlib.sha256(f"{code}\n{spec.builder_name}\n{dumps(spec.params)}".encode()).hexdigest()
    return _data(projectcode.builder(root, spec.builder_name), spec.params, facts, fid, spec, key, cache, diags)


def _data(
    module, params: dict, facts: Facts, fid: str, spec: Spec, key: str, cache: Path | None, diags: Diagnostics
) -> dict | None:
    cached = _read_cached(cache, fid, key)
    if cached is not None:
        return cached
    try:
        data = module.build(params, facts)
        if not isinstance(data, dict) or "provenance" not in data:
            raise TypeError("a builder returns a dict with a 'provenance' entry")
        data = to_jsonable({"id": fid, **data})
    except Exception as e:  # a builder's failure is an author-facing build error, not a crash
        frame = traceback.extract_tb(e.__traceback__)[-1]
        diags.add(
            spec.path,
            *spec.where("params"),  # what the builder was given
            f"builder {spec.builder_name} failed: {type(e).__name__}: {e} (at {'/'.join(Path(frame.filename).parts[-2:])}:{frame.lineno})",
        )
        return None
    _write_cached(cache, fid, key, data)
    return data


def _code_digest(facts: Facts, root: Path) -> str:
    """What every figure's data depends on besides its params: the project's builders and
    derived.py, the engine's kernels, the facts (file and how they are read) and this module's
    JSON conversion."""
    import k3explainer

    package = Path(k3explainer.__file__).parent
    sources = sorted(
        [
            *package.glob("kernels/*.py"),
            *projectcode.sources(root),
            package / "site" / "facts.py",
            package / "site" / "readertext.py",
            Path(__file__),
        ]
    )
    h = hashlib.sha256()
    for path in [*sources, *([facts.path] if facts.path else [])]:
        h.update(path.name.encode() + b"\0" + (path.read_bytes() if path.is_file() else b"") + b"\0")
    return h.hexdigest()


def _read_cached(cache: Path | None, fid: str, key: str) -> dict | None:
    try:
        entry = json.loads((cache / f"{fid}.json").read_text(encoding="utf-8")) if cache else None
    except (OSError, ValueError):
        return None
    return entry["data"] if isinstance(entry, dict) and entry.get("key") == key else None


def _write_cached(cache: Path | None, fid: str, key: str, data: dict) -> None:
    if cache is None:
        return
    try:  # one file per figure, replaced whole (parallel builds may write side by side)
        cache.mkdir(parents=True, exist_ok=True)
        tmp = cache / f"{fid}.{os.getpid()}.tmp"
        # key order kept: the cite ids of the data's Markdown are numbered in that order
        tmp.write_text(json.dumps({"key": key, "data": data}, allow_nan=False), encoding="utf-8")
        tmp.replace(cache / f"{fid}.json")
    except OSError:
        pass  # a cache we cannot write only costs time


def markdown_paths(value: Any) -> list[tuple[tuple, str]]:
    """(path of keys and indices, text) of every string under a key ending in `_md`, in document
    order. Figure data is mostly long lists of numbers: only containers are walked into.

    Builders may return inline Markdown (facts, math, links) in such keys; the pipeline checks
    and renders it like prose and ships the HTML under the same name ending in `_html` (with_html)."""
    found: list[tuple[tuple, str]] = []

    def walk(node, loc: tuple) -> None:
        if type(node) is dict:
            for key, item in node.items():
                if type(item) is str:
                    if type(key) is str and key.endswith("_md"):
                        found.append(((*loc, key), item))
                elif type(item) is dict or type(item) is list:
                    walk(item, (*loc, key))
        else:
            for i, item in enumerate(node):
                if type(item) is dict or type(item) is list:
                    walk(item, (*loc, i))

    if type(value) is dict or type(value) is list:
        walk(value, ())
    return found


def with_html(value: Any, html: dict[tuple, str]) -> Any:
    """`value` with each `..._md` string at a path in `html` replaced by that HTML under the key
    ending in `_html` (added last, as an assignment would). Only the containers on those paths are
    copied; the rest is shared with `value`, which stays as it was."""
    if not html:
        return value
    heads: dict = {}
    for loc, text in html.items():
        heads.setdefault(loc[0], {})[loc[1:]] = text
    if type(value) is list:
        out = list(value)
        for i, rest in heads.items():
            out[i] = with_html(out[i], rest)
        return out
    out = dict(value)
    for key, rest in heads.items():
        if () in rest:  # the _md key itself
            del out[key]
            out[key[:-3] + "_html"] = rest.pop(())
        if rest:
            out[key] = with_html(out[key], rest)
    return out


def manifest(specs, facts, data) -> dict:
    """Every figure and fact with its provenance: what the page shows and where it came from."""
    return {
        "figures": {
            fid: {
                "label": s.label,
                "title": s.model.title,
                "pending": s.model.pending,
                "builder": None if s.model.pending else f"figures/{s.builder_name}/builder.py",
                "component": s.component_name,
                "constants": [c.model_dump(exclude_none=True) for c in s.model.constants],
                "provenance": data[fid]["provenance"] if fid in data else None,
            }
            for fid, s in sorted(specs.items())
        },
        "facts": {k: f.model_dump(exclude_none=True) for k, f in sorted(facts.by_key.items())},
    }
