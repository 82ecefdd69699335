"""FIG 15 · complexity explorer in the browser: the N marker (slider keys, mouse drag, touch tap)
reads every curve into the table, the compute/memory switch swaps the curves, the state lives in
the URL. What is shown is checked against what was shipped; the shipped data against the kernel,
and its sentences against the numbers, in test_fig_15_data.py."""

import numpy as np
import pytest

from tests.browser.fixtures import Watch
from tests.browser.support import assert_axe_clean_through, assert_shown_is_shipped, open_figure, shipped_data

pytestmark = pytest.mark.browser
FIG = "fig-15"


@pytest.fixture(scope="module")
def shipped(site_dir):
    return shipped_data(site_dir, FIG)


@pytest.fixture(scope="module")
def kernel(shipped):
    """The curves as shipped, at N (what the chart draws and the marker reads)."""
    return {
        m["key"]: {q: shipped["metrics"][q]["values"][m["key"]] for q in shipped["metrics"]}
        for m in shipped["mechanisms"]
    }


def shown_index(fig) -> int:
    return int(fig.locator(".k3-slider input").input_value())


def assert_table_shows(fig, page, site_dir, metric, i):
    """The marker is at grid point i, and every text the table, the chart's label and the narration
    show is the shipped text for `metric` at i."""
    assert shown_index(fig) == i
    shown = page.eval_on_selector_all(f"#{FIG} [data-shows]", "els => els.map(e => e.getAttribute('data-shows'))")
    assert f'["metrics","{metric}","value_text","softmax",{i}]' in shown
    assert assert_shown_is_shipped(page, site_dir, FIG) >= 2 + 2 * 6


def assert_plotted(page, kernel, keys, metric):
    """The chart in sight is `metric`'s, alone (each quantity has its own chart, drawn at start and
    stacked in one place), and the six curves Plotly holds in it are the kernel's curves."""
    seen = page.evaluate(f"""() => [...document.querySelectorAll('#{FIG} .f15-plot')]
        .filter(p => getComputedStyle(p).visibility === 'visible').map(p => p.dataset.view)""")
    assert seen == [metric]
    ys = page.evaluate(
        f"() => document.querySelector('#{FIG} .f15-plot[data-view={metric}]').data.slice(0, 6).map(t => Array.from(t.y))"
    )
    assert len(ys) == len(keys)
    for y, k in zip(ys, keys, strict=True):
        np.testing.assert_allclose(y, kernel[k][metric], rtol=1e-12)


def assert_marker_at(page, shipped, kernel, metric, i):
    """The marker's line stands at N = n and its dots sit on the curves there, where Plotly's own
    axes put those values (the marker is an SVG over the chart, drawn apart from Plotly)."""
    n, keys = shipped["n"][i], [m["key"] for m in shipped["mechanisms"]]
    got = page.evaluate(
        """([id, n]) => {
            const plot = document.querySelector('#' + id + ' .f15-plot:not(.k3-scrub-off)'), fl = plot._fullLayout;
            const svg = document.querySelector('#' + id + ' .k3-scrub-marker'), line = svg.querySelector('line');
            const xa = fl.xaxis, ya = fl.yaxis, box = plot.getBoundingClientRect(), over = svg.getBoundingClientRect();
            return {x: +line.getAttribute('x1'), x2: +line.getAttribute('x2'), want: xa.l2p(Math.log10(n)) + xa._offset,
                    shift: [over.left - box.left, over.top - box.top],
                    dots: [...svg.querySelectorAll('circle')].map(c => ({cx: +c.getAttribute('cx'), cy: +c.getAttribute('cy'),
                                                                          hidden: c.getAttribute('visibility') === 'hidden'})),
                    ylog: [ya._offset, ya._length, ya.range[0], ya.range[1]]};
        }""",
        [FIG, n],
    )
    assert got["shift"] == [0, 0]  # the overlay lies exactly on the plot's box
    assert got["x"] == got["x2"] == pytest.approx(got["want"], abs=0.01)
    off, length, lo, hi = got["ylog"]
    assert len(got["dots"]) == len(keys)
    for dot, k in zip(got["dots"], keys, strict=True):
        assert dot["cx"] == pytest.approx(got["want"], abs=0.01)
        y = off + (hi - np.log10(kernel[k][metric][i])) / (hi - lo) * length
        assert not dot["hidden"] and dot["cy"] == pytest.approx(y, abs=0.01), k


def plot_point(page, frac):
    """Client coordinates of a point at fraction `frac` across the plot area (left to right)."""
    return page.evaluate(
        """([id, f]) => {
            const el = document.querySelector('#' + id + ' .f15-plot:not(.k3-scrub-off)');
            const fl = el._fullLayout, box = el.getBoundingClientRect();
            return [box.left + fl.xaxis._offset + f * fl.xaxis._length, box.top + fl.yaxis._offset + fl.yaxis._length / 2];
        }""",
        [FIG, frac],
    )


