"""gp.Contraction: the quotient of G_X under a partition Q, checked against recomputation from scratch.

After random merges every quantity the state keeps incrementally (clusters, S-set sizes, components,
L0, I*, U1, U2, Φ, Ψ, the recorded trace) is recomputed from the partition alone with the plain
reference in tests/reference_agglomerative.py and with graphpriv's whole-partition functions.
"""

import math
import os
import sys

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import graphpriv as gp
from graphpriv.errors import InputError, UnknownLabelError

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__)))))  # tests/: the reference implementations
from reference_agglomerative import ref_from_range  # noqa: E402
from test_mechanisms_agglomerative import instances  # noqa: E402


def test_fig1_merge_x1_x3():
    """Paper 003, Example 3 / Fig. 4(a): merging {x1} and {x3} leaves P(1) with 4 components, I* = 2 bits."""
    jr, _ = gp.datasets.paper_example()
    c = gp.Contraction(jr)
    assert c.n_components == 5 and c.privacy("I*") == pytest.approx(math.log2(5))
    assert c.merge("x1", "x3") == 0
    assert c.n_components == 4
    assert c.privacy("I*") == 2.0
    assert c.quantization == [{"x1", "x3"}, {"x2"}, {"x4"}, {"x5"}, {"x6"}, {"x7"}]
    assert c.partition == [{"x1", "x2", "x3", "x4"}, {"x5"}, {"x6"}, {"x7"}]
    # eq. (9): Ψ(Q(1), P(1)) is every pair except ({x1,x3},{x2}), ({x1,x3},{x4}), ({x2},{x4})
    assert set(c.psi()) == {(a, b) for a in (0, 1, 3, 4, 5, 6) for b in (0, 1, 3, 4, 5, 6) if a < b} - {(0, 1), (0, 3), (1, 3)}
    tr = c.trace("I*")
    assert tr.quantization(1) == [frozenset(q) for q in c.quantization]
    assert tr.step_privacy == (pytest.approx(math.log2(5)), 2.0)


def test_example3_by_hand_equals_algorithm2():
    """Replaying Example 3's merges (Algorithm 2, U1) by hand gives the mechanism's trace scalars."""
    jr, _ = gp.datasets.paper_example()
    r = gp.agglomerate(jr, "I*", 0.3)
    c = gp.Contraction(jr)
    for pairs in r.trace.step_merges[1:]:
        for a, b in pairs:
            c.merge(int(a), int(b))
    tr = c.trace("I*", 0.3)
    assert tr.step_privacy == pytest.approx(r.trace.step_privacy)
    assert tr.step_utility == pytest.approx(r.trace.step_utility)
    assert tr.step_merges == r.trace.step_merges
    assert c.quantization == [set(q) for q in r.quantization]


def test_step_groups_merges_and_bad_input():
    jr, values = gp.datasets.paper_example()
    c = gp.Contraction(jr, "U2", values)
    with c.step():
        c.merge("x1", "x2")
        c.merge("x6", "x7")
    assert c.history == [(), ((0, 1), (5, 6))]
    assert c.utility() == pytest.approx(-0.25)          # d̄({x6, x7}) = 0.25 (Example 2, U2)
    assert c.codeword("x7") == pytest.approx(1.25)
    rest = [{x} for x in ("x3", "x4", "x5")]
    assert c.merged_distortion("x1", "x6") == pytest.approx(-gp.U2(values)(list(values), [{"x1", "x2", "x6", "x7"}, *rest]))
    with pytest.raises(InputError, match="already in one cluster"):
        c.merge("x1", 1)
    with pytest.raises(UnknownLabelError, match="x9"):
        c.merge("x1", "x9")
    with pytest.raises(InputError, match="privacy measure"):
        c.privacy("L1")
    with pytest.raises(InputError, match="distortion utility"):
        gp.Contraction(jr).distortion("x1")
    with pytest.raises(InputError, match="needs numeric public values"):
        gp.Contraction(jr, "U2")


