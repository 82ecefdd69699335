"""FIG 02 · causal attention matrix: rows by hover, click and keys; numbers equal the kernel's,
including the unscaled comparison row; what §02 and the spec say the figure shows holds in its data."""

import html
import re

import numpy as np
import pytest
import yaml

from k3explainer.kernels import causal_softmax_attention
from tests.browser.support import ROOT, assert_axe_clean_through, open_figure, shipped_data, shown_number

pytestmark = pytest.mark.browser
FIG = "fig-02"


@pytest.fixture(scope="module")
def kernel(site_dir):
    data = shipped_data(site_dir, FIG)
    q, k, v = (np.array(data[n]) for n in "qkv")
    o, w, tr = causal_softmax_attention(q, k, v, trace=True)
    _, w_raw = causal_softmax_attention(q, k, v, scale=1.0)  # the comparison: no 1/√d_k
    return {
        "tokens": data["tokens"],
        "o": o,
        "w": w,
        "raw": tr["raw_scores"],
        "scaled": tr["scaled_scores"],
        "w_raw": w_raw,
        "v": v,
        "k": k,
        "data": data,
    }


def stage_row(fig, sym):
    return [c.strip() for c in fig.locator(f"tr[data-sym='{sym}'] td").all_inner_texts()]


def assert_panel_shows(fig, kernel, t):
    T = len(kernel["tokens"])
    weights = stage_row(fig, "att-softmax")
    raw = stage_row(fig, "att-scores")
    masked = stage_row(fig, "att-mask")
    unscaled = [c.strip() for c in fig.locator("tr[data-stage='unscaled'] td").all_inner_texts()]
    for s in range(T):
        if s <= t:
            assert shown_number(weights[s]) == pytest.approx(kernel["w"][t, s], abs=0.005)
            assert shown_number(raw[s]) == pytest.approx(kernel["raw"][t, s], abs=0.005)
            assert shown_number(masked[s]) == pytest.approx(kernel["scaled"][t, s], abs=0.005)
            assert shown_number(unscaled[s]) == pytest.approx(kernel["w_raw"][t, s], abs=0.005)
        else:
            assert masked[s] == "−∞" and shown_number(weights[s]) == 0 and shown_number(unscaled[s]) == 0
    assert sum(shown_number(x) for x in weights) == pytest.approx(1, abs=0.005 * T)
    out = [shown_number(x) for x in fig.locator("table[data-sym='att-out'] td").all_inner_texts()]
    assert out == pytest.approx(kernel["o"][t], abs=0.0005)
    values = fig.locator("table[data-sym='att-v'] tbody tr").evaluate_all(
        "trs => trs.map(tr => [...tr.querySelectorAll('td')].map(td => td.textContent.trim()))"
    )
    for s, row in enumerate(values):  # the values this row can see; later ones hidden
        if s <= t:
            assert [shown_number(x) for x in row] == pytest.approx(kernel["v"][s], abs=0.005)
        else:
            assert row == ["—"] * len(row)
    # the readout under the scores: row sum, and the largest weight with and without scaling
    readout = fig.locator(".f02-sum").inner_text()
    assert f"weights sum to {kernel['w'][t].sum():.3f}" in readout
    if t:
        assert f"Largest weight {kernel['w'][t].max():.2f}" in readout
        assert f"it would be {kernel['w_raw'][t].max():.2f}" in readout
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
    hover_cell(page, fig, 5, 1)  # not the default row, so the hover changes something
    page.wait_for_selector(f"#{FIG} [role=radio][data-value='5'][aria-checked=true]")
    assert_panel_shows(fig, kernel, 5)
    assert kernel["tokens"][5] in fig.locator(".fig-live").inner_text()


def test_keyboard_and_click_select_rows_and_narrate(watched, site_url, kernel):
    page, _ = watched
    fig = open_figure(page, site_url, FIG)
    T = len(kernel["tokens"])
    fig.locator("[role=radio][aria-checked=true]").focus()
    page.keyboard.press("End")
    page.keyboard.press("ArrowUp")
    assert_panel_shows(fig, kernel, T - 2)
    page.keyboard.press("Home")
    assert_panel_shows(fig, kernel, 0)
    assert "sees 1 token" in fig.locator(".fig-live").inner_text()
    assert f"largest weight, 1.00, goes to 1 “{kernel['tokens'][0]}”" in fig.locator(".fig-live").inner_text()
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
    fig = open_figure(page, site_url, FIG, "#" + page.url.split("#")[1])
    assert_panel_shows(fig, kernel, 2)


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


def section_text(site_dir, section_id):
    """The plain text of one built section (tags stripped, entities decoded)."""
    page = (site_dir / "index.html").read_text(encoding="utf-8")
    m = re.search(rf'<section[^>]*id="{section_id}".*?</section>', page, re.S)
    return re.sub(r"\s+", " ", html.unescape(re.sub(r"<[^>]+>", " ", m.group(0))))


