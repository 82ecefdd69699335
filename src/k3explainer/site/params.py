"""A figure's params: checked against its builder's `Params` model, then written into its
constants' `{param}` placeholders (placeholders.py).

Every live figure's builder declares `Params`, a pydantic model with `extra="forbid"` (nanoGPT's
typed config: one field per param, a comment saying why). So a misspelt, missing or mistyped
param is reported at its own line with the nearest name, before anything that depends on it; the
constants are filled from the checked params (defaults included), so a placeholder's suggestion
only ever names a param the builder knows.
"""

from __future__ import annotations

from pathlib import Path

from . import projectcode
from .errors import Diagnostics
from .placeholders import PlaceholderError, fill
from .specs import Spec, line_col, load_specs
from .validate import validate


def checked_specs(root: Path) -> dict[str, Spec]:
    """A project's specs as a build's check phase leaves them (params checked against each
    builder's Params, constants filled in), for an author's tests; BuildError on any problem."""
    diags = Diagnostics(root)
    specs = load_specs(root / "figures", diags)
    check_params(specs, root, diags)
    diags.raise_if_any()
    return specs


def check_params(specs: dict[str, Spec], root: Path, diags: Diagnostics) -> None:
    """Set each spec's `params` (checked; a pending figure's as written) and fill its constants.
    A spec whose builder is missing was reported by check_parts and is skipped here."""
    for spec in specs.values():
        m = spec.model
        if m.pending:
            spec.params = dict(m.params)
        elif projectcode.builder_file(root, spec.builder_name).is_file():
            spec.params = _checked(spec, root, diags)
        if spec.params is not None:
            _fill_constants(spec, diags)


def _checked(spec: Spec, root: Path, diags: Diagnostics) -> dict | None:
    file = projectcode.builder_file(root, spec.builder_name)
    try:
        module = projectcode.builder(root, spec.builder_name)
    except Exception as e:  # an author's builder that does not import: its own file and line
        diags.add(
            file,
            projectcode.line_in(e, file),
            1,
            f"builder {spec.builder_name} does not load: {projectcode.error_text(e)}",
        )
        return None
    model = getattr(module, "Params", None)
    if model is None or getattr(model, "model_config", {}).get("extra") != "forbid":
        diags.add(
            file,
            1,
            1,
            f'builder {spec.builder_name} declares no `Params` model with extra="forbid" '
            "(a pydantic BaseModel, one field per param of its spec)",
        )
        return None
    checked = validate(model, spec.marked, spec.path, diags, prefix=("params",))
    return None if checked is None else checked.model_dump()


def _fill_constants(spec: Spec, diags: Diagnostics) -> None:
    """Each constant's `{param}` placeholders → the figure's param values, so what the provenance
    list says the figure was built with is what it was built with."""
    text = spec.path.read_text(encoding="utf-8")
    for i, c in enumerate(spec.model.constants):
        for field in ("name", "note"):
            words = getattr(c, field)
            if words is None:
                continue
            try:
                setattr(c, field, fill(words, spec.params))
            except PlaceholderError as e:
                line, col = find_after(text, spec.where("constants", i, field), e.placeholder)
                diags.add(spec.path, line, col, f"constants.{i}.{field}: {e}")


def find_after(text: str, start: tuple[int, int], needle: str) -> tuple[int, int]:
    """(line, col) of `needle`'s first occurrence at or after `start` (a field's key), else `start`."""
    lines = text.splitlines(keepends=True)
    offset = sum(map(len, lines[: start[0] - 1])) + start[1] - 1
    at = text.find(needle, offset)
    return start if at < 0 else line_col(text, at)
