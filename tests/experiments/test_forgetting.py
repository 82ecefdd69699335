"""experiments.forgetting: the topic-switch stream, the gate schedules, recall shares, and the batched
curves against the plain loop over `delta.kda` runs (the specification)."""

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

from k3explainer.kernels import delta_rule, gated_delta_rule, kda
from k3project.experiments import (
    FORGETTING_KINDS,
    FORGETTING_MECHANISMS,
    FORGETTING_SCHEDULES,
    forgetting_curves,
    forgetting_curves_reference,
    gate_schedule,
    recall_share,
    topic_switch_stream,
)
from tests.kernels.helpers import EXACT, FAST

SMALL = dict(d_k=6, d_v=3, n_slow=2, n_tokens=14, switch_at=6, pairs=2, topic_rank=3)
alphas = st.sampled_from([0.0, 0.3, 0.5, 0.9, 1.0])
runs = st.lists(
    st.tuples(st.sampled_from(FORGETTING_MECHANISMS), alphas, st.sampled_from(FORGETTING_SCHEDULES)),
    min_size=1,
    max_size=5,
)


@FAST
@given(seed=st.integers(0, 2**32 - 1), pairs=st.integers(1, 4), rank=st.integers(1, 4), switch=st.integers(2, 12))
def test_stream_layout(seed, pairs, rank, switch):
    s = topic_switch_stream(
        seed,
        d_k=8,
        d_v=3,
        n_slow=3,
        n_tokens=16,
        switch_at=switch,
        pairs=pairs,
        topic_rank=rank,
        beta_topic=0.4,
        beta_fact=1.0,
    )
    k, v, item = s["k"], s["v"], s["item"]
    assert k.shape == (16, 8) and v.shape == (16, 3) and item.shape == (16,)
    np.testing.assert_allclose(np.linalg.norm(k, axis=1), 1, atol=1e-12)
    np.testing.assert_allclose(np.linalg.norm(v, axis=1), 1, atol=1e-12)
    assert item[0] == -1 and np.all(k[0, 3:] == 0)  # the fact: slow channels only
    assert np.all(k[1:, :3] == 0)  # every topic key: topic channels only
    assert set(item[1:switch]) <= set(range(pairs)) and set(item[switch:]) <= set(range(pairs, 2 * pairs))
    for start, stop, offset in [(1, switch, 0), (switch, 16, pairs)]:
        block = item[start:stop] - offset
        for r in range(0, len(block) - pairs + 1, pairs):  # each full round presents every pair once
            assert sorted(block[r : r + pairs]) == list(range(pairs))
    old_k, old_v = s["items"]["old"]
    for t in range(1, switch):  # tokens write the items they say they write
        np.testing.assert_array_equal(k[t], old_k[item[t]])
        np.testing.assert_array_equal(v[t], old_v[item[t]])
    assert np.linalg.matrix_rank(s["items"]["old"][0], tol=1e-9) <= rank  # a topic's keys span its subspace
    np.testing.assert_array_equal(s["beta"], [1.0] + [0.4] * 15)


def test_stream_is_seeded():
    a, b, c = (topic_switch_stream(s, **SMALL) for s in (3, 3, 4))
    np.testing.assert_array_equal(a["k"], b["k"])
    np.testing.assert_array_equal(a["v"], b["v"])
    assert not np.array_equal(a["k"], c["k"])


@pytest.mark.parametrize(
    "bad", [dict(n_slow=0), dict(n_slow=6), dict(topic_rank=5), dict(switch_at=1), dict(switch_at=14), dict(pairs=0)]
)
def test_stream_rejects_impossible_setups(bad):
    with pytest.raises(ValueError):
        topic_switch_stream(0, **{**SMALL, **bad})


def test_gate_schedules():
    kw = dict(n_tokens=5, d_k=4, n_slow=1, switch_at=2)
    assert np.all(gate_schedule("deltanet", 0.3, **kw) == 0)
    np.testing.assert_allclose(np.exp(gate_schedule("gated", 0.3, **kw)), 0.3)
    kda_every = np.exp(gate_schedule("kda", 0.3, alpha_slow=0.9, **kw))
    np.testing.assert_allclose(kda_every[:, 0], 0.9)
    np.testing.assert_allclose(kda_every[:, 1:], 0.3)
    at_switch = np.exp(gate_schedule("gated", 0.3, schedule="switch", **kw))
    np.testing.assert_allclose(at_switch[2], 0.3)
    np.testing.assert_allclose(np.delete(at_switch, 2, axis=0), 1.0)
    assert np.all(np.exp(gate_schedule("gated", 0.0, **kw)) == 0)  # α = 0: g = −inf clears
    for bad in (dict(mechanism="mamba"), dict(schedule="sometimes"), dict(alpha=1.5)):
        args = {"mechanism": "gated", "alpha": 0.5, "schedule": "every", **bad}
        with pytest.raises(ValueError):
            gate_schedule(args["mechanism"], args["alpha"], schedule=args["schedule"], **kw)


@FAST
@given(seed=st.integers(0, 2**32 - 1))
def test_recall_share_of_an_intact_memory_is_one_and_of_an_empty_one_zero(seed):
    rng = np.random.default_rng(seed)
    Q = np.linalg.qr(rng.standard_normal((5, 5)))[0]
    keys, values = Q[:3], rng.standard_normal((3, 2))  # orthonormal keys: S = Σ k vᵀ stores each pair exactly
    S = keys.T @ values
    np.testing.assert_allclose(recall_share(S, keys, values), 1, atol=1e-12)
    np.testing.assert_allclose(recall_share(0.25 * S, keys, values), 0.25, atol=1e-12)  # decay scales it
    np.testing.assert_array_equal(recall_share(np.zeros((5, 2)), keys, values), 0)
    batched = recall_share(np.stack([S, 0.5 * S]), keys, values)  # leading batch axes
    np.testing.assert_allclose(batched, [[1, 1, 1], [0.5, 0.5, 0.5]], atol=1e-12)


