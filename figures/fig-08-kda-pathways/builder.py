"""FIG 08 · KDA module pathways: the diagram of one chunk (nodes, edges, shapes and exact update
equations per docs/kernels.md §6) and a live demo of gated delta (one α) against KDA (per-channel α).

The diagram is drawing data: positions on a grid, a pathway per element (intra = blue, state =
violet, gate = orange, io = projections and norms). Equations are inline Markdown (`*_md`), which
the pipeline renders to MathML at build time. The demo numbers come from `kda`, `kda_chunked`
and `gated_delta_rule` on seeded inputs.
"""

import re
from typing import Annotated

import numpy as np
from pydantic import BaseModel, ConfigDict, Field

from k3explainer.kernels import gated_delta_rule, kda, kda_chunked, l2_normalize
from k3explainer.site.readertext import fixed, sci


class Demo(BaseModel):
    model_config = ConfigDict(extra="forbid")
    seed: int  # q, k, v from default_rng(seed)
    n_tokens: int = Field(ge=1)  # T: a whole number of chunks (build checks n_tokens % chunk_tokens == 0)
    beta: float = Field(gt=0, le=1)  # write strength β = σ(·), the same for every token
    alpha_scalar: float = Field(gt=0, le=1)  # Gated DeltaNet's one decay α for every channel (log taken: > 0)
    alpha_channels: list[Annotated[float, Field(gt=0, le=1)]]  # KDA's α per key channel: exactly d_k values


class Params(BaseModel):
    model_config = ConfigDict(extra="forbid")
    chunk_tokens: int = Field(ge=1)  # C: tokens per chunk, for kda_chunked and the diagram's "C"
    d_k: int = Field(ge=1)  # key channels of the demo's state (and its number of per-channel gates)
    d_v: int = Field(ge=1)  # value channels: the demo's states are d_k × d_v
    zoom_min: float = Field(gt=0, le=1)  # the diagram's camera zoom range; it opens at zoom 1, so min ≤ 1 ≤ max
    zoom_max: float = Field(ge=1)
    demo: Demo  # the live demo: scalar gate (gated delta) vs per-channel gates (KDA) on one seeded input


