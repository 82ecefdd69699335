"""FIG 12 · Plain residual shares vs attention-residual weights over the same earlier sources, for a
layer with 1 … n − 1 layers below it: the embedding plus l earlier outputs, so the plain residual's
equal shares are 1/(l + 1) and shrink as l grows, while the softmax weights always sum to one."""

import numpy as np
from pydantic import BaseModel, ConfigDict, Field

from k3explainer.kernels import attention_residual, residual_shares, rms_norm
from k3explainer.site.readertext import fixed

OPENS_ON = 1  # the query the figure opens on (the component's state default): the first seeded one


class Params(BaseModel):
    model_config = ConfigDict(extra="forbid")
    n_sources: int = Field(ge=2)  # the embedding + the deepest reading layer's outputs below it
    source_labels: list[str]  # one per source, in depth order
    d: int = Field(ge=1)  # stream width: small, so the query vector can be shown whole
    seed: int  # sources from default_rng(seed); query i from default_rng(seed + i)
    n_queries: int = Field(ge=1)  # "New query" steps through this many seeded queries
    query_scale: float = Field(default=1.0, gt=0)  # a partly trained query gives scores of order one
    precision: int = Field(default=3, ge=1, le=6)  # decimals the weights are shown with


def query_for(seed: int, index: int, d: int, scale: float) -> np.ndarray:
    """Query 0 is the zero initialisation (every weight equal); query i ≥ 1 is drawn from seed + i."""
    if index == 0:
        return np.zeros(d)
    return scale * np.random.default_rng(seed + index).standard_normal(d)


def layers(l: int) -> str:
    return f"{l} layer" if l == 1 else f"{l} layers"


def largest(weights: np.ndarray) -> int:
    """The source with the largest weight, or −1 when every weight is the same (the zero query,
    training's start, weighs every source alike: none is "the largest")."""
    return -1 if np.ptp(weights) < 1e-9 else int(np.argmax(weights))


def reader_text(depths: list[int], weights, shares, scores, digits: int) -> dict:
    """Every text the figure shows, from the numbers it ships (readertext: the component places
    them): numbers per (query, depth, source) as the data is indexed, and per-depth templates
    whose {slots} take the query's numbers."""
    n_queries = len(weights)
    share = [[fixed(s, digits) for s in by_depth] for by_depth in shares]
    return {
        "query_name": ["w = 0 (initialisation)"] + [f"query {q} of {n_queries - 1}" for q in range(1, n_queries)],
        "query_step": ["w = 0"] + [f"query {q} / {n_queries - 1}" for q in range(1, n_queries)],
        "depth_text": [f"{layers(l)} + embedding" for l in depths],
        "share_text": share,
        "weight_text": [[[fixed(w, digits) for w in by_depth] for by_depth in by_query] for by_query in weights],
        "weight_total_text": [[fixed(sum(w), digits) for w in by_query] for by_query in weights],
        "score_text": [[fixed(s, 2) for s in by_query] for by_query in scores],
        # how many plain shares each weight is
        "ratio_text": [
            [
                [f"{fixed(w / s, 2)}×" for w, s in zip(ws, ss, strict=True)]
                for ws, ss in zip(by_query, shares, strict=True)
            ]
            for by_query in weights
        ],
        "best": [[largest(w) for w in by_query] for by_query in weights],
        "text": {
            "plain_bar": "Plain residual: every source has the same share",
            "attn_bar": "Attention residual: softmax weights over the sources",
            "plain_note": "every source weight one",
            "attn_note": "softmax over depth",
            "key": (
                "Each bar is one whole input: a segment per source, the embedding at the left, its width that "
                "source's share of the mix (the plain share or the weight α, as in the table)."
            ),
            "list": "Sources this layer can read",
            "absent": "Not below this layer: {source} comes later",
            "sums": [
                f"With {layers(l)} below, the plain residual has {l + 1} equal shares of {s[0]}, summing to "
                f"{fixed(sum(ss), digits)}; the attention weights sum to {{total}}."
                for l, s, ss in zip(depths, share, shares, strict=True)
            ],
            "detail_even": "Every source gets {weight} of the mix, its plain share: no weight is the largest.",
            "detail_best": "Largest weight: {source} gets {weight} of the mix instead of {share} ({ratio} its plain share).",
            "detail_selected": "Selected: {source} gets {weight} of the mix instead of {share} ({ratio} its plain share).",
            "said_source": "{source}: plain share {share}, attention weight {weight} (score {score}).",
            "said_even": [
                f"{{query}}, {layers(l)} below: every source gets {{weight}}, as in the plain residual; the weights "
                f"sum to {{total}}. The plain residual gives each of its {l + 1} sources {s[0]}."
                for l, s in zip(depths, share, strict=True)
            ],
            "said_best": [
                f"{{query}}, {layers(l)} below: the largest weight, {{weight}}, goes to {{source}}; the weights "
                f"sum to {{total}}. The plain residual gives each of its {l + 1} sources {s[0]}."
                for l, s in zip(depths, share, strict=True)
            ],
        },
    }


