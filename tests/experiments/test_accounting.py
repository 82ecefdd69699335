import math

import pytest

from k3project.experiments import gpt2_params, hybrid_layout, k3_derived


def test_gpt2_small_exact_counts_and_breakdown():
    p = gpt2_params()
    assert p["total"] == 124_439_808
    assert p["wte"] == 38_597_376 and p["wpe"] == 786_432
    assert (p["c_attn"], p["attn_c_proj"], p["c_fc"], p["mlp_c_proj"]) == (1_771_776, 590_592, 2_362_368, 2_360_064)
    assert p["ln_1"] + p["ln_2"] == 3_072 and p["ln_f"] == 1_536
    assert p["block"] == 7_087_872 and p["blocks"] == 85_054_464
    assert p["non_embedding"] == 85_056_000 and p["lm_head"] == 0
    assert p["nanogpt_reported"] == 123_653_376
    assert p["wte"] + p["wpe"] + p["blocks"] + p["ln_f"] == p["total"]


def test_gpt2_nanogpt_padded_vocab():
    p = gpt2_params(vocab_size=50304)
    assert p["total"] == 124_475_904 and p["wte"] == 38_633_472 and p["nanogpt_reported"] == 123_689_472


def test_untied_head_adds_a_second_embedding_matrix():
    assert gpt2_params(tied=False)["total"] - gpt2_params()["total"] == 50257 * 768


def test_k3_derived():
    d = k3_derived(
        total_params=2.8e12,
        active_params=104e9,
        routed=896,
        shared=2,
        top_k=16,
        layers=93,
        kda_layers=69,
        mla_layers=24,
        block_size=12,
        gpt2_params=124e6,
    )
    assert d["gpt2_multiple"] == pytest.approx(22580.645, abs=1e-3)
    assert round(100 * d["active_fraction"], 2) == 3.71
    assert round(100 * d["routed_fraction"], 2) == 1.79
    assert d["experts_total"] == 898 and d["experts_per_token"] == 18
    assert round(100 * d["experts_active_fraction"], 1) == 2.0
    assert (d["attnres_blocks"], d["attnres_last_block"], d["attnres_sources_at_output"]) == (8, 9, 9)
    assert (d["macrocycles"], d["layers_outside_macrocycles"]) == (23, 1)
    assert d["cached_layer_reduction"] == pytest.approx(69 / 93)
    exact = k3_derived(
        total_params=2.8e12,
        active_params=104e9,
        routed=896,
        shared=2,
        top_k=16,
        layers=93,
        kda_layers=69,
        mla_layers=24,
        block_size=12,
        gpt2_params=124_439_808,
    )
    assert math.floor(exact["gpt2_multiple"] * 10) / 10 == 22500.8


def test_k3_derived_rejects_inconsistent_layer_counts():
    with pytest.raises(ValueError):
        k3_derived(
            total_params=1,
            active_params=1,
            routed=1,
            shared=0,
            top_k=1,
            layers=92,
            kda_layers=69,
            mla_layers=24,
            block_size=12,
            gpt2_params=1,
        )


def test_hybrid_layouts():
    k3 = hybrid_layout(93)
    assert k3.count("kda") == 69 and k3.count("mla") == 24
    assert [i + 1 for i, kind in enumerate(k3) if kind == "mla"] == list(range(4, 93, 4)) + [93]
    kl = hybrid_layout(27)
    assert [i + 1 for i, kind in enumerate(kl) if kind == "mla"] == [4, 8, 12, 16, 20, 24, 27]
    assert hybrid_layout(8, final_full=False) == ["kda", "kda", "kda", "mla"] * 2
