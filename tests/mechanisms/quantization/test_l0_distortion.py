"""L0 levels with U2 (Ding & Farokhi, paper 003, problem (3) with the largest-distortion utility of Section V-A):
the end-cluster bound and the interval completion of graphpriv.mechanisms.quantization.l0_distortion."""

import itertools
import math
from fractions import Fraction

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings, strategies as st

import graphpriv as gp
from graphpriv.mechanisms.quantization import l0_distortion as l0d
from graphpriv.mechanisms.quantization.problem import _Problem
from graphpriv.mechanisms.quantization.solver import _Inst, _utility_of_cost
from graphpriv.mechanisms.quantization.solver_bounds import _NO_DEADLINE, _Deadline
from test_exact_solver import random_range as _random_range


def random_range(n: int, n_s: int, seed: int, decimals: int = 1):
    """Random joint range: each public value with one to three sensitive values, every sensitive value used."""
    return _random_range(n, n_s, seed, decimals, max_sensitive=3)


def instance(jr, values):
    return _Inst(_Problem(jr, "L0", "U2", values, 2))


def set_partitions(items):
    if not items:
        yield []
        return
    first, rest = items[0], items[1:]
    for part in set_partitions(rest):
        for i in range(len(part)):
            yield part[:i] + [[first] + part[i]] + part[i + 1:]
        yield [[first]] + part


def brute_level(inst, level):
    """Least largest distortion over every partition meeting the level (exact, scaled units)."""
    best = None
    for part in set_partitions(list(range(inst.n))):
        if inst.k_of(part) >= level:
            c = inst.cost_of(part)
            best = c if best is None or c < best else best
    return best


def brute_end(inst, level, side):
    """Least distortion of a cluster holding the largest (side +1) or smallest (-1) value and covering the level."""
    t = inst.n - 1 if side > 0 else 0
    others = [e for e in range(inst.n) if e != t]
    best = None
    for r in range(len(others) + 1):
        for extra in itertools.combinations(others, r):
            g = [t, *extra]
            if inst.k_of([g]) >= level:
                c = inst.cost_of([g])
                best = c if best is None or c < best else best
    return best


