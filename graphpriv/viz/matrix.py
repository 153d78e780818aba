"""The matrix view of a quantised joint range [[S, X̂(t)]], legible at any size.

Columns are the original public values, ordered by component of G_X̂(t), then by cluster of Q(t),
then by value (:func:`column_order`), so every cluster is a contiguous band of columns and every
component a contiguous block; rows are the sensitive values. Drawn beside the merge hierarchy, the
columns take the order of its leaves instead (``order="hierarchy"``,
:func:`graphpriv.viz.labels.hierarchy_order`): one order for every step, each cluster still a contiguous band,
so a value sits at the same place left to right in the matrix and under the tree. This is the picture of paper 003
(Ding & Farokhi, *Developing Non-Stochastic Privacy-Preserving Policies Using Agglomerative
Clustering*, Fig. 1) with the quantisation drawn on it.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from ..errors import InputTypeError
from ..ranges import JointRange
from .graphs import styled
from .labels import _number_of, band_range, cluster_label, elide, elide_value, hierarchy_order, label_key, label_ranks, number_format
from .merges import merge_events, status_color, step_title
from .style import PAGE_WIDTH, ROLE, axes_or_new, component_color

__all__ = ["column_order", "matrix_bands", "MatrixBands", "matrix_cells", "MatrixCells", "plot_merge_matrix",
           "focus_layout", "FocusLayout", "FOCUS_BUDGET", "BADGE_MAX"]

#: Drawing columns of a matrix view: past this many public values the columns away from the merged clusters
#: are collapsed into aggregate bands (:func:`focus_layout`).
FOCUS_BUDGET = 320
#: Fewest drawing units of the collapsed context when the focus is small (a focus of n units gets a context
#: of max(n, FOCUS_CONTEXT_MIN) units): the merged clusters take most of the width.
FOCUS_CONTEXT_MIN = 16
#: Pair badges drawn at most (the first pairs, those that join components first); the rest are counted.
BADGE_MAX = 12
#: Neighbouring clusters on each side of a merged cluster kept in full detail (at most ``FOCUS_NEIGHBOUR_COLUMNS``
#: columns each side).
FOCUS_NEIGHBOURS = 2
FOCUS_NEIGHBOUR_COLUMNS = 8
#: Longest column label (characters; longer ones are elided, the full text kept as the label's url).
TICK_CHARS = 20
#: Merged clusters outlined at most; a step that merged more has them marked by ticks over the matrix (outlines
#: of most bands side by side would read as one solid block), as is a cluster narrower than 3 pt.
OUTLINE_MAX = 24


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
        from .merges import _check_trace

        trace = _check_trace(trace)        # a mechanism's result gives its trace
    if isinstance(jr, (int, np.integer)) and not isinstance(jr, bool) and t is None:
        jr, t = None, jr  # column_order(trace, t)
    if jr is not None:
        from .merges import as_trace_range

        jr = as_trace_range(trace, jr)      # a JointDistribution gives its support
    return trace, jr, trace._check_t(t)


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
    merge hierarchy left to right (:func:`graphpriv.viz.labels.hierarchy_order`), the same at every t: every
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
    >>> b = gp.viz.matrix.matrix_bands(tr, jr, 2)
    >>> [tr.public_labels[c] for c in b.order]
    ['x1', 'x3', 'x2', 'x5', 'x4', 'x6', 'x7']
    >>> b.cluster_bounds
    [(0, 2), (2, 4), (4, 5), (5, 6), (6, 7)]
    >>> [tr.public_labels[c] for c in gp.viz.matrix.matrix_bands(tr, jr, 2, order="hierarchy").order]
    ['x1', 'x3', 'x7', 'x2', 'x5', 'x4', 'x6']
    """
    trace, jr, t = _check_args(trace, jr, t)
    _check_order(order)
    labels = trace.public_labels
    n = len(labels)
    cl = trace.cluster_ids(t)
    comp = trace.component_ids(t)
    if order == "hierarchy":
        o = hierarchy_order(trace)
        return MatrixBands(order=o, cluster=cl[o], component=comp[o], cluster_bounds=_runs(cl[o]),
                           component_bounds=_runs(comp[o]))
    rank = label_ranks(labels)
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
    >>> gp.viz.matrix.column_order(tr, jr, 1).tolist()
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
    >>> c = gp.viz.matrix.matrix_cells(gp.agglomerate(jr, "I*", 0.3).trace, jr, 1)
    >>> c.anonymity.tolist(), c.width
    ([3, 1, 1, 1, 1, 1], 10)
    """
    import scipy.sparse as sp

    trace, jr, t = _check_args(trace, jr, t)
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


@dataclass(frozen=True)
class FocusLayout:
    """Drawing positions of the matrix columns at step t: focus + context (see :func:`focus_layout`).

    Attributes
    ----------
    xpos : numpy.ndarray of float
        Centre of every displayed column (``bands.order`` index) in drawing units.
    left, right : numpy.ndarray of float
        Its left and right edges (a column of a collapsed unit of m columns is 1/m wide).
    width : float
        Number of drawing units.
    unit : numpy.ndarray of int
        Drawing unit of every column; unit u covers the columns ``unit_start[u]:unit_start[u + 1]``.
    unit_start : numpy.ndarray of int
        First column of every unit (and the number of columns at the end).
    context : list of (int, int)
        Half-open column ranges collapsed into aggregate bands (empty when every column has its own unit).
    bands : MatrixBands
        The column order and bands it lays out.
    """

    xpos: np.ndarray
    left: np.ndarray
    right: np.ndarray
    width: float
    unit: np.ndarray
    unit_start: np.ndarray
    context: list
    bands: MatrixBands

    @property
    def collapsed(self) -> bool:
        """True when some units hold several columns."""
        return len(self.unit_start) - 1 < len(self.xpos)


def focus_layout(cells: MatrixCells, focus_bands=(), *, budget: int = FOCUS_BUDGET, also=None) -> FocusLayout:
    """Focus + context: every column gets its own drawing unit when there are at most ``budget`` of them
    (the positions of :func:`matrix_cells`, components separated by gaps); past that the clusters in
    ``focus_bands`` (indices into ``cells.bands.cluster_bounds``, e.g. the clusters merged at t) and their
    neighbours keep one unit per column (at most 60 % of the budget; beyond that they share units too) and
    every run of columns between them is collapsed into units of several columns, an aggregate band.

    Parameters
    ----------
    cells : MatrixCells or MatrixBands
        The matrix cells (their column positions are kept when nothing is collapsed), or only the bands.
    focus_bands : iterable of int
        Bands drawn in full detail.
    budget : int
        Drawing units available.
    also : numpy.ndarray of bool, optional
        Columns (display order) also kept in full detail when the focus leaves room for them (e.g. every value
        the trace merges at some step).

    Returns
    -------
    FocusLayout

    Examples
    --------
    >>> import graphpriv as gp
    >>> from graphpriv.viz.matrix import FOCUS_BUDGET, focus_layout
    >>> jr = gp.random_joint_range(20, 1000, 0.01, seed=1)
    >>> tr = gp.agglomerate(jr, "I*", 0.1).trace
    >>> lay = focus_layout(gp.viz.matrix.matrix_cells(tr, jr, 1), [0])
    >>> lay.width <= FOCUS_BUDGET, lay.collapsed
    (True, True)
    """
    if isinstance(cells, MatrixBands):   # columns side by side, no component gaps
        b = cells
        xs, wd = np.arange(len(b.order)), len(b.order)
    else:
        b = cells.bands
        xs, wd = cells.xpos, cells.width
    n = len(b.order)
    if n <= budget:
        x = np.asarray(xs, dtype=float)
        return FocusLayout(xpos=x, left=x - 0.5, right=x + 0.5, width=float(wd), unit=np.arange(n),
                           unit_start=np.arange(n + 1), context=[], bands=b)
    bounds = b.cluster_bounds
    focus = np.zeros(n, dtype=bool)
    for k in sorted(set(int(k) for k in focus_bands)):
        a, c = bounds[k]
        focus[a:c] = True
        lo = bounds[max(0, k - FOCUS_NEIGHBOURS)][0]
        hi = bounds[min(len(bounds) - 1, k + FOCUS_NEIGHBOURS)][1]
        focus[max(lo, a - FOCUS_NEIGHBOUR_COLUMNS):a] = True
        focus[c:min(hi, c + FOCUS_NEIGHBOUR_COLUMNS)] = True
    cap_f = int(0.6 * budget)
    if also is not None and int((focus | also).sum()) <= cap_f:
        focus |= np.asarray(also, dtype=bool)
    runs = _runs(focus.astype(np.int8))
    n_f = int(focus.sum())
    g_f = max(1, -(-n_f // cap_f)) if n_f else 1
    units_f = sum(-(-(c - a) // g_f) for a, c in runs if focus[a])
    ctx_runs = [(a, c) for a, c in runs if not focus[a]]
    n_c = n - n_f
    # the context never takes more room than the focus needs (at least FOCUS_CONTEXT_MIN units): a small focus
    # (a few merges among 10^4 values) is drawn wide, not squeezed to the edge by thousands of collapsed values
    avail = max(min(budget - units_f, max(units_f, FOCUS_CONTEXT_MIN)), len(ctx_runs), 1)
    g_c = max(1, -(-n_c // avail)) if n_c else 1
    starts: list[int] = []
    for a, c in runs:
        g = g_f if focus[a] else g_c
        m = c - a
        k = -(-m // g)
        # k units of (nearly) equal size over the run
        starts.extend((a + (m * np.arange(k)) // k).tolist())
    unit_start = np.asarray(starts + [n], dtype=np.int64)
    sizes = np.diff(unit_start)
    unit = np.repeat(np.arange(len(sizes)), sizes)
    within = np.arange(n) - unit_start[unit]
    left = unit - 0.5 + within / sizes[unit]
    right = left + 1.0 / sizes[unit]
    context = ctx_runs if g_c > 1 else []
    return FocusLayout(xpos=(left + right) / 2, left=left, right=right, width=float(len(sizes)), unit=unit,
                       unit_start=unit_start, context=context, bands=b)


#: Vertical room of one tick label of the anonymity strip (points): 5.5 pt text and its spacing.
ANON_TICK_PTS = 9.0


def _axes_points(ax) -> tuple[float, float]:
    bbox = ax.get_window_extent()
    return bbox.width * 72 / ax.figure.dpi, bbox.height * 72 / ax.figure.dpi


def _pick_ticks(centres, texts, priority, min_gap_pts, pts_per_unit, *, rank=None):
    """Indices of labels to show: priority ones first, then left to right (or, with ``rank``, by rank and then
    in the order given), none closer than ``min_gap_pts``."""
    import bisect

    chosen: list[int] = []
    placed: list[float] = []   # sorted
    key = (lambda i: (rank[i], i)) if rank is not None else (lambda i: (not priority[i], centres[i]))
    for i in sorted(range(len(centres)), key=key):
        x = centres[i] * pts_per_unit
        j = bisect.bisect_left(placed, x)
        if (j == 0 or x - placed[j - 1] >= min_gap_pts) and (j == len(placed) or placed[j] - x >= min_gap_pts):
            chosen.append(i)
            placed.insert(j, x)
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
        ``True``: :func:`graphpriv.viz.merges.step_title` (pairs merged, components joined, released/rejected).
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
        ``"graphpriv-merged"`` (ticks over the matrix, ``"graphpriv-merged-marks"``, when more than
        :data:`OUTLINE_MAX` clusters merged or a cluster is narrower than 3 pt); badges
        ``"graphpriv-pair-badge"`` (at most :data:`BADGE_MAX`) and ``"graphpriv-pair-more"``; the column layout
        (:class:`MatrixBands`) is stored as ``ax.graphpriv_bands`` and the drawing positions (:class:`FocusLayout`)
        as ``ax.graphpriv_layout``; every column label carries its full text as its url.

    Notes
    -----
    Focus + context: past :data:`FOCUS_BUDGET` public values the clusters merged at t, their neighbours and
    (room permitting) every value the trace ever merges keep one drawing column each; the runs between them are
    collapsed into aggregate bands (grey bars under the matrix, labelled with their count and value range;
    cell shade = share of their columns holding the pair), so the view draws in about the same time at any size.

    Examples
    --------
    >>> import graphpriv as gp
    >>> jr, _ = gp.datasets.paper_example()
    >>> tr = gp.agglomerate(jr, "I*", 0.3).trace
    >>> ax = gp.viz.plot_merge_matrix(tr, jr, 1)
    >>> len([p for p in ax.patches if p.get_gid() == "graphpriv-merged"])     # x1 + x3 outlined
    1
    """
    from matplotlib.patches import Rectangle

    trace, jr, t = _check_args(trace, jr, t)
    if jr is None:
        raise InputTypeError("plot_merge_matrix needs the joint range the trace was recorded on")
    cells = matrix_cells(trace, jr, t, order=_check_order(order))
    b = cells.bands
    n = trace.n_public
    labels_x = trace.public_labels
    s_labels = jr.sensitive_labels.tolist()
    s_order = cells.sensitive_order
    anon = cells.anonymity
    comp0 = np.asarray(trace.components0)[b.order]
    R = len(s_order)
    # the merged clusters (bands) and their pair numbers
    events = merge_events(trace, t)
    code = {x: i for i, x in enumerate(labels_x)}
    col_of = np.empty(n, dtype=np.int64)
    col_of[b.order] = np.arange(n)
    band_of_col = np.empty(n, dtype=np.int64)
    for k, (a, c) in enumerate(b.cluster_bounds):
        band_of_col[a:c] = k
    merged_bands: dict[int, list[int]] = {}
    joined_bands: set[int] = set()
    for e in events:
        k = int(band_of_col[col_of[code[next(iter(e.a))]]])
        merged_bands.setdefault(k, []).append(e.number)
        if e.joined:
            joined_bands.add(k)
    lay = focus_layout(cells, merged_bands, also=_ever_merged(trace)[b.order])
    W = lay.width
    # a figure of its own: the strip in an axes of the figure's layout above the matrix (an inset's title was cut
    # at the figure's top edge), rotated column labels and the caption below
    own_figure = ax is None
    if ax is None:
        ax = axes_or_new(None, PAGE_WIDTH, 3.6 if any(isinstance(x, str) for x in labels_x[:50]) else 3.3)
    img = _matrix_image(cells, lay, comp0)
    ax.imshow(img, interpolation="nearest", aspect="auto", extent=(-0.5, W - 0.5, R - 0.5, -0.5))
    for side in ("top", "right"):
        ax.spines[side].set_visible(True)
    for sp_ in ax.spines.values():
        sp_.set_color("#808080")
        sp_.set_linewidth(0.6)
    ax.set_xlim(-0.5, W - 0.5)
    w_pts, h_pts = _axes_points(ax)
    ppu = w_pts / W
    band_l = np.array([lay.left[a] for a, _ in b.cluster_bounds])
    band_r = np.array([lay.right[c - 1] for _, c in b.cluster_bounds])
    # the merged clusters outlined (inside their band: the line never wider than a third of it), or marked by
    # a tick over the matrix when the band is too narrow to outline
    rejected = not trace.step_accepted[t]
    marks = []
    few = len(merged_bands) <= OUTLINE_MAX
    for k in merged_bands:
        x0, x1 = band_l[k], band_r[k]
        w = (x1 - x0) * ppu
        if few and w >= 3.0:
            lw = min(1.3, w / 3.0)
            inset = 0.5 * lw / ppu   # the stroke stays inside the band
            rect = Rectangle((x0 + inset, -0.5), x1 - x0 - 2 * inset, R, fill=False, edgecolor=ROLE["merge"], linewidth=lw,
                             linestyle=(0, (3, 1.5)) if rejected else "solid", zorder=4, clip_on=False)
            rect.set_gid("graphpriv-merged")
            ax.add_patch(rect)
        else:
            marks.append((x0 + x1) / 2)
    if marks:
        from matplotlib.collections import LineCollection

        tr_ = ax.get_xaxis_transform()
        ax.add_collection(LineCollection([[(m, 1.0), (m, 1.025)] for m in marks], colors=ROLE["merge"], linewidths=0.6,
                                         transform=tr_, clip_on=False, zorder=4, gid="graphpriv-merged-marks"))
    strip_y0 = 1.035 if marks else 1.02
    badges = _pair_badges(ax, b, merged_bands, joined_bands, band_l, band_r, ppu, h_pts, len(events), strip_y0)
    if badges:
        strip_y0 = badges
    if (anonymity is not True and anonymity is not False and anonymity is not None
            and any(len(m) > 1 for m in trace.step_merges)):
        # the strip is an axes of the caller's layout: reserve the room of two rows of badges at every step, so
        # the frames of an animation (one layout for all) and the panels of a trace line up
        ax.text(0.0, 1.04 + 2 * 5.5 * 1.45 / h_pts, "0", fontsize=5.5, color="none", transform=ax.transAxes,
                clip_on=False, gid="graphpriv-badge-room")
    # column labels: one number format for the axis, long text elided (full text as the label's url)
    fmt = number_format(labels_x)
    on = True if labels == "auto" else bool(labels)
    fs = 6.0 if n <= 60 else 5.5
    items = []   # (centre, text, full text, priority, colour)
    if n <= 60:
        for j in range(n):
            full = cluster_label([labels_x[b.order[j]]], fmt=fmt)
            items.append((float(lay.xpos[j]), cluster_label([labels_x[b.order[j]]], math=True) if n <= 60 and not _is_num(labels_x[b.order[j]]) else full, full, 0, "black"))
    else:
        for k in sorted(merged_bands, key=lambda k: (k not in joined_bands, min(merged_bands[k]))):
            a, c = b.cluster_bounds[k]
            members = [labels_x[i] for i in b.order[a:c]]
            full = cluster_label(members, labels_x, fmt=fmt)
            items.append(((band_l[k] + band_r[k]) / 2, elide(cluster_label(members, labels_x, fmt=fmt), TICK_CHARS), full,
                          0 if k in joined_bands else 1, ROLE["merge"]))
        for a, c in lay.context:
            # the band's range: smallest and largest number (text: first and last in label order), never the
            # first and last column of the display order
            members = band_range(labels_x[i] for i in b.order[a:c])
            # each end elided at a word boundary (a number never cut), so "[7: 3.1–35.0]" shows the true ends
            rng = f"{elide(fmt(members[0]), 9)}–{elide(fmt(members[1]), 9)}"
            how = "smallest to largest" if all(_number_of(m) is not None for m in members) else "first to last in label order"
            items.append(((lay.left[a] + lay.right[c - 1]) / 2, f"[{c - a:,}: {rng}]",
                          f"{c - a} values: {fmt(members[0])} to {fmt(members[1])} ({how}; collapsed)", 2, "#707070"))
        if len(items) < 400:   # the other clusters, as room allows
            for k, (a, c) in enumerate(b.cluster_bounds):
                if k not in merged_bands and lay.right[a] - lay.left[a] > 0.999 and (c - a) <= 400:   # own units
                    items.append(((band_l[k] + band_r[k]) / 2, None, (a, c), 3, "black"))
                    if len(items) > 800:
                        break
    if on and items:
        keep = (_pick_ticks([it[0] for it in items], None, None, fs * 1.25, ppu, rank=[it[3] for it in items])
                if n > 60 else list(range(n)))
        shown = []
        for i in keep:
            x, text, full, _, colour = items[i]
            if text is None:   # a cluster label computed only when it is shown
                a, c = full
                members = [labels_x[j] for j in b.order[a:c]]
                full = cluster_label(members, labels_x, fmt=fmt)
                text = elide(cluster_label(members, labels_x, fmt=fmt), TICK_CHARS)
            shown.append((x, text, full, colour))
        ax.set_xticks([x for x, *_ in shown])
        ax.set_xticklabels([text for _, text, _, _ in shown], rotation=90, fontsize=fs)
        for (_, _, full, colour), lab in zip(shown, ax.get_xticklabels()):
            lab.set_color(colour)
            lab.set_url(str(full))
        ax.graphpriv_column_labels = {text: full for _, text, full, _ in shown}
    else:
        ax.set_xticks([])
    for a, c in lay.context:   # the collapsed runs: a grey bracket under the matrix
        ax.plot([lay.left[a] + 0.1, lay.right[c - 1] - 0.1], [-0.012, -0.012], color="#9a9a9a", linewidth=1.6,
                transform=ax.get_xaxis_transform(), clip_on=False, solid_capstyle="butt", gid="graphpriv-context-band")
    # rows: one locator and one formatter for the whole axis (integer row positions, labels in one number format,
    # as many as the final axes height holds)
    from matplotlib.ticker import FuncFormatter, MaxNLocator

    sfmt = number_format(s_labels)
    row_text = [elide(sfmt(s_labels[s_order[i]]), 16) for i in range(R)]
    ax.yaxis.set_major_locator(MaxNLocator(nbins="auto", integer=True, min_n_ticks=1))
    ax.yaxis.set_major_formatter(FuncFormatter(lambda v, _pos: row_text[int(round(v))] if 0 <= round(v) < R and abs(v - round(v)) < 1e-6 else ""))
    ax.tick_params(axis="y", labelsize=6)
    ax.tick_params(axis="both", length=2, pad=1.5)
    ax.set_ylabel("sensitive $S$")
    how = "by component, cluster, value" if order == "components" else "in the order of the merge hierarchy's leaves"
    key = r"dark: $(s,x)\in[\![S,X]\!]$, light: added by $\hat X$"
    if lay.context:
        key += (f"\ngrey bars [count: range]: {sum(c - a for a, c in lay.context):,} values away from the merges, "
                "collapsed (darker = more of their columns)")
    ax.set_xlabel(f"public $X$ ({how}); {key}", fontsize=7)
    if anonymity is not False and anonymity is not None:
        if anonymity is True:
            # at least 9 pt above the matrix: the strip's "0" and the matrix's first row label never touch
            strip_y0 = max(strip_y0, 1.0 + 9.0 / max(h_pts, 1.0))
            top = ax.inset_axes([0.0, strip_y0, 1.0, 0.2], sharex=ax)
        else:
            top = anonymity
            top.sharex(ax)
        top.set_gid("graphpriv-anonymity")
        _anonymity_strip(top, b, lay, anon, merged_bands, band_l, band_r, ppu)
    if title is True:
        title = step_title(trace, t)
    if title:
        # at a fixed height (y=1): the layout engine reserves its room (a title moved up at draw time was cut)
        (top if anonymity is not False and anonymity is not None else ax).set_title(title, fontsize=8, color=status_color(trace, t),
                                                                                    y=1.0, pad=3.0)
    ax.set_xlim(-0.5, W - 0.5)
    ax.graphpriv_bands = b
    ax.graphpriv_layout = lay
    if own_figure:   # the strip is an inset placed relative to the matrix: one layout pass leaves its top too high
        ax.figure.draw_without_rendering()
    return ax


