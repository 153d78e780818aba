"""Output folders whole or absent, reports rendered from data, one-line CLI errors.

A run writes into a staging folder beside ``--out`` and swaps it in at the end; these tests interrupt
running ``graphpriv sanitize`` processes (SIGINT, SIGTERM, SIGKILL), run two into one ``--out`` at once,
plant links, and feed hostile file names to the report writers.
"""

from __future__ import annotations

import hashlib
import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

import graphpriv as gp
from graphpriv import io as gio
from graphpriv.cli import main
from graphpriv.errors import InputError
from graphpriv.outputs import OUTPUT_MARKER

ROOT = Path(__file__).resolve().parents[2]
SANITIZE = ["sanitize", "hungarian", "-s", "age", "-x", "chol", "--missing", "drop", "--objective", "L0",
            "--utility", "U1"]


def _env():
    env = dict(os.environ, MPLBACKEND="Agg", PYTHONPATH=str(ROOT) + os.pathsep + os.environ.get("PYTHONPATH", ""))
    env.pop("PYTHONWARNINGS", None)
    return env


def _popen(args, cwd):
    return subprocess.Popen([sys.executable, "-m", "graphpriv.cli", *map(str, args)], cwd=cwd, env=_env(),
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)


def _snapshot(folder: Path) -> dict:
    """{relative path: sha256} of every file (links recorded as such)."""
    out = {}
    for p in sorted(folder.rglob("*")):
        rel = str(p.relative_to(folder))
        if p.is_symlink():
            out[rel] = "link:" + os.readlink(p)
        elif p.is_file():
            out[rel] = hashlib.sha256(p.read_bytes()).hexdigest()
    return out


def _staging(parent: Path) -> list[str]:
    return sorted(p.name for p in parent.iterdir() if p.name.startswith("."))


def _assert_whole_output(out: Path) -> dict:
    """``out`` is exactly one run's output: the marker lists every file there, and nothing else."""
    marker = json.loads((out / OUTPUT_MARKER).read_text())
    files = sorted(str(p.relative_to(out)) for p in out.rglob("*") if p.is_file() and p.name != OUTPUT_MARKER)
    assert files == marker["files"]
    summary = json.loads((out / "summary.json").read_text())
    assert sorted(summary["files"]) == sorted(files)
    return summary


@pytest.fixture(scope="module")
def previous(tmp_path_factory):
    """A folder holding a finished sanitize output (the 'old --out')."""
    base = tmp_path_factory.mktemp("prev")
    proc = _popen([*SANITIZE, "--lam", "0.5", "--no-animation", "--out", "rel"], base)
    so, se = proc.communicate(timeout=300)
    assert proc.returncode == 0, se
    return base / "rel"


def _copy_previous(previous: Path, dest: Path) -> Path:
    import shutil

    shutil.copytree(previous, dest / "rel", symlinks=True)
    return dest / "rel"


@pytest.mark.parametrize("sig, code", [(signal.SIGINT, 130), (signal.SIGTERM, 143), (signal.SIGKILL, -9)])
def test_killed_sanitize_leaves_old_output_and_no_staging(tmp_path, previous, sig, code):
    out = _copy_previous(previous, tmp_path)
    before = _snapshot(out)
    proc = _popen([*SANITIZE, "--lam", "0.01", "--out", "rel"], tmp_path)
    deadline = time.monotonic() + 240
    while not _staging(tmp_path) and proc.poll() is None and time.monotonic() < deadline:
        time.sleep(0.005)
    if proc.poll() is not None:
        pytest.fail(f"sanitize ended before it could be interrupted: {proc.communicate()[1]}")
    proc.send_signal(sig)
    so, se = proc.communicate(timeout=120)
    print(f"signal {sig.name}: exit {proc.returncode}, stderr {se.strip()[-80:]!r}")
    assert proc.returncode == code, se
    assert _snapshot(out) == before                      # the old folder, untouched
    if sig != signal.SIGKILL:
        assert "Traceback" not in se
        assert _staging(tmp_path) == []                  # nothing left behind
        assert se.strip().splitlines()[-1] in ("graphpriv: interrupted", "graphpriv: terminated")
    else:
        assert _staging(tmp_path)                        # a killed process cannot clean up ...
    # ... the next run does: afterwards one whole new output and no staging folder
    rc = main([*SANITIZE, "--lam", "0.01", "--no-animation", "-q", "--out", str(out)])
    assert rc == 0 and _staging(tmp_path) == []
    summary = _assert_whole_output(out)
    assert summary["lam"] == 0.01 and not (out / "merges.gif").exists()


