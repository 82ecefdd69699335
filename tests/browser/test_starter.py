"""The explainer `k3explainer new` makes works in the browser as built: its figure starts from
its page, the slider moves by keyboard, every shown probability is the builder's, the equation's
symbols light the figure, and axe finds nothing serious."""

import pytest

from k3explainer.cli import main

from .support import axe_violations, open_project_figure, serve_project

pytestmark = pytest.mark.browser


@pytest.fixture(scope="module")
def starter(tmp_path_factory, root):
    base = tmp_path_factory.mktemp("starter")
    assert main(["new", str(base / "project")]) == 0
    server, url, data = serve_project(
        base / "project", base / "site", root / "node_modules" / "axe-core" / "axe.min.js"
    )
    yield url, data
    server.shutdown()


def shown(fig):
    return [float(t) for t in fig.locator(".f01t-value").all_inner_texts()]


def test_the_starter_figure_draws_the_builders_numbers_and_moves_by_keyboard(page, starter):
    url, data = starter
    fig, errors = open_project_figure(page, url)
    i = data["default_index"]
    assert shown(fig) == pytest.approx(data["probs"][i], abs=5e-4)
    slider = fig.locator("input[type=range]")
    slider.focus()
    page.keyboard.press("Home")
    assert shown(fig) == pytest.approx(data["probs"][0], abs=5e-4) and shown(fig)[0] > 0.99
    assert "largest probability 1.000" in fig.locator(".f01t-readout").inner_text()
    page.keyboard.press("End")
    assert shown(fig) == pytest.approx(data["probs"][-1], abs=5e-4)
    assert f"fig-01.t={len(data['taus']) - 1}" in page.url
    page.locator("#temperature math [data-sym='sm-tau']").first.dispatch_event("pointerover")
    assert "sym-on" in slider.get_attribute("class")
    assert axe_violations(page, "#fig-01") == []
    assert errors == []
