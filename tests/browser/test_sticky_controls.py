"""A tall figure's control row (k3-sticky) stays in reach on a phone: scrolled down through what
it changes, the row sits just under the journey strip, uncovered, and a tap on it works; it leaves
with the figure's end, and on a desktop it stays in the flow."""
import pytest

from .support import open_figure

pytestmark = pytest.mark.browser

PHONE = {"width": 390, "height": 844}
# figure: a control inside its sticky row whose tap changes the figure's state
CONTROLS = {
    "fig-03": ".k3-sticky input[type=range]",
    "fig-06": ".k3-sticky button[aria-label='Next step']",
    "fig-11": ".k3-sticky [role=radio]:not([aria-checked=true])",
}

GEOMETRY_JS = """([id, control]) => {
  const fig = document.getElementById(id), bar = fig.querySelector('.k3-sticky'), ctl = fig.querySelector(control);
  const r = bar.getBoundingClientRect(), c = ctl.getBoundingClientRect(), f = fig.getBoundingClientRect();
  const x = c.left + c.width / 2, y = c.top + c.height / 2, hit = document.elementFromPoint(x, y);
  return {top: r.top, bottom: r.bottom, height: r.height, figBottom: f.bottom, x, y, view: innerHeight,
          strip: document.querySelector('.journey').getBoundingClientRect().bottom,
          uncovered: !!hit && ctl.contains(hit), position: getComputedStyle(bar).position, scrollY};
}"""


def scroll_to(page, fig_id: str, fraction: float) -> None:
    """Put the point `fraction` of the way down the figure at the middle of the window (at once:
    the page scrolls smoothly unless told otherwise)."""
    page.evaluate("""([id, f]) => { const r = document.getElementById(id).getBoundingClientRect();
        scrollBy({top: r.top + r.height * f - innerHeight / 2, behavior: "instant"}); }""", [fig_id, fraction])
    page.evaluate("() => new Promise(r => requestAnimationFrame(() => requestAnimationFrame(r)))")


@pytest.mark.parametrize("fig_id", CONTROLS)
def test_the_controls_stay_in_reach_on_a_phone(watched, site_url, fig_id):
    page, _ = watched
    page.set_viewport_size(PHONE)
    open_figure(page, site_url, fig_id)
    control = CONTROLS[fig_id]
    scroll_to(page, fig_id, 0.7)
    at = page.evaluate(GEOMETRY_JS, [fig_id, control])
    assert at["top"] == pytest.approx(at["strip"], abs=1)  # stuck just under the strip...
    assert at["height"] <= 0.15 * at["view"]  # ...taking little of the screen...
    assert at["uncovered"]  # ...and nothing lies over its controls
    before = page.evaluate("id => JSON.stringify(K3.figure(id).state())", fig_id)
    page.mouse.click(at["x"] + (20 if "range" in control else 0), at["y"])
    after = page.evaluate("id => JSON.stringify(K3.figure(id).state())", fig_id)
    assert after != before
    assert page.evaluate("scrollY") == pytest.approx(at["scrollY"], abs=1)  # the tap did not move the page
    # the figure's end has gone up under the strip: the row went with it
    page.evaluate("""id => scrollBy({top: document.getElementById(id).getBoundingClientRect().bottom - 10,
                                     behavior: "instant"})""", fig_id)
    gone = page.evaluate(GEOMETRY_JS, [fig_id, control])
    assert gone["figBottom"] < gone["strip"] and gone["bottom"] <= gone["figBottom"] + 1


@pytest.mark.parametrize("fig_id", CONTROLS)
def test_the_controls_stay_in_the_flow_on_a_desktop(watched, site_url, fig_id):
    page, _ = watched
    open_figure(page, site_url, fig_id)
    assert page.evaluate(GEOMETRY_JS, [fig_id, CONTROLS[fig_id]])["position"] == "static"
