"""Optimal interval releases: interval_frontier against brute force over all 2^(n-1) interval partitions."""

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings, strategies as st

import graphpriv as gp
from graphpriv.errors import InputError
from graphpriv.mechanisms.quantization.frontier import pareto_filter
from graphpriv.mechanisms.quantization.mechanism import _evaluate_groups
from graphpriv.mechanisms.quantization.problem import _Problem
from test_exact_solver import PAIRS, random_range


def brute_force(jr, objective, utility, values, order):
    """Non-dominated (privacy, utility) over every interval partition of ``order`` (feasible for the problem)."""
    # evaluation by the mechanisms' own measure of a partition (privacy, utility); connectivity by union-find
    prob = _Problem(jr, objective, utility, values, 2)
    code = {x: i for i, x in enumerate(jr.public_labels.tolist())}
    seq = np.array([code[x] for x in order])
    n = len(seq)
    P, U = [], []
    for mask in range(1 << (n - 1)):
        cuts = [0] + [p for p in range(1, n) if mask >> (p - 1) & 1] + [n]
        groups = [np.sort(seq[a:b]) for a, b in zip(cuts, cuts[1:])]
        if objective == "L0|I*=0" and _n_groups(prob.comp0, groups) > 1:
            continue
        p, u = _evaluate_groups(prob, groups)
        P.append(p)
        U.append(u)
    P, U = np.round(P, 9), np.round(U, 9)
    return [(float(P[i]), float(U[i])) for i in pareto_filter(P, U)]


def _n_groups(comp0, groups):
    parent = {}

    def find(a):
        while parent.setdefault(a, a) != a:
            a = parent[a]
        return a
    for g in groups:
        cs = comp0[g].tolist()
        for c in cs[1:]:
            parent[find(c)] = find(cs[0])
    return len({find(int(c)) for c in comp0.tolist()})


def _order(jr, utility, values):
    labels = jr.public_labels.tolist()
    if utility == "U2":
        return [labels[i] for i in np.argsort([values[x] for x in labels], kind="stable")]
    return labels


def _check(jr, values, objective, utility):
    f = gp.interval_frontier(jr, objective, utility, values)
    got = [(round(p.privacy, 9), round(p.utility, 9)) for p in f.points]
    assert f.certified and f.method == "interval"
    assert got == brute_force(jr, objective, utility, values, _order(jr, utility, values))
    order = f.proof["order"]
    pos = {x: i for i, x in enumerate(order)}
    for p in f.points:   # every cluster is an interval of the order
        for c in p.quantization:
            idx = sorted(pos[x] for x in c)
            assert idx == list(range(idx[0], idx[-1] + 1))


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(n=st.integers(1, 9), n_s=st.integers(2, 9), seed=st.integers(0, 10_000), pair=st.sampled_from(PAIRS))
def test_interval_frontier_equals_brute_force(n, n_s, seed, pair):
    jr, values = random_range(n, n_s, seed)
    _check(jr, values, *pair)


@pytest.mark.parametrize("seed", [0, 1])
@pytest.mark.parametrize("objective,utility", [("L0", "U1"), ("L0", "U2"), ("I*", "U2"), ("L0|I*=0", "U1")])
def test_interval_frontier_fourteen_values(seed, objective, utility):
    jr, values = random_range(14, 8 + 4 * seed, seed=seed)
    _check(jr, values, objective, utility)


def test_contiguous_components_certified_by_the_dp():
    # components of G_X on consecutive values: the hull DP is exact without listing partitions
    sens = [f"s{i // 3}" for i in range(24)]
    pub = list(range(24))
    jr = gp.JointRange.from_pairs(sens + ["t0", "t0", "t1", "t1"], pub + [0, 1, 3, 4])
    for objective in ("I*", "L0|I*=0"):
        f = gp.interval_frontier(jr, objective, "U1")
        assert f.certified
        assert all(r["status"] == "optimal" for r in f.proof["levels"])


def test_k_anonymity_levels_and_labels():
    jr, values = gp.datasets.paper_example()
    f = gp.interval_frontier(jr, "L0", "U2", values)
    ks = [r["level"] for r in f.proof["levels"]]
    assert ks == sorted(ks, reverse=True) and ks[-1] == gp.k_anonymity(jr)
    q = f.partition(max_privacy=f.points[1].privacy)
    assert gp.interval_labels(q, values) == ["[0.1, 0.4]", "[0.6, 1.5]"]
    assert gp.interval_labels([{3, 1}, {7}]) == ["[1, 3]", "[7, 7]"]
    with pytest.raises(InputError):
        gp.interval_labels([{"a", 1}])


def test_order_argument():
    jr, values = random_range(6, 4, seed=2)
    labels = jr.public_labels.tolist()
    rev = labels[::-1]
    f = gp.interval_frontier(jr, "L0", "U1", order=rev)
    assert f.proof["order"] == rev
    assert [(round(p.privacy, 9), round(p.utility, 9)) for p in f.points] == brute_force(jr, "L0", "U1", None, rev)
    with pytest.raises(InputError):
        gp.interval_frontier(jr, "L0", "U1", order=labels[:-1])
    with pytest.raises(InputError):
        gp.interval_frontier(jr, "L0", "U1", order=labels[:-1] + [labels[0]])


def test_interval_release_and_cli(tmp_path):
    import json

    from graphpriv.cli import main

    jr, values = gp.datasets.paper_example()
    r = gp.interval_release(jr, "L0", 2.5, "U2", values)
    assert r.info["search"] == "interval" and gp.interval_labels(r.quantization, values) == ["[0.1, 0.4]", "[0.6, 1.5]"]
    f = gp.interval_frontier(jr, "L0", "U2", values)
    best = min(p.privacy - 2.5 * p.utility for p in f.points)
    assert r.L == pytest.approx(best)
    with pytest.raises(InputError):
        gp.interval_release(jr, "L0", 1.0, "U2", values, min_utility=-1.0)
    out = tmp_path / "rel"
    rc = main(["sanitize", "hungarian", "-s", "age", "-x", "chol", "--missing", "drop", "--objective", "L0", "--utility",
               "U2", "--min-utility", "-60", "--search", "interval", "--out", str(out), "--no-animation", "--no-explorer",
               "--quiet"])
    assert rc == 0
    summary = json.loads((out / "summary.json").read_text())
    assert summary["search"] == "interval" and summary["after"]["utility"] >= -60
    mapping = json.loads((out / "mapping.json").read_text())
    released = {str(v["released"]) for v in mapping["values"] if v["changed"]}
    assert released and all(t.startswith("[") and t.endswith("]") and ", " in t for t in released)


def test_hungarian_search_frontier_figure_and_bounds(tmp_path):
    from graphpriv.reproduce import build_all

    jr = gp.datasets.hungarian_range(missing="drop")
    values = {x: float(x) for x in jr.public_labels.tolist()}
    b = gp.frontier_bounds(jr, "L0", "U2", values)
    f = gp.interval_frontier(jr, "L0", "U2", values)
    g = gp.pareto_frontier(jr, "L0", "U2", values)
    for p in [*f.points, *g.points]:          # nothing lies above the proven staircase
        assert p.utility <= b.loc[b.privacy <= p.privacy + 1e-12, "utility_bound"].max() + 1e-9
    built = build_all(tmp_path, only=["research_hungarian_search_frontiers"], quick=True, formats=("png",))
    assert [s.name for s in built] == ["research_hungarian_search_frontiers"]
    assert (tmp_path / "research_hungarian_search_frontiers.png").stat().st_size > 1000
