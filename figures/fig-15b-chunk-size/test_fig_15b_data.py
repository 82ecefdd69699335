"""FIG 15b's data against the kernels (the work counts, the time model's terms, the band and its
minimum, for every cost model, head width and latency), and every text it can show (the table, the
band's sentence, the chart's label, the controls' readouts and the narration, in every setting at
every C) against the numbers it ships."""

import re

import numpy as np
import pytest

from k3explainer.kernels import chunked_cost_terms, reassociation_costs
from k3explainer.site.readertext import fill
from k3project.experiments import chunk_time_band, chunk_time_terms, tile_efficiency
from tests.site import article
from tests.site.article import headline

FIG = "fig-15b"
SI = {"K": 1e3, "M": 1e6, "G": 1e9, "T": 1e12, "P": 1e15}


@pytest.fixture(scope="module")
def data():
    return article.figure_data(FIG)


def settings(data):
    """(view, d index, latency index, the width's data, the latency's data, their paths) for every setting."""
    for view in data["view_order"]:
        for k, w in enumerate(data["views"][view]["by_d"]):
            for m, s in enumerate(w["by_lat"]):
                width = ["views", view, "by_d", k]
                yield view, k, m, w, s, width, [*width, "by_lat", m]


def amount(text: str) -> float:
    """'268 M madds' → 2.68e8; '512 madds' → 512."""
    parts = text.split()
    return float(parts[0]) * (SI[parts[1]] if len(parts) == 3 else 1)


def duration(text: str) -> float:
    """'190 µs' → 190; '1.15 ms' → 1150 (µs)."""
    value, unit = text.split()
    return float(value) * (1000 if unit == "ms" else 1)


def band_numbers(text: str) -> tuple[int, int, int, float]:
    """'C ≈ 56 to 177, within 10% …; ring: the fastest, C ≈ 99 (180 µs)' → (56, 177, 99, 180.0)."""
    lo, hi, best, time = re.fullmatch(
        r"C ≈ ([\d,]+) to ([\d,]+), within \d+% of the fastest time; ring: the fastest, C ≈ ([\d,]+) \((.+)\)", text
    ).groups()
    return int(lo.replace(",", "")), int(hi.replace(",", "")), int(best.replace(",", "")), duration(time)


def within_of(text: str) -> float:
    """'…, within 10% of the fastest time; …' → 0.1."""
    return float(re.search(r"within (\d+)%", text).group(1)) / 100


def test_shipped_data_is_the_kernels(data):
    """Every setting: the work terms are chunked_cost_terms', the curves chunk_time_terms' on the
    curve grid, the band chunk_time_band's on the finer grid, and the zone of each C follows."""
    N, hw = data["n_tokens"], {"peak": float(data["peak"]), "c_half": float(data["c_half"])}
    C, grid, PO = np.array(data["c"]), np.array(data["grid"]), data["per_octave"]
    np.testing.assert_allclose(grid[::PO], C, rtol=1e-6)
    np.testing.assert_allclose(data["efficiency"], tile_efficiency(C, hw["c_half"]), rtol=1e-5)
    fine = 2.0 ** np.arange(0, np.log2(N) + 1e-9, 1 / 32)
    for view, k, m, w, s, _, _ in settings(data):
        d, lat = data["widths"][k], data["latencies"][m]
        work = chunked_cost_terms(N, d, C, form=view)
        assert [t["key"] for t in w["work"]] == list(work)
        for t in w["work"]:
            np.testing.assert_allclose(t["values"], work[t["key"]], rtol=1e-12)
            np.testing.assert_allclose(t["share"], work[t["key"]] / sum(work.values()), rtol=1e-12)
        np.testing.assert_allclose(w["work_total"], sum(work.values()), rtol=1e-12)
        time = chunk_time_terms(N, d, grid, step_latency=lat, form=view, **hw)
        for key, got in (("steps", s["steps"]), ("madds", w["madds"]), ("tiles", w["tiles"]), ("total", s["total"])):
            np.testing.assert_allclose(got, time[key], rtol=1e-5, err_msg=f"{view} d={d} ℓ={lat} {key}")
        band = chunk_time_band(
            fine, chunk_time_terms(N, d, fine, step_latency=lat, form=view, **hw)["total"], data["within"]
        )
        for key in ("lo", "hi", "best", "min_time"):
            assert s["band"][key] == pytest.approx(band[key], rel=1e-5), (view, d, lat, key)
        np.testing.assert_allclose(s["of_best"], time["total"][::PO] / band["min_time"], rtol=1e-5)
        zones = [
            "one"
            if c == 1
            else "all"
            if c == N
            else "below"
            if c < band["lo"]
            else "above"
            if c > band["hi"]
            else "band"
            for c in C
        ]
        assert s["zone"] == zones, (view, d, lat)
    # one chunk of N tokens: the within-chunk term is exactly unmasked quadratic attention, 2N²d
    for k, d in enumerate(data["widths"]):
        chunk = next(t for t in data["views"]["linear"]["by_d"][k]["work"] if t["key"] == "chunk")
        assert chunk["values"][-1] == reassociation_costs(N, d, d)["madds_quadratic"]


