"""Strict CSV reading in record batches: every record of the file, or a one-line error naming the line.

The rules are those of Python's :mod:`csv` module in strict mode (``csv.reader(..., strict=True)``)
with the header's field count enforced on every record:

- a field that starts with ``"`` is quoted: it may hold the delimiter and newlines, a ``"`` inside it
  is written ``""``, and it must end with ``"`` followed by the delimiter or the end of the line;
  a quote that never closes, or text after a closing quote, is an error;
- a ``"`` that does not start a field is an ordinary character;
- every record has as many fields as the header; empty lines are skipped (they are not records);
- line ends are ``\\n``, ``\\r\\n`` or ``\\r``.

Two engines give exactly these records. Files that contain no ``"`` after the header line (the usual
machine-made table; a quoted header is fine) are parsed by pyarrow's multi-threaded C++ reader with quoting switched off, which splits such
files exactly as the :mod:`csv` module does; the file is checked for a quote character and for valid
UTF-8 in a first pass that runs at disk speed. Any other file (quotes, another encoding) is parsed by
the :mod:`csv` module itself (about 10^6 records per second). Every field is read as the exact text in
the file; nothing is converted here.
"""

from __future__ import annotations

import bz2
import codecs
import csv
import gzip
import io
import lzma
import os
import zlib
from pathlib import Path
from typing import Callable, Iterator, Sequence

from ..errors import InputError
from .sources import one_line

__all__ = ["CsvOptions", "csv_options", "read_header", "csv_batches"]

#: Records per batch of the :mod:`csv`-module engine.
BATCH_ROWS = 1 << 16
#: Bytes per block of the pyarrow engine (and of the pre-scan).
BLOCK_BYTES = 1 << 24

csv.field_size_limit(2**31 - 1)          # long fields are data, not an error (labels are checked later)


class CsvOptions:
    """Validated delimiter and encoding of one CSV source."""

    __slots__ = ("sep", "encoding", "codec")

    def __init__(self, sep: str, encoding: str, codec: str):
        self.sep, self.encoding, self.codec = sep, encoding, codec

    @property
    def is_utf8(self) -> bool:
        return self.codec in ("utf-8", "utf-8-sig", "ascii")


def csv_options(sep: str | None, encoding: str | None, path: str | os.PathLike = "") -> CsvOptions:
    """Check ``sep`` (one character; default ``,``, tab for ``.tsv``/``.tab``) and ``encoding`` (a
    text encoding such as ``utf-8``, ``latin-1``, ``utf-16``)."""
    name = str(path).lower()
    for c in (".gz", ".bz2", ".xz"):
        name = name[: -len(c)] if name.endswith(c) else name
    if sep is None:
        sep = "\t" if name.endswith((".tsv", ".tab")) else ","
    if not isinstance(sep, str) or len(sep) != 1:
        raise InputError(f"sep={sep!r} must be a single character (e.g. ',' or '\\t')")
    if sep in '"\r\n':
        raise InputError(f"sep={sep!r} cannot be a quote or a line end; use e.g. ',' or '\\t'")
    encoding = "utf-8" if encoding is None else encoding
    try:
        info = codecs.lookup(encoding)
    except (LookupError, TypeError):
        raise InputError(f"encoding={encoding!r} is not a known text encoding; use e.g. utf-8 or latin-1") from None
    if not getattr(info, "_is_text_encoding", True):
        raise InputError(f"encoding={encoding!r} is a text-to-text or bytes-to-bytes codec, not a file encoding; "
                         "use e.g. utf-8, latin-1 or utf-16")
    codec = info.name
    return CsvOptions(sep, encoding, "utf-8-sig" if codec == "utf-8" else codec)


def _open_raw(path: Path):
    """(binary stream of the decompressed bytes, the raw file for progress) of ``path``."""
    raw = open(path, "rb")
    name = path.name.lower()
    if name.endswith(".gz"):
        return gzip.GzipFile(fileobj=raw), raw
    if name.endswith(".bz2"):
        return bz2.BZ2File(raw), raw
    if name.endswith(".xz"):
        return lzma.LZMAFile(raw), raw
    return raw, raw


#: Errors of a damaged compressed stream (zlib's is not an OSError; a cut stream raises EOFError).
_STREAM_ERRORS = (OSError, EOFError, zlib.error, lzma.LZMAError)


def _compression(path: Path) -> str | None:
    name = path.name.lower()
    return "gzip" if name.endswith(".gz") else "bzip2" if name.endswith(".bz2") else "xz" if name.endswith(".xz") else None


def _stream_problem(path: Path) -> str | None:
    """Why the compressed file ``path`` does not decompress (None: it does, or it is not compressed)."""
    if _compression(path) is None:
        return None
    try:
        stream, _ = _open_raw(path)
        with stream:
            while stream.read(BLOCK_BYTES):
                pass
    except _STREAM_ERRORS as exc:
        return one_line(exc, 120) or type(exc).__name__
    return None


