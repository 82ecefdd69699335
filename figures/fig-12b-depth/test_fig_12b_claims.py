"""What §12, FIG 12b's caption and its text alternative say the figure shows, checked against the data
its builder makes from its spec. Each test quotes the words it holds to the numbers, so an edit to
either side that breaks the match fails here: growth roughly as √l to about ten times the embedding
at the layer marked as K3's count; layer 1's share tracking 1/l down to about 1 %; attention-residual inputs bounded by
their largest source, between about 0.6 and 1; random queries wandering; the aimed query keeping more
than 80 % of the input, a weight of 0.79 at the marked layer, about 74 times the equal share."""

from __future__ import annotations

import numpy as np
import pytest

from k3explainer.kernels import attention_residual
from k3explainer.site.projectcode import builder
from k3project.experiments import residual_stack, retrieval_query, stream_rms
from tests.site import article
from tests.site.project import ROOT

FIG = "fig-12b"


@pytest.fixture(scope="module")
def data():
    return article.figure_data(FIG)


@pytest.fixture(scope="module")
def words():
    """The §12 passage about FIG 12b (from its heading to the next one), the caption and the alt."""
    passage = article.passage("12-attention-residuals.md", "## The wall, measured")
    s = article.spec(FIG)
    return {"prose": passage, "caption": article.flat(s.caption), "alt": article.flat(s.alt)}


def said(words, *phrases, where=("prose", "caption", "alt")):
    """Every phrase is written in at least one of the named texts."""
    for p in phrases:
        assert any(p in words[w] for w in where), f"not written any more: {p!r}"


def series(data, rule, key, i=None):
    vals = data["rules"][rule][key]
    return np.array(vals if i is None else [v[i] for v in vals], dtype=float)


def at(data, l):
    return data["depths"].index(l)


def test_the_setup_the_words_describe(data, words):
    said(words, "16 token vectors through one seeded stack of 96 random MLP layers", where=("prose",))
    said(words, "One seeded stack of 96 random MLP layers", where=("caption",))
    said(words, "over the reading layer l, from 2 to 96, with K3's count of layers marked", where=("alt",))
    assert data["n_tokens"] == 16 and data["n_layers"] == 96
    assert data["depths"][0] == 2 and data["depths"][-1] == 96
    assert data["k3_depth"] == int(article.facts().parts("kimi_k3.layer_layout")["layers"])
    assert data["k3_depth"] in data["depths"]  # a stop on the slider, and where the figure opens
    # the note under the figure: K3's stream takes two writes per layer, the toy's one
    assert "so its own plain stream would sum {{calc.k3_residual_writes}} outputs" in data["k3_md"]
    assert article.facts().number("calc.k3_residual_writes") == 2 * data["k3_depth"]


def test_the_plain_stream_grows_roughly_as_the_square_root_of_l(data, words):
    said(
        words,
        "Every layer adds an output about the size of the embedding",
        "grows roughly as $\\sqrt{l}$",
        "K3's own stream would be larger still, because each of its layers writes to it twice: attention, then the MLP",
        where=("prose",),
    )
    said(
        words,
        "it grows with every layer, roughly as the square root of l, to about ten times the embedding's size "
        "at the marked layer",
        where=("alt",),
    )
    assert 0.9 <= data["output_rms"] / data["embedding_rms"] <= 1.15
    rms, depths = series(data, "plain", "rms"), np.array(data["depths"])
    assert np.all(np.diff(rms) > 0)  # with every layer
    assert np.all(np.abs(rms / (data["embedding_rms"] * np.sqrt(depths)) - 1) < 0.1)  # roughly √l
    assert 9 <= rms[at(data, data["k3_depth"])] / data["embedding_rms"] <= 11  # about ten times


def test_layer_1_dilutes_like_the_equal_share(data, words):
    said(
        words,
        "In the plain stream layer 1's share stays close to the equal share $1/l$",
        where=("prose",),
    )
    said(
        words,
        "it stays close to the dotted equal-share line 1/l, falling to about 1 % at the marked layer",
        where=("alt",),
    )
    share, depths = series(data, "plain", "shares", data["target"]), np.array(data["depths"])
    assert data["target"] == 1
    assert np.all((share * depths > 0.6) & (share * depths < 1.1))  # close to 1/l at every stop
    assert share[at(data, data["k3_depth"])] == pytest.approx(0.01, abs=0.005)  # about 1 %
    assert share[at(data, data["k3_depth"])] < share[0] / 30  # falling


