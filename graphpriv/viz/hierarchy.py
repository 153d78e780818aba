"""The merge hierarchy of a trace as a dendrogram, at any size.

The tree is :meth:`graphpriv.MergeTrace.to_linkage`, drawn with its children ordered so the smaller
value is on the left (:func:`graphpriv.viz.labels.hierarchy_linkage`; the matrix view beside it uses the same
leaf order, :func:`graphpriv.viz.labels.hierarchy_order`): a link at height t for every pair merged at step t
(Ding & Farokhi, *Developing Non-Stochastic Privacy-Preserving Policies Using Agglomerative
Clustering*, Algorithms 1 and 2). The coordinates come from :func:`graphpriv.viz.tree_layout.dendrogram_coordinates`
(iterative: scipy's ``dendrogram`` recurses once per level and fails on the chain of ~1,000 joins that
completes the tree of a mechanism stopped early), the links are drawn as one collection per colour, and the
joins at height len(trace) that only complete the tree are collapsed into one thin bracket over the clusters
left at the end. Past :data:`graphpriv.viz.matrix.FOCUS_BUDGET` leaves the columns follow a focus + context layout
(:func:`graphpriv.viz.matrix.focus_layout`): the clusters merged at t in full detail, subtrees inside a collapsed
unit of columns contracted to one stem. A dashed line cuts the tree at step t: the subtrees under it are the
clusters of Q(t).
"""

from __future__ import annotations

import numpy as np

from .graphs import format_label, styled
from .labels import elide, hierarchy_linkage
from .merges import _check_trace, status_color, step_status, step_title
from .matrix import FOCUS_BUDGET
from .style import PAGE_WIDTH, ROLE, axes_or_new, component_color, contained

__all__ = ["plot_merge_hierarchy"]

#: Colour of the joins that only complete the tree (not merges the mechanism made).
COMPLETING = "#c8c8c8"
#: Colour of the links of a rejected tentative step.
REJECTED = "#9a9a9a"


