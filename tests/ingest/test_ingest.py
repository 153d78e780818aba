"""Reading data (graphpriv.ingest, gp.read_joint_range, JointRange.from_dask): strict CSV, values as written,
partitioned datasets, the dask path, and the one-line errors of ``graphpriv analyze``."""

from __future__ import annotations

import collections
import csv
import importlib.util
import io
import json
import math

import numpy as np
import pandas as pd
import pyarrow as pa
import pyarrow.parquet as pq
import pytest

from conftest import announce
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import graphpriv as gp
import graphpriv.io as gio
from graphpriv.cli import main
from graphpriv.errors import InputError, InputTypeError, UnknownColumnError
from graphpriv.ingest import iter_batches, read_columns


def run_main(argv, capsys):
    capsys.readouterr()
    try:
        rc = main([str(a) for a in argv])
    except SystemExit as exc:
        rc = exc.code
    out, err = capsys.readouterr()
    return rc, out, err


def one_line_error(rc, err, *needles):
    lines = [ln for ln in err.splitlines() if ln.strip()]
    assert rc == 2 and len(lines) == 1 and lines[0].startswith("graphpriv: error: "), err
    for n in needles:
        assert n.lower() in lines[0].lower(), (n, lines[0])
    return lines[0]


# ---------------------------------------------------------------------- strict reading
LEAK = b's,zip,notes\nflu,02139,ok\ncold,10001,"unclosed\nhiv,94103,x\ncancer,60601,y\n'

#: name -> (file bytes, extra CLI args, expected first-line fragments); every case is an error, exit 2.
BAD_INPUTS = {
    "unclosed_quote_other_column": (LEAK, [], ("not a well-formed csv", "starts on line 3 never closes")),
    "quote_at_end_of_file": (b's,zip,notes\nflu,02139,ok\ncold,10001,"', [], ("starts on line 3 never closes",)),
    "unclosed_quote_swallows_to_next_quote": (b's,zip,notes\nflu,0,"a\nhiv,9,"x"\n', [], ("text after a closing quote",)),
    "junk_after_closing_quote": (b's,zip,notes\nflu,02139,"ok"junk\nhiv,94103,x\n', [], ("line 2 has text after a closing quote",)),
    "junk_after_quote_in_x": (b's,zip\nflu,"021"39\n', [], ("line 2 has text after a closing quote",)),
    "extra_field_other_column": (b's,zip,notes\nflu,02139,ok\nhiv,94103,x,extra\n', [], ("line 3 has 4 field(s) but the header has 3", "--sep")),
    "missing_field": (b's,zip,notes\nflu,02139\n', [], ("line 2 has 2 field(s) but the header has 3",)),
    "non_utf8_header": (b's,z\xffp\nflu,02139\n', [], ("line 1 is not valid utf-8", "--encoding latin-1")),
    "non_utf8_row": (b's,zip\nflu,02139\nflu,0\xe91\n', [], ("line 3 is not valid utf-8",)),
    "encoding_utf16_on_utf8_file": (b's,zip\nflu,02139\n', ["--encoding", "utf-16"], ("not valid utf-16",)),
    "encoding_rot13": (b's,zip\nflu,02139\n', ["--encoding", "rot13"], ("not a file encoding",)),
    "long_cell_in_x": (b"s,zip\nflu," + b"9" * 20_000 + b"\n", [], ("20000 characters", "at most 10000")),
    "numbers_collide": (b"s,zip\n1,007\n2,7\n", ["--numbers", "public"], ("'007' and '7' are both 7",)),
}


@pytest.mark.parametrize("name", sorted(BAD_INPUTS))
def test_bad_input_is_one_line_exit_2_nothing_written(name, tmp_path, capsys):
    data, extra, needles = BAD_INPUTS[name]
    (tmp_path / "in.csv").write_bytes(data)
    rc, out, err = run_main(["analyze", tmp_path / "in.csv", "-s", "s", "-x", "zip", *extra, "--out", tmp_path / "out"], capsys)
    one_line_error(rc, err, *needles)
    assert sorted(p.name for p in tmp_path.iterdir()) == ["in.csv"]


