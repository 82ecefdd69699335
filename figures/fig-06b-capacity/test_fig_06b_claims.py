"""§06's sentences about FIG 06b, and the figure's caption and text alternative, checked against the
data its builder ships: every number the prose quotes is the data's, rounded as printed, and every
qualitative statement (which memory is lower where, which pairs each one loses, what the memory
counts are) holds at every key width the figure offers."""

from __future__ import annotations

from itertools import pairwise

import numpy as np
import pytest

from k3explainer.site import projectcode
from k3project.experiments import Memory, recall_sweep
from tests.site import article
from tests.site.project import ROOT

FIG = "fig-06b"
builder = projectcode.builder(ROOT, "fig-06b-capacity")


@pytest.fixture(scope="module")
def data():
    return article.figure_data(FIG)


@pytest.fixture(scope="module")
def prose():
    """The passage of §06 that introduces FIG 06b, from its heading to the next heading."""
    return article.passage("06-deltanet.md", "## How much does a d×d memory hold?")


@pytest.fixture(scope="module")
def alt():
    return article.flat(article.spec(FIG).alt)


class Width:
    """One key width's data, indexed by memory key and by n."""

    def __init__(self, data, w):
        self.d, self.ns, self.w = w["d"], list(w["ns"]), w
        self.keys = [m["key"] for m in data["memories"]]
        self.states = [m["key"] for m in data["memories"] if m["state"]]

    def at(self, n):
        return self.ns.index(n)

    def mean(self, key, n=None):
        row = np.asarray(self.w["mean"][self.keys.index(key)])
        return row if n is None else row[self.at(n)]

    def age(self, key, n):
        return np.asarray(self.w["age"][self.at(n)][self.keys.index(key)])

    def kept(self, key, n):
        return self.w["kept"][self.keys.index(key)][self.at(n)]


def widths(data):
    return [Width(data, w) for w in data["by_d"]]


def span(values):
    """A range as the prose prints it: "0.84 to 1.00"."""
    return f"{min(values):.2f} to {max(values):.2f}"


def uneven(profile):
    """How far an age profile is from flat: (largest − smallest) / mean."""
    return (profile.max() - profile.min()) / profile.mean()


