"""rcssmin keeps every descendant combinator in front of a pseudo-class: it once dropped the
space in `.f17-shared :is(…)` inside an @container rule, turning "a cell inside the grid" into
"the grid itself" (FIG 17 now writes `*:is(…)`, which it keeps). Every sheet the page ships is
held to the same count before and after minifying."""

import re

import pytest
import rcssmin

from k3explainer.site.project import THEME

from .project import ROOT

SHEETS = sorted([*(ROOT / "figures").glob("*/*.css"), *(THEME / "static" / "css").rglob("*.css")])
BEFORE_PSEUDO = r"[\w\])*] +:[a-z-]+"  # `.a :is(`, `td :focus`: a descendant, then a pseudo-class


@pytest.mark.parametrize("sheet", SHEETS, ids=[p.relative_to(p.parents[1]).as_posix() for p in SHEETS])
def test_minifying_keeps_the_space_before_a_pseudo_class(sheet):
    source = re.sub(r"/\*.*?\*/", "", sheet.read_text(encoding="utf-8"), flags=re.S)
    shipped = rcssmin.cssmin(source)
    assert len(re.findall(BEFORE_PSEUDO, source)) == len(re.findall(BEFORE_PSEUDO, shipped))
