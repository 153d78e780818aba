"""Benchmark of ``graphpriv sanitize`` at scale: U2 against U1, and a public column of 10^6 distinct values.

Generates, in a temporary folder, CSV tables of an integer sensitive column ``s``, an integer public
column ``x`` and a text column ``note`` (copied byte for byte by the release), then runs
``python -m graphpriv.cli -v sanitize FILE -s s -x x --objective 'I*' --utility U --lam LAM --no-animation``
as a child process and prints its wall time, peak resident memory and the per-step times it logs
(read, joint range, mechanism, release, write, figures).

* ``ratio``: 10^6 rows over 10^4 public values (each public value seen with one sensitive value, one in
  20 with two; |S| = |X|/5, so G_X has many components), Algorithm 2 at λ = 0 (merges until I* = 0),
  U1 and U2. Target: U2 at most 1.3x the U1 time.
* ``distinct``: 10^6 rows, every public value distinct (10^6 values, |S| = 2*10^5), U1 and U2 -- once
  63 s / 3.9 GB for U1, U2 unfinished after 15 min; on 2026-11-26 (2 cores): U1 34 s / 1.8 GiB, U2 571 s /
  2.1 GiB (554 s in Algorithm 2: the clusters of its late steps span most of the value range, so the
  value window of a partner query holds most clusters). Since partner queries skip the clusters of the
  own component (a segment tree keyed by component), same day, 2 cores at load average 15-20 from other
  work (walls 5-10x the CPU times, so compare CPU): 10^6 rows U1 CPU 23.4 s / 1.85 GiB, U2 CPU 34.5 s /
  1.99 GiB; 2*10^5 rows U1 CPU 6.5 s, U2 CPU 9.2 s (Algorithm 2 alone, in-process: U2 0.38 s, 0.98 s,
  11.3 s at 10^4, 10^5, 10^6 values, U1 0.04 s, 0.36 s, 3.7 s).
* ``stream`` (not part of ``all``): the streamed release at census scale. A quote-free CSV of ``--rows``
  rows (default 10^7) over ``--values`` public values, and the same rows as a folder of 8 Parquet
  files; Algorithm 2 with U1 at λ = 0. Prints, per input, the wall time, CPU time and peak RSS of
  ``graphpriv sanitize`` beside the input's size in bytes and the wall time of copying those bytes
  (``shutil.copyfile``), and the ratios. ``--repo DIR`` runs the graphpriv of another checkout (e.g. a
  worktree of an older commit, for a before/after comparison).

Usage::

    python benchmarks/bench_sanitize.py [--rows 1000000] [--values 10000] [--case ratio|distinct|all|stream]
                                        [--timeout 900] [--utilities U1,U2] [--repo DIR] [--inputs csv,parquet]

Prints one line per run and the U2/U1 ratio; no assertions (timings do not belong in tests).
"""

from __future__ import annotations

import argparse
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent))
from bench_analyze import _WRAPPER  # noqa: E402  (the grandchild wrapper that measures peak RSS)


