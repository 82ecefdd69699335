"""experiments.depth: the batched stack equals the token-by-token specification, the attention path
equals the existing Block AttnRes kernel with one block per layer, and the identities FIG 12b's
prose leans on hold (the plain input is the unrolled sum; shares sum to one; an attention-residual
input is never larger than its largest source; the aimed query has the asked-for length)."""

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

from k3explainer.kernels import attention_residual, block_attention_residuals, residual_shares, rms_norm
from k3project.experiments import (
    depth_experiment,
    depth_experiment_naive,
    depth_shares,
    mlp_sublayer,
    residual_stack,
    residual_stack_naive,
    retrieval_query,
    stream_rms,
)
from tests.kernels.helpers import EXACT, FAST

CLOSE = dict(rtol=1e-12, atol=1e-12)  # two orders of the same float64 sums


def stack(seed, T=3, D=5, F=7, L=6, query_norm=2.0):
    """Seeded inputs shaped like the builder's: embedding [T, D], W_in [L, D, F], W_out [L, F, D],
    queries [L, D] of norm query_norm, RMSNorm weight [D]."""
    rng = np.random.default_rng(seed)
    e = rng.standard_normal((T, D))
    w_in = rng.standard_normal((L, D, F)) / np.sqrt(D)
    w_out = rng.standard_normal((L, F, D)) * 1.5 / np.sqrt(F)
    q = rng.standard_normal((L, D))
    q *= query_norm / np.linalg.norm(q, axis=1, keepdims=True)
    return e, w_in, w_out, q, rng.uniform(0.5, 2.0, D)


sizes = dict(
    seed=st.integers(0, 10_000), T=st.integers(1, 4), D=st.integers(2, 6), F=st.integers(1, 6), L=st.integers(1, 7)
)


@FAST
@given(**sizes)
def test_batched_stack_equals_the_token_by_token_specification(seed, T, D, F, L):
    args = stack(seed, T, D, F, L)
    fast, naive = residual_stack(*args), residual_stack_naive(*args)
    assert fast.keys() == naive.keys()
    for k in naive:
        np.testing.assert_allclose(fast[k], naive[k], **CLOSE, err_msg=k)


@FAST
@given(**sizes, target=st.integers(1, 3), data=st.data())
def test_batched_experiment_equals_the_specification(seed, T, D, F, L, target, data):
    L = max(L, target + 1)
    depths = data.draw(st.lists(st.integers(target + 1, L), min_size=1, max_size=4, unique=True))
    args = stack(seed, T, D, F, L)
    kw = dict(depths=depths, target=target, probe_norm=3.0)
    fast, naive = depth_experiment(*args, **kw), depth_experiment_naive(*args, **kw)
    # the aimed probe normalises a mean of a few outputs; with 2 tokens in 2 or 3 dims that mean can
    # nearly cancel, and the two summation orders then agree to ~1e-11, not 1e-12 — in the probe
    # and in everything the aimed rule computes from it (seen: shares 3e-12 apart at seed 269, D = 2)
    near = dict(rtol=1e-9, atol=1e-10)
    for rule in ("plain", "random", "aligned"):
        tol = near if rule == "aligned" else CLOSE
        np.testing.assert_allclose(fast[rule]["rms"], naive[rule]["rms"], **tol)
        for key in ("weights", "shares"):
            assert [len(x) for x in fast[rule][key]] == depths
            for a, b in zip(fast[rule][key], naive[rule][key], strict=True):
                np.testing.assert_allclose(a, b, **tol, err_msg=f"{rule}.{key}")
    for key in ("embedding_rms", "source_rms", "plain_source_rms"):
        np.testing.assert_allclose(fast[key], naive[key], **CLOSE, err_msg=key)
    np.testing.assert_allclose(fast["query"], naive["query"], **near, err_msg="query")


