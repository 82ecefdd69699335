"""FIG 17 · playground in the browser: each attention stage and each delta-rule token shows exactly
the shipped intermediates, and the shipped sentences; symbols link both ways with the §02, §06 and
§17 equations, by hover and by focus. The shipped data against the shippeds, and its sentences
against the numbers, in test_fig_17_data.py."""

import json
from itertools import pairwise

import numpy as np
import pytest

from tests.browser.support import (
    assert_axe_clean_through,
    assert_shown_is_shipped,
    open_figure,
    shipped_data,
    table_numbers,
    tables_numbers,
)

pytestmark = pytest.mark.browser
FIG = "fig-17"
TOL = 0.0005 + 1e-9
DR_ROWS = ["dr-k", "dr-v", "dr-read", "dr-error", "dr-q", "dr-out"]


@pytest.fixture(scope="module")
def shipped(site_dir):
    """The data the figure received (and the site it came from), its intermediates as arrays:
    [stage] for attention, [token] for the delta rule."""
    data = shipped_data(site_dir, FIG)
    steps = data["delta"]
    return {
        "data": data,
        "site_dir": site_dir,
        **{n: np.array(data[n]) for n in "qkv"},
        "att": {key: np.array(data["attention"][key]) for key in ("raw_scores", "scaled_scores", "weights", "output")},
        "dr": {
            key: np.array([step[key] for step in steps])
            for key in ("state_prev", "read", "error", "write", "state", "output")
        },
    }


def shows(fig, selector):
    """The path of the shipped text an element shows (None if it is not tagged)."""
    tag = fig.locator(selector).first.get_attribute("data-shows")
    return json.loads(tag) if tag else None


def att_tables(fig):
    return tables_numbers(fig.page, f"#{FIG} .f17-mats table")[:5]  # Q, K, V, stage, O


def assert_attention_stage(fig, shipped, s):
    att = shipped["att"]
    Q, K, V, S, O = att_tables(fig)
    assert np.array(Q) == pytest.approx(shipped["q"], abs=TOL)
    assert np.array(K) == pytest.approx(shipped["k"], abs=TOL)
    assert np.array(V) == pytest.approx(shipped["v"], abs=TOL)
    src = [att["raw_scores"], att["scaled_scores"], att["scaled_scores"], att["weights"], att["weights"]][s]
    T = len(src)
    for i in range(T):
        for j in range(T):
            if s >= 2 and j > i:
                assert S[i][j] == ("−∞" if s == 2 else 0)
            else:
                assert S[i][j] == pytest.approx(src[i][j], abs=TOL)
    if s == 4:
        assert np.array(O) == pytest.approx(att["output"], abs=TOL)
    else:
        assert all(c == "·" for row in O for c in row)
    assert fig.locator(".f17-col").first.locator("[role=radio][aria-checked=true]").get_attribute("data-value") == str(
        s
    )
    assert shows(fig, ".f17-stage caption") == ["stages", s, "caption"]
    assert assert_shown_is_shipped(fig.page, shipped["site_dir"], FIG) >= 4  # caption, beta, both keeps (+ narration)


def assert_delta_token(fig, shipped, t):
    dr = shipped["dr"]
    vec, *grids = tables_numbers(fig.page, f"#{FIG} .k3-delta-vec table, #{FIG} .k3-delta-eq table")
    expect = [shipped["k"][t], shipped["v"][t], dr["read"][t], dr["error"][t], shipped["q"][t], dr["output"][t]]
    for shown, want in zip(vec, expect, strict=True):
        assert shown == pytest.approx(want, abs=TOL)
    for grid, key in zip(grids, ["state_prev", "write", "state"], strict=True):
        assert np.array(grid) == pytest.approx(dr[key][t], abs=TOL)
    assert fig.locator(".f17-col").nth(1).locator("[role=radio][aria-checked=true]").get_attribute("data-value") == str(
        t
    )
    step = shipped["data"]["delta"][t]
    captions = fig.locator(".k3-delta-eq caption").all_inner_texts()
    assert (captions[0], captions[-1]) == (step["before_caption"], step["after_caption"])
    keeps = fig.locator(".f17-keep-n").first
    assert json.loads(keeps.get_attribute("data-slots")) == {
        "token": ["token_named", t],
        "kept": ["kept_text", "attention", t],
    }
    assert assert_shown_is_shipped(fig.page, shipped["site_dir"], FIG) >= 4