@settings(max_examples=30, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(n=st.integers(2, 8), n_s=st.integers(2, 7), seed=st.integers(0, 10_000), decimals=st.sampled_from([0, 1, 2]))
def test_end_bound_is_the_brute_force_end_cluster_and_bounds_the_optimum(n, n_s, seed, decimals):
    jr, values = random_range(n, n_s, seed, decimals)
    inst = instance(jr, values)
    everything = list(range(inst.n))
    for level in range(inst.k_min, inst.k_max + 1):
        opt = brute_level(inst, level)
        for side in (1, -1):
            lo, lo_strict, hi, g = l0d._end_bound(inst, level, side, everything, _NO_DEADLINE, [])
            f = brute_end(inst, level, side)
            # a sound bound, a real cluster, and (no time limit) the exact end-cluster optimum
            assert lo < f if lo_strict else lo <= f
            assert inst.k_of([g]) >= level and (inst.n - 1 if side > 0 else 0) in g
            assert inst.cost_of([g]) == hi == f
            assert lo == f and not lo_strict
            assert f <= opt
        lo, lo_strict, c, part = l0d._u2_level(inst, level, Fraction(0), False, inst.cost_of([everything]),
                                               [everything], _NO_DEADLINE, "cp-sat")
        assert (lo < opt if lo_strict else lo <= opt) and c >= opt
        assert sorted(e for g in part for e in g) == everything and inst.k_of(part) >= level
        assert inst.cost_of(part) == c


@settings(max_examples=12, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(n=st.integers(2, 9), n_s=st.integers(2, 8), seed=st.integers(0, 10_000), decimals=st.sampled_from([0, 1, 3]))
def test_solver_frontier_equals_enumeration(n, n_s, seed, decimals):
    jr, values = random_range(n, n_s, seed, decimals)
    e = gp.exact_frontier(jr, "L0", "U2", values, method="enumerate")
    s = gp.exact_frontier(jr, "L0", "U2", values, method="solver")
    assert s.certified
    assert [(round(p.privacy, 9), round(p.utility, 9)) for p in s.points] == \
        [(round(p.privacy, 9), round(p.utility, 9)) for p in e.points]


@settings(max_examples=15, deadline=None)
@given(n=st.integers(1, 8), n_s=st.integers(2, 6), seed=st.integers(0, 10_000))
def test_interval_partition_is_the_best_interval_partition(n, n_s, seed):
    jr, values = random_range(n, n_s, seed, 1)
    inst = instance(jr, values)
    elements = list(range(inst.n))
    for level in range(1, inst.k_max + 2):
        got = l0d._interval_partition(inst, level, elements)
        best = None
        for cuts in itertools.product([0, 1], repeat=max(inst.n - 1, 0)):
            groups, cur = [], [0]
            for e, cut in zip(elements[1:], cuts):
                if cut:
                    groups.append(cur)
                    cur = []
                cur.append(e)
            groups.append(cur)
            if inst.k_of(groups) >= level:
                c = inst.cost_of(groups)
                best = c if best is None or c < best else best
        if best is None:
            assert got is None
        else:
            assert got[0] == best == inst.cost_of(got[1])
            assert [e for g in got[1] for e in g] == elements


def hungarian_instance():
    from graphpriv.datasets import hungarian_range

    jr = hungarian_range(missing="drop")
    return instance(jr, {x: float(x) for x in jr.public_labels.tolist()})


@pytest.mark.parametrize("level", [9, 19])
def test_hungarian_levels_certified(level):
    """Paper 003's Section VII data (S = age, X = cholesterol, 153 values): the cluster holding the largest
    cholesterol value (603 mg/dl) decides the level; the completion reaches its distortion, so the level is
    certified (distortion 133 mg/dl at k = 9 and 2523/14 = 180.21 mg/dl at k = 19)."""
    inst = hungarian_instance()
    everything = list(range(inst.n))
    lo, lo_strict, c, part = l0d._u2_level(inst, level, Fraction(0), False, inst.cost_of([everything]),
                                           [everything], _Deadline(120), "cp-sat")
    assert not lo_strict and lo == c                     # certified
    assert sorted(e for g in part for e in g) == everything and inst.k_of(part) >= level
    assert inst.cost_of(part) == c
    top = next(g for g in part if inst.n - 1 in g)
    assert inst.cost_of([top]) == c                      # the top cluster is the bottleneck
    assert c == {9: Fraction(133), 19: Fraction(2523, 14)}[level]
    assert _utility_of_cost(inst, c) == pytest.approx(-float(c))
    assert math.isclose(float(c), {9: 133.0, 19: 180.2142857}[level], rel_tol=1e-7)


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(n=st.integers(2, 9), n_s=st.integers(2, 7), seed=st.integers(0, 10_000), num=st.integers(1, 60),
       den=st.integers(1, 7), strict=st.booleans())
def test_quick_refutation_never_refutes_a_cluster_that_exists(n, n_s, seed, num, den, strict):
    """The relaxation of the end-cluster programme only says "no cluster" when brute force finds none."""
    jr, values = random_range(n, n_s, seed, 1)
    inst = instance(jr, values)
    X = inst.X
    cost = Fraction(num * max(X[-1] - X[0], 1), 40 * den)
    p, q = cost.numerator, cost.denominator
    rhs = -1 if strict else 0
    t = inst.n - 1
    order = list(range(inst.n - 1, -1, -1))
    for level in range(1, inst.k_max + 1):
        for j, a in enumerate(order):
            els = order[:j + 1]
            rows = [[q * (X[t] - X[e]) - p for e in els], [q * (X[e] - X[a]) - p for e in els]]
            exists = False
            for r in range(max(len(els) - 1, 1)):
                for extra in itertools.combinations(els[1:-1], r):
                    g = sorted({t, a, *extra})
                    z = set(g)
                    if inst.k_of([g]) >= level and all(sum(row[i] for i, e in enumerate(els) if e in z) <= rhs
                                                       for row in rows):
                        exists = True
                        break
                if exists:
                    break
            refuted = l0d._cheap_infeasible(inst, level, els, rows, rhs)
            assert not (refuted and exists)



def test_quick_refutation_decides_most_other_ends_on_the_hungarian_data():
    """Paper 003's Section VII data at k = 19: no cluster holding 603 mg/dl covers 19 ages with distortion
    <= 170 mg/dl; the quick relaxation alone refutes most candidate smallest members."""
    inst = hungarian_instance()
    X, t, level = inst.X, inst.n - 1, 19
    cost = Fraction(170)
    order = list(range(inst.n - 1, -1, -1))
    refuted = tried = 0
    for j, a in enumerate(order):
        if X[t] - X[a] > 2 * cost:
            break
        els = order[:j + 1]
        rows = [[X[t] - X[e] - 170 for e in els], [X[e] - X[a] - 170 for e in els]]
        tried += 1
        refuted += l0d._cheap_infeasible(inst, level, els, rows, 0)
    assert tried > 50 and refuted > tried // 2
    assert l0d._end_cluster(inst, level, cost, False, 1, frozenset(), _NO_DEADLINE) == ("infeasible", None)
    res, g = l0d._end_cluster(inst, level, Fraction(2523, 14), False, 1, frozenset(), _NO_DEADLINE)
    assert res == "feasible" and inst.k_of([g]) >= level and inst.cost_of([g]) <= Fraction(2523, 14)
