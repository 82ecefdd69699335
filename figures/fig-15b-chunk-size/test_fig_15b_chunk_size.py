"""FIG 15b · chunk size in the browser: the C slider (keys and mouse), chart drag, the cost-model
switch, the head-width choice and the per-step latency slider show the shipped readouts for the
setting they reach; the overlay draws the shipped curves, band and ring, and they move with the
latency; the curve labels stay clear of everything; symbols link both ways; state in the URL. The
shipped data against the kernels, and its texts against the numbers, are checked in
test_fig_15b_data.py."""

from itertools import pairwise

import numpy as np
import pytest

from k3explainer.site.readertext import fill
from tests.browser.support import assert_axe_clean_through, assert_shown_is_shipped, open_figure, shipped_data

pytestmark = pytest.mark.browser
FIG = "fig-15b"


@pytest.fixture(scope="module")
def shipped(site_dir):
    return shipped_data(site_dir, FIG)


def setting(shipped, view, d, lat):
    """One setting's shipped data: (its head width's, its latency's, and the paths to them)."""
    k, m = shipped["widths"].index(d), shipped["latencies"].index(lat)
    w = shipped["views"][view]["by_d"][k]
    width = ["views", view, "by_d", k]
    return w, w["by_lat"][m], width, [*width, "by_lat", m]


def assert_readouts(fig, site_dir, shipped, view, c, d=None, lat=None):
    """The table, the band's sentence, the regime and the chart's label show the shipped texts for
    this setting at C = c; returns the setting's shipped data (its width's, its latency's)."""
    d = shipped["d_default"] if d is None else d
    lat = shipped["latency_default"] if lat is None else lat
    w, s, width, at = setting(shipped, view, d, lat)
    i = shipped["c"].index(c)
    k, m = shipped["widths"].index(d), shipped["latencies"].index(lat)
    slots = {"d": ["widths", k], "lat": ["latency_text", m], "band": [*at, "band_text"], "c": ["c_text", i]}
    assert fig.locator(".f15b-controls .k3-slider output").nth(1).inner_text() == f"C = {c:,}"
    caption = fig.locator(".f15b-table caption").text_content()
    assert caption == fill(shipped, ["text", "caption"], {"c": slots["c"], "d": slots["d"], "lat": slots["lat"]})
    assert f"At C = {c:,} (N = {shipped['n_tokens']:,}, d = {d}, ℓ = {lat:g} µs)" == caption
    assert [r.get_attribute("data-term") for r in fig.locator("tr[data-term]").all()] == [t["key"] for t in w["work"]]
    for t in w["work"]:
        row = fig.locator(f"tr[data-term='{t['key']}']")
        assert row.locator(".f15b-value").inner_text() == w["work_text"][t["key"]][i]
        assert row.locator(".f15b-share").inner_text() == w["share_text"][t["key"]][i]
    assert fig.locator(".f15b-total").inner_text() == w["work_total_text"][i]
    assert fig.locator(".f15b-total").inner_text().endswith("madds" if view == "linear" else "FLOPs")
    for key, texts in (("steps", s["steps_text"]), ("madds", w["madds_text"]), ("tiles", w["tiles_text"])):
        assert fig.locator(f"tr[data-time='{key}'] .f15b-tvalue").inner_text() == texts[i], key
    assert fig.locator("tr[data-time='steps'] .f15b-note").inner_text() == shipped["steps_note"][i]
    assert fig.locator("tr[data-time='tiles'] .f15b-note").inner_text() == shipped["efficiency_text"][i]
    assert fig.locator(".f15b-ttotal").inner_text() == s["total_text"][i]
    assert fig.locator(".f15b-of-best").inner_text() == f"{s['of_best_text'][i]}× fastest"
    assert fig.locator(".f15b-band-text").inner_text() == f"Shaded: {s['band_text']}."
    regime = fig.locator(".f15b-regime")
    assert regime.get_attribute("data-zone") == s["zone"][i]
    assert regime.inner_text() == shipped["regimes"][s["zone"][i]]
    label = fig.locator(".f15b-plot").get_attribute("aria-label")
    assert label == fill(shipped, ["views", view, "text", "chart"], slots)
    # every text placed from the data is the shipped one (the work rows, the time rows, the band …)
    assert assert_shown_is_shipped(fig.page, site_dir, FIG) >= 2 * len(w["work"]) + 12
    return w, s


