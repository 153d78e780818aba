"""Writing a released table in record batches: byte-faithful CSV and schema-faithful Parquet.

A release replaces the public column's value in some rows (:class:`graphpriv.Release`) and must leave
everything else exactly as it was:

* **CSV** -- :func:`write_csv_release` never re-serialises the table. It splits the input into records
  with a vectorised, quote-aware scan (numpy over blocks of bytes: a delimiter or line break counts
  only outside double quotes), rewrites the public field of the records whose value changes and copies
  every other byte: other columns, unchanged public fields, quoting, line endings, blank lines, leading
  zeros, ``2**53 + 1``, ``"0.10"``, empty fields versus ``NA``.
* **Parquet** -- :func:`write_parquet_release` reads record batches (pyarrow) and writes them with the
  input schema: every other column's type, nullability and field metadata, and the schema metadata,
  unchanged. The public column keeps its type when the released values fit it (ids and codewords of
  an integer, float or decimal column) and becomes text for generalisation labels.

Both take the per-row codes of the public values (positions in ``release.labels``; -1 for a missing
value without a label of its own, -2 for a value outside the labels, which is suppressed): the CSV
writer as an iterator of arrays of any lengths, which :mod:`graphpriv.release.stream` feeds from a
streamed scan of the same file's public column (:func:`graphpriv.ingest.iter_batches`, the reader of
the analysis), the Parquet writer as a function of each record batch's public column. Both count rows
and raise when the codes and the file disagree; the CSV writer splits records and fields exactly as the
reader does (:mod:`graphpriv.ingest.csvfile`: the header is the first non-empty line, blank lines are
not records, lines end at ``\n``, ``\r\n`` or a lone ``\r``, a line break inside quotes is data, a
quote inside an unquoted field is an ordinary character, a UTF-8 byte-order mark is not part of the
first column's name), so every file the analysis reads is released. It copies bytes without decoding
them, so it takes the encodings whose bytes it can split as the reader decodes them
(:func:`writer_encoding_problem`: UTF-8 with any delimiter, ASCII-compatible encodings such as latin-1,
cp1252 or Shift JIS with a one-byte delimiter; not UTF-16/32 or UTF-7). Memory: one block (CSV, 4 MiB
by default) or one record batch (Parquet) at a time.
"""

from __future__ import annotations

import functools
import os
import shutil
from pathlib import Path
from typing import Any, Iterable, Iterator

import numpy as np

from .._validation import MISSING
from ..errors import InputError
from .labels import number_text

__all__ = ["write_csv_release", "writer_encoding_problem", "write_parquet_release", "released_text", "CODE_MISSING", "CODE_SUPPRESSED"]

#: Row code of a missing public value that has no label of its own (left as it is).
CODE_MISSING = -1
#: Row code of a public value outside the release's labels (written as missing: suppressed).
CODE_SUPPRESSED = -2

_BLOCK = 1 << 22
#: Smallest block the CSV writer reads when the released texts are long (see :func:`_block_for`).
_MIN_BLOCK = 1 << 18


