"""The principal sequence of partitions as a tree whose heights are the critical values.

:func:`graphpriv.principal_partitions` gives a chain of partitions {V} = P_0 > P_1 > ... > P_k: as the
price lambda per extra piece passes the critical value lambda_i, every block of P_(i-1) that is not a
block of P_i splits into the blocks of P_i below it (Narayanan 1991, "The principal lattice of partitions
of a submodular function"). :func:`plot_principal_partitions` draws that tree top-down with the price
axis pointing down: a block is a vertical stem from the price at which it appears to the price at which
it splits, where a bar joins its pieces (one bar for a split into several pieces, not a cascade of
binary joins). Leaves sit on a strip coloured by their block of P_1 (the components of a disconnected
graph, else the strength partition). Past ``max_leaves`` leaves the tree is drawn down to the deepest
level that fits, and the single values a block sheds at one split are drawn as one leaf ("37 single");
blocks not split further are labelled with their size.
"""

from __future__ import annotations

import numpy as np

from .graphs import styled
from .labels import elide, format_label
from .style import PAGE_WIDTH, ROLE, axes_or_new, component_color, contained

__all__ = ["plot_principal_partitions"]

#: Colour of the splits of the first level (they cross the blocks of P_1).
TOP = "#4d4d4d"


def _node_text(label, graph: str) -> str:
    """A leaf's text: the public value, or ``"S: s"`` / ``"X: x"`` for a node of the support graph."""
    if graph == "support" and isinstance(label, tuple) and len(label) == 2:
        return f"{label[0]}: {elide(format_label(label[1], math=False), 12)}"
    return elide(format_label(label, math=False), 14)


def _fmt(v) -> str:
    return str(v.numerator) if v.denominator == 1 else f"{v.numerator}/{v.denominator}"


def _units(seq, max_leaves: int):
    """Drawing units down to the deepest level j that fits: a list of dicts (members, appear level, split level or
    None, children, kind in {"block", "single", "bundle"}) with the root first, and j."""
    M = seq.memberships
    n = seq.n_nodes
    k = len(seq.critical_values)
    bundle = n > max_leaves

    def build(j):
        units = [dict(members=np.arange(n), appear=0, split=None, children=[], kind="block")]
        frontier = [0]
        for i in range(1, j + 1):
            nxt = []
            for u in frontier:
                mem = units[u]["members"]
                blocks = M[i][mem]
                if len(np.unique(blocks)) == 1:
                    nxt.append(u)
                    continue
                units[u]["split"] = i
                kids = [mem[blocks == b] for b in np.unique(blocks)]
                kids.sort(key=lambda g: (-len(g), int(g[0])))
                singles = [g for g in kids if len(g) == 1]
                big = [g for g in kids if len(g) > 1]
                groups = [(g, "block") for g in big]
                if bundle and len(singles) >= 3:
                    groups.append((np.concatenate(singles), "bundle"))
                else:
                    groups += [(g, "single") for g in singles]
                for g, kind in groups:
                    units.append(dict(members=g, appear=i, split=None, children=[], kind=kind))
                    units[u]["children"].append(len(units) - 1)
                    if kind == "block":
                        nxt.append(len(units) - 1)
            frontier = nxt
        return units

    best = build(0)
    j_best = 0
    for j in range(1, k + 1):
        units = build(j)
        n_leaves = sum(1 for u in units if not u["children"])
        if n_leaves > max_leaves:
            break
        best, j_best = units, j
    return best, j_best


