"""FIG 15b · Why kernels pick a middle chunk size: a time model of one head's chunked pass.

The multiply-add count alone (2·N·d² + 2·N·C·d, or KDA's eq. 13) is smallest at C = 1. The time
model (experiments.chunk_time_terms) adds the two things the count leaves out: the N/C chunks run one
after another with a fixed latency each, and tiles C rows wide run below the matrix hardware's
peak (tile_efficiency). Its total has a minimum in the middle; the shaded band is where the
total is within `within` of that minimum (experiments.chunk_time_band), for every setting of the
reader's knobs (head width d, per-step latency ℓ), all computed here.

Two grids of C: powers of two (the slider and the readouts) and a finer geometric grid with
`per_octave` points per doubling (the curves), which holds the powers of two at every
`per_octave`-th point. The band is found on a finer grid still (`band_per_octave`).
"""

from typing import Annotated

import numpy as np
from pydantic import BaseModel, ConfigDict, Field

from k3explainer.kernels import chunked_cost_terms
from k3explainer.site.readertext import fixed, integer, si

from ..experiments import chunk_time_band, chunk_time_terms, tile_efficiency

TERM_LABELS = {
    "state": "state work (across chunks)",
    "chunk": "within-chunk work",
    "local": "chunk-local C×C matrices",
}
TIME_KEYS = ("steps", "madds", "tiles")
VIEW_DEFAULT = "linear"  # the cost model the figure opens on (component.js's default view)
TIME_LABELS = {  # the time table's rows (the chart's curves carry shorter tags, component.js)
    "steps": "sequential steps, (N/C)·ℓ",
    "madds": "multiply-adds at peak, W/P",
    "tiles": "lost to small tiles",
}


class Params(BaseModel):
    model_config = ConfigDict(extra="forbid")
    n_tokens: int = Field(ge=2)  # N: sequence length, a power of two (C runs over 1, 2, 4 … N)
    c_default: int = Field(ge=1)  # the chunk size the slider opens at: a power of two ≤ N
    head_widths: list[Annotated[int, Field(ge=1)]] = Field(min_length=1)  # the head widths d a reader can pick
    d_default: int  # one of head_widths
    step_latencies_us: list[Annotated[float, Field(gt=0)]] = Field(min_length=1)  # ℓ choices, µs per chunk step
    step_latency_default_us: float  # one of step_latencies_us
    peak_madds_per_us: float = Field(gt=0)  # P: the hardware's peak multiply-add rate
    c_half: int = Field(ge=1)  # C½ in rows: tile efficiency η(C) = C / (C + C½)
    within: float = Field(gt=0)  # the band: chunk sizes whose time is within this fraction of the fastest
    per_octave: int = Field(ge=1)  # curve points per doubling of C (every per_octave-th is a power of two)
    band_per_octave: int = Field(ge=1)  # the finer grid the band is found on, points per doubling


REGIMES = {
    "one": "Pure recurrence: the fewest multiply-adds, but one sequential step per token, each a thin "
    "matrix–vector product that leaves the matrix hardware mostly idle.",
    "below": "Below the band: the chunks are too small. Larger ones would save more time on sequential steps "
    "and underfilled tiles than their extra multiply-adds would cost.",
    "band": "Inside the band: within {within} of the fastest time this model allows. Few enough steps, "
    "tiles wide enough to run near peak, and the within-chunk work still modest.",
    "above": "Above the band: the within-chunk multiply-adds, which grow with C, now cost more time than "
    "larger chunks save on steps and tile efficiency.",
    "all": "One chunk holds the whole sequence: the within-chunk work is attention over every pair of "
    "tokens again (in KDA's accounting the C×C matrices make it costlier still).",
}


def sig(x, digits: int = 6) -> np.ndarray:
    """Round to `digits` significant figures: the curves stay exact to the eye and half the size."""
    x = np.asarray(x, dtype=np.float64)
    return np.array([float(f"{v:.{digits}g}") for v in x.ravel()]).reshape(x.shape)


