"""FIG 08 · KDA pathways in the browser: no edge crosses a box, wide or tall, research mode or not;
the stepper lights one pathway at a time (buttons, keys, Play), says what it shows and lives in the
URL; chips hide/show exactly their pathway, isolate with Shift; on a phone the diagram flows top to
bottom and Fit shows all of it across the width; pan and zoom change the view transform and live in
the URL; research mode shows shapes and equations that never break inside a piece; the demo shows
the shipped states, which coincide when the channel gates are equal. What is shown is checked
against what was shipped; the shipped data against the kernels, and its sentences against the
diagram and the numbers, in test_fig_08_data.py."""

import re

import numpy as np
import pytest

from tests.browser.support import (
    assert_axe_clean_through,
    assert_shown_is_shipped,
    open_figure,
    shipped_data,
    shown_number,
)

pytestmark = pytest.mark.browser
FIG = "fig-08"


@pytest.fixture(scope="module")
def data(site_dir):
    return shipped_data(site_dir, FIG)


def off_paths(fig):
    """The pathways whose every node and edge is marked off (and no other element is)."""
    out = set()
    for p in ("intra", "state", "gate", "io"):
        els = fig.locator(f".f08-node[data-path='{p}'], .f08-edge[data-path='{p}']")
        offs = fig.locator(f".f08-node[data-path='{p}'].is-off, .f08-edge[data-path='{p}'].is-off")
        n, k = els.count(), offs.count()
        assert k in (0, n), f"pathway {p}: {k} of {n} elements off"
        if k:
            out.add(p)
    return out


def scale_and_translate(fig):
    t = fig.locator(".f08-canvas").evaluate("el => el.style.transform")
    tx, ty, s = map(float, re.match(r"translate\(([-\d.]+)px, ?([-\d.]+)px\) scale\(([\d.]+)\)", t).groups())
    return s, tx, ty


def centred(locator):
    """Scroll an element to the middle of the window (clear of the sticky journey strip)."""
    locator.evaluate("el => el.scrollIntoView({block: 'center', behavior: 'instant'})")
    return locator


def matrix(fig, cls):
    return np.array([shown_number(t) for t in fig.locator(f".{cls} tbody td").all_inner_texts()]).reshape(4, -1)


def live_shows(fig):
    """The path of the shipped text the live region says (it is tagged once it has spoken)."""
    return fig.locator(".fig-live").get_attribute("data-shows")


def test_chips_toggle_and_isolate_by_mouse_and_keyboard(watched, site_url, site_dir, data):
    page, _ = watched
    fig = open_figure(page, site_url, FIG)
    counts = {p: sum(n["path"] == p for n in data["diagram"]["nodes"]) for p in ("intra", "state", "gate")}
    assert off_paths(fig) == set()
    fig.locator("[data-chip='intra']").click()
    assert off_paths(fig) == {"intra"}
    assert fig.locator("[data-chip='intra']").get_attribute("aria-pressed") == "false"
    assert f"{counts['intra']} nodes" in fig.locator(".fig-live").inner_text()
    assert live_shows(fig) == '["diagram","pathways",1,"hidden"]'
    assert assert_shown_is_shipped(page, site_dir, FIG) >= len(data["diagram"]["nodes"]) + 1
    assert "fig-08.off=intra" in page.url
    fig.locator("[data-chip='intra']").click()
    assert off_paths(fig) == set()
    fig.locator("[data-chip='gate']").focus()
    page.keyboard.press("Enter")
    assert off_paths(fig) == {"gate"}
    page.keyboard.press("Space")
    assert off_paths(fig) == set()
    fig.locator("[data-chip='state']").focus()
    page.keyboard.press("Shift+Enter")  # isolate
    assert off_paths(fig) == {"intra", "gate", "io"}
    assert "Only Inter-chunk state S" in fig.locator(".fig-live").inner_text()
    assert live_shows(fig) == '["diagram","pathways",2,"only"]'
    assert assert_shown_is_shipped(page, site_dir, FIG) > 0
    fig.locator("[data-chip='gate']").click(modifiers=["Shift"])
    assert off_paths(fig) == {"intra", "state", "io"}
    fig.locator(".f08-all").click()
    assert off_paths(fig) == set()
    assert fig.locator(".fig-live").inner_text() == data["text"]["every_shown"]
    assert fig.locator("[data-chip='gate']").get_attribute("title") == data["text"]["chip_title"]


