"""FIG 06b · capacity in the browser: every control (key width, n slider, chart drag and tap, memory
rows, age cells) works by mouse and keyboard and shows the shipped numbers at the displayed
precision; the state lives in the URL; equation symbols link both ways; axe finds nothing. What is
shown is checked against what was shipped; the shipped errors against the shipped, and its
sentences against the numbers, in test_fig_06b_data.py."""

import json

import numpy as np
import pytest

from tests.browser.support import (
    assert_axe_clean_through,
    assert_shown_is_shipped,
    open_figure,
    shipped_data,
    shown_number,
)

pytestmark = pytest.mark.browser
FIG = "fig-06b"
H, TOP, BOTTOM = 250, 12, 40  # the chart's height and vertical margins (fig-06b-capacity.js)

READ = """(id) => {
  const f = document.getElementById(id), q = (s) => f.querySelector(s);
  return {
    d: +q('[role=radio][aria-checked=true]').dataset.value,
    slider: q('.k3-slider output').textContent, index: +q('.k3-slider input').value,
    max: +q('.k3-slider input').max,
    rows: [...f.querySelectorAll('.f06b-list [role=option]')].map(r => ({
      err: r.querySelector('.f06b-err').textContent, range: r.querySelector('.f06b-range').textContent,
      kept: r.querySelector('.f06b-kept').textContent, selected: r.getAttribute('aria-selected'),
      fill: parseFloat(r.querySelector('.f06b-fill').style.width),
      heat: [...r.querySelectorAll('.f06b-cell')].filter(c => !c.hidden).map(c => parseFloat(c.style.getPropertyValue('--heat')))})),
    dots: [...f.querySelectorAll('.f06b-dot')].map(c => +c.getAttribute('cy')),
    points: [...f.querySelectorAll('.f06b-line')].map(l => (l.getAttribute('d').match(/[ML]/g) || []).length),
    sel: [...f.querySelectorAll('.f06b-line')].map(l => l.classList.contains('is-sel')),
    detail: q('.f06b-detail').textContent, live: q('.fig-live').textContent,
  };
}"""


@pytest.fixture(scope="module")
def shipped(site_dir):
    """The shipped data, and each width's numbers as arrays, by d."""
    data = shipped_data(site_dir, FIG)
    by_d = {
        w["d"]: {"j": j, "ns": w["ns"], "age": [np.asarray(a) for a in w["age"]]}
        | {k: np.asarray(w[k]) for k in ("mean", "lo", "hi", "kept")}
        for j, w in enumerate(data["by_d"])
    }
    return {"data": data, "by_d": by_d, "site_dir": site_dir}


def read(page):
    return page.evaluate(READ, FIG)


def assert_shows(page, shipped, d, n, m=-1):
    """Every number on screen is the shipped data's for (d, n) at the displayed precision, and every
    text placed (rows, summary or memory line, key) is the shipped one, for this width and n."""
    s, k = read(page), shipped["by_d"][d]
    g = k["ns"].index(n)
    assert s["d"] == d and s["slider"].startswith(f"n = {n} (") and s["index"] == g and s["max"] == len(k["ns"]) - 1
    assert [shown_number(r["err"]) for r in s["rows"]] == pytest.approx(k["mean"][:, g], abs=0.0051)
    for r, lo, hi in zip(s["rows"], k["lo"][:, g], k["hi"][:, g], strict=True):
        a, b = r["range"].split("–")
        assert (shown_number(a), shown_number(b)) == pytest.approx((lo, hi), abs=0.0051)
    assert [shown_number(r["kept"]) for r in s["rows"]] == list(k["kept"][:, g])
    top = k["kept"][:, -1].max()
    assert [r["fill"] for r in s["rows"]] == pytest.approx(list(100 * k["kept"][:, g] / top), abs=0.01)
    for r, age in zip(
        s["rows"], k["age"][g], strict=True
    ):  # one cell per tenth (or per pair below ten), shaded by its error
        assert r["heat"] == pytest.approx(np.round(100 * np.minimum(1, age / 2)), abs=1)
    y_max = shipped["data"]["y_max"]
    assert s["dots"] == pytest.approx(
        H - BOTTOM - (H - TOP - BOTTOM) * np.minimum(k["mean"][:, g], y_max) / y_max, abs=0.1
    )  # 0.1 px: the data has 3 decimals
    assert s["points"] == [len(k["ns"])] * len(s["rows"])
    assert [r["selected"] == "true" for r in s["rows"]] == [i == m for i in range(len(s["rows"]))]
    assert s["sel"] == [i == m for i in range(len(s["rows"]))]
    err = json.loads(page.locator(f"#{FIG} .f06b-err").first.get_attribute("data-shows"))
    assert err == ["by_d", k["j"], "mean_text", 0, g]
    detail = json.loads(page.locator(f"#{FIG} .f06b-detail").get_attribute("data-shows"))
    # the summary, or the picked memory's line (an age cell's, under a pointer resting on one)
    assert detail == ["by_d", k["j"], "summary", g] if m < 0 else detail in (["text", "memory"], ["text", "cell"])
    assert assert_shown_is_shipped(page, shipped["site_dir"], FIG) >= 3 * 5 + 2 + 4
    return s


