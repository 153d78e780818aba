"""Pictures of the sample hypergraph H_n (paper 004): incidence matrix, Levi graph, hyperedges, polytope S.

* :func:`plot_incidence` -- a block-structured heatmap of any (sparse) 0/1 or weighted matrix; it is
  generic (row blocks, labels) so a joint range's (|S|, |X|) matrix can use it too.
* :func:`plot_hypergraph_incidence` -- P of a :class:`~graphpriv.SampleHypergraph` (rows = sample
  values in blocks, columns = support points, weights p(x^n) on top), optionally with a null basis.
* :func:`plot_levi_graph` -- the bipartite (Levi) graph: value nodes on the left by sample, hyperedge
  nodes on the right, coloured by connected component.
* :func:`plot_hyperedges` -- parallel coordinates, one axis per sample, one polyline per hyperedge
  (for n = 2 this is the bipartite support graph); coloured by component, or by output y of a
  disclosure mapping with width proportional to p(x^n, y).
* :func:`plot_privacy_polytope` -- S in null-space coordinates (segment for nul = 1, polygon for
  nul = 2, a 2-D projection otherwise), vertices labelled with their LP costs, p marked and the
  optimal cell shaded.
* :func:`plot_channel` -- a channel p(x | w) as a two-column transition diagram (paper 004, Fig. 3).
"""

from __future__ import annotations

from typing import Sequence

import numpy as np
import scipy.sparse as sp
from matplotlib.lines import Line2D

from .style import PALETTE, ROLE, axes_or_new, component_color, new_figure

__all__ = [
    "plot_incidence",
    "plot_hypergraph_incidence",
    "plot_levi_graph",
    "plot_hyperedges",
    "plot_privacy_polytope",
    "plot_channel",
]


def _fmt_label(v) -> str:
    if isinstance(v, (float, np.floating)) and float(v).is_integer():
        return str(int(v))
    return str(v)


