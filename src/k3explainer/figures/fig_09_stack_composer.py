"""FIG 09 · Layer stack composer: decode memory per layer and in total for a KDA/MLA stack.

The component toggles layers and sums the per-layer values shipped here; every per-layer value
is computed by `k3explainer.kernels.costs` for each context length on
the slider.
"""
import numpy as np

from k3explainer.kernels import hybrid_layout, kda_decode_memory, mla_decode_memory

MAX_LAYERS = 96  # the layer-count stepper's range; K3's 93 layers fit
PRESETS = {"all-MLA", "all-KDA", "3:1", "K3"}  # the component knows how to lay out each


def _context_grid(n_min: int, n_max: int, n_default: int) -> list[int]:
    """Powers of two from n_min to n_max (the default must be one of them)."""
    lo, hi = int(np.log2(n_min)), int(np.log2(n_max))
    grid = [2**p for p in range(lo, hi + 1)]
    if 2**lo != n_min or 2**hi != n_max or n_default not in grid:
        raise ValueError(f"n_tokens_min/max/default must be powers of two with the default between: {n_min}, {n_max}, {n_default}")
    return grid


def build(params: dict, facts) -> dict:
    n_layers = int(params["n_layers"])
    pattern = [str(k).lower() for k in params["initial_pattern"]]
    period = len(pattern)
    if pattern != hybrid_layout(period, period=period, final_full=False):
        raise ValueError(f"initial_pattern must be {period - 1} KDA layers then one MLA layer, got {pattern}")
    if not 1 <= n_layers <= MAX_LAYERS:
        raise ValueError(f"n_layers must be in 1..{MAX_LAYERS}, got {n_layers}")
    d_h, heads, d_c = int(params["d_h"]), int(params["heads_per_layer"]), int(params["mla_elements_per_token"])
    grid = _context_grid(int(params["n_tokens_min"]), int(params["n_tokens_max"]), int(params["n_tokens"]))
    N = np.array(grid, dtype=np.int64)

    # K3's published layout: every fourth layer MLA and the last one too — checked against the facts
    k3 = hybrid_layout(int(facts.parts("kimi_k3.layer_layout")["layers"]), period=period, final_full=True)
    k3_parts = facts.parts("kimi_k3.layer_layout")
    if (k3.count("kda"), k3.count("mla")) != (k3_parts["kda"], k3_parts["mla"]):
        raise ValueError(f"hybrid_layout gives {k3.count('kda')} KDA + {k3.count('mla')} MLA, facts say {k3_parts}")

    presets = [str(p) for p in params["presets"]]
    if not set(presets) <= PRESETS:
        raise ValueError(f"unknown preset in {presets}; known: {sorted(PRESETS)}")
    return {
        "n_layers": n_layers,
        "presets": presets,
        "max_layers": MAX_LAYERS,
        "pattern": hybrid_layout(MAX_LAYERS, period=period, final_full=False),  # 3:1 by position, for new layers
        "contexts": grid,
        "n_default": int(params["n_tokens"]),
        "d_h": d_h,
        "heads": heads,
        "d_c": d_c,
        "mla_per_layer": mla_decode_memory(N, d_c),  # [len(grid)] elements, grows with N
        "kda_per_layer": int(kda_decode_memory(heads, d_h)),  # elements, the same at every N
        "k3_layout": k3,  # the "K3" preset; all-MLA, all-KDA and 3:1 keep the current layer count
        "k3_layout_md": "{{kimi_k3.layer_layout}}",
        "provenance": {
            "kernels": ["k3explainer.kernels.mla_decode_memory", "k3explainer.kernels.kda_decode_memory",
                        "k3explainer.kernels.hybrid_layout"],
            "totals": "sum of the per-layer values over the shown layout (equals stack_decode_memory(...).sum(0))",
            "inputs": f"N = 2^k for {grid[0]} ≤ N ≤ {grid[-1]}; d_h = {d_h}; {heads} head per layer; "
                      f"MLA latent of {d_c} elements per token; K3 layout from facts kimi_k3.layer_layout",
            "seed": None,
            "illustrative": "one head per layer and a latent of d_h elements keep the bars comparable",
        },
    }
