"""Privacy watchdog and (eps, delta) log-lift partitioning (paper 002, Sadeghi, Ding, Rakotoarivelo).

The watchdog publishes the low-risk public symbols X_eps = {x : eps(x) <= eps} unchanged and
randomises the rest, X_eps^c, with an X-invariant R(y) (eq. (1)). For privacy and utility that is a
**merge**: X_eps^c is contracted into one super-symbol whose column is the sum of its members' columns.
Theorem 1 / Corollary 1: the best worst-case abs-log-lift any channel on X_eps^c can reach is
eps^c = max_s |i(s, X_eps^c)|, and every X-invariant R attains it.

Algorithm 1 (greedy (eps, delta) partitioning) then *peels* single symbols off the merged block while
the breach probability Delta_total (eq. (11)) stays <= delta, the effective abs-log-lift stays <=
eps_bar and the normalised mutual-information loss NMIL (eq. (9)) drops. The run is recorded as a trace
of :class:`PeelStep` records that :func:`graphpriv.viz.plot_eps_delta_trace` draws.

**Log base: natural log (nats) by default** -- ``base=math.e`` -- because paper 002's proofs use
e^{eps} and only nats reproduce its Fig. 2 (spec E1). ``eps``, ``eps_bar`` and every returned
log-lift or mutual information are in the unit of ``base``; pass ``base=2`` for bits.

Errata and conventions of the spec (``watchdog.md`` section 6) implemented here: delta0 =
Delta_total(eps, X_eps) (E5); delta = 0 is accepted and any delta >= delta0 (E6); critical thresholds
use the <= rule and report eps_eff by its general formula (E7, E8); NMIL is strictly monotone only for
non-empty sets (E9); ``eps_bar=inf`` means no cap -- the paper simulates it with 1000 (E16); the
eps_bar guarantee needs one accepted move or eps^c <= eps_bar (E17); the sort of Algorithm 1 breaks
ties by index (E21). Theorem 1 covers block (partition) mechanisms only (E15).
"""

from __future__ import annotations

import itertools
import json
import math
from dataclasses import asdict, dataclass, field

import numpy as np
import pandas as pd

from .._validation import check_base
from ..distributions import JointDistribution, _subset_mask
from ..errors import InputError, InputTypeError, TooLargeError
from ..measures.stochastic import LOG_LIFT_ATOL as _ATOL, _check_eps, _joint

__all__ = [
    "WatchdogResult",
    "watchdog",
    "CriticalLevel",
    "CriticalSweep",
    "critical_sweep",
    "PeelStep",
    "EpsDeltaResult",
    "watchdog_eps_delta",
    "EpsDeltaOptimum",
    "optimal_eps_delta",
    "PartitionMetrics",
    "partition_metrics",
    "partition_channel",
    "nmil",
    "min_channel_abs_log_lift",
    "EpsDeltaSetting",
    "PAPER002_FIG2_SETTINGS",
    "WatchdogMonteCarlo",
    "watchdog_monte_carlo",
]


# ----------------------------------------------------------------------------- core (nats)
class _Prep:
    """Per-distribution quantities in nats; zero-mass sensitive rows dropped, zero-mass x published."""

    __slots__ = ("P", "ps", "px", "lnps", "HX", "eps_x", "_I", "px_lnpx", "live", "_PT")

    def __init__(self, P: np.ndarray, keep_matrix: bool = True):
        ps_all = P.sum(axis=1)
        if (ps_all <= 0).any():
            P = P[ps_all > 0]
        self.P = P
        self.ps = P.sum(axis=1)
        self.px = P.sum(axis=0)
        self.live = self.px > 0
        self.lnps = np.log(self.ps)
        with np.errstate(divide="ignore", invalid="ignore"):
            lnpx = np.where(self.live, np.log(np.where(self.live, self.px, 1.0)), 0.0)
            I = np.log(P)
        I -= self.lnps[:, None]
        I -= lnpx[None, :]
        np.abs(I, out=I)
        e = I.max(axis=0)
        e[~self.live] = 0.0
        self.eps_x = e
        self._I = I if keep_matrix else None
        self.px_lnpx = np.where(self.live, self.px * lnpx, 0.0)
        self.HX = float(-self.px_lnpx.sum())
        self._PT = None

    @property
    def PT(self) -> np.ndarray:
        """C-contiguous transpose: column x of P as a contiguous row (fast per-symbol updates)."""
        if self._PT is None:
            self._PT = np.ascontiguousarray(self.P.T)
        return self._PT

    def delta_x(self, eps: float) -> np.ndarray:
        """Delta(eps, x) for every x."""
        if self._I is None:
            raise RuntimeError("matrix not kept")
        return np.sum(self.P, axis=0, where=self._I > eps + _ATOL)

    def block(self, col: np.ndarray, eps: float | None) -> tuple[float, float]:
        """(eps(B), Delta(eps, B)) of a merged block with column ``col`` (nats)."""
        pb = col.sum()
        if pb <= 0:
            return 0.0, 0.0
        with np.errstate(divide="ignore"):
            a = np.abs(np.log(col) - self.lnps - math.log(pb))
        d = 0.0 if eps is None else float(col[a > eps + _ATOL].sum())
        return float(a.max()), d

    def nmil_of(self, pb: float, A: float) -> float:
        """NMIL of a block with mass pb and A = sum p(x) ln p(x) over it."""
        if pb <= 0:
            return 0.0
        if self.HX <= 0:
            return math.nan
        return max(pb * math.log(pb) - A, 0.0) / self.HX


