"""A release written over a file source, streamed: one sanitised part per input file.

``graphpriv sanitize`` reads the joint range of a CSV or Parquet file, a folder or a glob without
holding the rows (:func:`graphpriv.read_joint_range`), and writes the release the same way: every input
file is copied once by :mod:`graphpriv.release.writer` (CSV byte for byte, Parquet with its schema)
while the row codes of its public column are computed batch by batch --
:func:`graphpriv.ingest.iter_batches` of that one file with the options of the analysis, looked up by
:class:`graphpriv.ingest.values.ValueCodes` in the values ingestion turned into labels. Memory is one
block or record batch of each, never a column of all rows.

Output names (:func:`part_outputs`): a single file gives ``sanitized.csv`` (or ``.parquet``); a folder
or a glob gives ``sanitized/<path of the file relative to the folder, or to the glob's fixed leading
folders>``, one part per file the analysis read, so the parts concatenated in the analysis' (sorted)
file order are the release of the whole table.
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any, Sequence

from . import writer as rw
from ..errors import InputError
from ..ingest.sources import Source, resolve_source

__all__ = ["check_writable", "part_outputs", "scan_decimals", "write_parts"]

_COMPRESSED = (".gz", ".bz2", ".xz", ".zst", ".zip")


def check_writable(data: Any, public: str | None = None, *, sep: str | None = None, encoding: str = "utf-8") -> Source:
    """The resolved file source of ``data``, refusing what cannot be rewritten faithfully: compressed
    CSV (the byte-faithful writer copies the file's own bytes, so it cannot copy compressed ones), CSV in
    an encoding whose bytes the writer cannot split as the reader decodes them
    (:func:`graphpriv.release.writer.writer_encoding_problem`: UTF-16/32, UTF-7, ...), and a
    ``public`` column held in the folder names (a Hive partition key) rather than in the files."""
    source = resolve_source(data)
    if public is not None and public in source.partition_keys and public not in _file_columns(source, sep, encoding):
        raise InputError(f"the public column {public!r} is a partition key of {source.description!r} (folders named "
                         f"{public}=...), not a column of its files; sanitize rewrites the public column inside the files "
                         f"-- write the dataset without partitioning on {public!r} first")
    if source.format == "csv":
        from ..ingest.csvfile import csv_options

        for f in source.files:
            if f.name.lower().endswith(_COMPRESSED):
                raise InputError(f"{str(f)!r} is compressed; sanitize copies the CSV byte for byte and cannot rewrite "
                                 f"compressed files -- decompress it first (e.g. gunzip -k {f.name})")
            opts = csv_options(sep, encoding, f)
            problem = rw.writer_encoding_problem(opts.encoding, opts.sep)
            if problem is not None:
                raise InputError(f"--encoding {opts.encoding}: sanitize copies the CSV byte for byte and cannot split "
                                 f"{str(f)!r}: {problem} -- re-encode it as UTF-8 first (e.g. iconv -f {opts.encoding} -t "
                                 "utf-8) and pass --encoding utf-8 (analyze reads it as it is)")
    return source


def _file_columns(source: Source, sep: str | None, encoding: str) -> list[str]:
    """The column names of the first file of ``source``."""
    if source.format == "parquet":
        import pyarrow.parquet as pq

        return list(pq.read_schema(str(source.files[0])).names)
    from ..ingest.csvfile import csv_options, read_header

    return list(read_header(source.files[0], csv_options(sep, encoding, source.files[0]))[0])


def part_outputs(data: Any, source: Source, single_name: str) -> list[tuple[Path, str]]:
    """``[(input file, output path relative to the output folder)]``: ``single_name`` for one file, else
    ``sanitized/<relative path>`` (see the module docstring)."""
    if source.base is None:                              # one file
        return [(source.files[0], single_name)]
    base = source.base                                   # the folder, or the glob's leading folders
    out = []
    for f in source.files:
        try:
            rel = Path(os.path.relpath(f, base))
        except ValueError:                               # another drive (Windows)
            rel = Path(f.name)
        if rel.parts and rel.parts[0] == "..":           # a glob reaching above its fixed folders
            rel = Path(f.name)
        out.append((f, (Path("sanitized") / rel).as_posix()))
    names = [o for _, o in out]
    if len(set(names)) != len(names):
        raise InputError(f"two input files of {os.fspath(data)!r} would be written to the same part; give a folder or a "
                         "pattern whose files have distinct paths below one folder")
    return out


def scan_decimals(source: Any, public: str, fmt: str, *, sep: str | None = None, encoding: str = "utf-8") -> int | None:
    """Precision of the public column over all its rows (:func:`graphpriv.release.labels.column_decimals`),
    streamed: the distinct values of each batch (CSV: the raw texts as written), never the column."""
    import pyarrow as pa
    import pyarrow.compute as pc

    from ..ingest import iter_batches
    from .labels import column_decimals

    best = None
    for b in iter_batches(source, [public], sep=sep, encoding=encoding, raw=fmt == "csv"):
        a = b.column(0)
        if pa.types.is_dictionary(a.type):
            a = a.dictionary_decode()
        u = pc.unique(a).drop_null()
        if len(u) == 0:
            continue
        d = column_decimals(u.to_numpy(zero_copy_only=False))
        if d is not None:
            best = d if best is None else max(best, d)
    return best


def parquet_per_code(field_type, release, decimals):
    """The released value of every public label as a pyarrow array, and its type: the column's own
    type ``field_type`` when the released values fit it (ids: int64; codewords of an integer, float or
    decimal column), else text."""
    import decimal

    import pyarrow as pa

    from .._validation import MISSING
    from .labels import number_text

    t = field_type
    rel = [release.released[k] for k in release.cluster.tolist()]
    changed = release.changed[release.cluster]
    vals = [None if v is MISSING else v for v in rel]
    if release.mode == "id":
        return pa.array(vals, type=pa.int64()), pa.int64()
    if release.mode == "codeword":
        new = [v for v, c in zip(vals, changed.tolist()) if c]
        if pa.types.is_integer(t) and all(isinstance(v, int) for v in new):
            return pa.array(vals, type=t), t
        if pa.types.is_floating(t):
            return pa.array(vals, type=pa.float64()).cast(t), t
        if pa.types.is_decimal(t):
            q = decimal.Decimal(1).scaleb(-t.scale)
            dec = [None if v is None else (v if isinstance(v, decimal.Decimal) else decimal.Decimal(repr(float(v)))).quantize(q)
                   for v in vals]
            return pa.array(dec, type=t), t
        return pa.array([None if v is None else float(v) for v in vals], type=pa.float64()), pa.float64()
    text_type = pa.large_string() if pa.types.is_large_string(t) else pa.string()
    texts = [None if v is None else v if isinstance(v, str) else number_text(v) if isinstance(v, (int, float)) else str(v)
             for v in vals]
    return pa.array(texts, type=text_type), text_type


def _count_csv(f: Path, public: str, **scan) -> int:
    from ..ingest import iter_batches

    return sum(b.num_rows for b in iter_batches(f, [public], **scan))


def write_parts(parts: Sequence[tuple[Path, str]], fmt: str, public: str, release, value_codes, decimals, out_dir: Path,
                *, sep: str | None = None, encoding: str = "utf-8", na_values: Sequence[str] | None = None,
                n_dropped: int = 0) -> list[dict]:
    """Write the release of every input file of ``parts`` to ``out_dir / output`` (streamed).

    ``value_codes`` (:class:`graphpriv.ingest.values.ValueCodes`) gives each batch of the public column
    its codes in ``release.labels``; a value outside the labels (it occurred only in rows the analysis
    dropped, so ``n_dropped > 0``) is suppressed. A release that changes nothing, with nothing that
    could be suppressed, copies the files. Returns per part ``{input, output, read, written, replaced,
    suppressed}``.

    Raises
    ------
    InputError
        A part whose records the writer and the reader count differently (the file changed while
        reading, or is malformed), or whose written rows differ from those read.
    """
    import pyarrow.parquet as pq

    from ..ingest.csvfile import csv_options
    from ..ingest.values import ValueCodes

    if (ValueCodes.MISSING, ValueCodes.UNKNOWN) != (rw.CODE_MISSING, rw.CODE_SUPPRESSED):  # pragma: no cover
        raise AssertionError("the row codes of ValueCodes and release_writer disagree")
    cl = release.cluster
    replaced = release.changed[cl]                                   # per code
    copy = release.is_noop and n_dropped == 0
    scan = {"sep": sep, "encoding": encoding, "na_values": na_values}
    texts = per_code = None
    if not copy and fmt == "csv":
        texts = [rw.released_text(v, decimals) if c else "" for v, c in zip(release.released, release.changed.tolist())]
    stats = []
    for f, name in parts:
        dst = out_dir / name
        dst.parent.mkdir(parents=True, exist_ok=True)
        if copy:
            rw.copy_file(f, dst)
            n = pq.ParquetFile(str(f)).metadata.num_rows if fmt == "parquet" else _count_csv(f, public, **scan)
            st = {"read": n, "written": n, "replaced": 0, "suppressed": 0}
        elif fmt == "csv":
            from ..ingest import iter_batches

            codes = (value_codes.codes(b.column(0)) for b in iter_batches(f, [public], **scan))
            st = rw.write_csv_release(f, dst, public, codes, replaced, texts, text_index=cl,
                                      sep=csv_options(sep, encoding, f).sep, encoding=encoding)
        else:
            if per_code is None:
                per_code, out_type = parquet_per_code(pq.read_schema(str(f)).field(public).type, release, decimals)
            st = rw.write_parquet_release(f, dst, public, value_codes.codes, per_code, out_type, replaced=replaced)
        if st["read"] != st["written"]:
            raise InputError(f"{str(f)!r}: {st['read']} rows read but {st['written']} written; the file changed while "
                             "reading or is malformed")
        stats.append({"input": str(f), "output": name, **st})
    return stats


def part_summary(per_part: list[dict], outputs, source, out_dir: Path) -> tuple[dict, list[dict], list[tuple]]:
    """What a release run reports of :func:`write_parts`: the summed row counts, the per-part lines of
    ``summary.json`` and the ``(input file, written file)`` pairs its audit reads back."""
    stats = {k: sum(p[k] for p in per_part) for k in ("read", "written", "replaced", "suppressed")}
    parts = [{k: p[k] for k in ("input", "output", "read", "written")} for p in per_part]
    audit_parts = [(source.file(i), out_dir / o) for i, (_, o) in enumerate(outputs)]
    return stats, parts, audit_parts


def check_rows_written(stats: dict, n_read: int, data) -> None:
    """Refuse a release whose writer read or wrote another number of rows than the analysis read."""
    if stats["read"] != n_read or stats["written"] != n_read:
        raise InputError(f"{data}: {stats['read']} rows read while writing the release but {n_read} for "
                         "the analysis; the data changed while reading or is malformed")
