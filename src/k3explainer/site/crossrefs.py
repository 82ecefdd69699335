"""Cross-references: in-page links that know what they point at.

`[](#fig-06)` and `[](#deltanet)` write their own label ("FIG 06", "§06") from the figure's spec and
the section's front matter; a hand-written number label that disagrees with the target's is a build
error. A link may open a figure in a state, `[](#fig-06&fig-06.step=5 "at token 5")`: the title
says in words what the state shows, and the runtime opens the figure in it. Every section and figure
lists where it is referenced ("Referenced in §04, FIG 09"), and the runtime previews a reference's
target on hover and focus (runtime/58-cards.js).
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from html import escape
from typing import TYPE_CHECKING

from markdown_it import MarkdownIt

from .errors import Diagnostics
from .suggest import did_you_mean

if TYPE_CHECKING:
    from .content import Section
    from .scan import Scan

NUMBER_LABEL = re.compile(r"(FIG\s+\S+|§\s*\d+)")  # a label that states a number, to be checked


@dataclass(frozen=True)
class Link:
    href: str  # "#target" or "#target&fig-06.key=value…"
    line: int
    col: int
    label: str  # the text the author wrote between the brackets ("" to have it written)
    title: str  # the link's title: for a state link, what that state shows

    @property
    def target(self) -> str:
        return self.href[1:].split("&", 1)[0]

    @property
    def state(self) -> list[tuple[str, str]]:
        """(figure.key, value) pairs the link opens its target in."""
        return [tuple(p.split("=", 1)) if "=" in p else (p, "") for p in self.href[1:].split("&")[1:]]


def crossref_plugin(md: MarkdownIt) -> None:
    """In-page links get class `xref` and, when empty, their label (env["xref_labels"]);
    a state link's title becomes the preview's words for the state instead of a native tooltip."""
    default = md.renderer.rules.get("link_open")

    def link_open(self, tokens, idx, options, env):
        tok = tokens[idx]
        href = str(tok.attrGet("href") or "")
        labels = env.get("xref_labels")
        if not href.startswith("#") or labels is None:
            return default(tokens, idx, options, env) if default else self.renderToken(tokens, idx, options, env)
        target = href[1:].split("&", 1)[0]
        label = labels.get(target, target)
        state = tok.attrGet("title")
        attrs = f' class="xref" href="{escape(href)}"'
        attrs += f' data-state-label="{escape(f"Opens {label} {state}")}"' if state else ""
        empty = idx + 1 < len(tokens) and tokens[idx + 1].type == "link_close"
        return f"<a{attrs}>" + (escape(label) if empty else "")

    md.add_render_rule("link_open", link_open)


def xref_labels(sections: list[Section], section_scans: list[Scan], figure_labels: dict[str, str]) -> dict[str, str]:
    """Each in-page id's label: a section's "§06" (also for its headings), a figure's "FIG 06"."""
    labels = {"references": "References", "cite": "Cite this article", "article": "the article"}
    for s, sc in zip(sections, section_scans, strict=True):
        labels[s.id] = f"§{s.meta.number:02d}"
        labels |= {f"{s.id}-{i}": f"§{s.meta.number:02d}" for i in sc.ids}
    return labels | figure_labels


def check_links(scans: list[Scan], labels: dict[str, str], diags: Diagnostics) -> None:
    """Every in-page link (sections, captions, figure texts) against the ids the page has; a number
    label against its target's; a state link's keys against its figure, and its words."""
    for sc in scans:
        for link in sc.links:
            where = (sc.path, link.line, link.col)
            if link.target not in labels:
                diags.add(
                    *where,
                    f"broken cross-reference {link.href!r}: no section, "
                    f"figure or heading has that id{did_you_mean(link.target, labels)}",
                )
                continue
            said = NUMBER_LABEL.fullmatch(link.label.strip())
            if said and " ".join(said.group(0).split()) != labels[link.target]:
                diags.add(
                    sc.path,
                    link.line,
                    sc.col(link.line, f"[{link.label}]", skip=1),
                    f"label {link.label.strip()!r} for #{link.target}, which is {labels[link.target]}: "
                    f"write [](#{link.target}) and the label is written for you",
                )
            foreign = [k for k, _ in link.state if not k.startswith(link.target + ".")]
            if foreign:
                diags.add(*where, f"state {foreign[0]!r} in {link.href!r}: a link sets only its own figure's keys")
            elif link.state and not link.title:
                diags.add(
                    *where,
                    f"{link.href!r} opens a state: say what it shows in the link's title, "
                    f'e.g. [](#{link.target}&… "at token 5")',
                )


def backlinks(places: list[tuple[str, str, Scan]], home: dict[str, str], figures: set[str]) -> dict[str, list]:
    """Section or figure id → (label, #href) of each section or figure that links to it, in page
    order. `places`: (label, id, scan) of every document (a figure's caption and texts under the
    figure's id); `home`: each figure's and heading's section. A link to a heading counts for its
    section; links within one section (to its own figures, between a figure and its section) are
    not listed: the reader is already there."""
    out: dict[str, list[tuple[str, str]]] = {}
    for label, place, sc in places:
        for link in sc.links:
            target = link.target if link.target in figures else home.get(link.target, link.target)
            if home.get(target, target) == home.get(place, place):
                continue
            if (label, f"#{place}") not in out.setdefault(target, []):
                out[target].append((label, f"#{place}"))
    return out
