"""FIG 09 · layer stack composer: toggles, presets, layer count and context, checked against `costs`."""
import pytest

from k3explainer.kernels import hybrid_layout, kda_decode_memory, mla_decode_memory, stack_decode_memory

from .support import axe_violations, open_figure, shipped_data, shown_number

pytestmark = pytest.mark.browser
FIG = "fig-09"


@pytest.fixture(scope="module")
def data(site_dir):
    return shipped_data(site_dir, FIG)


def kernel_total(data, layout, N):
    return int(stack_decode_memory(layout, N, kda_heads=data["heads"], d_h=data["d_h"], d_c=data["d_c"]).sum())


def shown_layout(fig):
    return fig.locator(".f09-layer").evaluate_all("bs => bs.map(b => b.dataset.kind)")


def shown_total(fig):
    return int(shown_number(fig.locator("[data-total]").inner_text()))


def shown_context(fig):
    return int(shown_number(fig.locator(".k3-slider output").inner_text().replace("tokens", "")))


def assert_consistent(page, fig, data):
    """Total, split and bars all equal the kernel's for what the stack shows."""
    layout, N = shown_layout(fig), shown_context(fig)
    assert shown_total(fig) == kernel_total(data, layout, N)
    per_layer = stack_decode_memory(layout, N, kda_heads=data["heads"], d_h=data["d_h"], d_c=data["d_c"])
    bars = page.evaluate(f"() => document.querySelector('#{FIG} .f09-plot').data[0].y")
    assert bars == per_layer.tolist()
    split = fig.locator(".f09-split").inner_text()
    assert f"{layout.count('mla')} MLA × {int(mla_decode_memory(N, data['d_c'])):,}" in split
    assert f"{layout.count('kda')} KDA × {int(kda_decode_memory(data['heads'], data['d_h'])):,}" in split


def test_starts_in_the_3_to_1_pattern_with_kernel_numbers(watched, site_url, data):
    page, _ = watched
    fig = open_figure(page, site_url, FIG)
    assert shown_layout(fig) == hybrid_layout(data["n_layers"], final_full=False)
    assert shown_context(fig) == data["n_default"] == 8192
    assert_consistent(page, fig, data)
    assert fig.locator("[data-preset='3:1']").get_attribute("aria-pressed") == "true"


def test_toggling_a_layer_changes_the_total_by_its_kernel_value(watched, site_url, data):
    page, _ = watched
    fig = open_figure(page, site_url, FIG)
    N = shown_context(fig)
    step = int(mla_decode_memory(N, data["d_c"]) - kda_decode_memory(data["heads"], data["d_h"]))
    before = shown_total(fig)
    fig.locator(".f09-layer[data-layer='1']").click()  # KDA → MLA by mouse
    assert shown_layout(fig)[0] == "mla"
    assert shown_total(fig) == before + step
    assert f"{before + step:,}" in fig.locator(".fig-live").inner_text()
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
    assert_consistent(page, fig, data)
    assert fig.locator("[data-preset='3:1']").get_attribute("aria-pressed") == "true"


def test_presets_give_the_kernel_totals(watched, site_url, data):
    page, _ = watched
    fig = open_figure(page, site_url, FIG)
    N, n = shown_context(fig), data["n_layers"]
    expected = {"all-MLA": ["mla"] * n, "all-KDA": ["kda"] * n, "3:1": hybrid_layout(n, final_full=False),
                "K3": hybrid_layout(93, final_full=True)}
    for name, layout in expected.items():
        fig.locator(f"[data-preset='{name}']").click()
        assert shown_layout(fig) == layout
        assert shown_total(fig) == kernel_total(data, layout, N)
        assert fig.locator(f"[data-preset='{name}']").get_attribute("aria-pressed") == "true"
        assert f"{kernel_total(data, layout, N):,}" in fig.locator(".fig-live").inner_text()
    assert (shown_layout(fig).count("kda"), shown_layout(fig).count("mla")) == (69, 24)
    assert "93 layers" in fig.locator(".f09-note").inner_text()
    assert_consistent(page, fig, data)


def test_context_slider_and_layer_count(watched, site_url, data):
    page, _ = watched
    fig = open_figure(page, site_url, FIG)
    slider = fig.locator(".k3-slider input")
    slider.focus()
    page.keyboard.press("ArrowRight")
    assert shown_context(fig) == 16384
    assert_consistent(page, fig, data)
    page.keyboard.press("Home")
    assert shown_context(fig) == data["contexts"][0]
    assert_consistent(page, fig, data)  # at N = 16 a KDA state outweighs an MLA cache
    assert mla_decode_memory(16, data["d_c"]) < kda_decode_memory(data["heads"], data["d_h"])
    fig.locator(".k3-stepper [aria-label='Next step']").click()  # 13 layers: the new one follows 3:1
    assert shown_layout(fig) == hybrid_layout(13, final_full=False)
    fig.locator(".k3-stepper").focus()
    page.keyboard.press("ArrowLeft")
    page.keyboard.press("ArrowLeft")
    assert len(shown_layout(fig)) == 11
    assert_consistent(page, fig, data)
    assert "11 layers" in fig.locator(".fig-live").inner_text()


def test_state_lives_in_the_url_and_history(watched, site_url, data):
    page, _ = watched
    fig = open_figure(page, site_url, FIG, "#fig-09.layout=mmmk&fig-09.n=1024")
    assert shown_layout(fig) == ["mla", "mla", "mla", "kda"] and shown_context(fig) == 1024
    assert_consistent(page, fig, data)
    fig.locator(".f09-layer[data-layer='4']").click()
    assert "fig-09.layout=mmmm" in page.url
    page.go_back()
    page.wait_for_function(f"() => document.querySelector('#{FIG} .f09-layer[data-layer=\"4\"]').dataset.kind === 'kda'")
    assert shown_layout(fig) == ["mla", "mla", "mla", "kda"]
    assert_consistent(page, fig, data)


def test_equation_symbols_and_layers_link_both_ways(watched, site_url, data):
    page, _ = watched
    fig = open_figure(page, site_url, FIG)
    page.locator("#hybrid .katex-display [data-sym='mla-latent']").first.hover()
    mla_cells = fig.locator(".f09-layer[data-kind='mla']")
    assert fig.locator(".f09-layer.sym-on").count() == mla_cells.count() > 0
    assert fig.locator(".f09-layer[data-kind='kda'].sym-on").count() == 0
    fig.locator(".f09-layer[data-layer='1']").hover()  # a KDA layer lights the state symbol
    assert page.locator("#hybrid .katex-display [data-sym='kda-state'].sym-on").count() >= 1


def test_no_accessibility_violations_after_interaction(watched, site_url):
    page, _ = watched
    fig = open_figure(page, site_url, FIG)
    fig.locator("[data-preset='K3']").click()
    fig.locator(".f09-layer[data-layer='5']").click()
    assert axe_violations(page, f"#{FIG}") == []
