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

_CANONICAL_INT = r"^-?(0|[1-9][0-9]{0,17})$"


#: A canonical integer of d digits (d <= 18) has ``_LO[d] <= |v| < _HI[d]``; d = 0 or d > 18 never do.
_LO = np.array([1, 0] + [10 ** (d - 1) for d in range(2, 19)] + [1], dtype=np.int64)
_HI = np.array([0] + [10 ** d for d in range(1, 19)] + [0], dtype=np.int64)


def canonical_int_values(a):
    """The int64 values of the arrow text array ``a`` when every non-null value is a canonical decimal
    integer of at most 18 digits (``_CANONICAL_INT``), else None.

    Arrow's cast parses the text (a few times cheaper than the regular expression); the cast also
    accepts ``007`` and hexadecimal ``0x1F``, so each text's byte length must be that of the
    canonical text of its value (any other way to write a value in decimal is longer); a text
    holding an ``x``, or a zero written with two characters (``-0`` matches, ``00`` does not), is
    left to the regular expression.
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
    if np.any((raw | 0x20) == ord("x")):
        return v if pc.all(pc.match_substring_regex(a, _CANONICAL_INT)).as_py() else None
    length = np.diff(offsets)
    val = np.asarray(v.fill_null(0).to_numpy(zero_copy_only=False))
    digits = np.minimum(length - (val < 0), 19)          # digits of the text, if it is canonical
    size = np.abs(val)
    ok = (size >= _LO[digits]) & (size < _HI[digits])
    if np.any((val == 0) & (length == 2)):  # "-0" matches the expression, "00" does not: let it decide
        return v if pc.all(pc.match_substring_regex(a, _CANONICAL_INT)).as_py() else None
    if v.null_count:
        ok |= np.asarray(pc.is_null(v).to_numpy(zero_copy_only=False))
    return v if ok.all() else None


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
