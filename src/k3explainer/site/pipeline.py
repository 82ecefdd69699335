"""One build, as MkDocs' `commands/build.py` lays it out: a short list of named phases, each a
function with one job and plain data between them.

    load     content/, the facts, the references, the figure specs         → Inputs
    check    files, builders and components, placements, facts and symbols → Checked
    compute  each live figure's data (cached by content hash), its texts and headline;
             then every link and citation of every document                → Computed
    render   math (cached by content hash), HTML, the shipped files        → files
    write    the output folder, swapped in whole                           (output.write_atomic)

Every problem a phase finds is collected; the build stops after the first phase that found any,
with all of them. `serve` rebuilds by calling `build` again.
"""

from __future__ import annotations

import gzip
import time
from dataclasses import dataclass, field
from pathlib import Path

from markdown_it import MarkdownIt
from markupsafe import Markup

from .apparatus import gather, labels_of
from .article import Site, load_site, preview_image
from .assets import page_assets, shipped_css, shipped_js
from .citations import check_citations
from .content import Section, check_content_files, load_sections, load_symbols
from .corrections import Correction, load_corrections
from .crossrefs import check_links
from .errors import Diagnostics
from .facts import Facts, project_facts
from .figdata import build_figure_data, dumps, manifest, markdown_paths, with_html
from .headline import fill_headlines
from .markdown import MathItem, make_parser, render, sym_parts
from .math import render_math
from .output import write_atomic
from .params import check_params
from .project import Project
from .references import References, load_references
from .render import FigureView, environment, render_page
from .scan import Scan, scan
from .specs import Spec, check_parts, component_files, figure_folders, figure_id, load_specs
from .suggest import did_you_mean
from .wordcount import words


@dataclass
class Inputs:
    """What `load` read: the project's content, parsed."""

    md: MarkdownIt
    facts: Facts
    specs: dict[str, Spec]
    site: Site | None
    symbols: dict[str, str] | None
    sections: list[Section]
    references: References


@dataclass
class InlineDoc:
    """A piece of inline Markdown outside the sections (a caption, a figure's `*_md` text)."""

    tokens: list
    env: dict
    scan: Scan


@dataclass
class Checked:
    """What `check` found: each section's and caption's references, all known to exist."""

    scans: list[Scan]  # one per section, in order
    captions: dict[str, InlineDoc]  # figure id → its caption
    figure_ids: set[str]
    corrections: list[Correction]  # newest first


@dataclass
class Computed:
    data: dict[str, dict]  # live figure id → its builder's data
    texts: dict[str, dict[tuple, InlineDoc]]  # figure id → each `_md` text in its data, by path


@dataclass
class Summary:
    sections: int
    figures: dict[str, int]  # live figure id → bytes (data + component + its sheet)
    pending: list[str]
    total_bytes: int
    first_view: list[bytes]  # the files of the first view (HTML, CSS, JS)
    seconds: float = 0.0
    files: dict[str, int] = field(default_factory=dict)
    warnings: list[str] = field(default_factory=list)  # `path:line:col: warning: …`, never fatal
    words: dict[str, int] = field(default_factory=dict)  # section id → words of prose (wordcount.py)

    @property
    def first_view_gzip(self) -> int:
        return sum(len(gzip.compress(data, mtime=0)) for data in self.first_view)

    def lines(self) -> list[str]:
        out = [f"built {self.sections} sections, {len(self.figures)} live figures in {self.seconds:.2f} s"]
        out += [f"  {fid:8s} {n:>9,d} B (data + component + sheet)" for fid, n in sorted(self.figures.items())]
        if self.pending:
            out.append(f"  pending ({len(self.pending)}): {', '.join(self.pending)}")
        out.append(f"  total {self.total_bytes:,d} B; first view (HTML+CSS+JS, gzip) {self.first_view_gzip:,d} B")
        if self.words:
            each = ", ".join(f"{sid} {n:,d}" for sid, n in self.words.items())
            out.append(f"  prose {sum(self.words.values()):,d} words ({each})")
        return out


def build(project: Project, out: Path) -> Summary:
    """Build into `out`, swapped in whole; raises BuildError with every problem found."""
    t0 = time.perf_counter()
    files, summary = compile_site(project)
    write_atomic(out, files)
    summary.seconds = time.perf_counter() - t0
    return summary


