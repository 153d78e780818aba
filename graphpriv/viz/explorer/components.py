"""The components of G_X as a two-step merge trace, for a component explorer of a joint range.

Before any mechanism runs, the structure that decides the maximin information is the partition of
the public values into the components of the confusability graph G_X: I*(S; X) = log |P| (Ding &
Farokhi, *Developing Non-Stochastic Privacy-Preserving Policies Using Agglomerative Clustering*,
Section II). :func:`component_trace` records it as a trace: t = 0 holds every public value alone and
t = 1 merges the values of each component into one cluster, so the explorer (:func:`graphpriv.viz.explore_components`)
shows each component as one band of the matrix view, with its values and its sensitive set on hover.
"""

from __future__ import annotations

import math

import numpy as np

__all__ = ["component_trace"]

#: ``MergeTrace.objective`` of a component trace (it is not a mechanism: no candidates are ranked).
OBJECTIVE = "components of G_X"


def component_trace(jr):
    """The two-step trace t = 0 (public values) -> t = 1 (one cluster per component of G_X).

    Privacy is I*(S; X) = log2 |P| at both steps (merging inside components joins none), utility is U1
    (log2 of |X| over the largest cluster), λ = 0.

    Examples
    --------
    >>> import graphpriv as gp
    >>> jr, _ = gp.datasets.paper_example()
    >>> tr = gp.viz.explorer.component_trace(jr)
    >>> [sorted(c) for c in tr.quantization(1)]
    [['x1', 'x2'], ['x3', 'x4'], ['x5'], ['x6'], ['x7']]
    >>> round(tr.step_privacy[1], 4)          # I* = log2 5
    2.3219
    """
    from ...graphs.support import components
    from ...mechanisms.trace import MergeTrace

    comp = np.asarray(components(jr).public, dtype=np.int64)
    n = jr.n_public
    pairs = []
    for c in np.unique(comp).tolist():
        codes = np.flatnonzero(comp == c).tolist()
        pairs += [(codes[0], j) for j in codes[1:]]
    k = int(comp.max()) + 1 if n else 0
    istar = math.log2(k) if k else 0.0
    biggest = int(np.bincount(comp).max()) if n else 1
    u0, u1 = math.log2(n) if n else 0.0, math.log2(n / biggest) if n else 0.0
    return MergeTrace(
        objective=OBJECTIVE, utility="U1", lam=0.0, public_labels=tuple(jr.public_labels.tolist()),
        components0=tuple(comp.tolist()), step_merges=((), tuple(pairs)), step_privacy=(istar, istar),
        step_utility=(u0, u1), step_L=(istar, istar), step_delta_L=(float("nan"), 0.0), step_n_clusters=(n, k),
        step_n_components=(k, k), step_accepted=(True, True), returned=1,
        info={"algorithm": "components of G_X (no mechanism)"})

