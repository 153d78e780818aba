"""Validated inputs and shared rules of the quantisation mechanisms.

Ding & Farokhi, *Developing Non-Stochastic Privacy-Preserving Policies Using Agglomerative Clustering*:
the integer codes of [[X]], the S-sets [[S|x]], the components of G_X (P(0)), the bound utility, the
tolerances of the tie rules and the per-step record of a merge trajectory. The lowest layer of
:mod:`graphpriv.mechanisms.quantization`: every other module of the family imports from here.
"""

from __future__ import annotations

import math
import re
from typing import Any

import numpy as np

from ..._validation import check_base
from ...errors import InputError, InputTypeError
from ...graphs.support import components
from ...ranges import JointRange
from ..trace import _UnionFind
from ..utilities import U2, as_utility

#: objectives accepted by :func:`graphpriv.agglomerate` (aliases map to the canonical name)
OBJECTIVES = {"L0": "L0", "I*": "I*", "I_star": "I*", "Istar": "I*", "L0|I*=0": "L0|I*=0"}

_COST_TOL = 1e-9  # costs are rounded to multiples of this before ties are decided
_DL_TOL = 1e-12  # a step is accepted when ΔL < -_DL_TOL

_ALGORITHM = {"L0": "Algorithm 1 (paper 003, problem (3))", "I*": "Algorithm 2 (paper 003, problem (5))",
              "L0|I*=0": "Section V-C (paper 003, problem (10), eqs. (11)-(12))"}


# ====================================================================== problem set-up
class _Problem:
    """Validated inputs shared by the mechanisms: integer codes, S-sets, components, bound utility."""

    def __init__(self, jr: JointRange, objective: str, utility: Any, values: Any, base: float):
        if not isinstance(jr, JointRange):
            raise InputTypeError(f"jr must be a JointRange, got {type(jr).__name__}; build one with gp.JointRange.from_pairs or from_dataframe")
        self.jr = jr
        self.objective = _check_objective(objective)
        self.base = check_base(base)
        self.lb = math.log(self.base)
        self.utility_obj = as_utility(utility, values)
        self.labels = jr.public_labels.tolist()
        if isinstance(self.utility_obj, U2):
            self.utility_obj, values = _u2_inputs(self.utility_obj, values, self.labels)
        self.n = len(self.labels)
        self.n_s = jr.n_sensitive
        self.ub = self.utility_obj.bind(self.labels, values if self.utility_obj.needs_values else None, base=self.base)
        csc = jr.matrix.tocsc()
        csc.sort_indices()
        self.s_ptr = csc.indptr
        self.s_idx = csc.indices
        self.s_deg = np.diff(csc.indptr).astype(np.int64)
        self.comp0 = components(jr).public.astype(np.int64)
        self.tie_rule = "paper"
        self.n_comp0 = int(self.comp0.max()) + 1 if self.n else 0

    def sset(self, code: int) -> frozenset:
        return frozenset(self.s_idx[self.s_ptr[code]:self.s_ptr[code + 1]].tolist())

    # measures -------------------------------------------------------
    def l0(self, min_s: int) -> float:
        return (math.log(self.n_s) - math.log(min_s)) / self.lb

    def istar(self, n_comp: int) -> float:
        return math.log(n_comp) / self.lb

    @property
    def utility_name(self) -> str:
        return self.utility_obj.name if isinstance(self.utility_obj.name, str) else "U"

    def info(self) -> dict:
        d = {"algorithm": _ALGORITHM[self.objective], "tie_rule": self.tie_rule, "cost_tol": _COST_TOL, "delta_L_tol": _DL_TOL}
        if isinstance(self.utility_obj, U2):
            d["utility_spec"] = self.utility_obj.spec
        return d


_NUMBER_TEXT = re.compile(r"[+-]?(?:\d+\.?\d*|\.\d+)(?:[eE][+-]?\d+)?")


