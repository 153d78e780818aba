"""One convention for what a plot function of ``gp.viz`` returns: one panel -> its Axes, several -> the Figure.

Every public ``plot_*`` function is called on paper 003's running example (Ding & Farokhi, Fig. 1, and the
Algorithm 2 run of Example 3) or, for the other papers' plots, on the smallest input of their kind; the test
counts the panels of the figure drawn into and checks the returned object. A function still breaking the
convention is marked ``xfail(strict=True)`` with the reason, so fixing it turns the mark into a failure
that asks for the mark's removal.
"""

from __future__ import annotations

import matplotlib

matplotlib.use("Agg")

import matplotlib.pyplot as plt  # noqa: E402
import numpy as np  # noqa: E402
import pytest  # noqa: E402
from matplotlib.axes import Axes  # noqa: E402
from matplotlib.figure import Figure  # noqa: E402

import graphpriv as gp  # noqa: E402
import graphpriv.viz as viz  # noqa: E402

pytestmark = pytest.mark.usefixtures("close_figures")


def _example():
    jr, values = gp.datasets.paper_example()
    return jr, values, gp.agglomerate(jr, "I*", 0.3).trace


def _hypergraph():
    p = np.array([[0.3, 0.2], [0.1, 0.4]])
    return gp.SampleHypergraph.from_pmf(p)


def _disclosure():
    p = np.array([[0.2, 0.2], [0.3, 0.3]])
    w = np.array([[1, 0, 0, 1], [0, 1, 1, 0]], dtype=float)
    return gp.synergistic_disclosure(w, p)


def _monte_carlo():
    return gp.watchdog_monte_carlo(40, 4, 5, seed=0, batch_size=20)


def _study():
    return gp.ensemble_study(6, 4, [0.2, 0.5], n_samples=3, seed=0)


def _gaps():
    jr, values, _ = _example()
    table = gp.compare_searches([(jr, None)], "I*", [0.3], "U1", methods=("greedy", "beam", "local"))
    table["objective"], table["utility"] = "I*", "U1"          # as a sweep over objectives labels its rows
    return table


def _comparison():
    return gp.compare_mechanisms(gp.JointDistribution.random(3, 5, seed=0), funnel_lams=[0.0, 0.5, 1.0])


#: name -> (inputs builder, expected number of panels). Each builder returns (args, kwargs).
CASES = {
    "plot_mechanism_comparison": (lambda: ((_comparison(),), {}), "several"),
    "plot_funnel_frontier": (lambda: ((gp.funnel_frontier(gp.JointDistribution.random(3, 5, seed=0), [0.0, 0.5, 1.0]),), {}), 1),
    "plot_watchdog_variants": (lambda: ((_comparison(),), {}), 1),
    "plot_joint_range": (lambda: ((_example()[0],), {}), 1),
    "plot_incidence_matrix": (lambda: ((_example()[0].matrix.toarray(),), {}), 1),
    "plot_confusability": (lambda: ((_example()[0],), {}), 1),
    "plot_min_cut": (lambda: ((_example()[0], gp.min_cut(_example()[0], "x1", "x2")), {}), 1),
    "plot_cut_sides": (lambda: ((_example()[0], gp.min_cut(_example()[0])), {}), 1),
    "plot_principal_partitions": (lambda: ((gp.principal_partitions(_example()[0]),), {}), 1),
    "plot_merge_step": (lambda: ((_example()[2], 1, _example()[0]), {}), 1),
    "plot_trace": (lambda: ((_example()[2], _example()[0]), {}), "several"),
    "plot_convergence": (lambda: ((_example()[2],), {}), 1),
    "plot_frontier": (lambda: ((gp.pareto_frontier(_example()[0], "I*", "U1"),), {}), 1),
    "plot_incidence": (lambda: ((_example()[0].matrix.toarray().astype(float),), {}), 1),
    "plot_hypergraph_incidence": (lambda: ((_hypergraph(),), {}), 1),
    "plot_levi_graph": (lambda: ((_hypergraph(),), {}), 1),
    "plot_hyperedges": (lambda: ((_hypergraph(),), {}), 1),
    "plot_privacy_polytope": (lambda: ((_disclosure(),), {}), 1),
    "plot_channel": (lambda: ((np.array([[0.7, 0.2], [0.3, 0.8]]),), {}), 1),
    "plot_ecdf": (lambda: (([0.1, 0.4, 0.4, 0.9],), {}), 1),
    "plot_watchdog_tightness": (lambda: ((_monte_carlo(),), {}), 1),
    "plot_nmil_cdf": (lambda: ((_monte_carlo(),), {}), 1),
    "plot_eps_delta_trace": (lambda: ((gp.watchdog_eps_delta(gp.JointDistribution.random(4, 6, seed=0), 1.0, 0.01, 4.0),),
                                      {}), "several"),
    "plot_critical_sweep": (lambda: ((gp.critical_sweep(gp.paper000_example1()),), {}), 1),
    "plot_log_lift_matrix": (lambda: ((gp.paper000_example1(),), {}), 1),
    "plot_reduction_privacy": (lambda: ((gp.linear_reduction_sweep(gp.paper000_example1(), [0.25, 0.5, 1.0]),), {}), 1),
    "plot_reduction_tradeoff": (lambda: ((gp.linear_reduction_sweep(gp.paper000_example1(), [0.25, 0.5, 1.0]),), {}), 1),
    "plot_reduction_losses": (lambda: ((gp.linear_reduction_sweep(gp.paper000_example1(), [0.25, 0.5, 1.0]),), {}), 1),
    "plot_transport_plan": (lambda: ((gp.linear_reduction(gp.paper000_example1(), 0.5, "optimal"),
                                      gp.paper000_example1().sensitive_labels[0]), {}), 1),
    "plot_phase_transition": (lambda: ((_study(),), {}), 1),
    "plot_strength_vs_density": (lambda: ((_study(),), {}), 1),
    "plot_search_gaps": (lambda: ((_gaps(),), {}), 1),
    "plot_gap_summary": (lambda: ((_gaps(),), {}), 1),
    "plot_search_frontiers": (lambda: (({"greedy": gp.pareto_frontier(_example()[0], "L0"),
                                         "exact": gp.exact_frontier(_example()[0], "L0")},
                                        gp.frontier_bounds(_example()[0], "L0")), {}), 1),
    "plot_merge_matrix": (lambda: ((_example()[2], _example()[0]), {}), 1),
    "plot_merge_hierarchy": (lambda: ((_example()[2],), {}), 1),
    "plot_component_graph": (lambda: ((_example()[2],), {}), 1),
    "plot_merge_view": (lambda: ((_example()[2], _example()[0]), {}), "several"),
}

