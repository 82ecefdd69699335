import numpy as np
import pytest

from k3explainer.kernels import (
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

from .helpers import EXACT


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


def test_switch_loss_is_alpha_at_balance_and_hf_topk_is_k():
    E, T = 4, 8
    uniform = np.full((T, E), 1 / E)
    top1 = np.arange(T)[:, None] % E  # every expert gets T/E tokens
    assert switch_balance_loss(uniform, top1, alpha=0.01) == pytest.approx(0.01, abs=1e-15)
    top2 = np.stack([np.arange(T) % E, (np.arange(T) + 1) % E], axis=1)
    assert switch_balance_loss(uniform, top2) == pytest.approx(2.0, abs=1e-14)
    assert sequence_balance_loss(uniform, top2) == pytest.approx(1.0, abs=1e-14)
    collapsed = np.zeros((T, 1), dtype=int)  # all tokens to expert 0, which is also most probable
    probs = np.tile([0.7, 0.1, 0.1, 0.1], (T, 1))
    assert switch_balance_loss(probs, collapsed) == pytest.approx(4 * 0.7)


def test_sequence_loss_is_hf_loss_over_k():
    probs = softmax(logits(3))
    r = route(logits(3), 3)
    assert sequence_balance_loss(probs, r["experts"]) == pytest.approx(switch_balance_loss(probs, r["experts"]) / 3)


def test_bias_update_moves_against_load():
    b = update_balance_bias(np.zeros(4), np.array([10, 2, 4, 4]), 0.001)
    np.testing.assert_allclose(b, [-0.001, 0.001, 0.001, 0.001], **EXACT)
    np.testing.assert_allclose(update_balance_bias(np.zeros(3), np.array([5, 5, 5]), 0.1), 0.0, **EXACT)
