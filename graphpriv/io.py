"""Reading tables (CSV, Parquet), writing files atomically, and building analysis reports.

This is the I/O layer of the ``graphpriv analyze`` / ``graphpriv sanitize`` commands; library users
can call it too (``import graphpriv.io``).

Reading lives in :mod:`graphpriv.ingest` (strict CSV, Parquet, folders and globs, pyarrow Datasets,
streamed in record batches); :func:`read_columns`, :func:`table_format` and
:data:`DEFAULT_NA_VALUES` are re-exported here.

Atomic output: every writer here writes a temporary file in the target folder and renames it
(:func:`os.replace`), and :func:`staged_output` collects a whole command's outputs in a temporary
folder next to the target and moves them in only after everything succeeded, so a failure leaves
no file behind.
"""

from __future__ import annotations

import base64
import contextlib
import html
import json
import logging
import math
import os
import shutil
import tempfile
from pathlib import Path
from typing import Any, Hashable, Iterator, Sequence

import numpy as np
import pandas as pd

from ._validation import MISSING
from .errors import InputError, InputTypeError, UnknownColumnError
from .ingest import BUILTIN_DATASETS, DEFAULT_NA_VALUES, table_format
from .ingest import read_columns as _ingest_read_columns

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
@contextlib.contextmanager
def atomic_write(path: str | os.PathLike, mode: str = "w", **kwargs) -> Iterator[Any]:
    """Open a temporary file next to ``path``; on success rename it to ``path`` (os.replace).

    On an exception the temporary file is removed and ``path`` is untouched.

    Examples
    --------
    >>> from graphpriv.io import atomic_write
    >>> import tempfile, os
    >>> d = tempfile.mkdtemp()
    >>> with atomic_write(os.path.join(d, "a.txt")) as fh:
    ...     _ = fh.write("hello")
    >>> open(os.path.join(d, "a.txt")).read()
    'hello'
    """
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(prefix="." + path.name + ".", suffix=".tmp", dir=path.parent)
    try:
        with os.fdopen(fd, mode, **kwargs) as fh:
            yield fh
        os.replace(tmp, path)
    except BaseException:
        with contextlib.suppress(OSError):
            os.unlink(tmp)
        raise


def write_text(path: str | os.PathLike, text: str) -> Path:
    """Write ``text`` (UTF-8) to ``path`` atomically; return the path."""
    with atomic_write(path, "w", encoding="utf-8", newline="\n") as fh:
        fh.write(text)
    return Path(path)


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


@contextlib.contextmanager
def staged_output(out_dir: str | os.PathLike) -> Iterator[Path]:
    """Collect a command's output files in a temporary folder next to ``out_dir``; commit at the end.

    Yields the temporary folder. When the block finishes without an exception every file in it is
    moved into ``out_dir`` (created if needed; a new folder is renamed into place in one step, files
    in an existing folder are replaced one by one with :func:`os.replace`). On an exception the
    temporary folder is deleted and ``out_dir`` is left as it was.

    Examples
    --------
    >>> import tempfile, os
    >>> from graphpriv.io import staged_output, write_text
    >>> target = os.path.join(tempfile.mkdtemp(), "out")
    >>> with staged_output(target) as tmp:
    ...     _ = write_text(tmp / "report.md", "# hi")
    >>> sorted(os.listdir(target))
    ['report.md']
    """
    out = Path(out_dir)
    if out.exists() and not out.is_dir():
        raise InputError(f"output path {str(out)!r} exists and is not a folder; choose another --out")
    parent = out.resolve().parent
    created = []                      # parent folders made here, removed again on failure
    p = parent
    while not p.exists():
        created.append(p)
        p = p.parent
    try:
        parent.mkdir(parents=True, exist_ok=True)
        tmp = Path(tempfile.mkdtemp(prefix=f".{out.name}.", suffix=".tmp", dir=parent))
    except OSError as exc:
        _remove_empty(created)
        raise InputError(f"cannot create the output folder {str(out)!r} ({exc.strerror}); choose a writable --out") from None
    ok = False
    try:
        yield tmp
        if not out.exists():
            os.rename(tmp, out)
            ok = True
            return
        for src in sorted(tmp.rglob("*")):
            if src.is_dir():
                continue
            dst = out / src.relative_to(tmp)
            dst.parent.mkdir(parents=True, exist_ok=True)
            os.replace(src, dst)
        ok = True
    finally:
        if tmp.exists():
            shutil.rmtree(tmp, ignore_errors=True)
        if not ok:
            _remove_empty(created)