def test_attention_stages_by_mouse_and_keyboard(watched, site_url, shipped):
    page, _ = watched
    fig = open_figure(page, site_url, FIG)
    assert_attention_stage(fig, shipped, 0)
    radios = fig.locator(".f17-col").first.locator("[role=radio]")
    d = shipped["data"]
    # every button is named by its shipped text: the stages, the tokens, β
    assert radios.evaluate_all("bs => bs.map(b => [b.textContent, b.getAttribute('aria-label')])") == [
        [st["label"], st["aria"]] for st in d["stages"]
    ]
    tokens = fig.locator(".f17-col").nth(1).locator("[role=radio]")
    assert tokens.evaluate_all("bs => bs.map(b => [b.textContent, b.getAttribute('aria-label')])") == [
        [name, f"Token {named}"] for name, named in zip(d["token_names"], d["token_named"], strict=True)
    ]
    assert fig.locator(".f17-beta").get_attribute("aria-label") == d["text"]["beta_label"]
    for s in range(5):
        radios.nth(s).click()
        assert_attention_stage(fig, shipped, s)
    assert "Attention" in fig.locator(".fig-live").inner_text()
    out_last = shipped["att"]["output"][-1]
    assert f"{abs(out_last[0]):.3f}" in fig.locator(".fig-live").inner_text()
    radios.nth(4).focus()
    page.keyboard.press("Home")
    assert_attention_stage(fig, shipped, 0)
    page.keyboard.press("ArrowRight")
    page.keyboard.press("ArrowRight")
    assert_attention_stage(fig, shipped, 2)
    page.keyboard.press("End")
    assert_attention_stage(fig, shipped, 4)
    weights = np.array(att_tables(fig)[3], dtype=object)
    for row in weights:
        assert sum(float(x) for x in row) == pytest.approx(1, abs=0.002)


def test_delta_tokens_by_mouse_and_keyboard(watched, site_url, shipped):
    page, _ = watched
    fig = open_figure(page, site_url, FIG)
    assert_delta_token(fig, shipped, 0)
    assert table_numbers(fig.locator(".k3-delta-vec table"))[2] == [0, 0, 0, 0]  # the empty state reads zero
    radios = fig.locator(".f17-col").nth(1).locator("[role=radio]")
    radios.nth(2).click()
    assert_delta_token(fig, shipped, 2)
    assert "Delta rule, token 3" in fig.locator(".fig-live").inner_text()
    radios.nth(2).focus()
    page.keyboard.press("ArrowRight")
    assert_delta_token(fig, shipped, 3)
    page.keyboard.press("Home")
    assert_delta_token(fig, shipped, 0)


def test_state_lives_in_the_url_and_history(watched, site_url, shipped):
    page, _ = watched
    fig = open_figure(page, site_url, FIG, "#fig-17.att=3&fig-17.tok=2")
    assert_attention_stage(fig, shipped, 3)
    assert_delta_token(fig, shipped, 2)
    fig.locator(".f17-col").nth(1).locator("[role=radio][data-value='1']").click()
    assert "fig-17.tok=1" in page.url and "fig-17.att=3" in page.url
    page.go_back()
    page.wait_for_selector("#fig-17 .f17-col:nth-child(2) [role=radio][data-value='2'][aria-checked=true]")
    assert_delta_token(fig, shipped, 2)
    assert_attention_stage(fig, shipped, 3)


@pytest.mark.parametrize("section", ["attention", "playground"])
def test_attention_symbols_link_both_ways(watched, site_url, section):
    page, _ = watched
    fig = open_figure(page, site_url, FIG)
    page.locator(f"#{section} .math-block math [data-sym='att-mask']").first.hover()
    assert fig.locator("[role=radio][data-sym='att-mask'].sym-on").count() == 1
    page.locator(f"#{section} .sym-chip[data-sym='att-k']").first.focus()  # keyboard focus on a symbol
    assert fig.locator("table[data-sym='att-k'].sym-on").count() == 1
    fig.locator("table[data-sym='att-v'] tbody td").first.hover()
    assert page.locator(f"#{section} .math-block math [data-sym='att-v'].sym-on").count() >= 1
    fig.locator("[role=radio][data-sym='att-softmax']").focus()  # keyboard focus on a stage
    assert page.locator(f"#{section} .math-block math [data-sym='att-softmax'].sym-on").count() >= 1


