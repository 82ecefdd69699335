"""Browser fixtures (a plugin of the root conftest.py, so figure folders' tests have them too): a
page on the built site that fails the test on any console error or any request to another host."""

from __future__ import annotations

from urllib.parse import urlsplit

import pytest


class Watch:
    def __init__(self, page, origin: str):
        self.errors: list[str] = []
        self.foreign: list[str] = []
        self.requests: list[str] = []

        def on_request(req):
            self.requests.append(req.url)
            if urlsplit(req.url).scheme in ("http", "https") and not req.url.startswith(origin):
                self.foreign.append(req.url)

        self.page = page
        self.handlers = {
            "console": lambda m: m.type == "error" and self.errors.append(m.text),
            "pageerror": lambda e: self.errors.append(str(e)),
            "request": on_request,
        }
        for event, handler in self.handlers.items():
            page.on(event, handler)

    def stop(self):
        """A shared page outlives the test: stop listening for it."""
        for event, handler in self.handlers.items():
            self.page.remove_listener(event, handler)


@pytest.fixture(scope="module")
def module_page(browser, browser_context_args):
    """One page per test module that asks for it: a load costs ~0.5 s for a figure's test page and
    ~1.5 s for the whole article, a hash change on an open page ~0.05 s, so `open_figure` and
    `open_at_width` reuse this page and reset figures through the URL."""
    context = browser.new_context(**browser_context_args)
    page = context.new_page()
    page.set_default_timeout(15000)
    yield page
    context.close()


@pytest.fixture
def page(request, module_page, browser, browser_context_args):
    """Figure test modules share one page, reset between tests (viewport, media, pointer, focus);
    other modules (the whole-page suite) get a fresh page per test."""
    if not request.module.__name__.rsplit(".", 1)[-1].startswith("test_fig_"):
        context = browser.new_context(**browser_context_args)
        yield context.new_page()
        context.close()
        return
    page = module_page
    size = page.viewport_size
    yield page
    page.set_viewport_size(size)
    page.emulate_media(media="screen", color_scheme="light", reduced_motion="no-preference")
    page.mouse.move(0, 0)
    page.evaluate("() => document.activeElement && document.activeElement.blur && document.activeElement.blur()")


def _watching(page, site_url):
    page.set_default_timeout(15000)
    watch = Watch(page, site_url)
    yield page, watch
    watch.stop()
    assert watch.errors == [], f"console errors: {watch.errors}"
    assert watch.foreign == [], f"requests to other hosts: {watch.foreign}"


@pytest.fixture
def watched(page, site_url):
    """(page, watch) — asserts at teardown that nothing went wrong in the console or the network."""
    yield from _watching(page, site_url)


@pytest.fixture
def watched_shared(module_page, site_url):
    """`watched` on the module's one page, for whole-page tests that only read the article (or put
    back what they change): the page stays open, with its figures started, for the next test."""
    yield from _watching(module_page, site_url)
