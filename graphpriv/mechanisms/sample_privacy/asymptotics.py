"""The i.i.d. samples model and the limits of I_s as the number of samples grows.

Rassouli, Rosas & Gündüz, *Data Disclosure under Perfect Sample Privacy*, Section IV: W ~ p_w and X_1..X_n i.i.d. given W; merging the values of W with identical
conditionals (eq. (27), Theorem 2) gives W̃, whose output-perturbation capacity C_1(0) (Def. 3) is the
limit of I_s (Theorem 3); :func:`genie_disclosure` is J(W, X^n) of eq. (41) and
:func:`asymptotic_bounds` the chain of Prop. 5 and Remark 5. Convergence is slow: I_s is not monotone
in n (Table I: n = 5 gives 0.0539 > I_s(4) = 0.0447).
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field

import numpy as np

from ..._validation import check_base, validate_pmf
from ...errors import DistributionError, InputError, TooLargeError
from ...graphs.hypergraph import SampleHypergraph
from ...graphs.polytope import MAX_BASES, MAX_POLYTOPE_SUPPORT, MAX_VERTICES
from .capacity import _disclose
from .constraints import _H, _constraint_matrix

__all__ = ["iid_samples_model", "LatentReduction", "latent_reduction", "output_perturbation_capacity", "genie_disclosure",
           "AsymptoticBounds", "asymptotic_bounds"]


def _check_channel(p_w, p_x_given_w):
    pw = validate_pmf(p_w, ndim=1, name="p_w")
    C = np.asarray(p_x_given_w, dtype=float)
    if C.ndim != 2 or C.shape[1] != pw.size:
        raise InputError(f"p_x_given_w must have shape (|X|, |W|) = (?, {pw.size}) with columns p(. | w), got {C.shape}")
    if not np.isfinite(C).all() or (C < 0).any() or np.abs(C.sum(0) - 1).max() > 1e-8:
        raise DistributionError("every column p_x_given_w[:, w] must be a pmf over X")
    return pw, C


def iid_samples_model(p_w, p_x_given_w, n: int) -> tuple[np.ndarray, np.ndarray]:
    """The i.i.d. model of Section IV: W ~ p_w, X_1..X_n i.i.d. given W with P_{X|W}.

    Parameters
    ----------
    p_w : array_like, shape (|W|,)
    p_x_given_w : array_like, shape (|X|, |W|)
        Column w is p(. | w) (the paper's column-stochastic P_{X|W}).
    n : int

    Returns
    -------
    p_w_given_xn : ndarray, shape (|W|, |X|, ..., |X|)
        Columns with p(x^n) = 0 are uniform.
    p_xn : ndarray, shape (|X|,) * n

    Examples
    --------
    Table I (P(W = 1) = 1/3, BSC(0.1)), n = 2: I_s = 8.34e-3 bits.

    >>> from graphpriv import iid_samples_model
    >>> pw, px = iid_samples_model([2/3, 1/3], [[0.9, 0.1], [0.1, 0.9]], 2)
    >>> from graphpriv import synergistic_disclosure
    >>> round(synergistic_disclosure(pw, px).value, 7)
    0.0083377
    """
    pw, C = _check_channel(p_w, p_x_given_w)
    if not isinstance(n, (int, np.integer)) or n < 1:
        raise InputError(f"n must be a positive integer, got {n!r}")
    m = C.shape[0]
    if m ** n * pw.size > 5e7:
        raise TooLargeError(f"the model has {m}^{n} x {pw.size} entries; too large")
    joint = pw.reshape((pw.size,) + (1,) * n)
    for i in range(n):
        shape = [1] * (n + 1)
        shape[0] = pw.size
        shape[i + 1] = m
        joint = joint * C.T.reshape(shape)
    p_xn = joint.sum(0)
    with np.errstate(invalid="ignore", divide="ignore"):
        cond = np.where(p_xn > 0, joint / np.where(p_xn > 0, p_xn, 1), 1.0 / pw.size)
    return cond, p_xn


@dataclass(frozen=True, eq=False)
class LatentReduction:
    """W̃ = T^X(W): W with values of identical p(x | w) merged (paper 004, eq. (27), Theorem 2).

    ``value`` is C_X(W) = H(W̃) = lim_n I(W; X^n); ``merge[w]`` is the W̃ value of w.
    """

    value: float
    merge: np.ndarray = field(repr=False)
    p_w_tilde: np.ndarray = field(repr=False)
    p_x_given_w_tilde: np.ndarray = field(repr=False)


def latent_reduction(p_w, p_x_given_w, *, atol: float = 1e-12, base: float = 2) -> LatentReduction:
    """Merge the values of W that have identical conditionals p(. | w): W̃ and C_X(W) (paper 004, Thm 2, Fig. 3).

    Examples
    --------
    A Theorem 2 merge: p_W = (1/4, 1/4, 1/2), P(X = 1 | w) = (0.2, 0.2, 0.7) gives two values and H(W̃) = 1 bit.

    >>> from graphpriv import latent_reduction
    >>> r = latent_reduction([0.25, 0.25, 0.5], [[0.8, 0.8, 0.3], [0.2, 0.2, 0.7]])
    >>> r.merge.tolist(), round(r.value, 9)
    ([0, 0, 1], 1.0)
    """
    base = check_base(base)
    pw, C = _check_channel(p_w, p_x_given_w)
    merge = np.full(pw.size, -1, dtype=np.int64)
    reps = []
    for w in range(pw.size):
        for k, rw in enumerate(reps):
            if np.abs(C[:, w] - C[:, rw]).max() <= atol:
                merge[w] = k
                break
        else:
            merge[w] = len(reps)
            reps.append(w)
    pt = np.bincount(merge, weights=pw, minlength=len(reps))
    Ct = C[:, reps]
    return LatentReduction(float(_H(pt, base)), merge, pt, Ct)


def output_perturbation_capacity(p_w, p_x_given_w, *, base: float = 2) -> float:
    """C_1(0) of paper 004 (Def. 3): max I(W̃; Y) with X - W̃ - Y and Y ⟂ X -- the limit of I_s (Theorem 3).

    Same machinery as Algorithm 2 with P replaced by P_{X|W̃}: vertices of {t >= 0 : P_{X|W̃} t = p_X}.

    Examples
    --------
    A second asymptotic model (W uniform on 3 values, P(X = 1 | w) = 0.1, 0.5, 0.9): C_1(0) = 0.9183; the Table I
    model has C_1(0) = 0.

    >>> from graphpriv import output_perturbation_capacity
    >>> import numpy as np
    >>> round(output_perturbation_capacity(np.ones(3) / 3, [[.9, .5, .1], [.1, .5, .9]]), 4)
    0.9183
    """
    base = check_base(base)
    red = latent_reduction(p_w, p_x_given_w)
    pt, Ct = red.p_w_tilde, red.p_x_given_w_tilde
    keep = pt > 0
    pt, Ct = pt[keep], Ct[:, keep]
    u, V, lp, h_w = _disclose(np.eye(pt.size), pt, Ct, method="auto", max_support=MAX_POLYTOPE_SUPPORT,
                              max_bases=MAX_BASES, max_vertices=MAX_VERTICES, base=base)
    return float(h_w - lp)


def genie_disclosure(p_w, p_x_given_w, n: int, *, base: float = 2) -> float:
    """J(W, X^n) of paper 004, eq. (41): a curator that also sees W̃; J(W, X^1) = C_2(0) (Remark 5).

    The dataset is (W̃, X^n) with only X_1..X_n protected; non-increasing in n towards C_1(0).

    Examples
    --------
    Table I model (P(W = 1) = 1/3, X_i | W i.i.d. BSC(0.1)): J = 0.192494, 0.162171 for n = 1, 2
    (non-increasing, Remark 5).

    >>> from graphpriv import genie_disclosure
    >>> [round(genie_disclosure([2/3, 1/3], [[.9, .1], [.1, .9]], n), 6) for n in (1, 2)]
    [0.192494, 0.162171]
    """
    base = check_base(base)
    red = latent_reduction(p_w, p_x_given_w)
    pt, Ct = red.p_w_tilde, red.p_x_given_w_tilde
    if not isinstance(n, (int, np.integer)) or n < 1:
        raise InputError(f"n must be a positive integer, got {n!r}")
    # joint pmf of (W̃, X^n)
    joint = pt.reshape((pt.size,) + (1,) * n)
    m = Ct.shape[0]
    for i in range(n):
        shape = [1] * (n + 1)
        shape[0] = pt.size
        shape[i + 1] = m
        joint = joint * Ct.T.reshape(shape)
    hg = SampleHypergraph.from_pmf(joint / joint.sum())
    PW = np.zeros((pt.size, hg.n_edges))
    PW[hg.support[:, 0], np.arange(hg.n_edges)] = 1.0
    M = _constraint_matrix(hg, [(i,) for i in range(1, n + 1)])
    u, V, lp, h_w = _disclose(PW, hg.weights, M, method="auto", max_support=MAX_POLYTOPE_SUPPORT,
                              max_bases=MAX_BASES, max_vertices=MAX_VERTICES, base=base)
    return float(h_w - lp)


@dataclass(frozen=True)
class AsymptoticBounds:
    """The chain of paper 004, Prop. 5 and Remark 5 (bits by default):

    (C_X(W) - log|X|)^+ <= C_1(0) <= C_2(0) <= H(W̃ | X) <= H(W | X),

    where C_1(0) = lim_n I_s(W, X^n) (Theorem 3) and C_2(0) = J(W, X^1).
    """

    lower: float
    c1_zero: float
    c2_zero: float
    h_wtilde_given_x: float
    h_w_given_x: float
    c_x: float


def asymptotic_bounds(p_w, p_x_given_w, *, base: float = 2) -> AsymptoticBounds:
    """Prop. 5 of paper 004 for the i.i.d. model: bounds on the limit C_1(0) of I_s(W, X^n).

    (The extracted paper prints "H(W|X) <= H(W|X)"; the chain's last step is H(W̃|X) <= H(W|X).)

    Examples
    --------
    A second asymptotic model (W uniform on 3 values, P(X = 1 | w) = 0.1, 0.5, 0.9), Proposition 5's chain:

    >>> from graphpriv import asymptotic_bounds
    >>> import numpy as np
    >>> b = asymptotic_bounds(np.ones(3) / 3, [[.9, .5, .1], [.1, .5, .9]])
    >>> [round(v, 4) for v in (b.lower, b.c1_zero, b.c2_zero, b.h_w_given_x)]
    [0.585, 0.9183, 1.0516, 1.231]
    """
    base = check_base(base)
    pw, C = _check_channel(p_w, p_x_given_w)
    red = latent_reduction(pw, C, base=base)
    jw = C * pw[None, :]
    jt = red.p_x_given_w_tilde * red.p_w_tilde[None, :]
    h_w_x = float(_H(jw.ravel(), base) - _H(jw.sum(1), base))
    h_t_x = float(_H(jt.ravel(), base) - _H(jt.sum(1), base))
    lower = max(0.0, red.value - math.log(C.shape[0]) / math.log(base))
    return AsymptoticBounds(lower, output_perturbation_capacity(pw, C, base=base), genie_disclosure(pw, C, 1, base=base),
                            h_t_x, h_w_x, red.value)