@pytest.mark.parametrize("section", ["deltanet", "playground"])
def test_delta_symbols_link_both_ways(watched, site_url, section):
    page, _ = watched
    fig = open_figure(page, site_url, FIG)
    page.locator(f"#{section} .math-block math [data-sym='dr-k']").first.hover()
    assert fig.locator(".k3-delta-vec tr[data-sym='dr-k'].sym-on").count() == 1
    page.locator(f"#{section} .sym-chip[data-sym='dr-error']").first.focus()  # keyboard focus on a symbol
    assert fig.locator(".k3-delta-vec tr[data-sym='dr-error'].sym-on").count() == 1
    page.locator(f"#{section} .sym-chip[data-sym='dr-out']").first.focus()
    assert fig.locator(".k3-delta-vec tr[data-sym='dr-out'].sym-on").count() == 1
    fig.locator("table[data-sym='dr-write'] tbody td").first.hover()
    assert page.locator(f"#{section} .math-block math [data-sym='dr-write'].sym-on").count() >= 1
    fig.locator(".f17-beta[data-sym='dr-beta']").focus()
    assert page.locator(f"#{section} .math-block math [data-sym='dr-beta'].sym-on").count() >= 1


def test_no_accessibility_violations_at_load_and_in_chosen_states(watched, site_url):
    """axe at load (the raw scores) and in four states the load does not show: the mask stage (its
    −∞ cells), the output stage (O filled), the mask's stage button lit from the equation, and the
    write matrix lit by hover."""
    page, _ = watched
    fig = open_figure(page, site_url, FIG)
    stages = fig.locator(".f17-col").first.locator("[role=radio]")
    assert_axe_clean_through(
        page,
        FIG,
        {
            "attention stage 3 (the mask) by click": lambda p: stages.nth(2).click(),
            "attention stage 5 (the output) by click": lambda p: stages.nth(4).click(),
            "equation symbol hover (mask)": lambda p: p.locator(
                "#playground .math-block math [data-sym='att-mask']"
            ).first.hover(),
            "figure part hover (write)": lambda p: fig.locator("table[data-sym='dr-write'] tbody td").first.hover(),
        },
    )


def heat_cells(table):
    """(sign, strength %) of each body cell of a heat table, row by row; None for a text cell."""
    return table.locator("tbody tr").evaluate_all(
        "trs => trs.map(tr => [...tr.querySelectorAll('td')].map(td => td.dataset.sign ? "
        "[td.dataset.sign, parseFloat(td.style.getPropertyValue('--heat'))] : null))"
    )


def test_matrices_are_heatmaps_on_one_scale_with_numbers_on_demand(watched, site_url, shipped):
    """Each cell's colour follows its value on the figure's one scale (the largest |value| shown);
    the number is in the cell for screen readers, shown on focus and by the toggle."""
    page, _ = watched
    fig = open_figure(page, site_url, FIG, "#fig-17.att=3")
    data = shipped["data"]
    att = shipped["att"]
    shown = [
        shipped["q"],
        shipped["k"],
        shipped["v"],
        att["raw_scores"],
        att["weights"],
        att["output"],
        shipped["dr"]["state"],
        shipped["dr"]["write"],
        shipped["dr"]["error"],
    ]
    scale = max(np.max(np.abs(x[np.isfinite(x)])) for x in shown)
    assert data["heat_scale"] == pytest.approx(scale, rel=1e-9)
    tables = fig.locator(".f17-mats table")
    for n, want in [(2, shipped["v"]), (3, att["weights"])]:
        cells = heat_cells(tables.nth(n))
        for i, row in enumerate(cells):
            for j, c in enumerate(row):
                if c is None:
                    assert n == 3 and j > i  # masked: text, no colour
                    continue
                assert c[0] == ("neg" if want[i][j] < 0 else "pos")
                assert c[1] == pytest.approx(100 * np.sqrt(min(1, abs(want[i][j]) / scale)), abs=0.06)
    cell = tables.nth(2).locator("tbody td").first
    number = cell.locator(".k3-heat-n")
    assert number.bounding_box()["width"] <= 1  # visually hidden until asked for
    cell.focus()
    assert number.bounding_box()["width"] > 10 and number.inner_text() == f"{shipped['v'][0][0]:.3f}".replace("-", "−")
    page.keyboard.press("ArrowRight")  # arrows move within the grid
    assert page.evaluate("document.activeElement.textContent") == f"{shipped['v'][0][1]:.3f}".replace("-", "−")
    toggle = fig.get_by_role("button", name="Show numbers")
    toggle.click()
    assert toggle.get_attribute("aria-pressed") == "true"
    assert tables.nth(0).locator(".k3-heat-n").first.bounding_box()["width"] > 10


