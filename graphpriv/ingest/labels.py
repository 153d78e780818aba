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
        if values.dtype.kind == "f" and np.all(np.isfinite(values)) and np.all(values == np.round(values)) \
                and np.all(np.abs(values) < 2**53):
            values = values.astype(np.int64)
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
