"""Certified exact frontiers past the Bell wall: threshold integer models (paper 003, problems (3), (5), (10)).

Ding & Farokhi, *Developing Non-Stochastic Privacy-Preserving Policies Using Agglomerative Clustering*,
Sections IV-V: the privacy of a quantisation Q is L0(S → X̂) (problem (3)), I*(S; X̂) (problem (5)) or L0
under I*(S; X̂) = 0 (problem (10)); its utility is U1 (eq. (6), set by the largest cluster's size) or U2
(Section V-A, set by the largest cluster distortion d̄). Each is a *bottleneck*:

* L0 = log(|S| / k) with k = min over clusters of |S|𝒳| (k-anonymity of [[S|X̂]]): "L0 <= level" is
  "every cluster covers at least k sensitive values";
* I* = log #components of G_X̂: "I* <= log c" is "the clusters join the components of G_X into at most
  c groups";
* U1 = log(|X| / max |𝒳|): "U1 >= level" is "every cluster has at most K members";
* U2 = -max d̄(𝒳): "U2 >= -D" is "every cluster has distortion at most D".

So the frontier is read off a short sequence of *threshold feasibility problems*: for each privacy level
(k = |S|, ..., min_x |S|x| for L0; c = 1, ..., #components of G_X for I*), the largest utility, found
by testing "is there a Q with privacy <= level and utility > the incumbent's" (strict descent from the
greedy and beam results) and bisection on the cluster size K or distortion D. Every answer is a
proof: *infeasible* proves the incumbent optimal at that level (or raises the proven bound), *feasible*
gives a better partition, *unknown* (time limit) leaves the level "feasible" with its proven bound.

Integer model (one threshold problem). Representative formulation (symmetry breaking): a[i, j] = 1,
j <= i, when public value i lies in the cluster whose smallest member is j; sum_j a[i, j] = 1,
a[i, j] <= a[j, j]. Then

* U1: sum_i a[i, j] <= K for every j;
* U2 (scalar values, centroid codewords, ``"abs"`` or ``"squared"`` distance): for a cluster C with
  k members, sum Σ and a member x_i, |x_i - Σ/k| <= D iff sum_l a[l, j] (x_i - x_l - D) <= 0 and
  sum_l a[l, j] (x_l - x_i - D) <= 0, a linear constraint enforced when a[i, j] = 1 (no centroid
  variable needed; the cluster need not be an interval). Values are scaled to integers (exactly when
  they have at most 6 decimals) and D is a fraction p / q, so that the constraint
  sum_l a[l, j] (q (x_i - x_l) - p) <= 0 (strict: <= -1) is exact integer arithmetic. Pairs with
  |x_i - x_l| > 2D cannot share a cluster (max - min <= 2 d̄) and are excluded up front;
* L0: y[j, s] <= sum over i with s ∈ [[S|i]] of a[i, j], sum_s y[j, s] >= k a[j, j];
* I* (at most c groups): a single-commodity flow on the bipartite graph clusters - components of G_X
  (edge e[j, g] when cluster j holds a member of component g), at most c roots supply it, and every
  component consumes one unit: feasible iff every component is joined to a root.

Cluster slots (L0 levels where few clusters fit). At level k at most C = :func:`_max_clusters` clusters
can each cover k sensitive values; when C <= 24 (U1) or 3 (U2) the level is modelled with b[i, c] = 1
when value i lies in slot c (|X| · C binaries instead of |X|^2 / 2), slots ordered by their smallest
member (:func:`_build_bins`). At the high privacy levels (C of 1-24) this proves the levels the
representative formulation could not in minutes.

Disjoint cores (problems (3) and (10) with U1, :mod:`.l0_cores`). The largest cluster size at an L0 level
is found first through "ceil(|X| / K) disjoint cores of at most K values covering k": a column-generation
bound and a model over the distinct sensitive sets (for problem (10) the values outside the cores are placed
to join the components of G_X), before the representative model gets the time left.

End clusters (problem (3) with U2, :mod:`.l0_distortion`). The clusters of the largest and the smallest
value bound the distortion at an L0 level (one small covering programme per candidate other end), and the
two end clusters plus the best interval partition of the rest often meet that bound; the threshold models
then start from it. Where at most two clusters fit (problems (3) and (10), :mod:`.l0_two_clusters`), a split
is decided pair of ends by pair of ends, four linear mean rows each and no big-M.

Joining bound (I* levels, problem (10)): fewer components of G_X̂ than of G_X need clusters that join
components: two members (U1) or a span of at least the Kruskal bottleneck between components (U2), see
:func:`_joining_cost_bound`.

Time limits. ``time_limit`` covers the whole call: every model-building loop, the lower bounds and the
hand-over to the solver check one deadline (:class:`_Deadline`), and a level reached after it keeps its
best known partition with a proven bound.

Solver choice. Both OR-Tools CP-SAT (``pip install 'graphpriv[exact]'``) and HiGHS
(:func:`scipy.optimize.milp`, big-M form of the enforced constraints) run the same models
(``solver="cp-sat"`` or ``"highs"``); CP-SAT is the default when installed, HiGHS the fallback. Measured
with ``benchmarks/bench_exact.py --compare-solvers`` (whole frontiers of random ranges, |S| = 8, each
public value with one or two sensitive values, the six problem x utility pairs, identical frontiers from
both; CPU seconds summed over 3 seeds, a shared 2-core machine at load average 15-21):

=====  ===========  ==========  =========  ===============
|X|    problem      U           CP-SAT     HiGHS (ratio)
=====  ===========  ==========  =========  ===============
14     L0           U1          0.25       0.78 (3.1)
14     L0           U2          0.97       0.81 (0.8)
14     L0|I*=0      U1          0.36       1.01 (2.8)
14     L0|I*=0      U2          1.51       1.21 (0.8)
16     L0           U1          0.30       1.50 (5.0)
16     L0           U2          1.31       0.93 (0.7)
16     L0|I*=0      U1          0.49       2.47 (5.0)
16     L0|I*=0      U2          2.15       1.31 (0.6)
=====  ===========  ==========  =========  ===============

(I* is trivial on these ranges, G_X being connected; on sparser ranges both take hundredths of a second.)
The U1 models (minimise the largest cluster size under the covering constraints, a bin-packing-like
problem) are where CP-SAT wins by 3-4x: its clause learning and the objective's lower-bound search
prove the tight sizes that HiGHS's branch and bound, on the weak LP relaxation of the representative
formulation, has to enumerate, and the gap grows with |X| (3x at 14, 5x at 16). The U2 threshold
problems are many small feasibility checks (20-60 per frontier) where HiGHS is 1.2-1.7x faster, mostly
CP-SAT's per-model set-up; in absolute terms U1 decides (HiGHS's U1 time at 16 exceeds CP-SAT's U2 time).
CP-SAT also reports the best proven objective bound of a stopped run directly, which the time-limited
frontier needs. Hence CP-SAT by default, HiGHS (always installed with scipy) when OR-Tools is absent.

Measured with ``benchmarks/bench_exact.py`` (CP-SAT, 2 shared cores at load average 7-12): the whole
certified frontier of random ranges with |S| = 8 and one or two sensitive values per public value takes
at most 0.4 s (U1) and 2.0 s (U2) of wall time at |X| = 20 (3 seeds x 6 problem x utility pairs, every
one certified and dominating the greedy frontier), at most 0.7 s and 2.9 s at |X| = 30 (2 seeds); I* on
sparser ranges (|S| = 30, 8-11 components of G_X, |X| = 20) at most 1.2 s. With the slot model, the
joining bound and the interval starting solutions (``--n-large 40`` / ``60``, load average 8-11, wall
seconds with about a quarter of them CPU): every pair certified at |X| = 40 (3 seeds, |S| = 8) in at most
33 s, and with |S| = 30 in at most 113 s (problem (10) with U2); at |X| = 60 (one seed) in at most 38 s.

Bounds without a solver (:func:`_cost_lower_bound`, also :func:`graphpriv.frontier_bounds`): at L0 level
k, c clusters cover at least c·k (cluster, s) pairs and a sensitive value in occ(s) public values lies in
at most min(c, occ(s)) clusters, so c·k <= sum_s min(c, occ(s)) bounds the number of clusters and
K >= n / c; the smallest cluster around each x that covers k values (breadth-first over subsets of S)
bounds K too, and is added to the model per representative.
"""

