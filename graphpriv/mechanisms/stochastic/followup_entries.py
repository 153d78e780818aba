"""What ``sanitize --mechanism funnel|watchdog-subset|alpha-watchdog`` needs: run, figures and audit of each.

The three follow-up merge mechanisms -- the privacy funnel (Ding & Sadeghi, ITW 2019), subset merging for
the watchdog (Zarrabian, Ding, Sadeghi & Rakotoarivelo, ICASSP 2022) and the α-lift watchdog (Ding,
Zarrabian & Sadeghi, arXiv:2101.10551) -- release labels: each block of two or more public values is
written as one generalisation label. Their audits recompute the promised figures from the written
table's (s, x) counts and the partition found in it (:func:`release_measures`), never from the
mechanism's own numbers.

:func:`register` adds the three entries to a mechanism registry (a module with ``MechanismSpec``,
``MechanismOption``, ``REQUIRED``, ``register_mechanism`` and ``merge_release``); :data:`OPTIONS` lists
each mechanism's options as ``(name, type, default, help, choices)``.
"""

from __future__ import annotations

import math

import numpy as np

from ._partition_common import measures_of_columns

__all__: list[str] = []

#: Marks an option without a default (the registry's own marker replaces it in :func:`register`).
REQUIRED = "required"

#: Options of each mechanism: (name, type, default, help, choices).
OPTIONS = {
    "funnel": (
        ("lam", float, REQUIRED, "λ >= 0 of I(S;Y) - λ I(X;Y) (β of I(X;Y) - β I(S;Y) with --lagrangian bottleneck)", None),
        ("method", str, "greedy", "greedy (best pair per step, the paper's baseline) or subset", ("greedy", "subset")),
        ("lagrangian", str, "funnel", "funnel (privacy funnel) or bottleneck (information bottleneck)", ("funnel", "bottleneck")),
        ("base", str, "2", "log base of the figures: 2 (bits) or e", ("e", "2")),
    ),
    "watchdog-subset": (
        ("eps", float, REQUIRED, "threshold on max |log-lift|, in the unit of --base", None),
        ("base", str, "e", "log base: e (nats, the paper's unit) or 2 (bits)", ("e", "2")),
    ),
    "alpha-watchdog": (
        ("eps", float, REQUIRED, "threshold on log alpha-lift, in the unit of --base", None),
        ("alpha", float, math.inf, "order alpha > 0 of the alpha-lift (inf: the one-sided max-lift)", None),
        ("base", str, "e", "log base: e (nats, the paper's unit) or 2 (bits)", ("e", "2")),
    ),
}

_PAPERS = {
    "funnel": ("Ding & Sadeghi, A Submodularity-based Clustering Algorithm for the Information Bottleneck and "
               "Privacy Funnel, ITW 2019, Secs. III-IV", "privacy_funnel",
               "merge public values while I(S;Y) - λ I(X;Y) decreases (pairwise or subset merges)",
               "I(S;Y) and I(X;Y) of the written table equal the mechanism's"),
    "watchdog-subset": ("Zarrabian, Ding, Sadeghi & Rakotoarivelo, Enhancing Utility in the Watchdog Privacy "
                        "Mechanism, ICASSP 2022", "watchdog_subsets",
                        "split the high-risk values into subsets, each eps-private when merged",
                        "max |log-lift| <= eps wherever complete merging reaches it; I(X;Y) >= complete merging's"),
    "alpha-watchdog": ("Ding, Zarrabian & Sadeghi, alpha-Information-theoretic Privacy Watchdog and Optimal "
                       "Privatization Scheme, arXiv:2101.10551", "alpha_watchdog",
                       "merge {x : alpha-lift > e^eps} into one value (alpha = inf: max-lift, one-sided)",
                       "every value published as it is has log alpha-lift <= eps; one merged value"),
}


def _base(options) -> float:
    b = options.get("base", "e")
    if isinstance(b, str):
        return math.e if b == "e" else float(b)
    return float(b)


