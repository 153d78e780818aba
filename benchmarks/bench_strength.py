"""Timings of the distance-to-decomposability tools (issue 8): edge connectivity, network strength
(Cunningham / Barahona attack + Dinkelbach) and Gomory-Hu trees, igraph vs networkx backends, on random
connected joint ranges of growing size; plus the Hungarian data.

    python benchmarks/bench_strength.py [--sizes 25 50 100 200] [--seed 0]
"""

from __future__ import annotations

import argparse
import time

import numpy as np

import graphpriv as gp
from _timing import timed


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--sizes", type=int, nargs="+", default=[25, 50, 100, 200])
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--degree", type=float, default=3.0, help="mean |[[S|x]]| (pairs per public value)")
    args = ap.parse_args()
    warm = gp.random_joint_range(5, 8, 0.5, seed=0)        # import igraph / networkx outside the timings
    for backend in ("igraph", "networkx"):
        gp.network_strength(warm, backend=backend); gp.edge_connectivity(warm, backend=backend); gp.gomory_hu_tree(warm, backend=backend)
    print(f"{'|X|':>5} {'|S|':>5} {'G_X edges':>9} {'graph':>13} {'what':>18} {'igraph s':>9} {'networkx s':>10} {'ratio':>6}  value")
    for n in args.sizes:
        ns = max(4, n // 2)
        jr = gp.random_joint_range(ns, n, args.degree / ns, seed=args.seed)
        edges = int(gp.confusability_adjacency(jr).sum()) // 2
        for graph in ("confusability", "support"):
            for name, fn in (("edge_connectivity", gp.edge_connectivity), ("network_strength", gp.network_strength),
                             ("gomory_hu_tree", gp.gomory_hu_tree)):
                a, ta = timed(fn, jr, graph=graph)
                b, tb = timed(fn, jr, graph=graph, backend="networkx")
                if name == "gomory_hu_tree":
                    val = f"{a.number_of_edges()} tree edges"
                    assert sorted(d['weight'] for *_, d in a.edges(data=True)) == sorted(d['weight'] for *_, d in b.edges(data=True))
                else:
                    val = f"{a.value:.4g}"
                    assert a.value == b.value
                print(f"{n:>5} {ns:>5} {edges:>9} {graph:>13} {name:>18} {ta:>9.4f} {tb:>10.4f} {tb / ta:>6.1f}  {val}")
    jr = gp.datasets.hungarian_range()
    for graph in ("confusability", "support"):
        s, t = timed(gp.network_strength, jr, graph=graph)
        c, tc = timed(gp.edge_connectivity, jr, graph=graph)
        print(f"Hungarian {graph}: strength {s.value} ({s.n_parts} parts, {t:.4f} s), edge connectivity {c.value} ({tc:.4f} s)")


if __name__ == "__main__":
    main()
