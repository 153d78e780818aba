"""Reading data: strict CSV, Parquet, folders and globs of them, pyarrow Datasets and dask frames.

- :func:`iter_batches` / :class:`BatchScan`: pyarrow RecordBatches of some columns of any source,
  never the whole table (:mod:`.batches`, :mod:`.csvfile`, :mod:`.parquetfile`, :mod:`.sources`);
- :func:`scan_pairs`: the distinct (s, x) pairs and their counts, streamed (:mod:`.pairs`);
- :func:`read_columns`: some columns as a pandas DataFrame (:mod:`.tables`);
- :mod:`.cluster`: the same pairs computed on a dask cluster.

:func:`graphpriv.read_joint_range` builds a joint range from any of these.
"""

from .batches import BatchScan, iter_batches
from .labels import MAX_LABEL_CHARS, parse_numbers
from .pairs import PairCounts, PairTable, pair_table, scan_pairs
from .sources import BUILTIN_DATASETS, DEFAULT_NA_VALUES, Source, resolve_source, table_format
from .tables import read_columns

__all__ = [
    "BatchScan", "iter_batches", "scan_pairs", "pair_table", "PairCounts", "PairTable", "read_columns",
    "resolve_source", "Source", "table_format", "DEFAULT_NA_VALUES", "BUILTIN_DATASETS", "MAX_LABEL_CHARS",
    "parse_numbers",
]