@styled
@contained
def plot_principal_partitions(seq, ax=None, *, max_leaves: int = 60, labels: bool | str = "auto",
                              title: str | bool | None = True, legend: bool = True):
    """Tree of the principal sequence of partitions, heights = critical values (price axis pointing down).

    Parameters
    ----------
    seq : PrincipalSequence
        From :func:`graphpriv.principal_partitions`.
    ax : matplotlib Axes, optional
    max_leaves : int
        Most leaves drawn. When the graph has more nodes, the tree stops at the deepest level with at most
        this many leaves, counting the single values a block sheds at one split as one leaf.
    labels : bool or "auto"
        Leaf labels (a value, ``"37 values"`` for a block not split further, ``"37 single"`` for a bundle of
        single values). ``"auto"``: when there are at most ``max_leaves`` leaves.
    title : str or bool
        ``True``: the graph, the number of critical values and the strength.
    legend : bool
        Explain the leaf colours (blocks of P_1).

    Returns
    -------
    matplotlib Axes
        The drawing units are stored as ``ax.graphpriv_psp`` (``leaves``: the node indices of each leaf,
        left to right; ``level``: the deepest level drawn).

    Examples
    --------
    >>> import graphpriv as gp
    >>> seq = gp.principal_partitions(gp.datasets.paper_example()[0])
    >>> ax = gp.viz.plot_principal_partitions(seq)
    >>> ax.get_ylabel()
    'price per extra piece λ'
    >>> len(ax.graphpriv_psp["leaves"])
    7
    """
    from matplotlib.collections import LineCollection
    from matplotlib.patches import Patch, Rectangle

    if not hasattr(seq, "memberships") or not hasattr(seq, "critical_values"):
        from ..errors import InputTypeError

        raise InputTypeError(f"seq must be a PrincipalSequence (gp.principal_partitions), got {type(seq).__name__}")
    if int(max_leaves) < 2:
        from ..errors import InputError

        raise InputError(f"max_leaves must be >= 2, got {max_leaves!r}")
    units, level = _units(seq, int(max_leaves))
    leaves = [i for i, u in enumerate(units) if not u["children"]]
    n_leaves = len(leaves)
    ax = axes_or_new(ax, width=PAGE_WIDTH, height=3.4)
    values = [float(v) for v in seq.critical_values]
    drawn = values[:level]
    span = (drawn[-1] - drawn[0]) if len(drawn) > 1 else max(drawn[0] if drawn else 1.0, 1.0)
    pad = 0.08 * span if span > 0 else 0.5
    top = (drawn[0] if drawn else 0.0) - pad
    bottom = (drawn[-1] if drawn else 0.0) + pad

    # x: leaves left to right in depth-first order, internal units at the midpoint of their children
    x = np.zeros(len(units))
    order = []
    stack = [0]
    while stack:
        u = stack.pop()
        if not units[u]["children"]:
            x[u] = len(order)
            order.append(u)
        stack.extend(reversed(units[u]["children"]))
    post = []
    stack = [(0, False)]
    while stack:
        u, done = stack.pop()
        if done or not units[u]["children"]:
            post.append(u)
            continue
        stack.append((u, True))
        stack.extend((c, False) for c in units[u]["children"])
    for u in post:
        ch = units[u]["children"]
        if ch:
            x[u] = (x[ch[0]] + x[ch[-1]]) / 2

    p1 = seq.memberships[1] if len(seq.memberships) > 1 else seq.memberships[0]
    sizes = np.bincount(p1)
    big = [int(b) for b in np.argsort(-sizes, kind="stable") if sizes[b] > 1]
    rank = {b: r for r, b in enumerate(big)}         # blocks of P_1 with 2+ nodes, largest first: the palette

    def p1_colour(block: int) -> str:
        return component_color(rank[block]) if block in rank else ROLE["edge"]

    def colour(u):
        blocks = np.unique(p1[units[u]["members"]])
        return p1_colour(int(blocks[0])) if len(blocks) == 1 and len(sizes) > 1 else TOP

    def y_of(u, end=False):
        s = units[u]["split"]
        if end:
            return values[s - 1] if s is not None else bottom
        a = units[u]["appear"]
        return values[a - 1] if a > 0 else top

    segs, cols = [], []
    for u in range(len(units)):
        c = colour(u)
        segs.append([(x[u], y_of(u)), (x[u], y_of(u, end=True))])
        cols.append(c)
        ch = units[u]["children"]
        if ch:
            y = y_of(u, end=True)
            segs.append([(x[ch[0]], y), (x[ch[-1]], y)])
            cols.append(c)
    ax.add_collection(LineCollection(segs, colors=cols, linewidths=1.0, capstyle="butt"))
    splits = [u for u in range(len(units)) if units[u]["children"]]
    ax.scatter([x[u] for u in splits], [y_of(u, end=True) for u in splits], s=6, c=[colour(u) for u in splits],
               zorder=3, linewidths=0)
    # leaf strip coloured by block of P_1; bundles hatched
    strip = 0.035 * (bottom - top) if bottom > top else 0.05
    for u in order:
        blocks = np.unique(p1[units[u]["members"]])
        c = p1_colour(int(blocks[0])) if len(sizes) > 1 else ROLE["public"]
        ax.add_patch(Rectangle((x[u] - 0.4, bottom), 0.8, strip, facecolor=c, edgecolor="none",
                               hatch="////" if units[u]["kind"] == "bundle" else None, alpha=0.9))
    ax.set_xlim(-0.8, n_leaves - 0.2)
    ax.set_ylim(bottom + strip * 1.2, top)          # price axis pointing down: the root on top
    ax.set_ylabel("price per extra piece λ")
    ticks = [v for v in drawn]
    if len(ticks) <= 10:
        ax.set_yticks(ticks)
        ax.set_yticklabels([_fmt(v) for v in seq.critical_values[:level]])
    for v in drawn:
        ax.axhline(v, color=ROLE["grid"], linewidth=0.5, zorder=0)
    show = labels is True or (labels == "auto" and n_leaves <= max_leaves)
    noun = "values" if seq.graph == "confusability" else "nodes"
    if show:
        texts = []
        for u in order:
            mem, kind = units[u]["members"], units[u]["kind"]
            if len(mem) == 1:
                texts.append(_node_text(seq.labels[int(mem[0])], seq.graph))
            elif kind == "bundle":
                texts.append(f"{len(mem)} single")
            else:
                texts.append(f"{len(mem)} {noun}")
        ax.set_xticks(np.arange(n_leaves))
        size = 7 if n_leaves <= 30 else 6 if n_leaves <= 45 else 5
        ax.set_xticklabels(texts, rotation=90, fontsize=size)
        ax.tick_params(axis="x", length=0)
    else:
        ax.set_xticks([])
    for side in ("top", "right", "bottom"):
        ax.spines[side].set_visible(False)
    if title:
        what = "G_X" if seq.graph == "confusability" else "the support graph"
        k = len(seq.critical_values)
        if title is True:
            text = f"Principal sequence of partitions of {what}: {k} critical value{'s' if k != 1 else ''}"
            if k:
                text += f", strength {_fmt(seq.critical_values[0])}"
            if level < k:
                text += f"\n(drawn to λ = {_fmt(seq.critical_values[level - 1])}, level {level} of {k})" if level else ""
        else:
            text = str(title)
        ax.set_title(text, fontsize=9)
    handles = []
    if legend and len(sizes) > 1:
        listed = big if len(big) <= 5 else big[:3]
        for r, b in enumerate(listed):
            handles.append(Patch(facecolor=component_color(r), label=f"a block of P₁ ({sizes[b]} {noun})"))
        if len(big) > len(listed):
            handles.append(Patch(facecolor="white", edgecolor="none",
                                 label=f"... {len(big)} blocks of 2+ {noun} in P₁ (colours repeat)"))
        if len(big) < len(sizes):
            handles.append(Patch(facecolor=ROLE["edge"], label=f"single {noun} of P₁ ({len(sizes) - len(big)})"))
        if any(units[u]["kind"] == "bundle" for u in order):
            handles.append(Patch(facecolor="white", edgecolor="#555555", hatch="////", label=f"single {noun} shed at one split"))
        ax.legend(handles=handles, loc="lower left", bbox_to_anchor=(1.0, 0.0), fontsize=7, frameon=False)
    ax.graphpriv_psp = {"leaves": [units[u]["members"].copy() for u in order], "level": level}
    return ax
