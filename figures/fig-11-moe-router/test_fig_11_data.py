"""FIG 11's balance statistic against the kernels and the facts (one definition for label, kernel,
badge and the value at perfect balance), and every sentence that says what FIG 11 shows (in §11, in
the figure's caption and in its text alternative) against that data; its routing and outputs
against the kernels, and every text the figure itself shows, for each token with and without the
bias, against the numbers it ships.

The sentences are quoted verbatim: rewording one fails its test, so whoever rewords it re-checks it.
"""

from __future__ import annotations

import re

import numpy as np
import pytest

from k3explainer.kernels import (
    balance_shares,
    expert_load,
    glu_expert,
    moe_forward,
    route,
    router_scores,
    sequence_balance_loss,
    switch_balance_loss,
    update_balance_bias,
)
from k3explainer.site.projectcode import builder
from k3explainer.site.readertext import fill
from tests.site import article
from tests.site.article import flat, headline
from tests.site.project import ROOT

WORDS = {1: "one", 2: "two", 3: "three", 4: "four", 5: "five", 6: "six", 7: "seven", 8: "eight", 9: "nine", 10: "ten"}


@pytest.fixture(scope="module")
def facts():
    return article.facts()


@pytest.fixture(scope="module")
def spec():
    return article.spec("fig-11")


@pytest.fixture(scope="module")
def data():
    """What the build ships (numpy arrays as plain lists), from the spec's params and the facts."""
    return article.figure_data("fig-11")


@pytest.fixture(scope="module")
def prose():
    return article.prose("11-moe.md")


def sizes(data) -> dict:
    return {
        "T": len(data["tokens"]),
        "D": len(data["x"][0]),
        "E": len(data["centroids"]),
        "k": data["top_k"],
        "shared": data["n_shared"],
    }


def kernel_balance(data, biased: bool) -> float:
    x, c = np.array(data["x"]), np.array(data["centroids"])
    r = route(
        x @ c.T, data["top_k"], score_func="sigmoid", renormalize=True, bias=np.array(data["bias"]) if biased else None
    )
    return switch_balance_loss(r["scores"], r["experts"])


# ---- one definition: the fact's formula, the kernel, the label and the value at perfect balance ----


def test_the_label_is_the_facts_formula_and_the_kernel_computes_it(data, facts):
    formula = data["balance_formula"]
    fact = facts[builder(ROOT, "fig-11-moe-router").BALANCE_FACT]
    assert builder(ROOT, "fig-11-moe-router").BALANCE_FACT == "moe.switch_aux_loss"
    assert formula == "N·Σ f_i P_i" and formula in fact.display  # the badge states the same formula
    assert "α·N·Σ f_i P_i" in fact.display  # ... with α, which the figure sets to 1
    # the label renders the fact itself (its badge), not a copy of the formula
    assert "{{moe.switch_aux_loss}}" in data["balance_label_md"] and "α = 1" in data["balance_label_md"]
    assert "top-1" in fact.note.lower()  # Switch's definition, which the figure's text carries over to top-k
    # the provenance names the same formula and fact
    assert (
        formula in data["provenance"]["balance"]
        and builder(ROOT, "fig-11-moe-router").BALANCE_FACT in data["provenance"]["balance"]
    )
    assert data["provenance"]["kernels"].count("k3explainer.kernels.switch_balance_loss") == 1
    # shipped value = N·Σ f_i P_i literally, from the shipped shares, = the kernel
    for key, biased in (("plain", False), ("biased", True)):
        f, P, N = np.array(data[key]["f"]), np.array(data[key]["P"]), len(data["centroids"])
        assert data[key]["balance"] == pytest.approx(N * np.sum(f * P), abs=1e-15)
        assert data[key]["balance"] == kernel_balance(data, biased)
        assert f.sum() == pytest.approx(1, abs=1e-15) and P.sum() == pytest.approx(1, abs=1e-15)
        s = sizes(data)
        assert f.tolist() == pytest.approx((np.array(data[key]["load"]) / (s["k"] * s["T"])).tolist(), abs=1e-15)


