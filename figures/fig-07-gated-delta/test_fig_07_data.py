"""FIG 07's data against the kernels (both memories at every slider position, token 1's surviving
share), and every sentence it can show, at every step and every α, against the numbers it ships."""

import re

import numpy as np
import pytest

from k3explainer.kernels import delta_rule, gated_delta_rule
from k3explainer.site.readertext import fill
from tests.site import article
from tests.site.article import headline

PHASES = ["decay", "write"]
ROUNDING = 0.5e-5 + 1e-12  # shipped at five decimals


@pytest.fixture(scope="module")
def data():
    return article.figure_data("fig-07")


def tokens(data):
    q, k, v = (np.array(data[n]) for n in "qkv")
    return q, k, v, np.full(len(k), data["beta"])


def gated_run(data, alpha):
    q, k, v, betas = tokens(data)
    with np.errstate(divide="ignore"):  # α = 0: log-decay −∞ clears the state
        g = np.full(len(k), np.log(alpha))
    return g, gated_delta_rule(q, k, v, g, betas, trace=True)[2]


def number(text: str) -> float:
    return float(text.replace("−", "-"))


def test_both_memories_are_the_kernels_at_every_alpha(data):
    q, k, v, betas = tokens(data)
    plain = delta_rule(q, k, v, betas, trace=True)[2]
    np.testing.assert_allclose(data["plain"]["state_prev"], plain["state_prev"], atol=ROUNDING)
    np.testing.assert_allclose(data["plain"]["state"], plain["state"], atol=ROUNDING)
    for alpha, shipped in zip(data["alphas"], data["gated"], strict=True):
        assert shipped["alpha"] == alpha
        _, gated = gated_run(data, alpha)
        np.testing.assert_allclose(shipped["decayed"], gated["state_decayed"], atol=ROUNDING)
        np.testing.assert_allclose(shipped["state"], gated["state"], atol=ROUNDING)
        diff = np.max(np.abs(gated["state"] - plain["state"]), axis=(1, 2))
        np.testing.assert_allclose(shipped["diff"], diff, atol=ROUNDING)
        np.testing.assert_allclose(shipped["decay_only"], alpha ** np.arange(len(k)), atol=ROUNDING)
        if alpha == 1:  # no decay: the gated memory is DeltaNet
            np.testing.assert_array_equal(shipped["state"], data["plain"]["state"])
        if alpha == 0:  # cleared before each write: only β k vᵀ of the latest token remains
            for t in range(len(k)):
                np.testing.assert_allclose(shipped["state"][t], data["beta"] * np.outer(k[t], v[t]), atol=ROUNDING)


def test_the_surviving_share_is_token_1s_write_run_on_with_zero_values(data):
    """The state is linear in token 1's write: running the later tokens with zero values from it
    leaves exactly the part of it that survives their decay and their corrections."""
    q, k, v, betas = tokens(data)
    for alpha, shipped in zip(data["alphas"], data["gated"], strict=True):
        g, gated = gated_run(data, alpha)
        W1 = gated["state"][0]
        rest = gated_delta_rule(q[1:], k[1:], np.zeros_like(v[1:]), g[1:], betas[1:], initial_state=W1, trace=True)[2]
        want = np.concatenate([[1.0], np.linalg.norm(rest["state"], axis=(1, 2)) / np.linalg.norm(W1)])
        np.testing.assert_allclose(shipped["survival"], want, atol=ROUNDING)
        assert all(b <= a + 1e-9 for a, b in zip(want, want[1:], strict=False))  # never grows back
    assert data["alphas"][-1] == 1.0  # the top of the slider is DeltaNet, the plot's reference line
    assert data["plain_left_text"] == data["gated"][-1]["left_text"]


def test_every_shown_number_is_the_value_it_stands_for(data):
    """Each slider position's texts, read back: α to three decimals, the differences and rows to
    the figure's digits, the shares as percentages to one decimal (a tie rounded up, as the page did)."""
    digits = data["digits"]
    for alpha, g in zip(data["alphas"], data["gated"], strict=True):
        assert number(g["alpha_text"]) == alpha and g["gate_text"] == f"α = {g['alpha_text']}"
        for t, diff in enumerate(g["diff"]):
            assert number(g["diff_text"][t]) == pytest.approx(diff, abs=0.5 * 10**-digits + 1e-9)
            for share, text in ((g["survival"][t], g["left_text"][t]), (g["decay_only"][t], g["decay_text"][t])):
                assert text.endswith(" %") and number(text[:-2]) == pytest.approx(100 * share, abs=0.05 + 1e-9)
            row = [number(x) for x in g["row_text"][t].strip("[]").split(", ")]
            assert row == pytest.approx(g["decayed"][t][0], abs=0.5 * 10**-digits + 1e-9)
    assert data["gated"][data["alphas"].index(0.25)]["decay_text"][2] == "6.3 %"  # 6.25 %: up, as toFixed rounds


