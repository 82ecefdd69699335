"""FIG 05 · Re-association: causal linear attention through the N×N matrix and through the d×d state.

Both orders come from `linear_attention` (parallel = masked (φQ φKᵀ)V, recurrent = running state
S_t = Σ_{s≤t} φ(k_s) v_sᵀ); the N×N middle and each prefix state S_t from `reassociate`; the
multiply-add counts, for this N and for longer sequences, from `reassociation_costs`.
"""

from typing import Literal

import numpy as np
from pydantic import BaseModel, ConfigDict, Field

from k3explainer.kernels import elu_plus_one, linear_attention, reassociate, reassociation_costs
from k3explainer.site.readertext import fixed, integer, sci

GROWTH_N = [8, 1024, 1_048_576]  # sequence lengths for the "as N grows" readout


class Params(BaseModel):
    model_config = ConfigDict(extra="forbid")
    n_tokens: int = Field(ge=2)  # N: the N×N matrix is drawn whole, so keep it small
    d: int = Field(ge=1)  # key width: the state is d × d_v
    d_v: int = Field(ge=1)
    seed: int  # Q, K, V from default_rng(seed)
    feature_map: Literal["elu_plus_one"] = "elu_plus_one"  # the only φ the figure draws
    causal: Literal[True] = True  # the figure draws the masked form


def build(params: dict, facts) -> dict:
    N, d, d_v = int(params["n_tokens"]), int(params["d"]), int(params["d_v"])
    rng = np.random.default_rng(params["seed"])
    q, k = rng.standard_normal((2, N, d))  # raw queries and keys [N, d]
    v = rng.standard_normal((N, d_v))
    phi_q, phi_k = elu_plus_one(q), elu_plus_one(k)

    out_parallel = linear_attention(phi_q, phi_k, v, form="parallel")  # (φQ φKᵀ ⊙ C) V
    out_recurrent = linear_attention(phi_q, phi_k, v, form="recurrent")  # S_t read by φ(q_t)
    # the normaliser φ(q_t)·z_t regroups the same way, so the normalised orders agree too (§05 says so)
    normalised = [linear_attention(phi_q, phi_k, v, form=f, normalize=True) for f in ("parallel", "recurrent")]
    full = reassociate(phi_q, phi_k, v)
    scores = np.tril(full["scores"])  # the causal N×N middle: row t sees keys s ≤ t
    # state after token t: the whole d×d middle of the prefix 1..t (what φ(q_t) multiplies)
    states = np.stack([reassociate(phi_q[: t + 1], phi_k[: t + 1], v[: t + 1])["state"] for t in range(N)])
    costs = reassociation_costs(np.array(GROWTH_N), d, d_v)
    here = reassociation_costs(N, d, d_v)
    madds = {
        "quadratic": int(here["madds_quadratic_causal"]),
        "quadratic_unmasked": int(here["madds_quadratic"]),
        "linear": int(here["madds_linear"]),
    }
    growth = {
        "n": GROWTH_N,
        "middle_quadratic": costs["middle_quadratic"],
        "middle_linear": costs["middle_linear"],
        "madds_quadratic": costs["madds_quadratic"],
        "madds_linear": costs["madds_linear"],
        # the memory chart's log axis: every third power of ten, from 1 to the first at or above the largest N²
        "y_ticks": [10**e for e in range(0, 3 * int(np.ceil(np.log10(max(costs["middle_quadratic"])) / 3)) + 1, 3)],
    }
    max_diff = float(np.max(np.abs(out_parallel - out_recurrent)))
    row_diff = np.abs(out_parallel - out_recurrent).max(axis=1)
    return {
        "n": N,
        "d": d,
        "d_v": d_v,
        "phi_q": phi_q,
        "phi_k": phi_k,
        "v": v,
        "scores": scores,
        "states": states,
        "out_parallel": out_parallel,
        "out_recurrent": out_recurrent,
        "max_diff": max_diff,
        # the difference strip: the largest |Δ| in each output row, and the outputs' largest |value|,
        # the one colour scale both are drawn on (so the strip shows how little there is to see)
        "row_diff": row_diff,
        "out_scale": float(np.max(np.abs(out_parallel))),
        "max_diff_normalised": float(np.max(np.abs(normalised[0] - normalised[1]))),
        # the figure draws the masked middle, so it counts the masked product (and names the unmasked one)
        "madds": madds,
        "growth": growth,
        # what the figure says, written here (readertext) so a test reads it against the numbers above
        "text": _texts(N, d, d_v, madds, max_diff, float(np.max(np.abs(out_parallel)))),
        "growth_text": _growth_texts(growth, d),
        "row_diff_text": [sci(x) for x in row_diff],
        "rows_text": [_row_texts(N, d, d_v, t, scores[t], states[t]) for t in range(N)],
        "views": {
            order: [_view(order, N, d, d_v, t, out_parallel[t], madds, max_diff) for t in range(N)]
            for order in ("matrix", "state")
        },
        "provenance": {
            "kernels": [
                "k3explainer.kernels.elu_plus_one",
                "k3explainer.kernels.linear_attention (form='parallel' and form='recurrent', scale 1; drawn without the normaliser, checked with it)",
                "k3explainer.kernels.reassociate (N×N middle, prefix states)",
                "k3explainer.kernels.reassociation_costs",
            ],
            "inputs": f"q, k: [{N}, {d}], v: [{N}, {d_v}], standard normal from numpy default_rng(seed); φ = elu + 1",
            "seed": params["seed"],
            "illustrative": "demo sizes; the identity holds for any sizes",
        },
    }