def plot_incidence(matrix, *, row_blocks: Sequence[int] | None = None, block_names: Sequence[str] | None = None,
                   row_labels: Sequence[str] | None = None, col_labels: Sequence[str] | None = None, ax=None,
                   cmap: str = "Blues", colorbar: bool = False, title: str | None = None, xlabel: str | None = None,
                   annotate: bool | None = None):
    """Heatmap of a (sparse) incidence or weight matrix with optional row blocks.

    Parameters
    ----------
    matrix : array_like or scipy sparse, shape (R, C)
        0/1 incidence (drawn as filled cells) or non-negative weights (colour scale); signed
        matrices use a diverging scale.
    row_blocks : sequence of int, optional
        Sizes of consecutive row blocks (e.g. |X_1|, ..., |X_n|); separators are drawn between them.
    block_names : sequence of str, optional
        A name per block, written left of the block.
    row_labels, col_labels : sequence of str, optional
    ax : matplotlib Axes, optional
    annotate : bool, optional
        Write the values in the cells (default: for small non-binary matrices).

    Returns
    -------
    matplotlib Axes

    Examples
    --------
    >>> from graphpriv.viz import plot_incidence
    >>> import numpy as np
    >>> ax = plot_incidence(np.eye(3), row_blocks=[1, 2], block_names=["A", "B"])
    >>> ax.images[0].get_array().shape
    (3, 3)
    """
    M = matrix.toarray() if sp.issparse(matrix) else np.asarray(matrix, dtype=float)
    M = np.asarray(M, dtype=float)
    R, C = M.shape
    ax = axes_or_new(ax, width=max(2.0, min(7.16, 0.35 * C + 1.2)), height=max(1.5, min(6.0, 0.3 * R + 0.8)))
    signed = (M < 0).any()
    binary = np.isin(M, (0.0, 1.0)).all()
    if signed:
        vmax = max(np.abs(M).max(), 1e-12)
        im = ax.imshow(M, cmap="RdBu_r", vmin=-vmax, vmax=vmax, aspect="auto", interpolation="nearest")
    elif binary:
        from matplotlib.colors import ListedColormap

        im = ax.imshow(M, cmap=ListedColormap(["white", ROLE["public"]]), vmin=0, vmax=1, aspect="auto", interpolation="nearest")
    else:
        im = ax.imshow(M, cmap=cmap, vmin=0, aspect="auto", interpolation="nearest")
    ax.set_xticks(np.arange(C) - 0.5, minor=True)
    ax.set_yticks(np.arange(R) - 0.5, minor=True)
    ax.grid(which="minor", color=ROLE["grid"], linewidth=0.5)
    ax.tick_params(which="minor", length=0)
    for side in ("top", "right", "bottom", "left"):
        ax.spines[side].set_visible(True)
        ax.spines[side].set_linewidth(0.6)
    if row_blocks is not None:
        edges = np.cumsum(row_blocks)[:-1]
        for e in edges:
            ax.axhline(e - 0.5, color=ROLE["exact"], linewidth=1.0)
        if block_names is not None:
            starts = np.concatenate([[0], np.cumsum(row_blocks)[:-1]])
            for s0, m, name in zip(starts, row_blocks, block_names):
                ax.annotate(name, xy=(0, s0 + (m - 1) / 2), xycoords=("axes fraction", "data"), xytext=(-28, 0),
                            textcoords="offset points", ha="right", va="center", fontsize=7, fontweight="bold")
    ax.set_yticks(np.arange(R))
    ax.set_yticklabels(row_labels if row_labels is not None else [str(i) for i in range(R)])
    ax.set_xticks(np.arange(C))
    ax.set_xticklabels(col_labels if col_labels is not None else [str(j) for j in range(C)],
                       rotation=90 if C > 8 else 0, fontsize=6 if C > 12 else 7)
    if annotate is None:
        annotate = (not binary) and R * C <= 120
    if annotate:
        for i in range(R):
            for j in range(C):
                if M[i, j] != 0:
                    ax.text(j, i, f"{M[i, j]:.2g}", ha="center", va="center", fontsize=5.5,
                            color="white" if abs(M[i, j]) > 0.6 * np.abs(M).max() else "black")
    if xlabel:
        ax.set_xlabel(xlabel)
    if title:
        ax.set_title(title)
    if colorbar:
        ax.figure.colorbar(im, ax=ax, fraction=0.04, pad=0.02)
    return ax


def _point_label(hg, pt) -> str:
    return "(" + ",".join(_fmt_label(hg.labels[i][a]) for i, a in enumerate(pt)) + ")"


