"""Legitimate tables that ``graphpriv sanitize`` refused or crashed on: each is released and audited now.

Every case failed before these fixes: two spellings of a kept missing value, a Parquet NaN under
``--missing drop``, float32 codewords, decimal columns, ``string_view`` text, values beyond what a 64-bit
float holds, unusual pandas metadata, and timestamp, date, time and duration columns. A table that truly
cannot be released gives one clear line and exit 2. The command-line errors at the end (an unwritable
stderr, Ctrl-C while the command starts) exited 1, printed a traceback or ran on.
"""

from __future__ import annotations

import datetime
import decimal
import json
import os
import signal
import subprocess
import sys
from pathlib import Path

import numpy as np
import pyarrow as pa
import pyarrow.parquet as pq
import pytest

from test_cli_analyze import assert_one_line_error, run_inproc

ROOT = Path(__file__).resolve().parents[2]
S = ["a", "a", "b", "b", "c", "c", "d", "d"]


def _parquet(path: Path, column, metadata=None) -> Path:
    t = pa.table({"s": pa.array(S[:len(column)]), "x": column})
    if metadata is not None:
        t = t.replace_schema_metadata(metadata)
    pq.write_table(t, path)
    return path


def _sanitize(capsys, data, out, *opts):
    return run_inproc(["sanitize", data, "-s", "s", "-x", "x", "--no-animation", "--no-explorer", "-q", "--out", out,
                       *opts], capsys)


def _released(capsys, data, out, *opts) -> dict:
    proc = _sanitize(capsys, data, out, *opts)
    assert proc.returncode == 0, proc.stderr
    summary = json.loads((out / "summary.json").read_text())
    assert summary["audit"]["verified"] is True
    return summary


U1 = ("--objective", "L0", "--utility", "U1", "--lam", "0.5")
U2 = ("--objective", "L0", "--utility", "U2", "--lam", "0.1")


# ---------------------------------------------------------------------- missing values as written
@pytest.mark.parametrize("spellings", [("", "NA"), ("nan", "NaN")])
def test_missing_kept_in_two_spellings_stays_as_written(tmp_path, capsys, spellings):
    """With --missing keep the missing value is one symbol; released unchanged, each cell keeps its spelling."""
    a, b = spellings
    src = tmp_path / "m.csv"
    src.write_text(f"s,x\na,1\na,{a}\nb,{b}\nb,2\nc,3\nc,1\nd,5\nd,6\n")
    _released(capsys, src, tmp_path / "r", "--missing", "keep", "--objective", "L0", "--utility", "U1", "--lam", "2")
    rows = (tmp_path / "r" / "sanitized.csv").read_text().splitlines()
    assert rows[2] == f"a,{a}" and rows[3] == f"b,{b}"


def test_parquet_nan_under_missing_drop_stays_nan(tmp_path, capsys):
    """A NaN public value is missing; with --missing drop its row is left as it was: NaN stays NaN in a
    codeword release (the column keeps its type) and becomes null only where the column becomes text."""
    x = pa.array([1.0, float("nan"), 2.0, 3.0, 1.5, 2.5, 7.0, 8.0])
    src = _parquet(tmp_path / "nan.parquet", x)
    _released(capsys, src, tmp_path / "r2", "--missing", "drop", *U2)
    col = pq.read_table(tmp_path / "r2" / "sanitized.parquet").column("x").combine_chunks()
    assert col.type == pa.float64() and col.null_count == 0 and np.isnan(col.to_numpy()[1])
    _released(capsys, src, tmp_path / "r1", "--missing", "drop", *U1)
    col = pq.read_table(tmp_path / "r1" / "sanitized.parquet").column("x")
    assert pa.types.is_string(col.type) and col[1].as_py() is None


# ---------------------------------------------------------------------- numeric types
def test_float32_codewords_round_trip(tmp_path, capsys):
    x = pa.array([1.1, 1.3, 2.7, 3.3, 1.7, 2.9, 7.1, 8.3], pa.float32())
    src = _parquet(tmp_path / "f32.parquet", x)
    summary = _released(capsys, src, tmp_path / "r", *U2)
    col = pq.read_table(tmp_path / "r" / "sanitized.parquet").column("x")
    assert col.type == pa.float32()
    mapping = json.loads((tmp_path / "r" / "mapping.json").read_text())
    released = {c["released"] for c in mapping["clusters"] if c["size"] > 1}
    assert released and all(len(repr(v)) <= 8 for v in released), released       # 2.5, not 2.5000000476837
    assert {float(np.float32(v)) for v in released} <= set(col.to_pylist())
    assert mapping["values"][0]["value"] == 1.1                                     # the label as written
    assert summary["after"]["n_public"] < 8


