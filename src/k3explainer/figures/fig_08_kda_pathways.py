"""FIG 08 · KDA module pathways: the diagram of one chunk (nodes, edges, shapes and exact update
equations per KERNELS.md §6) and a live demo of gated delta (one α) against KDA (per-channel α).

The diagram is drawing data: positions on a grid, a pathway per element (intra = blue, state =
violet, gate = orange, io = projections and norms). Equations are inline Markdown (`*_md`), which
the pipeline renders with KaTeX at build time. The demo numbers come from `kda`, `kda_chunked`
and `gated_delta_rule` on seeded inputs.
"""
import numpy as np

from k3explainer.kernels import gated_delta_rule, kda, kda_chunked, l2_normalize

COL_W, ROW_H, NODE_W, PAD = 205, 128, 180, 20  # grid of the drawing, in canvas px

# id, column, row, pathway, label, research shape, research equation (inline Markdown)
NODES = [
    ("x", 0, 2, "io", "x: a chunk of C tokens", "[C, d]", "one row per token"),
    ("proj", 1, 1, "io", "Projections W_q, W_k, W_v", "[C, d_k], [C, d_v]", r"$q, k, v = W x$"),
    ("conv", 1, 2, "io", "Short conv + SiLU", "[C, d_k], [C, d_v]", r"$\operatorname{SiLU}(\operatorname{ShortConv}(\cdot))$"),
    ("l2", 1, 3, "io", "L2 norm on q, k", "[C, d_k]", r"$q \leftarrow q/\lVert q\rVert$, $k \leftarrow k/\lVert k\rVert$"),
    ("beta", 1, 0, "io", "Write strength β", "[C]", r"$\sym{kda-beta}{\beta_t} = \sigma(W_\beta x_t)$"),
    ("fproj", 1, 4, "gate", "Gate projection (low rank)", "[C, d_k]", r"$f_t = W_f^{\uparrow} W_f^{\downarrow} x_t$"),
    ("gate", 2, 4, "gate", "Per-channel log-decay g", "[C, d_k]",
     r"$g_t = -e^{A}\operatorname{softplus}(f_t + b)$, $\sym{kda-alpha}{\alpha_t} = e^{g_t}$"),
    ("cumsum", 2, 3, "gate", "Cumulative decay γ, pairwise E", "[C, d_k], [C, C, d_k]",
     r"$\gamma_r = \sum_{s\le r} g_s$, $E_{rc} = e^{\gamma_r - \gamma_c}$"),
    ("sin", 2, 0, "state", "State S from the previous chunk", "[d_k, d_v]", r"$\sym{kda-state}{S}$ entering the chunk"),
    ("ut", 2, 2, "intra", "WY / UT transform", "[C, C]",
     r"$A_{rc} = \beta_r \sum_i k_r[i]k_c[i]E_{rc}[i]$ $(c<r)$, $M = (I + A)^{-1}\operatorname{diag}(\beta)$"),
    ("vp", 3, 2, "intra", "Pseudo-values V′", "[C, d_v]", r"$W = M(e^{\gamma}\odot K)$, $U = MV$, $V' = U - W S$"),
    ("p", 3, 1, "intra", "Masked QKᵀ inside the chunk", "[C, C]",
     r"$P_{rc} = \sum_i s\,q_r[i]\,k_c[i]\,E_{rc}[i]$ $(c \le r)$, $s = d_k^{-1/2}$"),
    ("read", 3, 0, "state", "Every query reads S", "[C, d_v]", r"$(e^{\gamma}\odot sQ)\,S$"),
    ("sum", 4, 1, "io", "Chunk output O", "[C, d_v]", r"$O = (e^{\gamma}\odot sQ)\,S$ $+\,P V'$"),
    ("sout", 4, 0, "state", "Update S once, pass it on", "[d_k, d_v]",
     r"$\sym{kda-state}{S} \leftarrow \operatorname{Diag}(e^{\gamma_C})S$ $+\,(e^{\gamma_C - \gamma}\odot K)^\top V'$"),
    ("ogate", 3, 4, "io", "Output gate (low rank)", "[C, d_v]", r"$\sigma(W_g^{\uparrow} W_g^{\downarrow} x)$"),
    ("norm", 4, 2, "io", "RMSNorm, gated", "[C, d_v]", r"$\sigma(\cdot)\odot\operatorname{RMSNorm}(O)$"),
    ("out", 5, 2, "io", "Output projection W_o", "[C, d]", r"$W_o(\cdot)$"),
]
# from, to, pathway (the colour of the flow)
EDGES = [
    ("x", "proj", "io"), ("x", "beta", "io"), ("x", "fproj", "gate"), ("x", "ogate", "io"),
    ("proj", "conv", "io"), ("conv", "l2", "io"),
    ("l2", "ut", "intra"), ("conv", "ut", "intra"), ("beta", "ut", "intra"), ("l2", "p", "intra"),
    ("ut", "vp", "intra"), ("p", "sum", "intra"), ("vp", "sum", "intra"),
    ("fproj", "gate", "gate"), ("gate", "cumsum", "gate"), ("cumsum", "ut", "gate"), ("cumsum", "p", "gate"),
    ("cumsum", "read", "gate"), ("cumsum", "sout", "gate"),
    ("sin", "read", "state"), ("sin", "vp", "state"), ("sin", "sout", "state"), ("vp", "sout", "state"),
    ("read", "sum", "state"),
    ("sum", "norm", "io"), ("ogate", "norm", "io"), ("norm", "out", "io"),
]
PATHWAYS = [
    ("intra", "Intra-chunk attention"),
    ("state", "Inter-chunk state S"),
    ("gate", "Per-channel gates Diag(α)"),
    ("io", "Projections and norms"),
]


