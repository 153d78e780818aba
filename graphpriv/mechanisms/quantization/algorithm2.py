"""Algorithm 2 of Ding & Farokhi, *Developing Non-Stochastic Privacy-Preserving Policies Using
Agglomerative Clustering* (Section V-B, problem (5)): merge the pair of Ψ(Q, P) (eq. (6)) chosen by
eq. (8) until ΔL >= 0 or G_X̂ is connected.

Each function is the paper's loop over a :class:`Contraction`; the index that finds eq. (8)'s pair
without scanning Ψ lives in a small class next to it and is updated from the merges.
"""

from __future__ import annotations

import heapq

import numpy as np

from .contraction import Contraction
from .problem import _Problem, _q, _Stopper, _Traj
from .value_window import ValueWindow


class _SmallestPairBySize:
    """Eq. (8) for U1 over Ψ: the pair of clusters in different components with the smallest |𝒳1| + |𝒳2|.

    Ties (paper rule) go to the pair joining the largest two components (compared as (larger, smaller)
    size in original values), then to the lowest pair index; the "index" rule skips the sizes. Every
    component keeps a heap of its clusters by (size, index); a global heap orders components by
    (smallest cluster, -component size, its index). The best pair is the tops of the two first
    components, O(log |X|) amortised per merge (small-to-large heap merges).
    """

    def __init__(self, c: Contraction, size_rule: int):
        self.c, self.rule = c, size_rule
        ncomp = c.problem.n_comp0
        self.heaps: list[list] = [[] for _ in range(ncomp)]
        for i, k in enumerate(c.comp0.tolist()):
            self.heaps[k].append((1, i))
        for h in self.heaps:
            heapq.heapify(h)
        self.ver = [0] * ncomp
        self.top = [self._entry(k) for k in range(ncomp)]
        heapq.heapify(self.top)

    def _entry(self, k):
        h, act, size = self.heaps[k], self.c.active, self.c.size
        while True:
            s, i = h[0]
            if act[i] and size[i] == s:
                return (s, -self.c.csize[k] * self.rule, i, k, self.ver[k])
            heapq.heappop(h)

    def _pop(self):
        while True:
            e = heapq.heappop(self.top)
            if self.ver[e[3]] == e[4]:
                return e

    def best(self) -> tuple[int, int, int, int]:
        """(a, b, component of a, component of b); both components leave the global heap."""
        e1, e2 = self._pop(), self._pop()
        return e1[2], e2[2], e1[3], e2[3]

    def merged(self, r: int, k1: int, k2: int) -> None:
        root = self.c._cuf.find(k1)
        h1, h2 = self.heaps[k1], self.heaps[k2]
        big, small = (h1, h2) if len(h1) >= len(h2) else (h2, h1)
        for ent in small:
            heapq.heappush(big, ent)
        heapq.heappush(big, (int(self.c.size[r]), r))
        self.heaps[k1] = self.heaps[k2] = []
        self.heaps[root] = big
        self.ver[k1] += 1
        self.ver[k2] += 1
        if self.c.n_components > 1:
            heapq.heappush(self.top, self._entry(root))


def alg2_u1(prob: _Problem, stopper: _Stopper) -> _Traj:
    """Algorithm 2 with U1 (eq. (8): argmin |𝒳1| + |𝒳2| over Ψ); stop when ΔL >= 0 (step 11) or |P| = 1."""
    c = Contraction._from_problem(prob)
    index = _SmallestPairBySize(c, 1 if prob.tie_rule == "paper" else 0)
    priv, util = prob.istar(c.n_components), c.utility()
    while c.n_components > 1:
        a, b, k1, k2 = index.best()
        r = c._merge(a, b)
        _, ncomp, u, _ = c._record(((a, b),))
        p = prob.istar(ncomp)
        if stopper.reject(priv, util, p, u):
            break
        priv, util = p, u
        index.merged(r, k1, k2)
    return c._trajectory("I*")