def release_measures(counts, partition, *, base: float = 2.0) -> dict:
    """Figures of a table whose public values are merged by ``partition``, from its (s, x) counts.

    Parameters
    ----------
    counts : array or scipy sparse (|S|, |X|)
        Rows per (s, x).
    partition : sequence of sequences of public codes
        The blocks found in the written table; codes in no block are released as they are.
    base : float

    Returns
    -------
    dict
        ``I_S_Y``, ``I_X_Y`` (= H(Y)), ``max_abs_log_lift``, ``block_of`` (block id per code) and
        ``joint`` (the released joint pmf, |S| x |Y|).
    """
    import scipy.sparse as sp

    C = sp.csr_array(counts).astype(float).toarray() if sp.issparse(counts) else np.asarray(counts, dtype=float)
    C = C / C.sum()
    n_x = C.shape[1]
    block = np.full(n_x, -1, dtype=np.int64)
    for k, b in enumerate(partition):
        block[np.asarray(list(b), dtype=np.int64)] = k
    rest = np.flatnonzero(block < 0)
    block[rest] = len(partition) + np.arange(rest.size)
    Q = np.zeros((C.shape[0], int(block.max()) + 1 if n_x else 0))
    np.add.at(Q.T, block, C.T)
    m = measures_of_columns(Q, C.sum(axis=1))
    lnb = math.log(base)
    return {"I_S_Y": m["I_S"] / lnb, "I_X_Y": m["H"] / lnb, "max_abs_log_lift": m["max_abs_log_lift"] / lnb,
            "block_of": block, "joint": Q}


def _close(a: float, b: float, tol: float = 1e-9) -> bool:
    return abs(a - b) <= tol * max(1.0, abs(a), abs(b))


# ----------------------------------------------------------------------------- funnel
def funnel_run(jd, options):
    from .funnel import information_bottleneck, privacy_funnel

    f = privacy_funnel if options.get("lagrangian", "funnel") == "funnel" else information_bottleneck
    return f(jd, options["lam"], options.get("method", "greedy"), base=_base(options))


def funnel_figures(result, options) -> dict:
    return {"objective": result.objective, "lam": result.lam, "method": result.method, "base": options.get("base"),
            "I_S_Y": result.privacy, "I_X_Y": result.utility, "L": result.L,
            "max_abs_log_lift": result.max_abs_log_lift, "n_blocks": result.n_blocks,
            "guarantee": f"I(S;Y) = {result.privacy:.6g} and I(X;Y) = {result.utility:.6g} "
                         f"(L = {result.L:.6g} at {'λ' if result.objective == 'privacy funnel' else 'β'} = {result.lam:g})"}


def funnel_audit(result, options, counts, partition) -> tuple[dict, list[str]]:
    """(figures from the file, problems): I(S;Y) and I(X;Y) of the written table against the mechanism's."""
    g = release_measures(counts, partition, base=_base(options))
    problems = []
    if not (_close(g["I_S_Y"], result.privacy) and _close(g["I_X_Y"], result.utility)):
        problems.append(f"the written table gives I(S;Y) = {g['I_S_Y']:.6g} and I(X;Y) = {g['I_X_Y']:.6g}; the "
                        f"mechanism computed {result.privacy:.6g} and {result.utility:.6g}")
    figures = {"I_S_Y": g["I_S_Y"], "I_X_Y": g["I_X_Y"], "max_abs_log_lift": g["max_abs_log_lift"],
               "base": options.get("base"), "n_released": int(g["joint"].shape[1]),
               "guarantee": f"from the file: I(S;Y) = {g['I_S_Y']:.6g}, I(X;Y) = {g['I_X_Y']:.6g}"}
    return figures, problems


# ----------------------------------------------------------------------------- subset watchdog
def subset_run(jd, options):
    from .subset_watchdog import watchdog_subsets

    return watchdog_subsets(jd, options["eps"], base=_base(options))


def subset_figures(result, options) -> dict:
    return {"eps": result.eps, "base": options.get("base"), "eps_eff": result.eps_eff,
            "subset_eps": list(result.subset_eps), "n_subsets": len(result.subsets),
            "mutual_information_xy": result.mutual_information,
            "mutual_information_xy_complete_merge": result.complete_merge_mutual_information,
            "guarantee": (f"max |log-lift| = {result.eps_eff:.6g} <= eps = {result.eps:g}" if result.eps_eff <= result.eps
                          else f"max |log-lift| = {result.eps_eff:.6g}: not even complete merging reaches eps = "
                               f"{result.eps:g}") + f"; I(X;Y) = {result.mutual_information:.6g} against "
                                                     f"{result.complete_merge_mutual_information:.6g} for complete merging"}