from __future__ import annotations

import math
import time
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any

import numpy as np

from ...errors import GraphprivError, InputError
from .problem import _Problem, n_components_after
from .solver_bounds import (_COVER_MAX_S, _NO_DEADLINE, _Deadline, _OutOfTime, _cost_lower_bound,  # noqa: F401
                            _joining_cost_bound, _l0_cost_lower_bound, _max_clusters, _min_cover_sizes, _s_universe)
from ..utilities import _BoundU2
from .integer_model import _Model, _solve, _solve_cpsat, _solve_highs  # noqa: F401
from .l0_cores import _u1_level
from .l0_distortion import _u2_level
from .l0_two_clusters import two_cluster_split

__all__ = ["SOLVERS"]

#: integer-programming back ends of ``method="solver"``
SOLVERS = ("cp-sat", "highs")


class MissingSolverError(GraphprivError, ImportError):
    """The requested solver back end is not installed."""


def _have_ortools() -> bool:
    try:
        import ortools.sat.python.cp_model  # noqa: F401
    except ImportError:
        return False
    return True


def _check_solver_name(solver: Any) -> None:
    """A clear error for a solver name that is not known (whatever the method that would use it)."""
    if solver is None or (isinstance(solver, str) and solver in ("auto",) + SOLVERS):
        return
    raise InputError(f"solver={solver!r} is not known; use 'cp-sat' (OR-Tools), 'highs' (scipy) or 'auto'")