@styled
@contained
def plot_merge_hierarchy(trace, t: int | None = None, ax=None, *, labels: bool | str = "auto",
                         title: str | bool | None = True, legend: bool = True, align=None):
    """Dendrogram of a merge trace with the cut at step t.

    Links merged at t are drawn in ``ROLE["merge"]``; other links take the colour of the original
    component of G_X their leaves come from (dark grey once a link spans several components), both
    explained in the legend; the joins that only complete the tree are collapsed into one faded bracket
    (gid ``"graphpriv-completing"``); leaves sit on a strip coloured by original component. Leaves
    are the public values (labelled when there are at most 40, else only the values merged at t), in
    :func:`graphpriv.viz.labels.hierarchy_order` (children ordered by their smallest value), the column order of
    ``plot_merge_matrix(..., order="hierarchy")``.

    Parameters
    ----------
    trace : MergeTrace
    t : int, optional
        Step of the cut (default: the returned step).
    ax : matplotlib Axes, optional
    labels : bool or "auto"
        Leaf labels.
    title : str or bool
        ``True``: :func:`graphpriv.viz.merges.step_title`.
    legend : bool
        Explain the colours.
    align : MatrixCells, optional
        The cells of a matrix view drawn with ``order="hierarchy"`` (:func:`graphpriv.viz.matrix.matrix_cells`):
        each leaf is then drawn under its matrix column (gaps between components included), so the two
        panels line up when their axes have the same width.

    Returns
    -------
    matplotlib Axes
        The drawn links as a dict like scipy's dendrogram's (``leaves``, ``icoord``, ``dcoord``, ``color_list``)
        are stored as ``ax.graphpriv_dendrogram``, the legend entries as ``ax.graphpriv_legend``.

    Examples
    --------
    >>> import graphpriv as gp
    >>> jr, _ = gp.datasets.paper_example()
    >>> ax = gp.viz.plot_merge_hierarchy(gp.agglomerate(jr, "I*", 0.3).trace, 1)
    >>> [tick.get_text() for tick in ax.get_xticklabels()][:3]
    ['$x_{1}$', '$x_{3}$', '$x_{7}$']
    """
    from matplotlib.collections import LineCollection, PolyCollection
    from matplotlib.legend_handler import HandlerTuple
    from matplotlib.lines import Line2D

    from .tree_layout import dendrogram_coordinates

    trace = _check_trace(trace)
    t = trace._check_t(t)
    n = trace.n_public
    T = len(trace)
    ax = axes_or_new(ax, PAGE_WIDTH, 2.4)
    if n < 2:
        ax.text(0.5, 0.5, "one public value: no merges", ha="center", va="center", transform=ax.transAxes)
        return ax
    Z = hierarchy_linkage(trace)
    heights = Z[:, 2]
    colour = link_colour_func(trace, t, Z)
    comp0 = np.asarray(trace.components0, dtype=np.int64)
    accepted = trace.step_accepted
    coords = dendrogram_coordinates(Z)   # iterative: any depth (scipy's dendrogram recurses once per level)
    leaves = coords.leaves
    width = n
    slot = np.arange(n, dtype=float)  # drawing column of every leaf, left to right
    cell_w = np.ones(n)               # and its width
    if align is None and n > FOCUS_BUDGET:   # focus + context on its own: the merged clusters in full detail
        align = _own_layout(trace, t, leaves)
    if align is not None:
        if not np.array_equal(np.asarray(align.bands.order), np.asarray(leaves)):
            from ..errors import InputError

            raise InputError("align must be the matrix cells of this trace drawn with order='hierarchy' "
                             "(gp.viz.matrix.matrix_cells(trace, jr, t, order='hierarchy'))")
        slot, width = np.asarray(align.xpos, dtype=float), align.width
        if hasattr(align, "left"):
            cell_w = np.asarray(align.right) - np.asarray(align.left)
    # every node's x on the drawing columns (leaf i of the order at 5 + 10 slot[i]), then the links
    x = np.empty(n + len(Z))
    x[leaves] = 5 + 10 * slot
    left, right = Z[:, 0].astype(np.int64), Z[:, 1].astype(np.int64)
    for i in range(len(Z)):
        x[n + i] = 0.5 * (x[left[i]] + x[right[i]])
    node_h = np.concatenate([np.zeros(n), heights])
    real = np.flatnonzero(heights < T)            # links the mechanism made; the others only complete the tree
    cols = [colour(n + int(i)) for i in real]
    ic = np.column_stack([x[left], x[left], x[right], x[right]])
    dc = np.column_stack([node_h[left], heights, heights, node_h[right]])
    segs = np.stack([ic, dc], axis=-1)
    inside = _inside_one_unit(align, leaves, left, right, n)
    by_colour: dict[str, list[int]] = {}
    stems: list[int] = []
    for i, c in zip(real.tolist(), cols):
        if inside[n + i] and c != ROLE["merge"]:   # a subtree within one collapsed unit: drawn as one stem
            continue
        by_colour.setdefault(c, []).append(i)
        stems.extend(k for k in (int(left[i]), int(right[i])) if k >= n and inside[k] and node_h[k] > 0)
    roots = _final_roots(Z, n, T)
    stems.extend(int(r) for r in roots if r >= n and inside[r])   # contracted subtrees left at the end
    if stems:   # the contracted subtrees: a stem from the leaves to the height of their top join
        ax.add_collection(LineCollection([[(x[k], 0.0), (x[k], node_h[k])] for k in stems], colors="#8c8c8c",
                                         linewidths=0.6, zorder=1.5, gid="graphpriv-contracted"), autolim=False)
    for c, rows in by_colour.items():   # one collection per colour role, not one artist per link
        merged = c == ROLE["merge"]
        ax.add_collection(LineCollection(segs[rows], colors=c, linewidths=1.6 if merged else 0.8, zorder=3 if merged else 2,
                                         gid="graphpriv-links-merged" if merged else "graphpriv-links"), autolim=False)
    ax.graphpriv_dendrogram = {"leaves": leaves.tolist(), "icoord": ic[real].tolist(), "dcoord": dc[real].tolist(),
                               "color_list": cols}
    # the joins that only complete the tree, collapsed into one thin bracket over the clusters left at the end
    top = T - 0.5 + 0.3
    if len(roots) > 1:
        rx = x[roots]
        bracket = [[(float(rx.min()), top), (float(rx.max()), top)]]
        bracket += [[(float(x[r]), float(node_h[r])), (float(x[r]), top)] for r in roots if node_h[r] > 0]
        ax.add_collection(LineCollection(bracket, colors=COMPLETING, linewidths=0.8, zorder=1, gid="graphpriv-completing"),
                          autolim=False)
    strip = 0.045 * (T + 0.3)
    # the leaves' component strip, one collection (one patch per leaf costs ~1 ms each at 150 leaves)
    x0 = 10 * slot + 5 - 5 * cell_w
    x1 = x0 + 10 * cell_w
    y0, y1 = np.full(n, -strip), np.full(n, -strip + strip * 0.85)
    verts = np.stack([np.column_stack([x0, y0]), np.column_stack([x0, y1]), np.column_stack([x1, y1]),
                      np.column_stack([x1, y0])], axis=1)
    strip_cells = PolyCollection(verts, facecolors=[component_color(int(c)) for c in comp0[leaves]], edgecolors="none",
                                 linewidths=0, clip_on=False, gid="graphpriv-component-strip")
    ax.add_collection(strip_cells, autolim=False)
    ax.set_ylim(-strip, top + 0.25)
    ax.set_xlim(0, 10 * width)
    _number_pairs(ax, trace, Z, leaves, t, slot, width)
    on = (n <= 40) if labels == "auto" else bool(labels)
    labs = trace.public_labels
    if on:
        ax.set_xticks(5 + 10 * slot)
        ax.set_xticklabels([format_label(labs[j]) for j in leaves], rotation=90 if n > 12 else 0, fontsize=7 if n <= 20 else 5.5)
    else:
        from .merges import merge_events

        from .labels import cluster_label, number_format

        fmt = number_format(labs)   # the matrix's number format: one precision on the public axis
        where = {j: i for i, j in enumerate(leaves)}
        code = {x: i for i, x in enumerate(labs)}
        events = merge_events(trace, t)
        if 0 < len(events) <= 3:  # one label per merged cluster, under the middle of its leaves (elided; full text as url)
            ticks = []
            for e in events:
                members = e.a | e.b
                ticks.append((float(np.mean([5 + 10 * slot[where[code[x]]] for x in members])),
                               elide(cluster_label(members, labs, max_members=3, fmt=fmt), 22),
                               cluster_label(members, labs, max_members=3, fmt=fmt)))
            ticks.sort()
            ax.set_xticks([p for p, _, _ in ticks])
            ax.set_xticklabels([txt for _, txt, _ in ticks], rotation=0, fontsize=6, color=ROLE["merge"])
            for (_, _, full), lab in zip(ticks, ax.get_xticklabels()):
                lab.set_url(full)
        else:
            ax.set_xticks([])
        ax.set_xlabel(f"{n} public values (leaves), coloured by their component of $G_X$", fontsize=7)
    ax.tick_params(axis="x", length=0, pad=2 + 0.0)
    ax.set_ylabel("merge step $t$")
    from matplotlib.ticker import MaxNLocator

    ax.yaxis.set_major_locator(MaxNLocator(integer=True, nbins=6))
    ax.spines["bottom"].set_visible(False)
    n_q = trace.step_n_clusters[t]
    ax.axhline(t + 0.5, color=ROLE["merge"], linestyle="--", linewidth=0.9, zorder=5)
    cut_text = f"cut at $t={t}$: {n_q} cluster{'s' if n_q != 1 else ''}"
    r = trace.returned
    if t != r:
        ax.axhline(r + 0.5, color=ROLE["frontier"], linestyle=":", linewidth=0.9, zorder=5)
    if not legend:  # say it on the lines
        ax.text(10 * width, t + 0.5, " " + cut_text, ha="right", va="bottom", fontsize=6.5, color=ROLE["merge"], zorder=6,
                bbox=dict(facecolor="white", edgecolor="none", pad=0.5, alpha=0.8))
        if t != r:
            ax.text(0, r + 0.5, f" released: $t={r}$", ha="left", va="bottom", fontsize=6.5, color=ROLE["frontier"], zorder=6)
    entries = [(Line2D([], [], color=ROLE["merge"], linewidth=1.6), f"merged at $t={t}$")] if ROLE["merge"] in by_colour else []
    entries.append((Line2D([], [], color=ROLE["merge"], linewidth=0.9, linestyle="--"), cut_text))
    if t != r:
        entries.append((Line2D([], [], color=ROLE["frontier"], linewidth=0.9, linestyle=":"), f"released: $t={r}$"))
    inside = [c for c in dict.fromkeys(cols) if c not in (ROLE["merge"], REJECTED, "#404040")]
    if inside:   # the component colours of the links, explained once
        entries.append((tuple(Line2D([], [], color=c, linewidth=1.2) for c in inside[:4]),
                        "merge inside one component of $G_X$"))
    if "#404040" in by_colour:
        entries.append((Line2D([], [], color="#404040", linewidth=0.8), "merge across components"))
    if not all(accepted):
        entries.append((Line2D([], [], color=REJECTED), r"rejected step ($\Delta\mathcal{L}\geq 0$)"))
    if len(roots) > 1:
        entries.append((Line2D([], [], color=COMPLETING), f"{len(roots)} clusters left at the end"))
    ax.graphpriv_legend = entries
    if legend:
        # beside the tree, never over its top links (the figure of a standalone call grows to hold it)
        leg = ax.legend(*zip(*entries), handler_map={tuple: HandlerTuple(ndivide=None, pad=0)}, loc="upper left",
                        bbox_to_anchor=(1.01, 1.0), fontsize=6, frameon=True, framealpha=0.92, borderpad=0.4)
        leg.get_frame().set_edgecolor("#bbbbbb")
        leg.get_frame().set_linewidth(0.5)
        leg.set_zorder(7)
    if title is True:
        title = step_title(trace, t)
    if title:
        ax.set_title(title, fontsize=8, color=status_color(trace, t))
    ax.graphpriv_status = step_status(trace, t)
    return ax


