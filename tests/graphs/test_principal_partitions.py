"""The principal sequence of partitions against brute force over all set partitions, against network
strength and the optimal attack, and across max-flow engines."""

from fractions import Fraction

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from scipy.cluster.hierarchy import is_valid_linkage

import graphpriv as gp
from graphpriv.graphs.strength import _brute_partitions, _graph_arrays
from range_strategies import small_ranges  # noqa: E402  (tests/range_strategies.py)


# ------------------------------------------------------------------------------------------- strategies / oracles
def brute_psp(jr, graph, weighted):
    """Independent oracle: m_j = least cut weight over partitions into j + 1 blocks; the critical values
    are the slopes of the lower convex hull of the points (j, m_j); the partitions are those attaining m_j
    at the hull's vertices (each unique), as sets of frozensets of labels."""
    n, edges, w, labels, _ = _graph_arrays(jr, graph, weighted, None)
    P = _brute_partitions(n).astype(np.int64)
    k = P.max(axis=1) + 1
    cut = ((P[:, edges[:, 0]] != P[:, edges[:, 1]]) * w[None, :]).sum(axis=1) if len(edges) else np.zeros(len(P), int)
    m = [int(cut[k == j + 1].min()) for j in range(n)]
    hull = [0]
    for j in range(1, n):
        while len(hull) >= 2:
            a, b = hull[-2], hull[-1]
            if Fraction(m[b] - m[a], b - a) >= Fraction(m[j] - m[b], j - b):
                hull.pop()
            else:
                break
        hull.append(j)
    values = [Fraction(m[b] - m[a], b - a) for a, b in zip(hull, hull[1:])]
    parts = []
    for j in hull:
        rows = np.flatnonzero((k == j + 1) & (cut == m[j]))
        assert len(rows) == 1, "a hull vertex has a unique optimal partition"
        r = P[rows[0]]
        parts.append({frozenset(labels[v] for v in np.flatnonzero(r == b)) for b in range(j + 1)})
    return values, parts, m


def cut_weight(jr, graph, weighted, partition):
    n, edges, w, labels, _ = _graph_arrays(jr, graph, weighted, None)
    where = {lab: b for b, part in enumerate(partition) for lab in part}
    return sum(int(c) for (i, j), c in zip(edges.tolist(), w.tolist()) if where[labels[i]] != where[labels[j]])


def triangle_1_1_5():
    """G_X weighted = triangle x0, x1, x2 with w01 = 1, w12 = 1, w02 = 5 (five sensitive values shared by x0, x2)."""
    pairs = [("a", "x0"), ("a", "x1"), ("b", "x1"), ("b", "x2")] + [(f"s{i}", x) for i in range(5) for x in ("x0", "x2")]
    return gp.JointRange.from_pairs([p[0] for p in pairs], [p[1] for p in pairs])


# ------------------------------------------------------------------------------------------- worked example
@pytest.mark.parametrize("backend", gp.PRINCIPAL_BACKENDS)
def test_triangle_1_1_5(backend):
    """f(lambda) = min(0, 2 - lambda, 7 - 2 lambda): critical values 2 and 5,
    {0,1,2} -> {0,2}{1} -> singletons (Narayanan 1991; the lines are those of the three partitions)."""
    jr = triangle_1_1_5()
    seq = gp.principal_partitions(jr, weighted=True, backend=backend)
    assert seq.critical_values == (Fraction(2), Fraction(5))
    assert [set(p) for p in seq.partitions] == [
        {frozenset({"x0", "x1", "x2"})}, {frozenset({"x0", "x2"}), frozenset({"x1"})},
        {frozenset({"x0"}), frozenset({"x1"}), frozenset({"x2"})}]
    assert seq.n_blocks == (1, 2, 3) and seq.cut_weights == (0, 2, 7)
    for lam in (0, 1, 2, 3, 5, 6, Fraction(7, 2)):
        assert seq.value_at(lam) == min(Fraction(0), 2 - Fraction(lam), 7 - 2 * Fraction(lam))
    # at a critical value: finest and coarsest optimum
    assert set(seq.partition_at(2, finest=False)) == {frozenset({"x0", "x1", "x2"})}
    assert set(seq.partition_at(2)) == {frozenset({"x0", "x2"}), frozenset({"x1"})}
    assert seq.strength == 2
    assert "2 critical values: 2, 5" in repr(seq)
    # unweighted: a plain triangle breaks at 3/2 all at once
    plain = gp.principal_partitions(jr, weighted=False, backend=backend)
    assert plain.critical_values == (Fraction(3, 2),) and plain.n_blocks == (1, 3)
    assert gp.principal_partitions(jr, weighted=True, backend=backend, method="cunningham") == seq


