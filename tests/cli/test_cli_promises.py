"""What ``graphpriv analyze`` reads, ``graphpriv sanitize`` reads and releases; everything else is one line, exit 2.

Regression tests (in-process runs): Parquet Hive folders ``s=007``/``s=7``/``s=7.0`` are three symbols for
both commands (the release is not a copy of the input); ``--encoding utf-7``/``utf-16`` are read by analyze
and refused by sanitize before anything is written; a latin-1 file whose release needs a label with
``…`` is explained; Parquet files with no rows or no row groups; a ``§`` delimiter; ``--lam 1e308`` prints
no warning; negative numbers as option values; a corrupt ``.gz``, ``/dev/null`` and a FIFO said to be
what they are; a byte-order mark before a quoted header, a quote inside an unquoted field and lone
carriage returns: sanitize reads what analyze reads and writes only the public fields.
"""

from __future__ import annotations

import gzip
import json
import os

import pyarrow as pa
import pyarrow.parquet as pq
import pytest

from test_cli_analyze import assert_one_line_error, only_inputs_left, run_inproc

SAN = ["--no-animation", "--no-explorer"]


def _analyze_json(capsys, data, *opts):
    proc = run_inproc(["analyze", data, "-s", "s", "-x", "x", "--json", *opts], capsys)
    assert proc.returncode == 0, proc.stderr
    return json.loads(proc.stdout)


def _sanitize(capsys, data, out, *opts):
    proc = run_inproc(["sanitize", data, "-s", "s", "-x", "x", *SAN, "--out", out, *opts], capsys)
    assert proc.returncode == 0, proc.stderr
    assert "Warning" not in proc.stderr, proc.stderr
    return json.loads((out / "summary.json").read_text())


def test_hive_parquet_folder_values_as_written_for_analyze_and_sanitize(tmp_path, capsys):
    got = {}
    for fmt in ("csv", "parquet"):
        for k, xs in (("007", ["a", "b"]), ("7", ["c", "d"]), ("7.0", ["c", "d"])):
            d = tmp_path / fmt / f"s={k}"
            d.mkdir(parents=True)
            if fmt == "parquet":
                pq.write_table(pa.table({"x": xs, "n": [1, 2]}), d / "p.parquet")
            else:
                (d / "p.csv").write_text("x,n\n" + "".join(f"{v},{i}\n" for i, v in enumerate(xs)))
        rep = _analyze_json(capsys, tmp_path / fmt)
        got[fmt] = rep
        assert rep["range"]["n_sensitive"] == 3 and rep["measures"]["I_star"] == pytest.approx(1.0)
        summ = _sanitize(capsys, tmp_path / fmt, tmp_path / f"rel_{fmt}", "--objective", "I*", "--utility", "U1",
                         "--lam", "0")
        assert summ["noop"] is False and summ["before"]["I_star"] == pytest.approx(1.0)
        assert summ["after"]["I_star"] == 0 and summ["rows"]["replaced_public"] > 0
    assert got["csv"]["range"] == got["parquet"]["range"] and got["csv"]["measures"] == got["parquet"]["measures"]


@pytest.mark.parametrize("encoding", ["utf-7", "utf-16"])
def test_encodings_the_writer_cannot_split_are_refused_by_sanitize(tmp_path, capsys, encoding):
    src = tmp_path / "t.csv"
    src.write_bytes('s,x\n"ä,+",1\nö,2\n"ä,+",3\nü,4\nö,5\n'.encode(encoding))
    rep = _analyze_json(capsys, src, "--encoding", encoding)
    assert rep["range"]["n_sensitive"] == 3 and rep["range"]["n_public"] == 5
    proc = run_inproc(["sanitize", src, "-s", "s", "-x", "x", "--encoding", encoding, "--objective", "L0", "--utility",
                       "U1", "--lam", "0", *SAN, "--out", tmp_path / "rel"], capsys)
    assert_one_line_error(proc, encoding, "sanitize")
    only_inputs_left(tmp_path, {"t.csv"})


def test_latin1_release_label_with_an_ellipsis(tmp_path, capsys):
    src = tmp_path / "t.csv"
    src.write_bytes(("s,x\n" + "".join(f"é,{i}\n" for i in range(20)) + "ö,a\n").encode("latin-1"))
    proc = run_inproc(["sanitize", src, "-s", "s", "-x", "x", "--encoding", "latin-1", "--objective", "L0",
                       "--utility", "U1", "--lam", "0", *SAN, "--out", tmp_path / "rel"], capsys)
    if proc.returncode == 0:              # a label the encoding can hold
        text = (tmp_path / "rel" / "sanitized.csv").read_bytes().decode("latin-1")
        assert text.count("\n") == 22
    else:
        assert_one_line_error(proc, "latin-1", "\u2026", "utf-8")
        assert "not valid" not in proc.stderr
        only_inputs_left(tmp_path, {"t.csv"})


