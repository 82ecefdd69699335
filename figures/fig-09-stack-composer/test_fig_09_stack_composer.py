"""FIG 09 · layer stack composer in the browser: toggles, presets, sizes, layer count and context,
checked against what was shipped (the per-layer values, summed over the layout drawn, and the
texts). The shipped values against the kernels, and every sentence against the numbers, are
checked in test_fig_09_data.py."""

import numpy as np
import pytest

from k3explainer.site.readertext import fill
from tests.browser.support import (
    assert_axe_clean_through,
    assert_shown_is_shipped,
    open_figure,
    shipped_data,
    shown_number,
)

pytestmark = pytest.mark.browser
FIG = "fig-09"


@pytest.fixture(scope="module")
def data(site_dir):
    return shipped_data(site_dir, FIG)


def sizes_of(data, name):
    return data["constants"][name]


def shipped_per_layer(c, contexts, layout, N):
    """Each layer's shipped decode memory for `layout` at context N with the sizes c."""
    i = contexts.index(N)
    return np.array([c["mla_per_layer"][i] if k == "mla" else c["kda_per_layer"] for k in layout])


def shipped_total(c, contexts, layout, N):
    return int(shipped_per_layer(c, contexts, layout, N).sum())


def pattern(data, n):
    """The first n layers of the shipped 3:1 pattern (new layers follow it)."""
    return data["pattern"][:n]


def shown_layout(fig):
    return fig.locator(".f09-layer").evaluate_all("bs => bs.map(b => b.dataset.kind)")


def shown_total(fig):
    return int(shown_number(fig.locator("[data-total]").inner_text()))


def shown_part(fig, kind):
    return int(shown_number(fig.locator(f"[data-part='{kind}']").inner_text()))


def shown_context(fig):
    return int(shown_number(fig.locator(".k3-slider output").inner_text().replace("tokens", "")))


def shown_sizes(fig):
    return fig.locator(".f09-sizes").get_attribute("data-sizes")


def bar_values(page):
    return page.eval_on_selector_all(f"#{FIG} .f09-barv", "bs => bs.map(b => +b.dataset.value)")


def y_range(page):
    """The chart's log10 scale, bottom and top, as drawn."""
    return page.eval_on_selector(f"#{FIG} .f09-plot", "p => [+p.dataset.lo, +p.dataset.hi]")


def y_title(fig):
    return fig.locator(".f09-ytitle").inner_text()


def bar_top(page, i):
    """Bar i's top on screen, px, once its height has settled (bars move with a short transition)."""
    page.wait_for_function(f"() => !document.querySelector('#{FIG}').getAnimations({{subtree: true}}).length")
    return page.eval_on_selector_all(f"#{FIG} .f09-barv", f"bs => bs.at({i}).getBoundingClientRect().top")


