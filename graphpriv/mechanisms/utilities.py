"""Utility functions U_i(X; X̂) of a quantisation X̂ of X (paper 003, Section V-A).

* U1(X; X̂) = I0(X → X̂) = H0(X) - max_x̂ log |[[X|x̂]]| = log |X| - log (largest cluster size): the
  worst-case resolution of X that X̂ keeps. The paper sometimes types I0(S → X̂); every number it
  prints needs I0(X → X̂) (Examples 1-3), which is what is computed here.
* U2(X; X̂) = -max_{x, x̂: x̂ ∈ [[X̂|x]]} d(x, x̂) = -max_{𝒳 ∈ Q} d̄(𝒳): minus the largest distortion
  when every cluster 𝒳 is released as one codeword x̂ (its centroid by default) and d(x, x̂) = |x - x̂|.

Utilities are small objects usable as ``utility=`` in :func:`graphpriv.agglomerate`,
:func:`graphpriv.pareto_frontier` and :func:`graphpriv.exact_frontier`. ``U2`` needs numeric public
values, a mapping public label -> number (or vector); ``values="labels"`` uses the labels themselves.
"""

from __future__ import annotations

import math
import numbers
from collections.abc import Mapping
from typing import Any, Callable, Hashable, Sequence

import numpy as np

from .._validation import MISSING, check_base
from ..errors import InputError, InputTypeError

__all__ = ["Utility", "U1", "U2", "as_utility"]


class Utility:
    """Base class of the utilities U_i(X; X̂) of paper 003 (larger is better).

    Subclasses implement :meth:`bind` (returning an object with ``cluster_cost(codes)`` and
    ``value(costs, sizes)``), ``name`` and ``needs_values``.
    """

    name = "U"
    needs_values = False

    def bind(self, public_labels: Sequence[Hashable], values: Any = None, *, base: float = 2) -> "_Bound":  # pragma: no cover - abstract
        raise NotImplementedError


class _Bound:
    """A utility bound to one public alphabet (codes 0..n-1)."""

    name: str
    kind: str  # "size" (U1) or "distortion" (U2)

    def partition_value(self, groups: Sequence[np.ndarray]) -> float:
        raise NotImplementedError


class U1(Utility):
    """U1(X; X̂) = I0(X → X̂) = log|X| - log max_𝒳 |𝒳| (paper 003, Section V-A; base 2 by default).

    Examples
    --------
    >>> import graphpriv as gp
    >>> u = gp.U1()
    >>> round(u(["x1", "x2", "x3"], [{"x1", "x2"}, {"x3"}]), 4)   # log2 3 - log2 2
    0.585
    """

    name = "U1"
    needs_values = False

    def bind(self, public_labels, values=None, *, base: float = 2) -> "_BoundU1":
        return _BoundU1(len(public_labels), check_base(base))

    def __call__(self, public_labels, quantization, values=None, *, base: float = 2) -> float:
        """U1 of a quantisation (a partition of ``public_labels``)."""
        from .trace import _check_quantization, _groups

        cid = _check_quantization(list(public_labels), quantization)
        return self.bind(public_labels, base=base).partition_value(_groups(cid))

    def __repr__(self) -> str:
        return "U1()"

    def __eq__(self, other):
        return isinstance(other, U1)

    def __hash__(self):
        return hash("U1")


class _BoundU1(_Bound):
    name = "U1"
    kind = "size"

    def __init__(self, n: int, base: float):
        self.n = n
        self.base = base
        self._lb = math.log(base)

    def value_from_max_size(self, max_size: int) -> float:
        return (math.log(self.n) - math.log(max_size)) / self._lb

    def partition_value(self, groups) -> float:
        return self.value_from_max_size(max(len(g) for g in groups))

    def codeword(self, codes) -> None:
        return None


_DISTANCES = ("abs", "squared")
_CODEWORDS = ("centroid", "medoid")


