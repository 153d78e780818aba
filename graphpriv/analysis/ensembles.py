"""Random joint-range ensembles and a Monte-Carlo driver for I*, component counts and strength.

How does the maximin information I*(S;X) = log2 |P*_{G_X}| (paper 003, Lemma 2) behave on random
data? The generators here draw random joint ranges [[S, X]] (random bipartite support graphs):

* :func:`random_joint_range` -- each (s, x) pair present independently with probability ``p``
  (bipartite Erdos--Renyi), the analogue of G(n, p);
* :func:`random_degree_range` -- prescribed degrees |[[X|s]]| and |[[S|x]]| (a uniform-ish simple
  bipartite graph by degree-preserving swaps);
* :func:`random_block_range` -- a block (stochastic block) model: pairs inside a block with
  probability ``p_in``, across blocks with ``p_out``.

A :class:`JointRange` requires every label to occur in a pair. ``empty=`` decides what happens to a
label the draw leaves without a pair (see :data:`EMPTY_POLICIES`): ``"attach"`` (default) gives it one
pair with a uniformly random partner, so |S| and |X| stay as asked; ``"drop"`` removes it; and
``"resample"`` redraws the whole range until no label is empty (the exact conditional law; refused
after ``max_tries`` draws).

:func:`ensemble_study` is the Monte-Carlo driver: for each density it draws ``n_samples`` ranges and
records I*, the number of components and (optionally) the network strength of G_X. Every draw gets
its own child of ``np.random.SeedSequence(seed).spawn``, so results are the same for any ``n_jobs``
and any backend, a dask cluster included (``client=``).
"""

from __future__ import annotations

import logging
import math
from dataclasses import dataclass, field
from functools import partial
from typing import Callable, Sequence

import numpy as np
import pandas as pd
import scipy.sparse as sp

from ..errors import InputError, InputTypeError, TooLargeError
from ..parallel import parallel_map, resolve_client, worker_count
from ..ranges import JointRange

__all__ = [
    "EMPTY_POLICIES",
    "ENSEMBLE_MEASURES",
    "random_joint_range",
    "random_degree_range",
    "random_block_range",
    "EnsembleStudy",
    "ensemble_study",
]

logger = logging.getLogger(__name__)

#: What to do with a label that a random draw leaves without any pair.
EMPTY_POLICIES = ("attach", "drop", "resample")
#: Quantities :func:`ensemble_study` can record per draw.
ENSEMBLE_MEASURES = ("I_star", "n_components", "strength", "edge_connectivity", "pairs_to_decompose", "n_pairs")


# ---------------------------------------------------------------------------------------------- helpers
def _rng(seed) -> np.random.Generator:
    if isinstance(seed, np.random.Generator):
        return seed
    try:
        return np.random.default_rng(seed)
    except (TypeError, ValueError) as exc:
        raise InputTypeError(f"seed must be None, an int, a SeedSequence or a numpy Generator, got {seed!r} ({exc})") from None


def _check_size(n, name: str) -> int:
    if isinstance(n, bool) or not isinstance(n, (int, np.integer)):
        raise InputTypeError(f"{name} must be a positive integer, got {n!r}")
    if n < 1:
        raise InputError(f"{name} must be >= 1, got {n}")
    return int(n)


def _check_prob(p, name: str) -> float:
    try:
        pf = float(p)
    except (TypeError, ValueError):
        raise InputTypeError(f"{name} must be a probability in [0, 1], got {p!r}") from None
    if not (0.0 <= pf <= 1.0):
        raise InputError(f"{name} must be a probability in [0, 1], got {p!r}")
    return pf


def _check_empty(empty: str) -> str:
    if empty not in EMPTY_POLICIES:
        raise InputError(f"empty={empty!r} must be one of {EMPTY_POLICIES}")
    return empty


def _labels(n: int, prefix: str) -> np.ndarray:
    return np.array([f"{prefix}{i + 1}" for i in range(n)], dtype=object)


