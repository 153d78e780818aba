"""Benchmark of the core layer (issue 2): build a JointRange from 10^7 records and compute I* / the finest decomposition.

Reference: one bare ``scipy.sparse.csgraph.connected_components`` call on the bipartite COO edge list of the same
pairs. Targets: components + I* <= 1.5x the bare call; building the JointRange from two integer arrays <= 3x.

Run:  python benchmarks/bench_core.py [--rows 10000000] [--sensitive 200000] [--public 5000000] [--repeat 3]
"""

from __future__ import annotations

import argparse
import time

import numpy as np
import scipy.sparse as sp
from scipy.sparse.csgraph import connected_components

import graphpriv as gp
from graphpriv.graphs.support import support_components
from _timing import best_of


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--rows", type=int, default=10_000_000)
    ap.add_argument("--sensitive", type=int, default=200_000)
    ap.add_argument("--public", type=int, default=5_000_000)
    ap.add_argument("--repeat", type=int, default=3)
    ap.add_argument("--seed", type=int, default=0)
    a = ap.parse_args()
    rng = np.random.default_rng(a.seed)
    s = rng.integers(0, a.sensitive, a.rows)
    x = rng.integers(0, a.public, a.rows)

    t_build, jr = best_of(lambda: gp.JointRange.from_pairs(s, x), a.repeat)
    n_s, n_x = jr.shape
    coo = jr.matrix.tocoo()
    N = n_s + n_x
    edges = sp.coo_array((np.ones(coo.nnz, dtype=bool), (coo.row, coo.col + n_s)), shape=(N, N))
    t_bare, (n_bare, _) = best_of(lambda: connected_components(edges, directed=False), a.repeat)

    def ours():
        comp = support_components(jr.matrix)  # fresh (the cached gp.components would be free)
        return comp, float(np.log2(comp.n_components))

    t_ours, (comp, istar) = best_of(ours, a.repeat)
    assert comp.n_components == n_bare
    print(f"pairs: {jr.n_pairs:,}  |S| = {n_s:,}  |X| = {n_x:,}  components = {comp.n_components:,}  I* = {istar:.4f} bits")
    print(f"bare connected_components (COO edge list): {t_bare:.3f} s")
    print(f"I* + finest decomposition (arrays):        {t_ours:.3f} s   ratio {t_ours / t_bare:.2f}  (target <= 1.5)")
    print(f"JointRange.from_pairs on {a.rows:,} rows:   {t_build:.3f} s   ratio {t_build / t_bare:.2f}  (target <= 3)")


if __name__ == "__main__":
    main()
