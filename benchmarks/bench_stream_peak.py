"""Peak memory of streamed ingestion against reading the whole table, at sizes where the streamed
reader's machinery (staging buffer, key ranges, bucket pools, jemalloc while scanning) must not cost
more than it saves.

Writes a Parquet file (and, with ``--csv``, a CSV file) of ``--rows`` records (default 2.4*10^7) of two
integer columns with about ``--pairs`` (default 10^6) distinct (s, x) pairs, then, each in a fresh
child process, measures the peak RSS (``resource.getrusage(RUSAGE_SELF).ru_maxrss``) of

- ``whole``: ``pyarrow.parquet.read_table`` of the two columns (the whole table in memory, nothing
  computed) -- the reference;
- ``stream``: ``graphpriv.read_joint_range(file, "s", "x")`` (the distinct pairs, streamed);

after their imports (the RSS of the imports alone is printed too and subtracted), and prints
stream / whole. Run::

    PYTHONPATH=$PWD python benchmarks/bench_stream_peak.py --rows 2.4e7 --pairs 1e6

No assertions (memory and time belong to benchmarks, not tests). Other processes do not change
peak RSS much, but a loaded machine changes the times printed beside them, and the whole-table read
itself varies by 30% from run to run (its decoding threads).

Measured on 2 cores loaded by other processes (load 6-11), 2.4*10^7 rows, 10^6 pairs, ratios with
the imports: Parquet 1.07 before the NumPy-only counting of few distinct pairs and the scan in runs
of row groups, 0.56-0.57 after; CSV (``--csv``) 0.71 before, 0.61 after.
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
from pathlib import Path

_CHILD = r"""
import json, resource, sys, time
kind, path = sys.argv[1], sys.argv[2]
import pyarrow.parquet as pq
import numpy as np
import graphpriv as gp
base = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
t = time.perf_counter()
if kind == "whole":
    tab = pq.read_table(path, columns=["s", "x"]) if path.endswith(".parquet") else __import__("pyarrow.csv").csv.read_csv(path)
    n = tab.num_rows
elif kind == "stream":
    jr = gp.read_joint_range(path, sensitive="s", public="x")
    n = jr.n_pairs if hasattr(jr, "n_pairs") else None
peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
print(json.dumps({"kind": kind, "imports_kib": base, "peak_kib": peak, "seconds": time.perf_counter() - t,
                  "module": gp.__file__}))
"""


def make(path: Path, rows: int, pairs: int, csv: bool) -> None:
    import numpy as np
    import pyarrow as pa
    import pyarrow.parquet as pq

    import pyarrow.csv as pacsv

    rng = np.random.default_rng(0)
    n_x = max(1, pairs // 4)
    writer = csv_writer = None
    done = 0
    while done < rows:
        n = min(1 << 22, rows - done)
        x = rng.integers(0, n_x, n)
        s = (x * 7919 + rng.integers(0, 4, n) * 104729) % 50_000
        t = pa.table({"s": s, "x": x})
        if writer is None:
            writer = pq.ParquetWriter(str(path), t.schema)
            if csv:
                csv_writer = pacsv.CSVWriter(str(path.with_suffix(".csv")), t.schema,
                                             write_options=pacsv.WriteOptions(quoting_style="none"))
        writer.write_table(t)
        if csv_writer is not None:
            csv_writer.write_table(t)
        done += n
    writer.close()
    if csv_writer is not None:
        csv_writer.close()


def child(kind: str, path: Path) -> dict:
    env = dict(os.environ)
    out = subprocess.run([sys.executable, "-c", _CHILD, kind, str(path)], capture_output=True, text=True, env=env,
                         check=True)
    return json.loads(out.stdout.strip().splitlines()[-1])


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--rows", type=float, default=2.4e7)
    ap.add_argument("--pairs", type=float, default=1e6)
    ap.add_argument("--csv", action="store_true", help="also a CSV file of the same rows")
    ap.add_argument("--keep", type=Path, help="folder to keep the generated files in")
    args = ap.parse_args()
    folder = args.keep or Path(tempfile.mkdtemp(prefix="graphpriv-peak-"))
    folder.mkdir(parents=True, exist_ok=True)
    path = folder / f"t{int(args.rows)}_{int(args.pairs)}.parquet"
    if not path.exists() or (args.csv and not path.with_suffix(".csv").exists()):
        make(path, int(args.rows), int(args.pairs), args.csv)
    files = [path] + ([path.with_suffix(".csv")] if args.csv else [])
    with open("/proc/loadavg") as fh:
        print("load:", fh.read().strip())
    for f in files:
        whole, stream = child("whole", f), child("stream", f)
        w = whole["peak_kib"] - whole["imports_kib"]
        s = stream["peak_kib"] - stream["imports_kib"]
        print(f"{f.name}: whole table {w / 1024:.0f} MiB ({whole['seconds']:.1f} s), streamed read_joint_range "
              f"{s / 1024:.0f} MiB ({stream['seconds']:.1f} s) above the imports; peak RSS ratio {s / w:.2f} "
              f"(with the imports: {stream['peak_kib'] / whole['peak_kib']:.2f}); graphpriv {stream['module']}")


if __name__ == "__main__":
    main()
