"""Privacy measures: non-stochastic (paper 003), common information, stochastic (papers 000-002)."""

from .nonstochastic import *  # noqa: F401,F403
from .common_information import *  # noqa: F401,F403
from .stochastic import *  # noqa: F401,F403
from .table_measures import *  # noqa: F401,F403
from . import nonstochastic, common_information, stochastic, table_measures

__all__ = nonstochastic.__all__ + common_information.__all__ + stochastic.__all__ + table_measures.__all__
