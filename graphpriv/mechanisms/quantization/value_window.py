"""Best partners of a cluster for U2 without scanning every cluster: a window of cluster minima.

Ding & Farokhi, *Developing Non-Stochastic Privacy-Preserving Policies Using Agglomerative Clustering*,
Sections V-A (step 7 of Algorithm 1) and V-B (eq. (8) of Algorithm 2) pick, for a cluster 𝒳, the
cluster 𝒳' (with another S-set, resp. in another component) of smallest merged distortion d̄(𝒳 ⊔ 𝒳').
For scalar values with centroid codewords, d̄ is the largest distance to the centroid, which lies
between the smallest and largest value, so d̄(𝒳 ⊔ 𝒳') >= span(𝒳 ⊔ 𝒳') / 2 >= |min 𝒳 - min 𝒳'| / 2.

The clusters sit in the order of their minima at the leaves of a segment tree whose nodes hold the
key (S-set id, component label) shared by all their live leaves, -1 when they have none, -2 when
the keys differ. A query walks only the subtrees that hold a cluster with another key than its own,
so clusters of its own key cost nothing however many lie in the window (Algorithm 2's late steps:
one large component around a few small ones). The walks are compiled (numba), as NumPy's per-call
overhead would be most of a query of a few clusters.
"""

from __future__ import annotations

import math

import numba
import numpy as np

from .problem import _COST_TOL

__all__ = ["ValueWindow"]

_EMPTY, _MIXED = -1, -2


@numba.njit(cache=True, nogil=True)
def _combine(a, b):
    if a == _EMPTY:
        return b
    if b == _EMPTY or a == b:
        return a
    return _MIXED


@numba.njit(cache=True, nogil=True)
def _tree_set1(lab, size, p, v):
    """Leaf p takes key ``v`` (``-1``: dead); ancestors are updated up to the first unchanged one."""
    i = size + p
    lab[i] = v
    i >>= 1
    while i >= 1:
        nv = _combine(lab[2 * i], lab[2 * i + 1])
        if lab[i] == nv:
            break
        lab[i] = nv
        i >>= 1


@numba.njit(cache=True, nogil=True)
def _tree_set(lab, size, ps, v):
    """Leaves ``ps`` (-1: none) take key ``v``."""
    for p in ps:
        if p >= 0:
            _tree_set1(lab, size, p, v)


@numba.njit(cache=True, nogil=True)
def _merge_leaves(lab, size, keep, drop, v):
    _tree_set1(lab, size, drop, _EMPTY)
    _tree_set1(lab, size, keep, v)


@numba.njit(cache=True, nogil=True)
def _build(lab, size):
    for i in range(size - 1, 0, -1):
        lab[i] = _combine(lab[2 * i], lab[2 * i + 1])


@numba.njit(cache=True, nogil=True)
def _other(lab, i, key):
    """Node i holds a live leaf whose key is not ``key``."""
    v = lab[i]
    return v != _EMPTY and v != key


@numba.njit(cache=True, nogil=True)
def _nearest(lab, size, p, key, step):
    """The nearest leaf before (step -1) or after (step +1) leaf p holding a live key other than ``key``; -1 if none."""
    i = size + p
    while i > 1:
        sib = i - 1 if (i & 1) and step < 0 else (i + 1 if not (i & 1) and step > 0 else 0)
        if sib and _other(lab, sib, key):
            s = sib
            while s < size:
                near, far = (2 * s + 1, 2 * s) if step < 0 else (2 * s, 2 * s + 1)
                s = near if _other(lab, near, key) else far
            return s - size
        i >>= 1
    return -1


@numba.njit(cache=True, nogil=True)
def _cost(x, j, cnt, sm, mn, mx, squared):
    # the arithmetic of _Aggregates.pair_costs, operation for operation (the same rounded keys)
    c = (sm[x] + sm[j]) / (cnt[x] + cnt[j])
    d = max(c - min(mn[x], mn[j]), max(mx[x], mx[j]) - c)
    return d * d if squared else d


