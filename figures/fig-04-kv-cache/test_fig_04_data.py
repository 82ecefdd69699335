"""FIG 04's data against the kernels (the cache's counters and outputs, the fixed state's size,
traffic and outputs), what §04 says the figure shows, and every sentence the figure can show (each
position, with the cache and with the state, stepped to or switched to) against the numbers it ships."""

import re
from itertools import pairwise

import numpy as np
import pytest

from k3explainer.kernels import (
    causal_softmax_attention,
    decode_with_kv_cache,
    elu_plus_one,
    kv_cache_elements,
    linear_attention,
    reassociate,
)
from k3explainer.site.readertext import fill
from k3project.experiments import mechanism_costs
from tests.site import article
from tests.site.article import headline

NUMBER = re.compile(r"(?<![\w§])−?\d[\d,]*(?:\.\d+)?(?:e−?\d+)?")


@pytest.fixture(scope="module")
def data():
    return article.figure_data("fig-04")


@pytest.fixture(scope="module")
def kernel(data):
    """The kernels run again on the seeded inputs: k, v are shipped; q is re-drawn from the seed."""
    T, D, P = len(data["tokens"]), data["D"], data["n_prompt"]
    q, k, v = np.random.default_rng(data["provenance"]["seed"]).standard_normal((3, T, D))
    fq, fk = elu_plus_one(q), elu_plus_one(k)
    return {
        "q": q,
        "k": k,
        "v": v,
        "dec": decode_with_kv_cache(q, k, v, n_prefill=P),
        "full": causal_softmax_attention(q, k, v)[0],
        "state": mechanism_costs("linear", "decode", 1, d_h=D, heads=1),
        "lin_recurrent": linear_attention(fq, fk, v, normalize=True, form="recurrent"),
        "lin_parallel": linear_attention(fq, fk, v, normalize=True, form="parallel"),
    }


def numbers(text: str) -> list[float]:
    """The numbers a sentence states, in order ("1,234", "−0.5", "5.6e−17"), as floats."""
    return [float(m.replace(",", "").replace("−", "-")) for m in NUMBER.findall(text)]


def test_the_inputs_are_the_seeded_ones(data, kernel):
    np.testing.assert_array_equal(data["k"], kernel["k"])
    np.testing.assert_array_equal(data["v"], kernel["v"])


def test_the_cache_counters_and_outputs_are_the_kernels(data, kernel):
    """The prefill writes the prompt's columns and reads none; each decode step's n, reads, writes
    and cache size are decode_with_kv_cache's (2·N·D read, 2·D written); every output is the one
    through the cache, equal to the full causal pass's row."""
    dec, D, P = kernel["dec"], data["D"], data["n_prompt"]
    prefill, *decode = data["steps"]
    assert (prefill["kind"], prefill["n"], prefill["token"]) == ("prefill", P, P - 1)
    assert prefill["reads"] == 0 and prefill["writes"] == prefill["cache"] == kv_cache_elements(P, D) == 2 * P * D
    assert len(decode) == len(dec["cache_tokens"]) >= 3
    for j, s in enumerate(decode):
        n = int(dec["cache_tokens"][j])
        assert (s["kind"], s["n"], s["token"]) == ("decode", n, n - 1) and n == P + j + 1
        assert s["cache"] == kv_cache_elements(n, D) == 2 * n * D
        assert s["reads"] == dec["reads"][j] == 2 * n * D
        assert s["writes"] == dec["writes"][j] == 2 * D
    for s in data["steps"]:
        t = s["token"]
        np.testing.assert_array_equal(s["cached_out"], dec["outputs"][t])
        np.testing.assert_array_equal(s["full_out"], kernel["full"][t])
        assert s["max_diff"] == np.max(np.abs(dec["outputs"][t] - kernel["full"][t])) < 1e-12


