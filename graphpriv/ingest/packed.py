"""Distinct (s, x) pairs of integer columns with their counts, streamed as packed 63-bit keys.

Each row's pair becomes one key ``(s - offset_s) << 32 | (x - offset_x)`` (S in a 31-bit field, X in
a 32-bit field, a missing value as a reserved field value). Keys are copied into a chunk buffer of
:data:`CHUNK_ROWS` rows; a full chunk is sorted (``numpy.sort``: vectorised, cache-friendly, and it
releases the GIL, so two chunks are sorted on two worker threads while the next chunk fills), its
distinct keys are counted, and the result is merged (one chunk at a time, in order) into the
distinct keys seen so far (one sorted array) by a linear merge: the keys are the column indices of
a one-row canonical ``scipy.sparse`` matrix, so the merge is scipy's compiled addition of two
sorted sparse rows (about 6 ns a key on a quiet machine).

Work per row: its share of one sort of its chunk, plus ``distinct pairs / chunk rows`` merged keys.
Random-access structures (hash tables, binary searches) over ~10^7 pairs cost a cache miss or a
branch misprediction per row and level, several times more. Memory: three chunk buffers (one
filling, two sorting) and twice the distinct pairs (16 bytes each), never the rows.
"""

from __future__ import annotations

from collections import deque
from concurrent.futures import ThreadPoolExecutor

import numpy as np

__all__ = ["CHUNK_ROWS", "PackedCounter", "field_offset", "packed_fields", "unpack"]

_SHIFT = np.uint64(32)
_LOW = np.uint64(2**32 - 1)
#: Field values of a missing S and a missing X; a present value's field is below them.
NULL_S, NULL_X = 2**31 - 1, 2**32 - 2
#: Rows per sorted chunk. One size from the first chunk on: a 10^7-row input is one sort and no merge
#: (2.49-2.69 s instead of 2.62-2.94 s for a 10^7-row integer CSV whose chunks grew from 2^21 rows), and
#: at 2*10^8 rows the time is the same with a lower peak RSS (1.38 GiB instead of 1.70 GiB).
CHUNK_ROWS = 1 << 24
#: Distinct keys per slice of the merged keys (a slice is split when it grows past twice this).
SLICE_KEYS = 1 << 20
#: One past the largest key (a key is a column index of a one-row sparse matrix with this many columns).
_N_KEYS = 2**63 - 1


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


