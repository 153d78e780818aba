"""Differential property test of ``graphpriv sanitize``: for random small tables (CSV and Parquet, text and
numeric public values, missing values, every objective, utility and release form) the figures summary.json
reports are those recomputed here from the released table alone, every row and non-public cell is kept,
and mapping.json reproduces the released column from the original one."""

from __future__ import annotations

import csv
import json
import math
from pathlib import Path

import numpy as np
import pyarrow as pa
import pyarrow.parquet as pq
import pytest
from hypothesis import HealthCheck, event, given, settings
from hypothesis import strategies as st

import graphpriv as gp
from graphpriv.release.writer import released_text

from test_cli_analyze import run_inproc

TEXT_X = ["a", "b, c", "{d}", "e", "x10", "NA?", '"q"']
NOTES = ["plain", "a,b", 'say "hi"', "", "line\nbreak", "007"]
PLAIN_NOTES = ("plain", "", "007")


@st.composite
def cases(draw):
    numeric = draw(st.booleans())
    fmt = draw(st.sampled_from(["csv", "parquet"]))
    objective = draw(st.sampled_from(["L0", "I*", "L0|I*=0"]))
    release = ("label", "id", "codeword")[draw(st.integers(0, 2))]
    utility = "U2" if numeric and (release == "codeword" or draw(st.booleans())) else "U1"
    if release == "codeword" and utility != "U2":
        release = "label"
    missing = draw(st.sampled_from(["drop", "keep"])) if utility == "U1" else "drop"
    n = draw(st.integers(2, 14))
    pool = draw(st.lists(st.integers(0, 40), min_size=2, max_size=7, unique=True)) if numeric else \
        draw(st.lists(st.sampled_from(TEXT_X), min_size=2, max_size=6, unique=True))
    rows = []
    for i in range(n):
        s = draw(st.sampled_from(["s0", "s1", "s2", "s3", None]))
        x = draw(st.sampled_from(pool + [None]))
        rows.append((s, x, NOTES[i % len(NOTES)]))
    lam = draw(st.sampled_from([0.0, 0.3, 2.0]))
    if not draw(st.booleans()):            # a quote-free file (its release is read back by pyarrow's parser)
        rows = [(s, x, note if note in PLAIN_NOTES else "plain") for s, x, note in rows]
        if not numeric:
            rows = [(s, None if x is not None and '"' in x else x, note) for s, x, note in rows]
    return {"numeric": numeric, "fmt": fmt, "objective": objective, "utility": utility, "release": release,
            "missing": missing, "rows": rows, "lam": lam}


def _write(case, d: Path) -> Path:
    rows = case["rows"]
    if case["fmt"] == "parquet":
        xt = pa.int64() if case["numeric"] else pa.string()
        t = pa.table({"s": pa.array([r[0] for r in rows], pa.string()), "x": pa.array([r[1] for r in rows], xt),
                      "note": pa.array([r[2] for r in rows], pa.string()), "k": pa.array(range(len(rows)), pa.int32())})
        path = d / "t.parquet"
        pq.write_table(t, path)
        return path
    path = d / "t.csv"
    with open(path, "w", newline="", encoding="utf-8") as fh:
        w = csv.writer(fh, lineterminator="\n")
        w.writerow(["s", "x", "note", "k"])
        for i, (s, x, note) in enumerate(rows):
            w.writerow(["" if s is None else s, "" if x is None else x, note, i])
    return path


def _read(path: Path, fmt: str) -> tuple[list, list]:
    """(header, rows): CSV fields as their exact text, Parquet values as Python objects."""
    if fmt == "parquet":
        t = pq.read_table(path)
        return t.column_names, [list(r.values()) for r in t.to_pylist()]
    with open(path, newline="", encoding="utf-8") as fh:
        recs = list(csv.reader(fh))
    return recs[0], recs[1:]


def _label_of(text, case):
    """The analysis' label of an input public value (CSV text or Parquet value)."""
    if text is None or text == "":
        return None
    return int(text) if case["numeric"] else text


