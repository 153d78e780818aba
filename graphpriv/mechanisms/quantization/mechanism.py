"""The quantisation mechanisms' entry points: :func:`agglomerate`, :func:`evaluate_quantization`, :func:`lagrangian`.

Ding & Farokhi, *Developing Non-Stochastic Privacy-Preserving Policies Using Agglomerative Clustering*:
``objective="L0"`` runs Algorithm 1 (problem (3)), ``"I*"`` Algorithm 2 (problem (5)) and ``"L0|I*=0"``
Section V-C (problem (10), eqs. (11)-(12)); the tie rules are listed in
:mod:`graphpriv.mechanisms.agglomerative`.
"""

from __future__ import annotations

import math
import numpy as np
from typing import Any

from ...citations import record_use
from ...errors import InputError, InputTypeError
from ...ranges import JointRange
from ..trace import _UnionFind, _check_quantization, _groups
from ..utilities import U1
from .problem import _check_lam, _check_tie_rule, _Problem
from .result import AgglomerationResult, _build_trace, _result_from_trace
from .trajectory import _trajectory

__all__ = ["agglomerate", "evaluate_quantization", "lagrangian"]


def agglomerate(jr: JointRange, objective: str, lam: float, utility: Any = "U1", values: Any = None, *,
                search: str = "greedy", base: float = 2, tie_rule: str = "paper", **search_options: Any) -> AgglomerationResult:
    """Quantise X by agglomerative merging (paper 003, Algorithms 1 and 2, Section V-C).

    Parameters
    ----------
    jr : JointRange
        The joint range [[S, X]].
    objective : {"L0", "I*", "L0|I*=0"}
        "L0": Algorithm 1 for problem (3), min L0(S → X̂) - λU; "I*": Algorithm 2 for problem (5),
        min I*(S; X̂) - λU; "L0|I*=0": Section V-C, problem (10) with eqs. (11)-(12) (always returns a
        quantisation with I*(S; X̂) = 0).
    lam : float >= 0
        Lagrange multiplier λ.
    utility : "U1", "U2" or a Utility object (``gp.U1()``, ``gp.U2(values, codeword=..., distance=...)``)
        U1 = I0(X → X̂); U2 = -max distortion (centroid codewords, d = |x - x̂| by default).
    values : mapping public label -> number (or vector), or "labels"
        Public values for U2 (e.g. eq. (4) of paper 003). Every public label needs a number: a range
        built with ``missing="keep"`` has a MISSING label without one -- build it with ``missing="drop"``.
    search : str, default "greedy"
        "greedy" runs the paper's algorithm; any other name is looked up in
        ``graphpriv.mechanisms.search.SEARCHES`` and called with the same arguments plus ``**search_options``.
    base : float, default 2
        Logarithm base of L0, I* and U1 (bits).
    tie_rule : {"paper", "index"}, default "paper"
        "paper": the rules above (they reproduce Examples 2-5). "index": ties of eq. (8) (Algorithm 2,
        U1) and of eq. (12) (Section V-C) go to the lowest pair index only, ignoring component sizes
        resp. |S|𝒳1| + |S|𝒳2|. Other ties are decided by the lowest index under both rules.

    Returns
    -------
    AgglomerationResult
        ``.quantization``, ``.privacy``, ``.utility``, ``.mapping``, ``.transform(column)``, ``.trace``.

    Raises
    ------
    InputError
        Unknown objective or search, λ < 0 or not finite, U2 without values or a label without a value.
    InputTypeError
        Non-numeric values, a utility of the wrong type, jr not a JointRange.

    Examples
    --------
    Paper 003, Example 2 (Algorithm 1, U1, λ = 0.3) and Example 3 (Algorithm 2, U1, λ = 0.3):

    >>> import graphpriv as gp
    >>> jr, values = gp.datasets.paper_example()
    >>> r = gp.agglomerate(jr, "L0", 0.3)
    >>> [round(s.delta_L, 4) for s in r.trace.steps[1:]]
    [-0.5245, -0.4605, -0.7579]
    >>> len(r.quantization)
    1
    >>> r = gp.agglomerate(jr, "I*", 0.3)
    >>> [sorted(c) for c in r.quantization]
    [['x1', 'x3', 'x7'], ['x2', 'x5'], ['x4', 'x6']]
    >>> r.privacy, round(r.utility, 4)        # I* = 0 at U1 = log2(7/3), the Fig. 7 point
    (0.0, 1.2224)
    >>> r = gp.agglomerate(jr, "L0", 2.5, "U2", values)   # Example 2 (U2): returns its Q(1)
    >>> [sorted(c) for c in r.quantization]
    [['x1', 'x2', 'x4'], ['x3', 'x5'], ['x6', 'x7']]
    >>> r.transform(["x1", "x6"], decimals=2)   # centroids, to 2 decimals (labels are text: no precision to infer)
    [0.2, 1.25]
    >>> r1 = gp.agglomerate(jr, "I*", 0.3)
    >>> r1.transform(["x1", "x2", "x3"])            # U1 releases generalisation labels by default
    ['{x1, x3, x7}', '{x2, x5}', '{x1, x3, x7}']

    Side information and quantising Y = (S, X) (end of Section V-C): build the joint range whose
    public labels are the pairs and run the same entry point, e.g. for Y = (S, X)

    >>> df = jr.to_frame()
    >>> jy = gp.JointRange.from_pairs(df.iloc[:, 0], list(zip(df.iloc[:, 0], df.iloc[:, 1])))
    >>> jy.n_public, gp.agglomerate(jy, "I*", 0.0).privacy
    (8, 0.0)

    For an adversary with side information A, pass a :class:`~graphpriv.SideInformationRange` (triples
    (s, x, a)) instead of a JointRange: X alone is quantised and privacy is L0(S → X̂ | A) or
    I*(S; X̂, A) (steepest-descent search, see :mod:`graphpriv.mechanisms.side_information`)

    >>> sir = gp.SideInformationRange.from_triples(["s1", "s2", "s2", "s3"], ["x1", "x1", "x2", "x3"], ["a", "a", "b", "b"])
    >>> r = gp.agglomerate(sir, "I*", 0.1)
    >>> [sorted(c) for c in r.quantization], r.privacy
    ([['x1'], ['x2', 'x3']], 0.0)

    Notes
    -----
    Algorithm 2 keeps components in a union-find; with U1 every component keeps a heap of its clusters
    by (size, index) and a global heap orders components by (smallest cluster size, -component size,
    index), so each iteration costs O(log |X|) amortised (small-to-large heap merges). With U2 every
    cluster caches its best partner in another component; after a merge only the new cluster and the
    clusters whose cached partner vanished or joined their component are recomputed (vectorised over the
    clusters for scalar centroid values). Algorithm 1 costs O(|Q|) vectorised work per cluster in Π.
    Section V-C evaluates eq. (12) for the pairs touching the (at most four) clusters that hold the
    smallest |S| or (λ > 0) the largest size/distortion; a pair of two other clusters leaves L0
    unchanged and its ΔL grows with the merged size (U1) or distortion (U2), so its best is found
    without listing Ψ: O(|Q| log |Q|) per step for U1 (size classes) and for U2 with scalar centroid
    values (windows of the values sorted by cluster minimum, plus the pairs they hold); other distortion
    utilities search all of Ψ when λ > 0. All mechanisms run on :class:`~graphpriv.Contraction`.
    """
    record_use("agglomerative")  # for gp.cite()
    from .side_information import SideInformationRange, agglomerate_side_information

    if isinstance(jr, SideInformationRange):
        if search != "greedy" or search_options:
            raise InputError("under side information only search='greedy' (steepest descent) is available")
        return agglomerate_side_information(jr, objective, lam, utility, values, base=base)
    if not isinstance(search, str):
        raise InputTypeError(f"search must be a string naming a search method, got {type(search).__name__}")
    if search != "greedy":
        from . import search as _search_mod

        searches = getattr(_search_mod, "SEARCHES", {})
        if search not in searches:
            raise InputError(f"search={search!r} is not available; choose one of {['greedy', *sorted(searches)]}")
        return searches[search](jr, objective, lam, utility=utility, values=values, base=base, **search_options)
    if search_options:
        raise InputError(f"unexpected options {sorted(search_options)} for search='greedy'")
    lam = _check_lam(lam)
    prob = _Problem(jr, objective, utility, values, base)
    prob.tie_rule = _check_tie_rule(tie_rule)
    traj = _trajectory(prob, lam)
    trace = _build_trace(prob, traj, lam)
    return _result_from_trace(prob, trace)


