"""Greedy vs better-than-greedy search vs exact optimum (paper 003's problems (3), (5) and (10)).

Prints, for paper 003's three problems ((3) "L0", (5) "I*", (10) "L0|I*=0") and both utilities, the mean
optimality gap L - L_exact of the greedy mechanism and of ``search="beam"`` / ``search="local"`` on seeded
random instances (|X| <= 10), the fraction of the greedy gap closed, and the run-time ratio
(total search time / total greedy time). Then greedy vs search on the Hungarian data (|X| = 153), with the
default beam (width 3 + pareto 3; depths above 40 clusters expand candidate sets), the exhaustive beam
(``prune_above=None``) and one state per depth; and the cost of the beam per expanded state and per child
as |X| grows (random ranges, |S| = |X|/4): the expanded states have about (width + pareto) · |X|^3 / 6
children, all scored below 40 clusters, a candidate set of a few hundred per depth above; and the L of the
pruned beam against the exhaustive one on random ranges with 41-100 public values.

    python benchmarks/bench_search.py [--instances 20] [--max-public 9] [--seed 0] [--width 3] [--pareto 3]
                                      [--no-hungarian] [--no-pruned-check] [--no-growth]
"""

from __future__ import annotations

import argparse
import time

import numpy as np
import pandas as pd

import graphpriv as gp

def best_of(fn, repeat: int):
    """Best CPU time (time.process_time) of ``repeat`` runs of ``fn()`` and its last result: on a shared
    machine CPU seconds measure the work, wall seconds mostly the neighbours."""
    times, out = [], None
    for _ in range(max(1, repeat)):
        t0 = time.process_time()
        out = fn()
        times.append(time.process_time() - t0)
    return min(times), out

SETTINGS = [(obj, ut, lams) for obj in ("L0", "I*", "L0|I*=0")
            for ut, lams in (("U1", [0.3, 1.0, 3.0]), ("U2", [0.1, 0.3, 1.0]))]


def instances(n: int, seed: int, min_public: int, max_public: int):
    rng = np.random.default_rng(seed)
    out = []
    for _ in range(n):
        nx_ = int(rng.integers(min_public, max_public + 1))
        ns = int(rng.integers(3, 9))
        jr = gp.random_joint_range(ns, nx_, float(rng.uniform(0.12, 0.35)), seed=rng)
        values = {x: float(v) for x, v in zip(jr.public_labels, np.round(rng.uniform(0, 10, size=jr.n_public), 1))}
        out.append((jr, values))
    return out


def small(args) -> pd.DataFrame:
    inst = instances(args.instances, args.seed, args.min_public, args.max_public)
    frames = []
    for obj, ut, lams in SETTINGS:
        data = [(jr, v if ut == "U2" else None) for jr, v in inst]
        t = gp.compare_searches(data, obj, lams, ut, methods=("greedy", "local"), repeat=args.repeat)
        tb = gp.compare_searches(data, obj, lams, ut, methods=("beam",), repeat=args.repeat, exact=False,
                                 width=args.width, pareto=args.pareto)
        t["L_beam"], t["time_beam"] = tb["L_beam"], tb["time_beam"]
        t["gap_beam"] = np.maximum(0.0, t["L_beam"] - t["L_exact"])
        t["objective"], t["utility"] = obj, ut
        frames.append(t)
    return pd.concat(frames, ignore_index=True)


def report(t: pd.DataFrame) -> None:
    rows = []
    for (obj, ut), g in t.groupby(["objective", "utility"], sort=False):
        rows.append({
            "objective": obj, "utility": ut, "runs": len(g),
            "gap_greedy": g.gap_greedy.mean(), "gap_beam": g.gap_beam.mean(), "gap_local": g.gap_local.mean(),
            "closed_beam": 1 - g.gap_beam.mean() / g.gap_greedy.mean() if g.gap_greedy.mean() > 0 else float("nan"),
            "greedy_optimal": (g.gap_greedy < 1e-9).mean(), "beam_optimal": (g.gap_beam < 1e-9).mean(),
            "beam_worse": int((g.gap_beam > g.gap_greedy + 1e-9).sum()),
            "time_ratio_beam": g.time_beam.sum() / g.time_greedy.sum(),
            "time_ratio_local": g.time_local.sum() / g.time_greedy.sum(),
        })
    s = pd.DataFrame(rows)
    with pd.option_context("display.width", 200, "display.max_columns", 30):
        print(s.round(4).to_string(index=False))
    print(f"\nALL: mean gap greedy {t.gap_greedy.mean():.4f}, beam {t.gap_beam.mean():.4f} "
          f"(closes {1 - t.gap_beam.mean() / t.gap_greedy.mean():.1%}), local {t.gap_local.mean():.4f}; "
          f"beam worse than greedy in {int((t.gap_beam > t.gap_greedy + 1e-9).sum())} of {len(t)} runs; "
          f"time ratio beam/greedy {t.time_beam.sum() / t.time_greedy.sum():.1f}x "
          f"(median per run {np.median(t.time_beam / t.time_greedy):.1f}x), local/greedy {t.time_local.sum() / t.time_greedy.sum():.1f}x")


