"""Optimal interval releases: exact frontiers over partitions of ordered public values into intervals.

What data custodians publish is usually an *interval* partition of ordered values (age bands,
cholesterol ranges). Over intervals the quantisation problems of Ding & Farokhi, *Developing
Non-Stochastic Privacy-Preserving Policies Using Agglomerative Clustering* (problems (3), (5), (10);
utilities U1, eq. (6), and U2, Section V-A) are solved by dynamic programming, as the optimal merges of
ordered alphabets are (Kurkoski & Yagi, *Quantization of Binary-Input Discrete Memoryless Channels*,
IEEE Trans. Inf. Theory 60(8), 2014) and optimal univariate microaggregation is (Stamm & Schaub,
*Optimal Univariate Microaggregation with Data Suppression*, TMLR 2024).

The recursion. With the values in order x_0 <= ... <= x_{n-1}, an interval partition is a set of cut
positions; U1 (largest interval size) and U2 (largest interval distortion) are bottlenecks, so for a
privacy level the best partition of the prefix x_0..x_{i-1} is

    g(i) = min over admissible j < i of max(g(j), cost(j, i)),     g(0) = 0,

with cost(j, i) = i - j (U1) or the distortion of the interval {x_j, ..., x_{i-1}} (U2). The scan of j
stops as soon as a lower bound of cost(j, i) that grows as j falls (i - j; (x_{i-1} - x_j) / 2 for
the centroid distortion) reaches the best value found, which makes the search nearly linear in practice.

What is exact.

* **L0 and k-anonymity** (problem (3)): exact. "L0 <= log(|S| / k)" is "every interval covers at least
  k sensitive values"; that set of admissible j is an initial segment j <= J_k(i) (the union of S-sets
  grows as the interval grows), found by two pointers. One DP per k = |S|, ..., min_x |S|x|.
* **U1, U2**: exact (any U2 codeword and distance; scalar centroid with "abs"/"squared" uses prefix
  sums, other rules evaluate each interval).
* **I* (problem (5)) and problem (10)**: the components of G_X̂ under interval merges are *not*
  decomposable by intervals in general (two interleaved components of G_X are joined by any interval
  that holds a member of each, wherever it sits). The recursion uses the *interval hull* of the
  components instead (components whose spans overlap, as one): for interval partitions Q and H the
  blocks of their join are intervals, with 1 + |cuts(Q) ∩ cuts(H)| of them, so a layered DP over the
  number of shared cuts is exact for the hull. The hull's block count never exceeds the true number of
  components of G_X̂, so at every level the DP's utility is a proven upper bound; a level whose DP
  partition truly has at most that many components is proven optimal (always, when every component of
  G_X occupies consecutive positions of the order). Other levels are reported ``status="feasible"``
  with that bound (``Frontier.certified`` False, ``.gap`` how far they may be). Two additions make more
  levels certified: adjacent merges that join component groups, cheapest merged interval first
  (:func:`_joining_merges`), give partitions that truly meet the levels; and the adjacencies of
  different components give a second bound (:func:`_joining_bounds`, a Kruskal bottleneck), so that,
  e.g., 2,674 place names in 7 interleaved regions reach I* = 0 with pairs, proven optimal.

Levels of L0 run in compiled code (:mod:`.interval_kernels`) and a run of levels whose two ends have the
same optimal cost is filled without solving it (the cost is monotone in the level), so the cost grows with
the number of distinct optimal costs, not of levels (10^4 values with 500 sensitive values: about 3 s of
CPU for 500 levels).

Cost: O(n · |S| + n · w) per L0 level with w the mean scan length, O(n · (|X| / ... ) · C · w) with C the number
of hull blocks for I*. ``benchmarks/bench_exact.py`` prints the times at |X| = 10^4.
"""

from __future__ import annotations

import math
from typing import Any

import numpy as np

