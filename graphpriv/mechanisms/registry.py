"""The mechanisms that ``graphpriv sanitize --mechanism NAME`` runs, looked up by name.

Each entry is a :class:`MechanismSpec`: a one-line summary, the paper it implements, its options (name,
type, default, help), its release kind, and four functions -- ``run`` (the table's
:class:`~graphpriv.JointDistribution` or :class:`~graphpriv.JointRange` and the options -> the
mechanism's result), ``release`` (result -> what is written: a :class:`~graphpriv.Release` of labels
or codewords, or a :class:`~graphpriv.RandomisedRelease`), ``figures`` (result -> the mechanism's own
figures for ``summary.json``) and ``audit`` (the figures recomputed from the written file, and every
broken promise).

======================  ==========  =====================================================================
name                    release     paper
======================  ==========  =====================================================================
``agglomerative``       labels      Ding & Farokhi, IEEE TIFS 2020 (Algorithms 1-2, Section V-C)
``watchdog``            labels      Sadeghi, Ding & Rakotoarivelo, ITW 2020 (eq. (1), Theorem 1)
``eps-delta``           labels      Sadeghi, Ding & Rakotoarivelo, ITW 2020 (Algorithm 1)
``linear-reduction``    randomised  Ding, Liu & Farokhi, ISIT 2021 (eq. (3), Lemma 1, Sec. III-B)
``funnel``              labels      Ding & Sadeghi, ITW 2019 (the privacy funnel, pairwise or subset merges)
``watchdog-subset``     labels      Zarrabian, Ding, Sadeghi & Rakotoarivelo, ICASSP 2022 (subset merging)
``alpha-watchdog``      labels      Ding, Zarrabian & Sadeghi, arXiv:2101.10551 (the alpha-lift watchdog)
======================  ==========  =====================================================================

**Adding a mechanism** is one module plus one entry: write the mechanism (a function of a
JointDistribution or JointRange returning a result with ``.partition`` -- blocks of public labels --
for a merge, or ``.kernel``/``.p_x`` for a randomised release), then call :func:`register_mechanism`
with a :class:`MechanismSpec` giving its options and the four functions (a merge mechanism reuses
:func:`merge_release`; its ``audit`` receives an :class:`AuditContext` whose ``partition`` is the
partition found in the written table and ``counts`` the table's (s, x) counts, see
:func:`graphpriv.release.merge_audit.merged_guarantee`). ``graphpriv sanitize`` then offers
``--mechanism NAME`` with the options as ``--option-name`` flags (added to the parser from the
registry; an option used by two mechanisms must have one type), refuses options of other mechanisms
with one line, writes the release of its kind, audits it and commits nothing when the audit fails. A
result whose ``trace`` is a :class:`~graphpriv.MergeTrace` gets ``trace.json`` and ``explorer.html``;
a ``frontier.png`` view is one more entry of ``VIEWS`` in :mod:`graphpriv.cli.sanitize_mechanisms`
(name -> function of the result, the pmf, the options and the output folder).

Examples
--------
>>> import graphpriv as gp
>>> gp.mechanism_names()
('agglomerative', 'watchdog', 'eps-delta', 'linear-reduction', 'funnel', 'watchdog-subset', 'alpha-watchdog')
>>> spec = gp.get_mechanism("watchdog")
>>> [o.flag for o in spec.options], spec.release_kind
(['--eps', '--base'], 'labels')
"""

from __future__ import annotations

import sys as _sys

import math
from dataclasses import dataclass, field
from typing import Any, Callable

import numpy as np

from ..errors import InputError, InputTypeError

__all__ = ["MechanismOption", "MechanismSpec", "AuditContext", "register_mechanism", "get_mechanism", "mechanism_names",
           "run_mechanism"]

#: Default of an option that must be given.
REQUIRED = object()