def _diagram():
    nodes = [{"id": i, "x": PAD + c * COL_W, "y": PAD + r * ROW_H, "w": NODE_W, "path": p, "label": lab,
              "shape": shape, "eq_md": eq} for i, c, r, p, lab, shape, eq in NODES]
    ids = {n["id"] for n in nodes}
    for a, b, _ in EDGES:
        if a not in ids or b not in ids:
            raise ValueError(f"edge {a}→{b} names an unknown node")
    width = PAD * 2 + max(c for _, c, *_ in NODES) * COL_W + NODE_W
    height = PAD * 2 + max(r for _, _, r, *_ in NODES) * ROW_H + 100  # room for research-mode nodes
    return {"nodes": nodes, "edges": [{"from": a, "to": b, "path": p} for a, b, p in EDGES],
            "pathways": [{"id": i, "label": lab} for i, lab in PATHWAYS], "width": width, "height": height,
            "row_h": ROW_H}


def _demo(p: dict, chunk: int) -> dict:
    T, d_k, d_v = int(p["n_tokens"]), int(p["d_k"]), int(p["d_v"])
    alphas = np.asarray(p["alpha_channels"], dtype=np.float64)
    if alphas.shape != (d_k,):
        raise ValueError(f"alpha_channels needs d_k = {d_k} values, got {len(alphas)}")
    rng = np.random.default_rng(p["seed"])
    q = l2_normalize(rng.standard_normal((T, d_k)))
    k = l2_normalize(rng.standard_normal((T, d_k)))
    v = rng.standard_normal((T, d_v))
    beta = np.full(T, float(p["beta"]))
    g_scalar = np.full(T, np.log(float(p["alpha_scalar"])))  # one log-decay per token, every channel
    g_channels = np.tile(np.log(alphas), (T, 1))  # [T, d_k], one per channel
    g_equal = np.tile(g_scalar[:, None], (1, d_k))  # KDA fed the scalar gate on every channel

    _, S_gdn = gated_delta_rule(q, k, v, g_scalar, beta)
    _, S_kda = kda(q, k, v, g_channels, beta)
    _, S_kda_equal = kda(q, k, v, g_equal, beta)
    _, S_kda_chunked = kda_chunked(q, k, v, g_channels, beta, chunk_size=chunk)
    return {
        "n_tokens": T, "d_k": d_k, "d_v": d_v, "chunk": chunk,
        "q": q, "k": k, "v": v, "beta": float(p["beta"]),
        "alpha_scalar": float(p["alpha_scalar"]), "alpha_channels": alphas,
        "g_scalar": g_scalar, "g_channels": g_channels, "g_equal": g_equal,
        "S_gdn": S_gdn, "S_kda": S_kda, "S_kda_equal": S_kda_equal,
        "diff_channels": float(np.max(np.abs(S_kda - S_gdn))),
        "diff_equal": float(np.max(np.abs(S_kda_equal - S_gdn))),
        "diff_chunked": float(np.max(np.abs(S_kda_chunked - S_kda))),
    }


def build(params: dict, facts) -> dict:
    chunk = int(params["chunk_tokens"])
    demo_params = {**params["demo"], "d_k": params["d_k"], "d_v": params["d_v"]}
    demo = _demo(demo_params, chunk)
    if demo["n_tokens"] % chunk:
        raise ValueError("demo n_tokens must be a multiple of chunk_tokens (whole chunks)")
    return {
        "diagram": _diagram(),
        "zoom": {"min": float(params["zoom_min"]), "max": float(params["zoom_max"])},
        "production_chunk": facts["kimi_linear.chunk_size"].display,
        "demo": demo,
        "provenance": {
            "kernels": ["k3explainer.kernels.gated_delta_rule", "k3explainer.kernels.kda",
                        "k3explainer.kernels.kda_chunked", "k3explainer.kernels.l2_normalize"],
            "inputs": (f"q, k: [{demo['n_tokens']}, {demo['d_k']}] unit rows, v: [{demo['n_tokens']}, {demo['d_v']}], "
                       "standard normal from numpy default_rng(seed); β and α constant over tokens (spec params)"),
            "seed": params["demo"]["seed"],
            "illustrative": "diagram and demo sizes are small for drawing; gate values hand-picked",
        },
    }
