"""The I* interval search on text tables: certified where the joining adjacencies prove it, never released
worse than the greedy mechanism, and honest in the command line's output when it is not certified."""

import json
import math
import sys
from pathlib import Path

import numpy as np
import pandas as pd
import pytest
from hypothesis import given, settings, strategies as st

import graphpriv as gp
from graphpriv.mechanisms.quantization import interval as interval_mod
from graphpriv.mechanisms.quantization.problem import _Problem
from test_exact_solver import random_range

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))
from realistic_tables import REGIONS, place_names, places_table  # noqa: E402


def place_range(n: int = 2674, seed: int = 11):
    """A place-name-like text range: n names, each in one of 7 regions (7 components of G_X, interleaved in
    the names' order)."""
    rng = np.random.default_rng(seed)
    names = place_names(n, seed)
    region = rng.choice(len(REGIONS), size=n, p=[0.22, 0.17, 0.15, 0.14, 0.12, 0.11, 0.09])
    region[:7] = np.arange(7)
    return gp.JointRange.from_pairs([REGIONS[r] for r in region], names)


def test_place_names_reach_istar_zero_with_pairs():
    """2,674 place names: adjacent pairs join the 7 regions at U1 = log2(2674 / 2), proven optimal (before,
    the interval search returned one cluster, U1 = 0, as its only I* = 0 point)."""
    jr = place_range()
    f = gp.interval_frontier(jr, "I*", "U1")
    zero = [p for p in f.points if p.privacy == 0.0]
    assert len(zero) == 1 and zero[0].utility == pytest.approx(math.log2(2674 / 2))
    assert zero[0].status == "optimal" and f.certified
    greedy = gp.pareto_frontier(jr, "I*", "U1")
    for lam in (0.05, 0.2, 1.0, 5.0):
        r = gp.interval_release(jr, "I*", lam, "U1", frontier=f)
        a = gp.agglomerate(jr, "I*", lam, "U1")
        assert r.L <= a.L + 1e-9
        assert r.L <= min(p.privacy - lam * p.utility for p in greedy.points) + 1e-9


@settings(max_examples=25, deadline=None)
@given(n=st.integers(2, 9), n_s=st.integers(4, 16), seed=st.integers(0, 10_000), utility=st.sampled_from(["U1", "U2"]))
def test_istar_interval_bounds_hold_against_brute_force(n, n_s, seed, utility):
    """Every I* level's bound is at least the best interval partition (all 2^(n-1) listed), and a level
    called optimal has it; the joining bounds are lower bounds of the cost."""
    jr, values = random_range(n, n_s, seed)
    prob = _Problem(jr, "I*", utility, values, 2)
    order = interval_mod._order(prob)
    evals = interval_mod._enumerate_intervals(prob, order)
    costs = interval_mod._Costs(prob, order)
    lows = interval_mod._joining_bounds(prob, costs, order)
    for c, low in lows.items():
        best = max(e[1] for e in evals if e[0] <= prob.istar(c) + 1e-12)
        assert best <= interval_mod._utility_of_cost(prob, costs, low) + 1e-12
    for cuts in interval_mod._joining_merges(prob, costs, order):
        assert [a for a, _ in cuts] == sorted(a for a, _ in cuts) and cuts[0][0] == 0 and cuts[-1][1] == prob.n
    f = gp.interval_frontier(jr, "I*", utility, values)
    for p in f.points:
        best = max(e[1] for e in evals if e[0] <= p.privacy + 1e-12)
        assert p.utility <= best + 1e-12
        assert p.bound >= best - 1e-12
        if p.status == "optimal":
            assert p.utility == pytest.approx(best, abs=1e-12)


def test_cli_interval_istar_on_place_names(tmp_path):
    from graphpriv.cli import main

    t = places_table(tmp_path, n_public=2674)
    out = tmp_path / "rel"
    rc = main(["sanitize", str(t.path), "-s", t.s, "-x", t.x, "--objective", "I*", "--utility", "U1", "--lam", "0.2",
               "--search", "interval", "--out", str(out), "--no-animation", "--no-explorer", "--quiet"])
    assert rc == 0
    summary = json.loads((out / "summary.json").read_text())
    info = summary["interval_search"]
    assert summary["search"] == "interval" and info["point_status"] == "optimal" and info["certified"]
    assert summary["after"]["I_star"] == 0.0
    assert summary["after"]["utility"] == pytest.approx(math.log2(2674 / 2))
    lam = summary["lam"]
    greedy = info["greedy"]
    assert summary["after"]["privacy"] - lam * summary["after"]["utility"] <= greedy["privacy"] - lam * greedy["utility"] + 1e-9


