"""FIG 04 · KV-cache decode: prefill and steps by mouse and keyboard; counters equal
decode_with_kv_cache; the cached output equals the full causal pass; the state switch changes the
memory readout; step and switch live in the URL; what §04 and the spec say the figure shows holds in
its data."""

import html
import re
from itertools import pairwise
from urllib.parse import urlsplit

import numpy as np
import pytest

from k3explainer.kernels import (
    causal_softmax_attention,
    decode_with_kv_cache,
    elu_plus_one,
    kv_cache_elements,
    linear_attention,
)
from k3project.experiments import mechanism_costs
from tests.browser.support import assert_axe_clean_through, open_figure, shipped_data, shown_number

pytestmark = pytest.mark.browser
FIG = "fig-04"
# a link that names the figure's state opens it there, without the first-view intro
EMPTY = "#fig-04.state=cache"


@pytest.fixture(scope="module")
def kernel(site_dir):
    """Recompute from the inputs the figure shipped: k, v are shipped; q is re-drawn from the seed."""
    data = shipped_data(site_dir, FIG)
    T, D = len(data["tokens"]), data["D"]
    q, k, v = np.random.default_rng(data["provenance"]["seed"]).standard_normal((3, T, D))
    assert np.allclose(k, data["k"]) and np.allclose(v, data["v"])  # same seeded inputs as the figure
    P = data["n_prompt"]
    dec = decode_with_kv_cache(q, k, v, n_prefill=P)
    full, _ = causal_softmax_attention(q, k, v)
    state = mechanism_costs("linear", "decode", 1, d_h=D, heads=1)
    return {
        "data": data,
        "dec": dec,
        "full": full,
        "P": P,
        "D": D,
        "T": T,
        "state_kept": float(state["kept"]),
        "state_reads": float(state["reads"]),
    }


def counter(fig, key):
    return shown_number(fig.locator(f"[data-value='{key}']").inner_text())


def filled_columns(fig, which):
    """How many token columns of the K (0) or V (1) cache hold numbers."""
    table = fig.locator(".f04-cache table").nth(which)
    return sum(1 for t in table.locator("tbody tr").first.locator("td").all_inner_texts() if t.strip() != "·")


def assert_decode_step(fig, kernel, j):
    """After decode step j (1-based): counters and output as the kernel computes them."""
    dec, D, P = kernel["dec"], kernel["D"], kernel["P"]
    n = int(dec["cache_tokens"][j - 1])
    assert n == P + j
    assert counter(fig, "n") == n
    assert counter(fig, "kept") == kv_cache_elements(n, D) == 2 * n * D
    assert counter(fig, "reads") == dec["reads"][j - 1] == 2 * n * D
    assert counter(fig, "writes") == dec["writes"][j - 1] == 2 * D
    assert filled_columns(fig, 0) == filled_columns(fig, 1) == n
    t = P + j - 1
    cached = [shown_number(x) for x in fig.locator("tr[data-out='cached'] td").all_inner_texts()]
    full = [shown_number(x) for x in fig.locator("tr[data-out='full'] td").all_inner_texts()]
    assert cached == pytest.approx(dec["outputs"][t], abs=0.0005)
    assert full == pytest.approx(kernel["full"][t], abs=0.0005)
    assert cached == full  # the cache is exact: the same row as the full pass
    assert kernel["data"]["tokens"][t] in fig.locator(".f04-eq-title").inner_text()


def test_prefill_then_steps_by_mouse(watched, site_url, kernel):
    page, _ = watched
    fig = open_figure(page, site_url, FIG, EMPTY)
    D, P = kernel["D"], kernel["P"]
    assert counter(fig, "n") == 0 and filled_columns(fig, 0) == 0
    fig.locator(".f04-prefill").click()
    assert counter(fig, "n") == P and counter(fig, "kept") == kv_cache_elements(P, D)
    assert counter(fig, "writes") == kv_cache_elements(P, D) and counter(fig, "reads") == 0
    assert filled_columns(fig, 0) == P and fig.locator(".f04-cache td.is-changed").count() == 2 * P * D
    assert "Prefill" in fig.locator(".fig-live").inner_text()
    # the prefill's output comes from its own pass over the prompt: not labelled as read through a cache
    assert fig.locator("tr[data-out='cached'] th").inner_text() == "prefill pass"
    for j in (1, 2, 3):
        fig.get_by_role("button", name="Next step").click()
        assert_decode_step(fig, kernel, j)
        assert fig.locator(".f04-cache td.is-changed").count() == 2 * D  # one new K and one new V column
        assert fig.locator("tr[data-out='cached'] th").inner_text() == "via the cache"
    assert f"reads {2 * (P + 3) * D}" in fig.locator(".fig-live").inner_text()
    fig.get_by_role("button", name="Previous step").click()
    assert_decode_step(fig, kernel, 2)


