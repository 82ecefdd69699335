"""FIG 05b's data against the kernel (both kernels on every slice, the weights over the seeded
keys, the smallest values and the ratio's range), and every sentence it can show (the readout,
the verdict, the narration and the charts' labels, at every key length and angle) against the
numbers it ships."""

import re

import numpy as np
import pytest

from k3explainer.kernels import similarity_kernels
from k3explainer.site.readertext import fill
from tests.site import article
from tests.site.article import headline

NUMBER = re.compile(r"(?<![\w§+])−?\d[\d,]*(?:\.\d+)?")  # "ELU+1" names a kernel, not a number
# half the last digit shown (3 decimals, or 2), with room for a shipped value ending in 5 stored a hair off
HALF3, HALF2 = 0.0005 + 1e-12, 0.005 + 1e-12
ROUNDED = {"dot": 5e-4, "exp": 5e-5, "elu": 5e-5}  # shipped to 4 and 5 significant digits


@pytest.fixture(scope="module")
def data():
    return article.figure_data("fig-05b")


@pytest.fixture(scope="module")
def spec():
    return article.spec("fig-05b").params


def numbers(text: str) -> list[float]:
    return [float(m.replace(",", "").replace("−", "-")) for m in NUMBER.findall(text)]


def slots(li: int, ai: int) -> dict:
    """What the component gives the templates' slots for slice li and angle ai (component.js)."""
    at = ["slices", li]
    return {
        "theta": ["angle_text", ai],
        "r": [*at, "length_text"],
        "dot": [*at, "dot_text", ai],
        "exp": [*at, "exp_text", ai],
        "elu": [*at, "elu_text", ai],
        "phi": ["text", "phi"],
        **{k: [*at, f"{k}_text"] for k in ("exp_min", "elu_min", "ratio_min", "ratio_max", "w_exp_max", "w_elu_max")},
    }


def some(all_slots: dict, names: str) -> dict:
    return {n: all_slots[n] for n in names.split()}


def test_every_slice_is_the_kernel(data, spec):
    """For every key length: both kernels at every angle, their smallest values (both positive),
    the ratio's range (not constant: neither is a rescaled copy), and the normalised weights each
    gives the seeded keys of that length."""
    q = np.array(spec["query"], dtype=float)
    angles = np.linspace(-180.0, 180.0, spec["angle_samples"])
    np.testing.assert_array_equal(data["angles"], angles)
    rng = np.random.default_rng(spec["seed"])
    key_angles = np.sort(rng.uniform(-180.0, 180.0, spec["n_keys"]))
    np.testing.assert_array_equal(data["key_angles"], key_angles)
    lo, hi = spec["key_length_range"]
    assert [s["length"] for s in data["slices"]] == pytest.approx(
        np.arange(lo, hi + spec["key_length_step"] / 2, spec["key_length_step"])
    )
    unit = np.stack([np.cos(np.radians(angles)), np.sin(np.radians(angles))], axis=1)
    dirs = np.stack([np.cos(np.radians(key_angles)), np.sin(np.radians(key_angles))], axis=1)
    for s in data["slices"]:
        sweep, keys = similarity_kernels(q, s["length"] * unit), similarity_kernels(q, s["length"] * dirs)
        for key, rtol in ROUNDED.items():
            np.testing.assert_allclose(s[key], sweep[key][0], rtol=rtol, atol=1e-12)
        np.testing.assert_allclose(s["w_exp"], keys["exp_weights"][0], rtol=1e-4)
        np.testing.assert_allclose(s["w_elu"], keys["elu_weights"][0], rtol=1e-4)
        ratio = sweep["exp"][0] / sweep["elu"][0]
        assert (s["ratio_min"], s["ratio_max"]) == (ratio.min(), ratio.max())
        assert (s["exp_min"], s["elu_min"]) == (sweep["exp"].min(), sweep["elu"].min())
        assert s["exp_min"] > 0 and s["elu_min"] > 0
        assert s["ratio_max"] > 1.05 * s["ratio_min"]  # neither is a rescaled copy


def test_the_fixed_texts_read_the_data(data, spec):
    assert data["angle_text"] == [f"{a:.0f}°".replace("-", "−") for a in data["angles"]]
    assert fill(data, ["text", "curve_head"]) == "Both kernels as the key turns"
    assert fill(data, ["text", "bars_head"]) == "Weights over eight keys of that length" and spec["n_keys"] == 8
    for name in ("exp", "elu", "angle_axis", "similarity_axis", "softmax", "elu_weights", "key_axis", "weight_axis"):
        assert data["text"]["plot"][name]
    assert data["text"]["plot"]["weight_axis"] == "attention weight"
    for hover in ("exp_hover", "elu_hover", "softmax_hover", "elu_weights_hover"):
        assert "%{y:.3f}" in data["text"]["plot"][hover]  # Plotly's hover: three decimals, like the readout


