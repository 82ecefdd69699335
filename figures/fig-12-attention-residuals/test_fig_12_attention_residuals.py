"""FIG 12 · attention residuals: shares and weights equal the kernels' at every depth the "Layers
below" slider offers, New query steps to the next seed, and what §12 says the figure shows is true
of its data."""

import re
from itertools import pairwise

import numpy as np
import pytest

from k3explainer.kernels import attention_residual, residual_shares, rms_norm
from tests.browser.support import assert_axe_clean_through, cell_texts, open_figure, shipped_data, shown_number

pytestmark = pytest.mark.browser
FIG = "fig-12"


@pytest.fixture(scope="module")
def kernel(site_dir):
    data = shipped_data(site_dir, FIG)
    src, d, seed = np.array(data["sources"]), data["d"], data["seed"]
    # the queries are re-drawn here from their seeds: query i ≥ 1 comes from default_rng(seed + i)
    queries = [np.zeros(d)] + [
        data["query_scale"] * np.random.default_rng(seed + i).standard_normal(d) for i in range(1, len(data["queries"]))
    ]
    np.testing.assert_allclose(np.array(data["queries"]), np.array(queries), rtol=0, atol=1e-12)
    depths = list(range(1, len(data["labels"])))  # a layer with l layers below reads the first l + 1 sources
    weights = [{l: attention_residual(src[: l + 1], w, np.ones(d))[1] for l in depths} for w in queries]
    scores = np.array([rms_norm(src, np.ones(d)) @ w for w in queries])
    return {
        "labels": data["labels"],
        "depths": depths,
        "weights": weights,
        "scores": scores,
        "shares": {l: residual_shares(l) for l in depths},
        "queries": np.array(queries),
        "data": data,
    }


def column(fig, cls):
    return [shown_number(t) for t in cell_texts(fig.locator(f".f12-list .{cls}")) if t != "—"]


def assert_shows(fig, kernel, q, l=8):
    """The table, the query and the sums show the kernel's numbers for query q with l layers below;
    the sources above the reading layer show dashes."""
    n = len(kernel["labels"])
    assert column(fig, "f12-share") == pytest.approx(kernel["shares"][l], abs=0.0005)
    assert column(fig, "f12-alpha") == pytest.approx(kernel["weights"][q][l], abs=0.0005)
    assert column(fig, "f12-score") == pytest.approx(kernel["scores"][q][: l + 1], abs=0.005)
    assert cell_texts(fig.locator(".f12-list .f12-alpha"))[l + 1 :] == ["—"] * (n - 1 - l)
    assert fig.locator(".f12-row.is-absent").count() == n - 1 - l
    w = [shown_number(t) for t in cell_texts(fig.locator("table[data-sym='ar-query'] td"))]
    assert w == pytest.approx(kernel["queries"][q], abs=0.005)
    assert sum(column(fig, "f12-alpha")) == pytest.approx(1, abs=0.0005 * n)
    assert sum(column(fig, "f12-share")) == pytest.approx(1, abs=0.0005 * n)
    sums = fig.locator(".f12-sums").inner_text()
    assert f"{l + 1} equal shares of {1 / (l + 1):.3f}, summing to 1.000; the attention weights sum to 1.000" in sums
    assert fig.get_by_label("Layers below").input_value() == str(kernel["depths"].index(l))


def bar_widths(page, which):
    return page.evaluate(
        f"[...document.querySelectorAll('#fig-12 .f12-stack')[{which}].querySelectorAll('rect')]"
        ".map(r => +r.getAttribute('width'))"
    )


def test_shipped_data_is_the_kernels(kernel):
    data = kernel["data"]
    assert data["depths"] == kernel["depths"]
    for j, l in enumerate(kernel["depths"]):
        np.testing.assert_allclose(np.array(data["shares"][j]), kernel["shares"][l], rtol=0, atol=1e-15)
        for q in range(len(kernel["queries"])):
            np.testing.assert_allclose(np.array(data["weights"][q][j]), kernel["weights"][q][l], rtol=0, atol=1e-15)
    np.testing.assert_allclose(np.array(data["scores"]), kernel["scores"], rtol=0, atol=1e-15)