def public_numbers(labels, column: str | None = None) -> dict:
    """``{label: float}``: the number of every public label, for U2 (Ding & Farokhi, *Developing
    Non-Stochastic Privacy-Preserving Policies Using Agglomerative Clustering*, Section V-A: the
    distortion |x - x̂| needs numeric public values).

    The one rule of :func:`graphpriv.agglomerate` (``utility="U2"`` without ``values``, or
    ``values="labels"``) and of ``graphpriv sanitize --utility U2``: numbers are used as numbers; text
    is used when it is a decimal number as written (``"130"``, ``"-1.5"``, ``"2e3"``; not ``"1_0"``,
    ``" 1"`` or ``"0x10"``), and two distinct texts of one number (``"+1"`` and ``"1"``) are refused
    -- they would be two public values at distance 0 (``--numbers`` refuses them as well). Booleans,
    the missing value and non-finite numbers have no number.

    Raises
    ------
    InputError
        A missing value among the labels; two texts of one number.
    InputTypeError
        A label that is not a number nor the text of one, a boolean, a non-finite number.
    """
    from ..._validation import MISSING

    where = f"column {column!r}" if column else "the public column"
    out: dict = {}
    texts: dict = {}
    for lab in labels:
        if lab is MISSING:
            raise InputError(f"{where} has missing values, which have no number for U2; drop them (--missing drop, "
                             "missing='drop') or use U1 (--utility U1)")
        if isinstance(lab, (bool, np.bool_)):
            raise InputTypeError(f"{where} holds the boolean {lab!r}; U2 needs numbers -- use U1, or give values=")
        if isinstance(lab, str):
            from ..._labels import TimeText

            if isinstance(lab, TimeText):
                raise InputTypeError(f"{where} holds dates or times (e.g. {str(lab)!r}); U2 measures distances between "
                                     "numbers -- use U1 (--utility U1), which releases them as intervals of time")
            if not _NUMBER_TEXT.fullmatch(lab):
                raise InputTypeError(f"{where} holds non-numeric values (e.g. {lab!r}); U2 needs numbers -- clean the "
                                     "column, or use U1 (--utility U1)")
            v = float(lab)
            other = texts.setdefault(v, lab)
            if other != lab:
                raise InputError(f"{where} holds {other!r} and {lab!r}, two texts of the number {v:g}; U2 would keep them "
                                 "as two values at distance 0 -- write each number one way (clean the column)")
        elif isinstance(lab, (int, float, np.integer, np.floating)):
            v = float(lab)
        else:
            raise InputTypeError(f"{where} holds {lab!r}; U2 needs numbers -- give values= (label -> number) or use U1 (--utility U1)")
        if not math.isfinite(v):
            raise InputTypeError(f"{where} holds the value {lab!r}; U2 needs finite numbers -- clean the column or use U1 (--utility U1)")
        if isinstance(lab, (int, np.integer)) and abs(int(lab)) > 2**53:
            raise InputError(f"{where} holds {int(lab)}, an integer beyond 2^53 = 9007199254740992, which a 64-bit float "
                             "does not hold exactly (U2 measures distances and centroids in 64-bit floats) -- subtract an "
                             "offset from the column, or use U1 (--utility U1)")
        out[lab] = v
    _check_float_range(out, where)
    return out


def _check_float_range(numbers: dict, where: str) -> None:
    """Refuse values whose distances or cluster sums overflow a 64-bit float (U2's centroids and
    distortions would be infinite)."""
    if not numbers:
        return
    v = np.abs(np.fromiter(numbers.values(), dtype=float, count=len(numbers)))
    i = int(np.argmax(v))
    if float(v[i]) > np.finfo(float).max / max(2, len(v)):
        lab = list(numbers)[i]
        raise InputError(f"{where} holds {lab!r}: distances and centroids of values this large overflow a 64-bit float "
                         f"(at most {np.finfo(float).max:.3g}) -- rescale the column (e.g. divide it by 1e300), or use U1 "
                         "(--utility U1)")


def _u2_inputs(utility: U2, values: Any, labels: list):
    """The U2 utility and the values to bind it with: the labels' numbers (:func:`public_numbers`)
    when no values are given or ``values="labels"``; a given mapping must not hold booleans."""
    import copy
    from collections.abc import Mapping

    vals = utility.values if values is None else values
    if vals is None or (isinstance(vals, str) and vals == "labels"):
        try:
            numbers = public_numbers(labels)
        except InputTypeError as exc:
            if vals is not None or any(isinstance(x, (bool, np.bool_)) for x in labels):
                raise
            raise InputError(f"utility U2 needs numeric public values: pass values={{label: number, ...}} ({exc})") from None
        if utility.values is not None:
            utility = copy.copy(utility)
            utility.values = None
        return utility, numbers
    items = vals.values() if isinstance(vals, Mapping) else vals.to_numpy() if hasattr(vals, "to_numpy") else ()
    bad = next((v for v in items if isinstance(v, (bool, np.bool_))), None)
    if bad is not None:
        raise InputTypeError(f"values holds the boolean {bad!r}; U2 needs numbers (or equal-length numeric vectors)")
    return utility, values


