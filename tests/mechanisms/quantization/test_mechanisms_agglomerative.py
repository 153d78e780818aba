"""Fast agglomerative mechanisms vs the plain reference, properties, Hungarian data, bad input."""

import json
import math
import os
import sys

import numpy as np
import pandas as pd
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import graphpriv as gp
from graphpriv.errors import InputError, InputTypeError, UnknownLabelError
from graphpriv.mechanisms.agglomerative import _Problem, _trajectory

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__)))))  # tests/: the reference implementations
from reference_agglomerative import ref_from_range  # noqa: E402


@st.composite
def instances(draw, max_x=7, max_s=5):
    n_x = draw(st.integers(2, max_x))
    n_s = draw(st.integers(1, max_s))
    sens, pub = [], []
    for j in range(n_x):
        ss = draw(st.sets(st.integers(0, n_s - 1), min_size=1, max_size=min(3, n_s)))
        for s in sorted(ss):
            sens.append(f"s{s}")
            pub.append(f"x{j}")
    jr = gp.JointRange.from_pairs(sens, pub)
    # values on a coarse grid so that ties happen
    vals = {x: draw(st.integers(0, 8)) / 4 for x in jr.public_labels.tolist()}
    return jr, vals


def _fast_steps(jr, objective, utility, values, lam, tie_rule="paper"):
    prob = _Problem(jr, objective, utility, values, 2)
    prob.tie_rule = tie_rule
    traj = _trajectory(prob, lam)
    return [(list(m), p, u) for m, p, u in zip(traj.merges, traj.priv, traj.util)]


def _same(fast, ref, lam):
    assert len(fast) == len(ref)
    for (mf, pf, uf), (mr, pr, ur) in zip(fast, ref):
        assert [tuple(sorted(p)) for p in mf] == [tuple(sorted(p)) for p in mr]
        assert pf == pytest.approx(pr, abs=1e-9)
        assert uf == pytest.approx(ur, abs=1e-9)
        if lam is not None:
            assert pf - lam * uf == pytest.approx(pr - lam * ur, abs=1e-9)


LAMS = st.one_of(st.none(), st.sampled_from([0.0, 0.1, 0.3, 0.75, 2.5]))


@settings(max_examples=50, deadline=None)
@given(instances(), LAMS, st.sampled_from(["U1", "U2"]))
def test_alg2_fast_matches_reference(inst, lam, util):
    jr, vals = inst
    values = vals if util == "U2" else None
    ref = ref_from_range(jr, values).alg2(lam)
    _same(_fast_steps(jr, "I*", util, values, lam), ref, lam)


@settings(max_examples=50, deadline=None)
@given(instances(), LAMS, st.sampled_from(["U1", "U2"]))
def test_alg1_fast_matches_reference(inst, lam, util):
    jr, vals = inst
    values = vals if util == "U2" else None
    ref = ref_from_range(jr, values).alg1(lam)
    _same(_fast_steps(jr, "L0", util, values, lam), ref, lam)


@settings(max_examples=40, deadline=None)
@given(instances(max_x=6), st.sampled_from([0.0, 0.3, 1.0]), st.sampled_from(["U1", "U2"]))
def test_problem10_fast_matches_reference(inst, lam, util):
    jr, vals = inst
    values = vals if util == "U2" else None
    ref = ref_from_range(jr, values).problem10(lam)
    _same(_fast_steps(jr, "L0|I*=0", util, values, lam), ref, lam)


@settings(max_examples=30, deadline=None)
@given(instances(), st.sampled_from([0.0, 0.3, 1.0]))
def test_squared_distance_matches_reference(inst, lam):
    jr, vals = inst
    ref = ref_from_range(jr, vals, squared=True).alg2(lam)
    _same(_fast_steps(jr, "I*", gp.U2(distance="squared"), vals, lam), ref, lam)


