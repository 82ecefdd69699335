"""FIG 10's data against the `mla` kernels (cache sizes, the three outputs, the reconstruction, the
ranks and singular values of the price readout), and every text it can show (compressed or not,
the maths open or not, for every query token) against the numbers it ships."""

import re

import numpy as np
import pytest

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
from k3explainer.site.readertext import at, fill
from tests.site import article
from tests.site.article import headline

NBSP = "\u00a0"


@pytest.fixture(scope="module")
def data():
    return article.figure_data("fig-10")


@pytest.fixture(scope="module")
def spec():
    return article.spec("fig-10")


def flat(text: str) -> str:
    return text.replace(NBSP, " ")


def line(data, *key) -> str:
    """A line of pieces as the component places them, one after the other."""
    path = ["text", *key]
    return "".join(fill(data, [*path, i, "text"]) for i in range(len(at(data, path))))


def test_cache_sizes_are_the_kernels(data, spec):
    P = spec.params
    H, d_h = P["n_heads"], P["d_head"]
    want = {
        "MHA": mha_cache_per_token(H, d_h),
        "GQA": gqa_cache_per_token(P["n_kv_heads"], d_h),
        "MQA": mqa_cache_per_token(d_h),
        "MLA": mla_cache_per_token(P["d_c"]),
    }
    assert {r["name"]: r["elements"] for r in data["cache"]} == want
    for r in data["cache"]:
        assert r["bytes"] == r["elements"] * data["bytes_per_element"] and r["vs_mha"] == want["MHA"] / r["elements"]
    assert data["ticks"] == [0, 4096, 8192, 12288, 16384]


def test_shipped_outputs_are_the_kernels_and_agree(data):
    """The three orders of the computation, recomputed from the shipped inputs, equal what was
    shipped and each other to rounding; the shipped x is the seeded input."""
    d = data["demo"]
    q, lat, W_uk, W_uv = (np.array(d[k]) for k in ("q", "latents", "W_uk", "W_uv"))
    K, V = mla_reconstruct(lat, W_uk, W_uv)
    recon = np.stack([causal_softmax_attention(q[:, h], K[:, h], V[:, h])[0] for h in range(d["H"])], axis=1)
    out = {
        "recon": recon,
        "naive": mla_attention_naive(q, lat, W_uk, W_uv)[0],
        "absorbed": mla_attention_absorbed(q, lat, W_uk, W_uv)[0],
    }
    for form in ("recon", "naive", "absorbed"):
        np.testing.assert_allclose(np.array(d["out"][form]), out[form], atol=1e-15)
        np.testing.assert_allclose(out[form], recon, atol=1e-12)
        if form != "recon":
            np.testing.assert_allclose(d["max_diff"][form], np.abs(out[form] - recon).max(axis=(1, 2)), atol=1e-15)
    np.testing.assert_allclose(np.array(d["K"]), K, atol=1e-15)
    np.testing.assert_allclose(np.array(d["V"]), V, atol=1e-15)
    np.testing.assert_array_equal(np.array(d["x"]), np.random.default_rng(d["seed"]).standard_normal((d["T"], d["D"])))


def test_shipped_ranks_are_the_kernels_and_show_the_shared_subspace(data):
    """Equal outputs are an identity of computation order; the model class is still constrained:
    MLA's keys and values, every head together, have rank ≤ d_c, independent projections h·d_h
    (W_K and W_V re-drawn from seed + 1 as the builder does)."""
    d = data["demo"]
    x, K, V = np.array(d["x"]), np.array(d["K"]), np.array(d["V"])
    T, H, dh = K.shape
    W_k, W_v = np.random.default_rng(d["seed"] + 1).standard_normal((2, H, x.shape[1], dh)) / np.sqrt(x.shape[1])
    sides = {
        "mla": {"keys": K.reshape(T, -1), "values": V.reshape(T, -1)},
        "independent": {
            "keys": np.einsum("tD,hDd->thd", x, W_k).reshape(T, -1),
            "values": np.einsum("tD,hDd->thd", x, W_v).reshape(T, -1),
        },
    }
    rank = {f: {k: int(np.linalg.matrix_rank(m)) for k, m in kinds.items()} for f, kinds in sides.items()}
    rank_kv = int(np.linalg.matrix_rank(np.concatenate([sides["mla"]["keys"], sides["mla"]["values"]], axis=1)))
    sv = {f: np.linalg.svd(kinds["keys"], compute_uv=False) for f, kinds in sides.items()}
    sub = d["subspace"]
    assert sub["rank"] == rank and sub["rank_kv_mla"] == rank_kv
    for form in ("mla", "independent"):
        np.testing.assert_allclose(np.array(sub["sv_keys"][form]), sv[form], atol=1e-12)
    d_c, hd = d["d_c"], d["H"] * d["d"]
    assert (sub["d_c"], sub["hd"], sub["tokens"]) == (d_c, hd, d["T"])
    assert rank["mla"]["keys"] <= d_c and rank["mla"]["values"] <= d_c and rank_kv <= d_c
    assert rank["independent"] == {"keys": hd, "values": hd} and d_c < hd <= d["T"]
    assert sv["mla"][d_c:].max() < 1e-12 < sv["independent"].min()


