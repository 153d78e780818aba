"""Speed of paper 004's Algorithms 1-2 (perfect sample privacy): prints times, asserts nothing.

Goal (issue 6): Table I for n = 4 in under 5 s; n = 5 reported (time and value).

Run:  python benchmarks/bench_sample_privacy.py [--no-bases-n5]
"""

from __future__ import annotations

import sys
import time

import numpy as np

import graphpriv as gp
from graphpriv.graphs.hypergraph import _cdd_available
from _timing import timed

TABLE1 = dict(p_w=[2 / 3, 1 / 3], p_x_given_w=[[0.9, 0.1], [0.1, 0.9]])
PAPER = {2: 8.34e-3, 3: 4.88e-2, 4: 4.47e-2}


def main() -> None:
    methods = (["cdd"] if _cdd_available() else []) + ["bases"]
    print(f"vertex enumeration methods available: {methods}")
    print(f"{'n':>2} {'method':>6} {'I_s (bits)':>12} {'paper':>9} {'#vertices':>9} {'|Y|':>4} {'nullity':>7} {'time (s)':>9}")
    total_n4 = {}
    for n in (2, 3, 4, 5):
        for method in methods:
            if n == 5 and method == "bases" and "--no-bases-n5" in sys.argv:
                continue
            t0 = time.perf_counter()
            pw, px = gp.iid_samples_model(TABLE1["p_w"], TABLE1["p_x_given_w"], n)
            res = gp.synergistic_disclosure(pw, px, method=method, max_bases=None)
            dt = time.perf_counter() - t0
            if n == 4:
                total_n4[method] = dt
            paper = f"{PAPER[n]:.3g}" if n in PAPER else "-"
            print(f"{n:>2} {method:>6} {res.value:>12.7f} {paper:>9} {res.n_vertices:>9} {res.n_outputs:>4} "
                  f"{res.hypergraph.nullity:>7} {dt:>9.3f}")
    for m, dt in total_n4.items():
        print(f"Table I n = 4 with {m}: {dt:.3f} s (goal < 5 s): {'OK' if dt < 5 else 'SLOW'}")

    # Table I in one go (n = 2, 3, 4), default method
    _, dt = timed(lambda: [gp.synergistic_disclosure(*gp.iid_samples_model(TABLE1["p_w"], TABLE1["p_x_given_w"], n))
                           for n in (2, 3, 4)])
    print(f"Table I (n = 2, 3, 4) total, default method: {dt:.3f} s")

    # Example 2 and self-disclosure of n = 4 i.i.d. bits (Fig. 4 points)
    p = np.array([[1, 3, 2], [2, 3, 1]]) / 12
    pw = np.array([[1, 2 / 3, 0, 1, 1 / 3, 0], [0, 1 / 3, 1, 0, 2 / 3, 1]])
    res, dt = timed(gp.synergistic_disclosure, pw, p)
    print(f"Example 2: I_s = {res.value:.6f} bits in {dt * 1e3:.1f} ms")
    qs = np.round(np.arange(0.02, 0.5001, 0.02), 4)
    px = lambda q: np.multiply.outer(np.multiply.outer(np.outer([1 - q, q], [1 - q, q]), [1 - q, q]), [1 - q, q])  # noqa: E731
    _, dt = timed(lambda: [gp.self_disclosure(px(q)) for q in qs])
    print(f"Fig. 4 optimal curve ({len(qs)} values of q, n = 4 self-disclosure): {dt:.3f} s")
    _, dt = timed(lambda: [gp.partial_processing(px(q)) for q in qs])
    print(f"Fig. 4 Y_par curve: {dt:.3f} s")
    _, dt = timed(lambda: [gp.preprocessing_mechanism(px(q)) for q in qs])
    print(f"Fig. 4 Y_pre curve: {dt:.3f} s")


if __name__ == "__main__":
    main()
