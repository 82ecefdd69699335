"""FIG 02's data against the kernel (every stage of every row, the unscaled comparison and the
per-row readouts), every sentence it can show about a row against the numbers it ships, and what
§02, the caption and the text alternative say the figure shows against its data."""

import html
import re

import numpy as np
import pytest

from k3explainer.kernels import causal_softmax_attention
from k3explainer.site.readertext import at
from tests.site import article
from tests.site.article import headline

FIG = "fig-02"


@pytest.fixture(scope="module")
def data():
    return article.figure_data(FIG)


@pytest.fixture(scope="module")
def kernel(data):
    q, k, v = (np.array(data[n]) for n in "qkv")
    o, w, tr = causal_softmax_attention(q, k, v, trace=True)
    _, w_raw = causal_softmax_attention(q, k, v, scale=1.0)  # the comparison: no 1/√d_k
    return {"o": o, "w": w, "raw": tr["raw_scores"], "scaled": tr["scaled_scores"], "w_raw": w_raw, "v": v}


def test_every_stage_of_every_row_is_the_kernels(data, kernel):
    """What the browser test used to recompute: the scores, the weights with and without scaling,
    the outputs and the per-row readouts."""
    np.testing.assert_allclose(data["raw_scores"], kernel["raw"], atol=1e-12)
    np.testing.assert_allclose(data["scaled_scores"], kernel["scaled"], atol=1e-12)
    np.testing.assert_allclose(data["weights"], kernel["w"], atol=1e-12)
    np.testing.assert_allclose(data["weights_unscaled"], kernel["w_raw"], atol=1e-12)
    np.testing.assert_allclose(data["output"], kernel["o"], atol=1e-12)
    w, w_raw = kernel["w"], kernel["w_raw"]
    assert data["max_weight"] == pytest.approx(w.max(axis=1)) and data["argmax"] == list(w.argmax(axis=1))
    assert data["max_weight_unscaled"] == pytest.approx(w_raw.max(axis=1))
    assert data["argmax_unscaled"] == list(w_raw.argmax(axis=1))
    assert data["row_sum"] == pytest.approx(w.sum(axis=1))
    assert data["mask"] == np.tril(np.ones_like(w, dtype=int)).tolist()  # 1: a key the query may see


def test_the_weights_as_printed_are_the_weights(data):
    """Two decimals, four where two would print 0.00 for a weight above zero or 1.00 for one below
    one (a lone key's 1.00 stays), and a masked key reads 0."""
    T = len(data["tokens"])
    for key in ("weights", "weights_unscaled"):
        for t in range(T):
            for s in range(T):
                text, x = data[f"{key}_text"][t][s], data[key][t][s]
                if s > t:
                    assert text == "0" and x == 0
                    continue
                assert float(text) == pytest.approx(x, abs=0.5 * 10 ** -len(text.split(".")[1]) + 1e-12)
                assert (len(text.split(".")[1]) == 4) == (
                    (x > 0 and round(x, 2) == 0) or (x < 1 and round(x, 2) == 1)
                ), (key, t, s, text)
    assert "0.9996" in data["weights_unscaled_text"][1]  # the case the rule is for


def test_every_sentence_about_every_row_reads_the_data(data):
    """For each query row, the sentence under the scores and the narration: the row and its token,
    how many keys it sees, the row sum, the largest weight, where it goes and the unscaled one."""
    tokens = data["tokens"]
    for t, token in enumerate(tokens):
        best, best_raw = data["max_weight"][t], data["max_weight_unscaled"][t]
        row = at(data, ["row_text", t])
        assert row.startswith(f"Row {t + 1} “{token}”: {t + 1} visible key{'s' if t else ''}, weights sum to ")
        assert f"weights sum to {data['row_sum'][t]:.3f}." in row
        said = at(data, ["said", t])
        assert said.startswith(f"Query {t + 1} “{token}” sees {t + 1} token{'s' if t else ''}; the largest weight, ")
        s = data["argmax"][t]
        assert f", goes to {s + 1} “{tokens[s]}”" in said
        shown = [float(x) for x in re.findall(r"\d\.\d+", row)]
        if t:
            assert shown == pytest.approx([data["row_sum"][t], best, best_raw], abs=0.005)
            assert float(said.split("the largest weight, ")[1].split(",")[0]) == pytest.approx(best, abs=0.005)
            assert said.endswith(
                f" ({data['weights_unscaled_text'][t][data['argmax_unscaled'][t]]} without the 1/√d scaling)."
            )
            # the numbers in both sentences are the table's own texts for those cells
            assert f"Largest weight {data['weights_text'][t][s]};" in row
            assert f"it would be {data['weights_unscaled_text'][t][data['argmax_unscaled'][t]]}." in row
        else:
            assert row.endswith("A single visible key takes all the weight, with or without scaling.")
            assert said == f"Query 1 “{token}” sees 1 token; the largest weight, 1.00, goes to 1 “{token}”."
        assert data["query_aria"][t] == f"Query {t + 1} “{token}”"
        assert data["key_labels"][t] == f"{t + 1} {token}"


