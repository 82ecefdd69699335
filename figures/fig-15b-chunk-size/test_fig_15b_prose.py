"""§15's sentences about FIG 15b, checked against the figure's data as the builder makes it from
its spec: the multiply-add count alone is cheapest at C = 1; the modelled time is lowest in the
middle; at the defaults the band (within the stated share of the fastest) holds the chunk sizes the
alt names; latency moves the band and its minimum the way the prose says; N does not move them."""

from __future__ import annotations

import re
from itertools import pairwise

import numpy as np
import pytest

from k3explainer.site import projectcode
from tests.site import article
from tests.site.project import ROOT

FIG = "fig-15b"


@pytest.fixture(scope="module")
def spec_and_build():
    facts, params = article.facts(), dict(article.spec(FIG).params)
    build = projectcode.builder(ROOT, "fig-15b-chunk-size").build
    return params, lambda **change: build({**params, **change}, facts)


@pytest.fixture(scope="module")
def paragraph():
    """The claim box that describes FIG 15b's model."""
    text = article.prose("15-complexity.md")
    start = text.index("[](#fig-15b) adds both to the count")
    return text[start : text.index(":::", start)]


def settings(data):
    for view in data["view_order"]:
        for w, d in zip(data["views"][view]["by_d"], data["widths"], strict=True):
            for s, lat in zip(w["by_lat"], data["latencies"], strict=True):
                yield view, d, lat, w, s


def test_the_count_is_cheapest_at_one_and_the_time_is_lowest_in_the_middle(spec_and_build, paragraph):
    _, build = spec_and_build
    assert "In both of its cost models the modelled time, unlike the count, is lowest in the middle" in paragraph
    assert (
        "in the KDA model (eq. 13), whose within-chunk work grows as C², that loss falls to a lowest point and turns up "
        "again at the largest chunks"
    ) in article.flat(article.spec(FIG).alt)
    data = build()
    for view, d, lat, w, s in settings(data):
        assert np.argmin(w["work_total"]) == 0 and np.all(np.diff(w["work_total"]) > 0), (view, d)
        assert np.argmin(w["madds"]) == 0, (view, d)
        total = np.asarray(s["total"])
        assert 0 < np.argmin(total) < len(total) - 1, (view, d, lat)
        assert 1 < s["band"]["lo"] <= s["band"]["best"] <= s["band"]["hi"] < data["n_tokens"]
        steps, tiles = np.asarray(s["steps"]), np.asarray(w["tiles"])
        assert np.all(np.diff(steps) < 0)  # fewer sequential steps as C grows
        if view == "linear":  # "for plain linear attention ... the time lost to thin tiles falls"
            assert np.all(np.diff(tiles) < 0)
        else:  # the alt: in the KDA model it "falls to a lowest point and turns up again at the largest chunks"
            low = int(np.argmin(tiles))
            assert (
                0 < low < len(tiles) - 1 and np.all(np.diff(tiles[: low + 1]) < 0) and np.all(np.diff(tiles[low:]) > 0)
            )


def test_default_band_holds_the_named_chunk_sizes(spec_and_build):
    """The alt names the chunk sizes the band holds at the defaults and its share of the fastest time
    (§15 no longer types them: the takeaway gives the band from the data)."""
    _, build = spec_and_build
    data = build()
    alt = article.flat(article.spec(FIG).alt)
    within = int(re.search(r"within (\d+) % of the lowest", alt).group(1))
    assert within == round(100 * data["within"])
    named = [int(x) for x in re.search(r"at the default settings the band holds C = (\d+) and (\d+)", alt).groups()]
    w = data["views"]["linear"]["by_d"][data["widths"].index(data["d_default"])]
    band = w["by_lat"][data["latencies"].index(data["latency_default"])]["band"]
    assert all(band["lo"] <= c <= band["hi"] for c in named)
    assert all(c in list(data["c"]) for c in named)  # chunk sizes the slider reaches


def test_latency_moves_the_band_and_its_minimum_to_larger_chunks(spec_and_build, paragraph):
    _, build = spec_and_build
    assert (
        "Raise the per-step latency and the band of near-fastest sizes and its fastest point move to larger chunks"
    ) in paragraph
    data = build()
    for view in data["view_order"]:
        for w in data["views"][view]["by_d"]:
            bands = [s["band"] for s in w["by_lat"]]  # latencies ascend
            for a, b in pairwise(bands):
                assert b["best"] > a["best"] and b["lo"] > a["lo"] and b["hi"] > a["hi"]


def test_sequence_length_does_not_move_the_band(spec_and_build, paragraph):
    params, build = spec_and_build
    assert "The sequence length would not move them at all" in paragraph
    a, b = build(), build(n_tokens=2 * params["n_tokens"])
    for (_, _, _, _, s), (_, _, _, _, t) in zip(settings(a), settings(b), strict=True):
        assert t["band"]["best"] == pytest.approx(s["band"]["best"], rel=1e-5)
        assert t["band"]["lo"] == pytest.approx(s["band"]["lo"], rel=1e-5)
        assert t["band"]["hi"] == pytest.approx(s["band"]["hi"], rel=1e-5)


def test_the_constants_note_names_what_moves_the_fastest_chunk_size(spec_and_build):
    """The note under the model: the fastest C moves with d and with C½, with ℓ and P only through
    ℓP, and not with N."""
    params, build = spec_and_build
    data = build()
    assert (
        "The fastest chunk size moves with the head width $d$, with $C_{1/2}$, and with $\\ell$ and $P$ "
        "only through their product $\\ell P$; $N$ does not move it."
    ) in data["constants_md"]

    def bests(d):
        return [s["band"]["best"] for *_, s in settings(d)]

    for view in data["view_order"]:  # d moves it (in KDA's view not monotonically)
        at_default = [
            w["by_lat"][data["latencies"].index(data["latency_default"])]["band"]["best"]
            for w in data["views"][view]["by_d"]
        ]
        assert len(set(at_default)) > 1, (view, at_default)
    assert bests(build(c_half=2 * params["c_half"])) != bests(data)
    same_product = build(
        peak_madds_per_us=2 * params["peak_madds_per_us"],
        step_latencies_us=[x / 2 for x in params["step_latencies_us"]],
        step_latency_default_us=params["step_latency_default_us"] / 2,
    )
    assert bests(same_product) == pytest.approx(bests(data), rel=1e-5)
    assert bests(build(peak_madds_per_us=2 * params["peak_madds_per_us"])) != bests(data)
    assert bests(build(n_tokens=2 * params["n_tokens"])) == pytest.approx(bests(data), rel=1e-5)


def test_the_tile_efficiency_half_length_is_the_warp_level_tile_height():
    """FIG 15b's provenance: "C½ = 16 matches the 16-row tile of warp-level tensor-core instructions (a
    wider 64-row instruction on Hopper …)", both heights from the tile fact listed beside it."""
    spec, fact = article.spec(FIG), article.facts()["hardware.mma_tile_rows"]
    c_half = spec.params["c_half"]
    note = next(c.note for c in spec.constants if c.name.startswith("Tile efficiency"))
    assert f"C½ = {c_half} matches the 16-row tile of warp-level" in article.flat(note)
    assert "a wider 64-row instruction on Hopper" in article.flat(note)
    assert c_half == 16 and "16×8×8 or 16×8×16" in fact.value and "M = 64" in fact.value
    assert any(c.fact == "hardware.mma_tile_rows" for c in spec.constants)
