"""Algorithm 1 of Ding & Farokhi, *Developing Non-Stochastic Privacy-Preserving Policies Using
Agglomerative Clustering* (Section V-A, problem (3)): sweep the clusters with the smallest |[[S|𝒳]]|,
merging each with its best partner in Φ(Q), until ΔL >= 0.
"""

from __future__ import annotations

import heapq

import numpy as np

from .contraction import Contraction
from .problem import _Problem, _q, _Stopper, _Traj
from .value_window import ValueWindow


class _Partners:
    """Step 7's partner of 𝒳: among clusters with another S-set, the smallest |𝒳 ⊔ 𝒳'| (U1, a heap by
    (size, index)) or d̄(𝒳 ⊔ 𝒳') (U2: a window of cluster minima for scalar centroid values, see
    :class:`~.value_window.ValueWindow`; otherwise every cluster), ties to the lowest index."""

    def __init__(self, c: Contraction):
        self.c = c
        c._track_ssets()
        sid_of: dict[frozenset, int] = {}
        self.sid_of = sid_of
        self.sid = np.array([sid_of.setdefault(frozenset(c._ssets[i]), len(sid_of)) for i in range(c.problem.n)], dtype=np.int64)
        self.heap = [(1, i) for i in range(c.problem.n)]
        self.window = ValueWindow(c, self.sid) if c.is_distortion and c.agg.fast else None

    def partner(self, x: int) -> int:
        c, sid = self.c, self.sid
        if c.is_distortion:
            agg = c.agg
            if agg.fast:
                return self.window.partner(x, sid)[1]
            best = None
            for j in np.flatnonzero(c.active & (sid != sid[x])).tolist():
                key = (float(_q(c.problem.ub.cluster_cost(agg.members[x] + agg.members[j]))), j)
                if best is None or key < best:
                    best = key
            return -1 if best is None else best[1]
        heap, popped, partner = self.heap, [], -1
        while heap:
            s, j = heap[0]
            if not c.active[j] or c.size[j] != s:
                heapq.heappop(heap)
            elif j == x or sid[j] == sid[x]:
                popped.append(heapq.heappop(heap))
            else:
                partner = j
                break
        for e in popped:
            heapq.heappush(heap, e)
        return partner

    def merged(self, r: int, o: int) -> None:
        """Cluster ``o`` was merged into ``r``."""
        self.sid[r] = self.sid_of.setdefault(frozenset(self.c._ssets[r]), len(self.sid_of))
        heapq.heappush(self.heap, (int(self.c.size[r]), r))
        if self.window is not None:
            self.window.merged(r, o, int(self.sid[r]))


def alg1(prob: _Problem, stopper: _Stopper) -> _Traj:
    """Algorithm 1: Π = clusters with the smallest |S|𝒳| (step 3), processed in increasing index; each
    merges with its partner (step 7) and both leave Π (step 10); ΔL is tested after each sweep."""
    c = Contraction._from_problem(prob)
    partners = _Partners(c)
    priv, util = prob.l0(c.min_s_size()), c.utility()
    while c.n_clusters > 1:
        m = c.min_s_size()
        pi = np.flatnonzero(c.active & (c.ssz == m)).tolist()
        in_pi = set(pi)
        merges = []
        for x in pi:
            if x not in in_pi or not c.active[x]:
                continue
            y = partners.partner(x)
            in_pi.discard(x)
            if y < 0:
                continue
            in_pi.discard(y)
            merges.append((x, y))
            r = c._merge(x, y)
            partners.merged(r, y if r == x else x)
        min_s, _, u, _ = c._record(tuple(merges))
        p = prob.l0(min_s)
        if stopper.reject(priv, util, p, u) or not merges:
            break
        priv, util = p, u
    return c._trajectory("L0")
