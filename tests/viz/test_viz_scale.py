"""Every matplotlib merge view on seeded random ranges of 10^3 and 10^4 public values, numeric and text:
no exception, no warning, and the properties that keep the views legible at that size (focus + context
matrix, capped pair badges, outlines inside their bands, one number format per axis, completing joins of
the hierarchy collapsed into one artist, sampled steps named, disc and component labels not overprinting)."""

from __future__ import annotations

import re
import warnings

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402
import numpy as np  # noqa: E402
import pytest  # noqa: E402

import graphpriv as gp  # noqa: E402
from graphpriv import viz  # noqa: E402
from graphpriv.viz.hierarchy import COMPLETING  # noqa: E402

_SYLLABLES = ["ka", "lo", "ber", "sted", "ham", "ville", "ton", "burg", "ford", "wick", "mar", "ne", "ri", "os", "an",
              "del", "fjord", "holm", "by", "stad"]


def scale_range(n: int, text: bool, seed: int = 0, n_sensitive: int = 35, groups: int = 7) -> gp.JointRange:
    """``n`` public values (numbers with 1 to 5 decimals, or place-name-like text of 10-40 characters) in
    ``groups`` components of G_X, each paired with 1-3 sensitive values of its group."""
    rng = np.random.default_rng(seed)
    if text:
        names: set[str] = set()
        while len(names) < n:
            w = "".join(rng.choice(_SYLLABLES, rng.integers(3, 9))).capitalize()
            if rng.random() < 0.4:
                w += " " + "".join(rng.choice(_SYLLABLES, rng.integers(2, 5))).capitalize()
            if 10 <= len(w) <= 40:
                names.add(w)
        public = sorted(names)
    else:
        raw = np.sort(rng.choice(np.arange(10 * n), n, replace=False)) / 10.0 + 5.0
        public = [round(float(v) + (0.00267 if k % 97 == 0 else 0.0), 5) for k, v in enumerate(raw)]
    group = rng.integers(0, groups, n)
    per = n_sensitive // groups
    s, x = [], []
    for j, v in enumerate(public):
        for _ in range(int(rng.integers(1, 4))):
            s.append(int(group[j] * per + rng.integers(0, per)) + (0.25 if text else 0.0) * (j % 2))
            x.append(v)
    return gp.JointRange.from_pairs(s, x)


@pytest.fixture(scope="module")
def ranges():
    out = {}
    for n, text in ((1000, False), (1000, True)):
        jr = scale_range(n, text)
        out[(n, text)] = (jr, {obj: gp.agglomerate(jr, obj, lam).trace
                               for obj, lam in (("L0", 0.0), ("I*", 0.1), ("L0|I*=0", 0.1))})
    return out


def _strict(fn, *args, **kwargs):
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        out = fn(*args, **kwargs)
        fig = getattr(out, "figure", out)
        if hasattr(fig, "canvas"):
            fig.canvas.draw()      # layout engines warn at draw time
    return out


def _matrix_axes(fig):
    (m,) = [a for a in fig.axes if hasattr(a, "graphpriv_bands")]
    return m


def _check_matrix(m, trace, t):
    lay = m.graphpriv_layout
    # badges capped; the pairs left out counted
    badges = [x for x in m.texts if x.get_gid() == "graphpriv-pair-badge"]
    assert len(badges) <= viz.matrix.BADGE_MAX
    n_pairs = len(trace.steps[t].merged)
    more = [x.get_text() for x in m.texts if x.get_gid() == "graphpriv-pair-more"]
    if n_pairs > 1 and len(badges) < n_pairs:
        assert len(more) == 1 and re.fullmatch(r"\+\d+ more pairs?", more[0])
    # every outline inside its band
    bounds = [(lay.left[a], lay.right[c - 1]) for a, c in lay.bands.cluster_bounds]
    for p in m.patches:
        if p.get_gid() == "graphpriv-merged":
            x0, x1 = p.get_x(), p.get_x() + p.get_width()
            assert any(lo - 1e-9 <= x0 and x1 <= hi + 1e-9 for lo, hi in bounds)
    # the drawing never needs more columns than the focus budget (plus component gaps when nothing is collapsed)
    assert lay.width <= max(viz.matrix.FOCUS_BUDGET, trace.n_public * 1.2)
    # one format per axis: every numeric tick label of the sensitive axis has the same number of decimals
    ys = [x.get_text() for x in m.get_yticklabels() if x.get_text()]
    assert ys
    nums = [y for y in ys if re.fullmatch(r"-?\d+(\.\d+)?", y)]
    assert len({len(y.split(".")[1]) if "." in y else 0 for y in nums}) <= 1
    # long labels elided, the full text kept as the label's url
    for lab in m.get_xticklabels():
        assert len(lab.get_text()) <= 40 and lab.get_url()


