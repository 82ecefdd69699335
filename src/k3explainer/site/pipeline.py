"""One build: load → validate → compute → render → write. Every error of a run is reported together."""
from __future__ import annotations

import functools
import gzip
import time
from dataclasses import dataclass, field
from pathlib import Path

from markupsafe import Markup

from .content import Section, check_content_files, load_sections, load_site, load_symbols
from .errors import Diagnostics
from .estimates import estimate_css
from .facts import project_facts
from .figdata import build_figure_data, dumps, markdown_paths, with_html
from .headstart import HeadStart
from .markdown import MathItem, Scan, make_parser, render, scan, sym_parts
from .jsmin import strip_comment_lines
from .math import math_assets, prefetch_math, render_math, renderer_version
from .memo import Memo
from .output import write_atomic
from .project import THEME, Project
from .render import FigureView, environment, render_page
from .specs import check_parts, load_specs, reserve_css
from .suggest import did_you_mean


@dataclass
class InlineDoc:
    """A piece of inline Markdown outside the sections (a caption, a figure's `*_md` text)."""

    tokens: list
    env: dict
    scan: Scan


@dataclass
class Summary:
    sections: int
    figures: dict[str, int]  # live figure id → bytes (data + component + its sheet)
    pending: list[str]
    total_bytes: int
    first_view: list[bytes]  # the files of the first view (HTML, CSS, JS)
    seconds: float = 0.0
    files: dict[str, int] = field(default_factory=dict)

    @functools.cached_property
    def first_view_gzip(self) -> int:
        """Their gzip size: worked out when asked for (a `--serve` rebuild never asks)."""
        return sum(len(gzip.compress(data, mtime=0)) for data in self.first_view)

    def lines(self) -> list[str]:
        out = [f"built {self.sections} sections, {len(self.figures)} live figures in {self.seconds:.2f} s"]
        out += [f"  {fid:8s} {n:>9,d} B (data + component + sheet)" for fid, n in sorted(self.figures.items())]
        if self.pending:
            out.append(f"  pending ({len(self.pending)}): {', '.join(self.pending)}")
        out.append(f"  total {self.total_bytes:,d} B; first view (HTML+CSS+JS, gzip) {self.first_view_gzip:,d} B")
        return out


def build(project: Project, out: Path, memo: Memo | None = None, head: HeadStart | None = None) -> Summary:
    """Build into `out` (swapped in whole). `--serve` passes the Memo it keeps between rebuilds, so
    only what an edit touched is computed again; the output is the same bytes either way. The
    CLI's one-shot build passes what it started before it loaded the pipeline (headstart.py)."""
    t0 = head.started if head is not None else time.perf_counter()
    files, summary = compile_site(project, memo, head)
    # what this process last wrote there: unchanged files are linked, not written again
    write_atomic(out, files, memo.keep(f"written {out.resolve()}", dict) if memo is not None else None)
    summary.seconds = time.perf_counter() - t0
    return summary


