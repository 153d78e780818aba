"""The non-stochastic joint range [[S, X]] of paper 003 as a sparse boolean matrix.

A :class:`JointRange` is graphpriv's one core representation: a sparse boolean matrix ``M`` of shape
``(|S|, |X|)`` over integer codes, with ``M[i, j]`` true exactly when the pair
``(sensitive_labels[i], public_labels[j])`` occurs, plus the two label arrays. Graph views (the
bipartite support graph, the confusability graph G_X, networkx/igraph objects) are derived from it.
"""

from __future__ import annotations

import logging
from dataclasses import dataclass
from functools import cached_property
from typing import Hashable, Iterable, Iterator, Sequence

import numpy as np
import pandas as pd
import scipy.sparse as sp

from ._validation import MISSING, apply_missing_policy, check_pairs, factorize_labels, validate_pmf
from .errors import InputError, InputTypeError, UnknownColumnError, UnknownLabelError

__all__ = ["JointRange", "RangeSource", "MISSING", "read_joint_range"]

logger = logging.getLogger(__name__)


@dataclass(frozen=True)
class RangeSource:
    """Where a joint range came from: how many records were read, had missing values, were dropped."""

    n_rows: int
    n_missing_sensitive: int = 0
    n_missing_public: int = 0
    n_dropped: int = 0

    def __str__(self) -> str:
        return (
            f"{self.n_rows} rows read, {self.n_dropped} dropped "
            f"(missing: {self.n_missing_sensitive} sensitive, {self.n_missing_public} public)"
        )


def _label_array(labels: Sequence[Hashable] | None, n: int, prefix: str, name: str) -> np.ndarray:
    if labels is None:
        return np.array([f"{prefix}{i + 1}" for i in range(n)], dtype=object)
    arr = np.asarray(labels) if not isinstance(labels, np.ndarray) else labels
    if arr.ndim != 1 or len(arr) != n:
        raise InputError(f"{name} must have one label per {'row' if prefix == 's' else 'column'} ({n}), got {len(arr)}")
    try:
        if len(set(arr.tolist())) != n:
            raise InputError(f"{name} has repeated labels; every label must be distinct")
    except TypeError:
        raise InputTypeError(f"{name} holds unhashable labels; labels must be hashable (numbers, strings, tuples)") from None
    return arr


