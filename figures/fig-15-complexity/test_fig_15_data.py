"""FIG 15's data against the kernel, and every sentence it can show (the table, the chart's label,
the narration, for each quantity at every N) against the numbers it ships."""

import re

import numpy as np
import pytest

from k3explainer.site.readertext import fill
from k3project.experiments import complexity_curves
from tests.site import article
from tests.site.article import headline

SI = {"K": 1e3, "M": 1e6, "G": 1e9, "T": 1e12, "P": 1e15, "E": 1e18}


@pytest.fixture(scope="module")
def data():
    return article.figure_data("fig-15")


def si_value(text: str) -> float:
    """'35.2 TFLOP' → 3.52e13, '524 K' → 5.24e5, '512' → 512."""
    number, _, rest = text.partition(" ")
    return float(number.replace("\u2212", "-")) * SI.get(rest[:1], 1)


def test_values_and_growth_are_the_kernels_at_n_and_2n(data):
    N = np.array(data["n"], dtype=float)
    at_n, at_2n = complexity_curves(N, **data["constants"]), complexity_curves(2 * N, **data["constants"])
    for q, metric in data["metrics"].items():
        for m in data["mechanisms"]:
            np.testing.assert_allclose(metric["values"][m["key"]], at_n[m["key"]][q], rtol=1e-15)
            np.testing.assert_allclose(metric["growth"][m["key"]], at_2n[m["key"]][q] / at_n[m["key"]][q], atol=5e-5)


def test_every_shown_number_is_the_value_it_stands_for(data):
    assert data["n_text"] == [f"{n:,}" for n in data["n"]]
    for q, metric in data["metrics"].items():
        for m in data["mechanisms"]:
            k = m["key"]
            for v, text, g, growth in zip(
                metric["values"][k], metric["value_text"][k], metric["growth"][k], metric["growth_text"][k], strict=True
            ):
                assert si_value(text) == pytest.approx(v, rel=5e-3), (q, k, text)
                assert text.endswith("FLOP") == (q == "compute")
                assert growth == f"×{g:.2f}"


def test_every_sentence_in_every_state_reads_the_data(data):
    """For both quantities at every N: the caption and the chart's label name that N, and the
    narration gives every curve's value there, in the table's order."""
    keys = [m["key"] for m in data["mechanisms"]]
    for q, metric in data["metrics"].items():
        text = ["metrics", q, "text"]
        for i, n in enumerate(data["n_text"]):
            slot = {"n": ["n_text", i]}
            assert fill(data, [*text, "caption"], slot) == f"{metric['label']} at N = {n} tokens"
            label = fill(data, [*text, "chart_label"], slot)
            assert label.startswith(f"Log–log chart of {metric['axis']}") and label.endswith(f"N = {n} tokens.")
            assert f"for {len(keys)} mechanisms" in label
            said = fill(data, [*text, "describe"], {**slot, **{k: ["metrics", q, "value_text", k, i] for k in keys}})
            values = re.findall(r"(?:^|, |: )(\S+) ([\d.−]+(?: [KMGTPE]?\w*)?)", said.split(": ", 1)[1])
            assert [v for _, v in values] == [metric["value_text"][k][i] for k in keys], said
        assert fill(data, [*text, "unit_head"]) == (
            f"{metric['label']} ({metric['unit']}s)" if metric["unit"] else f"{metric['label']} (elements)"
        )


def test_the_headline_answers_with_the_kernel_s_compute_at_the_opening_length(data):
    """The takeaway's ratios are complexity_curves' compute at the length the figure opens on;
    FlashAttention "saves none" of softmax attention's FLOPs there (or anywhere); and the hint's
    flat memory curves are flat: they hold the same count at every length."""
    title, takeaway = headline("fig-15")
    assert title.endswith("?")
    n = data["n"][data["n_default_index"]]
    N = np.array(data["n"], dtype=float)
    curves = complexity_curves(N, **data["constants"])
    at = {m: float(c["compute"][data["n_default_index"]]) for m, c in curves.items()}
    assert takeaway == (
        f"At {n:,} tokens softmax attention does {at['softmax'] / at['kda']:.0f}× the chunked delta rule's FLOPs, "
        f"the hybrid {at['hybrid'] / at['kda']:.0f}×; FlashAttention saves none."
    )
    assert at["softmax"] > at["hybrid"] > at["kda"] > 1
    np.testing.assert_array_equal(curves["flash"]["compute"], curves["softmax"]["compute"])
    for m in ("linear", "kda"):
        assert np.ptp(curves[m]["memory"]) == 0