@dataclass(frozen=True)
class MechanismOption:
    """One option of a mechanism: ``name`` (a Python keyword; the flag is ``--name`` with ``_`` -> ``-``),
    its ``type`` (int, float or str), ``default`` (:data:`REQUIRED` when it must be given), ``help`` and
    the allowed ``choices``."""

    name: str
    type: type
    default: Any
    help: str
    choices: tuple | None = None

    @property
    def flag(self) -> str:
        return "--" + self.name.replace("_", "-")

    @property
    def required(self) -> bool:
        return self.default is REQUIRED


@dataclass(frozen=True)
class AuditContext:
    """What a mechanism's ``audit`` gets: the result, the options, the release written, the table's
    (s, x) ``counts`` (scipy sparse, labels in the release's code order) and what the file holds:
    ``partition`` (merge releases: the blocks found through the released values, as public codes) or
    ``randomised`` (:func:`graphpriv.release.randomised_stream.audit_randomised`'s report)."""

    result: Any
    options: dict
    release: Any
    counts: Any = None
    partition: list | None = None
    randomised: dict | None = None


@dataclass(frozen=True)
class MechanismSpec:
    """A registered mechanism (see the module docstring).

    ``run(data, options) -> result``; ``release(result, options) -> Release | RandomisedRelease``;
    ``figures(result, options) -> dict`` (the mechanism's figures); ``audit(AuditContext) -> (figures,
    problems)`` (the same figures recomputed from the written file, and the broken promises).
    ``input`` is ``"distribution"`` (run gets the table's empirical JointDistribution) or ``"range"``.
    """

    name: str
    summary: str
    paper: str
    citation: str
    options: tuple[MechanismOption, ...]
    release_kind: str
    guarantee: str
    run: Callable
    release: Callable | None = None
    figures: Callable | None = None
    audit: Callable | None = None
    input: str = "distribution"
    extra: dict = field(default_factory=dict)

    def option(self, name: str) -> MechanismOption:
        for o in self.options:
            if o.name == name:
                return o
        raise KeyError(name)

    def resolve(self, given: dict) -> dict:
        """The options with defaults filled in and types checked; an option of no use here, a missing
        required option or a value outside the choices raise :class:`~graphpriv.errors.InputError`."""
        known = {o.name for o in self.options}
        for k, v in given.items():
            if k not in known and v is not None:
                raise InputError(f"{'--' + k.replace('_', '-')} does not apply to --mechanism {self.name} (its options: "
                                 f"{', '.join(o.flag for o in self.options) or 'none'})")
        out = {}
        for o in self.options:
            v = given.get(o.name)
            if v is None:
                if o.required:
                    raise InputError(f"--mechanism {self.name} needs {o.flag} ({o.help})")
                v = o.default
            elif o.type in (int, float) and (isinstance(v, bool) or not isinstance(v, (int, float, np.integer, np.floating))):
                raise InputTypeError(f"{o.flag} must be a number, got {v!r}")
            if o.choices is not None and v is not None and v not in o.choices:
                raise InputError(f"{o.flag} must be one of {', '.join(map(str, o.choices))}, got {v!r}")
            out[o.name] = v
        return out


_REGISTRY: dict[str, MechanismSpec] = {}


def register_mechanism(spec: MechanismSpec, *, replace: bool = False) -> MechanismSpec:
    """Add ``spec`` under ``spec.name`` (``replace=True`` to overwrite an entry)."""
    if not isinstance(spec, MechanismSpec):
        raise InputTypeError(f"register_mechanism takes a MechanismSpec, got {type(spec).__name__}")
    if spec.release_kind not in ("labels", "codewords", "randomised"):
        raise InputError(f"release_kind must be 'labels', 'codewords' or 'randomised', got {spec.release_kind!r}")
    if spec.name in _REGISTRY and not replace:
        raise InputError(f"a mechanism named {spec.name!r} is already registered")
    _REGISTRY[spec.name] = spec
    return spec


def get_mechanism(name: str) -> MechanismSpec:
    """The registered mechanism ``name``.

    Raises
    ------
    InputError
        An unknown name (the known ones are listed).
    """
    try:
        return _REGISTRY[name]
    except (KeyError, TypeError):
        raise InputError(f"no mechanism named {name!r}; known: {', '.join(_REGISTRY)}") from None


