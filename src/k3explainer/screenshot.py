"""Look at what you built: `python -m k3explainer.screenshot URL OUT.png [WIDTH] [light|dark] [SELECTOR]`.

Opens URL in Debian's Chromium at WIDTH (default 1280) in the given colour scheme; with a
SELECTOR (a figure "#fig-06", a section "#kda", or any part of one, "#fig-16 table") it scrolls
the element in, waits until every live figure it holds or sits in is ready and the fonts have
loaded, and captures just that element; otherwise the first screen. Prints any console errors.
"""

import sys

from playwright.sync_api import sync_playwright

from .browser import LAUNCH

# The live figures (figure[data-src]) inside the element or around it have all drawn.
READY = """(sel) => {
  const el = document.querySelector(sel);
  if (!el) return false;
  const figures = [...el.querySelectorAll("figure[data-src]"), el.closest("figure[data-src]")].filter(Boolean);
  return figures.every(f => f.dataset.ready === "true");
}"""


def main(argv: list[str]) -> int:
    if len(argv) < 2:
        print(__doc__)
        return 2
    url, out = argv[0], argv[1]
    width = int(argv[2]) if len(argv) > 2 else 1280
    scheme = argv[3] if len(argv) > 3 else "light"
    selector = argv[4] if len(argv) > 4 else None
    errors: list[str] = []
    with sync_playwright() as p:
        browser = p.chromium.launch(**LAUNCH)
        page = browser.new_page(viewport={"width": width, "height": 900}, color_scheme=scheme)
        page.on("console", lambda m: m.type == "error" and errors.append(m.text))
        page.on("pageerror", lambda e: errors.append(str(e)))
        page.goto(url)
        if selector:
            page.evaluate("() => window.K3 && K3.initAll()")
            page.wait_for_function(READY, arg=selector, timeout=30000)
            # A section far from view skips layout (content-visibility: auto) and counts as an estimate
            # until laid out; an element taller than the screen is captured from a page grown to its
            # full height, which lays out those sections mid-capture and moves the element from under
            # the clip (FIG 06 came out as the end of §05). Laid out first, the page holds still.
            page.add_style_tag(content="section.section { content-visibility: visible !important; }")
            element = page.locator(selector).first
            element.scroll_into_view_if_needed()
            page.evaluate("() => document.fonts.ready")
            page.wait_for_timeout(400)
            element.screenshot(path=out)
        else:
            page.wait_for_timeout(400)
            page.screenshot(path=out)
        browser.close()
    print(f"wrote {out}; console errors: {errors or 'none'}")
    return 1 if errors else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
