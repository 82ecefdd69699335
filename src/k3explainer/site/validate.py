"""Pydantic validation of YAML data, with errors placed on the offending line."""
from __future__ import annotations

from pathlib import Path
from typing import TypeVar

from pydantic import BaseModel, ValidationError

from .errors import Diagnostics
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
        for e in err.errors():
            loc = prefix + tuple(e["loc"])
            line, col = marked.where(loc)
            where = ".".join(str(p) for p in e["loc"]) or "(document)"
            diags.add(path, line, col, f"{where}: {e['msg']}")
        return None
