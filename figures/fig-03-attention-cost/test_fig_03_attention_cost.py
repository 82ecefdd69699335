"""FIG 03 · cost vs N in the browser: the slider (keyboard and mouse) sets N; every readout is the
one shipped for that N; doubling N quadruples the score cells and doubles the cache; N lives in the
URL. What is shown is checked against what was shipped; the shipped data against the kernels, and
its sentences against the numbers, in test_fig_03_data.py."""

import json

import pytest

from tests.browser.support import (
    assert_axe_clean_through,
    assert_shown_is_shipped,
    open_figure,
    shipped_data,
    shown_number,
)

pytestmark = pytest.mark.browser
FIG = "fig-03"
# texts the figure places with ctx.show: 6 fixed around the matrix, 4 × 4 on the cards, 4 around the
# writes and the constants, and 13 that follow N (2 labels, 3 numbers under the matrix, 8 readouts)
SHOWN = 6 + 16 + 4 + 13


@pytest.fixture(scope="module")
def shipped(site_dir):
    return shipped_data(site_dir, FIG)


def value(fig, key):
    return shown_number(fig.locator(f"[data-value='{key}']").inner_text())


def shown_n(fig):
    return int(shown_number(fig.locator(".k3-slider output").inner_text()))


def assert_readouts_show(fig, page, site_dir, shipped, i, spoken=True):
    """Every readout is the one shipped for slider position i, and every placed text is the shipped
    text at its path; `spoken`: the aria-live line says it too (after a reader's action, never
    after a load or back/forward)."""
    n = shipped["N"][i]
    assert shown_n(fig) == n
    for key, values in (
        ("cells", "cells"),
        ("train", "cells"),
        ("decode", "decode_reads"),
        ("cache", "cache_elements"),
        ("width_px", "width_px"),
    ):
        assert value(fig, key) == shipped[values][i], key
    assert shown_number(fig.locator("[data-card='prefill'] .f03-exact").inner_text()) == shipped["prefill_flops"][i]
    assert value(fig, "writes") == shipped["decode_writes"]
    assert fig.locator("[data-value='screens']").inner_text() == shipped["screens_text"][i]
    assert fig.locator("[data-value='cells']").get_attribute("data-shows") == json.dumps(
        ["cells_text", i], separators=(",", ":")
    )
    spoke = fig.locator(".fig-live[data-shows]").count()  # the narration, once it has spoken
    assert assert_shown_is_shipped(page, site_dir, FIG) == SHOWN + spoke
    if spoken:
        assert f"{n:,}" in fig.locator(".fig-live").inner_text()
        assert json.loads(fig.locator(".fig-live").get_attribute("data-slots"))["n"] == ["n_text", i]


def test_keyboard_steps_and_doubling(watched, site_url, site_dir, shipped):
    page, _ = watched
    fig = open_figure(page, site_url, FIG)
    Ns = shipped["N"]
    i = shipped["index"]
    assert_readouts_show(fig, page, site_dir, shipped, i, spoken=False)
    assert fig.locator(".fig-live").inner_text() == ""  # nothing is spoken on load
    fig.locator("input[type=range]").focus()
    page.keyboard.press("ArrowRight")
    assert_readouts_show(fig, page, site_dir, shipped, i + 1)
    before = {k: value(fig, k) for k in ("cells", "cache", "decode", "writes")}
    page.keyboard.press("Shift+ArrowRight")  # one octave: N doubles
    assert shown_n(fig) == 2 * Ns[i + 1]
    assert_readouts_show(fig, page, site_dir, shipped, i + 1 + shipped["octave"])
    assert value(fig, "cells") == 4 * before["cells"]
    assert value(fig, "cache") == 2 * before["cache"]
    assert value(fig, "decode") == 2 * before["decode"]
    assert value(fig, "writes") == before["writes"]
    page.keyboard.press("Shift+ArrowLeft")
    assert shown_n(fig) == Ns[i + 1]
    page.keyboard.press("Home")
    assert_readouts_show(fig, page, site_dir, shipped, 0)
    page.keyboard.press("End")
    assert_readouts_show(fig, page, site_dir, shipped, len(Ns) - 1)
    assert "fig-03.n=" + str(Ns[-1]) in page.url


