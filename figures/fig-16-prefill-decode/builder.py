"""FIG 16 · Prefill versus decode: what one layer of each mechanism computes, reads and keeps in
each phase, for a context of N tokens (N on a power-of-two grid, so the slider moves by index).

Every count is `mechanism_costs(mechanism, phase, N, ...)` for one layer; the bar lengths are the
same counts placed on a shared log scale per quantity, so bars compare across mechanisms, phases
and lengths.
"""

import re
from decimal import ROUND_HALF_UP, Decimal
from typing import Literal

import numpy as np
from pydantic import BaseModel, ConfigDict, Field, model_validator

from k3explainer.site.readertext import integer, si

from ..experiments import mechanism_costs

MECHANISMS = {
    "softmax": {"label": "Softmax + KV cache", "short": "Softmax", "memory": "cache", "sym": "kv-cache"},
    "kda": {"label": "KDA state", "short": "KDA", "memory": "square", "sym": "kda-state"},
    "mla": {"label": "MLA latent cache", "short": "MLA", "memory": "strip", "sym": "mla-latent"},
    "hybrid": {"label": "Hybrid {k}:1", "short": "Hybrid", "memory": "mixed", "sym": None},
}
PHASES = {"prefill": "Prefill", "decode": "Decode"}
QUANTITIES = {"flops": "FLOPs", "reads": "elements", "kept": "elements"}
# The schematic's three panels, left to right: what each shows and the quantity it counts.
REGIONS = [
    {"key": "read", "quantity": "reads", "title": "Read from memory"},
    {"key": "computed", "quantity": "flops", "title": "Computed"},
    {"key": "kept", "quantity": "kept", "title": "Kept for the next step"},
]

# What happens, in words, per mechanism and phase: (glyph for the computed region, computed, read, kept).
# Each sentence names exactly the terms its count adds up (PARTS below, from mechanism_costs).
STORY = {
    ("softmax", "prefill"): (
        "triangle",
        "The masked N×N score matrix of every head, stored in full, then the weighted sum of values: two large matrix multiplies.",
        "The queries, keys and values of all N prompt tokens, and the stored scores, read back once.",
        "Keys and values of every token for every head: the KV cache.",
    ),
    ("softmax", "decode"): (
        "row",
        "One row of scores: the new query against all N cached keys, then a mix of N values.",
        "The whole KV cache, every key and every value, for one new token.",
        "The KV cache, one token longer.",
    ),
    ("kda", "prefill"): (
        "chunks",
        "Chunks of C tokens: small attention-like blocks inside each chunk, and state updates between chunks.",
        "The queries, keys, values and per-channel decay gates of every prompt token, and one write strength β per token and head.",
        "One d×d state per head, whatever the prompt length.",
    ),
    ("kda", "decode"): (
        "square",
        "Decay the state, read it with the key, correct it by the error, then read it with the query.",
        "The d×d state of every head: the same amount at any context length.",
        "The updated state, written back in place.",
    ),
    ("mla", "prefill"): (
        "triangle",
        "Plain form: keys and values rebuilt from the latents for every head, then ordinary masked attention over all N tokens.",
        "The prompt's queries and latents, and the keys and values rebuilt from those latents.",
        "One latent vector per token, shared by all heads.",
    ),
    ("mla", "decode"): (
        "row",
        "Absorbed form: each head maps its query into the latent space, scores every cached latent there and maps the "
        "weighted sum back out; no keys or values are rebuilt.",
        "The latent cache: every token's latent, the new one's included, shared by all heads.",
        "The latent cache, one latent longer.",
    ),
    ("hybrid", "prefill"): (
        "mixed",
        "Chunked KDA in most layers, MLA's quadratic attention in the rest; each count is the per-layer average.",
        "Each layer's inputs: the KDA layers' queries, keys, values and gates; the MLA layers' queries, latents and rebuilt keys and values.",
        "Fixed states in the KDA layers, growing latent caches in the MLA layers.",
    ),
    ("hybrid", "decode"): (
        "mixed",
        "KDA layers update their states; MLA layers score their latent caches (per-layer average).",
        "Fixed states in the KDA layers, the latent cache in the MLA layers.",
        "The same states, and latent caches one token longer.",
    ),
}