def _check_hierarchy(h, trace):
    completing = [c for c in h.collections if c.get_gid() == "graphpriv-completing"]
    assert len(completing) <= 1                       # the completing joins: one collapsed artist at most
    grey = [c for c in h.collections if c.get_gid() in ("graphpriv-links", "graphpriv-links-merged")
            and np.allclose(c.get_colors()[0][:3], matplotlib.colors.to_rgb(COMPLETING))]
    assert not grey
    T = len(trace)
    drawn = sum(len(c.get_segments()) for c in h.collections if c.get_gid() in ("graphpriv-links", "graphpriv-links-merged"))
    made = int((trace.to_linkage()[:, 2] < T).sum())
    contracted = [c for c in h.collections if c.get_gid() == "graphpriv-contracted"]
    if contracted:   # subtrees inside one collapsed unit of columns drawn as stems: fewer links, never more
        assert drawn < made
    else:            # one segment per merge the mechanism made
        assert drawn == made


@pytest.mark.parametrize("text", [False, True], ids=["numeric", "text"])
@pytest.mark.parametrize("objective", ["L0", "I*"])
def test_merge_view_at_1000_values(ranges, text, objective):
    jr, traces = ranges[(1000, text)]
    tr = traces[objective]
    for t in sorted({1, len(tr) - 1}) if objective == "L0" else [1]:
        fig = _strict(viz.plot_merge_view, tr, jr, t)
        assert fig.get_suptitle().startswith(f"$t={t}$")
        _check_matrix(_matrix_axes(fig), tr, t)
        (h,) = [a for a in fig.axes if hasattr(a, "graphpriv_dendrogram")]
        _check_hierarchy(h, tr)
        # the hierarchy's leaves sit under the matrix columns
        assert np.allclose(np.asarray(_matrix_axes(fig).get_xlim()) * 10 + 5, h.get_xlim())
        plt.close(fig)


def test_plot_trace_names_the_sampled_steps(ranges):
    jr, traces = ranges[(1000, False)]
    tr = traces["L0"]
    fig = _strict(viz.plot_trace, tr, jr)
    shown = [int(x) for x in re.search(r"steps ([\d, ]+) of", fig.get_suptitle()).group(1).split(", ")]
    assert len(shown) == 6 < len(tr) - 1 and shown[0] == 1
    assert len([a for a in fig.axes if hasattr(a, "graphpriv_bands")]) == len(shown)
    for m, t in zip([a for a in fig.axes if hasattr(a, "graphpriv_bands")], shown):
        _check_matrix(m, tr, t)
    plt.close(fig)
    fig = _strict(viz.plot_trace, tr, jr, steps=[1, 2], suptitle="two steps")
    assert fig.get_suptitle() == "two steps"          # steps given: nothing sampled, nothing to say
    plt.close(fig)


def test_hierarchy_without_merges_has_no_grey_links():
    jr = scale_range(1000, True, seed=3)
    tr = gp.agglomerate(jr, "I*", 1e6).trace           # a huge lambda: no merge accepted
    ax = _strict(viz.plot_merge_hierarchy, tr, len(tr) - 1)
    _check_hierarchy(ax, tr)
    assert sum(len(c.get_segments()) for c in ax.collections if c.get_gid() == "graphpriv-completing") <= \
        1 + sum(1 for s in tr.steps for _ in s.merged)
    plt.close("all")


def test_animate_trace_frames(ranges, tmp_path):
    jr, traces = ranges[(1000, True)]
    tr = traces["L0|I*=0"]
    out = _strict(viz.animate_trace, tr, jr, tmp_path / "a.gif", steps=[0, 1])
    from PIL import Image

    assert Image.open(out).n_frames == 2


