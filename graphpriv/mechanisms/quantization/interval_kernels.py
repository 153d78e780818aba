"""Compiled kernels of the interval recursion (:mod:`.interval`): window starts and one-layer minimax DP.

The interval frontier of problem (3) (Ding & Farokhi, *Developing Non-Stochastic Privacy-Preserving
Policies Using Agglomerative Clustering*, problem (3) with U1, eq. (6), or U2, Section V-A) runs one
recursion g(i) = min over admissible j < i of max(g(j), cost(j, i)) per privacy level. These kernels run
that recursion in compiled code for the largest-interval-size cost (U1) and the scalar centroid distortion
with the "abs" or "squared" distance (U2), with the same float64 arithmetic as the Python recursion of
:func:`.interval._dp` (the results are identical, checked in the tests). Imported on first use, like the
kernels of Algorithms 1 and 2, so that ``import graphpriv`` does not import numba.
"""

from __future__ import annotations

import numba
import numpy as np

__all__ = ["window_starts", "minimax_dp"]


@numba.njit(cache=True, nogil=True)
def window_starts(ptr, idx, n_s, k):  # pragma: no cover - compiled
    """J_k(i), i = 1..n: the largest j with |S(x_j..x_{i-1})| >= k, -1 if none (index 0 unused).

    ``ptr``, ``idx``: the S-sets of the ordered public values as a CSR pair (sensitive codes < ``n_s``)."""
    n = len(ptr) - 1
    out = np.full(n + 1, -1, dtype=np.int64)
    cnt = np.zeros(n_s, dtype=np.int64)
    have = 0
    lo = 0
    for i in range(1, n + 1):
        for t in range(ptr[i - 1], ptr[i]):
            s = idx[t]
            if cnt[s] == 0:
                have += 1
            cnt[s] += 1
        if have < k:
            continue
        while True:
            uniq = 0
            for t in range(ptr[lo], ptr[lo + 1]):
                if cnt[idx[t]] == 1:
                    uniq += 1
            if have - uniq >= k:
                for t in range(ptr[lo], ptr[lo + 1]):
                    s = idx[t]
                    cnt[s] -= 1
                    if cnt[s] == 0:
                        have -= 1
                lo += 1
            else:
                break
        out[i] = lo
    return out


@numba.njit(cache=True, nogil=True)
def minimax_dp(n, kind, squared, x, P, starts, nocut):  # pragma: no cover - compiled
    """One-layer minimax recursion: (g(n), back) with g(i) = min_{j <= starts[i]} max(g(j), cost(j, i)).

    ``kind`` 0: cost = i - j (U1); 1: centroid distortion of x[j..i-1] (prefix sums ``P``), squared when
    ``squared``. ``starts[i] = -1``: no admissible j. ``nocut[j]`` (j >= 1): no cut may be placed at j (a hull
    cut of problem (10)). The scan of j stops when a lower bound of cost(j, i) that grows as j falls
    (i - j; (x[i-1] - x[j]) / 2) reaches the best value found."""
    inf = np.inf
    g = np.full(n + 1, inf)
    back = np.full(n + 1, -1, dtype=np.int64)
    g[0] = 0.0
    for i in range(1, n + 1):
        best = inf
        arg = -1
        j = starts[i]
        while j >= 0:
            if kind == 0:
                low = float(i - j)
            else:
                h = (x[i - 1] - x[j]) / 2
                low = h * h if squared else h
            if low >= best:
                break
            if not (j > 0 and nocut[j]):
                prev = g[j]
                if prev < best:
                    if kind == 0:
                        c = float(i - j)
                    elif i - j == 1:
                        c = 0.0
                    else:
                        mu = (P[i] - P[j]) / (i - j)
                        d = x[i - 1] - mu
                        e = mu - x[j]
                        if e > d:
                            d = e
                        c = d * d if squared else d
                    v = prev if prev > c else c
                    if v < best:
                        best = v
                        arg = j
            j -= 1
        g[i] = best
        back[i] = arg
    return g[n], back
