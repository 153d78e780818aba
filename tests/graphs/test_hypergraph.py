"""Tests of the sample hypergraph H_n and the privacy polytope S (paper 004; spec perfect-sample-privacy.md)."""

import itertools

import networkx as nx
import numpy as np
import pandas as pd
import pytest
import scipy.sparse as sp
from hypothesis import given, settings
from hypothesis import strategies as st

import graphpriv as gp
from graphpriv.errors import DistributionError, InputError, MissingValueError, TooLargeError, UnknownColumnError
from graphpriv.graphs.hypergraph import _cdd_available

EX2_P = np.array([[1, 3, 2], [2, 3, 1]]) / 12  # paper 004, Example 2, p_{X^2}

needs_cdd = pytest.mark.skipif(not _cdd_available(), reason="pycddlib-standalone not installed")


# ------------------------------------------------------------------ strategies
@st.composite
def random_pmfs(draw, max_n=3, max_size=3, max_support=10):
    n = draw(st.integers(2, max_n))
    sizes = tuple(draw(st.integers(2, max_size)) for _ in range(n))
    total = int(np.prod(sizes))
    seed = draw(st.integers(0, 2**31 - 1))
    rng = np.random.default_rng(seed)
    k = draw(st.integers(1, min(total, max_support)))
    idx = rng.choice(total, size=k, replace=False)
    p = np.zeros(total)
    p[idx] = rng.dirichlet(np.ones(k))
    p[idx] = np.maximum(p[idx], 1e-3)
    return (p / p.sum()).reshape(sizes)


# ------------------------------------------------------------------ construction
def test_example2_incidence_matches_paper():
    """Paper 004, Example 2 / spec §1.3: P is 5 x 6, rank 4, nullity 2, singular values sqrt 5, sqrt 3, sqrt 2, sqrt 2."""
    hg = gp.SampleHypergraph.from_pmf(EX2_P)
    assert sp.issparse(hg.incidence)
    expected = np.array([[1, 1, 1, 0, 0, 0], [0, 0, 0, 1, 1, 1], [1, 0, 0, 1, 0, 0], [0, 1, 0, 0, 1, 0], [0, 0, 1, 0, 0, 1]])
    np.testing.assert_array_equal(hg.incidence.toarray(), expected)
    assert (hg.rank, hg.nullity, hg.n, hg.n_edges, hg.n_vertices) == (4, 2, 2, 6, 5)
    s = np.linalg.svd(hg.incidence.toarray().astype(float), compute_uv=False)
    np.testing.assert_allclose(s[:4], np.sqrt([5, 3, 2, 2]), atol=1e-12)
    np.testing.assert_allclose(hg.weights, np.array([1, 3, 2, 2, 3, 1]) / 12)
    # the paper's A (x 1e-4, with the -2385 typo corrected to -2358) spans the same row space
    A_paper = np.array([[4082] * 6, [4082] * 3 + [-4082] * 3, [-4677, 5270, -593, -4677, 5270, -593],
                        [-3385, -2358, 5743, -3385, -2358, 5743]]) * 1e-4
    A = hg.row_basis()
    np.testing.assert_allclose(A_paper @ A.T @ A, A_paper, atol=5e-4)
    assert "nullity=2" in repr(hg)


def test_incidence_columns_in_c_order_and_rows_by_sample():
    p = np.zeros((2, 3, 2))
    p[1, 2, 0] = p[0, 1, 1] = 0.5
    hg = gp.SampleHypergraph.from_pmf(p)
    assert hg.support.tolist() == [[0, 1, 1], [1, 2, 0]]
    np.testing.assert_array_equal(hg.incidence.toarray()[:, 0], [1, 0, 0, 1, 0, 0, 1])
    np.testing.assert_array_equal(hg.incidence.toarray()[:, 1], [0, 1, 0, 0, 1, 1, 0])
    assert hg.flat_index.tolist() == [np.ravel_multi_index((0, 1, 1), (2, 3, 2)), np.ravel_multi_index((1, 2, 0), (2, 3, 2))]
    np.testing.assert_allclose(hg.pmf(), p)


