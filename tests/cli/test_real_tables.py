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


@pytest.mark.parametrize("kind", ["numeric", "text"])
def test_every_view_draws_ten_thousand_values(kind, tmp_path):
    """10,000 public values (floats of mixed precision, or place names), Algorithm 2's trace: every view
    at its first merge, the animation over t = 0, 1 and the explorer page."""
    import warnings

    import matplotlib.pyplot as plt

    t = rt.wide_table(tmp_path, kind=kind)
    jr = gp.read_joint_range(t.path, t.s, t.x)
    assert jr.n_public == 10_000
    result = gp.agglomerate(jr, "I*", 0.1)
    trace = result.trace
    assert len(trace) > 2
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", gp.DenseGraphWarning)   # G_X has ~5 million edges: the min cut says so
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
    assert gp.viz.animate_trace(trace, jr, tmp_path / "merges.gif", steps=[0, 1], dpi=50).stat().st_size > 0
    page = gp.viz.explore(result, jr).save(tmp_path / "explorer.html")
    assert 0 < page.stat().st_size <= 10_000_000


CHROMIUM = "/usr/bin/chromium"
ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking", "--disable-component-update",
        "--disable-sync", "--no-first-run"]
READY = "() => window.__gpx !== undefined && Bokeh.documents.length > 0 && Bokeh.documents[0].is_idle"


def _browser_page(api, path):
    """(browser, page, problems): ``path`` loaded in headless Chromium, console errors collected."""
    p = api.sync_playwright().start()
    browser = p.chromium.launch(executable_path=CHROMIUM, args=ARGS)
    page = browser.new_page(viewport={"width": 1300, "height": 1400})
    problems: list[str] = []
    page.on("console", lambda m: problems.append(f"{m.type}: {m.text}") if m.type in ("error", "warning") else None)
    page.on("pageerror", lambda e: problems.append(f"page error: {e}"))
    page.goto(path.as_uri())
    page.wait_for_function(READY, timeout=120_000)
    return p, browser, page, problems


def _playwright():
    import os
    import shutil

    pytest.importorskip("bokeh")
    api = pytest.importorskip("playwright.sync_api", reason="playwright is not installed")
    if not (os.path.exists(CHROMIUM) or shutil.which(CHROMIUM)):
        pytest.skip(f"Chromium not found at {CHROMIUM}")
    return api


@pytest.mark.parametrize("name", ["places", "measurement"])
def test_sanitize_explorer_loads_in_chromium(sanitized, name):
    """The explorer ``graphpriv sanitize`` wrote: loads in headless Chromium, the arrow keys move the step
    back to t = 0 and forward again, and no console error or page error at any step."""
    api = _playwright()
    t, out, proc = sanitized[name]
    assert proc.returncode == 0, proc.stderr
    trace = gp.MergeTrace.from_json((out / "trace.json").read_text())
    p, browser, page, problems = _browser_page(api, out / "explorer.html")
    try:
        seen = [page.evaluate("window.__gpx.st.t")]
        for key, times in (("ArrowLeft", len(trace) + 2), ("ArrowRight", 1), ("ArrowRight", 1)):
            for _ in range(times):
                page.keyboard.press(key)
            page.wait_for_function(READY, timeout=60_000)
            seen.append(page.evaluate("window.__gpx.st.t"))
        assert seen[1:] == [0, 1, 2], seen
        assert problems == [], problems
    finally:
        browser.close()
        p.stop()


#: Half the height of a 10 px tick label drawn at 90 degrees: its horizontal half-extent on the page.
HALF_LABEL = 5


def test_explorer_tick_labels_are_not_cut_at_the_frame_edges(sanitized):
    """Every tick label under the matrix lies whole inside the frame (its centre at least half a label
    height from either edge), at the opening step and at t = 1."""
    api = _playwright()
    t, out, proc = sanitized["places"]
    assert proc.returncode == 0, proc.stderr
    p, browser, page, problems = _browser_page(api, out / "explorer.html")
    try:
        margins = {}
        for step in ("open", 1):
            if step == 1:
                for _ in range(page.evaluate("window.__gpx.st.t") - 1):
                    page.keyboard.press("ArrowLeft")
                page.wait_for_function(READY, timeout=60_000)
            margins[step] = page.evaluate("""(() => {
                const v = Bokeh.index.find_one(Bokeh.documents[0].get_model_by_name('graphpriv-matrix'));
                const xs = window.__gpx.A.src.ticks.data.x.map(x => v.frame.x_scale.compute(x));
                return [Math.min(...xs) - v.frame.bbox.left, v.frame.bbox.right - Math.max(...xs)]; })()""")
        assert problems == [], problems
        assert all(min(m) >= HALF_LABEL for m in margins.values()), margins
    finally:
        browser.close()
        p.stop()


def test_analyze_joint_range_figure_keeps_its_matrix(tables):
    """The joint-range figure of ``graphpriv analyze`` keeps its matrix readable: at least 0.1 in per
    sensitive row (up to 1 in), whatever the length of the public labels."""
    from graphpriv.cli.analyze import _joint_range_figure

    t = tables["places"]
    jr = gp.read_joint_range(t.path, t.s, t.x)
    fig = _joint_range_figure(jr)
    fig.canvas.draw()
    (ax,) = [a for a in fig.axes if a.get_images() or a.collections or a.patches] or fig.axes[:1]
    height = ax.get_position().height * fig.get_figheight()
    assert height >= min(1.0, 0.1 * jr.n_sensitive), (height, fig.get_size_inches())


def test_collapsed_band_label_gives_the_range_of_its_values(tables):
    """No merge (Algorithm 1 at λ = 1): every value is in one collapsed band whose label states the
    smallest and the largest measurement."""
    import re

    t = tables["measurement"]
    values = pd.read_csv(t.path)[t.x]
    jr = gp.read_joint_range(t.path, t.s, t.x)
    trace = gp.agglomerate(jr, "L0", 1.0).trace
    labels = {}
    for name, fig in (("plot_trace", gp.viz.plot_trace(trace, jr)), ("plot_merge_view", gp.viz.plot_merge_view(trace, jr, 0))):
        fig.canvas.draw()
        texts = [x.get_text() for ax in fig.axes for x in [*ax.get_xticklabels(), *ax.texts]]
        labels[name] = [s for s in texts if re.fullmatch(rf"\[{t.n_public}: .+\]", s)]
    assert all(len(found) == 1 for found in labels.values()), labels
    ranges = {name: tuple(float(v) for v in re.fullmatch(r"\[\d+: (.+)–(.+)\]", found[0]).groups())
              for name, found in labels.items()}
    assert all(r == (values.min(), values.max()) for r in ranges.values()), (labels, values.min(), values.max())
