"""FIG 11b · Keeping experts busy: the load on each expert over a router's training steps, with no
balancing, with Switch Transformer's auxiliary loss (at several weights α) and with DeepSeek-V3's
selection-only bias — one seeded toy router, the same batches for every run (experiments.balance).

Shipped for the component: the busiest-to-mean load ratio of every run at every step (the lines),
the per-expert loads at every `every`-th step (the bars), the share of routing slots a capacity
limit would drop at each capacity factor, the balance statistic N·Σ f P, the share of the router's
update that the auxiliary loss supplied, and the bias vector of the bias run.
"""

from decimal import ROUND_HALF_UP, Decimal

import numpy as np
from pydantic import BaseModel, ConfigDict, Field

from k3explainer.site.readertext import fixed

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


def as_written(x: float) -> str:
    """A setting as the page writes it, the shortest form of the number (1.0 → "1", 1.25 → "1.25")."""
    return str(int(x)) if float(x).is_integer() else repr(float(x))


def fmt(x: float, digits: int) -> str:
    """x to `digits` decimals as the page's W.fmt writes it. JS's toFixed rounds a tie of the binary
    value away from zero, where readertext.fixed rounds it to even, and this figure's numbers tie
    often (a load ratio n/32 such as 4.625, a dropped share m/512 such as 6.25%)."""
    return fixed(float(Decimal(float(x)).quantize(Decimal(10) ** -digits, ROUND_HALF_UP)), digits)


def percent(x: float, digits: int) -> str:
    return fmt(100 * x, digits) + "%"


def reader_text(P: Params, runs: list[tuple[str, float]], numbers: dict) -> dict:
    """Every text the figure shows, from the numbers it ships (readertext: the component places
    them). Per-state numbers are lists indexed like the data ([run][grid step], [capacity
    factor][run][grid step], [grid step][expert]); sentences are templates whose {slots} take them."""
    ratio, dropped, stat, share, bias = (numbers[k] for k in ("ratio", "dropped", "stat", "aux_share", "bias"))
    last, mean = len(ratio[0]) - 1, fmt(numbers["mean_load"], 0)
    notes = "busiest ÷ mean {ratio} · dropped {dropped}"
    return {
        "alpha_text": [as_written(a) for a in P.alphas],
        "cf_text": [as_written(c) for c in P.capacity_factors],
        "expert_label": [str(e + 1) for e in range(P.n_experts)],
        "title": [f"Switch loss, α = {as_written(a)}" if g == "switch" else LABELS[g] for g, a in runs],
        "ratio_text": [[fmt(v, 2) for v in row] for row in ratio],
        "dropped_text": [[[percent(v, 1) for v in row] for row in by_run] for by_run in dropped],
        "stat_text": [[fmt(v, 2) for v in row] for row in stat],
        "aux_share_text": [[percent(v, 0) for v in row] for row in share],
        "bias_text": [[("+" if b > 0 else "") + fmt(b, 2) for b in row] for row in bias],
        "text": {
            "slider": "{step} of {last}",
            "alpha_option": "α = {alpha}",
            "cf_option": "×{cf}",
            "cf_option_aria": "capacity factor {cf}",
            "cf_key": "capacity ×{cf} (shaded: over it)",
            "y_title": "busiest expert ÷ mean load (log scale)",
            "chart": (
                f"Busiest expert's load divided by the mean load over {P.n_steps} router steps: no balancing ends "
                f"at {fmt(ratio[0][last], 2)}, the Switch loss with α = {{alpha}} at {{switch_end}}, the bias at "
                f"{fmt(ratio[-1][last], 2)}; dashed: capacity factor {{cf}}, above which the busiest expert drops "
                "slots; the marker is at step {step}."
            ),
            "bars": "{title}: tokens per expert at step {step} (capacity {capacity})",
            "bar": "Expert {expert}: {load} tokens",
            "bar_over": "Expert {expert}: {load} tokens, {over} over capacity",
            "note": {
                "none": notes,
                "switch": notes + " · N·Σf·P {stat} · loss share of router update {share}",
                "bias": notes + " · bias steers the choice only: {share} of the router update",
            },
            "pick_hint": (
                "Hover or tap a bar (or Tab to the bars and press ← →) to compare one expert across the three "
                f"runs. Mean load {mean} tokens; capacity {{capacity}}."
            ),
            "expert": (
                "Expert {expert} at step {step}: {load_none} tokens (no balancing), {load_switch} tokens "
                f"(Switch loss, α = {{alpha}}), {{load_bias}} tokens (bias); capacity {{capacity}}, mean {mean}. "
                "Its bias: {bias} against the experts' mean."
            ),
            "step": (
                f"Step {{step}}: busiest ÷ mean {{ratio_none}} ({LABELS['none']}), {{ratio_switch}} ({{title}}), "
                f"{{ratio_bias}} ({LABELS['bias']}); at capacity factor {{cf}} the share of slots dropped is "
                "{dropped_none}, {dropped_switch}, {dropped_bias}; the loss supplied {share} of the router update."
            ),
        },
    }


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
    # [G, N] the selection bias less its mean over the experts: a shift shared by every expert changes no
    # choice, so this is the part that steers (the raw bias drifts with the sign updates' imbalance)
    steering = np.round(bias - bias.mean(axis=-1, keepdims=True), 6)
    ratio = load_ratio(load)
    dropped = np.stack([dropped_share(at_grid, c) for c in caps])  # [C, R, G]
    stat, aux_share = sig(out["stat"][:, 0]), sig(out["aux_share"][:, 0])  # [R, G]
    numbers = {
        "ratio": ratio[:, grid],
        "dropped": dropped,
        "stat": stat,
        "aux_share": aux_share,
        "bias": steering,
        "mean_load": k * T / E,
    }
    # the figure's answer (its takeaway), at the step and α it opens on (the last step, alpha_default):
    # how many experts each run leaves idle, and the share of the router's update the Switch loss took
    switch = 1 + P.alphas.index(P.alpha_default)
    idle = (at_grid[:, -1] == 0).sum(axis=-1)  # [R] experts with no token at the last step
    headline = {
        "experts": E,
        "alpha": P.alpha_default,
        "idle_none": int(idle[0]),
        "idle_switch": int(idle[switch]),
        "idle_bias": int(idle[-1]),
        "aux_share_switch": float(aux_share[switch, -1]),
        "aux_share_bias": float(aux_share[-1, -1]),
    }
    return {
        "headline": headline,
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
        "ratio": ratio,  # [R, S + 1] busiest ÷ mean, every step
        "ratio_max": E / k,  # the most uneven possible: k experts take every token
        "load": at_grid.astype(int),  # [R, G, N] tokens per expert
        # [C, R, G, N] tokens over each capacity, expert by expert (a bar's label says how many)
        "over_capacity": np.stack([np.maximum(0, at_grid - c) for c in caps]).astype(int),
        "dropped": dropped,
        "stat": stat,  # [R, G] N·Σ f_i P_i (α = 1)
        "aux_share": aux_share,  # [R, G] the auxiliary loss's share of the router update
        "cosine": sig(out["cosine"][:, 0]),  # [R, G] between the auxiliary and the task update
        "bias": steering,
        "load_axis": int(
            np.ceil(at_grid.max() / (k * T / E)) * (k * T / E)
        ),  # the bars' scale: whole multiples of the mean
        "p0": sig(inputs["p0"]),  # the starting preference and weights, so a test can check its re-draw
        "W0": sig(inputs["W0"]),
        **reader_text(P, runs, numbers),
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
