"""Drawing graphpriv objects with matplotlib.

Every function that draws one panel takes ``ax=`` (a new figure is made when it is None) and returns
the axes (or figure for multi-panel plots); nothing calls ``plt.show()``. Colours and sizes come from
:mod:`graphpriv.viz.style`.
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
from . import style, graphs, cuts, traces, frontiers, animation, hypergraphs, stochastic, research, labels, merges, matrix, hierarchy, components, overview, explorer

__all__ = [n for m in (style, graphs, cuts, traces, frontiers, animation, hypergraphs, stochastic, research, labels, merges, matrix, hierarchy, components, overview, explorer) for n in m.__all__]
