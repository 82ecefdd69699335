"""FIG 15 · Complexity explorer: compute and memory against N for every mechanism, on log–log axes.

The N grid is geometric (`points_per_octave` points per doubling), so the slider and the drag
marker move by index and the browser never computes a scale. Every value is
`complexity_curves` at that N; the growth column is the same kernel at 2N divided by its value
at N (4 for a quadratic curve, 2 for a linear one, 1 for a flat one).
"""

from typing import Literal

import numpy as np
from pydantic import BaseModel, ConfigDict, Field

from k3explainer.site.readertext import fixed, integer, si

from ..experiments import MECHANISMS, complexity_curves


class Params(BaseModel):
    model_config = ConfigDict(extra="forbid")
    d_h: int = Field(ge=1)  # head width: the state is d_h × d_h, the cache d_h per token
    n_layers: int = Field(ge=1)
    d_c: int = Field(ge=1)  # MLA's latent width per token
    chunk_size: int = Field(ge=1)  # the chunked delta rule's C
    hybrid_kda_per_mla: Literal[3]  # costs.mechanism_costs models the 3:1 hybrid only
    n_min: int = Field(ge=1)  # n_max / n_min must be a power of two: the grid is geometric
    n_max: int = Field(ge=2)
    n_default: int
    points_per_octave: int = Field(ge=1)  # slider stops per doubling of N
    mechanisms: list[str]  # curves to draw, each a key of experiments.MECHANISMS


LABELS = {
    "softmax": "Softmax attention",
    "flash": "FlashAttention",
    "linear": "Linear attention",
    "kda": "Chunked delta rule (DeltaNet / KDA)",
    "mla": "MLA",
    "hybrid": "3:1 hybrid (KDA : MLA)",
}
SHORT = {
    "softmax": "Softmax",
    "flash": "Flash",
    "linear": "Linear",
    "kda": "Delta/KDA",
    "mla": "MLA",
    "hybrid": "Hybrid",
}
METRICS = {
    # compute counts the attention operators only (kernels.costs: the projections every design shares are left out)
    "compute": {"label": "Compute", "axis": "attention FLOPs to process N tokens", "unit": "FLOP", "noun": "FLOPs"},
    "memory": {"label": "Memory", "axis": "elements held (peak)", "unit": "", "noun": "elements held"},
}


def n_grid(n_min: int, n_max: int, per_octave: int) -> np.ndarray:
    """Whole token counts from n_min to n_max, `per_octave` per doubling (both ends powers of two)."""
    octaves = np.log2(n_max / n_min)
    if n_min < 1 or not float(octaves).is_integer() or octaves < 1:
        raise ValueError(f"n_max / n_min must be a power of two ≥ 2, got {n_min} and {n_max}")
    steps = int(octaves) * per_octave
    return np.round(n_min * 2.0 ** (np.arange(steps + 1) / per_octave)).astype(np.int64)


def tick_label(n: int) -> str:
    """128, 1K, 64K, 1M: binary prefixes, the way context lengths are quoted."""
    for size, suffix in ((2**20, "M"), (2**10, "K")):
        if n >= size and n % size == 0:
            return f"{n // size}{suffix}"
    return str(n)


