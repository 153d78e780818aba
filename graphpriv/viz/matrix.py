"""The matrix view of a quantised joint range [[S, X̂(t)]], legible at any size.

Columns are the original public values, ordered by component of G_X̂(t), then by cluster of Q(t),
then by value (:func:`column_order`), so every cluster is a contiguous band of columns and every
component a contiguous block; rows are the sensitive values. This is the picture of paper 003
(Ding & Farokhi, *Developing Non-Stochastic Privacy-Preserving Policies Using Agglomerative
Clustering*, Fig. 1) with the quantisation drawn on it.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from ..errors import InputTypeError
from ..ranges import JointRange
from .labels import label_key

__all__ = ["column_order", "matrix_bands", "MatrixBands"]


@dataclass(frozen=True)
class MatrixBands:
    """Column layout of the matrix view at step t (see :func:`matrix_bands`).

    Attributes
    ----------
    order : numpy.ndarray of int
        Public codes in display order (column j shows public value ``order[j]``).
    cluster : numpy.ndarray of int
        Cluster index (smallest member code) of each displayed column.
    component : numpy.ndarray of int
        Component id (smallest public code of the component of G_X̂(t)) of each displayed column.
    cluster_bounds : list of (int, int)
        Half-open column ranges [start, stop) of the clusters, left to right.
    component_bounds : list of (int, int)
        Half-open column ranges of the components, left to right.
    """

    order: np.ndarray
    cluster: np.ndarray
    component: np.ndarray
    cluster_bounds: list
    component_bounds: list


def _runs(ids: np.ndarray) -> list[tuple[int, int]]:
    if len(ids) == 0:
        return []
    cuts = (np.flatnonzero(ids[1:] != ids[:-1]) + 1).tolist()
    bounds = [0, *cuts, len(ids)]
    return list(zip(bounds[:-1], bounds[1:]))


def _check_args(trace, jr, t):
    from ..mechanisms.trace import MergeTrace

    if not isinstance(trace, MergeTrace):
        raise InputTypeError(f"trace must be a graphpriv MergeTrace (e.g. gp.agglomerate(...).trace), got {type(trace).__name__}")
    if isinstance(jr, (int, np.integer)) and not isinstance(jr, bool) and t is None:
        jr, t = None, jr  # column_order(trace, t)
    if jr is not None:
        if not isinstance(jr, JointRange):
            raise InputTypeError(f"jr must be a graphpriv JointRange or None, got {type(jr).__name__}")
        from ..errors import InputError

        if tuple(jr.public_labels.tolist()) != tuple(trace.public_labels):
            raise InputError("jr does not have the public labels this trace was recorded on; pass the joint range the mechanism ran on")
    return trace._check_t(t)


def matrix_bands(trace, jr: JointRange | None = None, t: int | None = None) -> MatrixBands:
    """Column order and band boundaries of the matrix view of [[S, X̂(t)]].

    Components of G_X̂(t) are ordered by their smallest value, the clusters inside a component by
    their smallest value, and the values inside a cluster in increasing order (numeric order for
    numbers, natural order for text such as ``x2`` < ``x10``; see :func:`graphpriv.viz.labels.label_key`).

    Parameters
    ----------
    trace : MergeTrace
    jr : JointRange, optional
        The joint range the trace was recorded on (only checked for matching labels).
    t : int, optional
        Step (default: the returned step).

    Returns
    -------
    MatrixBands

    Examples
    --------
    >>> import graphpriv as gp
    >>> jr, _ = gp.datasets.paper_example()
    >>> tr = gp.agglomerate(jr, "I*", 0.3).trace
    >>> b = gp.viz.matrix_bands(tr, jr, 2)
    >>> [tr.public_labels[c] for c in b.order]
    ['x1', 'x3', 'x2', 'x5', 'x4', 'x6', 'x7']
    >>> b.cluster_bounds
    [(0, 2), (2, 4), (4, 5), (5, 6), (6, 7)]
    """
    t = _check_args(trace, jr, t)
    labels = trace.public_labels
    n = len(labels)
    cl = trace.cluster_ids(t)
    comp = trace.component_ids(t)
    rank = np.empty(n, dtype=np.int64)
    rank[sorted(range(n), key=lambda i: label_key(labels[i]))] = np.arange(n)
    # smallest value rank of each cluster and of each component
    cl_min = np.full(n, n, dtype=np.int64)
    np.minimum.at(cl_min, cl, rank)
    comp_min = np.full(n, n, dtype=np.int64)
    np.minimum.at(comp_min, comp, rank)
    order = np.lexsort((rank, cl_min[cl], comp_min[comp]))
    return MatrixBands(order=order, cluster=cl[order], component=comp[order],
                       cluster_bounds=_runs(cl[order]), component_bounds=_runs(comp[order]))


def column_order(trace, jr: JointRange | None = None, t: int | None = None) -> np.ndarray:
    """Public codes in the column order of the matrix view at step t: by component of G_X̂(t), then
    cluster of Q(t), then value, so each cluster is a contiguous band (see :func:`matrix_bands`).

    Examples
    --------
    >>> import graphpriv as gp
    >>> jr, _ = gp.datasets.paper_example()
    >>> tr = gp.agglomerate(jr, "I*", 0.3).trace
    >>> gp.viz.column_order(tr, jr, 1).tolist()
    [0, 2, 1, 3, 4, 5, 6]
    """
    return matrix_bands(trace, jr, t).order
