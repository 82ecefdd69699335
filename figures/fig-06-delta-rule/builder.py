"""FIG 06 · The delta rule on a 4×4 key-major state: every stage of every token, the read-back
identity and the chunked (WY / UT) form's agreement, all from the kernels."""

from typing import Literal, get_args

import numpy as np
from pydantic import BaseModel, ConfigDict, Field, model_validator

from k3explainer.kernels import default_scale, delta_rule, delta_rule_chunked
from k3explainer.site.readertext import fixed, sci

from .delta_tokens import RepeatKey, inputs

Stage = Literal["read", "error", "write", "state"]
STAGES = get_args(Stage)  # the four stages of a token, named as the component names them
STAGE_LABELS = ("read Sᵀk", "error v − Sᵀk", "write β k errᵀ", "new S")  # the stage picker's buttons
SUBSCRIPTS = str.maketrans("0123456789", "₀₁₂₃₄₅₆₇₈₉")


def sub(n: int) -> str:
    """3 → "₃", for state names like S₃ (the page's W.sub)."""
    return str(n).translate(SUBSCRIPTS)


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


def vector_text(xs, digits: int) -> str:
    """[0.123, −0.456, …] as the narration writes a vector."""
    return "[" + ", ".join(fixed(x, digits) for x in xs) + "]"


def walk_texts(tr: dict, changed: np.ndarray, beta: float, digits: int, repeat: dict | None) -> list[dict]:
    """What the figure says at each step (token t, stage s: step 4t + s): the stepper's readout, the
    note above the grids, the narration, and how many rows of the repeated key's card are filled."""
    T, b = len(tr["read"]), fixed(beta, 2)
    walk = []
    for t in range(T):
        said = (
            f"read: Sᵀk = {vector_text(tr['read'][t], digits)}.",
            f"error: v − Sᵀk = {vector_text(tr['error'][t], digits)}.",
            f"write β k errorᵀ with β = {b}; its first row is {vector_text(tr['write'][t][0], digits)}.",
            f"new state; {int(changed[t].sum())} cells changed; its first row is now "
            f"{vector_text(tr['state'][t][0], digits)}.",
        )
        for s, stage in enumerate(STAGES):
            if t == 0:
                note = f"Token {t + 1}: the state is empty, so the read is zero and the write is β k vᵀ."
            elif repeat and t == repeat["token"] - 1:
                note = (
                    f"Token {repeat['token']} reuses token {repeat['key_of']}'s key with a new value: the read "
                    "returns roughly the old value, blurred by the writes since, and the write moves it most of "
                    "the way to the new one."
                )
            elif s == 0:  # the chips appear with the error, so the read stage says what is being read instead
                note = f"Token {t + 1}: first, read what the state already holds for this key."
            else:
                note = (
                    f"Token {t + 1}: the write is β = {b} times k (chips down its side) times the error (chips "
                    "along its top)."
                )
            step = {"readout": f"token {t + 1} / {T} · {stage}", "note": note, "said": f"Token {t + 1}, {said[s]}"}
            if repeat:  # the card's rows revealed: the stored value only once its token has written it
                r, src = repeat["token"] - 1, repeat["key_of"] - 1
                step["repeat_rows"] = (
                    0 if t < src else 1 if t < r else 4 if t > r else 2 if s == 0 else 3 if s < 3 else 4
                )
            walk.append(step)
    return walk