@pytest.mark.parametrize("n", [1, 2, 3, 4, 5])
def test_kronecker_equals_binary_recursion_and_incidence(n):
    """Spec §1.3: P_{k+1} = [[1^T 0^T], [0^T 1^T], [P_k P_k]], P_1 = I_2, equals the Kronecker form."""
    P = np.eye(2, dtype=int)
    for _ in range(n - 1):
        h = P.shape[1]
        P = np.vstack([np.hstack([np.ones((1, h), int), np.zeros((1, h), int)]),
                       np.hstack([np.zeros((1, h), int), np.ones((1, h), int)]), np.hstack([P, P])])
    K = gp.kronecker_incidence([2] * n).toarray()
    np.testing.assert_array_equal(K, P)
    hg = gp.SampleHypergraph.from_pmf(np.full((2,) * n, 0.5**n))
    np.testing.assert_array_equal(hg.incidence.toarray(), K)


def test_kronecker_mixed_alphabets():
    sizes = (2, 3, 4)
    hg = gp.SampleHypergraph.from_pmf(np.full(sizes, 1 / 24))
    np.testing.assert_array_equal(gp.kronecker_incidence(sizes).toarray(), hg.incidence.toarray())
    # rank = sum|X_i| - n + 1 for full support (spec §1.3)
    assert hg.rank == 9 - 3 + 1


def test_rank_can_be_below_bound_on_connected_hypergraph():
    """Spec §5.3: support {000, 001, 110} is connected but rank 3 < |V+| - (n-1)c = 4."""
    hg = gp.SampleHypergraph.from_support([2, 2, 2], [(0, 0, 0), (0, 0, 1), (1, 1, 0)], [0.3, 0.3, 0.4])
    assert hg.rank == 3 and hg.components().n_components == 1 and hg.nullity == 0


def test_prop4_counterexample_nullity_two():
    """Spec §6.8: |supp| = sum|X_i| - n + 2 = 8 but H_2 has 2 components, rank 6, nullity 2."""
    sup = [t for t in itertools.product(range(3), range(3)) if t not in [(2, 2), (0, 2)]] + [(3, 3)]
    hg = gp.SampleHypergraph.from_support([4, 4], sup)
    assert hg.n_edges == 8 == 4 + 4 - 2 + 2
    assert (hg.rank, hg.nullity, hg.components().n_components) == (6, 2, 2)


def test_from_support_sorts_and_validates():
    hg = gp.SampleHypergraph.from_support([2, 2], [(1, 1), (0, 0)], [0.25, 0.75])
    assert hg.support.tolist() == [[0, 0], [1, 1]]
    np.testing.assert_allclose(hg.weights, [0.75, 0.25])
    with pytest.raises(InputError, match="duplicate"):
        gp.SampleHypergraph.from_support([2, 2], [(0, 0), (0, 0)])
    with pytest.raises(InputError, match="codes"):
        gp.SampleHypergraph.from_support([2, 2], [(0, 2)])
    with pytest.raises(InputError, match="weights"):
        gp.SampleHypergraph.from_support([2, 2], [(0, 0), (1, 1)], [1.0])
    with pytest.raises(InputError):
        gp.SampleHypergraph.from_support([0, 2], [(0, 0)])


def test_from_pmf_bad_input():
    with pytest.raises(DistributionError, match="sums to"):
        gp.SampleHypergraph.from_pmf([[0.5, 0.2], [0.1, 0.1]])
    with pytest.raises(DistributionError, match="negative"):
        gp.SampleHypergraph.from_pmf([[1.2, -0.2], [0.0, 0.0]])
    with pytest.raises(DistributionError, match="NaN"):
        gp.SampleHypergraph.from_pmf([[np.nan, 0.5], [0.25, 0.25]])
    with pytest.raises(InputError, match="labels"):
        gp.SampleHypergraph.from_pmf(EX2_P, labels=[[0, 1], [0, 1]])
    with pytest.raises(InputError, match="names"):
        gp.SampleHypergraph.from_pmf(EX2_P, names=["a"])


def test_from_dataframe_counts_labels_and_missing():
    df = pd.DataFrame({"a": [1, 1, 2, 2, None], "b": ["x", "y", "x", "x", "y"], "c": [0, 0, 0, 1, 1]})
    with pytest.raises(MissingValueError):
        gp.SampleHypergraph.from_dataframe(df, ["a", "b"])
    hg = gp.SampleHypergraph.from_dataframe(df, ["a", "b"], missing="drop")
    assert hg.sizes == (2, 2) and hg.support.tolist() == [[0, 0], [0, 1], [1, 0]]
    np.testing.assert_allclose(hg.weights, [0.25, 0.25, 0.5])
    assert hg.names == ("a", "b") and hg.labels[1].tolist() == ["x", "y"]
    hk = gp.SampleHypergraph.from_dataframe(df, ["a", "b", "c"], missing="keep")
    assert hk.sizes == (3, 2, 2) and hk.n_edges == 5
    with pytest.raises(UnknownColumnError):
        gp.SampleHypergraph.from_dataframe(df, ["a", "zz"])


