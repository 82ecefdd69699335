"""FIG 07b's data against the kernels (every curve, for every schedule and α, and the gate strip's
factors), and every text it can show (the table, the sliders, the gate strip, the charts' labels
and the narration, in every schedule, at every α and every token read) against the numbers it ships."""

import re

import numpy as np
import pytest

from k3explainer.site.readertext import fill
from k3project.experiments import forgetting_curves, gate_schedule
from tests.site import article
from tests.site.article import headline

FIG = "fig-07b"
MECHS = ("deltanet", "gated", "kda")
LABELS = {"deltanet": "DeltaNet", "gated": "Gated DeltaNet", "kda": "KDA"}


@pytest.fixture(scope="module")
def data():
    return article.figure_data(FIG)


def recall(d, mech, when, a, kind_index):
    """One curve as shipped ([time]); DeltaNet has no gate, so one curve for every setting."""
    if mech == "deltanet":
        return d["deltanet"][kind_index]
    return d[mech][when][a][kind_index]


def recall_text(d, mech, when, a, kind_index):
    if mech == "deltanet":
        return d["recall_text"]["deltanet"][kind_index]
    return d["recall_text"][mech][when][a][kind_index]


def text_path(mech, when, a, kind_index, i):
    """Where the component finds the text of one recall (a cell's, and a slot's in the sentences)."""
    if mech == "deltanet":
        return ["recall_text", mech, kind_index, i]
    return ["recall_text", mech, when, a, kind_index, i]


def written(d, kind, i):
    """Whether anything of `kind` is stored after the i-th token read (a topic's first pair comes later)."""
    return kind == "fact" or i >= (d["first_new"] if kind == "new" else d["first_old"])


def js_percent(x: float) -> str:
    """K3W.fmt(100 · x, 0) + "%", as the component wrote a share before its texts moved to the
    builder: toFixed(0), a half away from zero, on the double 100 · x; a real minus sign."""
    v = 100 * x
    n = 0 if abs(v) < 0.5 else int(np.sign(v)) * int(np.floor(abs(v) + 0.5))
    return ("−" if n < 0 else "") + f"{abs(n)}%"


def test_shipped_curves_and_gates_are_the_kernels(data):
    d, st = data, data["stream"]
    alphas, schedules = d["alphas"], d["schedules"]
    runs = [("deltanet", 1.0, "every")] + [(m, a, s) for s in schedules for m in ("gated", "kda") for a in alphas]
    curves = forgetting_curves(d["seeds"], runs, [t - 1 for t in d["tokens"]], alpha_slow=d["alpha_slow"], **st)
    np.testing.assert_allclose(d["deltanet"], curves[0], rtol=0, atol=5e-4 + 1e-12)
    for i, (m, a, s) in enumerate(runs[1:], start=1):
        np.testing.assert_allclose(d[m][s][alphas.index(a)], curves[i], rtol=0, atol=5e-4 + 1e-12)
    for m in MECHS:  # the strip's cells: each channel's factor at the gated step, as the runs used it
        for i, a in enumerate(alphas):
            g = gate_schedule(
                m,
                a,
                n_tokens=st["n_tokens"],
                d_k=st["d_k"],
                n_slow=st["n_slow"],
                switch_at=st["switch_at"],
                schedule="switch",
                alpha_slow=d["alpha_slow"],
            )
            np.testing.assert_allclose(d["channel_gates"][m][i], np.exp(g[st["switch_at"]]), rtol=0, atol=1e-15)


def test_every_shown_number_is_the_value_it_stands_for(data):
    """Each recall text is its share in whole percent, as the page wrote it before (JavaScript's
    rounding: 100 × 0.085 is 9%, not Python's 8%); the other numbers as the sliders and axes show them."""
    d = data
    assert d["alpha_text"] == [f"{a:.2f}" for a in d["alphas"]]
    assert d["x_tick_text"] == [str(t) for t in d["x_ticks"]] and d["x_ticks"][-1] == d["n_tokens"]
    assert d["y_tick_text"] == [js_percent(r) for r in d["y_ticks"]] == ["0%", "50%", "100%"]
    ties = 0
    for when in d["schedules"]:
        for a in range(len(d["alphas"])):
            for m in MECHS:
                for c in range(len(d["kinds"])):
                    values, texts = recall(d, m, when, a, c), recall_text(d, m, when, a, c)
                    assert texts == [js_percent(x) for x in values], (m, when, a, c)
                    ties += sum((100 * x) % 1 == 0.5 for x in values)
    assert ties > 0  # the rounding above is exercised
    for m in MECHS:
        for a, row in enumerate(d["channel_gates"][m]):
            assert d["channel_gate_text"][m][a] == [f"{g:.2f}" for g in row]


