"""The delta-rule family — DeltaNet (§4), Gated DeltaNet (§5), Kimi Delta Attention (§6).

One head, time-major: q, k [T, K] (k unit-norm in real layers), v [T, V], beta [T],
log-decays g ≤ 0. Key-major state S [K, V], read as o_t = S_tᵀ(scale·q_t). One step:

    S'      = Diag(exp(g_t)) S_{t-1}               decay first
    err_t   = v_t − S'ᵀ k_t                        read at k_t from the decayed state
    S_t     = S' + β_t k_t err_tᵀ                  write the correction
    o_t     = S_tᵀ (scale·q_t)                     read-out after the write

KDA has one log-decay per key channel (g [T, K]). Gated DeltaNet is KDA with the scalar
g_t [T] broadcast over channels; DeltaNet is KDA with g = 0. So there is one recurrent loop
(`_recurrent`, the specification) and one chunked WY/UT routine (`_chunked`); the public
functions are thin wrappers.
"""

import numpy as np

from .attention import default_scale


def _prepare(q, k, v, g, beta, scale, initial_state):
    q, k, v, g, beta = (np.asarray(a, dtype=np.float64) for a in (q, k, v, g, beta))
    g = np.broadcast_to(g, k.shape)  # [T, K]; a per-token scalar gate arrives as [T, 1]
    S = np.zeros((k.shape[1], v.shape[1])) if initial_state is None else np.array(initial_state, dtype=np.float64)
    return default_scale(k.shape[1], scale) * q, k, v, g, beta, S


def _recurrent(q, k, v, g, beta, *, scale, initial_state, trace):
    q, k, v, g, beta, S = _prepare(q, k, v, g, beta, scale, initial_state)
    o = np.empty((len(q), v.shape[1]))  # [T, V]
    steps = []
    for t in range(len(q)):
        alpha = np.exp(g[t])  # [K] per-channel decay in (0, 1]
        S_dec = alpha[:, None] * S  # [K, V] row i forgets at rate alpha[i]
        read = S_dec.T @ k[t]  # [V] what the decayed memory holds under k_t
        err = v[t] - read  # [V] prediction error
        write = beta[t] * np.outer(k[t], err)  # [K, V] rank-one correction
        S_new = S_dec + write
        o[t] = S_new.T @ q[t]  # [V]
        if trace:
            steps.append(
                dict(
                    state_prev=S,
                    decay=alpha,
                    state_decayed=S_dec,
                    read=read,
                    error=err,
                    write=write,
                    state=S_new,
                    output=o[t].copy(),
                )
            )
        S = S_new
    if not trace:
        return o, S
    return o, S, {key: np.stack([s[key] for s in steps]) for key in steps[0]}


