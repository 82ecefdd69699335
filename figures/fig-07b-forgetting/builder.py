"""FIG 07b · Forgetting on purpose: a long-lived fact, then a topic, then a switch to a new topic,
through DeltaNet (no decay), Gated DeltaNet (one scalar α) and KDA (α on the topic channels,
none on the fact's), with the gate acting at the switch or on every step. The builder only sets
up the runs and shapes what `experiments.forgetting_curves` measures: how much of each kind of item
a query still gets back after each token, for every α on the slider."""

from decimal import ROUND_HALF_UP, Decimal
from itertools import pairwise
from typing import Literal

import numpy as np
from pydantic import BaseModel, ConfigDict, Field, model_validator

from k3explainer.site.readertext import MINUS, fixed

from ..experiments import FORGETTING_KINDS, FORGETTING_MECHANISMS, forgetting_curves, gate_schedule

DECIMALS = 3  # shipped precision: one digit finer than the page shows (whole percent)


class Params(BaseModel):
    model_config = ConfigDict(extra="forbid")
    seed: int  # stream i is drawn from default_rng(seed + i)
    n_seeds: int = Field(ge=1, le=64)  # the curves are means over this many streams
    d_k: int = Field(ge=2)  # key channels of the one head
    d_v: int = Field(ge=1)  # value channels
    n_slow: int = Field(ge=1)  # the first n_slow key channels hold the fact; KDA does not decay them
    n_tokens: int = Field(ge=4)
    switch_at: int = Field(ge=2)  # 0-based step of the first new-topic token (the gate's step in "switch")
    pairs: int = Field(ge=1)  # key→value pairs per topic, each presented once per shuffled round
    topic_rank: int = Field(ge=1)  # each topic's keys span a random subspace this wide in the other channels
    beta_topic: float = Field(gt=0, le=1)
    beta_fact: float = Field(gt=0, le=1)
    alpha_slow: float = Field(default=1.0, gt=0, le=1)  # KDA's decay on the fact channels
    alphas: list[float] = Field(min_length=2)  # the slider: Gated DeltaNet's α, KDA's α on the topic channels
    alpha_default: float
    schedule_default: Literal["switch", "every"]
    time_stride: int = Field(default=2, ge=1)  # recall is read after every stride-th token (+ the switch and the end)

    @model_validator(mode="after")
    def _consistent(self):
        if any(not 0 <= a <= 1 for a in self.alphas) or any(b <= a for a, b in pairwise(self.alphas)):
            raise ValueError(f"alphas must increase within 0 … 1, got {self.alphas}")
        if self.alpha_default not in self.alphas:
            raise ValueError(f"alpha_default {self.alpha_default} is not on the slider {self.alphas}")
        if not self.switch_at < self.n_tokens - 1:
            raise ValueError(f"switch_at {self.switch_at} leaves no new topic in {self.n_tokens} tokens")
        if not self.n_slow < self.d_k or self.topic_rank > self.d_k - self.n_slow:
            raise ValueError("need n_slow < d_k and topic_rank ≤ d_k − n_slow (the topic channels)")
        return self


SCHEDULE_LABELS = {"switch": "at the switch", "every": "on every step"}
MECHANISM_LABELS = {"deltanet": "DeltaNet", "gated": "Gated DeltaNet", "kda": "KDA"}
KIND_LABELS = {"old": "Old topic", "new": "New topic", "fact": "Long-lived fact"}
KIND_NOTES = {"old": "not needed after the switch", "new": "needed from the switch on", "fact": "needed throughout"}


def read_times(n_tokens: int, switch_at: int, stride: int) -> list[int]:
    """Steps after which recall is read: every stride-th, the last token before the switch (so the
    drop at the switch is drawn where it happens) and the final token."""
    return sorted(set(range(0, n_tokens, stride)) | {switch_at - 1, switch_at, n_tokens - 1})


def percent(x: float) -> str:
    """A share as the page writes it ("58%", "−3%"): whole percent, a half rounded away from zero as
    JavaScript's toFixed rounds it, the form the table showed before its text moved here
    (readertext.fixed rounds a half to even, and 100 × 0.085 is exactly 8.5)."""
    n = Decimal(100 * x).quantize(Decimal(1), rounding=ROUND_HALF_UP)
    return (MINUS if n < 0 else "") + f"{abs(n)}%"


def as_percent(values):
    """Nested lists of shares → the same nesting of percent texts."""
    return [as_percent(v) for v in values] if isinstance(values, list) else percent(values)


def gate_row_label(mech: str, gates, n_slow: int) -> str:
    """What one row of the gate strip says to a screen reader: each channel's factor, grouped."""
    if all(g == gates[0] for g in gates):
        return (
            f"{MECHANISM_LABELS[mech]}: {'no gate, ' if mech == 'deltanet' else ''}every channel × {fixed(gates[0], 2)}"
        )
    return f"{MECHANISM_LABELS[mech]}: fact channels × {fixed(gates[0], 2)}, topic channels × {fixed(gates[n_slow], 2)}"


