"""FIG 07 · DeltaNet (α = 1) beside Gated DeltaNet on the same tokens, for every α on the slider:
the decayed state α·S before each write and the state after it, from the kernels."""

from typing import Annotated, Literal

import numpy as np
from pydantic import BaseModel, ConfigDict, Field, model_validator

from k3explainer.kernels import delta_rule, gated_delta_rule
from k3explainer.site.readertext import fixed

from .delta_tokens import RepeatKey, inputs

DECIMALS = 5  # shipped precision: two digits finer than shown, so the data stays small
PHASES = ("decay", "write")  # the two phases of a token, named as the stepper names them
SUBSCRIPTS = str.maketrans("0123456789", "₀₁₂₃₄₅₆₇₈₉")


def sub(n: int) -> str:
    """3 → "₃", for state names like S₃ (the page's W.sub)."""
    return str(n).translate(SUBSCRIPTS)


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


def percent(share: float) -> str:
    """0.623 → "62.3 %" (the product in floating point, as the page formed it)."""
    return f"{fixed(100 * share, 1)} %"


def vector_text(xs, digits: int) -> str:
    return "[" + ", ".join(fixed(x, digits) for x in xs) + "]"


def texts(alpha: float, g: dict, digits: int) -> dict:
    """One slider position's numbers as the figure writes them: α, and per token the largest
    difference from DeltaNet, the shares of token 1's write left, the decayed state's first row."""
    after_write = "After token {token}: the two states differ by at most {diff}"
    return {
        "alpha_text": fixed(alpha, 3),
        "gate_text": f"α = {fixed(alpha, 3)}",  # the slider's reading and the gated grid's tag
        "diff_text": [fixed(x, digits) for x in g["diff"]],
        "left_text": [percent(x) for x in g["survival"]],
        "decay_text": [percent(x) for x in g["decay_only"]],
        "row_text": [vector_text(S[0], digits) for S in g["decayed"]],
        "after_write": after_write
        + (
            " — with α = 1 they are identical."
            if alpha == 1
            else " — with α = 0 the gated state holds only the latest write."
            if alpha == 0
            else "."
        ),
    }


def sentences() -> dict:
    """The figure's sentences as templates: {token} (1-based), {state} (S₃), and the slider
    position's texts ({alpha}, {diff}, {left}, {decay}, {row}) at that token; {plain}: DeltaNet's
    share left. The narration says what a step or a new α shows."""
    said = {
        "decay": "Token {token}, decay: the gated state is multiplied by α = {alpha}; its first row is now {row}.",
        "write": (
            "Token {token}, write: each state receives its own delta-rule write (the gated one corrects against "
            "its decayed state); they now differ by at most {diff}."
        ),
    }
    said_alpha = {
        "decay": (
            "α = {alpha}: before token {token}'s write the gated state is α·{state}, first row {row}; {left} of "
            "token 1's write is left."
        ),
        "write": (
            "α = {alpha}: after token {token} the gated state differs from DeltaNet by at most {diff}; {left} of "
            "token 1's write is left."
        ),
    }
    return {
        "slider_aria": "Gate alpha of the Gated DeltaNet state",
        "plot_title": "How much of token 1's write is left",
        "readout_decay": "Decay: every cell of the gated state is multiplied by α = {alpha} before token {token}'s "
        "write lands.",
        "plot": (
            "α = {alpha}: after token {token}, {left} of token 1's write is left ({decay} from decay alone; {plain} "
            "in DeltaNet)."
        ),
        "said": said,
        "said_alpha": said_alpha,
        "said_both": {p: f"{said[p]} {said_alpha[p]}" for p in PHASES},  # a link that changes both at once
    }


def build(params: dict, facts) -> dict:
    q, k, v = inputs(params)
    T, d = k.shape
    beta = float(params["beta"])
    betas = np.full(T, beta)
    alphas = alpha_grid(params)
    digits = int(params.get("precision", 3))

    def r(x):  # shipped rounding
        return np.round(x, DECIMALS)

    _, _, plain = delta_rule(q, k, v, betas, trace=True)
    open_step = 2 * (int(params["open_token"]) - 1) + PHASES.index(params["open_phase"])
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
        position = {
            "alpha": a,
            "decayed": r(tr["state_decayed"]),
            "state": r(tr["state"]),
            # how far the gated memory is from plain DeltaNet after each token
            "diff": r(np.max(np.abs(tr["state"] - plain["state"]), axis=(1, 2))),
            # share of token 1's write (Frobenius norm) left after tokens 1..T, and α^n, decay alone
            "survival": r(np.concatenate([[1.0], left])),
            "decay_only": r(a ** np.arange(T)),
        }
        gated.append({**position, **texts(float(a), position, digits)})
    # the headline: at the slider's opening α and the token the stepper opens on, token 1's write left
    # in the gated memory and in DeltaNet (the slider's top, α = 1), as the plot reads them there
    at, opening = open_step // 2, next(g for g in gated if np.isclose(g["alpha"], float(params["alpha"])))
    headline = {
        "alpha": float(params["alpha"]),
        "token": at + 1,
        "left": float(opening["survival"][at]),
        "plain_left": float(gated[-1]["survival"][at]),
    }
    return {
        "headline": headline,
        "d": d,
        "beta": beta,
        "digits": digits,
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
        # DeltaNet's share of token 1's write left: the gated memory at α = 1, the slider's top
        "plain_left_text": gated[-1]["left_text"],
        "tokens": list(range(1, T + 1)),
        "state_names": [f"S{sub(t)}" for t in range(T + 1)],
        # per step (token t, phase: step 2t + phase): the stepper's reading and the grids' captions
        "walk": [
            {
                "readout": f"token {t + 1} / {T} · {phase}",
                "plain_caption": f"S{sub(t)} (no decay)" if phase == "decay" else f"S{sub(t + 1)} after the write",
                "gated_caption": f"α·S{sub(t)} (decayed)" if phase == "decay" else f"S{sub(t + 1)} after the write",
            }
            for t in range(T)
            for phase in PHASES
        ],
        "text": sentences(),
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
