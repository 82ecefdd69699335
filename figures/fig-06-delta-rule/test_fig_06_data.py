"""FIG 06's data against the kernels (every stage of every token, the chunked form, the read-back,
the repeated key), and every sentence it can show, in every state, against the numbers it ships."""

import re

import numpy as np
import pytest

from k3explainer.kernels import delta_rule, delta_rule_chunked
from k3explainer.site.readertext import fill
from tests.site import article
from tests.site.article import headline

STAGES = ["read", "error", "write", "state"]
NUMBER = re.compile(r"−?\d+(?:\.\d+)?(?:e−?\d+)?")


@pytest.fixture(scope="module")
def data():
    return article.figure_data("fig-06")


@pytest.fixture(scope="module")
def kernel(data):
    q, k, v = (np.array(data[n]) for n in "qkv")
    betas = np.full(len(k), data["beta"])
    o, S, tr = delta_rule(q, k, v, betas, trace=True)
    o_c, S_c = delta_rule_chunked(q, k, v, betas, chunk_size=data["chunk_size"])
    return {"q": q, "k": k, "v": v, "o": o, "S": S, "tr": tr, "o_c": o_c, "S_c": S_c}


def numbers(text: str) -> list[float]:
    """Every number in a sentence as the page writes it (a real minus sign, 1.1e−16)."""
    return [float(n.replace("−", "-")) for n in NUMBER.findall(text)]


def vectors(text: str) -> list[list[float]]:
    """The [a, b, c, d] vectors a sentence quotes."""
    return [numbers(v) for v in re.findall(r"\[([^\]]*)\]", text)]


def shown(xs, digits) -> list[float]:
    """A vector as the figure writes it (to `digits` decimals), read back."""
    return [float(f"{x:.{digits}f}") for x in xs]


def test_every_stage_of_every_token_is_the_kernels_trace(data, kernel):
    tr, tol = kernel["tr"], 0.5 * 10.0 ** -data["digits"]
    for t, step in enumerate(data["steps"]):
        for key in ("state_prev", "read", "error", "write", "state", "output"):
            np.testing.assert_allclose(step[key], tr[key][t], rtol=1e-15, atol=1e-15, err_msg=f"{key}, token {t + 1}")
        np.testing.assert_array_equal(step["k"], kernel["k"][t])
        np.testing.assert_array_equal(step["v"], kernel["v"][t])
        # a cell is marked changed when the write moves it by at least half the last shown digit
        np.testing.assert_array_equal(step["changed"], (np.abs(tr["write"][t]) >= tol).astype(int))
        np.testing.assert_allclose(step["write"], data["beta"] * np.outer(kernel["k"][t], tr["error"][t]), atol=1e-15)
    np.testing.assert_array_equal(data["steps"][0]["read"], np.zeros(data["d"]))  # the empty state reads zero
    everything = (kernel["k"], kernel["v"], tr["read"], tr["error"], tr["write"], tr["state"])
    assert data["heat_scale"] == pytest.approx(max(np.max(np.abs(x)) for x in everything), rel=1e-12)


