"""FIG 03's data against the costs kernels, and every text it can show (the matrix's labels and the
sentence under it, the four readouts, the narration, at every slider position) against the numbers
it ships."""

import re

import numpy as np
import pytest

from k3explainer.kernels import (
    decode_step_reads,
    decode_step_writes,
    kv_cache_elements,
    prefill_attention_flops,
    score_cells,
)
from k3explainer.site.readertext import fill
from tests.site import article
from tests.site.article import headline

SI = {"K": 1e3, "M": 1e6, "G": 1e9, "T": 1e12, "P": 1e15, "E": 1e18}
TEXT = ["text"]


@pytest.fixture(scope="module")
def data():
    return article.figure_data("fig-03")


def number(text: str) -> float:
    """'1,048,576' → 1048576, '0.57' → 0.57."""
    return float(text.replace(",", "").replace("\u2212", "-"))


def si_value(text: str, unit: str) -> float:
    """'18.9 MFLOP' → 1.89e7, '786 KB' → 7.86e5, '512 B' → 512."""
    value, _, rest = text.partition(" ")
    assert rest.endswith(unit), (text, unit)
    return float(value) * SI.get(rest.removesuffix(unit), 1)


def sentence_under_the_matrix(data, i):
    """The sentence under the matrix at slider position i, its pieces in the order they are placed."""
    t = data["text"]
    return "".join(
        [
            data["cells_text"][i],
            t["cells_after"],
            data["width_px_text"][i],
            t["px_after"],
            data["screens_text"][i],
            t["screens_after"],
        ]
    )


def test_every_readout_is_the_kernels_at_every_n(data):
    """What the browser test used to recompute: each cost at every slider position, per layer."""
    c = data["constants"]
    D, bpe = c["D"], c["bytes_per_element"]
    assert D == c["n_heads"] * c["d_head"]
    N = np.array(data["N"])
    assert N[data["index"]] == 4096 and np.all(np.diff(N) > 0) and N[0] == 16 and N[-1] == 2**20
    assert list(N[:: data["octave"]]) == [16 * 2**k for k in range(len(N[:: data["octave"]]))]
    np.testing.assert_array_equal(data["cells"], score_cells(N))
    np.testing.assert_array_equal(data["prefill_flops"], prefill_attention_flops(N, D))
    np.testing.assert_array_equal(data["decode_reads"], decode_step_reads(N, D))
    np.testing.assert_array_equal(data["decode_read_bytes"], decode_step_reads(N, D) * bpe)
    assert data["decode_writes"] == decode_step_writes(D)
    np.testing.assert_array_equal(data["cache_elements"], kv_cache_elements(N, D))
    np.testing.assert_array_equal(data["cache_bytes"], kv_cache_elements(N, D) * bpe)
    np.testing.assert_array_equal(data["train_bytes_layer"], score_cells(N) * c["n_heads"] * bpe)
    np.testing.assert_array_equal(data["width_px"], N * c["px_per_cell"])
    np.testing.assert_allclose(data["screens"], N * c["px_per_cell"] / c["screen_px"], rtol=1e-15)


def test_every_shown_number_is_the_value_it_stands_for(data):
    for i in range(len(data["N"])):
        assert data["n_text"][i] == f"{data['N'][i]:,}"
        assert number(data["cells_text"][i]) == data["cells"][i]
        assert number(data["width_px_text"][i]) == data["width_px"][i]
        assert number(data["prefill_text"][i]) == data["prefill_flops"][i]
        assert number(data["reads_text"][i]) == data["decode_reads"][i]
        assert number(data["cache_text"][i]) == data["cache_elements"][i]
        screens = data["screens"][i]
        digits = 2 if screens < 10 else 1 if screens < 100 else 0
        assert number(data["screens_text"][i]) == pytest.approx(screens, abs=0.5 * 10**-digits + 1e-9)
        assert len(data["screens_text"][i].partition(".")[2]) == digits  # the decimals it is printed to
        for text, value, unit in (
            (data["prefill_si_text"][i], data["prefill_flops"][i], "FLOP"),
            (data["train_bytes_text"][i], data["train_bytes_layer"][i], "B"),
            (data["read_bytes_text"][i], data["decode_read_bytes"][i], "B"),
            (data["cache_bytes_text"][i], data["cache_bytes"][i], "B"),
        ):
            assert si_value(text, unit) == pytest.approx(value, rel=5e-3), text
    assert number(data["writes_text"]) == data["decode_writes"]


