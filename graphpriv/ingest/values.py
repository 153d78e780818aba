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

    def codes(self, array) -> np.ndarray:
        """The code of every row of ``array`` (a pyarrow Array or ChunkedArray of the column, as the
        scan gives it): its label's code, :attr:`missing_code` or :attr:`MISSING` for a missing value,
        :attr:`UNKNOWN` for a value outside the labels."""
        import pyarrow as pa
        import pyarrow.compute as pc

        from .packed import _integers
        from .pairs import _normalise

        a = _normalise(array, self.column)
        if pa.types.is_integer(self.values.type) and (pa.types.is_string(a.type) or pa.types.is_large_string(a.type)):
            # ingestion counted this text column as integers (every batch was canonical integer text):
            # convert it the same way (packed.py), so each text finds the integer it was counted as
            ints = _integers(a)
            if ints is not None:
                a = ints
        idx = pc.index_in(a, value_set=self._values_as(a.type))
        pos = np.asarray(idx.fill_null(-1).to_numpy(zero_copy_only=False), dtype=np.int64)
        found = pos >= 0
        out = np.where(found, self.rank[np.where(found, pos, 0)] if len(self.rank) else 0, self.UNKNOWN)
        if a.null_count:
            na = np.asarray(a.is_null().to_numpy(zero_copy_only=False), dtype=bool)
            out[na] = self.MISSING if self.missing_code is None else self.missing_code
        return out.astype(np.int64, copy=False)
