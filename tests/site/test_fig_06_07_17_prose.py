"""The sentences of §06, §07 and §17 (and the figures' text alternatives) that say what the
redesigned FIG 06, FIG 07 and FIG 17 show, checked against the figures' own data."""

from __future__ import annotations

import numpy as np
import pytest

from k3explainer.site import projectcode

from . import article
from .project import ROOT


@pytest.fixture(scope="module")
def figure():
    return article.figure_data


def test_s06_each_write_cell_is_beta_times_its_row_and_column_chips(figure):
    """§06: the write is k (column chips) times the error (row chips), times β, cell by cell."""
    d = figure("fig-06")
    for s in d["steps"]:
        np.testing.assert_allclose(s["write"], d["beta"] * np.outer(s["k"], s["error"]), atol=1e-12)
    assert len(d["steps"]) == 6  # "pressed again at the end it replays all six from the first"


def test_s06_the_repeat_card_lines_up_stored_read_new_and_read_after(figure):
    """§06: the card shows the value stored at token 2, the read at token 5, the new value and the read
    once the write has landed (the new state read with the same key)."""
    d = figure("fig-06")
    r = d["repeat"]
    t, src = r["token"] - 1, r["key_of"] - 1
    assert (r["token"], r["key_of"]) == (5, 2)
    np.testing.assert_allclose(r["old_value"], d["v"][src])
    np.testing.assert_allclose(r["read"], d["steps"][t]["read"])
    np.testing.assert_allclose(r["new_value"], d["v"][t])
    np.testing.assert_allclose(r["read_after"], np.asarray(d["steps"][t]["state"]).T @ d["k"][t], atol=1e-12)


def test_s06_the_repeated_key_reads_roughly_the_old_value_and_the_write_moves_most_of_the_way(figure):
    """§06 and the card: at token 5 "the memory returns roughly the old value there, but only
    roughly" (it points the way of token 2's value, cosine ≥ 0.9, yet is visibly off, ≥ 20 % of its
    length), and "the write moves what the memory returns for that key most of the way to the new
    value" (the read after the write is within a quarter of the read's distance from it)."""
    r = figure("fig-06")["repeat"]
    old, read, new, after = (np.asarray(r[k]) for k in ("old_value", "read", "new_value", "read_after"))
    assert read @ old / (np.linalg.norm(read) * np.linalg.norm(old)) >= 0.9
    assert np.linalg.norm(read - old) >= 0.2 * np.linalg.norm(old)
    assert np.linalg.norm(after - new) <= 0.25 * np.linalg.norm(read - new)
    words = article.prose("06-deltanet.md")
    assert "returns roughly the old value there, but only roughly" in words
    assert "most of the way to the new value" in words


WORDS = {1: "one", 2: "two", 3: "three", 4: "four", 5: "five", 6: "six", 7: "seven", 8: "eight", 9: "nine", 10: "ten"}
ORDINALS = {1: "first", 2: "second", 3: "third", 4: "fourth", 5: "fifth", 6: "sixth", 7: "seventh", 8: "eighth"}


def test_s06_the_caption_and_alt_say_the_figures_sizes(figure):
    """FIG 06's caption and text alternative give the state's size, the number of tokens and stages
    and which token reuses which key in words: each is the shipped data's (d, the steps, the stage
    picker's four stages, the repeat), so changing a param in the spec cannot leave them stale."""
    d = figure("fig-06")
    spec = article.spec("fig-06")
    caption, alt = article.flat(spec.caption), article.flat(spec.alt)
    n, T, rep = d["d"], len(d["steps"]), d["repeat"]
    stages = projectcode.builder(ROOT, "fig-06-delta-rule").STAGES  # the stages each token is stepped through
    assert np.asarray(d["steps"][0]["state"]).shape == (n, n)  # the grids drawn are d × d
    assert f"A ${n}\\times {n}$ key-major state $S$ receiving {WORDS[T]} tokens under the delta rule" in caption
    assert f"three {n} by {n} grids" in alt
    assert f"Stepping walks {WORDS[T]} tokens, each in {WORDS[len(stages)]} stages" in alt
    assert (
        f"The {ORDINALS[rep['token']]} token reuses the {ORDINALS[rep['key_of']]} token's key with a new value"
    ) in alt
    assert f"blurred by the partial first write and by tokens {rep['key_of'] + 1} and {rep['token'] - 1}" in alt
    assert rep["token"] - rep["key_of"] == 3  # so "tokens 3 and 4" are exactly the writes in between
    assert "writes token 1 into an empty state and reads it with q = k" in alt and d["readback"]["diff"] < 1e-12


