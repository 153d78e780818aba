"""Merge traces of mechanisms on a joint distribution: one :class:`~graphpriv.MergeTrace` for every merge.

The stochastic merge mechanisms -- the privacy watchdog (Sadeghi, Ding & Rakotoarivelo, *On Properties
and Optimization of Information-theoretic Privacy Watchdog*, eq. (1) and Theorem 1), their (eps, delta)
log-lift partitioning (Algorithm 1) and the mechanisms built on them -- coarsen the public symbols X by
merging them into blocks, exactly as the agglomerative mechanisms of Ding & Farokhi (*Developing
Non-Stochastic Privacy-Preserving Policies Using Agglomerative Clustering*) merge clusters. They are
recorded in the same :class:`~graphpriv.MergeTrace`, so every merge view, the explorer, the JSON export
and ``trace.partition_at`` read them:

* :func:`distribution_trace` builds the trace from a :class:`~graphpriv.JointDistribution` and a
  sequence of :class:`DistributionStep` (what was merged, the privacy and utility scalars of the
  partition after the step, and the mechanism's own criterion by name);
* the watchdog's and Algorithm 1's traces (``gp.watchdog(...).trace``,
  ``gp.watchdog_eps_delta(...).trace``) are built with it.

A distribution-backed trace stores no copy of the pmf: the views take the distribution (or the joint
range of its support) as their data argument.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from typing import Any, Iterable, Mapping

import numpy as np
import scipy.sparse as sp

from ...errors import InputError, InputTypeError
from ...graphs.support import support_components
from ...measures.stochastic import _joint
from ..trace import STOCHASTIC_OBJECTIVES, MergeTrace, _UnionFind

__all__ = ["DistributionStep", "distribution_trace", "distribution_components", "watchdog_trace", "eps_delta_trace"]


@dataclass(frozen=True)
class DistributionStep:
    """One step t of a merge mechanism on a joint distribution, as :func:`distribution_trace` reads it.

    Attributes
    ----------
    merged : tuple of (int, int)
        The pairs of public *codes* (positions in the distribution's public labels) whose clusters this
        step merges, in merge order; any member code of each cluster will do. Empty for the initial
        state t = 0 and for a step that decides without merging (e.g. a symbol published as is).
    privacy, utility : float
        The privacy and utility scalars of the partition *after* the step, in the trace's unit (``base``).
    criterion : dict
        The mechanism's own criterion at this step, by name: numbers, strings or booleans. A
        ``"decision"`` entry, when present, is a one-line sentence that views show as "why this step".
    """

    merged: tuple = ()
    privacy: float = math.nan
    utility: float = math.nan
    criterion: dict = field(default_factory=dict)


def _as_step(s, t: int) -> DistributionStep:
    if isinstance(s, DistributionStep):
        return s
    if isinstance(s, Mapping):
        unknown = set(s) - {"merged", "privacy", "utility", "criterion"}
        if unknown:
            raise InputError(f"step {t} has unknown entries {sorted(unknown)}; a step holds merged, privacy, utility, criterion")
        return DistributionStep(**s)
    if isinstance(s, (tuple, list)) and len(s) == 4:
        return DistributionStep(*s)
    raise InputTypeError(f"step {t} must be a DistributionStep, a dict or a (merged, privacy, utility, criterion) tuple, "
                         f"got {type(s).__name__}")


def _pairs(merged, t: int, n: int) -> list[tuple[int, int]]:
    if isinstance(merged, (str, bytes)) or not isinstance(merged, Iterable):
        raise InputTypeError(f"step {t}: merged must be a sequence of (code, code) pairs, got {merged!r}")
    out = []
    for p in merged:
        try:
            a, b = p
        except (TypeError, ValueError):
            raise InputTypeError(f"step {t}: every merged entry must be a pair of public codes, got {p!r}") from None
        for c in (a, b):
            if isinstance(c, (bool, np.bool_)) or not isinstance(c, (int, np.integer)) or not 0 <= int(c) < n:
                raise InputError(f"step {t}: {c!r} is not a public code (an integer in 0..{n - 1})")
        out.append((int(a), int(b)))
    return out


def distribution_components(jd) -> np.ndarray:
    """Component id of every public symbol in the support graph of ``jd`` (P(0) of its merge traces).

    The support {(s, x): p(s, x) > 0} as a bipartite graph (Ding & Farokhi, Lemma 2); a symbol of zero
    probability is a component of its own. Ids are numbered by the smallest public code in the component.
    """
    jd = _joint(jd)
    P = jd.P[jd.p_s > 0]
    comp = support_components(sp.csr_array(P > 0)).public
    # renumber densely by first public occurrence (a zero-mass symbol has no pair but keeps its own id)
    _, first = np.unique(comp, return_index=True)
    order = np.argsort(first, kind="stable")
    remap = np.empty(int(comp.max()) + 1 if len(comp) else 0, dtype=np.int64)
    remap[np.unique(comp)[order]] = np.arange(len(order))
    return remap[comp]


def distribution_trace(jd, steps, *, objective: str, privacy_measure: str, utility_measure: str, criterion: str,
                       base: float = math.e, lam: float = math.nan, returned: int | None = None,
                       info: Mapping[str, Any] | None = None) -> MergeTrace:
    """A :class:`~graphpriv.MergeTrace` of a merge mechanism on a joint distribution.

    The trace starts from every public symbol alone (t = 0) and replays the given merges; P(0) is the
    component partition of the support graph of ``jd`` (Ding & Farokhi, *Developing Non-Stochastic
    Privacy-Preserving Policies Using Agglomerative Clustering*, Lemma 2) and |Q(t)|, |P(t)| are
    replayed. The privacy and utility scalars and each step's criterion are the mechanism's, stored as
    given (the privacy watchdog of Sadeghi, Ding & Rakotoarivelo records the merged symbol's max
    |log-lift| against eps; their Algorithm 1 the delta spent and left and NMIL).

    Parameters
    ----------
    jd : JointDistribution or array_like (|S|, |X|)
        The distribution the mechanism ran on; public codes are positions in ``jd.public_labels``.
    steps : sequence of DistributionStep (or dicts / 4-tuples with the same fields)
        Every step including t = 0, whose ``merged`` must be empty.
    objective : str
        The mechanism, one of :data:`graphpriv.mechanisms.trace.STOCHASTIC_OBJECTIVES`.
    privacy_measure, utility_measure : str
        Names of the scalars (e.g. "max |log-lift|", "I(X;Y)"); stored in ``info`` and
        ``utility_measure`` as the trace's ``utility``.
    criterion : str
        The key of the criterion dict that decided each step (``info["criterion"]``); every step t >= 1
        must record it.
    base : float, default e
        Logarithm base of the scalars.
    lam : float, optional
        Lagrange multiplier when the mechanism has one: then L(t) = privacy - lam * utility and ΔL are
        recorded, otherwise they are NaN.
    returned : int, optional
        The step whose partition the mechanism releases (default the last).
    info : mapping, optional
        More JSON-serialisable settings (eps, delta, ...). Views read ``"criterion_label"`` (a readable
        name of the criterion), ``"unit"`` and, for :meth:`MergeTrace.partition_at` with ``eps=``,
        ``"threshold_criterion"``, ``"threshold"`` and ``"threshold_atol"`` (a trace whose step t merges
        exactly the symbols whose criterion exceeds a threshold).

    Returns
    -------
    MergeTrace

    Raises
    ------
    InputError
        An unknown objective, a merge of codes already in one cluster, a code out of range, a step
        without the criterion, or merges at t = 0.

    Examples
    --------
    >>> import graphpriv as gp
    >>> from graphpriv.mechanisms.stochastic.traces import DistributionStep, distribution_trace
    >>> jd = gp.JointDistribution([[0.3, 0.1, 0.1], [0.1, 0.1, 0.3]])
    >>> steps = [DistributionStep((), 1.0, 1.5, {}),
    ...          DistributionStep(((0, 2),), 0.2, 0.9, {"gain": 0.8, "decision": "x1 and x3 merged"})]
    >>> tr = distribution_trace(jd, steps, objective="watchdog", privacy_measure="max |log-lift|",
    ...                         utility_measure="I(X;Y)", criterion="gain")
    >>> [sorted(c) for c in tr.quantization()], tr.criterion().tolist()
    ([['x1', 'x3'], ['x2']], [nan, 0.8])

    Notes
    -----
    O(|S| |X|) for the support components, then O(number of merges) with a union-find.
    """
    jd = _joint(jd)
    if objective not in STOCHASTIC_OBJECTIVES:
        raise InputError(f"objective {objective!r} is not a stochastic merge mechanism; use one of {list(STOCHASTIC_OBJECTIVES)}")
    for name, v in (("privacy_measure", privacy_measure), ("utility_measure", utility_measure), ("criterion", criterion)):
        if not isinstance(v, str) or not v.strip():
            raise InputTypeError(f"{name} must be a non-empty string, got {v!r}")
    steps = [_as_step(s, t) for t, s in enumerate(steps)]
    if not steps:
        raise InputError("steps is empty; give at least the initial state t = 0")
    n = jd.n_public
    comp0 = distribution_components(jd)
    uf, cuf = _UnionFind(n), _UnionFind(int(comp0.max()) + 1 if n else 0)
    n_cl, n_co = n, int(comp0.max()) + 1 if n else 0
    merges, priv, util, ncl, nco, crits = [], [], [], [], [], []
    for t, s in enumerate(steps):
        pairs = _pairs(s.merged, t, n)
        if t == 0 and pairs:
            raise InputError("step 0 is the initial state (every symbol alone) and cannot merge")
        if not isinstance(s.criterion, Mapping):
            raise InputTypeError(f"step {t}: criterion must be a dict, got {type(s.criterion).__name__}")
        if t > 0 and criterion not in s.criterion:
            raise InputError(f"step {t} does not record the criterion {criterion!r}; it records {sorted(s.criterion)}")
        norm = []
        for a, b in pairs:
            ra, rb = uf.find(a), uf.find(b)
            if ra == rb:
                raise InputError(f"step {t} merges {jd.public_labels[a]!r} and {jd.public_labels[b]!r}, which are already in one cluster")
            norm.append((min(ra, rb), max(ra, rb)))     # cluster indices: smallest member codes
            uf.union(ra, rb)
            n_cl -= 1
            ca, cb = cuf.find(int(comp0[a])), cuf.find(int(comp0[b]))
            if ca != cb:
                cuf.union(ca, cb)
                n_co -= 1
        merges.append(tuple(norm))
        priv.append(float(s.privacy))
        util.append(float(s.utility))
        ncl.append(n_cl)
        nco.append(n_co)
        crits.append(dict(s.criterion))
    lam = float(lam)
    L = [p - lam * u for p, u in zip(priv, util)] if lam == lam else [math.nan] * len(steps)
    dL = [math.nan] + [b - a for a, b in zip(L[:-1], L[1:])]
    ret = len(steps) - 1 if returned is None else int(returned)
    meta = {"criterion": criterion, "privacy_measure": privacy_measure, "utility_measure": utility_measure,
            **dict(info or {})}
    return MergeTrace(objective=objective, utility=utility_measure, lam=lam,
                      public_labels=tuple(jd.public_labels.tolist()), components0=tuple(comp0.tolist()),
                      step_merges=tuple(merges), step_privacy=tuple(priv), step_utility=tuple(util), step_L=tuple(L),
                      step_delta_L=tuple(dL), step_n_clusters=tuple(ncl), step_n_components=tuple(nco),
                      step_accepted=(True,) * len(steps), returned=ret, base=float(base), info=meta,
                      step_criteria=tuple(crits))


# ----------------------------------------------------------------------------- one growing block
class _BlockGrowth:
    """Measures of the partition {B} + singletons while symbols join one block B, in nats.

    Paper 002's formulas applied to the current partition: eps_eff = max(max eps(x) over x outside B,
    eps(B)) (eq. (5)), Delta_total = sum of Delta(eps, x) outside B + Delta(eps, B) (eq. (11)),
    I(X; Y) = H(X) - p(B) H(q) (eq. (8)) and NMIL(B) (eq. (9)). Each join costs O(|S|).
    """

    def __init__(self, prep, eps_n: float):
        self.prep = prep
        self.eps_n = eps_n
        self.dx = prep.delta_x(eps_n)
        self.in_block = np.zeros(len(prep.eps_x), dtype=bool)
        self.col = np.zeros(prep.P.shape[0])
        self.pb = 0.0
        self.A = 0.0
        self.out_delta = float(self.dx.sum())
        self._desc = np.argsort(-prep.eps_x, kind="stable")
        self._ptr = 0
        self.eps_B, self.delta_B = 0.0, 0.0

    def add(self, x: int) -> None:
        p = self.prep
        self.in_block[x] = True
        self.col += p.PT[x]
        self.pb += float(p.px[x])
        self.A += float(p.px_lnpx[x])
        self.out_delta -= float(self.dx[x])
        self.eps_B, self.delta_B = p.block(self.col, self.eps_n)

    def max_out(self) -> float:
        while self._ptr < len(self._desc) and self.in_block[self._desc[self._ptr]]:
            self._ptr += 1
        return float(self.prep.eps_x[self._desc[self._ptr]]) if self._ptr < len(self._desc) else 0.0

    @property
    def eps_eff(self) -> float:
        return max(self.max_out(), self.eps_B)

    @property
    def delta_total(self) -> float:
        return max(self.out_delta, 0.0) + self.delta_B

    @property
    def loss(self) -> float:
        return max(self.pb * math.log(self.pb) - self.A, 0.0) if self.pb > 0 else 0.0

    @property
    def mutual_information(self) -> float:
        return max(self.prep.HX - self.loss, 0.0)

    @property
    def nmil(self) -> float:
        return self.loss / self.prep.HX if self.prep.HX > 0 else (0.0 if self.pb <= 0 else math.nan)


def _label_value(x):
    """A public label as a criterion value (str, int or float as they are; anything else as text)."""
    if isinstance(x, np.generic):
        x = x.item()
    if isinstance(x, (str, int, float)) and not isinstance(x, bool):
        return x
    return str(x)


def _g(v: float) -> str:
    v = float(v)
    if v != v:
        return "n/a"
    if math.isinf(v):
        return "∞" if v > 0 else "−∞"
    return "0" if abs(v) < 1e-12 else f"{v:.3g}"        # rounding noise of a log of 1 reads 0


def watchdog_trace(jd, eps: float, *, base: float = math.e) -> MergeTrace:
    """The privacy watchdog as a merge trace: the high-risk symbols X_eps^c merged into one block.

    Sadeghi, Ding & Rakotoarivelo, *On Properties and Optimization of Information-theoretic Privacy
    Watchdog*, eq. (1) and Theorem 1: the watchdog publishes X_eps = {x : eps(x) <= eps} and merges X_eps^c.
    t = 0 publishes every symbol; step k adds the k-th most risky symbol (largest eps(x) = max_s |i(s, x)|,
    ties by code) to the protected block -- step 1 opens it (no merge yet), later steps merge into it. The
    privacy scalar is eps_eff of the partition so far (max |log-lift| over the published symbols and the
    block), the utility I(X; Y) of its channel (eq. (8)). Each step's criterion records ``symbol``,
    ``code``, ``symbol_max_abs_log_lift`` (the main key, ``info["criterion"]``), ``eps``,
    ``block_max_abs_log_lift`` (the block's eps^c so far), ``eps_eff``, ``breach_probability``
    (Delta_total), ``nmil``, ``mutual_information``, ``block_size`` and a ``decision`` sentence. Log
    values in the unit of ``base``.

    The watchdog at a larger threshold eps' merges a prefix of these symbols, so
    ``trace.partition_at(eps=eps')`` gives its partition for every eps' >= eps.

    Parameters
    ----------
    jd : JointDistribution or array_like (|S|, |X|)
    eps : float >= 0
        Threshold, in the unit of ``base``.
    base : float, default e

    Returns
    -------
    MergeTrace
        Objective "watchdog"; its last step is the released partition (X_eps^c as one block).

    Examples
    --------
    >>> import numpy as np, graphpriv as gp
    >>> P = np.random.default_rng(7).exponential(size=(4, 8)); P /= P.sum()
    >>> tr = gp.watchdog(gp.JointDistribution(P), 1.0).trace
    >>> [c["symbol"] for c in tr.step_criteria[1:]]                    # most risky first
    ['x7', 'x6', 'x5', 'x8', 'x1']
    >>> round(tr.step_privacy[-1], 4), round(tr.step_criteria[-1]["block_max_abs_log_lift"], 4)   # eps_eff, eps^c
    (0.7455, 0.1159)
    >>> sorted(max(tr.partition_at(eps=2.0), key=len))               # the watchdog at eps = 2 merges x6, x7
    ['x6', 'x7']
    """
    from ...measures.stochastic import LOG_LIFT_ATOL, _check_eps
    from ..._validation import check_real
    from .log_lift_sets import _Prep, _base

    jd = _joint(jd)
    e = _check_eps(check_real(eps, "eps"))
    b, lnb = _base(base)
    prep = _Prep(jd.P)
    e_n = e * lnb
    ex = prep.eps_x
    order = np.flatnonzero(ex > e_n + LOG_LIFT_ATOL)
    order = order[np.lexsort((order, -ex[order]))]
    g = _BlockGrowth(prep, e_n)
    labels = jd.public_labels
    HX = prep.HX

    def state(k: int) -> dict:
        return {"eps": e, "eps_eff": g.eps_eff / lnb, "block_max_abs_log_lift": g.eps_B / lnb if k else 0.0,
                "block_size": k, "breach_probability": g.delta_total, "nmil": g.nmil,
                "mutual_information": g.mutual_information / lnb}

    c0 = state(0)
    c0["decision"] = (f"every symbol published as is (max |log-lift| {_g(c0['eps_eff'])}); "
                      f"{len(order)} of {len(labels)} exceed ε = {e:g}")
    steps = [DistributionStep((), c0["eps_eff"], c0["mutual_information"], c0)]
    for k, x in enumerate(order.tolist(), start=1):
        g.add(x)
        c = state(k)
        lab = _label_value(labels[x])
        c.update({"symbol": lab, "code": x, "symbol_max_abs_log_lift": float(ex[x]) / lnb})
        what = "opens the protected block" if k == 1 else "merged into the protected block"
        c["decision"] = (f"{lab}: max |log-lift| {_g(ex[x] / lnb)} > ε = {e:g}: {what} (block of {k}, its max "
                         f"|log-lift| {_g(c['block_max_abs_log_lift'])}; ε_eff {_g(c['eps_eff'])})")
        steps.append(DistributionStep(() if k == 1 else ((int(order[0]), x),), c["eps_eff"], c["mutual_information"], c))
    unit = "nats" if abs(b - math.e) < 1e-12 else ("bits" if b == 2 else f"log base {b:g}")
    return distribution_trace(
        jd, steps, objective="watchdog", privacy_measure="max |log-lift|", utility_measure="I(X;Y)",
        criterion="symbol_max_abs_log_lift", base=b,
        info={"algorithm": "privacy watchdog (Theorem 1)", "eps": e, "unit": unit,
              "criterion_label": f"symbol's ε(x) ({unit})",
              "threshold_criterion": "symbol_max_abs_log_lift", "threshold": e, "threshold_atol": LOG_LIFT_ATOL / lnb})


def eps_delta_trace(jd, result) -> MergeTrace:
    """Algorithm 1 ((eps, delta) log-lift partitioning) of Sadeghi, Ding & Rakotoarivelo as a merge trace.

    Algorithm 1 starts from the watchdog's block X_eps^c and peels candidates off it (publishes them)
    while NMIL drops, Delta_total <= delta and eps_eff <= eps_bar. As a merge sequence: t = 0 publishes every
    symbol; then one step per symbol of X_eps^c in the order Algorithm 1 decides on it (the symbols that
    filter (14) keeps in the block first, then the candidates in test order): a symbol that stays in the
    block is merged into it (the first opens it), a peeled symbol is published as is (a step without a
    merge). The last step is the released partition. The privacy scalar is Delta_total(eps) of the
    partition so far (eq. (11)), the utility I(X; Y) (eq. (8)).

    Each step's criterion holds ``symbol``, ``code``, ``position`` (in Algorithm 1's sorted list; -1 for
    filter (14)), ``symbol_max_abs_log_lift``, ``breach_mass`` (Delta(eps, x)), ``eps``, ``delta``,
    ``eps_bar``, ``published`` (Algorithm 1 accepted the peel) and ``reason``; and Algorithm 1's own state after its decision
    -- whose block still holds the candidates not yet tested -- ``delta_spent`` (Delta_total, the main
    key), ``delta_left`` = delta - delta_spent, ``nmil_before``, ``nmil_after``, ``nmil_if_published``,
    ``eps_eff_if_published``; ``block_size`` and a ``decision`` sentence.

    Parameters
    ----------
    jd : JointDistribution
        The distribution Algorithm 1 ran on.
    result : EpsDeltaResult
        Its result (:func:`graphpriv.watchdog_eps_delta`).

    Returns
    -------
    MergeTrace
        Objective "eps-delta".
    """
    from .log_lift_sets import _Prep, _base

    jd = _joint(jd)
    b, lnb = _base(result.base)
    prep = _Prep(jd.P)
    e, d, eb = result.eps, result.delta, result.eps_bar
    g = _BlockGrowth(prep, e * lnb)
    labels = jd.public_labels
    records = [s for s in result.peel_steps if s.position < 0] + [s for s in result.peel_steps if s.position >= 0]
    spent, nm = float(result.delta0), float(result.nmil_watchdog)
    c0 = {"eps": e, "delta": d, "eps_bar": eb, "delta_spent": spent, "delta_left": d - spent, "block_size": 0,
          "decision": (f"every symbol published as is; Algorithm 1 starts from the watchdog's block of {len(records)} "
                       f"symbols with δ spent {_g(spent)} of {d:g}")}
    steps = [DistributionStep((), g.delta_total, g.mutual_information / lnb, c0)]
    first = None
    k = 0
    for r in records:
        x = int(r.code)
        lab = _label_value(labels[x])
        before = nm
        if r.accepted:
            spent, nm = float(r.delta_total), float(r.nmil_new)
        c = {"symbol": lab, "code": x, "position": int(r.position), "symbol_max_abs_log_lift": float(r.eps_x),
             "breach_mass": float(r.delta_x), "eps": e, "delta": d, "eps_bar": eb, "published": bool(r.accepted),
             "reason": r.reason, "delta_spent": spent, "delta_left": d - spent, "nmil_before": before, "nmil_after": nm,
             "nmil_if_published": float(r.nmil_new), "delta_total_if_published": float(r.delta_total),
             "eps_eff_if_published": float(r.eps_eff)}
        head = f"{lab}: max |log-lift| {_g(r.eps_x)}" + ("" if r.reason == "filter14:eps_bar" else f" > ε = {e:g}")
        budget = f"δ spent {_g(spent)} of {d:g}"
        if r.accepted:
            merged = ()
            c["decision"] = (f"{head}, but publishing it lowers NMIL {_g(before)} → {_g(r.nmil_new)} within δ and ε̄: "
                             f"published as is (peeled off the block); {budget}")
        else:
            g.add(x)
            k += 1
            merged = () if first is None else ((first, x),)
            first = x if first is None else first
            where = "opens the protected block" if k == 1 else "merged into the protected block"
            why = {"nmil": f"publishing it would not lower NMIL ({_g(before)} → {_g(r.nmil_new)})",
                   "delta": f"publishing it would spend δ {_g(r.delta_total)} > {d:g}",
                   "eps_bar": f"publishing it would raise ε_eff to {_g(r.eps_eff)} > ε̄ = {eb:g}",
                   "filter14:delta": f"its breach mass Δ(ε, x) = {_g(r.delta_x)} > δ = {d:g} (filter (14))",
                   "filter14:eps_bar": f"> ε̄ = {eb:g} (filter (14))"}.get(r.reason, r.reason)
            c["decision"] = f"{head}{' ' if r.reason == 'filter14:eps_bar' else '; '}{why}: {where}; {budget}"
        c["block_size"] = k
        steps.append(DistributionStep(merged, g.delta_total, g.mutual_information / lnb, c))
    unit = "nats" if abs(b - math.e) < 1e-12 else ("bits" if b == 2 else f"log base {b:g}")
    return distribution_trace(
        jd, steps, objective="eps-delta", privacy_measure="Δ_total(ε)", utility_measure="I(X;Y)",
        criterion="delta_spent", base=b,
        info={"algorithm": "(ε, δ) log-lift partitioning (Algorithm 1)", "eps": e, "delta": d,
              "criterion_label": "δ spent (Algorithm 1)",
              "eps_bar": eb if math.isfinite(eb) else "inf", "unit": unit, "tie_break": result.tie_break})
