"""FIG 07b · forgetting on purpose: the shipped curves are the kernel's; the readout table, the
marker's dots and the gate strip show them for every control (schedule choice, α slider, token
slider, dragging on a chart; mouse and keyboard); the state lives in the URL and in history; the
recall and α symbols link both ways; axe finds nothing serious."""

from itertools import pairwise

import numpy as np
import pytest

from k3project.experiments import forgetting_curves, gate_schedule
from tests.browser.support import assert_axe_clean_through, open_figure, shipped_data

pytestmark = pytest.mark.browser
FIG = "fig-07b"
MECHS = ("deltanet", "gated", "kda")

# everything the checks read, in one round trip
READ = """() => {
  const f = document.getElementById('fig-07b');
  const num = t => t.trim() === '—' ? null : parseFloat(t.replace('\\u2212', '-').replace('%', '')) / 100;
  return {
    table: [...f.querySelectorAll('.f07b-table tbody tr')].map(tr => [...tr.querySelectorAll('td')].map(td => num(td.textContent))),
    caption: f.querySelector('.f07b-caption').textContent,
    live: f.querySelector('.fig-live').textContent,
    fades: [...f.querySelectorAll('.f07b-cells[role=img]')].map(r => [...r.children].map(c => parseFloat(c.style.getPropertyValue('--fade')))),
    gates: [...f.querySelectorAll('.f07b-cells[role=img]')].map(r => r.getAttribute('aria-label')),
    dots: [...f.querySelectorAll('.f07b-chart')].map(c => [...c.querySelectorAll('.f07b-dot')].map(d => d.style.visibility === 'hidden' ? null : +d.getAttribute('cy'))),
    cursor: [...f.querySelectorAll('.f07b-cursor')].map(c => c.getAttribute('transform')),
    checked: f.querySelector('[role=radio][aria-checked=true]').dataset.value,
    sliders: [...f.querySelectorAll('input[type=range]')].map(i => i.getAttribute('aria-valuetext')),
    url: location.hash,
  };
}"""


@pytest.fixture(scope="module")
def kernel(site_dir):
    """The shipped curves next to the same curves computed again from what the data says was run."""
    data = shipped_data(site_dir, FIG)
    alphas, schedules = data["alphas"], data["schedules"]
    runs = [("deltanet", 1.0, "every")] + [(m, a, s) for s in schedules for m in ("gated", "kda") for a in alphas]
    recall = forgetting_curves(
        data["seeds"], runs, [t - 1 for t in data["tokens"]], alpha_slow=data["alpha_slow"], **data["stream"]
    )
    curves = {("deltanet", s, a): recall[0] for s in schedules for a in alphas}
    for i, (m, a, s) in enumerate(runs[1:], start=1):
        curves[(m, s, a)] = recall[i]
    return {"data": data, "curves": curves}


def expected(kernel, when, alpha, token):
    """The nine numbers at a marker, as the table shows them ([mechanism][kind]; None before a topic's first pair:
    the old topic's after the fact, the new topic's at the switch)."""
    d = kernel["data"]
    i = d["tokens"].index(token)
    unwritten = {"old": d["first_old"], "new": d["first_new"], "fact": 0}
    return [
        [None if i < unwritten[k] else kernel["curves"][(m, when, alpha)][c][i] for c, k in enumerate(d["kinds"])]
        for m in MECHS
    ]


def assert_shows(page, kernel, when, alpha, token):
    got = page.evaluate(READ)
    d = kernel["data"]
    want = expected(kernel, when, alpha, token)
    for r, m in enumerate(MECHS):
        for c, k in enumerate(d["kinds"]):
            if want[r][c] is None:
                assert got["table"][r][c] is None, (m, k)
            else:
                assert got["table"][r][c] == pytest.approx(want[r][c], abs=0.0051), (m, k)  # whole percent
    assert got["caption"] == f"After token {token} · gate {d['schedule_labels'][when]}, α = {alpha:.2f}"
    assert got["checked"] == when
    assert got["sliders"] == [f"α = {alpha:.2f}", f"after token {token}"]
    # the marker's dots sit at the values: y grows downwards, 100% at the top grid line
    for c in range(3):
        ys = [y for y in got["dots"][c] if y is not None]
        vals = [w[c] for w in want if w[c] is not None]
        if len(vals) > 1:
            order = np.argsort(vals)
            assert all(ys[a] >= ys[b] - 1e-6 for a, b in pairwise(order))  # higher recall, higher dot
    # the gate strip: fade = 100·(1 − the channel's α) for DeltaNet, Gated DeltaNet, KDA
    slow = d["n_slow"]
    assert got["fades"][0] == [0] * d["d_k"]
    assert got["fades"][1] == [round(100 * (1 - alpha))] * d["d_k"]
    assert got["fades"][2] == [round(100 * (1 - d["alpha_slow"]))] * slow + [round(100 * (1 - alpha))] * (
        d["d_k"] - slow
    )
    return got


