"""FIG 03 · cost vs N: the slider (keyboard and mouse) sets N; every readout equals the costs
kernels for that N; doubling N quadruples the score cells and doubles the cache; N lives in the URL."""

import pytest

from k3explainer.kernels import (
    decode_step_reads,
    decode_step_writes,
    kv_cache_elements,
    prefill_attention_flops,
    score_cells,
)
from tests.browser.support import assert_axe_clean_through, open_figure, shipped_data, shown_number

pytestmark = pytest.mark.browser
FIG = "fig-03"


@pytest.fixture(scope="module")
def shipped(site_dir):
    return shipped_data(site_dir, FIG)


def value(fig, key):
    return shown_number(fig.locator(f"[data-value='{key}']").inner_text())


def shown_n(fig):
    return int(shown_number(fig.locator(".k3-slider output").inner_text()))


def assert_readouts_match_kernel(fig, shipped, n, spoken=True):
    """Every readout for N = n; `spoken`: the aria-live line says it too (after a reader's action,
    never after a load or back/forward)."""
    c = shipped["constants"]
    D = c["D"]
    assert D == c["n_heads"] * c["d_head"]
    assert shown_n(fig) == n
    assert value(fig, "cells") == score_cells(n)
    assert value(fig, "train") == score_cells(n)
    assert shown_number(fig.locator("[data-card='prefill'] .f03-exact").inner_text()) == prefill_attention_flops(n, D)
    assert value(fig, "decode") == decode_step_reads(n, D)
    assert value(fig, "writes") == decode_step_writes(D)
    assert value(fig, "cache") == kv_cache_elements(n, D)
    assert value(fig, "width_px") == n * c["px_per_cell"]
    screens = n * c["px_per_cell"] / c["screen_px"]
    digits = 2 if screens < 10 else 1 if screens < 100 else 0
    assert value(fig, "screens") == pytest.approx(screens, abs=0.5 * 10**-digits + 1e-9)
    if spoken:
        assert f"{n:,}" in fig.locator(".fig-live").inner_text()


def test_keyboard_steps_and_doubling(watched, site_url, shipped):
    page, _ = watched
    fig = open_figure(page, site_url, FIG)
    Ns = shipped["N"]
    i = shipped["index"]
    assert_readouts_match_kernel(fig, shipped, Ns[i], spoken=False)
    assert fig.locator(".fig-live").inner_text() == ""  # nothing is spoken on load
    fig.locator("input[type=range]").focus()
    page.keyboard.press("ArrowRight")
    assert_readouts_match_kernel(fig, shipped, Ns[i + 1])
    before = {k: value(fig, k) for k in ("cells", "cache", "decode", "writes")}
    page.keyboard.press("Shift+ArrowRight")  # one octave: N doubles
    assert shown_n(fig) == 2 * Ns[i + 1]
    assert_readouts_match_kernel(fig, shipped, Ns[i + 1] * 2)
    assert value(fig, "cells") == 4 * before["cells"]
    assert value(fig, "cache") == 2 * before["cache"]
    assert value(fig, "decode") == 2 * before["decode"]
    assert value(fig, "writes") == before["writes"]
    page.keyboard.press("Shift+ArrowLeft")
    assert shown_n(fig) == Ns[i + 1]
    page.keyboard.press("Home")
    assert_readouts_match_kernel(fig, shipped, Ns[0])
    page.keyboard.press("End")
    assert_readouts_match_kernel(fig, shipped, Ns[-1])
    assert "fig-03.n=" + str(Ns[-1]) in page.url


def test_mouse_on_the_slider_sets_n(watched, site_url, shipped):
    page, _ = watched
    fig = open_figure(page, site_url, FIG)
    box = fig.locator("input[type=range]").bounding_box()
    page.mouse.click(box["x"] + 4, box["y"] + box["height"] / 2)  # the left end: the smallest N
    assert_readouts_match_kernel(fig, shipped, shipped["N"][0])
    page.mouse.move(box["x"] + 4, box["y"] + box["height"] / 2)
    page.mouse.down()
    page.mouse.move(box["x"] + box["width"] - 2, box["y"] + box["height"] / 2, steps=8)
    page.mouse.up()
    assert_readouts_match_kernel(fig, shipped, shipped["N"][-1])
    assert "fig-03.n=" + str(shipped["N"][-1]) in page.url


def test_n_lives_in_the_url_and_history(watched, site_url, shipped):
    page, _ = watched
    fig = open_figure(page, site_url, FIG, "#fig-03.n=65536")
    assert_readouts_match_kernel(fig, shipped, 65536, spoken=False)
    fig.locator("input[type=range]").focus()
    page.keyboard.press("Shift+ArrowRight")
    assert "fig-03.n=131072" in page.url
    page.go_back()
    page.wait_for_function("() => document.querySelector('#fig-03 .k3-slider output').textContent === '65,536'")
    assert_readouts_match_kernel(fig, shipped, 65536, spoken=False)


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


def test_no_accessibility_violations_through_every_interaction(watched, site_url):
    """axe at load and after each kind of interaction: the slider by arrow, octave, Home, End and
    mouse, and the readouts lit from the table and lit by focus and hover."""
    page, _ = watched
    fig = open_figure(page, site_url, FIG)
    slider = fig.locator("input[type=range]")

    def key(k):
        def act(p):
            slider.focus()
            p.keyboard.press(k)

        return act

    def click_left(p):
        box = slider.bounding_box()
        p.mouse.click(box["x"] + 4, box["y"] + box["height"] / 2)

    assert_axe_clean_through(
        page,
        FIG,
        {
            "a step right": key("ArrowRight"),
            "an octave right": key("Shift+ArrowRight"),
            "the largest N (End)": key("End"),
            "the smallest N (Home)": key("Home"),
            "a click on the slider": click_left,
            "hovering a table symbol": lambda p: p.locator(
                "#attention-cost table [data-sym='cost-cells']"
            ).first.hover(),
            "focusing a card": lambda p: fig.locator("[data-card='prefill']").focus(),
            "hovering a readout": lambda p: fig.locator("[data-value='writes']").hover(),
        },
    )
