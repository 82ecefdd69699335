"""FIG 01: the builder's numbers are softmax's, the section's sentences about the figure hold for
them, and the built page ships exactly them (the browser only draws)."""

import json
from pathlib import Path

import numpy as np
import pytest

from k3explainer.site import projectcode
from k3explainer.site.errors import Diagnostics
from k3explainer.site.facts import project_facts
from k3explainer.site.headline import filled
from k3explainer.site.params import checked_specs
from k3explainer.site.pipeline import Project, build

ROOT = Path(__file__).resolve().parents[2]  # figures/<figure>/ → the project


@pytest.fixture(scope="module")
def data():
    spec = checked_specs(ROOT)["fig-01"]
    builder = projectcode.builder(ROOT, spec.builder_name)
    return builder.build(spec.params, project_facts(ROOT, Diagnostics(ROOT)))


def test_probabilities_sum_to_one_and_keep_the_scores_order(data):
    probs = np.array(data["probs"])
    assert np.allclose(probs.sum(axis=1), 1.0, atol=1e-12)
    order = np.argsort(-np.array(data["scores"]), kind="stable")
    assert all(np.all(np.diff(row[order]) <= 1e-15) for row in probs)  # "the order never changes"


def test_what_the_section_says_the_figure_shows(data):
    """'the largest score takes nearly all the probability' at the lowest τ; 'the bars level out
    towards one in five' as τ rises: the spread shrinks at every step, the entropy grows."""
    probs, n = np.array(data["probs"]), len(data["scores"])
    assert n == 5 and probs[0].max() > 0.99
    spread = probs.max(axis=1) - probs.min(axis=1)
    assert np.all(np.diff(spread) < 0) and np.all(np.abs(probs[-1] - 1 / n) < 0.1)
    assert np.all(np.diff(data["entropy_bits"]) > 0) and data["entropy_bits"][-1] <= data["max_entropy_bits"]


def test_the_page_ships_the_builders_numbers(tmp_path):
    build(Project(ROOT), tmp_path / "site")
    text = (tmp_path / "site" / "data" / "fig-01.js").read_text(encoding="utf-8")
    shipped = json.loads(text[text.index("(") + len('"fig-01", ') + 1 : text.rindex(")")])
    spec = checked_specs(ROOT)["fig-01"]
    fresh = projectcode.builder(ROOT, spec.builder_name).build(spec.params, project_facts(ROOT, Diagnostics(ROOT)))
    assert np.allclose(shipped["probs"], fresh["probs"], rtol=0, atol=1e-15)


def test_the_spec_s_words_are_its_params():
    """'Five fixed scores', 'one in five': the caption and the text alternative say what the params
    hold. (The constant's name takes its numbers from the params by {placeholders}, so it always does.)"""
    spec = checked_specs(ROOT)["fig-01"]
    scores = spec.params["scores"]
    assert len(scores) == 5 and "Five fixed scores" in spec.model.caption and "one in five" in spec.model.caption
    assert "five probabilities" in spec.model.alt and "one in five" in spec.model.alt
    assert scores == sorted(scores, reverse=True)  # "from the highest score on the left"
    assert spec.model.constants[0].name == f"{len(scores)} scores from {scores[0]:g} down to {scores[-1]:g}".replace(
        "-", "−"
    )


def softmax(z, tau):
    """p_i = exp(z_i / τ) / Σ_j exp(z_j / τ), written out again here."""
    e = np.exp(z / tau)
    return e / e.sum()


def test_the_headline_answers_with_the_builders_probabilities(data):
    """The title and takeaway as the page shows them (their {slots} filled from the data, as the
    build fills them): the top score's share at the opening τ is softmax's, 'nearly all' of it
    at the lowest τ, and at the highest the bars are 'close to the even' share."""
    title, takeaway = filled(checked_specs(ROOT)["fig-01"], data)
    assert title.endswith("?") and "{" not in title
    z, taus = np.array(data["scores"]), np.array(data["taus"])
    i = data["default_index"]
    top = softmax(z, taus[i]).max()
    even = 1 / len(z)
    assert takeaway == (
        f"At τ = {taus[i]:g} the top score takes {top:.0%}; at τ = {taus[0]:g} nearly all, "
        f"at τ = {taus[-1]:g} only {softmax(z, taus[-1]).max():.0%}, close to the even {even:.0%}."
    )
    assert softmax(z, taus[0]).max() > 0.99  # "nearly all"
    assert even < softmax(z, taus[-1]).max() < top and abs(softmax(z, taus[-1]) - even).max() < 0.05