class JointRange:
    """Non-stochastic joint range [[S, X]] (paper 003, Section II): the set of (s, x) pairs that occur.

    Build one with :meth:`from_pairs`, :meth:`from_dataframe`, :meth:`from_matrix` or :meth:`from_pmf`.
    Instances are immutable; graph quantities (components) are computed once and cached.

    Parameters
    ----------
    matrix : scipy sparse array, shape (|S|, |X|)
        Boolean incidence of the support; every row and column must hold at least one pair.
    sensitive_labels, public_labels : sequences of hashable labels
    counts : scipy sparse array, optional
        Number of records per pair (same sparsity pattern), when the range was built from records.
    source : RangeSource, optional

    Examples
    --------
    >>> import graphpriv as gp
    >>> jr = gp.JointRange.from_pairs(["a", "a", "b", "c"], [1, 2, 2, 3])
    >>> jr
    JointRange(|S|=3, |X|=3, pairs=4)
    >>> sorted(jr.conditional_range(2))
    ['a', 'b']
    """

    __slots__ = ("_matrix", "_s_labels", "_x_labels", "_counts", "source", "__dict__")

    def __init__(self, matrix, sensitive_labels, public_labels, *, counts=None, source: RangeSource | None = None, _checked: bool = False):
        if not _checked:
            m = sp.csr_array(matrix, dtype=bool)
            m.sum_duplicates()
            m.eliminate_zeros()
            m.sort_indices()
            n_s, n_x = m.shape
            sensitive_labels = _label_array(sensitive_labels, n_s, "s", "sensitive_labels")
            public_labels = _label_array(public_labels, n_x, "x", "public_labels")
            _check_no_empty(m, sensitive_labels, public_labels)
            matrix = m
        self._matrix = matrix
        self._s_labels = np.asarray(sensitive_labels)
        self._x_labels = np.asarray(public_labels)
        self._s_labels.setflags(write=False)
        self._x_labels.setflags(write=False)
        self._counts = counts
        self.source = source

    # ------------------------------------------------------------------ constructors
    @classmethod
    def from_pairs(cls, sensitive: Iterable[Hashable], public: Iterable[Hashable], *, missing: str = "error") -> "JointRange":
        """Joint range of the records ``(sensitive[i], public[i])``.

        Parameters
        ----------
        sensitive, public : iterables of hashable labels, same length
        missing : {"error", "drop", "keep"}
            What to do with missing labels (None/NaN): raise (default), drop those records (counted in
            :attr:`source`), or keep a missing value as a symbol of its own (:data:`graphpriv.MISSING`).

        Notes
        -----
        Labels are sorted when comparable, otherwise kept in first-appearance order. Float labels that
        are all integral (e.g. a column that is float only because of NaN) become integers.
        Time and memory are linear in the number of records plus a sort of the distinct pairs.
        """
        s, x = check_pairs(sensitive, public)
        s, x, report = apply_missing_policy(s, x, missing)
        s_codes, s_labels = factorize_labels(s, "sensitive", keep_missing=missing == "keep")
        x_codes, x_labels = factorize_labels(x, "public", keep_missing=missing == "keep")
        return cls._from_codes(s_codes, x_codes, s_labels, x_labels, source=RangeSource(**report))

    @classmethod
    def _from_codes(cls, s_codes, x_codes, s_labels, x_labels, source=None) -> "JointRange":
        n_s, n_x = len(s_labels), len(x_labels)
        idx_dtype = np.int32 if max(n_s, n_x) < 2**31 - 1 else np.int64
        data = np.ones(len(s_codes), dtype=np.int32)
        counts = sp.coo_array((data, (s_codes.astype(idx_dtype, copy=False), x_codes.astype(idx_dtype, copy=False))), shape=(n_s, n_x)).tocsr()
        counts.sum_duplicates()
        matrix = sp.csr_array((np.ones(counts.nnz, dtype=bool), counts.indices, counts.indptr), shape=(n_s, n_x))
        return cls(matrix, s_labels, x_labels, counts=counts, source=source, _checked=True)

    @classmethod
    def _from_pair_table(cls, pt, counts: bool = True) -> "JointRange":
        """From a :class:`graphpriv.ingest.PairTable` (distinct pairs with record counts)."""
        n_s, n_x = len(pt.s_labels), len(pt.x_labels)
        c = _sorted_csr(pt.s_codes, pt.x_codes, pt.counts, (n_s, n_x))
        if c is None:
            idx_dtype = np.int32 if max(n_s, n_x) < 2**31 - 1 else np.int64
            c = sp.coo_array((np.asarray(pt.counts, dtype=np.int64),
                              (np.asarray(pt.s_codes).astype(idx_dtype, copy=False), np.asarray(pt.x_codes).astype(idx_dtype, copy=False))),
                             shape=(n_s, n_x)).tocsr()
            c.sum_duplicates()
            c.sort_indices()
        matrix = sp.csr_array((np.ones(c.nnz, dtype=bool), c.indices, c.indptr), shape=(n_s, n_x))
        return cls(matrix, pt.s_labels, pt.x_labels, counts=c if counts else None, source=RangeSource(**pt.report), _checked=True)

    @classmethod
    def from_dataframe(cls, df, sensitive: Hashable | Sequence[Hashable], public: Hashable | Sequence[Hashable], *,
                       missing: str = "error", **read_options) -> "JointRange":
        """Joint range of two columns of a table.

        Parameters
        ----------
        df : pandas.DataFrame, or a path, folder, glob or pyarrow Dataset
            The table, one record per row; it needs at least one row. A file source is read streamed
            by :func:`graphpriv.read_joint_range` (``read_options`` such as ``sep``, ``encoding``,
            ``na_values``, ``numbers`` go there).
        sensitive : column name or list of column names
            The sensitive attribute S. With a list, the values of those columns are combined into one
            tuple label per row (a row is missing when any of its columns is).
        public : column name or list of column names
            The public attribute X, as ``sensitive``.
        missing : {"error", "drop", "keep"}, default "error"
            What to do with missing values (None/NaN) in either column: raise
            :class:`~graphpriv.MissingValueError` naming the column (default), drop those rows (counted in
            :attr:`source`), or keep a missing value as a symbol of its own (:data:`graphpriv.MISSING`).

        Returns
        -------
        JointRange
            The joint range [[S, X]] of the distinct (s, x) pairs, with their record counts and the
            missing-value report in :attr:`source`.

        Raises
        ------
        InputTypeError
            ``df`` is neither a DataFrame nor a data source.
        UnknownColumnError
            A named column is not in the table (the message lists the table's columns).
        InputError
            The table has no rows, two columns share the chosen name, or a missing value with
            ``missing="error"``.

        See Also
        --------
        from_pairs : the same from two sequences of labels.
        graphpriv.datasets.load_hungarian : the bundled example table.

        Examples
        --------
        >>> import pandas as pd, graphpriv as gp
        >>> df = pd.DataFrame({"age": [30, 30, 41], "chol": [200.0, None, 180.0]})
        >>> gp.JointRange.from_dataframe(df, sensitive="age", public="chol", missing="drop").source.n_dropped
        1
        """
        if not isinstance(df, pd.DataFrame):
            if _is_source(df):
                return read_joint_range(df, sensitive=sensitive, public=public, missing=missing, **read_options)
            raise InputTypeError(f"df must be a pandas DataFrame (or a file, folder, glob or pyarrow Dataset), got {type(df).__name__}")
        if read_options:
            raise InputTypeError(f"unexpected argument(s) {sorted(read_options)} for a DataFrame; they apply to files only")
        if len(df) == 0:
            raise InputError("the table has no rows; a joint range needs at least one record")
        s = _column(df, sensitive, "sensitive")
        x = _column(df, public, "public")
        s, x, report = apply_missing_policy(s, x, missing, names=(str(sensitive), str(public)))
        s_codes, s_labels = factorize_labels(s, str(sensitive), keep_missing=missing == "keep")
        x_codes, x_labels = factorize_labels(x, str(public), keep_missing=missing == "keep")
        return cls._from_codes(s_codes, x_codes, s_labels, x_labels, source=RangeSource(**report))

    @classmethod
    def from_dask(cls, ddf, sensitive: Hashable, public: Hashable, *, missing: str = "error", client=None) -> "JointRange":
        """Joint range of two columns of a ``dask.dataframe.DataFrame``, computed on the cluster.

        Each partition's distinct (s, x) pairs and their counts are computed where the partition lives,
        merged in a tree (:data:`graphpriv.ingest.cluster.SPLIT_EVERY` at a time) and only the distinct
        pairs are brought back: memory on the client is that of the joint range, not of the rows.
        The result equals :meth:`from_dataframe` on ``ddf.compute()`` (labels, counts, :attr:`source`).
        Runs on ``client`` (a ``distributed.Client``), else dask's default scheduler (a
        ``distributed.Client`` created earlier becomes the default). Needs ``graphpriv[dask]``.

        Examples
        --------
        >>> import pandas as pd, dask.dataframe as dd, graphpriv as gp
        >>> ddf = dd.from_pandas(pd.DataFrame({"s": [1, 1, 2, 3], "x": ["a", "b", "b", None]}), npartitions=2)
        >>> jr = gp.JointRange.from_dask(ddf, sensitive="s", public="x", missing="drop")
        >>> jr, jr.source.n_dropped
        (JointRange(|S|=2, |X|=2, pairs=3), 1)
        """
        from .ingest.cluster import dask_pair_table

        return cls._from_pair_table(dask_pair_table(ddf, sensitive, public, missing=missing, client=client))

    @classmethod
    def from_matrix(cls, matrix, sensitive_labels: Sequence[Hashable] | None = None, public_labels: Sequence[Hashable] | None = None) -> "JointRange":
        """Joint range from a boolean (0/1) matrix of shape (|S|, |X|), dense or scipy sparse.

        Default labels are ``s1, s2, ...`` and ``x1, x2, ...``. Every row and column must hold a pair
        (a label that never occurs is not in the range).
        """
        arr = _as_2d(matrix, "matrix")
        if sp.issparse(arr):
            vals = arr.data
        else:
            vals = np.asarray(arr)
        if vals.dtype != bool:
            if not np.issubdtype(vals.dtype, np.number):
                raise InputTypeError(f"matrix must be boolean or 0/1 numeric, got dtype {vals.dtype}")
            if np.isnan(vals.astype(float)).any() or not np.isin(vals, (0, 1)).all():
                raise InputError("matrix must hold only 0/1 (or booleans); for probabilities use JointRange.from_pmf")
        return cls(arr, sensitive_labels, public_labels)

    @classmethod
    def from_pmf(cls, pmf, sensitive_labels: Sequence[Hashable] | None = None, public_labels: Sequence[Hashable] | None = None, *, atol: float = 1e-9) -> "JointRange":
        """Support {(s, x): p(s, x) > 0} of a joint pmf given as an (|S|, |X|) matrix.

        The pmf is validated (finite, non-negative, sums to 1 within ``atol``). Symbols of zero
        probability are not in the support: they are left out of the range and logged.
        """
        p = validate_pmf(pmf, ndim=2, atol=atol)
        n_s, n_x = p.shape
        s_lab = _label_array(sensitive_labels, n_s, "s", "sensitive_labels")
        x_lab = _label_array(public_labels, n_x, "x", "public_labels")
        keep_s = p.sum(axis=1) > 0
        keep_x = p.sum(axis=0) > 0
        if not keep_s.all() or not keep_x.all():
            logger.info("from_pmf: %d sensitive and %d public symbols have zero probability and are not in the support",
                        int((~keep_s).sum()), int((~keep_x).sum()))
        p = p[np.ix_(keep_s, keep_x)]
        return cls(sp.csr_array(p > 0), s_lab[keep_s], x_lab[keep_x])

    # ------------------------------------------------------------------ basic properties
    @property
    def matrix(self) -> sp.csr_array:
        """Boolean CSR incidence matrix of shape (|S|, |X|) (do not modify)."""
        return self._matrix

    @property
    def counts(self) -> sp.csr_array | None:
        """Records per pair (same pattern as :attr:`matrix`) when built from records, else None."""
        return self._counts

    @property
    def sensitive_labels(self) -> np.ndarray:
        """Labels of [[S]], in code order."""
        return self._s_labels

    @property
    def public_labels(self) -> np.ndarray:
        """Labels of [[X]], in code order (this order defines the indices of paper 003's tie rules)."""
        return self._x_labels

    @property
    def n_sensitive(self) -> int:
        return self._matrix.shape[0]

    @property
    def n_public(self) -> int:
        return self._matrix.shape[1]

    @property
    def shape(self) -> tuple[int, int]:
        return self._matrix.shape

    @property
    def n_pairs(self) -> int:
        """|[[S, X]]|: number of distinct (s, x) pairs."""
        return int(self._matrix.nnz)

    @cached_property
    def _csc(self) -> sp.csc_array:
        return self._matrix.tocsc()

    @cached_property
    def public_degrees(self) -> np.ndarray:
        """|[[S|x]]| for every public value x (in code order)."""
        return np.bincount(self._matrix.indices, minlength=self.n_public)

    @cached_property
    def sensitive_degrees(self) -> np.ndarray:
        """|[[X|s]]| for every sensitive value s (in code order)."""
        return np.diff(self._matrix.indptr)

    @cached_property
    def _x_index(self) -> dict:
        return {lab: i for i, lab in enumerate(self._x_labels.tolist())}

    @cached_property
    def _s_index(self) -> dict:
        return {lab: i for i, lab in enumerate(self._s_labels.tolist())}

    def public_code(self, x: Hashable) -> int:
        """Integer code of the public label ``x``."""
        try:
            return self._x_index[x]
        except (KeyError, TypeError):
            raise UnknownLabelError(f"{x!r} is not a public value of this joint range; public values are e.g. {_preview(self._x_labels)}") from None

    def sensitive_code(self, s: Hashable) -> int:
        """Integer code of the sensitive label ``s``."""
        try:
            return self._s_index[s]
        except (KeyError, TypeError):
            raise UnknownLabelError(f"{s!r} is not a sensitive value of this joint range; sensitive values are e.g. {_preview(self._s_labels)}") from None

    def conditional_range(self, x: Hashable) -> frozenset:
        """[[S|x]]: the sensitive values that occur with the public value ``x``."""
        j = self.public_code(x)
        csc = self._csc
        return frozenset(self._s_labels[csc.indices[csc.indptr[j]:csc.indptr[j + 1]]].tolist())

    def public_range(self, s: Hashable) -> frozenset:
        """[[X|s]]: the public values that occur with the sensitive value ``s``."""
        i = self.sensitive_code(s)
        m = self._matrix
        return frozenset(self._x_labels[m.indices[m.indptr[i]:m.indptr[i + 1]]].tolist())

    def pairs(self) -> Iterator[tuple[Hashable, Hashable]]:
        """Iterate over the (s, x) pairs, sorted by codes."""
        coo = self._matrix.tocoo()
        for i, j in zip(coo.row.tolist(), coo.col.tolist()):
            yield self._s_labels[i], self._x_labels[j]

    @property
    def n_singleton_pairs(self) -> int | None:
        """Number of pairs seen in exactly one record (None when counts are unknown)."""
        return None if self._counts is None else int((self._counts.data == 1).sum())

    def to_frame(self) -> pd.DataFrame:
        """The pairs as a two-column DataFrame (plus ``count`` when known)."""
        coo = self._matrix.tocoo()
        df = pd.DataFrame({"sensitive": self._s_labels[coo.row], "public": self._x_labels[coo.col]})
        if self._counts is not None:
            df["count"] = self._counts.tocoo().data
        return df

    # ------------------------------------------------------------------ derived ranges
    def restrict(self, sensitive: Iterable[Hashable] | None = None, public: Iterable[Hashable] | None = None) -> "JointRange":
        """The joint range restricted to S in ``sensitive`` and X in ``public`` (None keeps all).

        Labels left without any pair are not in the restricted range and are removed. Label order is kept.
        """
        rows = np.arange(self.n_sensitive) if sensitive is None else np.sort(np.array([self.sensitive_code(s) for s in sensitive], dtype=np.int64))
        cols = np.arange(self.n_public) if public is None else np.sort(np.array([self.public_code(x) for x in public], dtype=np.int64))
        sub = self._matrix[rows][:, cols]
        counts = None if self._counts is None else self._counts[rows][:, cols]
        keep_r = np.diff(sub.tocsr().indptr) > 0
        keep_c = np.bincount(sub.tocsr().indices, minlength=len(cols)) > 0
        if not keep_r.any():
            raise InputError("the restriction leaves no (s, x) pair; choose labels that occur together")
        sub = sp.csr_array(sub[keep_r][:, keep_c])
        if counts is not None:
            counts = sp.csr_array(counts[keep_r][:, keep_c])
        return JointRange(sub, self._s_labels[rows[keep_r]], self._x_labels[cols[keep_c]], counts=counts, source=self.source)

    def transpose(self) -> "JointRange":
        """The same pairs with the roles of S and X swapped ([[X, S]])."""
        counts = None if self._counts is None else sp.csr_array(self._counts.T)
        return JointRange(sp.csr_array(self._matrix.T), self._x_labels, self._s_labels, counts=counts, source=self.source)

    # ------------------------------------------------------------------ comparison / display
    def _pair_set(self) -> frozenset:
        return frozenset(self.pairs())

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, JointRange):
            return NotImplemented
        if self.shape != other.shape or self.n_pairs != other.n_pairs:
            return False
        if np.array_equal(self._s_labels, other._s_labels) and np.array_equal(self._x_labels, other._x_labels):
            return (self._matrix != other._matrix).nnz == 0
        return set(self._s_labels.tolist()) == set(other._s_labels.tolist()) and self._pair_set() == other._pair_set()

    __hash__ = None  # type: ignore[assignment]

    def __repr__(self) -> str:
        return f"JointRange(|S|={self.n_sensitive}, |X|={self.n_public}, pairs={self.n_pairs})"


