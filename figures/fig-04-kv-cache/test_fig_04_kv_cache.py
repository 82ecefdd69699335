"""FIG 04 · KV-cache decode in the browser: prefill and steps by mouse and keyboard, play and
pause, the first-view intro; the counters and the output panel show the shipped step, the state
switch the shipped state; step and switch live in the URL. What is shown is checked against what
was shipped; the shipped data against the kernels, and its sentences against the numbers, in
test_fig_04_data.py."""

import json
from urllib.parse import urlsplit

import pytest

from tests.browser.fixtures import Watch
from tests.browser.support import (
    assert_axe_clean_through,
    assert_shown_is_shipped,
    open_figure,
    shipped_data,
    shown_number,
)

pytestmark = pytest.mark.browser
FIG = "fig-04"
# a link that names the figure's state opens it there, without the first-view intro
EMPTY = "#fig-04.state=cache"
PLAYER_TICK = 1100  # ms between the player's steps (K3W.player)
INTRO_TICK = 650  # ms between the intro's steps (component.js)


@pytest.fixture(scope="module")
def shipped(site_dir):
    data = shipped_data(site_dir, FIG)
    return {**data, "P": data["n_prompt"], "last": len(data["steps"])}


def counter(fig, key):
    return shown_number(fig.locator(f"[data-value='{key}']").inner_text())


def filled_columns(fig, which):
    """How many token columns of the K (0) or V (1) cache hold numbers."""
    table = fig.locator(".f04-cache table").nth(which)
    return sum(1 for t in table.locator("tbody tr").first.locator("td").all_inner_texts() if t.strip() != "·")


def assert_shows(page, site_dir, pos, mode="cache"):
    """The counters are tagged with the texts of position `pos` (0: nothing yet, 1: the prefill)
    with the cache or the state, and every text the figure placed is the shipped one."""
    tags = page.eval_on_selector_all(f"#{FIG} .f04-val", "els => els.map(e => e.getAttribute('data-shows'))")
    assert tags == [
        json.dumps(["views", mode, pos, key], separators=(",", ":")) for key in ("n", "kept", "reads", "writes")
    ]
    assert assert_shown_is_shipped(page, site_dir, FIG) >= 8 + (4 if pos else 0)


def shown_output(fig, row):
    return [shown_number(x) for x in fig.locator(f"tr[data-out='{row}'] td").all_inner_texts()]


def assert_decode_step(fig, page, site_dir, shipped, j):
    """After decode step j (1-based): the counters, the columns and the output are the shipped step's."""
    s, D, P = shipped["steps"][j], shipped["D"], shipped["P"]
    n = s["n"]
    assert n == P + j
    assert counter(fig, "n") == n
    assert counter(fig, "kept") == s["cache"] == 2 * n * D
    assert counter(fig, "reads") == s["reads"] == 2 * n * D
    assert counter(fig, "writes") == s["writes"] == 2 * D
    assert filled_columns(fig, 0) == filled_columns(fig, 1) == n
    cached, full = shown_output(fig, "cached"), shown_output(fig, "full")
    assert cached == pytest.approx(s["cached_out"], abs=0.0005)
    assert full == pytest.approx(s["full_out"], abs=0.0005)
    assert cached == full  # the cache is exact: the same row as the full pass
    assert shipped["tokens"][s["token"]] in fig.locator(".f04-eq-title").inner_text()
    assert_shows(page, site_dir, j + 1)


