"""Rendering tests for merge-step panels, trace grids, L(t) convergence and animations (issue 4), on the
traces of paper 003's Examples 2-4 (Figs. 3-6)."""

from __future__ import annotations

import math

import matplotlib

matplotlib.use("Agg")

import matplotlib.pyplot as plt  # noqa: E402
import numpy as np  # noqa: E402
import pytest  # noqa: E402
from hypothesis import given, settings  # noqa: E402
from hypothesis import strategies as st  # noqa: E402
from PIL import Image  # noqa: E402

import graphpriv as gp  # noqa: E402
from graphpriv.errors import InputError, InputTypeError  # noqa: E402
from graphpriv.viz import animate_trace, plot_convergence, plot_merge_step, plot_trace, step_summary  # noqa: E402
from graphpriv.viz.animation import ffmpeg_available  # noqa: E402

from test_viz_graphs import assert_non_blank, edge_segments, node_count  # noqa: E402


pytestmark = pytest.mark.usefixtures("close_figures")


@pytest.fixture(scope="module")
def ex3():
    """Paper 003, Example 3: Algorithm 2, U1, lambda = 0.3."""
    jr, _ = gp.datasets.paper_example()
    return jr, gp.agglomerate(jr, "I*", 0.3).trace


@pytest.fixture(scope="module")
def ex4():
    """Paper 003, Example 4: Algorithm 2, U2, x7 = 4, lambda = 0.3."""
    jr, values = gp.datasets.paper_example(4)
    return jr, gp.agglomerate(jr, "I*", 0.3, utility="U2", values=values).trace


def texts(ax):
    return [t.get_text() for t in ax.texts]


# ------------------------------------------------------------------------------------------- Fig. 4
@pytest.mark.parametrize("t, n_nodes, labels, merged_title", [
    (1, 6, {"$x_{13}$", "$x_{2}$", "$x_{4}$", "$x_{5}$", "$x_{6}$", "$x_{7}$"}, "$x_{1}$ + $x_{3}$"),
    (2, 5, {"$x_{13}$", "$x_{25}$", "$x_{4}$", "$x_{6}$", "$x_{7}$"}, "$x_{2}$ + $x_{5}$"),
    (3, 4, {"$x_{13}$", "$x_{25}$", "$x_{46}$", "$x_{7}$"}, "$x_{4}$ + $x_{6}$"),
    (4, 3, {"$x_{137}$", "$x_{25}$", "$x_{46}$"}, "$x_{13}$ + $x_{7}$"),
])
def test_merge_step_paper003_fig4(ex3, t, n_nodes, labels, merged_title):
    """Paper 003, Fig. 4 (a)-(d): the nodes of G_X-hat(t) and their super-node labels."""
    jr, tr = ex3
    ax = plot_merge_step(tr, t, jr)
    assert_non_blank(ax.figure)
    assert node_count(ax) == n_nodes
    assert set(texts(ax)) == labels
    assert merged_title in ax.get_title()
    n_comp = tr.steps[t].n_components
    assert f"|={n_comp}$" in ax.get_xlabel() and f"I^*={math.log2(n_comp):.2f}" in ax.get_xlabel()
    assert f"{tr.steps[t].L:.3f}" in ax.get_xlabel()
    # the new super-node is ringed in the merge colour, and the joined component shaded
    nodes = next(c for c in ax.collections if c.get_gid() == "graphpriv-nodes")
    ringed = np.asarray(nodes.get_linewidths()) > 2
    assert ringed.sum() == 1
    assert any(p.get_gid() == "graphpriv-joined-components" for p in ax.patches)


def test_merge_step_t0_is_gx(ex3):
    jr, tr = ex3
    ax = plot_merge_step(tr, 0, jr)
    assert node_count(ax) == 7 and edge_segments(ax) == 2
    assert not any(p.get_gid() == "graphpriv-joined-components" for p in ax.patches)


def test_merge_step_edges_match_quantized_range(ex4):
    jr, tr = ex4
    for t in range(len(tr)):
        ax = plot_merge_step(tr, t, jr)
        q = tr.quantized_range(jr, t)
        assert node_count(ax) == q.n_public
        assert edge_segments(ax) == len(gp.confusability_edges(q))
        plt.close("all")


def test_merge_step_rejected_step_marked():
    """Paper 003, Example 2 (U2): the tentative t = 2 (Delta L = 0.0758) is recorded as rejected."""
    jr, values = gp.datasets.paper_example()
    tr = gp.agglomerate(jr, "L0", 2.5, utility="U2", values=values).trace
    rejected = [s.t for s in tr.steps if not s.accepted]
    assert rejected == [2]
    ax = plot_merge_step(tr, 2, jr)
    assert "rejected" in ax.get_title()
    assert "L_0=" in ax.get_xlabel()  # privacy measure shown when it is not I*
    ax = plot_merge_step(tr, 1, jr)  # Algorithm 1 merges several pairs in one iteration
    nodes = next(c for c in ax.collections if c.get_gid() == "graphpriv-nodes")
    assert (np.asarray(nodes.get_linewidths()) > 2).sum() == 3  # Q(1) = {x1,x2,x4},{x3,x5},{x6,x7}: all new


