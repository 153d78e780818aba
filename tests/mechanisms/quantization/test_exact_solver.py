"""Certified exact frontiers by integer programming (exact_frontier / exact_minimum with method="solver")."""

import math

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings, strategies as st

import graphpriv as gp
from graphpriv.errors import InputError
from graphpriv.mechanisms.quantization import solver as solver_mod

PAIRS = [(o, u) for o in ("L0", "I*", "L0|I*=0") for u in ("U1", "U2")]


def random_range(n: int, n_s: int, seed: int, decimals: int = 1, max_sensitive: int = 2):
    """Random joint range: each public value with one to ``max_sensitive`` sensitive values, every sensitive
    value used."""
    rng = np.random.default_rng(seed)
    sens, pub = [], []
    for x in range(n):
        for s in rng.choice(n_s, size=int(rng.integers(1, min(max_sensitive, n_s) + 1)), replace=False).tolist():
            sens.append(f"s{s}")
            pub.append(x)
    for s in range(n_s):
        if f"s{s}" not in sens:
            sens.append(f"s{s}")
            pub.append(int(rng.integers(n)))
    jr = gp.JointRange.from_pairs(sens, pub)
    values = {x: float(np.round(rng.uniform(0, 10), decimals)) for x in jr.public_labels}
    return jr, values


def _pu(frontier):
    return [(round(p.privacy, 9), round(p.utility, 9)) for p in frontier.points]