@pytest.mark.parametrize("arrow_type", [pa.decimal128(6, 2), pa.decimal256(40, 2)])
@pytest.mark.parametrize("utility", ["U1", "U2"])
def test_decimal_columns(tmp_path, capsys, arrow_type, utility):
    x = pa.array([decimal.Decimal(v) for v in ["1.10", "1.30", "2.70", "3.30", "1.70", "2.90", "7.10", "8.30"]],
                 arrow_type)
    src = _parquet(tmp_path / "d.parquet", x)
    _released(capsys, src, tmp_path / "r", *(U1 if utility == "U1" else U2))
    col = pq.read_table(tmp_path / "r" / "sanitized.parquet").column("x")
    if utility == "U2":
        assert col.type == arrow_type                       # codewords in the column's own type
    else:
        assert "[1.1, 1.3]" in col.to_pylist() or any(v.startswith(("[", "{")) for v in col.to_pylist())


def test_string_view_columns(tmp_path, capsys):
    src = _parquet(tmp_path / "sv.parquet", pa.array(list("pqrstuvw"), pa.string_view()))
    _released(capsys, src, tmp_path / "r", "--objective", "L0", "--utility", "U1", "--lam", "0")
    pq.write_table(pa.table({"s": pa.array(S, pa.string_view()), "x": pa.array(list("pqrstuvw"), pa.string_view())}),
                   tmp_path / "sv2.parquet")
    summary = _released(capsys, tmp_path / "sv2.parquet", tmp_path / "r2", "--objective", "L0", "--utility", "U1",
                        "--lam", "0")
    assert summary["after"]["n_public"] < 8
    assert pq.read_schema(tmp_path / "r2" / "sanitized.parquet").field("s").type == pa.string_view()


@pytest.mark.parametrize("column, needle", [
    (pa.array([1e308, 1.5e308, -1e308, 1.7e308, 1e308, 2, 3, 4.0]), "64-bit float"),
    (pa.array([2**64 - 1, 2**64 - 2, 2**64 - 5, 2**64 - 9, 2**64 - 1, 3, 5, 9], pa.uint64()), "2^53"),
    (pa.array([2**64 - 2048, 2**64 - 4096, 2**64 - 6144, 2**64 - 8192, 2**64 - 2048, 3, 5, 9], pa.uint64()), "2^53"),
])
@pytest.mark.parametrize("objective", ["L0", "I*", "L0|I*=0"])
def test_numbers_beyond_a_float_with_u2_are_one_clear_line(tmp_path, capsys, column, needle, objective):
    """U2 measures distances and centroids in 64-bit floats: values whose distances overflow, or integers
    a float does not hold exactly, are refused up front (U1 releases them)."""
    src = _parquet(tmp_path / "big.parquet", column)
    proc = _sanitize(capsys, src, tmp_path / "r", "--objective", objective, "--utility", "U2", "--lam", "0")
    assert_one_line_error(proc, needle, "--utility U1")
    assert not (tmp_path / "r").exists()
    _released(capsys, src, tmp_path / "r1", "--objective", objective, "--utility", "U1", "--lam", "0")


# ---------------------------------------------------------------------- metadata
@pytest.mark.parametrize("meta", [b'{"columns": null, "index_columns": 5}', b"[1, 2]", b"not json",
                                  b'{"columns": [1, null, {"name": 3}, {"name": "x", "field_name": "x"}]}'])
def test_unusual_pandas_metadata(tmp_path, capsys, meta):
    src = _parquet(tmp_path / "p.parquet", pa.array([1, 2, 3, 4, 1, 5, 7, 8]), {b"pandas": meta})
    _released(capsys, src, tmp_path / "r", *U1)
    assert pa.types.is_string(pq.read_schema(tmp_path / "r" / "sanitized.parquet").field("x").type)


# ---------------------------------------------------------------------- time
TIMES = {
    "timestamp": pa.array([datetime.datetime(2020, 1, d) for d in (1, 2, 3, 4, 1, 5, 7, 8)], pa.timestamp("us")),
    "timestamp-tz": pa.array([datetime.datetime(2020, 1, d) for d in (1, 2, 3, 4, 1, 5, 7, 8)], pa.timestamp("s", "UTC")),
    "date": pa.array([datetime.date(2020, 1, d) for d in (1, 2, 3, 4, 1, 5, 7, 8)], pa.date32()),
    "time": pa.array([datetime.time(h) for h in (1, 2, 3, 4, 1, 5, 7, 8)], pa.time64("us")),
    "duration": pa.array([1000 * i for i in (1, 2, 3, 4, 1, 5, 7, 8)], pa.duration("ms")),
}


