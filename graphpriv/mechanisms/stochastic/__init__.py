"""Stochastic mechanisms: the privacy watchdog and (eps, delta) partitioning, and the linear reduction.

* The **privacy watchdog** (Sadeghi, Ding & Rakotoarivelo, *On Properties and Optimization of
  Information-theoretic Privacy Watchdog*) publishes the low-risk public symbols and merges the rest:
  :mod:`.log_lift_sets` (eps(B), Delta, NMIL of a merged set; partitions), :mod:`.optimal_merge`
  (eq. (1), Theorem 1, critical sweep), :mod:`.eps_delta` (Algorithm 1 and problem (13)),
  :mod:`.monte_carlo` (Figs. 1-2), :mod:`.traces` (their runs as merge traces).
  **Natural log (nats) by default** -- ``base=math.e`` -- because the
  paper's proofs use e^{eps} and only nats reproduce its Fig. 2; pass ``base=2`` for bits.
* The **linear reduction** (Ding, Liu & Farokhi, *A Linear Reduction Method for Local Differential
  Privacy and Log-lift*) mixes P_{X|S} with P_X: :mod:`.linear_kernels` (eq. (3), Lemma 1, Sec. III-B),
  :mod:`.linear_mechanism` (eq. (6), utility, the alpha sweep). **Bits by default** -- the unit of the
  paper's figures.
* The **agglomerative privacy funnel / information bottleneck** (Ding & Sadeghi, ITW 2019):
  :mod:`.funnel` (pairwise and subset merges, the λ sweep). **Bits by default**.
* **Watchdog variants**: subset merging (Zarrabian, Ding, Sadeghi & Rakotoarivelo, ICASSP 2022),
  :mod:`.subset_watchdog`; the α-lift watchdog (Ding, Zarrabian & Sadeghi, arXiv:2101.10551),
  :mod:`.alpha_lift_watchdog`. **Nats by default**, like the watchdog.
"""

from .log_lift_sets import *  # noqa: F401,F403
from .optimal_merge import *  # noqa: F401,F403
from .eps_delta import *  # noqa: F401,F403
from .monte_carlo import *  # noqa: F401,F403
from .linear_kernels import *  # noqa: F401,F403
from .linear_mechanism import *  # noqa: F401,F403
from .traces import *  # noqa: F401,F403
from .funnel import *  # noqa: F401,F403
from .subset_watchdog import *  # noqa: F401,F403
from .alpha_lift_watchdog import *  # noqa: F401,F403
from . import alpha_lift_watchdog, funnel, subset_watchdog
from . import eps_delta, linear_kernels, linear_mechanism, log_lift_sets, monte_carlo, optimal_merge, traces

__all__ = [*optimal_merge.__all__, *eps_delta.__all__, *log_lift_sets.__all__, *monte_carlo.__all__,
           *linear_kernels.__all__, *linear_mechanism.__all__, *traces.__all__, *funnel.__all__,
           *subset_watchdog.__all__, *alpha_lift_watchdog.__all__]
