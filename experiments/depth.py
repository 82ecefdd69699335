"""Depth: what a stack of layers does to the stream each layer reads — docs/kernels.md §9 over a toy stack.

The same seeded sub-layers f_1 … f_L (SiLU MLPs, `mlp_sublayer`) are run under two rules:

    plain PreNorm residual   h_1 = e,   h_{l+1} = h_l + f_l(RMSNorm(h_l))
                             ⇒ layer l reads h_l = e + f_1 + … + f_{l−1}: l sources, each with coefficient 1
    attention residuals      v_0 = e,   h_l = Σ_{i<l} α_{l,i} v_i   (attention_residual, query w_l)
                             v_l = f_l(RMSNorm(h_l)): layer l's output becomes the next source

and each input h_l is taken apart into its sources (`depth_shares`): source i's share of h = Σ_i c_i v_i
is ⟨c_i v_i, h⟩ / ‖h‖², the part of h's squared norm that lies along that term (the shares sum to
one; one can be slightly negative when a term points against the rest). A retrieval probe
(`retrieval_query`) asks whether one pseudo-query, the same for every token, can pick an early
layer's output out of many: it points along that layer's mean normalised output.

`residual_stack_naive` / `depth_experiment_naive` are the specification (token by token, layer by
layer, source by source); `residual_stack` / `depth_experiment` are the same computation batched
over tokens and over both rules, and the tests hold the two equal. No randomness here: callers pass
seeded inputs (the FIG 12b builder draws them from `np.random.default_rng(seed)`).
"""

import numpy as np

from k3explainer.kernels import attention_residual, residual_shares, rms_norm, silu


def mlp_sublayer(x, w_in, w_out):
    """An MLP sub-layer W_out·SiLU(W_in x): x [..., D], w_in [D, F], w_out [F, D] → [..., D].

    SiLU's output has a positive mean, so each layer's output carries a part shared by every
    token (W_out times that mean): a direction one fixed query can look for."""
    return silu(np.asarray(x, dtype=np.float64) @ w_in) @ w_out


def stream_rms(x):
    """Root mean square over the last axis (the size of a stream vector per channel): [..., D] → [...]."""
    x = np.asarray(x, dtype=np.float64)
    return np.sqrt(np.mean(x**2, axis=-1))


def depth_shares(sources, coeffs):
    """Each term's share of h = Σ_i c_i v_i: s_i = ⟨c_i v_i, h⟩ / ‖h‖², which sum to one over i.

    sources [S, ..., D], coeffs [S, ...] → shares [S, ...] (the plain residual has c_i = 1,
    attention residuals c_i = α_i)."""
    terms = np.asarray(coeffs, dtype=np.float64)[..., None] * np.asarray(sources, dtype=np.float64)  # [S, ..., D]
    h = terms.sum(axis=0)  # [..., D]
    return np.einsum("s...d,...d->s...", terms, h) / np.sum(h * h, axis=-1)


def retrieval_query(source, rms_weight, norm, *, eps=1e-6):
    """A pseudo-query that looks for one source: `norm` times the unit vector along its mean
    RMS-normalised output over the tokens. One vector for every token, as a learned w_l is.
    source [T, D] → [D]."""
    m = rms_norm(source, rms_weight, eps).mean(axis=0)  # [D]
    return norm * m / np.linalg.norm(m)


