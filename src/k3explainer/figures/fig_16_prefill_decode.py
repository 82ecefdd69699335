"""FIG 16 · Prefill versus decode: what one layer of each mechanism computes, reads and keeps in
each phase, for a context of N tokens (N on a power-of-two grid, so the slider moves by index).

Every count is `mechanism_costs(mechanism, phase, N, ...)` for one layer; the bar lengths are the
same counts placed on a shared log scale per quantity, so bars compare across mechanisms, phases
and lengths.
"""
import numpy as np

from k3explainer.kernels import mechanism_costs

MECHANISMS = {
    "softmax": {"label": "Softmax + KV cache", "short": "Softmax", "memory": "cache", "sym": "kv-cache"},
    "kda": {"label": "Linear / KDA state", "short": "KDA", "memory": "square", "sym": "kda-state"},
    "mla": {"label": "MLA latent cache", "short": "MLA", "memory": "strip", "sym": "mla-latent"},
    "hybrid": {"label": "Hybrid 3:1", "short": "Hybrid", "memory": "mixed", "sym": None},
}
PHASES = {"prefill": "Prefill", "decode": "Decode"}
QUANTITIES = {"flops": "FLOPs", "reads": "elements", "kept": "elements", "peak": "elements"}

# What happens, in words, per mechanism and phase: (glyph for the computed region, computed, read, kept)
STORY = {
    ("softmax", "prefill"): ("triangle",
        "The masked N×N score matrix of every head, then the weighted sum of values, in large tiled matrix multiplies.",
        "The queries, keys and values of all N prompt tokens, and the scores read back once they are stored.",
        "Keys and values of every token for every head: the KV cache."),
    ("softmax", "decode"): ("row",
        "One row of scores: the new query against all N cached keys, then a mix of N values.",
        "The whole KV cache, every key and every value, for one new token.",
        "The KV cache, one token longer."),
    ("kda", "prefill"): ("chunks",
        "Chunks of C tokens: small attention-like blocks inside each chunk, and state updates between chunks.",
        "The queries, keys, values and gates of every prompt token.",
        "One d×d state per head, whatever the prompt length."),
    ("kda", "decode"): ("square",
        "Decay the state, read it with the key, correct it by the error, then read it with the query.",
        "The d×d state of every head: the same amount at any context length.",
        "The updated state, written back in place."),
    ("mla", "prefill"): ("triangle",
        "Keys and values rebuilt from the latents, then ordinary masked attention over all N tokens.",
        "The prompt's queries, keys and values, and its compressed latents.",
        "One small latent vector per token, shared by all heads."),
    ("mla", "decode"): ("row",
        "Absorbed form: the new query scores the cached latents directly; no keys or values are rebuilt.",
        "The latent cache: every past token's latent.",
        "The latent cache, one latent longer."),
    ("hybrid", "prefill"): ("mixed",
        "Three layers in four run chunked KDA; the fourth runs MLA's quadratic attention (counts are the per-layer average).",
        "Each layer's inputs: queries, keys, values, gates, and latents in the MLA layers.",
        "Fixed states in the KDA layers, growing latent caches in the MLA layers."),
    ("hybrid", "decode"): ("mixed",
        "KDA layers update their states; MLA layers score their latent caches (per-layer average).",
        "Fixed states in three layers of four, the latent cache in the fourth.",
        "The same states, and latent caches one token longer."),
}


def n_grid(n_min: int, n_max: int) -> np.ndarray:
    octaves = np.log2(n_max / n_min)
    if n_min < 1 or not float(octaves).is_integer():
        raise ValueError(f"n_tokens_max / n_tokens_min must be a power of two, got {n_max} / {n_min}")
    return n_min * 2 ** np.arange(int(octaves) + 1)


def log_bars(values: list[np.ndarray]) -> tuple[float, float]:
    """A shared log10 scale (lo, hi) for one quantity, with room so the smallest bar is visible."""
    logs = np.log10(np.concatenate([v.ravel() for v in values]))
    return float(np.floor(logs.min()) - 0.5), float(np.ceil(logs.max()))


def build(params: dict, facts) -> dict:
    mechanisms, phases = list(params["mechanisms"]), list(params["phases"])
    if set(mechanisms) - set(MECHANISMS) or set(phases) - set(PHASES):
        raise ValueError(f"mechanisms must be among {list(MECHANISMS)} and phases among {list(PHASES)}")
    if params["hybrid_kda_per_mla"] != 3:
        raise ValueError("costs.mechanism_costs models the 3:1 hybrid only")
    N = n_grid(int(params["n_tokens_min"]), int(params["n_tokens_max"]))
    if params["n_tokens"] not in N:
        raise ValueError(f"n_tokens {params['n_tokens']} is not a power-of-two step from n_tokens_min")
    consts = dict(d_h=params["d_h"], heads=params["n_heads"], d_c=params["d_c"], C=params["chunk_size"])
    costs = {m: {p: mechanism_costs(m, p, N.astype(np.float64), **consts) for p in phases} for m in mechanisms}

    scales = {q: log_bars([costs[m][p][q] for m in mechanisms for p in phases]) for q in ("flops", "reads", "kept")}
    bars = {m: {p: {q: (np.log10(costs[m][p][q]) - lo) / (hi - lo) for q, (lo, hi) in scales.items()}
                for p in phases} for m in mechanisms}
    return {
        "n": N,
        "n_default_index": int(np.flatnonzero(N == params["n_tokens"])[0]),
        "constants": consts,  # the kernel's inputs, so tests can recompute every count
        "units": QUANTITIES,
        "mechanisms": [{"key": m, **MECHANISMS[m]} for m in mechanisms],
        "phases": [{"key": p, "label": PHASES[p]} for p in phases],
        "values": {m: {p: {q: costs[m][p][q] for q in QUANTITIES} for p in phases} for m in mechanisms},
        "bars": {m: {p: {q: np.round(b, 4) for q, b in bars[m][p].items()} for p in phases} for m in mechanisms},
        "story": {m: {p: dict(zip(("glyph", "computed", "read", "kept"), STORY[m, p])) for p in phases}
                  for m in mechanisms},
        "constants_md": (f"$d_h = {params['d_h']}$, {params['n_heads']} heads, $d_c = {params['d_c']}$, "
                         f"$C = {params['chunk_size']}$; counts per layer, in elements and FLOPs, not bytes or seconds"),
        "provenance": {
            "kernels": ["k3explainer.kernels.mechanism_costs"],
            "inputs": (f"N = {N[0]} … {N[-1]} (powers of two); d_h = {params['d_h']}, heads = {params['n_heads']}, "
                       f"d_c = {params['d_c']}, C = {params['chunk_size']}; one layer (the hybrid is the 3:1 per-layer average)"),
            "seed": "none: closed-form counts, no random inputs",
            "illustrative": "demo model sizes and context lengths; counts are exact for those constants",
        },
    }
