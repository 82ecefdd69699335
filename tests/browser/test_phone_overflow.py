"""At phone width (390 px) nothing is cut off silently: every figure part, equation and table that
is wider than its column either fits, or scrolls sideways and shows that it does (a faded edge and
a "scroll →" hint, drawn by 60-page.js + base.css from data-overflow), and no figure scrolls a
region by itself."""

import pytest

from k3explainer.reserve import state_hashes

from .support import spec_heights

pytestmark = pytest.mark.browser

PHONE = {"width": 390, "height": 844}

# Every problem inside `scope` (a selector; the whole page when null), each as {where, kind, what,
# ...}. `where` is the figure's id, or "text:<section>" for the article's own equations and tables.
PROBLEMS_JS = r"""(scope) => {
  const vw = document.documentElement.clientWidth, out = [];
  const where = el => { const f = el.closest('figure[id]'); if (f) return f.id;
    const s = el.closest('section[id]'); return 'text:' + (s ? s.id : el.closest('[id]')?.id); };
  const what = el => el.tagName.toLowerCase() + [...el.classList].map(c => '.' + c).join('');
  const skip = el => el.closest('.visually-hidden, svg, .js-plotly-plot, .journey') || (!scope && el.closest('section.section'));
  const hidden = el => { for (let p = el; p && p !== document.body; p = p.parentElement) {
    const cs = getComputedStyle(p); if (cs.display === 'none' || cs.visibility === 'hidden') return true; } return false; };
  const shows = (el, side) => {  // the fade on that edge, and at the start the "scroll →" pill
    const cs = getComputedStyle(el), mask = cs.maskImage !== 'none' ? cs.maskImage : cs.webkitMaskImage;
    if (!el.dataset.overflow || !mask || mask === 'none') return false;
    if (el.scrollLeft > 1) return true;
    const hint = getComputedStyle(el, '::after');
    return hint.content.includes('scroll') && hint.display !== 'none' && hint.visibility !== 'hidden';
  };
  for (const el of document.querySelector(scope || 'main').querySelectorAll('*')) {
    if (skip(el) || hidden(el)) continue;
    const cs = getComputedStyle(el), ox = cs.overflowX, over = el.scrollWidth > el.clientWidth + 1;
    const row = {where: where(el), what: what(el), content: el.scrollWidth, box: el.clientWidth};
    if (over && (ox === 'auto' || ox === 'scroll')) {
      if (!shows(el)) out.push({...row, kind: 'scrolls without a visible affordance'});
      if (el.closest('figure') && el.scrollLeft > 1) out.push({...row, kind: 'scrolled by the figure, not the reader'});
    } else if (over && (ox === 'hidden' || ox === 'clip') && el.clientWidth > 2) {
      out.push({...row, kind: 'cut off (overflow hidden)'});
    }
    const r = el.getBoundingClientRect();
    if (r.width > 0 && r.height > 0 && (r.right > vw + 1 || r.left < -1)) {
      let p = el.parentElement, held = false;
      for (; p && p !== document.body; p = p.parentElement) if (getComputedStyle(p).overflowX !== 'visible') { held = true; break; }
      if (!held) out.push({where: where(el), what: what(el), kind: 'off the screen', left: Math.round(r.left), right: Math.round(r.right)});
    }
  }
  if (!scope && document.documentElement.scrollWidth > vw) out.push({where: 'page', kind: 'the page scrolls sideways', content: document.documentElement.scrollWidth, box: vw});
  return out;
}"""

ALL_SETTLED_JS = """() => [...document.querySelectorAll('figure[data-src]')]
  .every(f => f.dataset.ready === 'true' || f.dataset.status === 'error')"""


def open_phone(page, site_url, hash_=""):
    page.set_viewport_size(PHONE)
    page.emulate_media(reduced_motion="reduce")
    page.goto(site_url + "index.html" + hash_)
    page.evaluate("K3.initAll()")
    page.wait_for_function(ALL_SETTLED_JS, timeout=60000)
    page.locator(".math-block").first.scroll_into_view_if_needed()  # math fonts load near the first formula
    page.wait_for_function("() => !!document.getElementById('k3-math-fonts')")
    page.evaluate("() => document.fonts.ready.then(() => new Promise(r => setTimeout(r, 300)))")


# A reader meets the article one section at a time: a section is laid out when it comes near (it
# skips layout until then, base.css) and the page marks its scrolling regions then; the same for
# what a closed <details> holds, when it is opened. So each section is judged while it is in view,
# with everything in it opened, then the page as a whole.
FRAMES_JS = "() => new Promise(r => requestAnimationFrame(() => requestAnimationFrame(() => setTimeout(r, 0))))"


