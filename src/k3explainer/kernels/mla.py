"""Multi-head Latent Attention (DeepSeek-V2/V3, Kimi Linear / K3) — docs/kernels.md §7.

Time-major, H heads: one cached latent ĉ_t [d_c] per token (plus an optional shared rope key
k^R_t [d_r]); per-head up-projections W_UK [H, d_c, d_n] and W_UV [H, d_c, d_v] (row-vector
convention: k_{t,i} = ĉ_t @ W_UK[i]).

naive:    reconstruct K, V from the latents, then ordinary attention
absorbed: fold W_UK into the query (q̂ = W_UK q), attend over the latents themselves, apply
          W_UV after the weighted sum — the same numbers, because both maps are linear.
The scale is (d_n + d_r)^-1/2 in both forms.
"""

import numpy as np

from .activations import rms_norm
from .attention import causal_softmax


def rope(x, positions=None, *, base=10000.0):
    """Rotary embedding of `x [T, d]` (d even), rotating consecutive pairs (2j, 2j+1) by
    position·base^(−2j/d), as DeepSeek's `apply_rotary_emb` (complex view of pairs)."""
    x = np.asarray(x, dtype=np.float64)
    T, d = x.shape
    pos = np.arange(T) if positions is None else np.asarray(positions)
    angle = pos[:, None] * base ** (-np.arange(0, d, 2) / d)  # [T, d/2]
    cos, sin = np.cos(angle), np.sin(angle)
    x0, x1 = x[:, 0::2], x[:, 1::2]
    out = np.empty_like(x)
    out[:, 0::2] = x0 * cos - x1 * sin
    out[:, 1::2] = x0 * sin + x1 * cos
    return out


def mla_compress(x, W_dkv, kv_norm_weight, *, eps=1e-6):
    """ĉ = RMSNorm(x W_DKV): x [T, D], W_dkv [D, d_c] → latents [T, d_c], what gets cached."""
    return rms_norm(np.asarray(x, dtype=np.float64) @ W_dkv, kv_norm_weight, eps)


def mla_reconstruct(latents, W_uk, W_uv):
    """Up-project cached latents to per-head keys [T, H, d_n] and values [T, H, d_v]."""
    return np.einsum("sc,hcn->shn", latents, W_uk), np.einsum("sc,hcv->shv", latents, W_uv)


def _weights(nope_scores, q_rope, k_rope, scale):
    """Causal softmax over scale·(content scores + shared-rope scores), [H, T, T]."""
    if q_rope is not None:
        nope_scores = nope_scores + np.einsum("thr,sr->hts", q_rope, k_rope)  # one rope key for all heads
    return causal_softmax(scale * nope_scores)


def _scale(q_nope, q_rope, scale):
    d_r = 0 if q_rope is None else q_rope.shape[-1]
    return (q_nope.shape[-1] + d_r) ** -0.5 if scale is None else scale


def mla_attention_naive(q_nope, latents, W_uk, W_uv, *, q_rope=None, k_rope=None, scale=None):
    """q_nope [T, H, d_n], latents [T, d_c], optional q_rope [T, H, d_r] / k_rope [T, d_r]
    (already rotated). Returns (o [T, H, d_v] per-head outputs before W_O, weights [H, T, T])."""
    k_nope, v = mla_reconstruct(latents, W_uk, W_uv)  # [T, H, d_n], [T, H, d_v]
    w = _weights(np.einsum("thn,shn->hts", q_nope, k_nope), q_rope, k_rope, _scale(q_nope, q_rope, scale))
    return np.einsum("hts,shv->thv", w, v), w


def mla_attention_absorbed(q_nope, latents, W_uk, W_uv, *, q_rope=None, k_rope=None, scale=None):
    """Same signature and result as `mla_attention_naive`, never materialising per-head K or V.
    RoPE cannot be absorbed (a position-dependent rotation sits between W_UK and q), which is
    why the rope part is a separate shared key."""
    q_lat = np.einsum("thn,hcn->thc", q_nope, W_uk)  # [T, H, d_c] q̂ = W_UKᵀ q^C, scores live in the latent
    w = _weights(np.einsum("thc,sc->hts", q_lat, latents), q_rope, k_rope, _scale(q_nope, q_rope, scale))
    o_lat = np.einsum("hts,sc->thc", w, latents)  # [T, H, d_c] weighted sum of cached latents
    return np.einsum("thc,hcv->thv", o_lat, W_uv), w


# KV cache per token per layer, in elements (multiply by bytes per element for memory).


def mha_cache_per_token(n_heads, d_head):
    """Keys and values of every head: 2·H·d_head (GPT-2 small: 1536)."""
    return 2 * n_heads * d_head


def gqa_cache_per_token(n_kv_heads, d_head):
    """Grouped-query attention stores only the shared kv heads: 2·H_kv·d_head."""
    return 2 * n_kv_heads * d_head


def mqa_cache_per_token(d_head):
    """Multi-query attention: one key and one value head, 2·d_head."""
    return 2 * d_head


def mla_cache_per_token(d_c, d_r=0):
    """Absorbed MLA caches the latent and the shared rope key: d_c + d_r (DeepSeek-V2/V3: 576)."""
    return d_c + d_r
