"""Benchmarks of the quantisation mechanisms (Ding & Farokhi, *Developing Non-Stochastic
Privacy-Preserving Policies Using Agglomerative Clustering*). Prints times, ratios and fitted growth
exponents; asserts nothing.

    python benchmarks/bench_agglomerate.py                      # 1,000 .. 16,000 public values
    python benchmarks/bench_agglomerate.py --quick              # 1,000 .. 4,000
    python benchmarks/bench_agglomerate.py --json new.json      # also save the table
    python benchmarks/bench_agglomerate.py --compare old.json   # ratios against a saved table

To compare against an older commit, run this same file with that commit's package first, e.g.
``git worktree add /tmp/base <commit>; PYTHONPATH=/tmp/base python benchmarks/bench_agglomerate.py --json old.json``
(the script only uses entry points that exist in both), then ``--compare old.json`` here.

Instances: n public values over n sensitive values, every x with one random s and 20 % with a second
one (so G_X has about n/2 components and Section V-C runs about n/2 steps); U2 values are standard
normal. Every series is a full run: Algorithms 1 and 2 until one cluster / one component (λ-free),
Section V-C at λ = 0 (and 0.3), the problem (10) frontier over every λ in [0, 1e4] (or a 50-value λ grid
with the older package). A series stops growing once one run exceeds ``--budget`` seconds.
Targets (issue list): Section V-C U2 at 8,000 values under 10 s with growth at most ~n^1.5, U1 at
16,000 under 5 s, the problem (10) frontier at most 2x one trajectory.
"""

from __future__ import annotations

import argparse
import json
import math
import time

import numpy as np

import os
import sys

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


def _traj(objective, util, lam):
    def run(jr, values):
        prob = _Problem(jr, objective, util, values if util == "U2" else None, 2)
        _trajectory(prob, lam)
    return run


def _frontier(util):
    def run(jr, values):
        gp.pareto_frontier(jr, "L0|I*=0", util, values if util == "U2" else None)
    return run


SERIES = {
    "Algorithm 2, U1": _traj("I*", "U1", None),
    "Algorithm 2, U2": _traj("I*", "U2", None),
    "Algorithm 1, U1": _traj("L0", "U1", None),
    "Algorithm 1, U2": _traj("L0", "U2", None),
    "Section V-C, U1, λ=0": _traj("L0|I*=0", "U1", 0.0),
    "Section V-C, U2, λ=0": _traj("L0|I*=0", "U2", 0.0),
    "Section V-C, U2, λ=0.3": _traj("L0|I*=0", "U2", 0.3),
    "problem (10) frontier, U1": _frontier("U1"),
    "problem (10) frontier, U2": _frontier("U2"),
}


def timed(fn, jr, values, repeat):
    best = math.inf
    for _ in range(repeat):
        t0 = time.perf_counter()
        fn(jr, values)
        best = min(best, time.perf_counter() - t0)
        if best > 1.0:
            break
    return best


def growth(sizes, times):
    pts = [(math.log(n), math.log(t)) for n, t in zip(sizes, times) if t is not None and t > 0.02]
    if len(pts) < 2:
        return float("nan")
    x, y = np.array(pts).T
    return float(np.polyfit(x, y, 1)[0])


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--quick", action="store_true", help="sizes 1,000 .. 4,000")
    ap.add_argument("--budget", type=float, default=60.0, help="stop a series after a run longer than this (s)")
    ap.add_argument("--repeat", type=int, default=3, help="best of this many runs (runs over 1 s are not repeated)")
    ap.add_argument("--series", nargs="*", default=None, help="only these series (substring match)")
    ap.add_argument("--json", default=None, help="write the table to this JSON file")
    ap.add_argument("--compare", default=None, help="a JSON table from another commit: print new/old ratios")
    args = ap.parse_args(argv)
    sizes = [1000, 2000, 4000] if args.quick else [1000, 2000, 4000, 8000, 16000]
    names = [s for s in SERIES if args.series is None or any(p in s for p in args.series)]
    inst = {n: instance(n) for n in sizes}
    table: dict[str, dict[int, float | None]] = {}
    print(f"{'series':30s}" + "".join(f"{n:>10,d}" for n in sizes) + "   growth")
    for name in names:
        row: dict[int, float | None] = {}
        over = False
        for n in sizes:
            if over:
                row[n] = None
                continue
            jr, values = inst[n]
            row[n] = timed(SERIES[name], jr, values, args.repeat)
            over = row[n] > args.budget
        table[name] = row
        cells = "".join(f"{row[n]:10.3f}" if row[n] is not None else f"{'-':>10s}" for n in sizes)
        print(f"{name:30s}{cells}   n^{growth(sizes, [row[n] for n in sizes]):.2f}", flush=True)
    for u in ("U1", "U2"):
        f, t = table.get(f"problem (10) frontier, {u}"), table.get(f"Section V-C, {u}, λ=0")
        if f and t:
            ratios = [f"{f[n] / t[n]:.2f}" if f[n] and t[n] else "-" for n in sizes]
            print(f"frontier / one trajectory, {u}: " + ", ".join(f"{n:,d}: {r}" for n, r in zip(sizes, ratios)))
    print("# fast vs the plain reference (tests/reference_agglomerative.py), 300 public values, full runs")
    jr, values = instance(300)
    for label, objective, util, ref_run in (("Algorithm 2, U1", "I*", "U1", lambda r: r.alg2()),
                                            ("Algorithm 2, U2", "I*", "U2", lambda r: r.alg2()),
                                            ("Section V-C, U1, λ=0", "L0|I*=0", "U1", lambda r: r.problem10(0.0))):
        v = values if util == "U2" else None
        tf = timed(_traj(objective, util, None if objective == "I*" else 0.0), jr, values, args.repeat)
        t0 = time.perf_counter()
        ref_run(ref_from_range(jr, v))
        tr = time.perf_counter() - t0
        print(f"{label:30s} fast {tf:.4f} s, reference {tr:.2f} s, ratio {tr / tf:.0f}x")
    if args.json:
        with open(args.json, "w", encoding="utf-8") as fh:
            json.dump({k: {str(n): v for n, v in row.items()} for k, row in table.items()}, fh, indent=1)
    if args.compare:
        with open(args.compare, encoding="utf-8") as fh:
            old = json.load(fh)
        print("# new / old time (below 1: faster now)")
        for name, row in table.items():
            o = old.get(name, {})
            cells = []
            for n in sizes:
                a, b = row.get(n), o.get(str(n))
                cells.append(f"{a / b:10.2f}" if a is not None and b else f"{'-':>10s}")
            print(f"{name:30s}" + "".join(cells))


if __name__ == "__main__":
    main()
