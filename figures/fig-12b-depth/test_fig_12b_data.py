"""FIG 12b's data against the kernel (the seeded stack rebuilt from the shipped seed and sizes), and
every sentence it can show (the layer readout, the source readout, the charts' labels, the
controls' and strip's labels, for both queries at every reading layer and every source below it)
against the numbers it ships."""

import re

import numpy as np
import pytest

from k3explainer.site.projectcode import builder
from k3explainer.site.readertext import fill
from k3project.experiments import depth_experiment
from tests.site import article
from tests.site.article import headline
from tests.site.project import ROOT

FIG = "fig-12b"
QUERIES = {"aligned": "aimed query", "random": "random queries"}
NUMBER = r"−?\d+\.\d+%?"  # a share may be negative: a source pointing against the input


@pytest.fixture(scope="module")
def data():
    return article.figure_data(FIG)


def near(text: str, value: float, digits: int) -> None:
    """A shown number is the shipped value to its displayed precision (a percentage: of 100 × it)."""
    v = 100 * value if text.endswith("%") else value
    assert abs(float(text.rstrip("%").replace("−", "-")) - v) <= 0.5 * 10**-digits + 1e-9, (text, value)


def test_shipped_numbers_are_the_kernels(data):
    inputs = builder(ROOT, "fig-12b-depth").stack_inputs(data)  # n_layers, d, d_ff, n_tokens, seed, gain, norm ship
    r = depth_experiment(*inputs, depths=data["depths"], target=data["target"], probe_norm=data["query_norm"])
    for rule in ("plain", "random", "aligned"):
        np.testing.assert_allclose(data["rules"][rule]["rms"], r[rule]["rms"], rtol=0, atol=5e-6)
        for key in ("weights", "shares"):
            for got, want in zip(data["rules"][rule][key], r[rule][key], strict=True):
                np.testing.assert_allclose(got, want, rtol=0, atol=5e-6)
    assert data["embedding_rms"] == pytest.approx(r["embedding_rms"], abs=5e-6)


def test_every_shown_number_is_the_value_it_stands_for(data):
    for rule, texts in data["rules_text"].items():
        numbers = data["rules"][rule]
        for j, l in enumerate(data["depths"]):
            assert len(texts["weight_text"][j]) == len(texts["share_text"][j]) == l
            for i in range(l):
                near(texts["weight_text"][j][i], numbers["weights"][j][i], 3)
                near(texts["share_text"][j][i], numbers["shares"][j][i], 1)
    # a tie of the binary value rounds away from zero, as the page's W.fmt did: 1/16 = 0.0625 → 0.063
    j = data["depths"].index(16)
    assert (
        data["rules"]["plain"]["weights"][j][0] == 0.0625
        and data["rules_text"]["plain"]["weight_text"][j][0] == "0.063"
    )
    for axis in ("rms_axis", "share_axis"):
        for v, text in zip(data[axis]["ticks"], data[axis]["tick_text"], strict=True):
            shown = float(text.rstrip("%")) / (100 if text.endswith("%") else 1)
            assert shown == pytest.approx(v, rel=1e-12), (axis, text)
    assert data["share_axis"]["tick_text"] == ["0.1%", "1%", "10%", "100%"]
    for i, name in enumerate(data["source_name"]):
        assert name == ("the embedding" if i == 0 else f"layer {i}'s output")
    for l, slider, ends in zip(data["depths"], data["depth_text"], data["ends_text"], strict=True):
        assert slider == f"layer {l}" + (" · K3's layer count" if l == data["k3_depth"] else "")
        assert ends == f"embedding … layer {l - 1}"


