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

    slices = []
    for r in lengths:
        sweep = similarity_kernels(q, r * unit)  # one query against every angle
        keys = similarity_kernels(q, r * key_dirs)
        ratio = sweep["exp"][0] / sweep["elu"][0]  # constant iff one kernel were a rescaled copy
        slices.append(
            {
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
        )
    default = int(np.argmin(np.abs(lengths - params["key_length_default"])))
    return {
        "query": q,
        "angles": angles,
        "key_angles": key_angles,  # full precision: the test recomputes the weights from them
        "slices": slices,
        "default_length": default,
        "y_max": float(max(max(s["exp"]) for s in slices)) * 1.04,  # fixed axis range over every slice
        "w_max": float(max(max(s["w_exp"] + s["w_elu"]) for s in slices)) * 1.08,
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