@settings(max_examples=40, deadline=None)
@given(instances(), st.sampled_from(["L0", "I*", "L0|I*=0"]), st.sampled_from([0.0, 0.2, 0.5, 2.0]), st.sampled_from(["U1", "U2"]))
def test_result_properties(inst, objective, lam, util):
    jr, vals = inst
    values = vals if util == "U2" else None
    r = gp.agglomerate(jr, objective, lam, util, values)
    labels = jr.public_labels.tolist()
    # a partition of X
    flat = [x for c in r.quantization for x in c]
    assert sorted(flat) == sorted(labels) and len(flat) == len(set(flat))
    # clusters in index order
    codes = [min(labels.index(x) for x in c) for c in r.quantization]
    assert codes == sorted(codes)
    tr = r.trace
    assert tr.quantization() == r.quantization
    # L decreases strictly along the accepted steps (Algorithms 1 and 2)
    if objective != "L0|I*=0":
        acc = np.array(tr.step_accepted)
        assert np.all(tr.delta_L[1:][acc[1:]] < 0)
        assert acc[: tr.returned + 1].all() and not acc[tr.returned + 1:].any()
    else:  # problem (10): I* = 0
        q = gp.quantize_range(jr, r.quantization)
        assert gp.maximin_information(q) == 0.0
    # recorded privacy/utility agree with a direct evaluation
    obj = "I*" if objective == "I*" else "L0"
    for t in range(len(tr)):
        p, u = gp.evaluate_quantization(jr, tr.quantization(t), obj, util, values)
        assert p == pytest.approx(tr.step_privacy[t], abs=1e-9)
        assert u == pytest.approx(tr.step_utility[t], abs=1e-9)
        assert tr.step_n_components[t] == gp.n_components(gp.quantize_range(jr, tr.quantization(t)))
        assert tr.step_n_clusters[t] == len(tr.quantization(t))
        assert {frozenset(x for lab in p for x in lab) for p in gp.finest_decomposition(gp.quantize_range(jr, tr.quantization(t)))} == set(tr.partition(t))
    # JSON round trip
    tr2 = gp.MergeTrace.from_json(tr.to_json())
    assert tr2 == tr and tr2.quantization() == tr.quantization()


def test_merge_order_does_not_depend_on_lambda():
    rng = np.random.default_rng(3)
    sens = rng.integers(0, 12, 120)
    pub = rng.integers(0, 60, 120)
    jr = gp.JointRange.from_pairs(sens, pub)
    vals = {x: float(x) for x in jr.public_labels.tolist()}
    for obj in ("L0", "I*"):
        for util in ("U1", "U2"):
            v = vals if util == "U2" else None
            full = _fast_steps(jr, obj, util, v, None)
            for lam in (0.0, 0.05, 0.5, 5.0):
                part = _fast_steps(jr, obj, util, v, lam)
                assert [m for m, _, _ in part] == [m for m, _, _ in full[: len(part)]]


def test_medoid_and_callable_codewords():
    jr, values = gp.datasets.paper_example()
    r = gp.agglomerate(jr, "I*", 0.3, gp.U2(values, codeword="medoid"))
    assert all(r.mapping[x] in values.values() for x in values)
    flat = sorted(x for c in r.quantization for x in c)
    assert flat == sorted(values)
    u = gp.U2(values, codeword=lambda m: float(np.median(m)), distance=lambda a, b: abs(a - b))
    r2 = gp.agglomerate(jr, "I*", 0.3, u)
    # the callable setting equals the built-in medoid-free path when it reproduces the centroid rule
    u3 = gp.U2(values, codeword=lambda m: float(np.mean(m)), distance=lambda a, b: abs(a - b))
    r3 = gp.agglomerate(jr, "I*", 0.3, u3)
    r4 = gp.agglomerate(jr, "I*", 0.3, "U2", values)
    assert r3.quantization == r4.quantization
    assert r3.utility == pytest.approx(r4.utility)
    assert len(r2.trace) >= 2


def test_vector_values():
    jr, values = gp.datasets.paper_example()
    vec = {x: (v, 0.0) for x, v in values.items()}
    r = gp.agglomerate(jr, "I*", 0.3, "U2", vec)
    r1 = gp.agglomerate(jr, "I*", 0.3, "U2", values)
    assert r.quantization == r1.quantization
    assert isinstance(r.mapping["x1"], tuple)


def test_transform():
    jr, values = gp.datasets.paper_example()
    r = gp.agglomerate(jr, "L0", 2.5, "U2", values)
    s = pd.Series(["x6", "x7", "x1"], index=[10, 11, 12], name="X")
    out = r.transform(s)
    assert list(out.index) == [10, 11, 12] and out.name == "X"
    assert out.tolist() == pytest.approx([1.25, 1.25, 0.2])
    r1 = gp.agglomerate(jr, "I*", 0.3)
    assert r1.transform(["x1", "x3", "x7"], "id") == [0, 0, 0]
    assert r1.transform(["x1", "x3", "x7"]) == ["{x1, x3, x7}"] * 3       # U1: generalisation labels by default
    with pytest.raises(UnknownLabelError):
        r1.transform(["nope"])


def test_search_dispatch_errors():
    jr, _ = gp.datasets.paper_example()
    with pytest.raises(InputError, match="greedy"):
        gp.agglomerate(jr, "I*", 0.3, search="no-such-search")