def _ever_merged(trace) -> np.ndarray:
    """Public codes whose cluster at the last step has more than one value (merged at some step)."""
    ids = trace.cluster_ids(len(trace) - 1)
    return np.bincount(ids, minlength=len(ids))[ids] > 1


def _is_num(x) -> bool:
    import numbers

    return isinstance(x, numbers.Real) and not isinstance(x, bool)


def _matrix_image(cells: MatrixCells, lay: FocusLayout, comp0: np.ndarray) -> np.ndarray:
    """RGBA image of the matrix, one pixel column per drawing unit: a unit of one column shows its cells (dark:
    a pair of [[S, X]], light: a pair the quantisation adds, cluster bands alternately shaded); a collapsed unit
    shows the share of its columns holding each pair (darker = more), on a warm grey ground."""
    from matplotlib.colors import to_rgb

    b = cells.bands
    R = cells.original.shape[0]
    n_units = len(lay.unit_start) - 1
    starts = lay.unit_start[:-1]
    sizes = np.diff(lay.unit_start)
    W = int(round(lay.width))
    pal = np.array([to_rgb(component_color(int(k))) for k in range(8)])
    colour = pal[np.asarray(comp0, dtype=np.int64)[starts] % 8]                       # (units, 3)
    if not lay.collapsed:
        img = np.ones((R, W, 3))
        xs = np.asarray(cells.xpos, dtype=np.int64)
        shade = np.array(to_rgb("#ececec"))
        # shade the whole span of every odd band (gaps inside a band do not occur: bands are contiguous)
        for a, c in (b.cluster_bounds[k] for k in range(1, len(b.cluster_bounds), 2)):
            img[:, xs[a]:xs[c - 1] + 1] = shade
        light = 1 - 0.38 * (1 - colour)                                                   # _tint(col, 0.62)
        q = cells.quantized
        o = cells.original
        for j in range(n_units):
            img[q[:, j], xs[j]] = light[j]
            img[o[:, j], xs[j]] = colour[j]
        return img
    o = np.add.reduceat(cells.original.astype(np.float32), starts, axis=1) / sizes
    q = np.add.reduceat(cells.quantized.astype(np.float32), starts, axis=1) / sizes
    a = np.where(o > 0, 0.3 + 0.6 * o, np.where(q > 0, 0.12 + 0.15 * q, 0.0))[..., None]   # (R, units, 1)
    ctx = np.zeros(len(lay.xpos), dtype=bool)
    for a_, c_ in lay.context:
        ctx[a_:c_] = True
    many = ((sizes > 1) & ctx[starts])[:, None]
    colour = np.where(many, 0.45 * colour + 0.55 * 0.45, colour)        # collapsed units: muted colours
    ground = np.where(many[None, :, :], np.array(to_rgb("#f3f0e8")), np.ones(3))
    img = ground * (1 - a) + colour[None, :, :] * a
    assert img.shape[1] == W
    return img


