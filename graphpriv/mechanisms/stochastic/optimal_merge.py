"""The privacy watchdog: publish the low-risk symbols, merge the rest optimally (Theorem 1).

Sadeghi, Ding & Rakotoarivelo, *On Properties and Optimization of Information-theoretic Privacy
Watchdog*, eq. (1), Theorem 1, Corollary 1 and Sec. IV. The watchdog publishes X_eps = {x : eps(x) <=
eps} unchanged and randomises X_eps^c with an X-invariant R(y); for privacy and utility that is a
**merge** of X_eps^c into one super-symbol, and every X-invariant R attains the best worst-case
abs-log-lift eps^c = max_s |i(s, X_eps^c)| that any channel on X_eps^c can reach
(:func:`min_channel_abs_log_lift` checks it by linear programming). :func:`critical_sweep` lists the
bi-partitions at every critical threshold.

Conventions: critical thresholds use the <= rule and report eps_eff by its general formula (the
paper's chain (6) is off by one, and tied symbols enter together); Theorem 1 covers block (partition)
mechanisms only.
"""

from __future__ import annotations

import math
from dataclasses import asdict, dataclass, field
from functools import cached_property

import numpy as np
import pandas as pd

from ...distributions import _subset_mask
from ...errors import InputError
from ..._validation import check_real
from ...measures.stochastic import LOG_LIFT_ATOL as _ATOL, _check_eps, _joint
from .log_lift_sets import _Prep, _base, _check_R, _codes_of, _jsonable, _mi_after_merge, _nmil_mask, _sample, _xinv_channel
from ...citations import record_use

__all__ = ["WatchdogResult", "watchdog", "CriticalLevel", "CriticalSweep", "critical_sweep", "min_channel_abs_log_lift"]


