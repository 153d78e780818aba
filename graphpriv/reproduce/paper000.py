"""Papers 000/001 (Ding, Liu, Farokhi: linear reduction for LDP and log-lift): Figs. 1-4 on Example 1.

All curves come from :func:`graphpriv.linear_reduction_sweep` on Example 1 (base 2, alpha in (0, 1]).
Tick ranges follow 001's LaTeX where the data allow; where they do not, the erratum says so.
"""

from __future__ import annotations

import numpy as np

from . import figure

__all__: list[str] = []

_D_ABS = np.abs(np.subtract.outer(np.arange(4), np.arange(4))).astype(float)   # d(x', x) = |i - j|, a..d -> 1..4


def _sweep(quick: bool, distance=None):
    from ..mechanisms.stochastic import linear_reduction_sweep, paper000_example1

    alphas = np.linspace(0.02, 1.0, 12 if quick else 50)
    return linear_reduction_sweep(paper000_example1(), alphas, distance=distance)


@figure(name="paper000_fig1_privacy_vs_alpha", paper="000/001", number="Fig. 1",
        shows="Example 1: exact LDP and log-lift of Y (bits) as alpha grows, with the first-order approximations "
              "(1 - alpha) L(S -> X) of eq. (6).",
        erratum="The paper does not state the log base; base 2 matches its axis (LDP(S->X) = log2 5 = 2.32). Exact "
                "curves come from the closed forms: eq. (6) is not an inequality (exact log-lift lies above its "
                "approximation for alpha >= 0.2).")
def fig1(quick: bool = False):
    from ..viz.stochastic import plot_reduction_privacy
    from ..viz.style import COLUMN_WIDTH, new_figure

    fig, ax = new_figure(COLUMN_WIDTH, COLUMN_WIDTH * 0.75, layout="constrained")
    plot_reduction_privacy(_sweep(quick), ax)
    ax.set_xticks(np.linspace(0, 1, 11))
    return fig


@figure(name="paper000_fig2_tradeoff_ldp", paper="000/001", number="Fig. 2",
        shows="Example 1, alpha in (0, 1]: utility loss D_TV(X;Y) (left) and H(X) - I(X;Y) in bits (right) against "
              "LDP(S -> Y) for Lemma 1's Markov kernel and Proposition 1's non-Markov kernel (north-west plan).",
        erratum="The paper's LDP axis runs to 4, but LDP(S->Y) <= log2 5 = 2.32 for Example 1 over alpha in (0, 1]. "
                "D_TV = 1 - sum P_X(x) P(Y=x given X=x) (the paper's un-halved sum is twice that). The Example 1 numbers in the "
                "text (I = 1.19 / 0.36, D_TV = 0.23 / 0.68) do not reproduce; at alpha = 0.5 the definitions give "
                "1.359 / 0.428 bits and 0.105 / 0.355.")
def fig2(quick: bool = False):
    from ..viz.stochastic import plot_reduction_tradeoff
    from ..viz.style import PAGE_WIDTH, new_figure

    df = _sweep(quick)
    fig, (a, b) = new_figure(PAGE_WIDTH, PAGE_WIDTH * 0.36, ncols=2, layout="constrained")
    plot_reduction_tradeoff(df, "ldp", "tv", a, xlabel=r"privacy: $\mathcal{L}^{\rm LDP}(S\to Y)$ (bits)",
                            ylabel=r"utility loss: $D_{\rm TV}(X;Y)$", title="Total variation")
    plot_reduction_tradeoff(df, "ldp", "mi_loss", b, xlabel=r"privacy: $\mathcal{L}^{\rm LDP}(S\to Y)$ (bits)",
                            ylabel=r"utility loss: $H(X)-I(X;Y)$ (bits)", title="Mutual information")
    return fig


@figure(name="paper000_fig3_tradeoff_distortion", paper="000/001", number="Fig. 3",
        shows="Example 1: expected distortion E[d(X,Y)] against log-lift L(S -> Y) (bits), Markov vs the optimal "
              "non-Markov kernel (Proposition 2 transport LP), with d(x', x) = abs(i - j) on a, b, c, d -> 1..4.",
        erratum="The paper never states d; graphpriv assumes the metric abs(i - j) (so Proposition 2 is optimal). "
                "The paper's log-lift axis runs to 2.8 but L(S->Y) <= log2 2.4 = 1.26 for Example 1.")
def fig3(quick: bool = False):
    from ..viz.stochastic import plot_reduction_tradeoff
    from ..viz.style import COLUMN_WIDTH, new_figure

    df = _sweep(quick, distance=_D_ABS)
    fig, ax = new_figure(COLUMN_WIDTH, COLUMN_WIDTH * 0.75, layout="constrained")
    plot_reduction_tradeoff(df, "log_lift", "ed", ax, xlabel=r"privacy: $\mathcal{L}^{\rm LL}(S\to Y)$ (bits)",
                            ylabel=r"utility loss: $\mathbb{E}[d(X,Y)]$",
                            labels=("Markov (Lemma 1)", "non-Markov (Proposition 2)"),
                            title=r"Distortion vs log-lift, $d=|i-j|$")
    return fig


@figure(name="paper000_fig4_losses_vs_alpha", paper="000/001", number="Fig. 4",
        shows="Example 1: utility losses H(X) - I(X;Y) (bits) and D_TV(X;Y) of both schemes increase with alpha; "
              "D_TV grows linearly (0.709 alpha Markov, 0.21 alpha non-Markov).",
        erratum="The non-Markov kernel is not unique; graphpriv uses the north-west-corner plan, which reproduces "
                "the paper's s = 1 solution (I(X;Y) differs between plans, D_TV does not).")
def fig4(quick: bool = False):
    from ..viz.stochastic import plot_reduction_losses
    from ..viz.style import COLUMN_WIDTH, new_figure

    fig, ax = new_figure(COLUMN_WIDTH, COLUMN_WIDTH * 0.8, layout="constrained")
    plot_reduction_losses(_sweep(quick), ax)
    ax.set_xticks(np.linspace(0, 1, 11))
    return fig


@figure(name="paper000_ex1_transport_plans", paper="000/001", number="Example 1 (transport graphs)",
        shows="Example 1, alpha = 0.5: the optimal non-Markov kernel as one bipartite transport graph per s; senders "
              "X^-(s) (vermilion dots) keep q/p of their mass (grey band) and ship the rest along the wine edges, labelled "
              "with the amount, to receivers X^+(s) (north-west-corner plan; "
              "s = 1 ships 0.105 c->a, 0.035 c->b, 0.035 d->b, i.e. Q(a;1,c) = 0.21, Q(b;1,c) = 0.07, Q(b;1,d) = 0.175).",
        erratum="Not a figure of the paper: a graph view of Proposition 1's solution (the paper prints only s = 1's "
                "numbers, which this reproduces).")
def ex1_transport(quick: bool = False):
    from ..mechanisms.stochastic import linear_reduction, paper000_example1
    from ..viz.stochastic import plot_transport_plan, transport_legend_handles
    from ..viz.style import COLUMN_WIDTH, new_figure

    m = linear_reduction(paper000_example1(), 0.5, scheme="optimal")
    fig, (a, b) = new_figure(COLUMN_WIDTH * 1.5, COLUMN_WIDTH * 0.8, ncols=2, layout="constrained")
    plot_transport_plan(m, 1, a, legend=False)
    plot_transport_plan(m, 2, b, legend=False)
    fig.legend(handles=transport_legend_handles(), loc="outside lower center", ncol=4, frameon=False, fontsize=6.5,
               handletextpad=0.4, columnspacing=1.2)
    return fig
