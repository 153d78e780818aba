"""Analyses built on the mechanisms: random ensembles, sweeps."""

from .ensembles import *  # noqa: F401,F403
from . import ensembles

__all__ = list(ensembles.__all__)
