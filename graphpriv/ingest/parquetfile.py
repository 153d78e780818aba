"""Parquet files and pyarrow Datasets scanned in record batches (pyarrow.dataset), with the column
types of every file checked against each other first (footers only)."""

from __future__ import annotations

from pathlib import Path
from typing import Callable, Iterator, Sequence

from ..errors import InputError, UnknownColumnError
from .sources import one_line

__all__ = ["parquet_footers", "dataset_batches"]

#: Rows per batch of a scan.
SCAN_BATCH_ROWS = 1 << 20
#: Rows of the row groups one scanner reads (a file's row groups are scanned in runs of about this
#: many rows, one scanner after another; see :func:`dataset_batches`).
SCAN_RUN_ROWS = 1 << 22


def _unknown(column, where: str, names: Sequence[str], role: str | None) -> UnknownColumnError:
    names = list(names)
    return UnknownColumnError(f"unknown {role + ' ' if role else ''}column {column!r} in {where}; it has columns "
                              f"{names[:20]}" + (" ..." if len(names) > 20 else ""))


def parquet_footers(files: Sequence[Path], columns: Sequence[str] | None, roles: Sequence[str] | None = None,
                    keys: Sequence[str] = ()):
    """(arrow schema of the first file, total rows) after checking that every file is readable
    Parquet, holds ``columns`` (or has them as Hive partition ``keys`` of its folders) and agrees with
    the first file on their types."""
    import pyarrow as pa
    import pyarrow.parquet as pq

    first = None
    total = 0
    for f in files:
        try:
            meta = pq.ParquetFile(str(f)).metadata
            schema = meta.schema.to_arrow_schema()
        except (pa.ArrowInvalid, OSError) as exc:
            raise InputError(f"data file {str(f)!r} is not a readable Parquet file ({one_line(exc, 120)}); check the file") from None
        total += meta.num_rows
        want = schema.names if columns is None else [c for c in columns if c in schema.names or c not in keys]
        for i, c in enumerate(want):
            if c not in schema.names:
                raise _unknown(c, repr(str(f)), schema.names, roles[i] if roles else None)
        if len(set(schema.names)) != len(schema.names):
            dup = sorted({n for n in schema.names if schema.names.count(n) > 1})
            raise InputError(f"data file {str(f)!r} has repeated column names {dup}; give every column a distinct name")
        if first is None:
            first = (f, schema)
            continue
        for c in want:
            t0, t1 = first[1].field(c).type, schema.field(c).type
            if t0 != t1:
                raise InputError(f"the files disagree on the type of column {c!r}: {str(first[0])!r} has {t0}, "
                                 f"{str(f)!r} has {t1}; write every part with the same schema")
    return first[1], total


def dataset_batches(dataset, columns: Sequence[str], *, on_rows: Callable[[int], None] | None = None,
                    batch_rows: int | None = None) -> Iterator["object"]:
    """Record batches of ``columns`` of a pyarrow Dataset (multi-threaded scan)."""
    import pyarrow as pa

    # Two batches of one file decoded ahead keep two cores busy; deeper readahead only holds more
    # decoded batches (peak RSS of a bare scan of 6*10^7 rows: 0.33 GiB at (2, 1), 0.59 at (4, 2),
    # 1.07 at pyarrow's default (16, 4)), and took more CPU time, not less, on a loaded machine.
    # A scanner whose consumer pauses (a sort of the keys counted so far) still decodes on, up to its
    # back-pressure limit (hundreds of MiB: a paused scan of one 2.4*10^7-row file grew by 350 MiB),
    # so each scanner reads a run of row groups of about SCAN_RUN_ROWS rows (a pause then holds at
    # most one run: 30 MiB).
    done = 0
    try:
        for part in _runs(dataset):
            scanner = part.scanner(columns=list(columns), batch_size=batch_rows or SCAN_BATCH_ROWS, use_threads=True,
                                   batch_readahead=2, fragment_readahead=1)
            for batch in scanner.to_batches():
                done += batch.num_rows
                if on_rows is not None:
                    on_rows(done)
                yield batch
    except (pa.ArrowInvalid, pa.ArrowTypeError, pa.ArrowNotImplementedError, OSError) as exc:
        raise InputError(f"cannot read the dataset ({one_line(exc, 160)}); check that every file is a readable "
                         "Parquet file with the same schema") from None


def _runs(dataset) -> Iterator["object"]:
    """``dataset`` as datasets of consecutive row groups of about :data:`SCAN_RUN_ROWS` rows (in file
    and row-group order); a dataset that is not one of Parquet files is given whole."""
    import pyarrow.dataset as pads

    if not isinstance(dataset, pads.FileSystemDataset) or not isinstance(dataset.format, pads.ParquetFileFormat):
        yield dataset
        return
    run, rows = [], 0
    for fragment in dataset.get_fragments():
        pieces = fragment.split_by_row_group()
        for piece in pieces:
            run.append(piece)
            rows += sum(rg.num_rows for rg in piece.row_groups)
            if rows >= SCAN_RUN_ROWS:
                yield pads.FileSystemDataset(run, dataset.schema, dataset.format, dataset.filesystem)
                run, rows = [], 0
    if run:
        yield pads.FileSystemDataset(run, dataset.schema, dataset.format, dataset.filesystem)


def open_dataset(source, schema, keys: Sequence[str] = ()):
    """A pyarrow Dataset of the Parquet files of ``source`` (a :class:`~graphpriv.ingest.Source`) with
    the file ``schema``; the Hive partition ``keys`` (not in the files) become columns typed by
    :func:`~graphpriv.ingest.sources.hive_type` of their folder values."""
    import pyarrow as pa
    import pyarrow.dataset as pads

    from .sources import hive_type

    files = [str(f) for f in source.files]
    if not keys:
        return pads.dataset(files, format="parquet", schema=schema)
    fields = [pa.field(k, hive_type(source.partition_values(k))) for k in keys]
    return pads.dataset(files, format="parquet", schema=pa.schema(list(schema) + fields, metadata=schema.metadata),
                        partitioning=pads.partitioning(pa.schema(fields), flavor="hive"),
                        partition_base_dir=str(source.base))
