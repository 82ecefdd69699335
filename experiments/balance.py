"""Keeping experts busy: load balance over router training steps (FIG 11b) — docs/kernels.md §8.

An ILLUSTRATIVE model of a router being trained, small enough to state in full, run under three
regimes that differ only in how they balance the load:

    "none"    the router learns from a stand-in task loss alone
    "switch"  ... plus Switch Transformer's auxiliary loss α·N·Σ_i f_i P_i (its gradient moves the router)
    "bias"    ... and a per-expert bias b, used for the top-k choice only, moved by the sign of the
              load error after every step (DeepSeek-V3's auxiliary-loss-free balancing)

One step t (X_t [T, d] a fresh batch of token features; E experts; top-k routing):

    ℓ = X_t W + p                  logits [T, E]; W [d, E] router weights, p [E] per-expert preference
    s = softmax(ℓ) over experts    Switch Transformer's router probabilities (moe.router_scores)
    C_t = top-k of s + b           the chosen experts; b = 0 except in "bias" (moe.route)
    load_e = # tokens choosing e   (moe.expert_load); f_e = load_e/(kT), P_e = mean_t s_te (moe.balance_shares)
    L_task = −(1/T) Σ_t Σ_{e∈C_t} log s_te
                                   the stand-in for the language-modelling loss: it rewards the router
                                   for the experts it chose, which is the feedback that makes routing
                                   collapse (the experts that win get trained, get better, win more)
        ∂L_task/∂ℓ_te = −(m_te − k·s_te)/T                       m = the 0/1 mask of C_t
    L_aux = α·N·Σ_e f_e P_e        (moe.switch_balance_loss); f is a count, not differentiable, so,
                                   as in Switch Transformer, the gradient flows through P only
        ∂L_aux/∂ℓ_tj = (α·N/T)·s_tj·(f_j − Σ_i f_i s_ti)
    (W, p) ← (W, p) − lr·∇(L_task [+ L_aux in "switch"])
    b ← b − γ·sign(load − mean load)   in "bias" only (moe.update_balance_bias); b never enters s,
                                   so it changes which experts are chosen, never the gate weights

Recorded: the load of every step; at every `every`-th step also the bias, the balance statistic
N·Σ f P (α = 1), and how much of the router's update the balance loss supplied (`aux_share`,
‖Δθ_aux‖ / (‖Δθ_task‖ + ‖Δθ_aux‖), θ = (W, p); 0 without the loss) with the cosine between the
two updates (−1: straight against the task).

`balance_run_loop` is the specification: one run, token by token, with moe.py's kernels.
`balance_runs` is the same maths vectorised over runs (regime, α) and seeds; the tests hold the two
equal. Neither draws random numbers: callers pass seeded X, W0 and p0.
"""

import numpy as np

from k3explainer.kernels import balance_shares, expert_load, route, switch_balance_loss, update_balance_bias

BALANCE_REGIMES = ("none", "switch", "bias")


def task_logit_grad(scores, mask):
    """∂L_task/∂ℓ for L_task = −(1/T) Σ_t Σ_{e∈C_t} log s_te with softmax scores.
    scores, mask [..., T, E] (mask: 1 where chosen, k per token). Returns [..., T, E]."""
    scores = np.asarray(scores, dtype=np.float64)
    T = scores.shape[-2]
    k = np.asarray(mask).sum(axis=-1, keepdims=True)  # chosen per token
    return -(mask - k * scores) / T


def switch_aux_logit_grad(scores, f, *, alpha=1.0):
    """∂L_aux/∂ℓ for L_aux = α·N·Σ_j f_j P_j, P_j = mean_t s_tj, s = softmax(ℓ) over experts, f fixed.
    scores [..., T, E]; f [..., E] (share of the routing slots). Returns [..., T, E]."""
    scores = np.asarray(scores, dtype=np.float64)
    T, N = scores.shape[-2:]
    f = np.asarray(f, dtype=np.float64)[..., None, :]  # [..., 1, E]
    mean_f = (scores * f).sum(axis=-1, keepdims=True)  # Σ_i f_i s_ti  [..., T, 1]
    return (alpha * N / T) * scores * (f - mean_f)


def load_ratio(load):
    """max_e load_e / mean_e load_e over the last axis: 1 when every expert gets the same number of
    tokens, N/k when k experts take every token."""
    load = np.asarray(load, dtype=np.float64)
    return load.max(axis=-1) / load.mean(axis=-1)


def expert_capacity(capacity_factor, n_tokens, n_experts, top_k):
    """Switch Transformer's expert capacity: (tokens × k / experts) × capacity factor, rounded down
    to whole token slots."""
    return int(np.floor(capacity_factor * n_tokens * top_k / n_experts + 1e-9))


