"""A release never depends on a picture: ``graphpriv sanitize`` and ``graphpriv analyze`` with a figure,
animation or explorer that raises still write the table, mapping, trace and summary (or the report)
whole, exit 0, print one warning line naming the picture and the reason, and list it as skipped."""

from __future__ import annotations

import json
import logging
import re
import subprocess

import pandas as pd
import pytest

import graphpriv as gp
from graphpriv.cli import main

WARNING = re.compile(r"^graphpriv: warning: (\S+) skipped: (.+)$")


def run(argv, capsys) -> subprocess.CompletedProcess:
    """``graphpriv.cli.main(argv)`` in this process with graphpriv's own stderr handler (the one a shell
    sees), leaving the test process's logging as it was."""
    root, gplog = logging.getLogger(), logging.getLogger("graphpriv")
    saved = (root.level, list(root.handlers), gplog.level)
    root.handlers[:] = []           # so the CLI installs its "graphpriv: ..." handler on the captured stderr
    capsys.readouterr()
    try:
        rc = main([str(a) for a in argv])
    finally:
        root.setLevel(saved[0])
        root.handlers[:] = saved[1]
        gplog.setLevel(saved[2])
    out, err = capsys.readouterr()
    return subprocess.CompletedProcess(argv, rc, out, err)


def warnings_of(stderr: str) -> list[tuple[str, str]]:
    lines = [ln for ln in stderr.splitlines() if ln.strip()]
    assert all(WARNING.match(ln) or not ln.startswith("graphpriv: warning") for ln in lines), stderr
    assert "Traceback" not in stderr
    return [WARNING.match(ln).groups() for ln in lines if WARNING.match(ln)]


@pytest.fixture(scope="module")
def table(tmp_path_factory):
    """Paper 003's Fig. 1 range as a CSV with a third column (five components: Algorithm 2 merges)."""
    jr, values = gp.datasets.paper_example()
    rows = [(s, values[x], f"row {i}") for i, (s, x) in enumerate(jr.pairs())]
    path = tmp_path_factory.mktemp("data") / "example.csv"
    pd.DataFrame(rows, columns=["s", "x", "note"]).to_csv(path, index=False)
    return path


def recurse(*args, **kwargs):
    """A drawing that exceeds Python's recursion limit, as scipy's dendrogram does on a long chain of joins."""
    return recurse(*args, **kwargs)


def out_of_memory(*args, **kwargs):
    raise MemoryError("cannot allocate 81.3 GiB for an array with shape (104000, 104000)")


def broken(*args, **kwargs):
    raise ValueError("a bug in a plotting helper")


def sanitize(table, out, capsys):
    return run(["sanitize", table, "-s", "s", "-x", "x", "--objective", "I*", "--utility", "U1", "--lam", "0.3",
                "--out", out], capsys)


def assert_release_whole(table, out) -> dict:
    """The sanitised table (every row and column), mapping, trace and summary are all there and consistent."""
    src = pd.read_csv(table, dtype=str, keep_default_na=False)
    san = pd.read_csv(out / "sanitized.csv", dtype=str, keep_default_na=False)
    assert len(san) == len(src) and list(san.columns) == list(src.columns)
    pd.testing.assert_frame_equal(san.drop(columns="x"), src.drop(columns="x"))
    release = gp.Release.from_json((out / "mapping.json").read_text())
    pd.testing.assert_series_equal(release.transform(src["x"]).astype(str), san["x"], check_names=False)
    trace = gp.MergeTrace.from_json((out / "trace.json").read_text())
    summary = json.loads((out / "summary.json").read_text())
    assert summary["rows"]["read"] == summary["rows"]["written"] == len(src)
    assert summary["after"]["I_star"] == pytest.approx(0.0) and len(trace) > 1
    for f in summary["files"]:
        assert (out / f).is_file() and (out / f).stat().st_size > 0, f
    return summary


