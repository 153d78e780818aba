"""Distinct pairs already in CSR order become the counts matrix without the COO -> CSR copy
(``graphpriv.ranges._sorted_csr``): the matrix equals scipy's conversion, and pairs out of that
order (or repeated) are refused, so the general path handles them."""

import numpy as np
import scipy.sparse as sp
from hypothesis import given, settings
from hypothesis import strategies as st

from graphpriv.ranges import _sorted_csr


@settings(max_examples=80, deadline=None)
@given(st.sets(st.tuples(st.integers(0, 6), st.integers(0, 9)), min_size=1, max_size=40), st.randoms(use_true_random=False),
       st.sampled_from([np.int32, np.int64]), st.integers(1, 7))
def test_sorted_csr_equals_scipy(pairs, rnd, dtype, block):
    pairs = sorted(pairs)
    s = np.array([p[0] for p in pairs], dtype)
    x = np.array([p[1] for p in pairs], dtype)
    counts = np.arange(1, len(pairs) + 1, dtype=np.int64)
    shape = (7, 10)
    want = sp.coo_array((counts, (s, x)), shape=shape).tocsr()
    got = _sorted_csr(s, x, counts, shape, block=block)
    assert got is not None and got.has_canonical_format
    assert (got != want).nnz == 0 and got.shape == shape
    order = list(range(len(pairs)))
    rnd.shuffle(order)
    if order != sorted(order):
        assert _sorted_csr(s[order], x[order], counts[order], shape, block=block) is None
    if len(pairs) > 1:                                  # a repeated pair is not CSR order either
        assert _sorted_csr(np.repeat(s, 2), np.repeat(x, 2), np.repeat(counts, 2), shape, block=block) is None
