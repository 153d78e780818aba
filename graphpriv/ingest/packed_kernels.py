"""Compiled kernels of the buckets of packed keys (:class:`graphpriv.ingest.buckets.KeyBuckets`).

- :func:`select` packs each row's key ``s << 32 | x`` and keeps those of the caller's key range;
  :func:`route` appends each to the pending row of its bucket
  (buckets are consecutive key ranges cut at ``splitters``, found through a table over the key's high
  bits, so a lookup is one table read and usually no comparison); stops when a pending row is full.
- :func:`sort_keys`: least-significant-digit radix sort (11-bit digits) of one bucket's pending keys,
  made compact first (a bucket spans few S values, and the X fields often leave bits unused, so
  few passes).
- :func:`merge_pages`: merges sorted pending keys (with repeats) with a bucket's sorted distinct keys
  and counts, which live in fixed-size pages of two pools, into other pages of the pools (no array
  is allocated or freed while counting, and a bucket splits by handing out its pages);
  :func:`store_pages` writes the first buckets.
- :func:`unpack_pages`, :func:`mark_values`, :func:`rank_values` and :func:`rank_in_place`: the S and X
  columns of the result.

numba compiles them once per machine (``cache=True``); they release the GIL.
"""

from __future__ import annotations

import numba
import numpy as np

__all__ = ["locate", "mark_values", "merge_pages", "rank_in_place", "rank_values", "route", "select",
           "sort_keys", "store_pages", "unpack_pages"]

_RADIX_BITS = 11
_RADIX = 1 << _RADIX_BITS
#: Below this many keys numba's own sort beats the radix passes.
_SMALL = 256


@numba.njit(cache=True, nogil=True)
def locate(k, splitters, table, kmin, shift):
    """The bucket of key ``k``: the number of ``splitters`` (sorted) at most ``k``. ``table[c]`` is
    that number for the smallest key of cell ``c`` (cells of ``1 << shift`` keys from ``kmin``; keys
    outside fall in the first or last cell) and ``table[c + 1]`` bounds it for the cell's keys."""
    ncell = table.shape[0] - 1
    c = 0
    if k > kmin:
        cu = (k - kmin) >> shift
        c = ncell - 1 if cu >= np.uint64(ncell) else np.int64(cu)
    p = table[c]
    e = table[c + 1]
    if e - p > 8:                       # many splitters in one cell (a skewed key space): bisect
        while p < e:
            mid = (p + e) >> 1
            if splitters[mid] <= k:
                p = mid + 1
            else:
                e = mid
        return p
    while p < e and splitters[p] <= k:
        p += 1
    return p


@numba.njit(cache=True, nogil=True)
def select(s, x, lo, hi, out):
    """The keys ``s[i] << 32 | x[i]`` that lie in ``[lo, hi)``, in row order, into ``out`` (as long as
    ``s``); returns how many. Every key is written and the count advances only for the kept ones:
    no branch on a coin toss."""
    j = 0
    for i in range(s.shape[0]):
        k = (s[i] << np.uint64(32)) | x[i]
        out[j] = k
        j += 1 if (k >= lo) & (k < hi) else 0
    return j


@numba.njit(cache=True, nogil=True)
def route(keys, n, start, splitters, table, rows, kmin, shift, slot_of, bucket_of, arena, fill):
    """Append ``keys[start:n]`` to the pending rows of their buckets (``arena[slot_of[bucket]]``,
    ``fill`` keys each). A key's cell (as in :func:`locate`) names its pending row at once
    (``rows[cell]``) when the cell lies in one bucket, else :func:`locate` finds the bucket. Returns
    ``(next key, bucket)`` as soon as a pending row is full (``bucket_of`` maps a pending row to its
    bucket; the caller merges that bucket, then calls again from the next key), or ``(n, -1)``."""
    cap = arena.shape[1]
    ncell = rows.shape[0]
    for i in range(start, n):
        k = keys[i]
        c = 0
        if k > kmin:
            cu = (k - kmin) >> shift
            c = ncell - 1 if cu >= np.uint64(ncell) else np.int64(cu)
        r = rows[c]
        if r < 0:
            r = slot_of[locate(k, splitters, table, kmin, shift)]
        f = fill[r]
        arena[r, f] = k
        f += 1
        fill[r] = f
        if f == cap:
            return i + 1, bucket_of[r]
    return n, -1