def build(params: dict, facts) -> dict:
    mechanisms = list(params["mechanisms"])
    unknown = [m for m in mechanisms if m not in MECHANISMS]
    if unknown:
        raise ValueError(f"unknown mechanisms {unknown}; the kernel knows {list(MECHANISMS)}")
    per_octave = int(params["points_per_octave"])
    N = n_grid(int(params["n_min"]), int(params["n_max"]), per_octave)
    consts = dict(d_h=params["d_h"], layers=params["n_layers"], d_c=params["d_c"], C=params["chunk_size"])
    at_n = complexity_curves(N.astype(np.float64), **consts)
    at_2n = complexity_curves(2.0 * N, **consts)

    metrics = {}
    for metric, meta in METRICS.items():
        values = {m: at_n[m][metric] for m in mechanisms}
        lo = min(float(v.min()) for v in values.values())
        hi = max(float(v.max()) for v in values.values())
        y_range = [float(np.floor(np.log10(lo) * 2) / 2), float(np.ceil(np.log10(hi) * 2) / 2)]
        growth = {m: np.round(at_2n[m][metric] / at_n[m][metric], 4) for m in mechanisms}
        unit = meta["unit"]
        metrics[metric] = {
            **meta,
            "values": values,
            "growth": growth,
            # what the table and the narration show, written here (readertext) so tests read them
            "value_text": {m: [si(v, unit) for v in values[m]] for m in mechanisms},
            "growth_text": {m: [f"×{fixed(g, 2)}" for g in growth[m]] for m in mechanisms},
            "text": {
                "caption": f"{meta['label']} at N = {{n}} tokens",
                "unit_head": f"{meta['label']} ({unit}s)" if unit else f"{meta['label']} (elements)",
                "chart_label": (
                    f"Log–log chart of {meta['axis']} against sequence length N for {len(mechanisms)} "
                    "mechanisms; the marker is at N = {n} tokens."
                ),
                "describe": f"{meta['label']} ({meta['noun']}) at N = {{n}} tokens: "
                + ", ".join(f"{SHORT[m]} {{{m}}}" for m in mechanisms)
                + ".",
            },
            # fixed log10 axis range (Plotly's convention for log axes), and the same span as values
            # for the vertical N marker
            "y_range": y_range,
            "y_span": [10.0 ** y_range[0], 10.0 ** y_range[1]],
        }
    default = int(params["n_default"])
    if default not in N:
        raise ValueError(f"n_default {default} is not on the N grid")
    i0 = int(np.flatnonzero(N == default)[0])
    compute = {m: float(at_n[m]["compute"][i0]) for m in MECHANISMS}
    headline = {  # the figure's takeaway: the compute view at the length it opens on
        "n": default,
        "softmax_over_kda": compute["softmax"] / compute["kda"],
        "hybrid_over_kda": compute["hybrid"] / compute["kda"],
    }
    # a tick every third doubling, plus the last length (without crowding it)
    octave_ns = [int(n) for n in N[::per_octave]]
    ticks = [n for i, n in enumerate(octave_ns) if i % 3 == 0 and len(octave_ns) - 1 - i >= 2] + [octave_ns[-1]]
    return {
        "headline": headline,
        "n": N,
        "n_text": [integer(n) for n in N],
        "slider_text": "{n} tokens",
        "n_default_index": i0,
        "x_range": [float(np.log10(N[0])), float(np.log10(N[-1]))],
        "x_ticks": ticks,
        "x_tick_labels": [tick_label(n) for n in ticks],
        "constants": consts,  # the kernel's inputs, so tests can recompute every value
        "mechanisms": [{"key": m, "label": LABELS[m], "short": SHORT[m]} for m in mechanisms],
        "metrics": metrics,
        "constants_md": (
            f"$d_h = {params['d_h']}$, $L = {params['n_layers']}$ layers, $d_c = {params['d_c']}$, "
            f"$C = {params['chunk_size']}$, one head per layer"
        ),
        "note_md": (
            "These are operation and element counts, not wall-clock time. A kernel that keeps the tensor cores busy "
            "can beat one with fewer operations that does not ([FIG 15b](#fig-15b) models that trade-off for the chunk "
            "size), and decoding is bound by memory bandwidth: what it reads per token ([FIG 16](#fig-16))."
        ),
        "provenance": {
            "kernels": ["experiments.complexity_curves", "experiments.mechanism_costs"],
            "inputs": (
                f"N = {N[0]} … {N[-1]} ({per_octave} points per doubling); d_h = {params['d_h']}, "
                f"L = {params['n_layers']}, d_c = {params['d_c']}, C = {params['chunk_size']}, one head; "
                "compute = prefill FLOPs summed over layers; memory = the stack's peak elements, every layer's kept cache or state "
                "plus the score matrix of the one layer being computed; growth = value at 2N / value at N"
            ),
            "seed": "none: closed-form counts, no random inputs",
            "illustrative": "legible constants, not a released model; they move the curves and where they bend, not the "
            "slopes of the straight stretches",
        },
    }
