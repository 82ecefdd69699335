"""FIG 06b's data against the kernel (recall_sweep run afresh on the spec's seeded pairs), and every
text it can show (the slider, each memory's row, the summary, the chart's label, the narration,
each age cell's line and tooltip) at every key width and every n against the numbers it ships."""

import re

import numpy as np
import pytest

from k3explainer.site import projectcode
from k3explainer.site.readertext import fill
from k3project.experiments import age_profile, recall_sweep
from tests.site import article
from tests.site.article import headline
from tests.site.project import ROOT

FIG = "fig-06b"
TWO = 0.005 + 1e-9  # two decimals shown


@pytest.fixture(scope="module")
def data():
    return article.figure_data(FIG)


def number(text: str) -> float:
    return float(text.replace("−", "-").replace(",", ""))


def test_the_errors_are_recall_sweeps_on_the_seeded_pairs(data):
    builder = projectcode.builder(ROOT, "fig-06b-capacity")
    params = builder.Params.model_validate(article.spec(FIG).params).model_dump()
    for w in data["by_d"]:
        d, ns = w["d"], w["ns"]
        assert ns == builder.grid(d, params["steps_per_d"])
        keys, values = builder.pairs(params["seed"], d, params["n_seeds"], ns[-1])
        errors = recall_sweep(keys, values, builder.memories_for(params["memories"], d), ns)
        per_seed = np.stack([e.mean(-1) for e in errors], axis=-1)  # [M, seeds, G]
        np.testing.assert_allclose(w["mean"], per_seed.mean(1), atol=5e-4)
        np.testing.assert_allclose(w["lo"], per_seed.min(1), atol=5e-4)
        np.testing.assert_allclose(w["hi"], per_seed.max(1), atol=5e-4)
        for shipped, e in zip(w["age"], errors, strict=True):
            np.testing.assert_allclose(shipped, age_profile(e.mean(1), data["groups"])[1], atol=5e-3)  # 2 decimals
        for m, mem in enumerate(data["memories"]):
            assert list(w["kept"][m]) == ([d * d] * len(ns) if mem["state"] else [2 * n * d for n in ns])


def test_every_shown_number_is_the_value_it_stands_for(data):
    for w in data["by_d"]:
        d = w["d"]
        assert w["choice"] == {"text": f"d = {d}", "aria": f"key width {d}, a {d} by {d} state"}
        for g, n in enumerate(w["ns"]):
            shown = re.fullmatch(r"n = (\d+) \(([\d.]*)d\)", w["slider_text"][g])  # "n = 16 (0.5d)", "(d)"
            assert int(shown[1]) == n and float(shown[2] or 1) == pytest.approx(n / d, abs=TWO)
            starts = w["age_starts"][g]
            for i in range(len(data["memories"])):
                for key in ("mean", "lo", "hi"):
                    assert number(w[f"{key}_text"][i][g]) == pytest.approx(w[key][i][g], abs=TWO), (d, n, key)
                assert w["kept_text"][i][g] == f"{w['kept'][i][g]:,}"
                assert [number(t) for t in w["age_text"][g][i]] == pytest.approx(w["age"][g][i], abs=TWO)
            # the age groups: consecutive runs of the stored pairs, oldest first, covering all n
            ends = [*starts[1:], n]
            for k, (first, end) in enumerate(zip(starts, ends, strict=True)):
                shown = [int(x) for x in re.findall(r"\d+", w["age_pairs"][g][k])]
                assert shown == ([first + 1] if end - first == 1 else [first + 1, end])
                assert data["text"]["age_place"][len(starts) - 1][k] == (
                    "stored first"
                    if k == 0
                    else "stored last"
                    if k == len(starts) - 1
                    else f"group {k + 1} of {len(starts)}"
                )


def memory_slots(j, g, i, groups):
    """The slots the component fills the memory line with (component.js: memorySlots)."""
    a = ["by_d", j]
    return {
        "label": ["memories", i, "label"],
        "n": [*a, "ns", g],
        "err": [*a, "mean_text", i, g],
        "lo": [*a, "lo_text", i, g],
        "hi": [*a, "hi_text", i, g],
        "first": [*a, "age_text", g, i, 0],
        "last": [*a, "age_text", g, i, groups - 1],
        "kept": [*a, "kept_text", i, g],
    }


