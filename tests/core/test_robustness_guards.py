"""Guards with estimates: calls that would exceed a memory or time budget refuse quickly with
TooLargeError (what they would need, what to use instead); cut and strength tools scale on sparse G_X."""

from __future__ import annotations

import time

import networkx as nx
import numpy as np
import pytest
from hypothesis import given, settings, strategies as st

import graphpriv as gp
from graphpriv import _guards
from graphpriv.errors import TooLargeError
from graphpriv.graphs import sparse_cuts

N_BIG = 100_000


@pytest.fixture(scope="module")
def big_path():
    """G_X is a path on 10^5 public values: s_i is shared by x_i and x_{i+1}."""
    i = np.arange(N_BIG - 1)
    return gp.JointRange.from_pairs(np.r_[i, i].tolist(), np.r_[i, i + 1].tolist())


@pytest.fixture(scope="module")
def big_cycle():
    i = np.arange(N_BIG)
    return gp.JointRange.from_pairs(np.r_[i, i].tolist(), np.r_[i, (i + 1) % N_BIG].tolist())


def _timed(f, *a, **k):
    t = time.perf_counter()
    out = f(*a, **k)
    return out, time.perf_counter() - t


def test_cut_tools_scale_on_a_sparse_path(big_path):
    """Each was > 150 s at |X| = 10^5; the linear-time paths answer exactly (a path: every edge is a bridge)."""
    cut, t1 = _timed(gp.min_cut, big_path)
    assert cut.value == 1 and len(cut.side) + len(cut.other) == N_BIG and len(cut.cut_edges) == 1
    ec, t2 = _timed(gp.edge_connectivity, big_path)
    assert ec.value == 1
    strength, t3 = _timed(gp.network_strength, big_path)
    assert strength.fraction == 1 and len(strength.partition) == N_BIG     # a tree: singletons attain 1
    tree, t4 = _timed(gp.gomory_hu_tree, big_path)
    assert nx.is_tree(tree) and tree.number_of_edges() == N_BIG - 1
    print(f"|X| = 10^5 path: min_cut {t1:.1f} s, edge_connectivity {t2:.1f} s, network_strength {t3:.1f} s, "
          f"gomory_hu_tree {t4:.1f} s")


def test_cut_tools_on_a_big_cycle_answer_or_refuse_quickly(big_cycle):
    assert gp.min_cut(big_cycle).value == 2 and gp.edge_connectivity(big_cycle).value == 2
    for f in (gp.network_strength, gp.gomory_hu_tree):
        t = time.perf_counter()
        with pytest.raises(TooLargeError, match=r"would take about .* \|V\| = 100000.*; use "):
            f(big_cycle)
        assert time.perf_counter() - t < 30


def _random_graph_range(draw_edges, n):
    """A joint range whose G_X has exactly the given edges (one sensitive value per edge, one per isolated node)."""
    s, x = [], []
    for k, (i, j) in enumerate(draw_edges):
        s += [f"e{k}", f"e{k}"]
        x += [i, j]
    for v in range(n):
        s.append(f"v{v}")
        x.append(v)
    return gp.JointRange.from_pairs(s, x)


@settings(max_examples=40, deadline=None)
@given(st.integers(3, 9).flatmap(lambda n: st.tuples(st.just(n), st.sets(
    st.tuples(st.integers(0, n - 1), st.integers(0, n - 1)).filter(lambda e: e[0] < e[1]), min_size=1, max_size=14))))
def test_fast_paths_agree_with_stoer_wagner(case):
    """Linear-time min cut / strength / Gomory-Hu answers equal networkx's exact ones on random small graphs."""
    n, edges = case
    jr = _random_graph_range(sorted(edges), n)
    G = nx.Graph()
    G.add_nodes_from(range(n))
    G.add_edges_from(edges)
    want = nx.stoer_wagner(G)[0] if nx.is_connected(G) else 0
    cut = gp.min_cut(jr)
    assert cut.value == want == gp.edge_connectivity(jr).value
    assert len(cut.cut_edges) == want
    assert gp.network_strength(jr).fraction == gp.network_strength(jr, method="brute").fraction
    T = gp.gomory_hu_tree(jr)
    for u in range(n):
        for v in range(u + 1, n):
            path = nx.shortest_path(T, u, v)
            lightest = min(T[a][b]["weight"] for a, b in zip(path, path[1:]))
            assert lightest == (len(nx.minimum_edge_cut(G, u, v)) if nx.has_path(G, u, v) else 0)


def test_unit_min_cut_fast_cases():
    assert sparse_cuts.unit_min_cut_fast(4, np.array([[0, 1], [1, 2], [2, 3], [3, 0], [0, 2]]))[0] == 2
    k4 = np.array([[i, j] for i in range(4) for j in range(i + 1, 4)])
    assert sparse_cuts.unit_min_cut_fast(4, k4) is None          # degree 3, no bridge: Stoer-Wagner's job


@pytest.mark.parametrize("plot, kwargs", [("plot_joint_range", {}), ("plot_confusability", {"view": "node-link"}),
                                           ("plot_min_cut", {"view": "node-link"})])