class _SmallestPairByCost:
    """Eq. (8) for U2 (and other distortion utilities) over Ψ: the pair with the smallest d̄(𝒳1 ⊔ 𝒳2), ties
    to the lowest pair index.

    Every cluster caches its best partner in another component (key: rounded cost, pair index) in a
    heap, with the partner's generation (how many merges it has absorbed). Invariant: every pair of Ψ
    has a key >= the smaller cached key of its two clusters, and a cached key is either exact for its
    pair or (when the cached partner merged since, or joined the cluster's component: *stale*) a
    lower bound of the cluster's true best, so the smallest exact cached key is eq. (8)'s pair. A merge
    makes only the new cluster's key exact (a pair with the new cluster is covered by that key, so no
    other cluster has to look at it); a key found stale when it reaches the top of the heap (its
    partner died, changed generation or shares its component) is re-evaluated then, so a merge costs
    O(log |X|) heap work plus the re-evaluations it causes, and no index of who cached whom is kept
    (the lazy invalidation of fast agglomerative clustering, Müllner, *Modern hierarchical,
    agglomerative clustering algorithms*, 2011, Section 3). A best partner is searched in a window of
    cluster minima (:class:`~.value_window.ValueWindow`, which skips the clusters of the own component)
    for scalar centroid values, else over all clusters; the singletons' first partners come from value
    order at once (:meth:`_init_scalar`).
    """

    def __init__(self, c: Contraction):
        n = c.problem.n
        self.c, self.n = c, n
        self.comp = c.component_array()
        self.bp = np.full(n, -1, dtype=np.int64)
        self.bq = np.full(n, np.inf)
        self.bgen = np.zeros(n, dtype=np.int64)          # generation of the cached partner when cached
        self.gen = np.zeros(n, dtype=np.int64)           # merges a cluster has absorbed
        self.ver = np.zeros(n, dtype=np.int64)           # heap entries of a cluster with an older version are dead
        self.heap: list = []
        self.window = ValueWindow(c, self.comp) if c.agg.fast else None
        if not self._init_scalar():
            self._recompute(np.arange(n))
        labels = self.comp.tolist()
        self.members: dict[int, list] = {}               # component label -> its clusters (merged ones dropped lazily)
        for i in range(n):
            self.members.setdefault(labels[i], []).append(i)

    def _init_scalar(self) -> bool:
        """Every singleton's best partner at once, for scalar values with centroid codewords: the pair cost
        of two singletons is half the distance of their values, so the best partners lie at the distance of
        the nearest value of another component (found in value order), within the tie tolerance; only the
        two windows of values at that distance below and above are evaluated, with the same arithmetic and
        tie rule (rounded cost, then lowest partner) as :meth:`_recompute`. False when the windows would
        hold more than 64 |X| pairs (e.g. long runs of equal values)."""
        c, n = self.c, self.n
        agg, comp = c.agg, self.comp
        if not agg.fast or n < 2 or not c.active.all() or (agg.cnt != 1).any():
            return False
        V = agg.sm
        order = np.argsort(V, kind="stable")
        sv, sc = V[order], comp[order]
        pos = np.arange(n)
        change = np.flatnonzero(sc[1:] != sc[:-1]) + 1                 # first position of every run after the first
        starts = np.zeros(n, dtype=np.int64)
        starts[change] = change
        starts = np.maximum.accumulate(starts)
        ends = np.full(n, n - 1, dtype=np.int64)
        ends[change - 1] = change - 1
        ends = np.minimum.accumulate(ends[::-1])[::-1]
        left, right = starts - 1, ends + 1                              # nearest positions in another component
        ub = np.full(n, np.inf)
        for nb in (left, right):
            has = (nb >= 0) & (nb < n)
            q = agg.pair_costs(order[pos[has]], order[nb[has]])
            ub[has] = np.minimum(ub[has], q)
        fin = np.isfinite(ub)
        # a partner as good as the nearest (within the rounding) has d in [d_lb, d_ub], and d = |v - v'| / 2
        d_ub = np.sqrt(ub + 2e-9) if agg.squared else ub + 2e-9
        d_lb = np.sqrt(np.maximum(ub - 2e-9, 0)) if agg.squared else np.maximum(ub - 2e-9, 0)
        slack = 1e-12 * (1 + np.abs(sv))
        outer = np.where(fin, 2 * d_ub + slack, 0.0)
        inner = np.where(fin, np.maximum(2 * d_lb - slack, 0.0), 0.0)
        lo1 = np.searchsorted(sv, sv - outer, side="left")               # values below: v - outer .. v - inner
        hi1 = np.searchsorted(sv, sv - inner, side="right")
        lo2 = np.maximum(np.searchsorted(sv, sv + inner, side="left"), hi1)   # above: v + inner .. v + outer
        hi2 = np.maximum(np.searchsorted(sv, sv + outer, side="right"), lo2)
        c1, c2 = np.where(fin, hi1 - lo1, 0), np.where(fin, hi2 - lo2, 0)
        cnt = c1 + c2
        total = int(cnt.sum())
        if total > 64 * n:
            return False
        seg = np.repeat(pos, cnt)
        k = np.arange(total) - np.repeat(np.cumsum(cnt) - cnt, cnt)     # rank within the row's two windows
        c1r = np.repeat(c1, cnt)
        at = np.where(k < c1r, np.repeat(lo1, cnt) + k, np.repeat(lo2, cnt) + k - c1r)
        I, J = order[seg], order[at]
        q = np.where((sc[at] != sc[seg]), _q(agg.pair_costs(I, J)), np.inf)
        self.bp[:] = -1
        self.bq[:] = np.inf
        heap = []
        rows = np.flatnonzero(cnt > 0)
        if len(rows):
            bounds = (np.cumsum(cnt) - cnt)[rows]
            qmin = np.minimum.reduceat(q, bounds)
            jbest = np.minimum.reduceat(np.where(q == np.repeat(qmin, cnt[rows]), J, n), bounds)
            ok = np.isfinite(qmin)
            ii, jj, qq = order[rows[ok]], jbest[ok], qmin[ok]
            self.bp[ii] = jj
            self.bq[ii] = qq
            heap = [(q_, min(i_, j_), max(i_, j_), i_, 0) for q_, i_, j_ in zip(qq.tolist(), ii.tolist(), jj.tolist())]
        heapq.heapify(heap)
        self.heap = heap
        return True

    def _set(self, i: int, q: float, j: int) -> None:
        self.bp[i], self.bq[i] = j, q
        if j >= 0:
            self.bgen[i] = self.gen[j]
            heapq.heappush(self.heap, (q, i, j, i, self.ver[i]) if i < j else (q, j, i, i, self.ver[i]))

    def _recompute(self, idx: np.ndarray) -> None:
        if self.window is not None:
            for i in idx.tolist():
                self._set(i, *self.window.partner(i))
            return
        act, comp, agg = self.c.active, self.comp, self.c.agg
        chunk = max(1, 2_000_000 // max(self.n, 1))
        for s0 in range(0, len(idx), chunk):
            part = idx[s0:s0 + chunk]
            ok = act[None, :] & (comp[None, :] != comp[part, None])
            q = np.where(ok, _q(agg.rows(part, ok if not agg.fast else None)), np.inf)
            j = np.argmin(q, axis=1)
            qmin = q[np.arange(len(part)), j]
            for i, jj, qq in zip(part.tolist(), j.tolist(), qmin.tolist()):
                self._set(i, qq, jj if qq < np.inf else -1)

    def best(self) -> tuple[int, int]:
        act, comp, ver, gen, bp, bgen, heap = self.c.active, self.comp, self.ver, self.gen, self.bp, self.bgen, self.heap
        while True:
            qq, lo, hi, i, v = heapq.heappop(heap)
            if v != ver[i] or not act[i]:
                continue
            j = bp[i]
            if not act[j] or gen[j] != bgen[i] or comp[j] == comp[i]:   # stale: the true key is >= the cached one
                ver[i] += 1
                if self.window is not None:
                    self._set(i, *self.window.partner(i))
                else:
                    self._recompute(np.array([i]))
                continue
            self.joining = (int(comp[lo]), int(comp[hi]))
            return lo, hi

    def merged(self, r: int, o: int) -> None:
        """Clusters r and o (of the pair :meth:`best` returned) merged into r."""
        A = int(self.comp[r])
        if self.window is not None:
            self.window.merged(r, o, A)
        gone = self.joining[0] if self.joining[1] == A else self.joining[1]   # the label that disappeared
        moved = self.members.pop(gone)
        self.members[A].extend(moved)
        if self.window is not None:
            self.window.relabel(moved, A)
        self.gen[r] += 1
        for x in (r, o):
            self.bp[x] = -1
            self.ver[x] += 1
        if self.window is not None:
            self._set(r, *self.window.partner(r))
        else:
            self._recompute(np.array([r]))


def alg2_u2(prob: _Problem, stopper: _Stopper) -> _Traj:
    """Algorithm 2 with U2 (eq. (8): argmin d̄(𝒳1 ⊔ 𝒳2) over Ψ); stop when ΔL >= 0 (step 11) or |P| = 1."""
    c = Contraction._from_problem(prob)
    index = _SmallestPairByCost(c)
    priv, util = prob.istar(c.n_components), c.utility()
    while c.n_components > 1:
        a, b = index.best()
        r = c._merge(a, b)
        _, ncomp, u, _ = c._record(((a, b),))
        p = prob.istar(ncomp)
        if stopper.reject(priv, util, p, u) or ncomp == 1:
            break
        priv, util = p, u
        index.merged(r, b if r == a else a)
    return c._trajectory("I*")
