"""Better-than-greedy searches (issue 8): same objective and constraints as paper 003's greedy
mechanisms, never worse than greedy, closing at least half of the greedy optimality gap on a fixed set."""

import math

import numpy as np
import pandas as pd
import pytest
from hypothesis import example, given, settings
from hypothesis import strategies as st

import graphpriv as gp
from graphpriv.mechanisms.search import SEARCHES

OBJECTIVES = ["L0", "I*", "L0|I*=0"]


def random_instance(seed, n_range=(5, 8)):
    rng = np.random.default_rng(seed)
    nx_ = int(rng.integers(n_range[0], n_range[1] + 1))
    ns = int(rng.integers(3, 9))
    jr = gp.random_joint_range(ns, nx_, float(rng.uniform(0.12, 0.35)), seed=rng)
    values = {x: float(v) for x, v in zip(jr.public_labels, np.round(rng.uniform(0, 10, size=jr.n_public), 1))}
    return jr, values


# ------------------------------------------------------------------------------------------- contract
def test_registry_and_dispatch():
    assert {"beam", "local"} <= set(SEARCHES)
    jr, values = gp.datasets.paper_example()
    for name in SEARCHES:
        r = gp.agglomerate(jr, "I*", 0.3, search=name)
        assert type(r) is type(gp.agglomerate(jr, "I*", 0.3))
        assert r.info["search"] == name
    with pytest.raises(gp.InputError, match="search="):
        gp.agglomerate(jr, "I*", 0.3, search="annealing")


def test_paper003_example3_greedy_is_optimal_and_beam_matches():
    """Paper 003, Example 3 (Algorithm 2, U1, λ = 0.3): greedy returns {x1,x3,x7},{x2,x5},{x4,x6}, I* = 0,
    U1 = log2(7/3); the exact optimum has the same L and so does the beam."""
    jr, _ = gp.datasets.paper_example()
    g = gp.agglomerate(jr, "I*", 0.3)
    b = gp.agglomerate(jr, "I*", 0.3, search="beam")
    e = gp.exact_minimum(jr, "I*", 0.3)
    assert g.L == pytest.approx(-0.3 * math.log2(7 / 3))
    assert b.L == pytest.approx(g.L) and e.L == pytest.approx(g.L)


def test_paper003_example4_beam_improves():
    """Example 4 setting (x7 = 4, U2, λ = 0.3): greedy L = 0.585 (errata: Q(4) returned), beam 0.57 <= greedy,
    exact 0.54."""
    jr, values = gp.datasets.paper_example(4)
    g = gp.agglomerate(jr, "I*", 0.3, "U2", values)
    b = gp.agglomerate(jr, "I*", 0.3, "U2", values, search="beam")
    e = gp.exact_minimum(jr, "I*", 0.3, "U2", values)
    assert g.L == pytest.approx(0.585) and b.L == pytest.approx(0.57) and e.L == pytest.approx(0.54)
    assert b.privacy == 0.0


def check_result(jr, values, objective, lam, utility, r):
    """The result is a partition with correct privacy/utility/L and a replayable trace."""
    labels = sorted(jr.public_labels.tolist())
    assert sorted(x for c in r.quantization for x in c) == labels
    p, u = gp.evaluate_quantization(jr, r.quantization, objective, utility, values)
    assert r.privacy == pytest.approx(p, abs=1e-9) and r.utility == pytest.approx(u, abs=1e-9)
    assert r.L == pytest.approx(gp.lagrangian(jr, r.quantization, objective, lam, utility, values), abs=1e-9)
    assert [frozenset(c) for c in r.trace.quantization()] == [frozenset(c) for c in r.quantization]
    assert r.trace.step_L[-1] == pytest.approx(r.L, abs=1e-9)
    if objective == "L0|I*=0":                                 # problem (10): the constraint holds
        assert gp.maximin_information(gp.quantize_range(jr, r.quantization)) == 0.0