def _remove_empty(folders: list[Path]) -> None:
    for f in folders:                 # deepest first
        with contextlib.suppress(OSError):
            f.rmdir()


# ---------------------------------------------------------------------- analysis report
def analysis_report(jr, *, input_info: dict | None = None, max_cut_edges: int = 200_000, max_cut_public: int = 2_000,
                    small_size: int = 3, max_small: int = 20) -> dict:
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
    }


def _fmt(v: Any, digits: int = 4) -> str:
    if v is None:
        return "n/a"
    if isinstance(v, float):
        return f"{v:.{digits}f}"
    return str(v)


def report_lines(report: dict) -> list[str]:
    """The report as plain text lines (what ``graphpriv analyze`` prints)."""
    inp, rows, rng, m, comp, cut = (report.get(k) or {} for k in ("input", "rows", "range", "measures", "components", "min_cut"))
    lines = []
    if inp:
        lines.append(f"data: {inp.get('path')} ({inp.get('format')}), S = {inp.get('sensitive')!s}, X = {inp.get('public')!s}, missing = {inp.get('missing')}")
    if rows:
        lines.append(f"rows: {rows['read']} read, {rows['used']} used, {rows['dropped']} dropped; "
                     f"missing values: {rows['missing_sensitive']} sensitive, {rows['missing_public']} public")
    lines += [
        f"|[[S]]| = {rng['n_sensitive']}, |[[X]]| = {rng['n_public']}, |[[S,X]]| = {rng['n_pairs']} pairs"
        + (f" ({rng['n_singleton_pairs']} seen once)" if rng.get("n_singleton_pairs") is not None else ""),
        f"H0(S)    = {_fmt(m['H0_S'])} bits    H0(S|X) = {_fmt(m['H0_S_given_X'])} bits",
        f"I0(S->X) = {_fmt(m['I0'])} bits",
        f"L0(S->X) = {_fmt(m['L0'])} bits",
        f"B0(S|X)  = {_fmt(m['B0'])} bits",
        f"k-anonymity: k = {m['k_anonymity']}",
        f"I*(S;X)  = {_fmt(m['I_star'])} bits ({comp['count']} component(s) of G_X)",
        f"components: largest sizes {comp['largest_sizes']}"
        + (f"; {comp['n_small']} with <= {comp['small_size']} public values" if comp.get("n_small") else ""),
    ]
    for c in comp.get("small", [])[:5]:
        lines.append(f"  small component: X = {c['public']}, S = {c['sensitive']}")
    if cut.get("computed"):
        lines.append(f"min cut of G_X: {cut['value']} (decomposable: {'yes' if cut['decomposable'] else 'no'})")
    else:
        lines.append(f"min cut of G_X: {cut.get('note', 'not computed')}")
    return lines