def _finish(m: np.ndarray, rng: np.random.Generator, empty: str) -> JointRange | None:
    """Apply the empty-label policy to a dense boolean matrix; None means 'resample'."""
    n_s, n_x = m.shape
    empty_x = ~m.any(axis=0)
    empty_s = ~m.any(axis=1)
    if not empty_x.any() and not empty_s.any():
        return JointRange(sp.csr_array(m), _labels(n_s, "s"), _labels(n_x, "x"))
    if empty == "resample":
        return None
    if empty == "attach":
        m = m.copy()
        cols = np.flatnonzero(empty_x)
        m[rng.integers(0, n_s, size=len(cols)), cols] = True
        rows = np.flatnonzero(~m.any(axis=1))
        m[rows, rng.integers(0, n_x, size=len(rows))] = True
        return JointRange(sp.csr_array(m), _labels(n_s, "s"), _labels(n_x, "x"))
    keep_s, keep_x = ~empty_s, ~empty_x
    if not keep_s.any():
        raise InputError("the draw has no pair at all and empty='drop' leaves nothing; raise p or use empty='attach'")
    return JointRange(sp.csr_array(m[np.ix_(keep_s, keep_x)]), _labels(n_s, "s")[keep_s], _labels(n_x, "x")[keep_x])


def _draw_until(draw: Callable[[], np.ndarray], rng, empty: str, max_tries: int) -> JointRange:
    for _ in range(max_tries if empty == "resample" else 1):
        jr = _finish(draw(), rng, empty)
        if jr is not None:
            return jr
    raise TooLargeError(
        f"empty='resample' drew {max_tries} ranges and each left a label without a pair; the density is too low "
        f"for rejection sampling -- raise p, raise max_tries, or use empty='attach'"
    )


# ---------------------------------------------------------------------------------------------- generators
def random_joint_range(n_sensitive: int, n_public: int, p: float, seed=None, *, empty: str = "attach",
                       max_tries: int = 1000) -> JointRange:
    """A random joint range: each pair (s, x) present independently with probability ``p``.

    The support graph is a bipartite Erdos--Renyi graph G(|S|, |X|, p). Labels are ``s1..`` and ``x1..``.

    Parameters
    ----------
    n_sensitive, n_public : int
        |[[S]]| and |[[X]]|.
    p : float in [0, 1]
        Probability that a pair occurs (the density of the support).
    seed : None, int, SeedSequence or numpy Generator
        Source of randomness; the same seed gives the same range.
    empty : {"attach", "drop", "resample"}
        A label left without any pair is (``"attach"``, default) given one pair with a uniformly random
        partner -- first every empty public value gets a random sensitive value, then every still-empty
        sensitive value a random public value -- so the range has exactly ``n_sensitive`` x ``n_public``
        labels; (``"drop"``) removed; or (``"resample"``) the whole draw is repeated (exact conditional
        law given that every label occurs; at most ``max_tries`` draws, then ``TooLargeError``).
    max_tries : int
        Draws allowed by ``empty="resample"``.

    Returns
    -------
    JointRange

    Examples
    --------
    >>> import graphpriv as gp
    >>> jr = gp.random_joint_range(50, 10, 0.02, seed=1)
    >>> jr.shape, jr.n_pairs >= 10
    ((50, 10), True)
    >>> jr == gp.random_joint_range(50, 10, 0.02, seed=1)
    True
    >>> gp.maximin_information(gp.random_joint_range(40, 8, 1.0, seed=0))   # complete: I* = 0
    0.0

    Notes
    -----
    O(|S| |X|) time and memory (a dense draw); for sparse, very large ranges build the pairs yourself.
    Under ``"attach"`` the law is G(|S|, |X|, p) plus the attachments, which matter only when
    p |S| or p |X| is small (then they tie every public value to at least one sensitive value).
    """
    n_s = _check_size(n_sensitive, "n_sensitive")
    n_x = _check_size(n_public, "n_public")
    pf = _check_prob(p, "p")
    _check_empty(empty)
    rng = _rng(seed)
    return _draw_until(lambda: rng.random((n_s, n_x)) < pf, rng, empty, max_tries)


