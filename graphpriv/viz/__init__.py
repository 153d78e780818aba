"""Drawing graphpriv objects with matplotlib.

Return values: a ``plot_*`` function that draws one panel returns its Axes; one that draws several panels
returns the Figure. One-panel functions take ``ax=`` and draw into it (a new figure is made when it is None),
so they compose into your own layouts; multi-panel functions (:func:`plot_trace`, :func:`plot_merge_view`,
:func:`plot_eps_delta_trace`) make their figure, or take ``axes=`` where noted, and return the Figure
whatever the number of panels asked for (``plot_trace(trace, jr, steps=[1])`` too). Nothing calls
``plt.show()``. Colours and sizes come from :mod:`graphpriv.viz.style`; ``tests/viz/test_plot_returns.py``
checks the convention for every public plot function.

Groups (``help(graphpriv.viz)`` lists them all):

* joint ranges and graphs -- :func:`plot_joint_range`, :func:`plot_incidence_matrix`, :func:`plot_confusability`,
  :func:`plot_min_cut`, :func:`plot_cut_sides`, :func:`graph_layout`, :func:`plot_principal_partitions`;
* merge traces (Ding & Farokhi, *Developing Non-Stochastic Privacy-Preserving Policies Using Agglomerative
  Clustering*, Figs. 3-6) -- :func:`plot_trace`, :func:`plot_merge_step`, :func:`plot_convergence`,
  :func:`plot_merge_matrix`, :func:`plot_merge_hierarchy`, :func:`plot_component_graph`, :func:`plot_merge_view`,
  :func:`animate_trace`, and the interactive :func:`explore`;
* frontiers -- :func:`plot_frontier`;
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
* style -- :func:`style_context`, :func:`new_figure`, :func:`save_figure`, ``COLUMN_WIDTH``, ``PAGE_WIDTH``.
"""

from .style import *  # noqa: F401,F403
from .graphs import *  # noqa: F401,F403
from .cuts import *  # noqa: F401,F403
from .traces import *  # noqa: F401,F403
from .frontiers import *  # noqa: F401,F403
from .animation import *  # noqa: F401,F403
from .hypergraphs import *  # noqa: F401,F403
from .stochastic import *  # noqa: F401,F403
from .research import *  # noqa: F401,F403
from .labels import *  # noqa: F401,F403
from .merges import *  # noqa: F401,F403
from .matrix import *  # noqa: F401,F403
from .hierarchy import *  # noqa: F401,F403
from .components import *  # noqa: F401,F403
from .overview import *  # noqa: F401,F403
from .explorer import *  # noqa: F401,F403
from .principal import *  # noqa: F401,F403
from .comparison import *  # noqa: F401,F403
from . import comparison, style, graphs, cuts, traces, frontiers, animation, hypergraphs, stochastic, research, labels, merges, matrix, hierarchy, components, overview, explorer, principal

__all__ = [n for m in (comparison, style, graphs, cuts, traces, frontiers, animation, hypergraphs, stochastic, research, labels, merges, matrix, hierarchy, components, overview, explorer, principal) for n in m.__all__]
