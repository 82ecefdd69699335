"""Sentences of the prose and the text alternatives that say what a figure shows, checked against
the figure's own data (built by its builder from its spec, as the page gets it)."""

from __future__ import annotations

import numpy as np
import pytest

from . import article
from .project import ROOT


@pytest.fixture(scope="module")
def figure():
    return article.figure_data


def _rel(a, b) -> float:
    return float(np.linalg.norm(np.asarray(a) - np.asarray(b)) / np.linalg.norm(b))


def test_s06_the_repeated_key_reads_roughly_the_old_value_blurred_by_interference(figure):
    """§06 and FIG 06's alt: token 5 repeats token 2's key; its read is roughly, not exactly, the old
    value; β < 1 and tokens 3 and 4 (keys overlapping token 2's) blurred it; the write moves what the
    key reads most of the way to the new value."""
    d = figure("fig-06")
    assert (d["repeat"]["token"], d["repeat"]["key_of"]) == (5, 2)
    k, v = np.asarray(d["k"]), np.asarray(d["v"])
    step = d["steps"][4]
    read, old, new = np.asarray(step["read"]), v[1], v[4]
    cosine = read @ old / np.linalg.norm(read) / np.linalg.norm(old)
    assert cosine > 0.85 and 0.2 < _rel(read, old) < 0.6  # roughly, but only roughly
    assert d["beta"] < 1
    assert min(abs(k[1] @ k[2]), abs(k[1] @ k[3])) > 0.2  # tokens 3 and 4 are not orthogonal to token 2
    read_right_after = np.asarray(d["steps"][1]["state"]).T @ k[1]
    assert _rel(read_right_after, old) < _rel(read, old) / 2  # the blur grew with the later writes
    after = np.asarray(step["state"]).T @ k[4]
    assert _rel(after, new) < 0.25 * _rel(read, new)  # most of the way to the new value


def test_s05_the_normaliser_regroups_too(figure):
    """§05: both orders divide each row by the same number; the normalised outputs agree as well."""
    d = figure("fig-05")
    assert d["max_diff_normalised"] < 1e-12 and d["max_diff"] < 1e-12


def test_s17_two_memories_answer_the_same_queries_differently(figure):
    """§17: attention outputs are weighted averages inside the visible values' range, and the outputs
    differ at every position; FIG 17's takeaway: at the first token attention returns v₁ and the delta
    rule β(q₁·k₁)v₁ (a multiple of v₁)."""
    text = article.flat(article.prose("17-playground.md"))
    assert "attention's outputs are weighted averages of the visible values" in text
    assert "so the outputs differ at every position" in text
    assert article.spec("fig-17").takeaway.startswith("For {token_names.0}, attention returns v₁, the delta rule")
    assert "with no more tokens than key dimensions the state is not yet crowded" in text
    d = figure("fig-17")
    v, q, k = (np.asarray(d[x]) for x in ("v", "q", "k"))
    att = np.asarray(d["attention"]["output"])
    delta = np.asarray([s["output"] for s in d["delta"]])
    for t in range(len(v)):
        assert np.all(att[t] >= v[: t + 1].min(0) - 1e-12) and np.all(att[t] <= v[: t + 1].max(0) + 1e-12)
    np.testing.assert_allclose(att[0], v[0], atol=1e-12)
    np.testing.assert_allclose(delta[0], d["beta"] * (q[0] @ k[0]) * v[0], atol=1e-12)
    assert np.all(np.abs(att - delta).max(axis=1) > 0.1)
    assert len(v) <= d["d_k"]  # "no more tokens than key dimensions"


def test_fig15_alt_mla_runs_just_above_softmax_and_merges(figure):
    """FIG 15's alt: softmax and FlashAttention share the compute line; MLA is above it at short
    lengths (it also rebuilds keys and values) and merges with it as N grows; quadratic curves grow
    close to four times per doubling, linear ones twice, flat ones once."""
    d = figure("fig-15")
    compute = {k: np.asarray(v) for k, v in d["metrics"]["compute"]["values"].items()}
    np.testing.assert_allclose(compute["flash"], compute["softmax"], rtol=0)
    ratio = compute["mla"] / compute["softmax"]
    assert ratio[0] > 1.2 and ratio[-1] < 1.01 and np.all(np.diff(ratio) < 0)
    n = np.asarray(d["n"], dtype=float)
    half = int(np.flatnonzero(np.isclose(n, n[-1] / 2))[0])  # the grid holds N/2 as well
    per_doubling = {k: v[-1] / v[half] for k, v in compute.items()}
    assert 3.9 < per_doubling["softmax"] <= 4.0 + 1e-9 and 3.9 < per_doubling["mla"] <= 4.0 + 1e-9
    assert abs(per_doubling["linear"] - 2) < 0.01 and abs(per_doubling["kda"] - 2) < 0.01
    memory = {k: np.asarray(v) for k, v in d["metrics"]["memory"]["values"].items()}
    assert np.all(memory["linear"] == memory["linear"][0]) and np.all(memory["kda"] == memory["kda"][0])


