"""FIG 05b · Softmax's exp(q·k) against linear attention's φ(q)·φ(k), φ = elu + 1.

For a fixed 2-D query, a key of length r is swept around the circle; for every r on a grid the
builder ships both kernels at every angle (`similarity_kernels`) and, for eight seeded key
directions scaled to r, the attention weights each kernel gives. Values are rounded to five
significant digits to keep the data small (the page shows at most four).
"""

from typing import Annotated, Literal

import numpy as np
from pydantic import BaseModel, ConfigDict, Field, model_validator

from k3explainer.kernels import similarity_kernels
from k3explainer.site.readertext import fixed

Length = Annotated[float, Field(gt=0)]  # a key's length r: positive, so the key has a direction


class Params(BaseModel):
    model_config = ConfigDict(extra="forbid")
    d: Literal[2]  # vector width: the figure sweeps a key around the 2-D circle
    query: list[float] = Field(min_length=2, max_length=2)  # the fixed query q, one entry per dimension
    key_length_default: Length  # the slider opens at the grid length nearest this
    key_length_range: list[Length] = Field(min_length=2, max_length=2)  # [shortest, longest] r on the slider
    key_length_step: float = Field(gt=0)  # the slider's step: one slice of data per length on the grid
    angle_samples: int = Field(ge=2)  # angles from −180° to 180° inclusive (73: every 5°)
    n_keys: int = Field(ge=1)  # seeded key directions the two kernels' normalised weights are shown for
    seed: int  # key directions uniform from default_rng(seed)

    @model_validator(mode="after")
    def _in_range(self):
        lo, hi = self.key_length_range
        if not lo <= self.key_length_default <= hi:
            raise ValueError(
                f"need key_length_range[0] ≤ key_length_default ≤ key_length_range[1], "
                f"got {lo}, {self.key_length_default}, {hi}"
            )
        return self


def _r(x, digits=5):
    """Round to `digits` significant digits (data size, not science)."""
    return [float(f"{v:.{digits}g}") for v in np.ravel(x)]


def build(params: dict, facts) -> dict:
    q = np.asarray(params["query"], dtype=np.float64)
    if q.shape != (int(params["d"]),) or q.shape != (2,):
        raise ValueError(f"the figure draws 2-D vectors; query {params['query']} with d = {params['d']}")
    lo, hi = params["key_length_range"]
    step = float(params["key_length_step"])
    lengths = np.round(np.arange(lo, hi + step / 2, step), 6)
    angles = np.linspace(-180.0, 180.0, int(params["angle_samples"]))  # degrees
    unit = np.stack([np.cos(np.radians(angles)), np.sin(np.radians(angles))], axis=1)  # [A, 2]
    rng = np.random.default_rng(params["seed"])
    key_angles = np.sort(rng.uniform(-180.0, 180.0, int(params["n_keys"])))
    key_dirs = np.stack([np.cos(np.radians(key_angles)), np.sin(np.radians(key_angles))], axis=1)

    n_keys = int(params["n_keys"])
    slices = []
    for r in lengths:
        sweep = similarity_kernels(q, r * unit)  # one query against every angle
        keys = similarity_kernels(q, r * key_dirs)
        ratio = sweep["exp"][0] / sweep["elu"][0]  # constant iff one kernel were a rescaled copy
        s = {
            "length": float(r),
            "dot": _r(sweep["dot"][0], 4),
            "exp": _r(sweep["exp"][0]),
            "elu": _r(sweep["elu"][0]),
            "ratio_min": float(ratio.min()),
            "ratio_max": float(ratio.max()),
            "exp_min": float(sweep["exp"].min()),
            "elu_min": float(sweep["elu"].min()),
            "w_exp": _r(keys["exp_weights"][0]),
            "w_elu": _r(keys["elu_weights"][0]),
        }
        slices.append({**s, **_slice_texts(s, angles, n_keys)})
    default = int(np.argmin(np.abs(lengths - params["key_length_default"])))
    opening = slices[default]  # the slice the figure opens on, as the takeaway describes it
    return {
        "query": q,
        "angles": angles,
        "key_angles": key_angles,  # full precision: the test recomputes the weights from them
        "slices": slices,
        "default_length": default,
        "headline": {
            "r": opening["length_text"],
            "ratio_min": opening["ratio_min_text"],  # exp / φ·φ over the angles: not one constant
            "ratio_max": opening["ratio_max_text"],
            "w_exp_max": opening["w_exp_max_text"],  # the largest weight each kernel gives, normalised
            "w_elu_max": opening["w_elu_max_text"],
        },
        "y_max": float(max(max(s["exp"]) for s in slices)) * 1.04,  # fixed axis range over every slice
        "w_max": float(max(max(s["w_exp"] + s["w_elu"]) for s in slices)) * 1.08,
        # what the figure says, written here (readertext) so a test reads it against the numbers above
        "angle_text": [degrees(a) for a in angles],
        "text": _texts(n_keys),
        "provenance": {
            "kernels": ["k3explainer.kernels.similarity_kernels (exp(q·k), φ(q)·φ(k), normalised weights)"],
            "inputs": (
                f"query {params['query']}; keys r·(cos θ, sin θ) for r in {lo}…{hi} step {step} and "
                f"{len(angles)} angles; {params['n_keys']} key directions uniform from default_rng(seed)"
            ),
            "seed": params["seed"],
            "illustrative": "2-D vectors and no 1/√d scaling so both kernels fit one plot",
        },
    }


