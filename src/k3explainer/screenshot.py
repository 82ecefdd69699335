"""Look at what you built: `python -m k3explainer.screenshot URL OUT.png [WIDTH] [light|dark] [SELECTOR]`.

Opens URL in Debian's Chromium at WIDTH (default 1280) in the given colour scheme; with a
SELECTOR (e.g. "#fig-06") it scrolls the element in, waits until the figure is ready and
captures just that element, otherwise the first screen. Prints any console errors.
"""
import sys

from playwright.sync_api import sync_playwright

from .browser import LAUNCH


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
            page.wait_for_selector(f"{selector}[data-ready='true']", timeout=30000)
            element = page.locator(selector)
            element.scroll_into_view_if_needed()
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
