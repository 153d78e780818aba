"""The matrix view and the merge hierarchy list the public values in one left-to-right order wherever they
are drawn together (the merge view of a step, the explorer), on the Hungarian data of Ding & Farokhi,
*Developing Non-Stochastic Privacy-Preserving Policies Using Agglomerative Clustering*, Section VI
(S = age, X = cholesterol), for Algorithms 1 and 2 and Section V-C."""

from __future__ import annotations

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402
import numpy as np  # noqa: E402
import pytest  # noqa: E402
from scipy.cluster.hierarchy import fcluster, is_valid_linkage  # noqa: E402

import graphpriv as gp  # noqa: E402
from graphpriv.errors import InputError  # noqa: E402
from graphpriv.viz.labels import hierarchy_linkage, hierarchy_order, label_key  # noqa: E402
from graphpriv.viz.matrix import matrix_bands  # noqa: E402


@pytest.fixture(scope="module")
def hungarian():
    jr = gp.datasets.hungarian_range(missing="drop")
    values = {x: float(x) for x in jr.public_labels.tolist()}
    return jr, {
        "alg1": gp.agglomerate(jr, "L0", 0.0).trace,                                  # 77 pairs at t = 1
        "alg2": gp.agglomerate(jr, "I*", 0.03, utility="U2", values=values).trace,  # one merge, released
        "secVC": gp.agglomerate(jr, "L0|I*=0", 2.3).trace,
    }


def _groups(labels, ids):
    out = {}
    for x, k in zip(labels, ids):
        out.setdefault(int(k), set()).add(x)
    return sorted(map(frozenset, out.values()), key=lambda g: sorted(map(str, g)))


@pytest.mark.parametrize("name", ["alg1", "alg2", "secVC"])
def test_hierarchy_linkage_is_the_same_tree(hungarian, name):
    """Only children are swapped: a valid linkage with to_linkage()'s heights and sizes, the same flat
    clusters at every cut t + 0.5 (= Q(t)), and to_linkage() itself keeps leaves in public-code order."""
    _, tr = hungarian[0], hungarian[1][name]
    Z0, Z = tr.to_linkage(), hierarchy_linkage(tr)
    assert is_valid_linkage(Z, throw=True)
    assert np.array_equal(Z[:, 2:], Z0[:, 2:])
    assert np.array_equal(np.sort(Z[:, :2], axis=1), np.sort(Z0[:, :2], axis=1))
    assert np.all(Z0[:, 0] < Z0[:, 1])                       # the documented contract of to_linkage()
    labels = tr.public_labels
    for t in range(len(tr)):
        want = sorted(tr.quantization(t), key=lambda g: sorted(map(str, g)))
        assert _groups(labels, fcluster(Z, t + 0.5, "distance")) == want
    # every link puts the subtree holding the smaller value on the left
    assert sorted(hierarchy_order(tr).tolist()) == list(range(tr.n_public))
    n = tr.n_public
    low = [label_key(labels[i]) for i in range(n)]
    for a, b in Z[:, :2].astype(int).tolist():
        low.append(min(low[a], low[b]))
        assert low[a] <= low[b]


