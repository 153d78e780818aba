"""The α-lift and the α-lift privacy watchdog.

Ding, Zarrabian & Sadeghi, *α-Information-theoretic Privacy Watchdog and Optimal Privatization
Scheme* (arXiv:2101.10551). The α-lift of a public symbol is the α-power mean of its lifts over S,

    ℓ_α(x) = (Σ_s p(s)·l(s, x)^α)^{1/α},    l(s, x) = p(s | x) / p(s),

and ℓ_∞(x) = max_s l(s, x) is the max-lift. Sibson's mutual information of order α is a log-mean of
it: I_α(S; X) = α/(α-1)·log E_X[ℓ_α(X)]. The α-lift watchdog protects X_ε = {x : ℓ_α(x) > e^ε} and
publishes the rest; on X_ε an X-invariant randomisation r(y | x) = R(y) is optimal, so merging X_ε into
one symbol is optimal.

**One-sided vs two-sided.** ℓ_α only grows with large lifts: at α = ∞ the α-lift watchdog protects x
when max_s l(s, x) > e^ε (**one-sided**, the max-lift). :func:`graphpriv.watchdog` (paper 002) protects
x when max_s |log l(s, x)| > ε (**two-sided**): it also protects symbols with a very small lift
l(s, x) < e^{-ε}, which the α-lift watchdog publishes. For α <= 1 the power mean is <= the
arithmetic mean Σ_s p(s) l(s, x) = 1, so nothing is protected at ε >= 0.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field

import numpy as np

from ..._validation import check_real
from ...errors import InputError, InputTypeError
from ...measures.stochastic import LOG_LIFT_ATOL as _ATOL, _check_eps, _joint
from ...citations import record_use
from ..trace import MergeTrace
from ._partition_common import ComponentCounter, WatchdogBlocks, clean, components0, measures_of_columns, xlogx
from .log_lift_sets import _base, _jsonable

__all__ = ["alpha_lift", "AlphaWatchdogResult", "alpha_watchdog"]


def _check_alpha(alpha) -> float:
    if isinstance(alpha, (bool, np.bool_)):
        raise InputTypeError(f"alpha must be a number > 0 (or math.inf), got {alpha!r}")
    try:
        a = float(alpha)
    except (TypeError, ValueError):
        raise InputTypeError(f"alpha must be a number > 0 (or math.inf), got {alpha!r}") from None
    if not a > 0:
        raise InputError(f"alpha must be > 0 (math.inf for the max-lift), got {alpha!r}")
    return a


def _log_alpha_lift_cols(Q: np.ndarray, ps: np.ndarray, a: float) -> np.ndarray:
    """ln ℓ_α of every column of a joint (|S|, |Y|) with marginal ps > 0 (NaN for zero-mass columns)."""
    m = Q.sum(axis=0)
    out = np.full(Q.shape[1], np.nan)
    live = m > 0
    if not live.any():
        return out
    with np.errstate(divide="ignore"):
        ll = np.log(Q[:, live]) - np.log(ps)[:, None] - np.log(m[live])[None, :]     # ln l(s, y)
    if math.isinf(a):
        out[live] = ll.max(axis=0)
        return out
    z = np.log(ps)[:, None] + a * ll
    zmax = z.max(axis=0)
    with np.errstate(invalid="ignore"):
        lse = zmax + np.log(np.exp(z - zmax[None, :]).sum(axis=0))
    out[live] = lse / a
    return out


def alpha_lift(jd, alpha: float) -> np.ndarray:
    """α-lift ℓ_α(x) = (Σ_s p(s)·l(s, x)^α)^{1/α} of every public symbol (ℓ_∞ = max-lift).

    Ding, Zarrabian & Sadeghi, *α-Information-theoretic Privacy Watchdog and Optimal Privatization
    Scheme* (arXiv:2101.10551), the definition of the α-lift (Sec. II); Sibson's mutual information
    is I_α(S; X) = α/(α-1)·log Σ_x p(x) ℓ_α(x).

    Parameters
    ----------
    jd : JointDistribution or array_like (|S|, |X|)
    alpha : float > 0 or math.inf

    Returns
    -------
    ndarray, shape (|X|,)
        ℓ_α(x) (a ratio: no log base); NaN for a zero-mass public symbol.

    Examples
    --------
    >>> import math, graphpriv as gp
    >>> jd = gp.JointDistribution([[0.25, 0.25], [0.0, 0.5]])
    >>> gp.alpha_lift(jd, math.inf).round(4).tolist()          # max_s l(s, x)
    [2.0, 1.3333]
    >>> gp.alpha_lift(jd, 1.0).round(12).tolist()              # the mean lift is 1
    [1.0, 1.0]

    Notes
    -----
    O(|S| |X|), by log-sum-exp.
    """
    record_use("alpha_lift")
    a = _check_alpha(alpha)
    jd = _joint(jd)
    ks = jd.p_s > 0
    P = jd.P[ks]
    return np.exp(_log_alpha_lift_cols(P, P.sum(axis=1), a))


@dataclass(frozen=True, repr=False)
class AlphaWatchdogResult(WatchdogBlocks):
    """Output of :func:`alpha_watchdog`: publish {x : ℓ_α(x) <= e^ε}, merge the rest into one symbol.

    Logarithmic quantities are in the unit of ``base`` (the threshold is base^eps).

    Attributes
    ----------
    eps, alpha, base : float
    public_labels : ndarray
    published : ndarray of bool
        {x : log ℓ_α(x) <= eps}.
    log_alpha_lift : ndarray
        log ℓ_α(x) per public symbol.
    merged_log_alpha_lift : float
        log ℓ_α of the merged symbol (NaN when nothing is protected).
    max_log_alpha_lift : float
        max_y log ℓ_α(y) of the release.
    max_abs_log_lift : float
        max_{s, y} |log l(s, y)| of the release (the two-sided risk of paper 002), for comparison.
    sibson : float
        I_α(S; Y) of the release.
    mutual_information : float
        I(X; Y) = H(Y).
    entropy_x : float
        H(X).
    trace : MergeTrace
        One step per protected symbol fused into the merged symbol (decreasing ℓ_α).
    """

    eps: float
    alpha: float
    base: float
    public_labels: np.ndarray
    published: np.ndarray
    log_alpha_lift: np.ndarray
    merged_log_alpha_lift: float
    max_log_alpha_lift: float
    max_abs_log_lift: float
    sibson: float
    mutual_information: float
    entropy_x: float
    trace: MergeTrace = field(repr=False)

    @property
    def blocks(self) -> list[np.ndarray]:
        """The merged block (if any) first, then one singleton per published symbol (codes)."""
        out = [np.flatnonzero(~self.published)] if (~self.published).any() else []
        return out + [np.array([i]) for i in np.flatnonzero(self.published)]

    def report(self) -> dict:
        lab = self.public_labels
        return {"eps": self.eps, "alpha": self.alpha, "base": self.base, "n_published": int(self.published.sum()),
                "n_randomized": int((~self.published).sum()), "merged_log_alpha_lift": self.merged_log_alpha_lift,
                "max_log_alpha_lift": self.max_log_alpha_lift, "max_abs_log_lift": self.max_abs_log_lift,
                "sibson": self.sibson, "I_XY": self.mutual_information, "H_X": self.entropy_x,
                "X_eps": [_jsonable(v) for v in lab[~self.published].tolist()]}

    def __repr__(self) -> str:
        return (f"AlphaWatchdogResult(alpha={self.alpha:g}, eps={self.eps:g}, |published|={int(self.published.sum())}, "
                f"|merged|={int((~self.published).sum())}, max log ℓ_α={self.max_log_alpha_lift:.4g}, "
                f"I(X;Y)={self.mutual_information:.4g})")


def alpha_watchdog(jd, eps: float, alpha: float = math.inf, *, base: float = math.e) -> AlphaWatchdogResult:
    """α-lift privacy watchdog: merge X_ε = {x : ℓ_α(x) > e^ε} into one symbol, publish the rest.

    Ding, Zarrabian & Sadeghi, *α-Information-theoretic Privacy Watchdog and Optimal Privatization
    Scheme* (arXiv:2101.10551): the watchdog on the α-lift (Sec. III) and the optimality of an
    X-invariant randomisation r(y | x) = R(y) on the protected set (Sec. IV), which merging realises.
    At α = ∞ it is the **one-sided** max-lift watchdog (protect x when max_s l(s, x) > e^ε); today's
    :func:`graphpriv.watchdog` (paper 002) is **two-sided** (max_s |log l(s, x)| > ε) and also protects
    symbols whose lift is very small.

    Parameters
    ----------
    jd : JointDistribution or array_like (|S|, |X|)
    eps : float >= 0
        Threshold on log ℓ_α in the unit of ``base``.
    alpha : float > 0 or math.inf, default math.inf
        The order; for alpha <= 1, ℓ_α(x) <= 1 and nothing is protected.
    base : float, default math.e
        Log base (nats by default, the paper's e^ε).

    Returns
    -------
    AlphaWatchdogResult

    Examples
    --------
    >>> import math, numpy as np, graphpriv as gp
    >>> P = np.random.default_rng(7).exponential(size=(4, 8)); P /= P.sum()
    >>> r = gp.alpha_watchdog(P, 0.5, math.inf)
    >>> np.flatnonzero(r.randomized).tolist(), round(r.max_log_alpha_lift, 4)
    ([0, 3, 4, 5, 6, 7], 0.3072)
    >>> np.flatnonzero(gp.watchdog(P, 0.5).randomized).tolist()     # two-sided: also x2, whose lifts are small
    [0, 1, 3, 4, 5, 6, 7]

    Notes
    -----
    O(|S| |X|). The release's max ℓ_α can exceed e^ε when the merged symbol itself is above it (the
    paper's merge is optimal among X-invariant schemes, not guaranteed below e^ε); it is reported.
    """
    record_use("alpha_lift")
    jd = _joint(jd)
    e = _check_eps(check_real(eps, "eps"))
    a = _check_alpha(alpha)
    b, lnb = _base(base)
    e_n = e * lnb
    P = jd.P[jd.p_s > 0]
    ps = P.sum(axis=1)
    n = P.shape[1]
    px = P.sum(axis=0)
    lla = _log_alpha_lift_cols(P, ps, a)
    protected = np.nan_to_num(lla, nan=-np.inf) > e_n + _ATOL
    published = ~protected
    comp0 = components0(jd)
    cc = ComponentCounter(comp0)
    order = np.flatnonzero(protected)
    order = order[np.argsort(-lla[order], kind="stable")]

    def state(cols_blocks):
        Q = np.stack(cols_blocks, axis=1)
        s = measures_of_columns(Q, ps)
        la = _log_alpha_lift_cols(Q, ps, a)
        return s, float(np.nanmax(la)) if np.isfinite(la).any() else 0.0, la

    C = P.T
    live = px > 0
    single = live.copy()                       # symbols not (yet) fused into the merged symbol
    lla_f = np.where(live, lla, -np.inf)
    H = float(-xlogx(px).sum())

    def privacy_now(merged_la: float) -> float:
        top = float(lla_f[single].max()) if single.any() else -np.inf
        v = max(top, merged_la)
        return v if np.isfinite(v) else 0.0

    merges, priv, util, ncl, ncomp, crit = [()], [privacy_now(-np.inf) / lnb], [H / lnb], [n], [cc.count], []
    crit.append({"log_alpha_lift": math.nan, "merged_log_alpha_lift": math.nan, "eps": e, "alpha": a,
                 "decision": f"{int(protected.sum())} of {n} symbols have log ℓ_α > ε = {e:g} (α = {a:g}); the rest "
                             "are published"})
    root = None
    merged_col = None
    m_merged = 0.0
    n_cl = n
    for j in order.tolist():
        if root is None:
            root, merged_col, m_merged = j, C[j].copy(), float(px[j])
            single[j] = False
            continue
        merged_col = merged_col + C[j]
        H += float(xlogx(m_merged) + xlogx(px[j]) - xlogx(m_merged + px[j]))
        m_merged += float(px[j])
        single[j] = False
        n_cl -= 1
        r0, r1 = min(root, j), max(root, j)
        merges.append(((r0, r1),))
        cc.join([r0, r1])
        root = r0
        mla_b = float(_log_alpha_lift_cols(merged_col[:, None], ps, a)[0])
        priv.append(privacy_now(mla_b) / lnb); util.append(max(H, 0.0) / lnb); ncl.append(n_cl); ncomp.append(cc.count)
        crit.append({"log_alpha_lift": float(lla[j]) / lnb, "merged_log_alpha_lift": mla_b / lnb, "eps": e,
                     "alpha": a, "decision": f"{jd.public_labels[j]}: log ℓ_α = {float(lla[j]) / lnb:.4g} > ε = {e:g}, "
                                             f"merged (the merged symbol's log ℓ_α is now {mla_b / lnb:.4g})"})
    blocks_cols = ([C[protected].sum(axis=0)] if protected.any() else []) + [C[i] for i in np.flatnonzero(published)]
    s, mla, la = state(blocks_cols)
    merged_la = float(la[0]) / lnb if protected.any() else math.nan
    Q = np.stack(blocks_cols, axis=1)
    if math.isinf(a):
        sib = float(np.log(np.exp(np.nan_to_num(la, nan=-np.inf)) @ Q.sum(axis=0)))
    elif a == 1.0:
        sib = s["I_S"]
    else:
        sib = float(a / (a - 1) * np.log(np.nansum(Q.sum(axis=0) * np.exp(la))))
    k = len(merges)
    trace = MergeTrace(
        objective="alpha-lift watchdog", utility="I(X;Y)", lam=math.nan, public_labels=tuple(jd.public_labels.tolist()),
        components0=tuple(int(v) for v in comp0.tolist()), step_merges=tuple(merges), step_privacy=tuple(priv),
        step_utility=tuple(util), step_L=(math.nan,) * k, step_delta_L=(math.nan,) * k, step_n_clusters=tuple(ncl),
        step_n_components=tuple(ncomp), step_accepted=(True,) * k, returned=k - 1, base=b,
        info={"criterion": "log_alpha_lift", "privacy_measure": "max log alpha-lift", "utility_measure": "I(X;Y)",
              "eps": e, "alpha": ("inf" if math.isinf(a) else a), "paper": "Ding, Zarrabian & Sadeghi, arXiv:2101.10551"},
        step_criteria=tuple(crit))
    return AlphaWatchdogResult(
        eps=e, alpha=a, base=b, public_labels=jd.public_labels, published=published, log_alpha_lift=lla / lnb,
        merged_log_alpha_lift=clean(merged_la) if merged_la == merged_la else merged_la,
        max_log_alpha_lift=clean(mla / lnb), max_abs_log_lift=clean(s["max_abs_log_lift"] / lnb),
        sibson=clean(max(sib, 0.0) / lnb), mutual_information=clean(s["H"] / lnb), entropy_x=float(-xlogx(px).sum()) / lnb,
        trace=trace)
