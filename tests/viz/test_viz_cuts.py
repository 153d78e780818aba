"""Minimum cuts of G_X drawn at real size (Ding & Farokhi, *Developing Non-Stochastic Privacy-Preserving
Policies Using Agglomerative Clustering*, Section IV, eq. (1)) on the Hungarian data of Section VI
(S = age, X = cholesterol): past 40 public values ``plot_min_cut`` draws the two sides of the cut as discs
joined by a band of its cut edges and lists the edges with the sensitive values they share."""

from __future__ import annotations

import re

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402
import numpy as np  # noqa: E402
import pytest  # noqa: E402
from matplotlib.colors import to_hex  # noqa: E402

import graphpriv as gp  # noqa: E402
from graphpriv.errors import InputError  # noqa: E402
from graphpriv.viz import plot_min_cut  # noqa: E402
from graphpriv.viz.style import PALETTE, ROLE  # noqa: E402


@pytest.fixture(scope="module")
def hungarian():
    return gp.datasets.hungarian_range()


@pytest.fixture(scope="module")
def largest(hungarian):
    """The largest component of the Hungarian G_X (153 values): connected, so its min cut is positive."""
    comp = np.asarray(gp.components(hungarian).public)
    big = np.bincount(comp).argmax()
    return hungarian.restrict(public=[x for x, k in zip(hungarian.public_labels.tolist(), comp) if k == big])


def barbell(seed: int = 1):
    """150 public values in two halves, each half's values sharing 2 of its own 10 sensitive values, and one
    sensitive value shared by the first value of each half: connected, min cut 1 between two halves of 75."""
    rng = np.random.default_rng(seed)
    s, x = [], []
    for half in (0, 1):
        for i in range(75):
            for k in rng.choice(10, 2, replace=False):
                s.append(f"s{10 * half + k}")
                x.append(100 * half + i)
    return gp.JointRange.from_pairs(s + ["bridge", "bridge"], x + [0, 100])


def discs(ax):
    return [p for p in ax.patches if p.get_gid() == "graphpriv-cut-side"]


def gid_texts(ax, gid):
    return [t.get_text() for t in ax.texts if t.get_gid() == gid]


def edge_lines(ax):
    (block,) = gid_texts(ax, "graphpriv-cut-edges")
    return [line for line in block.split("\n")[2:] if "S = " in line or line.startswith("…")]


def shared(jr, x, y):
    """Brute force on the dense incidence matrix: the sensitive values paired with both x and y."""
    m = jr.matrix.toarray().astype(bool)
    rows = np.flatnonzero(m[:, jr.public_code(x)] & m[:, jr.public_code(y)])
    return {str(jr.sensitive_labels[r]) for r in rows}


def render(ax, tmp_path, name):
    path = gp.viz.save_figure(ax.figure, tmp_path / name, formats=("png",))[0]
    img = plt.imread(path)
    assert (img[..., :3] < 0.9).any(axis=-1).mean() > 0.02       # something is drawn
    plt.close(ax.figure)


def test_hungarian_global_cut_is_zero_and_drawn_as_two_discs(hungarian, tmp_path):
    """G_X has 2 components (age 28 with cholesterol 132 is isolated): the min cut separates them, no edge."""
    cut = gp.min_cut(hungarian)
    ax = plot_min_cut(hungarian)                           # 154 values: view="auto" draws the two sides
    assert len(discs(ax)) == 2
    assert gid_texts(ax, "graphpriv-cut-label") == ["no cut edge"]
    assert not [p for p in ax.patches if p.get_gid() == "graphpriv-cut-band"]
    assert r"\kappa=0" in ax.get_title() and f"{len(cut.side)} vs {len(cut.other)} public values" in ax.get_title()
    assert edge_lines(ax) == []
    assert "decomposable" in gid_texts(ax, "graphpriv-cut-edges")[0]      # why there is no cut edge, under the discs
    assert not ax.collections or all(len(c.get_offsets()) < 3 for c in ax.collections)  # no node-link drawing
    # the side colours are the cut roles, outside the component palette, and the legend names both sides
    edge = [to_hex(d.get_edgecolor()) for d in discs(ax)]
    assert edge == [to_hex(ROLE["cut_side"]), to_hex(ROLE["cut_other"])]
    assert not set(edge) & {to_hex(c) for c in PALETTE}
    legend = [t.get_text() for t in ax.get_legend().get_texts()]
    assert legend[0] == f"side $X'$ ({len(cut.side)})" and legend[2] == "cut edges (0)"
    render(ax, tmp_path, "global")


