"""FIG 09's data against the kernels and the facts, every sentence that says what FIG 09 shows
(in §09, in the figure's caption and in its text alternative) against that data, and every text
the figure itself shows, for both size sets, every context and stacks of several make-ups.

The sentences are quoted verbatim: rewording one fails its test, so whoever rewords it re-checks it.
"""

from __future__ import annotations

import re

import numpy as np
import pytest

from k3explainer.kernels import kda_decode_memory, mla_decode_memory
from k3explainer.site.readertext import fill, integer
from k3project.experiments import hybrid_layout, stack_decode_memory
from tests.site import article
from tests.site.article import flat, headline

# "nearly equal" in the prose: the two totals differ by at most this fraction of the larger
NEARLY_EQUAL = 0.05
# "far taller": at least this many times as tall
FAR = 10
# "a little beyond" a context: above it by at most this fraction
A_LITTLE = 0.10


@pytest.fixture(scope="module")
def facts():
    return article.facts()


@pytest.fixture(scope="module")
def spec():
    return article.spec("fig-09")


@pytest.fixture(scope="module")
def data():
    """What the build ships (numpy arrays as plain lists), from the spec's params and the facts."""
    return article.figure_data("fig-09")


@pytest.fixture(scope="module")
def prose():
    return article.prose("09-hybrid.md")


# ---- helpers over the shipped data --------------------------------------------------------------


def parts(data, sizes: str, layout: list[str], N: int) -> tuple[int, int]:
    """(MLA part, KDA part) of the total for `layout` at context N, from the shipped per-layer values."""
    c, i = data["constants"][sizes], data["contexts"].index(N)
    return layout.count("mla") * c["mla_per_layer"][i], layout.count("kda") * c["kda_per_layer"]


def kernel_parts(c: dict, layout: list[str], N: int) -> tuple[int, int]:
    per_layer = stack_decode_memory(layout, N, kda_heads=c["heads"], d_h=c["d_h"], d_c=c["d_c"], d_r=c["d_r"])
    kinds = np.array(layout)
    return int(per_layer[kinds == "mla"].sum()), int(per_layer[kinds == "kda"].sum())


def nearly_equal(a: float, b: float) -> bool:
    return abs(a - b) <= NEARLY_EQUAL * max(a, b)


def toy_3to1(data) -> list[str]:
    return hybrid_layout(data["n_layers"], final_full=False)


# ---- the data against the kernels and the facts -------------------------------------------------


def test_k3_sizes_come_from_the_facts_through_the_kernels(data, facts):
    kda, mla = facts.parts("kimi_k3.kda_gate"), facts.parts("kimi_k3.gated_mla")
    k3 = data["constants"]["k3"]
    assert k3["provenance"] == "source"
    assert (k3["heads"], k3["d_h"], k3["d_c"], k3["d_r"]) == (
        kda["heads"],
        kda["head_dim"],
        mla["kv_lora_rank"],
        mla["shared_key"],
    )
    assert (
        k3["kda_per_layer"]
        == kda_decode_memory(kda["heads"], kda["head_dim"])
        == facts.number("calc.k3_kda_state_per_layer")
    )
    assert (
        k3["mla_per_token"]
        == mla_decode_memory(1, mla["kv_lora_rank"], mla["shared_key"])
        == facts.number("calc.k3_mla_cache_per_token_layer")
    )
    assert k3["mla_per_layer"] == mla_decode_memory(np.array(data["contexts"]), k3["d_c"], k3["d_r"]).tolist()
    assert data["contexts"][-1] == facts.number("kimi_k3.context")


