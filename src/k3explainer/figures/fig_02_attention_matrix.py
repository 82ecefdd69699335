"""FIG 02 · Causal attention on a short sentence: the weight matrix and every stage of one row."""
import numpy as np

from k3explainer.kernels import causal_softmax_attention


def build(params: dict, facts) -> dict:
    tokens = params["tokens"]
    if not all(isinstance(t, str) for t in tokens):  # YAML reads a bare on/off/yes/no as a boolean
        raise TypeError(f"tokens must be strings (quote them in the spec): {tokens}")
    d_k, d_v = int(params["d_k"]), int(params["d_v"])
    if d_k < 1 or d_v < 1:
        raise ValueError(f"d_k and d_v must be positive, got {d_k} and {d_v}")
    rng = np.random.default_rng(params["seed"])
    T = len(tokens)
    q, k = rng.standard_normal((2, T, d_k))  # [T, d_k] each
    v = rng.standard_normal((T, d_v))  # [T, d_v]
    _, _, tr = causal_softmax_attention(q, k, v, trace=True)
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
        "weights": tr["weights"],
        "output": tr["output"],
        "provenance": {
            "kernels": ["k3explainer.kernels.causal_softmax_attention"],
            "inputs": f"q, k: [{T}, {d_k}], v: [{T}, {d_v}], standard normal from numpy default_rng(seed)",
            "seed": params["seed"],
            "illustrative": "the sentence and the random projections are a demo, not a trained model",
        },
    }
