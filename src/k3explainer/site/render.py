"""Page assembly: sections' HTML + figure frames + journey strip → index.html via Jinja."""
from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path

from jinja2 import Environment, FileSystemLoader, StrictUndefined, select_autoescape
from markupsafe import Markup

from .content import Section, Site
from .estimates import section_style
from .facts import Facts
from .memo import Memo
from .specs import Spec
from .typography import keep_short_brackets

FIGURE_SLOT = re.compile(r"<!--k3:figure (fig-\d\d[a-z]?)-->")


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


class _Loader(FileSystemLoader):
    """A template counts as changed when its text does, not only its modification time (two
    edits within the file system's timestamp granularity), so a kept environment (`--serve`)
    never renders a stale compiled template."""

    def get_source(self, environment, template):
        source, filename, _ = super().get_source(environment, template)

        def uptodate() -> bool:
            try:
                return Path(filename).read_text(encoding=self.encoding) == source
            except OSError:
                return False

        return source, filename, uptodate


def environment(templates: list[Path], memo: Memo | None = None) -> Environment:
    """Templates looked up in the folders in order: the first that has a name wins. With a memo
    the environment, and so its compiled templates, is kept while the folders hold the same files."""
    def make() -> Environment:
        env = Environment(loader=_Loader(templates), autoescape=select_autoescape(["html"]),
                          undefined=StrictUndefined, trim_blocks=True, lstrip_blocks=True, keep_trailing_newline=True)
        env.filters["keep_short_brackets"] = keep_short_brackets
        env.filters["section_style"] = section_style
        return env

    if memo is None:
        return make()
    listing = tuple((str(d), tuple(sorted(str(p.relative_to(d)) for p in d.rglob("*")))) for d in templates)
    return memo.get(("jinja",), listing, make)


def render_page(env: Environment, site: Site, sections: list[Section], bodies: dict[str, str],
                figures: dict[str, FigureView], facts: Facts, css: list[str], scripts: list[str],
                memo: Memo | None = None) -> str:
    frame = env.get_template("partials/figure.html")

    # a figure's frame is kept while its inputs are the same objects and no template has changed
    # (the frame may include others): all their texts are part of the key
    sources = () if memo is None else tuple(
        (str(p), memo.files.text(p)) for d in env.loader.searchpath for p in sorted(Path(d).rglob("*")) if p.is_file())

    def figure_html(fid: str) -> str:
        view = figures[fid]
        make = lambda: frame.render(fig=view, facts=facts)  # noqa: E731
        if memo is None:
            return make()
        key = (sources, frame, view.spec, str(view.caption_html), view.data_src, view.component_src, view.css_src, facts)
        return memo.get(("figure frame", fid), key, make)

    def place_figures(html: str) -> Markup:
        return Markup(FIGURE_SLOT.sub(lambda m: figure_html(m.group(1)), html))

    parts = [
        {"part": part, "sections": [s for s in sections if s.meta.part == part.id]}
        for part in site.parts
    ]
    return env.get_template("index.html").render(
        site=site,
        parts=[p for p in parts if p["sections"]],
        sections=sections,
        body={s.id: place_figures(bodies[s.id]) for s in sections},
        css=css,
        scripts=scripts,
    )
