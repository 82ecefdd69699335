"""FIG 16 and §16: every count the figure shows adds up exactly the terms its description names, and
every sentence of the prose, caption, alt and trade note that says what FIG 16 shows is checked
against the figure's own data (built by its builder from its spec, as the page gets it)."""

from __future__ import annotations

import re

import numpy as np
import pytest

from k3project.experiments import mechanism_costs
from tests.site import article
from tests.site.project import ROOT

SECTION = ROOT / "content" / "16-prefill-decode.md"


@pytest.fixture(scope="module")
def spec():
    return article.spec("fig-16")


@pytest.fixture(scope="module")
def data():
    return article.figure_data("fig-16")


@pytest.fixture(scope="module")
def prose() -> str:
    return article.prose(SECTION.name)


def arr(x) -> np.ndarray:
    return np.asarray(x, dtype=np.float64)


def parts(data, m, p, q) -> dict:
    return {x["key"]: arr(x["values"]) for x in data["parts"][m][p][q]}


# ---- the counts match what the panels say they count --------------------------------------------


def test_mla_prefill_reads_include_the_rebuilt_keys_and_values(data):
    """The read panel says: the prompt's queries and latents, and the keys and values rebuilt from
    those latents. The shipped count is exactly those three terms, and the rebuilt keys and values
    are every head's, 2·N·heads·d_h."""
    c, N = data["constants"], arr(data["n"])
    story = data["story"]["mla"]["prefill"]["read"]
    assert "queries" in story and "latents" in story and "keys and values rebuilt" in story
    terms = parts(data, "mla", "prefill", "reads")
    assert list(terms) == ["queries", "latents", "rebuilt"]
    np.testing.assert_array_equal(terms["queries"], N * c["heads"] * c["d_h"])
    np.testing.assert_array_equal(terms["latents"], N * c["d_c"])
    np.testing.assert_array_equal(terms["rebuilt"], 2 * N * c["heads"] * c["d_h"])
    np.testing.assert_array_equal(arr(data["values"]["mla"]["prefill"]["reads"]), sum(terms.values()))
    kernel = mechanism_costs("mla", "prefill", N, **c)["reads"]
    np.testing.assert_array_equal(arr(data["values"]["mla"]["prefill"]["reads"]), kernel)


def test_mla_prefill_computes_the_rebuild_as_well_as_the_attention(data):
    c, N = data["constants"], arr(data["n"])
    assert "rebuilt" in data["story"]["mla"]["prefill"]["computed"]
    terms = parts(data, "mla", "prefill", "flops")
    np.testing.assert_array_equal(terms["rebuild"], 2 * 2 * N * c["d_c"] * c["heads"] * c["d_h"])
    np.testing.assert_array_equal(terms["scores"] + terms["mix"], 2 * N**2 * c["heads"] * c["d_h"])
    np.testing.assert_array_equal(arr(data["values"]["mla"]["prefill"]["flops"]), sum(terms.values()))


def test_every_count_is_the_sum_of_its_listed_terms_and_every_listed_term_is_described(data):
    words = {  # a word of each term's label that its panel sentence uses too
        "queries": "queries",
        "keys": "keys",
        "values": "values",
        "scores": "scores",
        "gates": "gates",
        "beta": "β",
        "latents": "latent",
        "rebuilt": "rebuilt",
        "cache": "cache",
        "state": "state",
    }
    for m in data["values"]:
        for p in data["values"][m]:
            for q in ("reads", "flops"):
                terms = parts(data, m, p, q)
                np.testing.assert_allclose(sum(terms.values()), arr(data["values"][m][p][q]), rtol=1e-15)
                if q == "reads" and m != "hybrid":
                    for key in terms:
                        assert words[key] in data["story"][m][p]["read"], (m, p, key)


def test_decode_counts_follow_the_sourced_accounting(data):
    """decode.softmax_attention_step: read 2·N·D, about 4·N·D FLOPs; MLA reads d_c·N;
    decode.linear_attention_step: a fixed d×d state per head, ~6-7 d² FLOPs per head for KDA."""
    c, N = data["constants"], arr(data["n"])
    D = c["heads"] * c["d_h"]
    v = {m: {q: arr(x) for q, x in data["values"][m]["decode"].items()} for m in data["values"]}
    np.testing.assert_array_equal(v["softmax"]["reads"], 2 * N * D)
    np.testing.assert_array_equal(v["softmax"]["flops"], 4 * N * D)
    np.testing.assert_array_equal(v["mla"]["reads"], N * c["d_c"])
    np.testing.assert_array_equal(v["kda"]["reads"], c["heads"] * c["d_h"] ** 2)
    per_head = v["kda"]["flops"] / (c["heads"] * c["d_h"] ** 2)
    assert np.all((6 <= per_head) & (per_head <= 7))


# ---- the trade note, and the sentences that say what FIG 16 shows --------------------------------


