"""FIG 12 · attention residuals: shares and weights equal the kernels', New query steps to the next seed."""
import numpy as np
import pytest

from k3explainer.kernels import attention_residual, residual_shares, rms_norm

from .support import axe_violations, cell_texts, open_figure, shipped_data, shown_number

pytestmark = pytest.mark.browser
FIG = "fig-12"


@pytest.fixture(scope="module")
def kernel(site_dir):
    data = shipped_data(site_dir, FIG)
    src, d, seed = np.array(data["sources"]), data["d"], data["seed"]
    # the queries are re-drawn here from their seeds: query i ≥ 1 comes from default_rng(seed + i)
    queries = [np.zeros(d)] + [data["query_scale"] * np.random.default_rng(seed + i).standard_normal(d)
                               for i in range(1, len(data["queries"]))]
    np.testing.assert_allclose(np.array(data["queries"]), np.array(queries), rtol=0, atol=1e-12)
    weights = np.array([attention_residual(src, w, np.ones(d))[1] for w in queries])
    scores = np.array([rms_norm(src, np.ones(d)) @ w for w in queries])
    return {"labels": data["labels"], "weights": weights, "scores": scores,
            "shares": residual_shares(len(data["labels"]) - 1), "queries": np.array(queries)}


def column(fig, cls):
    return [shown_number(t) for t in cell_texts(fig.locator(f".f12-list .{cls}"))]


def assert_shows(fig, kernel, q):
    assert column(fig, "f12-share") == pytest.approx(kernel["shares"], abs=0.0005)
    assert column(fig, "f12-alpha") == pytest.approx(kernel["weights"][q], abs=0.0005)
    assert column(fig, "f12-score") == pytest.approx(kernel["scores"][q], abs=0.005)
    w = [shown_number(t) for t in cell_texts(fig.locator("table[data-sym='ar-query'] td"))]
    assert w == pytest.approx(kernel["queries"][q], abs=0.005)
    n = len(kernel["labels"])
    assert sum(column(fig, "f12-alpha")) == pytest.approx(1, abs=0.0005 * n)
    assert sum(column(fig, "f12-share")) == pytest.approx(1, abs=0.0005 * n)
    assert "sum to 1.000; attention weights sum to 1.000" in fig.locator(".f12-sums").inner_text()


def test_default_view_and_equal_shares(watched, site_url, kernel):
    page, _ = watched
    fig = open_figure(page, site_url, FIG)
    assert_shows(fig, kernel, 1)
    assert kernel["shares"][-1] == pytest.approx(1 / 9)  # after layer 8 each source is a ninth
    widths = page.evaluate("[...document.querySelectorAll('#fig-12 .f12-stack')[0].querySelectorAll('rect')]"
                           ".map(r => +r.getAttribute('width'))")
    assert max(widths) - min(widths) < 1e-6  # the plain stack is cut into equal pieces


def test_new_query_by_mouse_and_key_moves_to_the_next_seed(watched, site_url, kernel):
    page, _ = watched
    fig = open_figure(page, site_url, FIG)
    fig.get_by_role("button", name="New query").click()
    assert_shows(fig, kernel, 2)
    assert "query 2 of" in fig.locator(".fig-live").inner_text()
    best = int(np.argmax(kernel["weights"][2]))
    assert f"{kernel['weights'][2][best]:.3f}" in fig.locator(".fig-live").inner_text()
    fig.get_by_role("button", name="New query").focus()
    page.keyboard.press("n")
    assert_shows(fig, kernel, 3)
    fig.get_by_role("button", name="Previous step").click()
    fig.get_by_role("button", name="Previous step").click()
    assert_shows(fig, kernel, 1)
    page.keyboard.press("ArrowLeft")  # focus is on the stepper
    assert_shows(fig, kernel, 0)
    assert column(fig, "f12-alpha") == pytest.approx(kernel["shares"], abs=0.0005)  # zero query = plain mean


def test_sources_select_by_hover_tap_and_arrows(watched, site_url, kernel):
    page, _ = watched
    fig = open_figure(page, site_url, FIG)
    rows = fig.locator(".f12-list [role=option]")
    rows.nth(4).hover()
    assert rows.nth(4).get_attribute("aria-selected") == "true"
    live = fig.locator(".fig-live").inner_text()
    assert kernel["labels"][4] in live and f"{kernel['weights'][1][4]:.3f}" in live
    rows.nth(2).click()
    rows.nth(2).focus()
    page.keyboard.press("ArrowDown")
    assert rows.nth(3).get_attribute("aria-selected") == "true"
    assert page.evaluate("document.activeElement.dataset.i") == "3"
    page.keyboard.press("End")
    assert rows.nth(8).get_attribute("aria-selected") == "true"
    assert "#" in page.url and "fig-12.src=8" in page.url
    # the stacked-bar segment of the selected source is marked in both bars
    assert fig.locator(".f12-seg.is-sel").count() == 2


def test_state_lives_in_the_url_and_history(watched, site_url, kernel):
    page, _ = watched
    fig = open_figure(page, site_url, FIG, "#fig-12.q=5&fig-12.src=2")
    assert_shows(fig, kernel, 5)
    assert fig.locator(".f12-list [role=option]").nth(2).get_attribute("aria-selected") == "true"
    fig.get_by_role("button", name="New query").click()
    assert "fig-12.q=6" in page.url
    assert_shows(fig, kernel, 6)
    page.go_back()
    page.wait_for_function("document.querySelector('#fig-12 .k3-stepper-readout').textContent.includes('5 /')")
    assert_shows(fig, kernel, 5)


def test_equation_symbols_link_both_ways(watched, site_url):
    page, _ = watched
    fig = open_figure(page, site_url, FIG)
    page.locator("#attention-residuals .katex-display [data-sym='ar-query']").first.hover()
    assert fig.locator("table[data-sym='ar-query'].sym-on").count() == 1
    page.locator("#attention-residuals .katex-display [data-sym='ar-weights']").first.hover()
    assert fig.locator(".f12-alpha.sym-on").count() == len(fig.locator(".f12-alpha").all())
    page.locator("#attention-residuals .katex-display [data-sym='ar-sources']").first.hover()
    assert fig.locator(".f12-label.sym-on").count() == 9
    fig.locator(".f12-alpha").nth(3).hover()
    assert page.locator("#attention-residuals .katex-display [data-sym='ar-weights'].sym-on").count() >= 1
    fig.locator("table[data-sym='ar-query'] td").first.hover()
    assert page.locator("#attention-residuals .katex-display [data-sym='ar-query'].sym-on").count() >= 1


def test_no_accessibility_violations_after_interaction(watched, site_url):
    page, _ = watched
    fig = open_figure(page, site_url, FIG)
    fig.get_by_role("button", name="New query").click()
    fig.locator(".f12-list [role=option]").nth(3).click()
    assert axe_violations(page, f"#{FIG}") == []
