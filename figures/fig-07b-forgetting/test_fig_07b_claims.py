"""What §07, §08, FIG 07b's caption and its text alternative say the figure shows, checked against the
data its builder ships: DeltaNet keeps the old topic and the fact; a gate at the switch clears the old
topic but scales the fact by the same α; a gate on every step loses the fact first and holds the
topic in use more weakly; no α keeps the fact and clears the topic; KDA draws Gated DeltaNet's topic
lines and keeps the whole fact. Numbers quoted in the prose are read from the prose and compared."""

from __future__ import annotations

import re

import numpy as np
import pytest

from tests.site import article

FIG = "fig-07b"
TOL = 0.005  # the data are rounded to 3 decimals; the prose quotes whole percent


@pytest.fixture(scope="module")
def data():
    d = article.figure_data(FIG)
    d["ts"] = d["tokens"].index(d["switch_token"])  # index of the first read after the switch
    return d


@pytest.fixture(scope="module")
def section7():
    text = article.prose("07-gated-deltanet.md")
    start = text.index("[](#fig-07b) runs the argument of this section")
    return text[start : text.index(":::", text.index("::: claim illustrative", start) + 5)]


def kind(d, name):
    return d["kinds"].index(name)


def curve(d, mech, name, when=None, alpha=None):
    if mech == "deltanet":
        return np.asarray(d["deltanet"][kind(d, name)])
    return np.asarray(d[mech][when][d["alphas"].index(alpha)][kind(d, name)])


def every_setting(d):
    for when in d["schedules"]:
        for a in d["alphas"]:
            yield when, a


def percent(text, pattern):
    return int(re.search(pattern, text).group(1)) / 100


def test_the_setup_the_prose_describes_is_the_builders(data, section7):
    """The prose names the setup's counts; the demo sizes themselves are the figure's constants, filled from
    its params."""
    p = article.spec(FIG).params
    assert "four key–value pairs" in section7 and p["pairs"] == 4
    assert "over 16 seeded streams" in section7 and p["n_seeds"] == 16 == data["n_seeds"]
    illus = section7[section7.index("::: claim illustrative") :]
    assert "four key channels that no topic key touches" in illus and p["n_slow"] == 4
    assert "no decay on the fact's channels" in section7 and data["alpha_slow"] == 1.0


def test_recall_is_one_when_intact(data):
    """'100% means the association is intact': the fact, written with β = 1, reads back whole."""
    assert curve(data, "deltanet", "fact")[0] == pytest.approx(1, abs=1e-12)


def test_deltanet_never_clears_the_old_topic(data, section7):
    assert "DeltaNet never clears the old topic" in section7
    old, ts = curve(data, "deltanet", "old"), data["ts"]
    assert "falls while the new writes overlap the old keys, then levels off" in section7
    assert old[ts] < old[ts - 1]  # it falls after the switch …
    last16 = [i for i, t in enumerate(data["tokens"]) if t >= data["n_tokens"] - 16]
    assert old[last16[0]] - old[-1] < 0.04  # … and levels off over the last 16 tokens
    assert np.all(curve(data, "deltanet", "fact") == 1.0)  # and it keeps the fact


def test_a_gate_at_the_switch_clears_the_old_topic_and_not_the_new(data, section7):
    assert "A gate that closes at the switch, set to zero, empties the old topic in one step" in section7
    ts = data["ts"]
    assert np.all(np.abs(curve(data, "gated", "old", "switch", 0.0)[ts:]) < 0.05)
    assert "the new topic comes in no worse than without the gate" in section7
    plain = curve(data, "deltanet", "new")
    for a in data["alphas"]:
        for mech in ("gated", "kda"):
            assert np.all(curve(data, mech, "new", "switch", a)[ts:] >= plain[ts:] - TOL), (mech, a)


def test_the_switch_scales_the_fact_by_the_same_alpha_as_the_old_topic(data, section7):
    assert "the decay at the switch scales the fact by the same $\\sym{gd-alpha}{\\alpha}$ as the old topic" in section7
    ts = data["ts"]
    old_before = curve(data, "deltanet", "old")[ts - 1]
    for a in data["alphas"]:
        fact, old = curve(data, "gated", "fact", "switch", a), curve(data, "gated", "old", "switch", a)
        assert np.all(fact[:ts] == 1.0) and np.allclose(fact[ts:], a, atol=TOL)
        # the old topic just after the switch is α times what it was, less the first new write's overlap
        assert old[ts] / old_before == pytest.approx(a, abs=0.06), a


def test_a_gate_on_every_step_loses_the_fact_first_and_weakens_the_topic_in_use(data, section7):
    ts = data["ts"]
    assert "The fact, the oldest item, fades first" in section7
    left = float(
        re.search(r"at \$\\alpha = (0\.\d+)\$ less than (\d+)% of it is left by the switch", section7).group(1)
    )
    share = percent(section7, r"less than (\d+)% of it is left by the switch")
    assert curve(data, "gated", "fact", "every", left)[ts - 1] < share
    for a in data["alphas"]:
        if a < 1:
            fact = curve(data, "gated", "fact", "every", a)
            assert fact[ts - 1] < curve(data, "gated", "old", "every", a)[ts - 1] or fact[ts - 1] < TOL, a
    assert "even the topic in use is held more weakly" in section7
    plain_old, plain_new = curve(data, "deltanet", "old"), curve(data, "deltanet", "new")
    for a in data["alphas"]:
        if a < 1:
            assert curve(data, "gated", "old", "every", a)[ts - 1] < plain_old[ts - 1], a
            assert curve(data, "gated", "new", "every", a)[-1] < plain_new[-1], a


