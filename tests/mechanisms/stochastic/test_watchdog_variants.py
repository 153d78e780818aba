"""Subset-merging watchdog (Zarrabian et al., ICASSP 2022) and the α-lift watchdog (Ding, Zarrabian & Sadeghi)."""

import math

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import graphpriv as gp
from graphpriv.errors import InputError, InputTypeError


def _random_P(seed, n_s, n_x):
    P = np.random.default_rng(seed).random((n_s, n_x)) ** 3      # cubes: more spread lifts, more high-risk symbols
    return P / P.sum()


def _eps_of_block(P, block):
    col = P[:, block].sum(axis=1)
    ps = P.sum(axis=1)
    with np.errstate(divide="ignore"):
        return float(np.abs(np.log(col / (ps * col.sum()))).max())


def _H(P, blocks):
    m = np.array([P[:, b].sum() for b in blocks])
    m = m[m > 0]
    return float(-(m * np.log(m)).sum())


# ----------------------------------------------------------------------------- subset watchdog
def test_subset_watchdog_example_and_trace():
    P = np.random.default_rng(7).exponential(size=(4, 8)); P /= P.sum()
    r = gp.watchdog_subsets(P, 1.0)
    w = gp.watchdog(P, 1.0)
    np.testing.assert_array_equal(r.published, w.published)          # the same high-risk set X_eps^c
    assert r.complete_merge_mutual_information == pytest.approx(w.mutual_information)
    assert r.complete_merge_eps == pytest.approx(w.eps_c)
    assert sorted(x for s in r.subsets for x in s) == np.flatnonzero(w.randomized).tolist()
    assert all(e <= 1.0 + 1e-12 for e in r.subset_eps)
    assert r.mutual_information > r.complete_merge_mutual_information      # 1.3619 > 0.8734 nats
    tr = r.trace
    assert tr.objective == "watchdog subset" and tr.info["criterion"] == "subset_max_abs_log_lift"
    assert sorted(map(sorted, tr.quantization())) == sorted(map(sorted, r.partition))
    assert tr.step_utility[-1] == pytest.approx(r.mutual_information)
    assert gp.MergeTrace.from_json(tr.to_json()) == tr


@settings(max_examples=40, deadline=None)
@given(seed=st.integers(0, 10**6), n_s=st.integers(2, 4), n_x=st.integers(2, 9), eps=st.floats(0.05, 2.0))
def test_subset_watchdog_vs_complete_merge_and_partitions(seed, n_s, n_x, eps):
    P = _random_P(seed, n_s, n_x)
    r = gp.watchdog_subsets(P, eps)
    w = gp.watchdog(P, eps)
    high = np.flatnonzero(w.randomized)
    # a partition of X_eps^c, published symbols untouched
    assert sorted(x for s in r.subsets for x in s) == high.tolist()
    # never below complete merging in utility (a refinement of {X_eps^c})
    assert r.mutual_information >= w.mutual_information - 1e-12
    assert r.mutual_information == pytest.approx(_H(P, r.blocks), abs=1e-12)
    # within eps wherever the complete merge is
    if w.eps_eff <= eps + 1e-12:
        assert r.eps_eff <= eps + 1e-9
    # every subset is private unless it is the whole of X_eps^c (nothing left to fuse with)
    for s, e in zip(r.subsets, r.subset_eps):
        assert e == pytest.approx(_eps_of_block(P, list(s)), abs=1e-9)
        assert e <= eps + 1e-9 or len(r.subsets) == 1
    # oracle: among all partitions of X_eps^c whose blocks are private, none is ... (utility upper bound)
    if 0 < high.size <= 7:
        parts = gp.set_partitions(high.size)
        best = -np.inf
        for a in parts:
            blocks = [high[a == k].tolist() for k in range(a.max() + 1)]
            if all(_eps_of_block(P, b) <= eps + 1e-12 for b in blocks):
                best = max(best, _H(P, blocks + [[i] for i in np.flatnonzero(w.published)]))
        if np.isfinite(best):
            assert r.mutual_information <= best + 1e-12


