"""Joint-range grids, confusability and bipartite graphs, min cuts, incidence matrices.

The pictures of paper 003, Section IV: the joint range [[S, X]] as a grid (Fig. 1), the confusability
graph G_X with its finest decomposition coloured (Fig. 2), the bipartite support graph, and minimum
cuts of G_X with the crossing edges highlighted (eq. (1)). :func:`plot_incidence_matrix` is the generic
matrix view (boolean or weighted, e.g. the incidence matrix P of the hypergraph H_n) that
:func:`plot_joint_range` is built on.

Every function draws one panel, takes ``ax=`` (a new single-column figure is made when it is None),
returns the axes and never calls ``plt.show()``. Colours come from :mod:`graphpriv.viz.style`:
component ``k`` of G_X is :func:`~graphpriv.viz.style.component_color` ``(k)`` everywhere, with
components numbered by their smallest public code (as :func:`graphpriv.components` does).

Layouts are deterministic (fixed seed) and *stable*: :func:`graph_layout` places every component in
its own box, so the same joint range always gives the same picture, and the merge-step views of
:mod:`graphpriv.viz.traces` place a super-node at the mean position of its members.
"""

from __future__ import annotations

import re
from typing import Hashable, Mapping, Sequence

import numpy as np
import scipy.sparse as sp

from .._guards import check_plot_labels, check_plot_range
from ..errors import InputError, InputTypeError
from ..ranges import JointRange
from .labels import _number_of, cluster_label, elide_value, format_label, number_format, wrap_label  # noqa: F401  (format_label stays importable from here)
from .style import COLUMN_WIDTH, ROLE, _tint, axes_or_new, component_color, contained

__all__ = [
    "plot_joint_range",
    "plot_incidence_matrix",
    "plot_confusability",
    "plot_min_cut",
    "graph_layout",
    "LABEL_MAX_NODES",
]

#: Graphs with more nodes than this are drawn without node labels unless ``labels=True``.
LABEL_MAX_NODES = 40

#: plot_incidence_matrix draws square cells up to this ratio of columns to rows (or rows to columns), stretched
#: cells beyond (so a 7 x 2,700 joint range keeps a readable height).
MATRIX_SQUARE_RATIO = 8

#: Tick labels of plot_incidence_matrix are elided (in the middle; numbers never cut) to this many characters.
TICK_LABEL_CHARS = 20
#: Largest G_X drawn node by node by ``plot_confusability(view="auto")``; larger graphs are drawn as one
#: disc per component (the node-link drawing of 150 values is a hairball).
NODE_LINK_MAX_NODES = 40



def styled(fn):
    """Run a plotting function inside :func:`~graphpriv.viz.style.style_context` so fonts, line widths and
    legends look the same whether or not the caller set graphpriv's style."""
    import functools

    from .style import style_context

    @functools.wraps(fn)
    def wrapper(*args, **kwargs):
        with style_context():
            return fn(*args, **kwargs)

    return wrapper


# --------------------------------------------------------------------------------------------------
# labels
# --------------------------------------------------------------------------------------------------
# --------------------------------------------------------------------------------------------------
# helpers
# --------------------------------------------------------------------------------------------------
def _check_jr(jr) -> JointRange:
    if not isinstance(jr, JointRange):
        raise InputTypeError(f"jr must be a graphpriv JointRange, got {type(jr).__name__}; build one with gp.JointRange.from_pairs or from_dataframe")
    return jr


def _g_edges(jr: JointRange) -> np.ndarray:
    from ..graphs.confusability import confusability_edges

    return confusability_edges(jr)


def _components(jr: JointRange) -> np.ndarray:
    from ..graphs.support import components

    return np.asarray(components(jr).public)


# --------------------------------------------------------------------------------------------------
# layout
# --------------------------------------------------------------------------------------------------
def _component_shape(k: int, sub_edges: list[tuple[int, int]], seed: int, method: str) -> np.ndarray:
    """Positions of ``k`` nodes of one component inside the unit disc."""
    if k == 1:
        return np.zeros((1, 2))
    if k == 2:
        return np.array([[-0.5, 0.0], [0.5, 0.0]])
    if method == "circular" or k <= 3:
        ang = np.pi / 2 - 2 * np.pi * np.arange(k) / k
        if k == 3:
            ang = ang + np.pi  # a triangle standing on its base
        return np.column_stack([np.cos(ang), np.sin(ang)])
    import networkx as nx

    G = nx.Graph()
    G.add_nodes_from(range(k))
    G.add_edges_from(sub_edges)
    if method == "kamada_kawai":
        p = nx.kamada_kawai_layout(G)
    else:
        init = {i: (np.cos(2 * np.pi * i / k), np.sin(2 * np.pi * i / k)) for i in range(k)}
        p = nx.spring_layout(G, pos=init, seed=seed, iterations=200)
    arr = np.array([p[i] for i in range(k)], dtype=float)
    arr -= arr.mean(axis=0)
    scale = np.abs(arr).max() or 1.0
    return arr / scale


