"""The stochastic measures of a table's empirical distribution, from its counts.

The empirical pmf of a table is p(s, x) = n(s, x) / n: the counts of the distinct (s, x) pairs over the
row count. :func:`stochastic_measures` computes, from those counts only (a sparse matrix of the pairs
seen; rows are never materialised and the |S| x |X| matrix is never made dense), the measures of the
papers on stochastic privacy that ``graphpriv analyze`` reports beside the non-stochastic ones:

* the log-lift i(s, x) = log p(s, x) / (p(s) p(x)), its maximum and minimum, and the public symbols
  with max_s |i(s, x)| > eps (their number, share and probability mass) -- Sadeghi, Ding &
  Rakotoarivelo, *On Properties and Optimization of Information-theoretic Privacy Watchdog* (ITW 2020),
  Sec. I and eq. (4);
* the mutual information I(S; X);
* the maximal leakage log sum_x max_s p(x|s) (Sibson's mutual information of order infinity);
* the local differential privacy level of publishing X as it is, L^LDP(S -> X) = max_x log(max_s
  p(x|s) / min_s p(x|s)) -- Ding, Liu & Farokhi, *A Linear Reduction Method for Local Differential
  Privacy and Log-lift* (ISIT 2021), eq. (1); infinite when some public symbol never occurs with some
  sensitive value (the reason is reported);
* the watchdog at eps: the merged set X_eps^c = {x : max_s |i(s, x)| > eps}, its abs-log-lift eps^c
  (eq. (5) and Theorem 1 of Sadeghi, Ding & Rakotoarivelo) and the normalised mutual-information loss
  NMIL(X_eps^c) = H(X|Y) / H(X) of merging it (their eq. (9)).

Symbols of zero marginal mass are ignored (as in :mod:`graphpriv.measures.stochastic`).
"""

from __future__ import annotations

import math
from dataclasses import asdict, dataclass

import numpy as np

from .._validation import check_base
from ..errors import InputError, InputTypeError
from .stochastic import LOG_LIFT_ATOL, _check_eps

__all__ = ["StochasticMeasures", "stochastic_measures"]


@dataclass(frozen=True, repr=False)
class StochasticMeasures:
    """Stochastic privacy measures of an empirical distribution (:func:`stochastic_measures`).

    Logarithmic figures are in the unit of ``base`` (``eps`` too).

    Attributes
    ----------
    base, eps : float
        Log base and the log-lift threshold.
    n_sensitive, n_public : int
        Symbols of positive mass.
    max_log_lift, min_log_lift : float
        max and min over (s, x) of i(s, x); ``min_log_lift`` is ``-inf`` when a pair has probability 0.
    max_abs_log_lift : float
        max over (s, x) of |i(s, x)| (papers 000/001 eq. (2): L^LL(S -> X)).
    n_above_eps, share_above_eps, mass_above_eps : int, float, float
        Public symbols with max_s |i(s, x)| > eps: their number, share of |X| and probability p(X_eps^c).
    mutual_information : float
        I(S; X).
    maximal_leakage : float
        log sum_x max_s p(x|s).
    ldp : float
        L^LDP(S -> X) of publishing X as it is (``inf`` possible).
    ldp_reason : str or None
        Why ``ldp`` is infinite (a public symbol that some sensitive value never occurs with).
    watchdog_eps_c : float
        eps^c = max_s |i(s, X_eps^c)|: the abs-log-lift of the watchdog's merged symbol (0 when X_eps^c is empty).
    nmil : float
        NMIL(X_eps^c) = p(X_eps^c) H(q) / H(X) (eq. (9)); 0 when X_eps^c is empty, else NaN when H(X) = 0
        (as :func:`graphpriv.nmil`).
    entropy_x : float
        H(X).
    """

    base: float
    eps: float
    n_sensitive: int
    n_public: int
    max_log_lift: float
    min_log_lift: float
    max_abs_log_lift: float
    n_above_eps: int
    share_above_eps: float
    mass_above_eps: float
    mutual_information: float
    maximal_leakage: float
    ldp: float
    ldp_reason: str | None
    watchdog_eps_c: float
    nmil: float
    entropy_x: float

    @property
    def unit(self) -> str:
        """``"nats"``, ``"bits"`` or ``"log base b"``."""
        return "nats" if self.base == math.e else "bits" if self.base == 2 else f"log base {self.base:g}"

    def to_dict(self, *, json_safe: bool = False) -> dict:
        """The measures as a dict (``unit`` added). ``json_safe``: an infinite value as the string
        ``"Infinity"`` / ``"-Infinity"`` and NaN as None, as ``report.json`` holds them."""
        d = {"unit": self.unit, **asdict(self)}
        if json_safe:
            d = {k: (("Infinity" if v > 0 else "-Infinity") if isinstance(v, float) and math.isinf(v) else
                     None if isinstance(v, float) and math.isnan(v) else v) for k, v in d.items()}
        return d

    def __repr__(self) -> str:
        return (f"StochasticMeasures({self.unit}, max log-lift={self.max_log_lift:.4g}, min log-lift={self.min_log_lift:.4g}, "
                f"{self.n_above_eps}/{self.n_public} symbols above eps={self.eps:g} (mass {self.mass_above_eps:.4g}), "
                f"I(S;X)={self.mutual_information:.4g}, maximal leakage={self.maximal_leakage:.4g}, LDP={self.ldp:.4g}, "
                f"NMIL={self.nmil:.4g})")


