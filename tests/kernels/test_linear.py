import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

from k3explainer.kernels import elu_plus_one, linear_attention, reassociate

from .helpers import EXACT, FAST


def phi_qkv(seed, T, K=4, V=3):
    rng = np.random.default_rng(seed)
    q, k = elu_plus_one(rng.standard_normal((2, T, K)))
    return q, k, rng.standard_normal((T, V))


def test_elu_plus_one_values():
    np.testing.assert_allclose(elu_plus_one([-1.0, 0.0, 1.0, 2.5]), [np.exp(-1), 1.0, 2.0, 3.5], **EXACT)
    assert np.all(elu_plus_one(np.linspace(-30, 30, 101)) > 0)


@FAST
@given(
    seed=st.integers(0, 2**32 - 1),
    T=st.integers(1, 30),
    C=st.sampled_from([1, 2, 3, 7, 64]),
    normalize=st.booleans(),
    scale=st.sampled_from([1.0, 0.5]),
)
def test_recurrent_parallel_chunked_agree(seed, T, C, normalize, scale):
    q, k, v = phi_qkv(seed, T)
    kw = dict(scale=scale, normalize=normalize)
    rec = linear_attention(q, k, v, form="recurrent", **kw)
    np.testing.assert_allclose(linear_attention(q, k, v, form="parallel", **kw), rec, **EXACT)
    np.testing.assert_allclose(linear_attention(q, k, v, form="chunked", chunk_size=C, **kw), rec, **EXACT)


def test_two_token_hand_example():
    q = np.array([[1.0, 2.0], [0.5, 1.0]])
    k = np.array([[2.0, 1.0], [1.0, 1.0]])
    v = np.array([[1.0], [10.0]])
    o = linear_attention(q, k, v)
    np.testing.assert_allclose(o, [[4.0], [2.0 * 1 + 1.5 * 10]], **EXACT)
    on = linear_attention(q, k, v, normalize=True, eps=0.0)
    np.testing.assert_allclose(on, [[1.0], [(2.0 + 15.0) / 3.5]], **EXACT)


def test_normalised_constant_values_give_that_constant():
    q, k, _ = phi_qkv(1, 12)
    v = np.tile([2.0, -3.0, 0.5], (12, 1))
    np.testing.assert_allclose(linear_attention(q, k, v, normalize=True), v, rtol=1e-9)


def test_scale_cancels_only_with_normaliser():
    q, k, v = phi_qkv(2, 8)
    a = linear_attention(q, k, v, normalize=True, scale=1.0)
    b = linear_attention(q, k, v, normalize=True, scale=8**-0.5)
    np.testing.assert_allclose(a, b, rtol=1e-9)
    np.testing.assert_allclose(linear_attention(q, k, v, scale=0.5), 0.5 * linear_attention(q, k, v), **EXACT)


def test_reassociation_is_exact_and_counts_madds():
    q, k, v = phi_qkv(3, 5, K=3, V=2)
    r = reassociate(q, k, v)
    np.testing.assert_allclose(r["quadratic"], r["linear"], **EXACT)
    assert r["scores"].shape == (5, 5) and r["state"].shape == (3, 2)
    assert r["madds_quadratic"] == 25 * 3 + 25 * 2 and r["madds_linear"] == 2 * 5 * 3 * 2


def test_unknown_form_rejected():
    q, k, v = phi_qkv(4, 3)
    with pytest.raises(ValueError):
        linear_attention(q, k, v, form="fast")


def test_similarity_kernels_positive_weights_match_softmax_and_normalised_linear_attention():
    from k3explainer.kernels import similarity_kernels, softmax

    rng = np.random.default_rng(3)
    q, k = rng.standard_normal((1, 4)), rng.standard_normal((6, 4))
    s = similarity_kernels(q, k)
    assert np.all(s["exp"] > 0) and np.all(s["elu"] > 0)
    np.testing.assert_allclose(s["exp_weights"], softmax(q @ k.T), **EXACT)
    # the last row of causal normalised linear attention with v = I sees every key
    la = linear_attention(np.repeat(elu_plus_one(q), 6, axis=0), elu_plus_one(k), np.eye(6), normalize=True, eps=0.0)
    np.testing.assert_allclose(s["elu_weights"][0], la[-1], **EXACT)
    # not a rescaled copy: the ratio varies
    ratio = s["exp"] / s["elu"]
    assert ratio.max() / ratio.min() > 1.1
