"""FIG 11 · Router → top-k experts: router scores as dot products with seeded expert centroids,
top-k selection, renormalised gate weights, the mixed output, per-expert load and a balance
statistic — with and without a selection-only balancing bias — plus K3's headline numbers."""

from typing import Literal

import numpy as np
from pydantic import BaseModel, ConfigDict, Field, StrictStr

from k3explainer.kernels import (
    balance_shares,
    expert_load,
    glu_expert,
    moe_forward,
    router_scores,
    switch_balance_loss,
    update_balance_bias,
)
from k3explainer.site.readertext import fixed

# The one balance statistic FIG 11 shows: the Switch Transformer loss of the fact moe.switch_aux_loss
# (its display reads "L_aux = α·N·Σ f_i P_i") with α = 1; `switch_balance_loss` computes it.
BALANCE_FACT = "moe.switch_aux_loss"
BALANCE_FORMULA = "N·Σ f_i P_i"


class Params(BaseModel):
    model_config = ConfigDict(extra="forbid")
    tokens: list[StrictStr] = Field(min_length=1)  # the batch; quote on/off/yes/no: YAML would read a boolean
    feature_dim: int = Field(ge=1)  # D: width of each token's features and of each expert centroid
    n_experts: int = Field(ge=1)  # E routed experts (build checks top_k ≤ n_experts)
    top_k: int = Field(ge=1)  # routed experts chosen per token
    n_shared: int = Field(ge=1)  # shared experts every token sees (fused into one MLP n_shared times as wide)
    score_func: Literal["sigmoid", "softmax"]  # router score s_e of the dot product x·c_e (kernels.router_scores)
    renormalize: Literal[True]  # gates g_e = s_e ÷ Σ chosen s: every text of the figure says so
    balance_statistic: Literal["switch"]  # Switch Transformer's N·Σ f_i P_i, the only one defined
    seed: int  # features, centroids and expert weights from default_rng(seed)
    expert_hidden: int = Field(ge=1)  # F: each SwiGLU expert's hidden width
    bias_gamma: float = Field(gt=0)  # γ: the size of the one selection-only bias step
    precision: int = Field(ge=1, le=6)  # decimals the figure shows (scores, gates, the statistic)


def _routing(x, W_router, experts, shared, top_k, params, bias=None) -> dict:
    """One MoE pass over the batch (optionally with a selection-only bias): choices, gates, each
    chosen expert's output, the mixed output, per-expert load and the balance statistic."""
    y, r = moe_forward(
        x,
        W_router,
        experts,
        top_k,
        shared=shared,
        score_func=params["score_func"],
        renormalize=params["renormalize"],
        bias=bias,
    )
    T, E = len(x), W_router.shape[1]
    f, P = balance_shares(r["scores"], r["experts"])
    return {
        "experts": r["experts"],  # [T, k], best first (by score + bias)
        "weights": r["weights"],  # [T, k] from the unbiased scores, renormalised over the chosen
        "expert_out": np.array(
            [[glu_expert(x[t], *(w[e] for w in experts)) for e in r["experts"][t]] for t in range(T)]
        ),  # [T, k, D] E_e(x) in the same order
        "y": y,  # [T, D] = Σ g_e E_e(x) + shared
        "load": expert_load(r["experts"], E),
        "f": f,  # [E] share of the k·T routing slots
        "P": P,  # [E] mean of s_e / Σ_j s_j over the tokens
        "balance": switch_balance_loss(r["scores"], r["experts"]),  # N·Σ f_i P_i
    }