def plot_hypergraph_incidence(hg, *, ax=None, null_basis: str | None = None, title: str | None = None):
    """The incidence matrix P of H_n (paper 004, eq. (3)), rows grouped by sample, columns = support points.

    With ``null_basis="circuits"`` or ``"svd"`` the null basis is drawn below P as a signed heatmap
    (the balanced signed hyperedge weightings: Null(P), Proposition 1). Column labels carry p(x^n) when weighted.

    Returns
    -------
    matplotlib Axes (the incidence panel)

    Examples
    --------
    >>> from graphpriv.viz import plot_hypergraph_incidence
    >>> import numpy as np
    >>> from graphpriv import SampleHypergraph
    >>> ax = plot_hypergraph_incidence(SampleHypergraph.from_pmf(np.full((2, 2), 0.25)), null_basis="circuits")
    >>> ax.get_title()
    'Incidence matrix P of $H_{2}$ (rank 3, nullity 1)'
    """
    P = hg.incidence.toarray()
    cols = [_point_label(hg, pt) for pt in hg.support]
    if hg.weights is not None and hg.n_edges <= 16:
        cols = [f"{c}\n{w:.3g}" for c, w in zip(cols, hg.weights)]
    rows = [f"{_fmt_label(hg.labels[i][a])}" for i, m in enumerate(hg.sizes) for a in range(m)]
    if null_basis is not None and ax is None:
        N = hg.null_basis(null_basis)
        fig, axes = new_figure(max(2.5, min(7.16, 0.4 * hg.n_edges + 1.5)), 0.3 * (P.shape[0] + N.shape[1]) + 1.6, nrows=2,
                               gridspec_kw=dict(height_ratios=[P.shape[0], max(N.shape[1], 1)]), sharex=True)
        ax, ax2 = axes
    else:
        ax = axes_or_new(ax, width=max(2.5, min(7.16, 0.4 * hg.n_edges + 1.5)), height=0.3 * P.shape[0] + 1.2)
        ax2 = None
    plot_incidence(P, row_blocks=hg.sizes, block_names=list(hg.names), row_labels=rows, col_labels=cols, ax=ax,
                   title=title or f"Incidence matrix P of $H_{{{hg.n}}}$ (rank {hg.rank}, nullity {hg.nullity})")
    if ax2 is not None:
        N = hg.null_basis(null_basis)
        if N.shape[1]:
            plot_incidence(N.T, row_labels=[f"$n_{k + 1}$" for k in range(N.shape[1])], col_labels=cols, ax=ax2,
                           annotate=N.shape[1] * hg.n_edges <= 80)
        ax2.set_title("null basis of P (signed hyperedge weights)", fontsize=8)
    return ax


def _vertex_positions(hg, gap: float = 0.8):
    pos, y = {}, 0.0
    for i, m in enumerate(hg.sizes):
        for a in range(m):
            pos[(i, a)] = y
            y -= 1.0
        y -= gap
    return pos, -y - gap


def plot_levi_graph(hg, *, ax=None, title: str | None = None):
    """The bipartite (Levi) graph of H_n: value nodes (left, grouped by sample) joined to hyperedge nodes (right).

    Nodes and edges are coloured by connected component; hyperedge node area is proportional to
    p(x^n); isolated (zero-marginal) values are drawn hollow.

    Returns
    -------
    matplotlib Axes

    Examples
    --------
    >>> from graphpriv.viz import plot_levi_graph
    >>> import numpy as np
    >>> from graphpriv import SampleHypergraph
    >>> plot_levi_graph(SampleHypergraph.from_pmf(np.eye(2) / 2)).get_title()
    'Levi graph of $H_{2}$: 2 component(s)'
    """
    pos, height = _vertex_positions(hg)
    E = hg.n_edges
    ax = axes_or_new(ax, width=3.5, height=max(2.0, 0.18 * max(height, E) + 0.8))
    comp = hg.components()
    ey = np.linspace(0, -(height - 1), E) if E > 1 else np.array([-(height - 1) / 2])
    w = hg.weights if hg.weights is not None else np.full(E, 1.0 / E)
    for j, pt in enumerate(hg.support):
        c = component_color(int(comp.edge[j]))
        for i, a in enumerate(pt):
            ax.plot([0, 1], [pos[(i, int(a))], ey[j]], color=c, linewidth=0.7, alpha=0.7, zorder=1)
    for (i, a), y in pos.items():
        k = comp.common_part()[i][a]
        face = component_color(int(k)) if k >= 0 else "white"
        ax.scatter([0], [y], s=36, color=face, edgecolor=ROLE["exact"], linewidth=0.6, zorder=3)
        ax.text(-0.06, y, f"{hg.names[i]}={_fmt_label(hg.labels[i][a])}", ha="right", va="center", fontsize=7)
    sizes = 12 + 110 * w / w.max()
    ax.scatter(np.ones(E), ey, s=sizes, marker="s", color=[component_color(int(k)) for k in comp.edge],
               edgecolor=ROLE["exact"], linewidth=0.5, zorder=3)
    if E <= 24:
        for j, pt in enumerate(hg.support):
            ax.text(1.12, ey[j], _point_label(hg, pt) + (f"  p={w[j]:.3g}" if hg.weights is not None else ""),
                    ha="left", va="center", fontsize=6.5)
    ax.set_xlim(-0.75, 2.0)
    ax.axis("off")
    ax.set_title(title or f"Levi graph of $H_{{{hg.n}}}$: {comp.n_components} component(s)")
    return ax