def _gale_ryser(ds: np.ndarray, dx: np.ndarray) -> np.ndarray:
    """A deterministic bipartite realisation of degree sequences (Havel--Hakimi / Gale--Ryser greedy)."""
    n_s, n_x = len(ds), len(dx)
    m = np.zeros((n_s, n_x), dtype=bool)
    rem = dx.astype(np.int64).copy()
    for i in np.argsort(-ds, kind="stable"):
        d = int(ds[i])
        if d == 0:
            continue
        order = np.lexsort((np.arange(n_x), -rem))  # largest remaining first, ties by index
        targets = order[:d]
        if d > n_x or rem[targets].min() <= 0:
            raise InputError("the degree sequences are not bipartite-graphical (Gale-Ryser fails); check them")
        m[i, targets] = True
        rem[targets] -= 1
    if rem.any():
        raise InputError("the degree sequences are not bipartite-graphical (Gale-Ryser fails); check them")
    return m


def random_degree_range(sensitive_degrees: Sequence[int], public_degrees: Sequence[int], seed=None, *,
                        n_swaps: int | None = None) -> JointRange:
    """A random joint range with prescribed degrees |[[X|s]]| and |[[S|x]]| (fixed degree sequences).

    A deterministic realisation (Gale--Ryser greedy) is randomised by ``n_swaps`` degree-preserving
    checkerboard swaps (s1, x1), (s2, x2) -> (s1, x2), (s2, x1) (a Markov chain whose stationary law is
    uniform over the simple bipartite graphs with these degrees).

    Parameters
    ----------
    sensitive_degrees, public_degrees : sequences of int >= 1
        Same total; every label needs degree >= 1 (a joint range has no empty label).
    seed : None, int, SeedSequence or numpy Generator
    n_swaps : int, optional
        Swap attempts; default ``10 * pairs``.

    Raises
    ------
    InputError
        Degrees < 1, different totals, or not realisable.

    Examples
    --------
    >>> import graphpriv as gp
    >>> jr = gp.random_degree_range([2, 2, 2], [1, 1, 2, 2], seed=0)
    >>> jr.sensitive_degrees.tolist(), jr.public_degrees.tolist()
    ([2, 2, 2], [1, 1, 2, 2])
    """
    ds = np.asarray(sensitive_degrees)
    dx = np.asarray(public_degrees)
    for arr, name in ((ds, "sensitive_degrees"), (dx, "public_degrees")):
        if arr.ndim != 1 or arr.size == 0 or not np.issubdtype(arr.dtype, np.integer):
            raise InputTypeError(f"{name} must be a non-empty sequence of integers")
        if (arr < 1).any():
            raise InputError(f"{name} must all be >= 1 (a joint range has no label without a pair)")
    if ds.sum() != dx.sum():
        raise InputError(f"the degree sums differ (sensitive {int(ds.sum())}, public {int(dx.sum())}); both count the pairs")
    if ds.max() > len(dx) or dx.max() > len(ds):
        raise InputError("a degree exceeds the number of labels on the other side; the sequences are not realisable")
    rng = _rng(seed)
    m = _gale_ryser(ds, dx)
    rows, cols = np.nonzero(m)
    n_pairs = len(rows)
    n_swaps = 10 * n_pairs if n_swaps is None else int(n_swaps)
    for _ in range(n_swaps):
        a, b = rng.integers(0, n_pairs, size=2)
        s1, x1, s2, x2 = rows[a], cols[a], rows[b], cols[b]
        if s1 == s2 or x1 == x2 or m[s1, x2] or m[s2, x1]:
            continue
        m[s1, x1] = m[s2, x2] = False
        m[s1, x2] = m[s2, x1] = True
        cols[a], cols[b] = x2, x1
    return JointRange(sp.csr_array(m), _labels(len(ds), "s"), _labels(len(dx), "x"))