def test_toy_sizes_are_the_specs_and_marked_illustrative(data, spec):
    toy, p = data["constants"]["toy"], spec.params["toy"]
    assert toy["provenance"] == "illustrative"
    assert (toy["heads"], toy["d_h"], toy["d_c"], toy["d_r"]) == (
        p["heads_per_layer"],
        p["d_h"],
        p["mla_elements_per_token"],
        0,
    )
    assert toy["kda_per_layer"] == kda_decode_memory(toy["heads"], toy["d_h"])
    assert toy["mla_per_layer"] == mla_decode_memory(np.array(data["contexts"]), toy["d_c"]).tolist()
    # the spec's constants list says which sizes are which
    named = {c.fact: c.provenance for c in spec.constants if c.fact}
    assert named["kimi_k3.kda_gate"] == named["kimi_k3.gated_mla"] == named["kimi_k3.layer_layout"] == "source"
    assert any(c.provenance == "illustrative" and "Toy sizes" in c.name for c in spec.constants)


def test_k3_per_layer_crossover_is_near_2730_tokens(data, facts):
    k3 = data["constants"]["k3"]
    exact = k3["kda_per_layer"] / k3["mla_per_token"]
    assert (
        k3["crossover"]
        == pytest.approx(exact, rel=1e-15)
        == pytest.approx(facts.number("calc.k3_layer_crossover"), rel=1e-15)
    )
    assert round(exact, -1) == 2730  # the number, as the facts give it
    i = data["contexts"].index(2048)  # the slider's stops either side of it
    assert k3["mla_per_layer"][i] < k3["kda_per_layer"] < k3["mla_per_layer"][i + 1]


def test_k3_whole_model_totals_at_8192_tokens(data, facts):
    layout, N = data["k3_layout"], data["n_default"]
    assert N == 8192 and (layout.count("kda"), layout.count("mla")) == (69, 24)
    mla, kda = parts(data, "k3", layout, N)
    assert (mla, kda) == kernel_parts(data["constants"]["k3"], layout, N)
    assert kda == facts.number("calc.k3_kda_state")  # ≈ 108.5 million, whatever the context
    assert mla == facts.number("calc.k3_mla_cache_per_token") * N
    assert (mla, kda) == (113_246_208, 108_527_616)
    assert nearly_equal(mla, kda) and mla > kda


# ---- each sentence that says what FIG 09 shows, against the data --------------------------------


def test_no_claim_that_mla_dwarfs_kda(prose, spec):
    for text in (prose, spec.caption, spec.alt, spec.how_to):
        assert "dwarf" not in text.lower()


def test_alt_sentences(data, spec):
    alt, toy, k3 = flat(spec.alt), data["constants"]["toy"], data["constants"]["k3"]
    N0 = data["n_default"]

    assert "each KDA bar is a constant, the number of heads times the head dimension squared" in alt
    for c in (toy, k3):
        assert c["kda_per_layer"] == c["heads"] * c["d_h"] ** 2

    assert "one head per layer and a latent as wide as the head dimension" in alt
    assert toy["heads"] == 1 and toy["d_c"] == toy["d_h"] and toy["d_r"] == 0

    assert "at the starting context every MLA bar is far taller than every KDA bar" in alt
    assert toy["mla_per_layer"][data["contexts"].index(N0)] >= FAR * toy["kda_per_layer"]

    assert "only a context shorter than the head dimension reverses that" in alt
    for N, m in zip(data["contexts"], toy["mla_per_layer"], strict=True):
        assert (m < toy["kda_per_layer"]) == (N < toy["d_h"]), N

    assert "one MLA layer overtakes one KDA layer at a context of a few thousand tokens" in alt
    assert 1000 <= k3["crossover"] < 10000

    assert (
        "at the starting context, a little past the context at which all of K3's MLA caches together hold as "
        "much as all of its KDA states, the MLA and KDA totals are nearly equal, the MLA part slightly the larger"
    ) in alt
    mla, kda = parts(data, "k3", data["k3_layout"], N0)
    assert nearly_equal(mla, kda) and mla > kda
    break_even = kda / (data["k3_layout"].count("mla") * k3["mla_per_token"])
    assert break_even < N0 <= (1 + A_LITTLE) * break_even
    # ... and it is the layer counts that even them out: per layer, MLA is the larger at that context
    assert k3["mla_per_layer"][data["contexts"].index(N0)] > k3["kda_per_layer"]


