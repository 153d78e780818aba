"""The iterative dendrogram layout equals scipy's dendrogram wherever scipy can draw the tree, and
handles chains far deeper than Python's recursion limit."""

import numpy as np
from hypothesis import given, settings, strategies as st
from scipy.cluster.hierarchy import dendrogram, linkage

from graphpriv.viz.tree_layout import dendrogram_coordinates


@settings(max_examples=60, deadline=None)
@given(st.integers(2, 40), st.integers(0, 10**6), st.sampled_from(["single", "average", "complete"]))
def test_equals_scipy_dendrogram(n, seed, method):
    rng = np.random.default_rng(seed)
    Z = linkage(rng.integers(0, 5, size=(n, 1)).astype(float), method)
    R = dendrogram(Z, no_plot=True)
    c = dendrogram_coordinates(Z)
    assert c.leaves.tolist() == R["leaves"]
    mine = sorted(map(tuple, np.round(np.hstack([c.icoord, c.dcoord]), 9).tolist()))
    theirs = sorted(map(tuple, np.round(np.hstack([R["icoord"], R["dcoord"]]), 9).tolist()))
    assert mine == theirs


def test_chain_deeper_than_recursion_limit():
    n = 20_000
    Z = np.zeros((n - 1, 4))
    Z[0] = [0, 1, 1, 2]
    for i in range(1, n - 1):
        Z[i] = [n + i - 1, i + 1, i + 1, i + 2]
    c = dendrogram_coordinates(Z)
    assert c.leaves.tolist() == list(range(n))
    assert c.segments().shape == (n - 1, 4, 2)
    assert c.x[-1] > c.x[0]
