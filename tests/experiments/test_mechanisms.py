"""The article's cost accounting by mechanism and phase (FIG 09, 15, 16), against the engine's cost models."""

import numpy as np
import pytest

from k3explainer.kernels import (
    chunked_linear_madds,
    decode_step_flops,
    decode_step_reads,
    kda_chunked_flops,
    kda_decode_memory,
    mla_cache_per_token,
    mla_decode_memory,
    prefill_attention_flops,
)
from k3project.experiments import MECHANISMS, complexity_curves, hybrid_layout, mechanism_costs, stack_decode_memory

N = np.array([16, 1024, 8192, 1_048_576])


def test_decode_memory_k3_stack():
    layout = hybrid_layout(93)
    per_layer = stack_decode_memory(layout, 8192, kda_heads=96, d_h=128, d_c=512, d_r=64)
    assert per_layer.shape == (93,)
    kda_total = 69 * kda_decode_memory(96, 128)
    assert kda_total == 108_527_616  # ~108.5M state elements per sequence
    assert per_layer.sum() == kda_total + 24 * 8192 * 576
    assert 24 * mla_cache_per_token(512, 64) == 13_824
    assert kda_total / 13_824 == pytest.approx(7850, abs=1)  # the MLA cache of ~7,850 tokens
    curve = stack_decode_memory(layout, N, kda_heads=96, d_h=128, d_c=512, d_r=64)
    assert curve.shape == (93, len(N))
    np.testing.assert_array_equal(curve[0], kda_decode_memory(96, 128))
    np.testing.assert_array_equal(curve[3], mla_decode_memory(N, 512, 64))


def test_mechanism_costs_relations():
    kw = dict(d_h=128, heads=4, d_c=64, C=64)
    for phase in ("prefill", "decode"):
        c = {m: mechanism_costs(m, phase, N, **kw) for m in MECHANISMS}
        for key in ("flops", "reads", "kept", "peak"):
            np.testing.assert_allclose(c["hybrid"][key], 0.75 * c["kda"][key] + 0.25 * c["mla"][key])
        np.testing.assert_array_equal(c["flash"]["flops"], c["softmax"]["flops"])
        np.testing.assert_array_equal(c["kda"]["kept"], 4 * 128**2)  # constant in N
        np.testing.assert_array_equal(c["mla"]["kept"], N * 64)
    pre = {m: mechanism_costs(m, "prefill", N, **kw) for m in MECHANISMS}
    assert np.all(pre["softmax"]["peak"] - pre["flash"]["peak"] == 4 * N.astype(float) ** 2)
    dec = {m: mechanism_costs(m, "decode", N, **kw) for m in MECHANISMS}
    np.testing.assert_array_equal(dec["softmax"]["reads"], decode_step_reads(N, 4 * 128))
    np.testing.assert_array_equal(dec["mla"]["reads"], N * 64)
    np.testing.assert_array_equal(dec["kda"]["flops"], 7 * 4 * 128**2)
    with pytest.raises(ValueError):
        mechanism_costs("kda", "train", N)
    with pytest.raises(ValueError):
        mechanism_costs("mamba", "decode", N)


def test_complexity_curves_scaling():
    c = complexity_curves(np.array([1e4, 2e4, 1e6]))  # d_h 128, L 32, d_c 32, C 64
    assert set(c) == set(MECHANISMS)
    ratio = {m: c[m]["compute"][1] / c[m]["compute"][0] for m in c}
    assert ratio["softmax"] == ratio["flash"] == 4.0
    assert 3.98 < ratio["mla"] < 4.0  # quadratic, plus the linear rebuild of keys and values
    assert ratio["linear"] == ratio["kda"] == 2.0
    assert c["kda"]["compute"][0] == 32 * kda_chunked_flops(1e4, 128, 64)
    assert c["kda"]["memory"][0] == c["kda"]["memory"][2] == 32 * 128**2
    assert c["mla"]["memory"][2] == 32 * 1e6 * 32
    # layer after layer: every layer's KV cache stays, one layer's score matrix at a time
    N = np.array([1e4, 2e4, 1e6])
    np.testing.assert_array_equal(c["flash"]["memory"], 32 * 2 * N * 128)
    np.testing.assert_array_equal(c["softmax"]["memory"], 32 * 2 * N * 128 + N**2)
    big = {m: c[m]["memory"][2] for m in c}
    assert big["softmax"] > big["flash"] > big["mla"] > big["hybrid"] > big["kda"]


