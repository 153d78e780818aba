"""Inputs read as written, and bad arguments refused at the boundary with one GraphprivError line.

Regression tests: Hive folder values of Parquet files are symbols as written (``s=007``, ``s=7`` and
``s=7.0`` are three values, as in a CSV folder); Parquet files with no rows or no row groups; a
non-ASCII one-character delimiter; a ``**`` glob over a folder holding a link to its parent (it ends);
a corrupt gzip file, a device and a FIFO said to be what they are; the CSV release writer reads every
file the reader reads (a byte-order mark before a quoted header, a quote inside an unquoted field,
lone carriage returns as line ends, a multi-byte delimiter) and writes only in encodings whose bytes it
can split as the reader decodes them; argument checks of ``bell_number``, ``set_partitions``,
``agglomerate``'s λ, a U2 distance, ``watchdog``'s eps and a complex-valued ``JointDistribution``.
"""

from __future__ import annotations

import gzip
import math
import os
import threading

import numpy as np
import pyarrow as pa
import pyarrow.parquet as pq
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import graphpriv as gp
from graphpriv.errors import GraphprivError, InputError, InputTypeError
from graphpriv.ingest import iter_batches, resolve_source
from graphpriv.release.writer import write_csv_release
try:
    from graphpriv.release.writer import writer_encoding_problem
except ImportError:  # before the fix
    writer_encoding_problem = None


def _one_line(exc) -> str:
    msg = str(exc.value if hasattr(exc, "value") else exc)
    assert "\n" not in msg
    return msg


# ---------------------------------------------------------------------- symbols as written
def _hive(root, fmt):
    for k, xs in (("007", ["a", "b"]), ("7", ["c", "d"]), ("7.0", ["c", "d"])):
        d = root / f"s={k}"
        d.mkdir(parents=True)
        if fmt == "parquet":
            pq.write_table(pa.table({"x": xs}), d / "p.parquet")
        else:
            (d / "p.csv").write_text("x\n" + "".join(f"{v}\n" for v in xs))
    return root


def test_hive_folder_values_are_symbols_as_written_in_parquet_as_in_csv(tmp_path):
    got = {}
    for fmt in ("csv", "parquet"):
        jr = gp.read_joint_range(_hive(tmp_path / fmt, fmt), "s", "x")
        got[fmt] = jr
        assert sorted(map(str, jr.sensitive_labels.tolist())) == ["007", "7", "7.0"]
        assert gp.maximin_information(jr) == pytest.approx(1.0)
    assert got["csv"].sensitive_labels.tolist() == got["parquet"].sensitive_labels.tolist()
    assert (got["csv"].counts != got["parquet"].counts).nnz == 0
    # numbers only when asked: then the three folder texts are two texts of one number, refused
    for fmt in ("csv", "parquet"):
        with pytest.raises(InputError) as e:
            gp.read_joint_range(tmp_path / fmt, "s", "x", numbers=("sensitive",))
        assert "007" in _one_line(e) or "7.0" in _one_line(e)


def test_hive_canonical_integers_stay_integers(tmp_path):
    for k in ("3", "-12", "40"):
        (tmp_path / f"s={k}").mkdir()
        pq.write_table(pa.table({"x": [1, 2]}), tmp_path / f"s={k}" / "p.parquet")
    jr = gp.read_joint_range(tmp_path, "s", "x")
    assert jr.sensitive_labels.tolist() == [-12, 3, 40]


# ---------------------------------------------------------------------- empty Parquet
@pytest.mark.parametrize("kind", ["no rows", "no row groups"])
def test_parquet_without_rows_is_one_line_error(tmp_path, kind):
    path = tmp_path / "e.parquet"
    schema = pa.schema([("s", pa.string()), ("x", pa.string())])
    if kind == "no rows":
        pq.write_table(pa.table({"s": pa.array([], pa.string()), "x": pa.array([], pa.string())}), path)
    else:
        pq.ParquetWriter(str(path), schema).close()
    with pytest.raises(InputError) as e:
        gp.read_joint_range(path, "s", "x")
    assert "no data rows" in _one_line(e)