# ---------------------------------------------------------------------- reading
def _is_source(obj) -> bool:
    import os

    if isinstance(obj, (str, os.PathLike)):
        return True
    try:
        import pyarrow.dataset as pads
    except ImportError:  # pragma: no cover - pyarrow is a core dependency
        return False
    return isinstance(obj, pads.Dataset)


def _roles(numbers) -> tuple[str, ...]:
    if numbers in (False, None):
        return ()
    if numbers is True or numbers == "both":
        return ("sensitive", "public")
    vals = (numbers,) if isinstance(numbers, str) else tuple(numbers)
    for v in vals:
        if v not in ("sensitive", "public"):
            raise InputError(f"numbers={numbers!r} must be False, True, 'sensitive', 'public' or 'both'")
    return vals


def read_joint_range(source, sensitive: str, public: str, missing: str = "error", counts: bool = True, *,
                     sep: str | None = None, encoding: str = "utf-8", na_values: Sequence[str] | None = None,
                     numbers=False, client=None, on_progress=None, engine: str = "auto") -> JointRange:
    """Joint range of two columns of a CSV or Parquet file, a folder or glob of them, or a pyarrow Dataset.

    The two columns are scanned in record batches (pyarrow.dataset; CSV by graphpriv's strict reader)
    and only the distinct (s, x) pairs with their record counts are kept (a streaming hash group-by),
    so memory is that of the joint range, never of the rows: a 2*10^8-row Parquet dataset with 10^7
    distinct pairs needs well under 2 GiB. :attr:`JointRange.source` counts the rows read, dropped and
    missing exactly as :meth:`JointRange.from_dataframe` does.

    Parameters
    ----------
    source : path, folder, glob pattern or pyarrow.dataset.Dataset
        A folder means every CSV/Parquet file below it (a partitioned dataset); all files must hold
        both columns and, for Parquet, agree on their types. A pandas or dask DataFrame is accepted too
        (:meth:`JointRange.from_dataframe`, :meth:`JointRange.from_dask`).
    sensitive, public : str
        Column names of S and X.
    missing : {"error", "drop", "keep"}
        As in :meth:`JointRange.from_pairs`; the error names the first rows (data rows counted from 0).
    counts : bool
        Keep the record count of each pair (:attr:`JointRange.counts`).
    sep, encoding, na_values :
        CSV delimiter, text encoding and missing-value tokens (default
        :data:`graphpriv.ingest.DEFAULT_NA_VALUES`).
    numbers : bool or {"sensitive", "public", "both"}
        CSV values are symbols as written: ``"007"``, ``"7"`` and ``"7.0"`` are three values (a column
        of canonical integers gets integer labels). With ``numbers`` the values of those columns are
        parsed as numbers, and two texts that are the same number are an error, not merged.
    client : distributed.Client or str, optional
        Read the files on this dask cluster (one task per file, then a tree of merges); the workers
        must see the files at the same paths. A string is a scheduler address.
    on_progress : callable, optional
        Called with the bytes (CSV) or rows (Parquet) read so far, after every batch.
    engine : {"auto", "python", "pyarrow"}
        CSV parser; both give the same records (see :mod:`graphpriv.ingest.csvfile`).

    Raises
    ------
    InputError
        Missing path, a glob matching nothing, malformed CSV (with its line), files disagreeing on the
        column types, no data rows, missing values under ``missing="error"``.
    UnknownColumnError
        A column is not in a file.

    Examples
    --------
    >>> import os, tempfile, graphpriv as gp
    >>> d = tempfile.mkdtemp()
    >>> for k in range(2):
    ...     with open(os.path.join(d, f"part-{k}.csv"), "w") as fh:
    ...         _ = fh.write("s,x\\n1,007\\n2,7\\n")
    >>> jr = gp.read_joint_range(d, sensitive="s", public="x")
    >>> jr.public_labels.tolist(), jr.source.n_rows, jr.counts.toarray().tolist()
    (['007', '7'], 4, [[2, 0], [0, 2]])
    """
    if isinstance(source, pd.DataFrame):
        return JointRange.from_dataframe(source, sensitive=sensitive, public=public, missing=missing)
    if type(source).__module__.startswith(("dask", "dask_expr")) and hasattr(source, "to_delayed"):
        return JointRange.from_dask(source, sensitive=sensitive, public=public, missing=missing, client=client)
    pt = _read_pair_table(source, sensitive, public, missing, sep=sep, encoding=encoding, na_values=na_values,
                          numbers=numbers, client=client, on_progress=on_progress, engine=engine)
    return JointRange._from_pair_table(pt, counts=counts)


