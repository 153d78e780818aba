"""A small linear integer model and its two back ends: OR-Tools CP-SAT and HiGHS (scipy.optimize.milp).

The threshold models of paper 003's problems (3), (5) and (10) (Ding & Farokhi, *Developing Non-Stochastic
Privacy-Preserving Policies Using Agglomerative Clustering*, Sections IV-V) are built once as bounded integer
variables and linear rows, optionally enforced by a binary literal (big-M rows for HiGHS), and handed to
either solver; :mod:`.solver` compares the two (CP-SAT by default when installed).
"""

from __future__ import annotations

import math

import numpy as np

from .solver_bounds import _NO_DEADLINE, _Deadline, _OutOfTime

__all__: list[str] = []


class _Model:
    """Binary/integer variables and linear constraints lo <= sum c·v <= hi, optionally enforced by a literal."""

    def __init__(self):
        self.lb: list[int] = []
        self.ub: list[int] = []
        self.cons: list[tuple[dict, float, float, int | None]] = []
        self.objective: dict = {}            # minimised when not empty

    def var(self, lo: int = 0, hi: int = 1) -> int:
        self.lb.append(lo)
        self.ub.append(hi)
        return len(self.lb) - 1

    def add(self, coefs: dict, lo: float = -math.inf, hi: float = math.inf, enforce: int | None = None) -> None:
        self.cons.append((coefs, lo, hi, enforce))


def _solve(model: _Model, solver: str, time_limit: float | None, hint: dict | None,
           deadline: _Deadline = _NO_DEADLINE):
    """Solve ``model``: (status, values, objective bound) with status "optimal" (objective proven; for a
    feasibility model: a solution), "feasible" (a solution, objective not proven), "infeasible" or "unknown".
    Handing the model to the solver checks ``deadline`` too (raises :class:`_OutOfTime`)."""
    if time_limit is not None and time_limit <= 0:
        return "unknown", None, None
    if solver == "cp-sat":
        return _solve_cpsat(model, time_limit, hint, deadline)
    return _solve_highs(model, time_limit, deadline)


def _solve_cpsat(model: _Model, time_limit, hint, deadline: _Deadline = _NO_DEADLINE):
    from ortools.sat.python import cp_model

    m = cp_model.CpModel()
    v = [m.NewIntVar(int(lo), int(hi), "") for lo, hi in zip(model.lb, model.ub)]
    for t, (coefs, lo, hi, enf) in enumerate(model.cons):
        if t % 512 == 0:
            deadline.check()
        expr = sum(int(c) * v[k] for k, c in coefs.items())
        lo_i = -(2 ** 62) if lo == -math.inf else int(lo)
        hi_i = 2 ** 62 if hi == math.inf else int(hi)
        ct = m.AddLinearConstraint(expr, lo_i, hi_i)
        if enf is not None:
            ct.OnlyEnforceIf(v[enf])
    if hint:
        for k, val in hint.items():
            m.AddHint(v[k], int(val))
    if model.objective:
        m.Minimize(sum(int(c) * v[k] for k, c in model.objective.items()))
    s = cp_model.CpSolver()
    s.parameters.num_workers = 2
    left = deadline.left()
    if left is not None:
        time_limit = left if time_limit is None else min(time_limit, left)
        if time_limit <= 0:
            raise _OutOfTime
    if time_limit is not None:
        s.parameters.max_time_in_seconds = float(time_limit)
    st = s.Solve(m)
    if st == cp_model.OPTIMAL or (st == cp_model.FEASIBLE and not model.objective):
        return "optimal", [s.Value(x) for x in v], s.ObjectiveValue() if model.objective else None
    if st == cp_model.FEASIBLE:
        return "feasible", [s.Value(x) for x in v], s.BestObjectiveBound()
    if st == cp_model.INFEASIBLE:
        return "infeasible", None, None
    return "unknown", None, None


def _solve_highs(model: _Model, time_limit, deadline: _Deadline = _NO_DEADLINE):
    from scipy.optimize import Bounds, LinearConstraint, milp
    from scipy.sparse import coo_matrix

    nv = len(model.lb)
    lb = np.array(model.lb, dtype=float)
    ub = np.array(model.ub, dtype=float)
    rows, cols, vals, los, his = [], [], [], [], []
    r = 0
    for t, (coefs, lo, hi, enf) in enumerate(model.cons):
        if t % 512 == 0:
            deadline.check()
        items = list(coefs.items())
        if enf is None:
            for k, c in items:
                rows.append(r), cols.append(k), vals.append(float(c))
            los.append(lo), his.append(hi)
            r += 1
            continue
        # big-M: the constraint holds when z = 1, is void when z = 0
        mx = sum(c * (ub[k] if c > 0 else lb[k]) for k, c in items)
        mn = sum(c * (lb[k] if c > 0 else ub[k]) for k, c in items)
        if hi != math.inf:
            M = max(0.0, mx - hi)
            row = dict(items)
            row[enf] = row.get(enf, 0) + M
            for k, c in row.items():
                rows.append(r), cols.append(k), vals.append(float(c))
            los.append(-np.inf), his.append(hi + M)
            r += 1
        if lo != -math.inf:
            M = max(0.0, lo - mn)
            row = dict(items)
            row[enf] = row.get(enf, 0) - M
            for k, c in row.items():
                rows.append(r), cols.append(k), vals.append(float(c))
            los.append(lo - M), his.append(np.inf)
            r += 1
    A = coo_matrix((vals, (rows, cols)), shape=(max(r, 1), nv)).tocsr()
    if r == 0:
        los, his = [-np.inf], [np.inf]
    opts = {"disp": False}
    left = deadline.left()
    if left is not None:
        time_limit = left if time_limit is None else min(time_limit, left)
        if time_limit <= 0:
            raise _OutOfTime
    if time_limit is not None:
        opts["time_limit"] = float(time_limit)
    c = np.zeros(nv)
    for k, v in model.objective.items():
        c[k] = v
    res = milp(c, constraints=LinearConstraint(A, np.array(los, float), np.array(his, float)),
               integrality=np.ones(nv), bounds=Bounds(lb, ub), options=opts)
    if res.x is not None and res.status == 0:
        return "optimal", [int(round(x)) for x in res.x], float(res.fun)
    if res.x is not None and res.status == 1:
        if not model.objective:
            return "optimal", [int(round(x)) for x in res.x], None
        bound = getattr(res, "mip_dual_bound", None)
        return "feasible", [int(round(x)) for x in res.x], None if bound is None or not np.isfinite(bound) else float(bound)
    if res.status == 2:
        return "infeasible", None, None
    return "unknown", None, None
