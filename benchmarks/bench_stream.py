"""Benchmark of streamed ingestion: a partitioned Parquet dataset far larger than the joint range.

Generates, in a folder, a Parquet dataset of ``--rows`` records (default 2*10^8) in files of 10^7
rows: two integer columns, S with 10^5 values and X with 10^6 values, each public value x seen with at
most 10 sensitive values (s = (x * 7919 + k * 104729) mod 10^5, k uniform on 0..9), so about 10^7
distinct (s, x) pairs once every pair has appeared. Above 2*10^8 rows X has ``rows / 100`` values, so
``--rows 1e9`` writes 100 files (8 GB) with 10^8 distinct pairs (the billion-row audit: goals peak RSS
<= 4 GiB, ``read_joint_range`` <= 3x the scan and <= 0.5x DuckDB). Then runs, each in a fresh child
process (``--only`` picks a subset):

- ``scan``: pyarrow.dataset scanning the two columns and computing nothing (the floor);
- ``read_joint_range``: ``graphpriv.read_joint_range(folder, "s", "x")`` (distinct pairs and counts);
- ``duckdb`` (unless ``--skip-duckdb``): DuckDB's ``SELECT DISTINCT s, x`` over the same files,
  materialised as an Arrow table (the distinct pairs in memory, as graphpriv holds them);
- ``analyze`` (unless ``--skip-analyze``): the same plus every measure of the report
  (``graphpriv.io.analysis_report``);
- ``csv``: ``graphpriv.read_joint_range`` of a ``--csv-rows`` (default 10^7) row CSV of two integer
  columns (S on 5,000 values, X on 200,000 values), the in-memory-sized path (0 skips it); on a
  checkout from before streaming (no ``read_joint_range``) the reader of that time,
  ``graphpriv.io.read_columns`` then ``JointRange.from_dataframe``.

For each run it prints the wall time and the CPU time (user + system, all threads) of the work only
(the imports come first and are reported apart), the child's peak RSS
(``resource.getrusage(RUSAGE_SELF).ru_maxrss``), the graphpriv it imported and ``/proc/loadavg``
before and after; then the ratios to the scan. Goals: peak RSS < 2 GiB and ``read_joint_range`` <=
1.5x the scan's wall time; the CSV no slower than before streaming. The children import graphpriv
from ``PYTHONPATH`` (else the installed one), so the same script compares two checkouts::

    PYTHONPATH=$PWD python benchmarks/bench_stream.py --rows 2e8 --keep /tmp/bench-stream --skip-analyze
    PYTHONPATH=/path/to/older/checkout python benchmarks/bench_stream.py --rows 0 --keep /tmp/bench-stream

(``--rows 0`` runs only the CSV.) Time on 2 quiet cores: generating 2*10^8 rows takes under a
minute (once, kept with ``--keep``), the 10^7-row CSV about 10 s; then the scan takes about 5 s,
read_joint_range and the CSV well under a minute each, and analyze (skipped with ``--skip-analyze``)
adds the measures of a 10^7-pair range. With ``--rows 1e9``: generating takes 1.5-3 minutes, then the
scan about 13 s, read_joint_range about 40 s, DuckDB about 100 s and analyze about 46 s. Disk: about
8 bytes per row (1.6 GB at 2*10^8 rows, 8 GB at 10^9) plus 110 MB of CSV. Load from other processes inflates the wall times most: compare the CPU times then.
No assertions (timings do not belong in tests).
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
t0 = time.perf_counter()
import pyarrow.dataset as ds
if kind not in ("scan", "duckdb"):
    import graphpriv as gp
imports = time.perf_counter() - t0
t, c = time.perf_counter(), time.process_time()     # the work only, after the imports
if kind == "scan":
    n = 0
    for b in ds.dataset(folder, format="parquet").to_batches(columns=["s", "x"], batch_size=1 << 20, use_threads=True):
        n += b.num_rows
    info = {"rows": n}
elif kind == "duckdb":          # the distinct pairs, materialised as an Arrow table (as graphpriv holds them)
    import duckdb
    n = duckdb.connect().sql(f"SELECT count(*) FROM read_parquet('{folder}/*.parquet')").fetchall()[0][0]
    con = duckdb.connect()
    t, c = time.perf_counter(), time.process_time()   # the distinct query only
    rel = con.sql(f"SELECT DISTINCT s, x FROM read_parquet('{folder}/*.parquet')")
    tab = rel.to_arrow_table() if hasattr(rel, "to_arrow_table") else rel.arrow()
    info = {"rows": n, "pairs": tab.num_rows, "module": "duckdb " + duckdb.__version__}
    del tab
else:
    info = {"module": gp.__file__}
    if hasattr(gp, "read_joint_range"):
        jr = gp.read_joint_range(folder, "s", "x")
        info.update(rows=jr.source.n_rows, api="read_joint_range")
    else:                        # before streaming: read the columns, then JointRange.from_dataframe
        import graphpriv.io as gio
        df = gio.read_columns(folder, ["s", "x"])
        jr = gp.JointRange.from_dataframe(df, "s", "x")
        info.update(rows=len(df), api="read_columns + from_dataframe")
        del df
    info.update(pairs=jr.n_pairs, n_sensitive=jr.n_sensitive, n_public=jr.n_public)
    if kind == "analyze":
        import graphpriv.io as gio
        t1 = time.perf_counter()
        rep = gio.analysis_report(jr)
        info.update(components=rep["components"]["count"], I_star=rep["measures"]["I_star"],
                    report_s=time.perf_counter() - t1)
wall, cpu = time.perf_counter() - t, time.process_time() - c
print(json.dumps({"wall": wall, "cpu": cpu, "imports": imports, "maxrss_kb": resource.getrusage(resource.RUSAGE_SELF).ru_maxrss, **info}))
"""


