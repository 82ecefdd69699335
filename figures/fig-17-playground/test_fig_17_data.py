"""FIG 17's data against the kernels (every attention stage and every delta-rule token, on the
shipped queries, keys and values, and the one colour scale), and every text it can show (each
stage's caption, button name and narration, each token's captions and narration, what each keeps)
against the numbers it ships."""

import re

import numpy as np
import pytest

from k3explainer.kernels import causal_softmax_attention, delta_rule
from k3explainer.site.readertext import fill
from tests.site import article
from tests.site.article import headline

FIG = "fig-17"
NUMBER = re.compile(r"−?\d+(?:\.\d+)?")
SUB = "₀₁₂₃₄₅₆₇₈₉"


@pytest.fixture(scope="module")
def data():
    return article.figure_data(FIG)


@pytest.fixture(scope="module")
def kernel(data):
    q, k, v = (np.array(data[n]) for n in "qkv")
    _, _, att = causal_softmax_attention(q, k, v, trace=True)
    _, _, dr = delta_rule(q, k, v, np.full(len(k), data["beta"]), scale=1.0, trace=True)
    return {"q": q, "k": k, "v": v, "att": att, "dr": dr}


def numbers(text: str) -> list[float]:
    return [float(m.replace("−", "-")) for m in NUMBER.findall(text)]


def shown(xs, digits):
    """A vector's entries as the sentences write them (`digits` decimals), read back."""
    return [float(f"{x:.{digits}f}") for x in xs]


def test_every_stage_and_token_is_the_kernels(data, kernel):
    att, dr = data["attention"], data["delta"]
    for key in ("raw_scores", "scaled_scores", "weights", "output"):
        np.testing.assert_allclose(att[key], kernel["att"][key], rtol=0, atol=1e-12)
    np.testing.assert_array_equal(att["mask"], kernel["att"]["mask"].astype(int))
    assert att["scale"] == pytest.approx(kernel["att"]["scale"], rel=1e-15)
    for t, step in enumerate(dr):
        for key in ("state_prev", "read", "error", "write", "state", "output"):
            np.testing.assert_allclose(step[key], kernel["dr"][key][t], rtol=0, atol=1e-12)
        for key in "kqv":
            np.testing.assert_array_equal(step[key], kernel[key][t])
        # a cell is marked changed where the write moves it by half a shown digit or more
        np.testing.assert_array_equal(
            step["changed"], np.abs(kernel["dr"]["write"][t]) >= 0.5 * 10.0 ** -data["digits"]
        )
    weights = np.array(att["weights"])
    np.testing.assert_allclose(weights.sum(axis=1), 1, atol=1e-12)


def test_one_colour_scale_is_the_largest_magnitude_shown(data, kernel):
    att, dr = kernel["att"], kernel["dr"]
    every = [kernel["q"], kernel["k"], kernel["v"], att["raw_scores"], att["scaled_scores"], att["weights"]]
    every += [att["output"], dr["read"], dr["error"], dr["write"], dr["state"], dr["output"]]
    assert data["heat_scale"] == pytest.approx(max(np.max(np.abs(x[np.isfinite(x)])) for x in every), rel=1e-12)


def test_what_each_keeps_is_counted(data):
    T, dk, dv = len(data["tokens"]), data["d_k"], data["d_v"]
    assert data["kept"] == {"attention": [(t + 1) * (dk + dv) for t in range(T)], "delta": dk * dv}
    assert data["kept_text"] == {"attention": [str(n) for n in data["kept"]["attention"]], "delta": str(dk * dv)}