def problems_as_read(page) -> list[dict]:
    found = []
    for sid in page.eval_on_selector_all("section.section", "els => els.map(e => e.id)"):
        page.evaluate(
            """id => { const s = document.getElementById(id);
            s.querySelectorAll('details').forEach(d => { d.open = true; }); s.scrollIntoView({behavior: 'instant'}); }""",
            sid,
        )
        page.evaluate(FRAMES_JS)
        page.evaluate("id => K3.markScrollers(document.getElementById(id))", sid)
        found += page.evaluate(PROBLEMS_JS, f"#{sid}")
    page.evaluate("() => scrollTo({top: 0, behavior: 'instant'})")
    return found + page.evaluate(PROBLEMS_JS, None)  # what lies outside the sections, and the page


def summary(problems):
    by = {}
    for p in problems:
        by.setdefault(p["where"], set()).add(f"{p['what'] if 'what' in p else ''}: {p['kind']}")
    return {k: sorted(v) for k, v in sorted(by.items())}


def test_nothing_overflows_a_phone_without_showing_that_it_scrolls(page, site_url):
    open_phone(page, site_url)
    assert summary(problems_as_read(page)) == {}


def test_nor_in_the_states_figures_reserve_room_for(page, site_url):
    """The largest views the specs list (FIG 03's slider ends, FIG 04's last decode step...): still
    nothing cut off, and no figure has scrolled a region away from its labels by itself."""
    _, reserve_for = spec_heights()
    found = {}
    for hash_ in state_hashes(reserve_for)[1:]:
        open_phone(page, site_url, hash_)
        for where, rows in summary(problems_as_read(page)).items():
            found.setdefault(where, set()).update(rows)
    assert found == {}


def test_the_affordance_follows_the_reader_and_leaves_when_it_fits(page, site_url):
    """The widest prose equation: hint at the start, fades on both edges mid-way, only the left at
    the end; at desktop width it fits and shows nothing. The check above can fail: a region made
    too wide with the affordance switched off is reported."""
    open_phone(page, site_url)
    block = page.locator("#kimi-k3 .math-block").first
    block.scroll_into_view_if_needed()  # its section is laid out (and its regions watched) when near
    page.evaluate("el => { el.style.maxWidth = '120px'; }", block.element_handle())
    page.wait_for_function("el => el.dataset.overflow === 'end'", arg=block.element_handle())
    assert page.evaluate("el => getComputedStyle(el, '::after').content", block.element_handle()).startswith('"scroll')
    page.evaluate("el => { el.scrollLeft = 20; }", block.element_handle())
    page.wait_for_function("el => el.dataset.overflow === 'both'", arg=block.element_handle())
    assert page.evaluate("el => getComputedStyle(el, '::after').content", block.element_handle()) == "none"
    page.evaluate("el => { el.scrollLeft = el.scrollWidth; }", block.element_handle())
    page.wait_for_function("el => el.dataset.overflow === 'start'", arg=block.element_handle())
    assert block.get_attribute("tabindex") == "0"  # reachable by keyboard while it scrolls
    # with the affordance removed the page check reports it
    page.add_style_tag(
        content="#kimi-k3 .math-block { mask-image: none !important; -webkit-mask-image: none !important; }"
    )
    page.evaluate("el => { el.scrollLeft = 0; }", block.element_handle())
    found = summary(page.evaluate(PROBLEMS_JS, "#kimi-k3"))
    assert "div.math-block: scrolls without a visible affordance" in found["text:kimi-k3"]
    page.evaluate("el => { el.style.maxWidth = ''; }", block.element_handle())
    page.set_viewport_size({"width": 1280, "height": 900})
    page.wait_for_function(
        "el => !el.hasAttribute('data-overflow') && !el.hasAttribute('tabindex')", arg=block.element_handle()
    )


def test_a_wide_equation_breaks_between_terms_on_a_phone(page, site_url):
    """The build ends a row (a top-level <mrow>) after each top-level relation and operator, and
    the rows are laid out as a wrapping line: a display equation wider than the column wraps
    between rows (each stays whole), so no term is split."""
    open_phone(page, site_url)
    lines = page.evaluate("""() => [...document.querySelectorAll('.math-block math.math-display')].map(m => {
        const rows = [...m.querySelectorAll(':scope > mrow')];
        let lines = 0, bottom = -Infinity;  // rows share a line when they overlap vertically (baseline-aligned)
        for (const b of rows.map(r => r.getBoundingClientRect()).sort((a, c) => a.top - c.top)) {
          if (b.top >= bottom - 1) { lines++; bottom = b.bottom; } else bottom = Math.max(bottom, b.bottom);
        }
        return {lines, whole: rows.every(r => r.getClientRects().length === 1)};
    })""")
    assert lines and all(x["whole"] for x in lines)
    assert any(x["lines"] > 1 for x in lines)  # at 390 px at least one long equation does wrap