def compile_site(project: Project, memo: Memo | None = None,
                 head: HeadStart | None = None) -> tuple[dict[str, bytes], Summary]:
    """Everything a build produces, in memory; raises BuildError with all diagnostics. `head`: the
    CLI's one-shot build has loaded the facts and specs already, and started node and the builders."""
    memo = memo or Memo()
    if head is not None:
        diags, facts, specs = head.diags, head.facts, head.specs
    else:
        diags = Diagnostics(project.root)
        facts = project_facts(project.root, diags, memo)
        specs = load_specs(project.content / "figures", diags, memo)
    md = memo.keep("markdown parser", make_parser)
    site = _settings(memo, load_site, project.content / "site.yaml", diags)
    symbols = _settings(memo, load_symbols, project.content / "symbols.yaml", diags)
    check_content_files(project.content, diags)
    sections = load_sections(project.content, md, site, diags, memo)
    check_parts(specs, project.root, project.static, facts, diags, memo)

    # each document's scan is kept while its parse, the facts and the symbols are the same objects
    scans = [memo.get(("scan", s.path), (s, facts, symbols), lambda s=s: scan(s.tokens, s.path, facts, symbols, diags), diags)
             for s in sections]

    def inline(text: str, spec, where: str, *loc) -> InlineDoc:
        offset = spec.where(*loc)[0] - 1

        def parse() -> InlineDoc:
            env = {"docId": spec.id}
            tokens = md.parseInline(text, env)
            return InlineDoc(tokens, env, scan(tokens, spec.path, facts, symbols, diags, line_offset=offset))

        return memo.get(("inline", spec.id, where), (text, spec.id, spec.path, offset, md, facts, symbols), parse, diags)

    inline_docs = {(fid, "caption"): inline(spec.model.caption, spec, "caption", "caption") for fid, spec in specs.items()}
    # a spec that failed validation was reported already; still count its id as known
    figure_ids = set(specs) | {p.stem for p in (project.content / "figures").glob("*.yaml")}
    _check_placements(scans, specs, figure_ids, diags)
    diags.raise_if_any()  # builders run only on content that checks out (the CLI stops a head start's worker)
    # the prose's and captions' formulas render in node while the builders compute
    known = _formulas(scans + [doc.scan for doc in inline_docs.values()])
    prefetched = prefetch_math([m for m, *_ in known], project.node_modules, project.cache, memo,
                               head and head.renderer)
    md_fields: dict[str, list[tuple[tuple, str]]] = {}

    def figure_markdown(fid: str, d: dict) -> None:
        """A figure's `_md` texts, parsed and checked as soon as its builder returns; their
        formulas go to node while the next builders run."""
        md_fields[fid] = memo.get(("markdown fields", fid), (d,), lambda: markdown_paths(d))
        docs = []
        for loc, text in md_fields[fid]:
            where = ".".join(map(str, loc))
            doc = inline_docs[(fid, where)] = inline(text, specs[fid], where, "params")
            docs.append(doc)
        if prefetched is not None and docs:
            prefetched.add([m for m, *_ in _formulas([doc.scan for doc in docs])])

    data = build_figure_data(specs, facts, diags, project.root, project.figure_cache, memo, figure_markdown,
                             head and head.jobs)
    all_scans = scans + [doc.scan for doc in inline_docs.values()]
    _check_links(sections, all_scans, figure_ids, diags)

    math_html = render_math(_formulas(all_scans), project.node_modules, project.cache, diags, prefetched, memo)
    diags.raise_if_any()
    math_version = renderer_version(project.node_modules, memo)

    cites: dict[str, int] = {}  # citation ids stay unique across a figure's caption and texts

    def html_of(slot, doc, tokens, env: dict, doc_id: str) -> str:
        """A document's HTML, kept while the document, the facts, the symbols and the math renderer
        are the same, and its citations are numbered from the same point."""
        start = cites.get(doc_id, 0)

        def render_doc() -> tuple[str, int]:
            counters = {doc_id: start}
            html = render(md, tokens, {**env, "facts": facts, "math": math_html, "symbols": symbols,
                                       "doc_id": doc_id, "cites": counters})
            return html, counters[doc_id]

        html, end = memo.get(("html", slot), (doc, doc_id, facts, symbols, math_version, start), render_doc)
        cites[doc_id] = end
        return html

    def inline_html(fid: str, where: str) -> str:
        doc = inline_docs[(fid, where)]
        return html_of((fid, where), doc, doc.tokens, doc.env, doc.env["docId"])

    shipped: dict[str, dict] = {}
    for fid, d in data.items():
        html = {loc: inline_html(fid, ".".join(map(str, loc))) for loc, _ in md_fields[fid]}
        shipped[fid] = memo.get(("shipped data", fid), (d, tuple(html.items())), lambda d=d, html=html: with_html(d, html))

    files: dict[str, bytes] = {}
    bodies = {s.id: html_of(s.path, s, s.tokens, s.env, s.id) for s in sections}
    views: dict[str, FigureView] = {}
    figure_bytes: dict[str, int] = {}
    for fid, spec in sorted(specs.items()):
        caption_html = Markup(inline_html(fid, "caption"))
        m = spec.model
        if m.pending:
            views[fid] = FigureView(spec, caption_html, None, None, None)
            continue
        data_src, comp_src = f"data/{fid}.js", f"assets/figures/{m.component}.js"
        d = shipped[fid]
        files[data_src] = memo.get(("data js", fid), (d,), lambda fid=fid, d=d: f'K3.data("{fid}", {dumps(d, ready=True)});\n'.encode())
        files[comp_src] = _shipped_js(project.static / "js" / "figures" / f"{m.component}.js", memo)
        # a figure's own sheet styles only what its component draws: it loads with the component
        sheet = project.static / "css" / "figures" / f"{m.component}.css"
        css_src = f"assets/figures/{m.component}.css" if sheet.is_file() else None
        if css_src:
            files[css_src] = memo.files.bytes(sheet)
        figure_bytes[fid] = len(files[data_src]) + len(files[comp_src]) + (len(files[css_src]) if css_src else 0)
        views[fid] = FigureView(spec, caption_html, data_src, comp_src, css_src)

    files["assets/site.css"] = _concat_css(project.layered("static/css"), memo, reserve=True)
    files["assets/widgets.css"] = _concat_css(project.layered("static/css/widgets"), memo)
    files["assets/k3.js"] = _concat_js(project.layered("static/js/runtime"), memo)
    files["assets/widgets.js"] = _concat_js(project.layered("static/js/widgets"), memo)
    files["assets/favicon.png"] = memo.files.bytes(project.file("static/favicon.png"))
    files.update(_vendor(project, any(not s.model.pending and s.model.plotly for s in specs.values()), diags, memo))
    diags.raise_if_any()

    css = ["vendor/math/temml.css", "assets/site.css"]
    scripts = ["assets/k3.js"]
    html = render_page(environment(project.layered("templates")[::-1], memo), site, sections, bodies, views, facts, css,
                       scripts, memo)
    files["index.html"] = html.encode()
    manifest = lambda: (dumps(_manifest(specs, facts, shipped)) + "\n").encode()  # noqa: E731
    files["manifest.json"] = memo.get(("manifest",), (tuple(specs.items()), facts, tuple(shipped.items())), manifest)

    first_view = ["index.html", *css, *scripts]
    summary = Summary(
        sections=len(sections),
        figures=figure_bytes,
        pending=sorted(fid for fid, s in specs.items() if s.model.pending),
        total_bytes=sum(len(b) for b in files.values()),
        first_view=[files[f] for f in first_view],
        files={k: len(v) for k, v in files.items()},
    )
    return files, summary


