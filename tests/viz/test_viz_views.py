"""Merge views that scale (matrix, hierarchy, component graph, one stable node-link layout) on paper 003's
examples and the Hungarian data (Ding & Farokhi, *Developing Non-Stochastic Privacy-Preserving Policies Using
Agglomerative Clustering*, Examples 2-4 and Section VI)."""

from __future__ import annotations

import matplotlib

matplotlib.use("Agg")

import matplotlib.pyplot as plt  # noqa: E402
import numpy as np  # noqa: E402
import pytest  # noqa: E402
from hypothesis import given, settings  # noqa: E402
from hypothesis import strategies as st  # noqa: E402

import graphpriv as gp  # noqa: E402
from graphpriv import viz  # noqa: E402
from graphpriv.errors import InputError  # noqa: E402

from test_viz_graphs import assert_non_blank  # noqa: E402


pytestmark = pytest.mark.usefixtures("close_figures")


@pytest.fixture(scope="module")
def ex3():
    jr, _ = gp.datasets.paper_example()
    return jr, gp.agglomerate(jr, "I*", 0.3).trace


@pytest.fixture(scope="module")
def hungarian():
    return gp.datasets.hungarian_range()


def assert_stable(trace, base, ring=None):
    """Across consecutive frames every node that did not merge keeps its position."""
    prev = None
    for t in range(len(trace)):
        clusters = trace.quantization(t)
        pos = viz.traces.trace_positions(trace, base, t, min_gap=0.5, ring=ring)
        assert pos.shape == (len(clusters), 2)
        now = dict(zip(clusters, map(tuple, pos)))
        if prev is not None:
            for c, p in now.items():
                if c in prev:
                    assert np.allclose(prev[c], p), (t, sorted(map(str, c)))
        prev = now


def test_node_positions_stable_paper_example(ex3):
    jr, tr = ex3
    for layout in ("circle", "components"):
        base = viz.traces.trace_layout(tr, jr, layout)
        assert_stable(tr, base, ring=viz.graphs.circle_radius(jr.n_public) if layout == "circle" else None)
    # the drawn panels use the same positions
    base = viz.traces.trace_layout(tr, jr)
    for t in range(len(tr)):
        ax = viz.plot_merge_step(tr, t, jr, layout=base)
        nodes = [c for c in ax.collections if c.get_gid() == "graphpriv-nodes"][0]
        ring = viz.graphs.circle_radius(jr.n_public)
        assert np.allclose(nodes.get_offsets(), viz.traces.trace_positions(tr, base, t, min_gap=nodes.get_widths()[0] * 1.2, ring=ring))
        plt.close("all")


@st.composite
def small_ranges(draw):
    n_x = draw(st.integers(3, 9))
    n_s = draw(st.integers(1, 5))
    sens, pub = [], []
    for j in range(n_x):
        for s in sorted(draw(st.sets(st.integers(0, n_s - 1), min_size=1, max_size=min(3, n_s)))):
            sens.append(f"s{s}")
            pub.append(f"x{j + 1}")
    return gp.JointRange.from_pairs(sens, pub)


@settings(max_examples=25, deadline=None)
@given(small_ranges(), st.sampled_from(["L0", "I*", "L0|I*=0"]), st.sampled_from([0.0, 0.3, 2.0]))
def test_node_positions_stable_random(jr, objective, lam):
    tr = gp.agglomerate(jr, objective, lam).trace
    assert_stable(tr, viz.traces.trace_layout(tr, jr), ring=viz.graphs.circle_radius(jr.n_public))


