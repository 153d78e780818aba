"""Paper 003's privacy mechanisms as merge/contract sequences: Algorithms 1 and 2 and Section V-C.

The implementation lives in :mod:`graphpriv.mechanisms.quantization` (one module per algorithm over
the :class:`~graphpriv.Contraction` state); this module keeps the documented rules and the old import path.

A quantisation X̂ of the public data X is a partition Q of [[X]]; releasing X̂ merges the nodes of every
cluster of G_X (contraction). :func:`agglomerate` runs

* ``objective="L0"`` -- Algorithm 1, problem (3): minimise L0(S → X̂) - λ U_i(X; X̂);
* ``objective="I*"`` -- Algorithm 2, problem (5): minimise I*(S; X̂) - λ U_i(X; X̂);
* ``objective="L0|I*=0"`` -- Section V-C, problem (10), eqs. (11)-(12): merge by argmin ΔL over Ψ
  until G_X̂ is connected (I* = 0), so the result always has I*(S; X̂) = 0.

Privacy is in bits (``base=2``). The Lagrangian recorded in traces is L = privacy - λ·utility with
privacy = L0(S → X̂) = log|S| - min_𝒳 log|S|𝒳| for Algorithm 1 (the paper writes -min log|S|𝒳| - λU,
which differs by the constant log|S| and has the same ΔL) and privacy = I*(S; X̂) = log|P| for Algorithm 2.

Tie rules and the return rule (paper 003; they reproduce the paper's Examples 1-5)
---------------------------------------------------------------------------------------------------
* A public value's index is its code (position in ``jr.public_labels``); a cluster's index is its
  smallest member's index; a pair's index is (smaller cluster index, larger), compared lexicographically.
* Algorithm 1: Π = clusters with the smallest |S|𝒳|, processed in increasing index; the partner of 𝒳 is,
  among clusters with a different S-set, the one minimising |𝒳 ⊔ 𝒳'| (U1) or d̄(𝒳 ⊔ 𝒳') (U2), ties to
  the lowest index; both leave Π after a merge (a merged cluster may still be a partner later in the
  sweep); a cluster without admissible partner leaves Π unmerged. ΔL is tested after each sweep.
  Returned: Q(t-1) when it stops on ΔL >= 0, Q(t) when one cluster is left and ΔL < 0.
* Algorithm 2: eq. (8) over Ψ (pairs in different components): U1 -- smallest |𝒳1| + |𝒳2|, ties to the
  pair joining the largest two components (compare (larger, smaller) component size, counted in original
  values), then the lowest pair index; U2 -- smallest d̄(𝒳1 ⊔ 𝒳2), ties to the lowest pair index.
  ΔL = log((|P|-1)/|P|) - λ(U(Q') - U(Q)) with the true U of the whole partition; stop when ΔL >= 0
  (Q(t) returned) or |P| = 1.
* Section V-C: argmin ΔL of eq. (12) over Ψ, ties to the smallest |S|𝒳1| + |S|𝒳2|, then the lowest pair
  index; iterate until one component (ΔL may be positive: the constraint I* = 0 is enforced).
* Costs and ΔL are compared with a tolerance: costs are rounded to multiples of 1e-9 before ties are
  decided, and a step is accepted when ΔL < -1e-12.

Errata (paper 003, tested in ``tests/test_mechanisms_paper003.py``)
-------------------------------------------------------------------
Example 2 (U2) prints the U1 run's Q(2) and returned set: its own ΔL = 0.0758 needs Q(2) = {{x1..x7}},
and it returns its own Q(1) = {{x1,x2,x4},{x3,x5},{x6,x7}}. Example 3 prints log(4/5) - λ log 2 for
-0.0219 (it is +λ log 2). Example 4 does not stop at t = 3 under its stated settings: the 4th merge
{x2} + {x7} has ΔL = -0.615 (the paper's stop needs λ >= 0.7792), so Q(4) = {{x1,x4},{x2,x7},{x3,x5,x6}}
is returned. Example 5's "|S|x2| = |S|x3| = 2" is 1 and 1.
"""

from .mechanism import _evaluate_groups, _trajectory, agglomerate, evaluate_quantization, lagrangian  # noqa: F401
from .problem import (_ALGORITHM, _COST_TOL, _DL_TOL, OBJECTIVES, _check_lam, _check_objective,  # noqa: F401
                                   _check_tie_rule, _Problem, _q, _Stopper, _Traj)
from .section_vc import _excl  # noqa: F401
from .result import (AgglomerationResult, _build_trace, _result_from_groups, _result_from_trace,  # noqa: F401
                                  _returned_index)

__all__ = ["agglomerate", "AgglomerationResult", "lagrangian", "evaluate_quantization", "OBJECTIVES"]
