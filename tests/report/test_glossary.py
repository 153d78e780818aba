"""The measure glossary: one line per measure with its paper, shown by report.md, report.html, analyze, sanitize, demo."""

from __future__ import annotations

import pytest

import graphpriv as gp
from graphpriv.io import analysis_report
from graphpriv.report import markdown_escape, report_html, report_lines, report_markdown
from graphpriv.report.glossary import GLOSSARY, PAPER, glossary_lines, term

from test_cli_analyze import run_inproc


def test_every_term_is_one_line_with_a_section():
    keys = [t.key for t in GLOSSARY]
    assert keys == ["H0", "H0|X", "I0", "L0", "B0", "k", "I*", "U1", "U2", "lambda", "L"]
    for t in GLOSSARY:
        assert "\n" not in t.meaning and t.where and len(t.meaning) < 110, t
    lines = glossary_lines()
    assert "Developing Non-Stochastic Privacy-Preserving Policies Using Agglomerative Clustering" in lines[0]
    assert len(lines) == 1 + len(GLOSSARY)
    with pytest.raises(KeyError, match="no glossary entry"):
        term("H1")


def test_reports_explain_each_measure():
    jr, _ = gp.datasets.paper_example()
    report = analysis_report(jr)
    md = report_markdown(report)
    assert "| measure | value | what it means |" in md and PAPER in md
    for key in ("H0", "H0|X", "I0", "L0", "B0", "k", "I*"):
        t = term(key)
        assert markdown_escape(f"{t.meaning} [{t.where}]") in md, key
    html = report_html(report)
    assert "<th>what it means</th>" in html
    assert "the bits of S that X reveals without error" in html
    lines = report_lines(report)
    for symbol in ("H0(S)", "H0(S|X)", "I0(S->X)", "L0(S->X)", "B0(S|X)", "k", "I*(S;X)"):
        assert any(line.startswith(f"  {symbol} ") for line in lines), symbol


def test_sanitize_prints_what_its_measures_mean(tmp_path, capsys):
    proc = run_inproc(["sanitize", "hungarian", "-s", "age", "-x", "chol", "--missing", "drop", "--objective", "I*",
                       "--utility", "U2", "--lam", "0.05", "--no-animation", "--no-explorer", "--out", tmp_path / "rel"],
                      capsys)
    assert proc.returncode == 0, proc.stderr
    out = proc.stdout
    for symbol in ("I*(S;X)", "L0(S->X)", "U2", "k", "λ", "L"):
        assert any(line.startswith(f"  {symbol} ") for line in out.splitlines()), symbol
    assert "measures (Ding & Farokhi 2020" in out and out.rstrip().splitlines()[-1].startswith("wrote ")


def test_stochastic_terms_are_one_line_with_their_paper_and_shown_in_every_report():
    from graphpriv.report.glossary import STOCHASTIC_GLOSSARY, stochastic_glossary_lines

    for t in STOCHASTIC_GLOSSARY:
        assert "\n" not in t.meaning and t.where and t.paper in ("Sadeghi, Ding & Rakotoarivelo 2020",
                                                                 "Ding, Liu & Farokhi 2021"), t
    lines = stochastic_glossary_lines()
    assert "Information-theoretic Privacy Watchdog" in lines[0] and "Linear Reduction Method" in lines[0]
    import pandas as pd

    df = pd.DataFrame({"s": list("aabbcc") * 5, "x": [1, 2, 2, 3, 3, 1] * 5})      # a range with counts
    jr = gp.JointRange.from_dataframe(df, sensitive="s", public="x")
    report = analysis_report(jr)
    md, html, text = report_markdown(report), report_html(report), "\n".join(report_lines(report))
    for t in STOCHASTIC_GLOSSARY:
        assert markdown_escape(t.meaning) in md, t.key
        assert t.paper.replace("&", "&amp;") in html
        assert t.symbol in text
