"""chunked_cost_terms (FIG 15b): the terms add up to the totals; C = T recovers quadratic attention."""

import numpy as np
import pytest

from k3explainer.kernels import (
    chunked_cost_terms,
    chunked_linear_madds,
    kda_chunked_flops,
    reassociation_costs,
)

C = 2 ** np.arange(14)


def test_linear_terms_sum_to_the_chunked_cost():
    t = chunked_cost_terms(8192, 128, C)
    np.testing.assert_array_equal(t["state"] + t["chunk"], chunked_linear_madds(8192, 128, C))
    one = chunked_cost_terms(1, 128, C)
    np.testing.assert_array_equal(one["state"] + one["chunk"], 2 * 128**2 + 2 * C * 128)
    assert np.all(t["state"] == 2 * 8192 * 128**2)  # broadcast: constant in C


def test_kda_terms_sum_to_eq_13():
    t = chunked_cost_terms(8192, 128, C, form="kda")
    np.testing.assert_array_equal(t["state"] + t["chunk"] + t["local"], kda_chunked_flops(8192, 128, C))


def test_one_chunk_is_quadratic_attention():
    T, d = 4096, 64
    assert chunked_cost_terms(T, d, T)["chunk"] == reassociation_costs(T, d, d)["madds_quadratic"]
    with pytest.raises(ValueError):
        chunked_cost_terms(T, d, 1, form="mamba")
