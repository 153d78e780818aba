"""Distinct (s, x) pairs of integer columns with their counts, streamed as packed 63-bit keys.

Each row's pair becomes one key ``(s - offset_s) << 32 | (x - offset_x)`` (S in a 31-bit field, X in
a 32-bit field, a missing value as a reserved field value), counted by a :class:`PackedCounter`:

- Keys are collected in one buffer of :data:`STAGING_ROWS` keys; a full buffer is sorted and counted
  and its distinct keys merged into those counted so far (NumPy only). While they are at most
  :data:`NUMPY_PAIRS` this goes on, so a source with few distinct pairs, however many rows, never
  loads the compiled kernels (about 1.5 s and 125 MiB) nor makes the buckets' pools: at 2.4*10^7
  rows with 10^6 pairs the peak RSS was 880 MiB with them, 610 MiB without (machine loaded).
- Past :data:`NUMPY_PAIRS` distinct pairs, the counted keys give ``workers`` key ranges of about as
  many rows each, and each range is
  counted by a :class:`~graphpriv.ingest.buckets.KeyBuckets` on a thread of its own: every thread
  reads every batch and keeps the keys of its range, so the threads share nothing. A range's keys
  live in sorted buckets that follow the data (see :mod:`graphpriv.ingest.buckets`), so the work per
  row does not grow with the number of distinct pairs: merging every chunk into all distinct keys,
  as before, cost about 60 passes over 10^8 keys at 10^9 rows.

Memory: 12 bytes a distinct pair (16 once more than 2^32 - 1 rows were counted) plus the pending
rows (about 11 bytes a distinct pair: a bucket holds 1.5 * SLICE_KEYS keys on average beside a pending row
of CHUNK_ROWS slots), never the rows.
"""

from __future__ import annotations

import numpy as np

__all__ = ["CHUNK_ROWS", "PackedCounter", "field_offset", "packed_fields", "unpack"]

_SHIFT = np.uint64(32)
_LOW = np.uint64(2**32 - 1)
#: Field values of a missing S and a missing X; a present value's field is below them.
NULL_S, NULL_X = 2**31 - 1, 2**32 - 2
#: Keys collected before the counter switches to buckets (a source of at most this many rows is one
#: NumPy sort).
STAGING_ROWS = 1 << 23
#: Distinct pairs counted by NumPy alone (the staging buffer sorted, counted and merged each time it is
#: full) before the buckets are made.
NUMPY_PAIRS = 1 << 21
#: Pending keys per bucket: a full pending row is sorted and merged into its bucket. Twice SLICE_KEYS:
#: each key is then merged about 1.75 times (at 10^9 rows, 2^16 took 13.8 s of merging against 8.8 s,
#: for 0.4 GiB more at the peak).
CHUNK_ROWS = 1 << 17
#: Distinct keys per bucket after a split (a bucket is split when it grows past twice this).
SLICE_KEYS = 1 << 16
#: Keys a bucket page holds.
PAGE_KEYS = 1 << 12
#: Address space reserved at once for the pending rows and for the bucket pages (all ranges together;
#: pages of memory are only touched when used).
ARENA_BYTES, POOL_BYTES = 1 << 30, 1 << 31
#: Largest count a 32-bit counter holds.
_MAX_U32 = 2**32 - 1


def _integers(a):
    """``a`` as an arrow integer array when it is one, or text whose every value is a canonical
    decimal integer (see :mod:`graphpriv.ingest.labels`); else None."""
    import pyarrow as pa

    from .labels import canonical_int_values

    if pa.types.is_integer(a.type):
        return a
    if not (pa.types.is_string(a.type) or pa.types.is_large_string(a.type)) or a.null_count == len(a):
        return None
    return canonical_int_values(a)


def field_offset(a, role: int) -> int:
    """The offset of a column's field, from its first batch ``a`` (``role`` 0 for S, 1 for X): 0
    when its values are non-negative (or not integers), else minus half the field's range."""
    import pyarrow.compute as pc

    a = _integers(a)
    if a is None or a.null_count == len(a) or pc.min(a).as_py() >= 0:
        return 0
    return -(2**30) if role == 0 else -(2**31)