# Two grids of the same diagram, both read by the lane router (static/js/widgets/86-lanes.js):
# "wide" flows left to right (layer = column, track = row), "tall" flows top to bottom for phones
# (layer = row, track = column). Every edge must go one layer forward, or to the neighbouring track
# within its layer; an edge that skips layers names the track channel it travels in (`via`: channel k
# lies before track k, so 0 is the outer margin and n_tracks the far one). Sizes in canvas px: the
# tall grid is narrow enough that, fitted to a 390 px phone, its 12.5 px labels stay above 11 px; in
# research mode a wide column grows from node_w only as far as its widest equation piece needs (at
# most node_w_research), so the canvas fitted to a 1280 px desktop keeps its equations above 11 px.
# `port`: wires into one box arrive at least this far apart (the box grows if it must), so their
# 10 px arrowheads never touch. The cells and channels are chosen so wires cross as little as the
# graph allows (the router also orders each channel's lanes to cross least).
LAYOUTS = {
    "wide": {
        "flow": "right",
        "tracks": 5,
        "node_w": 150,
        "node_w_research": 220,
        "min_width": 700,
        "gap": 26,
        "lane": 9,
        "port": 15,
    },
    "tall": {
        "flow": "down",
        "tracks": 3,
        "node_w": 96,
        "node_w_research": 96,
        "min_width": 0,
        "gap": 18,
        "lane": 7,
        "port": 15,
    },
}
# id, (wide layer, track), (tall layer, track), pathway, label, research shape, research equation (inline Markdown)
NODES = [
    ("x", (0, 4), (0, 1), "io", "x: a chunk of C tokens", "[C, d]", "one row per token"),
    ("proj", (1, 1), (1, 1), "io", "Projections W_q, W_k, W_v", "[C, d_k], [C, d_v]", r"$q, k, v = W x$"),
    (
        "conv",
        (1, 2),
        (2, 1),
        "io",
        "Short conv + SiLU",
        "[C, d_k], [C, d_v]",
        r"$\operatorname{SiLU}(\operatorname{ShortConv}(\cdot))$",
    ),
    (
        "l2",
        (1, 3),
        (3, 1),
        "io",
        "L2 norm on q, k",
        "[C, d_k]",
        r"$q \leftarrow q/\lVert q\rVert$, $k \leftarrow k/\lVert k\rVert$",
    ),
    ("beta", (1, 0), (0, 0), "io", "Write strength β", "[C]", r"$\sym{kda-beta}{\beta_t} = \sigma(W_\beta x_t)$"),
    (
        "fproj",
        (1, 4),
        (1, 2),
        "gate",
        "Gate projection (low rank)",
        "[C, d_k]",
        r"$f_t = W_f^{\uparrow} W_f^{\downarrow} x_t$",
    ),
    (
        "gate",
        (2, 4),
        (2, 2),
        "gate",
        "Per-channel log-decay g",
        "[C, d_k]",
        r"$g_t = -e^{A}\operatorname{softplus}(f_t + b)$, $\sym{kda-alpha}{\alpha_t} = e^{g_t}$",
    ),
    (
        "cumsum",
        (2, 3),
        (3, 2),
        "gate",
        "Cumulative decay γ, pairwise E",
        "[C, d_k], [C, C, d_k]",
        r"$\gamma_r = \sum_{s\le r} g_s$, $E_{rc} = e^{\gamma_r - \gamma_c}$",
    ),
    (
        "sin",
        (3, 1),
        (4, 0),
        "state",
        "State S from the previous chunk",
        "[d_k, d_v]",
        r"$\sym{kda-state}{S}$ entering the chunk",
    ),
    (
        "ut",
        (2, 2),
        (4, 1),
        "intra",
        "WY / UT transform",
        "[C, C]",
        r"$A_{rc} = \beta_r \sum_i k_r[i]k_c[i]E_{rc}[i]$ $(c<r)$, $M = (I + A)^{-1}\operatorname{diag}(\beta)$",
    ),
    (
        "vp",
        (4, 1),
        (5, 0),
        "intra",
        "Pseudo-values V′",
        "[C, d_v]",
        r"$W = M(e^{\gamma}\odot K)$, $U = MV$, $V' = U - W S$",
    ),
    (
        "p",
        (3, 3),
        (5, 1),
        "intra",
        "Masked QKᵀ inside the chunk",
        "[C, C]",
        r"$P_{rc} = \sum_i s\,q_r[i]\,k_c[i]\,E_{rc}[i]$ $(c \le r)$, $s = d_k^{-1/2}$",
    ),
    ("read", (3, 2), (6, 1), "state", "Every query reads S", "[C, d_v]", r"$(e^{\gamma}\odot sQ)\,S$"),
    ("sum", (4, 2), (6, 0), "io", "Chunk output O", "[C, d_v]", r"$O = (e^{\gamma}\odot sQ)\,S$ $+\,P V'$"),
    (
        "sout",
        (4, 0),
        (8, 0),
        "state",
        "Update S once, pass it on",
        "[d_k, d_v]",
        r"$\sym{kda-state}{S} \leftarrow \operatorname{Diag}(e^{\gamma_C})S$ $+\,(e^{\gamma_C - \gamma}\odot K)^\top V'$",
    ),
    (
        "ogate",
        (4, 4),
        (8, 2),
        "io",
        "Output gate (low rank)",
        "[C, d_v]",
        r"$\sigma(W_g^{\uparrow} W_g^{\downarrow} x)$",
    ),
    ("norm", (4, 3), (8, 1), "io", "RMSNorm, gated", "[C, d_v]", r"$\sigma(\cdot)\odot\operatorname{RMSNorm}(O)$"),
    ("out", (5, 3), (9, 1), "io", "Output projection W_o", "[C, d]", r"$W_o(\cdot)$"),
]
# from, to, pathway (the colour of the flow), track channel per layout for edges that skip layers
EDGES = [
    ("x", "proj", "io"),
    ("x", "beta", "io"),
    ("x", "fproj", "gate"),
    ("x", "ogate", "io", {"wide": 5, "tall": 3}),
    ("proj", "conv", "io"),
    ("conv", "l2", "io"),
    ("l2", "ut", "intra"),
    ("conv", "ut", "intra", {"tall": 1}),
    ("beta", "ut", "intra", {"tall": 1}),
    ("l2", "p", "intra", {"wide": 4, "tall": 2}),
    ("ut", "vp", "intra", {"wide": 2}),
    ("p", "sum", "intra"),
    ("vp", "sum", "intra"),
    ("fproj", "gate", "gate"),
    ("gate", "cumsum", "gate"),
    ("cumsum", "ut", "gate"),
    ("cumsum", "p", "gate", {"tall": 2}),
    ("cumsum", "read", "gate", {"tall": 2}),
    ("cumsum", "sout", "gate", {"wide": 0, "tall": 2}),
    ("sin", "read", "state", {"tall": 1}),
    ("sin", "vp", "state"),
    ("sin", "sout", "state", {"tall": 0}),
    ("vp", "sout", "state", {"tall": 0}),
    ("read", "sum", "state"),
    ("sum", "norm", "io", {"tall": 1}),
    ("ogate", "norm", "io"),
    ("norm", "out", "io"),
]
# id, chip label, what the pathway does (the stepper's narration, after its node list); in stepping order
PATHWAYS = [
    (
        "gate",
        "Per-channel gates Diag(α)",
        "Each token gets its own decay for every key channel; summed along the chunk, these decays discount "
        "both the products inside the chunk and the state.",
    ),
    (
        "intra",
        "Intra-chunk attention",
        "Inside the chunk, queries meet the keys at or before them through a masked C × C product, and the "
        "WY / UT transform solves the chunk's delta-rule corrections in one step.",
    ),
    (
        "state",
        "Inter-chunk state S",
        "The d_k × d_v state carries everything before the chunk: every query reads it, and it is decayed "
        "and written once, at the chunk's end.",
    ),
    (
        "io",
        "Projections and norms",
        "The plumbing around the update: projections, short convolution and L2 norm make q, k, v and β; "
        "the output gate, RMSNorm and W_o finish the output.",
    ),
]


