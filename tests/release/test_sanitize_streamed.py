"""``graphpriv sanitize`` on the sources ``graphpriv analyze`` takes, streamed (no frame of all rows).

Checked: a folder of CSV files, a folder of Parquet files and globs give, part by part, exactly the
rows that sanitizing the concatenated single file gives (Algorithms 1 and 2 of Ding & Farokhi with U1
and U2, missing values kept or dropped, a public value seen only in dropped rows suppressed); CSV
parts byte-faithful; per-part row counts in summary.json; compressed CSV, a glob matching nothing and
parts with disagreeing types refused (one line, exit 2, nothing written); no frame of all rows is
built for a file; and (hypothesis) the streamed row codes equal ``row_codes`` of the whole column
labelled in memory as ingestion labels it.
"""

from __future__ import annotations

import csv
import gzip
import io
import json
from pathlib import Path

import numpy as np
import pyarrow as pa
import pyarrow.parquet as pq
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import graphpriv as gp
from graphpriv.errors import InputError
from graphpriv.release_writer import CODE_MISSING, CODE_SUPPRESSED, _csv_field, released_text

from test_cli_analyze import assert_one_line_error, only_inputs_left, run_cli, run_inproc

NOTES = ['"a,b"', '"line\nbreak"', "plain", '""', "007", '"q ""x"""', "NA", ""]


def _table(seed: int, n: int = 90):
    """Rows (s, x, y, note) as CSV field texts: s has missing tokens ("" and NA), x has missing values, text
    like "007" and "7.50", and "999" only where s is missing (so --missing drop suppresses it); y is
    numeric without missing values ("888" only where s is missing)."""
    rng = np.random.default_rng(seed)
    s_pool = ["a", "b", "c", "d", "e", "f"]
    # G_X has the components {7, 007, 12}, {13, 7.50, 20}, {21, 30}, {31, 40}: I* = 2 bits before
    x_of = {"a": ["7", "007"], "b": ["007", "12"], "c": ["13", "7.50"], "d": ["7.50", "20"], "e": ["21", "30"],
            "f": ["31", "40"]}
    rows = []
    for i in range(n):
        s = s_pool[int(rng.integers(0, len(s_pool)))]
        k = int(rng.integers(0, 2))
        x = x_of[s][k]
        y = str(10 * s_pool.index(s) + k)
        if i % 17 == 5:
            x = ""
        if i % 23 == 7:
            s, x, y = ("NA" if i % 2 else ""), "999", "888"
        rows.append((s, x, y, NOTES[i % len(NOTES)]))
    return rows


def _csv_text(rows, header=True) -> str:
    return ("s,x,y,note\n" if header else "") + "".join(f"{s},{x},{y},{note}\n" for s, x, y, note in rows)


@pytest.fixture(scope="module")
def sources(tmp_path_factory):
    """The same 90 rows as one CSV, a folder of 3 CSV parts (one in a subfolder), one Parquet file and a
    folder of 3 Parquet parts."""
    d = tmp_path_factory.mktemp("src")
    rows = _table(3)
    cut = [rows[:25], rows[25:61], rows[61:]]
    (d / "all.csv").write_text(_csv_text(rows))
    folder = d / "csvparts"
    (folder / "sub").mkdir(parents=True)
    names = ["part-0.csv", "part-1.csv", "sub/part-2.csv"]
    for name, part in zip(names, cut):
        (folder / name).write_text(_csv_text(part))

    def arrow(rs):
        def num(t):
            return None if t == "" else float(t)
        return pa.table({"s": pa.array([None if r[0] in ("", "NA") else r[0] for r in rs], pa.string()),
                         "x": pa.array([num(r[1]) for r in rs], pa.float64()),
                         "y": pa.array([int(r[2]) for r in rs], pa.int64()),
                         "note": pa.array([r[3] for r in rs], pa.string())})
    pq.write_table(arrow(rows), d / "all.parquet")
    pfolder = d / "pqparts"
    pfolder.mkdir()
    for k, part in enumerate(cut):
        pq.write_table(arrow(part), pfolder / f"part-{k}.parquet")
    return {"dir": d, "rows": rows, "cut": cut, "csv": d / "all.csv", "csv_parts": folder, "csv_names": names,
            "parquet": d / "all.parquet", "pq_parts": pfolder}


