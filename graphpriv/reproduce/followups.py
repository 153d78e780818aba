"""Figures of the works that follow the five papers, on the Hungarian heart-disease data (S = age, X = cholesterol).

* Ding & Sadeghi, *A Submodularity-based Clustering Algorithm for the Information Bottleneck and Privacy
  Funnel* (ITW 2019): the agglomerative privacy funnel's frontier, pairwise and subset merging;
* Zarrabian, Ding, Sadeghi & Rakotoarivelo, *Enhancing Utility in the Watchdog Privacy Mechanism*
  (ICASSP 2022) and Ding, Zarrabian & Sadeghi (arXiv:2101.10551): the watchdog variants against ε;
* every mechanism of graphpriv on the same table (:func:`graphpriv.compare_mechanisms`).

The Hungarian table is read with missing cholesterol kept as its own value (154 public values, 38 ages),
and its empirical pmf is the counts over the 293 patients.
"""

from __future__ import annotations

import functools

from . import figure

__all__: list[str] = []

_DATA = "Hungarian heart-disease data (S = age, X = serum cholesterol; 293 patients, 154 values, missing kept)"


@functools.lru_cache(maxsize=2)
def _comparison(quick: bool):
    from ..analysis.compare import compare_mechanisms
    from ..datasets import hungarian_range

    lams = [0.0, 0.2, 0.4, 0.6, 0.8, 1.0] if quick else None
    return compare_mechanisms(hungarian_range(missing="keep"), eps=1.0, funnel_lams=lams)


@figure(name="followups_hungarian_mechanisms", paper="follow-ups", number="—",
        shows=(f"{_DATA}: every mechanism of graphpriv on common axes -- paper 003's Algorithms 1, 2 and Section V-C "
               "(λ = 0.5, U1), the watchdog, (ε, δ) partitioning, subset merging and the α-lift watchdog (ε = 1 nat, "
               "δ = 0.05, α = ∞), the privacy funnel (pairwise and subset, λ = 0.5) and the linear reduction (α = 0.5). "
               "Lines: each mechanism's parameter sweep (non-dominated points); markers: the chosen setting; open "
               "circle: X released as it is. (a) I(S;X̂) vs I(X;X̂), (b) max |log-lift| vs I(X;X̂), (c) L0 vs U1."),
        erratum=("Not a paper figure. At ε = 1 nat every cholesterol value has an age it never occurs with (log-lift "
                 "-∞), so the two-sided watchdog, its subset variant and (here) the max-lift watchdog merge all 154 "
                 "values into one: their markers coincide at the origin."))
def hungarian_mechanisms(quick: bool = False):
    from ..viz.comparison import plot_mechanism_comparison

    fig = plot_mechanism_comparison(_comparison(quick))
    fig.suptitle("Every graphpriv mechanism on the Hungarian data (S = age, X = cholesterol)", fontsize=9)
    return fig


@figure(name="followups_hungarian_funnel_frontier", paper="follow-ups", number="—",
        shows=(f"{_DATA}: the agglomerative privacy funnel of Ding & Sadeghi (ITW 2019), min I(S;X̂) - λ I(X;X̂) over "
               "deterministic merges, λ = 0, 0.05, ..., 1: pairwise (greedy) and subset merging. Markers: the partition "
               "each λ returns; lines: the non-dominated points over every step of every run; dots: every step."),
        erratum=("Not a paper figure (the paper's experiments are on other heart-disease attributes). Subset merging "
                 "is not better here: at λ = 0.5 it stops at L = -0.691 bits against -1.288 for pairwise merging."))
def hungarian_funnel(quick: bool = False):
    from ..datasets import hungarian_range
    from ..distributions import JointDistribution
    from ..mechanisms.stochastic.funnel import funnel_frontier
    from ..viz.comparison import plot_funnel_frontier
    from ..viz.style import COLUMN_WIDTH, new_figure

    jd = JointDistribution.from_range(hungarian_range(missing="keep"))
    lams = [0.0, 0.2, 0.4, 0.6, 0.8, 1.0] if quick else None
    frs = [funnel_frontier(jd, lams, method) for method in ("greedy", "subset")]
    fig, ax = new_figure(COLUMN_WIDTH * 1.25, COLUMN_WIDTH * 0.9, layout="constrained")
    plot_funnel_frontier(frs, ax=ax)
    ax.set_title("Privacy funnel on the Hungarian data: pairwise vs subset merging")
    return fig


@figure(name="followups_hungarian_watchdog_variants", paper="follow-ups", number="—",
        shows=(f"{_DATA}: utility I(X;X̂) against ε (nats) of the watchdog (merge every x with max |log-lift| > ε), "
               "subset merging (Zarrabian et al., ICASSP 2022), the one-sided max-lift watchdog (α = ∞, Ding, "
               "Zarrabian & Sadeghi) and (ε, δ) partitioning (δ = 0.05). Dashed: ε = 1."),
        erratum=("Not a paper figure. ICASSP 2022's Table 1 (ε = 1: complete merging 0.5913 / 0.8037, two subsets "
                 "0.7335 / 0.8488) cannot be reproduced: its data set and its utility and leakage measures are not "
                 "known. On this table the two-sided watchdog merges everything at every finite ε (zero cells), so "
                 "subset merging cannot help; the one-sided max-lift watchdog publishes values from ε ≈ 2 nats on."))
def hungarian_watchdogs(quick: bool = False):
    from ..viz.comparison import plot_watchdog_variants
    from ..viz.style import COLUMN_WIDTH, new_figure

    fig, ax = new_figure(COLUMN_WIDTH * 1.25, COLUMN_WIDTH * 0.95, layout="constrained")
    plot_watchdog_variants(_comparison(quick), ax=ax)
    return fig
