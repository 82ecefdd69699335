import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

from k3explainer.kernels import (
    balance_shares,
    expert_load,
    glu_expert,
    moe_forward,
    route,
    router_scores,
    sequence_balance_loss,
    softmax,
    switch_balance_loss,
    update_balance_bias,
)

from .helpers import EXACT, FAST


def logits(seed=0, T=16, E=8):
    return np.random.default_rng(seed).standard_normal((T, E))


def test_sigmoid_weights_renormalised_and_scaled():
    r = route(logits(), 4, score_func="sigmoid")
    np.testing.assert_allclose(r["weights"].sum(axis=1), 1.0, **EXACT)
    r = route(logits(), 4, score_func="sigmoid", route_scale=2.5)
    np.testing.assert_allclose(r["weights"].sum(axis=1), 2.5, **EXACT)
    np.testing.assert_allclose(r["gates"].sum(axis=1), 2.5, **EXACT)
    assert (np.count_nonzero(r["gates"], axis=1) == 4).all()


def test_deepseek_softmax_is_not_renormalised_but_mixtral_rule_is_softmax_over_kept():
    ell = logits()
    r = route(ell, 2)  # DeepSeek Gate default: raw softmax probabilities
    np.testing.assert_allclose(r["weights"], np.take_along_axis(softmax(ell), r["experts"], -1), **EXACT)
    assert (r["weights"].sum(axis=1) < 1).all()
    r = route(ell, 2, renormalize=True)  # Mixtral / HF
    kept = np.take_along_axis(ell, r["experts"], -1)
    np.testing.assert_allclose(r["weights"], softmax(kept), **EXACT)


def test_top_k_picks_the_largest_scores_best_first():
    ell = np.array([[0.1, 3.0, -1.0, 2.0]])
    r = route(ell, 2, score_func="sigmoid", renormalize=False)
    np.testing.assert_array_equal(r["experts"], [[1, 3]])
    np.testing.assert_allclose(r["weights"], [[1 / (1 + np.exp(-3.0)), 1 / (1 + np.exp(-2.0))]], **EXACT)


def test_zero_bias_is_plain_top_k():
    a = route(logits(), 3, score_func="sigmoid")
    b = route(logits(), 3, score_func="sigmoid", bias=np.zeros(8))
    np.testing.assert_array_equal(a["experts"], b["experts"])
    np.testing.assert_array_equal(a["weights"], b["weights"])


def test_bias_selects_but_never_weighs():
    ell = logits(4)
    bias = np.random.default_rng(5).uniform(-0.5, 0.5, 8)
    r = route(ell, 3, score_func="sigmoid", renormalize=False, bias=bias)
    s = router_scores(ell, "sigmoid")
    np.testing.assert_array_equal(r["experts"], np.argsort(-(s + bias), axis=1, kind="stable")[:, :3])
    np.testing.assert_array_equal(r["weights"], np.take_along_axis(s, r["experts"], -1))
    assert (r["experts"] != route(ell, 3, score_func="sigmoid")["experts"]).any()  # the bias did move choices


def test_very_negative_bias_excludes_an_expert_without_reweighting_others():
    ell = logits(1)
    plain = route(ell, 3, score_func="sigmoid", renormalize=False)
    e = np.bincount(plain["experts"].ravel()).argmax()  # the most popular expert
    bias = np.zeros(8)
    bias[e] = -1e9
    biased = route(ell, 3, score_func="sigmoid", renormalize=False, bias=bias)
    assert not (biased["experts"] == e).any()
    both = (plain["gates"] > 0) & (biased["gates"] > 0)
    assert both.sum() > 0
    np.testing.assert_array_equal(biased["gates"][both], plain["gates"][both])  # unbiased scores
    renorm = route(ell, 3, score_func="sigmoid", bias=bias)  # weights renormalise the unbiased scores
    s = np.take_along_axis(router_scores(ell, "sigmoid"), renorm["experts"], -1)
    np.testing.assert_allclose(renorm["weights"], s / s.sum(axis=1, keepdims=True), **EXACT)


