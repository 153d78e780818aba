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


def test_explorer_payload_lists_every_pair(hungarian):
    jr, _ = hungarian
    tr = gp.agglomerate(jr, "L0", 0.0).trace
    d = explorer_data(tr, jr, top=3)
    step = d["steps"][1]
    n = len(tr.step_merges[1])
    assert step["candidates"]["n_pairs"] == n == 77
    rows = step["candidates"]["rows"]
    assert sorted({r["pair"] for r in rows}) == list(range(1, n + 1))
    firsts = {}
    for r in rows:
        firsts.setdefault(r["pair"], r)
    assert all(r["chosen"] for r in firsts.values())
    assert sum(r["chosen"] for r in rows) == n
    assert all(len([r for r in rows if r["pair"] == k]) <= 3 for k in range(1, n + 1))


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


def test_explorer_badges_number_every_pair_without_overlap(hungarian):
    """The explorer numbers every pair of the t = 1 sweep above the matrix: a cluster formed by two pairs of the
    sweep (85 + 100, then + 603) shows both numbers, and badges in one row never touch."""
    pytest.importorskip("bokeh", reason="the explorer page needs bokeh (pip install 'graphpriv[explorer]')")
    from graphpriv.viz.explorer.view import BADGE_LEVELS, WIDTH, _step_columns

    jr, _ = hungarian
    tr = gp.agglomerate(jr, "L0", 0.0).trace
    d = explorer_data(tr, jr, top=1)
    (first,) = [c for c in d["steps"][1]["clusters"] if "603" in c["members"]]
    assert first["pairs"] == [1, 77] and first["pair"] == 1
    d = {**d, "badge_rows": 1.0}
    step = _step_columns(d, 1, WIDTH - 80)
    b = step["data"]["badges"]
    numbers = sorted(int(v) for text in b["text"] for v in text.split(","))
    assert numbers == list(range(1, len(tr.step_merges[1]) + 1))
    px = (WIDTH - 80) / step["width"]
    rows = {}
    for x, y, text in zip(b["x"], b["y"], b["text"]):
        rows.setdefault(y, []).append((x * px - (6.2 * len(text) + 6) / 2, x * px + (6.2 * len(text) + 6) / 2))
    assert len(rows) <= BADGE_LEVELS
    for spans in rows.values():
        spans.sort()
        assert all(a[1] <= b_[0] for a, b_ in zip(spans, spans[1:]))
    assert min(lo for spans in rows.values() for lo, _ in spans) >= -0.5 * px - 1e-6
