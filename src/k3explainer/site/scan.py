"""Checking a parsed document: `scan` walks its tokens once, records every math formula, link,
citation, fact and figure with its source line, and reports what is wrong at its own line and
column. Rendering (markdown.py) then only emits.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from pathlib import Path

from markdown_it.token import Token

from .citations import Cited
from .crossrefs import Link
from .errors import Diagnostics
from .facts import Facts
from .markdown import DIRECTIVES, MATH_TYPES, MathItem, sym_parts
from .specs import FIGURE_ID
from .suggest import did_you_mean


@dataclass
class Scan:
    """What one document refers to, each with its source line."""

    path: Path
    math: list[tuple[MathItem, int, int]] = field(default_factory=list)  # formula, line, column
    links: list[Link] = field(default_factory=list)  # in-page links
    figures: list[tuple[str, int]] = field(default_factory=list)
    citations: list[Cited] = field(default_factory=list)
    ids: set[str] = field(default_factory=set)  # ids the document defines (headings, footnotes)
    _lines: list[str] | None = None

    def col(self, line: int, needle: str, skip: int = 0) -> int:
        """1-based column of `needle` (plus `skip` characters into it) in the source line: tokens
        carry lines, not columns. 1 if the line does not hold it (a folded YAML caption starts on the
        line below its key)."""
        text = self._line(line)
        return text.find(needle) + 1 + skip if needle in text else 1

    def find(self, line: int, needle: str, within: int) -> tuple[int, int]:
        """(line, column) of `needle` on `line` or one of the `within` lines after it (a display
        formula's \\sym sits below its `$$`), else (line, 1)."""
        for at in range(line, line + within + 1):
            if needle in self._line(at):
                return at, self._line(at).find(needle) + 1
        return line, 1

    def _line(self, line: int) -> str:
        if self._lines is None:
            try:
                self._lines = self.path.read_text(encoding="utf-8").splitlines()
            except (OSError, UnicodeDecodeError):
                self._lines = []
        return self._lines[line - 1] if 0 < line <= len(self._lines) else ""


def scan(
    tokens: list[Token],
    path: Path,
    facts: Facts,
    symbols: dict[str, str] | None,
    diags: Diagnostics,
    *,
    line_offset: int = 0,
) -> Scan:
    out = Scan(path)
    line = line_offset + 1
    for tok in tokens:
        if tok.map:
            line = tok.map[0] + 1 + line_offset
        if tok.type in MATH_TYPES:
            _scan_math(tok.content, MATH_TYPES[tok.type], line, out, symbols, diags)
        elif tok.type.startswith("container_") and tok.type.endswith("_open"):
            _scan_directive(tok, line, out, facts, diags)
        elif tok.type == "heading_open" and tok.attrGet("id"):
            out.ids.add(str(tok.attrGet("id")))
        elif tok.type == "inline":
            _scan_unknown_directive(tok.content, line, out, diags)
            _scan_inline(tok.children or [], line, out, facts, symbols, diags)
    return out


def _scan_unknown_directive(text: str, line: int, out: Scan, diags: Diagnostics) -> None:
    """A ':::' line that no directive took stays a paragraph: a misspelt name, or a figure directive
    outside its fence, would otherwise be published as literal text."""
    m = re.match(r":{3,}[ \t]*([A-Za-z][\w-]*)", text)
    if m:
        name = m.group(1)
        diags.add(
            out.path,
            line,
            out.col(line, name),
            f"unknown directive {name!r} (directives: {', '.join(DIRECTIVES)}){did_you_mean(name, DIRECTIVES)}",
        )


def _link_text(children, start: int) -> str:
    """The text between a link_open at `start` and its link_close."""
    words = []
    for child in children[start + 1 :]:
        if child.type == "link_close":
            break
        words.append(child.content)
    return "".join(words)


def _scan_inline(children, line, out, facts, symbols, diags):
    for i, child in enumerate(children):
        if child.type in ("softbreak", "hardbreak"):
            line += 1  # inline tokens carry no line of their own: count the breaks
        elif child.type in MATH_TYPES:
            _scan_math(child.content, MATH_TYPES[child.type], line, out, symbols, diags)
        elif child.type == "citation":
            # (a caption's text may start on the line below its key: look a few lines on)
            out.citations += [Cited(key, *out.find(line, "@" + key, 8)) for key, _ in child.meta["items"]]
        elif child.type == "fact_ref" and facts.refs(child.meta["key"]):
            at = out.col(line, child.meta["key"])  # (where on its line: numbers follow the reading order)
            out.citations += [Cited(ref, line, at, child.meta["key"]) for ref in facts.refs(child.meta["key"])]
        elif child.type == "fact_ref" and facts.lacks(child.meta["key"]):
            key = child.meta["key"]
            diags.add(
                out.path,
                line,
                out.col(line, key),
                f"unknown fact {key!r} in {{{{{key}}}}}{did_you_mean(key, facts.by_key)}",
            )
        elif child.type == "link_open":
            href = str(child.attrGet("href") or "")
            if href.startswith("#"):
                at, col = out.find(line, f"]({href}", 8)  # (a caption may start below its key)
                out.links.append(Link(href, at, col + 2, _link_text(children, i), str(child.attrGet("title") or "")))
            elif not href.startswith(("https://", "http://", "mailto:")):
                diags.add(
                    out.path,
                    line,
                    out.col(line, f"]({href}", skip=2),
                    f"link {href!r}: use #id for the article or a full https:// address",
                )
        elif child.type == "text" and "{{" in child.content:
            diags.add(
                out.path, line, out.col(line, "{{"), f"malformed fact reference in {child.content.strip()[:60]!r}"
            )
        elif child.type == "text" and "[@" in child.content:
            diags.add(
                out.path,
                line,
                out.col(line, "[@"),
                "malformed citation: write [@key], [@key, Sec. 2] or [@a; @b]"
                f" (keys of content/references.bib), not {child.content[child.content.index('[@') :][:40]!r}",
            )


def _scan_math(tex, display, line, out, symbols, diags):
    first = tex.strip().splitlines()[0] if tex.strip() else ""
    out.math.append((MathItem(tex, display), line, out.col(line, first) if first else 1))
    for name, _ in sym_parts(tex):
        if symbols is not None and name not in symbols:  # None: the symbols file failed, and said so
            diags.add(
                out.path,
                *out.find(line, f"\\sym{{{name}}}", tex.count("\n") + 1),
                f"unknown symbol {name!r} in \\sym (known: content/symbols.yaml){did_you_mean(name, symbols)}",
            )


def _scan_directive(tok, line, out, facts, diags):
    kind, _, arg = tok.info.strip().partition(" ")
    arg = arg.strip()
    col = out.col(line, arg) if arg else out.col(line, kind)
    if kind == "figure":
        if not re.fullmatch(FIGURE_ID, arg):
            diags.add(out.path, line, col, f"figure directive needs a figure id like 'fig-06', got {arg!r}")
        else:
            out.figures.append((arg, line))
    elif kind == "claim" and facts.refs(arg):
        out.citations += [Cited(ref, line, 0, arg) for ref in facts.refs(arg)]
    elif kind == "claim" and arg != "illustrative" and facts.lacks(arg):
        diags.add(
            out.path,
            line,
            col,
            f"claim needs a fact key or 'illustrative', got {arg!r}"
            + did_you_mean(arg, [*facts.by_key, "illustrative"]),
        )
    elif kind in ("side", "callout") and not arg:
        diags.add(out.path, line, col, f"{kind} directive needs a title")
