"""Frontiers (one-trajectory greedy and exact), Fig. 7 normalisations, and the k-anonymity baseline."""

import math

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import graphpriv as gp
from graphpriv.errors import InputError, InputTypeError, TooLargeError
from graphpriv.mechanisms.exact import bell_number, set_partitions

from test_mechanisms_agglomerative import instances


def _partitions(items):
    """Independent recursive set-partition generator (oracle)."""
    if not items:
        yield []
        return
    first, rest = items[0], items[1:]
    for p in _partitions(rest):
        for i in range(len(p)):
            yield p[:i] + [[first] + p[i]] + p[i + 1:]
        yield [[first]] + p


def _dominated_or_equal(point, frontier, tol=1e-9):
    p, u = point
    return any(fp <= p + tol and fu >= u - tol for fp, fu in frontier)


@settings(max_examples=30, deadline=None)
@given(instances(max_x=6), st.sampled_from(["L0", "I*", "L0|I*=0"]), st.sampled_from(["U1", "U2"]))
def test_greedy_never_beats_exact(inst, objective, util):
    jr, vals = inst
    values = vals if util == "U2" else None
    ex = gp.exact_frontier(jr, objective, util, values)
    ex_pts = [(p.privacy, p.utility) for p in ex.points]
    lams = None if objective != "L0|I*=0" else [0.0, 0.1, 0.5, 2.0]
    gr = gp.pareto_frontier(jr, objective, util, values, lams=lams)
    for p in gr.points:
        assert _dominated_or_equal((p.privacy, p.utility), ex_pts)
    for lam in (0.0, 0.3, 1.0):
        r = gp.agglomerate(jr, objective, lam, util, values)
        assert _dominated_or_equal((r.privacy, r.utility), ex_pts)
    if objective == "L0|I*=0":
        for p in ex.points + gr.points:
            assert gp.maximin_information(gp.quantize_range(jr, p.quantization)) == 0.0


@settings(max_examples=25, deadline=None)
@given(instances(max_x=5), st.sampled_from(["L0", "I*", "L0|I*=0"]), st.sampled_from(["U1", "U2"]))
def test_exact_frontier_matches_brute_force(inst, objective, util):
    jr, vals = inst
    values = vals if util == "U2" else None
    labels = jr.public_labels.tolist()
    pts = []
    for part in _partitions(labels):
        q = [set(c) for c in part]
        if objective == "L0|I*=0" and gp.maximin_information(gp.quantize_range(jr, q)) > 0:
            continue
        pts.append(gp.evaluate_quantization(jr, q, "I*" if objective == "I*" else "L0", util, values))
    keep = gp.pareto_filter(np.round([p for p, _ in pts], 12), np.round([u for _, u in pts], 12))
    expect = sorted((round(pts[i][0], 9), round(pts[i][1], 9)) for i in keep)
    f = gp.exact_frontier(jr, objective, util, values)
    got = sorted((round(p.privacy, 9), round(p.utility, 9)) for p in f.points)
    assert got == expect
    for p in f.points:  # the stored quantisation achieves the point
        pp, uu = gp.evaluate_quantization(jr, p.quantization, "I*" if objective == "I*" else "L0", util, values)
        assert pp == pytest.approx(p.privacy) and uu == pytest.approx(p.utility)


@settings(max_examples=30, deadline=None)
@given(instances(), st.sampled_from(["L0", "I*"]), st.sampled_from(["U1", "U2"]))
def test_frontier_lambda_ranges_select_their_points(inst, objective, util):
    jr, vals = inst
    values = vals if util == "U2" else None
    f = gp.pareto_frontier(jr, objective, util, values)
    assert len(f) >= 1
    priv = [p.privacy for p in f.points]
    assert priv == sorted(priv)
    for p in f.points:
        lam = p.lam_min if math.isinf(p.lam_max) else (p.lam_min + p.lam_max) / 2
        r = gp.agglomerate(jr, objective, lam, util, values)
        assert r.privacy == pytest.approx(p.privacy) and r.utility == pytest.approx(p.utility)
        assert set(r.quantization) == set(p.quantization)
        assert r.trace.returned == p.t
    # the trajectory trace is λ-free and replays
    assert gp.MergeTrace.from_json(f.trace.to_json()) == f.trace


def test_frontier_with_lambda_grid_matches_individual_runs():
    jr = gp.datasets.hungarian_range(missing="drop")
    lams = np.linspace(0, 3, 41)
    for objective in ("L0", "I*"):
        f = gp.pareto_frontier(jr, objective, "U1", lams=lams)
        runs = [gp.agglomerate(jr, objective, lam) for lam in lams]
        keep = gp.pareto_filter([r.privacy for r in runs], [r.utility for r in runs])
        expect = sorted((round(runs[i].privacy, 9), round(runs[i].utility, 9)) for i in keep)
        assert sorted((round(p.privacy, 9), round(p.utility, 9)) for p in f.points) == expect