@numba.njit(cache=True, nogil=True)
def _partner(x, p, lab, size, vals, owner, cnt, sm, mn, mx, squared, tol):
    """(rounded cost, partner) of cluster x at leaf p among live leaves with another key; (inf, -1) if none."""
    key = lab[size + p]
    ubq = np.inf
    for step in (-1, 1):
        q = _nearest(lab, size, p, key, step)
        if q >= 0:
            ubq = min(ubq, np.rint(_cost(x, owner[q], cnt, sm, mn, mx, squared) / tol))
    if ubq == np.inf:
        return np.inf, -1
    ub = ubq * tol
    d = math.sqrt(ub + 2 * tol) if squared else ub + 2 * tol
    v = vals[p]
    r = 2 * d * (1 + 1e-12) + 1e-12 * (1 + abs(v))     # widened by the rounding of ub = ubq·tol (relative)
    lo = np.searchsorted(vals, v - r, side="left")
    hi = np.searchsorted(vals, v + r, side="right")
    best_q, best_j = np.inf, -1
    stack = np.empty(128, dtype=np.int64)        # (node, first leaf, leaf count) triples
    stack[0], stack[1], stack[2] = 1, 0, size
    top = 3
    while top:
        top -= 3
        i, a, n = stack[top], stack[top + 1], stack[top + 2]
        if a >= hi or a + n <= lo or not _other(lab, i, key):
            continue
        if i >= size:
            j = owner[i - size]
            q = np.rint(_cost(x, j, cnt, sm, mn, mx, squared) / tol)
            if q < best_q or (q == best_q and j < best_j):
                best_q, best_j = q, j
            continue
        h = n >> 1
        stack[top], stack[top + 1], stack[top + 2] = 2 * i + 1, a + h, h
        stack[top + 3], stack[top + 4], stack[top + 5] = 2 * i, a, h
        top += 6
    return best_q, best_j


class ValueWindow:
    """Active clusters in the order of their minima, for best-partner queries (scalar values, centroid
    codewords, "abs" or "squared" distance: ``c.agg.fast``), among clusters of another key.

    Parameters
    ----------
    c : Contraction
        The state whose active clusters are indexed (its aggregates are read at every query).
    key : ndarray of int
        Key (>= 0) of every cluster slot: partners must have another key. The owner keeps it up to
        date through :meth:`merged` and :meth:`relabel`.

    Notes
    -----
    A query takes the nearest live clusters of another key on both sides (in value order) as an upper
    bound u of the cost, then evaluates exactly every cluster of another key whose minimum lies within
    2 d(u) of its own (d(u) = u for "abs", √u for "squared", widened by the tie tolerance), so the
    rounded cost and lowest-index tie rule give the same partner as the scan over all clusters. A
    merge or relabelling updates O(log |X|) nodes per leaf.
    """

    def __init__(self, c, key: np.ndarray):
        self.c, agg = c, c.agg
        act = np.flatnonzero(c.active)
        order = act[np.argsort(agg.mn[act], kind="stable")]
        self.vals = agg.mn[order].astype(float)        # minimum of the cluster owning each position
        self.owner = order.astype(np.int64)
        self.pos = np.full(c.problem.n, -1, dtype=np.int64)
        self.pos[order] = np.arange(len(order))
        size = 1
        while size < max(len(order), 1):
            size *= 2
        self.size = size
        self.lab = np.full(2 * size, _EMPTY, dtype=np.int64)
        self.lab[size:size + len(order)] = np.asarray(key, dtype=np.int64)[order]
        _build(self.lab, size)

    def merged(self, r: int, o: int, key_r: int) -> None:
        """Cluster ``o`` merged into ``r``, whose key is now ``key_r``."""
        pos, vals = self.pos, self.vals
        pr, po = int(pos[r]), int(pos[o])
        keep, drop = (po, pr) if vals[po] < vals[pr] else (pr, po)   # r's minimum is the smaller one
        self.owner[keep], self.owner[drop] = r, -1
        pos[r], pos[o] = keep, -1
        _merge_leaves(self.lab, self.size, keep, drop, int(key_r))

    def relabel(self, clusters: np.ndarray, key: int) -> None:
        """The clusters (dead ones are skipped) now have key ``key``."""
        _tree_set(self.lab, self.size, self.pos[np.asarray(clusters, dtype=np.int64)], int(key))

    def partner(self, x: int, key: np.ndarray | None = None) -> tuple[float, int]:
        """The best partner of active cluster ``x`` among active clusters of another key:
        ``(rounded cost, j)``, ties to the lowest j; ``(inf, -1)`` when there is none. (``key`` is
        ignored: the window holds the keys.)"""
        agg = self.c.agg
        return _partner(x, self.pos[x], self.lab, self.size, self.vals, self.owner, agg.cnt, agg.sm,
                        agg.mn, agg.mx, agg.squared, _COST_TOL)