def test_value_at_perfect_balance_is_exactly_one_from_the_same_kernel(data):
    s = sizes(data)
    assert data["balance_even"] == 1.0
    even = (np.arange(s["T"])[:, None] * s["k"] + np.arange(s["k"])) % s["E"]
    assert (expert_load(even, s["E"]) == s["k"] * s["T"] // s["E"]).all()  # truly even: k·T/N slots each
    for scores in (np.ones((s["T"], s["E"])), np.array(data["scores"])):  # an even load gives 1 whatever the scores
        assert switch_balance_loss(scores, even) == pytest.approx(1.0, abs=1e-15)
    f, P = balance_shares(np.ones((s["T"], s["E"])), even)
    assert (f == 1 / s["E"]).all() and (P == 1 / s["E"]).all()


def test_the_definition_text_matches_what_the_kernel_counts(data):
    s = sizes(data)
    text = data["balance_def_md"]
    assert f"share of the {s['k'] * s['T']} routing slots ({s['k']} per token, {s['T']} tokens)" in text
    assert f"sum of the token's {s['E']} scores" in text
    assert f"each sum to 1 over the N = {s['E']} experts" in text
    assert f"top-{s['k']}, and an even load still gives exactly 1" in text
    # DeepSeek-V3's sequence-wise normalisation gives the same number (the figure needs only one)
    x, c = np.array(data["x"]), np.array(data["centroids"])
    r = route(x @ c.T, s["k"], score_func="sigmoid", renormalize=True)
    assert sequence_balance_loss(r["scores"], r["experts"]) == pytest.approx(data["plain"]["balance"], abs=1e-14)


def test_gates_are_the_chosen_scores_over_their_sum(data):
    scores = np.array(data["scores"])
    for key in ("plain", "biased"):
        experts, weights = np.array(data[key]["experts"]), np.array(data[key]["weights"])
        chosen = np.take_along_axis(scores, experts, axis=1)  # the scores without the bias
        np.testing.assert_allclose(weights, chosen / chosen.sum(axis=1, keepdims=True), rtol=0, atol=1e-15)
        np.testing.assert_allclose(weights.sum(axis=1), 1, rtol=0, atol=1e-15)
    np.testing.assert_allclose(scores, 1 / (1 + np.exp(-np.array(data["logits"]))), rtol=0, atol=1e-15)
    assert data["score_func"] == "sigmoid"


# ---- each sentence that says what FIG 11 shows, against the data --------------------------------


def test_section_sentences_about_the_demo(data, prose):
    assert "each gate is the expert's score divided by the sum of the chosen experts' scores" in prose
    assert "so the $k$ gates add up to one" in prose
    assert "In [](#fig-11) each score is a sigmoid, $s_e(x) = \\sigma(x\\cdot c_e)$" in prose
    test_gates_are_the_chosen_scores_over_their_sum(data)
    np.testing.assert_allclose(
        np.array(data["logits"]), np.array(data["x"]) @ np.array(data["centroids"]).T, rtol=0, atol=1e-15
    )


def test_section_sentences_about_the_balance_statistic(data, prose):
    assert (
        "[](#fig-11) shows this statistic, with $\\alpha = 1$, beside its load bars (under them, on a phone)." in prose
    )
    assert "Its router picks several experts per token" in prose and data["top_k"] > 1
    assert "Both shares sum to one over the experts, so an even load gives exactly one" in prose
    assert data["balance_even"] == 1.0
    # the identity in the display equation, on the shipped shares
    N = len(data["centroids"])
    for key in ("plain", "biased"):
        f, P = np.array(data[key]["f"]), np.array(data[key]["P"])
        assert data[key]["balance"] == pytest.approx(1 + N * np.sum((f - 1 / N) * (P - 1 / N)), abs=1e-14)
    assert "an uneven load the router does not favour can even score below one" in prose
    probs = np.array([[0.51, 0.49], [0.51, 0.49], [0.0, 1.0]])  # loads 2 and 1, the busy expert scored lower
    assert switch_balance_loss(probs, probs.argmax(axis=1)[:, None]) < 1
    assert "On the demo batch the load is uneven and the statistic is above one." in prose
    load = data["plain"]["load"]
    assert len(set(load)) > 1 and data["plain"]["balance"] > 1


def test_section_sentences_about_the_bias_button(data, prose, spec):
    assert (
        "the experts above the mean load lose a little score for the purpose of selection, those below gain "
        "a little, some choices change, and the load becomes more even and the statistic falls towards one"
    ) in prose
    load0, load1 = np.array(data["plain"]["load"]), np.array(data["biased"]["load"])
    bias = np.array(data["bias"])
    np.testing.assert_array_equal(bias, update_balance_bias(np.zeros(len(bias)), load0, spec.params["bias_gamma"]))
    assert (bias[load0 > load0.mean()] < 0).all() and (bias[load0 < load0.mean()] > 0).all()
    assert data["plain"]["experts"] != data["biased"]["experts"]
    assert load1.std() < load0.std() and load1.max() < load0.max()  # more even
    assert data["balance_even"] < data["biased"]["balance"] < data["plain"]["balance"]  # falls towards one
    assert "The gate weights are still computed from the scores without the bias." in prose
    test_gates_are_the_chosen_scores_over_their_sum(data)


def test_section_growth_sentence_uses_computed_ratios(prose, facts):
    assert "severalfold" not in prose
    for key in (
        "k2_to_k3_total_growth",
        "k2_to_k3_active_growth",
        "k2_to_k3_expert_growth",
        "k2_active_fraction",
        "k3_active_fraction",
    ):
        assert f"{{{{calc.{key}}}}}" in prose
    k2 = facts.parts("kimi_k2.summary")
    assert facts.number("calc.k2_to_k3_expert_growth") == facts.parts("kimi_k3.experts")["routed"] / k2["routed"]
    # "moved only from … to …": the share grew, by well under the growth of either count
    a2, a3 = facts.number("calc.k2_active_fraction"), facts.number("calc.k3_active_fraction")
    assert a2 < a3 < 1.2 * a2


def test_caption_sentences(data, spec):
    s, caption = sizes(data), flat(spec.caption)
    assert (
        f"each token's router scores are the sigmoids of its dot products with {WORDS[s['E']]} expert centroids, "
        f"the {WORDS[s['k']]} highest win, and their gate weights $g_e(x)$, each winning score divided by the "
        f"winners' sum, mix the expert outputs; {WORDS[s['shared']]} shared experts see every token."
    ) in caption
    test_gates_are_the_chosen_scores_over_their_sum(data)
    assert "Switch Transformer's balance statistic, which is exactly one when the load is even" in caption
    assert data["balance_even"] == 1.0


def test_alt_sentences(data, spec):
    s, alt = sizes(data), flat(spec.alt)
    assert alt.startswith(
        f"{WORDS[len(data['tiles'])].capitalize()} tiles give K3's headline numbers from the facts file"
    )
    assert (
        re.search(r"\d", alt.split("Below,")[0].replace("K3", "")) is None
    )  # no typed K3 number: the tiles carry the facts
    assert (
        f"{WORDS[s['T']]} tokens on the left are wired to {WORDS[s['E']]} routed experts and "
        f"{WORDS[s['shared']]} shared experts on the right"
    ) in alt
    assert (
        f"for the {WORDS[s['k']]} winners, their rank and gate weight: the winner's score divided by the sum of "
        f"the {WORDS[s['k']]} winning scores, so the gate weights sum to one"
    ) in alt
    assert (
        "Switch Transformer's balance statistic N·Σ f_i P_i, its loss L_aux with α = 1, for the batch, after one "
        "bias step and at perfect balance, where it is exactly one"
    ) in alt
    assert data["balance_formula"] in alt and data["balance_even"] == 1.0
    assert "which makes the load more even and lowers the statistic" in alt
    load0, load1 = np.array(data["plain"]["load"]), np.array(data["biased"]["load"])
    assert load1.std() < load0.std() and data["biased"]["balance"] < data["plain"]["balance"]


def test_spec_constants_name_the_one_definition(spec, data):
    named = {c.fact: c for c in spec.constants if c.fact}
    c = named["moe.switch_aux_loss"]
    assert c.provenance == "source" and c.name.startswith(f"Balance statistic {data['balance_formula']}:")
    assert spec.params["balance_statistic"] == "switch" and spec.params["renormalize"] is True


# ---- the data against the kernels, and every text the figure shows against the data -------------

ROUTINGS = {"plain": False, "biased": True}


def test_routing_load_balance_and_outputs_are_the_kernels(data):
    """Recomputed from the shipped inputs, without and with the bias: the dot products and scores,
    each token's chosen experts and gates, the load, the balance statistic, every chosen expert's
    E_e(x), the shared output and y (the browser test compares what is shown with what was shipped)."""
    x, c = np.array(data["x"]), np.array(data["centroids"])
    experts = tuple(np.array(w) for w in data["expert_weights"])
    shared = tuple(np.array(w) for w in data["shared_weights"])
    np.testing.assert_allclose(data["logits"], x @ c.T, rtol=0, atol=1e-12)
    np.testing.assert_allclose(data["scores"], router_scores(x @ c.T, "sigmoid"), rtol=0, atol=1e-15)
    np.testing.assert_allclose(glu_expert(x, *shared), data["shared_out"], atol=1e-12)
    for key, biased in ROUTINGS.items():
        bias = np.array(data["bias"]) if biased else None
        r = route(x @ c.T, data["top_k"], score_func="sigmoid", renormalize=True, bias=bias)
        assert r["experts"].tolist() == data[key]["experts"]
        np.testing.assert_allclose(data[key]["weights"], r["weights"], rtol=0, atol=1e-15)
        assert data[key]["load"] == expert_load(r["experts"], len(c)).tolist()
        assert data[key]["balance"] == pytest.approx(switch_balance_loss(r["scores"], r["experts"]), abs=1e-15)
        y, _ = moe_forward(
            x, c.T, experts, data["top_k"], shared=shared, score_func="sigmoid", renormalize=True, bias=bias
        )
        np.testing.assert_allclose(y, data[key]["y"], atol=1e-12)
        for t in range(len(x)):
            for i, e in enumerate(r["experts"][t]):
                want = glu_expert(x[t], *(w[e] for w in experts))
                np.testing.assert_allclose(data[key]["expert_out"][t][i], want, atol=1e-12)


def test_every_shown_number_is_the_value_it_stands_for(data):
    """The table's dot products, scores, bias, ranks and gates, the output rows, the load and the
    balance readout: each text is its value at the figure's precision."""
    P, text = data["precision"], data["text"]
    assert text["logit"] == [[f"{v:.{P}f}".replace("-", "−") for v in row] for row in data["logits"]]
    assert text["score"] == [[f"{v:.{P}f}" for v in row] for row in data["scores"]]
    assert [float(b.replace("−", "-")) for b in text["bias"]] == pytest.approx(data["bias"], abs=0.5 * 10**-P)
    assert text["balance_even"] == f"{data['balance_even']:.{P}f}" == f"{1:.{P}f}"
    for key in ROUTINGS:
        r, shown = data[key], data[key]["text"]
        assert shown["load"] == [str(n) for n in r["load"]] and shown["balance"] == f"{r['balance']:.{P}f}"
        for t, (chosen, gates) in enumerate(zip(r["experts"], r["weights"], strict=True)):
            assert [shown["rank"][t][e] for e in chosen] == [str(i + 1) for i in range(data["top_k"])]
            assert [shown["gate"][t][e] for e in chosen] == [f"{g:.{P}f}" for g in gates]
            others = set(range(len(data["bias"]))) - set(chosen)
            assert {shown["rank"][t][e] for e in others} == {"—"} and {shown["gate"][t][e] for e in others} == {"0"}
            values = [*r["expert_out"][t], data["shared_out"][t], r["y"][t]]
            assert [[float(v.replace("−", "-")) for v in row] for row in shown["output"][t]] == [
                pytest.approx(row, abs=0.5 * 10**-P) for row in values
            ]


def test_every_sentence_in_every_state_reads_the_data(data):
    """For each token, without and with the bias: the line under the table, the diagram's label,
    the output rows and the narration name the chosen experts, best first, with their gates and
    the gates' sum; the load chart's label and the bias narration give the load and the balance."""
    P, k, T = data["precision"], data["top_k"], len(data["tokens"])
    names = data["text"]["expert_names"]
    assert names == [f"E{e + 1}" for e in range(len(data["bias"]))]
    for key, biased in ROUTINGS.items():
        r, path = data[key], [key, "text"]
        for t, word in enumerate(data["tokens"]):
            token = f"“{word}” (token {t + 1})"
            gates = [f"{g:.{P}f}" for g in r["weights"][t]]
            chosen = [names[e] for e in r["experts"][t]]
            total = f"{sum(r['weights'][t]):.{P}f}"
            line = fill(data, [*path, "sum_line", t])
            assert f"The top {k} of {len(names)} by s_e{' + bias' if biased else ''} win" in line
            assert line.endswith(f"so the gates sum to {total}. Shared S1, S2 add with weight 1.") and total == "1.000"
            routes = ", ".join(f"{e} with gate {g}" for e, g in zip(chosen, gates, strict=True))
            assert (
                fill(data, [*path, "routes_label", t]) == f"Routes of {token}: to {routes}, and to the shared experts."
            )
            rows = [fill(data, [*path, "output_rows", t, i]) for i in range(k + 2)]
            assert rows == [f"{e}(x), g = {g:.2f}" for e, g in zip(chosen, r["weights"][t], strict=True)] + [
                "shared(x)",
                "y",
            ]
            goes = ", ".join(f"{e} (g = {g})" for e, g in zip(chosen, gates, strict=True))
            assert fill(data, [*path, "said_token", t]) == (
                f"{token} goes to {goes} and to the {data['n_shared']} shared experts; the gates sum to {total}."
            )
            assert fill(data, ["text", "chosen_key", t]) == f"experts “{word}” uses"
            assert fill(data, ["text", "token_aria", t]) == f"Token {t + 1}, {word}"
        loads = ", ".join(f"{e} {n}" for e, n in zip(names, r["load"], strict=True))
        assert fill(data, [*path, "load_label"]) == (
            f"Routing slots per expert{' with the bias' if biased else ''}, of {k * T}: {loads}"
        )
        said = fill(data, [*path, "said_bias"])
        assert said.startswith(f"Bias {'on' if biased else 'off'}: loads {', '.join(map(str, r['load']))}; ")
        assert f"balance statistic {data['balance_formula']} {r['balance']:.{P}f}, {1:.{P}f} at perfect balance" in said
        assert fill(data, [*path, "balance_label"]).startswith(data["balance_formula"] + " ")
    assert fill(data, ["text", "load_full"]) == f"full height: all {T} tokens"


def test_the_headline_answers_with_the_kernels_routing(data, spec):
    """The answer's counts are the spec's and its loads the kernel's, routing the shipped tokens
    through the shipped centroids: the busiest routed expert gets every token ("all"), the idlest
    one token each, and "unevenly" is the balance statistic above its value at an even load."""
    title, takeaway = headline("fig-11")
    assert title.endswith("?")
    P = spec.params
    r = route(
        np.array(data["x"]) @ np.array(data["centroids"]).T, P["top_k"], score_func=P["score_func"], renormalize=True
    )
    T, E = len(P["tokens"]), P["n_experts"]
    load = expert_load(r["experts"], E)
    busiest, idlest = np.flatnonzero(load == load.max()), np.flatnonzero(load == load.min())
    assert len(busiest) == 1 and len(idlest) == 2  # "E5 gets ...", "E4 and E7 get ... each"
    assert takeaway == (
        f"Each token mixes {P['top_k']} of {E} routed experts plus {P['n_shared']} shared ones; unevenly: "
        f"E{busiest[0] + 1} gets all {T} tokens, E{idlest[0] + 1} and E{idlest[1] + 1} get {load.min()} each."
    )
    assert load.max() == T and load.min() < P["top_k"] * T / E < load.max()
    assert switch_balance_loss(r["scores"], r["experts"]) > data["balance_even"] == 1