def test_every_sentence_at_every_length_and_angle_reads_the_data(data):
    """At every key length and angle: the readout gives that angle, length, dot product and both
    kernels' values; the narration the length, the angle, both values and the largest weights; at
    every length the verdict gives the smallest values and the ratio's range, and the charts'
    labels the peaks and every weight."""
    n_keys = len(data["key_angles"])
    for li, s in enumerate(data["slices"]):
        r = pytest.approx(s["length"], abs=HALF2)
        assert data["slices"][li]["length_text"] == f"{s['length']:.2f}"
        for ai, angle in enumerate(data["angles"]):
            at = slots(li, ai)
            values = [pytest.approx(s[k][ai], abs=HALF3) for k in ("dot", "exp", "elu")]
            readout = fill(data, ["text", "readout"], some(at, "theta r dot exp elu phi"))
            assert numbers(readout) == [angle, r, *values], readout
            said = fill(data, ["text", "describe"], some(at, "r theta exp elu w_exp_max w_elu_max"))
            weights = [pytest.approx(max(s[k]), abs=HALF2) for k in ("w_exp", "w_elu")]
            assert numbers(said) == [r, angle, *values[1:], *weights], said
        verdict = fill(data, ["text", "verdict"], some(slots(li, 0), "exp_min elu_min ratio_min ratio_max"))
        want = [pytest.approx(s[k], abs=HALF3) for k in ("exp_min", "elu_min", "ratio_min", "ratio_max")]
        assert numbers(verdict) == want and "neither kernel is a rescaled copy" in verdict
        curve = fill(data, ["slices", li, "curve_label"])
        peaks = [pytest.approx(max(s[k]), abs=HALF2) for k in ("exp", "elu")]
        assert numbers(curve) == [data["angles"][0], data["angles"][-1], r, *peaks]
        bars = fill(data, ["slices", li, "bars_label"])
        assert f"over {'eight' if n_keys == 8 else n_keys} keys" in bars
        assert numbers(bars) == [r, *(pytest.approx(w, abs=HALF2) for w in s["w_exp"] + s["w_elu"])]


def test_the_headline_answers_with_the_kernel_at_the_opening_length(data, spec):
    """The takeaway reads the key length the figure opens on, recomputed from the kernel: the ratio
    exp / φ·φ over the angles is far from one constant ("No", and at every other length too), and
    normalised over the seeded keys softmax's largest weight is larger than ELU+1's."""
    title, takeaway = headline("fig-05b")
    assert title.endswith("?")
    q = np.array(spec["query"], dtype=float)
    lo, hi = spec["key_length_range"]
    lengths = np.arange(lo, hi + spec["key_length_step"] / 2, spec["key_length_step"])
    angles = np.radians(np.linspace(-180.0, 180.0, spec["angle_samples"]))
    unit = np.stack([np.cos(angles), np.sin(angles)], axis=1)
    key_angles = np.radians(np.sort(np.random.default_rng(spec["seed"]).uniform(-180.0, 180.0, spec["n_keys"])))
    dirs = np.stack([np.cos(key_angles), np.sin(key_angles)], axis=1)
    for r in lengths:  # "No" holds at every length the slider reaches (barely for the shortest keys)
        sweep = similarity_kernels(q, r * unit)
        ratio = sweep["exp"][0] / sweep["elu"][0]
        assert ratio.max() > 1.05 * ratio.min(), r
    r = lengths[np.argmin(np.abs(lengths - spec["key_length_default"]))]
    sweep, keys = similarity_kernels(q, r * unit), similarity_kernels(q, r * dirs)
    ratio = sweep["exp"][0] / sweep["elu"][0]
    w_exp, w_elu = keys["exp_weights"][0].max(), keys["elu_weights"][0].max()
    assert ratio.max() > 2 * ratio.min() and w_exp > w_elu  # at the opening length, far from a copy
    assert takeaway == (
        f"No: at key length {r:.2f}, exp / φ·φ runs from {ratio.min():.3f} to {ratio.max():.3f}; "
        f"softmax's top weight is {w_exp:.2f}, ELU+1's only {w_elu:.2f}."
    )
