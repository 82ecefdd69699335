"""Cost models for the cost and complexity figures (FIG 03, 04, 09, 15, 15b, 16).

Plain functions of explicit arguments; N may be a numpy array (vectorised). Units:
* elements — numbers stored or moved (multiply by bytes per element for bytes);
* multiply-adds (madds) — one a·b + c;
* FLOPs — 2 per multiply-add (the Kimi Linear report's convention, KL §6.3).
Causal attention touches N(N+1)/2 ≈ N²/2 query-key pairs; the formulas use N²/2.
These are asymptotic counts with ILLUSTRATIVE constants, not GPU time (decode is bandwidth-bound).
"""

import numpy as np

# --- softmax attention as a function of N (FIG 03, 04); D = heads·d_head ----------------------


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


# --- chunked linear attention / KDA (FIG 15b) -------------------------------------------------


def chunked_linear_madds(T, d, C):
    """Chunked linear attention, per head: 2·T·d² (state work) + 2·T·C·d (within-chunk) madds.
    C = 1 is the recurrence; C = T is quadratic attention."""
    return 2 * np.asarray(T) * d**2 + 2 * np.asarray(T) * C * d


def chunk_cost_per_token(C, d):
    """Per token per head: 2·d² + 2·C·d madds (chunked_linear_madds with T = 1)."""
    return chunked_linear_madds(1, d, np.asarray(C))


