"""Certified exact frontiers past the Bell wall, and optimal interval releases at 10^4 values.

Prints, for paper 003's problems ((3) "L0", (5) "I*", (10) "L0|I*=0") x (U1, U2):

1. the whole exact frontier (``gp.exact_frontier(method="solver")``) of random ranges with |X| = 20,
   |S| = 8, each public value with one or two sensitive values (values uniform on [0, 10], one decimal):
   wall and CPU seconds, whether certified, number of points, threshold problems solved, and whether
   the certified frontier dominates the greedy one (goal: <= 60 s per pair);
2. the same at |X| = 30 with ``time_limit=300``: certified, or the proven gap (goal: gap <= 5 %);
3. ``--compare-solvers``: OR-Tools CP-SAT against HiGHS (scipy.optimize.milp) on the same instances;
4. ``gp.interval_frontier`` at |X| = 10^4 with |S| = 16 and with |S| = 500 (hundreds of privacy levels;
   goal: <= 10 s), L0 with U1 and U2: wall and CPU seconds, the number of levels and of level recursions
   actually run, seconds per level, and the ratio to one greedy frontier (``gp.pareto_frontier``) on the
   same range; ``--interval-sizes`` adds other (|X|, |S|) pairs (e.g. 20000x1000);
5. ``--time-limits``: ``gp.exact_frontier(..., time_limit=t)`` at |X| = 400 and 1,000 (|S| = 40): the
   whole call's wall and CPU seconds against the limit (the limit covers the starting solutions and the
   model building; the ratio wall / limit should stay near 1 on an unloaded machine);
6. ``--families 40 60``: the six pairs on ``gp.random_joint_range(|S|, N, p)`` for six (|S|, p) families,
   from connected G_X to 6-12 components (integer values 0..99 for U2), ``time_limit=300``: wall seconds,
   certified, gap (goals: certified at |X| = 40, gap <= 3 % at 60).

CPU seconds count the solver's two worker threads; wall seconds include the machine's other load
(printed with ``uptime``'s load average): on a shared 2-core machine the numbers are noisy.

    python benchmarks/bench_exact.py [--seeds 2] [--n 20] [--n-large 30] [--no-large] [--compare-solvers]
                                     [--no-interval] [--interval-sizes 10000x500 20000x1000] [--time-limits]
                                     [--families 40 60]
"""

from __future__ import annotations

import argparse
import os
import sys
import time
from pathlib import Path

import graphpriv as gp

# the random ranges of the solver's tests (tests/mechanisms/quantization/test_exact_solver.py): the benchmark
# times the family the tests check against enumeration
sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "tests" / "mechanisms" / "quantization"))
from test_exact_solver import PAIRS, random_range  # noqa: E402


def timed(fn):
    w, c = time.perf_counter(), time.process_time()
    out = fn()
    return time.perf_counter() - w, time.process_time() - c, out


def dominates_greedy(f, g) -> bool:
    """Every greedy point is weakly dominated by a point of the certified frontier."""
    return all(any(p.privacy <= q.privacy + 1e-12 and p.utility >= q.utility - 1e-12 for p in f.points) for q in g.points)


def frontier_rows(n: int, seeds: int, time_limit, solver: str = "auto", n_s: int = 8, pairs=PAIRS):
    print(f"\n== whole exact frontier, |X| = {n}, |S| = {n_s}, solver={solver}, time_limit={time_limit} ==")
    print(f"{'seed':>4} {'problem':>8} {'U':>3} {'wall s':>7} {'CPU s':>7} {'certified':>9} {'gap':>7} {'points':>6} "
          f"{'tests':>5} {'greedy pts':>10} {'dominates greedy':>16}")
    worst = {}
    for seed in range(seeds):
        jr, values = random_range(n, n_s, seed)
        if pairs is not PAIRS:
            print(f"     (seed {seed}: G_X has {gp.n_components(jr) if hasattr(gp, 'n_components') else round(2 ** gp.maximin_information(jr))} components)")
        for objective, utility in pairs:
            wall, cpu, f = timed(lambda: gp.exact_frontier(jr, objective, utility, values, method="solver", solver=solver,
                                                           time_limit=time_limit))
            g = gp.pareto_frontier(jr, objective, utility, values)
            print(f"{seed:4d} {objective:>8} {utility:>3} {wall:7.2f} {cpu:7.2f} {str(f.certified):>9} {f.gap:7.3%} "
                  f"{len(f.points):6d} {f.proof['tests']:5d} {len(g.points):10d} {str(dominates_greedy(f, g)):>16}",
                  flush=True)
            key = (objective, utility)
            worst[key] = max(worst.get(key, 0.0), wall)
    print("slowest wall time per pair: " + ", ".join(f"{o}/{u} {t:.1f} s" for (o, u), t in worst.items()))
    return worst


