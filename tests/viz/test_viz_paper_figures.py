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
        assert not any(same_color(colour, p) for p in viz.PALETTE)
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
    assert viz.math_text(plain) == typeset


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
