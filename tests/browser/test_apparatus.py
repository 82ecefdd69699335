"""The research apparatus a reader uses: citation and cross-reference cards on hover and on focus,
a state link that opens its figure in that state, sidenotes in the margin or opened in place, at a
desktop and a phone width, with axe clean while each is open. One page per width, reused."""

import re

import pytest

from .support import axe_violations, shipped_data

pytestmark = pytest.mark.browser

WIDTHS = {"desktop": 1280, "phone": 390}


@pytest.fixture(params=list(WIDTHS))
def article(request, watched_shared, site_url):
    page, _ = watched_shared
    page.set_viewport_size({"width": WIDTHS[request.param], "height": 900})
    if page.url.split("#")[0] != site_url + "index.html":
        page.goto(site_url + "index.html")
    page.keyboard.press("Escape")  # no card or note left open by the test before
    return page, request.param


def _centre(page, locator):
    locator.evaluate("el => el.scrollIntoView({block: 'center'})")
    page.wait_for_function("() => document.fonts.status === 'loaded'")
    return locator


def test_a_citation_shows_its_entry_on_hover_and_on_focus(article):
    page, width = article
    cite = _centre(page, page.locator("#deltanet a.cite-ref").first)
    entry = page.locator(cite.get_attribute("href"))
    title = entry.locator(".ref-title").inner_text()
    if width == "desktop":
        cite.hover()
    else:
        cite.focus()
    card = page.locator(".k3-card")
    card.wait_for(state="visible")
    assert card.locator(".ref-title").inner_text() == title
    assert card.get_attribute("aria-hidden") == "true" and card.locator(".ref-cited").count() == 0
    assert card.locator("a").evaluate_all("as => as.every(a => a.tabIndex === -1)")  # never a tab stop
    box, vw = card.bounding_box(), page.viewport_size["width"]
    assert box["x"] >= 0 and box["x"] + box["width"] <= vw  # the card fits the window
    assert axe_violations(page, ".k3-card") == []
    page.keyboard.press("Escape")
    assert card.is_hidden()
    assert cite.get_attribute("aria-describedby") == entry.get_attribute("id")  # what a screen reader hears


def test_a_cross_reference_previews_its_figure_and_says_which_state_it_opens(article):
    page, width = article
    link = _centre(page, page.locator('#moe a.xref[href^="#fig-11&"]'))
    link.focus()
    card = page.locator(".k3-card")
    card.wait_for(state="visible")
    title = page.locator("#fig-11 .fig-title").inner_text()
    assert card.locator(".card-title").inner_text() == title
    assert card.locator(".card-body").inner_text() == page.locator("#fig-11 .fig-takeaway").inner_text()  # the answer
    assert card.locator(".card-state").inner_text() == link.get_attribute("data-state-label")
    assert link.get_attribute("data-state-label").startswith("Opens FIG 11 ")
    page.keyboard.press("Enter")
    page.wait_for_function("() => location.hash.startsWith('#fig-11&')")
    bias = page.locator("#fig-11 button", has_text="Balancing bias")
    page.wait_for_function("b => b.getAttribute('aria-pressed') === 'true'", arg=bias.element_handle())
    page.go_back()  # and Back puts the figure as it was
    page.wait_for_function("b => b.getAttribute('aria-pressed') === 'false'", arg=bias.element_handle())


def test_a_section_reference_previews_its_title_and_summary(article):
    page, _ = article
    link = _centre(page, page.locator('#kv-cache a.xref[href="#attention-cost"]').first)
    link.hover() if article[1] == "desktop" else link.focus()
    card = page.locator(".k3-card")
    card.wait_for(state="visible")
    assert page.locator("#attention-cost .section-summary").inner_text() in card.inner_text()


def test_a_sidenote_sits_in_the_margin_on_a_desktop_and_opens_in_place_on_a_phone(article):
    page, width = article
    ref = _centre(page, page.locator("#deltanet a.sn-ref").first)
    note = page.locator(ref.get_attribute("href"))
    text = page.locator("#deltanet .section-head + p, #deltanet p").first.bounding_box()
    if width == "desktop":
        box = note.bounding_box()
        assert note.is_visible() and box["x"] >= text["x"] + text["width"]  # beside the column, not over it
        assert ref.get_attribute("aria-expanded") is None  # nothing to open
    else:
        assert note.is_hidden() and ref.get_attribute("aria-expanded") == "false"
        ref.focus()
        page.keyboard.press("Enter")
        assert note.is_visible() and ref.get_attribute("aria-expanded") == "true"
        assert axe_violations(page, "#deltanet") == []
        page.keyboard.press("Escape")
        assert note.is_hidden() and ref.get_attribute("aria-expanded") == "false"
    assert note.get_attribute("role") == "note"


