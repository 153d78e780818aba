"""Timings of the principal sequence of partitions (gp.principal_partitions) at 10^3 public values: random
ranges of several densities, a block-structured range, G_X (unit and weighted) and the support graph;
the number of cut problems solved and skipped; the Hungarian data; the other max-flow engines on a
smaller range. The goal is at most 10 s per sequence at 10^3 values.

    python benchmarks/bench_psp.py [--n 1000] [--seed 0] [--engines]
"""

from __future__ import annotations

import argparse
import time

import numpy as np

import graphpriv as gp
from graphpriv.graphs import principal as _principal
from _timing import timed

GOAL_SECONDS = 10.0


def _counting(fn):
    """Wrap the Dilworth truncation to count its steps (one per node of each truncation: a cut problem, solved or
    skipped)."""
    counts = {"truncations": 0, "nodes": 0}

    def wrapped(n, edges, w, p, q, cut):
        counts["truncations"] += 1
        counts["nodes"] += n
        return fn(n, edges, w, p, q, cut)

    return wrapped, counts


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--n", type=int, default=1000, help="public values")
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--engines", action="store_true", help="also time igraph and networkx on a 200-value range")
    args = ap.parse_args()
    n = args.n
    t0 = time.perf_counter()
    gp.principal_partitions(gp.random_joint_range(4, 8, 0.5, seed=0))       # numba compiles (or loads its cache)
    print(f"first call (compile or load the compiled kernel): {time.perf_counter() - t0:.2f} s")
    cases = [
        ("sparse: |S| = n/2, 3 pairs per value", gp.random_joint_range(n // 2, n, 3 / (n // 2), seed=args.seed)),
        ("medium: |S| = 300, p = 0.01", gp.random_joint_range(300, n, 0.01, seed=args.seed)),
        ("dense: |S| = 100, p = 0.03", gp.random_joint_range(100, n, 0.03, seed=args.seed)),
        ("very sparse: |S| = n, p = 2/n (many components)", gp.random_joint_range(n, n, 2 / n, seed=args.seed)),
        ("10 planted blocks", gp.random_block_range([30] * 10, [n // 10] * 10, 0.08, 0.002, seed=args.seed)),
    ]
    original = _principal._truncation
    worst = 0.0
    print(f"{'range':<48} {'graph':>20} {'|V|':>5} {'|E|':>6} {'k':>4} {'seconds':>8} {'truncation steps':>16}")
    try:
        for name, jr in cases:
            for graph, weighted in (("confusability", False), ("confusability", True), ("support", False)):
                wrapped, counts = _counting(original)
                _principal._truncation = wrapped
                seq, t = timed(gp.principal_partitions, jr, graph=graph, weighted=weighted)
                nodes, edges = seq.n_nodes, len(_principal._graph_arrays(jr, graph, weighted, None)[1])
                worst = max(worst, t)
                label = graph + (" weighted" if weighted else "")
                print(f"{name:<48} {label:>20} {nodes:>5} {edges:>6} {len(seq):>4} {t:>8.2f} {counts['nodes']:>16}")
    finally:
        _principal._truncation = original
    print(f"slowest: {worst:.2f} s (goal <= {GOAL_SECONDS:.0f} s at {n} values): {'met' if worst <= GOAL_SECONDS else 'NOT met'}")
    jr = gp.datasets.hungarian_range()
    for graph in ("confusability", "support"):
        seq, t = timed(gp.principal_partitions, jr, graph=graph)
        print(f"Hungarian {graph}: {seq!r} in {t:.3f} s")
    if args.engines:
        jr = gp.random_joint_range(100, 200, 0.03, seed=args.seed)
        ref = None
        for backend in gp.PRINCIPAL_BACKENDS:
            seq, t = timed(gp.principal_partitions, jr, backend=backend)
            same = ref is None or (seq.critical_values == ref.critical_values and np.array_equal(seq.memberships, ref.memberships))
            ref = ref or seq
            print(f"200 values, backend={backend}: {len(seq)} critical values in {t:.2f} s; same result: {same}")


if __name__ == "__main__":
    main()
