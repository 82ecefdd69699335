"""KDA's gate parameterisation: per-channel log-decays g ≤ 0, one head — docs/kernels.md §6."""

import numpy as np

from .activations import softplus


def kda_gate(g_raw, A_log, dt_bias):
    """KDA softplus gate (Kimi Linear): g = −exp(A_log)·softplus(g_raw + dt_bias); g_raw [T, K], dt_bias [K]."""
    return -np.exp(A_log) * softplus(np.asarray(g_raw, dtype=np.float64) + dt_bias)
