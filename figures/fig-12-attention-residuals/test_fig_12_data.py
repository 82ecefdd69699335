"""FIG 12's data against the kernels (the queries re-drawn from their seeds), what §12 says the
figure shows, and every sentence it can show (the table, the sums, the readout under it, the
controls' readouts and the narration, for every query, depth and source) against the numbers it
ships."""

import re
from itertools import pairwise

import numpy as np
import pytest

from k3explainer.kernels import attention_residual, residual_shares, rms_norm
from k3explainer.site.readertext import fill
from tests.site import article
from tests.site.article import headline
from tests.site.project import ROOT

FIG = "fig-12"


@pytest.fixture(scope="module")
def data():
    return article.figure_data(FIG)


@pytest.fixture(scope="module")
def kernel(data):
    """The kernels on the shipped sources, with the queries re-drawn from their seeds: query i ≥ 1
    comes from default_rng(seed + i)."""
    src, d, seed = np.array(data["sources"]), data["d"], data["seed"]
    queries = [np.zeros(d)] + [
        data["query_scale"] * np.random.default_rng(seed + i).standard_normal(d) for i in range(1, len(data["queries"]))
    ]
    depths = list(range(1, len(data["labels"])))  # a layer with l layers below reads the first l + 1 sources
    return {
        "depths": depths,
        "queries": np.array(queries),
        "weights": [{l: attention_residual(src[: l + 1], w, np.ones(d))[1] for l in depths} for w in queries],
        "scores": np.array([rms_norm(src, np.ones(d)) @ w for w in queries]),
        "shares": {l: residual_shares(l) for l in depths},
    }


def near(text: str, value: float, digits: int) -> None:
    """A shown number is the value to its displayed precision."""
    assert abs(float(text.rstrip("×").replace("−", "-")) - value) <= 0.5 * 10**-digits + 1e-12, (text, value)


def test_shipped_data_is_the_kernels(data, kernel):
    np.testing.assert_allclose(np.array(data["queries"]), kernel["queries"], rtol=0, atol=1e-12)
    assert data["depths"] == kernel["depths"]
    for j, l in enumerate(kernel["depths"]):
        np.testing.assert_allclose(np.array(data["shares"][j]), kernel["shares"][l], rtol=0, atol=1e-15)
        for q in range(len(kernel["queries"])):
            np.testing.assert_allclose(np.array(data["weights"][q][j]), kernel["weights"][q][l], rtol=0, atol=1e-15)
    np.testing.assert_allclose(np.array(data["scores"]), kernel["scores"], rtol=0, atol=1e-15)


def test_what_section_12_says_the_figure_shows_is_true_of_its_data(kernel):
    """§12: 'as the layers below slider adds layers the shares shrink, each 1/(l+1)'; 'some sources far
    more than their plain share, others far less'; 'the weights always sum to one'; 'step back to the
    zero query ... every weight equals the plain share'."""
    depths, shares = kernel["depths"], kernel["shares"]
    for l in depths:
        assert shares[l] == pytest.approx(np.full(l + 1, 1 / (l + 1)))
    assert all(shares[a][0] > shares[b][0] for a, b in pairwise(depths))  # they shrink as layers are added
    deepest = depths[-1]
    for q in range(1, len(kernel["queries"])):
        ratio = kernel["weights"][q][deepest] / shares[deepest]
        assert ratio.max() >= 2 and ratio.min() <= 1 / 3, q  # far more / far less than the plain share
    for by_depth in kernel["weights"]:
        for l in depths:
            assert by_depth[l].sum() == pytest.approx(1, abs=1e-12)
    for l in depths:
        assert kernel["weights"][0][l] == pytest.approx(shares[l], abs=1e-15)


def test_every_shown_number_is_the_value_it_stands_for(data):
    digits, nq = data["precision"], len(data["weights"])
    for j, shares in enumerate(data["shares"]):
        for i, s in enumerate(shares):
            near(data["share_text"][j][i], s, digits)
        for q in range(nq):
            w = np.array(data["weights"][q][j])
            near(data["weight_total_text"][q][j], w.sum(), digits)
            for i in range(len(w)):
                near(data["weight_text"][q][j][i], w[i], digits)
                near(data["ratio_text"][q][j][i], w[i] / shares[i], 2)
            # the largest weight's source, or none (−1) where every weight is the same: the zero query
            assert data["best"][q][j] == (-1 if q == 0 else int(np.argmax(w))), (q, j)
    for q in range(nq):
        for i, s in enumerate(data["scores"][q]):
            near(data["score_text"][q][i], s, 2)
    assert data["query_name"] == ["w = 0 (initialisation)"] + [f"query {q} of {nq - 1}" for q in range(1, nq)]
    assert data["query_step"] == ["w = 0"] + [f"query {q} / {nq - 1}" for q in range(1, nq)]
    assert data["depth_text"] == [f"{l} layer{'s' if l > 1 else ''} + embedding" for l in data["depths"]]