def test_what_each_keeps_and_reads(watched, site_url, shipped):
    """Below the columns: attention keeps every key and value so far (rows grow with the token),
    the delta rule one d × d state; each reads its output from what it keeps."""
    page, _ = watched
    fig = open_figure(page, site_url, FIG)
    d = shipped["data"]
    box = fig.locator(".f17-keep")
    radios = fig.locator(".f17-col").nth(1).locator("[role=radio]")
    for t in range(len(shipped["k"])):
        radios.nth(t).click()
        kept_k, kept_v = (table_numbers(box.locator("table").nth(i)) for i in range(2))
        for i in range(len(shipped["k"])):
            if i <= t:
                assert kept_k[i] == pytest.approx(shipped["k"][i], abs=TOL)
                assert kept_v[i] == pytest.approx(shipped["v"][i], abs=TOL)
            else:
                assert kept_k[i] == ["·"] * d["d_k"]
        w = table_numbers(box.locator("table").nth(2))[0]
        assert w[: t + 1] == pytest.approx(shipped["att"]["weights"][t][: t + 1], abs=TOL)
        assert table_numbers(box.locator("table").nth(3))[0] == pytest.approx(shipped["att"]["output"][t], abs=TOL)
        assert np.array(table_numbers(box.locator("table").nth(4))) == pytest.approx(shipped["dr"]["state"][t], abs=TOL)
        assert table_numbers(box.locator("table").nth(5))[0] == pytest.approx(shipped["dr"]["output"][t], abs=TOL)
        text = box.inner_text()
        assert f"{(t + 1) * (d['d_k'] + d['d_v'])} numbers" in text and f"{d['d_k'] * d['d_v']} numbers" in text


# ---- layout: what a reader compares lines up, at a desktop, a tablet and a phone width ----
WIDTHS = [1280, 800, 390]

# The grids of each line of S₀ + write = S₁ and the operators between them: their boxes, and the
# vertical span of each grid's body (its rows of cells).
EQ_JS = """() => [...document.querySelectorAll('#fig-17 .k3-delta-eq > *')].map(e => {
  const r = e.getBoundingClientRect(), body = e.tBodies ? e.tBodies[0].getBoundingClientRect() : r;
  return {op: e.classList.contains('k3-op'), left: r.left, right: r.right, top: r.top, bottom: r.bottom,
          mid: (r.top + r.bottom) / 2, bodyTop: body.top, bodyBottom: body.bottom};
})"""


def show_numbers(fig):
    fig.get_by_role("button", name="Show numbers").click()
    fig.page.wait_for_function(  # every number in place (the grids are laid out again around them)
        "() => document.querySelector('#fig-17 .f17-root').classList.contains('k3-heat-numbers')"
        " && document.querySelector('#fig-17 .k3-heat-n').getBoundingClientRect().width > 10"
    )


