"""``graphpriv sanitize --mechanism funnel|watchdog-subset|alpha-watchdog``: released, audited from the file."""

from __future__ import annotations

import json

import matplotlib

matplotlib.use("Agg")

import numpy as np  # noqa: E402
import pandas as pd  # noqa: E402
import pytest  # noqa: E402

import graphpriv as gp  # noqa: E402
from graphpriv.cli import main  # noqa: E402


def _table(tmp_path):
    rng = np.random.default_rng(5)
    s = rng.integers(0, 4, size=400)
    x = np.where(rng.random(400) < 0.6, s * 3 + rng.integers(0, 3, size=400), rng.integers(0, 12, size=400))
    p = tmp_path / "t.csv"
    pd.DataFrame({"s": [f"s{v}" for v in s], "x": x}).to_csv(p, index=False)
    return p


@pytest.mark.parametrize("args", [
    ["--mechanism", "funnel", "--lam", "0.4"],
    ["--mechanism", "funnel", "--lam", "0.4", "--method", "subset"],
    ["--mechanism", "funnel", "--lam", "3", "--lagrangian", "bottleneck"],
    ["--mechanism", "watchdog-subset", "--eps", "0.5"],
    ["--mechanism", "alpha-watchdog", "--eps", "0.3", "--alpha", "2"],
])
def test_release_is_written_and_audited(tmp_path, args):
    data = _table(tmp_path)
    out = tmp_path / "rel"
    assert main(["-q", "sanitize", str(data), "-s", "s", "-x", "x", *args, "--out", str(out), "--no-explorer"]) == 0
    summary = json.loads((out / "summary.json").read_text())
    assert summary["mechanism"]["name"] == args[1] and summary["audit"]["verified"] is True
    written = pd.read_csv(out / "sanitized.csv")
    assert len(written) == 400
    # the release equals the Python mechanism's partition
    jd = gp.JointDistribution.from_dataframe(pd.read_csv(data).astype({"x": str}), "s", "x")
    opts = {k.lstrip("-").replace("-", "_"): v for k, v in zip(args[2::2], args[3::2])}
    opts = {k: (v if k in ("method", "lagrangian") else float(v)) for k, v in opts.items()}
    r, _ = gp.run_mechanism(args[1], jd, **opts)
    n_blocks = len(r.partition)
    assert written["x"].nunique() == n_blocks


def test_option_of_another_mechanism_is_refused(tmp_path, capsys):
    assert main(["sanitize", str(_table(tmp_path)), "-s", "s", "-x", "x", "--mechanism", "watchdog-subset",
                 "--eps", "0.5", "--method", "subset", "--out", str(tmp_path / "r")]) == 2
    assert "--method" in capsys.readouterr().err