@pytest.mark.parametrize("target, raiser, file, reason", [
    ("_animation", recurse, "merges.gif", "RecursionError: maximum recursion depth exceeded"),
    ("_frontier_figure", broken, "frontier.png", "ValueError: a bug in a plotting helper"),
    ("_explorer", out_of_memory, "explorer.html", "MemoryError: cannot allocate 81.3 GiB"),
])
def test_sanitize_writes_the_release_when_a_picture_fails(table, tmp_path, capsys, monkeypatch, target, raiser, file,
                                                          reason):
    import graphpriv.cli.sanitize as cli_sanitize

    monkeypatch.setattr(cli_sanitize, target, raiser)
    out = tmp_path / "rel"
    proc = sanitize(table, out, capsys)
    assert proc.returncode == 0, proc.stderr
    warned = warnings_of(proc.stderr)
    assert len(warned) == 1 and warned[0][0] == file and warned[0][1].startswith(reason), proc.stderr
    summary = assert_release_whole(table, out)
    assert [e["file"] for e in summary["skipped"]] == [file]
    assert summary["skipped"][0]["reason"].startswith(reason)
    # the other pictures were drawn; nothing the failed one began is left, nor listed
    drawn = {"frontier.png", "frontier.pdf", "merges.gif", "explorer.html"} - ({"frontier.png", "frontier.pdf"}
                                                                              if file == "frontier.png" else {file})
    assert drawn <= set(summary["files"]) and not set(summary["files"]) & {file}
    assert not (out / file).exists()
    assert "wrote sanitized.csv, mapping.json, trace.json, summary.json" in proc.stdout


def test_sanitize_without_failures_skips_nothing(table, tmp_path, capsys):
    out = tmp_path / "rel"
    proc = sanitize(table, out, capsys)
    assert proc.returncode == 0 and not warnings_of(proc.stderr), proc.stderr
    summary = assert_release_whole(table, out)
    assert summary["skipped"] == []
    assert {"frontier.png", "frontier.pdf", "merges.gif", "explorer.html"} <= set(summary["files"])


def test_sanitize_every_picture_failing(table, tmp_path, capsys, monkeypatch):
    """All three pictures fail: three warning lines, three skipped entries, the release whole; -q silences them."""
    import graphpriv.cli.sanitize as cli_sanitize

    for name in ("_animation", "_frontier_figure", "_explorer"):
        monkeypatch.setattr(cli_sanitize, name, recurse)
    out = tmp_path / "rel"
    proc = sanitize(table, out, capsys)
    assert proc.returncode == 0, proc.stderr
    assert [f for f, _ in warnings_of(proc.stderr)] == ["frontier.png", "merges.gif", "explorer.html"]
    summary = assert_release_whole(table, out)
    assert [e["file"] for e in summary["skipped"]] == ["frontier.png", "merges.gif", "explorer.html"]
    assert not {"frontier.png", "merges.gif", "explorer.html"} & set(summary["files"])
    proc = run(["-q", "sanitize", table, "-s", "s", "-x", "x", "--objective", "I*", "--utility", "U1", "--lam", "0.3",
                "--out", out], capsys)
    assert proc.returncode == 0 and proc.stderr == "" and proc.stdout == ""
    assert len(json.loads((out / "summary.json").read_text())["skipped"]) == 3


@pytest.mark.parametrize("target, raiser, file, reason", [
    ("_confusability_figure", recurse, "figures/confusability.png", "RecursionError: maximum recursion depth exceeded"),
    ("_overview_figure", broken, "figures/overview.png", "ValueError: a bug in a plotting helper"),
    ("explore_components", out_of_memory, "explorer.html", "MemoryError: cannot allocate 81.3 GiB"),
])
def test_analyze_writes_the_report_when_a_picture_fails(table, tmp_path, capsys, monkeypatch, target, raiser, file,
                                                        reason):
    import graphpriv.cli.analyze as cli_analyze

    monkeypatch.setattr(gp.viz if target == "explore_components" else cli_analyze, target, raiser)
    out = tmp_path / "rep"
    proc = run(["analyze", table, "-s", "s", "-x", "x", "--out", out], capsys)
    assert proc.returncode == 0, proc.stderr
    warned = warnings_of(proc.stderr)
    assert len(warned) == 1 and warned[0][0] == file and warned[0][1].startswith(reason), proc.stderr
    report = json.loads((out / "report.json").read_text())
    assert report["measures"]["I_star"] == pytest.approx(gp.maximin_information(gp.datasets.paper_example()[0]))
    assert [e["file"] for e in report["skipped"]] == [file] and report["skipped"][0]["reason"].startswith(reason)
    files = [f["file"] for f in report["figures"]]
    assert file not in files and not (out / file).exists()
    assert {"figures/overview.png", "figures/joint_range.png", "figures/confusability.png"} - {file} <= set(files)
    assert report["explorer"] == (None if file == "explorer.html" else "explorer.html")
    stem = file.removeprefix("figures/").removesuffix(".png")
    md, html = (out / "report.md").read_text(), (out / "report.html").read_text()
    line = next(ln for ln in md.splitlines() if ln.startswith(f"- {stem}"))
    assert reason.split(":")[0] in line, md
    assert reason.split(":")[0] in html and stem in html


