"""Elementwise nonlinearities and the norms the other kernels share.

docs/kernels.md §6 (softplus / sigmoid gates, L2 norm), §9 (RMSNorm keys), §10 (SiTU), GPT-2 GELU.
"""

import numpy as np


def sigmoid(x):
    x = np.asarray(x, dtype=np.float64)
    e = np.exp(-np.abs(x))  # split by sign so exp never overflows
    return np.where(x >= 0, 1.0 / (1.0 + e), e / (1.0 + e))


def softplus(x, threshold=20.0):
    """log(1 + e^x); returns x itself above `threshold`, like torch.nn.functional.softplus."""
    x = np.asarray(x, dtype=np.float64)
    return np.where(x > threshold, x, np.log1p(np.exp(np.minimum(x, threshold))))


def silu(x):
    x = np.asarray(x, dtype=np.float64)
    return x * sigmoid(x)


def situ(g, beta=4.0):
    """SiTU_β(g) = β·tanh(g/β)·σ(g): SiLU with its linear factor soft-capped at ±β (§10)."""
    g = np.asarray(g, dtype=np.float64)
    return beta * np.tanh(g / beta) * sigmoid(g)


def swiglu(gate, up):
    """SwiGLU hidden activation SiLU(W_1 x) ⊙ W_3 x, given both branches."""
    return silu(gate) * np.asarray(up, dtype=np.float64)


def situ_glu(gate, up, *, beta=4.0, linear_beta=25.0):
    """K3's GLU: SiTU_β(gate) ⊙ β_lin·tanh(up/β_lin); `linear_beta=None` leaves `up` uncapped (§10).

    K3 uses β = 4, β_lin = 25 as fixed hyperparameters (not learned); |output| < β·β_lin = 100.
    The sigmoid sees the uncapped gate.
    """
    up = np.asarray(up, dtype=np.float64)
    capped = up if linear_beta is None else linear_beta * np.tanh(up / linear_beta)
    return situ(gate, beta) * capped


def softmax(x, axis=-1):
    """Stable softmax: subtracting the max leaves the result unchanged and keeps exp ≤ 1."""
    x = np.asarray(x, dtype=np.float64)
    e = np.exp(x - np.max(x, axis=axis, keepdims=True))
    return e / np.sum(e, axis=axis, keepdims=True)


def rms_norm(x, weight, eps=1e-6):
    """x / sqrt(mean(x²) + ε) ⊙ weight over the last axis."""
    x = np.asarray(x, dtype=np.float64)
    return x / np.sqrt(np.mean(x**2, axis=-1, keepdims=True) + eps) * weight


def l2_normalize(x, axis=-1):
    """Exact x/‖x‖ (the demo data's key normalisation; FLA's in-kernel version adds ε = 1e-6, §6)."""
    x = np.asarray(x, dtype=np.float64)
    return x / np.linalg.norm(x, axis=axis, keepdims=True)
