"""Stochastic measures (issue 5): paper values, dit as an oracle, bounds between measures, bad input."""

import math

import dit
import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import graphpriv as gp
from graphpriv.errors import DistributionError, InputError, InputTypeError


@st.composite
def joints(draw, max_s=4, max_x=5, zeros=True):
    n_s = draw(st.integers(2, max_s))
    n_x = draw(st.integers(2, max_x))
    vals = draw(st.lists(st.floats(0.01, 1.0), min_size=n_s * n_x, max_size=n_s * n_x))
    P = np.array(vals).reshape(n_s, n_x)
    if zeros and draw(st.booleans()):
        i, j = draw(st.integers(0, n_s - 1)), draw(st.integers(0, n_x - 1))
        P[i, j] = 0.0
    return gp.JointDistribution(P / P.sum())


def _dit(jd):
    outcomes, pmf = [], []
    for i in range(jd.n_sensitive):
        for j in range(jd.n_public):
            if jd.P[i, j] > 0:
                outcomes.append((i, j))
                pmf.append(jd.P[i, j])
    return dit.Distribution(outcomes, pmf)


EX1 = gp.JointDistribution.from_conditional([[0.2, 0.1, 0.5, 0.2], [0.5, 0.3, 0.1, 0.1]], [0.3, 0.7])


def test_paper000_example1_raw_leakage():
    # linear-reduction spec 7.1: L_LDP(S->X) = log 5, L_LL(S->X) = log 2.4, I(S;X) = 0.17661 bits, H(X) = 1.8847 bits
    assert gp.ldp(EX1) == pytest.approx(math.log2(5))
    assert gp.ldp(EX1, base=math.e) == pytest.approx(math.log(5))
    assert gp.max_abs_log_lift(EX1) == pytest.approx(math.log2(2.4))
    assert gp.mutual_information(EX1) == pytest.approx(0.17661, abs=1e-5)
    assert gp.shannon_entropy(EX1.p_x) == pytest.approx(1.8847, abs=1e-4)
    assert gp.shannon_entropy(EX1.p_x, base=math.e) == pytest.approx(1.3064, abs=1e-4)


def test_log_lift_matrix_and_units():
    L2 = gp.log_lift(EX1)
    Le = gp.log_lift(EX1, base=math.e)
    np.testing.assert_allclose(L2 * math.log(2), Le)
    r = EX1.P / np.outer(EX1.p_s, EX1.p_x)
    np.testing.assert_allclose(Le, np.log(r))
    np.testing.assert_allclose(gp.abs_log_lift_by_public(EX1), np.abs(L2).max(axis=0))


def test_zero_pair_gives_infinite_abs_log_lift():
    jd = gp.JointDistribution([[0.25, 0.25], [0.0, 0.5]])
    assert gp.log_lift(jd)[1, 0] == -math.inf
    assert gp.max_abs_log_lift(jd) == math.inf
    assert gp.ldp(jd) == math.inf


def test_subset_log_lift_is_contracted_column():
    rng = np.random.default_rng(1)
    jd = gp.JointDistribution.random(4, 6, seed=rng)
    Q = [1, 3, 4]
    merged = np.column_stack([jd.P[:, [0, 2, 5]], jd.P[:, Q].sum(axis=1)])
    jm = gp.JointDistribution(merged)
    np.testing.assert_allclose(gp.subset_log_lift(jd, Q, base=math.e), gp.log_lift(jm, base=math.e)[:, -1])
    assert gp.subset_abs_log_lift(jd, Q) == pytest.approx(np.abs(gp.log_lift(jm)[:, -1]).max())
    assert gp.subset_abs_log_lift(jd, []) == 0.0
    # the whole alphabet is independent of S
    np.testing.assert_allclose(gp.subset_log_lift(jd, np.ones(6, bool)), 0, atol=1e-12)


def test_breach_mass_definition():
    jd = gp.JointDistribution.random(5, 6, seed=4)
    eps = 0.3
    L = np.abs(gp.log_lift(jd, base=math.e))
    np.testing.assert_allclose(gp.breach_mass(jd, eps, base=math.e), np.where(L > eps, jd.P, 0).sum(axis=0))
    Q = [0, 2]
    col = jd.P[:, Q].sum(axis=1)
    a = np.abs(gp.subset_log_lift(jd, Q, base=math.e))
    assert gp.breach_mass(jd, eps, Q, base=math.e) == pytest.approx(col[a > eps].sum())
    assert gp.breach_mass(jd, eps, []) == 0.0
    with pytest.raises(InputError):
        gp.breach_mass(jd, -1.0)