def random_block_range(sensitive_blocks: Sequence[int], public_blocks: Sequence[int], p_in: float, p_out: float,
                       seed=None, *, empty: str = "attach", max_tries: int = 1000) -> JointRange:
    """A block-structured random joint range (bipartite stochastic block model).

    Sensitive block k has ``sensitive_blocks[k]`` values and public block k ``public_blocks[k]``; a pair
    inside a block occurs with probability ``p_in`` and across blocks with ``p_out``. With ``p_out = 0``
    the blocks are never confusable, so I* >= log2(#blocks) once every block is internally connected:
    the planted-partition view of decomposability.

    Parameters
    ----------
    sensitive_blocks, public_blocks : sequences of int, same length
    p_in, p_out : float in [0, 1]
    seed, empty, max_tries
        As in :func:`random_joint_range` (attachments stay within the label's own block).

    Examples
    --------
    >>> import graphpriv as gp
    >>> jr = gp.random_block_range([10, 10, 10], [5, 5, 5], 0.8, 0.0, seed=2)
    >>> gp.n_components(jr)
    3
    """
    bs = np.asarray(sensitive_blocks)
    bx = np.asarray(public_blocks)
    if bs.ndim != 1 or bx.ndim != 1 or len(bs) != len(bx) or len(bs) == 0:
        raise InputError("sensitive_blocks and public_blocks must be non-empty sequences of the same length (one size per block)")
    if not (np.issubdtype(bs.dtype, np.integer) and np.issubdtype(bx.dtype, np.integer)) or (bs < 1).any() or (bx < 1).any():
        raise InputError("block sizes must be integers >= 1")
    pin, pout = _check_prob(p_in, "p_in"), _check_prob(p_out, "p_out")
    _check_empty(empty)
    rng = _rng(seed)
    gs = np.repeat(np.arange(len(bs)), bs)
    gx = np.repeat(np.arange(len(bx)), bx)
    prob = np.where(gs[:, None] == gx[None, :], pin, pout)

    def draw():
        return rng.random(prob.shape) < prob

    if empty != "attach":
        return _draw_until(draw, rng, empty, max_tries)
    m = draw()
    n_s, n_x = m.shape
    for j in np.flatnonzero(~m.any(axis=0)):
        m[rng.choice(np.flatnonzero(gs == gx[j])), j] = True
    for i in np.flatnonzero(~m.any(axis=1)):
        m[i, rng.choice(np.flatnonzero(gx == gs[i]))] = True
    return JointRange(sp.csr_array(m), _labels(n_s, "s"), _labels(n_x, "x"))


