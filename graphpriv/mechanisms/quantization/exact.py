"""Exact optima of paper 003's problems (3), (5), (10): enumeration of set partitions, or integer programming.

Past |X| = 10 (``method="auto"``) or with ``method="solver"`` the frontier and the Lagrangian's minimum
are proved level by level by the threshold integer models of :mod:`.solver` (OR-Tools CP-SAT or HiGHS);
every point then carries its status and proven bound. Below, by enumeration:

Every quantisation of X is a set partition of [[X]]; there are Bell(|X|) of them (Bell(10) = 115,975,
Bell(12) = 4,213,597). One enumerator, :func:`_partition_table`, lists them all as restricted-growth
strings in numpy (:func:`set_partitions`) and evaluates privacy, utility and the problem's constraint of
every partition with lookup tables over the 2^|X| subsets of X. Two readings of that table:

* :func:`exact_frontier` keeps the non-dominated (privacy, utility) points -- the true frontier that
  the greedy Algorithms 1 and 2 approximate;
* :func:`exact_minimum` takes the minimum of the Lagrangian L = privacy - λ U at one λ -- the oracle the
  better-than-greedy searches (:mod:`graphpriv.mechanisms.search`) are measured against.
"""

from __future__ import annotations

import math
import time
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from ...errors import InputError, TooLargeError
from ...ranges import JointRange
from .problem import _check_lam, _Problem
from .frontier import Frontier, FrontierPoint, pareto_filter, pareto_frontier
from .mechanism import _evaluate_groups
from .frontier_points import _end_points, _supporting_lams
from ..utilities import _BoundU2
from ...citations import record_use

__all__ = ["exact_frontier", "exact_minimum", "ExactMinimum", "frontier_bounds", "set_partitions", "bell_number", "EXACT_MAX_PUBLIC"]

#: hard limit on |X| for exhaustive search (Bell(12) = 4,213,597 partitions)
EXACT_MAX_PUBLIC = 12
#: default limit of :func:`exact_minimum` (Bell(11) = 678,570 partitions)
EXACT_MINIMUM_MAX_PUBLIC = 11


#: Largest n for which :func:`bell_number` computes B(n): the Bell triangle takes O(n^2) additions of
#: integers of up to about n log2(n) bits (B(2000) has 4,351 digits; about 3 s on a loaded 2-core machine).
BELL_NUMBER_MAX = 2000
#: Largest n :func:`set_partitions` considers (B(25) = 4.6e18 partitions; the memory budget stops far earlier).
SET_PARTITIONS_MAX = 25


def bell_number(n: int) -> int:
    """Bell number B(n): the number of set partitions of an n-set (B(0) = 1).

    ``n`` is an integer in [0, :data:`BELL_NUMBER_MAX`] (else a one-line
    :class:`~graphpriv.errors.GraphprivError`).

    >>> from graphpriv import bell_number
    >>> [bell_number(n) for n in range(1, 11)]
    [1, 2, 5, 15, 52, 203, 877, 4140, 21147, 115975]
    """
    from ..._validation import check_integer

    n = check_integer(n, "bell_number's n", minimum=0)
    if n > BELL_NUMBER_MAX:
        raise TooLargeError(f"bell_number({n}): n is above the limit {BELL_NUMBER_MAX} (B(n) has about "
                            f"{n * math.log10(max(n, 2) / math.log(max(n, 2))):.0f} digits and takes O(n^2) big-integer "
                            f"additions); use n <= {BELL_NUMBER_MAX}")
    row = [1]
    for _ in range(n):
        nxt = [row[-1]]
        for v in row:
            nxt.append(nxt[-1] + v)
        row = nxt
    return row[0]


def _guard_set_partitions(n: int) -> None:
    from ..._guards import check_dense

    # the result (B(n) x n int8) and the previous round's rows and choices held while building it
    check_dense(f"set_partitions({n}) (B({n}) = {bell_number(n):.3g} partitions)", 2 * bell_number(n) * (n + 10), 1,
                "a heuristic search (gp.agglomerate, gp.beam_search or gp.local_search) or fewer public values "
                "(exact search needs |X| <= 12)")