def _inside_one_unit(align, leaves, left, right, n: int) -> np.ndarray:
    """For every node (leaves, then linkage rows): True when all its leaves lie in one collapsed drawing unit of
    a focus + context layout (several columns share it), so its links are narrower than a unit and are not drawn."""
    m = len(left)
    if align is None or not getattr(align, "collapsed", False):
        return np.zeros(n + m, dtype=bool)
    unit = np.asarray(align.unit)
    sizes = np.diff(np.asarray(align.unit_start))
    u = np.empty(n + m, dtype=np.int64)
    u[np.asarray(leaves)] = unit
    same = np.zeros(n + m, dtype=bool)
    same[:n] = True
    for i in range(m):
        a, b = left[i], right[i]
        same[n + i] = same[a] and same[b] and u[a] == u[b]
        u[n + i] = u[a]
    out = same & (sizes[u] > 1)
    out[:n] = False
    return out


def _own_layout(trace, t: int, leaves):
    """:func:`graphpriv.viz.matrix.focus_layout` of the leaves in hierarchy order, focused on the clusters merged at t."""
    from .matrix import focus_layout, matrix_bands

    bands = matrix_bands(trace, None, t, order="hierarchy")
    code = {x: i for i, x in enumerate(trace.public_labels)}
    band_of = np.empty(len(bands.order), dtype=np.int64)
    for k, (a, c) in enumerate(bands.cluster_bounds):
        band_of[bands.order[a:c]] = k
    focus = {int(band_of[code[next(iter(a | b))]]) for a, b in trace.steps[t].merged} if t > 0 else set()
    from .matrix import _ever_merged

    return focus_layout(bands, focus, also=_ever_merged(trace)[bands.order])


