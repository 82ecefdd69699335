"""The chunk-size time model (FIG 15b): its terms add up, the multiply-add count alone is cheapest
at C = 1, the total has its minimum in the middle where the closed form says, and the minimum
moves to larger chunks as the per-step latency grows."""

from itertools import pairwise

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

from k3explainer.kernels import chunked_linear_madds, kda_chunked_flops
from k3project.experiments import (
    chunk_time_band,
    chunk_time_best_c,
    chunk_time_terms,
    chunk_work_madds,
    tile_efficiency,
)
from tests.kernels.helpers import FAST

HW = dict(peak=4e6, c_half=16.0)
FINE = 2.0 ** np.arange(0, 13 + 1e-9, 1 / 64)  # 1 … 8192 at 64 points per doubling

latency = st.floats(0.01, 20.0)
width = st.sampled_from([32, 64, 128, 256])
half = st.floats(1.0, 64.0)


def test_efficiency_is_half_at_c_half_and_saturates():
    assert tile_efficiency(16, 16) == 0.5
    assert tile_efficiency(64, 16) == pytest.approx(0.8)  # 80 % at four half-lengths
    eta = tile_efficiency(FINE, 16)
    assert np.all(np.diff(eta) > 0) and eta[-1] < 1 and eta[0] < 0.06


def test_work_is_the_multiply_add_count():
    C = 2 ** np.arange(14)
    np.testing.assert_array_equal(chunk_work_madds(8192, 128, C), chunked_linear_madds(8192, 128, C))
    np.testing.assert_array_equal(chunk_work_madds(8192, 128, C, form="kda"), kda_chunked_flops(8192, 128, C) / 2)
    with pytest.raises(ValueError):
        chunk_work_madds(8192, 128, C, form="mamba")


def test_terms_by_hand_at_one_point():
    """N = 8192, d = 128, C = 64, ℓ = 0.5 µs, P = 4e6 madds/µs, C½ = 16, worked out on paper."""
    t = chunk_time_terms(8192, 128, 64, step_latency=0.5, **HW)
    W = 2 * 8192 * 128**2 + 2 * 8192 * 64 * 128  # 402,653,184 madds
    assert t["steps"] == pytest.approx(128 * 0.5)
    assert t["madds"] == pytest.approx(W / 4e6)
    assert t["tiles"] == pytest.approx(W / 4e6 * (80 / 64 - 1))  # 1/η − 1 = 16/64
    assert t["total"] == pytest.approx(64 + W / 4e6 / 0.8)


@FAST
@given(latency, width, half, st.sampled_from(["linear", "kda"]))
def test_terms_add_up_and_only_the_count_favours_c_equal_one(lat, d, c_half, form):
    t = chunk_time_terms(8192, d, FINE, step_latency=lat, peak=4e6, c_half=c_half, form=form)
    np.testing.assert_allclose(t["steps"] + t["madds"] + t["tiles"], t["total"], rtol=1e-12)
    assert np.argmin(t["madds"]) == 0 and np.all(np.diff(t["madds"]) > 0)  # fewest multiply-adds at C = 1
    assert np.all(np.diff(t["steps"]) < 0)  # fewer sequential steps as C grows
    assert np.all(t["total"] >= t["madds"])  # η ≤ 1: never faster than the count at peak
    i = int(np.argmin(t["total"]))
    assert 0 < i < len(FINE) - 1  # the total's minimum is in the middle


@FAST
@given(latency, width, half)
def test_grid_minimum_matches_the_closed_form(lat, d, c_half):
    """chunk_time_best_c (closed form) against the minimum found on a fine grid."""
    best = chunk_time_best_c(d, step_latency=lat, peak=4e6, c_half=c_half)
    t = chunk_time_terms(8192, d, FINE, step_latency=lat, peak=4e6, c_half=c_half)["total"]
    if 1 <= best <= 8192:
        assert FINE[np.argmin(t)] == pytest.approx(best, rel=2 ** (1 / 64) - 1 + 1e-9)


@FAST
@given(st.lists(latency, min_size=2, max_size=5, unique=True), width, st.sampled_from(["linear", "kda"]))
def test_minimum_and_band_move_to_larger_chunks_as_latency_grows(lats, d, form):
    bands = [
        chunk_time_band(FINE, chunk_time_terms(8192, d, FINE, step_latency=x, form=form, **HW)["total"])
        for x in sorted(lats)
    ]
    for a, b in pairwise(bands):
        assert b["best"] >= a["best"] and b["lo"] >= a["lo"] and b["hi"] >= a["hi"]


@FAST
@given(st.integers(10, 14), latency, width)
def test_the_optimum_does_not_depend_on_sequence_length(log_n, lat, d):
    """Every term is proportional to N, so N moves the times but not where the minimum is."""
    grid = FINE[FINE <= 1024]
    best = [
        grid[np.argmin(chunk_time_terms(2**n, d, grid, step_latency=lat, **HW)["total"])] for n in (log_n, log_n + 1)
    ]
    assert best[0] == best[1]


@FAST
@given(latency, width, st.floats(0.01, 0.5), st.sampled_from(["linear", "kda"]))
def test_band_holds_the_minimum_and_only_near_minimal_times(lat, d, within, form):
    t = chunk_time_terms(8192, d, FINE, step_latency=lat, form=form, **HW)["total"]
    b = chunk_time_band(FINE, t, within)
    inside = (FINE >= b["lo"]) & (FINE <= b["hi"])
    assert b["lo"] <= b["best"] <= b["hi"] and b["min_time"] == t.min()
    assert np.all(t[inside] <= (1 + within) * t.min())  # contiguous: nothing slower inside
    assert np.all(t[~inside] > (1 + within) * t.min())


def test_default_band_holds_the_production_chunk_sizes():
    """At FIG 15b's defaults (d = 128, ℓ = 0.5 µs) the band holds C = 64 and 128; C = 1 is far slower."""
    t = chunk_time_terms(8192, 128, FINE, step_latency=0.5, **HW)["total"]
    b = chunk_time_band(FINE, t)
    assert b["lo"] < 64 and b["hi"] > 128
    assert t[0] > 10 * b["min_time"]
