"""``graphpriv compare DATA -s S -x X [--out DIR]``: the table printed, the files written whole."""

from __future__ import annotations

import matplotlib

matplotlib.use("Agg")

import pandas as pd  # noqa: E402

from graphpriv.cli import main  # noqa: E402
from graphpriv.outputs import OUTPUT_MARKER  # noqa: E402


def _table(tmp_path):
    p = tmp_path / "t.csv"
    pd.DataFrame({"s": list("aabbccab") * 3, "x": [1, 2, 2, 3, 3, 1, 4, 4] * 3}).to_csv(p, index=False)
    return p


def test_compare_prints_one_row_per_mechanism(tmp_path, capsys):
    assert main(["compare", str(_table(tmp_path)), "-s", "s", "-x", "x", "--no-frontiers"]) == 0
    out = capsys.readouterr().out
    for name in ("Algorithm 1", "watchdog, subset merging", "alpha-lift watchdog", "privacy funnel, subset",
                 "linear reduction", "X released as it is"):
        assert name in out


def test_compare_out_writes_table_figure_and_report(tmp_path):
    out = tmp_path / "cmp"
    assert main(["-q", "compare", str(_table(tmp_path)), "-s", "s", "-x", "x", "--eps", "0.5", "--out", str(out)]) == 0
    names = {p.name for p in out.iterdir()}
    assert names == {"comparison.csv", "frontiers.csv", "comparison.md", "comparison.png", "comparison.pdf", OUTPUT_MARKER}
    t = pd.read_csv(out / "comparison.csv")
    assert len(t) == 10 and (t["setting"].str.contains("ε=0.5").sum() == 4)
    assert len(pd.read_csv(out / "frontiers.csv")) > len(t)
    assert "comparison.png" in (out / "comparison.md").read_text()


def test_compare_bad_option_is_one_line(tmp_path, capsys):
    assert main(["compare", str(_table(tmp_path)), "-s", "s", "-x", "x", "--alpha-linear", "2", "--no-frontiers"]) == 2
    err = capsys.readouterr().err
    assert "alpha_linear" in err and err.count("\n") <= 2
