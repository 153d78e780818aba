"""Section V-C (problem (10)) over the Contraction state: identical trajectories to the plain reference
(tests/reference_agglomerative.py) under both utilities and both tie rules, on instances large enough
that the pruned search (pairs of special clusters first, non-special pairs only when they can win) and
its full-search fallback are both exercised."""

import os
import sys

from hypothesis import given, settings
from hypothesis import strategies as st


import graphpriv as gp

sys.path.insert(0, os.path.dirname(__file__))
from reference_agglomerative import ref_from_range  # noqa: E402
from test_mechanisms_agglomerative import _fast_steps, _same  # noqa: E402


@st.composite
def vc_instances(draw):
    n_x = draw(st.integers(8, 18))
    n_s = draw(st.integers(n_x // 2, 2 * n_x))
    sens, pub = [], []
    for j in range(n_x):
        for s in draw(st.lists(st.integers(0, n_s - 1), min_size=1, max_size=2, unique=True)):
            sens.append(s)
            pub.append(j)
    jr = gp.JointRange.from_pairs(sens, pub)
    vals = {x: draw(st.integers(0, 12)) / 4 for x in jr.public_labels.tolist()}
    return jr, vals


@settings(max_examples=25, deadline=None)
@given(vc_instances(), st.sampled_from([0.0, 0.3, 2.0]), st.sampled_from(["U1", "U2"]), st.sampled_from(["paper", "index"]))
def test_section_vc_matches_reference(inst, lam, util, rule):
    jr, vals = inst
    values = vals if util == "U2" else None
    _same(_fast_steps(jr, "L0|I*=0", util, values, lam, rule), ref_from_range(jr, values).problem10(lam, rule), lam)


GRID = [0.0, 0.05, 0.1, 0.2, 0.3, 0.5, 0.75, 1.0, 2.0, 5.0, 20.0]


def _grid_frontier(jr, util, values, rule):
    """The λ-grid frontier built by hand: one full gp.agglomerate run per λ."""
    found = {}
    for lam in GRID:
        r = gp.agglomerate(jr, "L0|I*=0", lam, util, values, tie_rule=rule)
        key = frozenset(r.quantization)
        found.setdefault(key, [r, lam, lam])[2] = lam
    items = list(found.values())
    keep = gp.pareto_filter([it[0].privacy for it in items], [it[0].utility for it in items])
    return [(items[i][0].privacy, items[i][0].utility, frozenset(items[i][0].quantization), items[i][1], items[i][2])
            for i in keep.tolist()]


@settings(max_examples=15, deadline=None)
@given(vc_instances(), st.sampled_from(["U1", "U2"]), st.sampled_from(["paper", "index"]))
def test_section_vc_frontier_equals_lambda_grid(inst, util, rule):
    jr, vals = inst
    values = vals if util == "U2" else None
    f = gp.pareto_frontier(jr, "L0|I*=0", util, values, lams=GRID, tie_rule=rule)
    got = [(p.privacy, p.utility, frozenset(p.quantization), p.lam_min, p.lam_max) for p in f.points]
    assert got == _grid_frontier(jr, util, values, rule)


def test_upper_pair_blocks_lists_every_pair_once_in_row_major_order():
    """The block scan shared by Section V-C's full search and the explorer's candidate ranking."""
    from graphpriv.mechanisms.quantization.problem import upper_pair_blocks

    for k in (0, 1, 2, 5, 37):
        for max_pairs in (1, 3, 1000):
            got = [(i, j) for I, J in upper_pair_blocks(k, max_pairs) for i, j in zip(I.tolist(), J.tolist())]
            assert got == [(i, j) for i in range(k) for j in range(i + 1, k)]