def _sanitize(capsys, data, out, *opts):
    proc = run_inproc(["sanitize", data, "-s", "s", "--no-animation", "--no-explorer", "--out", out, *opts], capsys)
    assert proc.returncode == 0, proc.stderr
    return json.loads((out / "summary.json").read_text())


def _data_lines(text: str) -> list[str]:
    """The records of a CSV text after its header, each as its exact text (quoted newlines kept)."""
    out, cur, quotes = [], "", 0
    for line in text.splitlines(keepends=True):
        cur += line
        quotes += line.count('"')
        if quotes % 2 == 0:
            out.append(cur)
            cur, quotes = "", 0
    return out[1:]


COMBOS = [(obj, util, missing) for obj in ("I*", "L0") for util in ("U1", "U2") for missing in ("keep", "drop")]


def _opts(obj, util, missing):
    # U2 needs numbers without missing public values under --missing keep, and x holds "007" and "7" (two
    # texts of one number, which U2 refuses without --numbers): release y for U2
    col = "y" if util == "U2" else "x"
    lam = "0.2" if util == "U1" else "0"
    return col, ["-x", col, "--objective", obj, "--utility", util, "--lam", lam, "--missing", missing]


@pytest.mark.parametrize("obj, util, missing", COMBOS)
def test_csv_folder_parts_equal_the_single_file_release(sources, tmp_path, capsys, obj, util, missing):
    col, opts = _opts(obj, util, missing)
    single = _sanitize(capsys, sources["csv"], tmp_path / "one", *opts)
    parts = _sanitize(capsys, sources["csv_parts"], tmp_path / "parts", *opts)
    one = (tmp_path / "one" / "sanitized.csv").read_text()
    outs = [(tmp_path / "parts" / "sanitized" / n).read_text() for n in sources["csv_names"]]
    assert all(o.startswith("s,x,y,note\n") for o in outs)
    # part by part, the records (every column, byte for byte) of the single file's release
    assert sum((_data_lines(o) for o in outs), []) == _data_lines(one)
    assert (tmp_path / "one" / "mapping.json").read_text() == (tmp_path / "parts" / "mapping.json").read_text()
    for k in ("before", "after", "lam"):
        assert parts[k] == single[k]
    rows_one, rows_parts = single["rows"], parts["rows"]
    for k in ("read", "written", "replaced_public", "suppressed_public", "dropped_from_analysis"):
        assert rows_one[k] == rows_parts[k]
    if missing == "drop":
        assert rows_one["suppressed_public"] == 4        # the 4 rows holding 999 / 888 (only in dropped rows)
    else:
        assert rows_one["suppressed_public"] == 0
    assert rows_one["replaced_public"] > 0
    # (c) per-part counts
    assert [p["output"] for p in rows_parts["parts"]] == [f"sanitized/{n}" for n in sources["csv_names"]]
    assert [p["read"] for p in rows_parts["parts"]] == [p["written"] for p in rows_parts["parts"]] == [25, 36, 29]
    assert [Path(p["input"]).name for p in rows_parts["parts"]] == ["part-0.csv", "part-1.csv", "part-2.csv"]
    assert rows_one["parts"] == [{"input": str(sources["csv"]), "output": "sanitized.csv", "read": 90, "written": 90}]
    assert parts["files"][:3] == [f"sanitized/{n}" for n in sources["csv_names"]] and single["files"][0] == "sanitized.csv"
    on_disk = sorted(str(p.relative_to(tmp_path / "parts")) for p in (tmp_path / "parts").rglob("*")
                     if p.is_file() and not p.name.startswith("."))
    assert sorted(parts["files"]) == on_disk
    # (b) every part byte-faithful: only the public field of a record changes, to its released text
    mapping = json.loads((tmp_path / "parts" / "mapping.json").read_text())
    released = {"" if v["value"] is None else str(v["value"]): (v["released"], v["changed"]) for v in mapping["values"]}
    for part, out in zip(sources["cut"], outs):
        expect = []
        for s, x, y, note in part:
            v = {"x": x, "y": y}[col]
            if v not in released:
                new = ""                       # missing without a label stays empty; a value seen only in dropped rows
                assert v == "" or (missing == "drop" and v in ("999", "888"))            # is suppressed
            else:
                lab, changed = released[v]
                new = _csv_field(released_text(lab, mapping["decimals"]), ",") if changed else v
            expect.append((s, new, y, note) if col == "x" else (s, x, new, note))
        assert out == _csv_text(expect)