from ...citations import record_use
from ...errors import InputError, TooLargeError
from ...ranges import JointRange
from ..utilities import _BoundU2
from .frontier import Frontier, FrontierPoint, pareto_filter
from .mechanism import _evaluate_groups
from .problem import _Problem, n_components_after

__all__ = ["interval_frontier", "interval_labels", "interval_release"]


def _order(prob: _Problem) -> np.ndarray:
    """Public codes in release order: by value (U2, or U1 with scalar values given), else by label order."""
    if isinstance(prob.ub, _BoundU2):
        if not prob.ub.scalar:
            raise InputError("interval_frontier needs scalar values to order the public values (got vectors)")
        return np.argsort(prob.ub.V, kind="stable")
    return np.arange(prob.n)


class _Costs:
    """cost(j, i) of the interval of positions j..i-1 and a lower bound that grows as j falls."""

    def __init__(self, prob: _Problem, order: np.ndarray):
        self.kind = "U2" if isinstance(prob.ub, _BoundU2) else "U1"
        if self.kind == "U2":
            ub = prob.ub
            x = np.asarray(ub.V, dtype=float)[order]
            self.x = x.tolist()
            self.P = np.concatenate([[0.0], np.cumsum(x)]).tolist()
            self.fast = ub.fast
            self.squared = ub.squared
            self.ub = ub
            self.order = order

    def cost(self, j: int, i: int) -> float:
        if self.kind == "U1":
            return float(i - j)
        if i - j == 1:
            return 0.0 if self.fast else self.ub.cluster_cost(self.order[j:i])
        if self.fast:
            mu = (self.P[i] - self.P[j]) / (i - j)
            d = max(self.x[i - 1] - mu, mu - self.x[j])
            return d * d if self.squared else d
        return self.ub.cluster_cost(self.order[j:i])

    def lower(self, j: int, i: int) -> float:
        if self.kind == "U1":
            return float(i - j)
        if not self.fast:
            return -math.inf
        h = (self.x[i - 1] - self.x[j]) / 2
        return h * h if self.squared else h


def _window_starts(smask_order: list, k: int) -> list:
    """J_k(i) for i = 1..n: the largest j with |S(x_j..x_{i-1})| >= k (-1 if none); index 0 unused."""
    n = len(smask_order)
    out = [-1] * (n + 1)
    cnt: dict = {}
    have = 0
    lo = 0
    for i in range(1, n + 1):
        for s in smask_order[i - 1]:
            c = cnt.get(s, 0)
            if c == 0:
                have += 1
            cnt[s] = c + 1
        if have < k:
            continue
        # move lo right while the window [lo+1, i) still covers k values
        while True:
            sl = smask_order[lo]
            if all(cnt[s] > 1 for s in sl) or have - sum(1 for s in sl if cnt[s] == 1) >= k:
                for s in sl:
                    cnt[s] -= 1
                    if cnt[s] == 0:
                        have -= 1
                lo += 1
            else:
                break
        out[i] = lo
    return out


def _dp(n: int, costs: _Costs, starts: list | None, cutpos: list | None, layers: int):
    """Layered minimax DP. ``starts[i]``: largest admissible j (None: every j < i); ``cutpos[j]``: a cut at j
    is a hull cut (uses a layer). Returns g[layer][i] and back[layer][i]."""
    inf = math.inf
    g = [[inf] * (n + 1) for _ in range(layers)]
    back = [[-1] * (n + 1) for _ in range(layers)]
    g[0][0] = 0.0
    ncut = 0                                 # hull cuts at positions 1..i-1: the layers reachable at i
    for i in range(1, n + 1):
        if cutpos is not None and i > 1 and cutpos[i - 1]:
            ncut += 1
        top = min(layers, ncut + 1)
        j = (i - 1) if starts is None else starts[i]
        best = [inf] * layers
        arg = [-1] * layers
        worst = inf
        while j >= 0:
            if costs.lower(j, i) >= worst:
                break
            shift = 1 if (cutpos is not None and j > 0 and cutpos[j]) else 0
            c = None
            for layer in range(shift, layers):
                prev = g[layer - shift][j]
                if prev >= best[layer]:
                    continue
                if c is None:
                    c = costs.cost(j, i)
                v = prev if prev > c else c
                if v < best[layer]:
                    best[layer] = v
                    arg[layer] = j
            worst = max(best[:top])
            j -= 1
        for layer in range(layers):
            g[layer][i] = best[layer]
            back[layer][i] = arg[layer]
    return g, back


