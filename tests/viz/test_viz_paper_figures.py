"""Paper-figure conventions: cut sides outside the component palette, one label formatter, no title on a
single-panel figure, a zoom inset where polytope vertices crowd, transport-flow labels on their edges."""

from __future__ import annotations

import matplotlib

matplotlib.use("Agg")

import numpy as np  # noqa: E402
import pytest  # noqa: E402
from matplotlib.colors import same_color  # noqa: E402

import graphpriv as gp  # noqa: E402
from graphpriv import viz  # noqa: E402
from graphpriv.reproduce import drop_single_panel_titles, typeset_labels  # noqa: E402


pytestmark = pytest.mark.usefixtures("close_figures")


def test_min_cut_sides_outside_component_palette_with_legend():
    jr, _ = gp.datasets.paper_example()
    ax = viz.plot_min_cut(jr, gp.min_cut(jr, "x1", "x2"))
    nodes = [c for c in ax.collections if c.get_gid() == "graphpriv-nodes"][0]
    for colour in nodes.get_edgecolors():
        assert not any(same_color(colour, p) for p in viz.style.PALETTE)
    texts = [t.get_text() for t in ax.get_legend().get_texts()]
    assert texts[0].startswith("side $X'$ (6)") and texts[2] == "cut edge (1)"


@pytest.mark.parametrize("plain, typeset", [
    ("I*(S;X) (bits)", "$I^*(S;X)$ (bits)"),
    ("L0|I*=0", "$L_0$ with $I^*=0$"),
    ("ε=1, δ=0.005, ε̄=2", r"$\epsilon=1$, $\delta=0.005$, $\bar\epsilon=2$"),
    ("x11 and X1 on G_X", "$x_{11}$ and $X_1$ on $G_X$"),
    ("already $x_1$", "already $x_1$"),
    ("beam (mean 0.018)", "beam (mean 0.018)"),
])
def test_math_text(plain, typeset):
    assert viz.labels.math_text(plain) == typeset


def test_typeset_labels_and_single_panel_titles():
    fig, ax = viz.new_figure()
    ax.plot([0, 1], [0, 1], label="L0|I*=0")
    ax.set_title("I* of G_X")
    ax.set_xticks([0, 1])
    ax.set_xticklabels(["x1", "x11"])
    ax.legend()
    assert typeset_labels(fig) >= 4
    assert ax.get_title() == "$I^*$ of $G_X$"
    assert [t.get_text() for t in ax.get_xticklabels()] == ["$x_1$", "$x_{11}$"]
    assert ax.get_legend().get_texts()[0].get_text() == "$L_0$ with $I^*=0$"
    ax.twinx()                                  # a twin is not a second panel
    assert drop_single_panel_titles(fig) and ax.get_title() == ""
    fig2, axes = viz.new_figure(ncols=2)
    axes[0].set_title("(a)")
    assert not drop_single_panel_titles(fig2) and axes[0].get_title() == "(a)"


def test_polytope_zoom_inset_on_crowded_vertices():
    """Table I model at n = 4 (paper 004): 130 vertices of S, some nearly coincide in the view; an inset
    separates them. At n = 3 the 9 vertices are apart (no inset)."""
    from graphpriv.mechanisms.sample_privacy import iid_samples_model, synergistic_disclosure
    from graphpriv.reproduce.paper004 import _TABLE1

    pw, px = iid_samples_model(_TABLE1["p_w"], _TABLE1["p_x_given_w"], 4)
    ax = viz.plot_privacy_polytope(synergistic_disclosure(pw, px))
    zoom = [a for a in ax.child_axes if a.get_gid() == "graphpriv-zoom"]
    assert len(zoom) == 1
    x0, x1 = zoom[0].get_xlim()
    assert (x1 - x0) < 0.3 * np.ptp(ax.get_xlim())          # a real magnification
    pw, px = iid_samples_model(_TABLE1["p_w"], _TABLE1["p_x_given_w"], 3)
    ax = viz.plot_privacy_polytope(synergistic_disclosure(pw, px))
    assert not [a for a in ax.child_axes if a.get_gid() == "graphpriv-zoom"]


