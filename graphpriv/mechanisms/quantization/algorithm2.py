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
    heap. After a merge only the new cluster and the clusters whose cached partner vanished or joined
    their component are re-evaluated (lazily: a stale key is a lower bound of the true one), each
    vectorised over the clusters for scalar centroid values. For those, the singletons' first partners
    are found in value order (a window around each value) instead of over all |X|^2 pairs.
    """

    def __init__(self, c: Contraction):
        n = c.problem.n
        self.c, self.n = c, n
        self.comp = c.component_array()
        self.bp = np.full(n, -1, dtype=np.int64)
        self.bq = np.full(n, np.inf)
        self.ver = np.zeros(n, dtype=np.int64)
        self.stale = np.zeros(n, dtype=bool)
        self.heap: list = []
        if not self._init_scalar():
            self._recompute(np.arange(n))

    def _init_scalar(self) -> bool:
        """Every singleton's best partner at once, for scalar values with centroid codewords: the pair cost
        is at least half the span of the two values, so the partner lies within twice the cost to the
        nearest value of another component (found in value order); only that window is evaluated, with the
        same arithmetic and tie rule (rounded cost, then lowest partner) as :meth:`_recompute`. False when
        the windows would hold more than 64 |X| pairs (e.g. long runs of equal values in one component)."""
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
        d_ub = np.sqrt(ub + 2e-9) if agg.squared else ub + 2e-9      # any partner as good (within the rounding) has d <= d_ub
        radius = np.where(fin, 2 * d_ub + 1e-12 * (1 + np.abs(sv)), 0.0)
        lo = np.searchsorted(sv, sv - radius, side="left")
        hi = np.searchsorted(sv, sv + radius, side="right")
        cnt = np.where(fin, hi - lo, 0)
        total = int(cnt.sum())
        if total > 64 * n:
            return False
        seg = np.repeat(pos, cnt)
        at = np.arange(total) - np.repeat(np.cumsum(cnt) - cnt, cnt) + np.repeat(lo, cnt)
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

    def _recompute(self, idx: np.ndarray) -> None:
        act, comp, agg = self.c.active, self.comp, self.c.agg
        chunk = max(1, 2_000_000 // max(self.n, 1))
        for s0 in range(0, len(idx), chunk):
            part = idx[s0:s0 + chunk]
            ok = act[None, :] & (comp[None, :] != comp[part, None])
            q = np.where(ok, _q(agg.rows(part, ok if not agg.fast else None)), np.inf)
            j = np.argmin(q, axis=1)
            qmin = q[np.arange(len(part)), j]
            for i, jj, qq in zip(part.tolist(), j.tolist(), qmin.tolist()):
                self.bp[i] = jj if qq < np.inf else -1
                self.bq[i] = qq
                if qq < np.inf:
                    heapq.heappush(self.heap, (qq, min(i, jj), max(i, jj), i, int(self.ver[i])))

    def best(self) -> tuple[int, int]:
        act = self.c.active
        while True:
            qq, lo, hi, i, v = heapq.heappop(self.heap)
            if v != self.ver[i] or not act[i]:
                continue
            if self.stale[i]:  # lazy re-evaluation: the true key is >= the cached one
                self.stale[i] = False
                self.ver[i] += 1
                self._recompute(np.array([i]))
                continue
            if self.bp[i] >= 0 and self.bq[i] == qq:
                return lo, hi

    def merged(self, r: int, o: int) -> None:
        act, comp, bp, bq = self.c.active, self.comp, self.bp, self.bq
        self.stale[o] = False
        self.ver[o] += 1
        self.ver[r] += 1
        A = comp[r]
        # clusters whose cached partner vanished or now lies in their own component become stale;
        # their best over the remaining options is >= the cached key, the new cluster r is the only new option
        bpc = np.where(bp >= 0, comp[np.maximum(bp, 0)], -1)
        newly = act & ~self.stale & ((bp == r) | (bp == o) | ((comp == A) & (bpc == A)))
        newly[r] = False
        self.stale |= newly
        row_ok = act & (comp != A)
        q_r = np.where(row_ok, _q(self.c.agg.rows(np.array([r]), row_ok[None, :] if not self.c.agg.fast else None)[0]), np.inf)
        better = row_ok & ((q_r < bq) | ((q_r == bq) & (r < bp)))
        for j in np.flatnonzero(better).tolist():
            self.ver[j] += 1
            self.stale[j] = False
            bp[j] = r
            bq[j] = q_r[j]
            heapq.heappush(self.heap, (float(q_r[j]), min(j, r), max(j, r), j, int(self.ver[j])))
        self.stale[r] = False
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
