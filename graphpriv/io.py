"""Reading tables (CSV, Parquet), writing files atomically, and building analysis reports.

This is the I/O layer of the ``graphpriv analyze`` / ``graphpriv sanitize`` commands; library users
can call it too (``import graphpriv.io``).

Reading lives in :mod:`graphpriv.ingest` (strict CSV, Parquet, folders and globs, pyarrow Datasets,
streamed in record batches); :func:`read_columns`, :func:`table_format` and
:data:`DEFAULT_NA_VALUES` are re-exported here.

Atomic output: the writers (:mod:`graphpriv.outputs`, re-exported here) write a temporary file in
the target folder and rename it, and :func:`staged_output` builds a whole command's output folder
beside ``--out`` and swaps it in only after everything succeeded, so a failure leaves no file
behind. The reports are rendered from their data by :mod:`graphpriv.report`.
"""

from __future__ import annotations

import json
import logging
import math
import os
from pathlib import Path
from typing import Any, Hashable, Sequence

import numpy as np
import pandas as pd

from ._validation import MISSING
from .errors import InputError, InputTypeError, UnknownColumnError
from .ingest import BUILTIN_DATASETS, DEFAULT_NA_VALUES, table_format
from .ingest import read_columns as _ingest_read_columns
from .outputs import atomic_write, staged_output, write_text  # noqa: F401 - re-exported
from .report import report_html, report_lines, report_markdown  # noqa: F401 - re-exported

__all__ = [
    "DEFAULT_NA_VALUES",
    "REPORT_SCHEMA_VERSION",
    "BUILTIN_DATASETS",
    "table_format",
    "read_table",
    "read_columns",
    "atomic_write",
    "write_text",
    "write_json",
    "write_table",
    "staged_output",
    "to_jsonable",
    "label_to_json",
    "analysis_report",
    "report_lines",
    "report_markdown",
    "report_html",
]

logger = logging.getLogger(__name__)

#: Version of the ``report.json`` schema written by ``graphpriv analyze`` (bump on incompatible change).
REPORT_SCHEMA_VERSION = 1

_PARQUET_SUFFIXES = (".parquet", ".pq", ".parq")


# ---------------------------------------------------------------------- reading
def read_columns(path: str | os.PathLike, columns: Sequence[str] | None = None, *, roles: Sequence[str] | None = None,
                 na_values: Sequence[str] | None = None, sep: str | None = None, raw: bool = False,
                 encoding: str = "utf-8", engine: str = "auto") -> pd.DataFrame:
    """Read ``columns`` (default: all) of a CSV or Parquet file (or folder, glob), or of a bundled
    dataset, as a DataFrame.

    Files are read by :func:`graphpriv.ingest.read_columns` (strict CSV: a malformed record is an
    error naming its line; values kept as written, see there). A bundled dataset name
    (``"hungarian"``) gives :func:`graphpriv.datasets.load_hungarian`'s frame.

    Raises
    ------
    InputError
        Missing, empty or malformed file; a header without data rows.
    UnknownColumnError
        A requested column is not in the file.

    Examples
    --------
    >>> from graphpriv.io import read_columns
    >>> df = read_columns("hungarian", ["age", "chol"])
    >>> len(df), int(df["chol"].isna().sum())
    (294, 23)
    """
    if table_format(path) == "builtin":
        from .datasets import load_hungarian

        df = load_hungarian()
        if columns is not None:
            cols = list(columns)
            for i, c in enumerate(cols):
                if c not in df.columns:
                    role = f"{roles[i]} " if roles else ""
                    raise UnknownColumnError(f"unknown {role}column {c!r} in {str(path)!r}; the file has columns {list(df.columns)}")
            df = df[list(dict.fromkeys(cols))]
        return df
    return _ingest_read_columns(path, columns, roles=roles, na_values=na_values, sep=sep, raw=raw, encoding=encoding,
                                engine=engine)


read_table = read_columns


# ---------------------------------------------------------------------- writing
def to_jsonable(obj: Any) -> Any:
    """Convert numpy scalars/arrays, sets, tuples, paths and :data:`~graphpriv.MISSING` to JSON types.

    Non-finite floats become ``None`` (JSON has no NaN); sets become sorted lists.

    Examples
    --------
    >>> from graphpriv.io import to_jsonable
    >>> import numpy as np
    >>> to_jsonable({"a": np.int64(3), "b": frozenset({2, 1}), "c": float("nan")})
    {'a': 3, 'b': [1, 2], 'c': None}
    """
    if obj is None or obj is MISSING:
        return None
    if isinstance(obj, dict):
        return {str(k) if not isinstance(k, str) else k: to_jsonable(v) for k, v in obj.items()}
    if isinstance(obj, (set, frozenset)):
        items = [to_jsonable(v) for v in obj]
        try:
            return sorted(items, key=lambda v: (v is None, v))
        except TypeError:
            return sorted(items, key=str)
    if isinstance(obj, (list, tuple)):
        return [to_jsonable(v) for v in obj]
    if isinstance(obj, np.ndarray):
        return [to_jsonable(v) for v in obj.tolist()]
    if isinstance(obj, (np.bool_, bool)):
        return bool(obj)
    if isinstance(obj, (np.integer, int)):
        return int(obj)
    if isinstance(obj, (np.floating, float)):
        f = float(obj)
        return f if math.isfinite(f) else None
    if isinstance(obj, (str,)):
        return obj
    if isinstance(obj, os.PathLike):
        return os.fspath(obj)
    if hasattr(obj, "to_json") and callable(obj.to_json):
        val = obj.to_json()
        return json.loads(val) if isinstance(val, str) else to_jsonable(val)
    if hasattr(obj, "item"):
        return to_jsonable(obj.item())
    return str(obj)


