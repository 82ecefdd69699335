"""FIG 15b · chunk size: the C slider (keys and mouse), chart drag and the cost-model switch show
the kernel's terms; C = N gives quadratic attention; symbols link both ways; state in the URL."""
import numpy as np
import pytest

from k3explainer.kernels import (chunk_cost_per_token, chunked_cost_terms, chunked_linear_madds, kda_chunked_flops,
                                 prefill_attention_flops, reassociation_costs)

from .support import assert_axe_clean_through, open_figure, shipped_data

pytestmark = pytest.mark.browser
FIG = "fig-15b"
SI = {"K": 1e3, "M": 1e6, "G": 1e9, "T": 1e12, "P": 1e15}


@pytest.fixture(scope="module")
def shipped(site_dir):
    return shipped_data(site_dir, FIG)


def kernel(shipped, view, c):
    """Every readout of one view at chunk size c, recomputed from the shipped N, d and c."""
    N, d = shipped["n_tokens"], shipped["d"]
    if view == "linear":
        terms, total = chunked_cost_terms(N, d, c), chunked_linear_madds(N, d, c)
        per_token, quadratic = chunk_cost_per_token(c, d), reassociation_costs(N, d, d)["madds_quadratic"]
    else:
        terms, total = chunked_cost_terms(N, d, c, form="kda"), kda_chunked_flops(N, d, c)
        per_token, quadratic = kda_chunked_flops(1, d, c), prefill_attention_flops(N, d)
    return terms, total, per_token, quadratic


def amount(text: str) -> float:
    """'268 M madds' → 2.68e8; '512 madds' → 512."""
    parts = text.split()
    return float(parts[0]) * (SI[parts[1]] if len(parts) == 3 else 1)


def assert_readouts(fig, shipped, view, c):
    terms, total, per_token, quadratic = kernel(shipped, view, c)
    assert fig.locator(".k3-slider output").inner_text() == f"C = {c:,}"
    assert f"At C = {c:,}," in fig.locator(".f15b-table caption").text_content()
    assert [r.get_attribute("data-term") for r in fig.locator("tr[data-term]").all()] == list(terms)
    for key, value in terms.items():
        row = fig.locator(f"tr[data-term='{key}']")
        assert amount(row.locator(".f15b-value").inner_text()) == pytest.approx(value, rel=0.006)
        share = float(row.locator(".f15b-share").inner_text().rstrip("%"))
        assert share == pytest.approx(100 * value / total, abs=0.051)
    assert amount(fig.locator(".f15b-total").inner_text()) == pytest.approx(total, rel=0.006)
    assert amount(fig.locator(".f15b-per-token").inner_text()) == pytest.approx(per_token, rel=0.006)
    assert amount(fig.locator(".f15b-quadratic").inner_text()) == pytest.approx(quadratic, rel=0.006)
    ratio = float(fig.locator(".f15b-of-quadratic").inner_text().lstrip("×"))
    assert ratio == pytest.approx(total / quadratic, abs=0.0006)
    unit = "madds" if view == "linear" else "FLOPs"
    assert fig.locator(".f15b-total").inner_text().endswith(unit)


def test_slider_keys_read_the_kernel_and_c_equal_n_is_quadratic(watched, site_url, shipped):
    page, _ = watched
    fig = open_figure(page, site_url, FIG)
    c = shipped["c"]
    i = shipped["c_default_index"]
    assert_readouts(fig, shipped, "linear", c[i])
    fig.locator(".k3-slider input").focus()
    page.keyboard.press("ArrowRight")
    assert_readouts(fig, shipped, "linear", c[i + 1])
    page.keyboard.press("Home")
    assert_readouts(fig, shipped, "linear", 1)
    assert "Pure recurrence" in fig.locator(".f15b-regime").inner_text()
    page.keyboard.press("End")
    N = shipped["n_tokens"]
    assert_readouts(fig, shipped, "linear", N)
    # one chunk of N tokens: the within-chunk term is exactly unmasked quadratic attention, 2N²d
    chunk = fig.locator("tr[data-term='chunk'] .f15b-value").inner_text()
    assert chunk == fig.locator(".f15b-quadratic").inner_text()
    assert chunked_cost_terms(N, shipped["d"], N)["chunk"] == reassociation_costs(N, shipped["d"], shipped["d"])["madds_quadratic"]
    live = fig.locator(".fig-live").inner_text()
    assert f"C = {N:,}" in live and chunk in live
    assert f"fig-15b.c={N}" in page.url


