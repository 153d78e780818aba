"""What to cite: graphpriv, the papers it implements and the data set it ships, as BibTeX.

The bibliography is ``graphpriv/data/references.bib``. Each mechanism's public entry point records the
paper it implements the first time it runs in a Python session (:func:`record_use`), so
:func:`cite` with no argument prints the package entry followed by the papers of exactly the methods
you used, in the order you first used them. Entries can also be asked for by name.

======================================  =====================================================================
name (aliases)                          entry
======================================  =====================================================================
``graphpriv``                           the package (``CITATION.cff`` says the same)
``linear_reduction`` (``ldp``,          Ding, Liu & Farokhi, "A Linear Reduction Method for Local
``000``, ``001``)                       Differential Privacy and Log-lift", ISIT 2021
``watchdog`` (``002``)                  Sadeghi, Ding & Rakotoarivelo, "On Properties and Optimization of
                                        Information-theoretic Privacy Watchdog", ITW 2020
``agglomerative`` (``maximin``,         Ding & Farokhi, "Developing Non-Stochastic Privacy-Preserving
``003``)                                Policies Using Agglomerative Clustering", IEEE TIFS 2020
``sample_privacy`` (``004``)            Rassouli, Rosas & Gündüz, "Data Disclosure under Perfect Sample
                                        Privacy", IEEE TIFS 2020
``privacy_funnel`` (``funnel``,         Ding & Sadeghi, "A Submodularity-based Clustering Algorithm for the
``information_bottleneck``)             Information Bottleneck and Privacy Funnel", ITW 2019
``watchdog_subsets``                    Zarrabian, Ding, Sadeghi & Rakotoarivelo, "Enhancing Utility in the
(``watchdog_subset``)                   Watchdog Privacy Mechanism", ICASSP 2022
``alpha_lift`` (``alpha_watchdog``)     Ding, Zarrabian & Sadeghi, "alpha-Information-theoretic Privacy
                                        Watchdog and Optimal Privatization Scheme", arXiv:2101.10551
``subsup``, ``modmod``                  Narasimhan & Bilmes (UAI 2005); Iyer & Bilmes (UAI 2012): the
                                        difference-of-submodular minimisers of the funnel's subset step
``hungarian`` (``heart_disease``)       Janosi, Steinbrunn, Pfisterer & Detrano, "Heart Disease", UCI
                                        Machine Learning Repository, 1989 (CC BY 4.0)
======================================  =====================================================================

Examples
--------
>>> import graphpriv as gp
>>> gp.cite("watchdog")                                   # doctest: +ELLIPSIS
@inproceedings{sadeghi2020watchdog,
  author       = {Sadeghi, Parastoo and Ding, Ni and Rakotoarivelo, Thierry},
  title        = {On Properties and Optimization of Information-theoretic Privacy Watchdog},
...
>>> [k for k in gp.citation_keys() if k != "graphpriv"][:2]
['ding2021linear', 'sadeghi2020watchdog']
"""

from __future__ import annotations

import re
import sys
import threading
from functools import lru_cache
from importlib import resources

from .errors import UnknownLabelError

__all__ = ["cite", "bibtex", "citation_keys", "record_use", "used_citations", "reset_citations"]

#: Names a user (or an entry point) may give, mapped to BibTeX keys of ``references.bib``.
ALIASES: dict[str, str] = {
    "graphpriv": "graphpriv", "package": "graphpriv",
    "linear_reduction": "ding2021linear", "ldp": "ding2021linear", "log_lift": "ding2021linear",
    "000": "ding2021linear", "001": "ding2021linear",
    "watchdog": "sadeghi2020watchdog", "privacy_watchdog": "sadeghi2020watchdog", "002": "sadeghi2020watchdog",
    "agglomerative": "ding2020agglomerative", "agglomerate": "ding2020agglomerative",
    "maximin": "ding2020agglomerative", "nonstochastic": "ding2020agglomerative", "003": "ding2020agglomerative",
    "sample_privacy": "rassouli2020perfect", "perfect_sample_privacy": "rassouli2020perfect",
    "004": "rassouli2020perfect",
    "privacy_funnel": "ding2019funnel", "funnel": "ding2019funnel", "information_bottleneck": "ding2019funnel",
    "watchdog_subsets": "zarrabian2022watchdog", "watchdog_subset": "zarrabian2022watchdog",
    "subset_watchdog": "zarrabian2022watchdog",
    "alpha_lift": "ding2021alphalift", "alpha_watchdog": "ding2021alphalift",
    "subsup": "narasimhan2005subsup", "modmod": "iyer2012dsfmin",
    "hungarian": "janosi1989heart", "heart_disease": "janosi1989heart", "uci": "janosi1989heart",
}