# Names of the terms mechanism_costs returns in flops_parts / reads_parts.
PARTS = {
    "reads": {
        "queries": "queries",
        "keys": "keys",
        "values": "values",
        "scores": "stored scores, read back",
        "gates": "decay gates",
        "beta": "write strengths β",
        "latents": "latents",
        "rebuilt": "keys and values rebuilt from the latents",
        "cache": "cached keys and values",
        "state": "state of every head",
        "kda": "KDA layers' share",
        "mla": "MLA layers' share",
    },
    "flops": {
        "scores": "scores",
        "mix": "weighted sum",
        "state": "state work across chunks",
        "chunk": "within-chunk work",
        "local": "chunk-local C×C matrices",
        "rebuild": "rebuilding keys and values",
        "fold": "mapping into and out of the latent space",
        "decay": "decay",
        "recall": "read with the key",
        "write": "corrective write",
        "read": "read with the query",
        "kda": "KDA layers' share",
        "mla": "MLA layers' share",
    },
}


class Params(BaseModel):
    model_config = ConfigDict(extra="forbid")
    # the table's rows, in order (keys of MECHANISMS); the trade readout needs softmax and mla
    mechanisms: list[Literal["softmax", "kda", "mla", "hybrid"]] = Field(min_length=2)
    phases: list[Literal["prefill", "decode"]] = Field(min_length=1)  # the columns, in order (keys of PHASES)
    n_tokens: int = Field(ge=1)  # N the slider opens at: one of the power-of-two steps from n_tokens_min
    n_tokens_min: int = Field(ge=1)  # the slider's shortest context
    n_tokens_max: int = Field(ge=1)  # ... and its longest: n_tokens_min × a power of two (the build checks)
    d_h: int = Field(ge=1)  # ILLUSTRATIVE head width, for every mechanism
    n_heads: int = Field(ge=1)  # heads per layer
    d_c: int = Field(ge=1)  # MLA's latent width: one d_c vector cached per token, shared by all heads
    chunk_size: int = Field(ge=1)  # C: KDA's chunk length in prefill
    hybrid_kda_per_mla: Literal[3]  # KDA layers per MLA layer: mechanism_costs models the 3:1 hybrid only

    @model_validator(mode="after")
    def _consistent(self):
        if not {"softmax", "mla"} <= set(self.mechanisms):
            raise ValueError("mechanisms: the trade readout compares mla with softmax, so both must be shown")
        if not self.n_tokens_min <= self.n_tokens <= self.n_tokens_max:
            raise ValueError(
                f"n_tokens {self.n_tokens} is outside n_tokens_min … n_tokens_max "
                f"({self.n_tokens_min} … {self.n_tokens_max})"
            )
        return self


def n_grid(n_min: int, n_max: int) -> np.ndarray:
    octaves = np.log2(n_max / n_min)
    if n_min < 1 or not float(octaves).is_integer():
        raise ValueError(f"n_tokens_max / n_tokens_min must be a power of two, got {n_max} / {n_min}")
    return n_min * 2 ** np.arange(int(octaves) + 1)


def log_bars(values: list[np.ndarray]) -> tuple[float, float]:
    """A shared log10 scale (lo, hi) for one quantity: whole decades, so the ends label cleanly
    ("1 M … 10 G"), with a decade of room below the smallest value so its bar stays visible."""
    logs = np.log10(np.concatenate([v.ravel() for v in values]))
    return float(np.floor(logs.min()) - 1), float(np.ceil(logs.max()))


def precision(x: float, digits: int = 3) -> str:
    """x to `digits` significant digits as the page wrote it before (JavaScript's toPrecision):
    "1.25", "20.0", "128", and "1.23e+3" from 10^digits up. A tie rounds up, as there (4.125 is
    "4.13"), which Python's own formatting would round to even."""
    exact = Decimal(x)
    exponent = exact.adjusted() if x else 0
    rounded = exact.quantize(Decimal(f"1e{exponent - digits + 1}"), ROUND_HALF_UP)
    if rounded.adjusted() > exponent:  # 99.96 → 100: one digit more on the left
        exponent += 1
        rounded = exact.quantize(Decimal(f"1e{exponent - digits + 1}"), ROUND_HALF_UP)
    if -6 <= exponent < digits:
        return f"{rounded:f}"
    return f"{rounded.scaleb(-exponent):f}e{'+' if exponent >= 0 else '-'}{abs(exponent)}"