def _mi_after_merge(prep: _Prep, rnd: np.ndarray) -> float:
    """I(X; Y) = H(X) - p(B) H(q) in nats for the X-invariant merge of B = rnd (eq. (8))."""
    pb = float(prep.px[rnd].sum())
    loss = pb * math.log(pb) - float(prep.px_lnpx[rnd].sum()) if pb > 0 else 0.0
    return max(prep.HX - max(loss, 0.0), 0.0)


def _nmil_mask(prep: _Prep, mask: np.ndarray) -> float:
    return prep.nmil_of(float(prep.px[mask].sum()), float(prep.px_lnpx[mask].sum()))


# ----------------------------------------------------------------------------- channels
def _xinv_channel(n_x: int, blocks: list[np.ndarray], R=None) -> np.ndarray:
    """Channel on Y = X: identity on singletons, p(y|x) = R_B(y) inside each block B (default merge)."""
    W = np.zeros((n_x, n_x))
    for k, b in enumerate(blocks):
        b = np.asarray(b, dtype=int)
        if b.size == 1:
            W[b[0], b[0]] = 1.0
            continue
        r = None if R is None else R[k]
        if r is None or (isinstance(r, str) and r == "merge"):
            W[b, b[0]] = 1.0
        elif isinstance(r, str) and r == "uniform":
            W[np.ix_(b, b)] = 1.0 / b.size
        else:
            rv = np.asarray(r, dtype=float)
            if rv.shape != (b.size,) or (rv < 0).any() or not np.isclose(rv.sum(), 1.0):
                raise InputError(f"R for a block of {b.size} symbols must be a pmf of length {b.size} (or 'merge'/'uniform')")
            W[np.ix_(b, b)] = rv[None, :]
    return W


def _sample(W: np.ndarray, codes: np.ndarray, rng) -> np.ndarray:
    cdf = np.cumsum(W[codes], axis=1)
    u = rng.random(len(codes))[:, None]
    return np.minimum((u > cdf).sum(axis=1), W.shape[1] - 1)


def _codes_of(values, labels: np.ndarray, name: str) -> np.ndarray:
    index = {lab: i for i, lab in enumerate(labels.tolist())}
    from ..errors import UnknownLabelError

    vals = [values] if isinstance(values, (str, bytes)) or not hasattr(values, "__iter__") else list(values)
    out = np.empty(len(vals), dtype=int)
    for k, v in enumerate(vals):
        try:
            out[k] = index[v]
        except (KeyError, TypeError):
            raise UnknownLabelError(f"{name}: {v!r} is not a known value (first labels {labels[:5].tolist()})") from None
    return out


def _check_R(R):
    if R is None or (isinstance(R, str) and R in ("merge", "uniform")):
        return R
    if isinstance(R, str):
        raise InputError(f"R={R!r} must be 'merge', 'uniform' or a pmf over the randomised symbols")
    return np.asarray(R, dtype=float)


def _base(base) -> tuple[float, float]:
    b = check_base(base)
    return b, math.log(b)


