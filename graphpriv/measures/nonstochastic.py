"""Non-stochastic information measures of a joint range (paper 003, Sections II--IV).

All logarithms are base 2 (bits) unless ``base=`` says otherwise. For a joint range [[S, X]]:

* H0(S) = log |[[S]]| (Hartley entropy), H0(S|X) = max_x log |[[S|x]]|;
* I0(S->X) = H0(S) - H0(S|X) = min_x log(|[[S]]| / |[[S|x]]|) (non-stochastic 0-information);
* B0(S|X) = min_x log |[[S|x]]| and L0(S->X) = H0(S) - B0(S|X) = max_x log(|[[S]]| / |[[S|x]]|);
* k-anonymity (Definition 2): the largest k with |[[S|x]]| >= k for every x, i.e. min_x |[[S|x]]|;
* I*(S;X) = log |P*| (maximin information, Definition 1(e)), P* the finest overlap partition,
  equal by Lemma 2 to the number of connected components of G_X.

Examples use the Fig. 1 joint range of paper 003 (``gp.datasets.paper_example()``).
"""

from __future__ import annotations

import numpy as np

from .._validation import check_base, log
from ..errors import InputError, InputTypeError
from ..graphs.support import components
from ..ranges import JointRange

__all__ = [
    "H0",
    "I0",
    "L0",
    "B0",
    "k_anonymity",
    "overlap_partition",
    "finest_decomposition",
    "maximin_information",
    "I_star",
    "n_components",
]

_VARS = {"S": "S", "X": "X", "sensitive": "S", "public": "X"}


def _check(jr) -> JointRange:
    if not isinstance(jr, JointRange):
        raise InputTypeError(f"expected a JointRange, got {type(jr).__name__}; build one with gp.JointRange.from_pairs or from_dataframe")
    return jr


def _var(v: str, name: str) -> str:
    try:
        return _VARS[v]
    except (KeyError, TypeError):
        raise InputError(f"{name}={v!r} must be 'S' (sensitive) or 'X' (public)") from None


def _degrees(jr: JointRange, of: str) -> tuple[int, np.ndarray]:
    """(|range of `of`|, |[[of | other = v]]| for every value v of the other variable)."""
    if of == "S":
        return jr.n_sensitive, jr.public_degrees
    return jr.n_public, jr.sensitive_degrees


def H0(jr: JointRange, variable: str = "S", given: str | None = None, *, base: float = 2) -> float:
    """Hartley entropy H0 of ``variable`` (log of its range size), or its conditional version.

    ``H0(jr)`` is H0(S) = log|[[S]]|; ``H0(jr, given="X")`` is H0(S|X) = max_x log|[[S|x]]|.
    ``variable="X"`` gives the same for X.

    Examples
    --------
    >>> import graphpriv as gp
    >>> jr, _ = gp.datasets.paper_example()
    >>> round(gp.H0(jr), 4), gp.H0(jr, given="X")     # log2 6, log2 2
    (2.585, 1.0)
    """
    _check(jr)
    v = _var(variable, "variable")
    n, deg = _degrees(jr, v)
    if given is None:
        return float(log(n, base))
    if _var(given, "given") == v:
        raise InputError(f"given={given!r} must be the other variable than {variable!r}")
    return float(log(deg.max(), base))


def I0(jr: JointRange, *, direction: str = "S->X", base: float = 2) -> float:
    """Non-stochastic 0-information I0(S->X) = min_x log(|[[S]]| / |[[S|x]]|) (paper 003, Sec. III-A).

    ``direction="X->S"`` gives I0(X->S) = min_s log(|[[X]]| / |[[X|s]]|).

    Examples
    --------
    >>> import graphpriv as gp
    >>> jr, _ = gp.datasets.paper_example()
    >>> round(gp.I0(jr), 4)     # log2(6/2)
    1.585
    """
    _check(jr)
    of = _direction(direction)
    n, deg = _degrees(jr, of)
    return float(log(n, base) - log(deg.max(), base))


