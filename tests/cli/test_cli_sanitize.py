"""End-to-end tests of ``graphpriv sanitize`` (run as a subprocess or in-process).

Checked: row count and order preserved, every other column and every unchanged field untouched
(byte-identical CSV, Parquet schema kept), generalisation labels / rounded codewords / ids as
released values, the mapping document valid against its JSON Schema and round-tripping
(``Release.from_json(mapping).transform(original) == released column``), privacy/utility as the
library computes them, λ chosen from the frontier, a no-op run, the streamed writer against the
in-memory transform, and every failure case: one line, exit 2, no output.
"""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pandas as pd
import pytest

import graphpriv as gp
from graphpriv._validation import MISSING

from test_cli_analyze import ENV, assert_one_line_error, failure_cases, only_inputs_left, run_cli, run_inproc, run_many

SUMMARY_KEYS = {"schema_version", "input", "objective", "utility", "release", "lam", "lam_chosen_by", "privacy_measure",
                "noop", "before", "after", "mechanism", "audit", "rows", "frontier", "files", "skipped"}
MAPPING_KEYS = {"schema_version", "public_column", "sensitive_column", "objective", "utility", "release", "decimals",
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
    # mapping consistent with the sanitised column: merged values -> their cluster's label, others untouched
    mapping = json.loads((out / "mapping.json").read_text())
    assert set(mapping) == MAPPING_KEYS and mapping["utility"] == "U1" and mapping["release"] == "label"
    gp.validate_mapping(mapping)
    rel = {v["value"]: (v["released"], v["changed"]) for v in mapping["values"]}
    n_changed = 0
    for o, s in zip(orig["chol"], san["chol"]):
        released, changed = rel[None if o == "?" else o]   # values are the file's text ('132.0' as pandas wrote it)
        assert s == (released if changed else o)            # an unchanged field keeps its exact text
        n_changed += changed
    assert n_changed > 0
    labels = {c["released"] for c in mapping["clusters"] if c["size"] > 1}
    assert all(lab.startswith(("[", "{")) for lab in labels)
    # clusters partition the public values and agree with the per-value list
    members = [m for c in mapping["clusters"] for m in c["members"]]
    assert sorted(members, key=str) == sorted(rel, key=str)
    for c in mapping["clusters"]:
        assert {rel[m][0] for m in c["members"]} == {c["released"]}
    # summary: the most private frontier point with U1 >= 3, numbers as the library gives them
    summ = json.loads((out / "summary.json").read_text())
    assert set(summ) == SUMMARY_KEYS and summ["schema_version"] == 2 and summ["noop"] is False
    assert summ["after"]["utility"] >= 3 and summ["rows"]["written"] == 294
    ok = [p for p in summ["frontier"] if p["utility"] >= 3]
    assert summ["after"]["privacy"] == pytest.approx(min(p["privacy"] for p in ok))
    jr = gp.read_joint_range(hungarian_csv, "age", "chol", missing="keep")      # the same file, labels as written
    bundled = gp.JointRange.from_dataframe(gp.datasets.load_hungarian(), sensitive="age", public="chol", missing="keep")
    assert jr.shape == bundled.shape and gp.L0(jr) == pytest.approx(gp.L0(bundled))
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
    assert san["chol"].dtype == df["chol"].dtype                 # codewords of a float column stay floats
    mapping = json.loads((out / "mapping.json").read_text())
    assert mapping["release"] == "codeword" and mapping["decimals"] == 0      # whole numbers: rounded to 0 decimals
    for c in mapping["clusters"]:
        assert c["released"] == round(np.mean(c["members"]))
    cw = {v["value"]: v["released"] for v in mapping["values"]}
    keep = df["chol"].notna()
    assert np.allclose(san.loc[keep, "chol"].to_numpy(float), [cw[int(v)] for v in df.loc[keep, "chol"]])
    # round trip: the documented mapping applied to the original column gives the released column
    back = gp.Release.from_json((out / "mapping.json").read_text())
    pd.testing.assert_series_equal(back.transform(df["chol"]), san["chol"])
    summ = json.loads((out / "summary.json").read_text())
    assert summ["after"]["I_star"] == pytest.approx(0.0)        # Algorithm 2 joins the isolated (28, 132)
    assert summ["rows"]["dropped_from_analysis"] == 23 and "merges.gif" not in summ["files"]
    jr = gp.JointRange.from_dataframe(df, sensitive="age", public="chol", missing="drop")
    r = gp.agglomerate(jr, "I*", 0.05, "U2", "labels")
    # the mechanism's U2 (centroid 130.5) beside the audited one (the released codeword 130)
    assert summ["mechanism"]["utility"] == pytest.approx(r.utility) == -1.5
    assert summ["after"]["utility"] == _released_u2(mapping) == -2.0
    assert "centroid 130.5 released as 130" in summ["audit"]["differences"][0]["reason"]


def _released_u2(mapping: dict) -> float:
    """U2 of a codeword release recomputed from its mapping: -max |member - released codeword|."""
    return -max(max(abs(float(m) - float(c["released"])) for m in c["members"]) for c in mapping["clusters"])


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
    assert summ["after"]["privacy"] == pytest.approx(r.privacy)
    assert summ["mechanism"]["utility"] == pytest.approx(r.utility)
    mapping = json.loads((tmp_path / "rel" / "mapping.json").read_text())
    assert summ["after"]["utility"] == pytest.approx(_released_u2(mapping))
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


# ---------------------------------------------------------------------- faithful, streamed releases
AWKWARD = (
    'id,s,x,note,big,ratio,blank\r\n'
    '007,a,10,"comma, inside",9007199254740993,0.10,\r\n'
    '008,a,11,"line\nbreak",9007199254740993,0.10,NA\r\n'
    '\r\n'
    '009,b,12,"quote ""q""",1,1.50,""\r\n'
    '010,b,13,plain,2,2.00,\r\n'
    '011,c,30,x,3,0.10,NA\r\n'
    '012,c,31,"",4,0.10,\r\n'
    '013,d,30,"a,b",5,0.30,'
)


def _sanitize_inproc(capsys, *argv):
    proc = run_inproc(["sanitize", *argv, "--no-animation"], capsys)
    assert proc.returncode == 0, proc.stderr
    return proc


def test_sanitize_csv_byte_faithful_round_trip(tmp_path, capsys):
    """Only the rewritten public fields change: every other byte (leading zeros, 2**53+1, "0.10", "" vs NA,
    quoted commas, newlines and quotes, CRLF, a blank line, no final newline) is copied."""
    src = tmp_path / "awk.csv"
    src.write_bytes(AWKWARD.encode())
    _sanitize_inproc(capsys, src, "-s", "s", "-x", "x", "--objective", "I*", "--utility", "U1", "--lam", "0",
                     "--out", tmp_path / "rel")
    out = (tmp_path / "rel" / "sanitized.csv").read_bytes()
    mapping = json.loads((tmp_path / "rel" / "mapping.json").read_text())
    gp.validate_mapping(mapping)
    rel = {str(v["value"]): v for v in mapping["values"]}
    assert any(v["changed"] for v in rel.values())
    # expected bytes: the input with the x field of each changed record replaced (CSV-quoted label)
    expected = AWKWARD
    for x in ("10", "11", "12", "13", "30", "31"):
        if rel[x]["changed"]:
            lab = rel[x]["released"]
            field = f'"{lab}"' if "," in lab else lab
            expected = expected.replace(f",{x},", f",{field},")
    assert out == expected.encode()
    # and nothing but x differs, record by record, as Python's csv module reads them
    import csv
    import io

    a = list(csv.reader(io.StringIO(AWKWARD, newline="")))
    b = list(csv.reader(io.StringIO(out.decode(), newline="")))
    assert len(a) == len(b)
    for ra, rb in zip(a, b):
        assert ra[:2] == rb[:2] and ra[3:] == rb[3:]
    summ = json.loads((tmp_path / "rel" / "summary.json").read_text())
    assert summ["rows"]["read"] == summ["rows"]["written"] == 7


def test_sanitize_parquet_schema_round_trip(tmp_path, capsys):
    """Nullable int64 beyond 2**53, int8, decimal(38,2), field and schema metadata: unchanged; the public
    column keeps its int type under codewords and ids and becomes text under labels."""
    import decimal

    import pyarrow as pa
    import pyarrow.parquet as pq

    n = 40
    rng = np.random.default_rng(0)
    s = rng.integers(0, 4, n)
    x = (s * 10 + rng.integers(0, 3, n)).astype(np.int64)
    x[3] = 37                                                     # (3, 37) alone: Algorithm 2 must merge
    big = pa.array([2**53 + 1 if i % 3 else None for i in range(n)], type=pa.int64())
    dec = pa.array([decimal.Decimal(f"{i}.{i % 100:02d}") for i in range(n)], type=pa.decimal128(38, 2))
    schema = pa.schema([pa.field("s", pa.int8(), nullable=False), pa.field("x", pa.int64(), metadata={b"unit": b"mg/dl"}),
                        pa.field("big", pa.int64()), pa.field("amount", dec.type, metadata={b"k": b"v"})],
                       metadata={b"origin": b"test"})
    table = pa.table([pa.array(s, type=pa.int8()), pa.array(x), big, dec], schema=schema)
    pq.write_table(table, tmp_path / "t.parquet")
    for mode, xtype in (("codeword", pa.int64()), ("id", pa.int64()), ("label", pa.string())):
        out = tmp_path / mode
        _sanitize_inproc(capsys, tmp_path / "t.parquet", "-s", "s", "-x", "x", "--objective", "I*", "--utility", "U2",
                         "--lam", "0", "--release", mode, "--out", out)
        got = pq.read_table(out / "sanitized.parquet")
        assert got.schema.metadata == schema.metadata
        for name in ("s", "big", "amount"):
            assert got.schema.field(name) == schema.field(name) and got.schema.field(name).metadata == schema.field(name).metadata
            assert got.column(name).equals(table.column(name))
        assert got.schema.field("x").type == xtype and got.schema.field("x").metadata == schema.field("x").metadata
        back = gp.Release.from_json((out / "mapping.json").read_text())
        want = back.transform(pd.Series(x)).tolist()
        if mode == "label":                                       # one Parquet type: untouched numbers as text
            from graphpriv.release_writer import released_text

            want = [released_text(v) for v in want]
            assert any(v.startswith("[") or v.startswith("{") for v in want) and "31" in want
        assert got.column("x").to_pylist() == want
        assert got.column("big").to_pylist()[1] == 2**53 + 1


def test_sanitize_streamed_equals_in_memory(tmp_path):
    """The block-wise CSV writer (tiny blocks, so records and quoted fields straddle block edges) gives
    the same bytes as one block, and row for row the in-memory transform of the public column."""
    import csv
    import io

    from graphpriv.release_writer import batches_of, released_text, write_csv_release

    rng = np.random.default_rng(1)
    n = 500
    xs = rng.integers(0, 40, n)
    notes = ['"a,b"', '"x\ny"', "plain", '""', "007", '"q""q"']
    lines = ["s,x,note"] + [f"{rng.integers(0, 9)},{xv},{notes[i % len(notes)]}" for i, xv in enumerate(xs)]
    src = tmp_path / "t.csv"
    src.write_text("\n".join(lines) + "\n")
    df = pd.read_csv(src)
    jr = gp.JointRange.from_dataframe(df, sensitive="s", public="x")
    r = gp.agglomerate(jr, "I*", 0.0)
    rel = gp.Release.from_result(r)
    from graphpriv.cli.sanitize import row_codes

    codes = row_codes(rel, df["x"])
    texts = [released_text(rel.released[k]) for k in rel.cluster.tolist()]
    replaced = rel.changed[rel.cluster]
    outs = []
    for bs, chunk in ((1 << 20, 1 << 20), (17, 7), (64, 100)):
        dst = tmp_path / f"o{bs}.csv"
        stats = write_csv_release(src, dst, "x", batches_of(codes, chunk), replaced, texts, block_size=bs)
        assert stats["read"] == stats["written"] == n
        outs.append(dst.read_bytes())
    assert outs[0] == outs[1] == outs[2]
    rows = list(csv.reader(io.StringIO(outs[0].decode(), newline="")))[1:]
    expect = rel.transform(df["x"])
    assert [r_[1] for r_ in rows] == [released_text(v) for v in expect.tolist()]
    orig_rows = list(csv.reader(io.StringIO(src.read_text(), newline="")))[1:]
    assert [r_[0::2] for r_ in rows] == [o[0::2] for o in orig_rows]


def test_sanitize_noop_run_says_so(tmp_path, capsys, caplog):
    """I* already 0: nothing merged -- said on stderr and in the summary, the table copied, no animation."""
    src = tmp_path / "c.csv"
    src.write_text("s,x\na,1\na,2\nb,2\nb,3\n")
    proc = run_inproc(["sanitize", src, "-s", "s", "-x", "x", "--objective", "I*", "--utility", "U1", "--lam", "0",
                       "--out", tmp_path / "rel"], capsys)
    assert proc.returncode == 0, proc.stderr
    said = proc.stderr + caplog.text                  # in-process, pytest captures the log records
    assert "nothing to merge" in said and "I* is already 0" in said
    assert "nothing merged, the table is unchanged" in proc.stdout
    summ = json.loads((tmp_path / "rel" / "summary.json").read_text())
    assert summ["noop"] is True and "merges.gif" not in summ["files"] and not (tmp_path / "rel" / "merges.gif").exists()
    # what was not drawn is listed with why (no picture is left out silently)
    assert {s["file"]: s["reason"] for s in summ["skipped"]}.get("merges.gif", "").startswith("nothing was merged")
    assert (tmp_path / "rel" / "sanitized.csv").read_bytes() == src.read_bytes()


def test_sanitize_same_column_refused(tmp_path, capsys):
    src = tmp_path / "d.csv"
    src.write_text("a,b\n1,2\n")
    proc = run_inproc(["sanitize", src, "-s", "a", "-x", "a", "--objective", "I*", "--utility", "U1", "--lam", "0",
                       "--out", tmp_path / "rel"], capsys)
    assert_one_line_error(proc, "--sensitive and --public", "'a'")
    only_inputs_left(tmp_path, {"d.csv"})
    proc = run_inproc(["sanitize", src, "-s", "a", "-x", "b", "--objective", "I*", "--utility", "U1", "--lam", "0",
                       "--release", "codeword", "--out", tmp_path / "rel"], capsys)
    assert_one_line_error(proc, "--release codeword", "U2")
    only_inputs_left(tmp_path, {"d.csv"})


def test_sanitize_text_column_labels(tmp_path, capsys):
    """A text public column: merged values become a set label in natural order; the others stay as written."""
    src = tmp_path / "cp.csv"
    src.write_text("s,cp\n1,typical angina\n1,atypical angina\n2,asymptomatic\n3,non-anginal\n3,asymptomatic\n")
    _sanitize_inproc(capsys, src, "-s", "s", "-x", "cp", "--objective", "I*", "--utility", "U1", "--lam", "0",
                     "--out", tmp_path / "rel")
    rows = (tmp_path / "rel" / "sanitized.csv").read_text().splitlines()
    assert rows[0] == "s,cp"
    mapping = json.loads((tmp_path / "rel" / "mapping.json").read_text())
    merged = [c for c in mapping["clusters"] if c["size"] > 1]
    assert merged and all(c["released"].startswith("{") for c in merged)
    for r_ in rows[1:]:
        value = r_.split(",", 1)[1].strip('"')
        assert value in {v["value"] for v in mapping["values"] if not v["changed"]} | {c["released"] for c in merged}


@pytest.mark.parametrize("utility,choice", [("U2", ["--lam", "0.5"]), ("U1", ["--min-utility", "3"]),
                                            ("U2", ["--min-utility", "-8"])])
def test_sanitize_section_vc_runs_the_mechanism_once(tmp_path, capsys, monkeypatch, utility, choice):
    """Section V-C (problem (10) of Ding & Farokhi): the frontier's tree of trajectories gives the λ
    choice and the release; no second run of the mechanism (``agglomerate`` is never called), and the
    release equals a direct ``agglomerate`` at the chosen λ."""
    import graphpriv.mechanisms.agglomerative as agg

    df = gp.datasets.load_hungarian()[["age", "chol"]].dropna()
    df.to_csv(tmp_path / "h.csv", index=False)
    direct = gp.agglomerate
    calls = []

    def counted(*a, **k):
        calls.append(a[1] if len(a) > 1 else k.get("objective"))
        return direct(*a, **k)

    monkeypatch.setattr(gp, "agglomerate", counted)
    monkeypatch.setattr(agg, "agglomerate", counted)
    proc = run_inproc(["sanitize", tmp_path / "h.csv", "-s", "age", "-x", "chol", "--missing", "drop", "--objective",
                       "L0|I*=0", "--utility", utility, *choice, "--out", tmp_path / "rel", "--no-animation",
                       "--no-explorer"], capsys)
    assert proc.returncode == 0, proc.stderr
    assert calls == []
    summ = json.loads((tmp_path / "rel" / "summary.json").read_text())
    jr = gp.JointRange.from_dataframe(df, sensitive="age", public="chol")
    values = {v: float(v) for v in jr.public_labels.tolist()} if utility == "U2" else None
    r = direct(jr, "L0|I*=0", summ["lam"], utility, values)
    assert summ["after"]["privacy"] == pytest.approx(r.privacy, abs=1e-9)
    assert summ["after"]["utility"] == pytest.approx(r.utility, abs=1e-9)
    assert summ["after"]["n_public"] == r.n_clusters and summ["after"]["I_star"] == 0.0
    if choice[0] == "--min-utility":
        assert r.utility >= float(choice[1]) - 1e-12


def test_sanitize_with_unwritable_stdout_commits_and_exits_0(tmp_path):
    """stdout on a full device: the release is audited and committed, the summary print is dropped, exit 0
    (before, the folder was committed and the run exited 2)."""
    import os
    import subprocess
    import sys

    if not os.path.exists("/dev/full"):
        pytest.skip("no /dev/full on this system")
    (tmp_path / "t.csv").write_text("s,x\na,1\na,2\nb,2\nc,3\n")
    out = tmp_path / "rel"
    with open("/dev/full", "w") as full:
        proc = subprocess.run([sys.executable, "-m", "graphpriv.cli", "sanitize", str(tmp_path / "t.csv"), "-s", "s", "-x", "x",
                               "--objective", "L0", "--utility", "U1", "--lam", "0", "--out", str(out), "--no-animation",
                               "--no-explorer"], stdout=full, stderr=subprocess.PIPE, text=True, timeout=300, env=ENV)
    assert proc.returncode == 0, proc.stderr
    assert proc.stderr.strip() == ""
    summ = json.loads((out / "summary.json").read_text())
    assert summ["audit"]["verified"] and (out / "sanitized.csv").exists()


def test_sanitize_noop_warning_does_not_precede_the_error(tmp_path, capsys):
    """A run that would merge nothing and cannot write its output prints the error alone (one line)."""
    (tmp_path / "one.csv").write_text("s,x\na,1\n")
    (tmp_path / "file").write_text("not a folder")
    proc = run_cli("sanitize", tmp_path / "one.csv", "-s", "s", "-x", "x", "--objective", "L0", "--utility", "U1",
                   "--lam", "0", "--out", tmp_path / "file" / "sub", "--no-animation")
    assert_one_line_error(proc, "output folder")