def _block_for(enc_texts: list[bytes], block_size: int) -> int:
    """The block the CSV writer reads: ``block_size``, smaller when released texts are long. A block's
    vectorised scans and its rewritten copy grow with the written bytes, not the read ones: a set label of
    56 bytes over every row made 4 MiB blocks peak at 495 MB (2·10^6 rows), 1 MiB blocks at 306 MB."""
    longest = max((len(t) for t in enc_texts), default=0)
    return max(min(block_size, _MIN_BLOCK), block_size // max(1, longest // 8))


class _Codes:
    """Hands out row codes in the file's order from an iterator of arrays of any lengths."""

    def __init__(self, chunks: Iterable[np.ndarray]):
        self._it = iter(chunks)
        self._buf = np.empty(0, dtype=np.int64)
        self.taken = 0

    def take(self, n: int, where: str) -> np.ndarray:
        parts, have = [self._buf], len(self._buf)
        while have < n:
            try:
                nxt = np.asarray(next(self._it), dtype=np.int64).ravel()
            except StopIteration:
                raise InputError(f"{where}: the file has more records than the {self.taken + have} rows read for the "
                                 "analysis; it changed while reading or is malformed") from None
            parts.append(nxt)
            have += len(nxt)
        buf = np.concatenate(parts) if len(parts) > 1 else parts[0]
        out, self._buf = buf[:n], buf[n:]
        self.taken += n
        return out

    def rest(self) -> int:
        return len(self._buf) + sum(len(np.asarray(c).ravel()) for c in self._it)


def released_text(value: Any, decimals: int | None = None) -> str:
    """The text written to a CSV field for a released value: labels as they are, numbers with the
    column's decimals (``109.2``; integers without a point), missing as the empty field."""
    if value is None or value is MISSING:
        return ""
    if isinstance(value, (bool, np.bool_)):
        return str(bool(value))
    if isinstance(value, (float, np.floating)) and decimals is not None and decimals > 0:
        return f"{float(value):.{decimals}f}"
    if isinstance(value, (int, float, np.integer, np.floating)):
        return number_text(value)
    if isinstance(value, tuple):
        return "(" + ", ".join(released_text(v, decimals) for v in value) + ")"
    return str(value)


def _csv_field(text: str, sep: str) -> str:
    if not text:
        return text
    if sep in text or '"' in text or "\n" in text or "\r" in text or text[0] == " " or text[-1] == " ":
        return '"' + text.replace('"', '""') + '"'
    return text


def _gather(src: np.ndarray, starts: np.ndarray, lengths: np.ndarray) -> np.ndarray:
    """Concatenate ``src[starts[i]:starts[i]+lengths[i]]`` for every i (vectorised)."""
    keep = lengths > 0
    starts, lengths = starts[keep], lengths[keep]
    if len(lengths) == 0:
        return np.empty(0, dtype=np.uint8)
    ends = np.cumsum(lengths)
    total = int(ends[-1])
    it = np.int32 if len(src) < 2**31 and total < 2**31 else np.int64     # half the index traffic of int64
    offs = np.repeat((starts - (ends - lengths)).astype(it), lengths)
    offs += np.arange(total, dtype=it)
    return src[offs]


def _inside_quotes(isq: np.ndarray, n_quotes: int) -> np.ndarray:
    """Per byte: whether it lies after an opening quote and up to its closing one (an odd number of
    quotes before it), every quote taken as opening or closing a field. The running count is kept in
    uint8: it wraps modulo 256, which keeps its parity."""
    if n_quotes == 0:
        return np.zeros(len(isq), dtype=bool)
    cs = np.cumsum(isq, dtype=np.uint8)
    cs -= isq
    return (cs & 1).view(bool)


def _preceded_by(arr: np.ndarray, pos: np.ndarray, seq: bytes) -> np.ndarray:
    """Per position in ``pos``: whether the bytes just before it are ``seq``."""
    ok = np.ones(len(pos), dtype=bool)
    for j, b in enumerate(reversed(seq)):
        at = pos - 1 - j
        ok &= (at >= 0) & (arr[np.maximum(at, 0)] == b)
    return ok


def _followed_by(arr: np.ndarray, pos: np.ndarray, seq: bytes) -> np.ndarray:
    """Per position in ``pos``: whether the bytes just after it are ``seq``."""
    ok = np.ones(len(pos), dtype=bool)
    for j, b in enumerate(seq):
        at = pos + 1 + j
        ok &= (at < len(arr)) & (arr[np.minimum(at, len(arr) - 1)] == b)
    return ok


def _find(arr: np.ndarray, seq: bytes) -> np.ndarray:
    """Start positions of ``seq`` in ``arr`` (one byte, or the bytes of one UTF-8 character: they never
    overlap, nor occur inside another character)."""
    hit = np.flatnonzero(arr == seq[0])
    for j, b in enumerate(seq[1:], 1):
        hit = hit[(hit + j < len(arr))]
        hit = hit[arr[hit + j] == b]
    return hit


_NL, _CR, _QUOTE = ord("\n"), ord("\r"), ord('"')
_BOM = b"\xef\xbb\xbf"


def _quotes_regular(arr: np.ndarray, isq: np.ndarray, inside: np.ndarray, sepb: bytes) -> bool:
    """Whether every quote opens a field at its start or closes it before a delimiter, a line end, a
    doubled quote or the end of the data: then :func:`_inside_quotes` is the reader's parse."""
    q = np.flatnonzero(isq)
    opening = q[~inside[q]]
    prev = arr[np.maximum(opening - 1, 0)]
    ok_open = (opening == 0) | np.isin(prev, [_NL, _CR, _QUOTE]) | _preceded_by(arr, opening, sepb)
    if not ok_open.all():
        return False
    closing = q[inside[q]]
    nxt = arr[np.minimum(closing + 1, len(arr) - 1)]
    ok_close = (closing + 1 >= len(arr)) | np.isin(nxt, [_NL, _CR, _QUOTE]) | _followed_by(arr, closing, sepb)
    return bool(ok_close.all())


def _line_of(buf: bytes, pos: int, line0: int) -> int:
    """The reader's line number of byte ``pos`` (lines end at \\n, \\r\\n or \\r)."""
    head = buf[:pos]
    return line0 + head.count(b"\n") + head.count(b"\r") - head.count(b"\r\n")


def _inside_sequential(arr: np.ndarray, isq: np.ndarray, sepb: bytes, eof: bool, buf: bytes, line0: int,
                       where: str) -> np.ndarray:
    """Per byte: whether it lies inside a quoted field (after its opening quote, up to its closing one),
    by the rules of the reader (Python's :mod:`csv` in strict mode): a quote opens a field only at the
    field's start (after a delimiter or a line end), elsewhere it is an ordinary character; inside, a
    doubled quote is a quote; a closing quote is followed by a delimiter or a line end. One step per
    quote, for the blocks whose quotes are not all at field edges."""
    n, k = len(arr), len(sepb)
    qs = np.flatnonzero(isq).tolist()
    start_ok = ((np.isin(arr[np.maximum(np.array(qs, dtype=np.int64) - 1, 0)], [_NL, _CR]) |
                 _preceded_by(arr, np.array(qs, dtype=np.int64), sepb)) if qs else np.zeros(0, bool)).tolist()
    marks = np.zeros(n + 1, dtype=np.int32)
    i = 0
    while i < len(qs):
        p = qs[i]
        if not (p == 0 or start_ok[i]):
            i += 1                                   # an ordinary character of an unquoted field
            continue
        j = i + 1
        while j < len(qs):
            c = qs[j]
            if c + k >= n and not eof:               # doubled, or before a delimiter? the next block says
                j = len(qs)
                break
            if j + 1 < len(qs) and qs[j + 1] == c + 1:
                j += 2                               # a doubled quote inside the field
                continue
            break
        if j >= len(qs):                             # open at the end of the data read so far
            if eof:
                raise InputError(f"{where}: the quoted field that starts on line {_line_of(buf, p, line0)} never closes; "
                                 "fix the quoting (a quoted field ends with a quote; a quote inside it is doubled)")
            marks[p + 1] += 1
            break
        c = qs[j]
        marks[p + 1] += 1
        marks[c + 1] -= 1
        after = c + 1
        if after < n and arr[after] not in (_NL, _CR) and bytes(arr[after:after + k]) != sepb:
            raise InputError(f"{where}: line {_line_of(buf, c, line0)} has text after a closing quote; quote the whole "
                             "field and double the quotes inside it")
        i = j + 1
    return np.cumsum(marks[:n]) > 0


@functools.lru_cache(maxsize=64)
def writer_encoding_problem(encoding: str, sep: str = ",") -> str | None:
    """Why :func:`write_csv_release` cannot copy a CSV file in ``encoding`` with delimiter ``sep`` as the
    reader decodes it (None: it can).

    The writer splits the file's bytes into records and fields without decoding them, so the bytes of
    the delimiter, the quote and the line ends must mean those characters wherever they occur: the
    encoding must write every ASCII character as that one byte, whatever precedes it (not UTF-16/32,
    UTF-7 or the ISO-2022 family), and no other character's bytes may hold one of those four bytes
    (Shift JIS, GBK or Big5 with a delimiter such as ``|`` among their second bytes). UTF-8 is always
    fine (a character's bytes never occur inside another's), with any delimiter; other encodings need
    a one-byte delimiter.
    """
    import codecs

    try:
        name = codecs.lookup(encoding).name
    except (LookupError, TypeError):
        return f"{encoding!r} is not a known text encoding"
    if name in ("utf-8", "utf-8-sig"):
        return None
    ascii_text = "".join(map(chr, range(128)))
    try:
        same = (ascii_text.encode(encoding) == ascii_text.encode("ascii")
                and bytes(range(128)).decode(encoding) == ascii_text)
    except (UnicodeError, ValueError):
        same = False
    if not same:
        return (f"{encoding} is not an ASCII-compatible encoding (the bytes of ',', '\"' and the line ends are not "
                "those characters wherever they occur)")
    try:
        sepb = sep.encode(encoding)
    except UnicodeError:
        return f"the delimiter {sep!r} cannot be written in {encoding}"
    if len(sepb) != 1:
        return f"the delimiter {sep!r} is {len(sepb)} bytes in {encoding}; a delimiter of one byte is needed"
    others = "".join(chr(c) for c in range(128, 0x10000) if not 0xD800 <= c < 0xE000 and chr(c) != sep)
    held = others.encode(encoding, errors="ignore")
    for b, what in ((sepb, f"the delimiter {sep!r}"), (b'"', "the quote"), (b"\n", "the line feed"),
                    (b"\r", "the carriage return")):
        if b in held:
            return f"in {encoding} the bytes of some characters hold the byte of {what}"
    return None


def _encoded_texts(texts: list[str], sep: str, encoding: str, where: str) -> list[bytes]:
    """The CSV fields of ``texts`` in ``encoding``; a text the encoding cannot hold is named."""
    out = []
    for t in texts:
        field = _csv_field(t, sep)
        try:
            out.append(field.encode(encoding))
        except UnicodeEncodeError as exc:
            bad = field[exc.start:exc.end]
            shown = t if len(t) <= 60 else t[:57] + "..."
            raise InputError(f"{where}: the released value {shown!r} holds {bad!r}, which the file's encoding {encoding} "
                             f"cannot write; re-encode the file as UTF-8 (e.g. iconv -f {encoding} -t utf-8) and pass "
                             "--encoding utf-8, or release cluster ids (--release id)") from None
    return out


def write_csv_release(src: str | os.PathLike, dst: str | os.PathLike, public: str, codes: Iterable[np.ndarray],
                      replaced: np.ndarray, texts: list[str], *, text_index: np.ndarray | None = None, sep: str = ",",
                      encoding: str = "utf-8", block_size: int = _BLOCK) -> dict:
    """Copy the CSV file ``src`` to ``dst`` rewriting only the ``public`` field of changed rows.

    Records and fields are split as the reader splits them (:mod:`graphpriv.ingest.csvfile`: Python's
    :mod:`csv` in strict mode): the header is the first non-empty record; blank lines are not records;
    lines end at ``\\n``, ``\\r\\n`` or a lone ``\\r``; a quote opens a field only at its start (elsewhere
    it is an ordinary character) and inside a quoted field a doubled quote is a quote; a UTF-8
    byte-order mark is not part of the first column's name. Quote-regular blocks (every quote at a
    field edge) are split with vectorised byte scans, the others one quote at a time.

    Parameters
    ----------
    src, dst : path
    public : str
        Name of the public column (in the header line).
    codes : iterable of int arrays
        Per record, in file order: the code of its public value (see the module docstring).
    replaced : bool array
        Per code: whether rows with this code get a new field.
    texts : list of str
        The released texts (used where ``replaced``): one per code, or with ``text_index`` (per code:
        the position of its text, e.g. its cluster id) one per distinct text.
    sep, encoding : str
        Delimiter and text encoding of the file (see :func:`writer_encoding_problem` for the encodings
        the writer can copy).

    Returns
    -------
    dict
        ``{"read": records, "written": records, "replaced": fields rewritten, "suppressed": ...}``.

    Raises
    ------
    InputError
        An encoding the writer cannot split, a released text the encoding cannot hold, a quote that
        never closes, a record with another number of fields than the header (the line is named), or
        more/fewer records than ``codes``; nothing is written to ``dst`` for the first two.
    """
    import codecs
    import csv
    import io as _io

    src, dst = Path(src), Path(dst)
    where = str(src)
    problem = writer_encoding_problem(encoding, sep)
    if problem is not None:
        raise InputError(f"{where}: sanitize cannot rewrite this file in place: {problem}; re-encode it as UTF-8 (e.g. "
                         f"iconv -f {encoding} -t utf-8) and pass --encoding utf-8")
    utf8 = codecs.lookup(encoding).name in ("utf-8", "utf-8-sig")
    sepb = sep.encode(encoding)
    k = len(sepb)
    enc_texts = _encoded_texts(texts, sep, encoding, where) + [b""]     # last: suppressed
    block_size = _block_for(enc_texts, block_size)
    table = np.frombuffer(b"".join(enc_texts) or b"\0", dtype=np.uint8)
    t_len = np.array([len(b) for b in enc_texts], dtype=np.int64)
    t_start = np.concatenate([[0], np.cumsum(t_len)[:-1]]).astype(np.int64)
    replaced = np.append(np.asarray(replaced, dtype=bool), True)
    tix = np.arange(len(replaced), dtype=np.int64) if text_index is None else np.append(
        np.asarray(text_index, dtype=np.int64), len(enc_texts) - 1)
    feed = _Codes(codes)
    stats = {"read": 0, "written": 0, "replaced": 0, "suppressed": 0}
    line0 = 1                     # the reader's line number of the block's first byte
    col = ncols = None
    carry = b""
    at_start = True               # a UTF-8 byte-order mark is copied, not parsed
    with open(src, "rb") as fin, open(dst, "wb") as fout:
        eof = False
        while not eof:
            chunk = fin.read(block_size)
            eof = not chunk
            buf = carry + chunk
            if at_start:
                if utf8 and len(buf) < len(_BOM) and not eof:
                    carry = buf
                    continue
                at_start = False
                if utf8 and buf.startswith(_BOM):
                    fout.write(_BOM)
                    buf = buf[len(_BOM):]
            if not buf:
                carry = b""
                continue
            arr = np.frombuffer(buf, dtype=np.uint8)
            n = len(arr)
            isq = arr == _QUOTE
            n_quotes = int(np.count_nonzero(isq))
            inside = _inside_quotes(isq, n_quotes)          # fast: every quote at a field edge
            if n_quotes and not _quotes_regular(arr, isq, inside, sepb):
                inside = _inside_sequential(arr, isq, sepb, eof, buf, line0, where)
            elif eof and n_quotes % 2 == 1:
                opener = int(np.flatnonzero(isq & ~inside)[-1])
                raise InputError(f"{where}: the quoted field that starts on line {_line_of(buf, opener, line0)} never "
                                 "closes; fix the quoting (a quoted field ends with a quote; a quote inside it is doubled)")
            is_nl = arr == _NL
            is_end = is_nl | (arr == _CR)
            is_end[:-1] &= ~((arr[:-1] == _CR) & is_nl[1:])     # the \r of \r\n is not an end of its own
            if not eof and arr[-1] == _CR:
                is_end[-1] = False                           # \r or \r\n? the next block says
            if n_quotes:
                is_end &= ~inside
            ends = np.flatnonzero(is_end)
            if eof and (len(ends) == 0 or ends[-1] != n - 1):
                ends = np.append(ends, n)                    # last record without a line end
            if len(ends) == 0:
                carry = buf
                continue
            cut = int(ends[-1]) + 1 if ends[-1] < n else n
            rec_end = ends                                   # exclusive end of each record's text
            rec_start = np.concatenate([[0], ends[:-1] + 1])
            body_end = rec_end.copy()                        # drop the '\r' of a '\r\n'
            crlf = ((rec_end < n) & (arr[np.minimum(rec_end, n - 1)] == _NL) & (body_end > rec_start)
                    & (arr[np.maximum(body_end - 1, 0)] == _CR))
            body_end[crlf] -= 1
            nonempty = body_end > rec_start
            seps = _find(arr[:cut], sepb)
            if n_quotes:
                seps = seps[~inside[seps]]
            first = np.searchsorted(seps, rec_start)
            nsep = np.searchsorted(seps, rec_end) - first
            out_parts = []
            idx = np.flatnonzero(nonempty)
            if col is None:                                  # the header record
                if len(idx) == 0:
                    fout.write(buf[:cut])
                    carry = buf[cut:]
                    line0 = _line_of(buf, cut, line0)
                    continue
                h = int(idx[0])
                text = buf[rec_start[h]:body_end[h]].decode(encoding)
                header = next(csv.reader(_io.StringIO(text, newline=""), delimiter=sep, quotechar='"', doublequote=True,
                                         strict=True))
                if public not in header:
                    raise InputError(f"{where}: column {public!r} is not in the header line")
                col, ncols = header.index(public), len(header)
                head_end = int(rec_end[h]) + 1 if rec_end[h] < n else n
                out_parts.append(arr[:head_end])
                idx = idx[1:]
                base = head_end
            else:
                base = 0
            bad = idx[nsep[idx] != ncols - 1]
            if len(bad):
                b = int(bad[0])
                raise InputError(f"{where}: line {_line_of(buf, int(rec_start[b]), line0)} has {int(nsep[b]) + 1} fields, "
                                 f"the header has {ncols}; fix that row (or its quoting)")
            m_rec = len(idx)
            rc = feed.take(m_rec, where)
            stats["read"] += m_rec
            stats["written"] += m_rec
            code_idx = np.where(rc >= 0, rc, len(replaced) - 1)
            change = (rc == CODE_SUPPRESSED) | ((rc >= 0) & replaced[np.where(rc >= 0, rc, 0)])
            stats["suppressed"] += int(np.count_nonzero(rc == CODE_SUPPRESSED))
            stats["replaced"] += int(np.count_nonzero(change & (rc >= 0)))
            ci = idx[change]
            if len(ci):
                fstart = rec_start[ci] if col == 0 else seps[first[ci] + col - 1] + k
                fend = body_end[ci] if col == ncols - 1 else seps[first[ci] + col]
                kk = tix[code_idx[change]]
                m = len(ci)
                # segments: [cursor, fstart_i) from the block, then the replacement text, ...; finally the tail
                starts = np.empty(2 * m + 1, dtype=np.int64)
                lens = np.empty(2 * m + 1, dtype=np.int64)
                cursor = np.concatenate([[base], fend])
                starts[0:2 * m:2] = cursor[:-1]
                lens[0:2 * m:2] = fstart - cursor[:-1]
                starts[1:2 * m:2] = n + t_start[kk]
                lens[1:2 * m:2] = t_len[kk]
                starts[2 * m] = cursor[-1]
                lens[2 * m] = cut - cursor[-1]
                out_parts.append(_gather(np.concatenate([arr, table]), starts, lens))
            else:
                out_parts.append(arr[base:cut])
            for part in out_parts:
                fout.write(part.tobytes())
            line0 = _line_of(buf, cut, line0)
            carry = buf[cut:]
        if col is None:
            raise InputError(f"{where}: the file has no header line")
    left = feed.rest()
    if left:
        raise InputError(f"{where}: the file has {left} fewer records than rows read for the analysis; it changed while "
                         "reading or is malformed")
    return stats


def write_parquet_release(src: str | os.PathLike, dst: str | os.PathLike, public: str, codes_of, per_code,
                          out_type, *, replaced: np.ndarray | None = None, batch_size: int = 1 << 16) -> dict:
    """Copy the Parquet file ``src`` to ``dst`` batch by batch with the ``public`` column rebuilt.

    ``codes_of(array) -> int array`` gives the codes of one batch's public column; ``per_code`` is
    a pyarrow array of ``out_type`` holding the released value of every code; rows with a negative
    code become null (missing stays missing, a suppressed value is dropped). ``replaced`` (bool per
    code: the released value differs from the value) counts the rows whose value is replaced. The output schema is
    the input schema with only the public field's type replaced by ``out_type`` (its name,
    nullability and metadata, every other field and the schema metadata kept).
    """
    import pyarrow as pa
    import pyarrow.parquet as pq

    pf = pq.ParquetFile(str(src))
    schema = pf.schema_arrow
    i = schema.get_field_index(public)
    old = schema.field(i)
    new_field = pa.field(old.name, out_type, nullable=True if out_type != old.type else old.nullable, metadata=old.metadata)
    out_schema = schema.set(i, new_field)
    if out_type != old.type:
        out_schema = _pandas_metadata_retyped(out_schema, public, out_type)
    stats = {"read": 0, "written": 0, "replaced": 0, "suppressed": 0}
    with pq.ParquetWriter(str(dst), out_schema) as writer:
        for batch in pf.iter_batches(batch_size=batch_size):
            col = batch.column(i)
            rc = np.asarray(codes_of(col), dtype=np.int64)
            if len(rc) != batch.num_rows:  # pragma: no cover - codes_of is ours
                raise InputError(f"{src}: the public column of a batch has {len(rc)} codes for {batch.num_rows} rows")
            valid = rc >= 0
            taken = per_code.take(pa.array(np.where(valid, rc, 0), type=pa.int64()))
            new = pa.compute.if_else(pa.array(valid), taken, pa.nulls(len(rc), type=out_type)) if not valid.all() else taken
            if out_type == old.type and replaced is not None:
                # in the column's own type, a cell that is not replaced stays as written (a NaN stays NaN, -0.0
                # stays -0.0); a missing value without a label is such a cell, a suppressed one is not
                keep = (rc == CODE_MISSING) | (valid & ~replaced[np.where(valid, rc, 0)])
                if keep.any():
                    new = pa.compute.if_else(pa.array(keep), col.cast(out_type), new.cast(out_type))
            stats["suppressed"] += int(np.count_nonzero(rc == CODE_SUPPRESSED))
            if replaced is not None:
                stats["replaced"] += int(np.count_nonzero(valid & replaced[np.where(valid, rc, 0)]))
            cols = list(batch.columns)
            cols[i] = new.cast(out_type)
            writer.write_batch(pa.RecordBatch.from_arrays(cols, schema=out_schema))
            stats["read"] += batch.num_rows
            stats["written"] += batch.num_rows
    return stats


def _pandas_metadata_retyped(schema, column: str, out_type):
    """``schema`` with the pandas metadata (written by ``DataFrame.to_parquet``) of ``column`` saying
    its new type: the old entry (e.g. ``Int64``) would make ``pandas.read_parquet`` of the release fail
    on a column that now holds text."""
    import json

    import pyarrow as pa
    from pyarrow.pandas_compat import get_logical_type

    meta = dict(schema.metadata or {})
    if b"pandas" not in meta:
        return schema
    try:
        doc = json.loads(meta[b"pandas"])
    except (ValueError, UnicodeDecodeError):
        return schema                          # not pandas' document: left as it was
    entries = doc.get("columns") if isinstance(doc, dict) else None
    if not isinstance(entries, list):
        return schema
    for entry in entries:
        if not isinstance(entry, dict):
            continue
        if entry.get("field_name", entry.get("name")) == column:
            entry["pandas_type"] = get_logical_type(out_type)
            entry["numpy_type"] = str(pa.array([], out_type).to_pandas().dtype)
            entry["metadata"] = ({"precision": out_type.precision, "scale": out_type.scale}
                                 if pa.types.is_decimal(out_type) else None)
    meta[b"pandas"] = json.dumps(doc).encode()
    return schema.with_metadata(meta)


def copy_file(src: str | os.PathLike, dst: str | os.PathLike) -> None:
    """Copy the bytes of ``src`` to ``dst`` (a release that changes nothing)."""
    shutil.copyfile(src, dst)


def batches_of(arr: np.ndarray, size: int = 1 << 20) -> Iterator[np.ndarray]:
    """``arr`` in consecutive pieces of ``size`` (the code feed of an in-memory column)."""
    for s in range(0, len(arr), size):
        yield arr[s:s + size]
