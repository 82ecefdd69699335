"""FIG 02 · Causal attention on a short sentence: the weight matrix and every stage of one row."""
import numpy as np

from k3explainer.kernels import causal_softmax_attention


def build(params: dict, facts) -> dict:
    tokens = list(params["tokens"])
    d_k = int(params["d_k"])
    rng = np.random.default_rng(params["seed"])
    T = len(tokens)
    q, k, v = (rng.standard_normal((T, d_k)) for _ in range(3))  # [T, d_k] each
    _, _, tr = causal_softmax_attention(q, k, v, trace=True)
    return {
        "tokens": tokens,
        "d_k": d_k,
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
            "inputs": f"q, k, v: [{T}, {d_k}] standard normal from numpy default_rng(seed)",
            "seed": params["seed"],
            "illustrative": "the sentence and the random projections are a demo, not a trained model",
        },
    }