def _settings(memo: Memo, load, path: Path, diags: Diagnostics):
    """site.yaml or symbols.yaml, parsed again only when its bytes change."""
    content = memo.files.bytes(path) if path.is_file() else None
    return memo.get(("settings", path), content, lambda: load(path, diags), diags)


def _vendor(project: Project, plotly: bool, diags: Diagnostics, memo: Memo) -> dict[str, bytes]:
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
    files = math_assets(project.node_modules, THEME / "math-fonts", memo)
    if plotly:
        files["vendor/plotly.min.js"] = memo.files.bytes(plotly_js)
    return files


def _layered(folders: list[Path], pattern: str) -> list[tuple[str, Path]]:
    """(name, file) for every file matching `pattern` in the folders, a later folder's file
    replacing an earlier one's of the same name, in name order."""
    files = {p.name: p for folder in folders for p in folder.glob(pattern)}
    return sorted(files.items())


def _concat_css(folders: list[Path], memo: Memo, reserve: bool = False) -> bytes:
    """One sheet from folders of small ones, in name order: site.css (the page and the figure
    frames, then the figures' reserved heights and the sections' heights before layout, generated
    from specs.RESERVE_WIDTHS and estimates.SECTION_WIDTHS) or widgets.css
    (what widgets.js draws; it loads with widgets.js, and each figure's own sheet with the figure)."""
    parts = tuple((name, memo.files.bytes(p)) for name, p in _layered(folders, "*.css"))
    tail = [b"/* reserved heights by figure width (specs.reserve_css) */\n" + reserve_css().encode(),
            b"/* section heights before layout, by viewport width (estimates.estimate_css) */\n" + estimate_css().encode()
            ] if reserve else []
    return memo.get(("css", tuple(folders)), parts, lambda: b"\n".join(
        [f"/* {name} */\n".encode() + data for name, data in parts] + tail))


