"""Analyses built on the mechanisms: random ensembles, sweeps, the comparison of every mechanism on one table."""

from .ensembles import *  # noqa: F401,F403
from .sweeps import *  # noqa: F401,F403
from .compare import *  # noqa: F401,F403
from . import compare, ensembles, sweeps

__all__ = [*ensembles.__all__, *sweeps.__all__, *compare.__all__]
