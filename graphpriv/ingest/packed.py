"""Distinct (s, x) pairs of integer columns with their counts, streamed as packed 63-bit keys.

Each row's pair becomes one key ``(s - offset_s) << 32 | (x - offset_x)`` (S in a 31-bit field, X in
a 32-bit field, a missing value as a reserved field value), counted by a :class:`PackedCounter`:

- The first :data:`STAGING_ROWS` keys are collected in one buffer; a source no larger is sorted and
  counted at once (NumPy only: small files never load the compiled kernels).
- Past it, the key space is cut into buckets (consecutive key ranges): each bucket holds its
  distinct keys and counts as sorted arrays, and a pending row of at most :data:`CHUNK_ROWS` keys.
  Every key is appended to its bucket's pending row (one table lookup); a full row is radix-sorted
  over the bucket's span and merged into the bucket in one linear pass; a bucket grown past
  ``2 * SLICE_KEYS`` distinct keys is split in pieces of :data:`SLICE_KEYS`. The buckets follow the
  data: their cuts come from the keys seen, wherever they lie.

Work per row: the lookup and append, its share of one radix sort of a pending row (a few passes in
cache), and ``(distinct keys of its bucket + CHUNK_ROWS) / CHUNK_ROWS`` merged keys, at most about
three: it does not grow with the number of distinct pairs (a merge of every chunk into all distinct
keys, as before, cost ~60 passes over 10^8 keys at 10^9 rows). Memory: 12 bytes a distinct pair
(8 with a 32-bit count, 16 once more than 2^32 - 1 rows were counted) plus the pending rows (8
bytes a slot, about 5 bytes a distinct pair), never the rows. The kernels are in
:mod:`graphpriv.ingest.packed_kernels`.
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
STAGING_ROWS = 1 << 20
#: Pending keys per bucket: a full pending row is sorted and merged into its bucket.
CHUNK_ROWS = 1 << 16
#: Distinct keys per bucket after a split (a bucket is split when it grows past twice this).
SLICE_KEYS = 1 << 16
#: Table cells per bucket for the lookup of a key's bucket (at most 2^16 cells).
_CELLS_PER_BUCKET = 16
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
    """Counts of packed keys in sorted buckets (see the module's docstring).

    Use as a context manager: :meth:`add` the fields of each batch, then :meth:`columns` (or
    :meth:`result`).

    Parameters
    ----------
    chunk_rows : int, optional
        Pending keys per bucket (default :data:`CHUNK_ROWS`).
    workers : int
        Accepted for compatibility; counting runs on the calling thread (the kernels release the
        GIL, so the scan's threads decode the next batches meanwhile).
    staging_rows : int, optional
        Keys collected before buckets are made (default :data:`STAGING_ROWS`).

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

    def __init__(self, chunk_rows: int | None = None, workers: int = 2, staging_rows: int | None = None):
        self.chunk_rows = max(1, CHUNK_ROWS if chunk_rows is None else int(chunk_rows))
        self.staging_rows = max(1, STAGING_ROWS if staging_rows is None else int(staging_rows))
        self.slice_keys = max(1, SLICE_KEYS)
        self._stage = None              # staging buffer of packed keys (None once buckets exist)
        self._n = 0                     # keys in the staging buffer
        self._rows = 0                  # rows counted
        self._count_type = np.uint32
        #: Each bucket: [keys, counts, size]; the first ``size`` entries of the arrays are in use.
        self._buckets: list[list] | None = None
        self._k = None                  # the compiled kernels, once buckets exist
        self._arena = None              # the pending rows of the buckets

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        return None

    # ------------------------------------------------------------------ adding keys
    def add(self, s_fields: np.ndarray, x_fields: np.ndarray) -> None:
        """Count the pairs of one batch (uint64 fields from :func:`packed_fields`)."""
        n = len(s_fields)
        self._rows += n
        if self._rows > _MAX_U32 and self._count_type is np.uint32:
            self._count_type = np.int64
            for b in self._buckets or ():
                b[1] = b[1].astype(np.int64)
        done = 0
        if self._buckets is None:
            if self._stage is None:
                self._stage = np.empty(self.staging_rows, dtype=np.uint64)
            take = min(n, len(self._stage) - self._n)
            out = self._stage[self._n:self._n + take]
            np.left_shift(s_fields[:take], _SHIFT, out=out)
            np.bitwise_or(out, x_fields[:take], out=out)
            self._n += take
            done = take
            if done == n:
                return
            self._start_buckets()
        self._route(np.ascontiguousarray(s_fields[done:], dtype=np.uint64),
                    np.ascontiguousarray(x_fields[done:], dtype=np.uint64))

    def _route(self, s: np.ndarray, x: np.ndarray) -> None:
        k, i = self._k, 0
        while i < len(s):
            i, full = k.route(s, x, i, self._splitters, self._table, self._base, self._shift, self._slot_of,
                              self._arena, self._fill)
            if full >= 0:
                self._flush(full, split=True)

    def _start_buckets(self) -> None:
        """The staged keys, counted, become the first buckets (cut by their own quantiles)."""
        from . import packed_kernels

        self._k = packed_kernels
        keys, counts = _counted(self._stage[:self._n])
        self._stage, self._n = None, 0
        self._buckets = [_bucket(keys, counts.astype(self._count_type))]
        self._splitters = np.empty(0, np.uint64)
        self._slot_of = np.zeros(1, np.int64)
        self._arena = np.empty((4, self.chunk_rows), np.uint64)
        self._fill = np.zeros(4, np.int64)
        self._free = [3, 2, 1]
        self._tmp = np.empty(self.chunk_rows, np.uint64)
        self._kmin, self._kmax = (keys[0], keys[-1]) if len(keys) else (np.uint64(0), np.uint64(0))
        self._split(0)
        self._make_table()

    def _flush(self, p: int, split: bool = False) -> None:
        """Sort bucket ``p``'s pending keys and merge them into its distinct keys (then split it when
        it grew past twice :data:`SLICE_KEYS`, with ``split``)."""
        r = self._slot_of[p]
        n = self._fill[r]
        if not n:
            return
        pend = self._k.sort_keys(self._arena[r, :n], self._tmp[:n])
        b = self._buckets[p]
        size = self._k.merge_into(pend, b[0], b[1], b[2])
        if size < 0:                                   # no room left: grow by a quarter, then merge
            b[0], b[1] = _grown(b[0], b[2], -size), _grown(b[1], b[2], -size)
            size = self._k.merge_into(pend, b[0], b[1], b[2])
        b[2] = size
        self._fill[r] = 0
        self._kmin, self._kmax = min(self._kmin, b[0][0]), max(self._kmax, b[0][size - 1])
        if split and self._split(p):
            self._make_table()

    def _split(self, p: int) -> bool:
        """Split bucket ``p`` (its pending row empty) into pieces of about :data:`SLICE_KEYS` keys
        when it holds more than twice that; whether it did."""
        keys, counts, size = self._buckets[p]
        parts = size // self.slice_keys
        if parts < 2:
            return False
        step = -(-size // parts)
        cuts = range(step, size, step)
        self._buckets[p:p + 1] = [_bucket(keys[a:min(a + step, size)], counts[a:min(a + step, size)])
                                  for a in range(0, size, step)]
        self._splitters = np.insert(self._splitters, p, keys[list(cuts)])
        rows = [self._new_row() for _ in cuts]
        self._slot_of = np.insert(self._slot_of, p + 1, rows)
        return True

    def _new_row(self) -> int:
        """A free pending row of the arena (which doubles when none is left)."""
        if not self._free:
            old = len(self._arena)
            arena = np.empty((2 * old, self.chunk_rows), np.uint64)
            for r in range(old):                       # the filled part of each row only
                arena[r, :self._fill[r]] = self._arena[r, :self._fill[r]]
            self._arena = arena
            self._fill = np.concatenate([self._fill, np.zeros(old, np.int64)])
            self._free = list(range(2 * old - 1, old - 1, -1))
        return self._free.pop()

    def _make_table(self) -> None:
        """The lookup table of a key's bucket: cells of ``1 << shift`` keys from ``base``, the smallest
        key seen so far, over the keys seen so far (keys outside fall in the first or last cell)."""
        nsp = len(self._splitters)
        bits = min(16, max(1, int(_CELLS_PER_BUCKET * (nsp + 1)).bit_length()))
        span = int(self._kmax) - int(self._kmin)
        shift = max(0, span.bit_length() - bits)
        ncell = (span >> shift) + 1
        lows = self._kmin + (np.arange(ncell, dtype=np.uint64) << np.uint64(shift))
        table = np.empty(ncell + 1, np.int64)
        table[:ncell] = np.searchsorted(self._splitters, lows, side="right")
        table[0] = 0                                    # keys below the smallest seen fall in cell 0
        table[ncell] = nsp
        self._table, self._base, self._shift = table, self._kmin, np.uint64(shift)

    def _finish(self) -> None:
        """Merge every pending key: the buckets then hold all counts."""
        if self._buckets is None:
            keys, counts = _counted(self._stage[:self._n]) if self._n else (np.empty(0, np.uint64), np.empty(0, np.int64))
            self._stage, self._n = None, 0
            self._buckets = [[keys, counts, len(keys)]] if len(keys) else []
            return
        if self._arena is not None:
            for p in range(len(self._buckets)):
                self._flush(p)
            self._arena = self._fill = self._tmp = None

    # ------------------------------------------------------------------ results
    def columns(self, offsets) -> tuple:
        """The S and X columns of the distinct pairs (as :func:`unpack`) and their counts (int64),
        built bucket by bucket while the buckets are freed: memory stays near that of the distinct
        keys and counts, where :meth:`result` then :func:`unpack` need about twice as much."""
        self._finish()
        slices, self._buckets = [(k[:n], c[:n]) for k, c, n in self._buckets], []
        total = sum(len(sk) for sk, _ in slices)
        s_code = np.empty(total, dtype=np.int32)
        x_field = np.empty(total, dtype=np.uint32)
        counts = np.empty(total, dtype=np.int64)
        s_values, last, at = [], None, 0
        slices.reverse()
        while slices:
            sk, sc = slices.pop()                # the slice is freed once copied
            n = len(sk)
            if not n:
                continue
            sf = sk >> _SHIFT
            new = np.empty(n, dtype=bool)
            new[0] = last is None or sf[0] != last
            np.not_equal(sf[1:], sf[:-1], out=new[1:])
            s_values.append(sf[new])
            code = np.cumsum(new, dtype=np.int32)
            code += (sum(len(v) for v in s_values[:-1]) - 1)
            s_code[at:at + n] = code
            last = sf[-1]
            np.bitwise_and(sk, _LOW, out=sf)
            x_field[at:at + n] = sf
            counts[at:at + n] = sc
            at += n
            del sk, sc, sf, new, code
        s_vals = np.concatenate(s_values) if s_values else np.empty(0, np.uint64)
        x_vals = _codes_in_place(x_field)
        x_code = x_field.view(np.int32)
        cols = []
        for values, idx, off, null in ((s_vals, s_code, offsets[0], NULL_S), (x_vals, x_code, offsets[1], NULL_X)):
            import pyarrow as pa

            missing = bool(len(values)) and values[-1] == null
            if missing:
                values = values[:-1]
            d = pa.array(values.astype(np.int64) + off)
            cols.append(pa.DictionaryArray.from_arrays(pa.array(idx, mask=idx == len(values)) if missing else pa.array(idx), d))
        return cols[0], cols[1], counts

    def result(self) -> tuple[np.ndarray, np.ndarray]:
        """(sorted distinct keys, their counts as int64)."""
        self._finish()
        buckets, self._buckets = self._buckets, []
        if not buckets:
            return np.empty(0, np.uint64), np.empty(0, np.int64)
        keys = np.concatenate([k[:n] for k, _, n in buckets])
        counts = np.concatenate([c[:n] for _, c, n in buckets]).astype(np.int64, copy=False)
        return keys, counts


def _bucket(keys: np.ndarray, counts: np.ndarray) -> list:
    """A bucket of sorted distinct ``keys`` and ``counts``: copies with room for a quarter more."""
    return [_grown(keys, len(keys), len(keys)), _grown(counts, len(counts), len(counts)), len(keys)]


def _grown(a: np.ndarray, used: int, need: int) -> np.ndarray:
    """A new array of ``a``'s type with room for ``need`` entries and a quarter more (at least 16),
    holding ``a[:used]``."""
    out = np.empty(need + max(16, need // 4), dtype=a.dtype)
    out[:used] = a[:used]
    return out


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


def _codes_in_place(field: np.ndarray) -> np.ndarray:
    """The sorted distinct values of a uint32 ``field``; ``field`` is overwritten with the int32 code
    of every entry (read it through ``field.view(np.int32)``), a block at a time."""
    if not len(field):
        return field.astype(np.uint64)
    lo, hi = int(field.min()), int(field.max())
    block = 1 << 22
    if hi - lo <= max(1 << 20, 4 * len(field)):
        seen = np.zeros(hi - lo + 1, dtype=bool)
        for a in range(0, len(field), block):
            seen[field[a:a + block] - np.uint32(lo)] = True
        values = np.flatnonzero(seen).astype(np.uint64) + np.uint64(lo)
        table = np.cumsum(seen, dtype=np.int32) - 1
        del seen
        out = field.view(np.int32)
        for a in range(0, len(field), block):
            out[a:a + block] = table[field[a:a + block] - np.uint32(lo)]
        return values
    values = np.unique(field)
    out = field.view(np.int32)
    for a in range(0, len(field), block):
        out[a:a + block] = np.searchsorted(values, field[a:a + block])
    return values.astype(np.uint64)


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