def test_trade_note_ratios_are_the_shown_counts(data):
    v = {
        m: {p: {q: arr(x) for q, x in data["values"][m][p].items()} for p in data["values"][m]} for m in data["values"]
    }
    for p, t in data["trade"].items():
        np.testing.assert_allclose(arr(t["flops_ratio"]), v["mla"][p]["flops"] / v["softmax"][p]["flops"], rtol=1e-15)
        np.testing.assert_allclose(arr(t["reads_ratio"]), v["softmax"][p]["reads"] / v["mla"][p]["reads"], rtol=1e-15)
        for m in ("mla", "softmax"):
            np.testing.assert_allclose(arr(t["intensity"][m]), v[m][p]["flops"] / v[m][p]["reads"], rtol=1e-15)
    rebuild = parts(data, "mla", "prefill", "flops")["rebuild"]
    np.testing.assert_allclose(arr(data["trade"]["prefill"]["rebuild_share"]), rebuild / v["mla"]["prefill"]["flops"])


def test_mla_decode_trades_flops_for_reads(data, prose, spec):
    """§16, alt and note: an MLA decode step does several times the FLOPs of a softmax step while
    reading several times less; softmax decode does one multiply-add per element read."""
    t = data["trade"]["decode"]
    assert np.all(arr(t["flops_ratio"]) >= 3) and np.all(arr(t["reads_ratio"]) >= 3)  # "several times"
    np.testing.assert_array_equal(arr(t["intensity"]["softmax"]), 2.0)  # 2 FLOPs = 1 multiply-add per element
    assert np.all(arr(t["intensity"]["mla"]) > arr(t["intensity"]["softmax"]))
    assert "several times the FLOPs of a softmax decode step while reading several times less" in prose
    assert "one multiply-add for each element it reads" in prose
    assert "reading less than softmax attention but doing more FLOPs" in " ".join(spec.alt.split())
    assert "MLA trades FLOPs for bandwidth" in prose


def test_mla_reads_per_token_do_not_grow_with_heads_but_its_arithmetic_does(data, prose):
    """§16: the multiply-adds per cached token grow with the number of heads while the elements read
    per cached token do not; the latent is wider than a head's key."""
    c, N = dict(data["constants"]), arr(data["n"])
    assert c["d_c"] > c["d_h"]
    more = {**c, "heads": 2 * c["heads"]}
    a, b = mechanism_costs("mla", "decode", N, **c), mechanism_costs("mla", "decode", N, **more)
    np.testing.assert_array_equal(a["reads"], b["reads"])
    assert np.all(b["flops"] > 1.99 * a["flops"])
    assert "grow with the number of heads while the elements read per cached token do not" in prose
    mha = {h: mechanism_costs("softmax", "decode", N, **{**c, "heads": h}) for h in (c["heads"], 2 * c["heads"])}
    saving = {h: mha[h]["reads"] / mechanism_costs("mla", "decode", N, **{**c, "heads": h})["reads"] for h in mha}
    np.testing.assert_allclose(saving[2 * c["heads"]], 2 * saving[c["heads"]])  # "the saving in reads does"
    assert "Both sides grow with the head count. The saving in reads does" in prose


def test_rebuild_share_shrinks_with_n(data, prose):
    """§16 and the prefill note: the rebuild grows in proportion to N, attention with N², so on long
    prompts attention dwarfs it."""
    share = arr(data["trade"]["prefill"]["rebuild_share"])
    assert np.all(np.diff(share) < 0) and share[-1] < 0.01
    assert "on long prompts the quadratic attention dwarfs it" in prose
    assert "its share shrinks on long prompts" in data["trade"]["prefill"]["why_md"]


def test_the_kda_state_reads_least_at_decode(data, prose, spec):
    """§16 and alt: no mechanism reads less per decode step than the KDA state (the alt: it never reads
    more than another); the others grow with N while it stays put."""
    reads = {m: arr(data["values"][m]["decode"]["reads"]) for m in data["values"]}
    for m, r in reads.items():
        assert np.all(reads["kda"] <= r), m
        if m != "kda":
            assert np.all(np.diff(r) > 0), m
    assert np.all(reads["kda"] == reads["kda"][0])
    assert "no mechanism reads less per decode step than the KDA state" in prose
    assert "(at the slider's shortest context the MLA cache, and so the hybrid, reads exactly as much)" in prose
    assert reads["mla"][0] == reads["kda"][0] == reads["hybrid"][0] and data["n"][0] == min(data["n"])
    assert "never reads more than another mechanism" in " ".join(spec.alt.split())


def test_hybrid_growing_cost_is_nearly_all_mla_at_long_contexts(data, prose):
    for p, q in (("prefill", "flops"), ("decode", "reads"), ("decode", "flops")):
        terms = parts(data, "hybrid", p, q)
        assert terms["mla"][-1] / (terms["mla"][-1] + terms["kda"][-1]) > 0.99, (p, q)
    assert (
        "the few MLA layers account for nearly all of the hybrid's prefill FLOPs and nearly all of its "
        "decode reads and FLOPs"
    ) in prose


def test_softmax_prefill_stores_and_rereads_the_scores(data, prose):
    c, N = data["constants"], arr(data["n"])
    np.testing.assert_array_equal(parts(data, "softmax", "prefill", "reads")["scores"], c["heads"] * N**2)
    assert "stores the scores and reads them back" in prose