@FAST
@given(
    seeds=st.lists(st.integers(0, 10**6), min_size=1, max_size=3, unique=True),
    runs=runs,
    alpha_slow=st.sampled_from([1.0, 0.95]),
)
def test_batched_curves_equal_the_plain_loop(seeds, runs, alpha_slow):
    times = [0, 3, 5, 6, 9, 13]
    ref = forgetting_curves_reference(seeds, runs, times, alpha_slow=alpha_slow, **SMALL)
    fast = forgetting_curves(seeds, runs, times, alpha_slow=alpha_slow, **SMALL)
    assert fast.shape == (len(runs), len(FORGETTING_KINDS), len(times))
    np.testing.assert_allclose(fast, ref, **EXACT)


def test_reference_is_the_delta_family():
    """The reference's runs are the delta.py kernels: DeltaNet = delta_rule, gated = gated_delta_rule
    with log α on every token, and the fact's recall after its own write (β = 1) is exactly 1."""
    s = topic_switch_stream(5, **SMALL)
    T = SMALL["n_tokens"]
    _, S_delta = delta_rule(s["k"], s["k"], s["v"], s["beta"])
    _, S_gated = gated_delta_rule(s["k"], s["k"], s["v"], np.full(T, np.log(0.8)), s["beta"])
    times = [T - 1]
    got = forgetting_curves_reference([5], [("deltanet", 1.0, "every"), ("gated", 0.8, "every")], times, **SMALL)
    for r, S in enumerate((S_delta, S_gated)):
        for c, kind in enumerate(FORGETTING_KINDS):
            assert got[r, c, 0] == pytest.approx(recall_share(S, *s["items"][kind]).mean(), abs=1e-12)
    assert forgetting_curves([5], [("deltanet", 1.0, "every")], [0], **SMALL)[0, 2, 0] == pytest.approx(1, abs=1e-12)


@FAST
@given(seed=st.integers(0, 10**6), alpha=alphas)
def test_identities(seed, alpha):
    """α = 1 is DeltaNet for both gates; KDA leaves the fact exactly as DeltaNet does (its channels
    are never decayed and no topic key touches them); KDA's topic recall equals Gated DeltaNet's (the
    topics live only in the channels where the two gates agree); a switch gate changes nothing
    before the switch and scales the fact by exactly α."""
    times = list(range(SMALL["n_tokens"]))
    sw = SMALL["switch_at"]
    runs = [("deltanet", 1.0, "every")] + [
        (m, a, sc) for sc in FORGETTING_SCHEDULES for m in ("gated", "kda") for a in (alpha, 1.0)
    ]
    r = {run: curve for run, curve in zip(runs, forgetting_curves([seed], runs, times, **SMALL), strict=True)}
    plain = r[("deltanet", 1.0, "every")]
    fact = FORGETTING_KINDS.index("fact")
    for sc in FORGETTING_SCHEDULES:
        for m in ("gated", "kda"):
            np.testing.assert_allclose(r[(m, 1.0, sc)], plain, **EXACT)
        np.testing.assert_allclose(r[("kda", alpha, sc)][fact], plain[fact], **EXACT)
        np.testing.assert_allclose(r[("kda", alpha, sc)][:fact], r[("gated", alpha, sc)][:fact], **EXACT)
    np.testing.assert_allclose(plain[fact], 1, **EXACT)
    switch = r[("gated", alpha, "switch")]
    np.testing.assert_allclose(switch[:, :sw], plain[:, :sw], **EXACT)
    np.testing.assert_allclose(switch[fact, sw:], alpha, **EXACT)
    np.testing.assert_allclose(r[("gated", alpha, "every")][fact], alpha ** np.arange(len(times)), **EXACT)


def test_per_channel_gate_equal_on_every_channel_is_the_scalar_gate():
    """KDA with alpha_slow = α on the fact channels too is Gated DeltaNet, run for run."""
    times = [2, 7, 13]
    a = forgetting_curves([1, 2], [("kda", 0.7, "every"), ("kda", 0.7, "switch")], times, alpha_slow=0.7, **SMALL)
    b = forgetting_curves([1, 2], [("gated", 0.7, "every"), ("gated", 0.7, "switch")], times, **SMALL)
    np.testing.assert_allclose(a, b, **EXACT)


def test_kda_kernel_is_what_the_batched_step_computes():
    """One run checked against delta.kda's own trace, state by state."""
    s = topic_switch_stream(9, **SMALL)
    g = gate_schedule("kda", 0.6, n_tokens=14, d_k=6, n_slow=2, switch_at=6, schedule="every")
    _, _, tr = kda(s["k"], s["k"], s["v"], g, s["beta"], trace=True)
    got = forgetting_curves([9], [("kda", 0.6, "every")], list(range(14)), **SMALL)[0]
    want = np.array([[recall_share(S, *s["items"][kind]).mean() for S in tr["state"]] for kind in FORGETTING_KINDS])
    np.testing.assert_allclose(got, want, **EXACT)


@pytest.mark.parametrize("times", [[], [3, 3], [5, 2], [-1], [14]])
def test_times_must_be_increasing_steps(times):
    with pytest.raises(ValueError):
        forgetting_curves([0], [("deltanet", 1.0, "every")], times, **SMALL)