def _trace_back(back: list, cutpos: list | None, layer: int, n: int) -> list:
    cuts = []
    i = n
    while i > 0:
        j = back[layer][i]
        if j < 0:
            return []
        cuts.append((j, i))
        if cutpos is not None and j > 0 and cutpos[j]:
            layer -= 1
        i = j
    return cuts[::-1]


def _hull_cuts(prob: _Problem, order: np.ndarray) -> list:
    """cutpos[p] (p = 1..n-1): no component of G_X has members on both sides of position p."""
    n = prob.n
    comp = prob.comp0[order]
    last = {}
    for p, c in enumerate(comp.tolist()):
        last[c] = p
    cut = [False] * (n + 1)
    reach = -1
    for p in range(n):
        reach = max(reach, last[int(comp[p])])
        if reach == p and p + 1 < n:
            cut[p + 1] = True
    return cut


def interval_frontier(jr: JointRange, objective: str, utility: Any = "U1", values: Any = None, *, order: Any = None,
                      base: float = 2) -> Frontier:
    """Exact privacy-utility frontier over interval partitions of the ordered public values.

    Parameters
    ----------
    jr : JointRange
    objective : {"L0", "I*", "L0|I*=0"}
        As in :func:`graphpriv.agglomerate` (problems (3), (5), (10) of Ding & Farokhi, *Developing
        Non-Stochastic Privacy-Preserving Policies Using Agglomerative Clustering*).
    utility, values : as in :func:`graphpriv.agglomerate`
    order : sequence of public labels, optional
        The order of the values (every public label once). Default: by value for U2 (ties by code),
        the public-label order of ``jr`` for U1.
    base : float, default 2

    Returns
    -------
    Frontier
        ``method="interval"``: non-dominated points among interval partitions; ``status="optimal"``
        means optimal among *interval* partitions (always for L0 / k-anonymity with U1 or U2; for I*
        and problem (10) when the interval hull of the components certifies it, see the module notes).
        ``.proof["levels"]`` has one row per privacy level (k for L0, number of components for I*);
        ``.proof["order"]`` the order used. ``interval_labels`` names the intervals ``[a, b]``.

    Examples
    --------
    >>> import graphpriv as gp
    >>> jr, values = gp.datasets.paper_example()
    >>> f = gp.interval_frontier(jr, "L0", "U2", values)
    >>> f.certified, [p.n_clusters for p in f.points]
    (True, [1, 2, 3, 7])
    >>> gp.interval_labels(f.partition(max_privacy=f.points[1].privacy), values)
    ['[0.1, 0.4]', '[0.6, 1.5]']

    Notes
    -----
    The DP's optimum at each level is checked against brute force over all 2^(n-1) interval
    partitions in the tests (n <= 14). Each level costs one scan per position with early stopping
    (see the module docstring); U2 with other codewords than the scalar centroid evaluates each
    interval on its members (slower, still exact).
    """
    record_use("agglomerative")  # for gp.cite()
    prob = _Problem(jr, objective, utility, values, base)
    n = prob.n
    if order is None:
        order_codes = _order(prob)
    else:
        pos = {x: i for i, x in enumerate(prob.labels)}
        try:
            order_codes = np.array([pos[x] for x in order], dtype=np.int64)
        except (KeyError, TypeError):
            raise InputError("order must list every public label of jr once") from None
        if len(order_codes) != n or len(set(order_codes.tolist())) != n:
            raise InputError("order must list every public label of jr exactly once")
    costs = _Costs(prob, order_codes)
    ssets = [prob.s_idx[prob.s_ptr[c]:prob.s_ptr[c + 1]].tolist() for c in order_codes.tolist()]
    allS = set().union(*map(set, ssets))
    k_max, k_min = len(allS), min(len(s) for s in ssets)
    obj = prob.objective
    cutpos = _hull_cuts(prob, order_codes) if obj in ("I*", "L0|I*=0") else None
    level_rows = []
    cands = []       # (groups in codes, level key)

    def groups_of(cuts):
        return [np.sort(order_codes[j:i]) for j, i in cuts]

    if obj == "I*":
        layers = sum(cutpos) + 1
        if layers * n > _LAYER_WORK_MAX:
            raise TooLargeError(f"interval_frontier for I* runs one DP layer per possible number of components: "
                                f"{layers} layers x {n} values exceeds {_LAYER_WORK_MAX:.0e}; use objective 'L0' or "
                                "'L0|I*=0' (one layer per level), or coarsen the public values first")
        g, back = _dp(n, costs, None, cutpos, layers)
        best = None
        for layer in range(layers):     # level c = layer + 1: at most c hull blocks (layer = shared cuts used)
            if math.isfinite(g[layer][n]) and (best is None or g[layer][n] < g[best][n]):
                best = layer
            groups = groups_of(_trace_back(back, cutpos, best, n))
            cands.append(groups)
            level_rows.append({"level": layer + 1, "privacy": prob.istar(layer + 1), "dp_cost": g[best][n],
                               "groups": groups})
        # the hull's recursion is a bound; adjacent merges that join components give partitions that truly
        # meet the levels, and the joining adjacencies give a second bound (see _joining_bounds)
        joined = _joining_merges(prob, costs, order_codes)
        cands.extend(groups_of(cuts) for cuts in joined)
        lows = _joining_bounds(prob, costs, order_codes)
        for row in level_rows:
            row["dp_cost"] = max(row["dp_cost"], lows.get(row["level"], -math.inf))
    else:
        ks = list(range(k_max, k_min - 1, -1))
        level_dp = _LevelDP(prob, costs, ssets, cutpos, n)
        by_k = _levels_by_bisection(ks, level_dp)
        groups_by_run: dict = {}
        for k in ks:
            dp_cost, cuts = by_k[k]
            if id(cuts) not in groups_by_run:     # levels filled from one recursion share its partition
                groups_by_run[id(cuts)] = groups_of(cuts)
            groups = groups_by_run[id(cuts)]
            cands.append(groups)
            level_rows.append({"level": k, "privacy": prob.l0(k), "dp_cost": dp_cost, "groups": groups})
    # evaluate the DP partitions exactly; a level is proven when its partition truly meets it
    one = [np.arange(n)]
    evals = []
    seen_eval: dict = {}       # levels sharing a partition share its evaluation
    for groups in cands + [one]:
        if id(groups) in seen_eval:
            continue
        p, u = _evaluate_groups(prob, groups)
        ok = True
        if obj == "L0|I*=0":
            ok = _n_components(prob, groups) == 1
        seen_eval[id(groups)] = (p, u, groups, ok)
        evals.append((p, u, groups, ok))
    levels = []
    for row in level_rows:
        p, u, _, ok_row = seen_eval[id(row["groups"])]
        meets = p <= row["privacy"] + 1e-12 and (obj != "L0|I*=0" or ok_row)
        bound = _utility_of_cost(prob, costs, row["dp_cost"])
        if meets:
            levels.append({"level": row["level"], "privacy": row["privacy"], "utility": u, "bound": u, "status": "optimal"})
        else:
            # best interval partition found that truly meets the level
            ok = [e for e in evals if e[3] and e[0] <= row["privacy"] + 1e-12]
            best_u = max(e[1] for e in ok)
            levels.append({"level": row["level"], "privacy": row["privacy"], "utility": best_u, "bound": max(bound, best_u),
                           "status": "optimal" if best_u >= bound - 1e-12 else "feasible"})
    if any(r["status"] != "optimal" for r in levels) and n <= _ENUMERATE_MAX:
        # the hull did not certify every level: list all 2^(n-1) interval partitions instead (exact)
        evals = _enumerate_intervals(prob, order_codes)
        levels = _levels_from(evals, levels)
    feas = [e for e in evals if e[3]]
    keep = pareto_filter(np.round([e[0] for e in feas], 12), np.round([e[1] for e in feas], 12))
    from .frontier_points import _end_points, _supporting_lams

    pts_pu = [(feas[i][0], feas[i][1]) for i in keep.tolist()]
    by_priv = {round(r["privacy"], 12): r for r in levels}
    labels = prob.labels
    lab = np.empty(len(labels), dtype=object)
    lab[:] = list(labels)
    pos = np.empty(n, dtype=np.int64)
    pos[order_codes] = np.arange(n)
    points = []
    for (p, u), (lo, hi), i in zip(pts_pu, _supporting_lams(pts_pu), keep.tolist()):
        r = by_priv.get(round(p, 12))
        if r is None:   # more components than the hull has blocks: every interval partition is within the top level
            r = max(levels, key=lambda row: row["privacy"])
        status = "optimal" if r["status"] == "optimal" and u >= r["utility"] - 1e-12 else "feasible"
        bound = u if status == "optimal" else max(r["bound"], u)
        groups = sorted(feas[i][2], key=lambda a: int(pos[a].min()))      # in the order's direction
        q = [frozenset(lab[gr].tolist()) for gr in groups]
        points.append(FrontierPoint(p, u, q, lo, hi, None, status=status, bound=bound))
    p_x, u_x, u_hat = _end_points(prob)
    proof = {"scope": "interval partitions of the order", "order": [labels[c] for c in order_codes.tolist()],
             "levels": levels}
    return Frontier(tuple(points), prob.objective, prob.utility_name, "interval", p_x, u_x, u_hat, None, None, proof)


