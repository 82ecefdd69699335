import numpy as np
import pytest

from k3explainer.kernels import attention_residual, block_attention_residuals, residual_shares, rms_norm, softmax

from .helpers import EXACT


def test_zero_query_is_the_plain_mean():
    src = np.random.default_rng(0).standard_normal((5, 3, 6))  # [L, T, D]
    h, w = attention_residual(src, np.zeros(6), np.ones(6))
    np.testing.assert_allclose(h, src.mean(axis=0), **EXACT)
    np.testing.assert_allclose(w, 0.2, **EXACT)


def test_weights_sum_to_one_and_single_source_is_identity():
    rng = np.random.default_rng(1)
    src = rng.standard_normal((4, 7, 5))
    h, w = attention_residual(src, rng.standard_normal(5), rng.uniform(0.5, 2, 5), scale=2.0)
    np.testing.assert_allclose(w.sum(axis=0), 1.0, **EXACT)
    h1, w1 = attention_residual(src[:1], rng.standard_normal(5), np.ones(5))
    np.testing.assert_allclose(h1, src[0], **EXACT)


def test_hand_example():
    src = np.array([[3.0, 4.0], [1.0, -1.0]])  # rms 3.5355.., 1
    q = np.array([1.0, 0.0])
    h, w = attention_residual(src, q, np.ones(2), eps=0.0)
    logits = np.array([3.0 / np.sqrt(12.5), 1.0])
    np.testing.assert_allclose(w, softmax(logits), **EXACT)
    np.testing.assert_allclose(h, w[0] * src[0] + w[1] * src[1], **EXACT)


def test_scaling_a_source_keeps_its_weight_but_scales_its_contribution():
    rng = np.random.default_rng(2)
    src = rng.standard_normal((3, 4))
    q, g = rng.standard_normal(4), rng.uniform(0.5, 2, 4)
    _, w = attention_residual(src, q, g, eps=0.0)
    scaled = src.copy()
    scaled[1] *= 7.0
    h2, w2 = attention_residual(scaled, q, g, eps=0.0)
    np.testing.assert_allclose(w2, w, **EXACT)
    np.testing.assert_allclose(h2, w[0] * src[0] + 7 * w[1] * src[1] + w[2] * src[2], **EXACT)


def toy_stack(n_layers, D, seed=3):
    rng = np.random.default_rng(seed)
    mats = rng.standard_normal((n_layers, D, D)) / np.sqrt(D)
    return rng.standard_normal(D), [lambda h, M=M: np.tanh(h @ M) for M in mats]


def test_full_attnres_with_zero_queries_averages_all_earlier_outputs():
    emb, layers = toy_stack(6, 4)
    r = block_attention_residuals(emb, layers, np.zeros((6, 4)), np.ones(4), block_size=1)
    sources = [emb]
    for l, f in enumerate(layers):  # reference: each layer reads the mean of embedding + all outputs so far
        np.testing.assert_allclose(r["inputs"][l], np.mean(sources, axis=0), **EXACT)
        sources.append(f(r["inputs"][l]))
    np.testing.assert_allclose(r["sources"], np.stack(sources), **EXACT)


def test_one_block_mixes_embedding_with_the_running_sum():
    emb, layers = toy_stack(5, 4)
    r = block_attention_residuals(emb, layers, np.zeros((5, 4)), np.ones(4), block_size=8)
    np.testing.assert_allclose(r["inputs"][0], emb, **EXACT)  # first layer: one source, identity
    partial = layers[0](r["inputs"][0])
    for l in range(1, 5):
        np.testing.assert_allclose(r["inputs"][l], (emb + partial) / 2, **EXACT)
        partial = partial + layers[l](r["inputs"][l])


@pytest.mark.parametrize("n_layers, block_size, n_sources", [(93, 12, 9), (10, 3, 5), (6, 3, 3), (27, 1, 28)])
def test_block_source_counts(n_layers, block_size, n_sources):
    D = 3
    rng = np.random.default_rng(4)
    layers = [lambda h: 0.5 * h] * n_layers
    r = block_attention_residuals(
        np.ones(D),
        layers,
        rng.standard_normal((n_layers, D)),
        np.ones(D),
        block_size=block_size,
        final_query=rng.standard_normal(D),
    )
    expected = [1 + l // block_size + (l % block_size > 0) for l in range(n_layers)]
    assert [len(w) for w in r["weights"]] == expected
    assert len(r["sources"]) == n_sources == len(r["output_weights"])
    np.testing.assert_allclose(r["output_weights"].sum(), 1.0, **EXACT)


def test_residual_shares():
    s = residual_shares(8)
    assert len(s) == 9 and s[8] == pytest.approx(1 / 9)
    np.testing.assert_allclose(s.sum(), 1.0, **EXACT)


def test_kept_keys_give_the_same_bits_as_keys_normalised_in_the_call():
    """residual_stack and depth_experiment pass each source's key normalised once (`keys`); the
    stack's keys, normalised together or one source at a time, are the same numbers."""
    rng = np.random.default_rng(9)
    src = rng.standard_normal((7, 5, 16)) * rng.uniform(0.1, 10, (7, 5, 1))
    q, g = rng.standard_normal(16), rng.uniform(0.5, 2, 16)
    keys = np.stack([rms_norm(s, g, 1e-6) for s in src])
    h, w = attention_residual(src, q, g)
    h_kept, w_kept = attention_residual(src, q, g, keys=keys)
    assert np.array_equal(h, h_kept) and np.array_equal(w, w_kept)
