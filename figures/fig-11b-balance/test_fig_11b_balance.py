"""FIG 11b · load balance over router steps, in the browser: every control — the step slider and
the chart drag, the α and capacity-factor groups, the expert bars by hover, click and arrow keys —
shows the shipped numbers and texts for its state; the state survives a link and back; the
equation's symbols and the figure light each other; axe finds nothing. The shipped data against
the kernels, and its sentences against the numbers, are checked in test_fig_11b_data.py."""

import numpy as np
import pytest

from k3explainer.site.readertext import fill
from tests.browser.support import assert_axe_clean_through, assert_shown_is_shipped, open_figure, shipped_data

pytestmark = pytest.mark.browser
FIG = "fig-11b"
KINDS = ("none", "switch", "bias")

# everything the figure shows, read in one round trip
READ = """() => {
  const f = document.getElementById('fig-11b'), all = (s) => [...f.querySelectorAll(s)];
  return {
    state: K3.figure('fig-11b').state(),
    titles: all('.f11b-title').map(n => n.textContent),
    notes: all('.f11b-note').map(n => n.textContent),
    lists: all('.f11b-bars').map(l => l.getAttribute('aria-label')),
    bars: all('.f11b-bars').map(l => [...l.querySelectorAll('[role=option]')].map(o => o.getAttribute('aria-label'))),
    selected: all('.f11b-bars').map(l => [...l.querySelectorAll('[role=option]')].findIndex(o => o.getAttribute('aria-selected') === 'true')),
    heights: all('.f11b-bars').map(l => [...l.querySelectorAll('[role=option]')].map(o =>  // as set (bars ease into it)
      (parseFloat(o.querySelector('.f11b-in').style.height) + parseFloat(o.querySelector('.f11b-over').style.height)) / 100)),
    capacity: all('.f11b-capbar').map(n => (n.parentNode.clientHeight - n.offsetTop - n.offsetHeight / 2) / n.parentNode.clientHeight),
    pick: f.querySelector('.f11b-pick').textContent,
    output: f.querySelector('.k3-slider output').textContent,
    live: f.querySelector('.fig-live').textContent,
    faint: all('.f11b-line.is-faint').map(n => +n.dataset.run),
    chart: f.querySelector('.f11b-chart').getAttribute('aria-label'),
    key: f.querySelector('.f11b > .k3-legend').textContent,
    options: all('[role=radio]').map(n => [n.textContent, n.getAttribute('aria-label')]),
  };
}"""


@pytest.fixture(scope="module")
def shipped(site_dir):
    return shipped_data(site_dir, FIG)


def run_index(data, kind, alpha):
    return {"none": 0, "bias": len(data["runs"]) - 1}.get(kind, 1 + data["alphas"].index(alpha))


def expected(data, step, alpha, cf, expert=-1) -> dict:
    """The shipped texts for this state, filled as the component fills them: the panels' titles,
    list and bar labels and notes, the chart's label, the readout under the bars."""
    j, c, a = data["steps"].index(step), data["capacity_factors"].index(cf), data["alphas"].index(alpha)
    r = {kind: run_index(data, kind, alpha) for kind in KINDS}
    out = {"titles": [data["title"][r[k]] for k in KINDS], "notes": [], "lists": [], "bars": []}
    for kind in KINDS:
        run = r[kind]
        out["lists"].append(
            fill(data, ["text", "bars"], {"title": ["title", run], "step": ["steps", j], "capacity": ["capacity", c]})
        )
        bars = []
        for e in range(data["experts"]):
            slots = {"expert": ["expert_label", e], "load": ["load", run, j, e]}
            if data["over_capacity"][c][run][j][e]:
                slots["over"] = ["over_capacity", c, run, j, e]
            bars.append(fill(data, ["text", "bar_over" if "over" in slots else "bar"], slots))
        out["bars"].append(bars)
        slots = {"ratio": ["ratio_text", run, j], "dropped": ["dropped_text", c, run, j]}
        if kind == "switch":
            slots["stat"] = ["stat_text", run, j]
        if kind != "none":
            slots["share"] = ["aux_share_text", run, j]
        out["notes"].append(fill(data, ["text", "note", kind], slots))
    out["chart"] = fill(
        data,
        ["text", "chart"],
        {
            "alpha": ["alpha_text", a],
            "switch_end": ["ratio_text", r["switch"], len(data["steps"]) - 1],
            "cf": ["cf_text", c],
            "step": ["steps", j],
        },
    )
    out["output"] = fill(data, ["text", "slider"], {"step": ["steps", j], "last": ["n_steps"]})
    out["key"] = fill(data, ["text", "cf_key"], {"cf": ["cf_text", c]})
    if expert < 0:
        out["pick"] = fill(data, ["text", "pick_hint"], {"capacity": ["capacity", c]})
    else:
        out["pick"] = fill(
            data,
            ["text", "expert"],
            {
                "expert": ["expert_label", expert],
                "step": ["steps", j],
                "alpha": ["alpha_text", a],
                "capacity": ["capacity", c],
                "bias": ["bias_text", j, expert],
                **{f"load_{kind}": ["load", r[kind], j, expert] for kind in KINDS},
            },
        )
    out["step_said"] = fill(
        data,
        ["text", "step"],
        {
            "step": ["steps", j],
            "title": ["title", r["switch"]],
            "cf": ["cf_text", c],
            "share": ["aux_share_text", r["switch"], j],
            **{f"ratio_{kind}": ["ratio_text", r[kind], j] for kind in KINDS},
            **{f"dropped_{kind}": ["dropped_text", c, r[kind], j] for kind in KINDS},
        },
    )
    return out