def pair_badge_text(numbers) -> str:
    """Text of the badge over a cluster merged at step t: the numbers (merge order) of the pairs that formed it,
    ``"3"``, ``"1,14"``, or the first two and how many more, ``"1,14,+3"``. The matrix view, the merge hierarchy
    and the explorer write the same badge for the same cluster.

    Examples
    --------
    >>> from graphpriv.viz.matrix import pair_badge_text
    >>> pair_badge_text([1, 14]), pair_badge_text([2, 5, 9, 11])
    ('1,14', '2,5,+2')
    """
    nums = sorted(int(k) for k in numbers)
    if len(nums) <= 2:
        return ",".join(map(str, nums))
    return f"{nums[0]},{nums[1]},+{len(nums) - 2}"


def _pair_badges(ax, b, merged_bands, joined_bands, band_l, band_r, ppu, h_pts, n_events, y0):
    """Pair numbers over the merged clusters, in at most two staggered rows, at most :data:`BADGE_MAX` badges:
    the clusters whose pair joins components first, then by pair number; the pairs left out are counted
    ("+N more"). Returns the top of the badges (axes fraction) or None when the step merged one pair."""
    if n_events <= 1:
        return None
    w_pts = _axes_points(ax)[0]
    fs = 5.5
    row_h = fs * 1.45 / h_pts
    order = sorted(merged_bands, key=lambda k: (k not in joined_bands, min(merged_bands[k])))

    def place(reserve: float):
        rows: list[list[tuple[float, float]]] = [[], []]   # per row, the badges' extents in points
        out = []
        for k in order:
            if len(out) >= BADGE_MAX:
                break
            nums = merged_bands[k]
            text = pair_badge_text(nums)
            xc = (band_l[k] + band_r[k]) / 2
            half = 0.5 * fs * (0.62 * len(text) + 0.5)
            lo, hi = xc * ppu - half, xc * ppu + half
            if hi > w_pts - reserve:
                continue
            # one row: a second, staggered row was hidden under the strip above in short panels
            level = next((r for r in range(1) if all(hi + 1.0 <= a or lo >= b + 1.0 for a, b in rows[r])), None)
            if level is None:
                continue
            rows[level].append((lo, hi))
            out.append((xc, level, text, k))
        return out

    placed = place(0.0)
    if sum(len(merged_bands[k]) for *_, k in placed) < n_events:   # some left out: room for "+N more" at the right
        placed = place(58.0)
    shown_pairs = sum(len(merged_bands[k]) for *_, k in placed)
    levels = max((level + 1 for _, level, _, _ in placed), default=1)
    texts = []
    for xc, level, text, k in placed:
        texts.append((ax.text(xc, y0 + 0.005 + level * row_h, text, ha="center", va="bottom", fontsize=fs, color="white",
                              zorder=5, transform=ax.get_xaxis_transform(), clip_on=False, gid="graphpriv-pair-badge",
                              bbox=dict(boxstyle="round,pad=0.12", facecolor=ROLE["merge"], edgecolor="none")),
                      len(merged_bands[k])))
    rest = n_events - shown_pairs
    more = ax.text(1.0, y0 + 0.005, f"+{rest} more pair{'s' if rest != 1 else ''}", ha="right", va="bottom", fontsize=fs,
                   color=ROLE["merge"], transform=ax.transAxes, clip_on=False, gid="graphpriv-pair-more", zorder=5,
                   visible=rest > 0,
                   bbox=dict(boxstyle="round,pad=0.12", facecolor="white", edgecolor=ROLE["merge"], linewidth=0.5))
    ax.add_artist(_badge_spacer_class()(texts, more, n_events))
    return y0 + 0.01 + max(levels, 1) * row_h