def test_the_chunked_form_reaches_the_recurrences_state_and_outputs(data, kernel):
    chunked = data["chunked"]
    np.testing.assert_allclose(chunked["state"], kernel["S_c"], rtol=1e-15)
    assert np.max(np.abs(kernel["S_c"] - kernel["S"])) < 1e-12
    assert chunked["state_diff"] == np.max(np.abs(kernel["S_c"] - kernel["S"]))
    assert chunked["output_diff"] == np.max(np.abs(kernel["o_c"] - kernel["o"]))
    assert chunked["n_chunks"] == -(-len(kernel["k"]) // data["chunk_size"])


def test_the_read_back_gives_beta_v(data, kernel):
    rb, beta = data["readback"], data["beta"]
    k1, v1 = kernel["k"][:1], kernel["v"][:1]
    out, _ = delta_rule(k1, k1, v1, [beta], scale=1.0)
    out_default, _ = delta_rule(k1, k1, v1, [beta])
    np.testing.assert_allclose(rb["out"], out[0], rtol=1e-15)
    np.testing.assert_allclose(rb["beta_v"], beta * v1[0], rtol=1e-15)
    np.testing.assert_allclose(rb["out"], rb["beta_v"], atol=1e-12)
    np.testing.assert_allclose(rb["out_default_scale"], out_default[0], rtol=1e-15)  # the kernels' 1/√d scale
    assert rb["default_scale"] == pytest.approx(1 / np.sqrt(data["d"]))


def test_the_repeated_key_reads_the_old_association_and_moves_beta_of_the_way(data, kernel):
    rep, tr, beta = data["repeat"], kernel["tr"], data["beta"]
    t, src = rep["token"] - 1, rep["key_of"] - 1
    np.testing.assert_array_equal(kernel["k"][t], kernel["k"][src])
    np.testing.assert_array_equal(rep["old_value"], kernel["v"][src])
    np.testing.assert_array_equal(rep["new_value"], kernel["v"][t])
    np.testing.assert_allclose(rep["read"], tr["read"][t], rtol=1e-15)
    after = tr["state"][t].T @ kernel["k"][t]  # what the key reads once the write has landed
    np.testing.assert_allclose(rep["read_after"], after, atol=1e-12)
    np.testing.assert_allclose(after, tr["read"][t] + beta * (kernel["v"][t] - tr["read"][t]), atol=1e-9)


def test_it_opens_on_a_state_that_already_holds_writes(data, kernel):
    tok, stage = data["open_at"]["token"], data["open_at"]["stage"]
    assert tok - 1 >= 3 and stage == "state"  # several writes already in the state; "once its write has landed"
    assert np.count_nonzero(np.abs(kernel["tr"]["state_prev"][tok - 1]) >= 0.0005) == 16


def test_every_sentence_in_every_state_reads_the_data(data):
    """At every step: the stepper names the token and stage, the note the token, the narration the
    vector of that stage (or the write's and the new state's first rows, and how many cells
    changed); the repeated key's card fills in row by row; the read-back, the chunked form."""
    steps, digits, rep = data["steps"], data["digits"], data["repeat"]
    T, beta = len(steps), data["beta"]
    assert len(data["walk"]) == T * len(STAGES)
    for i, walk in enumerate(data["walk"]):
        t, s = divmod(i, len(STAGES))
        step = steps[t]
        assert fill(data, ["walk", i, "readout"]) == f"token {t + 1} / {T} · {STAGES[s]}"
        note = fill(data, ["walk", i, "note"])
        assert note.startswith(f"Token {t + 1}")
        if t and t != rep["token"] - 1:
            assert ("first, read" in note) == (s == 0) and (f"β = {beta:.2f}" in note) == (s > 0)
        said = fill(data, ["walk", i, "said"])
        assert said.startswith(f"Token {t + 1}, {'new state' if s == 3 else STAGES[s]}")
        quoted = {0: step["read"], 1: step["error"], 2: step["write"][0], 3: step["state"][0]}[s]
        assert vectors(said) == [shown(quoted, digits)], said
        if s == 2:
            assert f"β = {beta:.2f};" in said
        if s == 3:
            assert f"; {int(np.sum(step['changed']))} cells changed;" in said
        # the card: the stored value once its token wrote it, then at the repeated token the read,
        # the new value and, once the write landed, the read after it
        rows = walk["repeat_rows"]
        r, src = rep["token"] - 1, rep["key_of"] - 1
        assert rows == (0 if t < src else 1 if t < r else 4 if t > r else {0: 2, 1: 3, 2: 3, 3: 4}[s])
        card = fill(data, ["repeat", "text", "note", rows])
        assert (f"Token {rep['key_of']} will store" in card) == (rows == 0)
        assert (numbers(card) == [beta * 100, beta]) == (rows == 4), card
    for t in range(T):
        assert fill(data, ["steps", t, "before_caption"]).endswith(f" before token {t + 1}")
        assert fill(data, ["steps", t, "after_caption"]).endswith(" after")
        assert fill(data, ["play_said", t]) == f"Token {t + 1}."
    text = ["repeat", "text"]
    assert fill(data, [*text, "caption"]) == f"token {rep['token']} reuses token {rep['key_of']}'s key"
    assert fill(data, [*text, "go", "ahead"]) == f"Go to token {rep['token']}"
    assert fill(data, [*text, "go", "back"]) == f"Back to token {rep['token']}"
    assert fill(data, ["text", "beta"]) == f"β = {beta:.2f}" and fill(data, ["text", "beta_aria"]).endswith(
        f"{beta:.2f}"
    )
    for i, stage in enumerate(data["stages"]):
        assert fill(data, ["stages", i, "aria"]) == f"Stage {i + 1}: {stage['label']}"


def test_the_read_back_and_the_chunked_form_say_what_they_ship(data):
    rb, chunked, digits = data["readback"], data["chunked"], data["digits"]
    said = fill(data, ["readback", "text", "said_on"])
    out, beta_v = vectors(said)
    assert out == shown(rb["out"], digits) and beta_v == shown(rb["beta_v"], digits)
    assert said.endswith("they are equal.") and out == beta_v
    on = fill(data, ["readback", "text", "on"])
    diff, scale = (numbers(on.split(words, 1)[1])[0] for words in ("max difference", "1/√d_k ="))
    assert diff == pytest.approx(rb["diff"], rel=0.05) and scale == pytest.approx(rb["default_scale"], abs=0.005)
    text = fill(data, ["chunked", "text"])
    size, n_chunks, ds, do = numbers(text.split(" — ")[0])  # before "— equal to float64 rounding"
    assert (size, n_chunks) == (data["chunk_size"], chunked["n_chunks"])
    assert ds == pytest.approx(chunked["state_diff"], rel=0.05) and do == pytest.approx(
        chunked["output_diff"], rel=0.05
    )


def test_the_headline_answers_with_the_repeated_keys_read_and_write(data, kernel):
    """The repeated key's read, recomputed from the kernel's trace, is off the value it stored (blurred,
    yet nearer it than the new value), and one write moves it most of the way to the new value: by β,
    since the error is written along a unit key."""
    title, takeaway = headline("fig-06")
    rep, tr, k, v = data["repeat"], kernel["tr"], kernel["k"], kernel["v"]
    t, src = rep["token"] - 1, rep["key_of"] - 1
    np.testing.assert_array_equal(k[t], k[src])
    read, after = tr["read"][t], tr["state"][t].T @ k[t]
    off = np.linalg.norm(read - v[src]) / np.linalg.norm(v[src])
    moved = 1 - np.linalg.norm(after - v[t]) / np.linalg.norm(read - v[t])
    assert title == "How does writing only the difference let a memory correct itself?"
    assert takeaway == (
        f"Token {t + 1} reuses token {src + 1}'s key: its read is {off:.0%} off the old value, and one write "
        f"moves it {moved:.0%} of the way to the new one."
    )
    assert 0.05 < off < 1 and np.linalg.norm(read - v[src]) < np.linalg.norm(read - v[t])
    assert moved == pytest.approx(data["beta"], abs=1e-9) and 0.5 < moved < 1