def test_steps_by_keyboard_to_the_end(watched, site_url, kernel):
    page, _ = watched
    fig = open_figure(page, site_url, FIG, EMPTY)
    fig.get_by_role("button", name="Next step").focus()
    page.keyboard.press("ArrowRight")  # prefill
    page.keyboard.press("ArrowRight")
    assert_decode_step(fig, kernel, 1)
    page.keyboard.press("End")
    last = len(kernel["dec"]["cache_tokens"])
    assert_decode_step(fig, kernel, last)
    page.keyboard.press("ArrowLeft")
    assert_decode_step(fig, kernel, last - 1)


def test_play_runs_and_pauses(watched, site_url, kernel):
    page, _ = watched
    fig = open_figure(page, site_url, FIG, EMPTY)
    play = fig.get_by_role(
        "button", name="Play or pause the decode steps"
    )  # a toggle: one name, its state in aria-pressed
    play.click()
    assert play.get_attribute("aria-pressed") == "true"
    page.wait_for_function(
        "() => +document.querySelector('#fig-04 [data-value=n]').textContent >= " + str(kernel["P"] + 1)
    )
    play.click()
    assert play.get_attribute("aria-pressed") == "false"
    n = counter(fig, "n")
    page.wait_for_timeout(1200)
    assert counter(fig, "n") == n  # paused: nothing advances


def test_fixed_state_switch_changes_the_memory_readout(watched, site_url, kernel):
    page, _ = watched
    fig = open_figure(page, site_url, FIG, "#fig-04.step=4")
    assert_decode_step(fig, kernel, 3)
    cache = counter(fig, "kept")
    switch = fig.get_by_role("switch")
    switch.click()
    assert switch.get_attribute("aria-checked") == "true"
    assert counter(fig, "kept") == kernel["state_kept"] == kernel["D"] ** 2 != cache
    assert counter(fig, "reads") == kernel["state_reads"]
    assert fig.locator(".f04-state").is_visible() and not fig.locator(".f04-cache").is_visible()
    fig.get_by_role("button", name="Next step").click()  # the cache would grow; the state does not
    assert counter(fig, "kept") == kernel["state_kept"]
    assert "fixed state holds" in fig.locator(".fig-live").inner_text()
    switch.focus()
    page.keyboard.press("Space")
    assert switch.get_attribute("aria-checked") == "false"
    assert_decode_step(fig, kernel, 4)
    page.keyboard.press("s")  # the shortcut, from anywhere in the figure
    assert switch.get_attribute("aria-checked") == "true"


def test_step_and_switch_live_in_the_url_and_history(watched, site_url, kernel):
    page, _ = watched
    fig = open_figure(page, site_url, FIG, "#fig-04.step=3&fig-04.state=fixed")
    assert counter(fig, "n") == kernel["P"] + 2 and counter(fig, "kept") == kernel["state_kept"]
    fig.get_by_role("switch").click()
    assert "fig-04.state" not in page.url and "fig-04.step=3" in page.url
    fig.get_by_role("button", name="Next step").click()
    assert "fig-04.step=4" in page.url
    page.go_back()
    page.wait_for_function(
        f"() => document.querySelector('#fig-04 [data-value=n]').textContent === '{kernel['P'] + 2}'"
    )
    assert_decode_step(fig, kernel, 2)
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


def section_text(site_dir, section_id):
    """The plain text of one built section (tags stripped, entities decoded)."""
    page = (site_dir / "index.html").read_text(encoding="utf-8")
    m = re.search(rf'<section[^>]*id="{section_id}".*?</section>', page, re.S)
    return re.sub(r"\s+", " ", html.unescape(re.sub(r"<[^>]+>", " ", m.group(0))))