@pytest.mark.parametrize("engine", ["pyarrow", "python"])
def test_both_csv_engines_give_the_same_errors_and_records(engine, tmp_path):
    for name in ("unclosed_quote_other_column", "junk_after_closing_quote", "extra_field_other_column", "non_utf8_row"):
        (tmp_path / "b.csv").write_bytes(BAD_INPUTS[name][0])
        with pytest.raises(InputError, match="line"):
            read_columns(tmp_path / "b.csv", ["s", "zip"], engine=engine)
    text = 's,x,notes\r\n1,007,"a, ""quoted"" b"\r\n\r\n2,7,"two\nlines"\n3, 7,\n4,7.0,"x"\n'
    (tmp_path / "g.csv").write_text(text, newline="")
    df = read_columns(tmp_path / "g.csv", engine=engine)
    assert df["notes"].tolist()[:2] == ['a, "quoted" b', "two\nlines"]
    assert df["x"].tolist() == ["007", "7", " 7", "7.0"] and df["s"].tolist() == [1, 2, 3, 4]


def test_symbols_are_what_the_file_says(tmp_path, capsys):
    (tmp_path / "a.csv").write_text("s,x\n1,007\n2,7\n")
    jr = gp.read_joint_range(tmp_path / "a.csv", "s", "x")
    assert jr.public_labels.tolist() == ["007", "7"] and gp.maximin_information(jr) == pytest.approx(1.0)  # X identifies S
    rc, out, _ = run_main(["analyze", tmp_path / "a.csv", "-s", "s", "-x", "x", "--json"], capsys)
    assert rc == 0 and json.loads(out)["measures"]["I_star"] == pytest.approx(1.0)
    (tmp_path / "b.csv").write_text("s,x\n1,1.0\n2,1\n3, 1\n4,1e0\n5,True\n6,1\n")
    jr = gp.read_joint_range(tmp_path / "b.csv", "s", "x")
    assert sorted(jr.public_labels.tolist()) == sorted([" 1", "1", "1.0", "1e0", "True"]) and jr.n_pairs == 6
    # numbers on request: distinct numbers are fine, two texts of one number are reported
    (tmp_path / "c.csv").write_text("s,x\n1,1.5\n2,-3\n3,10\n")
    assert gp.read_joint_range(tmp_path / "c.csv", "s", "x", numbers="public").public_labels.tolist() == [-3.0, 1.5, 10.0]
    with pytest.raises(InputTypeError, match="'True', which is not a number"):
        gp.read_joint_range(tmp_path / "b.csv", "s", "x", numbers=True)
    (tmp_path / "e.csv").write_text("s,x\n1,1.0\n2,1\n")
    with pytest.raises(InputError, match="'1.0' and '1' are both 1"):
        gp.read_joint_range(tmp_path / "e.csv", "s", "x", numbers=True)
    # canonical integers are integer labels in numeric order; other numeric text sorts naturally
    (tmp_path / "d.csv").write_text("s,x\n10,9\n9,10\n-1,10.5\n")
    jr = gp.read_joint_range(tmp_path / "d.csv", "s", "x")
    assert jr.sensitive_labels.tolist() == [-1, 9, 10] and jr.public_labels.tolist() == ["9", "10", "10.5"]


def test_non_finite_labels_json_and_bool_int_labels(tmp_path):
    assert [gio.label_to_json(v) for v in (float("inf"), float("-inf"), float("nan"), gp.MISSING)] == \
        ["Infinity", "-Infinity", "NaN", None]
    pq.write_table(pa.table({"s": [1, 2, 3], "x": [1.5, math.inf, -math.inf]}), tmp_path / "f.parquet")
    jr = gp.read_joint_range(tmp_path / "f.parquet", "s", "x")
    assert [gio.label_to_json(v) for v in jr.public_labels.tolist()] == ["-Infinity", 1.5, "Infinity"]
    with pytest.raises(InputTypeError, match="mixes the boolean True with the number 1"):
        gp.JointRange.from_pairs([1, 2], [True, 1])
    pq.write_table(pa.table({"s": [1, 2], "b": [True, False], "i": [1, 0]}), tmp_path / "b.parquet")
    assert gp.read_joint_range(tmp_path / "b.parquet", "b", "i").sensitive_labels.tolist() == [False, True]


