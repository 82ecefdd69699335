import numpy as np
import pytest

from k3explainer.kernels import (
    chunked_linear_madds,
    decode_step_flops,
    decode_step_reads,
    decode_step_writes,
    kda_chunked_flops,
    kv_cache_elements,
    prefill_attention_flops,
    score_cells,
)

N = np.array([16, 1024, 8192, 1_048_576])


def test_softmax_costs_hand_values_and_vectorised():
    np.testing.assert_array_equal(score_cells(N), N.astype(np.int64) ** 2)
    assert score_cells(1024) == 1_048_576
    assert decode_step_reads(1024, 768) == 2 * 1024 * 768 and decode_step_writes(768) == 1536
    assert kv_cache_elements(1024, 768, layers=12) == 2 * 1024 * 768 * 12
    assert prefill_attention_flops(10, 4) == 800 and decode_step_flops(10, 4) == 160
    assert prefill_attention_flops(N, 64).shape == N.shape


def test_decoding_every_token_sums_to_the_prefill_cost():
    n = np.arange(1, 513)
    total = decode_step_flops(n, 64).sum()  # 2·N(N+1)·D: the causal triangle incl. the diagonal
    assert total == 2 * 512 * 513 * 64
    assert total / prefill_attention_flops(512, 64) == pytest.approx(1 + 1 / 512)


def test_chunk_costs():
    d = 128
    C = np.array([1, 64, 128])
    np.testing.assert_array_equal(chunked_linear_madds(1, d, C), 2 * d * d + 2 * C * d)  # per token: state + chunk
    assert chunked_linear_madds(100, d, 100) == 2 * 100 * d * d + 2 * 100**2 * d  # C = T: quadratic term T²
    assert kda_chunked_flops(1, 128, 64) == 126_976
    assert kda_chunked_flops(1000, 128) == 1000 * 126_976


def test_reassociation_costs_match_the_reassociate_kernel():
    from k3explainer.kernels import reassociate, reassociation_costs

    rng = np.random.default_rng(0)
    q, k = rng.random((2, 9, 3))
    v = rng.random((9, 5))
    r, c = reassociate(q, k, v), reassociation_costs(9, 3, 5)
    assert c["madds_quadratic"] == r["madds_quadratic"] and c["madds_linear"] == r["madds_linear"]
    assert c["middle_quadratic"] == r["scores"].size and c["middle_linear"] == r["state"].size
    # the causal count, counted as the masked loop does it: query t scores keys 1..t (K each) and sums their values (V each)
    assert c["madds_quadratic_causal"] == sum(t * (3 + 5) for t in range(1, 10))
    big = reassociation_costs(np.array([8, 1_048_576]), 4, 4)
    np.testing.assert_array_equal(big["middle_linear"], [16, 16])  # the state does not grow with T
    assert big["madds_quadratic"][1] == 8 * 1_048_576**2