def test_default_view_and_the_memory_it_keeps(watched, site_url, shipped):
    page, _ = watched
    open_figure(page, site_url, FIG)
    s = assert_shows(page, shipped, 32, 64)
    assert "each state keeps d² = 1,024 numbers, the cache 2·n·d = 4,096" in s["detail"]
    assert "Lowest error: Softmax, KV cache" in s["detail"]


def test_n_by_slider_keys_chart_drag_and_tap(watched, site_url, shipped):
    page, _ = watched
    fig = open_figure(page, site_url, FIG)
    slider = fig.get_by_role("slider", name="Pairs stored")
    slider.focus()
    page.keyboard.press("Home")
    assert_shows(page, shipped, 32, 1)
    page.keyboard.press("End")
    assert_shows(page, shipped, 32, 128)
    page.keyboard.press("ArrowLeft")
    s = assert_shows(page, shipped, 32, 124)
    assert "fig-06b.n=124" in page.url and "Softmax, KV cache" in s["live"] and "1,024" in s["live"]
    box = fig.locator(".f06b-chart").bounding_box()
    plot = lambda n: box["x"] + 40 + (box["width"] - 52) * n / 128  # margins 40 and 12
    page.mouse.click(plot(32), box["y"] + box["height"] / 2)  # a tap at n = d
    assert_shows(page, shipped, 32, 32)
    page.mouse.move(plot(16), box["y"] + 100)
    page.mouse.down()
    page.mouse.move(plot(69), box["y"] + 100, steps=4)  # drag: the nearest grid point follows
    assert_shows(page, shipped, 32, 68)
    page.mouse.move(plot(200), box["y"] + 100)  # past the end: the last n
    page.mouse.up()
    assert_shows(page, shipped, 32, 128)


def test_key_width_by_click_and_keys_keeps_n_over_d(watched, site_url, shipped):
    page, _ = watched
    fig = open_figure(page, site_url, FIG)
    fig.get_by_role("radio", name="key width 8, a 8 by 8 state").click()
    s = assert_shows(page, shipped, 8, 16)  # n = 2d stays n = 2d
    assert "fig-06b.d=8" in page.url and "fig-06b.n=16" in page.url
    assert "each state keeps d² = 64 numbers, the cache 2·n·d = 256" in s["live"]
    page.keyboard.press("ArrowLeft")
    assert_shows(page, shipped, 4, 8)
    page.keyboard.press("End")
    assert_shows(page, shipped, 32, 64)
    fig.get_by_role("slider", name="Pairs stored").focus()
    page.keyboard.press("Home")
    fig.get_by_role("radio", name="key width 16, a 16 by 16 state").click()
    assert_shows(page, shipped, 16, 1)  # n = 1 is on every grid


