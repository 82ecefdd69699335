"""Every move lands: the reader's path on a fresh page, never the mechanism on a warm one.

Each case loads the article anew, because a page that has been scrolled through has its sections
laid out (they skip layout until they near the viewport, base.css) and hides what a new reader
meets: a page whose height below the window is still an estimate. From there a click on a link
(journey stage, prose cross-reference, figure link) must bring its target's heading or title fully
into view below the sticky strip once the page settles, with smooth scrolling and with reduced
motion; Back returns to where the reader was; and a long jump of any other kind (scrollIntoView,
the End key, window.scrollTo) leaves what the reader looks at where it landed, with the figures in
view started."""

from __future__ import annotations

import pytest

from tests.browser.landing import BOX_JS, SETTLED_JS, SIZES, fresh, in_view_below_strip, motion_for, title_of

pytestmark = pytest.mark.browser


@pytest.mark.parametrize("size", SIZES)
def test_every_journey_stage_lands_from_the_top_of_a_fresh_page(watched, site_url, size):
    """Each stage at both sizes; smooth scrolling and reduced motion take turns (motion_for)."""
    page, _ = watched
    fresh(page, site_url, size, motion_for(size, 0))
    stages = page.eval_on_selector_all(".journey-stop a", "as => as.map(a => a.dataset.journey)")
    assert len(stages) == 18
    missed = {}
    for i, stage in enumerate(stages):
        if i:
            fresh(page, site_url, size, motion_for(size, i))
        page.locator(f"a[data-journey='{stage}']").click()
        page.evaluate(SETTLED_JS)
        box = page.evaluate(BOX_JS, title_of(stage))
        if not in_view_below_strip(box):
            missed[f"{stage} ({motion_for(size, i)})"] = box
        assert page.url.split("#")[1].split("&")[0] == stage  # a figure in view may add its state after it
    assert missed == {}


def prose_links(page):
    """In-page links written in the prose (not the strip, not a figure's own controls) to another
    place in the sections (a citation's number, which goes to the reference list, is not one),
    with the section each sits in: {section: [target, ...]}."""
    return page.evaluate("""() => {
      const out = {};
      document.querySelectorAll('section.section a[href^="#"]').forEach(a => {
        if (a.closest('figure') || a.classList.contains('skip-link')) return;
        const id = decodeURIComponent(a.getAttribute('href').slice(1));
        if (!document.getElementById(id) || !document.getElementById(id).closest('section.section')) return;
        (out[a.closest('section').id] = out[a.closest('section').id] || []).push(id);
      });
      return out; }""")


@pytest.mark.parametrize("size", SIZES)
def test_far_links_land_from_the_top_the_middle_and_the_end(watched, site_url, size):
    """From the first, a middle and the last section, the reader clicks an in-page link of that
    section's prose (scrolled to it on a fresh page, so what lies between is still an estimate);
    and from the top, a figure's own link to the first, a middle and the last figure. Smooth
    scrolling and reduced motion take turns (motion_for)."""
    page, _ = watched
    fresh(page, site_url, size)
    links = prose_links(page)
    sections = page.eval_on_selector_all("section.section", "ss => ss.map(s => s.id)")
    with_links = [s for s in sections if s in links]
    picks = [with_links[0], with_links[len(with_links) // 2], with_links[-1]]
    figures = page.eval_on_selector_all("figure.fig[id]", "fs => fs.map(f => f.id)")
    missed = {}
    for i, where in enumerate(picks):
        target = max(links[where], key=lambda t: abs(sections.index(where) - section_index(page, sections, t)))
        fresh(page, site_url, size, motion_for(size, i))
        link = page.locator(f"section#{where} a[href='#{target}']:not(figure a)").first
        link.evaluate("a => a.scrollIntoView({block: 'center', behavior: 'instant'})")
        page.evaluate(SETTLED_JS)
        link.click()
        page.evaluate(SETTLED_JS)
        box = page.evaluate(BOX_JS, title_of(target))
        if not in_view_below_strip(box):
            missed[f"{where} → {target} ({motion_for(size, i)})"] = box
    for i, fig in enumerate((figures[0], figures[len(figures) // 2], figures[-1]), start=len(picks)):
        fresh(page, site_url, size, motion_for(size, i))
        page.evaluate(
            """id => { const a = document.createElement('a'); a.href = '#' + id; a.id = 'test-link';
            a.textContent = 'go'; a.style.cssText = 'position: fixed; right: 0; bottom: 0; z-index: 99';
            document.body.appendChild(a); }""",
            fig,
        )
        page.locator("#test-link").click()
        page.evaluate(SETTLED_JS)
        box = page.evaluate(BOX_JS, title_of(fig))
        if not in_view_below_strip(box):
            missed[f"top → {fig} ({motion_for(size, i)})"] = box
    assert missed == {}


def section_index(page, sections, target):
    return sections.index(page.evaluate("id => document.getElementById(id).closest('section').id", target))
