"""JointRange constructors, accessors, equality and bad input."""

import numpy as np
import pandas as pd
import pytest
import scipy.sparse as sp

import graphpriv as gp


def test_from_pairs_sorted_labels_and_counts():
    jr = gp.JointRange.from_pairs(["b", "a", "a", "b", "a"], [3, 1, 1, 2, 2])
    assert jr.sensitive_labels.tolist() == ["a", "b"]
    assert jr.public_labels.tolist() == [1, 2, 3]
    assert jr.n_pairs == 4
    assert jr.counts.toarray().tolist() == [[2, 1, 0], [0, 1, 1]]
    assert jr.n_singleton_pairs == 3
    assert jr.conditional_range(2) == {"a", "b"} and jr.public_range("a") == {1, 2}
    assert sorted(jr.pairs()) == [("a", 1), ("a", 2), ("b", 2), ("b", 3)]
    df = jr.to_frame()
    assert list(df.columns) == ["sensitive", "public", "count"] and df["count"].sum() == 5


def test_mixed_labels_keep_first_appearance():
    jr = gp.JointRange.from_pairs([1, "a", 1], ["x", 2, 2])
    assert len(jr.sensitive_labels) == 2 and jr.n_pairs == 3


def test_from_matrix_and_pmf_agree():
    m = np.array([[1, 1, 0], [0, 1, 0], [0, 0, 1]])
    a = gp.JointRange.from_matrix(m)
    b = gp.JointRange.from_matrix(sp.csr_array(m.astype(bool)))
    p = m / m.sum()
    c = gp.JointRange.from_pmf(p)
    assert a == b == c
    assert a.sensitive_labels.tolist() == ["s1", "s2", "s3"]
    assert gp.JointDistribution(p).support() == a


def test_from_pmf_drops_zero_mass_symbols():
    p = np.array([[0.5, 0.0, 0.0], [0.0, 0.0, 0.5]])
    jr = gp.JointRange.from_pmf(p, ["a", "b"], ["u", "v", "w"])
    assert jr.public_labels.tolist() == ["u", "w"]


def test_equality_ignores_label_order():
    a = gp.JointRange.from_pairs(["a", "b"], [1, 2])
    b = gp.JointRange.from_matrix([[0, 1], [1, 0]], ["b", "a"], [1, 2])
    assert a == b
    assert a != gp.JointRange.from_pairs(["a", "b"], [1, 1])
    assert (a == "x") is False


def test_restrict_and_transpose():
    jr, _ = gp.datasets.paper_example()
    sub = jr.restrict(public=["x1", "x2", "x5"])
    assert sub.public_labels.tolist() == ["x1", "x2", "x5"]
    assert sub.sensitive_labels.tolist() == ["s1", "s2", "s4"]
    assert gp.maximin_information(sub) == pytest.approx(1.0)
    t = jr.transpose()
    assert t.shape == (7, 6) and t.transpose() == jr
    with pytest.raises(gp.UnknownLabelError, match="'x9' is not a public value"):
        jr.restrict(public=["x9"])


def test_from_dataframe_missing_policies():
    df = pd.DataFrame({"s": [1, 2, 2, None], "x": ["a", None, "b", "c"], "other": range(4)})
    with pytest.raises(gp.MissingValueError) as exc:
        gp.JointRange.from_dataframe(df, sensitive="s", public="x")
    assert "'s' has 1 missing" in str(exc.value) and "'x' has 1 missing" in str(exc.value)
    d = gp.JointRange.from_dataframe(df, sensitive="s", public="x", missing="drop")
    assert d.source.n_dropped == 2 and d.n_pairs == 2
    assert d.sensitive_labels.tolist() == [1, 2]  # integral floats become ints
    k = gp.JointRange.from_dataframe(df, sensitive="s", public="x", missing="keep")
    assert k.n_pairs == 4 and k.public_labels.tolist()[-1] is gp.MISSING
    assert k.conditional_range(gp.MISSING) == {2}


def test_from_dataframe_multi_column_labels():
    df = pd.DataFrame({"a": [1, 1, 2], "b": ["u", "v", "u"], "x": [0, 0, 1]})
    jr = gp.JointRange.from_dataframe(df, sensitive=["a", "b"], public="x")
    assert set(jr.sensitive_labels.tolist()) == {(1, "u"), (1, "v"), (2, "u")}