#: (|S|, p) of gp.random_joint_range: dense to sparse supports, from G_X connected to 6-12 components at |X| = 40
FAMILIES = [(8, 0.25), (8, 0.5), (20, 0.1), (30, 0.05), (40, 0.03), (12, 0.3)]


def family_rows(n: int, seeds: int, time_limit: float = 300.0):
    """The six problem x utility pairs on ``gp.random_joint_range(|S|, n, p)`` for every family, integer values
    0..99 for U2: wall seconds, certified, gap."""
    import numpy as np

    print(f"\n== whole exact frontier on gp.random_joint_range(|S|, {n}, p), time_limit={time_limit:g} ==")
    print(f"{'|S|':>4} {'p':>5} {'seed':>4} {'comps':>5} {'problem':>8} {'U':>3} {'wall s':>7} {'certified':>9} {'gap':>7}")
    worst, open_ = 0.0, 0
    for ns, p in FAMILIES:
        for seed in range(seeds):
            jr = gp.random_joint_range(ns, n, p, seed=seed)
            rng = np.random.default_rng(seed)
            values = {x: float(rng.integers(0, 100)) for x in jr.public_labels}
            comps = round(2 ** gp.maximin_information(jr))
            for objective, utility in PAIRS:
                wall, _, f = timed(lambda: gp.exact_frontier(jr, objective, utility, values if utility == "U2" else None,
                                                               method="solver", time_limit=time_limit))
                worst, open_ = max(worst, wall), open_ + (not f.certified)
                print(f"{ns:4d} {p:5.2f} {seed:4d} {comps:5d} {objective:>8} {utility:>3} {wall:7.1f} {str(f.certified):>9} "
                      f"{f.gap:7.3%}", flush=True)
    print(f"slowest {worst:.1f} s; {open_} frontier(s) not certified")


def compare_solvers(seeds: int, sizes=(12, 14)):
    print("\n== CP-SAT vs HiGHS on the same instances (whole frontier, wall / CPU seconds) ==")
    print(f"{'|X|':>4} {'seed':>4} {'problem':>8} {'U':>3} {'CP-SAT wall':>11} {'CPU':>6} {'HiGHS wall':>10} {'CPU':>6} "
          f"{'same':>5} {'ratio':>6}")
    tot = {"cp-sat": 0.0, "highs": 0.0}
    for n in sizes:
        for seed in range(seeds):
            jr, values = random_range(n, 8, seed)
            for objective, utility in PAIRS:
                out = {}
                for solver in ("cp-sat", "highs"):
                    out[solver] = timed(lambda: gp.exact_frontier(jr, objective, utility, values, method="solver",
                                                                  solver=solver, time_limit=120))
                    tot[solver] += out[solver][0]
                a, b = out["cp-sat"][2], out["highs"][2]
                same = [(round(p.privacy, 9), round(p.utility, 9)) for p in a.points] == \
                       [(round(p.privacy, 9), round(p.utility, 9)) for p in b.points]
                print(f"{n:4d} {seed:4d} {objective:>8} {utility:>3} {out['cp-sat'][0]:11.2f} {out['cp-sat'][1]:6.2f} "
                      f"{out['highs'][0]:10.2f} {out['highs'][1]:6.2f} {str(same):>5} "
                      f"{out['highs'][0] / max(out['cp-sat'][0], 1e-9):6.1f}", flush=True)
    print(f"total wall: CP-SAT {tot['cp-sat']:.1f} s, HiGHS {tot['highs']:.1f} s (HiGHS / CP-SAT = "
          f"{tot['highs'] / max(tot['cp-sat'], 1e-9):.1f})")


