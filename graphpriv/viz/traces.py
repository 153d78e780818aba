"""Merge steps, trace panels and convergence of L(t) (paper 003, Figs. 3-6 and 8).

A :class:`~graphpriv.MergeTrace` records a mechanism as a sequence of node merges. These views read it:

* :func:`plot_merge_step` draws G_X̂(t), the confusability graph of the quantised range at the end of
  iteration t: super-nodes labelled by their members (:math:`x_{13}` fuses x1 and x3, as in paper 003,
  Fig. 4), the node(s) created at t ringed in ``ROLE["merge"]``, the components the merge joined shaded
  behind them, and I*(S;X̂(t)) = log2 |P(t)| and L(t) written in the panel.
* :func:`plot_trace` puts several steps side by side (Figs. 4 and 5).
* :func:`plot_convergence` plots L(t) against t for one or several traces (Figs. 3, 6 and 8).

Layouts are stable: the original public values keep the positions of
:func:`graphpriv.viz.graph_layout` and a super-node sits at the mean position of its members, nudged
apart when two nodes would overlap. Component colours follow the original components of G_X: a merged
component keeps the colour of the component holding its smallest public value.
"""

from __future__ import annotations

import math
from typing import Mapping, Sequence

import numpy as np

from ..errors import InputError
from ..ranges import JointRange
from .graphs import (circle_radius, styled, _draw_graph, _labels_on, _min_distance,
                     graph_layout)
from .labels import cluster_label
from .merges import _check_pair, _check_trace, measure_names, measure_text, merge_events, status_color, step_title
from .style import COLUMN_WIDTH, PAGE_WIDTH, PALETTE, ROLE, axes_or_new, component_color, new_figure

__all__ = ["plot_merge_step", "plot_trace", "plot_convergence", "trace_layout", "trace_positions", "step_summary"]

#: Merge-step panels with more nodes than this are drawn without node labels unless ``labels=True``.
TRACE_LABEL_MAX_NODES = 30

#: Height (inches) of the row of :func:`plot_trace` that plots a criterion trace's recorded privacy, utility and
#: criterion against t.
MEASURE_ROW_HEIGHT = 1.7

#: Largest number of panels :func:`plot_trace` draws by default (steps are then evenly sampled).
MAX_DEFAULT_PANELS = 12

_PRIVACY_NAME = {"I*": "I^*", "L0": "L_0", "L0|I*=0": "L_0"}


def trace_layout(trace, jr: JointRange, layout: str | Mapping = "circle", *, seed: int = 0) -> dict:
    """Base positions (original public label -> (x, y)) shared by every step of ``trace``.

    The layout of G_X from :func:`graphpriv.viz.graph_layout`; pass the result as ``layout=`` to
    :func:`plot_merge_step` to keep several panels or animation frames aligned.

    Examples
    --------
    >>> import graphpriv as gp
    >>> jr, _ = gp.datasets.paper_example()
    >>> tr = gp.agglomerate(jr, "I*", 0.3).trace
    >>> sorted(gp.viz.traces.trace_layout(tr, jr))[:3]
    ['x1', 'x2', 'x3']
    """
    trace, jr = _check_pair(trace, jr)
    return graph_layout(jr, layout, seed=seed)


def step_summary(trace, t: int) -> dict:
    """Numbers shown on a merge-step panel: t, merged pairs, |Q|, |P|, I* (bits), privacy, utility, L, ΔL.

    Examples
    --------
    >>> import graphpriv as gp
    >>> jr, _ = gp.datasets.paper_example()
    >>> s = gp.viz.step_summary(gp.agglomerate(jr, "I*", 0.3).trace, 1)     # paper 003, Example 3
    >>> s["n_components"], round(s["I_star"], 4), round(s["delta_L"], 4)
    (4, 2.0, -0.0219)
    """
    trace = _check_trace(trace)
    t = trace._check_t(t)
    st = trace.steps[t]
    return {
        "t": t,
        "merged": st.merged,
        "n_clusters": st.n_clusters,
        "n_components": st.n_components,
        "I_star": math.log2(st.n_components) if st.n_components > 0 else float("nan"),
        "privacy": st.privacy,
        "utility": st.utility,
        "L": st.L,
        "delta_L": st.delta_L,
        "accepted": st.accepted,
        "returned": t == trace.returned,
    }


