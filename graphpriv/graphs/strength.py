"""How far a joint range is from leaking a bit without error: edge connectivity, network strength,
Gomory--Hu trees.

I*(S;X) = 0 exactly when the confusability graph G_X is connected (paper 003, Section IV). When it
is, these functions measure *how* connected it is, i.e. how much has to change before an adversary
can tell some bits of S from X without error:

* :func:`edge_connectivity` -- the global minimum cut: the fewest edges whose removal splits the
  graph in two, and which ones (paper 003, eq. (1): kappa*).
* :func:`network_strength` -- the *strength* or *attack value* of Cunningham (1985):
  ``sigma(G) = min over partitions Pi of V with |Pi| >= 2 of w(delta(Pi)) / (|Pi| - 1)``, where
  ``w(delta(Pi))`` is the weight of the edges between different parts. It is the price per extra
  component of an attack that splits G into several pieces; paper 003, footnote 9 and [27, 31, 32],
  cites it as a second way to decide decomposability (strength 0 iff G is disconnected, and then the
  finest decomposition attains it).
* :func:`gomory_hu_tree` -- one tree that stores all |V|(|V|-1)/2 pairwise minimum cuts.
* :func:`pairs_to_decompose` -- the curator's distance: the fewest (s, x) pairs whose deletion makes
  I* > 0 (a cut of the support graph that leaves a pair on both sides).

Every function takes ``graph="confusability"`` (G_X: nodes are the public values, an edge x -- x'
when [[S|x]] and [[S|x']] intersect; what an analyst sees) or ``graph="support"`` (the bipartite
support graph: nodes ``("S", s)`` and ``("X", x)``, one edge per (s, x) pair of [[S, X]]; its cuts
are counted in (s, x) pairs, which is what a data curator can delete). The support graph's cuts are
the plain graph cuts: a cut that isolates one label stands for suppressing every record of that
label, which removes the label from the range (it does not by itself make I* positive; use
:func:`pairs_to_decompose` for the cuts that do).

Backends: igraph (default; C push-relabel and Stoer--Wagner, float capacities) and networkx (for
cross-checks). ``method="brute"`` enumerates every set partition (|V| <= 12) and is the test oracle.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Hashable

import networkx as nx
import numpy as np
import scipy.sparse as sp

from ..errors import InputError, TooLargeError
from ..ranges import JointRange
from .confusability import _check, confusability_adjacency
from .gomory_hu import GomoryHuTree
from .support import components

__all__ = [
    "EdgeCut",
    "NetworkStrength",
    "edge_connectivity",
    "network_strength",
    "gomory_hu_tree",
    "GomoryHuTree",
    "attack_partition",
    "pairs_to_decompose",
    "STRENGTH_GRAPHS",
    "STRENGTH_BACKENDS",
    "BRUTE_FORCE_NODES",
]

#: Graphs the functions of this module accept.
STRENGTH_GRAPHS = ("confusability", "support")
#: Max-flow / min-cut backends.
STRENGTH_BACKENDS = ("igraph", "networkx")
#: Largest number of nodes for ``method="brute"`` (Bell(12) = 4,213,597 partitions).
BRUTE_FORCE_NODES = 12


# ---------------------------------------------------------------------------------------------- results
@dataclass(frozen=True)
class EdgeCut:
    """A global minimum cut {A, V \\ A} of G_X or of the support graph.

    Attributes
    ----------
    value : int or float
        Number (or total weight) of edges crossing the cut; the edge connectivity lambda(G).
        0 iff the graph is disconnected.
    side : frozenset
        A: the side holding the first node (first public value for G_X; first sensitive value for the
        support graph). Nodes are public labels (G_X) or ``("S", s)`` / ``("X", x)`` tuples (support).
    other : frozenset
        V \\ A.
    cut_edges : tuple
        The crossing edges: ``(x, x')`` public-label pairs for G_X, ``(s, x)`` pairs of the joint range
        for the support graph -- the pairs to remove to split the graph.
    graph : str
        ``"confusability"`` or ``"support"``.

    Unpacking gives ``(value, (side, other))``, like :func:`networkx.minimum_cut`.
    """

    value: int | float
    side: frozenset
    other: frozenset = field(repr=False)
    cut_edges: tuple = field(repr=False)
    graph: str = "confusability"

    def __iter__(self):
        yield self.value
        yield (self.side, self.other)


@dataclass(frozen=True)
class NetworkStrength:
    """Network strength (attack value) sigma(G) and a partition attaining it.

    Attributes
    ----------
    value : float
        sigma(G) = w(delta(Pi)) / (|Pi| - 1) for the attaining partition; 0 iff G is disconnected.
    fraction : fractions.Fraction
        The same value as an exact fraction (unit or integer weights).
    partition : tuple of frozenset
        The attaining partition Pi, parts ordered by their first node. When G is disconnected it is the
        set of components (the finest decomposition, paper 003 footnote 9).
    cut_weight : int or float
        w(delta(Pi)): edges between different parts.
    graph : str

    Unpacking gives ``(value, partition)``.
    """

    value: float
    partition: tuple
    fraction: Fraction = field(repr=False)
    cut_weight: int | float = field(repr=False)
    graph: str = "confusability"

    @property
    def n_parts(self) -> int:
        return len(self.partition)

    def __iter__(self):
        yield self.value
        yield self.partition


# ---------------------------------------------------------------------------------------------- graph extraction
def _check_graph(graph: str) -> str:
    if graph not in STRENGTH_GRAPHS:
        raise InputError(f"graph={graph!r} must be one of {STRENGTH_GRAPHS}")
    return graph


def _check_backend(backend: str) -> str:
    if backend not in STRENGTH_BACKENDS:
        raise InputError(f"backend={backend!r} must be one of {STRENGTH_BACKENDS}")
    return backend


def _graph_arrays(jr: JointRange, graph: str, weighted: bool, max_edges):
    """(n_nodes, edges (E, 2) int64 with i < j, integer weights (E,), node labels list, edge labels fn)."""
    _check(jr)
    _check_graph(graph)
    if graph == "confusability":
        kw = {} if max_edges is None else {"max_edges": max_edges}
        a = sp.triu(confusability_adjacency(jr, weighted=True, **kw), k=1).tocoo()
        edges = np.column_stack([a.row, a.col]).astype(np.int64)
        w = a.data.astype(np.int64) if weighted else np.ones(len(edges), dtype=np.int64)
        labels = jr.public_labels.tolist()
        return jr.n_public, edges, w, labels, (lambda i, j: (labels[i], labels[j]))
    n_s = jr.n_sensitive
    coo = jr.matrix.tocoo()
    edges = np.column_stack([coo.row, coo.col + n_s]).astype(np.int64)
    order = np.lexsort((edges[:, 1], edges[:, 0]))
    edges = edges[order]
    w = np.ones(len(edges), dtype=np.int64)
    s_lab, x_lab = jr.sensitive_labels.tolist(), jr.public_labels.tolist()
    labels = [("S", s) for s in s_lab] + [("X", x) for x in x_lab]

    def edge_label(i, j):
        if i > j:
            i, j = j, i
        return (s_lab[i], x_lab[j - n_s])

    return n_s + jr.n_public, edges, w, labels, edge_label


def _components_of(n: int, edges: np.ndarray) -> tuple[int, np.ndarray]:
    from scipy.sparse.csgraph import connected_components

    adj = sp.coo_array((np.ones(len(edges), dtype=bool), (edges[:, 0], edges[:, 1])), shape=(n, n)).tocsr() if len(edges) else sp.csr_array((n, n), dtype=bool)
    k, lab = connected_components(adj, directed=False)
    # renumber by first node
    first = {}
    out = np.empty(n, dtype=np.int64)
    for v, c in enumerate(lab.tolist()):
        out[v] = first.setdefault(c, len(first))
    return int(k), out


def _has_bridge(n: int, edges: np.ndarray) -> bool:
    from .sparse_cuts import bridge_ids

    return len(bridge_ids(n, edges)) > 0


def _renumber(membership: np.ndarray) -> np.ndarray:
    """Part ids renumbered by first node (0, 1, ... in node order)."""
    _, first, inverse = np.unique(membership, return_index=True, return_inverse=True)
    rank = np.empty(len(first), dtype=np.int64)
    rank[np.argsort(first)] = np.arange(len(first))
    return rank[inverse]


def _parts_from_membership(membership: np.ndarray, labels: list) -> tuple:
    groups: dict[int, list] = {}
    for v, c in enumerate(membership.tolist()):
        groups.setdefault(int(c), []).append(v)
    parts = sorted(groups.values(), key=lambda g: g[0])
    return tuple(frozenset(labels[v] for v in g) for g in parts)


def _cut_weight(membership: np.ndarray, edges: np.ndarray, w: np.ndarray) -> int:
    if len(edges) == 0:
        return 0
    return int(w[membership[edges[:, 0]] != membership[edges[:, 1]]].sum())


def _fast_unit_cut(n: int, edges: np.ndarray, w: np.ndarray) -> np.ndarray | None:
    """Side of a global min cut of a connected graph in linear time (unit weights), else None after
    checking that the exact algorithm fits the time budget."""
    from .sparse_cuts import check_stoer_wagner, unit_min_cut_fast

    if len(w) and (w == 1).all():
        fast = unit_min_cut_fast(n, edges)
        if fast is not None:
            return fast[1]
    check_stoer_wagner(n, len(edges), "the edge connectivity")
    return None


# ---------------------------------------------------------------------------------------------- edge connectivity
def edge_connectivity(jr: JointRange, *, graph: str = "confusability", weighted: bool = False, backend: str = "igraph",
                      max_edges: int | None = None) -> EdgeCut:
    """Edge connectivity lambda(G) of G_X (or of the support graph) and a minimum cut attaining it.

    The fewest edges whose removal splits the graph (paper 003, eq. (1): kappa* = min kappa(X')). For
    ``graph="support"`` the edges are (s, x) pairs of the joint range, so ``value`` is the fewest pairs a
    curator must delete to disconnect the support graph, and ``cut_edges`` lists them.

    Parameters
    ----------
    jr : JointRange
    graph : {"confusability", "support"}
    weighted : bool
        G_X only: weight the edge x -- x' by |[[S|x]] ∩ [[S|x']]| (how many sensitive values make x and
        x' confusable) instead of 1.
    backend : {"igraph", "networkx"}
        Stoer--Wagner in igraph (default) or networkx.
    max_edges : int, optional
        Passed to :func:`~graphpriv.confusability_adjacency`.

    Returns
    -------
    EdgeCut
        ``value`` 0 iff the graph is disconnected (then ``side`` is the component of the first node).

    Raises
    ------
    InputError
        Fewer than two nodes, unknown ``graph`` or ``backend``.
    TooLargeError
        The exact algorithm would run past the time budget (see Notes).

    Examples
    --------
    >>> import graphpriv as gp
    >>> jr = gp.JointRange.from_pairs(["a", "a", "b", "b", "c", "c"], [1, 2, 2, 3, 3, 1])
    >>> cut = gp.edge_connectivity(jr)           # G_X is the triangle 1-2-3
    >>> cut.value, len(cut.cut_edges), len(cut.side) + len(cut.other)
    (2, 2, 3)
    >>> gp.edge_connectivity(jr, graph="support").value   # the support graph is a 6-cycle
    2
    >>> gp.edge_connectivity(gp.datasets.paper_example()[0]).value  # paper 003 Fig. 2: decomposable
    0

    Notes
    -----
    Components first (a disconnected graph has connectivity 0); with unit weights a bridge gives 1 and
    a bridgeless graph with a node of degree 2 gives 2, found in O(|V| + |E|)
    (:mod:`graphpriv.graphs.sparse_cuts`), so trees and paths of any size are fast. Otherwise
    Stoer--Wagner: O(|V| |E| + |V|^2 log |V|), refused with TooLargeError when estimated past a
    minute (about |V| = 30,000 on a sparse graph).
    """
    _check_backend(backend)
    n, edges, w, labels, edge_label = _graph_arrays(jr, graph, weighted, max_edges)
    if n < 2:
        raise InputError("a cut needs at least two nodes; this joint range has one public value")
    ncomp, memb = _components_of(n, edges)
    fast = _fast_unit_cut(n, edges, w) if ncomp == 1 else None
    if ncomp > 1:
        in_side = memb == memb[0]
    elif fast is not None:
        in_side = fast
    elif backend == "igraph":
        import igraph as ig

        g = ig.Graph(n=n, edges=edges.tolist(), directed=False)
        cut = g.mincut(capacity=w.astype(float).tolist())
        in_side = np.zeros(n, dtype=bool)
        in_side[cut.partition[0]] = True
    else:
        G = nx.Graph()
        G.add_nodes_from(range(n))
        G.add_weighted_edges_from(((int(i), int(j), int(c)) for (i, j), c in zip(edges, w)), weight="weight")
        _, (left, _) = nx.stoer_wagner(G, weight="weight")
        in_side = np.zeros(n, dtype=bool)
        in_side[list(left)] = True
    if not in_side[0]:
        in_side = ~in_side
    cross = in_side[edges[:, 0]] != in_side[edges[:, 1]] if len(edges) else np.zeros(0, dtype=bool)
    cut_edges = tuple(edge_label(int(i), int(j)) for i, j in edges[cross])
    value = int(w[cross].sum())
    side = frozenset(labels[v] for v in np.flatnonzero(in_side))
    other = frozenset(labels[v] for v in np.flatnonzero(~in_side))
    return EdgeCut(value, side, other, cut_edges, graph)


# ---------------------------------------------------------------------------------------------- attack problem
def _st_min_cut(n_nodes: int, arcs: list, caps: list, s: int, t: int, backend: str) -> np.ndarray:
    """Source side (bool mask over n_nodes) of a minimum s-t cut of a directed capacitated graph."""
    mask = np.zeros(n_nodes, dtype=bool)
    if not arcs:
        mask[s] = True
        return mask
    if backend == "igraph":
        import igraph as ig

        g = ig.Graph(n=n_nodes, edges=arcs, directed=True)
        cut = g.mincut(s, t, capacity=caps)
        mask[cut.partition[0]] = True
        if not mask[s]:
            mask = ~mask
        return mask
    G = nx.DiGraph()
    G.add_nodes_from(range(n_nodes))
    for (u, v), c in zip(arcs, caps):
        if G.has_edge(u, v):
            G[u][v]["capacity"] += c
        else:
            G.add_edge(u, v, capacity=c)
    _, (left, _) = nx.minimum_cut(G, s, t, capacity="capacity")
    mask[list(left)] = True
    return mask


def _attack(n: int, edges: np.ndarray, w: np.ndarray, k: Fraction, backend: str) -> np.ndarray:
    """Membership array of a partition Pi minimising w(delta(Pi)) - k |Pi| (Cunningham's attack problem).

    Barahona's incremental scheme: add the nodes one by one; given an optimal partition of the first i
    nodes, an optimal partition of the first i + 1 is obtained by merging the new node v with a union Z
    of old parts, Z maximising w(E[{v} ∪ Z]) - k |Z| (parts contracted to nodes). That subproblem is one
    minimum s-t cut (Goldberg's densest-subgraph construction). Capacities are scaled by k's
    denominator so every capacity is an integer and float max-flow stays exact.
    """
    p, q = k.numerator, k.denominator
    adj: list[dict[int, int]] = [dict() for _ in range(n)]
    for (i, j), c in zip(edges.tolist(), w.tolist()):
        adj[i][j] = adj[i].get(j, 0) + c
        adj[j][i] = adj[j].get(i, 0) + c
    part_of = np.full(n, -1, dtype=np.int64)       # part id of each processed node
    parts: dict[int, list[int]] = {}
    next_id = 0
    for v in range(n):
        # weights from v to the existing parts
        wv: dict[int, int] = {}
        for u, c in adj[v].items():
            if u < v:
                pid = int(part_of[u])
                wv[pid] = wv.get(pid, 0) + c
        if not wv:
            parts[next_id] = [v]
            part_of[v] = next_id
            next_id += 1
            continue
        ids = list(parts)
        index = {pid: a for a, pid in enumerate(ids)}
        m = len(ids)
        # contracted weights between parts (only among processed nodes)
        W: dict[tuple[int, int], int] = {}
        deg = [0] * m
        for pid in ids:
            a = index[pid]
            for x in parts[pid]:
                for u, c in adj[x].items():
                    if u < v:
                        b = index[int(part_of[u])]
                        if b != a:
                            deg[a] += c
                            if a < b:
                                W[(a, b)] = W.get((a, b), 0) + c
        src, snk = m, m + 1
        arcs, caps = [], []
        for a in range(m):
            # 2F(Z) = sum_{u in Z} (2k - 2 w_v(u) - d_u) + w(delta_H(Z)); scaled by q
            coef = 2 * p - q * (2 * wv.get(ids[a], 0) + deg[a])
            if coef > 0:
                arcs.append((a, snk))
                caps.append(float(coef))
            elif coef < 0:
                arcs.append((src, a))
                caps.append(float(-coef))
        for (a, b), c in W.items():
            arcs.append((a, b))
            caps.append(float(q * c))
            arcs.append((b, a))
            caps.append(float(q * c))
        side = _st_min_cut(m + 2, arcs, caps, src, snk, backend)
        chosen = [ids[a] for a in range(m) if side[a]]
        # accept the merge only if it does not increase the objective (exact check)
        gain = sum(wv.get(pid, 0) for pid in chosen) * q - p * len(chosen)
        if chosen:
            cs = set(index[pid] for pid in chosen)
            gain += q * sum(c for (a, b), c in W.items() if a in cs and b in cs)
        if not chosen or gain < 0:
            parts[next_id] = [v]
            part_of[v] = next_id
            next_id += 1
            continue
        merged = [v]
        for pid in chosen:
            merged.extend(parts.pop(pid))
        parts[next_id] = merged
        part_of[merged] = next_id
        next_id += 1
    # renumber by first node
    out = np.empty(n, dtype=np.int64)
    first: dict[int, int] = {}
    for v in range(n):
        out[v] = first.setdefault(int(part_of[v]), len(first))
    return out


def attack_partition(jr: JointRange, k: float | Fraction, *, graph: str = "confusability", weighted: bool = False,
                     backend: str = "igraph", max_edges: int | None = None) -> tuple:
    """Optimal attack (Cunningham 1985): a partition Pi minimising w(delta(Pi)) - k |Pi|.

    The subproblem behind :func:`network_strength`; exposed because the attack value at a given price
    ``k`` per extra component is itself informative (how many pieces an adversary could split the
    graph into when each cut edge costs 1 and each extra piece pays ``k``).

    Returns
    -------
    (value, partition)
        ``value = w(delta(Pi)) - k (|Pi| - 1)`` as a float and the partition (tuple of frozensets of node
        labels, parts ordered by first node).

    Examples
    --------
    >>> import graphpriv as gp
    >>> jr = gp.JointRange.from_pairs(["a", "a", "b", "b", "c"], [1, 2, 2, 3, 4])
    >>> gp.attack_partition(jr, 0.5)        # G_X = path 1-2-3 plus the isolated 4: cheap pieces only
    (-0.5, (frozenset({1, 2, 3}), frozenset({4})))
    >>> gp.attack_partition(jr, 1.5)        # each extra piece pays 1.5 > 1 cut edge: split everything
    (-2.5, (frozenset({1}), frozenset({2}), frozenset({3}), frozenset({4})))

    Notes
    -----
    |V| minimum s-t cuts on graphs of at most |V| + 2 nodes (Barahona 1992).

    Every price at once: :func:`~graphpriv.principal_partitions`. For a price ``k`` strictly between two
    critical values the optimal partition is unique and equals ``principal_partitions(jr).partition_at(k)``;
    at a critical value several partitions are optimal, and the one returned lies between the coarsest
    (``partition_at(k, finest=False)``) and the finest (``partition_at(k)``), with the same ``value``.
    """
    _check_backend(backend)
    kf = Fraction(k).limit_denominator(10**9) if not isinstance(k, Fraction) else k
    if kf < 0:
        raise InputError(f"k must be >= 0, got {k!r}")
    n, edges, w, labels, _ = _graph_arrays(jr, graph, weighted, max_edges)
    memb = _attack(n, edges, w, kf, backend)
    cw = _cut_weight(memb, edges, w)
    nparts = int(memb.max()) + 1
    return float(cw - kf * (nparts - 1)), _parts_from_membership(memb, labels)


# ---------------------------------------------------------------------------------------------- network strength
def _brute_partitions(n: int) -> np.ndarray:
    """All set partitions of n nodes as restricted-growth strings, shape (Bell(n), n), int8."""
    rows = [[0]]
    for _ in range(1, n):
        new = []
        for r in rows:
            top = max(r) + 1
            for c in range(top + 1):
                new.append(r + [c])
        rows = new
    return np.array(rows, dtype=np.int8).reshape(len(rows), n)


def _brute_strength(n: int, edges: np.ndarray, w: np.ndarray) -> tuple[Fraction, np.ndarray]:
    if n > BRUTE_FORCE_NODES:
        raise TooLargeError(f"method='brute' enumerates every set partition; {n} nodes is past the limit {BRUTE_FORCE_NODES}")
    P = _brute_partitions(n)
    nparts = P.max(axis=1).astype(np.int64) + 1
    keep = nparts >= 2
    P, nparts = P[keep], nparts[keep]
    if len(edges):
        cut = ((P[:, edges[:, 0]] != P[:, edges[:, 1]]) * w[None, :]).sum(axis=1)
    else:
        cut = np.zeros(len(P), dtype=np.int64)
    # exact minimum of cut / (nparts - 1): compare by cross-multiplication via Fractions on candidates
    ratio = cut / (nparts - 1)
    cand = np.flatnonzero(ratio <= ratio.min() + 1e-9)
    best = min(cand.tolist(), key=lambda i: (Fraction(int(cut[i]), int(nparts[i] - 1)), -int(nparts[i]), i))
    return Fraction(int(cut[best]), int(nparts[best] - 1)), P[best].astype(np.int64)


def network_strength(jr: JointRange, *, graph: str = "confusability", weighted: bool = False, backend: str = "igraph",
                     method: str = "cunningham", max_edges: int | None = None) -> NetworkStrength:
    """Network strength (attack value) sigma(G) of G_X or of the support graph, and an attaining partition.

    sigma(G) = min { w(delta(Pi)) / (|Pi| - 1) : Pi a partition of V, |Pi| >= 2 } (Cunningham 1985,
    "Optimal attack and reinforcement of a network"; paper 003 footnote 9 and [27, 31, 32]). It is 0
    iff G is disconnected -- i.e. iff I*(S;X) > 0 for G_X -- and then the attaining partition returned
    is the set of components (the finest decomposition). For a connected G_X it says how many edges an
    attack must cut per extra distinguishable piece; by Nash-Williams--Tutte, floor(sigma) is the
    number of edge-disjoint spanning trees of G (unit weights).

    Parameters
    ----------
    jr : JointRange
    graph : {"confusability", "support"}
    weighted : bool
        G_X only: weight x -- x' by the number of shared sensitive values.
    backend : {"igraph", "networkx"}
        Max-flow engine of the Cunningham iterations.
    method : {"cunningham", "brute"}
        ``"brute"`` enumerates every set partition (test oracle; at most 12 nodes).
    max_edges : int, optional
        Passed to :func:`~graphpriv.confusability_adjacency`.

    Returns
    -------
    NetworkStrength
        ``value``, exact ``fraction``, attaining ``partition``; unpacks as ``(value, partition)``.

    Raises
    ------
    InputError
        Fewer than two nodes, bad ``graph``/``backend``/``method``.
    TooLargeError
        ``method="brute"`` past 12 nodes.

    Examples
    --------
    >>> import graphpriv as gp
    >>> jr = gp.JointRange.from_pairs(["a", "a", "b", "b", "c", "c"], [1, 2, 2, 3, 3, 1])
    >>> value, partition = gp.network_strength(jr)     # G_X = triangle: 3 edges / 2 extra parts
    >>> value, len(partition)
    (1.5, 3)
    >>> gp.network_strength(gp.datasets.paper_example()[0]).value   # decomposable: strength 0
    0.0

    Notes
    -----
    A connected unit-weight graph with a bridge (a tree, a path) has strength exactly 1, attained by
    its 2-edge-connected components: found in O(|V| + |E|). Otherwise a Dinkelbach (Newton) iteration on the ratio: starting from the partition into single nodes, solve
    the attack problem min_Pi w(delta(Pi)) - k |Pi| at the current ratio k (:func:`attack_partition`,
    |V| max-flows) and move to the better ratio until none exists. Each step strictly lowers k, and in
    practice 1-4 steps suffice, so the cost is a few times |V| max-flows on graphs of <= |V| + 2 nodes.
    Arithmetic is exact (fractions, integer capacities). Estimated past a minute (about |V| = 3,000
    on a sparse graph) it raises :class:`~graphpriv.errors.TooLargeError` before starting.

    sigma(G) is the first critical value of the principal sequence of partitions
    (``principal_partitions(jr).strength``, :func:`~graphpriv.principal_partitions`), and the partition
    returned is optimal at that price.
    """
    _check_backend(backend)
    if method not in ("cunningham", "brute"):
        raise InputError(f"method={method!r} must be 'cunningham' or 'brute'")
    n, edges, w, labels, _ = _graph_arrays(jr, graph, weighted, max_edges)
    if n < 2:
        raise InputError("network strength needs at least two nodes; this joint range has one public value")
    ncomp, memb = _components_of(n, edges)
    bridged = ncomp == 1 and method != "brute" and len(w) and (w == 1).all() and _has_bridge(n, edges)
    if ncomp > 1:
        frac, best = Fraction(0), memb
    elif bridged:            # strength 1: the 2-edge-connected components, joined by the bridges
        from .sparse_cuts import two_edge_connected_membership

        frac, best = Fraction(1), _renumber(two_edge_connected_membership(n, edges))
    elif method == "brute":
        frac, best = _brute_strength(n, edges, w)
    else:
        from .sparse_cuts import check_strength

        check_strength(n, len(edges))
        best = np.arange(n, dtype=np.int64)
        frac = Fraction(int(w.sum()), n - 1)
        for _ in range(4 * n + 10):
            cand = _attack(n, edges, w, frac, backend)
            nparts = int(cand.max()) + 1
            if nparts < 2:
                break
            cw = _cut_weight(cand, edges, w)
            if cw - frac * (nparts - 1) < 0:
                frac, best = Fraction(cw, nparts - 1), cand
            else:
                break
    parts = _parts_from_membership(best, labels)
    return NetworkStrength(float(frac), parts, frac, _cut_weight(best, edges, w), graph)


# ---------------------------------------------------------------------------------------------- curator's cut
def _set_cut(n: int, arcs: list, src: set, snk: set, backend: str) -> tuple[int, np.ndarray]:
    """Minimum cut separating node set ``src`` from ``snk`` in an undirected unit graph (arcs both ways)."""
    big = float(len(arcs) + 1)
    s, t = n, n + 1
    full = arcs + [(s, a) for a in src] + [(b, t) for b in snk]
    caps = [1.0] * len(arcs) + [big] * (len(src) + len(snk))
    side = _st_min_cut(n + 2, full, caps, s, t, backend)[:n]
    return side, None


def _contracted_cut_values(n: int, E: list, u0: int, v0: int) -> list:
    """Minimum cut value between the contracted node {u0, v0} and every node (igraph Gomory-Hu tree)."""
    import igraph as ig

    remap = list(range(n))
    remap[v0] = u0
    edges = [(remap[a], remap[b]) for a, b in E if remap[a] != remap[b]]
    g = ig.Graph(n=n, edges=edges, directed=False)
    t = g.gomory_hu_tree(flow="flow")
    adj: list[list] = [[] for _ in range(n)]
    for (a, b), f in zip(t.get_edgelist(), t.es["flow"] if t.ecount() else []):
        adj[a].append((b, f))
        adj[b].append((a, f))
    out = [math.inf] * n
    stack = [u0]
    seen = {u0}
    while stack:
        a = stack.pop()
        for b, f in adj[a]:
            if b not in seen:
                seen.add(b)
                out[b] = min(out[a], f)
                stack.append(b)
    out[v0] = math.inf
    return out


def pairs_to_decompose(jr: JointRange, *, backend: str = "igraph") -> EdgeCut:
    """Fewest (s, x) pairs a curator must delete so that I*(S;X) > 0: the distance to decomposability in records.

    Deleting pairs (all records of those (s, x) combinations) from the joint range; labels left without any
    pair leave the range. I* becomes positive exactly when the remaining support graph has two components
    that each hold a pair. So the answer is the minimum number of support-graph edges crossing a bipartition
    (A, B) of the labels such that **both sides contain a pair** -- unlike :func:`edge_connectivity` with
    ``graph="support"``, a cut that only isolates one label (suppressing it) does not count.

    Parameters
    ----------
    jr : JointRange
    backend : {"igraph", "networkx"}
        Max-flow engine.

    Returns
    -------
    EdgeCut
        ``graph="support"``; ``value`` is the number of pairs, ``cut_edges`` the (s, x) pairs to delete,
        ``side``/``other`` the two label sets (``("S", s)``/``("X", x)`` tuples). ``value`` is 0 when I* > 0
        already, and ``math.inf`` (with no cut) when no deletion can make I* positive (every pair shares one
        label, e.g. a single sensitive value).

    Examples
    --------
    >>> import graphpriv as gp
    >>> jr = gp.JointRange.from_pairs(["a", "a", "b", "b", "c", "c"], [1, 2, 2, 3, 3, 1])
    >>> cut = gp.pairs_to_decompose(jr)        # support graph: a 6-cycle; delete 2 pairs to split it
    >>> cut.value, sorted(map(str, cut.cut_edges)) == sorted(map(str, cut.cut_edges)), len(cut.cut_edges)
    (2, True, 2)
    >>> gp.pairs_to_decompose(gp.JointRange.from_pairs(["s", "s", "s"], [1, 2, 3])).value   # one sensitive value
    inf
    >>> gp.pairs_to_decompose(gp.datasets.paper_example()[0]).value     # Fig. 1: already decomposable
    0

    Notes
    -----
    In an optimal cut no label is isolated on its side (moving it across would cut fewer pairs), so every
    label keeps a neighbour on its own side. Fix one pair e0 = (u0, v0), incident to a leaf label when one
    exists. Either e0 lies inside a side -- then the cut separates e0 from some other pair f: one max-flow
    per f -- or e0 is cut, which needs a neighbour a of u0 and b of v0 on their sides: one max-flow per
    (a, b); impossible when u0 is a leaf. So |[[S, X]]| + deg(u0)·deg(v0) max-flows, each O(|V| |E|)
    at worst; about 0.1 s for the Hungarian data.
    """
    _check(jr)
    _check_backend(backend)
    n, edges, w, labels, edge_label = _graph_arrays(jr, "support", False, None)
    ncomp, memb = _components_of(n, edges)
    if ncomp > 1:
        in_side = memb == memb[0]
        return EdgeCut(0, frozenset(labels[v] for v in np.flatnonzero(in_side)),
                       frozenset(labels[v] for v in np.flatnonzero(~in_side)), (), "support")
    E = [tuple(map(int, e)) for e in edges.tolist()]
    adj: list[list[int]] = [[] for _ in range(n)]
    for a, b in E:
        adj[a].append(b)
        adj[b].append(a)
    deg = [len(x) for x in adj]
    arcs = E + [(b, a) for a, b in E]
    # e0: a pair at a leaf if any (then it is never cut), else the pair with the fewest neighbour combinations
    e0 = min(E, key=lambda e: (min(deg[e[0]], deg[e[1]]) > 1, deg[e[0]] * deg[e[1]]))
    u0, v0 = e0
    best_val, best_side = math.inf, None

    def consider(src, snk):
        nonlocal best_val, best_side
        side, _ = _set_cut(n, arcs, src, snk, backend)
        cross = side[edges[:, 0]] != side[edges[:, 1]]
        val = int(cross.sum())
        if val < best_val:
            best_val, best_side = val, side

    # lower bounds from one Gomory-Hu tree of G with e0 contracted: the cut separating e0 from f = (w, z) is at
    # least max(lambda(e0, w), lambda(e0, z)); visit the pairs f by increasing bound and stop when it reaches
    # the best cut found (the bound only prunes, so the result does not depend on it)
    lam0 = _contracted_cut_values(n, E, u0, v0)
    cands = [f for f in E if f[0] not in e0 and f[1] not in e0]
    cands.sort(key=lambda f: (max(lam0[f[0]], lam0[f[1]]), f))
    for f in cands:
        if max(lam0[f[0]], lam0[f[1]]) >= best_val:
            break
        consider({u0, v0}, set(f))
    if min(deg[u0], deg[v0]) > 1:
        for a in adj[u0]:
            if a == v0:
                continue
            for b in adj[v0]:
                if b == u0 or b == a:
                    continue
                consider({u0, a}, {v0, b})
    if best_side is None:
        return EdgeCut(math.inf, frozenset(), frozenset(), (), "support")
    in_side = best_side if best_side[0] else ~best_side
    cross = in_side[edges[:, 0]] != in_side[edges[:, 1]]
    cut_edges = tuple(edge_label(int(i), int(j)) for i, j in edges[cross])
    return EdgeCut(int(cross.sum()), frozenset(labels[v] for v in np.flatnonzero(in_side)),
                   frozenset(labels[v] for v in np.flatnonzero(~in_side)), cut_edges, "support")


# ---------------------------------------------------------------------------------------------- Gomory-Hu
def gomory_hu_tree(jr: JointRange, *, graph: str = "confusability", weighted: bool = False, backend: str = "igraph",
                   max_edges: int | None = None) -> "GomoryHuTree":
    """Gomory--Hu tree of G_X (or of the support graph): all pairwise minimum cuts in one tree.

    For any two nodes u, v the minimum u--v cut of the graph equals the smallest edge ``weight`` on
    the u--v path of the tree, and removing that tree edge gives the two sides of such a cut.

    Parameters
    ----------
    jr : JointRange
    graph : {"confusability", "support"}
    weighted : bool
        G_X only: capacities |[[S|x]] ∩ [[S|x']]| instead of 1.
    backend : {"igraph", "networkx"}
        igraph's ``Graph.gomory_hu_tree`` (default, about 20x faster) or :func:`networkx.gomory_hu_tree`.
    max_edges : int, optional
        Passed to :func:`~graphpriv.confusability_adjacency`.

    Returns
    -------
    GomoryHuTree
        The tree, whose repr shows its size, its cut values and its lightest edges. ``.graph`` is the
        :class:`networkx.Graph`: a tree on the node labels (public labels for G_X; ``("S", s)``/``("X", x)``
        tuples for the support graph) with edge attribute ``weight`` (int when the capacities are
        integers). Tree edges of weight 0 join different components of a disconnected graph.

        Earlier versions returned the bare :class:`networkx.Graph`. The result still reads like
        one -- ``T.nodes``, ``T.edges(data=True)``, ``T["x1"]["x2"]``, ``len(T)``, iteration, ``x in T``
        and most networkx functions (``nx.is_tree(T)``, ``nx.shortest_path(T, u, v)``) work unchanged --
        but it is not an instance of :class:`networkx.Graph`: pass ``T.graph`` where one is required
        (``isinstance`` checks, functions that build a graph of the same class such as
        ``nx.minimum_spanning_tree``).

    Examples
    --------
    >>> import graphpriv as gp, networkx as nx
    >>> jr, _ = gp.datasets.paper_example()
    >>> T = gp.gomory_hu_tree(jr)
    >>> T
    GomoryHuTree(G_X: 7 nodes, 6 tree edges, cut values 0..1; lightest edges: x1-x3 (0), x3-x5 (0), x5-x6 (0), ...)
    >>> nx.is_tree(T.graph), T["x1"]["x2"]["weight"]        # x1 -- x2 is the only edge of its component
    (True, 1)
    >>> sorted(d["weight"] for *_, d in T.edges(data=True))   # 5 components: 4 tree edges of weight 0
    [0, 0, 0, 0, 1, 1]
    >>> T.min_cut("x1", "x2"), T.min_cut("x1", "x5")          # the pairwise minimum cuts of G_X
    (1, 0)

    Raises
    ------
    TooLargeError
        Estimated past a minute (about |V| = 10,000 on a sparse graph; see Notes).

    Notes
    -----
    A forest (|E| = |V| - number of components: trees, paths) is its own Gomory--Hu tree and is
    returned in O(|V| + |E|). Otherwise |V| - 1 maximum flows (Gusfield's algorithm in igraph),
    refused with :class:`~graphpriv.errors.TooLargeError` when estimated past a minute.
    """
    _check_backend(backend)
    n, edges, w, labels, _ = _graph_arrays(jr, graph, weighted, max_edges)
    T = nx.Graph()
    T.add_nodes_from(labels)
    if n < 2:
        return GomoryHuTree(T, graph, weighted)
    ncomp, memb = _components_of(n, edges)
    if len(edges) == n - ncomp:      # a forest is its own Gomory-Hu tree; components chained by weight 0
        for (i, j), c in zip(edges.tolist(), w.tolist()):
            T.add_edge(labels[i], labels[j], weight=int(c))
        _, first = np.unique(memb, return_index=True)
        roots = sorted(first.tolist())
        for a, b in zip(roots, roots[1:]):
            T.add_edge(labels[a], labels[b], weight=0)
        return GomoryHuTree(T, graph, weighted)
    from .sparse_cuts import check_gomory_hu

    check_gomory_hu(n, len(edges))
    if backend == "igraph":
        import igraph as ig

        g = ig.Graph(n=n, edges=edges.tolist(), directed=False)
        t = g.gomory_hu_tree(capacity=w.astype(float).tolist() if len(edges) else None, flow="flow")
        for e, f in zip(t.get_edgelist(), t.es["flow"] if t.ecount() else []):
            T.add_edge(labels[e[0]], labels[e[1]], weight=int(round(f)))
        return GomoryHuTree(T, graph, weighted)
    G = nx.Graph()
    G.add_nodes_from(range(n))
    G.add_weighted_edges_from(((int(i), int(j), int(c)) for (i, j), c in zip(edges, w)), weight="capacity")
    if nx.is_connected(G):
        tree = nx.gomory_hu_tree(G, capacity="capacity")
        for u, v, d in tree.edges(data=True):
            T.add_edge(labels[u], labels[v], weight=int(d["weight"]))
        return GomoryHuTree(T, graph, weighted)
    # networkx requires a connected graph: one tree per component, chained by weight-0 edges
    roots = []
    for comp in sorted((sorted(c) for c in nx.connected_components(G)), key=lambda c: c[0]):
        roots.append(comp[0])
        if len(comp) > 1:
            tree = nx.gomory_hu_tree(G.subgraph(comp), capacity="capacity")
            for u, v, d in tree.edges(data=True):
                T.add_edge(labels[u], labels[v], weight=int(d["weight"]))
    for a, b in zip(roots, roots[1:]):
        T.add_edge(labels[a], labels[b], weight=0)
    return GomoryHuTree(T, graph, weighted)