@settings(max_examples=30, deadline=None)
@given(joints())
def test_against_dit(jd):
    d = _dit(jd)
    assert gp.mutual_information(jd) == pytest.approx(dit.shannon.mutual_information(d, [0], [1]), abs=1e-9)
    assert gp.maximal_leakage(jd) == pytest.approx(dit.other.maximal_leakage(d, [0], [1]), abs=1e-9)
    for order in (0.5, 2.0, 5.0):
        assert gp.sibson_mutual_information(jd, order) == pytest.approx(dit.other.sibson_mutual_information(d, [0], [1], order), abs=1e-7)
    assert gp.sibson_mutual_information(jd, 1) == pytest.approx(gp.mutual_information(jd))
    assert gp.sibson_mutual_information(jd, math.inf) == pytest.approx(gp.maximal_leakage(jd))


@settings(max_examples=40, deadline=None)
@given(joints(zeros=False))
def test_bounds_between_measures(jd):
    # watchdog spec 1.2 / linear-reduction spec P9: with e* = max abs-log-lift
    e = gp.max_abs_log_lift(jd, base=math.e)
    tol = 1e-10
    assert gp.mutual_information(jd, base=math.e) <= e + tol
    assert gp.maximal_leakage(jd, base=math.e) <= e + tol
    L = gp.ldp(jd, base=math.e)
    assert e - tol <= L <= 2 * e + tol
    assert gp.guessing_leakage(jd, base=math.e) <= e + tol
    for order in (1.5, 2.0, 5.0):
        assert gp.sibson_mutual_information(jd, order, base=math.e) <= order / (order - 1) * e + tol
        assert gp.arimoto_mutual_information(jd, order, base=math.e) <= e + 1e-9
    assert gp.arimoto_mutual_information(jd, 1, base=math.e) == pytest.approx(gp.mutual_information(jd, base=math.e))
    # graph DP over a path on S: L^G <= L^LDP <= diam(G) L^G
    labels = jd.sensitive_labels.tolist()
    path = list(zip(labels[:-1], labels[1:]))
    LG = gp.graph_ldp(jd, path, base=math.e)
    assert LG <= L + tol and L <= (len(labels) - 1) * LG + tol


def test_graph_ldp_complete_graph_equals_ldp():
    import networkx as nx

    jd = gp.JointDistribution.random(4, 5, seed=9)
    G = nx.complete_graph(jd.sensitive_labels.tolist())
    assert gp.graph_ldp(jd, G) == pytest.approx(gp.ldp(jd))
    with pytest.raises(KeyError):
        gp.graph_ldp(jd, [("s1", "zz")])


def test_apply_channel_and_leakage():
    jd = gp.JointDistribution.random(3, 4, seed=5)
    W = np.random.default_rng(0).dirichlet(np.ones(3), size=4)           # p(y|x), |Y| = 3
    out = gp.apply_channel(jd, W)
    np.testing.assert_allclose(out.P, jd.P @ W)
    leak = gp.channel_leakage(jd, W, eps=0.1)
    assert leak.max_abs_log_lift == pytest.approx(gp.max_abs_log_lift(out))
    assert leak.ldp == pytest.approx(gp.ldp(out))
    assert leak.mutual_information_sy <= leak.mutual_information_xy + 1e-12      # data processing
    L = np.abs(gp.log_lift(out))
    assert leak.breach_probability == pytest.approx(out.P[L > 0.1].sum())
    # non-Markov channel that ignores s equals the Markov one
    W3 = np.broadcast_to(W, (3, 4, 3))
    assert gp.channel_leakage(jd, W3).as_dict() == pytest.approx(gp.channel_leakage(jd, W).as_dict())
    # identity channel: leakage of X itself
    assert gp.channel_leakage(jd, np.eye(4)).max_abs_log_lift == pytest.approx(gp.max_abs_log_lift(jd))


@pytest.mark.parametrize(
    "W, exc",
    [
        (np.ones((3, 2)) / 2, InputError),          # wrong number of rows
        (np.full((4, 2), 0.7), DistributionError),  # rows do not sum to 1
        (-np.eye(4), DistributionError),
        (np.ones((2, 2, 2, 2)), InputError),
        ("W", InputTypeError),
    ],
)
def test_channel_bad_input(W, exc):
    jd = gp.JointDistribution.random(3, 4, seed=5)
    with pytest.raises(exc):
        gp.channel_leakage(jd, W)


def test_bad_base_and_order():
    with pytest.raises(InputError):
        gp.log_lift(EX1, base=1)
    with pytest.raises(InputError):
        gp.sibson_mutual_information(EX1, 0)
    with pytest.raises(InputTypeError):
        gp.mutual_information("not a distribution")
