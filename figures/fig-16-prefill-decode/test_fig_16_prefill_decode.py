"""FIG 16 · prefill vs decode in the browser: every mechanism × phase (by mouse and by keyboard)
shows its counts and the terms they add up, the note under the table MLA's trade against softmax
attention, the context slider changes them, the state lives in the URL. What is shown is checked
against what was shipped; the shipped data against the kernel, and its sentences against the
numbers, in test_fig_16_data.py."""

import itertools
import json

import pytest

from tests.browser.support import assert_axe_clean_through, assert_shown_is_shipped, open_figure, shipped_data

pytestmark = pytest.mark.browser
FIG = "fig-16"
QUANTITY = {"read": "reads", "computed": "flops", "kept": "kept"}

TAGGED = """id => [...document.querySelectorAll('#' + id + ' [data-shows]')].map(e =>
  [e.getAttribute('data-shows'), e.getAttribute('data-slots') || 'null'])"""


@pytest.fixture(scope="module")
def shipped(site_dir):
    return shipped_data(site_dir, FIG)


def tagged(page) -> set[tuple[str, str]]:
    """(data-shows, data-slots) of every text the figure placed from its data."""
    return {tuple(pair) for pair in page.evaluate(TAGGED, FIG)}


def tag(path, slots=None) -> tuple[str, str]:
    return json.dumps(path, separators=(",", ":")), json.dumps(slots, separators=(",", ":"))


def assert_shows(page, fig, site_dir, shipped, mech, phase, n):
    """The controls are at (mech, phase, n), and every text the panels, their terms, the table and
    the trade note show is the shipped text for that state."""
    assert (
        fig.locator(f"[aria-label=Mechanism] [role=radio][data-value='{mech}']").get_attribute("aria-checked") == "true"
    )
    assert fig.locator(f"[aria-label=Phase] [role=radio][data-value='{phase}']").get_attribute("aria-checked") == "true"
    assert fig.locator(".k3-slider output").inner_text() == f"{n:,} tokens"
    i = shipped["n"].index(n)
    want = {tag(["text", "amount", q], {"value": ["value_text", mech, phase, q, i]}) for q in QUANTITY.values()}
    for region, q in (("read", "reads"), ("computed", "flops")):  # the terms listed under a count, when it has several
        terms = shipped["parts"][mech][phase][q]
        keys = fig.locator(f"[data-region='{region}'] .f16-parts li").evaluate_all(
            "lis => lis.map(li => li.dataset.part)"
        )
        assert keys == ([t["key"] for t in terms] if len(terms) > 1 else []), (mech, phase, region)
        if len(terms) > 1:
            want |= {tag(["parts", mech, phase, q, k, "value_text", i]) for k in range(len(terms))}
    trade_slots = {"n": ["n_text", i]} | {
        k: ["trade", phase, "numbers_text", k, i] for k in shipped["trade"][phase]["numbers_text"]
    }
    want |= {tag(["trade", phase, "text"], trade_slots), tag(["text", "caption", phase], {"n": ["n_text", i]})}
    want |= {tag(["value_text", m["key"], phase, q, i]) for m in shipped["mechanisms"] for q in QUANTITY.values()}
    shown = tagged(page)
    assert want <= shown, sorted(want - shown)
    assert assert_shown_is_shipped(page, site_dir, FIG) >= len(want)
    assert fig.locator("tr.is-current").get_attribute("data-mech") == mech


def test_mla_prefill_read_shows_the_rebuilt_keys_and_values(watched, site_url, site_dir, shipped):
    """The MLA prefill read panel lists queries, latents and the keys and values rebuilt from them,
    each with its shipped count, under the shipped total (that the total is those three terms, and
    the rebuilt term every head's 2·N·d_h, is checked on the data in test_fig_16_claims.py)."""
    page, _ = watched
    fig = open_figure(page, site_url, FIG, "#fig-16.mech=mla&fig-16.phase=prefill")
    i = shipped["n_default_index"]
    terms = shipped["parts"]["mla"]["prefill"]["reads"]
    read = fig.locator("[data-region='read']")
    rebuilt = read.locator("li[data-part='rebuilt']")
    assert "keys and values rebuilt from the latents" in rebuilt.inner_text()
    assert [t["key"] for t in terms] == ["queries", "latents", "rebuilt"]
    assert rebuilt.locator(".f16-part-value").inner_text() == terms[2]["value_text"][i]
    assert read.locator(".f16-value").inner_text() == shipped["value_text"]["mla"]["prefill"]["reads"][i] + " elements"
    assert "rebuilt" in read.locator(".f16-text").inner_text()
    assert_shows(page, fig, site_dir, shipped, "mla", "prefill", shipped["n"][i])


