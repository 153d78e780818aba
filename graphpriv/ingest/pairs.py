"""Distinct (s, x) pairs and their record counts, streamed from record batches.

:func:`scan_pairs` reads the two columns batch by batch and aggregates them with a streaming hash
group-by (pyarrow's Acero engine: memory is the distinct pairs plus a few batches in flight, never
the rows); :func:`pair_table` turns the aggregated keys into labels, applies the missing-value
policy and returns the integer codes and counts a :class:`graphpriv.JointRange` is built from.
Missing values are tallied from the aggregate (a null key is one group), and the first row numbers
with a missing value are recorded during the scan for the error message.
"""

from __future__ import annotations

import itertools
from dataclasses import dataclass, field
from typing import Any, Callable, Iterable, Iterator, Sequence

import numpy as np

from .._validation import MISSING, check_missing_policy
from ..errors import InputError, InputTypeError, MissingValueError
from .labels import labels_from_values
from .memory import release_freed, scan_memory_pool
from .packed import PackedCounter, field_offset, packed_fields, unpack

__all__ = ["PairCounts", "PairTable", "aggregate_pairs", "merge_pair_counts", "pair_table", "scan_pairs"]

#: Row numbers of missing values remembered per column (for the error message).
MAX_ROWS_SHOWN = 5


@dataclass
class PairCounts:
    """Aggregated keys: an arrow table ``s, x, n`` (one row per distinct pair, nulls included) and
    the first data-row numbers (from 0) where S or X is missing."""

    table: Any
    missing_rows: tuple[list[int], list[int]] = field(default_factory=lambda: ([], []))

    @property
    def n_rows(self) -> int:
        import pyarrow.compute as pc

        return int(pc.sum(self.table["n"]).as_py() or 0)


@dataclass
class PairTable:
    """What a :class:`~graphpriv.JointRange` is built from: labels, pair codes, counts and row tallies."""

    s_labels: np.ndarray
    x_labels: np.ndarray
    s_codes: np.ndarray
    x_codes: np.ndarray
    counts: np.ndarray
    report: dict
    #: With ``pair_table(..., keep_values=True)``: the distinct non-null public values as read (an arrow
    #: array) and the label code of each; :class:`graphpriv.ingest.values.ValueCodes` looks rows up in them.
    x_values: Any = None
    x_rank: np.ndarray | None = None


def _unviewed(a):
    """A ``string_view`` / ``binary_view`` array as ``large_string`` / ``large_binary`` (the same values):
    arrow's hash kernels (group-by, ``index_in``) have no view kernels."""
    import pyarrow as pa

    t = a.type
    if getattr(pa.types, "is_string_view", lambda _: False)(t):
        return a.cast(pa.large_string())
    if getattr(pa.types, "is_binary_view", lambda _: False)(t):
        return a.cast(pa.large_binary())
    return a


def _normalise(a, column: str):
    """A key array the hash group-by accepts: dictionaries decoded, float16 widened, NaN as null."""
    import pyarrow as pa
    import pyarrow.compute as pc

    if isinstance(a, pa.ChunkedArray):
        a = a.combine_chunks()
    if pa.types.is_dictionary(a.type):
        a = a.dictionary_decode()
    a = _unviewed(a)
    if pa.types.is_float16(a.type):
        a = pc.cast(a, pa.float32())
    if pa.types.is_floating(a.type):
        nan = pc.is_nan(a)
        if pc.any(nan).as_py():
            a = pc.if_else(nan, pa.scalar(None, a.type), a)
        # -0.0 and 0.0 are one number and one symbol (as in pandas and Python): arrow's hashing tells them
        # apart by their bits, so -0.0 becomes 0.0 (x + 0.0 keeps every other value, NaN aside)
        a = pc.add(a, pa.scalar(0.0, a.type))
    if pa.types.is_nested(a.type):
        raise InputTypeError(f"column {column!r} has type {a.type}, whose values cannot be symbols; use a column of "
                             "numbers or text")
    return a


def _keyed_batches(batches: Iterable, sensitive: str, public: str, missing_rows) -> Iterator:
    import pyarrow as pa
    import pyarrow.compute as pc

    offset = 0
    for b in batches:
        s = _normalise(b.column(sensitive), sensitive)
        x = s if public == sensitive else _normalise(b.column(public), public)
        for a, rows in ((s, missing_rows[0]), (x, missing_rows[1])):
            if a.null_count and len(rows) < MAX_ROWS_SHOWN:
                idx = pc.indices_nonzero(pc.is_null(a)).slice(0, MAX_ROWS_SHOWN - len(rows))
                rows.extend(int(i) + offset for i in idx.to_pylist())
        offset += b.num_rows
        yield pa.RecordBatch.from_arrays([s, x], names=["s", "x"])


