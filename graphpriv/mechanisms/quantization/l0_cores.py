"""Problems (3) and (10) with U1 at one L0 level: the smallest largest cluster, through disjoint *cores*.

Ding & Farokhi, *Developing Non-Stochastic Privacy-Preserving Policies Using Agglomerative Clustering*,
problem (3) with the utility U1 of eq. (6): at the L0 level k every cluster 𝒳 of the quantisation covers
at least k sensitive values (|S|𝒳| >= k), and U1 = log(|X| / K) is set by the largest cluster size K.

Reformulation. Call a *core* a set of at most K public values whose sensitive sets cover k values. A
quantisation with clusters of at most K values, each covering k, exists iff there are
c = ceil(|X| / K) disjoint cores: its clusters are disjoint cores and there are at least |X| / K of them;
conversely the values outside c disjoint cores fill the c·K - (core sizes) >= |X| - (core sizes) free
places, and a cluster that grows keeps its coverage. Utility U1 ignores which value is which, so only
the *types* (distinct sensitive sets, with their multiplicities m_t) matter, and a core that cannot lose a
member never holds two values of one type. Hence

* **a proof** that K is too small: the linear relaxation of "the most disjoint cores" (a cutting-stock
  master problem over core patterns, solved by column generation; the pricing problem is a small integer
  program: the cheapest set of at most K types covering k sensitive values under the duals) is below c.
  Each round gives Farley's bound (Σ_t m_t π_t) / min_p π·a_p on the relaxation for any duals π >= 0, so
  the proof needs no converged LP and holds for floating-point duals (the pricing optimum is taken as its
  proven lower bound);
* **a solution** at K: c core slots, one binary per (type, slot) (|types| · c variables, whatever |X|),
  given a few seconds; when it has not answered and the minimal core patterns are few (at most K types, each
  adding a sensitive value no other member has), the exact integer program "the most disjoint patterns"
  over all of them decides K either way.

Problem (10) (L0 with I*(S; X̂) = 0, Section V-C) only adds a constraint, so every bound above holds for it;
a core solution is completed by placing the values outside the cores where they join components of G_X
(:func:`_join_components`) and kept when G_X̂ is connected (random ranges with |X| = 40, |S| = 30 and 6-9
components: whole frontiers in 7-8 s, where the threshold models alone took 55 s and over 4 minutes).

Measured on the Hungarian data of the paper (154 values, 97 types, 38 ages;
``benchmarks/bench_hungarian_optimum.py``, 2 cores shared with another job): every L0 level certified in
79 s, where the representative model left 6 of 38 levels open after 300 s (proven gap 8.0 % of the U1 range).
The relaxation alone settles most levels (at k = 19 it rules out K = 10: at most 15.4 cores of 10 values,
16 needed); the core model finds the solutions at K in under a second once the slots are not ordered
(ordering them by size, a symmetry cut, took 17-54 s); k = 5 needs the pattern program (31,700 patterns,
52 disjoint cores of 3 values, 5 s) where the core model found nothing in 60 s.
"""

from __future__ import annotations

import math

import numpy as np

from .integer_model import _Model, _solve
from .solver_bounds import _NO_DEADLINE, _Deadline, _OutOfTime

__all__: list[str] = []

#: the core-packing bound claims "too small" only when Farley's bound is below the need by this margin
_LP_MARGIN = 1e-6
#: at most this many column-generation rounds per cluster size
_MAX_ROUNDS = 2000
#: the exact pattern program is used when there are at most this many minimal core patterns
_MAX_PATTERNS = 200_000
#: seconds the core model gets before the pattern program is tried
_CORE_MODEL_FIRST = 10.0


class _Types:
    """The distinct sensitive sets of the model elements (bitmasks), their elements and multiplicities."""

    def __init__(self, smask: list):
        groups: dict = {}
        for e, m in enumerate(smask):
            groups.setdefault(m, []).append(e)
        self.masks = list(groups)
        self.members = [groups[m] for m in self.masks]
        self.mult = np.array([len(v) for v in self.members], dtype=float)
        ages = sorted({b for m in self.masks for b in _bits(m)})
        pos = {b: i for i, b in enumerate(ages)}
        self.n_ages = len(ages)
        self.cover = np.zeros((self.n_ages, len(self.masks)))      # cover[s, t] = 1 when type t holds s
        for t, m in enumerate(self.masks):
            for b in _bits(m):
                self.cover[pos[b], t] = 1.0


