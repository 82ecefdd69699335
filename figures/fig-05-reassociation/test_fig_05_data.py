"""FIG 05's data against the kernels (both orders' outputs, the N×N middle and the prefix states,
the multiply-adds for this N and as N grows), and every sentence it can show (the captions, the
labels and the narration, for each order and query row, stepped to or toggled to) against the
numbers it ships."""

import re

import numpy as np
import pytest

from k3explainer.kernels import elu_plus_one, linear_attention, reassociate, reassociation_costs
from k3explainer.site.readertext import fill
from tests.site import article
from tests.site.article import headline

NUMBER = re.compile(r"(?<![\w§])−?\d[\d,]*(?:\.\d+)?(?:e[−-]?\d+)?")
POWER = re.compile(r"(\d(?:\.\d+)?) × 10([⁻⁰¹²³⁴⁵⁶⁷⁸⁹]+)")
DIGITS = str.maketrans("⁻⁰¹²³⁴⁵⁶⁷⁸⁹", "-0123456789")


@pytest.fixture(scope="module")
def data():
    return article.figure_data("fig-05")


@pytest.fixture(scope="module")
def spec():
    return article.spec("fig-05").params


def numbers(text: str) -> list[float]:
    """The numbers a sentence states, in order ("1,234", "−0.5", "5.6e−17", "1.8 × 10⁻¹⁵")."""
    text = POWER.sub(lambda m: f"{m[1]}e{m[2].translate(DIGITS)}", text)
    return [float(m.replace(",", "").replace("−", "-")) for m in NUMBER.findall(text)]


def test_the_two_orders_and_their_middles_are_the_kernels(data, spec):
    N, d, dv = spec["n_tokens"], spec["d"], spec["d_v"]
    rng = np.random.default_rng(spec["seed"])
    q, k = rng.standard_normal((2, N, d))
    v = rng.standard_normal((N, dv))
    pq, pk = elu_plus_one(q), elu_plus_one(k)
    np.testing.assert_array_equal(data["phi_q"], pq)
    np.testing.assert_array_equal(data["phi_k"], pk)
    np.testing.assert_array_equal(data["v"], v)
    par, rec = linear_attention(pq, pk, v, form="parallel"), linear_attention(pq, pk, v, form="recurrent")
    np.testing.assert_array_equal(data["out_parallel"], par)
    np.testing.assert_array_equal(data["out_recurrent"], rec)
    np.testing.assert_array_equal(data["scores"], np.tril(reassociate(pq, pk, v)["scores"]))
    for t in range(N):
        np.testing.assert_array_equal(data["states"][t], reassociate(pq[: t + 1], pk[: t + 1], v[: t + 1])["state"])
    np.testing.assert_array_equal(data["row_diff"], np.abs(par - rec).max(axis=1))
    assert data["max_diff"] == np.abs(par - rec).max() < 1e-12 and data["out_scale"] == np.abs(par).max()
    normalised = [linear_attention(pq, pk, v, form=f, normalize=True) for f in ("parallel", "recurrent")]
    assert data["max_diff_normalised"] == np.abs(normalised[0] - normalised[1]).max() < 1e-12


def test_the_costs_are_the_kernels(data):
    N, d, dv = data["n"], data["d"], data["d_v"]
    here = reassociation_costs(N, d, dv)
    # the figure draws the masked middle: its count is the masked product's, the unmasked one named beside it
    assert data["madds"] == {
        "quadratic": here["madds_quadratic_causal"],
        "quadratic_unmasked": here["madds_quadratic"],
        "linear": here["madds_linear"],
    }
    g = data["growth"]
    costs = reassociation_costs(np.array(g["n"]), d, dv)
    for key in ("middle_quadratic", "middle_linear", "madds_quadratic", "madds_linear"):
        np.testing.assert_array_equal(g[key], costs[key])
    assert len(set(g["middle_linear"])) == 1  # the state does not grow
    assert g["y_ticks"][0] == 1 and g["y_ticks"][-1] >= max(g["middle_quadratic"])