def graph_layout(jr: JointRange, layout: str | Mapping = "components", *, seed: int = 0) -> dict:
    """Deterministic node positions for G_X: a dict public label -> (x, y).

    Parameters
    ----------
    jr : JointRange
    layout : {"components", "circle", "spring", "kamada_kawai", "circular"} or mapping
        ``"components"`` (default) packs each component of G_X into its own square box, biggest first, in
        rows (shelf packing), with the component's nodes on a spring (or circular/kamada_kawai) layout
        inside; the same range always gives the same picture and no two components overlap.
        ``"spring"`` / ``"kamada_kawai"`` / ``"circular"`` apply that method inside the component boxes.
        ``"circle"`` puts every node on one circle (unit spacing), ordered by component and then by code, so
        components are contiguous arcs and no edge passes through a node; the merge-step views use it.
        A mapping label -> (x, y) is returned as given (missing labels raise).
    seed : int
        Seed of the spring layout.

    Returns
    -------
    dict
        Public label -> numpy array of shape (2,).

    Examples
    --------
    >>> import graphpriv as gp
    >>> jr, _ = gp.datasets.paper_example()
    >>> pos = gp.viz.graph_layout(jr)
    >>> sorted(pos) == sorted(jr.public_labels.tolist())
    True
    >>> bool(pos["x1"][0] < pos["x2"][0])      # x1 left of x2 inside their component
    True

    Notes
    -----
    O(|X| + |E|) plus the spring layout of each component (O(k^2) per iteration for a component of k nodes).
    """
    _check_jr(jr)
    labels = jr.public_labels.tolist()
    if isinstance(layout, Mapping):
        missing = [x for x in labels if x not in layout]
        if missing:
            raise InputError(f"layout is missing positions for {len(missing)} public value(s), e.g. {missing[:3]}; give every public label a position")
        return {x: np.asarray(layout[x], dtype=float) for x in labels}
    methods = ("components", "circle", "spring", "kamada_kawai", "circular")
    if layout not in methods:
        raise InputError(f"layout={layout!r} must be one of {methods} or a mapping label -> (x, y)")
    method = "spring" if layout == "components" else layout
    comp = _components(jr)
    if layout == "circle":
        return _circle_layout(labels, comp)
    n_comp = int(comp.max()) + 1 if comp.size else 0
    edges = _g_edges(jr) if jr.n_public <= 5000 else np.zeros((0, 2), dtype=np.int64)
    members = [np.flatnonzero(comp == c) for c in range(n_comp)]
    local_of = np.empty(jr.n_public, dtype=np.int64)
    for c, mem in enumerate(members):
        local_of[mem] = np.arange(mem.size)
    sub_edges: list[list[tuple[int, int]]] = [[] for _ in range(n_comp)]
    for i, j in edges.tolist():
        sub_edges[comp[i]].append((int(local_of[i]), int(local_of[j])))
    # shelf packing of boxes of side ~ sqrt(size), biggest first (ties by component id)
    order = sorted(range(n_comp), key=lambda c: (-members[c].size, c))
    def _box(k: int) -> tuple[float, float]:
        if k == 1:
            return 1.0, 1.0
        if k == 2:
            return 2.3, 1.1
        side = 1.2 * np.sqrt(k)
        return side, side

    boxes = {c: _box(members[c].size) for c in order}
    total = sum(w * h for w, h in boxes.values())
    width = max(max((w for w, _ in boxes.values()), default=1.0), 1.4 * np.sqrt(1.6 * total))  # wider than tall
    rows: list[list[int]] = [[]]
    x0 = 0.0
    for c in order:
        if rows[-1] and x0 + boxes[c][0] > width + 1e-9:
            rows.append([])
            x0 = 0.0
        rows[-1].append(c)
        x0 += boxes[c][0]
    pos = np.zeros((jr.n_public, 2))
    y_top = 0.0
    for row in rows:
        row_h = max(boxes[c][1] for c in row)
        x0 = 0.0
        for c in row:
            w, h = boxes[c]
            k = members[c].size
            shape = _component_shape(k, sub_edges[c], seed, method)
            r = 1.1 if k == 2 else 0.5 * w - 0.35
            pos[members[c]] = shape * r + np.array([x0 + w / 2, y_top - row_h / 2])
            x0 += w
        y_top -= row_h
    return {labels[j]: pos[j] for j in range(jr.n_public)}


def circle_radius(n: int) -> float:
    """Radius of the ``"circle"`` layout for ``n`` nodes (neighbours one unit apart)."""
    return 0.5 / np.sin(np.pi / n) if n >= 3 else 0.5


def _circle_layout(labels: list, comp: np.ndarray) -> dict:
    n = len(labels)
    order = np.lexsort((np.arange(n), comp))
    R = circle_radius(n)
    ang = np.pi / 2 + np.pi / max(n, 1) - 2 * np.pi * np.arange(n) / max(n, 1) if n > 2 else np.array([np.pi, 0.0])[:n]
    pos = np.zeros((n, 2))
    pos[order] = np.column_stack([np.cos(ang), np.sin(ang)]) * R
    return {labels[j]: pos[j] for j in range(n)}


def _separate(pos: np.ndarray, min_dist: float, iterations: int = 60) -> np.ndarray:
    """Push apart points closer than ``min_dist`` (small graphs; O(n^2) per iteration)."""
    p = np.array(pos, dtype=float)
    n = len(p)
    if n < 2:
        return p
    rng = np.random.default_rng(0)
    for _ in range(iterations):
        d = p[:, None, :] - p[None, :, :]
        dist = np.sqrt((d ** 2).sum(-1))
        np.fill_diagonal(dist, np.inf)
        close = dist < min_dist
        if not close.any():
            break
        push = np.zeros_like(p)
        for i, j in zip(*np.nonzero(np.triu(close))):
            v = d[i, j]
            if dist[i, j] < 1e-9:
                v = rng.normal(size=2)
            v = v / (np.linalg.norm(v) or 1.0)
            amount = 0.5 * (min_dist - min(dist[i, j], min_dist)) + 1e-3
            push[i] += v * amount
            push[j] -= v * amount
        p += push
    return p


