"""Streamed counting of integer pairs (graphpriv.ingest.packed and .buckets): key ranges on several
threads, tiny pending rows, buckets and pages must give exactly the pairs and counts of
``collections.Counter``, nulls included, and ``read_joint_range`` on a Parquet folder must equal the concatenated table under both
``missing="keep"`` and ``missing="drop"``."""

from __future__ import annotations

import collections

import numpy as np
import pyarrow as pa
import pyarrow.parquet as pq
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import graphpriv as gp
from graphpriv.ingest import packed

VALUES = st.one_of(st.none(), st.integers(-5, 5), st.integers(2**29 - 3, 2**29 + 3))   # every value fits its field


@settings(max_examples=80, deadline=None)
@given(st.lists(st.tuples(VALUES, VALUES), min_size=1, max_size=60), st.integers(1, 9), st.integers(1, 9),
       st.integers(1, 3), st.integers(1, 4), st.integers(1, 12), st.integers(1, 3))
def test_packed_counter_equals_counter(rows, batch, chunk, workers, slice_keys, staging, page_keys):
    """Property: the packed fields of every batch, counted by ``workers`` key ranges on as many threads
    (after ``staging`` staged keys; buckets split past ``2 * slice_keys`` keys, pages of ``page_keys``
    keys, pending rows of ``chunk`` keys), unpack to the pairs and counts of collections.Counter."""
    s = pa.array([r[0] for r in rows], pa.int64())
    x = pa.array([r[1] for r in rows], pa.int64())
    offsets = (packed.field_offset(s, 0), packed.field_offset(x, 1))
    fields = [packed.packed_fields(s[i:i + batch], x[i:i + batch], offsets) for i in range(0, len(rows), batch)]
    assert all(f is not None for f in fields)
    old = packed.SLICE_KEYS, packed.PAGE_KEYS
    packed.SLICE_KEYS, packed.PAGE_KEYS = slice_keys, page_keys
    try:
        with packed.PackedCounter(chunk_rows=chunk, workers=workers, staging_rows=staging) as counter:
            for f in fields:
                counter.add(*f)
            keys, counts = counter.result()
    finally:
        packed.SLICE_KEYS, packed.PAGE_KEYS = old
    assert np.all(keys[1:] > keys[:-1])
    us, ux = packed.unpack(keys, offsets)
    got = dict(zip(zip(us.to_pylist(), ux.to_pylist()), counts.tolist()))
    assert got == dict(collections.Counter(rows))


def test_ranges_split_inside_one_sensitive_value():
    """Three key ranges cut inside the keys of one S value: the S codes of the later ranges are
    shifted so that the value is one code, and the columns hold every pair once."""
    s = np.array([7] * 300 + [9] * 5, np.uint64)
    x = np.arange(305, dtype=np.uint64)
    old = packed.SLICE_KEYS, packed.PAGE_KEYS
    packed.SLICE_KEYS, packed.PAGE_KEYS = 8, 4
    try:
        with packed.PackedCounter(chunk_rows=16, workers=3, staging_rows=60) as counter:
            for a in range(0, len(s), 50):
                counter.add(s[a:a + 50], x[a:a + 50])
            assert len(counter._ranges) == 3
            cs, cx, c = counter.columns((0, 0))
    finally:
        packed.SLICE_KEYS, packed.PAGE_KEYS = old
    assert cs.dictionary.to_pylist() == [7, 9]
    assert cs.indices.to_pylist() == [0] * 300 + [1] * 5
    assert cx.dictionary.to_pylist() == list(range(305)) and cx.indices.to_pylist() == list(range(305))
    assert c.tolist() == [1] * 305


