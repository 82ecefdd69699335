"""FIG 05 · re-association in the browser: the toggle folds N×N into d×d (click and keyboard; the
fold animates, or not under reduced motion), rows trace a query, the one output table shows each
order's output with the |Δ| strip, the memory chart and its table show the costs, state in the URL.
What is shown is checked against what was shipped; the shipped data against the kernels, and its
sentences against the numbers, in test_fig_05_data.py."""

import re

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
FIG = "fig-05"


@pytest.fixture(scope="module")
def shipped(site_dir):
    data = shipped_data(site_dir, FIG)
    return {
        **data,
        "par": np.array(data["out_parallel"]),
        "rec": np.array(data["out_recurrent"]),
        "states": [np.array(s) for s in data["states"]],
    }


def numbers(locator):
    return [shown_number(t) for t in locator.all_inner_texts() if t.strip()]


def shown_sci(text):
    """1.8 × 10⁻¹⁵ or 1.8e−15 as a float."""
    text = text.strip().replace("\u2212", "-")
    if " × 10" in text:
        mant, exp = text.split(" × 10")
        return float(mant) * 10.0 ** int(exp.translate(str.maketrans("⁻⁰¹²³⁴⁵⁶⁷⁸⁹", "-0123456789")))
    return float(text)


def assert_outputs(fig, page, site_dir, shipped, linear):
    """The one output table holds the order shown; its |Δ| strip is the two orders' per-row difference."""
    N = shipped["n"]
    shown = np.array(numbers(fig.locator(".f05-out td:not(.f05-delta)"))).reshape(N, -1)
    np.testing.assert_allclose(shown, shipped["rec" if linear else "par"], atol=0.0005)
    assert ("through the state" if linear else "through the matrix") in fig.locator(".f05-out caption").inner_text()
    strip = fig.locator(".f05-out td.f05-delta").all_inner_texts()
    assert strip == shipped["row_diff_text"]
    np.testing.assert_allclose([shown_sci(t) for t in strip], shipped["row_diff"], rtol=0.06, atol=1e-30)
    diff = shipped["max_diff"]
    assert shown_sci(fig.locator(".f05-maxdiff").inner_text()) == pytest.approx(diff, rel=0.06) and diff < 1e-12
    # drawn on the outputs' colour scale, the strip is blank: its heat share is below a thousandth of a percent
    shares = fig.locator(".f05-out td.f05-delta").evaluate_all(
        "tds => tds.map(td => +td.style.getPropertyValue('--w'))"
    )
    assert max(shares) < 1e-5 and max(shares) == pytest.approx(diff / np.abs(shipped["par"]).max(), rel=0.01)
    assert_shown_is_shipped(page, site_dir, FIG)


def assert_middle(fig, page, site_dir, shipped, t, linear):
    assert fig.locator(".f05-toggle").get_attribute("aria-pressed") == ("true" if linear else "false")
    assert fig.locator(".f05-middle.is-linear").count() == (1 if linear else 0)
    assert fig.locator(".f05-nn").get_attribute("aria-hidden") == ("true" if linear else "false")
    nn = fig.locator(".f05-nn .f05-cell").all_inner_texts()
    N = shipped["n"]
    for s in range(N):  # row t of the masked matrix, to one decimal
        cell = nn[t * N + s].strip()
        if s <= t:
            assert shown_number(cell) == pytest.approx(shipped["scores"][t][s], abs=0.05)
        else:
            assert cell == ""
    dd = numbers(fig.locator(".f05-dd .f05-cell"))  # one decimal, at the matrix's cell size
    np.testing.assert_allclose(np.array(dd).reshape(shipped["states"][t].shape), shipped["states"][t], atol=0.05)
    assert fig.locator(f".f05-out tbody tr:nth-child({t + 1}) td.is-changed").count() == len(shipped["par"][t]) + 1
    assert fig.locator("[role=radio][aria-checked=true]").get_attribute("data-value") == str(t)
    # the grids' labels and the caption under them: this row's, in this order
    order = "state" if linear else "matrix"
    assert fig.locator(".f05-nn").get_attribute("aria-label") == shipped["rows_text"][t]["matrix_label"]
    assert fig.locator(".f05-dd").get_attribute("aria-label") == shipped["rows_text"][t]["state_label"]
    assert fig.locator(".f05-mid-cap").get_attribute("data-shows") == f'["views","{order}",{t},"caption"]'
    assert assert_shown_is_shipped(page, site_dir, FIG) >= 3 + 3 + 4 + 6  # costs, |Δ| line, heads, points


