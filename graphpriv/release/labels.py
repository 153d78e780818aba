"""Released values of a quantisation: generalisation labels, codewords and their precision.

A cluster of public values (a cell of a quantisation X̂ of X; Ding & Farokhi, *Developing Non-Stochastic
Privacy-Preserving Policies Using Agglomerative Clustering*, Section V) is released as a generalisation
label (an interval ``"[240, 260]"`` of numbers contiguous in value order, else a set ``"{132, 243}"``), a
codeword (the cluster's centroid, Section V-A, rounded to the column's precision) or a cluster number.
This module makes those values and the JSON encoding of the values they stand for; :mod:`.mapping`
holds the :class:`~graphpriv.release.mapping.Release` that applies them.
"""

from __future__ import annotations
import contextlib
import math
import numbers
import re
from typing import Any, Hashable, Iterable, Sequence
import numpy as np
import pandas as pd
from .._labels import label_key
from .._validation import MISSING
from ..errors import InputError

__all__ = ["RELEASE_MODES", "MAPPING_SCHEMA_VERSION", "generalisation_label"]

#: Forms of the released value (see the module docstring).
RELEASE_MODES = ("label", "codeword", "id")

#: Version of the mapping document (1: the former per-utility layouts; 2: one layout for both).
MAPPING_SCHEMA_VERSION = 2

#: Longest precision inferred from a column (digits after the decimal point).
MAX_DECIMALS = 15


def default_release(utility: str) -> str:
    """``"codeword"`` for U2, ``"label"`` otherwise."""
    return "codeword" if str(utility) == "U2" else "label"


def _check_mode(mode: Any, utility: str) -> str:
    mode = default_release(utility) if mode is None else mode
    if mode not in RELEASE_MODES:
        raise InputError(f"release={mode!r} is not a release form; use one of {RELEASE_MODES}")
    if mode == "codeword" and str(utility) != "U2":
        raise InputError("release='codeword' needs a U2 result (codewords are cluster centroids); use 'label' or 'id'")
    return mode


# ---------------------------------------------------------------------- numbers and labels
def _is_number(x) -> bool:
    return isinstance(x, (numbers.Real, np.number)) and not isinstance(x, (bool, np.bool_))


def _is_finite_number(x) -> bool:
    return _is_number(x) and math.isfinite(float(x))


def _beyond_floats(x) -> bool:
    """An integer a 64-bit float does not hold exactly (|x| > 2^53): compared and labelled as an integer."""
    return isinstance(x, (numbers.Integral, np.integer)) and not isinstance(x, (bool, np.bool_)) and abs(int(x)) > 2**53


def _number_key(x) -> tuple:
    """A number's identity by value: integral numbers as exact integers (``130`` and ``130.0`` are one
    number, as are ``-0.0`` and ``0.0``; ``2**64 - 1`` and ``2**64 - 2`` are two), others as floats."""
    if isinstance(x, (numbers.Integral, np.integer)):
        return ("number", int(x))
    f = float(x) + 0.0
    return ("number", int(f)) if math.isfinite(f) and f.is_integer() else ("number", f)


def number_text(x) -> str:
    """Shortest text of a number: integers without ``.0`` (132.0 -> ``"132"``), floats as Python's repr."""
    if isinstance(x, (np.generic,)):
        x = x.item()
    if isinstance(x, float):
        if x.is_integer() and abs(x) < 1e16:
            return str(int(x))                 # -0.0 is 0, one number (and one symbol of a column)
        return repr(x)
    return str(x)


#: Text a set label shows as written; any other member text is quoted (see :func:`_member_text`).
_PLAIN_MEMBER = re.compile(r'[^\s{}\[\]",()\u2026\\](?:[^{}\[\]",\u2026\\]*[^\s{}\[\]",\u2026\\])?')


def _member_text(m) -> str:
    """A member as a label shows it: numbers in their shortest form, the missing value as ``NA``, text
    as written unless it could be mistaken for the label's own syntax -- text holding a separator
    (``,``), a brace, bracket, parenthesis, quote, backslash or ``…``, text with leading or
    trailing white space, the empty text and the text ``NA`` are written in double quotes with JSON
    escapes (``"a, b"``), so the labels of distinct clusters stay distinct and unambiguous."""
    if m is MISSING:
        return "NA"
    if _is_number(m):
        return number_text(m)
    if isinstance(m, tuple):
        return "(" + ", ".join(_member_text(v) for v in m) + ")"
    t = str(m)
    if t == "NA" or not _PLAIN_MEMBER.fullmatch(t):
        import json

        return json.dumps(t, ensure_ascii=False)
    return t


