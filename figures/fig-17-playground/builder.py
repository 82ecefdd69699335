"""FIG 17 · Mathematical playground: one seeded four-token example through causal softmax attention
(every stage) and through the delta rule (every token), on the same queries, keys and values."""

import numpy as np
from pydantic import BaseModel, ConfigDict, Field, StrictStr, model_validator

from k3explainer.kernels import causal_softmax_attention, delta_rule, l2_normalize
from k3explainer.site.readertext import fixed, integer

# The attention column's stages: the choice's label, the stage grid's caption, and what the
# narration calls the stage (for the output: the output O, not the weights the grid still shows).
STAGES = [
    ("QKᵀ", "raw scores q·k", "raw scores q·k"),
    ("÷ √dₖ", "scaled scores q·k / √dₖ", "scaled scores q·k / √dₖ"),
    ("+ M", "masked scores (+ M)", "masked scores"),
    ("softmax", "softmax weights (rows sum to 1)", "softmax weights"),
    ("· V", "softmax weights (rows sum to 1)", "output O = weights · V"),
]
SUBSCRIPTS = str.maketrans("0123456789", "₀₁₂₃₄₅₆₇₈₉")


class Params(BaseModel):
    model_config = ConfigDict(extra="forbid")
    tokens: list[StrictStr] = Field(min_length=1)  # the positions' labels; quote on/off/yes/no: YAML reads a boolean
    d_k: int = Field(ge=1)  # key width: small, so every matrix is drawn whole
    d_v: int = Field(ge=1)  # value width: equal to d_k (the delta-rule panel draws k and v in one table)
    seed: int  # q, k, v from default_rng(seed)
    beta: float = Field(gt=0, le=1)  # the delta rule's write strength β, the same for every token
    unit_norm_keys: bool = True  # scale q and k to unit length (the builder's default too)
    precision: int = Field(default=3, ge=1, le=6)  # decimals shown; a write moving a cell by half of one changes it

    @model_validator(mode="after")
    def _square(self):
        if self.d_k != self.d_v:
            raise ValueError(
                f"d_k {self.d_k} must equal d_v {self.d_v}: the delta-rule panel draws k and v in one table"
            )
        return self


def vector(xs, digits: int) -> str:
    """A vector as the narration reads it: "[0.123, −0.456]"."""
    return "[" + ", ".join(fixed(x, digits) for x in xs) + "]"


def stage_texts(att: dict, named: list[str], digits: int) -> list[dict]:
    """Each attention stage's label, caption, the name its button is read by, and what the
    narration says when it is picked: the last query's row, the one every stage changes."""
    rows = [att["raw_scores"], att["scaled_scores"], att["scaled_scores"], att["weights"], att["output"]]
    last = len(named) - 1
    return [
        {
            "label": label,
            "caption": caption,
            "aria": f"Stage {s + 1}: {caption}" + (" and outputs" if s == len(STAGES) - 1 else ""),
            "describe": f"Attention, {said} for query {named[last]}: {vector(rows[s][last], digits)}"
            + ("; the earlier queries' entries above the diagonal are −∞" if s == 2 else "")
            + ".",
        }
        for s, (label, caption, said) in enumerate(STAGES)
    ]


