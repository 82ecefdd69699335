import sys, asyncio
from playwright.sync_api import sync_playwright
url = sys.argv[1]; out = sys.argv[2]; width = int(sys.argv[3]) if len(sys.argv) > 3 else 1280
scheme = sys.argv[4] if len(sys.argv) > 4 else "light"
sel = sys.argv[5] if len(sys.argv) > 5 else None
with sync_playwright() as p:
    b = p.chromium.launch(executable_path="/usr/bin/chromium", args=["--no-sandbox","--disable-gpu"])
    pg = b.new_page(viewport={"width": width, "height": 900}, color_scheme=scheme)
    errs=[]
    pg.on("console", lambda m: m.type=="error" and errs.append(m.text))
    pg.on("pageerror", lambda e: errs.append(str(e)))
    pg.goto(url)
    if sel:
        el = pg.locator(sel); el.scroll_into_view_if_needed()
        try: pg.wait_for_selector(sel + "[data-ready='true']", timeout=8000)
        except Exception as e: print("not ready", e)
        pg.wait_for_timeout(500)
        el.screenshot(path=out)
    else:
        pg.wait_for_timeout(300)
        pg.screenshot(path=out, full_page=False)
    print("errors:", errs)
    b.close()