def curves(w, s):
    """The shipped curves as the overlay draws them: steps, multiply-adds, small-tile loss, total."""
    return {"steps": s["steps"], "madds": w["madds"], "tiles": w["tiles"], "total": s["total"]}


# What the overlay draws over Plotly's axes (the band, the four curves, the ring), read back in
# data units through Plotly's own axis maps: [band, steps, multiply-adds, small-tile loss, total,
# ring] as [xs, ys] each, as the traces were when Plotly drew them. Points are written to 0.01 px.
DRAWN = """id => {
  const fig = document.getElementById(id), plot = fig.querySelector('.f15b-plot'), fl = plot._fullLayout;
  const box = plot.getBoundingClientRect(), ox = box.left + fl.xaxis._offset, oy = box.top + fl.yaxis._offset;
  const page = (e, x, y) => { const p = new DOMPoint(x, y).matrixTransform(e.getScreenCTM()); return [p.x, p.y]; };
  const data = ([x, y]) => [10 ** fl.xaxis.p2l(x - ox), 10 ** fl.yaxis.p2l(y - oy)];
  const band = fig.querySelector('.f15b-band-area'), ring = fig.querySelector('.f15b-ring');
  const b0 = data(page(band, band.x.baseVal.value, 0)), b1 = data(page(band, band.x.baseVal.value + band.width.baseVal.value, 0));
  const curve = key => { const e = fig.querySelector(`.f15b-curve[data-curve=${key}]`);
    const pts = Array.from(e.points, p => data(page(e, p.x, p.y)));
    return [pts.map(p => p[0]), pts.map(p => p[1])]; };
  const r = data(page(ring, ring.cx.baseVal.value, ring.cy.baseVal.value));
  return [[[b0[0], b0[0], b1[0], b1[0]], []], ...['steps', 'madds', 'tiles', 'total'].map(curve), [[r[0]], [r[1]]]];
}"""
RTOL = 2e-4  # 0.01 px of a plot a few hundred px across, in data units


def chart(page):
    return page.evaluate(DRAWN, FIG)


def plot_axis(page):
    """(left of the x axis, middle of the plot's height, x axis length) in page pixels."""
    return page.evaluate(
        """id => { const el = document.querySelector('#' + id + ' .f15b-plot'), fl = el._fullLayout,
                  b = el.getBoundingClientRect();
                  return [b.left + fl.xaxis._offset, b.top + fl.yaxis._offset + fl.yaxis._length / 2, fl.xaxis._length]; }""",
        FIG,
    )