def test_prefill_then_steps_by_mouse(watched, site_url, site_dir, shipped):
    page, _ = watched
    fig = open_figure(page, site_url, FIG, EMPTY)
    D, P, prefill = shipped["D"], shipped["P"], shipped["steps"][0]
    assert counter(fig, "n") == 0 and filled_columns(fig, 0) == 0
    assert_shows(page, site_dir, 0)
    fig.locator(".f04-prefill").click()
    assert counter(fig, "n") == P and counter(fig, "kept") == prefill["cache"] == 2 * P * D
    assert counter(fig, "writes") == prefill["cache"] and counter(fig, "reads") == 0
    assert filled_columns(fig, 0) == P and fig.locator(".f04-cache td.is-changed").count() == 2 * P * D
    assert "Prefill" in fig.locator(".fig-live").inner_text()
    assert fig.locator(".fig-live").get_attribute("data-shows") == '["views","cache",1,"said"]'
    assert_shows(page, site_dir, 1)
    # the prefill's output comes from its own pass over the prompt: not labelled as read through a cache
    assert fig.locator("tr[data-out='cached'] th").inner_text() == "prefill pass"
    for j in (1, 2, 3):
        fig.get_by_role("button", name="Next step").click()
        assert_decode_step(fig, page, site_dir, shipped, j)
        assert fig.locator(".f04-cache td.is-changed").count() == 2 * D  # one new K and one new V column
        assert fig.locator("tr[data-out='cached'] th").inner_text() == "via the cache"
    assert f"reads {2 * (P + 3) * D}" in fig.locator(".fig-live").inner_text()
    fig.get_by_role("button", name="Previous step").click()
    assert_decode_step(fig, page, site_dir, shipped, 2)


def test_steps_by_keyboard_to_the_end(watched, site_url, site_dir, shipped):
    page, _ = watched
    fig = open_figure(page, site_url, FIG, EMPTY)
    fig.get_by_role("button", name="Next step").focus()
    page.keyboard.press("ArrowRight")  # prefill
    page.keyboard.press("ArrowRight")
    assert_decode_step(fig, page, site_dir, shipped, 1)
    page.keyboard.press("End")
    last = shipped["last"] - 1
    assert_decode_step(fig, page, site_dir, shipped, last)
    page.keyboard.press("ArrowLeft")
    assert_decode_step(fig, page, site_dir, shipped, last - 1)


@pytest.fixture
def clocked(browser, browser_context_args, site_url):
    """A page of its own whose timers run on Playwright's clock (the shared page keeps real time),
    so a test moves time on instead of sleeping; fails on console errors like `watched`."""
    context = browser.new_context(**browser_context_args)
    page = context.new_page()
    page.set_default_timeout(15000)
    watch = Watch(page, site_url)
    page.clock.install()
    yield page
    context.close()
    assert watch.errors == [] and watch.foreign == []


def test_play_runs_and_pauses(clocked, site_url, shipped):
    page = clocked
    fig = open_figure(page, site_url, FIG, EMPTY)
    play = fig.get_by_role(
        "button", name="Play or pause the decode steps"
    )  # a toggle: one name, its state in aria-pressed
    play.click()
    assert play.get_attribute("aria-pressed") == "true"
    page.clock.run_for(2 * PLAYER_TICK)  # the prefill, then the first decode step
    page.wait_for_function(
        "() => +document.querySelector('#fig-04 [data-value=n]').textContent >= " + str(shipped["P"] + 1)
    )
    play.click()
    assert play.get_attribute("aria-pressed") == "false"
    n = counter(fig, "n")
    page.clock.run_for(3 * PLAYER_TICK)
    assert counter(fig, "n") == n  # paused: nothing advances


def test_fixed_state_switch_changes_the_memory_readout(watched, site_url, site_dir, shipped):
    page, _ = watched
    fig = open_figure(page, site_url, FIG, "#fig-04.step=4")
    assert_decode_step(fig, page, site_dir, shipped, 3)
    cache, state = counter(fig, "kept"), shipped["steps"][3]["state"]
    switch = fig.get_by_role("switch")
    switch.click()
    assert switch.get_attribute("aria-checked") == "true"
    assert counter(fig, "kept") == state["kept"] == shipped["D"] ** 2 != cache
    assert counter(fig, "reads") == state["reads"]
    assert fig.locator(".f04-state").is_visible() and not fig.locator(".f04-cache").is_visible()
    assert fig.locator(".fig-live").get_attribute("data-shows") == '["views","fixed",4,"said_switch"]'
    assert_shows(page, site_dir, 4, "fixed")
    fig.get_by_role("button", name="Next step").click()  # the cache would grow; the state does not
    assert counter(fig, "kept") == shipped["steps"][4]["state"]["kept"] == state["kept"]
    assert "fixed state holds" in fig.locator(".fig-live").inner_text()
    assert_shows(page, site_dir, 5, "fixed")
    switch.focus()
    page.keyboard.press("Space")
    assert switch.get_attribute("aria-checked") == "false"
    assert_decode_step(fig, page, site_dir, shipped, 4)
    page.keyboard.press("s")  # the shortcut, from anywhere in the figure
    assert switch.get_attribute("aria-checked") == "true"


