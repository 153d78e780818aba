"""L0 levels with U2 where at most two clusters can cover the level: decided by their four ends.

Ding & Farokhi, *Developing Non-Stochastic Privacy-Preserving Policies Using Agglomerative Clustering*,
problem (3) with U2 (Section V-A): at an L0 level k every cluster covers k sensitive values and U2 is minus
the largest distortion d̄(C) = max_{x ∈ C} |x - mean(C)|. When at most two clusters can each cover k
(:func:`.solver_bounds._max_clusters`), a quantisation is one cluster or a split {A, B} of the values. Call
A the cluster of the smallest value. Either B holds the largest value, or A holds both ends and B lies
between them. Once the remaining ends are fixed (A's largest value a and B's smallest value b; or B's two
ends b <= b'), every value outside [b, a] (resp. [b, b']) has its cluster, and d̄ <= D is four *linear* rows
on the membership z (mean(A) >= max(A) - D, mean(A) <= min(A) + D, the same for B), with no big-M:

    sum_e z_e (x_e - max(A) + D) >= 0,   sum_e z_e (min(A) + D - x_e) >= 0.

Each pair of ends is one small covering programme whose linear relaxation rules most pairs out at once;
the threshold "a split with distortion <= D (< D)" is infeasible when every pair is. On sparse random
ranges (|X| = 60, |S| = 40, p = 0.03) the relaxations rule out all 2,116 pairs of a level in about 2 s
where the two-slot model of :mod:`.solver` had not decided it in 200 s.

Before any pair, two disjoint sets covering k at all (whatever their distortion) must exist: the core
relaxation and the two-slot core model of :mod:`.l0_cores` settle that in a fraction of a second, and at
the highest levels (every age in both clusters) they rule every split out at once.

Soundness. Values are the solver's scaled integers and D = p/q a fraction: the rows are multiplied by q
and are integer (strict thresholds: >= 1). A pair is ruled out by HiGHS (:func:`scipy.optimize.milp`),
its linear relaxation first and the integer programme when the relaxation is feasible; every split
found is re-evaluated exactly by the caller.
"""

from __future__ import annotations

from fractions import Fraction

import numpy as np

from .integer_model import _solve
from .l0_cores import _core_model, _types, core_packing_bound
from .solver_bounds import _Deadline

__all__: list[str] = []


class _Split:
    """The covering rows shared by every pair of ends: z (n), yA (|S|), yB (|S|)."""

    def __init__(self, inst, level: int):
        n = inst.n
        ages = sorted({s for ss in inst.ssets for s in ss})
        pos = {s: i for i, s in enumerate(ages)}
        ns = len(ages)
        cover = np.zeros((ns, n))
        for e, ss in enumerate(inst.ssets):
            for s in ss:
                cover[pos[s], e] = 1.0
        self.n, self.ns = n, ns
        self.X = np.array(inst.X, dtype=float)
        nv = n + 2 * ns
        rows = [np.hstack([-cover, np.eye(ns), np.zeros((ns, ns))]),          # yA_s <= sum_{e ∋ s} z_e
                np.hstack([cover, np.zeros((ns, ns)), np.eye(ns)]),           # yB_s <= sum_{e ∋ s} (1 - z_e)
                np.concatenate([np.zeros(n), np.ones(ns), np.zeros(ns)])[None],
                np.concatenate([np.zeros(n + ns), np.ones(ns)])[None]]
        self.cover_rows = np.vstack(rows)
        self.cover_lo = np.concatenate([np.full(ns, -np.inf), np.full(ns, -np.inf), [level, level]])
        self.cover_hi = np.concatenate([np.zeros(ns), cover.sum(axis=1), [np.inf, np.inf]])
        self.nv = nv

    def solve(self, lb: np.ndarray, ub: np.ndarray, extra: list, integral: bool, deadline: _Deadline):
        """Feasibility of the covering rows plus ``extra`` rows (coefficients on z, lower bound) with z in
        [lb, ub]: (status, z) with status "feasible", "infeasible" or "unknown"."""
        from scipy.optimize import Bounds, LinearConstraint, milp

        n = self.n
        A = np.vstack([self.cover_rows] + [np.concatenate([c, np.zeros(2 * self.ns)])[None] for c, _ in extra])
        lo = np.concatenate([self.cover_lo, [b for _, b in extra]])
        hi = np.concatenate([self.cover_hi, np.full(len(extra), np.inf)])
        bl = np.concatenate([lb, np.zeros(2 * self.ns)])
        bu = np.concatenate([ub, np.ones(2 * self.ns)])
        opts = deadline.milp_options()
        integrality = np.concatenate([np.ones(n), np.zeros(2 * self.ns)]) if integral else np.zeros(self.nv)
        r = milp(np.zeros(self.nv), constraints=LinearConstraint(A, lo, hi), integrality=integrality,
                 bounds=Bounds(bl, bu), options=opts)
        if r.status == 2:
            return "infeasible", None
        if r.x is None:
            return "unknown", None
        return "feasible", np.round(r.x[:n]).astype(int)


