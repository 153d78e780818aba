"""The concepts figure of the README and the documentation's landing page: one picture per idea.

Ding & Farokhi, *Developing Non-Stochastic Privacy-Preserving Policies Using Agglomerative Clustering*:
(a) the joint range [[S, X]] of the running example (Fig. 1), (b) its confusability graph G_X with the
finest decomposition coloured (Fig. 2; I* = log2 5), (c) one merge of Algorithm 2 (Example 3, t = 1:
x1 + x3 joins two components, I* falls to log2 4). Drawn with :mod:`graphpriv.viz` only.
"""

from __future__ import annotations

from . import figure

__all__: list[str] = []


@figure(name="concepts_overview", paper="003", number="Fig. 1, Fig. 2, Example 3 (t = 1)",
        shows="The three ideas of graphpriv on paper 003's running example: (a) the joint range [[S,X]] (Fig. 1); "
              "(b) its confusability graph G_X, an edge when two public values share a sensitive value, coloured by "
              "component (5 components: I* = log2 5); (c) one merge of Algorithm 2 (Example 3, t = 1): x1 and x3 become "
              "one released value, joining two components (I* = log2 4).")
def concepts_overview(quick: bool = False):
    from ..datasets import paper_example
    from ..mechanisms.quantization.agglomerative import agglomerate
    from ..viz.graphs import graph_layout, plot_confusability, plot_joint_range
    from ..viz.style import PAGE_WIDTH, new_figure
    from ..viz.traces import plot_merge_step

    jr, _ = paper_example()
    trace = agglomerate(jr, "I*", 0.3).trace
    fig, axes = new_figure(PAGE_WIDTH, 2.45, 1, 3, layout="constrained", gridspec_kw={"width_ratios": [1.05, 1, 1]})
    plot_joint_range(jr, axes[0], title="(a) joint range $[\\![S,X]\\!]$")
    pos = graph_layout(jr, "components")               # (b) and (c) place every value at the same spot
    plot_confusability(jr, axes[1], layout=pos, title="(b) $G_X$: 5 components, $I^*=\\log_2 5$")
    plot_merge_step(trace, 1, jr, axes[2], layout=pos, title="(c) merge $x_1+x_3$: $I^*=\\log_2 4$")
    return fig
