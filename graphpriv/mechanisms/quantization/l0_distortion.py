"""Certified L0 levels with the largest-distortion utility U2 (paper 003, problem (3) with U2).

Ding & Farokhi, *Developing Non-Stochastic Privacy-Preserving Policies Using Agglomerative Clustering*,
Sections IV-V: at an L0 level k every cluster of the quantisation covers at least k sensitive values, and U2
(Section V-A) is minus the largest cluster distortion d̄(C) = max_{x ∈ C} |x - mean(C)| (centroid codeword,
absolute distance). A level asks for the least D* such that the public values split into clusters that
each cover k sensitive values with d̄ <= D*.

End-cluster bound. Every quantisation has a cluster holding the largest public value t, so D* >= f(k),
the least distortion of a cluster that holds t and covers k sensitive values (likewise for the smallest
value). t is that cluster's largest member; once its smallest member a is fixed, d̄ <= D is two linear
rows, x_t - mean <= D and mean - x_a <= D, i.e. sum_e z_e (x_t - x_e - D) <= 0 and
sum_e z_e (x_e - x_a - D) <= 0 over the members z between a and t: a small covering integer programme
per candidate a (:func:`_end_cluster`), most of them refuted by a quick relaxation
(:func:`_cheap_infeasible`). Bisection on D gives f(k) (with a final strict test, exactly), and
f(k) is non-decreasing in k, so the results of one level narrow the next.

Completion. On a skewed attribute the extreme values decide the optimum: the outliers need wide clusters
to cover k sensitive values, the dense middle does not. At D = the larger end bound, the clusters of the
largest and the smallest value with the fewest members, and the least-distortion partition of the values
left into intervals of their order (:func:`_interval_partition`, a dynamic programme), give a partition;
when its distortion equals the bound the level is certified.

On the paper's own data (Section VII: S = age, X = cholesterol, 153 values, 37 ages) this certifies every
L0 level of the U2 frontier, e.g. D* = 2523/14 = 180.21 mg/dl at k = 19 (the best partition found by
the threshold models in 120 s had 218.67, with a proven bound of 144.0), the whole frontier in 38 s
(``benchmarks/bench_hungarian_optimum.py --pairs L0/U2``, 2 shared cores). Where the middle values decide
(random values), the bound and the partition are only a start for the threshold models of :mod:`.solver`.

Soundness. Costs are exact Fractions of the scaled integer values; every partition is re-evaluated with
``inst.cost_of`` before it replaces the incumbent. An end cluster's infeasibility comes from the quick
relaxation (exact rationals) or from HiGHS's branch and bound (:func:`scipy.optimize.milp`) on integer rows.
"""

from __future__ import annotations

import math
from fractions import Fraction

import numpy as np

from .solver_bounds import _Deadline

__all__: list[str] = []

#: bisection of the end-cluster bound stops when its interval is this share of the one-cluster distortion
_REL_TOL = 1e-3


def _fraction_between(lo: Fraction, hi: Fraction, n: int) -> Fraction | None:
    m = ((lo + hi) / 2).limit_denominator(4 * n)
    return m if lo < m < hi else None


def _end_cluster(inst, level: int, cost: Fraction, strict: bool, side: int, exclude: frozenset,
                 deadline: _Deadline, smallest: bool = False):
    """A cluster holding the extreme value of ``side`` (+1: the largest value not in ``exclude``, -1: the
    smallest) that covers ``level`` sensitive values with distortion <= ``cost`` (< when ``strict``).

    The extreme value t is the cluster's largest member (smallest for side -1); for each candidate other
    end a (|x_t - x_a| <= 2·cost, nearest first) the members lie between a and t and the mean constraints
    x_t - mean <= D, mean - x_a <= D are linear: sum_e z_e (q x_t - q x_e - p) <= 0 and
    sum_e z_e (q x_e - q x_a - p) <= 0 (sides mirrored; strict: <= -1), with the covering rows of the
    level: a small integer programme per a (:func:`_end_model`). Returns ("feasible", members),
    ("infeasible", None) — no cluster for any a, a proof — or ("unknown", None) at the deadline. With
    ``smallest`` the first feasible a's model minimises the number of members.

    An a found infeasible at (level, D) stays infeasible at higher levels and lower D; without ``exclude``
    these results are cached on ``inst`` and skip the model."""
    X = inst.X
    p, q = cost.numerator, cost.denominator
    rhs = -1 if strict else 0
    order = [e for e in (range(inst.n - 1, -1, -1) if side > 0 else range(inst.n)) if e not in exclude]
    if not order:
        return "infeasible", None
    t = order[0]
    cache = inst.__dict__.setdefault("_u2_end_infeasible", {}) if not exclude else {}
    for j, a in enumerate(order):
        if deadline.passed():
            return "unknown", None
        span = q * abs(X[t] - X[a])
        if span > 2 * p or (strict and span == 2 * p):
            break
        els = order[:j + 1]
        m = 0
        for e in els:
            m |= inst.smask[e]
        if m.bit_count() < level:
            continue
        known = cache.get((side, a), ())
        if any(lv <= level and (cost < d or (cost == d and (strict or not st_))) for lv, d, st_ in known):
            continue
        rows = [[side * q * (X[t] - X[e]) - p for e in els], [side * q * (X[e] - X[a]) - p for e in els]]
        if _cheap_infeasible(inst, level, els, rows, rhs):
            res, g = "infeasible", None
        else:
            res, g = _end_model(inst, level, els, rows, rhs, smallest, deadline)
        if res == "feasible":
            c = inst.cost_of([g])
            if c < cost or (not strict and c == cost):     # exact re-evaluation
                return "feasible", g
            return "unknown", None                        # pragma: no cover - off by the solver's tolerance
        if res == "unknown":
            return "unknown", None
        if not exclude:
            cache.setdefault((side, a), []).append((level, cost, strict))
    return "infeasible", None