def set_partitions(n: int) -> np.ndarray:
    """All set partitions of {0..n-1} as restricted-growth strings, shape (B(n), n), dtype int8.

    Row r assigns block ``a[r, i]`` to element i with a[r, 0] = 0 and a[r, i] <= 1 + max(a[r, :i]);
    blocks are therefore numbered by their smallest element (paper 003's cluster index order).

    >>> from graphpriv import set_partitions
    >>> set_partitions(3).tolist()
    [[0, 0, 0], [0, 0, 1], [0, 1, 0], [0, 1, 1], [0, 1, 2]]

    Raises TooLargeError when the B(n) x n table would pass the memory budget (n >= 14: B(14) x 14
    bytes is 2.7 GB).
    """
    from ..._validation import check_integer

    n = check_integer(n, "set_partitions's n", minimum=1)
    if n > SET_PARTITIONS_MAX:
        raise TooLargeError(f"set_partitions({n}) would list more than B({SET_PARTITIONS_MAX}) = 4.6e18 partitions; use a "
                            "heuristic search (gp.agglomerate, gp.beam_search or gp.local_search) or fewer public values "
                            "(exact search needs |X| <= 12)")
    _guard_set_partitions(n)
    a = np.zeros((1, 1), dtype=np.int8)
    mx = np.zeros(1, dtype=np.int8)
    for _ in range(1, n):
        k = (mx + 2).astype(np.int64)  # choices per row: 0..max+1
        rows = np.repeat(np.arange(len(a)), k)
        starts = np.cumsum(k) - k
        choice = (np.arange(k.sum()) - np.repeat(starts, k)).astype(np.int8)
        a = np.concatenate([a[rows], choice[:, None]], axis=1)
        mx = np.maximum(mx[rows], choice)
    return a


def _subset_tables(prob: _Problem):
    n = prob.n
    N = 1 << n
    size = np.zeros(N, dtype=np.int64)
    s_union = [0] * N
    c_union = [0] * N
    s_mask = [sum(1 << int(s) for s in prob.s_idx[prob.s_ptr[i]:prob.s_ptr[i + 1]]) for i in range(n)]
    for m in range(1, N):
        low = (m & -m).bit_length() - 1
        rest = m & (m - 1)
        size[m] = size[rest] + 1
        s_union[m] = s_union[rest] | s_mask[low]
        c_union[m] = c_union[rest] | (1 << int(prob.comp0[low]))
    ssize = np.array([v.bit_count() for v in s_union], dtype=np.int64)
    cmask = np.array(c_union, dtype=np.uint64)
    return size, ssize, cmask