def n_public_for(rows: int) -> int:
    """Public values of a ``rows``-row dataset: 10^6 up to 2*10^8 rows, then ``rows / 100`` (10^8 pairs at 10^9)."""
    return N_PUBLIC if rows <= 200_000_000 else rows // (10 * PER_PUBLIC)


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
        x = rng.integers(0, n_public_for(rows), n, dtype=np.int64)
        s = (x * 7919 + rng.integers(0, PER_PUBLIC, n, dtype=np.int64) * 104729) % N_SENSITIVE
        tmp = folder / f".part-{k:05d}.parquet.tmp"
        pq.write_table(pa.table({"s": s, "x": x}), tmp)
        os.replace(tmp, folder / f"part-{k:05d}.parquet")
        done += n
        k += 1
    return sum(f.stat().st_size for f in folder.iterdir())


def generate_csv(path: Path, rows: int, seed: int = 0) -> None:
    """A CSV of two integer columns (S uniform on 5,000 values, X on 200,000), written atomically."""
    import numpy as np
    import pyarrow as pa
    import pyarrow.csv as pacsv

    rng = np.random.default_rng(seed)
    tmp = path.with_suffix(".tmp")
    pacsv.write_csv(pa.table({"s": rng.integers(0, 5_000, rows), "x": rng.integers(0, 200_000, rows)}), tmp)
    os.replace(tmp, path)


def loadavg() -> str:
    try:
        return " ".join(Path("/proc/loadavg").read_text().split()[:3])
    except OSError:
        return "n/a"


def run(kind: str, folder: Path) -> dict:
    before = loadavg()
    # cwd: the folder's parent, so that the child imports graphpriv from PYTHONPATH (or the installed
    # one), never from the directory the script was started in
    proc = subprocess.run([sys.executable, "-c", _CHILD, kind, str(folder.resolve())], capture_output=True, text=True,
                          env={**os.environ, "MPLBACKEND": "Agg"}, cwd=folder.resolve().parent)
    if proc.returncode != 0:
        raise SystemExit(f"{kind} failed (exit {proc.returncode}): {proc.stderr[-2000:]}")
    out = json.loads(proc.stdout.strip().splitlines()[-1])
    out["load"] = f"load {before} -> {loadavg()}"
    return out