def test_no_scalar_gate_keeps_the_fact_and_clears_the_topic(data, section7):
    assert (
        "No position of the slider, with either schedule, ends with half of the fact kept and the old topic "
        "below a tenth"
    ) in section7
    for when, a in every_setting(data):
        fact, old = curve(data, "gated", "fact", when, a)[-1], curve(data, "gated", "old", when, a)[-1]
        assert not (fact >= 0.5 and old < 0.1), (when, a, fact, old)


def test_kda_draws_the_scalar_gates_topic_lines_and_keeps_the_whole_fact(data, section7):
    assert (
        "KDA, with the same $\\alpha$ on the topic channels and no decay on the fact's channels, draws exactly "
        "Gated DeltaNet's topic lines and keeps all of the fact, at every $\\alpha$ and with either schedule"
    ) in section7
    for when, a in every_setting(data):
        for name in ("old", "new"):
            np.testing.assert_array_equal(curve(data, "kda", name, when, a), curve(data, "gated", name, when, a))
        assert np.all(curve(data, "kda", "fact", when, a) == 1.0)
    # so, unlike the scalar gate, some setting ends with the whole fact kept and the old topic below a tenth
    assert any(curve(data, "kda", "old", w, a)[-1] < 0.1 for w, a in every_setting(data))


def test_section_8_link(data):
    text = article.prose("08-kda.md")
    start = text.index("[](#fig-07b)")
    end = "a trained layer has to learn such a split."
    sentence = text[start : text.index(end, start) + len(end)]
    assert "clears an old topic exactly as fast as Gated DeltaNet and keeps the whole fact" in sentence
    assert "while the scalar gate loses the fact with the topic" in sentence
    assert "put in those channels by hand" in sentence
    for when, a in every_setting(data):
        for name in ("old", "new"):
            np.testing.assert_array_equal(curve(data, "kda", name, when, a), curve(data, "gated", name, when, a))
        assert np.all(curve(data, "kda", "fact", when, a) == 1.0)
        if a < 1:  # the scalar gate loses the fact (by the last token) when it clears the topic
            assert curve(data, "gated", "fact", when, a)[-1] <= a + TOL


def test_alt_text(data):
    alt = article.flat(article.spec(FIG).alt)
    ts = data["ts"]
    assert "at the switch, the default, or on every step" in alt and data["schedule_default"] == "switch"
    assert "the gate α (0.2 by default, from 0 to 1)" in alt
    assert data["alpha_default"] == 0.2 and (data["alphas"][0], data["alphas"][-1]) == (0.0, 1.0)
    assert "its 16 key channels" in alt and data["d_k"] == 16
    assert "KDA multiplies the 4 fact channels by 1 and the 12 topic channels by α" in alt
    assert data["n_slow"] == 4 and data["alpha_slow"] == 1.0
    assert "three line charts over tokens 1 to 64" in alt and data["n_tokens"] == 64
    assert "a dashed line before token 33" in alt and data["switch_token"] == 33
    plain_old = curve(data, "deltanet", "old")
    assert "DeltaNet's old-topic line rises to 85% while the topic is in use" in alt
    assert plain_old[:ts].max() == pytest.approx(0.85, abs=TOL) and np.all(np.diff(plain_old[:ts]) > -TOL)
    assert "falls and levels off near 58%" in alt and plain_old[-1] == pytest.approx(0.58, abs=TOL)
    assert "its fact line stays at 100%" in alt and np.all(curve(data, "deltanet", "fact") == 1.0)
    assert "(to about 15% at α = 0.2)" in alt
    for mech in ("gated", "kda"):
        assert curve(data, mech, "old", "switch", 0.2)[ts] == pytest.approx(0.15, abs=TOL)
    assert "the new topic rises alike for all three" in alt
    plain_new = curve(data, "deltanet", "new")
    for mech in ("gated", "kda"):
        for a in data["alphas"]:
            assert np.all(np.abs(curve(data, mech, "new", "switch", a)[ts:] - plain_new[ts:]) <= 0.06)
    assert "Gated DeltaNet's fact line drops to α and stays there, while KDA's stays at 100%" in alt
    for a in data["alphas"]:
        assert np.allclose(curve(data, "gated", "fact", "switch", a)[ts:], a, atol=TOL)
    assert "With the gate on every step, Gated DeltaNet's fact line decays from the first token" in alt
    assert "both topics, while in use, are held lower than DeltaNet holds them" in alt
    for a in data["alphas"]:
        if 0 < a < 1:
            fact = curve(data, "gated", "fact", "every", a)
            assert fact[1] < 1 and np.all(np.diff(fact) <= 0), a
            assert curve(data, "gated", "old", "every", a)[:ts].max() < plain_old[:ts].max()
            assert curve(data, "gated", "new", "every", a)[ts:].max() < plain_new[ts:].max()
    assert "KDA's topic lines lie on Gated DeltaNet's everywhere" in alt
    assert "all nine values at the marker" in alt


def test_caption_names_the_three_memories_and_their_gates():
    caption = article.flat(article.spec(FIG).caption)
    assert "DeltaNet (no decay)" in caption
    assert "Gated DeltaNet (one gate $\\alpha$ for every channel)" in caption
    assert "KDA (the same $\\alpha$ on the topic channels, none on the fact's)" in caption
