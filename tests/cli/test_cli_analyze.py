"""End-to-end tests of ``graphpriv analyze`` (run as a subprocess) and of the failure behaviour of the CLI.

Issue 7: row counts, range sizes, measures, components and min cut in a stable JSON schema; CSV,
Parquet and the bundled Hungarian data; every bad-input case gives one line on stderr, exit status 2
and leaves no output file behind.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import numpy as np
import pandas as pd
import pytest

import graphpriv as gp

ENV = {**os.environ, "MPLBACKEND": "Agg", "PYTHONWARNINGS": "ignore"}

REPORT_KEYS = {"schema_version", "graphpriv_version", "input", "rows", "range", "measures", "components", "min_cut"}
MEASURE_KEYS = {"unit", "H0_S", "H0_S_given_X", "I0", "L0", "B0", "k_anonymity", "I_star"}


def run_cli(*args, cwd=None) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "graphpriv.cli", *map(str, args)], capture_output=True, text=True,
                          cwd=cwd, env=ENV, timeout=120)


def run_inproc(argv, capsys) -> subprocess.CompletedProcess:
    """Run ``graphpriv.cli.main(argv)`` in this process (cheap checks; the required cases run as subprocesses)."""
    import logging

    from graphpriv.cli import main

    root, gplog = logging.getLogger(), logging.getLogger("graphpriv")
    saved = (root.level, list(root.handlers), gplog.level)
    capsys.readouterr()
    try:
        rc = main([str(a) for a in argv])
    except SystemExit as exc:          # --help
        rc = exc.code
    finally:                           # the CLI sets log levels: leave the test process as it was
        root.setLevel(saved[0])
        root.handlers[:] = saved[1]
        gplog.setLevel(saved[2])
    out, err = capsys.readouterr()
    return subprocess.CompletedProcess(argv, rc, out, err)


def assert_one_line_error(proc: subprocess.CompletedProcess, *needles: str) -> None:
    assert proc.returncode == 2, proc.stderr
    lines = [ln for ln in proc.stderr.splitlines() if ln.strip()]
    assert len(lines) == 1, proc.stderr
    assert lines[0].startswith("graphpriv: error: ")
    for n in needles:
        assert n.lower() in lines[0].lower(), (n, lines[0])
    assert "Traceback" not in proc.stderr


def only_inputs_left(folder: Path, inputs: set[str]) -> None:
    """No output file or temporary folder left next to the inputs."""
    assert {p.name for p in folder.iterdir()} == inputs


@pytest.fixture(scope="module")
def hungarian_csv(tmp_path_factory) -> Path:
    d = tmp_path_factory.mktemp("hung")
    df = gp.datasets.load_hungarian()
    path = d / "hungarian.csv"
    df.to_csv(path, index=False, na_rep="")
    return path


# ---------------------------------------------------------------------- happy paths
def test_analyze_bundled_hungarian_report(tmp_path):
    """Paper 003, Sec. VII-B: Hungarian S = age, X = chol, missing kept: 38 ages, 154 values, 2 components (I* = 1 bit)."""
    out = tmp_path / "rep"
    proc = run_cli("analyze", "hungarian", "--sensitive", "age", "--public", "chol", "--missing", "keep", "--out", out)
    assert proc.returncode == 0, proc.stderr
    assert "I*(S;X)  = 1.0000 bits" in proc.stdout
    rep = json.loads((out / "report.json").read_text())
    assert REPORT_KEYS <= set(rep) and rep["schema_version"] == 1
    assert set(rep["measures"]) == MEASURE_KEYS
    # 294 records as distributed (the exact duplicate is a record too); 23 missing cholesterol kept
    assert rep["rows"] == {"read": 294, "used": 294, "dropped": 0, "missing_sensitive": 0, "missing_public": 23}
    assert (rep["range"]["n_sensitive"], rep["range"]["n_public"], rep["range"]["n_pairs"]) == (38, 154, 281)
    assert rep["components"]["count"] == 2 and rep["measures"]["I_star"] == pytest.approx(1.0)
    assert rep["components"]["small"] == [{"public": [132], "sensitive": [28]}]      # age 28 / chol 132 isolated
    assert rep["min_cut"]["computed"] and rep["min_cut"]["value"] == 0 and rep["min_cut"]["side"] == [132]
    # same numbers as the library
    jr = gp.JointRange.from_dataframe(gp.datasets.load_hungarian(), sensitive="age", public="chol", missing="keep")
    assert rep["measures"]["L0"] == pytest.approx(gp.L0(jr)) and rep["measures"]["k_anonymity"] == gp.k_anonymity(jr)
    assert rep["measures"]["B0"] == pytest.approx(gp.B0(jr)) and rep["measures"]["I0"] == pytest.approx(gp.I0(jr))
    # report.md embeds every figure, which exists as PNG and PDF
    md = (out / "report.md").read_text()
    assert rep["figures"], "figures expected for a small range"
    for f in rep["figures"]:
        assert f"]({f['file']})" in md
        assert (out / f["file"]).stat().st_size > 0 and (out / f["pdf"]).stat().st_size > 0
    assert "data:image/png;base64," in (out / "report.html").read_text()
    only_inputs_left(tmp_path, {"rep"})


def test_analyze_csv_drop_counts_rows(hungarian_csv, tmp_path):
    proc = run_cli("analyze", hungarian_csv, "-s", "age", "-x", "chol", "--missing", "drop", "--json")
    assert proc.returncode == 0, proc.stderr
    rep = json.loads(proc.stdout)
    assert rep["rows"] == {"read": 294, "used": 271, "dropped": 23, "missing_sensitive": 0, "missing_public": 23}
    assert rep["range"]["n_public"] == 153
    assert rep["input"]["format"] == "csv" and rep["input"]["missing"] == "drop"


def test_analyze_parquet_matches_csv(tmp_path):
    rng = np.random.default_rng(1)
    df = pd.DataFrame({"s": rng.integers(0, 30, 500), "x": rng.integers(0, 400, 500), "other": rng.random(500)})
    df.to_parquet(tmp_path / "d.parquet", index=False)
    df.to_csv(tmp_path / "d.csv", index=False)
    reps = []
    for name in ("d.parquet", "d.csv"):
        proc = run_cli("analyze", tmp_path / name, "-s", "s", "-x", "x", "--json")
        assert proc.returncode == 0, proc.stderr
        reps.append(json.loads(proc.stdout))
    assert reps[0]["input"]["format"] == "parquet"
    for key in ("rows", "range", "measures", "components", "min_cut"):
        assert reps[0][key] == reps[1][key]
    jr = gp.JointRange.from_dataframe(df, sensitive="s", public="x")
    assert reps[0]["range"]["n_pairs"] == jr.n_pairs
    assert reps[0]["components"]["count"] == gp.n_components(jr)


def test_analyze_large_range_skips_explicit_cut(tmp_path):
    """Past --max-cut-edges decomposability comes from the components (G_X is not built for the cut)."""
    df = pd.DataFrame({"s": [0, 0, 0, 1, 1, 2], "x": [1, 2, 3, 3, 4, 5]})
    df.to_csv(tmp_path / "d.csv", index=False)
    proc = run_cli("analyze", tmp_path / "d.csv", "-s", "s", "-x", "x", "--max-cut-edges", "1", "--out", tmp_path / "r",
                   "--no-figures")
    assert proc.returncode == 0, proc.stderr
    rep = json.loads((tmp_path / "r" / "report.json").read_text())
    assert not rep["min_cut"]["computed"] and rep["min_cut"]["decomposable"] is True and rep["min_cut"]["value"] == 0
    assert "decomposable: yes (from components)" in proc.stdout
    assert rep["components"]["count"] == 2


def test_analyze_quiet_and_existing_out_dir(tmp_path, capsys):
    out = tmp_path / "r"
    out.mkdir()
    (out / "keep.txt").write_text("mine")
    args = ("analyze", "hungarian", "-s", "age", "-x", "chol", "--missing", "drop", "--out", out, "--no-figures")
    proc = run_cli("-q", *args)            # a folder graphpriv did not write is refused ...
    assert_one_line_error(proc, "not written by graphpriv", "--overwrite")
    assert sorted(p.name for p in out.iterdir()) == ["keep.txt"]
    proc = run_cli("-q", *args, "--overwrite")   # ... unless --overwrite: then replaced whole
    assert proc.returncode == 0 and proc.stdout == "" and proc.stderr == ""
    assert not (out / "keep.txt").exists() and (out / "report.json").exists()
    proc = run_cli("-q", *args)            # an earlier graphpriv output is replaced without --overwrite
    assert proc.returncode == 0 and proc.stderr == ""
    # -q after the sub-command works too
    proc = run_inproc(["analyze", "hungarian", "-s", "age", "-x", "chol", "--missing", "drop", "-q"], capsys)
    assert proc.returncode == 0 and proc.stdout == ""
    assert not [p for p in tmp_path.iterdir() if p.name.startswith(".")]


def test_help_has_examples(capsys):
    for cmd in ("analyze", "sanitize"):
        proc = run_inproc([cmd, "--help"], capsys)
        assert proc.returncode == 0
        assert "Examples:" in proc.stdout and f"graphpriv {cmd} hungarian" in proc.stdout
        for opt in ("--sensitive", "--public", "--missing", "--out", "--quiet", "--verbose"):
            assert opt in proc.stdout


def test_demo_still_works(capsys):
    proc = run_inproc(["demo"], capsys)
    assert proc.returncode == 0 and "I*(S;X)" in proc.stdout


# ---------------------------------------------------------------------- failure behaviour
#: The failure cases issue 7 lists, run as subprocesses for analyze.
REQUIRED_FAILURES = ("missing_file", "unknown_column", "empty_file", "malformed", "nan_default")


def failure_cases(tmp_path: Path) -> dict:
    """name -> (data path, column args, expected substrings of the one-line error); each in its own folder."""
    cases = {}

    def folder(name):
        d = tmp_path / name
        d.mkdir()
        return d

    d = folder("missing_file")
    cases["missing_file"] = (d / "nope.csv", ["-s", "a", "-x", "b"], ("nope.csv", "does not exist", "check the path"))
    d = folder("unknown_column")
    (d / "data.csv").write_text("a,b\n1,2\n")
    cases["unknown_column"] = (d / "data.csv", ["-s", "a", "-x", "zz"], ("unknown public column 'zz'", "['a', 'b']"))
    d = folder("empty_file")
    (d / "data.csv").write_text("")
    cases["empty_file"] = (d / "data.csv", ["-s", "a", "-x", "b"], ("is empty", "header"))
    d = folder("header_only")
    (d / "data.csv").write_text("a,b\n")
    cases["header_only"] = (d / "data.csv", ["-s", "a", "-x", "b"], ("no data rows",))
    d = folder("malformed")
    (d / "data.csv").write_text("a,b\n1,2\n3,4,5\n")
    cases["malformed"] = (d / "data.csv", ["-s", "a", "-x", "b"], ("not a well-formed csv", "line 3 has 3 field(s) but the header has 2", "--sep"))
    d = folder("nan_default")
    (d / "data.csv").write_text("a,b\n1,2\n,3\n4,NaN\n")
    cases["nan_default"] = (d / "data.csv", ["-s", "a", "-x", "b"], ("missing value", "--missing drop", "--missing keep"))
    d = folder("bad_sep")
    (d / "data.csv").write_text("a;b\n1;2\n")
    cases["bad_sep"] = (d / "data.csv", ["-s", "a", "-x", "b"], ("unknown sensitive column 'a'", "['a;b']"))
    d = folder("directory")
    (d / "sub").mkdir()
    cases["directory"] = (d / "sub", ["-s", "a", "-x", "b"], ("is a folder",))
    d = folder("bad_parquet")
    (d / "data.parquet").write_text("not parquet at all")
    cases["bad_parquet"] = (d / "data.parquet", ["-s", "a", "-x", "b"], ("not a readable parquet",))
    return cases


def run_many(argvs: list[list], width: int = 3) -> list[subprocess.CompletedProcess]:
    """Run several CLI subprocesses, ``width`` at a time (the suite runs on 2 cores)."""
    out = []
    for i in range(0, len(argvs), width):
        chunk = argvs[i:i + width]
        procs = [subprocess.Popen([sys.executable, "-m", "graphpriv.cli", *map(str, a)], stdout=subprocess.PIPE,
                                  stderr=subprocess.PIPE, text=True, env=ENV) for a in chunk]
        for a, p in zip(chunk, procs):
            so, se = p.communicate(timeout=120)
            out.append(subprocess.CompletedProcess(a, p.returncode, so, se))
    return out


def test_analyze_failures_one_line_exit2_no_output(tmp_path):
    """Issue 7: missing file, unknown column, empty file, malformed CSV, NaN with the default policy (and more):
    one line, exit 2, nothing written."""
    cases = {k: v for k, v in failure_cases(tmp_path).items() if k in REQUIRED_FAILURES}
    assert len(cases) == 5
    before = {name: {p.name for p in (tmp_path / name).iterdir()} for name in cases}
    argvs = [["analyze", data, *cols, "--out", tmp_path / name / "out"] for name, (data, cols, _) in cases.items()]
    for (name, (_, _, needles)), proc in zip(cases.items(), run_many(argvs)):
        assert_one_line_error(proc, *needles)
        only_inputs_left(tmp_path / name, before[name])


def test_more_failures_in_process(tmp_path, capsys):
    """Header without rows, wrong delimiter, a folder, a broken Parquet file: same contract, checked in-process."""
    cases = {k: v for k, v in failure_cases(tmp_path).items() if k not in REQUIRED_FAILURES}
    assert len(cases) == 4
    for name, (data, cols, needles) in cases.items():
        before = {p.name for p in (tmp_path / name).iterdir()}
        assert_one_line_error(run_inproc(["analyze", data, *cols, "--out", tmp_path / name / "out"], capsys), *needles)
        only_inputs_left(tmp_path / name, before)


def test_failure_leaves_existing_out_dir_untouched(tmp_path):
    out = tmp_path / "out"
    out.mkdir()
    (out / "report.json").write_text('{"old": true}')
    (tmp_path / "d.csv").write_text("a,b\n1,\n")
    proc = run_cli("analyze", tmp_path / "d.csv", "-s", "a", "-x", "b", "--out", out)
    assert_one_line_error(proc, "missing value")
    assert (out / "report.json").read_text() == '{"old": true}'
    assert sorted(p.name for p in out.iterdir()) == ["report.json"]
    only_inputs_left(tmp_path, {"out", "d.csv"})


def test_out_is_a_file(tmp_path, capsys):
    (tmp_path / "f").write_text("x")
    proc = run_inproc(["analyze", "hungarian", "-s", "age", "-x", "chol", "--missing", "keep", "--out", tmp_path / "f",
                       "--no-figures"], capsys)
    assert_one_line_error(proc, "not a folder", "--out")
    assert (tmp_path / "f").read_text() == "x"


def test_na_values_and_sep_options(tmp_path, capsys):
    (tmp_path / "d.tsv").write_text("a\tb\n1\t-\n2\t3\n")
    proc = run_inproc(["analyze", tmp_path / "d.tsv", "-s", "a", "-x", "b", "--na-values", "-", "--missing", "drop", "--json"],
                      capsys)
    assert proc.returncode == 0, proc.stderr
    rep = json.loads(proc.stdout)
    assert rep["rows"]["dropped"] == 1 and rep["range"]["n_pairs"] == 1
