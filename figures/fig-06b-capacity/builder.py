"""FIG 06b · How much does a d×d memory hold? Store n seeded key–value pairs one after another, then
read back every stored key; the relative error of each read, averaged over the pairs and over the
seeds (with the seeds' range), for each write rule and each n on a grid from 1 to 4d — and, at
every n, the error of the pairs grouped by when they were stored (oldest first). The states keep
d² numbers whatever n is; the softmax cache keeps 2·n·d. All numbers come from
experiments.capacity.recall_sweep (held equal to the plain per-n reference by the kernel tests).
"""

from __future__ import annotations

from typing import Literal

import numpy as np
from pydantic import BaseModel, ConfigDict, Field

from k3explainer.kernels import l2_normalize
from k3explainer.site.readertext import fixed, integer

from ..experiments import Memory, age_profile, memory_elements, recall_sweep


class MemorySpec(BaseModel):
    model_config = ConfigDict(extra="forbid")
    key: str = Field(pattern=r"^[a-z0-9-]+$")  # names the memory in the URL and the tests
    label: str  # what the figure calls it
    kind: Literal["additive", "delta", "softmax"]
    beta: float = Field(default=1.0, gt=0, le=2)  # write strength (additive and delta)
    alpha: float = Field(default=1.0, gt=0, le=1)  # constant decay per write (1: none)
    scale_per_sqrt_d: float = Field(default=1.0, gt=0)  # softmax: scores s·k_i·k with s = this × √d


class Params(BaseModel):
    model_config = ConfigDict(extra="forbid")
    widths: list[int] = Field(min_length=1)  # the key widths d a reader can pick (keys and values in R^d)
    d_default: int
    ratio_default: float = Field(gt=0, le=4)  # the n the figure opens at, as n / d
    seed: int  # pairs for width d from default_rng([seed, d])
    n_seeds: int = Field(ge=2)  # independent sequences per width; the curves are their mean, the band their range
    steps_per_d: int = Field(
        ge=1
    )  # grid of n: 1, then every d / steps_per_d pairs (every pair when d is smaller) up to 4d
    groups: int = Field(ge=1)  # the age view groups the stored pairs into at most this many runs
    memories: list[MemorySpec] = Field(min_length=1)
    digits: int = Field(default=3, ge=1, le=6)  # decimals the errors are shipped with
    age_digits: int = Field(default=2, ge=1, le=6)  # decimals of the age view's errors (shown with 2)


