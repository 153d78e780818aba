"""What a quantisation mechanism releases, and the mapping document a data recipient reads.

A quantisation X̂ of the public column X (paper 003, Section V: a partition Q of [[X]]) is released by
replacing every public value by a *released value* of its cluster. Three forms:

* ``"label"`` (default for U1): a generalisation label a reader understands -- an interval
  ``"[240, 260]"`` when the cluster holds numbers that are contiguous in value order among the values
  present in the column, else a set ``"{132, 243}"`` (members in numeric order for numbers, natural
  order for text: ``x2`` before ``x10``); a set of more than 16 members shows its first 8 members, its
  last one and its size, ``"{85, 100, 103, 110, 117, 120, 125, 126, \u2026, NA} (155 values)"``, so a
  label stays short whatever the cluster (the mapping document lists every member);
* ``"codeword"`` (default for U2): the cluster's codeword x̂ (its centroid, paper 003 Section V-A),
  rounded to the precision of the input column (109.15384615384616 -> 109.2 for a column with one
  decimal) -- needs a U2 result;
* ``"id"``: the cluster number 0, 1, ... (clusters ordered by their smallest member's code).

Under ``"label"`` and ``"codeword"`` a value whose cluster is a singleton (nothing merged into it) is
released unchanged -- the same object, with its type. :class:`Release` holds the mapping, applies it
to a column with vectorised lookups (:meth:`Release.transform`) and reads/writes the versioned
mapping document (``mapping.json`` of ``graphpriv sanitize``), whose JSON Schema ships with the
package (:func:`mapping_schema`, ``graphpriv/schemas/mapping.schema.json``). The document has one
layout for both utilities::

    {"schema_version": 2, "public_column", "sensitive_column", "objective", "utility",
     "release": "label" | "codeword" | "id", "decimals": int | null,
     "values":   [{"value", "released", "cluster", "changed"}, ...],   # one per public value
     "clusters": [{"id", "released", "members", "size"}, ...]}         # one per cluster

Values are JSON numbers, strings or booleans as they were; a missing value (``gp.MISSING``) is
``null``; non-finite numbers are ``{"float": "inf" | "-inf" | "nan"}``; tuples (vector values) are
``{"tuple": [...]}``.
"""

from __future__ import annotations

import functools
import json
import math
import numbers
import re
from dataclasses import dataclass, field
from importlib import resources
from typing import Any, Hashable, Iterable, Sequence

import numpy as np
import pandas as pd

from .._labels import label_key
from .._validation import MISSING
from ..errors import InputError, InputTypeError, UnknownLabelError

__all__ = ["Release", "RELEASE_MODES", "MAPPING_SCHEMA_VERSION", "generalisation_label", "mapping_schema",
           "validate_mapping"]

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


def number_text(x) -> str:
    """Shortest text of a number: integers without ``.0`` (132.0 -> ``"132"``), floats as Python's repr."""
    if isinstance(x, (np.generic,)):
        x = x.item()
    if isinstance(x, float):
        if x.is_integer() and abs(x) < 1e16:
            return str(int(x))
        return repr(x)
    return str(x)


def _member_text(m) -> str:
    if m is MISSING:
        return "NA"
    if _is_number(m):
        return number_text(m)
    if isinstance(m, tuple):
        return "(" + ", ".join(_member_text(v) for v in m) + ")"
    return str(m)


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
        elif _is_finite_number(x):
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
    if len(ms) > 1 and all(_is_finite_number(m) for m in ms):
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
    >>> from graphpriv.mechanisms.release import column_decimals
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


