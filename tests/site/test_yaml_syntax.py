"""YAML mistakes are reported in plain words at the character to fix (fixtures/yaml_syntax.txt:
title, the YAML with → for a tab, then `line:col: message`)."""

from pathlib import Path

import pytest
from markdown_it.utils import read_fixture_file

from k3explainer.site.yamlmarks import YamlProblem, load

CASES = read_fixture_file(Path(__file__).parent / "fixtures" / "yaml_syntax.txt")


@pytest.mark.parametrize("line,title,source,expected", CASES, ids=[c[1] for c in CASES])
def test_a_yaml_mistake_is_said_in_plain_words_where_it_is(line, title, source, expected):
    with pytest.raises(YamlProblem) as caught:
        load(source.replace("→", "\t"))
    e = caught.value
    assert f"{e.line}:{e.col}: {e.message}" == expected.rstrip("\n")


def test_front_matter_lines_are_counted_from_the_file():
    with pytest.raises(YamlProblem) as caught:
        load('a: "abc\n', line_offset=3)
    assert (caught.value.line, caught.value.col) == (4, 4)
