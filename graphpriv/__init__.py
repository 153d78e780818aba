"""graphpriv: graph-centric analysis of information-theoretic privacy.

A dataset with a sensitive column S and a public column X is a joint range [[S, X]] (a sparse
boolean matrix); its confusability graph G_X and bipartite support graph carry the privacy
quantities: I*(S;X) = log2 #components, decomposability = min cut 0, and mechanisms are merges.

>>> import graphpriv as gp
>>> jr, values = gp.datasets.paper_example()
>>> round(gp.maximin_information(jr), 4)
2.3219
"""

from __future__ import annotations

from ._startup import interrupt_guard as _interrupt_guard

with _interrupt_guard():  # Ctrl-C while the ``graphpriv`` command is still importing: one line, exit 130
    from importlib.metadata import PackageNotFoundError, version as _version

    from .errors import *  # noqa: F401,F403
    from ._validation import MISSING
    from .ranges import JointRange, RangeSource, read_joint_range
    from .distributions import JointDistribution, validate_pmf
    from . import datasets
    from .citations import cite, bibtex, citation_keys, used_citations, reset_citations
    from .graphs import *  # noqa: F401,F403
    from .measures import *  # noqa: F401,F403
    from .mechanisms import *  # noqa: F401,F403
    from .release import *  # noqa: F401,F403
    from .analysis import *  # noqa: F401,F403
    from . import errors as _errors, graphs as _graphs, measures as _measures, mechanisms as _mechanisms, release as _release, analysis as _analysis

__all__ = [
    "JointRange", "RangeSource", "read_joint_range", "JointDistribution", "validate_pmf", "MISSING", "datasets", "viz", "reproduce",
    "cite", "bibtex", "citation_keys", "used_citations", "reset_citations",
    *_errors.__all__, *_graphs.__all__, *_measures.__all__, *_mechanisms.__all__, *_release.__all__, *_analysis.__all__,
]

try:
    __version__ = _version("graphpriv")
except PackageNotFoundError:  # pragma: no cover - running from a source tree without install
    __version__ = "0.0.0+unknown"


def __getattr__(name):  # lazy: importing graphpriv does not import matplotlib.pyplot
    if name in ("viz", "reproduce"):
        import importlib

        return importlib.import_module(f".{name}", __name__)
    raise AttributeError(f"module 'graphpriv' has no attribute {name!r}")
