"""FIG 16's data against the kernel, and every sentence it can show (panels, terms, scale ends,
table, trade note, narration, for every mechanism, phase and N) against the numbers it ships."""

import re

import numpy as np
import pytest

from k3explainer.site.readertext import fill
from k3project.experiments import mechanism_costs
from tests.site import article
from tests.site.article import headline

PHASES = ("prefill", "decode")
SI = {"K": 1e3, "M": 1e6, "G": 1e9, "T": 1e12, "P": 1e15, "E": 1e18}


@pytest.fixture(scope="module")
def data():
    return article.figure_data("fig-16")


def si_value(text: str) -> float:
    """'8.39 M' → 8.39e6; '623 K' → 6.23e5; '512' → 512."""
    number, _, prefix = text.partition(" ")
    return float(number) * SI.get(prefix, 1)


def states(data):
    for m in data["values"]:
        for p in data["values"][m]:
            for i in range(len(data["n"])):
                yield m, p, i


def test_every_count_and_term_is_the_kernels(data):
    """Each mechanism × phase: the three counts and the terms listed under reads and FLOPs are
    mechanism_costs on the shipped grid and constants (the browser test only compares what is
    shown with what was shipped)."""
    N = np.asarray(data["n"], dtype=np.float64)
    for m, phases in data["values"].items():
        for p, values in phases.items():
            costs = mechanism_costs(m, p, N, **data["constants"])
            for q in ("reads", "flops", "kept"):
                np.testing.assert_array_equal(values[q], costs[q], err_msg=f"{m} {p} {q}")
            for q in ("reads", "flops"):
                terms = {k: v for k, v in costs[f"{q}_parts"].items() if np.any(v)}
                shipped = data["parts"][m][p][q]
                assert [t["key"] for t in shipped] == list(terms), (m, p, q)
                for t in shipped:
                    np.testing.assert_array_equal(t["values"], terms[t["key"]], err_msg=f"{m} {p} {q} {t['key']}")


def test_every_shown_number_is_the_value_it_stands_for(data):
    assert data["n_text"] == [f"{n:,}" for n in data["n"]]
    for m, p, i in states(data):
        for q, values in data["values"][m][p].items():
            text = data["value_text"][m][p][q][i]
            assert si_value(text) == pytest.approx(values[i], rel=5e-3), (m, p, q, i, text)
        for q in ("reads", "flops"):
            for t in data["parts"][m][p][q]:
                assert si_value(t["value_text"][i]) == pytest.approx(t["values"][i], rel=5e-3), (m, p, q, t["key"])
    for q, ends in data["bar_ends_text"].items():
        assert [si_value(e) for e in ends] == data["bar_ends"][q] and not any(".0" in e for e in ends), q


def test_every_sentence_in_every_state_reads_the_data(data):
    """For every mechanism, phase and N: the panels' counts carry their units, the table caption
    and the narration name N and the phase, the narration gives the three counts the panels show,
    and the trade note gives MLA's ratios against softmax attention at that N."""
    labels = {m["key"]: m["label"] for m in data["mechanisms"]}
    phases = {p["key"]: p["label"] for p in data["phases"]}
    for m, p, i in states(data):
        n, shown = {"n": ["n_text", i]}, data["value_text"][m][p]
        n_text = data["n_text"][i]
        for q, unit in data["units"].items():
            amount = fill(data, ["text", "amount", q], {"value": ["value_text", m, p, q, i]})
            assert amount == f"{shown[q][i]} {unit}"
        assert fill(data, ["text", "caption", p], n) == f"{phases[p]} at N = {n_text} tokens, one layer"
        said = fill(data, ["text", "describe", m, p], {**n, **{q: ["value_text", m, p, q, i] for q in shown}})
        assert said == (
            f"{labels[m]}, {p} at N = {n_text} tokens: reads {shown['reads'][i]} elements, computes "
            f"{shown['flops'][i]} FLOPs, keeps {shown['kept'][i]} elements per layer."
        )
        assert fill(data, ["text", "slider"], n) == f"{n_text} tokens"
    for p, t in data["trade"].items():
        for i, n_text in enumerate(data["n_text"]):
            slots = {"n": ["n_text", i], **{k: ["trade", p, "numbers_text", k, i] for k in t["numbers_text"]}}
            note = fill(data, ["trade", p, "text"], slots)
            assert note.startswith(f"MLA against softmax attention at {p}, N = {n_text}: "), note
            numbers = {k: float(re.match(r"[\d.]+", v[i])[0]) for k, v in t["numbers_text"].items()}
            want = {"flops_ratio": t["flops_ratio"][i]}
            if p == "decode":
                want |= {
                    "reads_ratio": t["reads_ratio"][i],
                    **{f"intensity_{m}": t["intensity"][m][i] for m in ("mla", "softmax")},
                }
                assert f"softmax attention reads {t['numbers_text']['reads_ratio'][i]} as many elements" in note
                assert f"MLA does {t['numbers_text']['flops_ratio'][i]} as many FLOPs" in note
            else:
                want["rebuild_share"] = 100 * t["rebuild_share"][i]
                assert note.endswith(
                    f"{t['numbers_text']['rebuild_share'][i]} of them rebuilding keys and values from the latents."
                )
            assert numbers == pytest.approx(want, rel=5e-3), (p, i)
            assert all(v[i].endswith("×") for k, v in t["numbers_text"].items() if k.endswith("_ratio"))


def test_ties_round_up_as_the_page_did(data):
    """The trade note's numbers keep the form the page showed when it wrote them in JavaScript
    (toPrecision: three significant digits, a tie rounds up): at N = 8,192 MLA's prefill FLOPs are
    1.125 times softmax attention's, shown as 1.13×."""
    i = data["n"].index(8192)
    assert data["trade"]["prefill"]["flops_ratio"][i] == 1.125
    assert data["trade"]["prefill"]["numbers_text"]["flops_ratio"][i] == "1.13×"


def test_the_headline_answers_with_the_kernel_s_softmax_counts(data):
    """At the N the figure opens on, the takeaway's counts are mechanism_costs for softmax attention:
    prefill's FLOPs, and one decode step reading the whole KV cache prefill left (and nothing else)
    at 2 FLOPs per element, two orders of magnitude less arithmetic per element than prefill does."""
    title, takeaway = headline("fig-16")
    assert title.endswith("?") and not re.search(r"\d", title)
    n = article.spec("fig-16").params["n_tokens"]
    pre, dec = (mechanism_costs("softmax", p, np.array([n], dtype=np.float64), **data["constants"]) for p in PHASES)
    numbers = re.findall(r"\d[\d,.]*(?: [KMGTPE])?", takeaway)
    assert numbers[0] == f"{n:,}"
    assert si_value(numbers[1]) == pytest.approx(pre["flops"][0], rel=5e-3)
    assert si_value(numbers[2]) == pytest.approx(dec["reads"][0], rel=5e-3)
    assert float(numbers[3]) == dec["flops"][0] / dec["reads"][0] == 2
    assert takeaway == (
        f"Softmax at N = {n:,}: prefill computes {numbers[1]} FLOPs; a decode step reads all {numbers[2]} cached "
        f"elements at {numbers[3]} FLOPs each."
    )
    # "all ... cached": the step reads the cache and only the cache, the whole of what prefill kept
    assert list(dec["reads_parts"]) == ["cache"] and dec["reads"][0] == pre["kept"][0]
    assert pre["flops"][0] / pre["reads"][0] > 100 * dec["flops"][0] / dec["reads"][0]
