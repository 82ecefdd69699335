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
from k3explainer.site.readertext import integer, sci

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
        # the takeaway's numbers: where the figure's intro play-through stops, at the last decode step
        "headline": {
            "tokens": steps[-1]["n"],
            "cache": steps[-1]["cache"],
            "per_token": steps[-1]["writes"],  # one key and one value column
            "state": steps[-1]["state"]["kept"],
        },
        # what the figure says, written here (readertext) so a test reads it against the numbers above
        "text": _texts(steps, D),
        "position_text": _positions(steps, P),
        "views": {mode: [_view(steps, tokens, P, pos, mode) for pos in range(len(steps) + 1)] for mode in MODES},
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


MODES = ("cache", "fixed")  # the switch's two states: the KV cache, or linear attention's fixed state


def _texts(steps: list[dict], D: int) -> dict:
    """The figure's fixed texts, and the ones that depend only on the switch."""
    return {
        "tokens_label": "Tokens: the prompt, then the decoded continuation",
        "k_caption": "K cache · one column per token",
        "v_caption": "V cache · one column per token",
        "state_caption": f"state S = φ(K)ᵀV · {integer(D)} × {integer(D)}, the same size at every step",
        "state_note": "Linear attention (§05) folds every token into this one matrix instead of keeping its key and value.",
        "chart_label": "Memory kept after each step, in elements, against the tokens in context: the cache bars grow "
        f"by the same amount per token; the fixed state's line stays flat at {integer(steps[0]['state']['kept'])}.",
        "legend_cache": "KV cache per step",
        "legend_state": "fixed state",
        "cache": {"kept_note": "cache elements, 2·N·D", "full": "= full causal pass", "note": ""},
        "fixed": {
            # the output shown is normalised, so beside S the state keeps z = Σφ(k): D more numbers, not counted
            "kept_note": "state elements D × D (+ D for the normaliser z), constant",
            "full": "= full linear pass",
            "note": "A different mechanism: these are linear attention's numbers, not the softmax output the "
            "cache reproduces exactly.",
        },
    }


def _positions(steps: list[dict], P: int) -> list[str]:
    """The stepper's readout at each position: nothing yet, the prefill, then each decode step."""
    decode = len(steps) - 1
    return ["not started", f"prefill · {P} tokens"] + [f"decode step {j} of {decode}" for j in range(1, decode + 1)]


# what a step reads and writes, by the switch: (before or at the prefill, at a decode step)
READS_NOTE = {
    "cache": ("no cache yet: k, v computed fresh", "all cached K and V, 2·N·D"),
    "fixed": ("no state yet: built in one pass", "the whole state"),
}
WRITES_NOTE = {
    "cache": ("every prompt column, 2·N·D", "one K and one V column, 2·D"),
    "fixed": ("the whole state, built", "the whole state, rewritten"),
}


def _view(steps: list[dict], tokens: list[str], P: int, pos: int, mode: str) -> dict:
    """Every text the figure shows at position `pos` (0: nothing processed, 1: the prefill, then the
    decode steps) with the cache or the fixed state: the counters, the output panel, the narration."""
    fixed = mode == "fixed"
    s = steps[pos - 1] if pos else None
    prefill = s is None or s["kind"] == "prefill"  # before the prefill, as at it, nothing has been read
    n = s["n"] if s else 0
    if s is None:  # the fixed state has its size before anything is processed; the cache is empty
        mem = {"kept": steps[0]["state"]["kept"] if fixed else 0, "reads": 0, "writes": 0}
    else:
        mem = s["state"] if fixed else {"kept": s["cache"], "reads": s["reads"], "writes": s["writes"]}
    kept, reads, writes = integer(mem["kept"]), integer(mem["reads"]), integer(mem["writes"])
    view = {
        "n": integer(n),
        "n_note": "press Prefill"
        if s is None
        else "the prompt, in one pass"
        if prefill
        else f"prompt + {n - P} decoded",
        "kept": kept,
        "reads": reads,
        "reads_note": READS_NOTE[mode][0 if prefill else 1],
        "writes": writes,
        "writes_note": "nothing yet" if s is None else WRITES_NOTE[mode][0 if prefill else 1],
    }
    # the narration: a step names what it processed; a flip of the switch, what is now shown
    shown = "Fixed-size state shown. " if fixed else "KV cache shown. "
    if s is None:
        empty = (
            f"Nothing processed yet: the fixed state ({kept} elements) is empty."
            if fixed
            else "Nothing processed yet: the cache is empty."
        )
        return {**view, "said": empty, "said_switch": shown + empty}

    t, diff = s["token"], sci((s["state"] if fixed else s)["max_diff"])
    token = f"“{tokens[t]}”"
    view["title"] = f"{'Last prompt token' if prefill else 'New token'} {token} (position {t + 1}): " + (
        "linear-attention output" if fixed else "output"
    )
    # the prefill's output comes from its own causal pass over the prompt, not through a cache
    view["via"] = "via the state S" if fixed else "prefill pass" if prefill else "via the cache"
    view["diff"] = f"largest difference: {diff}"
    memory = (
        f"fixed state holds {kept} elements" if fixed else f"cache holds {kept} elements for {integer(n)} tokens"
    ) + f"; the step reads {reads} and writes {writes}"
    output = (
        "state's linear-attention output matches the full linear pass"
        if fixed
        else f"{'prefill' if prefill else 'cached'} output matches the full pass"
    )
    rest = f"; {memory}; the {output} to rounding error (largest difference {diff})."
    j = pos - 1  # the decode step
    processed = f"Prefill: {P} prompt tokens in one pass" if prefill else f"Decode step {j}: {token} appended"
    after = f"After the prefill of {P} prompt tokens" if prefill else f"After decode step {j}"
    return {**view, "said": processed + rest, "said_switch": shown + after + rest}
