import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

from k3explainer.kernels import (
    delta_rule,
    delta_rule_chunked,
    gated_delta_rule,
    gated_delta_rule_chunked,
    kda,
    kda_chunked,
)

from .helpers import EXACT, FAST, delta_inputs

seeds = st.integers(0, 2**32 - 1)
lengths = st.integers(1, 40)
chunks = st.sampled_from([1, 2, 3, 5, 8, 16, 64])


@FAST
@given(seed=seeds, T=lengths, C=chunks, from_h0=st.booleans())
def test_kda_chunked_equals_recurrent(seed, T, C, from_h0):
    q, k, v, g, beta, S0 = delta_inputs(seed, T)
    h0 = S0 if from_h0 else None
    o1, S1 = kda(q, k, v, g, beta, initial_state=h0)
    o2, S2 = kda_chunked(q, k, v, g, beta, initial_state=h0, chunk_size=C)
    np.testing.assert_allclose(o2, o1, **EXACT)
    np.testing.assert_allclose(S2, S1, **EXACT)


@FAST
@given(seed=seeds, T=lengths, C=chunks, from_h0=st.booleans())
def test_gated_delta_chunked_equals_recurrent(seed, T, C, from_h0):
    q, k, v, g, beta, S0 = delta_inputs(seed, T)
    h0 = S0 if from_h0 else None
    o1, S1 = gated_delta_rule(q, k, v, g[:, 0], beta, initial_state=h0)
    o2, S2 = gated_delta_rule_chunked(q, k, v, g[:, 0], beta, initial_state=h0, chunk_size=C)
    np.testing.assert_allclose(o2, o1, **EXACT)
    np.testing.assert_allclose(S2, S1, **EXACT)


@FAST
@given(seed=seeds, T=lengths, C=chunks, from_h0=st.booleans())
def test_delta_chunked_equals_recurrent(seed, T, C, from_h0):
    q, k, v, _, beta, S0 = delta_inputs(seed, T)
    h0 = S0 if from_h0 else None
    o1, S1 = delta_rule(q, k, v, beta, initial_state=h0)
    o2, S2 = delta_rule_chunked(q, k, v, beta, initial_state=h0, chunk_size=C)
    np.testing.assert_allclose(o2, o1, **EXACT)
    np.testing.assert_allclose(S2, S1, **EXACT)


def test_chunked_strong_decay_stays_finite():
    # cumulative decay over a 64-token chunk reaches e^-320: a division-based form would overflow
    q, k, v, g, beta, S0 = delta_inputs(1, 64, log_decay=(4.9, 5.0))
    o1, S1 = kda(q, k, v, g, beta, initial_state=S0)
    o2, S2 = kda_chunked(q, k, v, g, beta, initial_state=S0, chunk_size=64)
    assert np.isfinite(o2).all()
    np.testing.assert_allclose(o2, o1, **EXACT)
    np.testing.assert_allclose(S2, S1, **EXACT)


@pytest.mark.parametrize("chunked", [False, True])
def test_gated_with_zero_gate_is_delta(chunked):
    q, k, v, _, beta, S0 = delta_inputs(2, 11)
    gdn, dn = (gated_delta_rule_chunked, delta_rule_chunked) if chunked else (gated_delta_rule, delta_rule)
    kw = dict(chunk_size=4) if chunked else {}
    o1, S1 = gdn(q, k, v, np.zeros(11), beta, initial_state=S0, **kw)
    o2, S2 = dn(q, k, v, beta, initial_state=S0, **kw)
    np.testing.assert_allclose(o1, o2, **EXACT)
    np.testing.assert_allclose(S1, S2, **EXACT)


@pytest.mark.parametrize("chunked", [False, True])
def test_kda_with_equal_channel_gates_is_gated_delta(chunked):
    q, k, v, g, beta, S0 = delta_inputs(3, 13)
    g_scalar = g[:, 0]
    g_channels = np.repeat(g_scalar[:, None], k.shape[1], axis=1)  # [T, K], every channel the same
    f_kda, f_gdn = (kda_chunked, gated_delta_rule_chunked) if chunked else (kda, gated_delta_rule)
    kw = dict(chunk_size=5) if chunked else {}
    o1, S1 = f_kda(q, k, v, g_channels, beta, initial_state=S0, **kw)
    o2, S2 = f_gdn(q, k, v, g_scalar, beta, initial_state=S0, **kw)
    np.testing.assert_allclose(o1, o2, **EXACT)
    np.testing.assert_allclose(S1, S2, **EXACT)


def test_kda_differs_from_gated_delta_when_channel_gates_differ():
    q, k, v, g, beta, S0 = delta_inputs(4, 8)
    o1, _ = kda(q, k, v, g, beta, initial_state=S0)
    o2, _ = gated_delta_rule(q, k, v, g.mean(axis=1), beta, initial_state=S0)
    assert np.abs(o1 - o2).max() > 1e-3


@pytest.mark.parametrize("beta", [0.3, 0.85, 1.0])
def test_read_back_from_empty_state_is_scale_beta_v(beta):
    rng = np.random.default_rng(5)
    k = rng.standard_normal(4)
    k /= np.linalg.norm(k)
    v = rng.standard_normal(3)
    o, _ = delta_rule(k[None], k[None], v[None], np.array([beta]), scale=0.5)  # q = k
    np.testing.assert_allclose(o[0], 0.5 * beta * v, **EXACT)
    o, _ = delta_rule(k[None], k[None], v[None], np.array([beta]))  # default scale K^-1/2
    np.testing.assert_allclose(o[0], 4**-0.5 * beta * v, **EXACT)


