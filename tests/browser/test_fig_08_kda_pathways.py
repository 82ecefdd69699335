"""FIG 08 · KDA pathways: chips hide/show exactly their pathway, isolate with Shift; pan and zoom
change the view transform and live in the URL; research mode shows shapes and equations; the demo
states equal the kernels' and coincide when the channel gates are equal."""
import re

import numpy as np
import pytest

from k3explainer.kernels import gated_delta_rule, kda

from .support import assert_axe_clean_through, open_figure, shipped_data, shown_number

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
    locator.evaluate("el => el.scrollIntoView({block: 'center'})")
    return locator


def matrix(fig, cls):
    return np.array([shown_number(t) for t in fig.locator(f".{cls} tbody td").all_inner_texts()]).reshape(4, -1)


def test_chips_toggle_and_isolate_by_mouse_and_keyboard(watched, site_url, data):
    page, _ = watched
    fig = open_figure(page, site_url, FIG)
    counts = {p: sum(n["path"] == p for n in data["diagram"]["nodes"]) for p in ("intra", "state", "gate")}
    assert off_paths(fig) == set()
    fig.locator("[data-chip='intra']").click()
    assert off_paths(fig) == {"intra"}
    assert fig.locator("[data-chip='intra']").get_attribute("aria-pressed") == "false"
    assert f"{counts['intra']} nodes" in fig.locator(".fig-live").inner_text()
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
    fig.locator("[data-chip='gate']").click(modifiers=["Shift"])
    assert off_paths(fig) == {"intra", "state", "io"}
    fig.locator(".f08-all").click()
    assert off_paths(fig) == set()


def test_pan_and_zoom_change_the_transform_and_the_url(watched, site_url, data):
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
    assert s1 == pytest.approx(s0) and tx1 == pytest.approx(tx0 - 60, abs=1.5) and ty1 == pytest.approx(ty0 - 30, abs=1.5)
    assert "fig-08.x=" in page.url and "fig-08.y=" in page.url
    fig.locator(".f08-zoom-in").click()
    assert scale_and_translate(fig)[0] == pytest.approx(s0 * 1.25, rel=1e-3)
    assert "fig-08.z=1.25" in page.url and fig.locator(".f08-zoom-level").inner_text() == "125%"
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
    page.keyboard.press("ArrowRight")
    assert scale_and_translate(fig)[1] == pytest.approx(tx0 - 60, abs=0.2)
    page.keyboard.press("ArrowDown")
    assert scale_and_translate(fig)[2] == pytest.approx(ty0 - 60, abs=0.2)
    page.go_back()  # undo the last pan: y is back at its default, which the URL leaves out
    page.wait_for_function("() => location.hash.includes('fig-08.x=') && !location.hash.includes('fig-08.y=')")
    assert scale_and_translate(fig)[1:] == pytest.approx((tx0 - 60, ty0), abs=0.2)


def test_view_loads_from_the_url(watched, site_url, data):
    page, _ = watched
    fig = open_figure(page, site_url, FIG)
    s_fit = scale_and_translate(fig)[0]
    fig = open_figure(page, site_url, FIG, "#fig-08.z=2.00&fig-08.x=300&fig-08.y=200&fig-08.off=io&fig-08.research=1&fig-08.equal=1")
    s, tx, ty = scale_and_translate(fig)
    assert s == pytest.approx(2 * s_fit, rel=1e-3)
    w, h = fig.locator(".f08-viewport").evaluate("el => [el.clientWidth, el.clientHeight]")
    assert tx == pytest.approx(w / 2 - 300 * s, abs=0.2) and ty == pytest.approx(h / 2 - 200 * s, abs=0.2)
    assert off_paths(fig) == {"io"}
    assert fig.locator(".f08-research").get_attribute("aria-checked") == "true"
    assert fig.locator(".f08-equal").get_attribute("aria-checked") == "true"


def test_research_mode_shows_shapes_and_equations(watched, site_url, data):
    page, _ = watched
    fig = open_figure(page, site_url, FIG)
    shape = fig.locator("[data-node='sout'] .f08-shape")
    assert not shape.is_visible() and not fig.locator("[data-node='sout'] .katex").first.is_visible()
    fig.locator(".f08-research").click()
    assert shape.is_visible() and shape.inner_text() == "[d_k, d_v]"
    for n in data["diagram"]["nodes"]:
        assert fig.locator(f"[data-node='{n['id']}'] .f08-shape").inner_text() == n["shape"]
    assert fig.locator("[data-node='ut'] .katex").first.is_visible()
    assert "fig-08.research=1" in page.url and "Research mode on" in fig.locator(".fig-live").inner_text()
    fig.locator(".f08-research").focus()
    page.keyboard.press("Space")
    assert not shape.is_visible() and "research" not in page.url
    page.go_back()
    page.wait_for_selector(f"#{FIG} .f08-research[aria-checked=true]")
    assert shape.is_visible()


