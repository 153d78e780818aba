"""In-process tests of graphpriv.io (readers, atomic writers, staged output, report) and graphpriv.parallel."""

from __future__ import annotations

import json
import os

import numpy as np
import pandas as pd
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import graphpriv as gp
import graphpriv.io as gio
from graphpriv.errors import InputError, UnknownColumnError
from graphpriv.parallel import dask_backend, default_n_jobs, parallel_backend, parallel_map, spawn_seeds


# ---------------------------------------------------------------------- readers
def test_read_columns_csv_parquet_builtin_agree(tmp_path):
    df = gp.datasets.load_hungarian()[["age", "sex", "chol"]]
    df.to_csv(tmp_path / "h.csv", index=False, na_rep="?")
    df.to_parquet(tmp_path / "h.parquet", index=False)
    a = gio.read_columns(tmp_path / "h.csv", ["age", "chol"])
    b = gio.read_columns(tmp_path / "h.parquet", ["age", "chol"])
    c = gio.read_columns("hungarian", ["age", "chol"])
    assert list(a.columns) == ["age", "chol"] and len(a) == len(b) == len(c) == 294
    for other in (b, c):
        assert np.array_equal(a["age"].to_numpy(float), other["age"].to_numpy(float))
        assert a["chol"].isna().sum() == other["chol"].isna().sum() == 23     # '?' is a missing token
    ranges = [gp.JointRange.from_dataframe(d, sensitive="age", public="chol", missing="keep") for d in (a, b, c)]
    assert ranges[1] == ranges[2]
    # CSV values are symbols as written: pandas wrote the float column chol as '132.0', which stays text
    # (ages are canonical integers, so they are integer labels); read as numbers it is the bundled range
    assert "132.0" in ranges[0].public_labels.tolist() and ranges[0].sensitive_labels.tolist() == ranges[2].sensitive_labels.tolist()
    assert gp.read_joint_range(tmp_path / "h.csv", "age", "chol", missing="keep", numbers="public") == ranges[2]


def test_raw_mode_keeps_exact_text(tmp_path):
    (tmp_path / "t.csv").write_text('a,b,c\n001,"x, y",NA\n2,?,1.50\n')
    raw = gio.read_columns(tmp_path / "t.csv", raw=True)
    assert raw.to_dict("list") == {"a": ["001", "2"], "b": ["x, y", "?"], "c": ["NA", "1.50"]}
    typed = gio.read_columns(tmp_path / "t.csv", ["a", "c"])
    # values as written: '001' is not the number 1, so the column stays text; 'NA' is missing
    assert typed["a"].tolist() == ["001", "2"] and typed["c"].isna().tolist() == [True, False]
    (tmp_path / "i.csv").write_text("a,b\n1,-12\n20,\n")
    ints = gio.read_columns(tmp_path / "i.csv")       # canonical integers: integer columns (Int64 with a gap)
    assert ints["a"].tolist() == [1, 20] and ints["b"].tolist()[0] == -12 and pd.isna(ints["b"].tolist()[1])


def test_mixed_column_read_as_text(tmp_path):
    """A column that is numeric in the first block and text later is read as text (no parse failure)."""
    n = 300_000
    lines = ["s,x"] + [f"{i % 7},{i % 1000}" for i in range(n)] + ["3,abc"]
    (tmp_path / "m.csv").write_text("\n".join(lines) + "\n")
    df = gio.read_columns(tmp_path / "m.csv", ["s", "x"])
    assert len(df) == n + 1 and df["x"].iloc[-1] == "abc"