# ----------------------------------------------------------------------------- watchdog
@dataclass(frozen=True, repr=False)
class WatchdogResult:
    """Output of :func:`watchdog`: the bi-partition and the optimal X-invariant merge (Theorem 1).

    Attributes (logarithmic quantities in the unit of ``base``)
    ----------
    eps : threshold; base : log base; public_labels : X in code order
    published : bool mask of X_eps (published unchanged); ``randomized`` is its complement X_eps^c
    eps_x : eps(x) = max_s |i(s, x)| per public symbol
    eps_c : eps^c = eps(X_eps^c), the optimal abs-log-lift on X_eps^c (eq. (5), Corollary 1)
    eps_eff : max{max_{x in X_eps} eps(x), eps^c} = max |i(s, y)| of the release
    delta0 : Delta_total(eps, X_eps) = Delta(eps, X_eps^c), the breach probability of the release
    mutual_information : I(X; Y) = H(X) - p(X_eps^c) H(q) (eq. (8)); entropy_x : H(X)
    nmil : NMIL(X_eps^c) = H(X|Y) / H(X) (eq. (9)); NaN when H(X) = 0
    R : the X-invariant randomisation ('merge', 'uniform' or a pmf over X_eps^c)
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


def _jsonable(v):
    if isinstance(v, np.generic):
        return v.item()
    if isinstance(v, (str, int, float, bool)) or v is None:
        return v
    return str(v)


def watchdog(jd, eps: float, *, base: float = math.e, R="merge") -> WatchdogResult:
    """Privacy watchdog with the optimal X-invariant randomisation (paper 002, eq. (1), Theorem 1).

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

    Returns
    -------
    WatchdogResult

    Raises
    ------
    InputError
        eps < 0 or NaN, bad R.

    Examples
    --------
    The golden case of the watchdog spec (section 5.2): ``default_rng(7)``, |S| = 4, |X| = 8, eps = 1 nat.

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
    jd = _joint(jd)
    e = _check_eps(eps)
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
        entropy_x=HX / lnb, nmil=nm, R=R,
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

    The thresholds are the distinct values eps_1 > eps_2 > ... of eps(x), then 0. At threshold eps_j
    the randomised set is {x : eps(x) > eps_j} (the <= rule; the paper's chain (6) is off by one, spec
    E7), tied symbols enter together (E8), and eps_eff uses the general formula. eps^c is not monotone.

    Examples
    --------
    >>> import numpy as np, graphpriv as gp
    >>> P = np.random.default_rng(7).exponential(size=(4, 8)); P /= P.sum()
    >>> sw = gp.critical_sweep(P)
    >>> [round(r.eps_c, 3) for r in sw.levels]        # watchdog spec 5.2
    [0.0, 4.756, 1.693, 0.906, 0.532, 0.116, 0.013, 0.027, 0.0]

    Notes
    -----
    O(|S| |X| + |X| log |X|): the merged column grows by one symbol (or one tie group) per level.
    """
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


# ----------------------------------------------------------------------------- Algorithm 1
@dataclass(frozen=True)
class PeelStep:
    """One candidate of Algorithm 1: peel ``x`` off the merged block X_Q^c (publish it) or not.

    ``reason`` is ``"accepted"``, ``"nmil"`` (NMIL would not drop), ``"delta"`` (Delta_total > delta),
    ``"eps_bar"`` (eps_eff > eps_bar), or ``"filter14:delta"`` / ``"filter14:eps_bar"`` for candidates
    removed before the loop by eq. (14) (then the candidate metrics are NaN). Log values in ``base``.
    """

    position: int         # position in the sorted candidate list M (-1 for filtered symbols)
    x: object             # public label
    code: int             # public code
    delta_x: float        # Delta(eps, x)
    eps_x: float          # eps(x)
    nmil_before: float    # NMIL(X_Q^c) before the test
    nmil_new: float       # NMIL(X_Q^c \ {x})
    delta_total: float    # Delta_total(eps, X_Q + {x})
    eps_eff: float        # eps_eff(X_Q + {x})
    block_size: int       # |X_Q^c| after the step
    accepted: bool
    reason: str


@dataclass(frozen=True, repr=False)
class EpsDeltaResult:
    """Output of :func:`watchdog_eps_delta` (Algorithm 1): the (eps, delta)-partition and its trace."""

    eps: float
    delta: float
    eps_bar: float
    base: float
    public_labels: np.ndarray
    published: np.ndarray          # X_Q mask
    delta0: float
    nmil_watchdog: float           # NMIL(X_eps^c) of the plain watchdog
    nmil: float                    # NMIL(X_Q^c)
    delta_total: float             # Delta_total(eps, X_Q) = Pr[|i(S, Y)| > eps]
    eps_eff: float                 # max |i(s, y)| of the release
    mutual_information: float      # I(X; Y)
    trace: tuple = field(default=())
    tie_break: str = "index"

    @property
    def randomized(self) -> np.ndarray:
        return ~self.published

    @property
    def X_Q(self) -> np.ndarray:
        return self.public_labels[self.published]

    @property
    def X_Q_c(self) -> np.ndarray:
        return self.public_labels[~self.published]

    @property
    def n_accepted(self) -> int:
        return sum(1 for s in self.trace if s.accepted)

    @property
    def partition(self) -> tuple[tuple, ...]:
        blocks = [tuple(self.X_Q_c.tolist())] if (~self.published).any() else []
        return tuple(blocks + [(x,) for x in self.X_Q.tolist()])

    def partitions(self) -> list[tuple[tuple, ...]]:
        """The partition after each accepted peel: the merge sequence as data (first = plain watchdog)."""
        rnd = ~self.published.copy()
        for s in self.trace:
            if s.accepted:
                rnd[s.code] = True
        seq = []
        labels = self.public_labels

        def part(r):
            blocks = [tuple(labels[r].tolist())] if r.any() else []
            return tuple(blocks + [(x,) for x in labels[~r].tolist()])

        seq.append(part(rnd))
        for s in self.trace:
            if s.accepted:
                rnd = rnd.copy()
                rnd[s.code] = False
                seq.append(part(rnd))
        return seq

    @property
    def channel(self) -> np.ndarray:
        """Channel W[x, y] of shape (|X|, |X|): identity on X_Q, merge of X_Q^c into its first symbol."""
        blocks = [np.flatnonzero(~self.published)] if (~self.published).any() else []
        blocks += [np.array([i]) for i in np.flatnonzero(self.published)]
        return _xinv_channel(len(self.public_labels), blocks)

    @property
    def kernel(self) -> np.ndarray:
        """Alias of :attr:`channel`."""
        return self.channel

    def apply(self, s, x=None, rng=None) -> np.ndarray:
        """Sanitise records with :attr:`channel`: ``apply(x, rng=...)`` or ``apply(s, x, rng)`` (s ignored)."""
        if x is None:
            x = s
        codes = _codes_of(x, self.public_labels, "x")
        return self.public_labels[_sample(self.channel, codes, np.random.default_rng(rng))]

    def to_frame(self) -> pd.DataFrame:
        """The trace, one row per candidate (in test order; filtered symbols last)."""
        cols = [f.name for f in PeelStep.__dataclass_fields__.values()]
        return pd.DataFrame([asdict(s) for s in self.trace], columns=cols)

    def report(self) -> dict:
        return {
            "eps": self.eps, "delta": self.delta, "eps_bar": self.eps_bar, "base": self.base, "delta0": self.delta0,
            "NMIL_watchdog": self.nmil_watchdog, "NMIL": self.nmil, "Delta_total": self.delta_total,
            "eps_eff": self.eps_eff, "I_XY": self.mutual_information, "n_published": int(self.published.sum()),
            "n_randomized": int((~self.published).sum()), "n_accepted": self.n_accepted,
            "X_Q_c": [_jsonable(v) for v in self.X_Q_c.tolist()],
        }

    def to_json(self) -> str:
        """Report and trace as a JSON string (``inf`` written as ``Infinity``)."""
        trace = [{k: _jsonable(v) for k, v in asdict(s).items()} for s in self.trace]
        return json.dumps({"report": self.report(), "trace": trace})

    def __repr__(self) -> str:
        return (f"EpsDeltaResult(eps={self.eps:g}, delta={self.delta:g}, eps_bar={self.eps_bar:g}, "
                f"|X_Q|={int(self.published.sum())}, |X_Q^c|={int((~self.published).sum())}, NMIL={self.nmil:.4g} "
                f"(watchdog {self.nmil_watchdog:.4g}), Delta_total={self.delta_total:.4g}, eps_eff={self.eps_eff:.4g})")


def _greedy_core(prep: _Prep, e: float, delta: float, eps_bar: float, *, prefilter: bool = True,
                 tie_break: str = "index", record: bool = True):
    """Algorithm 1 in nats. Returns (keep, nmil, delta_total, eps_eff, delta0, nmil0, steps)."""
    ex = prep.eps_x
    dx = prep.delta_x(e)
    keep = ex <= e + _ATOL
    rnd = ~keep
    col = prep.P[:, rnd].sum(axis=1)
    pb = float(prep.px[rnd].sum())
    A = float(prep.px_lnpx[rnd].sum())
    eps_B, dB = prep.block(col, e) if rnd.any() else (0.0, 0.0)
    delta0 = float(dx[keep].sum()) + dB
    if delta < delta0:
        raise InputError(f"delta={delta:g} is below delta0={delta0:.6g}, the breach probability of the plain watchdog "
                         "(paper 002 requires delta >= delta0); raise delta or eps")
    cand = np.flatnonzero(rnd)
    filtered = []
    if prefilter:
        bad_d = dx[cand] > delta
        bad_e = ex[cand] > eps_bar + _ATOL
        filtered = [(int(x), "filter14:delta" if bd else "filter14:eps_bar") for x, bd, be in zip(cand, bad_d, bad_e) if bd or be]
        cand = cand[~(bad_d | bad_e)]
    if tie_break == "index":
        cand = cand[np.lexsort((cand, dx[cand]))]
    elif tie_break == "probability":
        cand = cand[np.lexsort((cand, -prep.px[cand], dx[cand]))]
    else:
        raise InputError(f"tie_break={tie_break!r} must be 'index' or 'probability'")
    nm = prep.nmil_of(pb, A)
    nmil0 = nm
    pub_delta = float(dx[keep].sum())
    pub_eps = float(ex[keep].max()) if keep.any() else 0.0
    nB = int(rnd.sum())
    steps = []
    lnps = prep.lnps
    PT = prep.PT if len(cand) > 64 else prep.P.T
    px = prep.px
    HX = prep.HX
    for pos, x in enumerate(cand):
        c2 = col - PT[x]
        np.maximum(c2, 0.0, out=c2)
        pb2 = pb - float(px[x])
        A2 = A - float(prep.px_lnpx[x])
        if nB - 1 <= 0 or pb2 <= 0:
            c2.fill(0.0)
            pb2, eB2, dB2, nm2 = 0.0, 0.0, 0.0, 0.0
        else:
            with np.errstate(divide="ignore"):
                a = np.abs(np.log(c2) - lnps - math.log(pb2))
            eB2 = float(a.max())
            dB2 = float(c2[a > e + _ATOL].sum())
            nm2 = max(pb2 * math.log(pb2) - A2, 0.0) / HX if HX > 0 else math.nan
        dt = pub_delta + float(dx[x]) + dB2
        ee = max(pub_eps, float(ex[x]), eB2)
        ok_n = nm2 < nm
        ok_d = dt <= delta
        ok_e = ee <= eps_bar + _ATOL
        ok = ok_n and ok_d and ok_e
        if record:
            reason = "accepted" if ok else ("nmil" if not ok_n else ("delta" if not ok_d else "eps_bar"))
            steps.append((pos, int(x), float(dx[x]), float(ex[x]), nm, nm2, dt, ee, nB - 1 if ok else nB, ok, reason))
        if ok:
            col, pb, A, nm, nB = c2, pb2, A2, nm2, nB - 1
            pub_delta += float(dx[x])
            pub_eps = max(pub_eps, float(ex[x]))
            keep[x] = True
            eps_B, dB = eB2, dB2
    if record:
        for x, why in filtered:
            steps.append((-1, x, float(dx[x]), float(ex[x]), math.nan, math.nan, math.nan, math.nan, nB, False, why))
    dtot = pub_delta + dB
    eeff = max(pub_eps, eps_B)
    return keep, nm, dtot, eeff, delta0, nmil0, steps


def _check_delta(delta) -> float:
    try:
        d = float(delta)
    except (TypeError, ValueError):
        raise InputTypeError(f"delta must be a number in [0, 1), got {delta!r}") from None
    if not (0 <= d < 1):
        raise InputError(f"delta must be in [0, 1) (a breach probability), got {delta!r}")
    return d


def _check_eps_bar(eps_bar, eps: float) -> float:
    try:
        eb = float(eps_bar)
    except (TypeError, ValueError):
        raise InputTypeError(f"eps_bar must be a number > eps or math.inf, got {eps_bar!r}") from None
    if math.isnan(eb) or eb <= eps:
        raise InputError(f"eps_bar must be > eps={eps:g} (Algorithm 1's cap on the abs-log-lift; math.inf for no cap), got {eps_bar!r}")
    return eb


def watchdog_eps_delta(jd, eps: float, delta: float, eps_bar: float = math.inf, *, base: float = math.e,
                       tie_break: str = "index", prefilter: bool = True) -> EpsDeltaResult:
    """Algorithm 1 of paper 002: greedy (eps, delta) log-lift partitioning, with its trace.

    Starts from the watchdog bi-partition (X_eps published, X_eps^c merged), sorts the candidates of
    X_eps^c by their breach mass Delta(eps, x) (ascending, ties by index) after filter (14), and peels
    each one off the merged block -- publishes it -- when (i) NMIL(X_Q^c) drops, (ii) Delta_total(eps,
    X_Q) <= delta (eq. (11)) and (iii) eps_eff(X_Q) <= eps_bar. A single pass; a rejected candidate is
    never revisited.

    Parameters
    ----------
    jd : JointDistribution or array_like (|S|, |X|)
    eps : float >= 0
        Threshold, in the unit of ``base``.
    delta : float in [0, 1)
        Allowed breach probability Pr[|i(S, Y)| > eps]; must be >= delta0 (spec E6: delta = 0 gives
        the plain watchdog whenever every Delta(eps, x) > 0).
    eps_bar : float > eps, default inf
        Cap on the abs-log-lift of every release (``inf``: no cap; the paper simulates it with 1000,
        and with inf a symbol holding a zero-probability pair (eps(x) = inf) can be published, E16).
    base : float, default math.e
        **Nats by default** (paper 002); ``eps`` and ``eps_bar`` are in this unit.
    tie_break : {"index", "probability"}
        Order among candidates with equal Delta(eps, x) (the paper leaves it open, E21).
    prefilter : bool
        Apply filter (14) before the loop (it never changes the result, only the speed).

    Returns
    -------
    EpsDeltaResult
        With ``trace`` (tuple of :class:`PeelStep`), ``partition``, ``channel`` (|X|, |X|).

    Raises
    ------
    InputError
        eps < 0, delta outside [0, 1), eps_bar <= eps, or delta < delta0.

    Examples
    --------
    The golden case of the watchdog spec (section 5.2): eps = 1, delta = 0.02, eps_bar = 3 (nats).

    >>> import numpy as np, graphpriv as gp
    >>> P = np.random.default_rng(7).exponential(size=(4, 8)); P /= P.sum()
    >>> r = gp.watchdog_eps_delta(P, 1.0, 0.02, 3.0)
    >>> [(s.code, s.accepted) for s in r.trace if s.position >= 0]
    [(7, True), (4, True)]
    >>> np.flatnonzero(r.published).tolist(), round(r.nmil, 4), round(r.delta_total, 5), round(r.eps_eff, 4)
    ([1, 2, 3, 4, 7], 0.269, 0.01744, 1.7415)

    Notes
    -----
    O(|S| |X| + |X| log |X|): each candidate test updates the merged column by one subtraction.
    """
    jd = _joint(jd)
    e = _check_eps(eps)
    d = _check_delta(delta)
    eb = _check_eps_bar(eps_bar, e)
    b, lnb = _base(base)
    prep = _Prep(jd.P)
    keep, nm, dt, ee, d0, nm0, steps = _greedy_core(prep, e * lnb, d, eb * lnb, prefilter=prefilter, tie_break=tie_break)
    labels = jd.public_labels
    trace = tuple(PeelStep(position=p, x=labels[x], code=x, delta_x=dx, eps_x=ex / lnb, nmil_before=n0, nmil_new=n1,
                           delta_total=t, eps_eff=f / lnb, block_size=bs, accepted=ok, reason=why)
                  for (p, x, dx, ex, n0, n1, t, f, bs, ok, why) in steps)
    HX = prep.HX
    return EpsDeltaResult(eps=e, delta=d, eps_bar=eb, base=b, public_labels=labels, published=keep, delta0=d0,
                          nmil_watchdog=nm0, nmil=nm, delta_total=dt, eps_eff=ee / lnb,
                          mutual_information=(HX - nm * HX) / lnb if HX > 0 else 0.0, trace=trace, tie_break=tie_break)


# ----------------------------------------------------------------------------- exhaustive optimum
@dataclass(frozen=True)
class EpsDeltaOptimum:
    """Exact optimum of paper 002's problem (13): min NMIL(X_Q^c) over (eps, delta)-partitions."""

    nmil: float
    published: np.ndarray
    delta_total: float
    eps_eff: float
    n_feasible: int
    n_subsets: int


