"""FIG 01 · GPT-2 pipeline (one SVG) in the browser: every box, the open layer and the sum show the
shipped counts and texts; the ×12 block opens and closes in place by mouse and keyboard; the state
lives in the URL; equation terms and boxes light each other; the drawing is a row when wide and a
column on a phone. The shipped counts against gpt2_params, and every text against the counts, in
test_fig_01_data.py."""

import json

import pytest

from tests.browser.support import (
    assert_axe_clean_through,
    assert_shown_is_shipped,
    open_figure,
    shipped_data,
    shown_number,
)

pytestmark = pytest.mark.browser
FIG = "fig-01"


@pytest.fixture(scope="module")
def shipped(site_dir):
    return shipped_data(site_dir, FIG)


def shipped_box(shipped, box_id):
    return next(b for b in shipped["pipeline"] + shipped["layer"] if b["id"] == box_id)


def counts(locator):  # SVG text has no innerText; its textContent is what is drawn
    return [shown_number(t) for t in locator.all_text_contents()]


def box_counts(fig, box):
    return counts(fig.locator(f"[data-box='{box}'] .f01-part-count"))


def assert_box_shows(fig, shipped, box_id):
    """A box's counts as shipped (printed as shipped), and its shapes."""
    b = shipped_box(shipped, box_id)
    texts = fig.locator(f"[data-box='{box_id}'] .f01-part-count").all_text_contents()
    assert texts == [part["count_text"] for part in b["parts"]], box_id
    assert box_counts(fig, box_id) == [part["count"] for part in b["parts"]], box_id
    shapes = fig.locator(f"[data-box='{box_id}'] .f01-shapes").text_content()
    assert all(piece in shapes for piece in b["chain"]), (box_id, shapes)


def is_open(fig):
    return fig.locator(".f01-box-blocks").get_attribute("aria-expanded") == "true"


def placed(shipped) -> int:
    """How many texts the figure places with ctx.show before it narrates: each addend's count and
    label, the total's, the block's hint, and the share bar's labels on segments wide enough."""
    labelled_segments = sum(1 for a in shipped["addends"] if a["count"] and a["share"] > 0.08)
    return 2 * len(shipped["addends"]) + 2 + 1 + labelled_segments


def said(fig):
    return json.loads(fig.locator(".fig-live").get_attribute("data-shows"))


def test_counts_are_the_shipped_ones_and_add_up_to_the_total(watched, site_url, site_dir, shipped):
    page, _ = watched
    fig = open_figure(page, site_url, FIG)
    for box in ("tokens", "embed", "blocks", "ln_f", "lm_head", "logits"):
        assert_box_shows(fig, shipped, box)
    assert box_counts(fig, "lm_head") == box_counts(fig, "embed")[:1]  # tied: the head reuses wte, adds nothing
    for box in ("tokens", "logits"):
        assert fig.locator(f"[data-box='{box}'] .f01-none").text_content() == "no parameters"
    addends = counts(fig.locator(".f01-addend:not(.f01-total) .f01-addend-count"))
    assert addends == [a["count"] for a in shipped["addends"]]
    total = shown_number(fig.locator(".f01-total .f01-addend-count").inner_text())
    assert sum(addends) == total == shipped["total"]
    # the config badge states the padded-vocabulary variant the builder checked against the kernel
    assert f"{shipped['total_padded']:,}" in fig.locator(".f01-padded").inner_text()
    assert fig.locator(".f01-config .badge-source").count() == 2
    # each box states its shapes for the sequence length the figure shipped
    T, d = shipped["config"]["T"], shipped["config"]["n_embd"]
    assert f"out [{T}, {d}]" in fig.locator("[data-box='embed'] .f01-shapes").text_content()
    assert f"out [{T}, {shipped['config']['vocab']}]" in fig.locator("[data-box='lm_head'] .f01-shapes").text_content()
    assert fig.locator("svg.f01-svg > [data-box]").count() == 6  # the pipeline is drawn, not listed
    # a focusable row is named by its shipped name, count and shape
    rows = fig.locator("[data-box='embed'] .f01-part[tabindex]")
    assert [r.get_attribute("aria-label") for r in rows.all()] == [
        p["aria"] for p in shipped_box(shipped, "embed")["parts"]
    ]
    # the closed stack's heading and sentence, typeset in the SVG, are the shipped texts
    text = shipped["text"]
    assert fig.locator(".f01-layer-closed .f01-head").text_content() == text["stack_head"]
    assert fig.locator(".f01-stack-note").text_content() == text["stack_note"]
    assert fig.locator(".f01-open-hint").text_content() == text["hint_open"]
    assert assert_shown_is_shipped(page, site_dir, FIG) == placed(shipped)