def _recompute(case, orig_rows, out_rows) -> dict:
    """Privacy and utility of the released table, from its rows alone (and the inputs' public values)."""
    used = [(o, r) for o, r in zip(orig_rows, out_rows)
            if (case["missing"] == "keep" or (o[0] not in (None, "") and o[1] not in (None, "")))]
    s = [("NA" if r[0] in (None, "") else r[0]) for _, r in used]
    rel = [json.dumps(r[1]) for _, r in used]
    x = [_label_of(o[1], case) for o, _ in used]
    jr = gp.JointRange.from_pairs(s, rel)
    groups: dict = {}
    for xv, rv in zip(x, rel):
        groups.setdefault(rv, set()).add(xv)
    n_x = len(set(x))
    u1 = math.log2(n_x) - math.log2(max(len(g) for g in groups.values()))
    out = {"L0": gp.L0(jr), "I_star": gp.maximin_information(jr), "n_public": len(groups), "U1": u1}
    if case["utility"] == "U2":
        cost = 0.0
        for rv, g in groups.items():
            vals = np.array(sorted(g), dtype=float)
            if case["release"] == "codeword" and len(g) > 1:
                cw = float(json.loads(rv))
            else:
                cw = float(vals.mean())
            cost = max(cost, float(np.abs(vals - cw).max()))
        out["U2"] = -cost
    return out


@settings(max_examples=int(__import__('os').environ.get('AUDIT_EXAMPLES', 60)), deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture,
                                                                  HealthCheck.too_slow])
@given(case=cases())
def test_sanitize_audited_figures_are_the_released_tables(case, tmp_path_factory, capsys, monkeypatch):
    import graphpriv.cli.sanitize as san

    monkeypatch.setattr(san, "_frontier_figure", lambda *a, **k: [])     # figures are not under test here
    d = tmp_path_factory.mktemp("case")
    src = _write(case, d)
    out = d / "rel"
    proc = run_inproc(["sanitize", src, "-s", "s", "-x", "x", "--objective", case["objective"], "--utility",
                       case["utility"], "--lam", str(case["lam"]), "--missing", case["missing"], "--release",
                       case["release"], "--no-animation", "--no-explorer", "--out", out], capsys)
    if proc.returncode != 0:
        # the refusals a random table may meet, each one line with nothing written
        lines = proc.stderr.strip().splitlines()
        assert proc.returncode == 2 and len(lines) == 1, proc.stderr
        assert any(k in lines[0] for k in ("missing values", "missing value", "nothing is left", "no public value", "no rows",
                                           "single sensitive", "could not be told apart", "could not tell")), lines[0]
        assert not out.exists()
        event("refused")
        return
    event(f"released ({case['fmt']}, {case['release']})")
    summ = json.loads((out / "summary.json").read_text())
    name = "sanitized.parquet" if case["fmt"] == "parquet" else "sanitized.csv"
    h0, orig = _read(src, case["fmt"])
    h1, rows = _read(out / name, case["fmt"])
    # every row, every non-public cell unchanged
    assert h1 == h0 and len(rows) == len(orig) == summ["rows"]["written"]
    for o, r in zip(orig, rows):
        assert [o[0], o[2], o[3]] == [r[0], r[2], r[3]]
    if case["fmt"] == "parquet":
        t0, t1 = pq.read_table(src), pq.read_table(out / name)
        assert t0.drop(["x"]).equals(t1.drop(["x"]))
    # the audited figures are the released table's
    got = _recompute(case, orig, rows)
    after = summ["after"]
    assert after["n_public"] == got["n_public"]
    assert after["L0"] == pytest.approx(got["L0"], abs=1e-9) and after["I_star"] == pytest.approx(got["I_star"], abs=1e-9)
    assert after["utility"] == pytest.approx(got[case["utility"]], abs=1e-9)
    # ... equal to the mechanism's, or the difference is documented with its reason
    documented = {d["measure"] for d in summ["audit"]["differences"]}
    for key in ("privacy", "utility", "n_public", "L0", "I_star", "k_anonymity"):
        if summ["mechanism"][key] != pytest.approx(after[key], abs=1e-9):
            assert key in documented and key == "utility" and case["release"] == "codeword", (key, summ["audit"])
    # mapping.json reproduces the released column from the original one
    rel = gp.Release.from_json((out / "mapping.json").read_text())
    labels = set(rel.labels)
    for o, r in zip(orig, rows):
        lab = _label_of(o[1], case)
        if lab is None and gp.MISSING not in labels:
            assert r[1] == o[1]                                   # missing stays as it was
            continue
        if lab is None:
            lab = gp.MISSING
        if lab not in labels:                                     # seen only in rows the analysis dropped
            assert r[1] in (None, "")
            continue
        (v,) = rel.transform([lab])
        k = int(rel.cluster[rel.labels.index(lab)])
        if not rel.changed[k]:
            # as it was (a Parquet column that now holds text labels holds an unchanged number as its text)
            assert r[1] == o[1] or (case["fmt"] == "parquet" and r[1] == str(o[1]))
        elif case["fmt"] == "csv":
            assert r[1] == released_text(v, rel.decimals)
        else:
            assert r[1] == v or (isinstance(r[1], float) and r[1] == float(v))