def test_subset_watchdog_no_high_risk_and_bad_input():
    P = np.full((2, 3), 1 / 6)
    r = gp.watchdog_subsets(P, 0.1)
    assert r.subsets == () and r.published.all() and len(r.trace) == 1
    with pytest.raises(InputError):
        gp.watchdog_subsets(P, -1.0)


# ----------------------------------------------------------------------------- alpha-lift
@settings(max_examples=40, deadline=None)
@given(seed=st.integers(0, 10**6), n_s=st.integers(2, 4), n_x=st.integers(2, 7),
       alpha=st.sampled_from([0.3, 0.5, 2.0, 3.5, 10.0]))
def test_sibson_identity(seed, n_s, n_x, alpha):
    # I_α(S;X) = α/(α-1)·log E_X[ℓ_α(X)]  (Ding, Zarrabian & Sadeghi; Sibson's identity)
    P = _random_P(seed, n_s, n_x)
    lam = gp.alpha_lift(P, alpha)
    px = P.sum(axis=0)
    rhs = alpha / (alpha - 1) * math.log(float(px @ lam))
    assert gp.sibson_mutual_information(P, alpha, base=math.e) == pytest.approx(rhs, rel=1e-9, abs=1e-12)
    # = α/(α-1) log Σ_x (Σ_s p(s) p(x|s)^α)^{1/α}
    ps = P.sum(axis=1)
    direct = alpha / (alpha - 1) * math.log(float((((ps[:, None] * (P / ps[:, None]) ** alpha).sum(axis=0)) ** (1 / alpha)).sum()))
    assert rhs == pytest.approx(direct, rel=1e-9, abs=1e-12)


def test_sibson_identity_against_dit():
    dit = pytest.importorskip("dit")
    P = _random_P(4, 3, 4)
    d = dit.Distribution([f"{s}{x}" for s in range(3) for x in range(4)], P.ravel().tolist())
    px = P.sum(axis=0)
    for alpha in (0.5, 2.0, 4.0):
        ours = alpha / (alpha - 1) * math.log2(float(px @ gp.alpha_lift(P, alpha)))
        assert ours == pytest.approx(dit.other.sibson_mutual_information(d, [0], [1], alpha), abs=1e-7)


@settings(max_examples=40, deadline=None)
@given(seed=st.integers(0, 10**6), n_s=st.integers(2, 4), n_x=st.integers(2, 8),
       alpha=st.sampled_from([0.5, 1.0, 2.0, 5.0, math.inf]), eps=st.floats(0.0, 1.5))
def test_alpha_watchdog_published_set(seed, n_s, n_x, alpha, eps):
    P = _random_P(seed, n_s, n_x)
    r = gp.alpha_watchdog(P, eps, alpha)
    lam = gp.alpha_lift(P, alpha)
    np.testing.assert_array_equal(r.published, lam <= math.exp(eps) * (1 + 1e-12))
    if alpha <= 1:
        assert r.published.all()                        # power mean <= arithmetic mean of lifts = 1
    if r.randomized.any():
        Q = np.concatenate([P[:, r.randomized].sum(axis=1, keepdims=True), P[:, r.published]], axis=1)
        assert r.merged_log_alpha_lift == pytest.approx(math.log(gp.alpha_lift(Q, alpha)[0]), abs=1e-9)
        assert r.mutual_information == pytest.approx(_H(P, r.blocks), abs=1e-12)
        if alpha != 1:
            assert r.sibson == pytest.approx(gp.sibson_mutual_information(Q, alpha, base=math.e), rel=1e-7, abs=1e-10)
    assert sorted(map(sorted, r.trace.quantization())) == sorted(map(sorted, r.partition))