def test_the_fixed_texts_read_the_data(data):
    m, g, gt = data["madds"], data["growth"], data["growth_text"]
    assert fill(data, ["text", "madds_quadratic"]) == f"{m['quadratic']:,}"
    assert fill(data, ["text", "madds_unmasked"]) == f" ({m['quadratic_unmasked']:,} unmasked)"
    assert fill(data, ["text", "madds_linear"]) == f"{m['linear']:,}"
    assert numbers(fill(data, ["text", "max_diff"])) == [pytest.approx(data["max_diff"], rel=0.05)]
    assert numbers(fill(data, ["text", "diff_tail"])) == [round(data["out_scale"], 1)]
    assert "through the matrix" in fill(data, ["text", "out_caption", "matrix"])
    assert "through the state" in fill(data, ["text", "out_caption", "state"])
    assert fill(data, ["text", "diff_lead"]) and fill(data, ["text", "chart_head"])
    # the chart: every N² it holds at every N, the state's one size; ticks, points and the table
    label = fill(data, ["growth_text", "chart_label"])
    held = [x for pair in zip(g["middle_quadratic"], g["n"], strict=True) for x in pair]
    assert "logarithmic" in label and numbers(label) == [*held, g["middle_linear"][0]]
    assert all(t.startswith("10") for t in gt["y_ticks"])
    assert [10 ** int(t[2:].translate(DIGITS)) for t in gt["y_ticks"]] == g["y_ticks"]  # 10⁰, 10³, …
    assert gt["n"] == [f"{n:,}" for n in g["n"]]
    for key in ("middle_quadratic", "middle_linear"):
        assert [numbers(t) for t in gt["points"][key]] == [[n, x] for n, x in zip(g["n"], g[key], strict=True)]
    assert numbers(gt["caption"]) == [data["d"]]
    keys = ("middle_quadratic", "middle_linear", "madds_quadratic", "madds_linear")
    assert gt["rows"] == [[f"{g[k][i]:,}" for k in keys] for i in range(len(g["n"]))]
    assert [numbers(t)[0] for t in data["row_diff_text"]] == pytest.approx(data["row_diff"], rel=0.05, abs=1e-30)


def test_every_sentence_in_every_state_reads_the_data(data):
    """For each query row, in both orders: the row's labels give its visible scores and its
    state; the caption its sizes; the narration, for a new row and for a toggle, the row's output
    to three decimals and the counts the order costs."""
    N, d, dv, m = data["n"], data["d"], data["d_v"], data["madds"]
    for t in range(N):
        q = t + 1
        row = ["rows_text", t]
        assert fill(data, [*row, "query"]) == f"Query row {q}"
        label = numbers(fill(data, [*row, "matrix_label"]))
        assert label[:4] == [N, N, q, q] and label[4:] == pytest.approx(data["scores"][t][:q], abs=0.05)
        label = numbers(fill(data, [*row, "state_label"]))
        assert label[:4] == [d, dv, q, q] and label[4:] == pytest.approx(np.ravel(data["states"][t]), abs=0.005)
        output = pytest.approx(data["out_parallel"][t], abs=0.0005)  # the same in both orders, to rounding
        said = fill(data, ["views", "matrix", t, "said"])
        assert numbers(said)[:5] == [q, q, N, N, q if q < N else N] and numbers(said)[5:] == output
        assert ("the mask hides the rest" in said) == (q < N)
        toggled = numbers(fill(data, ["views", "matrix", t, "said_toggle"]))
        assert toggled[:7] == [N, N, m["quadratic"], N, m["quadratic_unmasked"], q, q] and toggled[7:] == output
        assert numbers(fill(data, ["views", "matrix", t, "caption"])) == [N, N, N * N, q, q]
        said = numbers(fill(data, ["views", "state", t, "said"]))
        assert said[:4] == [q, d, dv, q] and said[4:] == output
        toggled = fill(data, ["views", "state", t, "said_toggle"])
        assert toggled.startswith("Re-associated") and toggled.endswith(fill(data, ["text", "max_diff"]) + ".")
        toggled = numbers(toggled)
        assert toggled[:7] == [N, N, d, dv, m["linear"], N, q] and toggled[7:-1] == output
        assert toggled[-1] == pytest.approx(data["max_diff"], rel=0.05)
        assert numbers(fill(data, ["views", "state", t, "caption"])) == [q, d, dv, d * dv, N, N]


def test_the_headline_answers_with_the_kernels_difference_and_sizes(data, spec):
    """The takeaway's difference is the largest gap between the kernel's two orders on the seeded
    inputs, a rounding error far below the outputs' size; the matrix it names is N×N and grows as N²
    at every length, while the d×d_v state is the same size at every length."""
    title, takeaway = headline("fig-05")
    assert title.endswith("?")
    N, d, dv = spec["n_tokens"], spec["d"], spec["d_v"]
    rng = np.random.default_rng(spec["seed"])
    q, k = rng.standard_normal((2, N, d))
    v = rng.standard_normal((N, dv))
    pq, pk = elu_plus_one(q), elu_plus_one(k)
    par, rec = linear_attention(pq, pk, v, form="parallel"), linear_attention(pq, pk, v, form="recurrent")
    gap = np.abs(par - rec).max()
    assert 0 < gap < 1e-12 * np.abs(par).max()  # not bit-identical, and only rounding
    shown = numbers(takeaway)
    assert shown[0] == pytest.approx(gap, rel=0.05)  # printed to two significant figures
    assert takeaway.startswith("Nothing: the two orders differ by at most ") and " (rounding). " in takeaway
    assert takeaway.endswith(f"The {N}×{N} matrix grows as N²; the {d}×{dv} state never does.")
    n = np.array([N, 2 * N, 1024, 1_048_576])
    costs = reassociation_costs(n, d, dv)
    np.testing.assert_array_equal(costs["middle_quadratic"], n**2)
    assert set(costs["middle_linear"].tolist()) == {d * dv}
