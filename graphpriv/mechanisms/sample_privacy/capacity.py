"""The synergistic disclosure capacity I_s(W, X^n) and its optimal mapping (Algorithm 2).

Rassouli, Rosas & Gündüz, *Data Disclosure under Perfect Sample Privacy*, eq. (2), Theorem 1, Lemma 2 and Algorithm 2: I_s = H(W) - min sum_k u_k H(P_{W|X^n} p_k) over
weights u >= 0 of the vertices p_k of the polytope S = {t >= 0 : P t = P p} (eq. (12)) with
sum_k u_k p_k = p -- a linear programme over the vertices that
:func:`~graphpriv.privacy_polytope_vertices` enumerates. :func:`self_disclosure` is the case W = X^n.
"""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np
from scipy.optimize import linprog

from ..._validation import check_base
from ...errors import InputError
from ...graphs.hypergraph import SampleHypergraph
from ...graphs.polytope import MAX_BASES, MAX_POLYTOPE_SUPPORT, MAX_VERTICES, _enumerate, _resolve_method, _svd_split
from .constraints import _H, _as_hypergraph, _check_protected, _conditional_on_support, _constraint_matrix, _mi
from ...citations import record_use

__all__ = ["SynergisticDisclosure", "synergistic_disclosure", "self_disclosure"]


@dataclass(frozen=True, eq=False)
class SynergisticDisclosure:
    """Result of Algorithm 2 (paper 004): optimal perfectly sample-private disclosure of W.

    Attributes
    ----------
    value : float
        I_s(W, X^n) (bits by default), eq. (2).
    mapping : ndarray, shape (|Y|, |X_1|...|X_n|)
        p(y | x^n), columns in C order of the full grid (X_1 slowest). Columns of x^n outside the
        support (p(x^n) = 0) are set to p(y) -- any choice is private there; this one keeps them pmfs.
    p_y : ndarray, shape (|Y|,)
        Output distribution (the optimal vertex weights that are > 0).
    posteriors : ndarray, shape (|Y|, |X_1|...|X_n|)
        p(x^n | y) -- the vertices of S used, on the full grid.
    vertices : ndarray, shape (K, |supp|)
        All vertices of S (on the support, column order of ``hypergraph.support``).
    weights : ndarray, shape (K,)
        The LP optimum u* (weights of all vertices).
    costs : ndarray, shape (K,)
        c_k = H(P_{W|X^n} p_k), the LP costs of the vertices.
    used : ndarray of int
        Indices of the vertices with u*_k > 0 (row order of ``mapping``).
    lp_value : float
        min sum_k u_k H(P_{W|X^n} p_k) = H(W | Y) at the optimum (Example 2: 0.986579 bits).
    h_w : float
        H(W).
    upper_bound : float
        Prop. 2 / Remark 2 bound I(W; X^n) - max_j I(W; X_j) (over protected groups if given).
    information : float
        I(W; Y) recomputed from the joint p(w, y) of the returned mapping (equals ``value``).
    privacy_violation : float
        max |p(x_i, y) - p(x_i) p(y)| of the returned mapping (0 up to rounding).
    hypergraph : SampleHypergraph
    """

    value: float
    mapping: np.ndarray = field(repr=False)
    p_y: np.ndarray = field(repr=False)
    posteriors: np.ndarray = field(repr=False)
    vertices: np.ndarray = field(repr=False)
    weights: np.ndarray = field(repr=False)
    costs: np.ndarray = field(repr=False)
    used: np.ndarray = field(repr=False)
    lp_value: float = field(repr=False)
    h_w: float = field(repr=False)
    upper_bound: float = field(repr=False)
    information: float = field(repr=False)
    privacy_violation: float = field(repr=False)
    hypergraph: SampleHypergraph = field(repr=False)
    base: float = field(repr=False, default=2.0)

    @property
    def n_outputs(self) -> int:
        """|Y| (at most nul(P) + 1, Prop. 3)."""
        return int(self.mapping.shape[0])

    @property
    def n_vertices(self) -> int:
        """Number K of vertices of S."""
        return int(self.vertices.shape[0])

    @property
    def efficiency(self) -> float:
        """eta = I_s / H(W) (NaN when H(W) = 0)."""
        return self.value / self.h_w if self.h_w > 0 else float("nan")

    def __repr__(self) -> str:
        unit = "bits" if self.base == 2 else f"base {self.base:g}"
        return (f"SynergisticDisclosure(value={self.value:.6g} {unit}, |Y|={self.n_outputs}, vertices={self.n_vertices}, "
                f"nullity={self.hypergraph.nullity}, H(W)={self.h_w:.6g})")


