"""``graphpriv analyze`` reports the stochastic measures of the table (equal to a plain numpy recomputation), and
``graphpriv sanitize --mechanism`` releases real-ish tables (hundreds to thousands of numeric and text public
values, CSV and Parquet) with every registered stochastic mechanism, exit 0, audited."""

from __future__ import annotations

import json
import math

import numpy as np
import pandas as pd
import pytest

from realistic_tables import measurement_table, places_table
from test_cli_analyze import run_inproc
from test_table_measures import dense_reference


def _read(t) -> pd.DataFrame:
    return pd.read_parquet(t.path) if str(t.path).endswith(".parquet") else pd.read_csv(t.path, dtype=str,
                                                                                         keep_default_na=False)


def _value(v) -> float:
    return {"Infinity": math.inf, "-Infinity": -math.inf}.get(v, v)


@pytest.mark.parametrize("base, eps", [("e", 1.0), ("2", 0.5)])
def test_analyze_stochastic_measures_equal_a_recomputation(tmp_path, capsys, base, eps):
    t = measurement_table(tmp_path, n_public=300)
    out = tmp_path / "an"
    proc = run_inproc(["analyze", t.path, "-s", t.s, "-x", t.x, "--eps", eps, "--base", base, "--no-figures", "--out", out],
                      capsys)
    assert proc.returncode == 0, proc.stderr
    rep = json.loads((out / "report.json").read_text())["stochastic"]
    df = _read(t)
    C = pd.crosstab(df[t.s], df[t.x]).to_numpy().astype(float)
    ref = dense_reference(C, eps, math.e if base == "e" else 2.0)
    for k, v in ref.items():
        got = _value(rep[k])
        assert got == pytest.approx(float(v), rel=1e-9, abs=1e-12) or got == v, k
    assert rep["unit"] == ("nats" if base == "e" else "bits")
    printed = proc.stdout
    assert "stochastic measures of the empirical distribution" in printed and "LDP eps of X as is" in printed
    md = (out / "report.md").read_text()
    html = (out / "report.html").read_text()
    for page in (md, html):
        assert "Stochastic measures" in page and "NMIL" in page and "Sadeghi, Ding" in page and "Ding, Liu" in page


@pytest.mark.parametrize("make, fmt", [(measurement_table, "csv"), (places_table, "csv"), (measurement_table, "parquet")])
def test_real_ish_tables_release_with_every_stochastic_mechanism(tmp_path, capsys, make, fmt):
    t = make(tmp_path, fmt=fmt)
    for mech in (["watchdog", "--eps", "0.5"], ["eps-delta", "--eps", "0.5", "--delta", "0.2"],
                 ["linear-reduction", "--alpha", "0.4", "--seed", "3"]):
        out = tmp_path / f"rel_{mech[0]}"
        proc = run_inproc(["sanitize", t.path, "-s", t.s, "-x", t.x, "--no-explorer", "--out", out, "--mechanism", *mech],
                          capsys)
        assert proc.returncode == 0, (mech, proc.stderr)
        summary = json.loads((out / "summary.json").read_text())
        assert summary["audit"]["verified"] and summary["rows"]["written"] == t.n_rows
        name = "sanitized.parquet" if fmt == "parquet" else "sanitized.csv"
        released = pd.read_parquet(out / name) if fmt == "parquet" else pd.read_csv(out / name, dtype=str,
                                                                                   keep_default_na=False)
        assert len(released) == t.n_rows
        if mech[0] != "linear-reduction":
            C = pd.crosstab(released[t.s], released[t.x]).to_numpy().astype(float)
            P = C / C.sum()
            with np.errstate(divide="ignore"):
                I = np.abs(np.log(P / np.outer(P.sum(axis=1), P.sum(axis=0))))
            assert _value(summary["after"]["eps_eff"]) == pytest.approx(float(I.max()), rel=1e-9)
            assert summary["after"]["delta_total"] == pytest.approx(float(P[I > 0.5 + 1e-12].sum()), abs=1e-12)
        else:
            assert summary["after"]["outside_support"] == 0
            assert summary["after"]["ldp"] == pytest.approx(summary["mechanism"]["figures"]["ldp"], rel=1e-9)
        assert "trace.json" in summary["files"] or any(o["file"] == "trace.json" for o in summary["omitted"])
