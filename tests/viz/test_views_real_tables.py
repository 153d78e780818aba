"""Views on tables of real size (600-10^4 public values): labels elided at word boundaries and never inside a
number, one ellipsis at most where words were left out, a cluster's range from its true smallest to its true
largest value, the same pair badge for a cluster in the matrix and under the tree, ``plot_trace`` on one page,
the explorer opening on the merges, its candidate note consistent, and the paper figures drawn from the Hungarian
data showing more than two points (Ding & Farokhi, *Developing Non-Stochastic Privacy-Preserving Policies Using
Agglomerative Clustering*, Figs. 1 and 3-8; Farokhi, *Perfect sample privacy*, Fig. 2)."""

from __future__ import annotations

import collections
import re

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402
import numpy as np  # noqa: E402
import pytest  # noqa: E402
from hypothesis import given, settings, strategies as st  # noqa: E402

import graphpriv as gp  # noqa: E402
from graphpriv import viz  # noqa: E402
from graphpriv.viz.labels import elide, elide_value  # noqa: E402
from graphpriv.viz.matrix import pair_badge_text  # noqa: E402

from test_viz_scale import scale_range  # noqa: E402

NUMBER = re.compile(r"-?\d+(?:\.\d+)?")


# ---------------------------------------------------------------- labels

@pytest.mark.parametrize("text, k", [
    ("Agostino Bellamare", 4), ("Adam Smith Academy of Democracy", 12), ("32.2–32.8", 8), ("32.2, 32.5, …, 32.8 (4)", 9),
    ("-1.6, 3.2, …, 35.0 (7)", 14), ("Kalobersted, Hamvilleburgford, …, Wickholmstad (120)", 22),
    ("Adam…ton, Ba…ra, …, Dem…racy (5)", 20)])
def test_elide_keeps_words_and_numbers_whole(text, k):
    out = elide(text, k)
    assert "……" not in out and "… …" not in out            # never two ellipses side by side
    assert out.count("…") <= max(1, text.count("…"))
    for num in NUMBER.findall(out.replace("…", " ")):           # every number shown is one of the text's numbers
        assert num in NUMBER.findall(text), (text, out)
    words = set(re.split(r"[,\s–]+", text))
    for w in re.split(r"[,\s–]+", out):                         # whole words, or one word's start and "…"
        assert not w or w == "…" or w in words or (w.endswith("…") and any(x.startswith(w[:-1]) for x in words)), (out, w)


@settings(max_examples=60, deadline=None)
@given(st.lists(st.one_of(st.floats(-1e4, 1e4, allow_nan=False).map(lambda v: f"{v:.2f}"),
                          st.text("abcdefghij ", min_size=1, max_size=14).map(str.strip).filter(bool)),
                min_size=1, max_size=8), st.integers(3, 30))
def test_elide_property(parts, k):
    text = ", ".join(parts)
    out = elide(text, k)
    assert "……" not in out
    nums = set(NUMBER.findall(text))
    for num in NUMBER.findall(out.replace("…", " ")):
        assert num in nums, (text, out)
    if len(text) <= k:
        assert out == text
    elif not re.fullmatch(r"-?\d+\.\d+", parts[0]) or len(parts) > 1:
        assert len(out) <= max(k, len(parts[0]) + 2)


def test_elide_value_never_cuts_a_number():
    assert elide_value("58.8581", 4) == "58.8581"
    assert elide_value("Kalobersted Hamvilleburgford", 16) == "Kalobersted …"


def test_range_labels_show_the_true_smallest_and_largest_value():
    """A cluster of numbers drawn in the hierarchy's leaf order: the explorer's label names its smallest and its
    largest member (a cluster holding 35.0 was labelled "-1.6 … 24.4 (7)")."""
    from graphpriv.viz.explorer.script import PAGE_JS
    import shutil
    import subprocess

    values = [24.4, -1.6, 35.0, 3.5, 7.25, 12.0, 0.5]
    s = [0, 1, 0, 1, 0, 1, 0]
    jr = gp.JointRange.from_pairs(s, values)
    res = gp.agglomerate(jr, "L0", 0.0)
    d = gp.viz.explorer.explorer_data(res.trace, jr)
    ranks = d["leaves"]["rank"]
    labels = d["leaves"]["label"]
    assert sorted(ranks) == list(range(len(values)))
    assert [labels[i] for i in np.argsort(ranks)] == [gp.viz.labels.format_label(v, math=False) for v in sorted(values)]
    node = shutil.which("node")
    if node is None:
        pytest.skip("node is not installed: the page's label rule is checked in the browser test")
    script = PAGE_JS + """
const D = {meta: {n_public: %d, n_steps: 1, merge_color: "#000"}, tree: {lo: [], hi: [], parent: [], ends: [], height: [], x: [], left: [], right: [], color: []},
           pairs: {ptr: [], row: []}, leaves: {comp: [], label: %s, rank: %s}, rows: [], steps: []};
const g = gpxMake({D: D, src: {}, frame_w: 100});
""" % (len(values), __import__("json").dumps(labels), __import__("json").dumps(ranks))
    script = script.replace("return {\n    cut, clampT,", "return {\n    bandLabel, cut, clampT,")
    script += "console.log(g.bandLabel(0, %d));" % (len(values) - 1)
    out = subprocess.run([node, "-e", script], capture_output=True, text=True, timeout=60)
    assert out.returncode == 0, out.stderr
    assert out.stdout.strip() == "-1.6 … 35 (7)"


# ---------------------------------------------------------------- pair badges

