"""``graphpriv sanitize --mechanism watchdog|eps-delta|linear-reduction``: the release written, audited from the
file, reproducible from its seed; the figures of summary.json recomputed here from the written table alone."""

from __future__ import annotations

import json
import math
import shutil

import numpy as np
import pandas as pd
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import graphpriv as gp
from graphpriv.release.merge_audit import check_eps_delta, check_watchdog, merged_guarantee
from graphpriv.release.randomised_stream import audit_randomised
from graphpriv.release.writer import released_text

from test_cli_analyze import assert_one_line_error, run_inproc


def _table(tmp_path, seed: int, n_s: int, n_x: int, n_rows: int, text: bool = False):
    rng = np.random.default_rng(seed)
    xs = [f"v{i}" for i in range(n_x)] if text else [round(10 + 2.5 * i, 1) for i in range(n_x)]
    w = rng.random((n_s, n_x)) ** 3
    w /= w.sum()
    flat = rng.choice(n_s * n_x, size=n_rows, p=w.ravel())
    df = pd.DataFrame({"s": [f"c{k}" for k in flat // n_x], "x": [xs[k] for k in flat % n_x],
                       "note": rng.choice(["a", "b,c", 'say "hi"', ""], n_rows)})
    path = tmp_path / "t.csv"
    df.to_csv(path, index=False)
    return path, df


def _sanitize(capsys, path, out, *mech):
    return run_inproc(["sanitize", path, "-s", "s", "-x", "x", "--no-explorer", "--out", out, "--mechanism", *mech], capsys)


def _num(v) -> float:
    return math.inf if v == "Infinity" else float(v)


def _file_lift(df_out: pd.DataFrame, base: float):
    """Per released symbol: max_s |log-lift|, and Delta_total at eps, from the written table (plain pandas)."""
    C = pd.crosstab(df_out["s"], df_out["x"]).to_numpy().astype(float)
    P = C / C.sum()
    with np.errstate(divide="ignore"):
        I = np.log(P / np.outer(P.sum(axis=1), P.sum(axis=0))) / math.log(base)
    return pd.crosstab(df_out["s"], df_out["x"]).columns.tolist(), np.abs(I).max(axis=0), P, I


@settings(max_examples=8, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(seed=st.integers(0, 10**6), n_s=st.integers(2, 4), n_x=st.integers(2, 9), eps=st.sampled_from([0.2, 0.5, 1.0]),
       text=st.booleans())
def test_merge_releases_meet_their_guarantee_recomputed_from_the_file(tmp_path_factory, capsys, seed, n_s, n_x, eps, text):
    tmp = tmp_path_factory.mktemp("wd")
    path, df = _table(tmp, seed, n_s, n_x, 300, text)
    out = tmp / "wd"
    proc = _sanitize(capsys, path, out, "watchdog", "--eps", eps)
    assert proc.returncode == 0, proc.stderr
    summary = json.loads((out / "summary.json").read_text())
    rel = gp.Release.from_json((out / "mapping.json").read_text())
    df_out = pd.read_csv(out / "sanitized.csv", dtype=str, keep_default_na=False)
    assert (df_out["s"] == df["s"]).all() and (df_out["note"] == df["note"].fillna("")).all()
    names, eps_y, P, I = _file_lift(df_out, math.e)
    jd = gp.JointDistribution.from_range(gp.read_joint_range(path, sensitive="s", public="x"))
    w = gp.watchdog(jd, eps)
    merged = {released_text(rel.released[rel.cluster[int(np.flatnonzero(w.randomized)[0])]])} \
        if w.randomized.any() else set()
    for name, e in zip(names, eps_y):
        if name in merged:
            assert e == pytest.approx(w.eps_c, abs=1e-9)            # the merged symbol: eps^c
        else:
            assert e <= eps + 1e-9                                 # published as is: <= eps
    assert _num(summary["after"]["eps_eff"]) == pytest.approx(float(eps_y.max()), abs=1e-9)
    assert summary["after"]["delta_total"] == pytest.approx(float(P[np.abs(I) > eps + 1e-12].sum()), abs=1e-12)
    assert "max(eps, eps^c)" in summary["guarantee"]
    # (eps, delta) at the watchdog's breach mass plus a margin
    delta = min(w.delta0 + 0.05, 0.9)
    out2 = tmp / "ed"
    proc = _sanitize(capsys, path, out2, "eps-delta", "--eps", eps, "--delta", delta)
    assert proc.returncode == 0, proc.stderr
    s2 = json.loads((out2 / "summary.json").read_text())
    df2 = pd.read_csv(out2 / "sanitized.csv", dtype=str, keep_default_na=False)
    _, eps_y2, P2, I2 = _file_lift(df2, math.e)
    dt = float(P2[np.abs(I2) > eps + 1e-12].sum())
    assert dt <= delta + 1e-12
    assert s2["after"]["delta_total"] == pytest.approx(dt, abs=1e-12)
    assert _num(s2["after"]["eps_eff"]) == pytest.approx(float(eps_y2.max()), abs=1e-9)


@settings(max_examples=6, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(seed=st.integers(0, 10**6), n_x=st.integers(2, 8), alpha=st.sampled_from([0.1, 0.5, 1.0]),
       scheme=st.sampled_from(["markov", "optimal"]))
def test_randomised_release_is_in_support_reproducible_and_python_equal(tmp_path_factory, capsys, seed, n_x, alpha, scheme):
    tmp = tmp_path_factory.mktemp("lr")
    path, df = _table(tmp, seed, 3, n_x, 400, text=True)
    outs = []
    for k in range(2):
        out = tmp / f"lr{k}"
        proc = _sanitize(capsys, path, out, "linear-reduction", "--alpha", alpha, "--seed", 11, "--scheme", scheme)
        assert proc.returncode == 0, proc.stderr
        outs.append(out)
    assert (outs[0] / "sanitized.csv").read_bytes() == (outs[1] / "sanitized.csv").read_bytes()   # same seed, same bytes
    df_out = pd.read_csv(outs[0] / "sanitized.csv", dtype=str, keep_default_na=False)
    # Python: the registry and gp.Release.from_result give the same column for the same seed
    jr = gp.read_joint_range(path, sensitive="s", public="x")
    _, rel = gp.run_mechanism("linear-reduction", jr, alpha=alpha, seed=11, scheme=scheme)
    sens = df["s"].tolist() if scheme == "optimal" else None
    assert rel.transform(df["x"].tolist(), sens) == df_out["x"].tolist()
    lr = gp.linear_reduction(gp.JointDistribution.from_range(jr), alpha, scheme)
    assert gp.Release.from_result(lr, seed=11).transform(df["x"].tolist(), sens) == df_out["x"].tolist()
    # every released value in the support of its row's kernel, LDP / log-lift as the mechanism says
    K = lr.kernel
    labels = list(jr.public_labels)
    s_labels = list(jr.sensitive_labels)
    for s, x, y in zip(df["s"], df["x"], df_out["x"]):
        row = K[labels.index(x)] if K.ndim == 2 else K[s_labels.index(s), labels.index(x)]
        assert row[labels.index(y)] > 0
    summary = json.loads((outs[0] / "summary.json").read_text())
    assert summary["after"]["ldp"] == pytest.approx(lr.ldp, abs=1e-9)
    assert summary["after"]["log_lift"] == pytest.approx(lr.log_lift, abs=1e-9)
    assert summary["after"]["outside_support"] == 0
    doc = json.loads((outs[0] / "mapping.json").read_text())
    assert doc["seed"] == 11 and "default_rng" in doc["generator"]


def test_another_seed_another_release(tmp_path, capsys):
    path, _ = _table(tmp_path, 1, 3, 6, 500)
    for seed in (1, 2):
        assert _sanitize(capsys, path, tmp_path / f"o{seed}", "linear-reduction", "--alpha", 0.6, "--seed", seed).returncode == 0
    assert (tmp_path / "o1" / "sanitized.csv").read_bytes() != (tmp_path / "o2" / "sanitized.csv").read_bytes()


def test_a_tampered_file_fails_the_audit(tmp_path, capsys):
    path, df = _table(tmp_path, 3, 3, 8, 400, text=True)
    # randomised: a released value outside every kernel's support, and a kernel in mapping.json other than the one used
    out = tmp_path / "lr"
    assert _sanitize(capsys, path, out, "linear-reduction", "--alpha", 0.5, "--seed", 3, "--scheme", "optimal").returncode == 0
    rel = gp.RandomisedRelease.from_json((out / "mapping.json").read_text())
    lr_ldp = json.loads((out / "summary.json").read_text())["mechanism"]["figures"]["ldp"]
    good = audit_randomised([(path, out / "sanitized.csv")], rel, sensitive="s", public="x", promised={"ldp": lr_ldp})
    assert good.ok and good["outside_support"] == 0
    bad = tmp_path / "bad.csv"
    shutil.copy(out / "sanitized.csv", bad)
    text = bad.read_text().splitlines()
    text[5] = text[5].replace(text[5].split(",")[1], "not-a-value", 1)
    bad.write_text("\n".join(text) + "\n")
    rep = audit_randomised([(path, bad)], rel, sensitive="s", public="x")
    assert not rep.ok and "outside the support" in rep["problems"][0]
    weaker = gp.RandomisedRelease.from_dict({**rel.to_dict(), "kernel": {"form": "markov", "alpha": 0.01,
                                                                         "p_x": np.full(len(rel), 1 / len(rel)).tolist()}})
    rep = audit_randomised([(path, out / "sanitized.csv")], weaker, sensitive="s", public="x", promised={"ldp": lr_ldp})
    assert not rep.ok
    # merge: a row moved to another block's released value is caught by the partition audit
    out = tmp_path / "wd"
    assert _sanitize(capsys, path, out, "watchdog", "--eps", 0.05).returncode == 0
    release = gp.Release.from_json((out / "mapping.json").read_text())
    assert release.changed.any()
    d = pd.read_csv(out / "sanitized.csv", dtype=str, keep_default_na=False)
    merged_text = release.released[int(np.flatnonzero(release.changed)[0])]
    i = int(np.flatnonzero(d["x"].to_numpy() == merged_text)[0])
    d.loc[i, "x"] = "v0"                                                # one merged row published as it was
    d.to_csv(tmp_path / "bad_wd.csv", index=False)
    assert not gp.audit_release((path, tmp_path / "bad_wd.csv"), release, sensitive="s", public="x").ok
    # and a guarantee the table does not meet is a problem
    jr = gp.read_joint_range(path, sensitive="s", public="x")
    part = [[i] for i in range(jr.n_public)]
    g = merged_guarantee(jr.counts, part, 0.05)
    assert check_watchdog(g, part, [], 0.05, 0.0)                       # nothing merged: symbols above eps published
    assert check_eps_delta(g, 0.0, math.inf)                             # Delta_total > 0


def test_a_broken_guarantee_commits_nothing(tmp_path, capsys, monkeypatch):
    from graphpriv.mechanisms import registry

    path, _ = _table(tmp_path, 4, 3, 6, 300)
    spec = registry.get_mechanism("watchdog")
    import dataclasses

    lying = dataclasses.replace(spec, audit=lambda ctx: ({}, ["the merged symbol has max |log-lift| 9 in the released "
                                                             "table, not the mechanism's eps^c = 0.1"]))
    monkeypatch.setitem(registry._REGISTRY, "watchdog", lying)
    out = tmp_path / "out"
    proc = _sanitize(capsys, path, out, "watchdog", "--eps", 0.1)
    assert_one_line_error(proc, "release audit failed, nothing written")
    assert not out.exists()


@pytest.mark.parametrize("argv, needle", [
    (["--mechanism", "watchdog", "--eps", "1", "--alpha", "0.5"], "--alpha does not apply to --mechanism watchdog"),
    (["--mechanism", "watchdog"], "needs --eps"),
    (["--mechanism", "eps-delta", "--eps", "1"], "needs --delta"),
    (["--mechanism", "linear-reduction", "--alpha", "0.5"], "needs --seed"),
    (["--mechanism", "watchdog", "--eps", "1", "--objective", "L0"], "--objective does not apply"),
    (["--mechanism", "agglomerative", "--eps", "1", "--objective", "L0", "--utility", "U1", "--lam", "0"],
     "--eps does not apply to --mechanism agglomerative"),
    (["--objective", "L0", "--utility", "U1"], "needs --lam X or --min-utility T"),
    (["--utility", "U1", "--lam", "0"], "needs --objective"),
    (["--mechanism", "linear-reduction", "--alpha", "2", "--seed", "1"], "alpha must be in (0, 1]"),
])
def test_options_of_another_mechanism_are_one_line_exit_2(tmp_path, capsys, argv, needle):
    path, _ = _table(tmp_path, 0, 2, 4, 50)
    proc = run_inproc(["sanitize", path, "-s", "s", "-x", "x", "--out", tmp_path / "o", *argv], capsys)
    assert_one_line_error(proc, needle)


def test_bundled_table_each_mechanism(tmp_path, capsys):
    for mech in (["watchdog", "--eps", "1", "--base", "2"], ["eps-delta", "--eps", "2", "--delta", "0.1"],
                 ["linear-reduction", "--alpha", "0.3", "--seed", "5"]):
        out = tmp_path / mech[0]
        proc = run_inproc(["sanitize", "hungarian", "-s", "age", "-x", "chol", "--missing", "drop", "--no-explorer",
                           "--out", out, "--mechanism", *mech], capsys)
        assert proc.returncode == 0, proc.stderr
        summary = json.loads((out / "summary.json").read_text())
        assert summary["audit"]["verified"] and summary["rows"]["written"] == 294
        assert summary["mechanism"]["name"] == mech[0] and summary["after"]


@pytest.mark.parametrize("fmt", ["csv", "parquet"])
@pytest.mark.parametrize("missing", ["keep", "drop"])
def test_missing_values_with_every_mechanism(tmp_path, capsys, fmt, missing):
    rng = np.random.default_rng(1)
    n = 300
    df = pd.DataFrame({"s": rng.choice(["a", "b", "c", None], n), "x": rng.choice([1, 2, 3, 4, 5, None], n).astype(object),
                       "z": rng.integers(0, 9, n)})
    path = tmp_path / f"m.{fmt}"
    df.to_csv(path, index=False) if fmt == "csv" else df.to_parquet(path, index=False)
    for mech in (["watchdog", "--eps", "0.3"], ["eps-delta", "--eps", "0.3", "--delta", "0.3"],
                 ["linear-reduction", "--alpha", "0.5", "--seed", "1"],
                 ["linear-reduction", "--alpha", "0.5", "--seed", "1", "--scheme", "optimal"]):
        out = tmp_path / "o"
        proc = run_inproc(["sanitize", path, "-s", "s", "-x", "x", "--missing", missing, "--no-explorer", "--overwrite",
                           "--out", out, "--mechanism", *mech], capsys)
        assert proc.returncode == 0, (mech, proc.stderr)
        assert json.loads((out / "summary.json").read_text())["rows"]["written"] == n


def test_python_release_of_a_merge_is_the_cli_mapping(tmp_path, capsys):
    """gp.Release.from_result of gp.watchdog / gp.watchdog_eps_delta on the table's pmf is the mapping the CLI wrote."""
    path, df = _table(tmp_path, 8, 3, 9, 500, text=True)
    jd = gp.JointDistribution.from_range(gp.read_joint_range(path, sensitive="s", public="x"))
    for mech, result in ((["watchdog", "--eps", "0.2"], gp.watchdog(jd, 0.2)),
                         (["eps-delta", "--eps", "0.2", "--delta", "0.5"], gp.watchdog_eps_delta(jd, 0.2, 0.5))):
        out = tmp_path / mech[0]
        assert _sanitize(capsys, path, out, *mech).returncode == 0
        rel = gp.Release.from_result(result)
        assert rel.to_json(public_column="x", sensitive_column="s") == (out / "mapping.json").read_text()
        released = pd.read_csv(out / "sanitized.csv", dtype=str, keep_default_na=False)["x"].tolist()
        assert [released_text(v) for v in rel.transform(df["x"].tolist())] == released
    with pytest.raises(gp.InputError, match="seed="):
        gp.Release.from_result(gp.linear_reduction(jd, 0.5))


@pytest.mark.parametrize("column", ["note", "s"])
def test_a_changed_cell_outside_the_public_column_fails_the_randomised_audit(tmp_path, capsys, column):
    path, df = _table(tmp_path, 5, 3, 6, 200, text=True)
    out = tmp_path / "lr"
    assert _sanitize(capsys, path, out, "linear-reduction", "--alpha", 0.5, "--seed", 2).returncode == 0
    rel = gp.RandomisedRelease.from_json((out / "mapping.json").read_text())
    assert audit_randomised([(path, out / "sanitized.csv")], rel, sensitive="s", public="x").ok
    d = pd.read_csv(out / "sanitized.csv", dtype=str, keep_default_na=False)
    d.loc[7, column] = "changed"
    d.to_csv(tmp_path / "bad.csv", index=False)
    rep = audit_randomised([(path, tmp_path / "bad.csv")], rel, sensitive="s", public="x")
    assert not rep.ok and any(f"column {column!r} changed (data row 7" in p for p in rep["problems"])


def test_optimal_kernel_too_large_is_one_line(tmp_path, capsys):
    """The non-Markov kernel is |S| x |X| x |X| dense: above the cap the run says to use the Markov kernel."""
    rng = np.random.default_rng(0)
    n = 1500
    df = pd.DataFrame({"s": rng.choice([f"c{i}" for i in range(10)], 3 * n), "x": np.r_[np.arange(n), rng.integers(0, n, 2 * n)]})
    path = tmp_path / "wide.csv"
    df.to_csv(path, index=False)
    proc = _sanitize(capsys, path, tmp_path / "o", "linear-reduction", "--alpha", 0.5, "--seed", 1, "--scheme", "optimal")
    assert_one_line_error(proc, "--scheme optimal builds a |S| x |X| x |X| kernel", "use --scheme markov")
    assert _sanitize(capsys, path, tmp_path / "m", "linear-reduction", "--alpha", 0.5, "--seed", 1).returncode == 0
