"""The vectorised beam and local searches return exactly what the plain reference (tests/reference_search.py,
the first implementation: full sort of the children, per-child Pareto loop, pure-Python capped greedy)
returns: same quantisation, same L, same winning candidate, same trace. The beam runs exhaustively
(``prune_above=None``: every depth expands every merge, as the reference does); the pruned depths of
larger ranges are checked in tests/test_search.py."""

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import graphpriv as gp
from graphpriv.mechanisms import search
import reference_search as ref

OBJECTIVES = ["L0", "I*", "L0|I*=0"]


def instance(seed, n_range):
    rng = np.random.default_rng(seed)
    nx_ = int(rng.integers(n_range[0], n_range[1] + 1))
    ns = int(rng.integers(3, 12))
    jr = gp.random_joint_range(ns, nx_, float(rng.uniform(0.1, 0.4)), seed=rng)
    values = {x: float(v) for x, v in zip(jr.public_labels, np.round(rng.uniform(0, 10, size=jr.n_public), 1))}
    return jr, values


def same(a, b):
    """Same quantisation, winner and merges; the same numbers (the trace is replayed on gp.Contraction, whose
    running centroid sums may differ from the reference's exact sums in the last bit)."""
    assert sorted(sorted(c) for c in a.quantization) == sorted(sorted(c) for c in b.quantization)
    assert a.L == b.L and a.privacy == b.privacy and a.utility == b.utility
    assert a.info["source"] == b.info["source"]
    assert a.trace.step_merges == b.trace.step_merges
    assert a.trace.step_n_components == b.trace.step_n_components and a.trace.step_n_clusters == b.trace.step_n_clusters
    assert a.trace.step_L == pytest.approx(b.trace.step_L, abs=1e-12)
    assert a.trace.step_privacy == pytest.approx(b.trace.step_privacy, abs=1e-12)
    assert a.trace.step_utility == pytest.approx(b.trace.step_utility, abs=1e-12)


@settings(max_examples=60, deadline=None)
@given(st.integers(0, 10**6), st.sampled_from(OBJECTIVES), st.sampled_from(["U1", "U2", "U2sq"]),
       st.sampled_from([0.0, 0.1, 0.3, 1.0, 3.0]), st.sampled_from([(1, 0), (3, 3), (2, 5)]),
       st.sampled_from([(3, 9), (10, 24)]))
def test_beam_equals_reference(seed, objective, utility, lam, wp, n_range):
    jr, values = instance(seed, n_range)
    ut = gp.U2(distance="squared") if utility == "U2sq" else utility
    vals = None if utility == "U1" else values
    width, pareto = wp
    opts = dict(width=width, pareto=pareto, local=jr.n_public <= 12)
    new = gp.agglomerate(jr, objective, lam, ut, vals, search="beam", prune_above=None, **opts)
    old = ref.beam_search(jr, objective, lam, ut, vals, **opts)
    same(new, old)


@settings(max_examples=15, deadline=None)
@given(st.integers(0, 10**6), st.sampled_from(OBJECTIVES), st.sampled_from([0.1, 1.0]))
def test_beam_equals_reference_user_distance(seed, objective, lam):
    """A user-supplied distance (no vectorised cost): the per-pair cost path."""
    jr, values = instance(seed, (4, 8))
    ut = gp.U2(distance=lambda a, b: abs(a - b) ** 1.5)
    new = gp.agglomerate(jr, objective, lam, ut, values, search="beam", prune_above=None)
    old = ref.beam_search(jr, objective, lam, ut, values)
    same(new, old)


@settings(max_examples=20, deadline=None)
@given(st.integers(0, 10**6), st.sampled_from(OBJECTIVES), st.sampled_from(["U1", "U2"]), st.sampled_from([0.1, 1.0]))
def test_local_equals_reference(seed, objective, utility, lam):
    jr, values = instance(seed, (4, 10))
    vals = values if utility == "U2" else None
    same(gp.agglomerate(jr, objective, lam, utility, vals, search="local"), ref.local_search(jr, objective, lam, utility, vals))


@pytest.mark.parametrize("objective,utility,lam", [("L0", "U1", 0.3), ("L0|I*=0", "U1", 1.0), ("L0", "U2", 0.1), ("I*", "U1", 0.3)])
def test_hungarian_beam_equals_reference(objective, utility, lam):
    """Paper 003's Hungarian data (S = age, X = cholesterol, |X| = 153), default beam options."""
    jr = gp.datasets.hungarian_range(missing="drop")
    vals = "labels" if utility == "U2" else None
    same(gp.agglomerate(jr, objective, lam, utility, vals, search="beam", prune_above=None),
         ref.beam_search(jr, objective, lam, utility, vals))


