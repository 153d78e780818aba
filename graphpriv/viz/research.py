"""Plots for the research tools: the phase transition of I* on random joint ranges, the
strength of G_X versus density, and greedy-versus-search optimality gaps.

Every function draws on ``ax`` (a new figure when ``None``) and returns the axes; nothing calls
``plt.show()``. Colours come from :data:`graphpriv.viz.style.ROLE`.
"""

from __future__ import annotations

import numpy as np

from .labels import math_text
from .style import PALETTE, ROLE, axes_or_new

__all__ = ["plot_phase_transition", "plot_strength_vs_density", "plot_search_gaps", "plot_gap_summary", "plot_search_frontiers"]


def plot_phase_transition(study, ax=None, *, x: str = "density", show_probability: bool = True, logx: bool = True):
    """Mean I*(S;X) (bits) versus density with its 10-90 % band, and P(I* > 0) on a twin axis.

    Parameters
    ----------
    study : EnsembleStudy
        From :func:`graphpriv.ensemble_study`.
    ax : matplotlib Axes, optional
    x : {"density", "degree"}
        Horizontal axis: the pair probability p, or the mean number of sensitive values per public
        value p |S|.
    show_probability : bool
        Draw P(I* > 0) (right axis).
    logx : bool

    Returns
    -------
    matplotlib Axes (the left one)

    Examples
    --------
    >>> import graphpriv as gp
    >>> from graphpriv.viz.research import plot_phase_transition
    >>> study = gp.ensemble_study(30, 8, [0.01, 0.1, 0.4], n_samples=10, measures=("I_star",))
    >>> ax = plot_phase_transition(study)
    >>> ax.get_ylabel()
    '$I^*(S;X)$ (bits)'
    """
    ax = axes_or_new(ax)
    s = study.summary()
    d = s.index.to_numpy(dtype=float)
    xs = d * study.n_sensitive if x == "degree" else d
    ax.fill_between(xs, s["I_star_q10"], s["I_star_q90"], color=ROLE["frontier"], alpha=0.18, lw=0, label="10–90 % of draws")
    ax.plot(xs, s["I_star_mean"], "o-", color=ROLE["frontier"], ms=3, label=math_text("mean I*"))
    top = np.log2(study.n_public)
    ax.axhline(top, color=ROLE["edge"], ls="--", lw=0.9)
    ax.text(xs[-1], top, rf"$\log_2|X|={top:.2f}$ ", va="bottom", ha="right", fontsize=7, color=ROLE["edge"])
    ax.set_ylim(-0.1, top * 1.15)
    ax.set_ylabel(math_text("I*(S;X) (bits)"))
    ax.set_xlabel("pair probability p" if x == "density" else "mean |[[S|x]]| = p|S|")
    if logx:
        ax.set_xscale("log")
    handles, labels = ax.get_legend_handles_labels()
    if show_probability:
        ax2 = ax.twinx()
        ax2.spines["right"].set_visible(True)
        ax2.plot(xs, s["p_positive"], "s--", color=ROLE["frontier2"], ms=2.5, lw=1.0, label=math_text("P(I* > 0)"))
        ax2.set_ylim(-0.05, 1.15)
        ax2.set_ylabel(math_text("P(I* > 0)"), color=ROLE["frontier2"])
        ax2.tick_params(axis="y", colors=ROLE["frontier2"])
        h2, l2 = ax2.get_legend_handles_labels()
        handles, labels = handles + h2, labels + l2
    ax.legend(handles, labels, loc="lower left", frameon=False)
    return ax


def plot_strength_vs_density(study, ax=None, *, x: str = "density", logx: bool = True):
    """Mean network strength of G_X (and edge connectivity when recorded) versus density.

    Strength 0 means decomposable (I* > 0); its growth past the transition measures how far a random
    range is from leaking a bit without error. Returns the axes.
    """
    ax = axes_or_new(ax)
    s = study.summary()
    if "strength_mean" not in s:
        raise ValueError("the study did not record 'strength'; run ensemble_study(..., measures=(..., 'strength'))")
    d = s.index.to_numpy(dtype=float)
    xs = d * study.n_sensitive if x == "degree" else d
    g = study.samples.groupby("density")["strength"]
    ax.fill_between(xs, g.quantile(0.1).to_numpy(), g.quantile(0.9).to_numpy(), color=ROLE["exact"], alpha=0.12, lw=0)
    ax.plot(xs, s["strength_mean"], "o-", color=ROLE["exact"], ms=3, label=math_text("strength σ(G_X)"))
    if "edge_connectivity_mean" in s:
        ax.plot(xs, s["edge_connectivity_mean"], "^-", color=ROLE["baseline"], ms=3, label=math_text("edge connectivity λ(G_X)"))
    ax.set_ylabel("edges per extra component")
    ax.set_xlabel("pair probability p" if x == "density" else "mean |[[S|x]]| = p|S|")
    if logx:
        ax.set_xscale("log")
    ax.legend(loc="upper left", frameon=False)
    return ax