# Where the chart's parts are, in page pixels, as drawn in the overlay over the plot: the four
# curves (steps, multiply-adds, small-tile loss, total; their half line widths), the ring at the
# minimum, the scrub cursor (its line and the dot on each curve) and every shown curve label; and
# where C = 1 … N fall on Plotly's x axis.
GEOMETRY = """id => {
  const fig = document.getElementById(id), plot = fig.querySelector('.f15b-plot'), fl = plot._fullLayout;
  const xa = fl.xaxis, ya = fl.yaxis, box = plot.getBoundingClientRect(), ox = box.left + xa._offset, oy = box.top + ya._offset;
  const page = (e, x, y) => { const p = new DOMPoint(x, y).matrixTransform(e.getScreenCTM()); return [p.x, p.y]; };
  const rect = e => { const r = e.getBoundingClientRect(); return [r.left, r.top, r.right, r.bottom]; };
  const stroke = e => parseFloat(getComputedStyle(e).strokeWidth);
  const curve = key => { const e = fig.querySelector(`.f15b-curve[data-curve=${key}]`);
    return {half: stroke(e) / 2, points: Array.from(e.points, p => page(e, p.x, p.y))}; };
  const ring = fig.querySelector('.f15b-ring');
  const shown = e => getComputedStyle(e).visibility !== 'hidden';
  const line = fig.querySelector('.f15b-cursor-line'), dots = [...fig.querySelectorAll('.f15b-cursor-dot')].filter(shown);
  return {
    area: [ox, oy, ox + xa._length, oy + ya._length], height: [fl.height, plot.clientHeight],
    xs: Array.from({length: 14}, (_, i) => ox + xa.c2p(2 ** i)),
    curves: ['steps', 'madds', 'tiles', 'total'].map(curve), ring: page(ring, ring.cx.baseVal.value, ring.cy.baseVal.value),
    cursor: {x: rect(line)[0], half: stroke(line) / 2,
             dots: dots.map(d => { const r = rect(d); return [(r[0] + r[2]) / 2, (r[1] + r[3]) / 2]; }),
             r: Math.max(...dots.map(d => (rect(d)[2] - rect(d)[0] + stroke(d)) / 2))},
    labels: [...fig.querySelectorAll('.f15b-label')].filter(shown)
      .map(t => ({text: t.getAttribute('data-label'), lines: [...t.children].map(s => s.textContent), box: rect(t)})),
  };
}"""
TAGS = ["steps", "multiply-adds", "small-tile loss", "total"]


def _segment_meets(a, b, r) -> bool:
    """Does segment a–b meet rectangle r = (left, top, right, bottom)? (Liang–Barsky)"""
    t0, t1, dx, dy = 0.0, 1.0, b[0] - a[0], b[1] - a[1]
    for p, q in ((-dx, a[0] - r[0]), (dx, r[2] - a[0]), (-dy, a[1] - r[1]), (dy, r[3] - a[1])):
        if p == 0:
            if q < 0:
                return False
            continue
        t = q / p
        if p < 0:
            t0 = max(t0, t)
        else:
            t1 = min(t1, t)
        if t0 > t1:
            return False
    return True


def _grown(r, m):
    return (r[0] - m, r[1] - m, r[2] + m, r[3] + m)


def _circle_meets(c, radius, r) -> bool:
    nx, ny = min(max(c[0], r[0]), r[2]), min(max(c[1], r[1]), r[3])
    return (c[0] - nx) ** 2 + (c[1] - ny) ** 2 < radius**2


def cursor_c(g: dict) -> int:
    """The C the cursor is drawn at (within half a pixel of its place on the axis)."""
    k = int(np.argmin([abs(x - g["cursor"]["x"]) for x in g["xs"]]))
    assert abs(g["xs"][k] - g["cursor"]["x"]) < 0.5, (g["xs"], g["cursor"])
    return 2**k


def label_collisions(g: dict) -> list[str]:
    """Every way a curve label touches something it must stay clear of (1 px to spare): a curve
    (its own included), the cursor's line or dots, the ring, another label, the plot's edge."""
    bad, where = [], f"C = {cursor_c(g):g}"
    if sorted(label["text"] for label in g["labels"]) != sorted(TAGS):
        bad.append(f"{where}: labels drawn {[label['text'] for label in g['labels']]}")
    a = g["area"]
    for d in g["cursor"]["dots"]:  # a value off the axis's range has no dot (Plotly clips its curve there)
        if not (a[0] - 0.5 <= d[0] <= a[2] + 0.5 and a[1] - 0.5 <= d[1] <= a[3] + 0.5):
            bad.append(f"{where}: a cursor dot outside the plot area, at {d}")
    for k, label in enumerate(g["labels"]):
        r, name = label["box"], f"{where}: '{label['text']}'"
        if r[0] < a[0] or r[1] < a[1] or r[2] > a[2] or r[3] > a[3]:
            bad.append(f"{name} leaves the plot area")
        for tag, curve in zip(TAGS, g["curves"], strict=True):
            grown, pts = _grown(r, curve["half"] + 1), curve["points"]
            if any(_segment_meets(p, q, grown) for p, q in pairwise(pts)):
                bad.append(f"{name} meets the {tag} curve")
        cur = g["cursor"]
        if _segment_meets((cur["x"], a[1]), (cur["x"], a[3]), _grown(r, cur["half"] + 1)):
            bad.append(f"{name} meets the cursor line")
        if any(_circle_meets(d, cur["r"] + 1, r) for d in cur["dots"]):
            bad.append(f"{name} meets a cursor dot")
        if _circle_meets(g["ring"], 9 + 1, r):
            bad.append(f"{name} meets the ring")
        for other in g["labels"][k + 1 :]:
            o = _grown(other["box"], 1)
            if r[0] < o[2] and o[0] < r[2] and r[1] < o[3] and o[1] < r[3]:
                bad.append(f"{name} meets '{other['text']}'")
    return bad


