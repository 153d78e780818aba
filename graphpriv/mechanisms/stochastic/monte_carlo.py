"""Monte-Carlo over random joint pmfs behind the watchdog's Figs. 1 and 2.

Sadeghi, Ding & Rakotoarivelo, *On Properties and Optimization of Information-theoretic Privacy
Watchdog*, Sec. V, Figs. 1-2: per random draw, the abs-log-lift of X_eps^c before and after the
optimal X-invariant merge, and the NMIL of the plain watchdog and of Algorithm 1 under several
(eps, delta, eps_bar) settings. Draws are made in batches, batch b from the b-th child of
``numpy.random.SeedSequence(seed)``, so the result is the same on every backend.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from functools import partial

import numpy as np
import pandas as pd

from ...distributions import JointDistribution
from ...errors import InputError, InputTypeError
from ...measures.stochastic import LOG_LIFT_ATOL as _ATOL, _check_eps
from ...parallel import parallel_map
from .eps_delta import _check_delta, _check_eps_bar, _greedy_core
from .log_lift_sets import _Prep, _base, _nmil_mask
from ...citations import record_use

__all__ = ["EpsDeltaSetting", "PAPER002_FIG2_SETTINGS", "WatchdogMonteCarlo", "watchdog_monte_carlo"]


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


def _mc_batch(task, shape, scheme: str, settings, fig1_eps: float, lnb: float):
    seed_seq, n = task
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
                         seed=2021, base: float = math.e, n_jobs: int = 1, backend: str | None = None, client=None,
                         batch_size: int = 250, progress: bool | None = False) -> WatchdogMonteCarlo:
    """Monte-Carlo behind paper 002's Figs. 1 and 2, in parallel with joblib or on a dask cluster.

    Draws ``n_draws`` random joint pmfs (``JointDistribution.random``; the default "uniform" law is the one
    that reproduces the paper's Sec. V claims; a flat Dirichlet does not) and records, per draw, Fig. 1's blue
    and yellow values at ``fig1_eps`` and the NMIL of every setting (plain watchdog or Algorithm 1; delta is
    raised to delta0 if needed).

    Parameters
    ----------
    n_jobs : int
        joblib workers (-1: all cores). Results do not depend on ``n_jobs``, ``backend`` or
        ``client``: batch b always uses the b-th child of ``numpy.random.SeedSequence(seed)``.
    backend : str, optional
        joblib backend (e.g. "loky", "threading"; "dask" for the default ``distributed.Client``).
    client : distributed.Client or str, optional
        Run the batches on this dask cluster (a Client or a scheduler address).
    progress : bool or None
        tqdm progress bar over batches (None: only on a terminal).

    Examples
    --------
    >>> import graphpriv as gp
    >>> mc = gp.watchdog_monte_carlo(40, seed=1, batch_size=20)
    >>> mc.nmil.shape, list(mc.fig1.columns)
    ((40, 5), ['blue', 'yellow', 'n_randomized', 'delta0'])
    """
    record_use("watchdog")  # for gp.cite()
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
    run = partial(_mc_batch, shape=(n_sensitive, n_public), scheme=scheme, settings=settings, fig1_eps=fig1_eps, lnb=lnb)
    out = parallel_map(run, list(zip(children, sizes)), n_jobs=n_jobs, backend=backend, client=client, progress=progress,
                       desc="watchdog Monte-Carlo")
    nm = np.vstack([o[0] for o in out])
    dt = np.vstack([o[1] for o in out])
    ee = np.vstack([o[2] for o in out])
    f1 = np.vstack([o[3] for o in out])
    labels = [s.label for s in settings]
    diag = pd.concat({"delta_total": pd.DataFrame(dt, columns=labels), "eps_eff": pd.DataFrame(ee, columns=labels)}, axis=1)
    fig1 = pd.DataFrame({"blue": f1[:, 0], "yellow": f1[:, 1], "n_randomized": f1[:, 2].astype(int), "delta0": f1[:, 3]})
    return WatchdogMonteCarlo(settings=settings, nmil=pd.DataFrame(nm, columns=labels), fig1=fig1, diagnostics=diag,
                              fig1_eps=float(fig1_eps), shape=(n_sensitive, n_public), scheme=scheme, seed=seed, base=b)
