"""FIG 08's data against the kernels (the demo's states, on the shipped inputs and gates, and the
chunked form's agreement), its grids against what the lane router needs, and every text it can
show (each step, each pathway hidden, shown or alone, each view, research mode, both demo states)
against the diagram and the numbers it ships."""

import re

import numpy as np
import pytest

from k3explainer.kernels import gated_delta_rule, kda, kda_chunked
from k3explainer.site.readertext import fill
from tests.site import article
from tests.site.article import headline

FIG = "fig-08"


@pytest.fixture(scope="module")
def data():
    return article.figure_data(FIG)


def test_demo_states_are_the_kernels(data):
    d = data["demo"]
    q, k, v = (np.array(d[n]) for n in "qkv")
    beta = np.full(d["n_tokens"], d["beta"])
    _, S_gdn = gated_delta_rule(q, k, v, np.array(d["g_scalar"]), beta)
    _, S_kda = kda(q, k, v, np.array(d["g_channels"]), beta)
    _, S_eq = kda(q, k, v, np.array(d["g_equal"]), beta)
    _, S_chunked = kda_chunked(q, k, v, np.array(d["g_channels"]), beta, chunk_size=d["chunk"])
    np.testing.assert_allclose(np.exp(d["g_channels"][0]), d["alpha_channels"], rtol=1e-12)
    np.testing.assert_allclose(np.exp(d["g_scalar"]), d["alpha_scalar"], rtol=1e-12)
    for shipped, state in ((d["S_gdn"], S_gdn), (d["S_kda"], S_kda), (d["S_kda_equal"], S_eq)):
        np.testing.assert_allclose(shipped, state, rtol=0, atol=1e-12)
    assert d["diff_channels"] == pytest.approx(np.abs(S_kda - S_gdn).max(), abs=1e-12)
    assert d["diff_channels"] > 0.01  # per-channel gates change the state
    assert np.abs(S_eq - S_gdn).max() < 1e-12 and d["diff_equal"] < 1e-12  # equal gates: the same state
    assert d["diff_chunked"] == pytest.approx(np.abs(S_chunked - S_kda).max(), abs=1e-15) and d["diff_chunked"] < 1e-12
    assert d["heat_scale"] == max(np.abs(np.array(d[s])).max() for s in ("S_gdn", "S_kda", "S_kda_equal"))


def test_builder_grids_route_every_edge(data):
    """Each grid: one node per cell, and every edge goes one layer on, or to the neighbouring track
    in its layer, or names the track channel it travels in (what the lane router needs)."""
    D = data["diagram"]
    for name, spec in D["layouts"].items():
        cells = {n["id"]: tuple(n["grid"][name]) for n in D["nodes"]}
        assert len(set(cells.values())) == len(cells)
        for e in D["edges"]:
            (la, ta), (lb, tb), via = cells[e["from"]], cells[e["to"]], e["via"].get(name)
            assert (
                (la == lb and abs(ta - tb) == 1 and via is None)
                or (lb == la + 1 and via is None)
                or (lb > la + 1 and 0 <= via <= spec["tracks"])
            ), (name, e)


def test_pathway_stories_match_the_diagram(data):
    """What each step says about its pathway is what the diagram's data draws (and the builder's
    equations, which ship rendered)."""
    D = data["diagram"]
    nodes = {n["id"]: n for n in D["nodes"]}
    eq_md = {n["id"]: n["eq_md"] for n in D["nodes"]}
    story = {p["id"]: p["story"] for p in D["pathways"]}
    gate_targets = {
        nodes[e["to"]]["path"] for e in D["edges"] if e["path"] == "gate" and nodes[e["to"]]["path"] != "gate"
    }
    assert gate_targets == {"intra", "state"} and "inside the chunk and the state" in story["gate"]
    assert nodes["p"]["shape"] == "[C, C]" and r"c \le r" in eq_md["p"] and "masked C × C product" in story["intra"]
    assert nodes["ut"]["path"] == "intra" and "WY / UT transform" in story["intra"]
    assert nodes["sin"]["shape"] == "[d_k, d_v]" and "d_k × d_v state" in story["state"]
    reads = [e for e in D["edges"] if e["to"] == "read"]
    assert {e["from"] for e in reads} == {"sin", "cumsum"} and "every query reads it" in story["state"]
    assert [e["to"] for e in D["edges"] if e["from"] == "sout"] == [] and "written once, at the chunk's end" in story[
        "state"
    ]
    for label in ("Projections", "Short conv", "L2 norm", "Output gate", "RMSNorm", "W_o"):
        assert any(label in n["label"] and n["path"] == "io" for n in D["nodes"])