def exact_frontier(jr: JointRange, objective: str, utility: Any = "U1", values: Any = None, *, method: str = "auto",
                   time_limit: float | None = None, solver: str = "auto", max_public: int = 10, base: float = 2,
                   progress: Any = False) -> Frontier:
    """Exact Pareto frontier of problem (3) ("L0"), (5) ("I*") or (10) ("L0|I*=0"), with proofs.

    Ding & Farokhi, *Developing Non-Stochastic Privacy-Preserving Policies Using Agglomerative
    Clustering*, problems (3), (5) and (10) with U1 (eq. (6)) or U2 (Section V-A): the quantisations
    whose (privacy, utility) no other quantisation beats in both, the frontier the greedy Algorithms
    1 and 2 and Section V-C approximate.

    Parameters
    ----------
    jr : JointRange
    objective : {"L0", "I*", "L0|I*=0"}
        Privacy measure: L0(S → X̂), I*(S; X̂), or L0(S → X̂) restricted to quantisations with I* = 0.
    utility, values : as in :func:`graphpriv.agglomerate`
    method : {"auto", "enumerate", "solver"}, default "auto"
        "enumerate": every set partition (Bell(|X|) of them, |X| <= ``max_public``); "solver": one
        integer threshold problem per privacy level and utility bound (see
        :mod:`graphpriv.mechanisms.quantization.solver`), warm-started with the greedy frontier;
        "auto": enumerate up to |X| = 10, solve above.
    time_limit : float, optional
        Seconds for the whole call: reading the range, the greedy starting solutions, building every
        integer model and the lower bounds included (model building checks the clock row by row). A
        run that hits it returns what it proved: the points it could not prove are
        ``status="feasible"`` with their proven ``bound``, ``.certified`` is False and ``.gap`` says
        how far from optimal they may be (``.proof["timed_out"]`` True). Never a point called optimal
        that was not proved. What cannot be interrupted is one greedy frontier (started only while
        time is left) and the final evaluation of the partitions found, O(|X|) merges each.
    solver : {"auto", "cp-sat", "highs"}, default "auto"
        OR-Tools CP-SAT (``pip install 'graphpriv[exact]'``; default when installed) or HiGHS through
        :func:`scipy.optimize.milp`. Checked whatever the method.
    max_public : int, default 10
        Enumeration refuses larger alphabets (Bell(10) = 115,975 partitions run in about a second). At
        most ``EXACT_MAX_PUBLIC`` = 12 (Bell(12) = 4,213,597 partitions, a few GB of temporaries).
    base : float, default 2
    progress : bool or callable, default False
        Solver runs: ``True`` writes one line per privacy level to standard error (only when it is a
        terminal) with the incumbent utility, the proven bound and the time so far; a callable gets
        each level's record (a dict). The lines also go to the ``graphpriv`` logger (DEBUG).

    Returns
    -------
    Frontier
        ``method="exact"`` (enumeration) or ``"solver"``; each point's λ range is the set of λ for which
        it minimises privacy - λ·utility over the frontier ("no λ" for unsupported points); every point
        has ``status`` and ``bound``; ``.certified`` and ``.gap``; solver runs keep a per-level record in
        ``.proof``.

    Raises
    ------
    TooLargeError
        ``method="enumerate"`` and |X| exceeds ``max_public``.
    MissingSolverError
        ``solver="cp-sat"`` without OR-Tools installed.
    InputError
        An unknown ``method`` or ``solver``, or a ``time_limit`` that is not a positive number.

    Examples
    --------
    >>> import graphpriv as gp
    >>> jr, _ = gp.datasets.paper_example()
    >>> f = gp.exact_frontier(jr, "I*")
    >>> [(round(p.privacy, 3), round(p.utility, 3)) for p in f.points]
    [(0.0, 1.222), (1.0, 1.807), (2.322, 2.807)]
    >>> f.certified, f.gap
    (True, 0.0)
    >>> g = gp.exact_frontier(jr, "I*", method="solver")
    >>> [(round(p.privacy, 3), round(p.utility, 3), p.status) for p in g.points]
    [(0.0, 1.222, 'optimal'), (1.0, 1.807, 'optimal'), (2.322, 2.807, 'optimal')]

    Notes
    -----
    Enumeration: O(B(|X|) · |X|^2) vectorised time for I* (component closure), O(B(|X|) · |X|)
    otherwise, plus 2^|X| subset evaluations of the utility (any codeword / distance). Solver: U2 needs
    scalar values with centroid codewords and the "abs" or "squared" distance; values with at most 6
    decimals are handled in exact integer arithmetic (otherwise on a grid of 2^30 steps over their
    range, ``proof["values_exact"]`` False). ``benchmarks/bench_exact.py`` prints the times.
    """
    from .solver import _Deadline, _check_solver_name

    t_start = time.perf_counter()
    record_use("agglomerative")  # for gp.cite()
    method = _check_method(method)
    time_limit = _check_time_limit(time_limit)
    _check_solver_name(solver)
    deadline = _Deadline(time_limit, t_start)
    prob = _Problem(jr, objective, utility, values, base)
    n = prob.n
    if not isinstance(max_public, (int, np.integer)) or isinstance(max_public, bool) or max_public < 1:
        raise InputError(f"max_public must be a positive integer, got {max_public!r}")
    if method == "auto":
        method = "enumerate" if n <= 10 or not _solver_supports(prob) else "solver"
    if method == "solver":
        return _solver_frontier(prob, values, time_limit, solver, deadline=deadline, progress=progress)
    limit = min(int(max_public), EXACT_MAX_PUBLIC)
    if n > limit:
        raise TooLargeError(f"exact_frontier enumerates Bell(|X|) partitions; |X| = {n} gives {bell_number(n):,} "
                            f"(limit |X| <= {limit}{'' if limit == EXACT_MAX_PUBLIC else f'; raise max_public up to {EXACT_MAX_PUBLIC}'}). "
                            "Use method='solver' (certified, integer programming) or gp.pareto_frontier for the greedy frontier.")
    rgs, priv, util, feasible = _partition_table(prob)
    idx = np.flatnonzero(feasible)
    pr = np.round(priv[idx], 12)
    ut = np.round(util[idx], 12)
    keep = idx[pareto_filter(pr, ut)]
    labels = prob.labels
    pts_pu = [(float(priv[i]), float(util[i])) for i in keep.tolist()]
    lam_rng = _supporting_lams(pts_pu)
    points = []
    for (p, u), (lo, hi), i in zip(pts_pu, lam_rng, keep.tolist()):
        row = rgs[i]
        q = [frozenset(labels[x] for x in np.flatnonzero(row == b).tolist()) for b in range(int(row.max()) + 1)]
        points.append(FrontierPoint(p, u, q, lo, hi, None, status="optimal", bound=u))
    p_x, u_x, u_hat = _end_points(prob)
    return Frontier(tuple(points), prob.objective, prob.utility_name, "exact", p_x, u_x, u_hat, None)