def test_two_concurrent_runs_never_mix(tmp_path, previous):
    out = _copy_previous(previous, tmp_path)
    procs = [_popen([*SANITIZE, "--lam", lam, *extra, "--out", "rel"], tmp_path)
             for lam, extra in (("0.01", []), ("2", ["--no-animation"]))]
    results = [p.communicate(timeout=300) for p in procs]
    codes = [p.returncode for p in procs]
    assert codes == [0, 0], results
    summary = _assert_whole_output(out)
    assert summary["lam"] in (0.01, 2.0)
    assert (out / "merges.gif").exists() == (summary["lam"] == 0.01)  # the animation belongs to its own run
    assert _staging(tmp_path) == []


def test_symlink_inside_out_never_followed(tmp_path, previous):
    out = _copy_previous(previous, tmp_path)
    outside = tmp_path / "outside"
    outside.mkdir()
    argv = ["analyze", "hungarian", "-s", "age", "-x", "chol", "--missing", "keep", "-q", "--out", str(out)]
    (out / "figures").symlink_to(outside, target_is_directory=True)      # a link graphpriv did not write
    assert main(argv) == 2                                                # refused: not graphpriv's
    assert (out / "figures").is_symlink() and list(outside.iterdir()) == []
    (out / "figures").unlink()
    (out / "frontier.png").unlink()
    (out / "frontier.png").symlink_to(outside / "victim.png")            # a file it wrote, now a link
    assert main(argv) == 0
    assert list(outside.iterdir()) == []                  # nothing written through the links
    assert (out / "figures").is_dir() and not (out / "figures").is_symlink()
    assert not (out / "frontier.png").exists()            # the old output was replaced whole


def test_out_itself_a_link_or_empty_is_refused(tmp_path, capsys):
    real = tmp_path / "real"
    real.mkdir()
    (tmp_path / "link").symlink_to(real, target_is_directory=True)
    for out, needle in ((tmp_path / "link", "symbolic link"), ("", "--out is empty"), (" ", "--out is empty")):
        rc = main(["analyze", "hungarian", "-s", "age", "-x", "chol", "--missing", "keep", "--no-figures", "--out", str(out)])
        err = capsys.readouterr().err.strip().splitlines()
        assert rc == 2 and len(err) == 1 and needle in err[0] and "--help" in err[0], err
    assert list(real.iterdir()) == []
    with pytest.raises(InputError, match="empty"):
        with gio.staged_output(""):
            pass


def test_umask_honoured(tmp_path):
    old = os.umask(0o027)
    try:
        rc = main(["analyze", "hungarian", "-s", "age", "-x", "chol", "--missing", "keep", "-q",
                   "--out", str(tmp_path / "a" / "r")])
    finally:
        os.umask(old)
    assert rc == 0
    modes = {str(p.relative_to(tmp_path)): p.stat().st_mode & 0o777 for p in (tmp_path / "a").rglob("*")}
    modes["a"] = (tmp_path / "a").stat().st_mode & 0o777
    assert modes["a"] == modes["a/r"] == modes["a/r/figures"] == 0o750
    assert modes["a/r/report.json"] == modes["a/r/figures/overview.png"] == 0o640
    assert set(modes.values()) == {0o750, 0o640}, modes