def test_pan_and_zoom_change_the_transform_and_the_url(watched, site_url, site_dir, data):
    page, _ = watched
    fig = open_figure(page, site_url, FIG)
    s0, tx0, ty0 = scale_and_translate(fig)
    vp = centred(fig.locator(".f08-viewport")).bounding_box()
    cx, cy = vp["x"] + vp["width"] / 2, vp["y"] + vp["height"] / 2
    page.mouse.move(cx, cy)
    page.mouse.down()
    page.mouse.move(cx - 60, cy - 30, steps=5)
    page.mouse.up()
    s1, tx1, ty1 = scale_and_translate(fig)
    assert (
        s1 == pytest.approx(s0) and tx1 == pytest.approx(tx0 - 60, abs=1.5) and ty1 == pytest.approx(ty0 - 30, abs=1.5)
    )
    assert "fig-08.x=" in page.url and "fig-08.y=" in page.url
    assert fig.locator(".fig-live").inner_text() == "Panned the diagram."
    fig.locator(".f08-zoom-in").click()
    assert scale_and_translate(fig)[0] == pytest.approx(s0 * 1.25, rel=1e-3)
    assert "fig-08.z=1.25" in page.url and fig.locator(".f08-zoom-level").inner_text() == "125%"
    assert fig.locator(".fig-live").inner_text() == "Zoom 125%."
    assert assert_shown_is_shipped(page, site_dir, FIG) >= 2  # the zoom level and the narration, among the rest
    # ctrl + wheel zooms in place
    vp = centred(fig.locator(".f08-viewport")).bounding_box()
    cx, cy = vp["x"] + vp["width"] / 2, vp["y"] + vp["height"] / 2
    page.mouse.move(cx, cy)
    page.keyboard.down("Control")
    page.mouse.wheel(0, -100)
    page.keyboard.up("Control")
    page.wait_for_function("() => location.hash.includes('fig-08.z=') && !location.hash.includes('fig-08.z=1.25')")
    assert scale_and_translate(fig)[0] > s0 * 1.25
    # keys on the focused viewport: minus zooms out, arrows pan, 0 resets
    fig.locator(".f08-viewport").focus()
    before = scale_and_translate(fig)
    page.keyboard.press("-")
    assert scale_and_translate(fig)[0] == pytest.approx(before[0] / 1.25, rel=1e-3)
    page.keyboard.press("0")
    assert scale_and_translate(fig) == pytest.approx((s0, tx0, ty0), abs=0.1)
    assert "fig-08.z" not in page.url
    assert fig.locator(".fig-live").inner_text() == "View fitted to the width."
    assert fig.locator(".f08-zoom-level").inner_text() == "100%"
    page.keyboard.press("ArrowRight")
    assert scale_and_translate(fig)[1] == pytest.approx(tx0 - 60, abs=0.2)
    assert fig.locator(".fig-live").inner_text() == "Panned right."
    page.keyboard.press("ArrowDown")
    assert scale_and_translate(fig)[2] == pytest.approx(ty0 - 60, abs=0.2)
    assert fig.locator(".fig-live").inner_text() == "Panned down."
    assert assert_shown_is_shipped(page, site_dir, FIG) >= 2
    page.go_back()  # undo the last pan: y is back at its default, which the URL leaves out
    page.wait_for_function("() => location.hash.includes('fig-08.x=') && !location.hash.includes('fig-08.y=')")
    assert scale_and_translate(fig)[1:] == pytest.approx((tx0 - 60, ty0), abs=0.2)


