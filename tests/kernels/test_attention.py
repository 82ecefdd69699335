import numpy as np
from hypothesis import given
from hypothesis import strategies as st

from k3explainer.kernels import causal_softmax_attention, decode_with_kv_cache

from .helpers import EXACT, FAST


def qkv(seed, T, K=4, V=3):
    rng = np.random.default_rng(seed)
    return rng.standard_normal((T, K)), rng.standard_normal((T, K)), rng.standard_normal((T, V))


def reference(q, k, v, scale):
    """Row by row, straight from the definition (no max subtraction, no mask matrix)."""
    o = np.empty((len(q), v.shape[1]))
    for t in range(len(q)):
        e = np.exp(scale * (k[: t + 1] @ q[t]))
        o[t] = (e / e.sum()) @ v[: t + 1]
    return o


@FAST
@given(seed=st.integers(0, 2**32 - 1), T=st.integers(1, 20))
def test_softmax_attention_matches_definition_and_rows_sum_to_one(seed, T):
    q, k, v = qkv(seed, T)
    o, w = causal_softmax_attention(q, k, v)
    np.testing.assert_allclose(o, reference(q, k, v, 0.5), **EXACT)  # K = 4 → scale 1/2
    np.testing.assert_allclose(w.sum(axis=1), 1.0, **EXACT)
    assert np.all(np.triu(w, 1) == 0)
    for t in range(T):  # convex combination of v_1..v_t
        assert np.all(o[t] <= v[: t + 1].max(axis=0) + 1e-12) and np.all(o[t] >= v[: t + 1].min(axis=0) - 1e-12)


def test_stable_with_huge_logits():
    q, k, v = qkv(1, 6)
    o, w = causal_softmax_attention(1000 * q, k, v)
    assert np.isfinite(o).all() and np.isfinite(w).all()
    np.testing.assert_allclose(w.sum(axis=1), 1.0, **EXACT)


@FAST
@given(seed=st.integers(0, 2**32 - 1), T=st.integers(1, 16), n_prefill=st.integers(0, 16))
def test_decode_with_cache_equals_full_causal_pass(seed, T, n_prefill):
    n_prefill = min(n_prefill, T)
    q, k, v = qkv(seed, T)
    full, _ = causal_softmax_attention(q, k, v, scale=0.7)
    dec = decode_with_kv_cache(q, k, v, scale=0.7, n_prefill=n_prefill)
    np.testing.assert_allclose(dec["outputs"], full, **EXACT)
    np.testing.assert_array_equal(dec["cache_tokens"], np.arange(n_prefill + 1, T + 1))
    np.testing.assert_array_equal(dec["reads"], dec["cache_tokens"] * (4 + 3))
    assert np.all(dec["writes"] == 4 + 3)


def test_appending_tokens_never_changes_earlier_outputs():
    q, k, v = qkv(2, 9)
    o_short, _ = causal_softmax_attention(q[:5], k[:5], v[:5])
    o_long, _ = causal_softmax_attention(q, k, v)
    np.testing.assert_allclose(o_long[:5], o_short, **EXACT)


def test_first_token_sees_only_itself():
    q, k, v = qkv(4, 3)
    o, w = causal_softmax_attention(q, k, v)
    np.testing.assert_allclose(o[0], v[0], **EXACT)
    assert w[0, 0] == 1.0