def _check_solver(solver: Any) -> str:
    _check_solver_name(solver)
    if solver is None or solver == "auto":
        return "cp-sat" if _have_ortools() else "highs"
    if solver not in SOLVERS:
        raise InputError(f"solver={solver!r} is not known; use 'cp-sat' (OR-Tools), 'highs' (scipy) or 'auto'")
    if solver == "cp-sat" and not _have_ortools():
        raise MissingSolverError("solver='cp-sat' needs OR-Tools: pip install 'graphpriv[exact]' (or use solver='highs')")
    return solver


# ====================================================================== the instance
class _Inst:
    """Integer data of one problem: S-sets, components, scaled values, in the model's element order."""

    def __init__(self, prob: _Problem):
        self.prob = prob
        n = prob.n
        self.n = n
        self.kind = "U2" if isinstance(prob.ub, _BoundU2) else "U1"
        self.values_exact = True
        if self.kind == "U2":
            ub = prob.ub
            if not ub.fast:
                raise InputError("method='solver' with U2 needs scalar values, codeword='centroid' and distance 'abs' or "
                                 "'squared'; use method='enumerate' (|X| <= 12) for other codewords or distances")
            X, self.values_exact = _integer_values(ub.V)
            order = np.argsort(X, kind="stable")
            span_x = int(X.max() - X.min())
            V = np.asarray(ub.V, dtype=float)
            self.unit = float(V.max() - V.min()) / span_x if span_x > 0 else 1.0
        else:
            X = np.zeros(n, dtype=np.int64)
            order = np.arange(n)
        self.order = order                  # model element e is public code order[e]
        self.X = [int(v) for v in X[order]]
        ssets = [prob.s_idx[prob.s_ptr[c]:prob.s_ptr[c + 1]].tolist() for c in order.tolist()]
        self.ssets = ssets
        self.smask = [sum(1 << s for s in ss) for ss in ssets]
        comp = prob.comp0[order].astype(np.int64)
        self.comp = comp.tolist()
        self.n_comp0 = prob.n_comp0
        allmask = 0
        for m in self.smask:
            allmask |= m
        self.k_max = allmask.bit_count()
        self.k_min = min(m.bit_count() for m in self.smask)

    # exact evaluation of a partition given as lists of model elements ---------------------------
    def k_of(self, groups) -> int:
        out = None
        for g in groups:
            m = 0
            for e in g:
                m |= self.smask[e]
            c = m.bit_count()
            out = c if out is None else min(out, c)
        return out

    def ncomp_of(self, groups) -> int:
        return n_components_after(self.comp, self.n_comp0, groups)

    def cost_of(self, groups):
        """Utility cost: the largest cluster size (U1) or the largest distortion as a Fraction of scaled units (U2)."""
        if self.kind == "U1":
            return max(len(g) for g in groups)
        best = Fraction(0)
        for g in groups:
            k = len(g)
            if k == 1:
                continue
            xs = [self.X[e] for e in g]
            tot = sum(xs)
            p = max(max(k * x - tot, tot - k * x) for x in xs)
            best = max(best, Fraction(p, k))
        return best

    def groups_from_codes(self, groups_codes) -> list:
        """Public-code clusters -> model-element clusters."""
        pos = np.empty(self.n, dtype=np.int64)
        pos[self.order] = np.arange(self.n)
        return [sorted(pos[np.asarray(g, dtype=np.int64)].tolist()) for g in groups_codes]

    def codes_from_groups(self, groups) -> list:
        return [np.sort(self.order[np.asarray(g, dtype=np.int64)]) for g in groups]


def _integer_values(V: np.ndarray) -> tuple[np.ndarray, bool]:
    """Scalar values as non-negative integers: x·10^d - min for the fewest decimals d <= 6 that represent
    them exactly (exact), else a grid of 2^30 steps over their range (rounded)."""
    V = np.asarray(V, dtype=float)
    lo = float(V.min())
    for d in range(7):
        W = (V - lo) * 10.0 ** d
        R = np.round(W)
        if np.all(np.abs(W - R) <= 1e-9 * np.maximum(1.0, np.abs(W))) and R.max() < 2.0 ** 40:
            # check against the unshifted values too (lo itself may carry more decimals)
            Vs = V * 10.0 ** d
            if np.all(np.abs(Vs - np.round(Vs)) <= 1e-9 * np.maximum(1.0, np.abs(Vs))):
                return R.astype(np.int64), True
    span = float(V.max()) - lo
    scale = 2.0 ** 30 / span if span > 0 else 1.0
    return np.round((V - lo) * scale).astype(np.int64), False


