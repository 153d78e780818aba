"""The release audit and the promises it guards: what summary.json reports is what the released table holds.

Each reproduction below failed on the code before the audit: a U2 centroid reported but a rounded codeword
released, two clusters under one set label, a tampered mapping accepted, a committed release with exit 2
when stdout is unwritable, the Python API and the command line disagreeing on U2, the bundled table
rewritten in another format.
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import numpy as np
import pandas as pd
import pyarrow as pa
import pyarrow.parquet as pq
import pytest

import graphpriv as gp
from graphpriv.errors import GraphprivError, InputError, InputTypeError

from test_cli_analyze import assert_one_line_error, only_inputs_left, run_inproc

COLLIDING = 's,x\nS0,a\nS0,"a, b"\nS0,"b, c"\nS0,c\nS1,"b, c"\nS1,c\n'


def _sanitize(capsys, data, out, *opts):
    return run_inproc(["sanitize", data, "--no-animation", "--no-explorer", "--out", out, *opts], capsys)


def _csv_rows(path: Path) -> list[list[str]]:
    import csv

    with open(path, newline="", encoding="utf-8") as fh:
        return list(csv.reader(fh))


# ---------------------------------------------------------------------- reported = released
def test_u2_summary_reports_the_released_codewords(capsys, tmp_path):
    """README's Hungarian U2 run: the centroid 130.5 is released as 130 (half to even), so the table's
    maximum distortion is 2, which summary.json reports, with the mechanism's -1.5 and the reason."""
    proc = _sanitize(capsys, "hungarian", tmp_path / "r", "-s", "age", "-x", "chol", "--missing", "drop",
                     "--objective", "I*", "--utility", "U2", "--lam", "0.05")
    assert proc.returncode == 0, proc.stderr
    summ = json.loads((tmp_path / "r" / "summary.json").read_text())
    assert summ["after"]["utility"] == -2.0 and summ["mechanism"]["utility"] == -1.5
    (diff,) = summ["audit"]["differences"]
    assert diff["measure"] == "utility" and "centroid 130.5 released as 130" in diff["reason"]
    assert "U2 = -2.0000" in proc.stdout


def test_set_labels_of_distinct_clusters_are_distinct(capsys, tmp_path):
    """Members holding the label's separator are quoted: the two clusters {a, "b, c"} and {"a, b", c} no
    longer both print as {a, b, c}; the released table holds |X̂| = 2 distinct values."""
    (tmp_path / "c.csv").write_text(COLLIDING)
    proc = _sanitize(capsys, tmp_path / "c.csv", tmp_path / "r", "-s", "s", "-x", "x", "--objective", "L0",
                     "--utility", "U1", "--lam", "0")
    assert proc.returncode == 0, proc.stderr
    rows = _csv_rows(tmp_path / "r" / "sanitized.csv")[1:]
    released = {r[1] for r in rows}
    summ = json.loads((tmp_path / "r" / "summary.json").read_text())
    assert len(released) == summ["after"]["n_public"] == 2
    assert released == {'{a, "b, c"}', '{"a, b", c}'}
    back = gp.Release.from_json((tmp_path / "r" / "mapping.json").read_text())
    orig = [r[1] for r in _csv_rows(tmp_path / "c.csv")[1:]]
    assert back.transform(orig) == [r[1] for r in rows]


def test_member_quoting():
    assert gp.generalisation_label(["a, b", "c"]) == '{"a, b", c}'
    assert gp.generalisation_label(["{x}", "NA", "", "y z"]) == '{"", "NA", y z, "{x}"}'
    assert gp.generalisation_label([gp.MISSING, "NA"]) == '{"NA", NA}'


def test_the_audit_stops_a_writer_that_merges_clusters(capsys, tmp_path, monkeypatch):
    """A writer bug that prints every merged cluster with one text is caught before anything is committed."""
    from graphpriv.release import writer

    (tmp_path / "t.csv").write_text(COLLIDING)                 # released as two merged clusters
    monkeypatch.setattr(writer, "released_text", lambda v, d=None: "merged")
    out = tmp_path / "r"
    proc = _sanitize(capsys, tmp_path / "t.csv", out, "-s", "s", "-x", "x", "--objective", "L0", "--utility", "U1",
                     "--lam", "0")
    assert_one_line_error(proc, "two clusters under one label", "'merged'")
    assert not out.exists()
    only_inputs_left(tmp_path, {"t.csv"})