def optimal_eps_delta(jd, eps: float, delta: float, eps_bar: float = math.inf, *, base: float = math.e,
                      superset_of_watchdog: bool = False, max_public: int = 18) -> EpsDeltaOptimum:
    """Exhaustive optimum of problem (13) ("Proposition 1") by enumerating all 2^|X| published sets.

    Feasible: Delta_total(eps, X_Q) <= delta and eps_eff(X_Q) <= eps_bar (use ``eps_bar=inf`` for the
    paper's (13), which has no cap, E20); ``superset_of_watchdog=True`` restricts to X_Q containing X_eps
    (the sets Algorithm 1 explores). Used to measure the greedy gap.

    Raises
    ------
    TooLargeError
        |X| > ``max_public``.

    Examples
    --------
    >>> import numpy as np, graphpriv as gp
    >>> P = np.random.default_rng(7).exponential(size=(4, 8)); P /= P.sum()
    >>> opt = gp.optimal_eps_delta(P, 1.0, 0.02, 3.0)          # watchdog spec 5.2: greedy is optimal here
    >>> round(opt.nmil, 4), np.flatnonzero(opt.published).tolist()
    (0.269, [1, 2, 3, 4, 7])

    Notes
    -----
    O(2^|X| |S| |X|) time, chunked to bound memory.
    """
    jd = _joint(jd)
    e = _check_eps(eps)
    d = _check_delta(delta)
    eb = float(eps_bar)
    if math.isnan(eb) or eb < e:
        raise InputError(f"eps_bar must be >= eps, got {eps_bar!r}")
    b, lnb = _base(base)
    n = jd.n_public
    if n > max_public:
        raise TooLargeError(f"optimal_eps_delta enumerates 2^|X| sets; |X|={n} > max_public={max_public}. Use watchdog_eps_delta, or raise max_public")
    prep = _Prep(jd.P)
    e_n, eb_n = e * lnb, eb * lnb
    dx = prep.delta_x(e_n)
    ex = prep.eps_x
    base_keep = ex <= e_n + _ATOL
    best = (math.inf, None, math.nan, math.nan)
    n_feas = 0
    total = 1 << n
    chunk = max(1, min(total, 1 << 14))
    bits = (1 << np.arange(n))
    for start in range(0, total, chunk):
        ids = np.arange(start, min(total, start + chunk))
        keep = (ids[:, None] & bits[None, :]) > 0            # (m, n)
        if superset_of_watchdog:
            ok0 = keep[:, base_keep].all(axis=1)
            keep, ids = keep[ok0], ids[ok0]
            if not len(ids):
                continue
        rnd = ~keep
        C = prep.P @ rnd.T                                     # (|S|, m) merged columns
        pB = C.sum(axis=0)
        with np.errstate(divide="ignore", invalid="ignore"):
            a = np.abs(np.log(C) - prep.lnps[:, None] - np.log(pB)[None, :])
        a[:, pB <= 0] = 0.0
        epsB = a.max(axis=0)
        dB = np.where(a > e_n + _ATOL, C, 0.0).sum(axis=0)
        dt = keep.astype(float) @ dx + dB
        pub_eps = np.where(keep, ex[None, :], 0.0).max(axis=1)
        ee = np.maximum(pub_eps, epsB)
        feas = (dt <= d) & (ee <= eb_n + _ATOL)
        n_feas += int(feas.sum())
        if not feas.any():
            continue
        A = rnd.astype(float) @ prep.px_lnpx
        with np.errstate(divide="ignore", invalid="ignore"):
            nm = np.where(pB > 0, pB * np.log(np.where(pB > 0, pB, 1.0)) - A, 0.0)
        nm = np.maximum(nm, 0.0) / prep.HX if prep.HX > 0 else np.zeros_like(nm)
        nm = np.where(feas, nm, np.inf)
        k = int(np.argmin(nm))
        if nm[k] < best[0] - 1e-15:
            best = (float(nm[k]), keep[k].copy(), float(dt[k]), float(ee[k]))
    if best[1] is None:
        return EpsDeltaOptimum(math.nan, np.zeros(n, bool), math.nan, math.nan, 0, total)
    return EpsDeltaOptimum(nmil=best[0], published=best[1], delta_total=best[2], eps_eff=best[3] / lnb,
                           n_feasible=n_feas, n_subsets=total)


