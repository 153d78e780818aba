"""Realistic public tables end to end, as a new user runs them: a numeric measurement with 600 values of
mixed precision (CSV), 2,700 place names in 7 components (CSV, text with accents, commas and
apostrophes) and a Hive-partitioned Parquet folder with 5,000 integer values (tables of
:mod:`realistic_tables`, seeded).

``graphpriv sanitize`` (one objective per table, pictures on) and ``graphpriv analyze`` exit 0, write
the release whole (every row and every other column, mapping, trace, audited summary) and the explorer;
a picture left out is listed in ``skipped`` with its reason. Every view of :mod:`graphpriv.viz` then
draws the sanitize trace at its first step without an exception (Ding & Farokhi, *Developing
Non-Stochastic Privacy-Preserving Policies Using Agglomerative Clustering*, Algorithms 1 and 2 and
Section V-C).
"""

from __future__ import annotations

import json
import subprocess
import sys

import pandas as pd
import pytest
import realistic_tables as rt
from test_cli_analyze import ENV

import graphpriv as gp

pytestmark = pytest.mark.usefixtures("close_figures")

#: table -> the sanitize options it is run with (one run per table: the three objectives, U1 and U2).
RUNS = {
    "measurement": ["--objective", "L0|I*=0", "--utility", "U2", "--lam", "0.1"],
    "places": ["--objective", "I*", "--utility", "U1", "--lam", "0.1"],
    "postcodes": ["--objective", "L0", "--utility", "U1", "--lam", "0.1"],
}


def run_cli(*args) -> subprocess.CompletedProcess:
    """``graphpriv ARGS`` in a fresh interpreter, as a shell runs it (a generous timeout: shared CI cores)."""
    return subprocess.run([sys.executable, "-m", "graphpriv.cli", *map(str, args)], capture_output=True, text=True,
                          env=ENV, timeout=900)


@pytest.fixture(scope="module")
def tables(tmp_path_factory) -> dict[str, rt.Table]:
    folder = tmp_path_factory.mktemp("real")
    return {"measurement": rt.measurement_table(folder), "places": rt.places_table(folder),
            "postcodes": rt.parquet_folder(folder)}


@pytest.fixture(scope="module")
def sanitized(tables, tmp_path_factory) -> dict:
    """``graphpriv sanitize`` once per table: name -> (table, output folder, completed process)."""
    out = {}
    for name, options in RUNS.items():
        t = tables[name]
        dest = tmp_path_factory.mktemp(f"release-{name}")
        out[name] = (t, dest, run_cli("sanitize", t.path, "-s", t.s, "-x", t.x, *options, "--out", dest, "--overwrite"))
    return out


def _read(path) -> pd.DataFrame:
    if path.is_dir() or path.suffix == ".parquet":
        return pd.read_parquet(path)
    return pd.read_csv(path, dtype=str, keep_default_na=False)


@pytest.mark.parametrize("name", list(RUNS))
def test_sanitize_writes_the_whole_release(sanitized, name):
    t, out, proc = sanitized[name]
    assert proc.returncode == 0, proc.stderr
    assert "Traceback" not in proc.stderr
    summary = json.loads((out / "summary.json").read_text())
    # the audited summary: the release was read back and checked against the mapping
    assert summary["audit"]["verified"] is True and summary["audit"]["differences"] == []
    assert summary["rows"]["read"] == summary["rows"]["written"] == t.n_rows
    assert summary["before"]["n_public"] == t.n_public
    assert summary["after"]["n_public"] < t.n_public          # something was merged
    for f in summary["files"]:
        assert (out / f).exists() and (out / f).stat().st_size > 0, f
    for f in ("mapping.json", "trace.json", "summary.json", "explorer.html", "frontier.png"):
        assert f in summary["files"], (f, summary["skipped"])
    # what was left out says why (the animation beyond its size limit); nothing listed is on disk
    for entry in summary["skipped"]:
        assert entry["reason"] and not (out / entry["file"]).exists(), entry
    # the sanitised table: every row and every other column as read
    src = _read(t.path)
    part = summary["rows"]["parts"]
    san = _read(out / ("sanitized" if t.path.is_dir() else part[0]["output"]))
    assert len(san) == len(src) and sorted(san.columns) == sorted(src.columns)
    others = [c for c in src.columns if c != t.x]
    a = src[others].astype(str).sort_values(others).reset_index(drop=True)
    b = san[others].astype(str).sort_values(others).reset_index(drop=True)
    pd.testing.assert_frame_equal(a, b)
    # the mapping turns the public column into the released one (as a multiset: row order kept per file)
    release = gp.Release.from_json((out / "mapping.json").read_text())
    released = release.transform(src[t.x]).astype(str)
    assert sorted(released) == sorted(san[t.x].astype(str))
    trace = gp.MergeTrace.from_json((out / "trace.json").read_text())
    assert trace.n_public == t.n_public and len(trace) > 1


def test_analyze_parquet_folder_writes_report_and_explorer(tables, tmp_path):
    """5,000 integer values in a partitioned Parquet folder: report, figures and the component explorer."""
    t = tables["postcodes"]
    proc = run_cli("analyze", t.path, "-s", t.s, "-x", t.x, "--out", tmp_path / "report")
    assert proc.returncode == 0, proc.stderr
    assert "Traceback" not in proc.stderr
    report = json.loads((tmp_path / "report" / "report.json").read_text())
    assert report["range"]["n_public"] == t.n_public and report["rows"]["read"] == t.n_rows
    assert report["components"]["count"] == 3
    assert report["explorer"] == "explorer.html" and (tmp_path / "report" / "explorer.html").stat().st_size > 0
    for f in ("report.md", "report.html"):
        assert (tmp_path / "report" / f).stat().st_size > 0
    for entry in report["skipped"]:
        assert entry["reason"], entry


@pytest.mark.parametrize("name", ["measurement", "places"])
def test_every_view_draws_the_trace(sanitized, name, tmp_path):
    """plot_trace, plot_merge_view, animate_trace, plot_confusability, plot_min_cut and
    plot_merge_hierarchy at the first merge of the sanitize trace: no exception, files written."""
    import matplotlib.pyplot as plt

    t, out, proc = sanitized[name]
    assert proc.returncode == 0, proc.stderr
    jr = gp.read_joint_range(t.path, t.s, t.x)
    trace = gp.MergeTrace.from_json((out / "trace.json").read_text())
    assert jr.n_public == trace.n_public == t.n_public
    drawn = {
        "trace": gp.viz.plot_trace(trace, jr, steps=[1]),
        "merge_view": gp.viz.plot_merge_view(trace, jr, 1),
        "confusability": gp.viz.plot_confusability(jr).figure,
        "min_cut": gp.viz.plot_min_cut(jr).figure,
        "hierarchy": gp.viz.plot_merge_hierarchy(trace, 1).figure,
    }
    for key, fig in drawn.items():
        fig.savefig(tmp_path / f"{key}.png", dpi=60)
        assert (tmp_path / f"{key}.png").stat().st_size > 0
        plt.close(fig)
    gif = gp.viz.animate_trace(trace, jr, tmp_path / "merges.gif", steps=[0, 1], dpi=50)
    assert gif.stat().st_size > 0