# ------------------------------------------------------------------------------------------- properties
@settings(max_examples=30, deadline=None)
@given(st.integers(0, 10**6), st.sampled_from(OBJECTIVES), st.sampled_from(["U1", "U2"]), st.sampled_from([0.1, 0.3, 1.0, 3.0]))
def test_never_worse_than_greedy_and_valid(seed, objective, utility, lam):
    jr, values = random_instance(seed)
    vals = values if utility == "U2" else None
    g = gp.agglomerate(jr, objective, lam, utility, vals)
    e = gp.exact_minimum(jr, objective, lam, utility, vals)
    for name in ("beam", "local"):
        r = gp.agglomerate(jr, objective, lam, utility, vals, search=name)
        assert r.L <= g.L + 1e-9
        assert r.L >= e.L - 1e-9
        check_result(jr, vals, objective, lam, utility, r)


@settings(max_examples=20, deadline=None)
@given(st.integers(0, 10**6), st.sampled_from(OBJECTIVES), st.sampled_from(["U1", "U2"]), st.floats(0, 4))
def test_exact_minimum_matches_exact_frontier(seed, objective, utility, lam):
    """Cross-check of the oracle: min over partitions of L = min over the exact Pareto frontier (helper A's
    gp.exact_frontier) of privacy - λ·utility."""
    jr, values = random_instance(seed, (4, 7))
    vals = values if utility == "U2" else None
    e = gp.exact_minimum(jr, objective, lam, utility, vals)
    f = gp.exact_frontier(jr, objective, utility, vals)
    assert e.L == pytest.approx(min(p.privacy - lam * p.utility for p in f.points), abs=1e-9)
    p, u = gp.evaluate_quantization(jr, e.quantization, objective, utility, vals)
    assert p - lam * u == pytest.approx(e.L, abs=1e-9)


# ------------------------------------------------------------------------------------------- gap closure
FIXED_SEEDS = list(range(12))


@pytest.fixture(scope="module")
def gap_table():
    inst = [random_instance(1000 + s) for s in FIXED_SEEDS]
    frames = []
    for objective in OBJECTIVES:
        for utility, lams in (("U1", [0.3, 1.0, 3.0]), ("U2", [0.1, 0.3, 1.0])):
            data = [(jr, v if utility == "U2" else None) for jr, v in inst]
            t = gp.compare_searches(data, objective, lams, utility, methods=("greedy", "beam", "local"))
            t["objective"], t["utility"] = objective, utility
            frames.append(t)
    return pd.concat(frames, ignore_index=True)


def test_beam_closes_at_least_half_the_greedy_gap(gap_table):
    """On a fixed seeded set of random instances (|X| <= 8), for every objective and utility, the mean
    optimality gap of the beam is at most half the greedy's; the beam is never worse."""
    t = gap_table
    assert (t["gap_beam"] <= t["gap_greedy"] + 1e-9).all()
    assert (t["gap_local"] <= t["gap_greedy"] + 1e-9).all()
    assert (t["gap_beam"] >= 0).all()
    summary = t.groupby(["objective", "utility"])[["gap_greedy", "gap_beam"]].mean()
    assert (summary["gap_greedy"] > 0).any()
    for (objective, utility), row in summary.iterrows():
        assert row["gap_beam"] <= 0.5 * row["gap_greedy"] + 1e-12, (objective, utility, row.to_dict())
    assert t["gap_beam"].mean() <= 0.5 * t["gap_greedy"].mean()


def test_hungarian_never_worse_than_greedy():
    """Paper 003's Hungarian data (S = age, X = cholesterol, missing dropped): |X| = 153 is past the exact
    search; the improved search (one beam state, no local moves) is never worse than greedy."""
    jr = gp.datasets.hungarian_range(missing="drop")
    for objective, utility, lam in (("I*", "U1", 0.1), ("L0|I*=0", "U1", 1.0)):
        g = gp.agglomerate(jr, objective, lam, utility)
        b = gp.agglomerate(jr, objective, lam, utility, search="beam", width=1, pareto=0, local=False)
        assert b.L <= g.L + 1e-9
        check_result(jr, None, objective, lam, utility, b)
    # problem (10), λ = 1: the beam finds a strictly better quantisation with I* = 0
    g = gp.agglomerate(jr, "L0|I*=0", 1.0)
    b = gp.agglomerate(jr, "L0|I*=0", 1.0, search="beam", width=1, pareto=0, local=False)
    assert b.L < g.L - 0.5


