"""FIG 09 · Layer stack composer: decode memory per layer and in total for a KDA/MLA stack.

Two sets of constants are shipped, and the component switches between them with the presets:
* "toy" (ILLUSTRATIVE, the spec's params): the all-MLA, all-KDA and 3:1 presets;
* "k3" (SOURCE, from the facts kimi_k3.kda_gate and kimi_k3.gated_mla): the K3 preset.
The component toggles layers and sums the per-layer values shipped here; every per-layer value
is computed by `experiments.stack_decode_memory` for each context length on the slider.

Every text the figure shows is written here (`_texts`). Its totals are sums over a layout the
reader builds (2^96 of them), too many to ship as texts: a template marks each such number
`{=name}`, a slot the runtime's fill leaves alone, and the component writes the sum there in the
page's integer form (readertext.integer in Python, W.int in the browser) after filling the rest.
"""

from typing import Literal, get_args

import numpy as np
from pydantic import BaseModel, ConfigDict, Field

from k3explainer.kernels import kda_decode_memory, mla_decode_memory
from k3explainer.site.readertext import integer

from ..experiments import hybrid_layout, stack_decode_memory

MAX_LAYERS = 96  # the layer-count stepper's range; K3's 93 layers fit
Preset = Literal["all-MLA", "all-KDA", "3:1", "K3"]  # quote "3:1": YAML 1.1 reads a bare 3:1 as the number 181
PRESETS = set(get_args(Preset))  # the component knows how to lay out each
KINDS = {"kda": "KDA", "mla": "MLA"}
SIZES = {"toy": "toy sizes", "k3": "K3's sizes"}  # how the texts name each constant set


class Toy(BaseModel):
    model_config = ConfigDict(extra="forbid")
    d_h: int = Field(ge=1)  # KDA head dimension: each head's state is d_h × d_h elements
    heads_per_layer: int = Field(ge=1)  # KDA heads per layer
    mla_elements_per_token: int = Field(ge=1)  # MLA latent per token per layer (no shared key channel in the toy)


class Params(BaseModel):
    model_config = ConfigDict(extra="forbid")
    n_layers: int = Field(ge=1, le=MAX_LAYERS)  # the stack the figure opens with
    initial_pattern: list[Literal["KDA", "MLA"]] = Field(min_length=1)  # one macrocycle: KDA layers, then one MLA
    n_tokens: int = Field(ge=1)  # the context the slider opens at: a power of two between min and max
    n_tokens_min: int = Field(ge=1)  # the slider's powers of two run from here (a power of two) ...
    n_tokens_max: int = Field(ge=1)  # ... to here, which must be K3's context (facts kimi_k3.context)
    toy: Toy  # ILLUSTRATIVE sizes for the all-MLA, all-KDA and 3:1 presets; the K3 preset's come from the facts
    presets: list[Preset] = Field(min_length=1)  # the preset buttons, in order


def _context_grid(n_min: int, n_max: int, n_default: int) -> list[int]:
    """Powers of two from n_min to n_max (the default must be one of them)."""
    lo, hi = int(np.log2(n_min)), int(np.log2(n_max))
    grid = [2**p for p in range(lo, hi + 1)]
    if 2**lo != n_min or 2**hi != n_max or n_default not in grid:
        raise ValueError(
            f"n_tokens_min/max/default must be powers of two with the default between: {n_min}, {n_max}, {n_default}"
        )
    return grid


def _constants(N: np.ndarray, *, heads: int, d_h: int, d_c: int, d_r: int, provenance: str) -> dict:
    """One constant set: its sizes, the kernels' per-layer memory at every context on the slider,
    and the context at which one MLA layer's cache equals one KDA layer's state."""
    kda = int(kda_decode_memory(heads, d_h))
    per_token = int(mla_decode_memory(1, d_c, d_r))
    return {
        "provenance": provenance,
        "heads": heads,
        "d_h": d_h,
        "d_c": d_c,
        "d_r": d_r,
        "mla_per_token": per_token,  # elements one MLA layer adds per token of context
        "mla_per_layer": mla_decode_memory(N, d_c, d_r),  # [len(contexts)] elements, grows with N
        "kda_per_layer": kda,  # elements, the same at every N
        "crossover": np.float64(kda) / np.float64(per_token),  # N where the two per-layer values meet
    }


def signed(d: int) -> str:
    """A change to the total: "+1,032,192", "−15,360"."""
    return ("+" if d >= 0 else "−") + integer(abs(d))