def test_fig15_alt_quadratic_lowest_at_first_and_the_hybrid_between_after_a_few_hundred(figure):
    """FIG 15's alt: at the shortest lengths the quadratic curves lie lowest; they cross above the
    linear ones within the first few hundred tokens, and from there on the hybrid sits between."""
    assert (
        "At the shortest lengths, where the per-token state work dominates, the quadratic curves lie lowest; they "
        "cross above the linear ones within the first few hundred tokens, and from there on the 3:1 hybrid sits "
        "between the two families"
    ) in article.flat(article.spec("fig-15").alt)
    d = figure("fig-15")
    c = {k: np.asarray(v) for k, v in d["metrics"]["compute"]["values"].items()}
    n = np.asarray(d["n"], dtype=float)
    quadratic = (
        np.minimum.reduce([c["softmax"], c["flash"], c["mla"]]),
        np.maximum.reduce([c["softmax"], c["flash"], c["mla"]]),
    )
    linear = np.minimum(c["linear"], c["kda"]), np.maximum(c["linear"], c["kda"])
    assert quadratic[1][0] < linear[0][0]  # every quadratic curve below every linear one at the start
    crossed = [bool(np.all(quadratic[0][i:] > linear[1][i:])) for i in range(len(n))]
    between = [
        bool(np.all((c["hybrid"][i:] > linear[1][i:]) & (c["hybrid"][i:] < quadratic[0][i:]))) for i in range(len(n))
    ]
    assert 200 <= n[crossed.index(True)] < 1000 and n[between.index(True)] < 1000  # "the first few hundred tokens"


def test_fig15_softmax_memory_runs_by_flash_then_bends_to_slope_two(figure):
    """§15 and FIG 15's alt: one score matrix is stored at a time, so naive softmax attention's memory
    runs just above FlashAttention's, holds twice as much where that matrix equals all the layers'
    caches (N = 2·L·d_h: N² = L·2·N·d_h), and past it climbs with slope two."""
    assert (
        "naive softmax attention, which also stores the N by N score matrix of the layer it is computing, runs "
        "just above FlashAttention at short lengths, holds twice as much once that one matrix is as large as all "
        "the layers' caches together, and from there on bends up to slope two"
    ) in article.flat(article.spec("fig-15").alt)
    assert (
        "**Softmax attention's memory bends upward.** The layers run one after another, so only one score matrix"
        in article.prose("15-complexity.md")
    )
    d, p = figure("fig-15"), article.spec("fig-15").params
    m = {k: np.asarray(v) for k, v in d["metrics"]["memory"]["values"].items()}
    n = np.asarray(d["n"], dtype=float)
    ratio = m["softmax"] / m["flash"]
    assert ratio[0] < 1.02 and np.all(np.diff(ratio) > 0)  # just above at the start, then further and further
    bend = int(np.flatnonzero(n == 2 * p["n_layers"] * p["d_h"])[0])
    assert ratio[bend] == 2.0  # the one matrix = every layer's cache
    half = int(np.flatnonzero(np.isclose(n, n[-1] / 2))[0])
    assert 3.9 < m["softmax"][-1] / m["softmax"][half] < 4.0  # slope two at the long end
    assert m["flash"][-1] / m["flash"][half] == 2.0


def test_s15_mla_memory_parallel_and_lower_hybrid_flat_then_linear(figure):
    """§15: MLA's memory line is parallel to FlashAttention's, only lower; the hybrid's is flat while
    the KDA states dominate and linear once the MLA caches take over."""
    text = article.flat(article.prose("15-complexity.md"))
    assert "**MLA's memory line is parallel to FlashAttention's, only lower**" in text
    assert "**The hybrid's memory line bends too**: flat while the fixed KDA states dominate, linear once" in text
    d = figure("fig-15")
    m = {k: np.asarray(v, dtype=float) for k, v in d["metrics"]["memory"]["values"].items()}
    n = np.asarray(d["n"], dtype=float)
    ratio = m["mla"] / m["flash"]
    assert np.allclose(ratio, ratio[0]) and ratio[0] < 1  # a constant factor below: parallel on log-log axes
    h = m["hybrid"]
    assert h[1] / h[0] < 1.05  # nearly flat at the shortest lengths
    octave = int(np.flatnonzero(np.isclose(n, n[-1] / 2))[0])
    assert 1.95 < h[-1] / h[octave] <= 2.0  # slope one at the long end


