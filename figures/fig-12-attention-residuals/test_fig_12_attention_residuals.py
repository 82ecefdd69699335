"""FIG 12 · attention residuals in the browser: the table, the bars, the sums and the readouts show
the shipped numbers and texts at every depth the "Layers below" slider offers, New query steps to
the next seed, sources select by hover, tap and arrows, the state lives in the URL. The shipped data
against the kernels, what §12 says of it, and its sentences against the numbers, are checked in
test_fig_12_data.py."""

import re
from itertools import pairwise

import numpy as np
import pytest

from k3explainer.site.readertext import fill
from tests.browser.support import (
    assert_axe_clean_through,
    assert_shown_is_shipped,
    cell_texts,
    open_figure,
    shipped_data,
    shown_number,
)

pytestmark = pytest.mark.browser
FIG = "fig-12"


@pytest.fixture(scope="module")
def shipped(site_dir):
    return shipped_data(site_dir, FIG)


def column(fig, cls):
    return cell_texts(fig.locator(f".f12-list .{cls}"))


def assert_shows(fig, site_dir, data, q, l=8):
    """The table, the query, the sums and the controls' readouts show the shipped texts for query q
    with l layers below; the sources above the reading layer show dashes."""
    n, j = len(data["labels"]), data["depths"].index(l)
    dashes = ["—"] * (n - 1 - l)
    assert column(fig, "f12-share") == data["share_text"][j] + dashes
    assert column(fig, "f12-alpha") == data["weight_text"][q][j] + dashes
    assert column(fig, "f12-score") == data["score_text"][q][: l + 1] + dashes
    assert fig.locator(".f12-row.is-absent").count() == n - 1 - l
    w = [shown_number(t) for t in cell_texts(fig.locator("table[data-sym='ar-query'] td"))]
    assert w == pytest.approx(data["queries"][q], abs=0.005)
    assert sum(shown_number(t) for t in column(fig, "f12-alpha")[: l + 1]) == pytest.approx(1, abs=0.0005 * n)
    assert sum(shown_number(t) for t in column(fig, "f12-share")[: l + 1]) == pytest.approx(1, abs=0.0005 * n)
    sums = fill(data, ["text", "sums", j], {"total": ["weight_total_text", q, j]})
    assert fig.locator(".f12-sums").inner_text() == sums
    assert f"{l + 1} equal shares of {1 / (l + 1):.3f}, summing to 1.000; the attention weights sum to 1.000" in sums
    assert fig.get_by_label("Layers below").input_value() == str(j)
    assert fig.locator(".f12-depth output").inner_text() == data["depth_text"][j]
    assert fig.locator(".k3-stepper-readout").inner_text() == data["query_step"][q]
    # every text placed from the data is the shipped one: the cells, the sums, the readout, the key
    assert assert_shown_is_shipped(fig.page, site_dir, FIG) >= 3 * (l + 1) + 5


def said_source(data, q, l, i):
    j = data["depths"].index(l)
    slots = {
        "source": ["labels", i],
        "share": ["share_text", j, i],
        "weight": ["weight_text", q, j, i],
        "score": ["score_text", q, i],
    }
    return fill(data, ["text", "said_source"], slots)


def bar_widths(page, which):
    return page.evaluate(
        f"[...document.querySelectorAll('#fig-12 .f12-stack')[{which}].querySelectorAll('rect')]"
        ".map(r => +r.getAttribute('width'))"
    )


def test_section_12_names_the_controls_the_figure_has(watched, site_url):
    page, _ = watched
    fig = open_figure(page, site_url, FIG)
    para = page.locator(
        "#attention-residuals p", has=page.locator("a[href='#fig-12']")
    ).first.text_content()  # the formula's letters as written, not as drawn (italic)
    assert "layers below" in para and "new query" in para and "1/(l+1)" in re.sub(r"\s+", "", para)
    assert fig.get_by_label("Layers below").count() == 1
    assert fig.get_by_role("button", name="New query").count() == 1