def test_every_step_and_pathway_text_reads_the_diagram(data):
    """Each step's readout, story line and narration, and what is said when its pathway is hidden,
    shown or isolated, name that pathway and count its nodes and edges as the diagram draws them."""
    D, P = data["diagram"], data["diagram"]["pathways"]
    n = len(P)
    assert fill(data, ["text", "step_label", 0]) == "All pathways"
    assert fill(data, ["text", "all_pathways", "head"]) == f"All {n} pathways"
    for step, p in enumerate(P, start=1):
        at = ["diagram", "pathways", step - 1]
        nodes = [x for x in D["nodes"] if x["path"] == p["id"]]
        count = f"{len(nodes)} nodes and {sum(e['path'] == p['id'] for e in D['edges'])} edges"
        assert fill(data, ["text", "step_label", step]) == f"{step} / {n} · {p['label']}"
        assert fill(data, [*at, "head"]) == f"Pathway {step} of {n}: {p['label']}"
        assert fill(data, [*at, "nodes"]) == " · ".join(x["label"] for x in nodes) + ". "
        assert fill(data, [*at, "describe"]) == f"Pathway {step} of {n}, {p['label']}: {count}. {p['story']}"
        assert fill(data, [*at, "hidden"]) == f"{p['label']} hidden: {count}."
        assert fill(data, [*at, "shown"]) == f"{p['label']} shown: {count}."
        assert fill(data, [*at, "only"]) == f"Only {p['label']}: {count}."
    for node in D["nodes"]:  # the shape in pieces, one tensor each, that join back to it
        assert " ".join(node["shape_parts"]) == node["shape"]
        assert all(re.fullmatch(r"\[[^\]]*\],?", part) for part in node["shape_parts"]), node["shape_parts"]


def test_every_view_text_reads_the_zoom(data):
    """The zoom readout and the narration give the zoom in whole per cent at every level the view
    can take (the component picks the text at round(100 z) − the first)."""
    t, z = data["text"], data["zoom"]
    first = t["zoom_level_from"]
    assert first == round(100 * z["min"]) and first + len(t["zoom_level"]) - 1 == round(100 * z["max"])
    for level in np.linspace(z["min"], z["max"], 97):
        i = round(100 * level) - first
        assert fill(data, ["text", "zoom_level", i]) == f"{round(100 * level)}%"
        assert (
            fill(data, ["text", "view", "zoom"], {"level": ["text", "zoom_level", i]}) == f"Zoom {round(100 * level)}%."
        )
    assert {fill(data, ["text", "view", f"panned_{w}"]) for w in ("right", "left", "down", "up")} == {
        "Panned right.",
        "Panned left.",
        "Panned down.",
        "Panned up.",
    }


