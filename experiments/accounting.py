"""Model accounting: GPT-2 parameter counts and Kimi K3's derived headline figures.

Nothing here hard-codes a fact: callers pass the published numbers (from facts.yaml) in.
"""

import math

import numpy as np

from k3explainer.kernels import kda_decode_memory, mla_decode_memory


def gpt2_params(*, vocab_size=50257, n_ctx=1024, n_embd=768, n_layer=12, mlp_ratio=4, tied=True):
    """Exact GPT-2 parameter count with its breakdown (biases everywhere, LayerNorm = weight + bias).

    Returns a dict: wte, wpe, per-block components (c_attn, attn_c_proj, c_fc, mlp_c_proj, ln_1,
    ln_2), block, blocks (× n_layer), ln_f, lm_head (0 when tied to wte), total, non_embedding
    (total − wte − wpe) and nanogpt_reported (total − wpe, what nanoGPT prints).
    GPT-2 small: 124,439,808 at vocab 50257; 124,475,904 at nanoGPT's padded 50304.
    """
    d, f = n_embd, mlp_ratio * n_embd
    block = dict(
        c_attn=d * 3 * d + 3 * d,  # fused q, k, v projection
        attn_c_proj=d * d + d,
        c_fc=d * f + f,
        mlp_c_proj=f * d + d,
        ln_1=2 * d,
        ln_2=2 * d,
    )
    c = dict(wte=vocab_size * d, wpe=n_ctx * d, **block)
    c["block"] = sum(block.values())
    c["blocks"] = n_layer * c["block"]
    c["ln_f"] = 2 * d
    c["lm_head"] = 0 if tied else vocab_size * d
    c["total"] = c["wte"] + c["wpe"] + c["blocks"] + c["ln_f"] + c["lm_head"]
    c["non_embedding"] = c["total"] - c["wte"] - c["wpe"]
    c["nanogpt_reported"] = c["total"] - c["wpe"]
    return c


def hybrid_layout(n_layers, *, period=4, final_full=True):
    """Layer kinds, 1-indexed layer i is "mla" when i % period == 0 (and the last layer when
    `final_full`), else "kda". K3: 93 layers → 69 KDA + 24 MLA; Kimi Linear: 27 → 20 + 7."""
    return ["mla" if i % period == 0 or (final_full and i == n_layers) else "kda" for i in range(1, n_layers + 1)]


def k3_derived(
    *,
    total_params,
    active_params,
    routed,
    shared,
    top_k,
    layers,
    kda_layers,
    mla_layers,
    block_size,
    gpt2_params,
    kda_per_cycle=3,
):
    """Ratios and counts derived from K3's published numbers (all passed in).

    gpt2_multiple: total / GPT-2 size; active_fraction: active / total parameters (≈3.71%, a
    parameter fraction — not an expert fraction); routed_fraction: top_k / routed (16/896);
    experts_active_fraction: (top_k + shared) / (routed + shared); attnres_blocks:
    ceil(layers / block_size) with the size of the last block and the number of depth sources at
    the output (blocks + embedding); macrocycles of kda_per_cycle KDA + 1 MLA and the layers left
    over; cached_layer_reduction: share of layers without a KV cache.
    """
    if kda_layers + mla_layers != layers:
        raise ValueError(f"{kda_layers} KDA + {mla_layers} MLA != {layers} layers")
    blocks = math.ceil(layers / block_size)
    macrocycles = kda_layers // kda_per_cycle
    return dict(
        gpt2_multiple=total_params / gpt2_params,
        active_fraction=active_params / total_params,
        routed_fraction=top_k / routed,
        experts_total=routed + shared,
        experts_per_token=top_k + shared,
        experts_active_fraction=(top_k + shared) / (routed + shared),
        attnres_blocks=blocks,
        attnres_last_block=layers - (blocks - 1) * block_size,
        attnres_sources_at_output=blocks + 1,
        macrocycles=macrocycles,
        layers_outside_macrocycles=layers - macrocycles * (kda_per_cycle + 1),
        kda_to_mla=kda_layers / mla_layers,
        cached_layer_reduction=1 - mla_layers / layers,
    )


def stack_decode_memory(layout, N, *, kda_heads, d_h, d_c, d_r=0):
    """Decode memory per layer for a stack `layout` (sequence of "kda" / "mla"): [n_layers, *N.shape]
    elements. Sum over axis 0 for the total."""
    kda = np.broadcast_to(kda_decode_memory(kda_heads, d_h), np.shape(N))
    return np.stack([mla_decode_memory(N, d_c, d_r) if kind == "mla" else kda for kind in layout])
