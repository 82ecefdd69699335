"""The chunk-size time model of FIG 15b: the multiply-add count plus the two effects it leaves
out, sequential chunk steps and tiles below the hardware's peak. Its constants are illustrative."""

import numpy as np

from k3explainer.kernels import (
    chunked_linear_madds,
    kda_chunked_flops,
)

# --- chunk-size time model (FIG 15b) ----------------------------------------------------------
# Counting multiply-adds alone, C = 1 is cheapest (chunked_linear_madds grows with C), yet kernels
# run C = 64. What the count leaves out is time: the chunks are processed one after another, and
# a matrix multiply whose tiles are C rows wide runs below the hardware's peak when C is small.
# The model below adds exactly those two effects to the count. Its constants are ILLUSTRATIVE.


def tile_efficiency(C, c_half):
    """Fraction of peak matrix-multiply throughput reached with tiles C rows wide, modelled with
    Hockney's half-performance length: η(C) = C / (C + c_half), so η(c_half) = 1/2 and η → 1 as
    C grows (η(4·c_half) = 0.8). c_half stands for the fixed cost of issuing a tensor-core
    instruction whose tile rows are mostly empty when C is small."""
    C = np.asarray(C, dtype=np.float64)
    return C / (C + c_half)


def chunk_work_madds(T, d, C, form="linear"):
    """Multiply-adds of one head's chunked pass: chunked_linear_madds for "linear", and KDA's
    eq. 13 FLOPs halved (2 FLOPs per multiply-add) for "kda"."""
    if form == "linear":
        return np.asarray(chunked_linear_madds(T, d, np.asarray(C)), dtype=np.float64)
    if form == "kda":
        return np.asarray(kda_chunked_flops(T, d, np.asarray(C)), dtype=np.float64) / 2
    raise ValueError(f"unknown form {form!r}")


def chunk_time_terms(T, d, C, *, step_latency, peak, c_half, form="linear"):
    """Modelled time of one head's chunked pass over T tokens, as three terms that add up:
      steps — the T/C chunks run one after another, each paying a fixed latency: (T/C)·ℓ;
      madds — the multiply-adds W(C) (chunk_work_madds) at the peak rate P: W/P;
      tiles — the time lost because tiles C rows wide run at η(C) < 1 of peak: W/P·(1/η − 1).
    total = steps + W/(P·η(C)). Units: step_latency in any time unit, peak in madds per that
    unit (µs and madds/µs in FIG 15b). C may be an array (1 ≤ C ≤ T)."""
    C = np.asarray(C, dtype=np.float64)
    work = chunk_work_madds(T, d, C, form)
    at_peak = work / peak
    steps = T / C * step_latency
    tiles = at_peak * (1 / tile_efficiency(C, c_half) - 1)
    return dict(steps=steps, madds=at_peak, tiles=tiles, total=steps + at_peak + tiles)


def chunk_time_band(C, total, within=0.1):
    """Where a modelled time over a sorted grid of chunk sizes C is lowest: the grid point of the
    minimum and the smallest and largest C whose time is within `within` (0.1 = 10 %) of it.
    Returns dict(best, lo, hi, min_time). For the model's convex totals the band is contiguous."""
    C, total = np.asarray(C, dtype=np.float64), np.asarray(total, dtype=np.float64)
    i = int(np.argmin(total))
    near = np.flatnonzero(total <= (1 + within) * total[i])
    return dict(best=float(C[i]), lo=float(C[near[0]]), hi=float(C[near[-1]]), min_time=float(total[i]))


def chunk_time_best_c(d, *, step_latency, peak, c_half):
    """Plain reference for the linear form: the C that minimises chunk_time_terms' total in closed
    form. Per token the total is (ℓ + 2d²·c_half/P)/C + 2d·C/P + constant, so
    C* = sqrt(ℓ·P/(2d) + d·c_half): it grows with the per-step latency, and does not depend on T."""
    return float(np.sqrt(step_latency * peak / (2 * d) + d * c_half))
