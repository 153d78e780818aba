"""Rendering tests for graphpriv.viz.graphs (issue 4): every plot renders to a non-blank PNG with the
expected number of panels / nodes; paper 003 Fig. 1-2 facts; layouts deterministic and overlap-free;
bad input raises graphpriv errors."""

from __future__ import annotations

import io

import matplotlib

matplotlib.use("Agg")

import matplotlib.pyplot as plt  # noqa: E402
import numpy as np  # noqa: E402
import pytest  # noqa: E402
from hypothesis import given, settings  # noqa: E402
from hypothesis import strategies as st  # noqa: E402

import graphpriv as gp  # noqa: E402
from graphpriv.errors import GraphprivError, InputError, InputTypeError  # noqa: E402
from graphpriv.viz import (graph_layout, plot_confusability, plot_incidence_matrix,  # noqa: E402
                           plot_joint_range, plot_min_cut)
from graphpriv.viz.labels import format_label  # noqa: E402


def png_pixels(fig) -> np.ndarray:
    buf = io.BytesIO()
    fig.savefig(buf, format="png", dpi=80)
    buf.seek(0)
    return plt.imread(buf)


def assert_non_blank(fig, min_ink=0.005):
    img = png_pixels(fig)[..., :3]
    ink = (img < 0.95).any(axis=-1).mean()
    assert ink > min_ink, f"figure looks blank ({ink:.4f} of pixels inked)"
    assert img.std() > 0.02


def node_count(ax) -> int:
    return sum(len(c.get_offsets()) for c in ax.collections if c.get_gid() == "graphpriv-nodes")


def edge_segments(ax) -> int:
    return sum(len(c.get_segments()) for c in ax.collections if c.get_gid() == "graphpriv-edges")


pytestmark = pytest.mark.usefixtures("close_figures")


@pytest.fixture
def example():
    return gp.datasets.paper_example()[0]


def random_range(seed: int, n_s: int, n_x: int, density: float) -> gp.JointRange:
    rng = np.random.default_rng(seed)
    m = rng.random((n_s, n_x)) < density
    m[rng.integers(0, n_s, n_x), np.arange(n_x)] = True  # every public value occurs
    m[np.arange(n_s), rng.integers(0, n_x, n_s)] = True  # every sensitive value occurs
    return gp.JointRange.from_matrix(m)


# ------------------------------------------------------------------------------------------- Fig. 1
def test_joint_range_grid_paper003_fig1(example):
    """Paper 003, Fig. 1: 6 x 7 grid with 8 filled squares."""
    ax = plot_joint_range(example)
    assert_non_blank(ax.figure)
    img = ax.images[0].get_array()
    assert img.shape[:2] == (6, 7)
    filled = (np.asarray(img)[..., :3] < 0.9).any(axis=-1)
    assert filled.sum() == 8 == example.n_pairs
    assert [t.get_text() for t in ax.get_xticklabels()] == [f"$x_{{{i}}}$" for i in range(1, 8)]
    assert ax.get_xlabel() == "public data $X$" and ax.get_ylabel() == "sensitive data $S$"


def test_joint_range_colour_by_component(example):
    ax = plot_joint_range(example, color_by="component", title=True)
    img = np.asarray(ax.images[0].get_array())[..., :3]
    colours = {tuple(np.round(img[i, j], 3)) for i, j in zip(*np.nonzero(example.matrix.toarray()))}
    assert len(colours) == gp.n_components(example) == 5
    assert "8 pairs" in ax.get_title()


def test_joint_range_large_thins_ticks():
    jr = gp.datasets.hungarian_range()
    fig, ax = gp.viz.new_figure(7.16, 3)
    plot_joint_range(jr, ax)
    assert_non_blank(fig)
    assert len(ax.get_xticks()) < jr.n_public and len(ax.get_yticks()) <= jr.n_sensitive


def test_incidence_matrix_weighted_and_values():
    P = np.array([[0.1, 0.0, 0.2], [0.0, 0.3, 0.4]])
    ax = plot_incidence_matrix(P, row_labels=["a", "b"], col_labels=["x", "y", "z"], values=True, colorbar=True)
    assert_non_blank(ax.figure)
    assert len(ax.figure.axes) == 2  # + colour bar
    assert sorted(t.get_text() for t in ax.texts) == ["0.1", "0.2", "0.3", "0.4"]


@pytest.mark.parametrize("bad, err", [
    (np.zeros(3), InputError),
    (np.zeros((0, 3)), InputError),
    (np.array([[np.nan, 1.0]]), InputError),
    (np.array([[-1.0, 1.0]]), InputError),
])
def test_incidence_matrix_bad_input(bad, err):
    with pytest.raises(err):
        plot_incidence_matrix(bad)