def _place(layout: str) -> dict:
    """Check a layout's grid: one node per cell, edges forward by one layer or across to the
    neighbouring track, a named channel for every edge that skips layers."""
    spec, idx = LAYOUTS[layout], 1 if layout == "wide" else 2
    where = {n[0]: n[idx] for n in NODES}
    if len(set(where.values())) != len(where):
        raise ValueError(f"{layout}: two nodes share a cell")
    if any(not 0 <= t < spec["tracks"] for _, t in where.values()):
        raise ValueError(f"{layout}: a node lies outside the {spec['tracks']} tracks")
    for a, b, _, *via in EDGES:
        (la, ta), (lb, tb) = where[a], where[b]
        ch = (via[0] if via else {}).get(layout)
        if la == lb and abs(ta - tb) == 1 and ch is None:
            continue
        if lb == la + 1 and ch is None:
            continue
        if lb > la + 1 and ch is not None and 0 <= ch <= spec["tracks"]:
            continue
        raise ValueError(f"{layout}: edge {a}→{b} cannot be routed in lanes ({where[a]} → {where[b]}, via {ch})")
    return where


def shape_parts(shape: str) -> list[str]:
    """A node's tensor shapes in the pieces a line may break between: "[C, d_k], [C, d_v]" →
    ["[C, d_k],", "[C, d_v]"] (after a tensor's comma, never inside its brackets)."""
    parts = re.split(r"(?<=\]),\s*", shape)
    return [part + "," for part in parts[:-1]] + parts[-1:]