def tex_int(n: int) -> str:
    """8192 → 8{,}192: thousands separators that TeX does not space as list commas."""
    return f"{n:,}".replace(",", "{,}")


def as_written(x: float) -> str:
    """The shortest form of the number (1.0 → "1", 0.125 → "0.125"), as the page writes a setting."""
    return str(int(x)) if float(x).is_integer() else repr(float(x))


def duration(us: float) -> str:
    """A time in µs to three significant digits, in µs below a millisecond, else in ms: 190 µs, 1.15 ms."""
    return f"{as_written(float(f'{us:.3g}'))} µs" if us < 1000 else f"{as_written(float(f'{us / 1000:.3g}'))} ms"


def percent(x: float) -> str:
    return fixed(100 * x, 1) + "%"


def latency(lat: float) -> str:
    return f"ℓ = {as_written(lat)} µs"


def band_text(band: dict, within: float) -> str:
    return (
        f"C ≈ {integer(band['lo'])} to {integer(band['hi'])}, within {fixed(100 * within, 0)}% of the fastest time; "
        f"ring: the fastest, C ≈ {integer(band['best'])} ({duration(band['min_time'])})"
    )


def zone(c: float, N: int, band: dict) -> str:
    if c == 1:
        return "one"
    if c == N:
        return "all"
    return "below" if c < band["lo"] else "above" if c > band["hi"] else "band"


def width_setting(
    form: str, unit: str, N: int, d: int, lats: list[float], C: np.ndarray, grid: np.ndarray, model: dict
) -> dict:
    """One head width d of one cost model: the work terms at each power of two and the time terms on
    the curve grid that do not depend on ℓ; then, for each per-step latency ℓ, the steps term, the
    total and where the total is lowest (band found on a finer grid); and each of them as the
    readouts show it (`unit`: the view's work unit), for the component to place."""
    work_terms = chunked_cost_terms(N, d, C, form=form)
    work_total = sum(work_terms.values())
    fine = 2.0 ** np.arange(0, np.log2(N) + 1e-9, 1 / model["band_per_octave"])
    by_lat = []
    for lat in lats:
        time = chunk_time_terms(N, d, grid, step_latency=lat, form=form, **model["hw"])
        found = chunk_time_band(
            fine, chunk_time_terms(N, d, fine, step_latency=lat, form=form, **model["hw"])["total"], model["within"]
        )
        steps, total = sig(time["steps"]), sig(time["total"])
        of_best = sig(time["total"][:: model["per_octave"]] / found["min_time"])
        band = {k: float(sig([v])[0]) for k, v in found.items()}
        by_lat.append(
            {
                "steps": steps,
                "total": total,
                "of_best": of_best,
                "zone": [zone(float(c), N, found) for c in C],
                "band": band,
                # the readouts at each power of two (every per_octave-th curve point), as shown
                "steps_text": [duration(t) for t in steps[:: model["per_octave"]]],
                "total_text": [duration(t) for t in total[:: model["per_octave"]]],
                "of_best_text": [fixed(r, 2) for r in of_best],
                "band_text": band_text(band, model["within"]),
            }
        )
    madds, tiles = sig(time["madds"]), sig(time["tiles"])  # the last ℓ's: these two terms do not depend on ℓ
    return {
        "work": [
            {"key": k, "values": np.asarray(v, dtype=np.float64), "share": np.asarray(v / work_total, dtype=np.float64)}
            for k, v in work_terms.items()
        ],
        "work_total": np.asarray(work_total, dtype=np.float64),
        "madds": madds,
        "tiles": tiles,
        "by_lat": by_lat,
        "work_text": {k: [f"{si(x)} {unit}" for x in v] for k, v in work_terms.items()},
        "share_text": {k: [percent(s) for s in v / work_total] for k, v in work_terms.items()},
        "work_total_text": [f"{si(x)} {unit}" for x in work_total],
        "madds_text": [duration(t) for t in madds[:: model["per_octave"]]],
        "tiles_text": [duration(t) for t in tiles[:: model["per_octave"]]],
    }


