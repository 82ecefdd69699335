"""Figure specs: content/figures/<id>.yaml → FigureSpec, validated, every error with its line."""

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

FIGURE_ID = r"^fig-\d\d[a-z]?$"
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

    id: str = Field(pattern=FIGURE_ID)
    label: str = Field(pattern=r"^FIG \d\d[a-z]?$")
    title: str = Field(min_length=3)
    caption: str = Field(min_length=10)
    how_to: str = Field(min_length=5)
    alt: str = Field(min_length=20)
    component: str = Field(pattern=r"^fig-\d\d[a-z]?-[a-z0-9-]+$")
    builder: str = Field(pattern=r"^fig_\d\d[a-z]?_[a-z0-9_]+$")
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

    model: FigureSpec
    path: Path
    marked: Marked
    params: dict | None = None  # checked against the builder's Params (params.check_params)

    @property
    def id(self) -> str:
        return self.model.id

    def where(self, *loc) -> tuple[int, int]:
        return self.marked.where(loc)


def load_specs(folder: Path, diags: Diagnostics) -> dict[str, Spec]:
    specs: dict[str, Spec] = {}
    for path in sorted(folder.glob("*.yaml")):
        text = read_source(path, diags)
        spec = None if text is None else _load_spec(path, text, diags)
        if spec is None:
            continue
        model, marked = spec.model, spec.marked
        if path.stem != model.id:
            diags.add(path, *marked.where(("id",)), f"id {model.id!r} does not match the file name {path.name!r}")
        if model.id in specs:
            diags.add(
                path, *marked.where(("id",)), f"duplicate figure id {model.id!r} (also {specs[model.id].path.name})"
            )
            continue
        specs[model.id] = spec
    return specs


def _load_spec(path: Path, text: str, diags: Diagnostics) -> Spec | None:
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
    return Spec(model, path, marked)


def line_col(text: str, at: int) -> tuple[int, int]:
    """1-based (line, col) of character offset `at`."""
    return text.count("\n", 0, at) + 1, at - (text.rfind("\n", 0, at) + 1) + 1


def check_parts(specs: dict[str, Spec], root: Path, static_dir: Path, facts, diags: Diagnostics) -> None:
    """Each live figure's builder (the project's figures/<builder>.py) and component exist; every
    fact a spec cites exists."""
    known_builders = projectcode.builder_names(root)
    components = static_dir / "js" / "figures"
    known_components = [p.stem for p in components.glob("*.js")]
    for spec in specs.values():
        m = spec.model
        if not m.pending:
            if not projectcode.builder_file(root, m.builder).is_file():
                diags.add(
                    spec.path,
                    *spec.where("builder"),
                    f"unknown builder {m.builder!r}: no file figures/{m.builder}.py"
                    + did_you_mean(m.builder, known_builders),
                )
            file = components / f"{m.component}.js"
            if not file.is_file():
                diags.add(
                    spec.path,
                    *spec.where("component"),
                    f"unknown component {m.component!r}: no file static/js/figures/{m.component}.js"
                    + did_you_mean(m.component, known_components),
                )
            else:
                _check_registers(file, m.component, diags)
        for i, c in enumerate(m.constants):
            if c.fact is not None and facts.lacks(c.fact):
                diags.add(spec.path, *spec.where("constants", i, "fact"), f"unknown fact {c.fact!r}")
            elif c.fact in facts and facts[c.fact].provenance != c.provenance:  # one fact, one badge on the page
                diags.add(
                    spec.path,
                    *spec.where("constants", i, "provenance"),
                    f"provenance {c.provenance!r}, but fact {c.fact!r} is {facts[c.fact].provenance!r}",
                )


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