# ---------------------------------------------------------------------------------------------- Monte Carlo
@dataclass(frozen=True)
class EnsembleStudy:
    """Monte-Carlo samples of I*, component counts and strength over a grid of densities.

    Attributes
    ----------
    samples : pandas.DataFrame
        One row per draw: ``density``, ``sample`` (index within the density), and one column per measure
        (``I_star`` in bits, ``n_components``, ``strength`` of G_X, ...).
    n_sensitive, n_public : int
    seed : int or None
        Root of the SeedSequence the draws were spawned from.
    measures : tuple of str
    generator : str
        Name of the generator used.
    """

    samples: pd.DataFrame = field(repr=False)
    n_sensitive: int
    n_public: int
    n_samples: int
    seed: int | None
    measures: tuple
    generator: str = "random_joint_range"

    @property
    def densities(self) -> np.ndarray:
        return np.unique(self.samples["density"].to_numpy())

    def prob_positive(self) -> pd.Series:
        """Estimated P(I* > 0) (G_X decomposable) per density."""
        return (self.samples["n_components"] > 1).groupby(self.samples["density"]).mean().rename("P(I*>0)")

    def summary(self) -> pd.DataFrame:
        """Per density: mean and standard error of I*, P(I* > 0) with its standard error, quantiles of I*,
        mean component count and, when recorded, mean strength."""
        g = self.samples.groupby("density")
        out = pd.DataFrame({
            "n": g.size(),
            "I_star_mean": g["I_star"].mean(),
            "I_star_se": g["I_star"].std(ddof=1) / np.sqrt(g.size()),
            "I_star_q10": g["I_star"].quantile(0.1),
            "I_star_q90": g["I_star"].quantile(0.9),
            "p_positive": self.prob_positive(),
            "n_components_mean": g["n_components"].mean(),
        })
        out["p_positive_se"] = np.sqrt(out["p_positive"] * (1 - out["p_positive"]) / out["n"])
        for col in ("strength", "edge_connectivity", "pairs_to_decompose", "n_pairs"):
            if col in self.samples:
                out[f"{col}_mean"] = g[col].mean()
        return out

    def __repr__(self) -> str:
        return (f"EnsembleStudy({self.generator}, |S|={self.n_sensitive}, |X|={self.n_public}, "
                f"densities={len(self.densities)}, n_samples={self.n_samples}, seed={self.seed})")


def _measure(jr: JointRange, measures: tuple) -> dict:
    from ..graphs.strength import edge_connectivity, network_strength
    from ..graphs.support import components

    c = components(jr).n_components
    row = {"n_components": c}
    if "I_star" in measures:
        row["I_star"] = math.log2(c)
    if "n_pairs" in measures:
        row["n_pairs"] = jr.n_pairs
    if "strength" in measures:
        row["strength"] = network_strength(jr).value if jr.n_public > 1 else 0.0
    if "edge_connectivity" in measures:
        row["edge_connectivity"] = edge_connectivity(jr).value if jr.n_public > 1 else 0
    if "pairs_to_decompose" in measures:
        from ..graphs.strength import pairs_to_decompose

        row["pairs_to_decompose"] = float(pairs_to_decompose(jr).value)
    return row


def _run_batch(tasks, n_sensitive, n_public, generator, gen_kwargs, measures):
    rows = []
    for density, sample, ss in tasks:
        rng = np.random.default_rng(ss)
        jr = generator(n_sensitive, n_public, density, seed=rng, **gen_kwargs)
        rows.append({"density": density, "sample": sample, **_measure(jr, measures)})
    return rows