def _cross_adjacencies(prob: _Problem, costs: _Costs, order_codes: np.ndarray):
    """Adjacent positions (p, p + 1) of the order whose values lie in different components of G_X, with a
    lower bound of the cost of any interval holding both (2 for U1; half their distance, or its square, for
    the scalar centroid U2; None when no such bound is known)."""
    comp = prob.comp0[order_codes].tolist()
    out = []
    known = costs.kind == "U1" or costs.fast
    for p in range(len(comp) - 1):
        if comp[p] != comp[p + 1]:
            out.append((costs.lower(p, p + 2) if known else None, p))
    return out


def _joining_bounds(prob: _Problem, costs: _Costs, order_codes: np.ndarray) -> dict:
    """Proven lower bounds of the utility cost at each I* level c (at most c components of G_X̂), over interval
    partitions.

    The components of G_X̂ are those of the graph on the components of G_X whose edges are the adjacencies
    (p, p + 1) of different components held inside one interval (the adjacencies inside an interval chain
    every component it touches). At most c components need the edges inside intervals to connect the
    components of G_X into at most c groups; every such edge costs at least its pair's bound, so the optimal
    cost is at least the bottleneck t(c) at which Kruskal's algorithm over the adjacencies, cheapest first,
    reaches c groups (for U1, 2 below the number of components of G_X)."""
    from ..trace import _UnionFind

    cross = _cross_adjacencies(prob, costs, order_codes)
    if not cross or any(c is None for c, _ in cross):
        return {}
    comp = prob.comp0[order_codes].tolist()
    uf = _UnionFind(prob.n_comp0)
    groups = prob.n_comp0
    out = {}
    for c, p in sorted(cross):
        a, b = uf.find(comp[p]), uf.find(comp[p + 1])
        if a != b:
            uf.union(a, b)
            groups -= 1
            out[groups] = c           # reaching `groups` groups needs an edge of cost >= c
    # a level c below a reached count inherits the next higher bound (fewer groups cost at least as much)
    best = {}
    running = -math.inf
    for lv in range(prob.n_comp0, 0, -1):
        running = max(running, out.get(lv, -math.inf))
        if lv < prob.n_comp0:
            best[lv] = running
    return best


