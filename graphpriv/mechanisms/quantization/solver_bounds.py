"""Proven lower bounds of the threshold models of :mod:`.solver`, and the deadline every step checks.

Ding & Farokhi, *Developing Non-Stochastic Privacy-Preserving Policies Using Agglomerative Clustering*,
problems (3), (5), (10): at an L0 level k every cluster covers k sensitive values, which bounds the number
of clusters (:func:`_max_clusters`) and the size (U1) or span (U2) of the cluster of each value
(:func:`_l0_cost_lower_bound`); at an I* level below the number of components of G_X clusters must join
components (:func:`_joining_cost_bound`). Each bound is proven for every quantisation, so a level whose
incumbent reaches it is optimal without a solver.
"""

from __future__ import annotations

import math
import time
from fractions import Fraction

import numpy as np

__all__: list[str] = []


class _OutOfTime(Exception):
    """Raised inside model building when the call's deadline has passed (caught by the level sweep)."""


class _Deadline:
    """The end of a time-limited call (``None``: no limit); :meth:`check` raises :class:`_OutOfTime` after it."""

    def __init__(self, time_limit: float | None, start: float | None = None):
        start = time.perf_counter() if start is None else start
        self.end = None if time_limit is None else start + float(time_limit)

    def left(self) -> float | None:
        return None if self.end is None else self.end - time.perf_counter()

    def passed(self) -> bool:
        return self.end is not None and time.perf_counter() >= self.end

    def check(self) -> None:
        if self.passed():
            raise _OutOfTime

    def milp_options(self) -> dict:
        """Options of :func:`scipy.optimize.milp` that stop at this deadline; raises :class:`_OutOfTime` once
        it has passed."""
        opts = {"disp": False}
        left = self.left()
        if left is not None:
            if left <= 0:
                raise _OutOfTime
            opts["time_limit"] = float(left)
        return opts


_NO_DEADLINE = _Deadline(None)


#: the exact smallest cluster around each x (a partial set cover over subsets of S) is computed up to this |S|
_COVER_MAX_S = 10


def _s_universe(inst: _Inst) -> list:
    return sorted({s for ss in inst.ssets for s in ss})


def _min_cover_sizes(inst: _Inst, level: int, *, suffix: bool) -> list:
    """For every element e, the fewest members of a cluster holding e whose S-sets cover ``level`` sensitive
    values (members from e's suffix e..n-1 when ``suffix``: e is then the cluster's smallest member);
    n + 1 when impossible. Breadth-first search over the covered subsets of S (2^|S| states); cached."""
    cache_all = inst.__dict__.setdefault("_cover_cache", {})
    if (level, suffix) not in cache_all:
        cache_all[level, suffix] = _min_cover_sizes_uncached(inst, level, suffix=suffix)
    return cache_all[level, suffix]


def _min_cover_sizes_uncached(inst: _Inst, level: int, *, suffix: bool) -> list:
    n = inst.n
    uni = _s_universe(inst)
    bit = {s: 1 << i for i, s in enumerate(uni)}
    masks = [sum(bit[s] for s in ss) for ss in inst.ssets]
    out = []
    cache = {}
    for e in range(n):
        pool = sorted(set(masks[e:] if suffix else masks))
        key = (masks[e], tuple(pool))
        if key in cache:
            out.append(cache[key])
            continue
        frontier = {masks[e]}
        seen = set(frontier)
        size = 1
        found = masks[e].bit_count() >= level
        while not found and frontier and size <= n:
            nxt = set()
            for m in frontier:
                for p in pool:
                    q = m | p
                    if q != m and q not in seen:
                        seen.add(q)
                        nxt.add(q)
            size += 1
            frontier = nxt
            found = any(q.bit_count() >= level for q in frontier)
        res = size if found else n + 1
        if not suffix:   # elements may repeat a mask; a cover of distinct masks never needs more members than masks
            res = min(res, n + 1)
        cache[key] = res
        out.append(res)
    return out


def _max_clusters(inst: _Inst, level: int) -> int:
    """Most clusters a quantisation with every cluster covering ``level`` sensitive values can have.

    c clusters cover at least c·k (cluster, s) pairs, and a sensitive value s lying in occ(s) public values
    is covered by at most min(c, occ(s)) clusters: c·k <= sum_s min(c, occ(s)). Cached per level.
    """
    cache = inst.__dict__.setdefault("_max_clusters_cache", {})
    if level not in cache:
        cache[level] = _max_clusters_uncached(inst, level)
    return cache[level]


def _max_clusters_uncached(inst: _Inst, level: int) -> int:
    cover = inst.__dict__.get("_cover_by_count")
    if cover is None:     # sum_s min(c, occ(s)) for c = 1..n, once per instance
        occ: dict = {}
        for ss in inst.ssets:
            for s_ in ss:
                occ[s_] = occ.get(s_, 0) + 1
        o = np.sort(np.fromiter(occ.values(), dtype=np.int64, count=len(occ)))
        c = np.arange(1, inst.n + 1, dtype=np.int64)
        below = np.searchsorted(o, c, side="left")           # occ(s) < c: count occ(s) itself
        csum = np.concatenate([[0], np.cumsum(o)])
        cover = csum[below] + c * (len(o) - below)
        inst.__dict__["_cover_by_count"] = cover
    ok = np.flatnonzero(np.arange(1, inst.n + 1, dtype=np.int64) * level <= cover)
    return int(ok[-1]) + 1 if len(ok) else 1


