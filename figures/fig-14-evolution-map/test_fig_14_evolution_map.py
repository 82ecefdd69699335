"""FIG 14 · evolution map: every node expands, collapses, shows its year from the facts and links to
an existing section; the wall filter marks its steps; what is shown (titles, dates, the narration)
is what was shipped, whose sentences test_fig_14_data.py reads against the nodes."""

import pytest
import yaml

from tests.browser.support import ROOT, assert_axe_clean_through, assert_shown_is_shipped, open_figure, shipped_data

pytestmark = pytest.mark.browser
FIG = "fig-14"


@pytest.fixture(scope="module")
def spec_nodes():
    return yaml.safe_load((ROOT / "figures" / "fig-14-evolution-map" / "figure.yaml").read_text(encoding="utf-8"))[
        "params"
    ]["nodes"]


def items(fig):
    return fig.locator(".k3-disc-item")


def test_every_node_expands_links_to_its_section_and_collapses(watched, site_url, site_dir, spec_nodes):
    page, _ = watched
    fig = open_figure(page, site_url, FIG)
    shipped = shipped_data(site_dir, FIG)["nodes"]
    assert items(fig).count() == len(spec_nodes) == len(shipped)
    assert fig.locator(".f14-year").all_text_contents() == [str(n["year"]) for n in shipped]  # the overview
    for i, node in enumerate(spec_nodes):
        item = items(fig).nth(i)
        btn = item.locator(".k3-disc-btn")
        assert node["title"] in btn.inner_text()
        assert btn.locator(".f14-year-chip").text_content() == f", {shipped[i]['year']}"  # ", " is read out only
        assert btn.get_attribute("aria-expanded") == "false" and not item.locator(".k3-disc-body").is_visible()
        btn.click()
        assert btn.get_attribute("aria-expanded") == "true"
        body = item.locator(".k3-disc-body")
        assert body.is_visible()
        assert [t.strip() for t in body.locator("dt").all_text_contents()] == ["Wall", "Fix", "Price"]
        assert body.locator(".f14-when").inner_text() == f"{shipped[i]['year']} \u00b7 {node['dated']}"
        assert all(len(t.strip()) > 10 for t in body.locator("dd").all_inner_texts())
        link = body.locator(".f14-link a")
        assert link.get_attribute("href") == "#" + node["section"]
        target = page.evaluate(
            "id => { const s = document.getElementById(id); return s && s.matches('section.section') "
            "? s.querySelector('h2').textContent.trim() : null; }",
            node["section"],
        )
        assert target is not None and target in link.inner_text()
        live = fig.locator(".fig-live")
        assert (
            f"Step {i + 1} of {len(spec_nodes)}, {node['title']}, {shipped[i]['year']}, expanded" in live.inner_text()
        )
        assert live.get_attribute("data-slots") == f'{{"step":["nodes",{i},"said_expanded"],"open":["open_text",1]}}'
        # the dots' titles, the date lines and the narration: 2 per node and one
        assert assert_shown_is_shipped(page, site_dir, FIG) == 2 * len(spec_nodes) + 1
        btn.click()
        assert btn.get_attribute("aria-expanded") == "false" and not body.is_visible()
        assert live.get_attribute("data-slots") == f'{{"step":["nodes",{i},"said_collapsed"],"open":["open_text",0]}}'
        assert_shown_is_shipped(page, site_dir, FIG)


def test_keyboard_moves_along_the_chain_and_toggles(watched, site_url, spec_nodes):
    page, _ = watched
    fig = open_figure(page, site_url, FIG)
    fig.locator(".k3-disc-btn").first.focus()
    page.keyboard.press("ArrowDown")
    page.keyboard.press("ArrowDown")
    assert page.evaluate("document.activeElement.dataset.id") == spec_nodes[2]["id"]
    page.keyboard.press("Enter")
    assert items(fig).nth(2).locator(".k3-disc-btn").get_attribute("aria-expanded") == "true"
    page.keyboard.press("End")
    assert page.evaluate("document.activeElement.dataset.id") == spec_nodes[-1]["id"]
    page.keyboard.press(" ")
    assert items(fig).nth(len(spec_nodes) - 1).locator(".k3-disc-btn").get_attribute("aria-expanded") == "true"
    page.keyboard.press("Home")
    page.keyboard.press("Enter")
    assert fig.locator(".k3-disc-btn[aria-expanded=true]").count() == 3
    page.keyboard.press("Enter")
    assert fig.locator(".k3-disc-btn[aria-expanded=true]").count() == 2


def test_overview_dots_open_nodes_and_links_jump(watched, site_url, spec_nodes):
    page, _ = watched
    fig = open_figure(page, site_url, FIG)
    fig.locator(".f14-dot").nth(4).click()
    assert items(fig).nth(4).locator(".k3-disc-btn").get_attribute("aria-expanded") == "true"
    assert fig.locator(".f14-dot.is-open").count() == 1
    items(fig).nth(4).locator(".f14-link a").click()
    page.wait_for_function("id => location.hash.startsWith('#' + id)", arg=spec_nodes[4]["section"])