def test_what_the_prose_says_the_figure_shows_holds(site_dir, kernel):
    """Each sentence of §04 that says what FIG 04 shows, checked against the data it shipped."""
    text = section_text(site_dir, "kv-cache")
    steps, D, P = kernel["data"]["steps"], kernel["D"], kernel["P"]
    decode = [s for s in steps if s["kind"] == "decode"]
    assert len(decode) >= 3
    # "From one decode step to the next, the first grows by a fixed amount; so does the second ...;
    # the third stays constant."
    assert "From one decode step to the next, the first grows by a fixed amount; so does the second" in text
    assert "the third stays constant" in text
    assert {b["cache"] - a["cache"] for a, b in pairwise(decode)} == {2 * D}
    assert {b["reads"] - a["reads"] for a, b in pairwise(decode)} == {2 * D}
    assert {s["writes"] for s in decode} == {2 * D}
    assert [s["cache"] for s in decode] == [kv_cache_elements(n, D) for n in kernel["dec"]["cache_tokens"]]
    # "... in the figure, which shows both side by side, they agree to rounding error."
    assert "they agree to rounding error" in text
    for s in steps:
        t = s["token"]
        assert s["max_diff"] == np.max(np.abs(kernel["dec"]["outputs"][t] - kernel["full"][t])) < 1e-12
    # "Appending tokens never changes any earlier output."
    assert "Appending tokens never changes any earlier output." in text
    data = kernel["data"]
    q = np.random.default_rng(data["provenance"]["seed"]).standard_normal((3, kernel["T"], D))[0]
    k, v = np.array(data["k"]), np.array(data["v"])
    for m in range(P + 1, kernel["T"]):
        shorter = decode_with_kv_cache(q[:m], k[:m], v[:m], n_prefill=P)["outputs"]
        assert np.array_equal(shorter, kernel["dec"]["outputs"][:m])
    # the switch: "a single square matrix whose size never changes, however far you step" and
    # "per-step reads that no longer depend on how many tokens came before"
    assert "a single square matrix whose size never changes" in text
    assert "per-step reads that no longer depend on how many tokens came before" in text
    assert {s["state"]["kept"] for s in steps} == {D * D} == {int(kernel["state_kept"])}
    # a decode step reads the whole state; the prefill, which builds it from nothing, reads none
    assert {s["state"]["reads"] for s in steps if s["kind"] == "decode"} == {int(kernel["state_reads"])}
    assert [s["state"]["reads"] for s in steps if s["kind"] == "prefill"] == [0]
    assert all(np.array(s["state"]["S"]).shape == (D, D) for s in steps)


def test_no_accessibility_violations_through_every_interaction(watched, site_url):
    """axe at load and after each kind of interaction: prefill, a step by mouse and by key (the
    newly appended token and column get their highlight colours), the switch on and off, hover and
    focus that light symbols, play and pause, and the last step with and without the state."""
    page, _ = watched
    fig = open_figure(page, site_url, FIG, EMPTY)
    nxt = fig.get_by_role("button", name="Next step")

    def key_step(p):
        nxt.focus()
        p.keyboard.press("ArrowRight")

    def play_pause(p):
        fig.get_by_role("button", name="Play").click()
        p.wait_for_function("() => +document.querySelector('#fig-04 [data-value=n]').textContent >= 6")
        fig.get_by_role("button", name="Play").click()  # pressed again: paused

    def to_end(p):
        nxt.focus()
        p.keyboard.press("End")

    assert_axe_clean_through(
        page,
        FIG,
        {
            "hovering Prefill": lambda p: fig.locator(".f04-prefill").hover(),
            "prefill": lambda p: fig.locator(".f04-prefill").click(),
            "a step by mouse": lambda p: nxt.click(),
            "a step by key": key_step,
            "a step back": lambda p: fig.get_by_role("button", name="Previous step").click(),
            "play, then pause": play_pause,
            "the last step": to_end,
            "focusing a counter (lights its symbol)": lambda p: fig.locator(
                ".f04-counter[data-sym='kv-writes']"
            ).focus(),
            "hovering the cache symbol in the prose": lambda p: p.locator(
                "#kv-cache math [data-sym='kv-cache']"
            ).first.hover(),
            "the switch on by click": lambda p: fig.get_by_role("switch").click(),
            "hovering the switch": lambda p: fig.get_by_role("switch").hover(),
            "a step with the state on": lambda p: fig.get_by_role("button", name="Previous step").click(),
            "the switch off by the S key": lambda p: (fig.get_by_role("switch").focus(), p.keyboard.press("s")),
        },
    )


def fresh(page):
    """The intro runs once per page load: start from a new document, not the shared page."""
    page.goto("about:blank")