def _hull(ax, points: np.ndarray, radius: float, color, zorder=0.5):
    """Soft rounded hull around ``points`` (circles of ``radius``)."""
    from matplotlib.patches import Polygon

    ang = np.linspace(0, 2 * np.pi, 24, endpoint=False)
    ring = np.column_stack([np.cos(ang), np.sin(ang)]) * radius
    cloud = (points[:, None, :] + ring[None, :, :]).reshape(-1, 2)
    try:
        from scipy.spatial import ConvexHull

        hull = cloud[ConvexHull(cloud).vertices]
    except Exception:  # degenerate (collinear) clouds
        hull = cloud
    poly = Polygon(hull, closed=True, facecolor=color, edgecolor="none", alpha=0.16, zorder=zorder)
    poly.set_gid("graphpriv-joined-components")
    ax.add_patch(poly)
    return poly


def _ring_of(base: dict) -> float | None:
    """The radius when every base position lies on one circle about the origin (the circle layout)."""
    pts = np.array(list(base.values()), dtype=float)
    if len(pts) < 3:
        return None
    r = np.hypot(pts[:, 0], pts[:, 1])
    return float(r.mean()) if np.allclose(r, r.mean(), rtol=1e-6) and r.mean() > 0 else None


def _base_radius(base_pts: np.ndarray) -> float:
    """Node radius shared by every panel of a trace: fits the original layout."""
    r = min(0.38, 0.42 * _min_distance(base_pts))
    return r if np.isfinite(r) and r > 0 else 0.38


def trace_positions(trace, base: Mapping, t: int, *, min_gap: float = 0.0, ring: float | None = None) -> np.ndarray:
    """Position of every cluster of Q(t) (index order) on ONE layout for the whole trace.

    Replays the merges up to t: a node never moves unless it merges, and the node created by a merge
    sits at the mean base position of its members (projected back on the circle of radius ``ring`` for
    the circle layout); when that spot is closer than ``min_gap`` to another node it takes the vacated
    spot of the larger of the two merged nodes. So across the frames of an animation every node that did
    not merge keeps its position.

    Parameters
    ----------
    trace : MergeTrace
    base : mapping public label -> (x, y)
        Positions of the original public values (:func:`trace_layout`).
    t : int
        Step.
    min_gap : float
        Smallest distance kept between a new super-node and the other nodes (checked up to 400 values).
    ring : float, optional
        Radius of the circle layout.

    Returns
    -------
    numpy.ndarray of shape (|Q(t)|, 2)
    """
    from ..mechanisms.trace import _UnionFind

    t = trace._check_t(t)
    labels = trace.public_labels
    n = len(labels)
    pts = np.array([np.asarray(base[x], dtype=float) for x in labels]).reshape(n, 2)
    pos = {i: pts[i] for i in range(n)}
    total = {i: pts[i].copy() for i in range(n)}
    size = dict.fromkeys(range(n), 1)
    uf = _UnionFind(n)
    check = min_gap > 0 and n <= 400
    for pairs in trace.step_merges[1:t + 1]:
        for a, b in pairs:
            ra, rb = uf.find(int(a)), uf.find(int(b))
            if ra == rb:
                continue
            pa, pb = pos.pop(ra), pos.pop(rb)
            sa, sb = size.pop(ra), size.pop(rb)
            tot, sz = total.pop(ra) + total.pop(rb), sa + sb
            keep = pa if sa >= sb else pb       # the larger part's (vacated) spot
            cand = tot / sz
            if ring:
                norm = float(np.hypot(*cand))
                cand = cand / norm * ring if norm > 1e-9 else keep
            if check and pos:
                others = np.array(list(pos.values()))
                if np.sqrt(((others - cand) ** 2).sum(1)).min() < min_gap:
                    cand = keep
            r = uf.union(ra, rb)
            pos[r], total[r], size[r] = cand, tot, sz
    roots = sorted(pos)
    return np.array([pos[r] for r in roots]).reshape(-1, 2)