_METHODS = ("auto", "enumerate", "solver")


def _check_method(method: Any) -> str:
    if method not in _METHODS:
        raise InputError(f"method={method!r} is not known; use 'auto' (enumerate up to |X| = 10, solve above), "
                         "'enumerate' (every set partition) or 'solver' (certified integer programming)")
    return method


def _check_time_limit(time_limit: Any) -> float | None:
    if time_limit is None:
        return None
    if isinstance(time_limit, bool) or not isinstance(time_limit, (int, float, np.integer, np.floating)) \
            or not math.isfinite(float(time_limit)) or time_limit <= 0:
        raise InputError(f"time_limit must be a positive number of seconds (or None for no limit), got {time_limit!r}")
    return float(time_limit)


def _solver_supports(prob: _Problem) -> bool:
    return not isinstance(prob.ub, _BoundU2) or prob.ub.fast


def _hint_partitions(prob: _Problem, values: Any, deadline=None) -> list:
    """Starting solutions: every point of the greedy frontier (Algorithms 1, 2, Section V-C over all λ) and
    of the beam search at a few λ, as lists of public-code arrays.

    With a ``deadline`` (:class:`.solver._Deadline`) nothing is started after it has passed, and a beam
    search only while the time left is at least twice what the greedy frontier took (the solver adds the
    one-cluster partition, feasible at every level, whatever happens here)."""
    from ..trace import _groups
    from .search import beam_search

    hints = []
    if deadline is not None and deadline.passed():
        return hints
    t0 = time.perf_counter()
    try:
        g = pareto_frontier(prob.jr, prob.objective, prob.utility_obj, values,
                            base=prob.base)
        for p in g.points:
            if p._ids is not None:
                hints.append([np.asarray(x) for x in _groups(p._ids)])
            else:
                pos = {x: i for i, x in enumerate(prob.labels)}
                hints.append([np.array(sorted(pos[x] for x in c)) for c in p.quantization])
        lams = sorted({round(p.lam_min * 1.01 + 1e-6, 9) for p in g.points if math.isfinite(p.lam_min)})[:4]
        spent = time.perf_counter() - t0
        for lam in lams:
            left = None if deadline is None else deadline.left()
            if left is not None and left < 2 * spent:
                break
            t1 = time.perf_counter()
            r = beam_search(prob.jr, prob.objective, lam, utility=prob.utility_obj,
                            values=values, base=prob.base)
            pos = {x: i for i, x in enumerate(prob.labels)}
            hints.append([np.array(sorted(pos[x] for x in c)) for c in r.quantization])
            spent = max(spent, time.perf_counter() - t1)
    except TooLargeError:  # pragma: no cover - the heuristics refuse nothing at solver sizes
        pass
    # the optimal interval partitions of the ordered values (exact dynamic programming, milliseconds): for U2
    # the optimum is often an interval partition or close to one
    if deadline is None or not deadline.passed():
        try:
            from .interval import interval_frontier

            f = interval_frontier(prob.jr, prob.objective, prob.utility_obj, values, base=prob.base)
            pos = {x: i for i, x in enumerate(prob.labels)}
            for p in f.points:
                hints.append([np.array(sorted(pos[x] for x in c)) for c in p.quantization])
        except (TooLargeError, InputError):  # pragma: no cover - vector values or too many I* layers
            pass
    return hints