def test_the_setup_the_prose_and_caption_describe_is_the_figures(data, prose, alt):
    params = article.spec(FIG).params
    states = [m for m in params["memories"] if m["kind"] != "softmax"]
    assert len(states) == 4 and "four write rules that keep a $d\\times d$ state" in prose
    assert "Four write rules keep a $d\\times d$ state" in article.flat(article.spec(FIG).caption)
    assert {m.get("beta", 1.0) for m in states if m["kind"] == "delta"} == {1.0, 0.5}
    assert [m["alpha"] for m in states if m.get("alpha", 1) < 1] == [0.95]
    assert "$\\beta = 1$ and with $\\beta = 0.5$" in prose and "constant $\\alpha = 0.95$" in prose
    # "a delta rule with β = 1 whose state decays by a constant α = 0.95": the gated memory's own β
    assert "a delta rule with $\\beta = 1$ whose state decays by a constant $\\alpha = 0.95$" in prose
    assert [m.get("beta", 1.0) for m in states if m.get("alpha", 1) < 1] == [1.0]
    # "the additive update …, here on the raw keys without a feature map"
    assert "here on the raw keys without a feature map" in prose
    assert "without a feature map" in " ".join(c.name + " " + (c.note or "") for c in article.spec(FIG).constants)
    assert data["n_seeds"] == 8 and "averaged over eight seeded sequences" in prose
    assert "range over eight seeded sequences" in alt
    assert data["widths"] == [4, 8, 16, 32] and "(4, 8, 16 or 32)" in alt and "across the four widths" in prose
    for w in widths(data):
        assert w.ns[0] == 1 and w.ns[-1] == 4 * w.d and {w.d // 2, w.d, 2 * w.d} <= set(w.ns)  # "from 1 to 4d"


def test_additive_error_climbs_to_the_quoted_values(data, prose, alt):
    ws = widths(data)
    at_d, at_4d = [w.mean("additive", w.d) for w in ws], [w.mean("additive", 4 * w.d) for w in ws]
    assert f"{span(at_d)} at $n = d$ across the four widths, and {span(at_4d)} at $n = 4d$" in prose
    for w in ws:
        e = [w.mean("additive", n) for n in (w.d // 2, w.d, 2 * w.d, 4 * w.d)]
        assert all(a < b for a, b in pairwise(e)), w.d  # "climbs with the pairs it holds"
        assert e[-1] > 1  # "further from the values than a read of zero"
    assert all(0.8 <= e <= 1.05 for e in at_d) and all(1.75 <= e <= 2.1 for e in at_4d)  # alt: "about 1", "about 2"
    assert "climbs to about 1 at n = d and about 2 at n = 4d" in alt


def test_the_delta_rule_is_below_the_additive_memory_from_the_second_pair_on(data, prose, alt):
    assert "The delta rule with $\\beta = 1$ has a lower error at every $n$ from the second pair on" in prose
    assert "The delta rule with β = 1 stays below it from the second pair on" in alt
    for w in widths(data):
        assert np.all(w.mean("delta")[1:] < w.mean("additive")[1:]), w.d
        assert w.mean("delta", 1) == w.mean("additive", 1) == 0  # one pair: both exact


def test_no_state_is_exact_with_room_to_spare(data, prose):
    ws = widths(data)
    half = [w.mean("delta", w.d // 2) for w in ws]
    assert f"at $n = d/2$ the delta rule already misses by {span(half)}" in prose
    assert "a $d\\times d$ matrix could hold any $d$ pairs with independent keys without error" in prose
    params = article.spec(FIG).params
    for w in ws:  # the figure's own first d pairs fit a d×d matrix exactly (least squares, full rank)
        keys, values = builder.pairs(params["seed"], w.d, params["n_seeds"], 4 * w.d)
        for k, v in zip(keys[:, : w.d], values[:, : w.d], strict=True):
            S = np.linalg.lstsq(k, v, rcond=None)[0]
            np.testing.assert_allclose(k @ S, v, atol=1e-9)
        # "each write corrects the memory only along its own key and disturbs the pairs stored before
        # it": the last pair written is exact, the error sits in the pairs before it
        age = w.age("delta", w.d // 2)
        assert age[-1] == 0 and age[:-1].max() > 0.2, w.d


def test_every_state_is_above_half_from_n_equals_d_and_still_rising(data, prose, alt):
    assert "From $n = d$ on, every fixed-size state's error is above 0.5 and still rising." in prose
    assert "like every fixed-size state its error is above 0.5 from n = d on and higher still at 4d" in alt
    for w in widths(data):
        for key in w.states:
            e = w.mean(key)[w.at(w.d) :]
            assert e.min() > 0.5, (w.d, key)
            assert w.mean(key, w.d) < w.mean(key, 2 * w.d) < w.mean(key, 4 * w.d), (w.d, key)


def test_what_each_rule_loses_by_age(data, prose, alt):
    assert "The additive memory loses all its pairs about equally." in prose
    assert (
        "The delta rule keeps its newest pairs and loses its oldest, which come back pointing somewhere else, "
        "with errors above 1: they have been overwritten."
    ) in prose
    assert "its weights spread over every cached key" in prose
    assert "A fixed-size state cannot keep everything; what a write rule can choose is which pairs it loses." in prose
    assert (
        "At n = 4d the additive memory's cells are evenly strong, the delta rules' and the gated memory's are "
        "strong for the oldest pairs and pale for the newest, and the softmax cells are even."
    ) in alt
    for w in widths(data):
        for n in (2 * w.d, 4 * w.d):
            add, delta = w.age("additive", n), w.age("delta", n)
            assert uneven(add) < 0.35 and uneven(add) < uneven(delta) / 2, (w.d, n)
            assert delta[-1] < 0.5 and delta[0] > 1, (w.d, n)
        for key in ("delta", "delta-half", "gated"):
            age = w.age(key, 4 * w.d)
            assert age[0] > age[-1] + 0.4, (w.d, key)
        assert uneven(w.age("softmax", 4 * w.d)) < 0.35, w.d


def test_halving_beta_is_a_trade(data, alt):
    """The alt: the β = 0.5 line starts above the β = 1 line and ends below it (each write stores only part
    of its value, but old pairs are overwritten more slowly)."""
    assert (
        "The delta rule with β = 0.5 starts above the β = 1 line and ends below it, crossing between n = d/2 and n = 2d."
        in alt
    )
    for w in widths(data):
        assert w.mean("delta-half", 1) == pytest.approx(0.5)  # one pair: half of its value is written
        early = [n for n in w.ns if n <= w.d // 2]
        late = [n for n in w.ns if n >= 2 * w.d]
        assert all(w.mean("delta-half", n) > w.mean("delta", n) for n in early), w.d
        assert all(w.mean("delta-half", n) < w.mean("delta", n) for n in late), w.d
        for n in (2 * w.d, 4 * w.d):  # old pairs overwritten more slowly
            assert w.age("delta-half", n)[0] < w.age("delta", n)[0], (w.d, n)


def test_the_gated_memory_fades_and_trades(data, alt):
    """The alt: the gated memory runs close to the delta rule with β = 1, a little above it at n = d and below
    it at n = 4d; it recalls its newest pairs as the delta rule does while its decay fades the older ones."""
    assert (
        "The gated memory (α = 0.95) runs close to the delta rule with β = 1: a little above it at n = d, below it at n = 4d."
        in alt
    )
    for w in widths(data):
        assert 0 < w.mean("gated", w.d) - w.mean("delta", w.d) < 0.1, w.d  # a little higher at n = d
        assert w.mean("gated", 4 * w.d) < w.mean("delta", 4 * w.d), w.d
        assert np.abs(w.mean("gated") - w.mean("delta")).max() < 0.2, w.d  # runs close
        for n in w.ns[w.at(w.d) :]:  # newest tenth recalled as the delta rule does; older ones fade
            assert abs(w.age("gated", n)[-1] - w.age("delta", n)[-1]) < 0.1, (w.d, n)
            assert w.age("gated", n)[0] > w.age("gated", n)[-1] + 0.3, (w.d, n)
        assert abs(w.age("gated", 4 * w.d)[0] - 1) < abs(w.age("delta", 4 * w.d)[0] - 1), (
            w.d
        )  # closer to a read of zero


def test_softmax_is_lowest_from_n_equals_d_but_not_exact(data, prose, alt):
    ws = {w.d: w for w in widths(data)}
    assert "Softmax over the cache has the lowest error of all from $n = d$ on, at every width" in prose
    assert "Softmax over a KV cache is the lowest line from n = d on, but it rises with n too" in alt
    for w in ws.values():
        for n in w.ns[w.at(w.d) :]:
            assert w.mean("softmax", n) < min(w.mean(k, n) for k in w.states), (w.d, n)
        assert w.mean("softmax", w.d) < w.mean("softmax", 4 * w.d)  # it grows with n
    assert "but not zero: its weights spread over every cached key, so its error grows with $n$ too" in prose
    assert all(w.mean("softmax", w.d) > 0 for w in ws.values())
    ends = [ws[d].mean("softmax", 4 * d) for d in sorted(ws)]
    assert all(a > b for a, b in pairwise(ends)) and "the smaller d is, the higher it ends" in alt


def test_a_sharper_softmax_recalls_more_exactly(data):
    """The spec's note on the softmax scale: sharper scores recall more exactly, blunter ones less."""
    note = " ".join(c.note or "" for c in article.spec(FIG).constants)
    assert "a sharper softmax recalls more exactly, a blunter one less" in note
    params = article.spec(FIG).params
    for d in data["widths"]:
        keys, values = builder.pairs(params["seed"], d, params["n_seeds"], 4 * d)
        errs = [
            recall_sweep(keys, values, [Memory("softmax", scale=f * np.sqrt(d))], [d, 4 * d]) for f in (0.5, 1.0, 2.0)
        ]
        for g in range(2):
            blunt, shipped, sharp = (e[g].mean() for e in errs)
            assert sharp < shipped < blunt, d
            assert shipped == pytest.approx(
                Width(data, data["by_d"][data["widths"].index(d)]).mean("softmax", [d, 4 * d][g]), abs=5e-4
            )


def test_the_memory_each_keeps(data, prose, alt):
    assert "a bar that stays at d² for the four states and grows as 2·n·d for the cache" in alt
    assert (
        "A state keeps $\\sym{cap-mem}{d^2}$ numbers however many pairs it has seen; the cache keeps "
        "$\\sym{cap-mem}{2nd}$, as many as a state at $n = d/2$ and eight times as many at $n = 4d$."
    ) in prose
    for w in widths(data):
        for key in w.states:
            assert {w.kept(key, n) for n in w.ns} == {w.d**2}
        assert [w.kept("softmax", n) for n in w.ns] == [2 * n * w.d for n in w.ns]
        assert w.kept("softmax", w.d // 2) == w.d**2 and w.kept("softmax", 4 * w.d) == 8 * w.d**2


def test_the_error_scale_the_prose_explains(data, prose):
    """ "An error of 0 is perfect recall, 1 is what a read of zero would score": with unit values a zero
    read scores exactly 1, and one pair written at full strength is read back exactly."""
    assert "An error of 0 is perfect recall, 1 is what a read of zero would score" in prose
    for w in widths(data):
        for key in ("additive", "delta", "gated", "softmax"):
            assert w.mean(key, 1) == 0
