"""The audit of a released table: every figure recomputed from the file that was written.

A release is a table whose public column X was replaced by released values of the clusters of a
quantisation X̂ (Ding & Farokhi, *Developing Non-Stochastic Privacy-Preserving Policies Using
Agglomerative Clustering*, Section V). What a data recipient holds is the written file, so the
privacy and utility quoted for a release are those of the file. :func:`audit_release` reads the
written table back beside its input, streamed (a block of CSV records or a Parquet record batch of
each at a time, never a column of all rows), and recomputes from it:

* the row count, and that every non-public cell is unchanged (CSV: the exact text of every field of
  the other columns; Parquet: the other columns' types and values, floats bit for bit);
* the partition X̂ of the public values, found through the released values: the public values
  (as the analysis read them) that share one released value form one cluster; a value released as
  two different values, or two clusters of the mechanism under one released value, is a failure;
* |X̂|, the privacy of the released column, L0(S → X̂) and I*(S; X̂) (Sections III-IV) over the rows
  the analysis used, and k-anonymity;
* the utility: U1 = I0(X → X̂) = log|X| - log max|𝒳| and U2 = -max |x - x̂| with the codewords *as
  released* (the rounded numbers in the file; for ``label`` and ``id`` releases, which publish no
  codeword, the centroids);
* that the released values are those of the mapping document (so ``Release.transform`` of the
  original column reproduces the released column).

:meth:`AuditReport.check` raises :class:`AuditError` (one line) on a failure: a different row count, a
non-public cell changed, two clusters under one released value, or privacy worse than the mechanism
promised. ``graphpriv sanitize`` runs it on the staged output before committing it.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from pathlib import Path
from collections.abc import Mapping
from typing import Any, Callable, Iterator, Sequence

import numpy as np

from ..errors import GraphprivError, InputError

__all__ = ["AuditError", "AuditReport", "audit_release"]

#: The objectives a promise can bound (see :func:`audit_release`).
OBJECTIVES = ("L0", "I*", "L0|I*=0")

#: Tolerance on privacy and utility in bits (the mechanisms' own tie tolerance is 1e-9).
AUDIT_TOL = 1e-9


class AuditError(GraphprivError):
    """The written release does not hold what the mechanism released (one line: what differs)."""


@dataclass
class AuditReport:
    """What :func:`audit_release` recomputed from the released table.

    Attributes
    ----------
    rows_read, rows_written : int
        Rows of the input and of the released table.
    n_public : int
        |[[X]]|: public values of the rows the analysis used.
    n_clusters : int
        |X̂|: distinct released values of those rows (the clusters found through them).
    partition : list of list of int
        The clusters as public label codes (code order), by smallest code.
    L0, I_star : float
        L0(S → X̂) and I*(S; X̂) in bits of the released column.
    k_anonymity : int
        min over released values of the number of sensitive values seen with it.
    U1 : float
        I0(X → X̂) in bits.
    U2 : float or None
        -max |x - x̂| with the released codewords (None without numeric values).
    codewords : dict
        Per merged cluster (id of the mechanism) whose codeword was read from the file:
        ``{codeword, centroid, from}``.
    problems : list of str
        Failures (empty when the release is faithful).
    """

    rows_read: int = 0
    rows_written: int = 0
    n_public: int = 0
    n_clusters: int = 0
    partition: list = field(default_factory=list)
    L0: float = float("nan")
    I_star: float = float("nan")
    k_anonymity: int = 0
    U1: float = float("nan")
    U2: float | None = None
    codewords: dict = field(default_factory=dict)
    problems: list = field(default_factory=list)

    @property
    def ok(self) -> bool:
        return not self.problems

    def check(self) -> "AuditReport":
        """Raise :class:`AuditError` naming the first failure (and how many more); else return self."""
        if self.problems:
            more = f" (and {len(self.problems) - 1} more problem(s))" if len(self.problems) > 1 else ""
            raise AuditError(f"release audit failed, nothing written: {self.problems[0]}{more}")
        return self

    def measures(self, utility: str = "U1", objective: str = "L0") -> dict:
        """``{privacy, utility, n_public, L0, I_star, k_anonymity}`` as ``summary.json`` reports them."""
        privacy = self.I_star if objective == "I*" else self.L0
        return {"privacy": privacy, "utility": self.U2 if utility == "U2" else self.U1, "n_public": self.n_clusters,
                "L0": self.L0, "I_star": self.I_star, "k_anonymity": self.k_anonymity}

    def __repr__(self) -> str:
        u2 = "" if self.U2 is None else f", U2={self.U2:.4g}"
        status = "ok" if self.ok else f"{len(self.problems)} problem(s): {self.problems[0]}"
        return (f"AuditReport(rows={self.rows_written}, |X^|={self.n_clusters}, L0={self.L0:.4f}, I*={self.I_star:.4f}, "
                f"U1={self.U1:.4f}{u2}, {status})")


# ---------------------------------------------------------------------- streamed reading
def _aligned(a: Iterator, b: Iterator, counts: list) -> Iterator:
    """Pairs of equally long slices of two streams of record batches (``counts``: rows of each)."""
    ba = bb = None
    ia = ib = 0
    while True:
        while ba is None or ia >= ba.num_rows:
            ba = next(a, None)
            ia = 0
            if ba is None:
                break
            counts[0] += ba.num_rows
        while bb is None or ib >= bb.num_rows:
            bb = next(b, None)
            ib = 0
            if bb is None:
                break
            counts[1] += bb.num_rows
        if ba is None or bb is None:
            for rest in (a if ba is not None else b if bb is not None else ()):
                counts[0 if ba is not None else 1] += rest.num_rows
            return
        n = min(ba.num_rows - ia, bb.num_rows - ib)
        yield ba.slice(ia, n), bb.slice(ib, n)
        ia += n
        ib += n


def _comparable(arr):
    """A column as an array whose ``equals`` is bit equality: floats viewed as integers of their width
    (NaN equals NaN of the same bits, -0.0 differs from 0.0)."""
    import pyarrow as pa

    if isinstance(arr, pa.ChunkedArray):
        arr = arr.combine_chunks()
    t = arr.type
    if pa.types.is_floating(t):
        return arr.view({16: pa.int16(), 32: pa.int32(), 64: pa.int64()}[t.bit_width])
    return arr


def _quoted_csv_batches(src: Path, out: Path, want: list, opts):
    """The released CSV's batches of ``want`` read by pyarrow's parser with quoting, or None.

    Used when the input is a quote-free UTF-8 file with its header on line 1 (the case the reader
    parses with pyarrow, :func:`graphpriv.ingest.csvfile.csv_batches`) and every column is in the
    file: the release is then that file with only public fields rewritten, quoted by the writer as
    RFC 4180 says, which pyarrow reads exactly as the csv module does (the csv module, the reader's
    engine for quoted files, is about eight times slower). A malformed release raises."""
    import pyarrow as pa
    import pyarrow.csv as pacsv

    from ..ingest.csvfile import BLOCK_BYTES, _fast_path_ok, read_header

    if not opts.is_utf8 or len(opts.sep) != 1:
        return None
    header, line = read_header(src, opts)
    if line != 1 or any(c not in header for c in want) or not _fast_path_ok(src, opts, line):
        return None
    names = [f"c{i}" for i in range(len(header))]
    keep = [names[header.index(c)] for c in want]
    read = pacsv.ReadOptions(column_names=names, skip_rows=1, block_size=BLOCK_BYTES, use_threads=True)
    parse = pacsv.ParseOptions(delimiter=opts.sep, quote_char='"', double_quote=True, escape_char=False,
                               newlines_in_values=True, ignore_empty_lines=True)
    conv = pacsv.ConvertOptions(include_columns=list(dict.fromkeys(keep)), column_types={c: pa.string() for c in keep},
                                null_values=[], strings_can_be_null=False, quoted_strings_can_be_null=False)

    def batches():
        try:
            reader = pacsv.open_csv(str(out), read_options=read, parse_options=parse, convert_options=conv)
            for batch in reader:
                yield pa.RecordBatch.from_arrays([batch.column(k) for k in keep], names=list(want))
        except (pa.ArrowInvalid, pa.ArrowTypeError, pa.ArrowKeyError) as exc:
            raise InputError(f"{str(out)!r} is not a well-formed CSV file ({str(exc).splitlines()[0]})") from None

    return batches()


def _file_columns(path: Path, fmt: str, opts) -> list[str]:
    if fmt == "parquet":
        import pyarrow.parquet as pq

        return list(pq.read_schema(str(path)).names)
    from ..ingest.csvfile import read_header

    return list(read_header(path, opts)[0])


class _Ids:
    """Integer ids of the distinct values of a column seen over all batches, by value (-0.0 and 0.0
    are one number, as ingestion reads them). Vectorised: each batch's distinct values are looked up in
    a hash index of the values seen so far (only new values extend it)."""

    def __init__(self):
        import pandas as pd

        self.index = pd.Index([], dtype=object)
        self.values: list = []

    def value(self, i: int):
        """The value of id ``i`` (None for -1, a missing value)."""
        return None if i < 0 else self.values[i]

    def __call__(self, arr) -> np.ndarray:
        import pandas as pd
        import pyarrow as pa
        import pyarrow.compute as pc

        from ..ingest.pairs import _unviewed

        if isinstance(arr, pa.ChunkedArray):
            arr = arr.combine_chunks()
        arr = _unviewed(arr)
        if pa.types.is_floating(arr.type):         # NaN is missing, -0.0 is 0.0 (as ingestion reads them)
            arr = pc.add(arr, pa.scalar(0.0, arr.type))
            nan = pc.is_nan(arr)
            if pc.any(nan).as_py():
                arr = pc.if_else(nan, pa.scalar(None, arr.type), arr)
        enc = arr.dictionary_encode()
        idx = enc.indices
        if len(enc.dictionary) == 0:
            return np.full(len(idx), -1, dtype=np.int64)
        dic = np.empty(len(enc.dictionary), dtype=object)
        dic[:] = enc.dictionary.to_pylist()
        pos = np.asarray(self.index.get_indexer(dic), dtype=np.int64)
        new = pos < 0
        if new.any():
            fresh = dic[new]
            pos[new] = np.arange(len(self.values), len(self.values) + len(fresh))
            self.values.extend(fresh.tolist())
            self.index = pd.Index(_objects(self.values), dtype=object)
        out = pos[np.asarray(idx.fill_null(0).to_numpy(zero_copy_only=False), dtype=np.int64)]
        if idx.null_count:
            out[np.asarray(idx.is_null().to_numpy(zero_copy_only=False), dtype=bool)] = -1
        return out


def _objects(values: list) -> np.ndarray:
    out = np.empty(len(values), dtype=object)
    out[:] = values
    return out


def _same_value(got, want) -> bool:
    """A value read from the file is the released value (numbers by value, including the sign of 0)."""
    from .labels import released_key

    if released_key(got) == released_key(want) or got == want and type(got) is type(want):
        return True
    g, w = _number(got), _number(want)
    return g is not None and w is not None and not isinstance(got, str) and g == w


# ---------------------------------------------------------------------- the audit
def audit_release(parts: Sequence[tuple[Any, Any]] | tuple[Any, Any], release, *, sensitive: str, public: str,
                  missing: str = "error", codes: Callable | None = None, values: dict | None = None,
                  sep: str | None = None, encoding: str = "utf-8", na_values: Sequence[str] | None = None,
                  objective: str | None = None, promised_privacy: float | None = None,
                  base: float = 2.0) -> AuditReport:
    """Recompute a release's figures from the written table (see the module docstring).

    Parameters
    ----------
    parts : (input, output) or list of (input, output)
        Each input data file (CSV or Parquet) with the released file written from it. A
        :class:`graphpriv.ingest.sources.Source` of one file (with its Hive partition values) is taken
        as an input too. Parts are read in order; the rows of all parts form the table.
    release : graphpriv.Release
        The release the table was written with (``mapping.json``).
    sensitive, public : str
        The columns S and X.
    missing : {"error", "drop", "keep"}
        How the analysis treated missing values (rows it dropped are not part of the range).
    codes : callable, optional
        ``codes(array) -> int array``: the label code in ``release.labels`` of every input value of
        the public column (a :class:`graphpriv.ingest.values.ValueCodes`' ``codes`` gives them exactly
        as ingestion read them; -1 missing without a label, -2 a value outside the labels). Default:
        looked up by :meth:`Release.codes` (also finding a label from its text: ``"7"`` finds 7).
    values : dict, optional
        ``{label: number}`` for U2 (default: the labels' numbers when they are all numbers, else no U2).
    sep, encoding, na_values :
        CSV options of the input (the released CSV is read with the same ones).
    objective : str, optional
        ``"L0"``, ``"I*"`` or ``"L0|I*=0"``: which privacy ``promised_privacy`` bounds (``I*`` for
        ``"I*"``, else L0; ``"L0|I*=0"`` also promises I* = 0).
    promised_privacy : float, optional
        The mechanism's privacy; the audit fails when the file's is larger.
    base : float
        Logarithm base of the measures (2: bits).

    Returns
    -------
    AuditReport
        Call :meth:`AuditReport.check` to raise on a failure.

    Examples
    --------
    >>> import os, tempfile
    >>> import graphpriv as gp
    >>> d = tempfile.mkdtemp()
    >>> src, dst = os.path.join(d, "t.csv"), os.path.join(d, "r.csv")
    >>> _ = open(src, "w").write("s,x\\na,1\\na,2\\nb,3\\n")
    >>> jr = gp.read_joint_range(src, sensitive="s", public="x")
    >>> rel = gp.Release.from_result(gp.agglomerate(jr, "L0", 0.0))
    >>> rel.released
    ('[1, 3]',)
    >>> _ = open(dst, "w").write('s,x\\na,"[1, 3]"\\na,"[1, 3]"\\nb,"[1, 3]"\\n')
    >>> gp.audit_release((src, dst), rel, sensitive="s", public="x")
    AuditReport(rows=3, |X^|=1, L0=0.0000, I*=0.0000, U1=0.0000, U2=-1, ok)
    >>> _ = open(dst, "w").write('s,x\\na,"[1, 3]"\\na,2\\nb,"[1, 3]"\\n')     # a tampered release
    >>> gp.audit_release((src, dst), rel, sensitive="s", public="x").problems[0]
    "cluster 0 of the mechanism is released as 2 different values ('[1, 3]', '2')"
    """
    import pyarrow as pa

    from ..ingest import iter_batches
    from ..ingest.batches import _nulled
    from ..ingest.csvfile import csv_options
    from ..ingest.sources import DEFAULT_NA_VALUES, Source, resolve_source

    parts = _check_arguments(parts, release, sensitive, public, missing, codes, values, objective, promised_privacy,
                             base)
    if values is not None:
        values = _check_values(values, release)
    rep = AuditReport()
    n_labels = len(release.labels)
    lookup = _checked_codes(codes if codes is not None else _default_codes(release), n_labels)
    na = pa.array(list(DEFAULT_NA_VALUES if na_values is None else na_values), pa.string())
    s_ids, r_ids = _Ids(), _Ids()
    xr_pairs: list = []                    # distinct (x code, released id)
    sr_pairs: list = []                    # distinct (s id, released id) of rows in the range
    x_seen = np.zeros(n_labels, dtype=bool)
    bad_rows = {"missing": 0, "suppressed": 0, "unchanged": 0}
    changed_code = np.asarray(release.changed, dtype=bool)[np.asarray(release.cluster, dtype=np.int64)]
    as_written: list = []                  # distinct (x code, released id) of unchanged values left as written
    fmt_all = None
    for inp, out in parts:
        src = inp if isinstance(inp, Source) else resolve_source(inp)
        if len(src.files) != 1:
            raise InputError(f"audit_release takes one input file per part, got {src.description!r}")
        fmt = src.format
        fmt_all = fmt
        out_src = Source(description=str(out), format=fmt, files=(Path(out),), partitions=src.partitions)
        opts = csv_options(sep, encoding, src.files[0]) if fmt == "csv" else None
        try:
            cols = _file_columns(src.files[0], fmt, opts)
            out_cols = _file_columns(Path(out), fmt, opts)
        except (OSError, GraphprivError) as exc:
            rep.problems.append(f"{out}: the released file cannot be read ({exc})")
            continue
        keys = list(src.partition_keys) if hasattr(src, "partition_keys") else []
        for role, c in (("public", public), ("sensitive", sensitive)):
            if c not in cols and c not in keys:
                from ..errors import UnknownColumnError

                hint = (f"; the header reads as one column {cols[0]!r} -- is sep={opts.sep!r} the file's delimiter?"
                        if fmt == "csv" and len(cols) == 1 else "")
                shown = ", ".join(repr(x) for x in cols[:10]) + (", ..." if len(cols) > 10 else "")
                raise UnknownColumnError(f"the {role} column {c!r} is not in {str(src.files[0])!r} (its columns: "
                                         f"{shown}){hint}")
        if out_cols != cols:
            rep.problems.append(f"{out}: columns {out_cols[:10]} differ from the input's {cols[:10]}")
            continue
        if fmt == "parquet":
            _compare_parquet_schema(src.files[0], Path(out), public, rep)
        want = cols + ([sensitive] if sensitive not in cols else [])
        scan = {"sep": sep, "encoding": encoding, "raw": True}
        counts = [0, 0]
        n_diff = 0
        pi = want.index(public)
        si = want.index(sensitive)
        done = 0                                   # rows of this part compared so far
        try:
            released = _quoted_csv_batches(src.files[0], Path(out), want, opts) if fmt == "csv" else None
            if released is None:
                released = iter(iter_batches(out_src, want, **scan))
            for a, b in _aligned(iter(iter_batches(src, want, **scan)), released, counts):
                for j, c in enumerate(want):
                    if j == pi:
                        continue
                    ka, kb = _comparable(a.column(j)), _comparable(b.column(j))
                    if not ka.equals(kb):
                        ca, cb = a.column(j), b.column(j)
                        same_type = ca.type.equals(cb.type)
                        diff = np.flatnonzero(~np.asarray([x == y for x, y in zip(ka.to_pylist(), kb.to_pylist())],
                                                          dtype=bool)) if same_type else np.zeros(1, dtype=np.int64)
                        if len(diff):
                            r = int(diff[0])
                            if n_diff == 0:
                                rep.problems.append(f"{out}: column {c!r} changed (data row {done + r}, counted from 0: "
                                                    f"{ca[r].as_py()!r} became {cb[r].as_py()!r})")
                            n_diff += 1
                xin, xout = a.column(pi), b.column(pi)
                s = a.column(si)
                if fmt == "csv":
                    xin_n, s = _nulled(xin, na, pa.scalar(None, pa.string())), _nulled(s, na, pa.scalar(None, pa.string()))
                else:
                    xin_n = xin
                xc = np.asarray(lookup(xin_n), dtype=np.int64)
                rid = r_ids(xout)
                sid = s_ids(s)
                found = xc >= 0
                # a missing public value without a label stays as it was; a value outside the labels is suppressed
                miss = xc == -1
                retyped = not xin.type.equals(xout.type)         # Parquet: a column of numbers released as text
                if pa.types.is_floating(xout.type) and xout.type.bit_width < 64:
                    rep._narrow = True                          # codewords written as float32  # noqa: SLF001
                if miss.any():
                    if retyped:                                  # NaN cannot be text: missing stays missing (null)
                        same = np.asarray(xout.filter(pa.array(miss)).is_null().to_numpy(zero_copy_only=False), dtype=bool)
                    else:
                        same = _same_cells(xin, xout, miss)
                    bad_rows["missing"] += int(np.count_nonzero(~same))
                # a value released unchanged stays as written (two spellings of one kept missing value, '' and NA,
                # stay two spellings); its cells are one released value to the audit
                unch = found & ~changed_code[np.where(found, xc, 0)]
                if unch.any() and not retyped:
                    as_is = _same_cells(xin, xout, unch)
                    bad_rows["unchanged"] += int(np.count_nonzero(~as_is))
                    rows = np.flatnonzero(unch)[as_is]
                    as_written.append(np.unique((xc[rows] << 32) | (rid[rows] + 1)))
                supp = xc == -2
                if supp.any():
                    outs = xout.filter(pa.array(supp))
                    ok = np.asarray(outs.is_null().to_numpy(zero_copy_only=False), dtype=bool)
                    if fmt == "csv":
                        ok |= np.asarray(outs.fill_null("").to_numpy(zero_copy_only=False), dtype=object) == ""
                    bad_rows["suppressed"] += int(np.count_nonzero(~ok))
                x_seen[xc[found]] = True
                # distinct pairs as one int64 key each (codes and ids stay far below 2^31; id -1 is a missing value)
                xr_pairs.append(np.unique((xc[found] << 32) | (rid[found] + 1)))
                in_range = found & ((sid >= 0) | (missing == "keep"))
                sr_pairs.append(np.unique(((sid[in_range] + 1) << 32) | (rid[in_range] + 1)))
                done += a.num_rows
                if len(xr_pairs) > 64:
                    xr_pairs = [np.unique(np.concatenate(xr_pairs))]
                    sr_pairs = [np.unique(np.concatenate(sr_pairs))]
                    as_written = [np.unique(np.concatenate(as_written))] if as_written else []
        except _ArgumentError:
            raise
        except GraphprivError as exc:          # a released file the reader refuses (malformed CSV, ...)
            rep.problems.append(f"{out}: the released file cannot be read back ({exc})")
            continue
        rep.rows_read += counts[0]
        rep.rows_written += counts[1]
        if counts[0] != counts[1]:
            rep.problems.append(f"{out}: {counts[1]} rows written but the input has {counts[0]}")
        if n_diff > 1:
            rep.problems.append(f"{out}: {n_diff} blocks of non-public cells changed")
    if bad_rows["missing"]:
        rep.problems.append(f"{bad_rows['missing']} row(s) with a missing public value were changed")
    if bad_rows["suppressed"]:
        rep.problems.append(f"{bad_rows['suppressed']} row(s) whose public value was outside the release were not suppressed")
    if bad_rows["unchanged"]:
        rep.problems.append(f"{bad_rows['unchanged']} row(s) whose public value is released unchanged were rewritten")
    low = (1 << 32) - 1
    xk = np.unique(np.concatenate(xr_pairs)) if xr_pairs else np.zeros(0, dtype=np.int64)
    sk = np.unique(np.concatenate(sr_pairs)) if sr_pairs else np.zeros(0, dtype=np.int64)
    xr = np.stack([xk >> 32, (xk & low) - 1], axis=1)
    sr = np.stack([(sk >> 32) - 1, (sk & low) - 1], axis=1)    # id -1: a missing value kept as a symbol
    aw = np.unique(np.concatenate(as_written)) if as_written else np.zeros(0, dtype=np.int64)
    xr, sr = _spellings_as_one(xr, sr, np.stack([aw >> 32, (aw & low) - 1], axis=1))
    _partition(rep, release, xr, x_seen, r_ids, fmt_all)
    if rep.n_clusters:
        _privacy(rep, sr, base)
        _utility(rep, release, values, base)
    _promises(rep, objective, promised_privacy)
    return rep


def _is_path(x) -> bool:
    import os

    from ..ingest.sources import Source

    return isinstance(x, (str, os.PathLike, Source))


def _check_arguments(parts, release, sensitive, public, missing, codes, values, objective, promised_privacy,
                     base) -> list:
    """The arguments of :func:`audit_release` checked (one clear error each); ``parts`` as a list of pairs."""
    from ..errors import InputTypeError
    from .mapping import Release

    pair = "an (input, output) pair of files, or a list of such pairs"
    if isinstance(parts, (tuple, list)) and len(parts) == 2 and all(_is_path(p) for p in parts):
        parts = [tuple(parts)]
    if isinstance(parts, (str, bytes)) or _is_path(parts) or not isinstance(parts, (list, tuple)):
        raise InputTypeError(f"parts must be {pair}, got {_short(parts)}")
    parts = list(parts)
    if not parts:
        raise InputError("audit_release needs at least one (input, output) pair of files")
    for p in parts:
        if not (isinstance(p, (tuple, list)) and len(p) == 2 and all(_is_path(x) for x in p)):
            raise InputTypeError(f"parts must be {pair}; {_short(p)} is not an (input, output) pair of files")
    if not isinstance(release, Release):
        raise InputTypeError(f"release must be a graphpriv.Release (e.g. Release.from_json of mapping.json), got "
                             f"{type(release).__name__}")
    for name, c in (("sensitive", sensitive), ("public", public)):
        if not isinstance(c, str) or not c:
            raise InputTypeError(f"{name} must be a column name (a non-empty string), got {_short(c)}")
    if sensitive == public:
        raise InputError(f"sensitive and public both name column {public!r}; a release replaces the public column, so "
                         "they must be two different columns")
    if missing not in ("error", "drop", "keep"):
        raise InputError(f"missing={missing!r} must be 'error', 'drop' or 'keep'")
    if codes is not None and not callable(codes):
        raise InputTypeError(f"codes must be a function of a column's values returning their label codes, got "
                             f"{_short(codes)}")
    if values is not None and not isinstance(values, Mapping):
        raise InputTypeError(f"values must be a mapping {{public label: number}}, got {type(values).__name__}")
    if objective is not None and objective not in OBJECTIVES:
        raise InputError(f"objective={_short(objective)} is not known; use one of {', '.join(map(repr, OBJECTIVES))}")
    if promised_privacy is not None:
        ok = isinstance(promised_privacy, (int, float, np.integer, np.floating)) and not isinstance(promised_privacy, (bool, np.bool_))
        if not ok or not (math.isfinite(float(promised_privacy)) and float(promised_privacy) >= 0):
            raise InputError(f"promised_privacy must be a finite number of bits >= 0 (the mechanism's privacy), got "
                             f"{_short(promised_privacy)}")
    ok = isinstance(base, (int, float, np.integer, np.floating)) and not isinstance(base, (bool, np.bool_))
    if not ok or not (math.isfinite(float(base)) and float(base) > 0 and float(base) != 1):
        raise InputError(f"base must be a finite number > 0 other than 1 (2: bits), got {_short(base)}")
    return parts


def _short(x) -> str:
    t = repr(x)
    return t if len(t) <= 60 else t[:57] + "..."


def _check_values(values: Mapping, release) -> dict:
    """``values`` as ``{label: float}`` with a finite number for every public label of the release."""
    out = {}
    for x in release.labels:
        try:
            v = values[x]
        except (KeyError, TypeError):
            raise InputError(f"values has no number for the public label {x!r}; give one number per public label") from None
        try:
            f = float(v) if not isinstance(v, (bool, np.bool_, str, bytes)) else None
        except (TypeError, ValueError, OverflowError):
            f = None
        if f is None or not math.isfinite(f):
            raise InputError(f"values gives {_short(v)} for the public label {x!r}; the values must be finite numbers")
        out[x] = f
    return out


class _ArgumentError(InputError):
    """An argument of :func:`audit_release` found wrong while reading (not a problem of the release)."""


def _checked_codes(lookup: Callable, n_labels: int) -> Callable:
    """``lookup`` with its answers checked: one code per row, each a label code, -1 or -2."""

    def codes(arr) -> np.ndarray:
        try:
            c = np.asarray(lookup(arr))
        except GraphprivError:
            raise
        except Exception as exc:                                 # a user's function failing
            raise _ArgumentError(f"codes failed on a batch of the public column ({type(exc).__name__}: {exc})") from None
        if c.ndim != 1 or len(c) != len(arr):
            raise _ArgumentError(f"codes returned {c.size} code(s) for a batch of {len(arr)} rows; it must give one label code "
                             "per row")
        if c.dtype.kind not in "iu" and not (c.dtype.kind == "f" and np.all(c == np.round(c))):
            raise _ArgumentError(f"codes returned {c.dtype} values; it must give integer label codes")
        c = c.astype(np.int64)
        if len(c) and (c.min() < -2 or c.max() >= n_labels):
            bad = int(c[(c < -2) | (c >= n_labels)][0])
            raise _ArgumentError(f"codes returned {bad}, which is no label code (0 to {n_labels - 1}, -1 for missing, -2 for "
                             "a value outside the labels)")
        return c

    return codes


def _same_cells(xin, xout, rows: np.ndarray) -> np.ndarray:
    """Per row of ``rows`` (a bool mask): whether the released cell is the input cell as written (text
    for text, bit for bit for floats, null for null)."""
    import pyarrow as pa

    mask = pa.array(rows)
    a = np.asarray(_comparable(xin).filter(mask).to_pylist(), dtype=object)
    b = np.asarray(_comparable(xout).filter(mask).to_pylist(), dtype=object)
    return np.asarray(a == b, dtype=bool) if len(a) else np.zeros(0, dtype=bool)


def _spellings_as_one(xr: np.ndarray, sr: np.ndarray, as_written: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """The (x code, released id) and (s id, released id) pairs with the spellings of one value released
    unchanged as one released id: ``''`` and ``NA`` of a kept missing value are cells left as written,
    one symbol of the analysis. Only ids that no other public value is released as are joined, so two
    clusters under one released value are still seen."""
    if len(as_written) == 0 or len(xr) == 0:
        return xr, sr
    codes, n_ids = np.unique(as_written[:, 0], return_counts=True)
    multi = codes[n_ids > 1]
    if len(multi) == 0:
        return xr, sr
    rid_owner: dict = {}
    for x, r in xr.tolist():
        rid_owner.setdefault(r, set()).add(x)
    remap: dict = {}
    for x in multi.tolist():
        ids = sorted(as_written[as_written[:, 0] == x, 1].tolist())
        if all(rid_owner.get(r, set()) <= {x} for r in ids):
            remap.update({r: ids[0] for r in ids[1:]})
    if not remap:
        return xr, sr
    src = np.array(list(remap), dtype=np.int64)
    dst = np.array(list(remap.values()), dtype=np.int64)

    def mapped(col: np.ndarray) -> np.ndarray:
        out = col.copy()
        order = np.argsort(src)
        i = np.searchsorted(src[order], col)
        hit = (i < len(src)) & (src[order][np.minimum(i, len(src) - 1)] == col)
        out[hit] = dst[order][i[hit]]
        return out

    xr = np.unique(np.stack([xr[:, 0], mapped(xr[:, 1])], axis=1), axis=0)
    sr = np.unique(np.stack([sr[:, 0], mapped(sr[:, 1])], axis=1), axis=0) if len(sr) else sr
    return xr, sr


def _default_codes(release) -> Callable:
    """Codes of input values by :meth:`Release.codes`, a text also finding the label it is the text of."""
    import pandas as pd

    from .labels import number_text

    texts = {}
    for i, x in enumerate(release.labels):
        if isinstance(x, (int, float, np.integer, np.floating)) and not isinstance(x, (bool, np.bool_)):
            texts.setdefault(number_text(x), i)
    idx = pd.Index(list(texts), dtype=object)
    pos = np.array(list(texts.values()), dtype=np.int64)

    def lookup(arr) -> np.ndarray:
        vals = arr.to_pylist()
        c = release.codes(vals, unknown="ignore")
        null = np.array([v is None for v in vals], dtype=bool)
        c = np.where(null & (c < 0), -1, np.where(c < 0, -2, c))
        if len(pos) and (c == -2).any():
            j = idx.get_indexer(np.asarray(vals, dtype=object))
            c = np.where((c == -2) & (j >= 0), pos[np.maximum(j, 0)], c)
        return c.astype(np.int64)

    return lookup


def _compare_parquet_schema(src: Path, out: Path, public: str, rep: AuditReport) -> None:
    import pyarrow.parquet as pq

    a, b = pq.read_schema(str(src)), pq.read_schema(str(out))
    for f in a:
        if f.name != public and not f.equals(b.field(f.name)):
            rep.problems.append(f"{out}: column {f.name!r} has type {b.field(f.name).type}, the input's {f.type}")


def _partition(rep: AuditReport, release, xr: np.ndarray, x_seen: np.ndarray, r_ids: _Ids, fmt) -> None:
    """The clusters found through the released values, checked against the mechanism's."""
    from .writer import released_text

    if len(xr) == 0:
        return
    xc, rid = xr[:, 0], xr[:, 1]
    labels = release.labels
    # one released value per public value
    uniq_x, n_per_x = np.unique(xc, return_counts=True)
    if (n_per_x > 1).any():
        x = int(uniq_x[np.argmax(n_per_x > 1)])
        outs = sorted(repr(r_ids.value(r)) for r in rid[xc == x].tolist())
        rep.problems.append(f"public value {labels[x]!r} is released as {len(outs)} different values ({', '.join(outs[:3])})")
    mech = release.cluster[xc]
    pairs = np.unique((mech << 32) | (rid + 1))             # distinct (cluster, released value)
    pk, pr = pairs >> 32, (pairs & ((1 << 32) - 1)) - 1
    # one cluster of the mechanism per released value
    r_u, r_n = np.unique(pr, return_counts=True)
    if (r_n > 1).any():
        r = int(r_u[np.argmax(r_n > 1)])
        members = [labels[int(x)] for x in xc[rid == r][:4].tolist()]
        rep.problems.append(f"two clusters under one label: the released value {r_ids.value(r)!r} stands for "
                            f"{int(r_n.max())} clusters of the mechanism (e.g. values {members!r}); a reader cannot "
                            "tell them apart")
    # codewords are numbers: a numeric reader must see as many values as a text reader ("4.0" is "4")
    if getattr(release, "mode", None) == "codeword":
        from .labels import reader_key

        seen_num: dict = {}
        for r in r_u.tolist():
            v = r_ids.value(r)
            other = seen_num.setdefault(reader_key(v), v)
            if other is not v and other != v:
                rep.problems.append(f"the released values {_show(other)} and {_show(v)} are one number to a numeric "
                                    "reader of the table; two clusters would read as one")
                break
    # one released value per cluster
    k_u, k_n = np.unique(pk, return_counts=True)
    if (k_n > 1).any():
        k = int(k_u[np.argmax(k_n > 1)])
        rs = pr[pk == k]
        rep.problems.append(f"cluster {k} of the mechanism is released as {len(rs)} different values "
                            f"({', '.join(repr(r_ids.value(r)) for r in rs[:3].tolist())})")
    # the released values are the mapping's
    changed = release.changed
    first_x = {}
    for x, r in zip(xc.tolist(), rid.tolist()):
        first_x.setdefault(r, x)
    for k, r in zip(pk.tolist(), pr.tolist()):               # one check per (cluster, released value)
        if not changed[k]:
            continue
        got = r_ids.value(r)
        want = release.released[k]
        if isinstance(got, str) and fmt == "csv":
            ok = got == released_text(want, release.decimals)
        else:
            ok = _same_value(got, want) or (getattr(rep, "_narrow", False) and isinstance(got, float)
                                            and _number(want) is not None and np.float32(_number(want)) == np.float32(got))
        if not ok:
            rep.problems.append(f"value {labels[first_x[r]]!r} of cluster {k} is released as {_show(got)} but "
                                f"mapping.json says {_show(want)}")
            break
    # the clusters found: public codes grouped by released value, ordered by their smallest code
    order = np.lexsort((xc, rid))
    xs, rs = xc[order], rid[order]
    starts = np.flatnonzero(np.r_[True, rs[1:] != rs[:-1]])
    bounds = np.r_[starts, len(rs)]
    firsts = xs[starts]
    by_first = np.argsort(firsts, kind="stable")
    xs_l = xs.tolist()
    rep.partition = [xs_l[bounds[g]:bounds[g + 1]] for g in by_first.tolist()]
    rep.n_clusters = len(starts)
    rep.n_public = int(np.count_nonzero(x_seen))
    rep._x_codes = xs                                           # noqa: SLF001 - used by _utility
    rep._x_group = np.repeat(np.arange(len(starts)), np.diff(bounds))
    rep._group_r = rs[starts]
    rep._r_values = r_ids


def _show(v) -> str:
    import json

    try:
        return json.dumps(v, ensure_ascii=False)
    except (TypeError, ValueError):
        return repr(v)


def _privacy(rep: AuditReport, sr: np.ndarray, base: float) -> None:
    """L0, I* and k-anonymity of the (S, X̂) pairs of the rows in the range."""
    from ..measures.nonstochastic import L0, k_anonymity, maximin_information
    from ..ranges import JointRange

    if len(sr) == 0:
        return
    jr = JointRange.from_pairs(sr[:, 0].tolist(), sr[:, 1].tolist())
    rep.L0 = float(L0(jr, base=base)) + 0.0
    rep.I_star = float(maximin_information(jr, base=base)) + 0.0
    rep.k_anonymity = int(k_anonymity(jr))


def _utility(rep: AuditReport, release, values, base: float) -> None:
    """U1 of the partition found; U2 with the codewords as released (centroids where none is released)."""
    from .labels import _is_finite_number

    n = rep.n_public
    sizes = np.bincount(rep._x_group)
    rep.U1 = (math.log(n) - math.log(int(sizes.max()))) / math.log(base) + 0.0 if n else float("nan")
    labels = release.labels
    if values is None:
        if not all(_is_finite_number(x) for x in labels):
            return
        values = {x: float(x) for x in labels}
    v = np.array([float(values[labels[x]]) for x in rep._x_codes.tolist()], dtype=float)
    g = rep._x_group
    n_g = len(sizes)
    centroid = np.bincount(g, weights=v, minlength=n_g) / sizes
    cw = centroid.copy()
    source = np.where(sizes == 1, "value", "centroid (not released)").astype(object)
    firsts = rep._x_codes[np.r_[0, np.cumsum(sizes)[:-1]]]
    k_of = release.cluster[firsts]
    if release.mode == "codeword":
        for j in np.flatnonzero(release.changed[k_of]).tolist():
            got = rep._r_values.value(int(rep._group_r[j]))
            num = _number(got)
            if num is None:
                rep.problems.append(f"cluster {int(k_of[j])} is released as {_show(got)}, not a number (codeword)")
                continue
            cw[j], source[j] = num, "file"
    for j in np.flatnonzero(source == "file").tolist():
        rep.codewords[int(k_of[j])] = {"codeword": float(cw[j]), "centroid": float(centroid[j]), "from": "file"}
    rep.U2 = 0.0 - float(np.abs(v - cw[g]).max()) if len(v) else 0.0


def _number(x) -> float | None:
    if isinstance(x, (bool, np.bool_)):
        return None
    if isinstance(x, (int, float, np.integer, np.floating)):
        return float(x)
    if isinstance(x, str):
        try:
            return float(x)
        except ValueError:
            return None
    try:                                         # decimal.Decimal
        return float(x)
    except (TypeError, ValueError):
        return None


def _promises(rep: AuditReport, objective, promised_privacy) -> None:
    """Privacy no worse than the mechanism promised."""
    if promised_privacy is not None and rep.n_clusters:
        audited = rep.I_star if objective == "I*" else rep.L0
        name = "I*" if objective == "I*" else "L0"
        if audited > promised_privacy + AUDIT_TOL:
            rep.problems.append(f"the released table has {name} = {audited:.6g} bits, worse than the mechanism's "
                                f"{promised_privacy:.6g}")
        if objective == "L0|I*=0" and rep.I_star > AUDIT_TOL:
            rep.problems.append(f"the released table has I* = {rep.I_star:.6g} bits; Section V-C promises I* = 0")