def _min_distance(pos: np.ndarray) -> float:
    if len(pos) < 2:
        return np.inf
    from scipy.spatial import cKDTree

    d, _ = cKDTree(pos).query(pos, k=2)
    return float(d[:, 1].min())


def _points_per_unit(ax) -> float:
    """Points per data unit of an equal-aspect axes at its current size and limits."""
    bbox = ax.get_window_extent()
    dpi = ax.figure.dpi
    w, h = bbox.width * 72 / dpi, bbox.height * 72 / dpi
    x0, x1 = ax.get_xlim()
    y0, y1 = ax.get_ylim()
    return min(w / max(abs(x1 - x0), 1e-9), h / max(abs(y1 - y0), 1e-9))


def _label_fontsize(texts: Sequence[str], radius_pts: float, base: float = 7.5) -> float:
    longest = max((len(re.sub(r"[${}_\\]", "", t)) for t in texts), default=1)
    width_per_pt = 0.62 + 0.45 * max(longest - 1, 0)  # text width / font size (subscripted digits)
    return float(np.clip(1.75 * radius_pts / width_per_pt, 4.0, base))


def _draw_graph(ax, pos: np.ndarray, edges, texts, comp_ids, *, edge_colors=None, edge_widths=None,
                edge_styles=None, node_edge_colors=None, node_edge_widths=None, labels_on=True,
                face_colors=None, radius=None, node_subset=None, fontsize=None, pad=None, limits_from=None):
    """Draw nodes (circles of data-unit ``radius``) at ``pos`` (n, 2) joined by ``edges`` (E, 2 indices).

    Node discs are sized in data units (so they never overlap, whatever the axes size) and the labels get
    the largest font size (<= 7.5 pt) that fits inside them. Returns the node collection (gid
    ``"graphpriv-nodes"``; one offset per node).
    """
    from matplotlib.collections import EllipseCollection, LineCollection

    pos = np.asarray(pos, dtype=float).reshape(-1, 2)
    n = len(pos)
    edges = np.asarray(edges, dtype=np.int64).reshape(-1, 2)
    span = float((pos.max(axis=0) - pos.min(axis=0)).max()) if n else 1.0
    dmin = _min_distance(pos)
    if radius is None:
        radius = min(0.3, 0.45 * dmin) if labels_on else min(0.3, max(0.45 * dmin, 0.008 * max(span, 1.0)))
        if not np.isfinite(radius):
            radius = 0.3
    ax.set_aspect("equal")
    ax.set_xticks([])
    ax.set_yticks([])
    for side in ("top", "right", "bottom", "left"):
        ax.spines[side].set_visible(False)
    ext = pos if limits_from is None else np.asarray(limits_from, dtype=float).reshape(-1, 2)
    if len(ext):
        span = float((ext.max(axis=0) - ext.min(axis=0)).max())
        lo, hi = ext.min(axis=0), ext.max(axis=0)
        p = (0.05 * max(span, 1.0) + radius + 0.05) if pad is None else pad
        ax.set_xlim(lo[0] - p, hi[0] + p)
        ax.set_ylim(lo[1] - p, hi[1] + p)
    if len(edges):
        segs = np.stack([pos[edges[:, 0]], pos[edges[:, 1]]], axis=1)
        dense = len(edges) > 3 * max(n, 1) or n > 60
        ec = edge_colors if edge_colors is not None else [ROLE["edge"]] * len(edges)
        ew = edge_widths if edge_widths is not None else [0.5 if dense else 1.0] * len(edges)
        ls = edge_styles if edge_styles is not None else ["solid"] * len(edges)
        lc = LineCollection(segs, colors=ec, linewidths=ew, linestyles=ls, zorder=1, capstyle="round",
                            alpha=0.45 if dense and edge_colors is None else None)
        lc.set_gid("graphpriv-edges")
        ax.add_collection(lc)
    if face_colors is None:
        face_colors = [_tint(component_color(int(c))) for c in comp_ids]
    if node_edge_colors is None:
        node_edge_colors = [component_color(int(c)) for c in comp_ids]
    if node_edge_widths is None:
        node_edge_widths = [1.3 if n <= 60 else 0.6] * n
    d = 2 * radius
    sub = np.arange(n) if node_subset is None else np.asarray(node_subset, dtype=np.int64)
    face_colors = [face_colors[i] for i in sub]
    node_edge_colors = [node_edge_colors[i] for i in sub]
    node_edge_widths = [node_edge_widths[i] for i in sub]
    m = len(sub)
    nodes = EllipseCollection(np.full(m, d), np.full(m, d), np.zeros(m), units="xy", offsets=pos[sub],
                              offset_transform=ax.transData, facecolors=face_colors, edgecolors=node_edge_colors,
                              linewidths=node_edge_widths, zorder=2)
    nodes.set_gid("graphpriv-nodes")
    ax.add_collection(nodes)
    if labels_on and n:
        fs = fontsize or _label_fontsize(texts, radius * _points_per_unit(ax))
        for (x, y), t in zip(pos, texts):
            ax.text(x, y, t, ha="center", va="center", fontsize=fs, zorder=3)
    return nodes