# ------------------------------------------------------------------ null space, components
@settings(max_examples=40, deadline=None)
@given(random_pmfs())
def test_null_bases_span_null_space(p):
    hg = gp.SampleHypergraph.from_pmf(p)
    P = hg.incidence.toarray().astype(float)
    for kind in ("svd", "circuits"):
        N = hg.null_basis(kind)
        assert N.shape == (hg.n_edges, hg.nullity)
        np.testing.assert_allclose(P @ N, 0, atol=1e-9)
        if hg.nullity:
            assert np.linalg.matrix_rank(N) == hg.nullity
    assert hg.rank == np.linalg.matrix_rank(P)


def test_circuits_are_alternating_cycles_for_two_samples():
    hg = gp.SampleHypergraph.from_pmf(np.full((3, 3), 1 / 9))
    N = hg.null_basis("circuits")
    assert N.shape == (9, 4)
    assert set(np.unique(N).tolist()) <= {-1.0, 0.0, 1.0}
    with pytest.raises(InputError):
        hg.null_basis("qr")


@settings(max_examples=40, deadline=None)
@given(random_pmfs(max_n=3, max_size=4, max_support=8))
def test_components_agree_with_networkx_levi_graph(p):
    hg = gp.SampleHypergraph.from_pmf(p)
    comp = hg.components()
    g = hg.levi_graph()
    ncc = [c for c in nx.connected_components(g) if any(node[0] == "e" for node in c)]
    assert comp.n_components == len(ncc)
    for c in ncc:
        edges = sorted(node[1] for node in c if node[0] == "e")
        assert len(set(comp.edge[edges].tolist())) == 1
        vertices = [node for node in c if node[0] == "x"]
        for (_, i, a) in vertices:
            assert comp.common_part()[i][a] == comp.edge[edges[0]]
    np.testing.assert_allclose(comp.mass.sum(), 1.0)
    # the common part kappa is a function of each sample
    for i in range(hg.n):
        np.testing.assert_array_equal(comp.common_part()[i][hg.support[:, i]], comp.edge)
    # the line graph has the same components (spec §5.5)
    assert nx.number_connected_components(hg.to_networkx("line")) == comp.n_components


@settings(max_examples=30, deadline=None)
@given(st.integers(0, 10**6))
def test_two_sample_rank_is_vertices_minus_components(seed):
    """Spec §5.3: for n = 2, rank P = |V+| - c (and nul = cyclomatic number)."""
    rng = np.random.default_rng(seed)
    sizes = tuple(rng.integers(2, 5, 2))
    mask = rng.random(sizes) < 0.5
    mask.flat[rng.integers(mask.size)] = True
    p = mask / mask.sum()
    hg = gp.SampleHypergraph.from_pmf(p)
    v_plus = sum(int((m > 0).sum()) for m in hg.marginals())
    c = hg.components().n_components
    assert hg.rank == v_plus - c
    assert hg.nullity == hg.n_edges - v_plus + c


def test_isolated_values_get_component_minus_one():
    p = np.zeros((3, 2))
    p[0, 0] = p[1, 1] = 0.5
    comp = gp.SampleHypergraph.from_pmf(p).components()
    assert comp.n_components == 2
    assert comp.common_part()[0].tolist() == [0, 1, -1]
    assert [g.tolist() for g in comp.edge_groups()] == [[0], [1]]


# ------------------------------------------------------------------ exports
def test_networkx_exports():
    hg = gp.SampleHypergraph.from_pmf(EX2_P)
    g = hg.to_networkx("levi")
    assert g.number_of_nodes() == 5 + 6 and g.number_of_edges() == 12
    assert nx.is_bipartite(g)
    assert g.nodes[("e", 1)]["weight"] == pytest.approx(3 / 12)
    assert g.nodes[("x", 0, 1)]["weight"] == pytest.approx(0.5)
    s = hg.to_networkx("support")
    assert s.number_of_edges() == 6 and s[("x", 0, 0)][("x", 1, 1)]["weight"] == pytest.approx(0.25)
    with pytest.raises(InputError):
        gp.SampleHypergraph.from_pmf(np.full((2, 2, 2), 1 / 8)).to_networkx("support")
    with pytest.raises(InputError):
        hg.to_networkx("dual")