@dataclass(frozen=True, repr=False)
class WatchdogResult:
    """Output of :func:`watchdog`: the bi-partition and the optimal X-invariant merge (Theorem 1).

    Logarithmic quantities are in the unit of ``base``.

    Attributes
    ----------
    eps : float
        The threshold.
    base : float
        The log base.
    public_labels : ndarray
        X in code order.
    published : ndarray of bool
        Mask of X_eps (published unchanged); ``randomized`` is its complement X_eps^c.
    eps_x : ndarray
        eps(x) = max_s |i(s, x)| per public symbol.
    eps_c : float
        eps^c = eps(X_eps^c), the optimal abs-log-lift on X_eps^c (eq. (5), Corollary 1).
    eps_eff : float
        max{max_{x in X_eps} eps(x), eps^c} = max |i(s, y)| of the release.
    delta0 : float
        Delta_total(eps, X_eps) = Delta(eps, X_eps^c), the breach probability of the release.
    mutual_information : float
        I(X; Y) = H(X) - p(X_eps^c) H(q) (eq. (8)); ``entropy_x`` is H(X).
    nmil : float
        NMIL(X_eps^c) = H(X|Y) / H(X) (eq. (9)); NaN when H(X) = 0.
    R : str or ndarray
        The X-invariant randomisation ('merge', 'uniform' or a pmf over X_eps^c).
    trace : MergeTrace
        The mechanism as a merge sequence (built on first access): the symbols of X_eps^c merged into
        one block, most risky first, each step with its criterion (the symbol's max |log-lift| against
        eps, the block's eps^c so far, NMIL, I(X; Y)); see
        :func:`graphpriv.mechanisms.stochastic.traces.watchdog_trace`.
    """

    eps: float
    base: float
    public_labels: np.ndarray
    published: np.ndarray
    eps_x: np.ndarray
    eps_c: float
    eps_eff: float
    delta0: float
    mutual_information: float
    entropy_x: float
    nmil: float
    R: object = "merge"
    _jd: object = field(default=None, repr=False, compare=False)

    @cached_property
    def trace(self):
        """The watchdog as a :class:`~graphpriv.MergeTrace` (objective "watchdog"), built on first access."""
        from .traces import watchdog_trace

        if self._jd is None:
            raise InputError("this WatchdogResult was built without its distribution; run gp.watchdog(jd, eps) for its trace")
        return watchdog_trace(self._jd, self.eps, base=self.base)

    @property
    def randomized(self) -> np.ndarray:
        """Bool mask of X_eps^c (the merged, randomised symbols)."""
        return ~self.published

    @property
    def X_eps(self) -> np.ndarray:
        """Labels of X_eps."""
        return self.public_labels[self.published]

    @property
    def X_eps_c(self) -> np.ndarray:
        """Labels of X_eps^c."""
        return self.public_labels[~self.published]

    @property
    def partition(self) -> tuple[tuple, ...]:
        """Blocks of the merge partition: X_eps^c first (if non-empty), then one singleton per published symbol."""
        blocks = []
        if (~self.published).any():
            blocks.append(tuple(self.X_eps_c.tolist()))
        blocks += [(x,) for x in self.X_eps.tolist()]
        return tuple(blocks)

    @property
    def channel(self) -> np.ndarray:
        """Watchdog channel W[x, y] = p(y|x), shape (|X|, |X|) with Y = X (eq. (1)); rows indexed by x."""
        blocks = [np.flatnonzero(~self.published)] if (~self.published).any() else []
        blocks += [np.array([i]) for i in np.flatnonzero(self.published)]
        return _xinv_channel(len(self.public_labels), blocks, [self.R] + [None] * (len(blocks) - 1))

    def contracted_channel(self) -> tuple[np.ndarray, list]:
        """The same mechanism as a contraction: (W of shape (|X|, |X_eps| + 1), output labels).

        The last output is the super-symbol ``("merged", X_eps^c labels...)``; privacy and utility equal
        those of :attr:`channel` (Theorem 1).
        """
        pub = np.flatnonzero(self.published)
        W = np.zeros((len(self.public_labels), pub.size + 1))
        W[pub, np.arange(pub.size)] = 1.0
        W[~self.published, pub.size] = 1.0
        labels = self.X_eps.tolist() + [("merged",) + tuple(self.X_eps_c.tolist())]
        if not (~self.published).any():
            W = W[:, :-1]
            labels = labels[:-1]
        return W, labels

    @property
    def kernel(self) -> np.ndarray:
        """Alias of :attr:`channel` (the mechanism's kernel p(y|x), rows indexed by x)."""
        return self.channel

    def apply(self, s, x=None, rng=None) -> np.ndarray:
        """Sanitise records: each x in X_eps is kept, each x in X_eps^c replaced by y ~ R.

        Call as ``apply(x, rng=...)`` or, like the other mechanisms, ``apply(s, x, rng)``; the watchdog
        only looks at X, so ``s`` is ignored.

        Parameters
        ----------
        s : sequence of sensitive labels (ignored), or the public labels when ``x`` is None
        x : label or sequence of public labels
        rng : int, numpy Generator or None (keyword in the one-argument form)
        """
        if x is None:
            x = s
        codes = _codes_of(x, self.public_labels, "x")
        y = _sample(self.channel, codes, np.random.default_rng(rng))
        return self.public_labels[y]

    def report(self) -> dict:
        """Privacy/utility summary (JSON-able)."""
        return {
            "eps": self.eps, "base": self.base, "n_published": int(self.published.sum()),
            "n_randomized": int((~self.published).sum()), "eps_c": self.eps_c, "eps_eff": self.eps_eff,
            "delta0": self.delta0, "I_XY": self.mutual_information, "H_X": self.entropy_x, "NMIL": self.nmil,
            "X_eps_c": [_jsonable(v) for v in self.X_eps_c.tolist()],
        }

    def __repr__(self) -> str:
        return (f"WatchdogResult(eps={self.eps:g}, |X_eps|={int(self.published.sum())}, |X_eps^c|={int((~self.published).sum())}, "
                f"eps_c={self.eps_c:.4g}, eps_eff={self.eps_eff:.4g}, delta0={self.delta0:.4g}, NMIL={self.nmil:.4g})")


