"""Why each pair merged: the explorer's candidate rankings for every pair of a step.

Algorithm 1 of Ding & Farokhi, *Developing Non-Stochastic Privacy-Preserving Policies Using
Agglomerative Clustering* (Section V-A), sweeps Π, the clusters with the smallest |[[S|𝒳]]|, and merges
each with its best partner (step 7: another sensitive set, smallest |𝒳 ⊔ 𝒳'| for U1 or d̄(𝒳 ⊔ 𝒳') for U2,
ties to the lowest index), so one step merges many pairs (77 at t = 1 on the Hungarian data of
Section VI). Each pair gets its own ranking, on the clusters as they were when it was made; checked here
against a brute-force replay of the sweep.
"""

from __future__ import annotations

import math

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import graphpriv as gp
from graphpriv.viz.explorer import candidate_table, explorer_data


@pytest.fixture(scope="module")
def hungarian():
    jr = gp.datasets.hungarian_range(missing="drop")
    return jr, {float(x): float(x) for x in jr.public_labels.tolist()}


def _sset(jr, cluster):
    return frozenset(s for x in cluster for s in jr.conditional_range(x))


def _dbar(cluster, values):
    v = np.array([values[float(x)] for x in cluster])
    c = v.mean()
    return float(np.abs(v - c).max())


def _brute_sweep(jr, trace, t, values=None):
    """Replay step t: for each pair (in merge order) the Π cluster, its admissible partners with their cost,
    and the partition before the pair merged."""
    state = [frozenset(c) for c in trace.quantization(t - 1)]
    code = {x: i for i, x in enumerate(trace.public_labels)}
    out = []
    for a, b in trace.step_merges[t]:
        X = next(c for c in state if trace.public_labels[a] in c)
        Y = next(c for c in state if trace.public_labels[b] in c)
        sx = _sset(jr, X)
        partners = [c for c in state if c != X and _sset(jr, c) != sx]
        cost = {c: (_dbar(X | c, values) if values else float(len(X) + len(c))) for c in partners}
        index = {c: min(code[x] for x in c) for c in state}
        out.append((X, Y, cost, index, list(state)))
        state = [c for c in state if c not in (X, Y)] + [X | Y]
    return out


@pytest.mark.parametrize("utility", ["U1", "U2"])
def test_algorithm1_every_pair_of_every_sweep(hungarian, utility):
    jr, values = hungarian
    tr = gp.agglomerate(jr, "L0", 0.0, utility=utility, values=values if utility == "U2" else None).trace
    tab = candidate_table(tr, jr, top=4, values=values if utility == "U2" else None)
    assert max(len(m) for m in tr.step_merges) > 10          # sweeps of many pairs (77 at t = 1 with U1)
    for t, sc in enumerate(tab):
        if t == 0 or not tr.step_merges[t]:
            assert sc.pairs == ()
            continue
        assert len(sc.pairs) == len(tr.step_merges[t])
        assert sc.candidates == sc.pairs[0].candidates           # the step's list is its first pair's
        brute = _brute_sweep(jr, tr, t, values if utility == "U2" else None)
        total_dl = 0.0
        for k, (pc, (X, Y, cost, index, state)) in enumerate(zip(sc.pairs, brute)):
            assert pc.number == k + 1 and (pc.a, pc.b) == (X, Y)
            assert pc.chosen_rank == 0, (t, k, pc)                # the mechanism took the best partner
            first = pc.candidates[0]
            assert first.chosen and {first.a, first.b} == {X, Y}
            assert not any(c.chosen for c in pc.candidates[1:])
            assert pc.n_candidates == len(cost)
            # the listed partners are the best by the criterion (ties: lowest index), in that order
            want = sorted(cost, key=lambda c: (round(cost[c], 9), index[c]))[:len(pc.candidates)]
            got = [c.b if c.a == X else c.a for c in pc.candidates]
            assert got == want
            assert [c.cost for c in pc.candidates] == pytest.approx([cost[c] for c in want])
            assert all(c.a in state and c.b in state for c in pc.candidates)
            total_dl += first.delta_L
        # each pair's ΔL is taken from the state before it, so the sweep's ΔL is their sum
        assert total_dl == pytest.approx(tr.step_delta_L[t], abs=1e-9)


def test_explorer_payload_ranks_the_first_pairs_of_a_sweep(hungarian):
    """The page ranks the first RANKED_PAIRS pairs of a sweep (the chosen partner first for each) and names
    the tree nodes of both clusters of every listed pair, so hovering a cluster can find them."""
    from graphpriv.viz.explorer.data import RANKED_PAIRS

    jr, _ = hungarian
    tr = gp.agglomerate(jr, "L0", 0.0).trace
    d = explorer_data(tr, jr, top=3)
    step = d["steps"][1]
    n = len(tr.step_merges[1])
    c = step["candidates"]
    assert c["n_pairs"] == n == 77 and c["n_ranked"] == RANKED_PAIRS
    rows = c["rows"]
    assert sorted({r["pair"] for r in rows}) == list(range(1, RANKED_PAIRS + 1))
    firsts = {}
    for r in rows:
        firsts.setdefault(r["pair"], r)
    assert all(r["chosen"] for r in firsts.values()) and sum(r["chosen"] for r in rows) == RANKED_PAIRS
    assert all(len([r for r in rows if r["pair"] == k]) <= 3 for k in range(1, n + 1))
    tree, labels = d["tree"], d["leaves"]["label"]
    sc = candidate_table(tr, jr, top=3, max_pairs=RANKED_PAIRS)[1]
    listed = [cd for pc in sc.pairs[:RANKED_PAIRS] for cd in pc.candidates]
    for r, cd in zip(rows, listed):
        for node, members in ((r["a_node"], cd.a), (r["b_node"], cd.b)):
            lo, hi = tree["lo"][node], tree["hi"][node]
            assert set(labels[lo:hi + 1]) == {gp.viz.labels.format_label(x, math=False) for x in members}