def test_the_fixed_state_is_linear_attentions(data, kernel):
    """With the switch on: a D×D state φ(K)ᵀV of the tokens so far, its size and per-step traffic
    from mechanism_costs (the prefill, which builds it, reads none), and its own output read
    through S (recurrent), equal to the full causal linear pass (parallel)."""
    D = data["D"]
    q, k, v = kernel["q"], kernel["k"], kernel["v"]
    for s in data["steps"]:
        st, t, n = s["state"], s["token"], s["n"]
        assert st["kept"] == st["writes"] == kernel["state"]["kept"] == D * D
        assert st["reads"] == (0 if s["kind"] == "prefill" else kernel["state"]["reads"])
        np.testing.assert_allclose(
            st["S"], reassociate(elu_plus_one(q[:n]), elu_plus_one(k[:n]), v[:n])["state"], rtol=1e-15
        )
        np.testing.assert_array_equal(st["out"], kernel["lin_recurrent"][t])
        np.testing.assert_array_equal(st["full_out"], kernel["lin_parallel"][t])
        assert st["max_diff"] == np.max(np.abs(st["out"] - np.asarray(st["full_out"]))) < 1e-12
        assert not np.allclose(st["out"], s["cached_out"])  # a different mechanism: not the softmax row


def test_what_the_prose_says_the_figure_shows_holds(data, kernel):
    """Each sentence of §04 that says what FIG 04 shows, checked against the data it ships."""
    text = article.prose("04-kv-cache.md")
    steps, D, P = data["steps"], data["D"], data["n_prompt"]
    decode = [s for s in steps if s["kind"] == "decode"]
    assert len(decode) >= 3
    # "From one decode step to the next, the first grows by a fixed amount; so does the second ...;
    # the third stays constant."
    assert "From one decode step to the next, the first grows by a fixed amount; so does the second" in text
    assert "the third stays constant" in text
    assert {b["cache"] - a["cache"] for a, b in pairwise(decode)} == {2 * D}
    assert {b["reads"] - a["reads"] for a, b in pairwise(decode)} == {2 * D}
    assert {s["writes"] for s in decode} == {2 * D}
    assert [s["cache"] for s in decode] == [kv_cache_elements(n, D) for n in kernel["dec"]["cache_tokens"]]
    # "... in the figure, which shows both side by side, they agree to rounding error."
    assert "they agree to rounding error" in text
    for s in steps:
        t = s["token"]
        assert s["max_diff"] == np.max(np.abs(kernel["dec"]["outputs"][t] - kernel["full"][t])) < 1e-12
    # "Appending tokens never changes any earlier output."
    assert "Appending tokens never changes any earlier output." in text
    q, k, v = kernel["q"], kernel["k"], kernel["v"]
    for m in range(P + 1, len(data["tokens"])):
        shorter = decode_with_kv_cache(q[:m], k[:m], v[:m], n_prefill=P)["outputs"]
        assert np.array_equal(shorter, kernel["dec"]["outputs"][:m])
    # the switch: "a single square matrix whose size never changes, however far you step" and
    # "per-step reads that no longer depend on how many tokens came before"
    assert "a single square matrix whose size never changes" in text
    assert "per-step reads that no longer depend on how many tokens came before" in text
    assert {s["state"]["kept"] for s in steps} == {D * D} == {int(kernel["state"]["kept"])}
    # a decode step reads the whole state; the prefill, which builds it from nothing, reads none
    assert {s["state"]["reads"] for s in steps if s["kind"] == "decode"} == {int(kernel["state"]["reads"])}
    assert [s["state"]["reads"] for s in steps if s["kind"] == "prefill"] == [0]
    assert all(np.array(s["state"]["S"]).shape == (D, D) for s in steps)


def test_the_fixed_texts_read_the_data(data):
    D, kept = data["D"], data["steps"][0]["state"]["kept"]
    assert numbers(fill(data, ["text", "state_caption"])) == [D, D]
    label = fill(data, ["text", "chart_label"])
    assert label.startswith("Memory kept after each step") and numbers(label) == [kept]
    assert fill(data, ["text", "legend_cache"]) == "KV cache per step"
    assert "D × D" in fill(data, ["text", "fixed", "kept_note"]) and "2·N·D" in fill(
        data, ["text", "cache", "kept_note"]
    )
    for key in ("tokens_label", "k_caption", "v_caption", "state_note", "legend_state"):
        assert fill(data, ["text", key]) and not numbers(fill(data, ["text", key]))
    assert fill(data, ["text", "cache", "note"]) == "" and "linear attention's numbers" in fill(
        data, ["text", "fixed", "note"]
    )
    positions = data["position_text"]
    decode = len(data["steps"]) - 1
    assert len(positions) == len(data["steps"]) + 1 and positions[0] == "not started"
    assert positions[1].startswith("prefill") and numbers(positions[1]) == [data["n_prompt"]]
    assert [numbers(p) for p in positions[2:]] == [[j, decode] for j in range(1, decode + 1)]