def read_error(path: Path, exc: BaseException) -> InputError:
    """The one-line error of a file that cannot be read: a damaged compressed file says so."""
    kind = _compression(path)
    if kind is not None:
        return InputError(f"data file {str(path)!r} is not a valid {kind} file ({one_line(exc, 120)}); check the file, "
                          f"or give the uncompressed CSV")
    return InputError(f"data file {str(path)!r} cannot be read ({one_line(exc, 120)}); check the file")


def _where(first: int, last: int) -> str:
    return f"line {first}" if first >= last else f"lines {first}-{last}"


def _bad(path: Path, what: str) -> InputError:
    return InputError(f"data file {str(path)!r} is not a well-formed CSV file: {what}")


def _csv_error(path: Path, exc: Exception, first: int, last: int) -> InputError:
    text = str(exc)
    if "unexpected end of data" in text or "EOF inside string" in text:
        return _bad(path, f"the quoted field that starts on line {first} never closes (no closing '\"' before the end "
                          "of the file); close or remove the quote")
    if "expected after" in text:
        return _bad(path, f"line {last} has text after a closing quote; inside a quoted field write a quote as '\"\"', "
                          "or quote the whole field")
    return _bad(path, f"{_where(first, last)}: {one_line(text, 120)}; check the quoting and the delimiter (--sep)")


def encoding_error(path: Path, line: int | None, opts: CsvOptions) -> InputError:
    problem = _stream_problem(path)        # garbage out of a damaged compressed file is not an encoding problem
    if problem is not None:
        return read_error(path, problem)
    where = f"{str(path)!r}" + (f" line {line}" if line else "")
    return InputError(f"{where} is not valid {opts.encoding} text; pass the file's encoding, e.g. --encoding latin-1, "
                      "or re-encode the file as UTF-8")


def _bad_line(path: Path, opts: CsvOptions) -> int | None:
    """The line (1-based, counting newlines) holding the first byte that is not valid in the encoding."""
    stream, _ = _open_raw(path)
    decoder = codecs.getincrementaldecoder(opts.codec)("strict")
    lines = 1
    try:
        with stream:
            while True:
                chunk = stream.read(BLOCK_BYTES)
                try:
                    text = decoder.decode(chunk, final=not chunk)
                except UnicodeError as exc:
                    start = getattr(exc, "start", 0)
                    good = codecs.getincrementaldecoder(opts.codec)("ignore").decode(chunk[:start])
                    return lines + good.count("\n")
                lines += text.count("\n")
                if not chunk:
                    return None
    except _STREAM_ERRORS:
        return None


def read_header(path: Path, opts: CsvOptions) -> tuple[list[str], int]:
    """The header's field names and the number of the line it ends on."""
    stream, _ = _open_raw(path)
    with io.TextIOWrapper(stream, encoding=opts.codec, newline="", errors="strict") as fh:
        reader = csv.reader(fh, delimiter=opts.sep, quotechar='"', doublequote=True, strict=True)
        first = 1
        try:
            for row in reader:
                if row:
                    return row, reader.line_num
                first = reader.line_num + 1
        except csv.Error as exc:
            raise _csv_error(path, exc, first, reader.line_num) from None
        except UnicodeError:
            raise encoding_error(path, _bad_line(path, opts), opts) from None
        except _STREAM_ERRORS as exc:
            raise read_error(path, exc) from None
    raise InputError(f"data file {str(path)!r} is empty; it needs a header line and at least one data row")


def _fast_path_ok(path: Path, opts: CsvOptions, header_line: int) -> bool:
    """True when the pyarrow engine reads exactly the :mod:`csv` module's records: UTF-8 text, the
    header on line 1 and no quote character after it (checked at disk speed)."""
    if not opts.is_utf8 or header_line != 1 or not opts.sep.isascii():    # pyarrow takes one ASCII delimiter
        return False
    stream, _ = _open_raw(path)
    decoder = codecs.getincrementaldecoder("utf-8")("strict")
    in_header = True                      # the header (line 1, read by the csv module) may be quoted
    try:
        with stream:
            while True:
                chunk = stream.read(BLOCK_BYTES)
                if not chunk:
                    decoder.decode(b"", final=True)
                    return True
                body = chunk
                if in_header:
                    ends = [i for i in (chunk.find(b"\n"), chunk.find(b"\r")) if i >= 0]
                    if ends:
                        in_header = False
                        body = chunk[min(ends) + 1:]
                    else:
                        body = b""
                if b'"' in body:
                    return False
                decoder.decode(chunk)
    except (UnicodeError, *_STREAM_ERRORS):
        return False                      # the csv-module engine reports it with its line