COUNTS = ["no", "one", "two", "three", "four", "five", "six", "seven", "eight", "nine", "ten", "eleven", "twelve"]


def count_word(n: int) -> str:
    """8 → "eight": a small count in a sentence is spelled out."""
    return COUNTS[n] if n < len(COUNTS) else str(n)


def degrees(a: float) -> str:
    """−45.0 → "−45°"."""
    return fixed(a, 0) + "°"


def _slice_texts(s: dict, angles: np.ndarray, n_keys: int) -> dict:
    """The numbers a slice shows, as the page writes them (three decimals in the sentences, two in
    the charts' labels), and the charts' labels for it."""
    r = fixed(s["length"], 2)
    return {
        "length_text": r,
        "dot_text": [fixed(x, 3) for x in s["dot"]],
        "exp_text": [fixed(x, 3) for x in s["exp"]],
        "elu_text": [fixed(x, 3) for x in s["elu"]],
        **{f"{key}_text": fixed(s[key], 3) for key in ("exp_min", "elu_min", "ratio_min", "ratio_max")},
        "w_exp_max_text": fixed(max(s["w_exp"]), 2),
        "w_elu_max_text": fixed(max(s["w_elu"]), 2),
        "curve_label": f"Line plot over the key angle from {degrees(angles[0])} to {degrees(angles[-1])} at key length "
        f"{r}: exp(q·k) peaks at {fixed(max(s['exp']), 2)} when the key aligns with the query; φ(q)·φ(k) peaks at "
        f"{fixed(max(s['elu']), 2)}.",
        "bars_label": f"Bar chart of attention weights over {count_word(n_keys)} keys at length {r}: softmax "
        + ", ".join(fixed(w, 2) for w in s["w_exp"])
        + "; ELU+1 "
        + ", ".join(fixed(w, 2) for w in s["w_elu"])
        + ".",
    }


def _texts(n_keys: int) -> dict:
    """The headings, the two sentences under the plots and the narration, as templates whose
    {slots} take a slice's or an angle's texts, and the plots' names and axis titles."""
    return {
        "curve_head": "Both kernels as the key turns",
        "bars_head": f"Weights over {count_word(n_keys)} keys of that length",
        "phi": "φ(q)·φ(k)",
        "readout": "At θ = {theta}, r = {r}: q·k = {dot}, softmax kernel exp(q·k) = {exp}, ELU+1 kernel {phi} = {elu}.",
        "verdict": "On this slice the smallest values are {exp_min} and {elu_min} (both positive), and the ratio "
        "exp / φ·φ runs from {ratio_min} to {ratio_max}: not a constant, so neither kernel is a rescaled copy of "
        "the other.",
        "describe": "Key length {r}, angle {theta}: exp(q·k) = {exp}, φ(q)·φ(k) = {elu}; largest softmax weight "
        "{w_exp_max} against {w_elu_max} for ELU+1.",
        # Plotly's names, axis titles and hover templates (its own %{…} placeholders, filled by Plotly)
        "plot": {
            "exp": "exp(q·k)",
            "elu": "φ(q)·φ(k)",
            "exp_hover": "exp(q·k) %{y:.3f}<extra></extra>",
            "elu_hover": "φ(q)·φ(k) %{y:.3f}<extra></extra>",
            "angle_axis": "angle between key and query",
            "similarity_axis": "similarity (before normalising)",
            "softmax": "softmax",
            "elu_weights": "ELU+1, normalised",
            "softmax_hover": "%{x}<br>softmax weight %{y:.3f}<extra></extra>",
            "elu_weights_hover": "%{x}<br>ELU+1 weight %{y:.3f}<extra></extra>",
            "key_axis": "key",
            "weight_axis": "attention weight",
        },
    }
