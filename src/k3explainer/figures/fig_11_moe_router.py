"""FIG 11 · Router → top-k experts: router scores as dot products with seeded expert centroids,
top-k selection, renormalised gate weights, the mixed output, per-expert load and a balance
statistic — with and without a selection-only balancing bias — plus K3's headline numbers."""
import numpy as np

from k3explainer.kernels import (
    expert_load,
    glu_expert,
    moe_forward,
    router_scores,
    sequence_balance_loss,
    update_balance_bias,
)


def _routing(x, W_router, experts, shared, top_k, params, bias=None) -> dict:
    """One MoE pass over the batch (optionally with a selection-only bias): choices, gates, each
    chosen expert's output, the mixed output, per-expert load and the balance statistic."""
    y, r = moe_forward(x, W_router, experts, top_k, shared=shared, score_func=params["score_func"],
                       renormalize=params["renormalize"], bias=bias)
    T, E = len(x), W_router.shape[1]
    return {
        "experts": r["experts"],  # [T, k], best first (by score + bias)
        "weights": r["weights"],  # [T, k] from the unbiased scores, renormalised over the chosen
        "expert_out": np.array([[glu_expert(x[t], *(w[e] for w in experts)) for e in r["experts"][t]]
                                for t in range(T)]),  # [T, k, D] E_e(x) in the same order
        "y": y,  # [T, D] = Σ g_e E_e(x) + shared
        "load": expert_load(r["experts"], E),
        "balance": sequence_balance_loss(r["scores"], r["experts"]),
    }


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
    if not 1 <= k <= E:
        raise ValueError(f"top_k must be in 1..{E}, got {k}")
    rng = np.random.default_rng(params["seed"])
    T = len(tokens)
    # seeded inputs, rounded to 3 decimals so the shipped copy is exactly what the kernels saw
    q = lambda a: np.round(a, 3)
    x = q(rng.standard_normal((T, D)))  # token features
    centroids = q(rng.standard_normal((E, D)))  # one centroid per routed expert
    experts = tuple(q(rng.standard_normal(s) / np.sqrt(s[1])) for s in ((E, D, F), (E, D, F), (E, F, D)))
    Fs = F * int(params["n_shared"])  # the shared experts fused into one wider MLP
    shared = (q(rng.standard_normal((D, Fs)) / np.sqrt(D)), q(rng.standard_normal((D, Fs)) / np.sqrt(D)),
              q(rng.standard_normal((Fs, D)) / np.sqrt(Fs)))
    W_router = centroids.T  # logits = x · centroid_e: the router scores are plain dot products

    plain = _routing(x, W_router, experts, shared, k, params)
    # one aux-loss-free step: overloaded experts' bias down, idle ones' up; it only changes the choice
    bias = update_balance_bias(np.zeros(E), plain["load"], float(params["bias_gamma"]))
    biased = _routing(x, W_router, experts, shared, k, params, bias)
    return {
        "tokens": tokens,
        "x": x,
        "centroids": centroids,
        "top_k": k,
        "n_shared": int(params["n_shared"]),
        "logits": x @ W_router,  # the dot products, before the score function
        "scores": router_scores(x @ W_router, params["score_func"]),  # [T, E], the same with or without bias
        "plain": plain,
        "bias": bias,
        "biased": biased,
        "shared_out": glu_expert(x, *shared),  # [T, D], weight 1 for every token
        "expert_weights": experts,  # (W_gate, W_up, W_down), shipped so a test can recompute E_e(x)
        "shared_weights": shared,
        "precision": int(params["precision"]),
        "tiles": _headline(facts),
        "provenance": {
            "kernels": ["k3explainer.kernels.moe_forward", "k3explainer.kernels.router_scores",
                        "k3explainer.kernels.glu_expert", "k3explainer.kernels.expert_load",
                        "k3explainer.kernels.sequence_balance_loss", "k3explainer.kernels.update_balance_bias"],
            "inputs": f"x [{T}, {D}], centroids [{E}, {D}], SwiGLU experts of width {F} "
                      f"(shared: {params['n_shared']} experts fused, width {F * params['n_shared']}), standard normal / √fan-in; "
                      f"{params['score_func']} scores, top-{k}, renormalised; bias step γ = {params['bias_gamma']}",
            "seed": params["seed"],
            "balance": "E·Σ f_e P_e with f_e = E/(k·T)·load_e and P_e the mean normalised score: 1 at perfect balance",
            "illustrative": "six tokens and eight experts are a demo; K3's tiles come from facts",
        },
    }