def test_view_loads_from_the_url(watched, site_url, data):
    page, _ = watched
    fig = open_figure(
        page,
        site_url,
        FIG,
        "#fig-08.z=2.00&fig-08.x=0.300&fig-08.y=0.400&fig-08.off=io&fig-08.research=1&fig-08.equal=1&fig-08.step=3",
    )
    s, tx, ty = scale_and_translate(fig)
    w, h, cw, ch = fig.locator(".f08-viewport").evaluate(
        "el => [el.clientWidth, el.clientHeight, el.firstChild.offsetWidth, el.firstChild.offsetHeight]"
    )
    assert s == pytest.approx(2 * min(1, w / cw), rel=1e-3)  # twice the fit (research mode's wider canvas)
    assert tx == pytest.approx(w / 2 - 0.3 * cw * s, abs=0.2) and ty == pytest.approx(h / 2 - 0.4 * ch * s, abs=0.2)
    assert fig.locator(".f08-node.is-lit").count() == sum(
        n["path"] == data["diagram"]["pathways"][2]["id"] for n in data["diagram"]["nodes"]
    )
    assert off_paths(fig) == {"io"}
    assert fig.locator(".f08-research").get_attribute("aria-checked") == "true"
    assert fig.locator(".f08-equal").get_attribute("aria-checked") == "true"


def test_research_mode_shows_shapes_and_equations(watched, site_url, site_dir, data):
    page, _ = watched
    fig = open_figure(page, site_url, FIG)
    shape = fig.locator("[data-node='sout'] .f08-shape")
    assert not shape.is_visible() and not fig.locator("[data-node='sout'] math").first.is_visible()
    fig.locator(".f08-research").click()
    assert shape.is_visible() and shape.inner_text() == "[d_k, d_v]"
    for n in data["diagram"]["nodes"]:
        assert fig.locator(f"[data-node='{n['id']}'] .f08-shape").inner_text() == n["shape"]
    assert fig.locator("[data-node='ut'] math").first.is_visible()
    for n in data["diagram"]["nodes"]:  # every equation piece is in its box
        assert fig.locator(f"[data-node='{n['id']}'] .f08-eq math").count() == n["eq_html"].count("<math")
    assert "fig-08.research=1" in page.url and "Research mode on" in fig.locator(".fig-live").inner_text()
    # every label, shape piece and equation (the boxes' and, on a phone, the list's) is the shipped one
    assert assert_shown_is_shipped(page, site_dir, FIG) >= 3 * len(data["diagram"]["nodes"])
    fig.locator(".f08-research").focus()
    page.keyboard.press("Space")
    assert not shape.is_visible() and "research" not in page.url
    assert fig.locator(".fig-live").inner_text() == "Research mode off."
    page.go_back()
    page.wait_for_selector(f"#{FIG} .f08-research[aria-checked=true]")
    assert shape.is_visible()


def test_demo_shows_the_shipped_states(watched, site_url, site_dir, data):
    page, _ = watched
    fig = open_figure(page, site_url, FIG)
    d = data["demo"]
    S_gdn, S_kda, S_eq = (np.array(d[s]) for s in ("S_gdn", "S_kda", "S_kda_equal"))
    demo_texts = "els => els.length"
    assert assert_shown_is_shipped(page, site_dir, FIG) > 0
    assert page.eval_on_selector_all(f"#{FIG} .f08-demo [data-shows]", demo_texts) == 15 + d["d_k"]  # every one
    assert fig.locator(".f08-s-kda caption").get_attribute("data-shows") == '["demo","text","caption_kda","channels"]'
    np.testing.assert_allclose(matrix(fig, "f08-s-gdn"), S_gdn, atol=0.0005)
    np.testing.assert_allclose(matrix(fig, "f08-s-kda"), S_kda, atol=0.0005)
    assert shown_number(fig.locator(".f08-maxdiff").inner_text()) == pytest.approx(
        np.abs(S_kda - S_gdn).max(), abs=0.0005
    )
    assert np.abs(S_kda - S_gdn).max() > 0.01  # per-channel gates change the state
    shown_alphas = [shown_number(t) for t in fig.locator(".f08-alpha").all_inner_texts()]
    assert shown_alphas == pytest.approx(d["alpha_channels"], abs=0.005)
    fig.locator(".f08-equal").click()
    np.testing.assert_allclose(matrix(fig, "f08-s-kda"), S_eq, atol=0.0005)
    assert fig.locator(".f08-s-kda tbody td").all_inner_texts() == fig.locator(".f08-s-gdn tbody td").all_inner_texts()
    assert np.abs(S_eq - S_gdn).max() < 1e-12
    assert shown_number(fig.locator(".f08-maxdiff").inner_text()) == 0
    assert [shown_number(t) for t in fig.locator(".f08-alpha").all_inner_texts()] == pytest.approx(
        [d["alpha_scalar"]] * 4
    )
    assert "equals Gated DeltaNet" in fig.locator(".fig-live").inner_text()
    assert fig.locator(".f08-s-kda caption").get_attribute("data-shows") == '["demo","text","caption_kda","equal"]'
    assert assert_shown_is_shipped(page, site_dir, FIG) > 0  # the narration too
    fig.locator(".f08-equal").focus()
    page.keyboard.press("Enter")
    np.testing.assert_allclose(matrix(fig, "f08-s-kda"), S_kda, atol=0.0005)
    assert "equal=1" not in page.url