def subset_audit(result, options, counts, partition) -> tuple[dict, list[str]]:
    """(figures from the file, problems): the written table's max |log-lift| against eps (or eps_eff)."""
    g = release_measures(counts, partition, base=_base(options))
    bound = max(result.eps, result.eps_eff)
    problems = []
    if g["max_abs_log_lift"] > bound * (1 + 1e-9) + 1e-12:
        problems.append(f"the written table's max |log-lift| is {g['max_abs_log_lift']:.6g} > {bound:.6g}")
    if not _close(g["I_X_Y"], result.mutual_information):
        problems.append(f"the written table gives I(X;Y) = {g['I_X_Y']:.6g}; the mechanism computed "
                        f"{result.mutual_information:.6g}")
    figures = {"eps": result.eps, "base": options.get("base"), "eps_eff": g["max_abs_log_lift"], "I_X_Y": g["I_X_Y"],
               "I_S_Y": g["I_S_Y"], "n_released": int(g["joint"].shape[1]),
               "guarantee": f"from the file: max |log-lift| = {g['max_abs_log_lift']:.6g} (bound {bound:.6g})"}
    return figures, problems


# ----------------------------------------------------------------------------- alpha-lift watchdog
def alpha_run(jd, options):
    from .alpha_lift_watchdog import alpha_watchdog

    return alpha_watchdog(jd, options["eps"], options.get("alpha", math.inf), base=_base(options))


def alpha_figures(result, options) -> dict:
    return {"eps": result.eps, "alpha": result.alpha, "base": options.get("base"),
            "max_log_alpha_lift": result.max_log_alpha_lift, "merged_log_alpha_lift": result.merged_log_alpha_lift,
            "max_abs_log_lift": result.max_abs_log_lift, "sibson": result.sibson,
            "mutual_information_xy": result.mutual_information, "n_published": int(result.published.sum()),
            "n_merged": int((~result.published).sum()),
            "guarantee": f"values published as they are have log alpha-lift <= eps = {result.eps:g}; the merged value "
                         f"{result.merged_log_alpha_lift:.6g} (one-sided: small lifts are not protected)"}


def alpha_audit(result, options, counts, partition) -> tuple[dict, list[str]]:
    """(figures from the file, problems): log alpha-lift of every released value, one merged block at most."""
    from .alpha_lift_watchdog import _log_alpha_lift_cols

    b = _base(options)
    g = release_measures(counts, partition, base=b)
    Q = g["joint"]
    la = _log_alpha_lift_cols(Q, Q.sum(axis=1), result.alpha) / math.log(b)
    merged = [k for k, blk in enumerate(partition) if len(list(blk)) > 1]
    problems = [f"released value {k} (published as it is) has log alpha-lift {la[k]:.6g} > eps = {result.eps:g}"
                for k in range(Q.shape[1]) if k not in merged and np.isfinite(la[k]) and la[k] > result.eps + 1e-9]
    if len(merged) > 1:
        problems.append(f"the file merges {len(merged)} blocks; the alpha-lift watchdog merges one")
    top = float(np.nanmax(la)) if np.isfinite(la).any() else 0.0
    figures = {"eps": result.eps, "alpha": result.alpha, "base": options.get("base"), "max_log_alpha_lift": top,
               "I_X_Y": g["I_X_Y"], "n_released": int(Q.shape[1]),
               "guarantee": f"from the file: max log alpha-lift = {top:.6g}"}
    return figures, problems


_FUNCTIONS = {
    "funnel": (funnel_run, funnel_figures, funnel_audit),
    "watchdog-subset": (subset_run, subset_figures, subset_audit),
    "alpha-watchdog": (alpha_run, alpha_figures, alpha_audit),
}


def register(registry) -> list:
    """Register the three mechanisms in ``registry`` (the mechanism registry module, or any object with
    ``MechanismSpec``, ``MechanismOption``, ``REQUIRED``, ``register_mechanism`` and ``merge_release``).
    Returns the specs registered."""
    out = []
    for name, (paper, citation, summary, guarantee) in _PAPERS.items():
        run, figures, audit = _FUNCTIONS[name]
        opts = tuple(registry.MechanismOption(n, t, registry.REQUIRED if d == REQUIRED else d, h, c)
                     for n, t, d, h, c in OPTIONS[name])

        def _audit(ctx, _a=audit):
            return _a(ctx.result, ctx.options, ctx.counts, ctx.partition)

        spec = registry.MechanismSpec(
            name=name, summary=summary, paper=paper, citation=citation, options=opts, release_kind="labels",
            guarantee=guarantee, run=run, release=registry.merge_release, figures=figures, audit=_audit)
        out.append(registry.register_mechanism(spec))
    return out