# ---------------------------------------------------------------------- the release
@dataclass(frozen=True, eq=False)
class Release:
    """A released public column: every public label's cluster and the value released for it.

    Build it with :meth:`from_result` (an :class:`~graphpriv.AgglomerationResult`) or
    :meth:`from_dict` (a mapping document); apply it with :meth:`transform`.

    Attributes
    ----------
    labels : tuple
        The public labels, in code order.
    cluster : numpy.ndarray of int
        Cluster id of every label.
    released : tuple
        The released value of every cluster (for a singleton under ``"label"``/``"codeword"``: its
        member, unchanged).
    changed : numpy.ndarray of bool
        Per cluster: whether its values are replaced (False for singletons unless ``mode="id"``).
    mode : {"label", "codeword", "id"}
    utility, objective : str
    decimals : int or None
        Precision the codewords were rounded to.
    """

    labels: tuple
    cluster: np.ndarray = field(repr=False)
    released: tuple = field(repr=False)
    changed: np.ndarray = field(repr=False)
    mode: str = "label"
    utility: str = "U1"
    objective: str | None = None
    decimals: int | None = None

    # ------------------------------------------------------------------ construction
    @classmethod
    def from_quantization(cls, labels: Sequence[Hashable], quantization: Sequence[Iterable[Hashable]], mode: str | None = None,
                          *, utility: str = "U1", codewords: Sequence[Any] | None = None, decimals: int | None = None,
                          objective: str | None = None) -> "Release":
        """A release of ``quantization`` (clusters in id order) of the public ``labels`` (code order).

        ``codewords`` (one per cluster) are needed for ``mode="codeword"``.
        """
        labels = tuple(labels)
        mode = _check_mode(mode, utility)
        pos = {}
        for i, x in enumerate(labels):
            if pos.setdefault(x, i) != i:
                raise InputError(f"the public labels of a release must be distinct ({x!r} repeats)")
        cluster = np.full(len(labels), -1, dtype=np.int64)
        sizes = []
        for k, cl in enumerate(quantization):
            n_k = 0
            for m in cl:
                i = pos.get(m)
                if i is None:
                    raise InputError(f"cluster {k} holds {m!r}, which is not a public label")
                if cluster[i] >= 0:
                    raise InputError(f"{m!r} is in two clusters; the clusters of a release must not overlap")
                cluster[i] = k
                n_k += 1
            if n_k == 0:
                raise InputError(f"cluster {k} is empty")
            sizes.append(n_k)
        if (cluster < 0).any():
            raise InputError(f"public label {labels[int(np.argmin(cluster))]!r} is in no cluster")
        return cls._build(labels, cluster, np.array(sizes, dtype=np.int64), mode, utility, codewords, decimals, objective)

    @classmethod
    def _build(cls, labels, cluster, sizes, mode, utility, codewords, decimals, objective) -> "Release":
        n_k = len(sizes)
        if mode == "codeword" and (codewords is None or len(codewords) != n_k):
            raise InputError("release='codeword' needs one codeword per cluster")
        if mode == "id":
            released = list(range(n_k))
            changed = np.ones(n_k, dtype=bool)
        else:
            changed = sizes > 1
            released = [None] * n_k
            first = np.full(n_k, -1, dtype=np.int64)
            rev = np.arange(len(cluster) - 1, -1, -1)
            first[cluster[rev]] = rev                                  # smallest code of every cluster
            for k in np.flatnonzero(~changed).tolist():
                released[k] = labels[int(first[k])]
            merged = np.flatnonzero(changed)
            if mode == "codeword":
                for k in merged.tolist():
                    released[k] = _round_codeword(codewords[k], decimals)
            elif len(merged) and (nums := _numeric_values(labels)) is not None:
                _numeric_labels(labels, nums, cluster, n_k, merged, released)
            elif len(merged):
                present = _numbers_present(labels)
                order = np.argsort(cluster, kind="stable")
                bounds = np.concatenate([[0], np.cumsum(np.bincount(cluster, minlength=n_k))])
                for k in merged.tolist():
                    ms = sorted((labels[i] for i in order[bounds[k]:bounds[k + 1]].tolist()), key=label_key)
                    released[k] = _label(ms, present)
        return cls(labels, cluster, tuple(released), changed, mode, str(utility), objective,
                   decimals if mode == "codeword" else None)

    @classmethod
    def from_result(cls, result, mode: str | None = None, *, decimals: int | None = None) -> "Release":
        """The release of an :class:`~graphpriv.AgglomerationResult` (``mode`` defaults to
        :func:`default_release` of its utility; ``decimals`` rounds U2 codewords)."""
        trace = getattr(result, "trace", None)
        q = list(result.quantization)
        if trace is not None and len(trace.public_labels) == sum(len(c) for c in q):
            labels = tuple(trace.public_labels)
        else:
            labels = tuple(m for c in q for m in sorted(c, key=label_key))
        mapping = result.mapping
        codewords = [mapping[next(iter(c))] for c in q] if mode == "codeword" or (
            mode is None and result.utility_name == "U2") else None
        if trace is not None and labels == tuple(trace.public_labels):
            # the returned step of the trace, as cluster ids (vectorised), when it is the result's Q
            first, cid = np.unique(trace.cluster_ids(trace.returned), return_inverse=True)
            sizes = np.bincount(cid, minlength=len(first))
            if len(first) == len(q) and sizes.tolist() == [len(c) for c in q] and all(
                    labels[f] in c for f, c in zip(first.tolist(), q)):
                return cls._build(labels, cid.astype(np.int64), sizes, _check_mode(mode, result.utility_name),
                                  str(result.utility_name), codewords, decimals, result.objective)
        return cls.from_quantization(labels, q, mode, utility=result.utility_name, codewords=codewords, decimals=decimals,
                                     objective=result.objective)

    # ------------------------------------------------------------------ reading
    @property
    def n_clusters(self) -> int:
        return len(self.released)

    @property
    def is_noop(self) -> bool:
        """True when no value is replaced (nothing merged, and not ``mode="id"``)."""
        return not bool(self.changed.any())

    @property
    def mapping(self) -> dict:
        """``{public label: released value}``."""
        rel = self.released
        return {x: rel[k] for x, k in zip(self.labels, self.cluster.tolist())}

    def members(self, k: int) -> list:
        """The labels of cluster ``k`` in code order."""
        return [self.labels[i] for i in np.flatnonzero(self.cluster == k).tolist()]

    @functools.cached_property
    def _index(self) -> pd.Index:
        return pd.Index(self.labels, dtype=object)

    def codes(self, column, *, unknown: str = "raise") -> np.ndarray:
        """Code of every cell of ``column`` (-1: missing cell without a MISSING label, or, with
        ``unknown="ignore"``, a value outside the labels). Vectorised hash lookup: 132.0 finds 132."""
        values = column.to_numpy(dtype=object) if isinstance(column, pd.Series) else np.asarray(
            column if isinstance(column, np.ndarray) else list(column), dtype=object)
        values = values.ravel()
        index = self._index
        codes = index.get_indexer(values) if len(values) else np.empty(0, dtype=np.int64)
        na = pd.isna(values) if values.size else np.zeros(0, dtype=bool)
        na = np.asarray(na, dtype=bool) & (codes < 0)
        if na.any():
            try:
                miss = index.get_loc(MISSING)
            except KeyError:
                miss = -1
            codes[na] = miss
        bad = (codes < 0) & ~na
        if bad.any() and unknown == "raise":
            x = values[int(np.argmax(bad))]
            raise UnknownLabelError(f"transform got public label {x!r}, which is not in the joint range the mechanism ran on")
        return codes

    # ------------------------------------------------------------------ applying
    def transform(self, column, *, unknown: str = "raise"):
        """The released column: every value replaced by its cluster's released value.

        A pandas Series gives a Series (same index and name), a numpy array an array, any other
        iterable a list. Unchanged values stay the same objects; the dtype is kept when nothing is
        replaced or when the released values fit it (``id``: integers; ``codeword``: numbers).
        Missing cells stay missing unless the public labels include ``gp.MISSING``. Vectorised: one
        hash lookup and one take, no per-row Python.

        Parameters
        ----------
        unknown : {"raise", "ignore"}
            A value outside the labels raises :class:`~graphpriv.errors.UnknownLabelError`, or with
            ``"ignore"`` becomes missing (suppressed).
        """
        if isinstance(column, (str, bytes)) or not isinstance(column, (Iterable, np.ndarray, pd.Series)):
            raise InputTypeError("transform needs an iterable of public labels (list, array or pandas Series)")
        if unknown not in ("raise", "ignore"):
            raise InputError(f"unknown={unknown!r} must be 'raise' or 'ignore'")
        series = column if isinstance(column, pd.Series) else None
        if series is None and not isinstance(column, np.ndarray):
            column = list(column)
        codes = self.codes(column, unknown=unknown)
        out = self._apply(column, codes)
        if series is not None:
            if out is None:
                return series.copy()
            dtype = out.dtype
            if dtype == object and isinstance(series.dtype, pd.StringDtype) and all(
                    isinstance(v, str) for v in self.released):
                dtype = series.dtype                  # text stays text of the same kind
            return pd.Series(out, index=series.index, name=series.name, dtype=dtype)
        if out is None:
            out = column.copy() if isinstance(column, np.ndarray) else np.asarray(column, dtype=object)
        if isinstance(column, np.ndarray):
            return np.asarray(out)
        return list(out.tolist()) if isinstance(out, np.ndarray) else list(out)

    def _apply(self, column, codes: np.ndarray):
        orig = column.to_numpy() if isinstance(column, pd.Series) else np.asarray(column, dtype=object) \
            if not isinstance(column, np.ndarray) else column
        found = codes >= 0
        cl = np.where(found, self.cluster[np.where(found, codes, 0)], -1)
        row_changed = found & self.changed[np.where(found, cl, 0)]
        unknown = ~found & ~np.asarray(pd.isna(orig), dtype=bool).ravel() if len(orig) else found
        if not row_changed.any() and not unknown.any():
            return None                               # nothing to replace: the caller returns a copy
        rel = np.empty(len(self.released), dtype=object)
        rel[:] = list(self.released)
        new = rel[cl[row_changed]]
        kind = orig.dtype.kind
        if kind in "iuf" and not unknown.any() and (self.mode == "id" or (
                self.mode == "codeword" and all(_is_number(v) for v in rel[self.changed].tolist()))):
            ints = self.mode == "id" or all(isinstance(v, (int, np.integer)) for v in rel[self.changed].tolist())
            dtype = orig.dtype if (kind in "iu" and ints) or kind == "f" else np.float64
            if kind in "iu" and not ints:
                dtype = np.float64
            out = orig.astype(dtype, copy=True)
            out[row_changed] = new.astype(dtype)
            return out
        out = orig.astype(object, copy=True)
        out[row_changed] = new
        if unknown.any():
            out[unknown] = None
        return out

    # ------------------------------------------------------------------ the mapping document
    def _columns(self, public_column, sensitive_column) -> tuple[dict, dict, dict]:
        """The document's header, its ``values`` table and its ``clusters`` table, column by column."""
        cl = self.cluster.tolist()
        labels = _encode_many(self.labels)
        released = _encode_many(self.released)
        changed = self.changed.tolist()
        order = np.argsort(self.cluster, kind="stable").tolist()
        sizes = np.bincount(self.cluster, minlength=len(released))
        bounds = np.concatenate([[0], np.cumsum(sizes)]).tolist()
        by_cluster = [labels[i] for i in order]
        header = {"schema_version": MAPPING_SCHEMA_VERSION, "public_column": public_column,
                  "sensitive_column": sensitive_column, "objective": self.objective, "utility": self.utility,
                  "release": self.mode, "decimals": self.decimals}
        values = {"value": labels, "released": [released[k] for k in cl], "cluster": cl,
                  "changed": [changed[k] for k in cl]}
        clusters = {"id": list(range(len(released))), "released": released,
                    "members": [by_cluster[bounds[k]:bounds[k + 1]] for k in range(len(released))],
                    "size": sizes.tolist()}
        return header, values, clusters

    def to_dict(self, *, public_column: str | None = None, sensitive_column: str | None = None) -> dict:
        """The mapping document (schema version :data:`MAPPING_SCHEMA_VERSION`), JSON-ready."""
        header, values, clusters = self._columns(public_column, sensitive_column)
        return {**header, "values": _rows(values), "clusters": _rows(clusters)}

    def to_json(self, *, public_column: str | None = None, sensitive_column: str | None = None) -> str:
        """The mapping document as JSON text: header fields indented, one line per value and per cluster
        (written column by column with the C encoder: 10^6 values in seconds)."""
        header, values, clusters = self._columns(public_column, sensitive_column)
        return json_document(header, {"values": values, "clusters": clusters})

    @classmethod
    def from_dict(cls, doc: dict) -> "Release":
        """Read a mapping document (checked with :func:`validate_mapping`)."""
        validate_mapping(doc)
        labels = tuple(decode_value(v["value"]) for v in doc["values"])
        cluster = np.array([v["cluster"] for v in doc["values"]], dtype=np.int64)
        released = tuple(decode_value(c["released"]) for c in doc["clusters"])
        changed = np.zeros(len(released), dtype=bool)
        for v in doc["values"]:
            changed[v["cluster"]] = bool(v["changed"])
        return cls(labels, cluster, released, changed, doc["release"], doc["utility"], doc.get("objective"), doc.get("decimals"))

    @classmethod
    def from_json(cls, text: str) -> "Release":
        try:
            doc = json.loads(text)
        except json.JSONDecodeError as exc:
            raise InputError(f"mapping is not valid JSON ({exc.msg} at line {exc.lineno})") from None
        return cls.from_dict(doc)

    def __len__(self) -> int:
        return len(self.labels)


