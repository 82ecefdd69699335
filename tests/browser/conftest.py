"""Browser fixtures: a page on the built site that fails the test on any console error or any
request to another host."""
from __future__ import annotations

from urllib.parse import urlsplit

import pytest


class Watch:
    def __init__(self, page, origin: str):
        self.errors: list[str] = []
        self.foreign: list[str] = []
        self.requests: list[str] = []
        page.on("console", lambda m: m.type == "error" and self.errors.append(m.text))
        page.on("pageerror", lambda e: self.errors.append(str(e)))

        def on_request(req):
            self.requests.append(req.url)
            if urlsplit(req.url).scheme in ("http", "https") and not req.url.startswith(origin):
                self.foreign.append(req.url)

        page.on("request", on_request)


@pytest.fixture
def watched(page, site_url):
    """(page, watch) — asserts at teardown that nothing went wrong in the console or the network."""
    page.set_default_timeout(15000)
    watch = Watch(page, site_url)
    yield page, watch
    assert watch.errors == [], f"console errors: {watch.errors}"
    assert watch.foreign == [], f"requests to other hosts: {watch.foreign}"