def dropped_share(load, capacity):
    """The share of the routing slots a capacity limit would drop: Σ_e max(0, load_e − capacity) / Σ_e load_e.
    load [..., E]; capacity (slots per expert) broadcasts against load[..., :1]. Returns [...]."""
    load = np.asarray(load, dtype=np.float64)
    over = np.maximum(0.0, load - np.asarray(capacity, dtype=np.float64)[..., None])
    return over.sum(axis=-1) / load.sum(axis=-1)


def _norm_pair(gW, gp):
    return np.sqrt(np.sum(gW * gW) + np.sum(gp * gp))


def balance_run_loop(X, W0, p0, *, top_k, regime, alpha=0.0, gamma=0.0, lr=1.0, every=1):
    """One run of one regime, token by token — the specification `balance_runs` is tested against.

    X [S, T, d]: S batches; batch t is routed by the router after t updates;
    W0 [d, E], p0 [E]: the router's starting weights and preference. alpha: the aux-loss weight
    ("switch" only); gamma: the bias step ("bias" only); lr: the router's learning rate.
    Returns load [S, E], and at steps 0, every, 2·every, … (index `steps`): bias [G, E],
    stat [G] (N·Σ f P), aux_share [G], cosine [G] (0 where there is no aux gradient)."""
    if regime not in BALANCE_REGIMES:
        raise ValueError(f"regime must be one of {BALANCE_REGIMES}, got {regime!r}")
    X = np.asarray(X, dtype=np.float64)
    S, T, d = X.shape
    W, p = np.array(W0, dtype=np.float64), np.array(p0, dtype=np.float64)
    E = p.shape[0]
    b = np.zeros(E)
    a = alpha if regime == "switch" else 0.0
    loads, rec = [], {"steps": [], "bias": [], "stat": [], "aux_share": [], "cosine": []}
    for t in range(S):
        x = X[t]
        r = route(x @ W + p, top_k, score_func="softmax", bias=b if regime == "bias" else None, renormalize=True)
        s, chosen = r["scores"], r["experts"]
        load = expert_load(chosen, E)
        f, _ = balance_shares(s, chosen)
        gt = np.zeros((T, E))  # ∂L_task/∂ℓ, one token at a time
        ga = np.zeros((T, E))  # ∂L_aux/∂ℓ
        for i in range(T):
            for e in chosen[i]:  # −log s_ie for every chosen e: ∂/∂ℓ_ij = s_ij − [j = e]
                gt[i] += s[i] / T
                gt[i, e] -= 1.0 / T
            if a:
                fbar = sum(f[j] * s[i, j] for j in range(E))
                for j in range(E):
                    ga[i, j] = a * E / T * s[i, j] * (f[j] - fbar)
        gWt, gpt = x.T @ gt, gt.sum(axis=0)
        gWa, gpa = x.T @ ga, ga.sum(axis=0)
        loads.append(load)
        if t % every == 0:
            nt, na = _norm_pair(gWt, gpt), _norm_pair(gWa, gpa)
            dot = np.sum(gWt * gWa) + np.sum(gpt * gpa)
            rec["steps"].append(t)
            rec["bias"].append(b.copy())
            rec["stat"].append(switch_balance_loss(s, chosen))
            rec["aux_share"].append(na / (na + nt) if na > 0 else 0.0)
            rec["cosine"].append(dot / (na * nt) if na > 0 else 0.0)
        W -= lr * (gWt + gWa)
        p -= lr * (gpt + gpa)
        if regime == "bias":
            b = update_balance_bias(b, load, gamma)
    return {"load": np.array(loads), **{k: np.array(v) for k, v in rec.items()}}