def mechanism_names() -> tuple[str, ...]:
    """The registered names, in registration order."""
    return tuple(_REGISTRY)


def run_mechanism(name: str, data, **options):
    """Run the registered mechanism ``name`` on ``data`` (a JointRange with counts, or a
    JointDistribution) with ``options``; returns ``(result, release)``: the same release as
    ``graphpriv sanitize --mechanism NAME`` writes (for a randomised release, with the same seed).

    Examples
    --------
    >>> import graphpriv as gp
    >>> result, release = gp.run_mechanism("watchdog", gp.paper000_example1(), eps=0.5)
    >>> release.n_clusters
    2
    """
    spec = get_mechanism(name)
    opts = spec.resolve(options)
    result = spec.run(_input(data, spec.input), opts)
    return result, (spec.release(result, opts) if spec.release is not None else None)


def _input(data, kind: str):
    from ..distributions import JointDistribution
    from ..ranges import JointRange

    if kind == "range":
        if not isinstance(data, JointRange):
            raise InputTypeError(f"this mechanism runs on a gp.JointRange, got {type(data).__name__}")
        return data
    if isinstance(data, JointDistribution):
        return data
    if isinstance(data, JointRange):
        if data.counts is None:
            raise InputError("a stochastic mechanism needs the table's counts; read it with gp.read_joint_range")
        return JointDistribution.from_range(data)
    raise InputTypeError(f"expected a gp.JointRange or gp.JointDistribution, got {type(data).__name__}")


def _base(options) -> float:
    return math.e if str(options["base"]) == "e" else 2.0


# ---------------------------------------------------------------------- merge mechanisms (labels)
def merge_release(result, options=None, *, objective: str | None = None):
    """The label release of a merge result: its ``partition`` (blocks of public labels), every block
    of two or more values released as its generalisation label, the others unchanged."""
    from ..release.mapping import Release

    if objective is None:
        objective = "eps-delta" if hasattr(result, "delta_total") else "watchdog" if hasattr(result, "eps_c") else None
    return Release.from_quantization(list(np.asarray(result.public_labels).tolist()), [list(b) for b in result.partition],
                                     "label", objective=objective)


def _watchdog_run(jd, o):
    from .stochastic.optimal_merge import watchdog

    return watchdog(jd, o["eps"], base=_base(o))


def _watchdog_figures(r, o) -> dict:
    return {"eps": r.eps, "base": o["base"], "eps_c": r.eps_c, "eps_eff": r.eps_eff, "delta_total": r.delta0,
            "nmil": r.nmil, "mutual_information_xy": r.mutual_information, "n_published": int(r.published.sum()),
            "n_merged": int((~r.published).sum()),
            "guarantee": f"max |log-lift| <= eps_eff = max(eps, eps^c) = {max(r.eps, r.eps_c):.6g} (not eps alone): the "
                         f"published symbols have max |log-lift| <= eps = {r.eps:g}, the merged symbol eps^c = {r.eps_c:.6g} "
                         "(Theorem 1)"}


def _merged_codes(result) -> np.ndarray:
    return np.flatnonzero(~np.asarray(result.published))


def _watchdog_audit(ctx: AuditContext):
    from ..release.merge_audit import check_watchdog, merged_guarantee

    r, o = ctx.result, ctx.options
    g = merged_guarantee(ctx.counts, ctx.partition, r.eps, base=_base(o))
    problems = check_watchdog(g, ctx.partition, _merged_codes(r), r.eps, r.eps_c)
    k_m = _merged_codes(r)
    eps_c = 0.0
    if len(k_m):
        first = int(k_m[0])
        eps_c = next((g["eps_y"][k] for k, b in enumerate(ctx.partition) if first in b), 0.0)
    figures = {"eps": r.eps, "base": o["base"], "eps_c": eps_c, "eps_eff": g["eps_eff"],
               "delta_total": g["delta_total"], "nmil": g["nmil"], "mutual_information_sy": g["mutual_information"],
               "n_released": g["n_released"],
               "guarantee": f"max |log-lift| <= eps_eff = max(eps, eps^c) = {max(r.eps, eps_c):.6g} (not eps alone): the "
                            f"symbols published as they are have max |log-lift| <= eps = {r.eps:g}, the merged symbol "
                            f"eps^c = {eps_c:.6g}; the release's own max |log-lift| is {g['eps_eff']:.6g}"}
    return figures, problems