def settle(page):
    page.evaluate("() => new Promise(r => requestAnimationFrame(() => requestAnimationFrame(r)))")


def test_slider_keys_step_c_through_its_powers_of_two(watched, site_url, site_dir, shipped):
    page, _ = watched
    fig = open_figure(page, site_url, FIG)
    c = shipped["c"]
    i = shipped["c_default_index"]
    assert_readouts(fig, site_dir, shipped, "linear", c[i])
    cslider = fig.locator(".f15b-controls .k3-slider input").nth(1)
    cslider.focus()
    page.keyboard.press("ArrowRight")
    assert_readouts(fig, site_dir, shipped, "linear", c[i + 1])
    page.keyboard.press("Home")
    assert_readouts(fig, site_dir, shipped, "linear", 1)
    assert "Pure recurrence" in fig.locator(".f15b-regime").inner_text()
    page.keyboard.press("End")
    N = shipped["n_tokens"]
    assert_readouts(fig, site_dir, shipped, "linear", N)
    # (at C = N the within-chunk term is unmasked quadratic attention, 2N²d: test_fig_15b_data.py)
    k, m, i = (
        shipped["widths"].index(shipped["d_default"]),
        shipped["latencies"].index(shipped["latency_default"]),
        len(c) - 1,
    )
    w, s = ["views", "linear", "by_d", k], ["views", "linear", "by_d", k, "by_lat", m]
    said = fill(
        shipped,
        ["views", "linear", "text", "describe"],
        {
            "d": ["widths", k],
            "lat": ["latency_text", m],
            "band": [*s, "band_text"],
            "c": ["c_text", i],
            "work": [*w, "work_total_text", i],
            "time": [*s, "total_text", i],
            "ratio": [*s, "of_best_text", i],
        },
    )
    live = fig.locator(".fig-live").inner_text()
    assert live == said and f"C = {N:,}" in live and fig.locator(".f15b-ttotal").inner_text() in live
    assert f"fig-15b.c={N}" in page.url


def test_chart_draws_the_shipped_curves_band_and_minimum(watched, site_url, site_dir, shipped):
    page, _ = watched
    fig = open_figure(page, site_url, FIG)
    w, s = assert_readouts(fig, site_dir, shipped, "linear", 64)
    grid, band, time = np.array(shipped["grid"]), s["band"], curves(w, s)
    traces = chart(page)
    assert traces[0][0] == pytest.approx([band["lo"], band["lo"], band["hi"], band["hi"]], rel=RTOL)  # the band
    for k, key in enumerate(("steps", "madds", "tiles", "total"), start=1):
        np.testing.assert_allclose(traces[k][0], grid, rtol=RTOL)
        np.testing.assert_allclose(traces[k][1], time[key], rtol=RTOL)
    assert traces[5][0] == pytest.approx([band["best"]], rel=RTOL)  # the ring at the minimum
    assert traces[5][1] == pytest.approx([band["min_time"]], rel=RTOL)
    assert band["lo"] < 64 and band["hi"] > 128  # the default band holds the production chunk sizes
    assert np.argmin(traces[2][1]) == 0  # the multiply-add count alone is lowest at C = 1
    assert 0 < np.argmin(traces[4][1]) < len(grid) - 1  # the modelled time is lowest in the middle


