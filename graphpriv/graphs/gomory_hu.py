"""The result of :func:`graphpriv.gomory_hu_tree`: a Gomory--Hu tree that shows itself.

All pairwise minimum cuts of G_X (or of the support graph) in one tree (Gomory & Hu, 1961): the
minimum u--v cut equals the smallest edge weight on the u--v path of the tree. Ding & Farokhi,
*Developing Non-Stochastic Privacy-Preserving Policies Using Agglomerative Clustering*, Section IV,
reads decomposability off the minimum cuts of G_X (a cut of 0 means I* > 0).
"""

from __future__ import annotations

import networkx as nx

from ..errors import InputError

__all__ = ["GomoryHuTree"]


class GomoryHuTree:
    """A Gomory--Hu tree (:func:`gomory_hu_tree`): all pairwise minimum cuts of a graph in one tree.

    Attributes
    ----------
    graph : networkx.Graph
        The tree, edge attribute ``weight`` = the minimum cut between the two sides the edge separates.
    kind : {"confusability", "support"}
        The graph whose cuts the tree stores (G_X or the bipartite support graph).
    weighted : bool
        Whether G_X's capacities were |[[S|x]] ∩ [[S|x']]| (else 1 per edge).

    The object reads like the :class:`networkx.Graph` it holds: attributes and methods (``nodes``,
    ``edges``, ``number_of_edges``, ...), ``T[u]``, ``len(T)``, iteration and ``in`` go to ``graph``.
    """

    def __init__(self, graph: nx.Graph, kind: str = "confusability", weighted: bool = False):
        self.graph = graph
        self.kind = kind
        self.weighted = weighted

    # networkx.Graph look-alike ------------------------------------------------------------------
    def __getattr__(self, name: str):
        if name in ("graph", "kind", "weighted"):         # not set yet (copy, pickle): no recursion
            raise AttributeError(name)
        return getattr(self.graph, name)

    def __getitem__(self, node):
        return self.graph[node]

    def __iter__(self):
        return iter(self.graph)

    def __len__(self) -> int:
        return len(self.graph)

    def __contains__(self, node) -> bool:
        return node in self.graph

    # summaries ------------------------------------------------------------------------------------
    def _weights(self) -> list:
        return [d.get("weight", 0) for *_, d in self.graph.edges(data=True)]

    @property
    def n_nodes(self) -> int:
        return self.graph.number_of_nodes()

    @property
    def min_cut_value(self):
        """The smallest tree edge weight: the global minimum cut (0 iff the graph is disconnected);
        None for a graph of fewer than two nodes."""
        w = self._weights()
        return min(w) if w else None

    @property
    def max_cut_value(self):
        """The largest tree edge weight: the largest minimum cut between two nodes."""
        w = self._weights()
        return max(w) if w else None

    def lightest_edges(self, k: int = 3) -> list:
        """The ``k`` tree edges of smallest weight, ``(u, v, weight)``, lightest first (ties in tree order)."""
        edges = [(u, v, d.get("weight", 0)) for u, v, d in self.graph.edges(data=True)]
        return sorted(edges, key=lambda e: e[2])[:k]

    def min_cut(self, u, v):
        """The minimum u--v cut of the graph: the smallest weight on the u--v path of the tree."""
        for node in (u, v):
            if node not in self.graph:
                raise InputError(f"{node!r} is not a node of this Gomory-Hu tree")
        if u == v:
            raise InputError("a cut needs two different nodes")
        path = nx.shortest_path(self.graph, u, v)
        return min(self.graph[a][b].get("weight", 0) for a, b in zip(path, path[1:]))

    def __repr__(self) -> str:
        name = "G_X" if self.kind == "confusability" else "support graph"
        n, m = self.n_nodes, self.graph.number_of_edges()
        if m == 0:
            return f"GomoryHuTree({name}: {n} node{'s' * (n != 1)}, no edges)"

        def node(x):
            return "/".join(map(str, x)) if isinstance(x, tuple) else str(x)

        light = ", ".join(f"{node(u)}-{node(v)} ({w})" for u, v, w in self.lightest_edges(3))
        more = ", ..." if m > 3 else ""
        lo, hi = self.min_cut_value, self.max_cut_value
        values = f"cut value {lo}" if lo == hi else f"cut values {lo}..{hi}"
        return (f"GomoryHuTree({name}: {n} nodes, {m} tree edge{'s' * (m != 1)}, {values}; "
                f"lightest edges: {light}{more})")