def _badge_spacer_class():
    from matplotlib.artist import Artist

    class BadgeSpacer(Artist):
        """Drawn just before the pair badges, on the final layout (constrained layout moves the axes after the
        badges are placed): hides every badge that would touch one already kept (in priority order) or the
        "+N more" box, and counts the hidden pairs in that box, so badges never overlap at any panel size."""

        def __init__(self, texts, more, n_events):
            super().__init__()
            self.texts, self.more, self.n_events = texts, more, n_events
            self.set_zorder(4.95)

        def draw(self, renderer):
            for t, _ in self.texts:
                t.set_visible(True)
            shown = 0
            kept = []
            gap = renderer.points_to_pixels(1.5)

            def more_box(rest):
                self.more.set_text(f"+{rest} more pair{'s' if rest != 1 else ''}")
                self.more.set_visible(rest > 0)
                return self.more.get_window_extent(renderer) if rest > 0 else None

            for _attempt in range(3):   # the "+N more" box grows with N: settle in a few passes
                box = more_box(self.n_events - sum(n for t, n in self.texts if t.get_visible()))
                kept, shown = [], 0
                for t, n in self.texts:
                    t.set_visible(True)
                    e = t.get_window_extent(renderer)
                    clash = any(e.x0 < k.x1 + gap and k.x0 < e.x1 + gap for k in kept)
                    if box is not None and e.x1 + gap > box.x0:
                        clash = True
                    t.set_visible(not clash)
                    if not clash:
                        kept.append(e)
                        shown += n
                if (box is None) == (shown == self.n_events):
                    break
            more_box(self.n_events - shown)
            self.stale = False

    return BadgeSpacer