def test_caption_sentences(data, spec):
    caption = flat(spec.caption)
    assert "The first three presets use toy sizes; the K3 preset switches to K3's own layout and sizes." in caption
    assert data["presets"] == ["all-MLA", "all-KDA", "3:1", "K3"]
    assert "An MLA layer's cache grows with the context; a KDA layer's state does not." in caption
    for c in data["constants"].values():
        assert np.all(np.diff(c["mla_per_layer"]) > 0) and isinstance(c["kda_per_layer"], int)


def test_mla_bars_rise_by_the_same_step_per_doubling_on_the_log_axis(data, prose, spec):
    """§09 and the alt: an MLA layer's cache is proportional to the context, so on the chart's log axis
    each doubling of the context raises its bar by the same step; a KDA bar does not move."""
    assert (
        "Each MLA layer's cache grows in proportion to the context, because it holds a latent for every token; on "
        "the chart's log axis every doubling of the context raises its bar by the same step."
    ) in prose
    assert (
        "a bar chart of decode memory per layer on a log scale and a bar that splits the total into its MLA and KDA "
        "shares, from 0 to 100 %. Each MLA bar stands for a cache proportional to the context length, so it rises by "
        "the same step per doubling"
    ) in flat(spec.alt)
    n = np.asarray(data["contexts"], dtype=float)
    for c in data["constants"].values():
        mla = np.asarray(c["mla_per_layer"], dtype=float)
        np.testing.assert_allclose(mla / n, mla[0] / n[0], rtol=1e-12)  # proportional to the context
        steps = np.diff(np.log10(mla)) / np.diff(np.log2(n))  # log-axis rise per doubling
        np.testing.assert_allclose(steps, np.log10(2), rtol=1e-9)


def test_section_sentences_about_short_and_long_context(data, prose):
    """ "A KDA bar would not move if the context doubled. At short contexts a KDA state is the *larger* of
    the two": per layer, with the toy sizes and with K3's, at the figure's shortest context."""
    assert "A KDA bar would not move if the context doubled" in prose
    assert "At short contexts a KDA state is the *larger* of the two" in prose
    for sizes in ("toy", "k3"):
        c = data["constants"][sizes]
        assert c["mla_per_layer"][0] < c["kda_per_layer"], sizes
        assert c["mla_per_layer"][-1] > c["kda_per_layer"], sizes  # and long context reverses it
    toy = data["constants"]["toy"]  # "short" is exact for the toy sizes: shorter than the head dimension
    assert toy["crossover"] == toy["d_h"]
    for N, m in zip(data["contexts"], toy["mla_per_layer"], strict=True):
        assert (m < toy["kda_per_layer"]) == (N < toy["d_h"]), N


def test_section_sentences_about_k3(data, prose, facts):
    k3, N0, layout = data["constants"]["k3"], data["n_default"], data["k3_layout"]
    mla, kda = parts(data, "k3", layout, N0)

    assert "Each KDA layer keeps {{calc.k3_kda_state_per_layer}} state elements" in prose
    assert k3["kda_per_layer"] == facts.number("calc.k3_kda_state_per_layer")
    assert "each gated MLA layer caches {{calc.k3_mla_cache_per_token_layer}} elements per token" in prose
    assert k3["mla_per_token"] == facts.number("calc.k3_mla_cache_per_token_layer")
    assert "so one MLA layer outgrows one KDA layer only beyond about {{calc.k3_layer_crossover}} tokens" in prose
    assert k3["crossover"] == pytest.approx(facts.number("calc.k3_layer_crossover"))

    assert "the MLA layers cache {{calc.k3_mla_cache_per_token}} elements per token" in prose
    assert layout.count("mla") * k3["mla_per_token"] == facts.number("calc.k3_mla_cache_per_token")
    assert "all the KDA states together hold {{calc.k3_kda_state}} elements per sequence" in prose
    assert kda == facts.number("calc.k3_kda_state")
    assert "as much as about {{calc.k3_kda_state_in_mla_tokens}} tokens of MLA cache" in prose
    break_even = kda / (layout.count("mla") * k3["mla_per_token"])
    assert break_even == pytest.approx(facts.number("calc.k3_kda_state_in_mla_tokens"))

    assert (
        "at its starting context, a little beyond that point, the MLA and KDA totals are nearly equal, "
        "the MLA part slightly the larger"
    ) in prose
    assert break_even < N0 <= (1 + A_LITTLE) * break_even
    assert nearly_equal(mla, kda) and mla > kda

    assert "at K3's full window the MLA caches outweigh the KDA states more than a hundredfold" in prose
    assert data["contexts"][-1] == facts.number("kimi_k3.context")
    mla_max, kda_max = parts(data, "k3", layout, data["contexts"][-1])
    assert mla_max > 100 * kda_max

    assert "an all-MLA stack of the same depth would cache nearly four times as much per token" in prose
    assert 3.5 <= len(layout) / layout.count("mla") < 4