def make_csv(path: Path, rows: int, values: int, seed: int = 0) -> None:
    """``values`` public values (all of them present), each with one or two sensitive values."""
    rng = np.random.default_rng(seed)
    x = np.concatenate([np.arange(values), rng.integers(0, values, rows - values)]) if rows >= values else \
        rng.integers(0, values, rows)
    rng.shuffle(x)
    n_s = max(2, values // 5)
    s = (x * 7919) % n_s                                     # a fixed sensitive value per public value ...
    second = rng.random(rows) < 0.1                          # ... and, for one public value in 20, a second one
    s = np.where(second & (x % 20 == 0), (s + 1) % n_s, s)   # (G_X keeps many components: I* > 0)
    notes = np.array(['"a,b"', "plain", "007", '""', "0.10"])[np.arange(rows) % 5]
    with open(path, "w") as fh:
        fh.write("s,x,note\n")
        for lo in range(0, rows, 200_000):
            hi = min(rows, lo + 200_000)
            fh.write("\n".join(f"{a},{b},{c}" for a, b, c in zip(s[lo:hi].tolist(), (x[lo:hi] * 3 + 100).tolist(),
                                                                   notes[lo:hi].tolist())))
            fh.write("\n")


def make_stream_inputs(folder: Path, rows: int, values: int, parts: int = 8, seed: int = 0) -> tuple[Path, Path]:
    """A quote-free CSV (s, x, note) of ``rows`` rows over ``values`` public values (as :func:`make_csv`,
    written by pyarrow) and the same rows as a folder of ``parts`` Parquet files."""
    import pyarrow as pa
    import pyarrow.csv as pacsv
    import pyarrow.parquet as pq

    rng = np.random.default_rng(seed)
    x = np.concatenate([np.arange(values), rng.integers(0, values, rows - values)]) if rows >= values else \
        rng.integers(0, values, rows)
    rng.shuffle(x)
    n_s = max(2, values // 5)
    s = (x * 7919) % n_s
    second = rng.random(rows) < 0.1
    s = np.where(second & (x % 20 == 0), (s + 1) % n_s, s)
    notes = pa.array(np.array(["plain", "007", "0.10", "a b", "z"])[np.arange(rows) % 5])
    table = pa.table({"s": s, "x": x * 3 + 100, "note": notes})
    csv_path, pq_dir = folder / "stream.csv", folder / "stream_parquet"
    pacsv.write_csv(table, csv_path, write_options=pacsv.WriteOptions(quoting_style="none"))
    pq_dir.mkdir()
    step = -(-rows // parts)
    for k in range(parts):
        pq.write_table(table.slice(k * step, step), pq_dir / f"part-{k:02d}.parquet")
    return csv_path, pq_dir


def _size(path: Path) -> int:
    return sum(f.stat().st_size for f in path.rglob("*") if f.is_file()) if path.is_dir() else path.stat().st_size


def _copy_time(path: Path, dest: Path) -> float:
    t = time.perf_counter()
    if path.is_dir():
        shutil.copytree(path, dest)
    else:
        shutil.copyfile(path, dest)
    return time.perf_counter() - t


def run(path: Path, out: Path, utility: str, lam: float, timeout: float, repo: str | None = None,
        extra: tuple[str, ...] = ()) -> dict:
    argv = ["-v", "sanitize", str(path), "-s", "s", "-x", "x", "--objective", "I*", "--utility", utility,
            "--lam", str(lam), "--no-animation", "--out", str(out), *extra]
    env = dict(os.environ, MPLBACKEND="Agg")
    if repo:                     # run from the checkout: `python -c/-m` puts the working folder first on sys.path
        env["PYTHONPATH"] = str(Path(repo).resolve())
    try:
        p = subprocess.run([sys.executable, "-c", _WRAPPER, *argv], capture_output=True, text=True, timeout=timeout,
                           env=env, cwd=str(Path(repo).resolve()) if repo else None)
    except subprocess.TimeoutExpired:
        return {"rc": None, "wall": float("inf"), "maxrss_kb": 0, "steps": {}, "stdout": "", "stderr": "timeout"}
    res = json.loads(p.stdout)
    res["steps"] = {m.group(1): float(m.group(2)) for m in re.finditer(r"graphpriv: ([a-z ]+): ([0-9.]+) s", res["stderr"])}
    return res


def report(name: str, res: dict) -> None:
    steps = ", ".join(f"{k} {v:.2f}" for k, v in res["steps"].items() if k != "total")
    if res["rc"] is None:
        print(f"{name:<34} timed out")
        return
    print(f"{name:<34} rc={res['rc']} wall {res['wall']:7.2f} s  CPU {res.get('cpu', float('nan')):7.2f} s  "
          f"peak RSS {res['maxrss_kb'] / 2**20:5.2f} GiB  [{steps}]")
    if res["rc"] != 0:
        print("   ", res["stderr"].strip().splitlines()[-1:])


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--rows", type=int, default=1_000_000)
    ap.add_argument("--values", type=int, default=10_000)
    ap.add_argument("--case", choices=("ratio", "distinct", "all", "stream"), default="all")
    ap.add_argument("--timeout", type=float, default=900)
    ap.add_argument("--utilities", default="U1,U2", help="comma-separated utilities for the 'distinct' case")
    ap.add_argument("--repo", metavar="DIR", help="run the graphpriv package of this checkout (PYTHONPATH=DIR)")
    ap.add_argument("--inputs", default="csv,parquet", help="'stream' case: which inputs to sanitize")
    args = ap.parse_args()
    if args.case == "stream" and "--rows" not in sys.argv:
        args.rows = 10_000_000
    with tempfile.TemporaryDirectory() as d:
        d = Path(d)
        if args.case == "stream":
            t = time.perf_counter()
            csv_path, pq_dir = make_stream_inputs(d, args.rows, args.values)
            print(f"generated {args.rows:.0e} rows over {args.values:.0e} public values in {time.perf_counter() - t:.1f} s"
                  + (f"; graphpriv of {args.repo}" if args.repo else ""))
            for kind, path in (("csv", csv_path), ("parquet", pq_dir)):
                if kind not in args.inputs.split(","):
                    continue
                size = _size(path)
                copy = _copy_time(path, d / f"copy_{kind}")
                shutil.rmtree(d / f"copy_{kind}", ignore_errors=True) if kind == "parquet" else (d / f"copy_{kind}").unlink()
                res = run(path, d / f"sout_{kind}", "U1", 0.0, args.timeout, args.repo, ("--no-explorer",))
                report(f"stream {kind} {args.rows:.0e} rows I* U1", res)
                if res["rc"] == 0:
                    print(f"    input {size / 2**20:8.1f} MiB, copied in {copy:.2f} s; sanitize wall / copy "
                          f"{res['wall'] / copy:.1f}x, CPU {res['cpu']:.1f} s, peak RSS / input bytes "
                          f"{res['maxrss_kb'] * 1024 / size:.2f}")
                shutil.rmtree(d / f"sout_{kind}", ignore_errors=True)
            return
        if args.case in ("ratio", "all"):
            path = d / "ratio.csv"
            make_csv(path, args.rows, args.values)
            res = {u: run(path, d / f"out_{u}", u, 0.0 if u == "U1" else 0.0, args.timeout) for u in ("U1", "U2")}
            for u, r in res.items():
                report(f"{args.rows:.0e} rows / {args.values:.0e} values {u}", r)
            if all(r["rc"] == 0 for r in res.values()):
                print(f"ratio U2 / U1 wall time: {res['U2']['wall'] / res['U1']['wall']:.2f} (target <= 1.3)")
        if args.case in ("distinct", "all"):
            path = d / "distinct.csv"
            make_csv(path, args.rows, args.rows)
            for u in args.utilities.split(","):
                report(f"{args.rows:.0e} rows, all distinct, {u}", run(path, d / f"dout_{u}", u, 0.0, args.timeout))


if __name__ == "__main__":
    main()
