"""FIG 07 · gated delta rule in the browser: both sides show the shipped states for any α; α = 1
makes them identical; α = 0 leaves only the latest write; stepper, slider, URL state, symbol links,
accessibility. What is shown is checked against what was shipped; the shipped data against the
kernels, and its sentences against the numbers, in test_fig_07_data.py."""

import json
from itertools import pairwise

import numpy as np
import pytest

from tests.browser.support import (
    assert_axe_clean_through,
    assert_shown_is_shipped,
    open_figure,
    shipped_data,
    table_numbers,
)

pytestmark = pytest.mark.browser
FIG = "fig-07"
TOL = 0.0005 + 1e-5 + 1e-9  # three decimals shown, of data shipped at five


@pytest.fixture(scope="module")
def data(site_dir):
    return shipped_data(site_dir, FIG)


def shown(fig):
    tables = fig.locator(".f07-pair table")
    return np.array(table_numbers(tables.nth(0))), np.array(table_numbers(tables.nth(1)))


def set_alpha(page, fig, alpha, data):
    i = min(range(len(data["alphas"])), key=lambda j: abs(data["alphas"][j] - alpha))
    fig.locator(".f07 input[type=range]").focus()
    page.keyboard.press("Home")
    for _ in range(i):
        page.keyboard.press("ArrowRight")
    assert fig.locator(".f07 output").inner_text() == f"α = {data['alphas'][i]:.3f}"


def assert_matches(fig, site_dir, data, alpha, t, phase):
    """Both grids show the shipped states of token t's phase at this α, and every text placed (the
    captions, the tag, the readout, the plot's line) is the shipped one for that step and α."""
    plain, gated = data["plain"], data["gated"][data["alphas"].index(alpha)]
    left, right = shown(fig)
    if phase == "decay":
        assert left == pytest.approx(np.array(plain["state_prev"][t]), abs=TOL)
        assert right == pytest.approx(np.array(gated["decayed"][t]), abs=TOL)
    else:
        assert left == pytest.approx(np.array(plain["state"][t]), abs=TOL)
        assert right == pytest.approx(np.array(gated["state"][t]), abs=TOL)
    step = 2 * t + ["decay", "write"].index(phase)
    assert fig.locator(".k3-stepper-readout").inner_text() == data["walk"][step]["readout"]
    i = data["alphas"].index(alpha)
    readout, plot = fig.locator(".f07-readout"), fig.locator(".f07-plot-text")
    assert json.loads(readout.get_attribute("data-shows")) == (
        ["text", "readout_decay"] if phase == "decay" else ["gated", i, "after_write"]
    )
    for shows in (readout, plot):  # this token, at this α
        assert json.loads(shows.get_attribute("data-slots"))["token"] == ["tokens", t]
    assert json.loads(plot.get_attribute("data-slots"))["left"] == ["gated", i, "left_text", t]
    assert assert_shown_is_shipped(fig.page, site_dir, FIG) >= 6
    return left, right


