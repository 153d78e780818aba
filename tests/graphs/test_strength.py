"""Edge connectivity, network strength and Gomory-Hu trees (issue 8) against brute force and networkx."""

from fractions import Fraction
from itertools import combinations

import networkx as nx
import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import graphpriv as gp
from graphpriv.graphs.strength import _graph_arrays
from range_strategies import small_ranges  # noqa: E402  (tests/range_strategies.py)


# ------------------------------------------------------------------------------------------- strategies / oracles
def set_partitions(items):
    """Every set partition of a list (independent recursive oracle)."""
    if not items:
        yield []
        return
    first, rest = items[0], items[1:]
    for p in set_partitions(rest):
        yield [[first]] + p
        for i in range(len(p)):
            yield p[:i] + [[first] + p[i]] + p[i + 1:]


def oracle_graph(jr, graph, weighted=False):
    n, edges, w, labels, _ = _graph_arrays(jr, graph, weighted, None)
    G = nx.Graph()
    G.add_nodes_from(labels)
    for (i, j), c in zip(edges.tolist(), w.tolist()):
        G.add_edge(labels[i], labels[j], weight=c, capacity=c)
    return G


def brute_strength(G):
    nodes = list(G.nodes)
    best = None
    for p in set_partitions(nodes):
        if len(p) < 2:
            continue
        where = {v: k for k, part in enumerate(p) for v in part}
        cut = sum(d["weight"] for u, v, d in G.edges(data=True) if where[u] != where[v])
        r = Fraction(cut, len(p) - 1)
        if best is None or r < best:
            best = r
    return best


def brute_edge_connectivity(G):
    nodes = list(G.nodes)
    best = None
    for r in range(1, len(nodes)):
        for side in combinations(nodes[1:], r - 1):
            a = {nodes[0], *side}
            cut = sum(d["weight"] for u, v, d in G.edges(data=True) if (u in a) != (v in a))
            best = cut if best is None else min(best, cut)
    return best


def cut_of(G, parts):
    where = {v: k for k, part in enumerate(parts) for v in part}
    return sum(d["weight"] for u, v, d in G.edges(data=True) if where[u] != where[v])


# ------------------------------------------------------------------------------------------- paper numbers
def test_paper003_fig2_is_decomposable():
    """Paper 003, Example 1 / Fig. 2: G_X has 5 components, so kappa* = 0 and the strength is 0 (footnote 9),
    attained by the finest decomposition {x1,x2},{x3,x4},{x5},{x6},{x7}."""
    jr, _ = gp.datasets.paper_example()
    assert gp.edge_connectivity(jr).value == 0
    value, partition = gp.network_strength(jr)
    assert value == 0
    assert list(partition) == gp.finest_decomposition(jr)
    T = gp.gomory_hu_tree(jr)
    assert nx.is_tree(T) and T["x1"]["x2"]["weight"] == 1 and T["x3"]["x4"]["weight"] == 1


def test_hungarian_strength_is_zero_with_two_parts():
    """DESIGN.md section 4: the Hungarian G_X has 2 components (age 28 / cholesterol 132 isolated)."""
    jr = gp.datasets.hungarian_range()
    res = gp.network_strength(jr)
    assert res.value == 0 and res.n_parts == 2
    assert frozenset({132}) in res.partition
    assert gp.edge_connectivity(jr).value == 0


def test_triangle_and_cycle():
    jr = gp.JointRange.from_pairs(["a", "a", "b", "b", "c", "c"], [1, 2, 2, 3, 3, 1])
    s = gp.network_strength(jr)
    assert s.fraction == Fraction(3, 2) and s.n_parts == 3 and s.cut_weight == 3
    # support graph: a 6-cycle; strength of a cycle C_n is n/(n-1)
    s2 = gp.network_strength(jr, graph="support")
    assert s2.fraction == Fraction(6, 5)
    assert gp.edge_connectivity(jr, graph="support").value == 2
    cut = gp.edge_connectivity(jr, graph="support")
    assert all(pair in set(jr.pairs()) for pair in cut.cut_edges)


def test_complete_graph_strength():
    # one sensitive value shared by all 6 public values: G_X = K6, strength = 15/5 = 3 = n/2
    jr = gp.JointRange.from_pairs(["s"] * 6, list(range(6)))
    s = gp.network_strength(jr)
    assert s.fraction == 3
    assert gp.edge_connectivity(jr).value == 5


