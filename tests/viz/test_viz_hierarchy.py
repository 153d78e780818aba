"""The merge hierarchy as a scipy linkage (``MergeTrace.to_linkage``) and the matrix view's column order:
cutting the linkage just above step t gives Q(t) exactly, for Algorithms 1 and 2 and Section V-C of
Ding & Farokhi, *Developing Non-Stochastic Privacy-Preserving Policies Using Agglomerative Clustering*."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from scipy.cluster.hierarchy import fcluster, is_valid_linkage

import graphpriv as gp
from graphpriv.errors import InputError, InputTypeError
from graphpriv.viz.matrix import column_order, matrix_bands
from graphpriv.viz.labels import label_key

OBJECTIVES = ["L0", "I*", "L0|I*=0"]


def flat_partition(labels, ids):
    groups = {}
    for x, k in zip(labels, ids):
        groups.setdefault(int(k), set()).add(x)
    return sorted(map(frozenset, groups.values()), key=lambda g: sorted(map(str, g)))


def q_partition(trace, t):
    return sorted(trace.quantization(t), key=lambda g: sorted(map(str, g)))


def assert_linkage_matches(trace):
    Z = trace.to_linkage()
    n = trace.n_public
    assert Z.shape == (n - 1, 4)
    assert is_valid_linkage(Z, throw=True)
    assert np.all(np.diff(Z[:, 2]) >= 0)  # heights never decrease
    heights = Z[:, 2]
    for t in range(len(trace)):
        assert np.count_nonzero(heights == t) == len(trace.step_merges[t])  # one row per merged pair
        got = flat_partition(trace.public_labels, fcluster(Z, t + 0.5, "distance"))
        assert got == q_partition(trace, t), f"t={t}"
    # completing joins sit at height len(trace) and leave one cluster
    assert np.count_nonzero(heights == len(trace)) == trace.step_n_clusters[-1] - 1
    assert len(set(fcluster(Z, len(trace) + 0.5, "distance").tolist())) == 1
    return Z


def assert_bands(trace, jr, t):
    b = matrix_bands(trace, jr, t)
    n = trace.n_public
    assert sorted(b.order.tolist()) == list(range(n))
    assert np.array_equal(column_order(trace, jr, t), b.order)
    cid = trace.cluster_ids(t)[b.order]
    comp = trace.component_ids(t)[b.order]
    # each cluster and each component is one contiguous run of columns
    for ids in (cid, comp):
        runs = ids[np.r_[True, ids[1:] != ids[:-1]]]
        assert len(runs) == len(set(ids.tolist()))
    assert [cid[a] for a, _ in b.cluster_bounds] == runs_of(cid)
    # inside a cluster, values are in increasing order; clusters of a component by smallest value
    labels = trace.public_labels
    for a, c in b.cluster_bounds:
        keys = [label_key(labels[i]) for i in b.order[a:c]]
        assert keys == sorted(keys)
    for a, c in b.component_bounds:
        firsts = [label_key(labels[b.order[s]]) for s, _ in b.cluster_bounds if a <= s < c]
        assert firsts == sorted(firsts)


def runs_of(ids):
    return [ids[i] for i in range(len(ids)) if i == 0 or ids[i] != ids[i - 1]]


@pytest.mark.parametrize("objective", OBJECTIVES)
def test_linkage_paper_example(objective):
    jr, _ = gp.datasets.paper_example()
    tr = gp.agglomerate(jr, objective, 0.3).trace
    Z = assert_linkage_matches(tr)
    for t in range(len(tr)):
        assert_bands(tr, jr, t)
    if objective == "I*":  # paper 003, Example 3: x1 + x3 at t = 1, x2 + x5 at t = 2
        assert Z[0].tolist() == [0.0, 2.0, 1.0, 2.0]
        assert Z[1].tolist() == [1.0, 4.0, 2.0, 2.0]


def test_linkage_paper_example_u2_stops_early():
    """Paper 003, Example 2 with U2 (lambda = 2.5) returns Q(1); the rest is completed at height len(trace)."""
    jr, values = gp.datasets.paper_example(4)
    tr = gp.agglomerate(jr, "L0", 2.5, utility="U2", values=values).trace
    Z = assert_linkage_matches(tr)
    assert (Z[:, 2] == len(tr)).any()


@pytest.fixture(scope="module")
def hungarian():
    return gp.datasets.hungarian_range()


@pytest.mark.parametrize("objective, lam", [("L0", 0.0), ("L0", 2.3), ("I*", 0.0), ("I*", 1.3), ("L0|I*=0", 0.5)])
def test_linkage_hungarian(hungarian, objective, lam):
    tr = gp.agglomerate(hungarian, objective, lam).trace
    assert_linkage_matches(tr)
    for t in sorted({0, 1, tr.returned, len(tr) - 1}):
        assert_bands(tr, hungarian, t)


def test_linkage_multi_pair_sweep_rows_share_a_height(hungarian):
    """Algorithm 1 merges many pairs in one sweep: several rows at the same height t."""
    tr = gp.agglomerate(hungarian, "L0", 0.0).trace
    Z = tr.to_linkage()
    big = max(range(len(tr)), key=lambda t: len(tr.step_merges[t]))
    assert len(tr.step_merges[big]) > 1
    assert np.count_nonzero(Z[:, 2] == big) == len(tr.step_merges[big])


def test_label_key_numeric_then_natural_then_missing():
    assert sorted([100, 92, 122, 5.5, np.int64(7)], key=label_key) == [5.5, 7, 92, 100, 122]
    assert sorted(["x10", "x2", "x1"], key=label_key) == ["x1", "x2", "x10"]
    assert sorted([gp.MISSING, "a", 3], key=label_key) == [3, "a", gp.MISSING]


def test_column_order_bad_input():
    jr, _ = gp.datasets.paper_example()
    tr = gp.agglomerate(jr, "I*", 0.3).trace
    with pytest.raises(InputTypeError):
        column_order("not a trace", jr, 0)
    with pytest.raises(InputError):
        column_order(tr, jr, 99)
    other = gp.JointRange.from_pairs(["s1", "s2"], ["a", "b"])
    with pytest.raises(InputError):
        column_order(tr, other, 0)
    assert column_order(tr, 1).tolist() == column_order(tr, jr, 1).tolist()


@st.composite
def instances(draw, max_x=8, max_s=5):
    n_x = draw(st.integers(2, max_x))
    n_s = draw(st.integers(1, max_s))
    sens, pub = [], []
    for j in range(n_x):
        for s in sorted(draw(st.sets(st.integers(0, n_s - 1), min_size=1, max_size=min(3, n_s)))):
            sens.append(f"s{s}")
            pub.append(j * 7 % 11 if draw(st.booleans()) else f"x{j}")
    return gp.JointRange.from_pairs(sens, pub)


@settings(max_examples=40, deadline=None)
@given(instances(), st.sampled_from(OBJECTIVES), st.sampled_from([0.0, 0.3, 1.0, 5.0]))
def test_linkage_random_ranges(jr, objective, lam):
    tr = gp.agglomerate(jr, objective, lam).trace
    assert_linkage_matches(tr)
    for t in range(len(tr)):
        assert_bands(tr, jr, t)
