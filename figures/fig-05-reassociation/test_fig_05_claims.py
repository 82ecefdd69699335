"""FIG 05: the sentences of §05 and the text alternative that say what the figure shows, checked
against the figure's data as its builder makes it from its spec."""

from __future__ import annotations

import numpy as np
import pytest

from tests.site import article


@pytest.fixture(scope="module")
def data():
    return article.figure_data("fig-05")


@pytest.fixture(scope="module")
def prose():
    return article.prose("05-linear-attention.md")


@pytest.fixture(scope="module")
def alt():
    return article.flat(article.spec("fig-05").alt)


def test_the_difference_strip_is_blank_on_the_outputs_scale(data, prose, alt):
    """§05: "The re-association is exact, as FIG 05 checks on both orders"; the alt: a strip of each row's
    largest difference, "drawn on the outputs' colour scale and therefore blank" (rounding only)."""
    assert "**The re-association is exact**, as [](#fig-05) checks on both orders." in prose
    assert "drawn on the outputs' colour scale and therefore blank" in alt
    row = np.asarray(data["row_diff"])
    par, rec = np.asarray(data["out_parallel"]), np.asarray(data["out_recurrent"])
    np.testing.assert_array_equal(row, np.abs(par - rec).max(axis=1))
    assert data["out_scale"] == np.abs(par).max() and row.max() / data["out_scale"] < 1e-12  # far below one shade
    assert row.max() == data["max_diff"]


def test_the_matrix_grows_with_n_squared_and_the_state_not_at_all(data, prose, alt):
    """§05: the right side "never builds" the N×N matrix, "a d_k×d_v summary of all keys and values"; the
    alt: a straight line with N² on logarithmic axes, the state flat at d by d."""
    assert "The right side never builds it: $\\phi(K)^\\top V$ is a $d_k\\times d_v$ summary" in prose
    assert "rises as a straight line with N² while the state stays flat at d by d" in alt
    g = data["growth"]
    n = np.asarray(g["n"])
    np.testing.assert_array_equal(g["middle_quadratic"], n**2)
    assert set(np.asarray(g["middle_linear"]).tolist()) == {data["d"] * data["d_v"]}
    assert g["y_ticks"][0] == 1 and g["y_ticks"][-1] >= max(g["middle_quadratic"])


def test_alt_sizes_are_the_figure_sizes(data, alt):
    assert (data["n"], data["d"], data["d_v"]) == (8, 4, 4)
    assert (
        "an 8 by 8 lower-triangular heat grid" in alt and "a 4 by 4 state" in alt and "one 8 by 4 output table" in alt
    )


def test_fig05b_the_exponential_rises_more_relative_to_its_minimum_not_on_the_plot(prose):
    """§05 on FIG 05b: relative to its own smallest value the exponential rises far more as query and key
    align, and softmax's weights on the right are more decisive than ELU+1's; on the left plot's absolute
    scale the ELU+1 curve lies above the exponential until the key is long enough."""
    assert (
        "what counts is how far a kernel rises above its own smallest value, and there the exponential "
        "rises far more as the query and key align"
    ) in prose
    assert (
        "(In absolute terms the ELU+1 curve on the left lies above the exponential until the key is long enough.)"
        in prose
    )
    d = article.figure_data("fig-05b")
    above = []
    for s in d["slices"]:
        e, f = np.asarray(s["exp"]), np.asarray(s["elu"])
        assert e.max() / e.min() > f.max() / f.min(), s["length"]  # rises more above its own minimum
        assert max(s["w_exp"]) > max(s["w_elu"]), s["length"]  # decisive where ELU+1 stays lukewarm
        above.append(bool(np.all(f > e)))
    assert (
        above[d["default_length"]] and above[0] and not above[-1]
    )  # above at first (and as the figure opens), not at the end
    assert above == sorted(above, reverse=True)  # one switch: above up to some length, then no longer