@pytest.mark.parametrize("kind", sorted(TIMES))
def test_time_columns_are_released(tmp_path, capsys, kind):
    src = _parquet(tmp_path / "t.parquet", TIMES[kind])
    summary = _released(capsys, src, tmp_path / "r", "--objective", "L0", "--utility", "U1", "--lam", "0")
    assert summary["after"]["n_public"] < summary["before"]["n_public"]
    mapping = json.loads((tmp_path / "r" / "mapping.json").read_text())
    first = mapping["values"][0]["value"]
    assert first in ("2020-01-01", "2020-01-01 00:00:00", "2020-01-01 00:00:00+00:00", "01:00:00", 1000), first


def test_time_columns_with_u2_name_the_option(tmp_path, capsys):
    src = _parquet(tmp_path / "t.parquet", TIMES["timestamp"])
    proc = _sanitize(capsys, src, tmp_path / "r", "--objective", "L0", "--utility", "U2", "--lam", "0")
    assert_one_line_error(proc, "--utility U1", "intervals of time")


@pytest.mark.parametrize("kind, first, last", [("date", "2020-01-03", "2020-01-07"),
                                               ("timestamp", "2020-01-03 00:00:00", "2020-01-07 00:00:00")])
def test_consecutive_times_are_released_as_intervals_of_time(tmp_path, capsys, kind, first, last):
    """Days 3, 4, 5 and 7 (no day 6) seen with one sensitive value merge into [day 3, day 7]; days 1, 2
    and 8 into a set (days 3-7 lie between them)."""
    days = (1, 2, 3, 4, 1, 5, 7, 8)
    col = (pa.array([datetime.date(2020, 1, d) for d in days], pa.date32()) if kind == "date" else
           pa.array([datetime.datetime(2020, 1, d) for d in days], pa.timestamp("us")))
    pq.write_table(pa.table({"s": list("aaabbbcc"), "x": col}), tmp_path / "t.parquet")
    _released(capsys, tmp_path / "t.parquet", tmp_path / "r", "--objective", "L0", "--utility", "U1", "--lam", "0.2")
    out = pq.read_table(tmp_path / "r" / "sanitized.parquet").column("x").to_pylist()
    assert out[2] == f"[{first}, {last}]"
    assert out[0].startswith("{") and first not in out[0]


# ---------------------------------------------------------------------- command-line errors
def _env():
    env = dict(os.environ, MPLBACKEND="Agg", PYTHONPATH=str(ROOT) + os.pathsep + os.environ.get("PYTHONPATH", ""))
    env.pop("PYTHONWARNINGS", None)
    return env


@pytest.mark.parametrize("argv", [["analyze", "no-such.csv", "-s", "a", "-x", "b"], ["analyze", "--bogus"],
                                  ["sanitize", "hungarian", "-s", "age", "-x", "chol", "--objective", "L0",
                                   "--utility", "U1", "--lam", "-1"]])
def test_user_error_with_stderr_unwritable_still_exits_2(tmp_path, argv):
    with open("/dev/full", "w") as full:
        proc = subprocess.run([sys.executable, "-m", "graphpriv.cli", *argv], cwd=tmp_path, env=_env(), stderr=full,
                              stdout=subprocess.DEVNULL, timeout=120)
    assert proc.returncode == 2


START = """
import os, signal, sys, time
sys.argv[0] = "graphpriv"
from graphpriv._startup import interrupt_guard
with interrupt_guard():
    try:
        os.kill(os.getpid(), signal.SIGINT)
        time.sleep(5)
    except KeyboardInterrupt as exc:
        if {mode!r} == "converted":
            raise ImportError("scipy.optimize: HiGHS could not be imported") from exc
print("ran on")
"""


@pytest.mark.parametrize("mode", ["converted", "swallowed"])
def test_ctrl_c_while_starting_converted_or_swallowed_by_a_library(tmp_path, mode):
    """scipy turns a KeyboardInterrupt inside its HiGHS import into an ImportError; another library may
    swallow it. Either way the command stops with one line and status 130 (the signal is recorded)."""
    proc = subprocess.run([sys.executable, "-c", START.format(mode=mode)], cwd=tmp_path, env=_env(), capture_output=True,
                          text=True, timeout=60, preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL))
    assert proc.returncode == 130, proc.stderr
    assert proc.stderr.strip() == "graphpriv: interrupted while starting; nothing was written"
    assert "ran on" not in proc.stdout


def test_ctrl_c_after_the_imports_before_main(tmp_path):
    """SIGINT between the package imports and main() installing its handler: recorded, main stops at once."""
    code = ("import os, signal, sys\nsys.argv[0] = 'graphpriv'\nimport graphpriv\nos.kill(os.getpid(), signal.SIGINT)\n"
            "from graphpriv.cli import main\nsys.exit(main(['demo']))\n")
    proc = subprocess.run([sys.executable, "-c", code], cwd=tmp_path, env=_env(), capture_output=True, text=True,
                          timeout=120, preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL))
    assert proc.returncode == 130, proc.stderr
    assert proc.stderr.strip() == "graphpriv: interrupted"
    assert os.listdir(tmp_path) == []
