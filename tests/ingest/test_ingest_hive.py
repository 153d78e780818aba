"""Hive-partitioned datasets: a column held in the folder names (``root/s=3/part-0.parquet``).

``pyarrow.parquet.write_to_dataset(..., partition_cols=[...])``, dask's ``to_parquet(partition_on=...)``
and Spark write a partition column into the folder names and not into the files. Checked: such a
folder (or a glob below it), partitioned by the sensitive column, the public column (with its missing
values in ``__HIVE_DEFAULT_PARTITION__``) or a third column, gives the same JointRange, counts and
RangeSource as the concatenated table, read locally, on a dask cluster, and through a pyarrow Dataset
with pyarrow's own Hive discovery; CSV folders give the folder text as the field text; sanitize keeps
the partition folders, and refuses (one line, exit 2, nothing written) a public column that is a
partition key, since it rewrites the public column inside the files.
"""

from __future__ import annotations

import json
import os

import numpy as np
import pandas as pd
import pyarrow as pa
import pyarrow.dataset as pads
import pyarrow.parquet as pq
import pytest

from conftest import announce

import graphpriv as gp
from graphpriv.ingest import resolve_source
from graphpriv.ingest.sources import HIVE_NULL, hive_type

from test_cli_analyze import assert_one_line_error, only_inputs_left, run_inproc  # noqa: F401
from test_ingest import _same


def _frame(n=3000, seed=5):
    rng = np.random.default_rng(seed)
    s = rng.integers(0, 12, n)
    x = (3 * s + rng.integers(0, 4, n)) % 40
    df = pd.DataFrame({"s": pd.array(s, dtype="Int64"), "x": pd.array(x, dtype="Int64"), "grp": rng.integers(0, 3, n),
                       "other": rng.random(n)})
    df.loc[rng.random(n) < 0.03, "x"] = pd.NA
    return df


@pytest.fixture(scope="module")
def hive(tmp_path_factory):
    d = tmp_path_factory.mktemp("hive")
    df = _frame()
    table = pa.Table.from_pandas(df, preserve_index=False)
    for key in ("s", "x", "grp"):
        pq.write_to_dataset(table, d / f"by_{key}", partition_cols=[key])
    return d, df


@pytest.mark.parametrize("missing", ["keep", "drop"])
@pytest.mark.parametrize("key", ["s", "x", "grp"])
def test_hive_parquet_folder_equals_the_whole_table(hive, key, missing):
    d, df = hive
    want = gp.JointRange.from_dataframe(df, sensitive="s", public="x", missing=missing)
    root = d / f"by_{key}"
    src = resolve_source(root)
    assert src.partition_keys == (key,) and len(src.files) > 1
    if key == "x":
        assert f"x={HIVE_NULL}" in os.listdir(root) and None in src.partition_values("x")
    for source in (root, str(root / "*" / "*.parquet"),
                   pads.dataset(str(root), format="parquet", partitioning="hive")):
        got = gp.read_joint_range(source, "s", "x", missing=missing)
        _same(got, want)
        assert got.sensitive_labels.dtype.kind == want.sensitive_labels.dtype.kind


def test_hive_parquet_folder_on_a_dask_cluster(hive, dask_client, capsys):
    d, df = hive
    want = gp.JointRange.from_dataframe(df, sensitive="s", public="x", missing="drop")
    for key in ("s", "x"):
        _same(gp.read_joint_range(d / f"by_{key}", "s", "x", missing="drop", client=dask_client), want)
    workers = dask_client.scheduler_info()["workers"]      # a line in the CI log that shows the cluster ran
    announce(capsys, f"[dask] Hive-partitioned read ran on {dask_client.scheduler.address} with {len(workers)} worker processes")


