"""End-to-end tests of ``graphpriv sanitize`` (run as a subprocess), issue 7.

Checked: row count and order preserved, every other column untouched (byte-identical CSV text),
mapping consistent with the sanitised column, JSON schemas stable, privacy/utility as the library
computes them, λ chosen from the frontier, and every failure case: one line, exit 2, no output.
"""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pandas as pd
import pytest

import graphpriv as gp
from graphpriv._validation import MISSING

from test_cli_analyze import assert_one_line_error, failure_cases, only_inputs_left, run_cli, run_inproc, run_many

SUMMARY_KEYS = {"schema_version", "input", "objective", "utility", "lam", "lam_chosen_by", "privacy_measure", "before",
                "after", "rows", "frontier", "files"}
MAPPING_KEYS = {"schema_version", "public_column", "sensitive_column", "objective", "utility", "codeword", "missing_value",
                "values", "clusters"}


@pytest.fixture(scope="module")
def hungarian_csv(tmp_path_factory) -> Path:
    """The bundled table as a CSV with the UCI '?' for missing values."""
    d = tmp_path_factory.mktemp("hung")
    path = d / "hungarian.csv"
    gp.datasets.load_hungarian().to_csv(path, index=False, na_rep="?")
    return path


def raw_text(path: Path) -> pd.DataFrame:
    return pd.read_csv(path, dtype=str, keep_default_na=False, na_filter=False)


def test_sanitize_u1_min_utility_keep(hungarian_csv, tmp_path):
    out = tmp_path / "rel"
    proc = run_cli("sanitize", hungarian_csv, "-s", "age", "-x", "chol", "--missing", "keep", "--objective", "L0",
                   "--utility", "U1", "--min-utility", "3", "--out", out)
    assert proc.returncode == 0, proc.stderr
    assert "before:" in proc.stdout and "after:" in proc.stdout
    orig, san = raw_text(hungarian_csv), raw_text(out / "sanitized.csv")
    # same rows, same order, every other column byte-identical (including the '?' of other columns)
    assert len(san) == len(orig) == 294 and list(san.columns) == list(orig.columns)
    others = [c for c in orig.columns if c != "chol"]
    pd.testing.assert_frame_equal(san[others], orig[others])
    # mapping consistent with the sanitised column; missing cholesterol (kept) has a codeword too
    mapping = json.loads((out / "mapping.json").read_text())
    assert set(mapping) == MAPPING_KEYS and mapping["utility"] == "U1"
    cw = {v["value"]: v["codeword"] for v in mapping["values"]}
    for o, s in zip(orig["chol"], san["chol"]):
        key = None if o == "?" else int(float(o))
        assert s == str(cw[key])
    # clusters partition the public values and agree with the per-value list
    members = [m for c in mapping["clusters"] for m in c["members"]]
    assert sorted(members, key=str) == sorted(cw, key=str)
    for c in mapping["clusters"]:
        assert {cw[m] for m in c["members"]} == {c["codeword"]}
    # summary: the most private frontier point with U1 >= 3, numbers as the library gives them
    summ = json.loads((out / "summary.json").read_text())
    assert set(summ) == SUMMARY_KEYS and summ["schema_version"] == 1
    assert summ["after"]["utility"] >= 3 and summ["rows"]["written"] == 294
    ok = [p for p in summ["frontier"] if p["utility"] >= 3]
    assert summ["after"]["privacy"] == pytest.approx(min(p["privacy"] for p in ok))
    df = gp.datasets.load_hungarian()
    jr = gp.JointRange.from_dataframe(df, sensitive="age", public="chol", missing="keep")
    r = gp.agglomerate(jr, "L0", summ["lam"], "U1")
    assert r.privacy == pytest.approx(summ["after"]["privacy"]) and r.utility == pytest.approx(summ["after"]["utility"])
    assert summ["before"]["privacy"] == pytest.approx(gp.L0(jr)) and summ["before"]["I_star"] == pytest.approx(1.0)
    q = gp.quantize_range(jr, r.quantization)
    assert summ["after"]["L0"] == pytest.approx(gp.L0(q)) and summ["after"]["k_anonymity"] == gp.k_anonymity(q)
    # the trace round-trips and its returned step is the released quantisation
    tr = gp.MergeTrace.from_json((out / "trace.json").read_text())
    assert [set(c) for c in tr.quantization(tr.returned)] == [set(c) for c in r.quantization]
    for f in ("frontier.png", "frontier.pdf", "merges.gif"):
        assert (out / f).stat().st_size > 0 and f in summ["files"]
    only_inputs_left(tmp_path, {"rel"})


