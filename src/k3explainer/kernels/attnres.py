"""Attention Residuals: softmax attention over depth — docs/kernels.md §9 (FLA ops/attnres/naive.py).

Sources v_0..v_{L−1} (embedding and earlier layer/block outputs), each [..., D]:
    k_i = RMSNorm(v_i) ⊙ γ,  α = softmax_i(scale·w·k_i),  h = Σ_i α_i v_i
with w a learned per-layer pseudo-query (zero-initialised → plain mean of the sources).
"""

import numpy as np

from .activations import rms_norm, softmax


def attention_residual(sources, query, rms_weight, *, eps=1e-6, scale=1.0, keys=None):
    """sources [L, ..., D], query [D], rms_weight [D] → (h [..., D], weights [L, ...]).

    `keys`: rms_norm(sources, rms_weight, eps), when the caller keeps it (a source's key does not
    change as later sources are added, and RMSNorm normalises each vector on its own)."""
    sources = np.asarray(sources, dtype=np.float64)
    if keys is None:
        keys = rms_norm(sources, rms_weight, eps)  # [L, ..., D] normalised keys: magnitude can't buy weight
    weights = softmax(scale * (keys @ query), axis=0)  # [L, ...] over the depth axis
    return np.einsum("l...,l...d->...d", weights, sources), weights  # values are the raw sources


def block_attention_residuals(embedding, layers, queries, rms_weight, *, block_size, final_query=None, eps=1e-6):
    """Block AttnRes over a toy stack.

    `layers` are callables f_l(h) → layer output; `queries` [L, D] one pseudo-query per layer.
    Inside a block outputs are summed (partial sum b_n^i); layer l reads AttnRes over
    [b_0 = embedding, completed block sums b_1..b_{n−1}, b_n^i if non-empty]. `block_size=1`
    is full AttnRes over every layer output. Returns a dict: inputs [L, ..., D] (what each layer
    read), weights (list of [n_sources, ...]), sources (the final block sums [n, ..., D]) and,
    with `final_query`, output / output_weights (the mix before the LM head).
    """
    blocks = [np.asarray(embedding, dtype=np.float64)]  # b_0, b_1, ... completed sums
    partial = None  # running sum of the current block's layer outputs
    inputs, weights = [], []
    for l, (f, w) in enumerate(zip(layers, queries, strict=True)):
        sources = blocks if partial is None else blocks + [partial]
        h, a = attention_residual(np.stack(sources), w, rms_weight, eps=eps)
        out = f(h)
        partial = out if partial is None else partial + out
        if (l + 1) % block_size == 0:  # block complete: it becomes one source for all later layers
            blocks.append(partial)
            partial = None
        inputs.append(h)
        weights.append(a)
    sources = np.stack(blocks if partial is None else blocks + [partial])
    result = dict(inputs=np.stack(inputs), weights=weights, sources=sources)
    if final_query is not None:
        result["output"], result["output_weights"] = attention_residual(sources, final_query, rms_weight, eps=eps)
    return result


def residual_shares(n_layers):
    """Plain residual h_n = x_0 + Σ_{i≤n} f_i: embedding and each of n layer outputs enter with
    weight 1, so each is 1/(n+1) of the mix (layer 8's share after 8 layers is 1/9). [n+1]."""
    return np.full(n_layers + 1, 1.0 / (n_layers + 1))