def hungarian(args) -> None:
    jr = gp.datasets.hungarian_range(missing="drop")
    print(f"\nHungarian (S = age, X = cholesterol, missing dropped): {jr}; CPU ms, best of {args.repeat} runs")
    rows = []
    for obj, ut, lams in SETTINGS:
        vals = "labels" if ut == "U2" else None
        for lam in lams[::2]:
            tg, g = best_of(lambda: gp.agglomerate(jr, obj, lam, ut, vals), 5 * args.repeat)
            tb, b = best_of(lambda: gp.agglomerate(jr, obj, lam, ut, vals, search="beam"), args.repeat)
            tx, bx = best_of(lambda: gp.agglomerate(jr, obj, lam, ut, vals, search="beam", prune_above=None), args.repeat)
            t1, b1 = best_of(lambda: gp.agglomerate(jr, obj, lam, ut, vals, search="beam", width=1, pareto=0, local=False),
                             args.repeat)
            rows.append({"objective": obj, "utility": ut, "lam": lam, "L_greedy": g.L, "L_beam": b.L, "L_exh": bx.L,
                         "L_beam1": b1.L, "greedy_ms": 1000 * tg, "beam_ms": 1000 * tb, "ratio_beam": tb / tg,
                         "exh_ms": 1000 * tx, "ratio_exh": tx / tg, "ratio_beam1": t1 / tg,
                         "pruned": b.info["pruned_depths"], "scored": b.info["children_scored"],
                         "us_per_depth": 1e6 * tb / max(1, jr.n_public - 1)})
    t = pd.DataFrame(rows)
    with pd.option_context("display.width", 240, "display.max_columns", 30):
        print(t.round(4).to_string(index=False))
    print("(beam: default (width 3 + pareto 3 + caps, prune_above=40); exh: prune_above=None, every depth expands "
          "every merge; beam1: width=1, pareto=0, local=False)")
    worse = t[t.L_beam > t.L_exh + 1e-9]
    print(f"beam/greedy at most {t.ratio_beam.max():.1f}x (exhaustive beam: {t.ratio_exh.max():.1f}x); beam L worse than "
          f"the exhaustive beam's in {len(worse)} of {len(t)} rows"
          + "".join(f"; {r.objective} {r.utility} λ={r.lam}: {r.L_beam:.4f} vs {r.L_exh:.4f}" for r in worse.itertuples()))