def _labels_on(labels, n: int, limit: int = LABEL_MAX_NODES) -> bool:
    if labels is None or labels == "auto":
        return n <= limit
    return bool(labels)


def _bits_text(n_components: int) -> str:
    from math import log2

    if n_components <= 0:
        return ""
    return f"$I^*=\\log_2 {n_components}={log2(n_components):.2f}$ bits"


# --------------------------------------------------------------------------------------------------
# matrices
# --------------------------------------------------------------------------------------------------
@styled
def plot_incidence_matrix(matrix, ax=None, *, row_labels: Sequence | None = None, col_labels: Sequence | None = None,
                          cell_colors=None, color: str | None = None, cmap: str = "Blues", values: bool = False,
                          grid: bool | None = None, xlabel: str | None = None, ylabel: str | None = None,
                          colorbar: bool = False, max_ticks: int | None = None, fmt: str = "{:.2g}"):
    """Draw a (rows, columns) matrix as a grid of squares: boolean -> filled squares, numbers -> shading.

    The generic view behind :func:`plot_joint_range` (Fig. 1 style); also suited to the incidence matrix P
    of the hypergraph H_n (weighted entries shaded with ``cmap``).

    Parameters
    ----------
    matrix : array-like or scipy sparse, shape (R, C)
        Boolean (a square per True entry) or numeric (zero cells blank, others shaded by value).
    ax : matplotlib Axes, optional
    row_labels, col_labels : sequences, optional
        Tick labels (row 0 at the top). Thinned to at most ``max_ticks`` per axis (default: as many as fit
        the axes at about 8 points per label).
    cell_colors : array-like of colours, shape (R, C), optional
        Colour of each filled cell (overrides ``color``/``cmap``), e.g. by component.
    color : colour, optional
        Colour of filled cells of a boolean matrix (default ``ROLE["pair"]``).
    values : bool
        Write the numbers in the cells (small matrices).
    grid : bool, optional
        Light cell borders; default on when both dimensions are <= 60.
    colorbar : bool
        Add a colour bar for numeric matrices.

    Returns
    -------
    matplotlib Axes

    Raises
    ------
    InputError
        If the matrix is not two-dimensional, is empty, or contains NaN / negative values.

    Examples
    --------
    >>> from graphpriv.viz import plot_incidence_matrix
    >>> import numpy as np
    >>> ax = plot_incidence_matrix(np.eye(3, dtype=bool), row_labels=["a", "b", "c"])
    >>> [t.get_text() for t in ax.get_yticklabels()]
    ['a', 'b', 'c']
    """
    from matplotlib.colors import to_rgba

    m = matrix.toarray() if sp.issparse(matrix) else np.asarray(matrix)
    if m.ndim != 2:
        raise InputError(f"matrix must be two-dimensional, got shape {m.shape}")
    if m.size == 0:
        raise InputError("matrix is empty; nothing to draw")
    boolean = m.dtype == bool
    if not boolean:
        try:
            m = m.astype(float)
        except (TypeError, ValueError) as exc:
            raise InputError(f"matrix must be boolean or numeric, got dtype {m.dtype}") from exc
        if np.isnan(m).any():
            raise InputError("matrix contains NaN; replace missing entries by 0 before drawing")
        if (m < 0).any():
            raise InputError("matrix has negative entries; plot_incidence_matrix draws incidence/probability matrices (>= 0)")
    R, C = m.shape
    for name, lab, n in (("row_labels", row_labels, R), ("col_labels", col_labels, C)):
        if lab is not None and len(lab) != n:
            raise InputError(f"{name} has {len(lab)} entries but the matrix has {n}; give one label per {'row' if n == R else 'column'}")
    ax = axes_or_new(ax, COLUMN_WIDTH, None)
    filled = m if boolean else m > 0
    img = np.ones((R, C, 4))
    # square cells unless the matrix is far wider than tall (or the reverse): 7 rows by 2,700 columns drawn
    # square would be a hairline; then the cells stretch to fill the axes
    aspect = "equal" if max(R, C) <= MATRIX_SQUARE_RATIO * min(R, C) else "auto"
    im_artist = None
    if cell_colors is not None:
        cc = np.asarray(cell_colors, dtype=object)
        if cc.shape[:2] != (R, C):
            raise InputError(f"cell_colors has shape {cc.shape[:2]}, expected {(R, C)}")
        for i, j in zip(*np.nonzero(filled)):
            img[i, j] = to_rgba(cc[i, j])
        ax.imshow(img, interpolation="nearest", aspect=aspect)
    elif boolean or np.all((m == 0) | (m == 1)):
        img[filled] = to_rgba(color or ROLE["pair"])
        ax.imshow(img, interpolation="nearest", aspect=aspect)
    else:
        masked = np.ma.masked_where(~filled, m)
        im_artist = ax.imshow(masked, cmap=cmap, interpolation="nearest", aspect=aspect, vmin=0, vmax=float(m.max()))
        if colorbar:
            ax.figure.colorbar(im_artist, ax=ax, fraction=0.046, pad=0.04)
    if grid is None:
        grid = R <= 60 and C <= 60
    ax.set_xticks(np.arange(-0.5, C, 1), minor=True)
    ax.set_yticks(np.arange(-0.5, R, 1), minor=True)
    if grid:
        ax.grid(which="minor", color=ROLE["grid"], linewidth=0.6)
    ax.tick_params(which="minor", length=0)
    for side in ("top", "right", "bottom", "left"):
        ax.spines[side].set_visible(True)
        ax.spines[side].set_color("#808080")
        ax.spines[side].set_linewidth(0.6)

    bbox = ax.get_window_extent()
    w_pts, h_pts = bbox.width * 72 / ax.figure.dpi, bbox.height * 72 / ax.figure.dpi
    # with aspect "equal" the drawn grid is the smaller of the two scales; stretched cells have one per axis
    cell = min(w_pts / C, h_pts / R)
    cell_x, cell_y = (cell, cell) if aspect == "equal" else (w_pts / C, h_pts / R)

    def _ticks(n, lab, cell):
        fit = max(2, int(n * cell / 8.0))
        limit = min(fit, max_ticks) if max_ticks else fit
        step = max(1, int(np.ceil(n / limit)))
        idx = np.arange(0, n, step)
        if lab is None:
            return idx, [str(i) for i in idx]
        # numbers: one format for the whole axis (never 3.1 next to 5.3397); text: elided, never a whole margin
        one = number_format(lab) if all(_number_of(v) is not None for v in lab) else format_label
        txt = [elide_value(one(lab[i]), TICK_LABEL_CHARS) for i in idx]
        return idx, txt

    xi, xt = _ticks(C, col_labels, cell_x)
    yi, yt = _ticks(R, row_labels, cell_y)
    ax.set_xticks(xi)
    ax.set_xticklabels(xt, rotation=90 if C > 12 else 0)
    ax.set_yticks(yi)
    ax.set_yticklabels(yt)
    if values:
        for i, j in zip(*np.nonzero(filled)):
            v = m[i, j]
            ax.text(j, i, "1" if boolean else fmt.format(v), ha="center", va="center", fontsize=6,
                    color="white" if (boolean or im_artist is None or v > 0.6 * m.max()) else "black")
    if xlabel:
        ax.set_xlabel(xlabel)
    if ylabel:
        ax.set_ylabel(ylabel)
    return ax


