"""``gp.gomory_hu_tree`` returns a small result object that shows itself and still reads like the networkx graph."""

from __future__ import annotations

import copy
import pickle

import networkx as nx
import pytest

import graphpriv as gp


def test_repr_shows_size_cut_values_and_lightest_edges():
    jr, _ = gp.datasets.paper_example()
    T = gp.gomory_hu_tree(jr)
    text = repr(T)
    assert text.startswith("GomoryHuTree(G_X: 7 nodes, 6 tree edges, cut values 0..1")
    assert "lightest edges: " in text and "(0)" in text
    assert T.n_nodes == 7 and T.min_cut_value == 0 and T.max_cut_value == 1 and T.kind == "confusability"
    assert [w for *_, w in T.lightest_edges(6)] == [0, 0, 0, 0, 1, 1]
    support = repr(gp.gomory_hu_tree(jr, graph="support"))
    assert support.startswith("GomoryHuTree(support graph: ") and "S/" in support
    single = gp.JointRange.from_pairs(["s"], ["x"])
    assert repr(gp.gomory_hu_tree(single)) == "GomoryHuTree(G_X: 1 node, no edges)"


def test_old_uses_of_the_networkx_graph_keep_working():
    jr, _ = gp.datasets.paper_example()
    T = gp.gomory_hu_tree(jr)
    assert isinstance(T.graph, nx.Graph) and nx.is_tree(T.graph)
    assert nx.is_tree(T) and nx.shortest_path(T, "x1", "x2") == ["x1", "x2"]       # networkx functions
    assert T["x1"]["x2"]["weight"] == 1 and len(T) == 7 and "x3" in T and sorted(T) == sorted(T.nodes)
    assert T.number_of_edges() == 6 and len(list(T.edges(data=True))) == 6
    assert nx.to_numpy_array(T).shape == (7, 7)
    assert T.min_cut("x1", "x2") == 1 and T.min_cut("x1", "x5") == 0
    with pytest.raises(gp.InputError, match="not a node"):
        T.min_cut("x1", "nope")
    for clone in (copy.deepcopy(T), pickle.loads(pickle.dumps(T))):
        assert repr(clone) == repr(T) and nx.utils.edges_equal(clone.edges(data=True), T.edges(data=True))


def test_min_cut_agrees_with_networkx_on_the_hungarian_range():
    jr = gp.datasets.hungarian_range()
    T = gp.gomory_hu_tree(jr)
    G = gp.to_networkx(jr)
    assert T.n_nodes == G.number_of_nodes() and T.min_cut_value == 0      # two components: I* = 1 bit
    big = sorted(max(nx.connected_components(G), key=len), key=str)[:6]
    for u, v in zip(big, big[1:]):
        assert T.min_cut(u, v) == len(nx.minimum_edge_cut(G, u, v))
    other = next(x for x in G if x not in set(max(nx.connected_components(G), key=len)))
    assert T.min_cut(big[0], other) == 0
