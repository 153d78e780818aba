"""Greedy, better-than-greedy, interval-exact and exact side by side (paper 003's quantisation problems).

:func:`compare_searches` runs :func:`graphpriv.agglomerate` with ``search="greedy"`` and with the searches of
:data:`graphpriv.mechanisms.search.SEARCHES` on a set of instances, the best interval release
(:func:`graphpriv.interval_frontier`, ``"interval"``), and measures each against the exact minimum of
the Lagrangian: one exhaustive table per instance up to |X| = 11, above that the certified solver
frontier of :func:`graphpriv.exact_frontier` (with its proven lower bound when a time limit stops it).
"""

from __future__ import annotations

import math
import time
from functools import partial
from typing import Any, Sequence

import numpy as np
import pandas as pd

from ...errors import TooLargeError
from ...parallel import parallel_map
from .mechanism import agglomerate
from .problem import _Problem
from .exact import EXACT_MINIMUM_MAX_PUBLIC, _minimum_from_table, _partition_table, _solver_frontier
from .interval import interval_frontier

__all__ = ["compare_searches"]


def compare_searches(instances: Sequence, objective: str, lam, utility: Any = "U1", *, methods: Sequence[str] = ("greedy", "beam"),
                     exact: bool = True, repeat: int = 1, base: float = 2, n_jobs: int = 1, backend: str | None = None,
                     client=None, time_limit: float | None = None, **search_options) -> pd.DataFrame:
    """Side-by-side table of greedy, improved searches and the exact optimum on a set of instances.

    Parameters
    ----------
    instances : sequence of ``jr`` or ``(jr, values)``
    objective, utility, base
        As in :func:`graphpriv.agglomerate`.
    lam : float or sequence of float
        One row per instance and λ (the exact table is computed once per instance).
    methods : sequence of str
        ``"greedy"``, names in :data:`SEARCHES`, and ``"interval"`` (the best interval partition of the
        ordered values at each λ, read off :func:`graphpriv.interval_frontier`).
    exact : bool
        Add the exact minimum and the gaps ``gap_<method> = L - L_exact``: by enumeration up to |X| = 11
        (:func:`graphpriv.exact_minimum`), above by the solver frontier of :func:`graphpriv.exact_frontier`,
        whose ``bound_exact`` (proven lower bound on the minimum) and ``certified_exact`` are reported too.
    time_limit : float, optional
        Seconds per instance for the solver (|X| > 11).
    repeat : int
        Runs per method for the timings (the minimum is kept).
    n_jobs, backend, client
        Run the instances in parallel: local joblib workers, or a dask cluster (a
        ``distributed.Client`` or a scheduler address); see :func:`graphpriv.parallel.parallel_map`.
        Every column but the timings equals the serial run's.
    **search_options
        Passed to every non-greedy search.

    Returns
    -------
    pandas.DataFrame
        One row per (instance, λ): ``instance``, ``lam``, ``n_public``, ``L_<method>``, ``time_<method>``
        (seconds), and with ``exact``: ``L_exact``, ``bound_exact``, ``certified_exact``, ``time_exact``,
        ``gap_<method>`` (L, privacy - λ·utility, is unitless: privacy in bits and utility in its own units,
        weighted by λ).

    Examples
    --------
    >>> import graphpriv as gp
    >>> inst = [gp.random_joint_range(6, 7, 0.3, seed=s) for s in range(3)]
    >>> t = gp.compare_searches(inst, "I*", [0.5, 2.0])
    >>> len(t), bool((t["gap_beam"] <= t["gap_greedy"] + 1e-12).all())
    (6, True)
    """
    lams = [float(lm) for lm in ([lam] if np.ndim(lam) == 0 else list(lam))]
    run = partial(_compare_instance, objective=objective, lams=lams, utility=utility, methods=tuple(methods), exact=exact,
                  repeat=repeat, base=base, search_options=search_options, time_limit=time_limit)
    per_instance = parallel_map(run, list(enumerate(instances)), n_jobs=n_jobs, backend=backend, client=client)
    rows = [row for rows in per_instance for row in rows]
    return pd.DataFrame(rows)


def _compare_instance(item, objective, lams, utility, methods, exact, repeat, base, search_options, time_limit=None) -> list[dict]:
    """Rows of :func:`compare_searches` for one instance (a job of its parallel map)."""
    k, inst = item
    jr, values = inst if isinstance(inst, tuple) else (inst, None)
    table = prob = front = None
    t_exact = 0.0
    if exact:
        prob = _Problem(jr, objective, utility, values, base)
        t0 = time.perf_counter()
        if prob.n <= EXACT_MINIMUM_MAX_PUBLIC:
            table = _partition_table(prob)
        else:
            front = _solver_frontier(prob, values, time_limit, "auto")
        t_exact = time.perf_counter() - t0
    interval = None
    rows = []
    for lm in lams:
        row = {"instance": k, "lam": lm, "n_public": jr.n_public, "n_sensitive": jr.n_sensitive}
        for m in methods:
            best_t = math.inf
            for _ in range(max(1, int(repeat))):
                t0 = time.perf_counter()
                if m == "interval":
                    if interval is None:
                        interval = interval_frontier(jr, objective, utility, values, base=base)
                    L = min(p.privacy - lm * p.utility for p in interval.points)
                else:
                    opts = {} if m == "greedy" else search_options
                    L = agglomerate(jr, objective, lm, utility, values, search=m, base=base, **opts).L
                best_t = min(best_t, time.perf_counter() - t0)
            row[f"L_{m}"] = L
            row[f"time_{m}"] = best_t
        if exact:
            if table is not None:
                e = _minimum_from_table(prob, table, lm)
                row["L_exact"], row["bound_exact"], row["certified_exact"] = e.L, e.L, True
            else:
                L = min(p.privacy - lm * p.utility for p in front.points)
                bound = min(r["privacy"] - lm * r["bound"] for r in front.proof["levels"])
                row["L_exact"], row["certified_exact"] = L, front.certified
                row["bound_exact"] = L if front.certified else min(L, bound)
            row["time_exact"] = t_exact
            for m in methods:
                row[f"gap_{m}"] = max(0.0, row[f"L_{m}"] - row["L_exact"])
        rows.append(row)
    return rows
