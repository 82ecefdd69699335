"""FIG 05b · softmax vs ELU+1 kernels in the browser: the plots, the readout and the verdict show
the chosen slice and angle; sliders by keyboard and mouse, hovering the plot; state in the URL. What
is shown is checked against what was shipped; the shipped data against the kernel, and its
sentences against the numbers, in test_fig_05b_data.py."""

import numpy as np
import pytest

from k3explainer.site.readertext import fill
from tests.browser.support import (
    assert_axe_clean_through,
    assert_shown_is_shipped,
    open_figure,
    shipped_data,
    shown_number,
)

pytestmark = pytest.mark.browser
FIG = "fig-05b"


@pytest.fixture(scope="module")
def data(site_dir):
    return shipped_data(site_dir, FIG)


def plotted(page, cls):
    return page.evaluate(f"() => document.querySelector('#{FIG} .{cls}').data.map(t => t.y)")


def chosen(fig):
    return int(fig.locator(".f05b-len input").input_value()), int(fig.locator(".f05b-ang input").input_value())


def slots(li, ai):
    """What the component gives the templates' slots for slice li and angle ai (component.js)."""
    at = ["slices", li]
    return {
        "theta": ["angle_text", ai],
        "r": [*at, "length_text"],
        "dot": [*at, "dot_text", ai],
        "exp": [*at, "exp_text", ai],
        "elu": [*at, "elu_text", ai],
        "phi": ["text", "phi"],
        **{k: [*at, f"{k}_text"] for k in ("exp_min", "elu_min", "ratio_min", "ratio_max")},
    }


def assert_shows(page, fig, site_dir, data, li, ai):
    """Slice li at angle ai: the plots draw its values; the readout and the verdict are its
    sentences, each number in its own span; the charts' labels and the sliders' read-outs its texts."""
    assert chosen(fig) == (li, ai)
    s, at = data["slices"][li], slots(li, ai)
    exp, elu = plotted(page, "f05b-curve")
    np.testing.assert_array_equal(exp, s["exp"])
    np.testing.assert_array_equal(elu, s["elu"])
    w_exp, w_elu = plotted(page, "f05b-bars")
    np.testing.assert_array_equal(w_exp, s["w_exp"])
    np.testing.assert_array_equal(w_elu, s["w_elu"])

    def num(c):
        return shown_number(fig.locator("." + c).inner_text())

    assert num("f05b-exp") == pytest.approx(s["exp"][ai], abs=0.0005)
    assert num("f05b-elu") == pytest.approx(s["elu"][ai], abs=0.0005)
    assert num("f05b-dot") == pytest.approx(s["dot"][ai], abs=0.0005 + 1e-12)
    assert num("f05b-exp-min") == pytest.approx(s["exp_min"], abs=0.0005)
    assert num("f05b-elu-min") == pytest.approx(s["elu_min"], abs=0.0005)
    assert num("f05b-ratio-min") == pytest.approx(s["ratio_min"], abs=0.0005)
    assert num("f05b-ratio-max") == pytest.approx(s["ratio_max"], abs=0.0005)
    assert fig.locator(".f05b-theta").inner_text() == f"{data['angles'][ai]:.0f}°".replace("-", "\u2212")
    readout = {k: at[k] for k in ("theta", "r", "dot", "exp", "elu", "phi")}
    assert fig.locator(".f05b-readout").text_content() == fill(data, ["text", "readout"], readout)
    verdict = {k: at[k] for k in ("exp_min", "elu_min", "ratio_min", "ratio_max")}
    assert fig.locator(".f05b-verdict").text_content() == fill(data, ["text", "verdict"], verdict)
    assert fig.locator(".f05b-curve").get_attribute("aria-label") == s["curve_label"]
    assert fig.locator(".f05b-bars").get_attribute("aria-label") == s["bars_label"]
    outputs = fig.locator(".k3-slider output").all_inner_texts()
    assert outputs == [s["length_text"], data["angle_text"][ai]]
    assert assert_shown_is_shipped(page, site_dir, FIG) >= 2  # the plots' headings (and the narration)


def test_the_default_slice_is_shown(watched, site_url, site_dir, data):
    page, _ = watched
    fig = open_figure(page, site_url, FIG)
    li, ai = chosen(fig)
    assert li == data["default_length"]
    assert_shows(page, fig, site_dir, data, li, ai)


def test_keyboard_sliders_change_the_slice_and_narrate(watched, site_url, site_dir, data):
    page, _ = watched
    fig = open_figure(page, site_url, FIG)
    li, ai = chosen(fig)
    fig.locator(".f05b-len input").focus()
    page.keyboard.press("ArrowRight")
    page.keyboard.press("ArrowRight")
    assert_shows(page, fig, site_dir, data, li + 2, ai)
    r = data["slices"][li + 2]["length"]
    assert f"Key length {r:.2f}" in fig.locator(".fig-live").inner_text()
    assert fig.locator(".fig-live").get_attribute("data-shows") == '["text","describe"]'
    assert_shown_is_shipped(page, site_dir, FIG)  # the narration, its slots filled as the page filled them
    fig.locator(".f05b-ang input").focus()
    page.keyboard.press("Home")
    assert_shows(page, fig, site_dir, data, li + 2, 0)
    assert "fig-05b.angle=-180" in page.url


