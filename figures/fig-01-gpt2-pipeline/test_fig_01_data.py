"""FIG 01's counts against gpt2_params (every box, the open layer, the sum, both vocabularies), and
every text it shows — the boxes' counts and shapes, the stack's and the layer's sentences, the
per-block sum, the shares, the narration, closed and open — against the counts it ships."""

import re

import pytest

from k3explainer.site.readertext import at
from k3project.experiments import gpt2_params
from tests.site import article
from tests.site.article import headline


@pytest.fixture(scope="module")
def data():
    return article.figure_data("fig-01")


@pytest.fixture(scope="module")
def kernel(data):
    cfg = data["config"]
    kw = dict(n_ctx=cfg["n_ctx"], n_embd=cfg["n_embd"], n_layer=cfg["n_layer"], mlp_ratio=cfg["d_ff"] // cfg["n_embd"])
    return {
        "p": gpt2_params(vocab_size=cfg["vocab"], **kw),
        "padded": gpt2_params(vocab_size=cfg["vocab_padded"], **kw),
    }


def box(data, box_id):
    return next(b for b in data["pipeline"] + data["layer"] if b["id"] == box_id)


def counts(data, box_id):
    return [part["count"] for part in box(data, box_id)["parts"]]


def numbers(text: str) -> list[int]:
    """Every whole number written in a text, thousands separators and all ("7,087,872" → 7087872)."""
    return [int(n.replace(",", "")) for n in re.findall(r"\d{1,3}(?:,\d{3})+|\d+", text)]


def percent(share: float) -> str:
    return "< 0.01%" if share < 0.00005 else f"{100 * share:.{2 if share < 0.01 else 1}f}%"


def test_counts_equal_the_kernel_and_add_up_to_the_total(data, kernel):
    """What the browser test used to recompute: every box's tensors, the open layer's, the sum."""
    p = kernel["p"]
    assert counts(data, "embed") == [p["wte"], p["wpe"]]
    assert counts(data, "blocks") == [p["block"], p["blocks"]]
    assert counts(data, "ln_f") == [p["ln_f"]]
    assert counts(data, "lm_head") == [p["wte"]]  # tied: the head reuses wte, adds nothing
    assert counts(data, "tokens") == counts(data, "logits") == []
    assert counts(data, "ln_1") == [p["ln_1"]] and counts(data, "ln_2") == [p["ln_2"]]
    assert counts(data, "attn") == [p["c_attn"], p["attn_c_proj"]]
    assert counts(data, "mlp") == [p["c_fc"], p["mlp_c_proj"]]
    assert counts(data, "add_1") == counts(data, "add_2") == []
    assert sum(b["count"] for b in data["layer"]) == data["block_total"] == p["block"]
    addends = [a["count"] for a in data["addends"]]
    assert addends == [p["wte"], p["wpe"], p["blocks"], p["ln_f"], p["lm_head"]]
    assert sum(addends) == data["total"] == p["total"]
    assert data["total_padded"] == kernel["padded"]["total"] and data["wte_padded"] == kernel["padded"]["wte"]


def test_every_box_prints_its_counts_and_shapes(data):
    """Each count as the box prints it, the row's spoken name, and the shapes for the shipped T."""
    cfg = data["config"]
    for b in data["pipeline"] + data["layer"]:
        for part in b["parts"]:
            assert part["count_text"] == f"{part['count']:,}"
            assert part["aria"] == f"{part['name']}: {part['count']:,} parameters" + (
                f", weights {part['shape']}" if part["shape"] else ""
            )
        assert b["chain"] == [f"{w} {s}" for w, s in (("in", b["shape_in"]), ("out", b["shape_out"])) if s]
    T, d = cfg["T"], cfg["n_embd"]
    assert box(data, "embed")["chain"] == [f"in [{T}]", f"out [{T}, {d}]"]
    assert box(data, "lm_head")["chain"][-1] == f"out [{T}, {cfg['vocab']}]"
    assert f"{cfg['n_head']} heads of {cfg['d_head']}" in box(data, "attn")["title"]
    assert data["layer_names"] == [f"layer {i}" for i in range(1, cfg["n_layer"] + 1)]


def test_the_stack_and_the_open_layer_say_their_counts(data):
    """Closed: the stack's heading, its split of one layer and its sentence; open: the heading and
    the per-block sum, whose terms add up to the block and whose product is all the blocks."""
    t, L = data["text"], data["config"]["n_layer"]
    assert numbers(t["stack_head"]) == [L, L]
    assert numbers(t["stack_note"]) == [data["block_total"], L]
    assert numbers(t["layer_head"]) == [L]
    for part in data["block_split"]:
        assert part["key_text"] == f"{part['label']} {part['count']:,} ({percent(part['share'])})"
        assert part["share"] == pytest.approx(part["count"] / data["block_total"])
    assert sum(part["count"] for part in data["block_split"]) == data["block_total"]
    s = data["layer_sum"]
    assert [numbers(term)[0] for term in s["terms"]] == [b["count"] for b in data["layer"]]
    assert [term.startswith("+ ") for term in s["terms"]] == [k > 0 for k in range(len(data["layer"]))]
    whole = "".join([*s["terms"], s["equals"], s["block_total"], s["per_block"], s["times"], s["blocks_total"]])
    said = numbers(whole)
    assert sum(said[: len(data["layer"])]) == said[len(data["layer"])] == data["block_total"]
    assert said[-2:] == [L, L * data["block_total"]]
    assert said[-1] == next(a["count"] for a in data["addends"] if a["id"] == "blocks")


def test_the_sum_and_the_shares_say_the_counts(data):
    """The sum under the drawing, the share bar (its label, segments, titles) and its legend, with
    count ÷ total as printed: one decimal, two below 1 %; a part too small to show in two
    decimals reads "< 0.01%", not 0.00%."""
    t = data["text"]
    holding = [a for a in data["addends"] if a["count"]]
    for a in data["addends"]:
        assert a["count_text"] == f"{a['count']:,}" and a["title_text"] == f"{a['label']}: {a['count']:,}"
        assert a["share"] == pytest.approx(a["count"] / data["total"])
        assert a["share_text"] == percent(a["share"]) and a["legend_text"] == f"{a['label']}: {a['share_text']}"
    names = ["token embedding wte", "position embedding wpe", "12 blocks", "final LayerNorm"]
    assert [next(n for n in names if a["label"].startswith(n)) for a in holding] == names
    assert numbers(holding[2]["label"]) == [data["config"]["n_layer"], data["block_total"]]  # "12 blocks × 7,087,872"
    assert holding[-1]["share_text"] == "< 0.01%"  # ln_f: 1,536 of ~124 M
    assert t["share_label"] == t["share_title"] + " " + ", ".join(a["legend_text"] for a in holding)
    assert t["total"] == f"{data['total']:,}" and t["total_label"] == f"parameters (vocab {data['config']['vocab']:,})"


def test_the_narration_says_the_counts(data):
    """Opening a layer names each of its boxes that holds parameters with its count, then the block's
    total; closing it gives all the blocks against the whole."""
    opened = at(data, ["text", "said_open"])
    with_parameters = [b for b in data["layer"] if b["count"]]
    assert opened.startswith("Opened one layer: ") and opened.endswith(f"; {data['block_total']:,} per block.")
    parts = opened.removeprefix("Opened one layer: ").split("; ")[:-1]
    assert parts == [f"{b['title']}: {b['count']:,} parameters" for b in with_parameters]
    closed = at(data, ["text", "said_closed"])
    blocks = next(a["count"] for a in data["addends"] if a["id"] == "blocks")
    assert numbers(closed) == [data["config"]["n_layer"], blocks, data["total"]]


def test_the_headline_answers_with_the_kernel_s_shares(kernel):
    """The question's total and the answer's shares are the kernel's, and the answer names the
    biggest holders in order: the blocks, then the token embedding, then the rest."""
    title, takeaway = headline("fig-01")
    p = kernel["p"]
    assert f"{p['total']:,}" in title
    blocks, wte = p["blocks"] / p["total"], p["wte"] / p["total"]
    mlp = (p["c_fc"] + p["mlp_c_proj"]) / p["block"]
    assert takeaway.startswith(f"{blocks:.0%} in the 12 Transformer blocks, {mlp:.0%} of each in its MLP")
    assert takeaway.endswith(f"the token embedding holds {wte:.0%}.")
    assert blocks > wte > 1 - blocks - wte
