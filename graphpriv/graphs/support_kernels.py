"""Compiled union-find over the pairs of a joint range: the components of its bipartite support
graph in one pass over the CSR arrays, with memory for one parent per node (no adjacency, no
transpose; :func:`scipy.sparse.csgraph.connected_components` first copies both, with float64 data,
about 30 bytes a pair). numba compiles it once per machine (``cache=True``)."""

from __future__ import annotations

import numba
import numpy as np

__all__ = ["union_find_labels"]


@numba.njit(cache=True, nogil=True)
def _find(parent, a):
    while parent[a] != a:
        parent[a] = parent[parent[a]]          # path halving
        a = parent[a]
    return a


@numba.njit(cache=True, nogil=True)
def union_find_labels(indptr, indices, n_s, n_x):
    """(number of components, component id of each node) of the bipartite graph whose node ``s`` (a
    row) is joined to node ``n_s + x`` for every ``x`` in ``indices[indptr[s]:indptr[s + 1]]``; ids
    are numbered in the order of the nodes' first appearance (node 0 first)."""
    n = n_s + n_x
    parent = np.arange(n)
    for s in range(n_s):
        for p in range(indptr[s], indptr[s + 1]):
            a = _find(parent, s)
            b = _find(parent, n_s + indices[p])
            if a != b:
                if a < b:
                    parent[b] = a
                else:
                    parent[a] = b
    labels = np.empty(n, np.int64)
    ids = np.full(n, -1, np.int64)
    count = 0
    for v in range(n):
        r = _find(parent, v)
        if ids[r] < 0:
            ids[r] = count
            count += 1
        labels[v] = ids[r]
    return count, labels