#: weights λ of the combined distortion rows tried by :func:`_cheap_infeasible`
_LAMBDAS = tuple(i / 8 for i in range(9))


def _cheap_infeasible(inst, level: int, els: list, rows: list, rhs: int) -> bool:
    """A quick proof that no cluster of :func:`_end_model` exists (False: undecided).

    For a weight λ in [0, 1] the combined row λ·rows[0] + (1 - λ)·rows[1] must be <= rhs; its smallest value
    over the clusters covering ``level`` is at least: the forced first and last members, every member with
    a negative coefficient, and for the sensitive values still missing the fractional cheapest cover that
    counts the new sensitive values of each positive member as if they were disjoint (a relaxation of the
    covering: the true cover needs at least as much). Exact rationals: λ = i/8 scales the rows by 8."""
    m = len(els)
    base = 0
    for e in (els[0], els[-1]):
        base |= inst.smask[e]
    for lam in _LAMBDAS:
        w0, w1 = int(lam * 8), 8 - int(lam * 8)
        comb = [w0 * rows[0][i] + w1 * rows[1][i] for i in range(m)]
        tot = comb[0] + (comb[m - 1] if m > 1 else 0)
        cov = base
        for i in range(1, m - 1):
            if comb[i] <= 0:
                tot += comb[i]
                cov |= inst.smask[els[i]]
        need = level - cov.bit_count()
        if need > 0:
            items = []
            for i in range(1, m - 1):
                if comb[i] > 0:
                    new = (inst.smask[els[i]] & ~cov).bit_count()
                    if new:
                        items.append((Fraction(comb[i], new), new))
            items.sort()
            if sum(nw for _, nw in items) < need:
                return True
            for ratio, nw in items:
                take = min(nw, need)
                tot += ratio * take
                need -= take
                if need == 0:
                    break
        if tot > 8 * rhs:
            return True
    return False


def _end_model(inst, level: int, els: list, rows: list, rhs: int, smallest: bool, deadline: _Deadline):
    """The integer programme of one end cluster (members ``els``, the first and the last forced in, two
    distortion rows sum_e rows[r][e] z_e <= rhs, the level's covering rows), solved by HiGHS
    (:func:`scipy.optimize.milp`). Its linear relaxation prunes well: on paper 003's Hungarian data
    (153 values, 37 ages) the models of level 28 are proven infeasible in 0.6 s where CP-SAT had not
    decided one in 60 s."""
    from scipy.optimize import Bounds, LinearConstraint, milp
    from scipy.sparse import coo_matrix

    m = len(els)
    ages = sorted({s_ for e in els for s_ in inst.ssets[e]})
    col = {s_: m + i for i, s_ in enumerate(ages)}
    nv = m + len(ages)
    ri, ci, vals, lo, hi = [], [], [], [], []
    for r, row in enumerate(rows):
        g = 0
        for c in row:
            g = math.gcd(g, abs(c))
        g = max(g, 1)
        for i, c in enumerate(row):
            if c:
                ri.append(r), ci.append(i), vals.append(c / g)
        lo.append(-np.inf), hi.append(math.floor(rhs / g))
    r = len(rows)
    for s_ in ages:                                  # y_s <= sum of the members holding s
        ri.append(r), ci.append(col[s_]), vals.append(1.0)
        for i, e in enumerate(els):
            if s_ in inst.ssets[e]:
                ri.append(r), ci.append(i), vals.append(-1.0)
        lo.append(-np.inf), hi.append(0.0)
        r += 1
    for s_ in ages:                                  # sum_s y_s >= level
        ri.append(r), ci.append(col[s_]), vals.append(1.0)
    lo.append(level), hi.append(np.inf)
    r += 1
    A = coo_matrix((vals, (ri, ci)), shape=(r, nv)).tocsr()
    lb = np.zeros(nv)
    lb[0] = lb[m - 1] = 1.0
    c = np.zeros(nv)
    if smallest:
        c[:m] = 1.0
    left = deadline.left()
    opts = {"disp": False}
    if left is not None:
        if left <= 0:
            return "unknown", None
        opts["time_limit"] = float(left)
    res = milp(c, constraints=LinearConstraint(A, np.array(lo, float), np.array(hi, float)),
               integrality=np.ones(nv), bounds=Bounds(lb, np.ones(nv)), options=opts)
    if res.x is not None and res.status in (0, 1):
        return "feasible", sorted(e for i, e in enumerate(els) if res.x[i] > 0.5)
    if res.status == 2:
        return "infeasible", None
    return "unknown", None