def label_to_json(label: Hashable) -> Any:
    """One label as a JSON value: numbers stay numbers, :data:`~graphpriv.MISSING` becomes ``None``,
    tuples become lists, anything else its ``str``. A non-finite number is not missing: it becomes
    the string ``"Infinity"``, ``"-Infinity"`` or ``"NaN"`` (the names JSON readers such as
    JavaScript's ``Number()`` and Python's ``float()`` accept).

    Examples
    --------
    >>> from graphpriv.io import label_to_json
    >>> [label_to_json(v) for v in (1, 2.5, float("inf"), float("-inf"), float("nan"), True, "7")]
    [1, 2.5, 'Infinity', '-Infinity', 'NaN', True, '7']
    """
    if isinstance(label, (float, np.floating)) and not math.isfinite(float(label)):
        f = float(label)
        return "NaN" if f != f else ("Infinity" if f > 0 else "-Infinity")
    if isinstance(label, tuple):
        return [label_to_json(v) for v in label]
    return to_jsonable(label)


def write_json(path: str | os.PathLike, obj: Any, *, indent: int = 2) -> Path:
    """Write ``obj`` as JSON (through :func:`to_jsonable`, keys kept in order) atomically."""
    text = json.dumps(to_jsonable(obj), indent=indent, allow_nan=False, ensure_ascii=False)
    return write_text(path, text + "\n")


def write_table(path: str | os.PathLike, df: pd.DataFrame, *, fmt: str | None = None, sep: str = ",") -> Path:
    """Write ``df`` as CSV (no index) or Parquet (chosen by ``fmt`` or the suffix) atomically."""
    path = Path(path)
    fmt = fmt or ("parquet" if path.suffix.lower() in _PARQUET_SUFFIXES else "csv")
    if fmt == "parquet":
        with atomic_write(path, "wb") as fh:
            df.to_parquet(fh, index=False)
    elif fmt == "csv":
        with atomic_write(path, "w", encoding="utf-8", newline="") as fh:
            df.to_csv(fh, index=False, sep=sep, lineterminator="\n")
    else:
        raise InputError(f"fmt={fmt!r} must be 'csv' or 'parquet'")
    return path