def test_the_audit_finds_a_changed_cell_and_a_missing_row(tmp_path):
    src = tmp_path / "t.csv"
    src.write_text("s,x,n\na,1,p\na,2,q\nb,3,r\n")
    jr = gp.read_joint_range(src, sensitive="s", public="x")
    rel = gp.Release.from_result(gp.agglomerate(jr, "L0", 0.0))
    labels = {x: rel.transform([x])[0] for x in jr.public_labels.tolist()}
    good = "s,x,n\n" + "".join(f"{s},{labels[x]},{n}\n" for s, x, n in (("a", 1, "p"), ("a", 2, "q"), ("b", 3, "r")))
    (tmp_path / "good.csv").write_text(good.replace("[", '"[').replace("]", ']"'))
    ok = gp.audit_release((src, tmp_path / "good.csv"), rel, sensitive="s", public="x")
    assert ok.ok, ok.problems
    assert ok.n_clusters == rel.n_clusters and ok.rows_written == 3 and ok.L0 == pytest.approx(gp.L0(gp.quantize_range(jr, [
        set(rel.members(k)) for k in range(rel.n_clusters)])))
    (tmp_path / "cell.csv").write_text((tmp_path / "good.csv").read_text().replace(",q\n", ",Q\n"))
    bad = gp.audit_release((src, tmp_path / "cell.csv"), rel, sensitive="s", public="x")
    assert any("column 'n' changed" in p and "'q' became 'Q'" in p for p in bad.problems)
    lines = (tmp_path / "good.csv").read_text().splitlines(keepends=True)
    (tmp_path / "short.csv").write_text("".join(lines[:-1]))
    bad = gp.audit_release((src, tmp_path / "short.csv"), rel, sensitive="s", public="x")
    assert any("2 rows written but the input has 3" in p for p in bad.problems)
    with pytest.raises(GraphprivError, match="release audit failed"):
        bad.check()


def test_the_audit_fails_privacy_worse_than_promised(tmp_path):
    src = tmp_path / "t.csv"
    src.write_text("s,x\na,1\na,2\nb,2\nc,3\n")
    jr = gp.read_joint_range(src, sensitive="s", public="x")
    rel = gp.Release.from_quantization(jr.public_labels.tolist(), [{1}, {2}, {3}])
    rep = gp.audit_release((src, src), rel, sensitive="s", public="x", objective="I*", promised_privacy=0.0)
    assert rep.I_star == pytest.approx(1.0) and any("worse than the mechanism" in p for p in rep.problems)


# ---------------------------------------------------------------------- codeword precision
def test_codeword_precision_keeps_clusters_apart():
    labels = [0, 1, 3, 4, 9]
    # centroids 1.5 and 2.5 both round to 2 at 0 decimals: written with 1 decimal
    rel = gp.Release.from_quantization(labels, [{0, 3}, {1, 4}, {9}], "codeword", utility="U2",
                                       codewords=[1.5, 2.5, 9], decimals=0)
    assert rel.decimals == 1 and rel.released[:2] == (1.5, 2.5)
    rel = gp.Release.from_quantization(labels, [{0, 1}, {3, 4}, {9}], "codeword", utility="U2",
                                       codewords=[0.5, 3.5, 9], decimals=0)
    assert rel.decimals == 0 and rel.released == (0, 4, 9)
    # the centroid 2 of {1, 3} equals the unchanged 2: it moves up one step past the column's precision
    rel = gp.Release.from_quantization([1, 2, 3], [{1, 3}, {2}], "codeword", utility="U2", codewords=[2.0, 2], decimals=0)
    assert rel.released == (2.1, 2) and rel.decimals == 1


# ---------------------------------------------------------------------- the mapping document
def _doc() -> dict:
    rel = gp.Release.from_quantization([1, 2, 3, 4], [{1, 2}, {3}, {4}], "label")
    return rel.to_dict(public_column="x", sensitive_column="s")


@pytest.mark.parametrize("tamper, needle", [
    (lambda d: [v.update(changed=False) for v in d["values"] if v["cluster"] == 0], "changed: false"),
    (lambda d: d["values"][0].update(changed=False), "replaced together"),
    (lambda d: d.update(decimals=-5), "decimals -5"),
    (lambda d: d["clusters"][1].update(released="[1, 2]") or d["values"][2].update(released="[1, 2]"),
     "released as '[1, 2]'"),
    (lambda d: d["clusters"][2].update(released=3) or d["values"][3].update(released=3), "released as itself"),
    (lambda d: d.update(objective="bogus"), "objective 'bogus'"),
])
def test_tampered_mappings_are_refused(tamper, needle):
    doc = _doc()
    gp.Release.from_dict(doc)
    tamper(doc)
    with pytest.raises(InputError, match="mapping document") as exc:
        gp.Release.from_json(json.dumps(doc))
    assert needle in str(exc.value) and "\n" not in str(exc.value)


