"""Corrections a reader can see: content/corrections.yaml lists each one (its date, the section or
figure it concerns, what changed and why, and the test that now guards it). The page lists them in
an appendix and notes each under what it corrected ("Corrected on 2 December 2026"). A correction
names a test that exists, so what was fixed stays fixed; the file is optional.
"""

from __future__ import annotations

import ast
import re
from datetime import date
from pathlib import Path

from pydantic import BaseModel, ConfigDict, Field

from .errors import Diagnostics
from .suggest import did_you_mean
from .validate import validate
from .yamlmarks import load_file


class Correction(BaseModel):
    model_config = ConfigDict(extra="forbid")
    date: date
    where: str = Field(pattern=r"^[a-z0-9-]+$")  # a section's or figure's id
    what: str = Field(min_length=10)  # what the page says now that it did not, in a sentence
    why: str = Field(min_length=10)  # what was wrong, and how it was found
    test: str = Field(pattern=r"^[\w./-]+\.py::\w+$")  # path::function, from the project's root


class CorrectionsFile(BaseModel):
    model_config = ConfigDict(extra="forbid")
    corrections: list[Correction]


def load_corrections(root: Path, ids: set[str], diags: Diagnostics) -> list[Correction]:
    """The project's corrections, newest first, each checked: its place exists, its test exists."""
    path = root / "content" / "corrections.yaml"
    if not path.is_file():
        return []
    marked = load_file(path, diags, "corrections")
    parsed = validate(CorrectionsFile, marked, path, diags) if marked is not None else None
    if parsed is None:
        return []
    for i, c in enumerate(parsed.corrections):
        if c.where not in ids:
            line, col = marked.where(("corrections", i, "where"))
            diags.add(path, line, col, f"where: no section or figure {c.where!r}{did_you_mean(c.where, ids)}")
        problem = _missing_test(root, c.test)
        if problem:
            line, col = marked.where(("corrections", i, "test"))
            diags.add(path, line, col, f"test: {problem}")
    return sorted(parsed.corrections, key=lambda c: c.date, reverse=True)


def _missing_test(root: Path, test: str) -> str | None:
    file, name = test.split("::")
    path = root / file
    if not path.is_file():
        return f"no file {file}"
    tree = ast.parse(path.read_text(encoding="utf-8"))
    names = [n.name for n in tree.body if isinstance(n, ast.FunctionDef) and n.name.startswith("test")]
    return None if name in names else f"{file} has no test {name!r}{did_you_mean(name, names)}"


def correction_id(c: Correction, corrections: list[Correction]) -> str:
    return f"correction-{len(corrections) - corrections.index(c)}"


def plain(text: str) -> str:
    """A correction's words as the page shows them (they are plain text, not Markdown)."""
    return re.sub(r"\s+", " ", text).strip()
