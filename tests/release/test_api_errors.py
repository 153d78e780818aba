"""Bad arguments to the release API raise one clear graphpriv error, never a raw Python one.

Each case below raised a raw ``TypeError``, ``ValueError``, ``AttributeError``, ``KeyError``,
``IndexError`` or ``OverflowError``, or was silently accepted (a NaN promise skipped the privacy
check), before these checks.
"""

from __future__ import annotations

import math

import pytest

import graphpriv as gp
from graphpriv.errors import GraphprivError, InputError

TABLE = "s,x\na,1\na,2\nb,3\nb,4\nc,1\nc,5\n"


@pytest.fixture
def written(tmp_path):
    """A table, the release of Algorithm 1 at λ = 0 and the released table (the public column through
    ``Release.transform``, written by the csv module)."""
    import csv

    src = tmp_path / "t.csv"
    src.write_text(TABLE)
    jr = gp.read_joint_range(src, sensitive="s", public="x")
    result = gp.agglomerate(jr, "L0", 0.0)
    rel = gp.Release.from_result(result)
    rows = [ln.split(",") for ln in TABLE.splitlines()[1:]]
    released = rel.transform([int(x) for _, x in rows])
    dst = tmp_path / "r.csv"
    with open(dst, "w", newline="") as fh:
        w = csv.writer(fh, lineterminator="\n")
        w.writerow(["s", "x"])
        w.writerows([s, str(v)] for (s, _), v in zip(rows, released))
    assert gp.audit_release((src, dst), rel, sensitive="s", public="x").ok
    return src, dst, rel, result, jr


def _raises_clearly(fn, *needles):
    with pytest.raises(GraphprivError) as info:
        fn()
    msg = str(info.value)
    assert "\n" not in msg
    for n in needles:
        assert n.lower() in msg.lower(), (n, msg)
    return msg


# ---------------------------------------------------------------------- huge numbers
def test_partition_at_a_lambda_too_large_for_a_float():
    jr, _ = gp.datasets.paper_example()
    tr = gp.pareto_frontier(jr, "I*", utility="U1").trace
    _raises_clearly(lambda: tr.partition_at(lam=10**400), "lam", "finite")
    assert len(tr.partition_at(lam=10**300)) == 7          # a large λ that is a float keeps every value apart


def test_frontier_partition_at_a_utility_too_large_for_a_float():
    jr, _ = gp.datasets.paper_example()
    f = gp.pareto_frontier(jr, "I*", utility="U1")
    _raises_clearly(lambda: f.partition(min_utility=10**400), "min_utility", "finite")
    _raises_clearly(lambda: f.partition(max_privacy=-10**400), "max_privacy", "finite")


# ---------------------------------------------------------------------- audit_release: malformed arguments
@pytest.mark.parametrize("parts, needle", [
    (None, "parts"),
    ("t.csv", "parts"),
    (("a", "b", "c"), "parts"),
    ([("a", "b", "c")], "parts"),
    ([None], "parts"),
    (42, "parts"),
])
def test_audit_parts_that_are_not_pairs_of_files(written, parts, needle):
    _, _, rel, _, _ = written
    _raises_clearly(lambda: gp.audit_release(parts, rel, sensitive="s", public="x"), needle, "(input, output)")


@pytest.mark.parametrize("release", [None, {"labels": [1]}, "mapping.json", 3])
def test_audit_a_release_that_is_not_a_release(written, release):
    src, dst, _, _, _ = written
    _raises_clearly(lambda: gp.audit_release((src, dst), release, sensitive="s", public="x"), "release", "Release")


def test_audit_an_unknown_column(written):
    src, dst, rel, _, _ = written
    _raises_clearly(lambda: gp.audit_release((src, dst), rel, sensitive="s", public="nope"), "nope")
    _raises_clearly(lambda: gp.audit_release((src, dst), rel, sensitive="nope", public="x"), "nope")