def test_the_key_under_the_bars_says_what_they_draw(watched, site_url, site_dir, shipped):
    """The key: 'Each bar is one whole input: a segment per source, the embedding at the left, its
    width that source's share of the mix (the plain share or the weight α, as in the table).'"""
    page, _ = watched
    fig = open_figure(page, site_url, FIG, "#fig-12.q=3&fig-12.l=5")
    key = re.sub(r"\s+", " ", fig.locator(".f12-key").inner_text())
    assert "one whole input: a segment per source, the embedding at the left, its width that source's share" in key
    bars = page.evaluate("""[...document.querySelectorAll('#fig-12 .f12-stack')].map(s => ({width: s.viewBox.baseVal.width,
        segs: [...s.querySelectorAll('rect.f12-seg')].map(r => [+r.dataset.i, +r.getAttribute('x')])}))""")
    for bar, expected in zip(bars, (shipped["shares"][4], shipped["weights"][3][4]), strict=True):
        order = [i for i, _ in sorted(bar["segs"], key=lambda seg: seg[1])]
        assert order[:6] == list(range(6))  # left to right by source, the embedding first
        starts = np.array([x for _, x in bar["segs"][:6]] + [bar["width"]])
        np.testing.assert_allclose(np.diff(starts) / bar["width"], expected, rtol=0, atol=1e-9)  # the whole input


def test_default_view_and_equal_shares(watched, site_url, site_dir, shipped):
    page, _ = watched
    fig = open_figure(page, site_url, FIG)
    assert_shows(fig, site_dir, shipped, 1, 8)
    assert shipped["shares"][-1][-1] == pytest.approx(1 / 9)  # after layer 8 each source is a ninth
    widths = bar_widths(page, 0)
    assert max(widths) - min(widths) < 1e-6  # the plain stack is cut into equal pieces


def test_layers_below_by_keys_and_mouse_shrink_the_shares(watched, site_url, site_dir, shipped):
    page, _ = watched
    fig = open_figure(page, site_url, FIG)
    slider = fig.get_by_label("Layers below")
    slider.focus()
    page.keyboard.press("Home")
    assert_shows(fig, site_dir, shipped, 1, 1)
    assert "1 layer + embedding" in fig.locator(".f12-depth output").inner_text()
    assert "1 layer below" in fig.locator(".fig-live").inner_text()
    seen = []
    for l in shipped["depths"]:
        if l > 1:
            page.keyboard.press("ArrowRight")
        assert_shows(fig, site_dir, shipped, 1, l)
        seen.append(shown_number(column(fig, "f12-share")[0]))
        widths = [w for w in bar_widths(page, 0) if w > 0]
        assert len(widths) == l + 1 and max(widths) - min(widths) < 1e-6  # l + 1 equal pieces
        assert sum(1 for w in bar_widths(page, 1) if w > 0) <= l + 1
    assert all(a > b for a, b in pairwise(seen))  # each share shrinks as layers are added
    assert "fig-12.l=" not in page.url  # the default depth (the deepest) is left out of the link
    # a click near the slider's left end picks the fewest layers
    box = slider.bounding_box()
    page.mouse.click(box["x"] + 2, box["y"] + box["height"] / 2)
    assert_shows(fig, site_dir, shipped, 1, 1)
    assert "fig-12.l=1" in page.url


def test_new_query_by_mouse_and_key_moves_to_the_next_seed(watched, site_url, site_dir, shipped):
    page, _ = watched
    fig = open_figure(page, site_url, FIG)
    fig.get_by_role("button", name="New query").click()
    assert_shows(fig, site_dir, shipped, 2)
    j, best = len(shipped["depths"]) - 1, shipped["best"][2][-1]
    said = fill(
        shipped,
        ["text", "said_best", j],
        {
            "query": ["query_name", 2],
            "weight": ["weight_text", 2, j, best],
            "total": ["weight_total_text", 2, j],
            "source": ["labels", best],
        },
    )
    assert fig.locator(".fig-live").inner_text() == said and "query 2 of" in said
    assert f"the largest weight, {max(shipped['weights'][2][-1]):.3f}, goes to" in said
    fig.get_by_role("button", name="New query").focus()
    page.keyboard.press("n")
    assert_shows(fig, site_dir, shipped, 3)
    fig.get_by_role("button", name="Previous step").click()
    fig.get_by_role("button", name="Previous step").click()
    assert_shows(fig, site_dir, shipped, 1)
    page.keyboard.press("ArrowLeft")  # focus is on the stepper
    assert_shows(fig, site_dir, shipped, 0)
    assert column(fig, "f12-alpha") == shipped["share_text"][-1]  # zero query = plain mean


