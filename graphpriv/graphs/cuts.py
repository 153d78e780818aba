"""Decomposability of G_X through min cuts (paper 003, Section IV, eq. (1)).

G_X is decomposable iff its global min cut kappa* = min {kappa(X') : {} != X' ⊊ [[X]]} is 0, where
kappa(X') counts the edges of G_X between X' and its complement. When kappa* = 0 the min-cut solutions
are exactly the unions of components of G_X other than [[X]] itself (eq. (1)): 2^c - 2 sets for c
components; the inclusion-minimal ones are the components, i.e. the finest decomposition.

Backends: ``"igraph"`` (default; Stoer--Wagner / push-relabel in C), ``"networkx"`` and ``"scipy"``
(integer max-flow, one per target, partition from the residual graph). They must agree; the tests
check it. A Laplacian cross-check (multiplicity of eigenvalue 0) is in :func:`laplacian_decomposition`.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from itertools import combinations
from typing import Hashable, Iterator

import networkx as nx
import numpy as np
import scipy.sparse as sp
from scipy.sparse.csgraph import breadth_first_order, connected_components, maximum_flow

from ..errors import InputError, TooLargeError
from ..ranges import JointRange
from .confusability import _check, confusability_adjacency
from .support import components

__all__ = ["MinCut", "MinCutSets", "min_cut", "min_cut_sets", "is_decomposable", "laplacian_decomposition", "BACKENDS"]

BACKENDS = ("igraph", "networkx", "scipy")
#: Largest |X| for which min_cut_sets enumerates the min-cut solutions of a connected G_X by brute force.
BRUTE_FORCE_MAX = 20
#: Largest |X| for the dense eigen-decomposition of the Laplacian.
LAPLACIAN_MAX = 3000


@dataclass(frozen=True)
class MinCut:
    """A minimum cut {X', [[X]] \\ X'} of G_X.

    Attributes
    ----------
    value : int
        kappa(X'), the number of G_X edges crossing the cut.
    side : frozenset
        X' (public labels). For the global cut it is the side holding the first public value; for an
        s--t cut the side holding ``s``.
    other : frozenset
        [[X]] \\ X'.
    cut_edges : tuple of (x, x') pairs
        The crossing edges (x in ``side``).
    s, t : public labels or None
        The terminals of an s--t cut (``s`` in ``side``, ``t`` in ``other``); None for the global cut.
    """

    value: int
    side: frozenset
    other: frozenset = field(repr=False)
    cut_edges: tuple = field(repr=False)
    s: Hashable | None = field(default=None, repr=False)
    t: Hashable | None = field(default=None, repr=False)

    @property
    def decomposable(self) -> bool:
        return self.value == 0


def _side_to_result(jr: JointRange, a: sp.csr_array, in_side: np.ndarray) -> MinCut:
    labels = jr.public_labels
    coo = sp.triu(a, k=1).tocoo()
    cross = in_side[coo.row] != in_side[coo.col]
    edges = []
    for i, j in zip(coo.row[cross].tolist(), coo.col[cross].tolist()):
        if not in_side[i]:
            i, j = j, i
        edges.append((labels[i], labels[j]))
    return MinCut(int(cross.sum()), frozenset(labels[in_side].tolist()), frozenset(labels[~in_side].tolist()), tuple(edges))


def _normalise_side(in_side: np.ndarray, anchor: int) -> np.ndarray:
    return in_side if in_side[anchor] else ~in_side


def min_cut(jr: JointRange, s: Hashable | None = None, t: Hashable | None = None, *, backend: str = "igraph", max_edges: int | None = None) -> MinCut:
    """Global minimum cut of G_X, or the minimum s--t cut when public labels ``s`` and ``t`` are given.

    Parameters
    ----------
    jr : JointRange
    s, t : public labels, optional
        Both or neither.
    backend : {"igraph", "networkx", "scipy"}
    max_edges : int, optional
        Passed to :func:`~graphpriv.confusability_adjacency` (the cut needs G_X itself).

    Returns
    -------
    MinCut
        ``value == 0`` iff G_X is decomposable (global cut) or s and t lie in different components.

    Examples
    --------
    >>> import graphpriv as gp
    >>> jr, _ = gp.datasets.paper_example()
    >>> cut = gp.min_cut(jr)
    >>> cut.value, sorted(cut.side)
    (0, ['x1', 'x2'])
    >>> gp.min_cut(jr, "x1", "x2").value
    1

    Raises
    ------
    TooLargeError
        The exact algorithm would run past the time budget (see Notes).

    Notes
    -----
    With several components the global cut is 0 and its side is the component of the first public
    value, whatever the backend. A connected G_X with a bridge has min cut 1 (the side of the first
    bridge found), and a bridgeless one with a node of degree 2 has min cut 2 (that node alone): both
    found in O(|X| + |E|) (:mod:`graphpriv.graphs.sparse_cuts`), so paths and trees of any size are
    fast. Otherwise Stoer--Wagner (igraph, networkx) is O(|X| |E| + |X|^2 log |X|) and the scipy
    backend runs |X| - 1 max-flows; past an estimated minute (about |X| = 30,000 for a sparse G_X)
    a :class:`~graphpriv.errors.TooLargeError` says so before starting.
    """
    _check(jr)
    if backend not in BACKENDS:
        raise InputError(f"backend={backend!r} must be one of {BACKENDS}")
    if (s is None) != (t is None):
        raise InputError("give both s and t for an s-t cut, or neither for the global min cut")
    n = jr.n_public
    if n < 2:
        raise InputError("a cut needs at least two public values; this joint range has one")
    kw = {} if max_edges is None else {"max_edges": max_edges}
    a = confusability_adjacency(jr, **kw)
    if s is not None:
        si, ti = jr.public_code(s), jr.public_code(t)
        if si == ti:
            raise InputError("s and t must be different public values")
        in_side = _st_cut(a, si, ti, backend)
        res = _side_to_result(jr, a, _normalise_side(in_side, si))
        return MinCut(res.value, res.side, res.other, res.cut_edges, jr.public_labels[si], jr.public_labels[ti])
    in_side = _scalable_global_cut(a, backend)
    return _side_to_result(jr, a, _normalise_side(in_side, 0))


def _scalable_global_cut(a: sp.csr_array, backend: str) -> np.ndarray:
    """Components first, then the linear-time cases (a bridge, a bridgeless graph of minimum degree 2),
    and the exact quadratic algorithms only when their estimated time is within budget."""
    from .sparse_cuts import check_gomory_hu, check_stoer_wagner, unit_min_cut_fast

    n = a.shape[0]
    ncomp, memb = connected_components(a, directed=False)
    if ncomp > 1:
        return memb == memb[0]
    coo = sp.triu(a, k=1).tocoo()
    edges = np.column_stack([coo.row, coo.col]).astype(np.int64)
    fast = unit_min_cut_fast(n, edges)
    if fast is not None:
        return fast[1]
    if backend == "scipy":       # |X| - 1 max-flows, as many as a Gomory-Hu tree
        check_gomory_hu(n, len(edges))
    else:
        check_stoer_wagner(n, len(edges))
    return _global_cut(a, backend)


def _st_cut(a: sp.csr_array, si: int, ti: int, backend: str) -> np.ndarray:
    n = a.shape[0]
    if backend == "igraph":
        g = _igraph(a)
        cut = g.st_mincut(si, ti)
        mask = np.zeros(n, dtype=bool)
        mask[cut.partition[0]] = True
        return mask if mask[si] else ~mask
    if backend == "networkx":
        G = _nx(a)
        _, (left, _) = nx.minimum_cut(G, si, ti, capacity="capacity")
        mask = np.zeros(n, dtype=bool)
        mask[list(left)] = True
        return mask
    return _scipy_st(a, si, ti)[1]


def _scipy_st(a: sp.csr_array, si: int, ti: int) -> tuple[int, np.ndarray]:
    cap = sp.csr_array(a.astype(np.int32))
    res = maximum_flow(cap, si, ti)
    residual = cap - res.flow
    residual = sp.csr_array(residual > 0)
    order = breadth_first_order(residual, si, directed=True, return_predecessors=False)
    mask = np.zeros(a.shape[0], dtype=bool)
    mask[order] = True
    return int(res.flow_value), mask


def _global_cut(a: sp.csr_array, backend: str) -> np.ndarray:
    n = a.shape[0]
    if backend == "igraph":
        g = _igraph(a)
        if not g.is_connected():
            return np.asarray(g.connected_components().membership) == g.connected_components().membership[0]
        cut = g.mincut()
        mask = np.zeros(n, dtype=bool)
        mask[cut.partition[0]] = True
        return mask
    if backend == "networkx":
        G = _nx(a)
        if not nx.is_connected(G):
            comp = nx.node_connected_component(G, 0)
            mask = np.zeros(n, dtype=bool)
            mask[list(comp)] = True
            return mask
        _, (left, _) = nx.stoer_wagner(G, weight="capacity")
        mask = np.zeros(n, dtype=bool)
        mask[list(left)] = True
        return mask
    best_val, best_mask = None, None
    for t in range(1, n):
        val, mask = _scipy_st(a, 0, t)
        if best_val is None or val < best_val:
            best_val, best_mask = val, mask
            if val == 0:
                break
    return best_mask


def _igraph(a: sp.csr_array):
    import igraph as ig

    coo = sp.triu(a, k=1).tocoo()
    return ig.Graph(n=a.shape[0], edges=np.column_stack([coo.row, coo.col]).tolist(), directed=False)


def _nx(a: sp.csr_array) -> nx.Graph:
    G = nx.Graph()
    G.add_nodes_from(range(a.shape[0]))
    coo = sp.triu(a, k=1).tocoo()
    G.add_edges_from((int(i), int(j), {"capacity": 1}) for i, j in zip(coo.row, coo.col))
    return G


def is_decomposable(jr: JointRange) -> bool:
    """True iff G_X has more than one component (min cut 0, I*(S;X) > 0). Computed from components."""
    return components(_check(jr)).n_components > 1


class MinCutSets:
    """All solutions argmin {kappa(X')} of the global min-cut problem of G_X (paper 003, eq. (1)).

    Iterating yields each solution as a frozenset of public labels. :attr:`minimal` holds the
    inclusion-minimal solutions; when the min cut is 0 they are the finest decomposition (Section IV).

    Examples
    --------
    >>> import graphpriv as gp
    >>> jr, _ = gp.datasets.paper_example()
    >>> sets = gp.min_cut_sets(jr)
    >>> sets.value, sets.count, len(list(sets))      # 2**5 - 2 (paper 003, Example 1)
    (0, 30, 30)
    """

    def __init__(self, value: int, blocks: list[frozenset], explicit: list[frozenset] | None, universe: frozenset):
        self.value = value
        self._blocks = blocks
        self._explicit = explicit
        self._universe = universe

    @property
    def count(self) -> int:
        """Number of min-cut solutions (2^c - 2 when the min cut is 0 with c components)."""
        if self._explicit is not None:
            return len(self._explicit)
        return 2 ** len(self._blocks) - 2

    def __len__(self) -> int:
        return self.count

    def __iter__(self) -> Iterator[frozenset]:
        if self._explicit is not None:
            yield from self._explicit
            return
        c = len(self._blocks)
        for r in range(1, c):
            for combo in combinations(range(c), r):
                yield frozenset().union(*(self._blocks[i] for i in combo))

    @property
    def minimal(self) -> list[frozenset]:
        """Inclusion-minimal min-cut solutions (the finest decomposition when the min cut is 0)."""
        if self._explicit is None:
            return list(self._blocks)
        sols = sorted(self._explicit, key=len)
        return [a for a in sols if not any(b < a for b in sols)]

    def __contains__(self, item) -> bool:
        item = frozenset(item)
        if self._explicit is not None:
            return item in self._explicit
        if not item or item == self._universe or not item <= self._universe:
            return False
        return all(b <= item or not (b & item) for b in self._blocks)

    def __repr__(self) -> str:
        return f"MinCutSets(value={self.value}, count={self.count})"


def min_cut_sets(jr: JointRange, *, max_public: int = BRUTE_FORCE_MAX) -> MinCutSets:
    """The set of all global min-cut solutions of G_X (paper 003, eq. (1)).

    When G_X is decomposable (min cut 0) the solutions are the unions of components, counted as
    2^c - 2 and enumerated lazily; nothing but the components is computed. When G_X is connected the
    solutions are found by exhaustive search over subsets, allowed for |X| <= ``max_public``.
    """
    _check(jr)
    if jr.n_public < 2:
        raise InputError("a cut needs at least two public values; this joint range has one")
    labels = jr.public_labels
    blocks = [frozenset(labels[g].tolist()) for g in components(jr).public_groups()]   # the finest decomposition
    universe = frozenset(labels.tolist())
    if len(blocks) > 1:
        return MinCutSets(0, blocks, None, universe)
    n = jr.n_public
    if n > max_public:
        raise TooLargeError(
            f"G_X is connected; listing every min-cut solution needs exhaustive search over 2^{n} subsets, past the limit "
            f"|X| <= {max_public}. Use gp.min_cut(jr) for one minimum cut, or raise max_public"
        )
    a = confusability_adjacency(jr).tocoo()
    rows, cols = a.row[a.row < a.col], a.col[a.row < a.col]
    masks = np.arange(1, 2 ** n - 1, dtype=np.int64)
    bits = ((masks[:, None] >> np.arange(n)) & 1).astype(bool)
    kappa = (bits[:, rows] != bits[:, cols]).sum(axis=1)
    best = int(kappa.min())
    explicit = [frozenset(labels[bits[k]].tolist()) for k in np.flatnonzero(kappa == best)]
    return MinCutSets(best, [universe], explicit, universe)


def laplacian_decomposition(jr: JointRange, *, tol: float = 1e-8, max_public: int = LAPLACIAN_MAX) -> tuple[int, list[frozenset]]:
    """Components of G_X from its graph Laplacian (paper 003, Section IV, via [33, Remark 6]).

    The multiplicity of eigenvalue 0 of L = D - A (A the weighted adjacency M^T M without its
    diagonal) is the number of components, and the null space is spanned by their indicator vectors:
    public values whose null-space coordinates coincide lie in the same component. A cross-check of
    the combinatorial method, O(|X|^3); refused past ``max_public``.

    Returns
    -------
    (multiplicity, partition) with the partition as frozensets of public labels, ordered like
    :func:`~graphpriv.finest_decomposition`.
    """
    _check(jr)
    n = jr.n_public
    if n > max_public:
        raise TooLargeError(f"the Laplacian method is dense O(|X|^3); |X| = {n} > max_public = {max_public}. Use gp.finest_decomposition")
    m = jr.matrix.astype(float).toarray()
    w = m.T @ m
    np.fill_diagonal(w, 0.0)
    lap = np.diag(w.sum(axis=1)) - w
    vals, vecs = np.linalg.eigh(lap)
    scale = max(1.0, float(np.abs(vals).max()))
    null = vecs[:, vals <= tol * scale]
    k = null.shape[1]
    # rows of the null-space basis are equal within a component and differ between components
    key = np.round(null / (np.abs(null).max() or 1.0), 6)
    _, comp = np.unique(key, axis=0, return_inverse=True)
    comp = np.asarray(comp).ravel()
    groups: dict[int, list[int]] = {}
    for j, c in enumerate(comp.tolist()):
        groups.setdefault(c, []).append(j)
    labels = jr.public_labels
    parts = sorted((sorted(g) for g in groups.values()), key=lambda g: g[0])
    return k, [frozenset(labels[g].tolist()) for g in parts]