def test_counts_widen_to_64_bits():
    """Past 2^32 - 1 rows a count no longer fits 32 bits: the ranges hold 64-bit counts from then on
    (the row tally is raised here instead of adding 4 * 10^9 rows)."""
    with packed.PackedCounter(chunk_rows=4, staging_rows=4) as counter:
        counter.add(np.zeros(6, np.uint64), np.zeros(6, np.uint64))
        counter._rows = 2**32
        counter.add(np.zeros(5, np.uint64), np.ones(5, np.uint64))
        assert counter._ranges[0]._pool_counts.dtype == np.int64
        keys, counts = counter.result()
    assert keys.tolist() == [0, 1] and counts.tolist() == [6, 5]


@pytest.mark.parametrize("missing", ["keep", "drop"])
@pytest.mark.parametrize("chunk", [5, 64, 1 << 24])
def test_parquet_folder_in_small_chunks_equals_counter(missing, chunk, tmp_path, monkeypatch):
    """read_joint_range of a Parquet folder counted in chunks of ``chunk`` rows: the pairs, their counts
    and the missing tallies are those of collections.Counter over the rows."""
    rng = np.random.default_rng(3)
    n = 3000
    s = rng.integers(0, 30, n)
    x = (s * 11 + rng.integers(0, 6, n)) % 200
    sm, xm = rng.random(n) < 0.03, rng.random(n) < 0.05
    rows = [(None if a else int(b), None if c else int(d)) for a, b, c, d in zip(sm, s, xm, x)]
    for k, i in enumerate(range(0, n, 700)):
        part = rows[i:i + 700]
        pq.write_table(pa.table({"s": pa.array([r[0] for r in part], pa.int64()),
                                 "x": pa.array([r[1] for r in part], pa.int64())}), tmp_path / f"p{k}.parquet",
                       row_group_size=97)
    monkeypatch.setattr(packed, "CHUNK_ROWS", chunk)
    monkeypatch.setattr(packed, "STAGING_ROWS", min(chunk, 1 << 10))     # buckets from the first rows on
    monkeypatch.setattr(packed, "SLICE_KEYS", 16)
    monkeypatch.setattr(packed, "PAGE_KEYS", 4)
    jr = gp.read_joint_range(tmp_path, "s", "x", missing=missing)
    want = collections.Counter(r for r in rows if missing == "keep" or None not in r)
    sl, xl = list(jr.sensitive_labels), list(jr.public_labels)
    c = jr.counts.tocoo()
    got = {(None if sl[i] is gp.MISSING else sl[i], None if xl[j] is gp.MISSING else xl[j]): int(v)
           for i, j, v in zip(c.row, c.col, c.data)}
    assert got == dict(want)
    src = jr.source
    assert (src.n_rows, src.n_missing_sensitive, src.n_missing_public) == (n, int(sm.sum()), int(xm.sum()))
    assert src.n_dropped == (int((sm | xm).sum()) if missing == "drop" else 0)


TEXTS = st.one_of(st.none(), st.integers(-10**19, 10**19).map(str),
                  st.sampled_from(["0", "-0", "00", "007", "-07", "+7", "0x1F", "0X3B9ACA00", "-0x3B9ACA00", "1000000000",
                                   "-1000000000", " 7", "7.0", "1e3", "",
                                   "-", "999999999999999999", "1000000000000000000", "-999999999999999999"]))


@settings(max_examples=150, deadline=None)
@given(st.lists(TEXTS, min_size=1, max_size=12), st.integers(0, 3))
def test_canonical_int_values_equal_the_regular_expression(texts, start):
    """Property: the cast-and-length test of canonical integer text accepts exactly the arrays (also
    sliced ones) whose every value matches the canonical-integer regular expression, with their values."""
    import pyarrow.compute as pc

    from graphpriv.ingest.labels import _CANONICAL_INT, canonical_int_values

    a = pa.array(["pad"] * start + texts, pa.string()).slice(start)
    for arr in (a, a.cast(pa.large_string())):
        got = canonical_int_values(arr)
        present = [t for t in texts if t is not None]
        want = all(pc.match_substring_regex(pa.array(present, pa.string()), _CANONICAL_INT).to_pylist()) if present else True
        assert (got is not None) == want
        if want:
            assert got.to_pylist() == [None if t is None else int(t) for t in texts]
