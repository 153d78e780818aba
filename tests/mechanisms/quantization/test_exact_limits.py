"""Time limits that cover the whole exact call, solver names checked, progress lines, and the kernels
that make the interval frontier's cost grow gently with the number of privacy levels."""

import math

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings, strategies as st

import graphpriv as gp
from graphpriv.errors import InputError, InputTypeError
from graphpriv.mechanisms.quantization import interval as interval_mod
from graphpriv.mechanisms.quantization import solver as solver_mod
from graphpriv.mechanisms.quantization.interval_kernels import window_starts
from graphpriv.mechanisms.quantization.mechanism import _min_sensitive
from graphpriv.mechanisms.quantization.problem import _Problem
from graphpriv.mechanisms.quantization.progress import format_solve_record
from test_exact_solver import PAIRS, random_range


def test_unknown_solver_name_is_refused_whatever_the_method():
    jr, values = random_range(5, 3, seed=0)
    for method in ("auto", "enumerate", "solver"):
        with pytest.raises(InputError, match="solver='bogus' is not known"):
            gp.exact_frontier(jr, "L0", method=method, solver="bogus")
        with pytest.raises(InputError, match="is not known"):
            gp.exact_minimum(jr, "L0", 0.5, method=method, solver="bogus")
    with pytest.raises(InputError):
        gp.exact_frontier(jr, "L0", solver=["cp-sat"])


def test_expired_deadline_stops_model_building():
    jr, values = random_range(12, 8, seed=2)
    inst = solver_mod._Inst(_Problem(jr, "L0", "U2", values, 2))
    gone = solver_mod._Deadline(0.0, start=0.0)
    with pytest.raises(solver_mod._OutOfTime):
        solver_mod._build(inst, "L0", inst.k_max, inst.cost_of([list(range(inst.n))]), False, deadline=gone)
    with pytest.raises(solver_mod._OutOfTime):
        solver_mod._cost_lower_bound(inst, "L0", inst.k_max, gone)


@pytest.mark.parametrize("objective,utility", [("L0", "U1"), ("L0", "U2"), ("L0|I*=0", "U2")])
def test_time_limit_covers_the_whole_call(monkeypatch, objective, utility):
    """No integer model is built once the limit has passed: the answer is honest and uncertified."""
    built = []
    real_add = solver_mod._Model.add
    monkeypatch.setattr(solver_mod._Model, "add", lambda self, *a, **k: (built.append(1), real_add(self, *a, **k)))
    jr, values = random_range(60, 12, seed=4)
    f = gp.exact_frontier(jr, objective, utility, values, method="solver", time_limit=1e-9)
    assert not built                               # the 60-value models were never built
    assert f.proof["timed_out"] and not f.certified and f.gap > 0
    for p in f.points:
        assert p.status == "feasible" and p.bound >= p.utility
        assert sorted(x for c in p.quantization for x in c) == sorted(jr.public_labels.tolist())
    for r in f.proof["levels"]:
        assert r["status"] == "feasible" and r["bound"] >= r["utility"]
    m = gp.exact_minimum(jr, objective, 1.0, utility, values, method="solver", time_limit=1e-9)
    assert not m.certified and m.bound <= m.L


def test_time_limit_mid_run_keeps_proofs_consistent_with_enumeration():
    jr, values = random_range(9, 8, seed=5)
    for objective, utility in PAIRS:
        e = gp.exact_frontier(jr, objective, utility, values, method="enumerate")
        best = {round(p.privacy, 9): p.utility for p in e.points}
        for limit in (1e-3, 0.05):
            s = gp.exact_frontier(jr, objective, utility, values, method="solver", time_limit=limit)
            for p in s.points:
                opt = max(u for q, u in best.items() if q <= round(p.privacy, 9) + 1e-9)
                assert p.utility <= opt + 1e-12
                if p.status == "optimal":
                    assert p.utility == pytest.approx(opt, abs=1e-12)
                else:
                    assert p.bound >= opt - 1e-12