def _step_geometry(trace, jr: JointRange, t: int, base: dict, ring: float | None = None):
    """Positions, edges, labels and colours of G_X̂(t)."""
    from ..graphs.confusability import confusability_edges

    qjr = trace.quantized_range(jr, t)
    clusters = trace.quantization(t)                 # index order, aligned with qjr.public_labels
    labels = list(trace.public_labels)
    code = {x: i for i, x in enumerate(labels)}
    base_pts = np.array([base[x] for x in labels])
    radius = _base_radius(base_pts)
    pos = trace_positions(trace, base, t, min_gap=2.4 * radius, ring=ring)
    span = float(np.ptp(base_pts, axis=0).max()) if len(base_pts) > 1 else 1.0
    if len(pos) < len(labels):  # fewer nodes than the original layout: let them grow (up to 9% of the span)
        radius = max(radius, min(0.42 * _min_distance(pos), 0.09 * span))
    edges = confusability_edges(qjr, max_edges=None)
    comp_code = trace.component_ids(t)               # smallest public code of each value's component
    comp0 = np.asarray(trace.components0)
    colour_id = [int(comp0[comp_code[min(code[x] for x in c)]]) for c in clusters]
    texts = [cluster_label(c, labels, max_members=4, math=True) for c in clusters]
    return qjr, clusters, pos, edges, colour_id, texts, comp_code, code, base_pts, radius


