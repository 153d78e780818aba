"""Labels of the symbols of a column, from the distinct values that were read.

Text (every CSV field) stays text: ``"007"``, ``"7"``, ``"7.0"`` and ``" 7"`` are four symbols. A
text column whose every value is a canonical decimal integer (``0``, ``-12``, ``4711``; no sign
``+``, no leading zero, no blank) gets integer labels: the text of each such label is exactly
``str(label)``, so no two texts share a label and the file's values are kept as written, while the
labels sort as numbers. Other text labels sort in natural order: texts that read as finite numbers
first, by value (then by text), then the rest by text.

Numbers are used only when asked (``numbers=``): each text is then parsed as a number, and two
different texts that parse to the same number are reported instead of being merged.
"""

from __future__ import annotations

import numpy as np

from ..errors import InputError, InputTypeError

__all__ = ["MAX_LABEL_CHARS", "labels_from_values", "parse_numbers"]

#: Longest text accepted as one symbol of S or X (a longer field is almost surely the wrong column).
MAX_LABEL_CHARS = 10_000

_CANONICAL_INT = r"^(0|-?[1-9][0-9]{0,17})$"    # "-0" is not: str(0) == "0"


def canonical_int_values(a):
    """The int64 values of the arrow text array ``a`` when every non-null value is a canonical decimal
    integer of at most 18 digits (``_CANONICAL_INT``), else None.

    Arrow's cast parses the text (a few times cheaper than the regular expression). It accepts an
    optional ``-`` and decimal digits, leading zeros included (``007``, ``-07``, ``00``), or ``0x``/``0X``
    and hexadecimal digits, and nothing else (no ``+``, no blank, no other digits). So a text the cast
    accepts is canonical exactly when its first digit is not a ``0`` followed by more characters and
    not a ``0`` after a ``-`` (``-0`` would share the label 0 with ``0``): one gather of the first byte
    (and of the second, after a ``-``) per value.
    """
    import pyarrow as pa
    import pyarrow.compute as pc

    try:
        v = pc.cast(a, pa.int64())
    except (pa.ArrowInvalid, pa.ArrowNotImplementedError):
        return None
    if v.null_count == len(v):
        return v
    mm = pc.min_max(v)
    if mm["min"].as_py() <= -10**18 or mm["max"].as_py() >= 10**18:
        return None
    off_type = np.int64 if pa.types.is_large_string(a.type) else np.int32
    offsets = np.frombuffer(a.buffers()[1], dtype=off_type)[a.offset:a.offset + len(a) + 1]
    data = a.buffers()[2]
    raw = np.frombuffer(data, dtype=np.uint8)[offsets[0]:offsets[-1]] if data is not None else np.empty(0, np.uint8)
    if not len(raw):
        return v
    start = offsets[:-1] - offsets[0]
    length = np.diff(offsets)
    last = len(raw) - 1
    first = raw[np.minimum(start, last)]
    neg = first == ord("-")
    digit = np.where(neg, raw[np.minimum(start + 1, last)], first)
    bad = (digit == ord("0")) & ((length > 1) | neg)           # 007, -07, 00, 0x1F, -0: written otherwise than str(v)
    if v.null_count:
        bad &= length > 0
    return None if bad.any() else v


def _is_text(arr) -> bool:
    import pyarrow as pa

    return pa.types.is_string(arr.type) or pa.types.is_large_string(arr.type)


def check_lengths(arr, column: str) -> None:
    """Refuse a text value longer than :data:`MAX_LABEL_CHARS`."""
    import pyarrow.compute as pc

    if len(arr) and _is_text(arr):
        longest = pc.max(pc.utf8_length(arr)).as_py() or 0
        if longest > MAX_LABEL_CHARS:
            raise InputError(f"column {column!r} holds a value of {longest} characters; a symbol of S or X may have at "
                             f"most {MAX_LABEL_CHARS} (is it the right column?)")


def labels_from_values(arr, column: str, numbers: bool = False) -> tuple[np.ndarray, np.ndarray]:
    """``(labels, rank)`` for an arrow array of distinct non-null values: ``labels`` in graphpriv's
    label order and ``rank[i]`` the position of ``arr[i]`` in it."""
    import pyarrow as pa
    import pyarrow.compute as pc

    check_lengths(arr, column)
    if _is_text(arr):
        if numbers:
            values = parse_numbers(arr.to_pylist(), column)
        elif len(arr) and pc.all(pc.match_substring_regex(arr, _CANONICAL_INT)).as_py():
            values = np.asarray(pc.cast(arr, pa.int64()).to_numpy(zero_copy_only=False))
        else:
            return _natural(arr)
    elif pa.types.is_floating(arr.type) or pa.types.is_integer(arr.type) or pa.types.is_boolean(arr.type):
        values = np.asarray(arr.to_numpy(zero_copy_only=False))
        if values.dtype.kind == "f" and values.dtype.itemsize < 8:
            values = narrow_floats_as_written(values)
        if values.dtype.kind == "f" and np.all(np.isfinite(values)) and np.all(values == np.round(values)) \
                and np.all(np.abs(values) < 2**53):
            values = values.astype(np.int64)
    elif pa.types.is_decimal(arr.type):
        values = decimal_labels(arr)
    elif pa.types.is_temporal(arr.type):
        values = time_labels(arr)
        ticks = np.asarray(arr.view(pa.int32() if arr.type.bit_width == 32 else pa.int64())
                           .to_numpy(zero_copy_only=False))                    # time order, exactly
        order = np.argsort(ticks, kind="stable")
        rank = np.empty(len(values), dtype=np.int64)
        rank[order] = np.arange(len(values))
        return values[order], rank
    else:
        values = np.empty(len(arr), dtype=object)
        values[:] = arr.to_pylist()
    try:
        order = np.argsort(values, kind="stable")
    except TypeError:
        order = np.arange(len(values))
    rank = np.empty(len(values), dtype=np.int64)
    rank[order] = np.arange(len(values))
    return values[order], rank