@settings(max_examples=30, deadline=None)
@given(seed=st.integers(0, 10**6), n_x=st.integers(2, 8), eps=st.floats(0.0, 1.5))
def test_alpha_inf_is_one_sided_max_lift_watchdog(seed, n_x, eps):
    P = _random_P(seed, 3, n_x)
    r = gp.alpha_watchdog(P, eps, math.inf)
    lift = gp.JointDistribution(P).lift()
    np.testing.assert_array_equal(r.randomized, lift.max(axis=0) > math.exp(eps) * (1 + 1e-12))
    two = gp.watchdog(P, eps)
    assert not (r.randomized & ~two.randomized).any()      # one-sided protects a subset of two-sided


def test_alpha_lift_values_and_bad_input():
    jd = gp.JointDistribution([[0.25, 0.25], [0.0, 0.5]])
    np.testing.assert_allclose(gp.alpha_lift(jd, math.inf), [2.0, 4 / 3])
    np.testing.assert_allclose(gp.alpha_lift(jd, 1.0), [1.0, 1.0])
    # α = 2: ℓ_2(x1) = sqrt(0.5·2^2 + 0.5·0^2) = sqrt(2)
    assert gp.alpha_lift(jd, 2.0)[0] == pytest.approx(math.sqrt(2))
    assert gp.alpha_lift(jd, 500.0)[0] == pytest.approx(2.0, rel=2e-3)
    with pytest.raises(InputError):
        gp.alpha_lift(jd, 0)
    with pytest.raises(InputTypeError):
        gp.alpha_lift(jd, "two")
    with pytest.raises(InputError):
        gp.alpha_watchdog(jd, -0.5, 2.0)


def _joint_of(P, blocks):
    return np.stack([P[:, sorted(b)].sum(axis=1) for b in blocks], axis=1)


@settings(max_examples=25, deadline=None)
@given(seed=st.integers(0, 10**6), n_x=st.integers(2, 9), eps=st.floats(0.05, 1.5))
def test_trace_scalars_are_the_partition_measures_at_every_step(seed, n_x, eps):
    # the incremental bookkeeping of both traces against a recomputation from the replayed partition Q(t)
    P = _random_P(seed, 3, n_x)
    jd = gp.JointDistribution(P)
    index = {lab: i for i, lab in enumerate(jd.public_labels.tolist())}
    for r, kind in ((gp.watchdog_subsets(jd, eps), "abs"), (gp.alpha_watchdog(jd, eps, 2.0), "alpha")):
        tr = r.trace
        for t in range(len(tr)):
            blocks = [[index[v] for v in b] for b in tr.quantization(t)]
            Q = _joint_of(P, blocks)
            assert tr.step_utility[t] == pytest.approx(_H(P, blocks), abs=1e-12)
            if kind == "abs":
                want = max(_eps_of_block(P, b) for b in blocks)
            else:
                want = float(np.log(gp.alpha_lift(Q, 2.0)).max())
            assert tr.step_privacy[t] == pytest.approx(want, abs=1e-9)


def test_watchdog_keywords_select_the_variants():
    """gp.watchdog(..., merge="subset") and gp.watchdog(..., alpha=) are the subset-merging and α-lift watchdogs."""
    import math

    import graphpriv as gp
    from graphpriv.errors import InputError

    jd = gp.JointDistribution(_random_P(3, 4, 9))
    sub, alp = gp.watchdog(jd, 0.5, merge="subset"), gp.watchdog(jd, 0.5, alpha=math.inf)
    assert sub.partition == gp.watchdog_subsets(jd, 0.5).partition
    assert alp.partition == gp.alpha_watchdog(jd, 0.5, math.inf).partition
    assert gp.watchdog(jd, 0.5, alpha=2.0, base=2).partition == gp.alpha_watchdog(jd, 0.5, 2.0, base=2).partition
    for bad in ({"merge": "some"}, {"merge": "subset", "alpha": 2.0}, {"merge": "subset", "R": "uniform"}):
        with pytest.raises(InputError):
            gp.watchdog(jd, 0.5, **bad)