def test_latency_and_width_move_the_band_and_the_minimum(watched, site_url, site_dir, shipped):
    page, _ = watched
    fig = open_figure(page, site_url, FIG)
    lats = shipped["latencies"]
    lslider = fig.locator(".f15b-controls .k3-slider input").first
    lslider.focus()
    page.keyboard.press("End")
    assert fig.locator(".f15b-controls .k3-slider output").first.inner_text() == f"ℓ = {lats[-1]:g} µs"
    slow = assert_readouts(fig, site_dir, shipped, "linear", 64, lat=lats[-1])[1]["band"]
    page.keyboard.press("Home")
    fast = assert_readouts(fig, site_dir, shipped, "linear", 64, lat=lats[0])[1]["band"]
    assert slow["best"] > fast["best"] and slow["lo"] > fast["lo"] and slow["hi"] > fast["hi"]
    assert chart(page)[5][0][0] == pytest.approx(fast["best"], rel=RTOL)  # the ring followed
    assert f"fig-15b.lat={lats[0]:g}" in page.url
    fig.locator("[role=radio][data-value='256']").click()
    assert_readouts(fig, site_dir, shipped, "linear", 64, d=256, lat=lats[0])
    page.keyboard.press("ArrowLeft")  # back to d = 128 from the focused choice
    assert_readouts(fig, site_dir, shipped, "linear", 64, d=128, lat=lats[0])
    assert "d = 128" in fig.locator(".fig-live").inner_text()


def test_mouse_slider_and_chart_drag(watched, site_url, site_dir, shipped):
    page, _ = watched
    fig = open_figure(page, site_url, FIG)
    K = len(shipped["c"])
    box = fig.locator(".f15b-controls .k3-slider input").nth(1).bounding_box()
    page.mouse.click(box["x"] + 4, box["y"] + box["height"] / 2)  # the left end of the track: C = 1
    assert_readouts(fig, site_dir, shipped, "linear", shipped["c"][0])
    x, y, w = plot_axis(page)
    page.mouse.move(x + 0.2 * w, y)
    page.mouse.down()
    page.mouse.move(x + w * 7 / (K - 1), y, steps=5)
    page.mouse.up()
    assert_readouts(fig, site_dir, shipped, "linear", shipped["c"][7])
    assert cursor_c(page.evaluate(GEOMETRY, FIG)) == shipped["c"][7]  # the cursor followed the pointer


def test_switch_to_kda_view_by_mouse_and_keyboard(watched, site_url, site_dir, shipped):
    page, _ = watched
    fig = open_figure(page, site_url, FIG)
    c = shipped["c"][shipped["c_default_index"]]
    fig.locator("[role=radio][data-value='kda']").click()
    _, kda = assert_readouts(fig, site_dir, shipped, "kda", c)
    assert "KDA (eq. 13)" in fig.locator(".fig-live").inner_text()
    np.testing.assert_allclose(chart(page)[4][1], kda["total"], rtol=RTOL)
    page.keyboard.press("ArrowLeft")
    assert fig.locator("[role=radio][data-value='linear']").get_attribute("aria-checked") == "true"
    assert_readouts(fig, site_dir, shipped, "linear", c)


def test_state_lives_in_the_url_and_history(watched, site_url, site_dir, shipped):
    page, _ = watched
    fig = open_figure(page, site_url, FIG, "#fig-15b.view=kda&fig-15b.c=256&fig-15b.d=64&fig-15b.lat=2")
    assert_readouts(fig, site_dir, shipped, "kda", 256, d=64, lat=2.0)
    fig.locator("[role=radio][data-value='linear']").click()
    assert "fig-15b.view" not in page.url and "fig-15b.c=256" in page.url  # linear is the default: left out of the link
    assert "fig-15b.d=64" in page.url and "fig-15b.lat=2" in page.url
    page.go_back()
    page.wait_for_selector(f"#{FIG} [role=radio][data-value='kda'][aria-checked=true]")
    assert_readouts(fig, site_dir, shipped, "kda", 256, d=64, lat=2.0)


