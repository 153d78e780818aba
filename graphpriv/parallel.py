"""Parallel map for long sweeps (frontiers over many datasets, random ensembles) through joblib.

Every sweep in graphpriv that runs many independent jobs should call :func:`parallel_map`. It runs
through joblib, so the *backend* is chosen by the caller's context, not hard-wired:

- default: ``n_jobs=1`` (sequential; deterministic and cheap for small sweeps), or the value of the
  environment variable ``GRAPHPRIV_N_JOBS`` (``-1`` = all cores);
- local processes: ``parallel_map(f, items, n_jobs=-1)`` or ``with parallel_backend("loky", n_jobs=4): ...``;
- **a dask cluster**: install ``dask[distributed]`` (``pip install "dask[distributed]"``; not a
  graphpriv dependency) and wrap the sweep in :func:`dask_backend`::

      from graphpriv.parallel import dask_backend
      with dask_backend("tcp://scheduler:8786"):       # or dask_backend() for a local cluster
          results = gp.some_sweep(...)                  # every parallel_map inside runs on the cluster

  This is joblib's documented dask integration (``joblib.parallel_config(backend="dask")`` with a
  ``distributed.Client``); each job is shipped to a worker, so the function and items must pickle.

Randomness: pass explicit seeds in the items (e.g. from :func:`spawn_seeds`), never rely on global
state, so results do not depend on the backend or the number of workers.
"""

from __future__ import annotations

import contextlib
import os
import sys
from typing import Any, Callable, Iterable, Iterator, Sequence

import numpy as np

from .errors import InputError

__all__ = ["parallel_map", "parallel_backend", "dask_backend", "spawn_seeds", "default_n_jobs"]


def default_n_jobs() -> int | None:
    """``GRAPHPRIV_N_JOBS`` as an int when set, else None (joblib's context decides, 1 by default)."""
    val = os.environ.get("GRAPHPRIV_N_JOBS")
    if val is None or val.strip() == "":
        return None
    try:
        n = int(val)
    except ValueError:
        raise InputError(f"GRAPHPRIV_N_JOBS={val!r} must be an integer (-1 for all cores)") from None
    if n == 0:
        raise InputError("GRAPHPRIV_N_JOBS=0 is invalid; use a positive number of workers or -1 for all cores")
    return n


def parallel_map(func: Callable[[Any], Any], items: Iterable[Any], *, n_jobs: int | None = None,
                 progress: bool | None = False, desc: str | None = None, batch_size: int | str = "auto",
                 **joblib_kwargs) -> list:
    """``[func(item) for item in items]``, in order, run through joblib.

    Parameters
    ----------
    func : callable
        A picklable function of one argument (a module-level function, not a lambda, for process or
        dask backends).
    items : iterable
        The inputs; consumed once.
    n_jobs : int, optional
        Number of workers (-1: all cores). None: ``GRAPHPRIV_N_JOBS`` if set, else the active joblib
        context (:func:`parallel_backend`, :func:`dask_backend`), else 1.
    progress : bool or None
        Show a tqdm bar on stderr; None shows it only when stderr is a terminal.
    desc : str, optional
        Label of the progress bar.
    batch_size, **joblib_kwargs
        Passed to :class:`joblib.Parallel`.

    Returns
    -------
    list
        The results in the order of ``items``.

    Examples
    --------
    >>> parallel_map(abs, [-1, 2, -3])
    [1, 2, 3]
    >>> parallel_map(abs, [-1, 2, -3], n_jobs=2)
    [1, 2, 3]

    Notes
    -----
    Sequential runs (``n_jobs=1``) skip joblib's worker machinery entirely, so small sweeps pay no
    start-up cost. Results are identical for every backend when ``func`` is deterministic.
    """
    import joblib

    if not callable(func):
        raise InputError(f"func must be callable, got {type(func).__name__}")
    if n_jobs is None:
        n_jobs = default_n_jobs()
    if n_jobs == 0:
        raise InputError("n_jobs=0 is invalid; use a positive number of workers, -1 for all cores, or None")
    items = list(items)
    show = sys.stderr.isatty() if progress is None else bool(progress)
    bar = None
    if show:
        from tqdm.auto import tqdm

        bar = tqdm(total=len(items), desc=desc, file=sys.stderr, leave=False)
    try:
        effective = n_jobs if n_jobs is not None else _context_n_jobs()
        if effective == 1 and not _context_is_dask():
            out = []
            for item in items:
                out.append(func(item))
                if bar is not None:
                    bar.update(1)
            return out
        par = joblib.Parallel(n_jobs=n_jobs, batch_size=batch_size, return_as="generator", **joblib_kwargs)
        out = []
        for res in par(joblib.delayed(func)(item) for item in items):
            out.append(res)
            if bar is not None:
                bar.update(1)
        return out
    finally:
        if bar is not None:
            bar.close()