def _check_objective(objective: Any) -> str:
    if not isinstance(objective, str) or objective.replace(" ", "") not in OBJECTIVES:
        raise InputError(f"objective={objective!r} is not known; use 'L0' (Algorithm 1), 'I*' (Algorithm 2) or 'L0|I*=0' (Section V-C)")
    return OBJECTIVES[objective.replace(" ", "")]


def _check_tie_rule(rule: Any) -> str:
    if rule not in ("paper", "index"):
        raise InputError(f"tie_rule={rule!r} is not known; use 'paper' (paper 003's rules, default) or 'index' (lowest pair index)")
    return rule


def _check_lam(lam: Any) -> float:
    if isinstance(lam, (bool, np.bool_)) or not isinstance(lam, (int, float, np.integer, np.floating)):
        raise InputTypeError(f"lam (the Lagrange multiplier λ) must be a number >= 0, got {lam!r}")
    try:
        lam = float(lam)
    except OverflowError:                      # an int beyond the float range, e.g. 10**400
        raise InputError("lam (the Lagrange multiplier λ) must be a finite number >= 0, got an integer beyond the "
                         "float range (about 1.8e308)") from None
    if not math.isfinite(lam) or lam < 0:
        raise InputError(f"lam (the Lagrange multiplier λ) must be a finite number >= 0, got {lam!r}")
    return lam


def _q(cost):
    """Cost rounded to the tie tolerance (works on scalars and arrays; inf stays inf)."""
    return np.round(np.asarray(cost, dtype=float) / _COST_TOL)


# ====================================================================== trajectories
class _Traj:
    """Per-step record of a λ-free merge trajectory: merges and (privacy, utility, |Q|, |P|)."""

    def __init__(self, priv0: float, util0: float, ncl0: int, ncomp0: int):
        self.merges: list[tuple] = [()]
        self.priv = [priv0]
        self.util = [util0]
        self.ncl = [ncl0]
        self.ncomp = [ncomp0]

    def add(self, merges, priv, util, ncl, ncomp):
        self.merges.append(tuple(merges))
        self.priv.append(priv)
        self.util.append(util)
        self.ncl.append(ncl)
        self.ncomp.append(ncomp)

    def __len__(self):
        return len(self.merges)


class _Stopper:
    """Decides, after each recorded step, whether the λ-run stops (the step is then rejected)."""

    def __init__(self, lam: float | None):
        self.lam = lam

    def reject(self, priv_old, util_old, priv_new, util_new) -> bool:
        if self.lam is None:
            return False
        dl = (priv_new - priv_old) - self.lam * (util_new - util_old)
        return not dl < -_DL_TOL


def upper_pair_blocks(k: int, max_pairs: int):
    """Every position pair (i, j), 0 <= i < j < k, in row-major order, as (I, J) arrays of blocks of
    whole rows holding about ``max_pairs`` pairs each (vectorised scans of all pairs in bounded memory)."""
    rows = max(1, max_pairs // max(k, 1))
    for r0 in range(0, k - 1, rows):
        r1 = min(k - 1, r0 + rows)
        counts = k - 1 - np.arange(r0, r1)
        I = np.repeat(np.arange(r0, r1), counts)
        starts = np.cumsum(counts) - counts
        yield I, np.arange(counts.sum()) - np.repeat(starts, counts) + I + 1


def n_components_after(comp0, n_comp0: int, groups) -> int:
    """Number of components of G_X once every cluster of ``groups`` is merged: the original components
    (``comp0[code]``, ``n_comp0`` of them) joined whenever one cluster spans several."""
    uf = _UnionFind(n_comp0)
    for g in groups:
        first = int(comp0[g[0]])
        for e in g[1:]:
            uf.union(first, int(comp0[e]))
    return len({uf.find(c) for c in range(n_comp0)})
