"""The distinct packed keys of one key range with their counts, in sorted buckets.

A :class:`KeyBuckets` owns the keys in ``[lo, hi)``. It cuts them into buckets (consecutive key
ranges, cut at ``splitters``); each bucket holds its distinct keys and counts, sorted, in fixed-size
pages of two pools, and a pending row of at most ``chunk_rows`` keys:

- :meth:`KeyBuckets.route` keeps the keys of the range (without a branch per key) and appends each to
  its bucket's pending row (a table over the key's high bits finds the bucket, usually with no
  comparison);
- a full pending row is radix-sorted over the bucket's span and merged with the bucket's keys in one
  linear pass into free pages, and the bucket's old pages are freed;
- a bucket grown past ``2 * slice_keys`` keys is split into pieces of about ``slice_keys`` keys by
  handing out its pages, so the buckets follow the data wherever its keys lie.

Work per row: the lookup and the append, its share of one radix sort of a pending row (in cache),
and ``(keys of its bucket + chunk_rows) / chunk_rows`` merged keys (about 1.75 by default). Memory: the pages
(12 bytes a distinct key with 32-bit counts, 16 with 64-bit ones) and the pending rows (8 bytes a
slot), reserved as address space and touched only when used; nothing is allocated or freed per
merge, so the C allocator holds no freed memory. The compiled kernels are in
:mod:`graphpriv.ingest.packed_kernels`; they release the GIL, so the buckets of disjoint ranges are
filled on parallel threads.
"""

from __future__ import annotations

import numpy as np

__all__ = ["KeyBuckets"]

#: Table cells per bucket for the lookup of a key's bucket (at most 2^16 cells).
_CELLS_PER_BUCKET = 16
#: One past the largest packed key: the upper end of the last range.
KEY_END = np.uint64(2**64 - 1)


