"""One scanning API for every source: :func:`iter_batches` yields pyarrow RecordBatches of the asked
columns, whatever the source (CSV or Parquet file, folder, glob, pyarrow Dataset), never holding more
than one batch of rows.

CSV fields arrive as the exact text of the file (strict parsing, see :mod:`graphpriv.ingest.csvfile`)
with the missing-value tokens turned into nulls (unless ``raw``); Parquet and Dataset columns keep
their stored types.
"""

from __future__ import annotations

from typing import Any, Callable, Iterator, Sequence

from ..errors import InputError, UnknownColumnError
from .csvfile import csv_batches, csv_options, read_header
from .parquetfile import dataset_batches, open_dataset, parquet_footers
from .sources import DEFAULT_NA_VALUES, Source, resolve_source

__all__ = ["BatchScan", "iter_batches"]


class BatchScan:
    """A checked scan of ``columns`` of ``source``: iterate it for pyarrow RecordBatches.

    Opening it resolves the source and checks every file's header or footer (columns present,
    Parquet types agreeing), so errors come before any row is read. ``total`` and ``unit`` (``"B"``
    for CSV bytes, ``"rows"`` for Parquet) size a progress bar; ``on_progress(done, total, unit)``
    is called after each batch.

    Parameters
    ----------
    source : path, folder, glob or pyarrow.dataset.Dataset
    columns : sequence of str, optional
        Columns to read, in this order (repeats are read once); default all columns of the first file.
    roles : sequence of str, optional
        What each column is for ("sensitive", "public"), used in error messages.
    sep, encoding : CSV delimiter and text encoding (see :func:`graphpriv.ingest.csvfile.csv_options`).
    na_values : sequence of str, optional
        CSV tokens read as null (default :data:`DEFAULT_NA_VALUES`); ignored with ``raw``.
    raw : bool
        CSV only: keep every field as its exact text, no missing-value tokens.
    engine : {"auto", "python", "pyarrow"}
        CSV parser (see :func:`graphpriv.ingest.csvfile.csv_batches`); the records are the same.
    """

    def __init__(self, source: Any, columns: Sequence[str] | None = None, *, roles: Sequence[str] | None = None,
                 sep: str | None = None, encoding: str | None = "utf-8", na_values: Sequence[str] | None = None,
                 raw: bool = False, engine: str = "auto", on_progress: Callable[[int, Any, str], None] | None = None):
        self.source: Source = resolve_source(source)
        self.roles = roles
        self.raw = raw
        self.engine = engine
        self.on_progress = on_progress
        self.na_values = list(DEFAULT_NA_VALUES if na_values is None else na_values)
        if columns is not None:
            columns = list(columns)
            for c in columns:
                if not isinstance(c, str):
                    raise InputError(f"column names must be strings, got {c!r}")
        src = self.source
        keys = src.partition_keys
        if src.format == "csv":
            self._opts = [csv_options(sep, encoding, f) for f in src.files]
            self._headers = []
            for f, opts in zip(src.files, self._opts):
                header, line = read_header(f, opts)
                if len(set(header)) != len(header):
                    dup = sorted({h for h in header if header.count(h) > 1})
                    raise InputError(f"data file {str(f)!r} has repeated column names {dup}; give every column a distinct name")
                want = header if columns is None else columns
                self._check(want, list(header) + [k for k in keys if k not in header], f)
                self._headers.append((header, line))
                if columns is None:
                    columns = list(header)
            self.columns = list(dict.fromkeys(columns))
            self.total, self.unit = src.n_bytes, "B"
        elif src.format == "parquet":
            schema, self.total = parquet_footers(src.files, columns, roles, keys)
            self.columns = list(dict.fromkeys(schema.names if columns is None else columns))
            self._dataset = open_dataset(src, schema, [c for c in self.columns if c not in schema.names])
            self.unit = "rows"
        else:
            names = src.dataset.schema.names
            want = names if columns is None else columns
            self._check(want, names, src.description)
            self.columns = list(dict.fromkeys(want))
            self._dataset = src.dataset
            self.total, self.unit = None, "rows"

    def _check(self, want, names, where) -> None:
        for i, c in enumerate(want):
            if c not in names:
                role = f"{self.roles[i]} " if self.roles and i < len(self.roles) else ""
                names = list(names)
                raise UnknownColumnError(f"unknown {role}column {c!r} in {str(where)!r}; it has columns {names[:20]}"
                                         + (" ..." if len(names) > 20 else ""))

    @property
    def schema(self):
        """The arrow schema of the batches."""
        import pyarrow as pa

        if self.source.format == "csv":
            return pa.schema([(c, pa.string()) for c in self.columns])
        return pa.schema([self._dataset.schema.field(c) for c in self.columns])

    def __iter__(self) -> Iterator["object"]:
        if self.source.format == "csv":
            batches = self._csv()
        else:
            batches = dataset_batches(self._dataset, self.columns, on_rows=None if self.on_progress is None else self._report)
        for b in batches:               # a Parquet file with no rows (or no row groups) gives empty batches
            if b.num_rows:
                yield b

    def _report(self, done: int) -> None:
        self.on_progress(done, self.total, self.unit)

    def _csv(self):
        import pyarrow as pa

        na = None if self.raw or not self.na_values else pa.array(self.na_values, pa.string())
        null = pa.scalar(None, pa.string())
        offset = 0
        keys = self.source.partition_keys
        for k, (f, opts, (header, line)) in enumerate(zip(self.source.files, self._opts, self._headers)):
            # a column not in the file is a Hive partition key: its folder value in every row
            const = {c: self.source.partitions[k][keys.index(c)][1] for c in self.columns if c not in header}
            idx = [header.index(c) for c in self.columns if c in header] or [0]
            cb = None
            if self.on_progress is not None:
                def cb(n, base=offset):
                    self._report(base + n)
            for batch in csv_batches(f, opts, header, line, idx, on_bytes=cb, engine=self.engine):
                n = batch.num_rows
                arrays = [batch.column(f"c{header.index(c)}") if c not in const else
                          pa.nulls(n, pa.string()) if const[c] is None else pa.repeat(pa.scalar(const[c], pa.string()), n)
                          for c in self.columns]
                if na is not None:
                    arrays = [_nulled(a, na, null) for a in arrays]
                yield pa.RecordBatch.from_arrays(arrays, names=self.columns)
            offset += f.stat().st_size


def _nulled(a, na, null):
    """``a`` with the values in ``na`` (missing-value tokens) as nulls; ``a`` itself when it has none."""
    import pyarrow.compute as pc

    hit = pc.is_in(a, value_set=na)
    return pc.if_else(hit, null, a) if pc.any(hit).as_py() else a


def iter_batches(source: Any, columns: Sequence[str] | None = None, **options) -> Iterator["object"]:
    """pyarrow RecordBatches of ``columns`` of ``source`` (see :class:`BatchScan` for the options).

    Examples
    --------
    >>> import os, tempfile
    >>> from graphpriv.ingest import iter_batches
    >>> d = tempfile.mkdtemp()
    >>> with open(os.path.join(d, "t.csv"), "w") as fh:
    ...     _ = fh.write('s,x,note\\n1,007,"a, b"\\n2,7,\\n')
    >>> [b.to_pydict() for b in iter_batches(os.path.join(d, "t.csv"), ["s", "x"])]
    [{'s': ['1', '2'], 'x': ['007', '7']}]
    """
    return iter(BatchScan(source, columns, **options))