def L0(jr: JointRange, *, direction: str = "S->X", base: float = 2) -> float:
    """Maximal non-stochastic leakage L0(S->X) = max_x log(|[[S]]| / |[[S|x]]|) (paper 003, Sec. III-A).

    Examples
    --------
    >>> import graphpriv as gp
    >>> jr, _ = gp.datasets.paper_example()
    >>> round(gp.L0(jr), 4)     # log2(6/1)
    2.585
    """
    _check(jr)
    of = _direction(direction)
    n, deg = _degrees(jr, of)
    return float(log(n, base) - log(deg.min(), base))


def B0(jr: JointRange, *, direction: str = "S->X", base: float = 2) -> float:
    """Minimal posterior uncertainty B0(S|X) = min_x log|[[S|x]]| (paper 003, Sec. III-A).

    Examples
    --------
    >>> import graphpriv as gp
    >>> jr, _ = gp.datasets.paper_example()
    >>> gp.B0(jr)
    0.0
    """
    _check(jr)
    of = _direction(direction)
    _, deg = _degrees(jr, of)
    return float(log(deg.min(), base))


def k_anonymity(jr: JointRange) -> int:
    """Largest k for which [[S|X]] is k-anonymous (Definition 2): min_x |[[S|x]]|.

    By Lemma 1, [[S|X]] is k-anonymous iff B0(S|X) >= log k iff L0(S->X) <= log(|[[S]]| / k).

    Examples
    --------
    >>> import graphpriv as gp
    >>> jr, _ = gp.datasets.paper_example()
    >>> gp.k_anonymity(jr)
    1
    """
    _check(jr)
    return int(jr.public_degrees.min())


def _direction(direction: str) -> str:
    if direction in ("S->X", "S→X"):
        return "S"
    if direction in ("X->S", "X→S"):
        return "X"
    raise InputError(f"direction={direction!r} must be 'S->X' or 'X->S'")


def n_components(jr: JointRange) -> int:
    """Number of connected components of the confusability graph G_X (= |P*_{G_X}|)."""
    return components(_check(jr)).n_components


def finest_decomposition(jr: JointRange) -> list[frozenset]:
    """Finest decomposition P*_{G_X}: the connected components of G_X as sets of public labels.

    Computed from the bipartite support graph (Lemma 2), never from G_X itself. Components are listed
    by their smallest public index.

    Examples
    --------
    >>> import graphpriv as gp
    >>> jr, _ = gp.datasets.paper_example()
    >>> [sorted(c) for c in gp.finest_decomposition(jr)]
    [['x1', 'x2'], ['x3', 'x4'], ['x5'], ['x6'], ['x7']]

    Notes
    -----
    O(|S| + |X| + |[[S, X]]|) for the components; building the Python sets is O(|X|). For very large
    ranges use :func:`graphpriv.components`, which returns integer arrays.
    """
    c = components(_check(jr))
    labels = jr.public_labels
    return [frozenset(labels[g].tolist()) for g in c.public_groups()]


def overlap_partition(jr: JointRange) -> list[frozenset]:
    """Finest [[S|X]]-overlap partition P*_{[[S|X]]} (Definition 1(d)) as sets of sensitive labels.

    By Lemma 2 these are {[[S|X_i]] : X_i in P*_{G_X}}, listed in the same order as
    :func:`finest_decomposition`.

    Examples
    --------
    >>> import graphpriv as gp
    >>> jr, _ = gp.datasets.paper_example()
    >>> [sorted(c) for c in gp.overlap_partition(jr)]
    [['s1', 's2'], ['s3'], ['s4'], ['s5'], ['s6']]
    """
    c = components(_check(jr))
    labels = jr.sensitive_labels
    return [frozenset(labels[g].tolist()) for g in c.sensitive_groups()]


def maximin_information(jr: JointRange, *, base: float = 2) -> float:
    """Maximin information I*(S;X) = log |P*_{G_X}| (paper 003, Definition 1(e) and Lemma 2).

    Examples
    --------
    >>> import graphpriv as gp
    >>> jr, _ = gp.datasets.paper_example()
    >>> round(gp.maximin_information(jr), 4)     # log2 5
    2.3219

    Notes
    -----
    One connected-components pass over the bipartite support graph: O(|S| + |X| + |[[S, X]]|).
    """
    check_base(base)
    return float(log(components(_check(jr)).n_components, base))


I_star = maximin_information