def test_deeply_nested_mapping_is_one_line():
    text = '{"values": ' + "[" * 100_000 + "]" * 100_000 + "}"
    with pytest.raises(InputError, match="nested too deeply"):
        gp.Release.from_json(text)


def test_release_repr_is_short():
    jr = gp.datasets.hungarian_range()
    r = gp.agglomerate(jr, "L0", 0.0)
    rel = gp.Release.from_result(r)
    text = repr(rel)
    assert f"{rel.n_clusters} clusters" in text and "changed" in text and len(text) < 300


# ---------------------------------------------------------------------- API and CLI agree on U2
def test_agglomerate_u2_uses_numeric_labels_as_the_cli_does(capsys, tmp_path):
    jr = gp.datasets.hungarian_range(missing="drop")
    r = gp.agglomerate(jr, "I*", 0.05, utility="U2")
    assert r.utility == gp.agglomerate(jr, "I*", 0.05, "U2", "labels").utility == -1.5
    proc = _sanitize(capsys, "hungarian", tmp_path / "r", "-s", "age", "-x", "chol", "--missing", "drop",
                     "--objective", "I*", "--utility", "U2", "--lam", "0.05")
    assert proc.returncode == 0, proc.stderr
    assert json.loads((tmp_path / "r" / "summary.json").read_text())["mechanism"]["utility"] == r.utility


@pytest.mark.parametrize("xs, needle", [
    (["1_0", "2"], "'1_0'"), ([" 1", "2"], "' 1'"), (["+1", "1", "2"], "'+1' and '1'"), (["1", "01"], "'01' and '1'"),
])
def test_u2_refuses_text_that_is_not_one_number(capsys, tmp_path, xs, needle):
    rows = "".join(f"{s},{x}\n" for s, x in zip("abcd", xs))
    (tmp_path / "t.csv").write_text("s,x\n" + rows)
    proc = _sanitize(capsys, tmp_path / "t.csv", tmp_path / "r", "-s", "s", "-x", "x", "--objective", "L0",
                     "--utility", "U2", "--lam", "0")
    assert_one_line_error(proc, needle)
    assert not (tmp_path / "r").exists()
    jr = gp.read_joint_range(tmp_path / "t.csv", sensitive="s", public="x")
    with pytest.raises(GraphprivError, match=needle.replace("+", r"\+")):
        gp.agglomerate(jr, "L0", 0.0, "U2")


def test_u2_refuses_booleans():
    jr = gp.JointRange.from_pairs(["a", "b"], [True, False])
    with pytest.raises(InputTypeError, match="boolean"):
        gp.agglomerate(jr, "L0", 0.0, "U2")
    jr = gp.JointRange.from_pairs(["a", "b"], [1, 2])
    with pytest.raises(InputTypeError, match="boolean"):
        gp.agglomerate(jr, "L0", 0.0, "U2", {1: True, 2: False})


def test_merge_trace_refuses_an_unknown_objective():
    jr, values = gp.datasets.paper_example()
    tr = gp.agglomerate(jr, "L0", 0.0).trace
    d = tr.to_dict()
    d["objective"] = "bogus"
    with pytest.raises(InputError, match="objective 'bogus'"):
        gp.MergeTrace.from_dict(d)


# ---------------------------------------------------------------------- the bundled table in its own format
def _bundled_lines() -> list[str]:
    from importlib import resources

    return resources.files("graphpriv.data").joinpath("processed.hungarian.data").read_text().splitlines()