def frontier_bounds(jr: JointRange, objective: str, utility: Any = "U1", values: Any = None, *, base: float = 2):
    """Proven upper bounds on the utility at every privacy level, without a solver (any |X|).

    For problem (3) or (10) (Ding & Farokhi, *Developing Non-Stochastic Privacy-Preserving Policies
    Using Agglomerative Clustering*) a quantisation with L0(S → X̂) <= log(|S| / k) has every cluster
    covering k sensitive values, so (U1) the cluster of each x has at least as many members as it takes
    to reach k with |S|x| and the largest other S-sets, and (U2, scalar centroid values) the cluster of x
    spans at least the narrowest window of the sorted values that holds x and covers k: its distortion is
    at least half that width. No quantisation lies above these bounds; the exact frontier touches them
    where they are tight. For I* at c < #components of G_X (and problem (10)), joining the components needs
    clusters with two members (U1) or spanning the bottleneck distance between components (U2, half of it
    bounds the distortion).

    Returns
    -------
    pandas.DataFrame
        One row per privacy level (best privacy first): ``level`` (k, or the number of components for
        I*), ``privacy`` and ``utility_bound``.

    Examples
    --------
    >>> import graphpriv as gp
    >>> jr, values = gp.datasets.paper_example()
    >>> b = gp.frontier_bounds(jr, "L0", "U1")
    >>> f = gp.exact_frontier(jr, "L0", "U1")
    >>> all(p.utility <= b.loc[b.privacy <= p.privacy + 1e-12, "utility_bound"].max() + 1e-12 for p in f.points)
    True
    """
    import pandas as pd

    from .solver import _Inst, _cost_lower_bound, _levels, _level_privacy, _utility_of_cost

    prob = _Problem(jr, objective, utility, values, base)
    if not _solver_supports(prob):
        raise InputError("frontier_bounds with U2 needs scalar values, codeword='centroid' and distance 'abs' or 'squared'")
    inst = _Inst(prob)
    rows = []
    for level in _levels(inst, prob.objective):
        rows.append({"level": level, "privacy": _level_privacy(inst, prob.objective, level),
                     "utility_bound": _utility_of_cost(inst, _cost_lower_bound(inst, prob.objective, level))})
    return pd.DataFrame(rows)


