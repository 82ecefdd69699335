"""FIG 06 · delta-rule stepper in the browser: every stage shows the shipped trace, read-back shows
β·v, the chunked form's agreement is stated; URL state, Play, symbol links and accessibility. What
is shown is checked against what was shipped; the shipped data against the kernels, and its
sentences against the numbers, in test_fig_06_data.py."""

import json

import numpy as np
import pytest

from tests.browser.fixtures import Watch
from tests.browser.support import (
    assert_axe_clean_through,
    assert_shown_is_shipped,
    axe_violations,
    open_figure,
    shipped_data,
    table_numbers,
    tables_numbers,
)

pytestmark = pytest.mark.browser
FIG = "fig-06"
TOL = 0.0005 + 1e-9  # three decimals shown
STAGES = ["read", "error", "write", "state"]
TICK = 1100  # ms between Play's steps (62-player.js)


@pytest.fixture(scope="module")
def data(site_dir):
    return shipped_data(site_dir, FIG)


@pytest.fixture
def clocked(browser, browser_context_args, site_url):
    """A page of its own on Playwright's clock, installed before the page loads: a test pauses it and
    lets Play's seconds pass at once (clock.run_for) instead of sleeping through them."""
    context = browser.new_context(**browser_context_args)
    page = context.new_page()
    page.set_default_timeout(15000)
    page.clock.install()
    watch = Watch(page, site_url)
    yield page
    context.close()
    assert watch.errors == [] and watch.foreign == []


def pause_clock(page):
    """Stop the page's time where it is: from here on, only run_for moves Play on."""
    page.clock.pause_at(page.evaluate("() => Date.now()") + 1)


def path_text(path) -> str:
    """A data path as ctx.show tags an element with it (JSON.stringify)."""
    return json.dumps(path, separators=(",", ":"), ensure_ascii=False)


def vector_row(fig, sym):
    return table_numbers(fig.locator(f".k3-delta-vec tr[data-sym='{sym}']").locator("xpath=ancestor::table"))[
        ["dr-k", "dr-v", "dr-read", "dr-error"].index(sym)
    ]


def assert_step_shows(fig, site_dir, data, t, s):
    """The panel shows the shipped trace of token t up to stage s (later stages "·"), and every text
    placed (the note, the captions, the cards) is the shipped one, the note and captions this step's."""
    step = data["steps"][t]
    # the step panel's vectors (k, v, read, error: one row each), then S before, the write, S after
    (k, v, read, error), before, write, after = tables_numbers(
        fig.page, f"#{FIG} .k3-delta-vec table, #{FIG} .k3-delta-eq table"
    )
    assert k == pytest.approx(step["k"], abs=TOL)
    assert v == pytest.approx(step["v"], abs=TOL)
    assert read == pytest.approx(step["read"], abs=TOL)
    if s >= 1:
        assert error == pytest.approx(step["error"], abs=TOL)
    else:
        assert error == ["·"] * 4
    assert np.array(before) == pytest.approx(np.array(step["state_prev"]), abs=TOL)
    if s >= 2:
        assert np.array(write) == pytest.approx(np.array(step["write"]), abs=TOL)
    else:
        assert all(c == "·" for row in write for c in row)
    if s >= 3:
        assert np.array(after) == pytest.approx(np.array(step["state"]), abs=TOL)
        changed = fig.locator(".k3-delta-eq table").nth(2).locator("td.is-changed").count()
        assert changed == int(np.sum(step["changed"]))
    else:
        assert all(c == "·" for row in after for c in row)
    assert fig.locator(f".f06-stages [role=radio][data-value='{s}']").get_attribute("aria-checked") == "true"
    assert fig.locator(".k3-stepper-readout").inner_text() == data["walk"][4 * t + s]["readout"]
    assert fig.locator(".f06-note").get_attribute("data-shows") == path_text(["walk", 4 * t + s, "note"])
    assert fig.locator(".k3-delta-eq caption").first.get_attribute("data-shows") == path_text(
        ["steps", t, "before_caption"]
    )
    assert assert_shown_is_shipped(fig.page, site_dir, FIG) >= 15