def test_what_the_prose_and_the_spec_say_the_figure_shows_holds(site_dir, kernel):
    """Each sentence in §02, the caption and the text alternative that describes FIG 02's numbers,
    checked against the data the figure shipped (which equals the kernel)."""
    data, w, w_raw, T = kernel["data"], kernel["w"], kernel["w_raw"], len(kernel["tokens"])
    np.testing.assert_allclose(np.array(data["weights"]), w, atol=1e-12)
    np.testing.assert_allclose(np.array(data["weights_unscaled"]), w_raw, atol=1e-12)
    assert data["max_weight"] == pytest.approx(w.max(axis=1)) and data["argmax"] == list(w.argmax(axis=1))
    assert data["max_weight_unscaled"] == pytest.approx(w_raw.max(axis=1))
    assert data["row_sum"] == pytest.approx(w.sum(axis=1))
    text = section_text(site_dir, "attention")
    spec = yaml.safe_load((ROOT / "figures" / "fig-02-attention-matrix" / "figure.yaml").read_text(encoding="utf-8"))
    alt = " ".join(spec["alt"].split())
    # alt: the sentence it names is the one the figure runs
    assert f'sentence "{" ".join(kernel["tokens"])}"' in alt
    # "Everything above the diagonal is masked ... future tokens receive exactly zero weight."
    assert "Everything above the diagonal is masked" in text
    assert np.all(w[np.triu_indices(T, 1)] == 0) and np.all(w_raw[np.triu_indices(T, 1)] == 0)
    # "The first token ... its single visible cell carries all the weight" (and the alt's last sentence)
    assert "its single visible cell carries all the weight" in text
    assert "The first row puts all its weight on the first token." in alt
    assert w[0, 0] == 1
    # "the weights are positive and sum to 1"; "a convex combination of the visible values ... never outside them"
    assert "the weights are positive and sum to 1" in text and "never outside them" in text
    for t in range(T):
        assert np.all(w[t, : t + 1] > 0) and w[t].sum() == pytest.approx(1, abs=1e-12)
        vis = kernel["v"][: t + 1]
        assert np.all(kernel["o"][t] >= vis.min(axis=0) - 1e-12) and np.all(kernel["o"][t] <= vis.max(axis=0) + 1e-12)
    # "in every row with more than one visible key its largest weight is bigger than the scaled one"
    assert "in every row with more than one visible key its largest weight is bigger than the scaled one" in text
    assert "in every row with more than one visible key their largest weight is larger" in alt
    assert all(w_raw[t].max() > w[t].max() for t in range(1, T))
    # "... even at this tiny d_k some rows already put nearly all their weight on a single key"
    assert "some rows already put nearly all their weight on a single key" in text
    assert sum(w_raw[t].max() > 0.99 for t in range(1, T)) >= 2
    assert max(w[t].max() for t in range(1, T)) < 0.99  # while with scaling none does


def test_no_accessibility_violations_through_every_interaction(watched, site_url):
    """axe at load and after each kind of interaction: rows by heatmap hover and click, by chip
    click and arrow keys, the first row, and the stages and symbols lit from both sides."""
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
            "a row by heatmap hover": lambda p: hover_cell(p, fig, 3, 1),
            "a row by heatmap click": lambda p: (hover_cell(p, fig, 5, 2), p.mouse.down(), p.mouse.up()),
            "a row by chip click": lambda p: fig.locator("[role=radio][data-value='2']").click(),
            "a row by arrow key": key("ArrowDown"),
            "the first row (Home)": key("Home"),
            "the last row (End)": key("End"),
            "hovering the mask in the equation": lambda p: p.locator(
                "#attention .math-block math [data-sym='att-mask']"
            ).first.hover(),
            "hovering the softmax stage": lambda p: fig.locator("tr[data-sym='att-softmax'] td").first.hover(),
            "hovering the values": lambda p: fig.locator("table[data-sym='att-v'] td").first.hover(),
        },
    )


def test_opens_on_a_row_whose_mask_is_visible(watched, site_url, kernel):
    """The default row has later keys, so the mask stage shows −∞ cells and the heatmap a blank tail."""
    page, _ = watched
    fig = open_figure(page, site_url, FIG)
    T = len(kernel["tokens"])
    t = int(fig.locator("[role=radio][aria-checked=true]").get_attribute("data-value"))
    assert 0 < t < T - 1
    assert stage_row(fig, "att-mask").count("\u2212\u221e") == T - 1 - t
    assert_panel_shows(fig, kernel, t)
    assert "fig-02" not in page.url.split("#", 1)[-1]  # the default stays out of the URL


def band_and_row(page, row):
    """The ring's box and the heatmap row's box, in page pixels."""
    return page.evaluate(
        """([id, r]) => {
            const el = document.querySelector('#' + id + ' .f02-plot'), fl = el._fullLayout;
            const box = el.getBoundingClientRect(), b = document.querySelector('#' + id + ' .f02-band').getBoundingClientRect();
            const a = box.top + fl.yaxis._offset + fl.yaxis.l2p(r - 0.5), z = box.top + fl.yaxis._offset + fl.yaxis.l2p(r + 0.5);
            return {band: [b.top, b.bottom], row: [Math.min(a, z), Math.max(a, z)]};
        }""",
        [FIG, row],
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
    page.wait_for_timeout(300)  # the ring's slide
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