def test_progress_records_incumbent_and_bound(capsys):
    jr, values = random_range(12, 8, seed=1)
    seen = []
    f = gp.exact_frontier(jr, "L0", "U2", values, method="solver", progress=seen.append)
    assert f.certified and len(seen) >= len(f.proof["levels"])
    assert [r["done"] for r in seen] == list(range(1, len(seen) + 1))
    for r in seen:
        assert r["bound"] >= r["utility"] - 1e-12 and r["levels"] == len(f.proof["levels"])
        assert format_solve_record(r).startswith(f"exact: level {r['done']}/{r['levels']}")
    # True writes lines only to a terminal: pytest's captured stderr is not one
    gp.exact_frontier(jr, "L0", "U2", values, method="solver", progress=True)
    assert capsys.readouterr().err == ""
    with pytest.raises(InputTypeError, match="progress"):
        gp.exact_frontier(jr, "L0", "U2", values, method="solver", progress="yes")


def test_progress_line_on_a_terminal(monkeypatch, capsys):
    import sys

    monkeypatch.setattr(sys.stderr, "isatty", lambda: True, raising=False)
    jr, values = random_range(12, 8, seed=1)
    gp.exact_frontier(jr, "L0", "U1", values, method="solver", progress=True)
    err = capsys.readouterr().err
    assert "exact: level 1/" in err and "incumbent utility" in err


@settings(max_examples=25, deadline=None)
@given(n=st.integers(1, 30), n_s=st.integers(2, 12), seed=st.integers(0, 10_000))
def test_max_clusters_equals_its_definition(n, n_s, seed):
    jr, _ = random_range(n, n_s, seed)
    inst = solver_mod._Inst(_Problem(jr, "L0", "U1", None, 2))
    occ = {}
    for ss in inst.ssets:
        for s in ss:
            occ[s] = occ.get(s, 0) + 1
    for level in range(1, inst.k_max + 1):
        best = max([c for c in range(1, inst.n + 1) if c * level <= sum(min(c, o) for o in occ.values())] or [1])
        assert solver_mod._max_clusters(inst, level) == best


@settings(max_examples=25, deadline=None)
@given(n=st.integers(1, 40), n_s=st.integers(2, 10), seed=st.integers(0, 10_000), groups=st.integers(1, 12))
def test_min_sensitive_equals_set_unions(n, n_s, seed, groups):
    jr, _ = random_range(n, n_s, seed)
    prob = _Problem(jr, "L0", "U1", None, 2)
    rng = np.random.default_rng(seed)
    ids = rng.integers(0, groups, size=prob.n)
    parts = [np.flatnonzero(ids == g) for g in np.unique(ids)]
    want = min(len(set().union(*(prob.sset(i) for i in g.tolist()))) for g in parts)
    assert _min_sensitive(prob, parts) == want