def _read_pair_table(source, sensitive: str, public: str, missing: str = "error", *, sep=None, encoding="utf-8",
                     na_values=None, numbers=False, client=None, on_progress=None, engine: str = "auto",
                     keep_values: bool = False):
    """The :class:`graphpriv.ingest.PairTable` behind :func:`read_joint_range` of a file source (same
    arguments); ``keep_values`` keeps the public values as read with their label codes."""
    from .ingest import BatchScan, pair_table, scan_pairs

    for role, c in (("sensitive", sensitive), ("public", public)):
        if not isinstance(c, str):
            raise InputTypeError(f"{role} must be one column name (a string) when reading files, got {c!r}")
    roles = _roles(numbers)
    if client is not None:
        from .ingest.cluster import cluster_pair_counts
        from .parallel import connect

        scan = BatchScan(source, [sensitive, public], roles=["sensitive", "public"], sep=sep, encoding=encoding,
                         na_values=na_values, engine=engine)       # checks headers and types here, first
        if scan.source.format == "dataset":
            raise InputError("client= reads files (a path, folder or glob); for a pyarrow Dataset read it locally")
        own = isinstance(client, str)
        cl = connect(client) if own else client
        try:
            pc_ = cluster_pair_counts(scan.source, sensitive, public, cl, sep=sep, encoding=encoding,
                                      na_values=na_values, engine=engine)
        finally:
            if own:
                cl.close()
    else:
        pc_ = scan_pairs(source, sensitive, public, sep=sep, encoding=encoding, na_values=na_values,
                         on_progress=on_progress, engine=engine)
    return pair_table(pc_, missing=missing, names=(sensitive, public), numbers=roles, keep_values=keep_values)