def test_incidence_matrix_label_length_mismatch():
    with pytest.raises(InputError, match="row_labels"):
        plot_incidence_matrix(np.eye(2, dtype=bool), row_labels=["a"])


# ------------------------------------------------------------------------------------------- Fig. 2
def test_confusability_paper003_fig2(example):
    """Paper 003, Fig. 2: 7 nodes, edges x1-x2 and x3-x4, five components, I* = log2 5."""
    ax = plot_confusability(example)
    assert_non_blank(ax.figure)
    assert node_count(ax) == 7
    assert edge_segments(ax) == 2
    assert "5 components" in ax.get_title() and "2.32" in ax.get_title()
    nodes = next(c for c in ax.collections if c.get_gid() == "graphpriv-nodes")
    assert len({tuple(np.round(c, 3)) for c in nodes.get_edgecolors()}) == 5  # one colour per component
    assert [t.get_text() for t in ax.texts] == [f"$x_{{{i}}}$" for i in range(1, 8)]


def test_confusability_bipartite(example):
    ax = plot_confusability(example, bipartite=True)
    assert_non_blank(ax.figure)
    assert node_count(ax) == 7  # public circles
    squares = [c for c in ax.collections if c.get_gid() == "graphpriv-sensitive-nodes"]
    assert len(squares) == 1 and len(squares[0].get_paths()) == 6
    assert edge_segments(ax) == example.n_pairs


def test_confusability_highlight_and_quantized_labels(example):
    q = gp.quantize_range(example, [{"x1", "x3"}, {"x2", "x5"}, {"x4", "x6"}, {"x7"}])
    ax = plot_confusability(q, highlight=[("x1", "x3")])
    assert node_count(ax) == 4
    assert [t.get_text() for t in ax.texts] == ["$x_{13}$", "$x_{25}$", "$x_{46}$", "$x_{7}$"]
    assert "2 components" in ax.get_title()  # paper 003, Section V-B1: {{x1..x6},{x7}}


def test_confusability_unlabelled_when_large():
    jr = gp.datasets.hungarian_range()
    ax = plot_confusability(jr, view="node-link")   # "auto" draws the component view at this size
    assert node_count(ax) == jr.n_public == 154
    assert not ax.texts
    assert "2 components" in ax.get_title()  # Hungarian data: chol 132 (age 28) is isolated


@pytest.mark.parametrize("layout", ["components", "circle", "spring", "kamada_kawai", "circular"])
def test_layouts_deterministic(example, layout):
    a, b = graph_layout(example, layout), graph_layout(example, layout)
    assert all(np.allclose(a[x], b[x]) for x in a)


def test_layout_mapping_and_errors(example):
    pos = {x: (i, 0) for i, x in enumerate(example.public_labels)}
    ax = plot_confusability(example, layout=pos)
    assert node_count(ax) == 7
    with pytest.raises(InputError, match="missing positions"):
        graph_layout(example, {"x1": (0, 0)})
    with pytest.raises(InputError, match="layout="):
        graph_layout(example, "nope")


@settings(max_examples=25, deadline=None)
@given(seed=st.integers(0, 10_000), n_s=st.integers(1, 12), n_x=st.integers(2, 30), density=st.floats(0.02, 0.3))
def test_components_layout_no_overlap(seed, n_s, n_x, density):
    """Nodes of graphs up to 30 nodes never overlap: drawn discs are disjoint."""
    jr = random_range(seed, n_s, n_x, density)
    ax = plot_confusability(jr)
    nodes = next(c for c in ax.collections if c.get_gid() == "graphpriv-nodes")
    pos = nodes.get_offsets()
    r = nodes.get_widths()[0] / 2
    d = np.sqrt(((pos[:, None] - pos[None]) ** 2).sum(-1))
    np.fill_diagonal(d, np.inf)
    assert d.min() >= 2 * r - 1e-9
    assert node_count(ax) == jr.n_public
    assert edge_segments(ax) == len(gp.confusability_edges(jr))
    plt.close("all")


# ------------------------------------------------------------------------------------------- cuts
def test_min_cut_global_paper003(example):
    """Paper 003, Example 1: min cut 0 (decomposable); side = component of x1."""
    ax = plot_min_cut(example)
    assert_non_blank(ax.figure)
    assert r"\kappa=0" in ax.get_title() and "0 cut edges" in ax.get_title()
    assert node_count(ax) == 7


def test_min_cut_st_highlights_cut_edge(example):
    cut = gp.min_cut(example, "x1", "x2")
    ax = plot_min_cut(example, cut)
    edges = next(c for c in ax.collections if c.get_gid() == "graphpriv-edges")
    widths = np.asarray(edges.get_linewidths())
    assert (widths > 2).sum() == cut.value == 1
    assert "1 cut edge" in ax.get_title()


