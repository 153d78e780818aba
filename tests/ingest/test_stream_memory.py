"""What a streamed read holds: small inputs do not pay for the machinery of large ones.

Peak memory itself is measured by ``benchmarks/bench_stream_peak.py`` (no memory or time assertions
here); these tests check the two mechanisms that keep it down, deterministically:

- a source with few distinct pairs, however many rows, is counted by NumPy alone (the staging buffer
  sorted, counted and merged into the pairs counted so far), without the compiled kernels or the
  bucket pools, and gives the counts of ``collections.Counter``;
- a Parquet scan reads runs of row groups, one scanner after another, so that a paused consumer
  holds at most one run of decoded batches; the batches are those of one whole scan, in order, Hive
  partition columns included.
"""

from __future__ import annotations

import collections

import numpy as np
import pyarrow as pa
import pyarrow.dataset as pads
import pyarrow.parquet as pq
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from graphpriv.ingest import packed, parquetfile


def _count(rows, staging, numpy_pairs, batch):
    s = np.array([r[0] for r in rows], np.uint64)
    x = np.array([r[1] for r in rows], np.uint64)
    with packed.PackedCounter(chunk_rows=4, staging_rows=staging, numpy_pairs=numpy_pairs) as counter:
        for a in range(0, len(rows), batch):
            counter.add(s[a:a + batch], x[a:a + batch])
        counter._finish()
        made_ranges = counter._ranges is not None
        loaded = counter._warm is not None
        keys, counts = counter.result()
    got = {(int(k >> np.uint64(32)), int(k & np.uint64(2**32 - 1))): int(c) for k, c in zip(keys, counts)}
    return got, made_ranges, loaded


def test_few_distinct_pairs_over_many_rows_stay_in_numpy():
    """5 distinct pairs in 10,000 rows through a staging buffer of 64 keys (156 compactions): no key
    ranges, no kernels; the counts are exact."""
    rng = np.random.default_rng(1)
    rows = [(int(a), int(a) * 3 + 1) for a in rng.integers(0, 5, 10_000)]
    got, made_ranges, loaded = _count(rows, staging=64, numpy_pairs=16, batch=1000)
    assert got == dict(collections.Counter(rows))
    assert not made_ranges and not loaded


def test_many_distinct_pairs_switch_to_buckets():
    rows = [(i % 7, i) for i in range(500)]
    got, made_ranges, _ = _count(rows, staging=64, numpy_pairs=16, batch=100)
    assert got == dict(collections.Counter(rows))
    assert made_ranges


def test_default_thresholds():
    """By default NumPy counts up to NUMPY_PAIRS distinct pairs; a counter given its staging size (the
    tests of the buckets) makes buckets from the first full staging buffer on, as before."""
    assert packed.PackedCounter().numpy_pairs == packed.NUMPY_PAIRS
    assert packed.PackedCounter(staging_rows=10).numpy_pairs == 0
    assert packed.NUMPY_PAIRS * 4 <= packed.STAGING_ROWS


@settings(max_examples=60, deadline=None)
@given(st.lists(st.tuples(st.integers(0, 6), st.integers(0, 9)), min_size=1, max_size=120), st.integers(1, 20),
       st.integers(0, 40), st.integers(1, 30))
def test_numpy_counting_equals_counter(rows, staging, numpy_pairs, batch):
    """Property: any staging size, NumPy threshold and batch size count the pairs of collections.Counter
    (NumPy alone, buckets, or NumPy then buckets)."""
    got, _, _ = _count(rows, staging, numpy_pairs, batch)
    assert got == dict(collections.Counter(rows))


def _table(n):
    return pa.table({"s": pa.array(np.arange(n) % 7), "x": pa.array(np.arange(n))})


def test_parquet_scanned_in_runs_of_row_groups(tmp_path, monkeypatch):
    """Two files of 10 row groups of 100 rows, runs of 250 rows: each scanner reads 3 row groups (the
    last run of a file ends with it), the batches are the rows in order."""
    for name in ("a", "b"):
        pq.write_table(_table(1000), tmp_path / f"{name}.parquet", row_group_size=100)
    monkeypatch.setattr(parquetfile, "SCAN_RUN_ROWS", 250)
    ds = pads.dataset([str(tmp_path / "a.parquet"), str(tmp_path / "b.parquet")], format="parquet")
    runs = list(parquetfile._runs(ds))
    sizes = [sum(rg.num_rows for f in r.get_fragments() for rg in f.row_groups) for r in runs]
    assert all(s <= 250 + 100 for s in sizes) and sum(sizes) == 2000 and len(runs) >= 6
    batches = list(parquetfile.dataset_batches(ds, ["s", "x"], batch_rows=64))
    x = np.concatenate([b.column(1).to_numpy() for b in batches])
    assert x.tolist() == list(range(1000)) * 2


def test_hive_partitions_survive_the_runs(tmp_path, monkeypatch):
    for part in ("1", "2"):
        (tmp_path / f"k={part}").mkdir()
        pq.write_table(_table(300), tmp_path / f"k={part}" / "p.parquet", row_group_size=100)
    monkeypatch.setattr(parquetfile, "SCAN_RUN_ROWS", 150)
    ds = pads.dataset(str(tmp_path), format="parquet", partitioning="hive")
    batches = list(parquetfile.dataset_batches(ds, ["s", "x", "k"]))
    k = np.concatenate([b.column(2).to_numpy() for b in batches])
    assert sorted(collections.Counter(k.tolist()).items()) == [(1, 300), (2, 300)]


def test_a_dataset_in_memory_is_scanned_whole():
    ds = pads.dataset(_table(10))
    assert list(parquetfile._runs(ds)) == [ds]
    assert sum(b.num_rows for b in parquetfile.dataset_batches(ds, ["s"])) == 10