def test_symbols_link_both_ways(watched, site_url):
    page, _ = watched
    fig = open_figure(page, site_url, FIG)
    # pointerover dispatched on the symbol itself: the runtime's document listener sees what a hover
    # sends, without depending on the layout of the sections above (other figures load lazily)
    page.locator("#kda .math-block math [data-sym='kda-alpha']").first.dispatch_event("pointerover")
    assert fig.locator("[data-node='gate'].sym-on").count() == 1 and fig.locator(".f08-gates.sym-on").count() == 1
    page.locator("#kda .math-block math [data-sym='kda-state']").first.dispatch_event("pointerover")
    assert fig.locator(".f08-node.sym-on").count() == 2 and fig.locator("table.sym-on").count() == 2
    fig.locator("[data-node='sin']").focus()
    assert page.locator("#kda .math-block math [data-sym='kda-state'].sym-on").count() >= 1
    centred(fig.locator(".f08-demo [data-sym='kda-beta']")).hover()
    assert page.locator("#kda .math-block math [data-sym='kda-beta'].sym-on").count() >= 1


def test_no_accessibility_violations_at_load_and_in_chosen_states(watched, site_url):
    """axe at load and in four states the load does not show: research mode (shapes and
    equations), equal gates (the demo's equal states), a pathway lit by the stepper (the rest
    dimmed, its story), and one pathway isolated by Shift+Enter (focus on its chip, the rest off)."""
    page, _ = watched
    fig = open_figure(page, site_url, FIG)

    def isolate_by_key(p):
        fig.locator("[data-chip='state']").focus()
        p.keyboard.press("Shift+Enter")

    assert_axe_clean_through(
        page,
        FIG,
        {
            "research mode on": lambda p: fig.locator(".f08-research").click(),
            "equal gates on": lambda p: fig.locator(".f08-equal").click(),
            "a pathway lit (next step)": lambda p: fig.locator(".f08-stepper button[aria-label='Next step']").click(),
            "one pathway isolated (Shift+Enter)": isolate_by_key,
        },
    )


# ---------- lanes: no edge crosses a box ----------

CROSSINGS = """(shrink) => {
  const fig = document.getElementById('fig-08');
  const boxes = [...fig.querySelectorAll('.f08-node')].map(n => ({id: n.dataset.node,
    x: n.offsetLeft + shrink, y: n.offsetTop + shrink, w: n.offsetWidth - 2 * shrink, h: n.offsetHeight - 2 * shrink}));
  const out = [], lengths = [];
  for (const p of fig.querySelectorAll('.f08-edge')) {
    const len = p.getTotalLength();
    lengths.push(len);
    for (let s = 0; s <= len; s += 1) {  // every pixel of the drawn path, corners included
      const q = p.getPointAtLength(s);
      for (const b of boxes) {
        if (q.x > b.x && q.x < b.x + b.w && q.y > b.y && q.y < b.y + b.h) { out.push(p.dataset.edge + ' crosses ' + b.id); break; }
      }
    }
  }
  return {crossings: [...new Set(out)], lengths, layout: fig.querySelector('.f08').dataset.layout};
}"""


