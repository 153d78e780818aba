"""Drawing graphpriv objects with matplotlib (every function takes ``ax=`` and returns its artist/axes)."""

from .style import *  # noqa: F401,F403
from . import style

__all__ = list(style.__all__)