_used: dict[str, None] = {}          # insertion-ordered set of BibTeX keys used in this session
_lock = threading.Lock()


@lru_cache(maxsize=1)
def _entries() -> dict[str, str]:
    """BibTeX key -> entry text, in file order (read once from the package data)."""
    text = resources.files("graphpriv").joinpath("data", "references.bib").read_text(encoding="utf-8")
    entries: dict[str, str] = {}
    for chunk in re.split(r"\n(?=@)", text):
        m = re.match(r"@\w+\{([^,\s]+),", chunk.strip())
        if m:
            entries[m.group(1)] = chunk.strip()
    return entries


def _key(name: str) -> str:
    if not isinstance(name, str):
        raise UnknownLabelError(f"citation names are strings such as 'watchdog', got {type(name).__name__}")
    entries = _entries()
    if name in entries:
        return name
    norm = re.sub(r"[\s\-]+", "_", name.strip().lower()).replace("paper_", "")
    if norm in ALIASES:
        return ALIASES[norm]
    raise UnknownLabelError(f"unknown citation {name!r}; use one of {sorted(set(ALIASES) | set(entries))}")


def citation_keys() -> list[str]:
    """BibTeX keys of every entry in graphpriv's bibliography, in file order."""
    return list(_entries())


def record_use(name: str) -> None:
    """Note that a method of the paper ``name`` (an alias or key) ran in this session; called by entry points."""
    key = _key(name)
    if key not in _used:
        with _lock:
            _used.setdefault(key, None)


def used_citations() -> list[str]:
    """BibTeX keys recorded by :func:`record_use` in this session, in order of first use."""
    return list(_used)


def reset_citations() -> None:
    """Forget the recorded uses (a new analysis in the same session)."""
    with _lock:
        _used.clear()


def bibtex(*names: str) -> str:
    """BibTeX text: the named entries, or (no names) graphpriv plus the papers of the methods used so far.

    Parameters
    ----------
    *names : str
        Entry names or aliases (``"watchdog"``, ``"003"``, ``"hungarian"``, a BibTeX key, ...). None:
        ``graphpriv`` followed by :func:`used_citations`.

    Raises
    ------
    UnknownLabelError
        A name that is neither a key nor an alias (the message lists them).
    """
    keys = [_key(n) for n in names] if names else ["graphpriv", *used_citations()]
    keys = list(dict.fromkeys(keys))
    entries = _entries()
    return "\n\n".join(entries[k] for k in keys) + "\n"


def cite(*names: str, file=None) -> None:
    """Print the BibTeX to cite: graphpriv and the paper of each method used in this session, or ``names``.

    Parameters
    ----------
    *names : str
        As :func:`bibtex`; empty prints the package entry plus every paper whose method ran in this
        Python session (and the Hungarian data set if it was loaded).
    file : text stream, optional
        Where to print (default ``sys.stdout``).

    Examples
    --------
    >>> import graphpriv as gp
    >>> gp.reset_citations()
    >>> jr, _ = gp.datasets.paper_example()
    >>> _ = gp.agglomerate(jr, "I*", 0.3)
    >>> gp.cite()                                          # doctest: +ELLIPSIS
    @software{graphpriv,
    ...
    @article{ding2020agglomerative,
      author       = {Ding, Ni and Farokhi, Farhad},
    ...
    """
    print(bibtex(*names), end="", file=file if file is not None else sys.stdout)