def interval_rows(n: int = 10_000, n_s: int = 16):
    from graphpriv.mechanisms.quantization import interval as interval_mod

    print(f"\n== interval_frontier, |X| = {n}, |S| = {n_s} (values with 6 decimals) ==")
    jr, values = random_range(n, n_s, 0, decimals=6)
    calls = []
    real = interval_mod._LevelDP.__call__

    def counted(self, k):
        calls.append(k)
        return real(self, k)

    interval_mod._LevelDP.__call__ = counted
    try:
        for objective, utility in (("L0", "U1"), ("L0", "U2"), ("L0|I*=0", "U1")):
            calls.clear()
            wall, cpu, f = timed(lambda: gp.interval_frontier(jr, objective, utility, values))
            gw, gc, _ = timed(lambda: gp.pareto_frontier(jr, objective, utility, values))
            levels = len(f.proof["levels"])
            print(f"{objective:>8} {utility}: wall {wall:6.2f} s, CPU {cpu:6.2f} s, {levels} levels, {len(calls)} level "
                  f"recursions run, {1000 * cpu / max(levels, 1):.1f} ms CPU per level, {len(f.points)} points, certified "
                  f"{f.certified}; greedy frontier CPU {gc:.2f} s (interval / greedy = {cpu / max(gc, 1e-9):.2f})", flush=True)
    finally:
        interval_mod._LevelDP.__call__ = real


def time_limit_rows(sizes=(400, 1000), limits=(0.01, 1.0), n_s: int = 40):
    print(f"\n== exact_frontier(time_limit=t): the limit covers the whole call (|S| = {n_s}) ==")
    print(f"{'|X|':>5} {'limit':>6} {'problem':>8} {'U':>3} {'wall s':>7} {'CPU s':>6} {'wall/limit':>10} {'certified':>9} {'gap':>7}")
    for n in sizes:
        jr, values = random_range(n, n_s, 0)
        for limit in limits:
            for objective, utility in PAIRS:
                wall, cpu, f = timed(lambda: gp.exact_frontier(jr, objective, utility, values, method="solver",
                                                               time_limit=limit))
                print(f"{n:5d} {limit:6.2f} {objective:>8} {utility:>3} {wall:7.2f} {cpu:6.2f} {wall / limit:10.1f} "
                      f"{str(f.certified):>9} {f.gap:7.3%}", flush=True)


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--seeds", type=int, default=2)
    ap.add_argument("--n", type=int, default=20)
    ap.add_argument("--n-large", type=int, default=30)
    ap.add_argument("--no-large", action="store_true")
    ap.add_argument("--no-interval", action="store_true")
    ap.add_argument("--no-small", action="store_true")
    ap.add_argument("--compare-solvers", action="store_true")
    ap.add_argument("--solver-sizes", type=int, nargs="+", default=[12, 14])
    ap.add_argument("--interval-sizes", nargs="+", default=["10000x16", "10000x500"],
                    help="(|X|)x(|S|) pairs of the interval frontier rows")
    ap.add_argument("--time-limits", action="store_true")
    ap.add_argument("--families", type=int, nargs="*", default=[], metavar="N",
                    help="also the six families of gp.random_joint_range at |X| = N (e.g. --families 40 60)")
    args = ap.parse_args()
    print(f"load average {os.getloadavg()[0]:.1f} {os.getloadavg()[1]:.1f} {os.getloadavg()[2]:.1f} on {os.cpu_count()} cores")
    if not args.no_small:
        frontier_rows(args.n, args.seeds, time_limit=120)
        # with |S| = 8 and one or two sensitive values per x, G_X is connected and I* is trivial: also sparser ranges
        frontier_rows(args.n, args.seeds, time_limit=120, n_s=30, pairs=[("I*", "U1"), ("I*", "U2")])
    if not args.no_large:
        frontier_rows(args.n_large, max(1, args.seeds - 1), time_limit=300)
    if args.compare_solvers:
        compare_solvers(args.seeds, sizes=tuple(args.solver_sizes))
    if not args.no_interval:
        for size in args.interval_sizes:
            n, n_s = (int(v) for v in size.lower().split("x"))
            interval_rows(n, n_s)
    if args.time_limits:
        time_limit_rows()
    for n in args.families:
        family_rows(n, args.seeds)
    print(f"load average {os.getloadavg()[0]:.1f} {os.getloadavg()[1]:.1f} {os.getloadavg()[2]:.1f}")


if __name__ == "__main__":
    main()
