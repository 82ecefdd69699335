"""FIG 14's data against the facts, every sentence that says what FIG 14 shows (in §14, in the
figure's caption and in its text alternative) against that data, and every sentence the figure
itself shows (its titles, wall buttons and narration, in every state) against its nodes.

The sentences are quoted verbatim: rewording one fails its test, so whoever rewords it re-checks it.
"""

from __future__ import annotations

import re

import pytest

from k3explainer.site.readertext import fill
from tests.site import article
from tests.site.article import headline

# "near the end" of the chain: in its last quarter
NEAR_THE_END = 0.75
NUMBER_WORDS = r"\b(two|three|five|six|seven|eight|nine|ten|eleven|twelve|thirteen|fourteen|fifteen|twenty)\b"


@pytest.fixture(scope="module")
def facts():
    return article.facts()


@pytest.fixture(scope="module")
def spec():
    return article.spec("fig-14")


@pytest.fixture(scope="module")
def data():
    return article.figure_data("fig-14")


@pytest.fixture(scope="module")
def prose():
    return article.prose("14-evolution-map.md")


def node(data, node_id):
    return next(n for n in data["nodes"] if n["id"] == node_id)


def index(data, node_id):
    return [n["id"] for n in data["nodes"]].index(node_id)


def counts(data):
    return {w["id"]: w["count"] for w in data["walls"]}


# ---- the data ------------------------------------------------------------------------------------


def test_every_year_is_a_number_in_the_facts_file(data, spec, facts):
    expected = {}
    for raw in spec.params["nodes"]:
        key, _, part = raw["year"].partition(":")
        expected[raw["id"]] = facts.parts(key)[part] if part else facts.number(key)
    assert {n["id"]: n["year"] for n in data["nodes"]} == expected
    years = facts.parts("lineage.years")
    assert node(data, "mla")["year"] == years["mla"] and node(data, "gla")["year"] == years["gla"]
    assert node(data, "k3")["year"] == facts.parts("kimi_k3.public")["year"]
    assert node(data, "gpt2")["year"] == facts.number("gpt2.release")
    for raw in spec.params["nodes"]:  # and the provenance panel names every fact a year came from
        assert raw["year"].partition(":")[0] in data["provenance"]["facts"]


def test_wall_counts_come_from_the_wall_sentences(data, spec):
    prefix = {n["id"]: n["wall"].split(":", 1)[0].strip().lower() for n in spec.params["nodes"]}
    for wall in data["walls"]:
        assert wall["count"] == sum(1 for p in prefix.values() if p == wall["id"])
    assert [w["label"] for w in data["walls"]] == ["Coupling", "Memory", "Capacity", "Depth"]  # the four walls of §01


def test_the_kv_cache_answers_recomputation_not_coupling(data):
    kv = node(data, "kv-cache")
    assert kv["wall"] == "recomputation" and kv["wall_md"].startswith("Recomputation:")
    assert not data["kinds"]["recomputation"]["is_wall"]
    assert node(data, "gpt2")["wall"] == "start" and data["nodes"][-1]["wall"] == "all"


def test_mla_price_is_the_shared_subspace(data):
    price = node(data, "mla")["price_md"]
    # the shared positional key widens the subspace: its rank is at most d_c plus that key's width
    assert "share one subspace of rank at most $d_c$ plus the shared key's width" in price
    assert "MLA is not lossless multi-head attention" in price
    assert "{{mla_dsv2.dims}}" in price


def test_per_channel_decay_is_older_than_kda_on_the_map(data):
    gla, kda, gdn = node(data, "gla"), node(data, "kda"), node(data, "gated-deltanet")
    assert gla["year"] < kda["year"] and index(data, "gla") < index(data, "kda")
    for key in ("gla.per_channel_gate", "mamba1.selective", "rwkv6.decay"):
        assert "{{" + key + "}}" in gla["fix_md"]
    assert "{{gated_deltanet.gate}}" in gdn["fix_md"] and "{{mamba2.gate}}" in gdn["price_md"]
    assert "delta rule" in kda["fix_md"]


# ---- the text alternative and the caption --------------------------------------------------------


