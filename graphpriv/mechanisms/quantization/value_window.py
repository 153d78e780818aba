"""Best partners of a cluster for U2 without scanning every cluster: a window of cluster minima.

Ding & Farokhi, *Developing Non-Stochastic Privacy-Preserving Policies Using Agglomerative Clustering*,
Sections V-A (step 7 of Algorithm 1) and V-B (eq. (8) of Algorithm 2) pick, for a cluster 𝒳, the
cluster 𝒳' (with another S-set, resp. in another component) of smallest merged distortion d̄(𝒳 ⊔ 𝒳').
For scalar values with centroid codewords, d̄ is the largest distance to the centroid, which lies
between the smallest and largest value, so d̄(𝒳 ⊔ 𝒳') >= span(𝒳 ⊔ 𝒳') / 2 >= |min 𝒳 - min 𝒳'| / 2.
"""

from __future__ import annotations

import math

import numpy as np

from .problem import _COST_TOL, _q

__all__ = ["ValueWindow"]


class ValueWindow:
    """Active clusters in the order of their minima, for best-partner queries (scalar values, centroid
    codewords, "abs" or "squared" distance: ``c.agg.fast``).

    Active
    clusters are kept in the order of their minima (a sorted array of values with the owning cluster
    at each position, dead positions compacted away when they outnumber the live ones). A query takes
    the nearest live clusters with another key (S-set, component) on both sides as an upper bound u of the cost, then
    evaluates exactly every cluster whose minimum lies within 2 d(u) of its own (d(u) = u for "abs",
    √u for "squared", widened by the tie tolerance), so the rounded cost and lowest-index tie rule
    give the same partner as the scan over all clusters.
    """

    compact_min = 1024  # dead positions tolerated before compacting (tests lower it)

    def __init__(self, c):
        self.c, agg = c, c.agg
        act = np.flatnonzero(c.active)
        order = act[np.argsort(agg.mn[act], kind="stable")]
        self.vals = agg.mn[order].astype(float)        # minimum of the cluster owning each position
        self.owner = order.astype(np.int64)            # -1 once the position is dead
        self.pos = np.full(c.problem.n, -1, dtype=np.int64)
        self.pos[order] = np.arange(len(order))
        self.dead = 0

    def merged(self, r: int, o: int) -> None:
        pr, po = int(self.pos[r]), int(self.pos[o])
        keep, drop = (po, pr) if self.vals[po] < self.vals[pr] else (pr, po)   # r's minimum is the smaller one
        self.owner[keep], self.owner[drop] = r, -1
        self.pos[r], self.pos[o] = keep, -1
        self.dead += 1
        if self.dead > max(self.compact_min, len(self.owner) // 2):
            live = self.owner >= 0
            self.vals, self.owner = self.vals[live], self.owner[live]
            self.pos[self.owner] = np.arange(len(self.owner))
            self.dead = 0

    def partner(self, x: int, key: np.ndarray) -> tuple[float, int]:
        """The best partner of active cluster ``x`` among active clusters j with ``key[j] != key[x]``:
        ``(rounded cost, j)``, ties to the lowest j; ``(inf, -1)`` when there is none."""
        agg, owner, vals = self.c.agg, self.owner, self.vals
        m, p = len(owner), int(self.pos[x])
        k, ub = 16, np.inf
        while True:                                    # nearest live clusters with another key
            lo, hi = max(0, p - k), min(m, p + k + 1)
            js = owner[lo:hi]
            js = js[js >= 0]
            js = js[(key[js] != key[x]) & (js != x)]
            if len(js):
                ub = float(_q(agg.pair_costs(x, js)).min()) * _COST_TOL
                break
            if lo == 0 and hi == m:
                return math.inf, -1
            k *= 4
        d = math.sqrt(ub + 2 * _COST_TOL) if agg.squared else ub + 2 * _COST_TOL
        v = vals[p]
        r = 2 * d + 1e-12 * (1 + abs(v))
        lo, hi = np.searchsorted(vals, v - r, side="left"), np.searchsorted(vals, v + r, side="right")
        js = owner[lo:hi]
        js = js[js >= 0]
        js = js[(key[js] != key[x]) & (js != x)]
        q = _q(agg.pair_costs(x, js))
        qmin = q.min()
        return float(qmin), int(js[q == qmin].min())