def _solver_frontier(prob: _Problem, values: Any, time_limit: float | None, solver: Any, hints: list | None = None, *,
                     deadline=None, progress: Any = False) -> Frontier:
    from .progress import solve_progress
    from .solver import _check_solver, _Deadline, solve_levels

    if not _solver_supports(prob):
        raise InputError("method='solver' with U2 needs scalar values, codeword='centroid' and distance 'abs' or 'squared'; "
                         "use method='enumerate' (|X| <= 12) for other codewords or distances")
    solver = _check_solver(solver)
    callback = solve_progress(progress)
    t0 = time.perf_counter()
    if deadline is None:
        deadline = _Deadline(time_limit, t0)
    # the time limit covers the heuristics that give the starting solutions, and the model building, too
    hints = _hint_partitions(prob, values, deadline) if hints is None else hints
    levels, info = solve_levels(prob, hints, solver=solver, deadline=deadline, progress=callback)
    labels = prob.labels
    # candidates: each level's best partition at its realized privacy; the level of that privacy holds its proof
    by_priv = {round(r.privacy, 12): r for r in levels}
    cands = []
    for r in levels:
        p_real, u_real = _evaluate_groups(prob, r.groups)
        cands.append((p_real, u_real, r.groups))
    keep = pareto_filter(np.round([c[0] for c in cands], 12), np.round([c[1] for c in cands], 12))
    pts_pu = [(cands[i][0], cands[i][1]) for i in keep.tolist()]
    points = []
    for (p, u), (lo, hi), i in zip(pts_pu, _supporting_lams(pts_pu), keep.tolist()):
        r = by_priv.get(round(p, 12))
        status = "optimal" if r is not None and r.status == "optimal" and u >= r.utility - 1e-12 else "feasible"
        bound = u if status == "optimal" else (max(r.bound, u) if r is not None else math.nan)
        q = [frozenset(labels[x] for x in g.tolist()) for g in cands[i][2]]
        points.append(FrontierPoint(p, u, q, lo, hi, None, status=status, bound=bound))
    p_x, u_x, u_hat = _end_points(prob)
    info["levels"] = [{"level": r.level, "privacy": r.privacy, "utility": r.utility, "bound": r.bound,
                       "status": r.status, "tests": r.tests, "seconds": r.seconds} for r in levels]
    info["time_limit"] = time_limit
    info["seconds"] = time.perf_counter() - t0          # starting solutions included
    info["timed_out"] = deadline.passed()
    return Frontier(tuple(points), prob.objective, prob.utility_name, "solver", p_x, u_x, u_hat, None, None, info)


def _partition_table(prob: _Problem):
    """Every set partition of [[X]] with its privacy, utility and constraint: (rgs, priv, util, feasible).

    ``rgs`` are the restricted-growth strings of :func:`set_partitions` (row r: block of each public code);
    ``priv`` is L0(S → X̂) for "L0" and "L0|I*=0", I*(S; X̂) for "I*"; ``util`` is U1 or U2 (the bound
    utility of ``prob``); ``feasible`` is I* = 0 for "L0|I*=0" and all True otherwise. O(B(|X|) · |X|^2)
    vectorised time for the components (I*, problem (10)), O(B(|X|) · |X|) otherwise, plus 2^|X|
    evaluations of the cluster cost for U2 (any codeword / distance).
    """
    n = prob.n
    rgs = set_partitions(n)
    P = len(rgs)
    size, ssize, cmask = _subset_tables(prob)
    dtype = np.uint16 if n <= 16 else np.uint32
    blocks = np.zeros((P, n), dtype=dtype)
    ar = np.arange(P)
    for x in range(n):
        blocks[ar, rgs[:, x].astype(np.int64)] |= dtype(1 << x)
    nonempty = blocks != 0
    bl = blocks.astype(np.int64)
    # utility per partition
    if isinstance(prob.ub, _BoundU2):
        N = 1 << n
        dtab = np.zeros(N)
        for m in range(1, N):
            dtab[m] = prob.ub.cluster_cost([i for i in range(n) if m >> i & 1])
        util = 0.0 - np.where(nonempty, dtab[bl], -np.inf).max(axis=1)
    else:
        util = (math.log(n) - np.log(size[bl].max(axis=1))) / prob.lb
    # privacy per partition
    feasible = np.ones(P, dtype=bool)
    if prob.objective in ("L0", "L0|I*=0"):
        min_s = np.where(nonempty, ssize[bl], np.iinfo(np.int64).max).min(axis=1)
        priv = (math.log(prob.n_s) - np.log(min_s)) / prob.lb
    if prob.objective in ("I*", "L0|I*=0"):
        # component masks of the blocks; partitions with the same multiset of masks share the closure
        M0 = np.sort(cmask[bl], axis=1)
        uniq, inv = np.unique(M0, axis=0, return_inverse=True)
        M = uniq.copy()
        for _ in range(n):
            changed = False
            for b in range(n):
                for b2 in range(n):
                    if b == b2:
                        continue
                    ov = (M[:, b] & M[:, b2]) != 0
                    newv = np.where(ov, M[:, b] | M[:, b2], M[:, b])
                    if not changed and np.any(newv != M[:, b]):
                        changed = True
                    M[:, b] = newv
            if not changed:
                break
        Ms = np.sort(M, axis=1)
        distinct = (Ms[:, 1:] != Ms[:, :-1]) & (Ms[:, 1:] != 0)
        ncomp = (distinct.sum(axis=1) + (Ms[:, 0] != 0))[np.asarray(inv).ravel()]
        if prob.objective == "I*":
            priv = np.log(ncomp) / prob.lb
        else:
            feasible = ncomp == 1
    return rgs, priv, util, feasible