def evaluate_quantization(jr: JointRange, quantization, objective: str, utility: Any = "U1", values: Any = None, *,
                          base: float = 2) -> tuple[float, float]:
    """(privacy, utility) of a quantisation: privacy = L0(S → X̂) ("L0", "L0|I*=0") or I*(S; X̂) ("I*").

    Examples
    --------
    >>> import graphpriv as gp
    >>> jr, _ = gp.datasets.paper_example()
    >>> p, u = gp.evaluate_quantization(jr, [{"x1", "x3", "x7"}, {"x2", "x5"}, {"x4", "x6"}], "I*")
    >>> p, round(u, 4)
    (0.0, 1.2224)
    """
    prob = _Problem(jr, objective, utility, values, base)
    cid = _check_quantization(prob.labels, quantization, jr._x_index)
    groups = _groups(cid)
    return _evaluate_groups(prob, groups)


def _evaluate_groups(prob: _Problem, groups) -> tuple[float, float]:
    util = prob.ub.partition_value(groups)
    if prob.objective == "I*":
        # components of clusters: join the original components inside each cluster
        uf = _UnionFind(prob.n_comp0)
        for g in groups:
            cs = prob.comp0[g].tolist()
            for c in cs[1:]:
                uf.union(cs[0], c)
        ncomp = len({uf.find(c) for c in range(prob.n_comp0)})
        return prob.istar(ncomp), util
    return prob.l0(_min_sensitive(prob, groups)), util


