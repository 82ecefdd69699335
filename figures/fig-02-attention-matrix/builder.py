"""FIG 02 · Causal attention on a short sentence: the weight matrix and every stage of one row.

Beside the weights of the scaled scores it ships the weights the same scores would get without the
1/√d_k scaling (the same kernel with scale 1), so the figure can show how much flatter scaling
makes each row. Per-row readouts (largest weight and where it goes, row sums) are computed here,
not in the browser.
"""

import numpy as np
from pydantic import BaseModel, ConfigDict, Field, StrictStr

from k3explainer.kernels import causal_softmax_attention
from k3explainer.site.readertext import fixed


class Params(BaseModel):
    model_config = ConfigDict(extra="forbid")
    tokens: list[StrictStr] = Field(min_length=2)  # quote on/off/yes/no: YAML would read a boolean
    d_k: int = Field(ge=1)  # key width: small, so every score can be shown
    d_v: int = Field(ge=1)
    seed: int  # Q, K, V from default_rng(seed)


def weight_text(x: float) -> str:
    """A weight to two decimals, unless that would print 0.00 for a weight above zero or 1.00 for one
    below one: the unscaled softmax gets that close (0.9996), and "1.00" would read as a lone key."""
    two = fixed(x, 2)
    return fixed(x, 4) if (x > 0 and float(two) == 0) or (x < 1 and float(two) == 1) else two


def _reader_text(tokens: list[str], weights, unscaled, row_sum, argmax) -> dict:
    """What the figure says about each query row, written here so a test reads it against the numbers:
    the weights as the scores table prints them (a masked key: 0), the sentence under the table and
    the narration."""
    T = len(tokens)
    # quoted, as FIG 17 does: a token such as "on" read bare turns "Row 4 on" into "from row 4 on"
    label = [f"{t + 1} “{tok}”" for t, tok in enumerate(tokens)]

    def shown(w):
        return [[weight_text(w[t, s]) if s <= t else "0" for s in range(T)] for t in range(T)]

    row_text, said = [], []
    for t in range(T):
        best, best_unscaled = weight_text(weights[t].max()), weight_text(unscaled[t].max())
        keys = f"{t + 1} visible key" + ("s" if t else "")
        row_text.append(
            f"Row {label[t]}: {keys}, weights sum to {fixed(row_sum[t], 3)}. "
            + (
                f"Largest weight {best}; without the 1/√d scaling it would be {best_unscaled}."
                if t
                else "A single visible key takes all the weight, with or without scaling."
            )
        )
        said.append(
            f"Query {label[t]} sees {t + 1} token{'s' if t else ''}; the largest weight, {best}, goes to "
            f"{label[argmax[t]]}" + (f" ({best_unscaled} without the 1/√d scaling)." if t else ".")
        )
    return {
        "weights_text": shown(weights),
        "weights_unscaled_text": shown(unscaled),
        "key_labels": [f"{s + 1} {tok}" for s, tok in enumerate(tokens)],  # the heatmap's axes, the tables' rows
        "query_aria": [f"Query {x}" for x in label],
        "row_text": row_text,
        "said": said,
        "text": {
            "heatmap_aria": "Heatmap of the causal attention weights: one row per query token, one column per key "
            "token; cells above the diagonal are masked.",
            "x_title": "key (the token attended to)",
            "y_title": "query (the row)",
            "q_caption": "query q",
            "k_caption": "keys k (visible rows)",
            "v_caption": "values v (visible rows)",
            "stages_caption": "scores for this row",
            "out_caption": "output Σ w·v",
        },
    }


def build(params: dict, facts) -> dict:
    tokens = params["tokens"]
    d_k, d_v = int(params["d_k"]), int(params["d_v"])
    rng = np.random.default_rng(params["seed"])
    T = len(tokens)
    q, k = rng.standard_normal((2, T, d_k))  # [T, d_k] each
    v = rng.standard_normal((T, d_v))  # [T, d_v]
    _, _, tr = causal_softmax_attention(q, k, v, trace=True)
    _, unscaled = causal_softmax_attention(q, k, v, scale=1.0)  # the same scores without the 1/√d_k
    weights = tr["weights"]
    argmax = weights.argmax(axis=1)
    # the row the figure opens on (component.js reads it): a middle one, so its later keys are masked
    row = (T - 1) // 2
    return {
        "tokens": tokens,
        "d_k": d_k,
        "d_v": d_v,
        "q": q,
        "k": k,
        "v": v,
        "scale": tr["scale"],
        "raw_scores": tr["raw_scores"],
        "scaled_scores": tr["scaled_scores"],
        "mask": tr["mask"].astype(int),
        "weights": weights,
        "weights_unscaled": unscaled,
        "output": tr["output"],
        # per query row: the largest weight, the key it goes to, and the same for unscaled scores
        "max_weight": weights.max(axis=1),
        "argmax": argmax,
        "max_weight_unscaled": unscaled.max(axis=1),
        "argmax_unscaled": unscaled.argmax(axis=1),
        "row_sum": weights.sum(axis=1),
        # the takeaway's numbers: what the row the figure opens on does with its scores
        "headline": {
            "row": row,
            "query": tokens[row],
            "visible": row + 1,  # keys it may see: itself and every earlier token
            "top_key": tokens[argmax[row]],
            "top_weight": float(weights[row].max()),
            "top_weight_unscaled": float(unscaled[row].max()),
        },
        **_reader_text(tokens, weights, unscaled, weights.sum(axis=1), argmax),
        "provenance": {
            "kernels": ["k3explainer.kernels.causal_softmax_attention"],
            "comparison": "the weights without scaling: the same kernel with scale=1 instead of 1/√d_k",
            "inputs": f"q, k: [{T}, {d_k}], v: [{T}, {d_v}], standard normal from numpy default_rng(seed)",
            "seed": params["seed"],
            "illustrative": "the sentence labels the positions; their queries, keys and values are random draws, not a trained model's",
        },
    }