def test_attention_path_is_block_attnres_with_one_block_per_layer():
    """The existing kernel, with callables f_l(h) = MLP_l(RMSNorm(h)), reads the same inputs."""
    e, w_in, w_out, q, g = stack(4, T=3, D=6, F=5, L=8)
    layers = [lambda h, a=a, b=b: mlp_sublayer(rms_norm(h, g), a, b) for a, b in zip(w_in, w_out, strict=True)]
    ref = block_attention_residuals(e, layers, q, g, block_size=1)
    got = residual_stack(e, w_in, w_out, q, g)
    np.testing.assert_allclose(got["attn_inputs"], ref["inputs"], **CLOSE)
    np.testing.assert_allclose(got["attn_sources"], ref["sources"], **CLOSE)
    for l, w in enumerate(ref["weights"]):
        np.testing.assert_allclose(got["attn_weights"][l, : l + 1], w, **CLOSE)
        assert not got["attn_weights"][l, l + 1 :].any()  # nothing above the reading layer


def test_plain_input_is_the_embedding_plus_every_earlier_output():
    """h_l = e + f_1 + … + f_{l−1}: the unrolled sum, each term with coefficient one."""
    r = residual_stack(*stack(5, L=9))
    np.testing.assert_allclose(r["plain_inputs"], np.cumsum(r["plain_sources"], axis=0)[:-1], **CLOSE)


def test_layer_one_reads_the_embedding_under_both_rules():
    e, *rest = stack(6, L=3)
    r = residual_stack(e, *rest)
    np.testing.assert_allclose(r["plain_inputs"][0], e, **EXACT)
    np.testing.assert_allclose(r["attn_inputs"][0], e, **EXACT)
    np.testing.assert_allclose(r["attn_weights"][0, 0], 1.0, **EXACT)
    np.testing.assert_allclose(r["attn_sources"][1], r["plain_sources"][1], **EXACT)  # same layer 1 output


def test_zero_queries_read_the_plain_mean_of_the_sources():
    e, w_in, w_out, q, g = stack(7, L=5)
    r = residual_stack(e, w_in, w_out, np.zeros_like(q), g)
    for l in range(5):
        np.testing.assert_allclose(r["attn_inputs"][l], r["attn_sources"][: l + 1].mean(axis=0), **CLOSE)


@FAST
@given(**sizes)
def test_a_shallower_stack_is_a_prefix_of_a_deeper_one(seed, T, D, F, L):
    """Layer l never looks ahead: the first k layers of an L-layer stack are the k-layer stack."""
    e, w_in, w_out, q, g = stack(seed, T, D, F, L + 2)
    deep, shallow = residual_stack(e, w_in, w_out, q, g), residual_stack(e, w_in[:L], w_out[:L], q[:L], g)
    for k in shallow:
        cut = deep[k][: shallow[k].shape[0]]
        if k == "attn_weights":
            cut = cut[:, :L]
        np.testing.assert_allclose(cut, shallow[k], **EXACT, err_msg=k)


@FAST
@given(seed=st.integers(0, 10_000), T=st.integers(1, 4), D=st.integers(2, 6), L=st.integers(1, 7))
def test_an_attention_residual_input_is_never_larger_than_its_largest_source(seed, T, D, L):
    """A convex combination: ‖Σ α_i v_i‖ ≤ max_i ‖v_i‖ per token, so its RMS is too."""
    r = residual_stack(*stack(seed, T, D, 4, L, query_norm=5.0))
    for l in range(L):
        biggest = stream_rms(r["attn_sources"][: l + 1]).max(axis=0)  # [T]
        assert np.all(stream_rms(r["attn_inputs"][l]) <= biggest * (1 + 1e-12))


@FAST
@given(seed=st.integers(0, 10_000), S=st.integers(1, 6), T=st.integers(1, 3), D=st.integers(1, 5))
def test_shares_sum_to_one(seed, S, T, D):
    rng = np.random.default_rng(seed)
    src, c = rng.standard_normal((S, T, D)), rng.uniform(0.1, 2.0, (S, T))
    np.testing.assert_allclose(depth_shares(src, c).sum(axis=0), 1.0, rtol=0, atol=1e-9)