def test_k3_sizes_line_in_the_figure(data):
    """The line the figure shows for the K3 preset quotes the facts the data was computed from."""
    md = data["k3_constants_md"]
    for key in ("calc.k3_kda_state_per_layer", "calc.k3_mla_cache_per_token_layer", "calc.k3_layer_crossover"):
        assert "{{" + key + "}}" in md
    assert "one MLA layer outgrows one KDA layer beyond about {{calc.k3_layer_crossover}} tokens" in md


# ---- every text the figure shows, in every state, against the data ------------------------------

SUM = re.compile(r"\{=(\w+)\}")
# (MLA layers, KDA layers) the sentences are read at: none of one kind, the 3:1 stack, K3's, the stepper's ends
COUNTS = [(0, 12), (12, 0), (3, 9), (24, 69), (1, 0), (0, 1), (96, 0), (48, 48)]


def with_sums(text: str, mla: int, kda: int) -> str:
    """A filled template with its {=name} sums written as the component writes them (W.int, the
    page's integer form): the MLA part, the KDA part and the total of the layout drawn."""
    sums = {"mla": mla, "kda": kda, "total": mla + kda}
    return SUM.sub(lambda m: integer(sums[m[1]]), text)


def narration(data, path: list, slots: dict, mla: int, kda: int) -> str:
    """What the figure says after an action: the template at text.said.<path>, filled and summed."""
    return with_sums(fill(data, ["text", "said", *path], slots), mla, kda)


def templates(node):
    if isinstance(node, str):
        yield node
    elif isinstance(node, dict | list):
        for item in node.values() if isinstance(node, dict) else node:
            yield from templates(item)


def test_the_shipped_per_layer_values_sum_to_the_kernels_totals(data):
    """What the component adds up (the per-layer value of each layer drawn) is stack_decode_memory's
    total, for every preset's layout, for the toy and K3 sizes, at every context; the presets' and
    the stepper's layouts are hybrid_layout's."""
    n = data["n_layers"]
    # the layouts the presets and the layer stepper draw (the browser test reads them from the data)
    assert data["pattern"] == hybrid_layout(len(data["pattern"]), final_full=False)
    assert data["k3_layout"] == hybrid_layout(len(data["k3_layout"]), final_full=True)
    layouts = [["mla"] * n, ["kda"] * n, toy_3to1(data), data["k3_layout"], ["mla", "kda"] * 48]
    for sizes, c in data["constants"].items():
        for N in data["contexts"]:
            for layout in layouts:
                assert sum(parts(data, sizes, layout, N)) == sum(kernel_parts(c, layout, N)), (sizes, N, len(layout))