def _balance_texts(facts, T: int, E: int, k: int) -> dict:
    """The statistic's label and definition, both naming the fact whose formula the kernel computes."""
    display = facts[BALANCE_FACT].display
    if BALANCE_FORMULA not in display:  # the label, the badge and the kernel must state one formula
        raise ValueError(f"{BALANCE_FACT} no longer reads {BALANCE_FORMULA!r}: {display!r}")
    return {
        "balance_formula": BALANCE_FORMULA,
        "balance_label_md": f"Balance statistic {{{{{BALANCE_FACT}}}}}, here with α = 1",
        "balance_def_md": (
            f"f_i is expert i's share of the {k * T} routing slots ({k} per token, {T} tokens) and P_i its "
            f"router score divided by the sum of the token's {E} scores, averaged over the tokens; f_i and P_i "
            f"each sum to 1 over the N = {E} experts. Switch Transformer sends each token to one expert; counting "
            f"slots carries its definition over to top-{k}, and an even load still gives exactly 1."
        ),
    }


def _names(E: int, n_shared: int) -> tuple[list[str], list[str]]:
    """The routed experts' names (E1 … E8) and the shared ones' (S1, S2), as the diagram labels them."""
    return [f"E{e + 1}" for e in range(E)], [f"S{j + 1}" for j in range(n_shared)]


def _routing_texts(r: dict, biased: bool, tokens: list[str], shared_out, balance_even: str, params: dict) -> dict:
    """Every text that shows one routing (without or with the bias), per token where it depends on
    the token: the table's ranks and gates, the line under it, the output rows, the diagram's and
    the load chart's labels, the balance readout and the narration."""
    P, k, n_shared = int(params["precision"]), int(params["top_k"]), int(params["n_shared"])
    E = len(r["load"])
    names, shared = _names(E, n_shared)
    formula = BALANCE_FORMULA
    # (name, gate) of each token's chosen experts, best first
    chosen = [
        [(names[e], fixed(g, P)) for e, g in zip(es, gs, strict=True)]
        for es, gs in zip(r["experts"], r["weights"], strict=True)
    ]
    gate_sum = [fixed(sum(gs), P) for gs in r["weights"]]
    loads = ", ".join(str(n) for n in r["load"])
    return {
        "rank": [[str(list(es).index(e) + 1) if e in es else "—" for e in range(E)] for es in r["experts"]],
        "gate": [
            [fixed(gs[list(es).index(e)], P) if e in es else "0" for e in range(E)]
            for es, gs in zip(r["experts"], r["weights"], strict=True)
        ],
        "sum_line": [
            f"s_e = {params['score_func']}(x·c_e). The top {k} of {E} by s_e{' + bias' if biased else ''} win; each "
            f"gate g_e = s_e ÷ (sum of the {k} chosen s_e, without the bias), so the gates sum to {total}. "
            f"Shared {', '.join(shared)} add with weight 1."
            for total in gate_sum
        ],
        "routes_label": [
            f"Routes of {_token_label(tokens, t)}: to {', '.join(f'{e} with gate {g}' for e, g in c)}, "
            "and to the shared experts."
            for t, c in enumerate(chosen)
        ],
        # each row is E_e(x) itself (y weights it by g_e), so the label names the gate beside it, not a product
        "output_rows": [
            [f"{names[e]}(x), g = {fixed(g, 2)}" for e, g in zip(es, gs, strict=True)] + ["shared(x)", "y"]
            for es, gs in zip(r["experts"], r["weights"], strict=True)
        ],
        "output": [
            [[fixed(v, P) for v in row] for row in [*r["expert_out"][t], shared_out[t], r["y"][t]]]
            for t in range(len(tokens))
        ],
        "load": [str(n) for n in r["load"]],
        "load_label": f"Routing slots per expert{' with the bias' if biased else ''}, of {k * len(tokens)}: "
        + ", ".join(f"{names[e]} {n}" for e, n in enumerate(r["load"])),
        "balance": fixed(r["balance"], P),
        "balance_label": f"{formula} {'with the bias' if biased else 'for this batch'}",
        "other_label": "without it" if biased else "after one bias step",  # beside the other routing's balance
        "said_bias": f"Bias {'on' if biased else 'off'}: loads {loads}; balance statistic {formula} "
        f"{fixed(r['balance'], P)}, {balance_even} at perfect balance; the gate weights still come "
        "from the scores without the bias.",
        "said_token": [
            f"{_token_label(tokens, t)} goes to {', '.join(f'{e} (g = {g})' for e, g in c)} and to the {n_shared} "
            f"shared experts; the gates sum to {gate_sum[t]}."
            for t, c in enumerate(chosen)
        ],
    }


