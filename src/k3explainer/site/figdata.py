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
from .validate import validate


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


def dumps(value: Any) -> str:
    """Canonical JSON: the same data always gives the same bytes."""
    return json.dumps(to_jsonable(value), sort_keys=True, separators=(",", ":"), ensure_ascii=False, allow_nan=False)


def build_figure_data(specs: dict[str, Spec], facts: Facts, diags: Diagnostics, root: Path,
                      cache: Path | None = None) -> dict[str, dict]:
    """Figure id → its builder's data (JSON-ready), for every spec that is not pending.

    With a cache folder, a figure whose inputs are unchanged (its params, the facts, the source of
    the builders and kernels) is read back from the last build instead of recomputed, as Observable
    Framework caches its data loaders: a warm build or a prose edit in `--serve` runs no kernel."""
    out: dict[str, dict] = {}
    code = _code_digest(facts, root)
    for fid, spec in sorted(specs.items()):
        m = spec.model
        if m.pending:
            continue
        try:
            module = projectcode.builder(root, m.builder)
        except Exception as e:  # an author's builder that does not import: its own file and line
            file = projectcode.builder_file(root, m.builder)
            diags.add(file, projectcode.line_in(e, file), 1, f"builder {m.builder} does not load: {type(e).__name__}: {e}")
            continue
        params = checked_params(module, spec, diags)
        if params is None:
            continue
        key = hashlib.sha256(f"{code}\n{m.builder}\n{dumps(params)}".encode()).hexdigest()
        cached = _read_cached(cache, fid, key)
        if cached is not None:
            out[fid] = cached
            continue
        try:
            data = module.build(params, facts)
            if not isinstance(data, dict) or "provenance" not in data:
                raise TypeError("a builder returns a dict with a 'provenance' entry")
            out[fid] = to_jsonable({"id": fid, **data})
            _write_cached(cache, fid, key, out[fid])
        except Exception as e:  # a builder's failure is an author-facing build error, not a crash
            frame = traceback.extract_tb(e.__traceback__)[-1]
            diags.add(spec.path, *spec.where("builder"),
                      f"builder {m.builder} failed: {type(e).__name__}: {e} (at {frame.filename.rsplit('/', 1)[-1]}:{frame.lineno})")
    return out


def _code_digest(facts: Facts, root: Path) -> str:
    """What every figure's data depends on besides its params: the project's builders and
    derived.py, the engine's kernels, the facts (file and how they are read) and this module's
    JSON conversion."""
    import k3explainer

    package = Path(k3explainer.__file__).parent
    sources = sorted([*package.glob("kernels/*.py"), *projectcode.sources(root),
                      package / "site" / "facts.py", Path(__file__)])
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


def checked_params(module, spec: Spec, diags: Diagnostics) -> dict | None:
    """The spec's params, validated against the builder's `Params` model when it declares one: a
    misspelt or unknown param fails at its own line, a wrong type says what was expected, and
    defaults are filled in. None (and diagnostics) when they do not validate."""
    model = getattr(module, "Params", None)
    if model is None:
        return dict(spec.model.params)
    checked = validate(model, spec.marked, spec.path, diags, prefix=("params",))
    return None if checked is None else checked.model_dump()


def markdown_fields(value: Any, path: str = ""):
    """Yield (container, key, dotted path) for every string under a key ending in `_md`.

    Builders may return inline Markdown (facts, math, links) in such keys; the pipeline checks
    and renders it like prose and stores the HTML under the same name ending in `_html`."""
    items = value.items() if isinstance(value, dict) else enumerate(value) if isinstance(value, list) else ()
    for key, item in list(items):  # (only containers are walked into: data is mostly long lists of numbers)
        if isinstance(key, str) and key.endswith("_md") and isinstance(item, str):
            yield value, key, f"{path}.{key}" if path else key
        elif isinstance(item, (dict, list)):
            yield from markdown_fields(item, f"{path}.{key}" if path else str(key))
