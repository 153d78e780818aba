"""Tests of perfect sample privacy / synergistic disclosure (paper 004; spec perfect-sample-privacy.md)."""

import itertools
import math

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import graphpriv as gp
from graphpriv.errors import DistributionError, InputError, TooLargeError

EX2_P = np.array([[1, 3, 2], [2, 3, 1]]) / 12
# paper's displayed P_{W|X^2} (eq. (20)), columns (0,0),(0,e),(0,1),(1,0),(1,e),(1,1)
EX2_PW_PAPER = np.array([[1, 2 / 3, 0, 1, 1 / 3, 0], [0, 1 / 3, 1, 0, 2 / 3, 1]])
# the BSC(2/3)/BEC(1/2) model's P_{W|X^2} (spec §6.6c: erasure columns swapped)
EX2_PW_MODEL = np.array([[1, 1 / 3, 0, 1, 2 / 3, 0], [0, 2 / 3, 1, 0, 1 / 3, 1]])
TABLE1 = dict(p_w=[2 / 3, 1 / 3], p_x_given_w=[[0.9, 0.1], [0.1, 0.9]])


def H(p):
    p = np.asarray(p, float).ravel()
    p = p[p > 1e-15]
    return float(-(p * np.log2(p)).sum())


def mi(j):
    j = np.asarray(j, float)
    return H(j.sum(1)) + H(j.sum(0)) - H(j)


def _same_rows(A, B, atol=1e-9):
    return A.shape == B.shape and all(np.abs(B - a).max(axis=1).min() < atol for a in A)


# ------------------------------------------------------------------ Example 2
@pytest.mark.parametrize("shape", ["nd", "flat"])
def test_example2_lp_value_weights_and_mapping(shape):
    """Paper 004, Example 2: LP 0.9866 bits, I_s = 0.0134 bits, u* = (1/3, 1/3, 0, 1/3), mapping (22)."""
    pw = EX2_PW_PAPER.reshape(2, 2, 3) if shape == "nd" else EX2_PW_PAPER
    res = gp.synergistic_disclosure(pw, EX2_P)
    assert res.lp_value == pytest.approx(0.986579, abs=5e-7)
    assert res.value == pytest.approx(0.013421, abs=5e-7)
    assert round(res.lp_value, 4) == 0.9866 and round(res.value, 4) == 0.0134
    assert res.n_vertices == 4 and res.n_outputs == 3 == res.hypergraph.nullity + 1
    # weights per vertex p_1..p_4 of spec §4.2
    vs = np.array([[1, 0, 1, 0, 2, 0], [0, 2, 0, 1, 0, 1], [1, 1, 0, 0, 1, 1], [0, 1, 1, 1, 1, 0]]) / 4
    u = [res.weights[np.abs(res.vertices - v).max(axis=1).argmin()] for v in vs]
    np.testing.assert_allclose(u, [1 / 3, 1 / 3, 0, 1 / 3], atol=1e-9)
    eq22 = np.array([[1, 0, 0.5, 0, 2 / 3, 0], [0, 2 / 3, 0, 0.5, 0, 1], [0, 1 / 3, 0.5, 0.5, 1 / 3, 0]])
    assert res.mapping.shape == (3, 6)
    assert _same_rows(res.mapping, eq22)
    np.testing.assert_allclose(res.p_y, [1 / 3] * 3)
    np.testing.assert_allclose(res.mapping.sum(0), 1)
    assert res.information == pytest.approx(res.value, abs=1e-12)
    assert res.privacy_violation < 1e-12
    assert gp.verify_sample_privacy(res.mapping, EX2_P).is_private
    assert res.efficiency == pytest.approx(0.013421, abs=5e-7)  # H(W) = 1


def test_example2_model_conditional_gives_same_value_and_bound():
    """Spec §6.6c: the model-consistent P_{W|X} gives the same I_s and mapping; §4.2 bound 0.040852."""
    res = gp.synergistic_disclosure(EX2_PW_MODEL, EX2_P)
    assert round(res.value, 4) == 0.0134
    assert res.upper_bound == pytest.approx(0.040852, abs=5e-7)
    ref = gp.synergistic_disclosure(EX2_PW_PAPER, EX2_P)
    assert _same_rows(res.mapping, ref.mapping)
    b = gp.disclosure_bounds(EX2_PW_MODEL, EX2_P)
    assert b.i_w_xn == pytest.approx(0.540852, abs=5e-7) and b.max_single == pytest.approx(0.5, abs=1e-9)
    assert b.feasible and b.lower <= res.value <= b.upper
    # under the paper's matrix W is independent of X_1 (spec §4.2)
    assert gp.disclosure_bounds(EX2_PW_PAPER, EX2_P).max_single == pytest.approx(0.5, abs=1e-9)