def residual_stack_naive(embedding, w_in, w_out, queries, rms_weight, *, eps=1e-6):
    """The specification: both rules, one token at a time, one layer at a time.

    embedding [T, D] (seeded token vectors); w_in [L, D, F], w_out [L, F, D] (layer l's MLP);
    queries [L, D] (layer l's pseudo-query, attention residuals only); rms_weight [D].
    Returns a dict, layer l = 1 … L stored at index l − 1:
      plain_inputs [L, T, D]    h_l, what layer l reads from the plain residual stream
      plain_sources [L+1, T, D] e, f_1, …, f_L as the plain stack computes them
      attn_inputs [L, T, D]     h_l = Σ_{i<l} α_{l,i} v_i
      attn_sources [L+1, T, D]  v_0 = e, v_1, …, v_L
      attn_weights [L, L, T]    α_{l,i} for i < l, zero above
    """
    e = np.asarray(embedding, dtype=np.float64)
    T, D = e.shape
    L = len(w_in)
    out = {
        "plain_inputs": np.zeros((L, T, D)),
        "plain_sources": np.zeros((L + 1, T, D)),
        "attn_inputs": np.zeros((L, T, D)),
        "attn_sources": np.zeros((L + 1, T, D)),
        "attn_weights": np.zeros((L, L, T)),
    }
    for t in range(T):
        h = e[t]  # [D] plain: one running sum
        out["plain_sources"][0, t] = e[t]
        for l in range(L):
            out["plain_inputs"][l, t] = h
            f = mlp_sublayer(rms_norm(h, rms_weight, eps), w_in[l], w_out[l])
            out["plain_sources"][l + 1, t] = f
            h = h + f
        sources = [e[t]]  # attention residuals: every earlier output kept apart
        out["attn_sources"][0, t] = e[t]
        for l in range(L):
            x, a = attention_residual(np.stack(sources), queries[l], rms_weight, eps=eps)  # [D], [l + 1]
            out["attn_inputs"][l, t] = x
            out["attn_weights"][l, : l + 1, t] = a
            f = mlp_sublayer(rms_norm(x, rms_weight, eps), w_in[l], w_out[l])
            out["attn_sources"][l + 1, t] = f
            sources.append(f)
    return out


def residual_stack(embedding, w_in, w_out, queries, rms_weight, *, eps=1e-6):
    """`residual_stack_naive`, batched: per layer, one attention_residual call over every token and
    one MLP call over both rules' inputs [2, T, D]. Same arguments, same dict."""
    e = np.asarray(embedding, dtype=np.float64)
    T, D = e.shape
    L = len(w_in)
    plain_in, attn_in = np.zeros((L, T, D)), np.zeros((L, T, D))
    plain_src, attn_src = np.zeros((L + 1, T, D)), np.zeros((L + 1, T, D))
    attn_keys = np.zeros((L + 1, T, D))  # each source's key, normalised once when it is added
    weights = np.zeros((L, L, T))
    plain_src[0] = attn_src[0] = e
    attn_keys[0] = rms_norm(e, rms_weight, eps)
    h = e
    for l in range(L):
        x, a = attention_residual(
            attn_src[: l + 1], queries[l], rms_weight, eps=eps, keys=attn_keys[: l + 1]
        )  # [T, D], [l + 1, T]
        plain_in[l], attn_in[l], weights[l, : l + 1] = h, x, a
        f = mlp_sublayer(rms_norm(np.stack([h, x]), rms_weight, eps), w_in[l], w_out[l])  # [2, T, D]
        plain_src[l + 1], attn_src[l + 1] = f
        attn_keys[l + 1] = rms_norm(f[1], rms_weight, eps)
        h = h + f[0]
    return {
        "plain_inputs": plain_in,
        "plain_sources": plain_src,
        "attn_inputs": attn_in,
        "attn_sources": attn_src,
        "attn_weights": weights,
    }


def _check(depths, target, L):
    depths = [int(l) for l in depths]
    if not all(target < l <= L for l in depths):
        raise ValueError(
            f"every reading layer must lie in {target + 1} … {L} (after the target layer {target}), got {depths}"
        )
    return depths