def test_connected_largest_component_cut_edges_listed(largest, tmp_path):
    cut = gp.min_cut(largest)
    assert cut.value >= 1
    ax = plot_min_cut(largest, cut)
    assert gid_texts(ax, "graphpriv-cut-label") == [f"{cut.value} cut edge{'s' if cut.value != 1 else ''}"]
    assert len([p for p in ax.patches if p.get_gid() == "graphpriv-cut-band"]) == 1
    lines = edge_lines(ax)
    assert len(lines) == cut.value
    for x, y in cut.cut_edges:
        line = next(ln for ln in lines if ln.startswith(f"{x} – {y}:"))
        assert set(re.search(r"\{(.*)\}", line).group(1).split(", ")) == shared(largest, x, y)
    # disc areas proportional to the numbers of public values
    r = [d.get_radius() for d in discs(ax)]
    n = [len(cut.side), len(cut.other)]
    big, small = int(np.argmax(n)), int(np.argmin(n))
    if min(n) > 1:
        assert r[small] / r[big] == pytest.approx(np.sqrt(n[small] / n[big]))
    assert r[big] > r[small]
    render(ax, tmp_path, "connected")


def test_st_cut_marks_s_and_t_and_counts_the_rest(largest, tmp_path):
    cut = gp.min_cut(largest, 253, 272)               # 26 cut edges: 12 listed, the rest counted
    assert cut.s == 253 and cut.t == 272 and cut.value == 26
    ax = plot_min_cut(largest, cut)
    assert ax.get_title().startswith("$s$-$t$ cut")
    assert gid_texts(ax, "graphpriv-terminal-s") == ["$s$ = 253"] and gid_texts(ax, "graphpriv-terminal-t") == ["$t$ = 272"]
    assert gid_texts(ax, "graphpriv-cut-label") == ["26 cut edges"]
    lines = edge_lines(ax)
    assert len(lines) == gp.viz.cuts.CUT_EDGES_LISTED + 1 and lines[-1].startswith("… and 14 more")
    render(ax, tmp_path, "st")


def test_balanced_connected_range(tmp_path):
    jr = barbell()
    cut = gp.min_cut(jr)
    assert cut.value == 1 and len(cut.side) == len(cut.other) == 75
    ax = plot_min_cut(jr)
    r = [d.get_radius() for d in discs(ax)]
    assert r[0] == pytest.approx(r[1])
    assert edge_lines(ax) == ["0 – 100:  S = {bridge}"]
    assert "75 vs 75 public values, 1 cut edge" in ax.get_title()
    render(ax, tmp_path, "barbell")


def test_view_choice(largest):
    jr, _ = gp.datasets.paper_example()
    small = plot_min_cut(jr, gp.min_cut(jr, "x1", "x2"))            # 7 values: node-link, as in Section IV's figure
    assert not discs(small) and any(c.get_gid() == "graphpriv-edges" for c in small.collections)
    sides = plot_min_cut(jr, gp.min_cut(jr, "x1", "x2"), view="sides")
    assert len(discs(sides)) == 2 and gid_texts(sides, "graphpriv-cut-label") == ["1 cut edge"]
    assert edge_lines(sides) == ["x1 – x2:  S = {s2}"]
    big = plot_min_cut(largest, view="node-link")                     # still available at any size
    assert not discs(big)
    with pytest.raises(InputError, match="view"):
        plot_min_cut(jr, view="discs")
    plt.close("all")
