"""Agglomerative privacy funnel / information bottleneck (Ding & Sadeghi, ITW 2019): oracles by enumeration."""

import math

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import graphpriv as gp
from graphpriv.errors import InputError
from graphpriv.mechanisms.stochastic import funnel as F


def _xlogx(a):
    a = np.asarray(a, dtype=float)
    return np.where(a > 0, a * np.log(np.where(a > 0, a, 1.0)), 0.0)


def _partition_points(P):
    """(I(S;X̂), H(X̂)) in nats of every set partition of X (the exhaustive oracle)."""
    parts = gp.set_partitions(P.shape[1]).astype(np.int64)
    ps = P.sum(axis=1)
    nb = parts.max(axis=1) + 1
    Q = np.zeros((len(parts), P.shape[0], P.shape[1]))
    rows = np.repeat(np.arange(len(parts)), P.shape[1])
    for s in range(P.shape[0]):
        np.add.at(Q[:, s, :], (rows, parts.ravel()), np.tile(P[s], len(parts)))
    m = Q.sum(axis=1)
    I = _xlogx(Q).sum(axis=(1, 2)) - _xlogx(m).sum(axis=1) - _xlogx(ps).sum()
    H = -_xlogx(m).sum(axis=1)
    del nb
    return I, H


def _delta_direct(P, blocks, W, lam):
    """ΔL_PF of merging the blocks listed in W, from the definition (KL divergences and conditional entropy)."""
    cols = [P[:, b].sum(axis=1) for b in blocks]
    pW = sum(cols[w].sum() for w in W)
    qW = sum(cols[w] for w in W) / pW
    dI = 0.0
    for w in W:
        px = cols[w].sum()
        q = cols[w] / px
        nz = q > 0
        dI -= px * float(np.sum(q[nz] * np.log(q[nz] / qW[nz])))
    pr = np.array([cols[w].sum() for w in W]) / pW
    HW = -float(np.sum(pr * np.log(pr)))
    return dI + lam * pW * HW


def _random_P(rng, n_s, n_x):
    P = rng.random((n_s, n_x))
    return P / P.sum()


# ----------------------------------------------------------------------------- formulas
def test_delta_L_matches_the_definition():
    # ΔL(W) = -Σ p(x) D(p_{S|x} ‖ p_{S|W}) + λ p(W) H(X | X ∈ W)  (Ding & Sadeghi 2019, Sec. III)
    rng = np.random.default_rng(3)
    P = _random_P(rng, 3, 6)
    eng = F._PF(P, 0.37)
    blocks = [[i] for i in range(6)]
    for W in ([0, 1], [2, 4, 5], [0, 1, 2, 3, 4, 5]):
        assert eng.delta(np.array(W)) == pytest.approx(_delta_direct(P, blocks, W, 0.37), abs=1e-12)
    i, j, d = eng.best_pair()
    assert d == pytest.approx(_delta_direct(P, blocks, [i, j], 0.37), abs=1e-12)


def test_trace_replays_the_partition_and_records_criteria():
    jd = gp.JointDistribution.random(4, 9, seed=5)
    for method in ("greedy", "subset"):
        r = gp.privacy_funnel(jd, 0.2, method)
        tr = r.trace
        assert tr.objective == "privacy funnel" and tr.info["criterion"] == "delta_L"
        assert sorted(map(sorted, tr.quantization())) == sorted(map(sorted, r.partition))
        dl = tr.criterion("delta_L")
        np.testing.assert_allclose(dl[1:], np.diff(tr.L), atol=1e-12)
        acc = np.asarray(tr.step_accepted)
        assert (dl[1:][acc[1:]] < 0).all()
        assert gp.MergeTrace.from_json(tr.to_json()) == tr
        # the last accepted step's privacy/utility equal the release's measures
        assert tr.step_privacy[tr.returned] == pytest.approx(r.privacy, abs=1e-9)
        assert tr.step_utility[tr.returned] == pytest.approx(r.utility, abs=1e-9)


def test_paper_free_example_perfect_privacy():
    jd = gp.JointDistribution([[0.2, 0.2, 0.05, 0.05], [0.05, 0.05, 0.2, 0.2]])
    r = gp.privacy_funnel(jd, 0.2, "subset")
    assert r.privacy == pytest.approx(0.0, abs=1e-12)
    assert r.utility == pytest.approx(1.0)


# ----------------------------------------------------------------------------- oracles
@settings(max_examples=25, deadline=None)
@given(seed=st.integers(0, 10**6), n_s=st.integers(2, 4), n_x=st.integers(3, 9), lam=st.floats(0.0, 0.9))
def test_subset_step_never_worse_than_best_pair(seed, n_s, n_x, lam):
    P = _random_P(np.random.default_rng(seed), n_s, n_x)
    for eng in (F._PF(P, lam), F._IB(P, 1.0 / max(lam, 0.05))):
        for _ in range(3):
            i, j, d0 = eng.best_pair()
            if not math.isfinite(d0):          # one cluster left
                break
            W, d, _ = F._subset_step(eng, i, j, d0)
            assert d <= d0 + 1e-12
            assert d == pytest.approx(eng.delta(W), abs=1e-12)
            if d >= 0 or eng.alive.sum() <= 2:
                break
            eng.merge(W, None)