def test_equation_symbols_and_readouts_link_both_ways(watched, site_url):
    page, _ = watched
    fig = open_figure(page, site_url, FIG)
    page.locator("#complexity .math-block math [data-sym='ck-chunk']").first.dispatch_event(
        "pointerover"
    )  # its middle is the C inside it
    assert fig.locator("tr[data-sym='ck-chunk'].sym-on").count() == 1
    fig.locator("tr[data-term='state'] th").hover()
    assert page.locator("#complexity .math-block math [data-sym='ck-state'].sym-on").count() >= 1
    fig.locator(".f15b-controls .k3-slider input").nth(1).focus()
    assert page.locator("#complexity .math-block math [data-sym='ck-c'].sym-on").count() >= 1


def test_no_accessibility_violations_at_load_and_in_chosen_states(watched, site_url):
    """axe at load and in three states the load does not show: the KDA cost model, C = N by keys
    (focus on its slider, the cursor at the chart's edge), and the chunk row lit from the
    equation."""
    page, _ = watched
    fig = open_figure(page, site_url, FIG)
    assert_axe_clean_through(
        page,
        FIG,
        {
            "KDA view by click": lambda p: fig.locator("[role=radio][data-value='kda']").click(),
            "slider by keys (C = N)": lambda p: (
                fig.locator(".f15b-controls .k3-slider input").nth(1).focus(),
                p.keyboard.press("End"),
            ),
            "equation symbol hover": lambda p: p.locator(
                "#complexity .math-block math [data-sym='ck-chunk']"
            ).first.hover(),
        },
    )


def c_slider(fig):
    return fig.locator(".f15b-controls .k3-slider input").nth(1)


@pytest.mark.parametrize("width", [390, 800, 1280])
def test_curve_labels_clear_every_curve_and_the_cursor_at_every_c(watched, site_url, shipped, width):
    """Each curve's label sits clear of every curve (its own too), of the ring, of the other labels
    and of the scrub cursor's line and dots, at every C the reader can choose, from C = 1 to N."""
    page, _ = watched
    page.set_viewport_size({"width": width, "height": 900})
    fig = open_figure(page, site_url, FIG)
    c_slider(fig).focus()
    page.keyboard.press("Home")
    bad = []
    for i, c in enumerate(shipped["c"]):
        if i:
            page.keyboard.press("ArrowRight")
        settle(page)
        g = page.evaluate(GEOMETRY, FIG)
        assert cursor_c(g) == c
        bad += label_collisions(g)
    assert bad == []


@pytest.mark.parametrize("width", [390, 1280])
def test_curve_labels_stay_clear_in_every_setting(watched, site_url, shipped, width):
    """The curves move with the cost model, head width and latency: in each of those settings (with
    C stepping through its values from one setting to the next) no label touches anything."""
    page, _ = watched
    page.set_viewport_size({"width": width, "height": 900})
    fig = open_figure(page, site_url, FIG)
    settings = [(v, d, lat) for v in shipped["view_order"] for d in shipped["widths"] for lat in shipped["latencies"]]
    bad = []
    for k, (view, d, lat) in enumerate(settings):
        c = shipped["c"][(5 * k) % len(shipped["c"])]
        page.evaluate(
            "h => { location.hash = h; }", f"#fig-15b.view={view}&fig-15b.d={d}&fig-15b.lat={lat:g}&fig-15b.c={c}"
        )
        fig.locator(f"[role=radio][data-value='{view}'][aria-checked=true]").wait_for()
        page.wait_for_function(
            "t => document.querySelector('#fig-15b .f15b-table caption').textContent.includes(t)",
            arg=f"At C = {c:,} (N = {shipped['n_tokens']:,}, d = {d}, ℓ = {lat:g} µs)",
        )
        settle(page)
        g = page.evaluate(GEOMETRY, FIG)
        assert cursor_c(g) == c
        bad += [f"{view}, d = {d}, ℓ = {lat:g}: {m}" for m in label_collisions(g)]
    assert bad == []