def test_audit_the_wrong_separator(written):
    src, dst, rel, _, _ = written
    _raises_clearly(lambda: gp.audit_release((src, dst), rel, sensitive="s", public="x", sep=";"), "x")
    _raises_clearly(lambda: gp.audit_release((src, dst), rel, sensitive="s", public="x", sep=""), "sep")
    _raises_clearly(lambda: gp.audit_release((src, dst), rel, sensitive="s", public="x", sep=7), "sep")


def test_audit_values_missing_a_label(written):
    src, dst, rel, _, _ = written
    _raises_clearly(lambda: gp.audit_release((src, dst), rel, sensitive="s", public="x", values={1: 1.0}), "values", "2")


@pytest.mark.parametrize("bad", [{1: float("nan"), 2: 2, 3: 3, 4: 4, 5: 5}, {1: "one", 2: 2, 3: 3, 4: 4, 5: 5},
                                 {1: math.inf, 2: 2, 3: 3, 4: 4, 5: 5}])
def test_audit_values_that_are_not_finite_numbers(written, bad):
    src, dst, rel, _, _ = written
    _raises_clearly(lambda: gp.audit_release((src, dst), rel, sensitive="s", public="x", values=bad), "values", "1")


def test_audit_codes_of_the_wrong_length(written):
    import numpy as np

    src, dst, rel, _, _ = written
    _raises_clearly(lambda: gp.audit_release((src, dst), rel, sensitive="s", public="x",
                                             codes=lambda a: np.zeros(len(a) + 1, dtype=np.int64)), "codes", "rows")
    _raises_clearly(lambda: gp.audit_release((src, dst), rel, sensitive="s", public="x",
                                             codes=lambda a: np.full(len(a), 99, dtype=np.int64)), "codes")
    _raises_clearly(lambda: gp.audit_release((src, dst), rel, sensitive="s", public="x", codes="labels"), "codes")


# ---------------------------------------------------------------------- audit_release: silently accepted before
@pytest.mark.parametrize("promise", [float("nan"), "0", -1.0, math.inf, True])
def test_audit_a_promised_privacy_that_is_no_number(written, promise):
    src, dst, rel, _, _ = written
    _raises_clearly(lambda: gp.audit_release((src, dst), rel, sensitive="s", public="x", objective="L0",
                                             promised_privacy=promise), "promised_privacy")


def test_audit_an_unknown_objective(written):
    src, dst, rel, _, _ = written
    _raises_clearly(lambda: gp.audit_release((src, dst), rel, sensitive="s", public="x", objective="bogus"),
                    "objective", "bogus")


def test_audit_sensitive_equal_to_public(written):
    src, dst, rel, _, _ = written
    _raises_clearly(lambda: gp.audit_release((src, dst), rel, sensitive="x", public="x"), "sensitive", "public")


def test_audit_checks_a_kept_promise_and_a_broken_one(written):
    """The checks above do not stop the audit from working: a promise kept passes, a broken one fails
    (the input itself, every value apart, has L0 = log2 3 bits: 2 is seen with one of three sensitive values)."""
    src, dst, rel, result, jr = written
    rep = gp.audit_release((src, dst), rel, sensitive="s", public="x", objective="L0", promised_privacy=result.privacy)
    assert rep.ok, rep.problems
    apart = gp.Release.from_partition(jr, [{x} for x in jr.public_labels.tolist()])
    rep = gp.audit_release((src, src), apart, sensitive="s", public="x", objective="L0", promised_privacy=0)
    assert rep.L0 == pytest.approx(math.log2(3))
    assert not rep.ok and "worse than the mechanism's" in rep.problems[0]


def test_release_from_partition_with_nan_codewords():
    jr, values = gp.datasets.paper_example()
    bad = dict(values)
    bad["x1"] = float("nan")
    part = [{"x1", "x2"}, {"x3"}, {"x4"}, {"x5"}, {"x6"}, {"x7"}]
    _raises_clearly(lambda: gp.Release.from_partition(jr, part, values=bad), "x1", "finite")
    bad["x1"] = math.inf
    _raises_clearly(lambda: gp.Release.from_partition(jr, part, values=bad), "x1", "finite")
    assert gp.Release.from_partition(jr, part, values=values).mapping["x1"] == pytest.approx(0.15)