# ----------------------------------------------------------------------------- partitions
@dataclass(frozen=True)
class PartitionMetrics:
    """Privacy/utility of merging each block of a partition of X (watchdog spec section 2, item 3)."""

    eps_eff: float            # max_k eps(B_k)
    delta_total: float        # sum_k Delta(eps, B_k)  (NaN when eps is None)
    mutual_information: float  # I(X; Y) = H(X) - sum_k p(B_k) H(q_k)
    nmil: float               # sum_k NMIL(B_k)
    block_eps: tuple          # eps(B_k) per block, in the order given
    base: float


def _blocks(jd: JointDistribution, blocks) -> list[np.ndarray]:
    n = jd.n_public
    seen = np.zeros(n, dtype=bool)
    out = []
    try:
        it = list(blocks)
    except TypeError:
        raise InputTypeError("blocks must be an iterable of blocks (each an iterable of public labels or codes)") from None
    for blk in it:
        m = _subset_mask(blk, jd.public_labels, "blocks")
        if (m & seen).any():
            raise InputError(f"blocks overlap on {jd.public_labels[m & seen][:5].tolist()}; a partition needs disjoint blocks")
        seen |= m
        if m.any():
            out.append(np.flatnonzero(m))
    out += [np.array([i]) for i in np.flatnonzero(~seen)]   # uncovered symbols are published singletons
    return out