def test_algorithm2_and_section_vc_have_one_pair_per_step(hungarian):
    jr, values = hungarian
    for obj, lam, u in (("I*", 0.03, "U2"), ("L0|I*=0", 2.3, "U1")):
        tr = gp.agglomerate(jr, obj, lam, utility=u, values=values if u == "U2" else None).trace
        for t, sc in enumerate(candidate_table(tr, jr, values=values if u == "U2" else None)):
            if t == 0:
                continue
            assert len(sc.pairs) == 1 and sc.pairs[0].candidates == sc.candidates and sc.chosen_rank == 0
            assert sc.candidates[0].delta_L == pytest.approx(tr.step_delta_L[t], abs=1e-9)
            assert not math.isnan(sc.candidates[0].cost)


def test_explorer_numbers_every_pair_of_a_sweep(hungarian):
    """The pairs merged at t are the linkage rows r0..r1 of the payload, numbered in merge order: a cluster
    formed by two pairs of the t = 1 sweep (85 + 100, then + 603) holds rows numbered 1 and 77."""
    jr, _ = hungarian
    tr = gp.agglomerate(jr, "L0", 0.0).trace
    d = explorer_data(tr, jr, top=1)
    s, tree, n = d["steps"][1], d["tree"], tr.n_public
    assert s["r1"] - s["r0"] == len(tr.step_merges[1]) == s["n_pairs"]
    numbers = {}
    for c in gp.viz.explorer.explorer_clusters(d, 1):
        numbers[frozenset(c["members"])] = [i - s["r0"] + 1 for i in range(s["r0"], s["r1"])
                                            if c["lo"] <= tree["lo"][n + i] and tree["hi"][n + i] <= c["hi"]]
    (first,) = [k for k in numbers if "603" in k]
    assert numbers[first] == [1, 77]
    assert sorted(v for nums in numbers.values() for v in nums) == list(range(1, 78))
    # each numbered row joins the two clusters the trace merged, in order
    for k, (a, b) in enumerate(tr.steps[1].merged):
        i = s["r0"] + k
        got = {frozenset(d["leaves"]["label"][tree["lo"][v]:tree["hi"][v] + 1]) for v in (tree["left"][i], tree["right"][i])}
        assert got == {frozenset(gp.viz.labels.format_label(x, math=False) for x in m) for m in (a, b)}


@settings(max_examples=20, deadline=None)
@given(seed=st.integers(0, 10_000), n_x=st.integers(3, 10), lam=st.sampled_from([0.0, 0.3, 2.0]),
       obj=st.sampled_from(["L0", "I*", "L0|I*=0"]), u=st.sampled_from(["U1", "U2"]))
def test_listed_delta_L_is_the_lagrangian_of_the_merged_partition(seed, n_x, lam, obj, u):
    """The ΔL column (from per-cluster statistics) equals graphpriv.lagrangian of Q(t-1) with the pair merged,
    minus L of Q(t-1), for every listed pair of every step (privacy L0 for Section V-C, as the column says)."""
    rng = np.random.default_rng(seed)
    m = rng.random((4, n_x)) < 0.35
    m[rng.integers(0, 4, n_x), np.arange(n_x)] = True
    s, x = np.nonzero(m)
    jr = gp.JointRange.from_pairs([f"s{i}" for i in s], [f"x{j}" for j in x])
    values = {lab: float(i) ** 1.3 for i, lab in enumerate(jr.public_labels.tolist())} if u == "U2" else None
    tr = gp.agglomerate(jr, obj, lam, u, values).trace
    priv = "L0" if obj == "L0|I*=0" else obj
    for t, sc in enumerate(candidate_table(tr, jr, values=values, top=4)):
        for k, pc in enumerate(sc.pairs):
            if pc.chosen_rank == -1 and not pc.n_candidates:
                continue
            # the partition the pair was ranked on: Q(t-1) with the earlier pairs of the sweep merged
            q = list(tr.quantization(t - 1))
            for a, b in tr.steps[t].merged[:k]:
                q = [c for c in q if c not in (a, b)] + [a | b]
            base = gp.lagrangian(jr, q, priv, lam, u, values)
            for c in pc.candidates:
                merged = [z for z in q if z not in (c.a, c.b)] + [c.a | c.b]
                assert c.delta_L == pytest.approx(gp.lagrangian(jr, merged, priv, lam, u, values) - base, abs=1e-9)