def test_labels_and_plot_follow_a_resize(watched, site_url, shipped):
    """Narrowed from desktop to phone width, the plot takes the phone's height and ticks and the
    labels are placed again for the new plot area."""
    page, _ = watched
    page.set_viewport_size({"width": 1280, "height": 900})
    fig = open_figure(page, site_url, FIG, "#fig-15b.c=512")
    page.set_viewport_size({"width": 390, "height": 900})
    # Plotly redraws at the new width, then at the phone's height (its ticks with it), and the
    # overlay follows the new plot area
    page.wait_for_function("""() => { const p = document.querySelector('#fig-15b .f15b-plot'), fl = p._fullLayout;
        const clip = document.querySelector('#fig-15b .f15b-curves');
        return fl.width < 400 && fl.height === 300 && p.clientHeight === 300
          && p.querySelectorAll('g.xtick').length === 5 && clip.width.baseVal.value === fl.xaxis._length; }""")
    settle(page)
    g = page.evaluate(GEOMETRY, FIG)
    assert g["height"][0] == g["height"][1] == 300
    assert cursor_c(g) == 512 and label_collisions(g) == []
    assert fig.locator(".f15b-plot g.xtick").all_text_contents() == [
        "1",
        "8",
        "64",
        "512",
        "4096",
    ]  # every third power of two


@pytest.mark.parametrize("width", [390, 640, 800, 1280])
def test_plot_is_drawn_at_the_height_its_box_reserves(watched, site_url, width):
    """Plotly's height and the plot's box agree at every width (at 640 px the chart was drawn 60 px
    taller than its box, its x axis over the text below)."""
    page, _ = watched
    page.set_viewport_size({"width": width, "height": 900})
    open_figure(page, site_url, FIG)
    drawn, box = page.evaluate(GEOMETRY, FIG)["height"]
    assert drawn == box


def test_time_split_bar_belongs_to_the_time_rows(watched, site_url, site_dir, shipped):
    """The bar that splits the modelled time sits among the time rows, under their total and above
    the work rows, says what it splits, and its segments are the time terms' shares."""
    page, _ = watched
    fig = open_figure(page, site_url, FIG, "#fig-15b.c=512")
    bar = fig.locator(".f15b-split")
    row = fig.locator("tbody.f15b-time tr.f15b-split-row")
    assert row.locator(".f15b-split").count() == 1 and fig.locator(".f15b-split").count() == 1
    assert "total time" in row.inner_text() and "split" in row.inner_text()
    total_row = fig.locator("tbody.f15b-time tr.f15b-sum").bounding_box()
    work_head = fig.locator("tbody.f15b-work tr.f15b-head").bounding_box()
    b = bar.bounding_box()
    assert total_row["y"] + total_row["height"] <= b["y"] and b["y"] + b["height"] <= work_head["y"]
    time = curves(*setting(shipped, "linear", shipped["d_default"], shipped["latency_default"])[:2])
    j = shipped["c"].index(512) * shipped["per_octave"]  # C = 512 on the curves' grid
    grow = [float(x) for x in bar.locator(".f15b-seg").evaluate_all("s => s.map(e => e.style.flexGrow)")]
    assert grow == pytest.approx([time[k][j] / time["total"][j] for k in ("steps", "madds", "tiles")], rel=1e-4)