@pytest.mark.parametrize("width, layout", [(1280, "wide"), (390, "tall")])
def test_no_edge_crosses_a_box(watched, site_url, data, width, layout):
    """Every edge path, sampled every pixel along its length in the browser, stays out of every node
    box (shrunk by 1.5 px, so arriving at a face is not a crossing), with and without research mode."""
    page, _ = watched
    page.set_viewport_size({"width": width, "height": 900})
    for research in ("0", "1"):
        fig = open_figure(page, site_url, FIG, f"#fig-08.research={research}")
        got = page.evaluate(CROSSINGS, 1.5)
        assert got["layout"] == layout
        assert len(got["lengths"]) == len(data["diagram"]["edges"]) and min(got["lengths"]) > 10
        assert got["crossings"] == [], f"research={research}: {got['crossings']}"
    # the check can fail: put a box on top of an edge and it is caught
    fig.locator(
        "[data-node='out']"
    ).evaluate("""el => { const p = document.querySelector("[data-edge='x-proj']").getPointAtLength(12);
                                                  el.style.left = (p.x - 20) + 'px'; el.style.top = (p.y - 10) + 'px'; }""")
    assert "x-proj crosses out" in page.evaluate(CROSSINGS, 1.5)["crossings"]


# ---------- a drawing a reader can trace: few crossings, arrowheads apart, equations legible ----------

TRACE = """() => {
  const fig = document.getElementById('fig-08'), canvas = fig.querySelector('.f08-canvas');
  const s = canvas.getBoundingClientRect().width / canvas.offsetWidth;  // the fitted scale
  const edges = [...fig.querySelectorAll('.f08-edge')].map(p => {
    const t = p.getAttribute('d').match(/[MLQ]|-?[\\d.]+/g), pts = [];
    for (let i = 0; i < t.length;) {  // a rounded corner's control point stands in for the corner
      if (/[MLQ]/.test(t[i])) { i++; continue; }
      pts.push([+t[i], +t[i + 1]]);
      i += 2;
    }
    const [from, to] = p.dataset.edge.split('-');
    return {id: p.dataset.edge, from, to, pts};
  });
  const crossings = [];  // one wire running straight through another (a horizontal piece across a vertical one)
  for (let i = 0; i < edges.length; i++) for (let j = i + 1; j < edges.length; j++) {
    const A = edges[i].pts, B = edges[j].pts;
    for (let a = 1; a < A.length; a++) for (let b = 1; b < B.length; b++) {
      let H = [A[a - 1], A[a]], V = [B[b - 1], B[b]];
      if (Math.abs(H[0][1] - H[1][1]) > 0.01) [H, V] = [V, H];
      if (Math.abs(H[0][1] - H[1][1]) > 0.01 || Math.abs(V[0][0] - V[1][0]) > 0.01) continue;
      const x = V[0][0], y = H[0][1];
      if (x > Math.min(H[0][0], H[1][0]) + 0.5 && x < Math.max(H[0][0], H[1][0]) - 0.5 &&
          y > Math.min(V[0][1], V[1][1]) + 0.5 && y < Math.max(V[0][1], V[1][1]) - 0.5) crossings.push(edges[i].id + ' x ' + edges[j].id);
    }
  }
  // the arrowheads into each box: where each wire ends, and the drawn head's box on screen
  const heads = {};
  for (const p of fig.querySelectorAll('.f08-edge')) {
    const len = p.getTotalLength(), tip = p.getPointAtLength(len), back = p.getPointAtLength(len - 1);
    (heads[p.dataset.edge.split('-')[1]] ||= []).push({id: p.dataset.edge, tip: [tip.x, tip.y], dir: [tip.x - back.x, tip.y - back.y]});
  }
  const marker = fig.querySelector('.f08-edges marker'), size = +marker.getAttribute('markerWidth');
  let closest = {gap: Infinity};
  for (const [to, hs] of Object.entries(heads)) for (let i = 0; i < hs.length; i++) for (let j = i + 1; j < hs.length; j++) {
    const gap = Math.hypot(hs[i].tip[0] - hs[j].tip[0], hs[i].tip[1] - hs[j].tip[1]) * s;
    if (gap < closest.gap) closest = {gap, to, pair: hs[i].id + ' / ' + hs[j].id};
  }
  const eqs = [...fig.querySelectorAll('.f08-node .f08-eq math')].filter(m => m.getClientRects().length)
    .map(m => ({px: parseFloat(getComputedStyle(m).fontSize) * s, text: m.textContent.slice(0, 20)}));
  return {crossings, closest, head: size * s, markerUnits: marker.getAttribute('markerUnits'), eqs,
          layout: fig.querySelector('.f08').dataset.layout};
}"""