# ------------------------------------------------------------------------------------------- brute force
@settings(max_examples=40, deadline=None)
@given(small_ranges(), st.booleans())
def test_strength_matches_brute_force_confusability(jr, weighted):
    G = oracle_graph(jr, "confusability", weighted)
    res = gp.network_strength(jr, weighted=weighted)
    assert res.fraction == brute_strength(G)
    # the returned partition attains the value and covers every public value once
    assert sorted(v for p in res.partition for v in p) == sorted(jr.public_labels.tolist())
    assert Fraction(cut_of(G, res.partition), len(res.partition) - 1) == res.fraction
    assert gp.network_strength(jr, weighted=weighted, backend="networkx").fraction == res.fraction


@settings(max_examples=30, deadline=None)
@given(small_ranges(max_s=4, max_x=5))
def test_strength_matches_brute_force_support(jr):
    G = oracle_graph(jr, "support")
    res = gp.network_strength(jr, graph="support")
    assert res.fraction == brute_strength(G)
    assert Fraction(cut_of(G, res.partition), len(res.partition) - 1) == res.fraction


@pytest.mark.parametrize("seed", range(6))
def test_strength_ten_nodes_vs_module_brute(seed):
    """10-node G_X: Cunningham vs exhaustive enumeration of all 115,975 set partitions."""
    rng = np.random.default_rng(seed)
    m = rng.random((5, 10)) < 0.35
    m[rng.integers(0, 5, size=10), np.arange(10)] = True
    m = m[m.any(axis=1)]
    jr = gp.JointRange.from_matrix(m)
    assert gp.network_strength(jr).fraction == gp.network_strength(jr, method="brute").fraction


@settings(max_examples=40, deadline=None)
@given(small_ranges(), st.sampled_from(["confusability", "support"]))
def test_edge_connectivity_matches_brute_force(jr, graph):
    G = oracle_graph(jr, graph)
    if G.number_of_nodes() > 11:
        G = None
    cut = gp.edge_connectivity(jr, graph=graph)
    if G is not None:
        assert cut.value == brute_edge_connectivity(G)
    assert len(cut.cut_edges) == cut.value
    assert cut.side and cut.other and not (cut.side & cut.other)
    assert gp.edge_connectivity(jr, graph=graph, backend="networkx").value == cut.value
    # strength <= edge connectivity (the cut itself is a 2-part partition)
    assert gp.network_strength(jr, graph=graph).value <= cut.value + 1e-12


@settings(max_examples=30, deadline=None)
@given(small_ranges(), st.sampled_from(["confusability", "support"]), st.sampled_from(["igraph", "networkx"]))
def test_gomory_hu_matches_pairwise_min_cuts(jr, graph, backend):
    G = oracle_graph(jr, graph)
    T = gp.gomory_hu_tree(jr, graph=graph, backend=backend)
    assert nx.is_tree(T) and set(T.nodes) == set(G.nodes)
    nodes = list(G.nodes)
    for u, v in combinations(nodes, 2):
        path = nx.shortest_path(T, u, v)
        tree_cut = min(T[a][b]["weight"] for a, b in zip(path, path[1:]))
        if nx.has_path(G, u, v):
            assert tree_cut == nx.minimum_cut_value(G, u, v, capacity="capacity")
        else:
            assert tree_cut == 0


# ------------------------------------------------------------------------------------------- larger graphs
@pytest.mark.parametrize("seed", range(3))
def test_larger_graphs_agree_with_networkx(seed):
    rng = np.random.default_rng(100 + seed)
    m = rng.random((25, 40)) < 0.08
    m[rng.integers(0, 25, size=40), np.arange(40)] = True
    m = m[m.any(axis=1)]
    jr = gp.JointRange.from_matrix(m)
    for graph in ("confusability", "support"):
        G = oracle_graph(jr, graph)
        cut = gp.edge_connectivity(jr, graph=graph)
        assert cut.value == (nx.edge_connectivity(G) if nx.is_connected(G) else 0)
        a = gp.network_strength(jr, graph=graph)
        b = gp.network_strength(jr, graph=graph, backend="networkx")
        assert a.fraction == b.fraction
        assert Fraction(cut_of(G, a.partition), a.n_parts - 1) == a.fraction
        assert a.value <= cut.value
        assert a.value <= G.number_of_edges() / (G.number_of_nodes() - 1) + 1e-12
        # the attack at the strength has optimum value 0 (no partition beats the ratio)
        val, _ = gp.attack_partition(jr, a.fraction, graph=graph)
        assert val >= -1e-9
        T = gp.gomory_hu_tree(jr, graph=graph)
        rng2 = np.random.default_rng(seed)
        nodes = list(G.nodes)
        for _ in range(15):
            u, v = (nodes[i] for i in rng2.choice(len(nodes), 2, replace=False))
            path = nx.shortest_path(T, u, v)
            expect = nx.minimum_cut_value(G, u, v, capacity="capacity") if nx.has_path(G, u, v) else 0
            assert min(T[x][y]["weight"] for x, y in zip(path, path[1:])) == expect


