"""FIG 12b · depth: the Reading layer slider (keys and mouse), a tap and a drag along a chart, the query
buttons (mouse and arrows) and the source strip (hover, click, arrows, Home/End) show what the
kernel computes for the seeded stack, which is rebuilt here from the shipped seed and sizes; the
state lives in the URL and comes back with it; the equation's symbols link both ways; axe is clean."""

import numpy as np
import pytest

from k3explainer.site.projectcode import builder
from k3project.experiments import depth_experiment
from tests.browser.support import ROOT, assert_axe_clean_through, open_figure, shipped_data, shown_number

pytestmark = pytest.mark.browser
FIG = "fig-12b"

READ = """() => {
  const f = document.getElementById("fig-12b"), p = f.querySelector(".f12b-picker"), k = {};
  f.querySelectorAll("[data-k]").forEach(n => { k[n.dataset.k] = n.textContent; });
  return {
    k, live: f.querySelector(".fig-live").textContent, hash: decodeURIComponent(location.hash),
    slider: +f.querySelector(".f12b-depth input").value, output: f.querySelector(".f12b-depth output").textContent,
    checked: [...f.querySelectorAll("[role=radio]")].map(b => b.getAttribute("aria-checked") === "true"),
    source: +p.getAttribute("aria-valuenow"), sourceMax: +p.getAttribute("aria-valuemax"),
    sourceText: p.getAttribute("aria-valuetext"), focused: document.activeElement === p,
    bars: [...f.querySelectorAll(".f12b-bar")].map(b => [...b.querySelectorAll(".f12b-seg")].map(r => +r.getAttribute("width"))),
    marks: [...f.querySelectorAll(".f12b-mark")].map(m => +m.getAttribute("x")),
    dim: [...f.querySelectorAll(".f12b-l.is-dim")].map(n => n.getAttribute("class")),
  };
}"""


@pytest.fixture(scope="module")
def kernel(site_dir):
    """The experiment recomputed from the shipped seed and sizes (not from the shipped numbers)."""
    data = shipped_data(site_dir, FIG)
    inputs = builder(ROOT, "fig-12b-depth").stack_inputs(
        data
    )  # n_layers, d, d_ff, n_tokens, seed, out_gain, query_norm all ship
    r = depth_experiment(*inputs, depths=data["depths"], target=data["target"], probe_norm=data["query_norm"])
    return {"data": data, "r": r, "depths": data["depths"], "k3": data["k3_depth"], "target": data["target"]}


def near(text, value, digits, percent=False):
    """A shown number equals the kernel's to its displayed precision (the shipped data has five
    decimals, so allow for that rounding too)."""
    v = 100 * value if percent else value
    got = shown_number(text.rstrip("%"))
    assert abs(got - v) <= 0.5 * 10.0**-digits + (100 if percent else 1) * 5e-6 + 1e-9, (text, v)


def assert_shows(shown, kernel, l, q="aligned", s=None):
    """Both readouts, the slider, the buttons, the strip and the picker show layer l, query q, source s."""
    r, j, t = kernel["r"], kernel["depths"].index(l), kernel["target"]
    s = t if s is None else s
    k = shown["k"]
    near(k["plain-rms"], r["plain"]["rms"][j], 2)
    near(k["emb-rms"], r["embedding_rms"], 2)
    near(k["plain-share"], r["plain"]["shares"][j][t], 1, percent=True)
    near(k["equal"], 1 / l, 1, percent=True)
    near(k["attn-rms"], r[q]["rms"][j], 2)
    near(k["attn-weight"], r[q]["weights"][j][t], 3)
    near(k["attn-share"], r[q]["shares"][j][t], 1, percent=True)
    near(k["src-plain-weight"], r["plain"]["weights"][j][s], 3)
    near(k["src-plain-share"], r["plain"]["shares"][j][s], 1, percent=True)
    near(k["src-attn-weight"], r[q]["weights"][j][s], 3)
    near(k["src-attn-share"], r[q]["shares"][j][s], 1, percent=True)
    assert shown["slider"] == j and shown["output"].startswith(f"layer {l}")
    assert shown["checked"] == [q == "aligned", q == "random"]
    assert shown["source"] == s and shown["sourceMax"] == l - 1
    assert shown["sourceText"] == ("the embedding" if s == 0 else f"layer {s}'s output")
    # the strip: l pieces in each row, cut by the weights (600 units wide, hairline gaps)
    for row, weights in zip(shown["bars"], (r["plain"]["weights"][j], r[q]["weights"][j]), strict=True):
        drawn = np.array(row[:l])
        assert np.all(np.array(row[l:]) == 0)
        assert np.allclose(drawn, np.maximum(0, 600 * weights - (0.4 if l > 40 else 1.2)), atol=0.05)
    assert shown["marks"][0] == pytest.approx(600 * r["plain"]["weights"][j][:s].sum(), abs=0.05)
    assert shown["marks"][1] == pytest.approx(600 * r[q]["weights"][j][:s].sum(), abs=0.05)
    other = "random" if q == "aligned" else "aligned"  # the other query's lines are dimmed
    assert shown["dim"] and all(f"f12b-l-{other}" in c for c in shown["dim"])


