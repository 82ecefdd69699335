"""The facts file: every sourced number of the article, looked up by key with its provenance.

Facts are written in content/facts.yaml. A project may derive more from them (ratios, fractions,
counts) in its own derived.py (see projectcode.py); those join the facts under their own keys, with
provenance naming the facts they came from.
"""

from __future__ import annotations

from pathlib import Path
from typing import Literal

from pydantic import BaseModel, ConfigDict, Field

from . import projectcode
from .errors import Diagnostics
from .validate import validate
from .yamlmarks import YamlProblem, load

Provenance = Literal["source", "illustrative"]


class Fact(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)

    key: str = Field(pattern=r"^[a-z0-9_]+(\.[a-z0-9_]+)+$")
    topic: str  # what the fact is about, for authors; never rendered (a test scans the page for it)
    value: str | int | float
    display: str
    number: float | None = None
    numbers: dict[str, float] | None = None  # named parts of a fact that holds several numbers
    unit: str | None = None
    provenance: Provenance
    # where a reader can check it: a key of content/references.bib, or several for a fact gathered
    # from several works (required for a sourced fact), and the exact place (section, table, line)
    ref: str | list[str] | None = None
    at: str | None = None
    source: str
    note: str | None = None
    often_misstated_as: str | None = None


class FactsFile(BaseModel):
    model_config = ConfigDict(extra="forbid")
    facts: list[Fact]


class Facts:
    """Key → Fact, plus the line each fact was declared on (for error messages). `complete` is False
    when the facts file (or derived.py) failed: its own problems are reported at its lines, and no
    reference is then called unknown, which would bury that one problem under one per reference."""

    def __init__(
        self,
        facts: dict[str, Fact],
        path: Path | None = None,
        complete: bool = True,
        ref_lines: dict[str, tuple[int, int]] | None = None,
    ):
        self.by_key = facts
        self.path = path
        self.complete = complete
        self.ref_lines = ref_lines or {}  # fact key → (line, col) of its `ref:`, for the reference check

    def __contains__(self, key: str) -> bool:
        return key in self.by_key

    def refs(self, key: str) -> list[str]:
        """The reference keys fact `key` cites (none for an unknown or illustrative fact)."""
        fact = self.by_key.get(key)
        ref = fact.ref if fact is not None else None
        return [] if ref is None else [ref] if isinstance(ref, str) else list(ref)

    def lacks(self, key: str) -> bool:
        """A reference to report as unknown: the facts loaded whole, and `key` is not among them."""
        return self.complete and key not in self.by_key

    def __getitem__(self, key: str) -> Fact:
        return self.by_key[key]

    def number(self, key: str) -> float:
        n = self.by_key[key].number
        if n is None:
            raise KeyError(f"fact {key!r} has no `number`")
        return n

    def parts(self, key: str) -> dict[str, float]:
        parts = self.by_key[key].numbers
        if parts is None:
            raise KeyError(f"fact {key!r} has no `numbers`")
        return parts


def project_facts(root: Path, diags: Diagnostics) -> Facts:
    """The project's facts file and what its derived.py computes from it."""
    try:
        derive = projectcode.derive_hook(root)
    except Exception as e:  # an author's file that does not import is a build error at its line
        diags.add(
            root / "derived.py",
            projectcode.line_in(e, root / "derived.py"),
            1,
            f"derived.py does not load: {projectcode.error_text(e)}",
        )
        derive = None
    path = root / "content" / "facts.yaml"
    return load_facts(path, diags, derive=derive, derive_file=root / "derived.py")


def load_facts(path: Path, diags: Diagnostics, derive=None, derive_file: Path | None = None) -> Facts:
    """The facts file, plus `derive(facts)`'s facts when a derive hook (from `derive_file`) is given."""
    if not path.is_file():
        diags.add(path, 1, 1, "missing: every project has a facts file (`facts: []` if it cites none)")
        return Facts({}, path, complete=False)
    try:
        marked = load(path.read_text(encoding="utf-8"))
    except (YamlProblem, UnicodeDecodeError) as e:
        line, col = (e.line, e.col) if isinstance(e, YamlProblem) else (1, 1)
        diags.add(path, line, col, getattr(e, "message", f"not valid UTF-8: {e}"))
        return Facts({}, path, complete=False)
    parsed = validate(FactsFile, marked, path, diags)
    if parsed is None:
        return Facts({}, path, complete=False)
    facts: dict[str, Fact] = {}
    ref_lines: dict[str, tuple[int, int]] = {}
    for i, fact in enumerate(parsed.facts):
        if fact.key in facts:
            line, col = marked.where(("facts", i, "key"))
            diags.add(path, line, col, f"duplicate fact key {fact.key!r}")
        if fact.ref is not None:
            ref_lines[fact.key] = marked.where(("facts", i, "ref"))
        elif fact.provenance == "source":
            line, col = marked.where(("facts", i, "key"))
            diags.add(
                path, line, col, f"sourced fact {fact.key!r} names no reference: add `ref:` (a key of references.bib)"
            )
        facts[fact.key] = fact
    if derive is None:
        return Facts(facts, path, ref_lines=ref_lines)
    try:
        facts.update({f.key: f for f in derive(Facts(facts, path))})
    except KeyError as e:
        diags.add(path, 1, 1, f"a derived value needs a fact that is missing or has no number: {e}")
        return Facts(facts, path, complete=False)
    except Exception as e:
        where = derive_file or path
        diags.add(where, projectcode.line_in(e, where), 1, f"derived_facts failed: {type(e).__name__}: {e}")
        return Facts(facts, path, complete=False)
    return Facts(facts, path, ref_lines=ref_lines)