def _eps_delta_run(jd, o):
    from .stochastic.eps_delta import watchdog_eps_delta

    return watchdog_eps_delta(jd, o["eps"], o["delta"], o["eps_bar"], base=_base(o))


def _eps_delta_figures(r, o) -> dict:
    return {"eps": r.eps, "delta": r.delta, "eps_bar": r.eps_bar, "base": o["base"], "delta_total": r.delta_total,
            "eps_eff": r.eps_eff, "nmil": r.nmil, "nmil_watchdog": r.nmil_watchdog,
            "mutual_information_xy": r.mutual_information, "n_published": int(r.published.sum()),
            "n_merged": int((~r.published).sum()),
            "guarantee": f"(eps, delta) log-lift privacy: Delta_total = {r.delta_total:.6g} <= delta = {r.delta:g}, "
                         f"eps_eff = {r.eps_eff:.6g} <= eps_bar = {r.eps_bar:g}"}


def _eps_delta_audit(ctx: AuditContext):
    from ..release.merge_audit import check_eps_delta, merged_guarantee

    r, o = ctx.result, ctx.options
    g = merged_guarantee(ctx.counts, ctx.partition, r.eps, base=_base(o))
    problems = check_eps_delta(g, r.delta, r.eps_bar)
    figures = {"eps": r.eps, "delta": r.delta, "eps_bar": r.eps_bar, "base": o["base"], "delta_total": g["delta_total"],
               "eps_eff": g["eps_eff"], "nmil": g["nmil"], "mutual_information_sy": g["mutual_information"],
               "n_released": g["n_released"],
               "guarantee": f"Delta_total = {g['delta_total']:.6g} <= delta = {r.delta:g} and eps_eff = {g['eps_eff']:.6g} "
                            f"<= eps_bar = {r.eps_bar:g}"}
    return figures, problems


# ---------------------------------------------------------------------- linear reduction (randomised)
#: The optimal non-Markov kernel is a dense |S| x |X| x |X| array; above this many entries use the Markov kernel.
OPTIMAL_KERNEL_MAX_ENTRIES = 20_000_000


@dataclass(frozen=True, repr=False)
class MarkovReduction:
    """Lemma 1's linear reduction without its dense |X| x |X| kernel: K(y|x) = (1 - alpha) 1[y = x] + alpha
    p_x(y) is held as ``alpha`` and ``p_x`` (Ding, Liu & Farokhi, ISIT 2021, eq. (7)). The figures are
    those of :func:`graphpriv.linear_reduction` with ``scheme="markov"``, in O(|S| |X|)."""

    alpha: float
    base: float
    public_labels: np.ndarray
    sensitive_labels: np.ndarray
    p_x: np.ndarray
    ldp: float
    log_lift: float
    ldp_x: float
    log_lift_x: float
    tv: float
    mutual_information_xy: float
    entropy_x: float
    scheme: str = "markov"
    kernel: Any = None

    def __repr__(self) -> str:
        return (f"MarkovReduction(alpha={self.alpha:g}, |X|={len(self.p_x)}, LDP={self.ldp:.4g}, LL={self.log_lift:.4g}, "
                f"D_TV={self.tv:.4g})")