@styled
def plot_joint_range(jr: JointRange, ax=None, *, color_by: str = "single", title: str | bool | None = None,
                     xlabel: str = "public data $X$", ylabel: str = "sensitive data $S$", **kwargs):
    """Draw the joint range [[S, X]] as a grid: S rows, X columns, a filled square per pair (paper 003, Fig. 1).

    Parameters
    ----------
    jr : JointRange
    ax : matplotlib Axes, optional
    color_by : {"single", "component"}
        ``"single"``: every pair in ``ROLE["pair"]`` blue as in the paper; ``"component"``: each pair in the
        colour of its component of G_X (the finest decomposition; :func:`graphpriv.finest_decomposition`).
    title : str or bool, optional
        A title; ``True`` writes |S|, |X| and the number of pairs.
    **kwargs
        Passed to :func:`plot_incidence_matrix` (``values``, ``grid``, ``max_ticks``...).

    Returns
    -------
    matplotlib Axes

    Examples
    --------
    >>> import graphpriv as gp
    >>> jr, _ = gp.datasets.paper_example()
    >>> ax = gp.viz.plot_joint_range(jr)
    >>> len(ax.get_xticks()), len(ax.get_yticks())      # 7 public values, 6 sensitive values
    (7, 6)

    Notes
    -----
    O(|S| |X|) (a dense image); tick labels are thinned past 40 per axis.
    """
    _check_jr(jr)
    check_plot_range("joint_range", jr)
    if color_by not in ("single", "component"):
        raise InputError(f"color_by={color_by!r} must be 'single' or 'component'")
    m = jr.matrix.toarray().astype(bool)
    cell_colors = None
    if color_by == "component":
        comp = _components(jr)
        cell_colors = np.empty(m.shape, dtype=object)
        cell_colors[:] = "white"
        for j in range(jr.n_public):
            cell_colors[:, j] = component_color(int(comp[j]))
    ax = plot_incidence_matrix(m, ax, row_labels=jr.sensitive_labels.tolist(), col_labels=jr.public_labels.tolist(),
                               cell_colors=cell_colors, xlabel=xlabel, ylabel=ylabel, **kwargs)
    if title is True:
        title = rf"$[\![S,X]\!]$: $|S|={jr.n_sensitive}$, $|X|={jr.n_public}$, {jr.n_pairs} pairs"
    if title:
        ax.set_title(title)
    return ax


