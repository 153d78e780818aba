"""Figures of the research tools (issue 8): not in the papers; they answer questions the papers leave open."""

from __future__ import annotations

import numpy as np

from . import figure

__all__ = ["build_phase_transition"]


@figure(
    name="research_ensemble_phase_transition",
    paper="research (issue 8)",
    number="—",
    shows=(
        "Random joint ranges with each (s, x) pair present with probability p (|S| = 120, |X| = 16, 200 draws per p, "
        "seed 0): mean I*(S;X) falls from about log2|X| to 0 as p grows, P(I* > 0) drops from 1 to 0 "
        "between p ≈ 0.03 and p ≈ 0.08; right panel: the network strength of G_X, 0 while decomposable, then growing."
    ),
    erratum="Not a paper figure. Empty labels get one random pair (empty='attach'), so at low p I* sits slightly below log2|X|.",
)
def build_phase_transition(quick: bool = False):
    """Two panels: the phase transition of I* and the strength of G_X versus density."""
    from ..analysis.ensembles import ensemble_study
    from ..viz.research import plot_phase_transition, plot_strength_vs_density
    from ..viz.style import PAGE_WIDTH, new_figure

    if quick:
        study = ensemble_study(40, 8, np.geomspace(0.01, 0.3, 5), n_samples=8, seed=0)
    else:
        study = ensemble_study(120, 16, np.geomspace(0.002, 0.12, 22), n_samples=200, seed=0, n_jobs=1)
    fig, (a, b) = new_figure(PAGE_WIDTH, 2.5, ncols=2)
    plot_phase_transition(study, ax=a)
    a.set_title(f"(a) I* on random ranges, |S|={study.n_sensitive}, |X|={study.n_public}")
    plot_strength_vs_density(study, ax=b)
    b.set_title("(b) distance to decomposability")
    fig.tight_layout()
    return fig