def _pq_concat(paths):
    return pa.concat_tables([pq.read_table(p) for p in paths])


@pytest.mark.parametrize("obj, util, missing", COMBOS)
def test_parquet_folder_parts_equal_the_single_file_release(sources, tmp_path, capsys, obj, util, missing):
    _, opts = _opts(obj, util, missing)
    single = _sanitize(capsys, sources["parquet"], tmp_path / "one", *opts)
    parts = _sanitize(capsys, sources["pq_parts"], tmp_path / "parts", *opts)
    one = pq.read_table(tmp_path / "one" / "sanitized.parquet")
    names = [f"sanitized/part-{k}.parquet" for k in range(3)]
    got = _pq_concat([tmp_path / "parts" / n for n in names])
    assert got.schema == one.schema and got.equals(one)
    assert [p["output"] for p in parts["rows"]["parts"]] == names
    assert [p["written"] for p in parts["rows"]["parts"]] == [25, 36, 29]
    assert parts["rows"]["suppressed_public"] == single["rows"]["suppressed_public"] == (4 if missing == "drop" else 0)
    # the other columns untouched
    orig = pq.read_table(sources["parquet"])
    for c in ("s", "note"):
        assert got.column(c).equals(orig.column(c))
    # replaced: the rows whose value the mapping changes
    col = _opts(obj, util, missing)[0]
    mapping = json.loads((tmp_path / "parts" / "mapping.json").read_text())
    changed = {v["value"] for v in mapping["values"] if v["changed"]}     # None: missing, a label under keep
    n_changed = sum(v in changed for v in orig.column(col).to_pylist())
    assert parts["rows"]["replaced_public"] == single["rows"]["replaced_public"] == n_changed > 0


def test_globs_of_csv_and_parquet_parts(sources, tmp_path, capsys):
    opts = ["-x", "x", "--objective", "I*", "--utility", "U1", "--lam", "0", "--missing", "drop"]
    _sanitize(capsys, sources["csv"], tmp_path / "one", *opts)
    summ = _sanitize(capsys, str(sources["csv_parts"]) + "/**/*.csv", tmp_path / "g", *opts)
    outs = [(tmp_path / "g" / "sanitized" / n).read_text() for n in sources["csv_names"]]
    assert sum((_data_lines(o) for o in outs), []) == _data_lines((tmp_path / "one" / "sanitized.csv").read_text())
    assert summ["rows"]["read"] == summ["rows"]["written"] == 90 and len(summ["rows"]["parts"]) == 3
    _sanitize(capsys, sources["parquet"], tmp_path / "pone", *opts)
    summ = _sanitize(capsys, str(sources["pq_parts"]) + "/part-*.parquet", tmp_path / "pg", *opts)
    got = _pq_concat([tmp_path / "pg" / "sanitized" / f"part-{k}.parquet" for k in range(3)])
    assert got.equals(pq.read_table(tmp_path / "pone" / "sanitized.parquet"))
    assert summ["rows"]["suppressed_public"] == 4


