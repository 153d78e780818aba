"""Section V-C (problem (10)) over the Contraction state: identical trajectories to the plain reference
(tests/reference_agglomerative.py) under both utilities and both tie rules, on instances large enough
that the pruned search (pairs of special clusters first, non-special pairs only when they can win) and
its full-search fallback are both exercised."""

import os
import sys

import numpy as np

from hypothesis import given, settings
from hypothesis import strategies as st


import graphpriv as gp
from graphpriv.mechanisms.agglomerative import _Problem

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__)))))  # tests/: the reference implementations
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


# λ values: 0 (every non-special pair ties), 1.37e-9 (rounded ΔL classes of width ~1 in the merged
# distortion or log-size, so many pairs share a class), small, moderate and large
LAMS_VC = [0.0, 1.37e-9, 1e-3, 0.3, 3.0]


@st.composite
def singleton_heavy_instances(draw):
    """Ranges with many more sensitive values than shared ones (most clusters keep |S| = 1 for long, so
    the L0 term rarely moves and the non-special search decides), values on a coarse grid (ties) or spread."""
    n_x = draw(st.integers(10, 22))
    n_s = draw(st.integers(n_x // 2, 2 * n_x))
    sens, pub = [], []
    for j in range(n_x):
        k = draw(st.sampled_from([1, 1, 1, 2]))
        for s in draw(st.lists(st.integers(0, n_s - 1), min_size=k, max_size=k, unique=True)):
            sens.append(s)
            pub.append(j)
    jr = gp.JointRange.from_pairs(sens, pub)
    coarse = draw(st.booleans())
    vals = {x: (draw(st.integers(0, 6)) / 2 if coarse else draw(st.integers(0, 10_000)) / 997)
            for x in jr.public_labels.tolist()}
    return jr, vals


@settings(max_examples=30, deadline=None)
@given(singleton_heavy_instances(), st.sampled_from(LAMS_VC), st.sampled_from(["U1", "U2", "U2sq"]),
       st.sampled_from(["paper", "index"]))
def test_section_vc_size_classes_and_value_windows_match_reference(inst, lam, util, rule):
    """U1's size-class scan and U2's value windows (abs and squared distances) against the plain loop."""
    jr, vals = inst
    if util == "U1":
        fast, ref = _fast_steps(jr, "L0|I*=0", "U1", None, lam, rule), ref_from_range(jr).problem10(lam, rule)
    elif util == "U2":
        fast, ref = _fast_steps(jr, "L0|I*=0", "U2", vals, lam, rule), ref_from_range(jr, vals).problem10(lam, rule)
    else:
        fast = _fast_steps(jr, "L0|I*=0", gp.U2(distance="squared"), vals, lam, rule)
        ref = ref_from_range(jr, vals, squared=True).problem10(lam, rule)
    _same(fast, ref, lam)


@settings(max_examples=25, deadline=None)
@given(singleton_heavy_instances(), st.lists(st.integers(0, 10_000), max_size=8), st.sampled_from(["U1", "U2"]),
       st.sampled_from(["paper", "index"]))
def test_step_winner_is_the_argmin_of_eq12_at_any_state_and_lambda(inst, picks, util, rule):
    """The stateless step winner (used for exact λ frontiers) at states reached by arbitrary merges of Ψ,
    for several λ at the same state, equals the brute-force argmin of (rounded ΔL, |S| sum, index)."""
    from graphpriv.mechanisms.quantization.contraction import Contraction
    from graphpriv.mechanisms.quantization.section_vc import _best_pair, step_winner

    from reference_agglomerative import q as ref_q

    jr, vals = inst
    values = vals if util == "U2" else None
    prob = _Problem(jr, "L0|I*=0", util, values, 2)
    prob.tie_rule = rule
    c = Contraction._from_problem(prob)
    for p in picks:  # walk to an arbitrary state by merges of Ψ
        psi = c.psi()
        if not psi:
            break
        c.merge(*psi[p % len(psi)])
    ref = ref_from_range(jr, values)
    Q = [sorted(int(i) for i in np.flatnonzero(c.cluster_ids() == r)) for r in c.clusters().tolist()]
    p0, u0 = ref.L0(Q), ref.U(Q)
    comp = c.component_array()
    for lam in LAMS_VC:
        got = step_winner(prob, c, comp, lam, prob.l0(c.min_s_size()), c.utility())
        assert got == _best_pair(prob, c, comp, lam, prob.l0(c.min_s_size()), c.utility())
        want = None
        for a, b in c.psi():
            A, B = next(q for q in Q if q[0] == a), next(q for q in Q if q[0] == b)
            Q2 = ref.merge(Q, a, b)
            dl = (ref.L0(Q2) - p0) - lam * (ref.U(Q2) - u0)
            key = (ref_q(dl), len(ref.S(A)) + len(ref.S(B)) if rule == "paper" else 0, a, b)
            want = key if want is None or key < want else want
        if want is None:
            assert got is None
        else:
            assert got[0][1:] == want[1:] and got[0][0] == want[0]


@settings(max_examples=25, deadline=None)
@given(singleton_heavy_instances(), st.sampled_from([1.37e-9, 0.3, 3.0]), st.sampled_from(["paper", "index"]),
       st.sampled_from(["dedupe", "blocks"]))
def test_section_vc_u2_value_aggregates_and_block_fallback_match_reference(inst, lam, rule, mode):
    """U2 with every window reduced to two clusters per value aggregate (what large coarse-valued
    ranges use), and with the window budget exceeded (all of Ψ searched in blocks)."""
    from unittest import mock

    import graphpriv.mechanisms.quantization.section_vc as vc

    jr, vals = inst
    name, value = ("_DEDUPE_EXTRA", -10**9) if mode == "dedupe" else ("_MAX_WINDOW_PAIRS", 0)
    with mock.patch.object(vc, name, value):
        fast = _fast_steps(jr, "L0|I*=0", "U2", vals, lam, rule)
    _same(fast, ref_from_range(jr, vals).problem10(lam, rule), lam)