def test_hive_csv_folder_gives_the_folder_text(tmp_path):
    """CSV: a partition value is the field text a CSV cell would hold (URI-decoded; "007" stays text,
    canonical integers become integers, the default partition is missing)."""
    rows = {"7": [("a", 1), ("b", 2)], "007": [("c", 2)], "a%20b": [("d", 3)], HIVE_NULL: [("e", 3), ("f", 4)]}
    flat = []
    for folder, recs in rows.items():
        (tmp_path / "t" / f"s={folder}").mkdir(parents=True)
        (tmp_path / "t" / f"s={folder}" / "part.csv").write_text("name,x\n" + "".join(f"{n},{x}\n" for n, x in recs))
        text = None if folder == HIVE_NULL else folder.replace("%20", " ")
        flat += [(text, n, x) for n, x in recs]
    one = tmp_path / "all.csv"
    one.write_text("s,name,x\n" + "".join(f"{'' if s is None else s},{n},{x}\n" for s, n, x in flat))
    for missing in ("keep", "drop"):
        want = gp.read_joint_range(one, "s", "x", missing=missing)
        got = gp.read_joint_range(tmp_path / "t", "s", "x", missing=missing)
        _same(got, want)
    got = gp.read_joint_range(tmp_path / "t", "s", "x", missing="drop")
    assert sorted(got.sensitive_labels.tolist(), key=str) == ["007", "7", "a b"]


def test_hive_type():
    assert hive_type(["1", "-20", None]) == "int64"
    assert hive_type(["1", "2.5"]) == "string"          # folder texts as written: numbers only when asked
    assert hive_type(["007", "1"]) == "string"          # "007" is not the text of the integer 7
    assert hive_type(["a", "1"]) == "string"
    assert hive_type(["nan", "1"]) == "string"
    assert hive_type([None]) == "string"


def test_sanitize_keeps_partition_folders(hive, tmp_path, capsys):
    """Sensitive column in the folder names: the release has the same folders, and equals, row for row,
    the release of the concatenated table (the partition value restored from its folder)."""
    d, df = hive
    opts = ["-s", "s", "-x", "x", "--objective", "L0", "--utility", "U2", "--lam", "0.2", "--missing", "drop",
            "--no-animation", "--no-explorer"]
    one = tmp_path / "all.parquet"
    pq.write_table(pa.Table.from_pandas(df, preserve_index=False), one)
    for data, out in ((one, tmp_path / "one"), (d / "by_s", tmp_path / "parts")):
        proc = run_inproc(["sanitize", data, *opts, "--out", out], capsys)
        assert proc.returncode == 0, proc.stderr
    summ = json.loads((tmp_path / "parts" / "summary.json").read_text())
    assert summ["rows"]["read"] == summ["rows"]["written"] == len(df)
    assert all(p["output"].startswith("sanitized/s=") for p in summ["rows"]["parts"])
    frames = []
    for part in summ["rows"]["parts"]:
        f = pq.read_table(tmp_path / "parts" / part["output"]).to_pandas(ignore_metadata=True)
        f["s"] = int(part["output"].split("/")[1].removeprefix("s="))
        frames.append(f)
    got = pd.concat(frames)[["s", "x", "other"]]
    want = pd.read_parquet(tmp_path / "one" / "sanitized.parquet")[["s", "x", "other"]]
    key = ["other"]                                   # distinct random floats: a row's identity
    got = got.sort_values(key).reset_index(drop=True)
    want = want.sort_values(key).reset_index(drop=True)
    assert got["s"].astype("int64").tolist() == want["s"].astype("int64").tolist()
    assert got["x"].astype(object).fillna("<NA>").tolist() == want["x"].astype(object).fillna("<NA>").tolist()
    assert 1 < want["x"].nunique() < df["x"].nunique()
    assert summ["after"] == json.loads((tmp_path / "one" / "summary.json").read_text())["after"]


def test_sanitize_refuses_a_public_partition_key(hive, tmp_path, capsys):
    d, _ = hive
    out = tmp_path / "o"
    proc = run_inproc(["sanitize", d / "by_x", "-s", "s", "-x", "x", "--objective", "L0", "--utility", "U1", "--lam", "0.3",
                       "--out", out], capsys)
    assert_one_line_error(proc, "partition key", "x=...")
    assert not out.exists()
    only_inputs_left(tmp_path, {"o"} - {"o"})
