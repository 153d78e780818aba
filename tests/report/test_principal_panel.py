"""The principal-sequence panel of ``graphpriv analyze``: the same numbers as gp.principal_partitions in
report.json, the printed lines, report.md and report.html; skipped with a reason when too large."""

import matplotlib

matplotlib.use("Agg")

import pytest  # noqa: E402

import graphpriv as gp  # noqa: E402
from graphpriv.io import analysis_report  # noqa: E402
from graphpriv.report import principal as panel  # noqa: E402
from graphpriv.report import report_html, report_lines, report_markdown  # noqa: E402


def test_hungarian_panel_matches_the_library():
    """Paper 003, Sec. VII-B data: G_X has 2 components, so the first critical value is 0 with 2 blocks."""
    jr = gp.datasets.hungarian_range()
    rep = analysis_report(jr)
    sec = rep["principal_partitions"]
    seq = gp.principal_partitions(jr)
    assert sec["computed"] and sec["n_critical"] == len(seq) and sec["strength"] == "0"
    assert [lev["n_blocks"] for lev in sec["levels"]] == list(seq.n_blocks[1:])
    assert [lev["fraction"] for lev in sec["levels"]] == [str(v) for v in seq.critical_values]
    assert [lev["cut_weight"] for lev in sec["levels"]] == list(seq.cut_weights[1:])
    md = report_markdown(rep)
    assert "## Principal sequence of partitions of G_X" in md and "| 0 | 2 | 0 |" in md
    assert "437/42 ≈ 10.4048" in md
    assert "Principal sequence of partitions of G_X</h2>" in report_html(rep)
    line = [ln for ln in report_lines(rep) if ln.startswith("principal partitions")]
    assert line == [f"principal partitions of G_X: critical values (blocks) 0 (2), 1 (3), 2 (4), 5/2 (6), 3 (10), "
                    f"7/2 (12), 4 (13), 9/2 (17), ... ({len(seq)} in all)"]


def test_long_sequences_are_cut_in_the_middle(monkeypatch):
    monkeypatch.setattr(panel, "PSP_MAX_LEVELS", 6)
    jr = gp.datasets.hungarian_range()
    sec = panel.principal_section(jr)
    assert sec["n_levels_shown"] == 6 and sec["levels"][0]["fraction"] == "0" and sec["levels"][-1]["fraction"] == "11"
    rows = panel.principal_rows(sec)
    assert len(rows) == 7 and rows[3] == ("...", f"{sec['n_critical'] - 6} more levels", "")
    assert "the first 3 and the last 3 are listed" in sec["note"]


def test_skipped_with_a_reason():
    one = gp.JointRange.from_pairs(["a", "b"], [1, 1])
    sec = analysis_report(one)["principal_partitions"]
    assert not sec["computed"] and "single node" in sec["note"]
    sec = panel.principal_section(gp.datasets.hungarian_range(), max_edges=10)
    assert not sec["computed"] and "limit 10" in sec["note"]
    rep = {**analysis_report(gp.datasets.hungarian_range(), max_cut_edges=10)}
    assert "Not computed: G_X may have up to" in report_markdown(rep)


def test_figure_planned_from_twenty_values():
    from graphpriv.cli.analyze import _figure_plan

    jr = gp.datasets.hungarian_range()
    plan, _ = _figure_plan(jr, analysis_report(jr))
    assert "principal_partitions" in [stem for stem, *_ in plan]
    fig = dict((stem, b) for stem, b, _ in plan)["principal_partitions"](jr)
    assert fig.axes[0].get_ylabel() == "price per extra piece λ"
    small, _ = gp.datasets.paper_example()
    plan, _ = _figure_plan(small, analysis_report(small))
    assert "principal_partitions" not in [stem for stem, *_ in plan]
