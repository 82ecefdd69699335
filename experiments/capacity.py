"""How much a memory holds: store n key–value pairs one after another, then read back every stored
key and measure how far each read is from its value (FIG 06b).

One head, time-major: keys [n, K] (unit length), values [n, V]. A memory is one of

    Memory("additive")                 S ← S + k vᵀ                        linear attention's update, keys
                                                                           as they are (no feature map)
    Memory("delta", beta=β)            S ← S + β k (v − Sᵀk)ᵀ               DeltaNet
    Memory("delta", beta=β, alpha=α)   S ← αS + β k (v − (αS)ᵀk)ᵀ           Gated DeltaNet, constant gate
    Memory("softmax", scale=s)         keep every pair (a KV cache); read = softmax(s·K k) V

and the read of a stored key k_i after n writes is S_nᵀ k_i (no query scale: this is the memory's
content, not an attention output), or the softmax read over the n cached pairs.

`recall_reference` is the specification: it builds the memory for one n with the article's kernels
(linear_attention, delta_rule, gated_delta_rule; softmax) by running the n writes followed by n
read-only steps (zero key, zero value, no decay) whose queries are the stored keys. `recall_sweep`
is the fast form used by FIG 06b: all seeds and all memories at once, every prefix length on a grid
of n, chunked between grid points (the WY/UT form of docs/kernels.md §4–§5 with a constant gate) and
reading the stored keys incrementally through their Gram matrix. The tests hold the two equal.
"""

from __future__ import annotations

from itertools import pairwise
from typing import NamedTuple

import numpy as np

from k3explainer.kernels import (
    delta_rule,
    gated_delta_rule,
    kda_decode_memory,
    kv_cache_elements,
    linear_attention,
    softmax,
)

KINDS = ("additive", "delta", "softmax")


class Memory(NamedTuple):
    """A write rule. `beta`: write strength; `alpha`: constant decay per write (1: none);
    `scale`: the softmax read's inverse temperature on k_i·k (softmax only)."""

    kind: str
    beta: float = 1.0
    alpha: float = 1.0
    scale: float = 1.0

    def check(self) -> Memory:
        if self.kind not in KINDS:
            raise ValueError(f"unknown memory kind {self.kind!r} (kinds: {', '.join(KINDS)})")
        if not 0 < self.alpha <= 1:
            raise ValueError(f"alpha must be in (0, 1], got {self.alpha}")
        if self.kind == "additive" and (self.alpha != 1 or self.beta != 1):
            raise ValueError("the additive memory has no gate and no write strength")
        if self.scale <= 0:
            raise ValueError(f"scale must be positive, got {self.scale}")
        return self


def memory_elements(memory: Memory, n, d: int):
    """Numbers a memory keeps after n pairs with d_k = d_v = d: the d×d state (constant in n), or
    the cache's 2·n·d (linear in n). Counted by costs.kda_decode_memory / costs.kv_cache_elements."""
    n = np.asarray(n)
    if Memory(*memory).check().kind == "softmax":
        return kv_cache_elements(n, d)
    return np.broadcast_to(kda_decode_memory(1, d), n.shape).copy() if n.shape else kda_decode_memory(1, d)


def relative_errors(reads, values):
    """‖read_i − v_i‖ / ‖v_i‖ over the last axis: 0 is exact recall, 1 is what a read of zero
    scores, above 1 the read points somewhere else."""
    diff = np.asarray(reads, dtype=np.float64) - np.asarray(values, dtype=np.float64)
    values = np.asarray(values, dtype=np.float64)
    return np.sqrt(np.einsum("...i,...i->...", diff, diff) / np.einsum("...i,...i->...", values, values))


# --- the specification: one memory, one n, the article's kernels -----------------------------------


