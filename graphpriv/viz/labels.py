"""Ordering public values for display: numbers numerically, text naturally (``x2`` before ``x10``).

Every view that lists public values (matrix columns, dendrogram leaves, cluster labels) sorts them
with :func:`label_key`, so 92 comes before 100 and ``x9`` before ``x10`` everywhere.
"""

from __future__ import annotations

import math
import numbers
import re

__all__ = ["label_key", "sort_labels", "cluster_label"]

_DIGITS = re.compile(r"(\d+)")


def label_key(label) -> tuple:
    """Sort key of a public label: numbers first in numeric order, then text in natural order, then
    tuples element-wise, the missing value (``gp.MISSING``) and anything else last.

    Examples
    --------
    >>> sorted([100, 92, 5.5], key=label_key)
    [5.5, 92, 100]
    >>> sorted(["x10", "x2", "x1"], key=label_key)
    ['x1', 'x2', 'x10']
    """
    if isinstance(label, bool):
        return (0, float(label), "")
    if isinstance(label, numbers.Real):
        v = float(label)
        return (0, v if not math.isnan(v) else math.inf, "")
    if isinstance(label, str):
        parts = _DIGITS.split(label)
        return (1, 0.0, tuple((0, int(p), "") if p.isdigit() else (1, 0, p) for p in parts if p != ""))
    if isinstance(label, tuple):
        return (2, 0.0, tuple(label_key(v) for v in label))
    return (3, 0.0, repr(label))


def sort_labels(labels) -> list:
    """``labels`` sorted by :func:`label_key`."""
    return sorted(labels, key=label_key)


def _is_number(x) -> bool:
    return isinstance(x, numbers.Real) and not isinstance(x, bool)


def _num_text(x) -> str:
    if isinstance(x, float) and x.is_integer():
        return str(int(x))
    return str(x.item() if hasattr(x, "item") else x)


def cluster_label(members, universe=None, *, max_members: int = 4, math: bool = False) -> str:
    """Short, unambiguous text for a cluster of public values, members in :func:`label_key` order.

    * one member: the value itself (:func:`graphpriv.viz.format_label`);
    * up to ``max_members`` members: all of them (``"85, 132"``, or :math:`x_{13}` for paper-style labels);
    * numbers that are consecutive in ``universe`` (every public value between the smallest and the largest
      member belongs to the cluster): ``"92–122 (13)"``;
    * otherwise the first two, an ellipsis, the last and the count: ``"85, 100, …, 603 (40)"``.

    Parameters
    ----------
    members : iterable of public labels
    universe : iterable of public labels, optional
        All public values (to decide whether a numeric cluster is a contiguous range).
    max_members : int
        Largest cluster written out in full.
    math : bool
        Typeset paper-style labels with mathtext (``$x_{13}$``).

    Examples
    --------
    >>> cluster_label([100, 92, 105], universe=[92, 100, 105, 130])
    '92, 100, 105'
    >>> cluster_label([92, 98, 100, 105, 122], universe=[92, 98, 100, 105, 122, 130], max_members=3)
    '92–122 (5)'
    >>> cluster_label([92, 100, 105, 122, 140], universe=[92, 98, 100, 105, 122, 140], max_members=3)
    '92, 100, …, 140 (5)'
    >>> cluster_label(["x3", "x1"], math=True)
    '$x_{13}$'
    """
    from .graphs import format_label

    ms = sort_labels(set(members))
    if not ms:
        return "{}"
    if len(ms) == 1:
        return format_label(ms[0], math=math)
    numeric = all(_is_number(m) for m in ms)
    from .graphs import _LABEL_RE

    paper_style = not numeric and all(_LABEL_RE.match(str(m)) for m in ms) and len({_LABEL_RE.match(str(m)).group(1) for m in ms}) == 1
    if len(ms) <= max_members:
        if paper_style:
            return format_label(tuple(ms), math=math)
        return ", ".join(_num_text(m) if _is_number(m) else format_label(m, math=False) for m in ms)
    text = _num_text if numeric else (lambda m: format_label(m, math=False))
    if numeric and universe is not None:
        lo, hi = label_key(ms[0]), label_key(ms[-1])
        inside = sum(1 for u in set(universe) if lo <= label_key(u) <= hi)
        if inside == len(ms):
            return f"{text(ms[0])}–{text(ms[-1])} ({len(ms)})"
    return f"{text(ms[0])}, {text(ms[1])}, …, {text(ms[-1])} ({len(ms)})"