class KeyBuckets:
    """The keys in ``[lo, hi)`` with their counts (see the module's docstring).

    Parameters
    ----------
    keys, counts : sorted distinct keys in the range and their counts (the first buckets)
    lo, hi : the range (numpy uint64)
    chunk_rows, slice_keys, page_keys : pending keys per bucket, keys per bucket after a split, keys
        per page (at most ``slice_keys``)
    count_type : numpy dtype of the counts (uint32 while fewer than 2^32 rows were read, else int64)
    arena_bytes, pool_bytes : address space reserved for the pending rows and the pages (doubled,
        by copying, when used up)
    """

    def __init__(self, keys: np.ndarray, counts: np.ndarray, lo, hi, *, chunk_rows: int, slice_keys: int,
                 page_keys: int, count_type, arena_bytes: int, pool_bytes: int):
        from . import packed_kernels

        self._k = packed_kernels
        self.lo, self.hi = np.uint64(lo), np.uint64(hi)
        self.chunk_rows, self.slice_keys, self.page_keys = chunk_rows, slice_keys, page_keys
        rows = min(1 << 16, max(4, arena_bytes // (8 * chunk_rows)))
        self._arena = reserve((rows, chunk_rows), np.uint64)
        self._fill = np.zeros(rows, np.int64)
        self._rows_used = 0                        # rows and pages are taken in order, never given back
        n_pages = min(1 << 20, max(16, pool_bytes // (8 * page_keys)))
        n_pages = max(n_pages, 2 * -(-len(keys) // page_keys))
        self._pool_keys = reserve((n_pages, page_keys), np.uint64)
        self._pool_counts = reserve((n_pages, page_keys), count_type)
        self._pages_used = 0
        self._free: list[int] = []                 # pages given back by merges
        self._tmp = np.empty(chunk_rows, np.uint64)
        self._keys = None                          # the keys of a batch in the range
        self._pend_counts = np.empty(chunk_rows, count_type)
        self._splitters = np.empty(0, np.uint64)
        self._slot_of = np.array([self._new_row()], np.int64)
        self._kmin, self._kmax = (keys[0], keys[-1]) if len(keys) else (self.lo, self.lo)
        pages = self._pages(-(-len(keys) // page_keys))
        self._k.store_pages(keys, counts.astype(count_type), len(keys), self._pool_keys, self._pool_counts, pages)
        #: Each bucket: [pages (int64 rows of the pools), number of keys]; all its pages are full but the last.
        self._buckets: list[list] = [[pages, len(keys)]]
        self._split(0)
        self._make_table()

    @property
    def n_keys(self) -> int:
        """Distinct keys merged so far (pending keys not included)."""
        return sum(n for _, n in self._buckets)

    def widen_counts(self) -> None:
        """Hold counts in 64 bits from now on (before a count could pass 2^32 - 1)."""
        if self._pool_counts.dtype == np.int64:
            return
        wide = reserve(self._pool_counts.shape, np.int64)
        wide[:self._pages_used] = self._pool_counts[:self._pages_used]
        self._pool_counts = wide
        self._pend_counts = self._pend_counts.astype(np.int64)

    # ------------------------------------------------------------------ counting
    def route(self, s: np.ndarray, x: np.ndarray) -> None:
        """Count the keys ``s << 32 | x`` (uint64 fields) that lie in the range."""
        k = self._k
        if self._keys is None or len(self._keys) < len(s):
            self._keys = np.empty(len(s), np.uint64)
        n, i = k.select(s, x, self.lo, self.hi, self._keys), 0
        while i < n:
            i, full = k.route(self._keys, n, i, self._splitters, self._table, self._rows, self._base, self._shift,
                              self._slot_of, self._bucket_of, self._arena, self._fill)
            if full >= 0:
                self._flush(full, split=True)

    def finish(self) -> None:
        """Merge every pending key and free the pending rows."""
        if self._arena is None:
            return
        for p in range(len(self._buckets)):
            self._flush(p)
        self._arena = self._fill = self._tmp = self._pend_counts = self._keys = None

    def _flush(self, p: int, split: bool = False) -> None:
        """Sort bucket ``p``'s pending keys and merge them with its keys (then split it when it holds
        more than twice ``slice_keys`` keys, with ``split``)."""
        r = self._slot_of[p]
        n = self._fill[r]
        if not n:
            return
        k = self._k
        pend = k.sort_keys(self._arena[r, :n], self._tmp[:n])
        b = self._buckets[p]
        out = self._pages(-(-(n + b[1]) // self.page_keys))       # room for the largest result
        size = k.merge_pages(pend, self._pend_counts, self._pool_keys, self._pool_counts, b[0], b[1], out)
        used = -(-size // self.page_keys)
        self._free.extend(b[0].tolist())                          # the bucket's old pages, and the ones left over
        self._free.extend(out[used:].tolist())
        b[0], b[1] = out[:used], size
        self._fill[r] = 0
        last = self._pool_keys[b[0][-1], (size - 1) % self.page_keys]
        self._kmin, self._kmax = min(self._kmin, self._pool_keys[b[0][0], 0]), max(self._kmax, last)
        if split and self._split(p):
            self._make_table()

    def _split(self, p: int) -> bool:
        """Split bucket ``p`` (its pending row empty) into pieces of about ``slice_keys`` keys, whole
        pages each, when it holds more than twice that; whether it did."""
        pages, size = self._buckets[p]
        parts = size // self.slice_keys
        if parts < 2:
            return False
        per = -(-len(pages) // parts)                  # pages a piece
        starts = range(0, len(pages), per)
        self._buckets[p:p + 1] = [[pages[a:a + per], min(size, (a + per) * self.page_keys) - a * self.page_keys]
                                  for a in starts]
        self._splitters = np.insert(self._splitters, p, [self._pool_keys[pages[a], 0] for a in starts[1:]])
        self._slot_of = np.insert(self._slot_of, p + 1, [self._new_row() for _ in starts[1:]])
        return True

    def _pages(self, n: int) -> np.ndarray:
        """``n`` free pages of the pools: pages given back first, then unused ones (the pools double
        when too few are left)."""
        reuse = min(n, len(self._free))
        taken = self._free[len(self._free) - reuse:]
        del self._free[len(self._free) - reuse:]
        n -= reuse
        old = len(self._pool_keys)
        if self._pages_used + n > old:
            new = max(2 * old, self._pages_used + n)
            for name in ("_pool_keys", "_pool_counts"):
                pool = getattr(self, name)
                grown = reserve((new, pool.shape[1]), pool.dtype)
                grown[:self._pages_used] = pool[:self._pages_used]
                setattr(self, name, grown)
                del pool, grown
        self._pages_used += n
        return np.concatenate([np.array(taken, np.int64), np.arange(self._pages_used - n, self._pages_used, dtype=np.int64)])

    def _new_row(self) -> int:
        """An unused pending row of the arena (twice as many rows are made when none is left)."""
        old = len(self._arena)
        if self._rows_used == old:
            arena = reserve((2 * old, self.chunk_rows), np.uint64)
            for r in range(old):                       # the filled part of each row only
                arena[r, :self._fill[r]] = self._arena[r, :self._fill[r]]
            self._arena = arena
            self._fill = np.concatenate([self._fill, np.zeros(old, np.int64)])
        self._rows_used += 1
        return self._rows_used - 1

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
        # the cells inside one bucket name its pending row (most cells: one read finds a key's row)
        last = np.empty(ncell, np.int64)
        last[:-1] = np.searchsorted(self._splitters, lows[1:] - np.uint64(1), side="right")
        last[-1] = nsp
        self._rows = np.where(table[:-1] == last, self._slot_of[table[:-1]], -1)
        self._bucket_of = np.empty(len(self._fill), np.int64)
        self._bucket_of[self._slot_of] = np.arange(len(self._slot_of))
        self._table, self._base, self._shift = table, self._kmin, np.uint64(shift)

    # ------------------------------------------------------------------ results
    def unpack_into(self, at: int, s_code: np.ndarray, x_field: np.ndarray, counts: np.ndarray) -> np.ndarray:
        """Write the keys (in order) from row ``at`` of the columns: each key's S field as its rank
        among this range's distinct S fields, its X field, its count. Returns those S fields, sorted,
        and frees the pages."""
        self.finish()
        s_values = np.empty(min(max(self.n_keys, 1), 1 << 16), np.uint64)
        n_s, last = 0, np.uint64(0)
        for pages, n in self._buckets:
            while True:
                got, last2 = self._k.unpack_pages(self._pool_keys, self._pool_counts, pages, n, at, s_code, x_field,
                                                  counts, s_values, n_s, last)
                if got >= 0:
                    n_s, last = got, last2
                    break
                s_values = np.concatenate([s_values, np.empty(max(len(s_values), n), np.uint64)])
            at += n
        self._buckets, self._pool_keys, self._pool_counts = [], None, None
        return s_values[:n_s]

    def arrays(self) -> tuple[np.ndarray, np.ndarray]:
        """(sorted distinct keys, int64 counts), freeing the pages."""
        self.finish()
        total = self.n_keys
        keys, counts = np.empty(total, np.uint64), np.empty(total, np.int64)
        at = 0
        for pages, n in self._buckets:
            for q, row in enumerate(pages):
                take = min(self.page_keys, n - q * self.page_keys)
                keys[at:at + take] = self._pool_keys[row, :take]
                counts[at:at + take] = self._pool_counts[row, :take]
                at += take
        self._buckets, self._pool_keys, self._pool_counts = [], None, None
        return keys, counts


def reserve(shape: tuple[int, ...], dtype) -> np.ndarray:
    """An array of ``shape`` in its own anonymous memory map: address space only, until its pages are
    first written, and returned to the system when the array is freed. Unlike ``np.empty``, whose
    large arrays NumPy asks the kernel to back with 2 MiB huge pages: with the page cache full of
    the files being read, each huge page can stall on memory compaction (the pending rows and the
    bucket pages took 1.5-2x longer to fill so on a 23 GiB machine)."""
    import mmap

    size = int(np.prod(shape)) * np.dtype(dtype).itemsize
    if size == 0:
        return np.empty(shape, dtype)
    return np.frombuffer(mmap.mmap(-1, size), dtype=dtype).reshape(shape)
