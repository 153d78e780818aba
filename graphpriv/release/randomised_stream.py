"""Writing and auditing a randomised release over files, streamed like the merge releases.

:func:`write_randomised_parts` copies every input file with the writers of :mod:`graphpriv.release.writer`
(CSV byte for byte, Parquet with its schema): the public field of every row is rewritten with the value
drawn for it by :meth:`graphpriv.RandomisedRelease.draw` from one generator
(``numpy.random.default_rng(seed)``) over all parts in file order, one draw per row; every other field is
copied. Memory is one block or record batch at a time.

:func:`audit_randomised` reads every written part back beside its input (aligned record by record) and
recomputes from them: the row count; that every cell of every other column (S included) is unchanged;
that every released y lies in the support of K(.|x) (Q(.|s, x))
of its row; the input's empirical distribution p(s, x) and the release's p(s, y); the kernel's exact
LDP and log-lift on the input's distribution, L^LDP(S -> Y) and L^LL(S -> Y) (Ding, Liu & Farokhi, *A
Linear Reduction Method for Local Differential Privacy and Log-lift*, eqs. (1)-(3)), from the kernel of
``mapping.json``; and the empirical measures of the released column
(:func:`graphpriv.stochastic_measures` of its counts).
"""

from __future__ import annotations

import math
from pathlib import Path
from typing import Any, Callable, Sequence

import numpy as np

from ..errors import GraphprivError, InputError
from . import writer as rw

__all__ = ["write_randomised_parts", "audit_randomised", "label_lookup", "RandomisedAudit"]


def label_lookup(labels: Sequence) -> Callable:
    """``codes(arrow array) -> int array``: the code of every value in ``labels`` (a text finds the
    number it is the text of: ``"7"`` finds 7; -1 missing, -2 a value outside the labels). Each batch's
    distinct values are looked up once (dictionary encoding), so a batch costs O(rows) in C."""
    import pyarrow as pa

    from .audit import _default_codes
    from .mapping import Release

    from .._validation import MISSING

    base = _default_codes(Release.from_quantization(list(labels), [[x] for x in labels], "label"))
    missing = next((i for i, v in enumerate(labels) if v is MISSING), -1)     # --missing keep: a label of its own

    def lookup(arr) -> np.ndarray:
        if isinstance(arr, pa.ChunkedArray):
            arr = arr.combine_chunks()
        enc = arr.dictionary_encode()
        idx = enc.indices
        if len(enc.dictionary) == 0:
            return np.full(len(idx), missing, dtype=np.int64)
        dic = np.asarray(base(enc.dictionary), dtype=np.int64)
        out = dic[np.asarray(idx.fill_null(0).to_numpy(zero_copy_only=False), dtype=np.int64)]
        if idx.null_count:
            out[np.asarray(idx.is_null().to_numpy(zero_copy_only=False), dtype=bool)] = missing
        return out

    return lookup


class _Stream:
    """The next n values of a stream of arrays, whatever lengths they come in."""

    def __init__(self, chunks):
        self._it = iter(chunks)
        self._buf = np.empty(0, dtype=np.int64)

    def take(self, n: int) -> np.ndarray:
        parts, have = [self._buf], len(self._buf)
        while have < n:
            nxt = next(self._it, None)
            if nxt is None:
                raise InputError("the sensitive column has fewer rows than the public column")
            parts.append(np.asarray(nxt, dtype=np.int64))
            have += len(parts[-1])
        buf = np.concatenate(parts) if len(parts) > 1 else parts[0]
        out, self._buf = buf[:n], buf[n:]
        return out


