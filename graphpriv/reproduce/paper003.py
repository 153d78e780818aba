"""Paper 003 (Ding & Farokhi, agglomerative clustering for non-stochastic privacy): Figs. 1-9.

Each builder returns a matplotlib Figure; :func:`graphpriv.reproduce.build_all` saves them and writes
the manifest. Data: the Fig. 1 joint range and eq. (4) values (:func:`graphpriv.datasets.paper_example`)
and the Hungarian heart-disease data (:func:`graphpriv.datasets.hungarian_range`). Where the print
cannot be reproduced from the paper's own definitions the ``erratum`` field says what differs and why
(see DESIGN.md, section 4 and the mechanism docstrings).
"""

from __future__ import annotations

import math

import numpy as np

from . import figure

__all__: list[str] = []

_LAM_EX2_U1, _LAM_EX2_U2 = 0.3, 2.5      # Example 2 / Fig. 3
_LAM_EX3, _LAM_EX4 = 0.3, 0.3            # Examples 3, 4 / Figs. 4-6
_HUNGARIAN_LAMS = {"L0": {"U1": 2.3, "U2": 2.0}, "I*": {"U1": 1.3, "U2": 0.03}}   # Fig. 8 captions


def _example():
    from ..datasets import paper_example

    return paper_example()


# ----------------------------------------------------------------------------------------------------------------
# Figs. 1-2 and Section IV (core only)
# ----------------------------------------------------------------------------------------------------------------
@figure(name="paper003_fig1_joint_range", paper="003", number="Fig. 1",
        shows="The joint range [[S,X]] of the running example: a filled square at (s_i, x_j) for every pair, "
              "6 sensitive values, 7 public values, 8 pairs.",
        erratum="The s-labels of x2, x6 and x7 are not pinned by the text (reconstruction in DESIGN.md, section 4); "
                "no number in the paper depends on them.")
def fig1(quick: bool = False):
    from ..viz.graphs import plot_joint_range
    from ..viz.style import COLUMN_WIDTH, new_figure

    jr, _ = _example()
    fig, ax = new_figure(COLUMN_WIDTH * 0.8, COLUMN_WIDTH * 0.72, layout="constrained")
    plot_joint_range(jr, ax)
    return fig


@figure(name="paper003_fig2_confusability_graph", paper="003", number="Fig. 2",
        shows="The confusability graph G_X of Fig. 1 with its finest decomposition coloured: "
              "{x1,x2}, {x3,x4}, {x5}, {x6}, {x7}, so I*(S;X) = log2 5.")
def fig2(quick: bool = False):
    from ..viz.graphs import plot_confusability
    from ..viz.style import COLUMN_WIDTH, new_figure

    jr, _ = _example()
    fig, ax = new_figure(COLUMN_WIDTH * 0.8, COLUMN_WIDTH * 0.72, layout="constrained")
    plot_confusability(jr, ax)
    return fig


@figure(name="paper003_sec4_support_graph_and_min_cuts", paper="003", number="Sec. IV / Example 1 (no printed figure)",
        shows="(a) the bipartite support graph of Fig. 1 (its components give G_X's, Lemma 2); (b) the global min cut of "
              "G_X, kappa = 0 (decomposable); (c) the x1-x2 s-t cut, kappa = 1, cut edge dashed.")
def fig_sec4(quick: bool = False):
    from ..graphs.cuts import min_cut
    from ..viz.graphs import plot_confusability, plot_min_cut
    from ..viz.style import PAGE_WIDTH, new_figure

    jr, _ = _example()
    fig, axes = new_figure(PAGE_WIDTH, 2.2, 1, 3, layout="constrained", gridspec_kw={"width_ratios": [1.25, 1, 1]})
    plot_confusability(jr, axes[0], bipartite=True, title="(a) support graph of $[\\![S,X]\\!]$")
    plot_min_cut(jr, min_cut(jr), axes[1], title="(b) global min cut, $\\kappa=0$")
    plot_min_cut(jr, min_cut(jr, "x1", "x2"), axes[2], title="(c) $x_1$-$x_2$ cut, $\\kappa=1$")
    return fig