@settings(max_examples=30, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(n=st.integers(1, 40), n_s=st.integers(2, 10), seed=st.integers(0, 10_000), decimals=st.sampled_from([0, 1, 6]),
       objective=st.sampled_from(["L0", "L0|I*=0"]), utility=st.sampled_from(["U1", "U2", "U2sq"]))
def test_compiled_level_recursion_equals_python(n, n_s, seed, decimals, objective, utility):
    jr, values = random_range(n, n_s, seed, decimals)
    ut = gp.U2(values, distance="squared") if utility == "U2sq" else utility
    prob = _Problem(jr, objective, ut, values, 2)
    order = interval_mod._order(prob)
    costs = interval_mod._Costs(prob, order)
    ssets = [prob.s_idx[prob.s_ptr[c]:prob.s_ptr[c + 1]].tolist() for c in order.tolist()]
    cutpos = interval_mod._hull_cuts(prob, order) if objective == "L0|I*=0" else None
    fast = interval_mod._LevelDP(prob, costs, ssets, cutpos, prob.n)
    assert fast.compiled
    ks = list(range(len(set().union(*map(set, ssets))), min(map(len, ssets)) - 1, -1))
    for k in ks:
        assert interval_mod._window_starts(ssets, k)[1:] == window_starts(fast.ptr, fast.idx, fast.n_s, k).tolist()[1:]
        g, back = interval_mod._dp(prob.n, costs, interval_mod._window_starts(ssets, k), cutpos, 1)
        cost, cuts = fast(k)
        assert cost == g[0][prob.n]
        assert cuts == interval_mod._trace_back(back, None, 0, prob.n)
    # solving only some levels (equal costs at both ends of a run fill it) gives every level's optimum
    every = {k: fast(k) for k in ks}
    some = interval_mod._levels_by_bisection(ks, fast)
    assert {k: v[0] for k, v in some.items()} == {k: v[0] for k, v in every.items()}


@settings(max_examples=12, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(n=st.integers(2, 9), n_s=st.integers(2, 8), seed=st.integers(0, 10_000), utility=st.sampled_from(["U1", "U2"]),
       bins=st.sampled_from([0, 100]))
def test_cluster_slot_and_representative_models_equal_enumeration(n, n_s, seed, utility, bins):
    """Both integer formulations of an L0 level (one binary per value and cluster slot when few clusters can
    cover the level; one per value and representative otherwise) prove the enumerated frontier."""
    jr, values = random_range(n, n_s, seed)
    e = gp.exact_frontier(jr, "L0", utility, values, method="enumerate")
    saved = solver_mod._BIN_MAX_CLUSTERS, solver_mod._BIN_MAX_CLUSTERS_U2
    solver_mod._BIN_MAX_CLUSTERS = solver_mod._BIN_MAX_CLUSTERS_U2 = bins
    try:
        s = gp.exact_frontier(jr, "L0", utility, values, method="solver")
    finally:
        solver_mod._BIN_MAX_CLUSTERS, solver_mod._BIN_MAX_CLUSTERS_U2 = saved
    assert s.certified
    assert [(round(p.privacy, 9), round(p.utility, 9)) for p in s.points] == \
        [(round(p.privacy, 9), round(p.utility, 9)) for p in e.points]


def test_joining_bound_certifies_istar_levels():
    """I* levels below the number of components of G_X: a two-member cluster (U1) or half the bottleneck
    distance between components (U2) is needed, and a lower bound; checked against enumeration."""
    for seed in range(6):
        jr, values = random_range(9, 16, seed)
        for utility in ("U1", "U2"):
            e = gp.exact_frontier(jr, "I*", utility, values, method="enumerate")
            inst = solver_mod._Inst(_Problem(jr, "I*", utility, values, 2))
            for c in range(1, inst.n_comp0 + 1):
                bound = solver_mod._utility_of_cost(inst, solver_mod._joining_cost_bound(inst, c))
                best = max(p.utility for p in e.points if p.privacy <= inst.prob.istar(c) + 1e-12)
                assert best <= bound + 1e-12


def test_hungarian_istar_certified_and_greedy_optimal():
    """Paper 003's Hungarian data, Algorithm 2's problem (5): the certified optimum equals the greedy frontier
    (one merge joins the isolated value 132 to a neighbour), for U1 and U2."""
    from graphpriv.datasets import hungarian_range

    for utility in ("U1", "U2"):
        jr = hungarian_range(missing="keep" if utility == "U1" else "drop")
        values = None if utility == "U1" else {x: float(x) for x in jr.public_labels.tolist()}
        f = gp.exact_frontier(jr, "I*", utility, values, method="solver", time_limit=120)
        g = gp.pareto_frontier(jr, "I*", utility, values)
        assert f.certified and f.gap == 0.0
        assert [(round(p.privacy, 9), round(p.utility, 9)) for p in f.points] == \
            [(round(p.privacy, 9), round(p.utility, 9)) for p in g.points]


def test_hungarian_greedy_vs_optimum_figure(tmp_path, monkeypatch):
    from graphpriv.reproduce import build_all, paper003

    monkeypatch.setitem(paper003._OPTIMUM_TIME_LIMIT, True, 2.0)
    built = build_all(tmp_path, only=["paper003_hungarian_greedy_vs_optimum"], quick=True, formats=("png",))
    assert [s.name for s in built] == ["paper003_hungarian_greedy_vs_optimum"]
    assert (tmp_path / "paper003_hungarian_greedy_vs_optimum.png").stat().st_size > 1000
    runs = paper003.hungarian_optimum_frontiers(2.0)
    for (objective, utility), (greedy, solved, _) in runs.items():
        # the solver's frontier is never below the greedy one, and its bounds are never below either
        for q in greedy.points:
            best = max(p.utility for p in solved.points if p.privacy <= q.privacy + 1e-12)
            assert best >= q.utility - 1e-9
        for r in solved.proof["levels"]:
            assert r["bound"] >= r["utility"] - 1e-12
        if objective == "I*":
            assert solved.certified
