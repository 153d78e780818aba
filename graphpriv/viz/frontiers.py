"""Privacy-utility Pareto frontiers with normalised axes and baselines (paper 003, Figs. 7 and 9).

:func:`plot_frontier` draws one or several :class:`~graphpriv.Frontier` objects (from
:func:`graphpriv.pareto_frontier` or :func:`graphpriv.exact_frontier`) as privacy leakage against utility
loss, with the paper's normalisations by default (Fig. 7 caption):

* privacy: privacy(X̂) / privacy(X) (I* or L0 of the unquantised X);
* utility loss: 1 - U1(X; X̂) / U1(X; X) for U1, U2(X; X̂) / Û2 for U2 (Û2 = U2 of one cluster).

Baselines (e.g. :func:`graphpriv.k_anonymity_generalization`, Fig. 9) and marked solutions (e.g. the
returned quantisations of Examples 3 and 4, Fig. 7) are single points normalised with the same references.
Exact frontiers (``method="exact"``) are drawn in ``ROLE["exact"]`` with a dashed line.
"""

from __future__ import annotations

from typing import Mapping, Sequence

import numpy as np

from ..errors import InputError, InputTypeError
from .graphs import styled
from .style import COLUMN_WIDTH, PALETTE, ROLE, axes_or_new

__all__ = ["plot_frontier", "frontier_coordinates", "legend_clear_of_lines"]

#: Legend positions tried in turn by :func:`legend_clear_of_lines`.
LEGEND_LOCATIONS = ("upper right", "upper left", "lower left", "lower right", "center right", "center left",
                    "upper center", "lower center", "center")

_PRIV = {"I*": r"I^*(S;\hat X)", "L0": r"L_0(S\to\hat X)", "L0|I*=0": r"L_0(S\to\hat X)"}
_PRIV_X = {"I*": r"I^*(S;X)", "L0": r"L_0(S\to X)", "L0|I*=0": r"L_0(S\to X)"}


def _check_frontier(f):
    from ..mechanisms.quantization.frontier import Frontier

    if not isinstance(f, Frontier):
        raise InputTypeError(f"expected a graphpriv Frontier (gp.pareto_frontier / gp.exact_frontier), got {type(f).__name__}")
    return f


def frontier_coordinates(frontier, normalized: bool = True) -> tuple[np.ndarray, np.ndarray]:
    """(x, y) plotted for a frontier: (utility loss, normalised privacy) or (utility, privacy).

    Examples
    --------
    >>> import graphpriv as gp
    >>> jr, _ = gp.datasets.paper_example()
    >>> x, y = gp.viz.frontiers.frontier_coordinates(gp.pareto_frontier(jr, "I*"))     # paper 003, Fig. 7 (U1)
    >>> x.round(4).tolist(), y.tolist()
    ([0.5646, 0.0], [0.0, 1.0])
    """
    f = _check_frontier(frontier)
    if normalized:
        return np.asarray(f.utility_loss(), dtype=float), np.asarray(f.normalized_privacy(), dtype=float)
    return np.asarray(f.utility_values, dtype=float), np.asarray(f.privacy, dtype=float)


def _point(obj, ref, normalized: bool) -> tuple[float, float]:
    """Coordinates of a single solution (result object with .privacy/.utility, a FrontierPoint, or a pair)."""
    if isinstance(obj, (tuple, list)) and len(obj) == 2 and all(isinstance(v, (int, float, np.floating, np.integer)) for v in obj):
        return float(obj[0]), float(obj[1])  # already plot coordinates (x, y)
    if not (hasattr(obj, "privacy") and hasattr(obj, "utility")):
        raise InputTypeError(f"a baseline / marked solution needs .privacy and .utility (e.g. gp.agglomerate(...) or "
                             f"gp.k_anonymity_generalization(...)) or an (x, y) pair; got {type(obj).__name__}")
    p, u = float(obj.privacy), float(obj.utility)
    if not normalized:
        return u, p
    y = p / ref.privacy_of_x if ref.privacy_of_x > 0 else float("nan")
    if ref.utility == "U2":
        x = u / ref.utility_hat if ref.utility_hat != 0 else float("nan")
    else:
        x = 1 - u / ref.utility_of_x if ref.utility_of_x != 0 else float("nan")
    return x, y