def _joining_merges(prob: _Problem, costs: _Costs, order_codes: np.ndarray) -> list:
    """Interval partitions that truly meet I* levels: adjacent intervals whose values lie in different
    component groups are merged, the merge giving the cheapest merged interval first (a lazy heap), until
    one group is left. Returns the cuts of the last partition at each cost (the partition with the fewest
    groups before the largest interval cost grows)."""
    import heapq

    from ..trace import _UnionFind

    n = len(order_codes)
    comp = prob.comp0[order_codes].tolist()
    uf = _UnionFind(prob.n_comp0)
    end = list(range(1, n + 1))          # end[a]: end of the interval starting at a
    prev = list(range(-1, n - 1))        # start of the previous interval
    alive = [True] * n
    groups = prob.n_comp0
    heap = []

    def push(a):
        b = end[a]
        if b < n and uf.find(comp[a]) != uf.find(comp[b]):
            heapq.heappush(heap, (costs.cost(a, end[b]), a, b, end[b]))

    for a in range(n - 1):
        push(a)
    cur = 0.0 if costs.kind == "U2" else 1.0
    out = []
    merges = 0

    def snapshot():
        cuts, a = [], 0
        while a < n:
            cuts.append((a, end[a]))
            a = end[a]
        out.append(cuts)

    while heap and groups > 1:
        c, a, b, e = heapq.heappop(heap)
        if not (alive[a] and alive[b] and end[a] == b and end[b] == e):
            continue
        if uf.find(comp[a]) == uf.find(comp[b]):
            continue
        if c > cur:
            if merges:
                snapshot()
            cur = c
        uf.union(uf.find(comp[a]), uf.find(comp[b]))
        groups -= 1
        merges += 1
        alive[b] = False
        end[a] = e
        if e < n:
            prev[e] = a
        if prev[a] >= 0:
            push(prev[a])
        push(a)
    if merges:
        snapshot()
    return out


