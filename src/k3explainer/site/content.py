"""Sections: content/NN-slug.md (YAML front matter + Markdown) → Section, ordered by `number`."""

from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

from markdown_it import MarkdownIt
from markdown_it.token import Token
from pydantic import BaseModel, ConfigDict, Field, StrictInt, field_validator
from pydantic_core import PydanticCustomError

from .errors import Diagnostics, read_source

if TYPE_CHECKING:
    from .article import Site
from .suggest import did_you_mean
from .validate import validate
from .yamlmarks import YamlProblem, load, load_file


class FrontMatter(BaseModel):
    model_config = ConfigDict(extra="forbid")
    id: str = Field(pattern=r"^[a-z][a-z0-9-]*$")
    number: StrictInt = Field(ge=1, le=99)
    part: str
    title: str = Field(min_length=3)
    stage: str = Field(min_length=2, max_length=24)
    summary: str = Field(min_length=10)

    @field_validator("title", "stage", "summary")
    @classmethod
    def _plain(cls, text: str) -> str:
        if re.search(r"\[@|\]\(#|\{\{|\$", text):
            raise PydanticCustomError(
                "plain", "front matter is plain text: cite, link, use facts and math in the section's body"
            )
        return text

    # px the section's content takes before it is laid out, by viewport width (estimates.py):
    # measured and written by `k3explainer reserve --write`, never typed
    height: dict[StrictInt, StrictInt] | None = None


@dataclass
class Section:
    meta: FrontMatter
    path: Path
    tokens: list[Token]
    env: dict  # markdown-it env: footnotes are stored here at parse time and used at render time

    @property
    def id(self) -> str:
        return self.meta.id


def load_symbols(path: Path, diags: Diagnostics) -> dict[str, str] | None:
    """Symbol name → description, for \\sym{name}{...} in equations and data-sym in figures. The
    file is optional: a project that links no symbols needs none. None when the file is there but
    cannot be read: its problem is reported here, once, and no \\sym is then called unknown."""
    if not path.is_file():
        return {}
    marked = load_file(path, diags, "symbols")
    if marked is None:
        return None
    symbols = marked.data if isinstance(marked.data, dict) else {}
    for name, text in symbols.items():
        if not isinstance(text, str) or not re.fullmatch(r"[a-z][a-z0-9-]*", str(name)):
            diags.add(path, *marked.where((name,)), f"symbol {name!r}: a lowercase name mapped to a description")
    return {str(k): str(v) for k, v in symbols.items()}


# What content/ may hold besides sections (NN-slug.md); anything else is most likely a section or a
# settings file under a name the build would silently skip (a `.markdown` section, `fact.yaml`).
SETTINGS_FILES = ("site.yaml", "facts.yaml", "symbols.yaml", "references.bib", "corrections.yaml")


def check_content_files(folder: Path, diags: Diagnostics) -> None:
    for path in sorted(folder.iterdir()):
        if path.name.startswith(".") or path.is_dir() or path.suffix == ".md" or path.name in SETTINGS_FILES:
            continue
        hint = did_you_mean(path.name, SETTINGS_FILES) if path.suffix in (".yaml", ".yml", ".bib") else ""
        diags.add(
            path,
            1,
            1,
            f"unsupported content file: sections are .md files, settings are {', '.join(SETTINGS_FILES)}{hint}",
        )


def load_sections(folder: Path, md: MarkdownIt, site: Site | None, diags: Diagnostics) -> list[Section]:
    parts = {p.id for p in site.parts} if site else set()
    sections: list[Section] = []
    for path in sorted(folder.glob("*.md")):
        text = read_source(path, diags)
        section = None if text is None else _load_one(path, text, md, diags)
        if section is None:
            continue
        if parts and section.meta.part not in parts:
            diags.add(
                path,
                *_front_line(section, "part"),
                f"unknown part {section.meta.part!r} (parts: {', '.join(sorted(parts))})"
                + did_you_mean(section.meta.part, parts),
            )
        sections.append(section)
    _check_unique(sections, diags)
    return sorted(sections, key=lambda s: s.meta.number)


def _load_one(path: Path, text: str, md: MarkdownIt, diags: Diagnostics) -> Section | None:
    env: dict = {"docId": path.stem}
    tokens = md.parse(text, env)
    if not tokens or tokens[0].type != "front_matter":
        diags.add(
            path,
            1,
            1,
            "a section starts with YAML front matter between '---' lines (id, number, part, title, stage, summary)",
        )
        return None
    fm = tokens[0]
    try:
        marked = load(fm.content, line_offset=1)
    except YamlProblem as e:
        diags.add(path, e.line, e.col, f"front matter: {e.message}")
        return None
    if not isinstance(marked.data, dict):
        diags.add(path, 2, 1, "front matter must be a mapping of fields")
        return None
    meta = validate(FrontMatter, marked, path, diags)
    if meta is None:
        return None
    section = Section(meta, path, tokens, env)
    section.env["marks"] = marked
    return section


def _front_line(section: Section, field: str) -> tuple[int, int]:
    return section.env["marks"].where((field,))


def _check_unique(sections: list[Section], diags: Diagnostics) -> None:
    for attr in ("id", "number"):
        seen: dict = {}
        for s in sections:
            value = getattr(s.meta, attr)
            if value in seen:
                diags.add(
                    s.path, *_front_line(s, attr), f"duplicate section {attr} {value!r} (also {seen[value].name})"
                )
            seen[value] = s.path