# ---------------------------------------------------------------------- delimiter, paths, compression
def test_non_ascii_one_character_delimiter_is_read(tmp_path):
    path = tmp_path / "t.csv"
    path.write_text("s§x\na§1\na§2\nb§3\n", encoding="utf-8")
    jr = gp.read_joint_range(path, "s", "x", sep="§")
    assert jr.n_sensitive == 2 and jr.n_public == 3


def test_recursive_glob_over_a_link_to_its_parent_ends(tmp_path):
    root = tmp_path / "loop"
    (root / "sub").mkdir(parents=True)
    (root / "sub" / "t.csv").write_text("s,x\na,1\nb,2\n")
    (root / "sub" / "up").symlink_to("..", target_is_directory=True)
    (root / "self").symlink_to(root, target_is_directory=True)
    box = {}

    def run():
        try:
            box["src"] = resolve_source(str(root / "**" / "*.csv"))
        except BaseException as exc:  # noqa: BLE001 - reported below
            box["exc"] = exc

    t = threading.Thread(target=run, daemon=True)
    t.start()
    t.join(60)
    assert not t.is_alive(), "the ** glob followed the link to its parent without end"
    assert "exc" not in box, box.get("exc")
    assert [f.relative_to(root).as_posix() for f in box["src"].files] == ["sub/t.csv"]


def test_corrupt_gzip_is_said_to_be_not_gzip(tmp_path):
    data = bytearray(gzip.compress(b"s,x\n" + b"".join(b"a%d,%d\n" % (i, i) for i in range(2000))))
    data[40] ^= 0xFF
    bad = tmp_path / "bad.csv.gz"
    bad.write_bytes(bytes(data))
    cut = tmp_path / "cut.csv.gz"
    cut.write_bytes(gzip.compress(b"s,x\n" + b"a,1\n" * 5000)[:-30])
    junk = tmp_path / "junk.csv.gz"
    junk.write_bytes(b"s,x\na,1\n")
    for f in (bad, cut, junk):
        with pytest.raises(InputError) as e:
            gp.read_joint_range(f, "s", "x")
        msg = _one_line(e)
        assert "not a valid gzip file" in msg and "utf-8" not in msg, msg


def test_device_and_fifo_are_said_to_be_what_they_are(tmp_path):
    with pytest.raises(InputError) as e:
        resolve_source(os.devnull)
    assert "not a regular file" in _one_line(e) and "does not exist" not in _one_line(e)
    fifo = tmp_path / "pipe"
    os.mkfifo(fifo)
    with pytest.raises(InputError) as e:
        resolve_source(fifo)
    assert "named pipe" in _one_line(e) and "does not exist" not in _one_line(e)


# ---------------------------------------------------------------------- the writer reads what the reader reads
def _records(path, encoding="utf-8", sep=","):
    """Every record (all fields, exact text) as the reader gives them."""
    scan = iter_batches(path, None, raw=True, encoding=encoding, sep=sep)
    rows = []
    for b in scan:
        cols = [b.column(i).to_pylist() for i in range(b.num_columns)]
        rows += [list(r) for r in zip(*cols)]
    return rows


def _release_all(src, dst, public, text, *, encoding="utf-8", sep=","):
    """Replace the public field of every record by ``text``."""
    n = len(_records(src, encoding, sep))
    return write_csv_release(src, dst, public, [np.zeros(n, dtype=np.int64)], np.array([True]), [text],
                             encoding=encoding, sep=sep)