def plot_hyperedges(hg, *, result=None, ax=None, title: str | None = None, max_width: float = 6.0):
    """Parallel-coordinates drawing of H_n: one vertical axis per sample, one polyline per hyperedge.

    Without ``result`` polylines are coloured by connected component with width proportional to
    p(x^n). With a :class:`~graphpriv.SynergisticDisclosure` (or any object with ``mapping`` and
    ``hypergraph``) each hyperedge is split into one line per output y (colour = y), width
    proportional to p(x^n, y): each colour class is a vertex of S -- a forest and an edge cover for
    n = 2 (Algorithm 1's bases are spanning forests of H_2). For n = 2 this is the bipartite support graph.
    The lines through a vertex are stacked side by side in a band centred on it (widths in data units,
    so the band holds together at any size).

    Returns
    -------
    matplotlib Axes

    Examples
    --------
    >>> from graphpriv.viz import plot_hyperedges
    >>> import numpy as np
    >>> from graphpriv import SampleHypergraph, self_disclosure
    >>> res = self_disclosure(np.full((2, 2), 0.25))
    >>> ax = plot_hyperedges(res.hypergraph, result=res)
    >>> [t.get_text() for t in ax.get_legend().get_texts()]
    ['y=1', 'y=2']
    """
    n = hg.n
    ax = axes_or_new(ax, width=max(2.4, 1.2 * n + 1.0), height=max(1.8, 0.35 * max(hg.sizes) + 0.9))
    w = hg.weights if hg.weights is not None else np.full(hg.n_edges, 1.0 / hg.n_edges)
    xs = np.arange(n)

    def ypos(i, a):
        m = hg.sizes[i]
        return (m - 1) / 2 - a

    if result is None:
        comp = hg.components()
        for j, pt in enumerate(hg.support):
            ax.plot(xs, [ypos(i, int(a)) for i, a in enumerate(pt)], color=component_color(int(comp.edge[j])),
                    linewidth=0.4 + max_width * w[j] / w.max(), alpha=0.75, solid_capstyle="round", zorder=1)
    else:
        K = result.mapping[:, hg.flat_index]
        joint = K * w[None, :]
        L = K.shape[0]
        _set_parallel_limits(ax, hg, ypos)
        pairs = [(y, j) for y in range(L) for j in range(len(hg.support)) if joint[y, j] > 1e-12]
        widths, ys = _bundles(hg, pairs, joint, ypos)
        for (y, j), width, yy in zip(pairs, widths, ys):
            ax.add_line(_DataWidthLine(xs, yy, width, color=PALETTE[y % len(PALETTE)], alpha=0.8, solid_capstyle="butt",
                                       zorder=1))
        from matplotlib.lines import Line2D

        handles = [Line2D([], [], color=PALETTE[y % len(PALETTE)], linewidth=2, label=f"y={y + 1}") for y in range(L)]
        ax.legend(handles=handles, loc="upper center", bbox_to_anchor=(0.5, -0.12), ncol=min(L, 5), frameon=False, fontsize=6.5)
    for i in range(n):
        m = hg.sizes[i]
        ys = [ypos(i, a) for a in range(m)]
        ax.plot([i, i], [min(ys) - 0.3, max(ys) + 0.3], color=ROLE["grid"], linewidth=3, zorder=0)
        ax.scatter([i] * m, ys, s=28, color="white", edgecolor=ROLE["exact"], linewidth=0.7, zorder=3)
        for a in range(m):
            ax.text(i + (-0.08 if i == 0 else 0.08), ypos(i, a), _fmt_label(hg.labels[i][a]),
                    ha="right" if i == 0 else "left", va="center", fontsize=7)
    ax.set_xticks(xs)
    ax.set_xticklabels(hg.names)
    ax.set_yticks([])
    ax.spines["left"].set_visible(False)
    ax.spines["bottom"].set_visible(False)
    ax.tick_params(axis="x", length=0)
    ax.set_xlim(-0.4, n - 0.6)
    if title is None:
        title = "hyperedges by output y" if result is not None else f"hyperedges of $H_{{{n}}}$"
    ax.set_title(title)
    return ax


