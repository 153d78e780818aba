"""The principal-sequence tree: leaves cover the nodes once, heights are the critical values, large graphs
are bundled to at most ``max_leaves`` leaves."""

import matplotlib

matplotlib.use("Agg")

import numpy as np  # noqa: E402
import pytest  # noqa: E402

import graphpriv as gp  # noqa: E402

pytestmark = pytest.mark.usefixtures("close_figures")


def _leaf_cover(ax, n):
    leaves = ax.graphpriv_psp["leaves"]
    allm = np.sort(np.concatenate(leaves))
    return np.array_equal(allm, np.arange(n))


def test_small_graph_draws_every_node_with_its_label():
    jr, _ = gp.datasets.paper_example()
    seq = gp.principal_partitions(jr)
    ax = gp.viz.plot_principal_partitions(seq)
    assert _leaf_cover(ax, seq.n_nodes) and len(ax.graphpriv_psp["leaves"]) == 7
    assert [t.get_text() for t in ax.get_xticklabels()] == ["x1", "x2", "x3", "x4", "x5", "x6", "x7"]
    assert ax.graphpriv_psp["level"] == len(seq)
    # the splits (dots) sit at the critical values
    heights = sorted(set(np.round(ax.collections[1].get_offsets()[:, 1], 9).tolist()))
    assert heights == sorted(set(seq.values.tolist()))
    assert "2 critical values" in ax.get_title()


@pytest.mark.parametrize("graph", ["confusability", "support"])
def test_hungarian_and_large_ranges_stay_within_max_leaves(graph):
    for jr in (gp.datasets.hungarian_range(), gp.random_joint_range(300, 600, 0.01, seed=1)):
        seq = gp.principal_partitions(jr, graph=graph)
        ax = gp.viz.plot_principal_partitions(seq, max_leaves=40)
        leaves = ax.graphpriv_psp["leaves"]
        assert len(leaves) <= 40 and _leaf_cover(ax, seq.n_nodes)
        labels = [t.get_text() for t in ax.get_xticklabels()]
        assert len(labels) == len(leaves) and all(labels)
        # every drawn leaf is a union of blocks of the deepest level drawn
        row = seq.memberships[ax.graphpriv_psp["level"]]
        for g in leaves:
            blocks = set(row[g].tolist())
            assert sum((row == b).sum() for b in blocks) == len(g)


def test_bad_input():
    with pytest.raises(gp.InputTypeError):
        gp.viz.plot_principal_partitions("not a sequence")
    seq = gp.principal_partitions(gp.datasets.paper_example()[0])
    with pytest.raises(gp.InputError):
        gp.viz.plot_principal_partitions(seq, max_leaves=1)