def _field(a, offset: int, null: int):
    """The integer column ``a`` (or text of canonical integers) as uint64 values above ``offset``
    (missing values as ``null``), or None when it is not one or a value does not fit below ``null``."""
    import pyarrow.compute as pc

    if len(a) == 0:
        return None
    a = _integers(a)
    if a is None:
        return None
    if a.null_count < len(a):
        mm = pc.min_max(a)
        lo, hi = mm["min"].as_py(), mm["max"].as_py()
        if lo < offset or hi - offset >= null:
            return None
    nulls = a.null_count
    if nulls:
        mask = np.asarray(pc.is_null(a).to_numpy(zero_copy_only=False))
        a = a.fill_null(offset)
    v = np.asarray(a.to_numpy(zero_copy_only=False))
    if offset:
        v = (v.astype(np.int64, copy=False) - offset).view(np.uint64)
    elif v.dtype.itemsize == 8:
        v = v.view(np.uint64)
    else:
        v = v.astype(np.uint64)
    if nulls:
        v = v.copy() if not v.flags.writeable else v
        v[mask] = null
    return v


def packed_fields(s, x, offsets: tuple[int, int]):
    """The S and X fields (uint64 arrays) of one batch's arrow arrays, or None when a column does not
    fit its field (``offsets`` from :func:`field_offset`); :meth:`PackedCounter.add` packs them."""
    sv = _field(s, offsets[0], NULL_S)
    xv = None if sv is None else _field(x, offsets[1], NULL_X)
    return None if xv is None else (sv, xv)