def _context_n_jobs() -> int:
    try:
        from joblib.parallel import get_active_backend

        backend, n_jobs = get_active_backend()
        return int(n_jobs) if n_jobs is not None else 1
    except Exception:  # pragma: no cover - joblib internals changed
        return 1


def _context_is_dask() -> bool:
    try:
        from joblib.parallel import get_active_backend

        backend, _ = get_active_backend()
        return type(backend).__name__.lower().startswith("dask")
    except Exception:  # pragma: no cover
        return False


@contextlib.contextmanager
def parallel_backend(backend: str = "loky", n_jobs: int | None = -1, **kwargs) -> Iterator[None]:
    """Run every :func:`parallel_map` inside the block on ``backend`` with ``n_jobs`` workers.

    ``backend`` is a joblib backend name: ``"loky"`` (processes, default), ``"threading"``,
    ``"multiprocessing"``, ``"sequential"``, or ``"dask"`` (prefer :func:`dask_backend`, which also
    connects the client).

    Examples
    --------
    >>> with parallel_backend("threading", n_jobs=2):
    ...     parallel_map(abs, [-4, 5])
    [4, 5]
    """
    import joblib

    with joblib.parallel_config(backend=backend, n_jobs=n_jobs, **kwargs):
        yield


@contextlib.contextmanager
def dask_backend(address: str | None = None, **client_kwargs) -> Iterator[Any]:
    """Run every :func:`parallel_map` inside the block on a dask cluster; yields the ``Client``.

    Parameters
    ----------
    address : str, optional
        Scheduler address (``"tcp://host:8786"``); None starts a local cluster.
    **client_kwargs
        Passed to :class:`distributed.Client`.

    Raises
    ------
    InputError
        When ``dask[distributed]`` is not installed (it is optional: ``pip install "dask[distributed]"``).
    """
    try:
        from distributed import Client
    except ImportError:
        raise InputError('the dask backend needs dask.distributed, which is not installed; run pip install "dask[distributed]" '
                         "or use parallel_backend('loky') for local processes") from None
    import joblib

    client = Client(address, **client_kwargs) if address is not None else Client(**client_kwargs)
    try:
        with joblib.parallel_config(backend="dask"):
            yield client
    finally:
        client.close()


def spawn_seeds(seed: int | np.random.SeedSequence | None, n: int) -> list[int]:
    """``n`` independent integer seeds derived from ``seed`` (numpy SeedSequence.spawn), one per job,
    so parallel results do not depend on the backend or the order in which workers run.

    Examples
    --------
    >>> spawn_seeds(0, 3) == spawn_seeds(0, 3)
    True
    >>> len(set(spawn_seeds(0, 100)))
    100
    """
    if not isinstance(n, (int, np.integer)) or n < 0:
        raise InputError(f"n must be a non-negative integer, got {n!r}")
    ss = seed if isinstance(seed, np.random.SeedSequence) else np.random.SeedSequence(seed)
    return [int(c.generate_state(1, dtype=np.uint64)[0]) for c in ss.spawn(int(n))]