def test_every_sentence_at_every_n_reads_the_data(data):
    """At each slider position: the matrix's labels and text alternative, the sentence under it, the
    readouts' unit lines and the narration name that N and its numbers, in the data's order."""
    c, t = data["constants"], data["text"]
    for i, n in enumerate(data["n_text"]):
        at_n = {"n": ["n_text", i]}
        assert fill(data, [*TEXT, "top_label"], at_n) == f"N = {n} keys"
        assert fill(data, [*TEXT, "side_label"], at_n) == f"{n} queries"
        aria = fill(data, [*TEXT, "matrix_aria"], {**at_n, "cells": ["cells_text", i]})
        assert aria.startswith(f"Score matrix for N = {n}: {data['cells'][i]:,} cells, drawn with a logarithmically")
        assert sentence_under_the_matrix(data, i) == (
            f"{data['cells'][i]:,} score cells per head, per layer (N²). Drawn at {c['px_per_cell']} px per cell, "
            f"one side would be {data['width_px'][i]:,} px wide: {data['screens_text'][i]} screens of "
            f"{c['screen_px']:,} px."
        )
        assert fill(data, [*TEXT, "train_exact"], {"bytes": ["train_bytes_text", i]}) == (
            f"cells per head · {data['train_bytes_text'][i]} per layer for {c['n_heads']} heads"
        )
        assert fill(data, [*TEXT, "reads_exact"], {"bytes": ["read_bytes_text", i]}).endswith(
            data["read_bytes_text"][i]
        )
        assert fill(data, [*TEXT, "cache_exact"], {"bytes": ["cache_bytes_text", i]}) == (
            f"elements · {data['cache_bytes_text'][i]} per layer"
        )
        said = fill(
            data,
            [*TEXT, "describe"],
            {
                **at_n,
                "cells": ["cells_text", i],
                "prefill": ["prefill_text", i],
                "reads": ["reads_text", i],
                "writes": ["writes_text"],
                "cache": ["cache_text", i],
            },
        )
        numbers = [number(x) for x in re.findall(r"\d[\d,]*", said)]
        assert numbers == [
            data["N"][i],
            data["cells"][i],
            data["prefill_flops"][i],
            data["decode_reads"][i],
            data["decode_writes"],
            data["cache_elements"][i],
        ], said
    assert (
        t["writes_before"] + data["writes_text"] + t["writes_after"]
        == f"writes {data['decode_writes']:,} elements (2·D)"
    )
    assert t["max_label"] == f"drawn side for N = {data['N'][-1]:,}"
    assert t["constants"] == (
        f" constants: D = {c['n_heads']} heads × {c['d_head']} = {c['D']:,}, {c['bytes_per_element']} bytes per "
        f"element, {c['px_per_cell']} px per cell, {c['screen_px']:,}-px screen."
    )


def test_each_card_says_how_its_cost_grows_per_doubling(data):
    """The growth lines are the kernels' own ratios at N and 2N: ×4 for the quadratic costs, ×2 for
    the reads and the cache, ×1 for the writes."""
    g = data["growth"]
    grows = {card["key"]: card["grow"] for card in data["cards"]}
    assert [card["key"] for card in data["cards"]] == ["train", "prefill", "decode", "cache"]
    assert grows == {
        "train": f"×{g['cells']:.0f} per doubling of N",
        "prefill": f"×{g['prefill']:.0f} per doubling of N",
        "decode": f"reads ×{g['reads']:.0f} per doubling of N; writes ×{g['writes']:.0f}",
        "cache": f"×{g['cache']:.0f} per doubling of N",
    }
    assert (g["cells"], g["prefill"], g["reads"], g["writes"], g["cache"]) == (4, 4, 2, 1, 2)


def test_the_headline_answers_with_the_kernels_growth(data):
    """The takeaway's growth per doubling of N is the kernels' own, at every N the slider reaches: the
    score matrix and the prefill FLOPs quadruple (quadratic), a decode step's reads and the KV cache
    double (linear), and the step's writes (2·D, no N in them) do not grow at all."""
    title, takeaway = headline("fig-03")
    assert title.endswith("?")
    D = data["constants"]["D"]
    n = np.asarray(data["N"], dtype=np.int64)
    quadratic = np.concatenate(
        [score_cells(2 * n) / score_cells(n), prefill_attention_flops(2 * n, D) / prefill_attention_flops(n, D)]
    )
    linear = np.concatenate(
        [decode_step_reads(2 * n, D) / decode_step_reads(n, D), kv_cache_elements(2 * n, D) / kv_cache_elements(n, D)]
    )
    assert set(quadratic.tolist()) == {4} and set(linear.tolist()) == {2}
    assert data["decode_writes"] == decode_step_writes(D) and data["growth"]["writes"] == 1
    assert data["growth"]["cells"] == data["growth"]["prefill"] == 4
    assert data["growth"]["reads"] == data["growth"]["cache"] == 2
    assert takeaway == (
        "Quadratic (×4 per doubling of N): score matrix, prefill FLOPs. Linear (×2): decode reads, KV cache; "
        "writes stay flat."
    )