def _as_items(obj, name: str) -> list[tuple[str, object]]:
    if obj is None:
        return []
    if isinstance(obj, Mapping):
        return list(obj.items())
    if isinstance(obj, (list, tuple)) and obj and all(isinstance(o, tuple) and len(o) == 2 and isinstance(o[0], str) for o in obj):
        return list(obj)
    raise InputTypeError(f"{name} must be a mapping label -> solution (or a list of (label, solution) pairs)")


@styled
def plot_frontier(frontier_or_list, ax=None, *, normalized: bool = True, baselines=None, marks=None,
                  labels: Sequence[str] | None = None, colors: Sequence | None = None, title: str | None = None,
                  xlabel: str | None = None, ylabel: str | None = None, legend: bool = True, drawstyle: str = "steps"):
    """Pareto frontier(s) of privacy leakage against utility loss (paper 003, Figs. 7 and 9).

    Parameters
    ----------
    frontier_or_list : Frontier or sequence of Frontier
        From :func:`graphpriv.pareto_frontier` / :func:`graphpriv.exact_frontier`.
    ax : matplotlib Axes, optional
    normalized : bool
        True (default): x = utility loss (1 - U1(X̂)/U1(X), or U2(X̂)/Û2), y = privacy(X̂)/privacy(X), both in
        [0, 1] as in the paper. False: x = utility U_i(X; X̂), y = privacy in bits.
    baselines : mapping label -> solution, optional
        Single solutions drawn as ``ROLE["baseline"]`` pentagons, e.g.
        ``{"5-anonymity [49]": gp.k_anonymity_generalization(jr, 5, values)}``; a solution is any object with
        ``.privacy`` and ``.utility`` (normalised with the first frontier of the same utility) or an (x, y) pair.
    marks : mapping label -> solution, optional
        Highlighted solutions (stars), e.g. ``{"Example 3": gp.agglomerate(jr, "I*", 0.3)}``.
    labels : sequence of str, optional
        Legend entries of the frontiers (default "objective, utility (method)").
    colors : sequence, optional
        Frontier colours (default ``ROLE["frontier"]``, ``ROLE["frontier2"]``, then the palette; exact
        frontiers in ``ROLE["exact"]``).
    drawstyle : {"steps", "markers", "lines"}
        How the points of a frontier are joined. ``"steps"`` (default): a staircase through the points, the
        set of trade-offs each frontier achieves -- with a utility loss between two points the best leakage
        is that of the point with the smaller loss (normalised axes: steps after each point; raw axes, where
        x is the utility itself: steps before it). ``"markers"``: the points alone. ``"lines"``: straight
        segments (a guide to the eye only: a segment passes trade-offs no quantisation achieves, so a greedy
        frontier can seem to beat the exact one between points).

    Returns
    -------
    matplotlib Axes
        One line (with markers) per frontier, points in order of utility loss.

    Raises
    ------
    InputError
        Empty list or mismatched ``labels``.

    Examples
    --------
    >>> import graphpriv as gp
    >>> jr, values = gp.datasets.paper_example(4)
    >>> f1 = gp.pareto_frontier(jr, "I*")                                # paper 003, Fig. 7
    >>> f2 = gp.pareto_frontier(jr, "I*", utility="U2", values=values)
    >>> ax = gp.viz.plot_frontier([f1, f2], marks={"Example 3": gp.agglomerate(jr, "I*", 0.3)})
    >>> [ln.get_label() for ln in ax.get_lines()][:3]
    ['I*, U1 (greedy)', 'I*, U2 (greedy)', 'Example 3']

    Notes
    -----
    O(number of points). Only the points are quantisations; the staircase between them is what they
    achieve (a smaller loss than a point's never gets its leakage), so an exact frontier's staircase is
    never above a greedy one's.
    """
    from ..mechanisms.quantization.frontier import Frontier

    frontiers = [frontier_or_list] if isinstance(frontier_or_list, Frontier) else list(frontier_or_list)
    if not frontiers:
        raise InputError("no frontiers to plot; pass a Frontier or a non-empty list of them")
    for f in frontiers:
        _check_frontier(f)
    if labels is not None and len(labels) != len(frontiers):
        raise InputError(f"labels has {len(labels)} entries for {len(frontiers)} frontiers; give one label per frontier")
    if drawstyle not in ("steps", "markers", "lines"):
        raise InputError(f"drawstyle={drawstyle!r} must be one of ['lines', 'markers', 'steps']")

    step = "steps-post" if normalized else "steps-pre"
    join = {"linestyle": "none"} if drawstyle == "markers" else {"drawstyle": step} if drawstyle == "steps" else {}
    if colors is None:
        colors = [ROLE["frontier"], ROLE["frontier2"]] + [c for c in PALETTE if c not in (ROLE["frontier"], ROLE["frontier2"], ROLE["exact"])]
    ax = axes_or_new(ax, COLUMN_WIDTH, COLUMN_WIDTH * 0.75)
    markers = ["o", "s", "^", "D", "v"]
    k_greedy = 0
    for k, f in enumerate(frontiers):
        x, y = frontier_coordinates(f, normalized)
        order = np.lexsort((-y, x))
        lab = labels[k] if labels else f"{f.objective}, {f.utility} ({f.method})"
        px, py = x[order], y[order]
        if f.method == "exact":
            ax.plot(px, py, color=ROLE["exact"], **{"linestyle": "--", **join}, linewidth=1.0, marker="x",
                    markersize=5, label=lab, zorder=2)
        else:
            col = colors[k_greedy % len(colors)]
            ax.plot(px, py, color=col, **join, marker=markers[k_greedy % len(markers)], label=lab, zorder=3)
            k_greedy += 1
    by_util = {}
    for f in frontiers:
        by_util.setdefault(f.utility, f)

    def _ref(obj):
        name = getattr(obj, "utility_name", None)
        return by_util.get(name, frontiers[0])

    for j, (lab, obj) in enumerate(_as_items(baselines, "baselines")):
        bx, by = _point(obj, _ref(obj), normalized)
        face = ROLE["baseline"] if j % 2 == 0 else "white"
        ax.plot([bx], [by], linestyle="none", marker="pDh"[(j // 2) % 3], markersize=8, markerfacecolor=face,
                markeredgecolor=ROLE["baseline"], markeredgewidth=1.3, label=lab, zorder=4)
    star_faces = [ROLE["merge"], "white", "#F0E442"]
    for j, (lab, obj) in enumerate(_as_items(marks, "marks")):
        mx, my = _point(obj, _ref(obj), normalized)
        ax.plot([mx], [my], linestyle="none", marker="*", markersize=11, markerfacecolor=star_faces[j % len(star_faces)],
                markeredgecolor="#333333", markeredgewidth=0.8, label=lab, zorder=5)
    utils = {f.utility for f in frontiers}
    objs = {f.objective for f in frontiers}
    if xlabel is None:
        if not normalized:
            xlabel = r"utility $U_i(X;\hat X)$"
        elif utils == {"U1"}:
            xlabel = r"utility loss $1-U_1(X;\hat X)/U_1(X;X)$"
        elif utils == {"U2"}:
            xlabel = r"utility loss $U_2(X;\hat X)/\hat U_2(X;\hat X)$"
        else:
            # two lines at the label size (an inline \frac sets its terms at about 5 pt)
            xlabel = "utility loss: $1-U_1(X;\\hat X)/U_1(X;X)$ for $U_1$,\n$U_2(X;\\hat X)/\\hat U_2(X;\\hat X)$ for $U_2$"
    if ylabel is None:
        obj = next(iter(objs)) if len(objs) == 1 else None
        if obj is None:
            ylabel = "privacy leakage (normalised)" if normalized else "privacy leakage (bits)"
        elif normalized:
            ylabel = f"privacy leakage ${_PRIV[obj]}/{_PRIV_X[obj]}$"
        else:
            ylabel = f"privacy leakage ${_PRIV[obj]}$ (bits)"
    ax.set_xlabel(xlabel)
    ax.set_ylabel(ylabel)
    if normalized:
        ax.set_xlim(-0.04, 1.04)
        ax.set_ylim(-0.04, 1.06)
    ax.grid(True, color=ROLE["grid"], linewidth=0.5)
    ax.set_axisbelow(True)
    if legend:
        legend_clear_of_lines(ax, frameon=False)
    if title:
        ax.set_title(title)
    return ax


def legend_clear_of_lines(ax, **kwargs):
    """``ax.legend(**kwargs)`` at the first of :data:`LEGEND_LOCATIONS` where the legend box crosses no line
    as drawn and covers no marker, else matplotlib's ``"best"``. Unlike ``"best"``, which tests a line's
    data points joined straight, this sees a step-drawn line (``drawstyle="steps-*"``) as its staircase.

    Returns
    -------
    matplotlib Legend

    Examples
    --------
    >>> import matplotlib.pyplot as plt
    >>> from graphpriv.viz.frontiers import legend_clear_of_lines
    >>> fig, ax = plt.subplots()
    >>> _ = ax.plot([0, 0.6], [1, 0], drawstyle="steps-post", label="frontier")   # top edge, then right edge
    >>> legend_clear_of_lines(ax)._loc == 3                                       # lower left
    True
    """
    from matplotlib.cbook import STEP_LOOKUP_MAP
    from matplotlib.path import Path as MplPath

    try:
        fig = ax.get_figure(root=True)    # the top figure (ax may sit in a subfigure)
    except TypeError:                     # matplotlib < 3.10
        fig = ax.figure
        while getattr(fig, "figure", fig) is not fig:
            fig = fig.figure
    fig.draw_without_rendering()          # final axes positions (constrained layout) before measuring
    renderer = fig.canvas.get_renderer()
    paths, points = [], []
    for line in ax.get_lines():
        if not line.get_visible():
            continue
        x, y = (np.asarray(v, dtype=float) for v in line.get_data())
        ok = np.isfinite(x) & np.isfinite(y)
        x, y = x[ok], y[ok]
        if not len(x):
            continue
        disp = ax.transData.transform(np.column_stack([x, y]))
        if line.get_marker() not in (None, "", "None", " ", "none"):
            points.append(disp)
        if line.get_linestyle() not in ("None", "none", "", " ") and len(x) > 1:
            style = line.get_drawstyle()
            if style in STEP_LOOKUP_MAP and style != "default":
                sx, sy = STEP_LOOKUP_MAP[style](x, y)
                disp = ax.transData.transform(np.column_stack([sx, sy]))
            paths.append(MplPath(disp))
    pts = np.concatenate(points) if points else np.empty((0, 2))
    for loc in LEGEND_LOCATIONS:
        leg = ax.legend(loc=loc, **kwargs)
        box = leg.get_window_extent(renderer).padded(5)     # a margin for the layout to move a little
        crossed = any(p.intersects_bbox(box, filled=False) for p in paths)
        covered = bool(len(pts)) and bool(((pts[:, 0] >= box.x0) & (pts[:, 0] <= box.x1) & (pts[:, 1] >= box.y0)
                                            & (pts[:, 1] <= box.y1)).any())
        if not crossed and not covered:
            return leg
    return ax.legend(loc="best", **kwargs)