def assert_consistent(page, fig, data, site_dir):
    """Total, its MLA and KDA parts, split, bars and y-axis all equal the sums of the shipped
    per-layer values for what the figure shows, and its texts are the shipped ones."""
    sizes = shown_sizes(fig)
    layout, N, c = shown_layout(fig), shown_context(fig), sizes_of(data, sizes)
    per_layer = shipped_per_layer(c, data["contexts"], layout, N)
    assert shown_total(fig) == int(per_layer.sum())
    mla_part = int(per_layer[[k == "mla" for k in layout]].sum())
    assert (shown_part(fig, "mla"), shown_part(fig, "kda")) == (mla_part, int(per_layer.sum()) - mla_part)
    assert bar_values(page) == per_layer.tolist()
    # one log axis per size set, spanning every context length's per-layer value: fixed while N moves
    every = [*c["mla_per_layer"], c["kda_per_layer"]]
    k_lo, k_hi = np.log10(min(every)), np.log10(max(every))
    lo, hi = y_range(page)
    assert [lo, hi] == pytest.approx([np.floor(k_lo) - 0.05, k_hi + 0.15])
    # log scale: each bar's height is its value's place between the ends in log10, and the grid
    # lines are the decades inside, labelled as powers of ten
    heights = page.eval_on_selector_all(f"#{FIG} .f09-barv", "bs => bs.map(b => parseFloat(b.style.height))")
    assert heights == pytest.approx([100 * (np.log10(y) - lo) / (hi - lo) for y in per_layer], abs=1e-3)
    decades = [int(d) for d in range(int(np.ceil(lo)), int(np.floor(hi)) + 1)]
    labels = fig.locator(".f09-ylabel").all_inner_texts()
    assert labels == ["10" + "".join("⁰¹²³⁴⁵⁶⁷⁸⁹"[int(c)] for c in str(d)) for d in decades]
    # the share bar: each kind's part of the total, on the 0–100 % scale printed under it
    widths = [float(fig.locator(f".f09-bar-{k}").evaluate("e => parseFloat(e.style.width)")) for k in ("mla", "kda")]
    total = int(per_layer.sum())
    assert widths == pytest.approx([100 * mla_part / total, 100 * (total - mla_part) / total], abs=1e-3)
    assert fig.locator(".f09-ticks").inner_text().split() == ["0", "%", "50", "%", "100", "%"]
    split = fig.locator(".f09-split").inner_text()
    i = data["contexts"].index(N)
    assert f"{layout.count('mla')} MLA × {c['mla_per_layer'][i]:,}" in split
    assert f"{layout.count('kda')} KDA × {c['kda_per_layer']:,}" in split
    # the split line and the chart's label and title: the shipped templates, filled for this state
    per = {
        "mla": ["constants", sizes, "text", "mla_per_layer", i],
        "kda": ["constants", sizes, "text", "kda_per_layer"],
    }
    counts = {"m": ["text", "numbers", layout.count("mla")], "k": ["text", "numbers", layout.count("kda")]}
    tail = fill(data, ["text", "split_tail"], {"n": ["text", "n", i], "sizes": ["constants", sizes, "text", "sizes"]})
    assert split == f"{fill(data, ['text', 'split_head'], {**counts, **per})}{mla_part:,} + {total - mla_part:,}{tail}"
    label = fill(data, ["constants", sizes, "text", "chart_label"], {"n": ["text", "n", i], **per})
    assert fig.locator(".f09-plot").get_attribute("aria-label") == label
    assert y_title(fig) == c["text"]["y_title"]
    assert assert_shown_is_shipped(page, site_dir, FIG) >= 1  # the share bar's title (and the toy sizes line)


def test_starts_in_the_3_to_1_pattern_with_toy_sizes_and_shipped_numbers(watched, site_url, site_dir, data):
    page, _ = watched
    fig = open_figure(page, site_url, FIG)
    assert shown_layout(fig) == pattern(data, data["n_layers"])
    assert shown_context(fig) == data["n_default"] == 8192
    assert shown_sizes(fig) == "toy"
    assert_consistent(page, fig, data, site_dir)
    assert fig.locator("[data-preset='3:1']").get_attribute("aria-pressed") == "true"
    toy = sizes_of(data, "toy")
    line = fig.locator(".f09-sizes")
    assert line.locator(".badge-illustrative").inner_text().strip().lower() == "illustrative"
    assert line.locator(".badge-source").count() == 0
    assert f"{toy['heads']} head × {toy['d_h']}² = {toy['kda_per_layer']:,} elements per KDA layer" in line.inner_text()
    assert f"beyond {round(toy['crossover']):,} tokens" in line.inner_text()
    assert "toy sizes" in y_title(fig)


def test_k3_preset_shows_k3_sizes_crossover_and_totals(watched, site_url, data, site_dir):
    page, _ = watched
    fig = open_figure(page, site_url, FIG)
    fig.locator("[data-preset='K3']").click()
    k3, layout, N = sizes_of(data, "k3"), data["k3_layout"], shown_context(fig)
    assert shown_sizes(fig) == "k3" and N == 8192 and shown_layout(fig) == layout
    assert_consistent(page, fig, data, site_dir)
    # whole-model totals at 8,192 tokens: 24 × 576 × 8,192 MLA against 69 × 96 × 128² KDA, nearly equal
    assert (shown_part(fig, "mla"), shown_part(fig, "kda")) == (24 * 576 * 8192, 69 * 96 * 128**2)
    assert abs(shown_part(fig, "mla") - shown_part(fig, "kda")) <= 0.05 * shown_part(fig, "mla")
    # the sizes line: SOURCE-badged facts, equal to the data the bars were drawn from
    line = fig.locator(".f09-sizes")
    assert line.locator(".badge-illustrative").count() == 0
    values = [int(shown_number(t)) for t in line.locator(".fact-value").all_inner_texts()]
    assert values == [k3["kda_per_layer"], k3["mla_per_token"], round(k3["crossover"], -1)] == [1572864, 576, 2730]
    assert line.locator(".badge-source").count() == 3
    assert "K3's sizes" in y_title(fig)
    assert "93 layers" in fig.locator(".f09-note").inner_text()
    assert "K3's sizes" in fig.locator(".fig-live").inner_text()
    # the per-layer crossover lies between the slider's 2,048 and 4,096 stops
    slider = fig.locator(".k3-slider input")
    slider.focus()
    page.keyboard.press("ArrowLeft")
    page.keyboard.press("ArrowLeft")
    assert shown_context(fig) == 2048
    assert bar_values(page)[3] < bar_values(page)[0]  # layer 4 (MLA) below layer 1 (KDA)
    page.keyboard.press("ArrowRight")
    assert shown_context(fig) == 4096
    assert bar_values(page)[3] > bar_values(page)[0]
    assert_consistent(page, fig, data, site_dir)
    # back to a toy preset: toy sizes again, with the current layer count
    fig.locator("[data-preset='3:1']").click()
    assert shown_sizes(fig) == "toy" and shown_layout(fig) == pattern(data, len(layout))
    assert fig.locator("[data-preset='K3']").get_attribute("aria-pressed") == "false"
    assert_consistent(page, fig, data, site_dir)