def test_parquet_float16_and_dictionary_columns(tmp_path):
    x = pa.array(np.array([1.5, 2.0, 1.5, np.nan], dtype=np.float16))
    s = pa.array(["a", "b", "b", "c"]).dictionary_encode()
    pq.write_table(pa.table({"s": s, "x": x}), tmp_path / "h.parquet")
    jr = gp.read_joint_range(tmp_path / "h.parquet", "s", "x", missing="keep")
    assert jr.public_labels.tolist()[:2] == [1.5, 2] and jr.public_labels[-1] is gp.MISSING
    assert jr.sensitive_labels.tolist() == ["a", "b", "c"] and jr.source.n_missing_public == 1


def test_from_dataframe_duplicate_columns_and_paths(tmp_path):
    df = pd.DataFrame([[1, 2, 3]], columns=["s", "x", "x"])
    with pytest.raises(InputError, match="2 columns named 'x'"):
        gp.JointRange.from_dataframe(df, sensitive="s", public="x")
    (tmp_path / "t.csv").write_text("s,x\n1,a\n2,\n")
    jr = gp.JointRange.from_dataframe(tmp_path / "t.csv", sensitive="s", public="x", missing="drop")
    assert jr.source == gp.RangeSource(n_rows=2, n_missing_public=1, n_dropped=1)


