"""Privacy mechanisms as merge/contract operations and kernels (papers 000-004)."""

from .utilities import *  # noqa: F401,F403
from .trace import *  # noqa: F401,F403
from .agglomerative import *  # noqa: F401,F403
from .frontier import *  # noqa: F401,F403
from .exact import *  # noqa: F401,F403
from .baselines import *  # noqa: F401,F403
from .search import *  # noqa: F401,F403
from .watchdog import *  # noqa: F401,F403
from .linear_reduction import *  # noqa: F401,F403
from .sample_privacy import *  # noqa: F401,F403
from .side_information import *  # noqa: F401,F403
import sys as _sys

# read the modules from sys.modules: ``watchdog`` and ``linear_reduction`` are also function names
_MODULES = ("utilities", "trace", "agglomerative", "frontier", "exact", "baselines", "search", "watchdog",
            "linear_reduction", "sample_privacy", "side_information")
__all__ = [n for m in _MODULES for n in _sys.modules[f"{__name__}.{m}"].__all__]