def compile_site(project: Project) -> tuple[dict[str, bytes], Summary]:
    """Everything a build produces, in memory: the phases before `write`."""
    diags = Diagnostics(project.root)
    inputs = load(project, diags)
    checked = check(project, inputs, diags)
    diags.raise_if_any()  # builders run only on content that checks out
    computed = compute(project, inputs, checked, diags)
    return render_site(project, inputs, checked, computed, diags)


def load(project: Project, diags: Diagnostics) -> Inputs:
    md = make_parser()
    site = load_site(project.content / "site.yaml", diags)
    return Inputs(
        md,
        project_facts(project.root, diags),
        load_specs(project.root / "figures", diags),
        site,
        load_symbols(project.content / "symbols.yaml", diags),
        load_sections(project.content, md, site, diags),
        load_references(project.content / "references.bib", diags),
    )


def check(project: Project, inputs: Inputs, diags: Diagnostics) -> Checked:
    check_content_files(project.content, diags)
    check_parts(inputs.specs, project.root, inputs.facts, diags)
    check_params(inputs.specs, project.root, diags)
    scans = [scan(s.tokens, s.path, inputs.facts, inputs.symbols, diags) for s in inputs.sections]
    captions = {
        fid: _inline(inputs, spec.model.caption, spec, ("caption",), diags) for fid, spec in inputs.specs.items()
    }
    # a spec that failed validation was reported already; still count its id as known
    figure_ids = set(inputs.specs) | {figure_id(p) for p in figure_folders(project.root / "figures")} - {None}
    # a section that did not load was reported; its figures are not "never placed" on top of that
    every_section_loaded = len(inputs.sections) == len(list(project.content.glob("*.md")))
    _check_placements(scans, inputs.specs, figure_ids, every_section_loaded, diags)
    corrections = load_corrections(project.root, {s.id for s in inputs.sections} | figure_ids, diags)
    return Checked(scans, captions, figure_ids, corrections)


def compute(project: Project, inputs: Inputs, checked: Checked, diags: Diagnostics) -> Computed:
    """Each live figure's data, and the inline Markdown its builder wrote, parsed and checked like prose."""
    data = build_figure_data(inputs.specs, inputs.facts, diags, project.root, project.figure_cache)
    fill_headlines(inputs.specs, data, diags)
    texts = {
        fid: {loc: _inline(inputs, text, inputs.specs[fid], ("params",), diags) for loc, text in markdown_paths(d)}
        for fid, d in data.items()
    }
    scans = checked.scans + [doc.scan for doc in checked.captions.values()]
    scans += [doc.scan for docs in texts.values() for doc in docs.values()]
    check_links(scans, labels_of(inputs, checked), diags)
    check_citations(scans, inputs.references, inputs.facts, diags)
    return Computed(data, texts)