@styled
def plot_merge_step(trace, t: int, jr: JointRange, ax=None, *, layout: str | Mapping = "circle",
                    labels: bool | str | None = "auto", title: str | bool | None = True, annotate: bool = True,
                    seed: int = 0):
    """Draw G_X̂(t) after iteration ``t`` of a merge trace (paper 003, Figs. 4 and 5: one panel).

    Parameters
    ----------
    trace : MergeTrace
        From a mechanism, e.g. ``gp.agglomerate(jr, "I*", 0.3).trace``.
    t : int
        Step index (0 = the original G_X; negative counts from the end).
    jr : JointRange or JointDistribution
        The data the trace was recorded on (a distribution gives its support).
    ax : matplotlib Axes, optional
    layout : str or mapping
        Base layout of the original public values (:func:`trace_layout` output to share between panels).
    labels : bool or "auto"
        Node labels; super-nodes read :math:`x_{13}` for {x1, x3}.
    title : str or bool
        ``True``: "t = 1: x1 + x3" (the pair merged at t; "rejected" for a tentative step the stopping rule
        refused).
    annotate : bool
        Write |P(t)|, I*(S;X̂(t)) = log2 |P(t)| and L(t) (and the privacy measure when it is not I*) in the
        lower-left corner.

    Returns
    -------
    matplotlib Axes
        Node count = |Q(t)|; the node(s) created at t are ringed in ``ROLE["merge"]`` and, when the merge
        joined components of G_X̂(t-1), the joined component is shaded in the same colour.

    Examples
    --------
    >>> import graphpriv as gp
    >>> jr, _ = gp.datasets.paper_example()
    >>> tr = gp.agglomerate(jr, "I*", 0.3).trace                  # paper 003, Example 3 / Fig. 4
    >>> ax = gp.viz.plot_merge_step(tr, 1, jr)
    >>> len(ax.collections[-1].get_offsets())                      # Fig. 4(a): 6 nodes
    6
    >>> [t.get_text() for t in ax.texts][:6]
    ['$x_{13}$', '$x_{2}$', '$x_{4}$', '$x_{5}$', '$x_{6}$', '$x_{7}$']

    Notes
    -----
    Replays the trace to t (O(t + |X|)) and builds G_X̂(t) (O(number of edges)).
    """
    trace, jr = _check_pair(trace, jr)
    t = trace._check_t(t)
    base = graph_layout(jr, layout, seed=seed)
    ring = circle_radius(jr.n_public) if isinstance(layout, str) and layout == "circle" else _ring_of(base)
    qjr, clusters, pos, edges, colour_id, texts, comp_code, code, base_pts, radius = _step_geometry(trace, jr, t, base, ring)
    ax = axes_or_new(ax, COLUMN_WIDTH, None)
    step = trace.steps[t]
    new_nodes = set()
    for a, b in step.merged:
        u = a | b
        for k, c in enumerate(clusters):
            if u <= c:
                new_nodes.add(k)
    ring = ROLE["merge"]
    nec = [ring if k in new_nodes else component_color(colour_id[k]) for k in range(len(clusters))]
    new = [2.8 if k in new_nodes else 1.3 for k in range(len(clusters))]
    on = _labels_on(labels, len(clusters), TRACE_LABEL_MAX_NODES)
    nodes = _draw_graph(ax, pos, edges, texts, colour_id, labels_on=on, node_edge_colors=nec, node_edge_widths=new,
                        radius=radius, limits_from=base_pts)
    if not step.accepted:
        nodes.set_linestyles([(0, (2, 1.5)) if k in new_nodes else "solid" for k in range(len(clusters))])
    # shade the component(s) the merge joined
    if t > 0 and step.merged:
        prev = trace.component_ids(t - 1)
        for a, b in step.merged:
            ca = {int(prev[code[x]]) for x in a}
            cb = {int(prev[code[x]]) for x in b}
            if ca != cb:
                comp = comp_code[code[next(iter(a))]]
                members = [k for k, c in enumerate(clusters) if comp_code[code[next(iter(c))]] == comp]
                _hull(ax, pos[members], radius * 1.35, ring)
    events = merge_events(trace, t)
    if len(events) > 1:  # several pairs in one sweep (Algorithm 1): number the new nodes in merge order
        owner = {x: k for k, c in enumerate(clusters) for x in c}
        nums: dict[int, list[int]] = {}
        for e in events:
            nums.setdefault(owner[next(iter(e.a))], []).append(e.number)
        for k, ns in nums.items():
            ax.text(pos[k, 0] + radius * 0.8, pos[k, 1] + radius * 0.8, ",".join(map(str, ns)), fontsize=5.5, color="white",
                    ha="center", va="center", zorder=6, gid="graphpriv-pair-number",
                    bbox=dict(boxstyle="round,pad=0.12", facecolor=ROLE["merge"], edgecolor="none"))
    if title is True:
        title = step_title(trace, t, max_chars=44, lines=2)
    if title:
        ax.set_title(title, color=status_color(trace, t))
    if annotate and trace.has_criteria:     # the mechanism's own measures, by name
        s = step_summary(trace, t)
        lab = measure_names(trace)
        ax.set_xlabel(rf"$|\mathcal{{Q}}|={s['n_clusters']}$, $|\mathcal{{P}}|={s['n_components']}$" + "\n"
                      + f"{lab['privacy']} = {measure_text(s['privacy'])}\n{lab['utility']} = {measure_text(s['utility'])}",
                      fontsize=7, color="#333333")
    elif annotate:
        s = step_summary(trace, t)
        first = [rf"$|\mathcal{{P}}|={s['n_components']}$", rf"$I^*={s['I_star']:.2f}$ bits"]
        second = []
        if trace.objective != "I*":
            name = _PRIVACY_NAME.get(trace.objective, "privacy")
            second.append(f"${name}={s['privacy']:.2f}$")
        second.append(rf"$\mathcal{{L}}={s['L']:.3f}$")
        ax.set_xlabel(", ".join(first) + "\n" + ", ".join(second), fontsize=7, color="#333333")
    return ax