def test_memory_rows_by_hover_tap_and_arrows_and_the_age_cells(watched, site_url, shipped):
    page, _ = watched
    fig = open_figure(page, site_url, FIG)
    rows = fig.locator(".f06b-list [role=option]")
    rows.nth(1).hover()
    s = assert_shows(page, shipped, 32, 64, m=1)
    age = shipped["by_d"][32]["age"][shipped["by_d"][32]["ns"].index(64)][1]  # 2 decimals, as shown
    assert f"stored first {age[0]:.2f}, stored last {age[-1]:.2f}" in s["live"]
    rows.nth(3).click()
    rows.nth(3).focus()
    page.keyboard.press("ArrowDown")
    assert_shows(page, shipped, 32, 64, m=4)
    assert page.evaluate("document.activeElement.dataset.m") == "4"
    page.keyboard.press("Home")
    assert_shows(page, shipped, 32, 64, m=0)
    assert "fig-06b.m=0" in page.url
    page.keyboard.press("Escape")
    assert_shows(page, shipped, 32, 64, m=-1)
    fig.locator(".f06b-list [role=option]").nth(2).locator(".f06b-cell").first.hover()
    a = shipped["by_d"][32]["age"][shipped["by_d"][32]["ns"].index(64)][2]
    assert f"pairs 1–7 (stored first) read back with error {a[0]:.2f}" in read(page)["detail"]
    fig.locator(".f06b-list [role=option]").nth(4).locator(".f06b-cell").nth(9).click()
    a = shipped["by_d"][32]["age"][shipped["by_d"][32]["ns"].index(64)][4]
    assert f"pairs 59–64 (stored last) read back with error {a[9]:.2f}" in read(page)["detail"]
    assert read(page)["rows"][4]["selected"] == "true"


def test_state_lives_in_the_url_and_history(watched, site_url, shipped):
    page, _ = watched
    fig = open_figure(page, site_url, FIG, "#fig-06b.d=8&fig-06b.n=12&fig-06b.m=3")
    assert_shows(page, shipped, 8, 12, m=3)
    fig.get_by_role("radio", name="key width 16, a 16 by 16 state").click()
    assert_shows(page, shipped, 16, 24, m=3)
    page.go_back()
    page.wait_for_function(
        "() => document.querySelector('#fig-06b .k3-slider output').textContent.startsWith('n = 12 ')"
    )
    assert_shows(page, shipped, 8, 12, m=3)
    page.go_forward()
    page.wait_for_function(
        "() => document.querySelector('#fig-06b .k3-slider output').textContent.startsWith('n = 24 ')"
    )
    assert_shows(page, shipped, 16, 24, m=3)
    open_figure(page, site_url, FIG, "#fig-06b.d=4&fig-06b.n=100")  # a stale link: n clamps to d's grid
    assert_shows(page, shipped, 4, 16)


def test_symbols_link_both_ways_and_motion_follows_the_setting(watched, site_url):
    page, _ = watched
    fig = open_figure(page, site_url, FIG)
    eq = "#deltanet .math-block math [data-sym='{}']"
    page.locator(eq.format("cap-err")).first.hover()
    assert fig.locator(".f06b-chartbox.sym-on").count() == 1 and fig.locator(".f06b-err.sym-on").count() == 5
    page.locator("#deltanet math [data-sym='cap-mem']").first.hover()  # inline maths
    assert fig.locator(".f06b-c-kept.sym-on").count() == 5
    fig.locator(".f06b-err").nth(2).hover()
    assert page.locator(eq.format("cap-err") + ".sym-on").count() >= 1
    fig.get_by_role("slider", name="Pairs stored").focus()
    assert page.locator(eq.format("cap-n") + ".sym-on").count() >= 1
    assert page.evaluate("getComputedStyle(document.querySelector('#fig-06b .f06b-cursor')).transitionDuration") != "0s"
    page.emulate_media(reduced_motion="reduce")
    assert page.evaluate("getComputedStyle(document.querySelector('#fig-06b .f06b-cursor')).transitionDuration") == "0s"


def test_no_accessibility_violations_at_load_and_in_a_chosen_state_light_and_dark(watched, site_url):
    """axe at load and in one state the load does not show (a new key width, n at its end, a memory
    row picked with focus on it), then that state again in the dark scheme."""
    page, _ = watched
    fig = open_figure(page, site_url, FIG)
    assert_axe_clean_through(
        page,
        FIG,
        {  # a new width, n at its end, a picked row with focus on it
            "width, n and a row by keyboard": lambda p: (
                fig.get_by_role("radio", name="key width 4, a 4 by 4 state").click(),
                fig.get_by_role("slider", name="Pairs stored").focus(),
                p.keyboard.press("End"),
                fig.locator(".f06b-list [role=option]").first.focus(),
                p.keyboard.press("ArrowDown"),
            ),
        },
    )
    page.emulate_media(color_scheme="dark")  # the same state in dark colours
    assert_axe_clean_through(page, FIG, {})
