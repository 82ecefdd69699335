"""Small test pages: the built article cut down to the section(s) a figure lives in.

Most browser time on the full article is spent on the other 17 sections: every layout after an
interaction, every axe run and every page load walks ~16,000 elements. A figure's tests need only
its own section (its equations' symbols, its captions) and the page's shell (runtime, strip,
styles), so each figure module opens `figure-<id>.html`: the same document with every other
section cut down to its heading (so links between sections still land). Whole-page behaviour (layout shift, reserved heights, links between sections,
file://, printing) is tested on index.html itself."""

from __future__ import annotations

import re
from pathlib import Path

SECTION = re.compile(r'\n    <section class="section" id="([\w-]+)".*?\n    </section>', re.S)
OPENING = re.compile(r"\n    <section [^>]*>")
HEADING = re.compile(r"<h2.*?</h2>", re.S)
FIGURE = re.compile(r'<figure id="(fig-[\w-]+)"')

# Figures whose tests also reach into other sections' text (equations there link to the figure).
ALSO = {"fig-17": ("attention", "deltanet")}


def page_name(fig_id: str) -> str:
    return f"figure-{fig_id}.html"


def _heading_only(section: str) -> str:
    return OPENING.match(section).group(0) + HEADING.search(section).group(0) + "</section>"


def write_figure_pages(site_dir: Path) -> None:
    """Beside index.html (so its relative asset paths hold), one page per figure."""
    html = (site_dir / "index.html").read_text(encoding="utf-8")
    home = {fig: m.group(1) for m in SECTION.finditer(html) for fig in FIGURE.findall(m.group(0))}
    for fig, section in home.items():
        keep = {section, *ALSO.get(fig, ())}
        page = SECTION.sub(lambda m, keep=keep: m.group(0) if m.group(1) in keep else _heading_only(m.group(0)), html)
        (site_dir / page_name(fig)).write_text(page, encoding="utf-8")