def test_example2_reuses_precomputed_vertices():
    V = gp.privacy_polytope_vertices(gp.SampleHypergraph.from_pmf(EX2_P))
    res = gp.synergistic_disclosure(EX2_PW_MODEL, gp.SampleHypergraph.from_pmf(EX2_P), vertices=V)
    assert round(res.value, 6) == 0.013421


# ------------------------------------------------------------------ Table I
@pytest.mark.parametrize("n,printed,n_vertices", [(2, 8.34e-3, 2), (3, 4.88e-2, 9), (4, 4.47e-2, 130)])
def test_table1(n, printed, n_vertices):
    """Paper 004, Table I: W ~ Bern(1/3), X_i | W i.i.d. BSC(0.1); I_s to printed precision (3 s.f.)."""
    pw, px = gp.iid_samples_model(TABLE1["p_w"], TABLE1["p_x_given_w"], n)
    res = gp.synergistic_disclosure(pw, px)
    assert float(f"{res.value:.3g}") == printed
    assert res.n_vertices == n_vertices
    assert res.n_outputs <= res.hypergraph.nullity + 1
    assert res.privacy_violation < 1e-10
    assert 0 <= res.value <= res.upper_bound + 1e-12


def test_table1_n1_is_zero_and_bounds():
    pw, px = gp.iid_samples_model(TABLE1["p_w"], TABLE1["p_x_given_w"], 1)
    assert gp.synergistic_disclosure(pw, px).value == pytest.approx(0, abs=1e-12)
    ups = [gp.disclosure_bounds(*gp.iid_samples_model(TABLE1["p_w"], TABLE1["p_x_given_w"], n)).upper for n in (2, 3, 4)]
    np.testing.assert_allclose(ups, [0.199295, 0.310005, 0.366340], atol=5e-7)  # spec §4.4


# ------------------------------------------------------------------ Example 1 and simple cases
@pytest.mark.parametrize("M,k", [(2, 1), (2, 2), (3, 1), (3, 2), (4, 1)])
def test_example1_modular_sum(M, k):
    """Paper 004, Example 1: X_1 ~ U[M], X_2 ~ U[kM], W = X_1 + X_2 mod M gives I_s = log2 M, achieved by Y = W."""
    p = np.full((M, k * M), 1 / (k * M * M))
    K = gp.modular_sum_mechanism([M, k * M], M)
    pw = K.reshape(M, M, k * M)
    res = gp.synergistic_disclosure(pw, p)
    assert res.value == pytest.approx(math.log2(M), abs=1e-9)
    assert res.upper_bound == pytest.approx(math.log2(M), abs=1e-9)  # Prop. 2 is tight
    chk = gp.verify_sample_privacy(K, p, p_w_given_xn=pw)
    assert chk.is_private and chk.disclosure == pytest.approx(math.log2(M))
    assert gp.verify_sample_privacy(res.mapping, p).is_private


def test_xor_and_single_sample_functions():
    p = np.full((2, 2), 0.25)
    xor = [[1, 0, 0, 1], [0, 1, 1, 0]]
    assert gp.synergistic_disclosure(xor, p).value == pytest.approx(1.0)
    # W = X_1 is not disclosable (Prop. 1); nor is it for a non-uniform support
    rng = np.random.default_rng(3)
    q = rng.dirichlet(np.ones(9)).reshape(3, 3)
    w_x1 = np.zeros((3, 3, 3))
    for a in range(3):
        w_x1[a, a, :] = 1
    assert not gp.is_disclosure_feasible(w_x1, q)
    assert gp.synergistic_disclosure(w_x1, q).value == pytest.approx(0, abs=1e-9)
    w_sum = np.zeros((3, 3, 3))
    for a, b in itertools.product(range(3), range(3)):
        w_sum[(a + b) % 3, a, b] = 1
    assert gp.is_disclosure_feasible(w_sum, q) and gp.synergistic_disclosure(w_sum, q).value > 1e-6


def test_off_support_columns_and_mapping_shape():
    p = np.zeros((2, 3))
    p[0, 0], p[0, 1], p[1, 0], p[1, 1], p[1, 2] = 0.2, 0.2, 0.2, 0.2, 0.2
    rng = np.random.default_rng(0)
    pw = rng.dirichlet(np.ones(3), size=(2, 3)).transpose(2, 0, 1)
    res = gp.synergistic_disclosure(pw, p)
    assert res.mapping.shape == (res.n_outputs, 6) and res.posteriors.shape == (res.n_outputs, 6)
    np.testing.assert_allclose(res.mapping[:, 2], res.p_y)  # (0, 2) has p = 0
    np.testing.assert_allclose(res.mapping.sum(0), 1)
    np.testing.assert_allclose(res.posteriors.sum(1), 1)
    assert "SynergisticDisclosure(value=" in repr(res)