def reader_text(p: Params, times: list[int], first_old: int, first_new: int) -> dict:
    """The figure's sentences: templates whose {slots} the component fills with shipped texts
    (token: the token read, when: a schedule's label, alpha: α's text, a mechanism's key: its
    recall there, <kind>_<mechanism> in the narration)."""
    switch_token, mechs = p.switch_at + 1, list(FORGETTING_MECHANISMS)
    keeps = "an empty cell keeps its channel (× 1), a full orange one clears it (× 0)."

    def reads(slot) -> str:
        return ", ".join(f"{MECHANISM_LABELS[m]} {{{slot(m)}}}" for m in mechs)

    def chart_label(kind: str, said: str) -> str:
        return (
            f"{KIND_LABELS[kind]}: share of each stored value a query still gets back, tokens 1 to {p.n_tokens}, "
            f"switch before token {switch_token}. After token {{token}}: {said}."
        )

    # the kinds written by each token read (nothing of a topic exists before its first pair); the
    # narration has one template for each such set, keyed by its kinds joined with "_"
    phases = {
        tuple(k for k in FORGETTING_KINDS if k == "fact" or i >= (first_new if k == "new" else first_old))
        for i in range(len(times))
    }
    heads = {"token": "After token {token}: ", "setting": "Gate {when}, α = {alpha}, after token {token}: "}
    return {
        "schedule_group": "When the gate acts",
        "alpha_input": "Gate alpha of Gated DeltaNet, and of KDA on the topic channels",
        "alpha_slider": "α = {alpha}",
        "token_slider": "after token {token}",
        "channel_title": "channel {channel}: × {factor}",
        "gate_note": {
            "switch": f"What each key channel is multiplied by at the switch (token {switch_token}; every other token: × 1): {keeps}",
            "every": f"What each key channel is multiplied by before every token's write: {keeps}",
        },
        "chart_label": {
            k: {"written": chart_label(k, reads(lambda m: m)), "unwritten": chart_label(k, "not written yet")}
            for k in FORGETTING_KINDS
        },
        "caption": "After token {token} · gate {when}, α = {alpha}",
        "unwritten_cell": "—",
        "describe": {
            head: {
                "_".join(written): head_text
                + "; ".join(
                    f"{KIND_LABELS[k].lower()} — "
                    + (reads(lambda m, k=k: f"{k}_{m}") if k in written else "not written yet")
                    for k in FORGETTING_KINDS
                )
                + "."
                for written in sorted(phases)
            }
            for head, head_text in heads.items()
        },
    }