def test_alt_types_no_number(data, spec):
    alt = article.flat(spec.alt)
    for n in data["nodes"]:  # names such as GPT-2 and Kimi K3 are not counts
        alt = re.sub(re.escape(n["title"]), "", alt, flags=re.I)
    assert not re.search(r"\d", alt)
    assert not re.search(NUMBER_WORDS, alt, re.I), "a count in the alt must come from the data"


def test_alt_names_every_node_in_order(data, spec):
    alt, at = article.flat(spec.alt).lower(), 0
    for n in data["nodes"]:
        found = alt.find(n["title"].lower(), at)
        assert found >= 0, n["title"]
        at = found + len(n["title"])


def test_alt_sentences(data, spec):
    alt, c = article.flat(spec.alt), counts(data)
    assert "A chain of nodes in the order of the article's argument rather than by date" in alt
    assert "the years go back and forth along the chain" in alt
    years = [n["year"] for n in data["nodes"]]
    assert years != sorted(years)
    assert "The memory wall is named by more steps than any other; coupling, capacity and depth by fewer" in alt
    assert all(c["memory"] > c[w] for w in ("coupling", "capacity", "depth"))
    assert all(c[w] >= 1 for w in c)
    assert "the KV cache answers recomputation, which is waste rather than one of the four walls" in alt
    assert node(data, "kv-cache")["wall"] == "recomputation" and len(data["walls"]) == 4
    assert "the final node gathers all four" in alt and data["nodes"][-1]["wall"] == "all"
    assert (
        "A button for each of the four walls, labelled with how many steps answer it, marks those steps and the final node"
        in alt
    )


def test_caption_sentences(data, spec):
    caption = article.flat(spec.caption)
    assert "The chain follows the argument, not the calendar." in caption
    years = [n["year"] for n in data["nodes"]]
    assert years != sorted(years)


# ---- §14 -------------------------------------------------------------------------------------------


def test_section_sentences(data, prose):
    c = counts(data)
    assert (
        "Every step in between answers one of the four walls of [](#gpt2) except the KV cache, whose wall, "
        "recomputation, was waste"
    ) in prose
    middle = data["nodes"][1:-1]
    assert [n["id"] for n in middle if n["wall"] not in c] == ["kv-cache"]

    assert (
        "The sparsely-gated mixture-of-experts layer, the earliest paper on the map, sits near the end, and "
        "multi-head latent attention is older than Kimi Delta Attention, which the map puts before it."
    ) in prose
    years = [n["year"] for n in data["nodes"]]
    moe = node(data, "moe")
    assert moe["year"] == min(years) and years.count(moe["year"]) == 1
    assert index(data, "moe") >= NEAR_THE_END * (len(years) - 1)
    assert node(data, "mla")["year"] < node(data, "kda")["year"] and index(data, "kda") < index(data, "mla")

    assert "Per-channel decay did not start with KDA either: gated linear attention decays each key channel" in prose
    assert index(data, "gla") < index(data, "kda") and node(data, "gla")["year"] < node(data, "kda")["year"]
    # RWKV-7's generalised delta rule already had vector-valued decay: KDA is a constrained member of that family
    assert "RWKV-7 already pairs such vector-valued decay with a generalised delta rule [@peng2025rwkv7]" in prose
    assert "KDA is a constrained member of that family" in prose


def test_section_types_no_count(prose):
    body = prose.split("---", 2)[2]
    assert not re.search(NUMBER_WORDS, body, re.I)


# ---- what the figure says --------------------------------------------------------------------------


def test_every_node_says_its_own_title_year_and_wall(data):
    nodes, N, kinds = data["nodes"], len(data["nodes"]), data["kinds"]
    assert fill(data, ["text", "steps_label"]) == f"Steps from {nodes[0]['title']} to {nodes[-1]['title']}"
    for i, n in enumerate(nodes):
        label = kinds[n["wall"]]["label"]
        assert fill(data, ["nodes", i, "dot_title"]) == f"{i + 1} · {n['title']}, {n['year']} ({label})"
        assert fill(data, ["nodes", i, "when"]) == f"{n['year']} · {n['dated']}"
        step = f"Step {i + 1} of {N}, {n['title']}, {n['year']}"
        assert fill(data, ["nodes", i, "said_expanded"]) == f"{step}, expanded: wall {label}."
        assert fill(data, ["nodes", i, "said_collapsed"]) == f"{step}, collapsed."