# ------------------------------------------------------------------ two binary samples
@st.composite
def binary_models(draw):
    seed = draw(st.integers(0, 2**31 - 1))
    rng = np.random.default_rng(seed)
    p = rng.dirichlet(np.ones(4)) * 0.96 + 0.01
    p /= p.sum()
    nw = int(rng.integers(2, 5))
    pw = rng.dirichlet(np.ones(nw), size=4).T
    return p.reshape(2, 2), pw


@settings(max_examples=50, deadline=None)
@given(binary_models())
def test_two_binary_closed_form_matches_lp(model):
    """Spec §4.3: eq. (25) == LP on random cases, for any alpha, beta (general r_lo, r_hi form)."""
    p, pw = model
    cf = gp.two_binary_closed_form(pw, p)
    res = gp.synergistic_disclosure(pw, p)
    assert cf.value == pytest.approx(res.value, abs=1e-9)
    assert (cf.vertices >= -1e-15).all()
    np.testing.assert_allclose(cf.weights @ cf.vertices, p.ravel(), atol=1e-12)
    assert gp.verify_sample_privacy(cf.mapping, p).is_private
    if res.n_outputs == 2:
        assert _same_rows(cf.mapping, res.mapping, atol=1e-8)
    if cf.beta >= cf.alpha:  # the paper's eq. (26), valid only for beta >= alpha (spec §6.7)
        a, b, r = cf.alpha, cf.beta, cf.r
        R = min(a, 1 - b)
        eq26 = np.array([[r * (a - R) / (R * (a - r)), 1, r * (b - a + R) / (R * (b - a + r)), r * (1 - b - R) / (R * (1 - b - r))],
                         [a * (R - r) / (R * (a - r)), 0, (b - a) * (R - r) / (R * (b - a + r)), (1 - b) * (R - r) / (R * (1 - b - r))]])
        assert _same_rows(cf.mapping, eq26, atol=1e-8)


def test_two_binary_paper_formula_fails_for_beta_below_alpha():
    """Spec §6.7: alpha = .7, beta = .4, r = .45 makes the paper's a_2 = p + r n negative; ours stays valid."""
    alpha, beta, r = 0.7, 0.4, 0.45
    p = np.array([alpha - r, r, beta - alpha + r, 1 - beta - r])
    a2 = p + r * np.array([1, -1, -1, 1])
    np.testing.assert_allclose(a2, [0.7, 0, -0.3, 0.6])
    cf = gp.two_binary_closed_form(np.eye(4), p.reshape(2, 2))
    assert (cf.vertices >= 0).all() and cf.r_lo == pytest.approx(0.3)
    assert cf.value == pytest.approx(gp.self_disclosure(p.reshape(2, 2)).value, abs=1e-9)


def test_two_binary_degenerate_and_bad_shape():
    p = np.array([[0.5, 0.0], [0.25, 0.25]])
    assert gp.two_binary_closed_form(np.eye(4), p).value == 0.0
    with pytest.raises(InputError):
        gp.two_binary_closed_form(np.eye(6), EX2_P)


# ------------------------------------------------------------------ self-disclosure, heuristics
@pytest.mark.parametrize("q,expected", [(0.05, 0.017928), (0.1, 0.061356), (0.2, 0.202710), (0.3, 0.398529), (0.4, 0.640364), (0.5, 1.0)])
def test_pair_self_disclosure_closed_form(q, expected):
    """Spec §4.3 table: Î_s(X_1, X_2) for i.i.d. Bern(q)."""
    px = np.array([1 - q, q])
    assert gp.self_disclosure(np.outer(px, px)).value == pytest.approx(expected, abs=5e-7)
    assert gp.pair_self_disclosure_binary(q) == pytest.approx(expected, abs=5e-7)
    assert gp.pair_self_disclosure_binary(1 - q) == pytest.approx(expected, abs=5e-7)


def _iid(q, n):
    px = np.array([1 - q, q])
    p = px
    for _ in range(n - 1):
        p = np.multiply.outer(p, px)
    return p


@pytest.mark.parametrize("q", [0.1, 0.2, 0.3, 0.4, 0.5])
@pytest.mark.parametrize("n", [2, 3, 4])
def test_lemma7_partial_processing(q, n):
    """Lemma 7: I(Y_par; X^n) = (n - 1) Î_s(X_1, X_2) for i.i.d. samples; Y_par is sample-private."""
    res = gp.partial_processing(_iid(q, n))
    assert res.information == pytest.approx((n - 1) * gp.pair_self_disclosure_binary(q), abs=1e-9)
    assert res.predicted == pytest.approx(res.information, abs=1e-9)
    assert res.check.is_private
    np.testing.assert_allclose(res.mapping.sum(0), 1)