def _set_parallel_limits(ax, hg, ypos) -> None:
    """Fixed y limits of the parallel-coordinates drawing (the bundle offsets are computed in them)."""
    lo = min(ypos(i, hg.sizes[i] - 1) for i in range(hg.n))
    hi = max(ypos(i, 0) for i in range(hg.n))
    ax.set_ylim(lo - 0.55, hi + 0.55)


class _DataWidthLine(Line2D):
    """A line whose width is given in data units of its y axis (recomputed in points at every draw), so lines
    stacked by their widths in data coordinates stay side by side at any figure size or layout."""

    def __init__(self, x, y, data_width: float, **kwargs):
        super().__init__(x, y, **kwargs)
        self.data_width = float(data_width)

    def draw(self, renderer):
        if self.axes is not None:
            a, b = self.axes.transData.transform([(0.0, 0.0), (0.0, self.data_width)])
            self._linewidth = max(abs(b[1] - a[1]) * 72.0 / self.figure.dpi, 0.3)
        super().draw(renderer)


#: Parallel coordinates by output: the lines through one vertex fill at most this share of the distance between
#: two vertices; the widest line is at most ``_BAND_MAX`` and the thinnest at least ``_BAND_MIN`` (data units),
#: with ``_BAND_GAP`` between neighbours.
_BAND_ROOM, _BAND_MAX, _BAND_MIN, _BAND_GAP = 0.5, 0.2, 0.012, 0.012


def _bundles(hg, pairs, joint, ypos) -> tuple[list[float], list[np.ndarray]]:
    """Widths (data units) and y coordinates on every axis of the lines ``(y, j)`` (output y through hyperedge
    j): widths proportional to p(x^n, y), small enough that the lines through any vertex fit side by side in
    half the distance between two vertices; the lines through one vertex are stacked in a bundle centred on
    it, ordered by where they go next (upward first), so no band floats beside its vertex."""
    through: dict[tuple[int, int], list[int]] = {}
    for n, (_, j) in enumerate(pairs):
        for i, a in enumerate(hg.support[j]):
            through.setdefault((i, int(a)), []).append(n)
    mass = np.array([joint[y, j] for y, j in pairs], dtype=float)
    scale = _BAND_MAX / mass.max()
    for members in through.values():
        spare = _BAND_ROOM - len(members) * _BAND_MIN - _BAND_GAP * (len(members) - 1)
        if spare > 0:
            scale = min(scale, spare / mass[members].sum())
    widths = (_BAND_MIN + scale * mass).tolist()
    out = [np.array([ypos(i, int(a)) for i, a in enumerate(hg.support[j])], dtype=float) for _, j in pairs]
    for (i, a), members in through.items():
        nbrs = [k for k in (i - 1, i + 1) if 0 <= k < hg.n]
        members.sort(key=lambda n: (-sum(ypos(k, int(hg.support[pairs[n][1]][k])) for k in nbrs), pairs[n]))
        top = (sum(widths[n] for n in members) + _BAND_GAP * (len(members) - 1)) / 2
        for n in members:
            out[n][i] = ypos(i, a) + top - widths[n] / 2
            top -= widths[n] + _BAND_GAP
    return widths, out


