"""FIG 12 · Plain residual shares vs attention-residual weights over the same earlier sources."""
import numpy as np

from k3explainer.kernels import attention_residual, residual_shares, rms_norm


def query_for(seed: int, index: int, d: int, scale: float) -> np.ndarray:
    """Query 0 is the zero initialisation (every weight equal); query i ≥ 1 is drawn from seed + i."""
    if index == 0:
        return np.zeros(d)
    return scale * np.random.default_rng(seed + index).standard_normal(d)


def build(params: dict, facts) -> dict:
    labels = [str(s) for s in params["source_labels"]]
    n, d, seed = int(params["n_sources"]), int(params["d"]), int(params["seed"])
    n_queries = int(params["n_queries"])
    scale = float(params.get("query_scale", 1.0))  # a partly trained query: scores of order one
    if len(labels) != n or n < 2 or d < 1 or n_queries < 1:
        raise ValueError(f"need n_sources ≥ 2 labels (got {len(labels)} for {n}), d ≥ 1 and n_queries ≥ 1")
    rng = np.random.default_rng(seed)
    sources = rng.standard_normal((n, d))  # [n, d] embedding + earlier layer outputs, similar sizes
    gamma = np.ones(d)  # RMSNorm weight at its initial value
    keys = rms_norm(sources, gamma)  # what the query is compared with (same norm the kernel applies)
    queries = np.stack([query_for(seed, i, d, scale) for i in range(n_queries + 1)])  # [n_queries + 1, d]
    weights, scores = [], []
    for w in queries:
        _, alpha = attention_residual(sources, w, gamma)
        weights.append(alpha)
        scores.append(keys @ w)
    shares = residual_shares(n - 1)  # embedding + (n − 1) layer outputs, each weight one
    return {
        "labels": labels,
        "d": d,
        "seed": seed,
        "query_scale": scale,
        "precision": int(params.get("precision", 3)),
        "sources": sources,
        "queries": queries,
        "scores": np.array(scores),
        "weights": np.array(weights),
        "shares": shares,
        "k3_md": (
            "In K3: {{kimi_k3.attnres_blocks}}, each layer attending over the embedding and the block summaries; "
            "{{attnres.latency_overhead}}; a baseline needs about {{attnres.compute_advantage}} the training compute."
        ),
        "provenance": {
            "kernels": [
                "k3explainer.kernels.residual_shares",
                "k3explainer.kernels.attention_residual",
                "k3explainer.kernels.rms_norm",
            ],
            "facts": ["kimi_k3.attnres_blocks", "attnres.latency_overhead", "attnres.compute_advantage"],
            "inputs": (f"sources [{n}, {d}] standard normal from default_rng({seed}); query 0 = zeros "
                       f"(initialisation), query i = {scale} × standard normal [{d}] from default_rng({seed} + i); "
                       "RMSNorm weight = ones; scores = RMSNorm(sources) · query"),
            "seed": seed,
            "illustrative": "seeded demo sources and queries, not trained weights",
        },
    }
