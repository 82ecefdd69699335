"""Linear attention with φ(x) = elu(x) + 1 — docs/kernels.md §3.

The kernels take already feature-mapped q = φ(Q), k = φ(K) ([T, K]); v is [T, V].
Three causal forms of the same sum o_t = Σ_{s≤t} (scale·q_t·k_s) v_s:
recurrent (the specification, a [K, V] state), parallel (masked T×T), chunked (both).
"""

import numpy as np


def elu_plus_one(x):
    """φ(x) = x + 1 for x > 0, e^x otherwise: strictly positive (Katharopoulos et al. 2020)."""
    x = np.asarray(x, dtype=np.float64)
    return np.where(x > 0, x + 1.0, np.exp(np.minimum(x, 0.0)))


def _recurrent(q, k, v):
    S = np.zeros((k.shape[1], v.shape[1]))  # [K, V] fixed size, independent of T
    o = np.empty((len(q), v.shape[1]))
    for t in range(len(q)):
        S = S + np.outer(k[t], v[t])  # S_t = S_{t-1} + k_t v_tᵀ
        o[t] = S.T @ q[t]  # read after the write: token t sees itself
    return o


def _parallel(q, k, v):
    return np.tril(q @ k.T) @ v  # (QKᵀ ⊙ C)V, C = lower-triangular ones incl. diagonal


def _chunked(q, k, v, chunk_size):
    S = np.zeros((k.shape[1], v.shape[1]))  # [K, V] state entering the chunk
    o = np.empty((len(q), v.shape[1]))
    for start in range(0, len(q), chunk_size):
        qc, kc, vc = (a[start : start + chunk_size] for a in (q, k, v))  # [C, ·]
        o[start : start + len(qc)] = qc @ S + np.tril(qc @ kc.T) @ vc  # inter-chunk + intra-chunk
        S = S + kc.T @ vc
    return o


def linear_attention(q, k, v, *, scale=1.0, normalize=False, eps=1e-10, form="recurrent", chunk_size=64):
    """Causal linear attention; `form` in {"recurrent", "parallel", "chunked"} (same result).

    o_t = S_tᵀ (scale·q_t),  S_t = Σ_{s≤t} k_s v_sᵀ.  With `normalize`, o_t is divided by
    scale·q_t·z_t + eps, z_t = Σ_{s≤t} k_s (then scale cancels, up to eps).
    `scale` defaults to 1 (Katharopoulos); FLA applies K^-1/2.
    """
    q, k, v = (np.asarray(a, dtype=np.float64) for a in (q, k, v))
    if normalize:
        # z_t is linear attention applied to a value that is always 1: one extra value column
        v = np.concatenate([v, np.ones((len(v), 1))], axis=1)  # [T, V+1]
    q = scale * q
    if form == "recurrent":
        o = _recurrent(q, k, v)
    elif form == "parallel":
        o = _parallel(q, k, v)
    elif form == "chunked":
        o = _chunked(q, k, v, chunk_size)
    else:
        raise ValueError(f"unknown form {form!r}")
    return o[:, :-1] / (o[:, -1:] + eps) if normalize else o


def reassociate(q, k, v):
    """Non-causal (QKᵀ)V vs Q(KᵀV): both products, the T×T and K×V middles, and
    the multiply-add count of each order: T²·(K+V) vs 2·T·K·V."""
    q, k, v = (np.asarray(a, dtype=np.float64) for a in (q, k, v))
    T, K = q.shape
    V = v.shape[1]
    scores = q @ k.T  # [T, T] grows with T²
    state = k.T @ v  # [K, V] independent of T
    return dict(
        scores=scores,
        state=state,
        quadratic=scores @ v,
        linear=q @ state,
        madds_quadratic=T * T * K + T * T * V,
        madds_linear=K * T * V + T * K * V,
    )


def similarity_kernels(q, k, *, scale=1.0):
    """The two similarities for raw (not feature-mapped) q [Tq, K] and k [Tk, K].

    `exp`: softmax's kernel exp(scale·q·k); `elu`: linear attention's φ(q)·φ(k), φ = elu + 1.
    Both are positive; each row normalised gives the attention weights of that mechanism
    (`exp` → softmax, `elu` → the weights behind `linear_attention(normalize=True)`)."""
    q, k = (np.atleast_2d(np.asarray(a, dtype=np.float64)) for a in (q, k))
    dot = q @ k.T
    exp = np.exp(scale * dot)
    elu = elu_plus_one(q) @ elu_plus_one(k).T
    return dict(
        dot=dot,
        exp=exp,
        elu=elu,
        exp_weights=exp / exp.sum(axis=1, keepdims=True),
        elu_weights=elu / elu.sum(axis=1, keepdims=True),
    )
