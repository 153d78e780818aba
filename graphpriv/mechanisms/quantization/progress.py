"""Progress of long merge runs: a callback told after every recorded merge step.

Algorithms 1 and 2 and Section V-C of Ding & Farokhi (*Developing Non-Stochastic Privacy-Preserving
Policies Using Agglomerative Clustering*, Section V) run one merge step after another on a
:class:`~graphpriv.Contraction`; on 10^5-10^6 public values a run takes minutes. Inside
``with merge_progress(callback):`` every recorded step calls ``callback(n_clusters, n_components)``
of the contraction that recorded it, so a command line or notebook can show a progress bar without
the mechanisms knowing about it. Outside such a block the cost is one context-variable lookup per step.

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
from typing import Callable

__all__ = ["merge_progress", "report_step"]

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