def plot_privacy_polytope(result, *, ax=None, title: str | None = None, label_vertices: bool = True):
    """The polytope S of private posteriors in null-space coordinates, with the optimal cell shaded.

    Coordinates are z = N^T (t - p) for an orthonormal null basis N of P (p at the origin). For
    nul(P) = 1 S is a segment, for nul(P) = 2 a polygon (Example 2: a quadrilateral with p in the
    triangle {p_1, p_2, p_4}); for larger nullity the drawing is the projection on the first two
    null directions. Vertices are labelled with their LP costs H(P_{W|X} p_k); the vertices used by
    the optimal mapping are filled and their convex hull shaded.

    Parameters
    ----------
    result : SynergisticDisclosure
        Output of :func:`~graphpriv.synergistic_disclosure` or :func:`~graphpriv.self_disclosure`.

    Returns
    -------
    matplotlib Axes

    Examples
    --------
    >>> from graphpriv.viz import plot_privacy_polytope
    >>> import numpy as np
    >>> from graphpriv import self_disclosure
    >>> plot_privacy_polytope(self_disclosure(np.outer([0.7, 0.3], [0.6, 0.4]))).get_title()
    'polytope S: 2 vertices'
    """
    hg = result.hypergraph
    p = hg.weights
    V = result.vertices
    ax = axes_or_new(ax, width=3.2, height=2.8)
    nul = hg.nullity
    if nul == 0:
        ax.scatter([0], [0], color=ROLE["exact"], zorder=3)
        ax.text(0.05, 0.05, "S = {p} (nullity 0)", fontsize=7)
        ax.axis("off")
        ax.set_title(title or "polytope S")
        return ax
    N = _view_basis(hg.null_basis("svd"), min(2, nul))
    Z = (V - p[None, :]) @ N
    if nul == 1:
        Z = np.column_stack([Z[:, 0], np.zeros(len(Z))])
    used = np.zeros(len(V), dtype=bool)
    used[result.used] = True
    from scipy.spatial import ConvexHull, QhullError

    def hull_poly(pts):
        if len(pts) >= 3:
            try:
                h = ConvexHull(pts)
                return pts[h.vertices]
            except QhullError:
                pass
        order = np.lexsort(pts.T[::-1])
        return pts[order]

    outline = hull_poly(Z)
    cell = hull_poly(Z[used])

    def draw(a, lab: bool) -> None:
        if len(outline) >= 3 and nul >= 2:
            a.fill(outline[:, 0], outline[:, 1], facecolor=ROLE["grid"], edgecolor=ROLE["edge"], linewidth=0.8, alpha=0.6,
                   zorder=0)
        else:
            a.plot(outline[:, 0], outline[:, 1], color=ROLE["edge"], linewidth=1.5, zorder=0)
        if len(cell) >= 3:
            a.fill(cell[:, 0], cell[:, 1], facecolor=ROLE["merge"], alpha=0.35, edgecolor=ROLE["merge"], linewidth=1.0,
                   zorder=1, label="optimal cell" if lab else None)
        elif len(cell) == 2:
            a.plot(cell[:, 0], cell[:, 1], color=ROLE["merge"], linewidth=3, alpha=0.6, zorder=1,
                   label="optimal cell" if lab else None)
        if (~used).any():   # no key for a kind of vertex the drawing does not have
            a.scatter(Z[~used, 0], Z[~used, 1], s=22, facecolor="white", edgecolor=ROLE["exact"], zorder=3,
                      label="vertex of S" if lab else None)
        a.scatter(Z[used, 0], Z[used, 1], s=26, color=ROLE["merge"], edgecolor=ROLE["exact"], zorder=3,
                  label="vertex used (y)" if lab else None)
        a.scatter([0], [0], marker="*", s=80, color=ROLE["frontier2"], edgecolor=ROLE["exact"], linewidth=0.5, zorder=4,
                  label="$p_{X^n}$" if lab else None)

    draw(ax, True)
    if label_vertices and len(V) <= 12:
        span = np.ptp(Z, axis=0).max() or 1.0
        T = []
        for k, z in enumerate(Z):
            d = z / (np.linalg.norm(z) or 1.0)
            t = z + 0.2 * span * d
            T.append(t)
            ax.annotate(f"c={result.costs[k]:.3f}" + (f"\nu={result.weights[k]:.2f}" if used[k] else ""),
                        xy=z, xytext=t, ha="center", va="center", fontsize=7)
        T = np.array(T)
        ax.scatter(T[:, 0], T[:, 1] * (1 if nul >= 2 else 0), s=0, alpha=0)  # make room for the labels
    if nul >= 2:
        ax.set_aspect("equal", adjustable="datalim")
        ax.margins(0.12)
    else:
        span1 = np.ptp(Z[:, 0]) or 1.0
        ax.set_xlim(Z[:, 0].min() - 0.45 * span1, Z[:, 0].max() + 0.45 * span1)
        ax.set_ylim(-0.3 * span1, 0.3 * span1)
    ax.set_xticks([])
    ax.set_yticks([])
    for side in ("left", "bottom"):
        ax.spines[side].set_visible(False)
    if nul >= 2:
        _zoom_crowded_corner(ax, Z, draw)
    ax.legend(loc="upper center", bbox_to_anchor=(0.5, 0.0), ncol=2, frameon=False, fontsize=6.5)
    extra = "" if nul <= 2 else f" (projection, nullity {nul})"
    ax.set_title(title or f"polytope S: {len(V)} vertices{extra}")
    return ax


