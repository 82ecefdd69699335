"""Citations, a markdown-it plugin: Pandoc's `[@key]`, `[@key, Sec. 5.2]` and `[@a; @b, Table 2]`
in prose, captions and a figure's Markdown texts, each key an entry of content/references.bib.

References are numbered in the order a reader first meets them (`number_citations`): the sections
in order and, inside one, its figures' captions and texts where the figure is placed. A citation
renders as `[3, Sec. 5.2]`, each number a link to its entry in the reference list (which is also its
accessible description); the runtime shows the entry as a card on hover and focus.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from html import escape
from typing import TYPE_CHECKING

from markdown_it import MarkdownIt
from markdown_it.rules_inline import StateInline

from .errors import Diagnostics
from .suggest import did_you_mean

if TYPE_CHECKING:
    from .facts import Facts
    from .references import References
    from .scan import Scan

KEY = r"[A-Za-z0-9_][\w:.+-]*"
CITATION = re.compile(rf"\[(@{KEY}(?:,[^;\[\]]*)?(?:;\s*@{KEY}(?:,[^;\[\]]*)?)*)\]")
ITEM = re.compile(rf"@({KEY})(?:,\s*([^;]*))?")


@dataclass(frozen=True)
class Cited:
    key: str
    line: int
    col: int
    fact: str | None = None  # cited through this fact (its `ref`), not written as [@key]


def citation_plugin(md: MarkdownIt) -> None:
    md.inline.ruler.before("link", "citation", _citation_rule)
    md.add_render_rule("citation", _render_citation)


def _citation_rule(state: StateInline, silent: bool) -> bool:
    if not state.src.startswith("[@", state.pos):
        return False
    m = CITATION.match(state.src, state.pos)
    if not m:
        return False  # scan() reports a "[@" that is not a citation
    if not silent:
        token = state.push("citation", "", 0)
        token.meta = {"items": [(key, where.strip()) for key, where in ITEM.findall(m.group(1))]}
        token.content = m.group(0)
    state.pos = m.end()
    return True


def ref_id(key: str) -> str:
    """The id of a reference's entry in the list (a BibTeX key may hold ':' and '.')."""
    return "ref-" + re.sub(r"[^A-Za-z0-9_-]", "-", key)


def _render_citation(self, tokens, idx, options, env) -> str:
    numbers: dict[str, int] = env["citation_numbers"]
    parts = []
    for key, where in tokens[idx].meta["items"]:
        if key not in numbers:  # an unknown key was reported by the check; nothing is built
            parts.append(escape(key))
            continue
        rid = ref_id(key)
        link = f'<a class="cite-ref" href="#{rid}" aria-describedby="{rid}">{numbers[key]}</a>'
        parts.append(link + (f", {escape(where)}" if where else ""))
    return f'<span class="cite">[{"; ".join(parts)}]</span>'


def check_citations(scans: list[Scan], references: References, facts: Facts, diags: Diagnostics) -> None:
    """Every key a document cites, and every fact's `ref`, is an entry of the reference list."""
    for key, (line, col) in sorted(facts.ref_lines.items()):
        for ref in facts.refs(key):
            if ref not in references:
                diags.add(
                    facts.path,
                    line,
                    col,
                    f"fact {key!r}: unknown reference {ref!r} (keys of {diags.rel(references.path)})"
                    + did_you_mean(ref, references.by_key),
                )
    for sc in scans:
        for c in sc.citations:
            if c.key not in references and c.fact is None:  # a fact's was reported at the fact
                diags.add(
                    sc.path,
                    c.line,
                    c.col,
                    f"unknown reference {c.key!r} (keys of {diags.rel(references.path)})"
                    + did_you_mean(c.key, references.by_key),
                )


def warn_uncited(references: References, numbers: dict[str, int], diags: Diagnostics) -> None:
    """An entry the page never cites (in prose or through a fact it shows) is a warning."""
    for key, ref in references.by_key.items():
        if key not in numbers:
            diags.warn(references.path, ref.line, 1, f"reference {key!r} is never cited")


@dataclass
class ReferenceList:
    numbers: dict[str, int]  # key → its number, in the order a reader first meets it
    places: dict[str, list[tuple[str, str]]]  # key → (label, #href) of each section or figure citing it


def reference_list(sections: list[tuple[str, str, Scan]], figures: dict[str, tuple[str, list[Cited]]]) -> ReferenceList:
    """`sections`: (label, id, scan) in page order; `figures`: id → (label, its caption's and texts'
    citations). A figure's citations count where the section places it."""
    out = ReferenceList({}, {})

    def cite(c: Cited, label: str, href: str) -> None:
        out.numbers.setdefault(c.key, len(out.numbers) + 1)
        if (label, href) not in out.places.setdefault(c.key, []):
            out.places[c.key].append((label, href))

    for label, sid, sc in sections:
        # by place in the source; a figure's own citations come where its directive stands
        events = [(c.line, c.col, i, c) for i, c in enumerate(sc.citations)]
        events += [(line, 0, -1, fid) for fid, line in sc.figures]
        for *_, item in sorted(events, key=lambda e: e[:3]):
            if isinstance(item, Cited):
                cite(item, label, f"#{sid}")
            elif item in figures:
                fig_label, cited = figures[item]
                for c in cited:
                    cite(c, fig_label, f"#{item}")
    return out