def assert_shows(page, site_dir, data, step, alpha, cf, expert=-1):
    """Titles, bars, capacity lines and readouts show the shipped numbers and texts for this state."""
    seen = page.evaluate(READ)
    assert seen["state"] == {"step": step, "a": alpha, "cf": cf, "e": expert}
    want = expected(data, step, alpha, cf, expert)
    for key in ("titles", "notes", "lists", "bars", "chart", "output", "pick"):
        assert seen[key] == want[key], key
    assert want["key"] in seen["key"]
    j, c = data["steps"].index(step), data["capacity_factors"].index(cf)
    cap, top = data["capacity"][c], data["load_axis"]
    for p, kind in enumerate(KINDS):
        loads = np.array(data["load"][run_index(data, kind, alpha)][j])
        np.testing.assert_allclose(seen["heights"][p], loads / top, rtol=0, atol=1e-5)  # CSS keeps 6 digits
        assert seen["capacity"][p] == pytest.approx(cap / top, abs=0.01)
        assert seen["selected"][p] == expert
    assert sorted(seen["faint"]) == [
        i for i in range(1, len(data["runs"]) - 1) if i != run_index(data, "switch", alpha)
    ]
    # the options' labels, and every text placed from the data, are the shipped ones
    assert seen["options"] == [[f"α = {t}", None] for t in data["alpha_text"]] + [
        [f"×{t}", f"capacity factor {t}"] for t in data["cf_text"]
    ]
    assert assert_shown_is_shipped(page, site_dir, FIG) >= 3 * (2 + data["experts"]) + 3
    seen["want"] = want
    return seen


def test_default_view_and_the_step_by_keys_and_by_dragging_the_chart(watched, site_url, site_dir, shipped):
    page, _ = watched
    fig = open_figure(page, site_url, FIG)
    last = shipped["n_steps"]
    seen = assert_shows(page, site_dir, shipped, last, 1.0, 1.25)
    assert f"no balancing ends at {shipped['ratio_text'][0][-1]}" in seen["chart"]
    slider = fig.get_by_role("slider", name="Step")
    slider.focus()
    page.keyboard.press("Home")
    assert_shows(page, site_dir, shipped, 0, 1.0, 1.25)
    page.keyboard.press("ArrowRight")
    seen = assert_shows(page, site_dir, shipped, 4, 1.0, 1.25)
    assert seen["live"] == seen["want"]["step_said"] and seen["live"].startswith(
        f"Step 4: busiest ÷ mean {shipped['ratio_text'][0][shipped['steps'].index(4)]} (No balancing)"
    )
    assert "fig-11b.step=4" in page.url
    # a press on the chart, then a drag, picks the grid step under the pointer (x runs 0 … n_steps)
    box, margin = fig.locator(".f11b-plot").bounding_box(), (34, 10)
    at = lambda step: box["x"] + margin[0] + (box["width"] - sum(margin)) * step / last
    page.mouse.move(at(60), box["y"] + 60)
    page.mouse.down()
    assert_shows(page, site_dir, shipped, 60, 1.0, 1.25)
    page.mouse.move(at(32), box["y"] + 60)
    page.mouse.up()
    assert_shows(page, site_dir, shipped, 32, 1.0, 1.25)
    assert "fig-11b.step=32" in page.url


def test_loss_weight_and_capacity_factor_by_click_and_arrow_keys(watched, site_url, site_dir, shipped):
    page, _ = watched
    fig = open_figure(page, site_url, FIG)
    last = shipped["n_steps"]
    fig.get_by_role("radio", name="α = 3").click()
    seen = assert_shows(page, site_dir, shipped, last, 3.0, 1.25)
    share = shipped["aux_share_text"][run_index(shipped, "switch", 3.0)][-1]
    assert (
        seen["live"] == seen["want"]["step_said"] and f"the loss supplied {share} of the router update" in seen["live"]
    )
    page.keyboard.press("ArrowLeft")  # focus stays in the group: α = 1, then 0.3
    page.keyboard.press("ArrowLeft")
    assert_shows(page, site_dir, shipped, last, 0.3, 1.25)
    fig.get_by_role("radio", name="capacity factor 2").click()
    assert_shows(page, site_dir, shipped, last, 0.3, 2.0)
    page.keyboard.press("Home")
    seen = assert_shows(page, site_dir, shipped, last, 0.3, 1.0)
    assert "fig-11b.cf=1" in page.url and "fig-11b.a=0.3" in page.url