@pytest.mark.parametrize("name, raw, expect", [
    ("bom quoted header", b'\xef\xbb\xbf"s","x"\r\na,1\r\nb,2\r\n', b'\xef\xbb\xbf"s","x"\r\na,R\r\nb,R\r\n'),
    ("quote in unquoted field", b's,x,n\na,1"2,z"z\nb,2,"q""q"\n', b's,x,n\na,R,z"z\nb,R,"q""q"\n'),
    ("lone CR", b's,x\ra,1\rb,"2\r3"\r\rc,4', b's,x\ra,R\rb,R\r\rc,R'),
    ("mixed ends", b's,x\r\na,1\rb,2\nc,3\r\n', b's,x\r\na,R\rb,R\nc,R\r\n'),
])
def test_writer_copies_what_the_reader_reads(tmp_path, name, raw, expect):
    src, dst = tmp_path / "in.csv", tmp_path / "out.csv"
    src.write_bytes(raw)
    stats = _release_all(src, dst, "x", "R")
    assert dst.read_bytes() == expect
    assert stats["read"] == stats["written"] == len(_records(src))
    for block in (1, 2, 3, 5):           # records and CRLF pairs straddle the block edges
        write_csv_release(src, tmp_path / "b.csv", "x", [np.zeros(stats["read"], np.int64)], np.array([True]), ["R"],
                          block_size=block)
        assert (tmp_path / "b.csv").read_bytes() == expect


def test_writer_with_a_multibyte_delimiter(tmp_path):
    src, dst = tmp_path / "in.csv", tmp_path / "out.csv"
    src.write_bytes("s§x§n\nç\"a§1§\"a§b\"\nb§2§ç\n".encode())
    _release_all(src, dst, "x", "R", sep="§")
    assert dst.read_bytes() == "s§x§n\nç\"a§R§\"a§b\"\nb§R§ç\n".encode()
    assert [r[2] for r in _records(dst, sep="§")] == ["a§b", "ç"]


_FIELD = st.text(alphabet=['a', 'é', ',', '§', '"', ' ', '\r', '\n', '1'], max_size=4)


@settings(max_examples=150, deadline=None)
@given(rows=st.lists(st.lists(_FIELD, min_size=3, max_size=3), min_size=1, max_size=6),
       quoting=st.lists(st.booleans(), min_size=18, max_size=18),
       ends=st.lists(st.sampled_from(["\n", "\r\n", "\r"]), min_size=7, max_size=7),
       bom=st.booleans(), block=st.sampled_from([1, 3, 7, 1 << 20]), sep=st.sampled_from([",", "§"]))
def test_every_file_the_reader_reads_the_writer_reads(tmp_path_factory, rows, quoting, ends, bom, block, sep):
    """Random CSV text (quoted or not, stray quotes, line ends in fields, CR/LF/CRLF ends, BOM, a one- or
    two-byte delimiter): whenever the reader reads it, the writer splits the same records and changes
    only the public field."""
    parts = []
    q = iter(quoting)
    for i, rec in enumerate([["s", "x", "n"]] + rows):
        fields = []
        for f in rec:
            quoted = next(q, False)
            fields.append('"' + f.replace('"', '""') + '"' if quoted else f)
        parts.append(sep.join(fields) + ends[i % len(ends)])
    text = ("\ufeff" if bom else "") + "".join(parts)
    d = tmp_path_factory.mktemp("w")
    src, dst = d / "in.csv", d / "out.csv"
    src.write_bytes(text.encode())
    try:
        before = _records(src, sep=sep)
    except InputError:
        return                            # the reader refuses it: so does the analysis
    write_csv_release(src, dst, "x", [np.zeros(len(before), np.int64)], np.array([True]), ["R,1"], block_size=block,
                      sep=sep)
    after = _records(dst, sep=sep)
    assert len(after) == len(before)
    assert [[r[0], r[2]] for r in after] == [[r[0], r[2]] for r in before]
    assert all(r[1] == "R,1" for r in after)


@pytest.mark.parametrize("encoding", ["utf-7", "utf-16", "utf-32", "utf-16-le", "iso2022_jp"])
def test_writer_refuses_encodings_it_cannot_split(tmp_path, encoding):
    assert writer_encoding_problem(encoding, ",")
    src = tmp_path / "in.csv"
    src.write_bytes("s,x\nあ+b,1\nい,2\n".encode(encoding))
    with pytest.raises(InputError) as e:
        write_csv_release(src, tmp_path / "out.csv", "x", [np.zeros(2, np.int64)], np.array([True]), ["R"],
                          encoding=encoding)
    assert encoding in _one_line(e) and not (tmp_path / "out.csv").exists()