def test_every_shown_number_is_the_value_it_stands_for(data):
    """The bars' labels and ticks, the size table, the rank readout and the differences."""
    mha = data["cache"][0]
    for r in data["cache"]:
        t = r["text"]
        assert (t["elements"], t["bytes"]) == (f"{r['elements']:,}", f"{r['bytes']:,}")
        assert t["ratio"] == ("1×" if r is mha else f"1/{mha['elements'] // r['elements']}")
        assert t["bar"] == [f"{mha['bytes']:,} B", f"{r['bytes']:,} B · {t['ratio']}"]
    assert data["text"]["ticks"] == [f"{b:,}" for b in data["ticks"]]
    sub = data["demo"]["subspace"]
    want = {
        "mla-keys": sub["rank"]["mla"]["keys"],
        "d_c": sub["d_c"],
        "independent-keys": sub["rank"]["independent"]["keys"],
        "hd": sub["hd"],
        "mla-values": sub["rank"]["mla"]["values"],
        "independent-values": sub["rank"]["independent"]["values"],
        "mla-kv": sub["rank_kv_mla"],
    }
    numbers = [p for key in ("rank_line", "rank_more") for p in data["text"][key] if "number" in p]
    assert {p["number"]["data-rank"]: int(p["text"]) for p in numbers} == want
    for t, pieces in enumerate(data["text"]["diff_line"]):
        diffs = {p["number"]["data-diff"]: p["text"] for p in pieces if "number" in p}
        for form, text in diffs.items():
            shown = float(text.replace("−", "-"))
            assert shown == pytest.approx(data["demo"]["max_diff"][form][t], rel=0.05) and shown < 1e-12


def test_every_sentence_in_every_state_reads_the_data(data):
    """Compressed and expanded, the maths open and closed, every query token: the lede, the chart's
    and the toy cache's labels, the note over the toy cache, the captions, the rank readout, the
    differences line and every narration give the shipped numbers; no bracketed expression or
    "d = 4,096" can break across lines (their spaces are no-break spaces)."""
    d, text = data["demo"], data["text"]
    mha, mla = data["cache"][0], data["cache"][-1]
    H, T, toy = d["H"], d["T"], d["cache_demo"]
    assert (
        fill(data, ["text", "lede", 1])
        == f"Compressed: MLA keeps {mla['text']['what']}, 1/16 of multi-head attention's cache."
    )
    assert (
        fill(data, ["text", "lede", 0])
        == f"Before compression, every row: multi-head attention's {mha['text']['what']}."
    )
    assert flat(mha["text"]["what"]) == mha["what"] and NBSP in mha["text"]["what"]  # "(k + v)" held together
    names = [r["name"] for r in data["cache"]]
    expanded = ", ".join(f"{n} {mha['bytes']:,}" for n in names)
    assert fill(data, ["text", "chart_label", 0]) == (
        f"Bytes cached per token per layer: {expanded}, all multi-head attention's size before compression."
    )
    compressed = ", ".join(f"{r['name']} {r['bytes']:,}" for r in data["cache"])
    assert fill(data, ["text", "chart_label", 1]) == f"Bytes cached per token per layer: {compressed}."
    assert fill(data, ["text", "cache_note", 0]).endswith(f"for each of {H} heads, {toy['kv']} numbers per token.")
    assert fill(data, ["text", "cache_note", 1]).startswith(
        f"Cached: one latent c_t per token, {toy['latent']} numbers;"
    )
    assert (
        fill(data, ["text", "cache_label", 0])
        == f"Toy cache of {T} tokens, each {H} keys and {H} values, {toy['kv']} numbers"
    )
    assert (
        fill(data, ["text", "cache_label", 1])
        == f"Toy cache of {T} tokens, each a latent row of {toy['latent']} numbers"
    )
    assert flat(fill(data, ["text", "axis_title"])) == f"bytes per token per layer, d = {data['d_model']:,}"
    assert flat(fill(data, ["text", "sizes_caption"])) == (
        f"Cache per token per layer, d = {data['d_model']:,}, {data['bytes_per_element']} bytes per element"
    )
    assert (
        flat(fill(data, ["text", "sv_caption"])) == f"singular values of [k1 k2] over {d['subspace']['tokens']} tokens"
    )
    sub = d["subspace"]
    assert flat(line(data, "rank_line")) == (
        f"Rank of all heads' keys side by side, [k1 k2]: MLA {sub['rank']['mla']['keys']} ≤ d_c = {sub['d_c']}; "
        f"independent per-head projections, as in multi-head attention, {sub['rank']['independent']['keys']} of "
        f"h·d_h = {sub['hd']}. Every head reads the same few latent numbers per token, so the heads cannot vary "
        "independently."
    )
    assert line(data, "rank_more") == (
        f"Values side by side have rank {sub['rank']['mla']['values']} in MLA against "
        f"{sub['rank']['independent']['values']} from independent projections; MLA's keys and values together "
        f"still have rank {sub['rank_kv_mla']}, no more than d_c."
    )
    bytes_said = ", ".join(f"{r['name']} {r['bytes']:,} bytes ({r['text']['ratio']})" for r in data["cache"])
    said = data["text"]["said"]
    assert said["compressed"][0] == f"Compressed: {bytes_said} per token per layer."
    assert said["compressed"][1] == (
        f"{said['compressed'][0]} At d = {data['d_model']:,} MLA caches {mla['elements']:,} elements instead of "
        f"{mha['elements']:,}. In the toy layer, each token keeps {toy['latent']} numbers instead of {toy['kv']}."
    )
    assert (
        said["expanded"]
        == f"Expanded: every row back at multi-head attention's {mha['bytes']:,} bytes per token per layer."
    )
    for t in range(T):
        assert fill(data, ["text", "out_caption", t]) == f"output o_t, query t{t + 1}"
        diffs = [d["max_diff"]["naive"][t], d["max_diff"]["absorbed"][t]]
        sci = [p["text"] for p in text["diff_line"][t] if "number" in p]
        assert line(data, "diff_line", t) == (
            f"Largest difference |Δ| from the rebuilt form: naive {sci[0]}, absorbed {sci[1]}: floating-point rounding."
        )
        head = ", ".join(f"{v:.4f}".replace("-", "−") for v in d["out"]["absorbed"][t][0])
        largest = re.search(r"largest difference (\S+)\.$", said["query"][0][t])[1]
        assert float(largest.replace("−", "-")) == pytest.approx(max(diffs), rel=0.05)
        assert (
            said["query"][0][t]
            == f"Query t{t + 1}: head 1 output {head} in all three forms, largest difference {largest}."
        )
        latent = ", ".join(f"{v:.3f}".replace("-", "−") for v in d["latents"][t])
        assert said["query"][1][t] == said["query"][0][t].replace(": head", f": latent c = {latent}; head", 1)


