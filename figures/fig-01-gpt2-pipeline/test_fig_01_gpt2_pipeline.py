"""FIG 01 · GPT-2 pipeline (one SVG): counts equal gpt2_params and add up; the ×12 block opens and
closes in place by mouse and keyboard; the state lives in the URL; equation terms and boxes light
each other; the drawing is a row when wide and a column on a phone."""

import pytest

from k3project.experiments import gpt2_params
from tests.browser.support import assert_axe_clean_through, open_figure, shipped_data, shown_number

pytestmark = pytest.mark.browser
FIG = "fig-01"


@pytest.fixture(scope="module")
def kernel(site_dir):
    cfg = shipped_data(site_dir, FIG)["config"]
    kw = dict(n_ctx=cfg["n_ctx"], n_embd=cfg["n_embd"], n_layer=cfg["n_layer"], mlp_ratio=cfg["d_ff"] // cfg["n_embd"])
    return {
        "p": gpt2_params(vocab_size=cfg["vocab"], **kw),
        "padded": gpt2_params(vocab_size=cfg["vocab_padded"], **kw),
        "cfg": cfg,
    }


def counts(locator):  # SVG text has no innerText; its textContent is what is drawn
    return [shown_number(t) for t in locator.all_text_contents()]


def box_counts(fig, box):
    return counts(fig.locator(f"[data-box='{box}'] .f01-part-count"))


def is_open(fig):
    return fig.locator(".f01-box-blocks").get_attribute("aria-expanded") == "true"


def test_counts_equal_the_kernel_and_add_up_to_the_total(watched, site_url, kernel):
    page, _ = watched
    fig = open_figure(page, site_url, FIG)
    p = kernel["p"]
    assert box_counts(fig, "embed") == [p["wte"], p["wpe"]]
    assert box_counts(fig, "blocks") == [p["block"], p["blocks"]]
    assert box_counts(fig, "ln_f") == [p["ln_f"]]
    assert box_counts(fig, "lm_head") == [p["wte"]]  # tied: the head reuses wte, adds nothing
    for box in ("tokens", "logits"):
        assert fig.locator(f"[data-box='{box}'] .f01-none").text_content() == "no parameters"
    addends = counts(fig.locator(".f01-addend:not(.f01-total) .f01-addend-count"))
    assert addends == [p["wte"], p["wpe"], p["blocks"], p["ln_f"], p["lm_head"]]
    total = shown_number(fig.locator(".f01-total .f01-addend-count").inner_text())
    assert sum(addends) == total == p["total"]
    # the config badge states the padded-vocabulary variant, which the kernel reproduces
    assert f"{kernel['padded']['total']:,}" in fig.locator(".f01-padded").inner_text()
    assert fig.locator(".f01-config .badge-source").count() == 2
    # each box states its shapes for the sequence length the figure shipped
    T, d = kernel["cfg"]["T"], kernel["cfg"]["n_embd"]
    assert f"out [{T}, {d}]" in fig.locator("[data-box='embed'] .f01-shapes").text_content()
    assert f"out [{T}, {kernel['cfg']['vocab']}]" in fig.locator("[data-box='lm_head'] .f01-shapes").text_content()
    assert fig.locator("svg.f01-svg > [data-box]").count() == 6  # the pipeline is drawn, not listed


def test_block_opens_and_closes_by_mouse_with_kernel_counts(watched, site_url, kernel):
    page, _ = watched
    fig = open_figure(page, site_url, FIG)
    p = kernel["p"]
    assert not is_open(fig) and fig.locator(".f01-layer-open").get_attribute("aria-hidden") == "true"
    assert fig.locator(".f01-stack").is_visible()
    fig.locator(".f01-box-blocks").click()
    assert is_open(fig) and fig.locator(".f01-layer-open").is_visible() and not fig.locator(".f01-stack").is_visible()
    assert fig.locator(".f01-box-blocks").get_attribute("aria-controls") == fig.locator(
        ".f01-layer-open"
    ).get_attribute("id")
    assert box_counts(fig, "ln_1") == [p["ln_1"]]
    assert box_counts(fig, "attn") == [p["c_attn"], p["attn_c_proj"]]
    assert box_counts(fig, "ln_2") == [p["ln_2"]]
    assert box_counts(fig, "mlp") == [p["c_fc"], p["mlp_c_proj"]]
    assert fig.locator("[data-box='add_1'] .f01-none").count() == 1
    assert shown_number(fig.locator(".f01-block-total").text_content()) == p["block"]
    assert shown_number(fig.locator(".f01-blocks-total").text_content()) == p["blocks"]
    assert sum(sum(box_counts(fig, b)) for b in ("ln_1", "attn", "ln_2", "mlp")) == p["block"]
    heads = kernel["cfg"]["n_head"]
    assert f"{heads} heads of {kernel['cfg']['d_head']}" in fig.locator("[data-box='attn'] .f01-title").text_content()
    assert f"{p['block']:,}" in fig.locator(".fig-live").inner_text()
    fig.locator(".f01-close").click()
    assert not is_open(fig) and not fig.locator(".f01-layer-open").is_visible()
    assert f"{p['blocks']:,}" in fig.locator(".fig-live").inner_text()
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


def test_no_accessibility_violations_through_every_interaction(watched, site_url):
    """axe at load and after each kind of interaction: hover and keyboard focus on the ×12 block,
    opening it by key, lighting symbols from the equation and from the figure, focus on Close,
    closing by Escape, opening from the drawn stack, and the phone column."""
    page, _ = watched
    fig = open_figure(page, site_url, FIG)
    blocks = fig.locator(".f01-box-blocks")

    def open_by_key(p):
        blocks.focus()
        p.keyboard.press("Enter")

    def close_by_escape(p):
        fig.locator(".f01-close").focus()
        p.keyboard.press("Escape")

    def phone(p):
        p.set_viewport_size({"width": 390, "height": 900})
        fig.scroll_into_view_if_needed()
        fig.locator(".f01-box-blocks").click()

    assert_axe_clean_through(
        page,
        FIG,
        {
            "hovering the block": lambda p: blocks.hover(),
            "focusing the block": lambda p: blocks.focus(),
            "opening the block by key": open_by_key,
            "hovering an equation term": lambda p: p.locator(
                "#gpt2 .math-block math [data-sym='g2-wte']"
            ).first.hover(),
            "focusing an addend": lambda p: fig.locator(".f01-addend[data-sym='g2-lnf']").focus(),
            "hovering Close": lambda p: fig.locator(".f01-close").hover(),
            "closing by Escape": close_by_escape,
            "opening from the stack": lambda p: fig.locator(".f01-stack").click(),
            "the phone column, open": phone,
        },
    )


def test_share_legend_names_every_part_with_its_share_of_the_total(watched, site_url, kernel):
    """Under the share bar, every part that holds parameters, with count ÷ total as printed (one
    decimal, two below 1 %); a part too small to show in two decimals reads "< 0.01%", not 0.00%."""
    page, _ = watched
    fig = open_figure(page, site_url, FIG)
    p = kernel["p"]
    parts = {
        "token embedding wte": p["wte"],
        "position embedding wpe": p["wpe"],
        "12 blocks": p["blocks"],
        "final LayerNorm": p["ln_f"],
    }
    items = fig.locator(".f01-share .k3-legend-item").all_text_contents()
    assert [next(k for k in parts if t.startswith(k)) for t in items] == list(parts)
    for text, count in zip(items, parts.values(), strict=True):
        share = count / p["total"]
        want = "< 0.01%" if share < 0.00005 else f"{100 * share:.{2 if share < 0.01 else 1}f}%"
        assert text.endswith(" " + want), (text, want)
    assert items[-1].endswith("< 0.01%")  # ln_f: 1,536 of ~124 M
