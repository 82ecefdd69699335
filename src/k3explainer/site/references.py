"""The reference list: content/references.bib, read by bibtexparser (names split by its middleware,
LaTeX turned into text by pylatexenc), each entry checked for what a reader needs to find it.

An entry needs a title, a year, authors (a group is written in braces, `{Moonshot AI}`) and at least
one link: `url` (the paper or page), `eprint` with `archiveprefix = {arXiv}`, or `doi`; `code` may
link its code. The venue is the first of journal, booktitle, publisher, howpublished, organization.
A project without the file has no references, and a citation in it is then unknown.
"""

from __future__ import annotations

import logging
from dataclasses import dataclass
from pathlib import Path

import bibtexparser
from bibtexparser.middlewares import SeparateCoAuthors, SplitNameParts
from bibtexparser.model import DuplicateBlockKeyBlock, Entry
from pylatexenc.latex2text import LatexNodes2Text

from .errors import Diagnostics, read_source

VENUE_FIELDS = ("journal", "booktitle", "publisher", "howpublished", "organization")
_TEXT = LatexNodes2Text()


def _decode(text: str) -> str:
    """LaTeX to text: pylatexenc where there is a command (it takes ~2 ms a field); otherwise only
    BibTeX's protective braces and its ~ (a no-break space) need undoing."""
    if "\\" in text:
        return _TEXT.latex_to_text(text)
    return text.replace("{", "").replace("}", "").replace("~", "\u00a0")


@dataclass(frozen=True)
class Reference:
    key: str
    line: int  # where the entry starts in references.bib (1-based)
    authors: tuple[str, ...]  # "Imanol Schlag", or a group as written: "Moonshot AI"
    surnames: tuple[str, ...]  # "Schlag", or the group's whole name
    title: str
    venue: str | None
    year: str
    links: tuple[tuple[str, str], ...]  # (what, address): the paper first, then arXiv, DOI, code

    @property
    def url(self) -> str:
        """The address a reader opens first (the paper, else arXiv, else the DOI)."""
        return self.links[0][1]

    @property
    def byline(self) -> str:
        """Every author, as the entry lists them; BibTeX's `and others` reads "et al."."""
        if self.authors[-1] == "others":
            return ", ".join(self.authors[:-1]) + " et al."
        return ", ".join(self.authors)

    @property
    def short(self) -> str:
        """How prose names the work: "Schlag et al., 2021"."""
        s = self.surnames
        who = s[0] if len(s) == 1 else " and ".join(s) if len(s) == 2 else f"{s[0]} et al."
        return f"{who}, {self.year}"


@dataclass
class References:
    by_key: dict[str, Reference]
    path: Path

    def __contains__(self, key: str) -> bool:
        return key in self.by_key


def load_references(path: Path, diags: Diagnostics) -> References:
    if not path.is_file():
        return References({}, path)
    text = read_source(path, diags)
    if text is None:
        return References({}, path)
    log = logging.getLogger("bibtexparser")  # it also logs each failed block; we report them
    level, log.level = log.level, logging.CRITICAL
    try:
        library = bibtexparser.parse_string(text, append_middleware=[SeparateCoAuthors(), SplitNameParts()])
    finally:
        log.setLevel(level)
    for block in library.failed_blocks:
        line = block.start_line + 1
        if isinstance(block, DuplicateBlockKeyBlock):
            first = library.entries_dict[block.key].start_line + 1
            diags.add(path, line, 1, f"duplicate reference key {block.key!r} (also line {first})")
        else:
            reason = getattr(block.error, "abort_reason", None) or str(block.error) or "cannot be read"
            diags.add(path, line, 1, f"malformed BibTeX entry: {_first_sentence(reason)}")
    refs = {}
    for entry in library.entries:
        ref = _reference(entry, path, diags)
        if ref is not None:
            refs[ref.key] = ref
    return References(refs, path)


def _reference(entry: Entry, path: Path, diags: Diagnostics) -> Reference | None:
    fields = {f.key.lower(): f for f in entry.fields}
    line = entry.start_line + 1

    def text(name: str) -> str | None:
        f = fields.get(name)
        return " ".join(_decode(f.value).split()) if f is not None and isinstance(f.value, str) else None

    missing = [name for name in ("title", "year") if not text(name)] + ([] if "author" in fields else ["author"])
    links = _links(fields, text)
    if missing or not links:
        what = ", ".join(missing) + (" and " if missing and not links else "")
        what += "" if links else "a link (url, doi, or eprint with archiveprefix = {arXiv})"
        diags.add(path, line, 1, f"reference {entry.key!r} needs {what}")
        return None
    names = fields["author"].value
    people = [_name(n) for n in names] if isinstance(names, list) else [(text("author"),) * 2]
    venue = next((v for v in map(text, VENUE_FIELDS) if v), None)
    return Reference(
        entry.key,
        line,
        tuple(full for full, _ in people),
        tuple(surname for _, surname in people),
        text("title"),
        venue,
        text("year"),
        links,
    )


def _links(fields: dict, text) -> tuple[tuple[str, str], ...]:
    links = []
    if text("url"):
        links.append(("paper", text("url")))
    prefix = (text("archiveprefix") or text("eprinttype") or "").lower()
    if text("eprint") and prefix == "arxiv":
        links.append(("arXiv", f"https://arxiv.org/abs/{text('eprint')}"))
    if text("doi"):
        links.append(("DOI", f"https://doi.org/{text('doi')}"))
    if text("code"):
        links.append(("code", text("code")))
    return tuple(links)


def _name(parts) -> tuple[str, str]:
    """(full name, surname), LaTeX decoded: first names, von, last, jr; a group written in braces
    ({Moonshot AI}) is one "surname" and kept whole."""
    surname = " ".join(_decode(w) for w in [*parts.von, *parts.last])
    return " ".join(_decode(w) for w in [*parts.first, *parts.von, *parts.last, *parts.jr]), surname


def _first_sentence(message: str) -> str:
    return " ".join(message.split()).split(". ")[0].rstrip(".").lower()