def reassociation_costs(T, K, V):
    """FIG 05: the two groupings of an unmasked Q·Kᵀ·V product for T tokens (per head).
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
    """The separate terms of a chunked cost per head, for drawing them apart (FIG 15b).
    form "linear": chunked_linear_madds split into state = 2·T·d² and chunk = 2·T·C·d madds;
    form "kda": kda_chunked_flops split into state = 6·T·d², chunk = 3·T·C·d and
    local = T·C² FLOPs. The terms sum to the matching total function."""
    T, C = np.asarray(T), np.asarray(C)
    if form == "linear":
        return dict(state=2 * T * d**2 + 0 * C, chunk=2 * T * C * d)
    if form == "kda":
        return dict(state=6 * T * d**2 + 0 * C, chunk=3 * T * C * d, local=T * C**2)
    raise ValueError(f"unknown form {form!r}")


# --- per-layer decode memory (FIG 09) ---------------------------------------------------------


def mla_decode_memory(N, d_c, d_r=0):
    """MLA latent cache per layer: N·(d_c + d_r) elements, grows with N."""
    return np.asarray(N) * (d_c + d_r)


def kda_decode_memory(heads, d_h):
    """KDA (any delta-rule / linear layer) state per layer: heads·d_h² elements, constant in N."""
    return heads * d_h**2


def stack_decode_memory(layout, N, *, kda_heads, d_h, d_c, d_r=0):
    """Decode memory per layer for a stack `layout` (sequence of "kda" / "mla"): [n_layers, *N.shape]
    elements. Sum over axis 0 for the total."""
    kda = np.broadcast_to(kda_decode_memory(kda_heads, d_h), np.shape(N))
    return np.stack([mla_decode_memory(N, d_c, d_r) if kind == "mla" else kda for kind in layout])


# --- mechanism × phase (FIG 15, 16) -----------------------------------------------------------

MECHANISMS = ("softmax", "flash", "linear", "kda", "mla", "hybrid")


def mechanism_costs(mechanism, phase, N, *, d_h=128, heads=1, d_c=512, d_r=0, C=64):
    """Per-layer cost of one attention mechanism in one phase, with N tokens of context.

    mechanism: "softmax" (materialised scores + KV cache), "flash" (FlashAttention: same FLOPs,
    scores never stored), "linear" (elu+1 linear attention), "kda" (chunked delta rule / KDA),
    "mla" (latent cache; naive form for prefill, absorbed for decode), "hybrid" (3/4 KDA +
    1/4 MLA per layer, the 3:1 stack averaged). phase: "prefill" (process N tokens) or "decode"
    (one new token; N counts the context including that token, so decode over t = 1 … N sums to
    the prefill cost of softmax attention).

    What is counted: the attention operator from the form a mechanism stores onwards. The
    projections every mechanism applies to the layer input (W_Q, W_K, W_V, MLA's down-projection
    to the latent, W_O) are left out; MLA's up-projections out of the latent are counted, because
    they are where its two forms differ. Weights are never counted as reads (they are shared by
    every sequence in a batch). Returns a dict of:
      flops — FLOPs (2 per multiply-add), the sum of flops_parts;
      reads — elements read, the sum of reads_parts: prefill, the operator's inputs (q, k, v
              [, gates]), plus the score matrix read back when it is materialised (softmax) and
              the keys and values rebuilt from the latents (MLA); decode, the cache or state only
              (the new token's own vectors, a few D elements, are left out);
      kept  — elements that persist after the phase (KV cache, latent cache or state);
      peak  — kept + the N² score matrix when it is materialised (softmax prefill): FIG 15's
              memory. Other transients are not counted (MLA prefill's rebuilt keys and values,
              2·N·heads·d_h, which an implementation may rebuild tile by tile);
      flops_parts, reads_parts — the named terms of flops and reads, in the order a figure
              lists them (for the hybrid: "kda" and "mla", each its layers' share).
    All heads of the layer: D = heads·d_h; MLA keeps one latent per token shared by all heads.
    """
    if mechanism not in MECHANISMS:
        raise ValueError(f"unknown mechanism {mechanism!r}")
    if phase not in ("prefill", "decode"):
        raise ValueError(f"unknown phase {phase!r}")
    N = np.asarray(N, dtype=np.float64)
    D = heads * d_h
    if mechanism == "hybrid":
        kda, mla = (mechanism_costs(m, phase, N, d_h=d_h, heads=heads, d_c=d_c, d_r=d_r, C=C) for m in ("kda", "mla"))
        out = {key: 0.75 * kda[key] + 0.25 * mla[key] for key in ("flops", "reads", "kept", "peak")}
        for key in ("flops", "reads"):
            out[f"{key}_parts"] = {"kda": 0.75 * kda[key], "mla": 0.25 * mla[key]}
        return out
    const = lambda x: np.full_like(N, x)  # a count that does not depend on N
    state = const(kda_decode_memory(heads, d_h))
    latent = mla_decode_memory(N, d_c, d_r)
    scores = heads * N**2 if (mechanism, phase) == ("softmax", "prefill") else np.zeros_like(N)
    if phase == "prefill":
        qkv = {"queries": N * D, "keys": N * D, "values": N * D}
        half = prefill_attention_flops(N, D) / 2  # QKᵀ or PV over the causal triangle: N²·D FLOPs each
        if mechanism in ("softmax", "flash"):
            flops = {"scores": half, "mix": half}
            reads = {**qkv, "scores": scores} if mechanism == "softmax" else qkv
            kept = kv_cache_elements(N, D)
        elif mechanism == "linear":
            terms = chunked_cost_terms(N, d_h, C, "linear")  # madds per head → FLOPs for all heads
            flops = {"state": 2 * heads * terms["state"], "chunk": 2 * heads * terms["chunk"]}
            reads, kept = qkv, state
        elif mechanism == "kda":
            flops = {k: heads * v for k, v in chunked_cost_terms(N, d_h, C, "kda").items()}
            reads = {**qkv, "gates": N * D, "beta": N * heads}  # per-channel decay g [N, D], β [N, H]
            kept = state
        else:  # mla, naive form: rebuild k and v from the latents, then causal attention
            flops = {
                "rebuild": 2 * N * d_c * 2 * D,  # W_UK c and W_UV c for every token
                "scores": N**2 * heads * (d_h + d_r),  # q·k over d_h (+ d_r shared key), N²/2 pairs
                "mix": N**2 * D,  # p·v over d_h
            }
            reads = {"queries": N * heads * (d_h + d_r), "latents": latent, "rebuilt": 2 * N * D}
            kept = latent
    else:
        if mechanism in ("softmax", "flash"):
            half = decode_step_flops(N, D) / 2  # q·k and p·v against N cached tokens: 2·N·D each
            flops = {"scores": half, "mix": half}
            reads, kept = {"cache": decode_step_reads(N, D)}, kv_cache_elements(N, D)
        elif mechanism == "linear":  # write k vᵀ, read Sᵀq
            flops = {"write": const(2 * heads * d_h**2), "read": const(2 * heads * d_h**2)}
            reads, kept = {"state": state}, state
        elif mechanism == "kda":  # facts: "~6-7 d_k d_v" per head
            flops = {
                "decay": const(heads * d_h**2),
                "recall": const(2 * heads * d_h**2),
                "write": const(2 * heads * d_h**2),
                "read": const(2 * heads * d_h**2),
            }
            reads, kept = {"state": state}, state
        else:  # mla, absorbed form: every head works in the d_c-wide latent space
            flops = {
                "fold": const(2 * 2 * heads * d_c * d_h),  # q through W_UK into the latent space, output through W_UV
                "scores": 2 * N * heads * (d_c + d_r),  # q̃·c (+ q_r·k_r) for every cached token, every head
                "mix": 2 * N * heads * d_c,  # p·c: the weighted sum of latents, every head
            }
            reads, kept = {"latents": latent}, latent
    return dict(
        flops=sum(flops.values()),
        reads=sum(reads.values()),
        kept=kept,
        peak=kept + scores,
        flops_parts=flops,
        reads_parts=reads,
    )


def complexity_curves(N, *, d_h=128, layers=32, d_c=32, d_r=0, C=64, heads=1):
    """FIG 15: for every mechanism, compute (prefill FLOPs over N tokens) and memory (peak
    elements) vs N, for a stack of `layers` identical layers. Defaults are the figure's
    ILLUSTRATIVE constants d_h = 128, L = 32 layers, d_c = 32, C = 64.

    The stack runs layer after layer, so its peak is every layer's kept cache or state plus the
    transient of the one layer being computed (the score matrix, where it is materialised):
    L·kept + (peak − kept), not L·peak. (Training keeps every layer's scores for the backward pass;
    a prefill frees each layer's before the next starts.)"""
    curves = {}
    for m in MECHANISMS:
        c = mechanism_costs(m, "prefill", N, d_h=d_h, heads=heads, d_c=d_c, d_r=d_r, C=C)
        curves[m] = dict(compute=layers * c["flops"], memory=layers * c["kept"] + (c["peak"] - c["kept"]))
    return curves


# --- chunk-size time model (FIG 15b) ----------------------------------------------------------
# Counting multiply-adds alone, C = 1 is cheapest (chunked_linear_madds grows with C), yet kernels
# run C = 64. What the count leaves out is time: the chunks are processed one after another, and
# a matrix multiply whose tiles are C rows wide runs below the hardware's peak when C is small.
# The model below adds exactly those two effects to the count. Its constants are ILLUSTRATIVE.


def tile_efficiency(C, c_half):
    """Fraction of peak matrix-multiply throughput reached with tiles C rows wide, modelled with
    Hockney's half-performance length: η(C) = C / (C + c_half), so η(c_half) = 1/2 and η → 1 as
    C grows (η(4·c_half) = 0.8). c_half stands for the fixed cost of issuing a tensor-core
    instruction whose tile rows are mostly empty when C is small."""
    C = np.asarray(C, dtype=np.float64)
    return C / (C + c_half)


def chunk_work_madds(T, d, C, form="linear"):
    """Multiply-adds of one head's chunked pass: chunked_linear_madds for "linear", and KDA's
    eq. 13 FLOPs halved (2 FLOPs per multiply-add) for "kda"."""
    if form == "linear":
        return np.asarray(chunked_linear_madds(T, d, np.asarray(C)), dtype=np.float64)
    if form == "kda":
        return np.asarray(kda_chunked_flops(T, d, np.asarray(C)), dtype=np.float64) / 2
    raise ValueError(f"unknown form {form!r}")


def chunk_time_terms(T, d, C, *, step_latency, peak, c_half, form="linear"):
    """Modelled time of one head's chunked pass over T tokens, as three terms that add up:
      steps — the T/C chunks run one after another, each paying a fixed latency: (T/C)·ℓ;
      madds — the multiply-adds W(C) (chunk_work_madds) at the peak rate P: W/P;
      tiles — the time lost because tiles C rows wide run at η(C) < 1 of peak: W/P·(1/η − 1).
    total = steps + W/(P·η(C)). Units: step_latency in any time unit, peak in madds per that
    unit (µs and madds/µs in FIG 15b). C may be an array (1 ≤ C ≤ T)."""
    C = np.asarray(C, dtype=np.float64)
    work = chunk_work_madds(T, d, C, form)
    at_peak = work / peak
    steps = T / C * step_latency
    tiles = at_peak * (1 / tile_efficiency(C, c_half) - 1)
    return dict(steps=steps, madds=at_peak, tiles=tiles, total=steps + at_peak + tiles)


def chunk_time_band(C, total, within=0.1):
    """Where a modelled time over a sorted grid of chunk sizes C is lowest: the grid point of the
    minimum and the smallest and largest C whose time is within `within` (0.1 = 10 %) of it.
    Returns dict(best, lo, hi, min_time). For the model's convex totals the band is contiguous."""
    C, total = np.asarray(C, dtype=np.float64), np.asarray(total, dtype=np.float64)
    i = int(np.argmin(total))
    near = np.flatnonzero(total <= (1 + within) * total[i])
    return dict(best=float(C[i]), lo=float(C[near[0]]), hi=float(C[near[-1]]), min_time=float(total[i]))


def chunk_time_best_c(d, *, step_latency, peak, c_half):
    """Plain reference for the linear form: the C that minimises chunk_time_terms' total in closed
    form. Per token the total is (ℓ + 2d²·c_half/P)/C + 2d·C/P + constant, so
    C* = sqrt(ℓ·P/(2d) + d·c_half): it grows with the per-step latency, and does not depend on T."""
    return float(np.sqrt(step_latency * peak / (2 * d) + d * c_half))