def test_matrix_view_outlines_and_anonymity(ex3):
    jr, tr = ex3
    ax = viz.plot_merge_matrix(tr, jr, 2)   # x2 + x5 (paper 003, Fig. 4(b))
    merged = [p for p in ax.patches if p.get_gid() == "graphpriv-merged"]
    assert len(merged) == 1
    # outline spans exactly the two columns of {x2, x5}
    x0 = merged[0].get_x()
    ticks = dict(zip([t.get_text() for t in ax.get_xticklabels()], ax.get_xticks()))
    assert x0 < ticks["$x_{2}$"] < x0 + merged[0].get_width() and x0 < ticks["$x_{5}$"] < x0 + merged[0].get_width()
    strip = [a for a in ax.child_axes if a.get_gid() == "graphpriv-anonymity"][0]
    heights = sorted(round(p.get_height()) for p in strip.patches)
    qjr = tr.quantized_range(jr, 2)
    assert heights == sorted(np.asarray(qjr.public_degrees).tolist())
    assert "joins 2 components" in strip.get_title()


def test_hierarchy_cut_and_colours(ex3):
    jr, tr = ex3
    ax = viz.plot_merge_hierarchy(tr, 2)
    R = ax.graphpriv_dendrogram
    assert sorted(R["leaves"]) == list(range(jr.n_public))
    merged = [c for c in R["color_list"] if c == viz.style.ROLE["merge"]]
    assert len(merged) == 1                                    # one pair merged at t = 2
    assert any(abs(line.get_ydata()[0] - 2.5) < 1e-9 for line in ax.get_lines())   # the cut line


def test_component_graph_counts(ex3):
    jr, tr = ex3
    for t in range(len(tr)):
        ax = viz.plot_component_graph(tr, t)
        comps = {p.get_label() for p in ax.patches if p.get_gid() == "graphpriv-component"}
        assert len(comps) == tr.step_n_components[t]
        ringed = [p for p in ax.patches if p.get_gid() == "graphpriv-joined"]
        assert len(ringed) == len({e.component_a | e.component_b for e in viz.merges.merge_events(tr, t) if e.joined})
        plt.close("all")


def test_step_title_marks_release_and_rejection():
    jr, values = gp.datasets.paper_example()
    tr = gp.agglomerate(jr, "L0", 2.5, utility="U2", values=values).trace    # Example 2, U2: t = 2 rejected
    assert "released" in viz.merges.step_title(tr, 1) and "rejected" in viz.merges.step_title(tr, 2)
    assert viz.merges.step_status(tr, 0) == ""


def test_cluster_labels_numeric_order():
    universe = [85, 92, 98, 100, 105, 110, 113, 115, 117, 118, 119, 120, 121, 122, 130]
    members = [100, 105, 92, 98, 110, 113, 115, 117, 118, 119, 120, 121, 122]
    assert viz.labels.cluster_label(members, universe) == "92–122 (13)"
    assert viz.labels.cluster_label([100, 92, 130, 85, 122], universe) == "85, 92, …, 130 (5)"
    assert viz.labels.format_label(tuple(members), math=False, max_members=3).startswith("92")


def test_plot_trace_picks_view_by_size(ex3, hungarian):
    jr, tr = ex3
    fig = viz.plot_trace(tr, jr)
    assert any(c.get_gid() == "graphpriv-nodes" for ax in fig.axes for c in ax.collections)
    htr = gp.agglomerate(hungarian, "L0", 0.0).trace
    fig = viz.plot_trace(htr, hungarian, steps=[1, 2])
    assert not any(c.get_gid() == "graphpriv-nodes" for ax in fig.axes for c in ax.collections)
    outlined = sum(1 for ax in fig.axes for p in ax.patches if p.get_gid() == "graphpriv-merged")
    marked = sum(len(c.get_segments()) for ax in fig.axes for c in ax.collections if c.get_gid() == "graphpriv-merged-marks")
    assert outlined + marked == \
        len({k for t in (1, 2) for k in _merged_clusters(htr, t)})
    with pytest.raises(InputError, match="view"):
        viz.plot_trace(tr, jr, view="hairball")


def _merged_clusters(tr, t):
    q = tr.quantization(t)
    return [(t, i) for i, c in enumerate(q) if any((e.a | e.b) <= c for e in viz.merges.merge_events(tr, t))]


