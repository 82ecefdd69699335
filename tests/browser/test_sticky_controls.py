"""A tall figure's control row (k3-sticky) stays in reach on a phone: scrolled down through what
it changes, the row sits just under the journey strip, uncovered, and a tap on it works; it leaves
with the end of the part it sticks in, and on a desktop it stays in the flow."""

import pytest

from .support import open_figure

pytestmark = pytest.mark.browser

PHONE = {"width": 390, "height": 844}
# name: (figure, its sticky row, a control in that row whose tap changes the figure's state)
ROWS = {
    "FIG 03 slider": ("fig-03", ".k3-sticky", "input[type=range]"),
    "FIG 06 stepper": ("fig-06", ".k3-sticky", "button[aria-label='Next step']"),
    "FIG 11 tokens": ("fig-11", ".k3-sticky", "[role=radio]:not([aria-checked=true])"),
    "FIG 16 context length": ("fig-16", ".k3-sticky", "input[type=range]"),
}
# (FIG 17's stage and token rows head parts that fit a phone's screen (~570 and ~610 px of 844):
# they are in view with what they change, so they stay in the flow.)

# The part of the figure a row sticks in: its parent, or the parent's parent where the parent
# has no box of its own (display: contents, as FIG 16's control row on a phone).
PART = """const partOf = bar => { let p = bar.parentElement;
  while (getComputedStyle(p).display === 'contents') p = p.parentElement;
  return p; };"""

# The row, its part, the control, and what lies on top of the control's centre.
GEOMETRY_JS = (
    """([id, row, control]) => { """
    + PART
    + """
  const bar = document.querySelector('#' + id + ' ' + row), ctl = bar.querySelector(control);
  const r = bar.getBoundingClientRect(), c = ctl.getBoundingClientRect(), part = partOf(bar).getBoundingClientRect();
  const x = c.left + c.width / 2, y = c.top + c.height / 2, hit = document.elementFromPoint(x, y);
  return {top: r.top, bottom: r.bottom, height: r.height, partBottom: part.bottom, x, y, view: innerHeight,
          strip: document.querySelector('.journey').getBoundingClientRect().bottom,
          uncovered: !!hit && ctl.contains(hit), position: getComputedStyle(bar).position};
}"""
)

# Scroll at once (the page scrolls smoothly unless told otherwise) so that the point `f` of the
# way down the row's part of the figure is at the middle of the window, or (f = null) so that the
# part's end is just under the top of the window.
SCROLL_JS = (
    """([id, row, f]) => { """
    + PART
    + """
  const part = partOf(document.querySelector('#' + id + ' ' + row)).getBoundingClientRect();
  scrollBy({top: f === null ? part.bottom - 10 : part.top + part.height * f - innerHeight / 2, behavior: "instant"});
  return new Promise(r => requestAnimationFrame(() => requestAnimationFrame(r)));
}"""
)


@pytest.mark.parametrize("name", ROWS)
def test_the_controls_stay_in_reach_on_a_phone(watched, site_url, name):
    page, _ = watched
    fig_id, row, control = ROWS[name]
    page.set_viewport_size(PHONE)
    open_figure(page, site_url, fig_id)
    page.evaluate(SCROLL_JS, [fig_id, row, 0.7])
    at = page.evaluate(GEOMETRY_JS, [fig_id, row, control])
    assert at["top"] == pytest.approx(at["strip"], abs=1)  # stuck just under the strip...
    assert at["height"] <= 0.15 * at["view"]  # ...taking little of the screen...
    assert at["uncovered"]  # ...and nothing lies over its controls
    before = page.evaluate("id => JSON.stringify(K3.figure(id).state())", fig_id)
    page.mouse.click(at["x"] + (20 if "range" in control else 0), at["y"])
    after = page.evaluate("id => JSON.stringify(K3.figure(id).state())", fig_id)
    assert after != before
    still = page.evaluate(GEOMETRY_JS, [fig_id, row, control])  # the row stays put for the next tap
    assert (still["top"], still["y"], still["uncovered"]) == (
        pytest.approx(at["top"], abs=1),
        pytest.approx(at["y"], abs=1),
        True,
    )
    page.evaluate(SCROLL_JS, [fig_id, row, None])  # the part's end has gone up under the strip: the row went with it
    gone = page.evaluate(GEOMETRY_JS, [fig_id, row, control])
    assert gone["partBottom"] < gone["strip"] and gone["bottom"] <= gone["partBottom"] + 1


@pytest.mark.parametrize("name", ROWS)
def test_the_controls_stay_in_the_flow_on_a_desktop(watched, site_url, name):
    page, _ = watched
    fig_id, row, control = ROWS[name]
    open_figure(page, site_url, fig_id)
    assert page.evaluate(GEOMETRY_JS, [fig_id, row, control])["position"] == "static"
