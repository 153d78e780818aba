"""How far are paper 003's greedy Algorithms 1 and 2 from optimal on the paper's own Hungarian data?

Ding & Farokhi, *Developing Non-Stochastic Privacy-Preserving Policies Using Agglomerative Clustering*,
Section VII: S = age, X = cholesterol of the Hungarian heart-disease data. U1 keeps missing cholesterol as
its own value (154 public values), U2 needs numbers and drops those rows (153 values). For Algorithm 1's
problem (3) (L0) and Algorithm 2's problem (5) (I*), with U1 and U2, this prints

* the whole certified frontier run (``gp.exact_frontier(method="solver", time_limit=T)``): wall and CPU
  seconds, certified or not, the proven gap (share of the utility range U(X) - U(one cluster));
* for every privacy level: the greedy frontier's utility (the best greedy point at that privacy or
  better), the best utility found, the proven upper bound and the level's status; and how far greedy is
  from optimal: at least (best found - greedy) and at most (bound - greedy), in utility units and as a
  share of the utility range.

CPU seconds count the solver's two worker threads; wall seconds include the machine's other load
(``uptime``'s load average is printed).

    python benchmarks/bench_hungarian_optimum.py [--time-limit 300] [--pairs L0/U1 L0/U2 I*/U1 I*/U2]
"""

from __future__ import annotations

import argparse
import math
import os
import time

import graphpriv as gp
from graphpriv.datasets import hungarian_range


def hungarian(utility: str):
    if utility == "U2":
        jr = hungarian_range(missing="drop")
        return jr, {x: float(x) for x in jr.public_labels.tolist()}
    return hungarian_range(), None


def greedy_at(greedy, privacy: float) -> float:
    return max((p.utility for p in greedy.points if p.privacy <= privacy + 1e-12), default=-math.inf)


def run(objective: str, utility: str, time_limit: float) -> dict:
    jr, values = hungarian(utility)
    w, c = time.perf_counter(), time.process_time()
    f = gp.exact_frontier(jr, objective, utility, values, method="solver", time_limit=time_limit)
    wall, cpu = time.perf_counter() - w, time.process_time() - c
    g = gp.pareto_frontier(jr, objective, utility, values)
    span = f.utility_of_x - f.utility_hat
    print(f"\n== {objective} with {utility}: |X| = {jr.n_public}, |S| = {jr.n_sensitive}, time limit {time_limit:g} s ==")
    print(f"wall {wall:.1f} s, CPU {cpu:.1f} s, certified {f.certified}, proven gap {f.gap:.2%} of the utility range "
          f"({span:.4g}), {f.proof['tests']} threshold problems")
    print(f"{'level':>5} {'privacy':>8} {'greedy':>10} {'best':>10} {'bound':>10} {'status':>9} "
          f"{'greedy short by':>22} {'s':>6}")
    lo_all, hi_all = 0.0, 0.0
    for r in f.proof["levels"]:
        gu = greedy_at(g, r["privacy"])
        lo, hi = r["utility"] - gu, r["bound"] - gu
        lo_all, hi_all = max(lo_all, lo), max(hi_all, hi)
        short = f"{lo:.4g}" if r["status"] == "optimal" else f"{lo:.4g} .. {hi:.4g}"
        print(f"{r['level']:5d} {r['privacy']:8.4f} {gu:10.4f} {r['utility']:10.4f} {r['bound']:10.4f} "
              f"{r['status']:>9} {short:>22} {r['seconds']:6.1f}")
    print(f"greedy is short of the optimum by at least {lo_all:.4g} ({lo_all / span:.2%} of the range) and at most "
          f"{hi_all:.4g} ({hi_all / span:.2%}) at its worst privacy level"
          + (" (certified: exactly)" if f.certified else ""))
    return {"objective": objective, "utility": utility, "wall": wall, "cpu": cpu, "certified": f.certified,
            "gap": f.gap, "greedy_short_min": lo_all / span, "greedy_short_max": hi_all / span}


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--time-limit", type=float, default=300.0)
    ap.add_argument("--pairs", nargs="+", default=["I*/U1", "I*/U2", "L0/U1", "L0/U2"])
    args = ap.parse_args()
    print(f"load average {os.getloadavg()[0]:.1f} {os.getloadavg()[1]:.1f} {os.getloadavg()[2]:.1f} on {os.cpu_count()} cores")
    rows = [run(*pair.split("/"), args.time_limit) for pair in args.pairs]
    print("\n== summary ==")
    for r in rows:
        print(f"{r['objective']:>3} {r['utility']}: wall {r['wall']:6.1f} s, CPU {r['cpu']:6.1f} s, certified "
              f"{str(r['certified']):>5}, gap {r['gap']:.2%}; greedy short by {r['greedy_short_min']:.2%} .. "
              f"{r['greedy_short_max']:.2%} of the utility range")
    print(f"load average {os.getloadavg()[0]:.1f} {os.getloadavg()[1]:.1f} {os.getloadavg()[2]:.1f}")


if __name__ == "__main__":
    main()