class U2(Utility):
    """U2(X; X̂) = -max_𝒳 d̄(𝒳), d̄(𝒳) = max_{x ∈ 𝒳} d(x, x̂_𝒳) (paper 003, Section V-A).

    Parameters
    ----------
    values : mapping label -> number or vector, "labels", or None
        Numeric value of every public label (e.g. eq. (4) of paper 003). ``"labels"`` uses the labels
        themselves (numeric labels such as cholesterol values). May be given here or as ``values=`` of
        the mechanism.
    codeword : {"centroid", "medoid"} or callable, default "centroid"
        The released value x̂ of a cluster: the mean of its members (paper's default), the member that
        minimises the summed distance to the other members (ties: lowest code), or
        ``f(member_values: ndarray) -> value``.
    distance : {"abs", "squared"} or callable, default "abs"
        d(x, x̂): ``|x - x̂|`` (Euclidean norm for vectors, the paper's default), its square, or
        ``d(x, x_hat) -> float``.

    Examples
    --------
    >>> import graphpriv as gp
    >>> _, values = gp.datasets.paper_example()
    >>> u = gp.U2(values)
    >>> round(u(list(values), [{"x1", "x2", "x4"}, {"x3", "x5"}, {"x6", "x7"}]), 4)   # Example 2, Q(1)
    -0.25

    Notes
    -----
    Scalar values with the centroid and ``"abs"``/``"squared"`` use a fast path (a cluster is summarised
    by count, sum, min and max); other settings evaluate d̄ on the members.
    """

    name = "U2"
    needs_values = True

    def __init__(self, values: Any = None, codeword: str | Callable = "centroid", distance: str | Callable = "abs"):
        if isinstance(codeword, str):
            if codeword not in _CODEWORDS:
                raise InputError(f"codeword={codeword!r} is not known; use one of {_CODEWORDS} or a callable f(member_values) -> codeword")
        elif not callable(codeword):
            raise InputTypeError(f"codeword must be 'centroid', 'medoid' or a callable, got {type(codeword).__name__}")
        if isinstance(distance, str):
            if distance not in _DISTANCES:
                raise InputError(f"distance={distance!r} is not known; use one of {_DISTANCES} or a callable d(x, x_hat) -> float")
        elif not callable(distance):
            raise InputTypeError(f"distance must be 'abs', 'squared' or a callable, got {type(distance).__name__}")
        self.values = values
        self.codeword = codeword
        self.distance = distance

    def bind(self, public_labels, values=None, *, base: float = 2) -> "_BoundU2":
        if values is not None and self.values is not None and values is not self.values:
            raise InputError("values were given twice (to U2(...) and as values=); give them once")
        vals = self.values if values is None else values
        return _BoundU2(_value_array(public_labels, vals), self.codeword, self.distance)

    def __call__(self, public_labels, quantization, values=None) -> float:
        """U2 of a quantisation (a partition of ``public_labels``)."""
        from .trace import _check_quantization, _groups

        cid = _check_quantization(list(public_labels), quantization)
        return self.bind(public_labels, values).partition_value(_groups(cid))

    @property
    def spec(self) -> str:
        cw = self.codeword if isinstance(self.codeword, str) else getattr(self.codeword, "__name__", "callable")
        d = self.distance if isinstance(self.distance, str) else getattr(self.distance, "__name__", "callable")
        return f"codeword={cw}, distance={d}"

    def __repr__(self) -> str:
        v = "None" if self.values is None else ("'labels'" if isinstance(self.values, str) else f"<{len(self.values)} values>")
        return f"U2(values={v}, {self.spec})"


def _checked_distances(rule, members, cw) -> np.ndarray:
    """``rule(m, cw)`` for every member ``m``: finite numbers >= 0, or a one-line error naming the pair."""
    out = np.empty(len(members), dtype=float)
    for i, m in enumerate(members):
        v = rule(m, cw)
        try:
            d = float(v)
        except (TypeError, ValueError, OverflowError):
            d = math.nan
        if isinstance(v, (bool, np.bool_)) or not (0 <= d < math.inf):
            shown = [x.tolist() if hasattr(x, "tolist") else x for x in (v, m, cw)]
            raise InputError(f"the U2 distance returned {shown[0]!r} for the value {shown[1]!r} and the codeword "
                             f"{shown[2]!r}; distance= "
                             "must return a finite number >= 0")
        out[i] = d
    return out