# ---------------------------------------------------------------------- JSON text
def _rows(columns: dict) -> list:
    keys = list(columns)
    return [dict(zip(keys, row)) for row in zip(*columns.values())]


def _dumps(v, **kw) -> str:
    return json.dumps(v, ensure_ascii=False, allow_nan=False, **kw)


def _scalars(col: list) -> list:
    """JSON text of every scalar in ``col`` with one encoder call (a newline item separator cannot occur
    inside a JSON string, so splitting on it is safe)."""
    return _dumps(col, separators=("\n", ": "))[1:-1].split("\n") if col else []


def json_lines(columns: dict) -> list:
    """One compact JSON object per row of a table given column by column (lists of equal length):
    columns of scalars, and of lists of scalars, are encoded in one call each."""
    flat_kinds = {int, float, str, bool, type(None)}
    cols = []
    for key, col in columns.items():
        col = list(col)
        if set(map(type, col)) <= flat_kinds:
            enc = _scalars(col)
        elif set(map(type, col)) <= {list} and set(map(type, (x for v in col for x in v))) <= flat_kinds:
            items = _scalars([x for v in col for x in v])
            ends = np.cumsum([len(v) for v in col], dtype=np.int64).tolist()
            enc = ["[" + ", ".join(items[a:b]) + "]" for a, b in zip([0] + ends[:-1], ends)]
        else:
            enc = [_dumps(v) for v in col]
        prefix = _dumps(key) + ": "
        cols.append([prefix + x for x in enc])
    return ["{" + ", ".join(parts) + "}" for parts in zip(*cols)]


