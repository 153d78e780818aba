"""Every mechanism of graphpriv on one table, placed on common privacy and utility axes.

:func:`compare_mechanisms` runs, on the same joint distribution p(s, x) (the counts of a table) and its
support [[S, X]]:

* Ding & Farokhi, *Developing Non-Stochastic Privacy-Preserving Policies Using Agglomerative
  Clustering* (IEEE TIFS 2020): Algorithm 1 (L0), Algorithm 2 (I*) and Section V-C (L0 | I* = 0), all
  with utility U1;
* Sadeghi, Ding & Rakotoarivelo, *On Properties and Optimization of Information-theoretic Privacy
  Watchdog* (ITW 2020): the watchdog (eq. (1), Theorem 1) and (ε, δ) partitioning (Algorithm 1);
* Zarrabian, Ding, Sadeghi & Rakotoarivelo, *Enhancing Utility in the Watchdog Privacy Mechanism*
  (ICASSP 2022): subset merging;
* Ding, Zarrabian & Sadeghi (arXiv:2101.10551): the α-lift watchdog;
* Ding & Sadeghi, *A Submodularity-based Clustering Algorithm for the Information Bottleneck and
  Privacy Funnel* (ITW 2019): the agglomerative privacy funnel, pairwise and subset;
* Ding, Liu & Farokhi, *A Linear Reduction Method for Local Differential Privacy and Log-lift* (ISIT
  2021): the linear reduction (Markov scheme),

and measures each release X̂ (a partition of X, or the channel of the linear reduction) by the same
numbers: I*(S; X̂) and L0(S → X̂) of its support, max_{s, x̂} |log l(s, x̂)|, I(S; X̂), I(X; X̂) and, for
partitions, U1 = I0(X → X̂) = log|X| - log (largest block). Each mechanism also sweeps its parameter,
which gives its frontier on the same axes.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field

import numpy as np
import pandas as pd

from .._validation import check_base, check_real
from ..distributions import JointDistribution
from ..errors import InputError, InputTypeError
from ..ranges import JointRange

__all__ = ["MechanismComparison", "compare_mechanisms", "COMPARED_MECHANISMS"]

#: The mechanisms :func:`compare_mechanisms` runs, in table order, with their family.
COMPARED_MECHANISMS = {
    "Algorithm 1 (L0, U1)": "non-stochastic (003)",
    "Algorithm 2 (I*, U1)": "non-stochastic (003)",
    "Section V-C (L0 | I*=0, U1)": "non-stochastic (003)",
    "watchdog": "watchdog (002)",
    "(eps, delta) watchdog": "watchdog (002)",
    "watchdog, subset merging": "watchdog variants",
    "alpha-lift watchdog": "watchdog variants",
    "privacy funnel, greedy": "privacy funnel",
    "privacy funnel, subset": "privacy funnel",
    "linear reduction": "linear reduction (000/001)",
}

_COLUMNS = ["mechanism", "family", "setting", "n_blocks", "I_star", "L0", "max_abs_log_lift", "I_S_Xhat",
            "I_X_Xhat", "U1"]


@dataclass(frozen=True, repr=False)
class MechanismComparison:
    """Output of :func:`compare_mechanisms`.

    Attributes
    ----------
    table : DataFrame
        One row per mechanism at its chosen setting: ``mechanism, family, setting, n_blocks, I_star, L0,
        max_abs_log_lift, I_S_Xhat, I_X_Xhat, U1`` (information in ``base``; ``U1`` NaN for the linear
        reduction, whose release is not a partition; ``max_abs_log_lift`` inf when a released cell has
        probability 0 while its row and column do not).
    frontiers : DataFrame
        The same columns for every point of every mechanism's parameter sweep (``setting`` says which
        parameter value), plus ``sweep`` naming the swept parameter and ``param`` its value (λ, ε in
        nats, or α; for 003's frontiers the smallest λ that selects the point).
    reference : dict
        The measures of X itself (no mechanism).
    settings : dict
        The parameters used (λ of 003 and of the funnel, ε, δ, α, ...), and the table's size.
    base : float
    """

    table: pd.DataFrame
    frontiers: pd.DataFrame
    reference: dict
    settings: dict
    base: float
    timings: dict = field(default_factory=dict)

    def to_csv(self, path) -> None:
        """Write :attr:`table` as CSV."""
        self.table.to_csv(path, index=False)

    def to_markdown(self, *, title: str = "Mechanisms compared") -> str:
        """A report section (Markdown): settings, the table, and what the columns mean."""
        s = self.settings
        unit = {2.0: "bits", math.e: "nats"}.get(self.base, f"log base {self.base:g}")
        lines = [f"## {title}", "",
                 f"{s['n_sensitive']} sensitive and {s['n_public']} public values; information in {unit}. "
                 f"Settings: 003's λ = {s['lam_003']:g} (utility U1); watchdog ε = {s['eps']:g} nats "
                 f"(δ = {s['delta']:g} for (ε, δ); α = {s['alpha_lift']:g} for the α-lift watchdog); "
                 f"funnel λ = {s['lam_funnel']:g}; linear reduction α = {s['alpha_linear']:g}.", ""]
        cols = ["mechanism", "setting", "n_blocks", "I_star", "L0", "max_abs_log_lift", "I_S_Xhat", "I_X_Xhat", "U1"]
        head = ["mechanism", "setting", "blocks", "I*", "L0", "max abs log-lift", "I(S;X̂)", "I(X;X̂)", "U1"]
        lines.append("| " + " | ".join(head) + " |")
        lines.append("|" + "---|" * len(head))
        ref = dict(self.reference, mechanism="X released as it is", setting="")
        for row in [ref] + self.table.to_dict("records"):
            cells = []
            for c in cols:
                v = row[c]
                if isinstance(v, float):
                    cells.append("∞" if math.isinf(v) else "–" if math.isnan(v) else f"{v:.4g}")
                else:
                    cells.append(str(v).replace("|", "\\|"))
            lines.append("| " + " | ".join(cells) + " |")
        lines += ["", "I* and L0 are read off the support of the released joint (S, X̂); max abs log-lift is "
                  "max over s and x̂ of |log p(s, x̂) / (p(s) p(x̂))| (∞: a released cell of probability 0); "
                  "I(X; X̂) = H(X̂) for a partition; U1 = log|X| - log(largest block) (partitions only).", ""]
        return "\n".join(lines)

    def __repr__(self) -> str:
        return (f"MechanismComparison({len(self.table)} mechanisms, {len(self.frontiers)} frontier points, "
                f"|S|={self.settings['n_sensitive']}, |X|={self.settings['n_public']})")


# ----------------------------------------------------------------------------- measures
def _xlogx(a):
    a = np.asarray(a, dtype=float)
    return np.where(a > 0, a * np.log(np.where(a > 0, a, 1.0)), 0.0)


class _Measurer:
    """The common measures of a release, from the released joint p(s, x̂) (nats inside, ``base`` out)."""

    def __init__(self, jd: JointDistribution, base: float):
        self.P = jd.P[jd.p_s > 0]
        self.ps = self.P.sum(axis=1)
        self.px = self.P.sum(axis=0)
        self.n = self.P.shape[1]
        self.lnb = math.log(base)
        self.base = base
        self.slabels = jd.sensitive_labels[jd.p_s > 0]

    def _support(self, Q: np.ndarray) -> tuple[float, float]:
        from ..measures.nonstochastic import L0, maximin_information

        keep = Q.sum(axis=0) > 0
        jr = JointRange.from_pmf(Q[:, keep], self.slabels, [f"y{k}" for k in range(int(keep.sum()))])
        return maximin_information(jr, base=self.base), L0(jr, base=self.base)

    def of_joint(self, Q: np.ndarray, I_X: float | None = None, largest: int | None = None) -> dict:
        m = Q.sum(axis=0)
        live = m > 0
        Qm, mm = Q[:, live], m[live]
        I_S = float(_xlogx(Qm).sum() - _xlogx(mm).sum() - _xlogx(self.ps).sum())
        with np.errstate(divide="ignore"):
            ll = np.abs(np.log(Qm) - np.log(self.ps)[:, None] - np.log(mm)[None, :])
        istar, l0 = self._support(Q)
        H = float(-_xlogx(mm).sum())

        def clean(v: float) -> float:       # floating-point dust of an exact 0 (e.g. one block) reads as 0
            return 0.0 if abs(v) < 1e-12 else float(v)

        return {"n_blocks": int(live.sum()), "I_star": clean(istar), "L0": clean(l0),
                "max_abs_log_lift": clean(float(ll.max()) / self.lnb) if ll.size else 0.0,
                "I_S_Xhat": clean(max(I_S, 0.0) / self.lnb),
                "I_X_Xhat": clean((H if I_X is None else I_X * self.lnb) / self.lnb),
                "U1": clean((math.log(self.n) - math.log(largest)) / self.lnb) if largest else math.nan}

    def of_assignment(self, assignment: np.ndarray) -> dict:
        a = np.asarray(assignment, dtype=np.int64)
        k = int(a.max()) + 1
        Q = np.zeros((self.P.shape[0], k))
        np.add.at(Q.T, a, self.P.T)
        return self.of_joint(Q, largest=int(np.bincount(a).max()))


def _assignment_from_blocks(labels: np.ndarray, blocks) -> np.ndarray:
    index = {lab: i for i, lab in enumerate(labels.tolist())}
    a = np.full(len(labels), -1, dtype=np.int64)
    k = 0
    for b in blocks:
        codes = [index[v] for v in b]
        if codes:
            a[codes] = k
            k += 1
    rest = np.flatnonzero(a < 0)
    a[rest] = np.arange(k, k + rest.size)
    return a


def _inputs(data, sensitive, public, missing) -> tuple[JointDistribution, JointRange]:
    if isinstance(data, JointDistribution):
        jd = data.drop_zero_mass()
        return jd, jd.support()
    if isinstance(data, JointRange):
        if data.counts is None:
            raise InputError("compare_mechanisms needs counts: build the JointRange from records (from_dataframe / "
                             "read_joint_range) or pass a gp.JointDistribution")
        jd = JointDistribution.from_range(data)
        return jd, data
    if isinstance(data, pd.DataFrame):
        if sensitive is None or public is None:
            raise InputError("compare_mechanisms(df, ...) needs sensitive= and public= column names")
        jr = JointRange.from_dataframe(data, sensitive=sensitive, public=public, missing=missing)
        return JointDistribution.from_range(jr), jr
    if isinstance(data, (list, tuple, np.ndarray)):
        jd = JointDistribution(data).drop_zero_mass()
        return jd, jd.support()
    raise InputTypeError(f"data must be a gp.JointDistribution, a JointRange with counts, a DataFrame or a pmf matrix, "
                         f"got {type(data).__name__}")


#: A sweep's non-dominated points are measured at most this many at a time (evenly spaced, ends kept).
MAX_SWEEP_POINTS = 60


def _thin(points: list, k: int = MAX_SWEEP_POINTS) -> list:
    """At most ``k`` of ``points`` (in order), evenly spaced, the first and the last kept."""
    if len(points) <= k:
        return points
    idx = np.unique(np.round(np.linspace(0, len(points) - 1, k)).astype(int))
    return [points[i] for i in idx.tolist()]


def _check_nonneg(v, name: str) -> float:
    x = check_real(v, name)
    if not math.isfinite(x) or x < 0:
        raise InputError(f"{name} must be a finite number >= 0, got {v!r}")
    return float(x)


def compare_mechanisms(data, sensitive=None, public=None, *, lam_003: float = 0.5, eps: float = 1.0,
                       delta: float = 0.05, alpha_lift: float = math.inf, lam_funnel: float = 0.5,
                       alpha_linear: float = 0.5, base: float = 2, missing: str = "keep",
                       frontiers: bool = True, funnel_lams=None, eps_grid=None) -> MechanismComparison:
    """Run every mechanism of graphpriv on one table and measure each release on common axes.

    The mechanisms are those of :data:`COMPARED_MECHANISMS` (module docstring: the papers, sections
    and equations). Every release is measured by I*(S; X̂) and L0(S → X̂) of its support (Ding &
    Farokhi 2020, Sec. II-III), the largest |log-lift| (Sadeghi, Ding & Rakotoarivelo 2020, eq. (1)),
    I(S; X̂), I(X; X̂) and, for partitions, U1 = I0(X → X̂).

    Parameters
    ----------
    data : JointDistribution, JointRange with counts, DataFrame, or (|S|, |X|) pmf
        The table. A DataFrame needs ``sensitive`` and ``public`` column names.
    sensitive, public : column names (DataFrame input)
    lam_003 : float, default 0.5
        λ of Algorithms 1, 2 and Section V-C (utility U1).
    eps : float, default 1.0
        ε of the watchdog, its subset and α-lift variants and (ε, δ), **in nats** (the papers' unit).
    delta : float, default 0.05
        δ of (ε, δ) partitioning.
    alpha_lift : float, default math.inf
        α of the α-lift watchdog (inf: the one-sided max-lift watchdog).
    lam_funnel : float, default 0.5
        λ of the privacy funnel.
    alpha_linear : float in (0, 1], default 0.5
        α of the linear reduction (Markov scheme).
    base : float, default 2
        Log base of every reported quantity (the parameters keep their own units).
    missing : {"keep", "drop", "error"}
        DataFrame input: as :meth:`graphpriv.JointRange.from_dataframe`.
    frontiers : bool, default True
        Also sweep each mechanism's parameter (003: every λ; the funnel: ``funnel_lams``; the watchdog
        family: ``eps_grid``; the linear reduction: α = 0.1, 0.2, ..., 1). Of a sweep with more than
        :data:`MAX_SWEEP_POINTS` non-dominated points, that many evenly spaced ones are measured.
    funnel_lams : sequence of float, optional
        Default 0, 0.1, ..., 1 (0, 0.2, ..., 1 above 1,000 public values: one funnel run per λ and method,
        the sweep that dominates the cost).
    eps_grid : sequence of float, optional
        ε values (nats) of the watchdog sweeps; default 16 values (8 above 1,000 public values) from 0 to
        1.05 times the largest finite eps(x) or log ℓ_α(x).

    Returns
    -------
    MechanismComparison
        ``.table`` (one row per mechanism), ``.frontiers`` (every swept point), ``.to_markdown()``,
        ``.to_csv(path)``; draw it with :func:`graphpriv.viz.plot_mechanism_comparison`.

    Examples
    --------
    >>> import graphpriv as gp
    >>> jd = gp.JointDistribution.random(3, 8, seed=0)
    >>> cmp = gp.compare_mechanisms(jd, frontiers=False)
    >>> cmp.table["mechanism"].tolist()[:3]
    ['Algorithm 1 (L0, U1)', 'Algorithm 2 (I*, U1)', 'Section V-C (L0 | I*=0, U1)']
    >>> bool((cmp.table["I_S_Xhat"] <= cmp.reference["I_S_Xhat"] + 1e-12).all())    # data processing
    True

    Notes
    -----
    The cost is that of the sweeps: the funnel's (one run per λ and method, O(|X|^2 |S|) each) dominates,
    then subset merging's (O(|X_eps^c|^2 |S|) per ε); each mechanism's time is in
    :attr:`MechanismComparison.timings`. The linear reduction is evaluated in closed form (Lemma 1's
    Markov kernel), without its |X| x |X| matrix.
    """
    import time

    from ..mechanisms.quantization.frontier import pareto_frontier
    from ..mechanisms.quantization.mechanism import agglomerate
    from ..mechanisms.stochastic import (alpha_watchdog, critical_sweep, funnel_frontier, privacy_funnel, watchdog,
                                         watchdog_eps_delta, watchdog_subsets)

    b = check_base(base)
    lam_003 = _check_nonneg(lam_003, "lam_003")
    eps = _check_nonneg(eps, "eps")
    delta = _check_nonneg(delta, "delta")
    lam_funnel = _check_nonneg(lam_funnel, "lam_funnel")
    alpha_linear = _check_nonneg(alpha_linear, "alpha_linear")
    if not 0 < alpha_linear <= 1:
        raise InputError(f"alpha_linear must be in (0, 1] (1: perfect privacy), got {alpha_linear}")
    jd, jr = _inputs(data, sensitive, public, missing)
    # the distribution's public codes follow the range's labels
    labels = jd.public_labels
    me = _Measurer(jd, b)
    rows, front, timings = [], [], {}

    def add(name, setting, meas, sweep=None, param=math.nan):
        r = {"mechanism": name, "family": COMPARED_MECHANISMS[name], "setting": setting, **meas}
        if sweep is None:
            rows.append(r)
        else:
            front.append({**r, "sweep": sweep, "param": float(param)})

    def timed(name):
        class _T:
            def __enter__(self_):
                self_.t = time.perf_counter()

            def __exit__(self_, *exc):
                timings[name] = timings.get(name, 0.0) + time.perf_counter() - self_.t
        return _T()

    def jr_assignment(quantization) -> np.ndarray:
        return _assignment_from_blocks(labels, quantization)

    # --- paper 003
    for name, obj in (("Algorithm 1 (L0, U1)", "L0"), ("Algorithm 2 (I*, U1)", "I*"),
                      ("Section V-C (L0 | I*=0, U1)", "L0|I*=0")):
        with timed(name):
            res = agglomerate(jr, obj, lam_003, "U1", base=b)
            add(name, f"λ={lam_003:g}", me.of_assignment(jr_assignment(res.quantization)))
            if frontiers:
                fr = pareto_frontier(jr, obj, "U1", base=b)
                for p in _thin(list(fr.points)):
                    add(name, f"λ∈[{p.lam_min:.3g}, {p.lam_max:.3g}]", me.of_assignment(jr_assignment(p.quantization)), "λ",
                        p.lam_min)
    # --- watchdog family
    with timed("watchdog"):
        w = watchdog(jd, eps)
        add("watchdog", f"ε={eps:g}", me.of_assignment(_assignment_from_blocks(labels, w.partition)))
    with timed("(eps, delta) watchdog"):
        ed = watchdog_eps_delta(jd, eps, delta)
        add("(eps, delta) watchdog", f"ε={eps:g}, δ={delta:g}", me.of_assignment(_assignment_from_blocks(labels, ed.partition)))
    with timed("watchdog, subset merging"):
        ws = watchdog_subsets(jd, eps)
        add("watchdog, subset merging", f"ε={eps:g}", me.of_assignment(ws.assignment))
    with timed("alpha-lift watchdog"):
        aw = alpha_watchdog(jd, eps, alpha_lift)
        add("alpha-lift watchdog", f"ε={eps:g}, α={alpha_lift:g}", me.of_assignment(aw.assignment))
    if frontiers:
        if eps_grid is None:
            ex = np.concatenate([watchdog(jd, 0.0).eps_x, alpha_watchdog(jd, 0.0, alpha_lift).log_alpha_lift])
            ex = ex[np.isfinite(ex)]
            top = float(ex.max()) if ex.size else 1.0
            eps_grid = np.linspace(0.0, max(top, eps) * 1.05, 16 if me.n <= 1000 else 8)
        grid = [_check_nonneg(v, "eps_grid") for v in np.atleast_1d(np.asarray(eps_grid, dtype=float))]
        with timed("watchdog"):
            sw = critical_sweep(jd)
            for j, lev in enumerate(sw.levels):
                add("watchdog", f"ε={lev.eps:.3g}", me.of_assignment(
                    _assignment_from_blocks(labels, [sw.randomized(j)])), "ε", lev.eps)
        for e in grid:
            with timed("(eps, delta) watchdog"):
                ed_e = watchdog_eps_delta(jd, e, delta)
                add("(eps, delta) watchdog", f"ε={e:.3g}", me.of_assignment(_assignment_from_blocks(labels, ed_e.partition)), "ε", e)
            with timed("watchdog, subset merging"):
                add("watchdog, subset merging", f"ε={e:.3g}", me.of_assignment(watchdog_subsets(jd, e).assignment), "ε", e)
            with timed("alpha-lift watchdog"):
                add("alpha-lift watchdog", f"ε={e:.3g}", me.of_assignment(alpha_watchdog(jd, e, alpha_lift).assignment), "ε", e)
    # --- funnel
    for method, name in (("greedy", "privacy funnel, greedy"), ("subset", "privacy funnel, subset")):
        with timed(name):
            r = privacy_funnel(jd, lam_funnel, method, base=b)
            add(name, f"λ={lam_funnel:g}", me.of_assignment(r.assignment))
            if frontiers:
                grid = np.linspace(0.0, 1.0, 11 if me.n <= 1000 else 6)
                fr = funnel_frontier(jd, grid if funnel_lams is None else funnel_lams, method, base=b)
                par = fr.pareto()
                by_lam = {res.lam: res for res in fr.results}
                for pt in _thin([row for _, row in par.iterrows()]):
                    tr = by_lam[pt["lam"]].trace
                    ids = tr.cluster_ids(int(pt["t"]))
                    _, a = np.unique(ids, return_inverse=True)
                    add(name, f"λ={pt['lam']:.3g}, t={int(pt['t'])}", me.of_assignment(a), "λ", pt["lam"])
    # --- linear reduction
    with timed("linear reduction"):
        def lr_row(alpha):
            # Lemma 1's Markov kernel K(y|x) = (1 - α) 1[y = x] + α p(y) in closed form, without the dense
            # |X| x |X| kernel: P_{Y|S} = (1 - α) P_{X|S} + α P_X and I(X;Y) = Σ_x p(x) [k_x ln(k_x / p(x))
            # + α (1 - p(x)) ln α] with k_x = 1 - α + α p(x)
            Q = (1 - alpha) * me.P + alpha * np.outer(me.ps, me.px)
            q = me.px[me.px > 0]
            stay = 1 - alpha + alpha * q
            mi = float((q * (stay * np.log(stay / q) + alpha * (1 - q) * math.log(alpha))).sum())
            return me.of_joint(Q, I_X=max(mi, 0.0) / me.lnb)
        add("linear reduction", f"α={alpha_linear:g}", lr_row(alpha_linear))
        if frontiers:
            for a in np.linspace(0.1, 1.0, 10):
                add("linear reduction", f"α={a:.2g}", lr_row(float(a)), "α", a)
    table = pd.DataFrame(rows, columns=_COLUMNS)
    fr_frame = pd.DataFrame(front, columns=_COLUMNS + ["sweep", "param"])
    reference = me.of_assignment(np.arange(me.n))
    settings = {"lam_003": lam_003, "eps": eps, "delta": delta, "alpha_lift": alpha_lift, "lam_funnel": lam_funnel,
                "alpha_linear": alpha_linear, "n_sensitive": int(me.P.shape[0]), "n_public": int(me.n),
                "eps_unit": "nats"}
    return MechanismComparison(table=table, frontiers=fr_frame, reference=reference, settings=settings, base=b,
                               timings=timings)
