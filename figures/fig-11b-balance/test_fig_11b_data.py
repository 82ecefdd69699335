"""FIG 11b's data against the kernels (re-run here from the seed), and every sentence it can show
(the slider, the options, the chart's label and key, each panel's title, bar labels and note, the
expert readout and the narration, in every state) against the numbers it ships."""

import re

import numpy as np
import pytest

from k3explainer.site.projectcode import builder
from k3explainer.site.readertext import fill
from k3project.experiments import balance_runs, dropped_share, expert_capacity, load_ratio
from tests.site import article
from tests.site.article import headline
from tests.site.project import ROOT

FIG = "fig-11b"
KINDS = ("none", "switch", "bias")
NUMBER = r"[−+]?\d+(?:\.\d+)?"


@pytest.fixture(scope="module")
def data():
    return article.figure_data(FIG)


@pytest.fixture(scope="module")
def kernel(data):
    """The runs recomputed from the shipped seed and sizes (not from the shipped numbers)."""
    E, k, T, S = data["experts"], data["top_k"], data["tokens"], data["n_steps"]
    every = data["steps"][1] - data["steps"][0]
    fig11b = builder(ROOT, "fig-11b-balance")
    x = fig11b.draw_inputs(data["seed"], E, data["feature_dim"], S, T, data["preference_scale"], data["weight_scale"])
    np.testing.assert_allclose(data["p0"], x["p0"], rtol=1e-5)  # the re-draw is the builder's
    np.testing.assert_allclose(data["W0"], x["W0"], rtol=1e-5)
    runs = fig11b.runs_for(data["alphas"])
    out = balance_runs(
        x["X"][None], x["W0"][None], x["p0"][None], top_k=k, runs=runs, gamma=data["gamma"], lr=data["lr"], every=every
    )
    load = out["load"][:, 0].astype(int)
    bias = out["bias"][-1, 0]
    return {
        "runs": runs,
        "load": load,
        "grid": out["steps"],
        "ratio": load_ratio(load),
        "stat": out["stat"][:, 0],
        "aux_share": out["aux_share"][:, 0],
        "cosine": out["cosine"][:, 0],
        "bias": bias - bias.mean(axis=-1, keepdims=True),
        "cap": [expert_capacity(cf, T, E, k) for cf in data["capacity_factors"]],
    }


def run_of(data, kind, a):
    """The run a panel shows: as the component picks it (none, the chosen α's Switch run, the bias)."""
    return {"none": 0, "bias": len(data["runs"]) - 1}.get(kind, 1 + a)


def numbers(text: str) -> list[float]:
    return [float(n.replace("−", "-")) for n in re.findall(NUMBER, text)]


def near(text: str, value: float, digits: int) -> None:
    """A shown number is the value to its displayed precision (its last digit rounded)."""
    assert abs(float(text.rstrip("%").replace("−", "-")) - value) <= 0.5 * 10**-digits + 1e-9, (text, value)


def test_shipped_data_is_the_kernels(data, kernel):
    assert [(r["regime"], r["alpha"]) for r in data["runs"]] == kernel["runs"]
    np.testing.assert_array_equal(data["steps"], kernel["grid"])
    np.testing.assert_array_equal(data["ratio"], kernel["ratio"])
    at_grid = kernel["load"][:, kernel["grid"]]
    np.testing.assert_array_equal(data["load"], at_grid)
    for c, cap in enumerate(kernel["cap"]):
        assert data["capacity"][c] == cap
        np.testing.assert_array_equal(data["dropped"][c], dropped_share(at_grid, cap))
        np.testing.assert_array_equal(data["over_capacity"][c], np.maximum(0, at_grid - cap))
    for key in ("stat", "aux_share", "cosine"):
        np.testing.assert_allclose(data[key], kernel[key], rtol=1e-5, atol=1e-12)
    np.testing.assert_allclose(data["bias"], kernel["bias"], rtol=0, atol=1e-6)


