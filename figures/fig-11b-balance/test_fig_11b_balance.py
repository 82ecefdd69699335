"""FIG 11b · load balance over router steps: the shipped runs are the kernel's (re-run here from the
seed), and every control — the step slider and the chart drag, the α and capacity-factor groups, the
expert bars by hover, click and arrow keys — shows the kernel's numbers; the state survives a link
and back; the equation's symbols and the figure light each other; axe finds nothing."""

import re

import numpy as np
import pytest

from k3explainer.site.projectcode import builder
from k3project.experiments import balance_runs, dropped_share, expert_capacity, load_ratio
from tests.browser.support import ROOT, assert_axe_clean_through, open_figure, shipped_data, shown_number

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
  };
}"""


@pytest.fixture(scope="module")
def kernel(site_dir):
    data = shipped_data(site_dir, FIG)
    E, k, T, S = data["experts"], data["top_k"], data["tokens"], data["n_steps"]
    every = data["steps"][1] - data["steps"][0]
    fig11b = builder(ROOT, "fig-11b-balance")
    x = fig11b.draw_inputs(data["seed"], E, data["feature_dim"], S, T, data["preference_scale"], data["weight_scale"])
    np.testing.assert_allclose(data["p0"], x["p0"], rtol=1e-5)  # the re-draw is the builder's
    np.testing.assert_allclose(data["W0"], x["W0"], rtol=1e-5)
    runs = fig11b.runs_for(data["alphas"])
    out = balance_runs(
        x["X"][None], x["W0"][None], x["p0"][None], top_k=k, runs=runs, gamma=data["gamma"], lr=data["lr"], every=every
    )
    load = out["load"][:, 0].astype(int)
    bias = out["bias"][-1, 0]
    return {
        "data": data,
        "runs": runs,
        "load": load,
        "grid": out["steps"],
        "ratio": load_ratio(load),
        "stat": out["stat"][:, 0],
        "share": out["aux_share"][:, 0],
        "cosine": out["cosine"][:, 0],
        "bias": bias - bias.mean(axis=-1, keepdims=True),
        "cap": {cf: expert_capacity(cf, T, E, k) for cf in data["capacity_factors"]},
    }


def run_index(kernel, kind, alpha):
    return {"none": 0, "bias": len(kernel["runs"]) - 1}.get(kind, 1 + kernel["data"]["alphas"].index(alpha))


def assert_shows(page, kernel, step, alpha, cf, expert=-1):
    """Titles, bars, capacity lines and readouts show the kernel's numbers for this state."""
    seen = page.evaluate(READ)
    assert seen["state"] == {"step": step, "a": alpha, "cf": cf, "e": expert}
    j = list(kernel["grid"]).index(step)
    cap, top = kernel["cap"][cf], kernel["data"]["load_axis"]
    assert seen["output"] == f"{step} of {kernel['data']['n_steps']}"
    assert seen["titles"][1] == f"Switch loss, α = {alpha:g}"
    for p, kind in enumerate(KINDS):
        r = run_index(kernel, kind, alpha)
        loads = kernel["load"][r, step]
        assert [int(re.search(r": (\d+) tokens", t).group(1)) for t in seen["bars"][p]] == list(loads)
        assert [(", " in t) for t in seen["bars"][p]] == list(loads > cap)  # "… over capacity" where it spills
        np.testing.assert_allclose(seen["heights"][p], loads / top, rtol=0, atol=1e-5)  # CSS keeps 6 digits
        assert seen["capacity"][p] == pytest.approx(cap / top, abs=0.01)
        note = seen["notes"][p]
        nums = [shown_number(n.rstrip("%")) for n in re.findall(r"−?\d+\.\d+%?|\d+%", note)]
        assert nums[0] == pytest.approx(kernel["ratio"][r, step], abs=0.005)
        assert nums[1] == pytest.approx(100 * dropped_share(loads, cap), abs=0.05)
        if kind == "switch":
            assert nums[2] == pytest.approx(kernel["stat"][r, j], abs=0.005)
            assert nums[3] == pytest.approx(100 * kernel["share"][r, j], abs=0.5)
        if kind == "bias":
            assert "0% of the router update" in note
        assert seen["selected"][p] == expert
    assert sorted(seen["faint"]) == [
        i for i in range(1, len(kernel["runs"]) - 1) if i != run_index(kernel, "switch", alpha)
    ]
    assert f"capacity ×{cf:g}" in seen["key"]
    return seen


def test_shipped_data_is_the_kernels(kernel):
    data = kernel["data"]
    assert [(r["regime"], r["alpha"]) for r in data["runs"]] == kernel["runs"]
    np.testing.assert_array_equal(data["ratio"], kernel["ratio"])
    np.testing.assert_array_equal(data["load"], kernel["load"][:, kernel["grid"]])
    for c, cf in enumerate(data["capacity_factors"]):
        assert data["capacity"][c] == kernel["cap"][cf]
        np.testing.assert_array_equal(
            data["dropped"][c], dropped_share(kernel["load"][:, kernel["grid"]], kernel["cap"][cf])
        )
    for key in ("stat", "share", "cosine"):
        np.testing.assert_allclose(data[{"share": "aux_share"}.get(key, key)], kernel[key], rtol=1e-5, atol=1e-12)
    np.testing.assert_allclose(data["bias"], kernel["bias"], rtol=0, atol=1e-6)