def test_every_sentence_in_every_state_reads_the_data(data):
    """For both queries at every reading layer: the layer sentence and the two charts' labels; for
    every source below that layer, the source sentence; each number the data's."""
    R, tg, text = data["rules"], data["target"], data["text"]
    plain = R["plain"]
    for q, name in QUERIES.items():
        r = R[q]
        for j, l in enumerate(data["depths"]):
            said = fill(data, ["text", "depth", q, j])
            numbers = re.fullmatch(
                rf"Layer {l} reads a plain residual stream of RMS ({NUMBER}) \(the embedding's: ({NUMBER})\), in "
                rf"which layer {tg}'s share is ({NUMBER}) \(1/l = ({NUMBER})\)\. With attention residuals and the "
                rf"{name}, its input has RMS ({NUMBER}), layer {tg} has weight ({NUMBER}) and share ({NUMBER})\.",
                said,
            ).groups()
            want = [
                (plain["rms"][j], 2),
                (data["embedding_rms"], 2),
                (plain["shares"][j][tg], 1),
                (1 / l, 1),
                (r["rms"][j], 2),
                (r["weights"][j][tg], 3),
                (r["shares"][j][tg], 1),
            ]
            for shown, (value, digits) in zip(numbers, want, strict=True):
                near(shown, value, digits)
            size = fill(data, ["text", "size_chart", q, j])
            plain_rms, rms = re.fullmatch(
                rf"RMS of what layer l reads, against l, log–log; at layer {l}: plain residual ({NUMBER}), "
                rf"attention residuals \({name}\) ({NUMBER})\.",
                size,
            ).groups()
            near(plain_rms, plain["rms"][j], 2)
            near(rms, r["rms"][j], 2)
            share = fill(data, ["text", "share_chart", q, j])
            plain_share, attn_share = re.fullmatch(
                rf"Layer {tg}'s share of what layer l reads, against l, log–log; at layer {l}: plain residual "
                rf"({NUMBER}), attention residuals \({name}\) ({NUMBER})\.",
                share,
            ).groups()
            near(plain_share, plain["shares"][j][tg], 1)
            near(attn_share, r["shares"][j][tg], 1)
            for i in range(l):
                source = fill(
                    data,
                    ["text", "source", q],
                    {
                        "layer": ["depths", j],
                        "source": ["source_name", i],
                        "plain_weight": ["rules_text", "plain", "weight_text", j, i],
                        "plain_share": ["rules_text", "plain", "share_text", j, i],
                        "weight": ["rules_text", q, "weight_text", j, i],
                        "share": ["rules_text", q, "share_text", j, i],
                    },
                )
                numbers = re.fullmatch(
                    rf"In layer {l}'s input, {re.escape(data['source_name'][i])}: plain residual weight 1/l = "
                    rf"({NUMBER}), share ({NUMBER}); attention residuals \({name}\) weight ({NUMBER}), share ({NUMBER})\.",
                    source,
                ).groups()
                want = [(1 / l, 3), (plain["shares"][j][i], 1), (r["weights"][j][i], 3), (r["shares"][j][i], 1)]
                for shown, (value, digits) in zip(numbers, want, strict=True):
                    near(shown, value, digits)
    assert text["query_option"]["aligned"] == {
        "text": f"aimed at layer {tg}",
        "aria": f"query aimed at layer {tg}'s output",
    }
    assert text["share_title"] == f"Layer {tg}'s share of it" and text["key"]["aligned"].endswith(f"layer {tg}")
    assert text["attn_row"] == {q: f"attention residuals, {name}" for q, name in QUERIES.items()}


def test_the_headline_answers_at_k3_s_depth_with_the_kernel_s_numbers(data):
    """The takeaway's numbers are the kernel's at the layer the figure opens on (K3's count of
    layers): the plain stream's growth over the embedding, layer 1's share of it, and the share the
    aimed query keeps; "by layer l" holds because the plain stream grows at every stop before it,
    and the diluted share is close to the equal share while the aimed one stays the bulk at every depth."""
    title, takeaway = headline(FIG)
    assert title.endswith("?")
    inputs = builder(ROOT, "fig-12b-depth").stack_inputs(data)
    tg, l = data["target"], data["k3_depth"]
    r = depth_experiment(*inputs, depths=data["depths"], target=tg, probe_norm=data["query_norm"])
    j = data["depths"].index(l)
    growth = r["plain"]["rms"][j] / r["embedding_rms"]
    plain, aimed = r["plain"]["shares"][j][tg], r["aligned"]["shares"][j][tg]
    assert takeaway == (
        f"By layer {l} the plain stream is {growth:.1f}× the embedding's size and layer {tg} is {plain:.0%} of it; "
        f"AttnRes aimed at layer {tg} keeps {aimed:.0%}."
    )
    assert np.all(np.diff(r["plain"]["rms"][: j + 1]) > 0) and growth > 5  # it has grown, layer by layer
    assert 0.5 / l < plain < 1.5 / l  # diluted: about the equal share 1/l
    assert min(s[tg] for s in r["aligned"]["shares"]) > 0.8 > 50 * plain  # the aimed query keeps the bulk
