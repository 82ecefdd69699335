"""What the landing tests share: the two window sizes, the motion settings, a fresh page, and
scripts that wait for the page to settle and say where a heading sits."""

from __future__ import annotations

SIZES = {"desktop": {"width": 1280, "height": 800}, "phone": {"width": 390, "height": 844}}
MOTIONS = ("no-preference", "reduce")


def motion_for(size: str, i: int) -> str:
    """The motion setting of a size's i-th landing: alternating, and opposite between the two
    sizes, so each target lands under both settings (at one size each) for half the fresh loads."""
    return MOTIONS[(i + list(SIZES).index(size)) % 2]


# A figure on screen. Only a figure whose section is laid out can be: a skipped section's contents
# are not drawn, and asking where they are would lay that section out, changing the page under test.
IN_VIEW = """f => f.checkVisibility({contentVisibilityAuto: true})
  && f.getBoundingClientRect().bottom > 0 && f.getBoundingClientRect().top < innerHeight"""

# Resolves once the page has stopped moving: the scroll position and the page's height the same
# for 20 frames in a row (a glide, a section laid out, a figure starting or the math font arriving
# all change one or the other), and every figure in view drawn.
SETTLED_JS = (
    """() => new Promise((resolve, reject) => {
  let last = '', same = 0;
  const gaveUp = setTimeout(() => reject(new Error('the page never settled: ' + last)), 15000);
  const tick = () => {
    const inView = [...document.querySelectorAll('figure[data-src]')].filter("""
    + IN_VIEW
    + """);
    const now = scrollY + ' ' + document.documentElement.scrollHeight + ' ' + inView.map(f => f.dataset.ready).join();
    same = now === last && inView.every(f => f.dataset.ready === 'true') ? same + 1 : 0;
    last = now;
    if (same >= 20) { clearTimeout(gaveUp); resolve(); } else requestAnimationFrame(tick);
  };
  tick(); })"""
)

# Where a heading or figure title sits, against the strip's bottom edge and the window's bottom.
BOX_JS = """sel => {
  const t = document.querySelector(sel).getBoundingClientRect();
  const s = document.querySelector('.journey').getBoundingClientRect();
  return {top: Math.round(t.top), bottom: Math.round(t.bottom), strip: Math.round(s.bottom), view: innerHeight};
}"""


def fresh(page, site_url, size, motion="no-preference"):
    page.set_viewport_size(SIZES[size])
    page.emulate_media(reduced_motion=motion)
    page.goto(site_url + "index.html")
    page.wait_for_load_state("load")


def in_view_below_strip(box):
    return box["top"] >= box["strip"] - 0.5 and box["bottom"] <= box["view"]


def title_of(target_id):
    """A section's heading, or a figure's title."""
    return f"#{target_id}-title"