def test_block_opens_and_closes_by_mouse_with_shipped_counts(watched, site_url, site_dir, shipped):
    page, _ = watched
    fig = open_figure(page, site_url, FIG)
    assert not is_open(fig) and fig.locator(".f01-layer-open").get_attribute("aria-hidden") == "true"
    assert fig.locator(".f01-stack").is_visible()
    fig.locator(".f01-box-blocks").click()
    assert is_open(fig) and fig.locator(".f01-layer-open").is_visible() and not fig.locator(".f01-stack").is_visible()
    assert fig.locator(".f01-box-blocks").get_attribute("aria-controls") == fig.locator(
        ".f01-layer-open"
    ).get_attribute("id")
    for box in ("ln_1", "attn", "add_1", "ln_2", "mlp", "add_2"):
        assert_box_shows(fig, shipped, box)
    assert fig.locator("[data-box='add_1'] .f01-none").count() == 1
    assert shown_number(fig.locator(".f01-block-total").text_content()) == shipped["block_total"]
    blocks = next(a["count"] for a in shipped["addends"] if a["id"] == "blocks")
    assert shown_number(fig.locator(".f01-blocks-total").text_content()) == blocks
    assert sum(sum(box_counts(fig, b)) for b in ("ln_1", "attn", "ln_2", "mlp")) == shipped["block_total"]
    s = shipped["layer_sum"]
    assert fig.locator(".f01-layer-sum").text_content() == "".join(
        [*s["terms"], s["equals"], s["block_total"], s["per_block"], s["times"], s["blocks_total"]]
    )
    assert fig.locator(".f01-layer-open .f01-head").text_content() == shipped["text"]["layer_head"]
    assert fig.locator(".f01-close").get_attribute("aria-label") == shipped["text"]["close_label"]
    heads = shipped["config"]["n_head"]
    assert (
        f"{heads} heads of {shipped['config']['d_head']}" in fig.locator("[data-box='attn'] .f01-title").text_content()
    )
    assert f"{shipped['block_total']:,}" in fig.locator(".fig-live").inner_text()
    assert (
        said(fig) == ["text", "said_open"]
        and fig.locator(".f01-open-hint").text_content() == shipped["text"]["hint_close"]
    )
    assert assert_shown_is_shipped(page, site_dir, FIG) == placed(shipped) + 1  # and the narration
    fig.locator(".f01-close").click()
    assert not is_open(fig) and not fig.locator(".f01-layer-open").is_visible()
    assert f"{blocks:,}" in fig.locator(".fig-live").inner_text()
    assert said(fig) == ["text", "said_closed"]
    assert assert_shown_is_shipped(page, site_dir, FIG) == placed(shipped) + 1
    fig.locator(".f01-stack").click()  # the drawn stack of layers opens one too
    assert is_open(fig)


