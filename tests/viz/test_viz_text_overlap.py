"""No two drawn texts overlap and none is cut at the figure's edge, in every merge view at 600, 2,700 and 10^4
public values, numeric and text: the window extent of every visible Text artist (titles, axis labels, tick labels,
badges, legends, annotations) measured with the renderer after the figure is drawn."""

from __future__ import annotations

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402
import pytest  # noqa: E402
from matplotlib.colors import to_rgba  # noqa: E402
from matplotlib.text import Text  # noqa: E402

import graphpriv as gp  # noqa: E402
from graphpriv import viz  # noqa: E402

from test_viz_scale import scale_range  # noqa: E402


def _drawn_texts(fig):
    """Visible, non-empty texts as drawn: tick labels only of ticks inside their axis' view, none transparent."""
    r = fig.canvas.get_renderer()
    skip = set()
    for ax in fig.axes:
        for axis, (lo, hi) in ((ax.xaxis, ax.get_xlim()), (ax.yaxis, ax.get_ylim())):
            lo, hi = min(lo, hi), max(lo, hi)
            for tick in axis.get_major_ticks() + axis.get_minor_ticks():
                loc = tick.get_loc()
                if loc is None or not (lo - 1e-9 <= loc <= hi + 1e-9) or not tick.get_visible():
                    skip.update({id(tick.label1), id(tick.label2)})
            if not axis.get_visible() or not ax.axison:
                skip.update(id(t) for t in axis.get_ticklabels(which="both"))
        if not ax.get_visible():
            skip.update(id(t) for t in ax.findobj(Text))
    out = []
    for t in fig.findobj(Text):
        if id(t) in skip or not t.get_visible() or not t.get_text().strip() or to_rgba(t.get_color())[3] == 0:
            continue
        if any(not a.get_visible() for a in _ancestors(t)):
            continue
        bb = t.get_window_extent(r)
        if bb.width > 0 and bb.height > 0:
            out.append((t, bb))
    return out


def _ancestors(t):
    a = getattr(t, "axes", None)
    out = []
    if a is not None:
        out.append(a)
    leg = t
    while getattr(leg, "_parent_figure", None) is None and getattr(leg, "parent", None) is not None:  # pragma: no cover
        leg = leg.parent
        out.append(leg)
    return out


def check_texts(fig, what: str) -> int:
    """Assert no two drawn texts overlap (by more than 1 px either way) and none crosses the figure's edge."""
    fig.canvas.draw()
    texts = _drawn_texts(fig)
    W, H = fig.bbox.width, fig.bbox.height
    for t, bb in texts:
        assert bb.x0 >= -1 and bb.y0 >= -1 and bb.x1 <= W + 1 and bb.y1 <= H + 1, \
            f"{what}: {t.get_text()!r} cut at the figure's edge ({bb.bounds}, figure {W:.0f} x {H:.0f})"
    for i, (a, ba) in enumerate(texts):
        for b, bb in texts[i + 1:]:
            ox = min(ba.x1, bb.x1) - max(ba.x0, bb.x0)
            oy = min(ba.y1, bb.y1) - max(ba.y0, bb.y0)
            assert not (ox > 1 and oy > 1), f"{what}: {a.get_text()!r} overlaps {b.get_text()!r}"
    return len(texts)


CASES = [(600, False), (600, True), (2700, False), (2700, True), (10_000, False), (10_000, True)]


@pytest.fixture(scope="module")
def traces():
    out = {}
    for n, text in CASES:
        jr = scale_range(n, text, seed=5)
        out[(n, text)] = (jr, gp.agglomerate(jr, "I*", 0.1).trace,
                          gp.agglomerate(jr, "L0", 0.0).trace if n <= 2700 else None)
    return out


@pytest.mark.parametrize("n, text", CASES, ids=[f"{n}-{'text' if t else 'numeric'}" for n, t in CASES])
def test_merge_views_have_no_overlapping_or_cut_text(traces, n, text):
    jr, tr_i, tr_l = traces[(n, text)]
    figures = [("plot_merge_view I*", lambda: viz.plot_merge_view(tr_i, jr, 1)),
               ("plot_merge_hierarchy I*", lambda: viz.plot_merge_hierarchy(tr_i, 1).figure),
               ("plot_merge_matrix I*", lambda: viz.plot_merge_matrix(tr_i, jr, len(tr_i) - 1).figure)]
    if tr_l is not None:
        figures += [("plot_trace L0", lambda: viz.plot_trace(tr_l, jr)),
                    ("plot_merge_view L0", lambda: viz.plot_merge_view(tr_l, jr, 1))]
    else:   # 10^4 values: Algorithm 1 at lambda = 0 takes long to run; the trace view of Algorithm 2
        figures.append(("plot_trace I*", lambda: viz.plot_trace(tr_i, jr)))
    for what, make in figures:
        fig = make()
        assert check_texts(fig, f"{what} at {n} {'text' if text else 'numeric'} values") > 3
        plt.close(fig)


def test_frontier_and_hungarian_figures_have_no_overlapping_or_cut_text():
    jr = gp.datasets.hungarian_range(missing="drop")
    fr = gp.interval_frontier(jr, "L0")
    ax = viz.plot_frontier(fr)
    check_texts(ax.figure, "plot_frontier (Hungarian)")
    plt.close(ax.figure)
    from graphpriv.reproduce import paper003, paper004

    for make in (paper003.fig8, paper004.fig2, paper003.hungarian_alg1_merge_view, paper003.hungarian_alg1_matrix_steps,
                 paper003.hungarian_alg2_merge_view, paper003.hungarian_secVC_merge_view, paper003.hungarian_min_cuts):
        fig = make(quick=True)
        check_texts(fig, make.__name__)
        plt.close(fig)