def watchdog(jd, eps: float, *, base: float = math.e, R="merge", merge: str = "complete", alpha: float | None = None):
    """Privacy watchdog with the optimal X-invariant randomisation (paper 002, eq. (1), Theorem 1).

    ``merge="subset"`` and ``alpha=`` select the same authors' variants: subset merging of X_eps^c
    (:func:`graphpriv.watchdog_subsets`; Zarrabian, Ding, Sadeghi & Rakotoarivelo, *Enhancing Utility in the
    Watchdog Privacy Mechanism*, ICASSP 2022) and the one-sided α-lift watchdog
    (:func:`graphpriv.alpha_watchdog`; Ding, Zarrabian & Sadeghi, arXiv:2101.10551), which protects
    {x : ℓ_α(x) > e^eps} -- at ``alpha=math.inf`` the max-lift watchdog, which unlike this two-sided
    |log-lift| watchdog leaves symbols with a very small lift published.

    Parameters
    ----------
    jd : JointDistribution or array_like (|S|, |X|)
        The joint pmf p(s, x).
    eps : float >= 0
        Threshold on the abs-log-lift, **in the unit of** ``base``.
    base : float, default math.e
        Log base. **Nats by default** (paper 002's unit); pass 2 for bits.
    R : 'merge', 'uniform' or pmf over X_eps^c
        The X-invariant randomisation; it changes neither privacy nor utility (Theorem 1, eq. (8)),
        only :attr:`WatchdogResult.channel` and sampling.
    merge : {"complete", "subset"}, default "complete"
        "subset": split X_eps^c into subsets that are each eps-private when merged
        (returns a :class:`~graphpriv.SubsetWatchdogResult`).
    alpha : float > 0, optional
        Protect by the α-lift instead of the two-sided |log-lift| (returns an
        :class:`~graphpriv.AlphaWatchdogResult`).

    Returns
    -------
    WatchdogResult, SubsetWatchdogResult or AlphaWatchdogResult
        With ``trace``: the merge of X_eps^c one symbol at a time, as a :class:`~graphpriv.MergeTrace`
        that every merge view and the explorer read.

    Raises
    ------
    InputError
        eps < 0 or NaN, bad R.

    Examples
    --------
    A small example: exponential entries from ``default_rng(7)``, |S| = 4, |X| = 8, eps = 1 nat.

    >>> import numpy as np, graphpriv as gp
    >>> P = np.random.default_rng(7).exponential(size=(4, 8)); P /= P.sum()
    >>> w = gp.watchdog(gp.JointDistribution(P), 1.0)
    >>> np.flatnonzero(w.randomized).tolist(), round(w.eps_c, 4), round(w.nmil, 4), w.delta0
    ([0, 4, 5, 6, 7], 0.1159, 0.5612, 0.0)
    >>> w.channel.shape
    (8, 8)

    Notes
    -----
    O(|S| |X|): one pass over the log-lift matrix, one merged column.
    """
    if merge not in ("complete", "subset"):
        raise InputError(f"merge={merge!r} is not a watchdog merge; use 'complete' (one merged symbol) or 'subset'")
    if alpha is not None or merge == "subset":
        if not (isinstance(R, str) and R == "merge"):
            raise InputError("R applies to the complete merge only; leave R='merge' with merge='subset' or alpha=")
        if alpha is not None and merge == "subset":
            raise InputError("choose merge='subset' or alpha=, not both (subset merging is defined for |log-lift|)")
        if alpha is not None:
            from .alpha_lift_watchdog import alpha_watchdog

            return alpha_watchdog(jd, eps, alpha, base=base)
        from .subset_watchdog import watchdog_subsets

        return watchdog_subsets(jd, eps, base=base)
    record_use("watchdog")  # for gp.cite()
    jd = _joint(jd)
    e = _check_eps(check_real(eps, "eps"))
    b, lnb = _base(base)
    R = _check_R(R)
    prep = _Prep(jd.P)
    e_n = e * lnb
    pub = prep.eps_x <= e_n + _ATOL
    rnd = ~pub
    if isinstance(R, np.ndarray) and R.shape != (int(rnd.sum()),):
        raise InputError(f"R must be a pmf over the {int(rnd.sum())} randomised symbols, got shape {R.shape}")
    col = prep.P[:, rnd].sum(axis=1)
    eps_c, d0 = prep.block(col, e_n)
    max_pub = float(prep.eps_x[pub].max()) if pub.any() else 0.0
    nm = _nmil_mask(prep, rnd)
    HX = prep.HX
    return WatchdogResult(
        eps=e, base=b, public_labels=jd.public_labels, published=pub, eps_x=prep.eps_x / lnb,
        eps_c=eps_c / lnb, eps_eff=max(max_pub, eps_c) / lnb, delta0=d0,
        mutual_information=_mi_after_merge(prep, rnd) / lnb,
        entropy_x=HX / lnb, nmil=nm, R=R, _jd=jd,
    )


