"""Cost models: what attention, its chunked linear forms and their decode caches compute, read and keep.

Plain functions of explicit arguments; N may be a numpy array (vectorised). Units:
* elements — numbers stored or moved (multiply by bytes per element for bytes);
* multiply-adds (madds) — one a·b + c;
* FLOPs — 2 per multiply-add (the Kimi Linear report's convention, KL §6.3).
Causal attention touches N(N+1)/2 ≈ N²/2 query-key pairs; the formulas use N²/2.
These are asymptotic counts with ILLUSTRATIVE constants, not GPU time (decode is bandwidth-bound).
"""

import numpy as np

# --- softmax attention as a function of N; D = heads·d_head ----------------------


def score_cells(N):
    """N² query-key score cells per head per layer: what training materialised before FlashAttention."""
    return np.asarray(N) ** 2


def prefill_attention_flops(N, D):
    """FLOPs per layer to prefill N tokens: QKᵀ and PV over the causal triangle,
    2 products × N²/2 pairs × D madds × 2 = 2·N²·D (KL eq. 14: 2T²d per head)."""
    return 2 * np.asarray(N) ** 2 * D


def decode_step_flops(N, D):
    """FLOPs per layer for one decode step against N cached tokens: q·k and p·v, 4·N·D."""
    return 4 * np.asarray(N) * D


def decode_step_reads(N, D):
    """Elements read per layer per decode step: the whole K and V cache, 2·N·D."""
    return 2 * np.asarray(N) * D


def decode_step_writes(D):
    """Elements appended per layer per decode step: one key and one value, 2·D."""
    return 2 * D


def kv_cache_elements(N, D, layers=1):
    """KV cache elements for N tokens: 2·N·D·layers (D = H_kv·d_head)."""
    return 2 * np.asarray(N) * D * layers


# --- chunked linear attention / KDA -------------------------------------------------


def chunked_linear_madds(T, d, C):
    """Chunked linear attention, per head: 2·T·d² (state work) + 2·T·C·d (within-chunk) madds.
    C = 1 is the recurrence; C = T is quadratic attention."""
    return 2 * np.asarray(T) * d**2 + 2 * np.asarray(T) * C * d


def reassociation_costs(T, K, V):
    """The two groupings of an unmasked Q·Kᵀ·V product for T tokens (per head).
    (QKᵀ)V: T²·(K+V) madds through a T×T middle; Q(KᵀV): 2·T·K·V madds through a K×V middle
    (the counts `linear.reassociate` returns, as plain arithmetic so large T costs nothing).
    With the causal mask (QKᵀ)V skips the masked half: query t scores and sums t keys, T(T+1)/2·(K+V)
    in all (madds_quadratic_causal); Q(KᵀV)'s count is the same either way (a running state, one
    K×V update and one read per token)."""
    T = np.asarray(T, dtype=np.int64)
    return dict(
        madds_quadratic=T * T * (K + V),
        madds_quadratic_causal=T * (T + 1) // 2 * (K + V),
        madds_linear=2 * T * K * V,
        middle_quadratic=T * T,
        middle_linear=np.full_like(T, K * V),
    )


def kda_chunked_flops(T, d, C=64):
    """KDA chunked forward per head, Kimi Linear eq. 13: 6·T·d² + 3·T·C·d + T·C² FLOPs."""
    T, C = np.asarray(T), np.asarray(C)
    return 6 * T * d**2 + 3 * T * C * d + T * C**2


def chunked_cost_terms(T, d, C, form="linear"):
    """The separate terms of a chunked cost per head, for drawing them apart.
    form "linear": chunked_linear_madds split into state = 2·T·d² and chunk = 2·T·C·d madds;
    form "kda": kda_chunked_flops split into state = 6·T·d², chunk = 3·T·C·d and
    local = T·C² FLOPs. The terms sum to the matching total function."""
    T, C = np.asarray(T), np.asarray(C)
    if form == "linear":
        return dict(state=2 * T * d**2 + 0 * C, chunk=2 * T * C * d)
    if form == "kda":
        return dict(state=6 * T * d**2 + 0 * C, chunk=3 * T * C * d, local=T * C**2)
    raise ValueError(f"unknown form {form!r}")


# --- per-layer decode memory ---------------------------------------------------------


def mla_decode_memory(N, d_c, d_r=0):
    """MLA latent cache per layer: N·(d_c + d_r) elements, grows with N."""
    return np.asarray(N) * (d_c + d_r)


def kda_decode_memory(heads, d_h):
    """KDA (any delta-rule / linear layer) state per layer: heads·d_h² elements, constant in N."""
    return heads * d_h**2