@pytest.mark.parametrize("engine", ["pyarrow", "python"])
def test_reader_errors(tmp_path, engine):
    import functools

    read = functools.partial(gio.read_columns, engine=engine)
    (tmp_path / "ok.csv").write_text("a,b\n1,2\n")
    (tmp_path / "bad.csv").write_text("a,b\n1,2\n3,4,5\n")
    (tmp_path / "empty.csv").write_text("")
    (tmp_path / "head.csv").write_text("a,b\n")
    (tmp_path / "dup.csv").write_text("a,a\n1,2\n")
    with pytest.raises(InputError, match="does not exist"):
        read(tmp_path / "nope.csv")
    with pytest.raises(UnknownColumnError, match="unknown public column 'z'"):
        read(tmp_path / "ok.csv", ["a", "z"], roles=["sensitive", "public"])
    with pytest.raises(InputError, match="line 3 has 3 field"):
        read(tmp_path / "bad.csv", ["a", "b"])
    with pytest.raises(InputError, match="is empty"):
        read(tmp_path / "empty.csv", ["a", "b"])
    with pytest.raises(InputError, match="no data rows"):
        read(tmp_path / "head.csv", ["a", "b"])
    with pytest.raises(InputError, match="repeated column names"):
        read(tmp_path / "dup.csv")
    with pytest.raises(InputError, match="single character"):
        read(tmp_path / "ok.csv", sep=";;")
    (tmp_path / "lat.csv").write_bytes(b"a,b\n1,caf\xe9\n2,x\n")
    with pytest.raises(InputError, match="--encoding latin-1"):
        read(tmp_path / "lat.csv", ["a", "b"])
    with pytest.raises(InputError, match="--encoding latin-1"):
        read(tmp_path / "lat.csv", raw=True)
    assert read(tmp_path / "lat.csv", ["b"], encoding="latin-1")["b"].tolist() == ["café", "x"]
    with pytest.raises(InputError, match="not a known text encoding"):
        read(tmp_path / "ok.csv", encoding="nope")


@settings(max_examples=30, deadline=None)
@given(st.lists(st.tuples(st.integers(0, 9), st.one_of(st.none(), st.integers(-50, 50))), min_size=1, max_size=40))
def test_csv_roundtrip_range_matches_dataframe(tmp_path_factory, rows):
    """Property: CSV written by pandas, read by both engines, gives the joint range built from the frame itself."""
    d = tmp_path_factory.mktemp("prop")
    df = pd.DataFrame(rows, columns=["s", "x"])
    df["x"] = df["x"].astype("Int64")
    df.to_csv(d / "t.csv", index=False)
    want = gp.JointRange.from_dataframe(df.astype(object).where(df.notna(), None), sensitive="s", public="x", missing="keep")
    got = gp.JointRange.from_dataframe(gio.read_columns(d / "t.csv", ["s", "x"]), sensitive="s", public="x", missing="keep")
    assert got == want
    assert got.source.n_missing_public == int(df["x"].isna().sum())
    got2 = gp.JointRange.from_dataframe(gio.read_columns(d / "t.csv", ["s", "x"], engine="python"), sensitive="s",
                                        public="x", missing="keep")
    assert got2 == want
    assert gp.read_joint_range(d / "t.csv", "s", "x", missing="keep") == want


# ---------------------------------------------------------------------- writers
def test_atomic_write_failure_leaves_nothing(tmp_path):
    target = tmp_path / "a.json"
    target.write_text("old")
    with pytest.raises(RuntimeError):
        with gio.atomic_write(target) as fh:
            fh.write("partial")
            raise RuntimeError("boom")
    assert target.read_text() == "old" and os.listdir(tmp_path) == ["a.json"]


def test_staged_output_commits_or_discards(tmp_path):
    out = tmp_path / "out"
    with pytest.raises(RuntimeError):
        with gio.staged_output(out) as tmp:
            gio.write_text(tmp / "x.md", "x")
            raise RuntimeError("boom")
    assert os.listdir(tmp_path) == []
    with gio.staged_output(out) as tmp:
        gio.write_json(tmp / "r.json", {"v": np.int64(1), "f": np.float64("nan"), "s": {2, 1}, "m": gp.MISSING})
        gio.write_text(tmp / "sub" / "y.txt", "y")
    assert json.loads((out / "r.json").read_text()) == {"v": 1, "f": None, "s": [1, 2], "m": None}
    # a file the user put there is never deleted: the folder is refused while it holds one
    (out / "mine.txt").write_text("k")
    with pytest.raises(InputError, match="mine.txt"):
        with gio.staged_output(out) as tmp:
            gio.write_text(tmp / "sub" / "y.txt", "new")
    assert (out / "mine.txt").read_text() == "k"
    (out / "mine.txt").unlink()
    # an earlier graphpriv output is replaced whole: a stale file of the old run (r.json) does not survive
    with gio.staged_output(out) as tmp:
        gio.write_text(tmp / "sub" / "y.txt", "new")
    assert (out / "sub" / "y.txt").read_text() == "new" and not (out / "r.json").exists()
    assert sorted(os.listdir(out)) == [".graphpriv-output.json", "sub"]
    assert sorted(os.listdir(tmp_path)) == ["out"]
    # parent folders created for a failed run are removed again
    with pytest.raises(RuntimeError):
        with gio.staged_output(tmp_path / "a" / "b" / "c") as tmp:
            raise RuntimeError("boom")
    assert sorted(os.listdir(tmp_path)) == ["out"]
    with gio.staged_output(tmp_path / "a" / "b" / "c") as tmp:
        gio.write_text(tmp / "z", "z")
    assert (tmp_path / "a" / "b" / "c" / "z").read_text() == "z"


