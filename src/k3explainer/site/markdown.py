"""Markdown → HTML with the article's directives.

Authors write CommonMark plus:
    ::: figure fig-06 / :::            place a figure (its frame is filled in by render.py)
    ::: claim <fact key|illustrative>  a claim box with a provenance badge
    :::: vs  +  ::: side Title         a two-sided comparison
    ::: callout Title                  an aside
    {{fact.key}}                       a fact's value with its SOURCE/ILLUSTRATIVE badge
    [@key], [@key, Sec. 2; @other]     citations of content/references.bib (citations.py)
    [](#fig-06), [](#deltanet)         cross-references that write their own label (crossrefs.py)
    text[^1] … [^1]: a note            a sidenote (sidenotes.py)
    $..$, $$..$$, \\sym{name}{..}      math, rendered to MathML at build time by Temml (math.py)

Parsing and checking happen in `scan`, which walks the tokens once, records every math formula,
link, fact and figure with its source line, and reports what is wrong. Rendering then only emits.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from html import escape

from markdown_it import MarkdownIt
from markdown_it.rules_inline import StateInline
from markdown_it.token import Token
from mdit_py_plugins.anchors import anchors_plugin
from mdit_py_plugins.attrs import attrs_block_plugin, attrs_plugin
from mdit_py_plugins.container import container_plugin
from mdit_py_plugins.dollarmath import dollarmath_plugin
from mdit_py_plugins.footnote import footnote_plugin
from mdit_py_plugins.front_matter import front_matter_plugin

from .citations import citation_plugin, ref_id
from .crossrefs import crossref_plugin
from .facts import Fact, Facts
from .references import Reference
from .sidenotes import prepare_notes, sidenote_plugin
from .typography import keep_short_brackets

DIRECTIVES = ("figure", "claim", "vs", "side", "callout")
FACT_REF = re.compile(r"\{\{\s*([a-z0-9_]+(?:\.[a-z0-9_]+)+)\s*\}\}")
SYM = re.compile(r"\\sym\{([^{}]*)\}\{")
MATH_TYPES = {"math_inline": False, "math_inline_double": True, "math_block": True, "math_block_label": True}


def make_parser() -> MarkdownIt:
    md = (
        MarkdownIt("commonmark", {"typographer": True, "html": False})
        .enable(["table", "strikethrough", "replacements", "smartquotes"])
        .use(front_matter_plugin)
        .use(dollarmath_plugin, allow_space=False, allow_digits=False, double_inline=True)
        .use(anchors_plugin, min_level=2, max_level=3)
        .use(footnote_plugin)
        .use(sidenote_plugin)
        .use(attrs_plugin)
        .use(attrs_block_plugin)
        .use(citation_plugin)
        .use(crossref_plugin)
    )
    for name in DIRECTIVES:
        md.use(
            container_plugin,
            name=name,
            marker=":",
            validate=lambda params, *_, n=name: params.strip().split(" ", 1)[0] == n,
        )
    md.inline.ruler.before("emphasis", "fact_ref", _fact_rule)
    _install_renderers(md)
    return md


def _fact_rule(state: StateInline, silent: bool) -> bool:
    if not state.src.startswith("{{", state.pos):
        return False
    m = FACT_REF.match(state.src, state.pos)
    if not m:
        return False
    if not silent:
        token = state.push("fact_ref", "", 0)
        token.meta = {"key": m.group(1)}
    state.pos = m.end()
    return True


@dataclass(frozen=True)
class MathItem:
    tex: str
    display: bool


def sym_parts(tex: str) -> list[tuple[str, str]]:
    """(name, sub-expression) of every \\sym{name}{...} in `tex`, braces matched."""
    parts = []
    for m in SYM.finditer(tex):
        depth, i = 1, m.end()
        while i < len(tex) and depth:
            depth += {"{": 1, "}": -1}.get(tex[i], 0) if tex[i - 1] != "\\" else 0
            i += 1
        parts.append((m.group(1), tex[m.end() : i - 1]))
    return parts


# --------------------------------------------------------------------------- rendering


def badge(provenance: str, ref: Reference | None = None) -> str:
    """A provenance badge; a sourced fact's opens the work it comes from, in one step."""
    label = "Source" if provenance == "source" else "Illustrative"
    if ref is None:
        return f'<span class="badge badge-{provenance}">{label}</span>'
    return (
        f'<a class="badge badge-{provenance}" href="{escape(ref.url)}" target="_blank" rel="noopener">{label}'
        f'<span class="visually-hidden">: {escape(ref.short)} (opens in a new tab)</span></a>'
    )


def where_cited(fact: Fact, cited: list[tuple[Reference, int]]) -> str:
    """`[3] Schlag et al., 2021, Sec. 4.1`: the works and the place, as plain text."""
    if not cited:
        return ""
    return "; ".join(f"[{n}] {ref.short}" for ref, n in cited) + (f", {fact.at}" if fact.at else "")


def fact_html(fact: Fact, cite_id: str, cited: list[tuple[Reference, int]]) -> str:
    """The fact's display value and badge (a sourced fact's opens its work); its tooltip (also its
    accessible description) gives the checked value in full, the works and place, and the source's
    details. A fact's `topic` is an authoring label and never shown."""
    checked = fact.value if isinstance(fact.value, str) and fact.value != fact.display else None
    body = f"{escape(checked)}. " if checked else ""
    works = where_cited(fact, cited)
    works = f'<span class="fact-ref">{escape(works)}</span>' if works else ""
    return (
        f'<span class="fact" tabindex="0" data-fact="{escape(fact.key)}" aria-describedby="{cite_id}">'
        f'<span class="fact-value">{escape(fact.display)}</span>{badge(fact.provenance, cited[0][0] if cited else None)}'
        f'<span class="fact-cite" role="tooltip" id="{cite_id}">{body}{works}'
        f'<span class="fact-source">{escape(keep_short_brackets(fact.source))}</span></span></span>'
    )