def _pathway_texts(step: int, pathway: str, label: str, story: str) -> dict:
    """What the story line and the live region say of one pathway (its step, counted from 1): the
    story line's head and the names of its boxes, and what is said when it is stepped to, hidden,
    shown again or shown alone."""
    n_nodes = sum(n[3] == pathway for n in NODES)
    n_edges = sum(e[2] == pathway for e in EDGES)
    count = f"{n_nodes} nodes and {n_edges} edges"
    return {
        "head": f"Pathway {step} of {len(PATHWAYS)}: {label}",
        "nodes": " · ".join(n[4] for n in NODES if n[3] == pathway) + ". ",  # the story follows on the line
        "describe": f"Pathway {step} of {len(PATHWAYS)}, {label}: {count}. {story}",
        "hidden": f"{label} hidden: {count}.",
        "shown": f"{label} shown: {count}.",
        "only": f"Only {label}: {count}.",
    }


def _diagram():
    ids = {n[0] for n in NODES}
    for a, b, *_ in EDGES:
        if a not in ids or b not in ids:
            raise ValueError(f"edge {a}→{b} names an unknown node")
    grids = {name: _place(name) for name in LAYOUTS}
    nodes = [
        {
            "id": i,
            "path": p,
            "label": lab,
            "shape": shape,
            "shape_parts": shape_parts(shape),
            "eq_md": eq,
            "grid": {name: list(grids[name][i]) for name in LAYOUTS},
        }
        for i, _, _, p, lab, shape, eq in NODES
    ]
    edges = [{"from": a, "to": b, "path": p, "via": (via[0] if via else {})} for a, b, p, *via in EDGES]
    return {
        "nodes": nodes,
        "edges": edges,
        "layouts": LAYOUTS,
        "pathways": [
            {"id": i, "label": lab, "story": story, **_pathway_texts(k, i, lab, story)}
            for k, (i, lab, story) in enumerate(PATHWAYS, start=1)
        ],
    }


def _figure_texts(zoom_min: float, zoom_max: float) -> dict:
    """The toolbar's and the diagram's words, and what the live region says of a view or mode."""
    n = len(PATHWAYS)
    return {
        "stepper": "Step through the pathways",
        "walk": "the walk through the pathways",  # the Play button's name: "Play or pause …"
        "step_label": ["All pathways"] + [f"{k} / {n} · {lab}" for k, (_, lab, _) in enumerate(PATHWAYS, start=1)],
        "chip_title": "Toggle; Shift-click or Shift+Enter shows only this pathway",
        "viewport": "KDA chunk diagram. Arrow keys pan; plus and minus zoom; 0 fits it to the width again.",
        "zoom_out": "Zoom out",
        "zoom_in": "Zoom in",
        "fit": "Fit: reset pan and zoom",
        # the zoom in whole per cent, for every level the view can take (index: per cent − the first)
        "zoom_level": [f"{p}%" for p in range(round(100 * zoom_min), round(100 * zoom_max) + 1)],
        "zoom_level_from": round(100 * zoom_min),
        "all_pathways": {
            "head": f"All {n} pathways",
            "text": "Step through them one at a time with ▶ or Play; each lights its boxes and the wires drawn in its colour.",
            "describe": "All pathways shown together.",
        },
        "every_shown": "Showing every pathway.",
        "research_on": "Research mode on: every node shows its tensor shape and the equation it computes.",
        "research_off": "Research mode off.",
        "view": {
            "fitted": "View fitted to the width.",
            "zoom": "Zoom {level}.",
            "panned": "Panned the diagram.",
            **{f"panned_{way}": f"Panned {way}." for way in ("right", "left", "down", "up")},
        },
    }


