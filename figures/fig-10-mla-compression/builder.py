"""FIG 10 · MLA cache compression: per-token K/V stacks vs one latent row, cache sizes per token,
a check that the absorbed form (attention over the latents) gives the same output as attention on
rebuilt keys and values, and what MLA gives up: the rank of all heads' keys together is at most d_c."""

import re

import numpy as np
from pydantic import BaseModel, ConfigDict, Field

from k3explainer.kernels import (
    causal_softmax_attention,
    gqa_cache_per_token,
    mha_cache_per_token,
    mla_attention_absorbed,
    mla_attention_naive,
    mla_cache_per_token,
    mla_compress,
    mla_reconstruct,
    mqa_cache_per_token,
)
from k3explainer.site.readertext import fixed, integer, sci

# The three orders of one computation, as the output table names them.
FORMS = [("recon", "rebuilt K, V"), ("naive", "MLA, naive"), ("absorbed", "absorbed")]


class Demo(BaseModel):
    model_config = ConfigDict(extra="forbid")
    seed: int  # x, W_DKV, W_UK, W_UV, q from default_rng(seed); the rank check's W_K, W_V from seed + 1
    n_tokens: int = Field(ge=1)  # T: the query tokens ← → steps through
    d_model: int = Field(ge=1)  # D: width of x (W_DKV and W_K, W_V are scaled by 1/√D)
    d_c: int = Field(ge=1)  # latent width: all the cache holds per token, and the bound on the keys' rank
    n_heads: int = Field(ge=1)  # H
    d_head: int = Field(ge=1)  # d: each head's key and value width


class Params(BaseModel):
    model_config = ConfigDict(extra="forbid")
    d_model: int = Field(ge=1)  # ILLUSTRATIVE model width for the bars; must equal n_heads · d_head
    d_c: int = Field(ge=1)  # MLA's latent width: the elements it caches per token per layer
    n_heads: int = Field(ge=1)  # query (and MHA's kv) heads
    d_head: int = Field(ge=1)  # key and value width per head
    n_kv_heads: int = Field(ge=1)  # GQA's shared kv heads
    bytes_per_element: int = Field(ge=1)  # 2 for bf16: elements → bytes on the bars
    demo: Demo  # the small seeded MLA layer of the equality and rank checks


def _cache_rows(p: dict) -> list[dict]:
    """Elements and bytes per token per layer for each attention variant at the figure's sizes."""
    H, d_h, d_c, B = int(p["n_heads"]), int(p["d_head"]), int(p["d_c"]), int(p["bytes_per_element"])
    if H * d_h != int(p["d_model"]):
        raise ValueError(f"n_heads·d_head = {H * d_h} must equal d_model = {p['d_model']}")
    H_kv = int(p["n_kv_heads"])
    rows = [
        ("MHA", f"{H} heads × (k + v) of {d_h}", mha_cache_per_token(H, d_h)),
        ("GQA", f"{H_kv} shared kv heads × (k + v) of {d_h}", gqa_cache_per_token(H_kv, d_h)),
        ("MQA", f"one kv head, k + v of {d_h}", mqa_cache_per_token(d_h)),
        ("MLA", f"one latent c_t of {d_c}", mla_cache_per_token(d_c)),
    ]
    mha = rows[0][2]
    return [{"name": n, "what": w, "elements": int(e), "bytes": int(e) * B, "vs_mha": mha / e} for n, w, e in rows]


def _rank_check(x: np.ndarray, K: np.ndarray, V: np.ndarray, d_c: int, seed: int) -> dict:
    """MLA's price: every head's keys (and values) are linear images of the same d_c latent numbers
    per token, so all heads side by side, [k_1 … k_h] over the tokens, have rank ≤ d_c. Independent
    per-head projections of the same inputs (multi-head attention, W_K and W_V seeded from seed + 1)
    reach min(tokens, h·d_h)."""
    T, H, d = K.shape
    D = x.shape[1]
    W_k, W_v = np.random.default_rng(seed + 1).standard_normal((2, H, D, d)) / np.sqrt(D)  # [H, D, d] each
    K_ind, V_ind = np.einsum("tD,hDd->thd", x, W_k), np.einsum("tD,hDd->thd", x, W_v)
    side = {
        "mla": {"keys": K.reshape(T, H * d), "values": V.reshape(T, H * d)},
        "independent": {"keys": K_ind.reshape(T, H * d), "values": V_ind.reshape(T, H * d)},
    }
    return {
        "tokens": T,
        "d_c": d_c,
        "hd": H * d,
        "rank": {
            form: {kind: int(np.linalg.matrix_rank(m)) for kind, m in mats.items()} for form, mats in side.items()
        },
        # keys and values together, [k_1 … k_h v_1 … v_h]: still every number a function of the same latent
        "rank_kv_mla": int(np.linalg.matrix_rank(np.concatenate([side["mla"]["keys"], side["mla"]["values"]], axis=1))),
        # singular values of [k_1 … k_h], largest first: MLA's beyond the d_c-th are rounding (~1e-16)
        "sv_keys": {form: np.linalg.svd(mats["keys"], compute_uv=False) for form, mats in side.items()},
    }