def test_write_table_csv_and_parquet(tmp_path):
    df = pd.DataFrame({"a": [1, 2], "b": ["x", None]})
    gio.write_table(tmp_path / "t.csv", df)
    gio.write_table(tmp_path / "t.parquet", df)
    assert (tmp_path / "t.csv").read_text() == "a,b\n1,x\n2,\n"
    pd.testing.assert_frame_equal(pd.read_parquet(tmp_path / "t.parquet"), df)
    with pytest.raises(InputError):
        gio.write_table(tmp_path / "t.x", df, fmt="xlsx")


# ---------------------------------------------------------------------- report
def test_report_on_paper_example():
    """Paper 003, Fig. 1 / Example 1: 5 components, I* = log2 5, k = 1, L0 = log2 6, min cut 0."""
    jr, _ = gp.datasets.paper_example()
    r = gio.analysis_report(jr)
    assert r["components"]["count"] == 5 and r["measures"]["I_star"] == pytest.approx(np.log2(5))
    assert r["measures"]["L0"] == pytest.approx(np.log2(6)) and r["measures"]["k_anonymity"] == 1
    assert r["min_cut"]["computed"] and r["min_cut"]["value"] == 0 and r["min_cut"]["side"] == ["x1", "x2"]
    assert r["components"]["small"][0] == {"public": ["x1", "x2"], "sensitive": ["s1", "s2"]}
    assert r["rows"] == {"read": 8, "used": 8, "dropped": 0, "missing_sensitive": 0, "missing_public": 0}
    md = gio.report_markdown(r, [{"file": "figures/a.png", "caption": "A"}])
    assert "![a](figures/a.png)" in md and "Figure 1. A" in md and "| I*(S;X) | 2.3219 |" in md
    page = gio.report_html({**r, "figures": [{"file": "figures/a.png", "caption": "A"}]}, ".")
    assert '<td>I*(S;X)</td><td class="num">2.3219</td>' in page and "---" not in page
    assert '<td>|[[S]]|</td><td class="num">6</td>' in page and "Figure 1. A" in page
    json.dumps(gio.to_jsonable(r))


def test_report_connected_range_min_cut_and_guard():
    jr = gp.JointRange.from_pairs(["a", "a", "b", "b"], [1, 2, 2, 3])        # path 1 - 2 - 3
    r = gio.analysis_report(jr)
    assert r["min_cut"]["value"] == 1 and not r["min_cut"]["decomposable"] and r["min_cut"]["side"] in ([1], [3])
    r = gio.analysis_report(jr, max_cut_edges=0)
    assert not r["min_cut"]["computed"] and r["min_cut"]["decomposable"] is False and r["min_cut"]["value"] is None


# ---------------------------------------------------------------------- parallel
def _square(v):
    return v * v


def test_parallel_map_backends_agree(monkeypatch):
    items = list(range(12))
    want = [v * v for v in items]
    assert parallel_map(_square, items) == want
    assert parallel_map(_square, items, n_jobs=2) == want
    with parallel_backend("threading", n_jobs=2):
        assert parallel_map(_square, items) == want
    monkeypatch.setenv("GRAPHPRIV_N_JOBS", "2")
    assert default_n_jobs() == 2 and parallel_map(_square, items) == want
    monkeypatch.setenv("GRAPHPRIV_N_JOBS", "many")
    with pytest.raises(InputError, match="GRAPHPRIV_N_JOBS"):
        parallel_map(_square, items)