def test_merge_view_hungarian_algorithm2(hungarian):
    """Hungarian, Algorithm 2 (U1, lambda = 0): 85 + 132 joins the two components; one picture says so."""
    tr = gp.agglomerate(hungarian, "I*", 0.0).trace
    fig = viz.plot_merge_view(tr, hungarian, 1)
    assert fig.get_suptitle() == "$t=1$: 85, 132".replace(", ", " + ") + ", joins 2 components — released"
    assert_non_blank(fig)


def test_multi_pair_step_numbers_pairs_and_names_the_join(hungarian):
    """Algorithm 1's first sweep on the Hungarian data merges 77 pairs; the one joining the isolated
    component (age 28, cholesterol 132) is named by its number, and every pair has its badge in the matrix."""
    tr = gp.agglomerate(hungarian, "L0", 0.0).trace
    ev = viz.merges.merge_events(tr, 1)
    assert len(ev) == len(tr.step_merges[1]) > 20
    joined = [e.number for e in ev if e.joined]
    assert len(joined) == 1 and any(132 in (e.a | e.b) for e in ev if e.joined)
    assert f"pair {joined[0]} joins 2 components" in viz.merges.step_title(tr, 1)
    ax = viz.plot_merge_matrix(tr, hungarian, 1, anonymity=False)
    badges = [t.get_text() for t in ax.texts if t.get_gid() == "graphpriv-pair-badge"]
    assert 0 < len(badges) <= viz.matrix.BADGE_MAX                  # capped: the first pairs numbered ...
    numbers = sorted(int(x) for b in badges for x in b.split(","))
    assert len(set(numbers)) == len(numbers) and joined[0] in numbers      # ... the joining pair among them
    (more,) = [t.get_text() for t in ax.texts if t.get_gid() == "graphpriv-pair-more"]
    assert more == f"+{len(ev) - len(numbers)} more pairs"                  # ... and the rest counted


def test_status_colours_on_every_view():
    jr, values = gp.datasets.paper_example()
    tr = gp.agglomerate(jr, "L0", 2.5, utility="U2", values=values).trace    # Example 2, U2: t = 2 rejected
    released, rejected = viz.style.ROLE["frontier"], viz.style.ROLE["cut"]
    from matplotlib.colors import same_color

    for t, colour in ((1, released), (2, rejected), (0, "black")):
        assert same_color(viz.merges.status_color(tr, t), colour)
        assert same_color(viz.plot_merge_step(tr, t, jr).title.get_color(), colour)
        assert same_color(viz.plot_merge_hierarchy(tr, t).title.get_color(), colour)
        fig = viz.plot_merge_view(tr, jr, t)
        assert same_color(fig._suptitle.get_color(), colour)
        plt.close("all")
    fig = viz.plot_trace(tr, jr, steps=[1, 2])
    assert [same_color(ax.title.get_color(), c) for ax, c in zip(fig.axes, (released, rejected))] == [True, True]


def test_hierarchy_numbers_the_pairs_of_a_sweep():
    jr, _ = gp.datasets.paper_example()
    tr = gp.agglomerate(jr, "L0", 0.3).trace                 # Example 2 (U1): t = 1 merges 3 pairs
    t = max(range(len(tr)), key=lambda k: len(tr.step_merges[k]))
    k = len(tr.step_merges[t])
    assert k > 1
    ax = viz.plot_merge_hierarchy(tr, t)
    # one badge per cluster merged at t, with the matrix view's text ("1,4": pairs 1 and 4 of the sweep form it)
    nums = sorted(int(x) for a in ax.texts if a.get_gid() == "graphpriv-pair-number" for x in a.get_text().split(","))
    assert nums == list(range(1, k + 1))
    m = viz.plot_merge_matrix(tr, jr, t)
    m.figure.canvas.draw()
    assert ({a.get_text() for a in ax.texts if a.get_gid() == "graphpriv-pair-number"}
            == {a.get_text() for a in m.texts if a.get_gid() == "graphpriv-pair-badge" and a.get_visible()})
