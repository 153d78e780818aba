"""Drawing the comparison of every mechanism on one table, the funnel frontier and the watchdog variants.

* :func:`plot_mechanism_comparison` -- three panels on common axes (I(S;X̂) vs I(X;X̂), max |log-lift|
  vs I(X;X̂), L0 vs U1): each mechanism's parameter sweep as a Pareto line and its chosen point as a
  marker (the object of :func:`graphpriv.compare_mechanisms`).
* :func:`plot_funnel_frontier` -- the privacy funnel's frontier (Ding & Sadeghi, ITW 2019), greedy
  and subset, from :func:`graphpriv.funnel_frontier`.
* :func:`plot_watchdog_variants` -- I(X; X̂) against ε for the watchdog (Sadeghi, Ding & Rakotoarivelo),
  subset merging (Zarrabian et al., ICASSP 2022), the α-lift watchdog (Ding, Zarrabian & Sadeghi) and
  (ε, δ) partitioning, from the sweeps of :func:`graphpriv.compare_mechanisms`.
"""

from __future__ import annotations

import math

import numpy as np

from .style import PAGE_WIDTH, PALETTE, axes_or_new, contained, new_figure, style_context

__all__ = ["plot_mechanism_comparison", "plot_funnel_frontier", "plot_watchdog_variants"]

#: Colour and marker of each mechanism of the comparison (the names of gp.COMPARED_MECHANISMS).
_STYLE = {
    "Algorithm 1 (L0, U1)": (PALETTE[0], "o"),
    "Algorithm 2 (I*, U1)": (PALETTE[4], "s"),
    "Section V-C (L0 | I*=0, U1)": (PALETTE[7], "D"),
    "watchdog": (PALETTE[5], "v"),
    "(eps, delta) watchdog": (PALETTE[1], "^"),
    "watchdog, subset merging": (PALETTE[3], "P"),
    "alpha-lift watchdog": ("#8C564B", "X"),
    "privacy funnel, greedy": (PALETTE[2], "*"),
    "privacy funnel, subset": ("#555555", "h"),
    "linear reduction": ("#9467BD", "d"),
}

_LEGEND = {
    "Algorithm 1 (L0, U1)": "003 Alg. 1 (L0)",
    "Algorithm 2 (I*, U1)": "003 Alg. 2 (I*)",
    "Section V-C (L0 | I*=0, U1)": "003 Sec. V-C",
    "watchdog": "watchdog",
    "(eps, delta) watchdog": "(ε, δ) watchdog",
    "watchdog, subset merging": "watchdog, subsets",
    "alpha-lift watchdog": "α-lift watchdog",
    "privacy funnel, greedy": "funnel, pairwise",
    "privacy funnel, subset": "funnel, subset",
    "linear reduction": "linear reduction",
}


def _pareto_line(x, y, minimise_x=True):
    """Non-dominated points (small x, large y) sorted by x, as a staircase's corner points."""
    x = np.asarray(x, float)
    y = np.asarray(y, float)
    ok = np.isfinite(x) & np.isfinite(y)
    x, y = x[ok], y[ok]
    if x.size == 0:
        return x, y
    order = np.lexsort((-y, x))
    keep, best = [], -np.inf
    for i in order.tolist():
        if y[i] > best + 1e-12:
            keep.append(i)
            best = y[i]
    return x[keep], y[keep]