class _LevelDP:
    """The one-layer recursion at an L0 level k: (optimal cost, cuts). Compiled kernels for U1 and the
    scalar centroid U2 ("abs" / "squared"), the Python recursion :func:`_dp` otherwise."""

    def __init__(self, prob: _Problem, costs: _Costs, ssets: list, cutpos: list | None, n: int):
        self.costs, self.ssets, self.cutpos, self.n = costs, ssets, cutpos, n
        self.compiled = costs.kind == "U1" or costs.fast
        if self.compiled:
            self.ptr = np.zeros(n + 1, dtype=np.int64)
            self.ptr[1:] = np.cumsum([len(ss) for ss in ssets])
            self.idx = np.array([s for ss in ssets for s in ss], dtype=np.int64)
            self.n_s = int(self.idx.max()) + 1 if len(self.idx) else 1
            self.kind = 0 if costs.kind == "U1" else 1
            self.squared = bool(costs.kind == "U2" and costs.squared)
            self.x = np.asarray(costs.x if costs.kind == "U2" else np.zeros(n), dtype=np.float64)
            self.P = np.asarray(costs.P if costs.kind == "U2" else np.zeros(n + 1), dtype=np.float64)
            self.nocut = np.zeros(n + 1, dtype=np.bool_) if cutpos is None else np.asarray(cutpos, dtype=np.bool_)

    def __call__(self, k: int):
        if not self.compiled:
            starts = _window_starts(self.ssets, k)
            g, back = _dp(self.n, self.costs, starts, self.cutpos, 1)
            return g[0][self.n], _trace_back(back, None, 0, self.n)
        from .interval_kernels import minimax_dp, window_starts

        starts = window_starts(self.ptr, self.idx, self.n_s, k)
        gn, back = minimax_dp(self.n, self.kind, self.squared, self.x, self.P, starts, self.nocut)
        cuts = []
        i = self.n
        while i > 0:
            j = int(back[i])
            if j < 0:
                return float(gn), []
            cuts.append((j, i))
            i = j
        return float(gn), cuts[::-1]