def test_polytope_view_depends_on_the_null_space_not_its_basis():
    """The 2-D view of S is fixed by the null space of P: any orthonormal basis of it (LAPACK builds
    return different SVD bases when the nullity exceeds 2) gives the same coordinates."""
    from graphpriv.mechanisms.sample_privacy import iid_samples_model, synergistic_disclosure
    from graphpriv.reproduce.paper004 import _TABLE1
    from graphpriv.viz.hypergraphs import _view_basis

    pw, px = iid_samples_model(_TABLE1["p_w"], _TABLE1["p_x_given_w"], 3)
    hg = synergistic_disclosure(pw, px).hypergraph
    N = hg.null_basis("svd")
    assert N.shape[1] == 4
    B = _view_basis(N, 2)
    assert np.allclose(B.T @ B, np.eye(2)) and np.allclose(N @ (N.T @ B), B)   # orthonormal, inside the null space
    for seed in range(3):
        Q, _ = np.linalg.qr(np.random.default_rng(seed).standard_normal((4, 4)))
        assert np.allclose(_view_basis(N @ Q, 2), B, atol=1e-12)


def test_no_zoom_when_vertices_are_apart():
    from graphpriv.mechanisms.sample_privacy import self_disclosure

    ax = viz.plot_privacy_polytope(self_disclosure(np.outer([0.7, 0.3], [0.6, 0.4])))
    assert not [a for a in ax.child_axes if a.get_gid() == "graphpriv-zoom"]


def test_transport_flow_labels_on_their_edges():
    from graphpriv.mechanisms.stochastic import linear_reduction, paper000_example1

    mech = linear_reduction(paper000_example1(), 0.5, scheme="optimal")      # papers 000/001, Example 1
    ax = viz.plot_transport_plan(mech, 1)
    slanted = [ln for ln in ax.get_lines() if len(ln.get_xdata()) == 2 and ln.get_ydata()[0] != ln.get_ydata()[1]]
    labels = [t for t in ax.texts if t.get_rotation() not in (0.0,)]
    assert slanted and len(labels) == len(slanted)
    for t in labels:
        x, y = t.get_position()
        assert any(abs(ln.get_ydata()[0] + x * (ln.get_ydata()[1] - ln.get_ydata()[0]) - y) < 1e-9 for ln in slanted)


# ---------------------------------------------------------------------------------------------------------------
# paper 003, Figs. 7-9 (regressions of what was wrong by eye)
# ---------------------------------------------------------------------------------------------------------------
def _build(name):
    from graphpriv.reproduce import registry

    spec = next(s for s in registry() if s.name == name)
    with viz.style_context():          # as `graphpriv figures` builds them
        fig = spec.build(quick=True)
        drop_single_panel_titles(fig)
        typeset_labels(fig)
        fig.draw_without_rendering()
    return fig


def _staircase(xs, ys, at):
    """The leakage a step-post frontier achieves at utility loss ``at``: that of the last point with loss <= at."""
    order = np.lexsort((-np.asarray(ys), np.asarray(xs)))
    xs, ys = np.asarray(xs)[order], np.asarray(ys)[order]
    k = np.searchsorted(xs, at, side="right") - 1
    return np.where(k >= 0, ys[np.maximum(k, 0)], np.inf)


def _legend_box(ax):
    return ax.get_legend().get_window_extent(ax.figure.canvas.get_renderer())


def _inside(box, disp):
    disp = np.atleast_2d(disp)
    return (disp[:, 0] >= box.x0) & (disp[:, 0] <= box.x1) & (disp[:, 1] >= box.y0) & (disp[:, 1] <= box.y1)


def test_frontiers_are_staircases_never_dipping_below_the_exact_one():
    """Fig. 7: points joined by steps (a loss between two points achieves the leakage of the left one), so the
    greedy frontier is nowhere below the exact optimum; straight segments showed it beating the optimum."""
    fig = _build("paper003_fig7_pareto_frontier")
    for ax in fig.axes:
        lines = {ln.get_label(): ln for ln in ax.get_lines()}
        greedy = next(ln for lab, ln in lines.items() if lab.startswith("Algorithm 2"))
        exact = lines["exact optimum"]
        assert greedy.get_drawstyle() == exact.get_drawstyle() == "steps-post"
        grid = np.linspace(0, 1, 2001)
        g = _staircase(greedy.get_xdata(), greedy.get_ydata(), grid)
        e = _staircase(exact.get_xdata(), exact.get_ydata(), grid)
        assert (g >= e - 1e-12).all()
        # the legend crosses no staircase and covers no point
        box = _legend_box(ax).padded(-2)
        for ln in (greedy, exact):
            from matplotlib.cbook import STEP_LOOKUP_MAP
            from matplotlib.path import Path

            sx, sy = STEP_LOOKUP_MAP["steps-post"](ln.get_xdata(), ln.get_ydata())
            assert not Path(ax.transData.transform(np.column_stack([sx, sy]))).intersects_bbox(box, filled=False)