def _view_basis(N: np.ndarray, k: int) -> np.ndarray:
    """An orthonormal basis of a ``k``-dimensional view of the null space spanned by the columns of ``N``,
    fixed by the null space alone: the projector N Nᵀ applied to a seeded Gaussian matrix, orthonormalised,
    each column with its first nonzero entry positive. Any orthonormal ``N`` of the same space (LAPACK
    builds differ in the SVD's choice) gives the same picture; a generic view keeps distinct vertices apart
    where a coordinate view of a symmetric polytope can make two coincide."""
    G = np.random.default_rng(20240).standard_normal((N.shape[0], k))
    B, _ = np.linalg.qr(N @ (N.T @ G))                # (N Nᵀ) G without the |X^n| x |X^n| projector
    for j in range(k):
        nz = np.flatnonzero(np.abs(B[:, j]) > 1e-9)
        if nz.size and B[nz[0], j] < 0:
            B[:, j] = -B[:, j]
    return B


def _zoom_crowded_corner(ax, Z: np.ndarray, draw) -> None:
    """When vertices of the polytope crowd together (closer than 5 % of its span), draw an inset that zooms on
    them (gid ``"graphpriv-zoom"``), placed in the emptiest corner of the axes and linked to the zoomed box."""
    if len(Z) < 2:
        return
    span = float(np.ptp(Z, axis=0).max()) or 1.0
    D = np.hypot(*(Z[:, None, :] - Z[None, :, :]).transpose(2, 0, 1))
    np.fill_diagonal(D, np.inf)
    i, j = np.unravel_index(np.argmin(D), D.shape)
    if D[i, j] >= 0.05 * span:
        return
    mid = (Z[i] + Z[j]) / 2
    group = Z[np.hypot(*(Z - mid).T) < 3 * D[i, j]]
    half = max(2.5 * D[i, j], 0.7 * float(np.ptp(group, axis=0).max()), 0.01 * span)
    ax.figure.canvas.draw_idle()
    to_axes = ax.transAxes.inverted()
    pts = to_axes.transform(ax.transData.transform(Z))
    corners = {(0.02, 0.62): "upper left", (0.62, 0.62): "upper right", (0.02, 0.02): "lower left", (0.62, 0.02): "lower right"}
    box = np.array([0.36, 0.36])
    zoom_ax = to_axes.transform(ax.transData.transform(np.array([mid - half, mid + half])))

    def crowd(c):
        c = np.asarray(c)
        inside = ((pts >= c - 0.04) & (pts <= c + box + 0.04)).all(axis=1).sum()
        overlap = not ((zoom_ax[1] < c).any() or (zoom_ax[0] > c + box).any())
        return inside + 100 * overlap

    corner = min(corners, key=crowd)
    ins = ax.inset_axes([corner[0], corner[1], box[0], box[1]])
    ins.set_gid("graphpriv-zoom")
    draw(ins, False)
    ins.set_xlim(mid[0] - half, mid[0] + half)
    ins.set_ylim(mid[1] - half, mid[1] + half)
    ins.set_aspect("equal", adjustable="box")
    ins.set_xticks([])
    ins.set_yticks([])
    for sp in ins.spines.values():
        sp.set_visible(True)
        sp.set_color("#808080")
        sp.set_linewidth(0.6)
    ax.indicate_inset_zoom(ins, edgecolor="#808080", linewidth=0.6)