def test_every_wall_says_its_count_and_its_steps(data):
    N = len(data["nodes"])
    for j, w in enumerate(data["walls"]):
        steps = [i + 1 for i, n in enumerate(data["nodes"]) if n["wall"] == w["id"]]
        assert len(steps) == w["count"] >= 1
        assert fill(data, ["walls", j, "option"]) == f"{w['label']} ({w['count']})"
        name = fill(data, ["walls", j, "option_label"])
        assert name == f"{w['label']}: {w['count']} step{'s' * (w['count'] != 1)} and K3"
        said = fill(data, ["walls", j, "said"])
        head, _, tail = said.partition("; ")
        assert head.startswith(f"{w['label']} wall: {w['count']} of {N} steps, number")
        assert [int(x) for x in re.findall(r"\d+", head.split("steps, ")[1])] == steps
        # the final step gathers every wall: it is marked for each, and said apart
        assert tail == "the last step meets all four walls." and len(data["walls"]) == 4
        assert data["nodes"][-1]["wall"] == "all"
    assert fill(data, ["text", "all_walls_said"]) == f"All {N} steps shown."


def test_every_narration_in_every_state_reads_the_data(data):
    """One step opened or closed with k steps open, or several at once; with the wall changed too."""
    N = len(data["nodes"])
    for k in range(N + 1):
        assert fill(data, ["open_text", k]) == f"{k} of {N} open."
        then = fill(data, ["open_steps_text", k])
        assert then == (
            "All steps collapsed." if k == 0 else f"All {N} steps expanded." if k == N else f"{k} of {N} steps open."
        )
        wall = ["walls", 1, "said"]
        assert fill(data, ["text", "said_wall_and"], {"wall": wall, "then": ["open_steps_text", k]}) == (
            f"{fill(data, wall)} {then}"
        )
        for i in range(N):
            for said in ("said_expanded", "said_collapsed"):
                slots = {"step": ["nodes", i, said], "open": ["open_text", k]}
                sentence = fill(data, ["text", "said_step"], slots)
                assert sentence == f"{fill(data, ['nodes', i, said])} {k} of {N} open."
                both = fill(data, ["text", "said_wall_and_step"], {"wall": ["text", "all_walls_said"], **slots})
                assert both == f"All {N} steps shown. {sentence}"


def test_the_note_says_a_step_need_not_answer_the_one_before_it(data, spec):
    """FIG 14's note: the map follows the argument, and FlashAttention, which comes right after the
    KV cache, answers another wall than the cache's (it does not shrink the cache)."""
    note = spec.params["note"]
    assert "a step does not always answer the one before it (FlashAttention" in note
    assert index(data, "flashattention") == index(data, "kv-cache") + 1
    assert node(data, "flashattention")["wall"] != node(data, "kv-cache")["wall"]


def test_the_headline_answers_with_the_counts_of_the_wall_sentences(data, spec):
    """The takeaway's counts are recounted from the spec's wall sentences (each names its wall
    first) over the steps between the first node and the last; memory forces the most of them; and
    the years, from the facts file, do not rise along the chain."""
    title, takeaway = headline("fig-14")
    nodes = spec.params["nodes"]
    between = [n["wall"].split(":", 1)[0].strip().lower() for n in nodes[1:-1]]
    n = {w: between.count(w) for w in ("memory", "coupling", "capacity", "depth")}
    assert title == f"Which wall forced each step from {nodes[0]['title']} to {nodes[-1]['title']}, and at what price?"
    assert takeaway == (
        f"Memory forced {n['memory']} of the {len(between)} steps, coupling {n['coupling']}, "
        f"capacity {n['capacity']}, depth {n['depth']}; the KV cache saves recomputing. Years go out of order."
    )
    # the one step no wall of §01 forced is the KV cache's, which answers recomputation
    assert [s["id"] for s in nodes[1:-1] if s["wall"].split(":", 1)[0].strip().lower() not in n] == ["kv-cache"]
    assert n["memory"] > max(n["coupling"], n["capacity"], n["depth"])  # it leads: more than any other wall
    years = [nd["year"] for nd in data["nodes"]]
    assert years != sorted(years)
