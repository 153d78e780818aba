"""One picture per merge step that scales to real data: the matrix view of [[S, X̂(t)]] on top, the merge
hierarchy cut at t below it (each leaf under its matrix column) and the component graph of G_X̂(t) on the
right, all titled with what step t did (pairs merged, components joined, released or rejected). :func:`plot_trace` and :func:`animate_trace` use it
for ranges too large for node-link drawings.
"""

from __future__ import annotations

from .components import plot_component_graph
from .graphs import styled
from .hierarchy import plot_merge_hierarchy
from .matrix import _ever_merged, plot_merge_matrix
from .merges import _check_pair, status_color, step_title
from .style import PAGE_WIDTH, new_figure

__all__ = ["plot_merge_view", "NODE_LINK_MAX"]

#: Largest number of public values drawn as node-link graphs by the automatic views; larger ranges get
#: the matrix, hierarchy and component-graph views.
NODE_LINK_MAX = 40


def draw_merge_view(fig, trace, jr, t: int) -> dict:
    """Draw the three linked views of step t into an (empty) figure; returns {"matrix", "hierarchy", "components"}.

    The matrix (with its anonymity strip) and the hierarchy share one column of the figure and one column
    order (:func:`graphpriv.viz.labels.hierarchy_order`): every leaf of the tree sits under its matrix column. The
    component graph and the hierarchy's legend take the narrow column on the right.
    """
    # the tree's panel is as tall as it has something to show: a trace of a few steps has a low tree, a trace
    # that merges few of many values a nearly empty one (mostly the joins that complete it), and a trace that
    # merges nothing has none (a one-line note says so)
    merged = int(_ever_merged(trace).sum()) if trace.n_public > 1 else 0
    tree = 0.0 if merged == 0 else (1.0 if len(trace) > 4 else 0.6) * (1.0 if merged >= 0.05 * trace.n_public else 0.6)
    gs = fig.add_gridspec(3, 2, height_ratios=[0.32, 1.3, tree or 0.08], width_ratios=[1, 0.26])
    top = fig.add_subplot(gs[0, 0])
    m = fig.add_subplot(gs[1, 0])
    h = fig.add_subplot(gs[2, 0])
    c = fig.add_subplot(gs[1, 1])
    key = fig.add_subplot(gs[2, 1])
    note = fig.add_subplot(gs[0, 1])
    plot_merge_matrix(trace, jr, t, m, title=False, anonymity=top, order="hierarchy")
    align = getattr(m, "graphpriv_layout", None) if trace.n_public > 1 else None
    if not tree:   # nothing merged: no tree to draw
        for ax_ in (h, key):
            ax_.axis("off")
        h.text(0.0, 0.5, f"merge hierarchy not drawn: the trace merges none of the {trace.n_public:,} values",
               ha="left", va="center", fontsize=6.5, color="#505050", transform=h.transAxes, gid="graphpriv-no-tree")
        _step_numbers(note, trace, t)
        plot_component_graph(trace, t, c, title="components\nof $G_{\\hat X}$")   # the numbers: in the note above
        fig.suptitle(step_title(trace, t), fontsize=10, color=status_color(trace, t))
        return {"matrix": m, "anonymity": top, "hierarchy": h, "components": c}
    plot_merge_hierarchy(trace, t, h, title=False, legend=True, align=align)
    _same_badges(m, h)
    if h.get_legend() is not None:
        h.get_legend().remove()
    key.axis("off")
    entries = getattr(h, "graphpriv_legend", None)
    if entries:  # the tree's legend beside it, not over it
        from matplotlib.legend_handler import HandlerTuple

        kl = key.legend(*zip(*entries), handler_map={tuple: HandlerTuple(ndivide=None, pad=0)}, loc="center",
                        fontsize=6, frameon=True, borderpad=0.4, title="merge hierarchy", title_fontsize=6.5)
        kl.get_frame().set_edgecolor("#bbbbbb")
        kl.get_frame().set_linewidth(0.5)
    _step_numbers(note, trace, t)
    plot_component_graph(trace, t, c, title="components\nof $G_{\\hat X}$")   # the numbers: in the note above
    fig.suptitle(step_title(trace, t), fontsize=10, color=status_color(trace, t))
    return {"matrix": m, "anonymity": top, "hierarchy": h, "components": c}


