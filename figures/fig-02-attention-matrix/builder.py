"""FIG 02 · Causal attention on a short sentence: the weight matrix and every stage of one row.

Beside the weights of the scaled scores it ships the weights the same scores would get without the
1/√d_k scaling (the same kernel with scale 1), so the figure can show how much flatter scaling
makes each row. Per-row readouts (largest weight and where it goes, row sums) are computed here,
not in the browser.
"""

import numpy as np
from pydantic import BaseModel, ConfigDict, Field, StrictStr

from k3explainer.kernels import causal_softmax_attention


class Params(BaseModel):
    model_config = ConfigDict(extra="forbid")
    tokens: list[StrictStr] = Field(min_length=2)  # quote on/off/yes/no: YAML would read a boolean
    d_k: int = Field(ge=1)  # key width: small, so every score can be shown
    d_v: int = Field(ge=1)
    seed: int  # Q, K, V from default_rng(seed)


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
        "argmax": weights.argmax(axis=1),
        "max_weight_unscaled": unscaled.max(axis=1),
        "argmax_unscaled": unscaled.argmax(axis=1),
        "row_sum": weights.sum(axis=1),
        "provenance": {
            "kernels": ["k3explainer.kernels.causal_softmax_attention"],
            "comparison": "the weights without scaling: the same kernel with scale=1 instead of 1/√d_k",
            "inputs": f"q, k: [{T}, {d_k}], v: [{T}, {d_v}], standard normal from numpy default_rng(seed)",
            "seed": params["seed"],
            "illustrative": "the sentence labels the positions; their queries, keys and values are random draws, not a trained model's",
        },
    }
