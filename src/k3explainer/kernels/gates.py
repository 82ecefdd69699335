"""Gate parameterisations: log-decays g ≤ 0 and write strengths β, one head — docs/kernels.md §4–§6."""

import numpy as np

from .activations import sigmoid, softplus


def gdn_gate(a, A_log, dt_bias):
    """Gated DeltaNet / Mamba-2 decay: g_t = −exp(A_log)·softplus(a_t + dt_bias); a [T], scalars A_log, dt_bias."""
    return -np.exp(A_log) * softplus(np.asarray(a, dtype=np.float64) + dt_bias)


def kda_gate(g_raw, A_log, dt_bias):
    """KDA softplus gate (Kimi Linear): g = −exp(A_log)·softplus(g_raw + dt_bias); g_raw [T, K], dt_bias [K]."""
    return -np.exp(A_log) * softplus(np.asarray(g_raw, dtype=np.float64) + dt_bias)


def kda_lowerbound_gate(g_raw, dt_bias, *, A_log=None, lower_bound=-5.0):
    """KDA "safe gate" (Kimi K3): g = lb·sigmoid(exp(A_log)·(g_raw + dt_bias)) ∈ (lb, 0).

    `A_log=None` drops the exp(A_log) factor (FLA PR #1107). Per-channel decay lies in (e^lb, 1).
    """
    x = np.asarray(g_raw, dtype=np.float64) + dt_bias
    return lower_bound * sigmoid(x if A_log is None else np.exp(A_log) * x)


def beta_gate(b, *, allow_neg_eigval=False):
    """Write strength β = sigmoid(b) ∈ (0, 1), or 2·sigmoid(b) ∈ (0, 2) with negative eigenvalues allowed."""
    return (2.0 if allow_neg_eigval else 1.0) * sigmoid(b)
