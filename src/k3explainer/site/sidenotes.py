"""Sidenotes: Markdown footnotes (`[^1]` and `[^1]: text`, mdit-py-plugins' footnote syntax)
rendered the Tufte and Distill way.

The note's text sits right after its number, in a `span.sidenote` (role note): on a wide screen the
sheet floats it into the margin beside its line; on a narrower one it is closed and the number opens
it where it stands (runtime/57-notes.js; without scripts, the number is a link whose target, the
note itself, opens by `:target`). The same notes are listed at the foot of their section for print
only, so a printout carries them where a reader of paper expects them.
"""

from __future__ import annotations

from markdown_it import MarkdownIt
from markdown_it.token import Token


def sidenote_plugin(md: MarkdownIt) -> None:
    md.add_render_rule("footnote_ref", _ref)
    md.add_render_rule("footnote_block_open", lambda *a: '<ol class="section-notes">\n')
    md.add_render_rule("footnote_block_close", lambda *a: "</ol>\n")
    md.add_render_rule("footnote_open", lambda *a: "<li>")
    md.add_render_rule("footnote_close", lambda *a: "</li>\n")
    md.add_render_rule("footnote_anchor", lambda *a: "")


def prepare_notes(md: MarkdownIt, tokens: list[Token], env: dict) -> None:
    """Each note's body as inline HTML (env["notes"][id]), for its number to carry beside it: the
    footnote plugin keeps the bodies at the end of the document, after every reference to them."""
    notes, current, parts = {}, None, []
    for tok in tokens:
        if tok.type == "footnote_open":
            current, parts = tok.meta["id"], []
        elif tok.type == "footnote_close":
            notes[current], current = " ".join(parts), None
        elif current is not None and tok.type == "inline":
            parts.append(md.renderer.renderInline(tok.children or [], md.options, env))
    env["notes"] = notes


def _ref(self, tokens, idx, options, env) -> str:
    note = tokens[idx].meta["id"]
    n, sub = note + 1, tokens[idx].meta.get("subId", 0)
    nid = f"{env['doc_id']}-note-{n}"
    if sub:  # a note referred to again: only its number, linking to where it is shown
        return f'<a class="sn-ref" href="#{nid}" role="doc-noteref">{n}</a>'
    return (
        f'<a class="sn-ref" href="#{nid}" role="doc-noteref" aria-controls="{nid}">{n}</a>'
        f'<span class="sidenote" id="{nid}" role="note" aria-label="Note {n}">'
        f'<span class="sn-num" aria-hidden="true">{n}</span> {env.get("notes", {}).get(note, "")}</span>'
    )