def _write_range(jr, path):
    pd.DataFrame([(s, x) for s, x in jr.pairs()], columns=["s", "x"]).to_csv(path, index=False)


def test_cli_interval_releases_greedy_when_greedy_is_better(tmp_path, capsys):
    """A range where a non-interval partition beats every interval one at λ = 0.1 (I*, U1): the greedy
    release is written, and the run's output and summary.json say so."""
    from graphpriv.cli import main

    jr, _ = random_range(10, 16, seed=2)
    f = gp.interval_frontier(jr, "I*", "U1")
    a = gp.agglomerate(jr, "I*", 0.1, "U1")
    assert a.L < min(p.privacy - 0.1 * p.utility for p in f.points) - 1e-9      # the case is what it claims
    _write_range(jr, tmp_path / "t.csv")
    out = tmp_path / "rel"
    rc = main(["sanitize", str(tmp_path / "t.csv"), "-s", "s", "-x", "x", "--objective", "I*", "--utility", "U1",
               "--lam", "0.1", "--search", "interval", "--out", str(out), "--no-animation", "--no-explorer"])
    assert rc == 0
    captured = capsys.readouterr()
    summary = json.loads((out / "summary.json").read_text())
    info = summary["interval_search"]
    assert info["released"] == "greedy" and any("greedy mechanism does better" in n for n in info["notes"])
    assert "released the greedy partition" in captured.out
    assert summary["mechanism"]["privacy"] - 0.1 * summary["mechanism"]["utility"] == pytest.approx(a.L)


def test_cli_interval_says_when_not_certified(tmp_path, capsys, monkeypatch):
    """Past 16 values uncertified levels are not listed exhaustively: a level only bounded is said to be
    so, with its gap, in the run's output and summary.json (here forced on a 10-value range)."""
    from graphpriv.cli import main

    monkeypatch.setattr(interval_mod, "_ENUMERATE_MAX", 0)
    jr, _ = random_range(10, 16, seed=2)
    f = gp.interval_frontier(jr, "I*", "U1")
    top = f.points[0]
    assert top.privacy == 0.0 and top.status == "feasible" and top.bound > top.utility and not f.certified
    _write_range(jr, tmp_path / "t.csv")
    out = tmp_path / "rel"
    rc = main(["sanitize", str(tmp_path / "t.csv"), "-s", "s", "-x", "x", "--objective", "I*", "--utility", "U1",
               "--lam", "0.5", "--search", "interval", "--out", str(out), "--no-animation", "--no-explorer"])
    assert rc == 0
    summary = json.loads((out / "summary.json").read_text())
    info = summary["interval_search"]
    assert info["certified"] is False and info["gap"] == pytest.approx(f.gap) and info["gap"] > 0
    assert info["point_status"] == "feasible" and info["point_bound"] == pytest.approx(top.bound)
    assert any("not certified" in n and f"{top.bound - top.utility:.4g}" in n for n in info["notes"])
    assert "NOT certified" in capsys.readouterr().out


def test_cli_interval_min_utility_compares_with_greedy(tmp_path):
    """--min-utility: the most private release above the floor, interval or greedy, and the summary says which."""
    from graphpriv.cli import main

    jr, _ = random_range(10, 16, seed=2)
    _write_range(jr, tmp_path / "t.csv")
    f = gp.interval_frontier(jr, "I*", "U1")
    g = gp.pareto_frontier(jr, "I*", "U1")
    floor = 1.0
    best_interval = min((p.privacy, -p.utility) for p in f.points if p.utility >= floor)
    best_greedy = min((p.privacy, -p.utility) for p in g.points if p.utility >= floor)
    out = tmp_path / "rel"
    rc = main(["sanitize", str(tmp_path / "t.csv"), "-s", "s", "-x", "x", "--objective", "I*", "--utility", "U1",
               "--min-utility", str(floor), "--search", "interval", "--out", str(out), "--no-animation",
               "--no-explorer", "--quiet"])
    assert rc == 0
    summary = json.loads((out / "summary.json").read_text())
    info = summary["interval_search"]
    assert summary["mechanism"]["utility"] >= floor - 1e-9
    best = min(best_interval, best_greedy)        # more private first, then more useful
    assert summary["mechanism"]["privacy"] == pytest.approx(best[0])
    assert summary["mechanism"]["utility"] == pytest.approx(-best[1])
    assert info["released"] == ("greedy" if best_greedy < best_interval else "interval")