def _cost_lower_bound(inst: _Inst, objective: str, level: int, deadline: _Deadline = _NO_DEADLINE):
    """A proven lower bound on the utility cost at an L0 level k (every cluster covers k sensitive values).

    U1: the cluster of x needs m members with |S|x| + (the m - 1 largest other |S|x'|) >= k (a union is
    at most the sum), so K >= max_x of the least such m. U2: a cluster of distortion D spans at most 2D
    (max - x̂ <= D and x̂ - min <= D), so it lies in a window of width 2D holding x; D >= w_x / 2 with
    w_x the narrowest window of the sorted values holding x whose S-sets cover k values. For I* levels
    (at most c components of G_X̂) and problem (10) (one component) the bound of joining the components,
    :func:`_joining_cost_bound`, applies (with the L0 bound, for problem (10)).
    """
    if objective == "I*":
        return _joining_cost_bound(inst, level)
    base = _l0_cost_lower_bound(inst, level, deadline)
    if objective == "L0|I*=0":
        return max(base, _joining_cost_bound(inst, 1))
    return base


def _joining_cost_bound(inst: _Inst, c: int):
    """A proven lower bound on the utility cost of any quantisation with at most ``c`` components of G_X̂.

    The components of G_X̂ are those of the graph on the components of G_X whose edges are the pairs of
    values sharing a cluster; at most c of them need such edges to join the n_comp0 components into at most c
    groups. U1: some cluster then has two members (cost 2 below n_comp0); and counting: with q clusters, the
    bipartite graph clusters - components of G_X (an edge per pair sharing a value, so at most |X| edges) has
    at most c connected parts over n_comp0 + q nodes, hence at least n_comp0 + q - c edges: q <= |X| - n_comp0
    + c and K >= |X| / q (exact on |X| isolated values: K = ceil(|X| / c)). U2 (scalar centroid): a cluster
    holding x and y has distortion at least |x - y| / 2, so the cost is at least half the bottleneck t(c) of
    a spanning forest with c trees over the components, edge weights the distances; on a line the cheapest
    edges across any cut are neighbours in the sorted order, so Kruskal's algorithm over the sorted
    neighbours of different components gives t(c) exactly."""
    trivial = 1 if inst.kind == "U1" else Fraction(0)
    C = inst.n_comp0
    if c >= C:
        return trivial
    if inst.kind == "U1":
        return max(2, -(-inst.n // (inst.n - C + c)))
    X, comp = inst.X, inst.comp          # model order: sorted by value
    edges = sorted((X[p + 1] - X[p], p) for p in range(inst.n - 1) if comp[p] != comp[p + 1])
    parent = list(range(C))

    def find(a):
        while parent[a] != a:
            parent[a] = parent[parent[a]]
            a = parent[a]
        return a

    groups = C
    for w, p in edges:
        a, b = find(comp[p]), find(comp[p + 1])
        if a != b:
            parent[a] = b
            groups -= 1
            if groups <= c:
                return Fraction(w, 2)
    return trivial                     # pragma: no cover - the sorted neighbours connect every component


def _l0_cost_lower_bound(inst: _Inst, level: int, deadline: _Deadline = _NO_DEADLINE):
    """The L0 part of :func:`_cost_lower_bound` (every cluster covers ``level`` sensitive values)."""
    if level <= inst.k_min:
        return 1 if inst.kind == "U1" else Fraction(0)
    n = inst.n
    if inst.kind == "U1":
        count = -(-n // _max_clusters(inst, level))          # n values in at most c clusters
        if len(_s_universe(inst)) <= _COVER_MAX_S:
            return max(count, max(_min_cover_sizes(inst, level, suffix=False)))
        deg = sorted((m.bit_count() for m in inst.smask), reverse=True)
        best = 1
        for e in range(n):
            deadline.check()
            d = inst.smask[e].bit_count()
            others = list(deg)
            others.remove(d)
            tot, m = d, 1
            for o in others:
                if tot >= level:
                    break
                tot += o
                m += 1
            best = max(best, m)
        return max(best, count)
    X = inst.X                      # model order is sorted by value
    ends = []                       # b(a): the first b with the S-sets of a..b covering k values (None: never)
    for a in range(n):
        deadline.check()
        m, end = 0, None
        for b in range(a, n):
            m |= inst.smask[b]
            if m.bit_count() >= level:
                end = b
                break
        ends.append(end)
    best = 0
    for e in range(n):              # narrowest window holding e that covers k: [a, max(b(a), e)] over a <= e
        deadline.check()
        w = min((X[max(b, e)] - X[a] for a, b in enumerate(ends[:e + 1]) if b is not None), default=None)
        if w is None:
            return Fraction(0)
        best = max(best, w)
    return Fraction(best, 2)