def _demo_texts(demo: dict, production_chunk: str) -> dict:
    """The live demo's words, keyed by the `equal` switch where they differ: "channels" (KDA's own
    per-channel gates) or "equal" (every channel given the scalar gate)."""
    T, chunk, d_k, scalar = demo["n_tokens"], demo["chunk"], demo["d_k"], fixed(demo["alpha_scalar"], 2)
    diff = {"channels": demo["diff_channels"], "equal": demo["diff_equal"]}
    channels = [fixed(a, 2) for a in demo["alpha_channels"]]
    return {
        "heading": f"Live demo: the same {T} tokens, two gates",
        "note_lead": "Unit keys and queries, ",
        "beta": f"β = {fixed(demo['beta'], 2)}",
        "note_tail": f", {T // chunk} chunks of C = {chunk} (production: {production_chunk}).",
        "caption_gdn": "S, Gated DeltaNet (one α)",
        "caption_kda": {"channels": "S, KDA (α per channel)", "equal": f"S, KDA (every channel α = {scalar})"},
        "scalar_label": "Gated DeltaNet α",
        "scalar": f"{scalar} on all {d_k}",
        "channels_label": f"KDA α, channels 1–{d_k}",
        "alpha": {"channels": channels, "equal": [scalar] * d_k},
        "diff_lead": "Largest difference between the two states: ",
        "diff": {key: fixed(d, 3) for key, d in diff.items()},
        "verdict": {
            key: " — identical: equal channel gates make KDA exactly Gated DeltaNet. "
            if d == 0
            else " — per-channel decay keeps some rows and fades others. "
            for key, d in diff.items()
        },
        "chunked_lead": f"The chunked form of KDA with the per-channel gates (C = {chunk}) gives the same state to ",
        "chunked_diff": sci(demo["diff_chunked"], 0),
        "chunked_tail": ".",
        "describe": {
            "equal": f"All channel gates set to {scalar}: KDA's state equals Gated DeltaNet's, largest difference "
            f"{fixed(diff['equal'], 3)}.",
            "channels": f"Per-channel gates {', '.join(channels)}: the states differ by up to {fixed(diff['channels'], 3)}.",
        },
    }


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
        "n_tokens": T,
        "d_k": d_k,
        "d_v": d_v,
        "chunk": chunk,
        "q": q,
        "k": k,
        "v": v,
        "beta": float(p["beta"]),
        "alpha_scalar": float(p["alpha_scalar"]),
        "alpha_channels": alphas,
        "g_scalar": g_scalar,
        "g_channels": g_channels,
        "g_equal": g_equal,
        "S_gdn": S_gdn,
        "S_kda": S_kda,
        "S_kda_equal": S_kda_equal,
        "diff_channels": float(np.max(np.abs(S_kda - S_gdn))),
        "diff_equal": float(np.max(np.abs(S_kda_equal - S_gdn))),
        "diff_chunked": float(np.max(np.abs(S_kda_chunked - S_kda))),
        # one colour scale for the demo's grids: a colour means the same value in each
        "heat_scale": float(max(np.max(np.abs(S)) for S in (S_gdn, S_kda, S_kda_equal))),
    }


def build(params: dict, facts) -> dict:
    chunk = int(params["chunk_tokens"])
    demo_params = {**params["demo"], "d_k": params["d_k"], "d_v": params["d_v"]}
    demo = _demo(demo_params, chunk)
    if demo["n_tokens"] % chunk:
        raise ValueError("demo n_tokens must be a multiple of chunk_tokens (whole chunks)")
    production_chunk = facts["kimi_linear.chunk_size"].display
    zoom_min, zoom_max = float(params["zoom_min"]), float(params["zoom_max"])
    return {
        "diagram": _diagram(),
        "zoom": {"min": zoom_min, "max": zoom_max},
        "production_chunk": production_chunk,
        "demo": {**demo, "text": _demo_texts(demo, production_chunk)},
        "text": _figure_texts(zoom_min, zoom_max),
        "provenance": {
            "kernels": [
                "k3explainer.kernels.gated_delta_rule",
                "k3explainer.kernels.kda",
                "k3explainer.kernels.kda_chunked",
                "k3explainer.kernels.l2_normalize",
            ],
            "inputs": (
                f"q, k: [{demo['n_tokens']}, {demo['d_k']}] unit rows, v: [{demo['n_tokens']}, {demo['d_v']}], "
                "standard normal from numpy default_rng(seed); β and α constant over tokens (spec params)"
            ),
            "seed": params["demo"]["seed"],
            "illustrative": "diagram and demo sizes are small for drawing; gate values hand-picked",
        },
    }
