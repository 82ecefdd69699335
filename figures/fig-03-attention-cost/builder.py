"""FIG 03 · Four costs of softmax attention as N grows, for every N the slider can reach.

The slider's N values are made here (octaves from n_min to n_max, with the octave_steps
multipliers in between), so the JS never computes the scale; every readout comes from the
`costs` kernels; the display constants (pixels per cell, screen width, model width, bytes per
element) are the spec's ILLUSTRATIVE params.
"""

import numpy as np
from pydantic import BaseModel, ConfigDict, Field

from k3explainer.kernels import (
    decode_step_reads,
    decode_step_writes,
    kv_cache_elements,
    prefill_attention_flops,
    score_cells,
)
from k3explainer.site.readertext import fixed, integer, si


class Params(BaseModel):
    model_config = ConfigDict(extra="forbid")
    n_min: int = Field(ge=1)  # the slider's shortest sequence
    n_max: int = Field(ge=1)  # ... and its longest (a million tokens: where the quadratic terms bite)
    n_default: int  # must be one of the slider's values
    octave_steps: list[float]  # multipliers inside each doubling, starting at 1 (integers only)
    px_per_cell: float = Field(gt=0)  # how big one score cell is drawn: the "screens of matrix" readout
    screen_px: float = Field(gt=0)  # one screen's width in px, for the same readout
    d_head: int = Field(ge=1)  # ILLUSTRATIVE model shape for the FLOPs and bytes readouts
    n_heads: int = Field(ge=1)
    bytes_per_element: int = Field(ge=1)  # 2 for bf16


def slider_values(n_min: int, n_max: int, octave_steps: list[float]) -> np.ndarray:
    """n_min·2^k·m for every octave k and multiplier m in octave_steps, up to n_max (integers only)."""
    if n_min < 1 or n_max < n_min:
        raise ValueError(f"need 1 <= n_min <= n_max, got {n_min}, {n_max}")
    if not octave_steps or octave_steps[0] != 1 or any(not 1 <= m < 2 for m in octave_steps):
        raise ValueError(f"octave_steps must start at 1 and stay in [1, 2): {octave_steps}")
    values, base = [], n_min
    while base <= n_max:
        for m in octave_steps:
            n = base * m
            if n != int(n):
                raise ValueError(f"{base} × {m} is not an integer")
            if n <= n_max:
                values.append(int(n))
        base *= 2
    return np.array(values, dtype=np.int64)


def _growth(fn, n):
    """How much a cost grows when N doubles, read off the kernel itself."""
    return float(fn(2 * n) / fn(n))


def _screens(x: float) -> str:
    """How many screens wide: two decimals under 10, one under 100, then whole screens."""
    return fixed(x, 2 if x < 10 else 1) if x < 100 else integer(x)


def _per_doubling(g: float) -> str:
    return f"×{fixed(g, 0)} per doubling of N"


