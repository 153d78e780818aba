"""Cuts of large sparse graphs in linear time where the structure allows, and cost models for the rest.

Exact global min cuts (Stoer--Wagner), Gomory--Hu trees and network strength cost at least
quadratic time in the number of nodes |V|: hours at |V| = 10^5. Many confusability graphs met in
practice are sparse, often trees or paths, and then the answer follows from linear-time structure:

- a disconnected graph: min cut 0 (its components);
- a connected graph with a bridge (Tarjan's bridge-finding, O(|V| + |E|)): min cut 1 for unit
  weights, one side of any bridge attains it; its network strength is 1, attained by the partition
  into 2-edge-connected components (removing the bridges leaves k pieces joined by exactly k - 1
  bridges, and a connected graph needs at least |Pi| - 1 crossing edges for any partition Pi);
- a bridgeless connected graph whose smallest degree is 2: min cut 2 (it is at least 2 without a
  bridge and at most the smallest degree), attained by isolating a node of degree 2;
- a forest: it is its own Gomory--Hu tree (the minimum u--v cut is the lightest edge on the u--v path).

Everything else runs the exact algorithm when the measured cost model (``*_seconds``) stays within
the time budget of :mod:`graphpriv._guards`, and raises :class:`~graphpriv.errors.TooLargeError`
otherwise.
"""

from __future__ import annotations

import numpy as np

from .._guards import check_seconds

__all__ = [
    "bridge_ids",
    "unit_min_cut_fast",
    "two_edge_connected_membership",
    "stoer_wagner_seconds",
    "gomory_hu_seconds",
    "strength_seconds",
    "check_stoer_wagner",
    "check_gomory_hu",
    "check_strength",
]


def _igraph(n: int, edges: np.ndarray):
    import igraph as ig

    return ig.Graph(n=n, edges=np.asarray(edges, dtype=np.int64).reshape(-1, 2), directed=False)


def bridge_ids(n: int, edges: np.ndarray) -> np.ndarray:
    """Indices (into ``edges``) of the bridges of the undirected graph, O(|V| + |E|).

    Examples
    --------
    >>> import numpy as np
    >>> from graphpriv.graphs.sparse_cuts import bridge_ids
    >>> bridge_ids(4, np.array([[0, 1], [1, 2], [2, 0], [2, 3]])).tolist()
    [3]
    """
    if len(edges) == 0:
        return np.zeros(0, dtype=np.int64)
    return np.asarray(sorted(_igraph(n, edges).bridges()), dtype=np.int64)


def _membership_without(n: int, edges: np.ndarray, drop: np.ndarray) -> np.ndarray:
    from scipy.sparse import coo_array
    from scipy.sparse.csgraph import connected_components

    keep = np.ones(len(edges), dtype=bool)
    keep[drop] = False
    e = edges[keep]
    a = coo_array((np.ones(len(e), dtype=np.int8), (e[:, 0], e[:, 1])), shape=(n, n)) if len(e) else \
        coo_array((n, n), dtype=np.int8)
    _, memb = connected_components(a, directed=False)
    return memb


def two_edge_connected_membership(n: int, edges: np.ndarray) -> np.ndarray:
    """Component index of each node after removing every bridge (the 2-edge-connected components)."""
    return _membership_without(n, edges, bridge_ids(n, edges))


def unit_min_cut_fast(n: int, edges: np.ndarray) -> tuple[int, np.ndarray] | None:
    """``(value, in_side)`` of a global min cut of a *connected* unit-weight graph found in linear
    time (a bridge: 1; no bridge and a node of degree 2: 2), or None when neither applies.

    Parallel edges must have been merged (one row per node pair).

    Examples
    --------
    >>> import numpy as np
    >>> from graphpriv.graphs.sparse_cuts import unit_min_cut_fast
    >>> path = np.array([[0, 1], [1, 2], [2, 3]])
    >>> value, side = unit_min_cut_fast(4, path)
    >>> value, side.tolist()
    (1, [True, False, False, False])
    >>> cycle = np.array([[0, 1], [1, 2], [2, 3], [3, 0]])
    >>> unit_min_cut_fast(4, cycle)[0]
    2
    """
    if n < 2 or len(edges) == 0:
        return None
    bridges = bridge_ids(n, edges)
    if len(bridges):
        memb = _membership_without(n, edges, bridges[:1])
        return 1, memb == memb[0]
    deg = np.bincount(edges.ravel(), minlength=n)
    v = int(np.argmin(deg))
    if deg[v] == 2:
        side = np.zeros(n, dtype=bool)
        side[v] = True
        return 2, side
    return None


# measured on the reference machine (2 cores): python-igraph 0.11, unit capacities
def stoer_wagner_seconds(n: int, m: int) -> float:
    """Estimated seconds of igraph's Stoer--Wagner min cut (5 s at |V| = 10^4 on a path)."""
    return 5e-8 * n * n + 1e-7 * n * m


def gomory_hu_seconds(n: int, m: int) -> float:
    """Estimated seconds of igraph's Gomory--Hu tree (|V| - 1 max-flows; 2 s at |V| = 2000 on a cycle)."""
    return 5e-7 * n * max(n, m)


def strength_seconds(n: int, m: int) -> float:
    """Estimated seconds of the Cunningham strength iteration (|V| max-flows per step; 1.9 s at |V| = 600)."""
    return 5e-6 * n * max(n, m)


def check_stoer_wagner(n: int, m: int, what: str = "the global min cut of G_X") -> None:
    check_seconds(what, stoer_wagner_seconds(n, m), size=f"|V| = {n}, |E| = {m} (Stoer-Wagner, O(|V||E| + |V|^2 log |V|))",
                  instead="gp.is_decomposable / gp.components (min cut 0 or not, in linear time), or a smaller range "
                          "(e.g. coarsen the public values first)")


def check_gomory_hu(n: int, m: int) -> None:
    check_seconds("the Gomory-Hu tree", gomory_hu_seconds(n, m),
                  size=f"|V| = {n}, |E| = {m} (|V| - 1 max-flows)",
                  instead="gp.min_cut(jr, s, t) for the pairs you need, or gp.edge_connectivity for the global cut")


def check_strength(n: int, m: int) -> None:
    check_seconds("the network strength", strength_seconds(n, m),
                  size=f"|V| = {n}, |E| = {m} (|V| max-flows per Cunningham step)",
                  instead="gp.edge_connectivity (strength is at least half of it and at most |E| / (|V| - 1)), "
                          "or a smaller range")