def test_partial_processing_window_and_nonbinary():
    rng = np.random.default_rng(5)
    m1, m2, m3 = rng.dirichlet(np.ones(3)), rng.dirichlet(np.ones(2)), rng.dirichlet(np.ones(3))
    p = np.multiply.outer(np.outer(m1, m2), m3)
    res = gp.partial_processing(p)
    assert res.check.is_private and res.information == pytest.approx(res.predicted, abs=1e-9)
    r3 = gp.partial_processing(p, window=3)
    assert r3.check.is_private and r3.predicted is None
    assert r3.information == pytest.approx(gp.self_disclosure(p).value, abs=1e-9)


def test_partial_processing_requires_independence():
    p = np.array([[0.4, 0.1], [0.1, 0.4]])
    with pytest.raises(InputError, match="independent"):
        gp.partial_processing(p)
    with pytest.raises(InputError, match="window"):
        gp.partial_processing(_iid(0.3, 3), window=4)


@pytest.mark.parametrize("q", [0.1, 0.2, 0.3, 0.4])
@pytest.mark.parametrize("n", [2, 3, 4, 5])
def test_ypre_exact_formula_vs_brute_force(q, n):
    """Spec §4.8: the corrected Example 5 formula equals the brute-force I(Y_pre; X^n); eq. (67) is exact only
    for n = 2 and a strict lower bound for n >= 3."""
    res = gp.preprocessing_mechanism(_iid(q, n))
    assert res.check.is_private
    assert res.information == pytest.approx(gp.preprocessing_information(q, n), abs=1e-9)
    assert res.predicted == pytest.approx(res.information, abs=1e-9)
    eq67 = gp.preprocessing_information(q, n, formula="eq67")
    if n == 2:
        assert eq67 == pytest.approx(res.information, abs=1e-9)
    else:
        assert eq67 < res.information - 1e-6


def test_ypre_oracle_values_and_q_half():
    """Spec §4.8 examples, and q = 1/2 (eq. (67) exact there)."""
    np.testing.assert_allclose([gp.preprocessing_information(0.2, n) for n in (2, 3, 4, 5)], [0.056386, 0.155535, 0.287189, 0.443590], atol=5e-7)
    np.testing.assert_allclose([gp.preprocessing_information(0.1, n) for n in (2, 3, 4, 5)], [0.011695, 0.033816, 0.065232, 0.104934], atol=5e-7)
    for n in (2, 3, 4):
        assert gp.preprocessing_information(0.5, n) == pytest.approx(n - 1)
        assert gp.preprocessing_information(0.5, n, formula="eq67") == pytest.approx(n - 1)
    assert gp.preprocessing_information(0.8, 3) == pytest.approx(gp.preprocessing_information(0.2, 3))
    with pytest.raises(InputError):
        gp.preprocessing_information(0.2, 1)
    with pytest.raises(InputError):
        gp.preprocessing_information(0.2, 3, formula="eq68")


def test_ypre_nonbinary_and_uniformiser():
    m = np.array([0.5, 0.3, 0.2])
    U = gp.uniformizing_channel(m)
    np.testing.assert_allclose(U @ m, np.ones(3) / 3)
    np.testing.assert_allclose(U.sum(0), 1)
    res = gp.preprocessing_mechanism(np.multiply.outer(np.outer(m, m), m))
    assert res.check.is_private and res.predicted is None and res.information > 0
    # binary q > 1/2: roles of 0 and 1 swap
    res = gp.preprocessing_mechanism(_iid(0.7, 3))
    assert res.check.is_private and res.information == pytest.approx(gp.preprocessing_information(0.3, 3), abs=1e-9)
    with pytest.raises(InputError):
        gp.preprocessing_mechanism(np.full((2, 3), 1 / 6))