def _pairs(data):
    """(s codes, x codes, weights, |S|, |X|, sensitive labels, public labels) of the pairs with weight > 0."""
    import scipy.sparse as sp

    from ..distributions import JointDistribution
    from ..ranges import JointRange

    if isinstance(data, JointRange):
        if data.counts is None:
            raise InputError("the joint range has no counts (it was not built from records); the stochastic measures "
                             "need the empirical distribution -- read the table with gp.read_joint_range")
        m = data.counts
        s_labels, x_labels = data.sensitive_labels, data.public_labels
    elif isinstance(data, JointDistribution):
        m = data.P
        s_labels, x_labels = data.sensitive_labels, data.public_labels
    elif sp.issparse(data) or isinstance(data, (np.ndarray, list, tuple)):
        m = data
        s_labels = x_labels = None
    else:
        raise InputTypeError(f"stochastic_measures takes a gp.JointDistribution, a gp.JointRange with counts or a "
                             f"matrix of counts, got {type(data).__name__}")
    coo = sp.coo_array(m)
    coo.sum_duplicates()
    w = np.asarray(coo.data, dtype=float)
    if w.size and (not np.all(np.isfinite(w)) or (w < 0).any()):
        raise InputError("counts must be finite and non-negative")
    keep = w > 0
    r, c, w = np.asarray(coo.row)[keep].astype(np.int64), np.asarray(coo.col)[keep].astype(np.int64), w[keep]
    if w.size == 0:
        raise InputError("the counts sum to 0; there is no distribution to measure")
    n_s, n_x = coo.shape
    if s_labels is None:
        s_labels = np.array([f"s{i + 1}" for i in range(n_s)], dtype=object)
        x_labels = np.array([f"x{i + 1}" for i in range(n_x)], dtype=object)
    return r, c, w, n_s, n_x, s_labels, x_labels


