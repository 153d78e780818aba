"""The display order of public labels: numbers numerically, text naturally (``x2`` before ``x10``).

A dependency-free core used by the mechanisms (generalisation labels of a release) and by the views
(:mod:`graphpriv.viz.labels` re-exports :func:`label_key`).
"""

from __future__ import annotations

import math
import numbers
import re

__all__ = ["TimeText", "label_key"]

_DIGITS = re.compile(r"(\d+)")


class TimeText(str):
    """The ISO text of a date, time or timestamp used as a label (``"2020-01-31 13:45:00"``): text to
    every reader, and a mark that the labels are in time order, so that a release generalises a
    cluster of consecutive times as the interval ``[first, last]``."""

    __slots__ = ()

    def __reduce__(self):
        return (TimeText, (str(self),))


def label_key(label) -> tuple:
    """Sort key of a public label: numbers first in numeric order, then text in natural order, then
    tuples element-wise, the missing value (``gp.MISSING``) and anything else last.

    Examples
    --------
    >>> from graphpriv.viz.labels import label_key
    >>> sorted([100, 92, 5.5], key=label_key)
    [5.5, 92, 100]
    >>> sorted(["x10", "x2", "x1"], key=label_key)
    ['x1', 'x2', 'x10']
    """
    if isinstance(label, bool):
        return (0, float(label), "")
    if isinstance(label, numbers.Integral):       # exact: 2**64 - 1 and 2**64 - 2 are one float
        return (0, int(label), "")
    if isinstance(label, numbers.Real):
        v = float(label)
        return (0, v if not math.isnan(v) else math.inf, "")
    if isinstance(label, str):
        parts = _DIGITS.split(label)
        return (1, 0.0, tuple((0, int(p), "") if p.isdigit() else (1, 0, p) for p in parts if p != ""))
    if isinstance(label, tuple):
        return (2, 0.0, tuple(label_key(v) for v in label))
    return (3, 0.0, repr(label))