def section_text(site_dir, section_id):
    """The plain text of one built section (tags stripped, entities decoded)."""
    page = (site_dir / "index.html").read_text(encoding="utf-8")
    m = re.search(rf'<section[^>]*id="{section_id}".*?</section>', page, re.S)
    return re.sub(r"\s+", " ", html.unescape(re.sub(r"<[^>]+>", " ", m.group(0))))


def test_what_the_prose_and_the_spec_say_the_figure_shows_holds(site_dir, data, kernel):
    """Each sentence in §02, the caption and the text alternative that describes FIG 02's numbers,
    checked against the data the figure shipped (which equals the kernel)."""
    w, w_raw, T = kernel["w"], kernel["w_raw"], len(data["tokens"])
    text = section_text(site_dir, "attention")
    alt = article.flat(article.spec(FIG).alt)
    # alt: the sentence it names is the one the figure runs
    assert f'sentence "{" ".join(data["tokens"])}"' in alt
    # "Everything above the diagonal is masked ... future tokens receive exactly zero weight."
    assert "Everything above the diagonal is masked" in text
    assert np.all(w[np.triu_indices(T, 1)] == 0) and np.all(w_raw[np.triu_indices(T, 1)] == 0)
    # "the first token's single visible cell carries all the weight" (and the alt's last sentence)
    assert "the first token’s single visible cell carries all the weight" in text
    assert "The first row puts all its weight on the first token." in alt
    assert w[0, 0] == 1
    # "the weights are positive and sum to 1"; "a convex combination of the visible values ... never outside them"
    assert "the weights are positive and sum to 1" in text and "never outside them" in text
    for t in range(T):
        assert np.all(w[t, : t + 1] > 0) and w[t].sum() == pytest.approx(1, abs=1e-12)
        vis = kernel["v"][: t + 1]
        assert np.all(kernel["o"][t] >= vis.min(axis=0) - 1e-12) and np.all(kernel["o"][t] <= vis.max(axis=0) + 1e-12)
    # "in every row with more than one visible key its largest weight is bigger than the scaled one"
    assert "in every row with more than one visible key its largest weight is bigger than the scaled one" in text
    assert "in every row with more than one visible key their largest weight is larger" in alt
    assert all(w_raw[t].max() > w[t].max() for t in range(1, T))
    # "... even at this tiny d_k some rows already put nearly all their weight on a single key"
    assert "some rows already put nearly all their weight on a single key" in text
    assert sum(w_raw[t].max() > 0.99 for t in range(1, T)) >= 2
    assert max(w[t].max() for t in range(1, T)) < 0.99  # while with scaling none does


def test_the_headline_answers_with_the_default_row_s_weights(data, kernel):
    """The takeaway reads the row the figure opens on, recomputed from the kernel: the query, how many
    keys it sees, its largest weight and where it goes, the same key's weight without the 1/√d_k
    (larger: scaling flattens the row), and nothing for the tokens after it."""
    title, takeaway = headline(FIG)
    assert title.endswith("?")
    tokens, w, w_raw, T = data["tokens"], kernel["w"], kernel["w_raw"], len(data["tokens"])
    t = data["headline"]["row"]
    assert t == (T - 1) // 2 and 0 < t < T - 1  # a middle row: more than one key, and a masked tail
    s = int(w[t].argmax())
    assert int(w_raw[t].argmax()) == s  # the unscaled weight in brackets is the same key's
    assert w_raw[t, s] > w[t, s]
    assert takeaway == (
        f"Query “{tokens[t]}” mixes the values of the {t + 1} tokens it sees, {w[t, s]:.0%} from “{tokens[s]}” "
        f"({w_raw[t, s]:.0%} without the 1/√d_k); later ones get nothing."
    )
    assert np.all(w[t, t + 1 :] == 0) and np.all(w[t, : t + 1] > 0)