def balance_runs(X, W0, p0, *, top_k, runs, gamma=0.0, lr=1.0, every=1):
    """`balance_run_loop` for many runs at once: runs [(regime, alpha), …] (R of them) over seeds.

    X [n, S, T, d], W0 [n, d, E], p0 [n, E]: n seeds; every run of a seed sees the same batches.
    Returns load [R, n, S, E] and, at steps 0, every, … (index `steps` [G]): bias [R, n, G, E],
    stat, aux_share, cosine [R, n, G]. Equal to `balance_run_loop` run by run (tested); the top-k
    choice breaks exact ties by the lower expert index, as moe.route does."""
    X = np.asarray(X, dtype=np.float64)
    n, S, T, d = X.shape
    E = np.shape(p0)[-1]
    R = len(runs)
    for regime, _ in runs:
        if regime not in BALANCE_REGIMES:
            raise ValueError(f"regime must be one of {BALANCE_REGIMES}, got {regime!r}")
    # internal layout: experts before tokens, [R, n, E, T], so sums over experts run down a short axis
    Wt = np.broadcast_to(np.swapaxes(np.asarray(W0, dtype=np.float64), -1, -2), (R, n, E, d)).copy()  # Wᵀ
    p = np.broadcast_to(np.asarray(p0, dtype=np.float64)[None, :, :, None], (R, n, E, 1)).copy()
    b = np.zeros((R, n, E, 1))  # stays 0 in the runs without the bias
    alpha = np.array([a if g == "switch" else 0.0 for g, a in runs])  # [R]
    aux = np.flatnonzero(alpha > 0)  # the runs with an auxiliary loss
    a_aux = alpha[aux][:, None, None, None]
    if len(aux) and np.array_equal(aux, np.arange(aux[0], aux[-1] + 1)):
        aux = slice(int(aux[0]), int(aux[-1]) + 1)  # a view, not a copy, when they sit side by side
    has_aux = bool(np.any(alpha > 0))
    biased = np.array([g == "bias" for g, _ in runs], dtype=np.float64)[:, None, None, None]
    Xt = np.ascontiguousarray(np.swapaxes(X, -1, -2))  # [n, S, d, T]
    steps = np.arange(0, S, every)
    G = len(steps)
    load = np.zeros((R, n, S, E))
    out = {
        "bias": np.zeros((R, n, G, E)),
        "stat": np.zeros((R, n, G)),
        "aux_share": np.zeros((R, n, G)),
        "cosine": np.zeros((R, n, G)),
    }
    rows = np.arange(E)[:, None]  # [E, 1]
    logits = np.empty((R, n, E, T))
    for t in range(S):
        for i in range(n):  # one plain matrix product per seed: [R·E, d] @ [d, T]
            logits[:, i] = (Wt[:, i].reshape(R * E, d) @ Xt[i, t]).reshape(R, E, T)
        logits += p
        logits -= logits.max(axis=-2, keepdims=True)  # softmax over experts, stably
        s = np.exp(logits)
        s /= s.sum(axis=-2, keepdims=True)
        sel = s + b
        m = None
        for j in range(top_k):  # the best remaining expert, lowest index on a tie (moe.route's stable sort)
            hit = sel == sel.max(axis=-2, keepdims=True)
            if np.count_nonzero(hit) > hit.size // E:  # an exact tie somewhere: take the first, as the stable sort does
                hit = rows == sel.argmax(axis=-2)[..., None, :]
            hit = hit.astype(np.float64)
            m = hit if m is None else m + hit
            if j < top_k - 1:
                sel -= hit * 1e300  # out of the running (finite, so no inf − inf on the next max)
        ld = m.sum(axis=-1)  # [R, n, E]
        load[:, :, t] = ld
        f = ld / (top_k * T)
        g = (top_k * s - m) / T  # ∂L_task/∂ℓ
        record = t % every == 0
        if record and has_aux:
            gt = g[aux].copy()  # the task part of the runs with an auxiliary loss
        ga = None
        if has_aux:
            sa, fa = s[aux], f[aux][..., None]  # [A, n, E, T], [A, n, E, 1]
            ga = (a_aux * E / T) * sa * (fa - (sa * fa).sum(axis=-2, keepdims=True))
            g[aux] += ga
        if record:
            j = t // every
            if has_aux:  # the two parts of the router's update, θ = (W, p), in the runs that have both
                xT = np.swapaxes(Xt[:, t], -1, -2)[None]  # [1, n, T, d]
                gWt, gpt = gt @ xT, gt.sum(axis=-1)
                gWa, gpa = ga @ xT, ga.sum(axis=-1)
                nt = np.sqrt((gWt**2).sum(axis=(-2, -1)) + (gpt**2).sum(axis=-1))  # [A, n]
                na = np.sqrt((gWa**2).sum(axis=(-2, -1)) + (gpa**2).sum(axis=-1))
                dot = (gWt * gWa).sum(axis=(-2, -1)) + (gpt * gpa).sum(axis=-1)
                some = na > 0  # an exactly even load leaves the auxiliary loss nothing to push
                out["aux_share"][aux, :, j] = np.where(some, na / np.where(some, na + nt, 1.0), 0.0)
                out["cosine"][aux, :, j] = np.where(some, dot / np.where(some, na * nt, 1.0), 0.0)
            out["bias"][:, :, j] = b[..., 0]
            out["stat"][:, :, j] = E * (f * s.mean(axis=-1)).sum(axis=-1)
        for i in range(n):
            Wt[:, i] -= lr * (g[:, i].reshape(R * E, T) @ Xt[i, t].T).reshape(R, E, d)
        p -= lr * g.sum(axis=-1, keepdims=True)
        b -= biased * (gamma * np.sign(ld - ld.mean(axis=-1, keepdims=True))[..., None])
    return {"load": load, "steps": steps, **out}
