"""Side information A (paper 003, end of Section V-C): measures against their definitions, the search, bad input."""

import itertools
import math

import networkx as nx
import numpy as np
import pandas as pd
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import graphpriv as gp


@st.composite
def triples(draw):
    n = draw(st.integers(1, 14))
    s = draw(st.lists(st.integers(0, 3), min_size=n, max_size=n))
    x = draw(st.lists(st.integers(0, 4), min_size=n, max_size=n))
    a = draw(st.lists(st.integers(0, 2), min_size=n, max_size=n))
    return s, x, a


def random_partition(labels, data):
    ids = data.draw(st.lists(st.integers(0, len(labels) - 1), min_size=len(labels), max_size=len(labels)))
    groups = {}
    for lab, k in zip(labels, ids):
        groups.setdefault(k, set()).add(lab)
    return list(groups.values())


def brute(s, x, a, quantization):
    """L0(S -> X̂|A) and I*(S; X̂, A) straight from the definitions."""
    cluster = {v: k for k, c in enumerate(quantization) for v in c}
    s_given = {}
    s_given_a = {}
    for si, xi, ai in zip(s, x, a):
        s_given.setdefault((cluster[xi], ai), set()).add(si)
        s_given_a.setdefault(ai, set()).add(si)
    l0 = max(math.log2(len(s_given_a[node[1]]) / len(ss)) for node, ss in s_given.items())
    G = nx.Graph()
    G.add_nodes_from(s_given)
    for u, v in itertools.combinations(s_given, 2):
        if s_given[u] & s_given[v]:
            G.add_edge(u, v)
    return l0, math.log2(nx.number_connected_components(G))


@settings(max_examples=60)
@given(triples(), st.data())
def test_measures_match_definitions(t, data):
    s, x, a = t
    sir = gp.SideInformationRange.from_triples(s, x, a)
    q = random_partition(sorted(set(x)), data)
    l0, istar = brute(s, x, a, q)
    assert gp.side_information_L0(sir, q) == pytest.approx(l0)
    assert gp.side_information_maximin(sir, q) == pytest.approx(istar)
    # no quantisation: the same as the singleton partition
    l0_id, istar_id = brute(s, x, a, [{v} for v in set(x)])
    assert gp.side_information_L0(sir) == pytest.approx(l0_id)
    assert gp.side_information_maximin(sir) == pytest.approx(istar_id)


@settings(max_examples=40)
@given(triples())
def test_constant_side_information_reduces_to_plain_measures(t):
    s, x, _ = t
    sir = gp.SideInformationRange.from_triples(s, x, ["a"] * len(s))
    jr = gp.JointRange.from_pairs(s, x)
    assert sir.public_range() == jr
    assert gp.side_information_L0(sir) == pytest.approx(gp.L0(jr))
    assert gp.side_information_maximin(sir) == pytest.approx(gp.maximin_information(jr))


@settings(max_examples=40)
@given(triples(), st.sampled_from(["L0", "I*", "L0|I*=0"]), st.sampled_from([0.0, 0.3, 1.0, 3.0]))
def test_search_properties(t, objective, lam):
    s, x, a = t
    sir = gp.SideInformationRange.from_triples(s, x, a)
    if objective == "L0|I*=0" and gp.maximin_information(sir.side_range()) > 0:
        with pytest.raises(gp.InputError, match="infeasible"):
            gp.agglomerate(sir, objective, lam)
        return
    r = gp.agglomerate(sir, objective, lam)
    # a partition of X
    members = sorted(v for c in r.quantization for v in c)
    assert members == sorted(set(x))
    # reported privacy is the measure of the returned quantisation
    measure = gp.side_information_maximin if objective == "I*" else gp.side_information_L0
    assert r.privacy == pytest.approx(measure(sir, r.quantization))
    assert r.utility == pytest.approx(gp.U1()(sorted(set(x)), r.quantization))
    # L decreases strictly along accepted steps (Section V-C may accept increases until I* = 0)
    tr = r.trace
    for step in tr.steps[1:tr.returned + 1]:
        if objective != "L0|I*=0":
            assert step.delta_L < 0
    if objective == "L0|I*=0":
        assert gp.side_information_maximin(sir, r.quantization) == 0.0
    # no single further merge improves L (steepest descent stopped at a local optimum)
    if objective != "L0|I*=0" and len(r.quantization) > 1:
        L = r.privacy - lam * r.utility
        for c1, c2 in itertools.combinations(r.quantization, 2):
            q = [c for c in r.quantization if c not in (c1, c2)] + [c1 | c2]
            L2 = measure(sir, q) - lam * gp.U1()(sorted(set(x)), q)
            assert L2 >= L - 1e-9
    assert gp.MergeTrace.from_json(tr.to_json()) == tr