def _demo(p: dict) -> dict:
    """Seeded toy MLA layer: latents, their reconstruction, and the output three ways."""
    T, D, d_c, H, d = (int(p[k]) for k in ("n_tokens", "d_model", "d_c", "n_heads", "d_head"))
    rng = np.random.default_rng(p["seed"])
    x = rng.standard_normal((T, D))
    W_dkv = rng.standard_normal((D, d_c)) / np.sqrt(D)
    W_uk, W_uv = rng.standard_normal((2, H, d_c, d))  # [H, d_c, d] each
    q = rng.standard_normal((T, H, d))  # q_nope per head
    latents = mla_compress(x, W_dkv, np.ones(d_c))  # [T, d_c]: all the cache holds
    K, V = mla_reconstruct(latents, W_uk, W_uv)  # [T, H, d] each
    recon = np.stack([causal_softmax_attention(q[:, h], K[:, h], V[:, h])[0] for h in range(H)], axis=1)
    naive, _ = mla_attention_naive(q, latents, W_uk, W_uv)
    absorbed, _ = mla_attention_absorbed(q, latents, W_uk, W_uv)
    return {
        "T": T,
        "D": D,
        "d_c": d_c,
        "H": H,
        "d": d,
        "seed": int(p["seed"]),
        "x": x,
        "q": q,
        "latents": latents,
        "W_uk": W_uk,
        "W_uv": W_uv,
        "K": K,
        "V": V,
        "out": {"recon": recon, "naive": naive, "absorbed": absorbed},  # [T, H, d] each
        # the largest disagreement between forms, per query token
        "max_diff": {
            "naive": np.abs(naive - recon).max(axis=(1, 2)),
            "absorbed": np.abs(absorbed - recon).max(axis=(1, 2)),
        },
        "cache_demo": {"kv": int(mha_cache_per_token(H, d)), "latent": int(mla_cache_per_token(d_c))},
        "subspace": _rank_check(x, K, V, d_c, int(p["seed"])),
    }


def nb(s: str) -> str:
    """No line break inside "(k + v)", "[k1 k2]" or "d = 4,096": their spaces become no-break spaces."""
    return re.sub(r"[(\[][^()\[\]]{1,20}[)\]]|\S+ [=≤] \S+", lambda m: m[0].replace(" ", "\u00a0"), s)


def ratio(row: dict) -> str:
    """A cache against multi-head attention's: "1×", "1/16"."""
    return "1×" if row["vs_mha"] == 1 else f"1/{fixed(row['vs_mha'], 0)}"


def number(text: str, **attrs: str) -> dict:
    """A number in a line of pieces (see _texts), with the data attributes tests find it by."""
    return {"text": text, "number": attrs}