def _measure_row(fig, spec, trace, steps) -> list:
    """The recorded privacy, utility and main criterion against t, one small panel each, in ``spec``
    (a trace that records its mechanism's own criterion per step); the drawn steps are marked."""
    names = measure_names(trace)
    frame = trace.to_frame()
    t = frame["t"].to_numpy()
    series = [("privacy", frame["privacy"].to_numpy(dtype=float), names["privacy"]),
              ("utility", frame["utility"].to_numpy(dtype=float), names["utility"]),
              ("criterion", trace.criterion(), names["criterion"])]
    inner = spec.subgridspec(1, 3, wspace=0.35)
    out = []
    shown = np.asarray(sorted(set(steps)), dtype=int)
    for k, (key, y, name) in enumerate(series):
        ax = fig.add_subplot(inner[0, k])
        mk = "o" if len(t) <= 60 else None
        inf = np.isinf(y)
        if inf.any():   # an infinite value (a pair of probability 0 has |log-lift| = ∞) on a line above the rest
            fin = y[np.isfinite(y)]
            lo, hi = (float(fin.min()), float(fin.max())) if len(fin) else (0.0, 1.0)
            top = hi + max(0.25 * (hi - lo), 0.1 * abs(hi), 0.5)
            y = np.where(np.isposinf(y), top, np.where(np.isneginf(y), lo - (top - hi), y))
            ax.axhline(top, color="#999999", linewidth=0.6, linestyle=":")
            ax.text(0.01, top, "∞", transform=ax.get_yaxis_transform(), ha="left", va="bottom", fontsize=7, color="#555555")
            ax.plot(t[inf], y[inf], linestyle="none", marker="^", markersize=3.5, color=ROLE["frontier"])
        ax.plot(t, y, color=ROLE["frontier"], marker=mk, markersize=3, linewidth=1.2, gid=f"graphpriv-measure-{key}")
        ok = np.isfinite(y[shown])
        ax.plot(shown[ok], y[shown][ok], linestyle="none", marker="o", markersize=6, markerfacecolor="none",
                markeredgecolor=ROLE["merge"], markeredgewidth=1.0)
        r = trace.returned
        if np.isfinite(y[r]):
            ax.plot([r], [y[r]], marker="*", markersize=9, color=ROLE["frontier"], linestyle="none")
        ax.set_xlabel("step $t$", fontsize=7)
        ax.set_ylabel(name, fontsize=7)
        ax.tick_params(labelsize=6.5)
        from matplotlib.ticker import MaxNLocator

        ax.xaxis.set_major_locator(MaxNLocator(integer=True, nbins=6))
        out.append(ax)
    out[0].set_title("recorded per step (ringed: the panels above; ★ released)", fontsize=7, loc="left")
    return out


#: Largest figure :func:`plot_trace` makes by default, in inches (width, height): one page with its caption.
PAGE_FIGURE = (7.5, 9.0)