SUPERSCRIPT = str.maketrans("−0123456789", "⁻⁰¹²³⁴⁵⁶⁷⁸⁹")


def power(x: float) -> str:
    """1.8e-15 → "1.8 × 10⁻¹⁵": a rounding error where a reader, not a test, is the audience."""
    text = sci(x)
    if "e" not in text:
        return text
    mantissa, exponent = text.split("e")
    return f"{mantissa} × 10{exponent.translate(SUPERSCRIPT)}"


def _texts(N: int, d: int, d_v: int, madds: dict, max_diff: float, out_scale: float) -> dict:
    """The figure's texts that do not depend on the query row."""
    return {
        "madds_quadratic": integer(madds["quadratic"]),
        "madds_unmasked": f" ({integer(madds['quadratic_unmasked'])} unmasked)",
        "madds_linear": integer(madds["linear"]),
        "out_caption": {
            "matrix": "Output (φQ φKᵀ ⊙ mask) V, through the matrix",
            "state": "Output φQ (φKᵀ V), through the state",
        },
        "diff_lead": "Largest difference between the two orders, ",
        "max_diff": power(max_diff),
        "diff_tail": f". The |Δ| strip uses the outputs' colour scale (up to {fixed(out_scale, 1)}), so it stays "
        "blank: the regrouping is exact, and only floating-point rounding differs.",
        "chart_head": "Entries held between the two products",
    }


def _growth_texts(growth: dict, d: int) -> dict:
    """The memory chart's label, ticks and points, and the table of its numbers."""
    n, quadratic, linear = growth["n"], growth["middle_quadratic"], growth["middle_linear"]
    held = ", ".join(f"{integer(q)} at N = {integer(m)}" for q, m in zip(quadratic, n, strict=True))
    return {
        "chart_label": "Entries held against sequence length N, both axes logarithmic: the N×N matrix holds "
        f"{held}; the state holds {integer(linear[0])} at every N.",
        "y_ticks": [f"10{str(round(np.log10(v))).translate(SUPERSCRIPT)}" for v in growth["y_ticks"]],
        "n": [integer(m) for m in n],
        "points": {
            key: [f"{label}, N = {integer(m)}: {integer(v)} entries" for m, v in zip(n, growth[key], strict=True)]
            for key, label in (("middle_quadratic", "N×N matrix"), ("middle_linear", "d×d state"))
        },
        "caption": f"As N grows (unmasked product, d = {d})",
        "rows": [
            [
                integer(growth[key][i])
                for key in ("middle_quadratic", "middle_linear", "madds_quadratic", "madds_linear")
            ]
            for i in range(len(n))
        ],
    }


def _row_texts(N: int, d: int, d_v: int, t: int, scores: np.ndarray, state: np.ndarray) -> dict:
    """What the matrix and the state say with query row t chosen (t from 0)."""
    q = t + 1
    entries = ", ".join(fixed(x, 1) for x in scores[:q])
    values = "; ".join(", ".join(fixed(x, 2) for x in row) for row in state)
    return {
        "query": f"Query row {q}",
        "matrix_label": f"{N} by {N} causal matrix of φ(q_t)·φ(k_s); row {q} has {q} visible entries: {entries}.",
        "state_label": f"{d} by {d_v} state S after token {q}, the sum of φ(k_s)v_sᵀ over s ≤ {q}: {values}.",
    }


def _view(order: str, N: int, d: int, d_v: int, t: int, out: np.ndarray, madds: dict, max_diff: float) -> dict:
    """With query row t chosen in one order: the caption under the middle, and the narration when
    the row moved (`said`: what this one row costs and reads) or the order toggled (`said_toggle`:
    the counts for all N queries)."""
    q, output = t + 1, ", ".join(fixed(x, 3) for x in out)
    if order == "state":
        return {
            "caption": f"State S after token {q}: {d}×{d_v} = {d * d_v} entries, the same size for any N; the dashed "
            f"square is the {N}×{N} matrix it replaces.",
            "said": f"Query {q} multiplies the {d}×{d_v} state after token {q}; output {output}.",
            "said_toggle": f"Re-associated: the {N}×{N} matrix folds into the {d}×{d_v} state, "
            f"{integer(madds['linear'])} multiply-adds for all {N} queries; query {q} gives {output}, the same as "
            f"the N×N order to {power(max_diff)}.",
        }
    reads = f"its first {q} entries (the mask hides the rest)" if q < N else f"all {N} entries"
    return {
        "caption": f"Causal matrix: {N}×{N} = {N * N} entries; row {q} uses {q}.",
        "said": f"Query {q} reads row {q} of the {N}×{N} matrix, {reads}; output {output}.",
        "said_toggle": f"Unfolded: the {N}×{N} matrix, {integer(madds['quadratic'])} multiply-adds for all {N} rows "
        f"with the mask ({integer(madds['quadratic_unmasked'])} without); query {q} reads row {q}, output {output}.",
    }
