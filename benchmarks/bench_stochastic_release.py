"""Benchmark of ``graphpriv sanitize --mechanism watchdog|eps-delta|linear-reduction`` against the agglomerative
release, at real size: 10^4 public values and 10^7 rows, streamed.

Generates, in a temporary folder, a quote-free CSV of ``--rows`` rows: an integer public column ``x`` over
``--values`` values (all present), a sensitive column ``s`` over ``--classes`` classes (each public value
concentrated on a few classes, so the log-lifts spread), and a text column ``note`` copied by the release.
Then runs, each as a child process (``python -m graphpriv.cli -v sanitize ...``):

* ``agglomerative``: ``--objective 'I*' --utility U1 --lam 0`` (paper 003, the reference);
* ``watchdog``: ``--eps 1`` (nats);
* ``eps-delta``: ``--eps 1 --delta 0.1``;
* ``linear-reduction``: ``--alpha 0.5 --seed 1`` (Markov kernel: one draw per row, never a dense |X|^2 kernel);

and prints, per run, the wall time, CPU time and peak resident memory of the child, the per-step times it
logs (read, joint range, mechanism, write, audit, ...), and the ratios to the agglomerative run.

Usage::

    python benchmarks/bench_stochastic_release.py [--rows 10000000] [--values 10000] [--classes 40]
                                                  [--mechanisms agglomerative,watchdog,eps-delta,linear-reduction]
                                                  [--timeout 1800]

No assertions (timings do not belong in tests).
"""

from __future__ import annotations

import argparse
import json
import os
import re
import subprocess
import sys
import tempfile
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent))
from bench_analyze import _WRAPPER  # noqa: E402  (the grandchild wrapper that measures peak RSS)

ARGS = {
    "agglomerative": ["--objective", "I*", "--utility", "U1", "--lam", "0", "--no-animation"],
    "watchdog": ["--mechanism", "watchdog", "--eps", "1"],
    "eps-delta": ["--mechanism", "eps-delta", "--eps", "1", "--delta", "0.1"],
    "linear-reduction": ["--mechanism", "linear-reduction", "--alpha", "0.5", "--seed", "1"],
}


def make_csv(path: Path, rows: int, values: int, classes: int, seed: int = 0) -> None:
    """``rows`` rows over ``values`` public values (all present) and ``classes`` sensitive classes."""
    import pyarrow as pa
    import pyarrow.csv as pacsv

    rng = np.random.default_rng(seed)
    x = np.concatenate([np.arange(values), rng.integers(0, values, rows - values)]) if rows >= values else \
        rng.integers(0, values, rows)
    rng.shuffle(x)
    home = (x * 7919) % classes                                   # each value's usual class ...
    r = rng.random(rows)
    s = np.where(r < 0.6, home, np.where(r < 0.8, (home + 1 + x % 3) % classes, rng.integers(0, classes, rows)))
    notes = pa.array(np.array(["plain", "007", "0.10", "a b", "z"])[np.arange(rows) % 5])
    table = pa.table({"s": s, "x": x * 3 + 100, "note": notes})
    pacsv.write_csv(table, path, write_options=pacsv.WriteOptions(quoting_style="none"))


def run(path: Path, out: Path, mechanism: str, timeout: float) -> dict:
    argv = ["-v", "sanitize", str(path), "-s", "s", "-x", "x", "--no-explorer", "--out", str(out), *ARGS[mechanism]]
    env = dict(os.environ, MPLBACKEND="Agg")
    try:
        p = subprocess.run([sys.executable, "-c", _WRAPPER, *argv], capture_output=True, text=True, timeout=timeout, env=env)
    except subprocess.TimeoutExpired:
        return {"rc": None, "wall": float("inf"), "maxrss_kb": 0, "steps": {}, "stderr": "timeout"}
    res = json.loads(p.stdout)
    res["steps"] = {m.group(1): float(m.group(2)) for m in re.finditer(r"graphpriv: ([a-z ]+): ([0-9.]+) s", res["stderr"])}
    return res


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--rows", type=int, default=10_000_000)
    ap.add_argument("--values", type=int, default=10_000)
    ap.add_argument("--classes", type=int, default=40)
    ap.add_argument("--mechanisms", default=",".join(ARGS))
    ap.add_argument("--timeout", type=float, default=1800)
    args = ap.parse_args()
    with tempfile.TemporaryDirectory(prefix="bench-stochastic-") as tmp:
        path = Path(tmp) / "table.csv"
        make_csv(path, args.rows, args.values, args.classes)
        print(f"{args.rows:,} rows, {args.values:,} public values, {args.classes} classes, "
              f"{path.stat().st_size / 2**20:.0f} MiB of CSV")
        ref = None
        for m in args.mechanisms.split(","):
            res = run(path, Path(tmp) / f"out_{m}", m, args.timeout)
            if res["rc"] is None:
                print(f"{m:<18} timed out")
                continue
            steps = ", ".join(f"{k} {v:.2f}" for k, v in res["steps"].items() if k != "total")
            gib = res["maxrss_kb"] / 2**20
            line = (f"{m:<18} rc={res['rc']} wall {res['wall']:7.2f} s  CPU {res.get('cpu', float('nan')):7.2f} s  "
                    f"peak RSS {gib:5.2f} GiB")
            if ref is None and m == "agglomerative":
                ref = res
            elif ref is not None:
                line += f"  (x{res['wall'] / ref['wall']:.2f} wall, x{res['maxrss_kb'] / ref['maxrss_kb']:.2f} memory)"
            print(line)
            print(f"{'':<18} [{steps}]")
            if res["rc"] != 0:
                print("   ", res["stderr"].strip().splitlines()[-1:])


if __name__ == "__main__":
    main()