def test_shares_sum_to_one_and_plain_weights_are_equal_pieces(data, words):
    said(words, "a layer's shares sum to one", where=("caption",))
    said(words, "$c_i = 1$ in the plain residual")
    said(words, "the plain residual is always cut into l equal pieces", where=("alt",))
    for rule in ("plain", "random", "aligned"):
        for j, l in enumerate(data["depths"]):
            assert len(data["rules"][rule]["shares"][j]) == l
            shipped = 5e-6 * l + 1e-9  # each number ships rounded to five decimals
            assert sum(data["rules"][rule]["shares"][j]) == pytest.approx(1, abs=shipped)
            assert sum(data["rules"][rule]["weights"][j]) == pytest.approx(1, abs=shipped)
    for j, l in enumerate(data["depths"]):
        assert data["rules"]["plain"]["weights"][j] == pytest.approx([1 / l] * l, abs=5e-6)


def test_an_attention_residual_input_stays_between_about_0_6_and_1(data, words):
    said(
        words,
        "a layer's input is a weighted average of its sources, never larger than the largest of them",
        where=("prose",),
    )
    said(
        words,
        "never larger than the largest of them: it stays between about 0.6 and 1, a little below 1 with the query "
        "aimed at layer 1 and lower, down to about 0.6, with random queries as their weights spread",
        where=("alt",),
    )
    aligned, rand = series(data, "aligned", "rms"), series(data, "random", "rms")
    both = np.concatenate([aligned, rand])
    assert round(both.min(), 1) == 0.6 and round(both.max(), 1) == 1.0
    assert np.all((aligned > 0.85) & (aligned < 1))  # a little below 1
    assert np.all(rand < aligned) and round(rand.min(), 1) == 0.6  # lower, down to about 0.6
    k3 = at(data, data["k3_depth"])
    spread = [1 / np.sum(np.square(w)) for w in data["rules"]["random"]["weights"]]  # sources in play
    assert spread[k3] > 3 * spread[at(data, 4)]  # as their weights spread


def test_never_larger_than_the_largest_source_token_by_token(data):
    """Recomputed from the seeded stack: per token, each input's RMS is at most its largest source's."""
    Params = builder(ROOT, "fig-12b-depth").Params

    params = Params.model_validate(dict(article.spec(FIG).params)).model_dump()
    e, w_in, w_out, q, g = builder(ROOT, "fig-12b-depth").stack_inputs(params)
    r = residual_stack(e, w_in, w_out, q, g)
    src = r["attn_sources"]
    aim = retrieval_query(src[data["target"]], g, data["query_norm"])
    assert np.linalg.norm(aim) == pytest.approx(data["query_norm"])  # as long as the random queries
    assert np.allclose(np.linalg.norm(q, axis=1), data["query_norm"])
    for l in data["depths"]:
        biggest = stream_rms(src[:l]).max(axis=0)
        assert np.all(stream_rms(r["attn_inputs"][l - 1]) <= biggest + 1e-12)
        assert np.all(stream_rms(attention_residual(src[:l], aim, g)[0]) <= biggest + 1e-12)


def test_random_queries_wander(data, words):
    said(
        words,
        "Random queries, the general case, spread the weights unevenly and retrieve nothing in particular",
        where=("prose",),
    )
    said(
        words,
        "with random queries it wanders, several times 1/l at some layers and near zero at others",
        "with random queries the pieces are uneven",
        where=("alt",),
    )
    share, depths = series(data, "random", "shares", 1), np.array(data["depths"])
    assert (share * depths).max() >= 3 and share.min() < 0.001
    for j, l in enumerate(data["depths"]):
        w = np.array(data["rules"]["random"]["weights"][j])
        assert w.max() >= 1.5 * w.min() and w.max() > 0  # uneven pieces (a piece may underflow to exactly 0)
        if l >= 8:
            assert w.max() < 0.5  # no one source is retrieved


def test_the_aimed_query_retrieves_layer_1(data, words):
    said(
        words,
        "layer 1 then keeps most of the input at every depth",
        where=("prose",),
    )
    said(
        words,
        "With the query aimed at layer 1 it stays above 80 % at every layer",
        "with the aimed query one piece, layer 1, fills most of it",
        where=("alt",),
    )
    assert np.all(series(data, "aligned", "shares", 1) > 0.8)
    weights = series(data, "aligned", "weights", 1)
    assert np.all(weights > 0.5)  # fills most of the strip
    assert all(int(np.argmax(w)) == 1 for w in data["rules"]["aligned"]["weights"])
