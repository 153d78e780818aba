"""Coordinates of a merge hierarchy without recursion.

:func:`scipy.cluster.hierarchy.dendrogram` walks the tree recursively, once per level: a trace whose
hierarchy is a chain of about 1,000 joins (a mechanism that stopped early, completed by one join per
left-over cluster) exceeds Python's recursion limit. Every view of a merge hierarchy (the static
dendrogram, the interactive explorer) takes its coordinates from :func:`dendrogram_coordinates`, which
reads the linkage row by row in O(n) and gives the same leaf order and link coordinates as scipy's
``dendrogram(Z, no_plot=True)`` wherever scipy can draw the tree.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

__all__ = ["DendrogramCoordinates", "dendrogram_coordinates"]


@dataclass(frozen=True)
class DendrogramCoordinates:
    """Layout of a linkage matrix, in scipy's dendrogram units (leaf ``i`` of the order at x = 5 + 10 i).

    Attributes
    ----------
    leaves : numpy.ndarray of int
        Leaf (public code) order, left to right (:func:`scipy.cluster.hierarchy.leaves_list`).
    x : numpy.ndarray of float, shape (2 n - 1,)
        Horizontal position of every node: leaves first, then node ``n + i`` for linkage row ``i``
        (the midpoint of its two children, as scipy draws it).
    height : numpy.ndarray of float, shape (2 n - 1,)
        Height of every node (0 for a leaf, ``Z[i, 2]`` for row ``i``).
    icoord, dcoord : numpy.ndarray of float, shape (n - 1, 4)
        The four corners of every link, row ``i`` for linkage row ``i`` (scipy's ``icoord``/``dcoord``,
        which list the links in drawing order instead).
    """

    leaves: np.ndarray
    x: np.ndarray
    height: np.ndarray
    icoord: np.ndarray
    dcoord: np.ndarray

    def segments(self, rows=None) -> np.ndarray:
        """The links as polylines of 4 points, shape (k, 4, 2), ready for one
        :class:`matplotlib.collections.LineCollection` (all links, or the linkage rows ``rows``)."""
        ic, dc = (self.icoord, self.dcoord) if rows is None else (self.icoord[rows], self.dcoord[rows])
        return np.stack([ic, dc], axis=-1)


def dendrogram_coordinates(Z) -> DendrogramCoordinates:
    """Leaf order and link coordinates of a linkage matrix, in O(n) and without recursion.

    Parameters
    ----------
    Z : array_like of shape (n - 1, 4)
        A scipy linkage matrix (for a trace: :meth:`graphpriv.MergeTrace.to_linkage` or
        :func:`graphpriv.viz.labels.hierarchy_linkage`).

    Returns
    -------
    DendrogramCoordinates

    Notes
    -----
    The leaf order is the in-order walk of the tree with the child in column 0 of each row on the left,
    as :func:`scipy.cluster.hierarchy.dendrogram` draws it; a node sits at the midpoint of its children.
    The walk uses an explicit stack, so any depth works (scipy's ``dendrogram`` recurses once per level).

    Examples
    --------
    >>> import numpy as np
    >>> from scipy.cluster.hierarchy import dendrogram
    >>> from graphpriv.viz.tree_layout import dendrogram_coordinates
    >>> Z = np.array([[0., 2., 1., 2.], [1., 3., 1., 2.], [4., 5., 2., 4.]])
    >>> c = dendrogram_coordinates(Z)
    >>> c.leaves.tolist() == dendrogram(Z, no_plot=True)["leaves"]
    True
    >>> c.icoord[-1].tolist()
    [10.0, 10.0, 30.0, 30.0]
    """
    Z = np.asarray(Z, dtype=float)
    m = Z.shape[0]
    n = m + 1
    left = Z[:, 0].astype(np.int64)
    right = Z[:, 1].astype(np.int64)
    # in-order walk from the root (the last row) with an explicit stack
    leaves = np.empty(n, dtype=np.int64)
    k = 0
    stack = [n + m - 1] if m else [0]
    while stack:
        v = stack.pop()
        if v < n:
            leaves[k] = v
            k += 1
        else:
            i = v - n
            stack.append(int(right[i]))
            stack.append(int(left[i]))
    x = np.zeros(n + m)
    x[leaves] = 5.0 + 10.0 * np.arange(n)
    height = np.zeros(n + m)
    height[n:] = Z[:, 2]
    for i in range(m):  # rows are in merge order: children come before their parent
        x[n + i] = 0.5 * (x[left[i]] + x[right[i]])
    xl, xr = x[left], x[right]
    icoord = np.column_stack([xl, xl, xr, xr])
    dcoord = np.column_stack([height[left], Z[:, 2], Z[:, 2], height[right]])
    return DendrogramCoordinates(leaves=leaves, x=x, height=height, icoord=icoord, dcoord=dcoord)