@settings(max_examples=100, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(st.sampled_from(["s,x\n", '"s","x"\r\n']),
       st.text(alphabet=['a', '1', '0', ',', '"', '\n', '\r', ' ', 'x'], min_size=0, max_size=60))
def test_reader_agrees_with_strict_csv_module(tmp_path, header, body):
    """Property: on any text, the reader returns exactly the records of Python's strict csv module (blank
    lines are not records) with the header's field count, or raises a one-line InputError."""
    text = header + body
    (tmp_path / "f.csv").write_text(text, newline="")
    try:
        rows = [r for r in csv.reader(io.StringIO(text, newline=""), strict=True) if r][1:]
        expect = None if any(len(r) != 2 for r in rows) else rows
    except csv.Error:
        expect = None
    for engine in ("auto", "python"):
        try:
            got = [b.to_pydict() for b in iter_batches(tmp_path / "f.csv", ["s", "x"], raw=True, engine=engine)]
        except InputError as exc:
            assert "\n" not in str(exc) and expect is None, (text, str(exc))
            continue
        assert expect is not None, text
        assert [[a, b] for d in got for a, b in zip(d["s"], d["x"])] == expect


@settings(max_examples=40, deadline=None)
@given(st.lists(st.tuples(st.one_of(st.none(), st.integers(-3, 3)), st.one_of(st.none(), st.sampled_from(["7", "007", "1", "x"]))),
                min_size=1, max_size=30), st.integers(1, 7))
def test_three_aggregators_agree(rows, batch):
    """Property: in-memory, sorted-runs (integers) and hash group-by aggregation give the same pairs and counts."""
    from graphpriv.ingest import pairs as gpairs

    s = pa.array([r[0] for r in rows], pa.int64())
    x = pa.array([r[1] for r in rows], pa.string())
    batches = pa.table({"s": s, "x": x}).to_batches(max_chunksize=batch)
    sb = pa.table({"s": s, "x": s}).to_batches(max_chunksize=batch)

    def norm(t):   # the sorted-runs path gives a text column of canonical integers as integers (same labels)
        text = [None if v is None else str(v) for v in t["x"].to_pylist()]
        return sorted(((a, b, n) for a, b, n in zip(t["s"].to_pylist(), text, t["n"].to_pylist())), key=repr)

    want = collections.Counter(rows)
    assert norm(gpairs._aggregate_in_memory(batches)) == sorted(((a, None if b is None else str(b), n)
                                                                 for (a, b), n in want.items()), key=repr)
    assert norm(gpairs._sorted_runs_aggregate(iter(batches))) == norm(gpairs._aggregate_in_memory(batches))
    assert norm(gpairs._sorted_runs_aggregate(iter(sb))) == norm(gpairs._aggregate_in_memory(sb))


# ---------------------------------------------------------------------- partitioned data
def _table(n=4000, seed=0):
    rng = np.random.default_rng(seed)
    s = rng.integers(0, 40, n)
    x = (s * 7 + rng.integers(0, 5, n)) % 150
    df = pd.DataFrame({"s": pd.array(s, dtype="Int64"), "x": pd.array(x, dtype="Int64"), "other": rng.random(n)})
    df.loc[rng.random(n) < 0.02, "x"] = pd.NA
    df.loc[rng.random(n) < 0.01, "s"] = pd.NA
    return df


def _same(a, b):
    assert a == b and a.source == b.source
    assert np.array_equal(a.sensitive_labels, b.sensitive_labels) and np.array_equal(a.public_labels, b.public_labels)
    assert (a.counts != b.counts).nnz == 0


@pytest.fixture(scope="module")
def parts(tmp_path_factory):
    d = tmp_path_factory.mktemp("parts")
    df = _table()
    pieces = np.array_split(np.arange(len(df)), 4)
    (d / "csv").mkdir()
    (d / "pq").mkdir()
    for k, idx in enumerate(pieces):
        sub = df.iloc[idx]
        sub.to_csv(d / "csv" / f"part-{k}.csv", index=False)
        pq.write_table(pa.Table.from_pandas(sub, preserve_index=False), d / "pq" / f"part-{k}.parquet")
    (d / "pq" / "_SUCCESS").write_text("")
    df.to_csv(d / "all.csv", index=False)
    return d, df


@pytest.mark.parametrize("missing", ["keep", "drop"])
@pytest.mark.parametrize("in_memory_rows", [1 << 24, 500])
def test_partitioned_dataset_and_csv_folder_equal_the_whole_table(parts, missing, in_memory_rows, monkeypatch):
    """In memory (small data) and streamed (past ``IN_MEMORY_ROWS``) give the same range, counts and RangeSource."""
    import pyarrow.dataset as pads

    import graphpriv.ingest.pairs as gpairs

    monkeypatch.setattr(gpairs, "IN_MEMORY_ROWS", in_memory_rows)
    d, df = parts
    want = gp.JointRange.from_dataframe(df, sensitive="s", public="x", missing=missing)
    assert want.source.n_missing_public > 0 and want.source.n_missing_sensitive > 0
    for src in (d / "all.csv", d / "csv", str(d / "csv" / "part-*.csv"), d / "pq", str(d / "pq" / "*.parquet"),
                pads.dataset(str(d / "pq"), format="parquet")):
        _same(gp.read_joint_range(src, "s", "x", missing=missing), want)
    _same(gp.read_joint_range(d / "csv", "s", "x", missing=missing, engine="python"), want)


def test_missing_error_names_first_rows_across_files(parts):
    d, df = parts
    rows = np.flatnonzero(df["x"].isna().to_numpy())[:5].tolist()
    with pytest.raises(gp.MissingValueError, match=r"'x' has %d missing value\(s\) \(rows %s" % (
            int(df["x"].isna().sum()), ", ".join(map(str, rows)))):
        gp.read_joint_range(d / "pq", "s", "x")


def test_dataset_errors(tmp_path, capsys, monkeypatch):
    (tmp_path / "mix").mkdir()
    pq.write_table(pa.table({"s": [1, 2], "x": [1, 2]}), tmp_path / "mix" / "a.parquet")
    pq.write_table(pa.table({"s": [1, 2], "x": ["1", "2"]}), tmp_path / "mix" / "b.parquet")
    rc, _, err = run_main(["analyze", tmp_path / "mix", "-s", "s", "-x", "x", "--out", tmp_path / "o"], capsys)
    one_line_error(rc, err, "disagree on the type of column 'x'", "int64", "string")
    rc, _, err = run_main(["analyze", str(tmp_path / "nothing-*.csv"), "-s", "s", "-x", "x", "--out", tmp_path / "o"], capsys)
    one_line_error(rc, err, "matches no file")
    (tmp_path / "cols").mkdir()
    (tmp_path / "cols" / "a.csv").write_text("s,x\n1,2\n")
    (tmp_path / "cols" / "b.csv").write_text("s,y\n1,2\n")
    with pytest.raises(UnknownColumnError, match="b.csv"):
        gp.read_joint_range(tmp_path / "cols", "s", "x")
    (tmp_path / "cols" / "b.csv").write_text("s,x\n1,2\n")
    import graphpriv.parallel

    monkeypatch.setattr(graphpriv.parallel, "CONNECT_TIMEOUT", 1.0)     # nothing listens: no need to wait 10 s
    rc, _, err = run_main(["analyze", tmp_path / "cols", "-s", "s", "-x", "x", "--scheduler", "tcp://127.0.0.1:9",
                           "--out", tmp_path / "o"], capsys)
    if importlib.util.find_spec("distributed") is None:   # without the dask extra: what to install, one line
        one_line_error(rc, err, "needs dask.distributed", "graphpriv[dask]")
    else:
        one_line_error(rc, err, "no dask scheduler reachable at 'tcp://127.0.0.1:9'")
    assert not (tmp_path / "o").exists()
    from argparse import Namespace

    from graphpriv.cli.analyze import scheduler_address

    monkeypatch.setenv("DASK_SCHEDULER_ADDRESS", "tcp://10.0.0.1:8786")      # the default of --scheduler
    assert scheduler_address(Namespace(scheduler=None)) == "tcp://10.0.0.1:8786"
    assert scheduler_address(Namespace(scheduler="tcp://h:1")) == "tcp://h:1"


def test_analyze_folder_equals_single_file(parts, capsys):
    d, _ = parts
    reports = []
    for src in (d / "all.csv", d / "csv", d / "pq"):
        rc, out, err = run_main(["analyze", src, "-s", "s", "-x", "x", "--missing", "keep", "--json"], capsys)
        assert rc == 0, err
        rep = json.loads(out)
        reports.append({k: rep[k] for k in ("rows", "range", "measures", "components")})
    assert reports[0] == reports[1] == reports[2] and reports[0]["rows"]["read"] == 4000


# ---------------------------------------------------------------------- dask
def test_from_dask_on_a_cluster_equals_from_dataframe(parts, dask_client, capsys):
    dd = pytest.importorskip("dask.dataframe")
    d, df = parts
    workers = dask_client.scheduler_info()["workers"]
    announce(capsys, f"[dask] from_dask ran on {dask_client.scheduler.address} with {len(workers)} worker processes")
    assert len(workers) == 2
    ddf = dd.from_pandas(df, npartitions=11)            # > SPLIT_EVERY partitions: a two-level tree
    for missing in ("keep", "drop"):
        _same(gp.JointRange.from_dask(ddf, sensitive="s", public="x", missing=missing, client=dask_client),
              gp.JointRange.from_dataframe(df, sensitive="s", public="x", missing=missing))
    with pytest.raises(gp.MissingValueError, match="rows"):
        gp.JointRange.from_dask(ddf, sensitive="s", public="x", client=dask_client)
    # files read on the workers (one task per file, merged in a tree) equal the local read
    want = gp.read_joint_range(d / "pq", "s", "x", missing="keep")
    _same(gp.read_joint_range(d / "pq", "s", "x", missing="keep", client=dask_client), want)
    _same(gp.read_joint_range(d / "csv", "s", "x", missing="keep", client=dask_client), want)
    rc, out, err = run_main(["analyze", d / "csv", "-s", "s", "-x", "x", "--missing", "keep", "--json",
                             "--scheduler", dask_client.scheduler.address], capsys)
    assert rc == 0, err
    assert json.loads(out)["rows"]["read"] == 4000
