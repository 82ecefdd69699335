"""Markdown → HTML with the article's directives.

Authors write CommonMark plus:
    ::: figure fig-06 / :::            place a figure (its frame is filled in by render.py)
    ::: claim <fact key|illustrative>  a claim box with a provenance badge
    :::: vs  +  ::: side Title         a two-sided comparison
    ::: callout Title                  an aside
    {{fact.key}}                       a fact's value with its SOURCE/ILLUSTRATIVE badge
    [@key], [@key, Sec. 2; @other]     citations of content/references.bib (citations.py)
    $..$, $$..$$, \\sym{name}{..}      math, rendered to MathML at build time by Temml (math.py)

Parsing and checking happen in `scan`, which walks the tokens once, records every math formula,
link, fact and figure with its source line, and reports what is wrong. Rendering then only emits.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from html import escape
from pathlib import Path

from markdown_it import MarkdownIt
from markdown_it.rules_inline import StateInline
from markdown_it.token import Token
from mdit_py_plugins.anchors import anchors_plugin
from mdit_py_plugins.attrs import attrs_block_plugin, attrs_plugin
from mdit_py_plugins.container import container_plugin
from mdit_py_plugins.dollarmath import dollarmath_plugin
from mdit_py_plugins.footnote import footnote_plugin
from mdit_py_plugins.front_matter import front_matter_plugin

from .citations import Cited, citation_plugin
from .errors import Diagnostics
from .facts import Fact, Facts
from .specs import FIGURE_ID
from .suggest import did_you_mean
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
        .use(attrs_plugin)
        .use(attrs_block_plugin)
        .use(citation_plugin)
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


# --------------------------------------------------------------------------- scanning


@dataclass(frozen=True)
class MathItem:
    tex: str
    display: bool


@dataclass
class Scan:
    """What one document refers to, each with its source line."""

    path: Path
    math: list[tuple[MathItem, int, int]] = field(default_factory=list)  # formula, line, column
    links: list[tuple[str, int]] = field(default_factory=list)  # "#target", line
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


def _scan_inline(children, line, out, facts, symbols, diags):
    for child in children:
        if child.type in ("softbreak", "hardbreak"):
            line += 1  # inline tokens carry no line of their own: count the breaks
        elif child.type in MATH_TYPES:
            _scan_math(child.content, MATH_TYPES[child.type], line, out, symbols, diags)
        elif child.type == "citation":
            # (a caption's text may start on the line below its key: look a few lines on)
            out.citations += [Cited(key, *out.find(line, "@" + key, 8)) for key, _ in child.meta["items"]]
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
                out.links.append((href, line))
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


def badge(provenance: str) -> str:
    label = "Source" if provenance == "source" else "Illustrative"
    return f'<span class="badge badge-{provenance}">{label}</span>'


def fact_html(fact: Fact, cite_id: str) -> str:
    """The fact's display value and badge; its tooltip (also its accessible description) gives the
    checked value in full and the source. A fact's `topic` is an authoring label and never shown."""
    checked = fact.value if isinstance(fact.value, str) and fact.value != fact.display else None
    body = f"{escape(checked)}. " if checked else ""
    return (
        f'<span class="fact" tabindex="0" data-fact="{escape(fact.key)}" aria-describedby="{cite_id}">'
        f'<span class="fact-value">{escape(fact.display)}</span>{badge(fact.provenance)}'
        f'<span class="fact-cite" role="tooltip" id="{cite_id}">{body}'
        f'<span class="fact-source">{escape(keep_short_brackets(fact.source))}</span></span></span>'
    )


def render(md: MarkdownIt, tokens: list[Token], env: dict) -> str:
    """env: facts, math {MathItem: html}, symbols, doc_id (prefix for ids), cites (shared counters)."""
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
        return fact_html(facts[key], _next_cite(env)) if key in facts else escape(key)

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
                env.setdefault("claims", []).append(
                    f'<p class="claim-cite">{escape(keep_short_brackets(fact.source))}</p>' if fact else ""
                )
                return (
                    f'<div class="claim claim-{prov}" role="note">'
                    f'<div class="claim-badge">{badge(prov)}</div><div class="claim-body">\n'
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
