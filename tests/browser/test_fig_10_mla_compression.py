"""FIG 10 · MLA cache compression: the compress toggle, the cache readouts, the three equal
outputs and the shared-subspace rank readout, all compared with the `mla` kernels."""
import re

import numpy as np
import pytest

from k3explainer.kernels import (
    causal_softmax_attention,
    gqa_cache_per_token,
    mha_cache_per_token,
    mla_attention_absorbed,
    mla_attention_naive,
    mla_cache_per_token,
    mla_reconstruct,
    mqa_cache_per_token,
)

from .support import assert_axe_clean_through, cell_texts, open_figure, shipped_data, shown_number, table_numbers

pytestmark = pytest.mark.browser
FIG = "fig-10"


@pytest.fixture(scope="module")
def kernel(site_dir):
    """Everything the figure shows, recomputed by the kernels from the inputs it shipped."""
    d = shipped_data(site_dir, FIG)["demo"]
    q, lat, W_uk, W_uv = (np.array(d[k]) for k in ("q", "latents", "W_uk", "W_uv"))
    K, V = mla_reconstruct(lat, W_uk, W_uv)
    recon = np.stack([causal_softmax_attention(q[:, h], K[:, h], V[:, h])[0] for h in range(d["H"])], axis=1)
    out = {"recon": recon, "naive": mla_attention_naive(q, lat, W_uk, W_uv)[0],
           "absorbed": mla_attention_absorbed(q, lat, W_uk, W_uv)[0]}
    # the price readout: all heads' keys (values) side by side over the tokens, [T, H·d], for MLA and for
    # independent per-head projections of the same x, W_K and W_V re-drawn from seed + 1 as the builder does
    x = np.array(d["x"])
    T, H, dh = K.shape
    W_k, W_v = np.random.default_rng(d["seed"] + 1).standard_normal((2, H, x.shape[1], dh)) / np.sqrt(x.shape[1])
    sides = {"mla": {"keys": K.reshape(T, -1), "values": V.reshape(T, -1)},
             "independent": {"keys": np.einsum("tD,hDd->thd", x, W_k).reshape(T, -1),
                             "values": np.einsum("tD,hDd->thd", x, W_v).reshape(T, -1)}}
    rank = {f: {k: int(np.linalg.matrix_rank(m)) for k, m in kinds.items()} for f, kinds in sides.items()}
    rank_kv = int(np.linalg.matrix_rank(np.concatenate([sides["mla"]["keys"], sides["mla"]["values"]], axis=1)))
    sv = {f: np.linalg.svd(kinds["keys"], compute_uv=False) for f, kinds in sides.items()}
    return {"demo": d, "lat": lat, "K": K, "V": V, "out": out, "rank": rank, "rank_kv": rank_kv, "sv": sv}


def numbers(locator):
    return [shown_number(t) for t in cell_texts(locator)]


def select_token(fig, t):
    fig.locator(f".k3-choice [role=radio][data-value='{t}']").click()


def assert_token_panel(fig, kernel, t):
    d = kernel["demo"]
    assert numbers(fig.locator("table.k3-matrix[data-sym='mla-latent'] tbody td")) == pytest.approx(kernel["lat"][t], abs=0.0005)
    rebuilt = numbers(fig.locator(".f10-up table:not([data-sym]) tbody td"))
    want = np.concatenate([kernel["K"][t], kernel["V"][t]]).ravel()
    assert rebuilt == pytest.approx(want, abs=0.0005)
    rows = fig.locator(".f10-right > .k3-scroll .k3-matrix tbody tr")
    for i, form in enumerate(("recon", "naive", "absorbed")):
        shown = numbers(rows.nth(i).locator("td"))
        assert shown == pytest.approx(kernel["out"][form][t].ravel(), abs=0.00005)
    for form in ("naive", "absorbed"):
        shown = shown_number(fig.locator(f"[data-diff='{form}']").inner_text())
        assert shown < 1e-12  # agreement to rounding; the exact bits depend on summation order
        assert shown == pytest.approx(d["max_diff"][form][t], rel=0.05)


def test_shipped_outputs_are_the_kernels_and_agree(kernel):
    d = kernel["demo"]
    for form in ("recon", "naive", "absorbed"):
        np.testing.assert_allclose(np.array(d["out"][form]), kernel["out"][form], atol=1e-15)
        np.testing.assert_allclose(kernel["out"][form], kernel["out"]["recon"], atol=1e-12)
    np.testing.assert_allclose(np.array(d["K"]), kernel["K"], atol=1e-15)
    np.testing.assert_allclose(np.array(d["V"]), kernel["V"], atol=1e-15)
    # the shipped x is the seeded input the latents were compressed from
    np.testing.assert_array_equal(np.array(d["x"]), np.random.default_rng(d["seed"]).standard_normal((d["T"], d["D"])))