def plot_search_gaps(table, ax=None, *, methods=None):
    """Optimality gaps (objective minus exact optimum) of the greedy and improved searches per instance.

    Parameters
    ----------
    table : pandas.DataFrame
        Columns ``instance`` and one ``gap_<method>`` column per method (as returned by
        :func:`graphpriv.compare_searches`).
    methods : list of str, optional
        Methods to draw (default: every ``gap_*`` column).

    Returns
    -------
    matplotlib Axes
    """
    ax = axes_or_new(ax)
    cols = [c for c in table.columns if c.startswith("gap_")] if methods is None else [f"gap_{m}" for m in methods]
    n = len(table)
    width = 0.8 / max(1, len(cols))
    colours = [ROLE["frontier"], ROLE["frontier2"], ROLE["baseline"], PALETTE[3]]
    for k, c in enumerate(cols):
        ax.bar(np.arange(n) + (k - (len(cols) - 1) / 2) * width, table[c].to_numpy(), width,
               color=colours[k % len(colours)], label=f"{c[4:]} (mean {table[c].mean():.3f})")
    ax.set_xlabel("instance")
    ax.set_ylabel("gap to exact optimum")
    top = float(np.nanmax(table[cols].to_numpy())) if n else 0.0
    ax.set_ylim(0, (top if top > 0 else 1.0) * 1.35)
    ax.set_xticks(np.arange(n))
    ax.legend(frameon=False, loc="upper center", ncol=len(cols), bbox_to_anchor=(0.5, 1.0))
    return ax


def plot_gap_summary(table, ax=None, *, methods=("greedy", "beam", "local"), unit: str = "bits"):
    """Mean optimality gap per (objective, utility) setting for each method, as grouped bars with error bars.

    The gap L - L_exact of the Lagrangian L = privacy - λ·utility is in the unit of the privacy measure
    (bits for base 2: λ converts utility into privacy units). Each bar is the mean over the table's
    (instance, λ) rows of a setting, its error bar the standard error of that mean; a mean of exactly 0
    (the method was optimal on every row) is drawn as a marked "0", and a bar too short to see carries
    its value, so that no bar can be mistaken for a missing one.

    Parameters
    ----------
    table : pandas.DataFrame
        Rows of :func:`graphpriv.compare_searches` with added ``objective`` and ``utility`` columns.
    methods : sequence of str
        Methods with a ``gap_<method>`` column.
    unit : str
        Unit of the gap shown on the axis (default "bits").

    Returns
    -------
    matplotlib Axes

    Examples
    --------
    >>> import pandas as pd
    >>> from graphpriv.viz.research import plot_gap_summary
    >>> t = pd.DataFrame({"objective": ["L0"] * 2, "utility": ["U1"] * 2, "gap_greedy": [0.2, 0.4], "gap_beam": [0.0, 0.0]})
    >>> ax = plot_gap_summary(t, methods=("greedy", "beam"))
    >>> ax.get_ylabel()
    'mean gap L − L_exact (bits)'
    """
    ax = axes_or_new(ax)
    g = table.groupby(["objective", "utility"], sort=False)
    keys = list(g.groups)
    cols = [f"gap_{m}" for m in methods]
    means = g[cols].mean()
    sems = g[cols].sem(ddof=1).fillna(0.0)
    counts = g.size()
    width = 0.8 / len(methods)
    colours = {"greedy": ROLE["frontier"], "beam": ROLE["frontier2"], "local": ROLE["baseline"], "interval": PALETTE[4 % len(PALETTE)]}
    x = np.arange(len(keys))
    top = float(np.nanmax((means + sems).to_numpy())) if len(keys) else 1.0
    top = top if top > 0 else 1.0
    for k, m in enumerate(methods):
        vals = means[f"gap_{m}"].to_numpy()
        err = sems[f"gap_{m}"].to_numpy()
        xs = x + (k - (len(methods) - 1) / 2) * width
        colour = colours.get(m, PALETTE[3 + k % 4])
        ax.bar(xs, vals, width, yerr=err, color=colour, ecolor="#333333", capsize=2, error_kw={"lw": 0.8},
               label=f"{m} (mean {table[f'gap_{m}'].mean():.3f} {unit})")
        # a bar too short to see is labelled with its value ("0": optimal on every row), never left blank
        small = vals < 0.03 * top
        for xz, v, e in zip(xs[small], vals[small], err[small]):
            ax.plot([xz - width * 0.4, xz + width * 0.4], [0, 0], color=colour, lw=2.2, solid_capstyle="butt")
            text = "0" if v < 1e-9 else ("<0.001" if v < 1e-3 else f"{v:.3f}")
            ax.text(xz, v + e + top * 0.04, text, ha="center", va="bottom", fontsize=5.5, color=colour,
                    rotation=0 if text == "0" else 90)
    ax.set_xticks(x)
    ax.set_xticklabels([f"{o}\n{u}" for o, u in keys])
    ax.set_ylabel(f"mean gap L − L_exact ({unit})")
    n_rows = int(counts.min()) if len(counts) else 0
    ax.set_xlabel(f"problem and utility (bars: mean over {n_rows} rows per setting; error bars: ± 1 standard error)")
    ax.set_ylim(0, top * 1.35)
    ax.legend(frameon=False, loc="upper left", ncol=len(methods))
    return ax