@pytest.mark.parametrize("q,opt,n_vert,par,pre,pre67", [
    (0.1, 0.3432, 42, 0.1841, 0.0652, 0.0351),
    (0.2, 1.0655, 42, 0.6081, 0.2872, 0.1692),
    (0.3, 1.7911, 52, 1.1956, 0.7212, 0.4784),
    (0.4, 2.2278, 118, 1.9211, 1.4682, 1.1434),
    (0.5, 3.0, 48, 3.0, 3.0, 3.0),
])
def test_fig4_values_n4(q, opt, n_vert, par, pre, pre67):
    """Spec §4.7 (Fig. 4 oracles, n = 4 i.i.d. Bern(q)): optimal, Y_par, Y_pre exact and eq. (67), Lemma 6."""
    p = _iid(q, 4)
    res = gp.self_disclosure(p)
    assert res.value == pytest.approx(opt, abs=5e-5) and res.n_vertices == n_vert
    assert gp.partial_processing(p).information == pytest.approx(par, abs=5e-5)
    assert gp.preprocessing_mechanism(p).information == pytest.approx(pre, abs=5e-5)
    assert gp.preprocessing_information(q, 4, formula="eq67") == pytest.approx(pre67, abs=5e-5)
    b = gp.self_disclosure_bounds(p)
    assert b.lower - 1e-9 <= res.value <= b.upper + 1e-9
    assert b.upper / b.h_w == pytest.approx(0.75)  # Lemma 6: eta <= 1 - 1/n


@pytest.mark.parametrize("q,par,pre67,pre", [
    (0.05, 0.0626, 0.0094, 0.1812), (0.1, 0.1308, 0.0249, 0.2303), (0.2, 0.2808, 0.0781, 0.3275),
    (0.3, 0.4522, 0.1810, 0.4491), (0.4, 0.6595, 0.3925, 0.6282), (0.45, 0.7916, 0.5911, 0.7638), (0.5, 1, 1, 1),
])
def test_fig5_asymptotic_efficiencies(q, par, pre67, pre):
    """Spec §4.7 (Fig. 5 table)."""
    assert gp.binary_iid_asymptotic_efficiency(q, "par") == pytest.approx(par, abs=5e-5)
    assert gp.binary_iid_asymptotic_efficiency(q, "pre_eq67") == pytest.approx(pre67, abs=5e-5)
    assert gp.binary_iid_asymptotic_efficiency(q, "pre") == pytest.approx(pre, abs=5e-5)


def test_asymptotic_crossover_at_one_minus_inverse_sqrt2():
    """Spec §4.7: exact eta_pre,inf > eta_par,inf exactly for q < 1 - 1/sqrt 2."""
    from scipy.optimize import brentq

    f = lambda q: gp.binary_iid_asymptotic_efficiency(q, "pre") - gp.binary_iid_asymptotic_efficiency(q, "par")  # noqa: E731
    assert brentq(f, 0.2, 0.4, xtol=1e-14) == pytest.approx(1 - 1 / math.sqrt(2), abs=1e-10)
    with pytest.raises(InputError):
        gp.binary_iid_asymptotic_efficiency(0.2, "opt")


def test_uniform_bits_self_disclosure_meets_lemma6():
    for n in (2, 3, 4):
        p = np.full((2,) * n, 0.5**n)
        res = gp.self_disclosure(p)
        assert res.value == pytest.approx(n - 1)
        assert gp.self_disclosure_bounds(p).upper == pytest.approx(n - 1)


# ------------------------------------------------------------------ window privacy (Cor. 4.1, Ex. 3)
@pytest.mark.parametrize("M,n,k,expected", [(2, 3, 2, 1.0), (2, 4, 2, 2.0), (3, 3, 2, math.log2(3)), (2, 4, 3, 1.0)])
def test_window_privacy_oracle(M, n, k, expected):
    """Spec §4.6: optimal window-private self-disclosure = (n - k) log2 M, achieved by Example 3's mechanism."""
    p = np.full((M,) * n, M ** -n)
    windows = [tuple(range(i, i + k)) for i in range(n - k + 1)]
    res = gp.self_disclosure(p, protected=windows)
    assert res.value == pytest.approx(expected, abs=1e-9)
    assert gp.verify_sample_privacy(res.mapping, p, protected=windows).is_private
    K = gp.window_sum_mechanism(M, n, k)
    chk = gp.verify_sample_privacy(K, p, protected=windows)
    assert chk.is_private and chk.information == pytest.approx(expected, abs=1e-9)