def repeat_texts(repeat: dict, beta: float) -> dict:
    """The repeated key's card: its caption and row labels, its line for each number of rows filled
    (0 to 4) and the jump to that token from before it and from after it."""
    token, key_of = repeat["token"], repeat["key_of"]
    while_reading = (
        "The read returns roughly the stored value, blurred by the writes since; the error is what the new value "
        "still needs."
    )
    return {
        "caption": f"token {token} reuses token {key_of}'s key",
        "rows": [f"v{sub(key_of)} (stored)", "read Sᵀk", f"v{sub(token)} (new)", "read after write"],
        "note": [
            f"Token {key_of} will store a value under this key; token {token} will bring it back with a new one.",
            f"Token {token} will bring this key back with a new value.",
            while_reading,
            while_reading,
            f"After the write the key reads {fixed(beta * 100, 0)} % of the way from the old read to the new value "
            f"(β = {fixed(beta, 2)}, unit-length key).",
        ],
        "go": {"ahead": f"Go to token {token}", "back": f"Back to token {token}"},
    }


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
    # the headline's numbers: how far the repeated key's read is from the value it stored, and how
    # much of the gap to the new value the write closes (β for a unit key: the error is written along k)
    headline = (
        {
            "token": repeat["token"],
            "key_of": repeat["key_of"],
            "read_off": float(
                np.linalg.norm(repeat["read"] - repeat["old_value"]) / np.linalg.norm(repeat["old_value"])
            ),
            "gap_closed": float(
                1
                - np.linalg.norm(repeat["read_after"] - repeat["new_value"])
                / np.linalg.norm(repeat["read"] - repeat["new_value"])
            ),
        }
        if repeat
        else {}
    )
    # the step the figure opens on: one whose state already holds several writes (1-based token)
    open_at = params.get("open_at") or {"token": 1, "stage": "read"}
    if not 1 <= int(open_at["token"]) <= T or open_at["stage"] not in STAGES:
        raise ValueError(f"open_at needs a token in 1..{T} and a stage in {STAGES}, got {open_at}")
    # one colour scale for every grid and vector of the figure: the largest magnitude shown
    heat_scale = float(max(np.max(np.abs(x)) for x in (k, v, tr["read"], tr["error"], tr["write"], tr["state"])))
    b = fixed(beta, 2)
    chunked = {
        "state": S_c,
        "state_diff": float(np.max(np.abs(S_c - S))),
        "output_diff": float(np.max(np.abs(o_c - o))),
        "n_chunks": -(-T // C),
    }
    readback = {
        "k": k1[0],
        "v": v1[0],
        "state": rb_state,
        "out": rb_out[0],
        "beta_v": beta_v,
        "diff": float(np.max(np.abs(rb_out[0] - beta_v))),
        "default_scale": default_scale(d, None),
        "out_default_scale": rb_default[0],
    }
    # what the figure writes (site/readertext.py): every sentence from the numbers above
    chunked["text"] = (
        f"delta_rule_chunked, chunk size {C} ({chunked['n_chunks']} chunks) vs the step-by-step recurrence: "
        f"max |ΔS| = {sci(chunked['state_diff'])}, max |Δo| = {sci(chunked['output_diff'])} — equal to float64 "
        "rounding."
    )
    readback["text"] = {
        "caption": "write (k₁, v₁) into S = 0, read with q = k₁",
        "off": "Press the button (or R) to write token 1 into an empty state and read it back.",
        "on": (
            f"Sᵀk₁ = β‖k₁‖²v₁ = β·v₁ (‖k₁‖ = 1): max difference {sci(readback['diff'])}. The kernels scale q by "
            f"1/√d_k = {fixed(readback['default_scale'], 2)} by default, which multiplies the read by the same "
            "factor; here q is read at scale 1."
        ),
        "said_on": (
            f"Read-back: Sᵀk₁ = {vector_text(readback['out'], digits)}, "
            f"β·v₁ = {vector_text(readback['beta_v'], digits)}; they are equal."
        ),
        "said_off": "Read-back check hidden.",
    }
    if repeat:
        repeat["text"] = repeat_texts(repeat, beta)
    return {
        "d": d,
        "beta": beta,
        "digits": digits,
        "chunk_size": C,
        "repeat": repeat,
        "headline": headline,
        "stages": [{"label": label, "aria": f"Stage {i + 1}: {label}"} for i, label in enumerate(STAGE_LABELS)],
        "walk": walk_texts(tr, changed, beta, digits, repeat),
        "play_said": [f"Token {t + 1}." for t in range(T)],  # while playing, only where a token starts
        "text": {
            "stage_picker": "Stage of this token",
            "play_what": "the walk through the tokens",
            "beta": f"β = {b}",
            "beta_aria": f"write strength beta = {b}",
            "chunk_title": "Chunked (WY / UT) form, used for training",
        },
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
                "before_caption": f"S{sub(t)} before token {t + 1}",
                "after_caption": f"S{sub(t + 1)} after",
            }
            for t in range(T)
        ],
        "chunked": chunked,
        "readback": readback,
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
