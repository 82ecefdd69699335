"""FIG 02 · causal attention matrix in the browser: rows by hover, click and keys; every stage shown
is the one shipped for that row, including the unscaled comparison row, and every sentence about it
is the shipped sentence. The shipped data against the kernel, its sentences against the numbers and
what §02 and the spec say the figure shows, in test_fig_02_data.py."""

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
FIG = "fig-02"


@pytest.fixture(scope="module")
def shipped(site_dir):
    return shipped_data(site_dir, FIG)


def stage_row(fig, sym):
    return [c.strip() for c in fig.locator(f"tr[data-sym='{sym}'] td").all_inner_texts()]


def assert_panel_shows(fig, page, site_dir, shipped, t):
    """Row t's stages, values and output as shipped; the readout under the scores and the narration
    (once it has spoken) are the shipped texts for row t."""
    T = len(shipped["tokens"])
    weights = stage_row(fig, "att-softmax")
    raw = stage_row(fig, "att-scores")
    masked = stage_row(fig, "att-mask")
    unscaled = [c.strip() for c in fig.locator("tr[data-stage='unscaled'] td").all_inner_texts()]
    assert weights == shipped["weights_text"][t] and unscaled == shipped["weights_unscaled_text"][t]
    for s in range(T):
        if s <= t:
            assert shown_number(raw[s]) == pytest.approx(shipped["raw_scores"][t][s], abs=0.005)
            assert shown_number(masked[s]) == pytest.approx(shipped["scaled_scores"][t][s], abs=0.005)
        else:
            assert masked[s] == "−∞" and shown_number(weights[s]) == 0 and shown_number(unscaled[s]) == 0
    assert sum(shown_number(x) for x in weights) == pytest.approx(1, abs=0.005 * T)
    out = [shown_number(x) for x in fig.locator("table[data-sym='att-out'] td").all_inner_texts()]
    assert out == pytest.approx(shipped["output"][t], abs=0.0005)
    values = fig.locator("table[data-sym='att-v'] tbody tr").evaluate_all(
        "trs => trs.map(tr => [...tr.querySelectorAll('td')].map(td => td.textContent.trim()))"
    )
    for s, row in enumerate(values):  # the values this row can see; later ones hidden
        if s <= t:
            assert [shown_number(x) for x in row] == pytest.approx(shipped["v"][s], abs=0.005)
        else:
            assert row == ["—"] * len(row)
    # the readout under the scores (row sum, the largest weight with and without scaling): row t's
    assert json.loads(fig.locator(".f02-sum").get_attribute("data-shows")) == ["row_text", t]
    spoke = fig.locator(".fig-live[data-shows]").count()
    assert assert_shown_is_shipped(page, site_dir, FIG) == 1 + spoke
    assert fig.locator("[role=radio][aria-checked=true]").get_attribute("data-value") == str(t)
    assert fig.locator("[role=radio][aria-checked=true]").get_attribute("aria-label") == shipped["query_aria"][t]


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


def test_hover_selects_row_with_its_shipped_numbers(watched, site_url, site_dir, shipped):
    page, _ = watched
    fig = open_figure(page, site_url, FIG)
    hover_cell(page, fig, 5, 1)  # not the default row, so the hover changes something
    page.wait_for_selector(f"#{FIG} [role=radio][data-value='5'][aria-checked=true]")
    assert_panel_shows(fig, page, site_dir, shipped, 5)
    assert shipped["tokens"][5] in fig.locator(".fig-live").inner_text()
    assert json.loads(fig.locator(".fig-live").get_attribute("data-shows")) == ["said", 5]


def test_keyboard_and_click_select_rows_and_narrate(watched, site_url, site_dir, shipped):
    page, _ = watched
    fig = open_figure(page, site_url, FIG)
    T = len(shipped["tokens"])
    fig.locator("[role=radio][aria-checked=true]").focus()
    page.keyboard.press("End")
    page.keyboard.press("ArrowUp")
    assert_panel_shows(fig, page, site_dir, shipped, T - 2)
    page.keyboard.press("Home")
    assert_panel_shows(fig, page, site_dir, shipped, 0)
    assert "sees 1 token" in fig.locator(".fig-live").inner_text()
    assert f"largest weight, 1.00, goes to 1 “{shipped['tokens'][0]}”" in fig.locator(".fig-live").inner_text()
    fig.locator("[role=radio][data-value='4']").click()
    assert_panel_shows(fig, page, site_dir, shipped, 4)