def _bits(m: int) -> list:
    out, i = [], 0
    while m:
        if m & 1:
            out.append(i)
        m >>= 1
        i += 1
    return out


def _types(inst) -> _Types:
    cached = inst.__dict__.get("_core_types")
    if cached is None:
        cached = inst.__dict__["_core_types"] = _Types(inst.smask)
    return cached


def _price(ty: _Types, pi: np.ndarray, level: int, K: int, deadline: _Deadline):
    """The cheapest core pattern under duals ``pi``: (type indicator vector, proven lower bound on its cost),
    or (None, inf) when no set of at most K types covers ``level`` sensitive values."""
    from scipy.optimize import Bounds, LinearConstraint, milp

    nt, ns = len(ty.masks), ty.n_ages
    c = np.concatenate([pi, np.zeros(ns)])
    cons = [LinearConstraint(np.hstack([-ty.cover, np.eye(ns)]), -np.inf, 0.0),       # y_s <= sum_{t ∋ s} u_t
            LinearConstraint(np.concatenate([np.zeros(nt), np.ones(ns)])[None], level, np.inf),
            LinearConstraint(np.concatenate([np.ones(nt), np.zeros(ns)])[None], 0.0, K)]
    opts = {**deadline.milp_options(), "mip_rel_gap": 0.0}
    r = milp(c, constraints=cons, integrality=np.ones(nt + ns), bounds=Bounds(0, 1), options=opts)
    if r.status == 2:
        return None, math.inf
    if r.x is None:
        raise _OutOfTime
    bound = getattr(r, "mip_dual_bound", None)
    lb = float(r.fun) if r.status == 0 and (bound is None or not np.isfinite(bound)) else float(bound)
    return np.round(r.x[:nt]), min(lb, float(r.fun))


def _greedy_cores(ty: _Types, level: int, K: int) -> list:
    """Disjoint core patterns picked greedily (most new sensitive values first): starting columns."""
    left = ty.mult.copy()
    out = []
    while True:
        col = np.zeros(len(ty.masks))
        covered = 0
        for _ in range(K):
            gain = [(_popcount(m & ~covered) if left[t] > col[t] else -1, -t) for t, m in enumerate(ty.masks)]
            g, t = max(gain)
            if g <= 0:
                break
            col[-t] += 1
            covered |= ty.masks[-t]
            if _popcount(covered) >= level:
                break
        if _popcount(covered) < level:
            return out
        out.append(col)
        left -= col


def _popcount(m: int) -> int:
    return m.bit_count()


def core_packing_bound(ty: _Types, level: int, K: int, need: int, deadline: _Deadline = _NO_DEADLINE) -> bool:
    """True when K is proven too small (fewer than ``need`` disjoint cores of at most K values covering
    ``level``); False when the relaxation reaches ``need`` (nothing proven). Column generation on the
    master "max number of core patterns, each type used at most m_t times"."""
    from scipy.optimize import linprog

    cols = _greedy_cores(ty, level, K)
    if len(cols) >= need:
        return False
    for _ in range(_MAX_ROUNDS):
        deadline.check()
        if cols:
            P = np.array(cols).T
            r = linprog(-np.ones(P.shape[1]), A_ub=P, b_ub=ty.mult, bounds=(0, None), method="highs")
            if r.status != 0:          # pragma: no cover - the master is bounded and feasible (0 is a solution)
                return False
            rmp = -float(r.fun)
            pi = np.maximum(-np.asarray(r.ineqlin.marginals, dtype=float), 0.0)
        else:
            rmp, pi = 0.0, np.zeros(len(ty.masks))
        col, rho = _price(ty, pi, level, K, deadline)
        if col is None:                # no core at all with at most K values
            return need > 0
        if cols and rho > 0:
            farley = float(ty.mult @ pi) / rho
            if farley < need - _LP_MARGIN:
                return True
        if rho >= 1.0 - 1e-9:          # converged: the relaxation's optimum is rmp
            return False
        if rmp >= need:
            return False
        cols.append(col)
    return False                       # pragma: no cover - column generation converges long before