@pytest.mark.parametrize("name, t", [("alg1", 1), ("alg1", 5), ("alg2", 1), ("secVC", 1)])
def test_merge_view_matrix_and_dendrogram_share_the_order(hungarian, name, t):
    """The merge view (also every frame of animate_trace at this size): the matrix columns, left to right,
    are the dendrogram's leaves, left to right; each cluster of Q(t) is one band; the pairs merged at t sit
    at the same places in both."""
    jr, tr = hungarian[0], hungarian[1][name]
    fig = gp.viz.plot_merge_view(tr, jr, t)
    (mat,) = [ax for ax in fig.axes if hasattr(ax, "graphpriv_bands")]
    (hier,) = [ax for ax in fig.axes if hasattr(ax, "graphpriv_dendrogram")]
    cols = mat.graphpriv_bands.order.tolist()
    leaves = [int(v) for v in hier.graphpriv_dendrogram["leaves"]]
    assert cols == leaves
    # and each leaf is drawn under its column: the tree's x axis is the matrix's, ten units per column
    cells = gp.viz.matrix.matrix_cells(tr, jr, t, order="hierarchy")
    assert hier.get_xlim() == (0.0, 10.0 * cells.width)
    assert np.allclose(np.asarray(mat.get_xlim()) * 10 + 5, hier.get_xlim())
    (coll,) = [c for c in hier.collections if c.get_gid() == "graphpriv-component-strip"]   # one cell per leaf
    strip = sorted(float(path.vertices[:, 0].min()) for path in coll.get_paths())
    assert len(strip) == len(cols)
    assert np.allclose(strip, 10 * np.sort(cells.xpos))
    # the drawn leaf labels / merged-cluster ticks and the matrix's merged outlines read left to right alike
    labels = tr.public_labels
    ids = tr.cluster_ids(t)[np.asarray(cols)]
    assert len(ids[np.r_[True, ids[1:] != ids[:-1]]]) == len(set(ids.tolist()))   # clusters contiguous
    merged = [frozenset(a | b) for a, b in tr.steps[t].merged]
    code = {x: i for i, x in enumerate(labels)}
    where = [min(cols.index(code[x]) for x in m) for m in merged]
    # each merged cluster outlined inside its band, or (many merged clusters) marked by a tick over its band
    xpos = gp.viz.matrix.matrix_cells(tr, jr, t, order="hierarchy").xpos
    lefts = sorted({float(xpos[w]) - 0.5 for w in where})
    outlines = sorted(p.get_x() for p in mat.patches if p.get_gid() == "graphpriv-merged")
    marks = sorted(float(seg[0, 0]) for c in mat.collections if c.get_gid() == "graphpriv-merged-marks"
                   for seg in c.get_segments())
    assert len(outlines) + len(marks) == len(lefts)
    if outlines:
        assert all(0 <= o - x < 0.5 for o, x in zip(outlines, lefts))
    else:
        bands = [(a, c) for a, c in mat.graphpriv_bands.cluster_bounds if any(a <= w < c for w in where)]
        assert np.allclose(marks, [(xpos[a] + xpos[c - 1]) / 2 for a, c in bands])
    plt.close(fig)


def test_alg2_merged_pair_on_the_same_side(hungarian):
    """Algorithm 2's only merge (129 + 132) is at the left of the matrix and of the dendrogram."""
    jr, tr = hungarian[0], hungarian[1]["alg2"]
    (a, b), = tr.steps[1].merged
    code = {x: i for i, x in enumerate(tr.public_labels)}
    pair = {code[x] for x in a | b}
    cols = matrix_bands(tr, jr, 1, order="hierarchy").order.tolist()
    pos = sorted(cols.index(c) for c in pair)
    assert pos == [pos[0], pos[0] + 1] and pos[0] < tr.n_public / 2
    ax = gp.viz.plot_merge_hierarchy(tr, 1)
    assert [int(v) for v in ax.graphpriv_dendrogram["leaves"]][pos[0]:pos[0] + 2] == [cols[p] for p in pos]
    plt.close("all")


@pytest.mark.parametrize("name", ["alg1", "alg2"])
def test_explorer_matrix_and_hierarchy_share_the_order(hungarian, name):
    """In the explorer's payload the matrix's columns are the hierarchy's leaves (hierarchy_order), and at every
    step each cluster of Q(t) is a run of consecutive columns, read left to right."""
    jr, tr = hungarian[0], hungarian[1][name]
    d = gp.viz.explorer.explorer_data(tr, jr, top=2)
    assert d["leaves"]["code"] == gp.viz.labels.hierarchy_order(tr).tolist()
    leaves = d["leaves"]["label"]
    for t in range(len(tr)):
        seq = []
        for c in gp.viz.explorer.explorer_clusters(d, t):
            assert c["lo"] == len(seq)
            seq += c["members"]
        assert seq == leaves
        assert {frozenset(c["members"]) for c in gp.viz.explorer.explorer_clusters(d, t)} == {
            frozenset(gp.viz.labels.format_label(x, math=False) for x in q) for q in tr.quantization(t)}


def test_matrix_order_bad_value(hungarian):
    jr, tr = hungarian[0], hungarian[1]["alg2"]
    with pytest.raises(InputError, match="order="):
        matrix_bands(tr, jr, 1, order="dendrogram")
    with pytest.raises(InputError, match="order="):
        gp.viz.plot_merge_matrix(tr, jr, 1, order="values")