def _check_against_scratch(jr, vals, c, ref, util):
    n = jr.n_public
    ids = c.cluster_ids()
    Q = [list(g) for g in gp.mechanisms.trace._groups(ids)]
    Q = [[int(i) for i in g] for g in Q]
    labels = jr.public_labels.tolist()
    assert c.quantization == [{labels[i] for i in g} for g in Q]
    assert c.n_clusters == len(Q)
    assert c.clusters().tolist() == [g[0] for g in Q]
    # S-set sizes, components, measures
    for g in Q:
        assert c.ssz[g[0]] == len(ref.S(g))
        assert c.size[g[0]] == len(g)
        assert c.sensitive_set(labels[g[-1]]) == ref.S(g)
    assert c.n_components == ref.n_comp(Q)
    assert c.privacy("L0") == pytest.approx(ref.L0(Q), abs=1e-12)
    assert c.privacy("I*") == pytest.approx(ref.Istar(Q), abs=1e-12)
    assert c.utility() == pytest.approx(ref.U(Q), abs=1e-12)
    p, u = gp.evaluate_quantization(jr, c.quantization, "I*", util, vals if util == "U2" else None)
    assert (p, u) == (pytest.approx(c.privacy("I*")), pytest.approx(c.utility()))
    comp = ref.components(Q)
    assert set(c.psi()) == {(Q[i][0], Q[j][0]) for i in range(len(Q)) for j in range(i + 1, len(Q)) if comp[i] != comp[j]}
    assert set(c.phi()) == {(Q[i][0], Q[j][0]) for i in range(len(Q)) for j in range(i + 1, len(Q)) if ref.S(Q[i]) != ref.S(Q[j])}
    ca = c.component_array()
    for i in range(len(Q)):
        for j in range(len(Q)):
            assert (ca[Q[i][0]] == ca[Q[j][0]]) == (comp[i] == comp[j])
    assert sorted(map(sorted, c.partition)) == sorted(
        sorted(labels[x] for k, g in enumerate(Q) if comp[k] == cc for x in g) for cc in set(comp))
    assert n == len(ids)


@settings(max_examples=40, deadline=None)
@given(instances(max_x=7), st.sampled_from(["U1", "U2"]), st.data())
def test_random_merges_match_recomputation(inst, util, data):
    jr, vals = inst
    values = vals if util == "U2" else None
    c = gp.Contraction(jr, util, values)
    ref = ref_from_range(jr, values)
    if data.draw(st.booleans()):
        c.component_array()       # the vectorised component labels are kept up to date from here on
    n_merges = data.draw(st.integers(0, jr.n_public - 1))
    labels = jr.public_labels.tolist()
    for _ in range(n_merges):
        ids = c.clusters().tolist()
        a, b = data.draw(st.lists(st.sampled_from(ids), min_size=2, max_size=2, unique=True))
        by_label = data.draw(st.booleans())
        c.merge(labels[a] if by_label else a, b)
    _check_against_scratch(jr, vals, c, ref, util)
    # the recorded history replays to the same state and the same per-step scalars
    tr = c.trace("L0", 0.5)
    assert len(tr) == n_merges + 1
    assert tr.quantization(-1) == [frozenset(q) for q in c.quantization]
    assert tr.partition(-1) == [frozenset(p) for p in c.partition]
    c2 = gp.Contraction(jr, util, values)
    for t in range(1, len(tr)):
        for a, b in tr.step_merges[t]:
            c2.merge(int(a), int(b))
        assert tr.step_privacy[t] == pytest.approx(c2.privacy("L0"))
        assert tr.step_utility[t] == pytest.approx(c2.utility())
        assert tr.step_n_components[t] == c2.n_components
    assert tr.step_L == pytest.approx(tuple(p - 0.5 * u for p, u in zip(tr.step_privacy, tr.step_utility)))
    assert gp.MergeTrace.from_json(tr.to_json()) == tr


def test_medoid_and_vector_values_match_whole_partition_utility():
    rng = np.random.default_rng(3)
    jr = gp.JointRange.from_pairs(rng.integers(0, 4, 12), np.arange(12))
    vals = {int(x): float(rng.normal()) for x in jr.public_labels.tolist()}
    vec = {k: (v, 2 * v + 1) for k, v in vals.items()}
    for u, v in ((gp.U2(codeword="medoid"), vals), (gp.U2(distance="squared"), vals), (gp.U2(), vec)):
        c = gp.Contraction(jr, u, v)
        for a, b in ((0, 5), (0, 7), (2, 3), (2, 11), (0, 2)):
            c.merge(a, b)
            assert c.utility() == pytest.approx(u(jr.public_labels.tolist(), c.quantization, v if u.values is None else None))


def test_copy_is_independent_and_trace_frontier():
    jr, values = gp.datasets.paper_example()
    c = gp.Contraction(jr, "U2", values)
    c.merge("x1", "x3")
    d = c.copy()
    d.merge("x6", "x7")
    assert c.n_clusters == 6 and d.n_clusters == 5
    assert c.utility() == pytest.approx(-0.1) and d.utility() == pytest.approx(-0.25)
    assert len(c.history) == 2 and len(d.history) == 3
    c.merge("x2", "x5")
    assert d.quantization == [{"x1", "x3"}, {"x2"}, {"x4"}, {"x5"}, {"x6", "x7"}]
    # trace_frontier of Algorithm 2's λ-free trace is pareto_frontier's (Fig. 7 point of Example 3)
    f = gp.pareto_frontier(jr, "I*")
    g = gp.trace_frontier(f.trace)
    assert [(p.privacy, p.utility, p.lam_min, p.lam_max, p.t) for p in g.points] == \
        [(p.privacy, p.utility, p.lam_min, p.lam_max, p.t) for p in f.points]
    with pytest.raises(gp.InputTypeError, match="MergeTrace"):
        gp.trace_frontier([1, 2])