# ------------------------------------------------------------------------------------------- bad input
def test_bad_input():
    jr, values = gp.datasets.paper_example()
    with pytest.raises(gp.InputError, match="width"):
        gp.agglomerate(jr, "I*", 0.3, search="beam", width=0)
    with pytest.raises(gp.InputError, match="pareto"):
        gp.agglomerate(jr, "I*", 0.3, search="beam", pareto=-1)
    with pytest.raises(gp.InputError, match="penalty"):
        gp.agglomerate(jr, "L0|I*=0", 0.3, search="beam", penalty=-1.0)
    with pytest.raises(gp.InputError, match="lam"):
        gp.agglomerate(jr, "I*", -1.0, search="beam")
    with pytest.raises(gp.InputError, match="objective"):
        gp.agglomerate(jr, "entropy", 0.3, search="local")
    with pytest.raises(TypeError):
        gp.agglomerate(jr, "I*", 0.3, search="beam", colour="red")
    with pytest.raises(gp.InputError, match="values"):
        gp.agglomerate(jr, "I*", 0.3, "U2", search="beam")
    big = gp.random_joint_range(5, 12, 0.3, seed=0)
    with pytest.raises(gp.TooLargeError):
        gp.exact_minimum(big, "I*", 0.3, method="enumerate")
    # above |X| = 11 the exact column comes from the certified solver frontier
    t0 = gp.compare_searches([big], "I*", 0.3)
    assert bool(t0["certified_exact"].iloc[0]) and t0["L_exact"].iloc[0] == t0["bound_exact"].iloc[0]
    assert t0["L_exact"].iloc[0] <= t0["L_beam"].iloc[0] + 1e-12
    assert t0["L_exact"].iloc[0] == pytest.approx(gp.exact_minimum(big, "I*", 0.3).L)
    t = gp.compare_searches([big], "I*", 0.3, exact=False, methods=("greedy", "local"))
    assert "gap_local" not in t and t["L_local"].iloc[0] <= t["L_greedy"].iloc[0] + 1e-9


def test_search_gap_plot(gap_table):
    from graphpriv.viz.research import plot_search_gaps

    sub = gap_table[(gap_table.objective == "L0|I*=0") & (gap_table.utility == "U1")].reset_index(drop=True)
    ax = plot_search_gaps(sub, methods=["greedy", "beam"])
    assert ax.get_ylabel() == "gap to exact optimum"
    assert len(ax.patches) == 2 * len(sub)


def test_gap_figures(tmp_path, gap_table):
    from graphpriv.reproduce import build_all
    from graphpriv.viz.research import plot_gap_summary

    ax = plot_gap_summary(gap_table)
    assert len(ax.patches) == 3 * 6 and ax.get_ylabel().startswith("mean gap")
    built = build_all(tmp_path, only=["research_search_gaps"], quick=True, formats=("png",))
    assert [s.name for s in built] == ["research_search_gaps"]
    assert (tmp_path / "research_search_gaps.png").stat().st_size > 1000


def test_unknown_search_option_names_it_and_the_valid_ones():
    jr, _ = gp.datasets.paper_example()
    with pytest.raises(gp.InputTypeError, match=r"search='beam' has no option 'bogus'; its options are width, pareto, caps") as e:
        gp.agglomerate(jr, "I*", 0.3, search="beam", bogus=1)
    assert "\n" not in str(e.value) and "max_depth" in str(e.value)
    with pytest.raises(gp.InputTypeError, match=r"search='local' has no option 'width'; its options are max_passes"):
        gp.agglomerate(jr, "I*", 0.3, search="local", width=2)


