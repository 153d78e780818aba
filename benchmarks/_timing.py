"""Timing helpers shared by the benchmark scripts (run them from the repository root: python benchmarks/bench_*.py)."""

from __future__ import annotations

import time


def timed(fn, *args, **kwargs):
    """Run ``fn(*args, **kwargs)`` once; return (result, seconds)."""
    t0 = time.perf_counter()
    out = fn(*args, **kwargs)
    return out, time.perf_counter() - t0


def best_of(fn, repeat: int):
    """Run ``fn()`` ``repeat`` times; return (best seconds, last result)."""
    times, out = [], None
    for _ in range(max(1, repeat)):
        out, dt = timed(fn)
        times.append(dt)
    return min(times), out