def test_toggling_a_layer_changes_the_total_by_its_shipped_value(watched, site_url, site_dir, data):
    page, _ = watched
    fig = open_figure(page, site_url, FIG)
    N, toy = shown_context(fig), sizes_of(data, "toy")
    step = toy["mla_per_layer"][data["contexts"].index(N)] - toy["kda_per_layer"]
    before = shown_total(fig)
    fig.locator(".f09-layer[data-layer='1']").click()  # KDA → MLA by mouse
    assert shown_layout(fig)[0] == "mla"
    assert shown_total(fig) == before + step
    # the narration: the shipped template, filled for this state, with the total the figure summed
    i, layout = data["contexts"].index(N), shown_layout(fig)
    said = fill(
        data,
        ["text", "said", "toggle"],
        {
            "i": ["text", "numbers", 1],
            "kind": ["text", "kinds", "mla"],
            "delta": ["constants", "toy", "text", "delta", "mla", i],
            "n": ["text", "n", i],
            "m": ["text", "numbers", layout.count("mla")],
            "k": ["text", "numbers", layout.count("kda")],
        },
    )
    assert fig.locator(".fig-live").inner_text() == said.replace("{=total}", f"{before + step:,}")
    # keyboard: ↑ moves to layer 2, Enter toggles it, Space toggles it back
    page.keyboard.press("ArrowUp")
    assert page.evaluate("() => document.activeElement.dataset.layer") == "2"
    page.keyboard.press("Enter")
    assert shown_layout(fig)[1] == "mla" and shown_total(fig) == before + 2 * step
    page.keyboard.press(" ")
    assert shown_layout(fig)[1] == "kda" and shown_total(fig) == before + step
    page.keyboard.press("ArrowDown")
    page.keyboard.press("Enter")
    assert shown_total(fig) == before
    assert_consistent(page, fig, data, site_dir)
    assert fig.locator("[data-preset='3:1']").get_attribute("aria-pressed") == "true"


def test_toggling_under_k3_sizes_keeps_them(watched, site_url, site_dir, data):
    page, _ = watched
    fig = open_figure(page, site_url, FIG)
    fig.locator("[data-preset='K3']").click()
    k3, N = sizes_of(data, "k3"), shown_context(fig)
    before = shown_total(fig)
    fig.locator(".f09-layer[data-layer='5']").click()  # a KDA layer becomes MLA
    assert shown_sizes(fig) == "k3"
    assert shown_total(fig) == before + k3["mla_per_layer"][data["contexts"].index(N)] - k3["kda_per_layer"]
    assert fig.locator("[data-preset='K3']").get_attribute("aria-pressed") == "false"
    assert_consistent(page, fig, data, site_dir)


def test_presets_give_the_shipped_totals(watched, site_url, site_dir, data):
    page, _ = watched
    fig = open_figure(page, site_url, FIG)
    N, n = shown_context(fig), data["n_layers"]
    expected = {
        "all-MLA": (["mla"] * n, "toy"),
        "all-KDA": (["kda"] * n, "toy"),
        "3:1": (pattern(data, n), "toy"),
        "K3": (data["k3_layout"], "k3"),  # hybrid_layout(93, final_full=True): test_fig_09_data.py
    }
    for name, (layout, sizes) in expected.items():
        fig.locator(f"[data-preset='{name}']").click()
        assert shown_layout(fig) == layout and shown_sizes(fig) == sizes
        total = shipped_total(sizes_of(data, sizes), data["contexts"], layout, N)
        assert shown_total(fig) == total
        assert fig.locator(f"[data-preset='{name}']").get_attribute("aria-pressed") == "true"
        assert f"{total:,}" in fig.locator(".fig-live").inner_text()
        assert_consistent(page, fig, data, site_dir)
    assert (shown_layout(fig).count("kda"), shown_layout(fig).count("mla")) == (69, 24)