def test_plot_frontier_drawstyles():
    jr, _ = gp.datasets.paper_example()
    f = gp.pareto_frontier(jr, "I*")
    assert viz.plot_frontier(f).get_lines()[0].get_drawstyle() == "steps-post"
    assert viz.plot_frontier(f, normalized=False).get_lines()[0].get_drawstyle() == "steps-pre"   # x = utility
    assert viz.plot_frontier(f, drawstyle="markers").get_lines()[0].get_linestyle() == "None"
    assert viz.plot_frontier(f, drawstyle="lines").get_lines()[0].get_drawstyle() == "default"
    with pytest.raises(gp.errors.InputError, match="drawstyle"):
        viz.plot_frontier(f, drawstyle="smooth")


def test_fig8_panels_show_more_than_two_points():
    """Fig. 8 (a) and (b): the runs at the caption's lambda stop after one step on the Hungarian data (two points
    each), so (a) draws L(t) along the whole merge order and (b) every candidate first merge around them; the
    legends name the returned and rejected markers; (c)'s legend covers none of the points of t = 0-2."""
    fig = _build("paper003_fig8_hungarian_convergence")
    a1, a2, b1, b2, c = fig.axes
    for ax in (a1, a2):
        longest = max(len(ln.get_xdata()) for ln in ax.get_lines())
        assert longest >= 10, longest
    for ax in (b1, b2):
        n_cand = sum(len(coll.get_offsets()) for coll in ax.collections)
        assert n_cand >= 100, n_cand
    for ax in (a1, a2, b1):
        texts = [t.get_text() for t in ax.get_legend().get_texts()]
        assert "returned" in texts and any(t.startswith("rejected") for t in texts), texts
    box = _legend_box(c)
    for ln in c.get_lines():
        x, y = (np.asarray(v, dtype=float) for v in ln.get_data())
        early = x <= 2
        if early.any():
            assert not _inside(box, c.transData.transform(np.column_stack([x[early], y[early]]))).any(), ln.get_label()


def test_paper004_fig2_segment_panels_are_filled():
    """Paper 004 Fig. 2: the segment S of each tuple is an axis with the entropy of W drawn over it (a curve, not one
    segment in white space), the data taking most of the axes, and I_s written as drawn (H(W) minus the chord)."""
    fig = _build("paper004_fig2_two_binary")
    for ax, want in zip(fig.axes[:2], (0.2749, 0.0409)):
        curve = max(ax.get_lines(), key=lambda ln: len(ln.get_xdata()))
        x, y = (np.asarray(v, dtype=float) for v in curve.get_data())
        assert len(x) > 50 and np.ptp(y) > 0
        lo, hi = ax.get_ylim()
        assert np.ptp(y) >= 0.45 * (hi - lo)
        x0, x1 = ax.get_xlim()
        assert np.ptp(x) >= 0.7 * (x1 - x0)
        text = " ".join(t.get_text() for t in ax.texts)
        assert f"{want:.3f}" in text


def test_fig9_axis_labels_legible_and_panel_b_zoomed():
    """Fig. 9: axis labels at the label size (no inline fraction, whose terms shrink to about 5 pt); panel (b)
    zoomed onto its two one-merge frontiers, each labelled."""
    fig = _build("paper003_fig9_hungarian_frontiers")
    a, b = fig.axes
    for ax in (a, b):
        for label in (ax.xaxis.label, ax.yaxis.label):
            assert "\\frac" not in label.get_text() and label.get_fontsize() >= 8
    assert b.get_xlim()[1] < 0.2
    xs = np.concatenate([ln.get_xdata() for ln in b.get_lines()])
    assert xs.max() <= b.get_xlim()[1] and xs.max() > 0.5 * b.get_xlim()[1]
    notes = [t.get_text() for t in b.texts]
    assert sum("one merge" in t for t in notes) == 2
