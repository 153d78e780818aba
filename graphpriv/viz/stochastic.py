"""Plots for the privacy watchdog (paper 002) and the linear-reduction mechanisms (papers 000/001).

Every single-panel function takes ``ax=`` (a new figure when None) and returns the axes; multi-panel
functions take ``axes=`` and return the figure. Colours come from :mod:`graphpriv.viz.style`.
"""

from __future__ import annotations

import math

import numpy as np

from .labels import math_text
from .style import COLUMN_WIDTH, PALETTE, ROLE, axes_or_new, new_figure

__all__ = [
    "plot_ecdf",
    "plot_watchdog_tightness",
    "plot_nmil_cdf",
    "plot_eps_delta_trace",
    "plot_critical_sweep",
    "plot_log_lift_matrix",
    "plot_reduction_privacy",
    "plot_reduction_tradeoff",
    "plot_reduction_losses",
    "plot_transport_plan",
    "transport_legend_handles",
    "SCHEME_COLOR",
    "FIG2_COLORS",
]

#: Colours of the two linear-reduction schemes.
SCHEME_COLOR = {"markov": ROLE["frontier2"], "optimal": ROLE["frontier"]}

#: Colours of paper 002 Fig. 2's five settings (the paper names #2 purple, #4 yellow, #5 green).
FIG2_COLORS = [PALETTE[0], PALETTE[3], PALETTE[5], PALETTE[1], PALETTE[2]]


def plot_ecdf(values, ax=None, *, label=None, color=None, **kwargs):
    """Empirical CDF of ``values`` as a step curve (NaN values dropped). Returns the axes."""
    ax = axes_or_new(ax)
    v = np.sort(np.asarray(values, dtype=float))
    v = v[~np.isnan(v)]
    if v.size == 0:
        return ax
    y = np.arange(1, v.size + 1) / v.size
    ax.step(np.r_[v[0], v], np.r_[0.0, y], where="post", label=label, color=color, **kwargs)
    ax.set_ylim(0, 1.02)
    ax.set_ylabel("empirical CDF")
    return ax


def plot_watchdog_tightness(mc, ax=None, *, title: str | None = None):
    """Paper 002 Fig. 1: CDF of the max abs-log-lift on X_eps^c before (blue) and after (yellow) randomisation.

    Parameters
    ----------
    mc : WatchdogMonteCarlo
        From :func:`graphpriv.watchdog_monte_carlo`.
    """
    ax = axes_or_new(ax)
    unit = "nats" if math.isclose(mc.base, math.e) else f"log base {mc.base:g}"
    plot_ecdf(mc.fig1["blue"], ax, label=r"before: $\max_{x\in\mathcal{X}_\epsilon^c}\epsilon(x)$", color=PALETTE[0])
    plot_ecdf(mc.fig1["yellow"], ax, label=r"after optimal $R(y)$: $\epsilon^c$", color=PALETTE[1])
    ax.axvline(mc.fig1_eps, color=ROLE["edge"], lw=0.8, ls="--")
    ax.text(mc.fig1_eps, 0.5, rf" $\epsilon={mc.fig1_eps:g}$", color=ROLE["edge"], fontsize=7, va="center")
    ax.set_xlabel(f"abs-log-lift on $\\mathcal{{X}}_\\epsilon^c$ ({unit})")
    ax.set_xlim(left=0)
    ax.legend(loc="lower right", frameon=False)
    n_s, n_x = mc.shape
    ax.set_title(title or f"Watchdog tightness: {len(mc.fig1)} random p(s,x), |S|={n_s}, |X|={n_x}")
    return ax


