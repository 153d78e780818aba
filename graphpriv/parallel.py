"""Parallel map for long sweeps (frontiers over many datasets, random ensembles, Monte-Carlo studies).

Every sweep in graphpriv that runs many independent jobs calls :func:`parallel_map`, and every such
sweep takes the same three switches:

- ``n_jobs`` / ``backend``: local workers through joblib -- ``n_jobs=1`` (default: sequential,
  deterministic and cheap for small sweeps), ``n_jobs=-1`` for all cores, ``backend="threading"``
  etc.; the environment variable ``GRAPHPRIV_N_JOBS`` sets the default of :func:`parallel_map`;
- ``client``: **a dask cluster** (the optional extra ``pip install "graphpriv[dask]"``): a
  ``distributed.Client`` or a scheduler address such as ``"tcp://scheduler:8786"``. Each job is
  shipped to a worker with ``Client.map`` and the results come back in order::

      from distributed import Client
      client = Client("tcp://scheduler:8786")
      study = gp.ensemble_study(500, 200, densities, n_samples=10_000, client=client)

  ``backend="dask"`` without a client uses the process's default client (the last one created), and
  inside ``with dask_backend(address):`` every sweep runs on that cluster.

Randomness never depends on where a job runs: the sweeps give every job its own child of
``numpy.random.SeedSequence(seed)`` (:func:`spawn_seeds`), so a run on a cluster equals the serial run
draw by draw for the same seed.
"""

from __future__ import annotations

import contextlib
import contextvars
import os
import sys
from typing import Any, Callable, Iterable, Iterator

import numpy as np

from .errors import InputError, SchedulerUnreachableError

__all__ = ["parallel_map", "parallel_backend", "dask_backend", "connect", "spawn_seeds", "default_n_jobs"]

#: The client of the innermost :func:`dask_backend` block, if any.
_ACTIVE_CLIENT: contextvars.ContextVar = contextvars.ContextVar("graphpriv_dask_client", default=None)

_NO_DISTRIBUTED = ('the dask backend needs dask.distributed, which is not installed; run pip install "graphpriv[dask]" '
                   "or use n_jobs=-1 for local processes")


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


def _distributed():
    try:
        import distributed
    except ImportError:
        raise InputError(_NO_DISTRIBUTED) from None
    return distributed


#: Seconds :func:`connect` waits for a scheduler by default (``graphpriv analyze --scheduler`` included).
CONNECT_TIMEOUT = 10.0


def connect(address: str, *, timeout: float | None = None, **client_kwargs):
    """A ``distributed.Client`` connected to the dask scheduler at ``address``.

    Parameters
    ----------
    address : str
        Scheduler address, e.g. ``"tcp://scheduler:8786"``.
    timeout : float, optional
        Seconds to wait for the scheduler (default :data:`CONNECT_TIMEOUT`).
    **client_kwargs
        Passed to :class:`distributed.Client`.

    Raises
    ------
    SchedulerUnreachableError
        Nothing answers at ``address`` within ``timeout`` (or the address is malformed).
    InputError
        ``dask.distributed`` is not installed.
    """
    distributed = _distributed()
    if not isinstance(address, str) or not address.strip():
        raise InputError(f"a scheduler address must be a non-empty string such as 'tcp://host:8786', got {address!r}")
    try:
        return distributed.Client(address, timeout=CONNECT_TIMEOUT if timeout is None else timeout, **client_kwargs)
    except (OSError, ValueError, TimeoutError) as e:
        reason = str(e).splitlines()[0] if str(e) else type(e).__name__
        raise SchedulerUnreachableError(f"no dask scheduler reachable at {address!r} ({reason}); start one "
                                        "(dask scheduler) or check the address") from None


@contextlib.contextmanager
def resolve_client(client: Any = None, backend: str | None = None) -> Iterator[Any]:
    """The ``distributed.Client`` a sweep should use, or None for joblib; closes a client it opened.

    ``client`` may be a Client (used as is), an address (connected with :func:`connect` for the
    block) or None: then the client of an enclosing :func:`dask_backend` block, then -- only with
    ``backend="dask"`` -- the process's default client.
    """
    if client is None:
        client = _ACTIVE_CLIENT.get()
    if client is None and backend == "dask":
        try:
            client = _distributed().get_client()
        except ValueError:
            raise InputError("backend='dask' needs a running distributed.Client, or pass client=<Client or "
                             "scheduler address>") from None
    if isinstance(client, str):
        owned = connect(client)
        try:
            yield owned
        finally:
            owned.close()
        return
    if client is not None and not (hasattr(client, "map") and hasattr(client, "gather")):
        raise InputError(f"client must be a distributed.Client or a scheduler address, got {type(client).__name__}")
    yield client


def worker_count(n_jobs: int | None = None, client: Any = None) -> int:
    """Number of parallel slots: the client's worker threads, else joblib's effective ``n_jobs``."""
    if client is not None:
        return max(1, sum(client.nthreads().values()))
    from joblib import effective_n_jobs

    return max(1, effective_n_jobs(n_jobs if n_jobs is not None else (default_n_jobs() or _context_n_jobs())))