def test_refusals_one_line_exit2_nothing_written(tmp_path, capsys):
    """(d) compressed CSV (a file, and inside a folder), a glob matching nothing, parts whose public column
    types disagree, --out inside the input folder: one line, exit 2, no output folder (the first case as a
    subprocess, the others in this process)."""
    text = _csv_text(_table(1, 30))
    gz = tmp_path / "gz"
    gz.mkdir()
    with gzip.open(gz / "t.csv.gz", "wt") as fh:
        fh.write(text)
    mixed = tmp_path / "mixed"
    mixed.mkdir()
    (mixed / "a.csv").write_text(text)
    with gzip.open(mixed / "b.csv.gz", "wt") as fh:
        fh.write(text)
    types = tmp_path / "types"
    types.mkdir()
    pq.write_table(pa.table({"s": ["a", "b"], "x": pa.array([1, 2], pa.int64())}), types / "p0.parquet")
    pq.write_table(pa.table({"s": ["a", "b"], "x": ["1", "2"]}), types / "p1.parquet")
    inside = tmp_path / "inside"
    inside.mkdir()
    (inside / "a.csv").write_text(text)
    common = ["-s", "s", "-x", "x", "--objective", "I*", "--utility", "U1", "--lam", "0", "--missing", "drop"]
    cases = {
        "gz": (gz / "t.csv.gz", ("compressed", "decompress")),
        "mixed": (mixed, ("b.csv.gz", "decompress")),
        "nomatch": (str(tmp_path / "nothing" / "*.csv"), ("matches no file",)),
        "types": (types, ("disagree", "'x'")),
    }
    before = {p.name for p in tmp_path.iterdir()}
    for k, (name, (data, needles)) in enumerate(cases.items()):
        argv = ["sanitize", data, *common, "--out", tmp_path / f"out_{name}"]
        proc = run_cli(*argv) if k == 0 else run_inproc(argv, capsys)
        assert_one_line_error(proc, *needles)
    proc = run_inproc(["sanitize", inside, *common, "--out", inside / "rel"], capsys)
    assert_one_line_error(proc, "inside the input folder")
    proc = run_inproc(["sanitize", str(inside) + "/**/*.csv", *common, "--out", inside / "sub" / "rel"], capsys)
    assert_one_line_error(proc, "inside the input folder")
    only_inputs_left(tmp_path, before)
    only_inputs_left(inside, {"a.csv"})


def test_no_frame_of_all_rows_for_a_file(tmp_path, capsys, monkeypatch):
    """(e) 10^5 rows: nothing reads the table into a frame (graphpriv.io.read_columns, the ingest reader and
    the in-memory row_codes all fail if called), the row codes come in many batches of a small part of the
    rows each (pyarrow blocks of 32 KiB), and the release is right."""
    import graphpriv.cli.sanitize as san
    import graphpriv.ingest.csvfile as csvfile
    import graphpriv.ingest.tables as tables
    from graphpriv import io as gio
    from graphpriv.ingest.values import ValueCodes

    n = 100_000
    rng = np.random.default_rng(5)
    s = rng.integers(0, 200, n)
    x = s * 10 + rng.integers(0, 4, n)
    x[rng.random(n) < 0.01] += 5                    # some public values shared by two sensitive values
    src = tmp_path / "big.csv"
    src.write_text("s,x,note\n" + "".join(f"{a},{b},r{i}\n" for i, (a, b) in enumerate(zip(s.tolist(), x.tolist()))))

    def forbidden(*a, **k):
        raise AssertionError("a frame of all rows was built")

    import graphpriv.ingest as ingest

    for mod, name in ((gio, "read_columns"), (gio, "_ingest_read_columns"), (tables, "read_columns"),
                      (ingest, "read_columns"), (san, "row_codes")):
        monkeypatch.setattr(mod, name, forbidden)
    monkeypatch.setattr(csvfile, "BLOCK_BYTES", 1 << 15)
    sizes = []
    orig = ValueCodes.codes

    def codes(self, array):
        sizes.append(len(array))
        return orig(self, array)

    monkeypatch.setattr(ValueCodes, "codes", codes)
    summ = _sanitize(capsys, src, tmp_path / "rel", "-x", "x", "--objective", "I*", "--utility", "U1", "--lam", "0")
    # two streamed passes over the public column: the writer's and the audit's (which reads the release back)
    assert sum(sizes) == 2 * n and len(sizes) >= 40 and max(sizes) <= n // 10
    assert summ["rows"]["read"] == summ["rows"]["written"] == n and summ["rows"]["replaced_public"] > 0
    assert summ["after"]["I_star"] == pytest.approx(0.0)
    mapping = json.loads((tmp_path / "rel" / "mapping.json").read_text())
    rel = {v["value"]: (v["released"], v["changed"]) for v in mapping["values"]}
    out = list(csv.reader(io.StringIO((tmp_path / "rel" / "sanitized.csv").read_text(), newline="")))[1:]
    assert len(out) == n
    for i in rng.integers(0, n, 300).tolist():
        lab, changed = rel[int(x[i])]
        assert out[i] == [str(s[i]), lab if changed else str(x[i]), f"r{i}"]


