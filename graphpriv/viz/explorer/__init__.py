"""The interactive merge explorer: payload (:mod:`.data`), candidate pairs (:mod:`.candidates`), cluster
texts (:mod:`.text`), the bokeh page (:mod:`.view`, :func:`explore`) and its script (:mod:`.script`)."""

from .candidates import *  # noqa: F401,F403
from .data import *  # noqa: F401,F403
from .view import *  # noqa: F401,F403
from .components import *  # noqa: F401,F403
from . import candidates, components, data, view

__all__ = [*candidates.__all__, *data.__all__, *view.__all__, *components.__all__]