def test_slider_keys_move_the_marker_and_the_table_follows(watched, site_url, site_dir, shipped, kernel):
    page, _ = watched
    fig = open_figure(page, site_url, FIG)
    K = len(shipped["n"])
    i = shipped["n_default_index"]
    assert_table_shows(fig, page, site_dir, "compute", i)
    fig.locator(".k3-slider input").focus()
    page.keyboard.press("ArrowLeft")
    assert_table_shows(fig, page, site_dir, "compute", i - 1)
    page.keyboard.press("Home")
    assert_table_shows(fig, page, site_dir, "compute", 0)
    page.keyboard.press("End")
    assert_table_shows(fig, page, site_dir, "compute", K - 1)
    assert f"N = {shipped['n'][-1]:,} tokens" in fig.locator(".fig-live").inner_text()
    assert f"fig-15.n={shipped['n'][-1]}" in page.url


def test_switch_swaps_the_curves_by_mouse_and_keyboard(watched, site_url, site_dir, shipped, kernel):
    page, _ = watched
    fig = open_figure(page, site_url, FIG)
    i = shipped["n_default_index"]
    keys = [m["key"] for m in shipped["mechanisms"]]
    assert_plotted(page, kernel, keys, "compute")
    fig.locator("[role=radio][data-value='memory']").click()
    assert_plotted(page, kernel, keys, "memory")
    assert_table_shows(fig, page, site_dir, "memory", i)
    assert "Memory (elements held) at N" in fig.locator(".fig-live").inner_text()
    # flat memory curves: linear attention and the delta-rule family do not grow with N
    assert fig.locator("tr[data-mech='kda'] .f15-growth").inner_text() == "×1.00"
    page.keyboard.press("ArrowLeft")  # focus stayed on the group: back to compute
    assert fig.locator("[role=radio][aria-checked=true]").get_attribute("data-value") == "compute"
    assert_plotted(page, kernel, keys, "compute")
    assert_table_shows(fig, page, site_dir, "compute", i)


def test_dragging_the_chart_moves_the_marker(watched, site_url, site_dir, shipped, kernel):
    page, _ = watched
    fig = open_figure(page, site_url, FIG)
    K = len(shipped["n"])
    page.mouse.move(*plot_point(page, 0.5))
    page.mouse.down()
    page.mouse.move(*plot_point(page, 0.25), steps=4)
    assert_table_shows(fig, page, site_dir, "compute", round(0.25 * (K - 1)))
    page.mouse.move(*plot_point(page, 0.0), steps=4)
    page.mouse.up()
    assert_table_shows(fig, page, site_dir, "compute", 0)
    assert_marker_at(page, shipped, kernel, "compute", 0)
    # a new quantity redraws the axes: the marker follows them
    fig.locator("[role=radio][data-value='memory']").click()
    assert_marker_at(page, shipped, kernel, "memory", 0)
    # and a narrower page re-lays out the chart: the marker follows again
    page.set_viewport_size({"width": 700, "height": 900})
    page.wait_for_function(
        f"() => document.querySelector('#{FIG} .f15-plot:not(.k3-scrub-off)')._fullLayout.width < 600"
    )
    page.evaluate("() => new Promise(r => requestAnimationFrame(() => requestAnimationFrame(r)))")
    assert_marker_at(page, shipped, kernel, "memory", 0)
    assert f"fig-15.n={shipped['n'][0]}" in page.url


def test_touch_tap_on_the_chart_moves_the_marker(browser, site_url, site_dir, shipped, kernel):
    context = browser.new_context(has_touch=True, viewport={"width": 390, "height": 800})
    page = context.new_page()
    watch = Watch(page, site_url)
    fig = open_figure(page, site_url, FIG)
    K = len(shipped["n"])
    fig.locator(".f15-plot:not(.k3-scrub-off)").scroll_into_view_if_needed()
    page.touchscreen.tap(*plot_point(page, 0.75))
    assert_table_shows(fig, page, site_dir, "compute", round(0.75 * (K - 1)))
    context.close()
    assert watch.errors == [] and watch.foreign == []


def test_state_lives_in_the_url_and_history(watched, site_url, site_dir, shipped, kernel):
    page, _ = watched
    n = shipped["n"][12]
    fig = open_figure(page, site_url, FIG, f"#fig-15.metric=memory&fig-15.n={n}")
    assert fig.locator("[role=radio][aria-checked=true]").get_attribute("data-value") == "memory"
    assert_table_shows(fig, page, site_dir, "memory", 12)
    fig.locator("[role=radio][data-value='compute']").click()
    assert (
        "fig-15.metric" not in page.url and f"fig-15.n={n}" in page.url
    )  # compute is the default: left out of the link
    assert_table_shows(fig, page, site_dir, "compute", 12)
    page.go_back()
    page.wait_for_selector(f"#{FIG} [role=radio][data-value='memory'][aria-checked=true]")
    assert_table_shows(fig, page, site_dir, "memory", 12)


def test_no_accessibility_violations_at_load_and_in_chosen_states(watched, site_url):
    """axe at load and in two states the load does not show: the memory view (its curves and
    table), and the largest N by keys (focus on the slider, the marker at the chart's edge)."""
    page, _ = watched
    fig = open_figure(page, site_url, FIG)
    assert_axe_clean_through(
        page,
        FIG,
        {
            "memory by click": lambda p: fig.locator("[role=radio][data-value='memory']").click(),
            "slider by keys": lambda p: (
                fig.locator(".k3-slider input").focus(),
                p.keyboard.press("ArrowRight"),
                p.keyboard.press("End"),
            ),
        },
    )