def test_expert_bars_by_hover_click_and_keys(watched, site_url, site_dir, shipped):
    page, _ = watched
    fig = open_figure(page, site_url, FIG, "#fig-11b.step=20")
    j = shipped["steps"].index(20)
    bars = fig.locator(".f11b-p-switch [role=option]")
    bars.nth(4).hover()
    seen = assert_shows(page, site_dir, shipped, 20, 1.0, 1.25, 4)
    loads = [shipped["load"][run_index(shipped, kind, 1.0)][j][4] for kind in KINDS]
    assert seen["pick"].startswith(
        f"Expert 5 at step 20: {loads[0]} tokens (no balancing), {loads[1]} tokens (Switch loss, α = 1), "
        f"{loads[2]} tokens (bias); capacity {shipped['capacity'][1]}"
    )
    assert seen["live"] == seen["pick"]  # the narration says what the readout shows
    assert f"Its bias: {shipped['bias_text'][j][4]} against" in seen["pick"]
    fig.locator(".f11b-p-bias [role=option]").nth(9).click()
    assert_shows(page, site_dir, shipped, 20, 1.0, 1.25, 9)
    page.keyboard.press("ArrowRight")
    assert_shows(page, site_dir, shipped, 20, 1.0, 1.25, 10)
    assert page.evaluate("document.activeElement.dataset.e") == "10"
    page.keyboard.press("End")
    seen = assert_shows(page, site_dir, shipped, 20, 1.0, 1.25, shipped["experts"] - 1)
    assert seen["live"] == seen["pick"] and seen["pick"].startswith(f"Expert {shipped['experts']} at step 20: ")
    assert "fig-11b.e=15" in page.url


def test_state_lives_in_the_url_and_history(watched, site_url, site_dir, shipped):
    page, _ = watched
    fig = open_figure(page, site_url, FIG, "#fig-11b.step=20&fig-11b.a=3&fig-11b.cf=1&fig-11b.e=10")
    assert_shows(page, site_dir, shipped, 20, 3.0, 1.0, 10)
    fig.get_by_role("radio", name="α = 0.3").click()
    assert "fig-11b.a=0.3" in page.url
    assert_shows(page, site_dir, shipped, 20, 0.3, 1.0, 10)
    page.go_back()
    page.wait_for_function("() => K3.figure('fig-11b').state().a === 3")
    assert_shows(page, site_dir, shipped, 20, 3.0, 1.0, 10)


def test_symbols_link_both_ways_and_motion_follows_the_reader(watched, site_url):
    page, _ = watched
    fig = open_figure(page, site_url, FIG)
    eq = lambda name: page.locator(f"#moe math [data-sym='{name}']").first
    eq("bal-bias").hover()
    assert fig.locator(".f11b-p-bias .f11b-title.sym-on").count() == 1
    eq("bal-load").hover()
    assert fig.locator(".f11b-bars.sym-on").count() == 3
    eq("bal-alpha").hover()
    assert (
        fig.locator(".f11b-p-switch .f11b-title.sym-on").count() == 1
        and fig.locator("[role=radio].sym-on").count() == 3
    )
    eq("bal-capacity").hover()
    assert fig.locator(".f11b-capbar.sym-on").count() == 3 and fig.locator(".f11b-cap.sym-on").count() == 1
    fig.locator(".f11b-p-none [role=option]").nth(2).hover()
    assert page.locator("#moe math [data-sym='bal-load'].sym-on").count() >= 1
    assert page.evaluate("getComputedStyle(document.querySelector('#fig-11b .f11b-in')).transitionDuration") != "0s"
    page.emulate_media(reduced_motion="reduce")
    assert page.evaluate("getComputedStyle(document.querySelector('#fig-11b .f11b-in')).transitionDuration") == "0s"
    page.set_viewport_size({"width": 390, "height": 800})  # a phone: nothing scrolls sideways
    page.wait_for_function("() => document.querySelector('#fig-11b .f11b-chart').getAttribute('width') < 390")
    assert page.evaluate(
        "(() => { const f = document.getElementById('fig-11b'); return f.scrollWidth <= f.clientWidth; })()"
    )


def test_no_accessibility_violations_at_load_and_in_chosen_states(watched, site_url):
    """axe at load and in three states the load does not show: the first step by Home (focus on
    the slider), a new loss weight and capacity factor, and an expert bar picked by click and arrow
    key in the dark scheme."""
    page, _ = watched
    fig = open_figure(page, site_url, FIG)
    assert_axe_clean_through(
        page,
        FIG,
        {
            "step by keyboard": lambda p: (fig.get_by_role("slider", name="Step").focus(), p.keyboard.press("Home")),
            "loss weight and capacity by click": lambda p: (
                fig.get_by_role("radio", name="α = 3").click(),
                fig.get_by_role("radio", name="capacity factor 2").click(),
            ),
            "expert bar by click and arrow key, in the dark scheme": lambda p: (
                p.emulate_media(color_scheme="dark"),
                fig.locator(".f11b-p-none [role=option]").nth(3).click(),
                p.keyboard.press("ArrowRight"),
            ),
        },
    )