class _blocks_from:
    """Block scoring of the beam's children from ``k`` clusters on (by default only from 200 on)."""

    def __init__(self, k):
        self.k = k

    def __enter__(self):
        self.old, search._BLOCK_MIN = search._BLOCK_MIN, self.k

    def __exit__(self, *exc):
        search._BLOCK_MIN = self.old


@settings(max_examples=60, deadline=None)
@given(st.integers(0, 10**6), st.sampled_from(["L0", "L0|I*=0"]), st.sampled_from([0.0, 0.1, 0.3, 1.0, 3.0]),
       st.sampled_from([(1, 0), (3, 3), (2, 5)]), st.sampled_from([(3, 9), (10, 24), (25, 45)]))
def test_beam_block_scoring_equals_reference(seed, objective, lam, wp, n_range):
    """Scoring only blocks of children, with bounds on the others, from the first depth on (U1): exactly
    the beam that scores every child."""
    jr, _ = instance(seed, n_range)
    width, pareto = wp
    opts = dict(width=width, pareto=pareto, local=False)
    with _blocks_from(3):
        new = gp.agglomerate(jr, objective, lam, "U1", search="beam", prune_above=None, **opts)
    same(new, ref.beam_search(jr, objective, lam, "U1", **opts))


@pytest.mark.parametrize("objective,lam", [("L0", 0.3), ("L0", 3.0), ("L0|I*=0", 1.0)])
def test_hungarian_beam_block_scoring_equals_reference(objective, lam):
    """Hungarian data with block scoring from the first depth: the reference's beam, with most depths
    decided by their blocks and far fewer children scored."""
    jr = gp.datasets.hungarian_range(missing="drop")
    with _blocks_from(3):
        new = gp.agglomerate(jr, objective, lam, "U1", search="beam", prune_above=None)
    same(new, ref.beam_search(jr, objective, lam, "U1"))
    assert new.info["block_depths"] >= 0.9 * (jr.n_public - 2) * (0.5 if lam == 3.0 else 1)
    assert new.info["children_scored"] < new.info["children"] / 10


@settings(max_examples=80, deadline=None)
@given(st.integers(0, 10**6), st.sampled_from(OBJECTIVES), st.sampled_from(["U1", "U2", "U2sq"]),
       st.sampled_from([0.0, 0.1, 0.3, 1.0, 3.0]), st.sampled_from([(1, 0), (3, 3), (2, 5)]),
       st.sampled_from([(3, 9), (10, 24), (25, 40)]))
def test_batched_beam_equals_reference(seed, objective, utility, lam, wp, n_range):
    """The default beam on ranges of at most ``prune_above`` = 40 public values: problems (3) and (10) run
    every depth as one batch of all states (every merge scored, the same picks); exactly the reference."""
    jr, values = instance(seed, n_range)
    ut = gp.U2(distance="squared") if utility == "U2sq" else utility
    vals = None if utility == "U1" else values
    width, pareto = wp
    opts = dict(width=width, pareto=pareto, local=jr.n_public <= 12)
    new = gp.agglomerate(jr, objective, lam, ut, vals, search="beam", **opts)
    assert new.info["pruned_depths"] == 0
    same(new, ref.beam_search(jr, objective, lam, ut, vals, **opts))


@pytest.mark.parametrize("objective,utility,lam", [("L0", "U1", 0.3), ("L0|I*=0", "U1", 1.0), ("L0", "U2", 0.1),
                                                   ("L0|I*=0", "U2", 1.0)])
def test_hungarian_batched_beam_equals_reference(objective, utility, lam):
    """Hungarian data (|X| = 153) with every depth batched and exhaustive (prune_above above |X|): the
    reference's beam."""
    jr = gp.datasets.hungarian_range(missing="drop")
    vals = "labels" if utility == "U2" else None
    new = gp.agglomerate(jr, objective, lam, utility, vals, search="beam", prune_above=1000)
    same(new, ref.beam_search(jr, objective, lam, utility, vals))


@pytest.mark.parametrize("objective,utility", [("L0", "U1"), ("L0|I*=0", "U2"), ("L0", "U2")])
def test_batched_beam_equals_reference_many_sensitive_values(objective, utility):
    """More than 64 sensitive values: the batched depths hold each S-set in several 64-bit words."""
    rng = np.random.default_rng(11)
    jr = gp.random_joint_range(150, 14, 0.03, seed=rng)
    assert jr.n_sensitive > 64
    values = {x: float(v) for x, v in zip(jr.public_labels, np.round(rng.uniform(0, 10, size=jr.n_public), 1))}
    vals = values if utility == "U2" else None
    for lam in (0.1, 1.0):
        same(gp.agglomerate(jr, objective, lam, utility, vals, search="beam"), ref.beam_search(jr, objective, lam, utility, vals))