def _interval_partition(inst, level: int, elements: list, deadline: _Deadline | None = None):
    """Least largest distortion of a partition of ``elements`` (model elements, sorted by value) into
    intervals of their order that each cover ``level`` sensitive values: (cost, groups) or None.
    Dynamic programme over the O(m^2) intervals, exact Fractions; None too when ``deadline`` passes."""
    X = inst.X
    m = len(elements)
    if m == 0:
        return Fraction(0), []
    best: list = [None] * (m + 1)
    prev = [0] * (m + 1)
    best[0] = Fraction(0)
    pre = [0]
    for e in elements:
        pre.append(pre[-1] + X[e])
    for i in range(m):
        if deadline is not None and deadline.passed():
            return None
        if best[i] is None:
            continue
        mask = 0
        for j in range(i, m):
            mask |= inst.smask[elements[j]]
            if mask.bit_count() < level:
                continue
            cnt = j - i + 1
            tot = pre[j + 1] - pre[i]
            d = Fraction(max(cnt * X[elements[j]] - tot, tot - cnt * X[elements[i]]), cnt)
            c = max(best[i], d)
            if best[j + 1] is None or c < best[j + 1]:
                best[j + 1], prev[j + 1] = c, i
    if best[m] is None:
        return None
    groups, j = [], m
    while j > 0:
        i = prev[j]
        groups.append(elements[i:j])
        j = i
    return best[m], groups[::-1]


def _absorb(inst, level: int, groups: list, left: list, deadline: _Deadline | None = None) -> list | None:
    """Put each value of ``left`` into the cluster whose distortion grows least; None when ``groups`` is
    empty or when ``deadline`` passes. The coverage of a cluster only grows."""
    gs = [list(g) for g in groups]
    if not gs:
        return None
    for e in left:
        if deadline is not None and deadline.passed():
            return None
        j = min(range(len(gs)), key=lambda i: inst.cost_of([gs[i] + [e]]))
        gs[j].append(e)
    return [sorted(g) for g in gs]


def _end_bound(inst, level: int, side: int, hint, deadline: _Deadline, log: list):
    """Bisection for f(k) = least distortion of a cluster holding the extreme value of ``side`` and covering k
    sensitive values, a lower bound on every quantisation's largest distortion at level k.

    f is non-decreasing in k, so the results of other levels (cached on ``inst``) narrow the search.
    Returns (lo, lo_strict, cost, cluster): f >= lo (> when lo_strict), and ``cluster`` has distortion
    ``cost`` >= f; ``hint`` is a cluster holding the extreme value that covers k (its cost bounds f)."""
    cache = inst.__dict__.setdefault("_u2_end_cache", {})
    n = inst.n
    lo, lo_strict = Fraction(0), False
    hi, best = inst.cost_of([hint]), hint
    for (sd, lv), (l_, ls_, h_, g_) in cache.items():
        if sd != side:
            continue
        if lv <= level and (l_ > lo or (l_ == lo and ls_ and not lo_strict)):
            lo, lo_strict = l_, ls_
        if lv >= level and h_ < hi:
            hi, best = h_, g_
    span = inst.__dict__.get("_u2_span")
    if span is None:
        span = inst.__dict__["_u2_span"] = inst.cost_of([list(range(n))])
    tol = _REL_TOL * span
    while hi > lo and not deadline.passed():
        mid = _fraction_between(lo, hi, n) if hi - lo > tol else None
        # bisection while the interval is wide, then "is anything strictly better than the cluster found?"
        cost, strict = (mid, False) if mid is not None else (hi, True)
        res, g = _end_cluster(inst, level, cost, strict, side, frozenset(), deadline)
        log.append((str(cost), strict, f"end cluster {side:+d}: {res}"))
        if res == "infeasible":
            lo, lo_strict = cost, not strict
            if strict:
                break
        elif res == "feasible":
            hi, best = inst.cost_of([g]), g
        else:
            break
    cache[side, level] = (lo, lo_strict, hi, best)
    return lo, lo_strict, hi, best


