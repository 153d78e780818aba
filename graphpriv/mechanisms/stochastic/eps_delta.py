"""(eps, delta) log-lift partitioning: greedy Algorithm 1 and the exhaustive optimum of problem (13).

Sadeghi, Ding & Rakotoarivelo, *On Properties and Optimization of Information-theoretic Privacy
Watchdog*, Algorithm 1 and problem (13). Starting from the watchdog bi-partition, Algorithm 1 *peels*
single symbols off the merged block while the breach probability Delta_total (eq. (11)) stays <=
delta, the effective abs-log-lift stays <= eps_bar and the normalised mutual-information loss NMIL
(eq. (9)) drops. Every candidate's test is a :class:`PeelStep` record (``result.peel_steps``, which
:func:`graphpriv.viz.plot_eps_delta_trace` draws); the run as a merge sequence is ``result.trace``, a
:class:`~graphpriv.MergeTrace` that every merge view and the explorer read. :func:`optimal_eps_delta` enumerates every
published set to measure the greedy gap.

Conventions: delta0 = Delta_total(eps, X_eps); delta = 0 is accepted and any delta >= delta0; NMIL is
strictly monotone only for non-empty sets; ``eps_bar=inf`` means no cap (the paper simulates it with
1000); the eps_bar guarantee needs one accepted move or eps^c <= eps_bar; the sort of Algorithm 1
breaks ties by index.
"""

from __future__ import annotations

import json
import math
from dataclasses import asdict, dataclass, field
from functools import cached_property

import numpy as np
import pandas as pd

from ...errors import InputError, InputTypeError, TooLargeError
from ..._validation import check_real
from ...measures.stochastic import LOG_LIFT_ATOL as _ATOL, _check_eps, _joint
from .log_lift_sets import _Prep, _base, _codes_of, _jsonable, _sample, _xinv_channel
from ...citations import record_use

__all__ = ["PeelStep", "EpsDeltaResult", "watchdog_eps_delta", "EpsDeltaOptimum", "optimal_eps_delta"]


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
    """Output of :func:`watchdog_eps_delta` (Algorithm 1): the (eps, delta)-partition and its trace.

    ``peel_steps`` holds one :class:`PeelStep` per candidate (tested candidates in test order, then
    those filter (14) removed); ``trace`` is the run as a :class:`~graphpriv.MergeTrace` (objective
    "eps-delta", built on first access; see
    :func:`graphpriv.mechanisms.stochastic.traces.eps_delta_trace`).
    """

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
    peel_steps: tuple = field(default=())
    tie_break: str = "index"
    _jd: object = field(default=None, repr=False, compare=False)

    @cached_property
    def trace(self):
        """Algorithm 1 as a :class:`~graphpriv.MergeTrace` (objective "eps-delta"), built on first access.

        The candidates' records are :attr:`peel_steps`."""
        from .traces import eps_delta_trace

        if self._jd is None:
            raise InputError("this EpsDeltaResult was built without its distribution; run gp.watchdog_eps_delta(jd, ...) for its trace")
        return eps_delta_trace(self._jd, self)

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
        return sum(1 for s in self.peel_steps if s.accepted)

    @property
    def partition(self) -> tuple[tuple, ...]:
        blocks = [tuple(self.X_Q_c.tolist())] if (~self.published).any() else []
        return tuple(blocks + [(x,) for x in self.X_Q.tolist()])

    def partitions(self) -> list[tuple[tuple, ...]]:
        """The partition after each accepted peel: the merge sequence as data (first = plain watchdog)."""
        rnd = ~self.published.copy()
        for s in self.peel_steps:
            if s.accepted:
                rnd[s.code] = True
        seq = []
        labels = self.public_labels

        def part(r):
            blocks = [tuple(labels[r].tolist())] if r.any() else []
            return tuple(blocks + [(x,) for x in labels[~r].tolist()])

        seq.append(part(rnd))
        for s in self.peel_steps:
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
        """The candidates' records (:attr:`peel_steps`), one row per candidate (in test order; filtered symbols last)."""
        cols = [f.name for f in PeelStep.__dataclass_fields__.values()]
        return pd.DataFrame([asdict(s) for s in self.peel_steps], columns=cols)

    def report(self) -> dict:
        return {
            "eps": self.eps, "delta": self.delta, "eps_bar": self.eps_bar, "base": self.base, "delta0": self.delta0,
            "NMIL_watchdog": self.nmil_watchdog, "NMIL": self.nmil, "Delta_total": self.delta_total,
            "eps_eff": self.eps_eff, "I_XY": self.mutual_information, "n_published": int(self.published.sum()),
            "n_randomized": int((~self.published).sum()), "n_accepted": self.n_accepted,
            "X_Q_c": [_jsonable(v) for v in self.X_Q_c.tolist()],
        }

    def to_json(self) -> str:
        """Report and the candidates' records (:attr:`peel_steps`, under "trace") as a JSON string (``inf``
        written as ``Infinity``); the merge trace is ``self.trace.to_json()``."""
        trace = [{k: _jsonable(v) for k, v in asdict(s).items()} for s in self.peel_steps]
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
        d = check_real(delta, "delta")
    except (TypeError, ValueError):
        raise InputTypeError(f"delta must be a number in [0, 1), got {delta!r}") from None
    if not (0 <= d < 1):
        raise InputError(f"delta must be in [0, 1) (a breach probability), got {delta!r}")
    return d