def test_step_and_switch_live_in_the_url_and_history(watched, site_url, site_dir, shipped):
    page, _ = watched
    fig = open_figure(page, site_url, FIG, "#fig-04.step=3&fig-04.state=fixed")
    assert counter(fig, "n") == shipped["P"] + 2 and counter(fig, "kept") == shipped["steps"][2]["state"]["kept"]
    assert_shows(page, site_dir, 3, "fixed")
    fig.get_by_role("switch").click()
    assert "fig-04.state" not in page.url and "fig-04.step=3" in page.url
    fig.get_by_role("button", name="Next step").click()
    assert "fig-04.step=4" in page.url
    page.go_back()
    page.wait_for_function(
        f"() => document.querySelector('#fig-04 [data-value=n]').textContent === '{shipped['P'] + 2}'"
    )
    assert_decode_step(fig, page, site_dir, shipped, 2)
    page.go_back()
    page.wait_for_selector("#fig-04 [role=switch][aria-checked=true]")


def test_equation_symbols_and_counters_light_each_other(watched, site_url):
    page, _ = watched
    fig = open_figure(page, site_url, FIG, "#fig-04.step=2")
    page.locator("#kv-cache math [data-sym='kv-reads']").first.hover()
    assert fig.locator(".f04-counter[data-sym='kv-reads'].sym-on").count() == 1
    page.locator("#kv-cache math [data-sym='kv-cache']").first.hover()
    assert fig.locator(".f04-cache table[data-sym='kv-cache'].sym-on").count() == 2
    fig.locator(".f04-counter[data-sym='kv-writes']").focus()
    assert page.locator("#kv-cache math [data-sym='kv-writes'].sym-on").count() >= 1


@pytest.mark.parametrize("width", [1280, 390])
def test_reserved_height_holds(watched, site_url, width):
    page, _ = watched
    page.set_viewport_size({"width": width, "height": 900})
    for h in ("", "#fig-04.step=7", "#fig-04.step=7&fig-04.state=fixed"):
        open_figure(page, site_url, FIG, h)
        reserved, used = page.evaluate(
            "[parseFloat(getComputedStyle(document.querySelector('#fig-04 .fig-stage')).minHeight),"
            " document.querySelector('#fig-04 .f04').getBoundingClientRect().height]"
        )
        assert used <= reserved


def test_no_accessibility_violations_at_load_and_in_chosen_states(watched, site_url):
    """axe at load (the empty cache) and in three states it does not show: prefill and a decode
    step by key (focus on Next, the newly appended token and column in their highlight colours),
    the cache tables lit from the prose, and the fixed state's panel (the switch on)."""
    page, _ = watched
    fig = open_figure(page, site_url, FIG, EMPTY)
    nxt = fig.get_by_role("button", name="Next step")

    def prefill_then_step_by_key(p):
        fig.locator(".f04-prefill").click()
        nxt.focus()
        p.keyboard.press("ArrowRight")

    assert_axe_clean_through(
        page,
        FIG,
        {
            "prefill, then a step by key": prefill_then_step_by_key,
            "hovering the cache symbol in the prose": lambda p: p.locator(
                "#kv-cache math [data-sym='kv-cache']"
            ).first.hover(),
            "the switch on by click": lambda p: fig.get_by_role("switch").click(),
        },
    )


def fresh(page):
    """The intro runs once per page load: start from a new document, not the shared page."""
    page.goto("about:blank")


def test_plays_itself_when_first_seen_without_touching_the_url(watched, site_url, site_dir, shipped):
    """Scrolled into view with no link state, the figure runs from the empty cache to the last step
    on its own: it never sits empty, and the intro is neither narrated nor written to the URL."""
    page, _ = watched
    fresh(page)
    fig = open_figure(page, site_url, FIG)
    last = shipped["last"]
    page.wait_for_function(f"() => K3.figure('{FIG}').state().step === {last}", timeout=15000)
    assert_decode_step(fig, page, site_dir, shipped, last - 1)
    assert "fig-04" not in urlsplit(page.url).fragment and fig.locator(".fig-live").inner_text() == ""
    # the row labels of the cache stay in view (never scrolled away with the newest column)
    for table in fig.locator(".f04-cache .k3-scroll").all():
        inside = table.evaluate("""s => { const th = s.querySelector('tbody th').getBoundingClientRect(),
            b = s.getBoundingClientRect(); return th.left >= b.left - 1 && th.right <= b.right + 1; }""")
        assert inside