def test_every_shown_number_is_the_value_it_stands_for(data):
    t = data["text"]
    assert t["n"] == [f"{n:,}" for n in data["contexts"]] and t["numbers"] == [str(i) for i in range(97)]
    for c in data["constants"].values():
        shown = c["text"]
        assert shown["mla_per_layer"] == [f"{v:,}" for v in c["mla_per_layer"]]
        assert shown["kda_per_layer"] == f"{c['kda_per_layer']:,}"
        for i, mla in enumerate(c["mla_per_layer"]):  # a toggle's change to the total, with its sign
            d = mla - c["kda_per_layer"]
            assert shown["delta"]["mla"][i] == ("+" if d >= 0 else "−") + f"{abs(d):,}"
            assert shown["delta"]["kda"][i] == ("+" if -d >= 0 else "−") + f"{abs(d):,}"
    toy = data["constants"]["toy"]
    assert t["toy_sizes"] == (
        f"Toy sizes: {toy['heads']} head × {toy['d_h']}² = {toy['kda_per_layer']:,} elements per KDA layer, "
        f"{toy['mla_per_token']:,} per token per MLA layer; one MLA layer outgrows one KDA layer beyond "
        f"{round(toy['crossover']):,} tokens."
    )
    assert t["presets"]["K3"] == f"K3 ({len(data['k3_layout'])} layers)"
    # the only numbers the component writes are the three sums
    assert {m for text in templates(data) for m in SUM.findall(text)} == {"mla", "kda", "total"}


def test_every_sentence_in_every_state_reads_the_data(data):
    """For both size sets at every context, and stacks of several make-ups: the split line, the
    chart's label and title, every layer's spoken name, the tip and every narration (preset, layer
    count, context, a toggle) give the per-layer values, the counts, the parts and the total
    (the parts and the total as the component sums them), with the sizes named."""
    names = {"toy": "toy sizes", "k3": "K3's sizes"}
    for sizes, c in data["constants"].items():
        text = c["text"]
        assert text["sizes"] == names[sizes] and text["y_title"] == f"elements per layer (log scale), {names[sizes]}"
        for i, N in enumerate(data["contexts"]):
            a, b = c["mla_per_layer"][i], c["kda_per_layer"]
            n = {"n": ["text", "n", i]}
            per = {
                "mla": ["constants", sizes, "text", "mla_per_layer", i],
                "kda": ["constants", sizes, "text", "kda_per_layer"],
            }
            assert fill(data, ["constants", sizes, "text", "chart_label"], {**n, **per}) == (
                f"Bar chart of decode memory per layer at N = {N:,} tokens with {names[sizes]}: each MLA layer "
                f"{a:,} elements, each KDA layer {b:,}."
            )
            for kind, value in (("mla", a), ("kda", b)):
                other = "KDA" if kind == "mla" else "MLA"
                for layer in (1, 5, 96):
                    at_layer = {"i": ["text", "numbers", layer], "value": per[kind]}
                    assert fill(data, ["text", "layer_name", kind], at_layer) == (
                        f"{layer} {kind[0].upper()}: layer {layer}, {kind.upper()}, {value:,} elements; press to make it {other}"
                    )
                    tip = fill(data, ["text", "tip"], {**at_layer, "kind": ["text", "kinds", kind]})
                    assert tip == f"layer {layer}: {kind.upper()}, {value:,} elements"
            for m, k in COUNTS:
                counts = {"m": ["text", "numbers", m], "k": ["text", "numbers", k]}
                sums = f"{m} MLA × {a:,} + {k} KDA × {b:,} = {m * a:,} + {k * b:,} = {m * a + k * b:,} elements at N = {N:,}."
                slots = {**n, **counts, **per}
                count = {"count": ["text", "numbers", m + k]}
                summed = (m * a, k * b)  # the MLA and the KDA part, as the component adds them up
                assert narration(data, ["layers"], {**slots, **count}, *summed) == f"{m + k} layers: {sums}"
                assert narration(data, ["context"], slots, *summed) == f"Context {N:,} tokens: {sums}"
                named = {**slots, **count, "sizes": ["constants", sizes, "text", "sizes"]}
                assert narration(data, ["other"], named, *summed) == f"{m + k} layers, {names[sizes]}: {sums}"
                for preset in data["presets"]:
                    want = "K3's sizes" if preset == "K3" else "toy sizes"
                    assert narration(data, ["preset", preset], slots, *summed) == f"Preset {preset}, {want}: {sums}"
                head = fill(data, ["text", "split_head"], {**counts, **per})
                tail = fill(data, ["text", "split_tail"], {**n, "sizes": ["constants", sizes, "text", "sizes"]})
                assert (
                    f"{head}{m * a:,} + {k * b:,}{tail}"
                    == f"{sums.split(' = ', 1)[0]} = {m * a:,} + {k * b:,} at N = {N:,} ({names[sizes]})"
                )
                if m:  # layer 1 was made MLA: the total is now this stack's
                    toggle = {**n, **counts, "i": ["text", "numbers", 1], "kind": ["text", "kinds", "mla"]}
                    toggle["delta"] = ["constants", sizes, "text", "delta", "mla", i]
                    d = a - b
                    assert narration(data, ["toggle"], toggle, *summed) == (
                        f"Layer 1 is now MLA: total {'+' if d >= 0 else '−'}{abs(d):,} to {m * a + k * b:,} elements "
                        f"at N = {N:,} ({m} MLA, {k} KDA)."
                    )
    assert fill(data, ["text", "layers"], {"count": ["text", "numbers", 12]}) == "12 layers"
    assert fill(data, ["text", "slider"], {"n": ["text", "n", 0]}) == f"{data['contexts'][0]:,} tokens"