def _parquet_per_code(field_type, labels: Sequence):
    """The labels as a pyarrow array of the column's type when they fit it, else text."""
    import pyarrow as pa

    from .._validation import MISSING
    from .labels import number_text

    vals = [None if v is MISSING else v for v in labels]
    non_null = [v for v in vals if v is not None]
    if pa.types.is_integer(field_type) and all(isinstance(v, (int, np.integer)) and not isinstance(v, bool) for v in non_null):
        return pa.array(vals, type=field_type), field_type
    if pa.types.is_floating(field_type) and all(isinstance(v, (int, float, np.integer, np.floating)) for v in non_null):
        return pa.array([None if v is None else float(v) for v in vals], type=pa.float64()).cast(field_type), field_type
    text = pa.large_string() if pa.types.is_large_string(field_type) else pa.string()
    return pa.array([None if v is None else v if isinstance(v, str) else number_text(v) if isinstance(v, (int, float))
                     else str(v) for v in vals], type=text), text


def write_randomised_parts(parts: Sequence[tuple[Path, str]], fmt: str, public: str, sensitive: str, release,
                           value_codes, out_dir: Path, *, sep: str | None = None, encoding: str = "utf-8",
                           na_values: Sequence[str] | None = None) -> list[dict]:
    """Write the randomised release of every input file of ``parts`` to ``out_dir / output`` (streamed).

    ``value_codes(array) -> int array`` gives the label codes of a batch of the public column (as
    ingestion assigned them); one generator draws for all parts in order. Returns per part ``{input,
    output, read, written, replaced, suppressed}``.
    """
    import pyarrow.parquet as pq

    from ..ingest import iter_batches
    from ..ingest.csvfile import csv_options

    rng = release.generator()
    scan = {"sep": sep, "encoding": encoding, "na_values": na_values}
    s_codes = label_lookup(release.sensitive_labels) if release.is_conditional else None
    n = len(release.labels)
    replaced = np.ones(n, dtype=bool)
    stats = []
    for f, name in parts:
        dst = out_dir / name
        dst.parent.mkdir(parents=True, exist_ok=True)
        s_stream = None
        if s_codes is not None:
            s_stream = _Stream(s_codes(b.column(0)) for b in iter_batches(f, [sensitive], **scan))

        def draw(col, s_stream=s_stream):
            x = np.asarray(value_codes(col), dtype=np.int64)
            u = rng.random(len(x))
            s = None if s_stream is None else s_stream.take(len(x))
            return release.draw(x, u, s)

        if fmt == "csv":
            from .._validation import MISSING

            # a draw of the missing symbol (--missing keep) is written as the token the reader reads as missing
            na_text = "" if na_values is None or "" in na_values else str(na_values[0])
            texts = [na_text if v is MISSING else rw.released_text(v) for v in release.labels]
            codes = (draw(b.column(0)) for b in iter_batches(f, [public], **scan))
            st = rw.write_csv_release(f, dst, public, codes, replaced, texts, sep=csv_options(sep, encoding, f).sep,
                                      encoding=encoding)
        else:
            per_code, out_type = _parquet_per_code(pq.read_schema(str(f)).field(public).type, release.labels)
            st = rw.write_parquet_release(f, dst, public, draw, per_code, out_type, replaced=replaced)
        if st["read"] != st["written"]:
            raise InputError(f"{str(f)!r}: {st['read']} rows read but {st['written']} written; the file changed while "
                             "reading or is malformed")
        stats.append({"input": str(f), "output": name, **st})
    return stats


#: Row id of a missing sensitive value kept as a symbol (``missing="keep"``), before the ids are final.
_MISSING_ID = 1 << 40


def _pair_counts(a: np.ndarray, b: np.ndarray, n: int):
    """(distinct keys a * n + b, their counts)."""
    keys, cnt = np.unique(a * n + b, return_counts=True)
    return keys, cnt


def _merge_counts(parts):
    keys = np.concatenate([k for k, _ in parts])
    cnt = np.concatenate([c for _, c in parts])
    u, inv = np.unique(keys, return_inverse=True)
    return u, np.bincount(inv, weights=cnt, minlength=len(u))


class RandomisedAudit(dict):
    """What :func:`audit_randomised` recomputed (a dict: ``rows``, ``outside_support``, ``ldp``,
    ``log_lift``, ``empirical``, ``problems``)."""

    @property
    def ok(self) -> bool:
        return not self["problems"]