def test_demo_constants_named_in_the_spec_are_the_params(spec, data):
    """The provenance panel's first line names the demo constants: they must be the builder's."""
    name = spec.constants[0].name
    P = spec.params
    assert f"N = {P['n_tokens']} " in name and f"slider {P['n_tokens_min']} to {P['n_tokens_max']:,}" in name
    for want in (f"d_h = {P['d_h']}", f"{P['n_heads']} heads", f"d_c = {P['d_c']}", f"C = {P['chunk_size']}"):
        assert want in name
    assert f"{P['hybrid_kda_per_mla']}:1" in spec.constants[-1].name
    # the caption's "exactly 3 KDA to 1 MLA": the kernel's hybrid is that average, not Kimi Linear's 20:7 count
    assert f"at exactly {P['hybrid_kda_per_mla']} KDA to 1 MLA" in " ".join(spec.caption.split())
    for p, q in (("prefill", "flops"), ("decode", "reads")):
        terms, whole = parts(data, "hybrid", p, q), {m: arr(data["values"][m][p][q]) for m in ("kda", "mla")}
        assert np.allclose(terms["kda"], 0.75 * whole["kda"]) and np.allclose(terms["mla"], 0.25 * whole["mla"])
    assert re.search(r"\b3:1\b", data["mechanisms"][-1]["label"]) and P["hybrid_kda_per_mla"] == 3


def test_section_and_spec_use_no_stale_counting_words():
    """The old wording claimed only elements; FLOPs are counted too, and the linear label was KDA's counts."""
    text = SECTION.read_text(encoding="utf-8") + (ROOT / "figures" / "fig-16-prefill-decode" / "figure.yaml").read_text(
        encoding="utf-8"
    )
    assert "count elements, not bytes or seconds" not in text
    assert "a linear or KDA state" not in text
    assert "These decode savings are what Kimi Linear measured" not in text


def test_each_bar_is_its_value_on_the_log_scale_its_ends_label(data):
    """A bar's length is log10(value) between the two decade ends printed under it, one scale per
    quantity shared by every mechanism and phase; every bar lies inside its scale."""
    for q, (lo, hi) in data["bar_ends"].items():
        assert np.log10(lo) == int(np.log10(lo)) and np.log10(hi) == int(np.log10(hi))  # whole decades
        for m in data["values"]:
            for p in data["values"][m]:
                value = np.asarray(data["values"][m][p][q], dtype=float)
                want = (np.log10(value) - np.log10(lo)) / (np.log10(hi) - np.log10(lo))
                bar = np.asarray(data["bars"][m][p][q], dtype=float)
                np.testing.assert_allclose(bar, want, atol=5e-5, err_msg=f"{m} {p} {q}")
                assert bar.min() > 0 and bar.max() <= 1


# §18's recap table: each row's mechanism in the cost model, and what each column measures
RECAP_ROWS = {
    "softmax attention with a KV cache": "softmax",
    "FlashAttention": "flash",
    "linear attention": "linear",
    "chunked delta rule: DeltaNet, Gated DeltaNet, KDA": "kda",
    "MLA": "mla",
    "K3's hybrid of KDA and MLA layers": "hybrid",
}
RECAP_COLUMNS = (("prefill", "flops"), ("decode", "kept"), ("decode", "reads"))
GROWTH = {2: "$N^2$", 1: "$N$", 0: "constant"}


def _recap_rows() -> dict[str, list[str]]:
    text = (ROOT / "content" / "18-verdicts.md").read_text(encoding="utf-8")
    table = text[text.index("| mechanism |") :].split("\n\n")[0].splitlines()[2:]
    cells = [[c.strip() for c in row.strip("|").split("|")] for row in table]
    return {re.sub(r"\s*\(\[\]\(#[\w-]+\)\)", "", c[0]): c[1:] for c in cells}


def test_the_recap_table_grows_as_the_cost_model_does():
    """§18's table of growth rates is the cost model's: each cell's power of N is the slope of that
    cost between N = 2^20 and 2^21 (rounded), and each "a quarter of" is the hybrid's ratio there."""
    rows = _recap_rows()
    assert set(rows) == set(RECAP_ROWS)
    N = np.array([2.0**20, 2.0**21])
    for name, cells in rows.items():
        for cell, (phase, key) in zip(cells, RECAP_COLUMNS, strict=True):
            cost = mechanism_costs(RECAP_ROWS[name], phase, N)[key]
            slope = np.log2(cost[1] / cost[0])
            assert abs(slope - round(slope)) < 0.01 and cell.startswith(GROWTH[round(slope)]), (name, key, cell)
            if "a quarter of" in cell:
                other = {"softmax's": "softmax", "MLA's": "mla"}[cell.split("a quarter of ")[1]]
                ratio = cost[1] / mechanism_costs(other, phase, N)[key][1]
                assert ratio == pytest.approx(0.25, rel=0.01), (name, key, ratio)
