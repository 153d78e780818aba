"""The matplotlib merge views on realistic public tables (:mod:`realistic_tables`, seeded): a measurement
of 600 floats of mixed precision and 2,700 place names. Collapsed bands state their true range, labels
never cut inside a number, small panels stay legible (Ding & Farokhi, *Developing Non-Stochastic
Privacy-Preserving Policies Using Agglomerative Clustering*, Algorithms 1 and 2)."""

from __future__ import annotations

import re

import matplotlib

matplotlib.use("Agg")
import pandas as pd  # noqa: E402
import pytest  # noqa: E402
import realistic_tables as rt  # noqa: E402

import graphpriv as gp  # noqa: E402
from graphpriv.viz.labels import band_range, elide_value  # noqa: E402

pytestmark = pytest.mark.usefixtures("close_figures")


@pytest.fixture(scope="module")
def measurement(tmp_path_factory):
    t = rt.measurement_table(tmp_path_factory.mktemp("measurement"))
    return t, gp.read_joint_range(t.path, t.s, t.x), pd.read_csv(t.path)[t.x]


def _texts(fig) -> list[str]:
    fig.canvas.draw()
    return [x.get_text() for ax in fig.axes for x in [*ax.get_xticklabels(), *ax.texts]]


def test_band_range_is_min_and_max_for_numbers_and_label_order_for_text():
    assert band_range([52.0, 3.1, 60.0, 10.25]) == (3.1, 60.0)
    assert band_range(["Wick", "Aachen", "Mar"]) == ("Aachen", "Wick")
    with pytest.raises(ValueError):
        band_range([])


def test_elide_value_never_cuts_a_number():
    assert elide_value("58.8581", 3) == "58.8581"
    assert elide_value("1,234.5", 3) == "1,234.5"
    assert "…" in elide_value("Kalobersted Hamvilleburgford", 10)


def test_collapsed_band_of_the_measurement_states_its_range(measurement):
    """No merge (Algorithm 1 at λ = 1): the one collapsed band of plot_trace and plot_merge_view is labelled with
    the smallest and the largest of the 600 measurements, not the first and last column drawn."""
    t, jr, values = measurement
    trace = gp.agglomerate(jr, "L0", 1.0).trace
    for fig in (gp.viz.plot_trace(trace, jr), gp.viz.plot_merge_view(trace, jr, 0)):
        found = [s for s in _texts(fig) if re.fullmatch(rf"\[{t.n_public}: .+\]", s)]
        assert len(found) == 1, found
        lo, hi = (float(v) for v in re.fullmatch(r"\[\d+: (.+)–(.+)\]", found[0]).groups())
        assert (lo, hi) == (values.min(), values.max())


@pytest.fixture(scope="module")
def places(tmp_path_factory):
    t = rt.places_table(tmp_path_factory.mktemp("places"))
    return t, gp.read_joint_range(t.path, t.s, t.x)


def test_joint_range_of_2700_places_keeps_a_readable_matrix(places):
    """7 regions x 2,700 place names: stretched cells (not a square-cell hairline), rows at least 0.15 in, row
    labels apart, column labels elided to a bounded length and the title above everything."""
    from graphpriv.cli.analyze import _joint_range_figure
    from graphpriv.viz.graphs import TICK_LABEL_CHARS

    t, jr = places
    fig = _joint_range_figure(jr)
    fig.canvas.draw()
    ax = fig.axes[0]
    assert ax.get_position().height * fig.get_figheight() >= 0.15 * jr.n_sensitive
    r = fig.canvas.get_renderer()
    rows = sorted((lab.get_window_extent(r) for lab in ax.get_yticklabels()), key=lambda b: b.y0)
    assert all(a.y1 <= b.y0 + 0.5 for a, b in zip(rows, rows[1:]))
    assert all(len(lab.get_text()) <= TICK_LABEL_CHARS for lab in ax.get_xticklabels())
    title = ax.title.get_window_extent(r)
    assert title.y0 >= ax.get_window_extent(r).y1 and title.y1 <= fig.bbox.y1


