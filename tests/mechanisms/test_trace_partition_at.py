"""``MergeTrace.partition_at(lam=...)`` against ``gp.agglomerate`` at random λ, and the round trip
partition_at -> ``gp.Release.from_partition`` -> transform against the mechanism's and ``graphpriv sanitize``'s release.
"""

from __future__ import annotations

import json

import numpy as np
import pytest
from hypothesis import given, settings, strategies as st

import graphpriv as gp
from graphpriv.errors import InputError, InputTypeError

from test_cli_analyze import run_inproc

lams = st.floats(min_value=0.0, max_value=4.0, allow_nan=False)


def _full_trace(jr, objective, utility="U1", values=None):
    """The λ-free trajectory: the frontier's trace, recorded at λ = 0."""
    return gp.pareto_frontier(jr, objective, utility, values).trace


@settings(max_examples=40)
@given(lam=lams, objective=st.sampled_from(["L0", "I*"]), utility=st.sampled_from(["U1", "U2"]))
def test_partition_at_equals_agglomerate_paper_example(lam, objective, utility):
    jr, values = gp.datasets.paper_example()
    vals = values if utility == "U2" else None
    tr = _full_trace(jr, objective, utility, vals)
    assert tr.partition_at(lam=lam) == gp.agglomerate(jr, objective, lam, utility, vals).quantization


@settings(max_examples=30)
@given(seed=st.integers(0, 10_000), lam=lams, objective=st.sampled_from(["L0", "I*"]))
def test_partition_at_equals_agglomerate_random_ranges(seed, lam, objective):
    jr = gp.random_joint_range(6, 12, 0.25, seed=seed)
    tr = _full_trace(jr, objective)
    assert tr.partition_at(lam=lam) == gp.agglomerate(jr, objective, lam).quantization
    # a trace recorded at λ0 answers for every λ >= λ0 (those runs stop no later)
    run = gp.agglomerate(jr, objective, lam / 2)
    assert run.trace.partition_at(lam=lam) == gp.agglomerate(jr, objective, lam).quantization
    assert run.trace.partition_at() == run.quantization


def test_partition_at_refuses_what_the_trace_does_not_hold():
    jr, _ = gp.datasets.paper_example()
    stopped = gp.agglomerate(jr, "I*", 5.0).trace           # stops at t = 1 (the merge is rejected)
    assert stopped.partition_at(lam=5.0) == gp.agglomerate(jr, "I*", 5.0).quantization
    with pytest.raises(InputError, match="past the last step"):
        stopped.partition_at(lam=0.1)
    vc = gp.agglomerate(jr, "L0|I*=0", 0.3).trace            # problem (10): the merge order depends on λ
    assert vc.partition_at(lam=0.3) == gp.agglomerate(jr, "L0|I*=0", 0.3).quantization
    with pytest.raises(InputError, match="depend on λ"):
        vc.partition_at(lam=0.5)
    beam = gp.agglomerate(jr, "I*", 0.3, search="beam").trace
    with pytest.raises(InputError, match="depend on λ"):
        beam.partition_at(lam=0.2)
    for bad, err in ((-1.0, InputError), (float("nan"), InputError), ("0.3", InputTypeError), (True, InputTypeError)):
        with pytest.raises(err, match="lam"):
            stopped.partition_at(lam=bad)


@settings(max_examples=25)
@given(lam=lams, utility=st.sampled_from(["U1", "U2"]), objective=st.sampled_from(["L0", "I*"]),
       release=st.sampled_from([None, "label", "id"]))
def test_round_trip_reproduces_the_mechanism_release(lam, utility, objective, release):
    jr, values = gp.datasets.paper_example()
    vals = values if utility == "U2" else None
    r = gp.agglomerate(jr, objective, lam, utility, vals)
    part = _full_trace(jr, objective, utility, vals).partition_at(lam=lam)
    rel = gp.Release.from_partition(jr, part, release=release, values=vals, utility=utility)
    column = [x for x in jr.public_labels.tolist() for _ in range(2)]
    assert rel.transform(column) == r.transform(column, release)
    assert rel.mapping == gp.Release.from_result(r, release).mapping
    assert rel.cluster.tolist() == gp.Release.from_result(r, release).cluster.tolist()


