"""Tests of the hypergraph / polytope drawings and the paper 004 figure builders (quick mode)."""

import matplotlib

matplotlib.use("Agg")

import numpy as np  # noqa: E402
import pytest  # noqa: E402

import graphpriv as gp  # noqa: E402
import graphpriv.viz as gv  # noqa: E402
from graphpriv.reproduce import build_all, registry  # noqa: E402

EX2_P = np.array([[1, 3, 2], [2, 3, 1]]) / 12
EX2_PW = np.array([[1, 1 / 3, 0, 1, 2 / 3, 0], [0, 2 / 3, 1, 0, 1 / 3, 1]])


pytestmark = pytest.mark.usefixtures("close_figures")


def test_plot_incidence_generic_blocks_and_signed():
    ax = gv.plot_incidence(np.eye(3), row_blocks=[1, 2], block_names=["A", "B"], title="t")
    assert ax.get_title() == "t" and len(ax.get_yticklabels()) == 3
    # a joint range's sparse matrix works too
    from graphpriv.datasets import paper_example

    jr, _ = paper_example()
    ax = gv.plot_incidence(jr.matrix, row_labels=[str(s) for s in jr.sensitive_labels])
    assert ax.images[0].get_array().shape == jr.matrix.shape
    ax = gv.plot_incidence(np.array([[1.0, -1.0], [0.5, 0.0]]))
    assert ax.images[0].get_cmap().name == "RdBu_r"


def test_plot_hypergraph_views():
    res = gp.synergistic_disclosure(EX2_PW, EX2_P)
    hg = res.hypergraph
    ax = gv.plot_hypergraph_incidence(hg, null_basis="circuits")
    assert len(ax.figure.axes) == 2 and "nullity 2" in ax.get_title()
    ax = gv.plot_levi_graph(hg)
    assert "1 component" in ax.get_title()
    ax = gv.plot_hyperedges(hg)
    assert len(ax.lines) == 6 + 2  # one polyline per hyperedge + one axis line per sample
    ax = gv.plot_hyperedges(hg, result=res)
    # one polyline per (y, hyperedge) with p(x^n, y) > 0: mapping (22) has 3 + 3 + 4 nonzeros
    assert len(ax.lines) == 10 + 2 and len(ax.get_legend().get_texts()) == 3
    ax = gv.plot_privacy_polytope(res)
    assert "4 vertices" in ax.get_title()


def test_polytope_segment_and_point_and_projection():
    ax = gv.plot_privacy_polytope(gp.self_disclosure(np.outer([0.7, 0.3], [0.6, 0.4])))
    assert "2 vertices" in ax.get_title()
    p = np.zeros((2, 2))
    p[0, 0], p[1, 1] = 0.5, 0.5
    ax = gv.plot_privacy_polytope(gp.self_disclosure(p))
    assert "S = {p}" in ax.texts[0].get_text()
    pw, px = gp.iid_samples_model([2 / 3, 1 / 3], [[0.9, 0.1], [0.1, 0.9]], 3)
    ax = gv.plot_privacy_polytope(gp.synergistic_disclosure(pw, px), label_vertices=False)
    assert "projection" in ax.get_title()


def test_plot_channel():
    ax = gv.plot_channel([[0.8, 0.3], [0.2, 0.7]], title="c")
    assert ax.get_title() == "c" and len(ax.lines) == 4


def test_paper004_figures_registered_and_build_quick(tmp_path):
    names = {s.name for s in registry() if s.paper == "004"}
    assert {"paper004_fig3_latent_reduction", "paper004_fig4_heuristics_n4", "paper004_fig5_asymptotic_efficiency",
            "paper004_table1_is_vs_n", "paper004_ex2_hypergraph", "paper004_table1_hypergraph_n3",
            "paper004_fig2_two_binary", "paper004_fig1_example2_model"} <= names
    built = build_all(tmp_path, only=["paper004"], quick=True, formats=("png",))
    assert {s.name for s in built} == names
    for s in built:
        assert (tmp_path / f"{s.name}.png").stat().st_size > 1000
    assert "paper004_fig4_heuristics_n4" in (tmp_path / "README.md").read_text()