def test_shipped_data_is_the_kernels(kernel):
    d, curves = kernel["data"], kernel["curves"]
    st = d["stream"]
    for m in MECHS:  # the strip's cells: each channel's factor at the gated step, as the runs used it
        for i, a in enumerate(d["alphas"]):
            g = gate_schedule(
                m,
                a,
                n_tokens=st["n_tokens"],
                d_k=st["d_k"],
                n_slow=st["n_slow"],
                switch_at=st["switch_at"],
                schedule="switch",
                alpha_slow=d["alpha_slow"],
            )
            np.testing.assert_allclose(d["channel_gates"][m][i], np.exp(g[st["switch_at"]]), rtol=0, atol=1e-15)
    np.testing.assert_allclose(d["deltanet"], curves[("deltanet", "switch", 1.0)], rtol=0, atol=5e-4 + 1e-12)
    for s in d["schedules"]:
        for m in ("gated", "kda"):
            for i, a in enumerate(d["alphas"]):
                np.testing.assert_allclose(d[m][s][i], curves[(m, s, a)], rtol=0, atol=5e-4 + 1e-12)


def test_default_view(watched, site_url, kernel):
    page, _ = watched
    open_figure(page, site_url, FIG)
    d = kernel["data"]
    got = assert_shows(page, kernel, d["schedule_default"], d["alpha_default"], d["tokens"][-1])
    assert got["gates"][2] == "KDA: fact channels × 1.00, topic channels × 0.20"
    assert got["url"] in ("", "#")
    # the lines: one path per memory per chart, the new topic's starting at the switch
    n = page.evaluate("""() => [...document.querySelectorAll('#fig-07b .f07b-chart')].map(c =>
        [...c.querySelectorAll('.f07b-line')].map(p => (p.getAttribute('d').match(/[ML]/g) || []).length))""")
    T = len(d["tokens"])
    assert n == [[T - d["first_old"]] * 3, [T - d["first_new"]] * 3, [T] * 3]


def test_controls_by_keyboard(watched, site_url, kernel):
    page, _ = watched
    fig = open_figure(page, site_url, FIG)
    d = kernel["data"]
    alphas, last = d["alphas"], d["tokens"][-1]
    fig.get_by_label("Gate alpha of Gated DeltaNet, and of KDA on the topic channels").focus()
    page.keyboard.press("Home")
    got = assert_shows(page, kernel, "switch", 0.0, last)
    assert "α = 0.00" in got["live"] and "long-lived fact — DeltaNet 100%, Gated DeltaNet 0%, KDA 100%" in got["live"]
    page.keyboard.press("End")
    assert_shows(page, kernel, "switch", 1.0, last)
    for _ in range(2):
        page.keyboard.press("ArrowLeft")
    assert_shows(page, kernel, "switch", alphas[-3], last)
    fig.get_by_role("radio", name="at the switch").focus()
    page.keyboard.press("ArrowRight")
    assert_shows(page, kernel, "every", alphas[-3], last)
    assert page.evaluate("document.activeElement.dataset.value") == "every"  # focus follows the choice
    page.keyboard.press("Home")
    assert_shows(page, kernel, "switch", alphas[-3], last)
    page.keyboard.press("End")
    assert_shows(page, kernel, "every", alphas[-3], last)
    fig.get_by_label("Token", exact=True).focus()
    page.keyboard.press("Home")
    got = assert_shows(page, kernel, "every", alphas[-3], 1)
    assert got["live"].startswith("After token 1: ") and "new topic — not written yet" in got["live"]
    for _ in range(d["first_new"]):
        page.keyboard.press("ArrowRight")
    got = assert_shows(page, kernel, "every", alphas[-3], d["switch_token"])
    assert "fig-07b.when=every" in got["url"] and f"fig-07b.token={d['switch_token']}" in got["url"]


