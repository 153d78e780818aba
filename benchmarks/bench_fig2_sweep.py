"""Benchmark of the paper 002 Fig. 1-2 Monte-Carlo (issue 5): 5,000 random p(s,x), |S| = 15, |X| = 20.

Target: under 60 s on 2 cores (prints times and the Fig. 2 medians; no assertion).
Per draw: Fig. 1's blue/yellow values, the plain watchdog at eps = 1, 2 and Algorithm 1 in three settings.

Run:  python benchmarks/bench_fig2_sweep.py [--draws 5000] [--n-jobs 2] [--backend loky]
"""

from __future__ import annotations

import argparse
import time

import graphpriv as gp


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--draws", type=int, default=5000)
    ap.add_argument("--n-jobs", type=int, default=2)
    ap.add_argument("--backend", default=None)
    ap.add_argument("--seed", type=int, default=2021)
    a = ap.parse_args()
    for n_jobs in sorted({1, a.n_jobs}):
        t = time.perf_counter()
        mc = gp.watchdog_monte_carlo(a.draws, seed=a.seed, n_jobs=n_jobs, backend=a.backend)
        dt = time.perf_counter() - t
        print(f"n_jobs={n_jobs}: {a.draws} draws in {dt:.2f} s  (target < 60 s on 2 cores)")
    print("Fig. 2 medians (paper/spec: 0.94, 0.53, 0.72, 0.54, 0.38):")
    for k, v in mc.medians().items():
        print(f"  {k:22s} {v:.3f}")
    print(f"Fig. 1: median blue {mc.fig1['blue'].median():.3f}, median yellow {mc.fig1['yellow'].median():.3f}, "
          f"delta0 > 0 in {(mc.fig1['delta0'] > 0).sum()} draws")


if __name__ == "__main__":
    main()
