"""FIG 12b · depth in the browser: the Reading layer slider (keys and mouse), a tap and a drag along a
chart, the query buttons (mouse and arrows) and the source strip (hover, click, arrows, Home/End)
show the shipped numbers and texts for the state they reach; the state lives in the URL and comes
back with it; the equation's symbols link both ways; axe is clean. The shipped data against the
kernel, and its sentences against the numbers, are checked in test_fig_12b_data.py."""

import numpy as np
import pytest

from k3explainer.site.readertext import fill
from tests.browser.support import assert_axe_clean_through, assert_shown_is_shipped, open_figure, shipped_data

pytestmark = pytest.mark.browser
FIG = "fig-12b"

READ = """() => {
  const f = document.getElementById("fig-12b"), p = f.querySelector(".f12b-picker");
  return {
    summary: f.querySelector(".f12b-summary").textContent, detail: f.querySelector(".f12b-detail").textContent,
    live: f.querySelector(".fig-live").textContent, hash: decodeURIComponent(location.hash),
    slider: +f.querySelector(".f12b-depth input").value, output: f.querySelector(".f12b-depth output").textContent,
    checked: [...f.querySelectorAll("[role=radio]")].map(b => b.getAttribute("aria-checked") === "true"),
    source: +p.getAttribute("aria-valuenow"), sourceMax: +p.getAttribute("aria-valuemax"),
    sourceText: p.getAttribute("aria-valuetext"), focused: document.activeElement === p,
    charts: [...f.querySelectorAll(".f12b-svg")].map(s => s.getAttribute("aria-label")),
    titles: [...f.querySelectorAll(".f12b-chart figcaption")].map(c => c.textContent),
    bars: [...f.querySelectorAll(".f12b-bar")].map(b => [...b.querySelectorAll(".f12b-seg")].map(r => +r.getAttribute("width"))),
    marks: [...f.querySelectorAll(".f12b-mark")].map(m => +m.getAttribute("x")),
    dim: [...f.querySelectorAll(".f12b-l.is-dim")].map(n => n.getAttribute("class")),
  };
}"""


@pytest.fixture(scope="module")
def shipped(site_dir):
    return shipped_data(site_dir, FIG)


def source_sentence(data, l, q, s):
    j = data["depths"].index(l)
    slots = {
        "layer": ["depths", j],
        "source": ["source_name", s],
        "plain_weight": ["rules_text", "plain", "weight_text", j, s],
        "plain_share": ["rules_text", "plain", "share_text", j, s],
        "weight": ["rules_text", q, "weight_text", j, s],
        "share": ["rules_text", q, "share_text", j, s],
    }
    return fill(data, ["text", "source", q], slots)


def assert_shows(page, site_dir, data, l, q="aligned", s=None):
    """Both readouts, the charts' labels, the slider, the buttons, the strip and the picker show
    layer l, query q, source s: the shipped texts and, drawn, the shipped weights."""
    shown = page.evaluate(READ)
    j, t = data["depths"].index(l), data["target"]
    s = t if s is None else s
    rules = data["rules"]
    assert shown["summary"] == fill(data, ["text", "depth", q, j])
    assert shown["detail"] == source_sentence(data, l, q, s)
    assert shown["charts"] == [fill(data, ["text", "size_chart", q, j]), fill(data, ["text", "share_chart", q, j])]
    assert shown["titles"] == [
        data["text"]["size_title"] + data["text"]["size_note"],
        data["text"]["share_title"] + data["text"]["share_note"],
    ]
    assert shown["slider"] == j and shown["output"] == data["depth_text"][j]
    assert shown["checked"] == [q == "aligned", q == "random"]
    assert shown["source"] == s and shown["sourceMax"] == l - 1
    assert shown["sourceText"] == data["source_name"][s] == ("the embedding" if s == 0 else f"layer {s}'s output")
    # the strip: l pieces in each row, cut by the weights (600 units wide, hairline gaps)
    for row, weights in zip(shown["bars"], (rules["plain"]["weights"][j], rules[q]["weights"][j]), strict=True):
        drawn = np.array(row[:l])
        assert np.all(np.array(row[l:]) == 0)
        assert np.allclose(drawn, np.maximum(0, 600 * np.array(weights) - (0.4 if l > 40 else 1.2)), atol=0.05)
    assert shown["marks"][0] == pytest.approx(600 * sum(rules["plain"]["weights"][j][:s]), abs=0.05)
    assert shown["marks"][1] == pytest.approx(600 * sum(rules[q]["weights"][j][:s]), abs=0.05)
    other = "random" if q == "aligned" else "aligned"  # the other query's lines are dimmed
    assert shown["dim"] and all(f"f12b-l-{other}" in c for c in shown["dim"])
    # every text placed from the data (readouts, titles, key, strip labels) is the shipped one
    assert assert_shown_is_shipped(page, site_dir, FIG) >= 12
    return shown


def test_opens_at_k3_depth_with_the_aimed_query(watched, site_url, site_dir, shipped):
    page, _ = watched
    open_figure(page, site_url, FIG)
    shown = assert_shows(page, site_dir, shipped, shipped["k3_depth"])
    assert "K3's layer count" in shown["output"] and "#fig-12b." not in shown["hash"]  # defaults stay out of the link


