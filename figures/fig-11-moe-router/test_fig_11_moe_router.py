"""FIG 11 · router → top-k experts: scores, choices, gates, output, load and balance equal the `moe`
kernels for every token, with and without the selection-only bias; the balance statistic's label is
the fact's badge and its value at perfect balance is shown; K3 tiles come from facts.
(What §11, the caption and the alt say about FIG 11 is tied to its data in tests/site/test_fig_11_data.py.)"""

import numpy as np
import pytest

from k3explainer.kernels import expert_load, glu_expert, moe_forward, route, router_scores, switch_balance_loss
from k3explainer.site.errors import Diagnostics
from k3explainer.site.facts import project_facts
from tests.browser.support import ROOT, assert_axe_clean_through, cell_texts, open_figure, shipped_data, shown_number

pytestmark = pytest.mark.browser
FIG = "fig-11"


@pytest.fixture(scope="module")
def data(site_dir):
    return shipped_data(site_dir, FIG)


def kernel_routing(data, biased):
    x, c = np.array(data["x"]), np.array(data["centroids"])
    logits = x @ c.T  # router scores are dot products with the centroids
    r = route(
        logits, data["top_k"], score_func="sigmoid", renormalize=True, bias=np.array(data["bias"]) if biased else None
    )
    return logits, r, expert_load(r["experts"], c.shape[0]), switch_balance_loss(r["scores"], r["experts"])


def column(fig, col):
    return cell_texts(fig.locator(f".f11-table td[data-col='{col}']"))


def assert_token(fig, data, t, biased=False):
    logits, r, load, balance = kernel_routing(data, biased)
    P = data["precision"]
    tol = 0.5 * 10**-P + 1e-12
    assert [shown_number(v) for v in column(fig, "logit")] == pytest.approx(logits[t], abs=tol)
    assert [shown_number(v) for v in column(fig, "score")] == pytest.approx(
        router_scores(logits[t], "sigmoid"), abs=tol
    )
    ranks = column(fig, "rank")
    chosen = [ranks.index(str(i + 1)) for i in range(data["top_k"])]
    assert chosen == r["experts"][t].tolist()
    gates = [shown_number(v) for v in column(fig, "gate")]
    assert gates == pytest.approx(r["gates"][t], abs=tol)
    assert sum(gates) == pytest.approx(1, abs=tol * len(gates))
    assert f"so the gates sum to {1:.{P}f}" in fig.locator(".f11-sum").inner_text()
    # the output rows: each chosen expert's E_e(x), the shared experts' output, and y
    rows = fig.locator(".f11-out tbody tr")
    x = np.array(data["x"])[t]
    experts = [np.array(w) for w in data["expert_weights"]]
    y = np.array(data["shared_out"][t])
    for i, e in enumerate(r["experts"][t]):
        # the row holds E_e(x) unweighted: its label names the gate, never "E(x) · g" (a product)
        assert rows.nth(i).locator("th").inner_text() == f"E{e + 1}(x), g = {r['weights'][t, i]:.2f}"
        out = glu_expert(x, *(w[e] for w in experts))
        shown = [shown_number(v) for v in cell_texts(rows.nth(i).locator("td"))]
        assert shown == pytest.approx(out, abs=tol)
        y = y + r["weights"][t, i] * out
    assert [shown_number(v) for v in cell_texts(rows.nth(data["top_k"]).locator("td"))] == pytest.approx(
        data["shared_out"][t], abs=tol
    )
    assert [shown_number(v) for v in cell_texts(rows.nth(data["top_k"] + 1).locator("td"))] == pytest.approx(y, abs=tol)
    # load and balance over the batch
    assert [int(v) for v in cell_texts(fig.locator(".f11-load-n"))] == load.tolist()
    assert shown_number(fig.locator("[data-balance]").inner_text()) == pytest.approx(balance, abs=tol)
    other = kernel_routing(data, not biased)[3]
    assert shown_number(fig.locator("[data-balance-other]").inner_text()) == pytest.approx(other, abs=tol)
    assert shown_number(fig.locator("[data-balance-even]").inner_text()) == pytest.approx(1, abs=tol)
    assert fig.locator(".f11-route").count() == data["top_k"]
    assert fig.locator(".f11-shared-line").count() == data["n_shared"]


