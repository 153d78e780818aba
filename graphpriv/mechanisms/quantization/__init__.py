"""Quantisation mechanisms: merges of public values (Ding & Farokhi, *Developing Non-Stochastic
Privacy-Preserving Policies Using Agglomerative Clustering*).

:class:`Contraction` is the state every merge mechanism works on: G_X quotiented by a partition Q of
[[X]], with the component partition P(Q), updated merge by merge.
"""

from .contraction import *  # noqa: F401,F403
from . import contraction as _contraction

__all__ = [*_contraction.__all__]
