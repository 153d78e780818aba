"""Algorithm 1 of Ding & Farokhi, *Developing Non-Stochastic Privacy-Preserving Policies Using
Agglomerative Clustering* (Section V-A, problem (3)): sweep the clusters with the smallest |[[S|𝒳]]|,
merging each with its best partner in Φ(Q), until ΔL >= 0.
"""

from __future__ import annotations

import heapq

import numba
import numpy as np

from .contraction import Contraction
from .problem import _Problem, _q, _Stopper, _Traj
from .value_window import ValueWindow


@numba.njit(cache=True, nogil=True)
def _first_singleton(active, size, sid, start, x):
    """(first active one-value cluster j >= start with j != x and another S-set id than x, or -1;
    the first active one-value cluster >= start, or len)."""
    first = len(active)
    for k in range(start, len(active)):
        if active[k] and size[k] == 1:
            if first == len(active):
                first = k
            if k != x and sid[k] != sid[x]:
                return k, first
    return -1, first


class _Partners:
    """Step 7's partner of 𝒳: among clusters with another S-set, the smallest |𝒳 ⊔ 𝒳'| (U1: the one-value
    clusters in index order, scanned from the first one left, then a heap of the larger clusters by
    (size, index)) or d̄(𝒳 ⊔ 𝒳') (U2: a window of cluster minima for scalar centroid values, see
    :class:`~.value_window.ValueWindow`; otherwise every cluster), ties to the lowest index.

    S-sets are told apart by integer ids: the id of a public value's own S-set comes from its codes in
    the range's CSC arrays (one vectorised pass), a merged cluster's from the hashable key of its
    S-set (:meth:`~.contraction._SSets.key`), so no Python set or frozenset per public value is made."""

    def __init__(self, c: Contraction):
        self.c = c
        ss = c._track_ssets()
        keys, longer = ss.row_keys()             # a fresh contraction: every cluster is one public value
        short = keys >= 0
        uniq, inv = np.unique(keys[short], return_inverse=True)
        self.sid = np.empty(len(keys), dtype=np.int64)
        self.sid[short] = inv
        self.sid_of: dict = dict(zip(uniq.tolist(), range(len(uniq))))    # S-set key -> id
        for i, k in longer:
            self.sid[i] = self.sid_of.setdefault(k, len(self.sid_of))
        del keys, short, inv, uniq
        self.heap: list = []                    # (size, index) of clusters of two or more values
        self.single_at = 0                      # no one-value cluster is left below this index
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
        j, self.single_at = _first_singleton(c.active, c.size, sid, self.single_at, x)
        if j >= 0:
            return int(j)
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
        self.sid[r] = self.sid_of.setdefault(self.c._ssets.key(r), len(self.sid_of))
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
        pi = np.flatnonzero(c.active & (c.ssz == m))
        in_pi = np.zeros(c.problem.n, dtype=bool)            # membership of Π (a bit per value, not a set)
        in_pi[pi] = True
        merges = []
        for x in pi.tolist():
            if not in_pi[x] or not c.active[x]:
                continue
            y = partners.partner(x)
            in_pi[x] = False
            if y < 0:
                continue
            in_pi[y] = False
            merges.append((x, y))
            r = c._merge(x, y)
            partners.merged(r, y if r == x else x)
        min_s, _, u, _ = c._record(tuple(merges))
        p = prob.l0(min_s)
        if stopper.reject(priv, util, p, u) or not merges:
            break
        priv, util = p, u
    return c._trajectory("L0")