def test_plots_of_huge_ranges_refuse_quickly(big_path, plot, kwargs):
    t = time.perf_counter()
    with pytest.raises(TooLargeError, match=r"would take about .*\|\[\[X\]\]\| = 100000.*; use "):
        getattr(gp.viz, plot)(big_path, **kwargs)
    assert time.perf_counter() - t < 10


def test_confusability_of_huge_range_draws_its_components_quickly(big_path):
    t = time.perf_counter()
    ax = gp.viz.plot_confusability(big_path)          # view="auto": one disc per component, no node-link drawing
    assert "1 component of 100000 public values" in ax.get_title()
    assert time.perf_counter() - t < 10


def test_min_cut_of_huge_range_draws_its_two_sides_quickly(big_path):
    t = time.perf_counter()
    ax = gp.viz.plot_min_cut(big_path)                # view="auto": the two sides of the cut, no node-link drawing
    assert "1 vs 99999 public values, 1 cut edge" in ax.get_title()
    assert time.perf_counter() - t < 10


def test_plot_trace_of_huge_range_refuses_quickly():
    i = np.arange(20_000)                     # 10^4 components of two values: Algorithm 2 has nothing to merge
    jr = gp.JointRange.from_pairs(i.tolist(), (i // 2).tolist())
    trace = gp.agglomerate(jr, "I*", 0.0).trace
    t = time.perf_counter()
    with pytest.raises(TooLargeError, match=r"drawing the merge trace would take .*; use trace.to_linkage"):
        gp.viz.plot_trace(trace, jr)
    with pytest.raises(TooLargeError, match=r"drawing the merge trace would take"):
        gp.viz.animate_trace(trace, jr, "never.gif")
    assert time.perf_counter() - t < 10


def test_long_labels_refused_by_figures():
    jr = gp.JointRange.from_pairs([1, 2, 1], ["a" * 1_000_000, "b", "c"])
    for plot in (gp.viz.plot_joint_range, gp.viz.plot_confusability):
        with pytest.raises(TooLargeError, match="1000000 characters long"):
            plot(jr)


def test_set_partitions_and_dense_pmf_refuse_with_estimates():
    from graphpriv.mechanisms.exact import set_partitions

    with pytest.raises(TooLargeError, match=r"set_partitions\(16\) .* would need .* GiB of memory .*; use a heuristic"):
        set_partitions(16)
    assert set_partitions(5).shape == (52, 5)
    p = np.full((2,) * 24, 2.0 ** -24)
    t = time.perf_counter()
    with pytest.raises(TooLargeError, match=r"16777216 points x 24 samples .* would need 3\.\d GiB.*from_support"):
        gp.SampleHypergraph.from_pmf(p)
    assert time.perf_counter() - t < 10
    assert gp.SampleHypergraph.from_pmf(np.full((2,) * 8, 2.0 ** -8)).support.shape == (256, 8)


def test_guard_messages_say_need_limit_and_instead():
    with pytest.raises(TooLargeError) as e:
        _guards.check_dense("a table", 1e12, 8, "chunks")
    assert str(e.value) == "a table would need 7.3 TiB of memory (limit 2.0 GiB); use chunks"
    with pytest.raises(TooLargeError, match=r"^x would take about 2.8 h for n = 1 \(limit about 60 s\); use y$"):
        _guards.check_seconds("x", 1e4, "y", size="n = 1")
    with pytest.raises(TooLargeError, match="would enumerate 1e\\+10 subsets"):
        _guards.check_count("the subsets", 1e10, 1e6, "z", unit="subsets")


# ---------------------------------------------------------------------- progress inside a long mechanism run
def test_merge_progress_reports_every_step():
    """merge_progress sees every recorded step of Algorithm 2 on the Hungarian data (clusters decreasing,
    the last step with the components the trace records)."""
    from graphpriv.mechanisms.quantization.progress import merge_progress

    jr = gp.datasets.hungarian_range()
    seen = []
    with merge_progress(lambda clusters, components: seen.append((clusters, components))):
        res = gp.agglomerate(jr, "L0", 0.0)
    assert len(seen) == len(res.trace) - 1          # every merge step (the trace also holds t = 0)
    clusters = [c for c, _ in seen]
    assert all(a > b for a, b in zip(clusters, clusters[1:]))
    with merge_progress(lambda *a: seen.append("inner")):
        pass
    n = len(seen)
    gp.agglomerate(jr, "I*", 0.3)            # outside any block: nothing is reported
    assert len(seen) == n


def test_sanitize_progress_bar_shows_merges(monkeypatch, capsys):
    """On a terminal the mechanism step shows a 'merging' bar with the components left."""
    from graphpriv.cli import analyze

    monkeypatch.setattr(analyze.Progress, "MERGE_REFRESH", 0.0)
    progress = analyze.Progress(1, "sanitize", True)
    jr = gp.datasets.hungarian_range()
    with progress.step("mechanism"), progress.merges(jr.n_public):
        gp.pareto_frontier(jr, "L0", "U1")
    progress.close()
    err = capsys.readouterr().err
    assert "merging" in err and "component(s) left" in err