@dataclass(frozen=True)
class ExactMinimum:
    """The exact minimum of the Lagrangian L = privacy - λU over all quantisations, with its proof.

    Ding & Farokhi, *Developing Non-Stochastic Privacy-Preserving Policies Using Agglomerative
    Clustering*: privacy is L0(S → X̂) for problem (3) (``objective="L0"``), I*(S; X̂) for problem (5)
    (``"I*"``), or L0 among the quantisations with I*(S; X̂) = 0 for problem (10) (``"L0|I*=0"``);
    U is U1 (eq. (6)) or U2 (Section V-A).

    Attributes
    ----------
    L, privacy, utility : float
        The Lagrangian, privacy and utility of ``quantization``.
    quantization : list of frozenset
        The best quantisation found (clusters of public labels).
    n_partitions : int
        Number of set partitions enumerated (Bell(|X|); 0 for the solver).
    certified : bool
        True when ``L`` is proven minimal (enumeration, or a solver run that proved every privacy level).
    bound : float
        Proven lower bound on the minimum of L (equal to ``L`` when certified).
    method : {"enumerate", "solver"}
    """

    L: float
    privacy: float
    utility: float
    quantization: list = field(repr=False)
    n_partitions: int = 0
    certified: bool = True
    bound: float = math.nan
    method: str = "enumerate"

    def __post_init__(self):
        if math.isnan(self.bound) and self.certified:
            object.__setattr__(self, "bound", self.L)

    @property
    def gap(self) -> float:
        """L - bound: how far from the optimum the returned quantisation may be (0 when certified)."""
        return 0.0 if self.certified else self.L - self.bound

    def __repr__(self) -> str:
        proof = "certified" if self.certified else f"bound={self.bound:.4g}, gap={self.gap:.3g}"
        return (f"ExactMinimum(L={self.L:.4g}, privacy={self.privacy:.4g}, utility={self.utility:.4g}, "
                f"clusters={len(self.quantization)}, {proof}, method={self.method!r})")


def _minimum_from_table(prob: _Problem, table, lam: float) -> ExactMinimum:
    """The first partition (in :func:`set_partitions` order) with the smallest L at λ among the feasible ones."""
    rgs, priv, util, feasible = table
    L = np.where(feasible, priv - lam * util, np.inf)
    b = int(np.argmin(L))
    row = rgs[b]
    quant = [frozenset(prob.labels[x] for x in np.flatnonzero(row == c).tolist()) for c in range(int(row.max()) + 1)]
    return ExactMinimum(float(L[b]), float(priv[b]), float(util[b]), quant, len(rgs))


def _check_size(prob: _Problem, max_public: Any, what: str, limit_default: int) -> None:
    if isinstance(max_public, bool) or not isinstance(max_public, (int, np.integer)) or max_public < 1:
        raise InputError(f"max_public must be a positive integer, got {max_public!r}")
    if prob.n > max_public:
        raise TooLargeError(f"{what} enumerates Bell(|X|) partitions; |X| = {prob.n} > max_public = {max_public} "
                            f"({bell_number(prob.n):,} partitions; the default limit is {limit_default})")


