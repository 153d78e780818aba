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
