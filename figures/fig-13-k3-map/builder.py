"""FIG 13 · Kimi K3 map: the layer stack from the published counts, stat tiles, and SiTU vs SiLU."""

from typing import Annotated, Literal

import numpy as np
from pydantic import BaseModel, ConfigDict, Field, model_validator

from k3explainer.kernels import silu, situ
from k3explainer.site.readertext import fixed

from ..experiments import hybrid_layout, k3_derived
from .editorial import cited_facts, require_unique_ids

DIGITS = 5  # curve samples are shipped rounded; the page shows at most 3 decimals

Text = Annotated[str, Field(pattern=r"\S")]  # editorial text: non-blank (checked_items-style), may cite {{facts}}
Slug = Annotated[str, Field(pattern=r"^[a-z0-9-]+$")]  # a section's anchor: the link is [§](#slug)


class Situ(BaseModel):
    model_config = ConfigDict(extra="forbid")
    x_min: int  # the plot's left end; an int, so the constants list shows "-12", not "-12.0"
    x_max: int  # ... and its right end, past β so SiTU's ceiling shows
    samples: int = Field(ge=2)  # points of np.linspace(x_min, x_max, samples): at least two make a line
    beta: float = Field(gt=0)  # SiTU's ceiling β (fixed, not learned: the value kimi_k3.situ cites)
    beta_lin: float = Field(gt=0)  # the up branch's cap β_lin: shipped with the curve data, not plotted

    @model_validator(mode="after")
    def _range(self):
        if not self.x_min < self.x_max:
            raise ValueError(f"x_min {self.x_min} must be below x_max {self.x_max}")
        return self


class Component(BaseModel):
    model_config = ConfigDict(extra="forbid")
    # the map part it highlights: one per count the builder computes (its `stats`)
    id: Literal["embedding", "kda", "gated-mla", "layout", "dense-ffn", "latent-moe", "attnres", "lm-head", "context"]
    label: Text  # the button's and the panel's heading
    section: Slug  # the article section the panel links to
    text: Text  # the panel's explanation (Markdown, {{fact}} references resolved by the pipeline)


class Params(BaseModel):
    model_config = ConfigDict(extra="forbid")
    dense_layers: int = Field(default=1, ge=1)  # leading layers with a dense MLP (K3: the first); the rest are MoE
    situ: Situ  # the SiTU-vs-SiLU plot beside the panel
    components: list[Component] = Field(min_length=1)  # the buttons, in order; each opens one panel
    # each linked section's heading as the page writes it ("08 · <title>", its number and title in
    # content/): a panel's link and its narration name it (test_fig_13_data.py holds them equal)
    sections: dict[Slug, Text]

    @model_validator(mode="after")
    def _unique(self):
        require_unique_ids(self.components, "components")
        missing = sorted({c.section for c in self.components} - set(self.sections))
        if missing:
            raise ValueError(f"sections has no heading for {', '.join(missing)}")
        return self


def layer_stack(facts, dense_layers: int) -> dict:
    """Layer kinds from the hybrid-layout kernel, checked against the published KDA/MLA counts."""
    layout = facts.parts("kimi_k3.layer_layout")
    n = int(layout["layers"])
    kinds = hybrid_layout(n)  # MLA at every 4th layer and at the last
    kda, mla = kinds.count("kda"), kinds.count("mla")
    if (kda, mla) != (int(layout["kda"]), int(layout["mla"])):
        raise ValueError(f"hybrid_layout gives {kda} KDA + {mla} MLA, the facts say {layout['kda']} + {layout['mla']}")
    block = int(facts.parts("kimi_k3.attnres_blocks")["block_size"])
    blocks = [[s + 1, min(s + block, n)] for s in range(0, n, block)]  # 1-indexed [first, last] layer
    ffn = ["dense" if i < dense_layers else "moe" for i in range(n)]
    return {
        "n": n,
        "kinds": kinds,
        "ffn": ffn,
        "kda": kda,
        "mla": mla,
        "blocks": blocks,
        "block_size": block,
        "mla_at": [i + 1 for i, k in enumerate(kinds) if k == "mla"],
    }


