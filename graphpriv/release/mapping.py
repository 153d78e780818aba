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
from dataclasses import dataclass, field
from importlib import resources
from typing import Any, Hashable, Iterable, Sequence

import numpy as np
import pandas as pd

from .._labels import TimeText, label_key
from .._validation import MISSING
from ..errors import InputError, InputTypeError, UnknownLabelError
from .labels import (
    MAPPING_SCHEMA_VERSION,
    MAX_CODEWORD_DECIMALS,
    RELEASE_MODES,
    _check_mode,
    _encode_many,
    _is_number,
    _label,
    _member_text,
    _numbers_present,
    _numeric_labels,
    _numeric_values,
    _round_codeword,
    _set_text,
    decode_value,
    distinct_decimals,
    reader_key,
    separate_codewords,
    released_key,
)

__all__ = ["Release", "mapping_schema", "validate_mapping"]

#: The ``objective`` a mapping document may name: paper 003's objectives, and the merge mechanisms of the
#: privacy watchdog family (Sadeghi, Ding & Rakotoarivelo) whose releases are label merges too.
MERGE_OBJECTIVES = ("L0", "I*", "L0|I*=0", "watchdog", "eps-delta", "privacy funnel", "information bottleneck",
                    "watchdog subset", "alpha-lift watchdog")


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
        if mode == "codeword":
            _check_codewords(labels, cluster, codewords, sizes)
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
                separated, decimals = separate_codewords([codewords[k] for k in merged.tolist()],
                                                         [released[k] for k in np.flatnonzero(~changed).tolist()], decimals)
                for k, cw in zip(merged.tolist(), separated):
                    released[k] = _round_codeword(cw, decimals)
            elif len(merged) and (nums := _numeric_values(labels)) is not None:
                _numeric_labels(labels, nums, cluster, n_k, merged, released)
            elif len(merged) and _time_labels(labels):
                _time_intervals(labels, cluster, n_k, merged, released)
            elif len(merged):
                present = _numbers_present(labels)
                order = np.argsort(cluster, kind="stable")
                bounds = np.concatenate([[0], np.cumsum(np.bincount(cluster, minlength=n_k))])
                for k in merged.tolist():
                    ms = sorted((labels[i] for i in order[bounds[k]:bounds[k + 1]].tolist()), key=label_key)
                    released[k] = _label(ms, present)
        _check_distinct(released, changed, numeric=mode == "codeword")
        return cls(labels, cluster, tuple(released), changed, mode, str(utility), objective,
                   decimals if mode == "codeword" else None)

    @classmethod
    def from_result(cls, result, mode: str | None = None, *, decimals: int | None = None, seed: int | None = None):
        """The release of an :class:`~graphpriv.AgglomerationResult` (``mode`` defaults to
        :func:`default_release` of its utility; ``decimals`` rounds U2 codewords).

        A merge of the privacy watchdog (:func:`graphpriv.watchdog`, :func:`graphpriv.watchdog_eps_delta`)
        gives the label release of its partition; a linear reduction (:func:`graphpriv.linear_reduction`)
        gives a :class:`graphpriv.RandomisedRelease` drawn with ``seed`` -- the release ``graphpriv
        sanitize --mechanism`` writes for the same table and options.
        """
        if not hasattr(result, "quantization") and hasattr(result, "published") and hasattr(result, "partition"):
            if mode not in (None, "label"):
                raise InputError(f"a watchdog merge is released with labels, not {mode!r}")
            objective = "eps-delta" if hasattr(result, "delta_total") else "watchdog"
            return cls.from_quantization(list(np.asarray(result.public_labels).tolist()),
                                         [list(b) for b in result.partition], "label", objective=objective)
        if not hasattr(result, "quantization") and hasattr(result, "alpha") and hasattr(result, "kernel"):
            from .randomised import RandomisedRelease

            if seed is None:
                raise InputError("a linear reduction is a randomised release: pass seed= (an integer; the same seed "
                                 "gives the same release)")
            return RandomisedRelease.from_result(result, seed)
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

    def __repr__(self) -> str:
        """Short: the form, the number of clusters and of values replaced, and a few released values."""
        changed = np.flatnonzero(self.changed)
        n_values = int(np.count_nonzero(self.changed[self.cluster]))
        shown = [self.released[k] for k in changed[:3].tolist()]
        more = ", ..." if len(changed) > 3 else ""
        dec = f", decimals={self.decimals}" if self.decimals is not None else ""
        return (f"Release(mode={self.mode!r}, utility={self.utility!r}, objective={self.objective!r}{dec}: "
                f"{len(self.labels)} values in {self.n_clusters} clusters, {n_values} value(s) of {len(changed)} "
                f"cluster(s) changed, released e.g. [{', '.join(repr(v) for v in shown)}{more}])")

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
        try:
            validate_mapping(doc)
        except RecursionError:
            raise InputError("mapping document: a value is nested too deeply; a mapping holds only values, tuples of "
                             "values and flat tables") from None
        labels = tuple(decode_value(v["value"]) for v in doc["values"])
        cluster = np.array([v["cluster"] for v in doc["values"]], dtype=np.int64)
        released = tuple(decode_value(c["released"]) for c in doc["clusters"])
        changed = np.zeros(len(released), dtype=bool)
        for v in doc["values"]:
            changed[v["cluster"]] = bool(v["changed"])
        return cls(labels, cluster, released, changed, doc["release"], doc["utility"], doc.get("objective"), doc.get("decimals"))

    @classmethod
    def from_json(cls, text: str) -> "Release":
        """Read a mapping document from its JSON text (checked with :func:`validate_mapping`)."""
        if isinstance(text, (bytes, bytearray)):
            text = bytes(text).decode("utf-8", errors="replace")
        if not isinstance(text, str):
            raise InputTypeError(f"from_json needs the mapping's JSON text, got {type(text).__name__}")
        try:
            doc = json.loads(text)
        except json.JSONDecodeError as exc:
            raise InputError(f"mapping is not valid JSON ({exc.msg} at line {exc.lineno})") from None
        except RecursionError:
            raise InputError("mapping document: JSON nested too deeply; a mapping holds only values, tuples of values "
                             "and flat tables") from None
        return cls.from_dict(doc)

    def __len__(self) -> int:
        return len(self.labels)

    @classmethod
    def from_partition(cls, jr, partition: Iterable[Iterable[Hashable]], release: str | None = None, values: Any = None,
                       utility: Any = None, *, decimals: int | None = None, objective: str | None = None) -> "Release":
        """The release of a partition of ``jr``'s public values, e.g. ``trace.partition_at(lam=0.3)``.

        Clusters are numbered by their smallest member's code, as the mechanisms number them, so
        ``Release.from_partition(jr, r.quantization, ...)`` equals the release of ``r`` (Ding & Farokhi,
        *Developing Non-Stochastic Privacy-Preserving Policies Using Agglomerative Clustering*, Section V).

        Parameters
        ----------
        jr : JointRange
            The joint range the partition splits (its public labels, in code order).
        partition : iterable of sets of public labels
            A partition of ``jr.public_labels`` (every label in exactly one cluster).
        release : {"label", "codeword", "id"}, optional
            The released form; default ``"codeword"`` for U2, ``"label"`` for U1.
        values : mapping public label -> number (or vector), or "labels", optional
            The public values, for the codewords (cluster centroids) of ``release="codeword"``.
        utility : "U1", "U2" or a U2 object, optional
            Default ``"U2"`` when ``values`` is given, else ``"U1"``. A ``gp.U2(codeword="medoid")``
            object gives its own codewords.
        decimals : int, optional
            Codewords are rounded to this many decimals.

        Examples
        --------
        >>> import graphpriv as gp
        >>> jr, values = gp.datasets.paper_example()
        >>> rel = gp.Release.from_partition(jr, [{"x1", "x3", "x7"}, {"x2", "x5"}, {"x4", "x6"}])
        >>> rel.transform(["x1", "x2", "x4"])
        ['{x1, x3, x7}', '{x2, x5}', '{x4, x6}']
        >>> gp.Release.from_partition(jr, [{"x1", "x2"}, {"x3"}, {"x4"}, {"x5"}, {"x6"}, {"x7"}], values=values).mapping["x1"]
        0.15
        """
        labels = getattr(jr, "public_labels", None)
        if labels is None:
            raise InputTypeError(f"jr must be the JointRange the partition splits, got {type(jr).__name__}")
        labels = tuple(labels.tolist() if isinstance(labels, np.ndarray) else labels)
        if utility is None:
            utility = "U2" if values is not None else "U1"
        name = utility if isinstance(utility, str) else getattr(utility, "name", None)
        if not isinstance(name, str) or name.strip().upper() not in ("U1", "U2"):
            raise InputError(f"utility={utility!r} is not known; use 'U1', 'U2' or a U2 object such as gp.U2(codeword='medoid')")
        name = name.strip().upper()
        if isinstance(partition, (str, bytes)) or not isinstance(partition, Iterable):
            raise InputTypeError("partition must be an iterable of sets of public labels, e.g. [{'x1', 'x3'}, {'x2'}]")
        pos = {x: i for i, x in enumerate(labels)}
        clusters = []
        for c in partition:
            if isinstance(c, (str, bytes)) or not isinstance(c, Iterable):
                raise InputTypeError(f"partition cluster {c!r} is not a set of public labels")
            clusters.append(sorted(c, key=lambda x: pos.get(x, len(labels))))
        clusters.sort(key=lambda c: pos.get(c[0], len(labels)) if c else -1)     # by smallest member code
        mode = _check_mode(release, name)
        codewords = None
        if mode == "codeword":
            if hasattr(utility, "bind"):                    # a utility object: its own codeword rule
                bound = utility.bind(labels, values)
                codewords = [bound.codeword(np.array([pos[x] for x in c if x in pos], dtype=np.int64)) for c in clusters]
            else:                                           # "U2": the centroid (paper 003, Section V-A)
                if values is None:
                    raise InputError("release='codeword' needs the public values: pass values={label: number, ...} "
                                     "(or values='labels' when the labels are numbers)")
                codewords = []
                for c in clusters:
                    try:
                        v = np.asarray([x if isinstance(values, str) and values == "labels" else values[x] for x in c],
                                       dtype=float)
                    except (KeyError, TypeError, ValueError):
                        raise InputError(f"values has no number for some public label of cluster {c[:3]!r}; give one "
                                         "number (or vector) per public label") from None
                    cw = v.mean(axis=0) if len(v) else np.nan
                    codewords.append(float(cw) if np.ndim(cw) == 0 else tuple(np.asarray(cw, dtype=float).tolist()))
        return cls.from_quantization(labels, clusters, mode, utility=name, codewords=codewords, decimals=decimals,
                                     objective=objective)