def plot_nmil_cdf(mc, ax=None, *, title: str | None = None, colors=None):
    """Paper 002 Fig. 2: CDF of NMIL over the Monte-Carlo draws, one curve per setting."""
    ax = axes_or_new(ax)
    colors = colors or FIG2_COLORS
    styles = ["-", "-", "--", "-", "-"]
    for k, col in enumerate(mc.nmil.columns):
        plot_ecdf(mc.nmil[col], ax, label=math_text(col), color=colors[k % len(colors)], ls=styles[k % len(styles)])
    ax.set_xlabel("NMIL (normalised mutual-information loss)")
    ax.set_xlim(0, 1.02)
    ax.set_ylabel("empirical CDF")
    leg = ax.legend(loc="upper center", bbox_to_anchor=(0.5, -0.22), ncol=2, frameon=True, fontsize=6.5,
                    columnspacing=1.0, handlelength=2.2)   # framed, under the axes: off the curves
    leg.get_frame().set_edgecolor("#bbbbbb")
    leg.get_frame().set_linewidth(0.6)
    ax.set_title(title or f"Watchdog utility loss over {len(mc.nmil)} random p(s,x)")
    return ax


def plot_eps_delta_trace(result, axes=None, *, title: str | None = None):
    """Algorithm 1's trace: NMIL and Delta_total after each candidate peel, accepted vs rejected.

    Parameters
    ----------
    result : EpsDeltaResult
        From :func:`graphpriv.watchdog_eps_delta`.
    axes : pair of axes, optional

    Returns
    -------
    matplotlib Figure
    """
    steps = [s for s in result.peel_steps if s.position >= 0]
    if axes is None:
        fig, axes = new_figure(COLUMN_WIDTH, COLUMN_WIDTH * 0.95, nrows=2, sharex=True)
    else:
        fig = axes[0].figure
    a1, a2 = axes
    pos = np.arange(len(steps))
    acc = np.array([s.accepted for s in steps], dtype=bool)
    nm = np.array([s.nmil_new for s in steps])
    dt = np.array([s.delta_total for s in steps])
    # running NMIL of the partition
    cur = [result.nmil_watchdog]
    for s in steps:
        cur.append(s.nmil_new if s.accepted else cur[-1])
    a1.step(np.r_[-0.5, pos + 0.5], np.r_[cur[0], cur[1:]], where="pre", color=ROLE["frontier"], lw=1.2,
            label="NMIL of the partition")
    for a, vals in ((a1, nm), (a2, dt)):
        a.scatter(pos[acc], vals[acc], color=ROLE["baseline"], marker="o", s=18, zorder=3, label="accepted (peeled)")
        a.scatter(pos[~acc], vals[~acc], color=ROLE["cut"], marker="x", s=18, zorder=3, label="rejected")
    a1.axhline(result.nmil_watchdog, color=ROLE["edge"], lw=0.8, ls=":")
    a1.text(-0.45, result.nmil_watchdog, " plain watchdog", color=ROLE["edge"], fontsize=6, ha="left", va="top")
    a1.set_ylabel("NMIL if peeled")
    a1.legend(frameon=False, loc="center right", fontsize=6)
    a2.axhline(result.delta, color=ROLE["cut"], lw=0.8, ls="--")
    a2.text(-0.45, result.delta, rf"$\delta={result.delta:g}$", color=ROLE["cut"], fontsize=7, va="bottom")
    a2.set_ylabel(r"$\Delta_{\rm total}$ if peeled")
    a2.set_xticks(pos)
    a2.set_xticklabels([str(s.x) for s in steps], rotation=90 if len(steps) > 8 else 0)
    a2.set_xlabel(r"candidate $x$ (sorted by $\Delta(\epsilon, x)$)")
    if len(steps) == 0:
        a2.text(0.5, 0.5, "no candidate passed filter (14)", transform=a2.transAxes, ha="center")
    a1.set_title(title or rf"Algorithm 1: $\epsilon={result.eps:g}$, $\delta={result.delta:g}$, $\bar\epsilon={result.eps_bar:g}$")
    return fig


