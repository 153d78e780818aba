"""``graphpriv figures --out DIR --quick`` produces every file its manifest lists, staged whole into DIR."""

from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path

import matplotlib

matplotlib.use("Agg")

import matplotlib.pyplot as plt  # noqa: E402
import pytest  # noqa: E402

from graphpriv.cli import main  # noqa: E402
from graphpriv.outputs import OUTPUT_MARKER  # noqa: E402
from graphpriv.reproduce import registry  # noqa: E402

LINK = re.compile(r"\]\(([^)]+)\)")


def manifest_files(out: Path) -> list[str]:
    text = (out / "README.md").read_text()
    rows = [ln for ln in text.splitlines() if ln.startswith("| [")]
    return [m for ln in rows for m in LINK.findall(ln)]


@pytest.fixture(scope="module")
def built(tmp_path_factory):
    """The full ``graphpriv figures --quick`` run (PNG resolution lowered to keep the suite fast)."""
    import graphpriv.viz.style as style

    out = tmp_path_factory.mktemp("figures")
    with pytest.MonkeyPatch.context() as mp:
        mp.setitem(style.RC, "savefig.dpi", 50)
        mp.setitem(style.RC, "pdf.compression", 0)
        assert main(["-q", "figures", "--out", str(out), "--quick"]) == 0
    return out


def test_every_manifest_file_exists(built):
    files = manifest_files(built)
    assert files, "manifest lists no files"
    for name in files:
        p = built / name
        assert p.is_file() and p.stat().st_size > 0, f"manifest lists {name} but it was not written"
    # nothing but manifest entries, the manifest itself and the output marker was written
    assert {p.name for p in built.iterdir()} == set(files) | {"README.md", OUTPUT_MARKER}


def test_every_registered_figure_in_manifest(built):
    text = (built / "README.md").read_text()
    for spec in registry():
        assert f"[{spec.name}.pdf]" in text and f"[{spec.name}.png]" in text, spec.name


def test_manifest_rows_well_formed_paper003(built):
    """Five columns per paper-003 row (a '|' inside a description would break the table)."""
    rows = [ln for ln in (built / "README.md").read_text().splitlines() if ln.startswith("| [paper003")]
    assert len(rows) >= 7
    for ln in rows:
        assert ln.count("|") == 6, ln


def test_paper003_figures_present_and_non_blank(built):
    names = {s.name for s in registry() if s.paper == "003"}
    expected = {"paper003_fig1_joint_range", "paper003_fig2_confusability_graph", "paper003_fig3_convergence_alg1",
                "paper003_fig4_alg2_U1_merges", "paper003_fig5_alg2_U2_merges", "paper003_fig6_convergence_alg2",
                "paper003_fig8_hungarian_convergence"}
    assert expected <= names
    for name in sorted(names):
        img = plt.imread(built / f"{name}.png")[..., :3]
        assert (img < 0.95).any(axis=-1).mean() > 0.005, f"{name}.png looks blank"
        head = (built / f"{name}.pdf").read_bytes()[:5]
        assert head == b"%PDF-"


def test_hungarian_merge_figures_in_manifest(built):
    """Algorithms 1, 2 and Section V-C on the Hungarian data (153 values) drawn with the scalable merge views."""
    text = (built / "README.md").read_text()
    for name in ("paper003_hungarian_alg1_merge_view", "paper003_hungarian_alg1_matrix_steps",
                 "paper003_hungarian_alg2_merge_view", "paper003_hungarian_secVC_merge_view"):
        row = next(ln for ln in text.splitlines() if f"[{name}.png]" in ln)
        assert "153 public values" in row
        assert (built / f"{name}.png").stat().st_size > 0


def test_hungarian_min_cut_figure_in_manifest(built):
    """Section IV's min cuts at real size: the Hungarian G_X (two components, kappa = 0) and its largest component."""
    text = (built / "README.md").read_text()
    row = next(ln for ln in text.splitlines() if "[paper003_hungarian_min_cuts.png]" in ln)
    assert "kappa = 0" in row and "kappa = 1" in row
    img = plt.imread(built / "paper003_hungarian_min_cuts.png")[..., :3]
    assert (img < 0.95).any(axis=-1).mean() > 0.02


def test_errata_recorded_for_hungarian(built):
    text = (built / "README.md").read_text()
    row = next(ln for ln in text.splitlines() if "paper003_fig8" in ln)
    assert "2 components" in row and "Not reproducible" in row


def test_console_script_only(tmp_path):
    """A fresh interpreter (as on a clean install) through the CLI entry module."""
    env = {**os.environ, "MPLBACKEND": "Agg"}
    cmd = [sys.executable, "-m", "graphpriv.cli", "figures", "--out", str(tmp_path), "--only", "paper003_fig1", "--quick"]
    res = subprocess.run(cmd, capture_output=True, text=True, env=env, timeout=120)
    assert res.returncode == 0, res.stderr
    assert sorted(p.name for p in tmp_path.iterdir()) == sorted([OUTPUT_MARKER, "README.md", "paper003_fig1_joint_range.pdf", "paper003_fig1_joint_range.png"])
    assert "paper003_fig1_joint_range" in (tmp_path / "README.md").read_text()


def test_list(capsys):
    assert main(["figures", "--list"]) == 0
    out = capsys.readouterr().out
    assert "paper003_fig4_alg2_U1_merges" in out and "Fig. 4" in out


