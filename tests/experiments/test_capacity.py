"""experiments.capacity (FIG 06b): the fast sweep equals the per-n reference built from the article's
kernels; the reference itself is the store-then-read protocol; and the identities a capacity
experiment must satisfy (one pair is recalled exactly, orthogonal keys do not interfere, decay
fades a pair by αᵃ, softmax over a cache of one pair returns it, the memory counts)."""

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

from k3explainer.kernels import l2_normalize, softmax
from k3project.experiments import (
    Memory,
    age_profile,
    memory_elements,
    recall_errors_reference,
    recall_reference,
    recall_sweep,
    relative_errors,
)
from tests.kernels.helpers import FAST

MEMORIES = [
    Memory("additive"),
    Memory("delta", beta=1.0),
    Memory("delta", beta=0.5),
    Memory("delta", beta=1.0, alpha=0.9),
    Memory("delta", beta=0.7, alpha=0.5),
    Memory("softmax", scale=3.0),
]


def pairs(seed, S, N, K, V):
    rng = np.random.default_rng(seed)
    return l2_normalize(rng.standard_normal((S, N, K))), rng.standard_normal((S, N, V))


@st.composite
def grids(draw):
    N = draw(st.integers(1, 24))
    ns = sorted(draw(st.sets(st.integers(1, N), min_size=1, max_size=6)) | {N})
    return N, ns


@FAST
@given(seed=st.integers(0, 2**32 - 1), grid=grids(), K=st.integers(1, 6), V=st.integers(1, 4))
def test_sweep_equals_the_per_n_reference(seed, grid, K, V):
    """Every memory, every seed, every n on any grid: the chunked, batched sweep gives the errors of
    the plain loop that rebuilds each memory from scratch with linear_attention / delta_rule /
    gated_delta_rule / softmax."""
    N, ns = grid
    keys, values = pairs(seed, 2, N, K, V)
    swept = recall_sweep(keys, values, MEMORIES, ns)
    assert [e.shape for e in swept] == [(len(MEMORIES), 2, n) for n in ns]
    for m, memory in enumerate(MEMORIES):
        for s in range(2):
            for g, ref in enumerate(recall_errors_reference(keys[s], values[s], memory, ns)):
                np.testing.assert_allclose(swept[g][m, s], ref, rtol=1e-10, atol=1e-10)


def plain_store_then_read(keys, values, memory):
    """The experiment written out once more, independently of the article's kernels."""
    K, V = keys.shape[1], values.shape[1]
    if memory.kind == "softmax":
        return np.array([softmax(memory.scale * (keys @ k)) @ values for k in keys])
    S = np.zeros((K, V))
    for k, v in zip(keys, values, strict=True):
        S = memory.alpha * S
        S = S + memory.beta * np.outer(k, v - (S.T @ k if memory.kind == "delta" else 0))
    return keys @ S


@FAST
@given(seed=st.integers(0, 2**32 - 1), n=st.integers(1, 12), K=st.integers(1, 5))
def test_reference_is_store_then_read(seed, n, K):
    keys, values = pairs(seed, 1, n, K, 3)
    for memory in MEMORIES:
        np.testing.assert_allclose(
            recall_reference(keys[0], values[0], memory),
            plain_store_then_read(keys[0], values[0], memory),
            rtol=1e-12,
            atol=1e-12,
        )


def test_one_pair_is_recalled_exactly_except_by_a_partial_write():
    k, v = l2_normalize(np.array([[0.3, -1.2, 0.5]])), np.array([[2.0, -1.0]])
    for memory in MEMORIES:
        err = relative_errors(recall_reference(k, v, memory), v)[0]
        assert err == pytest.approx(1 - memory.beta if memory.kind == "delta" else 0.0, abs=1e-12), memory