@pytest.mark.parametrize("width, layout, most", [(1280, "wide", 3), (390, "tall", 4)])
def test_wires_cross_little_and_arrowheads_stand_apart(watched, site_url, data, width, layout, most):
    """The all-pathways view can be traced: at most `most` places where one wire runs through
    another (the first drawing had 18 wide and 15 tall), with and without research mode; wires into
    one box end at least 12 screen px apart at Fit, more than a whole arrowhead (10 canvas px, not
    scaled up by a lit wire's stroke), so no two heads overlap (the first drawing stacked three into
    "Update S once" and "Chunk output O" within 8 px)."""
    page, _ = watched
    page.set_viewport_size({"width": width, "height": 900})
    for research in ("0", "1"):
        open_figure(page, site_url, FIG, f"#fig-08.research={research}")
        got = page.evaluate(TRACE)
        assert got["layout"] == layout
        assert len(got["crossings"]) <= most, f"research={research}: {got['crossings']}"
        assert got["markerUnits"] == "userSpaceOnUse"
        assert got["closest"]["gap"] >= 12 and got["closest"]["gap"] > got["head"] + 1, (
            f"research={research}: {got['closest']}"
        )
    # the count can fail: stretch one wire across the whole drawing and its crossings are counted
    page.locator("#fig-08 [data-edge='x-proj']").evaluate(
        "p => p.setAttribute('d', 'M0,' + p.ownerSVGElement.height.baseVal.value / 2 + ' L' + p.ownerSVGElement.width.baseVal.value + ',' + p.ownerSVGElement.height.baseVal.value / 2)"
    )
    assert len(page.evaluate(TRACE)["crossings"]) > most


def test_research_equations_are_legible_at_fit_on_a_desktop(watched, site_url, data):
    """Research mode on a 1280 px desktop: every equation piece in the diagram is at least 11 px on
    screen at Fit (the first drawing's 200 px columns fitted it down to 9.9 px); each column is only
    as wide as its widest piece needs."""
    page, _ = watched
    page.set_viewport_size({"width": 1280, "height": 900})
    open_figure(page, site_url, FIG, "#fig-08.research=1")
    got = page.evaluate(TRACE)
    assert len(got["eqs"]) == sum(n["eq_html"].count("<math") for n in data["diagram"]["nodes"])
    smallest = min(got["eqs"], key=lambda e: e["px"])
    assert smallest["px"] >= 11, smallest
    labels = page.locator("#fig-08 .f08-node-label").evaluate_all(
        "els => Math.min(...els.map(e => parseFloat(getComputedStyle(e).fontSize) * e.getBoundingClientRect().height / e.offsetHeight))"
    )
    assert labels >= 12


# ---------- stepping through the pathways ----------


def lit(fig):
    return {n for n in fig.locator(".f08-node.is-lit").evaluate_all("els => els.map(e => e.dataset.node)")}


def test_stepper_lights_one_pathway_at_a_time(watched, site_url, site_dir, data):
    page, _ = watched
    fig = open_figure(page, site_url, FIG)
    D = data["diagram"]
    P = D["pathways"]
    assert lit(fig) == set() and fig.locator(".f08-node.is-dim").count() == 0
    assert fig.locator(".k3-stepper-readout").inner_text() == "All pathways"
    fig.locator(".f08-stepper button[aria-label='Next step']").click()
    for k, p in enumerate(P, start=1):
        if k > 1:
            fig.locator(".f08-stepper").focus()
            page.keyboard.press("ArrowRight")
        assert f"fig-08.step={k}" in page.url
        nodes = [n for n in D["nodes"] if n["path"] == p["id"]]
        edges = [e for e in D["edges"] if e["path"] == p["id"]]
        assert lit(fig) == {n["id"] for n in nodes}
        assert fig.locator(".f08-edge.is-lit").count() == len(edges)
        touched = {e["from"] for e in edges} | {e["to"] for e in edges}
        context = {n for n in fig.locator(".f08-node.is-context").evaluate_all("els => els.map(e => e.dataset.node)")}
        assert context == touched - {n["id"] for n in nodes}
        story = fig.locator(".f08-story").inner_text()
        assert f"Pathway {k} of {len(P)}: {p['label']}" in story and p["story"] in story
        for n in nodes:  # the visible list names exactly this pathway's boxes
            assert n["label"] in fig.locator(".f08-story-nodes").inner_text()
        live = fig.locator(".fig-live").inner_text()
        assert p["label"] in live and f"{len(nodes)} nodes and {len(edges)} edges" in live
        assert fig.locator(".k3-stepper-readout").inner_text() == data["text"]["step_label"][k]
        assert live_shows(fig) == f'["diagram","pathways",{k - 1},"describe"]'
        assert assert_shown_is_shipped(page, site_dir, FIG) >= 2 * len(D["nodes"]) + 3 * (len(P) + 1)
    page.keyboard.press("Home")
    assert lit(fig) == set() and "step=" not in page.url
    assert fig.locator(".fig-live").inner_text() == data["text"]["all_pathways"]["describe"]
    page.keyboard.press("End")
    assert lit(fig) == {n["id"] for n in D["nodes"] if n["path"] == P[-1]["id"]}
    page.go_back()
    page.wait_for_function("() => !location.hash.includes('fig-08.step=')")
    assert lit(fig) == set()