def json_document(header: dict, tables: dict | None = None) -> str:
    """JSON text of ``header`` (fields indented by 2) followed by ``tables`` (name -> columns, see
    :func:`json_lines`), each written as a list with one object per line."""
    parts = [f"  {_dumps(k)}: " + _dumps(v, indent=2).replace("\n", "\n  ") for k, v in header.items()]
    for name, columns in (tables or {}).items():
        rows = json_lines(columns)
        parts.append(f"  {_dumps(name)}: [\n    " + ",\n    ".join(rows) + "\n  ]" if rows else f"  {_dumps(name)}: []")
    return "{\n" + ",\n".join(parts) + "\n}\n"


# ---------------------------------------------------------------------- schema
def mapping_schema() -> dict:
    """The JSON Schema of the mapping document (``graphpriv/schemas/mapping.schema.json``)."""
    text = resources.files("graphpriv").joinpath("schemas", "mapping.schema.json").read_text(encoding="utf-8")
    return json.loads(text)


def validate_mapping(doc: Any) -> None:
    """Check a mapping document against the rules of :func:`mapping_schema` plus the cross-references
    (cluster ids, members, released values) that a JSON Schema cannot express; one-line
    :class:`~graphpriv.errors.InputError` on the first problem."""
    def fail(msg: str):
        raise InputError(f"mapping document: {msg}")

    if not isinstance(doc, dict):
        fail("must be a JSON object")
    required = ("schema_version", "public_column", "sensitive_column", "objective", "utility", "release", "decimals",
                "values", "clusters")
    for key in required:
        if key not in doc:
            fail(f"missing key {key!r}")
    if doc["schema_version"] != MAPPING_SCHEMA_VERSION:
        fail(f"schema_version {doc['schema_version']!r} is not {MAPPING_SCHEMA_VERSION}")
    if doc["release"] not in RELEASE_MODES:
        fail(f"release {doc['release']!r} is not one of {RELEASE_MODES}")
    if doc["utility"] not in ("U1", "U2"):
        fail(f"utility {doc['utility']!r} is not U1 or U2")
    if doc["decimals"] is not None and (isinstance(doc["decimals"], bool) or not isinstance(doc["decimals"], int)):
        fail("decimals must be an integer or null")
    values, clusters = doc["values"], doc["clusters"]
    if not isinstance(values, list) or not isinstance(clusters, list) or not values or not clusters:
        fail("values and clusters must be non-empty lists")
    for c_i, c in enumerate(clusters):
        if not isinstance(c, dict) or set(c) != {"id", "released", "members", "size"}:
            fail(f"cluster {c_i} must have exactly the keys id, released, members, size")
        if c["id"] != c_i:
            fail(f"cluster {c_i} has id {c['id']!r}; ids must be 0, 1, ... in order")
        if not isinstance(c["members"], list) or len(c["members"]) != c["size"] or not c["members"]:
            fail(f"cluster {c_i}: members must be a non-empty list of length size")
    seen = {}
    for v_i, v in enumerate(values):
        if not isinstance(v, dict) or set(v) != {"value", "released", "cluster", "changed"}:
            fail(f"value {v_i} must have exactly the keys value, released, cluster, changed")
        k = v["cluster"]
        if isinstance(k, bool) or not isinstance(k, int) or not 0 <= k < len(clusters):
            fail(f"value {v_i} names cluster {k!r}, which does not exist")
        if v["released"] != clusters[k]["released"]:
            fail(f"value {v_i} is released as {v['released']!r} but its cluster {k} as {clusters[k]['released']!r}")
        if not isinstance(v["changed"], bool):
            fail(f"value {v_i}: changed must be true or false")
        key = json.dumps(v["value"], sort_keys=True)
        if key in seen:
            fail(f"value {v['value']!r} is listed twice")
        seen[key] = k
    for c in clusters:
        for m in c["members"]:
            if seen.get(json.dumps(m, sort_keys=True)) != c["id"]:
                fail(f"cluster {c['id']} lists member {m!r}, which the values do not map to it")
    if sum(c["size"] for c in clusters) != len(values):
        fail("the clusters' sizes do not add up to the number of values")
    for x in seen:
        decode_value(json.loads(x))