def report_markdown(report: dict, figures: Sequence[dict] = ()) -> str:
    """``report.md``: the report as Markdown with the figures embedded as relative image links.

    ``figures`` is a list of ``{"file": "figures/x.png", "caption": "..."}``.
    """
    inp, rows, rng, m, comp, cut = (report.get(k) or {} for k in ("input", "rows", "range", "measures", "components", "min_cut"))
    out = ["# graphpriv analysis report", ""]
    if inp:
        out += [f"- data: `{inp.get('path')}` ({inp.get('format')})",
                f"- sensitive S: `{inp.get('sensitive')}`, public X: `{inp.get('public')}`, missing values: `{inp.get('missing')}`",
                f"- graphpriv {report.get('graphpriv_version')}, report schema {report.get('schema_version')}", ""]
    if rows:
        out += ["## Rows", "", "| read | used | dropped | missing S | missing X |", "|---:|---:|---:|---:|---:|",
                f"| {rows['read']} | {rows['used']} | {rows['dropped']} | {rows['missing_sensitive']} | {rows['missing_public']} |", ""]
    out += ["## Joint range", "", "| quantity | value |", "|---|---:|",
            f"| \\|[[S]]\\| | {rng['n_sensitive']} |", f"| \\|[[X]]\\| | {rng['n_public']} |",
            f"| \\|[[S,X]]\\| (pairs) | {rng['n_pairs']} |"]
    if rng.get("n_singleton_pairs") is not None:
        out.append(f"| pairs seen once | {rng['n_singleton_pairs']} |")
    out += ["", "## Measures (bits)", "", "| measure | value |", "|---|---:|",
            f"| H0(S) | {_fmt(m['H0_S'])} |", f"| H0(S\\|X) | {_fmt(m['H0_S_given_X'])} |",
            f"| I0(S→X) | {_fmt(m['I0'])} |", f"| L0(S→X) | {_fmt(m['L0'])} |", f"| B0(S\\|X) | {_fmt(m['B0'])} |",
            f"| k-anonymity k | {m['k_anonymity']} |", f"| I*(S;X) | {_fmt(m['I_star'])} |", "",
            "## Components of G_X", "", f"{comp['count']} component(s); largest sizes (public values): {comp['largest_sizes']}.", ""]
    if comp.get("small"):
        out += [f"Components with at most {comp['small_size']} public values ({comp['n_small']} in all; first {len(comp['small'])}):", ""]
        out += [f"- X = {c['public']}, S = {c['sensitive']}" for c in comp["small"]]
        out.append("")
    out += ["## Min cut of G_X", ""]
    if cut.get("computed"):
        out.append(f"Min cut value {cut['value']}, computed as the {cut['method']}; decomposable: {'yes' if cut['decomposable'] else 'no'}.")
    else:
        out.append(str(cut.get("note", "not computed")) + ".")
    out.append("")
    if figures:
        out += ["## Figures", ""]
        for k, f in enumerate(figures, 1):
            alt = Path(f["file"]).stem.replace("_", " ")
            out += [f"![{alt}]({f['file']})", "", f"Figure {k}. {f['caption']}", ""]
    return "\n".join(out)


def report_html(markdown_text: str, base_dir: str | os.PathLike) -> str:
    """A self-contained HTML page of a report: Markdown tables/lists rendered simply, PNG figures
    embedded as base64 ``data:`` URIs read from ``base_dir``."""
    body = []
    in_table = False
    in_list = False
    for line in markdown_text.splitlines():
        if line.startswith("|"):
            if set(line.strip()) <= set("|-: "):
                continue
            cells = [c.strip().replace("\\|", "|") for c in line.strip().strip("|").split(" | ")]
            if not in_table:
                body.append("<table>")
                in_table = True
                body.append("<tr>" + "".join(f"<th>{html.escape(c)}</th>" for c in cells) + "</tr>")
            else:
                body.append("<tr>" + "".join(f"<td>{html.escape(c)}</td>" for c in cells) + "</tr>")
            continue
        if in_table:
            body.append("</table>")
            in_table = False
        if line.startswith("- "):
            if not in_list:
                body.append("<ul>")
                in_list = True
            body.append(f"<li>{html.escape(line[2:]).replace('`', '')}</li>")
            continue
        if in_list:
            body.append("</ul>")
            in_list = False
        if line.startswith("## "):
            body.append(f"<h2>{html.escape(line[3:])}</h2>")
        elif line.startswith("# "):
            body.append(f"<h1>{html.escape(line[2:])}</h1>")
        elif line.startswith("!["):
            cap, _, rest = line[2:].partition("](")
            src = Path(base_dir) / rest.rstrip(")")
            if src.exists():
                data = base64.b64encode(src.read_bytes()).decode("ascii")
                body.append(f'<img alt="{html.escape(cap)}" src="data:image/png;base64,{data}" style="max-width:100%">')
        elif line.strip():
            body.append(f"<p>{html.escape(line)}</p>")
    if in_table:
        body.append("</table>")
    if in_list:
        body.append("</ul>")
    style = ("body{font-family:sans-serif;max-width:60em;margin:2em auto;}table{border-collapse:collapse;}"
             "td,th{border:1px solid #ccc;padding:2px 8px;text-align:left;}")
    return ("<!DOCTYPE html>\n<html><head><meta charset='utf-8'><title>graphpriv analysis report</title>"
            f"<style>{style}</style></head><body>\n" + "\n".join(body) + "\n</body></html>\n")