def test_every_shown_number_is_the_value_it_stands_for(data):
    assert data["alpha_text"] == [f"{a:g}" for a in data["alphas"]]
    assert data["cf_text"] == [f"{c:g}" for c in data["capacity_factors"]]
    assert data["expert_label"] == [str(e + 1) for e in range(data["experts"])]
    assert data["title"] == [data["labels"]["none"]] + [f"Switch loss, α = {a:g}" for a in data["alphas"]] + [
        data["labels"]["bias"]
    ]
    ratio = np.array(data["ratio"])[:, data["steps"]]
    for r in range(len(data["runs"])):
        for j in range(len(data["steps"])):
            near(data["ratio_text"][r][j], ratio[r, j], 2)
            near(data["stat_text"][r][j], data["stat"][r][j], 2)
            near(data["aux_share_text"][r][j], 100 * data["aux_share"][r][j], 0)
            for c in range(len(data["capacity_factors"])):
                near(data["dropped_text"][c][r][j], 100 * data["dropped"][c][r][j], 1)
    # a tie of the binary value rounds away from zero, as the page's W.fmt did (4.625 → 4.63)
    ties = [(r, j) for r in range(ratio.shape[0]) for j in range(ratio.shape[1]) if ratio[r, j] * 1000 % 10 == 5]
    assert ties and all(float(data["ratio_text"][r][j]) > ratio[r, j] for r, j in ties)
    for row, shown in zip(data["bias"], data["bias_text"], strict=True):
        for b, text in zip(row, shown, strict=True):
            near(text.lstrip("+"), b, 2)
            assert text.startswith("+") == (b > 0) and text.startswith("−") == (b <= -0.005)


def test_every_sentence_in_every_state_reads_the_data(data):
    """Each text the component shows, with the slots it fills them with, for every step, α,
    capacity factor and expert: its numbers are the data's."""
    steps, S, E = data["steps"], data["n_steps"], data["experts"]
    ratio = np.array(data["ratio"])[:, steps]
    mean = data["mean_load"]
    for j, step in enumerate(steps):
        assert fill(data, ["text", "slider"], {"step": ["steps", j], "last": ["n_steps"]}) == f"{step} of {S}"
    for i, a in enumerate(data["alphas"]):
        assert fill(data, ["text", "alpha_option"], {"alpha": ["alpha_text", i]}) == f"α = {a:g}"
    for c, cf in enumerate(data["capacity_factors"]):
        slot = {"cf": ["cf_text", c]}
        assert fill(data, ["text", "cf_option"], slot) == f"×{cf:g}"
        assert fill(data, ["text", "cf_option_aria"], slot) == f"capacity factor {cf:g}"
        assert fill(data, ["text", "cf_key"], slot) == f"capacity ×{cf:g} (shaded: over it)"
    assert fill(data, ["text", "y_title"]) == "busiest expert ÷ mean load (log scale)"

    for a, alpha in enumerate(data["alphas"]):
        r = {kind: run_of(data, kind, a) for kind in KINDS}
        for c, cf in enumerate(data["capacity_factors"]):
            cap = data["capacity"][c]
            for j, step in enumerate(steps):
                chart = fill(
                    data,
                    ["text", "chart"],
                    {
                        "alpha": ["alpha_text", a],
                        "switch_end": ["ratio_text", r["switch"], len(steps) - 1],
                        "cf": ["cf_text", c],
                        "step": ["steps", j],
                    },
                )
                over, none_end, shown_alpha, switch_end, bias_end, shown_cf, marker = re.fullmatch(
                    rf"Busiest expert's load divided by the mean load over (\d+) router steps: no balancing ends at "
                    rf"({NUMBER}), the Switch loss with α = ({NUMBER}) at ({NUMBER}), the bias at ({NUMBER}); dashed: "
                    rf"capacity factor ({NUMBER}), above which the busiest expert drops slots; the marker is at step "
                    rf"(\d+)\.",
                    chart,
                ).groups()
                assert (int(over), float(shown_alpha), float(shown_cf), int(marker)) == (S, alpha, cf, step)
                for shown, run in ((none_end, r["none"]), (switch_end, r["switch"]), (bias_end, r["bias"])):
                    near(shown, ratio[run, -1], 2)
                said = fill(
                    data,
                    ["text", "step"],
                    {
                        "step": ["steps", j],
                        "title": ["title", r["switch"]],
                        "cf": ["cf_text", c],
                        "share": ["aux_share_text", r["switch"], j],
                        **{f"ratio_{kind}": ["ratio_text", r[kind], j] for kind in KINDS},
                        **{f"dropped_{kind}": ["dropped_text", c, r[kind], j] for kind in KINDS},
                    },
                )
                shown_step, ratios, shown_cf, drops, share = re.fullmatch(
                    rf"Step (\d+): busiest ÷ mean (.+); at capacity factor ({NUMBER}) the share of slots dropped is "
                    rf"(.+); the loss supplied ({NUMBER}%) of the router update\.",
                    said,
                ).groups()
                assert (int(shown_step), float(shown_cf)) == (step, cf)
                # "4.44 (No balancing), …": a value, then its run's title in brackets (which may hold brackets)
                for kind, (value, title) in zip(
                    KINDS, re.findall(rf"({NUMBER}) \(((?:[^()]|\([^()]*\))*)\)", ratios), strict=True
                ):
                    near(value, ratio[r[kind], j], 2)
                    assert title == data["title"][r[kind]]
                for kind, shown in zip(KINDS, drops.split(", "), strict=True):
                    near(shown, 100 * data["dropped"][c][r[kind]][j], 1)
                near(share, 100 * data["aux_share"][r["switch"]][j], 0)
                for kind in KINDS:
                    assert_panel(data, kind, r[kind], c, j, step, cap)
                hint = fill(data, ["text", "pick_hint"], {"capacity": ["capacity", c]})
                assert hint.endswith(f"Mean load {mean:g} tokens; capacity {cap}.")
                for e in range(E):
                    expert = fill(
                        data,
                        ["text", "expert"],
                        {
                            "expert": ["expert_label", e],
                            "step": ["steps", j],
                            "alpha": ["alpha_text", a],
                            "capacity": ["capacity", c],
                            "bias": ["bias_text", j, e],
                            **{f"load_{kind}": ["load", r[kind], j, e] for kind in KINDS},
                        },
                    )
                    loads = [data["load"][r[k]][j][e] for k in KINDS]
                    assert expert == (
                        f"Expert {e + 1} at step {step}: {loads[0]} tokens (no balancing), {loads[1]} tokens "
                        f"(Switch loss, α = {alpha:g}), {loads[2]} tokens (bias); capacity {cap}, mean {mean:g}. "
                        f"Its bias: {data['bias_text'][j][e]} against the experts' mean."
                    )