def test_every_shown_number_is_the_value_it_stands_for(data):
    N, PO = data["n_tokens"], data["per_octave"]
    assert data["c_text"] == [f"{c:,}" for c in data["c"]]
    assert data["latency_text"] == [f"ℓ = {x:g} µs" for x in data["latencies"]]
    assert data["width_text"] == [f"d = {d}" for d in data["widths"]]
    assert data["width_aria"] == [f"head width {d}" for d in data["widths"]]
    for c, steps, eta, e in zip(
        data["c"], data["steps_note"], data["efficiency_text"], data["efficiency"], strict=True
    ):
        assert steps == f"{N // c:,} step{'' if N // c == 1 else 's'}"
        assert eta.startswith("η = ") and abs(float(eta[4:].rstrip("%")) - 100 * e) <= 0.05 + 1e-9
    for view, _, _, w, s, _, _ in settings(data):
        unit = data["views"][view]["unit"]
        for t in w["work"]:
            for value, share, text, share_text in zip(
                t["values"], t["share"], w["work_text"][t["key"]], w["share_text"][t["key"]], strict=True
            ):
                assert text.endswith(f" {unit}") and amount(text) == pytest.approx(value, rel=5e-3), text
                assert abs(float(share_text.rstrip("%")) - 100 * share) <= 0.05 + 1e-9
        for value, text in zip(w["work_total"], w["work_total_text"], strict=True):
            assert text.endswith(f" {unit}") and amount(text) == pytest.approx(value, rel=5e-3), text
        for key, curve, texts in (
            ("madds", w["madds"], w["madds_text"]),
            ("tiles", w["tiles"], w["tiles_text"]),
            ("steps", s["steps"], s["steps_text"]),
            ("total", s["total"], s["total_text"]),
        ):
            for value, text in zip(curve[::PO], texts, strict=True):
                assert duration(text) == pytest.approx(value, rel=5e-3), (key, text)
                assert text.endswith(" µs") == (value < 1000)
        for r, text in zip(s["of_best"], s["of_best_text"], strict=True):
            assert abs(float(text) - r) <= 0.005 + 1e-9
        lo, hi, best, min_time = band_numbers(s["band_text"])
        b = s["band"]
        assert (lo, hi, best) == (round(b["lo"]), round(b["hi"]), round(b["best"]))
        assert min_time == pytest.approx(b["min_time"], rel=5e-3) and within_of(s["band_text"]) == data["within"]