@pytest.mark.parametrize("text", [False, True], ids=["numeric", "text"])
def test_component_discs_and_cut_sides(ranges, text):
    jr, traces = ranges[(1000, text)]
    ax = _strict(viz.plot_confusability, jr)
    labels = [x for x in ax.texts if x.get_text()]
    assert labels
    r = ax.figure.canvas.get_renderer()
    boxes = [x.get_window_extent(r) for x in labels]
    assert not any(a.overlaps(b) for i, a in enumerate(boxes) for b in boxes[i + 1:])       # no overprinting
    for x in labels:   # disc labels keep their tail: the count of the component
        assert re.search(r"\(\d+\)|\|X\|=\d+", x.get_text().replace("\n", " "))
    plt.close(ax.figure)
    ax = _strict(viz.plot_min_cut, jr)
    side_texts = [x.get_text() for x in ax.texts if "|X|" in x.get_text()]
    assert all(re.search(r"\(\d+\)\s*$|\n[^\n]+$", s) for s in side_texts)
    plt.close(ax.figure)
    tr = traces["L0"]
    ax = _strict(viz.plot_component_graph, tr, 1)
    labels = [x for x in ax.texts if x.get_gid() == "graphpriv-component-label"]
    boxes = [x.get_window_extent(ax.figure.canvas.get_renderer()) for x in labels]
    assert not any(a.overlaps(b) for i, a in enumerate(boxes) for b in boxes[i + 1:])
    plt.close(ax.figure)


def test_views_at_10000_text_values():
    """10^4 place-name-like values: Algorithm 2 merges a few pairs and the rest of the tree is only completed
    (a chain of ~10^4 joins: scipy's dendrogram exceeded the recursion limit here)."""
    jr = scale_range(10_000, True, seed=1)
    tr = gp.agglomerate(jr, "I*", 0.1).trace
    fig = _strict(viz.plot_merge_view, tr, jr, 1)
    m = _matrix_axes(fig)
    _check_matrix(m, tr, 1)
    assert m.graphpriv_layout.collapsed and m.graphpriv_layout.context      # focus + context
    (h,) = [a for a in fig.axes if hasattr(a, "graphpriv_dendrogram")]
    _check_hierarchy(h, tr)
    plt.close(fig)


def test_focus_layout_properties():
    """focus_layout on random clusterings: columns left to right without overlap, every column inside its unit,
    at most FOCUS_BUDGET units, the focus bands (and at most their neighbours) one unit per column."""
    from hypothesis import given, settings, strategies as st

    from graphpriv.viz.matrix import MatrixBands, focus_layout

    @settings(max_examples=40, deadline=None)
    @given(st.integers(1, 3000), st.integers(0, 2**32 - 1), st.integers(0, 6))
    def check(n, seed, n_focus):
        rng = np.random.default_rng(seed)
        cuts = np.unique(rng.integers(1, n, size=rng.integers(0, max(1, n // 2)))) if n > 1 else np.array([], int)
        bounds = list(zip([0, *cuts.tolist()], [*cuts.tolist(), n]))
        cluster = np.repeat(np.arange(len(bounds)), [c - a for a, c in bounds])
        bands = MatrixBands(order=np.arange(n), cluster=cluster, component=np.zeros(n, int), cluster_bounds=bounds,
                            component_bounds=[(0, n)])
        focus = rng.choice(len(bounds), size=min(n_focus, len(bounds)), replace=False).tolist()
        lay = focus_layout(bands, focus)
        assert np.all(np.diff(lay.xpos) > 0) and np.all(lay.left < lay.xpos) and np.all(lay.xpos < lay.right)
        assert np.all(lay.left[1:] >= lay.right[:-1] - 1e-9)                      # no overlap
        assert lay.width <= max(viz.matrix.FOCUS_BUDGET, n) and (n > viz.matrix.FOCUS_BUDGET or not lay.collapsed)
        assert lay.width <= viz.matrix.FOCUS_BUDGET or n <= viz.matrix.FOCUS_BUDGET
        assert np.all(np.diff(lay.unit) >= 0) and lay.unit_start[-1] == n
        full = sum(c - a for a, c in (bounds[k] for k in focus))
        if full + 16 * len(focus) <= int(0.6 * viz.matrix.FOCUS_BUDGET):                   # the focus in full detail
            for k in focus:
                a, c = bounds[k]
                assert np.allclose(lay.right[a:c] - lay.left[a:c], 1.0)

    check()