def test_step_summary_example3(ex3):
    """Paper 003, Example 3: Delta L(1) = -0.0219 (erratum: printed with the wrong sign in the formula)."""
    s = step_summary(ex3[1], 1)
    assert s["n_components"] == 4 and s["I_star"] == pytest.approx(2.0)
    assert s["delta_L"] == pytest.approx(-0.0219, abs=1e-4)


# ------------------------------------------------------------------------------------------- Figs. 4/5 grids
def test_plot_trace_fig4_panels(ex3):
    jr, tr = ex3
    fig = plot_trace(tr, jr)
    assert_non_blank(fig)
    assert len(fig.axes) == 4  # t = 1..4
    assert [node_count(ax) for ax in fig.axes] == [6, 5, 4, 3]
    assert [ax.get_title()[:3] for ax in fig.axes] == ["(a)", "(b)", "(c)", "(d)"]


def test_plot_trace_explicit_steps_and_columns(ex4):
    jr, tr = ex4
    fig = plot_trace(tr, jr, steps=[0, 1, 2, 3, 4], ncols=2)
    assert len(fig.axes) == 5
    assert [node_count(ax) for ax in fig.axes] == [7, 6, 5, 4, 3]


def test_plot_trace_stable_layout(ex3):
    """A value that is never merged stays at the same place in every panel."""
    jr, tr = ex3
    fig = plot_trace(tr, jr, steps=[0, 1, 2])
    where = []
    for ax in fig.axes:
        labels = texts(ax)
        where.append(tuple(np.round(ax.texts[labels.index("$x_{7}$")].get_position(), 6)))
    assert len(set(where)) == 1


def test_plot_trace_long_trace_sampled():
    jr = gp.datasets.hungarian_range()
    tr = gp.agglomerate(jr, "L0", 0.0).trace
    fig = plot_trace(tr, jr, ncols=4)
    assert 1 <= len(fig.axes) <= 12
    assert_non_blank(fig)


def test_plot_trace_bad_input(ex3, ex4):
    jr, tr = ex3
    with pytest.raises(InputError):
        plot_trace(tr, jr, steps=[])
    with pytest.raises(InputError):
        plot_trace(tr, jr, steps=[9])
    with pytest.raises(InputError):
        plot_trace(tr, jr, ncols=0)
    with pytest.raises(InputTypeError):
        plot_merge_step("trace", 1, jr)
    other = gp.JointRange.from_pairs(["a", "b"], ["u", "v"])
    with pytest.raises(InputError, match="public labels"):
        plot_merge_step(tr, 1, other)


@settings(max_examples=15, deadline=None)
@given(seed=st.integers(0, 10_000), n_x=st.integers(3, 14), objective=st.sampled_from(["I*", "L0", "L0|I*=0"]))
def test_every_step_renders(seed, n_x, objective):
    rng = np.random.default_rng(seed)
    n_s = int(rng.integers(2, 8))
    m = rng.random((n_s, n_x)) < 0.2
    m[rng.integers(0, n_s, n_x), np.arange(n_x)] = True
    m[np.arange(n_s), rng.integers(0, n_x, n_s)] = True
    jr = gp.JointRange.from_matrix(m)
    tr = gp.agglomerate(jr, objective, 0.1).trace
    for t in range(len(tr)):
        ax = plot_merge_step(tr, t, jr)
        assert node_count(ax) == tr.steps[t].n_clusters
        nodes = next(c for c in ax.collections if c.get_gid() == "graphpriv-nodes")
        pos, r = nodes.get_offsets(), nodes.get_widths()[0] / 2
        d = np.sqrt(((pos[:, None] - pos[None]) ** 2).sum(-1))
        np.fill_diagonal(d, np.inf)
        assert d.min() >= 2 * r - 1e-9  # super-nodes never overlap
        plt.close("all")


# ------------------------------------------------------------------------------------------- Figs. 3/6
def test_convergence_fig3():
    """Paper 003, Fig. 3: U1 terminates at t = 3, U2 returns t = 1 (t = 2 rejected)."""
    jr, values = gp.datasets.paper_example()
    t1 = gp.agglomerate(jr, "L0", 0.3).trace
    t2 = gp.agglomerate(jr, "L0", 2.5, utility="U2", values=values).trace
    ax = plot_convergence([t1, t2], labels=["U1", "U2"])
    assert_non_blank(ax.figure)
    lines = {ln.get_label(): ln for ln in ax.get_lines()}
    assert list(lines["U1"].get_xdata()) == [0, 1, 2, 3]
    assert np.allclose(lines["U1"].get_ydata(), t1.L)
    assert list(lines["U2"].get_xdata()) == [0, 1]
    assert np.all(np.diff(lines["U1"].get_ydata()) < 0)  # strictly decreasing
    legend = [t.get_text() for t in ax.get_legend().get_texts()]
    assert legend[:2] == ["U1", "U2"] and "returned" in legend and any("rejected" in s for s in legend)


