"""FIG 11b · Keeping experts busy: the load on each expert over a router's training steps, with no
balancing, with Switch Transformer's auxiliary loss (at several weights α) and with DeepSeek-V3's
selection-only bias — one seeded toy router, the same batches for every run (experiments.balance).

Shipped for the component: the busiest-to-mean load ratio of every run at every step (the lines),
the per-expert loads at every `every`-th step (the bars), the share of routing slots a capacity
limit would drop at each capacity factor, the balance statistic N·Σ f P, the share of the router's
update that the auxiliary loss supplied, and the bias vector of the bias run.
"""

import numpy as np
from pydantic import BaseModel, ConfigDict, Field

from ..experiments import balance_runs, dropped_share, expert_capacity, load_ratio

LABELS = {
    "none": "No balancing",
    "switch": "Switch auxiliary loss",
    "bias": "Selection bias (DeepSeek-V3)",
}


class Params(BaseModel):
    model_config = ConfigDict(extra="forbid")
    n_experts: int = Field(ge=2)  # routed experts N
    top_k: int = Field(ge=1)  # experts chosen per token
    tokens_per_step: int = Field(ge=1)  # T tokens in each step's batch
    feature_dim: int = Field(ge=1)  # d: width of a token's router input
    n_steps: int = Field(ge=1)  # router updates; batches 0 … n_steps are routed
    every: int = Field(ge=1)  # the slider's grid: loads and statistics every this many steps
    seed: int  # every input from default_rng(seed): preference, weights, then the batches
    preference_scale: float = Field(gt=0)  # p0 = scale · standard normal [N]: the skew the router starts with
    weight_scale: float = Field(gt=0)  # W0 = scale · standard normal [d, N]
    lr: float = Field(gt=0)  # the router's learning rate
    gamma: float = Field(gt=0)  # bias step per update (DeepSeek-V3's γ)
    alphas: list[float] = Field(min_length=1)  # the auxiliary-loss weights the reader can pick
    alpha_default: float
    capacity_factors: list[float] = Field(min_length=1)
    capacity_default: float


def sig(x, digits: int = 6) -> np.ndarray:
    """Round to `digits` significant figures: the page shows two decimals, the data stays exact enough to test."""
    x = np.asarray(x, dtype=np.float64)
    return np.array([float(f"{v:.{digits}g}") for v in x.ravel()]).reshape(x.shape)


def draw_inputs(
    seed: int, n_experts: int, feature_dim: int, n_steps: int, tokens: int, preference_scale: float, weight_scale: float
) -> dict:
    """The seeded inputs, in draw order: preference p0 [N], router weights W0 [d, N], batches X [S + 1, T, d]."""
    rng = np.random.default_rng(seed)
    p0 = preference_scale * rng.standard_normal(n_experts)
    W0 = weight_scale * rng.standard_normal((feature_dim, n_experts))
    X = rng.standard_normal((n_steps + 1, tokens, feature_dim))
    return {"p0": p0, "W0": W0, "X": X}


def runs_for(alphas: list[float]) -> list[tuple[str, float]]:
    """No balancing, the auxiliary loss at each α, the bias: the order of every run axis shipped."""
    return [("none", 0.0)] + [("switch", float(a)) for a in alphas] + [("bias", 0.0)]