def test_every_sentence_in_every_state_reads_the_data(data):
    """Each stage's caption, button name and narration (the last query's row of that stage); each
    token's button name, captions, narration (its read, error and output) and what each keeps."""
    digits, T, att = data["digits"], len(data["tokens"]), data["attention"]
    assert data["token_names"] == [f"“{t}”" for t in data["tokens"]]
    assert data["token_named"] == [f"{t + 1} ({n})" for t, n in enumerate(data["token_names"])]
    last = T - 1
    rows = [att["raw_scores"], att["scaled_scores"], att["scaled_scores"], att["weights"], att["output"]]
    for s, stage in enumerate(data["stages"]):
        assert fill(data, ["stages", s, "aria"]).startswith(f"Stage {s + 1}: {stage['caption']}")
        said = fill(data, ["stages", s, "describe"])
        assert said.startswith("Attention, ") and f"for query {data['token_named'][last]}: [" in said
        row = said[said.index(": [") + 2 : said.index("]") + 1]
        assert numbers(row) == shown(rows[s][last], digits), (s, said)
        assert ("above the diagonal are −∞" in said) == (s == 2)
    assert [fill(data, ["stages", s, "caption"]) for s in range(3)] == [
        "raw scores q·k",
        "scaled scores q·k / √dₖ",
        "masked scores (+ M)",
    ]
    assert data["stages"][3]["caption"] == data["stages"][4]["caption"]  # the output stage still shows the weights
    assert "output O = weights · V" in data["stages"][4]["describe"]
    for t, step in enumerate(data["delta"]):
        token = {"token": ["token_named", t]}
        assert fill(data, ["text", "token_option"], token) == f"Token {t + 1} ({data['token_names'][t]})"
        assert (step["before_caption"], step["after_caption"]) == (f"S{SUB[t]} before", f"S{SUB[t + 1]} after")
        said = fill(data, ["delta", t, "describe"])
        assert said.startswith(f"Delta rule, token {data['token_named'][t]}: ")
        vectors = re.findall(r"(read|error|output) (\[[^\]]*\])", said)
        assert [name for name, _ in vectors] == ["read", "error", "output"]
        for name, text in vectors:
            assert numbers(text) == shown(step[name], digits), (t, name)
        kept = data["kept"]
        assert said.endswith(f"Attention now keeps {kept['attention'][t]} numbers, the delta rule {kept['delta']}.")
        keeps = fill(data, ["text", "keeps_attention"], {**token, "kept": ["kept_text", "attention", t]})
        assert keeps == (
            f"Attention after token {data['token_named'][t]} keeps every key and value so far: "
            f"{kept['attention'][t]} numbers, one more row of each per token."
        )
        both = fill(
            data, ["text", "describe_both"], {"attention": ["stages", 0, "describe"], "delta": ["delta", t, "describe"]}
        )
        assert both == f"{data['stages'][0]['describe']} {said}"
    assert fill(data, ["text", "keeps_delta"]) == (
        f"The delta rule keeps one {data['d_k']} × {data['d_v']} state: {data['kept']['delta']} numbers after any "
        "number of tokens."
    )
    beta = f"{data['beta']:.2f}"
    assert fill(data, ["text", "beta"]) == f"β = {beta}" and fill(data, ["text", "beta_label"]).endswith(
        f"beta = {beta}"
    )


def test_the_headline_answers_with_the_kernels_first_outputs_and_memories(data, kernel):
    """For the first token (where the figure opens) attention returns v₁ itself, and the delta rule
    returns v₁ scaled by β (q₁·k₁), the factor the takeaway gives; by the last token attention keeps
    a key and a value per token, the delta rule its one d_k × d_v state, the same after every token."""
    title, takeaway = headline(FIG)
    assert title.endswith("?") and not re.search(r"\d", title)
    q, k, v, att, dr = (kernel[n] for n in ("q", "k", "v", "att", "dr"))
    np.testing.assert_allclose(att["output"][0], v[0], rtol=0, atol=1e-12)
    scale = data["beta"] * float(q[0] @ k[0])
    np.testing.assert_allclose(dr["output"][0], scale * v[0], rtol=0, atol=1e-12)
    assert 0 < scale < data["beta"]  # the same direction, shrunk
    T, dk, dv = len(data["tokens"]), data["d_k"], data["d_v"]
    states = np.array(dr["state"])
    assert states.shape == (T, dk, dv)  # one state, whatever the token
    first, last = (f"“{t}”" for t in (data["tokens"][0], data["tokens"][-1]))
    assert takeaway == (
        f"For {first}, attention returns v₁, the delta rule {scale:.2f}·v₁; by {last}, attention keeps "
        f"{T * (dk + dv)} numbers, the delta rule still {dk * dv}."
    )
    assert T * (dk + dv) > dk * dv