# ---------------------------------------------------------------------- (f) streamed codes = in-memory codes
TEXT_POOL = ["7", "007", "0", "12", "-3", "1.5", "2.50", "a", "b c", "1e3", "", "NA", "?", "nan", "null"]
NUMBER_POOL = ["7", "12", "-3", "1.5", "2.50", "1e3", "0.10", "", "NA", "?"]
S_POOL = ["1", "2", "3", "4", "", "NA"]
FLOAT_POOL = [1.0, 2.5, 7.0, -3.0, 0.1, float("nan"), None]


def _oracle(kept_values, column_values, missing, numbers, release):
    """row_codes of the whole column in memory, each value labelled by labels_from_values over the
    distinct values of the kept rows (ingestion's semantics); a value outside them is a sentinel."""
    from graphpriv.cli.sanitize import row_codes
    from graphpriv.ingest.labels import labels_from_values

    distinct = list(dict.fromkeys(v for v in kept_values if v is not None))
    label_of = {}
    if distinct:
        labels, rank = labels_from_values(pa.array(distinct), "x", numbers)
        label_of = {v: labels[r] for v, r in zip(distinct, rank.tolist())}
    other = object()
    full = [None if v is None else label_of.get(v, other) for v in column_values]
    present = set(label_of.values())
    assert present == {lab for lab in release.labels if lab is not gp.MISSING}
    import pandas as pd

    return row_codes(release, pd.Series(full, dtype=object)), full


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture,
                                                                 HealthCheck.too_slow])
@given(data=st.data(), fmt=st.sampled_from(["csv", "parquet"]), missing=st.sampled_from(["keep", "drop"]),
       numbers=st.booleans())
def test_streamed_codes_equal_in_memory_row_codes(tmp_path_factory, data, fmt, missing, numbers):
    from graphpriv.ingest import DEFAULT_NA_VALUES, iter_batches
    from graphpriv.ingest.values import ValueCodes
    from graphpriv.ranges import _read_pair_table

    n_files = data.draw(st.integers(1, 3))
    d = tmp_path_factory.mktemp("hyp")
    pool = FLOAT_POOL if fmt == "parquet" else NUMBER_POOL if numbers else TEXT_POOL
    files, s_all, x_all = [], [], []
    for k in range(n_files):
        m = data.draw(st.integers(0 if k else 1, 12))
        s = [data.draw(st.sampled_from(S_POOL)) for _ in range(m)]
        x = [data.draw(st.sampled_from(pool)) for _ in range(m)]
        if fmt == "csv":
            path = d / f"p{k}.csv"
            path.write_text("s,x\n" + "".join(f"{a},{b}\n" for a, b in zip(s, x)))
            s_all += [None if v in DEFAULT_NA_VALUES else v for v in s]
            x_all += [None if v in DEFAULT_NA_VALUES else v for v in x]
        else:
            path = d / f"p{k}.parquet"
            pq.write_table(pa.table({"s": pa.array([None if v in ("", "NA") else v for v in s], pa.string()),
                                     "x": pa.array(x, pa.float64())}), path)
            s_all += [None if v in ("", "NA") else v for v in s]
            x_all += [None if v is None or v != v else v for v in x]           # NaN is missing
        files.append(path)
    try:
        pt = _read_pair_table(d, "s", "x", missing, numbers="public" if numbers else False, keep_values=True)
    except InputError:                   # every row dropped, or two texts of one number: refused, not labelled
        return
    jr = gp.JointRange._from_pair_table(pt)
    vc = ValueCodes.from_pair_table(pt, "x")
    release = gp.Release.from_quantization(jr.public_labels, [[lab] for lab in jr.public_labels.tolist()])
    streamed = np.concatenate([vc.codes(b.column(0)) for f in files for b in iter_batches(f, ["x"])])
    kept = [x for s, x in zip(s_all, x_all) if missing == "keep" or (s is not None and x is not None)]
    expect, _ = _oracle(kept, x_all, missing, numbers and fmt == "csv", release)
    assert streamed.tolist() == expect.tolist()
    if missing == "drop":                # a missing value has no label: left as it is
        assert [c == CODE_MISSING for c in streamed.tolist()] == [v is None for v in x_all]
    else:                                # every value, missing included, is a label: nothing suppressed
        assert CODE_SUPPRESSED not in streamed.tolist() and CODE_MISSING not in streamed.tolist()