def build(params: dict, facts) -> dict:
    dense_layers = int(params.get("dense_layers", 1))
    stack = layer_stack(facts, dense_layers)
    experts, layout = facts.parts("kimi_k3.experts"), facts.parts("kimi_k3.layer_layout")
    derived = k3_derived(
        total_params=facts.number("kimi_k3.total_params"),
        active_params=facts.number("kimi_k3.active_params"),
        routed=int(experts["routed"]),
        shared=int(experts["shared"]),
        top_k=int(experts["top_k"]),
        layers=int(layout["layers"]),
        kda_layers=int(layout["kda"]),
        mla_layers=int(layout["mla"]),
        block_size=stack["block_size"],
        gpt2_params=facts.number("gpt2_small.params_total_vocab50257"),
    )  # counts as ints: the facts file stores numbers as floats
    if derived["attnres_blocks"] != len(stack["blocks"]):
        raise ValueError("block count disagrees with k3_derived")

    p = params["situ"]
    beta, beta_lin = float(p["beta"]), float(p["beta_lin"])
    x = np.linspace(float(p["x_min"]), float(p["x_max"]), int(p["samples"]))

    n, moe = stack["n"], stack["ffn"].count("moe")
    last = derived["attnres_last_block"]
    full_blocks = derived["attnres_blocks"] - 1
    stats = {  # a one-line count per component, from the layout kernel and k3_derived
        "embedding": "source 0 of every attention-residual mix",
        "kda": f"{stack['kda']} of {n} layers",
        "gated-mla": f"{stack['mla']} of {n} layers: "
        + ", ".join(map(str, stack["mla_at"][:3]))
        + f", …, {stack['mla_at'][-2]} and {stack['mla_at'][-1]}",
        "layout": f"{derived['macrocycles']} × (3 KDA + 1 MLA) + {derived['layers_outside_macrocycles']} MLA = {n} layers",
        "dense-ffn": f"layer{'s' if dense_layers > 1 else ''} 1{f'–{dense_layers}' if dense_layers > 1 else ''} of {n}",
        "latent-moe": f"{moe} of {n} layers; {int(derived['experts_per_token'])} of {int(derived['experts_total'])} experts run per token",
        "attnres": f"{derived['attnres_blocks']} blocks: {full_blocks} × {stack['block_size']} layers + {last}",
        "lm-head": f"reads a mix of {derived['attnres_sources_at_output']} sources: the embedding and {derived['attnres_blocks']} blocks",
        "context": "only the gated MLA layers keep a per-token cache",
    }
    components = []
    for c in params["components"]:
        if c["id"] not in stats:
            raise ValueError(f"component {c['id']!r} has no place on the map; known: {', '.join(stats)}")
        heading = params["sections"][c["section"]]
        components.append(
            {
                "id": c["id"],
                "label": c["label"],
                "section": c["section"],
                "stat": stats[c["id"]],
                "text_md": c["text"],
                "link_md": f"[Read §{heading}](#{c['section']})",
                "opened": f"{c['label']} opened: {stats[c['id']]}. Explained in §{heading}.",  # the narration
            }
        )

    context = f"{int(facts.number('kimi_k3.context')):,d}"
    tiles = [
        {"value": facts["kimi_k3.total_params"].display, "label": "parameters", "fact": "kimi_k3.total_params"},
        {"value": facts["kimi_k3.active_params"].display, "label": "active per token", "fact": "kimi_k3.active_params"},
        {"value": str(n), "label": f"layers = {stack['kda']} KDA + {stack['mla']} MLA", "fact": "kimi_k3.layer_layout"},
        {"value": str(derived["macrocycles"]), "label": "KDA·KDA·KDA·MLA cycles", "fact": "calc.k3_macrocycles"},
        {"value": str(derived["attnres_blocks"]), "label": "AttnRes blocks", "fact": "calc.k3_attnres_blocks"},
        {
            "value": str(int(derived["experts_total"])),
            "label": f"experts, {int(experts['top_k'])} routed active",
            "fact": "kimi_k3.experts",
        },
        {
            "value": context,
            "label": "tokens of context",
            "fact": "kimi_k3.context",
        },
    ]
    situ_values, silu_values = np.round(situ(x, beta), DIGITS), np.round(silu(x), DIGITS)
    x = np.round(x, DIGITS)
    headline = {  # the figure's takeaway: the map's counts, from the layout kernel and k3_derived
        "layers": n,
        "kda": stack["kda"],
        "mla": stack["mla"],
        "experts_per_token": int(derived["experts_per_token"]),
        "experts": int(derived["experts_total"]),
    }
    return {
        "headline": headline,
        "stack": stack,
        "dense_layers": dense_layers,
        "components": components,
        "tiles": tiles,
        # what the map writes (site/readertext.py), from the counts above
        "text": {
            "tiles_label": "Kimi K3 at a glance",
            "components_label": "Components of the map",
            "hint": "Choose a component above or on the map to read what it does, with its numbers and a link to its "
            "section.",
            "closed": "Panel closed.",
            "activation_title": "Expert activation: SiTU vs SiLU",
            "map_label": (
                f"Map of the {n} layers: {stack['kda']} KDA and {stack['mla']} gated MLA attention layers, a dense "
                "first feed-forward layer and mixture-of-experts layers after it, in "
                f"{len(stack['blocks'])} attention-residual blocks."
            ),
            "block_labels": [f"block {i + 1}" for i in range(len(stack["blocks"]))],
            "end_labels": ["layer 1", f"layer {stack['blocks'][-1][1]}"],  # under the map's two ends
            "context": f"{context} tokens",
        },
        "situ": {
            "beta": beta,
            "beta_lin": beta_lin,
            "x": x,
            "situ": situ_values,
            "silu": silu_values,
            # the slider's reading and the two values at each sample, as the readout shows them
            "x_text": [fixed(v, 2) for v in x],
            "situ_text": [fixed(v, 3) for v in situ_values],
            "silu_text": [fixed(v, 3) for v in silu_values],
            "text": {
                "plot_label": f"Line plot of SiTU with beta {fixed(beta, 0)} and SiLU for inputs from "
                f"{fixed(x[0], 0)} to {fixed(x[-1], 0)}.",
                "beta_sub": f"β={fixed(beta, 0)}",
                "cap": f"cap β = {fixed(beta, 0)}",
                "said": "At g = {g}: SiTU {situ}, SiLU {silu}.",
            },
            "note_md": "K3: {{kimi_k3.situ}}. The up branch is capped the same way, so the product entering the "
            "down-projection stays bounded.",
        },
        "provenance": {
            "kernels": [
                "experiments.hybrid_layout",
                "experiments.k3_derived",
                "k3explainer.kernels.situ",
                "k3explainer.kernels.silu",
            ],
            "inputs": (
                f"facts kimi_k3.layer_layout, attnres_blocks, experts, total/active params, context; "
                f"dense_layers {dense_layers}; SiTU β = {beta} on {len(x)} points in [{x[0]}, {x[-1]}], "
                f"rounded to {DIGITS} decimals"
            ),
            "seed": None,
            "facts": sorted(
                {t["fact"] for t in tiles}
                | {"kimi_k3.attnres_blocks", "kimi_k3.situ"}
                | set(cited_facts(params["components"]))
            ),
        },
    }
