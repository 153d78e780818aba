"""The component (quotient) graph of G_X̂(t): one node per component, sized by its number of values.

Components of the confusability graph of the quantised range are what I*(S; X̂) counts (Ding &
Farokhi, *Developing Non-Stochastic Privacy-Preserving Policies Using Agglomerative Clustering*,
Section V-B1: I* = log2 |P(t)|). Each node is a pie of the original components of G_X it holds, so a
join shows as a node with two colours; the components joined at t are ringed and drawn as dashed ghosts
at their former places with arrows to the joined node. Positions are stable: the original components
sit on a fixed grid and a joined component sits at the size-weighted mean of its parts.
"""

from __future__ import annotations

import math

import numpy as np

from .graphs import styled
from .labels import cluster_label, label_key
from .merges import _check_trace, merge_events
from .style import COLUMN_WIDTH, ROLE, axes_or_new, component_color

__all__ = ["plot_component_graph"]


def _component_nodes(trace, t: int, base: np.ndarray, comp0: np.ndarray):
    """Per component of P(t): (id, member codes, position, parts {original component: count})."""
    ids = trace.component_ids(t)
    out = []
    for c in np.unique(ids):
        codes = np.flatnonzero(ids == c)
        parts, counts = np.unique(comp0[codes], return_counts=True)
        pos = (base[parts] * counts[:, None]).sum(0) / counts.sum()
        out.append((int(c), codes, pos, dict(zip(parts.tolist(), counts.tolist()))))
    return out


