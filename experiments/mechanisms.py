"""Each mechanism's cost by phase (FIG 15, 16): FLOPs, elements read and kept, from the engine's
cost models. Counts with illustrative constants, not GPU time."""

import numpy as np

from k3explainer.kernels import (
    chunked_cost_terms,
    decode_step_flops,
    decode_step_reads,
    kda_decode_memory,
    kv_cache_elements,
    mla_decode_memory,
    prefill_attention_flops,
)

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
