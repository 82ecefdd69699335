"""FIG 05 · Re-association: causal linear attention through the N×N matrix and through the d×d state.

Both orders come from `linear_attention` (parallel = masked (φQ φKᵀ)V, recurrent = running state
S_t = Σ_{s≤t} φ(k_s) v_sᵀ); the N×N middle and each prefix state S_t from `reassociate`; the
multiply-add counts, for this N and for longer sequences, from `reassociation_costs`.
"""

from typing import Literal

import numpy as np
from pydantic import BaseModel, ConfigDict, Field

from k3explainer.kernels import elu_plus_one, linear_attention, reassociate, reassociation_costs

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
        "max_diff": float(np.max(np.abs(out_parallel - out_recurrent))),
        # the difference strip: the largest |Δ| in each output row, and the outputs' largest |value|,
        # the one colour scale both are drawn on (so the strip shows how little there is to see)
        "row_diff": np.abs(out_parallel - out_recurrent).max(axis=1),
        "out_scale": float(np.max(np.abs(out_parallel))),
        "max_diff_normalised": float(np.max(np.abs(normalised[0] - normalised[1]))),
        # the figure draws the masked middle, so it counts the masked product (and names the unmasked one)
        "madds": {
            "quadratic": int(here["madds_quadratic_causal"]),
            "quadratic_unmasked": int(here["madds_quadratic"]),
            "linear": int(here["madds_linear"]),
        },
        "growth": {
            "n": GROWTH_N,
            "middle_quadratic": costs["middle_quadratic"],
            "middle_linear": costs["middle_linear"],
            "madds_quadratic": costs["madds_quadratic"],
            "madds_linear": costs["madds_linear"],
            # the memory chart's log axis: every third power of ten, from 1 to the first at or above the largest N²
            "y_ticks": [10**e for e in range(0, 3 * int(np.ceil(np.log10(max(costs["middle_quadratic"])) / 3)) + 1, 3)],
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