def test_what_section_12_says_the_figure_shows_is_true_of_its_data(kernel):
    """§12: 'as the layers below slider adds layers the shares shrink, each 1/(l+1)'; 'some sources far
    more than their plain share, others far less'; 'the weights always sum to one'; 'step back to the
    zero query ... every weight equals the plain share'."""
    depths, shares = kernel["depths"], kernel["shares"]
    for l in depths:
        assert shares[l] == pytest.approx(np.full(l + 1, 1 / (l + 1)))
    assert all(shares[a][0] > shares[b][0] for a, b in pairwise(depths))  # they shrink as layers are added
    deepest = depths[-1]
    for q in range(1, len(kernel["queries"])):
        ratio = kernel["weights"][q][deepest] / shares[deepest]
        assert ratio.max() >= 2 and ratio.min() <= 1 / 3, q  # far more / far less than the plain share
    for by_depth in kernel["weights"]:
        for l in depths:
            assert by_depth[l].sum() == pytest.approx(1, abs=1e-12)
    for l in depths:
        assert kernel["weights"][0][l] == pytest.approx(shares[l], abs=1e-15)


def test_section_12_names_the_controls_the_figure_has(watched, site_url):
    page, _ = watched
    fig = open_figure(page, site_url, FIG)
    para = page.locator(
        "#attention-residuals p", has=page.locator("a[href='#fig-12']")
    ).first.text_content()  # the formula's letters as written, not as drawn (italic)
    assert "layers below" in para and "new query" in para and "1/(l+1)" in re.sub(r"\s+", "", para)
    assert fig.get_by_label("Layers below").count() == 1
    assert fig.get_by_role("button", name="New query").count() == 1


def test_the_key_under_the_bars_says_what_they_draw(watched, site_url, kernel):
    """The key: 'Each bar is one whole input: a segment per source, the embedding at the left, its
    width that source's share of the mix (the plain share or the weight α, as in the table).'"""
    page, _ = watched
    fig = open_figure(page, site_url, FIG, "#fig-12.q=3&fig-12.l=5")
    key = re.sub(r"\s+", " ", fig.locator(".f12-key").inner_text())
    assert "one whole input: a segment per source, the embedding at the left, its width that source's share" in key
    bars = page.evaluate("""[...document.querySelectorAll('#fig-12 .f12-stack')].map(s => ({width: s.viewBox.baseVal.width,
        segs: [...s.querySelectorAll('rect.f12-seg')].map(r => [+r.dataset.i, +r.getAttribute('x')])}))""")
    for bar, expected in zip(bars, (kernel["shares"][5], kernel["weights"][3][5]), strict=True):
        order = [i for i, _ in sorted(bar["segs"], key=lambda seg: seg[1])]
        assert order[:6] == list(range(6))  # left to right by source, the embedding first
        starts = np.array([x for _, x in bar["segs"][:6]] + [bar["width"]])
        np.testing.assert_allclose(np.diff(starts) / bar["width"], expected, rtol=0, atol=1e-9)  # the whole input


def test_default_view_and_equal_shares(watched, site_url, kernel):
    page, _ = watched
    fig = open_figure(page, site_url, FIG)
    assert_shows(fig, kernel, 1, 8)
    assert kernel["shares"][8][-1] == pytest.approx(1 / 9)  # after layer 8 each source is a ninth
    widths = bar_widths(page, 0)
    assert max(widths) - min(widths) < 1e-6  # the plain stack is cut into equal pieces


def test_layers_below_by_keys_and_mouse_shrink_the_shares(watched, site_url, kernel):
    page, _ = watched
    fig = open_figure(page, site_url, FIG)
    slider = fig.get_by_label("Layers below")
    slider.focus()
    page.keyboard.press("Home")
    assert_shows(fig, kernel, 1, 1)
    assert "1 layer + embedding" in fig.locator(".f12-depth output").inner_text()
    assert "1 layer below" in fig.locator(".fig-live").inner_text()
    seen = []
    for l in kernel["depths"]:
        if l > 1:
            page.keyboard.press("ArrowRight")
        assert_shows(fig, kernel, 1, l)
        seen.append(column(fig, "f12-share")[0])
        widths = [w for w in bar_widths(page, 0) if w > 0]
        assert len(widths) == l + 1 and max(widths) - min(widths) < 1e-6  # l + 1 equal pieces
        assert sum(1 for w in bar_widths(page, 1) if w > 0) <= l + 1
    assert all(a > b for a, b in pairwise(seen))  # each share shrinks as layers are added
    assert "fig-12.l=" not in page.url  # the default depth (the deepest) is left out of the link
    # a click near the slider's left end picks the fewest layers
    box = slider.bounding_box()
    page.mouse.click(box["x"] + 2, box["y"] + box["height"] / 2)
    assert_shows(fig, kernel, 1, 1)
    assert "fig-12.l=1" in page.url