def build(params: dict, facts) -> dict:
    P = Params.model_validate(params)
    E, k, T, S, every = P.n_experts, P.top_k, P.tokens_per_step, P.n_steps, P.every
    if not 1 <= k < E:
        raise ValueError(f"top_k must be in 1..{E - 1}, got {k}")
    if S % every:
        raise ValueError(f"n_steps ({S}) must be a multiple of every ({every}), so the last step is on the grid")
    if P.alpha_default not in P.alphas or P.capacity_default not in P.capacity_factors:
        raise ValueError("alpha_default and capacity_default must be among alphas and capacity_factors")
    inputs = draw_inputs(P.seed, E, P.feature_dim, S, T, P.preference_scale, P.weight_scale)
    runs = runs_for(P.alphas)
    out = balance_runs(
        inputs["X"][None],
        inputs["W0"][None],
        inputs["p0"][None],
        top_k=k,
        runs=runs,
        gamma=P.gamma,
        lr=P.lr,
        every=every,
    )
    load = out["load"][:, 0]  # [R, S + 1, N] one seed
    grid = out["steps"]  # 0, every, …, S
    caps = [expert_capacity(c, T, E, k) for c in P.capacity_factors]
    at_grid = load[:, grid]  # [R, G, N]
    bias = out["bias"][len(runs) - 1, 0]  # [G, N] the bias run's bias at the grid steps
    return {
        "experts": E,
        "top_k": k,
        "tokens": T,
        "n_steps": S,
        "steps": grid,
        "mean_load": k * T / E,
        "runs": [{"regime": g, "alpha": a} for g, a in runs],
        "labels": LABELS,
        "alphas": P.alphas,
        "alpha_default": P.alpha_default,
        "capacity_factors": P.capacity_factors,
        "capacity_default": P.capacity_default,
        "capacity": caps,  # slots per expert at each capacity factor
        "gamma": P.gamma,
        "lr": P.lr,
        "seed": P.seed,
        "feature_dim": P.feature_dim,  # with the two scales, what a test needs to re-draw the inputs
        "preference_scale": P.preference_scale,
        "weight_scale": P.weight_scale,
        "ratio": load_ratio(load),  # [R, S + 1] busiest ÷ mean, every step
        "ratio_max": E / k,  # the most uneven possible: k experts take every token
        "load": at_grid.astype(int),  # [R, G, N] tokens per expert
        "dropped": np.stack([dropped_share(at_grid, c) for c in caps]),  # [C, R, G]
        "stat": sig(out["stat"][:, 0]),  # [R, G] N·Σ f_i P_i (α = 1)
        "aux_share": sig(out["aux_share"][:, 0]),  # [R, G] the auxiliary loss's share of the router update
        "cosine": sig(out["cosine"][:, 0]),  # [R, G] between the auxiliary and the task update
        # [G, N] the selection bias less its mean over the experts: a shift shared by every expert changes no
        # choice, so this is the part that steers (the raw bias drifts with the sign updates' imbalance)
        "bias": np.round(bias - bias.mean(axis=-1, keepdims=True), 6),
        "load_axis": int(
            np.ceil(at_grid.max() / (k * T / E)) * (k * T / E)
        ),  # the bars' scale: whole multiples of the mean
        "p0": sig(inputs["p0"]),  # the starting preference and weights, so a test can check its re-draw
        "W0": sig(inputs["W0"]),
        "k3_md": (
            "K3 uses {{kimi_k3.balancing}}: the same family as the bias here, but the sources we checked "
            "do not give its update rule, so the figure does not simulate it."
        ),
        "provenance": {
            "kernels": [
                "experiments.balance_runs (checked against balance_run_loop, which uses "
                "moe.route, moe.expert_load, moe.balance_shares, moe.switch_balance_loss and "
                "moe.update_balance_bias)",
                "experiments.load_ratio",
                "experiments.expert_capacity",
                "experiments.dropped_share",
            ],
            "inputs": (
                f"default_rng({P.seed}): preference p0 = {P.preference_scale} × standard normal [{E}], "
                f"router weights W0 = {P.weight_scale} × standard normal [{P.feature_dim}, {E}], then "
                f"{S + 1} batches of {T} tokens, standard normal [{T}, {P.feature_dim}], the same for "
                f"every run; logits x·W + p, softmax scores, top-{k} of {E}; learning rate {P.lr}; "
                f"auxiliary-loss weights α ∈ {P.alphas}; bias step γ = {P.gamma}; capacity "
                f"⌊factor × {k}·{T}/{E}⌋ slots per expert"
            ),
            "seed": P.seed,
            "model": (
                "the router learns from a stand-in task loss, −mean over tokens of Σ log s over the "
                "chosen experts, which rewards whatever it chose (the feedback behind collapse); "
                "the auxiliary loss adds its gradient to the router's; the bias only changes the "
                "top-k choice; dropped slots are counted, not removed from training"
            ),
            "illustrative": "a toy router and a stand-in task loss, not a language model; every constant is illustrative",
        },
    }