def _panel(ax, cmp, xcol, ycol, xlabel, ylabel, title, finite_cap=None):
    fr, tab = cmp.frontiers, cmp.table
    cap = None
    if finite_cap:
        vals = np.concatenate([fr[xcol].to_numpy(float), tab[xcol].to_numpy(float), [cmp.reference[xcol]]])
        fin = vals[np.isfinite(vals)]
        top = float(fin.max()) if fin.size else 1.0
        cap = top * 1.12 + 0.05
    for name, (color, marker) in _STYLE.items():
        sub = fr[fr["mechanism"] == name] if len(fr) else fr
        if len(sub):
            x = sub[xcol].to_numpy(float)
            if cap is not None:
                x = np.where(np.isinf(x), cap, x)
            px, py = _pareto_line(x, sub[ycol].to_numpy(float))
            if px.size:
                ax.step(px, py, where="post", color=color, lw=1.0, alpha=0.75, zorder=2)
        row = tab[tab["mechanism"] == name]
        for _, r in row.iterrows():
            x, y = float(r[xcol]), float(r[ycol])
            if not np.isfinite(y):
                continue
            if cap is not None and math.isinf(x):
                x = cap
            if np.isfinite(x):
                ax.plot([x], [y], marker=marker, color=color, ms=7, mec="white", mew=0.6, ls="none", zorder=4)
    rx, ry = float(cmp.reference[xcol]), float(cmp.reference[ycol])
    if cap is not None and math.isinf(rx):
        rx = cap
    if np.isfinite(rx) and np.isfinite(ry):
        ax.plot([rx], [ry], marker="o", mfc="none", mec="black", ms=9, ls="none", zorder=3)
    if cap is not None:
        ax.axvline(cap, color="0.6", lw=0.6, ls=":")
        ax.text(cap, 0.02, " ∞", transform=ax.get_xaxis_transform(), ha="left", va="bottom", fontsize=7, color="0.35")
    ax.set_xlabel(xlabel)
    ax.set_ylabel(ylabel)
    ax.set_title(title)


def plot_mechanism_comparison(comparison, axes=None):
    """Every mechanism of a :func:`graphpriv.compare_mechanisms` run on three common privacy-utility planes.

    Panels: (a) I(S; X̂) against I(X; X̂); (b) max_{s, x̂} |log-lift| against I(X; X̂) (a release with a
    zero cell has an infinite log-lift: it is drawn at the dotted line marked ∞); (c) L0(S → X̂) against
    U1 = I0(X → X̂) (Ding & Farokhi, eq. (3)), partitions only. Lines: each mechanism's parameter sweep,
    reduced to its non-dominated points; filled markers: the chosen setting; open circle: X itself.

    Parameters
    ----------
    comparison : MechanismComparison
    axes : sequence of three Axes, optional

    Returns
    -------
    matplotlib.figure.Figure
    """
    with style_context():
        return _plot_mechanism_comparison(comparison, axes)


def _plot_mechanism_comparison(comparison, axes):
    from matplotlib.lines import Line2D

    if axes is None:
        fig, axes = new_figure(PAGE_WIDTH, 3.3, ncols=3)
    else:
        axes = list(axes)
        if len(axes) != 3:
            from ..errors import InputError

            raise InputError(f"plot_mechanism_comparison draws three panels; got {len(axes)} axes")
        fig = axes[0].figure
    unit = {2.0: "bits", math.e: "nats"}.get(comparison.base, "")
    u = f" [{unit}]" if unit else ""
    _panel(axes[0], comparison, "I_S_Xhat", "I_X_Xhat", f"leakage I(S; X̂){u}", f"utility I(X; X̂){u}",
           "(a) mutual information")
    _panel(axes[1], comparison, "max_abs_log_lift", "I_X_Xhat", f"max |log-lift|{u}", f"utility I(X; X̂){u}",
           "(b) worst-case log-lift", finite_cap=True)
    _panel(axes[2], comparison, "L0", "U1", f"L0(S → X̂){u}", f"U1 = I0(X → X̂){u}", "(c) non-stochastic")
    handles = [Line2D([], [], color=c, marker=m, ms=6, lw=1.0, mec="white", label=_LEGEND[n]) for n, (c, m) in _STYLE.items()]
    handles.append(Line2D([], [], marker="o", mfc="none", mec="black", ms=7, ls="none", label="X unchanged"))
    fig.legend(handles=handles, loc="lower center", ncol=6, frameon=False, bbox_to_anchor=(0.5, 0.0),
               fontsize=7, handlelength=1.8, columnspacing=1.0)
    fig.subplots_adjust(bottom=0.30, wspace=0.38, top=0.80, left=0.07, right=0.98)
    return fig


@contained
def plot_funnel_frontier(frontiers, ax=None, *, trajectories: bool = True):
    """Privacy-utility frontier of the agglomerative privacy funnel (Ding & Sadeghi, ITW 2019, Sec. V).

    Parameters
    ----------
    frontiers : FunnelFrontier or sequence of them
        From :func:`graphpriv.funnel_frontier` (e.g. ``method="greedy"`` and ``"subset"``).
    ax : Axes, optional
    trajectories : bool, default True
        Also draw every intermediate partition of every λ run as faint dots.

    Returns
    -------
    matplotlib.axes.Axes
    """
    with style_context():
        return _plot_funnel_frontier(frontiers, ax, trajectories)