@pytest.mark.parametrize("fn", ["kda", "delta"])
def test_read_back_against_decayed_state(fn):
    # S_tᵀk_t = (1 − β_t) S'ᵀk_t + β_t v_t for unit k_t, where S' is the decayed state
    q, k, v, g, beta, S0 = delta_inputs(6, 9)
    if fn == "kda":
        _, _, tr = kda(q, k, v, g, beta, initial_state=S0, trace=True)
    else:
        _, _, tr = delta_rule(q, k, v, beta, initial_state=S0, trace=True)
    after = np.einsum("tkv,tk->tv", tr["state"], k)
    before = np.einsum("tkv,tk->tv", tr["state_decayed"], k)
    np.testing.assert_allclose(after, (1 - beta[:, None]) * before + beta[:, None] * v, **EXACT)


def test_beta_one_replaces_the_association_hand_example():
    k = np.array([[1.0, 0.0], [1.0, 0.0]])
    v = np.array([[1.0, 2.0], [3.0, 0.0]])
    beta = np.array([0.5, 1.0])
    o, S, tr = delta_rule(k, k, v, beta, scale=1.0, trace=True)
    np.testing.assert_allclose(tr["state"][0], [[0.5, 1.0], [0.0, 0.0]], **EXACT)
    np.testing.assert_allclose(tr["read"][1], [0.5, 1.0], **EXACT)
    np.testing.assert_allclose(tr["error"][1], [2.5, -1.0], **EXACT)
    np.testing.assert_allclose(S, [[3.0, 0.0], [0.0, 0.0]], **EXACT)
    np.testing.assert_allclose(o, [[0.5, 1.0], [3.0, 0.0]], **EXACT)


def test_write_at_orthogonal_key_leaves_read_unchanged():
    S0 = np.random.default_rng(7).standard_normal((3, 2))
    e0, e1 = np.eye(3)[0], np.eye(3)[1]
    _, S = delta_rule(e1[None], e1[None], np.array([[5.0, -4.0]]), np.array([0.7]), initial_state=S0)
    np.testing.assert_allclose(S.T @ e0, S0.T @ e0, **EXACT)
    assert np.abs(S.T @ e1 - S0.T @ e1).max() > 0.1


@pytest.mark.parametrize("chunked", [False, True])
def test_beta_zero_is_pure_decay(chunked):
    q, k, v, g, _, S0 = delta_inputs(8, 10)
    f = kda_chunked if chunked else kda
    _, S = f(q, k, v, g, np.zeros(10), initial_state=S0)
    np.testing.assert_allclose(S, np.exp(g.sum(axis=0))[:, None] * S0, **EXACT)  # each row its own rate
    f = gated_delta_rule_chunked if chunked else gated_delta_rule
    _, S = f(q, k, v, g[:, 0], np.zeros(10), initial_state=S0)
    np.testing.assert_allclose(S, np.exp(g[:, 0].sum()) * S0, **EXACT)


def test_recurrence_matches_paper_and_dplr_forms():
    # KL eq. 1: S_t = (I − β k kᵀ) Diag(α) S_{t−1} + β k vᵀ;  DPLR: Diag(α) − (βk)(k ⊙ α)ᵀ
    q, k, v, g, beta, S0 = delta_inputs(9, 6)
    _, S_T, tr = kda(q, k, v, g, beta, initial_state=S0, trace=True)
    S = S0
    for t in range(6):
        alpha = np.exp(g[t])
        paper = (np.eye(4) - beta[t] * np.outer(k[t], k[t])) @ np.diag(alpha) @ S
        dplr = (np.diag(alpha) - np.outer(beta[t] * k[t], k[t] * alpha)) @ S
        np.testing.assert_allclose(paper, dplr, **EXACT)
        S = paper + beta[t] * np.outer(k[t], v[t])
        np.testing.assert_allclose(tr["state"][t], S, **EXACT)
    np.testing.assert_allclose(S_T, S, **EXACT)


def test_trace_is_the_computation():
    q, k, v, g, beta, S0 = delta_inputs(10, 7)
    o, S, tr = kda(q, k, v, g, beta, scale=0.3, initial_state=S0, trace=True)
    np.testing.assert_allclose(tr["output"], o, **EXACT)
    np.testing.assert_allclose(tr["state_prev"][0], S0, **EXACT)
    np.testing.assert_allclose(tr["state_prev"][1:], tr["state"][:-1], **EXACT)
    np.testing.assert_allclose(tr["state"][-1], S, **EXACT)
    np.testing.assert_allclose(tr["decay"], np.exp(g), **EXACT)
    np.testing.assert_allclose(tr["write"], beta[:, None, None] * np.einsum("tk,tv->tkv", k, tr["error"]), **EXACT)
    np.testing.assert_allclose(tr["output"], 0.3 * np.einsum("tkv,tk->tv", tr["state"], q), **EXACT)


def test_chunk_trace_and_inputs_untouched():
    q, k, v, g, beta, S0 = delta_inputs(11, 10)
    S0_copy = S0.copy()
    o, S, chunks = kda_chunked(q, k, v, g, beta, initial_state=S0, chunk_size=4, trace=True)
    assert [c["start"] for c in chunks] == [0, 4, 8]
    assert chunks[-1]["A"].shape == (2, 2)  # the short last chunk
    np.testing.assert_allclose(chunks[0]["state_in"], S0, **EXACT)
    np.testing.assert_allclose(chunks[-1]["state_out"], S, **EXACT)
    np.testing.assert_array_equal(S0, S0_copy)
    assert np.allclose(np.triu(chunks[0]["A"]), 0)  # strictly lower-triangular


def test_default_scale_is_inverse_sqrt_dk():
    q, k, v, g, beta, _ = delta_inputs(12, 5, K=9)
    np.testing.assert_allclose(kda(q, k, v, g, beta)[0], kda(q, k, v, g, beta, scale=1 / 3)[0], **EXACT)
