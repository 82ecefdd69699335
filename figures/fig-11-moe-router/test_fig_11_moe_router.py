"""FIG 11 · router → top-k experts in the browser: for every token, with and without the
selection-only bias, the scores, choices, gates, output, load and balance shown are the shipped
ones; the balance statistic's label is the fact's badge and its value at perfect balance is shown;
K3 tiles come from facts. The shipped data against the kernels, and every sentence against the
numbers, are checked in test_fig_11_data.py (with what §11, the caption and the alt say)."""

import pytest

from k3explainer.site.errors import Diagnostics
from k3explainer.site.facts import project_facts
from tests.browser.support import (
    ROOT,
    assert_axe_clean_through,
    assert_shown_is_shipped,
    cell_texts,
    open_figure,
    shipped_data,
    shown_number,
)

pytestmark = pytest.mark.browser
FIG = "fig-11"


@pytest.fixture(scope="module")
def data(site_dir):
    return shipped_data(site_dir, FIG)


def column(fig, col):
    return cell_texts(fig.locator(f".f11-table td[data-col='{col}']"))


def assert_token(page, fig, site_dir, data, t, biased=False):
    """Token t is shown, with the routing without or with the bias: the table's columns, the line
    under it, the output rows, the load and the balance readout are that state's shipped texts."""
    key = "biased" if biased else "plain"
    r, text = data[key], data[key]["text"]
    assert column(fig, "logit") == data["text"]["logit"][t]
    assert column(fig, "score") == data["text"]["score"][t]
    assert column(fig, "bias") == (data["text"]["bias"] if biased else [])
    ranks = column(fig, "rank")
    assert ranks == text["rank"][t]
    assert [ranks.index(str(i + 1)) for i in range(data["top_k"])] == r["experts"][t]
    gates = column(fig, "gate")
    assert gates == text["gate"][t]
    P = data["precision"]
    assert sum(shown_number(g) for g in gates) == pytest.approx(1, abs=0.5 * 10**-P * len(gates))
    assert fig.locator(".f11-sum").inner_text() == text["sum_line"][t]
    # the output rows: each chosen expert's E_e(x) (its label names the gate, never "E(x) · g"), shared(x), y
    rows = fig.locator(".f11-out tbody tr")
    assert cell_texts(rows.locator("th")) == text["output_rows"][t]
    assert [cell_texts(rows.nth(i).locator("td")) for i in range(rows.count())] == text["output"][t]
    # load and balance over the batch
    assert cell_texts(fig.locator(".f11-load-n")) == text["load"]
    assert fig.locator("[data-balance]").inner_text() == text["balance"]
    other = data["plain" if biased else "biased"]["text"]["balance"]
    assert fig.locator("[data-balance-other]").inner_text() == other
    assert fig.locator("[data-balance-even]").inner_text() == data["text"]["balance_even"] == f"{1:.{P}f}"
    assert fig.locator(".f11-route").count() == data["top_k"]
    assert fig.locator(".f11-shared-line").count() == data["n_shared"]
    assert fig.locator(".f11-svg").get_attribute("aria-label") == text["routes_label"][t]
    assert fig.locator(".f11-load-bars").get_attribute("aria-label") == text["load_label"]
    n_rows = data["top_k"] + 2
    assert assert_shown_is_shipped(page, site_dir, FIG) >= len(data["bias"]) * 5 + n_rows * (1 + len(data["x"][0]))


def test_every_token_by_click_and_keys_shows_its_routing(watched, site_url, site_dir, data):
    page, _ = watched
    fig = open_figure(page, site_url, FIG)
    assert_token(page, fig, site_dir, data, 1)
    fig.locator(".k3-choice [role=radio][data-value='0']").click()
    assert_token(page, fig, site_dir, data, 0)
    for t in range(1, len(data["tokens"])):
        page.keyboard.press("ArrowRight")
        assert_token(page, fig, site_dir, data, t)
    assert f"the gates sum to {1:.{data['precision']}f}" in fig.locator(".fig-live").inner_text()
    fig.locator(".f11-tok").nth(2).click()  # the token in the diagram
    assert_token(page, fig, site_dir, data, 2)


def test_bias_toggle_shifts_load_not_weights(watched, site_url, site_dir, data):
    page, _ = watched
    fig = open_figure(page, site_url, FIG)
    button = fig.locator(".f11-bias")
    button.focus()
    page.keyboard.press("Enter")
    assert button.get_attribute("aria-pressed") == "true"
    assert "loads " + ", ".join(map(str, data["biased"]["load"])) in fig.locator(".fig-live").inner_text()
    for t in range(len(data["tokens"])):
        fig.locator(f".k3-choice [role=radio][data-value='{t}']").click()
        assert_token(page, fig, site_dir, data, t, biased=True)
    assert data["plain"]["load"] != data["biased"]["load"]
    # the gates with the bias are still the unbiased scores' (s_e / Σ chosen s): the score column did not change
    assert column(fig, "score") == data["text"]["score"][-1]
    button.click()
    assert button.get_attribute("aria-pressed") == "false"
    assert_token(page, fig, site_dir, data, len(data["tokens"]) - 1)