def test_fig7_normalisations():
    """Paper 003, Fig. 7 (Section VII-A): Algorithm 2's frontier on Example 1 reaches I* = 0 at
    I0(X -> X̂) = log2(7/3); utility loss 1 - U1(X̂)/U1(X) = 1 - log2(7/3)/log2(7)."""
    jr, _ = gp.datasets.paper_example()
    for f in (gp.pareto_frontier(jr, "I*"), gp.exact_frontier(jr, "I*")):
        df = f.to_frame()
        row = df[df.privacy == 0.0].iloc[0]
        assert row.utility == pytest.approx(math.log2(7 / 3))
        assert row.utility_loss == pytest.approx(1 - math.log2(7 / 3) / math.log2(7))
        assert row.privacy_normalized == 0.0
        assert f.privacy_of_x == pytest.approx(math.log2(5)) and f.utility_of_x == pytest.approx(math.log2(7))
    _, values = gp.datasets.paper_example()
    f = gp.pareto_frontier(jr, "L0", "U2", values)
    assert f.utility_hat == pytest.approx(-0.9143, abs=1e-4)  # one cluster: d̄({x1..x7})
    assert f.utility_loss().tolist() == pytest.approx([1.0, 0.25 / 0.9142857142857144, 0.0])


def test_set_partitions_and_bell():
    for n in range(1, 8):
        a = set_partitions(n)
        assert len(a) == bell_number(n) == sum(1 for _ in _partitions(list(range(n))))
        assert len({tuple(r) for r in a.tolist()}) == len(a)
    assert bell_number(10) == 115975


def test_exact_limits():
    jr = gp.JointRange.from_pairs(list(range(11)), list(range(11)))
    with pytest.raises(TooLargeError, match="Bell"):
        gp.exact_frontier(jr, "I*", method="enumerate")
    with pytest.raises(TooLargeError):
        gp.exact_frontier(gp.JointRange.from_pairs(list(range(13)), list(range(13))), "I*", max_public=13, method="enumerate")
    # above |X| = 10 "auto" solves instead of enumerating
    f = gp.exact_frontier(jr, "I*", time_limit=30)
    assert f.method == "solver" and f.certified       # 11 isolated values: the counting bound proves every level
    with pytest.raises(InputError):
        gp.exact_frontier(jr, "I*", max_public=0)
    with pytest.raises(InputError):
        gp.pareto_frontier(jr, "I*", lams=[-1.0])
    with pytest.raises(InputError):
        gp.pareto_frontier(jr, "I*", lams=[])


def test_exact_ten_values_runs():
    rng = np.random.default_rng(5)
    sens = rng.integers(0, 5, 16)
    pub = np.concatenate([np.arange(10), rng.integers(0, 10, 6)])
    jr = gp.JointRange.from_pairs(sens, pub)
    f = gp.exact_frontier(jr, "L0")
    g = gp.pareto_frontier(jr, "L0")
    ex = [(p.privacy, p.utility) for p in f.points]
    assert all(_dominated_or_equal((p.privacy, p.utility), ex) for p in g.points)


# ---------------------------------------------------------------- k-anonymity baseline
@settings(max_examples=40, deadline=None)
@given(instances(), st.integers(1, 5), st.booleans())
def test_k_anonymity_generalization_properties(inst, k, with_values):
    jr, vals = inst
    k = min(k, jr.n_sensitive)
    r = gp.k_anonymity_generalization(jr, k, vals if with_values else None)
    flat = [x for c in r.quantization for x in c]
    assert sorted(flat) == sorted(jr.public_labels.tolist()) and len(flat) == len(set(flat))
    q = gp.quantize_range(jr, r.quantization)
    assert gp.k_anonymity(q) >= k
    assert r.privacy == pytest.approx(gp.L0(q))
    assert r.privacy <= math.log2(jr.n_sensitive / k) + 1e-12  # Lemma 1
    if with_values:  # clusters are intervals of the value order
        for c in r.quantization:
            lo, hi = min(vals[x] for x in c), max(vals[x] for x in c)
            inside = {x for x in jr.public_labels.tolist() if lo < vals[x] < hi}
            assert inside <= set(c)
    assert gp.MergeTrace.from_json(r.trace.to_json()) == r.trace


def test_k_anonymity_on_hungarian_and_frontier_point():
    """Fig. 9: the generalisation-and-suppression point for k = 5 next to Algorithm 1's frontier."""
    jr = gp.datasets.hungarian_range(missing="drop")
    r = gp.k_anonymity_generalization(jr, 5, "labels")
    assert gp.k_anonymity(r.trace.quantized_range(jr)) >= 5
    f = gp.pareto_frontier(jr, "L0", "U2", "labels")
    assert len(f) >= 2 and r.utility <= 0
    r1 = gp.k_anonymity_generalization(jr, 5)
    assert r1.utility_name == "U1" and gp.k_anonymity(r1.trace.quantized_range(jr)) >= 5


def test_k_anonymity_bad_input():
    jr, values = gp.datasets.paper_example()
    with pytest.raises(InputError):
        gp.k_anonymity_generalization(jr, 0)
    with pytest.raises(InputError):
        gp.k_anonymity_generalization(jr, 7)
    with pytest.raises(InputTypeError):
        gp.k_anonymity_generalization(jr, 2.5)
