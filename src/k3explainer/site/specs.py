"""Figure specs: figures/<id>-<slug>/figure.yaml → FigureSpec, validated, every error with its line.

A figure is one folder: its spec (figure.yaml), builder (builder.py, with its Params), component
(component.js, after any other .js of the folder: widgets only it uses) and sheet (*.css), its
tests and its golden data. The folder's name gives the figure's id: `fig-06-delta-rule` is
`fig-06`, `box-3` is `box-3`; the builder and component are found by convention, and a spec
may name another figure's folder for either."""

from __future__ import annotations

import re
from dataclasses import dataclass
from itertools import pairwise
from pathlib import Path
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field, StrictBool, StrictInt, StrictStr, field_validator

from . import projectcode
from .errors import Diagnostics, read_source
from .suggest import did_you_mean
from .validate import validate
from .yamlmarks import Marked, YamlProblem, load

# a figure folder's name: the id (a word and a number, with an optional letter: fig-06, fig-05b),
# then an optional slug that says what it shows
FIGURE_ID = r"[a-z]+-\d+[a-z]?"
FOLDER = re.compile(rf"^(?P<id>{FIGURE_ID})(?:-[a-z0-9]+)*$")
# Figure widths (px) where the reserved height may change; each holds up to the next wider one.
# reserve_css() writes one container query per width; `python -m k3explainer.reserve` measures them.
RESERVE_WIDTHS = (1100, 1000, 900, 800, 700, 600, 500, 400, 350, 320, 280)


def reserve_css() -> str:
    """The rules that pick a figure's reserved height by its column width: the widest width's
    height by default, each narrower one below the next wider width (a 390 px phone's 350 px
    column gets the 350 band, a 360 px phone's the 320 band)."""
    rules = [f".fig-stage {{ min-height: var(--h-{RESERVE_WIDTHS[0]}); }}"]
    rules += [
        f"@container (max-width: {upper - 0.02:.2f}px) {{ .fig-stage {{ min-height: var(--h-{width}); }} }}"
        for upper, width in pairwise(RESERVE_WIDTHS)
    ]
    return "\n".join(rules) + "\n"


class Constant(BaseModel):
    """Where a constant shown by a figure comes from."""

    model_config = ConfigDict(extra="forbid")
    name: str
    provenance: Literal["source", "illustrative"]
    fact: str | None = None
    note: str | None = None


class FigureSpec(BaseModel):
    model_config = ConfigDict(extra="forbid")

    label: str | None = Field(default=None, pattern=r"^[A-Z]+ \d+[a-z]?$")  # default: fig-06 → FIG 06
    # The figure leads with its answer: its title is the question it answers, its takeaway the
    # answer in one line, both with `{path}` slots filled from its data (headline.py); then the
    # picture. A one-line hint says how to use it; how_to is the full list of controls.
    title: str = Field(min_length=3)
    takeaway: str = Field(min_length=5)  # at most TAKEAWAY_CHARS once filled (headline.py)
    hint: str = Field(min_length=5, max_length=90)
    caption: str = Field(min_length=10)
    how_to: str = Field(min_length=5)
    alt: str = Field(min_length=20)
    # another figure folder whose builder.py / component.js this figure uses (default: its own)
    builder: str | None = None
    component: str | None = None
    pending: StrictBool = False
    plotly: StrictBool = False
    # px reserved for the figure before it starts, so nothing below it moves when it appears:
    # one number, or one per width in RESERVE_WIDTHS (measured by `python -m k3explainer.reserve`)
    height: int | dict[int, int]
    # other states (URL-hash keys) the reserved height must also hold, so stepping through them
    # never moves the page below; the reserve tool measures them too
    reserve_for: list[dict[str, StrictStr | StrictInt]] = Field(default_factory=list)
    params: dict[str, Any] = Field(default_factory=dict)
    constants: list[Constant] = Field(default_factory=list)

    @field_validator("height", mode="before")
    @classmethod
    def _every_width(cls, h):
        """One clear message instead of pydantic's per-branch union errors."""
        is_px = lambda v: type(v) is int and 120 <= v <= 4000  # bool is not a height
        if type(h) is int:
            if not is_px(h):
                raise ValueError(f"{h} px is outside 120–4000")
            return h
        if not isinstance(h, dict):
            raise ValueError("give a number of px, or one per figure width " + ", ".join(map(str, RESERVE_WIDTHS)))
        missing = [w for w in RESERVE_WIDTHS if w not in h]
        extra = [k for k in h if k not in RESERVE_WIDTHS]
        bad = [f"{k}: {v!r}" for k, v in h.items() if k in RESERVE_WIDTHS and not is_px(v)]
        if missing or extra or bad:
            raise ValueError(
                "one height (px, 120–4000) per figure width "
                + ", ".join(map(str, RESERVE_WIDTHS))
                + (f"; missing {', '.join(map(str, missing))}" if missing else "")
                + (f"; unknown width {', '.join(map(str, extra))}" if extra else "")
                + (f"; not a height: {', '.join(bad)}" if bad else "")
            )
        return h

    @property
    def reserve(self) -> list[tuple[int, int]]:
        """(figure width, px reserved from that width up), widest first."""
        h = self.height
        return [(w, h[w] if isinstance(h, dict) else h) for w in RESERVE_WIDTHS]


