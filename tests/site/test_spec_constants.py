"""What a figure's provenance list says it was built with comes from its params: every number in an
illustrative constant's name is a {placeholder}, so changing a size or a seed cannot leave the
list behind. The few numbers that are not params are named here with the reason."""

from __future__ import annotations

import re

import pytest
import yaml

from k3explainer.site.placeholders import PLACEHOLDER

from .project import ROOT

SPECS = sorted((ROOT / "figures").glob("*/figure.yaml"))
NOT_PARAMS = {
    "fig-06b": {"1", "4d;"},  # the builder's grid of n runs from 1 to 4d for every width
    "fig-07": {"06"},  # "FIG 06": another figure's label
    "fig-09": {"3:1"},  # a preset's name, the ratio its own fact gives
}


@pytest.mark.parametrize("path", SPECS, ids=[p.parent.name for p in SPECS])
def test_numbers_in_a_constants_name_come_from_the_params(path):
    spec = yaml.safe_load(path.read_text(encoding="utf-8"))
    typed = set()
    for c in spec.get("constants", []):
        if "fact" not in c:  # a fact's constant names the fact; its numbers are the fact's
            typed |= set(re.findall(r"\S*\d\S*", PLACEHOLDER.sub("", c["name"])))
    assert typed == NOT_PARAMS.get("-".join(path.parent.name.split("-")[:2]), set())


def test_the_placeholders_fill_every_constant():
    """After the check phase, no constant shows a placeholder's braces: each one named a param."""
    from k3explainer.site.params import checked_specs

    specs = checked_specs(ROOT)
    shown = [c.name + (c.note or "") for s in specs.values() for c in s.model.constants]
    assert shown and not [t for t in shown if PLACEHOLDER.search(t)]