def _minimal_patterns(ty: _Types, level: int, K: int, cap: int):
    """Every minimal core pattern (types in increasing order, at most K, covering ``level``, none removable),
    or None when the search would visit more than ``cap`` candidates."""
    masks = ty.masks
    nt = len(masks)
    out: list = []
    visited = 0

    def minimal(comb) -> bool:
        r = len(comb)
        pre = [0] * (r + 1)
        for i, t in enumerate(comb):
            pre[i + 1] = pre[i] | masks[t]
        suf = 0
        for i in range(r - 1, -1, -1):
            if (pre[i] | suf).bit_count() >= level:
                return False
            suf |= masks[comb[i]]
        return True

    stack = [((), 0, 0)]
    while stack:
        comb, union, start = stack.pop()
        for t in range(start, nt):
            u = union | masks[t]
            if u == union:
                continue
            visited += 1
            if visited > cap:
                return None
            c = comb + (t,)
            if u.bit_count() >= level:
                if minimal(c):
                    out.append(c)
            elif len(c) < K:
                stack.append((c, u, t + 1))
    return out


def pattern_program(ty: _Types, patterns: list, need: int, deadline: _Deadline):
    """The exact "most disjoint cores" integer program over every minimal pattern: ("feasible", counts per
    pattern), ("infeasible", None) when its proven bound is below ``need``, or ("unknown", None)."""
    from scipy.optimize import Bounds, LinearConstraint, milp
    from scipy.sparse import coo_matrix

    if not patterns:
        return ("infeasible", None) if need > 0 else ("feasible", np.zeros(0, dtype=int))
    rows = [t for p in patterns for t in p]
    cols = [i for i, p in enumerate(patterns) for _ in p]
    A = coo_matrix((np.ones(len(rows)), (rows, cols)), shape=(len(ty.masks), len(patterns))).tocsr()
    opts = deadline.milp_options()
    r = milp(-np.ones(len(patterns)), constraints=[LinearConstraint(A, 0, ty.mult)],
             integrality=np.ones(len(patterns)), bounds=Bounds(0, np.inf), options=opts)
    if r.x is not None and -r.fun >= need - 0.5:
        return "feasible", np.round(r.x).astype(int)
    bound = getattr(r, "mip_dual_bound", None)
    if r.status == 0 or (bound is not None and np.isfinite(bound)):
        best = -float(r.fun) if r.status == 0 and (bound is None or not np.isfinite(bound)) else -float(bound)
        if best < need - _LP_MARGIN:
            return "infeasible", None
    return "unknown", None


def _patterns_to_cores(ty: _Types, patterns: list, counts) -> list:
    """The cores of a pattern solution: one value of each of its types per copy of a pattern."""
    pools = [list(m) for m in ty.members]
    return [[pools[t].pop() for t in p] for p, k in zip(patterns, counts.tolist()) for _ in range(k)]


def _fill(cores: list, K: int, n: int) -> list:
    """The values outside the cores, into the cores' free places (c·K >= |X| leaves room for all)."""
    used = {e for g in cores for e in g}
    rest = [e for e in range(n) if e not in used]
    groups = [list(g) for g in cores]
    for g in groups:
        while len(g) < K and rest:
            g.append(rest.pop())
    if rest:                           # pragma: no cover - c·K >= n
        raise RuntimeError("the cores leave values with no free place")
    return [sorted(g) for g in groups if g]


def _core_model(ty: _Types, level: int, K: int, c: int):
    """c core slots over the types: x[t, j] = 1 when slot j holds a value of type t."""
    md = _Model()
    nt = len(ty.masks)
    x = {(t, j): md.var() for t in range(nt) for j in range(c)}
    for t in range(nt):
        md.add({x[t, j]: 1 for j in range(c)}, hi=int(ty.mult[t]))
    for j in range(c):
        md.add({x[t, j]: 1 for t in range(nt)}, hi=K)
        ys = {}
        for s in range(ty.n_ages):
            holders = np.flatnonzero(ty.cover[s]).tolist()
            y = md.var()
            md.add({y: 1, **{x[t, j]: -1 for t in holders}}, hi=0)
            ys[y] = 1
        md.add(ys, lo=level)
    return md, x


