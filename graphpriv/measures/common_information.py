"""Gács--Körner common information, the stochastic counterpart of I* (paper 003, Section VI)."""

from __future__ import annotations

import numpy as np

from .._validation import check_base
from ..distributions import JointDistribution, validate_pmf
from ..graphs.support import support_components
import scipy.sparse as sp

__all__ = ["gacs_korner"]


def gacs_korner(pmf, *, base: float = 2) -> float:
    """Gács--Körner common information C_GK(S;X) of a joint pmf.

    C_GK is the entropy of the common part: the component of the bipartite support graph of p(s, x)
    that both S and X determine. It is zero iff the support graph is connected, i.e. iff I*(S;X) = 0
    for the support (paper 003, Section VI), and C_GK <= I*(S;X) always.

    Parameters
    ----------
    pmf : JointDistribution or array_like of shape (|S|, |X|)
    base : float, default 2

    Examples
    --------
    >>> import graphpriv as gp
    >>> round(gp.gacs_korner([[0.25, 0.0], [0.0, 0.75]]), 4)   # h(1/4)
    0.8113
    """
    b = check_base(base)
    p = pmf.P if isinstance(pmf, JointDistribution) else validate_pmf(pmf, ndim=2)
    p = p[p.sum(axis=1) > 0][:, p.sum(axis=0) > 0]
    comp = support_components(sp.csr_array(p > 0))
    mass = np.bincount(comp.sensitive, weights=p.sum(axis=1), minlength=comp.n_components)
    mass = mass[mass > 0]
    h = float(-(mass * np.log(mass)).sum() / np.log(b))
    return max(h, 0.0)