def test_parts_sum_to_the_totals_and_match_the_unsplit_formulas():
    kw = dict(d_h=128, heads=8, d_c=512, C=64)
    D = 8 * 128
    for m in MECHANISMS:
        for phase in ("prefill", "decode"):
            c = mechanism_costs(m, phase, N, **kw)
            for q in ("flops", "reads"):
                np.testing.assert_allclose(sum(c[f"{q}_parts"].values()), c[q], rtol=1e-15)
    pre = {m: mechanism_costs(m, "prefill", N, **kw) for m in MECHANISMS}
    np.testing.assert_array_equal(pre["softmax"]["flops"], prefill_attention_flops(N, D))
    np.testing.assert_array_equal(pre["linear"]["flops"], 2 * 8 * chunked_linear_madds(N, 128, 64))
    np.testing.assert_array_equal(pre["kda"]["flops"], 8 * kda_chunked_flops(N, 128, 64))
    dec = {m: mechanism_costs(m, "decode", N, **kw) for m in MECHANISMS}
    np.testing.assert_array_equal(dec["softmax"]["flops"], decode_step_flops(N, D))
    np.testing.assert_array_equal(dec["linear"]["flops"], 4 * 8 * 128**2)


def test_mla_prefill_counts_the_rebuilt_keys_and_values():
    """Naive-form MLA prefill reads the queries, the cached latents (with the shared positional key)
    and the keys and values rebuilt from them, and computes that rebuild as well as the attention."""
    H, d_h, d_c, d_r = 8, 128, 512, 64
    c = mechanism_costs("mla", "prefill", N, d_h=d_h, heads=H, d_c=d_c, d_r=d_r)
    Nf = N.astype(float)
    queries, latents, rebuilt = Nf * H * (d_h + d_r), Nf * (d_c + d_r), 2 * Nf * H * d_h
    np.testing.assert_array_equal(c["reads"], queries + latents + rebuilt)
    assert list(c["reads_parts"]) == ["queries", "latents", "rebuilt"]
    np.testing.assert_array_equal(c["reads_parts"]["rebuilt"], rebuilt)
    rebuild = 2 * 2 * Nf * d_c * H * d_h  # W_UK c and W_UV c, H·d_h outputs from d_c inputs each
    attention = Nf**2 * H * (2 * d_h + d_r)  # q·k over d_h + d_r and p·v over d_h, N²/2 pairs, 2 FLOPs
    np.testing.assert_array_equal(c["flops"], rebuild + attention)
    np.testing.assert_array_equal(c["flops_parts"]["rebuild"], rebuild)
    np.testing.assert_array_equal(c["kept"], latents)  # only the latent is kept
    np.testing.assert_array_equal(c["peak"], latents)  # the rebuilt keys and values are not FIG 15's memory


def test_mla_decode_trades_flops_for_reads():
    """Absorbed MLA decode reads d_c (+ d_r) per cached token instead of 2·H·d_h, and spends
    2·H·(2·d_c + d_r) FLOPs per cached token instead of 4·H·d_h."""
    H, d_h, d_c = 8, 128, 512
    mla = mechanism_costs("mla", "decode", N, d_h=d_h, heads=H, d_c=d_c)
    mha = mechanism_costs("softmax", "decode", N, d_h=d_h, heads=H, d_c=d_c)
    Nf = N.astype(float)
    np.testing.assert_array_equal(mha["reads"] / mla["reads"], 2 * H * d_h / d_c)
    np.testing.assert_array_equal(mla["flops"], 2 * Nf * H * 2 * d_c + 4 * H * d_c * d_h)
    np.testing.assert_allclose(mla["flops"] / mha["flops"], 2 * d_c / (2 * d_h) + d_c / Nf)
    assert np.all(mla["flops"] / mla["reads"] > mha["flops"] / mha["reads"])