def test_every_stage_by_mouse_and_keyboard_shows_the_shipped_trace(watched, site_url, site_dir, data):
    page, _ = watched
    fig = open_figure(page, site_url, FIG, "#fig-06.step=0")  # the first token, which is not the default view
    assert_step_shows(fig, site_dir, data, 0, 0)
    assert vector_row(fig, "dr-read") == [0, 0, 0, 0]  # the empty state reads zero
    next_btn = fig.get_by_role("button", name="Next step")
    for n in range(1, 24):  # every stage of every token, by mouse
        next_btn.click()
        assert_step_shows(fig, site_dir, data, n // 4, n % 4)
        assert fig.locator(".fig-live").get_attribute("data-shows") == path_text(["walk", n, "said"])
    assert "Token 6" in fig.locator(".fig-live").inner_text()
    fig.locator(".k3-stepper").focus()
    page.keyboard.press("Home")
    assert_step_shows(fig, site_dir, data, 0, 0)
    page.keyboard.press("ArrowRight")
    page.keyboard.press("ArrowRight")
    assert_step_shows(fig, site_dir, data, 0, 2)
    assert "write" in fig.locator(".fig-live").inner_text()
    fig.locator(".f06-stages [role=radio][aria-checked=true]").focus()  # the stage picker: arrows move stages
    page.keyboard.press("ArrowRight")
    assert_step_shows(fig, site_dir, data, 0, 3)
    fig.locator(".f06-stages [role=radio][data-value='1']").click()
    assert_step_shows(fig, site_dir, data, 0, 1)
    error = data["steps"][0]["error"]
    assert f"{abs(error[0]):.3f}" in fig.locator(".fig-live").inner_text()


def test_repeated_key_reads_the_old_association(watched, site_url, site_dir, data):
    page, _ = watched
    rep = data["repeat"]
    t = rep["token"] - 1
    fig = open_figure(page, site_url, FIG, f"#fig-06.step={t * 4}")
    assert_step_shows(fig, site_dir, data, t, 0)
    assert vector_row(fig, "dr-k") == pytest.approx(data["steps"][rep["key_of"] - 1]["k"], abs=TOL)  # its key
    assert f"reuses token {rep['key_of']}" in fig.locator(".f06-note").inner_text()


def test_read_back_equals_beta_v_by_click_and_key(watched, site_url, site_dir, data):
    page, _ = watched
    fig = open_figure(page, site_url, FIG)
    readback = data["readback"]
    rb = fig.locator(".f06-card table")
    assert table_numbers(rb)[1] == ["·"] * 4
    assert fig.locator(".f06-card .f06-small").first.get_attribute("data-shows") == path_text(
        ["readback", "text", "off"]
    )
    fig.get_by_role("button", name="Read-back check (R)").click()
    rows = table_numbers(rb)
    assert rows[1] == pytest.approx(readback["out"], abs=TOL)
    assert rows[2] == pytest.approx(readback["beta_v"], abs=TOL)
    assert rows[1] == rows[2]
    assert rows[3] == pytest.approx(readback["out_default_scale"], abs=TOL)  # the kernels' default 1/√d scale
    assert "#fig-06.rb=1" in page.url
    assert "equal" in fig.locator(".fig-live").inner_text()
    assert fig.locator(".fig-live").get_attribute("data-shows") == path_text(["readback", "text", "said_on"])
    assert fig.locator(".f06-card .f06-small").first.get_attribute("data-shows") == path_text(
        ["readback", "text", "on"]
    )
    assert assert_shown_is_shipped(page, site_dir, FIG) >= 16
    fig.locator(".k3-stepper").focus()
    page.keyboard.press("r")
    assert fig.get_by_role("button", name="Read-back check (R)").get_attribute("aria-pressed") == "false"
    assert table_numbers(rb)[1] == ["·"] * 4
    assert fig.locator(".fig-live").get_attribute("data-shows") == path_text(["readback", "text", "said_off"])


def test_chunked_form_states_its_agreement_with_the_recurrence(watched, site_url, data):
    page, _ = watched
    fig = open_figure(page, site_url, FIG)
    text = fig.locator(".f06-card").nth(1).inner_text()
    assert f"chunk size {data['chunk_size']}" in text
    shown = float(text.split("max |ΔS| = ")[1].split(",")[0].replace("\u2212", "-"))
    assert shown == pytest.approx(data["chunked"]["state_diff"], rel=0.1)
    assert fig.locator(".f06-card math").count() >= 1 and fig.locator(".f06-card .badge, .f06-card .fact").count() >= 1


def test_state_lives_in_the_url_and_history(watched, site_url, site_dir, data):
    page, _ = watched
    fig = open_figure(page, site_url, FIG, "#fig-06.step=9&fig-06.rb=1")
    assert_step_shows(fig, site_dir, data, 2, 1)
    assert fig.get_by_role("button", name="Read-back check (R)").get_attribute("aria-pressed") == "true"
    fig.get_by_role("button", name="Next step").click()
    assert "fig-06.step=10" in page.url
    page.go_back()
    page.wait_for_function("() => document.querySelector('#fig-06 .k3-stepper-readout').textContent.endsWith('error')")
    assert_step_shows(fig, site_dir, data, 2, 1)


def test_equation_symbols_and_figure_parts_link_both_ways(watched, site_url):
    page, _ = watched
    fig = open_figure(page, site_url, FIG)
    page.locator("#deltanet .math-block math [data-sym='dr-read']").first.hover()
    assert fig.locator(".k3-delta-vec tr[data-sym='dr-read'].sym-on").count() == 1
    page.locator("#deltanet .sym-chip[data-sym='dr-write']").first.focus()  # by keyboard focus
    assert fig.locator("table[data-sym='dr-write'].sym-on").count() == 1
    fig.locator("table[data-sym='dr-write'] td").first.hover()
    assert page.locator("#deltanet .math-block math [data-sym='dr-write'].sym-on").count() >= 1
    page.mouse.move(0, 0)  # a resting pointer over a symbol wins over focus (by design); take it away
    fig.locator(".f06-beta[data-sym='dr-beta']").focus()
    assert page.locator("#deltanet .math-block math [data-sym='dr-beta'].sym-on").count() >= 1


def test_no_accessibility_violations_at_load_and_in_chosen_states(watched, site_url):
    """axe at load (the first token's read) and in three states it does not show: the state stage
    after three Nexts (the error, the write with its chips and the new S on screen), the read-back
    check on (its card filled), and the write matrix lit by hover."""
    page, _ = watched
    fig = open_figure(
        page, site_url, FIG, "#fig-06.step=0"
    )  # from the first stage: each act below names where it lands
    nxt = fig.get_by_role("button", name="Next step")

    def to_the_state_stage(p):
        for _ in range(3):  # error, write, state
            nxt.click()

    assert_axe_clean_through(
        page,
        FIG,
        {
            "the state stage (Next ×3)": to_the_state_stage,
            "the read-back check on": lambda p: fig.get_by_role("button", name="Read-back check (R)").click(),
            "hovering the write matrix": lambda p: fig.locator("table[data-sym='dr-write'] td").first.hover(),
        },
    )


def test_write_lands_as_k_column_times_error_row(watched, site_url, data):
    """From the error stage on, the write grid carries k as a column of chips and the error as a
    row of chips, coloured on the figure's one scale; the write's cells are the shipped write (β k
    errᵀ: test_fig_06_data.py)."""
    page, _ = watched
    t = 2
    fig = open_figure(page, site_url, FIG, f"#fig-06.step={t * 4 + 2}")
    write = fig.locator("table[data-sym='dr-write']")

    def signs(sel):
        return write.locator(sel).evaluate_all("cs => cs.map(c => c.dataset.sign || null)")

    step = data["steps"][t]
    assert signs("tbody th .k3-outer-chip") == ["neg" if x < 0 else "pos" for x in step["k"]]
    assert signs("thead .k3-outer-chip") == ["neg" if x < 0 else "pos" for x in step["error"]]
    assert np.array(table_numbers(write)) == pytest.approx(np.array(step["write"]), abs=TOL)
    heat = write.locator("tbody td").first.evaluate("td => parseFloat(td.style.getPropertyValue('--heat'))")
    assert heat == pytest.approx(100 * np.sqrt(min(1, abs(step["write"][0][0]) / data["heat_scale"])), abs=0.06)
    fig.get_by_role("button", name="Previous step").click()  # the read stage: no chips yet
    fig.get_by_role("button", name="Previous step").click()
    assert signs("thead .k3-outer-chip") == [None] * 4


def test_repeated_key_correction_is_staged(watched, site_url, site_dir, data):
    """The repeat card fills in stage by stage: nothing before the key's first token has stored its value;
    at the repeated token the stored value and read, then the new value, then the read after the write
    (β of the way from the old read to the new value: test_fig_06_data.py)."""
    page, _ = watched
    rep = data["repeat"]
    t, src = rep["token"] - 1, rep["key_of"] - 1
    fig = open_figure(page, site_url, FIG, "#fig-06.step=0")
    card = fig.locator(".f06-repeat")

    def rows():
        return table_numbers(card.locator("table"))

    assert rows()[0] == ["·"] * 4  # token 1: the key's first value is not stored yet
    card.get_by_role("button", name=f"Go to token {rep['token']}").click()
    assert_step_shows(fig, site_dir, data, t, 0)
    assert rows()[0] == pytest.approx(data["steps"][src]["v"], abs=TOL)
    assert card.get_by_role("button").count() == 0  # already there: no jump offered
    assert rows()[1] == pytest.approx(data["steps"][t]["read"], abs=TOL) and rows()[2] == ["·"] * 4
    fig.get_by_role("button", name="Next step").click()
    assert rows()[2] == pytest.approx(data["steps"][t]["v"], abs=TOL) and rows()[3] == ["·"] * 4
    fig.get_by_role("button", name="Next step").click()
    fig.get_by_role("button", name="Next step").click()
    assert rows()[3] == pytest.approx(np.array(data["steps"][t]["state"]).T @ data["steps"][t]["k"], abs=TOL)
    assert rows()[3] == pytest.approx(rep["read_after"], abs=TOL)
    assert f"{data['beta'] * 100:.0f} % of the way" in card.inner_text()
    assert card.locator(".f06-small").get_attribute("data-shows") == path_text(["repeat", "text", "note", 4])
    assert assert_shown_is_shipped(page, site_dir, FIG) >= 15


READOUT = "#fig-06 .k3-stepper-readout"


def test_play_walks_the_stages_and_pauses_off_screen(clocked, site_url, site_dir, data):
    """Play steps once a tick; off-screen the runtime pauses it (ticks pass, nothing moves) and back
    on screen it carries on. The page's clock is paused: each tick is let pass by run_for."""
    page = clocked
    fig = open_figure(page, site_url, FIG, "#fig-06.step=0")  # a long run from the start, so it cannot end mid-test
    readout = fig.locator(".k3-stepper-readout")
    play = fig.get_by_role("button", name="Play or pause the walk through the tokens")
    pause_clock(page)
    play.click()
    assert play.get_attribute("aria-pressed") == "true"
    page.clock.run_for(TICK)
    assert readout.inner_text() == data["walk"][1]["readout"]  # one tick: token 1's error
    # off-screen (the runtime pauses it) and back, each move as an in-page link makes it: the page's
    # own scroll keeping (55-landing.js) notes a plain scroll on the next frame, which the paused
    # clock holds back, and would put the view back where it was
    page.evaluate("() => K3._.glide(document.querySelector('.site-footer'), true)")
    page.wait_for_function("() => document.getElementById('fig-06').dataset.visible === 'false'")
    held = readout.inner_text()
    page.clock.run_for(2500)  # two ticks' time
    assert readout.inner_text() == held
    page.evaluate("() => K3._.glide(document.getElementById('fig-06'), true)")
    page.wait_for_function("() => document.getElementById('fig-06').dataset.visible === 'true'")
    page.clock.run_for(TICK)
    assert readout.inner_text() == data["walk"][2]["readout"]  # it carried on from where it stopped
    play.click()
    assert play.get_attribute("aria-pressed") == "false"
    s = int(page.url.split("fig-06.step=")[1].split("&")[0])
    assert s == 2
    assert_step_shows(fig, site_dir, data, s // 4, s % 4)


# Every change of the stepper's readout and of Play's aria-pressed, in order, with the number of the
# mutation batch (one batch per task): two changes in the same batch happened in the same moment.
RUN_LOG_JS = """() => { const fig = document.getElementById('fig-06'), log = (window.__f06run = []);
  const ro = fig.querySelector('.k3-stepper-readout'), play = fig.querySelector('.k3-play'); let batch = 0;
  window.__f06obs = new MutationObserver(records => { batch++; records.forEach(r => {
    if (r.type === 'attributes') log.push([batch, 'pressed', play.getAttribute('aria-pressed')]);
    else if (ro.contains(r.target) || r.target === ro) log.push([batch, 'at', ro.textContent]); }); });
  window.__f06obs.observe(ro, {childList: true, characterData: true, subtree: true});
  window.__f06obs.observe(play, {attributes: true, attributeFilter: ['aria-pressed']}); }"""


def test_play_from_the_opening_view_runs_to_the_end_and_then_replays_from_the_start(clocked, site_url, site_dir, data):
    """Play from the opening view (token 5, its write landed) carries on through token 6's stages and
    stops on the last one: the button is Play again the moment the end is shown (not a tick later,
    when a press would only have paused a finished run), and the figure stays there. Play at the end
    starts over from token 1 and walks on."""
    page = clocked
    tok = data["open_at"]["token"]
    T = len(data["steps"])
    fig = open_figure(page, site_url, FIG)
    readout, play = (
        fig.locator(".k3-stepper-readout"),
        fig.get_by_role("button", name="Play or pause the walk through the tokens"),
    )
    assert readout.inner_text() == f"token {tok} / {T} · {data['open_at']['stage']}"
    page.evaluate(RUN_LOG_JS)
    pause_clock(page)
    play.click()
    page.clock.run_for((T - tok) * 4 * TICK)  # the ticks to the last stage
    assert play.get_attribute("aria-pressed") == "false"
    log = page.evaluate("() => window.__f06run")
    shown = [x for _, what, x in log if what == "at"]
    assert shown == [f"token {t} / {T} · {s}" for t in range(tok + 1, T + 1) for s in STAGES]  # on to the end, in order
    end = next(b for b, what, x in log if what == "at" and x == shown[-1])
    assert [b for b, what, x in log if what == "pressed"] == [
        log[0][0],
        end,
    ]  # pressed at the start, released with the end
    assert_step_shows(fig, site_dir, data, T - 1, 3)
    page.clock.run_for(2500)  # a finished run stays finished
    assert readout.inner_text() == shown[-1] and play.get_attribute("aria-pressed") == "false"
    assert f"fig-06.step={T * 4 - 1}" in page.url
    play.click()  # at the end: a replay from the first token
    assert play.get_attribute("aria-pressed") == "true"
    assert readout.inner_text() == f"token 1 / {T} · read"
    assert_step_shows(fig, site_dir, data, 0, 0)
    page.clock.run_for(TICK)
    assert readout.inner_text() == f"token 1 / {T} · error"
    play.click()
    assert play.get_attribute("aria-pressed") == "false"
    page.evaluate("() => window.__f06obs.disconnect()")


def test_opens_on_a_state_that_already_holds_writes(watched, site_url, site_dir, data):
    """The default view is the builder's open_at (the repeated key's token, its write landed, its
    state before already full: test_fig_06_data.py), not the empty first token; the text alternative
    says so; a link without a step opens it, and back from the next step returns to it."""
    page, _ = watched
    tok, stage = data["open_at"]["token"], data["open_at"]["stage"]
    fig = open_figure(page, site_url, FIG)
    assert "fig-06.step" not in page.url  # the default is left out of the link
    assert_step_shows(fig, site_dir, data, tok - 1, STAGES.index(stage))
    before = fig.locator(".k3-delta-eq table").first
    assert before.locator("td.is-text").count() == 0  # no placeholder: every cell holds a written value
    assert axe_violations(page, f"#{FIG}") == []
    words = f"opens on token {tok} once its write has landed"
    written = f"tokens 1 to {tok - 1}"
    alt = page.locator(f"#{FIG}-alt").text_content()
    assert words in " ".join(alt.split()) and written in alt
    fig.get_by_role("button", name="Next step").click()
    assert f"fig-06.step={(tok - 1) * 4 + STAGES.index(stage) + 1}" in page.url
    page.go_back()
    page.wait_for_function("() => !location.hash.includes('fig-06.step')")
    page.wait_for_function(
        "([sel, text]) => document.querySelector(sel).textContent.startsWith(text)", arg=[READOUT, f"token {tok} "]
    )
    assert_step_shows(fig, site_dir, data, tok - 1, STAGES.index(stage))


def test_the_jump_to_the_repeated_key_is_offered_only_from_elsewhere(watched, site_url, site_dir, data):
    """The card's button goes to the repeated token from before it ("Go to"), comes back to it from
    after ("Back to"), and is not there at that token, whatever the stage; the card keeps its height."""
    page, _ = watched
    rep = data["repeat"]
    t = rep["token"] - 1
    fig = open_figure(page, site_url, FIG)
    card = fig.locator(".f06-repeat")
    height = card.bounding_box()["height"]
    for s in range(4):  # at the repeated token: nothing to jump to
        fig.locator(f".f06-stages [role=radio][data-value='{s}']").click()
        assert card.get_by_role("button").count() == 0, STAGES[s]
    fig.get_by_role("button", name="Next step").click()  # past it
    assert card.get_by_role("button").all_inner_texts() == [f"Back to token {rep['token']}"]
    assert card.bounding_box()["height"] == pytest.approx(height, abs=0.5)
    card.get_by_role("button", name=f"Back to token {rep['token']}").click()
    assert_step_shows(fig, site_dir, data, t, 0)
    assert card.get_by_role("button").count() == 0
    fig.locator(".k3-stepper").focus()
    page.keyboard.press("Home")  # before it
    assert card.get_by_role("button").all_inner_texts() == [f"Go to token {rep['token']}"]
    card.get_by_role("button").focus()  # by keyboard: the button hides itself, focus stays in the figure
    page.keyboard.press("Enter")
    assert_step_shows(fig, site_dir, data, t, 0)
    assert page.evaluate("() => document.activeElement.classList.contains('k3-stepper')")


# Each operator of "S before + write = S after" and the grids around it: the operator's box, and
# the body (the four rows of cells) of the grid before it and after it.
OPS_JS = """() => [...document.querySelectorAll('#fig-06 .k3-delta-eq .k3-op')].map(op => {
  const tables = [...document.querySelectorAll('#fig-06 .k3-delta-eq table')];
  const after = tables.find(t => op.compareDocumentPosition(t) & Node.DOCUMENT_POSITION_FOLLOWING);
  const before = tables.filter(t => op.compareDocumentPosition(t) & Node.DOCUMENT_POSITION_PRECEDING).pop();
  const box = e => { const r = e.getBoundingClientRect(); return {top: r.top, bottom: r.bottom, left: r.left, right: r.right,
                                                                   mid: (r.top + r.bottom) / 2}; };
  return {op: op.textContent, box: box(op), before: box(before.tBodies[0]), after: box(after.tBodies[0])};
})"""


@pytest.mark.parametrize("width", [1280, 390])
def test_each_operator_sits_on_the_row_of_the_terms_it_joins(watched, site_url, width):
    """'+' and '=' are centred on the rows of the grid they lead into, just left of it, never
    stranded on a line of their own or below the cells; at 1280 px the whole update is one row,
    on a phone 'S before + write' is one row and '= S after' the next. Also with every number shown."""
    page, _ = watched
    page.set_viewport_size({"width": width, "height": 900})
    fig = open_figure(page, site_url, FIG)
    for numbers in (False, True):
        if numbers:
            fig.get_by_role("button", name="Show numbers").click()
        ops = page.evaluate(OPS_JS)
        assert [o["op"] for o in ops] == ["+", "="]
        for o in ops:
            where = (width, numbers, o["op"])
            assert o["box"]["mid"] == pytest.approx(o["after"]["mid"], abs=2), where  # centred on the grid's cells
            assert 0 <= o["after"]["left"] - o["box"]["right"] <= 16, where  # right beside it
        plus, eq = ops
        if width >= 1000:
            assert plus["before"]["mid"] == pytest.approx(
                plus["after"]["mid"], abs=1
            )  # one row, S before + write = S after
            assert eq["before"]["mid"] == pytest.approx(eq["after"]["mid"], abs=1)
            assert 0 <= plus["box"]["left"] - plus["before"]["right"] <= 16
        elif not numbers:
            assert plus["before"]["mid"] == pytest.approx(plus["after"]["mid"], abs=1)  # S before + write on one row
            assert eq["box"]["top"] > plus["after"]["bottom"]  # "= S after" on the next
        assert page.evaluate("document.documentElement.scrollWidth") <= width  # nothing widens the page