def test_controls_by_mouse_and_drag(watched, site_url, kernel):
    page, _ = watched
    fig = open_figure(page, site_url, FIG)
    d = kernel["data"]
    fig.get_by_role("radio", name="on every step").click()
    assert_shows(page, kernel, "every", 0.2, d["tokens"][-1])
    slider = fig.get_by_label("Gate alpha of Gated DeltaNet, and of KDA on the topic channels")
    box = slider.bounding_box()
    page.mouse.click(box["x"] + box["width"] - 2, box["y"] + box["height"] / 2)  # the right end: α = 1
    assert_shows(page, kernel, "every", 1.0, d["tokens"][-1])
    # drag along the fact chart from its left edge to the switch: the marker follows the pointer
    chart = fig.locator(".f07b-chart[data-kind=fact] svg")
    cb = chart.bounding_box()
    scale = cb["width"] / 300
    x_of = lambda tok: cb["x"] + (38 + 254 * (tok - 1) / (d["n_tokens"] - 1)) * scale  # the viewBox's plot area
    y = cb["y"] + cb["height"] / 2
    page.mouse.move(x_of(1), y)
    page.mouse.down()
    got = assert_shows(page, kernel, "every", 1.0, 1)
    page.mouse.move(x_of(d["switch_token"]), y, steps=4)
    page.mouse.up()
    got = assert_shows(page, kernel, "every", 1.0, d["switch_token"])
    assert f"fig-07b.token={d['switch_token']}" in got["url"]
    page.go_back()  # the whole drag was one history entry: back is α = 1 at the last token
    page.wait_for_function("() => !location.hash.includes('token=')")
    assert_shows(page, kernel, "every", 1.0, d["tokens"][-1])


def test_state_lives_in_the_url(watched, site_url, kernel):
    page, _ = watched
    open_figure(page, site_url, FIG, "#fig-07b.when=every&fig-07b.alpha=0.9&fig-07b.token=20")
    assert_shows(page, kernel, "every", 0.9, 19)  # token 20 was not read: the nearest one that was (ties go left)
    open_figure(page, site_url, FIG, "#fig-07b.alpha=0.5&fig-07b.token=33")
    got = assert_shows(page, kernel, "switch", 0.5, 33)
    assert got["table"][1][2] == pytest.approx(0.5, abs=0.0051) and got["table"][2][2] == pytest.approx(1, abs=0.0051)


def test_symbols_link_both_ways(watched, site_url):
    page, _ = watched
    fig = open_figure(page, site_url, FIG)
    page.locator("#gated-deltanet .math-block math [data-sym='fg-recall']").first.hover()
    assert fig.locator("td[data-sym='fg-recall'].sym-on").count() == 9
    fig.locator(".f07b-table td").nth(4).hover()
    assert page.locator("#gated-deltanet .math-block math [data-sym='fg-recall'].sym-on").count() >= 1
    fig.locator(".f07b-cells[data-sym='gd-alpha']").hover()
    assert page.locator("#gated-deltanet [data-sym='gd-alpha'].sym-on").count() >= 2  # the equations' α and the slider
    assert fig.locator(".f07b-cells[data-sym='kda-alpha']").count() == 1


def test_no_accessibility_violations_through_the_controls(watched, site_url):
    page, _ = watched
    fig = open_figure(page, site_url, FIG)
    assert_axe_clean_through(
        page,
        FIG,
        {
            "every step by click, then alpha by keyboard": lambda p: (
                fig.get_by_role("radio", name="on every step").click(),
                fig.get_by_label("Gate alpha of Gated DeltaNet, and of KDA on the topic channels").focus(),
                p.keyboard.press("Home"),
            ),
            "token before the switch": lambda p: (
                fig.get_by_label("Token", exact=True).focus(),
                p.keyboard.press("Home"),
            ),
        },
    )
