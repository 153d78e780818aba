"""Progress of long merge runs: a callback told after every recorded merge step.

Algorithms 1 and 2 and Section V-C of Ding & Farokhi (*Developing Non-Stochastic Privacy-Preserving
Policies Using Agglomerative Clustering*, Section V) run one merge step after another on a
:class:`~graphpriv.Contraction`; on 10^5-10^6 public values a run takes minutes. Inside
``with merge_progress(callback):`` every recorded step calls ``callback(n_clusters, n_components)``
of the contraction that recorded it, so a command line or notebook can show a progress bar without
the mechanisms knowing about it. Outside such a block the cost is one context-variable lookup per step.

Certified solves (:func:`graphpriv.exact_frontier` with ``method="solver"``) take minutes on a few hundred
values; their ``progress=`` argument reports each privacy level with the incumbent utility and the proven
bound (:func:`solve_progress`, one line per level from :func:`format_solve_record`, written only to a
terminal).

>>> import graphpriv as gp
>>> from graphpriv.mechanisms.quantization.progress import merge_progress
>>> seen = []
>>> jr, _ = gp.datasets.paper_example()
>>> with merge_progress(lambda clusters, components: seen.append(clusters)):
...     _ = gp.agglomerate(jr, "I*", 0.3)
>>> seen
[6, 5, 4, 3]
"""

from __future__ import annotations

import contextlib
import contextvars
from typing import Any, Callable

__all__ = ["merge_progress", "report_step", "format_solve_record", "solve_progress"]

_CALLBACK: contextvars.ContextVar[Callable[[int, int], None] | None] = contextvars.ContextVar(
    "graphpriv_merge_progress", default=None)


@contextlib.contextmanager
def merge_progress(callback: Callable[[int, int], None]):
    """Call ``callback(n_clusters, n_components)`` after every merge step recorded inside the block."""
    token = _CALLBACK.set(callback)
    try:
        yield
    finally:
        _CALLBACK.reset(token)


def report_step(n_clusters: int, n_components: int) -> None:
    """Tell the active callback (if any) that a step left ``n_clusters`` clusters in ``n_components`` components."""
    cb = _CALLBACK.get()
    if cb is not None:
        cb(n_clusters, n_components)


def format_solve_record(record: dict) -> str:
    """One line for a privacy level of a certified solve: the incumbent utility, the proven bound, the time.

    >>> from graphpriv.mechanisms.quantization.progress import format_solve_record
    >>> format_solve_record({"level": 3, "privacy": 1.5, "utility": 2.0, "bound": 2.25, "status": "feasible",
    ...                      "done": 4, "levels": 10, "sweep": 0, "seconds": 12.0})
    'exact: level 4/10 (privacy 1.5): incumbent utility 2, bound 2.25 (gap 0.25), 12.0 s'
    """
    gap = record["bound"] - record["utility"]
    proof = "optimal" if record.get("status") == "optimal" else f"bound {record['bound']:.6g} (gap {gap:.3g})"
    again = " (second pass)" if record.get("sweep", 0) else ""
    return (f"exact: level {record['done']}/{record['levels']}{again} (privacy {record['privacy']:.6g}): "
            f"incumbent utility {record['utility']:.6g}, {proof}, {record['seconds']:.1f} s")


def solve_progress(progress: Any) -> Callable[[dict], None] | None:
    """The per-level callback of a certified solve for a ``progress=`` argument.

    ``False`` or ``None``: none (the levels still go to the ``graphpriv`` logger at DEBUG level); ``True``:
    one line per privacy level on standard error with the incumbent and the proven bound, only when
    standard error is a terminal; a callable: called with each level's record (a dict with ``level``,
    ``privacy``, ``utility`` (incumbent), ``bound``, ``status``, ``done``, ``levels``, ``seconds``).
    """
    import logging
    import sys

    log = logging.getLogger("graphpriv")
    if progress is None or progress is False:
        def cb(record):
            log.debug(format_solve_record(record))
        return cb
    if progress is True:
        stream = sys.stderr
        tty = bool(getattr(stream, "isatty", lambda: False)())

        def cb(record):
            line = format_solve_record(record)
            log.debug(line)
            if tty:
                print(line, file=stream, flush=True)
        return cb
    if callable(progress):
        return progress
    from ...errors import InputTypeError

    raise InputTypeError(f"progress must be True, False or a callable taking one dict per privacy level, got {progress!r}")