@numba.njit(cache=True, nogil=True)
def _bit_length(v):
    bits = 0
    while v > 0:
        bits += 1
        v >>= np.uint64(1)
    return bits


@numba.njit(cache=True, nogil=True)
def sort_keys(a, tmp):
    """``a`` sorted (a or ``tmp``, which must be as long, holds the result; both are overwritten).

    The keys are first made compact: ``(s - smallest s) << w | x`` with ``w`` the bit width of the
    largest X field, which orders them as the keys do, and spans fewer bits when the X fields are
    small (X values below 2^24 leave 8 bits of every key unused). The compact keys are sorted by
    least significant 11-bit digits (the histograms of every digit counted in one pass, then one
    scatter pass per digit), then turned back into keys."""
    n = a.shape[0]
    if n <= _SMALL:
        a.sort()
        return a
    low = np.uint64(0xFFFFFFFF)
    s_lo = a[0] >> np.uint64(32)
    x_or = np.uint64(0)
    for i in range(n):
        s = a[i] >> np.uint64(32)
        if s < s_lo:
            s_lo = s
        x_or |= a[i] & low
    w = np.uint64(_bit_length(x_or))
    hi = np.uint64(0)
    for i in range(n):
        v = (((a[i] >> np.uint64(32)) - s_lo) << w) | (a[i] & low)
        a[i] = v
        if v > hi:
            hi = v
    passes = (_bit_length(hi) + _RADIX_BITS - 1) // _RADIX_BITS
    mask = np.uint64(_RADIX - 1)
    count = np.zeros((passes, _RADIX), np.int64)
    for i in range(n):
        v = a[i]
        for d in range(passes):
            count[d, (v >> np.uint64(d * _RADIX_BITS)) & mask] += 1
    src = a
    dst = tmp
    for d in range(passes):
        total = 0
        for b in range(_RADIX):
            c = count[d, b]
            count[d, b] = total
            total += c
        sh = np.uint64(d * _RADIX_BITS)
        for i in range(n):
            v = src[i]
            b = (v >> sh) & mask
            dst[count[d, b]] = v
            count[d, b] += 1
        src, dst = dst, src
    x_mask = (np.uint64(1) << w) - np.uint64(1) if w < np.uint64(64) else ~np.uint64(0)
    for i in range(n):
        v = src[i]
        src[i] = (((v >> w) + s_lo) << np.uint64(32)) | (v & x_mask)
    return src