def cite_links(cited: list[tuple[Reference, int]]) -> str:
    """`[3, 5]`, each number linking its work's entry in the reference list ("" when none)."""
    if not cited:
        return ""
    links = ", ".join(f'<a class="cite-ref" href="#{ref_id(ref.key)}">{n}</a>' for ref, n in cited)
    return f'<span class="cite">[{links}]</span>'


def fact_citations(
    facts: Facts, key: str, works: dict[str, Reference], numbers: dict[str, int]
) -> list[tuple[Reference, int]]:
    """(work, its number) for each reference fact `key` cites, as the page numbers them."""
    return [(works[r], numbers[r]) for r in facts.refs(key) if r in works and r in numbers]


def _fact_citation(env: dict, key: str) -> list[tuple[Reference, int]]:
    bibliography = env.get("bibliography")
    works = bibliography.by_key if bibliography is not None else {}
    return fact_citations(env["facts"], key, works, env.get("citation_numbers", {}))


def render(md: MarkdownIt, tokens: list[Token], env: dict) -> str:
    """env: facts, math {MathItem: html}, symbols, doc_id (prefix for ids), cites (shared counters)."""
    prepare_notes(md, tokens, env)
    return md.renderer.render(tokens, md.options, env)


def _next_cite(env: dict) -> str:
    """A page-unique id: one counter per document id, shared by all its renders (env["cites"])."""
    counters = env.setdefault("cites", {})
    counters[env["doc_id"]] = counters.get(env["doc_id"], 0) + 1
    return f"{env['doc_id']}-cite-{counters[env['doc_id']]}"


def _math_html(env: dict, tex: str, display: bool) -> str:
    html = env["math"].get(MathItem(tex, display))
    return html if html is not None else f"<code>{escape(tex)}</code>"


def _install_renderers(md: MarkdownIt) -> None:
    def math_inline(self, tokens, idx, options, env):
        return _math_html(env, tokens[idx].content, tokens[idx].type == "math_inline_double")

    def math_block(self, tokens, idx, options, env):
        tex = tokens[idx].content
        chips = "".join(  # unknown names were reported by scan(); only known ones get here
            f'<button type="button" class="sym-chip" data-sym="{escape(name)}" title="{escape(env["symbols"][name])}">'
            f'{_math_html(env, sub, False)}<span class="visually-hidden">: {escape(env["symbols"][name])}</span></button>'
            for name, sub in dict.fromkeys(sym_parts(tex))
        )
        chips = (
            f'<div class="sym-chips" role="group" aria-label="Symbols in this equation">{chips}</div>' if chips else ""
        )
        return f'<div class="math-block">{_math_html(env, tex, True)}{chips}</div>\n'

    def fact_ref(self, tokens, idx, options, env):
        key = tokens[idx].meta["key"]
        facts: Facts = env["facts"]
        return fact_html(facts[key], _next_cite(env), _fact_citation(env, key)) if key in facts else escape(key)

    def heading(self, tokens, idx, options, env):
        tok = tokens[idx]
        # the page's h1 is the title and each section's h2 its heading, so `##` in a section is an h3;
        # the token is put back as parsed, so a kept parse (--serve) renders the same again
        tag, attrs = tok.tag, tok.attrs
        tok.tag = f"h{min(int(tag[1]) + 1, 6)}"
        if tok.type == "heading_open" and tok.attrGet("id"):
            tok.attrs = {**attrs, "id": f"{env['doc_id']}-{attrs['id']}"}
        try:
            return self.renderToken(tokens, idx, options, env)
        finally:
            tok.tag, tok.attrs = tag, attrs

    def container(kind):
        def open_(self, tokens, idx, options, env):
            arg = tokens[idx].info.strip().partition(" ")[2].strip()
            if kind == "figure":
                return f"<!--k3:figure {escape(arg)}-->\n"
            if kind == "claim":
                fact = env["facts"].by_key.get(arg)
                prov = fact.provenance if fact else "illustrative"
                # the citation closes the box; a stack because claims may nest in other directives
                cited = _fact_citation(env, arg) if fact else []
                link = cite_links(cited) + " " if cited else ""
                ref = cited[0][0] if cited else None
                env.setdefault("claims", []).append(
                    f'<p class="claim-cite">{link}{escape(keep_short_brackets(fact.source))}</p>' if fact else ""
                )
                return (
                    f'<div class="claim claim-{prov}" role="note">'
                    f'<div class="claim-badge">{badge(prov, ref)}</div><div class="claim-body">\n'
                )
            if kind == "vs":
                return '<div class="vs" role="group" aria-label="Comparison">\n'
            if kind == "side":
                return f'<section class="vs-side"><h3 class="vs-title">{escape(arg)}</h3>\n'
            return f'<div class="callout" role="note"><p class="callout-title">{escape(arg)}</p>\n'

        def close(self, tokens, idx, options, env):
            if kind == "claim":
                return f"</div>{env['claims'].pop()}</div>\n"
            return {"figure": "", "vs": "</div>\n", "side": "</section>\n", "callout": "</div>\n"}[kind]

        return open_, close

    rules = dict(
        math_inline=math_inline,
        math_inline_double=math_inline,
        math_block=math_block,
        math_block_label=math_block,
        fact_ref=fact_ref,
        heading_open=heading,
        heading_close=heading,
    )
    for kind in DIRECTIVES:
        rules[f"container_{kind}_open"], rules[f"container_{kind}_close"] = container(kind)
    for name, rule in rules.items():
        md.add_render_rule(name, rule)