def decade(x: float) -> str:
    """A bar's end, a power of ten: "10 K", not "10.0 K"."""
    return re.sub(r"\.0+(?= )", "", si(x))


def trade_texts(phase: str, t: dict) -> dict:
    """The note under the table for `phase`: a template, and the texts of its numbers (its slots
    besides {n}), one per grid point."""

    def times(xs):  # "4.00×"
        return [f"{precision(x)}×" for x in xs]

    if phase == "decode":
        return {
            "text": "MLA against softmax attention at decode, N = {n}: softmax attention reads {reads_ratio} as many "
            "elements, MLA does {flops_ratio} as many FLOPs, {intensity_mla} FLOPs per element read against "
            "{intensity_softmax}.",
            "numbers_text": {
                "reads_ratio": times(t["reads_ratio"]),
                "flops_ratio": times(t["flops_ratio"]),
                "intensity_mla": [precision(x) for x in t["intensity"]["mla"]],
                "intensity_softmax": [precision(x) for x in t["intensity"]["softmax"]],
            },
        }
    return {
        "text": "MLA against softmax attention at prefill, N = {n}: MLA does {flops_ratio} as many FLOPs, "
        "{rebuild_share} of them rebuilding keys and values from the latents.",
        "numbers_text": {
            "flops_ratio": times(t["flops_ratio"]),
            "rebuild_share": [f"{precision(100 * x)}%" for x in t["rebuild_share"]],
        },
    }