# --------------------------------------------------------------------------------------------------
# graphs
# --------------------------------------------------------------------------------------------------
@styled
@contained
def plot_confusability(jr: JointRange, ax=None, *, layout: str | Mapping = "components", bipartite: bool = False,
                       labels: bool | str | None = "auto", title: str | bool | None = True, seed: int = 0,
                       highlight: Sequence[Hashable] | None = None, view: str = "auto"):
    """Draw the confusability graph G_X with its components coloured (paper 003, Fig. 2), or the bipartite view.

    Parameters
    ----------
    jr : JointRange
        A joint range; a quantised range from :func:`graphpriv.quantize_range` (tuple labels) draws its
        super-nodes as :math:`x_{13}` etc.
    ax : matplotlib Axes, optional
    layout : str or mapping
        See :func:`graph_layout` (G_X view only).
    bipartite : bool
        Draw the bipartite support graph instead: sensitive values (squares, top row) joined to public values
        (circles, bottom row), both ordered by component so edges do not cross between components; edges
        take their component's colour.
    labels : bool or "auto"
        Node labels; "auto" labels graphs of up to :data:`LABEL_MAX_NODES` nodes.
    title : str or bool
        ``True`` writes the number of components and I*(S;X) = log2 of it.
    highlight : sequence of public labels, optional
        Nodes drawn with a thick ``ROLE["merge"]`` ring.
    view : {"auto", "node-link", "components"}
        "node-link" draws every public value (and edge); "components" draws the quotient of G_X by its
        components -- one disc per component, area proportional to its number of public values, labelled
        with its members and its numbers of public and sensitive values -- which stays legible at any size;
        "auto" (default) draws node-link up to :data:`NODE_LINK_MAX_NODES` public values (or, for the
        bipartite view, sensitive plus public values) and components beyond.

    Returns
    -------
    matplotlib Axes

    Examples
    --------
    >>> import graphpriv as gp
    >>> jr, _ = gp.datasets.paper_example()
    >>> ax = gp.viz.plot_confusability(jr)
    >>> print(ax.get_title())
    $G_X$: 5 components
    $I^*=\\log_2 5=2.32$ bits
    >>> len(ax.collections[-1].get_offsets())       # one node per public value
    7

    Notes
    -----
    Builds G_X (up to sum_s |[[X|s]]|^2 / 2 edges); meant for graphs a reader can see (hundreds of nodes).
    """
    _check_jr(jr)
    if view not in ("auto", "node-link", "components"):
        raise InputError(f"view must be 'auto', 'node-link' or 'components', got {view!r}")
    n_nodes = jr.n_public + (jr.n_sensitive if bipartite else 0)
    if view == "components" or (view == "auto" and n_nodes > NODE_LINK_MAX_NODES):
        return _plot_component_discs(jr, ax, title, bipartite)
    check_plot_range("confusability", jr, extra_nodes=jr.n_sensitive if bipartite else 0)
    comp = _components(jr)
    n_comp = int(comp.max()) + 1 if comp.size else 0
    x_labels = jr.public_labels.tolist()
    if bipartite:
        return _plot_bipartite(jr, comp, ax, labels, title, n_comp)
    ax = axes_or_new(ax, COLUMN_WIDTH, None)
    posd = graph_layout(jr, layout, seed=seed)
    pos = np.array([posd[x] for x in x_labels])
    edges = _g_edges(jr)
    on = _labels_on(labels, jr.n_public)
    texts = [format_label(x) for x in x_labels]
    nec, new = None, None
    if highlight:
        hl = set(highlight)
        unknown = [h for h in hl if h not in posd]
        if unknown:
            raise InputError(f"highlight names unknown public value(s) {unknown[:3]}")
        nec = [ROLE["merge"] if x in hl else component_color(int(c)) for x, c in zip(x_labels, comp)]
        new = [2.6 if x in hl else 1.4 for x in x_labels]
    _draw_graph(ax, pos, edges, texts, comp, labels_on=on, node_edge_colors=nec, node_edge_widths=new)
    if title is True:
        title = f"$G_X$: {n_comp} component{'s' if n_comp != 1 else ''}\n{_bits_text(n_comp)}"
    if title:
        ax.set_title(title)
    return ax


#: Components drawn one by one by the component view; the rest are summarised in one grey disc.
COMPONENT_DISCS_MAX = 12