def test_block_opens_and_closes_by_keyboard(watched, site_url):
    page, _ = watched
    fig = open_figure(page, site_url, FIG)
    button = fig.locator(".f01-box-blocks")
    button.focus()
    page.keyboard.press("Enter")
    assert is_open(fig)
    page.keyboard.press("Escape")
    assert not is_open(fig)
    assert page.evaluate("document.activeElement.classList.contains('f01-box-blocks')")
    page.keyboard.press("Space")
    assert is_open(fig)
    for _ in range(4):  # past the later boxes' counts, focus reaches the open layer's Close button
        page.keyboard.press("Tab")
        if page.evaluate("document.activeElement.classList.contains('f01-close')"):
            break
    assert page.evaluate("document.activeElement.classList.contains('f01-close')")
    page.keyboard.press("Enter")
    assert not is_open(fig)


def test_open_layer_lives_in_the_url_and_history(watched, site_url):
    page, _ = watched
    fig = open_figure(page, site_url, FIG, "#fig-01.layer=open")
    assert is_open(fig)
    fig.locator(".f01-close").click()
    assert "fig-01.layer" not in page.url
    page.go_back()
    page.wait_for_selector(f"#{FIG} .f01-box-blocks[aria-expanded='true']")
    page.go_forward()
    page.wait_for_selector(f"#{FIG} .f01-box-blocks[aria-expanded='false']")


def test_equation_terms_and_boxes_light_each_other(watched, site_url):
    page, _ = watched
    fig = open_figure(page, site_url, FIG)
    page.locator("#gpt2 .math-block math [data-sym='g2-wte']").first.hover()
    lit = fig.locator("[data-sym='g2-wte'].sym-on")
    assert lit.count() >= 3  # the wte row, the head that reuses it, and its term in the sum
    assert fig.locator(".f01-seg-wte.sym-on").count() == 1
    fig.locator(".f01-box-blocks").hover()
    assert page.locator("#gpt2 .math-block math [data-sym='g2-block'].sym-on").count() == 1
    page.mouse.move(0, 0)  # park the pointer on nothing, so focus decides
    fig.locator(".f01-addend[data-sym='g2-lnf']").focus()  # and by keyboard
    assert page.locator("#gpt2 .math-block math [data-sym='g2-lnf'].sym-on").count() == 1
    page.locator("#gpt2 .sym-chip[data-sym='g2-wpe']").focus()
    assert fig.locator("[data-box='embed'] [data-sym='g2-wpe'].sym-on").count() == 1


def _height(page, selector):
    return page.evaluate(f"document.querySelector({selector!r}).getBoundingClientRect().height")


def test_wide_row_holds_its_reserved_height_in_both_states(watched, site_url):
    page, _ = watched
    page.set_viewport_size({"width": 1280, "height": 900})
    fig = open_figure(page, site_url, FIG)
    reserved = page.evaluate(f"parseFloat(getComputedStyle(document.querySelector('#{FIG} .fig-stage')).minHeight)")
    closed = _height(page, f"#{FIG} .fig-mount")
    fig.locator(".f01-box-blocks").click()
    opened = _height(page, f"#{FIG} .fig-mount")
    assert closed <= reserved and opened <= reserved
    assert abs(opened - closed) < 1  # opening a layer does not move the page below
    boxes = fig.locator("svg.f01-svg > [data-box]")
    tops = {round(b.bounding_box()["y"]) for b in boxes.all()}
    assert len(tops) == 1  # one row


