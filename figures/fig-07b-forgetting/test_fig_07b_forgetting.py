"""FIG 07b · forgetting on purpose in the browser: the readout table, the charts' labels, the
marker's dots and the gate strip show the shipped curves for every control (schedule choice, α
slider, token slider, dragging on a chart; mouse and keyboard); the state lives in the URL and in
history; the recall and α symbols link both ways; axe finds nothing serious. What is shown is
checked against what was shipped; the shipped data against the kernels, and its sentences against
the numbers, in test_fig_07b_data.py."""

import json
from itertools import pairwise

import numpy as np
import pytest

from k3explainer.site.readertext import fill
from tests.browser.support import assert_axe_clean_through, assert_shown_is_shipped, open_figure, shipped_data

pytestmark = pytest.mark.browser
FIG = "fig-07b"
MECHS = ("deltanet", "gated", "kda")

# everything the checks read, in one round trip
READ = """() => {
  const f = document.getElementById('fig-07b');
  const num = t => t.trim() === '—' ? null : parseFloat(t.replace('\\u2212', '-').replace('%', '')) / 100;
  return {
    table: [...f.querySelectorAll('.f07b-table tbody tr')].map(tr => [...tr.querySelectorAll('td')].map(td => num(td.textContent))),
    shows: [...f.querySelectorAll('.f07b-table tbody tr')].map(tr => [...tr.querySelectorAll('td')].map(td => td.dataset.shows)),
    charts: [...f.querySelectorAll('.f07b-chart svg')].map(s => s.getAttribute('aria-label')),
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
def shipped(site_dir):
    return shipped_data(site_dir, FIG)


def text_path(d, mech, when, alpha, kind, token):
    """Where the shipped text of one cell lies: a recall, or the dash before anything of its kind is
    stored (the old topic's first pair comes after the fact, the new topic's at the switch)."""
    c, i = d["kinds"].index(kind), d["tokens"].index(token)
    if i < {"old": d["first_old"], "new": d["first_new"], "fact": 0}[kind]:
        return ["text", "unwritten_cell"]
    if mech == "deltanet":
        return ["recall_text", mech, c, i]
    return ["recall_text", mech, when, d["alphas"].index(alpha), c, i]


def expected(d, when, alpha, token):
    """The nine numbers at a marker, as shipped ([mechanism][kind]; None where a cell shows the dash)."""
    a, i = d["alphas"].index(alpha), d["tokens"].index(token)
    return [
        [
            None
            if text_path(d, m, when, alpha, k, token)[0] == "text"
            else (d["deltanet"][c][i] if m == "deltanet" else d[m][when][a][c][i])
            for c, k in enumerate(d["kinds"])
        ]
        for m in MECHS
    ]


def chart_label(d, when, alpha, kind, token):
    """A chart's label at a marker, filled from the shipped texts as the component fills it."""
    marker = {"token": ["tokens", d["tokens"].index(token)]}
    paths = {m: text_path(d, m, when, alpha, kind, token) for m in MECHS}
    if paths["deltanet"][0] == "text":
        return fill(d, ["text", "chart_label", kind, "unwritten"], marker)
    return fill(d, ["text", "chart_label", kind, "written"], {**marker, **paths})


def assert_shows(page, site_dir, d, when, alpha, token):
    """The figure shows the state (when, alpha, token): each cell the shipped text for it (and that
    text is the shipped number, to a whole percent), the caption, sliders, charts' labels, dots and
    gate strip too."""
    got = page.evaluate(READ)
    want = expected(d, when, alpha, token)
    for r, m in enumerate(MECHS):
        for c, k in enumerate(d["kinds"]):
            assert json.loads(got["shows"][r][c]) == text_path(d, m, when, alpha, k, token), (m, k)
            if want[r][c] is None:
                assert got["table"][r][c] is None, (m, k)
            else:
                assert got["table"][r][c] == pytest.approx(want[r][c], abs=0.0051), (m, k)  # whole percent
    assert assert_shown_is_shipped(page, site_dir, FIG) >= 9 + 2 + 8  # cells, caption, note, ticks (+ narration)
    assert got["caption"] == f"After token {token} · gate {d['schedule_labels'][when]}, α = {alpha:.2f}"
    assert got["charts"] == [chart_label(d, when, alpha, k, token) for k in d["kinds"]]
    assert got["gates"] == [d["gate_row_label"][m][d["alphas"].index(alpha)] for m in MECHS]
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


def test_default_view(watched, site_url, site_dir, shipped):
    page, _ = watched
    open_figure(page, site_url, FIG)
    d = shipped
    got = assert_shows(page, site_dir, d, d["schedule_default"], d["alpha_default"], d["tokens"][-1])
    assert got["gates"][2] == "KDA: fact channels × 1.00, topic channels × 0.20"
    assert got["url"] in ("", "#")
    # the lines: one path per memory per chart, the new topic's starting at the switch
    n = page.evaluate("""() => [...document.querySelectorAll('#fig-07b .f07b-chart')].map(c =>
        [...c.querySelectorAll('.f07b-line')].map(p => (p.getAttribute('d').match(/[ML]/g) || []).length))""")
    T = len(d["tokens"])
    assert n == [[T - d["first_old"]] * 3, [T - d["first_new"]] * 3, [T] * 3]


