"""FIG 10: the sentences of §10, the caption and the text alternative that say what the figure shows,
checked against the figure's data as its builder makes it from its spec."""

from __future__ import annotations

from itertools import pairwise

import pytest

from tests.site import article


@pytest.fixture(scope="module")
def data():
    return article.figure_data("fig-10")


@pytest.fixture(scope="module")
def spec():
    return article.spec("fig-10")


@pytest.fixture(scope="module")
def prose():
    return article.prose("10-mla.md")


def bytes_of(data):
    return {r["name"]: r["bytes"] for r in data["cache"]}


def test_bars_start_at_mha_and_mla_ends_below_mha_and_gqa_not_below_mqa(data, prose, spec):
    """§10: "the bars of bytes per token shrink from the size of ordinary multi-head attention's
    cache, still drawn as the empty track behind each bar"; "MLA's bar ends far below multi-head and
    grouped-query attention's, though not below multi-query attention's"; the alt: GQA to a quarter,
    MQA the shortest bar, every bar back at multi-head attention's length with Compress off."""
    b = bytes_of(data)
    assert "shrink from the size of ordinary multi-head attention's cache, still drawn as the empty track" in prose
    assert (
        "MLA's bar ends far below multi-head and grouped-query attention's, though not below multi-query attention's"
        in prose
    )
    assert data["cache"][0]["name"] == "MHA" and max(b.values()) == b["MHA"]  # every bar starts at MHA's length
    assert b["MQA"] < b["MLA"] <= b["GQA"] / 4 and b["MLA"] <= b["MHA"] / 16  # "far below": a quarter or less
    alt = article.flat(spec.alt)
    assert "grouped-query attention to a quarter" in alt and b["GQA"] * 4 == b["MHA"]
    assert "multi-query attention to the shortest bar" in alt and min(b.values()) == b["MQA"]
    assert "longer than multi-query attention's single key and value but far shorter than the rest" in alt
    # the track is the axis's full length, which is multi-head attention's bytes (the ticks' last)
    assert "empty track has multi-head attention's length" in article.flat(spec.alt) and data["ticks"][-1] == b["MHA"]
    assert "grows every bar back to multi-head attention's length" in alt


def test_axis_ticks_are_quarters_of_mha_and_span_every_bar(data):
    t = data["ticks"]
    assert t[0] == 0 and t[-1] == bytes_of(data)["MHA"] and all(b - a == t[1] for a, b in pairwise(t))


def test_the_three_outputs_agree_to_rounding(data, prose):
    """§10: "They agree to rounding"; shown beside the bars for one query."""
    assert "one query's output is computed three ways" in prose and "They agree to rounding" in prose
    d = data["demo"]
    assert max(max(d["max_diff"]["naive"]), max(d["max_diff"]["absorbed"])) < 1e-12