def test_every_sentence_in_every_state_reads_the_data(data):
    """For every query, depth and source: the sums line, the readout under the table (no source
    selected, so the largest weight, or the selected one), the narration of a new query or depth
    and of a selected source, and the title of a row above the reading layer."""
    digits = data["precision"]
    for j, l in enumerate(data["depths"]):
        shares = data["shares"][j]
        layers = f"{l} layer{'s' if l > 1 else ''}"
        for q, name in enumerate(data["query_name"]):
            w, total, best = data["weights"][q][j], ["weight_total_text", q, j], data["best"][q][j]
            sums = fill(data, ["text", "sums", j], {"total": total})
            head, share, shares_sum, weights_sum = re.fullmatch(
                rf"With {layers} below, the plain residual has (\d+) equal shares of (\S+), summing to (\S+); "
                r"the attention weights sum to (\S+)\.",
                sums,
            ).groups()
            assert int(head) == l + 1
            near(share, 1 / (l + 1), digits)
            near(shares_sum, sum(shares), digits)
            near(weights_sum, sum(w), digits)
            assert shares_sum == weights_sum == f"{1:.{digits}f}"  # both sum to one
            if best < 0:
                detail = fill(data, ["text", "detail_even"], {"weight": ["weight_text", q, j, 0]})
                assert detail == f"Every source gets {share} of the mix, its plain share: no weight is the largest."
                said = fill(
                    data,
                    ["text", "said_even", j],
                    {"query": ["query_name", q], "weight": ["weight_text", q, j, 0], "total": total},
                )
                assert said == (
                    f"{name}, {layers} below: every source gets {share}, as in the plain residual; the weights sum "
                    f"to {weights_sum}. The plain residual gives each of its {l + 1} sources {share}."
                )
            else:
                slots = {"query": ["query_name", q], "weight": ["weight_text", q, j, best], "total": total}
                said = fill(data, ["text", "said_best", j], {**slots, "source": ["labels", best]})
                weight, source = re.fullmatch(
                    rf"{re.escape(name)}, {layers} below: the largest weight, (\S+), goes to (.+); the weights sum to "
                    rf"{weights_sum}\. The plain residual gives each of its {l + 1} sources {share}\.",
                    said,
                ).groups()
                near(weight, max(w), digits)
                assert source == data["labels"][int(np.argmax(w))]
            for i in range(l + 1):
                slots = {
                    "source": ["labels", i],
                    "weight": ["weight_text", q, j, i],
                    "share": ["share_text", j, i],
                    "ratio": ["ratio_text", q, j, i],
                }
                for lead, key in (("Largest weight", "detail_best"), ("Selected", "detail_selected")):
                    if key == "detail_best" and i != best:
                        continue
                    weight, shown_share, ratio = re.fullmatch(
                        rf"{lead}: {re.escape(data['labels'][i])} gets (\S+) of the mix instead of (\S+) \((\S+) its "
                        r"plain share\)\.",
                        fill(data, ["text", key], slots),
                    ).groups()
                    near(weight, w[i], digits)
                    near(shown_share, shares[i], digits)
                    near(ratio, w[i] / shares[i], 2)
                said = fill(
                    data,
                    ["text", "said_source"],
                    {
                        "source": ["labels", i],
                        "share": ["share_text", j, i],
                        "weight": ["weight_text", q, j, i],
                        "score": ["score_text", q, i],
                    },
                )
                shown_share, weight, score = re.fullmatch(
                    rf"{re.escape(data['labels'][i])}: plain share (\S+), attention weight (\S+) \(score (\S+)\)\.",
                    said,
                ).groups()
                near(shown_share, shares[i], digits)
                near(weight, w[i], digits)
                near(score, data["scores"][q][i], 2)
    for i, label in enumerate(data["labels"]):
        assert fill(data, ["text", "absent"], {"source": ["labels", i]}) == f"Not below this layer: {label} comes later"


def test_the_headline_answers_with_the_kernels_weights(data, kernel):
    """The answer is the kernel's softmax for the state the figure opens on (the first seeded query,
    every layer below): the source it weighs most, that weight and its multiple of the plain share,
    and the source it weighs least, as the table prints them; the most is far above the plain share
    and the least far below it."""
    component = (ROOT / "figures/fig-12-attention-residuals/component.js").read_text(encoding="utf-8")
    assert "q: K3.state.int(0, data.weights.length - 1, 1)" in component  # opens on query 1 ...
    assert "l: K3.state.oneOf(depths, depths[depths.length - 1])" in component  # ... with every layer below
    title, takeaway = headline(FIG)
    assert title.endswith("?")
    l = kernel["depths"][-1]
    w, share = kernel["weights"][1][l], kernel["shares"][l]
    most, least = int(np.argmax(w)), int(np.argmin(w))
    labels = data["labels"]
    assert takeaway == (
        f"By a softmax over its query's scores: {labels[most]} gets {w[most]:.3f} of the mix, "
        f"{w[most] / share[most]:.2f}× its plain share, {labels[least]} just {w[least]:.3f}."
    )
    shown = data["weight_text"][1][-1]  # the table's weights in that state
    assert (shown[most], shown[least]) == (f"{w[most]:.3f}", f"{w[least]:.3f}")
    assert data["ratio_text"][1][-1][most] == f"{w[most] / share[most]:.2f}×"
    assert w[most] > 2 * share[most] and w[least] < share[least] / 10 and w.sum() == pytest.approx(1)