def _set_texts(c: dict, name: str) -> dict:
    """The texts of one constant set: its per-layer values at every context, the change a toggle
    makes to the total (to MLA, to KDA), and its labels."""
    sizes = SIZES[name]
    to_mla = [int(m) - c["kda_per_layer"] for m in c["mla_per_layer"]]  # a KDA layer made MLA
    return {
        "sizes": sizes,
        "mla_per_layer": [integer(m) for m in c["mla_per_layer"]],
        "kda_per_layer": integer(c["kda_per_layer"]),
        "delta": {"mla": [signed(d) for d in to_mla], "kda": [signed(-d) for d in to_mla]},
        "y_title": f"elements per layer (log scale), {sizes}",
        "chart_label": f"Bar chart of decode memory per layer at N = {{n}} tokens with {sizes}: each MLA layer "
        "{mla} elements, each KDA layer {kda}.",
    }


def _texts(sets: dict, grid: list[int], presets: list[str], k3_layers: int) -> dict:
    """Every text the figure shows. Slots: {n} a context (n_text), {count}/{m}/{k}/{i} a count or a
    layer number (numbers), {mla}/{kda} a set's per-layer values, {sizes} a set's name, {delta} a
    toggle's change; {=mla}, {=kda}, {=total} the sums the component writes (see the docstring)."""
    toy = sets["toy"]
    sums = "{m} MLA × {mla} + {k} KDA × {kda} = {=mla} + {=kda} = {=total} elements at N = {n}."
    return {
        "n": [integer(n) for n in grid],
        "numbers": [str(i) for i in range(MAX_LAYERS + 1)],  # counts and layer numbers
        "kinds": KINDS,
        "presets": {p: f"K3 ({k3_layers} layers)" if p == "K3" else p for p in presets},
        "layers": "{count} layers",
        "slider": "{n} tokens",
        "stack_label": "Layer stack in macrocycles of four, layer 1 at the bottom left; arrow keys move, "
        "Enter or Space toggles",
        "legend": {"kda": "KDA: fixed state", "mla": "MLA: latent per token"},
        "share_title": "share of the total",
        # the visible "5 K" begins the spoken name, so the name contains what is seen
        "layer_name": {
            k: f"{{i}} {k[0].upper()}: layer {{i}}, {KINDS[k]}, {{value}} elements; press to make it "
            f"{KINDS['mla' if k == 'kda' else 'kda']}"
            for k in KINDS
        },
        "tip": "layer {i}: {kind}, {value} elements",
        "split_head": "{m} MLA × {mla} + {k} KDA × {kda} = ",  # then the MLA part + the KDA part
        "split_tail": " at N = {n} ({sizes})",
        "toy_sizes": f"Toy sizes: {toy['heads']} head × {toy['d_h']}² = {integer(toy['kda_per_layer'])} elements "
        f"per KDA layer, {integer(toy['mla_per_token'])} per token per MLA layer; one MLA layer outgrows one KDA "
        f"layer beyond {integer(toy['crossover'])} tokens.",
        "said": {
            "preset": {p: f"Preset {p}, {SIZES['k3' if p == 'K3' else 'toy']}: {sums}" for p in presets},
            "layers": "{count} layers: " + sums,
            "context": "Context {n} tokens: " + sums,
            "other": "{count} layers, {sizes}: " + sums,
            "toggle": "Layer {i} is now {kind}: total {delta} to {=total} elements at N = {n} ({m} MLA, {k} KDA).",
        },
    }


