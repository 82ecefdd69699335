"""Page assembly: sections' HTML + figure frames + journey strip → index.html via Jinja."""

from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path

from jinja2 import Environment, FileSystemBytecodeCache, FileSystemLoader, StrictUndefined, select_autoescape
from markupsafe import Markup

from .apparatus import Apparatus
from .article import Site, bibtex, json_ld, long_date, names, plain_citation, preview_image, scholar_meta
from .citations import ref_id
from .content import Section
from .corrections import Correction, correction_id, plain
from .estimates import section_style
from .facts import Facts
from .markdown import badge, cite_links, fact_citations
from .specs import FIGURE_ID, Spec
from .typography import keep_short_brackets

FIGURE_SLOT = re.compile(rf"<!--k3:figure ({FIGURE_ID})-->")


@dataclass
class FigureView:
    """What the figure frame template needs about one figure."""

    spec: Spec
    caption_html: Markup  # rendered by our Markdown pipeline (raw HTML is off), safe to embed
    data_src: str | None  # None while pending
    component_src: str | None
    css_src: str | None  # the figure's own sheet, if it has one

    @property
    def m(self):
        return self.spec.model


def environment(templates: list[Path], cache: Path) -> Environment:
    """Templates looked up in the folders in order: the first that has a name wins. Compiled
    templates are kept in `cache` (Jinja's bytecode cache, keyed by each template's source), so a
    rebuild loads them instead of compiling nine templates again (~0.15 s of a build)."""
    cache.mkdir(parents=True, exist_ok=True)
    env = Environment(
        loader=FileSystemLoader(templates),
        bytecode_cache=FileSystemBytecodeCache(str(cache)),
        autoescape=select_autoescape(["html"]),
        undefined=StrictUndefined,
        trim_blocks=True,
        lstrip_blocks=True,
        keep_trailing_newline=True,
    )
    env.filters["keep_short_brackets"] = keep_short_brackets
    env.filters["section_style"] = section_style
    env.filters["ref_id"] = ref_id
    return env


def render_page(
    env: Environment,
    site: Site,
    sections: list[Section],
    bodies: dict[str, str],
    figures: dict[str, FigureView],
    facts: Facts,
    css: list[str],
    scripts: list[str],
    apparatus: Apparatus,
) -> str:
    references, referenced_in, corrections = apparatus.references, apparatus.referenced_in, apparatus.corrections
    frame = env.get_template("partials/figure.html")
    numbers = {e["ref"].key: e["n"] for e in references}
    works = {e["ref"].key: e["ref"] for e in references}

    def constant_badge(c) -> Markup:
        """A figure constant's badge: a sourced fact's opens its work; its numbers link the list."""
        cited = fact_citations(facts, c.fact, works, numbers) if c.fact else []
        return Markup(badge(c.provenance, cited[0][0] if cited else None) + (" " + cite_links(cited) if cited else ""))

    corrected: dict[str, list[dict]] = {}  # section or figure id → its corrections, newest first
    for c in corrections:
        corrected.setdefault(c.where, []).append(_correction_view(c, corrections))

    def place_figures(html: str) -> Markup:
        return Markup(
            FIGURE_SLOT.sub(
                lambda m: frame.render(
                    fig=figures[m.group(1)],
                    facts=facts,
                    constant_badge=constant_badge,
                    referenced_in=referenced_in.get(m.group(1), []),
                    corrected=corrected.get(m.group(1), []),
                ),
                html,
            )
        )

    parts = [{"part": part, "sections": [s for s in sections if s.meta.part == part.id]} for part in site.parts]
    return env.get_template("index.html").render(
        site=site,
        parts=[p for p in parts if p["sections"]],
        sections=sections,
        body={s.id: place_figures(bodies[s.id]) for s in sections},
        css=css,
        scripts=scripts,
        references=references,
        referenced_in=referenced_in,
        corrections=[_correction_view(c, corrections) for c in corrections],
        corrected=corrected,
        labels=apparatus.labels,
        cite={
            "names": names(site),
            "published": long_date(site.published),
            "updated": long_date(site.updated) if site.updated else None,
            "bibtex": bibtex(site),
            "plain": plain_citation(site),
            "meta": scholar_meta(site),
            "json_ld": Markup(json_ld(site)),  # escaped for a script element by json_ld itself
            "image": preview_image(site),
        },
    )


def _correction_view(c: Correction, corrections: list[Correction]) -> dict:
    return {
        "id": correction_id(c, corrections),
        "date": c.date.isoformat(),
        "day": long_date(c.date),
        "where": c.where,
        "what": plain(c.what),
        "why": plain(c.why),
        "test": c.test,
    }