def aggregate_pairs(batches: Iterable, sensitive: str, public: str, *, empty_ok: bool = False) -> PairCounts | None:
    """Stream ``batches`` (RecordBatches holding the columns ``sensitive`` and ``public``) through a
    distinct-with-counts aggregation on (s, x); return the distinct pairs with their counts (None for
    no rows when ``empty_ok``).

    Integer columns, and text columns of canonical integers, take the fast path (packed 64-bit keys
    counted by :mod:`graphpriv.ingest.packed`) when the first batch fits it; other sources are
    aggregated in memory up to :data:`IN_MEMORY_ROWS` rows, else by pyarrow's streaming hash group-by.
    """
    import pyarrow as pa
    import pyarrow.acero as ac

    missing_rows: tuple[list[int], list[int]] = ([], [])
    it = _keyed_batches(batches, sensitive, public, missing_rows)
    first = next(it, None)
    if first is None:
        if empty_ok:
            return None
        raise InputError("the data has a header but no data rows; a joint range needs at least one record")

    def same_schema(batches):
        for b in batches:
            yield b if b.schema == first.schema else b.cast(first.schema)

    if all(_int_like(f.type) for f in first.schema):
        first_int = _as_integers(first)      # text of canonical integers parsed once, not once per check
        if _packs(first_int):
            return PairCounts(_packed_aggregate(itertools.chain([first_int], same_schema(it))), missing_rows)

    buffered, rows = [first], first.num_rows          # small data: aggregated in memory at once
    for b in it:
        buffered.append(b if b.schema == first.schema else b.cast(first.schema))
        rows += b.num_rows
        if rows > IN_MEMORY_ROWS:
            break
    else:
        return PairCounts(_aggregate_in_memory(buffered), missing_rows)

    def chain():
        while buffered:
            yield buffered.pop(0)
        yield from same_schema(it)

    reader = pa.RecordBatchReader.from_batches(first.schema, chain())
    decl = ac.Declaration.from_sequence([
        ac.Declaration("record_batch_reader_source", ac.RecordBatchReaderSourceNodeOptions(reader)),
        ac.Declaration("aggregate", ac.AggregateNodeOptions([([], "hash_count_all", None, "n")], keys=["s", "x"])),
    ])
    try:
        table = decl.to_table(use_threads=True)
    except pa.ArrowNotImplementedError as exc:
        raise InputTypeError(f"the columns cannot be grouped ({exc}); use columns of numbers or text") from None
    return PairCounts(table.select(["s", "x", "n"]), missing_rows)


#: Sources of at most this many rows are aggregated in memory (the two columns, then one hash
#: factorisation per column and a sparse count of the code pairs: the fastest way when they fit);
#: larger ones are streamed, holding only the distinct pairs.
IN_MEMORY_ROWS = 1 << 24


def _aggregate_in_memory(batches):
    """Distinct (s, x) pairs with counts of RecordBatches (columns s, x) held in memory: arrow's
    dictionary encoding of each column, then scipy's COO -> CSR summation of the code pairs."""
    import pyarrow as pa
    import pyarrow.compute as pc
    import scipy.sparse as sp

    t = pa.Table.from_batches(batches)
    codes, dicts = [], []
    for name in ("s", "x"):
        enc = pc.dictionary_encode(t[name].combine_chunks())
        d = enc.dictionary
        codes.append(np.asarray(enc.indices.fill_null(len(d)).to_numpy(zero_copy_only=False), dtype=np.int32))
        dicts.append(d)
    del t
    shape = (len(dicts[0]) + 1, len(dicts[1]) + 1)          # the last code of each is "missing"
    m = sp.coo_array((np.ones(len(codes[0]), dtype=np.int64), (codes[0], codes[1])), shape=shape).tocsr()
    del codes
    m.sum_duplicates()
    coo = m.tocoo()

    def values(d, i, n):                 # dictionary-encoded: pair_table reuses the codes, no second hashing
        return pa.DictionaryArray.from_arrays(pa.array(i.astype(np.int32), mask=i == n - 1), d)

    return pa.table({"s": values(dicts[0], coo.row, shape[0]), "x": values(dicts[1], coo.col, shape[1]),
                     "n": pa.array(coo.data.astype(np.int64))})