def _levels_by_bisection(ks: list, level_dp) -> dict:
    """Optimal (cost, cuts) at every level of ``ks`` (tightest first), solving as few levels as it can.

    The optimal cost is monotone in the level: a looser level (smaller k) admits every partition of a
    tighter one. So when the tightest and the loosest level of a run of levels have the same optimal cost,
    every level between has it too, and the tighter level's partition (which meets all of them) is optimal
    for each: the run is filled without solving it. Otherwise the run is split in two. The number of
    recursions is about (number of distinct optimal costs) x log(number of levels), not the number of levels."""
    out: dict = {}

    def get(i):
        k = ks[i]
        if k not in out:
            out[k] = level_dp(k)
        return out[k]

    stack = [(0, len(ks) - 1)] if ks else []
    while stack:
        a, b = stack.pop()
        ca, cb = get(a), get(b)
        if b - a <= 1:
            continue
        if ca[0] == cb[0]:
            for i in range(a + 1, b):
                out[ks[i]] = ca
            continue
        m = (a + b) // 2
        stack.append((a, m))
        stack.append((m, b))
    return out


#: largest (number of layers) x |X| of the I* recursion
_LAYER_WORK_MAX = 2_000_000

#: up to this |X| an uncertified I* / problem (10) interval frontier is replaced by listing every interval partition
_ENUMERATE_MAX = 16


def _enumerate_intervals(prob: _Problem, order_codes: np.ndarray) -> list:
    """(privacy, utility, groups, feasible) of every interval partition of the order (2^(n-1) of them)."""
    n = prob.n
    out = []
    for mask in range(1 << (n - 1)):
        cuts = [0] + [p for p in range(1, n) if mask >> (p - 1) & 1] + [n]
        groups = [np.sort(order_codes[a:b]) for a, b in zip(cuts, cuts[1:])]
        p, u = _evaluate_groups(prob, groups)
        ok = prob.objective != "L0|I*=0" or _n_components(prob, groups) == 1
        out.append((p, u, groups, ok))
    return out


def _levels_from(evals: list, levels: list) -> list:
    """Exact level rows (best utility at privacy <= level) from the full list of interval partitions."""
    rows = []
    for r in levels:
        us = [e[1] for e in evals if e[3] and e[0] <= r["privacy"] + 1e-12]
        best = max(us) if us else -math.inf
        rows.append({**r, "utility": best, "bound": best, "status": "optimal"})
    return rows


def order_index(order_codes: np.ndarray, group: np.ndarray) -> int:
    pos = np.empty(len(order_codes), dtype=np.int64)
    pos[order_codes] = np.arange(len(order_codes))
    return int(pos[group].min())


def _n_components(prob: _Problem, groups) -> int:
    return n_components_after(prob.comp0, prob.n_comp0, groups)


def _utility_of_cost(prob: _Problem, costs: _Costs, c: float) -> float:
    if not math.isfinite(c):
        return -math.inf
    if costs.kind == "U1":
        return prob.ub.value_from_max_size(int(round(c)))
    return -c