def test_wall_filter_marks_the_steps_of_one_wall(watched, site_url, site_dir, spec_nodes):
    page, _ = watched
    fig = open_figure(page, site_url, FIG)
    memory = [i for i, n in enumerate(spec_nodes) if n["wall"].lower().startswith("memory:")]
    btn = fig.get_by_role("radio", name=f"Memory: {len(memory)} steps")
    btn.click()
    last = len(spec_nodes) - 1  # K3 gathers all four walls and stays marked
    dim = [i for i in range(len(spec_nodes)) if "is-dim" in (items(fig).nth(i).get_attribute("class") or "")]
    assert dim == [i for i in range(len(spec_nodes)) if i not in memory and i != last]
    assert f"{len(memory)} of {len(spec_nodes)} steps" in fig.locator(".fig-live").inner_text()
    assert fig.locator(".fig-live").get_attribute("data-shows") == '["walls",1,"said"]'
    assert_shown_is_shipped(page, site_dir, FIG)
    page.keyboard.press("ArrowRight")  # next wall: capacity
    capacity = [i for i, n in enumerate(spec_nodes) if n["wall"].lower().startswith("capacity:")]
    assert fig.locator(".k3-disc-item:not(.is-dim)").count() == len(capacity) + 1
    assert "fig-14.wall=capacity" in page.url


def test_state_lives_in_the_url_and_history(watched, site_url, site_dir, spec_nodes):
    page, _ = watched
    ids = [n["id"] for n in spec_nodes]
    fig = open_figure(page, site_url, FIG, f"#fig-14.open={ids[1]},{ids[5]}&fig-14.wall=memory")
    assert [b.get_attribute("data-id") for b in fig.locator(".k3-disc-btn[aria-expanded=true]").all()] == [
        ids[1],
        ids[5],
    ]
    assert fig.locator("[role=radio][aria-checked=true]").get_attribute("data-value") == "memory"
    items(fig).nth(7).locator(".k3-disc-btn").click()
    assert f"fig-14.open={ids[1]}%2C{ids[5]}%2C{ids[7]}" in page.url or f"open={ids[1]},{ids[5]},{ids[7]}" in page.url
    page.go_back()
    page.wait_for_function("() => document.querySelectorAll('#fig-14 .k3-disc-btn[aria-expanded=true]').length === 2")
    fig.get_by_role("button", name="Expand all").click()
    assert fig.locator(".k3-disc-btn[aria-expanded=true]").count() == len(ids)
    assert fig.locator(".fig-live").get_attribute("data-shows") == f'["open_steps_text",{len(ids)}]'
    fig.get_by_role("button", name="Collapse all").click()
    assert fig.locator(".k3-disc-btn[aria-expanded=true]").count() == 0
    assert fig.locator(".fig-live").get_attribute("data-shows") == '["open_steps_text",0]'
    assert_shown_is_shipped(page, site_dir, FIG)


def test_the_order_note_and_the_kv_cache_wall(watched, site_url, site_dir):
    page, _ = watched
    fig = open_figure(page, site_url, FIG)
    data = shipped_data(site_dir, FIG)
    assert "not the order in which the ideas appeared" in fig.locator(".f14-note").inner_text()
    kv = [n["id"] for n in data["nodes"]].index("kv-cache")
    assert items(fig).nth(kv).locator(".f14-chip").inner_text().endswith("Recomputation")
    assert fig.locator(".f14-dot").nth(kv).locator(".f14-wall-tag").text_content() == "Recompute"
    # the four wall buttons, each with its count from the data; recomputation is not one of them
    labels = [r.inner_text() for r in fig.locator("[role=radio]").all()][1:]
    assert labels == [f"{w['label']} ({w['count']})" for w in data["walls"]] == [w["option"] for w in data["walls"]]
    names = [r.get_attribute("aria-label") for r in fig.locator("[role=radio]").all()][1:]
    assert names == [w["option_label"] for w in data["walls"]]
    assert fig.locator("[role=radiogroup]").get_attribute("aria-label") == data["text"]["filter_label"]
    fig.get_by_role("radio", name=f"Coupling: {data['walls'][0]['count']} steps").click()
    assert "is-dim" in (items(fig).nth(kv).get_attribute("class") or "")


def test_no_accessibility_violations_at_load_and_in_chosen_states(watched, site_url):
    """axe at load and in three states the load does not show: every node expanded (their bodies,
    the dots marked open), one wall marked (the other steps dimmed), and a node hovered then (its
    dot ringed)."""
    page, _ = watched
    fig = open_figure(page, site_url, FIG)
    assert_axe_clean_through(
        page,
        FIG,
        {
            "expanding all": lambda p: fig.get_by_role("button", name="Expand all").click(),
            "marking one wall": lambda p: fig.locator("[role=radio]").nth(2).click(),
            "hovering a node": lambda p: items(fig).nth(4).hover(),
        },
    )


def test_overview_dots_are_big_enough_to_tap_on_a_phone(watched, site_url, spec_nodes):
    """Each dot takes taps across its whole column of the overview: at 390 px that area is at least
    24 × 24 px (the dot itself is about 13 px), and a tap near its edge opens that dot's step."""
    page, _ = watched
    page.set_viewport_size({"width": 390, "height": 844})
    fig = open_figure(page, site_url, FIG)
    boxes = fig.locator(".f14-dot .f14-hit").evaluate_all(
        "els => els.map(e => { const r = e.getBoundingClientRect(); return [r.left, r.width, r.height, r.top]; })"
    )
    assert len(boxes) == len(spec_nodes)
    assert all(w >= 24 and h >= 24 for _, w, h, _ in boxes), boxes
    assert all(boxes[i][0] + boxes[i][1] <= boxes[i + 1][0] + 0.5 for i in range(len(boxes) - 1))  # no overlap
    left, w, h, top = boxes[4]
    page.mouse.click(left + w - 2, top + h - 3)  # the far corner of the fifth dot's target
    assert items(fig).nth(4).locator(".k3-disc-btn").get_attribute("aria-expanded") == "true"