def test_numbers_are_the_shipped_ones(watched, site_url, site_dir, shipped):
    page, _ = watched
    fig = open_figure(page, site_url, FIG)
    assert_outputs(fig, page, site_dir, shipped, False)
    assert_middle(fig, page, site_dir, shipped, shipped["n"] - 1, False)
    # the figure draws the masked middle: its count is the masked product's, the unmasked one named beside it
    m = shipped["madds"]
    assert shown_number(fig.locator(".f05-madds-q").inner_text()) == m["quadratic"]
    assert fig.locator(".f05-madds-note").inner_text() == f" ({m['quadratic_unmasked']} unmasked)"
    assert shown_number(fig.locator(".f05-madds-l").inner_text()) == m["linear"]
    fig.locator(".f05-numbers summary").click()  # the chart's numbers, on demand
    rows = fig.locator(".f05-growth tbody tr")
    g = shipped["growth"]
    for i, n in enumerate(g["n"]):
        cells = numbers(rows.nth(i).locator("td"))
        assert cells == [g["middle_quadratic"][i], g["middle_linear"][i], g["madds_quadratic"][i], g["madds_linear"][i]]
        assert rows.nth(i).locator("td").all_inner_texts() == shipped["growth_text"]["rows"][i]
        assert shown_number(rows.nth(i).locator("th").inner_text()) == n
    assert len(set(g["middle_linear"])) == 1  # the state does not grow


def test_memory_chart_plots_the_costs_on_labelled_log_axes(watched, site_url, site_dir, shipped):
    page, _ = watched
    fig = open_figure(page, site_url, FIG)
    chart = fig.locator("svg.f05-chart")
    texts = chart.locator("text").all_text_contents()
    g = shipped["growth"]
    assert "sequence length N" in texts and "entries held" in texts and "N×N matrix" in texts and "d×d state" in texts
    assert [shown_number(t) for t in texts if re.fullmatch(r"[0-9,]+", t)] == g["n"]  # x ticks at the N values
    ticks = [t for t in texts if t.startswith("10") and not re.fullmatch(r"[0-9,]+", t)]  # y: 10⁰, 10³, …
    want = [f"10{str(int(np.log10(v))).translate(str.maketrans('0123456789', '⁰¹²³⁴⁵⁶⁷⁸⁹'))}" for v in g["y_ticks"]]
    assert ticks == want == shipped["growth_text"]["y_ticks"] and g["y_ticks"][-1] >= max(g["middle_quadratic"])
    for cls, key in (("f05-s-nn", "middle_quadratic"), ("f05-s-dd", "middle_linear")):
        titles = chart.locator(f"circle.{cls} title").all_text_contents()
        assert [shown_number(t.split(": ")[1].split(" ")[0]) for t in titles] == list(g[key])
        assert titles == shipped["growth_text"]["points"][key]
        cy = chart.locator(f"circle.{cls}").evaluate_all("cs => cs.map(c => +c.getAttribute('cy'))")
        if key == "middle_linear":
            assert len(set(cy)) == 1  # flat: the state does not grow
        else:  # on a log axis N² is a straight line: equal rises for equal steps of log N
            rise = np.diff(cy) / np.diff(np.log10(g["n"]))
            assert rise[0] == pytest.approx(rise[1], rel=1e-6) and rise[0] < 0
    label = chart.get_attribute("aria-label")
    assert all(f"{v:,}" in label for v in g["middle_quadratic"]) and "logarithmic" in label
    assert label == shipped["growth_text"]["chart_label"]
    assert assert_shown_is_shipped(page, site_dir, FIG) >= 6  # the chart's points among them


def test_toggle_by_click_and_keyboard_changes_view_and_narration(watched, site_url, site_dir, shipped):
    page, _ = watched
    fig = open_figure(page, site_url, FIG)
    live, last, m = fig.locator(".fig-live"), shipped["n"] - 1, shipped["madds"]
    assert live.inner_text() == ""  # nothing is spoken on load
    fig.locator(".f05-toggle").click()
    assert_middle(fig, page, site_dir, shipped, last, True)
    assert_outputs(fig, page, site_dir, shipped, True)
    assert "Re-associated" in live.inner_text() and f"{m['linear']}" in live.inner_text()
    assert live.get_attribute("data-shows") == f'["views","state",{last},"said_toggle"]'
    assert "fig-05.order=state" in page.url
    fig.locator(".f05-toggle").focus()
    page.keyboard.press("Enter")
    assert_middle(fig, page, site_dir, shipped, last, False)
    assert "Unfolded" in live.inner_text()
    assert (
        f"{m['quadratic']} multiply-adds for all {shipped['n']} rows with the mask ({m['quadratic_unmasked']} without)"
    ) in live.inner_text()
    page.keyboard.press("Space")
    assert_middle(fig, page, site_dir, shipped, last, True)
    assert_outputs(fig, page, site_dir, shipped, True)


