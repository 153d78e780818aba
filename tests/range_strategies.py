"""Hypothesis strategies shared by the graph tests: small joint ranges as random 0/1 matrices."""

import numpy as np
from hypothesis import strategies as st

import graphpriv as gp


@st.composite
def small_ranges(draw, max_s=6, max_x=8):
    """A joint range of at most ``max_s`` sensitive and 2..``max_x`` public values, every value in a pair."""
    ns = draw(st.integers(1, max_s))
    nx_ = draw(st.integers(2, max_x))
    bits = draw(st.lists(st.booleans(), min_size=ns * nx_, max_size=ns * nx_))
    m = np.array(bits, dtype=bool).reshape(ns, nx_)
    # every public value needs a sensitive value: attach one where missing
    for j in range(nx_):
        if not m[:, j].any():
            m[draw(st.integers(0, ns - 1)), j] = True
    m = m[m.any(axis=1)]
    return gp.JointRange.from_matrix(m)
