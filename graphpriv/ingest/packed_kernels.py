"""Compiled kernels of the bucketed counter of packed keys (:class:`graphpriv.ingest.packed.PackedCounter`).

- :func:`route`: packs each row's key ``s << 32 | x`` and appends it to the pending row of its bucket
  (buckets are consecutive key ranges cut at ``splitters``, found through a table over the key's high
  bits, so a lookup is one table read and usually no comparison); stops when a pending row is full.
- :func:`sort_keys`: least-significant-digit radix sort (11-bit digits) of one bucket's pending keys
  over their span only (a bucket spans a small part of the key space, so few passes).
- :func:`merge_into`: merges sorted pending keys (with repeats) into a bucket's sorted distinct keys
  and counts, in place from the back (the bucket's arrays keep some room, so a merge seldom
  allocates).

numba compiles them once per machine (``cache=True``); they release the GIL.
"""

from __future__ import annotations

import numba
import numpy as np

__all__ = ["locate", "merge_into", "route", "sort_keys"]

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
def route(s, x, start, splitters, table, kmin, shift, slot_of, arena, fill):
    """Append the keys ``s[i] << 32 | x[i]`` from row ``start`` on to the pending rows of their buckets
    (``arena[slot_of[bucket]]``, ``fill`` keys each). Returns ``(next row, bucket)`` as soon as a
    pending row is full (the caller merges that bucket, then calls again from the next row), or
    ``(len(s), -1)``."""
    cap = arena.shape[1]
    n = s.shape[0]
    for i in range(start, n):
        k = (s[i] << np.uint64(32)) | x[i]
        p = locate(k, splitters, table, kmin, shift)
        r = slot_of[p]
        f = fill[r]
        arena[r, f] = k
        f += 1
        fill[r] = f
        if f == cap:
            return i + 1, p
    return n, -1


@numba.njit(cache=True, nogil=True)
def sort_keys(a, tmp):
    """``a`` sorted (a or ``tmp``, which must be as long, holds the result; both are overwritten).
    The histograms of every digit are counted in one pass, then one scatter pass per digit."""
    n = a.shape[0]
    if n <= _SMALL:
        a.sort()
        return a
    lo = a[0]
    hi = a[0]
    for i in range(n):
        v = a[i]
        if v < lo:
            lo = v
        if v > hi:
            hi = v
    bits = 0
    span = hi - lo
    while span > 0:
        bits += 1
        span >>= np.uint64(1)
    passes = (bits + _RADIX_BITS - 1) // _RADIX_BITS
    mask = np.uint64(_RADIX - 1)
    count = np.zeros((passes, _RADIX), np.int64)
    for i in range(n):
        v = a[i] - lo
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
            b = ((v - lo) >> sh) & mask
            dst[count[d, b]] = v
            count[d, b] += 1
        src, dst = dst, src
    return src


@numba.njit(cache=True, nogil=True)
def merge_into(pending, keys, counts, m):
    """Merge ``pending`` (sorted, with repeats; a key counts once per occurrence) into the sorted
    distinct ``keys[:m]`` with ``counts[:m]``, in place (from the back). Returns the new number of
    keys, or minus the number needed when ``keys`` is too short (then nothing is changed)."""
    n = pending.shape[0]
    new = 0
    i = 0
    j = 0
    while i < n:
        k = pending[i]
        while j < m and keys[j] < k:
            j += 1
        if j == m or keys[j] != k:
            new += 1
        i += 1
        while i < n and pending[i] == k:
            i += 1
    total = m + new
    if total > keys.shape[0]:
        return -total
    i = n - 1
    j = m - 1
    o = total - 1
    while i >= 0:
        k = pending[i]
        c = 0
        while i >= 0 and pending[i] == k:
            c += 1
            i -= 1
        while j >= 0 and keys[j] > k:
            keys[o] = keys[j]
            counts[o] = counts[j]
            o -= 1
            j -= 1
        if j >= 0 and keys[j] == k:
            c += counts[j]
            j -= 1
        keys[o] = k
        counts[o] = c
        o -= 1
    return total