def test_context_slider_and_layer_count(watched, site_url, site_dir, data):
    page, _ = watched
    fig = open_figure(page, site_url, FIG)
    slider = fig.locator(".k3-slider input")
    slider.focus()
    page.keyboard.press("ArrowRight")
    assert shown_context(fig) == 16384
    assert_consistent(page, fig, data, site_dir)
    page.keyboard.press("Home")
    assert shown_context(fig) == data["contexts"][0]
    assert_consistent(page, fig, data, site_dir)  # at N = 16 a toy KDA state outweighs a toy MLA cache
    toy = sizes_of(data, "toy")
    assert toy["mla_per_layer"][0] < toy["kda_per_layer"] and data["contexts"][0] == 16
    assert bar_values(page)[3] < bar_values(page)[0]
    fig.locator(".k3-stepper [aria-label='Next step']").click()  # 13 layers: the new one follows 3:1
    assert shown_layout(fig) == pattern(data, 13)
    fig.locator(".k3-stepper").focus()
    page.keyboard.press("ArrowLeft")
    page.keyboard.press("ArrowLeft")
    assert len(shown_layout(fig)) == 11
    assert_consistent(page, fig, data, site_dir)
    assert "11 layers" in fig.locator(".fig-live").inner_text()


def test_state_lives_in_the_url_and_history(watched, site_url, site_dir, data):
    page, _ = watched
    fig = open_figure(page, site_url, FIG, "#fig-09.layout=mmmk&fig-09.n=1024")
    assert shown_layout(fig) == ["mla", "mla", "mla", "kda"] and shown_context(fig) == 1024
    assert shown_sizes(fig) == "toy"
    assert_consistent(page, fig, data, site_dir)
    fig.locator(".f09-layer[data-layer='4']").click()
    assert "fig-09.layout=mmmm" in page.url and "fig-09.c=toy" in page.url
    page.go_back()
    page.wait_for_function(
        f"() => document.querySelector('#{FIG} .f09-layer[data-layer=\"4\"]').dataset.kind === 'kda'"
    )
    assert shown_layout(fig) == ["mla", "mla", "mla", "kda"]
    assert_consistent(page, fig, data, site_dir)
    fig.locator("[data-preset='K3']").click()
    assert "fig-09.c=k3" in page.url
    page.go_back()
    page.wait_for_function(f"() => document.querySelector('#{FIG} .f09-sizes').dataset.sizes === 'toy'")
    assert shown_layout(fig) == ["mla", "mla", "mla", "kda"]
    assert_consistent(page, fig, data, site_dir)


def test_links_restore_the_sizes(watched, site_url, site_dir, data):
    page, _ = watched
    k3 = "".join(k[0] for k in data["k3_layout"])
    fig = open_figure(page, site_url, FIG, f"#fig-09.layout={k3}&fig-09.n=4096")  # a link from before sizes existed
    assert shown_sizes(fig) == "k3" and fig.locator("[data-preset='K3']").get_attribute("aria-pressed") == "true"
    assert_consistent(page, fig, data, site_dir)
    fig = open_figure(page, site_url, FIG, f"#fig-09.layout={k3}&fig-09.n=4096&fig-09.c=toy")
    assert shown_sizes(fig) == "toy" and fig.locator("[data-preset='K3']").get_attribute("aria-pressed") == "false"
    assert_consistent(page, fig, data, site_dir)
    fig = open_figure(page, site_url, FIG, "#fig-09.layout=kkkm&fig-09.c=k3")
    assert shown_sizes(fig) == "k3" and shown_layout(fig) == ["kda", "kda", "kda", "mla"]
    assert_consistent(page, fig, data, site_dir)