@numba.njit(cache=True, nogil=True)
def merge_pages(pending, pending_counts, pool_keys, pool_counts, pages, m, out_pages):
    """Merge ``pending`` (sorted, with repeats; a key counts once per occurrence) with a bucket's ``m``
    sorted distinct keys and counts, held in the ``pages`` (rows of ``pool_keys``/``pool_counts``, all
    full but the last), into the ``out_pages`` (other rows of the pools, as many as the result can
    need), filled in turn. Returns the number of keys of the result.

    ``pending`` is first made distinct in place (``pending_counts`` receives the multiplicities),
    then the merge takes one of the two heads or both (equal keys) at every step, with selects
    rather than branches: which head is smaller is a coin toss the processor cannot predict."""
    n = pending.shape[0]
    page = pool_keys.shape[1]
    u = 0
    if n:
        pending_counts[0] = 1
        for i in range(1, n):
            k = pending[i]
            new = k != pending[u]
            u += 1 if new else 0
            pending[u] = k
            pending_counts[u] = (1 if new else pending_counts[u] + 1)
        u += 1
    i = 0
    j = 0
    o = 0
    in_k = pool_keys[pages[0] if m else out_pages[0]]
    in_c = pool_counts[pages[0] if m else out_pages[0]]
    out_k = pool_keys[out_pages[0]]
    out_c = pool_counts[out_pages[0]]
    joff = 0
    ooff = 0
    while i < u or j < m:
        in_left = min(page - joff, m - j)
        out_left = page - ooff
        if i < u and j < m:
            while i < u and joff < page and j < m and ooff < page:
                a = pending[i]
                b = in_k[joff]
                le = a <= b
                ge = a >= b
                out_k[ooff] = a if le else b
                out_c[ooff] = (pending_counts[i] if le else 0) + (in_c[joff] if ge else 0)
                i += 1 if le else 0
                j += 1 if ge else 0
                joff += 1 if ge else 0
                ooff += 1
                o += 1
        elif j < m:
            t = min(in_left, out_left)
            out_k[ooff:ooff + t] = in_k[joff:joff + t]
            out_c[ooff:ooff + t] = in_c[joff:joff + t]
            j += t
            joff += t
            ooff += t
            o += t
        else:
            t = min(u - i, out_left)
            out_k[ooff:ooff + t] = pending[i:i + t]
            out_c[ooff:ooff + t] = pending_counts[i:i + t]
            i += t
            ooff += t
            o += t
        if joff == page and j < m:
            in_k = pool_keys[pages[j // page]]
            in_c = pool_counts[pages[j // page]]
            joff = 0
        if ooff == page and (i < u or j < m):
            out_k = pool_keys[out_pages[o // page]]
            out_c = pool_counts[out_pages[o // page]]
            ooff = 0
    return o


@numba.njit(cache=True, nogil=True)
def store_pages(keys, counts, n, pool_keys, pool_counts, pages):
    """Write ``keys[:n]``/``counts[:n]`` into the ``pages`` (rows of the pools), filling each in turn."""
    page = pool_keys.shape[1]
    for q in range(pages.shape[0]):
        row = pages[q]
        a = q * page
        for t in range(min(page, n - a)):
            pool_keys[row, t] = keys[a + t]
            pool_counts[row, t] = counts[a + t]


@numba.njit(cache=True, nogil=True)
def unpack_pages(pool_keys, pool_counts, pages, n, at, s_code, x_field, out_counts, s_values, n_s, last):
    """Copy a bucket's ``n`` sorted keys (in ``pages`` of the pools) into the columns from row ``at``:
    the S field's rank among the distinct S fields so far (``s_values[:n_s]``, the last one ``last``),
    the X field, the count. Returns ``(n_s, last)``, or ``(-1, last)`` when ``s_values`` is full
    (nothing is written then)."""
    page = pool_keys.shape[1]
    need = n_s
    prev = last
    for q in range(pages.shape[0]):
        keys = pool_keys[pages[q]]
        for t in range(min(page, n - q * page)):
            s = keys[t] >> np.uint64(32)
            if need == 0 or s != prev:
                need += 1
                prev = s
    if need > s_values.shape[0]:
        return -1, last
    low = np.uint64(0xFFFFFFFF)
    j = at
    for q in range(pages.shape[0]):
        keys = pool_keys[pages[q]]
        counts = pool_counts[pages[q]]
        for t in range(min(page, n - q * page)):
            k = keys[t]
            s = k >> np.uint64(32)
            if n_s == 0 or s != last:
                s_values[n_s] = s
                n_s += 1
                last = s
            s_code[j] = n_s - 1
            x_field[j] = np.uint32(k & low)
            out_counts[j] = counts[t]
            j += 1
    return n_s, last


@numba.njit(cache=True, nogil=True)
def mark_values(field, lo, seen):
    """``seen[v - lo] = 1`` for every value ``v`` of ``field`` (uint32, all at least ``lo``)."""
    for i in range(field.shape[0]):
        seen[field[i] - lo] = 1


@numba.njit(cache=True, nogil=True)
def rank_values(seen, lo):
    """The values ``lo + v`` with ``seen[v]`` (sorted, uint64) and the table of their ranks (int32,
    -1 where not seen)."""
    table = np.empty(seen.shape[0], np.int32)
    n = 0
    for v in range(seen.shape[0]):
        if seen[v]:
            table[v] = n
            n += 1
        else:
            table[v] = -1
    values = np.empty(n, np.uint64)
    for v in range(seen.shape[0]):
        if seen[v]:
            values[table[v]] = v + lo
    return values, table


@numba.njit(cache=True, nogil=True)
def rank_in_place(field, lo, table):
    """Overwrite every value ``v`` of ``field`` (uint32) with its rank ``table[v - lo]`` (read the
    result as int32)."""
    for i in range(field.shape[0]):
        field[i] = np.uint32(table[field[i] - lo])
