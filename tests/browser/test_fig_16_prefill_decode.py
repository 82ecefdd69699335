"""FIG 16 · prefill vs decode: every mechanism × phase (by mouse and by keyboard) shows the
kernel's counts; the context slider changes them; the state lives in the URL."""
import itertools

import pytest

from k3explainer.kernels import mechanism_costs

from .support import axe_violations, open_figure, shipped_data

pytestmark = pytest.mark.browser
FIG = "fig-16"
SI = {"K": 1e3, "M": 1e6, "G": 1e9, "T": 1e12, "P": 1e15, "E": 1e18}
QUANTITY = {"read": "reads", "computed": "flops", "kept": "kept"}


@pytest.fixture(scope="module")
def shipped(site_dir):
    return shipped_data(site_dir, FIG)


def si_value(text: str) -> float:
    """'8.39 M elements' → 8.39e6; '34.4 G FLOPs' → 3.44e10; '623 K' → 6.23e5."""
    parts = [p for p in text.split() if p not in ("elements", "FLOPs")]
    return float(parts[0]) * (SI[parts[1]] if len(parts) > 1 else 1)


def assert_shows(fig, shipped, mech, phase, n):
    assert fig.locator(f"[aria-label=Mechanism] [role=radio][data-value='{mech}']").get_attribute("aria-checked") == "true"
    assert fig.locator(f"[aria-label=Phase] [role=radio][data-value='{phase}']").get_attribute("aria-checked") == "true"
    assert fig.locator(".k3-slider output").inner_text() == f"{n:,} tokens"
    costs = mechanism_costs(mech, phase, n, **shipped["constants"])
    for region, q in QUANTITY.items():
        shown = fig.locator(f"[data-region='{region}'] .f16-value").inner_text()
        assert si_value(shown) == pytest.approx(float(costs[q]), rel=0.006), (mech, phase, region, shown)
    assert si_value(fig.locator("[data-region=kept] .f16-extra").inner_text().split(": ")[1]) == pytest.approx(float(costs["peak"]), rel=0.006)
    for m in (x["key"] for x in shipped["mechanisms"]):  # the comparison table, same phase and N
        other = mechanism_costs(m, phase, n, **shipped["constants"])
        cells = fig.locator(f"tr[data-mech='{m}'] td").all_inner_texts()
        assert [si_value(c) for c in cells] == pytest.approx([float(other[q]) for q in QUANTITY.values()], rel=0.006)
    assert fig.locator("tr.is-current").get_attribute("data-mech") == mech


def test_every_mechanism_and_phase_by_mouse(watched, site_url, shipped):
    page, _ = watched
    fig = open_figure(page, site_url, FIG)
    n = shipped["n"][shipped["n_default_index"]]
    for m, p in itertools.product(shipped["mechanisms"], shipped["phases"]):
        fig.locator(f"[aria-label=Mechanism] [role=radio][data-value='{m['key']}']").click()
        fig.locator(f"[aria-label=Phase] [role=radio][data-value='{p['key']}']").click()
        assert_shows(fig, shipped, m["key"], p["key"], n)
        live = fig.locator(".fig-live").inner_text()
        assert m["label"] in live and p["key"] in live and f"{n:,}" in live


def test_every_mechanism_and_phase_by_keyboard_and_slider(watched, site_url, shipped):
    page, _ = watched
    fig = open_figure(page, site_url, FIG)
    mechs, phases = [m["key"] for m in shipped["mechanisms"]], [p["key"] for p in shipped["phases"]]
    i = shipped["n_default_index"]
    fig.locator(".k3-slider input").focus()
    page.keyboard.press("ArrowRight")
    n = shipped["n"][i + 1]
    for pi, p in enumerate(phases):
        fig.locator("[aria-label=Phase] [role=radio][aria-checked=true]").focus()
        if pi:
            page.keyboard.press("ArrowRight")
        fig.locator("[aria-label=Mechanism] [role=radio][aria-checked=true]").focus()
        page.keyboard.press("Home")
        for mi, m in enumerate(mechs):
            if mi:
                page.keyboard.press("ArrowRight")
            assert_shows(fig, shipped, m, p, n)
    fig.locator(".k3-slider input").focus()
    page.keyboard.press("End")
    assert_shows(fig, shipped, mechs[-1], phases[-1], shipped["n"][-1])


def test_decode_memory_grows_with_n_except_for_the_state(watched, site_url, shipped):
    page, _ = watched
    fig = open_figure(page, site_url, FIG, "#fig-16.mech=kda&fig-16.phase=decode")
    fig.locator(".k3-slider input").focus()
    page.keyboard.press("Home")
    small = fig.locator("[data-region='read'] .f16-value").inner_text()
    page.keyboard.press("End")
    assert fig.locator("[data-region='read'] .f16-value").inner_text() == small  # a fixed state
    assert_shows(fig, shipped, "kda", "decode", shipped["n"][-1])


def test_state_lives_in_the_url_and_history(watched, site_url, shipped):
    page, _ = watched
    n = shipped["n"][2]
    fig = open_figure(page, site_url, FIG, f"#fig-16.mech=mla&fig-16.phase=decode&fig-16.n={n}")
    assert_shows(fig, shipped, "mla", "decode", n)
    fig.locator("[aria-label=Mechanism] [role=radio][data-value='softmax']").click()
    assert "fig-16.mech=softmax" in page.url and f"fig-16.n={n}" in page.url
    assert_shows(fig, shipped, "softmax", "decode", n)
    page.go_back()
    page.wait_for_selector(f"#{FIG} [role=radio][data-value='mla'][aria-checked=true]")
    assert_shows(fig, shipped, "mla", "decode", n)


def test_no_accessibility_violations_after_interaction(watched, site_url):
    page, _ = watched
    fig = open_figure(page, site_url, FIG)
    fig.locator("[aria-label=Mechanism] [role=radio][data-value='hybrid']").click()
    fig.locator("[aria-label=Phase] [role=radio][data-value='decode']").click()
    assert axe_violations(page, f"#{FIG}") == []