# ---------------------------------------------------------------------- helpers
def _sorted_csr(s_codes, x_codes, counts, shape, block: int = 1 << 22):
    """The CSR matrix of distinct pairs already in CSR order (S codes non-decreasing, X codes
    increasing within each S code), sharing their arrays (the streamed readers deliver them so); None
    when they are not in that order. Saves the COO -> CSR copy: 1.2 GB at 10^8 pairs."""
    s = np.asarray(s_codes)
    x = np.asarray(x_codes)
    n = len(s)
    if n == 0 or s.dtype != x.dtype or s.dtype not in (np.int32, np.int64) or n >= np.iinfo(s.dtype).max:
        return None
    for a in range(0, n - 1, block):
        b = min(n, a + block + 1)
        ds = s[a + 1:b] - s[a:b - 1]
        if (ds < 0).any() or ((ds == 0) & (x[a + 1:b] <= x[a:b - 1])).any():
            return None
    if s[0] < 0 or s[-1] >= shape[0] or x.min() < 0 or x.max() >= shape[1]:
        return None
    indptr = np.searchsorted(s, np.arange(shape[0] + 1, dtype=s.dtype)).astype(s.dtype)
    return sp.csr_array((np.asarray(counts, dtype=np.int64), x, indptr), shape=shape)


