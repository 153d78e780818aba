"""The mechanism registry: lookup, options, and adding a mechanism as one module plus one entry (the command line
offers it at once, writes its release and runs its audit)."""

from __future__ import annotations

import json
import math
from dataclasses import dataclass

import numpy as np
import pandas as pd
import pytest

import graphpriv as gp
from graphpriv.mechanisms import registry
from graphpriv.mechanisms.registry import REQUIRED, MechanismOption, MechanismSpec, merge_release

from test_cli_analyze import assert_one_line_error, run_inproc


def test_names_specs_and_options():
    assert gp.mechanism_names()[:4] == ("agglomerative", "watchdog", "eps-delta", "linear-reduction")
    lr = gp.get_mechanism("linear-reduction")
    assert lr.release_kind == "randomised" and "Ding, Liu & Farokhi" in lr.paper
    assert [o.flag for o in lr.options] == ["--alpha", "--scheme", "--seed", "--base"]
    assert lr.resolve({"alpha": 0.5, "seed": 3}) == {"alpha": 0.5, "scheme": "markov", "seed": 3, "base": "2"}
    assert gp.get_mechanism("watchdog").resolve({"eps": 1.0})["base"] == "e"        # nats, as gp.watchdog
    with pytest.raises(gp.InputError, match="no mechanism named 'dp-sgd'"):
        gp.get_mechanism("dp-sgd")
    with pytest.raises(gp.InputError, match="--delta does not apply to --mechanism watchdog"):
        gp.get_mechanism("watchdog").resolve({"eps": 1.0, "delta": 0.1})
    with pytest.raises(gp.InputError, match="needs --seed"):
        lr.resolve({"alpha": 0.5})
    with pytest.raises(gp.InputError, match="--scheme must be one of"):
        lr.resolve({"alpha": 0.5, "seed": 1, "scheme": "lp"})
    with pytest.raises(gp.InputError, match="already registered"):
        gp.register_mechanism(gp.get_mechanism("watchdog"))


def test_run_mechanism_equals_the_functions():
    """Paper 002's example (exponential entries, default_rng(7), eps = 1 nat): the registry runs gp.watchdog."""
    P = np.random.default_rng(7).exponential(size=(4, 8))
    jd = gp.JointDistribution(P / P.sum())
    r, rel = gp.run_mechanism("watchdog", jd, eps=1.0)
    assert np.flatnonzero(r.randomized).tolist() == [0, 4, 5, 6, 7] and round(r.eps_c, 4) == 0.1159
    assert rel.n_clusters == 4 and rel.objective == "watchdog"
    r2, _ = gp.run_mechanism("eps-delta", jd, eps=1.0, delta=0.02, eps_bar=3.0)
    assert np.flatnonzero(r2.published).tolist() == [1, 2, 3, 4, 7]
    m, rr = gp.run_mechanism("linear-reduction", gp.paper000_example1(), alpha=0.5, seed=0)
    full = gp.linear_reduction(gp.paper000_example1(), 0.5)
    for k in ("ldp", "log_lift", "tv", "mutual_information_xy", "ldp_x", "log_lift_x", "entropy_x"):
        assert getattr(m, k) == pytest.approx(getattr(full, k)), k          # without the dense |X| x |X| kernel
    assert rr.seed == 0 and rr.form == "markov"


@dataclass(frozen=True)
class _MergeAll:
    """A toy merge mechanism: every public value in one block."""

    public_labels: np.ndarray

    @property
    def partition(self):
        return (tuple(self.public_labels.tolist()),)


def test_a_new_mechanism_is_one_entry(tmp_path, capsys, monkeypatch):
    def audit(ctx):
        from graphpriv.release.merge_audit import merged_guarantee

        g = merged_guarantee(ctx.counts, ctx.partition, 0.0)
        return {"eps_eff": g["eps_eff"]}, ([] if g["eps_eff"] < 1e-9 else ["not independent"])

    spec = MechanismSpec(name="merge-all", summary="one block", paper="(a test)", citation="graphpriv",
                         options=(MechanismOption("strength", float, REQUIRED, "unused"),), release_kind="labels",
                         guarantee="S and the release are independent", run=lambda jd, o: _MergeAll(jd.public_labels),
                         release=lambda r, o: merge_release(r, o, objective="watchdog"), audit=audit)
    monkeypatch.setattr(registry, "_REGISTRY", dict(registry._REGISTRY))
    gp.register_mechanism(spec)
    df = pd.DataFrame({"s": list("aabbc") * 20, "x": [1, 2, 3, 4, 5] * 20})
    path = tmp_path / "t.csv"
    df.to_csv(path, index=False)
    proc = run_inproc(["sanitize", path, "-s", "s", "-x", "x", "--mechanism", "merge-all", "--strength", "2",
                       "--no-explorer", "--out", tmp_path / "o"], capsys)
    assert proc.returncode == 0, proc.stderr
    summary = json.loads((tmp_path / "o" / "summary.json").read_text())
    assert summary["mechanism"]["name"] == "merge-all" and summary["after"]["eps_eff"] == pytest.approx(0.0, abs=1e-12)
    assert set(pd.read_csv(tmp_path / "o" / "sanitized.csv")["x"]) == {"[1, 5]"}
    proc = run_inproc(["sanitize", path, "-s", "s", "-x", "x", "--mechanism", "merge-all", "--out", tmp_path / "p"], capsys)
    assert_one_line_error(proc, "needs --strength")
    assert math.isfinite(summary["before"]["mutual_information"])
