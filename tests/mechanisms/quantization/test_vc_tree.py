"""Section V-C over every λ at once (Ding & Farokhi, *Developing Non-Stochastic Privacy-Preserving Policies
Using Agglomerative Clustering*, Section V-C, problem (10), eqs. (11)-(12)): the tree of trajectories of
graphpriv.section_vc_tree against one single run (section_vc.problem10) per λ, and the exact problem (10)
frontier against the λ-grid frontier.

The tree follows the exact lower envelope of the lines ΔL(λ) = ΔL0 - λΔU; a single run compares ΔL rounded
to the tie tolerance (1e-9). They may differ only where, at the first step where their merges differ, the
two pairs' ΔL(λ) lie within 3 tolerances of each other (a near-tie next to a breakpoint, or right of
λ = 0); such λ are counted, and must be rare.
"""

import math
import random

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st

import graphpriv as gp
from graphpriv.mechanisms.quantization.contraction import Contraction
from graphpriv.mechanisms.quantization.problem import _Problem
from graphpriv.mechanisms.quantization.section_vc import problem10
from graphpriv.mechanisms.quantization.vc_tree import problem10_tree

GRID = [0.0] + np.geomspace(1e-3, 1e3, 49).tolist()
BAND = 3e-9 + 1e-12  # 3 tie tolerances (plus float slack): the documented near-tie band


def _range(rng_draw, n_x, n_s, continuous):
    sens, pub = [], []
    for j in range(n_x):
        for s in rng_draw.sample(range(n_s), min(n_s, rng_draw.randint(1, 2))):
            sens.append(s)
            pub.append(j)
    jr = gp.JointRange.from_pairs(sens, pub)
    vals = {x: (rng_draw.random() if continuous else rng_draw.randint(0, 12) / 4) for x in jr.public_labels.tolist()}
    return jr, vals


