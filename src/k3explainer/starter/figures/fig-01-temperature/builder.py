"""FIG 01 · Softmax at a temperature: the probabilities of five scores at every temperature on the
slider's grid, their largest value and their entropy. Every number the figure shows is here."""

import numpy as np
from pydantic import BaseModel, ConfigDict, Field


class Params(BaseModel):
    model_config = ConfigDict(extra="forbid")
    scores: list[float] = Field(min_length=2)  # z, one per option, highest first
    tau_min: float = Field(gt=0)
    tau_max: float = Field(gt=0)
    steps: int = Field(ge=2, le=201)  # temperatures on a geometric grid from tau_min to tau_max
    tau_default: float = Field(gt=0)


def softmax(z: np.ndarray, tau: float) -> np.ndarray:
    """p_i = exp(z_i / τ) / Σ_j exp(z_j / τ), shifted by max(z) so no exponent overflows."""
    e = np.exp((z - z.max()) / tau)
    return e / e.sum()


def build(params: dict, facts) -> dict:
    p = Params.model_validate(params)
    z = np.array(p.scores, dtype=np.float64)  # (n,)
    taus = np.geomspace(p.tau_min, p.tau_max, p.steps)  # (steps,)
    probs = np.stack([softmax(z, t) for t in taus])  # (steps, n), each row sums to 1
    entropy = -(probs * np.log2(np.where(probs > 0, probs, 1))).sum(axis=1)  # bits, 0 · log 0 = 0
    at = int(np.argmin(np.abs(np.log(taus / p.tau_default))))  # the temperature the slider opens on
    largest = probs.max(axis=1)
    return {
        # the values the spec's title and takeaway name by {headline.…} slots
        "headline": {
            "tau": float(taus[at]),
            "top": float(largest[at]),  # the largest score's probability there
            "tau_min": float(taus[0]),
            "tau_max": float(taus[-1]),
            "top_at_max": float(largest[-1]),
            "even": 1 / len(z),  # every option alike
        },
        "scores": z,
        "taus": taus,
        "probs": probs,
        "entropy_bits": entropy,
        "max_entropy_bits": float(np.log2(len(z))),
        "largest": largest,
        "default_index": at,
        "provenance": {
            "kernel": "softmax(z / τ) in figures/fig-01-temperature/builder.py, float64",
            "inputs": f"{len(z)} fixed scores; {p.steps} temperatures from {p.tau_min} to {p.tau_max}, evenly spaced in log τ",
        },
    }