def build(params: dict, facts) -> dict:
    N = slider_values(int(params["n_min"]), int(params["n_max"]), list(params["octave_steps"]))
    n_default = int(params["n_default"])
    if n_default not in N:
        raise ValueError(f"n_default {n_default} is not one of the slider's values")
    px, screen, bpe = int(params["px_per_cell"]), int(params["screen_px"]), int(params["bytes_per_element"])
    H, d = int(params["n_heads"]), int(params["d_head"])
    D = H * d

    cells = score_cells(N)  # per head per layer
    width_px = N * px  # one side of the drawn matrix
    cache = kv_cache_elements(N, D)  # per layer
    # the drawing compresses the side logarithmically: log2 N / log2 n_max of the largest square
    side = np.log2(N) / np.log2(N[-1])
    screens = width_px / screen
    train_bytes = cells * H * bpe  # every head of the layer holds its own N×N
    prefill = prefill_attention_flops(N, D)
    reads, writes = decode_step_reads(N, D), decode_step_writes(D)
    growth = {
        "cells": _growth(score_cells, n_default),
        "prefill": _growth(lambda n: prefill_attention_flops(n, D), n_default),
        "reads": _growth(lambda n: decode_step_reads(n, D), n_default),
        "writes": _growth(lambda n: decode_step_writes(D), n_default),
        "cache": _growth(lambda n: kv_cache_elements(n, D), n_default),
    }
    return {
        "N": N,
        "index": int(np.flatnonzero(N == n_default)[0]),
        "octave": len(params["octave_steps"]),  # slider steps per doubling of N
        "side": side,
        "cells": cells,
        "width_px": width_px,
        "screens": screens,
        "train_bytes_layer": train_bytes,
        "prefill_flops": prefill,
        "decode_reads": reads,
        "decode_read_bytes": reads * bpe,
        "decode_writes": writes,
        "cache_elements": cache,
        "cache_bytes": cache * bpe,
        "growth": growth,
        "constants": dict(px_per_cell=px, screen_px=screen, n_heads=H, d_head=d, D=D, bytes_per_element=bpe),
        # what the figure shows, written here (readertext) so tests read it: the numbers at every
        # slider position, and the sentences and templates they fill
        "n_text": [integer(n) for n in N],
        "cells_text": [integer(c) for c in cells],
        "width_px_text": [integer(w) for w in width_px],
        "screens_text": [_screens(x) for x in screens],
        "train_bytes_text": [si(b, "B") for b in train_bytes],
        "prefill_si_text": [si(f, "FLOP") for f in prefill],
        "prefill_text": [integer(f) for f in prefill],
        "reads_text": [integer(r) for r in reads],
        "read_bytes_text": [si(b, "B") for b in reads * bpe],
        "writes_text": integer(writes),
        "cache_text": [integer(c) for c in cache],
        "cache_bytes_text": [si(b, "B") for b in cache * bpe],
        "text": {
            "keys_hint": "Shift + arrow doubles or halves N.",
            "matrix_label": "The N×N score matrix (log-compressed)",
            "top_label": "N = {n} keys",
            "side_label": "{n} queries",
            "max_label": f"drawn side for N = {integer(N[-1])}",
            "matrix_aria": "Score matrix for N = {n}: {cells} cells, drawn with a logarithmically compressed side; "
            "the lower triangle is what a causal model uses.",
            # the sentence under the matrix, around its three numbers (each its own element)
            "cells_after": f" score cells per head, per layer (N²). Drawn at {px} px per cell, one side would be ",
            "px_after": " px wide: ",
            "screens_after": f" screens of {integer(screen)} px.",
            "train_exact": f"cells per head · {{bytes}} per layer for {H} heads",
            "reads_exact": "elements read · {bytes}",
            "writes_before": "writes ",
            "writes_after": " elements (2·D)",
            "cache_exact": "elements · {bytes} per layer",
            "constants": f" constants: D = {H} heads × {d} = {integer(D)}, {bpe} bytes per element, "
            f"{px} px per cell, {integer(screen)}-px screen.",
            "describe": "N = {n}: {cells} score cells per head; prefill {prefill} FLOPs per layer; one decode step "
            "reads {reads} and writes {writes} elements; the KV cache holds {cache} elements per layer.",
        },
        # the four readouts, in order: what each holds, and how much it grows per doubling of N
        "cards": [
            dict(
                key="train",
                sym="cost-cells",
                title="Training: score matrix held",
                when="materialised per layer and head, before FlashAttention",
                formula="N² cells",
                grow=_per_doubling(growth["cells"]),
            ),
            dict(
                key="prefill",
                sym="cost-prefill",
                title="Prefill: attention arithmetic",
                when="FLOPs per layer for QKᵀ and PV over a prompt of N tokens, causal (N²/2 query–key pairs)",
                formula="2·N²·D FLOPs",
                grow=_per_doubling(growth["prefill"]),
            ),
            dict(
                key="decode",
                sym="cost-reads",
                title="Decode: one step's traffic",
                when="cache elements per layer for one new token",
                formula="read 2·N·D · write 2·D",
                grow=f"reads {_per_doubling(growth['reads'])}; writes ×{fixed(growth['writes'], 0)}",
            ),
            dict(
                key="cache",
                sym="cost-cache",
                title="KV cache kept",
                when="elements per layer, held between steps",
                formula="2·N·D elements",
                grow=_per_doubling(growth["cache"]),
            ),
        ],
        "flash_md": "**FlashAttention** ({{flashattention.year}}) computes "
        "{{flashattention.mechanism}}. It removes the materialised matrix of the training "
        "readout; the prefill arithmetic stays quadratic.",
        "provenance": {
            "kernels": [
                "k3explainer.kernels.score_cells",
                "k3explainer.kernels.prefill_attention_flops",
                "k3explainer.kernels.decode_step_reads",
                "k3explainer.kernels.decode_step_writes",
                "k3explainer.kernels.kv_cache_elements",
            ],
            "inputs": f"N = {N[0]} … {N[-1]} ({len(N)} values), D = {H} heads × {d} = {D}, "
            f"{bpe} bytes per element, {px} px per cell, {screen}-px screen (all ILLUSTRATIVE)",
            "seed": None,
        },
    }
