"""FIG 13 · Kimi K3 map in the browser: components open the right panel and link to the right
section; tiles and layer counts equal the facts; the SiTU/SiLU readout shows the shipped curves.
What is shown is checked against what was shipped; the shipped data against the kernels, and its
sentences against the numbers, in test_fig_13_data.py."""

import json

import pytest
import yaml

from tests.browser.support import (
    ROOT,
    assert_axe_clean_through,
    assert_shown_is_shipped,
    open_figure,
    shipped_data,
    shown_number,
)

pytestmark = pytest.mark.browser
FIG = "fig-13"


@pytest.fixture(scope="module")
def spec():
    return yaml.safe_load((ROOT / "figures" / "fig-13-k3-map" / "figure.yaml").read_text(encoding="utf-8"))


@pytest.fixture(scope="module")
def facts(site_dir):
    return json.loads((site_dir / "manifest.json").read_text(encoding="utf-8"))["facts"]


def open_k3(page, site_url, hash_=""):
    page.set_default_timeout(40000)  # the first Plotly figure on a page is slow to start on a busy machine
    return open_figure(page, site_url, FIG, hash_)


def test_tiles_and_layer_counts_equal_the_facts(watched, site_url, site_dir, facts):
    page, _ = watched
    fig = open_k3(page, site_url)
    layout = facts["kimi_k3.layer_layout"]["numbers"]
    assert layout["layers"] == layout["kda"] + layout["mla"] == 93
    tiles = {
        t.get_attribute("data-fact"): t.locator(".f13-tile-v").inner_text() for t in fig.locator(".f13-tile").all()
    }
    assert tiles["kimi_k3.total_params"] == facts["kimi_k3.total_params"]["display"]
    assert tiles["kimi_k3.active_params"] == facts["kimi_k3.active_params"]["display"]
    assert int(tiles["kimi_k3.layer_layout"]) == layout["layers"]
    assert int(tiles["calc.k3_macrocycles"]) == facts["calc.k3_macrocycles"]["number"] == 23
    assert int(tiles["calc.k3_attnres_blocks"]) == facts["calc.k3_attnres_blocks"]["number"] == 8
    ex = facts["kimi_k3.experts"]["numbers"]
    assert int(tiles["kimi_k3.experts"]) == ex["routed"] + ex["shared"]
    assert shown_number(tiles["kimi_k3.context"]) == facts["kimi_k3.context"]["number"]
    label = fig.locator(".f13-tile[data-fact='kimi_k3.layer_layout'] .f13-tile-l").inner_text()
    assert f"{int(layout['kda'])} KDA + {int(layout['mla'])} MLA" in label
    # the map: one attention and one feed-forward column per layer, kinds as shipped (the layout
    # kernel's: test_fig_13_data.py)
    kinds = shipped_data(site_dir, FIG)["stack"]["kinds"]
    assert fig.locator(".f13-map rect.f13-kda").count() == kinds.count("kda") == layout["kda"]
    assert fig.locator(".f13-map rect.f13-mla").count() == kinds.count("mla") == layout["mla"]
    assert fig.locator(".f13-map rect.f13-dense").count() == 1
    assert fig.locator(".f13-map rect.f13-moe").count() == layout["layers"] - 1
    assert fig.locator(".f13-map rect.f13-band").count() == facts["calc.k3_attnres_blocks"]["number"]
    assert assert_shown_is_shipped(page, site_dir, FIG) >= 2 * 7 + 8 + 5  # tiles, blocks, map and readout labels