def _markov_reduction(jd, a: float, base: float) -> MarkovReduction:
    from ..measures.stochastic import ldp, max_abs_log_lift
    from .stochastic.linear_mechanism import reduction_ldp, reduction_log_lift

    lnb = math.log(base)
    px = jd.p_x
    q = px[px > 0]
    stay = 1 - a + a * q
    with np.errstate(divide="ignore", invalid="ignore"):
        fresh = a * (1 - q) * math.log(a) if a > 0 else 0.0
        mi = float((q * (stay * np.log(stay / q) + fresh)).sum())
    return MarkovReduction(alpha=a, base=base, public_labels=jd.public_labels, sensitive_labels=jd.sensitive_labels,
                           p_x=px, ldp=reduction_ldp(jd, a, base=base), log_lift=reduction_log_lift(jd, a, base=base),
                           ldp_x=ldp(jd, base=base), log_lift_x=max_abs_log_lift(jd, base=base),
                           tv=max(a * (1 - float((px ** 2).sum())), 0.0), mutual_information_xy=max(mi, 0.0) / lnb,
                           entropy_x=float(-(q * np.log(q)).sum()) / lnb)


def _linear_run(jd, o):
    from .stochastic.linear_kernels import _check_alpha
    from .stochastic.linear_mechanism import linear_reduction

    a = _check_alpha(o["alpha"])
    b = _base(o)
    if o["scheme"] == "markov":
        return _markov_reduction(jd, a, b)
    n_s, n_x = jd.shape
    if n_s * n_x * n_x > OPTIMAL_KERNEL_MAX_ENTRIES:
        raise InputError(f"--scheme optimal builds a |S| x |X| x |X| kernel ({n_s} x {n_x} x {n_x} entries), more than "
                         f"{OPTIMAL_KERNEL_MAX_ENTRIES:,}; use --scheme markov for a table this size")
    return linear_reduction(jd, a, "optimal", base=b)


def _linear_release(r, o):
    from ..release.randomised import RandomisedRelease

    return RandomisedRelease.from_result(r, o["seed"])


def _linear_figures(r, o) -> dict:
    return {"alpha": r.alpha, "scheme": o["scheme"], "seed": o["seed"], "base": o["base"], "ldp": r.ldp,
            "log_lift": r.log_lift, "ldp_x": r.ldp_x, "log_lift_x": r.log_lift_x, "tv": r.tv,
            "mutual_information_xy": r.mutual_information_xy,
            "guarantee": f"the kernel gives L^LDP(S -> Y) = {r.ldp:.6g} and L^LL(S -> Y) = {r.log_lift:.6g} "
                         f"(publishing X: {r.ldp_x:.6g} and {r.log_lift_x:.6g})"}


def _linear_audit(ctx: AuditContext):
    a, o = ctx.randomised, ctx.options
    figures = {"alpha": ctx.result.alpha, "scheme": o["scheme"], "seed": o["seed"], "base": o["base"],
               "ldp": a.get("ldp"), "log_lift": a.get("log_lift"), "rows": a["rows"],
               "outside_support": a["outside_support"], "empirical": a.get("empirical"),
               "guarantee": (f"the kernel of mapping.json on the table's distribution: L^LDP(S -> Y) = {a.get('ldp', math.nan):.6g}, "
                             f"L^LL(S -> Y) = {a.get('log_lift', math.nan):.6g}; every released value in its row's kernel support")}
    return figures, list(a["problems"])


# ---------------------------------------------------------------------- agglomerative (paper 003)
def _agglomerative_run(jr, o):
    from .quantization.agglomerative import agglomerate

    if o["lam"] is None:
        raise InputError("the Python entry runs agglomerative at a given --lam; graphpriv sanitize also chooses it "
                         "from --min-utility")
    return agglomerate(jr, o["objective"], o["lam"], o["utility"])


def _agglomerative_release(r, o):
    from ..release.mapping import Release

    return Release.from_result(r, o["release"])


_E_OR_2 = ("e", "2")

