"""Analyses built on the mechanisms: random ensembles, sweeps."""

from .ensembles import *  # noqa: F401,F403
from .sweeps import *  # noqa: F401,F403
from . import ensembles, sweeps

__all__ = [*ensembles.__all__, *sweeps.__all__]