def test_mouse_slider_and_chart_drag(watched, site_url, shipped):
    page, _ = watched
    fig = open_figure(page, site_url, FIG)
    K = len(shipped["c"])
    box = fig.locator(".k3-slider input").bounding_box()
    page.mouse.click(box["x"] + 4, box["y"] + box["height"] / 2)  # the left end of the track: C = 1
    assert_readouts(fig, shipped, "linear", shipped["c"][0])
    x, y, w = page.evaluate(
        """id => { const el = document.querySelector('#' + id + ' .f15b-plot'), fl = el._fullLayout,
                  b = el.getBoundingClientRect();
                  return [b.left + fl.xaxis._offset, b.top + fl.yaxis._offset + fl.yaxis._length / 2, fl.xaxis._length]; }""",
        FIG)
    page.mouse.move(x + 0.2 * w, y)
    page.mouse.down()
    page.mouse.move(x + w * 7 / (K - 1), y, steps=5)
    page.mouse.up()
    assert_readouts(fig, shipped, "linear", shipped["c"][7])
    assert page.evaluate(f"() => document.querySelector('#{FIG} .f15b-plot').data.at(-1).x[0]") == shipped["c"][7]


def test_switch_to_kda_view_by_mouse_and_keyboard(watched, site_url, shipped):
    page, _ = watched
    fig = open_figure(page, site_url, FIG)
    c = shipped["c"][shipped["c_default_index"]]
    fig.locator("[role=radio][data-value='kda']").click()
    assert_readouts(fig, shipped, "kda", c)
    assert "KDA (eq. 13)" in fig.locator(".fig-live").inner_text()
    curves = page.evaluate(f"() => document.querySelector('#{FIG} .f15b-plot').data.map(t => Array.from(t.y))")
    np.testing.assert_allclose(curves[4], kda_chunked_flops(shipped["n_tokens"], shipped["d"], np.array(shipped["c"])))
    page.keyboard.press("ArrowLeft")
    assert fig.locator("[role=radio][aria-checked=true]").get_attribute("data-value") == "linear"
    assert_readouts(fig, shipped, "linear", c)


def test_state_lives_in_the_url_and_history(watched, site_url, shipped):
    page, _ = watched
    fig = open_figure(page, site_url, FIG, "#fig-15b.view=kda&fig-15b.c=256")
    assert_readouts(fig, shipped, "kda", 256)
    fig.locator("[role=radio][data-value='linear']").click()
    assert "fig-15b.view" not in page.url and "fig-15b.c=256" in page.url  # linear is the default: left out of the link
    page.go_back()
    page.wait_for_selector(f"#{FIG} [role=radio][data-value='kda'][aria-checked=true]")
    assert_readouts(fig, shipped, "kda", 256)


def test_equation_symbols_and_readouts_link_both_ways(watched, site_url):
    page, _ = watched
    fig = open_figure(page, site_url, FIG)
    page.locator("#complexity .katex-display [data-sym='ck-chunk']").first.hover()
    assert fig.locator("tr[data-sym='ck-chunk'].sym-on").count() == 1
    fig.locator("tr[data-term='state'] th").hover()
    assert page.locator("#complexity .katex-display [data-sym='ck-state'].sym-on").count() >= 1
    fig.locator(".k3-slider input").focus()
    assert page.locator("#complexity .katex-display [data-sym='ck-c'].sym-on").count() >= 1


def test_no_accessibility_violations_through_every_interaction(watched, site_url):
    page, _ = watched
    fig = open_figure(page, site_url, FIG)

    def drag(p):
        x, y, w = p.evaluate(
            """id => { const el = document.querySelector('#' + id + ' .f15b-plot'), fl = el._fullLayout,
                      b = el.getBoundingClientRect();
                      return [b.left + fl.xaxis._offset, b.top + fl.yaxis._offset + fl.yaxis._length / 2, fl.xaxis._length]; }""",
            FIG)
        p.mouse.move(x + 0.2 * w, y)
        p.mouse.down()
        p.mouse.move(x + 0.6 * w, y, steps=5)
        p.mouse.up()

    def slider_start(p):
        box = fig.locator(".k3-slider input").bounding_box()
        p.mouse.click(box["x"] + 4, box["y"] + box["height"] / 2)

    assert_axe_clean_through(page, FIG, {
        "KDA view by click": lambda p: fig.locator("[role=radio][data-value='kda']").click(),
        "slider by keys (C = N)": lambda p: (fig.locator(".k3-slider input").focus(), p.keyboard.press("End")),
        "linear view by arrow key": lambda p: (fig.locator("[role=radio][data-value='kda']").focus(),
                                               p.keyboard.press("ArrowLeft")),
        "slider by click": slider_start,
        "chart drag": drag,
        "equation symbol hover": lambda p: p.locator("#complexity .katex-display [data-sym='ck-chunk']").first.hover(),
        "readout row hover": lambda p: fig.locator("tr[data-term='state'] th").hover(),
    })