def test_parallel_bad_input_and_dask_message():
    with pytest.raises(InputError):
        parallel_map(_square, [1], n_jobs=0)
    with pytest.raises(InputError):
        parallel_map(3, [1])
    try:
        import distributed  # noqa: F401
    except ImportError:
        with pytest.raises(InputError, match=r"needs dask.distributed.*graphpriv\[dask\]"):
            with dask_backend():
                pass
    else:  # pragma: no cover - only where dask is installed
        with dask_backend(processes=False, n_workers=1) as client:
            assert parallel_map(_square, [1, 2, 3]) == [1, 4, 9] and client is not None


def test_spawn_seeds_reproducible_and_distinct():
    a = spawn_seeds(7, 20)
    assert a == spawn_seeds(7, 20) and len(set(a)) == 20 and a != spawn_seeds(8, 20)
    with pytest.raises(InputError):
        spawn_seeds(0, -1)


# ---------------------------------------------------------------------- sanitize helpers (in-process)
def test_sanitized_column_missing_and_suppressed():
    """Row codes of the release: missing stays missing, a value only seen in dropped rows is suppressed."""
    from graphpriv.cli.sanitize import row_codes
    from graphpriv.release_writer import CODE_MISSING, CODE_SUPPRESSED

    rel = gp.Release.from_quantization([1, 2, 3], [frozenset({1, 2}), frozenset({3})], "id")
    typed = pd.Series([1.0, None, 3.0, 7.0, 2.0])          # 7 occurs only in a row dropped from the analysis
    codes = row_codes(rel, typed)
    assert codes.tolist() == [0, CODE_MISSING, 2, CODE_SUPPRESSED, 1]
    assert rel.transform(typed, unknown="ignore").tolist()[:1] == [0]
    rel = gp.Release.from_quantization([1, gp.MISSING], [frozenset({1, gp.MISSING})], "id")
    assert row_codes(rel, pd.Series([1, None])).tolist() == [0, 1]
    assert rel.transform(pd.Series([1, None])).tolist() == [0, 0]


def test_numeric_values_and_choose_release():
    from graphpriv.cli.sanitize import choose_release, numeric_values
    from graphpriv.errors import InputTypeError

    jr = gp.JointRange.from_pairs(["a", "b"], ["red", "blue"])
    assert numeric_values(jr, "x", "U1") is None
    with pytest.raises(InputTypeError, match="non-numeric"):
        numeric_values(jr, "x", "U2")
    jrm = gp.JointRange.from_pairs(["a", "b"], [1.0, None], missing="keep")
    with pytest.raises(InputError, match="--missing drop"):
        numeric_values(jrm, "x", "U2")
    # paper 003 Fig. 1, Algorithm 2 with U1: the frontier is (0, log2(7/3)) and (log2 5, log2 7) (Fig. 7)
    ex, _ = gp.datasets.paper_example()
    f = gp.pareto_frontier(ex, "I*", "U1")
    r, lam = choose_release(ex, f, "I*", "U1", None, 1.0)
    assert r.privacy == 0.0 and r.utility == pytest.approx(np.log2(7 / 3)) and lam >= 0
    r, lam = choose_release(ex, f, "I*", "U1", None, 2.0)
    assert r.privacy == pytest.approx(np.log2(5)) and r.utility == pytest.approx(np.log2(7))
    with pytest.raises(InputError, match="lower the threshold"):
        choose_release(ex, f, "I*", "U1", None, 3.0)


def test_make_figures_min_cut_only_when_connected(tmp_path):
    """A connected G_X (min cut 1) gets the cut figure; a decomposable one (paper 003 Fig. 1) does not."""
    from graphpriv.cli.analyze import make_figures

    path = gp.JointRange.from_pairs([1, 1, 2, 2, 3, 3], ["a", "b", "b", "c", "c", "d"])
    files = [f["file"] for f in make_figures(path, tmp_path / "p" / "figures", gio.analysis_report(path))]
    assert files == ["figures/overview.png", "figures/joint_range.png", "figures/confusability.png", "figures/min_cut.png"]
    ex, _ = gp.datasets.paper_example()
    files = [f["file"] for f in make_figures(ex, tmp_path / "e" / "figures", gio.analysis_report(ex))]
    assert "figures/min_cut.png" not in files and len(files) == 3
    assert all((tmp_path / "p" / f).stat().st_size > 0 for f in ["figures/min_cut.png", "figures/min_cut.pdf"])
