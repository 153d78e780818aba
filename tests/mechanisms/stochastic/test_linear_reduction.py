"""Linear-reduction LDP / log-lift (papers 000/001): Example 1, property tests of the spec, LPs, bad input."""

import math

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import graphpriv as gp
from graphpriv.errors import InputError, InputTypeError

EX1 = gp.paper000_example1()
D_ABS = np.abs(np.subtract.outer(np.arange(4), np.arange(4))).astype(float)


# ----------------------------------------------------------------------------- Example 1
def test_example1_data_sets_and_diagonals():
    # paper 000 Example 1: P_X, X^+(1) = {a, b}, X^-(1) = {c, d}; (11a) diagonal 1, 1, 0.72, 0.825
    np.testing.assert_allclose(EX1.p_x, [0.41, 0.24, 0.22, 0.13])
    pxs = EX1.p_x_given_s()
    assert np.flatnonzero(EX1.p_x >= pxs[0]).tolist() == [0, 1]
    assert np.flatnonzero(EX1.p_x < pxs[0]).tolist() == [2, 3]
    Q = gp.optimal_kernel(EX1, 0.5)
    np.testing.assert_allclose(np.diag(Q[0]), [1, 1, 0.72, 0.825])
    np.testing.assert_allclose(np.diag(Q[1]), [0.91, 0.9, 1, 1])
    # the paper's s = 1 solution (north-west corner): Q(a|1,c)=.21, Q(b|1,c)=.07, Q(a|1,d)=0, Q(b|1,d)=.175
    np.testing.assert_allclose([Q[0, 2, 0], Q[0, 2, 1], Q[0, 3, 0], Q[0, 3, 1]], [0.21, 0.07, 0, 0.175])
    # s = 2 NW solution (spec 7.2)
    np.testing.assert_allclose([Q[1, 0, 2], Q[1, 0, 3], Q[1, 1, 2], Q[1, 1, 3]], [0.09, 0, 0.05, 0.05])
    # proportional plan for s = 1 (spec 7.2)
    Qp = gp.optimal_kernel(EX1, 0.5, plan="proportional")
    np.testing.assert_allclose([Qp[0, 2, 0], Qp[0, 2, 1], Qp[0, 3, 0], Qp[0, 3, 1]], [0.168, 0.112, 0.105, 0.07])


def test_example1_channels_and_utilities():
    mk = gp.linear_reduction(EX1, 0.5)
    op = gp.linear_reduction(EX1, 0.5, scheme="optimal")
    np.testing.assert_allclose(mk.kernel[0], [0.705, 0.12, 0.11, 0.065])
    np.testing.assert_allclose(op.channel, [[0.9232, 0, 0.0768, 0], [0, 0.9125, 0.04375, 0.04375],
                                            [0.14318, 0.04773, 0.80909, 0], [0, 0.08077, 0, 0.91923]], atol=1e-4)
    # utilities as the spec computes them (7.3)
    assert mk.tv == pytest.approx(0.3545, abs=1e-4)
    assert op.tv == pytest.approx(0.1050, abs=1e-4)
    assert mk.mutual_information_xy == pytest.approx(0.4284, abs=1e-4)
    assert op.mutual_information_xy == pytest.approx(1.3593, abs=1e-4)
    assert gp.total_variation_loss(EX1, mk.kernel, variant="l1") == pytest.approx(0.7090, abs=1e-4)
    # ... and the paper's four printed numbers do NOT reproduce (spec 7.4: erratum, documented)
    for ours, paper in [(op.mutual_information_xy, 1.19), (op.tv, 0.23), (mk.mutual_information_xy, 0.36), (mk.tv, 0.68)]:
        assert abs(ours - paper) > 0.05
    # I(X;Y) over the Prop. 1 solutions: proportional plan gives the minimum 1.3255 bits
    assert gp.linear_reduction(EX1, 0.5, "optimal", plan="proportional").mutual_information_xy == pytest.approx(1.3255, abs=1e-4)
    # privacy at alpha = 0.5 (spec 7.2)
    assert op.ldp == pytest.approx(math.log2(2.25))
    assert op.log_lift == pytest.approx(0.7105, abs=1e-4)
    assert mk.ldp_x == pytest.approx(math.log2(5)) and mk.log_lift_x == pytest.approx(math.log2(2.4))
    assert mk.markov_unique is False
    # E[d] with d = |i - j|: Markov 0.5825, optimal 0.189 (= 0.378 alpha)
    mkd = gp.linear_reduction(EX1, 0.5, distance=D_ABS)
    opd = gp.linear_reduction(EX1, 0.5, "optimal", "distance", D_ABS)
    assert mkd.expected_distortion == pytest.approx(0.5825) and opd.expected_distortion == pytest.approx(0.189)
    assert opd.method == "prop2:transport"
    # non-metric d = (i - j)^2: Prop. 2 gives 0.357, the full LP 0.192 (auto picks the LP)
    D2 = D_ABS ** 2
    assert gp.linear_reduction(EX1, 0.5, "optimal", "distance", D2).expected_distortion == pytest.approx(0.192)
    assert gp.linear_reduction(EX1, 0.5, "optimal", "distance", D2, method="lp").method == "lp"