def test_orthogonal_keys_are_recalled_without_interference():
    """d orthonormal keys fit a d×d state exactly under the additive rule and the delta rule (β = 1);
    a partial write leaves each pair at 1 − β; a decay leaves pair i at α^(n−1−i)."""
    d = 5
    keys = np.linalg.qr(np.random.default_rng(3).standard_normal((d, d)))[0]
    values = np.random.default_rng(4).standard_normal((d, 3))
    errs = lambda m: relative_errors(recall_reference(keys, values, m), values)
    np.testing.assert_allclose(errs(Memory("additive")), 0, atol=1e-12)
    np.testing.assert_allclose(errs(Memory("delta")), 0, atol=1e-12)
    np.testing.assert_allclose(errs(Memory("delta", beta=0.5)), 0.5, atol=1e-12)
    age = np.arange(d)[::-1]
    np.testing.assert_allclose(errs(Memory("delta", alpha=0.8)), 1 - 0.8**age, atol=1e-12)


def test_additive_interference_is_the_gram_matrix():
    """Additive: the read of k_i is Σ_j (k_i·k_j) v_j, so its error is the crosstalk of the others."""
    keys, values = pairs(7, 1, 9, 4, 3)
    reads = recall_reference(keys[0], values[0], Memory("additive"))
    np.testing.assert_allclose(reads, keys[0] @ keys[0].T @ values[0], atol=1e-12)


def test_a_repeated_key_is_overwritten_by_the_delta_rule_and_summed_by_the_additive_memory():
    k = l2_normalize(np.array([[1.0, 2.0, 0.0], [1.0, 2.0, 0.0]]))
    v = np.array([[1.0, 0.0], [0.0, 1.0]])
    np.testing.assert_allclose(recall_reference(k, v, Memory("delta")), [[0, 1], [0, 1]], atol=1e-12)
    np.testing.assert_allclose(recall_reference(k, v, Memory("additive")), [[1, 1], [1, 1]], atol=1e-12)


def test_a_very_sharp_softmax_over_distinct_keys_is_exact():
    keys, values = pairs(11, 1, 12, 6, 3)
    reads = recall_reference(keys[0], values[0], Memory("softmax", scale=1e4))
    np.testing.assert_allclose(reads, values[0], atol=1e-9)


def test_softmax_sharper_recalls_better():
    keys, values = pairs(5, 4, 32, 8, 8)
    blunt, sharp = (recall_sweep(keys, values, [Memory("softmax", scale=s)], [32])[0].mean() for s in (2.0, 8.0))
    assert sharp < blunt


def test_sweep_accepts_only_memories_it_knows_and_grids_inside_the_sequence():
    keys, values = pairs(0, 1, 4, 3, 2)
    with pytest.raises(ValueError):
        recall_sweep(keys, values, [Memory("lstm")], [4])
    with pytest.raises(ValueError):
        recall_sweep(keys, values, [Memory("delta", alpha=1.5)], [4])
    with pytest.raises(ValueError):
        recall_sweep(keys, values, [Memory("additive", beta=0.5)], [4])
    for ns in ([0, 4], [3, 2], [5], []):
        with pytest.raises(ValueError):
            recall_sweep(keys, values, [Memory("delta")], ns)


def test_memory_kept_is_d_squared_for_a_state_and_2nd_for_the_cache():
    n = np.array([1, 8, 16, 64])
    for memory in MEMORIES[:-1]:
        assert list(memory_elements(memory, n, 16)) == [256] * 4
    assert list(memory_elements(Memory("softmax"), n, 16)) == list(2 * n * 16)
    assert memory_elements(Memory("softmax"), 8, 16) == 256  # the cache equals the state at n = d/2


@given(n=st.integers(1, 60), groups=st.integers(1, 12))
def test_age_profile_groups_every_pair_once_oldest_first(n, groups):
    errors = np.random.default_rng(n).random((3, n))
    starts, means = age_profile(errors, groups)
    g = min(n, groups)
    assert len(starts) == g and starts[0] == 0 and np.all(np.diff(starts) > 0)
    sizes = np.diff(np.r_[starts, n])
    assert sizes.max() - sizes.min() <= 1 and np.all(np.diff(sizes) <= 0)  # near-equal, larger ones first
    np.testing.assert_allclose(
        means, [[errors[m, s : s + z].mean() for s, z in zip(starts, sizes, strict=True)] for m in range(3)]
    )
    np.testing.assert_allclose((means * sizes).sum(-1), errors.sum(-1))
