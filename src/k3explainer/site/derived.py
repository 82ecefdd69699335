"""Values the article derives from its facts (ratios, fractions, counts), computed, never typed.

Each becomes a fact under `calc.*` whose provenance names the facts it was computed from, so
`{{calc.k3_active_fraction}}` in prose renders like any sourced number.
"""
from __future__ import annotations

from k3explainer.kernels.params import k3_derived

from .facts import Fact, Facts


def _pct(x: float) -> str:
    return f"{100 * x:.2f}%"


def derived_facts(facts: Facts) -> list[Fact]:
    n = facts.number
    parts = facts.parts
    gpt2 = n("gpt2_small.params_total_vocab50257")
    experts, layout = parts("kimi_k3.experts"), parts("kimi_k3.layer_layout")
    k3 = k3_derived(  # counts arrive as YAML numbers; keep them integers so they print as 23, not 23.0
        total_params=n("kimi_k3.total_params"), active_params=n("kimi_k3.active_params"),
        routed=int(experts["routed"]), shared=int(experts["shared"]), top_k=int(experts["top_k"]),
        layers=int(layout["layers"]), kda_layers=int(layout["kda"]), mla_layers=int(layout["mla"]),
        block_size=int(parts("kimi_k3.attnres_blocks")["block_size"]), gpt2_params=gpt2,
    )
    nominal = n("kimi_k3.total_params") / round(gpt2, -6)  # the headline's rounded "124M"
    dsv2 = parts("mla_dsv2.kv_cache_per_token")
    kl = parts("kimi_linear.hybrid_ratio")
    rows = [
        ("gpt2_to_k3_ratio", k3["gpt2_multiple"], f"~{round(k3['gpt2_multiple'], -2):,.0f}×",
         "Kimi K3 total parameters ÷ exact GPT-2 small count", ["kimi_k3.total_params", "gpt2_small.params_total_vocab50257"]),
        ("gpt2_to_k3_ratio_nominal", nominal, f"{int(nominal):,d}×",
         "2.8T ÷ 124M, the rounded headline numbers", ["kimi_k3.total_params", "gpt2_small.params_total_vocab50257"]),
        ("k3_active_fraction", k3["active_fraction"], _pct(k3["active_fraction"]),
         "activated ÷ total parameters (a parameter fraction, not an expert count)", ["kimi_k3.active_params", "kimi_k3.total_params"]),
        ("k3_routed_fraction", k3["routed_fraction"], _pct(k3["routed_fraction"]),
         "routed experts selected per token ÷ routed experts", ["kimi_k3.experts"]),
        ("k3_attnres_blocks", k3["attnres_blocks"], f"{k3['attnres_blocks']}",
         "ceil(layers ÷ AttnRes block size)", ["kimi_k3.layer_layout", "kimi_k3.attnres_blocks"]),
        ("k3_macrocycles", k3["macrocycles"], f"{k3['macrocycles']}",
         "KDA layers ÷ 3 (each cycle is 3 KDA + 1 MLA; one final MLA layer stands outside)", ["kimi_k3.layer_layout"]),
        ("mla_dsv2_cache_ratio", dsv2["mha"] / dsv2["mla"], f"{dsv2['mha'] / dsv2['mla']:.1f}×",
         "MHA ÷ MLA cache elements per token per layer in DeepSeek-V2", ["mla_dsv2.kv_cache_per_token"]),
        ("kimi_linear_kv_layers_saved", 1 - kl["mla"] / kl["layers"], f"{100 * (1 - kl['mla'] / kl['layers']):.1f}%",
         "share of Kimi Linear 48B layers that keep no KV cache", ["kimi_linear.hybrid_ratio"]),
    ]
    return [
        Fact(key=f"calc.{key}", claim=claim, value=value, number=value, display=display, provenance="source",
             source="Computed at build time from " + ", ".join(sources))
        for key, value, display, claim, sources in rows
    ]