def _time_labels(labels) -> bool:
    """Whether the labels are times in time order (dates, times, timestamps read from a column of
    them; the missing value aside)."""
    return bool(labels) and all(isinstance(x, TimeText) or x is MISSING for x in labels) and \
        any(isinstance(x, TimeText) for x in labels)


def _time_intervals(labels, cluster, n_k: int, merged, released: list) -> None:
    """Generalisation labels of clusters of times: ``[first, last]`` for consecutive times (no time
    of another cluster between them, as labels are in time order), else the set; a cluster holding the
    missing value is a set with ``NA`` last."""
    codes = np.arange(len(labels))
    present = np.array([x is not MISSING for x in labels], dtype=bool)
    rank = np.cumsum(present) - 1                       # position among the present times
    for k in merged.tolist():
        members = codes[cluster == k]
        if present[members].all() and rank[members[-1]] - rank[members[0]] + 1 == len(members):
            released[k] = f"[{_member_text(labels[members[0]])}, {_member_text(labels[members[-1]])}]"
        else:
            released[k] = _set_text(sorted(members.tolist(), key=lambda i: (labels[i] is MISSING, i)),
                                    lambda i: _member_text(labels[i]))


def _check_codewords(labels, cluster, codewords, sizes) -> None:
    """Refuse the codeword of a merged cluster that is not a finite number (or a vector of them): a NaN
    centroid is no value a reader can use (it comes from a NaN or infinite public value)."""
    for k, cw in enumerate(codewords):
        if sizes[k] <= 1:
            continue
        parts = cw if isinstance(cw, tuple) else (cw,)
        ok = all(isinstance(v, (numbers.Real, np.number)) and not isinstance(v, (bool, np.bool_))
                 and math.isfinite(float(v)) for v in parts) and len(parts) > 0
        if not ok:
            members = [labels[i] for i in np.flatnonzero(cluster == k)[:3].tolist()]
            raise InputError(f"the codeword of the cluster of {', '.join(map(repr, members))} is {cw!r}, not a finite "
                             "number; give finite values for its members")


