"""FIG 01: the filter never forgets an item, the measured rate is the share of wrong answers, the
formula is (1 − e^(−kn/m))^k, and what the section says about them holds for the shipped numbers."""

from itertools import pairwise
from pathlib import Path

import numpy as np
import pytest

from k3explainer.site import projectcode
from k3explainer.site.errors import Diagnostics
from k3explainer.site.facts import project_facts
from k3explainer.site.headline import filled
from k3explainer.site.params import checked_specs

ROOT = Path(__file__).resolve().parents[2]  # figures/<figure>/ → the project


@pytest.fixture(scope="module")
def built():
    spec = checked_specs(ROOT)["fig-01"]
    builder = projectcode.builder(ROOT, spec.builder_name)
    return builder, spec.params, builder.build(spec.params, project_facts(ROOT, Diagnostics(ROOT)))


def test_no_false_negatives_and_the_bits_only_fill(built):
    _, _, d = built
    assert d["no_false_negatives"]
    bits = np.array(d["bits_set"])
    assert np.all(np.diff(bits, axis=1) >= 0) and np.all(np.diff(bits, axis=1) <= np.array(d["k_values"])[:, None])


def test_measured_rate_is_the_share_of_wrong_answers_of_this_filter(built):
    """Re-run the plain loop for k = 2 and count by hand at n = 10."""
    builder, params, d = built
    rng = np.random.default_rng(params["seed"])
    runs = [builder.filter_run(params["m"], k, params["n_max"], params["queries"], rng) for k in params["k_values"]]
    i = params["k_values"].index(2)
    assert np.array_equal(runs[i]["measured"], d["measured"][i])
    first = np.array(d["first_set"][i])
    rng = np.random.default_rng(params["seed"])
    for k in params["k_values"][: i + 1]:
        items = rng.integers(0, params["m"], size=(params["n_max"], k))
        asked = rng.integers(0, params["m"], size=(params["queries"], k))
    set_at_10 = (first >= 1) & (first <= 10)
    assert d["measured"][i][10] == pytest.approx(set_at_10[asked].all(axis=1).mean(), abs=0)
    assert set_at_10[items[:10]].all()


def test_what_the_section_and_caption_say(built):
    """'stays close to the formula while the array is sparse … strays further as it fills';
    'with few items many hash functions pay off, with many items few do'."""
    _, params, d = built
    measured, formula, n = np.array(d["measured"]), np.array(d["formula"]), np.arange(params["n_max"] + 1)
    k = np.array(d["k_values"])[:, None]
    assert np.allclose(formula, (1 - np.exp(-k * n / params["m"])) ** k)
    gap = np.abs(measured - formula)
    assert gap[:, n <= 16].max() < 0.05 and gap[:, n >= 48].max() > 2 * gap[:, n <= 16].max()
    best = [d["k_values"][int(np.argmin(formula[:, j]))] for j in range(4, params["n_max"] + 1, 4)]
    assert best[0] == max(d["k_values"]) and best[-1] <= 2 and all(a >= b for a, b in pairwise(best))


def test_the_numbers_the_caption_and_text_alternative_name_are_the_params(built):
    """The spec's words repeat its params (m, the items, the questions, the seed): they change together."""
    import re

    _, params, _ = built
    spec = checked_specs(ROOT)["fig-01"]
    flat = lambda t: re.sub(r"\s+", " ", t)
    assert f"$m = {params['m']}$ bits" in flat(spec.model.caption)
    assert f"grid of {params['m']} bits" in flat(spec.model.alt) and f"from 0 to {params['n_max']}" in flat(
        spec.model.alt
    )
    assert "a few thousand" in flat(spec.model.alt) and 1000 <= params["queries"] < 10_000
    assert spec.model.constants[0].name == (
        f"{params['m']} bits, up to {params['n_max']} items, {params['queries']:,} questions, seed {params['seed']}"
    )
    assert "a few thousand" in flat((ROOT / "content" / "01-bloom-filter.md").read_text(encoding="utf-8"))


def test_the_headline_answers_with_the_formula_s_best_k(built):
    """The title and takeaway as the page shows them (their {slots} filled from the data, as the
    build fills them): the best k by (1 − e^(−kn/m))^k after every insertion, recomputed here, only
    falls as the filter fills ("fewer"), and holds where the takeaway says it does."""
    _, params, d = built
    title, takeaway = filled(checked_specs(ROOT)["fig-01"], d)
    assert title.endswith("?") and "{" not in title
    m, ks, n_max, n = params["m"], params["k_values"], params["n_max"], params["n_default"]
    best = {
        i: ks[int(np.argmin([(1 - np.exp(-k * i / m)) ** k for k in ks]))] for i in range(1, n_max + 1)
    }  # n → the k with the lowest formula rate
    assert all(best[i] >= best[i + 1] for i in range(1, n_max)) and best[1] > best[n_max]  # "fewer as it fills"
    until = max(i for i in best if all(best[j] == best[1] for j in range(1, i + 1)))
    since = min(i for i in best if all(best[j] == best[n_max] for j in range(i, n_max + 1)))
    assert takeaway == (
        f"Fewer as it fills: in {m} bits the formula's best k is {best[1]} up to {until} items, {best[n]} at {n} "
        f"and {best[n_max]} from {since} (of k = {ks[0]} to {ks[-1]})."
    )
    assert ks == list(range(ks[0], ks[-1] + 1))  # "k = 1 to 6" leaves none out