def test_figures_follow_the_umask(tmp_path):
    """Files are created with 0o666 & ~umask (as open() would), not mkstemp's 0600."""
    from graphpriv.reproduce import build_all

    old = os.umask(0o027)
    try:
        build_all(tmp_path, only=["paper003_fig1_joint_range"], quick=True, formats=("png",))
    finally:
        os.umask(old)
    for name in ("paper003_fig1_joint_range.png", "README.md"):
        assert (tmp_path / name).stat().st_mode & 0o777 == 0o640, name


def test_figures_out_is_staged_whole_or_untouched(tmp_path, monkeypatch):
    """``graphpriv figures --out DIR`` builds in a staging folder: a failing figure leaves DIR as it was
    (no half-written set, no staging left); a partial ``--only`` run keeps the other figures; a foreign
    non-empty folder is refused without --overwrite."""
    from graphpriv import reproduce

    out = tmp_path / "figs"
    assert main(["-q", "figures", "--out", str(out), "--only", "paper003_fig1", "--quick"]) == 0
    before = {p.name: p.read_bytes() for p in out.iterdir()}
    assert "paper003_fig1_joint_range.png" in before and "README.md" in before

    def boom(quick=False):
        raise RuntimeError("figure failed")

    import dataclasses

    spec = next(s for s in reproduce.registry() if s.name == "paper003_fig2_confusability_graph")
    monkeypatch.setitem(reproduce._REGISTRY, spec.name, dataclasses.replace(spec, build=boom))
    with pytest.raises(RuntimeError):
        main(["-q", "figures", "--out", str(out), "--only", "paper003_fig2", "--quick"])
    assert {p.name: p.read_bytes() for p in out.iterdir()} == before
    assert sorted(p.name for p in tmp_path.iterdir()) == ["figs"]


def test_figures_only_keeps_the_other_figures(tmp_path):
    out = tmp_path / "figs"
    assert main(["-q", "figures", "--out", str(out), "--only", "paper003_fig1", "--quick"]) == 0
    assert main(["-q", "figures", "--out", str(out), "--only", "paper003_fig3", "--quick"]) == 0
    names = {p.name for p in out.iterdir()}
    assert {"paper003_fig1_joint_range.png", "paper003_fig3_convergence_alg1.png", "README.md"} <= names
    manifest = (out / "README.md").read_text()
    assert "paper003_fig1_joint_range.png" in manifest and "paper003_fig3_convergence_alg1.png" in manifest


def test_figures_refuse_a_foreign_folder(tmp_path, capsys):
    out = tmp_path / "mine"
    out.mkdir()
    (out / "notes.txt").write_text("keep me")
    assert main(["figures", "--out", str(out), "--only", "paper003_fig1", "--quick"]) == 2
    assert "not written by graphpriv" in capsys.readouterr().err
    assert os.listdir(out) == ["notes.txt"]


def test_figures_only_matching_nothing_is_an_error(tmp_path, capsys):
    """A mistyped --only builds nothing: one error line naming the valid prefixes, exit 2, nothing written."""
    out = tmp_path / "figs"
    assert main(["figures", "--out", str(out), "--only", "bogus", "--quick"]) == 2
    err = [ln for ln in capsys.readouterr().err.splitlines() if ln.strip()]
    assert len(err) == 1 and err[0].startswith("graphpriv: error: --only 'bogus' matches no figure"), err
    for prefix in ("paper000", "paper002", "paper003", "paper004", "research"):
        assert prefix in err[0]
    assert not out.exists() and list(tmp_path.iterdir()) == []
    # one good and one bad name: still refused (the typo would go unnoticed)
    assert main(["figures", "--out", str(out), "--only", "paper003_fig1", "--only", "paper03", "--quick"]) == 2
    assert "'paper03'" in capsys.readouterr().err and not out.exists()


def test_figures_say_what_they_draw_off_a_terminal(tmp_path, capsys):
    """Off a terminal (a log, CI): one line per figure on stderr, in order, with its count; -q: none."""
    out = tmp_path / "figs"
    capsys.readouterr()
    assert main(["figures", "--out", str(out), "--only", "paper003_fig1", "--only", "paper003_fig3", "--quick"]) == 0
    captured = capsys.readouterr()
    assert captured.err.splitlines() == ["graphpriv: drawing paper003_fig1_joint_range (1/2)...",
                                         "graphpriv: drawing paper003_fig3_convergence_alg1 (2/2)..."]
    assert "wrote 2 figure(s)" in captured.out
    assert main(["-q", "figures", "--out", str(out), "--only", "paper003_fig1", "--quick"]) == 0
    assert capsys.readouterr().err == ""


def test_figures_show_a_bar_on_a_terminal(tmp_path, capsys, monkeypatch):
    """On a terminal a tqdm bar over the figures (naming the one being drawn) replaces the lines."""
    import sys

    monkeypatch.setattr(sys.stderr, "isatty", lambda: True, raising=False)
    out = tmp_path / "figs"
    capsys.readouterr()
    assert main(["figures", "--out", str(out), "--only", "paper003_fig1", "--only", "paper003_fig2", "--quick"]) == 0
    err = capsys.readouterr().err
    assert "figures:" in err and "2/2" in err and "paper003_fig2_confusability_graph" in err
    assert "graphpriv: drawing" not in err


def test_figures_quiet_after_the_command(tmp_path, capsys):
    assert main(["figures", "--out", str(tmp_path / "f"), "--only", "paper003_fig1", "--quick", "-q"]) == 0
    captured = capsys.readouterr()
    assert captured.err == "" and captured.out == ""
