"""Privacy-utility Pareto frontiers of paper 003's mechanisms (Section VII, Figs. 7 and 9).

For Algorithms 1 and 2 the merge *order* never depends on λ -- only the stopping test ΔL >= 0 does --
so :func:`pareto_frontier` runs ONE full trajectory (until one cluster, resp. one component) and reads
off, for every λ >= 0, which Q(t) the algorithm would return. Each point carries the λ range that
selects it. For Section V-C (``"L0|I*=0"``, problem (10), eqs. (11)-(12)) the merge order depends on λ:
by default every λ >= 0 is covered by one tree of trajectories split only at the λ where eq. (12)'s
winning pair changes (:func:`section_vc_tree`, exact breakpoints, common prefixes merged once); with
``lams=`` the mechanism is run once per λ of that grid.

Normalisations (Figs. 7 and 9 of paper 003): normalised privacy = privacy(X̂) / privacy(X) (L0 or I*
of the unquantised X); utility loss = 1 - U1(X; X̂) / U1(X; X) for U1 and U2(X; X̂) / Û2 for U2, with
Û2 = U2 of the one-cluster quantisation (the largest distortion, so that the loss lies in [0, 1] for
every quantisation whose distortion does not exceed it).
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from typing import Any, Sequence

import numpy as np
import pandas as pd

from ...errors import InputError, InputTypeError
from ...ranges import JointRange
from .mechanism import _evaluate_groups
from .trajectory import _trajectory
from .problem import _DL_TOL, _check_tie_rule, _Problem
from .result import _build_trace, _result_from_trace
from .vc_tree import VCTree, problem10_tree
from ..trace import MergeTrace, _groups
from ...citations import record_use

__all__ = ["FrontierPoint", "Frontier", "pareto_frontier", "pareto_filter", "trace_frontier", "section_vc_tree", "VCTree"]


class FrontierPoint:
    """One non-dominated (privacy, utility) point (immutable).

    Attributes
    ----------
    privacy, utility : float
    quantization : list of frozenset
        The quantisation achieving the point (built on first access for greedy frontiers).
    lam_min, lam_max : float
        The λ range selecting this point (``lam_max`` may be inf; NaN when no λ selects it, e.g. an
        unsupported point of the exact frontier).
    t : int or None
        Step of the trajectory the point comes from (greedy frontiers).
    status : {"optimal", "feasible"}
        "optimal": proven to have the largest utility of all quantisations with at most this privacy
        (exhaustive enumeration, or a solver's infeasibility proof); "feasible": a quantisation that
        achieves the point, with no such proof (greedy and beam frontiers, or a solve stopped by its
        time limit).
    bound : float
        Proven upper bound on the utility of any quantisation with at most this privacy (equal to
        ``utility`` when optimal; NaN when nothing is proven, e.g. greedy frontiers).
    """

    __slots__ = ("_privacy", "_utility", "_q", "_lam_min", "_lam_max", "_t", "_ids", "_labels", "_status", "_bound")

    def __init__(self, privacy: float, utility: float, quantization=None, lam_min: float = float("nan"),
                 lam_max: float = float("nan"), t: int | None = None, *, ids=None, labels=None,
                 status: str = "feasible", bound: float = float("nan")):
        if quantization is None and (ids is None or labels is None):
            raise InputError("FrontierPoint needs a quantization (or cluster ids and labels)")
        if status not in ("optimal", "feasible"):
            raise InputError(f"FrontierPoint status must be 'optimal' or 'feasible', got {status!r}")
        object.__setattr__(self, "_privacy", float(privacy))
        object.__setattr__(self, "_utility", float(utility))
        object.__setattr__(self, "_q", None if quantization is None else list(quantization))
        object.__setattr__(self, "_lam_min", float(lam_min))
        object.__setattr__(self, "_lam_max", float(lam_max))
        object.__setattr__(self, "_t", t)
        object.__setattr__(self, "_ids", ids)
        object.__setattr__(self, "_labels", labels)
        object.__setattr__(self, "_status", status)
        object.__setattr__(self, "_bound", float(bound))

    def __setattr__(self, name, value):
        raise AttributeError("FrontierPoint is immutable")

    def __reduce__(self):  # pickle through the constructor (process and dask workers send frontiers back)
        return (_rebuild_point, (self._privacy, self._utility, self._q, self._lam_min, self._lam_max, self._t, self._ids,
                                 self._labels, self._status, self._bound))

    privacy = property(lambda self: self._privacy)
    utility = property(lambda self: self._utility)
    lam_min = property(lambda self: self._lam_min)
    lam_max = property(lambda self: self._lam_max)
    t = property(lambda self: self._t)
    status = property(lambda self: self._status)
    bound = property(lambda self: self._bound)

    @property
    def gap(self) -> float:
        """Proven utility shortfall ``bound - utility`` (0 when optimal, NaN when nothing is proven)."""
        return 0.0 if self._status == "optimal" else self._bound - self._utility

    @property
    def lam_text(self) -> str:
        """The λ range selecting this point, in words ("0.3 ≤ λ < 1.2", "λ ≥ 0.3", "every λ", "no λ")."""
        return _lam_words(self._lam_min, self._lam_max)

    @property
    def quantization(self) -> list:
        if self._q is None:
            labels = self._labels
            object.__setattr__(self, "_q", [frozenset(labels[i] for i in g.tolist()) for g in _groups(self._ids)])
        return self._q

    @property
    def n_clusters(self) -> int:
        if self._q is None:
            return int(len(np.unique(self._ids)))
        return len(self._q)

    def __eq__(self, other):
        if not isinstance(other, FrontierPoint):
            return NotImplemented
        return (self.privacy, self.utility, self.t) == (other.privacy, other.utility, other.t) and set(self.quantization) == set(other.quantization)

    __hash__ = None  # type: ignore[assignment]

    def __repr__(self) -> str:
        extra = "" if self.t is None else f", t={self.t}"
        st = self._status if self._status == "optimal" or math.isnan(self._bound) else f"feasible, bound={self._bound:.4g}"
        return (f"FrontierPoint(privacy={self.privacy:.4g}, utility={self.utility:.4g}, n_clusters={self.n_clusters}, "
                f"{self.lam_text}, {st}{extra})")


def _lam_words(lo: float, hi: float) -> str:
    """A λ range [lo, hi) in words, without NaN."""
    if math.isnan(lo) or math.isnan(hi):
        return "no λ selects it"
    if lo <= 0 and math.isinf(hi):
        return "every λ"
    if lo == hi:
        return f"λ = {lo:.4g}"
    if math.isinf(hi):
        return f"λ ≥ {lo:.4g}"
    if lo <= 0:
        return f"λ < {hi:.4g}"
    return f"{lo:.4g} ≤ λ < {hi:.4g}"


def _rebuild_point(privacy, utility, q, lam_min, lam_max, t, ids, labels, status="feasible", bound=float("nan")) -> FrontierPoint:
    return FrontierPoint(privacy, utility, q, lam_min, lam_max, t, ids=ids, labels=labels, status=status, bound=bound)


@dataclass(frozen=True, eq=False)
class Frontier:
    """A privacy-utility frontier (privacy minimised, utility maximised).

    Attributes
    ----------
    points : tuple of FrontierPoint
        Non-dominated points, by increasing privacy.
    objective, utility : str
    method : str
        "greedy" (one trajectory, Algorithms 1/2), "exact-lambda" (Section V-C over every λ >= 0: the
        tree of trajectories of :func:`section_vc_tree`), "greedy-per-lambda" (Section V-C, one run
        per λ of a grid), "exact" (every quantisation enumerated), "solver" (every privacy level proved by
        integer programming, :func:`graphpriv.exact_frontier`) or "interval" (every interval partition of
        the ordered values, :func:`graphpriv.interval_frontier`).
    privacy_of_x, utility_of_x : float
        Privacy and utility of the unquantised X (normalisation references).
    utility_hat : float
        Û2 = U2 of the one-cluster quantisation (U2 normalisation), U of one cluster for U1 (= 0).
    trace : MergeTrace or None
        The full λ-free trajectory (greedy Algorithms 1/2).
    tree : VCTree or None
        Section V-C's trajectories for every λ (method "exact-lambda"): ``tree.result_at(lam)``.
    proof : dict or None
        For solver frontiers (method "solver"): the solver, the seconds spent, and one row per
        privacy level (its best utility, proven bound and status); see :func:`graphpriv.exact_frontier`.
    """

    points: tuple
    objective: str
    utility: str
    method: str
    privacy_of_x: float
    utility_of_x: float
    utility_hat: float
    trace: MergeTrace | None = field(default=None, repr=False)
    tree: VCTree | None = field(default=None, repr=False)
    proof: dict | None = field(default=None, repr=False)

    def __len__(self) -> int:
        return len(self.points)

    def __iter__(self):
        return iter(self.points)

    @property
    def privacy(self) -> np.ndarray:
        return np.array([p.privacy for p in self.points])

    @property
    def utility_values(self) -> np.ndarray:
        return np.array([p.utility for p in self.points])

    def normalized_privacy(self) -> np.ndarray:
        """privacy / privacy of X (NaN when X itself has zero privacy leakage)."""
        with np.errstate(divide="ignore", invalid="ignore"):
            return self.privacy / self.privacy_of_x if self.privacy_of_x > 0 else np.full(len(self), np.nan)

    def utility_loss(self) -> np.ndarray:
        """1 - U1(X̂)/U1(X) for U1; U2(X̂)/Û2 for U2 (Figs. 7 and 9 of paper 003)."""
        u = self.utility_values
        with np.errstate(divide="ignore", invalid="ignore"):
            if self.utility == "U2":
                return u / self.utility_hat if self.utility_hat != 0 else np.full(len(self), np.nan)
            return 1 - u / self.utility_of_x if self.utility_of_x != 0 else np.full(len(self), np.nan)

    def to_frame(self) -> pd.DataFrame:
        """One row per point: privacy, utility, normalised privacy, utility loss, λ range, size, Q."""
        return pd.DataFrame({
            "privacy": self.privacy,
            "utility": self.utility_values,
            "privacy_normalized": self.normalized_privacy(),
            "utility_loss": self.utility_loss(),
            "lam_min": [p.lam_min for p in self.points],
            "lam_max": [p.lam_max for p in self.points],
            "n_clusters": [p.n_clusters for p in self.points],
            "t": [p.t for p in self.points],
            "status": [p.status for p in self.points],
            "bound": [p.bound for p in self.points],
            "quantization": [p.quantization for p in self.points],
        })

    @property
    def certified(self) -> bool:
        """True when every point is proven optimal and no privacy level is left unresolved (the exact frontier)."""
        if not self.points or any(p.status != "optimal" for p in self.points):
            return False
        return self.proof is None or all(r["status"] == "optimal" for r in self.proof.get("levels", []))

    @property
    def gap(self) -> float:
        """Largest proven utility shortfall, as a fraction of the utility range between one cluster and no
        quantisation (``utility_of_x - utility_hat``): 0 for a certified frontier, NaN when nothing is proven
        (greedy frontiers)."""
        if self.certified:
            return 0.0
        rows = list(self.proof.get("levels", [])) if self.proof else []
        gaps = [r["bound"] - r["utility"] for r in rows] + [p.gap for p in self.points]
        if not gaps or any(math.isnan(g) for g in gaps):
            return math.nan
        span = self.utility_of_x - self.utility_hat
        return float(max(gaps) / span) if span > 0 else float(max(gaps))

    def partition(self, min_utility: float | None = None, max_privacy: float | None = None) -> list:
        """The quantisation of the frontier point chosen by a utility floor or a privacy cap.

        Like :func:`scipy.cluster.hierarchy.fcluster` cutting a linkage: ``min_utility=u`` gives the
        most private point with utility >= u; ``max_privacy=p`` the most useful point with privacy <= p.

        Returns
        -------
        list of frozenset
            Clusters of public labels (the shape of ``MergeTrace.quantization``), ready for a release.

        Examples
        --------
        >>> import graphpriv as gp
        >>> jr, _ = gp.datasets.paper_example()
        >>> f = gp.exact_frontier(jr, "I*")
        >>> len(f.partition(min_utility=1.5)), len(f.partition(max_privacy=0.0))
        (4, 3)
        """
        if (min_utility is None) == (max_privacy is None):
            raise InputError("give exactly one of min_utility= (a utility floor) or max_privacy= (a privacy cap)")
        if not self.points:
            raise InputError("the frontier has no points")
        tol = 1e-12
        if min_utility is not None:
            u = _finite(min_utility, "min_utility")
            ok = [p for p in self.points if p.utility >= u - tol]
            if not ok:
                raise InputError(f"no point reaches utility {u:.4g}; the largest on this frontier is {max(self.utility_values):.4g}")
            return list(min(ok, key=lambda p: (p.privacy, -p.utility)).quantization)
        pv = _finite(max_privacy, "max_privacy")
        ok = [p for p in self.points if p.privacy <= pv + tol]
        if not ok:
            raise InputError(f"no point has privacy <= {pv:.4g}; the smallest on this frontier is {min(self.privacy):.4g}")
        return list(max(ok, key=lambda p: (p.utility, -p.privacy)).quantization)

    def __repr__(self) -> str:
        head = (f"Frontier(objective={self.objective!r}, utility={self.utility!r}, method={self.method!r}, "
                f"points={len(self.points)}")
        if self.method in ("exact", "solver", "interval"):
            head += f", certified={self.certified}" + ("" if self.certified else f", gap={self.gap:.3g}")
        head += ")"
        rows = [f"  {'privacy':>9} {'utility':>9} {'clusters':>8}  λ range / status"]
        for p in self.points[:6]:
            st = "" if p.status == "feasible" and math.isnan(p.bound) else f"  ({p.status})"
            rows.append(f"  {p.privacy:9.4g} {p.utility:9.4g} {p.n_clusters:8d}  {p.lam_text}{st}")
        if len(self.points) > 6:
            rows.append(f"  ... {len(self.points) - 6} more point(s)")
        return "\n".join([head, *rows]) if self.points else head


def _finite(v, name: str) -> float:
    try:
        f = float(v) if isinstance(v, (int, float, np.integer, np.floating)) and not isinstance(v, (bool, np.bool_)) else None
    except OverflowError:                      # an int beyond the floats (10**400)
        f = None
    if f is None or not math.isfinite(f):
        shown = repr(v) if len(repr(v)) <= 40 else repr(v)[:37] + "..."
        raise InputError(f"{name} must be a finite number, got {shown}")
    return f


def pareto_filter(privacy: Sequence[float], utility: Sequence[float], tol: float = 1e-12) -> np.ndarray:
    """Indices of the non-dominated points (privacy minimised, utility maximised), by increasing privacy.

    Of several points with equal (privacy, utility) the first is kept.

    Examples
    --------
    >>> import graphpriv as gp
    >>> gp.pareto_filter([1.0, 0.5, 0.5, 2.0], [2.0, 1.0, 1.5, 1.9]).tolist()
    [2, 0]
    """
    p = np.asarray(privacy, dtype=float)
    u = np.asarray(utility, dtype=float)
    if p.shape != u.shape or p.ndim != 1:
        raise InputError("privacy and utility must be 1-d sequences of the same length")
    order = np.lexsort((np.arange(len(p)), -u, p))
    keep = []
    best_u = -np.inf
    for i in order.tolist():
        if u[i] > best_u + tol:
            keep.append(i)
            best_u = u[i]
    return np.array(keep, dtype=np.int64)


def _lam_grid(lams) -> np.ndarray:
    try:
        arr = np.asarray(lams, dtype=float).ravel()
    except (TypeError, ValueError):
        raise InputTypeError("lams must be a sequence of numbers >= 0") from None
    if arr.size == 0:
        raise InputError("lams must hold at least one λ value")
    if not np.all(np.isfinite(arr)) or (arr < 0).any():
        raise InputError("every λ in lams must be a finite number >= 0")
    return np.unique(arr)


def _returned_t(dp: np.ndarray, du: np.ndarray, nonempty: np.ndarray, lams: np.ndarray) -> np.ndarray:
    """t(λ) = number of leading accepted steps, for every λ (vectorised, chunked)."""
    T = len(dp)
    out = np.empty(len(lams), dtype=np.int64)
    if T == 0:
        out[:] = 0
        return out
    if np.all(du <= 0):
        # step t accepted iff λ < τ_t; t(λ) = number of leading steps whose running min of τ exceeds λ
        with np.errstate(divide="ignore", invalid="ignore"):
            tau = np.where(du < 0, (-_DL_TOL - dp) / -du, np.where(dp < -_DL_TOL, np.inf, -np.inf))
        tau = np.where(nonempty, tau, -np.inf)
        m = np.minimum.accumulate(tau)
        return np.searchsorted(-m, -lams, side="left").astype(np.int64)
    chunk = max(1, 4_000_000 // T)
    for s0 in range(0, len(lams), chunk):
        lam = lams[s0:s0 + chunk, None]
        acc = ((dp[None, :] - lam * du[None, :]) < -_DL_TOL) & nonempty[None, :]
        rej = ~acc
        first = np.where(rej.any(axis=1), rej.argmax(axis=1), T)
        out[s0:s0 + chunk] = first
    return out


def _exact_lams(dp: np.ndarray, du: np.ndarray) -> np.ndarray:
    """λ values covering every acceptance pattern: 0, every threshold, midpoints, one beyond."""
    with np.errstate(divide="ignore", invalid="ignore"):
        tau = dp / du
    tau = tau[np.isfinite(tau) & (tau > 0)]
    tau = np.unique(tau)
    pts = [np.zeros(1), tau]
    if len(tau):
        pts.append((tau[:-1] + tau[1:]) / 2)
        pts.append(tau[:1] / 2)
        pts.append(tau[-1:] * 2 + 1)
    else:
        pts.append(np.ones(1))
    return np.unique(np.concatenate(pts))


def pareto_frontier(jr: JointRange, objective: str, utility: Any = "U1", values: Any = None, lams=None, *,
                    base: float = 2, tie_rule: str = "paper") -> Frontier:
    """Non-dominated (privacy, utility) points of Algorithm 1, Algorithm 2 or Section V-C over λ.

    Parameters
    ----------
    jr : JointRange
    objective : {"L0", "I*", "L0|I*=0"}
    utility, values : as in :func:`graphpriv.agglomerate`
    lams : sequence of float >= 0, optional
        λ values to consider. By default *every* λ >= 0 exactly: for Algorithms 1/2 the thresholds
        where a step's ΔL changes sign; for ``"L0|I*=0"`` the tree of :func:`section_vc_tree`, split
        at the exact λ where Section V-C's winning pair changes (method "exact-lambda"). Given, the
        λ values of the grid only (for ``"L0|I*=0"`` one full run per λ, method "greedy-per-lambda").
    base : float, default 2
    tie_rule : {"paper", "index"}
        As in :func:`graphpriv.agglomerate`.

    Returns
    -------
    Frontier
        ``.points`` (privacy, utility, quantisation, λ range), ``.to_frame()``, normalisations
        ``.normalized_privacy()`` and ``.utility_loss()``, for Algorithms 1/2 the full ``.trace``, for
        ``"L0|I*=0"`` without ``lams`` the ``.tree`` of trajectories.

    Examples
    --------
    >>> import graphpriv as gp
    >>> jr, values = gp.datasets.paper_example()
    >>> f = gp.pareto_frontier(jr, "I*")
    >>> [(round(p.privacy, 3), round(p.utility, 3)) for p in f.points]
    [(0.0, 1.222), (2.322, 2.807)]
    >>> f.points[0].lam_min, round(f.points[0].lam_max, 4)          # Example 3's λ = 0.3 lies here
    (0.0, 0.3219)
    >>> f.to_frame()[["privacy_normalized", "utility_loss"]].round(4).values.tolist()   # Fig. 7 axes
    [[0.0, 0.5646], [1.0, 0.0]]

    Notes
    -----
    Algorithms 1/2: one trajectory (see :func:`graphpriv.agglomerate` for its cost) plus O(T · |Λ|)
    vectorised work for T steps and |Λ| values of λ. Points are Q(t) of the trajectory that some λ
    selects; the λ range of a point is [lam_min, lam_max) (for U2, whose utility can rise along a
    trajectory, the set of λ selecting a point is reported by its extremes).

    Section V-C (problem (10)): each step merges the pair of Ψ on the lower envelope of the lines
    ΔL(λ) = ΔL0 - λΔU, so the trajectories form a tree over λ, split only where the envelope's pair
    changes (breakpoints computed exactly from two lines, no grid); shared prefixes are merged once,
    and the cost is about one run at λ = 0 plus one run at λ > 0 per distinct trajectory, each step of
    a branch asking the winner at its ends (benchmarks/bench_agglomerate.py prints the ratios). A
    point's λ range is [lam_min, lam_max), the extremes of the λ whose trajectory ends at its
    quantisation (lam_min = lam_max = 0 for a point that λ = 0 alone selects; lam_min = 5e-324, the
    smallest positive float, for one that every small λ > 0 but not λ = 0 selects). The tree follows the
    exact envelope where a single run compares ΔL rounded to the tie tolerance 1e-9:
    within about 1e-9 / |ΔU_p - ΔU_r| of a breakpoint between pairs p and r (and right of λ = 0, where
    pairs with equal ΔL0 tie after rounding) ``agglomerate`` may resolve the near-tie the other way;
    see :func:`section_vc_tree`.
    """
    record_use("agglomerative")  # for gp.cite()
    prob = _Problem(jr, objective, utility, values, base)
    prob.tie_rule = _check_tie_rule(tie_rule)
    n = prob.n
    u_hat = prob.ub.partition_value([np.arange(n)])
    if prob.objective == "L0|I*=0":
        return _section_vc_frontier(prob, lams, u_hat)

    traj = _trajectory(prob, None)
    return trace_frontier(_build_trace(prob, traj, 0.0), lams, utility_hat=u_hat)


def trace_frontier(trace: MergeTrace, lams=None, *, utility_hat: float = float("nan")) -> Frontier:
    """Frontier of any recorded merge sequence, read as a λ-free trajectory (as Algorithms 1 and 2 are).

    For every λ >= 0 the run that stops at its first step with ΔL = Δprivacy - λ Δutility >= 0 returns
    Q(t-1); the non-dominated Q(t) that some λ returns are the points, each with its λ range. This
    is how :func:`pareto_frontier` reads Algorithms 1 and 2, and it works for a trace recorded by a
    user's own merge rule on :class:`~graphpriv.Contraction` (``c.trace()``).

    Parameters
    ----------
    trace : MergeTrace
    lams : sequence of float >= 0, optional
        λ values to consider; by default every λ >= 0 exactly (the thresholds where a step's ΔL
        changes sign).
    utility_hat : float, optional
        Û2, the utility of the one-cluster quantisation (normalisation of U2's utility loss).

    Returns
    -------
    Frontier

    Examples
    --------
    >>> import graphpriv as gp
    >>> jr, _ = gp.datasets.paper_example()
    >>> f = gp.trace_frontier(gp.agglomerate(jr, "I*", 0.3).trace)
    >>> [(round(p.privacy, 3), round(p.utility, 3)) for p in f.points]
    [(0.0, 1.222), (2.322, 2.807)]
    """
    if not isinstance(trace, MergeTrace):
        raise InputTypeError(f"trace_frontier needs a MergeTrace (e.g. gp.agglomerate(...).trace), got {type(trace).__name__}")
    p_x, u_x = float(trace.step_privacy[0]), float(trace.step_utility[0])
    priv = np.asarray(trace.step_privacy, dtype=float)
    util = np.asarray(trace.step_utility, dtype=float)
    dp = np.diff(priv)
    du = np.diff(util)
    nonempty = np.array([len(m) > 0 for m in trace.step_merges[1:]], dtype=bool)
    exact = lams is None
    grid = _exact_lams(dp, du) if exact else _lam_grid(lams)
    tsel = _returned_t(dp, du, nonempty, grid)
    ts = np.unique(tsel)
    lam_lo = {}
    lam_hi = {}
    for t in ts.tolist():
        sel = grid[tsel == t]
        lam_lo[t] = float(sel.min())
        if exact:
            # the range extends up to the next grid value selecting another t (thresholds are grid points)
            above = grid[(grid > sel.max()) & (tsel != t)]
            lam_hi[t] = float(above.min()) if len(above) else math.inf
        else:
            lam_hi[t] = float(sel.max())
    keep = pareto_filter(priv[ts], util[ts])
    ids_at = trace.cluster_ids_at(int(ts[k]) for k in keep.tolist())
    labels = tuple(trace.public_labels)
    pts = []
    for k in keep.tolist():
        t = int(ts[k])
        pts.append(FrontierPoint(float(priv[t]), float(util[t]), None, lam_lo[t], lam_hi[t], t, ids=ids_at[t], labels=labels))
    return Frontier(tuple(pts), trace.objective, trace.utility, "greedy", p_x, u_x, float(utility_hat), trace)


def section_vc_tree(jr: JointRange, utility: Any = "U1", values: Any = None, *, base: float = 2,
                    tie_rule: str = "paper") -> VCTree:
    """Section V-C's trajectory for every λ >= 0 at once (problem (10), eqs. (11)-(12)).

    Ding & Farokhi, *Developing Non-Stochastic Privacy-Preserving Policies Using Agglomerative
    Clustering*, Section V-C. Every step of the steepest descent merges the pair of Ψ(Q, P) with the
    smallest ΔL(λ) = ΔL0 - λΔU, a line in λ per pair, so the winner is piecewise constant in λ: the
    range of λ is split only where it changes, at the crossing of two lines (exact breakpoints, no
    grid), and the pieces share the merges they have in common. :func:`pareto_frontier` with
    ``"L0|I*=0"`` reads its frontier off these leaves.

    Parameters
    ----------
    jr : JointRange
    utility, values : as in :func:`graphpriv.agglomerate`
    base : float, default 2
    tie_rule : {"paper", "index"}
        As in :func:`graphpriv.agglomerate`.

    Returns
    -------
    VCTree
        ``.leaves`` (λ segments, privacy, utility and cluster ids of each trajectory's end),
        ``.breakpoints``, ``.leaf_at(lam)`` and ``.result_at(lam)``.

    Examples
    --------
    >>> import graphpriv as gp
    >>> jr, values = gp.datasets.paper_example()
    >>> tree = gp.section_vc_tree(jr, "U2", values)
    >>> [round(lam, 4) for lam in tree.breakpoints]            # the trajectory changes at λ = 7.0588
    [7.0588]
    >>> [(round(leaf.lam_min, 4), round(leaf.privacy, 3), round(leaf.utility, 3)) for leaf in tree.leaves]
    [(0.0, 1.585, -0.7), (0.0, 1.585, -0.767), (7.0588, 2.585, -0.625)]
    >>> tree.leaves[0].segments, tree.leaves[2].segments[0][1]  # λ = 0 alone; [7.0588, inf)
    (((0.0, 0.0),), inf)
    >>> r = tree.result_at(0.5)
    >>> r.quantization == gp.agglomerate(jr, "L0|I*=0", 0.5, "U2", values).quantization
    True

    Notes
    -----
    The tree follows the exact lower envelope of the lines; a single run compares ΔL rounded to the tie
    tolerance 1e-9 and breaks ties by (|S|𝒳1| + |S|𝒳2|, pair index). λ = 0 is its own point (the single
    run's rule), and right of 0 the pair with the larger ΔU wins among pairs whose ΔL0 tie. At every λ
    the pair the tree merges has ΔL within 3e-9 of the envelope, so ``agglomerate(jr, "L0|I*=0",
    lam)`` follows the same trajectory unless at some step two pairs' ΔL(λ) lie within 3e-9 of each
    other: λ within about 1e-9 / |ΔU_p - ΔU_r| of a breakpoint, or in the band right of 0 where the
    rounded costs of pairs with equal ΔL0 tie. For U1 the search is exact on [0, inf); for U2 crossings
    above λ = 1e6 are not searched (the trajectory at 1e6 is reported for larger λ).
    """
    record_use("agglomerative")  # for gp.cite()
    prob = _Problem(jr, "L0|I*=0", utility, values, base)
    prob.tie_rule = _check_tie_rule(tie_rule)
    return VCTree(tuple(problem10_tree(prob)), prob)


def _tree_frontier(prob, u_hat) -> Frontier:
    """Problem (10)'s frontier over every λ >= 0: the ends of the trajectories of :func:`section_vc_tree`."""
    p_x, u_x = _evaluate_groups(prob, [np.array([i]) for i in range(prob.n)])
    tree = VCTree(tuple(problem10_tree(prob)), prob)
    found: dict = {}
    for leaf in tree.leaves:
        key = leaf.ids.tobytes()
        # a leaf of (0, hi) without λ = 0 itself starts at the smallest positive float
        lo = leaf.lam_min if leaf.lam_min > 0 or (0.0, 0.0) in leaf.segments else math.ulp(0.0)
        if key not in found:
            found[key] = [leaf, lo, leaf.lam_max]
        else:
            found[key][1] = min(found[key][1], lo)
            found[key][2] = max(found[key][2], leaf.lam_max)
    items = list(found.values())
    keep = pareto_filter([it[0].privacy for it in items], [it[0].utility for it in items])
    labels = tuple(prob.labels)
    pts = tuple(FrontierPoint(items[i][0].privacy, items[i][0].utility, None, items[i][1], items[i][2], None,
                              ids=items[i][0].ids, labels=labels) for i in keep.tolist())
    return Frontier(pts, prob.objective, prob.utility_name, "exact-lambda", p_x, u_x, u_hat, None, tree)


def _section_vc_frontier(prob, lams, u_hat) -> Frontier:
    """Problem (10)'s frontier: the tree over every λ (``lams=None``) or one full Section V-C run per λ of the grid."""
    if lams is None:
        return _tree_frontier(prob, u_hat)
    n = prob.n
    p_x, u_x = _evaluate_groups(prob, [np.array([i]) for i in range(n)])
    grid = _lam_grid(lams)
    found: dict = {}
    for lam in grid.tolist():
        r = _result_from_trace(prob, _build_trace(prob, _trajectory(prob, lam), lam))
        key = tuple(sorted(tuple(sorted(map(repr, c))) for c in r.quantization))
        if key not in found:
            found[key] = [r, lam, lam]
        else:
            found[key][2] = lam
    items = list(found.values())
    keep = pareto_filter([it[0].privacy for it in items], [it[0].utility for it in items])
    pts = tuple(FrontierPoint(items[i][0].privacy, items[i][0].utility, items[i][0].quantization, items[i][1], items[i][2], None)
                for i in keep.tolist())
    return Frontier(pts, prob.objective, prob.utility_name, "greedy-per-lambda", p_x, u_x, u_hat, None)