def _add(a: np.ndarray, ca: np.ndarray, b: np.ndarray, cb: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Merge two sorted arrays of distinct keys, adding the counts of shared keys, in linear time:
    the keys are the column indices of two one-row canonical sparse matrices, added by scipy."""
    import scipy.sparse as sp

    ptr = np.array([0, 0], dtype=np.int64)
    rows = []
    for k, c in ((a, ca), (b, cb)):
        ptr[1] = len(k)
        rows.append(sp.csr_array((c, k.view(np.int64), ptr.copy()), shape=(1, _N_KEYS)))
    t = rows[0] + rows[1]
    return t.indices.view(np.uint64), t.data


class PackedCounter:
    """Counts of packed keys: sorted chunks merged into sorted slices of the distinct keys.

    Use as a context manager (it owns ``workers`` threads): :meth:`add` the fields of each batch, then
    :meth:`result`. The distinct keys are held as consecutive slices of about :data:`SLICE_KEYS`
    keys, so a merge needs memory for one slice besides the chunk and the keys.

    Examples
    --------
    >>> import numpy as np
    >>> from graphpriv.ingest.packed import PackedCounter
    >>> with PackedCounter(chunk_rows=2) as pc:                     # chunks of at most 2 rows
    ...     pc.add(np.array([1, 0, 1], np.uint64), np.array([5, 3, 5], np.uint64))
    ...     pc.add(np.array([0, 1], np.uint64), np.array([1, 5], np.uint64))
    ...     keys, counts = pc.result()
    >>> (keys >> np.uint64(32)).tolist(), (keys & np.uint64(2**32 - 1)).tolist(), counts.tolist()
    ([0, 0, 1], [1, 3, 5], [1, 1, 3])
    """

    def __init__(self, chunk_rows: int | None = None, workers: int = 2):
        self.chunk_rows = CHUNK_ROWS if chunk_rows is None else chunk_rows
        self.workers = max(1, workers)
        self._buf = None
        self._n = 0
        self._slices: list[tuple[np.ndarray, np.ndarray]] = []
        self._n_keys = 0
        self._inflight: deque = deque()
        self._pool = ThreadPoolExecutor(max_workers=self.workers)

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self._pool.shutdown(wait=True, cancel_futures=True)

    def add(self, s_fields: np.ndarray, x_fields: np.ndarray) -> None:
        """Count the pairs of one batch (from :func:`packed_fields`)."""
        done = 0
        while done < len(s_fields):
            if self._buf is None:
                self._buf = np.empty(self.chunk_rows, dtype=np.uint64)
            take = min(len(s_fields) - done, len(self._buf) - self._n)
            out = self._buf[self._n:self._n + take]
            np.left_shift(s_fields[done:done + take], _SHIFT, out=out)
            np.bitwise_or(out, x_fields[done:done + take], out=out)
            self._n += take
            done += take
            if self._n == len(self._buf):
                self._submit()

    def _submit(self) -> None:
        """Hand the full chunk to the workers: up to ``workers`` chunks are sorted at once (numpy's
        sort releases the GIL, so they use the other cores while this thread packs the next chunk);
        each then waits for the previous chunk's merge, so merges happen one at a time, in order."""
        buf, n = self._buf, self._n
        self._buf, self._n = None, 0
        while len(self._inflight) >= self.workers:   # memory stays workers + 1 chunk buffers
            self._inflight.popleft().result()
        prev = self._inflight[-1] if self._inflight else None
        self._inflight.append(self._pool.submit(self._sort_merge, buf, n, prev))

    def _sort_merge(self, buf: np.ndarray, n: int, prev) -> None:
        k, c = _counted(buf[:n])
        del buf
        if prev is not None:
            prev.result()                        # the previous chunk is merged (or its error is raised here)
        self._merge(k, c)

    def _merge(self, k: np.ndarray, c: np.ndarray) -> None:
        """Merge the distinct keys ``k`` (sorted) and counts ``c`` of one chunk into the slices."""
        if not self._slices:
            self._slices = [(k, c)]
        else:
            firsts = np.array([sk[0] for sk, _ in self._slices[1:]], dtype=np.uint64)
            cut = np.concatenate([[0], np.searchsorted(k, firsts), [len(k)]])
            merged = []
            for i, (sk, sc) in enumerate(self._slices):
                a, b = cut[i], cut[i + 1]
                merged.append(_add(sk, sc, k[a:b], c[a:b]) if b > a else (sk, sc))
                self._slices[i] = None           # the old slice is freed as soon as it is merged
            self._slices = merged
        out = []
        for sk, sc in self._slices:             # split slices grown past twice the size
            parts = max(1, len(sk) // SLICE_KEYS)
            step = -(-len(sk) // parts)
            out.extend((sk[i:i + step], sc[i:i + step]) for i in range(0, len(sk), step))
        self._slices = out
        self._n_keys = sum(len(sk) for sk, _ in out)

    def _finish(self) -> None:
        if self._n:
            self._submit()
        while self._inflight:
            self._inflight.popleft().result()

    def columns(self, offsets) -> tuple:
        """The S and X columns of the distinct pairs (as :func:`unpack`) and their counts, built slice by
        slice while the slices are freed: memory stays near that of the distinct keys and counts (16
        bytes a pair), where :meth:`result` then :func:`unpack` need about twice as much."""
        self._finish()
        slices, self._slices = self._slices, []
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
        """(sorted distinct keys, their counts)."""
        self._finish()
        if not self._slices:
            return np.empty(0, np.uint64), np.empty(0, np.int64)
        keys = np.concatenate([sk for sk, _ in self._slices])
        counts = np.concatenate([sc for _, sc in self._slices])
        self._slices = []
        return keys, counts


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