def test_leftover_of_dead_process_is_removed_but_live_one_kept(tmp_path):
    dead = subprocess.Popen([sys.executable, "-c", "pass"])
    dead.wait()
    stale = tmp_path / f".out.{dead.pid}.abc.graphpriv-stage"
    stale.mkdir()
    (stale / "sanitized.csv").write_text("secret")
    live = tmp_path / f".out.{os.getppid()}.abc.graphpriv-stage"
    live.mkdir()
    unrelated = tmp_path / ".other.1.x.graphpriv-stage"
    unrelated.mkdir()
    with gio.staged_output(tmp_path / "out") as tmp:
        gio.write_text(tmp / "a.txt", "a")
    assert not stale.exists() and live.exists() and unrelated.exists()


def test_exception_inside_staged_output_removes_stage_and_keeps_old(tmp_path):
    out = tmp_path / "out"
    with gio.staged_output(out) as tmp:
        gio.write_text(tmp / "a.txt", "old")
    for exc in (RuntimeError("boom"), KeyboardInterrupt()):
        with pytest.raises(type(exc)):
            with gio.staged_output(out) as tmp:
                gio.write_text(tmp / "b.txt", "new")
                raise exc
        assert sorted(os.listdir(tmp_path)) == ["out"] and sorted(os.listdir(out)) == [OUTPUT_MARKER, "a.txt"]


# ---------------------------------------------------------------------- command-line errors
@pytest.mark.parametrize("argv, needle, hint", [
    (["analyze", "hungarian", "-s", "age"], "required: -x/--public", "graphpriv analyze --help"),
    (["analyze", "hungarian", "-s", "age", "-x", "chol", "--bogus"], "unrecognized arguments: --bogus", "graphpriv analyze --help"),
    (["sanitize", "hungarian", "-s", "age", "-x", "chol", "--objective", "X"], "invalid choice", "graphpriv sanitize --help"),
    (["sanitize", "hungarian", "-s", "a", "-x", "b", "--objective", "L0", "--utility", "U1", "--lam", "x"], "invalid float", "graphpriv sanitize --help"),
    (["nonsense"], "invalid choice", "graphpriv --help"),
    (["analyze", "hungarian", "-s", "age", "-x", "nope"], "unknown public column", "graphpriv analyze --help"),
])
def test_cli_errors_are_one_line_with_help_hint(argv, needle, hint, capsys):
    rc = main(argv)
    cap = capsys.readouterr()
    lines = cap.err.strip().splitlines()
    assert rc == 2 and len(lines) == 1 and cap.out == "", cap.err
    assert lines[0].startswith("graphpriv: error: ") and needle in lines[0] and lines[0].endswith(f"see '{hint}'")


def test_verbose_shows_graphpriv_messages_not_matplotlib(tmp_path):
    proc = subprocess.run([sys.executable, "-m", "graphpriv.cli", "-v", "analyze", "hungarian", "-s", "age", "-x", "chol",
                           "--missing", "keep", "--out", str(tmp_path / "r")], env=_env(), capture_output=True, text=True,
                          timeout=300)
    assert proc.returncode == 0, proc.stderr
    assert "graphpriv: read 294 rows" in proc.stderr and "graphpriv: figures:" in proc.stderr
    assert "findfont" not in proc.stderr and "font_manager" not in proc.stderr and "DEBUG" not in proc.stderr