def read(page):
    return page.evaluate(READ)


def test_shipped_numbers_are_the_kernels(kernel):
    data, r = kernel["data"], kernel["r"]
    for rule in ("plain", "random", "aligned"):
        np.testing.assert_allclose(data["rules"][rule]["rms"], r[rule]["rms"], rtol=0, atol=5e-6)
        for key in ("weights", "shares"):
            for got, want in zip(data["rules"][rule][key], r[rule][key], strict=True):
                np.testing.assert_allclose(got, want, rtol=0, atol=5e-6)
    assert data["embedding_rms"] == pytest.approx(r["embedding_rms"], abs=5e-6)


def test_opens_at_k3_depth_with_the_aimed_query(watched, site_url, kernel):
    page, _ = watched
    open_figure(page, site_url, FIG)
    shown = read(page)
    assert_shows(shown, kernel, kernel["k3"])
    assert "K3's layer count" in shown["output"] and "#fig-12b." not in shown["hash"]  # defaults stay out of the link


def test_reading_layer_by_keys_tap_and_drag(watched, site_url, kernel):
    page, _ = watched
    fig = open_figure(page, site_url, FIG)
    slider = fig.get_by_label("Reading layer")
    slider.focus()
    page.keyboard.press("Home")
    shown = read(page)
    assert_shows(shown, kernel, 2)
    assert "Layer 2 reads" in shown["live"] and "fig-12b.l=2" in shown["hash"]
    page.keyboard.press("ArrowRight")
    assert_shows(read(page), kernel, 3)
    page.keyboard.press("End")
    assert_shows(read(page), kernel, kernel["depths"][-1])
    # tap the second chart above its "8" tick: layer 8; then drag along the first to its "4"
    charts = fig.locator(".f12b-svg")
    tick = charts.nth(1).get_by_text("8", exact=True).bounding_box()
    box = charts.nth(1).bounding_box()
    page.mouse.click(tick["x"] + tick["width"] / 2, box["y"] + box["height"] / 3)
    assert_shows(read(page), kernel, 8)
    four, box = charts.nth(0).get_by_text("4", exact=True).bounding_box(), charts.nth(0).bounding_box()
    y = box["y"] + box["height"] / 2
    page.mouse.move(box["x"] + box["width"] * 0.9, y)
    page.mouse.down()
    page.mouse.move(four["x"] + four["width"] / 2, y, steps=6)
    page.mouse.up()
    shown = read(page)
    assert_shows(shown, kernel, 4)
    assert "Layer 4 reads" in shown["live"]
    page.go_back()  # the whole drag was one history entry: back is the tap's layer 8
    page.wait_for_function(
        "() => document.querySelector('#fig-12b .f12b-depth output').textContent.startsWith('layer 8')"
    )
    assert_shows(read(page), kernel, 8)


