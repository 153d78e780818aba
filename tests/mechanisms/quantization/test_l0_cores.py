"""Problem (3) with U1 through disjoint cores (Ding & Farokhi, problem (3), eq. (6)): every proof and every
solution of :mod:`graphpriv.mechanisms.quantization.l0_cores` against brute force over all set partitions."""

from __future__ import annotations

import math

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from graphpriv.datasets import hungarian_range
from graphpriv.mechanisms.quantization import l0_cores as cores
from graphpriv.mechanisms.quantization.problem import _Problem
from graphpriv.mechanisms.quantization.solver import _solve, solve_levels
from graphpriv.mechanisms.quantization.solver_bounds import _NO_DEADLINE


def _partitions(items):
    if not items:
        yield []
        return
    first, rest = items[0], items[1:]
    for p in _partitions(rest):
        yield [[first]] + p
        for i in range(len(p)):
            yield p[:i] + [[first] + p[i]] + p[i + 1:]


def _brute_feasible(masks, level, K) -> bool:
    """A partition with every cluster of at most K values covering ``level`` sensitive values."""
    for p in _partitions(list(range(len(masks)))):
        if all(len(g) <= K for g in p) and all(
                bin(np.bitwise_or.reduce([masks[e] for e in g])).count("1") >= level for g in p):
            return True
    return False


masks_st = st.lists(st.integers(1, 2 ** 5 - 1), min_size=2, max_size=8)


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(masks=masks_st, data=st.data())
def test_bound_program_and_model_agree_with_brute_force(masks, data):
    ty = cores._Types(masks)
    n = len(masks)
    level = data.draw(st.integers(1, bin(np.bitwise_or.reduce(masks)).count("1")))
    K = data.draw(st.integers(1, n))
    need = -(-n // K)
    truth = _brute_feasible(masks, level, K)
    if cores.core_packing_bound(ty, level, K, need):
        assert not truth                    # the relaxation's proof is sound
    patterns = cores._minimal_patterns(ty, level, K, 10 ** 6)
    status, counts = cores.pattern_program(ty, patterns, need, _NO_DEADLINE)
    assert status == ("feasible" if truth else "infeasible")
    if truth:
        groups = cores._fill(cores._patterns_to_cores(ty, patterns, counts), K, n)
        assert sorted(e for g in groups for e in g) == list(range(n))
        assert all(len(g) <= K and bin(np.bitwise_or.reduce([masks[e] for e in g])).count("1") >= level
                   for g in groups)
    md, x = cores._core_model(ty, level, K, need)
    st_, sol, _ = _solve(md, "highs", None, None)
    assert (st_ == "optimal") == truth
    if truth:
        groups = cores._fill(cores._slots_to_cores(ty, x, sol, need), K, n)
        assert sorted(e for g in groups for e in g) == list(range(n))
        assert max(len(g) for g in groups) <= K


def test_minimal_patterns_are_minimal_and_complete():
    masks = [0b0011, 0b0110, 0b1100, 0b0001, 0b1000, 0b0011]
    ty = cores._Types(masks)
    pats = cores._minimal_patterns(ty, 3, 3, 10 ** 6)
    got = {frozenset(p) for p in pats}
    want = set()
    import itertools
    for r in range(1, 4):
        for comb in itertools.combinations(range(len(ty.masks)), r):
            u = np.bitwise_or.reduce([ty.masks[t] for t in comb])
            if bin(u).count("1") < 3:
                continue
            if all(bin(np.bitwise_or.reduce([ty.masks[s] for s in comb if s != t] or [0])).count("1") < 3
                   for t in comb):
                want.add(frozenset(comb))
    assert got == want
    assert cores._minimal_patterns(ty, 3, 3, 2) is None     # over the cap: no partial answer


@pytest.mark.parametrize("level, K", [(5, 3), (17, 10)])
def test_hungarian_levels_certified(level, K):
    """Paper 003, Section VII data (S = age, X = cholesterol, missing kept: 154 values, 38 ages), problem (3)
    with U1: the largest cluster at L0 level k = 5 is 3 values (the exact pattern program finds 52 disjoint cores),
    at k = 17 it is 10 (a core model finds 16 cores; the relaxation rules out 9). Greedy Algorithm 1 gets 4 and 16."""
    prob = _Problem(hungarian_range(), "L0", "U1", None, 2)
    res, _ = solve_levels(prob, [], solver="highs" if not _have_cpsat() else "cp-sat", levels=[level],
                          time_limit=240)
    r = res[0]
    assert r.status == "optimal"
    assert max(len(g) for g in r.groups) == K
    assert r.utility == pytest.approx(math.log2(154 / K))


def _have_cpsat() -> bool:
    from graphpriv.mechanisms.quantization.solver import _have_ortools

    return _have_ortools()