def test_from_partition_orders_clusters_and_checks_input():
    jr, values = gp.datasets.paper_example()
    shuffled = [{"x6", "x4"}, {"x7", "x3", "x1"}, {"x5", "x2"}]
    rel = gp.Release.from_partition(jr, shuffled, release="id")
    assert rel.mapping == {"x1": 0, "x3": 0, "x7": 0, "x2": 1, "x5": 1, "x4": 2, "x6": 2}
    cw = gp.Release.from_partition(jr, shuffled, values=values)            # values -> U2 codewords
    assert cw.mode == "codeword" and cw.utility == "U2"
    assert cw.mapping["x2"] == pytest.approx((values["x2"] + values["x5"]) / 2)
    medoid = gp.Release.from_partition(jr, shuffled, release="codeword", values=values, utility=gp.U2(codeword="medoid"))
    assert medoid.mapping["x1"] in {values["x1"], values["x3"], values["x7"]}
    with pytest.raises(InputError, match="in no cluster"):
        gp.Release.from_partition(jr, [{"x1"}])
    with pytest.raises(InputError, match="two clusters"):
        gp.Release.from_partition(jr, [{"x1", "x2"}, {"x2", "x3", "x4", "x5", "x6", "x7"}])
    with pytest.raises(InputError, match="not a public label"):
        gp.Release.from_partition(jr, [{"x1", "x2", "x3", "x4", "x5", "x6", "x7", "x9"}])
    with pytest.raises(InputError, match="values"):
        gp.Release.from_partition(jr, shuffled, release="codeword", utility="U2")
    with pytest.raises(InputError, match="codeword"):
        gp.Release.from_partition(jr, shuffled, release="codeword", utility="U1")
    with pytest.raises(InputTypeError, match="JointRange"):
        gp.Release.from_partition(["x1"], shuffled)
    with pytest.raises(InputTypeError, match="partition"):
        gp.Release.from_partition(jr, "x1")


@pytest.mark.parametrize("utility, lam", [("U1", 0.3), ("U2", 0.05)])
def test_round_trip_reproduces_the_sanitize_release(tmp_path, capsys, utility, lam):
    """partition_at -> from_partition gives the mapping document ``graphpriv sanitize`` wrote."""
    out = tmp_path / "rel"
    proc = run_inproc(["sanitize", "hungarian", "-s", "age", "-x", "chol", "--missing", "drop", "--objective", "I*",
                       "--utility", utility, "--lam", lam, "--no-animation", "--no-explorer", "--out", out], capsys)
    assert proc.returncode == 0, proc.stderr
    doc = json.loads((out / "mapping.json").read_text())
    df = gp.datasets.load_hungarian()
    jr = gp.JointRange.from_dataframe(df, sensitive="age", public="chol", missing="drop")
    values = {x: float(x) for x in jr.public_labels.tolist()} if utility == "U2" else None
    part = _full_trace(jr, "I*", utility, values).partition_at(lam=lam)
    rel = gp.Release.from_partition(jr, part, values=values, utility=utility, decimals=doc["decimals"], objective="I*")
    assert rel.to_dict(public_column="chol", sensitive_column="age") == doc
    assert int(rel.changed.sum()) > 0
    column = df["chol"].dropna()
    assert np.array_equal(np.asarray(rel.transform(column), dtype=object),
                          np.asarray(gp.Release.from_json(json.dumps(doc)).transform(column), dtype=object))


def test_trace_repr_shows_its_numbers():
    jr, _ = gp.datasets.paper_example()
    text = repr(gp.agglomerate(jr, "I*", 0.3).trace)           # Example 3
    for part in ("objective='I*'", "utility='U1'", "λ=0.3", "7 public values", "release step t = 4", "3 clusters",
                 "I* = 0", "U1 = 1.222"):
        assert part in text, (part, text)
    baseline = repr(gp.k_anonymity_generalization(jr, 2).trace)  # no λ: said in words, never "nan"
    assert "nan" not in baseline.lower() and "λ=none" in baseline and "L0 = " in baseline
