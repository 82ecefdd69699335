"""experiments.balance (FIG 11b): the two gradients against finite differences, the batched runs against
the per-token loop that is their specification, and the load statistics on hand examples."""

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

from k3explainer.kernels import balance_shares, route, softmax, switch_balance_loss
from k3project.experiments import (
    balance_run_loop,
    balance_runs,
    dropped_share,
    expert_capacity,
    load_ratio,
    switch_aux_logit_grad,
    task_logit_grad,
)
from tests.kernels.helpers import EXACT, FAST

TIGHT = dict(rtol=0, atol=1e-11)  # two orders of summation over a run of updates


def inputs(seed, n=1, S=6, T=24, d=3, E=6, pref=0.4, w=0.3):
    rng = np.random.default_rng(seed)
    return (rng.standard_normal((n, S, T, d)), w * rng.standard_normal((n, d, E)), pref * rng.standard_normal((n, E)))


def numeric_grad(f, x, h=1e-6):
    g = np.zeros_like(x)
    for i in np.ndindex(x.shape):
        up, down = x.copy(), x.copy()
        up[i] += h
        down[i] -= h
        g[i] = (f(up) - f(down)) / (2 * h)
    return g


def chosen_mask(logits, k):
    r = route(logits, k, score_func="softmax", renormalize=True)
    m = np.zeros_like(logits)
    np.put_along_axis(m, r["experts"], 1.0, axis=-1)
    return r, m


def test_task_gradient_is_the_derivative_of_minus_log_chosen_scores():
    logits = np.random.default_rng(0).standard_normal((7, 5))
    _, m = chosen_mask(logits, 2)
    loss = lambda ell: -(m * np.log(softmax(ell))).sum() / len(ell)  # the chosen set held fixed
    np.testing.assert_allclose(task_logit_grad(softmax(logits), m), numeric_grad(loss, logits), rtol=0, atol=1e-8)


def test_aux_gradient_is_the_derivative_of_the_switch_loss_with_f_held():
    logits = np.random.default_rng(1).standard_normal((9, 6))
    r, _ = chosen_mask(logits, 2)
    f, _ = balance_shares(r["scores"], r["experts"])
    alpha = 0.7
    loss = lambda ell: alpha * 6 * np.sum(f * softmax(ell).mean(axis=0))
    np.testing.assert_allclose(loss(logits), switch_balance_loss(r["scores"], r["experts"], alpha=alpha), **EXACT)
    np.testing.assert_allclose(
        switch_aux_logit_grad(r["scores"], f, alpha=alpha), numeric_grad(loss, logits), rtol=0, atol=1e-8
    )


def test_aux_gradient_vanishes_at_an_even_load_and_lowers_the_busy_experts():
    s = softmax(np.random.default_rng(2).standard_normal((10, 4)))
    np.testing.assert_allclose(switch_aux_logit_grad(s, np.full(4, 0.25)), 0.0, **EXACT)
    g = switch_aux_logit_grad(s, np.array([0.7, 0.1, 0.1, 0.1]))
    assert (g[:, 0] > 0).all() and (g[:, 1:] < 0).all()  # descent lowers the busy expert's logit for every token
    np.testing.assert_allclose(g.sum(axis=-1), 0.0, **EXACT)  # a softmax gradient: a shift of all logits is free


RUNS = [("none", 0.0), ("switch", 0.5), ("switch", 2.0), ("bias", 0.0)]


def assert_runs_equal_the_loop(X, W0, p0, k, runs, gamma, lr, every):
    fast = balance_runs(X, W0, p0, top_k=k, runs=runs, gamma=gamma, lr=lr, every=every)
    for r, (regime, alpha) in enumerate(runs):
        for i in range(len(X)):
            ref = balance_run_loop(
                X[i], W0[i], p0[i], top_k=k, regime=regime, alpha=alpha, gamma=gamma, lr=lr, every=every
            )
            np.testing.assert_array_equal(fast["load"][r, i], ref["load"])
            np.testing.assert_array_equal(fast["steps"], ref["steps"])
            for key in ("bias", "stat", "aux_share", "cosine"):
                np.testing.assert_allclose(fast[key][r, i], ref[key], **TIGHT, err_msg=f"{regime} α={alpha} {key}")


def test_batched_runs_equal_the_per_token_loop_over_seeds():
    X, W0, p0 = inputs(3, n=2, S=9)
    assert_runs_equal_the_loop(X, W0, p0, 2, RUNS, gamma=0.02, lr=1.0, every=3)


@FAST
@given(
    seed=st.integers(0, 2**16),
    E=st.integers(3, 7),
    k=st.integers(1, 2),
    T=st.integers(4, 20),
    S=st.integers(1, 6),
    every=st.integers(1, 3),
    alpha=st.floats(0.05, 3.0),
    gamma=st.floats(0.001, 0.1),
    lr=st.floats(0.1, 2.0),
)
def test_batched_runs_equal_the_loop_for_any_sizes(seed, E, k, T, S, every, alpha, gamma, lr):
    X, W0, p0 = inputs(seed, S=S, T=T, E=E)
    assert_runs_equal_the_loop(X, W0, p0, k, [("switch", alpha), ("none", 0.0), ("bias", 0.0)], gamma, lr, every)


