import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

from k3explainer.kernels import (
    causal_softmax_attention,
    gqa_cache_per_token,
    mha_cache_per_token,
    mla_attention_absorbed,
    mla_attention_naive,
    mla_cache_per_token,
    mla_compress,
    mla_reconstruct,
    mqa_cache_per_token,
    rope,
)

from .helpers import EXACT, FAST


def mla_inputs(seed, T, H=3, D=10, d_c=6, d_n=4, d_v=5, d_r=2):
    rng = np.random.default_rng(seed)
    x = rng.standard_normal((T, D))
    return dict(
        q_nope=rng.standard_normal((T, H, d_n)),
        latents=mla_compress(x, rng.standard_normal((D, d_c)), rng.uniform(0.5, 1.5, d_c)),
        W_uk=rng.standard_normal((H, d_c, d_n)) / np.sqrt(d_c),
        W_uv=rng.standard_normal((H, d_c, d_v)) / np.sqrt(d_c),
        q_rope=np.stack([rope(rng.standard_normal((T, d_r))) for _ in range(H)], axis=1),  # [T, H, d_r]
        k_rope=rope(rng.standard_normal((T, d_r))),  # [T, d_r] one key shared by all heads
    )


@FAST
@given(seed=st.integers(0, 2**32 - 1), T=st.integers(1, 12), H=st.integers(1, 4), with_rope=st.booleans())
def test_absorbed_equals_naive(seed, T, H, with_rope):
    p = mla_inputs(seed, T, H=H)
    if not with_rope:
        p.pop("q_rope"), p.pop("k_rope")
    o1, w1 = mla_attention_naive(**p)
    o2, w2 = mla_attention_absorbed(**p)
    np.testing.assert_allclose(o2, o1, **EXACT)
    np.testing.assert_allclose(w2, w1, **EXACT)
    assert o1.shape == (T, H, 5) and w1.shape == (H, T, T)


def test_default_scale_counts_rope_dims():
    p = mla_inputs(1, 6)
    np.testing.assert_allclose(mla_attention_naive(**p)[0], mla_attention_naive(**p, scale=(4 + 2) ** -0.5)[0], **EXACT)
    p.pop("q_rope"), p.pop("k_rope")
    np.testing.assert_allclose(mla_attention_absorbed(**p)[0], mla_attention_absorbed(**p, scale=0.5)[0], **EXACT)


def test_naive_uses_reconstructed_keys_and_values():
    p = mla_inputs(2, 5, H=2)
    p.pop("q_rope"), p.pop("k_rope")
    k, v = mla_reconstruct(p["latents"], p["W_uk"], p["W_uv"])
    o, _ = mla_attention_naive(**p)
    for h in range(2):  # each head is ordinary causal attention over its reconstructed K/V
        ref, _ = causal_softmax_attention(p["q_nope"][:, h], k[:, h], v[:, h])
        np.testing.assert_allclose(o[:, h], ref, **EXACT)


def test_single_head_identity_projections_is_mqa_over_the_latent():
    rng = np.random.default_rng(3)
    c = rng.standard_normal((6, 4))
    q = rng.standard_normal((6, 1, 4))
    o, _ = mla_attention_absorbed(q, c, np.eye(4)[None], np.eye(4)[None])
    ref, _ = causal_softmax_attention(q[:, 0], c, c)
    np.testing.assert_allclose(o[:, 0], ref, **EXACT)


def test_rope_preserves_norm_and_depends_on_relative_position():
    rng = np.random.default_rng(4)
    a, b = rng.standard_normal(8), rng.standard_normal(8)
    ra = rope(np.tile(a, (10, 1)))
    rb = rope(np.tile(b, (10, 1)))
    np.testing.assert_allclose(np.linalg.norm(ra, axis=1), np.linalg.norm(a), **EXACT)
    np.testing.assert_allclose(ra[0], a, **EXACT)  # position 0 is the identity
    np.testing.assert_allclose(ra[7] @ rb[3], ra[5] @ rb[1], atol=1e-12)  # both offset 4
    assert abs(ra[7] @ rb[3] - ra[5] @ rb[4]) > 1e-6


def test_mla_compress_is_rms_normalised():
    rng = np.random.default_rng(5)
    c = mla_compress(rng.standard_normal((4, 7)), rng.standard_normal((7, 3)), np.ones(3), eps=0.0)
    np.testing.assert_allclose(np.mean(c**2, axis=1), 1.0, **EXACT)


def test_cache_sizes_per_token():
    assert mha_cache_per_token(12, 64) == 1536  # GPT-2 small
    assert mha_cache_per_token(128, 128) == 32768  # DeepSeek-V2 MHA
    assert mla_cache_per_token(512, 64) == 576
    assert mha_cache_per_token(128, 128) / mla_cache_per_token(512, 64) == pytest.approx(56.9, abs=0.05)
    assert mla_cache_per_token(512, 64) / gqa_cache_per_token(1, 128) == 2.25  # = GQA with 2.25 groups
    assert mqa_cache_per_token(128) == gqa_cache_per_token(1, 128) == 256
