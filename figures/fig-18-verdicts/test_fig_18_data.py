"""FIG 18's verdicts against the facts, every sentence that says what FIG 18 shows (in §18, in the
figure's caption and in its text alternative) against the figure's data, and every line its
narration can say against the verdicts it ships.

The sentences are quoted verbatim: rewording one fails its test, so whoever rewords it re-checks it.
"""

from __future__ import annotations

import re

import pytest

from k3explainer.site.readertext import fill
from tests.site import article
from tests.site.article import headline

NUMBER_WORDS = r"\b(two|three|five|six|seven|eight|nine|ten|eleven|twelve)\b"


@pytest.fixture(scope="module")
def facts():
    return article.facts()


@pytest.fixture(scope="module")
def spec():
    return article.spec("fig-18")


@pytest.fixture(scope="module")
def data():
    return article.figure_data("fig-18")


@pytest.fixture(scope="module")
def prose():
    return article.prose("18-verdicts.md")


def answer(data, verdict_id, key):
    v = next(v for v in data["verdicts"] if v["id"] == verdict_id)
    return next(a["answer_md"] for a in v["answers"] if a["key"] == key)


def test_per_channel_verdict_cites_the_gated_deltanet_comparison(data, facts):
    better = answer(data, "gates", "better")
    assert "{{kimi_linear.vs_gdn_hybrid}}" in better and "vs_full_mla" not in better
    # hybrid against full attention is evidence for the hybrid, and it sits there
    assert "{{kimi_linear.vs_full_mla}}" in answer(data, "hybrid", "better")
    gdn = facts["kimi_linear.vs_gdn_hybrid"]
    n = gdn.numbers
    assert n["long_avg_kimi_linear"] > n["long_avg_gdn_h"]
    assert f"{n['long_avg_kimi_linear']} vs {n['long_avg_gdn_h']}" in gdn.display
    assert "Table 5" in gdn.value and "2510.26692" in gdn.source
    # and the verdict says how far the evidence goes
    assert "compares two layer designs rather than testing the gate on its own" in better


def test_per_channel_decay_is_not_credited_to_kda_alone(data):
    """Per-channel decay is older than KDA (GLA), and so is pairing it with a delta rule (RWKV-7,
    cited): KDA is the constrained form, whose key-tied factors keep the chunked kernel cheaper."""
    changed = answer(data, "gates", "changed")
    assert "Per-channel decay itself is older" in changed and "{{gla.per_channel_gate}}" in changed
    assert "RWKV-7 already paired it with a generalised delta rule [@peng2025rwkv7]" in changed
    assert "KDA brings" not in changed and "constrained form of that family" in changed


def test_every_verdict_says_where_k3_keeps_it(data):
    for v in data["verdicts"]:
        assert re.search(r"\{\{kimi_k3\.[a-z_]+\}\}", v["k3_md"]), v["id"]


def test_alt_and_caption_type_no_count(spec, data):
    for text in (spec.alt, spec.caption, spec.title, spec.how_to):
        assert not re.search(r"\d", text.replace("Kimi K3", ""))  # a name, not a count
        assert not re.search(NUMBER_WORDS, text, re.I)
    assert "each answering the same four questions" in article.flat(spec.caption) and len(data["questions"]) == 4
    assert "four short answers, what changed, why, what got better and what got harder" in article.flat(spec.alt)
    assert [q["label"].lower() for q in data["questions"]] == [
        "what changed",
        "why",
        "what got better",
        "what got harder",
    ]


def test_alt_names_every_verdict_in_order(spec, data):
    alt, at = article.flat(spec.alt).lower(), 0
    for v in data["verdicts"]:
        pair = f"{v['before']} versus {v['after']}".lower()
        found = alt.find(pair, at)
        assert found >= 0, pair
        at = found + len(pair)