def _texts(cache: list[dict], ticks: list[int], d_model: int, B: int, demo: dict) -> dict:
    """Every text the figure shows. Per state where it depends on one: lists indexed by whether the
    bars are compressed (0: expanded, 1: compressed), by the maths panel being open (0, 1) or by
    the query token. A line whose numbers tests find by attribute is a list of pieces, each a text,
    a number's also its data attributes; the component places them in order."""
    mha, mla = cache[0], cache[-1]
    T, H, d, d_c = demo["T"], demo["H"], demo["d"], demo["d_c"]
    sub, toy = demo["subspace"], demo["cache_demo"]
    k_names = [f"k{h + 1}" for h in range(H)]
    d_text = integer(d_model)
    per_layer = " per token per layer."
    compressed = ", ".join(f"{r['name']} {integer(r['bytes'])} bytes ({ratio(r)})" for r in cache)
    maths_said = (
        f" At d = {d_text} MLA caches {integer(mla['elements'])} elements instead of {integer(mha['elements'])}. "
        f"In the toy layer, each token keeps {toy['latent']} numbers instead of {toy['kv']}."
    )
    return {
        "ticks": [integer(b) for b in ticks],
        "axis_title": nb(f"bytes per token per layer, d = {d_text}"),
        "tokens": [f"t{t + 1}" for t in range(T)],
        "token_aria": [f"Token {t + 1}" for t in range(T)],
        "forms": [label for _, label in FORMS],
        "out_caption": [f"output o_t, query t{t + 1}" for t in range(T)],
        "out_cols": [f"h{h + 1} d{i + 1}" for h in range(H) for i in range(d)],
        "heads": {
            "same": "Same output, three orders",
            "price": "What the shared latent costs",
            "toy": "A toy layer, token by token",
            "up": "At attention time, for the query token",
        },
        "sv_caption": nb(f"singular values of [{' '.join(k_names)}] over {sub['tokens']} tokens"),
        "sv_cols": ["σ" + "".join("₀₁₂₃₄₅₆₇₈₉"[int(c)] for c in str(i + 1)) for i in range(len(sub["sv_keys"]["mla"]))],
        "exact": "Equal outputs show that re-ordering the computation is exact. They do not show that MLA is "
        "multi-head attention with a smaller cache.",
        "rank_line": [
            {"text": nb(f"Rank of all heads' keys side by side, [{' '.join(k_names)}]: MLA ")},
            number(str(sub["rank"]["mla"]["keys"]), **{"data-rank": "mla-keys"}),
            {"text": " ≤ d_c\u00a0=\u00a0"},
            number(str(sub["d_c"]), **{"data-rank": "d_c"}),
            {"text": "; independent per-head projections, as in multi-head attention, "},
            number(str(sub["rank"]["independent"]["keys"]), **{"data-rank": "independent-keys"}),
            {"text": " of h·d_h\u00a0=\u00a0"},
            number(str(sub["hd"]), **{"data-rank": "hd"}),
            {
                "text": ". Every head reads the same few latent numbers per token, so the heads cannot vary independently."
            },
        ],
        "rank_more": [
            {"text": "Values side by side have rank "},
            number(str(sub["rank"]["mla"]["values"]), **{"data-rank": "mla-values"}),
            {"text": " in MLA against "},
            number(str(sub["rank"]["independent"]["values"]), **{"data-rank": "independent-values"}),
            {"text": " from independent projections; MLA's keys and values together still have rank "},
            number(str(sub["rank_kv_mla"]), **{"data-rank": "mla-kv"}),
            {"text": ", no more than d_c."},
        ],
        "sizes_caption": nb(f"Cache per token per layer, d = {d_text}, {B} bytes per element"),
        "k_heads": k_names,
        "v_heads": [f"v{h + 1}" for h in range(H)],
        "w_rows": [f"h{h + 1} · c{c + 1}" for h in range(H) for c in range(d_c)],
        "d_cols": [f"d{i + 1}" for i in range(d)],
        "c_cols": [f"c{c + 1}" for c in range(d_c)],
        "kv_rows": [f"k head {h + 1}" for h in range(H)] + [f"v head {h + 1}" for h in range(H)],
        "forms_note": "rebuilt K, V: up-project every cached latent to keys and values, then ordinary attention per "
        "head; MLA, naive: the MLA kernel doing the same inside; absorbed: W_UK folded into the query, scores and the "
        "weighted sum taken over the latents, W_UV applied once after, so keys and values are never formed.",
        "lede": [
            f"Before compression, every row: multi-head attention's {nb(mha['what'])}.",
            f"Compressed: MLA keeps {nb(mla['what'])}, {ratio(mla)} of multi-head attention's cache.",
        ],
        "chart_label": [
            "Bytes cached per token per layer: "
            + ", ".join(f"{r['name']} {integer(mha['bytes'])}" for r in cache)
            + ", all multi-head attention's size before compression.",
            "Bytes cached per token per layer: " + ", ".join(f"{r['name']} {integer(r['bytes'])}" for r in cache) + ".",
        ],
        "cache_note": [
            f"Cached: a key and a value for each of {H} heads, {toy['kv']} numbers per token.",
            f"Cached: one latent c_t per token, {toy['latent']} numbers; W_UK and W_UV below rebuild keys and values.",
        ],
        "cache_label": [
            f"Toy cache of {T} tokens, each {H} keys and {H} values, {toy['kv']} numbers",
            f"Toy cache of {T} tokens, each a latent row of {toy['latent']} numbers",
        ],
        "diff_line": [
            [
                {"text": "Largest difference |Δ| from the rebuilt form: naive "},
                number(sci(demo["max_diff"]["naive"][t]), **{"data-diff": "naive"}),
                {"text": ", absorbed "},
                number(sci(demo["max_diff"]["absorbed"][t]), **{"data-diff": "absorbed"}),
                {"text": ": floating-point rounding."},
            ]
            for t in range(T)
        ],
        "said": {
            "compressed": [f"Compressed: {compressed}{per_layer}", f"Compressed: {compressed}{per_layer}{maths_said}"],
            "expanded": f"Expanded: every row back at multi-head attention's {integer(mha['bytes'])} bytes{per_layer}",
            "maths": [
                "The maths hidden.",
                "The maths shown: cache sizes, the toy cache and the up-projections W_UK, W_UV.",
            ],
            "query": [
                [
                    f"Query t{t + 1}: "
                    + (f"latent c = {', '.join(fixed(v, 3) for v in demo['latents'][t])}; " if maths else "")
                    + f"head 1 output {', '.join(fixed(v, 4) for v in demo['out']['absorbed'][t][0])} in all three "
                    f"forms, largest difference {sci(max(demo['max_diff']['naive'][t], demo['max_diff']['absorbed'][t]))}."
                    for t in range(T)
                ]
                for maths in (False, True)
            ],
        },
    }