def _final_roots(Z: np.ndarray, n: int, T: int) -> np.ndarray:
    """Nodes (leaf codes or ``n + row``) of the clusters left when the trace ends: the children of the joins
    at height ``>= T`` that only complete the tree (all nodes: the root, when the mechanism merged to one cluster)."""
    done = Z[:, 2] >= T
    if not done.any():
        return np.array([n + len(Z) - 1], dtype=np.int64)
    kids = Z[done, :2].astype(np.int64).ravel()
    keep = np.array([k < n or not done[k - n] for k in kids.tolist()], dtype=bool)
    return np.sort(kids[keep])


def _number_pairs(ax, trace, Z, leaves, t: int, slot, width: int) -> None:
    """Badges with the pair numbers (merge order) of the clusters merged at t, when the step merged several
    pairs: one badge per cluster, on its top link, with the matrix view's text (``pair_badge_text``: ``"1,14"`` for
    a cluster two pairs of the sweep formed); as many as fit side by side, the
    clusters whose pairs joined components first (gid ``"graphpriv-pair-number"``)."""
    from .matrix import BADGE_MAX, _axes_points, _pick_ticks, pair_badge_text
    from .merges import merge_events

    events = merge_events(trace, t)
    rows = np.flatnonzero(Z[:, 2] == t)
    if t == 0 or len(events) < 2 or len(rows) != len(events):
        return
    n = len(leaves)
    x = np.empty(n + len(Z))
    x[np.asarray(leaves)] = 5 + 10 * slot
    first = np.empty(n + len(Z), dtype=np.int64)   # a leaf of every node
    first[:n] = np.arange(n)
    kids = Z[:, :2].astype(np.int64)
    for i, (a, b) in enumerate(kids):
        x[n + i] = (x[a] + x[b]) / 2
        first[n + i] = first[a]
    ids = trace.cluster_ids(t)
    code = {lab: i for i, lab in enumerate(trace.public_labels)}
    numbers: dict[int, list[int]] = {}
    joined: dict[int, bool] = {}
    for e in events:
        c = int(ids[code[next(iter(e.a))]])
        numbers.setdefault(c, []).append(e.number)
        joined[c] = joined.get(c, False) or bool(e.joined)
    # the top link of every cluster merged at t: its row is at height t and its parent's is not
    parent_h = np.full(n + len(Z), np.inf)
    parent_h[kids[:, 0]] = Z[:, 2]
    parent_h[kids[:, 1]] = Z[:, 2]
    tops = [int(r) for r in rows if parent_h[n + r] != t]
    clusters = [int(ids[first[n + r]]) for r in tops]
    centres = [float(x[n + r]) for r in tops]
    texts = [pair_badge_text(numbers.get(c, [])) for c in clusters]
    rank = [(not joined.get(c, False), min(numbers.get(c, [10**9]))) for c in clusters]
    w_pts, _ = _axes_points(ax)
    order = sorted(range(len(tops)), key=lambda i: rank[i])
    pos = {i: k for k, i in enumerate(order)}
    keep = _pick_ticks(centres, texts, None, 14.0, w_pts / (10 * width), rank=[pos[i] for i in range(len(tops))])
    # at most as many as the matrix view draws, the same clusters first (the matrix counts the others)
    keep = sorted(sorted(keep, key=lambda i: pos[i])[:BADGE_MAX], key=lambda i: centres[i])
    for i in keep:
        ax.annotate(texts[i], (centres[i], t), xytext=(0, 2), textcoords="offset points", ha="center",
                    va="bottom", fontsize=5.5, color="white", zorder=8, gid="graphpriv-pair-number",
                    bbox=dict(boxstyle="round,pad=0.12", facecolor=ROLE["merge"], edgecolor="none"))


