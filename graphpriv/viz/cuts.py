"""A minimum cut of G_X drawn as its two sides, legible at any size.

Ding & Farokhi, *Developing Non-Stochastic Privacy-Preserving Policies Using Agglomerative
Clustering*, Section IV, eq. (1): a cut {X', [[X]] \\ X'} of the confusability graph G_X is crossed by
kappa(X') edges, and G_X is decomposable (I*(S;X) > 0) iff the global minimum of kappa is 0. Past a few
dozen public values the node-link drawing of G_X hides the few crossing edges among hundreds of others,
so :func:`plot_cut_sides` draws the quotient of G_X by the cut instead: one disc per side (area
proportional to its number of public values, labelled with its members and its |X| and |S| counts, the
terminals s and t of an s--t cut marked), a band between them labelled with the number of cut edges,
and the list of the cut edges with the sensitive values each pair of public values shares -- the reason
the edge exists. Cut sides take ``ROLE["cut_side"]`` and ``ROLE["cut_other"]``, outside the component
palette, as in the node-link view (:func:`graphpriv.viz.plot_min_cut`, which picks this view by size).
"""

from __future__ import annotations

import numpy as np

from ..ranges import JointRange
from .labels import cluster_label, elide, label_key, wrap_label
from .style import COLUMN_WIDTH, ROLE, _tint

__all__ = ["plot_cut_sides", "CUT_EDGES_LISTED"]

#: Cut edges written out under the discs; the rest are counted.
CUT_EDGES_LISTED = 12


def _shared_sensitive(jr: JointRange, x, y) -> list:
    """The sensitive values s with (s, x) and (s, y) both in [[S, X]] (why x and y are confusable)."""
    m = jr.matrix.tocsc()
    i, j = jr.public_code(x), jr.public_code(y)
    a = set(m.indices[m.indptr[i]:m.indptr[i + 1]].tolist())
    b = set(m.indices[m.indptr[j]:m.indptr[j + 1]].tolist())
    labels = jr.sensitive_labels
    return sorted((labels[k] for k in a & b), key=label_key)


def _text(v, max_chars: int = 18) -> str:
    """A value as written under the discs: long text elided in the middle (its full text is in ``cut.cut_edges``)."""
    return elide(cluster_label([v]), max_chars)


def _set_text(values, most: int = 6) -> str:
    shown = [_text(v) for v in values[:most]]
    return "{" + ", ".join(shown) + (f", … ({len(values)})" if len(values) > most else "") + "}"


def _side_counts(jr: JointRange, members) -> tuple[int, int, int]:
    """(|X'|, |[[S|X']]|, number of components of G_X inside X')."""
    from ..graphs.support import components

    codes = np.array([jr.public_code(x) for x in members], dtype=np.int64)
    m = jr.matrix.tocsc()[:, codes]
    n_s = int(np.count_nonzero(np.asarray(m.sum(axis=1)).ravel()))
    comp = np.asarray(components(jr).public)[codes]
    return len(codes), n_s, len(np.unique(comp))