def test_no_input_makes_plotly_draw(watched, site_url, site_dir, shipped):
    """Stepping C moves the overlay's cursor and rewrites the readouts; a new cost model, head width
    or latency redraws the overlay's curves, band and ring: Plotly, which draws only the axes, draws
    nothing on any input (a marker restyle recomputed every trace, a new setting's Plotly.react
    took 30–200 ms per input on a slow machine; issue 16)."""
    page, _ = watched
    fig = open_figure(page, site_url, FIG)
    page.evaluate("""() => { const p = document.querySelector('#fig-15b .f15b-plot'); window.__f15bDraws = 0;
                           p.on('plotly_afterplot', () => { window.__f15bDraws += 1; }); }""")
    c_slider(fig).focus()
    for _ in range(4):
        page.keyboard.press("ArrowRight")
    settle(page)
    c = shipped["c"][shipped["c_default_index"] + 4]
    assert cursor_c(page.evaluate(GEOMETRY, FIG)) == c
    assert_readouts(fig, site_dir, shipped, "linear", c)
    lats = shipped["latencies"]
    fig.locator("[role=radio][data-value='256']").click()  # new curves
    fig.locator("[role=radio][data-value='kda']").click()
    fig.locator(".f15b-controls .k3-slider input").first.focus()
    page.keyboard.press("End")
    settle(page)
    w, s = assert_readouts(fig, site_dir, shipped, "kda", c, d=256, lat=lats[-1])
    band, time = s["band"], curves(w, s)
    traces = chart(page)
    for k, key in enumerate(("steps", "madds", "tiles", "total"), start=1):
        np.testing.assert_allclose(traces[k][1], time[key], rtol=RTOL)
    assert traces[0][0] == pytest.approx([band["lo"], band["lo"], band["hi"], band["hi"]], rel=RTOL)
    assert traces[5][0] == pytest.approx([band["best"]], rel=RTOL)
    assert label_collisions(page.evaluate(GEOMETRY, FIG)) == []
    assert page.evaluate("() => window.__f15bDraws") == 0


def test_curves_are_drawn_as_plotly_drew_them(watched, site_url):
    """The overlay's curves keep the look the Plotly traces had: line widths 2.5 (terms) and 4
    (total), Plotly's dash patterns (dash 9 px, dot 3 px), the colours of the table's keys, clipped
    to the plot area; the band a quarter-opaque green over the plot's height; the ring Plotly's
    open circle (radius 7.5, line 3)."""
    page, _ = watched
    open_figure(page, site_url, FIG)
    look = page.evaluate("""() => {
      const fig = document.getElementById('fig-15b'), cs = e => getComputedStyle(e);
      const curves = [...fig.querySelectorAll('.f15b-curve')].map(e => [e.dataset.curve, cs(e).strokeWidth, cs(e).strokeDasharray, cs(e).stroke]);
      const keys = [...fig.querySelectorAll('tr[data-time] line, tr.f15b-sum line')].map(e => cs(e).stroke);
      const clip = fig.querySelector('.f15b-curves'), plot = fig.querySelector('.f15b-plot')._fullLayout;
      const band = fig.querySelector('.f15b-band-area'), ring = fig.querySelector('.f15b-ring');
      return {curves, keys, clip: [clip.width.baseVal.value, clip.height.baseVal.value, cs(clip).overflow],
              area: [plot.xaxis._length, plot.yaxis._length], band: [cs(band).opacity, band.height.baseVal.value],
              ring: [ring.r.baseVal.value, cs(ring).strokeWidth, cs(ring).fill, cs(ring).stroke], green: cs(band).fill};
    }""")
    assert [c[:3] for c in look["curves"]] == [
        ["steps", "2.5px", "none"],
        ["madds", "2.5px", "9px, 9px"],
        ["tiles", "2.5px", "3px, 3px"],
        ["total", "4px", "none"],
    ]
    assert len(look["keys"]) == 4
    assert [c[3] for c in look["curves"]] == look["keys"]  # the same colours as the table's line keys
    assert look["clip"] == [*look["area"], "hidden"]
    assert look["band"] == ["0.25", look["area"][1]]
    assert look["ring"][:3] == [7.5, "3px", "none"] and look["ring"][3] == look["green"]
