"""The merge trajectory of paper 003's greedy mechanisms, by objective.

Ding & Farokhi, *Developing Non-Stochastic Privacy-Preserving Policies Using Agglomerative Clustering*:
Algorithm 1 (problem (3), L0), Algorithm 2 (problem (5), I*; U1 or a distortion utility) and Section V-C
(problem (10), L0 under I* = 0). Used by :func:`graphpriv.agglomerate`, the frontiers and the searches,
which import it from here (below all of them) rather than from the entry point.
"""

from __future__ import annotations

from ..utilities import _BoundU2
from .problem import _Problem, _Stopper, _Traj
from .section_vc import problem10


def _trajectory(prob: _Problem, lam: float | None) -> _Traj:
    """Run the mechanism. ``lam=None`` gives the full λ-free trajectory of Algorithms 1/2."""
    # Algorithms 1 and 2 hold numba kernels: imported on first use, so `import graphpriv` (and every
    # command that runs no mechanism) does not import numba (about 0.17 s)
    from .algorithm1 import alg1
    from .algorithm2 import alg2_u1, alg2_u2

    if prob.objective == "L0":
        return alg1(prob, _Stopper(lam))
    if prob.objective == "I*":
        if isinstance(prob.ub, _BoundU2) or not hasattr(prob.ub, "value_from_max_size"):
            return alg2_u2(prob, _Stopper(lam))
        return alg2_u1(prob, _Stopper(lam))
    return problem10(prob, 0.0 if lam is None else lam)