def test_query_buttons_by_mouse_and_arrows(watched, site_url, kernel):
    page, _ = watched
    fig = open_figure(page, site_url, FIG)
    fig.get_by_role("radio", name="random queries").click()
    shown = read(page)
    assert_shows(shown, kernel, kernel["k3"], "random")
    assert "random queries" in shown["live"] and "fig-12b.q=random" in shown["hash"]
    page.keyboard.press("ArrowLeft")
    assert_shows(read(page), kernel, kernel["k3"], "aligned")
    page.keyboard.press("ArrowRight")
    assert_shows(read(page), kernel, kernel["k3"], "random")


def test_sources_by_hover_click_and_keys(watched, site_url, kernel):
    page, _ = watched
    fig = open_figure(page, site_url, FIG, "#fig-12b.l=16")
    segs = fig.locator(".f12b-bar-plain .f12b-seg")
    segs.nth(5).hover()
    shown = read(page)
    assert_shows(shown, kernel, 16, s=5)
    assert "layer 5's output" in shown["live"]
    fig.locator(".f12b-bar-attn .f12b-seg").nth(1).hover()  # the aimed query's big piece: layer 1
    assert_shows(read(page), kernel, 16, s=1)
    segs.nth(0).click()
    assert_shows(read(page), kernel, 16, s=0)
    fig.locator(".f12b-picker").focus()
    page.keyboard.press("ArrowRight")
    page.keyboard.press("ArrowRight")
    assert_shows(read(page), kernel, 16, s=2)
    page.keyboard.press("End")
    shown = read(page)
    assert_shows(shown, kernel, 16, s=15)
    assert shown["focused"] and "fig-12b.s=15" in shown["hash"]
    page.keyboard.press("Home")
    assert_shows(read(page), kernel, 16, s=0)
    # fewer layers below than the chosen source: the strip shows the last one there is
    fig.locator(".f12b-picker").press("End")
    fig.get_by_label("Reading layer").focus()
    page.keyboard.press("Home")
    assert_shows(read(page), kernel, 2, s=1)


def test_state_comes_back_from_the_link_and_history(watched, site_url, kernel):
    page, _ = watched
    open_figure(page, site_url, FIG, "#fig-12b.l=32&fig-12b.q=random&fig-12b.s=7")
    assert_shows(read(page), kernel, 32, "random", 7)
    page.locator("#fig-12b").get_by_role("radio", name="query aimed at layer 1's output").click()
    assert_shows(read(page), kernel, 32, "aligned", 7)
    page.go_back()
    page.wait_for_function(
        "() => document.querySelector('#fig-12b [role=radio][aria-checked=true]').textContent === 'random'"
    )
    assert_shows(read(page), kernel, 32, "random", 7)


def test_equation_symbols_and_figure_parts_light_each_other(watched, site_url):
    page, _ = watched
    fig = open_figure(page, site_url, FIG)
    eq = page.locator("#attention-residuals .math-block math [data-sym='depth-share']").first
    eq.hover()
    assert fig.locator(".f12b-chart[data-sym='depth-share'].sym-on").count() == 1
    page.locator("#attention-residuals .math-block math [data-sym='ar-weights']").first.hover()
    assert fig.locator(".f12b-bar-attn.sym-on").count() == 1
    fig.locator(".f12b-chart[data-sym='depth-rms'] .f12b-title").hover()
    assert page.locator("#attention-residuals [data-sym='depth-rms'].sym-on").count() >= 1
    fig.locator(".f12b-picker").focus()
    assert page.locator("#attention-residuals .math-block math [data-sym='ar-sources'].sym-on").count() >= 1


def test_no_accessibility_violations_through_the_interactions(watched, site_url):
    page, _ = watched
    fig = open_figure(page, site_url, FIG)
    assert_axe_clean_through(
        page,
        FIG,
        {
            "random queries by click": lambda p: fig.get_by_role("radio", name="random queries").click(),
            "source picker by keys": lambda p: (fig.locator(".f12b-picker").focus(), p.keyboard.press("ArrowRight")),
            "reading layer by keys": lambda p: (fig.get_by_label("Reading layer").focus(), p.keyboard.press("Home")),
        },
    )