def test_min_cut_connected_graph_cut_edges():
    jr = gp.JointRange.from_pairs(["a", "a", "b", "b", "c", "c"], ["x1", "x2", "x2", "x3", "x3", "x4"])  # path
    cut = gp.min_cut(jr)
    ax = plot_min_cut(jr, cut)
    edges = next(c for c in ax.collections if c.get_gid() == "graphpriv-edges")
    assert (np.asarray(edges.get_linewidths()) > 2).sum() == cut.value == 1


def test_min_cut_bad_input(example):
    with pytest.raises(InputTypeError):
        plot_min_cut(example, cut="x1")
    other = gp.JointRange.from_pairs(["a", "b"], ["u", "v"])
    with pytest.raises(InputError, match="partition"):
        plot_min_cut(example, gp.min_cut(other))


def test_bad_joint_range_type():
    for fn in (plot_joint_range, plot_confusability, plot_min_cut):
        with pytest.raises(InputTypeError):
            fn("not a range")
    with pytest.raises(GraphprivError):
        plot_joint_range(gp.datasets.paper_example()[0], color_by="rainbow")


# ------------------------------------------------------------------------------------------- labels
@pytest.mark.parametrize("label, text", [
    ("x1", "$x_{1}$"),
    (("x1", "x3"), "$x_{13}$"),
    (("x1", "x3", "x7"), "$x_{137}$"),
    (("x2", "x10"), "$x_{2,10}$"),
    (frozenset({"x3", "x1"}), "$x_{13}$"),
    ((132, 150), "132+150"),
    ("age", "age"),
    (("a", "b"), "a+b"),
])
def test_format_label(label, text):
    assert format_label(label) == text


def test_axes_argument_is_used(example):
    fig, axes = gp.viz.new_figure(7, 2, 1, 3)
    out = [plot_joint_range(example, ax=axes[0]), plot_confusability(example, ax=axes[1]), plot_min_cut(example, ax=axes[2])]
    assert out == list(axes)
    assert len(fig.axes) == 3
    assert_non_blank(fig)


def test_vector_and_raster_output(example, tmp_path):
    """One style, vector (PDF/SVG) and PNG output through viz.save_figure (atomic, no temp files left)."""
    ax = plot_confusability(example)
    paths = gp.viz.save_figure(ax.figure, tmp_path / "gx", formats=("pdf", "svg", "png"))
    assert [p.suffix for p in paths] == [".pdf", ".svg", ".png"]
    assert paths[0].read_bytes()[:5] == b"%PDF-"
    assert b"<svg" in paths[1].read_bytes()[:500]
    assert sorted(p.name for p in tmp_path.iterdir()) == ["gx.pdf", "gx.png", "gx.svg"]


def test_confusability_switches_to_component_view_past_node_link_limit():
    """Hungarian G_X (154 public values) is drawn as one disc per component, not a hairball; the paper's
    7-value example keeps its node-link drawing; view= forces either."""
    from matplotlib.patches import Circle

    import graphpriv as gp
    from graphpriv.viz.graphs import COMPONENT_DISCS_MAX, NODE_LINK_MAX_NODES

    jr = gp.datasets.hungarian_range()
    assert jr.n_public > NODE_LINK_MAX_NODES
    ax = gp.viz.plot_confusability(jr)
    discs = [p for p in ax.patches if isinstance(p, Circle)]
    assert len(discs) == 2                                    # the two components of the Hungarian G_X
    texts = " ".join(t.get_text() for t in ax.texts)
    assert "|X|=153 |S|=37" in texts and "|X|=1 |S|=1" in texts and "132" in texts
    assert "2 components of 154 public values" in ax.get_title()
    assert not ax.collections                                 # no node or edge collections
    small, _ = gp.datasets.paper_example()
    ax = gp.viz.plot_confusability(small)
    assert len(ax.collections[-1].get_offsets()) == 7
    ax = gp.viz.plot_confusability(small, view="components")
    assert len([p for p in ax.patches if isinstance(p, Circle)]) == 5
    many = gp.random_joint_range(300, 400, 0.004, seed=3)
    n_comp = len(gp.finest_decomposition(many))
    ax = gp.viz.plot_confusability(many)
    discs = [p for p in ax.patches if isinstance(p, Circle)]
    assert len(discs) == COMPONENT_DISCS_MAX + 1             # the largest ones, then one summary disc
    assert f"{n_comp - COMPONENT_DISCS_MAX} smaller components" in " ".join(t.get_text() for t in ax.texts).replace("\n", " ")
    with pytest.raises(gp.errors.InputError, match="view must be"):
        gp.viz.plot_confusability(small, view="hairball")