def audit_randomised(parts: Sequence[tuple[Any, Any]], release, *, sensitive: str, public: str, missing: str = "error",
                     codes: Callable | None = None, sep: str | None = None, encoding: str = "utf-8",
                     na_values: Sequence[str] | None = None, base: float = 2.0, eps: float = 1.0,
                     promised: dict | None = None) -> RandomisedAudit:
    """Recompute a randomised release's guarantee from the written files (see the module docstring).

    Parameters
    ----------
    parts : list of (input file, released file)
    release : RandomisedRelease
        As read from ``mapping.json``.
    codes : callable, optional
        Label codes of a batch of the input's public column (default: looked up by value).
    base : float
        Log base of the figures.
    promised : dict, optional
        ``{"ldp": ..., "log_lift": ...}`` of the mechanism; the audit fails when the file's is larger.

    Returns
    -------
    RandomisedAudit
    """
    import pyarrow as pa
    import scipy.sparse as sp

    from ..ingest import iter_batches
    from ..ingest.batches import _nulled
    from ..ingest.csvfile import csv_options
    from ..ingest.sources import DEFAULT_NA_VALUES, Source, resolve_source
    from ..measures.table_measures import stochastic_measures
    from .audit import _aligned, _comparable, _file_columns, _Ids, _quoted_csv_batches

    labels = release.labels
    n = len(labels)
    x_lookup = codes if codes is not None else label_lookup(labels)
    y_lookup = label_lookup(labels)
    s_sens = label_lookup(release.sensitive_labels) if release.is_conditional else None
    na = pa.array(list(DEFAULT_NA_VALUES if na_values is None else na_values), pa.string())
    s_ids = _Ids()
    sx, sy = [], []
    problems: list[str] = []
    rows_in = rows_out = outside = 0
    first_bad = None
    for inp, out in parts:
        src = inp if isinstance(inp, Source) else resolve_source(inp)
        fmt = src.format
        out_src = Source(description=str(out), format=fmt, files=(Path(out),), partitions=src.partitions)
        opts = csv_options(sep, encoding, src.files[0]) if fmt == "csv" else None
        scan = {"sep": sep, "encoding": encoding, "raw": True}
        counts = [0, 0]
        done = 0
        n_diff = 0
        try:
            cols = _file_columns(src.files[0], fmt, opts)
            out_cols = _file_columns(Path(out), fmt, opts)
        except (OSError, GraphprivError) as exc:
            problems.append(f"{out}: the released file cannot be read ({exc})")
            continue
        if out_cols != cols:
            problems.append(f"{out}: columns {out_cols[:10]} differ from the input's {cols[:10]}")
            continue
        # S and X first, then every other column of the file (compared cell by cell: only X may change)
        want = [sensitive, public] + [c for c in cols if c not in (sensitive, public)]
        same = [j for j, c in enumerate(want) if c != public and c in cols]
        try:
            released = _quoted_csv_batches(src.files[0], Path(out), want, opts) if fmt == "csv" else None
            if released is None:
                released = iter(iter_batches(out_src, want, **scan))
            for a, b in _aligned(iter(iter_batches(src, want, **scan)), released, counts):
                for j in same:
                    if not _comparable(a.column(j)).equals(_comparable(b.column(j))):
                        if n_diff == 0:
                            va, vb = a.column(j).to_pylist(), b.column(j).to_pylist()
                            r = next((i for i, (p, q) in enumerate(zip(va, vb)) if p != q), 0)
                            problems.append(f"{out}: column {want[j]!r} changed (data row {done + r}, counted from 0: "
                                            f"{va[r]!r} became {vb[r]!r})")
                        n_diff += 1
                s_in, x_in, y_out = a.column(0), a.column(1), b.column(1)
                if fmt == "csv":
                    null = pa.scalar(None, pa.string())
                    s_in, x_in, y_out = _nulled(s_in, na, null), _nulled(x_in, na, null), _nulled(y_out, na, null)
                x = np.asarray(x_lookup(x_in), dtype=np.int64)
                y = np.asarray(y_lookup(y_out), dtype=np.int64)
                sc = None if s_sens is None else np.asarray(s_sens(s_in), dtype=np.int64)
                sid = s_ids(s_in) if sc is None else sc              # conditional kernels: the mechanism's codes
                if missing == "keep" and (sid < 0).any():           # a missing sensitive value is a symbol
                    sid = np.where(sid < 0, _MISSING_ID, sid)
                used = x >= 0
                bad = used & ((y < 0) | ~release.support(x, np.maximum(y, 0), sc))
                if bad.any():
                    outside += int(bad.sum())
                    if first_bad is None:
                        r = int(np.flatnonzero(bad)[0])
                        first_bad = (rows_in + done + r, labels[x[r]], y_out[r].as_py())
                keep = used & (sid >= 0) & (y >= 0)
                sx.append(_pair_counts(sid[keep], x[keep], n))
                sy.append(_pair_counts(sid[keep], y[keep], n))
                if len(sx) > 64:                                     # keep the distinct pairs, not the rows
                    sx, sy = [_merge_counts(sx)], [_merge_counts(sy)]
                done += a.num_rows
        except GraphprivError as exc:
            problems.append(f"{out}: the released file cannot be read back ({exc})")
            continue
        rows_in += counts[0]
        rows_out += counts[1]
        if counts[0] != counts[1]:
            problems.append(f"{out}: {counts[1]} rows written but the input has {counts[0]}")
    if outside:
        r, x, y = first_bad
        problems.append(f"{outside} released value(s) outside the support of their row's kernel (data row {r}: "
                        f"{x!r} released as {y!r})")
    s_list = (list(s_ids.values) if s_sens is None else list(release.sensitive_labels)) + (
        [None] if missing == "keep" else [])
    n_s = max(len(s_list), 1)

    def matrix(pairs):
        keys, cnt = _merge_counts(pairs) if pairs else (np.zeros(0, dtype=np.int64), np.zeros(0))
        s_code = keys // n
        s_code = np.where(s_code == _MISSING_ID, len(s_list) - 1, s_code) if missing == "keep" else s_code
        return sp.coo_array((cnt.astype(float), (s_code, keys % n)), shape=(n_s, n)).tocsr()

    Cx, Cy = matrix(sx), matrix(sy)
    report = RandomisedAudit(rows=rows_out, rows_read=rows_in, outside_support=outside, problems=problems)
    if Cx.sum() > 0:
        lnb = math.log(base)
        P = Cx.toarray() / Cx.sum()
        if release.is_conditional:    # rows are the mechanism's sensitive codes (a kept missing value last)
            P = P[:len(release.sensitive_labels)]
        Pys = release.conditional(P)
        ps = P.sum(axis=1)
        live = ps > 0
        Pys = Pys[live]
        py = ps[live] @ Pys
        ky = py > 0
        with np.errstate(divide="ignore", invalid="ignore"):
            L = np.log(Pys[:, ky])
            ldp = float(np.max(L.max(axis=0) - L.min(axis=0))) / lnb
            ll = float(np.max(np.abs(L - np.log(py[ky])[None, :]))) / lnb
        report["ldp"] = max(ldp, 0.0) + 0.0
        report["log_lift"] = max(ll, 0.0) + 0.0
        report["empirical"] = stochastic_measures(Cy, eps, base=base).to_dict()
        report["empirical_input"] = stochastic_measures(Cx, eps, base=base).to_dict()
        tol = 1e-7
        for key in ("ldp", "log_lift"):
            if promised and promised.get(key) is not None and report[key] > promised[key] + tol:
                problems.append(f"the kernel of mapping.json gives {key} = {report[key]:.6g} on the table, worse than the "
                                f"mechanism's {promised[key]:.6g}")
    return report
