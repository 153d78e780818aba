"""JointDistribution: validation, constructors, zero-mass handling, link to JointRange (issue 5)."""

import numpy as np
import pandas as pd
import pytest

import graphpriv as gp
from graphpriv.errors import DistributionError, InputError, InputTypeError, UnknownLabelError


def test_from_matrix_with_labels_and_marginals():
    jd = gp.JointDistribution([[0.1, 0.2], [0.3, 0.4]], ["a", "b"], ["u", "v"])
    assert jd.shape == (2, 2) and jd.n_sensitive == 2 and jd.n_public == 2
    np.testing.assert_allclose(jd.p_s, [0.3, 0.7])
    np.testing.assert_allclose(jd.p_x, [0.4, 0.6])
    np.testing.assert_allclose(jd.p_x_given_s().sum(axis=1), 1)
    np.testing.assert_allclose(jd.p_s_given_x().sum(axis=0), 1)
    assert list(jd.sensitive_labels) == ["a", "b"]


@pytest.mark.parametrize(
    "P, exc",
    [
        ([[0.5, -0.1], [0.3, 0.3]], DistributionError),
        ([[0.5, np.nan], [0.3, 0.2]], DistributionError),
        ([[0.5, 0.5], [0.5, 0.5]], DistributionError),  # sums to 2
        ([0.5, 0.5], InputError),  # 1-D
        ([[]], InputError),
        ("abc", InputTypeError),
    ],
)
def test_bad_matrices(P, exc):
    with pytest.raises(exc):
        gp.JointDistribution(P)


def test_bad_labels():
    with pytest.raises(InputError):
        gp.JointDistribution([[0.5, 0.5]], ["a", "b"])
    with pytest.raises(InputError):
        gp.JointDistribution([[0.5, 0.5]], None, ["u", "u"])


def test_from_counts_and_dataframe_agree():
    df = pd.DataFrame({"s": ["a", "a", "b", "b", "b", "a"], "x": [1, 2, 1, 1, 2, 2]})
    jd = gp.JointDistribution.from_dataframe(df, "s", "x")
    np.testing.assert_allclose(jd.P, [[1 / 6, 2 / 6], [2 / 6, 1 / 6]])
    jc = gp.JointDistribution.from_counts([[1, 2], [2, 1]], ["a", "b"], [1, 2])
    assert jc == jd
    with pytest.raises(DistributionError):
        gp.JointDistribution.from_counts([[0, 0], [0, 0]])


def test_from_conditional_paper000_example1():
    # paper 000, Example 1: P_S = (0.3, 0.7), P_X = (0.41, 0.24, 0.22, 0.13)
    jd = gp.JointDistribution.from_conditional([[0.2, 0.1, 0.5, 0.2], [0.5, 0.3, 0.1, 0.1]], [0.3, 0.7])
    np.testing.assert_allclose(jd.p_x, [0.41, 0.24, 0.22, 0.13])
    np.testing.assert_allclose(jd.p_s, [0.3, 0.7])
    with pytest.raises(DistributionError):
        gp.JointDistribution.from_conditional([[0.2, 0.9], [0.5, 0.5]], [0.5, 0.5])
    with pytest.raises(InputError):
        gp.JointDistribution.from_conditional([[1.0]], [0.5, 0.5])


@pytest.mark.parametrize("scheme", ["uniform", "dirichlet", "cond_uniform"])
def test_random_is_a_seeded_pmf(scheme):
    a = gp.JointDistribution.random(5, 7, scheme, seed=3)
    b = gp.JointDistribution.random(5, 7, scheme, seed=3)
    assert a == b and a.shape == (5, 7)
    assert abs(a.P.sum() - 1) < 1e-12 and (a.P > 0).all()


def test_random_bad_input():
    with pytest.raises(InputError):
        gp.JointDistribution.random(3, 3, "gaussian")
    with pytest.raises(InputError):
        gp.JointDistribution.random(0, 3)
    with pytest.raises(InputTypeError):
        gp.JointDistribution.random(2.5, 3)


def test_zero_mass_handling_documented_behaviour():
    P = np.array([[0.3, 0.0, 0.2], [0.0, 0.0, 0.0], [0.1, 0.0, 0.4]])
    jd = gp.JointDistribution(P)
    assert jd.has_zero_mass
    L = jd.lift()
    assert np.isnan(L[1]).all() and np.isnan(L[:, 1]).all()      # zero-mass symbols: undefined
    d = jd.drop_zero_mass()
    assert d.shape == (2, 2) and list(d.public_labels) == ["x1", "x3"]
    # the support (a JointRange) has no zero-mass symbol
    sup = jd.support()
    assert isinstance(sup, gp.JointRange)
    assert sup.n_pairs == 4


def test_support_links_to_graph_measures():
    jd = gp.JointDistribution([[0.5, 0.0], [0.0, 0.5]])
    assert gp.n_components(jd.support()) == 2
    assert gp.maximin_information(jd.support()) == pytest.approx(1.0)


def test_public_mask_labels_codes_masks():
    jd = gp.JointDistribution.random(2, 4, seed=0)
    np.testing.assert_array_equal(jd.public_mask(["x2", "x4"]), [False, True, False, True])
    np.testing.assert_array_equal(jd.public_mask([1, 3]), [False, True, False, True])
    np.testing.assert_array_equal(jd.public_mask(np.array([True, False, False, False])), [True, False, False, False])
    with pytest.raises(UnknownLabelError):
        jd.public_mask(["nope"])
    with pytest.raises(InputError):
        jd.public_mask(np.array([True, False]))


def test_to_frame_lists_positive_pairs():
    jd = gp.JointDistribution([[0.25, 0.25], [0.0, 0.5]])
    f = jd.to_frame()
    assert len(f) == 3 and f["p"].sum() == pytest.approx(1.0)