# ====================================================================== threshold models
def _build(inst: _Inst, objective: str, level: int, cost, strict: bool, hint_groups=None, k_range=None,
           deadline: _Deadline = _NO_DEADLINE):
    """Model of "privacy within ``level`` and utility cost <= ``cost`` (< when ``strict``)"; returns (model, a, hint).

    With ``k_range=(lo, hi)`` (U1 only) the largest cluster size K is a variable in [lo, hi] and is minimised.
    Raises :class:`_OutOfTime` once ``deadline`` has passed (checked every row of the model)."""
    n = inst.n
    deadline.check()
    slots = _BIN_MAX_CLUSTERS if inst.kind == "U1" else _BIN_MAX_CLUSTERS_U2
    if objective == "L0" and level > inst.k_min and _max_clusters(inst, level) <= slots:
        return _build_bins(inst, level, cost, strict, hint_groups, k_range, deadline)
    md = _Model()
    allowed = [[True] * (i + 1) for i in range(n)]
    conflict = None
    if inst.kind == "U2":
        p, q = cost.numerator, cost.denominator
        X = inst.X

        def conflict(i, l):  # cannot share a cluster: |x_i - x_l| > 2D (>= 2D when strict)
            d = q * abs(X[i] - X[l])
            return d >= 2 * p if strict else d > 2 * p
        for i in range(n):
            deadline.check()
            for j in range(i):
                if conflict(i, j):
                    allowed[i][j] = False
    if objective in ("L0", "L0|I*=0"):
        # a representative must be able to reach k sensitive values with the members it may take
        for j in range(n):
            deadline.check()
            m = 0
            for i in range(j, n):
                if allowed[i][j]:
                    m |= inst.smask[i]
            if m.bit_count() < level:
                allowed[j][j] = False
                for i in range(j + 1, n):
                    allowed[i][j] = False
    a = {}
    for i in range(n):
        for j in range(i + 1):
            if allowed[i][j] and allowed[j][j]:
                a[i, j] = md.var()
    for i in range(n):
        row = {a[i, j]: 1 for j in range(i + 1) if (i, j) in a}
        if not row:
            return None, a, None          # no admissible cluster for i: infeasible by presolve
        md.add(row, 1, 1)
        for j in range(i):
            if (i, j) in a:
                md.add({a[i, j]: 1, a[j, j]: -1}, hi=0)
    members = {j: [i for i in range(j, n) if (i, j) in a] for j in range(n) if (j, j) in a}
    if objective in ("L0", "L0|I*=0") and level > inst.k_min:
        md.add({a[j, j]: 1 for j in members}, hi=_max_clusters(inst, level))
    if objective in ("L0", "L0|I*=0") and inst.kind == "U1" and level > inst.k_min and len(_s_universe(inst)) <= _COVER_MAX_S:
        # a cluster whose smallest member is j needs at least need[j] members to cover ``level`` values
        need = _min_cover_sizes(inst, level, suffix=True)
        for j, mem in members.items():
            if need[j] > 1:
                md.add({**{a[i, j]: 1 for i in mem}, a[j, j]: 1 - need[j]}, lo=0)
    # utility
    if inst.kind == "U1" and k_range is not None:
        K = md.var(*k_range)
        md.objective = {K: 1}
        for j, mem in members.items():
            if len(mem) > k_range[0]:
                md.add({**{a[i, j]: 1 for i in mem}, K: -1}, hi=0)
    elif inst.kind == "U1":
        K = cost - 1 if strict else cost
        for j, mem in members.items():
            if len(mem) > K:
                md.add({a[i, j]: 1 for i in mem}, hi=K)
    else:
        rhs = -1 if strict else 0
        for j, mem in members.items():
            deadline.check()
            for i in mem:
                if i == j and len(mem) == 1:
                    continue
                up = {a[l, j]: q * (X[i] - X[l]) - p for l in mem}
                dn = {a[l, j]: q * (X[l] - X[i]) - p for l in mem}
                md.add(up, hi=rhs, enforce=a[i, j])
                md.add(dn, hi=rhs, enforce=a[i, j])
            for x in range(len(mem)):
                for y in range(x + 1, len(mem)):
                    i, l = mem[x], mem[y]
                    if i != j and conflict(i, l):
                        md.add({a[i, j]: 1, a[l, j]: 1}, hi=1)
    # privacy
    if objective in ("L0", "L0|I*=0") and level > inst.k_min:
        for j, mem in members.items():
            deadline.check()
            ys = {}
            for s in sorted({s for i in mem for s in inst.ssets[i]}):
                y = md.var()
                md.add({y: 1, **{a[i, j]: -1 for i in mem if s in inst.ssets[i]}}, hi=0)
                ys[y] = 1
            md.add({**ys, a[j, j]: -level}, lo=0)
    c = 1 if objective == "L0|I*=0" else (level if objective == "I*" else None)
    if c is not None and c < inst.n_comp0:
        _add_flow(md, inst, a, members, c, deadline)
    hint = None
    if hint_groups is not None:
        hint = {}
        for g in hint_groups:
            j = min(g)
            for i in g:
                if (i, j) in a:
                    hint[a[i, j]] = 1
        for key, var in a.items():
            hint.setdefault(var, 0)
    return md, a, hint