def test_sources_select_by_hover_tap_and_arrows(watched, site_url, site_dir, shipped):
    page, _ = watched
    fig = open_figure(page, site_url, FIG)
    rows = fig.locator(".f12-list [role=option]")
    rows.nth(4).hover()
    assert rows.nth(4).get_attribute("aria-selected") == "true"
    live = fig.locator(".fig-live").inner_text()
    assert live == said_source(shipped, 1, 8, 4) and shipped["labels"][4] in live
    rows.nth(2).click()
    rows.nth(2).focus()
    page.keyboard.press("ArrowDown")
    assert rows.nth(3).get_attribute("aria-selected") == "true"
    assert page.evaluate("document.activeElement.dataset.i") == "3"
    page.keyboard.press("End")
    assert rows.nth(8).get_attribute("aria-selected") == "true"
    assert "#" in page.url and "fig-12.src=8" in page.url
    # the stacked-bar segment of the selected source is marked in both bars
    assert fig.locator(".f12-seg.is-sel").count() == 2
    # fewer layers below: layer 8 is no longer a source, so the selection clears and End stops at layer 3
    slider = fig.get_by_label("Layers below")
    slider.focus()
    for _ in range(5):
        page.keyboard.press("ArrowLeft")
    assert_shows(fig, site_dir, shipped, 1, 3)
    assert fig.locator(".f12-list [aria-selected=true]").count() == 0
    assert rows.nth(6).get_attribute("aria-disabled") == "true"
    rows.nth(6).hover()  # not a source: nothing to select
    assert fig.locator(".f12-list [aria-selected=true]").count() == 0
    rows.nth(0).click()
    rows.nth(0).focus()
    page.keyboard.press("End")
    assert rows.nth(3).get_attribute("aria-selected") == "true"
    assert fig.locator(".fig-live").inner_text() == said_source(shipped, 1, 3, 3)


def test_state_lives_in_the_url_and_history(watched, site_url, site_dir, shipped):
    page, _ = watched
    fig = open_figure(page, site_url, FIG, "#fig-12.q=5&fig-12.src=2&fig-12.l=4")
    assert_shows(fig, site_dir, shipped, 5, 4)
    assert fig.locator(".f12-list [role=option]").nth(2).get_attribute("aria-selected") == "true"
    fig.get_by_role("button", name="New query").click()
    assert "fig-12.q=6" in page.url and "fig-12.l=4" in page.url
    assert_shows(fig, site_dir, shipped, 6, 4)
    page.go_back()
    page.wait_for_function("() => document.querySelector('#fig-12 .k3-stepper-readout').textContent.includes('5 /')")
    assert_shows(fig, site_dir, shipped, 5, 4)
    fig.get_by_label("Layers below").focus()
    page.keyboard.press("End")
    assert_shows(fig, site_dir, shipped, 5, 8)
    page.go_back()
    page.wait_for_function("() => document.querySelectorAll('#fig-12 .f12-row.is-absent').length === 4")
    assert_shows(fig, site_dir, shipped, 5, 4)


def test_equation_symbols_link_both_ways(watched, site_url):
    page, _ = watched
    fig = open_figure(page, site_url, FIG)
    page.locator("#attention-residuals .math-block math [data-sym='ar-query']").first.hover()
    assert fig.locator("table[data-sym='ar-query'].sym-on").count() == 1
    page.locator("#attention-residuals .math-block math [data-sym='ar-weights']").first.hover()
    assert fig.locator(".f12-alpha.sym-on").count() == len(fig.locator(".f12-alpha").all())
    page.locator("#attention-residuals .math-block math [data-sym='ar-sources']").first.hover()
    assert fig.locator(".f12-label.sym-on").count() == 9
    fig.locator(".f12-alpha").nth(3).hover()
    assert page.locator("#attention-residuals .math-block math [data-sym='ar-weights'].sym-on").count() >= 1
    fig.locator("table[data-sym='ar-query'] td").first.hover()
    assert page.locator("#attention-residuals .math-block math [data-sym='ar-query'].sym-on").count() >= 1


def test_no_accessibility_violations_at_load_and_in_chosen_states(watched, site_url):
    """axe at load and in three states the load does not show: fewer layers below by keys (the
    absent sources greyed, focus on the slider), a source selected by click and arrow key (its
    bar segments marked), and the weights lit from the equation."""
    page, _ = watched
    fig = open_figure(page, site_url, FIG)
    rows = fig.locator(".f12-list [role=option]")
    assert_axe_clean_through(
        page,
        FIG,
        {
            "layers below by keyboard": lambda p: (
                fig.get_by_label("Layers below").focus(),
                p.keyboard.press("ArrowLeft"),
                p.keyboard.press("ArrowLeft"),
            ),
            "source click and arrow key": lambda p: (
                rows.nth(1).click(),
                rows.nth(1).focus(),
                p.keyboard.press("ArrowDown"),
            ),
            "equation symbol hover": lambda p: p.locator(
                "#attention-residuals .math-block math [data-sym='ar-weights']"
            ).first.hover(),
        },
    )
