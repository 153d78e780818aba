"""Explorer build time and page size against the number of public values.

Builds ``gp.viz.explore(result, jr).save(path)`` (payload, candidate table, bokeh document, HTML with the
library inlined) for the Hungarian range (S = age, X = cholesterol, missing values dropped: 153 public
values; λ = 0.3) and for seeded ranges of text public values ("Place-00012-bb", 1-3 of 60 regions each,
7 components of G_X) with about 2,700 and 10^4 values (λ = 0.1), under Algorithm 1 ("L0", U1) and
Algorithm 2 ("I*", U1). Prints per case the steps, the build time (best of --repeat, after one warm-up
build that imports bokeh; wall clock and this process's CPU time, which a busy shared machine inflates
less), the file size, the ratio to the Hungarian build of the same algorithm, and with --load the time
headless Chromium takes from navigation until the page is drawn.

Targets: at 10^4 values ≤ 10 s and ≤ 10 MB; at ~2,700 values ≤ 8 × the Hungarian build.

    python benchmarks/bench_explorer.py [--repeat 2] [--load] [--sizes 2700 10000]
"""

from __future__ import annotations

import argparse
import os
import sys
import tempfile
import time
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

import graphpriv as gp  # noqa: E402

CHROMIUM_ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking",
                 "--disable-component-update", "--disable-sync", "--no-first-run"]
READY = "() => window.__gpx !== undefined && Bokeh.documents.length > 0 && Bokeh.documents[0].is_idle"


def places(n_x: int, n_s: int = 60, groups: int = 7, seed: int = 0):
    """``n_x`` text public values, each with 1-3 of the ``n_s // groups`` sensitive values of its group."""
    rng = np.random.default_rng(seed)
    per = n_s // groups
    s_list, x_list = [], []
    for j in range(n_x):
        g = rng.integers(0, groups)
        for s in g * per + rng.choice(per, size=rng.integers(1, 4), replace=False):
            s_list.append(f"region {s:02d}")
            x_list.append(f"Place-{j:05d}-{'abcdefgh'[j % 8] * (1 + j % 5)}")
    return gp.JointRange.from_pairs(s_list, x_list)


def build(res, jr, path: Path) -> tuple[float, float]:
    """(wall seconds, CPU seconds of this process) of one build."""
    t0, c0 = time.perf_counter(), time.process_time()
    gp.viz.explore(res, jr).save(path)
    return time.perf_counter() - t0, time.process_time() - c0


def load_time(path: Path, chromium: str) -> float:
    from playwright.sync_api import sync_playwright

    with sync_playwright() as p:
        b = p.chromium.launch(executable_path=chromium, args=CHROMIUM_ARGS)
        page = b.new_page(viewport={"width": 1300, "height": 1400})
        t0 = time.perf_counter()
        page.goto(path.as_uri())
        page.wait_for_function(READY, timeout=120_000)
        dt = time.perf_counter() - t0
        b.close()
    return dt


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--repeat", type=int, default=2)
    ap.add_argument("--sizes", type=int, nargs="*", default=[2700, 10_000])
    ap.add_argument("--load", action="store_true", help="also time loading each page in headless Chromium")
    ap.add_argument("--chromium", default=os.environ.get("GRAPHPRIV_CHROMIUM", "/usr/bin/chromium"))
    args = ap.parse_args()
    print(f"load average: {os.getloadavg()}", flush=True)
    tmp = Path(tempfile.mkdtemp(prefix="bench_explorer_"))
    jr_p, _ = gp.datasets.paper_example()
    build(gp.agglomerate(jr_p, "I*", 0.3), jr_p, tmp / "warm.html")  # imports bokeh once
    cases = [("Hungarian", gp.datasets.hungarian_range(missing="drop"), 0.3)]
    cases += [(f"places {n}", places(n), 0.1) for n in args.sizes]
    base: dict[str, tuple[float, float]] = {}
    print(f"{'range':<14}{'|X|':>7}{'pairs':>8}  {'algorithm':<12}{'steps':>6}{'wall s':>8}{'cpu s':>7}{'MB':>7}"
          f"{'× Hungarian (wall, cpu)':>25}"
          + (f"{'load s':>8}" if args.load else ""))
    for name, jr, lam in cases:
        for obj in ("L0", "I*"):
            res = gp.agglomerate(jr, obj, lam)
            path = tmp / f"{name.replace(' ', '_')}_{obj.replace('*', 'star')}.html"
            runs = [build(res, jr, path) for _ in range(max(1, args.repeat))]
            wall, cpu = min(w for w, _ in runs), min(c for _, c in runs)
            if name == "Hungarian":
                base[obj] = (wall, cpu)
            line = (f"{name:<14}{jr.n_public:>7}{jr.matrix.nnz:>8}  {('Algorithm 1' if obj == 'L0' else 'Algorithm 2'):<12}"
                    f"{len(res.trace):>6}{wall:>8.2f}{cpu:>7.2f}{path.stat().st_size / 1e6:>7.2f}"
                    f"{wall / base[obj][0]:>17.1f}, {cpu / base[obj][1]:.1f}")
            if args.load:
                line += f"{load_time(path, args.chromium):>8.2f}"
            print(line, flush=True)
    print(f"load average: {os.getloadavg()}")


if __name__ == "__main__":
    main()