def test_mouse_on_the_slider_sets_n(watched, site_url, site_dir, shipped):
    page, _ = watched
    fig = open_figure(page, site_url, FIG)
    box = fig.locator("input[type=range]").bounding_box()
    page.mouse.click(box["x"] + 4, box["y"] + box["height"] / 2)  # the left end: the smallest N
    assert_readouts_show(fig, page, site_dir, shipped, 0)
    page.mouse.move(box["x"] + 4, box["y"] + box["height"] / 2)
    page.mouse.down()
    page.mouse.move(box["x"] + box["width"] - 2, box["y"] + box["height"] / 2, steps=8)
    page.mouse.up()
    assert_readouts_show(fig, page, site_dir, shipped, len(shipped["N"]) - 1)
    assert "fig-03.n=" + str(shipped["N"][-1]) in page.url


def test_n_lives_in_the_url_and_history(watched, site_url, site_dir, shipped):
    page, _ = watched
    fig = open_figure(page, site_url, FIG, "#fig-03.n=65536")
    i = shipped["N"].index(65536)
    assert_readouts_show(fig, page, site_dir, shipped, i, spoken=False)
    fig.locator("input[type=range]").focus()
    page.keyboard.press("Shift+ArrowRight")
    assert "fig-03.n=131072" in page.url
    page.go_back()
    page.wait_for_function("() => document.querySelector('#fig-03 .k3-slider output').textContent === '65,536'")
    assert_readouts_show(fig, page, site_dir, shipped, i, spoken=False)


def test_table_symbols_and_readouts_light_each_other(watched, site_url):
    page, _ = watched
    fig = open_figure(page, site_url, FIG)
    page.locator("#attention-cost table [data-sym='cost-cache']").first.hover()
    assert fig.locator("[data-card='cache'].sym-on").count() == 1
    page.locator("#attention-cost table [data-sym='cost-cells']").first.hover()
    assert fig.locator(".f03-square.sym-on").count() == 1
    fig.locator("[data-card='prefill']").focus()
    assert page.locator("#attention-cost table [data-sym='cost-prefill'].sym-on").count() == 1
    fig.locator("[data-value='writes']").hover()
    assert page.locator("#attention-cost table [data-sym='cost-writes'].sym-on").count() == 1


def test_flashattention_note_and_illustrative_constants(watched, site_url):
    page, _ = watched
    fig = open_figure(page, site_url, FIG)
    note = fig.locator(".f03-flash")
    assert note.locator("[data-fact='flashattention.year'] .fact-value").inner_text() == "2022"
    assert note.locator(".badge-source").count() == 2
    assert fig.locator(".f03-constants .badge-illustrative").count() == 1


@pytest.mark.parametrize("width", [1280, 390])
def test_reserved_height_holds_at_both_ends(watched, site_url, shipped, width):
    page, _ = watched
    page.set_viewport_size({"width": width, "height": 900})
    for n in (shipped["N"][0], shipped["N"][-1]):
        open_figure(page, site_url, FIG, f"#fig-03.n={n}")
        reserved, used = page.evaluate(
            "[parseFloat(getComputedStyle(document.querySelector('#fig-03 .fig-stage')).minHeight),"
            " document.querySelector('#fig-03 .f03').getBoundingClientRect().height]"
        )
        assert used <= reserved


def test_no_accessibility_violations_at_load_and_in_chosen_states(watched, site_url):
    """axe at load and in three states the load does not show: the largest N by End (focus on the
    slider, the matrix at its largest), the score square lit from the table, and a card focused
    (its focus ring, lit)."""
    page, _ = watched
    fig = open_figure(page, site_url, FIG)
    slider = fig.locator("input[type=range]")

    def to_end(p):
        slider.focus()
        p.keyboard.press("End")

    assert_axe_clean_through(
        page,
        FIG,
        {
            "the largest N (End)": to_end,
            "hovering a table symbol": lambda p: p.locator(
                "#attention-cost table [data-sym='cost-cells']"
            ).first.hover(),
            "focusing a card": lambda p: fig.locator("[data-card='prefill']").focus(),
        },
    )