def _check_distinct(released, changed, numeric: bool = False) -> None:
    """Refuse two clusters with one released value (a reader could not tell them apart); with
    ``numeric`` (codewords beside unchanged values), texts that are numbers count as those numbers."""
    seen: dict = {}
    key_of = reader_key if numeric else released_key
    for k, v in enumerate(released):
        key = key_of(v)
        j = seen.setdefault(key, k)
        if j != k:
            what = "is also a public value released unchanged" if not (changed[j] and changed[k]) else \
                "is released for two clusters"
            raise InputError(f"the released value {v!r} {what} (clusters {j} and {k}); a reader could not tell the "
                             "clusters apart -- use release='id' (--release id)")


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
    dec = doc["decimals"]
    if dec is not None and (isinstance(dec, bool) or not isinstance(dec, int) or not 0 <= dec <= MAX_CODEWORD_DECIMALS):
        fail(f"decimals {dec!r} must be an integer from 0 to {MAX_CODEWORD_DECIMALS} or null")
    if dec is not None and doc["release"] != "codeword":
        fail(f"decimals {dec!r} is given but release is {doc['release']!r}; only codewords are rounded (use null)")
    if doc["release"] == "codeword" and doc["utility"] != "U2":
        fail("release 'codeword' needs utility U2 (codewords are cluster centroids)")
    if doc["objective"] is not None and doc["objective"] not in MERGE_OBJECTIVES:
        fail(f"objective {doc['objective']!r} is not one of {', '.join(map(repr, MERGE_OBJECTIVES))} (or null)")
    for key in ("public_column", "sensitive_column"):
        if doc[key] is not None and not isinstance(doc[key], str):
            fail(f"{key} must be a column name or null, got {doc[key]!r}")
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
    changed_of: dict = {}
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
        if changed_of.setdefault(k, v["changed"]) != v["changed"]:
            fail(f"value {v_i} ({v['value']!r}) has changed: {str(v['changed']).lower()} but another value of its cluster "
                 f"{k} not; a cluster's values are replaced together")
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
    mode = doc["release"]
    keys: dict = {}
    for c in clusters:
        k, rel, changed = c["id"], c["released"], changed_of.get(c["id"])
        if mode == "id":
            if rel != k or isinstance(rel, bool) or not changed:
                fail(f"cluster {k} is released as {rel!r} with changed: {str(changed).lower()}; release 'id' replaces "
                     "every value by its cluster number (released = id, changed: true)")
        elif c["size"] > 1 and not changed:
            fail(f"cluster {k} merges {c['size']} values but says changed: false; a merged cluster's values are "
                 "replaced by its released value (changed: true)")
        elif not changed and json.dumps(rel, sort_keys=True) != json.dumps(c["members"][0], sort_keys=True):
            fail(f"cluster {k} is released as {rel!r} but says changed: false and holds {c['members'][0]!r}; an "
                 "unchanged value is released as itself")
        elif changed and c["size"] == 1:
            fail(f"cluster {k} holds the single value {c['members'][0]!r} but says changed: true; under release "
                 f"{mode!r} a value nothing was merged into is released unchanged")
        if mode == "codeword" and changed:
            r = decode_value(rel)
            if not _is_number(r) or not np.isfinite(float(r)):
                fail(f"cluster {k} is released as {rel!r}; a codeword is a finite number")
            if dec is not None and _round_codeword(float(r), dec) != r:
                fail(f"cluster {k}'s codeword {rel!r} has more than decimals = {dec} digits after the point")
        key = released_key(decode_value(rel))
        j = keys.setdefault(key, k)
        if j != k:
            fail(f"clusters {j} and {k} are both released as {rel!r}; released values must tell the clusters apart")