#: L0 levels at which at most this many clusters can cover the level are solved with one variable per
#: (value, cluster) pair instead of per (value, representative) pair
_BIN_MAX_CLUSTERS = 24
#: the same for U2, whose distortion constraints per slot make wider slot models slower than the
#: representative ones (measured: 3-4x at |X| = 60 with 5-15 slots; far faster with 1-3 on the Hungarian data)
_BIN_MAX_CLUSTERS_U2 = 3


def _build_bins(inst: _Inst, level: int, cost, strict: bool, hint_groups, k_range, deadline: _Deadline):
    """The threshold model of an L0 level with few clusters: b[i, c] = 1 when value i lies in cluster c.

    At most C = :func:`_max_clusters` clusters can each cover ``level`` sensitive values, so C cluster slots
    suffice; symmetry is broken by ordering the clusters by their smallest member (value i may enter slot
    c only if an earlier value lies in slot c - 1, and only if c <= i). |X| · C binaries instead of the
    representative formulation's |X|^2 / 2: at the high privacy levels (every cluster covers nearly all of
    S) the model is small and its infeasibility proofs are quick. Same threshold semantics as
    :func:`_build`; the keys of the returned variable map are (value, slot)."""
    n = inst.n
    C = _max_clusters(inst, level)
    md = _Model()
    conflict = None
    if inst.kind == "U2":
        p, q = cost.numerator, cost.denominator
        X = inst.X

        def conflict(i, l):
            d = q * abs(X[i] - X[l])
            return d >= 2 * p if strict else d > 2 * p
    b = {}
    for i in range(n):
        for c in range(min(C, i + 1)):
            b[i, c] = md.var()
    used = [md.var() for _ in range(C)]
    for i in range(n):
        deadline.check()
        md.add({b[i, c]: 1 for c in range(min(C, i + 1))}, 1, 1)
        for c in range(min(C, i + 1)):
            md.add({b[i, c]: 1, used[c]: -1}, hi=0)
            if c > 0:   # an earlier value in the previous slot
                md.add({b[i, c]: 1, **{b[j, c - 1]: -1 for j in range(i) if (j, c - 1) in b}}, hi=0)
    for c in range(1, C):
        md.add({used[c]: 1, used[c - 1]: -1}, hi=0)
    members = {c: [i for i in range(n) if (i, c) in b] for c in range(C)}
    # covering: a used slot covers ``level`` sensitive values
    for c, mem in members.items():
        deadline.check()
        ys = {}
        for s_ in sorted({s_ for i in mem for s_ in inst.ssets[i]}):
            y = md.var()
            md.add({y: 1, **{b[i, c]: -1 for i in mem if s_ in inst.ssets[i]}}, hi=0)
            ys[y] = 1
        md.add({**ys, used[c]: -level}, lo=0)
    if inst.kind == "U1" and k_range is not None:
        K = md.var(*k_range)
        md.objective = {K: 1}
        for c, mem in members.items():
            md.add({**{b[i, c]: 1 for i in mem}, K: -1}, hi=0)
    elif inst.kind == "U1":
        K = cost - 1 if strict else cost
        for c, mem in members.items():
            if len(mem) > K:
                md.add({b[i, c]: 1 for i in mem}, hi=K)
    else:
        rhs = -1 if strict else 0
        for c, mem in members.items():
            for i in mem:
                deadline.check()
                up = {b[l, c]: q * (X[i] - X[l]) - p for l in mem}
                dn = {b[l, c]: q * (X[l] - X[i]) - p for l in mem}
                md.add(up, hi=rhs, enforce=b[i, c])
                md.add(dn, hi=rhs, enforce=b[i, c])
            for x_ in range(len(mem)):
                for y_ in range(x_ + 1, len(mem)):
                    if conflict(mem[x_], mem[y_]):
                        md.add({b[mem[x_], c]: 1, b[mem[y_], c]: 1}, hi=1)
    hint = None
    if hint_groups is not None and len(hint_groups) <= C:
        hint = {var: 0 for var in b.values()}
        for c, g in enumerate(sorted(hint_groups, key=min)):
            for i in g:
                if (i, c) in b:
                    hint[b[i, c]] = 1
            hint[used[c]] = 1
        for c in range(len(hint_groups), C):
            hint[used[c]] = 0
    return md, b, hint