def plot_cut_sides(jr: JointRange, cut, ax=None, *, title: str | bool | None = True, legend: bool = True,
                   max_listed: int = CUT_EDGES_LISTED):
    """Draw a cut {X', [[X]] \\ X'} of G_X as two discs joined by a band of its cut edges, with the edges listed.

    Parameters
    ----------
    jr : JointRange
    cut : MinCut
        From :func:`graphpriv.min_cut` on ``jr`` (global, or s--t: then s and t are marked).
    ax : matplotlib Axes, optional
        A new single-column figure, tall enough for the edge list, when None. The side labels, the legend
        and the edge list are written under the axes (a layout engine or ``bbox_inches="tight"`` makes room).
    title : str or bool
        ``True`` writes the cut value kappa and the size of each side.
    legend : bool
        A legend under the panel naming the two sides (with their sizes) and the cut edges.
    max_listed : int
        Cut edges written out (sorted by value); the rest are counted.

    Returns
    -------
    matplotlib Axes
        The discs are patches with gid ``"graphpriv-cut-side"`` (side X' first); the band has gid
        ``"graphpriv-cut-band"`` (absent when kappa = 0) and its label gid ``"graphpriv-cut-label"``; the edge
        list is the text with gid ``"graphpriv-cut-edges"``.

    Examples
    --------
    >>> import graphpriv as gp
    >>> jr, _ = gp.datasets.paper_example()
    >>> ax = gp.viz.plot_cut_sides(jr, gp.min_cut(jr, "x1", "x2"))
    >>> [t.get_text() for t in ax.texts if t.get_gid() == "graphpriv-cut-label"]
    ['1 cut edge']
    >>> len([p for p in ax.patches if p.get_gid() == "graphpriv-cut-side"])
    2

    Notes
    -----
    O(|[[S, X]]|) plus the sorting of the cut edges; G_X itself is not built (the cut carries its edges).
    """
    from matplotlib.lines import Line2D
    from matplotlib.patches import Circle, FancyBboxPatch
    from matplotlib.transforms import blended_transform_factory

    sides = [sorted(cut.side, key=label_key), sorted(cut.other, key=label_key)]
    counts = [_side_counts(jr, m) for m in sides]
    kappa = len(cut.cut_edges)
    st = getattr(cut, "s", None) is not None
    edges = sorted(((x, y) for x, y in cut.cut_edges), key=lambda e: (label_key(e[0]), label_key(e[1])))
    listed = edges[:max_listed]
    lines = [f"{_text(x)} – {_text(y)}:  S = {_set_text(_shared_sensitive(jr, x, y))}" for x, y in listed]
    if len(edges) > len(listed):
        lines.append(f"… and {len(edges) - len(listed)} more (cut.cut_edges)")
    head = ("cut edges $x - x'$ ($x\\in X'$)\nand the sensitive values they share:" if kappa else
            "no public value of $X'$ shares a\nsensitive value with one outside it:\n"
            + ("$s$ and $t$ lie in different\ncomponents of $G_X$" if st else "both sides are unions of\ncomponents, "
               "$G_X$ is decomposable"))
    rmax, cx = 0.5, 1.3  # largest disc radius, distance of each disc centre from the middle
    x_lo, x_hi = -cx - rmax - 0.15, cx + rmax + 0.15
    y_lo, y_hi = -rmax - 0.04, rmax + 0.46   # room for the terminals of an s-t cut, always: panels side by side align
    # below the axes, in points: the two side labels, the legend, the edge list
    label_pts, legend_pts, line_pts = 38.0, 14.0 if legend else 0.0, 6.5 * 1.35
    below = label_pts + legend_pts + line_pts * (len(lines) + head.count("\n") + 1) + 6
    if ax is None:
        import matplotlib.pyplot as plt

        from .style import new_figure

        w_ax = COLUMN_WIDTH - 0.2
        h_ax = w_ax * (y_hi - y_lo) / (x_hi - x_lo)
        h = h_ax + below / 72 + 0.45
        fig, ax = new_figure(COLUMN_WIDTH, h)
        fig.subplots_adjust(left=0.1 / COLUMN_WIDTH, right=1 - 0.1 / COLUMN_WIDTH, bottom=(below / 72 + 0.02) / h,
                            top=1 - 0.42 / h)
        plt.figure(fig.number)
    ax.set_aspect("equal")
    ax.axis("off")
    under = blended_transform_factory(ax.transData, ax.transAxes)
    colours = [ROLE["cut_side"], ROLE["cut_other"]]
    names = ["$X'$", r"$[\![X]\!]\setminus X'$"]
    big = max(c[0] for c in counts)
    radius = [max(0.07, rmax * np.sqrt(c[0] / big)) for c in counts]
    centres = [(-cx, 0.0), (cx, 0.0)]
    for k in range(2):
        disc = Circle(centres[k], radius[k], facecolor=_tint(colours[k]), edgecolor=colours[k], linewidth=1.6, zorder=3,
                      gid="graphpriv-cut-side")
        ax.add_patch(disc)
        n_x, n_s, n_c = counts[k]
        members = cluster_label(sides[k], jr.public_labels.tolist(), max_members=3)
        members = wrap_label(members, 20, 2)   # elided in the middle: the count and the last value stay
        comp = f", {n_c} components" if n_c > 1 else ""
        ax.annotate(f"{names[k]}: $|X|={n_x}$\n$|S|={n_s}${comp}\n{members}", (centres[k][0], 0), xycoords=under,
                    xytext=(0, -2), textcoords="offset points", ha="center", va="top", fontsize=6.5, color="#202020",
                    annotation_clip=False)
        if st:  # the terminal of this side, on top of its disc
            term, letter = (cut.s, "s") if k == 0 else (cut.t, "t")
            # the arrow stops above the disc (a one-value disc is smaller than the arrow head)
            ax.annotate("", (centres[k][0], radius[k] + 0.02), xytext=(centres[k][0], radius[k] + 0.16),
                        arrowprops=dict(arrowstyle="-|>", color="black", linewidth=0.8, mutation_scale=7,
                                        shrinkA=0, shrinkB=0), zorder=4)
            ax.text(centres[k][0], radius[k] + 0.17, f"${letter}$ = {_text(term)}", ha="center", va="bottom",
                    fontsize=7, zorder=4, gid=f"graphpriv-terminal-{letter}")
    x0, x1 = centres[0][0] + radius[0], centres[1][0] - radius[1]
    if kappa:
        half = 0.02 + 0.11 * min(1.0, np.log2(1 + kappa) / 7)
        band = FancyBboxPatch((x0, -half), x1 - x0, 2 * half, boxstyle="square,pad=0", facecolor=ROLE["cut"],
                              edgecolor="none", alpha=0.85, zorder=2, gid="graphpriv-cut-band")
        ax.add_patch(band)
        label = f"{kappa} cut edge{'s' if kappa != 1 else ''}"
        ax.text((x0 + x1) / 2, -half - 0.05, label, ha="center", va="top", fontsize=7.5, color=ROLE["cut"],
                fontweight="bold", gid="graphpriv-cut-label")
    else:
        ax.plot([x0 + 0.05, x1 - 0.05], [0, 0], color=ROLE["edge"], linestyle=(0, (2, 2)), linewidth=0.9, zorder=2)
        ax.text((x0 + x1) / 2, 0.06, "no cut edge", ha="center", va="bottom", fontsize=7.5, color=ROLE["cut"],
                fontweight="bold", gid="graphpriv-cut-label")
    ax.set_xlim(x_lo, x_hi)
    ax.set_ylim(y_lo, y_hi)
    if legend:
        from matplotlib.transforms import ScaledTranslation

        def disc(c, text):
            return Line2D([], [], marker="o", markersize=6, markerfacecolor=_tint(c), markeredgecolor=c, linestyle="none",
                          label=text)

        handles = [disc(colours[0], f"side $X'$ ({counts[0][0]})"), disc(colours[1], rf"{names[1]} ({counts[1][0]})"),
                   Line2D([], [], color=ROLE["cut"], linewidth=3.0, label=f"cut edges ({kappa})")]
        ax.legend(handles=handles, loc="upper center", bbox_to_anchor=(0.5, 0.0), ncol=3, frameon=False, fontsize=6,
                  handlelength=1.6, columnspacing=0.8, handletextpad=0.4, borderaxespad=0.0,
                  bbox_transform=ax.transAxes + ScaledTranslation(0, -label_pts / 72, ax.figure.dpi_scale_trans))
    ax.annotate("\n".join([head, *lines]), (x_lo + 0.1, 0), xycoords=under, xytext=(0, -(label_pts + legend_pts + 2)),
                textcoords="offset points", ha="left", va="top", fontsize=6.5, linespacing=1.35,
                gid="graphpriv-cut-edges", annotation_clip=False)
    if title is True:
        head = "$s$-$t$ cut" if st else "min cut"
        title = (rf"{head} $\kappa={cut.value}$" + f"\n{counts[0][0]} vs {counts[1][0]} public values, "
                 f"{kappa} cut edge{'s' if kappa != 1 else ''}")
    if title:
        ax.set_title(title)
    return ax