@dataclass
class Spec:
    """A validated spec and where it came from."""

    id: str
    model: FigureSpec
    path: Path  # figures/<folder>/figure.yaml
    marked: Marked
    params: dict | None = None  # checked against the builder's Params (params.check_params)

    @property
    def folder(self) -> str:
        return self.path.parent.name

    @property
    def label(self) -> str:
        return self.model.label or self.id.upper().replace("-", " ")

    @property
    def builder_name(self) -> str:
        """The figure folder whose builder.py makes this figure's data."""
        return self.model.builder or self.folder

    @property
    def component_name(self) -> str:
        """The figure folder whose component.js draws it (the name it registers)."""
        return self.model.component or self.folder

    def where(self, *loc) -> tuple[int, int]:
        return self.marked.where(loc)


def figure_folders(figures: Path) -> list[Path]:
    """The project's figure folders: every folder of figures/ that holds a figure.yaml."""
    return sorted(p.parent for p in figures.glob("*/figure.yaml"))


def figure_id(folder: Path) -> str | None:
    m = FOLDER.match(folder.name)
    return m.group("id") if m else None


def load_specs(figures: Path, diags: Diagnostics) -> dict[str, Spec]:
    """Every figures/<folder>/figure.yaml, by the id its folder's name gives."""
    specs: dict[str, Spec] = {}
    for folder in figure_folders(figures):
        path = folder / "figure.yaml"
        fid = figure_id(folder)
        if fid is None:
            diags.add(
                path, 1, 1, f"figure folder {folder.name!r}: name it <id>-<what it shows>, e.g. fig-06-delta-rule"
            )
            continue
        if fid in specs:
            diags.add(path, 1, 1, f"duplicate figure id {fid!r} (also {specs[fid].folder}/)")
            continue
        text = read_source(path, diags)
        spec = None if text is None else _load_spec(fid, path, text, diags)
        if spec is not None:
            specs[fid] = spec
    return specs


def _load_spec(fid: str, path: Path, text: str, diags: Diagnostics) -> Spec | None:
    if not text.strip():
        diags.add(path, 1, 1, "empty figure spec")
        return None
    try:
        marked = load(text)
    except YamlProblem as e:
        diags.add(path, e.line, e.col, e.message)
        return None
    if not isinstance(marked.data, dict):
        diags.add(path, 1, 1, "a figure spec must be a mapping of fields")
        return None
    model = validate(FigureSpec, marked, path, diags)
    if model is None:
        return None
    return Spec(fid, model, path, marked)


def line_col(text: str, at: int) -> tuple[int, int]:
    """1-based (line, col) of character offset `at`."""
    return text.count("\n", 0, at) + 1, at - (text.rfind("\n", 0, at) + 1) + 1


def check_parts(specs: dict[str, Spec], root: Path, facts, diags: Diagnostics) -> None:
    """Each live figure's builder and component exist (its own folder's, or the folder its spec
    names); every fact a spec cites exists."""
    folders = [p.name for p in figure_folders(root / "figures")]
    for spec in specs.values():
        m = spec.model
        if not m.pending:
            _require(spec, "builder", projectcode.builder_file(root, spec.builder_name), folders, diags)
            component = root / "figures" / spec.component_name / "component.js"
            if _require(spec, "component", component, folders, diags):
                _check_registers(component, spec.component_name, diags)
        for i, c in enumerate(m.constants):
            if c.fact is not None and facts.lacks(c.fact):
                diags.add(
                    spec.path,
                    *spec.where("constants", i, "fact"),
                    f"unknown fact {c.fact!r}{did_you_mean(c.fact, facts.by_key)}",
                )
            elif c.fact in facts and facts[c.fact].provenance != c.provenance:  # one fact, one badge on the page
                diags.add(
                    spec.path,
                    *spec.where("constants", i, "provenance"),
                    f"provenance {c.provenance!r}, but fact {c.fact!r} is {facts[c.fact].provenance!r}",
                )


def _require(spec: Spec, part: str, file: Path, folders: list[str], diags: Diagnostics) -> bool:
    """The builder.py or component.js a live figure needs exists; if not, say which file is
    missing, at the spec's `builder:`/`component:` line when it names another folder."""
    if file.is_file():
        return True
    named = getattr(spec.model, part)
    where = spec.where(part) if named else (1, 1)
    hint = did_you_mean(named, folders) if named else ""
    diags.add(
        spec.path,
        *where,
        f"unknown {part} {named or spec.folder!r}: no file figures/{file.parent.name}/{file.name}{hint}",
    )
    return False


def component_files(folder: Path) -> list[Path]:
    """What a figure's component ships as, in order: the folder's other scripts (widgets only it
    uses), then component.js. Empty when it has no component.js."""
    main = folder / "component.js"
    if not main.is_file():
        return []
    return sorted(p for p in folder.glob("*.js") if p != main) + [main]


REGISTER = re.compile(r"""K3\.register\(\s*["']([^"']+)["']""")


def _check_registers(file: Path, component: str, diags: Diagnostics) -> None:
    """The component file registers the name its spec gives, or the figure would only fail in the
    reader's browser ("did not register")."""
    text = file.read_text(encoding="utf-8")
    names = [(m.group(1), m.start(1)) for m in REGISTER.finditer(text)]
    if component in (n for n, _ in names):
        return
    if names:
        name, at = names[0]
        diags.add(file, *line_col(text, at), f"registers {name!r}, but its spec names the component {component!r}")
    else:
        diags.add(file, 1, 1, f"never calls K3.register({component!r}, …)")
