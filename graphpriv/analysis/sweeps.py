"""Frontier sweeps over many datasets, run sequentially, on local workers or on a dask cluster.

One privacy-utility frontier per joint range (Ding & Farokhi, *Developing Non-Stochastic
Privacy-Preserving Policies Using Agglomerative Clustering*, Algorithms 1-2 and Section V-C, traced
over every λ by :func:`graphpriv.pareto_frontier`). Every dataset is an independent job of
:func:`graphpriv.parallel.parallel_map`, so the frontiers are the same whichever way the sweep runs.
"""

from __future__ import annotations

from functools import partial
from typing import Any, Mapping

from ..errors import InputTypeError
from ..parallel import parallel_map
from ..ranges import JointRange

__all__ = ["frontier_sweep"]


def _one_frontier(item, objective: str, utility: Any, lams, base: float, tie_rule: str):
    from ..mechanisms import pareto_frontier

    jr, values = item
    return pareto_frontier(jr, objective, utility, values, lams, base=base, tie_rule=tie_rule)


def _as_item(inst, where: str):
    jr, values = inst if isinstance(inst, tuple) and len(inst) == 2 else (inst, None)
    if not isinstance(jr, JointRange):
        raise InputTypeError(f"{where} must be a JointRange or a (JointRange, values) pair, got {type(jr).__name__}")
    return jr, values


def frontier_sweep(ranges, objective: str, utility: Any = "U1", lams=None, *, base: float = 2, tie_rule: str = "paper",
                   n_jobs: int = 1, backend: str | None = None, client=None, progress: bool | None = False):
    """The privacy-utility frontier of every dataset of a collection (:func:`graphpriv.pareto_frontier` each).

    Parameters
    ----------
    ranges : sequence or mapping
        Items ``jr`` or ``(jr, values)`` (values for U2 or a callable utility); a mapping name -> item
        gives a dict with the same keys.
    objective, utility, lams, base, tie_rule
        As in :func:`graphpriv.pareto_frontier`, the same for every dataset.
    n_jobs, backend, client
        Run the datasets in parallel: local joblib workers, or a dask cluster (a
        ``distributed.Client`` or a scheduler address); see :func:`graphpriv.parallel.parallel_map`.
    progress : bool or None
        tqdm progress bar over datasets (None: only on a terminal).

    Returns
    -------
    list of Frontier, or dict name -> Frontier for a mapping
        In the order of ``ranges``; identical whichever way the sweep runs.

    Examples
    --------
    >>> import graphpriv as gp
    >>> ranges = [gp.random_joint_range(8, 6, 0.3, seed=s) for s in range(3)]
    >>> fronts = gp.frontier_sweep(ranges, "I*")
    >>> [len(f) for f in fronts] == [len(gp.pareto_frontier(jr, "I*")) for jr in ranges]
    True
    """
    named = isinstance(ranges, Mapping)
    keys = list(ranges.keys()) if named else None
    try:
        raw = list(ranges.values()) if named else list(ranges)
    except TypeError:
        raise InputTypeError(f"ranges must be a sequence or a mapping of joint ranges, got {type(ranges).__name__}") from None
    items = [_as_item(inst, f"ranges[{keys[i] if named else i}]") for i, inst in enumerate(raw)]
    run = partial(_one_frontier, objective=objective, utility=utility, lams=lams, base=base, tie_rule=tie_rule)
    fronts = parallel_map(run, items, n_jobs=n_jobs, backend=backend, client=client, progress=progress, desc="frontiers")
    return dict(zip(keys, fronts)) if named else fronts
