"""The matrix view of a quantised joint range [[S, X̂(t)]], legible at any size.

Columns are the original public values, ordered by component of G_X̂(t), then by cluster of Q(t),
then by value (:func:`column_order`), so every cluster is a contiguous band of columns and every
component a contiguous block; rows are the sensitive values. Drawn beside the merge hierarchy, the
columns take the order of its leaves instead (``order="hierarchy"``,
:func:`graphpriv.viz.hierarchy_order`): one order for every step, each cluster still a contiguous band,
so a value sits at the same place left to right in the matrix and under the tree. This is the picture of paper 003
(Ding & Farokhi, *Developing Non-Stochastic Privacy-Preserving Policies Using Agglomerative
Clustering*, Fig. 1) with the quantisation drawn on it.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from ..errors import InputTypeError
from ..ranges import JointRange
from .graphs import _tint, styled
from .labels import cluster_label, hierarchy_order, label_key
from .merges import merge_events, status_color, step_title
from .style import PAGE_WIDTH, ROLE, axes_or_new, component_color

__all__ = ["column_order", "matrix_bands", "MatrixBands", "matrix_cells", "MatrixCells", "plot_merge_matrix"]


@dataclass(frozen=True)
class MatrixBands:
    """Column layout of the matrix view at step t (see :func:`matrix_bands`).

    Attributes
    ----------
    order : numpy.ndarray of int
        Public codes in display order (column j shows public value ``order[j]``).
    cluster : numpy.ndarray of int
        Cluster index (smallest member code) of each displayed column.
    component : numpy.ndarray of int
        Component id (smallest public code of the component of G_X̂(t)) of each displayed column.
    cluster_bounds : list of (int, int)
        Half-open column ranges [start, stop) of the clusters, left to right.
    component_bounds : list of (int, int)
        Half-open column ranges of the components, left to right.
    """

    order: np.ndarray
    cluster: np.ndarray
    component: np.ndarray
    cluster_bounds: list
    component_bounds: list


def _runs(ids: np.ndarray) -> list[tuple[int, int]]:
    if len(ids) == 0:
        return []
    cuts = (np.flatnonzero(ids[1:] != ids[:-1]) + 1).tolist()
    bounds = [0, *cuts, len(ids)]
    return list(zip(bounds[:-1], bounds[1:]))


def _check_args(trace, jr, t):
    from ..mechanisms.trace import MergeTrace

    if not isinstance(trace, MergeTrace):
        raise InputTypeError(f"trace must be a graphpriv MergeTrace (e.g. gp.agglomerate(...).trace), got {type(trace).__name__}")
    if isinstance(jr, (int, np.integer)) and not isinstance(jr, bool) and t is None:
        jr, t = None, jr  # column_order(trace, t)
    if jr is not None:
        if not isinstance(jr, JointRange):
            raise InputTypeError(f"jr must be a graphpriv JointRange or None, got {type(jr).__name__}")
        from ..errors import InputError

        if tuple(jr.public_labels.tolist()) != tuple(trace.public_labels):
            raise InputError("jr does not have the public labels this trace was recorded on; pass the joint range the mechanism ran on")
    return trace._check_t(t)


#: Column orders of the matrix view.
ORDERS = ("components", "hierarchy")


def _check_order(order: str) -> str:
    if order not in ORDERS:
        from ..errors import InputError

        raise InputError(f"order={order!r} must be 'components' (by component, cluster, value) or 'hierarchy' "
                         "(the leaves of the merge hierarchy, as drawn beside it)")
    return order


def matrix_bands(trace, jr: JointRange | None = None, t: int | None = None, *, order: str = "components") -> MatrixBands:
    """Column order and band boundaries of the matrix view of [[S, X̂(t)]].

    With ``order="components"`` components of G_X̂(t) are ordered by their smallest value, the clusters
    inside a component by their smallest value, and the values inside a cluster in increasing order
    (numeric order for numbers, natural order for text such as ``x2`` < ``x10``; see
    :func:`graphpriv.viz.labels.label_key`). With ``order="hierarchy"`` the columns are the leaves of the
    merge hierarchy left to right (:func:`graphpriv.viz.hierarchy_order`), the same at every t: every
    cluster is still a contiguous band, and a component whose clusters the tree does not keep together
    is listed as several runs in ``component_bounds``.

    Parameters
    ----------
    trace : MergeTrace
    jr : JointRange, optional
        The joint range the trace was recorded on (only checked for matching labels).
    t : int, optional
        Step (default: the returned step).
    order : {"components", "hierarchy"}
        Column order (see above).

    Returns
    -------
    MatrixBands

    Examples
    --------
    >>> import graphpriv as gp
    >>> jr, _ = gp.datasets.paper_example()
    >>> tr = gp.agglomerate(jr, "I*", 0.3).trace
    >>> b = gp.viz.matrix_bands(tr, jr, 2)
    >>> [tr.public_labels[c] for c in b.order]
    ['x1', 'x3', 'x2', 'x5', 'x4', 'x6', 'x7']
    >>> b.cluster_bounds
    [(0, 2), (2, 4), (4, 5), (5, 6), (6, 7)]
    >>> [tr.public_labels[c] for c in gp.viz.matrix_bands(tr, jr, 2, order="hierarchy").order]
    ['x1', 'x3', 'x7', 'x2', 'x5', 'x4', 'x6']
    """
    t = _check_args(trace, jr, t)
    _check_order(order)
    labels = trace.public_labels
    n = len(labels)
    cl = trace.cluster_ids(t)
    comp = trace.component_ids(t)
    if order == "hierarchy":
        o = hierarchy_order(trace)
        return MatrixBands(order=o, cluster=cl[o], component=comp[o], cluster_bounds=_runs(cl[o]),
                           component_bounds=_runs(comp[o]))
    rank = np.empty(n, dtype=np.int64)
    rank[sorted(range(n), key=lambda i: label_key(labels[i]))] = np.arange(n)
    # smallest value rank of each cluster and of each component
    cl_min = np.full(n, n, dtype=np.int64)
    np.minimum.at(cl_min, cl, rank)
    comp_min = np.full(n, n, dtype=np.int64)
    np.minimum.at(comp_min, comp, rank)
    order = np.lexsort((rank, cl_min[cl], comp_min[comp]))
    return MatrixBands(order=order, cluster=cl[order], component=comp[order],
                       cluster_bounds=_runs(cl[order]), component_bounds=_runs(comp[order]))


def column_order(trace, jr: JointRange | None = None, t: int | None = None, *, order: str = "components") -> np.ndarray:
    """Public codes in the column order of the matrix view at step t: by component of G_X̂(t), then
    cluster of Q(t), then value, so each cluster is a contiguous band (see :func:`matrix_bands`; with
    ``order="hierarchy"`` the leaves of the merge hierarchy).

    Examples
    --------
    >>> import graphpriv as gp
    >>> jr, _ = gp.datasets.paper_example()
    >>> tr = gp.agglomerate(jr, "I*", 0.3).trace
    >>> gp.viz.column_order(tr, jr, 1).tolist()
    [0, 2, 1, 3, 4, 5, 6]
    """
    return matrix_bands(trace, jr, t, order=order).order


@dataclass(frozen=True)
class MatrixCells:
    """Cells of the matrix view at step t (see :func:`matrix_cells`).

    Attributes
    ----------
    bands : MatrixBands
        Column order and band boundaries (:func:`matrix_bands`).
    sensitive_order : numpy.ndarray of int
        Sensitive codes in row order (:func:`graphpriv.viz.labels.label_key` order of their labels).
    original : numpy.ndarray of bool, shape (rows, columns)
        (s, x) ∈ [[S, X]] for the displayed columns.
    quantized : numpy.ndarray of bool, shape (rows, columns)
        s ∈ [[S|x̂]] for the cluster x̂ of the column's value.
    anonymity : numpy.ndarray of int
        |[[S|x̂]]| of every cluster, left to right (one entry per ``bands.cluster_bounds``).
    xpos : numpy.ndarray of int
        Drawing position of every displayed column (components separated by a gap).
    width : int
        Number of drawing positions (columns plus gaps).
    """

    bands: MatrixBands
    sensitive_order: np.ndarray
    original: np.ndarray
    quantized: np.ndarray
    anonymity: np.ndarray
    xpos: np.ndarray
    width: int


def matrix_cells(trace, jr: JointRange, t: int | None = None, *, order: str = "components") -> MatrixCells:
    """The cells of the matrix view of [[S, X̂(t)]]: which pairs are in [[S, X]], which the quantisation
    adds (S|x̂ = ∪ S|x over the cluster, Ding & Farokhi, eq. (2)), each cluster's |[[S|x̂]]| and the column
    positions (a gap of ``max(1, round(n / 120))`` between components); ``order`` as in :func:`matrix_bands`.

    Examples
    --------
    >>> import graphpriv as gp
    >>> jr, _ = gp.datasets.paper_example()
    >>> c = gp.viz.matrix_cells(gp.agglomerate(jr, "I*", 0.3).trace, jr, 1)
    >>> c.anonymity.tolist(), c.width
    ([3, 1, 1, 1, 1, 1], 10)
    """
    import scipy.sparse as sp

    t = _check_args(trace, jr, t)
    if jr is None:
        raise InputTypeError("matrix_cells needs the joint range the trace was recorded on")
    b = matrix_bands(trace, jr, t, order=order)
    n = trace.n_public
    s_labels = jr.sensitive_labels.tolist()
    s_order = np.array(sorted(range(len(s_labels)), key=lambda i: label_key(s_labels[i])), dtype=np.int64)
    M = sp.csc_array(jr.matrix)
    cols = M[s_order][:, b.order]
    orig = cols.toarray().astype(bool)
    cl_rank = np.cumsum(np.r_[0, b.cluster[1:] != b.cluster[:-1]])  # band of every column, left to right
    n_cl = int(cl_rank[-1]) + 1
    ind = sp.csr_array((np.ones(n, dtype=np.int32), (np.arange(n), cl_rank)), shape=(n, n_cl))
    qm = ((cols.astype(np.int32) @ ind) > 0).toarray()
    gap = max(1, int(round(n / 120)))
    comp_seq = np.cumsum(np.r_[0, b.component[1:] != b.component[:-1]])
    xpos = np.arange(n) + gap * comp_seq
    return MatrixCells(bands=b, sensitive_order=s_order, original=orig, quantized=qm[:, cl_rank],
                       anonymity=qm.sum(axis=0), xpos=xpos, width=int(xpos[-1]) + 1)


def _axes_points(ax) -> tuple[float, float]:
    bbox = ax.get_window_extent()
    return bbox.width * 72 / ax.figure.dpi, bbox.height * 72 / ax.figure.dpi


def _pick_ticks(centres, texts, priority, min_gap_pts, pts_per_unit):
    """Indices of labels to show: priority ones first, then left to right, none closer than ``min_gap_pts``."""
    chosen: list[int] = []
    placed: list[float] = []
    for i in sorted(range(len(centres)), key=lambda i: (not priority[i], centres[i])):
        x = centres[i] * pts_per_unit
        if all(abs(x - p) >= min_gap_pts for p in placed):
            chosen.append(i)
            placed.append(x)
    return sorted(chosen, key=lambda i: centres[i])


@styled
def plot_merge_matrix(trace, jr: JointRange, t: int | None = None, ax=None, *, title: str | bool | None = True,
                      anonymity: bool = True, labels: bool | str = "auto", order: str = "components"):
    """The matrix view of the quantised joint range [[S, X̂(t)]] at step t of a merge trace.

    Rows are sensitive values, columns the original public values in :func:`column_order` (component of
    G_X̂(t), then cluster, then value). Each cluster of Q(t) is a contiguous band (alternate bands lightly
    shaded), components are separated by gaps, a dark cell is a pair (s, x) of [[S, X]] and a light cell
    a pair the quantisation adds (s ∈ [[S|x̂]] but (s, x) ∉ [[S, X]]), cells coloured by the original
    component of x in G_X. The clusters merged at t are outlined in ``ROLE["merge"]`` and numbered in merge
    order when the step merged several pairs; the strip above gives each cluster's anonymity set
    |[[S|x̂]]| (Ding & Farokhi, *Developing Non-Stochastic Privacy-Preserving Policies Using
    Agglomerative Clustering*, eq. (2) and Fig. 1).

    Parameters
    ----------
    trace : MergeTrace
    jr : JointRange
        The joint range the trace was recorded on.
    t : int, optional
        Step (default: the returned step).
    ax : matplotlib Axes, optional
    title : str or bool
        ``True``: :func:`graphpriv.viz.step_title` (pairs merged, components joined, released/rejected).
    anonymity : bool or Axes
        Draw the |[[S|x̂]]| strip above the matrix (in an inset, or in the axes given).
    labels : bool or "auto"
        Column labels: every value for small ranges; at scale, as many cluster labels ("92–122 (13)") as fit,
        the merged clusters first.
    order : {"components", "hierarchy"}
        Column order (:func:`matrix_bands`): "hierarchy" puts the columns in the order of the leaves of
        :func:`graphpriv.viz.plot_merge_hierarchy`, for a matrix drawn beside the tree.

    Returns
    -------
    matplotlib Axes
        The matrix axes (the strip is an inset axes with gid ``"graphpriv-anonymity"``); the outlines have gid
        ``"graphpriv-merged"``; the column layout (:class:`MatrixBands`) is stored as ``ax.graphpriv_bands``.

    Examples
    --------
    >>> import graphpriv as gp
    >>> jr, _ = gp.datasets.paper_example()
    >>> tr = gp.agglomerate(jr, "I*", 0.3).trace
    >>> ax = gp.viz.plot_merge_matrix(tr, jr, 1)
    >>> len([p for p in ax.patches if p.get_gid() == "graphpriv-merged"])     # x1 + x3 outlined
    1
    """
    from matplotlib.colors import to_rgba
    from matplotlib.patches import Rectangle

    t = _check_args(trace, jr, t)
    if jr is None:
        raise InputTypeError("plot_merge_matrix needs the joint range the trace was recorded on")
    cells = matrix_cells(trace, jr, t, order=_check_order(order))
    b = cells.bands
    n = trace.n_public
    labels_x = trace.public_labels
    s_labels = jr.sensitive_labels.tolist()
    s_order = cells.sensitive_order
    orig, quant, anon, xpos = cells.original, cells.quantized, cells.anonymity, cells.xpos
    comp0 = np.asarray(trace.components0)[b.order]
    W = cells.width
    R = len(s_order)
    img = np.ones((R, W, 4))
    shade = np.array(to_rgba("#ececec"))
    for k, (a, c) in enumerate(b.cluster_bounds):
        if k % 2:
            img[:, xpos[a]:xpos[c - 1] + 1] = shade
    for j in range(n):
        col = component_color(int(comp0[j]))
        img[quant[:, j], xpos[j]] = to_rgba(_tint(col, 0.62))
        img[orig[:, j], xpos[j]] = to_rgba(col)
    ax = axes_or_new(ax, PAGE_WIDTH, 2.6)
    ax.imshow(img, interpolation="nearest", aspect="auto", extent=(-0.5, W - 0.5, R - 0.5, -0.5))
    for side in ("top", "right"):
        ax.spines[side].set_visible(True)
    for sp_ in ax.spines.values():
        sp_.set_color("#808080")
        sp_.set_linewidth(0.6)
    w_pts, h_pts = _axes_points(ax)
    ppu = w_pts / W
    # the merged clusters, outlined and numbered
    events = merge_events(trace, t)
    code = {x: i for i, x in enumerate(labels_x)}
    col_of = np.empty(n, dtype=np.int64)
    col_of[b.order] = np.arange(n)
    band_of_col = np.empty(n, dtype=np.int64)
    for k, (a, c) in enumerate(b.cluster_bounds):
        band_of_col[a:c] = k
    merged_bands: dict[int, list[int]] = {}
    for e in events:
        k = int(band_of_col[col_of[code[next(iter(e.a))]]])
        merged_bands.setdefault(k, []).append(e.number)
    rejected = not trace.steps[t].accepted
    for k, nums in merged_bands.items():
        a, c = b.cluster_bounds[k]
        x0, x1 = xpos[a] - 0.5, xpos[c - 1] + 0.5
        rect = Rectangle((x0, -0.5), x1 - x0, R, fill=False, edgecolor=ROLE["merge"], linewidth=1.3,
                         linestyle=(0, (3, 1.5)) if rejected else "solid", zorder=4, clip_on=False)
        rect.set_gid("graphpriv-merged")
        ax.add_patch(rect)
    strip_y0 = 1.02
    if len(events) > 1:  # pair numbers in staggered rows between the matrix and the strip
        fs = float(np.clip(ppu * 2.2, 4.0, 6.0))
        row_h = fs * 1.3 / h_pts
        levels = 1
        right_edge: list[float] = []  # per row of badges, the right end (points) of its last badge
        for k, nums in sorted(merged_bands.items(), key=lambda kv: b.cluster_bounds[kv[0]][0]):
            a, c = b.cluster_bounds[k]
            xc = (xpos[a] + xpos[c - 1]) / 2
            text = ",".join(map(str, nums))
            half = 0.5 * fs * (0.62 * len(text) + 0.5)  # half the badge width in points (digits + padding)
            level = next((r for r, e in enumerate(right_edge) if e + 0.8 <= xc * ppu - half), len(right_edge))
            if level == len(right_edge):
                right_edge.append(-np.inf)
            right_edge[level] = xc * ppu + half
            levels = max(levels, level + 1)
            ax.text(xc, 1.0 + 0.01 + level * row_h, text, ha="center", va="bottom",
                    fontsize=fs, color="white", zorder=5, transform=ax.get_xaxis_transform(), clip_on=False,
                    gid="graphpriv-pair-badge",
                    bbox=dict(boxstyle="round,pad=0.12", facecolor=ROLE["merge"], edgecolor="none"))
        strip_y0 = 1.03 + levels * row_h
    # column labels
    on = True if labels == "auto" else bool(labels)
    if n <= 60:
        centres = [float(xpos[j]) for j in range(n)]
        texts = [cluster_label([labels_x[i]], math=True) for i in b.order]
        prio = [False] * n
    else:
        centres = [(xpos[a] + xpos[c - 1]) / 2 for a, c in b.cluster_bounds]
        texts = [cluster_label([labels_x[i] for i in b.order[a:c]], labels_x) for a, c in b.cluster_bounds]
        prio = [k in merged_bands for k in range(len(centres))]
    if on:
        fs = 6.0 if n <= 60 else 5.5
        keep = _pick_ticks(centres, texts, prio, fs * 1.25, ppu) if n > 60 else list(range(n))
        ax.set_xticks([centres[i] for i in keep])
        ax.set_xticklabels([texts[i] for i in keep], rotation=90, fontsize=fs)
        for i, lab in zip(keep, ax.get_xticklabels()):
            if prio[i]:
                lab.set_color(ROLE["merge"])
    else:
        ax.set_xticks([])
    # rows
    fit = max(2, int(h_pts / 7.5))
    step_r = max(1, int(np.ceil(R / fit)))
    rows = np.arange(0, R, step_r)
    ax.set_yticks(rows)
    ax.set_yticklabels([cluster_label([s_labels[s_order[i]]]) for i in rows], fontsize=6)
    ax.tick_params(axis="both", length=2, pad=1.5)
    ax.set_ylabel("sensitive $S$")
    how = "by component, cluster, value" if order == "components" else "in the order of the merge hierarchy's leaves"
    ax.set_xlabel(rf"public $X$ ({how}); dark: $(s,x)\in[\![S,X]\!]$, light: added by $\hat X$", fontsize=7)
    if anonymity is not False and anonymity is not None:
        if anonymity is True:
            top = ax.inset_axes([0.0, strip_y0, 1.0, 0.2], sharex=ax)
        else:
            top = anonymity
            top.sharex(ax)
        top.set_gid("graphpriv-anonymity")
        for k, (a, c) in enumerate(b.cluster_bounds):
            colr = ROLE["merge"] if k in merged_bands else "#8c8c8c"
            top.bar((xpos[a] + xpos[c - 1]) / 2, anon[k], width=xpos[c - 1] - xpos[a] + 0.8, color=colr, linewidth=0)
            if ppu * (xpos[c - 1] - xpos[a] + 1) >= 9 or (k in merged_bands and len(merged_bands) <= 12):
                top.text((xpos[a] + xpos[c - 1]) / 2, anon[k], str(int(anon[k])), ha="center", va="bottom", fontsize=5.5)
        top.set_ylim(0, max(1, int(anon.max())) * 1.35)
        top.tick_params(axis="x", bottom=False, labelbottom=False)
        top.tick_params(axis="y", labelsize=5.5, length=2, pad=1)
        top.set_ylabel(r"$|[\![S|\hat x]\!]|$", fontsize=7, rotation=0, ha="right", va="center")
        top.spines["top"].set_visible(False)
        top.spines["right"].set_visible(False)
        top.yaxis.set_major_locator(__import__("matplotlib.ticker", fromlist=["MaxNLocator"]).MaxNLocator(3, integer=True))
    if title is True:
        title = step_title(trace, t)
    if title:
        (top if anonymity is not False and anonymity is not None else ax).set_title(title, fontsize=8, color=status_color(trace, t))
    ax.set_xlim(-0.5, W - 0.5)
    ax.graphpriv_bands = b
    return ax