def test_rows_by_click_and_arrow_keys(watched, site_url, site_dir, shipped):
    page, _ = watched
    fig = open_figure(page, site_url, FIG)
    fig.locator("[role=radio][data-value='2']").click()
    assert_middle(fig, page, site_dir, shipped, 2, False)
    page.keyboard.press("ArrowRight")
    assert_middle(fig, page, site_dir, shipped, 3, False)
    first = shipped["par"][3][0]
    assert f"{abs(first):.3f}" in fig.locator(".fig-live").inner_text()
    assert fig.locator(".fig-live").get_attribute("data-shows") == '["views","matrix",3,"said"]'
    # the selected row is marked in the output table (its |Δ| cell too)
    assert fig.locator(".f05-out tbody tr").nth(3).locator("td.is-changed").count() == 5


def test_state_in_url_and_history(watched, site_url, site_dir, shipped):
    page, _ = watched
    fig = open_figure(page, site_url, FIG, "#fig-05.order=state&fig-05.row=1")
    assert_middle(fig, page, site_dir, shipped, 1, True)
    fig.locator(".f05-toggle").click()
    assert_middle(fig, page, site_dir, shipped, 1, False)
    assert "order=state" not in page.url and "fig-05.row=1" in page.url
    page.go_back()
    page.wait_for_selector(f"#{FIG} .f05-middle.is-linear")
    assert_middle(fig, page, site_dir, shipped, 1, True)


def test_fold_animates_and_reduced_motion_stills_it(watched, site_url):
    """The N×N matrix shrinks into the state's corner (a transform transition) and the dashed
    N×N footprint stays; under reduced motion the same end state arrives without a transition."""
    page, _ = watched
    fig = open_figure(page, site_url, FIG)
    fig.locator(".f05-toggle").click()
    nn = fig.locator(".f05-nn")
    assert "transform" in nn.evaluate("n => getComputedStyle(n).transitionProperty")
    assert nn.evaluate("n => parseFloat(getComputedStyle(n).transitionDuration)") > 0
    page.wait_for_function("() => getComputedStyle(document.querySelector('#fig-05 .f05-nn')).opacity === '0'")
    # the shrink runs longer than the fade, and the state and the ghost come in after it: wait until
    # no transition is left in the middle
    page.wait_for_function(
        "() => document.querySelector('#fig-05 .f05-middle').getAnimations({subtree: true}).length === 0"
    )

    def side(sel):
        return fig.locator(sel).evaluate("n => n.getBoundingClientRect().width")

    assert side(".f05-nn") == pytest.approx(side(".f05-dd"), abs=2)  # folded onto the state's footprint
    assert fig.locator(".f05-ghost").evaluate("n => +getComputedStyle(n).opacity") > 0.5
    page.emulate_media(reduced_motion="reduce")
    fig = open_figure(page, site_url, FIG)
    fig.locator(".f05-toggle").click()
    assert fig.locator(".f05-nn").evaluate("n => getComputedStyle(n).transitionDuration") == "0s"


def test_phone_fits_the_width(watched, site_url):
    page, _ = watched
    page.set_viewport_size({"width": 390, "height": 844})
    fig = open_figure(page, site_url, FIG)
    wide = fig.evaluate("""f => [...f.querySelectorAll('.f05 *')].filter(e => !e.closest('.k3-scroll'))
        .filter(e => e.getBoundingClientRect().right > document.documentElement.clientWidth + 0.5).map(e => e.tagName + '.' + e.className)""")
    assert wide == []


