"""The stochastic guarantee of a merge release, recomputed from the written table.

A watchdog or (eps, delta) release (Sadeghi, Ding & Rakotoarivelo, *On Properties and Optimization of
Information-theoretic Privacy Watchdog*, ITW 2020) replaces every public value by the released value of
its block. :func:`graphpriv.audit_release` reads the written table back beside its input and finds the
partition *through the released values* (the public values that share one released value form one
block), checking that every row with public value x carries its block's value and that every
sensitive cell is unchanged. The empirical distribution of the released table is then exactly the
input's counts n(s, x) summed over each block found: p(s, y) = sum_{x in y} n(s, x) / n.
:func:`merged_guarantee` computes the guarantee from it:

* per released symbol y, eps(y) = max_s |log p(s, y) / (p(s) p(y))| (eq. (4));
* eps_eff = max_y eps(y), the abs-log-lift of the release;
* Delta_total = sum over (s, y) with |i(s, y)| > eps of p(s, y) (eq. (11));
* NMIL of the merged blocks (eq. (9)) and I(S; Y).

:func:`check_watchdog` and :func:`check_eps_delta` compare those with what the mechanism promised.
"""

from __future__ import annotations

import math
from typing import Sequence

import numpy as np

from ..measures.stochastic import LOG_LIFT_ATOL

__all__ = ["merged_guarantee", "check_watchdog", "check_eps_delta"]

#: Relative tolerance between a figure of the file and the mechanism's (floating-point sums in another order).
GUARANTEE_RTOL = 1e-9


def merged_guarantee(counts, partition: Sequence[Sequence[int]], eps: float, *, base: float = math.e) -> dict:
    """The stochastic figures of a table whose public values are merged by ``partition``.

    Parameters
    ----------
    counts : scipy sparse (|S|, |X|)
        Rows per (s, x) of the input (the joint range's counts).
    partition : list of lists of public codes
        The blocks found in the written table (:attr:`graphpriv.AuditReport.partition`).
    eps : float
        The threshold, in the unit of ``base``.

    Returns
    -------
    dict
        ``{eps_y (per block, in partition order), eps_eff, delta_total, nmil, mutual_information, n_released}``.
    """
    import scipy.sparse as sp

    C = sp.csr_array(counts).astype(float)
    n_s, n_x = C.shape
    block = np.full(n_x, -1, dtype=np.int64)
    for k, b in enumerate(partition):
        block[np.asarray(list(b), dtype=np.int64)] = k
    K = len(partition)
    seen = block >= 0
    lnb = math.log(base)
    M = sp.csr_array((np.ones(int(seen.sum())), (np.flatnonzero(seen), block[seen])), shape=(n_x, K))
    Cy = (C @ M).tocoo()
    n = float(Cy.data.sum())
    p = Cy.data / n
    r, c = np.asarray(Cy.row), np.asarray(Cy.col)
    keep = p > 0
    p, r, c = p[keep], r[keep], c[keep]
    ps = np.bincount(r, weights=p, minlength=n_s)
    py = np.bincount(c, weights=p, minlength=K)
    i = np.log(p) - np.log(ps[r]) - np.log(py[c])
    ns_live = int((ps > 0).sum())
    full = np.bincount(c, minlength=K) == ns_live
    eps_y = np.zeros(K)
    np.maximum.at(eps_y, c, np.abs(i))
    eps_y[(py > 0) & ~full] = np.inf
    e = eps * lnb
    delta_total = float(p[np.abs(i) > e + LOG_LIFT_ATOL].sum())
    px = np.asarray(C.sum(axis=0)).ravel() / n
    live = px > 0
    hx = float(-(px[live] * np.log(px[live])).sum())
    loss = 0.0
    for k, b in enumerate(partition):
        if len(b) > 1:
            q = px[np.asarray(list(b), dtype=np.int64)]
            q = q[q > 0]
            pb = q.sum()
            if pb > 0:
                loss += max(pb * math.log(pb) - float((q * np.log(q)).sum()), 0.0)
    return {
        "eps_y": (eps_y / lnb).tolist(),
        "eps_eff": float(eps_y[py > 0].max()) / lnb if (py > 0).any() else 0.0,
        "delta_total": delta_total,
        "nmil": loss / hx if hx > 0 else math.nan,
        "mutual_information": max(float((p * i).sum()) / lnb, 0.0) + 0.0,
        "n_released": int((py > 0).sum()),
    }


def _close(a: float, b: float) -> bool:
    return a == b or abs(a - b) <= GUARANTEE_RTOL * max(1.0, abs(a), abs(b))


def _merged_block(partition, merged_codes) -> int | None:
    """The block of ``partition`` holding the mechanism's merged set (None when it is empty)."""
    if not len(merged_codes):
        return None
    first = int(merged_codes[0])
    for k, b in enumerate(partition):
        if first in b:
            return k
    return None


def check_watchdog(figures: dict, partition, merged_codes, eps: float, eps_c: float) -> list[str]:
    """Problems of a watchdog release (empty when it holds): every block published as it is has
    eps(y) <= eps, the merged block's eps(y) is the mechanism's eps^c (Theorem 1)."""
    problems = []
    k_m = _merged_block(partition, merged_codes)
    tol = GUARANTEE_RTOL * max(1.0, eps) + 1e-12
    for k, ey in enumerate(figures["eps_y"]):
        if k == k_m:
            if not _close(ey, eps_c):
                problems.append(f"the merged symbol has max |log-lift| {ey:.6g} in the released table, not the mechanism's "
                                f"eps^c = {eps_c:.6g}")
        elif ey > eps + tol:
            problems.append(f"a symbol published as it is has max |log-lift| {ey:.6g} > eps = {eps:g} in the released table")
            break
    return problems


def check_eps_delta(figures: dict, delta: float, eps_bar: float) -> list[str]:
    """Problems of an (eps, delta) release: Delta_total <= delta and eps_eff <= eps_bar (Algorithm 1)."""
    problems = []
    if figures["delta_total"] > delta + 1e-12:
        problems.append(f"the released table has Delta_total = {figures['delta_total']:.6g} > delta = {delta:g}")
    if figures["eps_eff"] > eps_bar + GUARANTEE_RTOL * max(1.0, eps_bar if math.isfinite(eps_bar) else 1.0):
        problems.append(f"the released table has eps_eff = {figures['eps_eff']:.6g} > eps_bar = {eps_bar:g}")
    return problems
