"""Sweeps on a dask cluster (two worker processes) equal the serial run, draw by draw, for the same seed."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest

from conftest import announce

import graphpriv as gp
from graphpriv.errors import GraphprivError, InputError, SchedulerUnreachableError
from graphpriv.parallel import connect, dask_backend, parallel_map


def _announce(capsys, client, what: str) -> None:
    workers = sorted(client.scheduler_info()["workers"])
    announce(capsys, f"[dask] {what} ran on {client.scheduler.address} with {len(workers)} worker processes")


def _pid(_):
    import os

    return os.getpid()


def test_parallel_map_runs_on_the_cluster_workers(dask_client, capsys):
    pids = set(parallel_map(_pid, range(8), client=dask_client))
    worker_pids = set(dask_client.run(_pid_of_worker).values())
    assert pids <= worker_pids and pids.isdisjoint({_pid(None)})
    assert parallel_map(abs, [-3, 1, -2], client=dask_client) == [3, 1, 2]
    assert parallel_map(abs, [], client=dask_client) == []
    with dask_backend(dask_client):                     # every sweep inside the block uses the cluster
        assert set(parallel_map(_pid, range(4))) <= worker_pids
    _announce(capsys, dask_client, "parallel_map")


def _pid_of_worker():
    import os

    return os.getpid()


def test_ensemble_study_on_cluster_equals_serial(dask_client, capsys):
    kw = dict(n_samples=12, seed=5, measures=("I_star", "n_components", "strength", "n_pairs"))
    serial = gp.ensemble_study(14, 7, [0.05, 0.2, 0.5], **kw)
    on_cluster = gp.ensemble_study(14, 7, [0.05, 0.2, 0.5], client=dask_client, batch_size=5, **kw)
    pd.testing.assert_frame_equal(on_cluster.samples, serial.samples, check_exact=True)
    address = gp.ensemble_study(14, 7, [0.2], n_samples=6, seed=5, client=dask_client.scheduler.address)
    pd.testing.assert_frame_equal(address.samples, gp.ensemble_study(14, 7, [0.2], n_samples=6, seed=5).samples,
                                  check_exact=True)
    _announce(capsys, dask_client, "ensemble_study")


def test_compare_searches_on_cluster_equals_serial(dask_client, capsys):
    inst = [gp.random_joint_range(6, 7, 0.3, seed=s) for s in range(4)]
    jr, values = gp.datasets.paper_example()
    inst.append((jr, values))
    serial = gp.compare_searches(inst, "I*", [0.5, 2.0], methods=("greedy", "beam", "local"))
    on_cluster = gp.compare_searches(inst, "I*", [0.5, 2.0], methods=("greedy", "beam", "local"), client=dask_client)
    timings = [c for c in serial.columns if c.startswith("time_")]
    assert len(on_cluster) == len(serial) == 10 and timings
    pd.testing.assert_frame_equal(on_cluster.drop(columns=timings), serial.drop(columns=timings), check_exact=True)
    _announce(capsys, dask_client, "compare_searches")


def test_watchdog_monte_carlo_on_cluster_equals_serial(dask_client, capsys):
    kw = dict(n_sensitive=6, n_public=8, seed=11, batch_size=15)
    serial = gp.watchdog_monte_carlo(60, **kw)
    on_cluster = gp.watchdog_monte_carlo(60, client=dask_client, **kw)
    for name in ("nmil", "fig1", "diagnostics"):
        pd.testing.assert_frame_equal(getattr(on_cluster, name), getattr(serial, name), check_exact=True)
    _announce(capsys, dask_client, "watchdog_monte_carlo")


def test_frontier_sweep_on_cluster_equals_serial(dask_client, capsys):
    ranges = {f"r{s}": gp.random_joint_range(9, 7, 0.3, seed=s) for s in range(4)}
    ranges["paper"] = gp.datasets.paper_example()
    serial = gp.frontier_sweep(ranges, "L0", "U1")
    on_cluster = gp.frontier_sweep(ranges, "L0", "U1", client=dask_client)
    assert list(on_cluster) == list(serial) == list(ranges)
    for name, f in serial.items():
        g = on_cluster[name]
        assert g.points == f.points and g.to_frame().equals(f.to_frame())
        assert g.trace.to_frame().equals(f.trace.to_frame())
    _announce(capsys, dask_client, "frontier_sweep")


def test_frontier_sweep_serial_matches_pareto_frontier_and_checks_input():
    ranges = [gp.random_joint_range(8, 6, 0.3, seed=s) for s in range(3)]
    fronts = gp.frontier_sweep(ranges, "I*")
    assert [f.to_frame().equals(gp.pareto_frontier(jr, "I*").to_frame()) for f, jr in zip(fronts, ranges)] == [True] * 3
    with pytest.raises(gp.InputTypeError, match=r"ranges\[1\]"):
        gp.frontier_sweep([ranges[0], "not a range"], "I*")
    with pytest.raises(gp.InputTypeError):
        gp.frontier_sweep(3, "I*")


def test_unreachable_scheduler_is_a_one_line_error_naming_the_address():
    pytest.importorskip("distributed")                 # installed in CI by the dask extra
    address = "tcp://127.0.0.1:9"
    with pytest.raises(SchedulerUnreachableError) as err:
        connect(address, timeout=1)
    msg = str(err.value)
    assert address in msg and "\n" not in msg and isinstance(err.value, GraphprivError) and isinstance(err.value, ValueError)
    with pytest.raises(SchedulerUnreachableError, match="not-an-address"):
        gp.ensemble_study(6, 4, [0.3], n_samples=2, client="not-an-address")
    with pytest.raises(InputError, match="client must be"):
        parallel_map(abs, [1], client=42)


def test_backend_dask_without_a_client_says_what_to_do(monkeypatch):
    distributed = pytest.importorskip("distributed")   # installed in CI by the dask extra

    def no_client():
        raise ValueError("No clients found")

    monkeypatch.setattr(distributed, "get_client", no_client)
    with pytest.raises(InputError, match="backend='dask' needs a running distributed.Client"):
        gp.ensemble_study(6, 4, [0.3], n_samples=2, backend="dask")


def test_serial_results_do_not_depend_on_batching():
    a = gp.ensemble_study(10, 5, [0.3], n_samples=9, seed=2, batch_size=2).samples
    b = gp.ensemble_study(10, 5, [0.3], n_samples=9, seed=2, batch_size=9).samples
    pd.testing.assert_frame_equal(a, b, check_exact=True)
    assert np.isfinite(a["I_star"]).all()