def _as_integers(batch):
    """``batch`` with each text column of canonical decimal integers as int64 (others unchanged)."""
    import pyarrow as pa

    from .packed import _integers

    cols = []
    for a in batch.columns:
        v = _integers(a) if not pa.types.is_integer(a.type) else a
        cols.append(a if v is None else v)
    return pa.RecordBatch.from_arrays(cols, names=batch.schema.names)


def _packs(batch) -> bool:
    """Whether the pairs of ``batch`` (columns s, x) fit the packed integer keys."""
    offsets = (field_offset(batch.column(0), 0), field_offset(batch.column(1), 1))
    return packed_fields(batch.column(0), batch.column(1), offsets) is not None


def _int_like(t) -> bool:
    import pyarrow as pa

    return pa.types.is_integer(t) or pa.types.is_string(t) or pa.types.is_large_string(t)


def _batch_keys(batch, offsets):
    """("int", (S fields, X fields)) or ("generic", arrow table s, x, n) of one batch."""
    import pyarrow as pa

    fields = packed_fields(batch.column(0), batch.column(1), offsets)
    if fields is None:
        t = pa.Table.from_batches([batch]).group_by(["s", "x"]).aggregate([([], "count_all")])
        return "generic", pa.table({"s": t["s"], "x": t["x"], "n": t["count_all"]})
    return "int", fields


def _packed_aggregate(batches: Iterable):
    """Distinct pairs with counts of integer columns (and text of canonical integers): packed 64-bit
    keys (built on a thread pool) counted in a :class:`~graphpriv.ingest.packed.PackedCounter`;
    a batch that does not fit the packing (text, values beyond 32 bits) goes through arrow's hash group-by."""
    import os
    from collections import deque
    from concurrent.futures import ThreadPoolExecutor

    import pyarrow as pa

    batches = iter(batches)
    first = next(batches, None)
    if first is None:
        return pa.table({"s": pa.array([], pa.int64()), "x": pa.array([], pa.int64()), "n": pa.array([], pa.int64())})
    offsets = (field_offset(first.column(0), 0), field_offset(first.column(1), 1))
    generic: list = []
    workers = max(1, min(4, os.cpu_count() or 1))

    # numpy and pyarrow release the GIL: keys are built on `workers` threads, chunks sorted on two
    with PackedCounter(workers=min(2, workers)) as counter, ThreadPoolExecutor(max_workers=workers) as ex:
        def take(res):
            if res[0] == "int":
                counter.add(*res[1])
            else:
                generic.append(res[1])
                if len(generic) >= 16:
                    generic[:] = [_group_by_sum(_concat(generic))]

        pending: deque = deque([ex.submit(_batch_keys, first, offsets)])
        b = None
        for b in batches:
            pending.append(ex.submit(_batch_keys, b, offsets))
            while len(pending) > workers:
                take(pending.popleft().result())
        while pending:
            take(pending.popleft().result())
        del first, batches, pending, take, b
        counter._finish()                      # every pending key merged
        release_freed()                        # the scan's batches, kept by arrow's allocator
        s, x, c = counter.columns(offsets)     # range by range: about 16 bytes a distinct pair
    release_freed()
    tables = []
    if len(c):
        tables.append(pa.table({"s": s, "x": x, "n": pa.array(c)}))
    if generic:
        tables.append(_group_by_sum(_concat(generic)))
    if len(tables) == 1 and not generic:
        return tables[0]
    return _group_by_sum(_concat(tables))


#: The streamed aggregator of integer columns (the name of its earlier sorted-runs version).
_sorted_runs_aggregate = _packed_aggregate


def _concat(tables):
    """Concatenate aggregate tables whose key columns may be int64 in one and text or another integer
    type in another (integers then become their canonical decimal text, which is what they were read from)."""
    import pyarrow as pa

    import pyarrow.compute as pc

    tables = [t if not any(pa.types.is_dictionary(f.type) for f in t.schema) else
              pa.table({f.name: pc.cast(t[f.name], f.type.value_type) if pa.types.is_dictionary(f.type) else t[f.name]
                        for f in t.schema}) for t in tables]
    cols = {}
    for name in ("s", "x"):
        ts = [t.schema.field(name).type for t in tables]
        if any(pa.types.is_string(t) or pa.types.is_large_string(t) for t in ts):
            cols[name] = pa.string()
    if cols:
        tables = [t.cast(pa.schema([(f.name, cols.get(f.name, f.type)) for f in t.schema])) for t in tables]
    return pa.concat_tables(tables, promote_options="permissive")


