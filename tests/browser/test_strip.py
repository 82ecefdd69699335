"""The sticky journey strip: one compact line, anchors land below it, and it shows when it scrolls."""

import pytest

pytestmark = pytest.mark.browser

WIDTHS = {"desktop": {"width": 1280, "height": 900}, "phone": {"width": 390, "height": 844}}

# The figure title's box against the strip's bottom edge and the window's bottom.
TITLE_JS = """id => {
  const t = document.getElementById(id + '-title').getBoundingClientRect();
  const s = document.querySelector('.journey').getBoundingClientRect();
  return {top: t.top, bottom: t.bottom, strip: s.bottom, view: innerHeight};
}"""
SETTLE_JS = "() => new Promise(r => requestAnimationFrame(() => requestAnimationFrame(() => setTimeout(r, 50))))"
# Both ways to a figure in one round trip: the page's own click handler on an in-page link, then
# (from the top, the hash cleared) the browser's fragment navigation; the title's box after each.
BOTH_WAYS_JS = (
    """async id => {
  const settle = """
    + SETTLE_JS
    + """, title = """
    + TITLE_JS
    + """;
  const a = document.getElementById('test-link'); a.href = '#' + id; a.click();
  await settle(); const link = title(id);
  scrollTo(0, 0); history.replaceState(null, '', location.pathname);
  location.hash = id;
  await settle(); return [link, title(id)];
}"""
)


def figure_ids(page):
    return page.eval_on_selector_all("figure.fig[id]", "els => els.map(e => e.id)")


def below_strip(box):
    return box["top"] >= box["strip"] - 0.5 and box["bottom"] <= box["view"]


@pytest.mark.parametrize("size", WIDTHS)
def test_following_a_link_to_any_figure_shows_its_whole_title_below_the_strip(page, site_url, size):
    page.set_viewport_size(WIDTHS[size])
    page.emulate_media(reduced_motion="reduce")
    page.goto(site_url + "index.html")
    ids = figure_ids(page)
    assert len(ids) >= 18
    hidden = {}
    # an in-page link (the page's own click handler) and the browser's fragment navigation
    page.evaluate("""() => { const a = document.createElement('a'); a.id = 'test-link'; a.textContent = 'go';
        a.style.cssText = 'position: fixed; right: 0; bottom: 0; z-index: 99'; document.body.appendChild(a); }""")
    for fid in ids:
        link, address = page.evaluate(BOTH_WAYS_JS, fid)
        if not below_strip(link):
            hidden[fid + " (link)"] = link
        if not below_strip(address):
            hidden[fid + " (address)"] = address
    assert hidden == {}


@pytest.mark.parametrize("size", WIDTHS)
def test_a_shared_link_lands_below_the_strip_on_a_fresh_load(page, site_url, size):
    page.set_viewport_size(WIDTHS[size])
    page.emulate_media(reduced_motion="reduce")
    page.goto(site_url + "index.html#fig-10")
    page.wait_for_function(
        """() => { const t = document.getElementById('fig-10-title').getBoundingClientRect();
        return t.top > 0 && t.top < innerHeight / 2; }""",
        timeout=10000,
    )
    page.wait_for_timeout(300)
    assert below_strip(page.evaluate(TITLE_JS, "fig-10"))


@pytest.mark.parametrize("size", WIDTHS)
def test_the_strip_is_one_compact_line_and_its_height_drives_the_anchor_offset(page, site_url, size):
    page.set_viewport_size(WIDTHS[size])
    page.goto(site_url + "index.html")
    height = page.evaluate("document.querySelector('.journey').getBoundingClientRect().height")
    assert height <= 44
    tops = page.eval_on_selector_all(
        ".journey-stop a", "els => els.map(a => Math.round(a.getBoundingClientRect().top))"
    )
    assert len(set(tops)) == 1  # one line
    var = page.evaluate("parseFloat(getComputedStyle(document.documentElement).getPropertyValue('--strip-h'))")
    assert var == pytest.approx(height, abs=1)
    # a larger text size makes the strip taller; the offset follows
    page.add_style_tag(content=".journey-stage { font-size: 1.4rem !important; }")
    page.wait_for_function("""() => Math.abs(parseFloat(getComputedStyle(document.documentElement).getPropertyValue('--strip-h'))
        - document.querySelector('.journey').getBoundingClientRect().height) < 1""")
    margin = page.evaluate("parseFloat(getComputedStyle(document.getElementById('fig-10')).scrollMarginTop)")
    assert margin >= page.evaluate("document.querySelector('.journey').getBoundingClientRect().height")


def test_the_strip_shows_that_it_scrolls(page, site_url):
    page.set_viewport_size(WIDTHS["phone"])
    page.emulate_media(reduced_motion="reduce")
    page.goto(site_url + "index.html")
    strip = page.locator(".journey-list")
    arrow = "side => getComputedStyle(document.querySelector('.journey'), side).display"
    fade = "() => getComputedStyle(document.querySelector('.journey-list')).webkitMaskImage"
    page.wait_for_function("() => document.querySelector('.journey-list').dataset.overflow === 'end'")
    assert page.evaluate(arrow, "::after") == "block" and page.evaluate(arrow, "::before") == "none"
    assert "gradient" in page.evaluate(fade)
    last = page.locator(".journey-stop a").last
    box = last.bounding_box()
    assert box["x"] + box["width"] > 390  # the last stages are off to the right...
    strip.evaluate("el => { el.scrollLeft = el.scrollWidth; }")
    page.wait_for_function("() => document.querySelector('.journey-list').dataset.overflow === 'start'")
    assert page.evaluate(arrow, "::before") == "block" and page.evaluate(arrow, "::after") == "none"
    box = last.bounding_box()
    assert box["x"] + box["width"] <= 390  # ...and scroll fully into view
    # reading a section brings its stage into the strip's view
    page.locator("#mla").scroll_into_view_if_needed()
    page.wait_for_selector("a[data-journey='mla'][aria-current='true']")
    page.wait_for_timeout(300)
    cur = page.locator("a[data-journey='mla']").bounding_box()
    assert cur["x"] >= 0 and cur["x"] + cur["width"] <= 390