register_mechanism(MechanismSpec(
    name="agglomerative", summary="merge public values greedily, minimising privacy - λ·utility (non-stochastic)",
    paper="Ding & Farokhi, Developing Non-Stochastic Privacy-Preserving Policies Using Agglomerative Clustering, "
          "IEEE TIFS 15 (2020), Algorithms 1-2 and Section V-C", citation="agglomerative",
    options=(MechanismOption("objective", str, REQUIRED, "privacy objective", ("L0", "I*", "L0|I*=0")),
             MechanismOption("utility", str, REQUIRED, "utility", ("U1", "U2")),
             MechanismOption("lam", float, None, "Lagrange multiplier λ >= 0"),
             MechanismOption("min_utility", float, None, "choose λ from the frontier"),
             MechanismOption("release", str, None, "released form", ("label", "codeword", "id")),
             MechanismOption("search", str, "greedy", "greedy or interval", ("greedy", "interval"))),
    release_kind="labels", guarantee="L0 or I* of the released table no worse than the mechanism's (audited)",
    run=_agglomerative_run, release=_agglomerative_release, input="range"))

register_mechanism(MechanismSpec(
    name="watchdog", summary="publish the symbols with max |log-lift| <= eps, merge the rest into one (X_eps^c)",
    paper="Sadeghi, Ding & Rakotoarivelo, On Properties and Optimization of Information-theoretic Privacy Watchdog, "
          "ITW 2020, eq. (1) and Theorem 1", citation="watchdog",
    options=(MechanismOption("eps", float, REQUIRED, "log-lift threshold eps >= 0, in the unit of --base"),
             MechanismOption("base", str, "e", "log base: e (nats) or 2 (bits)", _E_OR_2)),
    release_kind="labels", guarantee="eps_eff = max(eps, eps^c): published symbols <= eps, the merged one eps^c",
    run=_watchdog_run, release=merge_release, figures=_watchdog_figures, audit=_watchdog_audit))

register_mechanism(MechanismSpec(
    name="eps-delta", summary="(eps, delta) log-lift partitioning: peel symbols off X_eps^c while Delta_total <= delta",
    paper="Sadeghi, Ding & Rakotoarivelo, On Properties and Optimization of Information-theoretic Privacy Watchdog, "
          "ITW 2020, Algorithm 1", citation="watchdog",
    options=(MechanismOption("eps", float, REQUIRED, "log-lift threshold eps >= 0, in the unit of --base"),
             MechanismOption("delta", float, REQUIRED, "allowed breach probability delta in [0, 1)"),
             MechanismOption("eps_bar", float, math.inf, "cap on the abs-log-lift of every released symbol (default inf)"),
             MechanismOption("base", str, "e", "log base: e (nats, the paper's unit) or 2 (bits)", _E_OR_2)),
    release_kind="labels", guarantee="Delta_total <= delta and eps_eff <= eps_bar",
    run=_eps_delta_run, release=merge_release, figures=_eps_delta_figures, audit=_eps_delta_audit))

register_mechanism(MechanismSpec(
    name="linear-reduction", summary="randomise X so that P_{Y|S} = (1 - alpha) P_{X|S} + alpha P_X (seeded draws per row)",
    paper="Ding, Liu & Farokhi, A Linear Reduction Method for Local Differential Privacy and Log-lift, ISIT 2021, "
          "eq. (3), Lemma 1 and Sec. III-B", citation="linear_reduction",
    options=(MechanismOption("alpha", float, REQUIRED, "reduction level alpha in (0, 1]"),
             MechanismOption("scheme", str, "markov", "markov (Lemma 1) or optimal (non-Markov, Proposition 1)",
                             ("markov", "optimal")),
             MechanismOption("seed", int, REQUIRED, "seed of numpy.random.default_rng (the same seed writes the same file)"),
             MechanismOption("base", str, "2", "log base of the figures: 2 (bits, the paper's unit) or e", _E_OR_2)),
    release_kind="randomised", guarantee="the kernel's exact LDP and log-lift; every released y in its row's kernel support",
    run=_linear_run, release=_linear_release, figures=_linear_figures, audit=_linear_audit))

# The follow-up merge mechanisms (privacy funnel, subset-merging watchdog, alpha-lift watchdog): one module
# holds their run, figures and audit; it registers them here.
from .stochastic import followup_entries as _followup_entries  # noqa: E402

_followup_entries.register(_sys.modules[__name__])