# ------------------------------------------------------------------------------------------- brute force
@settings(max_examples=60, deadline=None)
@given(small_ranges(max_s=5), st.sampled_from(["confusability", "support"]), st.booleans())
def test_matches_brute_force(jr, graph, weighted):
    n = jr.n_public if graph == "confusability" else jr.n_public + jr.n_sensitive
    if n > 10:
        return
    values, parts, m = brute_psp(jr, graph, weighted)
    seq = gp.principal_partitions(jr, graph=graph, weighted=weighted)
    assert list(seq.critical_values) == values
    assert [set(p) for p in seq.partitions] == parts
    # f(lambda) = min_j m_j - lambda j, everywhere
    for lam in [Fraction(0)] + values + [v + Fraction(1, 3) for v in values]:
        assert seq.value_at(lam) == min(Fraction(mj) - lam * j for j, mj in enumerate(m))
    assert gp.principal_partitions(jr, graph=graph, weighted=weighted, method="brute").critical_values == seq.critical_values


@settings(max_examples=25, deadline=None)
@given(small_ranges(max_s=6, max_x=10), st.booleans())
def test_matches_brute_force_ten_values(jr, weighted):
    values, parts, _ = brute_psp(jr, "confusability", weighted)
    seq = gp.principal_partitions(jr, weighted=weighted)
    assert list(seq.critical_values) == values
    assert [set(p) for p in seq.partitions] == parts


# ------------------------------------------------------------------------------------------- structure
@settings(max_examples=40, deadline=None)
@given(small_ranges(max_s=6, max_x=12), st.sampled_from(["confusability", "support"]), st.booleans())
def test_chain_and_linkage(jr, graph, weighted):
    seq = gp.principal_partitions(jr, graph=graph, weighted=weighted)
    n = seq.n_nodes
    M = seq.memberships
    assert (M[0] == 0).all() and sorted(M[-1].tolist()) == list(range(n))
    assert all(a < b for a, b in zip(seq.critical_values, seq.critical_values[1:]))
    for i in range(1, len(M)):            # P_i refines P_(i-1), strictly
        pairs = set(zip(M[i].tolist(), M[i - 1].tolist()))
        assert len({a for a, _ in pairs}) == len(pairs) and seq.n_blocks[i] > seq.n_blocks[i - 1]
        assert seq.cut_weights[i] == cut_weight(jr, graph, weighted, seq.partitions[i])
    Z = seq.to_linkage()
    assert Z.shape == (n - 1, 4) and is_valid_linkage(Z)
    assert sorted(set(Z[:, 2].tolist())) == sorted(seq.values.tolist())
    # cutting the linkage below each critical value gives back the partitions
    from scipy.cluster.hierarchy import fcluster
    Zm = Z.copy()
    top = Z[:, 2].max() if len(Z) else 0.0
    Zm[:, 2] = top - Zm[:, 2]
    for i, lam in enumerate(seq.values):
        flat = fcluster(Zm, top - lam - 1e-9, criterion="distance")
        assert len(set(zip(flat.tolist(), M[i + 1].tolist()))) == seq.n_blocks[i + 1] == len(set(flat.tolist()))


# ------------------------------------------------------------------------------------------- strength and attack
@settings(max_examples=30, deadline=None)
@given(st.integers(6, 30), st.integers(3, 12), st.floats(0.15, 0.6), st.integers(0, 10**6),
       st.sampled_from(["confusability", "support"]), st.booleans())
def test_strength_and_attack_agree(n_x, n_s, p, seed, graph, weighted):
    jr = gp.random_joint_range(n_s, n_x, p, seed=seed)
    seq = gp.principal_partitions(jr, graph=graph, weighted=weighted)
    s = gp.network_strength(jr, graph=graph, weighted=weighted)
    assert s.fraction == seq.strength
    # the strength's partition is optimal at lambda_1, and lies between the coarsest and finest optimum
    lam1 = seq.strength
    assert s.cut_weight - lam1 * (s.n_parts - 1) == seq.value_at(lam1)
    assert seq.n_blocks[0] < s.n_parts <= seq.n_blocks[1]
    cv = list(seq.critical_values)
    probes = [Fraction(0)] + cv + [(a + b) / 2 for a, b in zip(cv, cv[1:])] + [cv[-1] + 1]
    for lam in probes:
        value, part = gp.attack_partition(jr, lam, graph=graph, weighted=weighted)
        assert Fraction(value).limit_denominator(10**6) == seq.value_at(lam)
        if lam not in cv:                 # the optimum is unique between critical values
            assert set(part) == set(seq.partition_at(lam))
        else:
            assert seq.n_blocks[cv.index(lam)] <= len(part) <= seq.n_blocks[cv.index(lam) + 1]