def test_each_component_opens_its_panel_and_links_to_its_section(watched, site_url, site_dir, spec):
    page, _ = watched
    fig = open_k3(page, site_url)
    for c in spec["params"]["components"]:
        btn = fig.locator(f".f13-comp[data-id='{c['id']}']")
        btn.click()
        assert btn.get_attribute("aria-expanded") == "true"
        panel = fig.locator(".f13-panel")
        assert panel.locator(".f13-p-title").inner_text() == c["label"]
        link = panel.locator(".f13-p-link a")
        assert link.get_attribute("href") == "#" + c["section"]
        heading = page.evaluate(
            "id => document.querySelector('section.section#' + id + ' h2').textContent.trim()", c["section"]
        )
        assert link.inner_text() == f"Read §{heading}"  # the page's own heading, number and title
        assert len(panel.locator(".f13-p-text").inner_text()) > 40
        live = fig.locator(".fig-live")
        assert c["label"] + " opened" in live.inner_text() and live.inner_text().endswith(f"Explained in §{heading}.")
        assert assert_shown_is_shipped(page, site_dir, FIG) >= 2 * 7 + 8 + 5 + 4  # with the panel's and the narration
        assert fig.locator(".f13-map .is-on").count() >= 1  # its parts of the map are marked
    assert fig.locator(".f13-comp[aria-expanded=true]").count() == 1
    # numbers in the panels: the KDA/MLA counts come from the layout
    fig.locator(".f13-comp[data-id='kda']").click()
    assert fig.locator(".f13-p-stat").inner_text().startswith("69 of 93 layers")
    fig.locator(".f13-comp[data-id='gated-mla']").click()
    assert fig.locator(".f13-p-stat").inner_text().startswith("24 of 93 layers")
    assert fig.locator(".f13-map rect.f13-mla.is-on").count() == 24
    fig.locator(".f13-p-link a").click()
    page.wait_for_function("() => location.hash.startsWith('#mla')")


def test_map_clicks_and_keyboard(watched, site_url):
    page, _ = watched
    fig = open_k3(page, site_url)
    fig.locator(".f13-map rect.f13-kda").nth(10).click()
    assert fig.locator(".f13-comp[data-id='kda']").get_attribute("aria-expanded") == "true"
    fig.locator(".f13-map text[data-comp=attnres]").nth(2).click()  # the "block 3" label on its band
    assert fig.locator(".f13-comp[data-id='attnres']").get_attribute("aria-expanded") == "true"
    fig.locator(".f13-comp").first.focus()
    page.keyboard.press("ArrowRight")
    assert page.evaluate("document.activeElement.dataset.id") == "kda"
    page.keyboard.press("End")
    page.keyboard.press("Enter")
    last = fig.locator(".f13-comp").last
    assert last.get_attribute("aria-expanded") == "true"
    page.keyboard.press("Escape")
    assert fig.locator(".f13-comp[aria-expanded=true]").count() == 0
    assert "Panel closed" in fig.locator(".fig-live").inner_text()
    page.keyboard.press("Home")
    page.keyboard.press(" ")
    assert fig.locator(".f13-comp").first.get_attribute("aria-expanded") == "true"
    fig.get_by_role("button", name="Close the panel").click()
    assert fig.locator(".f13-comp[aria-expanded=true]").count() == 0


def test_situ_readout_shows_the_shipped_curves(watched, site_url, site_dir):
    page, _ = watched
    fig = open_k3(page, site_url)
    d = shipped_data(site_dir, FIG)["situ"]

    def check():
        i = int(fig.locator("input[type=range]").input_value())
        tol = 0.0005 + 1e-9  # three decimals shown
        assert shown_number(fig.locator(".f13-r-situ").inner_text()) == pytest.approx(d["situ"][i], abs=tol)
        assert shown_number(fig.locator(".f13-r-silu").inner_text()) == pytest.approx(d["silu"][i], abs=tol)
        assert json.loads(fig.locator(".f13-r-situ").get_attribute("data-shows")) == ["situ", "situ_text", i]
        assert assert_shown_is_shipped(page, site_dir, FIG) >= 2 * 7 + 8 + 5
        return i

    i0 = check()
    slider = fig.locator("input[type=range]")
    slider.focus()
    page.keyboard.press("ArrowRight")
    assert check() == i0 + 1
    page.keyboard.press("Home")
    assert check() == 0
    assert "SiTU" in fig.locator(".fig-live").inner_text()
    box = fig.locator(".f13-plot .nsewdrag").bounding_box()  # hover the plot near its right edge
    page.mouse.move(box["x"] + box["width"] * 0.95, box["y"] + box["height"] / 2)
    page.wait_for_function("() => +document.querySelector('#fig-13 input[type=range]').value > 200")
    assert check() > 200