@pytest.mark.parametrize("encoding, sep", [("utf-8", ","), ("utf-8", "§"), ("latin-1", "§"), ("cp1252", ";"),
                                           ("shift_jis", ","), ("ascii", "\t")])
def test_writer_accepts_ascii_compatible_encodings(encoding, sep):
    assert writer_encoding_problem(encoding, sep) is None


def test_shift_jis_with_a_delimiter_inside_its_double_bytes_is_refused():
    assert "|" in writer_encoding_problem("shift_jis", "|")


def test_latin1_label_with_an_ellipsis_is_explained(tmp_path):
    src = tmp_path / "in.csv"
    src.write_bytes("s,x\né,1\n".encode("latin-1"))
    with pytest.raises(InputError) as e:
        write_csv_release(src, tmp_path / "out.csv", "x", [np.zeros(1, np.int64)], np.array([True]),
                          ["{1, 2, \u2026, 9} (20 values)"], encoding="latin-1")
    msg = _one_line(e)
    assert "latin-1" in msg and "\u2026" in msg and "utf-8" in msg.lower() and "not valid" not in msg
    assert not (tmp_path / "out.csv").exists()


# ---------------------------------------------------------------------- API arguments
@pytest.mark.parametrize("n", [2.5, "3", range(16), None, True, -1])
def test_bell_number_and_set_partitions_check_n(n):
    for f in (gp.bell_number, gp.set_partitions):
        if f is gp.set_partitions and n == -1:
            continue
        with pytest.raises(GraphprivError) as e:
            f(n)
        _one_line(e)
    with pytest.raises(InputError):
        gp.bell_number(-1)


def test_bell_number_has_a_documented_limit():
    from graphpriv.mechanisms.quantization.exact import BELL_NUMBER_MAX

    assert gp.bell_number(0) == 1 and gp.bell_number(10) == 115975
    assert gp.bell_number(BELL_NUMBER_MAX) > 0
    with pytest.raises(GraphprivError) as e:
        gp.bell_number(30000)
    assert str(BELL_NUMBER_MAX) in _one_line(e)


def test_lam_beyond_float_is_one_line_error():
    jr = gp.JointRange.from_pairs([0, 0, 1, 1], [0, 1, 1, 2])
    with pytest.raises(GraphprivError) as e:
        gp.agglomerate(jr, "I*", 10**400)
    assert "lam" in _one_line(e)


@pytest.mark.parametrize("bad", [math.nan, -math.inf, -1.0])
def test_u2_distance_must_be_a_finite_number_at_least_zero(bad):
    jr = gp.JointRange.from_pairs([0, 0, 1, 1, 2], [0, 1, 1, 2, 3])
    u2 = gp.U2(values={0: 0, 1: 1, 2: 2, 3: 3}, distance=lambda x, c: bad)
    with pytest.raises(GraphprivError) as e:
        gp.agglomerate(jr, "I*", 0.1, u2)
    assert "distance" in _one_line(e)


def test_stochastic_mechanism_parameters_must_be_numbers():
    from graphpriv.mechanisms.stochastic import linear_kernels, linear_mechanism

    jd = gp.JointDistribution(np.array([[0.1, 0.2, 0.2], [0.3, 0.1, 0.1]]))
    for call in (lambda: gp.watchdog(jd, "0.5"), lambda: gp.watchdog(jd, True),
                 lambda: gp.watchdog_eps_delta(jd, "0.5", 0.1), lambda: gp.watchdog_eps_delta(jd, 0.5, "0.1"),
                 lambda: linear_kernels.markov_kernel(jd, "0.5"), lambda: linear_mechanism.linear_reduction(jd, "0.5"),
                 lambda: linear_mechanism.reduction_log_lift(jd, "0.5")):
        with pytest.raises(InputTypeError) as e:
            call()
        _one_line(e)
    assert gp.watchdog(jd, np.float32(0.5)).eps == 0.5


def test_complex_joint_distribution_is_refused():
    P = np.full((2, 3), 1 / 6)
    for bad in (P.astype(complex), P + 1e-3j):
        with pytest.raises(InputTypeError) as e:
            gp.JointDistribution(bad)
        assert "complex" in _one_line(e)