def partition_metrics(jd, blocks, eps: float | None = None, *, base: float = math.e) -> PartitionMetrics:
    """Metrics of the mechanism that merges every block of a partition of X (X-invariantly).

    The generalisation of paper 002's bi-partition formulas (watchdog spec section 2, item 3): with
    one non-singleton block they are eqs. (5), (8), (9), (11). Symbols not in any block are singletons.

    Examples
    --------
    >>> import numpy as np, graphpriv as gp
    >>> P = np.random.default_rng(7).exponential(size=(4, 8)); P /= P.sum()
    >>> m = gp.partition_metrics(P, [[0, 4, 5, 6, 7]], eps=1.0)     # the watchdog bi-partition at eps = 1
    >>> round(m.nmil, 4), round(m.eps_eff, 4), m.delta_total
    (0.5612, 0.7455, 0.0)
    """
    jd = _joint(jd)
    b, lnb = _base(base)
    e = None if eps is None else _check_eps(eps) * lnb
    prep = _Prep(jd.P)
    bl = _blocks(jd, blocks)
    beps, dt, nm = [], 0.0, 0.0
    for blk in bl:
        col = prep.P[:, blk].sum(axis=1)
        eB, dB = prep.block(col, e)
        beps.append(eB / lnb)
        dt += dB
        nm += _nmil_mask(prep, np.isin(np.arange(jd.n_public), blk))
    HX = prep.HX
    return PartitionMetrics(eps_eff=max(beps) if beps else 0.0, delta_total=dt if e is not None else math.nan,
                            mutual_information=(HX - nm * HX) / lnb if HX > 0 else 0.0, nmil=nm,
                            block_eps=tuple(beps), base=b)