# ----------------------------------------------------------------------------- critical sweep
@dataclass(frozen=True)
class CriticalLevel:
    """One row of the critical-value sweep (paper 002, Sec. IV); log quantities in ``base``."""

    eps: float                 # threshold eps_j (a distinct eps(x) value, or 0)
    n_randomized: int          # |X_eps^c|
    added: tuple               # labels that enter X_eps^c at this level (chain (6): one symbol, or a tie group)
    eps_c: float               # eps(X_eps^c)
    eps_eff: float             # max{max_{X_eps} eps(x), eps^c}
    delta0: float              # Delta(eps, X_eps^c)
    nmil: float                # NMIL(X_eps^c)


@dataclass(frozen=True)
class CriticalSweep:
    """All watchdog bi-partitions of a distribution, one per critical threshold (decreasing eps)."""

    base: float
    levels: tuple

    def randomized(self, j: int) -> tuple:
        """Labels of X_eps^c at level ``j`` (the union of ``added`` up to j, in decreasing eps(x))."""
        out: list = []
        for lev in self.levels[: j + 1]:
            out.extend(lev.added)
        return tuple(out)

    def to_frame(self) -> pd.DataFrame:
        return pd.DataFrame([asdict(r) for r in self.levels])

    def __len__(self) -> int:
        return len(self.levels)

    def __repr__(self) -> str:
        return f"CriticalSweep({len(self.levels)} levels, base={self.base:g})"


def critical_sweep(jd, *, base: float = math.e) -> CriticalSweep:
    """Critical-value sweep of the watchdog (paper 002, Sec. IV, chain (6)).

    The thresholds are the distinct values eps_1 > eps_2 > ... of eps(x), then 0. At threshold eps_j the
    randomised set is {x : eps(x) > eps_j} (the <= rule; the paper's chain (6) is off by one: read literally,
    X^c_{eps_j} = {x_1..x_{j-1}}), tied symbols enter together (the paper assumes no ties), and eps_eff uses
    the general formula. eps^c is not monotone.

    Examples
    --------
    >>> import numpy as np, graphpriv as gp
    >>> P = np.random.default_rng(7).exponential(size=(4, 8)); P /= P.sum()
    >>> sw = gp.critical_sweep(P)
    >>> [round(r.eps_c, 3) for r in sw.levels]        # eps^c is not monotone (Sec. IV)
    [0.0, 4.756, 1.693, 0.906, 0.532, 0.116, 0.013, 0.027, 0.0]

    Notes
    -----
    O(|S| |X| + |X| log |X|): the merged column grows by one symbol (or one tie group) per level.
    """
    record_use("watchdog")  # for gp.cite()
    jd = _joint(jd)
    b, lnb = _base(base)
    prep = _Prep(jd.P)
    ex = prep.eps_x
    levels_vals = sorted(set(ex.tolist()) | {0.0}, reverse=True)
    order = np.argsort(-ex, kind="stable")
    col = np.zeros(prep.P.shape[0])
    pb = 0.0
    A = 0.0
    k = 0
    n = len(ex)
    rows = []
    labels = jd.public_labels
    PT = prep.PT
    for t in levels_vals:
        k0 = k
        while k < n and ex[order[k]] > t + _ATOL:
            j = order[k]
            col += PT[j]
            pb += float(prep.px[j])
            A += float(prep.px_lnpx[j])
            k += 1
        eps_c, d0 = prep.block(col, t) if k else (0.0, 0.0)
        max_pub = float(ex[order[k]]) if k < n else 0.0
        rows.append(CriticalLevel(eps=t / lnb, n_randomized=k, added=tuple(labels[np.sort(order[k0:k])].tolist()),
                                  eps_c=eps_c / lnb, eps_eff=max(max_pub, eps_c) / lnb, delta0=d0,
                                  nmil=prep.nmil_of(pb, A) if k else 0.0))
    return CriticalSweep(base=b, levels=tuple(rows))