def test_joint_range_axis_writes_its_numbers_alike(measurement):
    """Decimal numerals read from a CSV (3.1 next to 5.3397) are written with one number of decimals."""
    t, jr, _ = measurement
    ax = gp.viz.plot_joint_range(jr)
    ax.figure.canvas.draw()
    ticks = [x.get_text() for x in ax.get_xticklabels()]
    assert len({len(x.split(".")[1]) if "." in x else 0 for x in ticks}) == 1, ticks


def test_square_cells_kept_for_small_ranges():
    jr, _ = gp.datasets.paper_example()
    assert gp.viz.plot_joint_range(jr).get_aspect() == 1.0


@pytest.mark.parametrize("view", ["plot_confusability", "plot_min_cut"])
def test_new_figures_contain_their_title_and_notes(measurement, view):
    """Saved without bbox_inches="tight", the figure still holds its title, labels, legend and note."""
    _, jr, _ = measurement
    fig = getattr(gp.viz, view)(jr).figure
    r = fig.canvas.get_renderer()
    bb = fig.get_tightbbox(r)
    w, h = fig.get_size_inches()
    assert bb.x0 >= 0 and bb.y0 >= 0 and bb.x1 <= w + 1e-6 and bb.y1 <= h + 1e-6, (bb, w, h)


def test_given_axes_are_left_where_they_are(measurement):
    import matplotlib.pyplot as plt

    _, jr, _ = measurement
    fig, ax = plt.subplots(figsize=(2.0, 1.5))
    before = ax.get_position(original=True).bounds
    assert gp.viz.plot_confusability(jr, ax) is ax
    assert tuple(fig.get_size_inches()) == (2.0, 1.5) and ax.get_position(original=True).bounds == before


def _strip_axes(fig):
    return [ax for ax in fig.axes if "S|" in ax.get_ylabel()]


def test_anonymity_strip_tick_labels_never_overprint(places):
    """plot_trace's thin |[[S|x̂]]| strip over 2,700 place names: its y tick labels lie apart (few ticks)."""
    _, jr = places
    trace = gp.agglomerate(jr, "I*", 0.1).trace
    fig = gp.viz.plot_trace(trace, jr, steps=[1, 2])
    fig.canvas.draw()
    r = fig.canvas.get_renderer()
    strips = _strip_axes(fig)
    assert strips
    for ax in strips:
        boxes = sorted((t.get_window_extent(r) for t in ax.get_yticklabels() if t.get_text()), key=lambda b: b.y0)
        assert boxes and all(a.y1 <= b.y0 for a, b in zip(boxes, boxes[1:])), [b.bounds for b in boxes]


@pytest.mark.parametrize("size", [(7.16, 2.4), (3.5, 2.4)])
def test_pair_badges_never_overlap(size):
    """Algorithm 1 on 3,000 place-name-like values merges hundreds of pairs at once: the badges drawn (on the
    final layout) never touch each other or the "+N more" box, at page and column size."""
    import matplotlib.pyplot as plt
    from test_viz_scale import scale_range

    jr = scale_range(3000, text=True)
    trace = gp.agglomerate(jr, "L0", 0.1).trace
    fig, ax = plt.subplots(figsize=size, layout="constrained")
    gp.viz.plot_merge_matrix(trace, jr, 1, ax)
    fig.canvas.draw()
    r = fig.canvas.get_renderer()
    badges = [t.get_window_extent(r) for t in ax.texts if t.get_gid() == "graphpriv-pair-badge" and t.get_visible()]
    more = [t for t in ax.texts if t.get_gid() == "graphpriv-pair-more" and t.get_visible()]
    assert badges and more and re.fullmatch(r"\+\d+ more pairs?", more[0].get_text())
    boxes = sorted(badges + [more[0].get_window_extent(r)], key=lambda b: b.x0)
    assert all(a.x1 < b.x0 for a, b in zip(boxes, boxes[1:])), [round(b.x0) for b in boxes]


