"""FIG 12b · What depth does to the stream a layer reads: one seeded stack of random MLP layers, run
with the plain PreNorm residual and with attention residuals (experiments.depth_experiment).

For each reading layer on the slider: the size (RMS) of what the layer reads, each source's weight
in the mix, and each source's share of the input's squared norm, averaged over the tokens, for
three ways of reading: the plain residual stream, attention residuals with the seeded random
queries (the general case), and the same stack with the reading layer's query aimed at an early
layer's output (can one query retrieve it?). K3's count of layers comes from the facts file and is a stop
on the slider and the figure's opening view.
"""

from decimal import ROUND_HALF_UP, Decimal

import numpy as np
from pydantic import BaseModel, ConfigDict, Field

from k3explainer.site.readertext import fixed

from ..experiments import depth_experiment

K3_DEPTH = "kimi_k3.layer_layout"
RULES = ("plain", "random", "aligned")
QUERY = {"aligned": "aimed query", "random": "random queries"}  # the attention-residual queries, as named in sentences


class Params(BaseModel):
    model_config = ConfigDict(extra="forbid")
    n_layers: int = Field(ge=2, le=96)  # layers in the stack; K3's count of layers must fit
    d: int = Field(ge=2)  # stream width
    d_ff: int = Field(ge=1)  # MLP hidden width
    n_tokens: int = Field(ge=1)  # token vectors run through the same stack (the numbers are their means)
    seed: int  # everything below is drawn from default_rng(seed), in the order listed in `stack_inputs`
    out_gain: float = Field(gt=0)  # W_out's scale: outputs about the size of the embedding
    query_norm: float = Field(gt=0)  # ‖w_l‖ of every query, the random ones and the aligned probe
    target: int = Field(ge=1)  # the early layer the aligned query looks for
    depths: list[int] = Field(min_length=2)  # reading layers on the slider (K3's count of layers is added)
    decimals: int = Field(default=5, ge=3, le=12)  # decimals shipped (shown: at most 3)


def stack_inputs(p: dict):
    """The seeded stack, drawn from one generator in this order: embedding [T, d] standard normal;
    W_in [L, d, d_ff] ~ N(0, 1/d); W_out [L, d_ff, d] ~ N(0, gain²/d_ff); queries [L, d] standard
    normal, each rescaled to norm `query_norm`. RMSNorm weight: ones."""
    L, d, F, T = (int(p[k]) for k in ("n_layers", "d", "d_ff", "n_tokens"))
    rng = np.random.default_rng(int(p["seed"]))
    embedding = rng.standard_normal((T, d))
    w_in = rng.standard_normal((L, d, F)) / np.sqrt(d)
    w_out = rng.standard_normal((L, F, d)) * (float(p["out_gain"]) / np.sqrt(F))
    queries = rng.standard_normal((L, d))
    queries *= float(p["query_norm"]) / np.linalg.norm(queries, axis=1, keepdims=True)
    return embedding, w_in, w_out, queries, np.ones(d)


def reading_layers(p: dict, k3_depth: int) -> list[int]:
    """The slider's stops: the spec's depths and K3's, sorted, each after the target layer."""
    depths = sorted({int(l) for l in p["depths"]} | {k3_depth})
    if k3_depth > int(p["n_layers"]):
        raise ValueError(f"n_layers {p['n_layers']} is shallower than K3's {k3_depth} layers")
    if depths[0] <= int(p["target"]) or depths[-1] > int(p["n_layers"]):
        raise ValueError(f"depths must lie in {int(p['target']) + 1} … {p['n_layers']}, got {depths}")
    return depths


def fmt(x: float, digits: int) -> str:
    """x to `digits` decimals as the page's W.fmt writes it. JS's toFixed rounds a tie of the binary
    value away from zero, where readertext.fixed rounds it to even, and this figure's numbers tie
    (the plain weight 1/16 = 0.0625 shows as 0.063, its share 6.25% as 6.3%)."""
    return fixed(float(Decimal(float(x)).quantize(Decimal(10) ** -digits, ROUND_HALF_UP)), digits)


def percent(x: float) -> str:
    return fmt(100 * x, 1) + "%"