def test_row_lives_in_the_url_and_history(watched, site_url, site_dir, shipped):
    page, _ = watched
    fig = open_figure(page, site_url, FIG, "#fig-02.row=2")
    assert_panel_shows(fig, page, site_dir, shipped, 2)
    fig.locator("[role=radio][data-value='5']").click()
    assert "fig-02.row=5" in page.url
    page.go_back()
    page.wait_for_selector(f"#{FIG} [role=radio][data-value='2'][aria-checked=true]")
    assert_panel_shows(fig, page, site_dir, shipped, 2)
    page.reload()
    fig = open_figure(page, site_url, FIG, "#" + page.url.split("#")[1])
    assert_panel_shows(fig, page, site_dir, shipped, 2)


def test_equation_symbols_and_panel_stages_link_both_ways(watched, site_url):
    page, _ = watched
    fig = open_figure(page, site_url, FIG)
    page.locator("#attention .math-block math [data-sym='att-mask']").first.hover()
    assert fig.locator("tr[data-sym='att-mask'].sym-on").count() == 1
    fig.locator("tr[data-sym='att-softmax'] td").first.hover()
    assert page.locator("#attention .math-block math [data-sym='att-softmax'].sym-on").count() >= 1


def test_every_equation_symbol_lights_a_part_of_the_figure(watched, site_url):
    """§02: "Hover over any symbol and FIG 02 lights up the part it names"."""
    page, _ = watched
    fig = open_figure(page, site_url, FIG)
    syms = (
        page.locator("#attention .math-block math")
        .first.locator("[data-sym]")
        .evaluate_all("els => [...new Set(els.map(e => e.dataset.sym))]")
    )
    assert {"att-q", "att-k", "att-v", "att-scores", "att-scale", "att-mask", "att-softmax", "att-out"} <= set(syms)
    for sym in syms:
        page.locator(f"#attention .math-block math [data-sym='{sym}']").first.dispatch_event("pointerover")
        assert fig.locator(f"[data-sym='{sym}'].sym-on").count() >= 1, sym
        page.locator(f"#attention .math-block math [data-sym='{sym}']").first.dispatch_event("pointerout")


def test_no_accessibility_violations_at_load_and_in_chosen_states(watched, site_url):
    """axe at load and in three states the load does not show: the softmax stage lit (its row and
    the heatmap's ring), the values table lit, and the last row by End (focus on its chip, every
    value visible)."""
    page, _ = watched
    fig = open_figure(page, site_url, FIG)

    def key(k):
        def act(p):
            fig.locator("[role=radio][aria-checked=true]").focus()
            p.keyboard.press(k)

        return act

    assert_axe_clean_through(
        page,
        FIG,
        {
            "hovering the softmax stage": lambda p: fig.locator("tr[data-sym='att-softmax'] td").first.hover(),
            "hovering the values": lambda p: fig.locator("table[data-sym='att-v'] td").first.hover(),
            "the last row (End)": key("End"),
        },
    )


def test_opens_on_a_row_whose_mask_is_visible(watched, site_url, site_dir, shipped):
    """The default row has later keys, so the mask stage shows −∞ cells and the heatmap a blank tail."""
    page, _ = watched
    fig = open_figure(page, site_url, FIG)
    T = len(shipped["tokens"])
    t = int(fig.locator("[role=radio][aria-checked=true]").get_attribute("data-value"))
    assert 0 < t < T - 1
    assert stage_row(fig, "att-mask").count("\u2212\u221e") == T - 1 - t
    assert_panel_shows(fig, page, site_dir, shipped, t)
    assert "fig-02" not in page.url.split("#", 1)[-1]  # the default stays out of the URL


BAND_AND_ROW = """([id, r]) => {
    const el = document.querySelector('#' + id + ' .f02-plot'), fl = el._fullLayout;
    const box = el.getBoundingClientRect(), b = document.querySelector('#' + id + ' .f02-band').getBoundingClientRect();
    const a = box.top + fl.yaxis._offset + fl.yaxis.l2p(r - 0.5), z = box.top + fl.yaxis._offset + fl.yaxis.l2p(r + 0.5);
    return {band: [b.top, b.bottom], row: [Math.min(a, z), Math.max(a, z)]};
}"""


