"""End points and supporting λ ranges of exact frontiers (shared by the enumerator, the solver and the
interval recursion).

Ding & Farokhi, *Developing Non-Stochastic Privacy-Preserving Policies Using Agglomerative Clustering*,
Section VII: a frontier is drawn between the unquantised X and the one-cluster quantisation, and each
point is selected by the λ range on which it minimises privacy - λ·utility.
"""

from __future__ import annotations

import math

from .contraction import Contraction
from .problem import _Problem

__all__: list[str] = []


def _end_points(prob: _Problem) -> tuple[float, float, float]:
    """Privacy and utility of the unquantised X, utility of one cluster (read off the contraction state)."""
    c = Contraction._from_problem(prob)
    measure = "I*" if prob.objective == "I*" else "L0"
    p_x, u_x = c.privacy(measure), c.utility()
    for x in prob.labels[1:]:
        c.merge(prob.labels[0], x)
    return p_x, u_x, c.utility()


def _supporting_lams(pts):
    """For every frontier point, the λ range on which it minimises p - λu over the frontier (NaN if none)."""
    out = []
    for i, (p, u) in enumerate(pts):
        lo, hi = 0.0, math.inf
        for j, (p2, u2) in enumerate(pts):
            if j == i:
                continue
            if u2 < u:
                lo = max(lo, (p - p2) / (u - u2))
            elif u2 > u:
                hi = min(hi, (p2 - p) / (u2 - u))
        out.append((lo, hi) if lo <= hi + 1e-12 else (math.nan, math.nan))
    return out