def test_example1_exact_curves_fig1():
    # spec 7.5 table (bits)
    alphas = [0.01, 0.1, 0.2, 0.5, 0.7, 0.9, 1.0]
    np.testing.assert_allclose(gp.reduction_ldp(EX1, alphas), [2.2966, 2.0753, 1.8402, 1.1699, 0.7244, 0.2538, 0], atol=1e-4)
    np.testing.assert_allclose(gp.reduction_log_lift(EX1, alphas), [1.2430, 1.1013, 1.0131, 0.7105, 0.4666, 0.1728, 0], atol=1e-4)
    np.testing.assert_allclose(gp.reduction_ldp(EX1, alphas, approx=True), [2.2987, 2.0897, 1.8575, 1.1610, 0.6966, 0.2322, 0], atol=1e-4)
    # eq. (6) is not an inequality (spec P17): exact LL above (1 - a) LL(S -> X) at a = 0.5
    assert gp.reduction_log_lift(EX1, 0.5) > gp.reduction_log_lift(EX1, 0.5, approx=True)


def test_example1_sweep_figs_2_to_4():
    df = gp.linear_reduction_sweep(EX1, [0.1, 0.3, 0.5, 0.7, 0.9, 1.0], distance=D_ABS)
    np.testing.assert_allclose(df["tv_markov"], 0.709 * df["alpha"], atol=1e-4)
    np.testing.assert_allclose(df["tv_optimal"], 0.21 * df["alpha"], atol=1e-4)
    np.testing.assert_allclose(df["mi_loss_markov"], [0.4735, 1.0585, 1.4563, 1.7222, 1.8648, 1.8847], atol=1e-4)
    np.testing.assert_allclose(df["mi_loss_optimal"], [0.1555, 0.3642, 0.5255, 0.6582, 0.7696, 0.8185], atol=1e-4)
    np.testing.assert_allclose(df["ed_markov"], 1.165 * df["alpha"], atol=1e-4)
    np.testing.assert_allclose(df["ed_optimal"], 0.378 * df["alpha"], atol=1e-4)
    for c in ["tv_markov", "tv_optimal", "mi_loss_markov", "mi_loss_optimal"]:
        assert np.all(np.diff(df[c]) > 0)           # Fig. 4: losses increase with alpha
    assert (df["tv_optimal"] <= df["tv_markov"]).all() and (df["mi_loss_optimal"] <= df["mi_loss_markov"]).all()


def test_non_metric_counterexample_prop2():
    # spec 3.4: |X| = 3, d(0,2) = 10, d(0,1) = d(1,2) = 1, alpha = 1: full LP 0.4, Prop. 2 would give 2.0
    P3 = np.array([[0.5, 0.3, 0.2], [0.1, 0.3, 0.6]]) * 0.5
    D3 = np.array([[0, 1, 10], [1, 0, 1], [10, 1, 0]], float)
    assert not gp.satisfies_triangle_inequality(D3) and not gp.is_metric(D3)
    assert gp.linear_reduction(P3, 1.0, "optimal", "distance", D3).expected_distortion == pytest.approx(0.4)
    with pytest.raises(InputError, match="triangle"):
        gp.linear_reduction(P3, 1.0, "optimal", "distance", D3, method="transport")