def partition_channel(jd, blocks, R=None) -> np.ndarray:
    """X-invariant channel of a partition: W[x, y], shape (|X|, |X|), identity on singletons.

    ``R`` is None/'merge' (each block into its first symbol), 'uniform', or a list with one entry
    per given block ('merge', 'uniform' or a pmf over the block).
    """
    jd = _joint(jd)
    bl = _blocks(jd, blocks)
    if R is None or isinstance(R, str):
        Rs = [R] * len(bl)
    else:
        Rs = list(R) + [None] * (len(bl) - len(list(R)))
    return _xinv_channel(jd.n_public, bl, Rs)


def nmil(jd, subset) -> float:
    """Normalised mutual-information loss NMIL(X_Q) = p(X_Q) H(q) / H(X) of merging X_Q (eq. (9)).

    Equal to H(X|Y)/H(X) for the X-invariant merge of X_Q; base-free. 0 for the empty set and
    singletons; NaN when H(X) = 0.

    Examples
    --------
    >>> import graphpriv as gp
    >>> gp.nmil([[0.25, 0.25], [0.25, 0.25]], ["x1", "x2"])
    1.0
    """
    jd = _joint(jd)
    prep = _Prep(jd.P, keep_matrix=False)
    return _nmil_mask(prep, _subset_mask(subset, jd.public_labels, "subset"))


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


# ----------------------------------------------------------------------------- Monte Carlo (Figs. 1-2)
@dataclass(frozen=True)
class EpsDeltaSetting:
    """One curve of paper 002's Fig. 2: ``eps_bar=None`` means the plain watchdog (delta = 0)."""

    label: str
    eps: float
    delta: float = 0.0
    eps_bar: float | None = None


#: The five settings of paper 002's Fig. 2 (eps_bar = inf is simulated with 1000, as in the paper).
PAPER002_FIG2_SETTINGS = (
    EpsDeltaSetting("ε=1, δ=0", 1.0),
    EpsDeltaSetting("ε=2, δ=0", 2.0),
    EpsDeltaSetting("ε=1, δ=0.005, ε̄=2", 1.0, 0.005, 2.0),
    EpsDeltaSetting("ε=1, δ=0.005, ε̄=∞", 1.0, 0.005, 1000.0),
    EpsDeltaSetting("ε=1, δ=0.01, ε̄=4", 1.0, 0.01, 4.0),
)


@dataclass(frozen=True, repr=False)
class WatchdogMonteCarlo:
    """Results of :func:`watchdog_monte_carlo`.

    ``nmil``: DataFrame, one row per draw, one column per setting label. ``fig1``: DataFrame with
    columns ``blue`` (max_{x in X_eps^c} eps(x), no randomisation), ``yellow`` (eps^c after the
    optimal X-invariant randomisation), ``n_randomized`` and ``delta0``, for ``fig1_eps``.
    ``diagnostics``: per draw and setting, final Delta_total and eps_eff.
    """

    settings: tuple
    nmil: pd.DataFrame
    fig1: pd.DataFrame
    diagnostics: pd.DataFrame
    fig1_eps: float
    shape: tuple
    scheme: str
    seed: object
    base: float

    def medians(self) -> dict:
        return {c: float(self.nmil[c].median()) for c in self.nmil.columns}

    def __repr__(self) -> str:
        return f"WatchdogMonteCarlo(draws={len(self.nmil)}, shape={self.shape}, scheme={self.scheme!r}, settings={len(self.settings)})"