def test_toggling_the_layer_rewrites_only_what_it_changes(watched, site_url):
    """Both views are drawn once; a toggle flips which is shown, so no text is typeset again and
    (wide) the drawing's size is not rewritten: a new viewBox would re-lay out every text in it."""
    page, _ = watched
    page.set_viewport_size({"width": 1280, "height": 900})
    fig = open_figure(page, site_url, FIG)
    page.evaluate(f"""() => {{
      const svg = document.querySelector('#{FIG} svg.f01-svg');
      window.__f01 = {{ svg, texts: [...svg.querySelectorAll('text')], writes: [] }};
      new MutationObserver(rs => rs.forEach(r => window.__f01.writes.push(r.attributeName)))
        .observe(svg, {{ attributes: true, attributeFilter: ['height', 'viewBox', 'width'] }});
    }}""")
    fig.locator(".f01-box-blocks").click()
    assert is_open(fig)
    fig.locator(".f01-close").click()
    assert not is_open(fig)
    same = page.evaluate(f"""() => {{
      const svg = document.querySelector('#{FIG} svg.f01-svg'), texts = [...svg.querySelectorAll('text')];
      return [svg === window.__f01.svg, texts.length === window.__f01.texts.length &&
        texts.every((t, i) => t === window.__f01.texts[i]), window.__f01.writes];
    }}""")
    assert same == [True, True, []]


def test_phone_column_opens_the_layer_in_place(watched, site_url):
    page, _ = watched
    page.set_viewport_size({"width": 390, "height": 900})
    fig = open_figure(page, site_url, FIG)
    reserved = page.evaluate(f"parseFloat(getComputedStyle(document.querySelector('#{FIG} .fig-stage')).minHeight)")
    assert _height(page, f"#{FIG} .fig-mount") <= reserved
    svg = fig.locator("svg.f01-svg").bounding_box()
    assert svg["x"] >= 0 and svg["x"] + svg["width"] <= 390  # nothing runs off the screen
    fig.locator(".f01-box-blocks").click()
    block = fig.locator(".f01-box-blocks").bounding_box()
    layer = fig.locator(".f01-layer-open").bounding_box()
    ln_f = fig.locator("[data-box='ln_f']").bounding_box()
    assert block["y"] < layer["y"] < ln_f["y"]  # the layer opens between the block and what follows it
    for box in ("ln_1", "attn", "add_1", "ln_2", "mlp", "add_2"):  # a column: every box right of the stream
        b = fig.locator(f"[data-box='{box}']").bounding_box()
        assert b["x"] > layer["x"] and b["x"] + b["width"] <= svg["x"] + svg["width"] + 1


def test_no_accessibility_violations_at_load_and_in_chosen_states(watched, site_url):
    """axe at load and in four states the load does not show: the ×12 block opened by key (its
    focus ring, the open layer), symbols lit from the equation, focus on the layer's Close button,
    and the open layer in the phone column."""
    page, _ = watched
    fig = open_figure(page, site_url, FIG)
    blocks = fig.locator(".f01-box-blocks")

    def open_by_key(p):
        blocks.focus()
        p.keyboard.press("Enter")

    def phone(p):
        p.set_viewport_size({"width": 390, "height": 900})
        fig.scroll_into_view_if_needed()

    assert_axe_clean_through(
        page,
        FIG,
        {
            "the block opened by key": open_by_key,
            "an equation term lighting the figure": lambda p: p.locator(
                "#gpt2 .math-block math [data-sym='g2-wte']"
            ).first.hover(),
            "focus on Close": lambda p: fig.locator(".f01-close").focus(),
            "the phone column, open": phone,
        },
    )


def test_share_legend_names_every_part_with_its_share_of_the_total(watched, site_url, shipped):
    """Under the share bar, every part that holds parameters with its shipped share (the shares as
    printed are read against the counts in test_fig_01_data.py); the bar says the same."""
    page, _ = watched
    fig = open_figure(page, site_url, FIG)
    holding = [a for a in shipped["addends"] if a["count"]]
    items = [t.strip() for t in fig.locator(".f01-share .k3-legend-item").all_text_contents()]
    assert items == [a["legend_text"] for a in holding]
    assert items[-1].endswith("< 0.01%")  # ln_f: 1,536 of ~124 M
    assert fig.locator(".f01-bar").get_attribute("aria-label") == shipped["text"]["share_label"]
    titles = fig.locator(".f01-bar .f01-seg").evaluate_all("segs => segs.map(s => s.title)")
    assert titles == [a["title_text"] for a in holding]
