"""Checking a mechanism for perfect sample privacy, feasibility of disclosure, and cheap bounds on I_s.

Rassouli, Rosas & Gündüz, *Data Disclosure under Perfect Sample Privacy*: :func:`verify_sample_privacy` checks I(X_i; Y) = 0 for every sample of any mapping (Def. 1,
Lemma 1); :func:`is_disclosure_feasible` is Prop. 1 (I_s > 0 iff Null(P) is not inside
Null(P_{W|X^n})); :func:`disclosure_bounds` and :func:`self_disclosure_bounds` give Prop. 2, Remark 2,
Corollary 1.2 and Lemma 6.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np

from ..._validation import check_base
from .capacity import _prop2_bound
from .constraints import _H, _as_hypergraph, _check_protected, _conditional_on_support, _mi

__all__ = ["SamplePrivacyCheck", "verify_sample_privacy", "is_disclosure_feasible", "DisclosureBounds", "disclosure_bounds",
           "self_disclosure_bounds"]


@dataclass(frozen=True)
class SamplePrivacyCheck:
    """Outcome of :func:`verify_sample_privacy` (Lemma 1 post-condition).

    Attributes
    ----------
    is_private : bool
        Every protected sample (group) is independent of Y within ``tol``.
    leakage : tuple of float
        I(X_i; Y) per protected sample (group), in the chosen base.
    max_violation : float
        max |p(x_i, y) - p(x_i) p(y)|.
    information : float
        I(X^n; Y) -- what the mechanism discloses about the whole dataset.
    disclosure : float or None
        I(W; Y) when ``p_w_given_xn`` was given.
    """

    is_private: bool
    leakage: tuple
    max_violation: float
    information: float
    disclosure: float | None = None


def verify_sample_privacy(mapping, p_xn, *, p_w_given_xn=None, protected=None, tol: float = 1e-9, base: float = 2) -> SamplePrivacyCheck:
    """Check perfect sample privacy of any mechanism: I(X_i; Y) = 0 for every sample (paper 004, Def. 1, Lemma 1).

    Parameters
    ----------
    mapping : array_like, shape (|Y|, |X_1|...|X_n|) or (|Y|, |X_1|, ..., |X_n|)
        p(y | x^n), columns in C order; only columns with p(x^n) > 0 are read.
    p_xn : array_like or SampleHypergraph
        Joint pmf of the samples.
    p_w_given_xn : array_like, optional
        If given, also report I(W; Y).
    protected : list of tuples, optional
        Groups to check instead of single samples.
    tol : float
        Tolerance on max |p(x_i, y) - p(x_i) p(y)|.

    Examples
    --------
    Y = X_1 xor X_2 on two fair coins is sample-private and reveals 1 bit; Y = X_1 is not private:

    >>> import numpy as np
    >>> from graphpriv import verify_sample_privacy
    >>> p = np.full((2, 2), 0.25)
    >>> chk = verify_sample_privacy([[1, 0, 0, 1], [0, 1, 1, 0]], p)
    >>> chk.is_private, round(chk.information, 9)
    (True, 1.0)
    >>> verify_sample_privacy([[1, 1, 0, 0], [0, 0, 1, 1]], p).leakage
    (1.0, 0.0)
    """
    base = check_base(base)
    hg = _as_hypergraph(p_xn)
    K = _conditional_on_support(mapping, hg, "mapping", out="Y", neg_tol=1e-12)
    p = hg.weights
    joint = K * p[None, :]  # (L, E)
    p_y = joint.sum(1)
    groups = [(i,) for i in range(hg.n)] if protected is None else _check_protected(protected, hg.n)
    leak, viol = [], 0.0
    for g in groups:
        _, inv = np.unique(hg.support[:, list(g)], axis=0, return_inverse=True)
        inv = np.asarray(inv).ravel()
        jg = np.zeros((inv.max() + 1, K.shape[0]))
        np.add.at(jg, inv, joint.T)
        viol = max(viol, float(np.abs(jg - np.outer(jg.sum(1), p_y)).max()))
        leak.append(_mi(jg, base))
    info = _mi(joint, base)
    disc = None
    if p_w_given_xn is not None:
        PW = _conditional_on_support(p_w_given_xn, hg)
        disc = _mi(PW @ joint.T, base)
    return SamplePrivacyCheck(bool(viol <= tol), tuple(float(x) for x in leak), viol, info, disc)


def is_disclosure_feasible(p_w_given_xn, p_xn, *, tol: float = 1e-9) -> bool:
    """Prop. 1 of paper 004: I_s(W, X^n) > 0 iff Null(P) is not inside Null(P_{W|X^n}).

    Equivalently, some p(w | .) is not additively separable on the support. A polynomial rank test
    (no vertex enumeration).

    Examples
    --------
    >>> import numpy as np
    >>> from graphpriv import is_disclosure_feasible
    >>> p = np.full((2, 2), 0.25)
    >>> is_disclosure_feasible([[1, 0, 0, 1], [0, 1, 1, 0]], p)   # W = X1 xor X2
    True
    >>> is_disclosure_feasible([[1, 1, 0, 0], [0, 0, 1, 1]], p)   # W = X1
    False
    """
    hg = _as_hypergraph(p_xn)
    PW = _conditional_on_support(p_w_given_xn, hg)
    N = hg.null_basis("svd")
    if N.shape[1] == 0:
        return False
    return bool(np.abs(PW @ N).max() > tol)


@dataclass(frozen=True)
class DisclosureBounds:
    """Bounds on I_s (paper 004): ``lower <= I_s <= upper``.

    ``upper`` is Prop. 2 / Remark 2 (I(W; X^n) - max_j I(W; X_j)), which is Lemma 6 for
    self-disclosure; ``lower`` is Corollary 1.2 (H(X^n) - log rank P) for self-disclosure and 0
    otherwise; ``feasible`` is Prop. 1.
    """

    lower: float
    upper: float
    h_w: float
    i_w_xn: float
    max_single: float
    feasible: bool


def disclosure_bounds(p_w_given_xn, p_xn, *, base: float = 2) -> DisclosureBounds:
    """Prop. 2, Remark 2 and Prop. 1 of paper 004 for a given W: cheap bounds to report next to I_s.

    Examples
    --------
    Example 2 with the model's P_{W|X^2} (Proposition 2's bound I(W;X^2) - max_j I(W;X_j) = 0.540852 - 0.5 = 0.040852):

    >>> import numpy as np
    >>> from graphpriv import disclosure_bounds
    >>> p = np.array([[1, 3, 2], [2, 3, 1]]) / 12
    >>> pw = np.array([[[1, 1/3, 0], [1, 2/3, 0]], [[0, 2/3, 1], [0, 1/3, 1]]])
    >>> b = disclosure_bounds(pw, p)
    >>> round(b.i_w_xn, 6), round(b.max_single, 6), round(b.upper, 6)
    (0.540852, 0.5, 0.040852)
    """
    base = check_base(base)
    hg = _as_hypergraph(p_xn)
    PW = _conditional_on_support(p_w_given_xn, hg)
    p = hg.weights
    joint = PW * p[None, :]
    i_all = _mi(joint, base)
    up = _prop2_bound(PW, p, hg, None, base)
    return DisclosureBounds(0.0, up, float(_H(PW @ p, base)), i_all, i_all - up,
                            is_disclosure_feasible(p_w_given_xn, hg))


def self_disclosure_bounds(p_xn, *, base: float = 2) -> DisclosureBounds:
    """Corollary 1.2 and Lemma 6: H(X^n) - log rank P <= Î_s(X^n) <= H(X^n) - max_j H(X_j).

    Examples
    --------
    >>> from graphpriv import self_disclosure_bounds
    >>> import numpy as np
    >>> b = self_disclosure_bounds(np.full((2, 2, 2), 1 / 8))   # uniform bits: Î_s = n - 1 = 2
    >>> round(b.lower, 6), round(b.upper, 6)
    (1.0, 2.0)
    """
    base = check_base(base)
    hg = _as_hypergraph(p_xn)
    p = hg.weights
    h = float(_H(p, base))
    hmax = max(float(_H(m, base)) for m in hg.marginals())
    low = max(0.0, h - math.log(max(hg.rank, 1)) / math.log(base))
    return DisclosureBounds(low, h - hmax, h, h, hmax, hg.nullity > 0)