def test_equation_symbols_and_layers_link_both_ways(watched, site_url, data):
    page, _ = watched
    fig = open_figure(page, site_url, FIG)
    page.locator("#hybrid .math-block math [data-sym='mla-latent']").first.hover()
    mla_cells = fig.locator(".f09-layer[data-kind='mla']")
    assert fig.locator(".f09-layer.sym-on").count() == mla_cells.count() > 0
    assert fig.locator(".f09-layer[data-kind='kda'].sym-on").count() == 0
    fig.locator(".f09-layer[data-layer='1']").hover()  # a KDA layer lights the state symbol
    assert page.locator("#hybrid .math-block math [data-sym='kda-state'].sym-on").count() >= 1


def test_no_accessibility_violations_at_load_and_in_chosen_states(watched, site_url):
    """axe at load and in four states the load does not show: a layer hovered (its bar marked, the
    tooltip), the MLA layers lit from the equation, K3's sizes (their sourced facts, 93 layers), and
    focus on a K3 size (its tooltip)."""
    page, _ = watched
    fig = open_figure(page, site_url, FIG)
    assert_axe_clean_through(
        page,
        FIG,
        {
            "hovering a layer": lambda p: fig.locator(".f09-layer[data-layer='4']").hover(),
            "hovering the latent symbol in the prose": lambda p: p.locator(
                "#hybrid .math-block math [data-sym='mla-latent']"
            ).first.hover(),
            "the K3 preset (K3's sizes)": lambda p: fig.locator("[data-preset='K3']").click(),
            "focusing a K3 size (its tooltip)": lambda p: fig.locator(".f09-sizes .fact").first.focus(),
        },
    )


def test_y_scale_stays_fixed_while_n_is_dragged(watched, site_url, data):
    """Dragging N along the slider keeps the y-range, so the MLA bars visibly grow; the KDA bars stay."""
    page, _ = watched
    fig = open_figure(page, site_url, FIG)
    slider = fig.locator(".k3-slider input")
    slider.focus()
    page.keyboard.press("Home")
    first = y_range(page)
    ranges, mla, kda = [], [], []
    for _ in range(len(data["contexts"]) - 1):
        page.keyboard.press("ArrowRight")
        ranges.append(y_range(page))
        ys, kinds = bar_values(page), shown_layout(fig)
        mla.append(ys[kinds.index("mla")])
        kda.append(ys[kinds.index("kda")])
    assert all(r == first for r in ranges)
    assert mla == sorted(mla) and mla[-1] > mla[0] and len(set(kda)) == 1
    # the bar tops move on screen, in pixels, not just in the data
    px = bar_top(page, -1)
    page.keyboard.press("Home")
    px0 = bar_top(page, -1)
    assert abs(px - px0) > 20


def test_bars_show_their_value_on_hover_and_toggle_on_click(watched, site_url, data):
    """A bar, or its layer in the stack, outlines the bar and names its shipped value; clicking a
    bar toggles its layer, as clicking the layer does."""
    page, _ = watched
    fig = open_figure(page, site_url, FIG)
    layout, N, c = shown_layout(fig), shown_context(fig), sizes_of(data, shown_sizes(fig))
    per_layer = shipped_per_layer(c, data["contexts"], layout, N)
    tip = fig.locator(".f09-tip")
    assert tip.is_hidden()
    for how in ("bar", "layer"):
        target = fig.locator(".f09-col").nth(3) if how == "bar" else fig.locator(".f09-layer[data-layer='4']")
        target.hover()
        assert tip.inner_text() == f"layer 4: {layout[3].upper()}, {int(per_layer[3]):,} elements"
        assert fig.locator(".f09-barv.is-marked").count() == 1
        assert fig.locator(".f09-col").nth(3).locator(".is-marked").count() == 1
        page.mouse.move(0, 0)
        fig.locator(".f09-layer[data-layer='1']").hover() if how == "bar" else None
    before = shown_total(fig)
    fig.locator(".f09-col").nth(0).click()
    assert shown_layout(fig)[0] != layout[0]
    toggled = shipped_per_layer(c, data["contexts"], shown_layout(fig), N)
    assert shown_total(fig) == int(toggled.sum()) != before
    assert bar_values(page)[0] == toggled[0]