# ------------------------------------------------------------------ asymptotics (Section IV)
def test_latent_reduction_and_limits():
    """Spec §4.4/4.5: merge test, C_1(0), J(W, X^n) and the Prop. 5 / Remark 5 chain."""
    r = gp.latent_reduction([0.25, 0.25, 0.5], [[0.8, 0.8, 0.3], [0.2, 0.2, 0.7]])
    assert r.merge.tolist() == [0, 0, 1] and r.value == pytest.approx(1.0)
    np.testing.assert_allclose(r.p_w_tilde, [0.5, 0.5])
    assert gp.output_perturbation_capacity(TABLE1["p_w"], TABLE1["p_x_given_w"]) == pytest.approx(0, abs=1e-12)
    Js = [gp.genie_disclosure(TABLE1["p_w"], TABLE1["p_x_given_w"], n) for n in (1, 2, 3)]
    np.testing.assert_allclose(Js, [0.192494, 0.162171, 0.146310], atol=5e-7)
    pw, cx = np.ones(3) / 3, np.array([[0.9, 0.5, 0.1], [0.1, 0.5, 0.9]])
    c1 = gp.output_perturbation_capacity(pw, cx)
    J = [gp.genie_disclosure(pw, cx, n) for n in (1, 2, 3)]
    np.testing.assert_allclose(J, [1.051629, 1.051629, 0.992694], atol=5e-7)
    joint = cx * pw[None, :]
    h_w_given_x = H(joint) - H(joint.sum(1))
    assert max(0, math.log2(3) - 1) <= c1 + 1e-9 <= J[2] + 1e-9 <= J[1] + 2e-9 <= J[0] + 3e-9 <= h_w_given_x + 3e-9
    assert c1 == pytest.approx(0.9183, abs=5e-5) and h_w_given_x == pytest.approx(1.2310, abs=5e-5)
    Is = [gp.synergistic_disclosure(*gp.iid_samples_model(pw, cx, n)).value for n in (2, 3, 4)]
    np.testing.assert_allclose(Is, [0.077658, 0.154413, 0.236956], atol=5e-7)


def test_iid_model_matches_bayes():
    pw, px = gp.iid_samples_model([0.5, 0.5], [[0.9, 0.2], [0.1, 0.8]], 2)
    assert px.shape == (2, 2) and pw.shape == (2, 2, 2)
    assert px[0, 1] == pytest.approx(0.5 * 0.9 * 0.1 + 0.5 * 0.2 * 0.8)
    np.testing.assert_allclose(pw.sum(0), 1)
    assert pw[0, 0, 0] == pytest.approx(0.5 * 0.81 / (0.5 * 0.81 + 0.5 * 0.04))
    with pytest.raises(DistributionError):
        gp.iid_samples_model([0.5, 0.5], [[0.9, 0.2], [0.2, 0.8]], 2)
    with pytest.raises(InputError):
        gp.iid_samples_model([0.5, 0.5], [[0.9], [0.1]], 2)


def test_quantile_sum_mechanism_theorem5():
    """Theorem 5: quantised modular sum of two independent continuous samples; Y independent of each bin index."""
    rng = np.random.default_rng(1)
    K, n = 4, 4000
    x1, x2 = rng.normal(size=n), rng.exponential(size=n)
    y = gp.quantile_sum_mechanism(x1, x2, K)
    assert set(np.unique(y).tolist()) == set(range(K))
    b1 = (np.argsort(np.argsort(x1)) * K) // n
    table = np.zeros((K, K))
    np.add.at(table, (b1, y), 1)
    assert mi(table / n) < 0.01  # empirical independence of Y and X_1's bin
    with pytest.raises(InputError):
        gp.quantile_sum_mechanism(x1, x2[:10], K)


# ------------------------------------------------------------------ properties on random models
@st.composite
def random_models(draw):
    seed = draw(st.integers(0, 2**31 - 1))
    rng = np.random.default_rng(seed)
    n = int(rng.integers(2, 4))
    sizes = tuple(int(s) for s in rng.integers(2, 4, n))
    total = int(np.prod(sizes))
    k = int(rng.integers(2, min(total, 9) + 1))
    idx = rng.choice(total, size=k, replace=False)
    p = np.zeros(total)
    p[idx] = rng.dirichlet(np.ones(k)) + 0.01
    p /= p.sum()
    nw = int(rng.integers(2, 4))
    pw = rng.dirichlet(np.ones(nw) * 0.7, size=total).T
    return p.reshape(sizes), pw.reshape((nw,) + sizes)


@settings(max_examples=40, deadline=None)
@given(random_models())
def test_lp_properties_on_random_models(model):
    p, pw = model
    res = gp.synergistic_disclosure(pw, p, method="bases")
    h_w = res.h_w
    assert -1e-9 <= res.value <= h_w + 1e-9  # the LP optimum never exceeds H(W)
    assert res.value <= res.upper_bound + 1e-9  # Prop. 2
    assert res.n_outputs <= res.hypergraph.nullity + 1  # Prop. 3
    if res.value > 1e-9:  # Corollary 1.1 (for Algorithm 2's vertex decompositions)
        assert res.n_outputs >= math.ceil(res.hypergraph.n_edges / res.hypergraph.rank)
    assert res.information == pytest.approx(res.value, abs=1e-8)
    chk = gp.verify_sample_privacy(res.mapping, p, p_w_given_xn=pw)
    assert chk.is_private and max(chk.leakage) < 1e-9
    assert chk.disclosure == pytest.approx(res.value, abs=1e-8)
    feasible = gp.is_disclosure_feasible(pw, p)
    if not feasible:  # Prop. 1: I_s = 0 iff P_{W|X} kills Null(P)
        assert res.value == pytest.approx(0, abs=1e-9)
    if res.value > 1e-9:
        assert feasible
    s = gp.self_disclosure(p, method="bases")
    assert s.value >= res.value - 1e-9  # data processing: Î_s >= I_s
    b = gp.self_disclosure_bounds(p)
    assert b.lower - 1e-9 <= s.value <= b.upper + 1e-9
    if res.hypergraph.nullity == 0:
        assert res.value == pytest.approx(0, abs=1e-12) and not feasible