class _BoundU2(_Bound):
    name = "U2"
    kind = "distortion"

    def __init__(self, V: np.ndarray, codeword, distance):
        self.V = V
        self.scalar = V.ndim == 1
        self.codeword_rule = codeword
        self.distance_rule = distance
        self.fast = self.scalar and codeword == "centroid" and distance in _DISTANCES
        self.squared = distance == "squared"

    # d(x, x̂) for an array of member values and one codeword
    def _dist(self, members: np.ndarray, cw) -> np.ndarray:
        if callable(self.distance_rule):
            return _checked_distances(self.distance_rule, members, cw)
        diff = members - cw
        if self.scalar:
            d = np.abs(diff)
        else:
            d = np.sqrt(np.sum(diff * diff, axis=1))
        return d * d if self.squared else d

    def codeword(self, codes):
        """x̂ of the cluster made of ``codes`` (float for scalar values, tuple for vectors). The members are
        taken in code order, so the cluster, not the order its codes come in, fixes x̂ (a medoid tie goes
        to the lowest code)."""
        members = self.V[np.sort(np.asarray(codes, dtype=np.int64))]
        cw = self._codeword(members)
        if self.scalar:
            return float(cw) if isinstance(cw, (numbers.Number, np.generic)) else cw
        return tuple(np.asarray(cw, dtype=float).tolist())

    def _codeword(self, members: np.ndarray):
        rule = self.codeword_rule
        if rule == "centroid":
            return members.mean(axis=0)
        if rule == "medoid":
            tot = np.array([self._dist(members, m).sum() for m in members])
            return members[int(np.argmin(tot))]
        return rule(members)

    def cluster_cost(self, codes) -> float:
        """d̄(𝒳) = max_{x ∈ 𝒳} d(x, x̂_𝒳), with x̂ as :meth:`codeword` gives it (members in code order: d̄ of
        𝒳1 ⊔ 𝒳2 and of 𝒳2 ⊔ 𝒳1 agree when the medoid ties)."""
        members = self.V[np.sort(np.asarray(codes, dtype=np.int64))]
        if len(members) == 1 and not callable(self.codeword_rule) and not callable(self.distance_rule):
            return 0.0
        return float(np.max(self._dist(members, self._codeword(members))))

    def partition_value(self, groups) -> float:
        return 0.0 - max(self.cluster_cost(g) for g in groups)


def as_utility(utility: Any, values: Any = None) -> Utility:
    """Turn ``"U1"``, ``"U2"`` or a :class:`Utility` into a Utility object (validating ``values``)."""
    if isinstance(utility, Utility):
        return utility
    if isinstance(utility, str):
        key = utility.strip().upper()
        if key == "U1":
            return U1()
        if key == "U2":
            return U2()
        raise InputError(f"utility={utility!r} is not known; use 'U1', 'U2' or a utility object such as gp.U2(values, codeword='medoid')")
    raise InputTypeError(f"utility must be 'U1', 'U2' or a graphpriv Utility object (gp.U1(), gp.U2(...)), got {type(utility).__name__}")


def _value_array(public_labels: Sequence[Hashable], values: Any) -> np.ndarray:
    """Array of the numeric values of the public labels, code order; shape (n,) or (n, d)."""
    labels = list(public_labels)
    if values is None:
        raise InputError("utility U2 needs numeric public values: pass values={label: number, ...} (or values='labels' "
                         "when the public labels are numbers); U1 needs none")
    if isinstance(values, str):
        if values != "labels":
            raise InputError(f"values={values!r}: give a mapping label -> number or the string 'labels'")
        mapping = {x: x for x in labels if x is not MISSING}
    elif isinstance(values, Mapping):
        mapping = values
    elif hasattr(values, "to_dict") and hasattr(values, "index"):  # pandas Series indexed by label
        mapping = values.to_dict()
    else:
        raise InputTypeError(f"values must be a mapping public label -> number (or vector), got {type(values).__name__}")
    out = []
    missing = []
    for x in labels:
        if x not in mapping:
            missing.append(x)
            continue
        out.append(mapping[x])
    if missing:
        hint = " (the MISSING label has no number: build the range with missing='drop' for U2)" if any(m is MISSING for m in missing) else ""
        raise InputError(f"values has no number for {len(missing)} public label(s), e.g. {missing[:5]!r}{hint}")
    bad = next((v for v in out if isinstance(v, (str, bytes)) or v is None), None)
    if bad is not None or any(v is None for v in out):
        raise InputTypeError(f"values must be numbers (or equal-length numeric vectors); got {bad!r}")
    try:
        arr = np.asarray(out, dtype=float)
    except (TypeError, ValueError):
        bad = next((v for v in out if not _is_numeric(v)), None)
        raise InputTypeError(f"values must be numbers (or equal-length numeric vectors); got {bad!r}") from None
    if arr.ndim not in (1, 2) or len(arr) != len(labels):
        raise InputError("values must be scalars or equal-length vectors, one per public label")
    if not np.all(np.isfinite(arr)):
        raise InputError("values must be finite numbers (no NaN or infinity)")
    if arr.ndim == 2 and arr.shape[1] == 1:
        arr = arr[:, 0]
    return arr


def _is_numeric(v) -> bool:
    try:
        np.asarray(v, dtype=float)
        return True
    except (TypeError, ValueError):
        return False
