"""Random joint-range ensembles and the Monte-Carlo driver (issue 8)."""

import numpy as np
import pandas as pd
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import graphpriv as gp
from graphpriv.analysis.ensembles import EnsembleStudy


# ------------------------------------------------------------------------------------------- generators
@settings(max_examples=40, deadline=None)
@given(st.integers(1, 12), st.integers(1, 12), st.floats(0, 1), st.integers(0, 2**31), st.sampled_from(["attach", "resample"]))
def test_random_joint_range_shape_and_reproducible(ns, nx_, p, seed, empty):
    try:
        jr = gp.random_joint_range(ns, nx_, p, seed=seed, empty=empty, max_tries=50)
    except gp.TooLargeError:
        assert empty == "resample"
        return
    assert jr.shape == (ns, nx_)
    assert (jr.public_degrees >= 1).all() and (jr.sensitive_degrees >= 1).all()
    assert jr == gp.random_joint_range(ns, nx_, p, seed=seed, empty=empty, max_tries=50)


def test_attach_only_adds_pairs_where_empty():
    """empty='attach' keeps every drawn pair and adds pairs only at labels the draw left empty (one per label)."""
    rng = np.random.default_rng(5)
    m = rng.random((30, 10)) < 0.02
    jr = gp.random_joint_range(30, 10, 0.02, seed=np.random.default_rng(5))
    dense = jr.matrix.toarray()
    assert (dense | m == dense).all()          # every drawn pair kept
    extra = dense & ~m
    empty_cols, empty_rows = ~m.any(axis=0), ~m.any(axis=1)
    assert extra.sum() <= empty_cols.sum() + empty_rows.sum()
    r, c = np.nonzero(extra)
    assert (empty_cols[c] | empty_rows[r]).all()              # only empty labels got a pair
    assert gp.random_joint_range(30, 10, 1.0, seed=0).n_pairs == 300
    assert gp.random_joint_range(30, 10, 0.0, seed=0).n_pairs >= 10


def test_drop_and_resample_policies():
    jr = gp.random_joint_range(40, 10, 0.02, seed=1, empty="drop")
    assert jr.n_public <= 10 and jr.n_sensitive <= 40
    assert set(jr.public_labels.tolist()) <= {f"x{i}" for i in range(1, 11)}
    jr = gp.random_joint_range(5, 5, 0.6, seed=1, empty="resample")
    assert jr.shape == (5, 5)
    with pytest.raises(gp.TooLargeError, match="resample"):
        gp.random_joint_range(20, 20, 0.001, seed=0, empty="resample", max_tries=5)
    with pytest.raises(gp.InputError, match="nothing"):
        gp.random_joint_range(3, 3, 0.0, seed=0, empty="drop")


def test_empty_attach_frequency_matches_bernoulli():
    """Away from the attach regime the pair frequency is p (law of the generator)."""
    jr = gp.random_joint_range(200, 100, 0.3, seed=11)
    assert abs(jr.n_pairs / 20000 - 0.3) < 0.015


@settings(max_examples=30, deadline=None)
@given(st.lists(st.integers(1, 4), min_size=2, max_size=6), st.integers(0, 1000))
def test_random_degree_range_keeps_degrees(ds, seed):
    # build a realisable public sequence from a random matrix with these row degrees
    rng = np.random.default_rng(seed)
    nx_ = max(ds) + 2
    m = np.zeros((len(ds), nx_), dtype=bool)
    for i, d in enumerate(ds):
        m[i, rng.choice(nx_, d, replace=False)] = True
    m = m[:, m.any(axis=0)]
    dx = m.sum(axis=0).tolist()
    jr = gp.random_degree_range(ds, dx, seed=seed)
    assert jr.sensitive_degrees.tolist() == ds
    assert jr.public_degrees.tolist() == dx
    assert jr == gp.random_degree_range(ds, dx, seed=seed)


def test_random_degree_range_mixes():
    a = gp.random_degree_range([2] * 10, [2] * 10, seed=0)
    b = gp.random_degree_range([2] * 10, [2] * 10, seed=1)
    assert a != b          # swaps move away from the deterministic realisation
    with pytest.raises(gp.InputError, match="sums"):
        gp.random_degree_range([1, 2], [1, 1])
    with pytest.raises(gp.InputError, match=">= 1"):
        gp.random_degree_range([0, 2], [1, 1])
    with pytest.raises(gp.InputError, match="realisable|graphical"):
        gp.random_degree_range([3, 1], [2, 2])   # degree 3 > |X| = 2
    with pytest.raises(gp.InputError, match="graphical"):
        gp.random_degree_range([3, 3, 1], [3, 3, 1])  # two full rows force degree >= 2 on x3


def test_random_block_range():
    jr = gp.random_block_range([10, 10, 10], [5, 5, 5], 0.9, 0.0, seed=2)
    assert gp.n_components(jr) == 3
    assert gp.maximin_information(jr) == pytest.approx(np.log2(3))
    jr = gp.random_block_range([10, 10], [5, 5], 0.5, 1.0, seed=2)
    assert gp.n_components(jr) == 1
    with pytest.raises(gp.InputError, match="same length"):
        gp.random_block_range([1, 2], [3], 0.5, 0.1)
    with pytest.raises(gp.InputError, match="probability"):
        gp.random_block_range([1], [1], 1.5, 0.1)


# ------------------------------------------------------------------------------------------- driver
DENSITIES = [0.01, 0.04, 0.08, 0.2]