@settings(max_examples=20, deadline=None)
@given(st.integers(5, 25), st.integers(3, 10), st.floats(0.15, 0.6), st.integers(0, 10**6), st.booleans())
def test_backends_agree(n_x, n_s, p, seed, weighted):
    jr = gp.random_joint_range(n_s, n_x, p, seed=seed)
    seqs = [gp.principal_partitions(jr, weighted=weighted, backend=b) for b in gp.PRINCIPAL_BACKENDS]
    for other in seqs[1:]:
        assert other.critical_values == seqs[0].critical_values
        assert np.array_equal(other.memberships, seqs[0].memberships)
        assert other == seqs[0] and hash(other) == hash(seqs[0])


# ------------------------------------------------------------------------------------------- data and edge cases
def test_disconnected_graph_starts_at_zero():
    jr, _ = gp.datasets.paper_example()          # paper 003 Fig. 2: G_X has 5 components
    seq = gp.principal_partitions(jr)
    assert seq.critical_values[0] == 0 and seq.strength == gp.network_strength(jr).fraction == 0
    comps = gp.components(jr)
    assert seq.n_blocks[1] == comps.n_components == 5
    assert set(seq.partitions[1]) == {frozenset(jr.public_labels[g].tolist()) for g in comps.public_groups()}


def test_hungarian():
    jr = gp.datasets.hungarian_range()
    for graph in ("confusability", "support"):
        seq = gp.principal_partitions(jr, graph=graph)
        assert seq.strength == gp.network_strength(jr, graph=graph).fraction == 0
        assert seq.n_blocks[-1] == seq.n_nodes and len(seq.to_frame()) == len(seq)


def test_one_value_and_bad_input():
    jr = gp.JointRange.from_pairs(["a", "b"], [1, 1])
    seq = gp.principal_partitions(jr)
    assert len(seq) == 0 and seq.n_blocks == (1,) and seq.partition_at(3) == (frozenset({1}),)
    with pytest.raises(gp.InputError, match="no critical value"):
        seq.strength
    jr = triangle_1_1_5()
    with pytest.raises(gp.InputError, match="backend"):
        gp.principal_partitions(jr, backend="scipy")
    with pytest.raises(gp.InputError, match="method"):
        gp.principal_partitions(jr, method="kolmogorov")
    with pytest.raises(gp.InputError, match="graph"):
        gp.principal_partitions(jr, graph="hyper")
    seq = gp.principal_partitions(jr)
    with pytest.raises(gp.InputError, match=">= 0"):
        seq.partition_at(-1)
    with pytest.raises(gp.InputError, match="number"):
        seq.partition_at("2")
    with pytest.raises(gp.TooLargeError):
        gp.principal_partitions(gp.random_joint_range(5, 14, 0.5, seed=0), method="brute")


# ------------------------------------------------------------------------------------------- compiled cuts
@settings(max_examples=200, deadline=None)
@given(st.integers(2, 14), st.lists(st.tuples(st.integers(0, 13), st.integers(0, 13), st.integers(0, 9), st.integers(0, 3)),
                                    min_size=1, max_size=50))
def test_compiled_cuts_against_scipy(n, arcs):
    """Preflow-push and Dinic give scipy's maximum flow value, and their masks are minimum cuts (Dinic's the
    smallest source side, preflow-push's the largest)."""
    import scipy.sparse as sp
    from scipy.sparse.csgraph import maximum_flow

    from graphpriv.graphs.flow_kernels import dinic_cut, push_relabel_cut

    arcs = [(a % n, b % n, c, d) for a, b, c, d in arcs if a % n != b % n]
    if not arcs:
        return
    eu, ev, cf, cb = (np.array(col, dtype=np.int64) for col in zip(*arcs))
    s, t = 0, n - 1
    cap = sp.csr_array((np.concatenate([cf, cb]).astype(np.int32), (np.concatenate([eu, ev]), np.concatenate([ev, eu]))), shape=(n, n))
    value = maximum_flow(cap, s, t).flow_value

    def cut(mask):
        return int(sum(c for a, b, c in zip(np.r_[eu, ev], np.r_[ev, eu], np.r_[cf, cb]) if mask[a] and not mask[b]))

    v1, m1 = dinic_cut(n, eu, ev, cf, cb, s, t)
    v2, m2 = push_relabel_cut(n, eu, ev, cf, cb, s, t)
    assert v1 == v2 == value == cut(m1) == cut(m2)
    assert m1[s] and m2[s] and not m1[t] and not m2[t] and (m1 <= m2).all()