def link_colour_func(trace, t: int, Z: np.ndarray | None = None):
    """Colour of every link of the merge hierarchy at step t, as ``link_color_func`` for
    :func:`scipy.cluster.hierarchy.dendrogram`: ``ROLE["merge"]`` for the pairs merged at t, grey for a
    rejected step, :data:`COMPLETING` for the joins that only complete the tree, else the colour of the
    original component of G_X the link's leaves come from (dark grey once it spans several).

    Examples
    --------
    >>> import graphpriv as gp
    >>> jr, _ = gp.datasets.paper_example()
    >>> tr = gp.agglomerate(jr, "I*", 0.3).trace
    >>> f = gp.viz.hierarchy.link_colour_func(tr, 1)
    >>> f(tr.n_public) == gp.viz.style.ROLE["merge"]        # the first link is step 1's merge
    True
    """
    Z = trace.to_linkage() if Z is None else Z
    n = trace.n_public
    T = len(trace)
    heights = Z[:, 2]
    comp0 = np.asarray(trace.components0, dtype=np.int64)
    node_comp = np.concatenate([comp0, np.full(n - 1, -1, dtype=np.int64)])
    for i, (a, b) in enumerate(Z[:, :2].astype(np.int64)):
        node_comp[n + i] = node_comp[a] if node_comp[a] == node_comp[b] else -1
    accepted = trace.step_accepted

    def colour(k: int) -> str:
        h = int(heights[k - n])
        if h >= T:
            return COMPLETING
        if h == t:
            return ROLE["merge"]
        if not accepted[h]:
            return REJECTED
        c = int(node_comp[k])
        return component_color(c) if c >= 0 else "#404040"

    return colour


def _rgb(c):
    from matplotlib.colors import to_rgb

    return np.asarray(to_rgb(c))