@settings(max_examples=30, deadline=None)
@given(random_models())
def test_self_disclosure_additive_over_components(model):
    """Spec §5.5: Î_s(X^n) = sum_k pi_k Î_s(X^n | kappa = k)."""
    p, _ = model
    hg = gp.SampleHypergraph.from_pmf(p)
    comp = hg.components()
    total = 0.0
    for k, grp in enumerate(comp.edge_groups()):
        total += comp.mass[k] * gp.self_disclosure(hg.restrict(grp)).value
    assert gp.self_disclosure(hg).value == pytest.approx(total, abs=1e-8)


def test_verifier_detects_leaks():
    p = np.full((2, 2), 0.25)
    chk = gp.verify_sample_privacy([[1, 1, 0, 0], [0, 0, 1, 1]], p)
    assert not chk.is_private and chk.leakage == pytest.approx((1.0, 0.0)) and chk.max_violation == pytest.approx(0.25)
    with pytest.raises(DistributionError, match="sum to 1"):
        gp.verify_sample_privacy([[0.5, 1, 0, 0], [0, 0, 1, 1]], p)
    with pytest.raises(InputError, match="shape"):
        gp.verify_sample_privacy(np.ones((1, 3)), p)


# ------------------------------------------------------------------ bad input
def test_bad_input_errors():
    with pytest.raises(DistributionError, match="sums to"):
        gp.synergistic_disclosure(EX2_PW_PAPER, EX2_P * 1.1)
    with pytest.raises(InputError, match="shape"):
        gp.synergistic_disclosure(np.ones((2, 3, 2)) / 2, EX2_P)
    with pytest.raises(InputError, match="shape"):
        gp.synergistic_disclosure(np.ones((2, 5)) / 2, EX2_P)
    with pytest.raises(DistributionError, match="sum to 1"):
        gp.synergistic_disclosure(np.ones((2, 6)), EX2_P)
    with pytest.raises(DistributionError, match="negative"):
        gp.synergistic_disclosure(np.array([[1.5] * 6, [-0.5] * 6]), EX2_P)
    with pytest.raises(TooLargeError, match="support points"):
        gp.self_disclosure(np.full((2,) * 6, 1 / 64))
    with pytest.raises(InputError, match="protected"):
        gp.self_disclosure(EX2_P, protected=[(0, 2)])
    with pytest.raises(InputError, match="protected"):
        gp.self_disclosure(EX2_P, protected=[])
    with pytest.raises(InputError, match="method"):
        gp.self_disclosure(EX2_P, method="simplex")
    with pytest.raises(InputError):
        gp.modular_sum_mechanism([2, 2], 0)
    with pytest.raises(InputError):
        gp.window_sum_mechanism(2, 2, 3)
    with pytest.raises(ValueError, match="base"):
        gp.self_disclosure(EX2_P, base=1)


def test_base_nats():
    res = gp.synergistic_disclosure([[1, 0, 0, 1], [0, 1, 1, 0]], np.full((2, 2), 0.25), base="e")
    assert res.value == pytest.approx(math.log(2)) and "base" in repr(res)


# ------------------------------------------------------------------ Corollary 3.1, Prop. 4
def _cor31_channel(dependent: bool) -> np.ndarray:
    """X = (X', V), W = (W', V); codes w = 2 w' + v, x = 2 x' + v."""
    pxv = np.array([[0.8, 0.3], [0.2, 0.7]])
    C = np.zeros((4, 4))
    for wp, v, xp in itertools.product(range(2), range(2), range(2)):
        C[2 * xp + v, 2 * wp + v] = (0.8 if xp == wp else 0.2) if dependent else pxv[xp, v]
    return C


