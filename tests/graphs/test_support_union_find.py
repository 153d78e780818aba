"""The compiled union-find that finds the components of large ranges (``graphpriv.graphs.support``,
from ``UNION_FIND_PAIRS`` pairs on) gives exactly scipy's components, ids and all, on random
ranges; and ``gp.components`` uses it past the threshold."""

import numpy as np
import scipy.sparse as sp
from hypothesis import given, settings
from hypothesis import strategies as st

import graphpriv as gp
from graphpriv.graphs import support


@settings(max_examples=80, deadline=None)
@given(st.sets(st.tuples(st.integers(0, 11), st.integers(0, 14)), min_size=1, max_size=60))
def test_union_find_equals_scipy(pairs):
    s = np.array([p[0] for p in pairs])
    x = np.array([p[1] for p in pairs])
    _, s = np.unique(s, return_inverse=True)          # every label in a pair, as in a joint range
    _, x = np.unique(x, return_inverse=True)
    m = sp.csr_array((np.ones(len(s), bool), (s, x)), shape=(s.max() + 1, x.max() + 1))
    m.sum_duplicates()
    old = support.UNION_FIND_PAIRS
    try:
        support.UNION_FIND_PAIRS = 1 << 60
        want = support.support_components(m)
        support.UNION_FIND_PAIRS = 0
        got = support.support_components(m)
    finally:
        support.UNION_FIND_PAIRS = old
    assert got.n_components == want.n_components
    assert got.public.tolist() == want.public.tolist() and got.sensitive.tolist() == want.sensitive.tolist()


def test_components_of_a_large_range_use_the_union_find(monkeypatch):
    """Past the threshold gp.components agrees with networkx on the paper's example range."""
    import networkx as nx

    monkeypatch.setattr(support, "UNION_FIND_PAIRS", 1)
    jr, _ = gp.datasets.paper_example()
    c = gp.components(jr)
    g = nx.Graph([(("s", i), ("x", j)) for i, j in zip(*jr.matrix.nonzero())])
    assert c.n_components == nx.number_connected_components(g) == 5
    assert c.public.tolist() == [0, 0, 1, 1, 2, 3, 4]