def _anonymity_strip(top, b, lay, anon, merged_bands, band_l, band_r, ppu):
    """|[[S|x̂]]| of every cluster as bars over its band (merged clusters in ``ROLE["merge"]``); collapsed
    units show the largest |[[S|x̂]]| of their clusters."""
    from matplotlib.ticker import MaxNLocator

    if not lay.collapsed:
        xs = (band_l + band_r) / 2
        ws = np.maximum(band_r - band_l - 0.2, 0.05)
        hit = np.isin(np.arange(len(xs)), list(merged_bands))
        for k in range(len(xs)):
            if ppu * (band_r[k] - band_l[k]) >= 9 or (k in merged_bands and len(merged_bands) <= 12):
                top.text(xs[k], anon[k], str(int(anon[k])), ha="center", va="bottom", fontsize=5.5)
        heights = np.asarray(anon, dtype=float)
    else:
        band_of_col = np.repeat(np.arange(len(anon)), [c - a for a, c in b.cluster_bounds])
        per_col = np.asarray(anon)[band_of_col]
        starts = lay.unit_start[:-1]
        heights = np.maximum.reduceat(per_col, starts).astype(float)
        merged_col = np.zeros(len(per_col), dtype=bool)
        for k in merged_bands:
            a, c = b.cluster_bounds[k]
            merged_col[a:c] = True
        hit = np.maximum.reduceat(merged_col.astype(np.int8), starts) > 0
        xs, ws = np.arange(len(heights), dtype=float), np.full(len(heights), 0.9)
    colours = np.where(hit, ROLE["merge"], "#8c8c8c").tolist()
    if len(xs) <= 60:   # a few bars: patches (one per cluster)
        top.bar(xs, heights, width=ws, color=colours, linewidth=0)
    else:               # many: one collection (a patch each costs ~2 ms to add and draw)
        from matplotlib.collections import PolyCollection

        verts = np.stack([np.column_stack([xs - ws / 2, np.zeros_like(xs)]), np.column_stack([xs - ws / 2, heights]),
                          np.column_stack([xs + ws / 2, heights]), np.column_stack([xs + ws / 2, np.zeros_like(xs)])], axis=1)
        top.add_collection(PolyCollection(verts, facecolors=colours, edgecolors="none", linewidths=0,
                                          gid="graphpriv-anonymity-bars"), autolim=False)
    top.set_ylim(0, max(1, int(np.max(anon))) * 1.35)
    top.tick_params(axis="x", bottom=False, labelbottom=False)
    top.tick_params(axis="y", labelsize=5.5, length=2, pad=1)
    top.set_ylabel(r"$|[\![S|\hat x]\!]|$", fontsize=7, rotation=0, ha="right", va="center")
    top.spines["top"].set_visible(False)
    top.spines["right"].set_visible(False)
    # as many y ticks as the strip's height holds apart (5.5 pt labels): 0, middle and max; 0 and max; or the
    # max alone in a thin strip (plot_trace's panels), so tick labels never overprint
    peak = max(1, int(np.max(anon)))
    room = _axes_points(top)[1]
    if room >= 4 * ANON_TICK_PTS:
        top.yaxis.set_major_locator(MaxNLocator(3, integer=True))
    else:
        top.set_yticks([0, peak] if room >= 2 * ANON_TICK_PTS else [peak])
