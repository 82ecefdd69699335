"""Forgetting on purpose — a topic switch under DeltaNet, Gated DeltaNet and KDA (FIG 07b).

One head, key-major state S [K, V] as in `delta.py`, whose recurrence every run here uses.
The stream (`topic_switch_stream`), one seed each:

    t = 0                      a long-lived FACT: key in the first `n_slow` key channels only,
                               written once with write strength beta_fact
    t = 1 … switch_at − 1      topic A (the OLD topic): `pairs` key→value pairs, presented in rounds,
                               each round every pair once in a shuffled order; keys are unit
                               vectors in a random `topic_rank`-dimensional subspace of the other
                               (fast) K − n_slow channels
    t = switch_at … T − 1      topic B (the NEW topic): `pairs` fresh pairs from a second random
                               subspace of the fast channels, presented the same way

The gates (`gate_schedule`), log-decays g [T, K] (g = log α ≤ 0, state row i × exp(g[t, i])):

    deltanet   g = 0 everywhere (no decay)
    gated      one scalar α on every channel        (Gated DeltaNet)
    kda        α on the fast channels, alpha_slow on the slow ones (KDA with a per-channel gate)

applied either on every step (`schedule="every"`, the constant gate of FIG 07) or only at the
switch token (`schedule="switch"`: the gate closes once, when the topic changes).

Recall of an item (k_i, v_i) from a state S is the share of its value that a query with its
key gets back, (Sᵀk_i)·v_i / ‖v_i‖²: 1 when the association is intact, 0 when nothing of it is
left; a part of the read-out at right angles to v_i (crosstalk) does not count. A kind's recall
is the mean over its items and over the seeds.

`forgetting_curves_reference` is the specification: a plain loop over seeds, mechanisms and α
that runs `delta.kda` (trace=True) for every run. `forgetting_curves` is the same computation
with all runs of all seeds stepped together as one batched recurrence; the tests assert that
the two agree.
"""

import numpy as np

from k3explainer.kernels import kda, l2_normalize

FORGETTING_MECHANISMS = ("deltanet", "gated", "kda")  # no decay · one scalar α · per-channel α
FORGETTING_KINDS = ("old", "new", "fact")  # old topic · new topic · the long-lived fact
FORGETTING_SCHEDULES = ("every", "switch")  # the gate acts on every step · only at the switch token