def plot_critical_sweep(sweep, ax=None, *, title: str | None = None):
    """Sec. IV of paper 002: eps^c, eps_eff and NMIL at every critical threshold (decreasing eps)."""
    ax = axes_or_new(ax)
    df = sweep.to_frame()
    ax.plot(df["eps"], df["eps_eff"], marker="o", color=ROLE["frontier"], label=r"$\epsilon_{\rm eff}$")
    ax.plot(df["eps"], df["eps_c"], marker="s", color=ROLE["frontier2"], label=r"$\epsilon^c$ (merged block)")
    lim = float(np.nanmax(df["eps"])) * 1.05 or 1.0
    ax.plot([0, lim], [0, lim], color=ROLE["edge"], lw=0.7, ls="--", zorder=0, label=r"identity (lift $=\epsilon$)")
    unit = "nats" if math.isclose(sweep.base, math.e) else ("bits" if sweep.base == 2 else f"log base {sweep.base:g}")
    ax.set_xlabel(rf"threshold $\epsilon = \epsilon_j$ ({unit})")
    ax.set_ylabel(f"abs-log-lift ({unit})")
    ax2 = ax.twinx()
    ax2.plot(df["eps"], df["nmil"], marker="^", color=ROLE["baseline"], lw=1.0, label="NMIL", clip_on=False, zorder=3)
    ax2.set_ylabel("NMIL", color=ROLE["baseline"])
    lo, hi = ax.get_ylim()
    lo = min(lo, -0.03 * hi)      # markers at 0 stay whole
    ax.set_ylim(lo, hi)
    zero = -lo / (hi - lo)        # both zeros at this height of the axes
    top2 = 1.05
    ax2.set_ylim(-zero * top2 / (1 - zero), top2)
    for line in ax.get_lines():
        line.set_clip_on(False)
    ax2.spines["right"].set_visible(True)
    h1, l1 = ax.get_legend_handles_labels()
    h2, l2 = ax2.get_legend_handles_labels()
    # above the axes: inside, every corner holds a curve
    ax.legend(h1 + h2, l1 + l2, frameon=False, loc="lower center", bbox_to_anchor=(0.5, 1.0), ncol=2, fontsize=6.5)
    ax.set_title(title or "Watchdog critical values")
    return ax


def plot_log_lift_matrix(jd, ax=None, *, base: float = math.e, randomized=None, title: str | None = None):
    """Heat map of the log-lift i(s, x); columns in ``randomized`` (a mask) are outlined as the merged block."""
    from ..measures.stochastic import log_lift

    ax = axes_or_new(ax)
    L = log_lift(jd, base=base)
    finite = L[np.isfinite(L)]
    vmax = float(np.abs(finite).max()) if finite.size else 1.0
    im = ax.imshow(np.where(np.isfinite(L), L, np.nan), cmap="RdBu_r", vmin=-vmax, vmax=vmax, aspect="auto")
    ax.figure.colorbar(im, ax=ax, label="log-lift i(s, x)")
    ax.set_xticks(range(L.shape[1]))
    ax.set_xticklabels([str(v) for v in jd.public_labels], rotation=90 if L.shape[1] > 8 else 0)
    ax.set_yticks(range(L.shape[0]))
    ax.set_yticklabels([str(v) for v in jd.sensitive_labels])
    ax.set_xlabel("public x")
    ax.set_ylabel("sensitive s")
    if randomized is not None:
        from matplotlib.patches import Rectangle

        for j in np.flatnonzero(np.asarray(randomized)):
            ax.add_patch(Rectangle((j - 0.5, -0.5), 1, L.shape[0], fill=False, ec=ROLE["merge"], lw=1.5))
    ax.set_title(title or "log-lift matrix")
    return ax


def plot_reduction_privacy(df, ax=None, *, title: str | None = None, unit: str = "bits"):
    """Papers 000/001 Fig. 1: exact LDP and log-lift of Y vs alpha, with the (1 - alpha) approximations of eq. (6).

    ``df`` is :func:`graphpriv.linear_reduction_sweep`'s output.
    """
    ax = axes_or_new(ax)
    ax.plot(df["alpha"], df["ldp"], color=PALETTE[0], label=r"$\mathcal{L}^{\rm LDP}(S\to Y)$")
    ax.plot(df["alpha"], df["ldp_approx"], color=PALETTE[0], ls="--", label=r"$(1-\alpha)\mathcal{L}^{\rm LDP}(S\to X)$")
    ax.plot(df["alpha"], df["log_lift"], color=PALETTE[5], label=r"$\mathcal{L}^{\rm LL}(S\to Y)$")
    ax.plot(df["alpha"], df["log_lift_approx"], color=PALETTE[5], ls="--", label=r"$(1-\alpha)\mathcal{L}^{\rm LL}(S\to X)$")
    ax.set_xlabel(r"reduction level $\alpha$")
    ax.set_ylabel(f"data privacy: LDP and log-lift ({unit})")
    ax.set_xlim(0, 1)
    ax.set_ylim(bottom=0)
    ax.legend(frameon=False, loc="upper right")
    ax.set_title(title or "Linear reduction of LDP and log-lift")
    return ax