def test_the_headline_answers_with_the_kernels_crossovers_and_share(spec, facts):
    """The answer's crossovers are where the kernels' per-layer memories meet (the toy sizes' at the
    head width, K3's near 2,730 tokens as the facts round it), and at the starting context the
    opening 3:1 stack's few MLA layers hold most of the memory, as stack_decode_memory sums it."""
    title, takeaway = headline("fig-09")
    assert title.endswith("?")
    p, toy = spec.params, spec.params["toy"]
    heads, d_h, d_c = toy["heads_per_layer"], toy["d_h"], toy["mla_elements_per_token"]
    toy_crossover = kda_decode_memory(heads, d_h) / mla_decode_memory(1, d_c)
    assert mla_decode_memory(toy_crossover, d_c) == kda_decode_memory(heads, d_h) and toy_crossover == d_h
    kda, mla = facts.parts("kimi_k3.kda_gate"), facts.parts("kimi_k3.gated_mla")
    k3_crossover = kda_decode_memory(kda["heads"], kda["head_dim"]) / mla_decode_memory(
        1, mla["kv_lora_rank"], mla["shared_key"]
    )
    layout, N = hybrid_layout(p["n_layers"], final_full=False), p["n_tokens"]
    per_layer = stack_decode_memory(layout, N, kda_heads=heads, d_h=d_h, d_c=d_c)
    share = per_layer[np.array(layout) == "mla"].sum() / per_layer.sum()
    assert takeaway == (
        f"Past {toy_crossover:,.0f} tokens with toy sizes, about {round(k3_crossover, -1):,.0f} with K3's. "
        f"At {N:,} tokens the {layout.count('mla')} MLA layers of {len(layout)} hold {share:.0%} of the memory."
    )
    assert k3_crossover == pytest.approx(facts.number("calc.k3_layer_crossover"))  # the number §09 quotes
    # "past": beyond its crossover an MLA layer is the larger, short of it the smaller, for both size sets
    for n_cross, h, w, c in (
        (toy_crossover, heads, d_h, (d_c, 0)),
        (k3_crossover, kda["heads"], kda["head_dim"], (mla["kv_lora_rank"], mla["shared_key"])),
    ):
        assert mla_decode_memory(n_cross / 2, *c) < kda_decode_memory(h, w) < mla_decode_memory(2 * n_cross, *c)
    # the MLA layers are a minority of the stack that holds the majority of the memory
    assert layout.count("mla") < len(layout) / 2 and share > 0.5