def recall_reference(keys, values, memory: Memory):
    """Write the n pairs (keys [n, K], values [n, V]) in order, then read every stored key.
    Returns reads [n, V]: row i is what the memory returns for k_i after all n writes."""
    memory = Memory(*memory).check()
    k, v = np.asarray(keys, dtype=np.float64), np.asarray(values, dtype=np.float64)
    n, K = k.shape
    if memory.kind == "softmax":  # the cache keeps every pair; each query attends over all of them
        return np.stack([softmax(memory.scale * (k @ k[i])) @ v for i in range(n)])
    # n writes (no query), then n read-only steps: a zero key writes nothing, g = 0 decays nothing
    q = np.concatenate([np.zeros((n, K)), k])  # [2n, K]
    kk = np.concatenate([k, np.zeros((n, K))])  # [2n, K]
    vv = np.concatenate([v, np.zeros_like(v)])  # [2n, V]
    if memory.kind == "additive":
        o = linear_attention(q, kk, vv, scale=1.0, form="recurrent")
    elif memory.alpha == 1:
        o, _ = delta_rule(q, kk, vv, np.r_[np.full(n, memory.beta), np.zeros(n)], scale=1.0)
    else:
        g = np.r_[np.full(n, np.log(memory.alpha)), np.zeros(n)]  # log-decay per token
        o, _ = gated_delta_rule(q, kk, vv, g, np.r_[np.full(n, memory.beta), np.zeros(n)], scale=1.0)
    return o[n:]  # [n, V]: the read-only steps' outputs S_nᵀ k_i


def recall_errors_reference(keys, values, memory: Memory, ns):
    """For each n in `ns`: the relative error of every stored pair after storing the first n
    (a fresh memory for each n). Returns a list of [n] arrays."""
    return [relative_errors(recall_reference(keys[:n], values[:n], memory), values[:n]) for n in ns]


# --- the fast form: every seed, every memory, every n on a grid -----------------------------------


def _grid(ns, N):
    ns = [int(n) for n in ns]
    if not ns or ns[0] < 1 or ns[-1] > N or any(b <= a for a, b in pairwise(ns)):
        raise ValueError(f"ns must increase strictly within 1 … {N}, got {ns}")
    return ns


