"""Every sentence that §11's passage, FIG 11b's caption and its text alternative say about the figure,
checked against the data the builder ships (from the spec's params): the same start, the collapse
without balancing, the Switch loss's weight against its share of the router's update, the bias's
evenness at no share, and the capacity line's meaning."""

from __future__ import annotations

from itertools import pairwise

import numpy as np
import pytest

from tests.site import article

FIG = "fig-11b"
WORDS = {"two": 2, "three": 3, "four": 4, "twelve": 12, "sixteen": 16}


@pytest.fixture(scope="module")
def data():
    d = article.figure_data(FIG)
    runs = [(r["regime"], r["alpha"]) for r in d["runs"]]
    d["run"] = lambda regime, alpha=0.0: runs.index((regime, float(alpha)))
    d["R"] = np.array(d["ratio"])  # [run, step] busiest ÷ mean, every step
    d["L"] = np.array(d["load"])  # [run, grid step, expert]
    d["D"] = np.array(d["dropped"])  # [capacity factor, run, grid step]
    return d


@pytest.fixture(scope="module")
def texts():
    prose = article.prose("11-moe.md")
    passage = prose[prose.index("One step on one batch cannot show") :]
    spec = article.spec(FIG)
    return {"prose": passage, "caption": article.flat(spec.caption), "alt": article.flat(spec.alt)}


def says(texts, where, phrase):
    assert phrase in texts[where], f"{where} no longer says {phrase!r}"


def test_the_setup_the_texts_state(data, texts):
    says(texts, "prose", "the same small router is trained three times on the same batches")
    says(texts, "prose", "It is a toy, not a language model")
    says(texts, "alt", "A line chart over 120 router steps")
    says(texts, "alt", "each of the 16 experts")
    assert (data["experts"], data["top_k"], data["tokens"], data["n_steps"]) == (16, 2, 256, 120)
    for a in ("0.3", "3"):  # the weights the prose names are ones the reader can pick
        assert float(a) in data["alphas"] and f"$\\alpha = {a}$" in texts["prose"]
    assert 1.25 in data["capacity_factors"]
    # one router, one set of batches: every run routes step 0 identically
    assert (data["L"][:, 0] == data["L"][0, 0]).all() and np.ptp(data["R"][:, 0]) == 0


def test_the_scale_and_the_common_start(data, texts):
    says(texts, "alt", "on a scale from 1 (every expert equally busy) to 8 (two experts take every token)")
    assert data["ratio_max"] == 8 == data["experts"] / data["top_k"] and data["top_k"] == WORDS["two"]
    says(texts, "alt", "All three start at the same point, about 2.4")
    assert f"{data['R'][0, 0]:.1f}" == "2.4"


def test_without_balancing_the_load_collapses_onto_the_early_favourites(data, texts):
    says(
        texts,
        "prose",
        "by the last step the four experts that were busiest at the start take every routing slot "
        "and the other twelve take none",
    )
    says(
        texts,
        "alt",
        "without balancing the four experts that were busiest at the start hold every token and the "
        "other twelve are empty",
    )
    says(
        texts,
        "caption",
        "Left alone, it keeps rewarding the experts it already picks most, and the load collapses onto them",
    )
    none = data["L"][data["run"]("none")]
    busy = set(np.flatnonzero(none[-1]))
    first = set(np.argsort(-none[0], kind="stable")[: len(busy)])
    assert len(busy) == WORDS["four"] and data["experts"] - len(busy) == WORDS["twelve"]
    assert busy == first  # the busiest four at step 0 are the only ones left busy
    assert none[-1].sum() == data["top_k"] * data["tokens"]  # every slot
    says(
        texts,
        "alt",
        "Without balancing the line climbs, and from step 40 on the busiest expert carries more than "
        "four times the mean",
    )
    r = data["R"][data["run"]("none")]
    assert r[-1] > r[0] and (r[40:] > 4).all()


def test_without_balancing_two_thirds_of_the_slots_would_be_dropped(data, texts):
    says(texts, "prose", "at a capacity factor of 1.25 more than two thirds of the slots would be dropped")
    c = data["capacity_factors"].index(1.25)
    assert data["D"][c, data["run"]("none"), -1] > 2 / 3