def pruned_check(args) -> None:
    """The pruned beam (default) against the exhaustive beam (``prune_above=None``) on seeded random ranges
    with 41-100 public values, where the depths above 40 clusters are pruned."""
    rng = np.random.default_rng(7)
    rows = []
    for _ in range(10):
        n = int(rng.integers(41, 101))
        ns = int(rng.integers(max(3, n // 8), max(4, n // 3)))
        jr = gp.random_joint_range(ns, n, float(rng.uniform(1.5, 3.0)) / ns, seed=int(rng.integers(1e9)))
        vals = {x: float(v) for x, v in zip(jr.public_labels, np.round(rng.uniform(0, 100, size=n), 1))}
        for obj in ("L0", "L0|I*=0"):
            for ut, lam in (("U1", 0.3), ("U1", 3.0), ("U2", 0.1), ("U2", 1.0)):
                v = vals if ut == "U2" else None
                tg, g = best_of(lambda: gp.agglomerate(jr, obj, lam, ut, v), 1)
                tp, p = best_of(lambda: gp.agglomerate(jr, obj, lam, ut, v, search="beam"), 1)
                te, e = best_of(lambda: gp.agglomerate(jr, obj, lam, ut, v, search="beam", prune_above=None), 1)
                rows.append((g.L, p.L, e.L, tg, tp, te))
    g, p, e, tg, tp, te = map(np.array, zip(*rows))
    print(f"\nPruned vs exhaustive beam, 10 random ranges with |X| in [41, 100], problems (3) and (10), U1 and U2, "
          f"{len(g)} runs: mean L(pruned) - L(exhaustive) {np.mean(p - e):+.4f}; pruned worse in {int((p > e + 1e-9).sum())}, "
          f"better in {int((p < e - 1e-9).sum())}; worse than greedy in {int((p > g + 1e-9).sum())}; "
          f"gap to greedy closed {np.mean(g - p) / np.mean(g - e):.1%} of the exhaustive beam's; "
          f"CPU {tp.sum():.2f} s vs {te.sum():.2f} s (greedy {tg.sum():.2f} s)")


def growth(args) -> None:
    """Beam cost per scored child as |X| grows: random ranges with |S| = |X|/4, about two sensitive values per x."""
    print("\nBeam cost as |X| grows (random ranges, |S| = |X|/4, default beam, L0 and problem (10), U1, λ = 0.3; CPU ms)")
    rows = []
    for n in (20, 50, 80, 153, 300):
        jr = gp.random_joint_range(max(3, n // 4), n, 2.0 / max(3, n // 4), seed=n)
        for obj in ("L0", "L0|I*=0"):
            tg, _ = best_of(lambda: gp.agglomerate(jr, obj, 0.3), 5 * args.repeat)
            tb, b = best_of(lambda: gp.agglomerate(jr, obj, 0.3, search="beam"), args.repeat)
            rows.append({"n_public": n, "objective": obj, "greedy_ms": 1000 * tg, "beam_ms": 1000 * tb, "ratio": tb / tg,
                         "states": b.info["states_expanded"], "children": b.info["children"],
                         "scored": b.info["children_scored"], "pruned_depths": b.info["pruned_depths"],
                         "us_per_state": 1e6 * tb / max(1, b.info["states_expanded"]),
                         "ns_per_child": 1e9 * tb / max(1, b.info["children"]),
                         "ns_per_scored": 1e9 * tb / max(1, b.info["children_scored"])})
    t = pd.DataFrame(rows)
    with pd.option_context("display.width", 200, "display.max_columns", 30):
        print(t.round(3).to_string(index=False))
    for obj, g in t.groupby("objective", sort=False):
        e_t = np.polyfit(np.log(g.n_public), np.log(g.beam_ms), 1)[0]
        e_c = np.polyfit(np.log(g.n_public), np.log(g.children), 1)[0]
        e_s = np.polyfit(np.log(g.n_public), np.log(g.us_per_state), 1)[0]
        print(f"{obj}: beam time ~ |X|^{e_t:.2f}, children of the expanded states ~ |X|^{e_c:.2f}, "
              f"time per expanded state ~ |X|^{e_s:.2f}")
    print("(children: all merges of the expanded states; scored: those scored -- the candidate sets of the depths "
          "above prune_above = 40 clusters, every merge below)")


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--instances", type=int, default=20)
    ap.add_argument("--min-public", type=int, default=6)
    ap.add_argument("--max-public", type=int, default=9)
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--repeat", type=int, default=3)
    ap.add_argument("--width", type=int, default=3)
    ap.add_argument("--pareto", type=int, default=3)
    ap.add_argument("--no-small", action="store_true")
    ap.add_argument("--no-hungarian", action="store_true")
    ap.add_argument("--no-growth", action="store_true")
    ap.add_argument("--no-pruned-check", action="store_true")
    args = ap.parse_args()
    if not args.no_small:
        t0 = time.perf_counter()
        t = small(args)
        print(f"{args.instances} random instances, |X| in [{args.min_public}, {args.max_public}], seed {args.seed}, "
              f"beam width {args.width} + pareto {args.pareto}; {len(t)} runs ({time.perf_counter() - t0:.0f} s)\n")
        report(t)
    if not args.no_hungarian:
        hungarian(args)
    if not args.no_pruned_check:
        pruned_check(args)
    if not args.no_growth:
        growth(args)


if __name__ == "__main__":
    main()