@pytest.mark.parametrize("activation", ["swiglu", "situ"])
def test_moe_forward_equals_dense_gate_weighted_sum(activation):
    rng = np.random.default_rng(2)
    T, D, F, E = 10, 6, 5, 8
    x = rng.standard_normal((T, D))
    W_r = rng.standard_normal((D, E))
    experts = (rng.standard_normal((E, D, F)), rng.standard_normal((E, D, F)), rng.standard_normal((E, F, D)))
    shared = (rng.standard_normal((D, 2 * F)), rng.standard_normal((D, 2 * F)), rng.standard_normal((2 * F, D)))
    y, r = moe_forward(x, W_r, experts, 4, shared=shared, activation=activation, score_func="sigmoid")
    ref = glu_expert(x, *shared, activation=activation)
    for e in range(E):  # every expert on every token, weighted by its (mostly zero) gate
        W_e = [W[e] for W in experts]
        ref = ref + r["gates"][:, e, None] * glu_expert(x, *W_e, activation=activation)
    np.testing.assert_allclose(y, ref, **EXACT)
    y0, _ = moe_forward(x, W_r, experts, 4, activation=activation, score_func="sigmoid")
    np.testing.assert_allclose(y - y0, glu_expert(x, *shared, activation=activation), atol=1e-12)


def test_expert_load_hand_example():
    np.testing.assert_array_equal(expert_load(np.array([[0, 2], [2, 3], [2, 0]]), 5), [2, 0, 3, 1, 0])


def routing_case(seed, T, N, k):
    """Seeded positive scores [T, N] (sigmoid of normals) and their top-k choices."""
    r = route(np.random.default_rng(seed).standard_normal((T, N)), k, score_func="sigmoid")
    return r["scores"], r["experts"]


def round_robin(T, N, k):
    """Token t takes experts t·k, …, t·k + k − 1 (mod N): every expert gets k·T/N slots when N divides k·T."""
    return (np.arange(T)[:, None] * k + np.arange(k)) % N


def test_switch_loss_is_eq_4_for_top_1_softmax():
    """Top-1 with softmax probabilities: α·N·Σ f_i P_i with f_i the fraction of tokens, P_i the mean probability."""
    ell = logits(7)
    probs = softmax(ell)
    top1 = probs.argmax(axis=1)[:, None]
    T, N = probs.shape
    f = np.bincount(top1.ravel(), minlength=N) / T
    assert switch_balance_loss(probs, top1, alpha=0.01) == pytest.approx(
        0.01 * N * np.sum(f * probs.mean(axis=0)), abs=1e-15
    )


def test_switch_loss_is_alpha_at_perfect_balance_for_top_k():
    E, T = 4, 8
    uniform = np.full((T, E), 1 / E)
    assert switch_balance_loss(uniform, round_robin(T, E, 1), alpha=0.01) == 0.01
    for k in (1, 2, 3, 4):  # the slot share keeps Σ f = 1, so top-k does not scale the value
        assert switch_balance_loss(uniform, round_robin(T, E, k)) == pytest.approx(1.0, abs=1e-15)
    collapsed = np.zeros((T, 1), dtype=int)  # all tokens to expert 0, which is also most probable
    probs = np.tile([0.7, 0.1, 0.1, 0.1], (T, 1))
    assert switch_balance_loss(probs, collapsed) == pytest.approx(4 * 0.7)


def test_fig_11_sized_perfect_balance_is_exactly_one():
    """FIG 11's size (6 tokens, top-4 of 8): 24 slots, 3 per expert, uniform scores → 1.0 to the last bit."""
    assert switch_balance_loss(np.ones((6, 8)), round_robin(6, 8, 4)) == 1.0
    f, P = balance_shares(np.ones((6, 8)), round_robin(6, 8, 4))
    np.testing.assert_array_equal(f, 1 / 8)
    np.testing.assert_array_equal(P, 1 / 8)