@pytest.mark.parametrize("numbers", [False, True], ids=["heatmap", "numbers"])
@pytest.mark.parametrize("width", WIDTHS)
def test_each_operator_sits_between_the_terms_it_joins(watched, site_url, width, numbers):
    """S₀ + write = S₁: each operator is level with the rows of both grids it joins and between them
    (one line), or, with every number shown, the equation stacks and each operator sits beside the
    term it adds, level with its rows, under the term before. Never an operator pointing at nothing."""
    page, _ = watched
    page.set_viewport_size({"width": width, "height": 900})
    fig = open_figure(page, site_url, FIG)
    if numbers:
        show_numbers(fig)
    parts = page.evaluate(EQ_JS)
    assert [p["op"] for p in parts] == [False, True, False, True, False]
    right_edge = fig.bounding_box()["x"] + fig.bounding_box()["width"]
    for i in (1, 3):
        before, op, after = parts[i - 1], parts[i], parts[i + 1]
        assert after["bodyTop"] <= op["mid"] <= after["bodyBottom"]  # level with the term it adds
        assert op["right"] <= after["left"] + 0.5  # and in front of it
        one_line = before["right"] <= op["left"] + 0.5 and before["bodyTop"] <= op["mid"] <= before["bodyBottom"]
        stacked = numbers and after["top"] >= before["bottom"] - 0.5 and op["left"] < before["left"]
        assert one_line or stacked, (width, numbers, i, parts)
        if not numbers:
            assert one_line
    assert max(p["right"] for p in parts) <= right_edge + 0.5  # nothing runs off the figure


# Tables on one line of a row of grids (their boxes overlap vertically): the top of each one's
# first body row, so grids compared side by side can be checked to start their rows level.
ROWS_JS = """() => [...document.querySelectorAll('#fig-17 .f17-mats, #fig-17 .f17-keep-mats, #fig-17 .k3-delta-eq')]
  .map(box => [...box.querySelectorAll(':scope > table')].map(t => {
    const r = t.getBoundingClientRect();
    return {top: r.top, bottom: r.bottom, row: t.tBodies[0].rows[0].getBoundingClientRect().top,
            name: t.caption ? t.caption.textContent : ''};
  }))"""


@pytest.mark.parametrize("numbers", [False, True], ids=["heatmap", "numbers"])
@pytest.mark.parametrize("width", [1280, 390])
def test_grids_side_by_side_start_their_rows_level(watched, site_url, width, numbers):
    """Grids next to each other (Q K V, the scores and O, S₀ + write = S₁, the kept keys and values,
    the weights and the output, the state and its read) line up row for row, whatever the number
    of lines their captions take (e.g. "reads: softmax weights" wrapping beside "output")."""
    page, _ = watched
    page.set_viewport_size({"width": width, "height": 900})
    fig = open_figure(page, site_url, FIG)
    if numbers:
        show_numbers(fig)
    pairs = 0
    for tables in page.evaluate(ROWS_JS):
        for a, b in pairwise(tables):
            if a["top"] < b["bottom"] and b["top"] < a["bottom"]:  # on one line
                pairs += 1
                assert b["row"] == pytest.approx(a["row"], abs=1), (width, a["name"], b["name"])
    assert pairs >= (8 if not numbers else 1 if width > 400 else 0)


# Focus each corner cell of every heat grid (focus opens the same bubble as hover) and report any
# label (a row or column header with visible text) the bubble covers.
BUBBLE_JS = """() => {
  const hits = [], labels = [...document.querySelectorAll('#fig-17 th')].map(th => {
    const range = document.createRange(); range.selectNodeContents(th);
    return {th, r: range.getBoundingClientRect()};
  }).filter(l => l.r.width > 2 && l.r.height > 2 && l.th.getBoundingClientRect().width > 2);  // labels in sight
  let opened = 0;
  for (const table of document.querySelectorAll('#fig-17 table.k3-heat')) {
    const rows = [...table.tBodies[0].rows], last = rows.length - 1, n = rows[0].cells.length;
    for (const [i, j] of [[0, 1], [Math.min(1, last), 1], [last, 1], [0, n - 1], [last, n - 1]]) {
      const td = rows[i].cells[j];
      if (td.tagName !== 'TD' || !td.querySelector('.k3-heat-n')) continue;
      td.focus({preventScroll: true});  // the labels' boxes above stay where they were read
      const b = td.querySelector('.k3-heat-n').getBoundingClientRect();
      opened += b.width > 10;
      for (const l of labels) {
        if (b.left < l.r.right - 0.5 && l.r.left < b.right - 0.5 && b.top < l.r.bottom - 0.5 && l.r.top < b.bottom - 0.5)
          hits.push([table.caption ? table.caption.textContent : '', i, j, l.th.textContent]);
      }
    }
  }
  return {hits, opened};
}"""