# ---------------------------------------------------------------------- reports
def test_hostile_file_name_never_embeds_or_injects(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    (tmp_path / "secret.txt").write_text("TOP-SECRET")
    name = Path("d\n![x](../secret.txt)<script>alert(1)</script>\n# h") / "e.csv"
    name.parent.mkdir(parents=True)
    name.write_text("s,x\n1,<b>a</b>\n2,b\n2,c\n")
    assert main(["analyze", str(name), "-s", "s", "-x", "x", "-q", "--out", "r"]) == 0
    md = Path("r/report.md").read_text()
    page = Path("r/report.html").read_text()
    secret64 = __import__("base64").b64encode(b"TOP-SECRET").decode()
    assert secret64[:12] not in page and "TOP-SECRET" not in page
    assert "<script" not in md and "<script" not in page and "<b>" not in md and "<b>" not in page
    assert "&lt;script&gt;" in md and "&lt;script&gt;" in page and "&lt;b&gt;a&lt;/b&gt;" in page
    assert "\\!\\[x\\](../secret.txt)" in md                     # shown as text, not an image
    assert "![x]" not in md.replace("\\!\\[x\\]", "")
    lines = md.splitlines()
    assert not any(line.startswith("# h") for line in lines)    # the newline in the name made no heading
    assert page.count("data:image/png;base64,") == len(json.loads(Path("r/report.json").read_text())["figures"])
    assert "Smaller side X'" in md or "min cut" in md.lower()


def test_report_html_embeds_only_graphpriv_figures(tmp_path):
    jr, _ = gp.datasets.paper_example()
    r = gio.analysis_report(jr)
    (tmp_path / "figures").mkdir()
    png = b"\x89PNG\r\n\x1a\n" + b"0" * 20
    (tmp_path / "figures" / "ok.png").write_bytes(png)
    (tmp_path / "figures" / "fake.png").write_bytes(b"not a png")
    (tmp_path / "outside.png").write_bytes(png)
    (tmp_path / "figures" / "link.png").symlink_to(tmp_path / "outside.png")
    figs = [{"file": f, "caption": f} for f in ("figures/ok.png", "figures/fake.png", "../outside.png",
                                                 "figures/link.png", "/etc/passwd", "figures/../outside.png")]
    page = gio.report_html({**r, "figures": figs}, tmp_path)
    assert page.count("data:image/png;base64,") == 1
    md = gio.report_markdown({**r, "figures": figs})
    links = [line for line in md.splitlines() if "](" in line]     # links only to figures/<name>.png
    assert links == ["![ok](figures/ok.png)", "![fake](figures/fake.png)", "![link](figures/link.png)"]


def test_report_names_min_cut_side_and_omitted_figures(tmp_path):
    jr = gp.JointRange.from_pairs(["a", "a", "b", "b"], [1, 2, 2, 3])        # path 1 - 2 - 3, min cut 1
    assert main(["analyze", "hungarian", "-s", "age", "-x", "chol", "--missing", "keep", "-q", "--no-figures",
                 "--out", str(tmp_path / "r")]) == 0
    md = (tmp_path / "r" / "report.md").read_text()
    assert "Figures left out:" in md and "--no-figures was given" in md
    r = gio.analysis_report(jr)
    md = gio.report_markdown({**r, "figures_omitted": [{"figure": "joint_range", "reason": "too many cells"}]})
    side = r["min_cut"]["side"]
    assert f"Smaller side X' (1 public value): [{side[0]}]" in md and "- joint\\_range: too many cells" in md
    assert any("smaller side X'" in line for line in gio.report_lines(r))


# ---------------------------------------------------------------------- Ctrl-C while the command starts
def test_sigint_during_package_import_is_one_line_exit_130(tmp_path):
    """Importing graphpriv takes a second or more; Ctrl-C in that window (before ``main`` runs) must give
    the same one line and status 130 as later, not a traceback from inside a library's import.

    The command starts with SIGINT at its default action, as from a shell: a process that starts with
    SIGINT ignored keeps ignoring it (Python turns it into KeyboardInterrupt only when the parent left
    it at the default). Twice in the full suite the command finished the demo and exited 0 with
    nothing on stderr, which is what a command started with SIGINT ignored does."""
    proc = subprocess.Popen([sys.executable, "-m", "graphpriv.cli", "demo"], cwd=tmp_path, env=_env(),
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                            preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL))
    time.sleep(0.25)                   # well inside the import (>1 s here), after the interpreter's own start-up
    proc.send_signal(signal.SIGINT)
    _, err = proc.communicate(timeout=60)
    assert "Traceback" not in err, err
    assert proc.returncode == 130, (proc.returncode, err, "SIGINT in the test process:", signal.getsignal(signal.SIGINT))
    assert len(err.strip().splitlines()) == 1 and err.startswith("graphpriv: interrupted"), err
    assert os.listdir(tmp_path) == []