def interval_labels(quantization, values: Any = None, *, fmt: str = "{:g}") -> list:
    """Names ``[a, b]`` for the clusters of an interval partition: the smallest and largest value (or label).

    Parameters
    ----------
    quantization : list of sets of public labels
    values : mapping label -> number, "labels" or None
        The numbers to show (``None`` or ``"labels"``: the labels themselves).
    fmt : str
        Format of a number.

    Examples
    --------
    >>> import graphpriv as gp
    >>> gp.interval_labels([{1, 2, 3}, {5}])
    ['[1, 3]', '[5, 5]']
    """
    out = []
    for c in quantization:
        vs = [x if values is None or values == "labels" else values[x] for x in c]
        try:
            a, b = min(vs), max(vs)
        except TypeError:
            raise InputError("interval_labels needs comparable values (numbers) for every public label") from None
        fa = fmt.format(a) if isinstance(a, (int, float, np.integer, np.floating)) else str(a)
        fb = fmt.format(b) if isinstance(b, (int, float, np.integer, np.floating)) else str(b)
        out.append(f"[{fa}, {fb}]")
    return out


def interval_release(jr: JointRange, objective: str, lam: float | None = None, utility: Any = "U1", values: Any = None, *,
                     min_utility: float | None = None, frontier: Frontier | None = None, base: float = 2):
    """The optimal interval partition at λ (or with utility >= ``min_utility``) as a mechanism result.

    Parameters
    ----------
    jr, objective, utility, values, base
        As in :func:`interval_frontier`.
    lam : float, optional
        Release the interval partition minimising L = privacy - λ·utility (the frontier point λ
        selects; ties go to the more private point).
    min_utility : float, optional
        Release the most private interval partition with utility >= ``min_utility`` instead.
    frontier : Frontier, optional
        A frontier of :func:`interval_frontier` for these arguments (not recomputed).

    Returns
    -------
    AgglomerationResult
        ``quantization`` (intervals), ``mapping`` (codewords for U2, cluster numbers for U1), privacy,
        utility, ``lam`` and a one-step ``trace`` (every merge at t = 1), ready for
        ``Release.from_result``; ``info["search"] == "interval"``.

    Examples
    --------
    >>> import graphpriv as gp
    >>> jr, values = gp.datasets.paper_example()
    >>> r = gp.interval_release(jr, "L0", 2.5, "U2", values)
    >>> gp.interval_labels(r.quantization, values), round(r.L, 4)
    (['[0.1, 0.4]', '[0.6, 1.5]'], 2.1667)
    """
    from .problem import _check_lam
    from .result import _result_from_groups
    from .contraction import Contraction

    if (lam is None) == (min_utility is None):
        raise InputError("give exactly one of lam= (the Lagrange multiplier) or min_utility= (a utility floor)")
    f = interval_frontier(jr, objective, utility, values, base=base) if frontier is None else frontier
    if not isinstance(f, Frontier) or f.method != "interval":
        raise InputError("frontier must come from gp.interval_frontier for the same range and problem")
    if lam is not None:
        lam = _check_lam(lam)
        point = min(f.points, key=lambda p: (p.privacy - lam * p.utility, p.privacy))
    else:
        q = f.partition(min_utility=min_utility)
        point = next(p for p in f.points if set(p.quantization) == set(q))
        lam = point.lam_min if math.isfinite(point.lam_min) else 0.0
    prob = _Problem(jr, objective, utility, values, base)
    code = {x: i for i, x in enumerate(prob.labels)}
    groups = [np.array(sorted(code[x] for x in c), dtype=np.int64) for c in point.quantization]
    c = Contraction._from_problem(prob)
    with c.step():
        for g in groups:
            for i in g[1:].tolist():
                c.merge(prob.labels[int(g[0])], prob.labels[i])
    trace = c.trace("I*" if prob.objective == "I*" else "L0", lam, name=prob.objective)
    res = _result_from_groups(prob, groups, trace, point.privacy, point.utility, lam)
    res.info.update({"search": "interval", "status": point.status})
    return res