# ----------------------------------------------------------------------------- properties
@st.composite
def joints(draw, zeros=True):
    n_s, n_x = draw(st.integers(2, 4)), draw(st.integers(2, 5))
    vals = np.array(draw(st.lists(st.floats(0.01, 1.0), min_size=n_s * n_x, max_size=n_s * n_x))).reshape(n_s, n_x)
    if zeros and draw(st.booleans()):
        vals[draw(st.integers(0, n_s - 1)), draw(st.integers(0, n_x - 1))] = 0.0
    if (vals.sum(axis=0) == 0).any() or (vals.sum(axis=1) == 0).any():
        vals += 0.01
    return gp.JointDistribution(vals / vals.sum())


@settings(max_examples=40, deadline=None)
@given(joints(), st.floats(0.01, 1.0))
def test_reduction_properties(jd, alpha):
    T = gp.target_conditional(jd, alpha)
    px, ps, pxs = jd.p_x, jd.p_s, jd.p_x_given_s()
    # P2/P3/P4: target, exact shrinkage and variance
    np.testing.assert_allclose(np.abs(T - px), (1 - alpha) * np.abs(pxs - px), atol=1e-12)
    np.testing.assert_allclose(ps @ (T - px) ** 2, (1 - alpha) ** 2 * (ps @ (pxs - px) ** 2), atol=1e-12)
    mk = gp.linear_reduction(jd, alpha)
    op = gp.linear_reduction(jd, alpha, "optimal")
    opp = gp.linear_reduction(jd, alpha, "optimal", plan="proportional")
    for m in (mk, op, opp):
        # P1: P_Y = P_X; P2: P_{Y|S} = target; rows are pmfs
        out = gp.apply_channel(jd, m.kernel)
        np.testing.assert_allclose(out.p_x, px, atol=1e-10)
        np.testing.assert_allclose(out.p_x_given_s(), T, atol=1e-10)
        assert np.allclose(m.kernel.sum(axis=-1), 1) and (m.kernel >= 0).all()
        # P5: exact closed forms equal direct computation on the released Y
        leak = gp.channel_leakage(jd, m.kernel)
        assert leak.ldp == pytest.approx(m.ldp, abs=1e-9) and leak.max_abs_log_lift == pytest.approx(m.log_lift, abs=1e-9)
        assert math.isfinite(m.ldp) and math.isfinite(m.log_lift)
        # P9: LL <= LDP <= 2 LL; I(S;Y) <= LL
        assert m.log_lift <= m.ldp + 1e-12 and m.ldp <= 2 * m.log_lift + 1e-12
        assert leak.mutual_information_sy <= m.log_lift + 1e-12
    # P12: Prop. 1 value = full LP (10) = alpha * E_S TV(P_{X|S}, P_X) <= Markov
    tv_closed = alpha * ps @ (0.5 * np.abs(pxs - px).sum(axis=1))
    lp = gp.linear_reduction(jd, alpha, "optimal", method="lp")
    assert op.tv == pytest.approx(tv_closed, abs=1e-9) and opp.tv == pytest.approx(tv_closed, abs=1e-9)
    assert lp.tv == pytest.approx(tv_closed, abs=1e-7)
    assert op.tv <= mk.tv + 1e-12
    # P11: Markov utilities
    assert mk.tv == pytest.approx(alpha * (1 - (px ** 2).sum()))