def generalisation_label(members: Iterable[Hashable], present: Sequence[Hashable] | None = None) -> str:
    """The generalisation label of a cluster: ``"[lo, hi]"`` or ``"{a, b, ...}"`` (a set of more than
    :data:`SET_LABEL_MAX` members: its first :data:`SET_LABEL_HEAD`, ``\u2026``, its last, and its size).

    Parameters
    ----------
    members : iterable of labels
        The cluster.
    present : sequence of labels, optional
        Every public value present in the column. A cluster of finite numbers is an interval when no
        present value lies strictly between its smallest and largest member without belonging to it
        (contiguous in value order). Without ``present`` the cluster's own members are the universe,
        so every numeric cluster is an interval.

    Examples
    --------
    >>> from graphpriv import generalisation_label
    >>> generalisation_label([260, 240, 250], present=[132, 240, 250, 260, 300])
    '[240, 260]'
    >>> generalisation_label([243, 132.0], present=[132, 200, 243])
    '{132, 243}'
    >>> generalisation_label(["x10", "x2"])
    '{x2, x10}'
    """
    ms = list(dict.fromkeys(members))
    if not ms:
        raise InputError("a cluster needs at least one member")
    if len(ms) > 1:
        universe = list(dict.fromkeys(list(present) + ms)) if present is not None else ms
        nums = _numeric_values(universe)
        if nums is not None:
            released = [None]
            cluster = np.ones(len(universe), dtype=np.int64)
            cluster[[universe.index(m) for m in ms]] = 0
            if present is None:
                nums = nums.copy()
            _numeric_labels(universe, nums, cluster, 2 if len(ms) < len(universe) else 1, np.array([0]), released)
            return released[0]
    return _label(sorted(ms, key=label_key), None if present is None else _numbers_present(present))


def _numbers_present(present) -> np.ndarray:
    """The distinct finite numbers among ``present``, sorted."""
    nums = [float(v) for v in present if _is_finite_number(v)]
    return np.unique(np.array(nums, dtype=float))


_NUMBER_TEXT = re.compile(r"^[+-]?(\d+\.?\d*|\.\d+)([eE][+-]?\d+)?$")


def _numeric_values(labels) -> np.ndarray | None:
    """Numbers of the labels (NaN for the missing value) when every label is a finite number or the
    text of one (labels as written: ``"132.0"``); else None."""
    if isinstance(labels, np.ndarray) and labels.dtype.kind in "iuf":
        numbers_only = True
    else:                                                     # the types, not the labels, checked one by one
        kinds = set(map(type, labels))
        numbers_only = bool(kinds) and all(issubclass(k, (numbers.Real, np.number)) and not issubclass(k, (bool, np.bool_))
                                           for k in kinds)
    if numbers_only:                                          # every label a number: one array conversion
        if isinstance(labels, np.ndarray) and labels.dtype.kind in "iu":   # integers beyond 2^53: labelled exactly (sets)
            if len(labels) and (int(labels.max()) > 2**53 or int(labels.min()) < -2**53):
                return None
        elif any(_beyond_floats(x) for x in labels):
            return None
        out = np.array(labels, dtype=float)
        return out if np.isfinite(out).all() else None
    out = np.empty(len(labels), dtype=float)
    seen = False
    for i, x in enumerate(labels):
        if x is MISSING:
            out[i] = np.nan
            continue
        if isinstance(x, str):
            if not _NUMBER_TEXT.match(x):
                return None
            out[i] = float(x)
        elif _is_finite_number(x) and not _beyond_floats(x):
            out[i] = float(x)
        else:
            return None
        seen = True
    if not seen or not np.isfinite(out[~np.isnan(out)]).all():
        return None
    return out


