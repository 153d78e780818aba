"""The confusability graph G_X and the bipartite support graph, as sparse matrices and as exports.

G_X (paper 003, Section IV) has the public values as nodes and an edge x -- x' whenever
[[S|x]] and [[S|x']] intersect. Its adjacency is the off-diagonal pattern of M^T M, where M is the
joint range's (|S|, |X|) incidence matrix. G_X can have up to sum_s |[[X|s]]|^2 edges, so graphpriv
never builds it to compute I* (components come from the bipartite support graph); the functions here
exist for users, drawing and cut computations, and refuse past ``max_edges``.

networkx and igraph objects are exports: node attributes ``label``, ``conditional_range`` (the set
[[S|x]] for public nodes, [[X|s]] for sensitive ones), ``component`` and ``kind`` ("public"/"sensitive").
"""

from __future__ import annotations

import warnings

import networkx as nx
import numpy as np
import scipy.sparse as sp

from ..errors import DenseGraphWarning, InputError, InputTypeError, TooLargeError
from ..ranges import JointRange
from .support import components

__all__ = [
    "confusability_adjacency",
    "confusability_edge_count_bound",
    "confusability_edges",
    "to_networkx",
    "to_igraph",
    "DEFAULT_MAX_EDGES",
    "WARN_EDGES",
]

#: G_X constructions refuse past this many (upper-bound) edges unless ``max_edges`` is raised.
DEFAULT_MAX_EDGES = 20_000_000
#: ... and warn past this many.
WARN_EDGES = 2_000_000


def _check(jr) -> JointRange:
    if not isinstance(jr, JointRange):
        raise InputTypeError(f"expected a JointRange, got {type(jr).__name__}")
    return jr