def _fit_label(vals, universe, fit: int) -> str:
    """A component's label in at most ``fit`` characters per line: its members (short clusters) or its first and
    last value, elided, over its size; only the size when even that does not fit."""
    from .labels import elide, elide_value

    full = cluster_label(vals, universe, max_members=3, math=True)
    plain = full.replace("$", "")
    if len(plain) <= fit:
        return full
    if len(vals) == 1:
        return elide(plain, max(fit, 4))
    each = max(3, (fit - 1) // 2)
    head = cluster_label(vals, universe, max_members=1, max_chars=each)
    rng, _, count = head.rpartition(" (")
    if len(rng) <= max(fit, 7):
        return f"{rng}\n({count}" if fit >= 5 else f"({count}"
    # never cut inside a number: the range on two lines (each end whole), else only the size
    lo, dash, hi = rng.partition("–") if "–" in rng else rng.partition(", …, ")
    parts = [elide_value(p, max(fit, 4)) for p in (lo, hi) if p]
    if dash and fit >= 5 and all(len(p) <= max(fit, 7) + 1 for p in parts):
        return f"{parts[0]}{dash.strip()}\n{parts[1]}\n({count}"
    return f"({count}"


def _label_spacer_class():
    from matplotlib.artist import Artist

    class LabelSpacer(Artist):
        """Drawn just before the labels, on the final layout: hides every label that would touch one already kept
        (in the order given: larger components first), so component labels never overprint at any panel size."""

        def __init__(self, texts):
            super().__init__()
            self.texts = texts
            self.set_zorder(4.95)

        def draw(self, renderer):
            kept = []
            gap = renderer.points_to_pixels(1.0)
            for t in self.texts:
                t.set_visible(True)
                e = t.get_window_extent(renderer)
                clash = any(e.x0 < k.x1 + gap and k.x0 < e.x1 + gap and e.y0 < k.y1 + gap and k.y0 < e.y1 + gap
                            for k in kept)
                t.set_visible(not clash)
                if not clash:
                    kept.append(e)
            self.stale = False

    return LabelSpacer


def _LabelSpacer(texts):
    return _label_spacer_class()(texts)


def _compact_count(n: int) -> str:
    """A component's size in at most 5 characters: ``(312)``, ``1.3k``, ``10k``, ``1.2M``."""
    if n < 1000:
        return f"({n})"
    for unit, scale in (("k", 1e3), ("M", 1e6), ("G", 1e9)):
        v = n / scale
        if v < 999.5:
            return f"{v:.1f}{unit}" if v < 9.95 else f"{v:.0f}{unit}"
    return f"{n:.0e}"


@styled
def plot_component_graph(trace, t: int | None = None, ax=None, *, title: str | bool | None = True,
                         labels: bool | str = "auto"):
    """Draw the components of G_X̂(t) as one node each, area proportional to the number of public values.

    Parameters
    ----------
    trace : MergeTrace
    t : int, optional
        Step (default: the returned step).
    ax : matplotlib Axes, optional
    title : str or bool
        ``True``: |P(t)| and I* = log2 |P(t)| in bits.
    labels : bool or "auto"
        Write each component's size and value range under it (auto: up to 40 components).

    Returns
    -------
    matplotlib Axes
        Each component is a group of wedge patches with gid ``"graphpriv-component"``; components joined at t
        are ringed in ``ROLE["merge"]`` (gid ``"graphpriv-joined"``).

    Examples
    --------
    >>> import graphpriv as gp
    >>> jr, _ = gp.datasets.paper_example()
    >>> tr = gp.agglomerate(jr, "I*", 0.3).trace
    >>> ax = gp.viz.plot_component_graph(tr, 2)            # x2 + x5 joins two components: 3 remain
    >>> len({p.get_label() for p in ax.patches if p.get_gid() == "graphpriv-component"})
    3
    """
    from matplotlib.patches import Circle, FancyArrowPatch, Wedge

    trace = _check_trace(trace)
    t = trace._check_t(t)
    labels_x = trace.public_labels
    n = len(labels_x)
    comp0 = np.asarray(trace.components0, dtype=np.int64)
    k0 = int(comp0.max()) + 1 if n else 0
    # original components on a fixed grid, in order of their smallest value
    first = {}
    for i in sorted(range(n), key=lambda i: label_key(labels_x[i])):
        first.setdefault(int(comp0[i]), len(first))
    ncol = max(1, math.ceil(math.sqrt(k0 * 1.6)))
    base = np.zeros((k0, 2))
    for c, r in first.items():
        base[c] = (r % ncol, -(r // ncol))
    nodes = _component_nodes(trace, t, base, comp0)
    sizes = np.array([len(codes) for _, codes, _, _ in nodes])
    rmax = 0.42 if len(nodes) > 1 else 0.6
    radius = rmax * np.sqrt(sizes / sizes.max())
    radius = np.maximum(radius, 0.06)
    ax = axes_or_new(ax, COLUMN_WIDTH, COLUMN_WIDTH * 0.75)
    ax.set_aspect("equal")
    ax.set_xticks([])
    ax.set_yticks([])
    for side in ax.spines.values():
        side.set_visible(False)
    events = [e for e in merge_events(trace, t) if e.joined]
    joined_codes = set()
    code = {x: i for i, x in enumerate(labels_x)}
    for e in events:
        joined_codes.add(code[next(iter(e.a))])
    on = (len(nodes) <= 40) if labels == "auto" else bool(labels)
    fs_lab = 5.5 if len(nodes) > 8 else 6.5
    # characters that fit under a node without reaching the next one (the grid is one unit per component)
    from .graphs import _points_per_unit

    ax.set_xlim(base.min(axis=0)[0] - 0.75, base.max(axis=0)[0] + 0.75)
    ax.set_ylim(base.min(axis=0)[1] - 0.85, base.max(axis=0)[1] + 0.75)
    # digits and parentheses are ~0.62 em wide in DejaVu Sans; keep a gap of about one character between labels
    fit = int(0.85 * _points_per_unit(ax) / (0.62 * fs_lab))
    placed: list = []   # (size, label) of the component labels, larger components first when two would touch
    ghosts: list = []   # labels of the components joined at t, where they were
    for (c, codes, pos, parts), r in zip(nodes, radius):
        start = 90.0
        tot = sum(parts.values())
        for p, cnt in sorted(parts.items(), key=lambda kv: first[kv[0]]):
            ext = 360.0 * cnt / tot
            w = Wedge(pos, r, start, start + ext, facecolor=component_color(p), edgecolor="white", linewidth=0.5,
                      label=f"component {c}")
            w.set_gid("graphpriv-component")
            ax.add_patch(w)
            start += ext
        if joined_codes & set(codes.tolist()):
            ring = Circle(pos, r + 0.035, fill=False, edgecolor=ROLE["merge"], linewidth=1.8, zorder=4)
            ring.set_gid("graphpriv-joined")
            ax.add_patch(ring)
        if on:
            vals = [labels_x[i] for i in codes]
            full = cluster_label(vals, labels_x, max_members=3)
            text = _fit_label(vals, labels_x, fit)
            # above the dashed ghosts of joined components (zorder 3), on a light ground so a ghost never crosses it
            if max(map(len, text.split("\n"))) > fit:   # wider than its column: the size alone, compact (1.3k)
                text = _compact_count(len(vals))
            placed.append((len(vals), ax.text(pos[0], pos[1] - r - 0.05, text, ha="center", va="top", fontsize=fs_lab,
                                              url=full, zorder=5, gid="graphpriv-component-label",
                                              bbox=dict(boxstyle="square,pad=0.05", facecolor="white", alpha=0.8,
                                                        edgecolor="none"))))
    lo = base.min(axis=0) - 0.75
    hi = base.max(axis=0) + 0.75
    ax.set_xlim(lo[0], hi[0])
    ax.set_ylim(lo[1] - 0.1, hi[1])
    # ghosts of the components joined at t, with arrows to the joined component
    if events and t > 0:
        from .graphs import _points_per_unit

        ppu = _points_per_unit(ax)
        prev = {c: (codes, pos) for c, codes, pos, _ in _component_nodes(trace, t - 1, base, comp0)}
        now = {int(i): (pos, r) for (c, codes, pos, _), r in zip(nodes, radius) for i in codes}
        seen: set[int] = set()
        prev_ids = trace.component_ids(t - 1)   # smallest public code of each value's component of G_X̂(t-1)
        for e in events:
            for side in (e.a, e.b):
                c = int(prev_ids[code[next(iter(side))]])
                if c in seen:   # one ghost per former component, however many pairs joined it
                    continue
                seen.add(c)
                pcodes, ppos = prev[c]
                target, tr_ = now[c]
                if np.allclose(ppos, target):
                    continue
                pr = max(rmax * math.sqrt(len(pcodes) / sizes.max()), 0.06)
                ax.add_patch(Circle(ppos, pr, fill=False, edgecolor=ROLE["merge"], linestyle=(0, (2, 2)),
                                    linewidth=0.9, zorder=3))
                if np.hypot(*(ppos - target)) > pr + tr_:   # a ghost apart from the joined node: name and arrow
                    ghosts.append(ax.text(ppos[0], ppos[1] - pr - 0.04, _fit_label([labels_x[i] for i in pcodes], labels_x, fit),
                                          ha="center", va="top", fontsize=5.5, color=ROLE["merge"], gid="graphpriv-ghost-label"))
                    ax.add_patch(FancyArrowPatch(ppos, target, arrowstyle="-|>", mutation_scale=7, color=ROLE["merge"],
                                                 shrinkA=pr * ppu, shrinkB=(tr_ + 0.04) * ppu, linewidth=0.9, zorder=3))
    if placed or ghosts:   # the components' labels first (larger first), then the ghosts' names
        ax.add_artist(_LabelSpacer([t for _, t in sorted(placed, key=lambda p: -p[0])] + ghosts))
    if title is True:
        k = len(nodes)
        title = (rf"$|\mathcal{{P}}^{{({t})}}|={k}$ component{'s' if k != 1 else ''} of $G_{{\hat X}}$" + "\n"
                 + rf"$I^*=\log_2 {k}={math.log2(k):.2f}$ bits")
    if title:
        ax.set_title(title, fontsize=8)
    return ax
