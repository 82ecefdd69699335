"""Shared fixtures: the project root, a site built once per session, and a local server for it.
At the project's root, so the tests in tests/ and in each figure's folder (figures/*/test_*.py)
share them; the browser fixtures are in tests/browser/fixtures.py."""

from __future__ import annotations

import shutil
import sys
from pathlib import Path

import pytest

from k3explainer.site import projectcode

pytest_plugins = ["tests.browser.fixtures"]

# pytest rewrites every test module's asserts on import and keeps the result in __pycache__, unless
# bytecode writing is off (PYTHONDONTWRITEBYTECODE, set on these machines): then each of the four
# processes of a run rewrites all ~240 modules again, 7.6 s of collection against 3.4 s with the
# cache. The project's own test modules are the only ones imported after this line.
sys.dont_write_bytecode = False

# helpers that assert (axe checks, shown numbers) report which comparison failed, as tests do
pytest.register_assert_rewrite("tests.browser.support")

ROOT = Path(__file__).resolve().parent

# the flagship's own Python as the build sees it (k3project.figures, k3project.experiments), so
# tests import the article's experiments the way its builders do
projectcode.mount(ROOT)


def pytest_addoption(parser):
    parser.addoption(
        "--update-golden",
        action="store_true",
        help="rewrite the golden files (figure data, directive fixtures) from what the build produces now",
    )


@pytest.fixture(scope="session")
def update_golden(request) -> bool:
    return request.config.getoption("--update-golden")


@pytest.fixture(scope="session")
def root() -> Path:
    return ROOT


@pytest.fixture(scope="session")
def site_dir(tmp_path_factory) -> Path:
    """The real content built once into a scratch folder."""
    from k3explainer.site.pipeline import Project, build

    out = tmp_path_factory.mktemp("site") / "_site"
    build(Project(ROOT), out)
    test_assets = out / "__test__"  # test-only scripts, served from the site's origin
    test_assets.mkdir()
    shutil.copy(ROOT / "node_modules" / "axe-core" / "axe.min.js", test_assets)
    return out


@pytest.fixture(scope="session")
def site_url(site_dir) -> str:
    from k3explainer.browser import serve
    from tests.browser.pages import write_figure_pages

    write_figure_pages(site_dir)  # each figure's test page, beside index.html
    server, url = serve(site_dir)  # quiet, also when a browser drops a connection
    yield url.removesuffix("index.html")
    server.shutdown()


@pytest.fixture(scope="session")
def browser_type_launch_args(browser_type_launch_args):
    """Debian's chromium, never a downloaded browser; no background traffic to other hosts."""
    return {
        **browser_type_launch_args,
        "executable_path": shutil.which("chromium") or "/usr/bin/chromium",
        "args": [
            "--no-sandbox",
            "--disable-gpu",
            "--disable-background-networking",
            "--disable-component-update",
            "--disable-sync",
            "--no-first-run",
            "--disable-quic",
        ],
    }


def pytest_xdist_auto_num_workers(config):
    """Workers for `-n auto`, on this machine's (and CI's) two cores. A browser test waits on frames,
    timers and round trips between Python, Playwright's driver and Chromium, so two workers left a
    core ~35 % idle and three kept both busy (the whole suite: 309 s against 336 s, four: 443 s
    against 418 s). Without the browser the work is all CPU, one worker per core is fastest
    (`-m "not browser"`: 28.8 s with two, 33.0 s with three)."""
    return 2 if config.option.markexpr.replace(" ", "") == "notbrowser" else 3


def pytest_collection_modifyitems(items):
    """Every test that drives Chromium is a browser test, marked or not, so `-m "not browser"`
    (the inner loop) never starts one."""
    for item in items:
        if {"page", "browser", "module_page", "context"} & set(getattr(item, "fixturenames", ())):
            item.add_marker(pytest.mark.browser)