def test_symbols_link_both_ways(watched, site_url):
    page, _ = watched
    fig = open_figure(page, site_url, FIG)
    fig.locator(".f05-toggle").click()
    centre = "el => el.scrollIntoView({block: 'center', behavior: 'instant'})"  # clear of the sticky journey strip
    eq = page.locator("#linear-attention .math-block math [data-sym='la-state']").first
    eq.evaluate(centre)
    eq.hover()
    assert fig.locator(".f05-dd.sym-on").count() == 1
    eq = page.locator("#linear-attention .math-block math [data-sym='la-phi']").first
    eq.evaluate(centre)
    eq.hover()
    assert fig.locator(".f05-formula [data-sym='la-phi'].sym-on").count() == 1
    fig.locator(".f05-dd .f05-cell").first.evaluate(centre)
    fig.locator(".f05-dd .f05-cell").first.hover()
    assert page.locator("#linear-attention .math-block math [data-sym='la-state'].sym-on").count() >= 1


def test_no_accessibility_violations_at_load_and_in_chosen_states(watched, site_url):
    """axe at load and in three states the load does not show: the state view (the d×d state),
    the state lit from the equation, and the chart's numbers opened."""
    page, _ = watched
    fig = open_figure(page, site_url, FIG)
    centre = "el => el.scrollIntoView({block: 'center', behavior: 'instant'})"  # clear of the sticky journey strip

    def hover(loc):
        def act(p):
            loc.evaluate(centre)
            loc.hover()

        return act

    assert_axe_clean_through(
        page,
        FIG,
        {
            "the state view (click)": lambda p: fig.locator(".f05-toggle").click(),
            "hovering the state in the equation": hover(
                page.locator("#linear-attention .math-block math [data-sym='la-state']").first
            ),
            "the numbers opened": lambda p: fig.locator(".f05-numbers summary").click(),
        },
    )


# Each coloured cell's background as [r, g, b] in 0..1 (computed colours come as rgb() or, from
# color-mix, as color(srgb …)), with the page's paper and its two heat colours.
CELL_COLOURS_JS = """() => {
  const rgb = s => { const n = s.match(/[\\d.]+/g).slice(0, 3).map(Number); return s.startsWith('rgb') ? n.map(v => v / 255) : n; };
  const probe = c => { const e = document.createElement('span'); e.style.color = c; document.body.append(e);
                       const v = rgb(getComputedStyle(e).color); e.remove(); return v; };
  const cells = [...document.querySelectorAll('#fig-05 .f05-dd .f05-cell, #fig-05 .f05-nn .f05-cell:not(.is-masked), #fig-05 .f05-out td')];
  return {paper: probe('var(--paper-2)'), page: probe('var(--paper)'), pos: probe('var(--heat-pos)'), neg: probe('var(--heat-neg)'),
          cells: cells.map(c => rgb(getComputedStyle(c).backgroundColor))};
}"""


@pytest.mark.parametrize("scheme", ["light", "dark"])
def test_one_colour_scale_and_a_table_with_room(watched, site_url, scheme):
    """Matrix, state and outputs share the page's diverging scale (FIG 05 had a third palette of its
    own: brown, violet and blue); the growth table spans the figure instead of the chart's column;
    "max |Δ| = …" never breaks inside the bars."""
    page, _ = watched
    page.emulate_media(color_scheme=scheme)
    fig = open_figure(page, site_url, FIG, "#fig-05.order=state")
    page.evaluate("() => document.getAnimations().forEach(a => a.finish())")
    c = page.evaluate(CELL_COLOURS_JS)
    paper, ends = (
        np.array(c["paper"]),
        [np.array(c["pos"]) - np.array(c["paper"]), np.array(c["neg"]) - np.array(c["paper"])],
    )
    off_scale = []
    for bg in c["cells"]:
        step = np.array(bg) - paper
        if min(np.linalg.norm(step), np.linalg.norm(np.array(bg) - c["page"])) < 0.02:
            continue  # a near-zero value: paper (the |Δ| strip lies on the page's own paper)
        if not any(np.linalg.norm(step - e * (step @ e) / (e @ e)) < 0.03 for e in ends):
            off_scale.append(bg)
    assert len(c["cells"]) > 40 and off_scale == []
    fig.locator(".f05-numbers summary").click()
    table, body = fig.locator(".f05-numbers").bounding_box(), fig.locator(".f05-body").bounding_box()
    assert table["width"] == pytest.approx(body["width"], abs=1)
    assert fig.locator(".f05-nowrap").evaluate("e => getComputedStyle(e).whiteSpace") == "nowrap"
    assert fig.locator(".f05-nowrap").inner_text().startswith("max |Δ| = ")