def test_s06_the_demo_claim_box_names_fig_06s_params():
    """§06's ILLUSTRATIVE box spells out FIG 06's demo sizes; they are what its spec builds. (The other
    figures show their demo sizes as constants filled from their params, so no prose repeats them.)"""
    p = article.spec("fig-06").params
    keys = "unit-length" if p["unit_norm_keys"] else "unnormalised"
    sentence = f"FIG 06 uses $d = {p['d']}$, {keys} keys and a fixed $\\beta = {p['beta']}$"
    assert sentence in article.flat(article.prose("06-deltanet.md"))


def test_s03_the_table_s_growth_rates_and_the_screens_readout_are_fig_03s(figure):
    """§03's table: the score cells and the prefill arithmetic grow as N², the decode reads and the cache as
    N, the writes not at all (FIG 03's readouts, doubling N); and "give each cell a modest 18 pixels and the
    readout counts how many screens wide it would be" (its width at that cell size, in screens)."""
    text = article.flat(article.prose("03-attention-cost.md"))
    for term in (
        "{cost-cells}{N^2}",
        "{cost-prefill}{N^2 d}",
        "{cost-reads}{2ND}",
        "{cost-writes}{2D}",
        "{cost-cache}{2ND}",
    ):
        assert "\\sym" + term in text, term
    d = figure("fig-03")
    assert d["growth"] == {"cells": 4.0, "prefill": 4.0, "reads": 2.0, "writes": 1.0, "cache": 2.0}
    N = np.asarray(d["N"])
    i, j = int(np.flatnonzero(N == 1024)[0]), int(np.flatnonzero(N == 2048)[0])
    for key, g in (("cells", 4), ("prefill_flops", 4), ("decode_reads", 2), ("cache_elements", 2)):
        assert d[key][j] == g * d[key][i], key
    c = d["constants"]
    assert d["decode_writes"] == 2 * c["D"]  # one number, 2·D at every N
    assert (
        f"give each cell a modest {c['px_per_cell']} pixels and the readout counts how many screens wide it would be"
    ) in text
    np.testing.assert_array_equal(d["width_px"], N * c["px_per_cell"])  # the true width, not the drawn one
    np.testing.assert_allclose(d["screens"], np.asarray(d["width_px"]) / c["screen_px"])


def test_s08_fig_08_has_four_pathways_three_in_colour(figure):
    """§08: "as four pathways, three of them in colour" (blue, violet, orange), "in grey, the
    projections and norms"; the figure's stepper and chips run over its data's pathways."""
    text = article.flat(article.prose("08-kda.md"))
    assert "passing through a KDA layer as four pathways, three of them in colour. In **blue**, intra-chunk" in text
    assert "In grey, the projections and norms around them" in text
    ids = [p["id"] for p in figure("fig-08")["diagram"]["pathways"]]
    assert sorted(ids) == ["gate", "intra", "io", "state"]
    css = (ROOT / "figures" / "fig-08-kda-pathways" / "component.css").read_text()
    for path, colour in (("intra", "blue"), ("state", "violet"), ("gate", "orange"), ("io", "ink-3")):
        assert f"--path-{path}: var(--{colour})" in css


def test_s05_a_positive_feature_map_leaves_no_two_keys_orthogonal():
    """§05: "with a strictly positive feature map such as this section's, no two mapped keys are
    orthogonal: every pair overlaps" — elu + 1 of any keys, even of keys that were orthogonal."""
    from k3explainer.kernels import elu_plus_one

    assert (
        "with a strictly positive feature map such as this section's, no two mapped keys are orthogonal"
        in article.flat(article.prose("05-linear-attention.md"))
    )
    keys = np.r_[np.eye(4), -np.eye(4), np.random.default_rng(5).standard_normal((64, 4)) * 10]
    phi = elu_plus_one(keys)
    assert np.all(phi > 0) and np.all(phi @ phi.T > 0)