def plot_reduction_tradeoff(df, x: str = "ldp", y: str = "tv", ax=None, *, xlabel=None, ylabel=None,
                            title=None, labels=("Markov (Lemma 1)", "non-Markov (Proposition 1)")):
    """Privacy-utility trade-off of the alpha sweep: ``{y}_markov`` and ``{y}_optimal`` against column ``x``."""
    ax = axes_or_new(ax)
    ax.plot(df[x], df[f"{y}_markov"], color=SCHEME_COLOR["markov"], marker="o", ms=2.5, label=labels[0])
    ax.plot(df[x], df[f"{y}_optimal"], color=SCHEME_COLOR["optimal"], marker="s", ms=2.5, label=labels[1])
    ax.set_xlabel(xlabel or x)
    ax.set_ylabel(ylabel or y)
    ax.set_xlim(left=0)
    ax.set_ylim(bottom=0)
    ax.legend(frameon=False)
    if title:
        ax.set_title(title)
    return ax


def plot_reduction_losses(df, ax=None, *, title: str | None = None, unit: str = "bits"):
    """Papers 000/001 Fig. 4: H(X) - I(X; Y) and D_TV(X; Y) of both schemes vs alpha."""
    ax = axes_or_new(ax)
    ax.plot(df["alpha"], df["mi_loss_markov"], color=SCHEME_COLOR["markov"], label=f"$H(X)-I(X;Y)$ ({unit}), Markov")
    ax.plot(df["alpha"], df["tv_markov"], color=SCHEME_COLOR["markov"], ls="--", label=r"$D_{\rm TV}(X;Y)$, Markov")
    ax.plot(df["alpha"], df["mi_loss_optimal"], color=SCHEME_COLOR["optimal"], label=f"$H(X)-I(X;Y)$ ({unit}), non-Markov")
    ax.plot(df["alpha"], df["tv_optimal"], color=SCHEME_COLOR["optimal"], ls="--", label=r"$D_{\rm TV}(X;Y)$, non-Markov")
    ax.set_xlabel(r"reduction level $\alpha$")
    ax.set_ylabel("utility loss")
    ax.set_xlim(0, 1)
    top = float(np.nanmax(df[["mi_loss_markov", "tv_markov", "mi_loss_optimal", "tv_optimal"]].to_numpy()))
    ax.set_ylim(0, max(top * 1.45, 0.1))
    ax.legend(frameon=False, loc="upper left", fontsize=6)
    ax.set_title(title or "Utility losses grow with α")
    return ax


def transport_legend_handles() -> list:
    """Legend keys of :func:`plot_transport_plan`, drawn exactly as the plan draws them (one figure-level
    legend can serve several panels)."""
    from matplotlib.lines import Line2D

    return [Line2D([], [], marker="o", markersize=6, color=ROLE["cut"], linestyle="none", label=r"sender $x'\in X^-(s)$"),
            Line2D([], [], marker="o", markersize=6, color=ROLE["public"], linestyle="none", label="other value"),
            Line2D([], [], color=ROLE["edge"], alpha=0.45, linewidth=5, solid_capstyle="butt", label="kept mass"),
            Line2D([], [], color=ROLE["merge"], alpha=0.9, linewidth=1.5, label="shipped flow (amount on it)")]