def _slots_to_cores(ty: _Types, x: dict, sol, c: int) -> list:
    """The cores of a core-model solution: one value per chosen type in each slot."""
    pools = [list(m) for m in ty.members]
    return [[pools[t].pop() for t in range(len(ty.masks)) if sol[x[t, j]]] for j in range(c)]


def _join_components(inst, groups: list, K: int) -> list:
    """Values outside the cores placed to join the components of G_X (problem (10)): each goes, when it can,
    to a cluster with a free place whose components are not yet joined to its own (greedy, union-find); the
    rest into any free place. Returns the partition (it may still leave several components)."""
    comp = inst.comp
    parent = list(range(inst.n_comp0))

    def find(a):
        while parent[a] != a:
            parent[a] = parent[parent[a]]
            a = parent[a]
        return a

    groups = [list(g) for g in groups]
    in_core = set()
    for g in groups:
        in_core.update(g)
        for e in g[1:]:
            parent[find(comp[e])] = find(comp[g[0]])
    rest = [e for e in range(inst.n) if e not in in_core]
    moved = True
    while rest and moved:
        moved = False
        for e in list(rest):
            r = find(comp[e])
            for g in groups:
                if len(g) < K and find(comp[g[0]]) != r:
                    g.append(e)
                    parent[r] = find(comp[g[0]])
                    rest.remove(e)
                    moved = True
                    break
    for g in groups:
        while len(g) < K and rest:
            g.append(rest.pop())
    if rest:                           # pragma: no cover - c·K >= n
        raise RuntimeError("the cores leave values with no free place")
    return [sorted(g) for g in groups if g]


def _u1_level(inst, level: int, lo: int, inc_cost: int, inc, solver: str, deadline: _Deadline,
              connected: bool = False):
    """Raise the proven bound ``lo`` on the largest cluster size at L0 level ``level`` and improve the
    incumbent: (lo, inc_cost, inc). Stops early (keeping what it proved) when ``deadline`` passes.

    ``connected``: problem (10), where G_X̂ must also be connected. Every bound of problem (3) holds for it
    (it only adds a constraint); a core solution is completed by :func:`_join_components` and kept only when
    it leaves one component."""
    n = inst.n
    ty = _types(inst)
    try:
        # the smallest K the core-packing relaxation does not rule out (monotone in K: bisection)
        a, b = lo, inc_cost - 1
        while a <= b:
            mid = (a + b) // 2
            if core_packing_bound(ty, level, mid, -(-n // mid), deadline):
                lo = a = mid + 1
            else:
                b = mid - 1
        K = lo
        while K < inc_cost:
            c = -(-n // K)
            # c core slots, briefly; then the exact program over every minimal pattern when they are few
            md, x = _core_model(ty, level, K, c)
            left = deadline.left()
            status, sol, _ = _solve(md, solver, _CORE_MODEL_FIRST if left is None else min(left, _CORE_MODEL_FIRST),
                                    None, deadline)
            cores = _slots_to_cores(ty, x, sol, c) if status == "optimal" else None
            if status == "unknown":
                patterns = _minimal_patterns(ty, level, K, _MAX_PATTERNS)
                if patterns is not None:
                    status, counts = pattern_program(ty, patterns, c, deadline)
                    cores = _patterns_to_cores(ty, patterns, counts) if status == "feasible" else None
            if status == "infeasible":
                lo = K = K + 1
                continue
            if cores is not None:
                g = _join_components(inst, cores, K) if connected else _fill(cores, K, n)
                if connected and inst.ncomp_of(g) != 1:
                    break              # no proof either way: the threshold models take over
                cost = inst.cost_of(g)
                if inst.k_of(g) >= level and cost < inc_cost:
                    inc_cost, inc = cost, g
            break
    except _OutOfTime:
        pass
    return lo, inc_cost, inc