@pytest.mark.parametrize("n,dependent,expected", [(2, False, 0.0), (3, False, 0.0), (2, True, 0.0111), (3, True, 0.0369)])
def test_corollary31_common_part_blocks_disclosure(n, dependent, expected):
    """Spec §4.9: with W' independent of X' given V, I_s = 0 (H_n has 2 components, the values of V);
    if X' depends on W' (BSC(0.2)) I_s = 0.0111 (n = 2), 0.0369 (n = 3)."""
    J = np.array([[0.3, 0.2], [0.1, 0.4]])
    p_w = np.array([J[wp, v] for wp in range(2) for v in range(2)])
    pw, px = gp.iid_samples_model(p_w, _cor31_channel(dependent), n)
    res = gp.synergistic_disclosure(pw, px)
    assert res.hypergraph.components().n_components == 2
    assert round(res.value, 4) == expected
    assert gp.is_disclosure_feasible(pw, px) == dependent


def test_prop4_mapping_independent_of_w_when_nullity_one():
    """Prop. 4 (with the spec's nul(P) = 1 hypothesis): the optimal mapping depends on p_X only."""
    rng = np.random.default_rng(11)
    p = rng.dirichlet(np.ones(4)).reshape(2, 2)
    maps = []
    for _ in range(5):
        pw = rng.dirichlet(np.ones(3), size=4).T
        res = gp.synergistic_disclosure(pw, p)
        if res.value > 1e-9:
            maps.append(res.mapping)
    assert len(maps) >= 2 and all(_same_rows(m, maps[0], atol=1e-8) for m in maps)


def test_prop4_counterexample_mapping_depends_on_w():
    """Spec §6.8: |supp| = sum|X_i| - n + 2 but nul(P) = 2 (disconnected H_2): optima depend on W."""
    sup = [t for t in itertools.product(range(3), range(3)) if t not in [(2, 2), (0, 2)]] + [(3, 3)]
    w = np.array([1, 2, 1, 2, 1, 2, 1, 2.0])
    hg = gp.SampleHypergraph.from_support([4, 4], sup, w / w.sum())
    assert hg.nullity == 2
    rng = np.random.default_rng(1)
    seen = set()
    for _ in range(20):
        pw = rng.dirichlet(np.ones(3) * 0.5, size=16).T
        res = gp.synergistic_disclosure(pw, hg)
        seen.add(tuple(sorted(tuple(np.round(r, 6)) for r in res.posteriors)))
    assert len(seen) > 1


def test_precomputed_vertices_are_validated():
    with pytest.raises(InputError, match="vertices"):
        gp.synergistic_disclosure(EX2_PW_PAPER, EX2_P, vertices=np.full((2, 6), 1 / 6))
    with pytest.raises(InputError, match="shape"):
        gp.synergistic_disclosure(EX2_PW_PAPER, EX2_P, vertices=np.ones((2, 4)))


@settings(max_examples=30, deadline=None)
@given(random_models())
def test_merging_parts_only_lowers_disclosure(model):
    """Spec §5.6: protecting (X_1, X_2) jointly (merging two parts of H_n) shrinks Null(P) and S, so I_s decreases;
    protecting nothing beyond X_1 (deleting parts) enlarges them, so I_s increases."""
    p, pw = model
    n = p.ndim
    base = gp.synergistic_disclosure(pw, p, method="bases").value
    merged = gp.synergistic_disclosure(pw, p, protected=[(0, 1)] + [(i,) for i in range(2, n)], method="bases")
    assert merged.value <= base + 1e-9
    assert gp.verify_sample_privacy(merged.mapping, p, protected=[(0, 1)]).is_private
    fewer = gp.synergistic_disclosure(pw, p, protected=[(0,)], method="bases")
    assert fewer.value >= base - 1e-9


def test_asymptotic_bounds_chain():
    """Prop. 5 chain on spec §4.5's model and the Table I model (C_1(0) = 0, C_2(0) = 0.1925)."""
    b = gp.asymptotic_bounds(np.ones(3) / 3, [[0.9, 0.5, 0.1], [0.1, 0.5, 0.9]])
    assert b.lower <= b.c1_zero <= b.c2_zero <= b.h_wtilde_given_x + 1e-12 <= b.h_w_given_x + 1e-12
    np.testing.assert_allclose([b.lower, b.c1_zero, b.c2_zero, b.h_w_given_x, b.c_x], [0.5850, 0.9183, 1.0516, 1.2310, 1.5850], atol=5e-5)
    t = gp.asymptotic_bounds(TABLE1["p_w"], TABLE1["p_x_given_w"])
    assert t.c1_zero == pytest.approx(0, abs=1e-12) and t.c2_zero == pytest.approx(0.1925, abs=5e-5)
    # merged W: H(W~|X) < H(W|X)
    m = gp.asymptotic_bounds([0.25, 0.25, 0.5], [[0.8, 0.8, 0.3], [0.2, 0.2, 0.7]])
    assert m.h_wtilde_given_x < m.h_w_given_x and m.c_x == pytest.approx(1.0)
