"""Algorithm 2 with U2 (Ding & Farokhi, *Developing Non-Stochastic Privacy-Preserving Policies Using
Agglomerative Clustering*, Section V-B, eq. (8)): the singletons' first partners found in value order
(two windows at the distance of the nearest value of another component) equal those of the full scan
of all |X|^2 pairs, and whole trajectories equal the plain reference, on ranges with ties and repeated values;
the same for Algorithm 1's U2 partners (Section V-A, step 7), searched in a window of cluster minima."""

import os
import sys

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import graphpriv as gp
from graphpriv.mechanisms.quantization.algorithm2 import _SmallestPairByCost
from graphpriv.mechanisms.quantization.contraction import Contraction
from graphpriv.mechanisms.quantization.problem import _Problem

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__)))))  # tests/: the reference implementations
from reference_agglomerative import ref_from_range  # noqa: E402
from test_mechanisms_agglomerative import _fast_steps, _same  # noqa: E402


def _one_or_two_each(draw, n_x: int, n_s: int):
    """A joint range of n_x public values, each with one or two of n_s sensitive values."""
    sens, pub = [], []
    for j in range(n_x):
        for s in sorted(draw(st.sets(st.integers(0, n_s - 1), min_size=1, max_size=min(2, n_s)))):
            sens.append(f"s{s}")
            pub.append(f"x{j}")
    return gp.JointRange.from_pairs(sens, pub)