def test_xgi_export():
    xgi = pytest.importorskip("xgi")
    p = np.zeros((3, 2))
    p[0, 0] = p[1, 1] = 0.5
    h = gp.SampleHypergraph.from_pmf(p).to_xgi()
    assert isinstance(h, xgi.Hypergraph)
    assert h.num_nodes == 5 and h.num_edges == 2  # the isolated value (0, 2) is kept
    assert h.edges.members(0) == {(0, 0), (1, 0)}
    assert h.edges[1]["weight"] == pytest.approx(0.5)


def test_hypernetx_export():
    pytest.importorskip("hypernetx")
    h = gp.SampleHypergraph.from_pmf(EX2_P).to_hypernetx()
    assert len(h.edges) == 6 and len(h.nodes) == 5
    assert sorted(h.incidence_dict[4]) == [(0, 1), (1, 1)]
    p = np.zeros((3, 2))
    p[0, 0] = p[1, 1] = 0.5
    h2 = gp.SampleHypergraph.from_pmf(p).to_hypernetx()
    assert sorted(h2.edges) == [0, 1] and len(h2.nodes) == 4  # the isolated value (0, 2) is not a HyperNetX node


# ------------------------------------------------------------------ polytope vertices
EX2_VERTICES = np.array([[1, 0, 1, 0, 2, 0], [0, 2, 0, 1, 0, 1], [1, 1, 0, 0, 1, 1], [0, 1, 1, 1, 1, 0]]) / 4


def _same_rows(A, B, atol=1e-9):
    if A.shape != B.shape:
        return False
    return all(np.abs(B - a).max(axis=1).min() < atol for a in A)


@pytest.mark.parametrize("method", ["bases", pytest.param("cdd", marks=needs_cdd)])
def test_example2_vertices(method):
    """Paper 004, Example 2 / spec §4.2: four extreme points p_1..p_4 (p_4 not displayed in the paper)."""
    V = gp.privacy_polytope_vertices(gp.SampleHypergraph.from_pmf(EX2_P), method=method)
    assert _same_rows(V, EX2_VERTICES)


@pytest.mark.parametrize("M,k,count", [(2, 1, 2), (2, 2, 6), (3, 1, 6), (3, 2, 90), (4, 1, 24)])
def test_example1_vertex_counts(M, k, count):
    """Spec §4.1: vertex counts 2, 6, 6, 90, 24; k = 1 gives M! (a scaled Birkhoff polytope)."""
    hg = gp.SampleHypergraph.from_pmf(np.full((M, k * M), 1 / (k * M * M)))
    assert gp.privacy_polytope_vertices(hg, method="bases").shape[0] == count


@settings(max_examples=40, deadline=None)
@given(random_pmfs(max_n=3, max_size=3, max_support=9))
def test_vertices_lie_in_polytope_and_methods_agree(p):
    hg = gp.SampleHypergraph.from_pmf(p)
    P = hg.incidence.toarray().astype(float)
    V = gp.privacy_polytope_vertices(hg, method="bases")
    assert V.shape[1] == hg.n_edges and V.shape[0] >= 1
    assert (V >= 0).all()
    np.testing.assert_allclose(V @ P.T, np.tile(P @ hg.weights, (V.shape[0], 1)), atol=1e-9)
    # supports of vertices are linearly independent column sets (spec §5.4)
    for v in V:
        F = np.flatnonzero(v > 1e-12)
        assert np.linalg.matrix_rank(P[:, F]) == F.size <= hg.rank
    # p is a convex combination of the vertices (LP feasibility)
    from scipy.optimize import linprog

    res = linprog(np.zeros(V.shape[0]), A_eq=np.vstack([V.T, np.ones(V.shape[0])]), b_eq=np.r_[hg.weights, 1], bounds=(0, None))
    assert res.status == 0
    if _cdd_available():
        assert _same_rows(gp.privacy_polytope_vertices(hg, method="cdd"), V)


