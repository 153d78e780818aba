"""Figures of the research tools: not in the papers; they answer questions the papers leave open."""

from __future__ import annotations

import numpy as np

from . import figure

__all__ = ["build_phase_transition", "build_search_gaps", "build_hungarian_search_frontiers"]


@figure(
    name="research_ensemble_phase_transition",
    paper="research",
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


@figure(
    name="research_search_gaps",
    paper="research",
    number="—",
    shows=(
        "Mean optimality gap L - L_exact (bits) of paper 003's greedy mechanisms (Algorithm 1: L0, Algorithm 2: I*, "
        "Section V-C: L0|I*=0), of search='beam' and of search='local', per objective and utility, on 20 seeded random "
        "joint ranges with |X| in [6, 9] and three λ each (60 rows per setting); error bars ± 1 standard error of the "
        "mean; a method optimal on every row is marked 0; the exact optimum enumerates every set partition."
    ),
    erratum="Not a paper figure.",
)
def build_search_gaps(quick: bool = False):
    """Grouped bars of mean gaps: greedy vs beam vs local."""
    import pandas as pd

    from ..analysis.ensembles import random_joint_range
    from ..mechanisms.quantization.comparison import compare_searches
    from ..viz.research import plot_gap_summary
    from ..viz.style import PAGE_WIDTH, new_figure

    n_inst, max_public = (4, 6) if quick else (20, 9)
    rng = np.random.default_rng(0)
    inst = []
    for _ in range(n_inst):
        nx_ = int(rng.integers(6, max_public + 1))
        jr = random_joint_range(int(rng.integers(3, 9)), nx_, float(rng.uniform(0.12, 0.35)), seed=rng)
        values = {x: float(v) for x, v in zip(jr.public_labels, np.round(rng.uniform(0, 10, size=jr.n_public), 1))}
        inst.append((jr, values))
    frames = []
    for objective in ("L0", "I*", "L0|I*=0"):
        for utility, lams in (("U1", [0.3, 1.0, 3.0]), ("U2", [0.1, 0.3, 1.0])):
            data = [(jr, v if utility == "U2" else None) for jr, v in inst]
            t = compare_searches(data, objective, lams, utility, methods=("greedy", "beam", "local"))
            t["objective"], t["utility"] = objective, utility
            frames.append(t)
    table = pd.concat(frames, ignore_index=True)
    fig, ax = new_figure(PAGE_WIDTH, 2.6)
    plot_gap_summary(table, ax=ax)
    ax.set_title(f"Greedy vs better-than-greedy search: mean gap to the exact optimum ({n_inst} random ranges, |X| ≤ {max_public})")
    ax.set_xlabel(f"problem and utility ({len(table) // 6} rows each: {n_inst} ranges × 3 λ; error bars ± 1 standard error)")
    fig.tight_layout()
    return fig


@figure(
    name="research_hungarian_search_frontiers",
    paper="research",
    number="—",
    shows=(
        "Hungarian heart-disease data (S = age, X = cholesterol), problem (3) (L0): the frontier of paper 003's greedy "
        "Algorithm 1, of search='beam' over a grid of λ, the exact optimum over interval partitions of the ordered "
        "cholesterol values (dynamic programming), and the region ruled out by proven bounds (no quantisation lies in "
        "the shaded area). (a) U1 (154 values, missing kept as its own value), (b) U2 = -max distortion in mg/dl "
        "(153 values, missing dropped)."
    ),
    erratum="Not a paper figure. The set-partition optimum at |X| = 153 lies between the best curve and the shaded bound.",
)
def build_hungarian_search_frontiers(quick: bool = False):
    """Two panels: greedy vs beam vs interval-exact vs certified bounds on the Hungarian data."""
    from ..datasets import hungarian_range
    from ..mechanisms.quantization.exact import frontier_bounds
    from ..mechanisms.quantization.frontier import pareto_filter, pareto_frontier
    from ..mechanisms.quantization.interval import interval_frontier
    from ..mechanisms.quantization.search import beam_search
    from ..viz.research import plot_search_frontiers
    from ..viz.style import PAGE_WIDTH, new_figure

    fig, axes = new_figure(PAGE_WIDTH, 2.9, ncols=2)
    for ax, utility, tag in zip(axes, ("U1", "U2"), ("a", "b")):
        jr = hungarian_range(missing="keep" if utility == "U1" else "drop")
        values = None if utility == "U1" else {x: float(x) for x in jr.public_labels.tolist()}
        greedy = pareto_frontier(jr, "L0", utility, values)
        interval = interval_frontier(jr, "L0", utility, values)
        # the beam at every λ where the greedy or the interval frontier changes (just inside each range)
        lams = sorted({p.lam_min * 1.001 + 1e-6 for f in (greedy, interval) for p in f.points if np.isfinite(p.lam_min)})
        beam = []
        for lam in lams[:: 4 if quick else 1]:
            r = beam_search(jr, "L0", lam, utility=utility, values=values)
            beam.append((r.privacy, r.utility))
        keep = pareto_filter([b[0] for b in beam], [b[1] for b in beam])
        bounds = frontier_bounds(jr, "L0", utility, values)
        plot_search_frontiers({"greedy": greedy, "beam": [beam[i] for i in keep.tolist()], "interval-exact": interval},
                              bounds, ax=ax, utility_label="U1 = I0(X→X̂) (bits)" if utility == "U1" else
                              "U2 = −max distortion (mg/dl)")
        ax.set_title(f"({tag}) L0 with {utility}, |X| = {jr.n_public}")
    fig.suptitle("Hungarian data: how far are the greedy and beam searches from optimal?", fontsize=9)
    fig.tight_layout()
    return fig