def test_the_gate_strip_says_each_channels_factor(data):
    d, slow = data, data["n_slow"]
    for a, alpha in enumerate(d["alphas"]):
        assert d["gate_row_label"]["deltanet"][a] == "DeltaNet: no gate, every channel × 1.00"
        assert d["gate_row_label"]["gated"][a] == f"Gated DeltaNet: every channel × {alpha:.2f}"
        kda = d["gate_row_label"]["kda"][a]
        if alpha == d["alpha_slow"]:
            assert kda == f"KDA: every channel × {alpha:.2f}"
        else:
            assert kda == f"KDA: fact channels × {d['alpha_slow']:.2f}, topic channels × {alpha:.2f}"
        for m in MECHS:
            for c in range(d["d_k"]):
                title = fill(
                    d,
                    ["text", "channel_title"],
                    {"channel": ["channel_numbers", c], "factor": ["channel_gate_text", m, a, c]},
                )
                assert title == f"channel {c + 1}: × {d['channel_gates'][m][a][c]:.2f}"
                assert (c < slow and m == "kda") or m == "deltanet" or title.endswith(f"{alpha:.2f}")
    switch = fill(d, ["text", "gate_note", "switch"])
    assert switch.startswith(f"What each key channel is multiplied by at the switch (token {d['switch_token']};")
    assert fill(d, ["text", "gate_note", "every"]).startswith("What each key channel is multiplied by before every")


def test_every_sentence_in_every_state_reads_the_data(data):
    """For each schedule, α and token read: the table's caption and cells, the sliders, each chart's
    label and both narrations (the token moved; the setting changed) give the shipped numbers of that
    state, a dash or "not written yet" where nothing is stored yet."""
    d = data
    kinds = d["kinds"]
    for when in d["schedules"]:
        for a, alpha in enumerate(d["alphas"]):
            alpha_slot = ["alpha_text", a]
            assert fill(d, ["text", "alpha_slider"], {"alpha": alpha_slot}) == f"α = {alpha:.2f}"
            for i, token in enumerate(d["tokens"]):
                setting = {"token": ["tokens", i], "when": ["schedule_labels", when], "alpha": alpha_slot}
                assert fill(d, ["text", "caption"], setting) == (
                    f"After token {token} · gate {d['schedule_labels'][when]}, α = {alpha:.2f}"
                )
                said = {}  # kind → what the narration and the chart say of it
                for c, k in enumerate(kinds):
                    shares = [js_percent(recall(d, m, when, a, c)[i]) for m in MECHS]
                    if written(d, k, i):
                        label = fill(
                            d,
                            ["text", "chart_label", k, "written"],
                            {"token": ["tokens", i], **{m: text_path(m, when, a, c, i) for m in MECHS}},
                        )
                        said[k] = ", ".join(f"{LABELS[m]} {s}" for m, s in zip(MECHS, shares, strict=True))
                        assert [fill(d, text_path(m, when, a, c, i)) for m in MECHS] == shares
                    else:
                        label = fill(d, ["text", "chart_label", k, "unwritten"], {"token": ["tokens", i]})
                        said[k] = "not written yet"
                        assert fill(d, ["text", "unwritten_cell"]) == "—"
                    assert label == (
                        f"{d['kind_labels'][k]}: share of each stored value a query still gets back, tokens 1 to "
                        f"{d['n_tokens']}, switch before token {d['switch_token']}. After token {token}: {said[k]}."
                    )
                phase = "_".join(k for k in kinds if written(d, k, i))
                values = {
                    f"{k}_{m}": text_path(m, when, a, c, i)
                    for c, k in enumerate(kinds)
                    if written(d, k, i)
                    for m in MECHS
                }
                body = "; ".join(f"{d['kind_labels'][k].lower()} — {said[k]}" for k in kinds) + "."
                moved = fill(d, ["text", "describe", "token", phase], {"token": ["tokens", i], **values})
                assert moved == f"After token {token}: {body}"
                changed = fill(d, ["text", "describe", "setting", phase], {**setting, **values})
                assert changed == f"Gate {d['schedule_labels'][when]}, α = {alpha:.2f}, after token {token}: {body}"
                # and every number in it is one of this state's recalls, in the table's order
                shown = re.findall(r"−?\d+%", changed)
                assert shown == [fill(d, p) for p in values.values()]
    for i, token in enumerate(d["tokens"]):
        assert fill(d, ["text", "token_slider"], {"token": ["tokens", i]}) == f"after token {token}"


def test_the_headline_answers_with_the_table_at_the_end(data):
    """As the figure opens (its default schedule and α, the marker on the last token), the kernel run
    afresh: the gate cuts the old topic below DeltaNet's for both gated memories alike, and of the fact
    the scalar gate keeps only α while KDA keeps it whole."""
    title, takeaway = headline(FIG)
    d, st = data, data["stream"]
    a, when = d["alpha_default"], d["schedule_default"]
    runs = [("deltanet", 1.0, "every"), ("gated", a, when), ("kda", a, when)]
    curves = forgetting_curves(d["seeds"], runs, [d["n_tokens"] - 1], alpha_slow=d["alpha_slow"], **st)
    (plain, gated, kda_) = (dict(zip(d["kinds"], c[:, -1], strict=True)) for c in curves)
    assert title == "Can a memory clear an old topic without losing a fact it still needs?"
    assert takeaway == (
        f"α = {a:g} {d['schedule_labels'][when]} cuts the old topic from DeltaNet's {plain['old']:.0%} to "
        f"{gated['old']:.0%}; Gated DeltaNet keeps {gated['fact']:.0%} of the fact, KDA {kda_['fact']:.0%}."
    )
    assert gated["old"] == pytest.approx(kda_["old"], abs=1e-12) and gated["old"] < plain["old"] / 2
    assert gated["fact"] == pytest.approx(a, abs=0.005) and kda_["fact"] == pytest.approx(1, abs=1e-9)
