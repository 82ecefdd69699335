"""FIG 05 · re-association: the toggle folds N×N into d×d (click and keyboard), rows trace a query,
both outputs equal linear_attention's two forms, the costs equal the kernel's, state in the URL."""
import numpy as np
import pytest

from k3explainer.kernels import linear_attention, reassociate, reassociation_costs

from .support import assert_axe_clean_through, open_figure, shipped_data, shown_number

pytestmark = pytest.mark.browser
FIG = "fig-05"


@pytest.fixture(scope="module")
def kernel(site_dir):
    data = shipped_data(site_dir, FIG)
    pq, pk, v = (np.array(data[n]) for n in ("phi_q", "phi_k", "v"))
    N, d, dv = data["n"], data["d"], data["d_v"]
    return {
        "n": N,
        "par": linear_attention(pq, pk, v, form="parallel"),
        "rec": linear_attention(pq, pk, v, form="recurrent"),
        "scores": np.tril(reassociate(pq, pk, v)["scores"]),
        "states": [reassociate(pq[: t + 1], pk[: t + 1], v[: t + 1])["state"] for t in range(N)],
        "costs": reassociation_costs(N, d, dv),
        "growth": reassociation_costs(np.array(data["growth"]["n"]), d, dv),
        "growth_n": data["growth"]["n"],
    }


def numbers(locator):
    return [shown_number(t) for t in locator.all_inner_texts() if t.strip()]


def assert_outputs(fig, kernel):
    N = kernel["n"]
    par = np.array(numbers(fig.locator(".f05-out-par td"))).reshape(N, -1)
    rec = np.array(numbers(fig.locator(".f05-out-rec td"))).reshape(N, -1)
    np.testing.assert_allclose(par, kernel["par"], atol=0.0005)
    np.testing.assert_allclose(rec, kernel["rec"], atol=0.0005)
    assert fig.locator(".f05-out-par td").all_inner_texts() == fig.locator(".f05-out-rec td").all_inner_texts()
    mant, exp = fig.locator(".f05-maxdiff").inner_text().split(" × 10")
    exp = int(exp.translate(str.maketrans("⁻⁰¹²³⁴⁵⁶⁷⁸⁹", "-0123456789")))
    diff = np.max(np.abs(kernel["par"] - kernel["rec"]))
    assert float(mant) * 10.0**exp == pytest.approx(diff, rel=0.06) and diff < 1e-12


def assert_middle(fig, kernel, t, linear):
    assert fig.locator(".f05-toggle").get_attribute("aria-pressed") == ("true" if linear else "false")
    assert fig.locator(".f05-middle.is-linear").count() == (1 if linear else 0)
    assert fig.locator(".f05-nn").get_attribute("aria-hidden") == ("true" if linear else "false")
    nn = fig.locator(".f05-nn .f05-cell").all_inner_texts()
    N = kernel["n"]
    for s in range(N):  # row t of the masked matrix, to one decimal
        cell = nn[t * N + s].strip()
        if s <= t:
            assert shown_number(cell) == pytest.approx(kernel["scores"][t, s], abs=0.05)
        else:
            assert cell == ""
    dd = numbers(fig.locator(".f05-dd .f05-cell"))
    np.testing.assert_allclose(np.array(dd).reshape(kernel["states"][t].shape), kernel["states"][t], atol=0.005)
    assert fig.locator("[role=radio][aria-checked=true]").get_attribute("data-value") == str(t)


def test_numbers_equal_the_kernels(watched, site_url, kernel):
    page, _ = watched
    fig = open_figure(page, site_url, FIG)
    assert_outputs(fig, kernel)
    assert_middle(fig, kernel, kernel["n"] - 1, False)
    assert shown_number(fig.locator(".f05-madds-q").inner_text()) == kernel["costs"]["madds_quadratic"]
    assert shown_number(fig.locator(".f05-madds-l").inner_text()) == kernel["costs"]["madds_linear"]
    rows = fig.locator(".f05-growth tbody tr")
    g = kernel["growth"]
    for i, n in enumerate(kernel["growth_n"]):
        cells = numbers(rows.nth(i).locator("td"))
        assert cells == [g["middle_quadratic"][i], g["middle_linear"][i], g["madds_quadratic"][i], g["madds_linear"][i]]
        assert shown_number(rows.nth(i).locator("th").inner_text()) == n
    assert len(set(g["middle_linear"])) == 1  # the state does not grow


