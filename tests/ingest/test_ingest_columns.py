"""The distinct pairs of packed integer keys built range by range (``PackedCounter.columns``) equal the
keys and counts of ``PackedCounter.result`` unpacked at once, staged or in buckets, for many ranges,
buckets and pages, negative values and missing values."""

from collections import Counter

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st

from graphpriv.ingest import packed


@settings(max_examples=80, deadline=None)
@given(st.lists(st.tuples(st.integers(-3, 40), st.integers(-5, 3000)), min_size=1, max_size=120),
       st.integers(1, 6), st.booleans(), st.sampled_from([3, 40, 1 << 20]), st.integers(1, 3))
def test_columns_equal_unpacked_result(pairs, slice_keys, with_null, staging, workers):
    old = packed.SLICE_KEYS, packed.PAGE_KEYS
    packed.SLICE_KEYS, packed.PAGE_KEYS = slice_keys, 2          # many buckets and pages
    try:
        s = np.array([p[0] for p in pairs])
        x = np.array([p[1] for p in pairs])
        offsets = (-(2**30), -(2**31))
        sf = (s.astype(np.int64) - offsets[0]).astype(np.uint64)
        xf = (x.astype(np.int64) - offsets[1]).astype(np.uint64)
        if with_null:
            sf[::3] = packed.NULL_S
            xf[1::4] = packed.NULL_X
        outs = []
        for how in ("result", "columns"):
            with packed.PackedCounter(chunk_rows=7, staging_rows=staging, workers=workers) as pc:
                for a in range(0, len(sf), 5):
                    pc.add(sf[a:a + 5], xf[a:a + 5])
                if how == "result":
                    k, c = pc.result()
                    cs, cx = packed.unpack(k, offsets)
                else:
                    cs, cx, c = pc.columns(offsets)
            outs.append((cs.to_pylist(), cx.to_pylist(), c.tolist()))
        assert outs[0] == outs[1]
        got = Counter()
        for a, b, n in zip(*outs[1]):
            got[(a, b)] += n
        want = Counter((None if f == packed.NULL_S else int(v), None if g == packed.NULL_X else int(w))
                       for v, w, f, g in zip(s, x, sf, xf))
        assert got == want
    finally:
        packed.SLICE_KEYS, packed.PAGE_KEYS = old