def test_reading_layer_by_keys_tap_and_drag(watched, site_url, site_dir, shipped):
    page, _ = watched
    fig = open_figure(page, site_url, FIG)
    slider = fig.get_by_label("Reading layer")
    slider.focus()
    page.keyboard.press("Home")
    shown = assert_shows(page, site_dir, shipped, 2)
    assert shown["live"] == shown["summary"] and "Layer 2 reads" in shown["live"] and "fig-12b.l=2" in shown["hash"]
    page.keyboard.press("ArrowRight")
    assert_shows(page, site_dir, shipped, 3)
    page.keyboard.press("End")
    assert_shows(page, site_dir, shipped, shipped["depths"][-1])
    # tap the second chart above its "8" tick: layer 8; then drag along the first to its "4"
    charts = fig.locator(".f12b-svg")
    tick = charts.nth(1).get_by_text("8", exact=True).bounding_box()
    box = charts.nth(1).bounding_box()
    page.mouse.click(tick["x"] + tick["width"] / 2, box["y"] + box["height"] / 3)
    assert_shows(page, site_dir, shipped, 8)
    four, box = charts.nth(0).get_by_text("4", exact=True).bounding_box(), charts.nth(0).bounding_box()
    y = box["y"] + box["height"] / 2
    page.mouse.move(box["x"] + box["width"] * 0.9, y)
    page.mouse.down()
    page.mouse.move(four["x"] + four["width"] / 2, y, steps=6)
    page.mouse.up()
    shown = assert_shows(page, site_dir, shipped, 4)
    assert shown["live"] == shown["summary"] and "Layer 4 reads" in shown["live"]
    page.go_back()  # the whole drag was one history entry: back is the tap's layer 8
    page.wait_for_function(
        "() => document.querySelector('#fig-12b .f12b-depth output').textContent.startsWith('layer 8')"
    )
    assert_shows(page, site_dir, shipped, 8)


def test_query_buttons_by_mouse_and_arrows(watched, site_url, site_dir, shipped):
    page, _ = watched
    fig = open_figure(page, site_url, FIG)
    fig.get_by_role("radio", name="random queries").click()
    shown = assert_shows(page, site_dir, shipped, shipped["k3_depth"], "random")
    assert (
        shown["live"] == shown["summary"] and "random queries" in shown["live"] and "fig-12b.q=random" in shown["hash"]
    )
    page.keyboard.press("ArrowLeft")
    assert_shows(page, site_dir, shipped, shipped["k3_depth"], "aligned")
    page.keyboard.press("ArrowRight")
    assert_shows(page, site_dir, shipped, shipped["k3_depth"], "random")


def test_sources_by_hover_click_and_keys(watched, site_url, site_dir, shipped):
    page, _ = watched
    fig = open_figure(page, site_url, FIG, "#fig-12b.l=16")
    segs = fig.locator(".f12b-bar-plain .f12b-seg")
    segs.nth(5).hover()
    shown = assert_shows(page, site_dir, shipped, 16, s=5)
    assert shown["live"] == shown["detail"] and "layer 5's output" in shown["live"]
    fig.locator(".f12b-bar-attn .f12b-seg").nth(1).hover()  # the aimed query's big piece: layer 1
    assert_shows(page, site_dir, shipped, 16, s=1)
    segs.nth(0).click()
    assert_shows(page, site_dir, shipped, 16, s=0)
    fig.locator(".f12b-picker").focus()
    page.keyboard.press("ArrowRight")
    page.keyboard.press("ArrowRight")
    assert_shows(page, site_dir, shipped, 16, s=2)
    page.keyboard.press("End")
    shown = assert_shows(page, site_dir, shipped, 16, s=15)
    assert shown["focused"] and "fig-12b.s=15" in shown["hash"]
    page.keyboard.press("Home")
    assert_shows(page, site_dir, shipped, 16, s=0)
    # fewer layers below than the chosen source: the strip shows the last one there is
    fig.locator(".f12b-picker").press("End")
    fig.get_by_label("Reading layer").focus()
    page.keyboard.press("Home")
    assert_shows(page, site_dir, shipped, 2, s=1)


def test_state_comes_back_from_the_link_and_history(watched, site_url, site_dir, shipped):
    page, _ = watched
    open_figure(page, site_url, FIG, "#fig-12b.l=32&fig-12b.q=random&fig-12b.s=7")
    assert_shows(page, site_dir, shipped, 32, "random", 7)
    page.locator("#fig-12b").get_by_role("radio", name="query aimed at layer 1's output").click()
    assert_shows(page, site_dir, shipped, 32, "aligned", 7)
    page.go_back()
    page.wait_for_function(
        "() => document.querySelector('#fig-12b [role=radio][aria-checked=true]').textContent === 'random'"
    )
    assert_shows(page, site_dir, shipped, 32, "random", 7)


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


def test_no_accessibility_violations_at_load_and_in_chosen_states(watched, site_url):
    """axe at load and in three states the load does not show: random queries, a source picked by
    arrow key (focus on the picker), and the first reading layer by Home (focus on its slider)."""
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