def test_new_query_by_mouse_and_key_moves_to_the_next_seed(watched, site_url, kernel):
    page, _ = watched
    fig = open_figure(page, site_url, FIG)
    fig.get_by_role("button", name="New query").click()
    assert_shows(fig, kernel, 2)
    assert "query 2 of" in fig.locator(".fig-live").inner_text()
    w = kernel["weights"][2][8]
    assert f"{w.max():.3f}" in fig.locator(".fig-live").inner_text()
    fig.get_by_role("button", name="New query").focus()
    page.keyboard.press("n")
    assert_shows(fig, kernel, 3)
    fig.get_by_role("button", name="Previous step").click()
    fig.get_by_role("button", name="Previous step").click()
    assert_shows(fig, kernel, 1)
    page.keyboard.press("ArrowLeft")  # focus is on the stepper
    assert_shows(fig, kernel, 0)
    assert column(fig, "f12-alpha") == pytest.approx(kernel["shares"][8], abs=0.0005)  # zero query = plain mean


def test_sources_select_by_hover_tap_and_arrows(watched, site_url, kernel):
    page, _ = watched
    fig = open_figure(page, site_url, FIG)
    rows = fig.locator(".f12-list [role=option]")
    rows.nth(4).hover()
    assert rows.nth(4).get_attribute("aria-selected") == "true"
    live = fig.locator(".fig-live").inner_text()
    assert kernel["labels"][4] in live and f"{kernel['weights'][1][8][4]:.3f}" in live
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
    assert_shows(fig, kernel, 1, 3)
    assert fig.locator(".f12-list [aria-selected=true]").count() == 0
    assert rows.nth(6).get_attribute("aria-disabled") == "true"
    rows.nth(6).hover()  # not a source: nothing to select
    assert fig.locator(".f12-list [aria-selected=true]").count() == 0
    rows.nth(0).click()
    rows.nth(0).focus()
    page.keyboard.press("End")
    assert rows.nth(3).get_attribute("aria-selected") == "true"
    assert f"{kernel['weights'][1][3][3]:.3f}" in fig.locator(".fig-live").inner_text()


def test_state_lives_in_the_url_and_history(watched, site_url, kernel):
    page, _ = watched
    fig = open_figure(page, site_url, FIG, "#fig-12.q=5&fig-12.src=2&fig-12.l=4")
    assert_shows(fig, kernel, 5, 4)
    assert fig.locator(".f12-list [role=option]").nth(2).get_attribute("aria-selected") == "true"
    fig.get_by_role("button", name="New query").click()
    assert "fig-12.q=6" in page.url and "fig-12.l=4" in page.url
    assert_shows(fig, kernel, 6, 4)
    page.go_back()
    page.wait_for_function("() => document.querySelector('#fig-12 .k3-stepper-readout').textContent.includes('5 /')")
    assert_shows(fig, kernel, 5, 4)
    fig.get_by_label("Layers below").focus()
    page.keyboard.press("End")
    assert_shows(fig, kernel, 5, 8)
    page.go_back()
    page.wait_for_function("() => document.querySelectorAll('#fig-12 .f12-row.is-absent').length === 4")
    assert_shows(fig, kernel, 5, 4)


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


def test_no_accessibility_violations_through_every_interaction(watched, site_url):
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
            "new query by click": lambda p: fig.get_by_role("button", name="New query").click(),
            "new query by N": lambda p: p.keyboard.press("n"),
            "previous query on the stepper": lambda p: fig.get_by_role("button", name="Previous step").click(),
            "source hover": lambda p: rows.nth(2).hover(),
            "absent source hover": lambda p: rows.nth(8).hover(),
            "source click and arrow key": lambda p: (
                rows.nth(1).click(),
                rows.nth(1).focus(),
                p.keyboard.press("ArrowDown"),
            ),
            "layers below by click": lambda p: fig.get_by_label("Layers below").click(),
            "equation symbol hover": lambda p: p.locator(
                "#attention-residuals .math-block math [data-sym='ar-weights']"
            ).first.hover(),
            "zero query": lambda p: (fig.locator(".k3-stepper").focus(), p.keyboard.press("Home")),
        },
    )