@pytest.mark.parametrize("release", ["label", "id"])
def test_bundled_table_released_in_its_own_format(capsys, tmp_path, release):
    proc = _sanitize(capsys, "hungarian", tmp_path / "r", "-s", "age", "-x", "chol", "--missing", "keep",
                     "--objective", "L0", "--utility", "U1", "--min-utility", "3", "--release", release)
    assert proc.returncode == 0, proc.stderr
    out = (tmp_path / "r" / "sanitized.csv").read_text().splitlines()
    src = _bundled_lines()
    assert out[0] == ",".join(gp.datasets.HUNGARIAN_COLUMNS) and len(out) == len(src) + 1
    mapping = json.loads((tmp_path / "r" / "mapping.json").read_text())
    rel = {(None if v["value"] is None else float(v["value"])): v for v in mapping["values"]}
    i_chol = gp.datasets.HUNGARIAN_COLUMNS.index("chol")
    for a, b in zip(src, out[1:]):
        fa, fb = a.split(","), b.split(",", i_chol)      # a label may hold commas: split up to the public field
        assert fb[:i_chol] == fa[:i_chol]
        rest = b[len(",".join(fb[:i_chol])) + 1:]
        assert rest.endswith("," + ",".join(fa[i_chol + 1:]))             # every other field as written ('?')
        field = rest[:-len(",".join(fa[i_chol + 1:])) - 1].strip('"')
        v = rel[None if fa[i_chol] == "?" else float(fa[i_chol])]
        assert field == (str(v["released"]) if v["changed"] else fa[i_chol])   # 243 stays 243; ids as 0, not 0.0


def test_negative_zero_is_zero_in_a_parquet_float_column(capsys, tmp_path):
    """-0.0 and 0.0 are one number and one symbol (as pandas and Python take them): one label, and the
    release runs (before: two labels both printed 0, then an internal error)."""
    pq.write_table(pa.table({"s": ["a", "a", "b", "b", "c"], "x": [-0.0, 0.0, 0.0, 1.0, 2.0]}), tmp_path / "z.parquet")
    jr = gp.read_joint_range(tmp_path / "z.parquet", sensitive="s", public="x")
    assert jr.n_public == 3
    proc = _sanitize(capsys, tmp_path / "z.parquet", tmp_path / "r", "-s", "s", "-x", "x", "--objective", "L0",
                     "--utility", "U1", "--lam", "0")
    assert proc.returncode == 0, proc.stderr
    out = pq.read_table(tmp_path / "r" / "sanitized.parquet").column("x").to_pylist()
    assert out == ["[0, 2]"] * 5


@pytest.mark.parametrize("fmt", ["csv", "parquet"])
def test_folder_parts_are_audited_with_the_sensitive_column_in_folder_names(capsys, tmp_path, fmt):
    """A Hive folder whose sensitive column is a partition key: every part is read back beside its input
    (the key's value from the folder names), the figures are the table's, and a changed cell in one part
    stops the run."""
    rows = {"a": [(1, "p"), (2, "q")], "b": [(2, "r"), (3, "s")], "c": [(4, "t")]}
    for s, rs in rows.items():
        (tmp_path / "in" / f"s={s}").mkdir(parents=True)
        if fmt == "csv":
            (tmp_path / "in" / f"s={s}" / "part.csv").write_text("x,n\n" + "".join(f"{x},{n}\n" for x, n in rs))
        else:
            pq.write_table(pa.table({"x": [x for x, _ in rs], "n": [n for _, n in rs]}),
                           tmp_path / "in" / f"s={s}" / "part.parquet")
    proc = _sanitize(capsys, tmp_path / "in", tmp_path / "r", "-s", "s", "-x", "x", "--objective", "I*", "--utility",
                     "U2", "--lam", "0.1")
    assert proc.returncode == 0, proc.stderr
    summ = json.loads((tmp_path / "r" / "summary.json").read_text())
    assert summ["audit"]["verified"] and summ["audit"]["rows"] == 5 and len(summ["rows"]["parts"]) == 3
    assert summ["after"]["I_star"] == 0.0 and summ["after"]["n_public"] == summ["mechanism"]["n_public"]

    from graphpriv.release import writer

    real = writer.write_csv_release if fmt == "csv" else writer.write_parquet_release

    def tampering(src, dst, *a, **k):           # the writer changes a non-public cell of the part of s=b
        out = real(src, dst, *a, **k)
        if "s=b" in str(src):
            if fmt == "csv":
                Path(dst).write_text(Path(dst).read_text().replace(",r\n", ",R\n"))
            else:
                t = pq.read_table(dst)
                pq.write_table(t.set_column(1, "n", pa.array(["R", "s"])), dst)
        return out

    monkeypatch = pytest.MonkeyPatch()
    try:
        monkeypatch.setattr(writer, "write_csv_release" if fmt == "csv" else "write_parquet_release", tampering)
        proc = _sanitize(capsys, tmp_path / "in", tmp_path / "r2", "-s", "s", "-x", "x", "--objective", "I*",
                         "--utility", "U2", "--lam", "0.1")
    finally:
        monkeypatch.undo()
    assert_one_line_error(proc, "column 'n' changed", "'r' became 'R'")
    assert not (tmp_path / "r2").exists()
