"""The real article as the claim tests read it: its facts, a figure's spec and the data its builder
ships, and a section's prose with whitespace flattened (so a quoted sentence matches however the
Markdown wraps it). Loaded once per test process."""

from __future__ import annotations

import copy
import functools
import re

from k3explainer.site import projectcode
from k3explainer.site.errors import Diagnostics
from k3explainer.site.facts import project_facts
from k3explainer.site.figdata import to_jsonable
from k3explainer.site.headline import filled
from k3explainer.site.params import checked_specs

from .project import ROOT


@functools.cache
def facts():
    return project_facts(ROOT, Diagnostics(ROOT))


@functools.cache
def _specs():
    """As the build's check phase leaves them: params checked, constants filled in."""
    return checked_specs(ROOT)


def spec(fig_id: str):
    """The figure's validated spec (its params as written, constants, caption, alt)."""
    return _specs()[fig_id].model


def figure_data(fig_id: str) -> dict:
    """What the build ships for the figure (numpy arrays as plain lists), from its checked params and
    the facts, by the builder the spec names. A fresh copy each call: tests may modify it."""
    checked = _specs()[fig_id]
    builder = projectcode.builder(ROOT, checked.builder_name)
    return to_jsonable(builder.build(copy.deepcopy(checked.params), facts()))


def headline(fig_id: str) -> tuple[str, str]:
    """The figure's question (title) and takeaway as the page shows them, filled from its data."""
    return filled(_specs()[fig_id], figure_data(fig_id))


def flat(text: str) -> str:
    return re.sub(r"\s+", " ", text).strip()


def prose(section_file: str) -> str:
    """content/<section_file> with its whitespace flattened."""
    return flat((ROOT / "content" / section_file).read_text(encoding="utf-8"))


def passage(section_file: str, heading: str) -> str:
    """The part of a section from `heading` (a "## ..." line) to the next heading, flattened."""
    text = prose(section_file)
    start = text.index(heading)
    return text[start : text.index("## ", start + 3)]