def plot_transport_plan(mechanism, s, ax=None, *, p_x_given_s=None, title: str | None = None, legend: bool = True):
    """The per-s bipartite transport graph of a non-Markov linear reduction (papers 000/001, Prop. 1-2).

    Left: the input values x' with P_{X|S}(x'|s); right: the outputs y with the target P_{Y|S}(y|s).
    An edge x' -> y carries the flow F(x', y) = P_{X|S}(x'|s) Q(y|s, x'); horizontal edges are kept mass
    (the saturated diagonal, eq. (11a)), slanted ones move mass from senders X^-(s) to receivers X^+(s).

    Parameters
    ----------
    mechanism : LinearReduction
        With a non-Markov kernel (``scheme="optimal"``).
    s : sensitive label
    p_x_given_s : array, optional
        P_{X|S}(.|s); default ``mechanism.p_x_given_s[s]``.
    legend : bool
        Draw the key (:func:`transport_legend_handles`: senders, other values, kept mass, shipped flow) under
        the plan; False leaves it to the caller (e.g. one legend for several panels).
    """
    from ..errors import InputError, UnknownLabelError

    if mechanism.kernel.ndim != 3:
        raise InputError("plot_transport_plan needs a non-Markov kernel (linear_reduction(..., scheme='optimal'))")
    labels = mechanism.sensitive_labels.tolist()
    if s not in labels:
        raise UnknownLabelError(f"s={s!r} is not a sensitive value")
    k = labels.index(s)
    Q = mechanism.kernel[k]
    T = mechanism.target[k]
    a = mechanism.alpha
    p = np.asarray(mechanism.p_x_given_s[k] if p_x_given_s is None else p_x_given_s, dtype=float)
    ax = axes_or_new(ax, COLUMN_WIDTH * 0.8, COLUMN_WIDTH * 0.8)
    n = len(p)
    F = p[:, None] * Q
    ys = np.arange(n)[::-1]
    scale = 7.0 / max(F.max(), 1e-12)
    placed: list[tuple[float, float]] = []
    for i in range(n):
        for j in range(n):
            if F[i, j] > 1e-12:
                diag = i == j
                ax.plot([0, 1], [ys[i], ys[j]], color=ROLE["edge"] if diag else ROLE["merge"], lw=max(F[i, j] * scale, 0.6),
                        alpha=0.45 if diag else 0.9, solid_capstyle="butt", zorder=1 if diag else 2)
                if not diag:   # the flow written on its own edge, along it, where no other label sits
                    cands = (0.3, 0.5, 0.7, 0.2, 0.4, 0.6, 0.8)
                    pts = [(t, ys[i] + t * (ys[j] - ys[i])) for t in cands]
                    x, y = next((q for q in pts if all(abs(q[0] - u) > 0.2 or abs(q[1] - v) > 0.45 for u, v in placed)),
                                pts[0])
                    placed.append((x, y))
                    ax.text(x, y, f"{F[i, j]:.3g}", fontsize=6, ha="center", va="center", color=ROLE["merge"], zorder=4,
                            rotation=math.degrees(math.atan2(ys[j] - ys[i], 1.0)), rotation_mode="anchor",
                            transform_rotates_text=True,
                            bbox=dict(boxstyle="round,pad=0.12", fc="white", ec=ROLE["merge"], lw=0.4, alpha=0.95))
    pub = mechanism.public_labels.tolist()
    sender = p > T + 1e-12
    for i in range(n):
        ax.scatter(0, ys[i], s=40, color=ROLE["cut"] if sender[i] else ROLE["public"], zorder=3)
        ax.text(-0.06, ys[i], f"{pub[i]}  {p[i]:.3g}", ha="right", va="center", fontsize=7)
        ax.scatter(1, ys[i], s=40, color=ROLE["public"], zorder=3)
        ax.text(1.06, ys[i], f"{T[i]:.3g}  {pub[i]}", ha="left", va="center", fontsize=7)
    ax.set_xlim(-0.55, 1.55)
    ax.set_ylim(-0.45, n - 0.3)
    ax.axis("off")
    ax.text(0, n - 0.45, r"$x'$: $P_{X|S}$", ha="center", fontsize=7)
    ax.text(1, n - 0.45, r"$y$: $P_{Y|S}$", ha="center", fontsize=7)
    if legend:
        ax.legend(handles=transport_legend_handles(), loc="upper center", bbox_to_anchor=(0.5, 0.0), ncol=2,
                  frameon=False, fontsize=6)
    ax.set_title(title or rf"Transport plan, $s={s}$, $\alpha={a:g}$")
    return ax