def _numeric_labels(labels, v: np.ndarray, cluster: np.ndarray, n_k: int, merged: np.ndarray, released: list) -> None:
    """:func:`generalisation_label` of every merged cluster of numbers (or numeric text, shown as written),
    vectorised over clusters. A cluster holding the missing value is a set with ``NA`` last."""
    finite = ~np.isnan(v)
    present = np.unique(v[finite])
    order = np.lexsort((v, cluster))                       # by cluster, then value (NaN last)
    vs, cs = v[order], cluster[order]
    bounds = np.concatenate([[0], np.cumsum(np.bincount(cluster, minlength=n_k))])
    starts, ends = bounds[:-1], bounds[1:]
    has_na = np.add.reduceat((~finite[order]).astype(np.int64), starts)[merged] > 0
    lo = vs[starts[merged]]
    hi = np.where(has_na, lo, vs[ends[merged] - 1])
    inside = np.searchsorted(present, hi, "right") - np.searchsorted(present, lo, "left")
    new = np.ones(len(vs), dtype=bool)
    new[1:] = (vs[1:] != vs[:-1]) | (cs[1:] != cs[:-1])
    distinct = np.add.reduceat(new.astype(np.int64), starts)[merged]      # every cluster is non-empty
    interval = ((inside == distinct) & ~has_na).tolist()
    order_l = order.tolist()
    for j, k in enumerate(merged.tolist()):
        a, b = int(starts[k]), int(ends[k])
        if interval[j]:
            released[k] = f"[{_member_text(labels[order_l[a]])}, {_member_text(labels[order_l[b - 1]])}]"
        else:
            released[k] = _set_text(order_l[a:b], lambda i: _member_text(labels[i]))


def _label(ms: list, numbers_present: np.ndarray | None) -> str:
    """:func:`generalisation_label` of members already in :func:`label_key` order."""
    if len(ms) > 1 and all(_is_finite_number(m) and not _beyond_floats(m) for m in ms):
        distinct = len({float(m) for m in ms})
        if numbers_present is None:
            inside = distinct
        else:
            lo, hi = float(ms[0]), float(ms[-1])
            inside = int(np.searchsorted(numbers_present, hi, "right") - np.searchsorted(numbers_present, lo, "left"))
        if inside == distinct:
            return f"[{number_text(ms[0])}, {number_text(ms[-1])}]"
    return _set_text(ms, _member_text)


#: A set label lists at most this many members; a larger cluster shows its first ``SET_LABEL_HEAD``
#: members, its last one and its size, ``"{85, 100, ..., NA} (155 values)"`` (the mapping document lists
#: every member). Listing them all would write a label of O(cluster size) characters into every row
#: of the cluster: O(|X|^2) characters per release when clusters hold thousands of values.
SET_LABEL_MAX = 16
SET_LABEL_HEAD = 8


def _set_text(items: list, text) -> str:
    """``"{a, b, c}"`` of ``text(item)`` for the sorted ``items``, shortened past :data:`SET_LABEL_MAX`."""
    if len(items) <= SET_LABEL_MAX:
        return "{" + ", ".join(text(m) for m in items) + "}"
    head = ", ".join(text(m) for m in items[:SET_LABEL_HEAD])
    return "{" + head + f", \u2026, {text(items[-1])}}} ({len(items)} values)"


def _decimals_of_text(t: str) -> int | None:
    t = t.strip()
    if not t:
        return None
    body = t[1:] if t[0] in "+-" else t
    if "e" in body.lower():
        try:
            float(body)
        except ValueError:
            return None
        mant, _, exp = body.lower().partition("e")
        d = len(mant.partition(".")[2]) - int(exp)
        return max(d, 0)
    intpart, dot, frac = body.partition(".")
    if not (intpart or frac) or not (intpart.isdigit() or intpart == "") or not (frac.isdigit() or frac == ""):
        return None
    return len(frac)