def _token_label(tokens: list[str], t: int) -> str:
    return f"“{tokens[t]}” (token {t + 1})"


def _headline(facts) -> list[dict]:
    """K3's tiles: every number a fact or a computed `calc.*` fact (two different fractions)."""
    e = facts.parts("kimi_k3.experts")
    routed, shared, top_k = int(e["routed"]), int(e["shared"]), int(e["top_k"])
    return [
        {"label": "total parameters", "value_md": "{{kimi_k3.total_params}}"},
        {"label": "active per token", "value_md": "{{kimi_k3.active_params}}"},
        {"label": "experts per MoE layer", "value_md": f"{routed:,} routed + {shared} shared"},
        {"label": "routed experts per token", "value_md": f"{top_k} of {routed:,} (+ {shared} shared)"},
        {"label": "of parameters active", "value_md": "{{calc.k3_active_fraction}}"},
        {"label": f"of routed experts firing ({top_k}/{routed:,})", "value_md": "{{calc.k3_routed_fraction}}"},
    ]


def build(params: dict, facts) -> dict:
    tokens = params["tokens"]
    if not all(isinstance(t, str) for t in tokens):  # YAML reads a bare on/off/yes/no as a boolean
        raise TypeError(f"tokens must be strings (quote them in the spec): {tokens}")
    D, E, k, F = (int(params[n]) for n in ("feature_dim", "n_experts", "top_k", "expert_hidden"))
    if params["renormalize"] is not True:  # every text of the figure says g_e = s_e ÷ Σ chosen s
        raise ValueError("FIG 11 shows renormalised gates: renormalize must be true")
    if not 1 <= k <= E:
        raise ValueError(f"top_k must be in 1..{E}, got {k}")
    rng = np.random.default_rng(params["seed"])
    T = len(tokens)

    # seeded inputs, rounded to 3 decimals so the shipped copy is exactly what the kernels saw
    def q(a):
        return np.round(a, 3)

    x = q(rng.standard_normal((T, D)))  # token features
    centroids = q(rng.standard_normal((E, D)))  # one centroid per routed expert
    experts = tuple(q(rng.standard_normal(s) / np.sqrt(s[1])) for s in ((E, D, F), (E, D, F), (E, F, D)))
    Fs = F * int(params["n_shared"])  # the shared experts fused into one wider MLP
    shared = (
        q(rng.standard_normal((D, Fs)) / np.sqrt(D)),
        q(rng.standard_normal((D, Fs)) / np.sqrt(D)),
        q(rng.standard_normal((Fs, D)) / np.sqrt(Fs)),
    )
    W_router = centroids.T  # logits = x · centroid_e: the router scores are plain dot products

    plain = _routing(x, W_router, experts, shared, k, params)
    # one aux-loss-free step: overloaded experts' bias down, idle ones' up; it only changes the choice
    bias = update_balance_bias(np.zeros(E), plain["load"], float(params["bias_gamma"]))
    biased = _routing(x, W_router, experts, shared, k, params, bias)
    if params["balance_statistic"] != "switch":
        raise ValueError(
            f"balance_statistic: only 'switch' ({BALANCE_FORMULA}) is defined, got {params['balance_statistic']!r}"
        )
    # the value at perfect balance, from the same kernel: every expert gets k·T/N slots (round robin)
    # and the scores are equal (either alone gives 1, since Σ f_i = Σ P_i = 1)
    even = (np.arange(T)[:, None] * k + np.arange(k)) % E
    balance_even = switch_balance_loss(np.ones((T, E)), even)
    shared_out = glu_expert(x, *shared)
    logits = x @ W_router
    scores = router_scores(logits, params["score_func"])
    P = int(params["precision"])
    names, shared_names = _names(E, int(params["n_shared"]))
    # what the figure shows, written here (readertext) so tests read every sentence in every state
    for r, biased_ in ((plain, False), (biased, True)):
        r["text"] = _routing_texts(r, biased_, tokens, shared_out, fixed(balance_even, P), params)
    load = plain["load"]
    return {
        # the figure's answer (its takeaway), for the batch it opens on (no bias): how many experts each
        # token mixes, and the busiest and the idlest routed experts with their loads (tokens each)
        "headline": {
            "top_k": k,
            "experts": E,
            "shared": int(params["n_shared"]),
            "tokens": T,
            "busiest": [names[e] for e in range(E) if load[e] == load.max()],
            "busiest_load": int(load.max()),
            "idlest": [names[e] for e in range(E) if load[e] == load.min()],
            "idlest_load": int(load.min()),
        },
        "tokens": tokens,
        "x": x,
        "centroids": centroids,
        "top_k": k,
        "score_func": params["score_func"],
        "n_shared": int(params["n_shared"]),
        "logits": logits,  # the dot products, before the score function
        "scores": scores,  # [T, E], the same with or without bias
        "plain": plain,
        "bias": bias,
        "biased": biased,
        "shared_out": shared_out,  # [T, D], weight 1 for every token
        "expert_weights": experts,  # (W_gate, W_up, W_down), shipped so a test can recompute E_e(x)
        "shared_weights": shared,
        "balance_even": balance_even,  # 1 at perfect balance
        "text": {
            "expert_names": names,
            "shared_names": shared_names,
            "token_aria": [f"Token {t + 1}, {w}" for t, w in enumerate(tokens)],
            "chosen_key": [f"experts “{w}” uses" for w in tokens],  # the load chart's legend
            "load_title": "Tokens per routed expert over the batch",
            "load_full": f"full height: all {T} tokens",
            "output_caption": "y = Σ g_e E_e(x) + shared",
            "logit": [[fixed(v, P) for v in row] for row in logits],
            "score": [[fixed(v, P) for v in row] for row in scores],
            "bias": [fixed(v, P) for v in bias],
            "balance_even": fixed(balance_even, P),
            "perfect": "at perfect balance",
        },
        **_balance_texts(facts, T, E, k),
        "precision": int(params["precision"]),
        "tiles": _headline(facts),
        "provenance": {
            "kernels": [
                "k3explainer.kernels.moe_forward",
                "k3explainer.kernels.router_scores",
                "k3explainer.kernels.glu_expert",
                "k3explainer.kernels.expert_load",
                "k3explainer.kernels.moe.balance_shares",
                "k3explainer.kernels.switch_balance_loss",
                "k3explainer.kernels.update_balance_bias",
            ],
            "inputs": f"x [{T}, {D}], centroids [{E}, {D}], SwiGLU experts of width {F} "
            f"(shared: {params['n_shared']} experts fused, width {F * params['n_shared']}), standard normal / √fan-in; "
            f"router score s_e = {params['score_func']}(x·c_e); the top {k} by s_e (plus the bias when it is on); "
            f"gate g_e = s_e ÷ the sum of the {k} chosen s_e, without the bias; bias step γ = {params['bias_gamma']}",
            "seed": params["seed"],
            "balance": f"Switch Transformer's {BALANCE_FORMULA} ({BALANCE_FACT}, α = 1) with f_i = load_i ÷ ({k}·{T}) "
            f"and P_i = mean over tokens of s_i ÷ Σ_j s_j; {balance_even:g} at perfect balance, "
            f"{plain['balance']:.{params['precision']}f} for this batch, "
            f"{biased['balance']:.{params['precision']}f} after one bias step",
            "illustrative": "six tokens and eight experts are a demo; K3's tiles come from facts",
        },
    }
