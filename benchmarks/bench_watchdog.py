"""Benchmark of the privacy watchdog and Algorithm 1 (issue 5) on |S| = 1,000, |X| = 10,000.

Target: ``gp.watchdog`` and ``gp.watchdog_eps_delta`` each under 2 s (prints times; no assertion).
The joint pmf is dense (10^7 entries), drawn with ``JointDistribution.random`` (uniform or Dirichlet law).

Run:  python benchmarks/bench_watchdog.py [--sensitive 1000] [--public 10000] [--repeat 3]
"""

from __future__ import annotations

import argparse
import time

import graphpriv as gp
from _timing import best_of


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--sensitive", type=int, default=1000)
    ap.add_argument("--public", type=int, default=10000)
    ap.add_argument("--repeat", type=int, default=3)
    ap.add_argument("--seed", type=int, default=0)
    a = ap.parse_args()
    print(f"|S|={a.sensitive} |X|={a.public}  (best of {a.repeat}; target < 2 s each)")
    for scheme, eps, delta, eps_bar in [("uniform", 1.0, 0.01, float("inf")), ("uniform", 1.0, 0.01, 4.0), ("dirichlet", 2.0, 0.05, float("inf"))]:
        t0 = time.perf_counter()
        jd = gp.JointDistribution.random(a.sensitive, a.public, scheme, seed=a.seed)
        t_build = time.perf_counter() - t0
        t_w, w = best_of(lambda: gp.watchdog(jd, eps), a.repeat)
        t_g, r = best_of(lambda: gp.watchdog_eps_delta(jd, eps, delta, eps_bar), a.repeat)
        t_s, sw = best_of(lambda: gp.critical_sweep(jd), 1)
        tested = sum(1 for s in r.trace if s.position >= 0)
        print(f"[{scheme}] build+validate {t_build:.2f} s")
        print(f"  watchdog(eps={eps})                               {t_w:.3f} s   |X_eps^c|={int(w.randomized.sum())} "
              f"eps_c={w.eps_c:.4f} NMIL={w.nmil:.4f}")
        print(f"  watchdog_eps_delta(eps={eps}, delta={delta}, eps_bar={eps_bar})  {t_g:.3f} s   candidates tested={tested} "
              f"accepted={r.n_accepted} NMIL={r.nmil:.4f} Delta_total={r.delta_total:.4g}")
        print(f"  critical_sweep ({len(sw)} levels)                    {t_s:.3f} s")


if __name__ == "__main__":
    main()