@settings(max_examples=30, deadline=None)
@given(st.integers(0, 10**6))
def test_two_sample_vertex_supports_are_forests_and_factorise(seed):
    """Spec §5.4/5.5: for n = 2 vertex supports are forests; |ext S| = prod_k |ext S_k|."""
    rng = np.random.default_rng(seed)
    sizes = tuple(int(s) for s in rng.integers(2, 4, 2))
    mask = rng.random(sizes) < 0.6
    mask.flat[rng.integers(mask.size)] = True
    w = np.where(mask, rng.random(sizes) + 0.1, 0.0)
    hg = gp.SampleHypergraph.from_pmf(w / w.sum())
    V = gp.privacy_polytope_vertices(hg, method="bases")
    for v in V:
        g = nx.Graph()
        g.add_edges_from((("a", int(a)), ("b", int(b))) for (a, b), t in zip(hg.support, v) if t > 1e-12)
        assert nx.is_forest(g)
    prod = 1
    for grp in hg.components().edge_groups():
        prod *= gp.privacy_polytope_vertices(hg.restrict(grp), method="bases").shape[0]
    assert prod == V.shape[0]


def test_size_limits_raise_too_large():
    hg = gp.SampleHypergraph.from_pmf(np.full((2,) * 6, 1 / 64))
    with pytest.raises(TooLargeError, match="max_support"):
        gp.privacy_polytope_vertices(hg)
    hg5 = gp.SampleHypergraph.from_pmf(np.full((2,) * 5, 1 / 32))
    with pytest.raises(TooLargeError, match="max_bases"):
        gp.privacy_polytope_vertices(hg5, method="bases", max_bases=1000)
    with pytest.raises(TooLargeError, match="max_vertices"):
        gp.privacy_polytope_vertices(gp.SampleHypergraph.from_pmf(np.full((4, 4), 1 / 16)), method="bases", max_vertices=10)


def test_polytope_bad_input():
    with pytest.raises(InputError, match="method"):
        gp.privacy_polytope_vertices(gp.SampleHypergraph.from_pmf(EX2_P), method="lrs")
    with pytest.raises(InputError, match="weighted"):
        gp.privacy_polytope_vertices(gp.SampleHypergraph.from_support([2, 2], [(0, 0), (1, 1)]))
    with pytest.raises(TypeError):
        gp.privacy_polytope_vertices(EX2_P)


def test_zero_nullity_has_single_vertex():
    p = np.zeros((2, 2))
    p[0, 0], p[0, 1], p[1, 1] = 0.2, 0.3, 0.5
    hg = gp.SampleHypergraph.from_pmf(p)
    assert hg.nullity == 0
    np.testing.assert_allclose(gp.privacy_polytope_vertices(hg), [hg.weights])


def test_from_joint_range_matches_support_components():
    """H_2 of paper 003's data: its components are the support-graph components (finest decomposition of G_X)."""
    from graphpriv.datasets import hungarian_range, paper_example

    jr, _ = paper_example()
    hg = gp.SampleHypergraph.from_joint_range(jr)
    comp = gp.components(jr)
    assert hg.components().n_components == comp.n_components == 5
    # the component of each public value agrees (up to numbering) with graphs.support
    pub = hg.components().common_part()[1]
    assert len({(int(a), int(b)) for a, b in zip(pub, comp.public)}) == comp.n_components
    hr = hungarian_range()
    hh = gp.SampleHypergraph.from_joint_range(hr)
    assert hh.components().n_components == gp.components(hr).n_components
    assert hh.n_edges == hr.matrix.nnz and hh.names == ("S", "X")
    if hr.counts is not None:
        np.testing.assert_allclose(hh.weights.sum(), 1.0)
        assert hh.weights.max() > hh.weights.min()  # counts, not uniform
    assert gp.SampleHypergraph.from_joint_range(jr, weights=None).weights is None
    with pytest.raises(InputError):
        gp.SampleHypergraph.from_joint_range(jr, weights="mass")
    with pytest.raises(TypeError):
        gp.SampleHypergraph.from_joint_range(EX2_P)


def test_from_distribution():
    d = gp.JointDistribution(EX2_P, ["w0", "w1"], ["a", "b", "c"])
    hg = gp.SampleHypergraph.from_distribution(d)
    np.testing.assert_allclose(hg.pmf(), EX2_P)
    assert hg.labels[1].tolist() == ["a", "b", "c"] and hg.names == ("S", "X")
    with pytest.raises(TypeError):
        gp.SampleHypergraph.from_distribution(EX2_P)