@st.composite
def ranges(draw, max_x=40):
    n_x = draw(st.integers(2, max_x))
    jr = _one_or_two_each(draw, n_x, draw(st.integers(1, max(1, n_x // 2))))
    grid = draw(st.sampled_from([2, 8, 1000]))               # 2: many equal values; 1000: few ties
    scale = draw(st.sampled_from([0.25, 1.0, 1e6]))
    vals = {x: draw(st.integers(0, grid)) * scale for x in jr.public_labels.tolist()}
    return jr, vals


def _index(jr, vals, utility, window: bool):
    prob = _Problem(jr, "I*", utility, vals, 2)
    if window:
        return _SmallestPairByCost(Contraction._from_problem(prob))
    ix = _SmallestPairByCost.__new__(_SmallestPairByCost)    # the full scan, as before the windows
    c = Contraction._from_problem(prob)
    n = prob.n
    ix.c, ix.n, ix.comp = c, n, c.component_array()
    ix.bp, ix.bq = np.full(n, -1, dtype=np.int64), np.full(n, np.inf)
    ix.ver, ix.gen, ix.bgen = (np.zeros(n, dtype=np.int64) for _ in range(3))
    ix.heap = []
    ix.window = None
    ix._recompute(np.arange(n))
    return ix


@settings(max_examples=80, deadline=None)
@given(ranges(), st.sampled_from(["U2", "U2sq"]))
def test_window_partners_equal_full_scan(inst, utility):
    jr, vals = inst
    ut = gp.U2(distance="squared") if utility == "U2sq" else "U2"
    w, full = _index(jr, vals, ut, True), _index(jr, vals, ut, False)
    assert w.bp.tolist() == full.bp.tolist()
    assert w.bq.tolist() == full.bq.tolist()
    assert sorted(w.heap) == sorted(full.heap)


@pytest.mark.parametrize("objective,algorithm", [("I*", "alg2"), ("L0", "alg1")])
@settings(max_examples=30, deadline=None)
@given(ranges(max_x=14), st.sampled_from([None, 0.0, 0.5]), st.booleans())
def test_trajectory_equals_reference(objective, algorithm, inst, lam, squared):
    """Algorithm 2 (I*) and Algorithm 1 (L0) with U2: the fast trajectory equals the plain reference."""
    jr, vals = inst
    ut = gp.U2(distance="squared") if squared else "U2"
    ref = getattr(ref_from_range(jr, vals, squared=squared), algorithm)
    _same(_fast_steps(jr, objective, ut, vals, lam), ref(lam), lam)


def test_hungarian_full_trajectory_equals_reference():
    """Paper 003's Hungarian data (S = age, X = cholesterol), λ-free U2 trajectory (one large component
    and one singleton: every value's windows lie at its distance to the singleton's value)."""
    jr = gp.datasets.hungarian_range(missing="drop")
    vals = {x: float(x) for x in jr.public_labels.tolist()}
    _same(_fast_steps(jr, "I*", "U2", vals, None), ref_from_range(jr, vals).alg2(None), None)


@pytest.mark.parametrize("seed", [0, 1])
def test_many_components_window_applies(seed):
    """600 public values with one or two sensitive values each (|S| = |X| / 5, many components): the
    window path runs and gives the full scan's partners."""
    rng = np.random.default_rng(seed)
    n = 600
    s = (np.arange(n) * 7919) % (n // 5)
    two = rng.random(n) < 0.05
    sens = [f"s{v}" for v in s] + [f"s{(v + 1) % (n // 5)}" for v in s[two]]
    pub = [f"x{i}" for i in range(n)] + [f"x{i}" for i in np.flatnonzero(two)]
    jr = gp.JointRange.from_pairs(sens, pub)
    vals = {x: float(v) for x, v in zip(jr.public_labels.tolist(), rng.integers(0, 3 * n, jr.n_public).tolist())}
    full = _index(jr, vals, "U2", False)
    bp, bq, heap = full.bp.copy(), full.bq.copy(), sorted(full.heap)
    assert full._init_scalar()
    assert full.bp.tolist() == bp.tolist() and full.bq.tolist() == bq.tolist() and sorted(full.heap) == heap


# Algorithm 1 (Section V-A, step 7): the U2 partner of a cluster among clusters with another S-set,
# searched in a window of cluster minima, equals the scan over all clusters at every state.

def _full_scan_partner(c, sid, x):
    ok = c.active & (sid != sid[x])
    ok[x] = False
    if not ok.any():
        return -1
    q = np.where(ok, np.round(c.agg.pair_costs(x) / 1e-9), np.inf)
    return int(np.argmin(q))


@settings(max_examples=60, deadline=None)
@given(ranges(max_x=40), st.booleans(), st.data())
def test_algorithm1_window_partner_equals_full_scan(inst, squared, data):
    from graphpriv.mechanisms.quantization import algorithm1

    jr, vals = inst
    ut = gp.U2(distance="squared") if squared else "U2"
    prob = _Problem(jr, "L0", ut, vals, 2)
    c = Contraction._from_problem(prob)
    partners = algorithm1._Partners(c)
    while c.n_clusters > 1:
        act = np.flatnonzero(c.active)
        for x in act.tolist():
            assert partners.partner(x) == _full_scan_partner(c, partners.sid, x)
        x = data.draw(st.sampled_from(act.tolist()))
        y = partners.partner(x)
        if y < 0:
            y = data.draw(st.sampled_from([j for j in act.tolist() if j != x]))
        r = c._merge(x, y)
        partners.merged(r, y if r == x else x)


@st.composite
def many_components(draw, max_x=60):
    """Ranges with up to |X| sensitive values and one or two per public value: many components, so
    Algorithm 2 merges across components again and again (stale keys, reverse index, relabelling)."""
    n_x = draw(st.integers(2, max_x))
    jr = _one_or_two_each(draw, n_x, draw(st.integers(max(1, n_x // 3), n_x)))
    grid = draw(st.sampled_from([3, 50, 10_000]))
    vals = {x: draw(st.integers(0, grid)) * 0.5 for x in jr.public_labels.tolist()}
    return jr, vals


@settings(max_examples=40, deadline=None)
@given(many_components(), st.booleans())
def test_algorithm2_many_components_equals_reference(inst, squared):
    jr, vals = inst
    ut = gp.U2(distance="squared") if squared else "U2"
    _same(_fast_steps(jr, "I*", ut, vals, None), ref_from_range(jr, vals, squared=squared).alg2(None), None)


@settings(max_examples=25, deadline=None)
@given(many_components(max_x=30))
def test_algorithm2_medoid_codewords_equal_reference_path(inst):
    """Medoid codewords (no value window): the same stale-key index over full rows; the trajectory
    equals the one with the window disabled and every key recomputed after every merge."""
    jr, vals = inst
    ut = gp.U2(codeword="medoid")
    prob = _Problem(jr, "I*", ut, vals, 2)
    c = Contraction._from_problem(prob)
    ix = _SmallestPairByCost(c)
    while c.n_components > 1:
        a, b = ix.best()
        comp = c.component_array()
        act = np.flatnonzero(c.active)
        keys = [(round(c.agg.pair_costs(np.array([i]), np.array([j]))[0] / 1e-9), i, j)
                for i in act.tolist() for j in act.tolist() if i < j and comp[i] != comp[j]]
        assert (a, b) == min(keys)[1:]
        r = c._merge(a, b)
        ix.merged(r, b if r == a else a)


def test_medoid_cost_does_not_depend_on_member_order():
    """Found by the hypothesis test above: the medoid of {0, 0, 1, 1.5} ties (sum of distances 2.5 at 0
    and at 1), and the tie went to the first member given, so d̄(𝒳1 ⊔ 𝒳2) (1.5) differed from d̄(𝒳2 ⊔ 𝒳1)
    (1.0) and Algorithm 2's index kept a key the pair no longer had. The members are now taken in code
    order; the index then returns the pair of the smallest exact key at every step."""
    jr = gp.JointRange.from_pairs(["s2", "s3", "s0", "s3", "s1", "s0"], ["x0", "x1", "x2", "x3", "x4", "x5"])
    vals = {"x0": 0.0, "x1": 1.0, "x2": 0.0, "x3": 1.0, "x4": 1.5, "x5": 0.0}
    ut = gp.U2(codeword="medoid")
    prob = _Problem(jr, "I*", ut, vals, 2)
    assert prob.ub.cluster_cost([0, 2, 1, 4]) == prob.ub.cluster_cost([1, 4, 0, 2]) == 1.5
    assert prob.ub.codeword([4, 1, 2, 0]) == prob.ub.codeword([0, 1, 2, 4]) == 0.0
    c = Contraction._from_problem(prob)
    ix = _SmallestPairByCost(c)
    while c.n_components > 1:
        a, b = ix.best()
        comp, act = c.component_array(), np.flatnonzero(c.active)
        keys = [(round(c.agg.pair_costs(np.array([i]), np.array([j]))[0] / 1e-9), i, j)
                for i in act.tolist() for j in act.tolist() if i < j and comp[i] != comp[j]]
        assert (a, b) == min(keys)[1:]
        r = c._merge(a, b)
        ix.merged(r, b if r == a else a)


def _scan_partner(c, comp, x):
    """Eq. (8)'s partner of x by the scan over all clusters: (rounded cost, lowest j) in another component."""
    ok = c.active & (comp != comp[x])
    if not ok.any():
        return np.inf, -1
    q = np.where(ok, np.round(c.agg.pair_costs(x) / 1e-9), np.inf)
    j = int(np.argmin(q))
    return float(q[j]), j


@settings(max_examples=40, deadline=None)
@given(many_components(max_x=40), st.booleans())
def test_algorithm2_window_partner_equals_scan_at_every_state(inst, squared):
    """The segment tree of cluster minima keyed by component (it skips the own component's clusters):
    at every state of an Algorithm 2 run, with many equal values (ties) and repeated merges that join
    components, every active cluster's partner equals the scan over all clusters."""
    jr, vals = inst
    ut = gp.U2(distance="squared") if squared else "U2"
    c = Contraction._from_problem(_Problem(jr, "I*", ut, vals, 2))
    ix = _SmallestPairByCost(c)
    while c.n_components > 1:
        comp = c.component_array()
        for x in np.flatnonzero(c.active).tolist():
            assert ix.window.partner(x) == _scan_partner(c, comp, x)
        a, b = ix.best()
        r = c._merge(a, b)
        ix.merged(r, b if r == a else a)


@pytest.mark.parametrize("n,grid", [(150, 4), (150, 150), (100, 1)])
def test_algorithm2_all_distinct_family_equals_reference(n, grid):
    """The benchmark's all-distinct family (one sensitive value per public value, |S| = |X| / 5, the
    values of one component spread over the whole range), with few or many repeated values: the
    λ-free U2 trajectory equals the plain reference."""
    x = np.arange(n)
    s = (x * 7919) % (n // 5)
    jr = gp.JointRange.from_pairs([f"s{v}" for v in s], [f"x{i}" for i in x])
    vals = {f"x{i}": float((i * 37) % grid) if grid > 1 else 0.0 for i in x}
    _same(_fast_steps(jr, "I*", "U2", vals, None), ref_from_range(jr, vals).alg2(None), None)


def test_window_partner_far_value_squared():
    """A found case: 28 values at 0 and one at 1.3·10^7 with another S-set, squared distance. The window's
    radius √(u) came out a hair short of the partner's distance after rounding u to the tie grid, and the
    window found no partner (Algorithm 1 would have stopped); the radius is now widened relatively."""
    from graphpriv.mechanisms.quantization import algorithm1

    n = 29
    pub = [f"x{i}" for i in range(n)]
    sens = ["s1" if i == 14 else "s0" for i in range(n)]
    jr = gp.JointRange.from_pairs(sens, pub)
    vals = {x: (13_000_000.0 if x == "x14" else 0.0) for x in jr.public_labels.tolist()}
    c = Contraction._from_problem(_Problem(jr, "L0", gp.U2(distance="squared"), vals, 2))
    partners = algorithm1._Partners(c)
    for x in np.flatnonzero(c.active).tolist():
        assert partners.partner(x) == _full_scan_partner(c, partners.sid, x) >= 0
