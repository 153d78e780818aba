"""Privacy against an adversary with side information A (paper 003, end of Section V-C).

The adversary observes the release X̂ *and* a side variable A. The data are triples (s, x, a); the
relevant graph is G_{X,A} whose nodes are the pairs (x, a) that occur, joined when their conditional
ranges [[S|x,a]] intersect. Quantising X merges (x, a) and (x', a) whenever x and x' share a cluster
(A is not touched). The privacy measures are

* L0(S → X̂ | A) = max_{(x̂, a)} log(|[[S|a]]| / |[[S|x̂, a]]|),
* I*(S; X̂, A) = log |P*| with P* the finest decomposition of G_{X̂,A},

and the utility is U_i(X; X̂) as without side information.

:class:`SideInformationRange` holds the triples as one :class:`~graphpriv.JointRange` of S against the
(x, a) nodes plus the code arrays saying which x and which a each node has. Passing it to
:func:`graphpriv.agglomerate` runs a steepest-descent agglomerative search: every iteration merges the
pair of clusters of X with the smallest ΔL (ties to the lowest pair index) and stops when no merge
lowers L (``"L0"``, ``"I*"``), or merges until I*(S; X̂, A) = 0 (``"L0|I*=0"``, which is feasible only
when A alone does not separate S, i.e. I*(S; A) = 0). Algorithms 1 and 2's candidate rules do not
transfer literally because one cluster of X is several nodes of G_{X,A}; the search evaluates every
pair, O(|Q|^2 · |[[S,X,A]]|) per iteration, and is meant for alphabets of at most a few hundred values.

Quantising the pair Y = (S, X) needs no special type: build the joint range whose public labels are
the pairs (see :func:`graphpriv.agglomerate`).
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from typing import Any, Hashable, Iterable

import numpy as np
import pandas as pd
import scipy.sparse as sp

from ..._validation import apply_missing_policy_columns, check_base, check_pairs, factorize_labels, log
from ...errors import InputError, InputTypeError, TooLargeError
from ...graphs.support import support_components
from ...ranges import JointRange, RangeSource, _column
from .contraction import Contraction
from .problem import OBJECTIVES, _check_lam
from .result import AgglomerationResult
from ..trace import MergeTrace, _check_quantization, _groups
from ..utilities import _BoundU2

__all__ = ["SideInformationRange", "side_information_L0", "side_information_maximin", "SIDE_INFORMATION_MAX_PUBLIC"]

#: Largest |X| the steepest-descent search under side information accepts by default.
SIDE_INFORMATION_MAX_PUBLIC = 300


@dataclass(frozen=True, eq=False)
class SideInformationRange:
    """Joint range [[S, X, A]] of sensitive data S, public data X and the adversary's side information A.

    Attributes
    ----------
    joint : JointRange
        S against the (x, a) nodes of G_{X,A} (public labels are ``(x, a)`` tuples).
    public_labels, side_labels : ndarray
        Labels of [[X]] and [[A]] in code order.
    node_public, node_side : ndarray of int
        For every node (column of ``joint``), the code of its x and of its a.

    Examples
    --------
    >>> import graphpriv as gp
    >>> sir = gp.SideInformationRange.from_triples(["s1", "s2", "s2", "s3"], ["x1", "x1", "x2", "x3"], ["a", "a", "b", "b"])
    >>> sir
    SideInformationRange(|S|=3, |X|=3, |A|=2, nodes=3)
    >>> gp.side_information_maximin(sir)       # (x1,a) and (x2,b) share s2; (x3,b) is alone
    1.0
    """

    joint: JointRange
    public_labels: np.ndarray = field(repr=False)
    side_labels: np.ndarray = field(repr=False)
    node_public: np.ndarray = field(repr=False)
    node_side: np.ndarray = field(repr=False)

    @classmethod
    def from_triples(cls, sensitive: Iterable[Hashable], public: Iterable[Hashable], side: Iterable[Hashable], *,
                     missing: str = "error") -> "SideInformationRange":
        """Build from three equal-length sequences of labels (``missing`` as in ``JointRange.from_pairs``)."""
        s, x = check_pairs(sensitive, public)
        a, _ = check_pairs(side, public)
        return cls._build(s, x, a, missing, ("sensitive", "public", "side"))

    @classmethod
    def from_dataframe(cls, df: pd.DataFrame, sensitive: Hashable, public: Hashable, side: Hashable, *,
                       missing: str = "error") -> "SideInformationRange":
        """Build from three columns of a table."""
        if not isinstance(df, pd.DataFrame):
            raise InputTypeError(f"df must be a pandas DataFrame, got {type(df).__name__}")
        if len(df) == 0:
            raise InputError("the table has no rows; a joint range needs at least one record")
        s, x, a = (_column(df, c, r) for c, r in ((sensitive, "sensitive"), (public, "public"), (side, "side")))
        return cls._build(s, x, a, missing, (str(sensitive), str(public), str(side)))

    @classmethod
    def _build(cls, s, x, a, missing, names) -> "SideInformationRange":
        (s, x, a), report = apply_missing_policy_columns([s, x, a], missing, names)
        keep_missing = missing == "keep"
        s_codes, s_labels = factorize_labels(s, names[0], keep_missing=keep_missing)
        x_codes, x_labels = factorize_labels(x, names[1], keep_missing=keep_missing)
        a_codes, a_labels = factorize_labels(a, names[2], keep_missing=keep_missing)
        node_key = x_codes * len(a_labels) + a_codes
        uniq, node_codes = np.unique(node_key, return_inverse=True)
        node_x, node_a = uniq // len(a_labels), uniq % len(a_labels)
        node_labels = np.empty(len(uniq), dtype=object)
        node_labels[:] = [(x_labels[i], a_labels[j]) for i, j in zip(node_x.tolist(), node_a.tolist())]
        joint = JointRange._from_codes(s_codes, node_codes.astype(np.int64), s_labels, node_labels, source=RangeSource(**report))
        return cls(joint, np.asarray(x_labels), np.asarray(a_labels), node_x.astype(np.int64), node_a.astype(np.int64))

    @property
    def n_public(self) -> int:
        return len(self.public_labels)

    def public_range(self) -> JointRange:
        """[[S, X]] (A ignored)."""
        m = self.joint.matrix @ _indicator(self.node_public, self.n_public)
        return JointRange(sp.csr_array(m > 0), self.joint.sensitive_labels, self.public_labels)

    def side_range(self) -> JointRange:
        """[[S, A]] (X ignored)."""
        m = self.joint.matrix @ _indicator(self.node_side, len(self.side_labels))
        return JointRange(sp.csr_array(m > 0), self.joint.sensitive_labels, self.side_labels)

    def __repr__(self) -> str:
        return (f"SideInformationRange(|S|={self.joint.n_sensitive}, |X|={self.n_public}, |A|={len(self.side_labels)}, "
                f"nodes={self.joint.n_public})")


def _indicator(codes: np.ndarray, n: int) -> sp.csr_array:
    return sp.csr_array((np.ones(len(codes), dtype=np.int32), (np.arange(len(codes)), codes)), shape=(len(codes), n))


def _cluster_ids(sir: SideInformationRange, quantization) -> np.ndarray:
    if quantization is None:
        return np.arange(sir.n_public)
    index = {lab: i for i, lab in enumerate(sir.public_labels.tolist())}
    return _check_quantization(sir.public_labels.tolist(), quantization, index)


def _quantized_matrix(sir: SideInformationRange, cid: np.ndarray) -> tuple[sp.csr_array, np.ndarray]:
    """(S x (x̂, a)-node boolean matrix, side code of every quantised node)."""
    n_a = len(sir.side_labels)
    key = cid[sir.node_public] * n_a + sir.node_side
    uniq, inv = np.unique(key, return_inverse=True)
    m = sir.joint.matrix.astype(np.int32) @ _indicator(inv, len(uniq))
    return sp.csr_array(m > 0), uniq % n_a


def _side_sizes(sir: SideInformationRange) -> np.ndarray:
    m = sir.joint.matrix.astype(np.int32) @ _indicator(sir.node_side, len(sir.side_labels))
    return np.bincount(sp.csr_array(m > 0).indices, minlength=len(sir.side_labels))


def _check_sir(sir) -> SideInformationRange:
    if not isinstance(sir, SideInformationRange):
        raise InputTypeError(f"expected a SideInformationRange, got {type(sir).__name__}; build one with gp.SideInformationRange.from_triples")
    return sir


def _l0(sir, cid, side_sizes, base) -> float:
    m, node_a = _quantized_matrix(sir, cid)
    deg = np.bincount(m.indices, minlength=m.shape[1])
    return float(np.max(log(side_sizes[node_a], base) - log(deg, base)))


def _istar(sir, cid, base) -> float:
    m, _ = _quantized_matrix(sir, cid)
    return float(log(support_components(m).n_components, base))


def side_information_L0(sir: SideInformationRange, quantization=None, *, base: float = 2) -> float:
    """L0(S → X̂ | A) = max_{(x̂, a)} log(|[[S|a]]| / |[[S|x̂, a]]|) (paper 003, end of Section V-C).

    ``quantization`` is a partition of [[X]] (None: X itself).

    Examples
    --------
    >>> import graphpriv as gp
    >>> sir = gp.SideInformationRange.from_triples(["s1", "s2", "s2", "s3"], ["x1", "x1", "x2", "x3"], ["a", "a", "b", "b"])
    >>> gp.side_information_L0(sir), gp.side_information_L0(sir, [{"x1"}, {"x2", "x3"}])
    (1.0, 0.0)
    """
    _check_sir(sir)
    check_base(base)
    return _l0(sir, _cluster_ids(sir, quantization), _side_sizes(sir), base)


def side_information_maximin(sir: SideInformationRange, quantization=None, *, base: float = 2) -> float:
    """I*(S; X̂, A) = log |P*_{G_{X̂,A}}| (paper 003, end of Section V-C).

    Examples
    --------
    >>> import graphpriv as gp
    >>> sir = gp.SideInformationRange.from_triples(["s1", "s2", "s2", "s3"], ["x1", "x1", "x2", "x3"], ["a", "a", "b", "b"])
    >>> gp.side_information_maximin(sir, [{"x1"}, {"x2", "x3"}])     # (x23,b) now meets (x1,a) in s2
    0.0
    """
    _check_sir(sir)
    check_base(base)
    return _istar(sir, _cluster_ids(sir, quantization), base)


def agglomerate_side_information(sir: SideInformationRange, objective: str, lam: float, utility: Any = "U1", values: Any = None, *,
                                 base: float = 2, max_public: int = SIDE_INFORMATION_MAX_PUBLIC):
    """Steepest-descent agglomerative quantisation of X against an adversary who also sees A.

    Called by :func:`graphpriv.agglomerate` when its first argument is a :class:`SideInformationRange`;
    returns an :class:`~graphpriv.AgglomerationResult` whose ``privacy`` is L0(S → X̂ | A) or I*(S; X̂, A).
    """

    _check_sir(sir)
    if objective not in OBJECTIVES:
        raise InputError(f"objective={objective!r} is not one of {sorted(set(OBJECTIVES))}")
    objective = OBJECTIVES[objective]
    lam = _check_lam(lam)
    b = check_base(base)
    n = sir.n_public
    if n > max_public:
        raise TooLargeError(f"the side-information search evaluates every pair of clusters; |X| = {n} > max_public = {max_public}. "
                            "Pass max_public=... to run it anyway")
    labels = sir.public_labels.tolist()
    # the quantisation Q of X and its utility live in a contraction state of [[S, X]]
    con = Contraction(sir.public_range(), utility, values, base=b)
    ub = con.problem.ub
    side_sizes = _side_sizes(sir)

    def privacy(cid):
        return _l0(sir, cid, side_sizes, b) if objective in ("L0", "L0|I*=0") else _istar(sir, cid, b)

    def istar(cid):
        return _istar(sir, cid, b)

    if objective == "L0|I*=0":
        everything = np.zeros(n, dtype=np.int64)
        if istar(everything) > 0:
            raise InputError("I*(S; A) > 0: the side information alone separates S, so no quantisation of X reaches "
                             "I*(S; X̂, A) = 0 (problem (10) is infeasible); use objective='I*' or 'L0'")

    cid = np.arange(n)
    p0, u0 = privacy(cid), con.utility()
    rows = dict(merges=[()], priv=[p0], util=[u0], L=[p0 - lam * u0], dL=[math.nan], ncl=[n], ncomp=[_ncomp(sir, cid)], acc=[True])
    returned = 0
    while True:
        reps = con.clusters()
        if len(reps) == 1:
            break
        merged_util = _merged_utilities(con, reps)
        best = None
        for i_idx in range(len(reps)):
            for j_idx in range(i_idx + 1, len(reps)):
                a, c = int(reps[i_idx]), int(reps[j_idx])
                trial = np.where(cid == c, a, cid)
                p, uu = privacy(trial), float(merged_util[i_idx, j_idx])
                L = p - lam * uu
                key = (round(L, 9), a, c)
                if best is None or key < best[0]:
                    best = (key, trial, p, uu, L, (a, c))
        _, trial, p, uu, L, pair = best
        dL = L - rows["L"][-1]
        constrained = objective == "L0|I*=0" and rows["ncomp"][-1] > 1
        accepted = dL < -1e-12 or constrained
        rows["merges"].append((pair,))
        rows["priv"].append(p)
        rows["util"].append(uu)
        rows["L"].append(L)
        rows["dL"].append(dL)
        rows["ncl"].append(len(reps) - 1)
        rows["ncomp"].append(_ncomp(sir, trial))
        rows["acc"].append(bool(accepted))
        if not accepted:
            break
        con.merge(labels[pair[0]], labels[pair[1]])
        cid = trial
        returned = len(rows["L"]) - 1
    trace = MergeTrace(
        objective=objective, utility=ub.name if hasattr(ub, "name") else str(utility), lam=lam, public_labels=tuple(labels),
        components0=tuple(range(n)), step_merges=tuple(rows["merges"]), step_privacy=tuple(rows["priv"]),
        step_utility=tuple(rows["util"]), step_L=tuple(rows["L"]), step_delta_L=tuple(rows["dL"]),
        step_n_clusters=tuple(rows["ncl"]), step_n_components=tuple(rows["ncomp"]), step_accepted=tuple(rows["acc"]),
        returned=returned, base=b,
        info={"algorithm": "steepest descent under side information A (paper 003, end of Section V-C)",
              "side_information": True, "n_side": len(sir.side_labels),
              "note": "n_components counts components of G_{X̂,A}; partition(t) is not defined under side information"},
    )
    groups = _groups(cid)
    mapping = {}
    for k, g in enumerate(groups):
        cw = ub.codeword(g) if isinstance(ub, _BoundU2) else None
        for i in g.tolist():
            mapping[labels[i]] = k if cw is None else cw
    return AgglomerationResult(
        quantization=[frozenset(labels[i] for i in g.tolist()) for g in groups], privacy=float(rows["priv"][returned]),
        utility=float(rows["util"][returned]), mapping=mapping, trace=trace, objective=objective,
        utility_name=trace.utility, lam=lam, info=dict(trace.info),
    )


def _merged_utilities(con: Contraction, reps: np.ndarray) -> np.ndarray:
    """U(Q) after merging the clusters reps[i] and reps[j], for every pair (i, j) of the current clusters.

    U1: log|X| - log max(largest cluster, |a| + |b|); distortion utilities: -max(d̄(a ⊔ b), largest d̄ of the
    other clusters), where the three largest d̄ give the largest outside any pair."""
    k = len(reps)
    if not con.is_distortion:
        size = con.size[reps]
        big = np.maximum(int(size.max()), size[:, None] + size[None, :])
        uniq, inv = np.unique(big, return_inverse=True)
        return np.array([con.problem.ub.value_from_max_size(int(v)) for v in uniq.tolist()])[inv].reshape(k, k)
    d = con.agg.dbar[reps]
    top = np.argsort(-d, kind="stable")[:3].tolist()
    rest = np.full((k, k), d[top[0]])
    rest[top[0], :] = rest[:, top[0]] = d[top[1]]
    rest[top[0], top[1]] = rest[top[1], top[0]] = d[top[2]] if k > 2 else -np.inf
    return 0.0 - np.maximum(rest, con.pair_costs(reps[:, None], reps[None, :]))


def _ncomp(sir, cid) -> int:
    m, _ = _quantized_matrix(sir, cid)
    return support_components(m).n_components
