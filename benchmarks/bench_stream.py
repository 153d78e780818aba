"""Benchmark of streamed ingestion: a partitioned Parquet dataset far larger than the joint range.

Generates, in a temporary folder, a Parquet dataset of ``--rows`` records (default 2*10^8) in files of
10^7 rows: two integer columns, S with 10^5 values and X with 10^6 values, each public value x seen with
at most 10 sensitive values (s = (x * 7919 + k * 104729) mod 10^5, k uniform on 0..9), so about 10^7
distinct (s, x) pairs once every pair has appeared. Then, each in a fresh child process (peak RSS from
``resource.getrusage(RUSAGE_SELF).ru_maxrss`` of that child, wall time around the work only):

- ``scan``: pyarrow.dataset scanning the two columns and computing nothing (the floor);
- ``read_joint_range``: ``graphpriv.read_joint_range(folder, "s", "x")`` (distinct pairs and counts);
- ``analyze``: the same plus every measure of the report (``graphpriv.io.analysis_report``).

Prints one line per run with the ratios to the scan. Goals: peak RSS < 2 GiB and
``read_joint_range`` <= 1.5x the scan.

Usage::

    python benchmarks/bench_stream.py [--rows 200000000] [--keep DIR] [--skip-analyze]

Disk: about 8 bytes per row (1.6 GB at 2*10^8 rows). No assertions (timings do not belong in tests).
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

N_SENSITIVE = 100_000
N_PUBLIC = 1_000_000
PER_PUBLIC = 10
FILE_ROWS = 10_000_000

_CHILD = r"""
import json, resource, sys, time
kind, folder = sys.argv[1], sys.argv[2]
t = time.perf_counter()
if kind == "scan":
    import pyarrow.dataset as ds
    n = 0
    for b in ds.dataset(folder, format="parquet").to_batches(columns=["s", "x"], batch_size=1 << 20, use_threads=True):
        n += b.num_rows
    info = {"rows": n}
else:
    import graphpriv as gp
    jr = gp.read_joint_range(folder, "s", "x")
    info = {"rows": jr.source.n_rows, "pairs": jr.n_pairs, "n_sensitive": jr.n_sensitive, "n_public": jr.n_public}
    if kind == "analyze":
        import graphpriv.io as gio
        t1 = time.perf_counter()
        rep = gio.analysis_report(jr)
        info.update(components=rep["components"]["count"], I_star=rep["measures"]["I_star"],
                    report_s=time.perf_counter() - t1)
wall = time.perf_counter() - t
print(json.dumps({"wall": wall, "maxrss_kb": resource.getrusage(resource.RUSAGE_SELF).ru_maxrss, **info}))
"""


def generate(folder: Path, rows: int, seed: int = 0) -> int:
    """Write the dataset (files of :data:`FILE_ROWS` rows); return its size in bytes."""
    import numpy as np
    import pyarrow as pa
    import pyarrow.parquet as pq

    rng = np.random.default_rng(seed)
    folder.mkdir(parents=True, exist_ok=True)
    done, k = 0, 0
    while done < rows:
        n = min(FILE_ROWS, rows - done)
        x = rng.integers(0, N_PUBLIC, n, dtype=np.int64)
        s = (x * 7919 + rng.integers(0, PER_PUBLIC, n, dtype=np.int64) * 104729) % N_SENSITIVE
        pq.write_table(pa.table({"s": s, "x": x}), folder / f"part-{k:05d}.parquet")
        done += n
        k += 1
    return sum(f.stat().st_size for f in folder.iterdir())


def run(kind: str, folder: Path) -> dict:
    proc = subprocess.run([sys.executable, "-c", _CHILD, kind, str(folder)], capture_output=True, text=True,
                          env={**os.environ, "MPLBACKEND": "Agg"})
    if proc.returncode != 0:
        raise SystemExit(f"{kind} failed (exit {proc.returncode}): {proc.stderr[-2000:]}")
    return json.loads(proc.stdout.strip().splitlines()[-1])


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--rows", type=int, default=200_000_000)
    ap.add_argument("--keep", metavar="DIR", help="generate into (or reuse) DIR and keep it")
    ap.add_argument("--skip-analyze", action="store_true", help="time only the scan and read_joint_range")
    args = ap.parse_args()
    folder = Path(args.keep) if args.keep else Path(tempfile.mkdtemp(prefix="graphpriv-stream-"))
    try:
        data = folder / "data"
        if not (data.exists() and any(data.iterdir())):
            t = time.perf_counter()
            size = generate(data, args.rows)
            print(f"generated {args.rows:,} rows in {time.perf_counter() - t:.1f} s: {len(list(data.iterdir()))} "
                  f"Parquet files, {size / 1e9:.2f} GB")
        base = run("scan", data)
        print(f"scan (pyarrow, nothing computed): wall {base['wall']:.1f} s, peak RSS {base['maxrss_kb'] / 2**20:.2f} GiB, "
              f"{base['rows']:,} rows")
        for kind in ("read_joint_range",) + (() if args.skip_analyze else ("analyze",)):
            r = run(kind, data)
            extra = f", report {r['report_s']:.1f} s, {r['components']} components, I* = {r['I_star']:.3f}" if kind == "analyze" else ""
            print(f"{kind}: wall {r['wall']:.1f} s ({r['wall'] / base['wall']:.2f}x the scan; goal <= 1.5x), "
                  f"peak RSS {r['maxrss_kb'] / 2**20:.2f} GiB (goal < 2 GiB); rows {r['rows']:,}, pairs {r['pairs']:,}, "
                  f"|S| = {r['n_sensitive']:,}, |X| = {r['n_public']:,}{extra}")
    finally:
        if not args.keep:
            shutil.rmtree(folder, ignore_errors=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