# ---------------------------------------------------------------------- analysis report
def analysis_report(jr, *, input_info: dict | None = None, max_cut_edges: int = 200_000, max_cut_public: int = 2_000,
                    small_size: int = 3, max_small: int = 20, eps: float = 1.0, base: float = math.e) -> dict:
    """The ``report.json`` content of ``graphpriv analyze`` for a joint range (schema version 1).

    Parameters
    ----------
    jr : JointRange
    input_info : dict, optional
        What was read (path, format, columns, missing policy); stored under ``"input"``.
    max_cut_edges, max_cut_public : int
        The global min cut of G_X is computed with :func:`graphpriv.min_cut` only when G_X has at most
        ``max_cut_edges`` edges (upper bound) and ``max_cut_public`` nodes; otherwise the report says
        whether G_X is decomposable from its components (min cut 0 iff more than one component).
    small_size, max_small : int
        Components with at most ``small_size`` public values are listed (at most ``max_small`` of them).
    eps, base : float
        The log-lift threshold and log base of the stochastic measures (:func:`graphpriv.stochastic_measures`
        of the range's counts; default 1 nat).

    Returns
    -------
    dict
        The ``report.json`` schema (version 1; ``graphpriv analyze`` adds ``figures``)::

            schema_version: 1, graphpriv_version: str,
            input:      {path, format ("csv"|"parquet"|"builtin"), sensitive, public, missing}
            rows:       {read, used, dropped, missing_sensitive, missing_public}   (null if unknown)
            range:      {n_sensitive, n_public, n_pairs, n_singleton_pairs, gx_edge_bound}
            measures:   {unit: "bits", H0_S, H0_S_given_X, I0, L0, B0, k_anonymity, I_star}
            components: {count, largest_sizes, size_histogram: [{size, count}], small: [{public, sensitive}],
                         n_small, small_size, largest_sensitive_sizes}
            min_cut:    {computed, value, decomposable, side (smaller side, code order) | null,
                         method, note (+ n_cut_edges when computed)}
            stochastic: {unit, base, eps, max_log_lift, min_log_lift, max_abs_log_lift, n_above_eps,
                         share_above_eps, mass_above_eps, mutual_information, maximal_leakage, ldp,
                         ldp_reason, watchdog_eps_c, nmil, ...} (infinite values as "Infinity"/"-Infinity";
                         {computed: false, note} for a range without counts)
            principal_partitions: {computed, n_critical, strength, levels: [{critical_value, fraction,
                         n_blocks, cut_weight}], note}  (graphpriv.report.principal)
            figures:    [{file, pdf, caption}]

        Labels are JSON numbers or strings; a missing value kept as a symbol is ``null``.

    Examples
    --------
    >>> from graphpriv.io import analysis_report
    >>> import graphpriv as gp
    >>> jr, _ = gp.datasets.paper_example()
    >>> r = analysis_report(jr)
    >>> r["range"]["n_public"], r["measures"]["k_anonymity"], r["components"]["count"], r["min_cut"]["value"]
    (7, 1, 5, 0)
    """
    import graphpriv as gp
    from .graphs.confusability import confusability_edge_count_bound
    from .report.principal import principal_section

    comps = gp.components(jr)
    sizes = np.bincount(comps.public, minlength=comps.n_components)
    s_sizes = np.bincount(comps.sensitive, minlength=comps.n_components)
    hist_sizes, hist_counts = np.unique(sizes, return_counts=True)
    order = np.argsort(-sizes, kind="stable")
    small_ids = np.flatnonzero(sizes <= small_size)[:max_small] if comps.n_components > 1 else np.array([], dtype=int)
    small = []
    if small_ids.size:
        groups_x = comps.public_groups()
        groups_s = comps.sensitive_groups()
        for k in small_ids.tolist():
            small.append({
                "public": [label_to_json(v) for v in jr.public_labels[groups_x[k]].tolist()],
                "sensitive": [label_to_json(v) for v in jr.sensitive_labels[groups_s[k]].tolist()],
            })
    src = jr.source
    rows = None
    if src is not None:
        rows = {"read": src.n_rows, "used": src.n_rows - src.n_dropped, "dropped": src.n_dropped,
                "missing_sensitive": src.n_missing_sensitive, "missing_public": src.n_missing_public}
    bound = confusability_edge_count_bound(jr)
    ncomp = int(comps.n_components)
    if jr.n_public < 2:
        cut = {"computed": False, "value": None, "decomposable": False, "side": None, "method": None,
               "note": "G_X has a single node; a cut needs two public values"}
    elif bound <= max_cut_edges and jr.n_public <= max_cut_public:
        c = gp.min_cut(jr, max_edges=max(max_cut_edges, 1))
        side = c.side if len(c.side) <= len(c.other) else c.other
        cut = {"computed": True, "value": int(c.value), "decomposable": bool(c.value == 0),
               "side": [label_to_json(v) for v in jr.public_labels.tolist() if v in side], "n_cut_edges": len(c.cut_edges),
               "method": "global min cut of G_X (graphpriv.min_cut, igraph Stoer-Wagner)", "note": ""}
    else:
        cut = {"computed": False, "value": 0 if ncomp > 1 else None, "decomposable": ncomp > 1, "side": None,
               "method": "components of the bipartite support graph",
               "note": f"G_X too large for an explicit cut (up to {bound} edges, {jr.n_public} nodes); "
                       f"decomposable: {'yes' if ncomp > 1 else 'no'} (from components)"}
    singles = jr.n_singleton_pairs
    return {
        "schema_version": REPORT_SCHEMA_VERSION,
        "graphpriv_version": gp.__version__,
        "input": to_jsonable(input_info or {}),
        "rows": rows,
        "range": {"n_sensitive": jr.n_sensitive, "n_public": jr.n_public, "n_pairs": jr.n_pairs,
                  "n_singleton_pairs": singles, "gx_edge_bound": bound},
        "measures": {
            "unit": "bits",
            "H0_S": gp.H0(jr), "H0_S_given_X": gp.H0(jr, given="X"),
            "I0": gp.I0(jr), "L0": gp.L0(jr), "B0": gp.B0(jr),
            "k_anonymity": int(gp.k_anonymity(jr)),
            "I_star": gp.maximin_information(jr),
        },
        "components": {
            "count": ncomp,
            "largest_sizes": sizes[order[:10]].tolist(),
            "size_histogram": [{"size": int(a), "count": int(b)} for a, b in zip(hist_sizes, hist_counts)],
            "small": small,
            "n_small": int((sizes <= small_size).sum()) if ncomp > 1 else 0,
            "small_size": small_size,
            "largest_sensitive_sizes": s_sizes[order[:10]].tolist(),
        },
        "min_cut": cut,
        "stochastic": _stochastic(jr, eps, base),
        "principal_partitions": principal_section(jr, max_edges=max_cut_edges),
    }


def _stochastic(jr, eps: float, base: float) -> dict:
    """The stochastic measures of the range's empirical distribution (its counts), JSON-ready."""
    import graphpriv as gp

    if jr.counts is None:
        return {"computed": False, "note": "the range has no counts (it was not read from records)"}
    return {"computed": True, **gp.stochastic_measures(jr, eps, base=base).to_dict(json_safe=True)}