def _add_flow(md: _Model, inst: _Inst, a: dict, members: dict, c: int, deadline: _Deadline = _NO_DEADLINE) -> None:
    """At most ``c`` groups of components of G_X: a flow from at most c roots reaches every component."""
    C = inst.n_comp0
    comp = inst.comp
    inflow = {g: {} for g in range(C)}     # flow into component g: +1 coefficients
    outflow = {g: {} for g in range(C)}
    for j, mem in members.items():
        deadline.check()
        gs = sorted({comp[i] for i in mem})
        if len(gs) < 2:
            continue                         # a cluster inside one component joins nothing
        bal = {}
        for g in gs:
            e = md.var()
            inside = [a[i, j] for i in mem if comp[i] == g]
            for v in inside:
                md.add({e: 1, v: -1}, lo=0)
            md.add({e: 1, **{v: -1 for v in inside}}, hi=0)
            f_to = md.var(0, C)              # cluster j -> component g
            f_from = md.var(0, C)            # component g -> cluster j
            md.add({f_to: 1, e: -C}, hi=0)
            md.add({f_from: 1, e: -C}, hi=0)
            inflow[g][f_to] = 1
            outflow[g][f_from] = 1
            bal[f_from] = 1
            bal[f_to] = -1
        md.add(bal, 0, 0)
    roots = []
    for g in range(C):
        r = md.var()
        sup = md.var(0, C)
        md.add({sup: 1, r: -C}, hi=0)
        coefs = {**inflow[g], sup: 1}
        for k, v in outflow[g].items():
            coefs[k] = coefs.get(k, 0) - v
        md.add(coefs, 1, 1)
        roots.append(r)
    md.add({r: 1 for r in roots}, hi=c)


def _groups_from_solution(inst: _Inst, a: dict, sol) -> list:
    rep: dict[int, list] = {}
    for (i, j), var in a.items():
        if sol[var]:
            rep.setdefault(j, []).append(i)
    return [sorted(g) for _, g in sorted(rep.items())]


# ====================================================================== level sweep
@dataclass
class LevelResult:
    """Best utility proven at one privacy level (privacy <= the level's value)."""

    level: int                  # k (L0 levels) or c (I* levels)
    privacy: float              # the level's privacy value
    groups: list                # best partition found (public codes)
    utility: float
    bound: float                # proven upper bound on the utility at this level
    status: str                 # "optimal" or "feasible"
    tests: int = 0
    seconds: float = 0.0
    log: list = field(default_factory=list)


def _levels(inst: _Inst, objective: str) -> list[int]:
    """Privacy levels, best privacy first: k = k_max..k_min (L0), c = 1..#components (I*)."""
    if objective == "I*":
        return list(range(1, inst.n_comp0 + 1))
    return list(range(inst.k_max, inst.k_min - 1, -1))


def _level_privacy(inst: _Inst, objective: str, level: int) -> float:
    prob = inst.prob
    return prob.istar(level) if objective == "I*" else prob.l0(level)


def _satisfies(inst: _Inst, objective: str, level: int, groups) -> bool:
    if objective == "I*":
        return inst.ncomp_of(groups) <= level
    if inst.k_of(groups) < level:
        return False
    return objective == "L0" or inst.ncomp_of(groups) == 1


def _utility_of_cost(inst: _Inst, cost) -> float:
    """Utility of a cost bound (U1: cluster size K; U2: distortion D in scaled units)."""
    prob = inst.prob
    if inst.kind == "U1":
        return prob.ub.value_from_max_size(int(cost))
    # scaled units back to values: inverse of _integer_values' affine map (ratio of ranges)
    D = float(cost) * inst.unit
    return -(D * D if prob.ub.squared else D)