@settings(max_examples=15, deadline=None)
@given(seed=st.integers(0, 10**6), n_s=st.integers(2, 4), n_x=st.integers(3, 8), lam=st.floats(0.0, 1.0))
def test_no_funnel_point_beats_the_exhaustive_frontier(seed, n_s, n_x, lam):
    P = _random_P(np.random.default_rng(seed), n_s, n_x)
    I, H = _partition_points(P)
    Lmin = float((I - lam * H).min())
    for method in ("greedy", "subset"):
        r = gp.privacy_funnel(P, lam, method, base=math.e)
        assert r.L >= Lmin - 1e-10
        # every recorded step is a partition: none lies beyond the exhaustive frontier
        tr = r.trace
        for t in range(len(tr)):
            p, u = tr.step_privacy[t], tr.step_utility[t]
            assert not ((I < p - 1e-9) & (H > u + 1e-9)).all()
            assert ((I <= p + 1e-9) & (H >= u - 1e-9)).any()
        b = gp.information_bottleneck(P, 1.0 / max(lam, 0.05), method, base=math.e)
        assert b.L >= float((H - b.lam * I).min()) - 1e-10


def test_subset_step_against_every_subset_small():
    # at <= 12 current symbols the descent is compared with all 2^K subsets; it must be optimal often
    rng = np.random.default_rng(0)
    hits = tot = 0
    for trial in range(12):
        P = _random_P(rng, int(rng.integers(2, 5)), int(rng.integers(4, 11)))
        eng = F._PF(P, float(rng.uniform(0, 0.8)))
        slots = np.flatnonzero(eng.alive)
        K = slots.size
        masks = ((np.arange(1, 1 << K)[:, None] >> np.arange(K)) & 1).astype(bool)
        masks = masks[masks.sum(axis=1) >= 2]
        best = min(eng.delta(slots[mk]) for mk in masks)
        i, j, d0 = eng.best_pair()
        _, d, _ = F._subset_step(eng, i, j, d0)
        assert d >= best - 1e-12
        tot += 1
        hits += d <= best + 1e-12
    assert hits >= tot - 2


def test_greedy_and_subset_agree_on_lambda_extremes():
    jd = gp.JointDistribution.random(3, 7, seed=11)
    for method in ("greedy", "subset"):
        assert gp.privacy_funnel(jd, 0.0, method).n_blocks == 1          # λ = 0: merge everything (I -> 0)
        assert gp.privacy_funnel(jd, 1.0, method).n_blocks == 7          # λ >= 1: no merge lowers L
        assert gp.information_bottleneck(jd, 1.0, method).n_blocks == 1  # β <= 1: merge everything


def test_frontier_runs_one_per_lambda_and_pareto():
    jd = gp.JointDistribution.random(3, 8, seed=2)
    fr = gp.funnel_frontier(jd, [0.0, 0.2, 0.5, 1.0], method="subset")
    assert len(fr) == 4 and fr.frame["lam"].tolist() == [0.0, 0.2, 0.5, 1.0]
    for (lam, row), r in zip(fr.frame.iterrows(), fr.results):
        assert gp.privacy_funnel(jd, row["lam"], "subset").L == pytest.approx(r.L)
    par = fr.pareto()
    assert (np.diff(par["privacy"]) >= -1e-12).all() and (np.diff(par["utility"]) > 0).all()
    ib = gp.funnel_frontier(jd, objective="information bottleneck")
    assert ib.frame["lam"].min() == pytest.approx(1.0)


def test_zero_mass_symbols_stay_alone():
    P = np.array([[0.2, 0.0, 0.3, 0.1], [0.1, 0.0, 0.1, 0.2]])
    r = gp.privacy_funnel(P, 0.0, "subset")
    assert {"x2"} in [set(b) for b in r.partition]
    assert r.n_blocks == 2


def test_bad_input():
    jd = gp.JointDistribution.random(2, 3, seed=0)
    with pytest.raises(InputError, match="method"):
        gp.privacy_funnel(jd, 0.1, method="best")
    with pytest.raises(InputError, match="lam"):
        gp.privacy_funnel(jd, -1)
    with pytest.raises(InputError, match="lams is empty"):
        gp.funnel_frontier(jd, [])


@settings(max_examples=20, deadline=None)
@given(seed=st.integers(0, 10**6), n_x=st.integers(3, 20), lam=st.floats(0.0, 1.0), subset=st.booleans())
def test_row_minima_track_the_full_argmin(seed, n_x, lam, subset):
    # the engine keeps each row's best partner; it must always name the matrix's argmin (lowest pair index)
    P = _random_P(np.random.default_rng(seed), 3, n_x)
    eng = F._PF(P, lam)
    while eng.alive.sum() > 1:
        i, j, d = eng.best_pair()
        a, b = divmod(int(np.argmin(eng.D)), eng.n)
        assert (i, j) == (min(a, b), max(a, b)) and d == eng.D[a, b]
        W = F._subset_step(eng, i, j, d)[0] if subset else np.array([i, j])
        eng.merge(W, None)
