"""Benchmarks of the quantisation mechanisms (Ding & Farokhi, *Developing Non-Stochastic
Privacy-Preserving Policies Using Agglomerative Clustering*). Prints CPU times, ratios and fitted growth
exponents; asserts nothing.

    python benchmarks/bench_agglomerate.py                      # 1,000 .. 16,000 public values
    python benchmarks/bench_agglomerate.py --quick              # 1,000 .. 4,000
    python benchmarks/bench_agglomerate.py --sizes 1000 8000 --series "λ=0" frontier   # the frontier ratios
    python benchmarks/bench_agglomerate.py --algorithms         # also Algorithms 1 and 2
    python benchmarks/bench_agglomerate.py --json new.json      # also save the tables
    python benchmarks/bench_agglomerate.py --compare old.json   # ratios against a saved run

To compare against an older commit, run this same file with that commit's package first, e.g.
``git worktree add /tmp/base <commit>; PYTHONPATH=/tmp/base python benchmarks/bench_agglomerate.py --json old.json``
(the script only uses entry points that exist in both), then ``--compare old.json`` here.

Instances: random joint ranges with n public values; every x has one random sensitive value and 20 % a
second one, over |S| = n/5 sensitive values (few, large components of G_X: Section V-C runs few steps) or
|S| = n (about n/2 components: Section V-C runs about n/2 steps, the demanding family); U2 values are
standard normal. Every cell is one full run: Section V-C (problem (10), eqs. (11)-(12)) until G_X̂ is
connected at λ = 0, 0.3 and 3; the problem (10) frontier of ``gp.pareto_frontier(..., "L0|I*=0")``
(every λ >= 0: one tree of trajectories split where the winning pair changes), printed as a multiple of
one Section V-C run at λ = 0 and at λ = 0.3, with the tree's leaves, merge steps over all branches and
the length of the prefix shared by all λ (steps before the first split). Times are CPU seconds (``time.process_time``),
best of ``--repeat`` (runs over 1 s are not repeated); the load average is printed before and after,
as the machine may be shared. A cell whose predicted time (the previous cell scaled by the series'
growth so far) exceeds ``--budget`` is skipped and marked ``skip``; a series stops after a run longer
than the budget.

Targets: Section V-C U2 at 8,000 values under 10 s with growth at most ~n^1.5, U1 at 16,000 under 5 s,
the problem (10) frontier at most 2x one trajectory.
"""

from __future__ import annotations

import argparse
import json
import math
import os
import sys
import time

import numpy as np

import graphpriv as gp
from graphpriv.mechanisms.agglomerative import _Problem, _trajectory

try:  # the λ-tree of Section V-C (absent in older commits, which run the frontier on a λ grid)
    from graphpriv.mechanisms.quantization.vc_tree import _Stats, problem10_tree
except ImportError:  # pragma: no cover
    problem10_tree = None

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "tests"))
from reference_agglomerative import ref_from_range  # noqa: E402

FAMILIES = {"|S| = |X|/5": 5, "|S| = |X|": 1}