def test_default_view_and_the_step_by_keys_and_by_dragging_the_chart(watched, site_url, kernel):
    page, _ = watched
    fig = open_figure(page, site_url, FIG)
    last = kernel["data"]["n_steps"]
    seen = assert_shows(page, kernel, last, 1.0, 1.25)
    assert f"no balancing ends at {kernel['ratio'][0, last]:.2f}" in seen["chart"]
    slider = fig.get_by_role("slider", name="Step")
    slider.focus()
    page.keyboard.press("Home")
    assert_shows(page, kernel, 0, 1.0, 1.25)
    page.keyboard.press("ArrowRight")
    seen = assert_shows(page, kernel, 4, 1.0, 1.25)
    assert f"Step 4: busiest ÷ mean {kernel['ratio'][0, 4]:.2f}" in seen["live"]
    assert "fig-11b.step=4" in page.url
    # a press on the chart, then a drag, picks the grid step under the pointer (x runs 0 … n_steps)
    box, margin = fig.locator(".f11b-plot").bounding_box(), (34, 10)
    at = lambda step: box["x"] + margin[0] + (box["width"] - sum(margin)) * step / last
    page.mouse.move(at(60), box["y"] + 60)
    page.mouse.down()
    assert_shows(page, kernel, 60, 1.0, 1.25)
    page.mouse.move(at(32), box["y"] + 60)
    page.mouse.up()
    assert_shows(page, kernel, 32, 1.0, 1.25)
    assert "fig-11b.step=32" in page.url


def test_loss_weight_and_capacity_factor_by_click_and_arrow_keys(watched, site_url, kernel):
    page, _ = watched
    fig = open_figure(page, site_url, FIG)
    last = kernel["data"]["n_steps"]
    fig.get_by_role("radio", name="α = 3").click()
    seen = assert_shows(page, kernel, last, 3.0, 1.25)
    r = run_index(kernel, "switch", 3.0)
    assert f"the loss supplied {100 * kernel['share'][r, -1]:.0f}% of the router update" in seen["live"]
    page.keyboard.press("ArrowLeft")  # focus stays in the group: α = 1, then 0.3
    page.keyboard.press("ArrowLeft")
    assert_shows(page, kernel, last, 0.3, 1.25)
    fig.get_by_role("radio", name="capacity factor 2").click()
    assert_shows(page, kernel, last, 0.3, 2.0)
    page.keyboard.press("Home")
    seen = assert_shows(page, kernel, last, 0.3, 1.0)
    assert "fig-11b.cf=1" in page.url and "fig-11b.a=0.3" in page.url


def test_expert_bars_by_hover_click_and_keys(watched, site_url, kernel):
    page, _ = watched
    fig = open_figure(page, site_url, FIG, "#fig-11b.step=20")
    j = list(kernel["grid"]).index(20)
    bars = fig.locator(".f11b-p-switch [role=option]")
    bars.nth(4).hover()
    seen = assert_shows(page, kernel, 20, 1.0, 1.25, 4)

    def expected(e, alpha=1.0):
        loads = [kernel["load"][run_index(kernel, kind, alpha), 20, e] for kind in KINDS]
        return (
            f"Expert {e + 1} at step 20: {loads[0]} tokens (no balancing), {loads[1]} tokens (Switch loss, α = {alpha:g}), "
            f"{loads[2]} tokens (bias); capacity {kernel['cap'][1.25]}"
        )

    assert expected(4) in seen["pick"] and expected(4) in seen["live"]
    bias, shipped = kernel["bias"][j, 4], kernel["data"]["bias"][j][4]
    shown = "0.00" if abs(bias) < 0.005 else f"{bias:.2f}".replace("-", "\u2212")
    assert f"Its bias: {'+' if shipped > 0 else ''}{shown} against" in seen["pick"]
    fig.locator(".f11b-p-bias [role=option]").nth(9).click()
    assert_shows(page, kernel, 20, 1.0, 1.25, 9)
    page.keyboard.press("ArrowRight")
    assert_shows(page, kernel, 20, 1.0, 1.25, 10)
    assert page.evaluate("document.activeElement.dataset.e") == "10"
    page.keyboard.press("End")
    seen = assert_shows(page, kernel, 20, 1.0, 1.25, kernel["data"]["experts"] - 1)
    assert expected(kernel["data"]["experts"] - 1) in seen["live"]
    assert "fig-11b.e=15" in page.url


def test_state_lives_in_the_url_and_history(watched, site_url, kernel):
    page, _ = watched
    fig = open_figure(page, site_url, FIG, "#fig-11b.step=20&fig-11b.a=3&fig-11b.cf=1&fig-11b.e=10")
    assert_shows(page, kernel, 20, 3.0, 1.0, 10)
    fig.get_by_role("radio", name="α = 0.3").click()
    assert "fig-11b.a=0.3" in page.url
    assert_shows(page, kernel, 20, 0.3, 1.0, 10)
    page.go_back()
    page.wait_for_function("() => K3.figure('fig-11b').state().a === 3")
    assert_shows(page, kernel, 20, 3.0, 1.0, 10)


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


def test_no_accessibility_violations_through_every_interaction(watched, site_url):
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
