"""Graph views of a joint range: support graph and components, G_X, cuts, strength, hypergraphs."""

from .support import *  # noqa: F401,F403
from .confusability import *  # noqa: F401,F403
from .cuts import *  # noqa: F401,F403
from .strength import *  # noqa: F401,F403
from .principal import *  # noqa: F401,F403
from .hypergraph import *  # noqa: F401,F403
from . import support, confusability, cuts, strength, principal, hypergraph, polytope

__all__ = support.__all__ + confusability.__all__ + cuts.__all__ + strength.__all__ + principal.__all__ + hypergraph.__all__