def exact_minimum(jr: JointRange, objective: str, lam: float, utility: Any = "U1", values: Any = None, *, method: str = "auto",
                  time_limit: float | None = None, solver: str = "auto", base: float = 2,
                  max_public: int = EXACT_MINIMUM_MAX_PUBLIC) -> ExactMinimum:
    """Exact minimum of the Lagrangian L = privacy - λU of problem (3), (5) or (10), with a proof.

    Ding & Farokhi, *Developing Non-Stochastic Privacy-Preserving Policies Using Agglomerative
    Clustering*: the optimum that Algorithm 1 (problem (3), ``"L0"``), Algorithm 2 (problem (5),
    ``"I*"``) and Section V-C (problem (10), ``"L0|I*=0"``) approximate -- the oracle the
    better-than-greedy searches (:mod:`graphpriv.mechanisms.quantization.search`) are measured against.

    Parameters
    ----------
    jr, objective, lam, utility, values, base
        As in :func:`graphpriv.agglomerate`. For ``objective="L0|I*=0"`` only partitions with
        I*(S; X̂) = 0 count (problem (10)).
    method : {"auto", "enumerate", "solver"}
        "enumerate": every set partition (|X| <= ``max_public``); "solver": the threshold integer models
        of :func:`graphpriv.exact_frontier` (the minimum of a linear function of (privacy, utility)
        lies on the frontier, so L = min over privacy levels of level - λ · best utility); "auto":
        enumerate up to |X| = 10, solve above.
    time_limit : float, optional
        Seconds for the solver; when hit, the result is the best quantisation found with
        ``certified=False`` and the proven lower ``bound``.
    solver : {"auto", "cp-sat", "highs"}
    max_public : int
        Enumeration refuses past this |X| (Bell(10) = 115,975; Bell(11) = 678,570).

    Returns
    -------
    ExactMinimum
        ``.L``, ``.quantization``, ``.certified``, ``.bound``. Enumeration returns, among partitions
        with the same L, the first in :func:`set_partitions` order.

    Raises
    ------
    TooLargeError
        ``method="enumerate"`` and |X| > ``max_public``.

    Examples
    --------
    >>> import graphpriv as gp
    >>> jr, values = gp.datasets.paper_example()
    >>> e = gp.exact_minimum(jr, "I*", 0.3)        # Example 3's setting: the greedy run is optimal
    >>> round(e.L, 4), round(gp.agglomerate(jr, "I*", 0.3).L, 4), e.n_partitions, e.certified
    (-0.3667, -0.3667, 877, True)
    >>> s = gp.exact_minimum(jr, "I*", 0.3, method="solver")
    >>> round(s.L, 4), s.certified, round(s.bound, 4)
    (-0.3667, True, -0.3667)

    Notes
    -----
    Enumeration reads the table of :func:`exact_frontier` (one enumerator): O(Bell(|X|) · |X|^2)
    vectorised time and O(Bell(|X|) · |X|) memory.
    """
    from .solver import _Deadline, _check_solver_name

    t_start = time.perf_counter()
    lam = _check_lam(lam)
    method = _check_method(method)
    time_limit = _check_time_limit(time_limit)
    _check_solver_name(solver)
    deadline = _Deadline(time_limit, t_start)
    prob = _Problem(jr, objective, utility, values, base)
    if method == "auto":
        method = "enumerate" if prob.n <= 10 or not _solver_supports(prob) else "solver"
    if method == "enumerate":
        _check_size(prob, max_public, "exact_minimum", EXACT_MINIMUM_MAX_PUBLIC)
        return _minimum_from_table(prob, _partition_table(prob), lam)
    f = _solver_frontier(prob, values, time_limit, solver, deadline=deadline)
    best = min(f.points, key=lambda p: p.privacy - lam * p.utility)
    L = best.privacy - lam * best.utility
    bound = min(r["privacy"] - lam * r["bound"] for r in f.proof["levels"])
    certified = f.certified
    return ExactMinimum(float(L), best.privacy, best.utility, list(best.quantization), 0, certified,
                        float(L if certified else min(bound, L)), "solver")
