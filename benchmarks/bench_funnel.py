"""Timing of the agglomerative privacy funnel (greedy and subset) on 10^3 public values.

Run: ``python benchmarks/bench_funnel.py [n_public] [n_sensitive]``. Prints the wall time of each
method, the number of merges, the final I(S;X̂) and I(X;X̂), and -- on small random pmfs -- how often
the subset step finds the best subset and how the final L of best-subset merging compares with
pairwise merging. Timings depend on the machine's load.
"""

from __future__ import annotations

import sys
import time

import numpy as np

import graphpriv as gp
from graphpriv.mechanisms.stochastic import funnel as F


def timing(n_public: int = 1000, n_sensitive: int = 40, lam: float = 0.3, seed: int = 0) -> None:
    rng = np.random.default_rng(seed)
    # a table-like pmf: sparse-ish joint with a few heavy cells
    P = rng.exponential(size=(n_sensitive, n_public)) * (rng.random((n_sensitive, n_public)) < 0.3)
    P[rng.integers(n_sensitive, size=n_public), np.arange(n_public)] += rng.exponential(size=n_public)
    jd = gp.JointDistribution(P / P.sum())
    for method in ("greedy", "subset"):
        t0 = time.perf_counter()
        r = gp.privacy_funnel(jd, lam, method)
        dt = time.perf_counter() - t0
        sizes = r.trace.criterion("size")[1:]
        print(f"{method:6s} |S|={n_sensitive} |X|={n_public} λ={lam}: {dt:7.2f} s, {len(r.trace) - 1} steps, "
              f"|X̂|={r.n_blocks}, largest merged set {int(np.nanmax(sizes)) if sizes.size else 0}, "
              f"I(S;X̂)={r.privacy:.4f} bits (I(S;X)={r.mutual_information_sx:.4f}), I(X;X̂)={r.utility:.4f} bits, L={r.L:.4f}")


def step_quality(n_trials: int = 60, seed: int = 0) -> None:
    """Subset step vs every subset (<= 12 current symbols); final L: best-subset vs pairwise merging."""
    rng = np.random.default_rng(seed)

    def exhaustive(eng):
        slots = np.flatnonzero(eng.alive)
        K = slots.size
        masks = ((np.arange(1, 1 << K)[:, None] >> np.arange(K)) & 1).astype(bool)
        masks = masks[masks.sum(axis=1) >= 2]
        vals = np.array([eng.delta(slots[mk]) for mk in masks])
        k = int(np.argmin(vals))
        return slots[masks[k]], float(vals[k])

    hits = total = 0
    for trial in range(n_trials):
        P = rng.random((int(rng.integers(2, 6)), int(rng.integers(4, 13))))
        P /= P.sum()
        lam = float(rng.uniform(0, 0.8))
        eng = F._PF(P, lam) if trial % 2 == 0 else F._IB(P, 1 / max(lam, 0.05))
        while eng.alive.sum() > 1:
            i, j, d0 = eng.best_pair()
            W, d, _ = F._subset_step(eng, i, j, d0)
            We, de = exhaustive(eng)
            total += 1
            hits += d <= de + 1e-12
            if min(d, de) >= -1e-13:
                break
            eng.merge(W, None)
    print(f"subset step = best of all subsets in {hits}/{total} steps (<= 12 current symbols)")
    same = lower = higher = 0
    for _ in range(40):
        P = rng.random((3, int(rng.integers(5, 8))))
        P /= P.sum()
        lam = float(rng.uniform(0.05, 0.6))
        eng = F._PF(P, lam)
        L_best = 0.0
        while eng.alive.sum() > 1:
            W, d = exhaustive(eng)
            if d >= -1e-13:
                break
            eng.merge(W, None)
            L_best += d
        r = gp.privacy_funnel(P, lam, "greedy", base=np.e)
        L_pair = r.L - (r.mutual_information_sx - lam * r.entropy_x)
        if abs(L_best - L_pair) < 1e-10:
            same += 1
        elif L_best < L_pair:
            lower += 1
        else:
            higher += 1
    print(f"final L, best-subset vs pairwise merging on 40 random 3 x 5-7 pmfs: same {same}, lower {lower}, higher {higher}")


if __name__ == "__main__":
    n = int(sys.argv[1]) if len(sys.argv) > 1 else 1000
    s = int(sys.argv[2]) if len(sys.argv) > 2 else 40
    timing(n, s)
    step_quality()