def _u2_level(inst, level: int, lo: Fraction, lo_strict: bool, inc_cost: Fraction, inc: list,
              deadline: _Deadline, solver: str, log: list | None = None):
    """Raise the proven bound and improve the incumbent of one L0 level with U2 (see the module notes).

    Parameters
    ----------
    inst : _Inst
        The solver's integer instance (values scaled to integers, sorted).
    level : int
        The L0 level k: every cluster covers at least k sensitive values.
    lo, lo_strict : Fraction, bool
        Proven bound: D* >= lo (D* > lo when ``lo_strict``), in scaled units.
    inc_cost, inc : Fraction, list
        The incumbent partition (lists of model elements) and its exact largest distortion.
    deadline : _Deadline
        The level's time budget.
    solver : str
        The level's back end (``"cp-sat"`` or ``"highs"``); the end-cluster models always run on HiGHS
        (:func:`_end_model`), whose linear relaxation decides them fastest.
    log : list, optional
        Receives (distortion, strict, "model: status") per test.

    Returns
    -------
    lo, lo_strict, inc_cost, inc
        The raised bound and the improved incumbent (re-evaluated exactly with ``inst.cost_of``).

    Notes
    -----
    Ding & Farokhi, *Developing Non-Stochastic Privacy-Preserving Policies Using Agglomerative Clustering*,
    problem (3) with U2 (Section V-A). The clusters holding the largest and the smallest value bound D*
    from below (:func:`_end_bound`); the partition is those two clusters at the larger of their
    distortions, with the fewest members, and the least-distortion interval partition of the rest.
    """
    log = [] if log is None else log
    n = inst.n

    def raise_bound(d, strict):
        nonlocal lo, lo_strict
        if d > lo or (d == lo and strict and not lo_strict):
            lo, lo_strict = d, strict

    def offer(groups):
        nonlocal inc_cost, inc
        if groups is None:
            return
        if sorted(e for g in groups for e in g) != list(range(n)) or inst.k_of(groups) < level:
            return  # pragma: no cover - the constructions below keep every value and the coverage
        c = inst.cost_of(groups)
        if c < inc_cost:
            inc_cost, inc = c, [sorted(g) for g in groups]

    if deadline.passed() or inc_cost == 0 or (not lo_strict and lo >= inc_cost):
        return lo, lo_strict, inc_cost, inc
    # the bounds stop a little before the level's deadline: the completion below needs no model
    bounds_deadline = _Deadline(None)
    if deadline.end is not None:
        bounds_deadline.end = deadline.end - min(0.5, 0.2 * max(deadline.left(), 0.0))
    ends = {}
    hints = {side: next(g for g in inc if t in g) for side, t in ((1, n - 1), (-1, 0))}
    # the side whose incumbent cluster is wider first; the other side only matters above its distortion
    sides = sorted(hints, key=lambda sd: inst.cost_of([hints[sd]]), reverse=True)
    for side in sides:
        if ends and not bounds_deadline.passed():
            res, g = _end_cluster(inst, level, max(h for h, _ in ends.values()), False, side, frozenset(),
                                  bounds_deadline)
            log.append((str(max(h for h, _ in ends.values())), False, f"end cluster {side:+d}: {res}"))
            if res == "feasible":
                ends[side] = (inst.cost_of([g]), g)
                continue
        l_, ls_, h_, g_ = _end_bound(inst, level, side, hints[side], bounds_deadline, log)
        raise_bound(l_, ls_)
        ends[side] = (h_, g_)
    whole = _interval_partition(inst, level, list(range(n)), deadline)
    if whole is not None:
        offer(whole[1])
    D = max(ends[1][0], ends[-1][0])
    if D < inc_cost:
        # the end clusters with the fewest members at D (the clusters at hand once out of time), the rest in
        # intervals: the models stop at ``bounds_deadline``, the interval programme has the time left
        top, bot = ends[1][1], ends[-1][1]
        if not bounds_deadline.passed():
            res, g = _end_cluster(inst, level, D, False, 1, frozenset(), bounds_deadline, smallest=True)
            top = g if res == "feasible" else top
        res, g = "unknown", None
        if not bounds_deadline.passed():
            res, g = _end_cluster(inst, level, D, False, -1, frozenset(top), bounds_deadline, smallest=True)
        bot = g if res == "feasible" else (None if set(bot) & set(top) else bot)
        fixed = [top] + ([bot] if bot is not None else [])
        used = {e for g in fixed for e in g}
        rest = [e for e in range(n) if e not in used]
        part = _interval_partition(inst, level, rest, deadline)
        if part is not None:
            offer(fixed + part[1])
        else:
            offer(_absorb(inst, level, fixed, rest, deadline))
    log.append((str(inc_cost), False, "end clusters and intervals: feasible"))
    return lo, lo_strict, inc_cost, inc
