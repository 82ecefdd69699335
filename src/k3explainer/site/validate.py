"""Pydantic validation of YAML data, with errors placed on the offending line."""

from __future__ import annotations

from pathlib import Path
from typing import TypeVar, get_args

from pydantic import BaseModel, ValidationError

from .errors import Diagnostics
from .suggest import nearest
from .yamlmarks import Marked

M = TypeVar("M", bound=BaseModel)


def validate(model: type[M], marked: Marked, path: Path, diags: Diagnostics, *, prefix: tuple = ()) -> M | None:
    """Validate `marked.data` (at `prefix`) against `model`; on failure report every error, return None."""
    data = marked.data
    for part in prefix:
        data = data[part]
    try:
        return model.model_validate(data)
    except ValidationError as err:
        errors = err.errors()
        meant = set()  # (parent, field) a misspelt field most likely meant: its "missing" is the same mistake
        hints = {}
        for i, e in enumerate(errors):
            if e["type"] == "extra_forbidden":  # a misspelt field: name the field it most likely meant
                near = nearest(str(e["loc"][-1]), _fields_at(model, e["loc"][:-1]))
                hints[i] = f"; did you mean {near!r}?" if near else ""
                meant.add((e["loc"][:-1], near))
        for i, e in enumerate(errors):
            if e["type"] == "missing" and (e["loc"][:-1], e["loc"][-1]) in meant:
                continue
            loc = prefix + tuple(e["loc"])
            line, col = marked.where(loc)
            where = ".".join(str(p) for p in loc) or "(document)"
            diags.add(path, line, col, f"{where}: {e['msg']}{hints.get(i, '')}")
        return None


def _fields_at(model: type[BaseModel], loc: tuple) -> list[str]:
    """The field names of the (nested) model at `loc`; list indices and dict keys are stepped over."""
    for part in loc:
        if isinstance(part, int):
            continue
        field = model.model_fields.get(str(part))
        if field is None:
            return []
        inner = [
            a
            for a in get_args(field.annotation) or (field.annotation,)
            if isinstance(a, type) and issubclass(a, BaseModel)
        ]
        if not inner:
            return []
        model = inner[0]
    return list(model.model_fields)