def _plot_funnel_frontier(frontiers, ax, trajectories):
    ax = axes_or_new(ax)
    frs = [frontiers] if hasattr(frontiers, "pareto") else list(frontiers)
    colors = {"greedy": PALETTE[2], "subset": "#555555"}
    markers = {"greedy": "*", "subset": "h"}
    unit = {2.0: "bits", math.e: "nats"}.get(frs[0].base, "") if frs else ""
    for k, fr in enumerate(frs):
        c = colors.get(fr.method, PALETTE[k % len(PALETTE)])
        name = {"greedy": "pairwise (greedy)", "subset": "subset"}.get(fr.method, fr.method)
        if trajectories and len(fr.trajectory):
            ax.plot(fr.trajectory["privacy"], fr.trajectory["utility"], ".", color=c, ms=2, alpha=0.25, zorder=1)
        par = fr.pareto()
        ax.step(par["privacy"], par["utility"], where="post", color=c, lw=1.3, label=f"{name}: non-dominated", zorder=3)
        ax.plot(fr.frame["privacy"], fr.frame["utility"], markers.get(fr.method, "o"), color=c, ms=6, mec="white",
                mew=0.5, label=f"{name}: returned at each λ", zorder=4)
    u = f" [{unit}]" if unit else ""
    ax.set_xlabel(f"leakage I(S; X̂){u}")
    ax.set_ylabel(f"utility I(X; X̂){u}")
    ax.legend(loc="lower right", frameon=False)
    return ax


@contained
def plot_watchdog_variants(comparison, ax=None, *, eps: float | None = None):
    """I(X; X̂) of the watchdog family against ε (nats), from the sweeps of :func:`graphpriv.compare_mechanisms`.

    The watchdog (Sadeghi, Ding & Rakotoarivelo, eq. (1)) merges every high-risk symbol into one;
    subset merging (Zarrabian et al., ICASSP 2022) splits them into private subsets; the α-lift watchdog
    (Ding, Zarrabian & Sadeghi) protects {x : ℓ_α(x) > e^ε} (one-sided); (ε, δ) partitioning publishes
    more at a breach probability δ. A dashed line marks the chosen ε.

    Parameters
    ----------
    comparison : MechanismComparison
    ax : Axes, optional
    eps : float, optional
        ε to mark (default: the comparison's).

    Returns
    -------
    matplotlib.axes.Axes
    """
    with style_context():
        return _plot_watchdog_variants(comparison, ax, eps)


def _plot_watchdog_variants(comparison, ax, eps):
    ax = axes_or_new(ax)
    fr = comparison.frontiers
    names = ["watchdog", "watchdog, subset merging", "alpha-lift watchdog", "(eps, delta) watchdog"]
    for name in names:
        sub = fr[(fr["mechanism"] == name)] if len(fr) else fr
        if not len(sub):
            continue
        sub = sub.sort_values("param")
        c, m = _STYLE[name]
        label = _LEGEND[name]
        if name == "alpha-lift watchdog":
            a = comparison.settings.get("alpha_lift", math.inf)
            label += " (α = ∞, max-lift)" if math.isinf(a) else f" (α = {a:g})"
        if name == "(eps, delta) watchdog":
            label += f" (δ = {comparison.settings.get('delta', float('nan')):g})"
        ax.plot(sub["param"], sub["I_X_Xhat"], marker=m, color=c, ms=4, lw=1.1, label=label,
                drawstyle="steps-post" if name == "watchdog" else "default")
    e = comparison.settings.get("eps") if eps is None else eps
    if e is not None:
        ax.axvline(e, color="0.5", ls="--", lw=0.8)
    unit = {2.0: "bits", math.e: "nats"}.get(comparison.base, "")
    ax.set_xlabel("ε [nats]")
    ax.set_ylabel(f"utility I(X; X̂)" + (f" [{unit}]" if unit else ""))
    ax.legend(loc="lower center", bbox_to_anchor=(0.5, 1.0), ncol=2, frameon=False, fontsize=6.5)
    return ax
