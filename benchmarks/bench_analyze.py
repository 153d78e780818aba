"""Benchmark of ``graphpriv analyze`` at scale (issue 7): a 10^7-row CSV and the same data as Parquet.

Generates, in a temporary folder, a CSV of two integer columns (S uniform on 5,000 values, X uniform on
200,000 values; about 10^7 distinct pairs, 112 MB), the same table as Parquet, and a block-structured
CSV whose G_X has 5,000 components, then runs
``python -m graphpriv.cli analyze FILE -s s -x x --out DIR`` as a child process for each and prints the
wall time and the child's peak resident memory (``resource.getrusage(RUSAGE_CHILDREN).ru_maxrss``,
measured per run in a fresh wrapper process). Goal: < 60 s and < 4 GiB on this machine (2 cores).

Usage::

    python benchmarks/bench_analyze.py [--rows 10000000] [--keep DIR]

Prints one line per run; no assertions (timings do not belong in tests).
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

# Runs the CLI in a grandchild and reports that grandchild's peak RSS, so the figure excludes the
# benchmark driver's own memory (the data generator holds ~0.3 GB).
_WRAPPER = r"""
import resource, subprocess, sys, time, json
t = time.perf_counter()
p = subprocess.run([sys.executable, "-m", "graphpriv.cli", *sys.argv[1:]], capture_output=True, text=True)
wall = time.perf_counter() - t
ru = resource.getrusage(resource.RUSAGE_CHILDREN)
print(json.dumps({"rc": p.returncode, "wall": wall, "maxrss_kb": ru.ru_maxrss, "cpu": ru.ru_utime + ru.ru_stime,
                  "stdout": p.stdout, "stderr": p.stderr[-2000:]}))
"""


def generate(folder: Path, rows: int, seed: int = 0) -> tuple[Path, Path, Path]:
    """Uniform data (one component) as CSV and Parquet, and a block-structured CSV (5,000 components:
    x = 40 s + U{0..39}, so G_X decomposes along s)."""
    import numpy as np
    import pyarrow as pa
    import pyarrow.csv as pacsv
    import pyarrow.parquet as pq

    rng = np.random.default_rng(seed)
    table = pa.table({"s": rng.integers(0, 5_000, rows), "x": rng.integers(0, 200_000, rows)})
    csv, parquet, blocks = folder / "big.csv", folder / "big.parquet", folder / "blocks.csv"
    pacsv.write_csv(table, csv)
    pq.write_table(table, parquet)
    s = rng.integers(0, 5_000, rows)
    pacsv.write_csv(pa.table({"s": s, "x": 40 * s + rng.integers(0, 40, rows)}), blocks)
    return csv, parquet, blocks


def run(data: Path, out: Path) -> dict:
    proc = subprocess.run([sys.executable, "-c", _WRAPPER, "analyze", str(data), "-s", "s", "-x", "x", "--out", str(out)],
                          capture_output=True, text=True, env={**os.environ, "MPLBACKEND": "Agg"})
    return json.loads(proc.stdout)


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--rows", type=int, default=10_000_000)
    ap.add_argument("--keep", metavar="DIR", help="keep the generated files and reports in DIR")
    args = ap.parse_args()
    folder = Path(args.keep) if args.keep else Path(tempfile.mkdtemp(prefix="graphpriv-bench-"))
    folder.mkdir(parents=True, exist_ok=True)
    try:
        t = time.perf_counter()
        csv, parquet, blocks = generate(folder, args.rows)
        print(f"generated {args.rows:,} rows in {time.perf_counter() - t:.1f} s: CSV {csv.stat().st_size / 1e6:.0f} MB, "
              f"Parquet {parquet.stat().st_size / 1e6:.0f} MB")
        for data in (csv, parquet, blocks):
            res = run(data, folder / f"report-{data.name.replace('.', '-')}")
            if res["rc"] != 0:
                print(f"{data.name}: FAILED (exit {res['rc']}): {res['stderr']}")
                continue
            rep = json.loads((folder / f"report-{data.name.replace('.', '-')}" / "report.json").read_text())
            print(f"analyze {data.name}: wall {res['wall']:.1f} s (CPU {res['cpu']:.1f} s), peak RSS {res['maxrss_kb'] / 2**20:.2f} GiB; "
                  f"|S|={rep['range']['n_sensitive']}, |X|={rep['range']['n_public']}, pairs={rep['range']['n_pairs']:,}, "
                  f"components={rep['components']['count']}  (goal: < 60 s, < 4 GiB)")
    finally:
        if not args.keep:
            shutil.rmtree(folder, ignore_errors=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