def test_every_sentence_in_every_state_reads_the_data(data):
    """In every setting (cost model, head width, latency) at every C: the table's caption, the
    ratio to the fastest, the band's sentence, the chart's label and the narration."""
    N = data["n_tokens"]
    for view, k, m, w, s, width, lat in settings(data):
        label, d = data["views"][view]["label"], data["widths"][k]
        for i, c in enumerate(data["c"]):
            slots = {"d": ["widths", k], "lat": ["latency_text", m], "band": [*lat, "band_text"], "c": ["c_text", i]}
            assert fill(data, ["text", "slider"], {"c": ["c_text", i]}) == f"C = {c:,}"
            caption = fill(data, ["text", "caption"], {"c": slots["c"], "d": slots["d"], "lat": slots["lat"]})
            assert caption == f"At C = {c:,} (N = {N:,}, d = {d}, ℓ = {data['latencies'][m]:g} µs)"
            ratio = fill(data, ["text", "of_best"], {"ratio": [*lat, "of_best_text", i]})
            assert abs(float(ratio.removesuffix("× fastest")) - s["of_best"][i]) <= 0.005 + 1e-9
            shaded = fill(data, ["text", "shaded"], {"band": slots["band"]})
            assert shaded == f"Shaded: {s['band_text']}."
            chart = fill(data, ["views", view, "text", "chart"], slots)
            assert chart == (
                f"Log–log chart of the modelled time of one head's chunked pass ({label}, d = {d}, "
                f"ℓ = {data['latencies'][m]:g} µs) against chunk size C from 1 to {N:,}; shaded {s['band_text']}; "
                f"the marker is at C = {c:,}."
            )
            said = fill(
                data,
                ["views", view, "text", "describe"],
                {
                    **slots,
                    "work": [*width, "work_total_text", i],
                    "time": [*lat, "total_text", i],
                    "ratio": [*lat, "of_best_text", i],
                },
            )
            work, time, times = re.fullmatch(
                rf"{re.escape(label)}, d = {d}, ℓ = {data['latencies'][m]:g} µs, C = {c:,}: work (.+); modelled time "
                rf"(.+), (\S+) times the fastest; shaded {re.escape(s['band_text'])}\.",
                said,
            ).groups()
            assert amount(work) == pytest.approx(w["work_total"][i], rel=5e-3)
            assert duration(time) == pytest.approx(s["total"][i * data["per_octave"]], rel=5e-3)
            assert abs(float(times) - s["of_best"][i]) <= 0.005 + 1e-9
            assert fill(data, ["regimes", s["zone"][i]]) == data["regimes"][s["zone"][i]]
        text = data["views"][view]["text"]
        assert text["option_aria"] == f"{label} work, in {data['views'][view]['unit']}"
        assert text["work_head"] == f"work ({data['views'][view]['unit']})"


def test_the_headline_answers_with_the_time_model_at_the_opening_setting(data):
    """At the setting the figure opens on (linear attention, the default d and ℓ): C = 1 has the
    fewest multiply-adds in the count, yet the time model puts it that many times above the fastest,
    and the band (chunk_time_band on the finer grid) is where the takeaway says; raising ℓ moves the
    band to larger chunks, as the hint promises."""
    title, takeaway = headline(FIG)
    assert title.endswith("?")
    N, d, lat = data["n_tokens"], data["d_default"], data["latency_default"]
    hw = {"peak": float(data["peak"]), "c_half": float(data["c_half"])}
    C = np.array(data["c"], dtype=float)
    fine = 2.0 ** np.arange(0, np.log2(N) + 1e-9, 1 / 32)

    def band(latency):
        return chunk_time_band(
            fine, chunk_time_terms(N, d, fine, step_latency=latency, form="linear", **hw)["total"], data["within"]
        )

    b = band(lat)
    one = chunk_time_terms(N, d, C[:1], step_latency=lat, form="linear", **hw)["total"][0] / b["min_time"]
    assert takeaway == (
        f"C = {C[0]:.0f} does the fewest multiply-adds yet takes {one:.0f}× the fastest time; chunks of about "
        f"{b['lo']:.0f} to {b['hi']:.0f} tokens are within {data['within']:.0%}."
    )
    work = sum(chunked_cost_terms(N, d, C, form="linear").values())
    assert np.argmin(work) == 0 and one > 10  # the fewest multiply-adds, and far from the fastest
    assert 1 < b["lo"] < b["best"] < b["hi"] < N  # the middle
    later = [band(x) for x in data["latencies"] if x > lat]
    assert later and all(x["lo"] > b["lo"] and x["best"] > b["best"] for x in later)