def _matrix_panels(trace, jr, steps, ncols, width, panel_height, panel_letters, suptitle):
    """plot_trace's matrix view: one matrix panel (with its anonymity strip) per step, two panels a row, sized to fit
    one page (:data:`PAGE_FIGURE`) whatever the number of public values; the axis caption is written once, under
    the grid (per panel, the captions of neighbouring panels ran into each other)."""
    from .matrix import plot_merge_matrix

    n = len(steps)
    ncols = ncols or (1 if n == 1 else 2)
    if not isinstance(ncols, (int, np.integer)) or ncols < 1:
        raise InputError(f"ncols must be a positive integer, got {ncols!r}")
    nrows = math.ceil(n / ncols)
    text = any(isinstance(x, str) for x in trace.public_labels[:50])   # text labels: taller tick labels
    extra = MEASURE_ROW_HEIGHT if trace.has_criteria else 0.0
    room = PAGE_FIGURE[1] - 0.55 - (0.25 if suptitle else 0.0) - extra   # the caption under the grid, the suptitle
    panel_height = panel_height or min(3.0 + (0.4 if text else 0.0), max(1.9, room / nrows))
    fig, ax0 = new_figure(min(width, PAGE_FIGURE[0]), panel_height * nrows + 0.55 + (0.25 if suptitle else 0.0) + extra,
                          layout="constrained")
    ax0.remove()
    gs = fig.add_gridspec(2 if extra else 1, 1, height_ratios=[panel_height * nrows, extra] if extra else None)
    outer = gs[0].subgridspec(nrows, ncols)
    if extra:
        _measure_row(fig, gs[1], trace, steps)
    chars = 54 if ncols > 1 else 80   # two panels a row: the pairs on one line, joins and status on the next
    collapsed = False
    for k, t in enumerate(steps):
        inner = outer[k // ncols, k % ncols].subgridspec(2, 1, height_ratios=[0.28, 1.0])
        top, ax = fig.add_subplot(inner[0]), fig.add_subplot(inner[1])
        plot_merge_matrix(trace, jr, t, ax, anonymity=top, title=step_title(trace, t, max_chars=chars, lines=2 if ncols > 1 else 1))
        collapsed = collapsed or bool(ax.graphpriv_layout.context)
        ax.set_xlabel("")
        if k % ncols:
            ax.set_ylabel("")
            top.set_ylabel("")
        if panel_letters:
            top.set_title(f"({chr(97 + k) if k < 26 else k + 1}) " + top.get_title(), fontsize=7.5)
    key = (r"public $X$ (by component, cluster, value); dark cell: $(s,x)\in[\![S,X]\!]$, light: added by $\hat X$; "
           r"bars above: $|[\![S|\hat x]\!]|$")
    if collapsed:
        key += "\ngrey bars [count: range]: values away from the merges, collapsed (darker = more of their columns)"
    fig.supxlabel(key, fontsize=7)
    if suptitle:
        fig.suptitle(suptitle, fontsize=9)
    return fig


def _default_steps(trace, max_panels: int = MAX_DEFAULT_PANELS) -> list[int]:
    last = trace.returned
    if len(trace) - 1 > last and not trace.step_accepted[-1]:
        last_shown = last
    else:
        last_shown = len(trace) - 1
    steps = list(range(1, last_shown + 1)) or [0]
    if len(steps) > max_panels:
        idx = np.unique(np.linspace(0, len(steps) - 1, max_panels).round().astype(int))
        steps = [steps[i] for i in idx]
    return steps


@styled
def plot_trace(trace, jr: JointRange, steps: Sequence[int] | None = None, ncols: int | None = None, *,
               layout: str | Mapping = "circle", labels: bool | str | None = "auto", panel_letters: bool = True,
               width: float = PAGE_WIDTH, panel_height: float | None = None, suptitle: str | None = None, seed: int = 0,
               view: str = "auto"):
    """A grid of merge-step panels (paper 003, Figs. 4 and 5); returns the Figure.

    Parameters
    ----------
    trace : MergeTrace
    jr : JointRange or JointDistribution
        The data the mechanism ran on (a distribution gives its support).
    steps : sequence of int, optional
        Steps to draw; default: every accepted step 1..returned (up to :data:`MAX_DEFAULT_PANELS`,
        evenly sampled beyond that), or ``[0]`` for a trace without merges.
    ncols : int, optional
        Panels per row (default ``min(4, len(steps))``).
    panel_letters : bool
        Prefix titles with (a), (b), ... as in the paper's sub-figures.
    width, panel_height : float
        Figure width (inches; default a full two-column page) and height of one row.
    view : {"auto", "graph", "matrix"}
        "graph": node-link panels of G_X̂(t) on one layout for the whole trace; "matrix": the matrix view
        of [[S, X̂(t)]] per step (:func:`graphpriv.viz.plot_merge_matrix`), legible at any size; "auto"
        picks "graph" up to :data:`graphpriv.viz.overview.NODE_LINK_MAX` public values, else "matrix" (at most 6
        panels by default, two a row, on one page: at most :data:`PAGE_FIGURE` inches).

    Returns
    -------
    matplotlib Figure
        With one axes per step, all drawn on the same base layout. A trace that records its mechanism's
        own criterion per step (the privacy watchdog, (ε, δ) log-lift partitioning, ...) gets a row below
        the panels with its recorded privacy, utility and main criterion against t, each named by the
        trace (:func:`measure_names`). When the default steps are a sample of the
        trace's steps, the suptitle says which are shown ("steps 1, 7, 13 of 1–32 shown").

    Examples
    --------
    >>> import graphpriv as gp
    >>> jr, _ = gp.datasets.paper_example()
    >>> fig = gp.viz.plot_trace(gp.agglomerate(jr, "I*", 0.3).trace, jr)     # Fig. 4: t = 1..4
    >>> len(fig.axes)
    4
    """
    from .._guards import check_plot_range
    from .overview import NODE_LINK_MAX

    trace, jr = _check_pair(trace, jr)
    check_plot_range("trace", jr)
    if view not in ("auto", "graph", "matrix"):
        raise InputError(f"view={view!r} must be 'auto', 'graph' or 'matrix'")
    if view == "auto":
        view = "graph" if trace.n_public <= NODE_LINK_MAX else "matrix"
    note = None
    if steps is None:
        steps = _default_steps(trace, 6 if view == "matrix" else MAX_DEFAULT_PANELS)
        every = _default_steps(trace, 10**9)
        if len(steps) < len(every):   # sampled: say which steps are shown
            note = f"steps {', '.join(map(str, steps))} of {every[0]}–{every[-1]} shown"
    steps = [trace._check_t(s) for s in steps]
    if not steps:
        raise InputError("steps is empty; give at least one step index")
    if note:
        suptitle = f"{suptitle}\n({note})" if suptitle else note
    if view == "matrix":
        return _matrix_panels(trace, jr, steps, ncols, width, panel_height, panel_letters, suptitle)
    n = len(steps)
    if ncols is None:
        ncols = min(4, n)
    if not isinstance(ncols, (int, np.integer)) or ncols < 1:
        raise InputError(f"ncols must be a positive integer, got {ncols!r}")
    nrows = math.ceil(n / ncols)
    base = graph_layout(jr, layout, seed=seed)
    pts = np.array(list(base.values()))
    aspect = (np.ptp(pts[:, 1]) + 1.2) / (np.ptp(pts[:, 0]) + 1.2) if len(pts) > 1 else 1.0
    if panel_height is None:
        panel_height = float(np.clip(width / ncols * aspect, 1.0, 3.0)) + 0.45
    extra = MEASURE_ROW_HEIGHT if trace.has_criteria else 0.0
    if extra:   # the recorded privacy, utility and criterion below the panels
        fig, ax0 = new_figure(width, panel_height * nrows + extra, layout="constrained")
        ax0.remove()
        gs = fig.add_gridspec(2, 1, height_ratios=[panel_height * nrows, extra])
        grid = gs[0].subgridspec(nrows, ncols)
        axes = np.array([[fig.add_subplot(grid[i, j]) for j in range(ncols)] for i in range(nrows)])
        _measure_row(fig, gs[1], trace, steps)
    else:
        fig, axes = new_figure(width, panel_height * nrows, nrows, ncols, squeeze=False, layout="constrained")
    flat = axes.ravel()
    for k, (ax, t) in enumerate(zip(flat, steps)):
        plot_merge_step(trace, t, jr, ax, layout=base, labels=labels)
        if panel_letters:
            ax.set_title(f"({chr(97 + k) if k < 26 else k + 1}) " + ax.get_title(), fontsize=9 if ncols < 4 else 8)
    for ax in flat[n:]:
        ax.set_visible(False)
        ax.remove()
    if suptitle:
        fig.suptitle(suptitle)
    return fig


def _trace_label(trace) -> str:
    lam = "" if trace.lam != trace.lam else rf", $\lambda={trace.lam:g}$"
    return f"{trace.objective}, {trace.utility}{lam}"


@styled
def plot_convergence(trace_or_traces, ax=None, *, labels: Sequence[str] | None = None, show_rejected: bool = True,
                     mark_returned: bool = True, colors: Sequence | None = None, title: str | None = None,
                     quantity: str = "L"):
    """L(t) against the iteration index t for one or several merge traces (paper 003, Figs. 3, 6 and 8).

    Parameters
    ----------
    trace_or_traces : MergeTrace or sequence of MergeTrace
    ax : matplotlib Axes, optional
    labels : sequence of str, optional
        Legend entries (default "objective, utility, λ").
    show_rejected : bool
        Draw a final tentative step that the stopping rule rejected (ΔL >= 0) as a hollow marker joined by a
        dotted line.
    mark_returned : bool
        Ring the step whose quantisation is returned.
    colors : sequence of colours, optional
        Default: ``ROLE["frontier"]``, ``ROLE["frontier2"]``, then :data:`PALETTE`.
    quantity : {"L", "privacy", "utility", "I*", "n_components", "n_clusters"}
        What to plot against t (default the Lagrangian L(t)); "I*" is log2 |P(t)|.

    Returns
    -------
    matplotlib Axes
        One solid line per trace (accepted steps).

    Examples
    --------
    >>> import graphpriv as gp
    >>> jr, values = gp.datasets.paper_example()
    >>> t1 = gp.agglomerate(jr, "L0", 0.3).trace                       # paper 003, Fig. 3 (U1)
    >>> t2 = gp.agglomerate(jr, "L0", 2.5, utility="U2", values=values).trace
    >>> ax = gp.viz.plot_convergence([t1, t2], labels=["$U_1$", "$U_2$"])
    >>> [line.get_label() for line in ax.get_lines() if not line.get_label().startswith("_")]
    ['$U_1$', '$U_2$']

    Notes
    -----
    Markers are dropped on traces longer than 40 steps.
    """
    from matplotlib.ticker import MaxNLocator

    from ..mechanisms.trace import MergeTrace

    traces = [trace_or_traces] if isinstance(trace_or_traces, MergeTrace) else list(trace_or_traces)
    if not traces:
        raise InputError("no traces to plot; pass a MergeTrace or a non-empty list of them")
    for tr in traces:
        _check_trace(tr)
    if labels is not None and len(labels) != len(traces):
        raise InputError(f"labels has {len(labels)} entries for {len(traces)} traces; give one label per trace")
    ylabels = {"L": r"$\mathcal{L}(t)$", "privacy": "privacy leakage (bits)", "utility": "utility $U_i(X;\\hat X^{(t)})$",
               "I*": r"$I^*(S;\hat X^{(t)})$ (bits)", "n_components": r"$|\mathcal{P}^{(t)}|$", "n_clusters": r"$|\mathcal{Q}^{(t)}|$"}
    if quantity not in ylabels:
        raise InputError(f"quantity={quantity!r} must be one of {sorted(ylabels)}")
    if colors is None:
        colors = [ROLE["frontier"], ROLE["frontier2"]] + [c for c in PALETTE if c not in (ROLE["frontier"], ROLE["frontier2"])]
    markers = ["o", "s", "^", "D", "v", "P"]
    ax = axes_or_new(ax, COLUMN_WIDTH, COLUMN_WIDTH * 0.7)
    for k, tr in enumerate(traces):
        col = colors[k % len(colors)]
        acc = np.asarray(tr.step_accepted, dtype=bool)
        t = np.arange(len(tr))
        frame = tr.to_frame()
        if quantity == "I*":
            L = np.log2(frame["n_components"].to_numpy(dtype=float))
        else:
            L = frame[quantity].to_numpy(dtype=float)
        mk = markers[k % len(markers)] if len(tr) <= 40 else None
        ok = t[acc]
        ax.plot(ok, L[acc], color=col, marker=mk, label=labels[k] if labels else _trace_label(tr), zorder=3)
        if show_rejected and (~acc).any():
            for r in t[~acc]:
                prev = ok[ok < r].max() if (ok < r).any() else None
                if prev is not None:
                    ax.plot([prev, r], [L[prev], L[r]], color=col, linestyle=":", linewidth=1.0, zorder=2)
                ax.plot([r], [L[r]], marker=mk or "o", markerfacecolor="white", markeredgecolor=col, color=col,
                        linestyle="none", zorder=3)
        if mark_returned:
            r = tr.returned
            ax.plot([r], [L[r]], marker="o", markersize=10, markerfacecolor="none", markeredgecolor=col,
                    markeredgewidth=1.0, linestyle="none", zorder=4)
    ax.xaxis.set_major_locator(MaxNLocator(integer=True))
    ax.set_xlabel("iteration index $t$")
    if quantity in ("L", "utility") and all(tr.utility == "U1" for tr in traces):
        ax.set_ylabel(ylabels[quantity] + " (bits)")      # L0, I* and U1 are all in bits
    else:
        ax.set_ylabel(ylabels[quantity])
    handles, labs = ax.get_legend_handles_labels()
    if mark_returned:
        from matplotlib.lines import Line2D

        handles.append(Line2D([], [], marker="o", markersize=8, markerfacecolor="none", markeredgecolor="#555555", linestyle="none"))
        labs.append("returned")
    if show_rejected and any(not a for tr in traces for a in tr.step_accepted):
        from matplotlib.lines import Line2D

        handles.append(Line2D([], [], marker="o", markerfacecolor="white", markeredgecolor="#555555", linestyle=":", color="#555555"))
        labs.append(r"rejected ($\Delta\mathcal{L}\geq 0$)")
    ax.legend(handles, labs, frameon=False)
    if title:
        ax.set_title(title)
    return ax