def csv_batches(path: Path, opts: CsvOptions, header: Sequence[str], header_line: int, wanted: Sequence[int], *,
                on_bytes: Callable[[int], None] | None = None, engine: str = "auto") -> Iterator["object"]:
    """Record batches (``pyarrow.RecordBatch``, columns named ``c<i>`` for field ``i``, all strings)
    of the fields ``wanted`` of every record after the header.

    ``engine``: ``"auto"`` (pyarrow when exact, see the module docstring), ``"python"`` (the
    :mod:`csv` module) or ``"pyarrow"`` (quote-free UTF-8 files only; falls back when not exact).
    ``on_bytes(n)`` is called with the raw bytes consumed so far.
    """
    if engine not in ("auto", "python", "pyarrow"):
        raise InputError(f"engine={engine!r} must be 'auto', 'python' or 'pyarrow'")
    done = 0
    if engine != "python" and _fast_path_ok(path, opts, header_line):
        try:
            for batch in _arrow_batches(path, opts, len(header), wanted, on_bytes):
                done += batch.num_rows
                yield batch
            return
        except _ArrowFailed:
            pass                          # the csv-module engine finds and names the bad line
    yield from _python_batches(path, opts, len(header), wanted, skip=done, on_bytes=on_bytes)


class _ArrowFailed(Exception):
    pass


def _arrow_batches(path: Path, opts: CsvOptions, n_fields: int, wanted: Sequence[int], on_bytes):
    import pyarrow as pa
    import pyarrow.csv as pacsv

    names = [f"c{i}" for i in range(n_fields)]
    keep = [names[i] for i in dict.fromkeys(wanted)]
    read = pacsv.ReadOptions(column_names=names, skip_rows=1, block_size=BLOCK_BYTES, use_threads=True)
    parse = pacsv.ParseOptions(delimiter=opts.sep, quote_char=False, double_quote=False, escape_char=False,
                               newlines_in_values=False, ignore_empty_lines=True)
    conv = pacsv.ConvertOptions(include_columns=keep, column_types={c: pa.string() for c in keep}, null_values=[],
                                strings_can_be_null=False, quoted_strings_can_be_null=False)
    raw = pa.OSFile(str(path))
    name = path.name.lower()
    codec = "gzip" if name.endswith(".gz") else "bz2" if name.endswith(".bz2") else None
    if name.endswith(".xz"):
        raw.close()
        raise _ArrowFailed()
    stream = pa.CompressedInputStream(raw, codec) if codec else raw
    try:
        try:
            reader = pacsv.open_csv(stream, read_options=read, parse_options=parse, convert_options=conv)
        except (pa.ArrowInvalid, pa.ArrowTypeError, pa.ArrowKeyError, OSError):
            raise _ArrowFailed() from None
        while True:
            try:
                batch = reader.read_next_batch()
            except StopIteration:
                break
            except (pa.ArrowInvalid, pa.ArrowTypeError, OSError):
                raise _ArrowFailed() from None
            if on_bytes is not None:
                on_bytes(raw.tell())
            yield batch
    finally:
        stream.close()


def _python_batches(path: Path, opts: CsvOptions, n_fields: int, wanted: Sequence[int], *, skip: int = 0,
                    on_bytes=None, batch_rows: int = BATCH_ROWS):
    import pyarrow as pa

    keep = list(dict.fromkeys(wanted))
    names = [f"c{i}" for i in keep]
    stream, raw = _open_raw(path)
    with io.TextIOWrapper(stream, encoding=opts.codec, newline="", errors="strict") as fh:
        reader = csv.reader(fh, delimiter=opts.sep, quotechar='"', doublequote=True, strict=True)
        cols: list[list[str]] = [[] for _ in keep]
        first, seen_header, n_records = 1, False, 0
        try:
            for row in reader:
                if not row:
                    first = reader.line_num + 1
                    continue
                if not seen_header:
                    seen_header = True
                    first = reader.line_num + 1
                    continue
                if len(row) != n_fields:
                    raise _bad(path, f"{_where(first, reader.line_num)} has {len(row)} field(s) but the header has "
                                     f"{n_fields}; every row needs one field per column (check the delimiter --sep and "
                                     "the quoting)")
                first = reader.line_num + 1
                n_records += 1
                if n_records <= skip:
                    continue
                for c, i in zip(cols, keep):
                    c.append(row[i])
                if len(cols[0]) >= batch_rows:
                    yield pa.RecordBatch.from_arrays([pa.array(c, pa.string()) for c in cols], names=names)
                    cols = [[] for _ in keep]
                    if on_bytes is not None:
                        on_bytes(raw.tell())
        except csv.Error as exc:
            raise _csv_error(path, exc, first, reader.line_num) from None
        except UnicodeError:
            raise encoding_error(path, _bad_line(path, opts), opts) from None
        except _STREAM_ERRORS as exc:
            raise read_error(path, exc) from None
        if cols and cols[0]:
            yield pa.RecordBatch.from_arrays([pa.array(c, pa.string()) for c in cols], names=names)
        if on_bytes is not None:
            on_bytes(raw.tell())