def confusability_edge_count_bound(jr: JointRange) -> int:
    """Upper bound sum_s |[[X|s]]| (|[[X|s]]| - 1) / 2 on the number of edges of G_X (exact when no
    two sensitive values share two public values)."""
    d = _check(jr).sensitive_degrees.astype(np.int64)
    return int((d * (d - 1) // 2).sum())


def confusability_adjacency(jr: JointRange, *, weighted: bool = False, max_edges: int | None = DEFAULT_MAX_EDGES) -> sp.csr_array:
    """Adjacency of G_X as a symmetric scipy sparse (|X|, |X|) array with an empty diagonal.

    Parameters
    ----------
    weighted : bool
        If True, entry (x, x') is |[[S|x]] ∩ [[S|x']]| (number of shared sensitive values); otherwise boolean.
    max_edges : int or None
        Refuse (``TooLargeError``) when the edge bound exceeds this; ``None`` disables the check.
        A ``DenseGraphWarning`` is issued past ``WARN_EDGES``.

    Examples
    --------
    >>> import graphpriv as gp
    >>> jr, _ = gp.datasets.paper_example()
    >>> A = gp.confusability_adjacency(jr)
    >>> int(A.sum()) // 2        # edges x1-x2 and x3-x4
    2
    """
    _check(jr)
    bound = confusability_edge_count_bound(jr)
    if max_edges is not None and bound > max_edges:
        worst = int(jr.sensitive_degrees.max())
        raise TooLargeError(
            f"G_X may have up to {bound:,} edges (a sensitive value occurs with {worst:,} public values), more than "
            f"max_edges={max_edges:,}. I* and the finest decomposition do not need G_X (use gp.maximin_information / "
            f"gp.finest_decomposition); pass max_edges=None to build it anyway"
        )
    if bound > WARN_EDGES:
        warnings.warn(f"building the confusability graph G_X with up to {bound:,} edges", DenseGraphWarning, stacklevel=2)
    m = jr.matrix.astype(np.int64)
    a = sp.csr_array(m.T @ m)
    a.setdiag(0)
    a.eliminate_zeros()
    if not weighted:
        a = sp.csr_array(a > 0)
    return a


def confusability_edges(jr: JointRange, **kwargs) -> np.ndarray:
    """Edges (i, j), i < j, of G_X as an (E, 2) array of public codes."""
    a = sp.triu(confusability_adjacency(jr, **kwargs), k=1).tocoo()
    return np.column_stack([a.row, a.col]).astype(np.int64)


def _node_attrs(jr: JointRange):
    comp = components(jr)
    m, csc = jr.matrix, jr.matrix.tocsc()
    s_lab, x_lab = jr.sensitive_labels, jr.public_labels
    pub = [
        dict(label=x_lab[j], kind="public", component=int(comp.public[j]),
             conditional_range=frozenset(s_lab[csc.indices[csc.indptr[j]:csc.indptr[j + 1]]].tolist()))
        for j in range(jr.n_public)
    ]
    sen = [
        dict(label=s_lab[i], kind="sensitive", component=int(comp.sensitive[i]),
             conditional_range=frozenset(x_lab[m.indices[m.indptr[i]:m.indptr[i + 1]]].tolist()))
        for i in range(jr.n_sensitive)
    ]
    return pub, sen


def to_networkx(jr: JointRange, graph: str = "confusability", **kwargs) -> nx.Graph:
    """Export G_X (``graph="confusability"``) or the bipartite support graph (``graph="bipartite"``) to networkx.

    Confusability nodes are the public labels. Bipartite nodes are ``("S", s)`` and ``("X", x)`` tuples
    (sensitive and public labels may coincide) with the networkx ``bipartite`` attribute 0 / 1.
    Edge attribute ``weight`` on G_X is the number of shared sensitive values.

    Examples
    --------
    >>> import graphpriv as gp
    >>> jr, _ = gp.datasets.paper_example()
    >>> G = gp.to_networkx(jr)
    >>> G.number_of_nodes(), G.number_of_edges(), sorted(G.nodes["x1"]["conditional_range"])
    (7, 2, ['s1', 's2'])
    """
    _check(jr)
    pub, sen = _node_attrs(jr)
    G = nx.Graph()
    if graph == "confusability":
        labels = jr.public_labels.tolist()
        G.add_nodes_from((labels[j], pub[j]) for j in range(jr.n_public))
        a = sp.triu(confusability_adjacency(jr, weighted=True, **kwargs), k=1).tocoo()
        G.add_edges_from((labels[i], labels[j], {"weight": int(w)}) for i, j, w in zip(a.row, a.col, a.data))
    elif graph == "bipartite":
        s_lab, x_lab = jr.sensitive_labels.tolist(), jr.public_labels.tolist()
        G.add_nodes_from((("S", s_lab[i]), {**sen[i], "bipartite": 0}) for i in range(jr.n_sensitive))
        G.add_nodes_from((("X", x_lab[j]), {**pub[j], "bipartite": 1}) for j in range(jr.n_public))
        coo = jr.matrix.tocoo()
        G.add_edges_from((("S", s_lab[i]), ("X", x_lab[j])) for i, j in zip(coo.row.tolist(), coo.col.tolist()))
    else:
        raise InputError(f"graph={graph!r} must be 'confusability' or 'bipartite'")
    return G


def to_igraph(jr: JointRange, graph: str = "confusability", **kwargs):
    """Export G_X or the bipartite support graph to an ``igraph.Graph``.

    Vertex ``i`` is public code ``i`` (G_X), or sensitive code ``i`` then public code ``j`` at
    ``|S| + j`` (bipartite, with the boolean vertex attribute ``type`` True for public values).
    Vertex attributes as in :func:`to_networkx` (``label`` etc.); edge attribute ``weight`` on G_X.
    """
    import igraph as ig

    _check(jr)
    pub, sen = _node_attrs(jr)
    if graph == "confusability":
        a = sp.triu(confusability_adjacency(jr, weighted=True, **kwargs), k=1).tocoo()
        g = ig.Graph(n=jr.n_public, edges=np.column_stack([a.row, a.col]).tolist(), directed=False)
        g.es["weight"] = a.data.astype(int).tolist()
        nodes = pub
    elif graph == "bipartite":
        coo = jr.matrix.tocoo()
        g = ig.Graph(n=jr.n_sensitive + jr.n_public, edges=np.column_stack([coo.row, coo.col + jr.n_sensitive]).tolist(), directed=False)
        g.vs["type"] = [False] * jr.n_sensitive + [True] * jr.n_public
        nodes = sen + pub
    else:
        raise InputError(f"graph={graph!r} must be 'confusability' or 'bipartite'")
    for key in ("label", "kind", "component", "conditional_range"):
        g.vs[key] = [n[key] for n in nodes]
    return g