@settings(max_examples=30, deadline=None)
@given(joints(zeros=False), st.floats(0.05, 1.0), st.integers(0, 10**6))
def test_transport_equals_lp_for_metric_and_beats_markov(jd, alpha, seed):
    rng = np.random.default_rng(seed)
    n = jd.n_public
    pts = rng.normal(size=(n, 2))
    D = np.linalg.norm(pts[:, None] - pts[None], axis=2)              # a metric
    tr = gp.linear_reduction(jd, alpha, "optimal", "distance", D, method="transport")
    lp = gp.linear_reduction(jd, alpha, "optimal", "distance", D, method="lp")
    assert tr.expected_distortion == pytest.approx(lp.expected_distortion, abs=1e-7)
    # Kantorovich-Rubinstein: optimum linear in alpha
    lp1 = gp.linear_reduction(jd, 1.0, "optimal", "distance", D, method="lp")
    assert lp.expected_distortion == pytest.approx(alpha * lp1.expected_distortion, abs=1e-7)
    # P13: for any d the full LP is no worse than Markov
    Dr = rng.uniform(0, 1, (n, n))
    np.fill_diagonal(Dr, 0)
    full = gp.linear_reduction(jd, alpha, "optimal", "distance", Dr, method="lp")
    mk = gp.linear_reduction(jd, alpha, distance=Dr)
    assert full.expected_distortion <= mk.expected_distortion + 1e-9


@settings(max_examples=30, deadline=None)
@given(joints())
def test_monotone_in_alpha_and_zero_at_one(jd):
    grid = np.linspace(0.01, 1, 25)
    L, LL = gp.reduction_ldp(jd, grid), gp.reduction_log_lift(jd, grid)
    assert np.all(np.diff(L) <= 1e-12) and np.all(np.diff(LL) <= 1e-12)
    assert L[-1] == 0 and LL[-1] == 0
    assert np.isfinite(L).all() and np.isfinite(LL).all()
    # P14: Markov semigroup and decreasing I(X;Y)
    a, b = 0.3, 0.6
    np.testing.assert_allclose(gp.markov_kernel(jd, a) @ gp.markov_kernel(jd, b), gp.markov_kernel(jd, a + b - a * b), atol=1e-12)
    mi = [gp.linear_reduction(jd, g).mutual_information_xy for g in grid]
    assert np.all(np.diff(mi) <= 1e-10)


def test_first_order_slopes_app_d():
    # P8: L(S->Y) / (1 - alpha) -> App. D first-order expressions (nats) as alpha -> 1
    eps = 1e-6
    r = EX1.lift()
    assert gp.reduction_ldp(EX1, 1 - eps, base=math.e) / eps == pytest.approx((r.max(0) - r.min(0)).max(), rel=1e-4)
    assert gp.reduction_log_lift(EX1, 1 - eps, base=math.e) / eps == pytest.approx(np.abs(r - 1).max(), rel=1e-4)
    assert (r.max(0) - r.min(0)).max() == pytest.approx(1.8182, abs=1e-4)


def test_markov_uniqueness_full_column_rank():
    rng = np.random.default_rng(2)
    pxs = rng.dirichlet(np.ones(3), size=5)
    jd = gp.JointDistribution.from_conditional(pxs, rng.dirichlet(np.ones(5)))
    assert gp.markov_solution_is_unique(jd)
    T = gp.target_conditional(jd, 0.3)
    K = np.linalg.lstsq(jd.p_x_given_s(), T, rcond=None)[0]
    np.testing.assert_allclose(K, gp.markov_kernel(jd, 0.3), atol=1e-10)
    # rank-deficient Example 1: pinv is not even stochastic (spec 3.1 pitfall)
    Kp = np.linalg.pinv(EX1.p_x_given_s()) @ gp.target_conditional(EX1, 0.5)
    assert not np.allclose(Kp.sum(axis=1), 1)


def test_transport_nullity_dimension():
    # P15 (corrects App. F): the TV-optimal solutions of s form a polytope of dimension (m-1)(n-1)
    jd = gp.JointDistribution.random(3, 6, seed=4)
    for s in range(3):
        p = jd.p_x_given_s()[s]
        m_, n_ = int((jd.p_x < p).sum()), int((jd.p_x > p).sum())
        M = np.zeros((m_ + n_, m_ * n_))
        for i in range(m_):
            M[i, i * n_:(i + 1) * n_] = 1
        for j in range(n_):
            M[m_ + j, j::n_] = 1
        assert m_ * n_ - np.linalg.matrix_rank(M) == (m_ - 1) * (n_ - 1)