def build(params: dict, facts) -> dict:
    mechanisms, phases = list(params["mechanisms"]), list(params["phases"])
    if set(mechanisms) - set(MECHANISMS) or set(phases) - set(PHASES):
        raise ValueError(f"mechanisms must be among {list(MECHANISMS)} and phases among {list(PHASES)}")
    ratio = params["hybrid_kda_per_mla"]
    if ratio != 3:
        raise ValueError("costs.mechanism_costs models the 3:1 hybrid only")
    if not {"softmax", "mla"} <= set(mechanisms):
        raise ValueError("the trade readout compares MLA with softmax attention: both must be shown")
    N = n_grid(int(params["n_tokens_min"]), int(params["n_tokens_max"]))
    if params["n_tokens"] not in N:
        raise ValueError(f"n_tokens {params['n_tokens']} is not a power-of-two step from n_tokens_min")
    consts = dict(d_h=params["d_h"], heads=params["n_heads"], d_c=params["d_c"], C=params["chunk_size"])
    costs = {m: {p: mechanism_costs(m, p, N.astype(np.float64), **consts) for p in phases} for m in mechanisms}

    scales = {q: log_bars([costs[m][p][q] for m in mechanisms for p in phases]) for q in QUANTITIES}
    bars = {
        m: {p: {q: (np.log10(costs[m][p][q]) - lo) / (hi - lo) for q, (lo, hi) in scales.items()} for p in phases}
        for m in mechanisms
    }
    parts = {
        m: {
            p: {
                q: [
                    {"key": k, "label": PARTS[q][k], "values": v, "value_text": [si(x) for x in v]}
                    for k, v in costs[m][p][f"{q}_parts"].items()
                    if np.any(v)
                ]
                for q in ("reads", "flops")
            }
            for p in phases
        }
        for m in mechanisms
    }
    # MLA against softmax attention, per phase and N: the ratios the note under the table states
    why = {
        "decode": (
            "Decode is limited by memory traffic, not arithmetic ([§03](#attention-cost)), so the absorbed form "
            "spends multiply-adds to read a smaller cache: the right trade at this phase."
        ),
        "prefill": (
            "Prefill runs as large matrix multiplies and is limited by arithmetic, so here the rebuild is a real "
            "cost; it grows in proportion to N while attention grows with N², so its share shrinks on long prompts."
        ),
    }
    trade = {}
    for p in phases:
        mla, sm = costs["mla"][p], costs["softmax"][p]
        trade[p] = {
            "flops_ratio": mla["flops"] / sm["flops"],  # MLA FLOPs ÷ softmax FLOPs
            "reads_ratio": sm["reads"] / mla["reads"],  # softmax reads ÷ MLA reads
            "intensity": {
                m: costs[m][p]["flops"] / costs[m][p]["reads"] for m in ("mla", "softmax")
            },  # FLOPs per element read
            "rebuild_share": mla["flops_parts"].get("rebuild", np.zeros_like(mla["flops"])) / mla["flops"],
            "why_md": why[p],  # rendered by the pipeline into why_html
        }
        trade[p] |= trade_texts(p, trade[p])
    labels = {m: MECHANISMS[m]["label"].format(k=ratio) for m in mechanisms}
    # the figure's answer, at the N it opens on: softmax attention's prefill arithmetic against what
    # one decode step reads, and the FLOPs it does per element read (as the panels and the note write them)
    at = int(np.flatnonzero(N == params["n_tokens"])[0])
    sm_pre, sm_dec = costs["softmax"].get("prefill"), costs["softmax"].get("decode")
    headline = {"n": integer(N[at])}
    if sm_pre is not None:
        headline["softmax_prefill_flops"] = si(sm_pre["flops"][at])
    if sm_dec is not None:
        headline["softmax_decode_reads"] = si(sm_dec["reads"][at])
        headline["softmax_decode_flops_per_read"] = float(sm_dec["flops"][at] / sm_dec["reads"][at])
    return {
        "headline": headline,
        "n": N,
        "n_text": [integer(n) for n in N],
        "n_default_index": at,
        "constants": consts,  # the kernel's inputs, so tests can recompute every count
        "units": QUANTITIES,
        "mechanisms": [{"key": m, **MECHANISMS[m], "label": labels[m]} for m in mechanisms],
        "phases": [{"key": p, "label": PHASES[p]} for p in phases],
        "regions": REGIONS,
        "values": {m: {p: {q: costs[m][p][q] for q in QUANTITIES} for p in phases} for m in mechanisms},
        # what the panels, the table and the narration show, written here (readertext) so tests read them
        "value_text": {
            m: {p: {q: [si(x) for x in costs[m][p][q]] for q in QUANTITIES} for p in phases} for m in mechanisms
        },
        "text": {
            "slider": "{n} tokens",
            "scale": "log scale, shared by all",
            "amount": {q: f"{{value}} {unit}" for q, unit in QUANTITIES.items()},  # a panel's count
            "caption": {p: f"{PHASES[p]} at N = {{n}} tokens, one layer" for p in phases},
            "describe": {
                m: {
                    p: f"{labels[m]}, {p} at N = {{n}} tokens: reads {{reads}} {QUANTITIES['reads']}, computes "
                    f"{{flops}} {QUANTITIES['flops']}, keeps {{kept}} {QUANTITIES['kept']} per layer."
                    for p in phases
                }
                for m in mechanisms
            },
        },
        "parts": parts,
        "bars": {m: {p: {q: np.round(b, 4) for q, b in bars[m][p].items()} for p in phases} for m in mechanisms},
        "bar_ends": {q: [10.0**lo, 10.0**hi] for q, (lo, hi) in scales.items()},  # the values at a bar's two ends
        "bar_ends_text": {q: [decade(10.0**lo), decade(10.0**hi)] for q, (lo, hi) in scales.items()},
        "story": {
            m: {p: dict(zip(("glyph", "computed", "read", "kept"), STORY[m, p], strict=True)) for p in phases}
            for m in mechanisms
        },
        "trade": trade,
        "constants_md": (
            f"$d_h = {params['d_h']}$, {params['n_heads']} heads, $d_c = {params['d_c']}$, "
            f"$C = {params['chunk_size']}$, one layer; hybrid {ratio}:1 KDA to MLA. "
            "Reads and kept are counted in elements (multiply by bytes per element for traffic); "
            "computed is counted in FLOPs, 2 per multiply-add. Weights, and the projections from the layer's "
            "input to queries, keys, values, gates or latents, are not counted. At decode, N includes the new token."
        ),
        "provenance": {
            "kernels": ["experiments.mechanism_costs"],
            "inputs": (
                f"N = {N[0]} … {N[-1]} (powers of two); d_h = {params['d_h']}, heads = {params['n_heads']}, "
                f"d_c = {params['d_c']}, C = {params['chunk_size']}; one layer (the hybrid is the {ratio}:1 per-layer average)"
            ),
            "units": (
                "elements read or kept (not bytes); FLOPs = 2 per multiply-add; weights and the projections from "
                "the layer's input are not counted; at decode N includes the new token"
            ),
            "seed": "none: closed-form counts, no random inputs",
            "illustrative": "demo model sizes and context lengths; counts are exact for those constants",
        },
    }
