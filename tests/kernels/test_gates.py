import math

import numpy as np

from k3explainer.kernels import kda_gate, softplus

from .helpers import EXACT


def test_kda_gate_hand_values_and_its_formula_per_channel():
    np.testing.assert_allclose(kda_gate(np.zeros((1, 2)), 0.0, np.zeros(2)), [[-math.log(2)] * 2], **EXACT)
    np.testing.assert_allclose(
        kda_gate([[30.0]], math.log(3.0), [1.0]), [[-3.0 * 31.0]], **EXACT
    )  # softplus past 20 is x
    rng = np.random.default_rng(1)
    f, dt = rng.standard_normal((6, 4)), rng.standard_normal(4)
    g = kda_gate(f, 0.5, dt)
    assert g.shape == (6, 4) and np.all(g <= 0)
    for i in range(4):
        np.testing.assert_allclose(g[:, i], -math.exp(0.5) * softplus(f[:, i] + dt[i]), **EXACT)
