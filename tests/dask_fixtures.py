"""A shared dask cluster for the tests: two worker processes, one thread each, started once per session.

``dask_cluster`` is the ``distributed.LocalCluster``; ``dask_client`` a ``distributed.Client`` on it.
Both are session-scoped (the cluster starts on first use, a few seconds) and imported by conftest.py,
so any test module can ask for them.
"""

from __future__ import annotations

import logging

import pytest


@pytest.fixture(scope="session")
def dask_cluster():
    distributed = pytest.importorskip("distributed")   # installed in CI by the dask extra
    cluster = distributed.LocalCluster(n_workers=2, processes=True, threads_per_worker=1, dashboard_address=None,
                                       silence_logs=logging.ERROR)
    try:
        yield cluster
    finally:
        cluster.close()


@pytest.fixture(scope="session")
def dask_client(dask_cluster):
    from distributed import Client

    client = Client(dask_cluster)
    try:
        yield client
    finally:
        client.close()
