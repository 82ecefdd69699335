"""FIG 15b · Chunk size trade-off: the terms of a chunked layer's cost for one head as C runs
from 1 (the recurrence) to N (one chunk: quadratic attention again).

Two views: plain chunked linear attention in multiply-adds (2·N·d² + 2·N·C·d) and KDA's own
accounting in FLOPs (Kimi Linear eq. 13: 6·N·d² + 3·N·C·d + N·C²). The C grid is powers of two,
so the slider moves by index; every value, share and range is computed here.
"""
import numpy as np

from k3explainer.kernels import (chunk_cost_per_token, chunked_cost_terms, chunked_linear_madds, kda_chunked_flops,
                                 prefill_attention_flops, reassociation_costs)

TERM_LABELS = {
    "state": "state work (across chunks)",
    "chunk": "within-chunk work",
    "local": "chunk-local C×C matrices",
}


def regime(C: int, N: int, sweet: tuple[int, int]) -> str:
    """What a chunk size means for the hardware, in words (no numbers: those are readouts)."""
    if C == 1:
        return "Pure recurrence: the fewest operations, but every step is a thin matrix–vector product that leaves matrix hardware idle."
    if C == N:
        return ("One chunk holds the whole sequence: the within-chunk work is attention over every pair of tokens again "
                "(in KDA's accounting the C×C matrices make it costlier still).")
    if sweet[0] <= C <= sweet[1]:
        return "The tensor-core sweet spot: chunks large enough for dense matrix multiplies, small enough that the within-chunk term stays modest."
    if C < sweet[0]:
        return "Small chunks: little extra work, but the matrix multiplies are too small to keep tensor cores busy."
    return "Large chunks: dense work, but the within-chunk term now outgrows the state work it was meant to complement."


def tex_int(n: int) -> str:
    """8192 → 8{,}192: thousands separators that KaTeX does not space as list commas."""
    return f"{n:,}".replace(",", "{,}")


def view(name: str, N: int, d: int, C: np.ndarray) -> dict:
    """One cost model over the C grid: its terms, total, per-token cost and quadratic reference."""
    if name == "linear":
        terms = chunked_cost_terms(N, d, C, form="linear")
        total = chunked_linear_madds(N, d, C)
        per_token = chunk_cost_per_token(C, d)
        quadratic = reassociation_costs(N, d, d)["madds_quadratic"]
        meta = {"label": "Linear attention", "unit": "madds", "formula_md": r"$2Nd^2 + 2NCd$ multiply-adds",
                "quadratic_label": "unmasked quadratic attention, (QKᵀ)V",
                "kernels": ["chunked_cost_terms", "chunked_linear_madds", "chunk_cost_per_token", "reassociation_costs"]}
    else:
        terms = chunked_cost_terms(N, d, C, form="kda")
        total = kda_chunked_flops(N, d, C)
        per_token = kda_chunked_flops(1, d, C)
        quadratic = prefill_attention_flops(N, d)
        meta = {"label": "KDA (eq. 13)", "unit": "FLOPs", "formula_md": r"$6Nd^2 + 3NCd + NC^2$ FLOPs",
                "quadratic_label": "causal attention, Kimi Linear eq. 14",
                "kernels": ["chunked_cost_terms", "kda_chunked_flops", "prefill_attention_flops"]}
    lo = min(float(np.min(v)) for v in terms.values())
    hi = max(float(np.max(total)), float(quadratic))
    y_range = [float(np.floor(np.log10(lo) * 2) / 2), float(np.ceil(np.log10(hi) * 2) / 2)]
    return {
        **meta,
        "terms": [{"key": k, "label": TERM_LABELS[k], "values": np.asarray(v, dtype=np.float64),
                   "share": np.asarray(v / total, dtype=np.float64)} for k, v in terms.items()],
        "total": total,
        "per_token": per_token,
        "quadratic": float(quadratic),
        "of_quadratic": total / quadratic,
        "y_range": y_range,
        "y_span": [10.0 ** y_range[0], 10.0 ** y_range[1]],
    }


def build(params: dict, facts) -> dict:
    N, d = int(params["n_tokens"]), int(params["d"])
    c_min = int(params["c_min"])
    if c_min < 1 or N % c_min or not float(np.log2(N / c_min)).is_integer():
        raise ValueError(f"n_tokens / c_min must be a power of two, got {N} / {c_min}")
    C = c_min * 2 ** np.arange(int(np.log2(N / c_min)) + 1)  # powers of two up to one chunk = N
    sweet = tuple(int(c) for c in params["sweet_spot"])
    default = int(params["c_default"])
    if default not in C or sweet[0] not in C or sweet[1] not in C:
        raise ValueError("c_default and sweet_spot must be powers of two on the C grid")
    return {
        "n_tokens": N,
        "d": d,
        "c": C,
        "c_default_index": int(np.flatnonzero(C == default)[0]),
        "sweet_spot": list(sweet),
        "x_range": [float(np.log10(C[0])), float(np.log10(C[-1]))],
        "regimes": [regime(int(c), N, sweet) for c in C],
        "view_order": ["linear", "kda"],
        "views": {"linear": view("linear", N, d, C), "kda": view("kda", N, d, C)},
        "constants_md": f"$N = {tex_int(N)}$ tokens, $d = {tex_int(d)}$, one head, one layer",
        "sweet_md": (f"Shaded: $C = {sweet[0]}$ to ${sweet[1]}$, the range kernels favour (illustrative band); "
                     "KDA's kernels use {{kimi_linear.chunk_size}}."),
        "provenance": {
            "kernels": ["k3explainer.kernels." + k for k in
                        ("chunked_cost_terms", "chunked_linear_madds", "chunk_cost_per_token", "kda_chunked_flops",
                         "reassociation_costs", "prefill_attention_flops")],
            "inputs": f"N = {N}, d = {d}, C = {C[0]} … {C[-1]} (powers of two); one head, one layer",
            "seed": "none: closed-form counts, no random inputs",
            "illustrative": f"N, d and the shaded band C = {sweet[0]}–{sweet[1]} are illustrative; the cost formulas are sourced",
        },
    }