def test_every_demo_text_reads_the_numbers(data):
    """With its own gates and with equal ones: the captions, each channel's α, the largest
    difference and its verdict, the narration; and the note's sizes and the chunked form's agreement."""
    d = data["demo"]
    T = ["demo", "text"]
    scalar = f"{d['alpha_scalar']:.2f}"
    assert fill(data, [*T, "heading"]) == f"Live demo: the same {d['n_tokens']} tokens, two gates"
    assert fill(data, [*T, "beta"]) == f"β = {d['beta']:.2f}"
    note = fill(data, [*T, "note_tail"])
    assert (
        note == f", {d['n_tokens'] // d['chunk']} chunks of C = {d['chunk']} (production: {data['production_chunk']})."
    )
    assert fill(data, [*T, "scalar"]) == f"{scalar} on all {d['d_k']}"
    assert fill(data, [*T, "channels_label"]) == f"KDA α, channels 1–{d['d_k']}"
    gates = {"channels": d["alpha_channels"], "equal": [d["alpha_scalar"]] * d["d_k"]}
    diffs = {"channels": d["diff_channels"], "equal": d["diff_equal"]}
    for key in ("channels", "equal"):
        assert [fill(data, [*T, "alpha", key, i]) for i in range(d["d_k"])] == [f"{a:.2f}" for a in gates[key]]
        assert float(fill(data, [*T, "diff", key])) == pytest.approx(diffs[key], abs=5e-4)
        verdict = fill(data, [*T, "verdict", key])
        assert ("identical" in verdict) == (diffs[key] == 0) == (key == "equal")
        said = fill(data, [*T, "describe", key])
        assert said.endswith(f"{diffs[key]:.3f}.")
        if key == "equal":
            assert said.startswith(f"All channel gates set to {scalar}: KDA's state equals Gated DeltaNet's")
            assert fill(data, [*T, "caption_kda", key]) == f"S, KDA (every channel α = {scalar})"
        else:
            assert said.startswith("Per-channel gates " + ", ".join(f"{a:.2f}" for a in gates[key]) + ":")
    assert fill(data, [*T, "chunked_lead"]).endswith(f"(C = {d['chunk']}) gives the same state to ")
    mantissa, exponent = fill(data, [*T, "chunked_diff"]).split("e")
    assert float(f"{mantissa}e{exponent.replace('−', '-')}") == pytest.approx(d["diff_chunked"], rel=0.5)
    assert re.fullmatch(r"\de−\d+", fill(data, [*T, "chunked_diff"]))


def test_the_headline_answers_with_the_diagram_and_the_chunked_kernel(data):
    """The masked C × C product is the in-chunk (blue) pathway; the state (violet) is carried between
    chunks and written by one node only, which feeds nothing inside the chunk; the gates (orange)
    reach both. And the kernel agrees: kda_chunked, writing the state once per chunk with the decays
    folded in, lands on the recurrent kda's state with gates that differ by channel."""
    title, takeaway = headline(FIG)
    assert title == "Where does each part of the KDA update happen?"
    assert takeaway == (
        "Within a chunk, a masked C×C product; across chunks, a state S written once per chunk; per-channel "
        "decays discount both."
    )
    D = data["diagram"]
    nodes = {n["id"]: n for n in D["nodes"]}
    masked = [n for n in D["nodes"] if n["shape"] == "[C, C]" and r"c \le r" in n["eq_md"]]
    assert [n["path"] for n in masked] == ["intra"]
    writes = [n for n in D["nodes"] if n["path"] == "state" and r"\leftarrow" in n["eq_md"]]
    assert [n["id"] for n in writes] == ["sout"] and not [e for e in D["edges"] if e["from"] == "sout"]
    fed = {nodes[e["to"]]["path"] for e in D["edges"] if e["path"] == "gate" and nodes[e["to"]]["path"] != "gate"}
    assert fed == {"intra", "state"} and "sout" in {e["to"] for e in D["edges"] if e["from"] == "cumsum"}
    d = data["demo"]
    q, k, v, g = (np.array(d[n]) for n in ("q", "k", "v", "g_channels"))
    beta = np.full(d["n_tokens"], d["beta"])
    assert len(set(g[0])) == d["d_k"] and d["n_tokens"] // d["chunk"] > 1  # a decay per channel, several chunks
    _, S = kda(q, k, v, g, beta)
    _, S_chunked = kda_chunked(q, k, v, g, beta, chunk_size=d["chunk"])
    assert np.abs(S_chunked - S).max() < 1e-12