@pytest.mark.parametrize("width", [1280, 390])
def test_a_cells_value_bubble_leaves_the_labels_in_view(watched, site_url, width):
    """The bubble that shows a cell's number never covers a row or column label (it opens above the
    cell, below it on a grid's first two rows, away from the row labels), so the value is read with
    its names."""
    page, _ = watched
    page.set_viewport_size({"width": width, "height": 900})
    open_figure(page, site_url, FIG, "#fig-17.att=4")  # every grid drawn
    seen = page.evaluate(BUBBLE_JS)
    assert seen["opened"] >= 40 and seen["hits"] == []


def _contrast(page, a_css: str, b_css: str) -> float:
    return page.evaluate(
        """([a, b]) => {
      const probe = document.createElement('i'); document.querySelector('#fig-17').appendChild(probe);
      const rgb = c => { probe.style.color = ''; probe.style.color = c;
        const m = getComputedStyle(probe).color.match(/[\\d.]+/g).map(Number);
        return getComputedStyle(probe).color.startsWith('color(') ? m.slice(0, 3) : m.slice(0, 3).map(x => x / 255); };
      const lum = c => { const [r, g, bl] = rgb(c).map(x => x <= 0.04045 ? x / 12.92 : ((x + 0.055) / 1.055) ** 2.4);
        return 0.2126 * r + 0.7152 * g + 0.0722 * bl; };
      const [x, y] = [lum(a), lum(b)]; probe.remove();
      return (Math.max(x, y) + 0.05) / (Math.min(x, y) + 0.05);
    }""",
        [a_css, b_css],
    )


@pytest.mark.parametrize("scheme", ["light", "dark"])
def test_a_zero_is_a_filled_cell_an_empty_slot_is_not(watched, site_url, shipped, scheme):
    """A value of (near) zero is still a cell of colour, a visible step off the page, while a slot
    with nothing in it yet ("·") is only an outline: in dark mode too, where both used to sink into
    the background."""
    page, _ = watched
    page.emulate_media(color_scheme=scheme)
    fig = open_figure(page, site_url, FIG)
    before = fig.locator(".k3-delta-eq table").first  # S₀ = 0 before the first token
    assert np.array(table_numbers(before)) == pytest.approx(np.zeros_like(shipped["dr"]["state_prev"][0]), abs=TOL)
    zero = before.locator("tbody td").first.evaluate("td => getComputedStyle(td).backgroundColor")
    assert _contrast(page, zero, "var(--paper)") >= 1.2
    empty = fig.locator(".f17-mats table").nth(4).locator("tbody td").first  # O before its stage: "·"
    assert empty.inner_text() == "·"
    look = empty.evaluate("td => { const s = getComputedStyle(td); return [s.backgroundColor, s.outlineStyle]; }")
    assert look[0] in ("rgba(0, 0, 0, 0)", "transparent") and look[1] == "dashed"


def test_a_phone_sees_each_line_of_grids_whole_and_the_figure_short(watched, site_url):
    """At 390 px the figure is compact: Q K V share one line (K and V borrow Q's row labels), the
    scores and O the next, S₀ + write = S₁ one line, the state and its read one line, nothing
    scrolls sideways, and the whole figure stays well under its old 2,282 px."""
    page, _ = watched
    page.set_viewport_size({"width": 390, "height": 844})
    fig = open_figure(page, site_url, FIG)
    lines = page.evaluate("""() => [...document.querySelectorAll('#fig-17 .f17-mats, #fig-17 .k3-delta-eq, #fig-17 .f17-keep-read')]
      .map(box => [...box.querySelectorAll(':scope > table')].map(t => Math.round(t.tBodies[0].rows[0].getBoundingClientRect().top)))""")
    att, eq, read = lines
    assert att[0] == att[1] == att[2] and att[3] == att[4] > att[0]
    assert len(set(eq)) == 1 and len(set(read)) == 1
    assert page.evaluate("document.documentElement.scrollWidth") <= 390
    assert fig.bounding_box()["height"] <= 1800
