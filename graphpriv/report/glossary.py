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

__all__ = ["Term", "GLOSSARY", "PAPER", "PAPER_SHORT", "glossary_lines", "glossary_rows", "term", "StochasticTerm",
           "STOCHASTIC_GLOSSARY", "stochastic_glossary_lines", "stochastic_term"]

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


# ---------------------------------------------------------------------- stochastic measures
#: The papers of the stochastic measures, short and full.
WATCHDOG_PAPER = ("Sadeghi, Ding & Rakotoarivelo 2020", "On Properties and Optimization of Information-theoretic Privacy "
                  "Watchdog, ITW 2020")
LINEAR_PAPER = ("Ding, Liu & Farokhi 2021", "A Linear Reduction Method for Local Differential Privacy and Log-lift, ISIT 2021")


@dataclass(frozen=True)
class StochasticTerm:
    """A stochastic measure of the table's empirical distribution: key, symbol, meaning, paper and where in it."""

    key: str
    symbol: str
    meaning: str
    paper: str
    where: str


STOCHASTIC_GLOSSARY: tuple[StochasticTerm, ...] = (
    StochasticTerm("max_log_lift", "max i(s,x)", "largest log-lift log p(s,x)/(p(s)p(x)): how much seeing x raises belief in s",
                   WATCHDOG_PAPER[0], "Sec. I"),
    StochasticTerm("min_log_lift", "min i(s,x)", "smallest log-lift (-inf: some x rules some s out)", WATCHDOG_PAPER[0], "Sec. I"),
    StochasticTerm("above_eps", "|X_eps^c|", "public values with max_s |i(s,x)| > eps (their share and probability mass)",
                   WATCHDOG_PAPER[0], "eqs. (1), (4)"),
    StochasticTerm("mutual_information", "I(S;X)", "mutual information: the average log-lift E[i(S,X)]", WATCHDOG_PAPER[0], "Sec. I"),
    StochasticTerm("maximal_leakage", "L_max(S->X)", "maximal leakage log sum_x max_s p(x|s): the most any guess of S gains",
                   WATCHDOG_PAPER[0], "Sec. I"),
    StochasticTerm("ldp", "eps_LDP(S->X)", "LDP of publishing X as is: max_x log(max_s p(x|s) / min_s p(x|s))",
                   LINEAR_PAPER[0], "eq. (1)"),
    StochasticTerm("nmil", "NMIL", "utility lost by the watchdog at eps: H(X|Y)/H(X) of merging X_eps^c (0 = none)",
                   WATCHDOG_PAPER[0], "eq. (9)"),
)

_STOCH_BY_KEY = {t.key: t for t in STOCHASTIC_GLOSSARY}


def stochastic_term(key: str) -> StochasticTerm:
    """The :class:`StochasticTerm` of ``key``."""
    try:
        return _STOCH_BY_KEY[key]
    except KeyError:
        raise KeyError(f"no stochastic glossary entry {key!r}; known: {sorted(_STOCH_BY_KEY)}") from None


def stochastic_glossary_lines(keys: Iterable[str] | None = None, *, indent: str = "  ") -> list[str]:
    """Plain-text lines: a heading naming the papers, then one line per stochastic measure."""
    rows = list(STOCHASTIC_GLOSSARY) if keys is None else [stochastic_term(k) for k in keys]
    width = max(len(t.symbol) for t in rows) + 2
    return [f"stochastic measures ({WATCHDOG_PAPER[0]}, \"{WATCHDOG_PAPER[1].split(', ITW')[0]}\"; {LINEAR_PAPER[0]}, "
            f"\"{LINEAR_PAPER[1].split(', ISIT')[0]}\"; graphpriv cite 002 / 000):"] + [
        f"{indent}{t.symbol:<{width}}{t.meaning} [{t.paper}, {t.where}]" for t in rows]