def test_bad_input():
    jr, values = gp.datasets.paper_example()
    with pytest.raises(InputError, match="values"):
        gp.agglomerate(jr, "I*", 0.3, "U2")
    with pytest.raises(InputTypeError):
        gp.agglomerate(jr, "I*", 0.3, "U2", {x: "abc" for x in values})
    with pytest.raises(InputTypeError):
        gp.agglomerate(jr, "I*", 0.3, "U2", {x: "0.5" for x in values})
    with pytest.raises(InputError, match="no number"):
        gp.agglomerate(jr, "I*", 0.3, "U2", {"x1": 1.0})
    with pytest.raises(InputError, match="finite"):
        gp.agglomerate(jr, "I*", 0.3, "U2", {x: float("nan") for x in values})
    with pytest.raises(InputError, match="lam"):
        gp.agglomerate(jr, "I*", -0.1)
    with pytest.raises(InputError, match="lam"):
        gp.agglomerate(jr, "I*", float("inf"))
    with pytest.raises(InputTypeError, match="lam"):
        gp.agglomerate(jr, "I*", "0.3")
    with pytest.raises(InputError, match="objective"):
        gp.agglomerate(jr, "H0", 0.3)
    with pytest.raises(InputError, match="utility"):
        gp.agglomerate(jr, "I*", 0.3, "U3")
    with pytest.raises(InputTypeError):
        gp.agglomerate(jr, "I*", 0.3, 3)
    with pytest.raises(InputTypeError):
        gp.agglomerate([[1, 0]], "I*", 0.3)
    with pytest.raises(InputError):
        gp.U2(values, codeword="mode")
    with pytest.raises(InputError):
        gp.U2(values, distance="cosine")
    with pytest.raises(InputError, match="partition"):
        gp.quantize_range(jr, [{"x1", "x2"}, {"x2", "x3"}])
    with pytest.raises(InputError, match="partition"):
        gp.quantize_range(jr, [{"x1", "x2"}])
    with pytest.raises(UnknownLabelError):
        gp.quantize_range(jr, [{"x1", "zz"}])


def test_trace_api():
    jr, _ = gp.datasets.paper_example()
    tr = gp.agglomerate(jr, "I*", 0.3).trace
    df = tr.to_frame()
    assert list(df.columns[:7]) == ["t", "privacy", "utility", "L", "delta_L", "n_clusters", "n_components"]
    assert len(df) == len(tr) == 5 and np.isnan(df.delta_L[0])
    d = json.loads(tr.to_json())
    assert d["steps"][1]["merged"] == [[0, 2]]
    assert tr.steps[0].merged == () and tr.steps[0].t == 0
    assert tr.quantization(-1) == tr.quantization(4)
    with pytest.raises(InputError):
        tr.quantization(9)
    with pytest.raises(InputError):
        gp.MergeTrace.from_json("{}")
    with pytest.raises(InputError):
        gp.MergeTrace.from_json("not json")
    assert "MergeTrace(" in repr(tr) and "MergeStep(" in repr(tr.steps[1])
    # tuple and MISSING labels survive JSON
    jr2 = gp.JointRange.from_pairs(["a", "b", "b", None], [(1, 2), (1, 2), (3, 4), (3, 4)], missing="keep")
    tr2 = gp.agglomerate(jr2, "I*", 0.1).trace
    assert gp.MergeTrace.from_json(tr2.to_json()) == tr2


@pytest.mark.parametrize("objective", ["L0", "I*", "L0|I*=0"])
@pytest.mark.parametrize("util", ["U1", "U2"])
def test_hungarian_runs_and_replays(objective, util):
    """Hungarian data (paper 003, Section VII-B). U2 needs a number per label: the MISSING cholesterol
    label has none, so U2 runs use missing='drop' (a range with MISSING raises a clear error)."""
    if util == "U2":
        jr = gp.datasets.hungarian_range(missing="drop")
        values = "labels"
        with pytest.raises(InputError, match="missing='drop'"):
            gp.agglomerate(gp.datasets.hungarian_range(), objective, 0.1, "U2", "labels")
    else:
        jr = gp.datasets.hungarian_range()
        values = None
    lam = {"U1": 0.5, "U2": 0.02}[util]
    r = gp.agglomerate(jr, objective, lam, util, values)
    tr = r.trace
    assert gp.MergeTrace.from_json(tr.to_json()) == tr
    q = tr.quantized_range(jr)
    assert q.n_public == len(r.quantization)
    if objective == "I*":
        assert r.privacy == pytest.approx(gp.maximin_information(q))
    else:
        assert r.privacy == pytest.approx(gp.L0(q))
    if objective == "L0|I*=0":
        assert gp.maximin_information(q) == 0.0
    flat = [x for c in r.quantization for x in c]
    assert len(flat) == jr.n_public == len(set(flat))


def test_hungarian_alg2_full_trajectory_matches_reference():
    jr = gp.datasets.hungarian_range(missing="drop")
    for util, values in (("U1", None), ("U2", {x: float(x) for x in jr.public_labels.tolist()})):
        ref = ref_from_range(jr, values).alg2(None)
        _same(_fast_steps(jr, "I*", util, values, None), ref, None)


