"""The example explainer in examples/bloom-filter works in the browser as built: both controls move
the figure by keyboard, the readout and the bit array show the builder's numbers, the equation's
symbols light the figure, and axe finds nothing serious."""

import re

import pytest

from .support import axe_violations, open_project_figure, serve_project

pytestmark = pytest.mark.browser


@pytest.fixture(scope="module")
def bloom(tmp_path_factory, root):
    server, url, data = serve_project(
        root / "examples" / "bloom-filter",
        tmp_path_factory.mktemp("bloom") / "site",
        root / "node_modules" / "axe-core" / "axe.min.js",
    )
    yield url, data
    server.shutdown()


def readout(fig):
    m = re.search(
        r"After (\d+) items with k = (\d+): (\d+) of (\d+) bits set; wrong yes to ([\d.]+)% .* formula ([\d.]+)%",
        fig.locator(".f01b-readout").inner_text(),
    )
    return [int(m[1]), int(m[2]), int(m[3]), int(m[4]), float(m[5]), float(m[6])]


def test_the_example_figure_shows_the_builders_filter_by_keyboard(page, bloom):
    url, data = bloom
    fig, errors = open_project_figure(page, url)
    fig.locator("input[type=range]").focus()
    page.keyboard.press("End")
    fig.locator("[role=radio][aria-checked=true]").focus()  # k = 3, the default
    page.keyboard.press("ArrowRight")  # k = 4
    i, n = data["k_values"].index(4), data["n_max"]
    assert readout(fig) == [
        n,
        4,
        data["bits_set"][i][n],
        data["m"],
        pytest.approx(100 * data["measured"][i][n], abs=0.05),
        pytest.approx(100 * data["formula"][i][n], abs=0.05),
    ]
    set_bits = fig.locator(".f01b-bit").evaluate_all(
        "cs => cs.map((c, b) => c.classList.contains('is-set') ? b : -1).filter(b => b >= 0)"
    )
    assert len(set_bits) == data["bits_set"][i][n]
    last = fig.locator(".f01b-bit").evaluate_all(
        "cs => cs.map((c, b) => c.classList.contains('is-last') ? b : -1).filter(b => b >= 0)"
    )
    assert sorted(last) == sorted(set(data["items"][i][n - 1]))
    assert f"fig-01.n={n}" in page.url and "fig-01.k=4" in page.url
    page.locator("#bloom-filter math [data-sym='bf-k']").first.dispatch_event("pointerover")
    assert fig.locator("[role=radio].sym-on").count() == len(data["k_values"])
    assert axe_violations(page, "#fig-01") == []
    assert errors == []
