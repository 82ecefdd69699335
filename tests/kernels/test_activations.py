import math

import numpy as np
import pytest

from k3explainer.kernels import (
    l2_normalize,
    rms_norm,
    sigmoid,
    silu,
    situ,
    situ_glu,
    softmax,
    softplus,
    swiglu,
)

from .helpers import EXACT

g = np.linspace(-60, 60, 2401)


def test_situ_zero_and_slope_half():
    assert situ(0.0) == 0.0
    h = 1e-5
    assert (situ(h) - situ(-h)) / (2 * h) == pytest.approx(0.5, abs=1e-9)


@pytest.mark.parametrize("beta", [0.5, 4.0, 25.0])
def test_situ_bounded_by_beta_and_by_silu(beta):
    s = situ(g, beta)
    assert np.all(np.abs(s) <= beta)  # < β in exact arithmetic; tanh rounds to 1 for large g
    assert np.all(np.abs(situ(np.linspace(-5, 5, 101), beta)) < beta)
    assert np.all(np.abs(s) <= np.abs(silu(g)) + 1e-15)
    assert situ(1e3, beta) == pytest.approx(beta) and abs(situ(-1e3, beta)) < 1e-300


@pytest.mark.parametrize("beta", [4.0, 40.0, 400.0])
def test_situ_approaches_silu_with_the_cubic_bound(beta):
    gap = np.abs(situ(g, beta) - silu(g))
    assert np.all(gap <= np.abs(g) ** 3 * sigmoid(g) / (3 * beta**2) + 1e-15)
    small = np.abs(g) <= 5
    assert gap[small].max() < 2 * 125 / (3 * beta**2)


def test_situ_glu_caps_and_k3_bound():
    up = np.linspace(-1e4, 1e4, 101)
    out = situ_glu(np.full_like(up, 50.0), up)
    assert np.all(np.abs(out) < 4.0 * 25.0)
    np.testing.assert_allclose(situ_glu(1.3, 2.0, linear_beta=None), situ(1.3) * 2.0, **EXACT)
    np.testing.assert_allclose(situ_glu(1.3, 2.0), situ(1.3) * 25 * np.tanh(2.0 / 25), **EXACT)
    np.testing.assert_allclose(swiglu(1.3, 2.0), 2.0 * 1.3 / (1 + np.exp(-1.3)), **EXACT)


def test_sigmoid_and_softplus_are_stable_and_torch_thresholded():
    np.testing.assert_allclose(sigmoid([-1000.0, 0.0, 1000.0]), [0.0, 0.5, 1.0], **EXACT)
    assert softplus(0.0) == pytest.approx(math.log(2), abs=1e-15)
    assert softplus(25.0) == 25.0  # above threshold 20: x itself
    assert softplus(19.0) == pytest.approx(math.log1p(math.exp(19.0)), rel=1e-15)
    assert softplus(-800.0) == 0.0


def test_softmax_rms_l2():
    np.testing.assert_allclose(softmax([1000.0, 1000.0]), [0.5, 0.5], **EXACT)
    rms = 12.5**0.5
    np.testing.assert_allclose(rms_norm([3.0, 4.0], np.array([1.0, 2.0]), eps=0.0), [3 / rms, 8 / rms], **EXACT)
    np.testing.assert_allclose(l2_normalize([[3.0, 4.0]]), [[0.6, 0.8]], **EXACT)