def ensemble_study(n_sensitive: int, n_public: int, densities: Sequence[float], *, n_samples: int = 100, seed: int | None = 0,
                   measures: Sequence[str] = ("I_star", "n_components", "strength"), generator: Callable | None = None,
                   n_jobs: int = 1, backend: str | None = None, client=None, batch_size: int | None = None,
                   progress: bool = False, **generator_kwargs) -> EnsembleStudy:
    """Monte-Carlo estimate of the distribution of I*, of the component count and of the strength vs density.

    For each density p in ``densities`` draw ``n_samples`` ranges ``generator(n_sensitive, n_public, p,
    seed=rng, **generator_kwargs)`` (default :func:`random_joint_range`) and record ``measures``.

    Parameters
    ----------
    n_sensitive, n_public : int
    densities : sequence of float
        Values of the generator's third argument (the pair probability for :func:`random_joint_range`).
    n_samples : int
        Draws per density.
    seed : int or None
        Root seed. Draw i gets child i of ``np.random.SeedSequence(seed).spawn(len(densities) * n_samples)``,
        so the samples do not depend on ``n_jobs``, ``backend``, ``client`` or ``batch_size``.
    measures : sequence of str
        Subset of :data:`ENSEMBLE_MEASURES`; ``n_components`` is always recorded. ``"strength"`` (network
        strength of G_X), ``"edge_connectivity"`` (of G_X) and ``"pairs_to_decompose"`` (fewest pairs to delete
        for I* > 0; ``inf`` when impossible) cost max-flows; drop them for large ranges.
    generator : callable, optional
        ``generator(n_sensitive, n_public, density, seed=Generator, **generator_kwargs) -> JointRange``.
        Must be importable (picklable) for ``n_jobs != 1``.
    n_jobs : int
        joblib workers (``-1``: all cores).
    backend : str, optional
        joblib backend (``"loky"`` default for processes, ``"threading"``, or ``"dask"`` for the
        default ``distributed.Client``).
    client : distributed.Client or str, optional
        Run the draws on this dask cluster (a Client or a scheduler address); see
        :func:`graphpriv.parallel.parallel_map`. The samples equal the serial run's.
    batch_size : int, optional
        Draws per task (default: spread evenly, about 4 tasks per worker).
    progress : bool
        tqdm progress bar over tasks.

    Returns
    -------
    EnsembleStudy
        ``.samples`` (one row per draw), ``.summary()``, ``.prob_positive()``.

    Examples
    --------
    >>> import graphpriv as gp
    >>> study = gp.ensemble_study(30, 6, [0.01, 0.5], n_samples=20, seed=3, measures=("I_star",))
    >>> study.prob_positive().round(2).tolist()        # sparse: decomposable; dense: connected
    [1.0, 0.0]
    >>> study.samples.equals(gp.ensemble_study(30, 6, [0.01, 0.5], n_samples=20, seed=3, measures=("I_star",), n_jobs=2).samples)
    True

    Notes
    -----
    Each draw costs O(|S| |X|) plus one components pass; ``"strength"`` adds a few times |X| max-flows.
    """
    n_s = _check_size(n_sensitive, "n_sensitive")
    n_x = _check_size(n_public, "n_public")
    n_samples = _check_size(n_samples, "n_samples")
    try:
        dens = [float(d) for d in densities]
    except (TypeError, ValueError):
        raise InputTypeError(f"densities must be a sequence of numbers, got {densities!r}") from None
    if not dens:
        raise InputError("densities is empty; give at least one density")
    if not all(np.isfinite(d) for d in dens):
        raise InputError("densities must be finite numbers")
    meas = tuple(dict.fromkeys(("n_components",) + tuple(measures)))
    bad = [m for m in meas if m not in ENSEMBLE_MEASURES]
    if bad:
        raise InputError(f"unknown measure(s) {bad}; choose from {ENSEMBLE_MEASURES}")
    if "I_star" not in meas:
        meas = meas + ("I_star",)
    gen = random_joint_range if generator is None else generator
    if not callable(gen):
        raise InputTypeError("generator must be a callable (n_sensitive, n_public, density, seed=...) -> JointRange")
    children = np.random.SeedSequence(seed).spawn(len(dens) * n_samples)
    tasks = [(d, k, children[i * n_samples + k]) for i, d in enumerate(dens) for k in range(n_samples)]
    run = partial(_run_batch, n_sensitive=n_s, n_public=n_x, generator=gen, gen_kwargs=generator_kwargs, measures=meas)
    with resolve_client(client, backend) as cl:
        if batch_size is None:
            batch_size = max(1, math.ceil(len(tasks) / (4 * worker_count(n_jobs, cl))))
        batches = [tasks[i:i + batch_size] for i in range(0, len(tasks), batch_size)]
        results = parallel_map(run, batches, n_jobs=n_jobs, backend=backend, client=cl, progress=progress, desc="ensemble")
    rows = [r for batch in results for r in batch]
    df = pd.DataFrame(rows)
    cols = ["density", "sample", "I_star", "n_components"] + [m for m in meas if m not in ("I_star", "n_components")]
    df = df[cols].sort_values(["density", "sample"], kind="stable").reset_index(drop=True)
    return EnsembleStudy(df, n_s, n_x, n_samples, seed, meas, getattr(gen, "__name__", str(gen)))