def test_exact_ties_go_to_the_lower_expert_as_in_route():
    X, W0, p0 = inputs(4, S=5, E=5)
    W0[..., 3], p0[..., 3] = W0[..., 1], p0[..., 1]  # experts 1 and 3 identical: every token ties them
    assert_runs_equal_the_loop(X, W0, p0, 2, RUNS, gamma=0.05, lr=0.5, every=1)


def test_runs_do_not_touch_each_other():
    X, W0, p0 = inputs(5, S=7)
    both = balance_runs(X, W0, p0, top_k=2, runs=RUNS, gamma=0.03, every=2)
    for r, run in enumerate(RUNS):
        alone = balance_runs(X, W0, p0, top_k=2, runs=[run], gamma=0.03, every=2)
        np.testing.assert_array_equal(alone["load"][0], both["load"][r])
        np.testing.assert_allclose(alone["aux_share"][0], both["aux_share"][r], **EXACT)


def test_degenerate_settings_reduce_to_no_balancing():
    X, W0, p0 = inputs(6, S=8)
    out = balance_runs(X, W0, p0, top_k=2, runs=[("none", 0.0), ("switch", 0.0), ("bias", 0.0)], gamma=0.0, every=1)
    np.testing.assert_array_equal(out["load"][1], out["load"][0])  # α = 0: no auxiliary loss
    np.testing.assert_array_equal(out["load"][2], out["load"][0])  # γ = 0: the bias never moves
    assert (out["aux_share"] == 0).all() and (out["bias"] == 0).all()


def test_the_bias_changes_only_the_choice_and_moves_in_steps_of_gamma():
    X, W0, p0 = inputs(7, S=10)
    gamma = 0.025
    out = balance_runs(X, W0, p0, top_k=2, runs=[("none", 0.0), ("bias", 0.0)], gamma=gamma, every=1)
    steps = np.diff(out["bias"][1, 0], axis=0)
    np.testing.assert_allclose(np.abs(steps[np.abs(steps) > 1e-12]), gamma, **EXACT)  # ±γ (0 at exactly the mean)
    assert (out["aux_share"][1] == 0).all()  # the router's update is all task
    np.testing.assert_array_equal(out["load"][1, 0, 0], out["load"][0, 0, 0])  # b = 0 before the first update
    assert (out["load"][1].sum(axis=-1) == 2 * X.shape[2]).all()  # every token still gets k experts


def test_switch_share_and_cosine_are_bounded():
    X, W0, p0 = inputs(8, S=6)
    out = balance_runs(X, W0, p0, top_k=2, runs=[("switch", 1.0)], every=1)
    assert ((out["aux_share"] > 0) & (out["aux_share"] < 1)).all()
    assert ((out["cosine"] >= -1) & (out["cosine"] <= 1)).all()
    assert (out["stat"] > 0).all()


def test_unknown_regime_is_refused():
    X, W0, p0 = inputs(9, S=2)
    with pytest.raises(ValueError, match="regime"):
        balance_runs(X, W0, p0, top_k=2, runs=[("aux", 1.0)])
    with pytest.raises(ValueError, match="regime"):
        balance_run_loop(X[0], W0[0], p0[0], top_k=2, regime="aux")


def test_load_ratio_capacity_and_drops_by_hand():
    even, collapsed = np.full(8, 16.0), np.array([64, 64, 0, 0, 0, 0, 0, 0])
    assert load_ratio(even) == 1.0 and load_ratio(collapsed) == 4.0  # N/k with k = 2 of 8 taking all 64 tokens
    assert expert_capacity(1.25, 256, 16, 2) == 40 and expert_capacity(1.0, 256, 16, 2) == 32
    assert expert_capacity(1.1, 100, 8, 1) == 13  # ⌊13.75⌋
    assert dropped_share(even, 16) == 0.0
    assert dropped_share(collapsed, 20) == pytest.approx((44 + 44) / 128)
    batch = np.stack([even, collapsed])
    np.testing.assert_allclose(dropped_share(batch, 20), [0.0, 88 / 128], **EXACT)
    np.testing.assert_allclose(load_ratio(batch), [1.0, 4.0], **EXACT)


@FAST
@given(loads=st.lists(st.integers(0, 50), min_size=2, max_size=12).filter(lambda x: sum(x) > 0), cap=st.integers(0, 60))
def test_drops_are_zero_exactly_when_no_expert_is_over_capacity(loads, cap):
    loads = np.array(loads, dtype=float)
    share = dropped_share(loads, cap)
    assert 0 <= share <= 1
    assert (share == 0) == (loads.max() <= cap)
    assert (load_ratio(loads) > cap / loads.mean()) == (share > 0)