def _bands(ax):
    """(x, y, width) of the parallel-coordinates lines drawn with widths in data units."""
    return [(np.asarray(ln.get_xdata(), float), np.asarray(ln.get_ydata(), float), ln.data_width)
            for ln in ax.get_lines() if hasattr(ln, "data_width")]


@pytest.mark.parametrize("n", [2, 3])
def test_hyperedge_bands_are_centred_on_their_vertices(n):
    """The lines through a vertex form one band centred on it (not offset by output), side by side without overlap."""
    if n == 2:
        res = gp.synergistic_disclosure(EX2_PW, EX2_P)
    else:
        pw, px = gp.iid_samples_model([2 / 3, 1 / 3], [[0.9, 0.1], [0.1, 0.9]], 3)
        res = gp.synergistic_disclosure(pw, px)
    hg = res.hypergraph
    ax = gv.plot_hyperedges(hg, result=res)
    bands = _bands(ax)
    assert len(bands) == int((res.mapping[:, hg.flat_index] * hg.weights[None, :] > 1e-12).sum())
    nodes = [c for c in ax.collections if c.get_offsets().shape[0] > 0]
    centres = {(round(float(x), 6), round(float(y), 6)) for c in nodes for x, y in c.get_offsets()}
    for i in range(hg.n):
        for (cx, cy) in [c for c in centres if abs(c[0] - i) < 1e-9]:
            near = [(y[i], w) for _, y, w in bands if abs(y[i] - cy) < 0.4]
            assert near
            lo = min(y - w / 2 for y, w in near)
            hi = max(y + w / 2 for y, w in near)
            assert abs((lo + hi) / 2 - cy) < 1e-9, (i, cy)
            spans = sorted((y - w / 2, y + w / 2) for y, w in near)
            assert all(b[0] >= a[1] - 1e-12 for a, b in zip(spans, spans[1:]))
    ax.figure.canvas.draw()                      # widths follow the axes at draw time
    assert all(ln.get_linewidth() > 0.3 for ln in ax.get_lines() if hasattr(ln, "data_width"))


def test_polytope_legend_only_keys_drawn_vertices():
    """Paper 004 Fig. 2: S is a segment whose two vertices are both used; no key for an unused (hollow) vertex."""
    alpha, beta, r = 0.4, 0.7, 0.2
    p = np.array([alpha - r, r, beta - alpha + r, 1 - beta - r]).reshape(2, 2)
    res = gp.synergistic_disclosure(np.array([[1, 0, 0, 1], [0, 1, 1, 0]], dtype=float), p)
    texts = [t.get_text() for t in gv.plot_privacy_polytope(res).get_legend().get_texts()]
    assert "vertex of S" not in texts and "vertex used (y)" in texts
    pw, px = gp.iid_samples_model([2 / 3, 1 / 3], [[0.9, 0.1], [0.1, 0.9]], 3)
    texts = [t.get_text() for t in gv.plot_privacy_polytope(gp.synergistic_disclosure(pw, px)).get_legend().get_texts()]
    assert "vertex of S" in texts                   # 9 vertices, 3 used: the hollow ones are drawn and keyed


def test_paper004_fig1_labels_in_one_style():
    """Every node label of paper 004 Fig. 1 is mathtext (not plain "W=0" beside math "X_1 = 0")."""
    from graphpriv.reproduce import registry

    fig = next(s for s in registry() if s.name == "paper004_fig1_example2_model").build(quick=True)
    for ax in fig.axes:
        labels = [t.get_text() for t in ax.texts if t.get_gid() != "graphpriv-channel-label"]
        assert labels and all(t.startswith("$") and t.endswith("$") for t in labels), labels