@pytest.mark.parametrize("mode", ["cache", "fixed"])
def test_every_sentence_in_every_state_reads_the_data(data, mode):
    """At every position, with the cache or the state: the counters are the step's numbers, the
    output panel names the token, its position and the largest difference, and the narration, for
    a step and for a flip of the switch, states the step's numbers in order and names what is shown."""
    fixed, P, tokens = mode == "fixed", data["n_prompt"], data["tokens"]
    views = data["views"][mode]
    assert len(views) == len(data["steps"]) + 1
    for pos, view in enumerate(views):
        at = ["views", mode, pos]
        s = data["steps"][pos - 1] if pos else None
        if s is None:
            mem = {"kept": data["steps"][0]["state"]["kept"] if fixed else 0, "reads": 0, "writes": 0}
        else:
            mem = s["state"] if fixed else {"kept": s["cache"], "reads": s["reads"], "writes": s["writes"]}
        n = s["n"] if s else 0
        for key, want in (("n", n), ("kept", mem["kept"]), ("reads", mem["reads"]), ("writes", mem["writes"])):
            assert fill(data, [*at, key]) == f"{want:,}", (mode, pos, key)
        assert numbers(fill(data, [*at, "n_note"])) == ([n - P] if s and s["kind"] == "decode" else [])
        for key in ("reads_note", "writes_note"):
            assert fill(data, [*at, key])
        said, switched = fill(data, [*at, "said"]), fill(data, [*at, "said_switch"])
        assert switched.startswith("Fixed-size state shown. " if fixed else "KV cache shown. ")
        if s is None:
            assert "Nothing processed yet" in said and said in switched
            assert numbers(said) == ([mem["kept"]] if fixed else [])
            assert {"title", "via", "diff"}.isdisjoint(view)
            continue
        t, diff = s["token"], (s["state"] if fixed else s)["max_diff"]
        title = fill(data, [*at, "title"])
        assert f"“{tokens[t]}”" in title and numbers(title) == [t + 1] and ("linear" in title) == fixed
        assert fill(data, [*at, "via"]) == (
            "via the state S" if fixed else "prefill pass" if s["kind"] == "prefill" else "via the cache"
        )
        assert numbers(fill(data, [*at, "diff"])) == [pytest.approx(diff, rel=0.05, abs=1e-30)]
        # the step, or the prompt's length; then what is kept (and, for the cache, for how many
        # tokens), what the step reads and writes, and the largest difference
        lead = P if s["kind"] == "prefill" else pos - 1
        memory = [mem["kept"], *([] if fixed else [n]), mem["reads"], mem["writes"]]
        want = [lead, *memory, pytest.approx(diff, rel=0.05, abs=1e-30)]
        assert numbers(said) == want and numbers(switched) == want, (mode, pos, said)
        assert ("fixed state holds" in said) == fixed and ("cache holds" in said) != fixed
        assert (f"“{tokens[t]}” appended" in said) == (s["kind"] == "decode")
        assert said.endswith(").") and "to rounding error" in said


def test_the_headline_answers_with_the_kernels_counts(data, kernel):
    """The takeaway reads the last decode step, where the figure's play-through stops, from the
    kernels: the cache grows by the same 2·D per token (the prompt's too), every decode step reads
    the whole cache, and the fixed-size state is the same size at every step."""
    title, takeaway = headline("fig-04")
    assert title.endswith("?")
    dec, D, P, T = kernel["dec"], data["D"], data["n_prompt"], len(data["tokens"])
    sizes = [int(n) for n in dec["cache_tokens"]]
    assert sizes[-1] == T
    per_token = {int(w) for w in dec["writes"]} | {
        int(kv_cache_elements(n + 1, D) - kv_cache_elements(n, D)) for n in range(T)
    }
    assert per_token == {2 * D} and kv_cache_elements(P, D) == P * 2 * D  # the prefill's tokens add as much
    assert [int(r) for r in dec["reads"]] == [int(kv_cache_elements(n, D)) for n in sizes]  # all of it
    state = {int(mechanism_costs("linear", "decode", n, d_h=D, heads=1)["kept"]) for n in range(1, T + 1)}
    assert len(state) == 1  # flat
    assert takeaway == (
        f"The cache grows {2 * D} elements a token ({kv_cache_elements(T, D)} after {T}) and every decode step "
        f"reads all of it; a fixed-size state stays at {state.pop()}."
    )