def test_headline_tiles_come_from_facts(watched, site_url):
    page, _ = watched
    fig = open_figure(page, site_url, FIG)
    text = fig.locator(".f11-tiles").inner_text()
    facts = project_facts(ROOT, Diagnostics(ROOT))
    tiles = ("kimi_k3.total_params", "kimi_k3.active_params", "calc.k3_active_fraction", "calc.k3_routed_fraction")
    for want in [facts[k].display for k in tiles] + ["896 routed + 2 shared", "16 of 896"]:
        assert want in text
    assert fig.locator(".f11-tiles .badge-source").count() >= 4


def test_state_lives_in_the_url_and_history(watched, site_url, site_dir, data):
    page, _ = watched
    fig = open_figure(page, site_url, FIG, "#fig-11.b=1&fig-11.t=4")
    assert fig.locator(".f11-bias").get_attribute("aria-pressed") == "true"
    assert_token(page, fig, site_dir, data, 4, biased=True)
    fig.locator(".k3-choice [role=radio][data-value='2']").click()
    assert "fig-11.t=2" in page.url
    page.go_back()
    page.wait_for_selector(f"#{FIG} [role=radio][data-value='4'][aria-checked=true]")
    assert_token(page, fig, site_dir, data, 4, biased=True)


def test_gate_symbol_links_both_ways(watched, site_url, data):
    page, _ = watched
    fig = open_figure(page, site_url, FIG)
    page.locator("#moe .math-block math [data-sym='moe-gate']").first.hover()
    assert fig.locator("td.f11-gate.sym-on").count() == data["top_k"]
    assert fig.locator(".f11-route.sym-on").count() == data["top_k"]
    fig.locator("td.f11-gate[data-sym='moe-gate']").first.hover()
    assert page.locator("#moe .math-block math [data-sym='moe-gate'].sym-on").count() >= 1
    page.locator("#moe .math-block math [data-sym='moe-shared']").first.hover()
    assert fig.locator(".f11-shared.sym-on").count() == data["n_shared"]


def test_balance_label_value_and_perfect_balance_share_one_definition(watched, site_url, data):
    """The label is the fact moe.switch_aux_loss (its badge), the value is the kernel's N·Σ f_i P_i,
    and the value at perfect balance, 1, is shown beside it; the narration names the same formula."""
    page, _ = watched
    fig = open_figure(page, site_url, FIG)
    formula = data["balance_formula"]
    label = fig.locator(".f11-balance-label")
    fact = label.locator(".fact[data-fact='moe.switch_aux_loss']")
    assert fact.count() == 1 and fact.locator(".badge-source").count() == 1
    assert formula in fact.locator(".fact-value").inner_text() and "α = 1" in label.inner_text()
    values = fig.locator(".f11-balance").inner_text()
    assert formula in values and "at perfect balance" in values
    P = data["precision"]
    assert shown_number(fig.locator("[data-balance]").inner_text()) == pytest.approx(
        data["plain"]["balance"], abs=10**-P
    )
    assert data["balance_even"] == 1.0
    s = (len(data["tokens"]), len(data["centroids"]), data["top_k"])
    assert f"{s[2] * s[0]} routing slots" in fig.locator(".f11-balance-def").inner_text()
    fig.locator(".f11-bias").click()
    live = fig.locator(".fig-live").inner_text()
    assert f"balance statistic {formula} {data['biased']['balance']:.{P}f}, {1:.{P}f} at perfect balance" in live


def test_no_accessibility_violations_at_load_and_in_chosen_states(watched, site_url):
    """axe at load and in three states the load does not show: the bias on (its column in the
    table), the gates lit from the prose (their cells and routes), and focus on the balance
    statistic's badge."""
    page, _ = watched
    fig = open_figure(page, site_url, FIG)
    assert_axe_clean_through(
        page,
        FIG,
        {
            "switching the bias on": lambda p: fig.locator(".f11-bias").click(),
            "hovering the gate symbol in the prose": lambda p: p.locator(
                "#moe .math-block math [data-sym='moe-gate']"
            ).first.hover(),
            "focusing the balance statistic's badge": lambda p: fig.locator(".f11-balance-label .fact").focus(),
        },
    )
