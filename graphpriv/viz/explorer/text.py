"""Short texts of clusters for the explorer, in time independent of the number of public values.

:func:`graphpriv.viz.labels.cluster_label` sorts a cluster's members and, to decide whether a numeric cluster
is a contiguous range, scans the whole universe of public values: a page that labels thousands of
clusters of a 10^4-value range would call it millions of times. :class:`Labeller` ranks the public
values once (:func:`graphpriv.viz.labels.label_key` order) and gives the same text as
:func:`~graphpriv.viz.labels.cluster_label` with the universe, from the members' codes.
"""

from __future__ import annotations

import numpy as np

from ..labels import _is_number, _num_text, cluster_label, format_label, label_key

__all__ = ["Labeller"]


class Labeller:
    """Texts of clusters of the public values ``labels`` (a trace's ``public_labels``).

    Examples
    --------
    >>> from graphpriv.viz.explorer.text import Labeller
    >>> lab = Labeller([92, 100, 105, 98, 122, 130])
    >>> lab.cluster([0, 1, 2, 3, 4], max_members=3)      # the same text as cluster_label with the universe
    '92–122 (5)'
    >>> lab.cluster([0, 1, 2, 4, 5], max_members=3)
    '92, 100, …, 130 (5)'
    """

    def __init__(self, labels):
        self.labels = list(labels)
        n = len(self.labels)
        order = sorted(range(n), key=lambda i: label_key(self.labels[i]))
        self.rank = np.empty(n, dtype=np.int64)
        self.rank[order] = np.arange(n)
        self.numeric = np.array([_is_number(x) for x in self.labels], dtype=bool)
        self._text: list[str | None] = [None] * n

    @classmethod
    def of(cls, labels) -> "Labeller":
        """The labeller of ``labels``, reused while the same tuple object is asked for (a trace's
        ``public_labels``: the explorer's payload and its candidate table share one ranking)."""
        last = getattr(cls, "_last", None)
        if last is not None and last[0] is labels:
            return last[1]
        lab = cls(labels)
        cls._last = (labels, lab)
        return lab

    def text(self, code: int) -> str:
        """:func:`graphpriv.viz.labels.format_label` of one public value (plain text), cached."""
        s = self._text[code]
        if s is None:
            s = self._text[code] = format_label(self.labels[code], math=False)
        return s

    def sorted_codes(self, codes) -> np.ndarray:
        """``codes`` in :func:`label_key` order of their labels."""
        codes = np.asarray(codes, dtype=np.int64)
        return codes[np.argsort(self.rank[codes], kind="stable")]

    def cluster(self, codes, *, max_members: int = 4) -> str:
        """:func:`graphpriv.viz.labels.cluster_label` of the cluster of public codes ``codes``, universe = all labels."""
        codes = self.sorted_codes(codes)
        m = len(codes)
        if m == 0:
            return "{}"
        if m <= max_members:
            return cluster_label([self.labels[i] for i in codes.tolist()], max_members=max_members)
        numeric = bool(self.numeric[codes].all())
        first, second, last = (self.labels[i] for i in (codes[0], codes[1], codes[-1]))
        text = _num_text if numeric else (lambda x: format_label(x, math=False))
        ranks = self.rank[codes]
        if int(ranks[-1] - ranks[0]) + 1 == m:
            return f"{text(first)}–{text(last)} ({m})"
        return f"{text(first)}, {text(second)}, …, {text(last)} ({m})"