def test_controls_by_keyboard(watched, site_url, site_dir, shipped):
    page, _ = watched
    fig = open_figure(page, site_url, FIG)
    d = shipped
    alphas, last = d["alphas"], d["tokens"][-1]
    fig.get_by_label("Gate alpha of Gated DeltaNet, and of KDA on the topic channels").focus()
    page.keyboard.press("Home")
    got = assert_shows(page, site_dir, d, "switch", 0.0, last)
    assert "α = 0.00" in got["live"] and "long-lived fact — DeltaNet 100%, Gated DeltaNet 0%, KDA 100%" in got["live"]
    page.keyboard.press("End")
    assert_shows(page, site_dir, d, "switch", 1.0, last)
    for _ in range(2):
        page.keyboard.press("ArrowLeft")
    assert_shows(page, site_dir, d, "switch", alphas[-3], last)
    fig.get_by_role("radio", name="at the switch").focus()
    page.keyboard.press("ArrowRight")
    assert_shows(page, site_dir, d, "every", alphas[-3], last)
    assert page.evaluate("document.activeElement.dataset.value") == "every"  # focus follows the choice
    page.keyboard.press("Home")
    assert_shows(page, site_dir, d, "switch", alphas[-3], last)
    page.keyboard.press("End")
    assert_shows(page, site_dir, d, "every", alphas[-3], last)
    fig.get_by_label("Token", exact=True).focus()
    page.keyboard.press("Home")
    got = assert_shows(page, site_dir, d, "every", alphas[-3], 1)
    assert got["live"].startswith("After token 1: ") and "new topic — not written yet" in got["live"]
    for _ in range(d["first_new"]):
        page.keyboard.press("ArrowRight")
    got = assert_shows(page, site_dir, d, "every", alphas[-3], d["switch_token"])
    assert "fig-07b.when=every" in got["url"] and f"fig-07b.token={d['switch_token']}" in got["url"]


def test_controls_by_mouse_and_drag(watched, site_url, site_dir, shipped):
    page, _ = watched
    fig = open_figure(page, site_url, FIG)
    d = shipped
    fig.get_by_role("radio", name="on every step").click()
    assert_shows(page, site_dir, d, "every", 0.2, d["tokens"][-1])
    slider = fig.get_by_label("Gate alpha of Gated DeltaNet, and of KDA on the topic channels")
    box = slider.bounding_box()
    page.mouse.click(box["x"] + box["width"] - 2, box["y"] + box["height"] / 2)  # the right end: α = 1
    assert_shows(page, site_dir, d, "every", 1.0, d["tokens"][-1])
    # drag along the fact chart from its left edge to the switch: the marker follows the pointer
    chart = fig.locator(".f07b-chart[data-kind=fact] svg")
    cb = chart.bounding_box()
    scale = cb["width"] / 300
    x_of = lambda tok: cb["x"] + (38 + 254 * (tok - 1) / (d["n_tokens"] - 1)) * scale  # the viewBox's plot area
    y = cb["y"] + cb["height"] / 2
    page.mouse.move(x_of(1), y)
    page.mouse.down()
    got = assert_shows(page, site_dir, d, "every", 1.0, 1)
    page.mouse.move(x_of(d["switch_token"]), y, steps=4)
    page.mouse.up()
    got = assert_shows(page, site_dir, d, "every", 1.0, d["switch_token"])
    assert f"fig-07b.token={d['switch_token']}" in got["url"]
    page.go_back()  # the whole drag was one history entry: back is α = 1 at the last token
    page.wait_for_function("() => !location.hash.includes('token=')")
    assert_shows(page, site_dir, d, "every", 1.0, d["tokens"][-1])


def test_state_lives_in_the_url(watched, site_url, site_dir, shipped):
    page, _ = watched
    d = shipped
    open_figure(page, site_url, FIG, "#fig-07b.when=every&fig-07b.alpha=0.9&fig-07b.token=20")
    assert_shows(page, site_dir, d, "every", 0.9, 19)  # token 20 was not read: the nearest one that was (ties go left)
    open_figure(page, site_url, FIG, "#fig-07b.alpha=0.5&fig-07b.token=33")
    got = assert_shows(page, site_dir, d, "switch", 0.5, 33)
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


def test_no_accessibility_violations_at_load_and_in_chosen_states(watched, site_url):
    """axe at load and in two states the load does not show: the gate acting on every step, with α
    at its first value by Home (focus on its slider), and the first token, before the switch."""
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