def _same_badges(m, h) -> None:
    """The tree under the matrix shows the pair badges the matrix shows (decided when the matrix is drawn, on the
    final layout), so a cluster's badge is the same in both panels or absent from the tree."""
    from matplotlib.artist import Artist

    class BadgeSync(Artist):
        def draw(self, renderer):
            shown = {x.get_text() for x in m.texts if x.get_gid() == "graphpriv-pair-badge" and x.get_visible()}
            for x in h.texts:
                if x.get_gid() == "graphpriv-pair-number":
                    x.set_visible(x.get_text() in shown)
            self.stale = False

    if any(x.get_gid() == "graphpriv-pair-number" for x in h.texts):
        sync = BadgeSync()
        sync.set_zorder(-1)
        h.add_artist(sync)


def _step_numbers(ax, trace, t: int) -> None:
    """The numbers of step t in a few lines: clusters, components, I*, privacy and L (Ding & Farokhi, Section V)."""
    import math

    ax.axis("off")
    st = trace.steps[t]
    k = st.n_components
    if trace.has_criteria:     # the mechanism's own measures and why it did step t
        import textwrap

        from .merges import measure_names, measure_text, step_why

        lab = measure_names(trace)
        lines = [rf"$|\mathcal{{Q}}^{{({t})}}|={st.n_clusters}$ of {trace.n_public} values, $|\mathcal{{P}}^{{({t})}}|={k}$",
                 f"{lab['privacy']} = {measure_text(st.privacy)}", f"{lab['utility']} = {measure_text(st.utility)}"]
        why = step_why(trace, t)
        if why:
            lines += textwrap.wrap(why, 38)[:6]
        ax.text(0.0, 0.5, "\n".join(lines), ha="left", va="center", fontsize=6, transform=ax.transAxes, linespacing=1.35,
                gid="graphpriv-step-numbers")
        return
    lines = [rf"$|\mathcal{{Q}}^{{({t})}}|={st.n_clusters}$ of {trace.n_public} values",
             rf"$|\mathcal{{P}}^{{({t})}}|={k}$, $I^*={math.log2(k) if k > 0 else float('nan'):.2f}$ bits",
             rf"$\mathcal{{L}}={st.L:.3f}$" + (rf", $\Delta\mathcal{{L}}={st.delta_L:+.3f}$" if t > 0 else "")]
    ax.text(0.0, 0.5, "\n".join(lines), ha="left", va="center", fontsize=6.5, transform=ax.transAxes, linespacing=1.5,
            gid="graphpriv-step-numbers")


@styled
def plot_merge_view(trace, jr, t: int | None = None, *, width: float = PAGE_WIDTH, height: float | None = None):
    """Matrix view, merge hierarchy and component graph of step t in one figure.

    From this one picture a reader can tell which values merged at t (outlined and numbered columns in the
    matrix, highlighted links in the hierarchy, labelled under its leaves), which components that joined
    (ringed node and dashed ghosts in the component graph; two leaf colours under one merged link) and
    whether t is the released or a rejected step (title).

    Parameters
    ----------
    trace : MergeTrace
    jr : JointRange or JointDistribution
        The data the trace was recorded on (a distribution gives its support). A trace that records its
        mechanism's own criterion shows its measures and why step t did what it did beside the matrix.
    t : int, optional
        Step (default: the returned step).
    width, height : float
        Figure size in inches (default a full page width, height 0.72 x width).

    Returns
    -------
    matplotlib Figure

    Examples
    --------
    >>> import graphpriv as gp
    >>> jr, _ = gp.datasets.paper_example()
    >>> fig = gp.viz.plot_merge_view(gp.agglomerate(jr, "I*", 0.3).trace, jr, 2)
    >>> fig.get_suptitle()
    '$t=2$: $x_{2}$ + $x_{5}$, joins 2 components'
    """
    trace, jr = _check_pair(trace, jr)
    t = trace._check_t(t)
    fig, ax = new_figure(width, height or width * 0.8, layout="constrained")
    ax.remove()
    draw_merge_view(fig, trace, jr, t)
    return fig