def slots(t, i, names):
    """The slots the component fills a template with (component.js: slots)."""
    every = {
        "token": ["tokens", t],
        "state": ["state_names", t],
        "alpha": ["gated", i, "alpha_text"],
        "diff": ["gated", i, "diff_text", t],
        "left": ["gated", i, "left_text", t],
        "decay": ["gated", i, "decay_text", t],
        "row": ["gated", i, "row_text", t],
        "plain": ["plain_left_text", t],
    }
    return {n: every[n] for n in names}


def test_every_sentence_at_every_step_and_alpha_reads_the_data(data):
    T = data["n_tokens"]
    assert data["tokens"] == list(range(1, T + 1))
    for step, walk in enumerate(data["walk"]):
        t, phase = divmod(step, 2)
        assert walk["readout"] == f"token {t + 1} / {T} · {PHASES[phase]}"
        state = data["state_names"][t + phase]  # the grids show S_t decayed, or S_{t+1} after the write
        assert walk["plain_caption"].startswith(state) and walk["gated_caption"].endswith(
            "(decayed)" if phase == 0 else "after the write"
        )
    for i, g in enumerate(data["gated"]):
        a = g["alpha_text"]
        for t in range(T):
            decay = fill(data, ["text", "readout_decay"], slots(t, i, ["alpha", "token"]))
            assert (
                decay
                == f"Decay: every cell of the gated state is multiplied by α = {a} before token {t + 1}'s write lands."
            )
            after = fill(data, ["gated", i, "after_write"], slots(t, i, ["token", "diff"]))
            assert after.startswith(f"After token {t + 1}: the two states differ by at most {g['diff_text'][t]}")
            assert ("identical" in after) == (g["alpha"] == 1) and ("only the latest write" in after) == (
                g["alpha"] == 0
            )
            plot = fill(data, ["text", "plot"], slots(t, i, ["alpha", "token", "left", "decay", "plain"]))
            shares = re.findall(r"([\d.]+) %", plot)
            assert plot.startswith(f"α = {a}: after token {t + 1}, ")
            assert [float(s) for s in shares] == [
                pytest.approx(100 * x, abs=0.05 + 1e-9)
                for x in (g["survival"][t], g["decay_only"][t], data["gated"][-1]["survival"][t])
            ]
            for which, names in (
                ("said", {"decay": ["token", "alpha", "row"], "write": ["token", "diff"]}),
                (
                    "said_alpha",
                    {"decay": ["alpha", "token", "state", "row", "left"], "write": ["alpha", "token", "diff", "left"]},
                ),
            ):
                decayed = fill(data, ["text", which, "decay"], slots(t, i, names["decay"]))
                assert f"α = {a}" in decayed and g["row_text"][t] in decayed and f"token {t + 1}" in decayed.lower()
                written = fill(data, ["text", which, "write"], slots(t, i, names["write"]))
                assert f"at most {g['diff_text'][t]}" in written and f"token {t + 1}" in written.lower()
                if which == "said_alpha":
                    assert f"α·{data['state_names'][t]}" in decayed
                    assert f"; {g['left_text'][t]} of token 1's write is left." in decayed + written
            both = fill(data, ["text", "said_both", "write"], slots(t, i, ["alpha", "token", "diff", "left"]))
            assert both.startswith(f"Token {t + 1}, write:") and f"α = {a}: after token {t + 1}" in both


def left_of_first_write(W1, q, k, g, betas, rule):
    """Share of token 1's write W1 (Frobenius norm) left after each token: the later tokens run
    on from it with zero values, so only their decay and their corrections act on it."""
    later = (q[1:], k[1:], np.zeros((len(k) - 1, W1.shape[1])))
    args = (*later, g[1:], betas[1:]) if g is not None else (*later, betas[1:])
    rest = rule(*args, initial_state=W1, trace=True)[2]
    return np.concatenate([[1.0], np.linalg.norm(rest["state"], axis=(1, 2)) / np.linalg.norm(W1)])


def test_the_headline_answers_with_token_1s_write_left(data):
    """At the opening α and token, recomputed by the kernels: the share of token 1's write the gated
    memory keeps, and DeltaNet's (delta_rule, no gate); the gate forgets more than DeltaNet's
    overwrites alone, and no more slowly than its decay alone (α^n)."""
    title, takeaway = headline("fig-07")
    q, k, v, betas = tokens(data)
    alpha, t = data["alpha_default"], data["open_step"] // 2
    g, gated = gated_run(data, alpha)
    left = left_of_first_write(gated["state"][0], q, k, g, betas, gated_delta_rule)[t]
    plain_W1 = delta_rule(q[:1], k[:1], v[:1], betas[:1])[1]
    plain = left_of_first_write(plain_W1, q, k, None, betas, delta_rule)[t]
    assert title == "What does a decay gate add to a memory that could only overwrite?"
    assert takeaway == (
        f"Forgetting that needs no matching key: at α = {alpha:g}, {left:.0%} of the first write is left after "
        f"token {t + 1}, vs {plain:.0%} in DeltaNet."
    )
    assert left < plain < 1 and left <= alpha**t + 1e-12