def instance(n: int, ratio: int = 1, seed: int = 0):
    """n public values over n // ratio sensitive values; every x has one random s and 20 % a second one."""
    rng = np.random.default_rng(seed)
    n_s = max(1, n // ratio)
    x = np.arange(n)
    s = rng.integers(0, n_s, n)
    extra = rng.random(n) < 0.2
    xs = np.concatenate([x, x[extra]])
    ss = np.concatenate([s, rng.integers(0, n_s, int(extra.sum()))])
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


VC_SERIES = {
    "Section V-C, U2, λ=0": _traj("L0|I*=0", "U2", 0.0),
    "Section V-C, U2, λ=0.3": _traj("L0|I*=0", "U2", 0.3),
    "Section V-C, U2, λ=3": _traj("L0|I*=0", "U2", 3.0),
    "Section V-C, U1, λ=0": _traj("L0|I*=0", "U1", 0.0),
    "Section V-C, U1, λ=0.3": _traj("L0|I*=0", "U1", 0.3),
    "Section V-C, U1, λ=3": _traj("L0|I*=0", "U1", 3.0),
    "problem (10) frontier, U2": _frontier("U2"),
    "problem (10) frontier, U1": _frontier("U1"),
}
ALG_SERIES = {
    "Algorithm 2, U1": _traj("I*", "U1", None),
    "Algorithm 2, U2": _traj("I*", "U2", None),
    "Algorithm 1, U1": _traj("L0", "U1", None),
    "Algorithm 1, U2": _traj("L0", "U2", None),
}


def timed(fn, jr, values, repeat):
    """Best CPU time of ``repeat`` runs (a run over 1 s is not repeated)."""
    best = math.inf
    for _ in range(repeat):
        t0 = time.process_time()
        fn(jr, values)
        best = min(best, time.process_time() - t0)
        if best > 1.0:
            break
    return best


def growth(sizes, times):
    """Least-squares exponent of t ~ n^g over the cells above 0.02 s."""
    pts = [(math.log(n), math.log(t)) for n, t in zip(sizes, times) if t is not None and t > 0.02]
    if len(pts) < 2:
        return float("nan")
    x, y = np.array(pts).T
    return float(np.polyfit(x, y, 1)[0])


def loadavg() -> str:
    try:
        with open("/proc/loadavg", encoding="ascii") as fh:
            return " ".join(fh.read().split()[:3])
    except OSError:
        return "n/a"


def run_table(series, sizes, inst, budget, repeat):
    """One table: rows = series, columns = sizes; returns {name: {n: seconds | None}}."""
    table: dict[str, dict[int, float | None]] = {}
    print(f"{'series':30s}" + "".join(f"{n:>10,d}" for n in sizes) + "   growth", flush=True)
    for name, fn in series.items():
        row: dict[int, float | None] = {}
        skipped = []
        stop = False
        for k, n in enumerate(sizes):
            done = [(m, row[m]) for m in sizes[:k] if row.get(m)]
            if not stop and len(done) >= 1:
                g = growth([m for m, _ in done], [t for _, t in done]) if len(done) >= 2 else 2.0
                g = 2.0 if math.isnan(g) else max(g, 1.0)
                m_last, t_last = done[-1]
                stop = t_last * (n / m_last) ** g > budget
            if stop:
                row[n] = None
                skipped.append(n)
                continue
            jr, values = inst[n]
            row[n] = timed(fn, jr, values, repeat)
            stop = row[n] > budget
        table[name] = row
        cells = "".join(f"{row[n]:10.3f}" if row[n] is not None else f"{'skip':>10s}" for n in sizes)
        print(f"{name:30s}{cells}   n^{growth(sizes, [row[n] for n in sizes]):.2f}", flush=True)
        if skipped:
            print(f"{'':30s}(skipped {', '.join(f'{n:,d}' for n in skipped)}: predicted past the {budget:.0f} s budget)")
    for u in ("U2", "U1"):
        f = table.get(f"problem (10) frontier, {u}")
        for lam in ("0", "0.3"):
            t = table.get(f"Section V-C, {u}, λ={lam}")
            if f and t:
                ratios = [f"{f[n] / t[n]:.2f}x" if f[n] and t[n] else "skip" for n in sizes]
                print(f"frontier ÷ one V-C run (λ={lam}), {u}: " + ", ".join(f"{n:,d}: {r}" for n, r in zip(sizes, ratios)))
        if f and problem10_tree is not None:
            cells = []
            for n in sizes:
                if f[n] is None:
                    continue
                jr, values = inst[n]
                st = _Stats()
                leaves = problem10_tree(_Problem(jr, "L0|I*=0", u, values if u == "U2" else None, 2), stats=st)
                cells.append(f"{n:,d}: {len(leaves)} leaves, {st.steps} steps, shared prefix {'all' if st.first_split is None else st.first_split}")
            print(f"tree of problem (10), {u}: " + "; ".join(cells))
    return table


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--quick", action="store_true", help="sizes 1,000 .. 4,000")
    ap.add_argument("--sizes", type=int, nargs="*", default=None, help="these sizes instead (e.g. 1000 2000 4000 8000)")
    ap.add_argument("--budget", type=float, default=60.0, help="skip cells predicted past this many CPU seconds")
    ap.add_argument("--repeat", type=int, default=3, help="best of this many runs (runs over 1 s are not repeated)")
    ap.add_argument("--series", nargs="*", default=None, help="only these series (substring match)")
    ap.add_argument("--family", choices=sorted(FAMILIES), nargs="*", default=None, help="only these instance families")
    ap.add_argument("--algorithms", action="store_true", help="also time Algorithms 1 and 2")
    ap.add_argument("--no-reference", action="store_true", help="skip the comparison with the plain reference")
    ap.add_argument("--json", default=None, help="write the tables to this JSON file")
    ap.add_argument("--compare", default=None, help="a JSON file from another commit: print new/old ratios")
    args = ap.parse_args(argv)
    sizes = [1000, 2000, 4000] if args.quick else [1000, 2000, 4000, 8000, 16000]
    sizes = sorted(args.sizes) if args.sizes else sizes
    series = {**VC_SERIES, **(ALG_SERIES if args.algorithms else {})}
    series = {k: v for k, v in series.items() if args.series is None or any(p in k for p in args.series)}
    t_start = time.perf_counter()
    print(f"load average at start: {loadavg()}  (CPU seconds below; {os.cpu_count()} cores)")
    tables = {}
    for fam, ratio in FAMILIES.items():
        if args.family is not None and fam not in args.family:
            continue
        inst = {n: instance(n, ratio) for n in sizes}
        comps = ", ".join(f"{n:,d}: {gp.n_components(inst[n][0])}" for n in sizes)
        print(f"\n# {fam}, one or two sensitive values per x; components of G_X: {comps}")
        tables[fam] = run_table(series, sizes, inst, args.budget, args.repeat)
    if not args.no_reference:
        print("\n# fast vs the plain reference (tests/reference_agglomerative.py), |S| = |X|, full runs "
              "(the reference re-evaluates every pair of Ψ from scratch: small n only)")
        for label, n, objective, util, lam in (("Algorithm 2, U2", 300, "I*", "U2", None),
                                               ("Section V-C, U1, λ=0.3", 60, "L0|I*=0", "U1", 0.3),
                                               ("Section V-C, U2, λ=0.3", 60, "L0|I*=0", "U2", 0.3)):
            jr, values = instance(n, 1)
            v = values if util == "U2" else None
            tf = timed(_traj(objective, util, lam), jr, values, args.repeat)
            ref = ref_from_range(jr, v)
            t0 = time.process_time()
            ref.alg2(lam) if objective == "I*" else ref.problem10(lam)
            tr = time.process_time() - t0
            print(f"{label:24s} {n:4d} values: fast {tf:.4f} s, reference {tr:.2f} s, ratio {tr / tf:.0f}x", flush=True)
    print(f"\nload average at end: {loadavg()}; wall time of this run {time.perf_counter() - t_start:.0f} s")
    if args.json:
        out = {fam: {k: {str(n): v for n, v in row.items()} for k, row in t.items()} for fam, t in tables.items()}
        tmp = args.json + ".tmp"
        with open(tmp, "w", encoding="utf-8") as fh:
            json.dump(out, fh, indent=1)
        os.replace(tmp, args.json)
    if args.compare:
        with open(args.compare, encoding="utf-8") as fh:
            old = json.load(fh)
        print("# new / old time (below 1: faster now)")
        for fam, table in tables.items():
            print(f"## {fam}")
            for name, row in table.items():
                o = old.get(fam, {}).get(name, {})
                cells = []
                for n in sizes:
                    a, b = row.get(n), o.get(str(n))
                    cells.append(f"{a / b:10.2f}" if a is not None and b else f"{'-':>10s}")
                print(f"{name:30s}" + "".join(cells))


if __name__ == "__main__":
    main()