def solve_levels(prob: _Problem, hints: list, *, solver: str = "cp-sat", time_limit: float | None = None,
                 levels: list | None = None, deadline: _Deadline | None = None,
                 progress=None) -> tuple[list[LevelResult], dict]:
    """Largest utility at each privacy level, with proofs. ``hints``: partitions (lists of public-code arrays).

    Levels are solved best privacy first, each with a fair share of the time left; a second pass gives the
    time the easy levels did not use to the levels still open. ``deadline`` (or ``time_limit`` seconds from
    now) covers everything, model building and the lower bounds included: a level reached after it keeps
    its best known partition and a proven bound (the cheap bound of :func:`_cost_lower_bound` when there
    was time for it, else the trivial one). ``progress(record)`` is called after every level with a dict
    (level, privacy, utility of the incumbent, proven bound, status, levels done and in all, seconds)."""
    t_start = time.perf_counter()
    if deadline is None:
        deadline = _Deadline(time_limit, t_start)
    inst = _Inst(prob)
    objective = prob.objective
    known = []
    for h in hints:
        g = inst.groups_from_codes(h)
        known.append((inst.cost_of(g), g))
    known.append((inst.cost_of([list(range(inst.n))]), [list(range(inst.n))]))
    levels = _levels(inst, objective) if levels is None else list(levels)
    trivial = 1 if inst.kind == "U1" else Fraction(0)
    state = {level: {"lo": None, "lo_strict": False, "status": None, "tests": 0,
                     "seconds": 0.0, "log": [], "inc": None} for level in levels}
    done = 0
    for sweep in range(2):
        todo = [lv for lv in levels if state[lv]["status"] != "optimal"]
        for n_left, level in zip(range(len(todo), 0, -1), todo):
            if sweep == 1 and deadline.passed():
                break
            st = state[level]
            t0 = time.perf_counter()
            cands = [(c, g) for c, g in known if _satisfies(inst, objective, level, g)]
            incumbent = min(cands, key=lambda cg: cg[0])
            if st["lo"] is None:
                try:
                    st["lo"] = _cost_lower_bound(inst, objective, level, deadline)
                except _OutOfTime:
                    st["lo"] = trivial
            st["status"] = None
            left = deadline.left()
            level_deadline = _Deadline(None if left is None else max(left, 0.0) / n_left)
            if deadline.end is not None:
                level_deadline.end = min(level_deadline.end, deadline.end)
            inc_cost, inc = _solve_level(inst, objective, level, incumbent, st, solver, level_deadline)
            st["seconds"] += time.perf_counter() - t0
            st["inc"] = (inc_cost, inc)
            known.append((inc_cost, inc))     # feasible for every looser level too
            if sweep == 0:
                done += 1
            if progress is not None:
                progress({"level": level, "privacy": _level_privacy(inst, objective, level),
                          "utility": _utility_of_cost(inst, inc_cost), "bound": _utility_of_cost(inst, st["lo"])
                          if st["status"] != "optimal" else _utility_of_cost(inst, inc_cost),
                          "status": st["status"], "done": done, "levels": len(levels), "sweep": sweep,
                          "seconds": time.perf_counter() - t_start})
        if deadline.end is None:
            break
    results = []
    for level in levels:
        st = state[level]
        if st["inc"] is None:      # pragma: no cover - every level is visited in the first sweep
            raise RuntimeError("a privacy level was never visited")
        inc_cost, inc = st["inc"]
        groups = inst.codes_from_groups(inc)
        util = prob.ub.partition_value(groups)
        status = st["status"] or "feasible"
        bound = util if status == "optimal" else _utility_of_cost(inst, st["lo"])
        results.append(LevelResult(level, _level_privacy(inst, objective, level), groups, util, max(bound, util),
                                   status, st["tests"], st["seconds"], st["log"]))
    info = {"solver": solver, "seconds": time.perf_counter() - t_start, "values_exact": inst.values_exact,
            "tests": sum(r.tests for r in results), "timed_out": deadline.passed()}
    return results, info