def parallel_map(func: Callable[[Any], Any], items: Iterable[Any], *, n_jobs: int | None = None, backend: str | None = None,
                 client: Any = None, progress: bool | None = False, desc: str | None = None,
                 batch_size: int | str = "auto", **joblib_kwargs) -> list:
    """``[func(item) for item in items]``, in order, run sequentially, through joblib or on a dask cluster.

    Parameters
    ----------
    func : callable
        A picklable function of one argument (a module-level function or a ``functools.partial`` of
        one, for process or dask backends).
    items : iterable
        The inputs; consumed once.
    n_jobs : int, optional
        Number of local workers (-1: all cores). None: ``GRAPHPRIV_N_JOBS`` if set, else the active
        joblib context (:func:`parallel_backend`), else 1.
    backend : str, optional
        joblib backend name (``"loky"``, ``"threading"``, ...); ``"dask"`` runs on the default
        ``distributed.Client``.
    client : distributed.Client or str, optional
        Run every job on this dask cluster (a Client, or a scheduler address to connect to for the
        call). Default: the client of an enclosing :func:`dask_backend` block, if any.
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

    Raises
    ------
    SchedulerUnreachableError
        ``client`` is an address where no scheduler answers.

    Examples
    --------
    >>> from graphpriv.parallel import parallel_map
    >>> parallel_map(abs, [-1, 2, -3])
    [1, 2, 3]
    >>> parallel_map(abs, [-1, 2, -3], n_jobs=2)
    [1, 2, 3]

    Notes
    -----
    Sequential runs (``n_jobs=1``) skip joblib's worker machinery entirely, so small sweeps pay no
    start-up cost. Results are identical for every backend when ``func`` is deterministic.
    """
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
        with resolve_client(client, backend) as cl:
            if cl is not None:
                return _map_on_client(cl, func, items, bar)
            effective = n_jobs if n_jobs is not None else _context_n_jobs()
            if effective == 1:
                out = []
                for item in items:
                    out.append(func(item))
                    if bar is not None:
                        bar.update(1)
                return out
            import joblib

            par = joblib.Parallel(n_jobs=n_jobs, backend=backend, batch_size=batch_size, return_as="generator", **joblib_kwargs)
            out = []
            for res in par(joblib.delayed(func)(item) for item in items):
                out.append(res)
                if bar is not None:
                    bar.update(1)
            return out
    finally:
        if bar is not None:
            bar.close()


def _map_on_client(client, func, items: list, bar) -> list:
    if not items:
        return []
    futures = client.map(func, items, pure=False)
    if bar is not None:
        from distributed import as_completed

        for _ in as_completed(futures):
            bar.update(1)
    return client.gather(futures)


def _context_n_jobs() -> int:
    try:
        from joblib.parallel import get_active_backend

        backend, n_jobs = get_active_backend()
        return int(n_jobs) if n_jobs is not None else 1
    except Exception:  # pragma: no cover - joblib internals changed
        return 1


@contextlib.contextmanager
def parallel_backend(backend: str = "loky", n_jobs: int | None = -1, **kwargs) -> Iterator[None]:
    """Run every :func:`parallel_map` inside the block on the joblib ``backend`` with ``n_jobs`` workers.

    ``backend`` is a joblib backend name: ``"loky"`` (processes, default), ``"threading"``,
    ``"multiprocessing"`` or ``"sequential"``; for a dask cluster use :func:`dask_backend`.

    Examples
    --------
    >>> from graphpriv.parallel import parallel_backend, parallel_map
    >>> with parallel_backend("threading", n_jobs=2):
    ...     parallel_map(abs, [-4, 5])
    [4, 5]
    """
    import joblib

    with joblib.parallel_config(backend=backend, n_jobs=n_jobs, **kwargs):
        yield


@contextlib.contextmanager
def dask_backend(address: Any = None, **client_kwargs) -> Iterator[Any]:
    """Run every :func:`parallel_map` (so every sweep) inside the block on a dask cluster; yields the ``Client``.

    Parameters
    ----------
    address : str or distributed.Client, optional
        Scheduler address (``"tcp://host:8786"``) or a running Client (left open afterwards); None
        starts a local cluster.
    **client_kwargs
        Passed to :class:`distributed.Client` when it starts a local cluster.

    Raises
    ------
    InputError
        When ``dask[distributed]`` is not installed (it is optional: ``pip install "graphpriv[dask]"``).
    SchedulerUnreachableError
        No scheduler answers at ``address``.
    """
    distributed = _distributed()
    if isinstance(address, str):
        client, owned = connect(address, **client_kwargs), True
    elif address is None:
        client, owned = distributed.Client(**client_kwargs), True
    else:
        client, owned = address, False
    token = _ACTIVE_CLIENT.set(client)
    try:
        yield client
    finally:
        _ACTIVE_CLIENT.reset(token)
        if owned:
            client.close()


def spawn_seeds(seed: int | np.random.SeedSequence | None, n: int) -> list[int]:
    """``n`` independent integer seeds derived from ``seed`` (numpy SeedSequence.spawn), one per job,
    so parallel results do not depend on the backend or the order in which workers run.

    Examples
    --------
    >>> from graphpriv.parallel import spawn_seeds
    >>> spawn_seeds(0, 3) == spawn_seeds(0, 3)
    True
    >>> len(set(spawn_seeds(0, 100)))
    100
    """
    if not isinstance(n, (int, np.integer)) or n < 0:
        raise InputError(f"n must be a non-negative integer, got {n!r}")
    ss = seed if isinstance(seed, np.random.SeedSequence) else np.random.SeedSequence(seed)
    return [int(c.generate_state(1, dtype=np.uint64)[0]) for c in ss.spawn(int(n))]