@pytest.mark.parametrize(
    "call, exc, match",
    [
        (lambda: gp.JointRange.from_pairs([], []), gp.InputError, "empty"),
        (lambda: gp.JointRange.from_pairs([1, 2], [1]), gp.InputError, "same length"),
        (lambda: gp.JointRange.from_pairs([[1], [2]], [1, 2]), gp.InputTypeError, "hashable"),
        (lambda: gp.JointRange.from_pairs([1, np.nan], [1, 2]), gp.MissingValueError, "missing='drop'"),
        (lambda: gp.JointRange.from_pairs("ab", "cd"), gp.InputTypeError, "sequence"),
        (lambda: gp.JointRange.from_pairs([1], [2], missing="ignore"), gp.InputError, "missing-value policy"),
        (lambda: gp.JointRange.from_dataframe(pd.DataFrame({"a": [1]}), "a", "b"), gp.UnknownColumnError, "unknown public column 'b'"),
        (lambda: gp.JointRange.from_dataframe(pd.DataFrame({"a": []}), "a", "a"), gp.InputError, "no rows"),
        (lambda: gp.JointRange.from_matrix([[1, 0], [0, 0]]), gp.InputError, "at least one pair"),
        (lambda: gp.JointRange.from_matrix([[0.5, 1]]), gp.InputError, "0/1"),
        (lambda: gp.JointRange.from_matrix([1, 0]), gp.InputError, "two-dimensional"),
        (lambda: gp.JointRange.from_matrix([[1, 1]], ["a", "b"]), gp.InputError, "one label per row"),
        (lambda: gp.JointRange.from_pmf([[0.5, 0.6]]), gp.DistributionError, "sums to"),
        (lambda: gp.JointRange.from_pmf([[-0.5, 1.5]]), gp.DistributionError, "negative"),
        (lambda: gp.JointRange.from_pmf([[np.nan, 1]]), gp.DistributionError, "NaN"),
        (lambda: gp.H0(gp.datasets.paper_example()[0], variable="Z"), gp.InputError, "'S'"),
        (lambda: gp.maximin_information([[1]]), gp.InputTypeError, "JointRange"),
        (lambda: gp.maximin_information(gp.datasets.paper_example()[0], base=1), gp.InputError, "base"),
        (lambda: gp.min_cut(gp.datasets.paper_example()[0], "x1"), gp.InputError, "both s and t"),
        (lambda: gp.min_cut(gp.datasets.paper_example()[0], backend="magic"), gp.InputError, "backend"),
    ],
)
def test_bad_input(call, exc, match):
    with pytest.raises(exc, match=match):
        call()


def test_errors_subclass_builtins():
    assert issubclass(gp.InputError, ValueError) and issubclass(gp.InputTypeError, TypeError)
    assert issubclass(gp.UnknownColumnError, KeyError)
    with pytest.raises(ValueError):
        gp.JointRange.from_pairs([], [])


def test_dense_graph_guard():
    # one sensitive value with many public values: G_X is a clique
    n = 3000
    jr = gp.JointRange.from_pairs(["s"] * n, range(n))
    assert gp.confusability_edge_count_bound(jr) == n * (n - 1) // 2
    with pytest.raises(gp.TooLargeError, match="max_edges"):
        gp.confusability_adjacency(jr, max_edges=1000)
    with pytest.warns(gp.DenseGraphWarning):
        gp.confusability_adjacency(jr)
    # I* never needs G_X
    assert gp.maximin_information(jr) == 0.0


def test_exports():
    jr, _ = gp.datasets.paper_example()
    G = gp.to_networkx(jr)
    assert set(G.nodes) == set(jr.public_labels.tolist())
    assert G.nodes["x3"]["component"] == 1 and G.nodes["x3"]["conditional_range"] == {"s3"}
    B = gp.to_networkx(jr, graph="bipartite")
    assert B.number_of_nodes() == 13 and B.number_of_edges() == 8
    assert B.nodes[("S", "s1")]["bipartite"] == 0 and B.nodes[("X", "x1")]["bipartite"] == 1
    g = gp.to_igraph(jr)
    assert g.vcount() == 7 and g.ecount() == 2 and g.vs["label"] == jr.public_labels.tolist()
    gb = gp.to_igraph(jr, graph="bipartite")
    assert gb.is_bipartite() and gb.ecount() == 8
    A = gp.confusability_adjacency(jr, weighted=True)
    assert A.shape == (7, 7) and A[0, 1] == 1 and A[0, 0] == 0
    with pytest.raises(gp.InputError):
        gp.to_networkx(jr, graph="tripartite")