# ----------------------------------------------------------------------------- Theorem 1 oracle
def min_channel_abs_log_lift(jd, subset, *, base: float = math.e, tol: float = 1e-7) -> float:
    """Best worst-case abs-log-lift over ALL channels from X_Q to X_Q (LP + bisection; a test oracle).

    min over row-stochastic W: X_Q -> X_Q of max_{s, y} |i(s, y)|. For a fixed t the constraints
    e^{-t} p(y) <= p(y|s) <= e^{t} p(y) are linear in W, so bisection on t with a feasibility LP
    (``scipy.optimize.linprog(method="highs")``) finds the optimum. Theorem 1 / Corollary 1 of paper
    002 say it equals eps(X_Q).

    Examples
    --------
    >>> import numpy as np, graphpriv as gp
    >>> P = np.random.default_rng(7).exponential(size=(4, 8)); P /= P.sum()
    >>> round(gp.min_channel_abs_log_lift(P, [0, 4, 5, 6, 7]), 5)      # = eps^c = 0.115884
    0.11588

    Notes
    -----
    O(log(1/tol)) LPs with |X_Q|^2 variables and 2 |S| |X_Q| constraints: small cases only.
    """
    from scipy.optimize import linprog

    jd = _joint(jd)
    _, lnb = _base(base)
    mask = _subset_mask(subset, jd.public_labels, "subset")
    prep = _Prep(jd.P, keep_matrix=False)
    idx = np.flatnonzero(mask & prep.live)
    m = idx.size
    if m == 0:
        return 0.0
    px = prep.px[idx]
    pxs = prep.P[:, idx] / prep.ps[:, None]
    nS = pxs.shape[0]
    Aeq = np.kron(np.eye(m), np.ones((1, m)))        # rows of W sum to 1; w[x*m + y]
    beq = np.ones(m)
    # constraint rows for (s, y): sum_x W[x, y] * coef[s, x]
    sel = np.kron(np.ones((1, m)), np.eye(m))        # picks W[:, y] for each y  (m, m*m)

    def feasible(t: float) -> bool:
        up = pxs - math.exp(t) * px[None, :]        # (nS, m): p(y|s) - e^t p(y) <= 0
        lo = math.exp(-t) * px[None, :] - pxs
        rows = []
        for coef in (up, lo):
            # row (s, y): coef[s, x] at column x*m + y
            rows.append((coef[:, None, :, None] * np.eye(m)[None, :, None, :]).reshape(nS * m, m * m))
        A = np.vstack(rows)
        res = linprog(np.zeros(m * m), A_ub=A, b_ub=np.zeros(A.shape[0]), A_eq=Aeq, b_eq=beq, bounds=(0, 1),
                      method="highs", options={"primal_feasibility_tolerance": 1e-10, "dual_feasibility_tolerance": 1e-10})
        return res.status == 0

    del sel
    lo_t, hi_t = 0.0, float(prep.eps_x[idx].max())
    if not math.isfinite(hi_t):
        hi_t = 50.0
    hi_t += 1.0
    while hi_t - lo_t > tol:
        mid = 0.5 * (lo_t + hi_t)
        if feasible(mid):
            hi_t = mid
        else:
            lo_t = mid
    return hi_t / lnb