def stochastic_measures(data, eps: float = 1.0, *, base: float = math.e) -> StochasticMeasures:
    """Stochastic privacy measures of an empirical distribution, from its counts.

    Parameters
    ----------
    data : JointRange with counts, JointDistribution, or |S| x |X| matrix of counts (dense or scipy sparse)
        A table's joint range as :func:`graphpriv.read_joint_range` builds it (the distinct pairs with
        their row counts), or a pmf.
    eps : float >= 0, default 1
        Log-lift threshold, in the unit of ``base``: the share of public symbols above it, and the
        watchdog at it (eps^c, NMIL).
    base : float, default math.e
        Log base: nats by default, the unit of Sadeghi, Ding & Rakotoarivelo; 2 for bits.

    Returns
    -------
    StochasticMeasures

    Raises
    ------
    InputError
        No counts, negative counts, a total of 0, eps < 0.

    Examples
    --------
    Paper 000's Example 1 (Ding, Liu & Farokhi): L^LDP(S -> X) = log 5 and max |i| = log 2.4 (bits).

    >>> import graphpriv as gp
    >>> m = gp.stochastic_measures(gp.paper000_example1(), eps=1.0, base=2)
    >>> round(m.ldp, 4), round(m.max_abs_log_lift, 4), m.n_above_eps, round(m.mutual_information, 5)
    (2.3219, 1.263, 3, 0.17661)

    Notes
    -----
    O(nnz log nnz) over the distinct pairs; never |S| x |X| memory. Definitions: Sadeghi, Ding &
    Rakotoarivelo (ITW 2020), Sec. I, eqs. (4), (5), (9); Ding, Liu & Farokhi (ISIT 2021), eqs. (1), (2).
    """
    b = check_base(base)
    lnb = math.log(b)
    e = _check_eps(eps)
    r, c, w, n_s, n_x, s_labels, x_labels = _pairs(data)
    n = w.sum()
    p = w / n
    ps = np.bincount(r, weights=p, minlength=n_s)
    px = np.bincount(c, weights=p, minlength=n_x)
    live_s = ps > 0
    live_x = px > 0
    ns_live = int(live_s.sum())
    lp, lps, lpx = np.log(p), np.log(ps[r]), np.log(px[c])
    i = lp - lps - lpx                                   # log-lift in nats, per pair seen
    nnz_col = np.bincount(c, minlength=n_x)
    full = nnz_col == ns_live                            # every sensitive value occurs with x
    order = np.argsort(c, kind="stable")
    cs = c[order]
    starts = np.flatnonzero(np.r_[True, cs[1:] != cs[:-1]])
    cols = cs[starts]
    absi = np.abs(i)[order]
    eps_x = np.zeros(n_x)
    eps_x[cols] = np.maximum.reduceat(absi, starts)
    eps_x[live_x & ~full] = np.inf
    all_full = bool(full[live_x].all())
    max_ll = float(i.max()) / lnb
    min_ll = float(i.min()) / lnb if all_full else -math.inf
    above = live_x & (eps_x > e * lnb + LOG_LIFT_ATOL)
    mi = max(float((p * i).sum()) / lnb, 0.0) + 0.0
    cond = (p / ps[r])[order]                            # p(x|s), grouped by x
    col_max = np.maximum.reduceat(cond, starts)
    ml = float(np.log(col_max.sum())) / lnb + 0.0
    reason = None
    if all_full:
        col_min = np.minimum.reduceat(cond, starts)
        ldp = float(np.max(np.log(col_max) - np.log(col_min))) / lnb + 0.0
    else:
        ldp = math.inf
        x0 = int(np.flatnonzero(live_x & ~full)[0])
        seen = np.zeros(n_s, dtype=bool)
        seen[r[c == x0]] = True
        s0 = int(np.flatnonzero(live_s & ~seen)[0])
        n_bad = int((live_x & ~full).sum())
        xl, sl = np.asarray(x_labels, dtype=object)[x0], np.asarray(s_labels, dtype=object)[s0]
        xl, sl = (v.item() if isinstance(v, np.generic) else v for v in (xl, sl))
        reason = (f"the public value {xl!r} never occurs with the sensitive value {sl!r} "
                  f"(p(x|s) = 0 for {n_bad} public value{'s' if n_bad != 1 else ''})")
    pxl = px[live_x]
    hx = float(-(pxl * np.log(pxl)).sum())
    pb = float(px[above].sum())
    if pb > 0:
        pxa = px[above]
        loss = max(pb * math.log(pb) - float((pxa * np.log(pxa)).sum()), 0.0)
        nmil = loss / hx if hx > 0 else math.nan
        inb = above[c]
        colb = np.bincount(r[inb], weights=p[inb], minlength=n_s)[live_s]
        with np.errstate(divide="ignore"):
            eps_c = float(np.abs(np.log(colb) - np.log(ps[live_s]) - math.log(pb)).max()) / lnb
    else:
        nmil = 0.0
        eps_c = 0.0
    n_pub = int(live_x.sum())
    return StochasticMeasures(
        base=b, eps=e, n_sensitive=ns_live, n_public=n_pub, max_log_lift=max_ll, min_log_lift=min_ll,
        max_abs_log_lift=float(eps_x[live_x].max()) / lnb, n_above_eps=int(above.sum()),
        share_above_eps=int(above.sum()) / n_pub, mass_above_eps=pb, mutual_information=mi, maximal_leakage=ml,
        ldp=ldp, ldp_reason=reason, watchdog_eps_c=eps_c, nmil=nmil, entropy_x=hx / lnb,
    )