@settings(max_examples=18, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(n=st.integers(2, 8), n_s=st.integers(2, 8), seed=st.integers(0, 10_000), decimals=st.sampled_from([0, 1, 3, 15]),
       pair=st.sampled_from(PAIRS))
def test_solver_equals_enumeration(n, n_s, seed, decimals, pair):
    objective, utility = pair
    jr, values = random_range(n, n_s, seed, decimals)
    e = gp.exact_frontier(jr, objective, utility, values, method="enumerate")
    s = gp.exact_frontier(jr, objective, utility, values, method="solver")
    assert s.certified and s.gap == 0.0
    assert _pu(s) == _pu(e)
    assert all(p.status == "optimal" and p.bound == p.utility for p in s.points)
    # every released quantisation is a partition of X achieving its point
    for p in s.points:
        assert sorted(x for c in p.quantization for x in c) == sorted(jr.public_labels.tolist())
        assert gp.lagrangian(jr, p.quantization, objective, 0.0, utility, values) == pytest.approx(p.privacy, abs=1e-9)


@pytest.mark.parametrize("objective,utility", PAIRS)
def test_solver_equals_enumeration_ten_values(objective, utility):
    jr, values = random_range(10, 8, seed=7)
    e = gp.exact_frontier(jr, objective, utility, values, method="enumerate")
    s = gp.exact_frontier(jr, objective, utility, values, method="solver")
    assert s.certified and _pu(s) == _pu(e)


def test_highs_equals_cpsat():
    jr, values = random_range(8, 5, seed=3)
    for objective, utility in (("L0", "U2"), ("I*", "U1"), ("L0|I*=0", "U1")):
        a = gp.exact_frontier(jr, objective, utility, values, method="solver", solver="cp-sat")
        b = gp.exact_frontier(jr, objective, utility, values, method="solver", solver="highs")
        assert a.certified and b.certified and _pu(a) == _pu(b)
        assert b.proof["solver"] == "highs"


def test_no_heuristic_point_dominates_a_certified_point():
    for seed in range(2):
        jr, values = random_range(12, 8, seed=seed)
        for objective, utility in PAIRS:
            f = gp.exact_frontier(jr, objective, utility, values)          # auto: the solver at |X| = 12
            assert f.method == "solver" and f.certified
            g = gp.pareto_frontier(jr, objective, utility, values)
            heur = [(p.privacy, p.utility) for p in g.points]
            for lam in (0.3, 1.0):
                r = gp.agglomerate(jr, objective, lam, utility, values, search="beam")
                heur.append((r.privacy, r.utility))
            for p in f.points:
                for hp, hu in heur:
                    assert not (hp <= p.privacy + 1e-12 and hu >= p.utility - 1e-12 and (hp < p.privacy - 1e-12 or hu > p.utility + 1e-12))


def test_time_limit_reports_gap_and_never_claims_optimality():
    jr, values = random_range(9, 8, seed=11)
    for objective, utility in (("L0", "U1"), ("L0|I*=0", "U2")):
        e = gp.exact_frontier(jr, objective, utility, values, method="enumerate")
        s = gp.exact_frontier(jr, objective, utility, values, method="solver", time_limit=1e-6)
        assert s.proof["tests"] == 0 or all(r["status"] == "feasible" for r in s.proof["levels"] if r["tests"])
        assert not s.certified
        assert s.gap > 0 and math.isfinite(s.gap)
        best = {}
        for p in e.points:
            best[round(p.privacy, 9)] = p.utility
        for p in s.points:
            # an "optimal" point must be optimal; a feasible one carries a bound no smaller than the optimum
            opt = max(u for q, u in best.items() if q <= round(p.privacy, 9) + 1e-9)
            if p.status == "optimal":
                assert p.utility == pytest.approx(opt, abs=1e-12)
            else:
                assert p.bound >= opt - 1e-12 and p.bound >= p.utility
        assert "certified=False" in repr(s) and "gap=" in repr(s)
        m = gp.exact_minimum(jr, objective, 1.0, utility, values, method="solver", time_limit=1e-6)
        exact = gp.exact_minimum(jr, objective, 1.0, utility, values)
        assert not m.certified and m.bound <= exact.L + 1e-12 <= m.L + 2e-12


@settings(max_examples=10, deadline=None)
@given(n=st.integers(2, 7), seed=st.integers(0, 10_000), lam=st.sampled_from([0.0, 0.3, 1.0, 4.0]), pair=st.sampled_from(PAIRS))
def test_exact_minimum_solver_equals_enumeration(n, seed, lam, pair):
    objective, utility = pair
    jr, values = random_range(n, 6, seed)
    a = gp.exact_minimum(jr, objective, lam, utility, values, method="enumerate")
    b = gp.exact_minimum(jr, objective, lam, utility, values, method="solver")
    assert b.certified and b.bound == b.L and b.L == pytest.approx(a.L, abs=1e-9)
    assert gp.lagrangian(jr, b.quantization, objective, lam, utility, values) == pytest.approx(b.L, abs=1e-9)
    assert "certified" in repr(b) and "nan" not in repr(b)


def test_missing_ortools(monkeypatch):
    monkeypatch.setattr(solver_mod, "_have_ortools", lambda: False)
    jr, values = random_range(6, 4, seed=1)
    with pytest.raises(solver_mod.MissingSolverError, match=r"graphpriv\[exact\]"):
        gp.exact_frontier(jr, "L0", method="solver", solver="cp-sat")
    f = gp.exact_frontier(jr, "L0", method="solver")                 # "auto" falls back to HiGHS
    assert f.proof["solver"] == "highs" and f.certified


def test_bad_arguments():
    jr, values = random_range(5, 3, seed=0)
    for kw in ({"method": "brute"}, {"time_limit": 0}, {"time_limit": "1"}, {"method": "solver", "solver": "gurobi"}):
        with pytest.raises(InputError):
            gp.exact_frontier(jr, "L0", **kw)
    with pytest.raises(InputError, match="centroid"):
        gp.exact_frontier(jr, "L0", gp.U2(values, codeword="medoid"), method="solver")


def test_reprs_and_partition():
    jr, values = gp.datasets.paper_example()
    f = gp.exact_frontier(jr, "L0|I*=0", "U2", values, method="solver")
    text = repr(f)
    assert "nan" not in text and "points=4" in text and "certified=True" in text and "λ ≥" in text
    assert "no λ selects it" in repr(f.points[1]) and "nan" not in repr(f.points[1])
    g = gp.pareto_frontier(jr, "I*")
    assert "nan" not in repr(g) and "nan" not in repr(g.points[0])
    q = f.partition(min_utility=-0.6)
    assert isinstance(q, list) and all(isinstance(c, frozenset) for c in q)
    assert sorted(x for c in q for x in c) == sorted(jr.public_labels.tolist())
    assert gp.U2(values)(list(jr.public_labels), q) >= -0.6
    q2 = f.partition(max_privacy=1.0)
    assert len(q2) == 2
    with pytest.raises(InputError):
        f.partition(min_utility=5.0)
    with pytest.raises(InputError):
        f.partition()
    with pytest.raises(InputError):
        f.partition(min_utility=0.1, max_privacy=1.0)
    assert f.to_frame()["status"].tolist() == ["optimal"] * 4


@settings(max_examples=30, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(n=st.integers(2, 8), seed=st.integers(0, 10_000), n_s=st.integers(4, 16))
def test_joining_bound_never_exceeds_the_enumerated_optimum(n, seed, n_s):
    """At every I* level c the counting bound K >= |X| / (|X| - #components + c) holds for every quantisation."""
    from graphpriv.mechanisms.quantization.problem import _Problem
    from graphpriv.mechanisms.quantization.solver_bounds import _joining_cost_bound

    jr, _ = random_range(n, n_s, seed)
    inst = solver_mod._Inst(_Problem(jr, "I*", "U1", None, 2))
    e = gp.exact_frontier(jr, "I*", "U1", method="enumerate")
    for p in e.points:
        c = round(2 ** p.privacy)
        K = max(len(q) for q in p.quantization)
        assert _joining_cost_bound(inst, c) <= K


def test_isolated_values_certified_at_once():
    """|X| isolated values (each with its own sensitive value): at I* level c the largest cluster is ceil(|X| / c),
    which the counting bound proves (the solver used to search for a minute at |X| = 11)."""
    for n in (11, 40):
        jr = gp.JointRange.from_pairs(list(range(n)), list(range(n)))
        f = gp.exact_frontier(jr, "I*", "U1", method="solver", time_limit=60)
        assert f.certified
        sizes = {round(2 ** p.privacy): max(len(q) for q in p.quantization) for p in f.points}
        assert all(K == -(-n // c) for c, K in sizes.items())