def test_the_switch_loss_evens_the_load_as_far_as_its_weight_allows(data, texts):
    says(
        texts,
        "caption",
        "Switch Transformer's auxiliary loss evens the load only as far as its weight $\\alpha$ allows",
    )
    says(texts, "alt", "With the Switch loss the line settles lower the larger α is")
    says(texts, "prose", "The Switch loss evens the load only as far as its weight allows")
    alphas = sorted(data["alphas"])
    settled = [data["R"][data["run"]("switch", a), 60:].mean() for a in alphas]
    assert all(a > b for a, b in pairwise(settled))
    says(texts, "prose", "At $\\alpha = 0.3$ the load ends more uneven than it started")
    says(texts, "alt", "at α = 0.3 it ends above where it started")
    weak = data["R"][data["run"]("switch", 0.3)]
    assert weak[-1] > weak[0]
    says(texts, "prose", "at $\\alpha = 3$ it ends close to even")
    assert data["R"][data["run"]("switch", 3.0), -1] < 1.5


def test_the_harder_the_loss_pulls_the_more_of_the_router_update_it_takes(data, texts):
    says(texts, "caption", "the harder it pulls, the more of the router's updates its gradient takes on average")
    share = {a: np.array(data["aux_share"][data["run"]("switch", a)]) for a in data["alphas"]}
    means = [share[a].mean() for a in sorted(share)]
    assert all(a < b for a, b in pairwise(means))
    assert all((s > 0).all() for s in share.values())  # every update has a part from the loss
    says(texts, "prose", "but by then the loss supplies nearly half of the router's update on average")
    says(texts, "alt", "its share of the router's update, nearly half on average at α = 3")
    assert 0.4 <= share[3.0].mean() < 0.5
    says(texts, "prose", "and on average that part points against the task's part (their cosine is negative)")
    for a in data["alphas"]:
        assert np.mean(data["cosine"][data["run"]("switch", a)]) < 0, a


def test_the_bias_evens_the_load_with_no_share_of_the_router_update(data, texts):
    says(texts, "prose", "The bias ends about as even as $\\alpha = 3$, the busiest expert within 1.4 times the mean")
    bias, strong = data["R"][data["run"]("bias")], data["R"][data["run"]("switch", 3.0)]
    assert bias[-1] <= 1.4 and abs(bias[-1] - strong[-1]) <= 0.1 and abs(bias[60:].mean() - strong[60:].mean()) <= 0.1
    says(texts, "prose", "while all of the router's update comes from the task")
    says(texts, "alt", "for the bias, that its share is zero")
    says(texts, "caption", "DeepSeek-V3's bias evens the load by changing only which experts are chosen")
    assert not np.any(data["aux_share"][data["run"]("bias")]) and not np.any(data["aux_share"][data["run"]("none")])
    assert bias[60:].mean() < bias[0] / 1.5
    says(
        texts,
        "alt",
        "With the bias it falls to about 1.5 within ten steps; from step 40 on it stays under 1.75 and "
        "averages about 1.4",
    )
    assert bias[:11].min() <= 1.5 and (bias[40:] < 1.75).all() and f"{bias[40:].mean():.1f}" == "1.4"
    says(texts, "alt", "every bar of the bias run is within a factor of two of the mean")
    last = data["L"][data["run"]("bias"), -1]
    assert (last >= data["mean_load"] / 2).all() and (last <= 2 * data["mean_load"]).all()


def test_above_the_capacity_line_the_busiest_expert_drops_slots(data, texts):
    says(texts, "alt", "wherever a line runs above it, the busiest expert has more tokens than it has room for")
    grid = data["steps"]
    for c, cf in enumerate(data["capacity_factors"]):
        assert data["capacity"][c] == int(cf * data["mean_load"])  # whole slots, so ratio > cf ⇔ a slot over
        over = data["R"][:, grid] > cf
        np.testing.assert_array_equal(over, data["D"][c] > 0)
        np.testing.assert_array_equal(over, data["L"].max(axis=-1) > data["capacity"][c])