def _preview(labels: np.ndarray, k: int = 5) -> str:
    items = [repr(v) for v in labels[:k].tolist()]
    return "[" + ", ".join(items) + (", ...]" if len(labels) > k else "]")


def _column(df: pd.DataFrame, col, role: str) -> pd.Series:
    cols = list(col) if isinstance(col, (list, tuple)) else [col]
    for c in cols:
        if c not in df.columns:
            raise UnknownColumnError(f"unknown {role} column {c!r}; the table has columns {list(df.columns)[:20]}")
        n = int((df.columns == c).sum())
        if n > 1:
            raise InputError(f"the table has {n} columns named {c!r}; give every column a distinct name "
                             "(e.g. df.columns = [...]) before choosing the {role} column".replace("{role}", role))
    if len(cols) == 1:
        return df[cols[0]].reset_index(drop=True)
    sub = df[cols]
    tuples = pd.Series(list(sub.itertuples(index=False, name=None)), dtype=object)
    tuples[sub.isna().any(axis=1).to_numpy()] = None
    return tuples


def _as_2d(matrix, name: str):
    if sp.issparse(matrix):
        if matrix.ndim != 2:
            raise InputError(f"{name} must be two-dimensional")
        return sp.csr_array(matrix)
    try:
        arr = np.asarray(matrix)
    except Exception as exc:  # pragma: no cover - numpy conversion failures are rare
        raise InputTypeError(f"{name} could not be read as a matrix: {exc}") from None
    if arr.ndim != 2:
        raise InputError(f"{name} must be a two-dimensional (|S| x |X|) matrix, got shape {arr.shape}")
    if arr.size == 0:
        raise InputError(f"{name} is empty; a joint range needs at least one (s, x) pair")
    return arr


def _check_no_empty(m: sp.csr_array, s_labels: np.ndarray, x_labels: np.ndarray) -> None:
    if m.nnz == 0:
        raise InputError("the matrix has no pair; a joint range needs at least one (s, x) pair")
    empty_r = np.flatnonzero(np.diff(m.indptr) == 0)
    empty_c = np.flatnonzero(np.bincount(m.indices, minlength=m.shape[1]) == 0)
    if empty_r.size or empty_c.size:
        what = []
        if empty_r.size:
            what.append(f"sensitive value(s) {_preview(s_labels[empty_r])} (rows {empty_r[:5].tolist()})")
        if empty_c.size:
            what.append(f"public value(s) {_preview(x_labels[empty_c])} (columns {empty_c[:5].tolist()})")
        raise InputError(
            "every label of a joint range must occur in at least one pair, but " + " and ".join(what)
            + " have none; remove those rows/columns (or use JointRange.from_pmf, which drops zero-probability symbols)"
        )