def test_toggle_by_click_and_keyboard_changes_view_and_narration(watched, site_url, kernel):
    page, _ = watched
    fig = open_figure(page, site_url, FIG)
    live = fig.locator(".fig-live")
    assert live.inner_text() == ""  # nothing is spoken on load
    fig.locator(".f05-toggle").click()
    assert_middle(fig, kernel, kernel["n"] - 1, True)
    assert "Re-associated" in live.inner_text() and f"{kernel['costs']['madds_linear']}" in live.inner_text()
    assert "fig-05.order=state" in page.url
    fig.locator(".f05-toggle").focus()
    page.keyboard.press("Enter")
    assert_middle(fig, kernel, kernel["n"] - 1, False)
    assert "Unfolded" in live.inner_text() and f"{kernel['costs']['madds_quadratic']}" in live.inner_text()
    page.keyboard.press("Space")
    assert_middle(fig, kernel, kernel["n"] - 1, True)
    assert_outputs(fig, kernel)


def test_rows_by_click_and_arrow_keys(watched, site_url, kernel):
    page, _ = watched
    fig = open_figure(page, site_url, FIG)
    fig.locator("[role=radio][data-value='2']").click()
    assert_middle(fig, kernel, 2, False)
    page.keyboard.press("ArrowRight")
    assert_middle(fig, kernel, 3, False)
    first = kernel["par"][3][0]
    assert f"{abs(first):.3f}" in fig.locator(".fig-live").inner_text()
    # the selected row is marked in both output tables
    assert fig.locator(".f05-out-par tbody tr").nth(3).locator("td.is-changed").count() == 4


def test_state_in_url_and_history(watched, site_url, kernel):
    page, _ = watched
    fig = open_figure(page, site_url, FIG, "#fig-05.order=state&fig-05.row=1")
    assert_middle(fig, kernel, 1, True)
    fig.locator(".f05-toggle").click()
    assert_middle(fig, kernel, 1, False)
    assert "order=state" not in page.url and "fig-05.row=1" in page.url
    page.go_back()
    page.wait_for_selector(f"#{FIG} .f05-middle.is-linear")
    assert_middle(fig, kernel, 1, True)


def test_symbols_link_both_ways(watched, site_url):
    page, _ = watched
    fig = open_figure(page, site_url, FIG)
    fig.locator(".f05-toggle").click()
    centre = "el => el.scrollIntoView({block: 'center'})"  # clear of the sticky journey strip
    eq = page.locator("#linear-attention .katex-display [data-sym='la-state']").first
    eq.evaluate(centre)
    eq.hover()
    assert fig.locator(".f05-dd.sym-on").count() == 1
    eq = page.locator("#linear-attention .katex-display [data-sym='la-phi']").first
    eq.evaluate(centre)
    eq.hover()
    assert fig.locator(".f05-formula [data-sym='la-phi'].sym-on").count() == 1
    fig.locator(".f05-dd .f05-cell").first.evaluate(centre)
    fig.locator(".f05-dd .f05-cell").first.hover()
    assert page.locator("#linear-attention .katex-display [data-sym='la-state'].sym-on").count() >= 1


def test_no_accessibility_violations_through_every_interaction(watched, site_url):
    """axe at load and after each kind of interaction: the toggle by click and by key, rows by click
    and arrow key, and the state, φ and matrix lit from both sides."""
    page, _ = watched
    fig = open_figure(page, site_url, FIG)
    centre = "el => el.scrollIntoView({block: 'center'})"  # clear of the sticky journey strip

    def toggle_by_key(p):
        fig.locator(".f05-toggle").focus()
        p.keyboard.press("Enter")

    def row_by_key(p):
        fig.locator("[role=radio][aria-checked=true]").focus()
        p.keyboard.press("ArrowLeft")

    def hover(loc):
        def act(p):
            loc.evaluate(centre)
            loc.hover()
        return act

    assert_axe_clean_through(page, FIG, {
        "hovering the toggle": lambda p: fig.locator(".f05-toggle").hover(),
        "the state view (click)": lambda p: fig.locator(".f05-toggle").click(),
        "a row by click": lambda p: fig.locator("[role=radio][data-value='2']").click(),
        "a row by arrow key": row_by_key,
        "hovering the state in the equation": hover(page.locator("#linear-attention .katex-display [data-sym='la-state']").first),
        "hovering φ in the equation": hover(page.locator("#linear-attention .katex-display [data-sym='la-phi']").first),
        "hovering a state cell": hover(fig.locator(".f05-dd .f05-cell").first),
        "the unfolded view (Enter)": toggle_by_key,
        "the first row": lambda p: fig.locator("[role=radio][data-value='0']").click(),
    })