def test_nash_williams_tutte_two_trees():
    # K4 has 6 edges = 2 spanning trees: strength 2
    jr = gp.JointRange.from_pairs(["s"] * 4, [1, 2, 3, 4])
    assert gp.network_strength(jr).fraction == 2


# ------------------------------------------------------------------------------------------- bad input
def test_bad_input():
    jr, _ = gp.datasets.paper_example()
    with pytest.raises(gp.InputError, match="graph="):
        gp.network_strength(jr, graph="hyper")
    with pytest.raises(gp.InputError, match="backend="):
        gp.edge_connectivity(jr, backend="scipy")
    with pytest.raises(gp.InputError, match="method="):
        gp.network_strength(jr, method="magic")
    with pytest.raises(gp.InputTypeError):
        gp.network_strength([[1, 0], [0, 1]])
    one = gp.JointRange.from_pairs(["a", "b"], [1, 1])
    with pytest.raises(gp.InputError, match="two"):
        gp.edge_connectivity(one)
    with pytest.raises(gp.InputError, match="two"):
        gp.network_strength(one)
    with pytest.raises(gp.InputError, match="k must"):
        gp.attack_partition(jr, -1)
    big = gp.JointRange.from_pairs(["s"] * 13, list(range(13)))
    with pytest.raises(gp.TooLargeError):
        gp.network_strength(big, method="brute")


# ------------------------------------------------------------------------------------------- curator's cut
def brute_pairs_to_decompose(jr):
    """Fewest pairs whose deletion leaves >= 2 components holding a pair (I* > 0), by enumeration."""
    pairs = list(jr.pairs())
    best = None
    for r in range(0, len(pairs) + 1):
        for drop in combinations(range(len(pairs)), r):
            keep = [p for k, p in enumerate(pairs) if k not in set(drop)]
            if not keep:
                continue
            G = nx.Graph()
            G.add_edges_from((("S", s), ("X", x)) for s, x in keep)
            if nx.number_connected_components(G) >= 2:
                return r
    return best


@settings(max_examples=40, deadline=None)
@given(small_ranges(max_s=4, max_x=5), st.sampled_from(["igraph", "networkx"]))
def test_pairs_to_decompose_matches_brute_force(jr, backend):
    if jr.n_pairs > 11:
        jr = jr.restrict(public=jr.public_labels[:3])
    cut = gp.pairs_to_decompose(jr, backend=backend)
    expect = brute_pairs_to_decompose(jr)
    if expect is None:
        assert cut.value == float("inf") and cut.cut_edges == ()
        return
    assert cut.value == expect
    assert len(cut.cut_edges) == cut.value
    if cut.value > 0:
        # deleting the returned pairs really makes I* positive
        keep = [p for p in jr.pairs() if p not in set(cut.cut_edges)]
        rest = gp.JointRange.from_pairs([s for s, _ in keep], [x for _, x in keep])
        assert gp.maximin_information(rest) > 0
    assert cut.value >= gp.edge_connectivity(jr, graph="support").value


def test_pairs_to_decompose_examples():
    jr, _ = gp.datasets.paper_example()
    assert gp.pairs_to_decompose(jr).value == 0                       # Fig. 1: I* = log2 5 already
    star = gp.JointRange.from_pairs(["s"] * 4, [1, 2, 3, 4])            # |S| = 1: I* = 0 whatever is deleted
    assert gp.pairs_to_decompose(star).value == float("inf")
    # path s1-x1-s2-x2-s3: deleting a leaf pair only suppresses a label; the answer deletes a middle pair
    path = gp.JointRange.from_pairs(["s1", "s2", "s2", "s3"], ["x1", "x1", "x2", "x2"])
    cut = gp.pairs_to_decompose(path)
    assert cut.value == 1 and cut.cut_edges in ((("s2", "x1"),), (("s2", "x2"),))
    assert gp.edge_connectivity(path, graph="support").value == 1
    # Hungarian data with the isolated age-28 / cholesterol-132 pair tied in by one extra record: one deletion
    h = gp.datasets.hungarian_range(missing="drop")
    df = h.to_frame()
    h2 = gp.JointRange.from_pairs(list(df.sensitive) + [40], list(df.public) + [132])
    assert gp.maximin_information(h2) == 0 and gp.pairs_to_decompose(h2).value == 1