def test_apply_sanitises_records():
    op = gp.linear_reduction(EX1, 0.5, "optimal")
    y = op.apply([1] * 20000, ["c"] * 20000, rng=0)
    freq = [np.mean(y == v) for v in "abcd"]
    np.testing.assert_allclose(freq, op.kernel[0, 2], atol=0.015)       # Q(.|1, c) = (0.21, 0.07, 0.72, 0)
    assert set(op.apply([2, 2], ["c", "d"], rng=1)) <= {"c", "d"}       # receivers keep their value
    mk = gp.linear_reduction(EX1, 0.5)
    y = mk.apply(None, ["a"] * 20000, rng=2)
    np.testing.assert_allclose([np.mean(y == v) for v in "abcd"], mk.kernel[0], atol=0.015)
    with pytest.raises(InputError):
        op.apply(None, ["a"])
    with pytest.raises(KeyError):
        mk.apply(None, ["zz"])
    rep = op.report()
    assert rep["D_TV"] == pytest.approx(0.105) and rep["scheme"] == "optimal"


@pytest.mark.parametrize("alpha", [0.0, -0.1, 1.5, float("nan")])
def test_alpha_out_of_range(alpha):
    with pytest.raises(InputError, match="alpha"):
        gp.linear_reduction(EX1, alpha)
    with pytest.raises(InputError):
        gp.reduction_ldp(EX1, [0.5, alpha])


def test_other_bad_input():
    with pytest.raises(InputTypeError):
        gp.linear_reduction(EX1, "half")
    with pytest.raises(InputError):
        gp.linear_reduction(EX1, 0.5, scheme="laplace")
    with pytest.raises(InputError):
        gp.linear_reduction(EX1, 0.5, "optimal", "distance")            # no distance
    with pytest.raises(InputError):
        gp.linear_reduction(EX1, 0.5, "optimal", "distance", np.ones((3, 3)))
    with pytest.raises(InputError):
        gp.linear_reduction(EX1, 0.5, "optimal", "distance", np.ones((4, 4)))   # nonzero diagonal
    with pytest.raises(InputError):
        gp.linear_reduction(EX1, 0.5, "optimal", utility="mse")
    with pytest.raises(InputError):
        gp.linear_reduction(EX1, 0.5, "optimal", plan="random")


def test_callable_distance_on_labels():
    pos = {"a": 1, "b": 2, "c": 3, "d": 4}
    m = gp.linear_reduction(EX1, 0.5, "optimal", "distance", lambda u, v: abs(pos[u] - pos[v]))
    assert m.expected_distortion == pytest.approx(0.189)


def test_optimal_markov_kernel_extension():
    # spec 3.1 (extension, not in the paper): best Markov kernel for TV at alpha = 0.5 is 0.2178
    K = gp.optimal_markov_kernel(EX1, 0.5)
    np.testing.assert_allclose(EX1.p_x_given_s() @ K, gp.target_conditional(EX1, 0.5), atol=1e-9)
    assert gp.total_variation_loss(EX1, K) == pytest.approx(0.2178, abs=1e-4)
    op = gp.linear_reduction(EX1, 0.5, "optimal")
    assert op.tv <= gp.total_variation_loss(EX1, K) <= gp.linear_reduction(EX1, 0.5).tv
    Kd = gp.optimal_markov_kernel(EX1, 0.5, "distance", D_ABS)
    assert gp.expected_distortion(EX1, Kd, D_ABS) <= 0.5825 + 1e-9
    # unique Markov solution at full column rank: the LP returns Lemma 1
    rng = np.random.default_rng(2)
    jd = gp.JointDistribution.from_conditional(rng.dirichlet(np.ones(3), size=5), rng.dirichlet(np.ones(5)))
    np.testing.assert_allclose(gp.optimal_markov_kernel(jd, 0.3), gp.markov_kernel(jd, 0.3), atol=1e-7)
