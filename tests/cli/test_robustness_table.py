"""Table of hostile inputs to the command line: each with its expected exit code and first stderr line.

Inputs about output folders, reports, guards, traces and argument handling (the reading of CSV and
Parquet files has its own table in the ingest tests). Run in-process; every case leaves nothing behind
when it fails.
"""

from __future__ import annotations

import contextlib
import io
from pathlib import Path

import pytest

from graphpriv.cli import main

HUNGARIAN = ["hungarian", "-s", "age", "-x", "chol", "--missing", "keep"]
SANITIZE = ["--objective", "L0", "--utility", "U1"]


def _files(tmp: Path) -> dict:
    files = {
        "d.csv": b"s,x\n1,a\n2,b\n1,c\n",
        "long.csv": b"s,x\n1," + b"a" * 1_000_000 + b"\n2,b\n",
        "5k.csv": b"s,x\n1," + b"a" * 5_000 + b"\n2,b\n1,c\n",
        "u8.csv": "s,x\n1,é\n2,b\n".encode(),
    }
    for name, data in files.items():
        (tmp / name).write_bytes(data)
    (tmp / "foreign").mkdir()
    (tmp / "foreign" / "mine.txt").write_text("keep me")
    (tmp / "real").mkdir()
    (tmp / "link").symlink_to(tmp / "real", target_is_directory=True)
    (tmp / "afile").write_text("x")
    return files


# name: (argv (TMP = the case folder), exit code, start of stderr's first line or None, text the stderr line contains)
CASES = {
    "unknown option": (["analyze", *HUNGARIAN, "--bogus"], 2, "graphpriv: error: unrecognized arguments: --bogus",
                       "see 'graphpriv analyze --help'"),
    "missing required option": (["analyze", "hungarian", "-s", "age"], 2,
                                "graphpriv: error: the following arguments are required: -x/--public", "--help"),
    "bad choice": (["analyze", *HUNGARIAN[:5], "--missing", "maybe"], 2, "graphpriv: error: argument --missing: invalid choice",
                   "see 'graphpriv analyze --help'"),
    "unknown command": (["frobnicate"], 2, "graphpriv: error: argument COMMAND: invalid choice", "see 'graphpriv --help'"),
    "lam not a number": (["sanitize", *HUNGARIAN, *SANITIZE, "--lam", "abc"], 2,
                         "graphpriv: error: argument --lam: invalid float value", "see 'graphpriv sanitize --help'"),
    "lam negative": (["sanitize", *HUNGARIAN, *SANITIZE, "--lam", "-1", "--out", "TMP/o"], 2,
                     "graphpriv: error: --lam must be a finite number >= 0", "--help"),
    "lam nan": (["sanitize", *HUNGARIAN, *SANITIZE, "--lam", "nan", "--out", "TMP/o"], 2,
                "graphpriv: error: --lam must be a finite number >= 0", "--help"),
    "encoding rot13": (["analyze", "TMP/d.csv", "-s", "s", "-x", "x", "--encoding", "rot13"], 2,
                       "graphpriv: error: encoding='rot13' is a text-to-text or bytes-to-bytes codec", "--help"),
    "encoding unknown": (["analyze", "TMP/d.csv", "-s", "s", "-x", "x", "--encoding", "klingon"], 2,
                         "graphpriv: error: encoding='klingon' is not a known text encoding", "--help"),
    "encoding utf-16 on utf-8 bytes": (["analyze", "TMP/u8.csv", "-s", "s", "-x", "x", "--encoding", "utf-16"], 2,
                                       "graphpriv: error: ", "--encoding"),
    "out empty": (["analyze", *HUNGARIAN, "--out", ""], 2, "graphpriv: error: --out is empty", "--help"),
    "out blank": (["sanitize", *HUNGARIAN, *SANITIZE, "--lam", "1", "--out", "  "], 2, "graphpriv: error: --out is empty",
                  "--help"),
    "out a symlink": (["analyze", *HUNGARIAN, "--no-figures", "--out", "TMP/link"], 2,
                      "graphpriv: error: output path", "is a symbolic link"),
    "out a file": (["analyze", *HUNGARIAN, "--no-figures", "--out", "TMP/afile"], 2,
                   "graphpriv: error: output path", "exists and is not a folder"),
    "out a foreign folder": (["analyze", *HUNGARIAN, "--no-figures", "--out", "TMP/foreign"], 2,
                             "graphpriv: error: output folder", "not written by graphpriv"),
    "out the current folder": (["analyze", *HUNGARIAN, "--no-figures", "--out", "."], 2,
                               "graphpriv: error: output path", "names no folder of its own"),
    "max-cut-edges negative": (["analyze", *HUNGARIAN, "--max-cut-edges", "-5"], 2,
                               "graphpriv: error: --max-cut-edges must be >= 0", "--help"),
    "a 1 MB value": (["analyze", "TMP/long.csv", "-s", "s", "-x", "x", "-q", "--out", "TMP/r"], 2,
                     "graphpriv: error: column 'x' holds a value of 1000000 characters", "--help"),
    "a 5,000-character value": (["analyze", "TMP/5k.csv", "-s", "s", "-x", "x", "-q", "--out", "TMP/r"], 0, None, ""),
    "foreign folder with --overwrite": (["analyze", *HUNGARIAN, "-q", "--no-figures", "--overwrite", "--out", "TMP/foreign"],
                                        0, None, ""),
}


@pytest.mark.parametrize("name", list(CASES))
def test_cli_input_table(name, tmp_path):
    _files(tmp_path)
    argv, code, first, contains = CASES[name]
    argv = [a.replace("TMP", str(tmp_path)) for a in argv]
    before = sorted(p.name for p in tmp_path.iterdir())
    err = io.StringIO()
    with contextlib.redirect_stderr(err), contextlib.redirect_stdout(io.StringIO()):
        rc = main(argv)
    lines = err.getvalue().strip().splitlines()
    assert rc == code, (rc, err.getvalue())
    if code == 2:
        assert len(lines) == 1 and lines[0].startswith(first) and contains in lines[0], lines
        assert sorted(p.name for p in tmp_path.iterdir()) == before          # nothing written
        assert (tmp_path / "foreign" / "mine.txt").read_text() == "keep me"
    else:
        assert lines == [], lines
    if name == "a 5,000-character value":
        md = (tmp_path / "r" / "report.md").read_text()
        assert "(5000 characters)" in md and len(md) < 10_000                # the value is cut ...
        assert "- joint\\_range: a value is 5000 characters long" in md       # ... and the figures left out say why
    if name == "foreign folder with --overwrite":
        assert not (tmp_path / "foreign" / "mine.txt").exists() and (tmp_path / "foreign" / "report.json").exists()