def test_every_sentence_at_every_width_and_n_reads_the_data(data):
    """The summary names d, n, the counts kept and the lowest memory with its error; the chart's
    label the range of n, the marker and the summary; each memory's line its error, seeds' range,
    first and last age groups and count; the narration of a new width or n every error in order;
    each age cell its pairs, place and error."""
    labels = [m["label"] for m in data["memories"]]
    states = [i for i, m in enumerate(data["memories"]) if m["state"]]
    for j, w in enumerate(data["by_d"]):
        d, mean = w["d"], np.array(w["mean"])
        for g, n in enumerate(w["ns"]):
            summary = fill(data, ["by_d", j, "summary", g])
            best = int(np.argmin(mean[:, g]))
            assert summary.startswith(f"d = {d}, n = {n} ({w['slider_text'][g].split('(')[1]}: each state keeps ")
            assert f"d² = {w['kept'][states[0]][g]:,} numbers, the cache 2·n·d = {2 * n * d:,}." in summary
            assert summary.endswith(f"Lowest error: {labels[best]}, {w['mean_text'][best][g]}.")
            label = fill(
                data, ["by_d", j, "chart_label"], {"n": ["by_d", j, "ns", g], "summary": ["by_d", j, "summary", g]}
            )
            assert label.startswith(f"Recall error against pairs stored, n from 1 to {4 * d} for d = {d},")
            assert label.endswith(f"the marker is at n = {n}. {summary}")
            said = fill(
                data,
                ["text", "errors"],
                {"summary": ["by_d", j, "summary", g]}
                | {f"m{i}": ["by_d", j, "mean_text", i, g] for i in range(len(labels))},
            )
            assert (
                said
                == "Recall error — "
                + "; ".join(f"{label}: {w['mean_text'][i][g]}" for i, label in enumerate(labels))
                + f". {summary}"
            )
            groups = len(w["age_starts"][g])
            for i, label in enumerate(labels):
                line = fill(data, ["text", "memory"], memory_slots(j, g, i, groups))
                lo, hi = number(w["lo_text"][i][g]), number(w["hi_text"][i][g])
                assert line.startswith(f"{label} at n = {n}: error {w['mean_text'][i][g]} (seeds ")
                assert lo <= number(w["mean_text"][i][g]) <= hi
                assert f"stored first {w['age_text'][g][i][0]}, stored last {w['age_text'][g][i][-1]};" in line
                assert line.endswith(f"keeps {w['kept_text'][i][g]} numbers.")
                ranged = fill(
                    data, ["text", "range"], {"lo": ["by_d", j, "lo_text", i, g], "hi": ["by_d", j, "hi_text", i, g]}
                )
                assert ranged == f"{w['lo_text'][i][g]}–{w['hi_text'][i][g]}"
                for k in range(groups):
                    cell = {"pairs": ["by_d", j, "age_pairs", g, k], "err": ["by_d", j, "age_text", g, i, k]}
                    assert (
                        fill(data, ["text", "cell_title"], cell) == f"{w['age_pairs'][g][k]}: {w['age_text'][g][i][k]}"
                    )
                    line = fill(
                        data,
                        ["text", "cell"],
                        cell
                        | {
                            "label": ["memories", i, "label"],
                            "n": ["by_d", j, "ns", g],
                            "place": ["text", "age_place", groups - 1, k],
                        },
                    )
                    assert line == (
                        f"{label}, n = {n}: {w['age_pairs'][g][k]} ({data['text']['age_place'][groups - 1][k]}) read back with error "
                        f"{w['age_text'][g][i][k]}."
                    )


def test_the_headline_answers_with_the_opening_widths_errors(data):
    """At the width and n the figure opens on, recall_sweep run afresh: the lowest of the four
    states' mean errors is the one quoted, and every state's is at least that ("every … or more");
    the cache recalls better than every state and keeps 2·n·d numbers to their d²."""
    title, takeaway = headline(FIG)
    builder = projectcode.builder(ROOT, "fig-06b-capacity")
    params = builder.Params.model_validate(article.spec(FIG).params).model_dump()
    d = params["d_default"]
    ns = builder.grid(d, params["steps_per_d"])
    n = ns[int(np.argmin([abs(m - round(params["ratio_default"] * d)) for m in ns]))]
    keys, values = builder.pairs(params["seed"], d, params["n_seeds"], ns[-1])
    errors = recall_sweep(keys, values, builder.memories_for(params["memories"], d), [n])[0]  # [M, seeds, n]
    mean = errors.mean(-1).mean(-1)  # per memory: over the stored pairs, then the seeds
    kinds = [m["kind"] for m in params["memories"]]
    states = [e for e, kind in zip(mean, kinds, strict=True) if kind != "softmax"]
    cache = mean[kinds.index("softmax")]
    assert title == "How much can a d×d memory hold?"
    assert takeaway == (
        f"At {n} pairs every {d}×{d} state's mean error is {min(states):.2f} or more (1 = a zero read); "
        f"a KV cache with {2 * n * d / d**2:g}× the numbers: {cache:.2f}."
    )
    assert len(states) == 4 and cache < min(states) < 1
