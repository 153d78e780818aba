"""I_s in closed form for two binary samples.

Rassouli, Rosas & Gündüz, *Data Disclosure under Perfect Sample Privacy*, Section III-B, eqs. (24)-(26). The paper assumes beta >= alpha; :func:`two_binary_closed_form`
uses r in [max(0, alpha - beta), min(alpha, 1 - beta)] and is valid for any alpha, beta.
"""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np

from ..._validation import check_base, validate_pmf
from ...errors import InputError
from ...graphs.hypergraph import SampleHypergraph
from .constraints import _H, _conditional_on_support

__all__ = ["TwoBinaryDisclosure", "two_binary_closed_form"]


@dataclass(frozen=True, eq=False)
class TwoBinaryDisclosure:
    """Closed form of I_s for two binary samples (paper 004, Section III-B, eqs. (24)-(26)).

    ``alpha = P(X_1 = 0)``, ``beta = P(X_2 = 0)``, ``r = p(0, 1)``; the vertices are
    ``a_hi = p - (r_hi - r) n`` (weight ``lam``) and ``a_lo = p + (r - r_lo) n`` with n = [1, -1, -1, 1],
    r_lo = max(0, alpha - beta), r_hi = min(alpha, 1 - beta). For beta >= alpha these are the paper's
    a_1, a_2 with R = r_hi.
    """

    value: float
    mapping: np.ndarray = field(repr=False)
    vertices: np.ndarray = field(repr=False)
    weights: np.ndarray = field(repr=False)
    alpha: float = 0.0
    beta: float = 0.0
    r: float = 0.0
    r_lo: float = 0.0
    r_hi: float = 0.0


def two_binary_closed_form(p_w_given_xn, p_xn, *, base: float = 2) -> TwoBinaryDisclosure:
    """I_s and the optimal mapping for two binary samples in closed form (paper 004, eqs. (24)-(26)).

    The paper's formulas assume beta >= alpha (else the vertex a_2 = p + r n has a negative entry, e.g.
    alpha = .7, beta = .4, r = .45); this version uses r in [max(0, alpha - beta), min(alpha, 1 - beta)] and is
    valid for every full-support p. The mapping does not depend on W (nul(P) = 1, Prop. 4). With fewer than 4
    support points nul(P) = 0 and I_s = 0 (a constant Y).

    Parameters
    ----------
    p_w_given_xn : array_like, shape (|W|, 2, 2) or (|W|, 4)
    p_xn : array_like, shape (2, 2)

    Examples
    --------
    >>> import numpy as np
    >>> from graphpriv import two_binary_closed_form
    >>> p = np.full((2, 2), 0.25)
    >>> round(two_binary_closed_form([[1, 0, 0, 1], [0, 1, 1, 0]], p).value, 9)
    1.0
    """
    base = check_base(base)
    P = validate_pmf(p_xn, name="p_xn")
    if P.shape != (2, 2):
        raise InputError(f"two_binary_closed_form needs p_xn of shape (2, 2), got {P.shape}; use synergistic_disclosure")
    hg = SampleHypergraph.from_pmf(P)
    PW = np.asarray(p_w_given_xn, dtype=float)
    PW = PW.reshape(PW.shape[0], 4) if PW.ndim == 3 else PW
    if PW.ndim != 2 or PW.shape[1] != 4:
        raise InputError(f"p_w_given_xn must have shape (|W|, 2, 2) or (|W|, 4), got {np.shape(p_w_given_xn)}")
    _conditional_on_support(PW, hg)
    p = P.ravel()
    alpha, beta, r = p[0] + p[1], p[0] + p[2], p[1]
    r_lo, r_hi = max(0.0, alpha - beta), min(alpha, 1 - beta)
    h_w = float(_H(PW @ p, base))
    if r - r_lo <= 1e-15 or r_hi - r <= 1e-15:
        return TwoBinaryDisclosure(0.0, np.ones((1, 4)), p[None, :].copy(), np.ones(1), alpha, beta, r, r_lo, r_hi)
    nv = np.array([1.0, -1.0, -1.0, 1.0])
    a_hi = p - (r_hi - r) * nv
    a_lo = p + (r - r_lo) * nv
    lam = (r - r_lo) / (r_hi - r_lo)
    V = np.clip(np.vstack([a_hi, a_lo]), 0, None)
    w = np.array([lam, 1 - lam])
    value = h_w - lam * float(_H(PW @ a_hi, base)) - (1 - lam) * float(_H(PW @ a_lo, base))
    mapping = w[:, None] * V / p[None, :]
    return TwoBinaryDisclosure(float(value), mapping, V, w, float(alpha), float(beta), float(r), float(r_lo), float(r_hi))
