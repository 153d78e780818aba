"""Every matplotlib merge view at 10^3 and 10^4 public values, numeric and text: time to draw (PNG, 100 dpi)
against a budget of 5 s per view.

Ranges: seeded random joint ranges with |[[S]]| = 35 sensitive values in 7 groups and n public values (numbers
with one to five decimals, or place-name-like text of 10-40 characters), each public value paired with 1-3
sensitive values of one group, so G_X has 7 components. Traces: Algorithm 1 (objective L0, lambda = 0: one
sweep merges thousands of pairs), Algorithm 2 (I*, lambda = 0.1: a few joins, the rest of the tree only
completed) and Section V-C (L0 with I* = 0), from Ding & Farokhi, *Developing Non-Stochastic
Privacy-Preserving Policies Using Agglomerative Clustering*. Views: plot_trace, plot_merge_view at t = 1, the
middle step and the last step, animate_trace (3 frames, GIF), plot_merge_hierarchy (t = 1),
plot_confusability and plot_min_cut (per range).

    python benchmarks/bench_views.py [--sizes 1000 10000] [--budget 5]

Printed: wall seconds and CPU seconds of this process (one run each) and their ratios to the budget. On a shared
machine the wall time is noisy (the load average is printed with it); the CPU time is the steadier figure.
"""

from __future__ import annotations

import argparse
import os
import sys
import tempfile
import warnings
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
os.environ.setdefault("MPLBACKEND", "Agg")

import graphpriv as gp  # noqa: E402
import time  # noqa: E402

# the ranges of the views' scale tests (tests/viz/test_viz_scale.py), so the benchmark times what the tests draw
sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "tests" / "viz"))
from test_viz_scale import scale_range  # noqa: E402


MECHANISMS = {"Alg. 1 (L0)": ("L0", 0.0), "Alg. 2 (I*)": ("I*", 0.1), "Sec. V-C": ("L0|I*=0", 0.1)}


def timed(fn, *args, **kwargs):
    """Run ``fn`` once: (result, wall seconds, CPU seconds of this process)."""
    w, c = time.perf_counter(), time.process_time()
    out = fn(*args, **kwargs)
    return out, time.perf_counter() - w, time.process_time() - c


def _draw(make, out: Path) -> None:
    import matplotlib.pyplot as plt

    fig = make()
    fig = getattr(fig, "figure", fig)
    fig.savefig(out, dpi=100)
    plt.close(fig)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--sizes", type=int, nargs="+", default=[1000, 10000])
    ap.add_argument("--budget", type=float, default=5.0)
    args = ap.parse_args()
    print(f"load average before: {os.getloadavg()[0]:.2f} {os.getloadavg()[1]:.2f} {os.getloadavg()[2]:.2f}")
    print(f"{'n':>6} {'values':>7} {'trace':<12} {'view':<28} {'wall s':>8} {'/budget':>8} {'CPU s':>8} {'/budget':>8}")
    worst = worst_cpu = 0.0
    tmp = Path(tempfile.mkdtemp(prefix="bench_views_"))
    warnings.simplefilter("ignore")
    for n in args.sizes:
        for text in (False, True):
            kind = "text" if text else "numeric"
            jr = scale_range(n, text)
            rows = []
            for name, (objective, lam) in MECHANISMS.items():
                tr = gp.agglomerate(jr, objective, lam).trace
                T = len(tr)
                views = {"plot_trace": lambda: gp.viz.plot_trace(tr, jr)}
                for label, t in (("t=1", min(1, T - 1)), ("t=mid", T // 2), ("t=last", T - 1)):
                    views[f"plot_merge_view {label} ({t})"] = lambda t=t: gp.viz.plot_merge_view(tr, jr, t)
                views["plot_merge_hierarchy t=1"] = lambda: gp.viz.plot_merge_hierarchy(tr, min(1, T - 1))
                for view, make in views.items():
                    _, dt, cpu = timed(_draw, make, tmp / "v.png")
                    rows.append((name, view, dt, cpu))
                gif = tmp / "a.gif"
                _, dt, cpu = timed(gp.viz.animate_trace, tr, jr, gif, steps=sorted({0, min(1, T - 1), T - 1}))
                rows.append((name, "animate_trace (3 frames)", dt, cpu))
            for view, make in (("plot_confusability", lambda: gp.viz.plot_confusability(jr)),
                               ("plot_min_cut", lambda: gp.viz.plot_min_cut(jr))):
                _, dt, cpu = timed(_draw, make, tmp / "v.png")
                rows.append(("(range)", view, dt, cpu))
            for name, view, dt, cpu in rows:
                worst = max(worst, dt / args.budget)
                worst_cpu = max(worst_cpu, cpu / args.budget)
                print(f"{n:>6} {kind:>7} {name:<12} {view:<28} {dt:8.2f} {dt / args.budget:8.2f} {cpu:8.2f} "
                      f"{cpu / args.budget:8.2f}", flush=True)
    print(f"worst ratio to the {args.budget:g} s budget: wall {worst:.2f}, CPU {worst_cpu:.2f}")
    print(f"load average after: {os.getloadavg()[0]:.2f} {os.getloadavg()[1]:.2f} {os.getloadavg()[2]:.2f}")


if __name__ == "__main__":
    main()
