"""Figure data: each live spec's builder runs once per build; its dict is frozen to JSON.

A builder is `k3explainer.figures.<builder>.build(params, facts) -> dict`. It calls the kernels
and returns plain data for the client component, including `provenance` (which kernels, which
inputs, which seed) so every number on the page can be traced.
"""
from __future__ import annotations

import importlib
import json
import traceback
from typing import Any

import numpy as np

from .errors import Diagnostics
from .facts import Facts
from .specs import Spec
from .validate import validate


def to_jsonable(value: Any) -> Any:
    if isinstance(value, dict):
        return {str(k): to_jsonable(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [to_jsonable(v) for v in value]
    if isinstance(value, np.ndarray):
        return to_jsonable(value.tolist())
    if isinstance(value, np.generic):
        return value.item()
    if isinstance(value, float) and not np.isfinite(value):
        raise ValueError(f"non-finite number {value} in figure data")
    return value


def dumps(value: Any) -> str:
    """Canonical JSON: the same data always gives the same bytes."""
    return json.dumps(to_jsonable(value), sort_keys=True, separators=(",", ":"), ensure_ascii=False, allow_nan=False)


def build_figure_data(specs: dict[str, Spec], facts: Facts, diags: Diagnostics) -> dict[str, dict]:
    """Figure id → its builder's data (JSON-ready), for every spec that is not pending."""
    out: dict[str, dict] = {}
    for fid, spec in sorted(specs.items()):
        m = spec.model
        if m.pending:
            continue
        module = importlib.import_module(f"k3explainer.figures.{m.builder}")
        params = checked_params(module, spec, diags)
        if params is None:
            continue
        try:
            data = module.build(params, facts)
            if not isinstance(data, dict) or "provenance" not in data:
                raise TypeError("a builder returns a dict with a 'provenance' entry")
            out[fid] = to_jsonable({"id": fid, **data})
        except Exception as e:  # a builder's failure is an author-facing build error, not a crash
            frame = traceback.extract_tb(e.__traceback__)[-1]
            diags.add(spec.path, *spec.where("builder"),
                      f"builder {m.builder} failed: {type(e).__name__}: {e} (at {frame.filename.rsplit('/', 1)[-1]}:{frame.lineno})")
    return out


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
    for key, item in list(items):
        where = f"{path}.{key}" if path else str(key)
        if isinstance(key, str) and key.endswith("_md") and isinstance(item, str):
            yield value, key, where
        else:
            yield from markdown_fields(item, where)