def _chunked(q, k, v, g, beta, *, scale, initial_state, chunk_size, trace):
    """Chunkwise-parallel WY/UT form (docs/kernels.md §6 chunked; FLA kda/naive.py l. 69–166).

    Within a chunk every decay is a pairwise difference of inclusive cumulative log-gates,
    exp(γ_r − γ_c) with c ≤ r, masked before exp: nothing is divided by a tiny decay.
    """
    q, k, v, g, beta, S = _prepare(q, k, v, g, beta, scale, initial_state)
    o = np.empty((len(q), v.shape[1]))
    chunks = []
    for start in range(0, len(q), chunk_size):
        sl = slice(start, start + chunk_size)
        qc, kc, vc, gc, bc = q[sl], k[sl], v[sl], g[sl], beta[sl]  # [C, ·]; last chunk may be short
        C = len(qc)
        gam = np.cumsum(gc, axis=0)  # [C, K] γ_r = Σ_{s≤r} g_s
        lower = np.tril(np.ones((C, C), dtype=bool))  # c ≤ r
        # [C, C, K] E_rc[i] = exp(γ_r[i] − γ_c[i]) for c ≤ r; −inf above the diagonal → 0, no overflow
        E = np.exp(np.where(lower[:, :, None], gam[:, None, :] - gam[None, :, :], -np.inf))
        A = bc[:, None] * np.einsum("ri,ci,rci->rc", kc, kc, E) * ~np.eye(C, dtype=bool)  # strictly lower
        M = np.linalg.solve(np.eye(C) + A, np.diag(bc))  # (I + A)⁻¹ diag(β); I + A is unit lower-triangular
        W = M @ (np.exp(gam) * kc)  # [C, K]
        U = M @ vc  # [C, V]
        V_new = U - W @ S  # [C, V] pseudo-values: what each token actually writes
        P = np.einsum("ri,ci,rci->rc", qc, kc, E)  # [C, C] decayed intra-chunk scores, c ≤ r
        o[sl] = (np.exp(gam) * qc) @ S + P @ V_new  # inter-chunk (old state) + intra-chunk
        S_out = np.exp(gam[-1])[:, None] * S + (np.exp(gam[-1] - gam) * kc).T @ V_new  # [K, V]
        if trace:
            chunks.append(
                dict(start=start, gamma=gam, A=A, M=M, W=W, U=U, pseudo_values=V_new, P=P, state_in=S, state_out=S_out)
            )
        S = S_out
    return (o, S, chunks) if trace else (o, S)


def kda(q, k, v, g, beta, *, scale=None, initial_state=None, trace=False):
    """Kimi Delta Attention, recurrent: g [T, K] log-decays (one per key channel), beta [T].

    Returns (o [T, V], final state [K, V]); with `trace=True` also a dict of per-step arrays
    stacked over t: state_prev, decay (exp g_t), state_decayed, read (S'ᵀk_t), error
    (v_t − S'ᵀk_t), write (β_t k_t errᵀ), state, output.
    """
    return _recurrent(q, k, v, g, beta, scale=scale, initial_state=initial_state, trace=trace)


def kda_chunked(q, k, v, g, beta, *, scale=None, initial_state=None, chunk_size=64, trace=False):
    """KDA, chunked WY/UT form; equals `kda`. `trace=True` adds a list of per-chunk intermediates."""
    return _chunked(q, k, v, g, beta, scale=scale, initial_state=initial_state, chunk_size=chunk_size, trace=trace)


def gated_delta_rule(q, k, v, g, beta, *, scale=None, initial_state=None, trace=False):
    """Gated DeltaNet, recurrent: g [T] one log-decay per token for the whole head (= KDA with
    that decay on every channel)."""
    return kda(q, k, v, np.asarray(g)[:, None], beta, scale=scale, initial_state=initial_state, trace=trace)


def gated_delta_rule_chunked(q, k, v, g, beta, *, scale=None, initial_state=None, chunk_size=64, trace=False):
    """Gated DeltaNet, chunked; equals `gated_delta_rule`."""
    return kda_chunked(
        q,
        k,
        v,
        np.asarray(g)[:, None],
        beta,
        scale=scale,
        initial_state=initial_state,
        chunk_size=chunk_size,
        trace=trace,
    )


def delta_rule(q, k, v, beta, *, scale=None, initial_state=None, trace=False):
    """DeltaNet, recurrent: S_t = S_{t-1} + β_t k_t (v_t − S_{t-1}ᵀk_t)ᵀ, no decay (= KDA with g = 0)."""
    return kda(q, k, v, np.zeros((len(k), 1)), beta, scale=scale, initial_state=initial_state, trace=trace)


def delta_rule_chunked(q, k, v, beta, *, scale=None, initial_state=None, chunk_size=64, trace=False):
    """DeltaNet, chunked WY/UT form; equals `delta_rule`, from any initial state, any T."""
    return kda_chunked(
        q,
        k,
        v,
        np.zeros((len(k), 1)),
        beta,
        scale=scale,
        initial_state=initial_state,
        chunk_size=chunk_size,
        trace=trace,
    )