def test_matrix_and_tree_badges_agree():
    """An Algorithm 1 sweep (U2, λ = 0) where two pairs of one sweep form one cluster: the matrix and the tree write
    the same badge for it ("1,14" in both, not "1,14" over the matrix and "1" on the tree)."""
    jr = scale_range(600, False)
    tr = gp.agglomerate(jr, "L0", 0.0, utility="U2").trace
    t = 1
    events = viz.merges.merge_events(tr, t)
    ids = tr.cluster_ids(t)
    code = {x: i for i, x in enumerate(tr.public_labels)}
    by_cluster = collections.defaultdict(list)
    for e in events:
        by_cluster[int(ids[code[next(iter(e.a))]])].append(e.number)
    assert any(len(v) > 1 for v in by_cluster.values())
    want = {pair_badge_text(v) for v in by_cluster.values()}
    fig = viz.plot_merge_view(tr, jr, t)
    fig.canvas.draw()
    (m,) = [a for a in fig.axes if hasattr(a, "graphpriv_bands")]
    (h,) = [a for a in fig.axes if hasattr(a, "graphpriv_dendrogram")]
    mat = {x.get_text() for x in m.texts if x.get_gid() == "graphpriv-pair-badge" and x.get_visible()}
    tree = {x.get_text() for x in h.texts if x.get_gid() == "graphpriv-pair-number" and x.get_visible()}
    assert mat and tree
    assert mat <= want and tree <= mat, (mat - want, tree - mat)     # the tree under the matrix: the matrix's badges
    plt.close(fig)
    ax = viz.plot_merge_hierarchy(tr, t)
    assert {x.get_text() for x in ax.texts if x.get_gid() == "graphpriv-pair-number"} <= want
    plt.close(ax.figure)


# ---------------------------------------------------------------- plot_trace on one page

@pytest.mark.parametrize("n, text", [(600, False), (2700, True)], ids=["600-numeric", "2700-text"])
def test_plot_trace_fits_a_page(n, text):
    """At any size the figure fits one page (at most 7.5 x 9 in; it was 7.2 x 15-19 in) and the panels' captions do
    not run into each other: the axis caption is written once, under the grid."""
    jr = scale_range(n, text, seed=2)
    tr = gp.agglomerate(jr, "L0", 0.0).trace
    fig = viz.plot_trace(tr, jr)
    w, h = fig.get_size_inches()
    assert w <= 7.5 and h <= 9.0, (w, h)
    fig.canvas.draw()
    r = fig.canvas.get_renderer()
    mats = [a for a in fig.axes if hasattr(a, "graphpriv_bands")]
    assert len(mats) >= 4
    assert all(not a.get_xlabel() for a in mats)
    assert fig.get_supxlabel().startswith("public $X$")
    boxes = [t.get_window_extent(r) for a in fig.axes for t in [a.xaxis.label, a.title] if t.get_text() and t.get_visible()]
    assert not any(a.overlaps(b) for i, a in enumerate(boxes) for b in boxes[i + 1:])
    plt.close(fig)


# ---------------------------------------------------------------- the explorer

def test_explorer_opens_on_the_merges():
    """2,700 text values of which Algorithm 2 merges a few: the page opens on the merged clusters (they were a sliver
    at the left edge until one zoomed), the whole range one click away; a trace whose merges cover most values
    opens on every value."""
    pytest.importorskip("bokeh")
    from bokeh.models import Range1d

    from graphpriv.viz.explorer.view import full_range

    jr = scale_range(2700, True, seed=4)
    res = gp.agglomerate(jr, "I*", 0.1)
    ex = viz.explore(res, jr)
    t = res.trace.returned
    (xr,) = {r for r in ex.document.select({"type": Range1d}) if r.bounds is not None}
    x0, x1 = full_range(res.trace.n_public)
    assert xr.bounds == (x0, x1)
    assert xr.end - xr.start < 0.6 * (x1 - x0)
    runs = [(a, b) for a, b, _ in gp.viz.explorer.explorer_cut(ex.data, t) if b > a]
    assert runs and all(xr.start <= a and b <= xr.end for a, b in runs)
    jr = gp.datasets.hungarian_range(missing="drop")
    ex = viz.explore(gp.agglomerate(jr, "L0", 0.3), jr)
    (xr,) = {r for r in ex.document.select({"type": Range1d}) if r.bounds is not None}
    assert (xr.start, xr.end) == xr.bounds


def test_candidate_note_is_consistent():
    """When only the pairs holding a merged cluster are ranked, the note's count of all candidate pairs (pairs in
    different components) is larger than the pairs scanned; with fewer candidates than that, every pair is ranked
    ("2,668 candidate pairs in all, more than the 1,000,000 scanned" contradicted itself)."""
    jr = scale_range(150, False, seed=1, groups=2)
    tr = gp.agglomerate(jr, "I*", 0.05).trace
    k = tr.step_n_clusters[0]
    comp = np.bincount(tr.component_ids(0))
    cross = (k * k - int((comp[comp > 0] ** 2).sum())) // 2
    assert cross < k * (k - 1) // 2
    sc = viz.merge_candidates(tr, jr, 1, max_scan=cross)          # all pairs > max_scan >= candidate pairs
    assert "scanned" not in sc.note and sc.n_candidates == cross
    sc = viz.merge_candidates(tr, jr, 1, max_scan=cross - 1)
    m = re.search(r"\(([\d,]+) candidate pairs in all, more than the ([\d,]+) scanned", sc.note)
    assert m and int(m.group(1).replace(",", "")) > int(m.group(2).replace(",", ""))