def recall_sweep(keys, values, memories, ns):
    """Relative recall error of every stored pair, for every memory, seed and n in `ns`.

    keys [S, N, K] (unit rows), values [S, N, V]: S independent sequences (seeds) of N pairs;
    memories: M write rules; ns: increasing prefix lengths 1 ≤ n ≤ N.
    Returns a list over ns of arrays [M, S, n] (item i of row n: the error of pair i after n
    writes) — equal to `recall_errors_reference` for each (memory, seed).

    The states are advanced chunk by chunk between grid points (WY/UT form with a constant gate:
    token r of a chunk writes v'_r = β(v_r − γ(α^{r+1} S_inᵀk_r + Σ_{c<r} α^{r−c}(k_r·k_c) v'_c)),
    γ = 1 for the delta rule, 0 for the additive memory; S_out = α^Δ S_in + Σ_r α^{Δ−1−r} k_r v'_rᵀ),
    and the reads of the pairs stored before the chunk are updated the same way through the Gram
    matrix, R ← α^Δ R + Σ_r α^{Δ−1−r} (k_i·k_r) v'_r, so no prefix is re-read from scratch. The
    softmax cache keeps running numerators and denominators of exp(s(k_i·k_j − 1)) (the largest
    score of a row is its own key's, s·1, so the shift makes every weight ≤ 1)."""
    memories = [Memory(*m).check() for m in memories]
    K_, V_ = np.asarray(keys, dtype=np.float64), np.asarray(values, dtype=np.float64)
    S, N, K = K_.shape
    V = V_.shape[2]
    ns = _grid(ns, N)
    gram = np.einsum("sik,sjk->sij", K_, K_)  # [S, N, N] k_i·k_j, shared by every memory
    # the decaying states last, so the decay of their earlier reads is one slice, [fade:]
    states = sorted((i for i, m in enumerate(memories) if m.kind != "softmax"), key=lambda i: memories[i].alpha < 1)
    soft = [i for i, m in enumerate(memories) if m.kind == "softmax"]
    Ms = len(states)
    # the state memories share their keys: their values sit side by side, [.., Ms, V], so each
    # product below is one batched matrix multiply over the seeds
    alpha = np.array([memories[i].alpha for i in states])[:, None]  # [Ms, 1]
    beta = np.array([memories[i].beta for i in states])[:, None]
    gamma = np.array([float(memories[i].kind == "delta") for i in states])[:, None]  # 1: delta, 0: additive
    scale = np.array([memories[i].scale for i in soft])[:, None, None, None]  # [Mc, 1, 1, 1]
    E = np.exp(scale * (gram[None] - 1.0)) if soft else None  # [Mc, S, N, N] softmax weights, unnormalised
    fade = sum(memories[i].alpha == 1 for i in states)  # states[fade:] decay
    v2 = np.einsum("snv,snv->sn", V_, V_)  # [S, N] ‖v_i‖², the errors' denominators

    def errors(reads, n):  # [..., S, n, V] → [..., S, n] ‖read_i − v_i‖ / ‖v_i‖
        diff = reads - V_[:, :n]
        return np.sqrt(np.einsum("...v,...v->...", diff, diff) / v2[:, :n])

    St = np.zeros((S, K, Ms * V))  # the states after the last grid point, side by side
    R = np.zeros((S, N, Ms, V))  # their reads of the pairs stored so far (rows < n)
    num = np.zeros((len(soft), S, N, V))  # softmax: Σ_j E_ij v_j and Σ_j E_ij over the cached pairs
    den = np.zeros((len(soft), S, N))
    out, n0 = [], 0
    for n1 in ns:
        D = n1 - n0
        Kc, Vc = K_[:, n0:n1], V_[:, n0:n1]  # [S, Δ, K], [S, Δ, V] the chunk's pairs
        err = np.empty((len(memories), S, n1))
        if Ms:
            r = np.arange(D)[:, None, None]  # [Δ, 1, 1] position in the chunk
            lag = (r[:, 0] - r[:, 0, 0])[..., None]  # [Δ, Δ, 1] r − c
            decay = np.where(lag > 0, alpha[:, 0] ** np.maximum(lag, 0), 0.0)  # [Δ, Δ, Ms] α^{r−c} below the diagonal
            A = (gamma * beta)[:, 0] * decay * gram[:, n0:n1, n0:n1, None]  # [S, Δ, Δ, Ms] γ β α^{r−c} k_r·k_c
            # v' = β(v_r − γ α^{r+1} S_inᵀk_r): the decayed incoming state read at k_r, then forward substitution
            read_in = np.einsum("srk,skw->srw", Kc, St).reshape(S, D, Ms, V)  # S_inᵀk_r
            Vp = beta * (Vc[:, :, None] - gamma * alpha ** (r + 1) * read_in)  # [S, Δ, Ms, V]
            for i in range(1, D):  # (I + A) V' = rhs with A strictly lower
                Vp[:, i] -= np.einsum("scm,scmv->smv", A[:, i, :i], Vp[:, :i])
            Vp *= alpha ** (D - 1 - r)  # α^{Δ−1−r} v'_r: each write decayed to the chunk's end
            Vp = Vp.reshape(S, D, Ms * V)
            St = np.repeat(alpha[:, 0] ** D, V) * St + np.einsum("srk,srw->skw", Kc, Vp)  # [S, K, Ms·V]
            if n0:  # the pairs stored before the chunk: R ← α^Δ R + Σ_r (k_i·k_r) α^{Δ−1−r} v'_r
                if fade < Ms:
                    R[:, :n0, fade:] *= alpha[fade:] ** D
                R[:, :n0] += np.einsum("sir,srw->siw", gram[:, :n0, n0:n1], Vp).reshape(S, n0, Ms, V)
            R[:, n0:n1] = np.einsum("srk,skw->srw", Kc, St).reshape(S, D, Ms, V)  # the chunk's own pairs
            err[states] = errors(R[:, :n1].transpose(2, 0, 1, 3), n1)
        if soft:
            if n0:
                num[:, :, :n0] += np.einsum("csir,srv->csiv", E[:, :, :n0, n0:n1], Vc)
                den[:, :, :n0] += E[:, :, :n0, n0:n1].sum(-1)
            num[:, :, n0:n1] = np.einsum("csrj,sjv->csrv", E[:, :, n0:n1, :n1], V_[:, :n1])
            den[:, :, n0:n1] = E[:, :, n0:n1, :n1].sum(-1)
            err[soft] = errors(num[:, :, :n1] / den[:, :, :n1, None], n1)
        out.append(err)
        n0 = n1
    return out


def age_profile(errors, groups: int):
    """Errors of pairs 1 … n (oldest first, [..., n]) averaged over consecutive groups of pairs:
    min(n, groups) groups of near-equal size (the first n mod groups one larger). Returns
    (starts [g] — each group's first pair, 0-based —, means [..., g])."""
    errors = np.asarray(errors, dtype=np.float64)
    n = errors.shape[-1]
    g = min(n, groups)
    sizes = np.full(g, n // g) + (np.arange(g) < n % g)
    starts = np.r_[0, np.cumsum(sizes)[:-1]]
    return starts, np.add.reduceat(errors, starts, axis=-1) / sizes