def test_shipped_ranks_are_the_kernels_and_show_the_shared_subspace(kernel):
    """Equal outputs are an identity of computation order; the model class is still constrained:
    MLA's keys and values, every head together, have rank ≤ d_c, independent projections h·d_h."""
    sub = kernel["demo"]["subspace"]
    assert sub["rank"] == kernel["rank"] and sub["rank_kv_mla"] == kernel["rank_kv"]
    for form in ("mla", "independent"):
        np.testing.assert_allclose(np.array(sub["sv_keys"][form]), kernel["sv"][form], atol=1e-12)
    d_c, hd = kernel["demo"]["d_c"], kernel["demo"]["H"] * kernel["demo"]["d"]
    assert (sub["d_c"], sub["hd"], sub["tokens"]) == (d_c, hd, kernel["demo"]["T"])
    assert kernel["rank"]["mla"]["keys"] <= d_c and kernel["rank"]["mla"]["values"] <= d_c and kernel["rank_kv"] <= d_c
    assert kernel["rank"]["independent"] == {"keys": hd, "values": hd} and d_c < hd <= kernel["demo"]["T"]
    assert kernel["sv"]["mla"][d_c:].max() < 1e-12 < kernel["sv"]["independent"].min()


def test_cache_readouts_equal_the_kernels(watched, site_url, site_dir):
    page, _ = watched
    fig = open_figure(page, site_url, FIG)
    want = {"MHA": mha_cache_per_token(32, 128), "GQA": gqa_cache_per_token(8, 128),
            "MQA": mqa_cache_per_token(128), "MLA": mla_cache_per_token(512)}
    B = shipped_data(site_dir, FIG)["bytes_per_element"]
    for name, elements in want.items():
        row = fig.locator(f"tr[data-variant='{name}'] td")
        cells = cell_texts(row)
        assert shown_number(cells[0]) == elements and shown_number(cells[1]) == elements * B
        assert cells[2] == ("1×" if name == "MHA" else f"1/{want['MHA'] // elements}")
    assert "32,768 (MHA) vs 576 (MLA)" in fig.locator(".f10-source").inner_text()
    assert "56.9×" in fig.locator(".f10-source").inner_text()
    assert "query LoRA" in fig.locator(".f10-k3").inner_text()


def test_compress_toggle_by_mouse_and_keyboard(watched, site_url, kernel):
    page, _ = watched
    fig = open_figure(page, site_url, FIG)
    button = fig.locator(".f10-compress")
    lat_cells = fig.locator(".f10-lat").first
    assert button.get_attribute("aria-pressed") == "false"
    assert not lat_cells.is_visible() and fig.locator(".f10-kv").first.is_visible()
    button.click()
    assert button.get_attribute("aria-pressed") == "true"
    page.wait_for_function(f"() => getComputedStyle(document.querySelector('#{FIG} .f10-kv')).visibility === 'hidden'")
    assert fig.locator(".f10-lat").first.is_visible()
    assert "2 numbers instead of 8" in fig.locator(".fig-live").inner_text()
    assert "512 elements instead of 8,192" in fig.locator(".fig-live").inner_text()
    # the cache rows show each token's latent, equal to the kernel's
    for t in range(kernel["demo"]["T"]):
        shown = numbers(fig.locator(f".f10-row[data-t='{t}'] .f10-lat .f10-cell"))
        assert shown == pytest.approx(kernel["lat"][t], abs=0.005)
    button.focus()
    page.keyboard.press("Enter")
    assert button.get_attribute("aria-pressed") == "false"
    page.keyboard.press(" ")
    assert button.get_attribute("aria-pressed") == "true"
    assert "fig-10.c=1" in page.url


def test_token_selection_by_click_keys_and_hover(watched, site_url, kernel):
    page, _ = watched
    fig = open_figure(page, site_url, FIG)
    T = kernel["demo"]["T"]
    assert_token_panel(fig, kernel, T - 1)
    select_token(fig, 1)
    assert_token_panel(fig, kernel, 1)
    assert "Query t2" in fig.locator(".fig-live").inner_text()
    page.keyboard.press("ArrowRight")
    assert_token_panel(fig, kernel, 2)
    page.keyboard.press("Home")
    assert_token_panel(fig, kernel, 0)
    fig.locator(".f10-row[data-t='3']").hover()
    assert_token_panel(fig, kernel, 3)
    # the uncompressed rows show each head's key and value, equal to the reconstruction
    shown = numbers(fig.locator(".f10-row[data-t='3'] .f10-kv .f10-cell"))
    assert shown == pytest.approx(np.concatenate([kernel["K"][3].ravel(), kernel["V"][3].ravel()]), abs=0.005)