def test_shipped_outputs_are_the_kernels(data):
    """E_e(x), the shared output and y recomputed by glu_expert / moe_forward from the shipped inputs."""
    x, c = np.array(data["x"]), np.array(data["centroids"])
    experts = tuple(np.array(w) for w in data["expert_weights"])
    shared = tuple(np.array(w) for w in data["shared_weights"])
    np.testing.assert_allclose(glu_expert(x, *shared), data["shared_out"], atol=1e-12)
    for key, bias in (("plain", None), ("biased", np.array(data["bias"]))):
        y, r = moe_forward(
            x, c.T, experts, data["top_k"], shared=shared, score_func="sigmoid", renormalize=True, bias=bias
        )
        np.testing.assert_allclose(y, data[key]["y"], atol=1e-12)
        assert r["experts"].tolist() == data[key]["experts"]
        for t in range(len(x)):
            for i, e in enumerate(r["experts"][t]):
                want = glu_expert(x[t], *(w[e] for w in experts))
                np.testing.assert_allclose(data[key]["expert_out"][t][i], want, atol=1e-12)


def test_every_token_by_click_and_keys_matches_the_kernel(watched, site_url, data):
    page, _ = watched
    fig = open_figure(page, site_url, FIG)
    assert_token(fig, data, 1)
    fig.locator(".k3-choice [role=radio][data-value='0']").click()
    assert_token(fig, data, 0)
    for t in range(1, len(data["tokens"])):
        page.keyboard.press("ArrowRight")
        assert_token(fig, data, t)
    assert f"the gates sum to {1:.{data['precision']}f}" in fig.locator(".fig-live").inner_text()
    fig.locator(".f11-tok").nth(2).click()  # the token in the diagram
    assert_token(fig, data, 2)


def test_bias_toggle_shifts_load_not_weights(watched, site_url, data):
    page, _ = watched
    fig = open_figure(page, site_url, FIG)
    button = fig.locator(".f11-bias")
    button.focus()
    page.keyboard.press("Enter")
    assert button.get_attribute("aria-pressed") == "true"
    _, _, load1, _ = kernel_routing(data, True)
    assert "loads " + ", ".join(map(str, load1)) in fig.locator(".fig-live").inner_text()
    for t in range(len(data["tokens"])):
        fig.locator(f".k3-choice [role=radio][data-value='{t}']").click()
        assert_token(fig, data, t, biased=True)
    _, plain, load0, _ = kernel_routing(data, False)
    _, biased, load1, _ = kernel_routing(data, True)
    assert load0.tolist() != load1.tolist()
    # an expert chosen with and without the bias keeps its unbiased score; the gate is s_e / Σ chosen s
    np.testing.assert_allclose(plain["scores"], biased["scores"])
    button.click()
    assert button.get_attribute("aria-pressed") == "false"
    assert_token(fig, data, len(data["tokens"]) - 1)


def test_headline_tiles_come_from_facts(watched, site_url):
    page, _ = watched
    fig = open_figure(page, site_url, FIG)
    text = fig.locator(".f11-tiles").inner_text()
    facts = project_facts(ROOT, Diagnostics(ROOT))
    tiles = ("kimi_k3.total_params", "kimi_k3.active_params", "calc.k3_active_fraction", "calc.k3_routed_fraction")
    for want in [facts[k].display for k in tiles] + ["896 routed + 2 shared", "16 of 896"]:
        assert want in text
    assert fig.locator(".f11-tiles .badge-source").count() >= 4


def test_state_lives_in_the_url_and_history(watched, site_url, data):
    page, _ = watched
    fig = open_figure(page, site_url, FIG, "#fig-11.b=1&fig-11.t=4")
    assert fig.locator(".f11-bias").get_attribute("aria-pressed") == "true"
    assert_token(fig, data, 4, biased=True)
    fig.locator(".k3-choice [role=radio][data-value='2']").click()
    assert "fig-11.t=2" in page.url
    page.go_back()
    page.wait_for_selector(f"#{FIG} [role=radio][data-value='4'][aria-checked=true]")
    assert_token(fig, data, 4, biased=True)


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


def test_no_accessibility_violations_through_every_interaction(watched, site_url):
    page, _ = watched
    fig = open_figure(page, site_url, FIG)
    assert_axe_clean_through(
        page,
        FIG,
        {
            "clicking a token in the diagram": lambda p: fig.locator(".f11-tok").nth(4).click(),
            "choosing a token with the keys": lambda p: (
                fig.locator(".k3-choice [role=radio][aria-checked=true]").focus(),
                p.keyboard.press("ArrowRight"),
            ),
            "switching the bias on": lambda p: fig.locator(".f11-bias").click(),
            "hovering the gate symbol in the prose": lambda p: p.locator(
                "#moe .math-block math [data-sym='moe-gate']"
            ).first.hover(),
            "hovering a gate weight in the table": lambda p: fig.locator(
                "td.f11-gate[data-sym='moe-gate']"
            ).first.hover(),
            "focusing the balance statistic's badge": lambda p: fig.locator(".f11-balance-label .fact").focus(),
            "switching the bias off": lambda p: fig.locator(".f11-bias").click(),
        },
    )