def test_s07_token_1s_share_never_rises_above_decay_alone(figure):
    """§07: the plot's gated line is at most αⁿ (each write removes part of what lies along its key);
    α = 1 is DeltaNet, where overwrites alone remove it."""
    d = figure("fig-07")
    for g in d["gated"]:
        a = g["alpha"]
        np.testing.assert_allclose(g["decay_only"], a ** np.arange(d["n_tokens"]), atol=1e-5)
        assert np.all(np.asarray(g["survival"]) <= np.asarray(g["decay_only"]) + 1e-5)
        assert np.all(np.diff(g["survival"]) <= 1e-5)
    plain = d["gated"][-1]
    assert plain["alpha"] == 1.0 and plain["survival"][-1] < 1  # overwrites remove part of it even without decay
    assert d["open_step"] % 2 == 0 and d["open_step"] >= 4  # opens on a decay phase after several writes


def test_s07_the_whole_gated_grid_dims_in_a_decay_phase_while_the_plain_one_holds(figure):
    """§07: "watch the whole *Gated DeltaNet* grid dim in each decay phase while the *DeltaNet* one holds steady": every
    cell of the decayed state is α times the state before it (none is skipped), so, for 0 < α < 1, every
    non-zero cell shrinks; the plain grid has no decay phase to change it."""
    said = "watch the whole *Gated DeltaNet* grid dim in each decay phase while the *DeltaNet* one holds steady"
    assert said in article.prose("07-gated-deltanet.md")
    d = figure("fig-07")
    for g in d["gated"]:
        a = g["alpha"]
        if not 0 < a < 1:
            continue
        prev = [np.zeros((d["d"], d["d"]))] + [np.asarray(s) for s in g["state"][:-1]]
        for t, decayed in enumerate(g["decayed"]):
            decayed = np.asarray(decayed)
            np.testing.assert_allclose(
                decayed, a * prev[t], atol=1e-5
            )  # every cell scaled by α (shipped to 5 decimals)
            if t:  # from token 2 on every cell holds something, and all of it dims
                assert np.all(prev[t] != 0) and np.all(np.abs(decayed) < np.abs(prev[t]))


def test_s17_attention_keeps_a_row_per_token_the_delta_rule_one_state(figure):
    """FIG 17's takeaway and kept panel: attention's kept keys and values grow by a row each token; the
    delta rule keeps d_k × d_v."""
    d = figure("fig-17")
    kept = d["kept"]["attention"]
    assert np.all(np.diff(kept) == d["d_k"] + d["d_v"]) and kept[0] == d["d_k"] + d["d_v"]
    assert d["kept"]["delta"] == d["d_k"] * d["d_v"]
    for s in d["delta"]:
        assert np.asarray(s["state"]).shape == (d["d_k"], d["d_v"])


def test_fig_07_is_built_from_fig_06s_keys_values_beta_and_seed(figure):
    """FIG 07's provenance: "the keys, values, β and seed of FIG 06" — the same inputs, so the
    ungated run of FIG 07 is FIG 06's delta rule."""
    d6, d7 = figure("fig-06"), figure("fig-07")
    assert d7["beta"] == d6["beta"]
    for name in ("q", "k", "v"):
        np.testing.assert_array_equal(d7[name], d6[name])
    spec6, spec7 = article.spec("fig-06"), article.spec("fig-07")
    assert spec7.params["seed"] == spec6.params["seed"]
    assert any(c.name.endswith(f"β = {d6['beta']} and seed {spec6.params['seed']} of FIG 06") for c in spec7.constants)