def test_state_lives_in_the_url_and_history(watched, site_url, kernel):
    page, _ = watched
    fig = open_figure(page, site_url, FIG, "#fig-10.c=1&fig-10.t=1")
    assert fig.locator(".f10-compress").get_attribute("aria-pressed") == "true"
    assert_token_panel(fig, kernel, 1)
    select_token(fig, 4)
    assert "fig-10.t=4" in page.url
    fig.locator(".f10-compress").click()
    assert "fig-10.c=0" in page.url
    page.go_back()
    page.wait_for_selector(f"#{FIG} .f10-compress[aria-pressed='true']")
    assert_token_panel(fig, kernel, 4)
    page.go_back()
    page.wait_for_selector(f"#{FIG} [role=radio][data-value='1'][aria-checked=true]")
    assert_token_panel(fig, kernel, 1)


def test_equation_symbols_and_figure_parts_link_both_ways(watched, site_url):
    page, _ = watched
    fig = open_figure(page, site_url, FIG)
    page.locator("#mla .katex-display [data-sym='mla-uk']").first.hover()
    assert fig.locator("table[data-sym='mla-uk'].sym-on").count() == 1
    page.locator("#mla .katex-display [data-sym='mla-latent']").first.hover()
    assert fig.locator("table[data-sym='mla-latent'].sym-on").count() == 1
    fig.locator("table[data-sym='mla-uv'] td").first.hover()
    assert page.locator("#mla .katex-display [data-sym='mla-uv'].sym-on").count() >= 1


def test_price_readout_shows_the_ranks_and_singular_values(watched, site_url, kernel):
    page, _ = watched
    fig = open_figure(page, site_url, FIG)
    price = fig.locator(".f10-price")
    shown = {k: int(shown_number(price.locator(f"[data-rank='{k}']").inner_text()))
             for k in ("mla-keys", "d_c", "independent-keys", "hd", "mla-values", "independent-values", "mla-kv")}
    d = kernel["demo"]
    assert shown == {"mla-keys": kernel["rank"]["mla"]["keys"], "d_c": d["d_c"],
                     "independent-keys": kernel["rank"]["independent"]["keys"], "hd": d["H"] * d["d"],
                     "mla-values": kernel["rank"]["mla"]["values"],
                     "independent-values": kernel["rank"]["independent"]["values"], "mla-kv": kernel["rank_kv"]}
    sv = table_numbers(price.locator("table.k3-matrix"))
    assert sv[0] == pytest.approx(kernel["sv"]["mla"], abs=0.0005)
    assert sv[1] == pytest.approx(kernel["sv"]["independent"], abs=0.0005)
    assert all(v == 0 for v in sv[0][d["d_c"]:]) and all(v > 0 for v in sv[1])  # MLA's beyond d_c show as 0.000
    text = price.inner_text()
    assert "re-ordering the computation is exact" in text and "do not show that MLA is multi-head attention" in text
    # the three forms are named for what they compute: only the absorbed one never forms keys and values
    assert "so keys and values are never formed" in fig.locator(".f10-forms").inner_text()


def test_caption_and_alternative_match_what_the_figure_shows(watched, site_url, kernel):
    page, _ = watched
    fig = open_figure(page, site_url, FIG)
    caption = fig.locator(".fig-caption > p").first.inner_text()
    alt = fig.locator(f"#{FIG}-alt").text_content()  # inside a closed <details>
    d = kernel["demo"]
    # "agree": the three outputs shown are equal to rounding
    assert "agree" in caption and max(max(d["max_diff"]["naive"]), max(d["max_diff"]["absorbed"])) < 1e-12
    # "no wider than the latent": the rank readout
    assert "no wider than the latent" in caption and kernel["rank"]["mla"]["keys"] <= d["d_c"]
    assert "never exceeds the latent width" in alt and "singular values beyond it are zero" in alt
    assert "not that MLA equals multi-head attention" in alt
    assert not re.search(r"(?<!\w)\d", alt)  # no hand-typed numbers (names such as DeepSeek-V2 and K3 aside)


def test_no_accessibility_violations_through_every_interaction(watched, site_url):
    page, _ = watched
    fig = open_figure(page, site_url, FIG)
    assert_axe_clean_through(page, FIG, {
        "compress by click": lambda p: fig.locator(".f10-compress").click(),
        "query token by click": lambda p: select_token(fig, 2),
        "query token by arrow key": lambda p: p.keyboard.press("ArrowRight"),
        "row hover": lambda p: fig.locator(".f10-row[data-t='1']").hover(),
        "expand by keyboard": lambda p: (fig.locator(".f10-compress").focus(), p.keyboard.press("Enter")),
        "equation symbol hover": lambda p: p.locator("#mla .katex-display [data-sym='mla-uk']").first.hover(),
        "figure part hover": lambda p: fig.locator("table[data-sym='mla-latent'] td").first.hover(),
    })