def test_state_lives_in_the_url_and_history(watched, site_url):
    page, _ = watched
    fig = open_k3(page, site_url, "#fig-13.c=latent-moe&fig-13.x=30")
    assert fig.locator(".f13-comp[data-id='latent-moe']").get_attribute("aria-expanded") == "true"
    assert fig.locator("input[type=range]").input_value() == "30"
    fig.locator(".f13-comp[data-id='attnres']").click()
    assert "fig-13.c=attnres" in page.url
    page.go_back()
    page.wait_for_function(
        "() => document.querySelector(\"#fig-13 .f13-comp[data-id='latent-moe']\").getAttribute('aria-expanded') === 'true'"
    )
    assert fig.locator(".f13-panel .f13-p-title").inner_text() == "Latent mixture of experts"


def test_equation_symbols_link_both_ways(watched, site_url):
    page, _ = watched
    fig = open_k3(page, site_url)
    page.locator("#kimi-k3 .math-block math [data-sym='situ-fn']").first.hover()
    assert fig.locator(".f13-r-situ.sym-on").count() == 1
    page.locator("#kimi-k3 .math-block math [data-sym='situ-lin']").first.hover()
    assert fig.locator(".f13-note.sym-on").count() == 1
    fig.locator(".f13-key-situ").hover()
    assert page.locator("#kimi-k3 .math-block math [data-sym='situ-fn'].sym-on").count() >= 1


def test_no_accessibility_violations_at_load_and_in_chosen_states(watched, site_url):
    """axe at load and in three states the load does not show: a component's panel open (its text,
    stat and link; its layers marked on the map, the rest dimmed), the SiTU plot's tooltip, and
    SiTU lit from the equation (the readout and the key highlighted)."""
    page, _ = watched
    fig = open_k3(page, site_url)

    def plot_hover(p):
        box = fig.locator(".f13-plot .nsewdrag").bounding_box()
        p.mouse.move(box["x"] + box["width"] * 0.7, box["y"] + box["height"] / 2)

    assert_axe_clean_through(
        page,
        FIG,
        {
            "open gated-mla by click": lambda p: fig.locator(".f13-comp[data-id='gated-mla']").click(),
            "SiTU plot hover": plot_hover,
            "equation symbol hover": lambda p: p.locator(
                "#kimi-k3 .math-block math [data-sym='situ-fn']"
            ).first.hover(),
        },
    )


def test_layer_kinds_differ_by_more_than_hue(watched, site_url):
    """Blue and violet nearly merge for red–green colour blindness, so every MLA tile (and the
    Gated MLA legend swatch) also carries a bar across it that KDA tiles do not have."""
    page, _ = watched
    fig = open_figure(page, site_url, FIG)
    tiles = fig.locator(".f13-map rect.f13-mla").evaluate_all(
        "rs => rs.map(r => [+r.getAttribute('x'), +r.getAttribute('width')])"
    )
    marks = fig.locator(".f13-map rect.f13-mla-mark").evaluate_all(
        "rs => rs.map(r => [+r.getAttribute('x'), +r.getAttribute('width'), getComputedStyle(r).fill])"
    )
    assert [m[:2] for m in marks] == tiles
    paper = page.evaluate("() => getComputedStyle(document.body).backgroundColor")
    assert {m[2] for m in marks} == {paper}
    swatch = fig.locator(".f13-k-gated-mla .f13-swatch").evaluate("s => getComputedStyle(s).backgroundImage")
    assert "linear-gradient" in swatch
