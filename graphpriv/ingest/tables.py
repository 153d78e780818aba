"""Some columns of a CSV or Parquet source as a pandas DataFrame (the in-memory reader)."""

from __future__ import annotations

import os
from typing import Any, Sequence

from ..errors import InputError
from .batches import BatchScan

__all__ = ["read_columns"]


def read_columns(source: str | os.PathLike | Any, columns: Sequence[str] | None = None, *,
                 roles: Sequence[str] | None = None, na_values: Sequence[str] | None = None, sep: str | None = None,
                 raw: bool = False, encoding: str = "utf-8", engine: str = "auto"):
    """Read ``columns`` (default: all) of a CSV or Parquet file, folder or glob as a DataFrame.

    CSV is read strictly (see :mod:`graphpriv.ingest.csvfile`): a malformed record is an error naming
    its line, and the frame has exactly the file's records. Fields are kept as written: a column is
    integer (``Int64`` when it has missing values) only when every value is a canonical decimal integer
    (``7``, ``-12``; not ``007``, ``+7``, ``7.0``), otherwise text. ``raw=True`` keeps every field as
    its exact text with no missing-value tokens. Parquet columns keep their stored types.

    Raises
    ------
    InputError
        Missing, empty or malformed file; a header without data rows.
    UnknownColumnError
        A requested column is not in the file.
    """
    import pyarrow as pa

    scan = BatchScan(source, columns, roles=roles, sep=sep, encoding=encoding, na_values=na_values, raw=raw,
                     engine=engine)
    table = pa.Table.from_batches(list(scan), schema=scan.schema)
    if table.num_rows == 0:
        raise InputError(f"data file {scan.source.description!r} has a header but no data rows; a joint range needs "
                         "at least one record")
    if scan.source.format != "csv":
        return table.to_pandas()
    import pandas as pd

    out = {}
    for name in table.column_names:
        col = table[name].combine_chunks()
        out[name] = _text_column(col, raw)
        del col
    del table
    return pd.DataFrame(out)


def _text_column(col, raw: bool):
    import pyarrow as pa
    import pyarrow.compute as pc

    from .labels import _CANONICAL_INT

    present = col.drop_null()
    if not raw and len(present) and pc.all(pc.match_substring_regex(present, _CANONICAL_INT)).as_py():
        ints = pc.cast(col, pa.int64())
        if ints.null_count:
            return ints.to_pandas(types_mapper={pa.int64(): __import__("pandas").Int64Dtype()}.get)
        return ints.to_numpy()
    return col.to_pandas()