@pytest.fixture
def drawn(watched_shared, site_url):
    """The article with every figure drawn (their texts cite too), at a desktop width."""
    page, _ = watched_shared
    page.set_viewport_size({"width": 1280, "height": 900})
    if page.url.split("#")[0] != site_url + "index.html":
        page.goto(site_url + "index.html")
    page.evaluate("K3.initAll()")
    page.wait_for_function(
        "() => [...document.querySelectorAll('figure[data-src]')].every(f => f.dataset.ready === 'true')"
    )
    return page


def test_references_are_numbered_in_the_order_a_reader_meets_them(drawn):
    """Numbers in the text and in fact tooltips, in page order, first meet 1, 2, 3, … with none skipped."""
    seen = drawn.evaluate("""() => [...document.querySelectorAll('a.cite-ref, .fact-ref')]
      .filter(e => !e.closest('#references, .section-notes'))
      .flatMap(e => e.matches('a') ? [+e.textContent] : [...e.textContent.matchAll(/\\[(\\d+)\\]/g)].map(m => +m[1]))""")
    first = list(dict.fromkeys(seen))
    assert first == list(range(1, drawn.locator("#references li.ref").count() + 1))


def test_a_cross_reference_says_its_targets_number(drawn):
    wrong = drawn.evaluate("""() => [...document.querySelectorAll('a.xref')].flatMap(a => {
      const t = document.getElementById(K3._.hash.parse(a.getAttribute('href')).anchor);
      const section = t.closest('section.section');
      const label = t.matches('figure') ? t.querySelector('.fig-label').textContent
        : section ? '§' + section.dataset.stage.padStart(2, '0') : null;
      const said = a.textContent.match(/^(FIG \\S+|§\\d+)$/);
      return said && said[0] !== label ? [a.textContent + ' → ' + a.getAttribute('href')] : [];
    })""")
    assert wrong == []
    assert drawn.locator("a.xref").count() >= 90


def _links_in_data(value) -> list[str]:
    """The in-page links of every HTML text a figure's data ships (what its component shows, in
    whichever state)."""
    if isinstance(value, dict):
        return [h for v in value.values() for h in _links_in_data(v)]
    if isinstance(value, list):
        return [h for v in value for h in _links_in_data(v)]
    return re.findall(r'<a class="xref" href="(#[^"]+)"', value) if isinstance(value, str) else []


def test_backlinks_list_exactly_the_other_places_that_link_here(drawn, site_dir):
    """Under each figure and section: every place that links to it from another section (the prose,
    a caption, a figure's texts in any state), and only those."""
    figures = drawn.evaluate("() => [...document.querySelectorAll('figure[data-src]')].map(f => f.id)")
    shipped = {fid: _links_in_data(shipped_data(site_dir, fid)) for fid in figures}
    mismatched = drawn.evaluate(
        """(shipped) => {
      const home = el => el.closest('section.section');
      const target = href => {
        const t = document.getElementById(K3._.hash.parse(href).anchor);
        return !t ? null : t.matches('figure, section.section') ? t : home(t);  // a heading: its section
      };
      const label = el => el.matches('figure') ? el.querySelector('.fig-label').textContent
        : '§' + el.dataset.stage.padStart(2, '0');
      const links = [...document.querySelectorAll('main a.xref')]
        .filter(a => !a.closest('.backlinks, .fig-mount'))
        .map(a => [a.getAttribute('href'), a.closest('figure') || home(a)]);
      for (const [fid, hrefs] of Object.entries(shipped)) for (const h of hrefs) links.push([h, document.getElementById(fid)]);
      const expected = new Map();
      for (const [href, from] of links) {
        const t = target(href);
        if (!t || !from || home(from) === home(t) || from === t) continue;
        if (!expected.has(t.id)) expected.set(t.id, new Set());
        expected.get(t.id).add(label(from));
      }
      const out = [];
      for (const t of document.querySelectorAll('main figure, main section.section')) {
        const list = t.matches('figure') ? t.querySelector('figcaption > .backlinks') : t.querySelector(':scope > .backlinks');
        const shown = list ? [...list.querySelectorAll('a')].map(a => a.textContent).sort().join() : '';
        const want = [...(expected.get(t.id) || [])].sort().join();
        if (shown !== want) out.push(t.id + ': ' + shown + ' ≠ ' + want);
      }
      return out;
    }""",
        shipped,
    )
    assert mismatched == []
    assert drawn.locator(".backlinks").count() >= 15