def build(params: dict, facts) -> dict:
    n_layers = int(params["n_layers"])
    pattern = [str(k).lower() for k in params["initial_pattern"]]
    period = len(pattern)
    if pattern != hybrid_layout(period, period=period, final_full=False):
        raise ValueError(f"initial_pattern must be {period - 1} KDA layers then one MLA layer, got {pattern}")
    if not 1 <= n_layers <= MAX_LAYERS:
        raise ValueError(f"n_layers must be in 1..{MAX_LAYERS}, got {n_layers}")
    grid = _context_grid(int(params["n_tokens_min"]), int(params["n_tokens_max"]), int(params["n_tokens"]))
    N = np.array(grid, dtype=np.int64)
    if grid[-1] != int(facts.number("kimi_k3.context")):  # the spec's constants list says so
        raise ValueError(f"n_tokens_max {grid[-1]} must be K3's context, {facts.number('kimi_k3.context')}")

    # K3's published layout: every fourth layer MLA and the last one too — checked against the facts
    k3_parts = facts.parts("kimi_k3.layer_layout")
    k3 = hybrid_layout(int(k3_parts["layers"]), period=period, final_full=True)
    if (k3.count("kda"), k3.count("mla")) != (k3_parts["kda"], k3_parts["mla"]):
        raise ValueError(f"hybrid_layout gives {k3.count('kda')} KDA + {k3.count('mla')} MLA, facts say {k3_parts}")

    toy = params["toy"]
    kda, mla = facts.parts("kimi_k3.kda_gate"), facts.parts("kimi_k3.gated_mla")
    sets = {
        "toy": _constants(
            N,
            heads=int(toy["heads_per_layer"]),
            d_h=int(toy["d_h"]),
            d_c=int(toy["mla_elements_per_token"]),
            d_r=0,
            provenance="illustrative",
        ),
        "k3": _constants(
            N,
            heads=int(kda["heads"]),
            d_h=int(kda["head_dim"]),
            d_c=int(mla["kv_lora_rank"]),
            d_r=int(mla["shared_key"]),
            provenance="source",
        ),
    }
    # the K3 set must be the one the prose quotes (calc.* facts are computed from the same facts)
    k3c = sets["k3"]
    quoted = {
        "calc.k3_kda_state_per_layer": k3c["kda_per_layer"],
        "calc.k3_mla_cache_per_token_layer": k3c["mla_per_token"],
        "calc.k3_layer_crossover": k3c["crossover"],
    }
    for key, value in quoted.items():
        if not np.isclose(facts.number(key), value, rtol=1e-12):
            raise ValueError(f"K3 constants disagree with {key}: {value} vs {facts.number(key)}")

    presets = [str(p) for p in params["presets"]]
    if not set(presets) <= PRESETS:
        raise ValueError(f"unknown preset in {presets}; known: {sorted(PRESETS)}")
    for name, c in sets.items():
        c["text"] = _set_texts(c, name)
    # what the figure opens on: the 3:1 stack of n_layers in toy sizes at the starting context
    layout = hybrid_layout(n_layers, period=period, final_full=False)
    toyc, n0 = sets["toy"], int(params["n_tokens"])
    per_layer = stack_decode_memory(
        layout, n0, kda_heads=toyc["heads"], d_h=toyc["d_h"], d_c=toyc["d_c"], d_r=toyc["d_r"]
    )
    mla_part = int(per_layer[np.array(layout) == "mla"].sum())
    return {
        "n_layers": n_layers,
        "presets": presets,
        "max_layers": MAX_LAYERS,
        "pattern": hybrid_layout(MAX_LAYERS, period=period, final_full=False),  # 3:1 by position, for new layers
        "contexts": grid,
        "n_default": int(params["n_tokens"]),
        "constants": sets,  # the K3 preset uses "k3", the others "toy"
        "k3_layout": k3,  # the "K3" preset; all-MLA, all-KDA and 3:1 keep the current layer count
        # the figure's answer (its takeaway): where one MLA layer outgrows one KDA layer, and what
        # the few MLA layers of the opening stack hold of its total at the starting context
        "headline": {
            "toy_crossover": float(toyc["crossover"]),  # the head width, with the toy sizes
            "k3_crossover": int(round(k3c["crossover"], -1)),  # "about 2,730", as the facts round it
            "n": n0,
            "layers": n_layers,
            "mla_layers": layout.count("mla"),
            "mla_share": mla_part / int(per_layer.sum()),
        },
        "text": _texts(sets, grid, presets, len(k3)),
        "k3_note_md": "K3: {{kimi_k3.layer_layout}}",  # under the chart while K3's layout is drawn
        "k3_constants_md": "K3's sizes: {{calc.k3_kda_state_per_layer}} elements per KDA layer, "
        "{{calc.k3_mla_cache_per_token_layer}} per token per MLA layer "
        "(latent + shared key channel); one MLA layer outgrows one KDA layer beyond about "
        "{{calc.k3_layer_crossover}} tokens.",
        "provenance": {
            "kernels": [
                "k3explainer.kernels.mla_decode_memory",
                "k3explainer.kernels.kda_decode_memory",
                "experiments.hybrid_layout",
            ],
            "totals": "sum of the per-layer values over the shown layout (equals stack_decode_memory(...).sum(0))",
            "inputs": f"N = 2^k for {grid[0]} ≤ N ≤ {grid[-1]}; K3 layout from facts kimi_k3.layer_layout",
            "K3 preset (SOURCE)": f"{k3c['heads']} KDA heads × d_h = {k3c['d_h']} (facts kimi_k3.kda_gate); MLA caches "
            f"{k3c['d_c']} latent + {k3c['d_r']} shared key = {k3c['mla_per_token']} elements per token "
            "(facts kimi_k3.gated_mla)",
            "other presets (ILLUSTRATIVE)": f"{toy['heads_per_layer']} head per layer, d_h = {toy['d_h']}, MLA latent of "
            f"{toy['mla_elements_per_token']} elements per token: toy sizes that keep the bars "
            "comparable",
            "seed": None,
        },
    }