def test_stepping_by_mouse_and_keyboard_shows_the_shipped_states(watched, site_url, site_dir, data):
    page, _ = watched
    fig = open_figure(page, site_url, FIG)
    assert fig.locator(".f07 output").inner_text() == "α = 0.750"
    assert_matches(fig, site_dir, data, 0.75, data["open_step"] // 2, ["decay", "write"][data["open_step"] % 2])
    fig.locator(".k3-stepper").focus()
    page.keyboard.press("Home")
    page.keyboard.press("ArrowRight")
    assert_matches(fig, site_dir, data, 0.75, 0, "write")
    nxt = fig.get_by_role("button", name="Next step")
    for n in range(2, 12):
        nxt.click()
        assert_matches(fig, site_dir, data, 0.75, n // 2, ["decay", "write"][n % 2])
    assert "Token 6, write" in fig.locator(".fig-live").inner_text()
    fig.locator(".k3-stepper").focus()
    page.keyboard.press("Home")
    assert_matches(fig, site_dir, data, 0.75, 0, "decay")
    page.keyboard.press("ArrowRight")
    page.keyboard.press("ArrowRight")
    _, right = assert_matches(fig, site_dir, data, 0.75, 1, "decay")
    assert fig.locator(".f07-gated table[data-tone='decayed']").count() == 1
    assert "multiplied by α = 0.750" in fig.locator(".fig-live").inner_text()


@pytest.mark.parametrize("alpha", [0.0, 0.375, 1.0])
def test_slider_alpha_by_keyboard(watched, site_url, site_dir, data, alpha):
    page, _ = watched
    fig = open_figure(page, site_url, FIG, "#fig-07.step=5")
    set_alpha(page, fig, alpha, data)
    left, right = assert_matches(fig, site_dir, data, alpha, 2, "write")
    if alpha == 1.0:
        assert np.array_equal(left, right)  # identical on screen, digit for digit
        assert "identical" in fig.locator(".f07-readout").inner_text()
    if alpha == 0.0:  # memory cleared before each write: only β k vᵀ of the latest token (test_fig_07_data.py)
        assert "only the latest write" in fig.locator(".f07-readout").inner_text()
    assert f"fig-07.alpha={alpha:.3f}" in page.url
    assert f"α = {alpha:.3f}" in fig.locator(".fig-live").inner_text()


def test_slider_by_mouse(watched, site_url, site_dir, data):
    page, _ = watched
    fig = open_figure(page, site_url, FIG, "#fig-07.step=3")
    box = fig.locator(".f07 input[type=range]").bounding_box()
    page.mouse.click(box["x"] + 2, box["y"] + box["height"] / 2)  # far left: α = 0
    assert fig.locator(".f07 output").inner_text() == "α = 0.000"
    assert_matches(fig, site_dir, data, 0.0, 1, "write")


def test_state_lives_in_the_url_and_history(watched, site_url, site_dir, data):
    page, _ = watched
    fig = open_figure(page, site_url, FIG, "#fig-07.alpha=0.500&fig-07.step=6")
    assert_matches(fig, site_dir, data, 0.5, 3, "decay")
    fig.get_by_role("button", name="Next step").click()
    assert "fig-07.step=7" in page.url
    page.go_back()
    page.wait_for_function("() => document.querySelector('#fig-07 .k3-stepper-readout').textContent.endsWith('decay')")
    assert_matches(fig, site_dir, data, 0.5, 3, "decay")


def test_equation_symbols_and_figure_link_both_ways(watched, site_url):
    page, _ = watched
    fig = open_figure(page, site_url, FIG)
    page.locator("#gated-deltanet .math-block math [data-sym='gd-alpha']").first.hover()
    assert fig.locator(".k3-slider[data-sym='gd-alpha'].sym-on").count() == 1
    page.locator("#gated-deltanet .sym-chip[data-sym='gd-alpha']").first.focus()
    assert fig.locator(".f07-tag.sym-on").count() == 1
    fig.locator(".f07 input[type=range]").focus()
    assert page.locator("#gated-deltanet .math-block math [data-sym='gd-alpha'].sym-on").count() >= 1


def test_no_accessibility_violations_at_load_and_in_chosen_states(watched, site_url, data):
    """axe at load (a decay phase) and in three states it does not show: the write phase before it
    (its own readout and tones), α = 0 by keys (focus on the slider, the readout's wording for only
    the latest write), and α lit from the equation (the slider highlighted)."""
    page, _ = watched
    fig = open_figure(page, site_url, FIG)
    assert_axe_clean_through(
        page,
        FIG,
        {
            "a write phase (Previous)": lambda p: fig.get_by_role("button", name="Previous step").click(),
            "α = 0": lambda p: set_alpha(p, fig, 0.0, data),
            "hovering α in the equation": lambda p: p.locator(
                "#gated-deltanet .math-block math [data-sym='gd-alpha']"
            ).first.hover(),
        },
    )


def test_opens_where_the_decay_has_acted(watched, site_url, site_dir, data):
    """The default view is a decay phase after several writes, where the gated grid differs from
    DeltaNet's; stepping into it from the write before, every gated cell fades (α × its colour value)."""
    page, _ = watched
    fig = open_figure(page, site_url, FIG)
    t = data["open_step"] // 2
    assert data["open_step"] % 2 == 0 and t >= 2
    left, right = assert_matches(fig, site_dir, data, 0.75, t, "decay")
    assert np.max(np.abs(left - right)) > 0.1  # not two identical grids

    def strength(n):
        return np.array(
            fig.locator(".f07-pair table")
            .nth(n)
            .locator("tbody td")
            .evaluate_all("tds => tds.map(td => parseFloat(td.style.getPropertyValue('--heat')))")
        )

    decayed = strength(1)
    fig.get_by_role("button", name="Previous step").click()  # the write before: the gated state undecayed
    before = strength(1)
    assert np.all(decayed <= before + 0.06) and np.sum(decayed) < 0.9 * np.sum(before)
    fig.get_by_role("button", name="Next step").click()
    assert strength(1) == pytest.approx(decayed)


@pytest.mark.parametrize("alpha", [0.25, 0.75, 1.0])
def test_survival_plot_follows_the_slider(watched, site_url, site_dir, data, alpha):
    """The plot's line and readout: the shipped share of token 1's write left after each token (the
    later tokens run with zero values from token 1's write: test_fig_07_data.py)."""
    page, _ = watched
    fig = open_figure(page, site_url, FIG)
    set_alpha(page, fig, alpha, data)
    T = data["n_tokens"]
    want = data["gated"][data["alphas"].index(alpha)]["survival"]
    t = data["open_step"] // 2
    assert assert_shown_is_shipped(page, site_dir, FIG) >= 6
    text = fig.locator(".f07-plot-text").inner_text()
    assert f"after token {t + 1}, {100 * want[t]:.1f} % of token 1's write is left" in text
    assert f"{100 * alpha**t:.1f} % from decay alone" in text
    d = fig.locator(".f07-l-gated").get_attribute("d")
    ys = [float(p.split(",")[1]) for p in d[1:].split("L")]
    assert len(ys) == T and all(b >= a - 1e-6 for a, b in pairwise(ys))  # SVG y grows downwards: never rises
    if alpha == 1.0:
        assert fig.locator(".f07-l-gated").get_attribute("d") == fig.locator(".f07-l-plain").get_attribute("d")


BOX_JS = (
    "e => { const r = e.getBoundingClientRect(); return {left: r.left, right: r.right, top: r.top, bottom: r.bottom}; }"
)


def test_layout_uses_the_width_and_fits_a_phone_screen(watched, site_url):
    """On a desktop the plot's legend and reading sit beside the chart (they left ~350 px of the row
    blank under it); on a phone the two grids sit side by side with their bottoms level, and the α
    slider and the whole plot fit one screen, so dragging shows what it changes."""
    page, _ = watched
    page.set_viewport_size({"width": 1280, "height": 900})
    fig = open_figure(page, site_url, FIG)
    svg, side = fig.locator(".f07-svg").evaluate(BOX_JS), fig.locator(".f07-plot-side").evaluate(BOX_JS)
    assert side["left"] >= svg["right"] and side["top"] < svg["bottom"]
    page.set_viewport_size({"width": 390, "height": 844})
    fig = open_figure(page, site_url, FIG)
    left, right = [fig.locator(".k3-state").nth(i).evaluate(BOX_JS) for i in (0, 1)]
    assert right["left"] >= left["right"] and abs(right["bottom"] - left["bottom"]) < 1
    slider, plot = fig.locator(".k3-slider input").evaluate(BOX_JS), fig.locator(".f07-svg").evaluate(BOX_JS)
    assert plot["bottom"] - slider["top"] <= 844


def test_a_tap_shows_a_cells_value_as_the_legend_says(browser, browser_context_args, site_url):
    """The heat legend tells a phone reader to tap: a tapped cell takes focus and shows its number."""
    context = browser.new_context(
        **{**browser_context_args, "has_touch": True, "viewport": {"width": 390, "height": 844}}
    )
    page = context.new_page()
    try:
        fig = open_figure(page, site_url, FIG)
        assert "tap" in fig.locator(".k3-heat-note").inner_text()
        cell = fig.locator(".k3-state tbody td").nth(5)
        number = cell.locator(".k3-heat-n")
        assert number.bounding_box()["width"] <= 1  # hidden until asked for
        cell.tap()
        assert number.bounding_box()["width"] > 10 and number.inner_text().strip()
    finally:
        context.close()