def test_bars_show_their_value_on_screen(watched, site_url, data):
    """Each bar's height on screen is its log-scale share of the plot's height; a toggle moves its
    bar to the new height (bars are written only where they change)."""
    page, _ = watched
    fig = open_figure(page, site_url, FIG)
    lo, hi = y_range(page)

    def drawn():
        page.wait_for_function(f"() => !document.querySelector('#{FIG}').getAnimations({{subtree: true}}).length")
        return page.evaluate(f"""() => {{
          const area = document.querySelector('#{FIG} .f09-area').getBoundingClientRect(), bottom = area.bottom - 1;
          return [...document.querySelectorAll('#{FIG} .f09-barv')].map(b => (bottom - b.getBoundingClientRect().top) / (area.height - 1));
        }}""")

    def expected():
        return [(np.log10(y) - lo) / (hi - lo) for y in bar_values(page)]

    assert drawn() == pytest.approx(expected(), abs=0.01)
    fig.locator(".f09-layer[data-layer='1']").click()
    assert drawn() == pytest.approx(expected(), abs=0.01)


def test_an_input_rewrites_only_what_it_changed(watched, site_url, site_dir, data):
    """Issue 16 (paint within a frame or two): toggling one layer rewrites that layer's button and
    bar only; a new context rewrites the MLA bars and names only; a layer-count step adds or removes
    the last layer's button and bar and leaves the others in place. The spoken name of each layer
    begins with what the button shows."""
    page, _ = watched
    fig = open_figure(page, site_url, FIG)
    fig.locator("[data-preset='K3']").click()
    watch = f"""() => {{
      window.__f09 = new Set(); window.__f09Nodes = [...document.querySelectorAll('#{FIG} .f09-layer, #{FIG} .f09-barv')];
      const own = c => (c || '').split(' ').filter(x => x !== 'sym-on').join(' ');  // not the symbol links' highlight
      window.__f09Obs = new MutationObserver(rs => rs.forEach(r => {{
        const e = r.target.nodeType === 1 ? r.target : r.target.parentElement;
        if (r.attributeName === 'class' && own(r.oldValue) === own(r.target.getAttribute('class'))) return;
        const hit = e.closest('.f09-layer, .f09-barv'); if (hit) window.__f09.add(hit); }}));
      window.__f09Obs.observe(document.querySelector('#{FIG}'),
        {{subtree: true, attributes: true, attributeOldValue: true, characterData: true, childList: true}});
    }}"""
    changed = """() => { window.__f09Obs.takeRecords(); window.__f09Obs.disconnect();
      return [...window.__f09].map(e => (e.classList.contains('f09-layer') ? 'layer ' : 'bar ') +
        (e.dataset.layer || (+e.parentElement.dataset.i + 1))).sort(); }"""
    fig.locator(".f09-layer[data-layer='5']").click()  # the tab stop moves to layer 5
    page.evaluate(watch)
    fig.locator(".f09-layer[data-layer='5']").click()
    assert page.evaluate(changed) == ["bar 5", "layer 5"]
    layout = shown_layout(fig)
    page.evaluate(watch)
    slider = fig.locator(".k3-slider input")
    slider.focus()
    page.keyboard.press("ArrowLeft")
    mla = sorted(f"{what} {i + 1}" for i, k in enumerate(layout) if k == "mla" for what in ("bar", "layer"))
    assert page.evaluate(changed) == mla
    nodes = page.evaluate_handle("() => window.__f09Nodes")
    page.evaluate(watch)
    fig.locator(".k3-stepper").focus()
    page.keyboard.press("ArrowLeft")  # a layer less (keys: the pointer stays, so no hover highlight changes)
    assert page.evaluate(changed) == []
    kept = page.evaluate(
        """([old, sel]) => { const now = [...document.querySelectorAll(sel)];
      return now.length === old.length - 2 && now.every(e => old.includes(e)); }""",
        [nodes, f"#{FIG} .f09-layer, #{FIG} .f09-barv"],
    )
    assert kept and len(shown_layout(fig)) == len(layout) - 1
    assert_consistent(page, fig, data, site_dir)
    names = fig.locator(".f09-layer").evaluate_all(
        "bs => bs.map(b => [b.textContent.replace(/\\s+/g, ' ').trim(), b.getAttribute('aria-label')])"
    )
    N, c = shown_context(fig), sizes_of(data, "k3")
    per_layer = shipped_per_layer(c, data["contexts"], shown_layout(fig), N)
    for i, (shown, name) in enumerate(names):
        kind = shown_layout(fig)[i]
        assert shown == f"{i + 1} {kind[0].upper()}"
        assert (
            name
            == f"{shown}: layer {i + 1}, {kind.upper()}, {int(per_layer[i]):,} elements; press to make it {'KDA' if kind == 'mla' else 'MLA'}"
        )