def decimal_labels(arr) -> np.ndarray:
    """Labels of a decimal column (``decimal128``, ``decimal256``): its numbers as floats (integers when
    every value is whole), so that they sort, generalise (``[1.1, 1.3]``) and have centroids (U2) as
    numbers do; the text of each decimal (``"1.10"``) when two of them are one float (more than about
    16 significant digits)."""
    import decimal

    texts = [str(v) for v in arr.to_pylist()]
    try:
        floats = np.array([float(decimal.Decimal(t)) for t in texts], dtype=np.float64)
    except (OverflowError, ValueError, decimal.InvalidOperation):  # pragma: no cover - arrow decimals are finite
        floats = np.array([np.nan])
    if np.isfinite(floats).all() and len(np.unique(floats)) == len(floats):
        if len(floats) and np.all(floats == np.round(floats)) and np.all(np.abs(floats) < 2**53):
            return floats.astype(np.int64)
        return floats
    out = np.empty(len(texts), dtype=object)
    out[:] = texts
    return out


def time_labels(arr) -> np.ndarray:
    """Labels of a date, time, timestamp or duration column: dates, times and timestamps as their ISO
    text (``"2020-01-31"``, ``"13:45:00"``, ``"2020-01-31 13:45:00+00:00"``: the texts sort in time
    order), durations as the integer count of the column's unit (``1500`` for 1.5 s in milliseconds),
    so they generalise as intervals and have centroids (U2) as numbers do.

    Examples
    --------
    >>> import datetime, pyarrow as pa
    >>> from graphpriv.ingest.labels import time_labels
    >>> time_labels(pa.array([datetime.date(2020, 1, 31)])).tolist()
    ['2020-01-31']
    >>> time_labels(pa.array([1500], pa.duration("ms"))).tolist()
    [1500]
    """
    import pyarrow as pa

    from .._labels import TimeText

    if pa.types.is_duration(arr.type):
        return np.asarray(arr.view(pa.int64()).to_numpy(zero_copy_only=False), dtype=np.int64)
    out = np.empty(len(arr), dtype=object)
    if pa.types.is_timestamp(arr.type):
        # Python's datetime holds microseconds: nanosecond timestamps are written by pandas
        vals = arr.to_pandas().tolist() if arr.type.unit == "ns" else arr.to_pylist()
        out[:] = [None if v is None else TimeText(v.isoformat(sep=" ")) for v in vals]
    else:
        out[:] = [None if v is None else TimeText(v.isoformat()) for v in arr.to_pylist()]
    return out


def narrow_floats_as_written(values: np.ndarray) -> np.ndarray:
    """float32 (or float16) numbers as the float64 numbers of their shortest text: the float32 ``1.1``
    is the label 1.1, not 1.100000023841858 (its exact value), as a reader of the column sees it. Distinct
    float32 numbers have distinct shortest texts, so distinct labels stay distinct.

    Examples
    --------
    >>> import numpy as np
    >>> from graphpriv.ingest.labels import narrow_floats_as_written
    >>> narrow_floats_as_written(np.array([1.1, 2.5], dtype=np.float32)).tolist()
    [1.1, 2.5]
    """
    return np.asarray(values).astype(str).astype(np.float64)


def _natural(arr) -> tuple[np.ndarray, np.ndarray]:
    from .._validation import natural_order

    texts = np.empty(len(arr), dtype=object)
    texts[:] = arr.to_pylist()
    order = natural_order(texts)
    rank = np.empty(len(texts), dtype=np.int64)
    rank[order] = np.arange(len(texts))
    return texts[order], rank


def parse_numbers(texts, column: str) -> np.ndarray:
    """The numbers written in ``texts`` (distinct texts): integers where every value is integral,
    else floats. Raises when a text is not a number or two texts are the same number.

    Examples
    --------
    >>> from graphpriv.ingest import parse_numbers
    >>> parse_numbers(["1", "2.5", "-3"], "x").tolist()
    [1.0, 2.5, -3.0]
    >>> parse_numbers(["007", "7"], "x")
    Traceback (most recent call last):
    ...
    graphpriv.errors.InputError: column 'x' writes one number in two ways ('007' and '7' are both 7); make each value's text unique, or read the values as text
    """
    vals = []
    for t in texts:
        if isinstance(t, (bool, np.bool_)):
            raise InputTypeError(f"column {column!r} holds the boolean {t!r}; numbers were asked for")
        try:
            v = float(t)
        except (TypeError, ValueError):
            raise InputTypeError(f"column {column!r} holds {t!r}, which is not a number; numbers were asked for "
                                 "(clean the column or read it as text)") from None
        vals.append(v)
    arr = np.asarray(vals, dtype=float)
    seen: dict[float, object] = {}
    for t, v in zip(texts, arr.tolist()):
        key = "nan" if v != v else v
        if key in seen:
            shown = int(v) if np.isfinite(v) and v == int(v) else v
            raise InputError(f"column {column!r} writes one number in two ways ({seen[key]!r} and {t!r} are both "
                             f"{shown}); make each value's text unique, or read the values as text")
        seen[key] = t
    if arr.size and np.all(np.isfinite(arr)) and np.all(arr == np.round(arr)) and np.all(np.abs(arr) < 2**53):
        return arr.astype(np.int64)
    return arr