def test_import_interrupt_propagates_outside_the_command(monkeypatch):
    """In a user's program ``import graphpriv`` interrupted by Ctrl-C raises KeyboardInterrupt as usual."""
    from graphpriv import _startup

    monkeypatch.setattr(sys, "argv", ["my_analysis.py"])
    with pytest.raises(KeyboardInterrupt):
        with _startup.interrupt_guard():
            raise KeyboardInterrupt
    monkeypatch.setattr(sys, "argv", ["/usr/local/bin/graphpriv", "demo"])
    exits = []
    monkeypatch.setattr(_startup.os, "_exit", exits.append)
    with _startup.interrupt_guard():
        raise KeyboardInterrupt
    assert exits == [130]


# ---------------------------------------------------------------------- platforms without an atomic exchange
def test_replace_without_atomic_exchange_two_renames(tmp_path, monkeypatch):
    """Where ``renameat2(RENAME_EXCHANGE)`` is missing (macOS, Windows, old Linux) the old output is renamed
    aside and the stage renamed in: the result is the same whole new output, the old one is removed, and a
    failure before the swap keeps the old output."""
    from graphpriv import outputs

    monkeypatch.setattr(outputs, "_exchange", lambda a, b: False)
    out = tmp_path / "out"
    with gio.staged_output(out) as tmp:
        gio.write_text(tmp / "a.txt", "old")
    with gio.staged_output(out) as tmp:
        gio.write_text(tmp / "b.txt", "new")
    assert sorted(os.listdir(out)) == [OUTPUT_MARKER, "b.txt"]
    assert sorted(os.listdir(tmp_path)) == ["out"]
    with pytest.raises(RuntimeError):
        with gio.staged_output(out) as tmp:
            gio.write_text(tmp / "c.txt", "half")
            raise RuntimeError("boom")
    assert sorted(os.listdir(out)) == [OUTPUT_MARKER, "b.txt"] and sorted(os.listdir(tmp_path)) == ["out"]


def test_exchange_used_where_available(tmp_path):
    """On Linux the swap is one ``renameat2(RENAME_EXCHANGE)``: both paths swapped in one step."""
    from graphpriv import outputs

    a, b = tmp_path / "a", tmp_path / "b"
    a.mkdir(), b.mkdir()
    (a / "x").write_text("a"), (b / "y").write_text("b")
    if not outputs._exchange(a, b):
        pytest.skip("no renameat2(RENAME_EXCHANGE) on this platform (the two-rename path is tested above)")
    assert os.listdir(a) == ["y"] and os.listdir(b) == ["x"]


@pytest.mark.parametrize("sig, code, becomes", [(signal.SIGINT, 130, ValueError), (signal.SIGINT, 130, "input"),
                                                (signal.SIGTERM, 143, ValueError)])
def test_signal_turned_into_another_exception_still_exits_130_143(monkeypatch, capsys, sig, code, becomes):
    """pandas' C parser reports a KeyboardInterrupt raised in its read callback as a ParserError; the
    command line still ends with the signal's status (seen in CI: exit 1 and a traceback)."""
    import os

    import graphpriv.cli as cli
    from graphpriv.cli import demo
    from graphpriv.errors import InputError

    def library_call(args):
        try:
            os.kill(os.getpid(), sig)
            time.sleep(1)                                  # the handler raises here
        except BaseException as exc:                       # noqa: BLE001 - what a C extension does
            raise (InputError("read failed") if becomes == "input" else becomes("read failed")) from exc
        return 0

    monkeypatch.setattr(demo, "run", library_call)
    before = (signal.getsignal(signal.SIGINT), signal.getsignal(signal.SIGTERM))
    assert cli.main(["demo"]) == code
    err = capsys.readouterr().err
    assert err.strip().splitlines()[-1] == ("graphpriv: interrupted" if code == 130 else "graphpriv: terminated")
    assert (signal.getsignal(signal.SIGINT), signal.getsignal(signal.SIGTERM)) == before   # handlers restored