def column_decimals(column) -> int | None:
    """Precision of a numeric column: the most digits after the decimal point among its values.

    Integers count 0 digits; floats count the digits of their shortest repr (0.1 -> 1, 132.0 -> 0);
    numeric text counts the digits as written (``"0.10"`` -> 2). ``None`` when the column holds no
    finite number. Capped at :data:`MAX_DECIMALS`.

    Examples
    --------
    >>> from graphpriv.release.labels import column_decimals
    >>> column_decimals([132, 243]), column_decimals([0.5, 1.25]), column_decimals(["0.10", "7"])
    (0, 2, 2)
    """
    if isinstance(column, pd.Series):
        arr = column.to_numpy()
    else:
        arr = np.asarray(list(column) if not isinstance(column, np.ndarray) else column, dtype=object)
    if arr.dtype.kind in "iu":
        return 0 if arr.size else None
    if arr.dtype.kind == "f":
        uniq = pd.unique(arr[np.isfinite(arr)])
        if arr.dtype.itemsize < 8:                 # float32: the digits of its shortest text (1.1, not 1.100000023841858)
            uniq = uniq.astype(str).astype(np.float64)
    else:
        uniq = pd.unique(pd.Series(arr, dtype=object).dropna().to_numpy())
    best = None
    for v in uniq.tolist():
        if isinstance(v, str):
            d = _decimals_of_text(v)
        elif _is_finite_number(v):
            if isinstance(v, (int, np.integer)):
                d = 0
            else:
                d = _decimals_of_text(np.format_float_positional(float(v), unique=True, trim="-"))
        else:
            d = None
        if d is not None:
            best = d if best is None else max(best, d)
    return None if best is None else min(best, MAX_DECIMALS)


#: Most digits after the point a codeword is written with (a float64 holds 17 significant digits).
MAX_CODEWORD_DECIMALS = 17


def released_key(v) -> tuple:
    """Identity of a released value as a reader of the table sees it: numbers by value (``130`` and
    ``130.0`` are one number, as are ``-0.0`` and ``0.0``), anything else by its text."""
    if v is MISSING or v is None:
        return ("missing",)
    if _is_number(v):
        return _number_key(v)
    if isinstance(v, tuple):
        return ("tuple",) + tuple(released_key(x) for x in v)
    return ("text", str(v))


def reader_key(v) -> tuple:
    """:func:`released_key` as a *numeric* reader of the table sees it: a text that parses as a finite
    number (``"4"``, ``"4.0"``) is that number. Used where codewords (numbers) are written beside
    unchanged values of a column read as text, so that a codeword ``4.0`` is never released beside an
    unchanged ``"4"``."""
    if isinstance(v, str):
        with contextlib.suppress(ValueError, OverflowError):
            f = float(v)
            if math.isfinite(f):
                with contextlib.suppress(ValueError):
                    return _number_key(int(v.strip()))      # integer text, exactly ("18446744073709551615")
                return _number_key(f)
    return released_key(v)


def separate_codewords(codewords: Sequence, others: Sequence = (), decimals: int | None = None) -> tuple[list, int | None]:
    """Codewords that no reader can confuse with each other or with a value released unchanged.

    A centroid may equal, as a number, a public value that is released unchanged (the centroid 4 of
    {2.5, 5.5} beside an unchanged 4), or another cluster's centroid. Such a codeword moves up by the
    smallest step the release can write -- one unit in the last place after the column's ``decimals``
    plus one (4 -> 4.01 for a column written with one decimal), or the next float when nothing is
    rounded -- until it is distinct; its cluster's distortion grows by that step, and the audit reports
    the written value's distortion. Returns the codewords and the precision of
    :func:`distinct_decimals` for them.

    Examples
    --------
    >>> from graphpriv.release.labels import separate_codewords
    >>> separate_codewords([4.0], ["2", "4", "7"], 1)
    ([4.01], 2)
    >>> separate_codewords([1.5, 2.5], [], 0)
    ([1.5, 2.5], 1)
    """
    taken = {reader_key(v) for v in others}
    out = []
    step_decimals = None if decimals is None else int(decimals) + 1
    for cw in codewords:
        c = cw
        if _is_finite_number(c) and not isinstance(c, tuple):
            c = float(c)
            for _ in range(1000):
                if reader_key(c) not in taken:
                    break
                c = (round(c + 10.0 ** -step_decimals, step_decimals) if step_decimals is not None
                     and step_decimals <= MAX_CODEWORD_DECIMALS and abs(c) < 1e15 else float(np.nextafter(c, math.inf)))
            taken.add(reader_key(c))
        out.append(c)
    return out, distinct_decimals(out, others, decimals)