def _mean_rows(X: np.ndarray, q: int, p: int, strict: bool, low: float, high: float, member_sign: int):
    """Rows for mean >= high - D and mean <= low + D of a cluster, as (coefficients on z, lower bound).

    ``member_sign`` +1: the cluster is {z = 1}; -1: it is {z = 0} (coefficients c·(1 - z) = c - c·z)."""
    rhs = 1 if strict else 0
    out = []
    for coef in (q * (X - high) + p, q * (low - X) + p):      # q·(x - high + D) and q·(low + D - x)
        if member_sign > 0:
            out.append((coef, rhs))
        else:
            out.append((-coef, rhs - coef.sum()))
    return out


def two_cluster_split(inst, level: int, cost: Fraction, strict: bool, deadline: _Deadline):
    """A split {A, B} of the values with both clusters covering ``level`` sensitive values and distortion
    <= ``cost`` (< when ``strict``), in the solver's scaled units: ("feasible", [A, B]), ("infeasible", None)
    or ("unknown", None) when a programme ran out of time."""
    if not _two_cores(inst, level, deadline):
        return "infeasible", None
    sp = inst.__dict__.setdefault("_two_cluster_rows", {})
    if level not in sp:
        sp[level] = _Split(inst, level)
    rows = sp[level]
    X = rows.X
    n = inst.n
    if n < 2:
        return "infeasible", None
    p, q = cost.numerator, cost.denominator
    lo_x, hi_x = X[0], X[-1]
    # a cluster spans at most 2D; widened, since a pair too many is decided by its programme and a pair
    # pruned by rounding would make the answer unsound
    reach = 2 * float(cost) * (1 + 1e-12) + 1e-9
    vals = np.unique(X)
    unknown = False

    def decide(lb, ub, extra):
        nonlocal unknown
        if (lb > ub).any():
            return None
        st, _ = rows.solve(lb, ub, extra, False, deadline)
        if st != "feasible":
            unknown |= st == "unknown"
            return None
        st, z = rows.solve(lb, ub, extra, True, deadline)
        unknown |= st == "unknown"
        return z if st == "feasible" else None

    # B holds the largest value: A's largest value a, B's smallest value b
    for a in vals[vals <= lo_x + reach]:
        for b in vals[vals >= hi_x - reach]:
            lb, ub = np.zeros(n), np.ones(n)
            ub[X > a] = 0
            lb[X < b] = 1
            lb[0], ub[n - 1] = 1, 0
            extra = _mean_rows(X, q, p, strict, lo_x, a, +1) + _mean_rows(X, q, p, strict, b, hi_x, -1)
            extra += [((X == a).astype(float), 1), (-(X == b).astype(float), 1 - float((X == b).sum()))]
            z = decide(lb, ub, extra)
            if z is not None:
                return "feasible", _groups(z)
    # A holds both ends, B lies between: B's ends b <= b2
    if hi_x - lo_x <= reach:
        for i, b in enumerate(vals):              # another value equal to an end may lie in B
            for b2 in vals[i:]:
                if b2 - b > reach:
                    break
                lb, ub = np.zeros(n), np.ones(n)
                lb[(X < b) | (X > b2)] = 1
                lb[0], lb[n - 1] = 1, 1
                extra = _mean_rows(X, q, p, strict, lo_x, hi_x, +1) + _mean_rows(X, q, p, strict, b, b2, -1)
                extra += [(-(X == b).astype(float), 1 - float((X == b).sum())),
                          (-(X == b2).astype(float), 1 - float((X == b2).sum()))]
                z = decide(lb, ub, extra)
                if z is not None:
                    return "feasible", _groups(z)
    return ("unknown", None) if unknown else ("infeasible", None)


def _two_cores(inst, level: int, deadline: _Deadline) -> bool:
    """Whether two disjoint sets of values can each cover ``level`` sensitive values at all (whatever their
    distortion): the core relaxation, then the two-slot core model of :mod:`.l0_cores`; cached per level.
    When they cannot, no split exists and the pairs of ends need not be tried."""
    cache = inst.__dict__.setdefault("_two_cores_cache", {})
    if level not in cache:
        ty = _types(inst)
        if core_packing_bound(ty, level, inst.n, 2, deadline):
            cache[level] = False
        else:
            md, _ = _core_model(ty, level, inst.n, 2)
            status, _, _ = _solve(md, "highs", None, None, deadline)
            if status == "unknown":
                return True
            cache[level] = status != "infeasible"
    return cache[level]


def _groups(z) -> list:
    a = [e for e, v in enumerate(z.tolist()) if v]
    b = [e for e, v in enumerate(z.tolist()) if not v]
    return [g for g in (a, b) if g]