@settings(max_examples=100, deadline=None)
@given(st.lists(st.booleans(), max_size=2000), st.integers(0, 3))
def test_quote_parity_in_uint8_equals_the_full_count(bits, repeat):
    """The writer's running quote count in uint8 (wrapping modulo 256) gives the same inside-quotes mask
    as the exact int64 count, also past 256 quotes."""
    from graphpriv.release_writer import _inside_quotes

    isq = np.array(bits * (1 + 200 * repeat), dtype=bool)
    exact = (np.cumsum(isq.astype(np.int64)) - isq) % 2 == 1
    assert _inside_quotes(isq, int(np.count_nonzero(isq))).tolist() == exact.tolist()


def test_text_counted_as_integers_finds_the_integer_it_was_counted_as(tmp_path):
    """A column of canonical integer text is counted as int64; its rows find those integer labels, and a
    value seen only in dropped rows is suppressed. With a "-0" the column is not canonical (it would
    share the label 0 with "0"): the labels stay text, two of them."""
    from graphpriv.ingest import iter_batches
    from graphpriv.ingest.values import ValueCodes
    from graphpriv.ranges import _read_pair_table

    for text, labels, codes_want, per_label in (
            ("s,x\n1,0\n2,10\n3,7\n,12\n4,\n", [0, 7, 10], [0, 2, 1, CODE_SUPPRESSED, CODE_MISSING], [1, 1, 1]),
            ("s,x\n1,0\n2,-0\n3,7\n,12\n4,\n", ["-0", "0", "7"], [1, 0, 2, CODE_SUPPRESSED, CODE_MISSING], [1, 1, 1])):
        src = tmp_path / "z.csv"
        src.write_text(text)
        pt = _read_pair_table(src, "s", "x", "drop", keep_values=True)
        assert pt.x_labels.tolist() == labels
        assert pa.types.is_integer(pt.x_values.type) == isinstance(labels[0], int)
        codes = np.concatenate([ValueCodes.from_pair_table(pt, "x").codes(b.column(0)) for b in iter_batches(src, ["x"])])
        assert codes.tolist() == codes_want
        jr = gp.JointRange._from_pair_table(pt)
        assert jr.counts.toarray().sum(axis=0).tolist() == per_label


def test_noop_release_copies_every_part_and_counts_its_rows(tmp_path, capsys):
    """I* is already 0: each part is copied byte for byte (CSV and Parquet) and counted; with --missing drop
    and a value seen only in dropped rows the parts are rewritten instead, that value suppressed."""
    folder = tmp_path / "in"
    folder.mkdir()
    (folder / "a.csv").write_text('s,x,note\n1,10,"q,1"\n1,11,x\n2,11,\n')
    (folder / "b.csv").write_text("s,x,note\n2,12,y\n3,12,z\n")
    opts = ["-x", "x", "--objective", "I*", "--utility", "U1", "--lam", "0"]
    summ = _sanitize(capsys, folder, tmp_path / "rel", *opts)
    assert summ["noop"] is True
    for name in ("a.csv", "b.csv"):
        assert (tmp_path / "rel" / "sanitized" / name).read_bytes() == (folder / name).read_bytes()
    assert [(p["output"], p["read"], p["written"]) for p in summ["rows"]["parts"]] == [
        ("sanitized/a.csv", 3, 3), ("sanitized/b.csv", 2, 2)]
    pfolder = tmp_path / "pin"
    pfolder.mkdir()
    for k, (srows, xrows) in enumerate((([1, 1, 2], [10, 11, 11]), ([2, 3], [12, 12]))):
        pq.write_table(pa.table({"s": srows, "x": xrows}), pfolder / f"p{k}.parquet")
    summ = _sanitize(capsys, pfolder, tmp_path / "prel", *opts)
    assert summ["noop"] is True and summ["rows"]["written"] == 5
    for k in range(2):
        assert (tmp_path / "prel" / "sanitized" / f"p{k}.parquet").read_bytes() == (pfolder / f"p{k}.parquet").read_bytes()
    (folder / "b.csv").write_text("s,x,note\n2,12,y\n3,12,z\nNA,99,w\n")
    summ = _sanitize(capsys, folder, tmp_path / "rel2", *opts, "--missing", "drop")
    assert summ["noop"] is True and summ["rows"]["suppressed_public"] == 1
    assert (tmp_path / "rel2" / "sanitized" / "a.csv").read_bytes() == (folder / "a.csv").read_bytes()
    assert (tmp_path / "rel2" / "sanitized" / "b.csv").read_text() == "s,x,note\n2,12,y\n3,12,z\nNA,,w\n"