def tick(v: float) -> str:
    """An axis tick to two significant digits, as short as it goes (0.1, 3, 10)."""
    v = float(f"{v:.2g}")
    return str(int(v)) if v.is_integer() else repr(v)


def source_name(i: int) -> str:
    return "the embedding" if i == 0 else f"layer {i}'s output"


def reader_text(rules: dict, depths: list[int], k3_depth: int, target: int, embedding_rms: float) -> dict:
    """Every text the figure shows, from the numbers it ships (readertext: the component places
    them). A reading layer's two sentences and the charts' labels are whole, one per query and
    layer; a source's sentence, one of some 750 (query, layer, source) states, is a template whose
    {slots} take the numbers at rules[rule][weight_text | share_text][layer][source]."""
    tg = target
    plain = rules["plain"]

    def depth_sentence(q: str, j: int, l: int) -> str:
        r = rules[q]
        return (
            f"Layer {l} reads a plain residual stream of RMS {fmt(plain['rms'][j], 2)} (the embedding's: "
            f"{fmt(embedding_rms, 2)}), in which layer {tg}'s share is {percent(plain['shares'][j][tg])} "
            f"(1/l = {percent(plain['weights'][j][0])}). With attention residuals and the {QUERY[q]}, its input "
            f"has RMS {fmt(r['rms'][j], 2)}, layer {tg} has weight {fmt(r['weights'][j][tg], 3)} and share "
            f"{percent(r['shares'][j][tg])}."
        )

    def chart(q: str, l: int, what: str, plain_value: str, value: str) -> str:
        return f"{what}, against l, log–log; at layer {l}: plain residual {plain_value}, attention residuals ({QUERY[q]}) {value}."

    return {
        "depth_text": [f"layer {l}" + (" · K3's layer count" if l == k3_depth else "") for l in depths],
        "ends_text": [f"embedding … layer {l - 1}" for l in depths],
        "source_name": [source_name(i) for i in range(max(depths))],
        "rules_text": {
            k: {
                "weight_text": [[fmt(w, 3) for w in by_depth] for by_depth in rules[k]["weights"]],
                "share_text": [[percent(s) for s in by_depth] for by_depth in rules[k]["shares"]],
            }
            for k in RULES
        },
        "text": {
            "query_option": {
                "aligned": {"text": f"aimed at layer {tg}", "aria": f"query aimed at layer {tg}'s output"},
                "random": {"text": "random", "aria": "random queries"},
            },
            "x_title": "reading layer l (log scale)",
            "size_title": "Size of what layer l reads",
            "size_note": " RMS, log scale",
            "share_title": f"Layer {tg}'s share of it",
            "share_note": " log scale; under 0.1% sits on the axis",
            "key": {
                "plain": "plain residual",
                "aligned": f"attention residuals, query aimed at layer {tg}",
                "random": "attention residuals, random queries",
                "equal": "equal share, 1/l",
            },
            "strip_title": "Each source's weight in what layer l reads",
            "attn_row": {q: f"attention residuals, {name}" for q, name in QUERY.items()},
            "depth": {q: [depth_sentence(q, j, l) for j, l in enumerate(depths)] for q in QUERY},
            "source": {
                q: (
                    "In layer {layer}'s input, {source}: plain residual weight 1/l = {plain_weight}, share "
                    f"{{plain_share}}; attention residuals ({name}) weight {{weight}}, share {{share}}."
                )
                for q, name in QUERY.items()
            },
            "size_chart": {
                q: [
                    chart(q, l, "RMS of what layer l reads", fmt(plain["rms"][j], 2), fmt(rules[q]["rms"][j], 2))
                    for j, l in enumerate(depths)
                ]
                for q in QUERY
            },
            "share_chart": {
                q: [
                    chart(
                        q,
                        l,
                        f"Layer {tg}'s share of what layer l reads",
                        percent(plain["shares"][j][tg]),
                        percent(rules[q]["shares"][j][tg]),
                    )
                    for j, l in enumerate(depths)
                ]
                for q in QUERY
            },
        },
    }