def line(kind: str, r: dict) -> str:
    return (f"{kind}: wall {r['wall']:.2f} s, CPU {r['cpu']:.2f} s (imports {r['imports']:.1f} s before), peak RSS {r['maxrss_kb'] / 2**20:.2f} GiB, "
            f"rows {r['rows']:,}" + (f", pairs {r['pairs']:,}" if "pairs" in r else "") + f"  [{r['load']}]")


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--rows", type=float, default=2e8, help="rows of the Parquet dataset (default 2e8; 0 skips it)")
    ap.add_argument("--csv-rows", type=float, default=1e7, help="rows of the CSV (default 1e7; 0 skips it)")
    ap.add_argument("--keep", metavar="DIR", help="generate into (or reuse) DIR and keep it")
    ap.add_argument("--skip-analyze", action="store_true", help="time only the scan, read_joint_range, DuckDB and the CSV")
    ap.add_argument("--skip-duckdb", action="store_true", help="do not time DuckDB's SELECT DISTINCT s, x")
    ap.add_argument("--only", metavar="KINDS", help="comma-separated subset of scan,read_joint_range,duckdb,analyze "
                    "(ratios to the scan need the scan)")
    args = ap.parse_args()
    rows, csv_rows = int(args.rows), int(args.csv_rows)
    folder = Path(args.keep) if args.keep else Path(tempfile.mkdtemp(prefix="graphpriv-stream-"))
    big = rows > 200_000_000          # the billion-row audit: 4 GiB and 3x the scan
    goal_scan, goal_rss, rjr = (3 if big else 1.5), (4 if big else 2), None
    try:
        data = folder / "data"
        if rows and not (data.exists() and any(data.iterdir())):
            t = time.perf_counter()
            size = generate(data, rows)
            print(f"generated {rows:,} rows in {time.perf_counter() - t:.1f} s: {len(list(data.iterdir()))} "
                  f"Parquet files, {size / 1e9:.2f} GB")
        kinds = ("scan", "read_joint_range") + (() if args.skip_duckdb else ("duckdb",)) + (() if args.skip_analyze else ("analyze",))
        if args.only:
            kinds = tuple(k for k in kinds if k in args.only.split(","))
        base = None
        for kind in kinds if rows else ():
            r = run(kind, data)
            if kind == "scan":
                base = r
                if r["rows"] != rows:
                    print(f"note: {data} holds {r['rows']:,} rows, not --rows {rows:,} (generated earlier)")
                print(line("scan (pyarrow, nothing computed)", r))
                continue
            extra = f", report {r['report_s']:.1f} s, {r['components']} components, I* = {r['I_star']:.3f}" if kind == "analyze" else ""
            print(line(kind, r) + extra)
            if base is not None:
                print(f"  {kind} / scan: wall {r['wall'] / base['wall']:.2f}x (goal <= {goal_scan}x), CPU {r['cpu'] / base['cpu']:.2f}x; "
                      f"peak RSS {r['maxrss_kb'] / 2**20:.2f} GiB (goal < {goal_rss} GiB); {r['module']}")
            if kind == "read_joint_range":
                rjr = r
            if kind == "duckdb" and rjr is not None:
                print(f"  read_joint_range / duckdb: wall {rjr['wall'] / r['wall']:.2f}x (goal <= 0.5x), CPU "
                      f"{rjr['cpu'] / r['cpu']:.2f}x; duckdb peak RSS {r['maxrss_kb'] / 2**20:.2f} GiB")
        if csv_rows:
            csv = folder / f"ints-{csv_rows}.csv"
            if not csv.exists():
                t = time.perf_counter()
                generate_csv(csv, csv_rows)
                print(f"generated {csv} ({csv.stat().st_size / 1e6:.0f} MB) in {time.perf_counter() - t:.1f} s")
            r = run("csv", csv)
            print(line(f"{r['api']} of a {csv_rows:,}-row CSV", r) + f"; graphpriv from {r['module']}")
    finally:
        if not args.keep:
            shutil.rmtree(folder, ignore_errors=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