def distinct_decimals(codewords: Sequence, others: Sequence = (), decimals: int | None = None) -> int | None:
    """The precision codewords are released with: ``decimals`` (the column's), increased until the
    rounded codewords of distinct clusters are distinct from each other and from ``others`` (the
    values released unchanged), so that rounding never merges two clusters.

    ``None`` (no rounding) stays ``None``. Raises :class:`~graphpriv.errors.InputError` when no
    precision up to :data:`MAX_CODEWORD_DECIMALS` separates them (a centroid equal to another
    cluster's value).

    Examples
    --------
    >>> from graphpriv.release.labels import distinct_decimals
    >>> distinct_decimals([1.5, 2.5], [], 0), distinct_decimals([130.4, 131.6], [130], 0), distinct_decimals([1.5, 3.5], [], 0)
    (1, 1, 0)
    """
    if decimals is None:
        d = None
    else:
        if isinstance(decimals, bool) or not isinstance(decimals, (int, np.integer)) or not 0 <= decimals <= MAX_CODEWORD_DECIMALS:
            raise InputError(f"decimals={decimals!r} must be an integer from 0 to {MAX_CODEWORD_DECIMALS} (digits after the point)")
        d = int(decimals)
    fixed = {reader_key(v) for v in others}
    while True:
        keys = [reader_key(_round_codeword(c, d)) for c in codewords]
        clash = len(set(keys)) < len(keys) or any(k in fixed for k in keys)
        if not clash:
            return d
        if d is None or d >= MAX_CODEWORD_DECIMALS:
            seen: dict = {}
            for c, k in zip(codewords, keys):
                if k in fixed:
                    raise InputError(f"the codeword {c!r} of a merged cluster equals a public value released unchanged; "
                                     "the two clusters could not be told apart -- use --release label or id")
                if k in seen:
                    raise InputError(f"two merged clusters have the codeword {c!r} (and {seen[k]!r}); they could not be "
                                     "told apart -- use --release label or id")
                seen[k] = c
        d += 1


def _round_codeword(cw, decimals: int | None):
    if decimals is None:
        return cw
    if isinstance(cw, tuple):
        return tuple(_round_codeword(v, decimals) for v in cw)
    if not _is_finite_number(cw):
        return cw
    r = round(float(cw), decimals)
    return int(r) if decimals <= 0 else r


# ---------------------------------------------------------------------- JSON encoding of values
def encode_value(x: Any) -> Any:
    """A label or released value as JSON: numbers, strings and booleans as they are; ``gp.MISSING`` ->
    ``null``; non-finite floats -> ``{"float": "inf"}``; tuples -> ``{"tuple": [...]}``."""
    if x is MISSING or x is None:
        return None
    if isinstance(x, (bool, np.bool_)):
        return bool(x)
    if isinstance(x, (int, np.integer)):
        return int(x)
    if isinstance(x, (float, np.floating)):
        f = float(x)
        if math.isfinite(f):
            return f
        return {"float": "nan" if math.isnan(f) else ("inf" if f > 0 else "-inf")}
    if isinstance(x, str):
        return x
    if isinstance(x, tuple):
        return {"tuple": [encode_value(v) for v in x]}
    if hasattr(x, "item") and not isinstance(x, np.ndarray):
        return encode_value(x.item())
    return str(x)


def _encode_many(values) -> list:
    """:func:`encode_value` of every value; plain ints and strings pass through without a call each."""
    values = list(values)
    kinds = set(map(type, values))
    if kinds <= {int, str}:
        return values
    if kinds <= {int, float, str}:
        floats = np.array([v for v in values if type(v) is float], dtype=float)
        if np.isfinite(floats).all():
            return values
    return [encode_value(v) for v in values]


def decode_value(x: Any) -> Any:
    """Inverse of :func:`encode_value`."""
    if x is None:
        return MISSING
    if isinstance(x, dict):
        if set(x) == {"float"} and x["float"] in ("inf", "-inf", "nan"):
            return float(x["float"])
        if set(x) == {"tuple"} and isinstance(x["tuple"], list):
            return tuple(decode_value(v) for v in x["tuple"])
        raise InputError(f"mapping value {x!r} is not a known encoding ({{'float': 'inf'}} or {{'tuple': [...]}})")
    if isinstance(x, list):
        raise InputError(f"mapping value {x!r}: lists are written as {{'tuple': [...]}}")
    return x
