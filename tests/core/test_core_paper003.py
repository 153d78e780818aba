"""Paper 003 numbers that depend only on the core layer (Fig. 1, Example 1, Section IV) and the Hungarian counts."""

import math

import pytest

import graphpriv as gp


@pytest.fixture(scope="module")
def fig1():
    jr, values = gp.datasets.paper_example()
    return jr


def test_fig1_range_shape(fig1):
    # paper 003, Fig. 1: [[S]] = {s1..s6}, [[X]] = {x1..x7}
    assert fig1.n_sensitive == 6 and fig1.n_public == 7 and fig1.n_pairs == 8
    assert fig1.conditional_range("x1") == {"s1", "s2"}
    assert fig1.conditional_range("x3") == fig1.conditional_range("x4") == {"s3"}


def test_fig2_finest_decomposition(fig1):
    # paper 003, Fig. 2 caption and Example 1: P* = {{x1,x2},{x3,x4},{x5},{x6},{x7}}
    assert gp.finest_decomposition(fig1) == [
        frozenset({"x1", "x2"}), frozenset({"x3", "x4"}), frozenset({"x5"}), frozenset({"x6"}), frozenset({"x7"})
    ]


def test_example1_overlap_partition(fig1):
    # paper 003, Example 1 (erratum: the paper lists {s4} twice; the second is {s5})
    assert gp.overlap_partition(fig1) == [
        frozenset({"s1", "s2"}), frozenset({"s3"}), frozenset({"s4"}), frozenset({"s5"}), frozenset({"s6"})
    ]


def test_example1_maximin_information(fig1):
    # paper 003, Example 1: I*(S;X) = log 5
    assert gp.maximin_information(fig1) == pytest.approx(math.log2(5))
    assert gp.I_star(fig1, base=math.e) == pytest.approx(math.log(5))


def test_fig1_uncertainty_measures(fig1):
    # Section III-A on Fig. 1: |S| = 6, max |S|x| = 2 (x1), min |S|x| = 1
    assert gp.H0(fig1) == pytest.approx(math.log2(6))
    assert gp.H0(fig1, given="X") == pytest.approx(1.0)
    assert gp.H0(fig1, variable="X") == pytest.approx(math.log2(7))
    assert gp.I0(fig1) == pytest.approx(math.log2(6 / 2))
    assert gp.L0(fig1) == pytest.approx(math.log2(6))
    assert gp.B0(fig1) == 0.0
    assert gp.k_anonymity(fig1) == 1
    # Proposition 1: I* <= L0
    assert gp.maximin_information(fig1) <= gp.L0(fig1)


def test_example1_min_cut_sets(fig1):
    # paper 003, Example 1 / eq. (1): 2^5 - 2 = 30 min-cut solutions, each a union of components
    sets = gp.min_cut_sets(fig1)
    assert sets.value == 0
    assert sets.count == 30
    sols = list(sets)
    assert len(set(sols)) == 30
    assert frozenset({"x1", "x2", "x3", "x4"}) in sets and frozenset({"x5", "x6", "x7"}) in sets
    assert frozenset({"x1"}) not in sets
    # Section IV ("intersection of argmin" = inclusion-minimal min-cut sets, see DESIGN errata)
    assert sets.minimal == gp.finest_decomposition(fig1)


@pytest.mark.parametrize("backend", gp.BACKENDS)
def test_fig2_min_cut_zero(fig1, backend):
    # Fig. 2 caption: min cut and connectivity of G_X are 0
    cut = gp.min_cut(fig1, backend=backend)
    assert cut.value == 0 and cut.decomposable
    assert cut.side == frozenset({"x1", "x2"})
    assert gp.min_cut(fig1, "x1", "x2", backend=backend).value == 1
    assert gp.min_cut(fig1, "x1", "x3", backend=backend).value == 0


def test_laplacian_method(fig1):
    # Section IV, Laplacian method [33, Remark 6]: multiplicity of eigenvalue 0 = #components
    k, parts = gp.laplacian_decomposition(fig1)
    assert k == 5 and parts == gp.finest_decomposition(fig1)


def test_hungarian_counts():
    # paper 003, Section VII-B: 293 patients, 38 ages, 154 cholesterol values, 281 pairs, 269 seen once
    df = gp.datasets.load_hungarian(drop_duplicates=True)
    jr = gp.JointRange.from_dataframe(df, sensitive="age", public="chol", missing="keep")
    assert len(df) == 293
    assert (jr.n_sensitive, jr.n_public, jr.n_pairs, jr.n_singleton_pairs) == (38, 154, 281, 269)
    assert gp.MISSING in set(jr.public_labels.tolist())
    # DESIGN.md: G_X has 2 components (age 28 with cholesterol 132 isolated), I* = 1 bit
    comps = gp.finest_decomposition(jr)
    assert sorted(len(c) for c in comps) == [1, 153]
    assert frozenset({132}) in comps
    assert jr.conditional_range(132) == {28}
    assert gp.maximin_information(jr) == pytest.approx(1.0)
    assert gp.is_decomposable(jr)


def test_hungarian_raw_table():
    df = gp.datasets.load_hungarian()
    assert df.shape == (294, 14)
    assert list(df.columns[:5]) == ["age", "sex", "cp", "trestbps", "chol"]
    assert int(df["chol"].isna().sum()) == 23
    assert df.duplicated().sum() == 1
    # dropping missing cholesterol does NOT give the paper's counts (data README, row 3)
    jr = gp.JointRange.from_dataframe(df, "age", "chol", missing="drop")
    assert jr.source.n_dropped == 23
    assert (jr.n_sensitive, jr.n_public, jr.n_pairs) == (37, 153, 266)
    with pytest.raises(gp.MissingValueError, match="'chol' has 23 missing"):
        gp.JointRange.from_dataframe(df, "age", "chol")


def test_hungarian_range_helper():
    jr = gp.datasets.hungarian_range()
    assert jr.n_pairs == 281 and jr.source.n_missing_public == 22
