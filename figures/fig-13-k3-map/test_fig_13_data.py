"""FIG 13's data against the kernels (the layer layout, SiTU and SiLU), the section headings it
names against the content, and every sentence it can show (each component's panel and narration,
the map's labels, the activation readout at every input) against the numbers it ships."""

import re

import numpy as np
import pytest
import yaml

from k3explainer.kernels import silu, situ
from k3explainer.site.readertext import fill
from k3project.experiments import hybrid_layout, k3_derived
from tests.site import article
from tests.site.article import headline
from tests.site.project import ROOT


@pytest.fixture(scope="module")
def data():
    return article.figure_data("fig-13")


def number(text: str) -> float:
    return float(text.replace("−", "-").replace(",", ""))


def headings() -> dict[str, str]:
    """Each section's heading as the page writes it (templates/index.html): "08 · <title>"."""
    out = {}
    for path in sorted((ROOT / "content").glob("[0-9]*.md")):
        front = yaml.safe_load(path.read_text(encoding="utf-8").split("---")[1])
        out[front["id"]] = f"{front['number']:02d} · {front['title']}"
    return out


def test_the_map_is_the_layout_kernels_and_the_curves_are_situ_and_silu(data):
    stack = data["stack"]
    assert stack["kinds"] == hybrid_layout(stack["n"])
    assert (stack["kda"], stack["mla"]) == (stack["kinds"].count("kda"), stack["kinds"].count("mla"))
    s = data["situ"]
    x = np.array(s["x"])
    np.testing.assert_allclose(s["situ"], situ(x, s["beta"]), atol=1e-5)
    np.testing.assert_allclose(s["silu"], silu(x), atol=1e-5)
    assert s["situ"][-1] < s["beta"] < s["silu"][-1]  # SiTU is capped at β, SiLU keeps growing


def test_every_section_it_names_has_that_heading_in_the_content(data):
    params = article.spec("fig-13").params
    every = headings()
    assert params["sections"] == {slug: every[slug] for slug in params["sections"]}
    for c in data["components"]:
        heading = params["sections"][c["section"]]
        assert c["link_md"] == f"[Read §{heading}](#{c['section']})"


def test_every_panel_and_map_label_reads_the_counts(data):
    stack, text = data["stack"], data["text"]
    for i, c in enumerate(data["components"]):
        said = fill(data, ["components", i, "opened"])
        assert said.startswith(f"{c['label']} opened: {c['stat']}. Explained in §")
    kda = next(c for c in data["components"] if c["id"] == "kda")
    assert kda["stat"] == f"{stack['kda']} of {stack['n']} layers"
    label = fill(data, ["text", "map_label"])
    assert [int(n) for n in re.findall(r"\d+", label)] == [stack["n"], stack["kda"], stack["mla"], len(stack["blocks"])]
    assert text["block_labels"] == [f"block {i + 1}" for i in range(len(stack["blocks"]))]
    assert text["end_labels"] == ["layer 1", f"layer {stack['n']}"]
    assert text["context"] == f"{data['tiles'][-1]['value']} tokens"
    assert [fill(data, ["tiles", i, "value"]) for i in range(len(data["tiles"]))] == [t["value"] for t in data["tiles"]]


def test_the_activation_readout_at_every_input_reads_the_curves(data):
    s = data["situ"]
    beta = s["beta"]
    label = fill(data, ["situ", "text", "plot_label"])
    assert [number(n) for n in re.findall(r"−?\d+", label)] == [beta, s["x"][0], s["x"][-1]]
    assert fill(data, ["situ", "text", "cap"]) == f"cap β = {beta:.0f}"
    assert fill(data, ["situ", "text", "beta_sub"]) == f"β={beta:.0f}"
    for i, (x, y_situ, y_silu) in enumerate(zip(s["x"], s["situ"], s["silu"], strict=True)):
        said = fill(
            data,
            ["situ", "text", "said"],
            {"g": ["situ", "x_text", i], "situ": ["situ", "situ_text", i], "silu": ["situ", "silu_text", i]},
        )
        g, shown_situ, shown_silu = (number(n) for n in re.findall(r"−?\d+\.\d+", said))
        assert said == f"At g = {s['x_text'][i]}: SiTU {s['situ_text'][i]}, SiLU {s['silu_text'][i]}."
        assert g == pytest.approx(x, abs=0.005 + 1e-9)
        assert shown_situ == pytest.approx(y_situ, abs=0.0005 + 1e-9)
        assert shown_silu == pytest.approx(y_silu, abs=0.0005 + 1e-9)


def test_the_headline_answers_with_the_layout_kernel_s_counts(data):
    """The question's layer count and the answer's KDA and MLA counts are the layout kernel's on the
    published depth, the experts per token k3_derived's on the published counts; and the words hold:
    MLA sits at every fourth layer and the last, and every layer but the first is a MoE layer."""
    title, takeaway = headline("fig-13")
    facts = article.facts()
    layout, experts = facts.parts("kimi_k3.layer_layout"), facts.parts("kimi_k3.experts")
    n = int(layout["layers"])
    kinds = hybrid_layout(n)
    kda, mla = kinds.count("kda"), kinds.count("mla")
    derived = k3_derived(
        total_params=facts.number("kimi_k3.total_params"),
        active_params=facts.number("kimi_k3.active_params"),
        routed=int(experts["routed"]),
        shared=int(experts["shared"]),
        top_k=int(experts["top_k"]),
        layers=n,
        kda_layers=kda,
        mla_layers=mla,
        block_size=int(facts.parts("kimi_k3.attnres_blocks")["block_size"]),
        gpt2_params=facts.number("gpt2_small.params_total_vocab50257"),
    )
    assert title == f"How do the pieces fit together in Kimi K3's {n} layers?"
    assert takeaway == (
        f"{kda} KDA layers, {mla} gated MLA (every fourth and the last); every layer but the first runs "
        f"{int(derived['experts_per_token'])} of {int(derived['experts_total'])} experts per token."
    )
    assert (kda, mla) == (int(layout["kda"]), int(layout["mla"]))
    assert [i for i, k in enumerate(kinds, 1) if k == "mla"] == [*range(4, n, 4), n]
    assert data["stack"]["ffn"] == ["dense"] + ["moe"] * (n - 1)