def render_site(
    project: Project, inputs: Inputs, checked: Checked, computed: Computed, diags: Diagnostics
) -> tuple[dict[str, bytes], Summary]:
    """Math, every document's HTML, the page and the files it ships."""
    docs = [*checked.captions.values(), *(doc for docs in computed.texts.values() for doc in docs.values())]
    math_html = render_math(
        _formulas(checked.scans + [doc.scan for doc in docs]), project.node_modules, project.cache, diags
    )
    diags.raise_if_any()
    apparatus = gather(inputs, checked, computed, diags)
    cites: dict[str, int] = {}  # citation ids run on across a figure's texts and caption

    def html_of(tokens: list, env: dict, doc_id: str) -> str:
        counters = {doc_id: cites.get(doc_id, 0)}
        html = render(
            inputs.md,
            tokens,
            {
                **env,
                "facts": inputs.facts,
                "math": math_html,
                "symbols": inputs.symbols,
                "doc_id": doc_id,
                "cites": counters,
                "citation_numbers": apparatus.numbers,
                "xref_labels": apparatus.labels,
                "bibliography": inputs.references,  # (not "references": markdown-it keeps link definitions there)
            },
        )
        cites[doc_id] = counters[doc_id]
        return html

    # (in this order: a figure's texts, then the sections, then the captions, as citations are numbered)
    shipped = {
        fid: with_html(d, {loc: html_of(doc.tokens, doc.env, fid) for loc, doc in computed.texts[fid].items()})
        for fid, d in computed.data.items()
    }
    bodies = {s.id: html_of(s.tokens, s.env, s.id) for s in inputs.sections}
    files: dict[str, bytes] = {}
    views: dict[str, FigureView] = {}
    figure_bytes: dict[str, int] = {}
    for fid, spec in sorted(inputs.specs.items()):
        doc = checked.captions[fid]
        caption_html = Markup(html_of(doc.tokens, doc.env, fid))
        if spec.model.pending:
            views[fid] = FigureView(spec, caption_html, None, None, None)
            continue
        folder = project.root / "figures" / spec.component_name
        data_src, comp_src = f"data/{fid}.js", f"assets/figures/{spec.component_name}.js"
        files[data_src] = f'K3.data("{fid}", {dumps(shipped[fid], ready=True)});\n'.encode()
        files[comp_src] = b"\n".join(shipped_js(p) for p in component_files(folder))
        # a figure's own sheets style only what its component draws: they load with the component
        sheets = sorted(folder.glob("*.css"))
        css_src = f"assets/figures/{spec.component_name}.css" if sheets else None
        if css_src:
            files[css_src] = shipped_css("\n".join(p.read_text(encoding="utf-8") for p in sheets))
        figure_bytes[fid] = sum(len(files[f]) for f in (data_src, comp_src, css_src) if f)
        views[fid] = FigureView(spec, caption_html, data_src, comp_src, css_src)
    files.update(
        page_assets(project, any(not s.model.pending and s.model.plotly for s in inputs.specs.values()), diags)
    )
    if preview_image(inputs.site):  # (load_site checked that the file is there)
        files[preview_image(inputs.site)] = (project.static / inputs.site.image).read_bytes()
    diags.raise_if_any()

    css, scripts = ["vendor/math/temml.css", "assets/site.css"], ["assets/k3.js"]
    env = environment(project.layered("templates")[::-1], project.root / ".cache" / "templates")
    files["index.html"] = render_page(
        env,
        inputs.site,
        inputs.sections,
        bodies,
        views,
        inputs.facts,
        css,
        scripts,
        apparatus,
    ).encode()
    files["manifest.json"] = (dumps(manifest(inputs.specs, inputs.facts, shipped)) + "\n").encode()
    summary = Summary(
        sections=len(inputs.sections),
        figures=figure_bytes,
        pending=sorted(fid for fid, s in inputs.specs.items() if s.model.pending),
        total_bytes=sum(len(b) for b in files.values()),
        first_view=[files[f] for f in ["index.html", *css, *scripts]],
        files={k: len(v) for k, v in files.items()},
        warnings=[str(w) for w in sorted(diags.warnings)],
        words={sid: words(html) for sid, html in bodies.items()},
    )
    return files, summary


def _inline(inputs: Inputs, text: str, spec: Spec, loc: tuple, diags: Diagnostics) -> InlineDoc:
    """A caption or figure text parsed as inline Markdown; problems are reported at the spec's
    `loc` (a builder's texts at its params)."""
    env = {"docId": spec.id}
    tokens = inputs.md.parseInline(text, env)
    offset = spec.where(*loc)[0] - 1
    return InlineDoc(tokens, env, scan(tokens, spec.path, inputs.facts, inputs.symbols, diags, line_offset=offset))


def _formulas(scans) -> list[tuple[MathItem, Path, int, int]]:
    """Every formula the scans found, where it was written, and the symbol chips under display
    equations (each tagged sub-expression on its own)."""
    items = [(m, sc.path, line, col) for sc in scans for m, line, col in sc.math]
    chips = [
        (MathItem(sub, False), p, line, col) for m, p, line, col in items if m.display for _, sub in sym_parts(m.tex)
    ]
    return items + chips


def _check_placements(scans, specs, figure_ids: set[str], every_section_loaded: bool, diags: Diagnostics) -> None:
    placed: dict[str, tuple] = {}
    for sc in scans:
        for fid, line in sc.figures:
            if fid not in figure_ids:
                diags.add(
                    sc.path,
                    line,
                    sc.col(line, fid),
                    f"unknown figure {fid!r}: no folder figures/{fid}-…/{did_you_mean(fid, figure_ids)}",
                )
            elif fid in placed:
                diags.add(
                    sc.path,
                    line,
                    1,
                    f"figure {fid!r} is placed twice (also {diags.rel(placed[fid][0])}:{placed[fid][1]})",
                )
            else:
                placed[fid] = (sc.path, line)
    for fid, spec in sorted(specs.items()):
        if fid not in placed and every_section_loaded:
            diags.add(spec.path, 1, 1, f"figure {fid!r} is never placed: add '::: figure {fid}' to a section")