def test_quantising_the_pair_Y_equals_S_X():
    """End of Section V-C: with S observable the curator quantises Y = (S, X) (Markov chain S - Y - Ŷ);
    the same entry point applies with public labels (s, x)."""
    jr, values = gp.datasets.paper_example()
    df = jr.to_frame()
    s_col, x_col = df.columns[:2]
    jy = gp.JointRange.from_pairs(df[s_col], list(zip(df[s_col], df[x_col])))
    assert jy.n_public == jr.n_pairs
    assert all(len(jy.conditional_range(y)) == 1 for y in jy.public_labels.tolist())
    for objective in ("L0", "I*", "L0|I*=0"):
        r = gp.agglomerate(jy, objective, 0.0)
        q = r.trace.quantized_range(jy)
        assert gp.MergeTrace.from_json(r.trace.to_json()) == r.trace
        if objective != "L0":
            assert gp.maximin_information(q) == 0.0
    # U2 on Y with the value of its x component
    vy = {y: values[y[1]] for y in jy.public_labels.tolist()}
    r = gp.agglomerate(jy, "I*", 0.3, "U2", vy)
    assert sorted(x for c in r.quantization for x in c) == sorted(jy.public_labels.tolist())


def test_side_information_recipe():
    """Section V-C, side information A: I*(S; X̂, A) = log |P*| of G_{X,A}, whose nodes are the pairs (x, a).
    The documented recipe uses the joint range of S and (X, A); check that its maximin information is the
    component count of G_{X,A} built by hand, then run the mechanism on it."""
    import networkx as nx

    rng = np.random.default_rng(7)
    rows = [(int(rng.integers(0, 6)), int(rng.integers(0, 8)), int(rng.integers(0, 2))) for _ in range(30)]
    s = [r[0] for r in rows]
    xa = [(r[1], r[2]) for r in rows]
    jr = gp.JointRange.from_pairs(s, xa)
    S_of = {}
    for si, node in zip(s, xa):
        S_of.setdefault(node, set()).add(si)
    G = nx.Graph()
    G.add_nodes_from(S_of)
    nodes = list(S_of)
    for i, u in enumerate(nodes):
        for v in nodes[i + 1:]:
            if S_of[u] & S_of[v]:
                G.add_edge(u, v)
    assert gp.n_components(jr) == nx.number_connected_components(G)
    r = gp.agglomerate(jr, "I*", 0.1)
    assert r.privacy == pytest.approx(gp.maximin_information(r.trace.quantized_range(jr)))


@settings(max_examples=40, deadline=None)
@given(instances(max_x=6), st.sampled_from([0.0, 0.3, 1.0]))
def test_index_tie_rule_matches_reference(inst, lam):
    jr, _ = inst
    _same(_fast_steps(jr, "I*", "U1", None, lam, "index"), ref_from_range(jr).alg2(lam, "index"), lam)
    _same(_fast_steps(jr, "L0|I*=0", "U1", None, lam, "index"), ref_from_range(jr).problem10(lam, "index"), lam)


def test_index_tie_rule_changes_example3():
    """With tie_rule='index' Example 5's first merge is the lowest-index pair of Ψ, ({x1},{x3}),
    instead of the paper's ({x2},{x3}) (smallest |S|X1| + |S|X2|)."""
    jr, _ = gp.datasets.paper_example()
    r = gp.agglomerate(jr, "L0|I*=0", 0.3, tie_rule="index")
    assert r.trace.steps[1].merged == ((frozenset({"x1"}), frozenset({"x3"})),)
    assert r.trace.info["tie_rule"] == "index"
    with pytest.raises(InputError, match="tie_rule"):
        gp.agglomerate(jr, "I*", 0.3, tie_rule="random")


@st.composite
def medium_instances(draw):
    """16-26 public values: the first half with two sensitive values, the rest with one, over many
    sensitive values. The clusters with the smallest |S| then have high indices, so under the 'index'
    tie rule the best pair of eq. (12) often avoids them and the grouped search of Section V-C (U1) is
    exercised beyond its special clusters."""
    n_x = draw(st.integers(16, 26))
    n_s = draw(st.integers(n_x, 2 * n_x))
    sens, pub = [], []
    for j in range(n_x):
        k = 2 if j < n_x // 2 else 1
        ss = draw(st.lists(st.integers(0, n_s - 1), min_size=k, max_size=k, unique=True))
        for s in ss:
            sens.append(s)
            pub.append(j)
    return gp.JointRange.from_pairs(sens, pub)


@settings(max_examples=20, deadline=None)
@given(medium_instances(), st.sampled_from([0.0, 0.3, 2.0]), st.sampled_from(["paper", "index"]))
def test_problem10_u1_grouped_search_matches_reference(jr, lam, rule):
    _same(_fast_steps(jr, "L0|I*=0", "U1", None, lam, rule), ref_from_range(jr).problem10(lam, rule), lam)
