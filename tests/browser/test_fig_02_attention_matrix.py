"""FIG 02 · causal attention matrix: rows by hover, click and keys; numbers equal the kernel's."""
import numpy as np
import pytest

from k3explainer.kernels import causal_softmax_attention

from .support import axe_violations, open_figure, shipped_data, shown_number

pytestmark = pytest.mark.browser
FIG = "fig-02"


@pytest.fixture(scope="module")
def kernel(site_dir):
    data = shipped_data(site_dir, FIG)
    q, k, v = (np.array(data[n]) for n in "qkv")
    o, w, tr = causal_softmax_attention(q, k, v, trace=True)
    return {"tokens": data["tokens"], "o": o, "w": w, "raw": tr["raw_scores"], "scaled": tr["scaled_scores"]}


def stage_row(fig, sym):
    return [c.strip() for c in fig.locator(f"tr[data-sym='{sym}'] td").all_inner_texts()]


def assert_panel_shows(fig, kernel, t):
    T = len(kernel["tokens"])
    weights = stage_row(fig, "att-softmax")
    raw = stage_row(fig, "att-scores")
    masked = stage_row(fig, "att-mask")
    for s in range(T):
        if s <= t:
            assert shown_number(weights[s]) == pytest.approx(kernel["w"][t, s], abs=0.005)
            assert shown_number(raw[s]) == pytest.approx(kernel["raw"][t, s], abs=0.005)
            assert shown_number(masked[s]) == pytest.approx(kernel["scaled"][t, s], abs=0.005)
        else:
            assert masked[s] == "−∞" and shown_number(weights[s]) == 0
    assert sum(shown_number(x) for x in weights) == pytest.approx(1, abs=0.005 * T)
    out = [shown_number(x) for x in fig.locator("table[data-sym='att-out'] td").all_inner_texts()]
    assert out == pytest.approx(kernel["o"][t], abs=0.0005)
    assert fig.locator("[role=radio][aria-checked=true]").get_attribute("data-value") == str(t)


def hover_cell(page, fig, row, col):
    x, y = page.evaluate(
        """([id, r, c]) => {
            const el = document.querySelector('#' + id + ' .f02-plot');
            const fl = el._fullLayout, box = el.getBoundingClientRect();
            return [box.left + fl.xaxis._offset + fl.xaxis.l2p(c), box.top + fl.yaxis._offset + fl.yaxis.l2p(r)];
        }""",
        [FIG, row, col],
    )
    page.mouse.move(x, y)


def test_hover_selects_row_with_kernel_numbers(watched, site_url, kernel):
    page, _ = watched
    fig = open_figure(page, site_url, FIG)
    hover_cell(page, fig, 3, 1)
    page.wait_for_selector(f"#{FIG} [role=radio][data-value='3'][aria-checked=true]")
    assert_panel_shows(fig, kernel, 3)
    assert kernel["tokens"][3] in fig.locator(".fig-live").inner_text()


def test_keyboard_and_click_select_rows_and_narrate(watched, site_url, kernel):
    page, _ = watched
    fig = open_figure(page, site_url, FIG)
    T = len(kernel["tokens"])
    fig.locator("[role=radio][aria-checked=true]").focus()
    page.keyboard.press("ArrowUp")
    assert_panel_shows(fig, kernel, T - 2)
    page.keyboard.press("Home")
    assert_panel_shows(fig, kernel, 0)
    assert "sees 1 token" in fig.locator(".fig-live").inner_text()
    fig.locator("[role=radio][data-value='4']").click()
    assert_panel_shows(fig, kernel, 4)


def test_row_lives_in_the_url_and_history(watched, site_url, kernel):
    page, _ = watched
    fig = open_figure(page, site_url, FIG, "#fig-02.row=2")
    assert_panel_shows(fig, kernel, 2)
    fig.locator("[role=radio][data-value='5']").click()
    assert "fig-02.row=5" in page.url
    page.go_back()
    page.wait_for_selector(f"#{FIG} [role=radio][data-value='2'][aria-checked=true]")
    assert_panel_shows(fig, kernel, 2)
    page.reload()
    fig = open_figure(page, page.url.split("index.html")[0], FIG, "#" + page.url.split("#")[1])
    assert_panel_shows(fig, kernel, 2)


def test_equation_symbols_and_panel_stages_link_both_ways(watched, site_url):
    page, _ = watched
    fig = open_figure(page, site_url, FIG)
    page.locator("#attention .katex-display [data-sym='att-mask']").first.hover()
    assert fig.locator("tr[data-sym='att-mask'].sym-on").count() == 1
    fig.locator("tr[data-sym='att-softmax'] td").first.hover()
    assert page.locator("#attention .katex-display [data-sym='att-softmax'].sym-on").count() >= 1


def test_no_accessibility_violations_after_interaction(watched, site_url):
    page, _ = watched
    fig = open_figure(page, site_url, FIG)
    fig.locator("[role=radio][data-value='3']").click()
    assert axe_violations(page, f"#{FIG}") == []