def merge_pair_counts(parts: Sequence[PairCounts]) -> PairCounts:
    """Combine aggregates of consecutive row sets (files, partitions), in row order, into one: counts
    of equal pairs are added and each part's missing-row numbers are shifted by the rows before it."""
    import pyarrow as pa

    parts = [p for p in parts if p is not None]
    if not parts:
        return None
    if len(parts) == 1:
        return parts[0]
    table = _group_by_sum(_concat([p.table for p in parts]))
    rows: tuple[list[int], list[int]] = ([], [])
    offset = 0
    for p in parts:
        for k in (0, 1):
            rows[k].extend(r + offset for r in p.missing_rows[k])
        offset += p.n_rows
    return PairCounts(table, (sorted(rows[0])[:MAX_ROWS_SHOWN], sorted(rows[1])[:MAX_ROWS_SHOWN]))


def _group_by_sum(table):
    import pyarrow as pa

    t = table.group_by(["s", "x"], use_threads=True).aggregate([("n", "sum")])
    return pa.table({"s": t["s"], "x": t["x"], "n": t["n_sum"]})


def apply_missing_to_counts(n: np.ndarray, ns: np.ndarray, nx: np.ndarray, missing: str, names: tuple[str, str],
                            missing_rows=([], []), rows_note: str = "") -> tuple[np.ndarray | None, dict]:
    """The missing policy on distinct pairs with counts ``n`` (``ns``/``nx``: S/X missing, or None
    when none is).

    Returns (mask of the pairs kept or None for all, the :class:`~graphpriv.RangeSource` fields).
    """
    check_missing_policy(missing)
    miss_s, miss_x = (0 if m is None else int(n[m].sum()) for m in (ns, nx))
    report = {"n_rows": int(n.sum()), "n_missing_sensitive": miss_s, "n_missing_public": miss_x, "n_dropped": 0}
    if not (miss_s or miss_x):
        return None, report
    if missing == "error":
        parts = []
        for name, count, rows in ((names[0], miss_s, missing_rows[0]), (names[1], miss_x, missing_rows[1])):
            if count:
                rows = list(rows)[:MAX_ROWS_SHOWN]
                where = f" (rows {', '.join(str(r) for r in rows)}{', ...' if count > len(rows) else ''})" if rows else ""
                parts.append(f"column {name!r} has {count} missing value(s){where}")
        raise MissingValueError("; ".join(parts) + ". Pass missing='drop' to remove those rows or missing='keep' "
                                "to treat a missing value as a symbol of its own" + rows_note)
    if missing == "drop":
        anym = ns if nx is None else nx if ns is None else ns | nx
        report["n_dropped"] = int(n[anym].sum())
        if anym.all():
            raise InputError("every row has a missing value, nothing is left after missing='drop'; use missing='keep'")
        return ~anym, report
    return None, report


def _one_chunk(col):
    """The column as one array: its only chunk as it is (``combine_chunks`` copies even one chunk,
    1.6 GB for the three columns of 10^8 pairs), else the chunks concatenated."""
    return col.chunk(0) if col.num_chunks == 1 else col.combine_chunks()


def pair_table(pc_: PairCounts, *, missing: str = "error", names: tuple[str, str] = ("sensitive", "public"),
               numbers: Sequence[str] = (), rows_note: str = "", keep_values: bool = False) -> PairTable:
    """Labels, codes and counts of the aggregated pairs under the ``missing`` policy.

    ``numbers`` lists the roles ("sensitive", "public") whose text values are parsed as numbers.
    ``keep_values`` also keeps the public values as read with their label codes (``x_values``,
    ``x_rank``), so the rows of the source can be given label codes later with exactly this mapping.
    """
    import pyarrow as pa
    import pyarrow.compute as pc

    t = pc_.table
    s, x, n = (_one_chunk(t[name]) for name in ("s", "x", "n"))
    counts = np.asarray(n.to_numpy(zero_copy_only=False), dtype=np.int64)
    ns, nx = (np.asarray(pc.is_null(a).to_numpy(zero_copy_only=False), dtype=bool) if a.null_count else None for a in (s, x))
    keep, report = apply_missing_to_counts(counts, ns, nx, missing, names, pc_.missing_rows, rows_note)
    if keep is not None:
        mask = pa.array(keep)
        s, x, counts = pc.filter(s, mask), pc.filter(x, mask), counts[keep]
    filtered = keep is not None
    s_labels, s_codes = _encode(s, names[0], "sensitive" in numbers, filtered=filtered)
    kept: list = []
    x_labels, x_codes = _encode(x, names[1], "public" in numbers, kept if keep_values else None, filtered=filtered)
    pt = PairTable(s_labels, x_labels, s_codes, x_codes, counts, report)
    if keep_values:
        pt.x_values, pt.x_rank = kept
    return pt