@st.composite
def ranges(draw):
    """Random ranges of 2-22 public values; U2 values on a coarse grid (many ties) or continuous."""
    rng = random.Random(draw(st.integers(0, 2 ** 32 - 1)))
    n_x = draw(st.integers(2, 22))
    n_s = draw(st.integers(max(1, n_x // 2), 2 * n_x))
    return _range(rng, n_x, n_s, draw(st.booleans()))


def _problem(jr, util, vals, rule):
    prob = _Problem(jr, "L0|I*=0", util, vals if util == "U2" else None, 2)
    prob.tie_rule = rule
    return prob


def _first_divergence_gap(prob, tree_merges, run_merges, lam):
    """|ΔL_p(λ) - ΔL_r(λ)| of the two pairs at the first step where the trajectories differ."""
    c = Contraction._from_problem(prob)
    for t in range(1, min(len(tree_merges), len(run_merges))):
        if tree_merges[t] != run_merges[t]:
            dl = []
            for step in (tree_merges[t], run_merges[t]):
                d = c.copy()
                p0, u0 = d.privacy("L0"), d.utility()
                d.merge(*step[0])
                dl.append((d.privacy("L0") - p0) - lam * (d.utility() - u0))
            return abs(dl[0] - dl[1])
        c.merge(*tree_merges[t][0])
    raise AssertionError("trajectories of different lengths that agree on their common steps")


def _compare(prob, leaves, lams):
    """Number of λ where the single run differs from the tree (each asserted to be a near-tie)."""
    banded = 0
    for lam in lams:
        held = [leaf for leaf in leaves if leaf.contains(lam)]
        assert len(held) == 1, (lam, [leaf.segments for leaf in leaves])
        run = problem10(prob, lam)
        if held[0].traj.merges != run.merges:
            gap = _first_divergence_gap(prob, held[0].traj.merges, run.merges, lam)
            assert gap <= BAND, (lam, gap, [leaf.segments for leaf in leaves])
            banded += 1
    return banded


def _tiles(leaves):
    """The leaves' segments tile [0, inf): the point 0, then [lo, hi) pieces end to end."""
    segs = sorted(seg for leaf in leaves for seg in leaf.segments)
    assert segs[0] == (0.0, 0.0)
    assert segs[1][0] == 0.0 and segs[-1][1] == math.inf
    for (_, hi), (lo, _) in zip(segs[1:], segs[2:]):
        assert hi == lo
    assert all(lo < hi for lo, hi in segs[1:])


@settings(max_examples=40, deadline=None)
@given(ranges(), st.sampled_from(["U1", "U2"]), st.sampled_from(["paper", "index"]))
def test_tree_trajectory_equals_single_run_at_every_grid_lambda(inst, util, rule):
    jr, vals = inst
    prob = _problem(jr, util, vals, rule)
    leaves = problem10_tree(prob)
    _tiles(leaves)
    breaks = sorted({lo for leaf in leaves for lo, _ in leaf.segments if lo > 0})
    mids = [0.5 * (a + b) for a, b in zip([0.0] + breaks, breaks)] + [b * 1.5 + 1 for b in breaks[-1:]]
    assert _compare(prob, leaves, GRID + mids) <= 2  # near-ties are rare (the seeded count below is 0)


def test_near_ties_are_rare_on_seeded_random_ranges():
    """Every grid λ on 40 seeded ranges x 2 utilities x 2 tie rules (8,000 single runs): the count of
    λ where a single run resolves a near-tie the other way than the tree."""
    banded = total = 0
    for seed in range(40):
        rng = random.Random(seed)
        n_x = rng.randint(4, 20)
        jr, vals = _range(rng, n_x, rng.randint(n_x // 2, 2 * n_x), seed % 2 == 1)
        for util in ("U1", "U2"):
            for rule in ("paper", "index"):
                prob = _problem(jr, util, vals, rule)
                banded += _compare(prob, problem10_tree(prob), GRID)
                total += len(GRID)
    print(f"near-ties resolved the other way by a single run: {banded} of {total} (range, λ) pairs")
    assert total == 8000 and banded <= total // 100


@settings(max_examples=25, deadline=None)
@given(ranges(), st.sampled_from(["U1", "U2"]), st.sampled_from(["paper", "index"]))
def test_exact_frontier_dominates_grid_frontier_and_its_points_are_single_runs(inst, util, rule):
    jr, vals = inst
    values = vals if util == "U2" else None
    exact = gp.pareto_frontier(jr, "L0|I*=0", util, values, tie_rule=rule)
    grid = gp.pareto_frontier(jr, "L0|I*=0", util, values, lams=GRID, tie_rule=rule)
    assert (exact.method, grid.method) == ("exact-lambda", "greedy-per-lambda")
    assert exact.tree is not None and grid.tree is None
    prob = _problem(jr, util, vals, rule)
    leaves = exact.tree.leaves
    # grid λ whose single run follows the tree: their quantisations are leaf ends, so the exact frontier
    # weakly dominates every grid point they give (a near-tie λ may give a quantisation off the tree)
    on_tree = set()
    for lam in GRID:
        if _compare(prob, leaves, [lam]) == 0:
            on_tree.add(frozenset(exact.tree.result_at(lam).quantization))
    checked = 0
    for p in grid.points:
        if frozenset(p.quantization) in on_tree:
            assert any(e.privacy <= p.privacy + 1e-12 and e.utility >= p.utility - 1e-12 for e in exact.points), p
            checked += 1
    assert checked >= len(grid.points) - 1
    # every exact point is a leaf end, and a single run in the middle of each of the leaf's λ segments
    # ends there (0 for the point λ = 0, 2 lo + 1 for the last piece [lo, inf))
    banded = 0
    for e in exact.points:
        leaf = next(leaf for leaf in leaves if np.array_equal(leaf.ids, e._ids))
        assert (e.privacy, e.utility) == (leaf.privacy, leaf.utility)
        assert e.lam_min <= max(leaf.lam_min, math.ulp(0.0)) and leaf.lam_max <= e.lam_max
        holds_zero = any((0.0, 0.0) in lf.segments for lf in leaves if np.array_equal(lf.ids, e._ids))
        assert (e.lam_min == 0.0) == holds_zero  # λ = 0 is in a point's range only if it selects the point
        for lo, hi in leaf.segments:
            lam = 0.0 if hi == lo else (lo * 2 + 1 if hi == math.inf else 0.5 * (lo + hi))
            assert leaf.contains(lam)
            banded += _compare(prob, leaves, [lam])
    assert banded <= 1


def test_single_run_near_a_breakpoint_resolves_the_near_tie_itself():
    """Paper 003's Fig. 1 range with U2 values: one breakpoint λ* = 7.0588, where the winning pair of a step
    changes. Outside the band of width ~1e-9 / |ΔU_p - ΔU_r| around λ* a single run follows
    the tree; inside it, rounding and the tie key decide, so it takes one of the two branches."""
    jr, values = gp.datasets.paper_example()
    tree = gp.section_vc_tree(jr, "U2", values)
    (x,) = tree.breakpoints
    left, right = tree.leaf_at(x * (1 - 1e-6)), tree.leaf_at(x)
    assert left is not right and right.lam_min == x and left.lam_max == x
    for lam in (x * (1 - 1e-6), x * (1 - 1e-8), x * (1 + 1e-8), x * (1 + 1e-6), 0.5 * x, 3 * x):
        assert gp.agglomerate(jr, "L0|I*=0", lam, "U2", values).quantization == tree.result_at(lam).quantization
    for lam in (x * (1 - 1e-13), x, x * (1 + 1e-13)):
        q = set(gp.agglomerate(jr, "L0|I*=0", lam, "U2", values).quantization)
        assert q in (set(tree.result_at(x * (1 - 1e-6)).quantization), set(tree.result_at(x).quantization))


def test_frontier_points_carry_the_tree_lambda_ranges():
    jr, values = gp.datasets.paper_example()
    f = gp.pareto_frontier(jr, "L0|I*=0", "U2", values)
    assert [(p.lam_min, p.lam_max) for p in f.points] == [(0.0, 0.0), (f.tree.breakpoints[0], math.inf)]
    r = f.tree.result_at(100.0)
    assert (r.privacy, r.utility) == (f.points[1].privacy, f.points[1].utility) and r.lam == 100.0
    assert repr(f.tree) == "VCTree(leaves=3, breakpoints=1)" and len(f.tree) == 3


@st.composite
def line_sets(draw):
    """Lines ΔL(λ) = dp - λ du of up to 12 pairs, some sharing an intercept or a slope, some nearly equal."""
    k = draw(st.integers(2, 12))
    dps = [-draw(st.integers(0, 40)) / 8 for _ in range(k)]
    dus = [-draw(st.integers(0, 40)) / 16 for _ in range(k)]
    if draw(st.booleans()):  # a near-duplicate of the first line
        dps.append(dps[0] + draw(st.sampled_from([0.0, 3e-10, -3e-10])))
        dus.append(dus[0] + draw(st.sampled_from([0.0, 1e-12])))
    return [(dp, du, (draw(st.integers(0, 3)), i, i + 1 + draw(st.integers(0, 3)))) for i, (dp, du) in enumerate(zip(dps, dus))]


@settings(max_examples=150, deadline=None)
@given(line_sets())
def test_envelope_search_splits_at_exact_crossings(lines):
    """The interval search of one step (vc_tree._gap) on synthetic lines, with a winner function that
    rounds ΔL to the tie tolerance and breaks ties by the key, as Section V-C's step function does:
    the pieces tile [0, 100] and each piece's line is within 3 tolerances of the exact lower envelope;
    away from near-ties it is the envelope's own line, and each breakpoint is a crossing of two lines."""
    from graphpriv.mechanisms.quantization import vc_tree as vt

    def win(*lams):
        out = []
        for lam in lams:
            dp, du, key = min(lines, key=lambda ln: (round((ln[0] - lam * ln[1]) / 1e-9), ln[2]))
            out.append(vt._Line(((round((dp - lam * du) / 1e-9),) + key, dp, du), 0.0, 0.0))
        return out

    pieces = []
    w0, w1 = win(0.0, 100.0)
    vt._gap(0.0, 100.0, w0, w1, win, pieces, 0)
    assert pieces[0][0] == 0.0 and pieces[-1][1] == 100.0
    assert all(p[1] == q[0] and p[0] < p[1] for p, q in zip(pieces, pieces[1:]))
    by_pair = {(key[1], key[2]): (dp, du) for dp, du, key in lines}
    for lo, hi, pair in pieces:
        for lam in np.linspace(lo, hi, 7)[1:-1].tolist():
            costs = sorted(dp - lam * du for dp, du, _ in lines)
            dp, du = by_pair[pair]
            assert dp - lam * du <= costs[0] + 3e-9
            exact = [(dp2 - lam * du2, key) for dp2, du2, key in lines]
            best = min(exact)
            if len(costs) > 1 and costs[1] - costs[0] > 3e-9:  # no near-tie: the envelope's own line
                assert pair == (best[1][1], best[1][2])
    for (_, x, p), (_, _, r) in zip(pieces, pieces[1:]):
        if p != r:
            (dpa, dua), (dpb, dub) = by_pair[p], by_pair[r]
            assert abs((dpa - x * dua) - (dpb - x * dub)) <= 1e-9 + 1e-12 * (1 + x)


def test_tree_with_medoid_and_callable_distortions_equals_single_runs():
    """Distortion utilities without the scalar-centroid fast path (medoid codewords, a cubed distance):
    the step function searches all of Ψ; the tree's trajectory equals the single run's around its
    breakpoints (1 % away) and at the grid λ."""
    jr, values = gp.datasets.paper_example()
    for u in (gp.U2(values, codeword="medoid"), gp.U2(values, distance=lambda a, b: abs(a - b) ** 3)):
        tree = gp.section_vc_tree(jr, u)
        assert len(tree.breakpoints) >= 1
        lams = GRID[::4] + [x * f for x in tree.breakpoints for f in (0.99, 1.01)]
        for lam in lams:
            assert set(tree.result_at(lam).quantization) == set(gp.agglomerate(jr, "L0|I*=0", lam, u).quantization), lam
