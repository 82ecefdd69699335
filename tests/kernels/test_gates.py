import math

import numpy as np
import pytest

from k3explainer.kernels import beta_gate, gdn_gate, kda_gate, kda_lowerbound_gate

from .helpers import EXACT


def test_gdn_gate_hand_values_and_threshold():
    np.testing.assert_allclose(gdn_gate(np.zeros(2), 0.0, 0.0), -math.log(2), **EXACT)
    np.testing.assert_allclose(gdn_gate([30.0], math.log(3.0), 1.0), [-3.0 * 31.0], **EXACT)
    a = np.random.default_rng(0).standard_normal(50) * 5
    assert np.all(gdn_gate(a, 1.2, -2.0) <= 0)


def test_kda_gate_is_gdn_gate_per_channel():
    rng = np.random.default_rng(1)
    f, dt = rng.standard_normal((6, 4)), rng.standard_normal(4)
    g = kda_gate(f, 0.5, dt)
    assert g.shape == (6, 4)
    for i in range(4):
        np.testing.assert_allclose(g[:, i], gdn_gate(f[:, i], 0.5, dt[i]), **EXACT)


def test_lowerbound_gate_range_and_forms():
    rng = np.random.default_rng(2)
    f, dt = rng.standard_normal((50, 8)) * 4, rng.standard_normal(8)
    g = kda_lowerbound_gate(f, dt)
    assert np.all((g > -5.0) & (g < 0))
    np.testing.assert_allclose(kda_lowerbound_gate(f, dt, A_log=0.0), g, **EXACT)
    np.testing.assert_allclose(kda_lowerbound_gate(np.zeros(3), np.zeros(3), lower_bound=-2.0), -1.0, **EXACT)
    expected = -5.0 / (1 + math.exp(-2.0))  # lb·sigmoid(exp(log 2)·1)
    np.testing.assert_allclose(kda_lowerbound_gate([1.0], [0.0], A_log=math.log(2.0)), [expected], **EXACT)
    assert np.all(np.exp(g) > math.exp(-5.0))  # per-channel decay in (e^-5, 1)


def test_beta_gate_ranges():
    b = np.linspace(-20, 20, 41)
    assert np.all((beta_gate(b) > 0) & (beta_gate(b) < 1))
    np.testing.assert_allclose(beta_gate(b, allow_neg_eigval=True), 2 * beta_gate(b), **EXACT)
    assert beta_gate(0.0) == pytest.approx(0.5)