def test_the_headline_answers_with_the_kernels_cache_and_ranks(spec):
    """The answer, recomputed from the spec's seed and sizes through the kernels: MLA's cache is the
    stated fraction of multi-head attention's; "reads stay exact": the absorbed form gives the rebuilt
    form's output to rounding; "all share": all heads' keys side by side have exactly the
    latent's rank, while independent per-head projections of the same inputs reach h·d_h."""
    title, takeaway = headline("fig-10")
    assert title == "What does MLA constrain to cache so little?"
    P, demo = spec.params, spec.params["demo"]
    fraction = mha_cache_per_token(P["n_heads"], P["d_head"]) / mla_cache_per_token(P["d_c"])
    T, D, d_c, H, dh = (demo[k] for k in ("n_tokens", "d_model", "d_c", "n_heads", "d_head"))
    rng = np.random.default_rng(demo["seed"])  # the builder's draw order
    x = rng.standard_normal((T, D))
    W_dkv = rng.standard_normal((D, d_c)) / np.sqrt(D)
    W_uk, W_uv = rng.standard_normal((2, H, d_c, dh))
    q = rng.standard_normal((T, H, dh))
    latents = mla_compress(x, W_dkv, np.ones(d_c))
    K, V = mla_reconstruct(latents, W_uk, W_uv)
    rebuilt = np.stack([causal_softmax_attention(q[:, h], K[:, h], V[:, h])[0] for h in range(H)], axis=1)
    assert np.abs(mla_attention_absorbed(q, latents, W_uk, W_uv)[0] - rebuilt).max() < 1e-12
    W_k = np.random.default_rng(demo["seed"] + 1).standard_normal((2, H, D, dh))[0] / np.sqrt(D)
    mla_rank = int(np.linalg.matrix_rank(K.reshape(T, H * dh)))
    independent = int(np.linalg.matrix_rank(np.einsum("tD,hDd->thd", x, W_k).reshape(T, H * dh)))
    assert takeaway == (
        f"Its heads' keys: all share the latent's {mla_rank} dimensions, not {independent}; "
        f"reads stay exact, for a 1/{fraction:.0f} cache."
    )
    assert fraction.is_integer() and mla_rank == d_c < independent == H * dh