def _counted(key: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Sort ``key`` in place; its distinct values and their counts."""
    key.sort()
    new = np.empty(len(key), dtype=bool)
    new[:1] = True
    np.not_equal(key[1:], key[:-1], out=new[1:])
    start = np.flatnonzero(new)
    del new
    counts = np.empty(len(start), dtype=np.int64)
    np.subtract(start[1:], start[:-1], out=counts[:-1])
    counts[-1:] = len(key) - start[-1:]
    return key[start], counts


class PackedCounter:
    """Counts of packed keys (see the module's docstring).

    Use as a context manager (it owns ``workers - 1`` threads): :meth:`add` the fields of each batch,
    then :meth:`columns` (or :meth:`result`).

    Parameters
    ----------
    chunk_rows : int, optional
        Pending keys per bucket (default :data:`CHUNK_ROWS`).
    workers : int
        Key ranges counted in parallel, one thread each.
    staging_rows : int, optional
        Keys collected before they are sorted and counted (default :data:`STAGING_ROWS`).
    numpy_pairs : int, optional
        Distinct pairs counted by NumPy alone before buckets are made (default :data:`NUMPY_PAIRS`,
        or 0 when ``staging_rows`` is given: buckets from the first full staging buffer on).
    reserve_bytes : (int, int), optional
        Address space reserved for the pending rows and the bucket pages, all ranges together
        (default :data:`ARENA_BYTES`, :data:`POOL_BYTES`).

    Examples
    --------
    >>> import numpy as np
    >>> from graphpriv.ingest.packed import PackedCounter
    >>> with PackedCounter(chunk_rows=2, staging_rows=2) as pc:       # buckets from the third key on
    ...     pc.add(np.array([1, 0, 1], np.uint64), np.array([5, 3, 5], np.uint64))
    ...     pc.add(np.array([0, 1], np.uint64), np.array([1, 5], np.uint64))
    ...     keys, counts = pc.result()
    >>> (keys >> np.uint64(32)).tolist(), (keys & np.uint64(2**32 - 1)).tolist(), counts.tolist()
    ([0, 0, 1], [1, 3, 5], [1, 1, 3])
    """

    def __init__(self, chunk_rows: int | None = None, workers: int = 2, staging_rows: int | None = None, *,
                 reserve_bytes: tuple[int, int] | None = None, numpy_pairs: int | None = None):
        self.reserve_bytes = (ARENA_BYTES, POOL_BYTES) if reserve_bytes is None else reserve_bytes
        self.chunk_rows = max(1, CHUNK_ROWS if chunk_rows is None else int(chunk_rows))
        self.staging_rows = max(1, STAGING_ROWS if staging_rows is None else int(staging_rows))
        if numpy_pairs is None:
            numpy_pairs = NUMPY_PAIRS if staging_rows is None else 0
        self.numpy_pairs = max(0, int(numpy_pairs))
        self.workers = max(1, int(workers))
        self.slice_keys = max(1, SLICE_KEYS)
        self.page_keys = max(1, min(PAGE_KEYS, self.slice_keys))
        self._stage = None              # staging buffer of packed keys (None once ranges exist)
        self._n = 0                     # keys in the staging buffer
        self._rows = 0                  # rows counted
        self._ranges = None             # the KeyBuckets of each key range, in key order
        self._pool = None               # threads of the ranges but the first
        self._sorted = None             # the keys counted by NumPy: (sorted distinct keys, int64 counts)
        self._warm = None               # the thread loading the compiled kernels

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self._stop()

    def _stop(self) -> None:
        if self._pool is not None:
            self._pool.shutdown(wait=True, cancel_futures=True)
            self._pool = None

    def _each(self, method: str, *args, per_range=None) -> list:
        """Call ``method`` of every range with ``args`` (and the range's item of ``per_range``): the
        first on this thread, the others on the pool (made again if the context was left)."""
        from concurrent.futures import ThreadPoolExecutor

        if self._pool is None and len(self._ranges) > 1:
            self._pool = ThreadPoolExecutor(max_workers=len(self._ranges) - 1, thread_name_prefix="graphpriv-count")
        calls = [(getattr(r, method), args if per_range is None else (per_range[i], *args)) for i, r in enumerate(self._ranges)]
        rest = [self._pool.submit(f, *a) for f, a in calls[1:]]
        out = [calls[0][0](*calls[0][1])]
        return out + [f.result() for f in rest]

    # ------------------------------------------------------------------ adding keys
    def add(self, s_fields: np.ndarray, x_fields: np.ndarray) -> None:
        """Count the pairs of one batch (uint64 fields from :func:`packed_fields`)."""
        n = len(s_fields)
        self._rows += n
        done = 0
        while self._ranges is None:
            if self._stage is None:
                self._stage = np.empty(self.staging_rows, dtype=np.uint64)
            take = min(n - done, len(self._stage) - self._n)
            out = self._stage[self._n:self._n + take]
            np.left_shift(s_fields[done:done + take], _SHIFT, out=out)
            np.bitwise_or(out, x_fields[done:done + take], out=out)
            self._n += take
            done += take
            if done == n:
                return
            self._compact()                      # the staging buffer is full
            n_pairs = len(self._sorted[0])
            if self._warm is None and n_pairs > self.numpy_pairs // 2 and self.staging_rows >= 1 << 20:
                # many distinct pairs: load the kernels (about 1.5 s) while NumPy goes on counting
                import threading

                self._warm = threading.Thread(target=warm_up, name="graphpriv-kernels", daemon=True)
                self._warm.start()
            if n_pairs > self.numpy_pairs and (self._warm is None or not self._warm.is_alive()
                                               or n_pairs > 2 * self.numpy_pairs):
                self._start_ranges()
        if self._rows > _MAX_U32:                 # a count could pass 2^32 - 1
            self._each("widen_counts")
        self._each("route", np.ascontiguousarray(s_fields[done:], dtype=np.uint64),
                   np.ascontiguousarray(x_fields[done:], dtype=np.uint64))

    def _compact(self) -> None:
        """Sort and count the staged keys and merge them into the keys counted so far (NumPy only)."""
        keys, counts = _counted(self._stage[:self._n]) if self._n else (np.empty(0, np.uint64), np.empty(0, np.int64))
        self._n = 0
        if self._sorted is not None and len(self._sorted[0]):
            old_k, old_c = self._sorted
            self._sorted = None
            both = np.concatenate([old_k, keys])
            order = np.argsort(both, kind="stable")            # two sorted runs: merged in linear time
            both = both[order]
            c = np.concatenate([old_c, counts])[order]
            del order
            new = np.empty(len(both), dtype=bool)
            new[:1] = True
            np.not_equal(both[1:], both[:-1], out=new[1:])
            start = np.flatnonzero(new)
            keys, counts = both[start], np.add.reduceat(c, start) if len(start) else c[:0]
        self._sorted = (keys, counts)

    def _start_ranges(self) -> None:
        """The keys counted so far give the key ranges (about as many rows each) and their first buckets."""
        from .buckets import KEY_END, KeyBuckets

        if self._n or self._sorted is None:
            self._compact()
        keys, counts = self._sorted
        self._sorted = None
        self._stage, self._n = None, 0
        if self._warm is not None:
            self._warm.join()
        cum = np.cumsum(counts)
        at = np.searchsorted(cum, cum[-1] * np.arange(1, self.workers) / self.workers, side="right")
        cuts = np.unique(at[(at > 0) & (at < len(keys))])
        bounds = [np.uint64(0), *keys[cuts], KEY_END]
        starts = [0, *cuts.tolist(), len(keys)]
        count_type = np.uint32 if self._rows <= _MAX_U32 else np.int64
        w = len(bounds) - 1
        self._ranges = [KeyBuckets(keys[starts[i]:starts[i + 1]], counts[starts[i]:starts[i + 1]], bounds[i], bounds[i + 1],
                                   chunk_rows=self.chunk_rows, slice_keys=self.slice_keys, page_keys=self.page_keys,
                                   count_type=count_type, arena_bytes=self.reserve_bytes[0] // w,
                                   pool_bytes=self.reserve_bytes[1] // w)
                        for i in range(w)]

    def _finish(self) -> None:
        """Merge every pending key: the buckets then hold all counts."""
        if self._ranges is None:
            if self._n or self._sorted is None:
                self._compact()
            self._stage, self._n = None, 0
            return
        self._each("finish")

    # ------------------------------------------------------------------ results
    def columns(self, offsets) -> tuple:
        """The S and X columns of the distinct pairs (as :func:`unpack`) and their counts (int64),
        each range writing its part on its thread: memory is that of the buckets plus the columns
        (16 bytes a pair), where :meth:`result` then :func:`unpack` need more."""
        import pyarrow as pa

        from .buckets import reserve

        self._finish()
        if self._ranges is None:                 # a staged count: NumPy only
            keys, counts = self.result()
            s, x = unpack(keys, offsets)
            return s, x, counts
        sizes = [r.n_keys for r in self._ranges]
        starts = np.concatenate([[0], np.cumsum(sizes)]).astype(np.int64)
        total = int(starts[-1])
        # reserve(): no huge pages (see graphpriv.ingest.buckets.reserve), so writing 16 bytes a pair
        # into fresh memory does not stall on memory compaction
        s_code = reserve((total,), np.int32)
        x_field = reserve((total,), np.uint32)
        counts = reserve((total,), np.int64)
        s_parts = self._each("unpack_into", s_code, x_field, counts, per_range=[int(a) for a in starts[:-1]])
        self._ranges = None                      # the pages and pending rows are memory maps: unmapped here
        # each range ranked its own S fields: shift the ranks of the later ranges (a field that ends
        # one range and starts the next is one value)
        s_values, base, last = [], 0, None
        for i, part in enumerate(s_parts):
            if not len(part):
                continue
            shared = last is not None and last == part[0]
            shift = base - (1 if shared else 0)
            if shift:
                s_code[starts[i]:starts[i + 1]] += shift
            s_values.append(part[1:] if shared else part)
            base, last = shift + len(part), part[-1]
        s_vals = np.concatenate(s_values) if s_values else np.empty(0, np.uint64)
        x_vals = _codes_in_place(x_field, self._pool)
        self._stop()
        x_code = x_field.view(np.int32)
        cols = []
        for values, idx, off, null in ((s_vals, s_code, offsets[0], NULL_S), (x_vals, x_code, offsets[1], NULL_X)):
            missing = bool(len(values)) and values[-1] == null
            if missing:
                values = values[:-1]
            d = pa.array(values.astype(np.int64) + off)
            cols.append(pa.DictionaryArray.from_arrays(pa.array(idx, mask=idx == len(values)) if missing else pa.array(idx), d))
        return cols[0], cols[1], counts

    def result(self) -> tuple[np.ndarray, np.ndarray]:
        """(sorted distinct keys, their counts as int64)."""
        self._finish()
        if self._ranges is None:
            keys, counts = self._sorted
            self._sorted = None
            return keys, counts.astype(np.int64, copy=False)
        parts = [r.arrays() for r in self._ranges]
        self._ranges = None
        self._stop()
        return np.concatenate([k for k, _ in parts]), np.concatenate([c for _, c in parts])


def warm_up() -> None:
    """Load the compiled kernels of the buckets (from numba's cache; compiled the first time on a
    machine) by counting a few keys with them."""
    s, x = np.arange(64, dtype=np.uint64) % np.uint64(5), np.arange(64, dtype=np.uint64)
    with PackedCounter(chunk_rows=4, staging_rows=4, workers=1, reserve_bytes=(1 << 12, 1 << 16)) as pc:
        pc.add(s, x)
        pc.columns((0, 0))


def _codes(field: np.ndarray, is_sorted: bool = False) -> tuple[np.ndarray, np.ndarray]:
    """(sorted distinct values of ``field``, the code of every entry): one pass over the runs when
    ``field`` is sorted, a dense table when the values span a range not much larger than their
    number, else a sort and a binary search."""
    if not len(field):
        return field, np.empty(0, np.int32)
    if is_sorted:
        new = np.empty(len(field), dtype=bool)
        new[:1] = True
        np.not_equal(field[1:], field[:-1], out=new[1:])
        values = field[new]
        code = np.cumsum(new, dtype=np.int32)
        code -= 1
        return values, code
    lo, hi = int(field.min()), int(field.max())
    if hi - lo <= max(1 << 20, 4 * len(field)):
        rel = (field - np.uint64(lo)).astype(np.intp)
        seen = np.zeros(hi - lo + 1, dtype=bool)
        seen[rel] = True
        values = np.flatnonzero(seen).astype(np.uint64) + np.uint64(lo)
        code = np.cumsum(seen, dtype=np.int32) - 1
        return values, code[rel]
    values = np.sort(field)
    keep = np.empty(len(values), dtype=bool)
    keep[:1] = True
    np.not_equal(values[1:], values[:-1], out=keep[1:])
    values = values[keep]
    return values, np.searchsorted(values, field).astype(np.int32)


def _codes_in_place(field: np.ndarray, pool=None) -> np.ndarray:
    """The sorted distinct values of a uint32 ``field``; ``field`` is overwritten with the int32 code
    of every entry (read it through ``field.view(np.int32)``). When the values span not much more
    than their number, one table of ranks (compiled; the halves of ``field`` on two threads of
    ``pool``, when given), else a sort and binary searches a block at a time."""
    if not len(field):
        return field.astype(np.uint64)
    lo, hi = int(field.min()), int(field.max())
    if hi - lo <= max(1 << 20, 4 * len(field)):
        from . import packed_kernels as k

        lo = np.uint32(lo)
        parts = np.array_split(field, 2 if pool is not None and len(field) > 1 << 20 else 1)
        seen = [np.zeros(hi - int(lo) + 1, np.uint8) for _ in parts]
        _run(pool, [(k.mark_values, part, lo, s) for part, s in zip(parts, seen)])
        for s in seen[1:]:
            np.bitwise_or(seen[0], s, out=seen[0])
        values, table = k.rank_values(seen[0], np.uint64(lo))
        del seen
        _run(pool, [(k.rank_in_place, part, lo, table) for part in parts])
        return values
    block = 1 << 22
    values = np.unique(field)
    out = field.view(np.int32)
    for a in range(0, len(field), block):
        out[a:a + block] = np.searchsorted(values, field[a:a + block])
    return values.astype(np.uint64)


def _run(pool, calls) -> None:
    """Run ``(function, *args)`` calls: the first here, the others on ``pool`` (or here when None)."""
    futures = [pool.submit(f, *a) for f, *a in calls[1:]] if pool is not None else []
    for f, *a in calls[:1] + ([] if pool is not None else calls[1:]):
        f(*a)
    for fut in futures:
        fut.result()


def unpack(keys: np.ndarray, offsets) -> tuple:
    """The S and X columns of packed ``keys`` (sorted) as dictionary-encoded arrow arrays (sorted
    dictionaries of int64 values, missing values as nulls)."""
    import pyarrow as pa

    cols = []
    for field, off, null, srt in ((keys >> _SHIFT, offsets[0], NULL_S, True), (keys & _LOW, offsets[1], NULL_X, False)):
        values, idx = _codes(field, srt)
        del field
        missing = bool(len(values)) and values[-1] == null
        if missing:
            values = values[:-1]
        d = pa.array(values.astype(np.int64) + off)
        cols.append(pa.DictionaryArray.from_arrays(pa.array(idx, mask=idx == len(values)) if missing else pa.array(idx), d))
    return cols
