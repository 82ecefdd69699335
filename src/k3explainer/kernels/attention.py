"""Causal softmax attention (GPT-2) and KV-cache decoding, one head — docs/kernels.md §2.

Time-major: q, k [T, K], v [T, V]. Scale multiplies the scores (equivalently q), default K^-1/2.
"""

import numpy as np

from .activations import softmax


def default_scale(d_k, scale=None):
    """`scale=None` means d_k^-1/2, the FLA / GPT-2 default."""
    return d_k**-0.5 if scale is None else scale


def causal_mask(T):
    """[T, T] boolean, True where key s is visible to query t (s ≤ t)."""
    return np.tril(np.ones((T, T), dtype=bool))


def causal_softmax(logits):
    """Row-wise stable softmax of `logits [..., T, T]` with future keys set to −∞ (weight 0)."""
    T = logits.shape[-1]
    return softmax(np.where(causal_mask(T), logits, -np.inf), axis=-1)


def causal_softmax_attention(q, k, v, *, scale=None, trace=False):
    """O = softmax(scale·QKᵀ + M) V.  Returns (o [T, V], weights [T, T]).

    With `trace=True` also returns a dict of the intermediates a figure shows
    (raw scores q·k, scaled scores, mask, weights, output), all from this one computation.
    """
    q, k, v = (np.asarray(a, dtype=np.float64) for a in (q, k, v))
    T, K = q.shape
    scale = default_scale(K, scale)
    raw = q @ k.T  # [T, T] q_t·k_s for every pair, masked or not
    scaled = scale * raw
    weights = causal_softmax(scaled)  # [T, T] rows sum to 1, zero above the diagonal
    o = weights @ v  # [T, V] convex combination of v_1..v_t
    if not trace:
        return o, weights
    return (
        o,
        weights,
        dict(scale=scale, raw_scores=raw, scaled_scores=scaled, mask=causal_mask(T), weights=weights, output=o),
    )


def decode_with_kv_cache(q, k, v, *, scale=None, n_prefill=0):
    """Autoregressive decoding with a KV cache.

    The first `n_prefill` tokens are processed at once by the full causal pass (prefill) and
    seed the cache; every later step appends only (k_t, v_t) and attends with the new q_t alone.
    Returns a dict: `outputs [T, V]` and, per decode step, `cache_tokens`, `reads` (cached
    elements read, cache_tokens·(K+V)) and `writes` (K+V elements appended).
    """
    q, k, v = (np.asarray(a, dtype=np.float64) for a in (q, k, v))
    T, K = q.shape
    V = v.shape[1]
    scale = default_scale(K, scale)
    o = np.empty((T, V))
    if n_prefill:
        o[:n_prefill] = causal_softmax_attention(q[:n_prefill], k[:n_prefill], v[:n_prefill], scale=scale)[0]
    k_cache, v_cache = k[:n_prefill], v[:n_prefill]  # [n, K], [n, V]
    sizes = []
    for t in range(n_prefill, T):
        k_cache = np.vstack([k_cache, k[t]])  # only k_t, v_t are new; the past is re-used
        v_cache = np.vstack([v_cache, v[t]])
        w = softmax(scale * (k_cache @ q[t]))  # [t+1] no mask: the cache holds only the past
        o[t] = w @ v_cache
        sizes.append(len(k_cache))
    sizes = np.array(sizes, dtype=np.int64)
    return dict(outputs=o, cache_tokens=sizes, reads=sizes * (K + V), writes=np.full(len(sizes), K + V))
