"""What each measure means, in one line, with the paper that defines it: the one glossary that the printed
summaries (``graphpriv demo``, ``analyze``, ``sanitize``), ``report.md`` and ``report.html`` show.

Every non-stochastic measure, both utilities and the Lagrangian come from Ding & Farokhi, *Developing
Non-Stochastic Privacy-Preserving Policies Using Agglomerative Clustering* (IEEE Transactions on
Information Forensics and Security 15, 2020). [[S|x]] is the set of sensitive values seen with the public
value x; logarithms are base 2 (bits).

Examples
--------
>>> from graphpriv.report.glossary import glossary_lines
>>> print(glossary_lines(["I*"])[1])
  I*(S;X)  log2 of the number of components of G_X: the bits of S that X reveals without error [Def. 1(e), Lemma 2]
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Iterable

__all__ = ["Term", "GLOSSARY", "PAPER", "PAPER_SHORT", "glossary_lines", "glossary_rows", "term"]

#: The paper that defines the measures below.
PAPER = ("Ding & Farokhi, Developing Non-Stochastic Privacy-Preserving Policies Using Agglomerative Clustering, "
         "IEEE TIFS 15 (2020)")
PAPER_SHORT = "Ding & Farokhi 2020"


@dataclass(frozen=True)
class Term:
    """One measure: its key (as the reports name it), how it is written, what it means, where the paper defines it."""

    key: str
    symbol: str
    meaning: str
    where: str


GLOSSARY: tuple[Term, ...] = (
    Term("H0", "H0(S)", "log2|[[S]]|: the uncertainty about S before seeing X (Hartley entropy)", "Sec. II"),
    Term("H0|X", "H0(S|X)", "max_x log2|[[S|x]]|: the most uncertainty about S left after seeing X", "Sec. II"),
    Term("I0", "I0(S->X)", "min_x log2(|[[S]]|/|[[S|x]]|): the least that any public value reveals about S", "Sec. III-A"),
    Term("L0", "L0(S->X)", "max_x log2(|[[S]]|/|[[S|x]]|): the most that any public value reveals about S (0 = nothing)",
         "Sec. III-A"),
    Term("B0", "B0(S|X)", "min_x log2|[[S|x]]|: what is left of S after the most revealing public value (0 = S pinned down)",
         "Sec. III-A"),
    Term("k", "k", "k-anonymity min_x |[[S|x]]|: every public value is seen with at least k sensitive values", "Def. 2"),
    Term("I*", "I*(S;X)", "log2 of the number of components of G_X: the bits of S that X reveals without error",
         "Def. 1(e), Lemma 2"),
    Term("U1", "U1", "I0(X->X^) = log2(|[[X]]| / largest cluster): what the released X^ still tells about X", "Sec. V-A"),
    Term("U2", "U2", "-max_x |x - x^|: minus the largest distance from a value to its cluster's codeword (centroid)",
         "Sec. V-A"),
    Term("lambda", "λ", "Lagrange multiplier: the bits of privacy one unit of utility is worth (larger λ, fewer merges)",
         "eqs. (3), (5)"),
    Term("L", "L", "the Lagrangian privacy - λ·utility (privacy = L0 or I*) that every merge must lower", "eqs. (3), (5)"),
)

_BY_KEY = {t.key: t for t in GLOSSARY}


def term(key: str) -> Term:
    """The :class:`Term` of ``key`` ("H0", "H0|X", "I0", "L0", "B0", "k", "I*", "U1", "U2", "lambda", "L")."""
    try:
        return _BY_KEY[key]
    except KeyError:
        raise KeyError(f"no glossary entry {key!r}; known: {sorted(_BY_KEY)}") from None


def glossary_rows(keys: Iterable[str] | None = None) -> list[Term]:
    """The terms of ``keys`` in that order (default: all, in glossary order)."""
    return list(GLOSSARY) if keys is None else [term(k) for k in keys]


def glossary_lines(keys: Iterable[str] | None = None, *, indent: str = "  ") -> list[str]:
    """Plain-text lines: a heading naming the paper, then one line per measure (symbol, meaning, section)."""
    rows = glossary_rows(keys)
    width = max(len(t.symbol) for t in rows) + 2
    return [f"measures ({PAPER_SHORT}, \"Developing Non-Stochastic Privacy-Preserving Policies Using Agglomerative "
            "Clustering\"; graphpriv cite 003):"] + [
        f"{indent}{t.symbol:<{width}}{t.meaning} [{t.where}]" for t in rows]