@pytest.mark.parametrize("kind", ["no rows", "no row groups"])
@pytest.mark.parametrize("command", ["analyze", "sanitize"])
def test_parquet_without_rows(tmp_path, capsys, kind, command):
    path = tmp_path / "e.parquet"
    schema = pa.schema([("s", pa.string()), ("x", pa.string())])
    if kind == "no rows":
        pq.write_table(schema.empty_table(), path)
    else:
        pq.ParquetWriter(str(path), schema).close()
    extra = ["--objective", "L0", "--utility", "U1", "--lam", "0"] if command == "sanitize" else []
    proc = run_inproc([command, path, "-s", "s", "-x", "x", *extra, "--out", tmp_path / "o"], capsys)
    assert_one_line_error(proc, "no data rows", "e.parquet")
    only_inputs_left(tmp_path, {"e.parquet"})


def test_non_ascii_delimiter(tmp_path, capsys):
    src = tmp_path / "t.csv"
    src.write_text("s§x§n\na§1§p\na§2§q\nb§3§r\n", encoding="utf-8")
    rep = _analyze_json(capsys, src, "--sep", "§")
    assert rep["range"]["n_public"] == 3
    _sanitize(capsys, src, tmp_path / "rel", "--sep", "§", "--objective", "L0", "--utility", "U1", "--lam", "0")
    assert (tmp_path / "rel" / "sanitized.csv").read_text() == "s§x§n\na§[1, 3]§p\na§[1, 3]§q\nb§[1, 3]§r\n"


def test_huge_lam_no_warning_and_negative_values_parse(tmp_path, capsys):
    src = tmp_path / "t.csv"
    src.write_text("s,x\na,1\na,2\nb,2\nb,3\nc,4\n")
    common = ["--objective", "L0", "--utility", "U1"]
    summ = _sanitize(capsys, src, tmp_path / "r1", *common, "--lam", "1e308")
    assert summ["lam"] == 1e308
    summ = _sanitize(capsys, src, tmp_path / "r2", *common, "--min-utility", "-1e9")
    assert summ["after"]["n_public"] == 1
    proc = run_inproc(["sanitize", src, "-s", "s", "-x", "x", *common, "--lam", "-inf", "--out", tmp_path / "r3"], capsys)
    assert_one_line_error(proc, "--lam", "-inf", ">= 0")
    assert "expected one argument" not in proc.stderr and not (tmp_path / "r3").exists()


def test_corrupt_gzip_device_and_fifo_messages(tmp_path, capsys):
    data = bytearray(gzip.compress(b"s,x\n" + b"".join(b"a%d,%d\n" % (i, i) for i in range(2000))))
    data[40] ^= 0xFF
    (tmp_path / "bad.csv.gz").write_bytes(bytes(data))
    os.mkfifo(tmp_path / "pipe")
    for data, needle in ((tmp_path / "bad.csv.gz", "not a valid gzip file"), (os.devnull, "not a regular file"),
                         (tmp_path / "pipe", "named pipe")):
        proc = run_inproc(["analyze", data, "-s", "s", "-x", "x"], capsys)
        assert_one_line_error(proc, needle)
        assert "does not exist" not in proc.stderr and "utf-8" not in proc.stderr


@pytest.mark.parametrize("raw", [
    b'\xef\xbb\xbf"s","x"\r\na,1\r\na,2\r\nb,3\r\nb,4\r\n',
    b's,x,n\na,1"2,"q"""\nb,2,z"z\nb,3,\nc,4,\n',
    b's,x\ra,1\ra,2\rb,3\rb,4\r',
])
def test_sanitize_reads_what_analyze_reads(tmp_path, capsys, raw):
    src = tmp_path / "t.csv"
    src.write_bytes(raw)
    rep = _analyze_json(capsys, src)
    assert rep["range"]["n_public"] == 4
    summ = _sanitize(capsys, src, tmp_path / "rel", "--objective", "L0", "--utility", "U1", "--lam", "0")
    assert summ["rows"]["read"] == summ["rows"]["written"] == 4
    out = (tmp_path / "rel" / "sanitized.csv").read_bytes()
    from graphpriv.ingest import iter_batches

    before = [b.to_pydict() for b in iter_batches(src, None, raw=True)]
    after = [b.to_pydict() for b in iter_batches(tmp_path / "rel" / "sanitized.csv", None, raw=True)]
    mapping = json.loads((tmp_path / "rel" / "mapping.json").read_text())
    cols = before[0].keys()
    for c in cols:
        old = sum((b[c] for b in before), [])
        new = sum((b[c] for b in after), [])
        if c == "x":                     # the released value of each row, as mapping.json says
            released = {str(v["value"]): str(v["released"]) for v in mapping["values"]}
            assert new == [released[v] for v in old] and new != old
        else:
            assert new == old
    # the line ends and the byte-order mark are the input's
    assert out.startswith(raw[:3]) and out.count(b"\r") == raw.count(b"\r") and out.count(b"\n") == raw.count(b"\n")
