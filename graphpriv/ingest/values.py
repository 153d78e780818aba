"""Label codes of the rows of a source, with the value-to-label mapping the joint range was built with.

Ingestion turns the distinct public values it read into labels (:func:`graphpriv.ingest.pairs.pair_table`:
:func:`~graphpriv.ingest.pairs._normalise` for the keys, then
:func:`~graphpriv.ingest.labels.labels_from_values` on the distinct values of the kept rows).
:class:`ValueCodes` keeps those distinct values as read, with the label code of each, and gives the
rows of any record batch of the same column their codes by looking the values up (pyarrow's hash
lookup, the same equality as the dictionary encoding that found the distinct values). Nothing is
converted a second time (a text column that ingestion counted as integers is converted by the same
function, :func:`graphpriv.ingest.packed._integers`), so a row's code is the code of its label exactly
as ingestion assigned it: ``"007"`` and ``7`` stay different values, a column of canonical integers
finds its integer labels, ``--numbers`` labels are found from the texts they were parsed from.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from ..errors import InputTypeError

__all__ = ["ValueCodes"]


class ValueCodes:
    """Row codes of a public column from the distinct values ingestion kept (see the module docstring).

    Parameters
    ----------
    values : pyarrow.Array
        The distinct non-null values of the kept rows, as read (``PairTable.x_values``).
    rank : int array
        The label code of each (``PairTable.x_rank``).
    missing_code : int or None
        The code of the label :data:`graphpriv.MISSING` (``--missing keep``), or None when missing
        values have no label.
    column : str
        The column's name (for error messages).
    """

    #: Code of a missing value that has no label of its own.
    MISSING = -1
    #: Code of a value that is not among the labels (it occurred only in dropped rows).
    UNKNOWN = -2

    def __init__(self, values, rank, missing_code: int | None, column: str):
        self.values = values
        self.rank = np.asarray(rank, dtype=np.int64)
        self.missing_code = missing_code
        self.column = column
        self._as: dict[Any, Any] = {}

    @classmethod
    def from_pair_table(cls, pt, column: str) -> "ValueCodes":
        """From a :class:`~graphpriv.ingest.PairTable` made with ``keep_values=True``."""
        from .._validation import MISSING

        if pt.x_values is None:
            raise ValueError("the pair table was made without keep_values=True")
        labels = pt.x_labels
        missing = len(labels) - 1 if len(labels) and labels[-1] is MISSING else None
        return cls(pt.x_values, pt.x_rank, missing, column)

    def _values_as(self, t):
        """The distinct values in the arrow type ``t`` of a batch (another integer width, text of another
        offset size; integers as their canonical text for a batch that is not all canonical integers)."""
        import pyarrow as pa
        import pyarrow.compute as pc

        if t not in self._as:
            v = self.values
            if v.type != t:
                try:
                    v = pc.cast(v, t)
                except (pa.ArrowInvalid, pa.ArrowNotImplementedError, pa.ArrowTypeError):
                    raise InputTypeError(f"column {self.column!r} has type {t} here but was read as {self.values.type}; "
                                         "write every part with the same schema") from None
            self._as[t] = v
        return self._as[t]

    def _positions(self, a) -> np.ndarray:
        """The position of every row's value among :attr:`values` (-1: not there, or missing).

        ``pc.index_in`` builds a hash table of all the values on every call (85 ms a batch at 10^6
        values); integers are found in a dense table of their range (when it is at most 16 times the
        number of values) or by binary search in the values sorted once, text through a hash
        table built once (a pandas Index: Python string equality is the byte equality of UTF-8), every
        other type by ``pc.index_in``. The tests check the three give the same positions."""
        import pyarrow as pa
        import pyarrow.compute as pc

        v = self._values_as(a.type)
        t = a.type
        if pa.types.is_integer(t) and len(v):
            key = ("sorted", t)
            if key not in self._as:
                vals = np.asarray(v.to_numpy(zero_copy_only=False)).astype(np.int64)
                lo, hi = int(vals.min()), int(vals.max())
                if hi - lo < min(1 << 24, max(16 * len(vals), 1 << 16)):    # a dense table: one load a row
                    table = np.full(hi - lo + 1, -1, dtype=np.int64)
                    table[vals - lo] = np.arange(len(vals))
                    self._as[key] = ("table", lo, table)
                else:                                                      # binary search
                    order = np.argsort(vals, kind="stable")
                    self._as[key] = ("search", vals[order], order)
            how = self._as[key]
            x = np.asarray(a.fill_null(0).to_numpy(zero_copy_only=False)).astype(np.int64, copy=False)
            if how[0] == "table":
                lo, table = how[1], how[2]
                off = x - lo
                inside = (off >= 0) & (off < len(table))
                pos = np.where(inside, table[np.where(inside, off, 0)], -1)
            else:
                sv, order = how[1], how[2]
                i = np.minimum(np.searchsorted(sv, x), len(sv) - 1)
                pos = np.where(sv[i] == x, order[i], -1)
        elif (pa.types.is_string(t) or pa.types.is_large_string(t)) and len(v):
            import pandas as pd

            key = ("index", t)
            if key not in self._as:
                self._as[key] = pd.Index(np.asarray(v.to_numpy(zero_copy_only=False), dtype=object))
            pos = self._as[key].get_indexer(np.asarray(a.to_numpy(zero_copy_only=False), dtype=object))
        else:
            return np.asarray(pc.index_in(a, value_set=v).fill_null(-1).to_numpy(zero_copy_only=False), dtype=np.int64)
        pos = np.asarray(pos, dtype=np.int64)
        if a.null_count:                                   # a null is found nowhere
            pos[np.asarray(a.is_null().to_numpy(zero_copy_only=False), dtype=bool)] = -1
        return pos

    def codes(self, array) -> np.ndarray:
        """The code of every row of ``array`` (a pyarrow Array or ChunkedArray of the column, as the
        scan gives it): its label's code, :attr:`missing_code` or :attr:`MISSING` for a missing value,
        :attr:`UNKNOWN` for a value outside the labels."""
        import pyarrow as pa

        from .packed import _integers
        from .pairs import _normalise

        a = _normalise(array, self.column)
        if pa.types.is_integer(self.values.type) and (pa.types.is_string(a.type) or pa.types.is_large_string(a.type)):
            # ingestion counted this text column as integers (every batch was canonical integer text):
            # convert it the same way (packed.py), so each text finds the integer it was counted as
            ints = _integers(a)
            if ints is not None:
                a = ints
        pos = self._positions(a)
        found = pos >= 0
        out = np.where(found, self.rank[np.where(found, pos, 0)] if len(self.rank) else 0, self.UNKNOWN)
        if a.null_count:
            na = np.asarray(a.is_null().to_numpy(zero_copy_only=False), dtype=bool)
            out[na] = self.MISSING if self.missing_code is None else self.missing_code
        return out.astype(np.int64, copy=False)
