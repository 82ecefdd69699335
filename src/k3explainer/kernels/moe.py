"""Mixture-of-Experts routing, experts and balancing — docs/kernels.md §8 (DeepSeek-V3 `Gate`/`MoE`).

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
    for e, params in enumerate(zip(*experts, strict=True)):  # dispatch: each expert sees only its own tokens
        tokens, slot = np.nonzero(r["experts"] == e)
        if len(tokens):
            y[tokens] += r["weights"][tokens, slot, None] * glu_expert(x[tokens], *params, activation=activation)
    return y, r


def expert_load(experts, n_experts):
    """Tokens routed to each expert, [E] (a token counts once per selected expert)."""
    return np.bincount(np.asarray(experts).ravel(), minlength=n_experts)


def balance_shares(scores, experts):
    """The two shares the balance statistic multiplies, each summing to 1 over the N experts:
    f_i = share of the k·T routing slots (token-expert assignments) that went to expert i, and
    P_i = mean over tokens of s_i / Σ_j s_j (the router's scores made into a distribution per token;
    a no-op for softmax probabilities). scores [T, N] ≥ 0; experts [T, k]. Returns (f [N], P [N])."""
    scores = np.asarray(scores, dtype=np.float64)
    T, N = scores.shape
    k = np.shape(experts)[-1]
    f = expert_load(experts, N) / (k * T)
    P = (scores / scores.sum(axis=-1, keepdims=True)).mean(axis=0)
    return f, P


def switch_balance_loss(scores, experts, *, alpha=1.0):
    """Switch Transformer's load-balancing loss L_aux = α·N·Σ_i f_i P_i (Fedus et al. 2021, eq. 4),
    with f_i and P_i from `balance_shares`.

    Switch routes each token to one expert (experts [T, 1]) with softmax probabilities; there f_i is
    the fraction of tokens sent to expert i and this is exactly eq. 4. For top-k, f_i counts the k·T
    routing slots, so Σ f_i = 1 still. Since Σ f_i = Σ P_i = 1,

        L_aux / α = 1 + N·Σ_i (f_i − 1/N)(P_i − 1/N),

    so it is exactly α whenever the load is even (every f_i = 1/N, whatever the scores), above α when
    the experts given more than their share of slots also get more than their share of the scores (a
    collapsing router), and it can fall below α when the two disagree.
    (Hugging Face's `load_balancing_loss_func` counts f per token instead, which is k times this.)"""
    f, P = balance_shares(scores, experts)
    return alpha * len(f) * np.sum(f * P)


def sequence_balance_loss(scores, experts, *, alpha=1.0):
    """DeepSeek-V3's sequence-wise loss α·Σ_i f'_i P_i written with its own normalisation,
    f'_i = N/(k·T)·load_i = N·f_i: the same number as `switch_balance_loss` (α at even load)."""
    T, N = np.shape(scores)
    k = np.shape(experts)[-1]
    f = N / (k * T) * expert_load(experts, N)
    P = (scores / scores.sum(axis=-1, keepdims=True)).mean(axis=0)
    return alpha * np.sum(f * P)


def update_balance_bias(bias, load, gamma):
    """Aux-loss-free step: b_e −= γ if expert e got more than the mean load, += γ if less."""
    load = np.asarray(load, dtype=np.float64)
    return bias - gamma * np.sign(load - load.mean())