def build(params: dict, facts) -> dict:
    k3_depth = int(facts.parts(K3_DEPTH)["layers"])
    depths = reading_layers(params, k3_depth)
    target, dec = int(params["target"]), int(params["decimals"])
    embedding, w_in, w_out, queries, gamma = stack_inputs(params)
    r = depth_experiment(
        embedding, w_in, w_out, queries, gamma, depths=depths, target=target, probe_norm=float(params["query_norm"])
    )

    def rnd(x):  # the figure shows at most three decimals (or a percentage with one); −0.0 → 0.0
        return np.round(np.asarray(x, dtype=np.float64), dec) + 0.0

    rules = {
        k: {
            "rms": rnd(r[k]["rms"]),
            "weights": [rnd(w) for w in r[k]["weights"]],
            "shares": [rnd(s) for s in r[k]["shares"]],
        }
        for k in RULES
    }
    rms = np.concatenate([r[k]["rms"] for k in RULES])
    lo, hi = np.log10(rms.min() / 1.25), np.log10(rms.max() * 1.25)  # a little room above and below
    ticks = [t for e in range(-3, 4) for t in (10.0**e, 3 * 10.0**e) if lo <= np.log10(t) <= hi]
    share_ticks = [0.001, 0.01, 0.1, 1.0]
    embedding_rms = float(rnd(r["embedding_rms"]))
    k = depths.index(k3_depth)  # the opening view: K3's count of layers, the aimed query
    headline = {  # the figure's takeaway, at the reading layer it opens on
        "depth": k3_depth,
        "target": target,
        "plain_growth": float(r["plain"]["rms"][k] / r["embedding_rms"]),  # the plain stream against the embedding
        "plain_share": float(r["plain"]["shares"][k][target]),
        "aimed_share": float(r["aligned"]["shares"][k][target]),
    }
    return {
        "headline": headline,
        "depths": depths,
        "k3_depth": k3_depth,
        "n_layers": int(params["n_layers"]),
        "n_tokens": int(params["n_tokens"]),
        "d": int(params["d"]),
        "d_ff": int(params["d_ff"]),
        "seed": int(params["seed"]),
        "target": target,
        "query_norm": float(params["query_norm"]),
        "out_gain": float(params["out_gain"]),
        "embedding_rms": embedding_rms,
        "output_rms": float(rnd(r["plain_source_rms"][1:].mean())),  # a layer's output, averaged over layers
        "rules": rules,
        "rms_axis": {"log_range": [float(lo), float(hi)], "ticks": ticks, "tick_text": [tick(t) for t in ticks]},
        "share_axis": {
            "log_range": [-3.0, 0.0],
            "ticks": share_ticks,
            "tick_text": [tick(100 * t) + "%" for t in share_ticks],
        },
        **reader_text(rules, depths, k3_depth, target, embedding_rms),
        # each toy layer writes to the stream once; each of K3's writes twice (attention, then the MLP or MoE)
        "k3_md": (
            "The marked layer is K3's count of layers: {{kimi_k3.layer_layout}}. Each of K3's layers writes to "
            "the stream twice, attention and then the MLP or MoE, so its own plain stream would sum "
            "{{calc.k3_residual_writes}} outputs."
        ),
        "provenance": {
            "kernels": [
                "experiments.depth_experiment",
                "experiments.residual_stack",
                "k3explainer.kernels.attention_residual",
                "experiments.depth_shares",
                "experiments.retrieval_query",
                "experiments.mlp_sublayer",
            ],
            "facts": [K3_DEPTH, "calc.k3_residual_writes"],
            "inputs": (
                f"{params['n_tokens']} token vectors, width {params['d']}, through {params['n_layers']} random "
                f"SiLU MLP layers (hidden width {params['d_ff']}; W_in ~ N(0, 1/d), W_out ~ N(0, "
                f"{params['out_gain']}²/d_ff)); random queries of norm {params['query_norm']}; the aligned query "
                f"(same norm) points along layer {target}'s mean RMS-normalised output; RMSNorm weight ones; "
                f"numbers are means over the tokens at reading layers {depths}"
            ),
            "seed": int(params["seed"]),
            "illustrative": "seeded random layers, embeddings and queries, not a trained model; only K3's count of layers is sourced",
        },
    }