def _mc_batch(seed_seq, n: int, shape, scheme: str, settings, fig1_eps: float, lnb: float):
    rng = np.random.default_rng(seed_seq)
    n_s, n_x = shape
    nm = np.empty((n, len(settings)))
    dt = np.empty((n, len(settings)))
    ee = np.empty((n, len(settings)))
    f1 = np.empty((n, 4))
    for i in range(n):
        P = JointDistribution.random(n_s, n_x, scheme, seed=rng).P
        prep = _Prep(P)
        # Fig. 1
        e2 = fig1_eps * lnb
        rnd = prep.eps_x > e2 + _ATOL
        if rnd.any():
            epsc, d0 = prep.block(prep.P[:, rnd].sum(axis=1), e2)
            f1[i] = (prep.eps_x[rnd].max() / lnb, epsc / lnb, rnd.sum(), d0)
        else:
            f1[i] = (np.nan, np.nan, 0, 0.0)
        for k, st in enumerate(settings):
            e = st.eps * lnb
            if st.eps_bar is None:
                rnd = prep.eps_x > e + _ATOL
                epsc, d0 = prep.block(prep.P[:, rnd].sum(axis=1), e) if rnd.any() else (0.0, 0.0)
                nm[i, k] = _nmil_mask(prep, rnd)
                dt[i, k] = d0
                ee[i, k] = max(float(prep.eps_x[~rnd].max()) if (~rnd).any() else 0.0, epsc) / lnb
            else:
                d0 = prep.block(prep.P[:, prep.eps_x > e + _ATOL].sum(axis=1), e)[1]
                keep, n_, t_, f_, *_ = _greedy_core(prep, e, max(st.delta, d0), st.eps_bar * lnb, record=False)
                nm[i, k], dt[i, k], ee[i, k] = n_, t_, f_ / lnb
    return nm, dt, ee, f1


def watchdog_monte_carlo(n_draws: int = 5000, n_sensitive: int = 15, n_public: int = 20, *,
                         settings=PAPER002_FIG2_SETTINGS, fig1_eps: float = 2.0, scheme: str = "uniform",
                         seed=2021, base: float = math.e, n_jobs: int = 1, backend: str | None = None,
                         batch_size: int = 250, progress: bool | None = False) -> WatchdogMonteCarlo:
    """Monte-Carlo behind paper 002's Figs. 1 and 2, in parallel with joblib.

    Draws ``n_draws`` random joint pmfs (``JointDistribution.random``; the default "uniform" law is the
    one that reproduces the paper, spec section 4.4) and records, per draw, Fig. 1's blue and yellow
    values at ``fig1_eps`` and the NMIL of every setting (plain watchdog or Algorithm 1; delta is raised
    to delta0 if needed).

    Parameters
    ----------
    n_jobs : int
        joblib workers (-1: all cores). Results do not depend on ``n_jobs``: batch b always uses the
        b-th child of ``numpy.random.SeedSequence(seed)``.
    backend : str, optional
        joblib backend (e.g. "loky", "threading", or "dask" inside ``joblib.parallel_config`` with a
        dask client).
    progress : bool or None
        tqdm progress bar over batches (None: only on a terminal).

    Examples
    --------
    >>> import graphpriv as gp
    >>> mc = gp.watchdog_monte_carlo(40, seed=1, batch_size=20)
    >>> mc.nmil.shape, list(mc.fig1.columns)
    ((40, 5), ['blue', 'yellow', 'n_randomized', 'delta0'])
    """
    from joblib import Parallel, delayed

    if not isinstance(n_draws, (int, np.integer)) or n_draws < 1:
        raise InputError(f"n_draws must be a positive integer, got {n_draws!r}")
    if not isinstance(batch_size, (int, np.integer)) or batch_size < 1:
        raise InputError(f"batch_size must be a positive integer, got {batch_size!r}")
    settings = tuple(settings)
    for st in settings:
        if not isinstance(st, EpsDeltaSetting):
            raise InputTypeError("settings must be EpsDeltaSetting objects")
        _check_eps(st.eps)
        _check_delta(st.delta)
        if st.eps_bar is not None:
            _check_eps_bar(st.eps_bar, st.eps)
    _check_eps(fig1_eps, "fig1_eps")
    b, lnb = _base(base)
    JointDistribution.random(n_sensitive, n_public, scheme, seed=0)   # validates sizes and scheme
    sizes = [batch_size] * (n_draws // batch_size) + ([n_draws % batch_size] if n_draws % batch_size else [])
    children = np.random.SeedSequence(seed if not isinstance(seed, np.random.SeedSequence) else seed.entropy).spawn(len(sizes))
    tasks = (delayed(_mc_batch)(c, m, (n_sensitive, n_public), scheme, settings, fig1_eps, lnb) for c, m in zip(children, sizes))
    if progress or progress is None:
        from tqdm.auto import tqdm

        bar = tqdm(total=len(sizes), desc="watchdog Monte-Carlo", unit="batch", disable=None if progress is None else False)
    else:
        bar = None
    par = Parallel(n_jobs=n_jobs, backend=backend, return_as="generator")
    out = []
    for r in par(tasks):
        out.append(r)
        if bar is not None:
            bar.update(1)
    if bar is not None:
        bar.close()
    nm = np.vstack([o[0] for o in out])
    dt = np.vstack([o[1] for o in out])
    ee = np.vstack([o[2] for o in out])
    f1 = np.vstack([o[3] for o in out])
    labels = [s.label for s in settings]
    diag = pd.concat({"delta_total": pd.DataFrame(dt, columns=labels), "eps_eff": pd.DataFrame(ee, columns=labels)}, axis=1)
    fig1 = pd.DataFrame({"blue": f1[:, 0], "yellow": f1[:, 1], "n_randomized": f1[:, 2].astype(int), "delta0": f1[:, 3]})
    return WatchdogMonteCarlo(settings=settings, nmil=pd.DataFrame(nm, columns=labels), fig1=fig1, diagnostics=diag,
                              fig1_eps=float(fig1_eps), shape=(n_sensitive, n_public), scheme=scheme, seed=seed, base=b)