def test_convergence_single_trace_default_label(ex3):
    ax = plot_convergence(ex3[1])
    assert "I*, U1" in ax.get_legend().get_texts()[0].get_text()


def test_convergence_bad_input(ex3):
    with pytest.raises(InputError):
        plot_convergence([])
    with pytest.raises(InputError, match="labels"):
        plot_convergence([ex3[1]], labels=["a", "b"])
    with pytest.raises(InputTypeError):
        plot_convergence(["x"])


# ------------------------------------------------------------------------------------------- animation
def test_animate_gif_one_frame_per_step(ex3, tmp_path):
    jr, tr = ex3
    out = animate_trace(tr, jr, tmp_path / "ex3.gif", fps=2)
    assert out.exists() and out.suffix == ".gif"
    with Image.open(out) as im:
        assert im.n_frames == len(tr) == 5
        im.seek(0)
        frame = np.asarray(im.convert("L"))
        assert frame.std() > 5  # not blank
    assert [p.name for p in tmp_path.iterdir()] == ["ex3.gif"]  # no temporary files left


def test_animate_selected_steps_and_suffix(ex4, tmp_path):
    jr, tr = ex4
    out = animate_trace(tr, jr, tmp_path / "ex4", steps=[1, 3])
    assert out.name == "ex4.gif"
    with Image.open(out) as im:
        assert im.n_frames == 2


def test_animate_mp4_or_clear_error(ex3, tmp_path):
    jr, tr = ex3
    if ffmpeg_available():
        out = animate_trace(tr, jr, tmp_path / "ex3.mp4")
        assert out.stat().st_size > 0
    else:
        with pytest.raises(InputError, match="ffmpeg"):
            animate_trace(tr, jr, tmp_path / "ex3.mp4")
        assert not list(tmp_path.iterdir())


def test_animate_bad_input(ex3, tmp_path):
    jr, tr = ex3
    with pytest.raises(InputError, match="format"):
        animate_trace(tr, jr, tmp_path / "x.avi")
    with pytest.raises(InputError, match="fps"):
        animate_trace(tr, jr, tmp_path / "x.gif", fps=0)


def test_animate_trace_without_merges(tmp_path):
    """A trace that stops at t = 0 (Hungarian, Algorithm 2, U1, lambda = 1.3: paper 003 Fig. 8 caption) animates
    to one frame per recorded step, then the released step again: the GIF ends on the release, not on the
    rejected tentative step."""
    jr = gp.datasets.hungarian_range()
    tr = gp.agglomerate(jr, "I*", 1.3).trace
    assert tr.returned == 0 and not tr.steps[-1].accepted
    out = animate_trace(tr, jr, tmp_path / "h.gif", dpi=60)
    with Image.open(out) as im:
        assert im.n_frames == len(tr) + 1


@pytest.mark.parametrize("quantity, expected", [
    ("I*", [math.log2(5), 2.0, math.log2(3), 1.0, 0.0]),      # paper 003, Fig. 4: |P(t)| = 5, 4, 3, 2, 1
    ("n_clusters", [7, 6, 5, 4, 3]),
])
def test_convergence_other_quantities(ex3, quantity, expected):
    ax = plot_convergence(ex3[1], quantity=quantity, mark_returned=False)
    assert np.allclose(ax.get_lines()[0].get_ydata(), expected)
    with pytest.raises(InputError, match="quantity"):
        plot_convergence(ex3[1], quantity="nope")


@pytest.mark.parametrize("layout", ["components", "spring"])
def test_merge_step_other_layouts(ex3, layout):
    """Non-circle base layouts: super-nodes at the mean of their members or at their index's spot, never overlapping."""
    jr, tr = ex3
    fig = plot_trace(tr, jr, steps=[0, 2, 4], layout=layout)
    for ax, n in zip(fig.axes, (7, 5, 3)):
        nodes = next(c for c in ax.collections if c.get_gid() == "graphpriv-nodes")
        pos, r = nodes.get_offsets(), nodes.get_widths()[0] / 2
        assert len(pos) == n
        d = np.sqrt(((pos[:, None] - pos[None]) ** 2).sum(-1))
        np.fill_diagonal(d, np.inf)
        assert d.min() >= 2 * r - 1e-9