def _concat_js(folders: list[Path], memo: Memo) -> bytes:
    """One script from folders of small ones, joined in file-name order (their numeric prefixes
    say it): one request on the page, one responsibility per file in the source."""
    return b"\n".join(_shipped_js(p, memo) for _, p in _layered(folders, "*.js"))


def _shipped_js(path: Path, memo: Memo) -> bytes:
    text = memo.files.text(path)
    return memo.get(("shipped js", path), text, lambda: strip_comment_lines(text).encode())


def _formulas(scans) -> list[tuple[MathItem, Path, int, int]]:
    """Every formula the scans found, where it was written, and the symbol chips under display
    equations (each tagged sub-expression on its own)."""
    per_scan = [_scan_formulas(sc) for sc in scans]
    return [f for items, _ in per_scan for f in items] + [f for _, chips in per_scan for f in chips]


def _scan_formulas(sc: Scan) -> tuple[list, list]:
    """One scan's formulas and chips, remembered on the scan (a kept scan is not walked again)."""
    found = sc.__dict__.get("_formulas")
    if found is None:
        items = [(m, sc.path, line, col) for m, line, col in sc.math]
        chips = [(MathItem(sub, False), p, line, col) for m, p, line, col in items if m.display
                 for _, sub in sym_parts(m.tex)]
        found = sc.__dict__["_formulas"] = (items, chips)
    return found


def _check_placements(scans, specs, figure_ids: set[str], diags: Diagnostics) -> None:
    placed: dict[str, tuple] = {}
    for sc in scans:
        for fid, line in sc.figures:
            if fid not in figure_ids:
                diags.add(sc.path, line, sc.col(line, fid),
                          f"unknown figure {fid!r}: no content/figures/{fid}.yaml{did_you_mean(fid, figure_ids)}")
            elif fid in placed:
                diags.add(sc.path, line, 1, f"figure {fid!r} is placed twice (also {diags.rel(placed[fid][0])}:{placed[fid][1]})")
            else:
                placed[fid] = (sc.path, line)
    for fid, spec in sorted(specs.items()):
        if fid not in placed:
            diags.add(spec.path, *spec.where("id"), f"figure {fid!r} is never placed: add '::: figure {fid}' to a section")


def _check_links(sections: list[Section], scans, figure_ids: set[str], diags: Diagnostics) -> None:
    targets = {"article"} | {s.id for s in sections} | figure_ids
    targets |= {f"{s.id}-{i}" for s, sc in zip(sections, scans) for i in sc.ids}
    for sc in scans:
        for href, line in sc.links:
            if href[1:] not in targets:
                diags.add(sc.path, line, sc.col(line, f"]({href}", skip=2), f"broken cross-reference {href!r}: no section, "
                          f"figure or heading has that id{did_you_mean(href[1:], targets)}")


def _manifest(specs, facts, data) -> dict:
    """Every figure and fact with its provenance: what the page shows and where it came from."""
    return {
        "figures": {
            fid: {
                "label": s.model.label,
                "title": s.model.title,
                "pending": s.model.pending,
                "builder": None if s.model.pending else f"figures/{s.model.builder}.py",
                "component": s.model.component,
                "constants": [c.model_dump(exclude_none=True) for c in s.model.constants],
                "provenance": data[fid]["provenance"] if fid in data else None,
            }
            for fid, s in sorted(specs.items())
        },
        "facts": {k: f.model_dump(exclude_none=True) for k, f in sorted(facts.by_key.items())},
    }