def _disclose(PW: np.ndarray, p: np.ndarray, M: np.ndarray, *, method: str, max_support, max_bases, max_vertices,
              vertices=None, base: float = 2.0, tol: float = 1e-9):
    """Algorithm 1 + 2 on a generic constraint matrix M: returns (u, V, lp_value, h_w)."""
    if vertices is None:
        V = _enumerate(M, p, method=_resolve_method(method), max_support=max_support, max_bases=max_bases,
                       max_vertices=max_vertices, tol=tol)
    else:
        V = np.asarray(vertices, dtype=float)
        if V.ndim != 2 or V.shape[1] != p.size or V.shape[0] == 0:
            raise InputError(f"vertices must have shape (K, {p.size}) -- one vertex of S per row, on the support -- got {V.shape}")
        if (V < -tol).any() or np.abs(V @ M.T - (M @ p)[None, :]).max() > 1e-8:
            raise InputError("vertices are not points of S = {t >= 0 : P t = P p} for this p_xn; "
                             "compute them with privacy_polytope_vertices(SampleHypergraph.from_pmf(p_xn))")
    K = V.shape[0]
    costs = _H(V @ PW.T, base)
    h_w = float(_H(PW @ p, base))
    if K == 1:
        return np.ones(1), V, float(costs[0]), h_w
    _, N, _ = _svd_split(M)
    A_eq = np.vstack([np.ones((1, K)), N.T @ V.T])
    b_eq = np.concatenate([[1.0], N.T @ p])
    res = linprog(costs, A_eq=A_eq, b_eq=b_eq, bounds=(0, None), method="highs-ds")
    if res.status != 0:  # pragma: no cover - p is always in the convex hull of the vertices
        raise RuntimeError(f"the vertex-weight LP failed: {res.message}")
    u = np.clip(res.x, 0, None)
    return u, V, float(costs @ u), h_w


def _assemble(hg: SampleHypergraph, PW, p, M, u, V, lp_value, h_w, base, groups_bound) -> SynergisticDisclosure:
    used = np.flatnonzero(u > 1e-10)
    p_y = u[used] / u[used].sum()
    post = V[used]
    map_s = p_y[:, None] * post / p[None, :]
    map_s = map_s / map_s.sum(0, keepdims=True)
    full = int(np.prod(hg.sizes))
    mapping = np.repeat(p_y[:, None], full, axis=1)
    mapping[:, hg.flat_index] = map_s
    posteriors = np.zeros((used.size, full))
    posteriors[:, hg.flat_index] = post
    joint_xy = (map_s * p[None, :])  # (L, E): p(x^n, y)
    viol = float(np.abs(M @ joint_xy.T - np.outer(M @ p, joint_xy.sum(1))).max()) if M.size else 0.0
    info = _mi(PW @ joint_xy.T, base)
    return SynergisticDisclosure(
        value=float(h_w - lp_value), mapping=mapping, p_y=p_y, posteriors=posteriors, vertices=V, weights=u,
        costs=_H(V @ PW.T, base), used=used,
        lp_value=lp_value, h_w=h_w, upper_bound=groups_bound, information=info, privacy_violation=viol,
        hypergraph=hg, base=base)


def _prop2_bound(PW, p, hg: SampleHypergraph, protected, base) -> float:
    joint = PW * p[None, :]  # (|W|, E)
    i_all = _mi(joint, base)
    groups = [(i,) for i in range(hg.n)] if protected is None else _check_protected(protected, hg.n)
    best = 0.0
    for g in groups:
        _, inv = np.unique(hg.support[:, list(g)], axis=0, return_inverse=True)
        inv = np.asarray(inv).ravel()
        jg = np.zeros((PW.shape[0], inv.max() + 1))
        np.add.at(jg.T, inv, joint.T)
        best = max(best, _mi(jg, base))
    return float(max(0.0, i_all - best))


