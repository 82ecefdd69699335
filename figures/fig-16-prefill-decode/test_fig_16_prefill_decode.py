"""FIG 16 · prefill vs decode: every mechanism × phase (by mouse and by keyboard) shows the
kernel's counts and the terms they add up; the note under the table shows MLA's trade against
softmax attention from the same counts; the context slider changes them; the state lives in the URL."""

import itertools
import re

import pytest

from k3project.experiments import mechanism_costs
from tests.browser.support import assert_axe_clean_through, open_figure, shipped_data

pytestmark = pytest.mark.browser
FIG = "fig-16"
SI = {"K": 1e3, "M": 1e6, "G": 1e9, "T": 1e12, "P": 1e15, "E": 1e18}
QUANTITY = {"read": "reads", "computed": "flops", "kept": "kept"}
PARTS = {"read": "reads_parts", "computed": "flops_parts"}


@pytest.fixture(scope="module")
def shipped(site_dir):
    return shipped_data(site_dir, FIG)


def si_value(text: str) -> float:
    """'8.39 M elements' → 8.39e6; '34.4 G FLOPs' → 3.44e10; '623 K' → 6.23e5."""
    parts = [p for p in text.split() if p not in ("elements", "FLOPs")]
    return float(parts[0]) * (SI[parts[1]] if len(parts) > 1 else 1)


def assert_shows(fig, shipped, mech, phase, n):
    assert (
        fig.locator(f"[aria-label=Mechanism] [role=radio][data-value='{mech}']").get_attribute("aria-checked") == "true"
    )
    assert fig.locator(f"[aria-label=Phase] [role=radio][data-value='{phase}']").get_attribute("aria-checked") == "true"
    assert fig.locator(".k3-slider output").inner_text() == f"{n:,} tokens"
    costs = mechanism_costs(mech, phase, n, **shipped["constants"])
    for region, q in QUANTITY.items():
        shown = fig.locator(f"[data-region='{region}'] .f16-value").inner_text()
        assert si_value(shown) == pytest.approx(float(costs[q]), rel=0.006), (mech, phase, region, shown)
    for region, key in PARTS.items():  # the terms listed under a count, when it has several
        terms = {k: float(v) for k, v in costs[key].items() if v}
        items = fig.locator(f"[data-region='{region}'] .f16-parts li")
        shown = {
            items.nth(i).get_attribute("data-part"): si_value(items.nth(i).locator(".f16-part-value").inner_text())
            for i in range(items.count())
        }
        assert shown == ({k: pytest.approx(v, rel=0.006) for k, v in terms.items()} if len(terms) > 1 else {}), (
            mech,
            phase,
            region,
        )
    assert_trade(fig, phase, n, shipped)
    for m in (x["key"] for x in shipped["mechanisms"]):  # the comparison table, same phase and N
        other = mechanism_costs(m, phase, n, **shipped["constants"])
        cells = fig.locator(f"tr[data-mech='{m}'] td").all_inner_texts()
        assert [si_value(c) for c in cells] == pytest.approx([float(other[q]) for q in QUANTITY.values()], rel=0.006)
    assert fig.locator("tr.is-current").get_attribute("data-mech") == mech


def assert_trade(fig, phase, n, shipped):
    """The note under the table: MLA's FLOPs (and at decode its reads) against softmax attention's,
    from the kernel's counts at this phase and N."""
    kw = shipped["constants"]
    mla, sm = mechanism_costs("mla", phase, n, **kw), mechanism_costs("softmax", phase, n, **kw)
    note = " ".join(fig.locator(".f16-trade").inner_text().split())
    assert f"MLA against softmax attention at {phase}, N = {n:,}:" in note, note
    num = r"([0-9.]+)"
    flops = re.search(rf"MLA does {num}× as many FLOPs", note)
    assert flops and float(flops[1]) == pytest.approx(float(mla["flops"] / sm["flops"]), rel=0.006), note
    if phase == "decode":
        reads = re.search(rf"softmax attention reads {num}× as many elements", note)
        assert reads and float(reads[1]) == pytest.approx(float(sm["reads"] / mla["reads"]), rel=0.006), note
        per = re.search(rf"{num} FLOPs per element read against {num}\.", note)
        assert per and [float(per[1]), float(per[2])] == pytest.approx(
            [float(mla["flops"] / mla["reads"]), float(sm["flops"] / sm["reads"])], rel=0.006
        ), note
        assert "memory traffic" in note and fig.locator(".f16-trade a[href='#attention-cost']").count() == 1
    else:
        share = re.search(rf"{num}% of them rebuilding keys and values from the latents", note)
        assert share and float(share[1]) == pytest.approx(
            100 * float(mla["flops_parts"]["rebuild"] / mla["flops"]), rel=0.006
        ), note


def test_mla_prefill_read_shows_the_rebuilt_keys_and_values(watched, site_url, shipped):
    """The MLA prefill read count is queries + latents + the keys and values rebuilt from them, and
    the panel lists each of those terms with its count."""
    page, _ = watched
    fig = open_figure(page, site_url, FIG, "#fig-16.mech=mla&fig-16.phase=prefill")
    n, c = shipped["n"][shipped["n_default_index"]], shipped["constants"]
    read = fig.locator("[data-region='read']")
    rebuilt = read.locator("li[data-part='rebuilt']")
    assert "keys and values rebuilt from the latents" in rebuilt.inner_text()
    assert si_value(rebuilt.locator(".f16-part-value").inner_text()) == pytest.approx(
        2 * n * c["heads"] * c["d_h"], rel=0.006
    )
    total = n * c["heads"] * c["d_h"] + n * c["d_c"] + 2 * n * c["heads"] * c["d_h"]
    assert si_value(read.locator(".f16-value").inner_text()) == pytest.approx(total, rel=0.006)
    assert "rebuilt" in read.locator(".f16-text").inner_text()
    assert_shows(fig, shipped, "mla", "prefill", n)


def test_every_mechanism_and_phase_by_mouse(watched, site_url, shipped):
    page, _ = watched
    # start from the last pair, so that every pair below is reached by a click that changes something (and is narrated)
    last_m, last_p = shipped["mechanisms"][-1]["key"], shipped["phases"][-1]["key"]
    fig = open_figure(page, site_url, FIG, f"#fig-16.mech={last_m}&fig-16.phase={last_p}")
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
    # softmax is the default mechanism, so the link leaves it out and keeps the rest
    assert "fig-16.mech" not in page.url and "fig-16.phase=decode" in page.url and f"fig-16.n={n}" in page.url
    assert_shows(fig, shipped, "softmax", "decode", n)
    page.go_back()
    page.wait_for_selector(f"#{FIG} [role=radio][data-value='mla'][aria-checked=true]")
    assert_shows(fig, shipped, "mla", "decode", n)


def test_no_accessibility_violations_through_every_interaction(watched, site_url):
    page, _ = watched
    open_figure(page, site_url, FIG)
    f = f"#{FIG}"

    def key_in(selector, *keys):
        def act(page):
            page.locator(f"{f} {selector}").focus()
            for k in keys:
                page.keyboard.press(k)

        return act

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
            "arrow keys in the mechanism group": key_in(
                "[aria-label=Mechanism] [role=radio][aria-checked=true]", "ArrowRight"
            ),
            "arrow keys in the phase group": key_in("[aria-label=Phase] [role=radio][aria-checked=true]", "ArrowLeft"),
            "slider to its end": key_in(".k3-slider input", "End"),
            "slider to its start": key_in(".k3-slider input", "Home", "ArrowRight"),
            "history back": lambda page: (page.go_back(), page.wait_for_timeout(200)),
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
