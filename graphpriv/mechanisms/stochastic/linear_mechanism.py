"""The linear-reduction mechanism: its privacy (eq. (6)), its utility, and the alpha sweep.

Ding, Liu & Farokhi, *A Linear Reduction Method for Local Differential Privacy and Log-lift*: with
the kernels of :mod:`.linear_kernels`, P_Y = P_X (eq. (4)), every deviation P_{Y|S} - P_Y shrinks by
exactly (1 - alpha) (eq. (5)), and LDP / log-lift shrink roughly -- *not* exactly -- by (1 - alpha)
(eq. (6); not an inequality in either direction): :func:`reduction_ldp` and
:func:`reduction_log_lift` give the exact closed forms, ``approx=True`` the paper's first-order values.

Example 1's four utility numbers (I = 1.19, D_TV = 0.23 non-Markov; I = 0.36, D_TV = 0.68 Markov) do
**not** reproduce under any log base, TV normalisation, solution choice or single alpha: graphpriv
returns the values the definitions give (0.1050 / 1.3593 bits and 0.3545 / 0.4284 bits at alpha =
0.5). D_TV is 1 - sum_x P_X(x) P_{Y|X}(x|x) (the paper's un-halved double sum is twice that).
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np
import pandas as pd

from ..._validation import check_base
from ...distributions import JointDistribution
from ...errors import InputError
from ...measures.stochastic import _joint, ldp as _ldp, max_abs_log_lift as _mall
from ..._validation import real_array
from .linear_kernels import (_check_alpha, _distance_matrix, _parts, induced_channel, markov_kernel, markov_solution_is_unique,
                             optimal_kernel, satisfies_triangle_inequality, target_conditional)
from .log_lift_sets import _codes_of
from ...citations import record_use

__all__ = ["paper000_example1", "reduction_ldp", "reduction_log_lift", "total_variation_loss", "expected_distortion",
           "LinearReduction", "linear_reduction", "linear_reduction_sweep"]


def paper000_example1() -> JointDistribution:
    """Example 1 of papers 000/001: S = {1, 2}, X = {a, b, c, d}, P_S = (0.3, 0.7), P_{X|S} as printed.

    (The paper calls the table a "joint" probability; its rows sum to 1, so it is P_{X|S}.)

    Examples
    --------
    >>> import graphpriv as gp
    >>> gp.paper000_example1().P.round(2).tolist()
    [[0.06, 0.03, 0.15, 0.06], [0.35, 0.21, 0.07, 0.07]]
    """
    return JointDistribution.from_conditional([[0.2, 0.1, 0.5, 0.2], [0.5, 0.3, 0.1, 0.1]], [0.3, 0.7],
                                              sensitive_labels=[1, 2], public_labels=["a", "b", "c", "d"])


def reduction_log_lift(jd, alpha, *, base: float = 2, approx: bool = False):
    """Exact log-lift L^LL(S -> Y) of the linear reduction, as a function of alpha.

    L^LL(S -> Y) = max_{s,x} |log((1 - alpha) r(s, x) + alpha)| with r the lift of (S, X) (the lift of Y
    is (1 - alpha) r + alpha, so this is exact where eq. (6b) is a first-order approximation);
    ``approx=True`` gives the paper's first-order value (1 - alpha) L^LL(S -> X) (eq. (6b)). Finite for
    alpha > 0, non-increasing, 0 at alpha = 1. Same for Markov and non-Markov kernels.

    Parameters
    ----------
    alpha : float or array of floats in (0, 1]

    Examples
    --------
    >>> import graphpriv as gp
    >>> jd = gp.paper000_example1()
    >>> round(gp.reduction_log_lift(jd, 0.5), 4), round(gp.reduction_log_lift(jd, 0.5, approx=True), 4)   # Example 1
    (0.7105, 0.6315)
    """
    return _over_alpha(jd, alpha, base, approx, "ll")


def reduction_ldp(jd, alpha, *, base: float = 2, approx: bool = False):
    """Exact LDP L^LDP(S -> Y) of the linear reduction, as a function of alpha.

    max_x log(((1 - alpha) max_s r(s, x) + alpha) / ((1 - alpha) min_s r(s, x) + alpha)) (exact: the lift
    of Y is (1 - alpha) r + alpha);
    ``approx=True`` gives (1 - alpha) L^LDP(S -> X) (eq. (6a)).

    Examples
    --------
    >>> import graphpriv as gp
    >>> round(gp.reduction_ldp(gp.paper000_example1(), 0.5), 4)      # log2 2.25
    1.1699
    """
    return _over_alpha(jd, alpha, base, approx, "ldp")


def _over_alpha(jd, alpha, base, approx: bool, which: str):
    jd = _joint(jd).drop_zero_mass()
    lnb = math.log(check_base(base))
    scalar = np.ndim(alpha) == 0
    alphas = np.atleast_1d(real_array(alpha, "alpha"))       # numbers, not texts such as '0.5'
    for a in alphas:
        _check_alpha(a)
    r = jd.lift()
    out = np.empty(alphas.shape)
    if approx:
        L0 = _mall(jd, base=base) if which == "ll" else _ldp(jd, base=base)
        out = (1 - alphas) * L0
    else:
        rmax, rmin = r.max(axis=0), r.min(axis=0)
        for k, a in enumerate(alphas):
            if which == "ll":
                out[k] = np.max(np.abs(np.log((1 - a) * r + a))) / lnb
            else:
                out[k] = np.max(np.log(((1 - a) * rmax + a) / ((1 - a) * rmin + a))) / lnb
    out = np.maximum(out, 0.0)
    return float(out[0]) if scalar else out


def total_variation_loss(jd, kernel, *, variant: str = "tv") -> float:
    """D_TV(X, Y) = 1 - sum_x P_X(x) P_{Y|X}(x|x) = Pr[Y != X] (paper 000 App. B, canonical form).

    ``variant="l1"`` gives the paper's un-halved double sum (= 2 D_TV; App. B and footnote 10 equate it
    with D_TV, a factor-2 erratum).

    Examples
    --------
    >>> import graphpriv as gp
    >>> jd = gp.paper000_example1()
    >>> round(gp.total_variation_loss(jd, gp.markov_kernel(jd, 0.5)), 4)     # paper prints 0.68: erratum
    0.3545
    """
    jd = _joint(jd)
    K = induced_channel(jd, kernel)
    v = 1.0 - float(jd.p_x @ np.diag(K))
    if variant == "tv":
        return max(v, 0.0)
    if variant == "l1":
        return 2 * max(v, 0.0)
    raise InputError(f"variant={variant!r} must be 'tv' or 'l1'")


def expected_distortion(jd, kernel, distance) -> float:
    """E[d(X, Y)] = sum_{x', y} P_X(x') P_{Y|X}(y|x') d(x', y) (paper 000 Sec. III)."""
    jd = _joint(jd)
    D = _distance_matrix(jd, distance)
    K = induced_channel(jd, kernel)
    return float((jd.p_x[:, None] * K * D).sum())


def _mi_xy(px: np.ndarray, K: np.ndarray, lnb: float) -> float:
    Pxy = px[:, None] * K
    py = Pxy.sum(axis=0)
    m = Pxy > 0
    return max(float((Pxy[m] * np.log(Pxy[m] / np.outer(px, py)[m])).sum()) / lnb, 0.0)


@dataclass(frozen=True, repr=False)
class LinearReduction:
    """A linear-reduction mechanism (papers 000/001) and its privacy/utility report.

    ``kernel``: Markov (|X|, |Y|) with rows = input x', or non-Markov (|S|, |X|, |Y|) = P(y|s, x').
    ``target``: P_{Y|S} (eq. (3)). ``channel``: induced P_{Y|X} (eq. (9)). Logarithmic fields in ``base``.
    """

    alpha: float
    scheme: str
    utility: str
    method: str
    base: float
    kernel: np.ndarray
    target: np.ndarray
    channel: np.ndarray
    sensitive_labels: np.ndarray
    public_labels: np.ndarray
    ldp: float                   # L^LDP(S -> Y), exact
    log_lift: float              # L^LL(S -> Y), exact
    ldp_x: float                 # L^LDP(S -> X) (release X unchanged)
    log_lift_x: float            # L^LL(S -> X)
    mutual_information_xy: float  # I(X; Y)
    entropy_x: float             # H(X)
    tv: float                    # D_TV(X, Y) = Pr[Y != X]
    expected_distortion: float | None
    markov_unique: bool | None   # Markov scheme: is Lemma 1's kernel the only Markov solution?
    p_x_given_s: np.ndarray | None = None   # input conditional P_{X|S}, shape (|S|, |X|)
    p_x: np.ndarray | None = None           # input marginal P_X (the Markov kernel draws fresh values from it)

    @property
    def is_markov(self) -> bool:
        return self.kernel.ndim == 2

    @property
    def mi_loss(self) -> float:
        """H(X) - I(X; Y) = H(X|Y)."""
        return max(self.entropy_x - self.mutual_information_xy, 0.0)

    def apply(self, s, x, rng=None) -> np.ndarray:
        """Sanitise records: draw y ~ kernel[x'] (Markov; ``s`` may be None) or kernel[s, x'].

        Parameters
        ----------
        s, x : label or sequences of sensitive / public labels (same length)
        rng : int, numpy Generator or None
        """
        xc = _codes_of(x, self.public_labels, "x")
        gen = np.random.default_rng(rng)
        if self.is_markov:
            W = self.kernel[xc]
        else:
            if s is None:
                raise InputError("the non-Markov kernel needs the sensitive value s of every record")
            sc = _codes_of(s, self.sensitive_labels, "s")
            if sc.shape != xc.shape:
                raise InputError(f"s and x must have the same length, got {sc.size} and {xc.size}")
            W = self.kernel[sc, xc]
        cdf = np.cumsum(W, axis=1)
        y = np.minimum((gen.random(len(xc))[:, None] > cdf).sum(axis=1), W.shape[1] - 1)
        return self.public_labels[y]

    def report(self) -> dict:
        """Privacy and utility summary (JSON-able)."""
        return {
            "alpha": self.alpha, "scheme": self.scheme, "utility": self.utility, "method": self.method, "base": self.base,
            "LDP_Y": self.ldp, "LL_Y": self.log_lift, "LDP_X": self.ldp_x, "LL_X": self.log_lift_x,
            "I_XY": self.mutual_information_xy, "H_X": self.entropy_x, "MI_loss": self.mi_loss, "D_TV": self.tv,
            "E_d": self.expected_distortion, "markov_unique": self.markov_unique,
        }

    def __repr__(self) -> str:
        ed = "" if self.expected_distortion is None else f", E[d]={self.expected_distortion:.4g}"
        return (f"LinearReduction(alpha={self.alpha:g}, scheme={self.scheme!r}, kernel{self.kernel.shape}, "
                f"LDP={self.ldp:.4g}, LL={self.log_lift:.4g}, D_TV={self.tv:.4g}, I(X;Y)={self.mutual_information_xy:.4g}{ed})")


def linear_reduction(jd, alpha: float, scheme: str = "markov", utility: str = "tv", distance=None, *,
                     method: str = "auto", plan: str = "northwest", base: float = 2) -> LinearReduction:
    """Linear-reduction mechanism of papers 000/001 for reduction level ``alpha``.

    Parameters
    ----------
    jd : JointDistribution or array_like (|S|, |X|)
    alpha : float in (0, 1]
        Reduction level of eq. (3); 1 gives Y independent of S.
    scheme : {"markov", "optimal"}
        Lemma 1's Markov kernel, or the optimal non-Markov kernel (:func:`optimal_kernel`).
    utility : {"tv", "distance"}
        The utility the optimal kernel maximises (ignored by the Markov kernel, which is fixed).
    distance : matrix or callable, optional
        d(x', x); needed for ``utility="distance"``; when given, ``expected_distortion`` is reported.
    method, plan : see :func:`optimal_kernel`.
    base : float, default 2
        **Bits by default** (the figures of papers 000/001).

    Returns
    -------
    LinearReduction

    Examples
    --------
    >>> import graphpriv as gp
    >>> jd = gp.paper000_example1()
    >>> m = gp.linear_reduction(jd, 0.5)
    >>> m.kernel.shape, round(m.tv, 4), round(m.mutual_information_xy, 4)   # paper: 0.68 and 0.36 (erratum)
    ((4, 4), 0.3545, 0.4284)
    >>> o = gp.linear_reduction(jd, 0.5, scheme="optimal")
    >>> o.kernel.shape, round(o.tv, 4), round(o.mutual_information_xy, 4)   # paper: 0.23 and 1.19 (erratum)
    ((2, 4, 4), 0.105, 1.3593)
    >>> round(o.ldp, 4), round(o.log_lift, 4)
    (1.1699, 0.7105)
    """
    record_use("linear_reduction")  # for gp.cite()
    jd = _joint(jd)
    a = _check_alpha(alpha)
    b = check_base(base)
    lnb = math.log(b)
    if scheme == "markov":
        if utility not in ("tv", "distance"):
            raise InputError(f"utility={utility!r} must be 'tv' or 'distance'")
        K = markov_kernel(jd, a)
        unique = markov_solution_is_unique(jd)
        used = "lemma1"
    elif scheme == "optimal":
        K = optimal_kernel(jd, a, utility, distance, method=method, plan=plan)
        unique = None
        if utility == "tv":
            used = "lp" if method == "lp" else f"prop1:{plan}"
        else:
            D = _distance_matrix(jd, distance)
            used = "lp" if method == "lp" or (method == "auto" and not satisfies_triangle_inequality(D)) else "prop2:transport"
    else:
        raise InputError(f"scheme={scheme!r} must be 'markov' (Lemma 1) or 'optimal' (Propositions 1-2)")
    D = None if distance is None else _distance_matrix(jd, distance)
    Kc = induced_channel(jd, K)
    px = jd.p_x
    pxp = px[px > 0]
    HX = float(-(pxp * np.log(pxp)).sum()) / lnb
    return LinearReduction(
        alpha=a, scheme=scheme, utility=utility, method=used, base=b, kernel=K, target=target_conditional(jd, a), channel=Kc,
        sensitive_labels=jd.sensitive_labels, public_labels=jd.public_labels,
        ldp=reduction_ldp(jd, a, base=b), log_lift=reduction_log_lift(jd, a, base=b),
        ldp_x=_ldp(jd, base=b), log_lift_x=_mall(jd, base=b),
        mutual_information_xy=_mi_xy(px, Kc, lnb), entropy_x=HX,
        tv=max(1.0 - float(px @ np.diag(Kc)), 0.0),
        expected_distortion=None if D is None else float((px[:, None] * Kc * D).sum()),
        markov_unique=unique, p_x_given_s=_parts(jd)[2], p_x=px,
    )


def linear_reduction_sweep(jd, alphas=None, *, distance=None, base: float = 2, plan: str = "northwest",
                           method: str = "auto") -> pd.DataFrame:
    """The alpha sweep behind papers 000/001 Figs. 1-4: privacy and utility losses of both schemes.

    Columns: ``alpha``, ``ldp``, ``ldp_approx``, ``log_lift``, ``log_lift_approx`` (exact values and
    the (1 - alpha) approximations of eq. (6)); ``tv_markov``, ``tv_optimal``, ``mi_loss_markov``,
    ``mi_loss_optimal`` (H(X) - I(X; Y), optimal = TV-optimal kernel with ``plan``); with ``distance``
    also ``ed_markov``, ``ed_optimal`` (E[d] of Lemma 1 and of the distance-optimal kernel).

    Examples
    --------
    >>> import graphpriv as gp
    >>> df = gp.linear_reduction_sweep(gp.paper000_example1(), [0.1, 0.5, 1.0])
    >>> df[["alpha", "tv_markov", "tv_optimal"]].round(4).values.tolist()      # Example 1: 0.709a, 0.21a
    [[0.1, 0.0709, 0.021], [0.5, 0.3545, 0.105], [1.0, 0.709, 0.21]]
    """
    record_use("linear_reduction")  # for gp.cite()
    jd = _joint(jd)
    if alphas is None:
        alphas = np.linspace(0.01, 1.0, 100)
    alphas = np.atleast_1d(np.asarray(alphas, dtype=float))
    if alphas.size == 0:
        raise InputError("alphas is empty")
    rows = []
    for a in alphas:
        mk = linear_reduction(jd, a, "markov", distance=distance, base=base)
        op = linear_reduction(jd, a, "optimal", "tv", plan=plan, base=base)
        row = {"alpha": float(a), "ldp": mk.ldp, "ldp_approx": (1 - a) * mk.ldp_x, "log_lift": mk.log_lift,
               "log_lift_approx": (1 - a) * mk.log_lift_x, "tv_markov": mk.tv, "tv_optimal": op.tv,
               "mi_loss_markov": mk.mi_loss, "mi_loss_optimal": op.mi_loss}
        if distance is not None:
            od = linear_reduction(jd, a, "optimal", "distance", distance, method=method, base=base)
            row["ed_markov"] = mk.expected_distortion
            row["ed_optimal"] = od.expected_distortion
        rows.append(row)
    return pd.DataFrame(rows)