def build(params: dict, facts) -> dict:
    labels = [str(s) for s in params["source_labels"]]
    n, d, seed = int(params["n_sources"]), int(params["d"]), int(params["seed"])
    n_queries = int(params["n_queries"])
    scale = float(params.get("query_scale", 1.0))  # a partly trained query: scores of order one
    if len(labels) != n:
        raise ValueError(f"need one label per source: {len(labels)} labels for {n} sources")
    rng = np.random.default_rng(seed)
    sources = rng.standard_normal((n, d))  # [n, d] embedding + earlier layer outputs, similar sizes
    gamma = np.ones(d)  # RMSNorm weight at its initial value
    keys = rms_norm(sources, gamma)  # what the query is compared with (same norm the kernel applies)
    queries = np.stack([query_for(seed, i, d, scale) for i in range(n_queries + 1)])  # [n_queries + 1, d]
    depths = list(range(1, n))  # layers below the reading layer: its sources are the embedding + l outputs
    # weights[q][j]: the softmax over the first depths[j] + 1 sources for query q
    weights = [[attention_residual(sources[: l + 1], w, gamma)[1] for l in depths] for w in queries]
    scores = [keys @ w for w in queries]  # a source's score does not depend on how many others there are
    shares = [residual_shares(l) for l in depths]  # embedding + l layer outputs, each weight one: 1/(l + 1)
    precision = int(params.get("precision", 3))
    # the figure's answer (its takeaway), in the state it opens on: the first seeded query with every
    # layer below; the source it weighs most and the one it weighs least, against the plain share
    w, share = weights[OPENS_ON][-1], shares[-1]
    most, least = int(np.argmax(w)), int(np.argmin(w))
    headline = {
        "most": labels[most],
        "most_weight": float(w[most]),
        "most_ratio": float(w[most] / share[most]),
        "least": labels[least],
        "least_weight": float(w[least]),
    }
    return {
        "headline": headline,
        "labels": labels,
        "d": d,
        "seed": seed,
        "query_scale": scale,
        "precision": precision,
        "sources": sources,
        "queries": queries,
        "scores": np.array(scores),
        "depths": depths,
        "weights": weights,  # [query][depth index] → [l + 1]
        "shares": shares,  # [depth index] → [l + 1]
        **reader_text(depths, weights, shares, scores, precision),
        "k3_md": (
            "In K3: {{kimi_k3.attnres_blocks}}, each layer attending over the embedding, the completed blocks' summaries "
            "and its own block's running sum. In the paper's own experiments Block AttnRes costs "
            "{{attnres.latency_overhead}}, and a baseline needs about {{attnres.compute_advantage}} the training compute "
            "to reach the same loss."
        ),
        "provenance": {
            "kernels": [
                "k3explainer.kernels.residual_shares",
                "k3explainer.kernels.attention_residual",
                "k3explainer.kernels.rms_norm",
            ],
            "facts": ["kimi_k3.attnres_blocks", "attnres.latency_overhead", "attnres.compute_advantage"],
            "inputs": (
                f"sources [{n}, {d}] standard normal from default_rng({seed}), of which a layer with l layers "
                "below reads the first l + 1; query 0 = zeros "
                f"(initialisation), query i = {scale} × standard normal [{d}] from default_rng({seed} + i); "
                "RMSNorm weight = ones; scores = RMSNorm(sources) · query"
            ),
            "seed": seed,
            "illustrative": "seeded demo sources and queries, not trained weights",
        },
    }
