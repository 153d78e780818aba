"""Benchmarks for paper 003's mechanisms (issue 3). Prints times and ratios; asserts nothing.

    python benchmarks/bench_agglomerate.py            # full run (about a minute)
    python benchmarks/bench_agglomerate.py --quick    # small sizes

1. Algorithm 2, full trajectory (λ-free, until one component), U1 and U2, fast vs the plain reference
   in tests/reference_agglomerative.py: measured at a size where the reference finishes, and at 2,000
   public values where the reference is run for a time budget and its full-trajectory time is
   extrapolated from its per-step cost (it enumerates all O(k^2) cluster pairs per step, k = |Q(t)|).
2. Algorithm 2 full trajectory on 10,000 public values (goal: < 30 s).
3. pareto_frontier over 200 λ values vs one trajectory (goal: ratio <= 1.5).
"""

from __future__ import annotations

import argparse
import os
import sys
import time

import numpy as np

import graphpriv as gp
from graphpriv.mechanisms.agglomerative import _Problem, _trajectory

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "tests"))
from reference_agglomerative import ref_from_range  # noqa: E402


def instance(n: int, seed: int = 0):
    """n public values, n sensitive values; every x has one random s and 20% a second one."""
    rng = np.random.default_rng(seed)
    x = np.arange(n)
    s = rng.integers(0, n, n)
    extra = rng.random(n) < 0.2
    xs = np.concatenate([x, x[extra]])
    ss = np.concatenate([s, rng.integers(0, n, int(extra.sum()))])
    jr = gp.JointRange.from_pairs(ss, xs)
    values = {int(v): float(rng.normal()) for v in jr.public_labels.tolist()}
    return jr, values


def fast_trajectory(jr, objective, util, values):
    t0 = time.perf_counter()
    prob = _Problem(jr, objective, util, values if util == "U2" else None, 2)
    traj = _trajectory(prob, None)
    return time.perf_counter() - t0, len(traj) - 1


def reference_timed(jr, util, values, budget, n_steps):
    """Run the reference Algorithm 2 for at most `budget` seconds (it checks after each step).
    Returns (elapsed, steps_done, finished); `n_steps` is the full trajectory's length."""
    ref = ref_from_range(jr, values if util == "U2" else None)
    t0 = time.perf_counter()
    steps = len(ref.alg2(deadline=t0 + budget)) - 1
    return time.perf_counter() - t0, steps, steps == n_steps


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--quick", action="store_true")
    ap.add_argument("--budget", type=float, default=30.0, help="seconds of reference time per utility at 2,000 values")
    args = ap.parse_args(argv)
    small, mid, big = (120, 400, 2000) if args.quick else (300, 2000, 10000)
    budget = 3.0 if args.quick else args.budget

    print("# 1. Algorithm 2 full trajectory, fast vs reference")
    jr, values = instance(small)
    for util in ("U1", "U2"):
        tf, T = fast_trajectory(jr, "I*", util, values)
        tr, steps, done = reference_timed(jr, util, values, budget=1e9, n_steps=T)
        print(f"|X|={small:5d} {util}: steps={T}, fast {tf:.4f} s, reference {tr:.2f} s (measured, complete), ratio {tr / tf:.0f}x")
    jr, values = instance(mid)
    n = jr.n_public
    for util in ("U1", "U2"):
        tf, T = fast_trajectory(jr, "I*", util, values)
        tr, steps, done = reference_timed(jr, util, values, budget=budget, n_steps=T)
        if done:
            est = tr
            how = "measured, complete"
        else:
            k = n - np.arange(T, dtype=float)  # clusters before each step
            est = tr * (k ** 2).sum() / (k[:steps] ** 2).sum()
            how = f"extrapolated from {steps} of {T} steps in {tr:.1f} s, cost ~ k^2 per step"
        print(f"|X|={n:5d} {util}: steps={T}, fast {tf:.3f} s, reference ~{est:.0f} s ({how}), ratio ~{est / tf:.0f}x")

    print(f"# 2. Algorithm 2 full trajectory on {big} public values")
    jr, values = instance(big)
    for util in ("U1", "U2"):
        tf, T = fast_trajectory(jr, "I*", util, values)
        print(f"|X|={jr.n_public} {util}: {T} steps in {tf:.2f} s")
    for util in ("U1", "U2"):
        tf, T = fast_trajectory(jr, "L0", util, values)
        print(f"|X|={jr.n_public} Algorithm 1 {util}: {T} sweeps in {tf:.2f} s")

    print("# 2b. Section V-C (problem (10)), one run at λ = 0.3")
    for n_v, util in ((mid, "U1"), (mid // 2, "U2")):
        jr, values = instance(n_v)
        t0 = time.perf_counter()
        r = gp.agglomerate(jr, "L0|I*=0", 0.3, util, values if util == "U2" else None)
        print(f"|X|={jr.n_public} {util}: {len(r.trace) - 1} steps in {time.perf_counter() - t0:.2f} s")

    print("# 3. pareto_frontier over 200 λ vs one trajectory (best of 3 each)")
    jr, values = instance(mid)
    lams = np.linspace(0, 5, 200)
    for obj in ("L0", "I*"):
        for util in ("U1", "U2"):
            v = values if util == "U2" else None
            tf = min(fast_trajectory(jr, obj, util, values)[0] for _ in range(3))
            tfr = float("inf")
            for _ in range(3):  # best of three (the machine is shared)
                t0 = time.perf_counter()
                f = gp.pareto_frontier(jr, obj, util, v, lams=lams)
                tfr = min(tfr, time.perf_counter() - t0)
            t0 = time.perf_counter()
            f2 = gp.pareto_frontier(jr, obj, util, v)
            tex = time.perf_counter() - t0
            print(f"|X|={jr.n_public} {obj} {util}: trajectory {tf:.3f} s, frontier(200 λ) {tfr:.3f} s, ratio {tfr / tf:.2f}; "
                  f"exact-λ frontier {tex:.3f} s ({len(f)} / {len(f2)} points)")


if __name__ == "__main__":
    main()