def plot_search_frontiers(frontiers, bounds=None, ax=None, *, utility_label: str = "utility", privacy_label: str = "L0(S→X̂) (bits)"):
    """Frontiers of several searches in the (privacy, utility) plane, with a certified upper bound.

    Parameters
    ----------
    frontiers : mapping name -> Frontier or sequence of (privacy, utility)
        Drawn in order (e.g. greedy, beam, interval-exact, certified exact) as step curves through
        their non-dominated points: privacy on x (smaller is better), utility on y (larger is better).
    bounds : pandas.DataFrame, optional
        :func:`graphpriv.frontier_bounds` (``privacy``, ``utility_bound``): no quantisation lies above
        this staircase; it is drawn shaded.
    utility_label, privacy_label : str
        Axis labels with units.

    Returns
    -------
    matplotlib Axes

    Examples
    --------
    >>> import graphpriv as gp
    >>> from graphpriv.viz.research import plot_search_frontiers
    >>> jr, values = gp.datasets.paper_example()
    >>> ax = plot_search_frontiers({"greedy": gp.pareto_frontier(jr, "L0"), "exact": gp.exact_frontier(jr, "L0")},
    ...                            gp.frontier_bounds(jr, "L0"))
    >>> len(ax.get_legend().get_texts())
    3
    """
    ax = axes_or_new(ax)
    styles = {"greedy": (ROLE["frontier"], "o", "-"), "beam": (ROLE["frontier2"], "s", "-"),
              "interval-exact": (ROLE["baseline"], "^", "-"), "certified exact": (ROLE["exact"], "D", "--"),
              "exact": (ROLE["exact"], "D", "--"), "certified optimum": (ROLE["exact"], "D", "--"),
              "solver, best found": (ROLE["exact"], "D", "--")}
    xmax = 0.0
    for k, (name, fr) in enumerate(frontiers.items()):
        pts = [(p.privacy, p.utility) for p in fr.points] if hasattr(fr, "points") else list(fr)
        pts.sort()
        if not pts:
            continue
        colour, marker, ls = styles.get(name, (PALETTE[(3 + k) % len(PALETTE)], "v", "-"))
        xs, ys = zip(*pts)
        xmax = max(xmax, max(xs))
        ax.step(xs, ys, where="post", color=colour, ls=ls, lw=1.1, alpha=0.9)
        ax.plot(xs, ys, marker=marker, ls="none", ms=3.2, color=colour, mfc="none" if k % 2 else colour,
                label=f"{name} ({len(pts)} points)")
    if bounds is not None and len(bounds):
        b = bounds.sort_values("privacy")
        xs = b["privacy"].to_numpy(dtype=float)
        ys = np.maximum.accumulate(b["utility_bound"].to_numpy(dtype=float))
        xs = np.append(xs, max(xmax, xs[-1]) * 1.02 + 1e-9)
        ys = np.append(ys, ys[-1])
        top = ax.get_ylim()[1]
        ax.fill_between(xs, ys, np.full_like(ys, max(top, ys.max()) + abs(ys.max()) * 0.05 + 1e-9), step="post",
                        color=ROLE["grid"], alpha=0.55, lw=0, label="ruled out by a proven bound")
        ax.step(xs, ys, where="post", color="#555555", lw=0.8)
    ax.set_xlabel(math_text(privacy_label))
    ax.set_ylabel(utility_label)
    leg = ax.legend(frameon=True, loc="lower right", framealpha=0.92)
    leg.get_frame().set_edgecolor("none")
    return ax
