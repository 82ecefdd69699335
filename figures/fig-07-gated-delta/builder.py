"""FIG 07 · DeltaNet (α = 1) beside Gated DeltaNet on the same tokens, for every α on the slider:
the decayed state α·S before each write and the state after it, from the kernels."""

from typing import Annotated, Literal

import numpy as np
from pydantic import BaseModel, ConfigDict, Field, model_validator

from k3explainer.kernels import delta_rule, gated_delta_rule

from .delta_tokens import RepeatKey, inputs

DECIMALS = 5  # shipped precision: two digits finer than shown, so the data stays small

Gate = Annotated[float, Field(ge=0, le=1)]  # a decay α: 1 keeps the state, 0 clears it (log α = −∞)


class Params(BaseModel):
    model_config = ConfigDict(extra="forbid")
    seed: int  # FIG 06's seeded tokens: q, k, v from default_rng(seed)
    d: int = Field(ge=1)  # key = value width: both states are d × d
    beta: float = Field(gt=0, le=1)  # write strength β, the same for every token and both memories
    n_tokens: int = Field(ge=1)  # T: the stepper has a decay and a write phase per token
    unit_norm_keys: bool = True  # scale q and k to unit length, as in FIG 06
    repeat_key: RepeatKey | None = None  # one token reusing an earlier key with a new value, as in FIG 06
    alpha: Gate  # the α the slider opens at: a point of the slider's grid
    open_token: int = Field(ge=1)  # 1-based token the stepper opens on (≤ n_tokens)
    open_phase: Literal["decay", "write"]  # the phase of that token it opens on
    alpha_min: Gate  # the slider: alpha_min … alpha_max in steps of alpha_step
    alpha_max: Gate
    alpha_step: float = Field(gt=0)
    precision: int = Field(default=3, ge=1, le=6)  # decimals the figure shows

    @model_validator(mode="after")
    def _consistent(self):
        if not self.alpha_min < self.alpha_max:
            raise ValueError(f"need alpha_min < alpha_max, got {self.alpha_min} and {self.alpha_max}")
        if not self.alpha_min <= self.alpha <= self.alpha_max:
            raise ValueError(f"alpha {self.alpha} is off the slider {self.alpha_min} … {self.alpha_max}")
        for name, token in (
            ("repeat_key.token", self.repeat_key and self.repeat_key.token),
            ("open_token", self.open_token),
        ):
            if token and token > self.n_tokens:
                raise ValueError(f"{name} {token} is beyond the {self.n_tokens} tokens")
        return self


def alpha_grid(params: dict) -> np.ndarray:
    lo, hi, step = (float(params[k]) for k in ("alpha_min", "alpha_max", "alpha_step"))
    if not 0 <= lo < hi <= 1 or step <= 0:
        raise ValueError(f"need 0 <= alpha_min < alpha_max <= 1 and alpha_step > 0, got {lo}, {hi}, {step}")
    alphas = np.round(np.arange(lo, hi + step / 2, step), 10)
    if not np.any(np.isclose(alphas, float(params["alpha"]))):
        raise ValueError(f"alpha {params['alpha']} is not on the slider grid {alphas.tolist()}")
    return alphas


def build(params: dict, facts) -> dict:
    q, k, v = inputs(params)
    T, d = k.shape
    beta = float(params["beta"])
    betas = np.full(T, beta)
    alphas = alpha_grid(params)

    def r(x):  # shipped rounding
        return np.round(x, DECIMALS)

    _, _, plain = delta_rule(q, k, v, betas, trace=True)
    open_step = 2 * (int(params["open_token"]) - 1) + ["decay", "write"].index(params["open_phase"])
    if not 0 <= open_step < 2 * T:
        raise ValueError(f"open_token must be 1..{T}, got {params['open_token']}")
    gated = []
    for a in alphas:
        with np.errstate(divide="ignore"):  # α = 0 is log-decay −∞: exp(−∞) = 0 clears the state
            g = np.full(T, np.log(a))
        _, _, tr = gated_delta_rule(q, k, v, g, betas, trace=True)
        # token 1's write on its own: the state is linear in it, so running the later tokens with zero
        # values from S = (token 1's write) leaves exactly the part of it that survives their decay
        # and their delta-rule corrections (which erase along each later key)
        W1 = tr["state"][0]
        _, _, rest = gated_delta_rule(
            q[1:], k[1:], np.zeros_like(v[1:]), g[1:], betas[1:], initial_state=W1, trace=True
        )
        left = np.linalg.norm(rest["state"], axis=(1, 2)) / np.linalg.norm(W1)
        gated.append(
            {
                "alpha": a,
                "decayed": r(tr["state_decayed"]),
                "state": r(tr["state"]),
                # how far the gated memory is from plain DeltaNet after each token
                "diff": r(np.max(np.abs(tr["state"] - plain["state"]), axis=(1, 2))),
                # share of token 1's write (Frobenius norm) left after tokens 1..T, and α^n, decay alone
                "survival": r(np.concatenate([[1.0], left])),
                "decay_only": r(a ** np.arange(T)),
            }
        )
    return {
        "d": d,
        "beta": beta,
        "digits": int(params.get("precision", 3)),
        "n_tokens": T,
        "alphas": alphas,
        "alpha_default": float(params["alpha"]),
        "open_step": open_step,
        # one colour scale for both grids at every α: the largest magnitude either shows
        "heat_scale": float(np.max(np.abs(plain["state"]))) if T else 1.0,
        "q": q,
        "k": k,
        "v": v,
        "plain": {"state_prev": r(plain["state_prev"]), "state": r(plain["state"])},
        "gated": gated,
        "provenance": {
            "kernels": ["k3explainer.kernels.delta_rule", "k3explainer.kernels.gated_delta_rule"],
            "inputs": (
                f"the seeded tokens of FIG 06 (q, k, v: [{T}, {d}], unit-length q and k, "
                f"seed {params['seed']}); "
                f"beta = {beta}; the same alpha on every token, g = log(alpha) for each alpha in "
                f"{alphas[0]}..{alphas[-1]} step {params['alpha_step']}; states rounded to {DECIMALS} decimals; "
                "token 1's surviving share: the later tokens run with zero values from token 1's write"
            ),
            "seed": params["seed"],
            "illustrative": "a fixed alpha and beta; trained models compute both from each token",
        },
    }
