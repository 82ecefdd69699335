"""Values the article derives from its facts (ratios, fractions, counts), computed, never typed.

The project's hook (k3explainer.site.projectcode): the build calls `derived_facts(facts)` after
loading content/facts.yaml. Each value becomes a fact under `calc.*` whose provenance names the facts it was computed from, so
`{{calc.k3_active_fraction}}` in prose renders like any sourced number.
"""

from __future__ import annotations

from k3explainer.kernels import kda_decode_memory, mla_decode_memory
from k3explainer.site.facts import Fact, Facts

from .experiments import k3_derived


def _pct(x: float) -> str:
    return f"{100 * x:.2f}%"


def _rough_pct(x: float) -> str:
    """A share of two rounded headline counts (2.8T, 104B): one decimal, marked as approximate."""
    return f"≈{100 * x:.1f}%"


def derived_facts(facts: Facts) -> list[Fact]:
    n = facts.number
    parts = facts.parts
    gpt2 = n("gpt2_small.params_total_vocab50257")
    experts, layout = parts("kimi_k3.experts"), parts("kimi_k3.layer_layout")
    k3 = k3_derived(  # counts arrive as YAML numbers; keep them integers so they print as 23, not 23.0
        total_params=n("kimi_k3.total_params"),
        active_params=n("kimi_k3.active_params"),
        routed=int(experts["routed"]),
        shared=int(experts["shared"]),
        top_k=int(experts["top_k"]),
        layers=int(layout["layers"]),
        kda_layers=int(layout["kda"]),
        mla_layers=int(layout["mla"]),
        block_size=int(parts("kimi_k3.attnres_blocks")["block_size"]),
        gpt2_params=gpt2,
    )
    nominal = n("kimi_k3.total_params") / round(gpt2, -6)  # the headline's rounded "124M"
    dsv2 = parts("mla_dsv2.kv_cache_per_token")
    kl = parts("kimi_linear.hybrid_ratio")
    k2 = parts("kimi_k2.summary")
    mla, kda = parts("kimi_k3.gated_mla"), parts("kimi_k3.kda_gate")
    mla_per_token_layer = float(mla_decode_memory(1, int(mla["kv_lora_rank"]), int(mla["shared_key"])))
    kda_per_layer = kda_decode_memory(int(kda["heads"]), int(kda["head_dim"]))
    mla_per_token = mla_per_token_layer * int(layout["mla"])
    kda_state = kda_per_layer * int(layout["kda"])
    k3_src, k2_src = ["kimi_k3.total_params", "kimi_k3.active_params", "kimi_k3.experts"], ["kimi_k2.summary"]
    rows = [
        (
            "gpt2_to_k3_ratio",
            k3["gpt2_multiple"],
            f"~{round(k3['gpt2_multiple'], -2):,.0f}×",
            "Kimi K3 total parameters ÷ exact GPT-2 small count",
            ["kimi_k3.total_params", "gpt2_small.params_total_vocab50257"],
        ),
        (
            "gpt2_to_k3_ratio_nominal",
            nominal,
            f"≈{nominal:,.0f}×",
            "2.8T ÷ 124M, the rounded headline numbers",
            ["kimi_k3.total_params", "gpt2_small.params_total_vocab50257"],
        ),
        (
            "k3_active_fraction",
            k3["active_fraction"],
            _rough_pct(k3["active_fraction"]),
            "activated ÷ total parameters (a parameter fraction, not an expert count)",
            ["kimi_k3.active_params", "kimi_k3.total_params"],
        ),
        (
            "k3_routed_fraction",
            k3["routed_fraction"],
            _pct(k3["routed_fraction"]),
            "routed experts selected per token ÷ routed experts",
            ["kimi_k3.experts"],
        ),
        (
            "k3_attnres_blocks",
            k3["attnres_blocks"],
            f"{k3['attnres_blocks']}",
            "ceil(layers ÷ AttnRes block size)",
            ["kimi_k3.layer_layout", "kimi_k3.attnres_blocks"],
        ),
        (
            "k3_residual_writes",
            2 * int(layout["layers"]),
            f"{2 * int(layout['layers'])}",
            "layers × 2: each decoder layer adds its attention (KDA or MLA) output, then its MLP or MoE output, to the "
            "residual stream",
            ["kimi_k3.layer_layout"],
        ),
        (
            "k3_macrocycles",
            k3["macrocycles"],
            f"{k3['macrocycles']}",
            "KDA layers ÷ 3 (each cycle is 3 KDA + 1 MLA; one final MLA layer stands outside)",
            ["kimi_k3.layer_layout"],
        ),
        (
            "mla_dsv2_cache_ratio",
            dsv2["mha"] / dsv2["mla"],
            f"{dsv2['mha'] / dsv2['mla']:.1f}×",
            "MHA ÷ MLA cache elements per token per layer in DeepSeek-V2",
            ["mla_dsv2.kv_cache_per_token"],
        ),
        (
            "kimi_linear_kv_layers_saved",
            1 - kl["mla"] / kl["layers"],
            f"{100 * (1 - kl['mla'] / kl['layers']):.1f}%",
            "share of Kimi Linear 48B layers that keep no KV cache",
            ["kimi_linear.hybrid_ratio"],
        ),
        # K3's decode memory at real scale (elements, not bytes), from the kernels' own accounting
        (
            "k3_mla_cache_per_token_layer",
            mla_per_token_layer,
            f"{mla_per_token_layer:,.0f}",
            "latent + shared key channel cached per token in one gated MLA layer",
            ["kimi_k3.gated_mla"],
        ),
        (
            "k3_mla_cache_per_token",
            mla_per_token,
            f"{mla_per_token:,.0f}",
            "latent + shared key channel cached per token over all gated MLA layers",
            ["kimi_k3.gated_mla", "kimi_k3.layer_layout"],
        ),
        (
            "k3_kda_state_per_layer",
            kda_per_layer,
            f"{kda_per_layer:,}",
            "KDA heads × head dim² in one KDA layer",
            ["kimi_k3.kda_gate"],
        ),
        (
            "k3_kda_state",
            kda_state,
            f"{kda_state / 1e6:.1f} million",
            "KDA state elements per sequence over all KDA layers",
            ["kimi_k3.kda_gate", "kimi_k3.layer_layout"],
        ),
        (
            "k3_kda_state_in_mla_tokens",
            kda_state / mla_per_token,
            f"{round(kda_state / mla_per_token, -1):,.0f}",
            "tokens of MLA cache that take as many elements as all KDA states",
            ["kimi_k3.kda_gate", "kimi_k3.gated_mla", "kimi_k3.layer_layout"],
        ),
        (
            "k3_layer_crossover",
            kda_per_layer / mla_per_token_layer,
            f"{round(kda_per_layer / mla_per_token_layer, -1):,.0f}",
            "context length at which one MLA layer's cache equals one KDA layer's state",
            ["kimi_k3.kda_gate", "kimi_k3.gated_mla"],
        ),
        # K2 → K3: how much each count grew, and the parameter share a token touches in K2
        (
            "k2_to_k3_total_growth",
            n("kimi_k3.total_params") / k2["total_params"],
            f"{n('kimi_k3.total_params') / k2['total_params']:.1f}×",
            "K3 ÷ K2 total parameters",
            k3_src + k2_src,
        ),
        (
            "k2_to_k3_active_growth",
            n("kimi_k3.active_params") / k2["active_params"],
            f"{n('kimi_k3.active_params') / k2['active_params']:.2f}×",
            "K3 ÷ K2 activated parameters",
            k3_src + k2_src,
        ),
        (
            "k2_to_k3_expert_growth",
            experts["routed"] / k2["routed"],
            f"{experts['routed'] / k2['routed']:.2f}×",
            "K3 ÷ K2 routed experts",
            k3_src + k2_src,
        ),
        (
            "k2_active_fraction",
            k2["active_params"] / k2["total_params"],
            _rough_pct(k2["active_params"] / k2["total_params"]),
            "K2 activated ÷ total parameters",
            k2_src,
        ),
    ]
    return [
        Fact(
            key=f"calc.{key}",
            topic=f"derived value calc.{key}",
            value=value,
            number=value,
            display=display,
            provenance="source",
            ref=list(dict.fromkeys(r for s in sources for r in facts.refs(s))),  # the works its inputs cite
            source=f"Computed at build time: {how}. From: " + "; ".join(facts[s].source for s in sources),
        )
        for key, value, display, how, sources in rows
    ]
