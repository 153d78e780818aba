"""Property tests of the core layer against brute force and second libraries (paper 003, Sections III-IV)."""

import itertools
import math

import networkx as nx
import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import graphpriv as gp


@st.composite
def joint_ranges(draw, max_s=6, max_x=8):
    n_s = draw(st.integers(1, max_s))
    n_x = draw(st.integers(1, max_x))
    bits = draw(st.lists(st.booleans(), min_size=n_s * n_x, max_size=n_s * n_x))
    m = np.array(bits, dtype=bool).reshape(n_s, n_x)
    # every label must occur: give empty rows/columns one pair
    for i in np.flatnonzero(~m.any(axis=1)):
        m[i, draw(st.integers(0, n_x - 1))] = True
    for j in np.flatnonzero(~m.any(axis=0)):
        m[draw(st.integers(0, n_s - 1)), j] = True
    return gp.JointRange.from_matrix(m)


def brute_components(jr):
    """Components of G_X by the definition: x ~ x' iff [[S|x]] and [[S|x']] intersect (Definition 1)."""
    labels = jr.public_labels.tolist()
    G = nx.Graph()
    G.add_nodes_from(labels)
    for a, b in itertools.combinations(labels, 2):
        if jr.conditional_range(a) & jr.conditional_range(b):
            G.add_edge(a, b)
    return {frozenset(c) for c in nx.connected_components(G)}, G


@given(joint_ranges())
def test_components_match_definition(jr):
    comps, _ = brute_components(jr)
    assert set(gp.finest_decomposition(jr)) == comps
    assert gp.maximin_information(jr) == pytest.approx(math.log2(len(comps)))


@given(joint_ranges())
def test_lemma2_overlap_partition(jr):
    # Lemma 2: P*_{[[S|X]]} = {[[S|X_i]] : X_i in P*_{G_X}}, a partition of [[S]]
    fd, op = gp.finest_decomposition(jr), gp.overlap_partition(jr)
    assert len(fd) == len(op)
    for xs, ss in zip(fd, op):
        assert ss == frozenset().union(*(jr.conditional_range(x) for x in xs))
    assert sorted(s for part in op for s in part) == sorted(jr.sensitive_labels.tolist())


@given(joint_ranges())
def test_proposition1_and_lemma1(jr):
    # Proposition 1: I* <= L0; Lemma 1: k-anonymous <=> B0 >= log k <=> L0 <= log(|S|/k)
    assert gp.maximin_information(jr) <= gp.L0(jr) + 1e-12
    n_s = jr.n_sensitive
    for k in range(1, n_s + 2):
        k_anon = all(len(jr.conditional_range(x)) >= k for x in jr.public_labels.tolist())
        assert k_anon == (gp.B0(jr) >= math.log2(k) - 1e-12) == (gp.L0(jr) <= math.log2(n_s / k) + 1e-12)
        assert k_anon == (k <= gp.k_anonymity(jr))
    assert gp.I0(jr) <= gp.L0(jr) + 1e-12
    assert gp.H0(jr) == pytest.approx(gp.I0(jr) + gp.H0(jr, given="X"))


@settings(max_examples=40)
@given(joint_ranges(max_x=7))
def test_min_cut_backends_agree_with_brute_force(jr):
    if jr.n_public < 2:
        return
    _, G = brute_components(jr)
    labels = jr.public_labels.tolist()
    best = min(
        nx.cut_size(G, set(sub)) for r in range(1, len(labels)) for sub in itertools.combinations(labels, r)
    )
    values = set()
    for backend in gp.BACKENDS:
        cut = gp.min_cut(jr, backend=backend)
        assert cut.side and cut.other and cut.side | cut.other == set(labels)
        assert nx.cut_size(G, set(cut.side)) == cut.value == len(cut.cut_edges)
        values.add(cut.value)
    assert values == {best}
    # min cut 0 iff more than one component
    assert (best == 0) == (gp.n_components(jr) > 1) == gp.is_decomposable(jr)
    # s-t cuts agree across backends with networkx's max-flow
    s, t = labels[0], labels[-1]
    st_values = {gp.min_cut(jr, s, t, backend=b).value for b in gp.BACKENDS}
    assert st_values == {nx.edge_connectivity(G, s, t) if G.number_of_edges() else 0}


@settings(max_examples=40)
@given(joint_ranges(max_x=7))
def test_min_cut_sets_and_laplacian(jr):
    if jr.n_public < 2:
        return
    _, G = brute_components(jr)
    labels = jr.public_labels.tolist()
    cuts = {frozenset(sub): nx.cut_size(G, set(sub)) for r in range(1, len(labels)) for sub in itertools.combinations(labels, r)}
    best = min(cuts.values())
    sets = gp.min_cut_sets(jr)
    assert sets.value == best
    assert set(sets) == {k for k, v in cuts.items() if v == best}
    assert sets.count == len(set(sets))
    if best == 0:
        assert set(sets.minimal) == set(gp.finest_decomposition(jr))
    k, parts = gp.laplacian_decomposition(jr)
    assert k == gp.n_components(jr) and parts == gp.finest_decomposition(jr)


@given(joint_ranges(max_s=5, max_x=5), st.integers(0, 2**31 - 1))
def test_networkx_igraph_scipy_components_agree(jr, seed):
    G = gp.to_networkx(jr)
    g = gp.to_igraph(jr)
    comps = set(gp.finest_decomposition(jr))
    assert {frozenset(c) for c in nx.connected_components(G)} == comps
    labels = jr.public_labels.tolist()
    assert {frozenset(labels[v] for v in c) for c in g.connected_components()} == comps
    B = gp.to_networkx(jr, graph="bipartite")
    assert nx.number_connected_components(B) == len(comps)


@st.composite
def small_pmfs(draw):
    n_s, n_x = draw(st.integers(1, 4)), draw(st.integers(1, 4))
    w = np.array(draw(st.lists(st.sampled_from([0, 0, 1, 2, 3]), min_size=n_s * n_x, max_size=n_s * n_x)), dtype=float)
    if w.sum() == 0:
        w[0] = 1
    return (w / w.sum()).reshape(n_s, n_x)


@settings(max_examples=30)
@given(small_pmfs())
def test_gacs_korner_against_dit(p):
    dit = pytest.importorskip("dit")
    from dit.multivariate import gk_common_information

    outcomes, probs = [], []
    for i, j in zip(*np.nonzero(p)):
        outcomes.append(f"{i}{j}")
        probs.append(p[i, j])
    d = dit.Distribution(outcomes, probs)
    assert gp.gacs_korner(p) == pytest.approx(gk_common_information(d, [[0], [1]]), abs=1e-9)
    # C_GK <= I* of the support
    assert gp.gacs_korner(p) <= gp.maximin_information(gp.JointRange.from_pmf(p)) + 1e-12


def test_component_ids_follow_public_order():
    rng = np.random.default_rng(3)
    m = rng.random((40, 60)) < 0.03
    m[np.flatnonzero(~m.any(axis=1)), 0] = True
    for j in np.flatnonzero(~m.any(axis=0)):
        m[rng.integers(40), j] = True
    jr = gp.JointRange.from_matrix(m)
    c = gp.components(jr)
    firsts = [int(np.flatnonzero(c.public == k)[0]) for k in range(c.n_components)]
    assert firsts == sorted(firsts) and firsts[0] == 0
