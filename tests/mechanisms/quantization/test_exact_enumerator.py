"""One exhaustive enumerator under gp.exact_minimum and gp.exact_frontier, cross-checked against a plain
recursive enumeration of set partitions scored by gp.evaluate_quantization (a second, independent route)."""

import math

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import graphpriv as gp
from graphpriv.mechanisms.exact import _partition_table
from graphpriv.mechanisms.agglomerative import _Problem


def partitions(items):
    if not items:
        yield []
        return
    first, rest = items[0], items[1:]
    for p in partitions(rest):
        for i in range(len(p)):
            yield p[:i] + [[first] + p[i]] + p[i + 1:]
        yield [[first]] + p


def instance(seed):
    rng = np.random.default_rng(seed)
    jr = gp.random_joint_range(int(rng.integers(2, 7)), int(rng.integers(2, 7)), float(rng.uniform(0.15, 0.45)), seed=rng)
    values = {x: float(v) for x, v in zip(jr.public_labels, np.round(rng.uniform(0, 10, size=jr.n_public), 1))}
    return jr, values


@settings(max_examples=25, deadline=None)
@given(st.integers(0, 10**6), st.sampled_from(["L0", "I*", "L0|I*=0"]), st.sampled_from(["U1", "U2"]), st.floats(0, 3))
def test_exact_minimum_equals_plain_enumeration(seed, objective, utility, lam):
    jr, values = instance(seed)
    vals = values if utility == "U2" else None
    best = math.inf
    count = 0
    for p in partitions(jr.public_labels.tolist()):
        count += 1
        if objective == "L0|I*=0" and gp.maximin_information(gp.quantize_range(jr, p)) > 0:
            continue
        best = min(best, gp.lagrangian(jr, p, objective, lam, utility, vals))
    e = gp.exact_minimum(jr, objective, lam, utility, vals)
    assert e.n_partitions == count == gp.bell_number(jr.n_public)
    assert e.L == pytest.approx(best, abs=1e-9)
    assert gp.lagrangian(jr, e.quantization, objective, lam, utility, vals) == pytest.approx(e.L, abs=1e-9)


def test_one_table_for_both_readings():
    """The frontier's points and the minimum at any λ are read off the same table of every partition."""
    jr, values = gp.datasets.paper_example()
    prob = _Problem(jr, "I*", "U1", None, 2)
    rgs, priv, util, feasible = _partition_table(prob)
    assert len(rgs) == gp.bell_number(7) == 877 and feasible.all()
    f = gp.exact_frontier(jr, "I*")
    assert sorted((round(p.privacy, 9), round(p.utility, 9)) for p in f.points) == \
        sorted({(round(a, 9), round(b, 9)) for a, b in zip(priv, util)
                if not ((priv < a - 1e-12) & (util >= b - 1e-12) | (priv <= a + 1e-12) & (util > b + 1e-12)).any()})
    for lam in (0.0, 0.3, 1.0, 5.0):
        assert gp.exact_minimum(jr, "I*", lam).L == pytest.approx(float((priv - lam * util).min()), abs=1e-12)


def test_exact_minimum_bad_input():
    jr, _ = gp.datasets.paper_example()
    with pytest.raises(gp.InputError, match="max_public"):
        gp.exact_minimum(jr, "I*", 0.3, max_public=0)
    with pytest.raises(gp.TooLargeError, match="max_public = 5"):
        gp.exact_minimum(jr, "I*", 0.3, max_public=5)
    with pytest.raises(gp.InputError, match="lam"):
        gp.exact_minimum(jr, "I*", -1.0)