def test_every_mechanism_and_phase_by_mouse(watched, site_url, site_dir, shipped):
    page, _ = watched
    # start from the last pair, so that every pair below is reached by a click that changes something (and is narrated)
    last_m, last_p = shipped["mechanisms"][-1]["key"], shipped["phases"][-1]["key"]
    fig = open_figure(page, site_url, FIG, f"#fig-16.mech={last_m}&fig-16.phase={last_p}")
    n = shipped["n"][shipped["n_default_index"]]
    for m, p in itertools.product(shipped["mechanisms"], shipped["phases"]):
        fig.locator(f"[aria-label=Mechanism] [role=radio][data-value='{m['key']}']").click()
        fig.locator(f"[aria-label=Phase] [role=radio][data-value='{p['key']}']").click()
        assert_shows(page, fig, site_dir, shipped, m["key"], p["key"], n)
        live = fig.locator(".fig-live").inner_text()
        assert m["label"] in live and p["key"] in live and f"{n:,}" in live


def test_every_mechanism_and_phase_by_keyboard_and_slider(watched, site_url, site_dir, shipped):
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
            assert_shows(page, fig, site_dir, shipped, m, p, n)
    fig.locator(".k3-slider input").focus()
    page.keyboard.press("End")
    assert_shows(page, fig, site_dir, shipped, mechs[-1], phases[-1], shipped["n"][-1])


def test_decode_memory_grows_with_n_except_for_the_state(watched, site_url, site_dir, shipped):
    page, _ = watched
    fig = open_figure(page, site_url, FIG, "#fig-16.mech=kda&fig-16.phase=decode")
    fig.locator(".k3-slider input").focus()
    page.keyboard.press("Home")
    small = fig.locator("[data-region='read'] .f16-value").inner_text()
    page.keyboard.press("End")
    assert fig.locator("[data-region='read'] .f16-value").inner_text() == small  # a fixed state
    assert_shows(page, fig, site_dir, shipped, "kda", "decode", shipped["n"][-1])


def test_state_lives_in_the_url_and_history(watched, site_url, site_dir, shipped):
    page, _ = watched
    n = shipped["n"][2]
    fig = open_figure(page, site_url, FIG, f"#fig-16.mech=mla&fig-16.phase=decode&fig-16.n={n}")
    assert_shows(page, fig, site_dir, shipped, "mla", "decode", n)
    fig.locator("[aria-label=Mechanism] [role=radio][data-value='softmax']").click()
    # softmax is the default mechanism, so the link leaves it out and keeps the rest
    assert "fig-16.mech" not in page.url and "fig-16.phase=decode" in page.url and f"fig-16.n={n}" in page.url
    assert_shows(page, fig, site_dir, shipped, "softmax", "decode", n)
    page.go_back()
    page.wait_for_selector(f"#{FIG} [role=radio][data-value='mla'][aria-checked=true]")
    assert_shows(page, fig, site_dir, shipped, "mla", "decode", n)


def test_no_accessibility_violations_at_load_and_in_chosen_states(watched, site_url):
    """axe at load and in two states the load does not show: MLA chosen (its row current, its terms
    in the panels), then the decode phase (its terms)."""
    page, _ = watched
    open_figure(page, site_url, FIG)
    f = f"#{FIG}"
    assert_axe_clean_through(
        page,
        FIG,
        {
            "clicking a mechanism": lambda page: page.locator(
                f"{f} [aria-label=Mechanism] [role=radio][data-value='mla']"
            ).click(),
            "clicking a phase": lambda page: page.locator(
                f"{f} [aria-label=Phase] [role=radio][data-value='decode']"
            ).click(),
        },
    )


@pytest.mark.parametrize("phase", ["prefill", "decode"])
def test_the_table_fits_a_phone_with_every_number_whole(watched, site_url, phase):
    """At 390 px the comparison table needs no sideways scroll: names and headers wrap, each
    number stays on one line."""
    page, _ = watched
    page.set_viewport_size({"width": 390, "height": 844})
    fig = open_figure(page, site_url, FIG, f"#fig-16.phase={phase}")
    box = fig.locator(".k3-scroll:has(.f16-table)")
    assert box.evaluate("el => el.scrollWidth - el.clientWidth") <= 1
    lines = box.locator("td").evaluate_all("""tds => tds.map(td => { const r = document.createRange();
        r.selectNodeContents(td); return new Set([...r.getClientRects()].map(x => Math.round(x.top))).size; })""")
    assert len(lines) == 12 and set(lines) == {1}  # four mechanisms × read, computed, kept