def test_long_runs_say_what_they_draw(table, tmp_path, capsys, monkeypatch):
    """Off a terminal, a run on a large range prints one line per picture it draws (here the threshold is
    lowered to the example's 7 values); the lines come before any warning about the same picture."""
    import graphpriv.cli.pictures as pictures
    import graphpriv.cli.sanitize as cli_sanitize

    monkeypatch.setattr(pictures, "ANNOUNCE_MIN_PUBLIC", 1)
    monkeypatch.setattr(cli_sanitize, "_explorer", recurse)
    proc = sanitize(table, tmp_path / "rel", capsys)
    assert proc.returncode == 0, proc.stderr
    assert proc.stderr.splitlines() == [
        "graphpriv: drawing frontier.png (1/3)...",
        "graphpriv: drawing merges.gif (2/3)...",
        "graphpriv: drawing explorer.html (3/3)...",
        "graphpriv: warning: explorer.html skipped: RecursionError: maximum recursion depth exceeded",
    ]
    proc = run(["analyze", table, "-s", "s", "-x", "x", "--out", tmp_path / "rep"], capsys)
    assert proc.returncode == 0, proc.stderr
    assert proc.stderr.splitlines() == ["graphpriv: drawing figures/overview.png (1/4)...",
                                        "graphpriv: drawing figures/joint_range.png (2/4)...",
                                        "graphpriv: drawing figures/confusability.png (3/4)...",
                                        "graphpriv: drawing explorer.html (4/4)..."]


def test_analyze_when_planning_the_figures_fails(table, tmp_path, capsys, monkeypatch):
    import graphpriv.cli.analyze as cli_analyze

    monkeypatch.setattr(cli_analyze, "_figure_plan", out_of_memory)
    out = tmp_path / "rep"
    proc = run(["analyze", table, "-s", "s", "-x", "x", "--out", out], capsys)
    assert proc.returncode == 0, proc.stderr
    assert [f for f, _ in warnings_of(proc.stderr)] == ["figures/"]
    report = json.loads((out / "report.json").read_text())
    assert report["figures"] == [] and report["skipped"][0]["reason"].startswith("MemoryError")
    assert report["explorer"] == "explorer.html" and (out / "report.html").is_file()


def test_pictures_guard_removes_partial_files_and_shows_a_bar(tmp_path, capsys, caplog):
    """The guard itself: a drawing that wrote one of its files and then failed leaves neither; KeyboardInterrupt
    is not swallowed; on a terminal a bar counts the pictures instead of the lines."""
    from graphpriv.cli.pictures import Pictures, reason_of

    caplog.set_level(logging.INFO, logger="graphpriv.cli")   # whatever earlier tests left the CLI loggers at
    caplog.set_level(logging.INFO, logger="graphpriv")
    pics = Pictures(tmp_path, 3, bar=True)

    def half_written():
        (tmp_path / "a.png").write_bytes(b"\x89PNG")
        raise OSError("disk full")

    assert pics.draw("a.png", ["a.png", "a.pdf"], half_written) == []
    assert not (tmp_path / "a.png").exists()
    assert pics.draw("b.png", ["b.png"], lambda: (tmp_path / "b.png").write_bytes(b"x") and None) == ["b.png"]
    with pytest.raises(KeyboardInterrupt):
        pics.draw("c.png", ["c.png"], lambda: (_ for _ in ()).throw(KeyboardInterrupt()))
    pics.close()
    assert pics.written == ["b.png"] and pics.skipped == [{"file": "a.png", "reason": "OSError: disk full"}]
    err = capsys.readouterr().err
    assert "figures" in err and "graphpriv: drawing" not in err
    assert any("a.png skipped: OSError: disk full" in r.getMessage() for r in caplog.records)
    assert reason_of(RecursionError()) == "RecursionError"
    assert len(reason_of(ValueError("x" * 1000))) < 320