def test_component_labels_apart_and_numbers_whole():
    """The component graph in a small panel over 3,000 numbers: labels never touch and never cut a number
    (no ellipsis next to a digit); a size too wide for its column is written compactly (1.3k)."""
    import matplotlib.pyplot as plt
    from test_viz_scale import scale_range

    from graphpriv.viz.components import _compact_count

    assert [_compact_count(n) for n in (312, 1276, 10000, 2_500_000)] == ["(312)", "1.3k", "10k", "2.5M"]
    jr = scale_range(3000, text=False)
    trace = gp.agglomerate(jr, "I*", 0.1).trace
    for width in (1.6, 3.5):
        fig, ax = plt.subplots(figsize=(width, width * 0.75))
        gp.viz.plot_component_graph(trace, 1, ax)
        fig.canvas.draw()
        r = fig.canvas.get_renderer()
        labels = [t for t in ax.texts if t.get_gid() == "graphpriv-component-label"]
        assert labels
        assert not any(re.search(r"\d…|…\d", t.get_text()) for t in labels), [t.get_text() for t in labels]
        boxes = [t.get_window_extent(r) for t in labels]
        assert not any(a.overlaps(b) for i, a in enumerate(boxes) for b in boxes[i + 1:])


def test_few_merges_get_the_width_and_a_low_tree():
    """Algorithm 2 (I*) on 3,000 values merges a handful: in plot_merge_view the merged clusters and their
    neighbours take a good part of the matrix width (not squeezed to the left edge) and the hierarchy panel
    is low (few links to show)."""
    from test_viz_scale import scale_range

    from graphpriv.viz.matrix import _ever_merged

    jr = scale_range(3000, text=False)
    trace = gp.agglomerate(jr, "I*", 0.1).trace
    assert 0 < _ever_merged(trace).sum() < 0.05 * trace.n_public
    fig = gp.viz.plot_merge_view(trace, jr, 1)
    fig.canvas.draw()
    m = fig.axes[1]
    lay = m.graphpriv_layout
    focus_units = lay.width - sum(len(set(lay.unit[a:c].tolist())) for a, c in lay.context)
    assert focus_units >= 0.25 * lay.width, (focus_units, lay.width)
    h = fig.axes[2]
    assert h.get_position().height <= 0.5 * m.get_position().height


def test_hierarchy_legend_beside_the_tree(measurement):
    """plot_merge_hierarchy on the 600 measurements: the legend sits beside the tree (never over its top links),
    inside the figure as saved, and the merged cluster's label uses the axis' one number format."""
    _, jr, _ = measurement
    trace = gp.agglomerate(jr, "I*", 0.1).trace
    ax = gp.viz.plot_merge_hierarchy(trace, 1)
    fig = ax.figure
    fig.canvas.draw()
    r = fig.canvas.get_renderer()
    leg, frame = ax.get_legend().get_window_extent(r), ax.get_window_extent(r)
    assert leg.x0 >= frame.x1 and leg.x1 <= fig.bbox.x1
    ticks = [t.get_text() for t in ax.get_xticklabels() if t.get_text()]
    assert ticks and len({len(v.split(".")[1]) for tick in ticks for v in tick.split(", ") if "." in v}) <= 1, ticks


def test_sanitize_frontier_legend_clear_of_the_line(places, monkeypatch, tmp_path):
    """graphpriv sanitize's frontier.png (I*, U1 on 2,700 place names): the legend crosses no frontier line."""
    import argparse

    import graphpriv.viz.style as style
    from graphpriv.cli.sanitize import _frontier_figure, result_at

    _, jr = places
    frontier = gp.pareto_frontier(jr, "I*", "U1", None)
    result = result_at(jr, frontier, "I*", "U1", None, 0.1)
    seen = []

    def capture(fig, path):   # measured before the CLI closes the figure
        import numpy as np

        fig.canvas.draw()
        ax = fig.axes[0]
        box = ax.get_legend().get_window_extent(fig.canvas.get_renderer())
        for line in ax.get_lines():
            v = line._get_transformed_path().get_fully_transformed_path().vertices   # as drawn (staircase)
            pts = [a + (b - a) * f for a, b in zip(v, v[1:]) for f in np.linspace(0, 1, 40)]
            seen.append((line.get_label(), any(box.contains(x, y) for x, y in pts)))

    monkeypatch.setattr(style, "save_figure", capture)
    args = argparse.Namespace(objective="I*", utility="U1", min_utility=None)
    _frontier_figure(frontier, 0.1, result, args, tmp_path)
    assert seen and not any(hit for _, hit in seen), seen