def build(params: dict, facts) -> dict:
    tokens = params["tokens"]
    if not all(isinstance(t, str) for t in tokens):  # YAML reads a bare on/off/yes/no as a boolean
        raise TypeError(f"tokens must be strings (quote them in the spec): {tokens}")
    d_k, d_v = int(params["d_k"]), int(params["d_v"])
    if d_k != d_v:
        raise ValueError("the delta-rule panel draws k and v in one table, so d_k must equal d_v")
    T, beta, digits = len(tokens), float(params["beta"]), int(params.get("precision", 3))
    rng = np.random.default_rng(params["seed"])
    q, k = rng.standard_normal((2, T, d_k))
    v = rng.standard_normal((T, d_v))
    if params.get("unit_norm_keys", True):
        q, k = l2_normalize(q), l2_normalize(k)

    _, _, att = causal_softmax_attention(q, k, v, trace=True)
    # the delta rule read with scale 1, as the equation o_t = S_tᵀ q_t is written
    _, _, dr = delta_rule(q, k, v, np.full(T, beta), scale=1.0, trace=True)
    changed = np.abs(dr["write"]) >= 0.5 * 10.0**-digits
    shown = (
        q,
        k,
        v,
        att["raw_scores"],
        att["scaled_scores"],
        att["weights"],
        att["output"],
        dr["read"],
        dr["error"],
        dr["write"],
        dr["state"],
        dr["output"],
    )
    # one colour scale for every matrix of the figure: the largest finite magnitude it shows
    heat_scale = float(max(np.max(np.abs(x[np.isfinite(x)])) for x in shown))
    # what each keeps after t tokens: attention every key and value so far, the delta rule one state
    kept = {"attention": [(t + 1) * (d_k + d_v) for t in range(T)], "delta": d_k * d_v}
    # a token is labelled by its word, quoted ("a" and "I" are words here, not symbols); prose
    # names it by position and word
    names = [f"“{t}”" for t in tokens]
    named = [f"{t + 1} ({names[t]})" for t in range(T)]
    # the answer the figure opens on (its first token): attention, with one token visible, returns
    # that token's value; the delta rule returns it scaled by the write strength and the query's
    # overlap with the key, o₁ = β (q₁·k₁) v₁; and what each keeps by the last token
    headline = {
        "first_delta_scale": float(dr["output"][0] @ v[0] / (v[0] @ v[0])),
        "kept_attention_last": kept["attention"][-1],
        "kept_delta": kept["delta"],
    }
    return {
        "headline": headline,
        "tokens": tokens,
        "d_k": d_k,
        "d_v": d_v,
        "beta": beta,
        "digits": digits,
        "q": q,
        "k": k,
        "v": v,
        "heat_scale": heat_scale,
        "kept": kept,
        "kept_text": {"attention": [integer(n) for n in kept["attention"]], "delta": integer(kept["delta"])},
        "token_names": names,
        "token_named": named,
        "stages": stage_texts(att, named, digits),
        "text": {
            "keeps_heading": "What each keeps and reads",
            "token_option": "Token {token}",
            "beta": f"β = {fixed(beta, 2)}",
            "beta_label": f"write strength beta = {fixed(beta, 2)}",
            "keeps_attention": (
                "Attention after token {token} keeps every key and value so far: {kept} numbers, one more row of "
                "each per token."
            ),
            "keeps_delta": (
                f"The delta rule keeps one {d_k} × {d_v} state: {integer(kept['delta'])} numbers after any number "
                "of tokens."
            ),
            "describe_both": "{attention} {delta}",  # a stage and a token picked at once
        },
        "attention": {
            "scale": att["scale"],
            "raw_scores": att["raw_scores"],
            "scaled_scores": att["scaled_scores"],
            "mask": att["mask"].astype(int),
            "weights": att["weights"],
            "output": att["output"],
        },
        "delta": [
            {
                "state_prev": dr["state_prev"][t],
                "k": k[t],
                "v": v[t],
                "q": q[t],
                "read": dr["read"][t],
                "error": dr["error"][t],
                "write": dr["write"][t],
                "state": dr["state"][t],
                "changed": changed[t].astype(int),
                "output": dr["output"][t],
                "before_caption": f"S{str(t).translate(SUBSCRIPTS)} before",
                "after_caption": f"S{str(t + 1).translate(SUBSCRIPTS)} after",
                "describe": (
                    f"Delta rule, token {named[t]}: read {vector(dr['read'][t], digits)}, error "
                    f"{vector(dr['error'][t], digits)}, output {vector(dr['output'][t], digits)}. Attention now "
                    f"keeps {integer(kept['attention'][t])} numbers, the delta rule {integer(kept['delta'])}."
                ),
            }
            for t in range(T)
        ],
        "provenance": {
            "kernels": [
                "k3explainer.kernels.causal_softmax_attention",
                "k3explainer.kernels.delta_rule",
                "k3explainer.kernels.l2_normalize",
            ],
            "inputs": (
                f"q, k: [{T}, {d_k}], v: [{T}, {d_v}] standard normal from numpy default_rng(seed), q and k "
                f"scaled to unit length; attention with scale 1/sqrt(d_k); delta rule with beta = {beta} "
                "and read-out scale 1; colours saturate at the largest |value| shown"
            ),
            "seed": params["seed"],
            "illustrative": "four demo tokens with random vectors, not a trained model",
        },
    }