def test_reader_and_writer_count_the_same_records(tmp_path, capsys):
    """A byte-order mark before the public column's name, blank lines before the header and between records,
    CRLF line ends, quoted line breaks and no final line break: the scan feeding the codes and the writer
    split the same records, and only the public fields change; so do lone carriage returns as line ends and
    a quote inside an unquoted field (an ordinary character, as the reader takes it)."""
    folder = tmp_path / "in"
    folder.mkdir()
    a = '\ufeffx,s,note\r\n\r\n10,1,"two\r\nlines"\r\n\r\n11,1,plain\r\n'
    b = '\nx,s,note\n11,2,"a,b"\n\n12,2,"""q"""\n13,3,end'
    (folder / "a.csv").write_bytes(a.encode())
    (folder / "b.csv").write_bytes(b.encode())
    summ = _sanitize(capsys, folder, tmp_path / "rel", "-x", "x", "--objective", "I*", "--utility", "U1", "--lam", "0")
    assert [(p["read"], p["written"]) for p in summ["rows"]["parts"]] == [(2, 2), (3, 3)]
    rel = {v["value"]: v for v in json.loads((tmp_path / "rel" / "mapping.json").read_text())["values"]}
    assert sum(v["changed"] for v in rel.values()) >= 2

    def expected(text):                  # every record starts with its x value (10..13) at the start of a line
        import re

        def field(m):
            v = rel[int(m.group(2))]
            return m.group(1) + (_csv_field(v["released"], ",") if v["changed"] else m.group(2)) + ","
        return re.sub(r"(^|\n)(1[0-3]),", field, text).encode()
    assert (tmp_path / "rel" / "sanitized" / "a.csv").read_bytes() == expected(a)
    assert (tmp_path / "rel" / "sanitized" / "b.csv").read_bytes() == expected(b)
    common = ["-s", "s", "-x", "x", "--objective", "I*", "--utility", "U1", "--lam", "0"]
    for name, text, want in (("cr.csv", "s,x\r1,10\r1,11\r2,11\r3,12\r", 's,x\r1,"{10, 12}"\r1,11\r2,11\r3,"{10, 12}"\r'),
                             ("q.csv", 's,x\n1,10\n1,1"1\n2,1"1\n3,12\n', 's,x\n1,"{10, 12}"\n1,1"1\n2,1"1\n3,"{10, 12}"\n')):
        d = tmp_path / name.split(".")[0]
        d.mkdir()
        (d / name).write_bytes(text.encode())
        proc = run_inproc(["sanitize", d / name, *common, "--out", d / "rel"], capsys)
        assert proc.returncode == 0, proc.stderr
        assert (d / "rel" / "sanitized.csv").read_bytes() == want.encode()