def test_beam_reports_its_work():
    jr, _ = gp.datasets.paper_example()
    r = gp.agglomerate(jr, "L0", 0.3, search="beam", width=1, pareto=0)
    # one state per depth, from the 7 singletons down: 21 + 15 + 10 + ... children at most
    assert 1 <= r.info["states_expanded"] <= 6
    assert r.info["children_scored"] <= 21 + 15 + 10 + 6 + 3 + 1


def test_old_module_paths_still_import():
    """``graphpriv.mechanisms.search.exact_minimum`` / ``.compare_searches`` (their first home) still work."""
    import graphpriv as gp
    from graphpriv.mechanisms import search
    from graphpriv.mechanisms.search import compare_searches, exact_minimum

    assert exact_minimum is gp.exact_minimum and compare_searches is gp.compare_searches
    assert search.exact_minimum is gp.exact_minimum
    with pytest.raises(AttributeError):
        search.no_such_name


# ------------------------------------------------------------------------------------------- pruned depths
@settings(max_examples=40, deadline=None)
@given(st.integers(0, 10**6), st.sampled_from(OBJECTIVES), st.sampled_from(["U1", "U2", "U2sq"]),
       st.sampled_from([0.0, 0.1, 0.3, 1.0, 3.0]), st.sampled_from([(1, 0), (3, 3), (2, 5)]),
       st.sampled_from([3, 5, 8]), st.sampled_from([(6, 12), (13, 30)]))
@example(1, "L0", "U1", 0.0, (1, 0), 3, (6, 12))    # candidate slots pairing a cluster with itself reached scoring
def test_pruned_beam_never_worse_than_greedy_and_consistent(seed, objective, utility, lam, wp, prune_above, n_range):
    """Depths above ``prune_above`` clusters expand candidate sets only: the result is still never worse than
    the greedy mechanism, satisfies the constraint (problem (10): I* = 0), and its L is the L of the
    returned quantisation recomputed from scratch."""
    jr, values = random_instance(seed, n_range)
    ut = gp.U2(distance="squared") if utility == "U2sq" else utility
    vals = None if utility == "U1" else values
    width, pareto = wp
    b = gp.agglomerate(jr, objective, lam, ut, vals, search="beam", width=width, pareto=pareto, local=False,
                       prune_above=prune_above)
    g = gp.agglomerate(jr, objective, lam, ut, vals)
    assert b.L <= g.L + 1e-9
    priv, util = gp.evaluate_quantization(jr, b.quantization, objective, ut, vals)
    assert b.privacy == pytest.approx(priv, abs=1e-12) and b.utility == pytest.approx(util, abs=1e-12)
    assert b.L == pytest.approx(priv - lam * util, abs=1e-12)
    if objective == "L0|I*=0":
        assert gp.maximin_information(gp.quantize_range(jr, b.quantization)) == 0.0
    if objective != "I*" and jr.n_public > prune_above:
        assert b.info["pruned_depths"] >= 1
    assert b.trace.step_n_clusters[-1] == len(b.quantization)


def test_pruned_beam_small_ranges_unchanged_and_exhaustive_option():
    """Ranges with at most ``prune_above`` public values get exactly the exhaustive beam; ``prune_above=None``
    is the exhaustive beam at any size."""
    jr, values = random_instance(3, (9, 9))
    for obj in OBJECTIVES:
        a = gp.agglomerate(jr, obj, 0.3, "U2", values, search="beam")
        e = gp.agglomerate(jr, obj, 0.3, "U2", values, search="beam", prune_above=None)
        assert a.quantization == e.quantization and a.L == e.L and a.info["pruned_depths"] == 0
    jr = gp.random_joint_range(12, 60, 0.1, seed=5)
    a = gp.agglomerate(jr, "L0", 0.3, search="beam")
    e = gp.agglomerate(jr, "L0", 0.3, search="beam", prune_above=None)
    assert a.info["pruned_depths"] == 60 - 40 and e.info["pruned_depths"] == 0
    assert a.info["children_scored"] < e.info["children_scored"]
    with pytest.raises(gp.InputError, match="prune_above"):
        gp.agglomerate(jr, "L0", 0.3, search="beam", prune_above=2)