def test_mouse_on_slider_and_plot(watched, site_url, site_dir, data):
    page, _ = watched
    fig = open_figure(page, site_url, FIG)
    box = fig.locator(".f05b-len input").bounding_box()
    page.mouse.click(box["x"] + 4, box["y"] + box["height"] / 2)  # far left: the shortest key
    assert_shows(page, fig, site_dir, data, 0, chosen(fig)[1])
    # hovering the curve plot at 0° moves the angle read-out there
    x, y = page.evaluate(
        """(id) => { const el = document.querySelector('#' + id + ' .f05b-curve');
            const fl = el._fullLayout, b = el.getBoundingClientRect();
            return [b.left + fl.xaxis._offset + fl.xaxis.l2p(0), b.top + fl.yaxis._offset + fl.yaxis._length / 2]; }""",
        FIG,
    )
    page.mouse.move(x, y)
    zero = data["angles"].index(0.0)
    page.wait_for_function(f"() => document.querySelector('#{FIG} .f05b-ang input').value === '{zero}'")
    assert_shows(page, fig, site_dir, data, 0, zero)


def test_url_state_and_back(watched, site_url, site_dir, data):
    page, _ = watched
    r3 = data["slices"][-1]["length"]
    fig = open_figure(page, site_url, FIG, f"#fig-05b.r={r3}&fig-05b.angle=90")
    ai = data["angles"].index(90.0)
    assert_shows(page, fig, site_dir, data, len(data["slices"]) - 1, ai)
    fig.locator(".f05b-len input").focus()
    page.keyboard.press("Home")
    assert_shows(page, fig, site_dir, data, 0, ai)
    page.go_back()
    page.wait_for_function(
        f"() => document.querySelector('#{FIG} .f05b-len input').value === '{len(data['slices']) - 1}'"
    )
    assert_shows(page, fig, site_dir, data, len(data["slices"]) - 1, ai)


def test_phi_symbol_links_both_ways(watched, site_url):
    page, _ = watched
    fig = open_figure(page, site_url, FIG)
    centre = "el => el.scrollIntoView({block: 'center', behavior: 'instant'})"  # clear of the sticky journey strip
    eq = page.locator("#linear-attention .math-block math [data-sym='la-phi']").first
    eq.evaluate(centre)
    eq.hover()
    assert fig.locator(".f05b-readout [data-sym='la-phi'].sym-on").count() == 1
    fig.locator(".f05b-readout [data-sym='la-phi']").evaluate(centre)
    fig.locator(".f05b-readout [data-sym='la-phi']").hover()
    assert page.locator("#linear-attention .math-block math [data-sym='la-phi'].sym-on").count() >= 1


def test_no_accessibility_violations_at_load_and_in_chosen_states(watched, site_url):
    """axe at load and in three states the load does not show: the longest key by End (focus on
    its slider), the curve plot's tooltip, and φ lit from the equation."""
    page, _ = watched
    fig = open_figure(page, site_url, FIG)
    centre = "el => el.scrollIntoView({block: 'center', behavior: 'instant'})"  # clear of the sticky journey strip

    def key(cls, k):
        def act(p):
            fig.locator(f"{cls} input").focus()
            p.keyboard.press(k)

        return act

    def hover_plot(p):
        x, y = p.evaluate(
            """(id) => { const el = document.querySelector('#' + id + ' .f05b-curve');
                const fl = el._fullLayout, b = el.getBoundingClientRect();
                return [b.left + fl.xaxis._offset + fl.xaxis.l2p(0), b.top + fl.yaxis._offset + fl.yaxis._length / 2]; }""",
            FIG,
        )
        p.mouse.move(x, y)

    def hover(loc):
        def act(p):
            loc.evaluate(centre)
            loc.hover()

        return act

    assert_axe_clean_through(
        page,
        FIG,
        {
            "the longest key (End)": key(".f05b-len", "End"),
            "hovering the curve plot": hover_plot,
            "hovering φ in the equation": hover(
                page.locator("#linear-attention .math-block math [data-sym='la-phi']").first
            ),
        },
    )


def test_one_tooltip_with_one_degree_sign_and_labelled_axes(watched, site_url):
    """Hovering the curves shows one tooltip for both, headed by the angle as the axis prints it
    (its tick suffix carries the only degree sign); both charts name their y-axis."""
    page, _ = watched
    fig = open_figure(page, site_url, FIG)

    def get(sel, expr):
        return page.evaluate(f"() => {{ const p = document.querySelector('#{FIG} {sel}'); return {expr}; }}")

    assert get(".f05b-curve", "p.layout.hovermode") == "x unified"
    assert all("°" not in t for t in get(".f05b-curve", "p.data.map(d => d.hovertemplate)"))
    assert get(".f05b-curve", "p.layout.xaxis.ticksuffix") == "°"
    assert get(".f05b-curve", "p.layout.yaxis.title.text") and get(".f05b-curve", "p.layout.xaxis.title.text")
    assert get(".f05b-bars", "p.layout.yaxis.title.text") == "attention weight"
    x, y = page.evaluate(
        """(id) => { const el = document.querySelector('#' + id + ' .f05b-curve');
            const fl = el._fullLayout, b = el.getBoundingClientRect();
            return [b.left + fl.xaxis._offset + fl.xaxis.l2p(-130), b.top + fl.yaxis._offset + fl.yaxis._length / 2]; }""",
        FIG,
    )
    page.mouse.move(x, y)
    hover = fig.locator(".f05b-curve .hoverlayer")
    hover.locator(".legend, .hovertext").first.wait_for()  # the tooltip is up
    assert hover.locator(".legend, .hovertext").count() == 1
    text = hover.evaluate("g => g.textContent")
    assert "−130°" in text and "°°" not in text