def build(params: dict, facts) -> dict:
    dsv2 = facts.parts("mla_dsv2.kv_cache_per_token")
    # DeepSeek-V2's published sizes, recomputed by the kernels from its dims (n_h = d_h = 128, d_c = 512, d_R = 64)
    if (mha_cache_per_token(128, 128), mla_cache_per_token(512, 64)) != (dsv2["mha"], dsv2["mla"]):
        raise ValueError(f"kernels disagree with facts mla_dsv2.kv_cache_per_token {dsv2}")
    demo = params["demo"]
    cache = _cache_rows(params)
    mha = cache[0]
    for row in cache:  # the bars and the size table
        row["text"] = {
            "what": nb(row["what"]),
            "elements": integer(row["elements"]),
            "bytes": integer(row["bytes"]),
            "ratio": ratio(row),
            # the bar's label, drawn expanded (every bar at multi-head attention's size) or compressed
            "bar": [f"{integer(mha['bytes'])} B", f"{integer(row['bytes'])} B · {ratio(row)}"],
        }
    # the bar chart's scale: quarters of multi-head attention's bytes, where every bar starts
    ticks = [int(b) for b in np.linspace(0, mha["bytes"], 5)]
    toy = _demo(demo)
    B = int(params["bytes_per_element"])
    sub = toy["subspace"]
    return {
        "cache": cache,
        # the figure's answer (its takeaway): MLA's cache against multi-head attention's, and its
        # price, the rank of all heads' keys side by side against independent projections'
        "headline": {
            "mla_vs_mha": ratio(cache[-1]),  # "1/16"
            "keys_rank": sub["rank"]["mla"]["keys"],  # ≤ d_c
            "keys_rank_independent": sub["rank"]["independent"]["keys"],  # = h·d_h
        },
        "ticks": ticks,
        "bytes_per_element": B,
        "d_model": int(params["d_model"]),
        "demo": toy,
        # what the figure shows, written here (readertext) so tests read every sentence in every state
        "text": _texts(cache, ticks, int(params["d_model"]), B, toy),
        "source_md": (
            "In DeepSeek-V2 itself, with its own sizes rather than those of the bars: "
            "{{mla_dsv2.kv_cache_per_token}}, {{calc.mla_dsv2_cache_ratio}} smaller."
        ),
        "k3_md": "In K3: {{kimi_k3.gated_mla}}; {{kimi_k3.query_lora}}; {{kimi_k3.output_gating}}.",
        "provenance": {
            "kernels": [
                "k3explainer.kernels.mha_cache_per_token",
                "k3explainer.kernels.gqa_cache_per_token",
                "k3explainer.kernels.mqa_cache_per_token",
                "k3explainer.kernels.mla_cache_per_token",
                "k3explainer.kernels.mla_compress",
                "k3explainer.kernels.mla_reconstruct",
                "k3explainer.kernels.causal_softmax_attention",
                "k3explainer.kernels.mla_attention_naive",
                "k3explainer.kernels.mla_attention_absorbed",
            ],
            "inputs": f"x [{demo['n_tokens']}, {demo['d_model']}], q [{demo['n_tokens']}, {demo['n_heads']}, {demo['d_head']}], "
            "W_UK, W_UV standard normal, W_DKV standard normal / √d_model, RMSNorm weight 1 (default_rng(seed)); "
            "for the rank comparison, independent per-head W_K, W_V standard normal / √d_model from "
            "default_rng(seed\u00a0+\u00a01); ranks by numpy.linalg.matrix_rank, singular values by numpy.linalg.svd",  # no break in "(seed + 1)"
            "seed": demo["seed"],
            "illustrative": "d = 4096, d_c = 512, 32 heads of 128 and the demo layer are round numbers, not a trained model",
        },
    }