def test_driver_matches_direct_simulation_exactly():
    """The driver's draws are the SeedSequence children: a direct loop over them gives the same P(I* > 0)."""
    study = gp.ensemble_study(50, 10, DENSITIES, n_samples=40, seed=7, measures=("I_star",))
    children = np.random.SeedSequence(7).spawn(len(DENSITIES) * 40)
    for i, p in enumerate(DENSITIES):
        direct = [gp.maximin_information(gp.random_joint_range(50, 10, p, seed=np.random.default_rng(children[i * 40 + k]))) > 0
                  for k in range(40)]
        assert study.prob_positive()[p] == pytest.approx(np.mean(direct))


def test_driver_agrees_with_independent_simulation():
    """Independent direct simulation (other seeds): estimates of P(I* > 0) agree within Monte-Carlo error."""
    n = 300
    study = gp.ensemble_study(50, 10, DENSITIES, n_samples=n, seed=1, measures=("I_star",))
    rng = np.random.default_rng(12345)
    for p in DENSITIES:
        direct = np.mean([gp.n_components(gp.random_joint_range(50, 10, p, seed=rng)) > 1 for _ in range(n)])
        est = study.prob_positive()[p]
        se = np.sqrt(max(direct * (1 - direct), est * (1 - est), 1e-3) * 2 / n)
        assert abs(est - direct) <= 4 * se + 1e-9
    pp = study.prob_positive()
    assert pp[0.01] == 1.0 and pp[0.2] < 0.05            # phase transition from decomposable to connected
    assert pp.is_monotonic_decreasing


def test_driver_reproducible_across_n_jobs_and_backends():
    kw = dict(n_samples=12, seed=3, measures=("I_star", "strength", "edge_connectivity", "pairs_to_decompose", "n_pairs"))
    a = gp.ensemble_study(30, 8, [0.02, 0.1, 0.3], **kw)
    b = gp.ensemble_study(30, 8, [0.02, 0.1, 0.3], n_jobs=2, **kw)
    c = gp.ensemble_study(30, 8, [0.02, 0.1, 0.3], n_jobs=2, backend="threading", batch_size=5, **kw)
    pd.testing.assert_frame_equal(a.samples, b.samples)
    pd.testing.assert_frame_equal(a.samples, c.samples)
    d = gp.ensemble_study(30, 8, [0.02, 0.1, 0.3], **{**kw, "seed": 4})
    assert not a.samples.equals(d.samples)
    s = a.summary()
    assert set(["I_star_mean", "p_positive", "strength_mean", "edge_connectivity_mean"]) <= set(s.columns)
    # consistency of the recorded measures
    df = a.samples
    assert ((df["strength"] == 0) == (df["n_components"] > 1)).all()
    assert (df["strength"] <= df["edge_connectivity"] + 1e-12).all()
    assert ((df["pairs_to_decompose"] == 0) == (df["n_components"] > 1)).all()
    assert np.allclose(df["I_star"], np.log2(df["n_components"]))
    assert "EnsembleStudy" in repr(a)


def test_driver_custom_generator():
    def gen(ns, nx_, p, seed=None):
        return gp.random_block_range([ns // 2, ns - ns // 2], [nx_ // 2, nx_ - nx_ // 2], 0.9, p, seed=seed)

    study = gp.ensemble_study(20, 6, [0.0, 0.5], n_samples=10, generator=gen, measures=("I_star",))
    pp = study.prob_positive()
    assert pp[0.0] == 1.0 and pp[0.5] == 0.0
    assert study.generator == "gen"


def test_driver_bad_input():
    with pytest.raises(gp.InputError, match="measure"):
        gp.ensemble_study(10, 5, [0.1], measures=("entropy",))
    with pytest.raises(gp.InputError, match="densities"):
        gp.ensemble_study(10, 5, [])
    with pytest.raises(gp.InputTypeError):
        gp.ensemble_study(10, 5, ["a"])
    with pytest.raises(gp.InputError, match="n_samples"):
        gp.ensemble_study(10, 5, [0.1], n_samples=0)
    with pytest.raises(gp.InputError, match="probability"):
        gp.ensemble_study(10, 5, [1.5])
    with pytest.raises(gp.InputTypeError, match="n_public"):
        gp.random_joint_range(3, 2.5, 0.1)
    with pytest.raises(gp.InputError, match="empty="):
        gp.random_joint_range(3, 3, 0.1, empty="fill")


def test_phase_transition_plot():
    from graphpriv.viz.research import plot_phase_transition, plot_strength_vs_density

    study = gp.ensemble_study(30, 8, [0.01, 0.1, 0.4], n_samples=6, seed=0)
    ax = plot_phase_transition(study, x="degree")
    assert ax.get_xlabel().startswith("mean")
    ax = plot_strength_vs_density(study)
    assert ax.get_lines()
    with pytest.raises(ValueError):
        plot_strength_vs_density(gp.ensemble_study(30, 8, [0.1], n_samples=2, measures=("I_star",)))


def test_phase_transition_figure_registered(tmp_path):
    from graphpriv.reproduce import build_all

    built = build_all(tmp_path, only=["research_ensemble_phase_transition"], quick=True, formats=("png",))
    assert [s.name for s in built] == ["research_ensemble_phase_transition"]
    assert (tmp_path / "research_ensemble_phase_transition.png").stat().st_size > 1000