def test_section_sentences(prose, data):
    body = prose.split("---", 2)[2]
    assert not re.search(NUMBER_WORDS, body, re.I)
    assert (
        "the cost of a fix rarely disappears; it moves, into memory, arithmetic, kernels or the serving system."
        in prose
    )
    assert answer(data, "cache", "harder").startswith("Memory grows")
    assert "more arithmetic per token" in answer(data, "delta", "harder")
    assert "the cost moves into the kernels" in answer(data, "gates", "harder")
    assert "serve" in answer(data, "hybrid", "harder") and "serving" in answer(data, "moe", "harder")
    assert 'K3 keeps the "after" side of every one of these verdicts (each card says where)' in prose
    assert all(v["k3_md"] for v in data["verdicts"])


def test_every_narration_reads_the_data(data):
    """Every line the narration can say, filled the way the component fills it: a question chosen,
    one verdict opened or closed at every count of open verdicts (alone and after a new question),
    several at once; each names the verdict, its place, its answers and links, and the counts."""
    said, vs, questions = data["said"], data["verdicts"], data["questions"]
    n, q = len(vs), len(questions)
    assert said["show"] == {"all": f"Every card shows all {q} answers when expanded."} | {
        x["key"]: f"Showing “{x['label']}” for all {n} verdicts." for x in questions
    }
    for i, v in enumerate(vs):
        links = len(v["links"])
        # k open just after opening one: 1 … n; just after closing one: 0 … n − 1
        for toggled, counts in (("expanded", range(1, n + 1)), ("collapsed", range(n))):
            for k in counts:
                parts = [["said", toggled, i], ["said", "open_count", k]]
                line = fill(data, ["said", "joined", 1], dict(zip(("first", "second"), parts, strict=True)))
                head = f"Verdict {i + 1} of {n}, {v['before']} to {v['after']}, "
                tail = (
                    f"expanded: {q} answers, {links} section link{'s' if links > 1 else ''}."
                    if toggled == "expanded"
                    else "collapsed."
                )
                assert line == f"{head}{tail} {k} of {n} open."
                # the same action right after a new question: the question first
                with_question = fill(
                    data,
                    ["said", "joined", 2],
                    dict(zip(("first", "second", "third"), [["said", "show", "why"], *parts], strict=True)),
                )
                assert with_question == f"{said['show']['why']} {line}"
    for k in range(n + 1):
        line = fill(data, ["said", "joined", 0], {"first": ["said", "open", k]})
        assert line == (
            "All verdicts collapsed."
            if k == 0
            else f"All {n} verdicts expanded."
            if k == n
            else f"{k} of {n} verdicts open."
        )
    for key in ["all", *(x["key"] for x in questions)]:
        assert fill(data, ["said", "joined", 0], {"first": ["said", "show", key]}) == said["show"][key]
    assert data["text"]["list_label"] == "Verdicts, before and after"


def test_the_headline_counts_the_verdicts_and_names_costs_their_answers_give(data):
    """Every verdict shipped is a change K3 keeps (its K3 line cites a K3 fact) with a price (a "what
    got harder" answer), and the three prices the takeaway names are the ones those answers give."""
    title, takeaway = headline("fig-18")
    assert title.endswith("?")
    n = len(data["verdicts"])
    assert takeaway.startswith(f"All {n} changes K3 keeps have a price: ")
    for v in data["verdicts"]:
        assert re.search(r"\{\{kimi_k3\.[a-z_]+\}\}", v["k3_md"]) and answer(data, v["id"], "harder").strip()
    after = {v["id"]: v["after"] for v in data["verdicts"]}
    assert (after["cache"], after["delta"], after["moe"]) == ("KV cache", "Delta rule", "Mixture of experts")
    assert takeaway.endswith("the KV cache pays in memory, the delta rule in arithmetic, the experts in serving.")
    assert answer(data, "cache", "harder").startswith("Memory grows")
    assert "more arithmetic per token" in answer(data, "delta", "harder")
    assert "serving traffic depends on which experts fire" in answer(data, "moe", "harder")
