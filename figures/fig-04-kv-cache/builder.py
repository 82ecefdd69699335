"""FIG 04 · Prefill, then token-by-token decoding with a KV cache, against a fixed-size state.

One seeded head: q, k, v for the prompt plus the (ILLUSTRATIVE) continuation. The prefill and
each decode step come from `decode_with_kv_cache`; the full causal pass from
`causal_softmax_attention` is shipped beside it so the figure can show the cached output equals
that pass's row. The fixed-size comparison is linear attention's d×d state φ(K)ᵀV (§05), whose
size and per-step traffic come from `mechanism_costs`.
"""

from typing import Literal

import numpy as np
from pydantic import BaseModel, ConfigDict, Field, StrictStr

from k3explainer.kernels import (
    causal_softmax_attention,
    decode_step_reads,
    decode_step_writes,
    decode_with_kv_cache,
    elu_plus_one,
    kv_cache_elements,
    linear_attention,
    reassociate,
)

from ..experiments import mechanism_costs


class Params(BaseModel):
    model_config = ConfigDict(extra="forbid")
    prompt: list[StrictStr] = Field(min_length=1)  # prefilled in one pass; quote on/off/yes/no: YAML reads a boolean
    continuation: list[StrictStr] = Field(min_length=1)  # made-up tokens, decoded one per step (quote them likewise)
    d_model: int = Field(ge=1)  # D: the head's width, so the cache tables have D rows
    n_heads: Literal[1]  # the figure draws one head's cache (and one d×d state)
    seed: int  # q, k, v from default_rng(seed)


def _tokens(params: dict) -> tuple[list[str], list[str]]:
    prompt, cont = params["prompt"], params["continuation"]
    for name, toks in (("prompt", prompt), ("continuation", cont)):
        if not toks or not all(isinstance(t, str) for t in toks):  # YAML reads a bare on/no as a boolean
            raise TypeError(f"{name} must be a non-empty list of strings (quote them in the spec): {toks}")
    return list(prompt), list(cont)


def build(params: dict, facts) -> dict:
    prompt, cont = _tokens(params)
    D, heads = int(params["d_model"]), int(params["n_heads"])
    if heads != 1 or D < 1:
        raise ValueError(f"the figure draws one head of positive width, got n_heads={heads}, d_model={D}")
    rng = np.random.default_rng(params["seed"])
    tokens = prompt + cont
    T, P = len(tokens), len(prompt)
    q, k, v = rng.standard_normal((3, T, D))  # [T, D] each

    dec = decode_with_kv_cache(q, k, v, n_prefill=P)
    full, _ = causal_softmax_attention(q, k, v)

    def state_cost(n):  # the fixed-size state's kept elements and per-step traffic after n tokens
        return mechanism_costs("linear", "decode", n, d_h=D, heads=1)

    # the fixed-size state's own output for each token: read through S (recurrent) and, to check it,
    # the same rows of the full causal linear pass (parallel form); linear attention, not softmax
    fq, fk = elu_plus_one(q), elu_plus_one(k)
    lin_state = linear_attention(fq, fk, v, normalize=True, form="recurrent")
    lin_full = linear_attention(fq, fk, v, normalize=True, form="parallel")

    def state_at(n):  # φ(K)ᵀV over the first n tokens: the d×d summary linear attention keeps
        return reassociate(elu_plus_one(q[:n]), elu_plus_one(k[:n]), v[:n])["state"]

    # step 0: the prefill fills the cache with the whole prompt in one causal pass
    steps = [
        dict(
            kind="prefill",
            token=P - 1,
            n=P,
            reads=0,
            writes=int(kv_cache_elements(P, D)),
            cache=int(kv_cache_elements(P, D)),
        )
    ]
    for j, n in enumerate(dec["cache_tokens"]):
        reads, writes = int(dec["reads"][j]), int(dec["writes"][j])
        if reads != decode_step_reads(n, D) or writes != decode_step_writes(D):
            raise ValueError("decode_with_kv_cache and the cost kernels disagree")
        steps.append(
            dict(kind="decode", token=P + j, n=int(n), reads=reads, writes=writes, cache=int(kv_cache_elements(n, D)))
        )
    for s in steps:
        t = s["token"]
        s["cached_out"] = dec["outputs"][t]
        s["full_out"] = full[t]
        s["max_diff"] = float(np.max(np.abs(dec["outputs"][t] - full[t])))
        c = state_cost(s["n"])
        # the prefill builds the state from nothing in one pass: like the cache's, its step reads no state
        reads = 0 if s["kind"] == "prefill" else int(c["reads"])
        s["state"] = dict(
            kept=int(c["kept"]),
            reads=reads,
            writes=int(c["kept"]),
            S=state_at(s["n"]),
            out=lin_state[t],
            full_out=lin_full[t],
            max_diff=float(np.max(np.abs(lin_state[t] - lin_full[t]))),
        )

    return {
        "tokens": tokens,
        "n_prompt": P,
        "D": D,
        "k": k,
        "v": v,
        "steps": steps,
        "provenance": {
            "kernels": [
                "k3explainer.kernels.decode_with_kv_cache",
                "k3explainer.kernels.causal_softmax_attention",
                "k3explainer.kernels.kv_cache_elements",
                "k3explainer.kernels.decode_step_reads",
                "k3explainer.kernels.decode_step_writes",
                "experiments.mechanism_costs",
                "k3explainer.kernels.reassociate",
                "k3explainer.kernels.elu_plus_one",
                "k3explainer.kernels.linear_attention",
            ],
            "inputs": f"q, k, v: [{T}, {D}] standard normal from numpy default_rng(seed); prefill {P} tokens, "
            f"then {T - P} decode steps",
            "seed": params["seed"],
            "illustrative": "the continuation tokens are made up and the projections are random: no model is run",
        },
    }