def test_streamed_decimals_equal_those_of_the_whole_column(sources, tmp_path):
    """The codeword precision scanned batch by batch equals column_decimals of the whole column in memory
    (CSV: raw texts, dropped rows included; Parquet: the values)."""
    import pandas as pd

    from graphpriv.io import read_columns
    from graphpriv.mechanisms.release import column_decimals
    from graphpriv.release_stream import scan_decimals

    for col in ("x", "y"):
        raw = read_columns(sources["csv"], [col], raw=True)[col]
        want = column_decimals(pd.unique(raw.to_numpy(dtype=object)))
        assert scan_decimals(sources["csv_parts"], col, "csv") == scan_decimals(sources["csv"], col, "csv") == want
    assert scan_decimals(sources["csv"], "x", "csv") == 2                 # "7.50" as written
    vals = pq.read_table(sources["parquet"]).column("x").to_pandas()
    assert scan_decimals(sources["pq_parts"], "x", "parquet") == column_decimals(pd.unique(vals.dropna().to_numpy(dtype=object)))
    (tmp_path / "w.csv").write_text("s,x\n1,0.125\n2,3\n3,1e-2\n")
    assert scan_decimals(tmp_path / "w.csv", "x", "csv") == 3


@pytest.mark.parametrize("util, mode", [("U1", "label"), ("U1", "id"), ("U2", "codeword"), ("U2", "label")])
def test_pandas_reads_back_a_release_of_a_pandas_parquet_file(tmp_path, capsys, util, mode):
    """A file written by ``DataFrame.to_parquet`` carries pandas metadata naming each column's dtype
    (here ``Int64``); the release's metadata names the public column's new type, so
    ``pandas.read_parquet`` reads it back (the old entry made it fail on text values)."""
    import pandas as pd

    rng = np.random.default_rng(2)
    s = rng.integers(0, 6, 400)
    df = pd.DataFrame({"s": s, "x": pd.array((2 * s + rng.integers(0, 3, 400)) % 11, dtype="Int64"),
                       "note": [f"r{i}" for i in range(400)]})
    df.loc[::37, "x"] = pd.NA
    df.to_parquet(tmp_path / "t.parquet")
    summ = _sanitize(capsys, tmp_path / "t.parquet", tmp_path / "o", "-x", "x", "--objective", "L0", "--utility", util,
                     "--lam", "0.3", "--missing", "drop", "--release", mode)
    assert summ["rows"]["replaced_public"] > 0
    back = pd.read_parquet(tmp_path / "o" / "sanitized.parquet")
    raw = pq.read_table(tmp_path / "o" / "sanitized.parquet")
    assert back.columns.tolist() == ["s", "x", "note"] and len(back) == 400
    assert back["x"].isna().sum() == df["x"].isna().sum()
    assert back["x"].dropna().tolist() == raw.column("x").drop_null().to_pylist()
    assert back["note"].tolist() == df["note"].tolist() and back["s"].tolist() == df["s"].tolist()


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(kind=st.sampled_from(["int64", "int32", "string", "large_string", "float64"]),
       known=st.lists(st.integers(-50, 50), min_size=1, max_size=30, unique=True),
       rows=st.lists(st.one_of(st.none(), st.integers(-60, 60)), min_size=0, max_size=80),
       chunked=st.booleans(), spread=st.sampled_from([1, 10**7]))
def test_value_positions_equal_arrow_index_in(kind, known, rows, chunked, spread):
    """ValueCodes finds integers by binary search and text through a hash table built once (a batch
    of a 10^6-value column no longer rebuilds arrow's hash table): the positions equal
    ``pyarrow.compute.index_in`` on every row (unknown values and nulls: -1), plain or chunked."""
    import pyarrow.compute as pc

    from graphpriv.ingest.values import ValueCodes

    t = getattr(pa, kind)()

    def arr(xs):
        if kind.endswith("string"):
            return pa.array([None if x is None else f"v{x}" for x in xs], t)
        return pa.array([None if x is None else (x + 0.5 if kind == "float64" else x * spread) for x in xs], t)

    values = arr(known)
    vc = ValueCodes(values, np.arange(len(known))[::-1], None, "x")
    a = arr(rows)
    if chunked and len(rows) > 1:
        a = pa.chunked_array([a[: len(rows) // 2], a[len(rows) // 2:]])
    want = np.asarray(pc.index_in(a, value_set=values).fill_null(-1).to_numpy(zero_copy_only=False), dtype=np.int64)
    assert vc._positions(a).tolist() == want.tolist()
    codes = vc.codes(a)
    assert codes.tolist() == [-1 if p < 0 and r is None else -2 if p < 0 else len(known) - 1 - p
                              for p, r in zip(want.tolist(), rows)]
