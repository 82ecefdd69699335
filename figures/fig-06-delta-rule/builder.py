"""FIG 06 · The delta rule on a 4×4 key-major state: every stage of every token, the read-back
identity and the chunked (WY / UT) form's agreement, all from the kernels."""

from typing import Literal, get_args

import numpy as np
from pydantic import BaseModel, ConfigDict, Field, model_validator

from k3explainer.kernels import default_scale, delta_rule, delta_rule_chunked

from .delta_tokens import RepeatKey, inputs

Stage = Literal["read", "error", "write", "state"]
STAGES = get_args(Stage)  # the four stages of a token, named as the component names them


class OpenAt(BaseModel):
    model_config = ConfigDict(extra="forbid")
    token: int = Field(ge=1)  # 1-based token the stepper opens on (≤ n_tokens)
    stage: Stage  # the stage of that token it opens on


class Params(BaseModel):
    model_config = ConfigDict(extra="forbid")
    seed: int  # q, k, v from default_rng(seed)
    d: int = Field(ge=1)  # key = value width: the state is d × d, drawn whole
    beta: float = Field(gt=0, le=1)  # write strength β, the same for every token (real models: σ(·) per token)
    n_tokens: int = Field(ge=1)  # T: tokens written one after another
    unit_norm_keys: bool = True  # scale q and k to unit length (then q = k reads back exactly βv)
    repeat_key: RepeatKey | None = None  # one token reusing an earlier key with a new value: an overwrite
    open_at: OpenAt | None = None  # the step the figure opens on (none: token 1's read)
    chunk_size: int = Field(ge=1)  # C of the chunked WY / UT form checked against the recurrence
    precision: int = Field(default=3, ge=1, le=6)  # decimals shown; a write moving a cell by half of one changes it

    @model_validator(mode="after")
    def _tokens_exist(self):
        for name, token in (
            ("repeat_key.token", self.repeat_key and self.repeat_key.token),
            ("open_at.token", self.open_at and self.open_at.token),
        ):
            if token and token > self.n_tokens:
                raise ValueError(f"{name} {token} is beyond the {self.n_tokens} tokens")
        return self


def build(params: dict, facts) -> dict:
    q, k, v = inputs(params)
    T, d = k.shape
    beta = float(params["beta"])
    digits = int(params.get("precision", 3))
    betas = np.full(T, beta)
    o, S, tr = delta_rule(q, k, v, betas, trace=True)

    # the chunked WY / UT form on the same tokens must land on the same state and outputs
    C = int(params["chunk_size"])
    o_c, S_c = delta_rule_chunked(q, k, v, betas, chunk_size=C)

    # read-back: write (k₁, v₁) into an empty state, read it with q = k₁; scale 1 gives β‖k‖²v = βv
    k1, v1 = k[:1], v[:1]
    rb_out, rb_state = delta_rule(k1, k1, v1, betas[:1], scale=1.0)
    rb_default, _ = delta_rule(k1, k1, v1, betas[:1])  # the kernels' default scale 1/√d_k on q
    beta_v = beta * v1[0]

    # a cell counts as changed when the write moves it by at least half the last shown digit
    changed = np.abs(tr["write"]) >= 0.5 * 10.0**-digits
    rep = params.get("repeat_key")
    repeat = None
    if rep:
        t, src = int(rep["token"]) - 1, int(rep["key_of"]) - 1
        # reading every new state with its own token's key (q = k, scale 1) gives what that key
        # returns once the write has landed: for the repeated key, the corrected association
        read_after, _ = delta_rule(k, k, v, betas, scale=1.0)
        repeat = {
            "token": t + 1,
            "key_of": src + 1,
            "old_value": v[src],
            "read": tr["read"][t],
            "new_value": v[t],
            "read_after": read_after[t],
        }
    # the step the figure opens on: one whose state already holds several writes (1-based token)
    open_at = params.get("open_at") or {"token": 1, "stage": "read"}
    if not 1 <= int(open_at["token"]) <= T or open_at["stage"] not in STAGES:
        raise ValueError(f"open_at needs a token in 1..{T} and a stage in {STAGES}, got {open_at}")
    # one colour scale for every grid and vector of the figure: the largest magnitude shown
    heat_scale = float(max(np.max(np.abs(x)) for x in (k, v, tr["read"], tr["error"], tr["write"], tr["state"])))
    return {
        "d": d,
        "beta": beta,
        "digits": digits,
        "chunk_size": C,
        "repeat": repeat,
        "heat_scale": heat_scale,
        "open_at": {"token": int(open_at["token"]), "stage": open_at["stage"]},
        "q": q,
        "k": k,
        "v": v,
        "steps": [
            {
                "state_prev": tr["state_prev"][t],
                "read": tr["read"][t],
                "error": tr["error"][t],
                "write": tr["write"][t],
                "state": tr["state"][t],
                "changed": changed[t].astype(int),
                "k": k[t],
                "v": v[t],
                "q": q[t],
                "output": tr["output"][t],
            }
            for t in range(T)
        ],
        "chunked": {
            "state": S_c,
            "state_diff": float(np.max(np.abs(S_c - S))),
            "output_diff": float(np.max(np.abs(o_c - o))),
            "n_chunks": -(-T // C),
        },
        "readback": {
            "k": k1[0],
            "v": v1[0],
            "state": rb_state,
            "out": rb_out[0],
            "beta_v": beta_v,
            "diff": float(np.max(np.abs(rb_out[0] - beta_v))),
            "default_scale": default_scale(d, None),
            "out_default_scale": rb_default[0],
        },
        "wy_md": (
            r"$A = \operatorname{StrictLower}\big(\operatorname{diag}(\beta) K K^\top\big)$, "
            r"$M = (I + A)^{-1}\operatorname{diag}(\beta)$, $W = MK$, $U = MV$, $V' = U - WS$, "
            r"$S \leftarrow S + K^\top V'$ — {{deltanet.parallel}}"
        ),
        "provenance": {
            "kernels": [
                "k3explainer.kernels.delta_rule",
                "k3explainer.kernels.delta_rule_chunked",
                "k3explainer.kernels.l2_normalize",
                "k3explainer.kernels.default_scale",
            ],
            "inputs": (
                f"q, k, v: [{T}, {d}] standard normal from numpy default_rng(seed), q and k scaled to unit "
                f"length; token {rep['token'] if rep else '-'} reuses the key of token "
                f"{rep['key_of'] if rep else '-'}; beta = {beta} for every token; chunk size {C}; "
                "read-back with scale 1 (and with the default 1/sqrt(d_k)); colours saturate at the largest "
                "|value| shown"
            ),
            "seed": params["seed"],
            "illustrative": "demo sizes and a fixed beta; real models compute beta per token",
        },
    }