def test_side_information_can_only_help_the_adversary():
    # A = S: the adversary already knows S, I*(S; X̂, A) = log|S| for every quantisation
    s = [0, 0, 1, 1, 2]
    x = [0, 1, 1, 2, 2]
    sir = gp.SideInformationRange.from_triples(s, x, s)
    for q in ([{0}, {1}, {2}], [{0, 1, 2}]):
        assert gp.side_information_maximin(sir, q) == pytest.approx(math.log2(3))
    jr = gp.JointRange.from_pairs(s, x)
    assert gp.maximin_information(jr) == 0.0


def test_u2_and_mapping_and_dataframe():
    df = pd.DataFrame({"age": [30, 30, 40, 40, 50, 50], "chol": [180, 200, 200, 220, 240, 260], "sex": [0, 1, 0, 1, 0, None]})
    with pytest.raises(gp.MissingValueError, match="'sex' has 1 missing"):
        gp.SideInformationRange.from_dataframe(df, "age", "chol", "sex")
    sir = gp.SideInformationRange.from_dataframe(df, "age", "chol", "sex", missing="drop")
    assert sir.joint.source.n_dropped == 1 and sir.n_public == 4  # chol 260 only occurs in the dropped row
    values = {v: float(v) for v in sir.public_labels.tolist()}
    r = gp.agglomerate(sir, "I*", 0.01, "U2", values)
    for c in r.quantization:
        cw = np.mean([values[v] for v in c])
        assert all(r.mapping[v] == pytest.approx(cw) for v in c)
    assert r.transform([180]) == [r.mapping[180]]


def test_bad_input():
    with pytest.raises(gp.InputError, match="same length"):
        gp.SideInformationRange.from_triples([1, 2], [1, 2], [1])
    sir = gp.SideInformationRange.from_triples([1, 2], [1, 2], [0, 0])
    with pytest.raises(gp.InputError, match="objective"):
        gp.agglomerate(sir, "KL", 0.1)
    with pytest.raises(gp.InputError):
        gp.agglomerate(sir, "I*", -1.0)
    with pytest.raises(gp.InputError, match="side information"):
        gp.agglomerate(sir, "I*", 0.1, search="beam")
    with pytest.raises(gp.TooLargeError, match="max_public"):
        big = gp.SideInformationRange.from_triples(list(range(400)), list(range(400)), [0] * 400)
        gp.agglomerate(big, "I*", 0.1)
    with pytest.raises(gp.InputTypeError):
        gp.side_information_L0(gp.JointRange.from_pairs([1], [1]))


@settings(max_examples=25, deadline=None)
@given(st.integers(0, 10**6), st.sampled_from(["U1", "U2", "U2sq"]), st.integers(0, 4))
def test_merged_utilities_match_partition_value(seed, utility, n_merges):
    """The utility of every candidate merge, read off the contraction state (sizes; the three largest d̄ and
    the merged d̄), equals the bound utility's partition_value on the merged partition."""
    from graphpriv.mechanisms.quantization.contraction import Contraction
    from graphpriv.mechanisms.side_information import _merged_utilities
    from graphpriv.mechanisms.trace import _groups

    rng = np.random.default_rng(seed)
    m = int(rng.integers(6, 25))
    sir = gp.SideInformationRange.from_triples([f"s{i}" for i in rng.integers(0, 4, m)], [f"x{i}" for i in rng.integers(0, 8, m)],
                                               [f"a{i}" for i in rng.integers(0, 3, m)])
    vals = {x: float(v) for x, v in zip(sir.public_labels.tolist(), np.round(rng.uniform(0, 10, sir.n_public), 1))}
    ut = gp.U2(distance="squared") if utility == "U2sq" else utility
    con = Contraction(sir.public_range(), ut, None if utility == "U1" else vals)
    labels = sir.public_labels.tolist()
    for _ in range(min(n_merges, sir.n_public - 2)):
        reps = con.clusters().tolist()
        a, b = rng.choice(len(reps), 2, replace=False)
        con.merge(labels[reps[a]], labels[reps[b]])
    reps = con.clusters()
    got = _merged_utilities(con, reps)
    cid = con.cluster_ids()
    for i in range(len(reps)):
        for j in range(i + 1, len(reps)):
            trial = np.where(cid == reps[j], reps[i], cid)
            assert got[i, j] == pytest.approx(con.problem.ub.partition_value(_groups(trial)), abs=1e-12)