def _encode(a, column: str, numbers: bool, kept: list | None = None, *, filtered: bool = True) -> tuple[np.ndarray, np.ndarray]:
    """Labels (graphpriv order, :data:`MISSING` last) and the code of every entry of ``a`` (a plain or
    dictionary-encoded arrow array). A list ``kept`` receives the distinct non-null values of ``a`` the
    labels were made from (an arrow array) and the label code of each. Unless ``filtered`` (pairs were
    removed after aggregation), every dictionary value is used: the aggregators build the
    dictionaries from the values present."""
    import pyarrow as pa
    import pyarrow.compute as pc

    enc = a if pa.types.is_dictionary(a.type) else pc.dictionary_encode(a)
    dictionary = enc.dictionary
    nulls = enc.indices.null_count > 0
    if nulls:
        idx = np.asarray(enc.indices.fill_null(-1).to_numpy(zero_copy_only=False), dtype=np.int64)
    else:                                 # no missing value: the indices as they are, no copy
        idx = np.asarray(enc.indices.to_numpy(zero_copy_only=False))
    used = _used(idx, len(dictionary)) if filtered else np.ones(len(dictionary), bool)
    if not used.all():                    # values of dropped pairs only are not labels
        new = np.cumsum(used) - 1
        idx = np.where(idx >= 0, new[np.maximum(idx, 0)] if len(new) else 0, -1)
        dictionary = dictionary.filter(pa.array(used))
    labels, rank = labels_from_values(dictionary, column, numbers)
    if kept is not None:
        kept[:] = [dictionary, np.asarray(rank, dtype=np.int64)]
    if not nulls and np.array_equal(rank, np.arange(len(rank))):
        return labels, idx            # already in label order (sorted integers); read-only codes, no copy
    codes = np.where(idx >= 0, rank[np.maximum(idx, 0)] if len(rank) else 0, len(labels))
    if (idx < 0).any():
        out = np.empty(len(labels) + 1, dtype=object)
        out[:-1] = labels.tolist()
        out[-1] = MISSING
        labels = out
    return labels, codes


def _used(idx: np.ndarray, n: int, block: int = 1 << 22) -> np.ndarray:
    """Which of ``n`` codes occur in ``idx`` (-1: missing), a block at a time (``np.bincount`` of all at
    once would first copy the codes to 64-bit integers)."""
    used = np.zeros(n, bool)
    for a in range(0, len(idx), block):
        part = idx[a:a + block]
        used[part[part >= 0]] = True
    return used


def scan_pairs(source: Any, sensitive: str, public: str, *, sep: str | None = None, encoding: str | None = "utf-8",
               na_values: Sequence[str] | None = None, on_progress: Callable[[int], None] | None = None,
               engine: str = "auto", scan=None, empty_ok: bool = False) -> PairCounts | None:
    """Aggregate the (``sensitive``, ``public``) pairs of a file, folder, glob or Dataset (streamed)."""
    from .batches import BatchScan

    if scan is None:
        scan = BatchScan(source, [sensitive, public], roles=["sensitive", "public"], sep=sep, encoding=encoding,
                         na_values=na_values, engine=engine, on_progress=on_progress)
    try:
        with scan_memory_pool():
            return aggregate_pairs(iter(scan), sensitive, public, empty_ok=empty_ok)
    except InputError as exc:
        if "no data rows" in str(exc):
            what = "a header but no data rows" if scan.source.format == "csv" else "no data rows"
            raise InputError(f"{scan.source.description!r} has {what}; a joint range needs at least one record") from None
        raise