def plot_channel(p_x_given_w, *, w_labels=None, x_labels=None, w_name: str = "W", x_name: str = "X", ax=None,
                 title: str | None = None, node_colors=None):
    """A channel p(x | w) as a transition diagram: W values on the left, X values on the right.

    Edge width is proportional to p(x | w) and each edge is labelled with it (paper 004, Fig. 3).

    Parameters
    ----------
    p_x_given_w : array_like, shape (|X|, |W|)
        Column w is p(. | w).

    Returns
    -------
    matplotlib Axes

    Examples
    --------
    >>> from graphpriv.viz import plot_channel
    >>> ax = plot_channel([[0.8, 0.3], [0.2, 0.7]])
    >>> len(ax.lines)
    4
    """
    C = np.asarray(p_x_given_w, dtype=float)
    mx, mw = C.shape
    ax = axes_or_new(ax, width=2.2, height=max(1.6, 0.5 * max(mx, mw) + 0.6))
    yw = (mw - 1) / 2 - np.arange(mw)
    yx = (mx - 1) / 2 - np.arange(mx)
    w_labels = w_labels if w_labels is not None else [f"{w_name}={w}" for w in range(mw)]
    x_labels = x_labels if x_labels is not None else [f"{x_name}={x}" for x in range(mx)]
    for w in range(mw):
        for x in range(mx):
            if C[x, w] > 0:
                ax.plot([0, 1], [yw[w], yx[x]], color=ROLE["edge"], linewidth=0.5 + 3 * C[x, w], alpha=0.8, zorder=1)
                t = 0.3 if mx > 1 else 0.5
                # on the edge itself, along it, on a white patch: no label is read as another edge's
                ax.text(t, yw[w] + t * (yx[x] - yw[w]), f"{C[x, w]:.2g}", fontsize=6, ha="center", va="center",
                        color=ROLE["exact"], rotation=float(np.degrees(np.arctan2(yx[x] - yw[w], 1.0))),
                        rotation_mode="anchor", transform_rotates_text=True, zorder=2, gid="graphpriv-channel-label",
                        bbox=dict(boxstyle="round,pad=0.12", facecolor="white", edgecolor="none"))
    colors = node_colors if node_colors is not None else [ROLE["sensitive"]] * mw
    ax.scatter(np.zeros(mw), yw, s=60, color=colors, edgecolor=ROLE["exact"], linewidth=0.6, zorder=3)
    ax.scatter(np.ones(mx), yx, s=60, color=ROLE["public"], edgecolor=ROLE["exact"], linewidth=0.6, zorder=3)
    for w in range(mw):
        ax.text(-0.1, yw[w], w_labels[w], ha="right", va="center", fontsize=7)
    for x in range(mx):
        ax.text(1.1, yx[x], x_labels[x], ha="left", va="center", fontsize=7)
    ax.set_xlim(-0.75, 1.75)
    ax.set_ylim(min(yw.min(), yx.min()) - 0.5, max(yw.max(), yx.max()) + 0.5)
    ax.axis("off")
    if title:
        ax.set_title(title)
    return ax
