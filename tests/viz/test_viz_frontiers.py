"""Rendering tests for Pareto-frontier plots (paper 003, Figs. 7 and 9; issue 4)."""

from __future__ import annotations

import math

import matplotlib

matplotlib.use("Agg")

import numpy as np  # noqa: E402
import pytest  # noqa: E402

import graphpriv as gp  # noqa: E402
from graphpriv.errors import InputError, InputTypeError  # noqa: E402
from graphpriv.viz import plot_frontier  # noqa: E402
from graphpriv.viz.frontiers import frontier_coordinates  # noqa: E402

from test_viz_graphs import assert_non_blank  # noqa: E402


pytestmark = pytest.mark.usefixtures("close_figures")


@pytest.fixture(scope="module")
def fig7():
    jr, _ = gp.datasets.paper_example()
    jr4, v4 = gp.datasets.paper_example(4)
    return jr, jr4, v4, gp.pareto_frontier(jr, "I*"), gp.pareto_frontier(jr4, "I*", utility="U2", values=v4)


def lines(ax):
    return {ln.get_label(): ln for ln in ax.get_lines()}


def test_fig7_example3_point(fig7):
    """Paper 003, Fig. 7 / Section VII-A: Example 3 gives I* = 0 at I0 = log2(7/3): loss 1 - log(7/3)/log 7."""
    jr, _, _, f1, _ = fig7
    x, y = frontier_coordinates(f1)
    assert y.min() == 0.0 and y.max() == 1.0
    assert x[np.argmin(y)] == pytest.approx(1 - math.log2(7 / 3) / math.log2(7))
    ax = plot_frontier(f1, marks={"Example 3": gp.agglomerate(jr, "I*", 0.3)})
    assert_non_blank(ax.figure)
    star = lines(ax)["Example 3"]
    assert star.get_xdata()[0] == pytest.approx(1 - math.log2(7 / 3) / math.log2(7))
    assert star.get_ydata()[0] == 0.0
    assert "I^*" in ax.get_ylabel() and "U_1" in ax.get_xlabel()
    assert ax.get_xlim()[0] < 0 < 1 < ax.get_xlim()[1]


def test_frontier_lines_match_points(fig7):
    _, _, _, f1, f2 = fig7
    ax = plot_frontier([f1, f2], labels=["U1", "U2"])
    ln = lines(ax)
    for f, lab in ((f1, "U1"), (f2, "U2")):
        x, y = frontier_coordinates(f)
        assert sorted(zip(ln[lab].get_xdata(), ln[lab].get_ydata())) == sorted(zip(x, y))
        assert np.all(np.diff(ln[lab].get_xdata()) >= 0)  # drawn in order of utility loss
    assert "or" in ax.get_xlabel()  # mixed utilities: both normalisations named


def test_exact_frontier_drawn_dashed_and_dominates(fig7):
    jr, _, _, f1, _ = fig7
    e1 = gp.exact_frontier(jr, "I*")
    ax = plot_frontier([f1, e1], labels=["greedy", "exact"])
    ln = lines(ax)
    assert ln["exact"].get_linestyle() == "--"
    # the greedy frontier never beats the exact one: every greedy point is weakly dominated by an exact point
    gx, gy = frontier_coordinates(f1)
    ex, ey = frontier_coordinates(e1)
    for x, y in zip(gx, gy):
        assert np.any((ex <= x + 1e-12) & (ey <= y + 1e-12))


def test_unnormalized_axes(fig7):
    _, _, _, f1, _ = fig7
    ax = plot_frontier(f1, normalized=False)
    ln = next(iter(lines(ax).values()))
    assert sorted(ln.get_ydata()) == sorted(f1.privacy)
    assert "bits" in ax.get_ylabel()


def test_baselines_fig9_hungarian():
    """Paper 003, Fig. 9(a): the 5-anonymity baseline point is drawn with the frontier's normalisation."""
    jr = gp.datasets.hungarian_range()
    f = gp.pareto_frontier(jr, "L0")
    base = gp.k_anonymity_generalization(jr, 5)
    ax = plot_frontier(f, baselines={"5-anonymity": base, "point": (0.5, 0.5)})
    assert_non_blank(ax.figure)
    b = lines(ax)["5-anonymity"]
    assert b.get_ydata()[0] == pytest.approx(base.privacy / f.privacy_of_x)
    assert b.get_xdata()[0] == pytest.approx(1 - base.utility / f.utility_of_x)
    assert lines(ax)["point"].get_xdata()[0] == 0.5
    assert gp.k_anonymity(gp.quantize_range(jr, base.quantization)) >= 5


def test_frontier_bad_input(fig7):
    _, _, _, f1, _ = fig7
    with pytest.raises(InputError):
        plot_frontier([])
    with pytest.raises(InputError, match="labels"):
        plot_frontier([f1], labels=["a", "b"])
    with pytest.raises(InputTypeError):
        plot_frontier(["not a frontier"])
    with pytest.raises(InputTypeError):
        plot_frontier(f1, baselines={"x": "y"})
    with pytest.raises(InputTypeError):
        plot_frontier(f1, marks=[1, 2])