def topic_switch_stream(
    seed, *, d_k=16, d_v=8, n_slow=4, n_tokens=96, switch_at=48, pairs=4, topic_rank=6, beta_topic=0.5, beta_fact=1.0
):
    """One seeded stream: the fact at t = 0, topic A until `switch_at`, topic B after it.

    Returns a dict with k [T, K] (unit keys), v [T, V] (unit values), beta [T], item [T] (which
    pair each token writes: −1 the fact, 0 … pairs − 1 topic A's, pairs … 2·pairs − 1 topic B's)
    and the items to recall: old / new (k [pairs, K], v [pairs, V]), fact (k [1, K], v [1, V]).
    Everything is drawn from np.random.default_rng(seed) in a fixed order.
    """
    if not 0 < n_slow < d_k:
        raise ValueError(f"need 0 < n_slow < d_k, got n_slow={n_slow}, d_k={d_k}")
    if not 1 <= topic_rank <= d_k - n_slow:
        raise ValueError(f"topic_rank must be 1 … {d_k - n_slow} (the fast channels), got {topic_rank}")
    if not 1 < switch_at < n_tokens:
        raise ValueError(f"need 1 < switch_at < n_tokens, got switch_at={switch_at}, n_tokens={n_tokens}")
    if pairs < 1:
        raise ValueError(f"need at least one pair per topic, got {pairs}")
    rng = np.random.default_rng(seed)
    n_fast = d_k - n_slow

    def topic():
        basis = np.linalg.qr(rng.standard_normal((n_fast, topic_rank)))[0]  # [n_fast, r] orthonormal
        keys = np.zeros((pairs, d_k))
        keys[:, n_slow:] = l2_normalize(rng.standard_normal((pairs, topic_rank)) @ basis.T)  # [pairs, K]
        return keys, l2_normalize(rng.standard_normal((pairs, d_v)))  # values [pairs, V]

    fact_k = np.zeros((1, d_k))
    fact_k[0, :n_slow] = l2_normalize(rng.standard_normal(n_slow))  # [1, K] slow channels only
    fact_v = l2_normalize(rng.standard_normal((1, d_v)))  # [1, V]
    old_k, old_v = topic()
    new_k, new_v = topic()

    def rounds(n):  # n presentations: every pair once per round, each round shuffled
        order = np.concatenate([rng.permutation(pairs) for _ in range(-(-n // pairs))])
        return order[:n]

    a, b = rounds(switch_at - 1), rounds(n_tokens - switch_at)
    item = np.concatenate([[-1], a, pairs + b])  # [T]
    k = np.concatenate([fact_k, old_k[a], new_k[b]])  # [T, K]
    v = np.concatenate([fact_v, old_v[a], new_v[b]])  # [T, V]
    beta = np.concatenate([[beta_fact], np.full(n_tokens - 1, beta_topic)])  # [T]
    return {
        "k": k,
        "v": v,
        "beta": beta,
        "item": item,
        "items": {"old": (old_k, old_v), "new": (new_k, new_v), "fact": (fact_k, fact_v)},
    }


def gate_schedule(mechanism, alpha, *, n_tokens, d_k, n_slow, switch_at, schedule="every", alpha_slow=1.0):
    """Log-decays g [T, K] for one mechanism: see the module docstring. α = 0 gives g = −inf
    (exp(−inf) = 0: that step clears the channel)."""
    if mechanism not in FORGETTING_MECHANISMS:
        raise ValueError(f"unknown mechanism {mechanism!r}; one of {FORGETTING_MECHANISMS}")
    if schedule not in FORGETTING_SCHEDULES:
        raise ValueError(f"unknown schedule {schedule!r}; one of {FORGETTING_SCHEDULES}")
    if not (0 <= alpha <= 1 and 0 < alpha_slow <= 1):
        raise ValueError(f"need 0 <= alpha <= 1 and 0 < alpha_slow <= 1, got {alpha}, {alpha_slow}")
    per_channel = np.ones(d_k)  # [K] the decay a gated step applies, channel by channel
    if mechanism == "gated":
        per_channel[:] = alpha
    elif mechanism == "kda":
        per_channel[:n_slow], per_channel[n_slow:] = alpha_slow, alpha
    with np.errstate(divide="ignore"):
        g_step = np.log(per_channel)  # [K]
    g = np.zeros((n_tokens, d_k))
    if schedule == "every":
        g[:] = g_step
    else:
        g[switch_at] = g_step
    return g


def recall_share(S, keys, values):
    """(Sᵀk_i)·v_i / ‖v_i‖² for each item: S [..., K, V], keys [m, K], values [m, V] → [..., m]."""
    read = np.einsum("...kv,mk->...mv", S, keys)  # [..., m, V] what a query with each key returns
    return np.einsum("...mv,mv->...m", read, values) / np.sum(values * values, axis=1)


def _check(times, n_tokens):
    times = np.asarray(times, dtype=int)
    if times.ndim != 1 or len(times) == 0 or times.min() < 0 or times.max() >= n_tokens or np.any(np.diff(times) <= 0):
        raise ValueError(f"times must be increasing steps in 0 … {n_tokens - 1}")
    return times


def _runs(runs):
    runs = [(str(m), float(a), str(sc)) for m, a, sc in runs]
    if not runs:
        raise ValueError("need at least one run (mechanism, alpha, schedule)")
    return runs


def forgetting_curves_reference(seeds, runs, times, *, alpha_slow=1.0, **stream_kw):
    """The specification: for each seed and each run (mechanism, α, schedule), run `delta.kda`
    over the seed's stream and read every kind's recall from the state after each step in `times`.

    Returns recall [run, kind, time] (runs × FORGETTING_KINDS × times), the mean over the kind's items and
    over the seeds.
    """
    runs = _runs(runs)
    streams = [topic_switch_stream(s, **stream_kw) for s in seeds]
    T, K = streams[0]["k"].shape
    n_slow, switch_at = stream_kw.get("n_slow", 4), stream_kw.get("switch_at", 48)
    times = _check(times, T)
    out = np.zeros((len(runs), len(FORGETTING_KINDS), len(times)))
    for st in streams:
        for r, (mech, alpha, schedule) in enumerate(runs):
            g = gate_schedule(
                mech,
                alpha,
                n_tokens=T,
                d_k=K,
                n_slow=n_slow,
                switch_at=switch_at,
                schedule=schedule,
                alpha_slow=alpha_slow,
            )
            _, _, tr = kda(st["k"], st["k"], st["v"], g, st["beta"], trace=True)
            for j, t in enumerate(times):
                for c, kind in enumerate(FORGETTING_KINDS):
                    out[r, c, j] += recall_share(tr["state"][t], *st["items"][kind]).mean()
    return out / len(streams)


def forgetting_curves(seeds, runs, times, *, alpha_slow=1.0, **stream_kw):
    """The same as `forgetting_curves_reference`, batched: every run of every seed steps through
    one recurrence (the `delta.kda` step over a batch), and the state is read only at `times`.
    Returns recall [run, kind, time].

    Layout: one state per seed holds all R runs side by side, S [n_seeds, K, R, V], so the read
    at k_t is one matmul per seed over a [K, R·V] view: the runs of a seed share its keys and
    values and differ only in their decays. Recall is linear in S, so a kind's mean over its items
    and the seeds is one contraction of S with Q[s] = Σ_i k_i v_iᵀ / ‖v_i‖² (averaged).
    """
    runs = _runs(runs)
    streams = [topic_switch_stream(s, **stream_kw) for s in seeds]
    n, (T, K), V, R = len(streams), streams[0]["k"].shape, streams[0]["v"].shape[1], len(runs)
    n_slow, switch_at = stream_kw.get("n_slow", 4), stream_kw.get("switch_at", 48)
    times = _check(times, T)
    k = np.stack([s["k"] for s in streams])  # [n, T, K]
    v = np.stack([s["v"] for s in streams])  # [n, T, V]
    bk = np.stack([s["beta"] for s in streams])[:, :, None] * k  # [n, T, K] β_t k_t
    g = np.stack(
        [
            gate_schedule(
                mech,
                alpha,
                n_tokens=T,
                d_k=K,
                n_slow=n_slow,
                switch_at=switch_at,
                schedule=schedule,
                alpha_slow=alpha_slow,
            )
            for mech, alpha, schedule in runs
        ]
    )  # [R, T, K]
    decay = np.exp(g).transpose(1, 2, 0)[:, :, :, None]  # [T, K, R, 1]
    Q = (
        np.stack([[np.einsum("mk,mv->vk", *_weighted(s["items"][kind])) for s in streams] for kind in FORGETTING_KINDS])
        / n
    )  # [kinds, n, V, K], each seed with its own items
    Q = Q.transpose(1, 3, 2, 0).reshape(n * K, V, len(FORGETTING_KINDS))  # [n·K, V, kinds]
    S = np.zeros((n, K, R, V))  # [n, K, R, V]
    out = np.zeros((R, len(FORGETTING_KINDS), len(times)))
    want = dict(zip(times.tolist(), range(len(times)), strict=True))
    for t in range(T):
        decays = np.flatnonzero(np.any(decay[t] != 1, axis=(0, 2)))  # the runs whose gate acts on this step
        if len(decays):  # decay first: row i of those runs' states × that run's α for channel i
            lo, hi = decays[0], decays[-1] + 1  # (runs are grouped by schedule: usually one slice, no copy)
            S[:, :, lo:hi] *= decay[t, :, lo:hi]
        read = (k[:, None, t, :] @ S.reshape(n, K, R * V)).reshape(n, R, V)  # read at k_t from the decayed states
        S += bk[:, t, :, None, None] * (v[:, t, None, :] - read)[:, None, :, :]  # β_t k_t (v_t − read)ᵀ, every run
        if t in want:  # Σ over seeds, channels and value columns of S ⊙ Q, per run and kind
            out[:, :, want[t]] = (S.reshape(n * K, R, V) @ Q).sum(axis=0)  # [R, kinds]
    return out


def _weighted(item):
    """An item kind's keys [m, K] and values scaled to v_i / (m‖v_i‖²) [m, V]: Σ_i k_i ⊗ that is the
    matrix whose inner product with S is the kind's mean recall share."""
    keys, values = item
    return keys, values / (len(keys) * np.sum(values * values, axis=1, keepdims=True))
