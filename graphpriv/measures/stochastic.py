"""Stochastic privacy measures of a joint pmf p(s, x): log-lift, LDP, mutual information, leakages.

These are the measures of papers 000/001 (linear reduction) and 002 (privacy watchdog). Every function
takes a :class:`~graphpriv.JointDistribution` (or an |S| x |X| probability matrix, validated) and a
``base=`` for its logarithm.

**Log base.** The default here is ``base=2`` (bits), graphpriv's default and the base in which papers
000/001 draw their figures. Paper 002 works in nats: :func:`graphpriv.watchdog` and
:func:`graphpriv.watchdog_eps_delta` therefore default to ``base=math.e``; pass ``base=math.e`` here
to compare with them. Thresholds such as ``eps`` are always read in the same base as ``base=``.

Definitions (p(s) > 0 and p(x) > 0 on the symbols considered; zero-mass symbols are ignored, see
:mod:`graphpriv.distributions`):

* lift l(s, x) = p(s, x) / (p(s) p(x)); log-lift i(s, x) = log l(s, x) (paper 002, Sec. I; papers
  000/001 eq. (2) take max |i|);
* abs-log-lift of a public symbol eps(x) = max_s |i(s, x)|; of a set X_Q: i(s, X_Q) = log p(X_Q|s) /
  p(X_Q) (paper 002 eq. (2)) and eps(X_Q) = max_s |i(s, X_Q)| (eq. (4));
* breach mass Delta(eps, X_Q) = sum over s with |i(s, X_Q)| > eps of p(s, X_Q) (paper 002 eq. (10));
* L^LDP(S -> X) = max_x log(max_s p(x|s) / min_s p(x|s)) (papers 000/001 eq. (1));
* I(S; X), maximal leakage log sum_x max_s p(x|s), Sibson's I_alpha, Arimoto's I^A_beta and the
  guessing leakage log(E[max_s p(s|X)] / max_s p(s));
* the leakage of a channel p(y|x) (Markov, S - X - Y) or p(y|s, x) applied to a distribution
  (:func:`apply_channel`, :func:`channel_leakage`).
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np

from .._validation import check_base
from ..distributions import JointDistribution, _subset_mask
from ..errors import DistributionError, InputError, InputTypeError

__all__ = [
    "shannon_entropy",
    "log_lift",
    "max_abs_log_lift",
    "abs_log_lift_by_public",
    "subset_log_lift",
    "subset_abs_log_lift",
    "breach_mass",
    "ldp",
    "graph_ldp",
    "mutual_information",
    "maximal_leakage",
    "sibson_mutual_information",
    "arimoto_mutual_information",
    "guessing_leakage",
    "apply_channel",
    "channel_leakage",
    "ChannelLeakage",
]

_CHANNEL_ATOL = 1e-9

#: A log-lift "exceeds" a threshold eps only when |i| > eps + LOG_LIFT_ATOL: merged columns that are
#: independent of S in exact arithmetic (|i| = 0) come out as ~1e-16 in floating point, and must not
#: count as breaches at eps = 0. Used by every breach probability and threshold test in graphpriv.
LOG_LIFT_ATOL = 1e-12


def _joint(jd, name: str = "jd") -> JointDistribution:
    if isinstance(jd, JointDistribution):
        return jd
    if isinstance(jd, (list, tuple, np.ndarray)):
        return JointDistribution(jd)
    raise InputTypeError(f"{name} must be a gp.JointDistribution or an |S| x |X| probability matrix, got {type(jd).__name__}")


def _ln(base) -> float:
    return math.log(check_base(base))


def _lnP(jd: JointDistribution) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """(P restricted to p(s) > 0 and p(x) > 0, p_s, p_x) -- zero-mass symbols dropped."""
    P = jd.P
    ks, kx = jd.p_s > 0, jd.p_x > 0
    if not (ks.all() and kx.all()):
        P = P[np.ix_(ks, kx)]
    return P, P.sum(axis=1), P.sum(axis=0)


def shannon_entropy(p, *, base: float = 2) -> float:
    """Shannon entropy H(p) = -sum p log p of a pmf (zeros contribute 0).

    Examples
    --------
    >>> import graphpriv as gp
    >>> gp.shannon_entropy([0.41, 0.24, 0.22, 0.13])        # paper 000 Example 1: H(X) in bits
    1.8847...
    """
    from ..distributions import validate_pmf

    q = validate_pmf(p, name="p").ravel()
    q = q[q > 0]
    return float(-(q * np.log(q)).sum() / _ln(base)) + 0.0


def log_lift(jd, *, base: float = 2) -> np.ndarray:
    """Log-lift matrix i(s, x) = log p(s, x) / (p(s) p(x)), shape (|S|, |X|).

    Entries of a pair with p(s, x) = 0 are ``-inf``; entries of a zero-mass symbol are NaN.

    Parameters
    ----------
    jd : JointDistribution or array_like (|S|, |X|)
    base : float, default 2
        Logarithm base (2: bits, ``math.e``: nats -- the unit of paper 002).

    Examples
    --------
    >>> import graphpriv as gp
    >>> jd = gp.JointDistribution([[0.25, 0.25], [0.0, 0.5]])
    >>> gp.log_lift(jd).round(3).tolist()
    [[1.0, -0.585], [-inf, 0.415]]

    Notes
    -----
    O(|S| |X|).
    """
    jd = _joint(jd)
    with np.errstate(divide="ignore", invalid="ignore"):
        return np.log(jd.lift()) / _ln(base)


def abs_log_lift_by_public(jd, *, base: float = 2) -> np.ndarray:
    """eps(x) = max_s |i(s, x)| for every public symbol x (paper 002 eq. (4) on singletons).

    Zero-mass public symbols get 0 (they are never released). Shape (|X|,).

    Examples
    --------
    >>> import graphpriv as gp
    >>> gp.abs_log_lift_by_public([[0.25, 0.25], [0.0, 0.5]]).round(3).tolist()
    [inf, 0.585]
    """
    jd = _joint(jd)
    a = np.abs(log_lift(jd, base=base))
    a = np.where(np.isnan(a), -np.inf, a)
    out = a.max(axis=0)
    return np.where(np.isfinite(out) | (out > 0), np.maximum(out, 0.0), 0.0)


def max_abs_log_lift(jd, *, base: float = 2) -> float:
    """Privacy level max_{s,x} |i(s, x)| (papers 000/001 eq. (2): L^LL(S -> X); paper 002's abs-log-lift).

    ``inf`` when a pair of positive-mass symbols has probability 0; 0 exactly when S and X are
    independent (perfect privacy).

    Examples
    --------
    >>> import graphpriv as gp
    >>> jd = gp.JointDistribution.from_conditional([[0.2, 0.1, 0.5, 0.2], [0.5, 0.3, 0.1, 0.1]], [0.3, 0.7])
    >>> round(gp.max_abs_log_lift(jd), 4)        # paper 000 Example 1: log2 2.4
    1.263
    """
    return float(abs_log_lift_by_public(jd, base=base).max())


def subset_log_lift(jd, subset, *, base: float = 2) -> np.ndarray:
    """Log-lift of a set of public values, i(s, X_Q) = log p(X_Q|s) / p(X_Q) (paper 002 eq. (2)).

    It is the log-lift of the column obtained by contracting (merging) X_Q into one symbol.

    Parameters
    ----------
    subset : boolean mask, integer codes or public labels
        X_Q; must have positive probability.

    Returns
    -------
    ndarray, shape (|S|,)
        NaN for zero-mass sensitive symbols.

    Examples
    --------
    >>> import graphpriv as gp
    >>> jd = gp.JointDistribution([[0.25, 0.25], [0.0, 0.5]])
    >>> gp.subset_log_lift(jd, ["x1", "x2"]).tolist()    # X_Q = X: independent of S
    [0.0, 0.0]
    """
    jd = _joint(jd)
    mask = _subset_mask(subset, jd.public_labels, "subset")
    col = jd.P[:, mask].sum(axis=1)
    pq = col.sum()
    if pq <= 0:
        raise InputError("subset has probability 0; the log-lift of a set needs p(X_Q) > 0")
    ps = jd.p_s
    with np.errstate(divide="ignore", invalid="ignore"):
        out = np.log(col / (ps * pq)) / _ln(base)
    out[ps <= 0] = np.nan
    return out


def subset_abs_log_lift(jd, subset, *, base: float = 2) -> float:
    """eps(X_Q) = max_s |i(s, X_Q)| (paper 002 eq. (4)); 0 for the empty set or a zero-mass set.

    Examples
    --------
    >>> import graphpriv as gp
    >>> jd = gp.JointDistribution([[0.25, 0.25], [0.0, 0.5]])
    >>> gp.subset_abs_log_lift(jd, [])
    0.0
    """
    jd = _joint(jd)
    mask = _subset_mask(subset, jd.public_labels, "subset")
    if not mask.any() or jd.P[:, mask].sum() <= 0:
        return 0.0
    v = np.abs(subset_log_lift(jd, mask, base=base))
    return float(np.nanmax(v))


def breach_mass(jd, eps: float, subset=None, *, base: float = 2):
    """Breach mass Delta(eps, X_Q) = sum_{s: |i(s, X_Q)| > eps} p(s, X_Q) (paper 002 eq. (10)).

    With ``subset=None`` returns the vector Delta(eps, x) over all public symbols x. For a merged set
    it is the joint probability Pr[|i(S, Y)| > eps, Y in X_Q] once X_Q is randomised X-invariantly.

    Parameters
    ----------
    eps : float >= 0
        Threshold, in the unit of ``base``.

    Examples
    --------
    >>> import graphpriv as gp
    >>> jd = gp.JointDistribution([[0.25, 0.25], [0.0, 0.5]])
    >>> gp.breach_mass(jd, 0.9).tolist()      # |i(s1, x1)| = 1 bit > 0.9
    [0.25, 0.0]
    """
    jd = _joint(jd)
    eps = _check_eps(eps)
    if subset is None:
        a = np.abs(log_lift(jd, base=base))
        return np.where(a > eps + LOG_LIFT_ATOL, jd.P, 0.0).sum(axis=0)
    mask = _subset_mask(subset, jd.public_labels, "subset")
    if not mask.any():
        return 0.0
    col = jd.P[:, mask].sum(axis=1)
    if col.sum() <= 0:
        return 0.0
    a = np.abs(subset_log_lift(jd, mask, base=base))
    return float(col[a > eps + LOG_LIFT_ATOL].sum())


def _check_eps(eps, name: str = "eps") -> float:
    try:
        e = float(eps)
    except (TypeError, ValueError):
        raise InputTypeError(f"{name} must be a number >= 0, got {eps!r}") from None
    if not e >= 0:  # also catches NaN
        raise InputError(f"{name} must be >= 0 (a log-lift threshold in the unit of base), got {eps!r}")
    return e


def ldp(jd, *, base: float = 2) -> float:
    """Local differential privacy level L^LDP(S -> X) = max_x log(max_s p(x|s) / min_s p(x|s)) (paper 000 eq. (1)).

    ``inf`` when some p(x|s) is 0 for a positive-mass x. For a released Y use :func:`channel_leakage`.

    Examples
    --------
    >>> import graphpriv as gp
    >>> jd = gp.JointDistribution.from_conditional([[0.2, 0.1, 0.5, 0.2], [0.5, 0.3, 0.1, 0.1]], [0.3, 0.7])
    >>> round(gp.ldp(jd), 4)                      # paper 000 Example 1: log2 5
    2.3219
    """
    P, ps, _ = _lnP(_joint(jd))
    c = P / ps[:, None]
    hi, lo = c.max(axis=0), c.min(axis=0)
    with np.errstate(divide="ignore"):
        return float(np.max(np.log(hi) - np.log(lo)) / _ln(base))


def graph_ldp(jd, neighbours, *, base: float = 2) -> float:
    """DP level over a neighbour graph on S: max over edges {s, s'} and x of |log p(x|s) / p(x|s')|.

    The complete graph gives :func:`ldp`; the Hamming graph on tuples gives the DP of papers 000/001
    (Sec. I). For a connected graph G, L^G <= L^LDP <= diam(G) L^G.

    Parameters
    ----------
    neighbours : networkx.Graph or iterable of (s, s') label pairs

    Examples
    --------
    >>> import graphpriv as gp
    >>> jd = gp.JointDistribution.from_conditional([[0.2, 0.1, 0.5, 0.2], [0.5, 0.3, 0.1, 0.1]], [0.3, 0.7])
    >>> round(gp.graph_ldp(jd, [("s1", "s2")]), 4)
    2.3219
    """
    from ..errors import UnknownLabelError

    jd = _joint(jd)
    edges = neighbours.edges() if hasattr(neighbours, "edges") else neighbours
    index = {lab: i for i, lab in enumerate(jd.sensitive_labels.tolist())}
    pxs = jd.p_x_given_s()
    kx = jd.p_x > 0
    best = 0.0
    n = 0
    for e in edges:
        try:
            a, b = e
        except (TypeError, ValueError):
            raise InputError(f"neighbours must hold pairs (s, s'), got {e!r}") from None
        for v in (a, b):
            if v not in index:
                raise UnknownLabelError(f"neighbours: {v!r} is not a sensitive value")
        i, j = index[a], index[b]
        if jd.p_s[i] <= 0 or jd.p_s[j] <= 0:
            continue
        with np.errstate(divide="ignore", invalid="ignore"):
            d = np.abs(np.log(pxs[i, kx]) - np.log(pxs[j, kx]))
        d = np.where(np.isnan(d), 0.0, d)
        best = max(best, float(d.max()))
        n += 1
    if n == 0:
        raise InputError("neighbours has no edge between two sensitive values of positive probability")
    return best / _ln(base)


def _mi(P: np.ndarray, base) -> float:
    a, b = P.sum(axis=1), P.sum(axis=0)
    m = P > 0
    outer = np.outer(a, b)
    return float((P[m] * np.log(P[m] / outer[m])).sum() / _ln(base)) + 0.0


def mutual_information(jd, *, base: float = 2) -> float:
    """Mutual information I(S; X) = E[i(S, X)].

    Examples
    --------
    >>> import graphpriv as gp
    >>> jd = gp.JointDistribution.from_conditional([[0.2, 0.1, 0.5, 0.2], [0.5, 0.3, 0.1, 0.1]], [0.3, 0.7])
    >>> round(gp.mutual_information(jd), 5)       # paper 000, Example 1 data
    0.17661
    """
    return max(_mi(_joint(jd).P, base), 0.0)


def maximal_leakage(jd, *, base: float = 2) -> float:
    """Maximal leakage from S to X: log sum_x max_s p(x|s) (Sibson's I_alpha at alpha = inf).

    Examples
    --------
    >>> import graphpriv as gp
    >>> gp.maximal_leakage([[0.5, 0.0], [0.0, 0.5]])    # X reveals S: log2 |S|
    1.0
    """
    P, ps, _ = _lnP(_joint(jd))
    return float(np.log((P / ps[:, None]).max(axis=0).sum()) / _ln(base)) + 0.0


def _check_order(order, name="order") -> float:
    try:
        a = float(order)
    except (TypeError, ValueError):
        raise InputTypeError(f"{name} must be a number > 0, got {order!r}") from None
    if not a > 0:
        raise InputError(f"{name} must be > 0, got {order!r}")
    return a


def sibson_mutual_information(jd, order: float, *, base: float = 2) -> float:
    """Sibson's mutual information of order alpha from S to X.

    I_alpha(S; X) = alpha / (alpha - 1) log sum_x (sum_s p(s) p(x|s)^alpha)^(1/alpha); order 1 is
    I(S; X), order ``inf`` the maximal leakage. Paper 002 (Sec. I): eps-log-lift implies
    I_alpha(S; Y) <= alpha / (alpha - 1) eps.

    Examples
    --------
    >>> import graphpriv as gp
    >>> round(gp.sibson_mutual_information([[0.5, 0.0], [0.0, 0.5]], 2.0), 6)
    1.0
    """
    a = _check_order(order)
    P, ps, _ = _lnP(_joint(jd))
    if a == 1:
        return mutual_information(P, base=base)
    if math.isinf(a):
        return maximal_leakage(P, base=base)
    c = P / ps[:, None]
    # log-sum-exp for numerical stability at large orders
    with np.errstate(divide="ignore"):
        lc = np.log(c)
    inner = _logsumexp(np.log(ps)[:, None] + a * lc, axis=0) / a
    val = a / (a - 1) * _logsumexp(inner, axis=0)
    return float(val / _ln(base)) + 0.0


def arimoto_mutual_information(jd, order: float, *, base: float = 2) -> float:
    """Arimoto's mutual information of order beta from S to X.

    I^A_beta = 1/(1 - beta) log sum_s p(s)^beta - beta/(1 - beta) log sum_x (sum_s p(s, x)^beta)^(1/beta);
    order 1 is I(S; X). Papers 000/001 call the order alpha; graphpriv names it ``order`` to avoid the
    clash with the reduction level.

    Examples
    --------
    >>> import graphpriv as gp
    >>> round(gp.arimoto_mutual_information([[0.25, 0.25], [0.25, 0.25]], 2.0), 12)
    0.0
    """
    b = _check_order(order)
    P, ps, _ = _lnP(_joint(jd))
    if b == 1:
        return mutual_information(P, base=base)
    with np.errstate(divide="ignore"):
        lP = np.log(P)
    if math.isinf(b):
        val = np.log(P.max(axis=0).sum()) - np.log(ps.max())
    else:
        t1 = _logsumexp(b * np.log(ps), axis=0) / (1 - b)
        t2 = b / (1 - b) * _logsumexp(_logsumexp(b * lP, axis=0) / b, axis=0)
        val = t1 - t2
    return float(val / _ln(base)) + 0.0


def guessing_leakage(jd, *, base: float = 2) -> float:
    """Guessing leakage log(E[max_s p(s|X)] / max_s p(s)) = log(sum_x max_s p(s, x) / max_s p(s)).

    Examples
    --------
    >>> import graphpriv as gp
    >>> gp.guessing_leakage([[0.25, 0.25], [0.25, 0.25]])
    0.0
    """
    P, ps, _ = _lnP(_joint(jd))
    return float(np.log(P.max(axis=0).sum() / ps.max()) / _ln(base)) + 0.0


def _logsumexp(a: np.ndarray, axis=0) -> np.ndarray:
    m = np.max(a, axis=axis, keepdims=True)
    m = np.where(np.isfinite(m), m, 0.0)
    with np.errstate(divide="ignore"):
        out = np.log(np.sum(np.exp(a - m), axis=axis, keepdims=True)) + m
    return np.squeeze(out, axis=axis)


# ----------------------------------------------------------------------------- channels
def _check_channel(jd: JointDistribution, channel) -> np.ndarray:
    try:
        W = np.asarray(channel, dtype=float)
    except (TypeError, ValueError):
        raise InputTypeError("channel must be a numeric array: p(y|x) of shape (|X|, |Y|) or p(y|s,x) of shape (|S|, |X|, |Y|)") from None
    n_s, n_x = jd.shape
    if W.ndim == 2:
        if W.shape[0] != n_x:
            raise InputError(f"a Markov channel p(y|x) must have one row per public value ({n_x}), got shape {W.shape}")
    elif W.ndim == 3:
        if W.shape[:2] != (n_s, n_x):
            raise InputError(f"a channel p(y|s,x) must have shape (|S|, |X|, |Y|) = ({n_s}, {n_x}, ...), got {W.shape}")
    else:
        raise InputError(f"channel must be 2-D (|X|, |Y|) or 3-D (|S|, |X|, |Y|), got {W.ndim}-D")
    if not np.all(np.isfinite(W)) or (W < -_CHANNEL_ATOL).any():
        raise DistributionError("channel has negative, NaN or infinite entries; every row must be a pmf")
    sums = W.sum(axis=-1)
    if not np.allclose(sums, 1.0, atol=1e-8):
        worst = float(np.abs(sums - 1).max())
        raise DistributionError(f"channel rows must sum to 1 (rows are indexed by the input, columns by y); worst row is off by {worst:.3g}")
    return np.clip(W, 0.0, None)


def apply_channel(jd, channel, output_labels=None) -> JointDistribution:
    """The joint pmf p(s, y) of S and the released Y = channel(X) (or channel(S, X)).

    Parameters
    ----------
    channel : array_like
        Markov channel p(y|x), shape (|X|, |Y|), rows indexed by the input x (S - X - Y); or a
        non-Markov channel p(y|s, x), shape (|S|, |X|, |Y|).
    output_labels : sequence, optional
        Labels of Y (default: the public labels when |Y| = |X|, else ``y1, y2, ...``).

    Examples
    --------
    >>> import numpy as np, graphpriv as gp
    >>> jd = gp.JointDistribution([[0.25, 0.25], [0.0, 0.5]])
    >>> gp.apply_channel(jd, np.eye(2)) == jd
    True
    """
    jd = _joint(jd)
    W = _check_channel(jd, channel)
    if W.ndim == 2:
        Psy = jd.P @ W
    else:
        Psy = np.einsum("sx,sxy->sy", jd.P, W)
    n_y = Psy.shape[1]
    if output_labels is None:
        output_labels = jd.public_labels if n_y == jd.n_public else [f"y{i + 1}" for i in range(n_y)]
    Psy = np.clip(Psy, 0.0, None)
    return JointDistribution(Psy / Psy.sum(), jd.sensitive_labels, output_labels)


@dataclass(frozen=True)
class ChannelLeakage:
    """Privacy and utility of a released Y (see :func:`channel_leakage`). Logs in ``base``."""

    base: float
    max_abs_log_lift: float          # L^LL(S -> Y) over y with p(y) > 0
    ldp: float                       # L^LDP(S -> Y)
    mutual_information_sy: float     # I(S; Y)
    mutual_information_xy: float     # I(X; Y)
    maximal_leakage: float           # log sum_y max_s p(y|s)
    breach_probability: float | None  # Pr[|i(S, Y)| > eps] (None when eps was not given; tolerance LOG_LIFT_ATOL)
    eps: float | None

    def as_dict(self) -> dict:
        from dataclasses import asdict

        return asdict(self)


def channel_leakage(jd, channel, *, eps: float | None = None, base: float = 2) -> ChannelLeakage:
    """Leakage of S through Y when ``channel`` is applied to ``jd`` (outputs with p(y) = 0 are ignored).

    Parameters
    ----------
    jd : JointDistribution
    channel : array_like
        p(y|x) of shape (|X|, |Y|) or p(y|s, x) of shape (|S|, |X|, |Y|); rows indexed by the input.
    eps : float, optional
        If given, also the breach probability Pr[|i(S, Y)| > eps] under the joint law of (S, Y)
        (paper 002 eq. (11) for the watchdog).
    base : float, default 2

    Examples
    --------
    >>> import numpy as np, graphpriv as gp
    >>> jd = gp.JointDistribution([[0.25, 0.25], [0.0, 0.5]])
    >>> leak = gp.channel_leakage(jd, np.full((2, 2), 0.5))     # output independent of X
    >>> leak.max_abs_log_lift, leak.mutual_information_xy
    (0.0, 0.0)
    """
    jd = _joint(jd)
    W = _check_channel(jd, channel)
    out = apply_channel(jd, W).drop_zero_mass()
    Psy = out.P
    if W.ndim == 2:
        Pxy = jd.p_x[:, None] * W
    else:
        Pxy = np.einsum("sx,sxy->xy", jd.P, W)
    e = None if eps is None else _check_eps(eps)
    breach = None
    if e is not None:
        a = np.abs(log_lift(out, base=base))
        breach = float(Psy[a > e + LOG_LIFT_ATOL].sum())
    return ChannelLeakage(
        base=check_base(base),
        max_abs_log_lift=max_abs_log_lift(out, base=base),
        ldp=ldp(out, base=base),
        mutual_information_sy=mutual_information(out, base=base),
        mutual_information_xy=max(_mi(Pxy, base), 0.0),
        maximal_leakage=maximal_leakage(out, base=base),
        breach_probability=breach,
        eps=e,
    )