@FAST
@given(seed=st.integers(0, 2**32 - 1), T=st.integers(1, 12), N=st.integers(2, 10), data=st.data())
def test_balance_is_one_plus_covariance_of_the_shares(seed, T, N, data):
    """Σ f = Σ P = 1, and N·Σ f P = 1 + N·Σ (f − 1/N)(P − 1/N) for any scores and choices."""
    k = data.draw(st.integers(1, N))
    scores, experts = routing_case(seed, T, N, k)
    f, P = balance_shares(scores, experts)
    assert f.sum() == pytest.approx(1, abs=1e-12) and P.sum() == pytest.approx(1, abs=1e-12)
    b = switch_balance_loss(scores, experts)
    assert b == pytest.approx(1 + N * np.sum((f - 1 / N) * (P - 1 / N)), abs=1e-12)
    assert sequence_balance_loss(scores, experts) == pytest.approx(
        b, abs=1e-12
    )  # DeepSeek's normalisation, same number


@FAST
@given(seed=st.integers(0, 2**32 - 1), m=st.integers(1, 4), N=st.integers(2, 10), data=st.data())
def test_even_load_gives_exactly_one_whatever_the_scores(seed, m, N, data):
    k = data.draw(st.integers(1, N))
    T = m * N  # N divides k·T, so round robin gives every expert the same number of slots
    scores = router_scores(np.random.default_rng(seed).standard_normal((T, N)), "sigmoid")
    experts = round_robin(T, N, k)
    assert (expert_load(experts, N) == k * m).all()
    assert switch_balance_loss(scores, experts) == pytest.approx(1.0, abs=1e-12)


@FAST
@given(seed=st.integers(0, 2**32 - 1), T=st.integers(1, 12), N=st.integers(2, 10), data=st.data())
def test_collapse_onto_the_highest_scored_experts_scores_above_one(seed, T, N, data):
    """Every token sends its k slots to the same k experts, the ones the router scores highest:
    N·Σ f P = (N/k)·(their share of the scores) > 1 unless all scores are equal."""
    k = data.draw(st.integers(1, N - 1))
    s = router_scores(np.random.default_rng(seed).standard_normal(N), "sigmoid")
    scores = np.tile(s, (T, 1))
    experts = np.tile(np.argsort(-s, kind="stable")[:k], (T, 1))  # top-k of those same scores
    b = switch_balance_loss(scores, experts)
    assert b == pytest.approx(N / k * np.sort(s)[::-1][:k].sum() / s.sum(), abs=1e-12)
    assert b > 1


def test_uneven_load_can_score_below_one():
    """The statistic is not a spread measure: busy experts with low scores pull it under 1."""
    probs = np.array([[0.51, 0.49], [0.51, 0.49], [0.0, 1.0]])
    top1 = probs.argmax(axis=1)[:, None]  # loads 2 and 1: uneven
    assert switch_balance_loss(probs, top1) == pytest.approx(2 * (2 / 3 * 0.34 + 1 / 3 * 0.66))
    assert switch_balance_loss(probs, top1) < 1


def test_hf_top_k_loss_is_k_times_switch():
    """transformers' load_balancing_loss_func counts f over tokens per slot row, so its value is k times this."""
    probs = softmax(logits(3))
    r = route(logits(3), 3)
    T, N = probs.shape
    mask = np.eye(N)[r["experts"]]  # [T, k, N]
    hf = N * np.sum(mask.mean(axis=0) * probs.mean(axis=0)[None, :])
    assert hf == pytest.approx(3 * switch_balance_loss(probs, r["experts"]), abs=1e-12)


def test_bias_update_moves_against_load():
    b = update_balance_bias(np.zeros(4), np.array([10, 2, 4, 4]), 0.001)
    np.testing.assert_allclose(b, [-0.001, 0.001, 0.001, 0.001], **EXACT)
    np.testing.assert_allclose(update_balance_bias(np.zeros(3), np.array([5, 5, 5]), 0.1), 0.0, **EXACT)