def assert_panel(data, kind, r, c, j, step, cap):
    """One run's panel at grid step j and capacity factor c: its title, its list's label, every
    bar's label (the over-capacity count where a bar spills) and its note."""
    title = fill(data, ["title", r])
    assert fill(data, ["text", "bars"], {"title": ["title", r], "step": ["steps", j], "capacity": ["capacity", c]}) == (
        f"{title}: tokens per expert at step {step} (capacity {cap})"
    )
    for e, load in enumerate(data["load"][r][j]):
        slots = {"expert": ["expert_label", e], "load": ["load", r, j, e]}
        over = data["over_capacity"][c][r][j][e]
        if over:
            slots["over"] = ["over_capacity", c, r, j, e]
        label = fill(data, ["text", "bar_over" if over else "bar"], slots)
        assert label == f"Expert {e + 1}: {load} tokens" + (f", {load - cap} over capacity" if load > cap else "")
    slots = {"ratio": ["ratio_text", r, j], "dropped": ["dropped_text", c, r, j]}
    if kind == "switch":
        slots["stat"] = ["stat_text", r, j]
    if kind != "none":
        slots["share"] = ["aux_share_text", r, j]
    note = fill(data, ["text", "note", kind], slots)
    shown = re.findall(rf"{NUMBER}%?", note.replace("N·Σf·P", ""))
    near(shown[0], data["ratio"][r][step], 2)
    near(shown[1], 100 * data["dropped"][c][r][j], 1)
    if kind == "switch":
        near(shown[2], data["stat"][r][j], 2)
        near(shown[3], 100 * data["aux_share"][r][j], 0)
    if kind == "bias":  # the bias takes no part of the router's update
        assert data["aux_share"][r][j] == 0 and note.endswith("bias steers the choice only: 0% of the router update")


def test_the_headline_answers_with_the_kernels_last_step(data, kernel):
    """The answer is the re-run's last step at the α the figure opens on: the experts each run leaves
    without a token, and the Switch loss's share of the router's update there, as its panel prints
    it; "none, for none of it": the bias run leaves no expert idle and supplies none of the update."""
    title, takeaway = headline(FIG)
    assert title.endswith("?")
    switch = kernel["runs"].index(("switch", data["alpha_default"]))
    idle = (kernel["load"][:, -1] == 0).sum(axis=-1)  # [R] at the last step
    share = kernel["aux_share"][switch, -1]
    assert takeaway == (
        f"No balancing: {idle[0]} of {data['experts']} experts end idle. Switch (α = {data['alpha_default']:g}): "
        f"{idle[switch]} idle, for {share:.0%} of the update. The bias: none, for none of it."
    )
    assert f"{share:.0%}" == data["aux_share_text"][switch][-1]  # what the Switch panel shows at the last step
    assert idle[-1] == 0 and kernel["aux_share"][-1, -1] == 0
    assert idle[0] > idle[switch] > idle[-1]  # each way of balancing leaves fewer idle