def _plot_component_discs(jr: JointRange, ax, title, bipartite: bool):
    """The quotient of G_X by its components: one disc per component (area ∝ its public values), largest
    first in rows, each labelled with its members and |X|/|S| counts; beyond COMPONENT_DISCS_MAX
    components the smallest are summarised in one grey disc."""
    from matplotlib.patches import Circle

    from ..graphs.support import components

    c = components(jr)
    cx, cs = np.asarray(c.public), np.asarray(c.sensitive)
    n_comp = int(cx.max()) + 1 if cx.size else 0
    nx_ = np.bincount(cx, minlength=n_comp)
    ns_ = np.bincount(cs, minlength=n_comp) if cs.size else np.zeros(n_comp, dtype=int)
    order = np.lexsort((np.arange(n_comp), -nx_))
    shown, rest = order[:COMPONENT_DISCS_MAX], order[COMPONENT_DISCS_MAX:]
    labels = jr.public_labels.tolist()
    members = [[] for _ in range(n_comp)]
    for j, k in enumerate(cx.tolist()):
        members[k].append(labels[j])
    items = [(nx_[k], ns_[k], cluster_label(members[k], labels, max_members=3), component_color(int(k))) for k in shown.tolist()]
    if rest.size:
        items.append((int(nx_[rest].sum()), int(ns_[rest].sum()), f"{rest.size} smaller components", "#bbbbbb"))
    per_row = 4
    n_rows = max(1, -(-len(items) // per_row))
    gap = 1.45   # rows of discs, one unit per column: room for three lines of label under each disc
    ax = axes_or_new(ax, COLUMN_WIDTH, COLUMN_WIDTH * (0.5 + 0.37 * (n_rows - 1)))
    rmax = 0.42
    ax.set_xlim(0, per_row)
    ax.set_ylim(-(n_rows - 1) * gap - rmax - 0.75, rmax + 0.08)
    ax.set_aspect("equal")
    ax.axis("off")
    # characters per line that fit in one disc's column (one unit wide), so neighbouring labels never touch
    ppu = _points_per_unit(ax)
    fit = max(6, min(18, int(0.9 * ppu / (0.62 * 6))))        # letters: about 0.6 em
    fit_digits = int(0.95 * ppu / (0.5 * 6))                    # digits, '|' and '=': narrower
    big = max(it[0] for it in items) if items else 1
    for i, (n_x, n_s, text, colour) in enumerate(items):
        row, col = divmod(i, per_row)
        x, y = col + 0.5, -row * gap
        r = max(0.06, rmax * np.sqrt(n_x / big))
        ax.add_patch(Circle((x, y), r, facecolor=_tint(colour), edgecolor=colour, linewidth=1.4))
        counts = f"|X|={n_x} |S|={n_s}"
        if len(counts) > fit_digits:
            counts = f"|X|={n_x}\n|S|={n_s}"
        wrapped = wrap_label(text, fit, 2)   # elided in the middle: the count and the last value stay
        ax.text(x, y - rmax - 0.06, f"{counts}\n{wrapped}", ha="center", va="top", fontsize=6, url=text,
                gid="graphpriv-component-disc-label")
    if title is True:
        what = "support graph" if bipartite else "$G_X$"
        title = (f"{what}: {n_comp} component{'s' if n_comp != 1 else ''} of {jr.n_public} public values\n"
                 f"(one disc each, area ∝ |X|), {_bits_text(n_comp)}")
    if title:
        ax.set_title(title)
    return ax


def _plot_bipartite(jr: JointRange, comp: np.ndarray, ax, labels, title, n_comp: int):
    from ..graphs.support import components

    c = components(jr)
    ax = axes_or_new(ax, COLUMN_WIDTH, COLUMN_WIDTH * 0.55)
    x_order = np.lexsort((np.arange(jr.n_public), c.public))
    s_order = np.lexsort((np.arange(jr.n_sensitive), c.sensitive))
    nx_, ns = jr.n_public, jr.n_sensitive
    width = max(nx_, ns, 2) - 1
    xpos = np.zeros((nx_, 2))
    spos = np.zeros((ns, 2))
    xpos[x_order, 0] = np.linspace(0, width, nx_) if nx_ > 1 else width / 2
    spos[s_order, 0] = np.linspace(0, width, ns) if ns > 1 else width / 2
    height = max(1.5, 0.35 * width)
    spos[:, 1] = height
    coo = jr.matrix.tocoo()
    pos = np.vstack([spos, xpos])
    edges = np.column_stack([coo.row, coo.col + ns])
    ecol = [component_color(int(c.public[j])) for j in coo.col]
    on = _labels_on(labels, ns + nx_)
    texts = [format_label(s) for s in jr.sensitive_labels.tolist()] + [format_label(x) for x in jr.public_labels.tolist()]
    from matplotlib.collections import PatchCollection
    from matplotlib.patches import Rectangle

    comp_all = np.concatenate([c.sensitive, c.public])
    radius = min(0.3, 0.45 * _min_distance(pos)) if on else None
    nodes = _draw_graph(ax, pos, edges, texts, comp_all, edge_colors=ecol, labels_on=False, radius=radius,
                        node_subset=np.arange(ns, ns + nx_), pad=0.6)
    r = nodes.get_widths()[0] / 2 if nx_ else 0.3
    squares = PatchCollection([Rectangle((x - r, y - r), 2 * r, 2 * r) for x, y in spos], facecolors=_tint(ROLE["sensitive"]),
                              edgecolors=ROLE["sensitive"], linewidths=1.2, zorder=2)
    squares.set_gid("graphpriv-sensitive-nodes")
    ax.add_collection(squares)
    if on:
        fs = _label_fontsize(texts, r * _points_per_unit(ax))
        for (x, y), t in zip(pos, texts):
            ax.text(x, y, t, ha="center", va="center", fontsize=fs, zorder=3)
    ax.text(-0.02, height, "$S$", ha="right", va="center", transform=ax.get_yaxis_transform(), fontsize=9, color=ROLE["sensitive"])
    ax.text(-0.02, 0.0, "$X$", ha="right", va="center", transform=ax.get_yaxis_transform(), fontsize=9, color=ROLE["public"])
    if title is True:
        title = f"support graph: {n_comp} component{'s' if n_comp != 1 else ''}\n{_bits_text(n_comp)}"
    if title:
        ax.set_title(title)
    return ax


@styled
@contained
def plot_min_cut(jr: JointRange, cut=None, ax=None, *, layout: str | Mapping = "components",
                 labels: bool | str | None = "auto", title: str | bool | None = True, seed: int = 0,
                 legend: bool = True, view: str = "auto"):
    """Draw G_X split by a minimum cut {X', [[X]] \\ X'} with the cut edges highlighted (paper 003, Section IV).

    Parameters
    ----------
    jr : JointRange
    cut : MinCut, optional
        From :func:`graphpriv.min_cut` (global or s--t); computed with ``gp.min_cut(jr)`` when None.
    ax : matplotlib Axes, optional
    layout, labels, seed
        As in :func:`plot_confusability`.
    title : str or bool
        ``True`` writes the cut value kappa and the size of each side.
    legend : bool
        A legend under the panel naming the two sides (with their sizes) and the cut edges.
    view : {"auto", "node-link", "sides"}
        "node-link" draws every public value and edge of G_X; "sides" draws the two sides of the cut as
        two discs joined by a band labelled with the number of cut edges, and lists the cut edges with the
        sensitive values they share (:func:`graphpriv.viz.plot_cut_sides`), legible at any size; "auto"
        (default) draws node-link up to :data:`NODE_LINK_MAX_NODES` public values and sides beyond.

    Returns
    -------
    matplotlib Axes
        Nodes of the side X' are drawn in ``ROLE["cut_side"]``, the others in ``ROLE["cut_other"]`` (both outside
        the component palette, so a cut is never read as components); cut edges are thick and dashed in
        ``ROLE["cut"]``.

    Examples
    --------
    >>> import graphpriv as gp
    >>> jr, _ = gp.datasets.paper_example()
    >>> ax = gp.viz.plot_min_cut(jr, gp.min_cut(jr, "x1", "x2"))
    >>> print(ax.get_title())
    $s$-$t$ cut $\\kappa=1$
    6 vs 1 nodes, 1 cut edge
    """
    _check_jr(jr)
    if view not in ("auto", "node-link", "sides"):
        raise InputError(f"view must be 'auto', 'node-link' or 'sides', got {view!r}")
    if view == "auto":
        view = "node-link" if jr.n_public <= NODE_LINK_MAX_NODES else "sides"
    if view == "node-link":
        check_plot_range("confusability", jr)
    else:
        check_plot_labels(jr)
    from ..graphs.cuts import MinCut, min_cut

    if cut is None:
        cut = min_cut(jr)
    if not isinstance(cut, MinCut):
        raise InputTypeError(f"cut must be a MinCut from gp.min_cut, got {type(cut).__name__}")
    x_labels = jr.public_labels.tolist()
    universe = set(x_labels)
    if not (set(cut.side) | set(cut.other)) == universe:
        raise InputError("cut does not partition this joint range's public values; compute it with gp.min_cut(jr) on the same range")
    if view == "sides":
        from .cuts import plot_cut_sides

        return plot_cut_sides(jr, cut, ax, title=title, legend=legend)
    ax = axes_or_new(ax, COLUMN_WIDTH, None)
    posd = graph_layout(jr, layout, seed=seed)
    pos = np.array([posd[x] for x in x_labels])
    edges = _g_edges(jr)
    side = np.array([x in cut.side for x in x_labels])
    crossing = side[edges[:, 0]] != side[edges[:, 1]] if len(edges) else np.zeros(0, dtype=bool)
    dense = len(edges) > 3 * max(jr.n_public, 1) or jr.n_public > 60
    ecol = [ROLE["cut"] if c else (_tint(ROLE["edge"], 0.45) if dense else ROLE["edge"]) for c in crossing]
    ew = [2.2 if c else (0.5 if dense else 1.0) for c in crossing]
    es = ["--" if c else "solid" for c in crossing]
    side_col = [ROLE["cut_side"] if s else ROLE["cut_other"] for s in side]
    on = _labels_on(labels, jr.n_public)
    texts = [format_label(x) for x in x_labels]
    _draw_graph(ax, pos, edges, texts, np.zeros(jr.n_public, dtype=int), edge_colors=ecol, edge_widths=ew, edge_styles=es,
                face_colors=[_tint(c) for c in side_col], node_edge_colors=side_col, labels_on=on)
    n_cross = int(crossing.sum())
    if legend:
        from matplotlib.lines import Line2D

        def disc(c, text):
            return Line2D([], [], marker="o", markersize=6, markerfacecolor=_tint(c), markeredgecolor=c, linestyle="none",
                          label=text)

        handles = [disc(ROLE["cut_side"], f"side $X'$ ({len(cut.side)})"),
                   disc(ROLE["cut_other"], rf"$[\![X]\!]\setminus X'$ ({len(cut.other)})"),
                   Line2D([], [], color=ROLE["cut"], linestyle="--", linewidth=2.0, label=f"cut edge ({n_cross})")]
        ax.legend(handles=handles, loc="upper center", bbox_to_anchor=(0.5, 0.0), ncol=3, frameon=False, fontsize=6,
                  handlelength=1.6, columnspacing=0.8, handletextpad=0.4, borderaxespad=0.2)
    if title is True:
        is_st = cut.s is not None or _is_st_cut(jr, cut)
        head = "$s$-$t$ cut" if is_st else "min cut"
        title = rf"{head} $\kappa={cut.value}$" + f"\n{len(cut.side)} vs {len(cut.other)} nodes, {n_cross} cut edge{'s' if n_cross != 1 else ''}"
    if title:
        ax.set_title(title)
    return ax


def _is_st_cut(jr: JointRange, cut) -> bool:
    """A global min cut has the first public value on its side and value == global min; else s-t."""
    from ..graphs.cuts import min_cut

    try:
        return cut.value != min_cut(jr).value or jr.public_labels[0] not in cut.side
    except Exception:  # pragma: no cover - defensive, title only
        return False
