"""Privacy mechanisms as merge/contract operations and kernels (papers 000-004).

Families: quantisation of the public values by merges (Ding & Farokhi, *Developing Non-Stochastic
Privacy-Preserving Policies Using Agglomerative Clustering*); :mod:`.stochastic` -- the privacy
watchdog and the linear reduction; :mod:`.sample_privacy` -- perfect sample privacy.
"""

from .utilities import *  # noqa: F401,F403
from .trace import *  # noqa: F401,F403
from .quantization import *  # noqa: F401,F403
from .quantization.agglomerative import *  # noqa: F401,F403
from .quantization.frontier import *  # noqa: F401,F403
from .quantization.exact import *  # noqa: F401,F403
from .quantization.interval import *  # noqa: F401,F403
from .quantization.baselines import *  # noqa: F401,F403
from .quantization.search import *  # noqa: F401,F403
from .quantization.comparison import *  # noqa: F401,F403
from .quantization.side_information import *  # noqa: F401,F403
from .stochastic import *  # noqa: F401,F403
from .sample_privacy import *  # noqa: F401,F403
from .registry import *  # noqa: F401,F403
import sys as _sys

# The old module paths ``graphpriv.mechanisms.watchdog`` and ``graphpriv.mechanisms.linear_reduction``
# (single modules before the stochastic family became a package) still import, as the family package.
# As attributes of this package both names are the functions gp.watchdog and gp.linear_reduction.
_sys.modules[f"{__name__}.watchdog"] = _sys.modules[f"{__name__}.stochastic"]
_sys.modules[f"{__name__}.linear_reduction"] = _sys.modules[f"{__name__}.stochastic"]

# Paper 003's searches, exact search, frontiers, side information and baselines live in its family
# folder :mod:`.quantization`; their former paths ``graphpriv.mechanisms.search`` (and its modules),
# ``graphpriv.mechanisms.exact``, ... still import, as the same module objects.
_MOVED = ("agglomerative", "frontier", "exact", "baselines", "search", "search.state", "search.pruned", "comparison",
          "side_information")
for _m in _MOVED:
    _sys.modules[f"{__name__}.{_m}"] = _sys.modules[f"{__name__}.quantization.{_m}"]
    if "." not in _m:
        globals().setdefault(_m, _sys.modules[f"{__name__}.quantization.{_m}"])

# read the modules from sys.modules: ``watchdog`` and ``linear_reduction`` are also function names
_MODULES = ("utilities", "trace", "quantization", "quantization.agglomerative", "quantization.frontier", "quantization.exact",
            "quantization.interval",
            "quantization.baselines", "quantization.search", "quantization.comparison", "quantization.side_information",
            "stochastic", "sample_privacy", "registry")
__all__ = [n for m in _MODULES for n in _sys.modules[f"{__name__}.{m}"].__all__]