def build(params: dict, facts) -> dict:
    p = Params.model_validate(params)
    stream = dict(
        d_k=p.d_k,
        d_v=p.d_v,
        n_slow=p.n_slow,
        n_tokens=p.n_tokens,
        switch_at=p.switch_at,
        pairs=p.pairs,
        topic_rank=p.topic_rank,
        beta_topic=p.beta_topic,
        beta_fact=p.beta_fact,
    )
    seeds = [p.seed + i for i in range(p.n_seeds)]
    times = read_times(p.n_tokens, p.switch_at, p.time_stride)
    schedules = list(SCHEDULE_LABELS)
    # DeltaNet has no gate: one run. Gated DeltaNet and KDA: one run per schedule and slider α.
    runs = [("deltanet", 1.0, "every")] + [(m, a, s) for s in schedules for m in ("gated", "kda") for a in p.alphas]
    recall = np.round(
        forgetting_curves(seeds, runs, times, alpha_slow=p.alpha_slow, **stream), DECIMALS
    )  # [run, kind, time]
    gated = recall[1:].reshape(len(schedules), 2, len(p.alphas), len(FORGETTING_KINDS), len(times))

    def channel_gates(
        mech,
    ):  # [alpha][channel]: what the gated step multiplies each key channel by (the gate the runs used)
        return [
            np.exp(
                gate_schedule(
                    mech,
                    a,
                    n_tokens=p.n_tokens,
                    d_k=p.d_k,
                    n_slow=p.n_slow,
                    switch_at=p.switch_at,
                    schedule="switch",
                    alpha_slow=p.alpha_slow,
                )[p.switch_at]
            )
            for a in p.alphas
        ]

    gates = {m: channel_gates(m) for m in FORGETTING_MECHANISMS}
    first_new = times.index(p.switch_at)  # the new topic's lines start here: nothing of it exists before
    # the old topic's first pair is written at t = 1 (the fact takes t = 0): before it there is nothing to recall
    first_old = next(i for i, t in enumerate(times) if t >= 1)
    # the headline: the table at the marker as the figure opens (the default schedule and α, the last
    # token read): the old topic and the fact, for the memories it compares them in
    at_a, at_s = p.alphas.index(p.alpha_default), schedules.index(p.schedule_default)
    old, fact = FORGETTING_KINDS.index("old"), FORGETTING_KINDS.index("fact")
    opening = gated[at_s, :, at_a, :, -1]  # [gated, kda][kind] after the last token
    headline = {
        "alpha": p.alpha_default,
        "when": SCHEDULE_LABELS[p.schedule_default],
        "old": {"deltanet": float(recall[0][old][-1]), "gated": float(opening[0, old])},
        "fact": {"gated": float(opening[0, fact]), "kda": float(opening[1, fact])},
    }
    x_ticks = [1] + [16 * (i + 1) for i in range(p.n_tokens // 16)]
    y_ticks = [0.0, 0.5, 1.0]
    return {
        "headline": headline,
        "channel_gates": gates,
        "tokens": [t + 1 for t in times],  # recall is read after these tokens (counted from 1; steps t = token − 1)
        "first_new": first_new,
        "first_old": first_old,
        "switch_token": p.switch_at + 1,  # the first new-topic token (where the "switch" gate acts)
        "n_tokens": p.n_tokens,
        "alphas": p.alphas,
        "alpha_default": p.alpha_default,
        "schedules": schedules,
        "schedule_labels": SCHEDULE_LABELS,
        "schedule_default": p.schedule_default,
        "mechanisms": list(FORGETTING_MECHANISMS),
        "mechanism_labels": MECHANISM_LABELS,
        "kinds": list(FORGETTING_KINDS),
        "kind_labels": KIND_LABELS,
        "kind_notes": KIND_NOTES,
        "d_k": p.d_k,
        "n_slow": p.n_slow,
        "pairs": p.pairs,
        "n_seeds": p.n_seeds,
        "alpha_slow": p.alpha_slow,
        "seeds": seeds,
        "stream": stream,  # everything the kernel was given, so a test can run it again
        # recall[kind][time]: the share of each item's value a query with its key gets back, mean over items and seeds
        "deltanet": recall[0],
        "gated": {s: gated[i, 0] for i, s in enumerate(schedules)},  # [schedule] → [alpha][kind][time]
        "kda": {s: gated[i, 1] for i, s in enumerate(schedules)},
        "y_min": float(min(0.0, np.floor(recall.min() * 10) / 10)),
        "x_ticks": x_ticks,
        "y_ticks": y_ticks,
        # what the page writes, in the shapes of the numbers it writes them from
        "x_tick_text": [str(t) for t in x_ticks],
        "y_tick_text": [percent(r) for r in y_ticks],
        "alpha_text": [fixed(a, 2) for a in p.alphas],
        "channel_numbers": list(range(1, p.d_k + 1)),
        "channel_gate_text": {m: [[fixed(g, 2) for g in row] for row in gates[m]] for m in gates},
        "gate_row_label": {m: [gate_row_label(m, row, p.n_slow) for row in gates[m]] for m in gates},
        "recall_text": {
            "deltanet": as_percent(recall[0].tolist()),
            "gated": {s: as_percent(gated[i, 0].tolist()) for i, s in enumerate(schedules)},
            "kda": {s: as_percent(gated[i, 1].tolist()) for i, s in enumerate(schedules)},
        },
        "text": reader_text(p, times, first_old, first_new),
        "provenance": {
            "kernels": [
                "experiments.forgetting_curves",
                "experiments.topic_switch_stream",
                "experiments.gate_schedule",
                "k3explainer.kernels.kda",
            ],
            "inputs": (
                f"{p.n_seeds} streams (default_rng({p.seed} + i)) of {p.n_tokens} tokens, key width {p.d_k}, "
                f"value width {p.d_v}: token 1 a fact whose key uses only key channels 1–{p.n_slow} "
                f"(beta {p.beta_fact}); tokens 2–{p.switch_at} topic A, tokens {p.switch_at + 1}–{p.n_tokens} "
                f"topic B: {p.pairs} pairs each, shuffled rounds, keys in a random {p.topic_rank}-dimensional "
                f"subspace of channels {p.n_slow + 1}–{p.d_k}, beta {p.beta_topic}; unit keys and values. "
                f"Gated DeltaNet: alpha on every channel; KDA: alpha on channels {p.n_slow + 1}–{p.d_k}, "
                f"{p.alpha_slow} on 1–{p.n_slow}; at the switch token only, or on every token. "
                f"Recall = (Sᵀk)·v / ‖v‖², mean over items and streams, rounded to {DECIMALS} decimals"
            ),
            "seed": p.seed,
            "illustrative": (
                "a demo stream; the fact's key is put in channels no topic key uses and KDA's gate "
                "is set to spare exactly those: what a learned gate could do, not what a trained one does"
            ),
        },
    }
