"""Shipped scripts lose whole comment lines and nothing else (fixture pairs in fixtures/jsmin/)."""

from __future__ import annotations

from pathlib import Path

import pytest

from k3explainer.site.jsmin import strip_comment_lines

FIXTURES = Path(__file__).parent / "fixtures" / "jsmin"


@pytest.mark.parametrize("case", sorted(p.name.removesuffix(".in.js") for p in FIXTURES.glob("*.in.js")))
def test_fixture(case):
    source = (FIXTURES / f"{case}.in.js").read_text(encoding="utf-8")
    assert strip_comment_lines(source) == (FIXTURES / f"{case}.out.js").read_text(encoding="utf-8")


def test_an_unterminated_comment_is_left_alone():
    source = "/* never closed\nvar a = 1;\n"
    assert strip_comment_lines(source) == source