def test_shares_of_orthogonal_terms_are_their_squared_norms():
    src = np.array([[3.0, 0.0, 0.0], [0.0, 1.0, 0.0], [0.0, 0.0, 2.0]])  # [S = 3, D]
    c = np.array([1.0, 2.0, 0.5])
    np.testing.assert_allclose(depth_shares(src, c), np.array([9.0, 4.0, 1.0]) / 14.0, **EXACT)
    np.testing.assert_allclose(depth_shares(src, np.ones(3)), np.array([9.0, 1.0, 4.0]) / 14.0, **EXACT)


def test_a_term_against_the_rest_has_a_negative_share():
    src = np.array([[2.0, 0.0], [-0.5, 0.0], [0.0, 1.0]])
    s = depth_shares(src, np.ones(3))
    assert s[1] < 0 and s.sum() == pytest.approx(1.0)


def test_the_aimed_query_has_the_asked_length_and_finds_a_shared_direction():
    rng = np.random.default_rng(8)
    T, D = 5, 16
    direction = rng.standard_normal(D)
    target = 3.0 * direction + 0.3 * rng.standard_normal((T, D))  # every token's output shares a direction
    w = retrieval_query(target, np.ones(D), 4.0)
    assert np.linalg.norm(w) == pytest.approx(4.0, rel=1e-12)
    assert np.dot(w, direction) / (4.0 * np.linalg.norm(direction)) > 0.99
    others = rng.standard_normal((6, T, D))
    _, a = attention_residual(np.concatenate([others[:2], target[None], others[2:]]), w, np.ones(D))
    assert np.all(a.argmax(axis=0) == 2)  # for every token the aimed-at source wins


def test_plain_weights_are_the_equal_shares_and_every_weight_list_sums_to_one():
    r = depth_experiment(*stack(9, L=10), depths=[2, 5, 10], target=1, probe_norm=3.0)
    for j, l in enumerate([2, 5, 10]):
        np.testing.assert_allclose(r["plain"]["weights"][j], residual_shares(l - 1), **EXACT)
        for rule in ("plain", "random", "aligned"):
            assert r[rule]["weights"][j].sum() == pytest.approx(1.0, abs=1e-12)
            assert r[rule]["shares"][j].sum() == pytest.approx(1.0, abs=1e-12)


def test_the_plain_stream_grows_and_the_attention_input_does_not():
    """FIG 12b's setting in small: outputs about the embedding's size make ‖h_l‖² grow about linearly."""
    r = depth_experiment(*stack(10, T=8, D=32, F=64, L=40), depths=[2, 10, 40], target=1, probe_norm=4.0)
    assert np.all(np.diff(r["plain"]["rms"]) > 0)
    assert r["plain"]["rms"][-1] > 3 * r["plain"]["rms"][0]
    assert r["random"]["rms"].max() <= r["source_rms"].max() and r["aligned"]["rms"].max() <= r["source_rms"].max()


def test_reading_layers_must_follow_the_target_and_fit_the_stack():
    args = stack(11, L=4)
    for bad in ([1], [5], [0, 2]):
        with pytest.raises(ValueError, match="reading layer"):
            depth_experiment(*args, depths=bad, target=1, probe_norm=1.0)
    with pytest.raises(ValueError):
        depth_experiment_naive(*args, depths=[2], target=2, probe_norm=1.0)


def test_mlp_sublayer_is_silu_between_two_maps():
    x = np.array([[1.0, -2.0]])
    w_in, w_out = np.array([[1.0, 0.0, 2.0], [0.0, 1.0, 1.0]]), np.arange(6.0).reshape(3, 2)
    h = x @ w_in  # [1, −2, 0]
    np.testing.assert_allclose(mlp_sublayer(x, w_in, w_out), (h / (1 + np.exp(-h))) @ w_out, **EXACT)