def synergistic_disclosure(p_w_given_xn, p_xn, *, protected=None, method: str = "auto", max_support: int | None = MAX_POLYTOPE_SUPPORT,
                           max_bases: int | None = MAX_BASES, max_vertices: int | None = MAX_VERTICES, vertices=None,
                           base: float = 2) -> SynergisticDisclosure:
    """Optimal perfectly sample-private disclosure of W, I_s(W, X^n) (paper 004, eq. (2), Algorithms 1-2).

    Enumerates the vertices p_k of S = {t >= 0 : P t = P p} (Algorithm 1), then solves the LP
    min_u sum_k u_k H(P_{W|X^n} p_k) s.t. sum_k u_k p_k = p, u >= 0 (eq. (17)) with HiGHS' dual
    simplex (a basic optimum: |Y| <= nul(P) + 1, Prop. 3). The LP's equality system is written in
    the full-row-rank form 1^T u = 1, N^T V u = N^T p (N a null basis of P).

    Parameters
    ----------
    p_w_given_xn : array_like, shape (|W|, |X_1|, ..., |X_n|) or (|W|, |X_1|...|X_n|)
        p(w | x^n); only the columns with p(x^n) > 0 are read (each must sum to 1).
    p_xn : array_like, shape (|X_1|, ..., |X_n|), or a weighted SampleHypergraph
        Joint pmf of the samples.
    protected : list of tuples of int, optional
        Groups of samples that must each be independent of Y (default: every single sample,
        Def. 1). E.g. windows [(0, 1), (1, 2)] give Corollary 4.1's window privacy.
    method : {"auto", "cdd", "bases"}
        Vertex enumeration (see :func:`~graphpriv.privacy_polytope_vertices`).
    max_support, max_bases, max_vertices : int or None
        Size limits of the exact enumeration (:class:`~graphpriv.errors.TooLargeError` past them).
    vertices : array_like, shape (K, |supp|), optional
        Precomputed vertices of S (reuse them across several W).
    base : float
        Logarithm base (default 2: bits, as the paper).

    Returns
    -------
    SynergisticDisclosure
        ``.value`` (I_s), ``.mapping`` (|Y| x |X_1|...|X_n|, C order), ``.p_y``, ``.posteriors``,
        ``.vertices``, ``.weights``, ``.used``, ``.lp_value``, ``.upper_bound`` (Prop. 2).

    Raises
    ------
    DistributionError
        p_xn not a pmf, or a column of p_w_given_xn on the support not summing to 1.
    InputError
        Shapes that do not match.
    TooLargeError
        Support too large for exact enumeration.

    Notes
    -----
    Cost: vertex enumeration (exponential; see :func:`~graphpriv.privacy_polytope_vertices`) plus
    an LP with K variables and nul(P) + 1 equality rows. Table I (n = 4, 16 points, 130 vertices)
    takes milliseconds; n = 5 (32 points, 6782 vertices) about a second with cddlib.

    Examples
    --------
    Paper 004, Example 2 (W ~ Bern(1/2), X_1 = BSC(2/3), X_2 = BEC(1/2); the paper's P_{W|X^2}):

    >>> from graphpriv import synergistic_disclosure
    >>> import numpy as np
    >>> p = np.array([[1, 3, 2], [2, 3, 1]]) / 12
    >>> pw = np.array([[[1, 2/3, 0], [1, 1/3, 0]], [[0, 1/3, 1], [0, 2/3, 1]]])
    >>> res = synergistic_disclosure(pw, p)
    >>> round(res.lp_value, 6), round(res.value, 6), res.n_outputs
    (0.986579, 0.013421, 3)
    >>> np.round(res.p_y, 6).tolist()
    [0.333333, 0.333333, 0.333333]
    """
    record_use("sample_privacy")  # for gp.cite()
    base = check_base(base)
    hg = _as_hypergraph(p_xn)
    PW = _conditional_on_support(p_w_given_xn, hg)
    p = hg.weights
    M = _constraint_matrix(hg, protected)
    u, V, lp, h_w = _disclose(PW, p, M, method=method, max_support=max_support, max_bases=max_bases,
                              max_vertices=max_vertices, vertices=vertices, base=base)
    return _assemble(hg, PW, p, M, u, V, lp, h_w, base, _prop2_bound(PW, p, hg, protected, base))


def self_disclosure(p_xn, *, protected=None, method: str = "auto", max_support: int | None = MAX_POLYTOPE_SUPPORT,
                    max_bases: int | None = MAX_BASES, max_vertices: int | None = MAX_VERTICES, base: float = 2) -> SynergisticDisclosure:
    """Self-disclosure capacity Î_s(X^n) = sup over sample-private mappings of I(X^n; Y) (paper 004, Def. 4).

    The same routine as :func:`synergistic_disclosure` with W = X^n (P_{W|X^n} = I, costs H(p_k)).

    Examples
    --------
    Two i.i.d. Bern(0.2) bits (the two-binary-sample closed form, eqs. (24)-(26): 0.202710 bits); two
    fair bits give 1 bit (Y = X_1 xor X_2):

    >>> import numpy as np
    >>> from graphpriv import self_disclosure
    >>> q = 0.2; px = np.array([1 - q, q])
    >>> round(self_disclosure(np.outer(px, px)).value, 6)
    0.20271
    >>> round(self_disclosure(np.full((2, 2), 0.25)).value, 9)
    1.0
    """
    record_use("sample_privacy")  # for gp.cite()
    base = check_base(base)
    hg = _as_hypergraph(p_xn)
    p = hg.weights
    PW = np.eye(hg.n_edges)
    M = _constraint_matrix(hg, protected)
    u, V, lp, h_w = _disclose(PW, p, M, method=method, max_support=max_support, max_bases=max_bases,
                              max_vertices=max_vertices, base=base)
    return _assemble(hg, PW, p, M, u, V, lp, h_w, base, _prop2_bound(PW, p, hg, protected, base))