def test_sanitize_u2_centroids_drop_parquet(tmp_path):
    """U2 releases cluster centroids (paper 003, Sec. V-A); rows with missing X stay missing; Parquet in, Parquet out."""
    df = gp.datasets.load_hungarian()
    df["note"] = [f"p{i}" for i in range(len(df))]
    df.to_parquet(tmp_path / "h.parquet", index=False)
    out = tmp_path / "rel"
    proc = run_cli("sanitize", tmp_path / "h.parquet", "-s", "age", "-x", "chol", "--missing", "drop", "--objective", "I*",
                   "--utility", "U2", "--lam", "0.05", "--out", out, "--no-animation")
    assert proc.returncode == 0, proc.stderr
    san = pd.read_parquet(out / "sanitized.parquet")
    assert len(san) == len(df)
    pd.testing.assert_frame_equal(san.drop(columns="chol"), df.drop(columns="chol"))
    assert san["chol"].isna().sum() == df["chol"].isna().sum() == 23
    mapping = json.loads((out / "mapping.json").read_text())
    for c in mapping["clusters"]:
        assert c["codeword"] == pytest.approx(np.mean(c["members"]))
    cw = {v["value"]: v["codeword"] for v in mapping["values"]}
    keep = df["chol"].notna()
    assert np.allclose(san.loc[keep, "chol"].to_numpy(float), [cw[int(v)] for v in df.loc[keep, "chol"]])
    summ = json.loads((out / "summary.json").read_text())
    assert summ["after"]["I_star"] == pytest.approx(0.0)        # Algorithm 2 joins the isolated (28, 132)
    assert summ["rows"]["dropped_from_analysis"] == 23 and "merges.gif" not in summ["files"]
    jr = gp.JointRange.from_dataframe(df, sensitive="age", public="chol", missing="drop")
    r = gp.agglomerate(jr, "I*", 0.05, "U2", "labels")
    assert summ["after"]["utility"] == pytest.approx(r.utility)


def test_sanitize_paper_example_u2(tmp_path):
    """Paper 003 Fig. 1 with the eq. (4) values as the public column; Section V-C always releases I* = 0."""
    jr, values = gp.datasets.paper_example()
    rows = [(s, values[x], f"r{i}") for i, (s, x) in enumerate(jr.pairs())]
    pd.DataFrame(rows, columns=["s", "x", "id"]).to_csv(tmp_path / "fig1.csv", index=False)
    proc = run_cli("sanitize", tmp_path / "fig1.csv", "-s", "s", "-x", "x", "--objective", "L0|I*=0", "--utility", "U2",
                   "--lam", "1", "--out", tmp_path / "rel", "--no-animation")
    assert proc.returncode == 0, proc.stderr
    summ = json.loads((tmp_path / "rel" / "summary.json").read_text())
    assert summ["after"]["I_star"] == 0.0 and summ["before"]["I_star"] == pytest.approx(np.log2(5))
    jrv = gp.JointRange.from_pairs([r[0] for r in rows], [r[1] for r in rows])
    r = gp.agglomerate(jrv, "L0|I*=0", 1.0, "U2", "labels")
    assert summ["after"]["privacy"] == pytest.approx(r.privacy) and summ["after"]["utility"] == pytest.approx(r.utility)
    san = raw_text(tmp_path / "rel" / "sanitized.csv")
    assert list(san["id"]) == [r[2] for r in rows]


def _sanitize_failure_cases(tmp_path: Path) -> dict:
    common = failure_cases(tmp_path)      # all of them are covered for analyze; sanitize shares the reader
    cases = {k: common[k] for k in ("missing_file", "nan_default")}
    d = tmp_path / "non_numeric_u2"
    d.mkdir()
    (d / "data.csv").write_text("a,b\n1,red\n2,blue\n")
    cases["non_numeric_u2"] = (d / "data.csv", ["-s", "a", "-x", "b"], ("non-numeric", "'b'", "--utility U1"))
    d = tmp_path / "keep_u2"
    d.mkdir()
    (d / "data.csv").write_text("a,b\n1,3\n2,\n")
    cases["keep_u2"] = (d / "data.csv", ["-s", "a", "-x", "b", "--missing", "keep"], ("missing", "--missing drop"))
    d = tmp_path / "too_high"
    d.mkdir()
    (d / "data.csv").write_text("a,b\n1,3\n2,4\n")
    cases["too_high"] = (d / "data.csv", ["-s", "a", "-x", "b", "--min-utility", "5"], ("--min-utility", "lower the threshold"))
    d = tmp_path / "neg_lam"
    d.mkdir()
    (d / "data.csv").write_text("a,b\n1,3\n2,4\n")
    cases["neg_lam"] = (d / "data.csv", ["-s", "a", "-x", "b", "--lam=-1"], ("--lam", ">= 0"))
    return cases


def _argv(name, data, cols, tmp_path):
    lam = [] if any(c.startswith(("--lam", "--min-utility")) for c in cols) else ["--lam", "0.5"]
    return ["sanitize", data, *cols, "--objective", "I*", "--utility", "U2", *lam, "--out", tmp_path / name / "out"]


def test_sanitize_failures_one_line_exit2_no_output(tmp_path, capsys):
    """Issue 7 failure cases for sanitize (missing file, NaN with the default policy, non-numeric values with
    U2) as subprocesses; U2 with kept missing values, an unreachable --min-utility and a negative λ in-process.
    Each: one line, exit 2, nothing written."""
    cases = _sanitize_failure_cases(tmp_path)
    before = {name: {p.name for p in (tmp_path / name).iterdir()} for name in cases}
    sub = ("missing_file", "nan_default", "non_numeric_u2")
    procs = dict(zip(sub, run_many([_argv(n, *cases[n][:2], tmp_path) for n in sub])))
    for name in cases:
        if name not in procs:
            procs[name] = run_inproc(_argv(name, *cases[name][:2], tmp_path), capsys)
    for name, (_, _, needles) in cases.items():
        assert_one_line_error(procs[name], *needles)
        only_inputs_left(tmp_path / name, before[name])