def grid(d: int, steps: int) -> list[int]:
    """n = 1, then every max(1, d // steps) pairs up to 4d: the slider's positions for width d."""
    step = max(1, d // steps)
    return sorted({1, *range(step, 4 * d + 1, step)})


def pairs(seed: int, d: int, n_seeds: int, N: int) -> tuple[np.ndarray, np.ndarray]:
    """keys, values [n_seeds, N, d]: independent standard normal draws scaled to unit length."""
    rng = np.random.default_rng([seed, d])
    keys = l2_normalize(rng.standard_normal((n_seeds, N, d)))
    values = l2_normalize(rng.standard_normal((n_seeds, N, d)))
    return keys, values


def memories_for(specs: list[dict], d: int) -> list[Memory]:
    return [
        Memory(
            m["kind"],
            beta=m["beta"] if m["kind"] != "softmax" else 1.0,
            alpha=m["alpha"] if m["kind"] != "softmax" else 1.0,
            scale=m["scale_per_sqrt_d"] * np.sqrt(d),
        )
        for m in specs
    ]


def ratio(n: int, d: int) -> str:
    """n as a multiple of d, as the slider writes it: "d", "2d", "0.25d"."""
    r = n / d
    return "d" if r == 1 else f"{int(r)}d" if r.is_integer() else f"{fixed(r, 2)}d"


def pairs_text(first: int, last: int) -> str:
    """The pairs of one age group (0-based first and last): "pair 3", "pairs 1–7"."""
    return f"pair {first + 1}" if first == last else f"pairs {first + 1}–{last + 1}"


def width_texts(w: dict, specs: list[dict]) -> dict:
    """What the figure writes for one key width, from its numbers: the width's button, the slider's
    reading at each n, each memory's error, range and count, each age group's pairs and error, the
    summary line at each n and the chart's label (a template taking n and that summary)."""
    d, ns = w["d"], w["ns"]
    state = next(i for i, m in enumerate(specs) if m["kind"] != "softmax")
    cache = next((i for i, m in enumerate(specs) if m["kind"] == "softmax"), None)
    summary = []
    for g, n in enumerate(ns):
        best = int(np.argmin(w["mean"][:, g]))  # the first of the lowest, as shipped (3 decimals)
        summary.append(
            f"d = {d}, n = {n} ({ratio(n, d)}): each state keeps d² = {integer(w['kept'][state][g])} numbers"
            + (f", the cache 2·n·d = {integer(w['kept'][cache][g])}" if cache is not None else "")
            + f". Lowest error: {specs[best]['label']}, {fixed(w['mean'][best][g], 2)}."
        )
    return {
        "choice": {"text": f"d = {d}", "aria": f"key width {d}, a {d} by {d} state"},
        "slider_text": [f"n = {n} ({ratio(n, d)})" for n in ns],
        "mean_text": [[fixed(x, 2) for x in row] for row in w["mean"]],
        "lo_text": [[fixed(x, 2) for x in row] for row in w["lo"]],
        "hi_text": [[fixed(x, 2) for x in row] for row in w["hi"]],
        "kept_text": [[integer(x) for x in row] for row in w["kept"]],
        "age_text": [[[fixed(x, 2) for x in row] for row in a] for a in w["age"]],
        # each age group's pairs (a tenth of those stored, or one) and where they stand
        "age_pairs": [
            [pairs_text(s, (starts[j + 1] if j + 1 < len(starts) else n) - 1) for j, s in enumerate(starts)]
            for starts, n in zip(w["age_starts"], ns, strict=True)
        ],
        "summary": summary,
        "chart_label": f"Recall error against pairs stored, n from 1 to {4 * d} for d = {d}, one line per memory "
        "with the seeds' range as a band; the marker is at n = {n}. {summary}",
    }


def width(params: dict, d: int) -> dict:
    """Everything the figure shows for key width d."""
    ns, specs = grid(d, params["steps_per_d"]), params["memories"]
    keys, values = pairs(params["seed"], d, params["n_seeds"], ns[-1])
    errors = recall_sweep(keys, values, memories_for(specs, d), ns)  # per n: [M, seeds, n]
    per_seed = np.stack([e.mean(-1) for e in errors], axis=-1)  # [M, seeds, G] mean over the stored pairs
    r = lambda x: np.round(x, params["digits"])
    ages = [age_profile(e.mean(1), params["groups"]) for e in errors]  # per n: (starts, [M, groups])
    shipped = {
        "d": d,
        "ns": ns,
        "mean": r(per_seed.mean(1)),  # [M, G]
        "lo": r(per_seed.min(1)),
        "hi": r(per_seed.max(1)),
        "age_starts": [s for s, _ in ages],  # per n: each group's first pair (0-based, oldest first)
        "age": [np.round(a, params["age_digits"]) for _, a in ages],  # per n: [M, groups]
        "kept": np.array([memory_elements(Memory(m["kind"]), np.array(ns), d) for m in specs]),  # [M, G] numbers kept
    }
    return {**shipped, **width_texts(shipped, specs)}  # the texts from the shipped (rounded) numbers


def nearest(ns: list[int], n: float) -> int:
    """The index of the grid point nearest n, the first on a tie (the page's W.nearest)."""
    return min(range(len(ns)), key=lambda g: abs(ns[g] - n))


def headline(params: dict, by_d: list[dict]) -> dict:
    """What the figure shows as it opens (d_default, n = ratio_default · d, as the component sets it):
    the lowest error of the fixed-size states, the cache's error, and how many times
    the states' numbers the cache keeps there."""
    d = int(params["d_default"])
    w = next(w for w in by_d if w["d"] == d)
    g = nearest(w["ns"], np.floor(params["ratio_default"] * d + 0.5))  # Math.round
    states = [i for i, m in enumerate(params["memories"]) if m["kind"] != "softmax"]
    cache = next(i for i, m in enumerate(params["memories"]) if m["kind"] == "softmax")
    return {
        "d": d,
        "n": w["ns"][g],
        "state_lowest": float(min(w["mean"][i][g] for i in states)),
        "cache": float(w["mean"][cache][g]),
        "cache_times": float(w["kept"][cache][g] / w["kept"][states[0]][g]),
    }


def build(params: dict, facts) -> dict:
    widths = [int(d) for d in params["widths"]]
    if params["d_default"] not in widths:
        raise ValueError(f"d_default {params['d_default']} is not one of the widths {widths}")
    by_d = [width(params, d) for d in widths]
    top = max(float(np.max(w["hi"])) for w in by_d)
    specs = params["memories"]
    labels = [m["label"] for m in specs]
    return {
        "headline": headline(params, by_d),
        "widths": widths,
        "d_default": int(params["d_default"]),
        "ratio_default": float(params["ratio_default"]),
        "n_seeds": int(params["n_seeds"]),
        "groups": int(params["groups"]),
        "memories": [
            {"key": m["key"], "label": m["label"], "kind": m["kind"], "state": m["kind"] != "softmax"} for m in specs
        ],
        "by_d": by_d,
        "y_max": float(np.ceil(top * 4) / 4),  # the error axis, the same for every d (quarters)
        # the sentences that take a memory, an n and an age group: templates whose {slots} the
        # component fills with the texts above (by_d[…]) for the state shown
        "text": {
            "memory": "{label} at n = {n}: error {err} (seeds {lo}–{hi}); stored first {first}, stored last {last}; "
            "keeps {kept} numbers.",
            "cell": "{label}, n = {n}: {pairs} ({place}) read back with error {err}.",
            "cell_title": "{pairs}: {err}",
            # where age group j stands among k groups (k − 1, j): the cell line's {place}
            "age_place": [
                [
                    "stored first" if j == 0 else "stored last" if j == k - 1 else f"group {j + 1} of {k}"
                    for j in range(k)
                ]
                for k in range(1, int(params["groups"]) + 1)
            ],
            "range": "{lo}–{hi}",
            # a new width or n: every memory's error, then the summary
            "errors": "Recall error — "
            + "; ".join(f"{label}: {{m{i}}}" for i, label in enumerate(labels))
            + ". {summary}",
            "list_label": "Memories: error by age, error and numbers kept",
            "age_head": "error by age: oldest pairs → newest",
            "one_line": {"wide": "1 = what a read of zero scores", "narrow": "read of zero"},  # the chart's dashed line
            # the colour key, around its three swatches
            "scale": [
                "Colour: mean error of a tenth of the pairs (one pair each below ten), ",
                " 0 exact, ",
                " 1 as if nothing were stored, ",
                " 2 or more.",
            ],
        },
        "provenance": {
            "kernels": [
                "experiments.recall_sweep",
                "experiments.recall_reference (its specification)",
                "experiments.age_profile",
                "experiments.memory_elements",
                "k3explainer.kernels.l2_normalize",
            ],
            "inputs": (
                f"for each d in {widths}: {params['n_seeds']} sequences of 4d pairs, keys and values standard "
                "normal in R^d scaled to unit length, from default_rng([" + str(params["seed"]) + ", d]); "
                "store the first n in order, then read every stored key; error = ‖read − v‖ / ‖v‖"
            ),
            "memories": "; ".join(
                f"{m['label']}: "
                + (
                    f"softmax over the cached pairs, scores {m['scale_per_sqrt_d']:g}·√d·k_i·k"
                    if m["kind"] == "softmax"
                    else "S ← S + k vᵀ"
                    if m["kind"] == "additive"
                    else ("S ← αS, then " if m["alpha"] < 1 else "")
                    + "S ← S + β k (v − Sᵀk)ᵀ with β = "
                    + f"{m['beta']:g}"
                    + (f", α = {m['alpha']:g}" if m["alpha"] < 1 else "")
                )
                for m in specs
            ),
            "seed": f"default_rng([{params['seed']}, d])",
            "illustrative": "widths, sequence lengths, seeds, β, α and the softmax scale are demo choices, not a model's",
        },
    }