def test_demo_states_equal_the_kernels(watched, site_url, data):
    page, _ = watched
    fig = open_figure(page, site_url, FIG)
    d = data["demo"]
    q, k, v = (np.array(d[n]) for n in "qkv")
    beta = np.full(d["n_tokens"], d["beta"])
    _, S_gdn = gated_delta_rule(q, k, v, np.array(d["g_scalar"]), beta)
    _, S_kda = kda(q, k, v, np.array(d["g_channels"]), beta)
    _, S_eq = kda(q, k, v, np.array(d["g_equal"]), beta)
    np.testing.assert_allclose(np.exp(d["g_channels"][0]), d["alpha_channels"], rtol=1e-12)
    np.testing.assert_allclose(matrix(fig, "f08-s-gdn"), S_gdn, atol=0.0005)
    np.testing.assert_allclose(matrix(fig, "f08-s-kda"), S_kda, atol=0.0005)
    assert shown_number(fig.locator(".f08-maxdiff").inner_text()) == pytest.approx(np.abs(S_kda - S_gdn).max(), abs=0.0005)
    assert np.abs(S_kda - S_gdn).max() > 0.01  # per-channel gates change the state
    shown_alphas = [shown_number(t) for t in fig.locator(".f08-alpha").all_inner_texts()]
    assert shown_alphas == pytest.approx(d["alpha_channels"], abs=0.005)
    fig.locator(".f08-equal").click()
    np.testing.assert_allclose(matrix(fig, "f08-s-kda"), S_eq, atol=0.0005)
    assert fig.locator(".f08-s-kda tbody td").all_inner_texts() == fig.locator(".f08-s-gdn tbody td").all_inner_texts()
    assert np.abs(S_eq - S_gdn).max() < 1e-12
    assert shown_number(fig.locator(".f08-maxdiff").inner_text()) == 0
    assert [shown_number(t) for t in fig.locator(".f08-alpha").all_inner_texts()] == pytest.approx([d["alpha_scalar"]] * 4)
    assert "equals Gated DeltaNet" in fig.locator(".fig-live").inner_text()
    fig.locator(".f08-equal").focus()
    page.keyboard.press("Enter")
    np.testing.assert_allclose(matrix(fig, "f08-s-kda"), S_kda, atol=0.0005)
    assert "equal=1" not in page.url


def test_symbols_link_both_ways(watched, site_url):
    page, _ = watched
    fig = open_figure(page, site_url, FIG)
    # pointerover dispatched on the symbol itself: the runtime's document listener sees what a hover
    # sends, without depending on the layout of the sections above (other figures load lazily)
    page.locator("#kda .katex-display [data-sym='kda-alpha']").first.dispatch_event("pointerover")
    assert fig.locator("[data-node='gate'].sym-on").count() == 1 and fig.locator(".f08-gates.sym-on").count() == 1
    page.locator("#kda .katex-display [data-sym='kda-state']").first.dispatch_event("pointerover")
    assert fig.locator(".f08-node.sym-on").count() == 2 and fig.locator("table.sym-on").count() == 2
    fig.locator("[data-node='sin']").focus()
    assert page.locator("#kda .katex-display [data-sym='kda-state'].sym-on").count() >= 1
    centred(fig.locator(".f08-demo [data-sym='kda-beta']")).hover()
    assert page.locator("#kda .katex-display [data-sym='kda-beta'].sym-on").count() >= 1


def test_no_accessibility_violations_through_every_interaction(watched, site_url):
    """axe at load and after each kind of interaction: a pathway off by click and by key, isolated
    with Shift, all back on, research mode, equal gates, zoom by button and key, pan by drag and
    arrow, focus on a node, and symbols lit from the equation and the demo."""
    page, _ = watched
    fig = open_figure(page, site_url, FIG)

    def key_on(loc, k):
        def act(p):
            loc.focus()
            p.keyboard.press(k)
        return act

    def drag(p):
        vp = centred(fig.locator(".f08-viewport")).bounding_box()
        cx, cy = vp["x"] + vp["width"] / 2, vp["y"] + vp["height"] / 2
        p.mouse.move(cx, cy)
        p.mouse.down()
        p.mouse.move(cx - 60, cy - 30, steps=5)
        p.mouse.up()

    viewport = fig.locator(".f08-viewport")
    assert_axe_clean_through(page, FIG, {
        "a pathway off (click)": lambda p: fig.locator("[data-chip='gate']").click(),
        "a pathway back on (Space)": key_on(fig.locator("[data-chip='gate']"), "Space"),
        "one pathway isolated (Shift+Enter)": key_on(fig.locator("[data-chip='state']"), "Shift+Enter"),
        "all pathways on": lambda p: fig.locator(".f08-all").click(),
        "research mode on": lambda p: fig.locator(".f08-research").click(),
        "equal gates on": lambda p: fig.locator(".f08-equal").click(),
        "zoomed in (button)": lambda p: fig.locator(".f08-zoom-in").click(),
        "panned (drag)": drag,
        "zoomed out (minus key)": key_on(viewport, "-"),
        "panned (arrow key)": key_on(viewport, "ArrowRight"),
        "reset (0 key)": key_on(viewport, "0"),
        "focusing a node": lambda p: fig.locator("[data-node='sin']").focus(),
        "the state lit from the equation": lambda p: p.locator("#kda .katex-display [data-sym='kda-state']").first.dispatch_event("pointerover"),
        "hovering β in the demo": lambda p: centred(fig.locator(".f08-demo [data-sym='kda-beta']")).hover(),
        "equal gates off (Enter)": key_on(fig.locator(".f08-equal"), "Enter"),
        "research mode off (Space)": key_on(fig.locator(".f08-research"), "Space"),
    })
