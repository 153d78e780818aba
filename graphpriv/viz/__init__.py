"""Drawing graphpriv objects with matplotlib, and the interactive merge explorer.

Return values: a ``plot_*`` function that draws one panel returns its Axes; one that draws several panels
returns the Figure. One-panel functions take ``ax=`` and draw into it (a new figure is made when it is None),
so they compose into your own layouts; multi-panel functions (:func:`plot_trace`, :func:`plot_merge_view`,
:func:`plot_eps_delta_trace`) make their figure, or take ``axes=`` where noted, and return the Figure
whatever the number of panels asked for (``plot_trace(trace, jr, steps=[1])`` too). Nothing calls
``plt.show()``. ``tests/viz/test_plot_returns.py`` checks the convention for every public plot function.

The public names (``graphpriv.viz.__all__``, ``dir(graphpriv.viz)``), grouped as ``help(graphpriv)`` groups the
package:

* joint ranges and graphs (Ding & Farokhi, *Developing Non-Stochastic Privacy-Preserving Policies Using
  Agglomerative Clustering*, Sections II-IV) -- :func:`plot_joint_range`, :func:`plot_incidence_matrix`,
  :func:`plot_confusability`, :func:`plot_min_cut`, :func:`plot_cut_sides`, :func:`graph_layout`,
  :func:`plot_principal_partitions`;
* merge traces (the same paper, Figs. 3-6) -- :func:`plot_trace`, :func:`plot_merge_step`,
  :func:`plot_convergence`, :func:`plot_merge_matrix`, :func:`plot_merge_hierarchy`,
  :func:`plot_component_graph`, :func:`plot_merge_view`, :func:`animate_trace`, :func:`step_summary`;
* the interactive explorer -- :func:`explore`, :func:`explore_components`, :class:`Explorer`,
  :func:`merge_candidates`, :func:`candidate_table`;
* frontiers and searches -- :func:`plot_frontier`, :func:`plot_search_frontiers`;
* the stochastic papers (watchdog, linear reduction) -- :func:`plot_watchdog_tightness`, :func:`plot_nmil_cdf`,
  :func:`plot_eps_delta_trace`, :func:`plot_critical_sweep`, :func:`plot_log_lift_matrix`,
  :func:`plot_reduction_privacy`, :func:`plot_reduction_tradeoff`, :func:`plot_reduction_losses`,
  :func:`plot_transport_plan`, :func:`plot_ecdf`;
* hypergraphs and perfect sample privacy -- :func:`plot_incidence`, :func:`plot_hypergraph_incidence`,
  :func:`plot_levi_graph`, :func:`plot_hyperedges`, :func:`plot_privacy_polytope`, :func:`plot_channel`;
* every mechanism on one table -- :func:`plot_mechanism_comparison`, :func:`plot_funnel_frontier`,
  :func:`plot_watchdog_variants`;
* research sweeps -- :func:`plot_phase_transition`, :func:`plot_strength_vs_density`, :func:`plot_search_gaps`,
  :func:`plot_gap_summary`;
* style -- :func:`style_context`, :func:`new_figure`, :func:`save_figure`.

Sizes and colours live in :mod:`graphpriv.viz.style` (``COLUMN_WIDTH``, ``PAGE_WIDTH``, ``ROLE``, ``PALETTE``);
the views' building blocks (label formatting, merge events, matrix cells, focus layouts, the explorer's payload)
in the submodules that define them (:mod:`graphpriv.viz.labels`, :mod:`graphpriv.viz.merges`,
:mod:`graphpriv.viz.matrix`, :mod:`graphpriv.viz.explorer`). Reading one of those from ``graphpriv.viz``
itself, as earlier versions allowed, still works for one release with a ``DeprecationWarning`` that names
the module to import it from.
"""

from __future__ import annotations

import importlib as _importlib
import warnings as _warnings

from . import style, graphs, cuts, traces, frontiers, animation, hypergraphs, stochastic, research, labels, merges, matrix, hierarchy, components, overview, explorer, principal, comparison

_MODULES = (style, graphs, cuts, traces, frontiers, animation, hypergraphs, stochastic, research, labels, merges, matrix, hierarchy, components, overview, explorer, principal, comparison)

#: The public names by group, in the order of the module docstring (and of ``help(graphpriv)``).
_GROUPS: dict[str, list[str]] = {
    "Joint ranges and graphs": ["plot_joint_range", "plot_incidence_matrix", "plot_confusability", "plot_min_cut",
                                "plot_cut_sides", "graph_layout", "plot_principal_partitions"],
    "Merge traces": ["plot_trace", "plot_merge_step", "plot_convergence", "plot_merge_matrix", "plot_merge_hierarchy",
                     "plot_component_graph", "plot_merge_view", "animate_trace", "step_summary"],
    "The interactive explorer": ["explore", "explore_components", "Explorer", "merge_candidates", "candidate_table"],
    "Frontiers and searches": ["plot_frontier", "plot_search_frontiers"],
    "The stochastic papers: watchdog and linear reduction": [
        "plot_watchdog_tightness", "plot_nmil_cdf", "plot_eps_delta_trace", "plot_critical_sweep",
        "plot_log_lift_matrix", "plot_reduction_privacy", "plot_reduction_tradeoff", "plot_reduction_losses",
        "plot_transport_plan", "plot_ecdf"],
    "Hypergraphs and perfect sample privacy": ["plot_incidence", "plot_hypergraph_incidence", "plot_levi_graph",
                                               "plot_hyperedges", "plot_privacy_polytope", "plot_channel"],
    "Every mechanism on one table": ["plot_mechanism_comparison", "plot_funnel_frontier", "plot_watchdog_variants"],
    "Research sweeps": ["plot_phase_transition", "plot_strength_vs_density", "plot_search_gaps", "plot_gap_summary"],
    "Style": ["style_context", "new_figure", "save_figure"],
}

_LISTED = [n for names in _GROUPS.values() for n in names]
#: Drawing functions a submodule exports that the groups above do not list yet (kept public, at the end).
_UNGROUPED = [n for m in _MODULES for n in m.__all__
              if n.startswith(("plot_", "animate_", "explore_")) and n not in _LISTED]
__all__ = _LISTED + _UNGROUPED

_DEFINED_IN = {n: m.__name__ for m in reversed(_MODULES) for n in m.__all__}
for _name in __all__:
    globals()[_name] = getattr(_importlib.import_module(_DEFINED_IN[_name]), _name)
del _name

#: Names earlier versions exported from graphpriv.viz (constants and the views' helpers) -> defining module.
_DEPRECATED = {n: mod for n, mod in _DEFINED_IN.items() if n not in __all__}


def __getattr__(name: str):
    """Old names (constants, helpers) for one more release, with a DeprecationWarning naming their module."""
    module = _DEPRECATED.get(name)
    if module is None:
        raise AttributeError(f"module 'graphpriv.viz' has no attribute {name!r}")
    _warnings.warn(f"graphpriv.viz.{name} is deprecated and will be removed in the next release: "
                   f"use 'from {module} import {name}'", DeprecationWarning, stacklevel=2)
    return getattr(_importlib.import_module(module), name)


def __dir__() -> list[str]:
    return list(__all__)
