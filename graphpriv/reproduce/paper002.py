"""Paper 002 (Sadeghi, Ding, Rakotoarivelo: privacy watchdog): Figs. 1-2, plus Algorithm 1 and Sec. IV views.

The paper uses 5000 random joint pmfs with |S| = 15, |X| = 20 and does not state their law; the
i.i.d.-uniform-entries law in nats reproduces every quantitative claim of Sec. V (a flat Dirichlet
law, base-2 thresholds or |S| = 20, |X| = 15 do not), so
the builders use it (``seed=2021``). The Monte-Carlo runs once per ``quick`` value and is shared by
Figs. 1 and 2; it runs in parallel with joblib and shows a progress bar on a terminal.
"""

from __future__ import annotations

import functools
import math

import numpy as np

from . import figure

__all__: list[str] = []

_SEED = 2021
_ERR_LAW = ("The law of the 5000 random p(s,x) is not stated in the paper; graphpriv draws i.i.d. U(0,1) entries "
            "and normalises (the law that reproduces the paper's Sec. V claims; a flat Dirichlet does not), "
            "natural logs, seed 2021, so curves match statistically, not exactly.")


@functools.lru_cache(maxsize=2)
def _monte_carlo(quick: bool):
    from ..mechanisms.stochastic import watchdog_monte_carlo

    if quick:
        return watchdog_monte_carlo(300, seed=_SEED, n_jobs=1, batch_size=100, progress=False)
    return watchdog_monte_carlo(5000, seed=_SEED, n_jobs=-1, batch_size=250, progress=None)


def _demo_P():
    P = np.random.default_rng(7).exponential(size=(4, 8))
    return P / P.sum()


@figure(name="paper002_fig1_tightness", paper="002", number="Fig. 1",
        shows="CDF over 5000 random p(s,x) (15 sensitive x 20 public values, eps=2 nats) of the maximum abs-log-lift on X_eps^c "
              "before randomisation (blue) and after the optimal X-invariant randomisation, eps^c (yellow, Theorem 1).",
        erratum="The red curve (upper bound of ref. [9], Prop. 2, capped at 23) is not drawn: the paper does not state "
                "that bound and ref. [9] is not available. " + _ERR_LAW)
def fig1(quick: bool = False):
    from ..viz.stochastic import plot_watchdog_tightness
    from ..viz.style import COLUMN_WIDTH, new_figure

    mc = _monte_carlo(quick)
    fig, ax = new_figure(COLUMN_WIDTH, COLUMN_WIDTH * 0.75, layout="constrained")
    plot_watchdog_tightness(mc, ax)
    return fig


@figure(name="paper002_fig2_nmil_cdf", paper="002", number="Fig. 2",
        shows="CDF of NMIL over 5000 random p(s,x) for the plain watchdog (eps=1, 2; delta=0) and Algorithm 1 "
              "(eps=1 with delta=0.005, eps_bar=2; delta=0.005, eps_bar=inf (1000); delta=0.01, eps_bar=4).",
        erratum="Medians 0.94, 0.53, 0.72, 0.54, 0.38 (graphpriv's run); for the green curve "
                "P(NMIL<=0.5) is about 0.93 against the paper's '>0.97'. " + _ERR_LAW)
def fig2(quick: bool = False):
    from ..viz.stochastic import plot_nmil_cdf
    from ..viz.style import COLUMN_WIDTH, new_figure

    mc = _monte_carlo(quick)
    fig, ax = new_figure(COLUMN_WIDTH, COLUMN_WIDTH * 0.8, layout="constrained")
    plot_nmil_cdf(mc, ax)
    return fig


@figure(name="paper002_alg1_trace", paper="002", number="Algorithm 1 (trace)",
        shows="Algorithm 1 on one Fig. 2-style draw (uniform p(s,x), 15 x 20, seed 0; eps=1, delta=0.01, "
              "eps_bar=4 nats): NMIL and Delta_total if each candidate is peeled off the merged block; 9 of 16 "
              "candidates are peeled (a prefix of the Delta-sorted list), NMIL 0.931 -> 0.382.",
        erratum="Not a figure of the paper: a graphpriv view of the merge/peel sequence of Algorithm 1.")
def alg1_trace(quick: bool = False):
    from ..mechanisms.stochastic import watchdog_eps_delta
    from ..viz.stochastic import plot_eps_delta_trace
    from ..viz.style import COLUMN_WIDTH, new_figure

    from ..distributions import JointDistribution

    r = watchdog_eps_delta(JointDistribution.random(15, 20, seed=0), 1.0, 0.01, 4.0)
    fig, axes = new_figure(COLUMN_WIDTH * 1.3, COLUMN_WIDTH * 1.05, nrows=2, sharex=True, layout="constrained")
    plot_eps_delta_trace(r, axes)
    return fig


@figure(name="paper002_sec4_critical_values", paper="002", number="Sec. IV",
        shows="Critical-value sweep of the watchdog on a 4x8 example (exponential entries, default_rng(7), "
              "normalised): eps_eff, eps^c of the merged block "
              "and NMIL at every threshold eps_j (eps^c is not monotone; a singleton X_eps^c gives eps^c > eps).",
        erratum="Not a figure of the paper. Thresholds use the <= rule; the paper's chain (6) is off by one "
                "(Sec. IV: the literal definition gives X^c_{eps_j} = {x_1..x_{j-1}}).")
def sec4(quick: bool = False):
    from ..mechanisms.stochastic import critical_sweep
    from ..viz.stochastic import plot_critical_sweep
    from ..viz.style import COLUMN_WIDTH, new_figure

    fig, ax = new_figure(COLUMN_WIDTH, COLUMN_WIDTH * 0.75, layout="constrained")
    plot_critical_sweep(critical_sweep(_demo_P()), ax)
    return fig


del math
