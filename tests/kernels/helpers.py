"""Shared seeded inputs and hypothesis settings for the kernel tests."""

import numpy as np
from hypothesis import settings

from k3explainer.kernels import l2_normalize

# small example counts keep the whole suite well under 20 s; no example database on disk; the same
# examples on every run, so CI and a laptop see the same verdict
FAST = settings(max_examples=25, deadline=None, database=None, derandomize=True)
EXACT = dict(rtol=0, atol=1e-12)  # where the maths is exact, only rounding separates two forms


def delta_inputs(seed, T, K=4, V=3, *, log_decay=(0.01, 0.5)):
    """Well-conditioned inputs: unit-norm keys, β ∈ (0.05, 0.95), log-decays in −log_decay."""
    rng = np.random.default_rng(seed)
    q = rng.standard_normal((T, K))
    k = l2_normalize(rng.standard_normal((T, K)))
    v = rng.standard_normal((T, V))
    g = -rng.uniform(*log_decay, size=(T, K))
    beta = rng.uniform(0.05, 0.95, size=T)
    S0 = rng.standard_normal((K, V))
    return q, k, v, g, beta, S0
