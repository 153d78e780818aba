"""Distinct (s, x) pairs computed on a dask cluster: only the pairs and their counts come back.

Two entry points:

- :func:`dask_pair_table` for a ``dask.dataframe.DataFrame``: one task per partition computes the
  distinct pairs of that partition with their counts (pandas ``groupby(..., dropna=False).size()``),
  then a tree of merge tasks (``SPLIT_EVERY`` parts at a time) adds the counts of equal pairs, and
  the client fetches the final table only;
- :func:`cluster_pair_counts` for files (CSV or Parquet, a folder or glob): one task per file runs
  graphpriv's own streamed reader (:func:`graphpriv.ingest.scan_pairs`, strict CSV included) on a
  worker, then the same tree of merges. The workers must see the files at the same paths.

Both need the optional extra ``graphpriv[dask]`` (``dask[distributed]``).
"""

from __future__ import annotations

from typing import Any, Sequence

import numpy as np

from ..errors import InputError, InputTypeError
from .pairs import MAX_ROWS_SHOWN, PairCounts, PairTable, apply_missing_to_counts, merge_pair_counts, scan_pairs
from .sources import Source

__all__ = ["SPLIT_EVERY", "dask_pair_table", "cluster_pair_counts"]

#: Parts merged by one task of the tree reduction.
SPLIT_EVERY = 8


def _need_dask():
    try:
        import dask  # noqa: F401
        import dask.dataframe  # noqa: F401
    except ImportError:
        raise InputError("dask is not installed; run pip install 'graphpriv[dask]'") from None


# ---------------------------------------------------------------------- dask DataFrames
def _partition_pairs(df, sensitive, public):
    """(distinct pairs with counts, rows, first rows with S / X missing) of one pandas partition."""
    import pandas as pd

    s = df[sensitive].reset_index(drop=True)
    x = df[public].reset_index(drop=True)
    pairs = pd.DataFrame({"s": s, "x": x})
    g = pairs.groupby(["s", "x"], dropna=False, sort=False, observed=True).size().rename("n").reset_index()
    rows = tuple(np.flatnonzero(pd.isna(c).to_numpy())[:MAX_ROWS_SHOWN].tolist() for c in (s, x))
    return g, len(df), rows


def _merge_partitions(*parts):
    """Merge consecutive partition results (in row order)."""
    import pandas as pd

    frames = [p[0] for p in parts]
    cat = pd.concat(frames, ignore_index=True)
    g = cat.groupby(["s", "x"], dropna=False, sort=False, observed=True)["n"].sum().reset_index()
    rows: tuple[list[int], list[int]] = ([], [])
    offset = 0
    for _, n, r in parts:
        for k in (0, 1):
            rows[k].extend(i + offset for i in r[k])
        offset += n
    return g, offset, (rows[0][:MAX_ROWS_SHOWN], rows[1][:MAX_ROWS_SHOWN])


def _tree(tasks, merge):
    from dask import delayed

    while len(tasks) > 1:
        tasks = [delayed(merge)(*tasks[i:i + SPLIT_EVERY]) for i in range(0, len(tasks), SPLIT_EVERY)]
    return tasks[0]


def dask_pair_table(ddf, sensitive, public, *, missing: str = "error", client=None) -> PairTable:
    """Distinct pairs and counts of two columns of a dask DataFrame, computed on the workers.

    Labels follow :meth:`graphpriv.JointRange.from_dataframe` on the same (pandas) values: sorted
    when comparable, integral floats as integers, missing values under ``missing``.
    """
    _need_dask()
    import dask
    import dask.dataframe as dd
    import pandas as pd
    from dask import delayed

    from .._validation import factorize_labels

    if not isinstance(ddf, dd.DataFrame):
        raise InputTypeError(f"ddf must be a dask DataFrame, got {type(ddf).__name__}; for pandas use JointRange.from_dataframe")
    for role, c in (("sensitive", sensitive), ("public", public)):
        if c not in ddf.columns:
            raise InputError(f"unknown {role} column {c!r}; the dask DataFrame has columns {list(ddf.columns)[:20]}")
    cols = list(dict.fromkeys([sensitive, public]))
    parts = [delayed(_partition_pairs)(p, sensitive, public) for p in ddf[cols].to_delayed()]
    if not parts:
        raise InputError("the dask DataFrame has no partitions; a joint range needs at least one record")
    task = _tree(parts, _merge_partitions)
    (g, n_rows, rows), = (client.compute(task).result(),) if client is not None else dask.compute(task)
    if n_rows == 0:
        raise InputError("the dask DataFrame has no rows; a joint range needs at least one record")
    counts = g["n"].to_numpy(dtype=np.int64)
    ns = pd.isna(g["s"]).to_numpy(dtype=bool)
    nx = pd.isna(g["x"]).to_numpy(dtype=bool)
    keep, report = apply_missing_to_counts(counts, ns, nx, missing, (str(sensitive), str(public)), rows)
    if keep is not None:
        g, counts = g[keep].reset_index(drop=True), counts[keep]
    s_codes, s_labels = factorize_labels(g["s"], str(sensitive), keep_missing=missing == "keep")
    x_codes, x_labels = factorize_labels(g["x"], str(public), keep_missing=missing == "keep")
    return PairTable(s_labels, x_labels, s_codes, x_codes, counts, report)


# ---------------------------------------------------------------------- files on a cluster
def _file_task(path, sensitive: str, public: str, options: dict) -> PairCounts:
    return scan_pairs(path, sensitive, public, empty_ok=True, **options)


def _merge_task(*parts: PairCounts) -> PairCounts:
    return merge_pair_counts(parts)


def cluster_pair_counts(files: Sequence[Any] | Source, sensitive: str, public: str, client, **options) -> PairCounts:
    """Aggregate the pairs of ``files`` (paths the workers can open, or a resolved
    :class:`~graphpriv.ingest.Source`, whose files keep their Hive partition values) on ``client``'s
    cluster: one task per file, then a tree of merges; only the final distinct pairs are sent back."""
    _need_dask()
    if isinstance(files, Source):
        tasks = [files.file(i) for i in range(len(files.files))]
    else:
        tasks = [str(f) for f in files]
    futures = client.map(_file_task, tasks, sensitive=sensitive, public=public, options=options, pure=False)
    while len(futures) > 1:
        futures = [client.submit(_merge_task, *futures[i:i + SPLIT_EVERY], pure=False)
                   for i in range(0, len(futures), SPLIT_EVERY)]
    result = futures[0].result()
    if result is None:
        raise InputError("the data has a header but no data rows; a joint range needs at least one record")
    return result