def _min_sensitive(prob: _Problem, groups) -> int:
    """min over clusters of |S|cluster| (the k of k-anonymity), vectorised over the CSR of the S-sets."""
    if len(groups) <= 4:
        return min(len(set().union(*(prob.sset(i) for i in np.asarray(g).tolist()))) for g in groups)
    lens = np.fromiter((len(g) for g in groups), dtype=np.int64, count=len(groups))
    codes = np.concatenate([np.asarray(g, dtype=np.int64) for g in groups])
    gid = np.repeat(np.arange(len(groups), dtype=np.int64), lens)
    ptr = np.asarray(prob.s_ptr, dtype=np.int64)
    starts, cnt = ptr[codes], ptr[codes + 1] - ptr[codes]
    total = int(cnt.sum())
    offs = np.repeat(starts - (np.cumsum(cnt) - cnt), cnt) + np.arange(total, dtype=np.int64)
    key = np.repeat(gid, cnt) * max(int(prob.n_s), 1) + np.asarray(prob.s_idx, dtype=np.int64)[offs]
    per_group = np.bincount(np.unique(key) // max(int(prob.n_s), 1), minlength=len(groups))
    return int(per_group.min())


def lagrangian(jr: JointRange, quantization, objective: str, lam: float, utility: Any = "U1", values: Any = None, *,
               base: float = 2) -> float:
    """L(Q, λ) = privacy(Q) - λ·U(Q) (paper 003 sign convention; privacy as in :func:`evaluate_quantization`).

    For ``objective="L0|I*=0"`` this is eq. (11) with λ' → ∞: L0 - λU when I*(S; X̂) = 0, +inf otherwise.

    Examples
    --------
    >>> import graphpriv as gp
    >>> jr, _ = gp.datasets.paper_example()
    >>> q0 = [{x} for x in jr.public_labels]
    >>> q1 = [{"x1", "x2", "x7"}, {"x3", "x5"}, {"x4", "x6"}]
    >>> round(gp.lagrangian(jr, q1, "L0", 0.3) - gp.lagrangian(jr, q0, "L0", 0.3), 4)   # Example 2
    -0.5245
    """
    lam = _check_lam(lam)
    prob = _Problem(jr, objective, utility, values, base)
    cid = _check_quantization(prob.labels, quantization, jr._x_index)
    groups = _groups(cid)
    priv, util = _evaluate_groups(prob, groups)
    if prob.objective == "L0|I*=0":
        prob_i = _Problem(jr, "I*", U1(), None, base)
        istar, _ = _evaluate_groups(prob_i, groups)
        if istar > 0:
            return math.inf
    return priv - lam * util