def _check_eps_bar(eps_bar, eps: float) -> float:
    try:
        eb = check_real(eps_bar, "eps_bar")
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
        Allowed breach probability Pr[|i(S, Y)| > eps]; must be >= delta0 (the paper asks
        delta > delta0 but uses delta = 0 in Fig. 2; delta = 0 gives the plain watchdog whenever every
        Delta(eps, x) > 0).
    eps_bar : float > eps, default inf
        Cap on the abs-log-lift of every release (``inf``: no cap; the paper simulates it with 1000,
        and with inf a symbol holding a zero-probability pair (eps(x) = inf) can be published).
    base : float, default math.e
        **Nats by default** (paper 002); ``eps`` and ``eps_bar`` are in this unit.
    tie_break : {"index", "probability"}
        Order among candidates with equal Delta(eps, x) (Algorithm 1's sort leaves it open).
    prefilter : bool
        Apply filter (14) before the loop (it never changes the result, only the speed).

    Returns
    -------
    EpsDeltaResult
        With ``trace`` (the run as a :class:`~graphpriv.MergeTrace`), ``peel_steps`` (tuple of
        :class:`PeelStep`), ``partition``, ``channel`` (|X|, |X|).

    Raises
    ------
    InputError
        eps < 0, delta outside [0, 1), eps_bar <= eps, or delta < delta0.

    Examples
    --------
    A 4 x 8 example (exponential entries, ``default_rng(7)``): eps = 1, delta = 0.02, eps_bar = 3 (nats).

    >>> import numpy as np, graphpriv as gp
    >>> P = np.random.default_rng(7).exponential(size=(4, 8)); P /= P.sum()
    >>> r = gp.watchdog_eps_delta(P, 1.0, 0.02, 3.0)
    >>> [(s.code, s.accepted) for s in r.peel_steps if s.position >= 0]
    [(7, True), (4, True)]
    >>> np.flatnonzero(r.published).tolist(), round(r.nmil, 4), round(r.delta_total, 5), round(r.eps_eff, 4)
    ([1, 2, 3, 4, 7], 0.269, 0.01744, 1.7415)

    Notes
    -----
    O(|S| |X| + |X| log |X|): each candidate test updates the merged column by one subtraction.
    """
    record_use("watchdog")  # for gp.cite()
    jd = _joint(jd)
    e = _check_eps(check_real(eps, "eps"))
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
                          mutual_information=(HX - nm * HX) / lnb if HX > 0 else 0.0, peel_steps=trace, tie_break=tie_break,
                          _jd=jd)


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
    paper's (13), which has no cap); ``superset_of_watchdog=True`` restricts to X_Q containing X_eps
    (the sets Algorithm 1 explores). Used to measure the greedy gap.

    Raises
    ------
    TooLargeError
        |X| > ``max_public``.

    Examples
    --------
    >>> import numpy as np, graphpriv as gp
    >>> P = np.random.default_rng(7).exponential(size=(4, 8)); P /= P.sum()
    >>> opt = gp.optimal_eps_delta(P, 1.0, 0.02, 3.0)          # Algorithm 1's greedy is optimal here
    >>> round(opt.nmil, 4), np.flatnonzero(opt.published).tolist()
    (0.269, [1, 2, 3, 4, 7])

    Notes
    -----
    O(2^|X| |S| |X|) time, chunked to bound memory.
    """
    record_use("watchdog")  # for gp.cite()
    jd = _joint(jd)
    e = _check_eps(check_real(eps, "eps"))
    d = _check_delta(delta)
    eb = check_real(eps_bar, "eps_bar")
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