def test_a_press_stops_the_intro_where_it_is(clocked, site_url):
    page = clocked
    open_figure(page, site_url, FIG)
    page.clock.run_for(2 * INTRO_TICK)
    page.wait_for_function(f"() => K3.figure('{FIG}').state().step >= 2")
    page.locator(f"#{FIG}").get_by_role("switch").click()
    at = page.evaluate(f"() => K3.figure('{FIG}').state().step")
    page.clock.run_for(3 * INTRO_TICK)
    assert page.evaluate(f"() => K3.figure('{FIG}').state().step") == at


@pytest.mark.parametrize("width", [1280, 390])
def test_reduced_motion_shows_the_end_state_at_once(watched, site_url, site_dir, shipped, width):
    page, _ = watched
    page.set_viewport_size({"width": width, "height": 900})
    page.emulate_media(reduced_motion="reduce")
    fresh(page)
    fig = open_figure(page, site_url, FIG)
    last = shipped["last"]
    page.wait_for_function(f"() => K3.figure('{FIG}').state().step === {last}", timeout=3000)
    assert_decode_step(fig, page, site_dir, shipped, last - 1)


def test_fixed_state_shows_its_own_output(watched, site_url, site_dir, shipped):
    """With the switch on, the output panel is linear attention's: read through the state S, equal
    to the full causal linear pass; it is not the softmax row the cache reproduces."""
    page, _ = watched
    fig = open_figure(page, site_url, FIG, "#fig-04.step=4")
    state = shipped["steps"][3]["state"]
    before = fig.locator("tr[data-out='cached'] td").all_inner_texts()
    fig.get_by_role("switch").click()
    shown, full = shown_output(fig, "cached"), shown_output(fig, "full")
    assert shown == pytest.approx(state["out"], abs=0.0005) and full == pytest.approx(state["full_out"], abs=0.0005)
    assert fig.locator("tr[data-out='cached'] td").all_inner_texts() != before
    assert fig.locator("tr[data-out='cached'] th").inner_text() == "via the state S"
    assert "linear" in fig.locator(".f04-eq-title").inner_text()
    assert "linear pass" in fig.locator(".fig-live").inner_text()
    assert_shows(page, site_dir, 4, "fixed")
    fig.get_by_role("switch").click()
    assert fig.locator("tr[data-out='cached'] td").all_inner_texts() == before


def test_memory_chart_has_labelled_axes(watched, site_url, site_dir, shipped):
    """The bar chart says what it measures: a y-axis in elements kept with ticks from 0 up past the
    largest bar, an x-axis with each bar's token count, and a legend for bars and line."""
    page, _ = watched
    fig = open_figure(page, site_url, FIG, "#fig-04.step=7")
    chart = fig.locator(".f04-chart")

    def texts(sel):
        return chart.locator(sel).evaluate_all("els => els.map(e => e.textContent)")  # SVG text

    titles = texts(".f04-axis-title")
    assert titles == ["elements kept", "tokens in context"]
    ticks = texts(".f04-tick")
    steps = shipped["steps"]
    ys = [int(shown_number(x)) for x in ticks[: len(ticks) - len(steps)]]
    assert ys[0] == 0 and ys[-1] >= max(s["cache"] for s in steps) and len(ys) >= 3
    assert ticks[len(ys) :] == [str(s["n"]) for s in steps]
    legend = fig.locator(".f04-chartbox figcaption .k3-legend-item").all_inner_texts()
    assert (
        legend
        == [shipped["text"]["legend_cache"], shipped["text"]["legend_state"]]
        == ["KV cache per step", "fixed state"]
    )
    assert chart.get_attribute("aria-label") == shipped["text"]["chart_label"]
    assert_shows(page, site_dir, 7)