def depth_experiment(embedding, w_in, w_out, queries, rms_weight, *, depths, target, probe_norm, eps=1e-6):
    """FIG 12b's experiment at the reading layers `depths` (1-indexed, target < l ≤ L).

    Three ways for layer l to read the same kind of stack: "plain" (the PreNorm residual stream),
    "random" (attention residuals with the seeded queries, the general case) and "aligned" (the
    same attention-residual stack, but layer l's own query replaced by retrieval_query of layer
    `target`'s output, with norm `probe_norm`: can one query find that layer?). For each way and
    each l, averaged over the tokens:
      rms [G]               the RMS of what layer l reads
      weights [G] → [l]     each source's coefficient, normalised: 1/l each (plain), α_i (attention)
      shares [G] → [l]      each source's share of ‖h_l‖² (depth_shares)
    plus "query" [D] (the aligned query), "embedding_rms", and the token-mean RMS of e and of each
    layer's output in the attention-residual stack, "source_rms" [L + 1], and in the plain stack,
    "plain_source_rms" [L + 1]."""
    stack = residual_stack(embedding, w_in, w_out, queries, rms_weight, eps=eps)
    depths = _check(depths, target, len(w_in))
    src = stack["attn_sources"]
    keys = rms_norm(src, rms_weight, eps)  # every source's key, for the aligned reads
    query = retrieval_query(src[target], rms_weight, probe_norm, eps=eps)
    result = {k: {"rms": [], "weights": [], "shares": []} for k in ("plain", "random", "aligned")}

    def add(key, h, sources, coeffs, weights):  # h [T, D], sources [l, T, D], coeffs [l, T], weights [l]
        result[key]["rms"].append(stream_rms(h).mean())
        result[key]["weights"].append(weights)
        result[key]["shares"].append(depth_shares(sources, coeffs).mean(axis=1))

    for l in depths:
        plain_src = stack["plain_sources"][:l]  # every coefficient 1, so each weight is 1/l
        add("plain", stack["plain_inputs"][l - 1], plain_src, np.ones(plain_src.shape[:2]), residual_shares(l - 1))
        a = stack["attn_weights"][l - 1, :l]  # [l, T]
        add("random", stack["attn_inputs"][l - 1], src[:l], a, a.mean(axis=1))
        x, a = attention_residual(src[:l], query, rms_weight, eps=eps, keys=keys[:l])  # [T, D], [l, T]
        add("aligned", x, src[:l], a, a.mean(axis=1))
    for k in result:
        result[k]["rms"] = np.array(result[k]["rms"])
    result.update(
        query=query,
        embedding_rms=stream_rms(embedding).mean(),
        source_rms=stream_rms(src).mean(axis=1),
        plain_source_rms=stream_rms(stack["plain_sources"]).mean(axis=1),
    )
    return result


def depth_experiment_naive(embedding, w_in, w_out, queries, rms_weight, *, depths, target, probe_norm, eps=1e-6):
    """The specification of `depth_experiment`: the naive stack, then every number token by token
    and source by source with plain sums. Same arguments, same dict."""
    stack = residual_stack_naive(embedding, w_in, w_out, queries, rms_weight, eps=eps)
    depths = _check(depths, target, len(w_in))
    src = stack["attn_sources"]
    T, D = src.shape[1:]
    m = np.zeros(D)
    for t in range(T):
        m += rms_norm(src[target, t], rms_weight, eps) / T
    query = probe_norm * m / np.sqrt(np.sum(m * m))
    result = {k: {"rms": [], "weights": [], "shares": []} for k in ("plain", "random", "aligned")}
    for l in depths:
        for key in result:
            rms, weights, shares = 0.0, np.zeros(l), np.zeros(l)
            for t in range(T):
                if key == "plain":
                    terms, h = [stack["plain_sources"][i, t] for i in range(l)], stack["plain_inputs"][l - 1, t]
                    c = np.full(l, 1.0 / l)
                elif key == "random":
                    c = stack["attn_weights"][l - 1, :l, t]
                    terms, h = [c[i] * src[i, t] for i in range(l)], stack["attn_inputs"][l - 1, t]
                else:
                    h, c = attention_residual(src[:l, t], query, rms_weight, eps=eps)
                    terms = [c[i] * src[i, t] for i in range(l)]
                rms += np.sqrt(np.mean(h**2)) / T
                weights += c / T
                shares += np.array([np.dot(v, h) for v in terms]) / np.dot(h, h) / T
            result[key]["rms"].append(rms)
            result[key]["weights"].append(weights)
            result[key]["shares"].append(shares)
    for k in result:
        result[k]["rms"] = np.array(result[k]["rms"])

    def mean_rms(vs):  # [S, T, D] → [S]: each source's RMS, averaged over the tokens
        return np.array([sum(np.sqrt(np.mean(v[t] ** 2)) for t in range(T)) / T for v in vs])

    result.update(
        query=query,
        embedding_rms=mean_rms([np.asarray(embedding, dtype=np.float64)])[0],
        source_rms=mean_rms(src),
        plain_source_rms=mean_rms(stack["plain_sources"]),
    )
    return result