#: Functions that break the convention today: name -> why. Their modules are being reworked; the fix is
#: named in the reason and the mark is strict, so the test fails once the function follows the convention.
VIOLATORS: dict[str, str] = {}


def _panels(fig: Figure) -> int:
    """Visible panels of ``fig``: axes laid out by a grid (colour bars, twins and insets do not count)."""
    boxes = set()
    for ax in fig.axes:
        if not ax.get_visible() or ax.get_label() == "<colorbar>" or ax.get_subplotspec() is None:
            continue
        boxes.add(tuple(round(v, 3) for v in ax.get_position().bounds))
    return len(boxes)


def test_every_public_plot_function_has_a_case():
    plots = sorted(n for n in viz.__all__ if n.startswith("plot_") and callable(getattr(viz, n)))
    assert sorted(CASES) == plots, {"without a case": sorted(set(plots) - set(CASES)),
                                    "not public": sorted(set(CASES) - set(plots))}


def test_module_docstring_states_the_convention():
    doc = " ".join(viz.__doc__.split())
    assert "one panel" in doc and "returns its Axes" in doc and "several panels" in doc and "returns the Figure" in doc


@pytest.mark.parametrize("name", [pytest.param(n, marks=pytest.mark.xfail(strict=True, reason=VIOLATORS[n]))
                                  if n in VIOLATORS else n for n in sorted(CASES)])
def test_plot_returns_axes_for_one_panel_and_figure_for_several(name):
    build, expected = CASES[name]
    args, kwargs = build()
    out = getattr(viz, name)(*args, **kwargs)
    if expected == 1:
        assert isinstance(out, Axes), f"{name} draws one panel and must return its Axes, got {type(out).__name__}"
        assert _panels(out.figure) == 1, f"{name}: returned an Axes but drew {_panels(out.figure)} panels"
    else:
        assert isinstance(out, Figure), f"{name} draws several panels and must return the Figure, got {type(out).__name__}"
        assert _panels(out) >= 2, f"{name}: returned a Figure with {_panels(out)} panel(s)"
    plt.close("all")


@pytest.mark.parametrize("name", [n for n in sorted(CASES) if CASES[n][1] == 1 and n not in VIOLATORS])
def test_one_panel_functions_draw_into_the_given_axes(name):
    build, _ = CASES[name]
    args, kwargs = build()
    fig, ax = plt.subplots()
    fn = getattr(viz, name)
    import inspect

    params = inspect.signature(fn).parameters
    assert "ax" in params, f"{name} draws one panel and must take ax="
    out = fn(*args, **{**kwargs, "ax": ax})
    assert out is ax, f"{name}(..., ax=ax) must draw into ax and return it"