def test_play_walks_every_pathway_and_stops(watched, site_url, data):
    page, _ = watched
    fig = open_figure(page, site_url, FIG)
    play = fig.locator(".f08-stepper button[aria-pressed]")
    play.click()
    assert play.get_attribute("aria-pressed") == "true"
    n = len(data["diagram"]["pathways"])
    page.wait_for_function(f"() => location.hash.includes('fig-08.step={n}')", timeout=15000)
    page.wait_for_function(
        "() => document.querySelector('#fig-08 .f08-stepper button[aria-pressed]').getAttribute('aria-pressed') === 'false'"
    )
    assert fig.locator(".k3-stepper-readout").inner_text().startswith(f"{n} / {n}")


# ---------- phone: a tall diagram across the width ----------


def test_phone_layout_fits_the_width_and_fit_shows_it_all(watched, site_url):
    page, _ = watched
    page.set_viewport_size({"width": 390, "height": 844})
    fig = open_figure(page, site_url, FIG)
    assert fig.locator(".f08").get_attribute("data-layout") == "tall"

    def whole_diagram_in_view():
        vp = fig.locator(".f08-viewport").bounding_box()
        c = fig.locator(".f08-canvas").bounding_box()  # the transformed canvas
        assert vp["x"] >= 0 and vp["x"] + vp["width"] <= 390
        assert c["x"] >= vp["x"] - 0.5 and c["x"] + c["width"] <= vp["x"] + vp["width"] + 0.5
        assert c["y"] >= vp["y"] - 0.5 and c["y"] + c["height"] <= vp["y"] + vp["height"] + 0.5
        assert c["width"] >= 0.85 * vp["width"]  # fills the width: no tiny diagram
        return c

    c0 = whole_diagram_in_view()
    fig.locator(".f08-zoom-in").click()
    fig.locator(".f08-zoom-in").click()
    assert fig.locator(".f08-canvas").bounding_box()["width"] > 1.5 * c0["width"]
    assert fig.locator(".f08-viewport").evaluate("el => el.style.touchAction") == "none"  # zoomed: a drag pans
    fig.locator(".f08-zoom-reset").click()
    assert "fig-08.z" not in page.url
    whole_diagram_in_view()
    assert (
        fig.locator(".f08-viewport").evaluate("el => el.style.touchAction") == "pan-y pinch-zoom"
    )  # fitted: a drag scrolls the page
    assert fig.locator(".fig-mount").evaluate("el => el.scrollWidth <= el.clientWidth")
    smallest = fig.locator(".f08-node-label").evaluate_all(
        "els => Math.min(...els.map(e => parseFloat(getComputedStyle(e).fontSize) * e.getBoundingClientRect().height / e.offsetHeight))"
    )
    assert smallest >= 11  # legible at fit


EQ_FIT = """(sel) => [...document.querySelectorAll(sel)].filter(e => e.getClientRects().length).map(k => {
  const box = k.closest('.f08-node, dd'), b = box.getBoundingClientRect(), r = k.getBoundingClientRect();
  const s = b.width / box.offsetWidth;  // the diagram is scaled; the list is not
  return {lines: k.getClientRects().length, over: r.right - (b.right - (box.clientLeft || 0) * s), text: k.textContent.slice(0, 30)};
})"""