def y_axis(values: list[np.ndarray]) -> dict:
    """A fixed log time axis for a view (every setting shares it, so the curves move, not the axis):
    from a decade below the lowest total to the decade above the highest, ticked in µs and ms."""
    lo = int(np.floor(np.log10(min(float(v.min()) for v in values)))) - 1
    hi = int(np.ceil(np.log10(max(float(v.max()) for v in values))))
    ticks = [10.0**e for e in range(lo, hi + 1)]
    text = [f"{t:g} µs" if t < 1000 else f"{t / 1000:g} ms" for t in ticks]
    return {"range": [lo, hi], "span": [10.0**lo, 10.0**hi], "tickvals": ticks, "ticktext": text}


def build(params: dict, facts) -> dict:
    N = int(params["n_tokens"])
    per_octave = int(params["per_octave"])
    if N < 2 or not float(np.log2(N)).is_integer():
        raise ValueError(f"n_tokens must be a power of two, got {N}")
    C = 2 ** np.arange(int(np.log2(N)) + 1)  # 1 … N: C = 1 is the recurrence, C = N one chunk
    grid = 2.0 ** (np.arange(len(C) * per_octave - per_octave + 1) / per_octave)
    assert np.array_equal(grid[::per_octave], C)
    widths = [int(w) for w in params["head_widths"]]
    lats = [float(x) for x in params["step_latencies_us"]]
    d0, lat0, c0 = int(params["d_default"]), float(params["step_latency_default_us"]), int(params["c_default"])
    if d0 not in widths or lat0 not in lats or c0 not in C:
        raise ValueError("the defaults must be on their grids (d, ℓ, C a power of two)")
    model = {
        "hw": {"peak": float(params["peak_madds_per_us"]), "c_half": float(params["c_half"])},
        "within": float(params["within"]),
        "per_octave": per_octave,
        "band_per_octave": int(params["band_per_octave"]),
    }
    P, c_half, within = model["hw"]["peak"], model["hw"]["c_half"], model["within"]
    pct = f"{within:.0%}"
    efficiency = sig(tile_efficiency(C, c_half))

    views = {}
    # the KDA rows keep eq. 13's FLOPs as the report writes them, so their total is 2W (two FLOPs per multiply-add)
    for form, meta in (
        (
            "linear",
            {
                "label": "Linear attention",
                "unit": "madds",
                "total_label": "total work W",
                "formula_md": r"work $W = 2Nd^2 + 2NCd$ multiply-adds",
            },
        ),
        (
            "kda",
            {
                "label": "KDA (eq. 13)",
                "unit": "FLOPs",
                "total_label": "total, 2W in FLOPs",
                "formula_md": r"work $W = (6Nd^2 + 3NCd + NC^2)/2$ multiply-adds (eq. 13 in FLOPs, halved)",
            },
        ),
    ):
        by_d = [width_setting(form, meta["unit"], N, d, lats, C, grid, model) for d in widths]
        label = meta["label"]
        views[form] = {
            **meta,
            "labels": {t["key"]: TERM_LABELS[t["key"]] for t in by_d[0]["work"]},
            "by_d": by_d,
            "y": y_axis([s["total"] for w in by_d for s in w["by_lat"]]),
            "text": {
                "option_aria": f"{label} work, in {meta['unit']}",
                "work_head": f"work ({meta['unit']})",
                "chart": (
                    f"Log–log chart of the modelled time of one head's chunked pass ({label}, d = {{d}}, {{lat}}) "
                    f"against chunk size C from 1 to {integer(N)}; shaded {{band}}; the marker is at C = {{c}}."
                ),
                "describe": (
                    f"{label}, d = {{d}}, {{lat}}, C = {{c}}: work {{work}}; modelled time {{time}}, {{ratio}} times "
                    "the fastest; shaded {band}."
                ),
            },
        }
    opening = views[VIEW_DEFAULT]["by_d"][widths.index(d0)]["by_lat"][lats.index(lat0)]  # the setting it opens on
    headline = {  # the figure's takeaway: the recurrence against the band, at the opening setting
        "c_one": int(C[0]),
        "one_over_best": float(opening["of_best"][0]),  # C = 1's modelled time over the fastest
        "band_lo": opening["band"]["lo"],
        "band_hi": opening["band"]["hi"],
        "within": within,
    }
    return {
        "headline": headline,
        "n_tokens": N,
        "c": C,
        "c_default_index": int(np.flatnonzero(C == c0)[0]),
        "grid": sig(grid),
        "per_octave": per_octave,
        "widths": widths,
        "d_default": d0,
        "latencies": lats,
        "latency_default": lat0,
        "within": within,
        "peak": P,  # the model's constants, shown in the note and used by the tests
        "c_half": c_half,
        "efficiency": efficiency,
        "x_range": [0.0, float(np.log10(N))],
        "view_order": [VIEW_DEFAULT, "kda"],
        "views": views,
        "regimes": {k: v.format(within=pct) for k, v in REGIMES.items()},
        "c_text": [integer(c) for c in C],
        "width_text": [f"d = {d}" for d in widths],
        "width_aria": [f"head width {d}" for d in widths],
        "latency_text": [latency(lat) for lat in lats],
        "steps_note": [f"{integer(N // c)} step{'' if N // c == 1 else 's'}" for c in C],
        "efficiency_text": [f"η = {percent(e)}" for e in efficiency],
        "time_labels": TIME_LABELS,
        "text": {
            "slider": "C = {c}",
            "caption": f"At C = {{c}} (N = {integer(N)}, d = {{d}}, {{lat}})",
            "x_title": "chunk size C (tokens, log scale)",
            "y_title": "modelled time, one head (log scale)",
            "y_title_narrow": "modelled time (log)",
            "time_head": "modelled time",
            "total_time": "total time",
            "split_label": "total time, split by term",
            "of_best": "{ratio}× fastest",
            "shaded": "Shaded: {band}.",
        },
        "time_md": (
            r"time $= \frac{N}{C}\,\ell + W / \bigl(P\,\eta(C)\bigr)$, tile efficiency "
            r"$\eta(C) = C / (C + C_{1/2})$"
        ),
        "constants_md": (
            f"$N = {tex_int(N)}$ tokens, one head, one layer; peak $P = {P / 1e6:g}$ million "
            f"multiply-adds per µs (about one streaming multiprocessor); half-efficiency tile "
            f"$C_{{1/2}} = {c_half:g}$ rows. The fastest chunk size moves with the head width $d$, with "
            f"$C_{{1/2}}$, and with $\\ell$ and $P$ only through their product $\\ell P$; $N$ does not move it."
        ),
        "kernels_md": "Production KDA kernels use {{kimi_linear.chunk_size}}; tensor-core instructions work on "
        "{{hardware.mma_tile_rows}}.",
        "provenance": {
            "kernels": [
                "k3explainer.kernels." + k
                for k in (
                    "chunked_cost_terms",
                    "costs.chunk_work_madds",
                    "costs.chunk_time_terms",
                    "costs.chunk_time_band",
                    "costs.tile_efficiency",
                )
            ],
            "inputs": (
                f"N = {N}; C = 1 … {N} (powers of two; curves at {per_octave} points per doubling); "
                f"d ∈ {widths}; ℓ ∈ {lats} µs; P = {P:,.0f} multiply-adds per µs; C½ = {c_half:g}; band within {pct} of the "
                f"minimum, found at {model['band_per_octave']} points per doubling"
            ),
            "seed": "none: closed-form counts and a closed-form time model, no random inputs",
            "illustrative": "N, d, the peak rate P, the per-step latency ℓ and the half-efficiency tile C½ are "
            "illustrative; KDA's multiply-add count is eq. 13 of the Kimi Linear report (halved: two FLOPs "
            "per multiply-add); linear attention's, 2·N·d² + 2·N·C·d, is counted here and marked illustrative",
        },
    }
