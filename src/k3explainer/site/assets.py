"""The files a page ships besides its HTML and figure data: the theme's and project's sheets and
scripts joined into one file each, the figures' own components and sheets, and the vendored
browser assets (Temml's stylesheet and the math fonts, Plotly when a live figure draws with it)."""

from __future__ import annotations

from pathlib import Path

import rcssmin
import rjsmin

from .errors import Diagnostics
from .estimates import estimate_css
from .math import math_assets
from .project import THEME, Project
from .specs import reserve_css


def page_assets(project: Project, plotly: bool, diags: Diagnostics) -> dict[str, bytes]:
    """Every shipped file shared by the page's figures, by its path in the output."""
    files = {
        "assets/site.css": concat_css(project.layered("static/css"), reserve=True),
        "assets/widgets.css": concat_css(project.layered("static/css/widgets")),
        "assets/k3.js": concat_js(project.layered("static/js/runtime")),
        "assets/widgets.js": concat_js(project.layered("static/js/widgets")),
        "assets/favicon.png": project.file("static/favicon.png").read_bytes(),
    }
    return files | vendor(project, plotly, diags)


def vendor(project: Project, plotly: bool, diags: Diagnostics) -> dict[str, bytes]:
    """Temml's stylesheet and the math fonts, and Plotly when a live figure needs it, from node_modules."""
    wanted = [project.node_modules / "temml" / "dist" / "Temml-Latin-Modern.css"]
    plotly_js = project.node_modules / "plotly.js-cartesian-dist-min" / "plotly-cartesian.min.js"
    if plotly:
        wanted.append(plotly_js)
    missing = [p for p in wanted if not p.is_file()]
    for p in missing:
        diags.add(p, 1, 1, "missing browser asset: run `npm ci --ignore-scripts`")
    if missing:
        return {}
    files = math_assets(project.node_modules, THEME / "math-fonts")
    if plotly:
        files["vendor/plotly.min.js"] = plotly_js.read_bytes()
    return files


def _layered(folders: list[Path], pattern: str) -> list[tuple[str, Path]]:
    """(name, file) for every file matching `pattern` in the folders, a later folder's file
    replacing an earlier one's of the same name, in name order."""
    files = {p.name: p for folder in folders for p in folder.glob(pattern)}
    return sorted(files.items())


def concat_css(folders: list[Path], reserve: bool = False) -> bytes:
    """One sheet from folders of small ones, in name order: site.css (the page and the figure
    frames, then the figures' reserved heights and the sections' heights before layout, generated
    from specs.RESERVE_WIDTHS and estimates.SECTION_WIDTHS) or widgets.css
    (what widgets.js draws; it loads with widgets.js, and each figure's own sheet with the figure)."""
    parts = [p.read_text(encoding="utf-8") for _, p in _layered(folders, "*.css")]
    if reserve:
        parts += [reserve_css(), estimate_css()]
    return shipped_css("\n".join(parts))


def concat_js(folders: list[Path]) -> bytes:
    """One script from folders of small ones, joined in file-name order (their numeric prefixes
    say it): one request on the page, one responsibility per file in the source."""
    return b"\n".join(shipped_js(p) for _, p in _layered(folders, "*.js"))


def shipped_js(path: Path) -> bytes:
    """A script as it ships: minified by rjsmin (comments and spaces go, the code stays as written)."""
    return rjsmin.jsmin(path.read_text(encoding="utf-8")).encode()


def shipped_css(text: str) -> bytes:
    """A sheet as it ships: minified by rcssmin."""
    return rcssmin.cssmin(text).encode()