def test_plays_itself_when_first_seen_without_touching_the_url(watched, site_url, kernel):
    """Scrolled into view with no link state, the figure runs from the empty cache to the last step
    on its own: it never sits empty, and the intro is neither narrated nor written to the URL."""
    page, _ = watched
    fresh(page)
    fig = open_figure(page, site_url, FIG)
    last = len(kernel["data"]["steps"])
    page.wait_for_function(f"() => K3.figure('{FIG}').state().step === {last}", timeout=15000)
    assert_decode_step(fig, kernel, last - 1)
    assert "fig-04" not in urlsplit(page.url).fragment and fig.locator(".fig-live").inner_text() == ""
    # the row labels of the cache stay in view (never scrolled away with the newest column)
    for table in fig.locator(".f04-cache .k3-scroll").all():
        inside = table.evaluate("""s => { const th = s.querySelector('tbody th').getBoundingClientRect(),
            b = s.getBoundingClientRect(); return th.left >= b.left - 1 && th.right <= b.right + 1; }""")
        assert inside


def test_a_press_stops_the_intro_where_it_is(watched, site_url, kernel):
    page, _ = watched
    fresh(page)
    fig = open_figure(page, site_url, FIG)
    page.wait_for_function(f"() => K3.figure('{FIG}').state().step >= 2", timeout=15000)
    fig.get_by_role("switch").click()
    at = page.evaluate(f"() => K3.figure('{FIG}').state().step")
    page.wait_for_timeout(1500)
    assert page.evaluate(f"() => K3.figure('{FIG}').state().step") == at


@pytest.mark.parametrize("width", [1280, 390])
def test_reduced_motion_shows_the_end_state_at_once(watched, site_url, kernel, width):
    page, _ = watched
    page.set_viewport_size({"width": width, "height": 900})
    page.emulate_media(reduced_motion="reduce")
    fresh(page)
    fig = open_figure(page, site_url, FIG)
    last = len(kernel["data"]["steps"])
    page.wait_for_function(f"() => K3.figure('{FIG}').state().step === {last}", timeout=3000)
    assert_decode_step(fig, kernel, last - 1)


def test_fixed_state_shows_its_own_output(watched, site_url, kernel):
    """With the switch on, the output panel is linear attention's: read through the state S, equal
    to the full causal linear pass; it is not the softmax row the cache reproduces."""
    page, _ = watched
    fig = open_figure(page, site_url, FIG, "#fig-04.step=4")
    P, t = kernel["P"], kernel["P"] + 2
    q = np.random.default_rng(kernel["data"]["provenance"]["seed"]).standard_normal((3, kernel["T"], kernel["D"]))[0]
    fq, fk, v = elu_plus_one(q), elu_plus_one(np.array(kernel["data"]["k"])), np.array(kernel["data"]["v"])
    rec = linear_attention(fq, fk, v, normalize=True, form="recurrent")
    par = linear_attention(fq, fk, v, normalize=True, form="parallel")
    before = fig.locator("tr[data-out='cached'] td").all_inner_texts()
    fig.get_by_role("switch").click()
    shown = [shown_number(x) for x in fig.locator("tr[data-out='cached'] td").all_inner_texts()]
    full = [shown_number(x) for x in fig.locator("tr[data-out='full'] td").all_inner_texts()]
    assert shown == pytest.approx(rec[t], abs=0.0005) and full == pytest.approx(par[t], abs=0.0005)
    assert fig.locator("tr[data-out='cached'] td").all_inner_texts() != before
    assert fig.locator("tr[data-out='cached'] th").inner_text() == "via the state S"
    assert "linear" in fig.locator(".f04-eq-title").inner_text()
    assert "linear pass" in fig.locator(".fig-live").inner_text()
    fig.get_by_role("switch").click()
    assert fig.locator("tr[data-out='cached'] td").all_inner_texts() == before
    assert P  # the prompt was prefilled


def test_memory_chart_has_labelled_axes(watched, site_url, kernel):
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
    steps = kernel["data"]["steps"]
    ys = [int(shown_number(x)) for x in ticks[: len(ticks) - len(steps)]]
    assert ys[0] == 0 and ys[-1] >= max(s["cache"] for s in steps) and len(ys) >= 3
    assert ticks[len(ys) :] == [str(s["n"]) for s in steps]
    assert fig.locator(".f04-chartbox figcaption .k3-legend-item").all_inner_texts() == [
        "KV cache per step",
        "fixed state",
    ]