def band_and_row(page, row):
    """The ring's box and the heatmap row's box, in page pixels."""
    return page.evaluate(BAND_AND_ROW, [FIG, row])


def wait_for_the_ring_on(page, row):
    """Until the ring has slid onto the row (its CSS transition) and stopped there."""
    page.wait_for_function(
        f"""(arg) => {{
            const w = ({BAND_AND_ROW})(arg), band = document.querySelector('#' + arg[0] + ' .f02-band');
            return band.getAnimations().length === 0 && Math.abs(w.band[0] - w.row[0]) <= 2 && Math.abs(w.band[1] - w.row[1]) <= 2;
        }}""",
        arg=[FIG, row],
    )


@pytest.mark.parametrize("width", [1280, 390])
def test_hover_rings_the_row_only_and_shows_no_tooltip(watched, site_url, width):
    """Hovering the heatmap moves the ring to that row; nothing in the figure floods with the
    symbol colour and Plotly draws no tooltip over the neighbouring cells."""
    page, _ = watched
    page.set_viewport_size({"width": width, "height": 900})
    fig = open_figure(page, site_url, FIG)
    hover_cell(page, fig, 5, 2)
    page.wait_for_selector(f"#{FIG} [role=radio][data-value='5'][aria-checked=true]")
    wait_for_the_ring_on(page, 5)  # the ring's slide
    where = band_and_row(page, 5)
    assert where["band"] == pytest.approx(where["row"], abs=2)
    assert fig.locator(".f02-plot.sym-on, .f02-plotbox.sym-on, .f02-band.sym-on").count() == 0
    assert fig.locator(".hoverlayer .hovertext").count() == 0
    # the equation's softmax lights the ring (this one row), not the chart
    page.locator("#attention .math-block math [data-sym='att-softmax']").first.dispatch_event("pointerover")
    assert fig.locator(".f02-band.sym-on").count() == 1


def test_cell_values_are_legible_in_both_schemes(watched, site_url):
    """Every value drawn on the heatmap has at least 4.5:1 contrast on its cell, light and dark."""
    page, _ = watched
    for scheme in ("light", "dark"):
        page.emulate_media(color_scheme=scheme)
        open_figure(page, site_url, FIG)
        page.wait_for_function(f"() => document.querySelector('#{FIG}').dataset.ready === 'true'")
        ratios = page.evaluate(
            """(id) => {
                const el = document.querySelector('#' + id + ' .f02-plot'), W = K3W, css = W.css(el);
                const d = el.data[0], lo = css('--heat-lo'), hi = css('--heat-hi');
                return el.layout.annotations.map(a => {
                    const t = d.y.indexOf(a.y), s = d.x.indexOf(a.x);
                    return W.contrast(W.mix(lo, hi, d.z[t][s]), a.font.color);
                });
            }""",
            FIG,
        )
        assert ratios and min(ratios) >= 4.5, (scheme, min(ratios))
    page.emulate_media(color_scheme="light")


def test_scores_table_fits_a_phone(watched, site_url):
    """At 390 px the scores table, softmax row included, fits the column: no sideways scroll."""
    page, _ = watched
    page.set_viewport_size({"width": 390, "height": 900})
    fig = open_figure(page, site_url, FIG)
    sizes = fig.locator(".k3-scroll").first.evaluate("el => [el.scrollWidth, el.clientWidth]")
    assert sizes[0] <= sizes[1], sizes
    assert fig.evaluate("el => el.scrollWidth <= el.clientWidth")


def test_no_accessibility_violations_in_dark_mode(watched, site_url):
    page, _ = watched
    page.emulate_media(color_scheme="dark")
    fig = open_figure(page, site_url, FIG)
    assert_axe_clean_through(
        page,
        FIG,
        {
            "a row by heatmap hover": lambda p: hover_cell(p, fig, 6, 5),
            "the last row (End)": lambda p: (
                fig.locator("[role=radio][aria-checked=true]").focus(),
                p.keyboard.press("End"),
            ),
            "hovering the softmax in the equation": lambda p: p.locator(
                "#attention .math-block math [data-sym='att-softmax']"
            ).first.hover(),
        },
    )