@pytest.mark.parametrize("width, where", [(1280, "#fig-08 .f08-node .f08-eq math"), (390, "#fig-08 .f08-eqs math")])
def test_research_equations_never_break_inside_a_piece(watched, site_url, data, width, where):
    page, _ = watched
    page.set_viewport_size({"width": width, "height": 900})
    open_figure(page, site_url, FIG, "#fig-08.research=1")
    pieces = page.evaluate(EQ_FIT, where)
    assert len(pieces) == sum(n["eq_html"].count("<math") for n in data["diagram"]["nodes"])
    for p in pieces:
        assert p["lines"] == 1, f"{p['text']} breaks across lines"
        assert p["over"] <= 0.5, f"{p['text']} sticks out of its box by {p['over']:.1f} px"
    # the tensor shapes beside them ("[C, d_k], [C, d_v]") wrap between tensors, never inside brackets
    dims = page.eval_on_selector_all(
        {1280: "#fig-08 .f08-node .f08-dim", 390: "#fig-08 .f08-eqs .f08-dim"}[width],
        "els => els.map(e => ({text: e.textContent, lines: e.getClientRects().length}))",
    )
    assert len(dims) >= len(data["diagram"]["nodes"])
    assert [d["text"] for d in dims if d["lines"] != 1] == []


def test_demo_states_are_heatmaps_on_one_scale_whose_rows_show_the_gates(watched, site_url, data):
    """The two states are coloured on one scale (the largest |S| of the demo) and sit level however
    their captions wrap; the sentence beside them, per-channel decay "keeps some rows and fades
    others", holds in the shipped numbers: the channel with the largest α keeps a stronger row
    than under the one shared α, the channel with the smallest a paler one."""
    page, _ = watched
    d = data["demo"]
    S_gdn, S_kda = np.array(d["S_gdn"]), np.array(d["S_kda"])
    assert d["heat_scale"] == max(np.abs(S).max() for S in (S_gdn, S_kda, np.array(d["S_kda_equal"])))
    for width in (1280, 390):
        page.set_viewport_size({"width": width, "height": 900})
        fig = open_figure(page, site_url, FIG)
        assert fig.locator(".f08-mats table.k3-heat").count() == 2
        ends = fig.locator(".f08-mats .k3-heat-legend .k3-num").all_inner_texts()
        assert [shown_number(t) for t in ends] == pytest.approx([-d["heat_scale"], d["heat_scale"]], abs=0.05)
        gdn, kda_ = (fig.locator(f".{c} tbody").bounding_box() for c in ("f08-s-gdn", "f08-s-kda"))
        assert abs(gdn["y"] - kda_["y"]) < 1 and abs(gdn["x"] - kda_["x"]) > gdn["width"]  # level, side by side
    assert "keeps some rows and fades others" in fig.locator(".f08-diff").inner_text()
    keep, fade = int(np.argmax(d["alpha_channels"])), int(np.argmin(d["alpha_channels"]))

    def row(S, i):
        return np.abs(S[i]).max()

    assert row(S_kda, keep) > row(S_gdn, keep) and row(S_kda, fade) < row(S_gdn, fade)


@pytest.mark.parametrize("width", [1280, 390])
def test_stepping_never_moves_the_controls_or_the_figure(watched, site_url, width):
    """Each pathway's name is a different length (on a phone the longest wraps): stepping through
    them keeps the ▶ button where it is and the figure's height the same."""
    page, _ = watched
    page.set_viewport_size({"width": width, "height": 900})
    fig = open_figure(page, site_url, FIG)
    seen = set()
    for _ in range(fig.locator(".f08-stepper").evaluate("s => 1") + 5):
        nxt = fig.locator(".f08-stepper button[aria-label='Next step']")
        box = nxt.bounding_box()
        seen.add((round(box["x"]), round(box["y"] - fig.bounding_box()["y"]), round(fig.bounding_box()["height"])))
        if nxt.is_disabled():
            break
        nxt.click()
    assert len(seen) == 1, seen
