"""Mixture-of-Experts routing, experts and balancing — KERNELS.md §8 (DeepSeek-V3 `Gate`/`MoE`).

Tokens x [T, D], router logits [T, E]. Routing: scores s (softmax or sigmoid) → top-k on
s + bias (the bias only chooses) → weights from the unbiased s → optional renormalisation →
route_scale. Output y = Σ_{e∈top-k} g_e(x) E_e(x) + Shared(x).
"""
import numpy as np

from .activations import sigmoid, situ_glu, softmax, swiglu


def router_scores(logits, score_func="softmax"):
    """s = softmax(logits) over experts (V2 / Mixtral) or sigmoid(logits) per expert (V3, K2, K3)."""
    if score_func == "softmax":
        return softmax(logits, axis=-1)
    if score_func == "sigmoid":
        return sigmoid(logits)
    raise ValueError(f"unknown score_func {score_func!r}")


def route(logits, top_k, *, score_func="softmax", bias=None, renormalize=None, route_scale=1.0):
    """Top-k routing. Returns a dict: scores [T, E], experts [T, k] (best first), weights [T, k],
    gates [T, E] (weights scattered, 0 for unselected experts).

    `bias` [E] (aux-loss-free balancing) is added for selection only. `renormalize=None`
    follows DeepSeek-V3: sigmoid scores are renormalised over the selected experts, softmax
    scores are not; pass True for the Mixtral/HF rule (softmax → top-k → renormalise).
    """
    s = router_scores(logits, score_func)  # [T, E]
    s_sel = s if bias is None else s + bias  # the bias changes which experts fire, not their weight
    experts = np.argsort(-s_sel, axis=-1, kind="stable")[:, :top_k]  # [T, k]
    w = np.take_along_axis(s, experts, axis=-1)  # [T, k] unbiased scores
    if renormalize is None:
        renormalize = score_func == "sigmoid"  # DeepSeek-V3 Gate renormalises sigmoid scores only
    if renormalize:
        w = w / w.sum(axis=-1, keepdims=True)
    w = route_scale * w
    gates = np.zeros_like(s)
    np.put_along_axis(gates, experts, w, axis=-1)
    return dict(scores=s, experts=experts, weights=w, gates=gates)


def glu_expert(x, W_gate, W_up, W_down, *, activation="swiglu"):
    """One GLU expert W_down[act(x W_gate) ⊙ x W_up]: "swiglu" (DeepSeek, K2) or "situ" (K3, β 4 / 25).
    x [..., D], W_gate/W_up [D, F], W_down [F, D]."""
    gate, up = x @ W_gate, x @ W_up  # [..., F]
    h = swiglu(gate, up) if activation == "swiglu" else situ_glu(gate, up)
    return h @ W_down


def moe_forward(x, W_router, experts, top_k, *, shared=None, activation="swiglu", **route_kwargs):
    """y = Σ_{e∈top-k(x)} g_e(x) E_e(x) + Shared(x).

    x [T, D]; W_router [D, E]; `experts` = (W_gate [E, D, F], W_up [E, D, F], W_down [E, F, D]);
    `shared` = one (W_gate, W_up, W_down) applied to every token with weight 1 (n shared experts
    are one MLP n times as wide). Extra keyword arguments go to `route`. Returns (y [T, D], routing).
    """
    x = np.asarray(x, dtype=np.float64)
    r = route(x @ W_router, top_k, **route_kwargs)
    y = np.zeros_like(x) if shared is None else glu_expert(x, *shared, activation=activation)
    for e, params in enumerate(zip(*experts)):  # dispatch: each expert sees only its own tokens
        tokens, slot = np.nonzero(r["experts"] == e)
        if len(tokens):
            y[tokens] += r["weights"][tokens, slot, None] * glu_expert(x[tokens], *params, activation=activation)
    return y, r


def expert_load(experts, n_experts):
    """Tokens routed to each expert, [E] (a token counts once per selected expert)."""
    return np.bincount(np.asarray(experts).ravel(), minlength=n_experts)


def switch_balance_loss(probs, experts, *, alpha=1.0):
    """Switch/GShard loss α·E·Σ_e f_e P_e: f_e = fraction of tokens sent to e, P_e = mean router
    probability of e. With experts [T, 1] this is Switch eq. 4 (value α at perfect balance).
    With experts [T, k] it is HF's `load_balancing_loss_func` (f summed over the k slots), whose
    value at perfect balance is k·α, not α."""
    T, E = probs.shape
    return alpha * E * np.sum(expert_load(experts, E) / T * probs.mean(axis=0))


def sequence_balance_loss(scores, experts, *, alpha=1.0):
    """DeepSeek-V3 sequence-wise loss α·Σ_e f_e P_e, f_e = E/(k·T)·load_e, P_e = mean of s_e/Σ s;
    = α at perfect balance (equals the HF top-k loss divided by k when the scores are probabilities)."""
    T, E = scores.shape
    k = np.shape(experts)[-1]
    f = E / (k * T) * expert_load(experts, E)
    P = (scores / scores.sum(axis=-1, keepdims=True)).mean(axis=0)
    return alpha * np.sum(f * P)


def update_balance_bias(bias, load, gamma):
    """Aux-loss-free step: b_e −= γ if expert e got more than the mean load, += γ if less."""
    load = np.asarray(load, dtype=np.float64)
    return bias - gamma * np.sign(load - load.mean())