def _solve_level(inst: _Inst, objective: str, level: int, incumbent, st: dict, solver: str, level_deadline):
    """Raise the proven bound and improve the incumbent of one level until optimal or out of time.

    ``st`` holds the level's proven bound ``lo`` (cost* >= lo; for U2 cost* > lo once ``lo_strict``),
    its status, test count and log; returns the incumbent (cost, groups)."""
    inc_cost, inc = incumbent
    log = st["log"]

    def remaining():
        return level_deadline.left()

    def test(cost, strict):
        st["tests"] += 1
        try:
            md, a, hint = _build(inst, objective, level, cost, strict, inc, deadline=level_deadline)
            if md is None:
                log.append((str(cost), strict, "infeasible"))
                return "infeasible", None
            status, sol, _ = _solve(md, solver, remaining(), hint, level_deadline)
        except _OutOfTime:
            log.append((str(cost), strict, "unknown (time limit while building the model)"))
            return "unknown", None
        log.append((str(cost), strict, status))
        if status == "optimal":
            return "feasible", _groups_from_solution(inst, a, sol)
        return status, None

    lo = st["lo"]
    if inst.kind == "U1":
        if objective in ("L0", "L0|I*=0") and level > inst.k_min and lo < inc_cost:
            # disjoint cores: a column-generation bound and a model over the sensitive-set types (l0_cores)
            st["tests"] += 1
            lo, inc_cost, inc = _u1_level(inst, level, lo, inc_cost, inc, solver, level_deadline,
                                          connected=objective == "L0|I*=0")
            log.append((f"cores: K in [{lo}, {inc_cost}]", False, "optimal" if lo >= inc_cost else "open"))
        if lo < inc_cost:
            # one model minimising the largest cluster size K, its proven bound when stopped
            st["tests"] += 1
            try:
                md, a, hint = _build(inst, objective, level, None, False, inc, k_range=(lo, inc_cost),
                                     deadline=level_deadline)
                status, sol, bnd = ("infeasible", None, None) if md is None else _solve(md, solver, remaining(), hint,
                                                                                         level_deadline)
            except _OutOfTime:
                status, sol, bnd = "unknown", None, None
            log.append((f"min K in [{lo}, {inc_cost}]", False, status))
            if sol is not None:
                g = _groups_from_solution(inst, a, sol)
                if inst.cost_of(g) < inc_cost:
                    inc_cost, inc = inst.cost_of(g), g
            if status == "optimal":
                lo = inc_cost
            elif status == "feasible" and bnd is not None:
                lo = max(lo, int(math.ceil(bnd - 1e-9)))
            elif status == "infeasible":
                raise RuntimeError("the solver found the incumbent's threshold problem infeasible")  # pragma: no cover
        st["lo"] = lo
        st["status"] = "optimal" if lo >= inc_cost else "feasible"
        return inc_cost, inc
    lo_strict = st["lo_strict"]
    if objective == "L0":
        # the clusters of the extreme values bound D*, and complete to a partition (see l0_distortion)
        lo, lo_strict, inc_cost, inc = _u2_level(inst, level, lo, lo_strict, inc_cost, inc, level_deadline, solver,
                                                 log)
    if objective in ("L0", "L0|I*=0") and level > inst.k_min and _max_clusters(inst, level) <= 2:
        # one cluster or a split: decided pair of ends by pair of ends (see l0_two_clusters); for problem (10)
        # no split at all proves the level, a split found counts only when it leaves G_X̂ connected
        # (bisection between the bound and the incumbent, then a strict test at the incumbent)
        first = True
        while inc_cost > 0 and (lo_strict or lo < inc_cost):
            mid = None if first else ((lo + inc_cost) / 2).limit_denominator(4 * inst.n)
            mid = mid if mid is not None and lo < mid < inc_cost else None
            first = False
            cost, strict = (inc_cost, True) if mid is None else (mid, False)
            try:
                res, g = two_cluster_split(inst, level, cost, strict, level_deadline)
            except _OutOfTime:
                break
            log.append((str(cost), strict, f"two clusters by their ends: {res}"))
            if res == "infeasible":          # no split that cheap, and one cluster costs at least the incumbent
                lo, lo_strict = (inc_cost, False) if mid is None else (mid, True)
            elif res == "feasible" and _satisfies(inst, objective, level, g) and inst.cost_of(g) < inc_cost:
                inc_cost, inc = inst.cost_of(g), g
            else:
                break
    status = None
    first = True
    while status is None:
        if inc_cost == 0 or (not lo_strict and lo >= inc_cost):
            status = "optimal"
            break
        # bisection point between the proven bound and the incumbent, else a strict test at the incumbent
        mid = None
        if not first:
            m = ((lo + inc_cost) / 2).limit_denominator(4 * inst.n)
            if lo < m < inc_cost:
                mid = m
        first = False
        if mid is None:
            res, g = test(inc_cost, True)
            if res == "infeasible":
                status = "optimal"
            elif res == "feasible":
                new = inst.cost_of(g)
                if not new < inc_cost:  # pragma: no cover - the model is exact
                    raise RuntimeError("the solver returned no improvement on a strict threshold")
                inc_cost, inc = new, g
            else:
                status = "feasible"
        else:
            res, g = test(mid, False)
            if res == "infeasible":
                lo, lo_strict = mid, True
            elif res == "feasible":
                inc_cost, inc = inst.cost_of(g), g
            else:
                status = "feasible"
    st["lo"], st["lo_strict"], st["status"] = lo, lo_strict, status
    return inc_cost, inc
