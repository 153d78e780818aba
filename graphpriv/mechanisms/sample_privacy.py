"""Perfect sample privacy and synergistic disclosure (paper 004, Rassouli, Rosas, Gündüz).

A curator holds n samples X^n = (X_1, ..., X_n) and wants to disclose a latent feature W through a
mapping p(y | x^n) (so W - X^n - Y is a Markov chain) that keeps **every single sample** private:
Y ⟂ X_i for all i (Def. 1; weaker than Y ⟂ X^n). The synergistic disclosure capacity is

    I_s(W, X^n) = sup_{p(y|x^n) in A} I(W; Y)                                      (2)

By Theorem 1 / Lemma 2, I_s = H(W) - min sum_k u_k H(P_{W|X^n} p_k) over weights u >= 0 of the
vertices p_k of the polytope S = {t >= 0 : P t = P p} (eq. (12), P the incidence matrix of the sample
hypergraph H_n, :class:`~graphpriv.SampleHypergraph`) with sum_k u_k p_k = p: an LP (Algorithm 2).

Everything here is in **bits** by default (``base=2``); the paper's Example 2 and Table I reproduce
only in bits.

Paper errors handled (spec ``perfect-sample-privacy.md`` §6; never bent to a typo):

* Def. 2 condition 3 must read Y not-independent of W; eq. (15)'s constraint is sum_y p(y) p_{X|y} = p_X.
* Example 2: the displayed p_1..p_3 are garbled (8 entries) and p_4 is missing; A's -2385 is -2358;
  the erasure columns of the displayed P_{W|X^2} contradict the BSC(2/3)/BEC(1/2) model -- both give
  I_s = 0.013421 bits and the same mapping (22).
* Two binary samples, eqs. (24)-(26) assume beta >= alpha; :func:`two_binary_closed_form` uses
  r in [max(0, alpha - beta), min(alpha, 1 - beta)] and is valid for any alpha, beta.
* Prop. 4 needs nul(P) = 1 (its hypothesis |supp| = sum |X_i| - n + 2 does not imply it).
* Corollary 1.1's |Y| >= ceil(|supp| / rank P) holds for Algorithm 2's vertex decompositions only.
* Example 5, eq. (67) is exact only for n = 2 (or q = 1/2) and a strict lower bound for n >= 3;
  :func:`preprocessing_information` gives the exact value (n - 1) - n (1 - q) h(beta) + (1 - q)^n c_n(beta).
* Lemma 7 (Y_par) needs mutually independent samples and conditionally independent Y_par,j;
  :func:`partial_processing` enforces the first and builds the second.
* Table I: I_s is not monotone in n (n = 5 gives 0.0539 > I_s(4) = 0.0447): convergence in Theorem 3 is slow.
"""

from __future__ import annotations

import itertools
import math
from dataclasses import dataclass, field
from typing import Sequence

import numpy as np
from scipy.optimize import linprog

from .._validation import check_base
from ..distributions import validate_pmf
from ..errors import DistributionError, InputError, InputTypeError, TooLargeError
from ..graphs.hypergraph import (
    MAX_BASES,
    MAX_POLYTOPE_SUPPORT,
    MAX_VERTICES,
    SampleHypergraph,
    _enumerate,
    _resolve_method,
    _svd_split,
)

__all__ = [
    "SynergisticDisclosure",
    "SamplePrivacyCheck",
    "TwoBinaryDisclosure",
    "HeuristicDisclosure",
    "DisclosureBounds",
    "LatentReduction",
    "synergistic_disclosure",
    "self_disclosure",
    "verify_sample_privacy",
    "is_disclosure_feasible",
    "disclosure_bounds",
    "self_disclosure_bounds",
    "two_binary_closed_form",
    "partial_processing",
    "preprocessing_mechanism",
    "uniformizing_channel",
    "preprocessing_information",
    "pair_self_disclosure_binary",
    "binary_iid_asymptotic_efficiency",
    "modular_sum_mechanism",
    "window_sum_mechanism",
    "quantile_sum_mechanism",
    "iid_samples_model",
    "latent_reduction",
    "output_perturbation_capacity",
    "genie_disclosure",
    "AsymptoticBounds",
    "asymptotic_bounds",
]

_ATOL = 1e-9


# ----------------------------------------------------------------------------------------------
# information helpers (private)


def _H(P, base: float = 2.0, axis: int = -1):
    """Entropy along ``axis`` (0 log 0 = 0)."""
    P = np.asarray(P, dtype=float)
    with np.errstate(divide="ignore", invalid="ignore"):
        t = np.where(P > 1e-300, -P * np.log(np.where(P > 1e-300, P, 1.0)), 0.0)
    return t.sum(axis=axis) / math.log(base)


def _mi(joint, base: float = 2.0) -> float:
    joint = np.asarray(joint, dtype=float)
    return float(max(0.0, _H(joint.sum(1), base) + _H(joint.sum(0), base) - _H(joint.ravel(), base)))


def _hb(x: float) -> float:
    return float(_H(np.array([x, 1 - x])))


# ----------------------------------------------------------------------------------------------
# input handling


def _as_hypergraph(p_xn, name: str = "p_xn") -> SampleHypergraph:
    if isinstance(p_xn, SampleHypergraph):
        if p_xn.weights is None:
            raise InputError(f"{name} is an unweighted SampleHypergraph; build it with SampleHypergraph.from_pmf")
        return p_xn
    return SampleHypergraph.from_pmf(p_xn)


def _conditional_on_support(arr, hg: SampleHypergraph, name: str = "p_w_given_xn", *, out: str = "W",
                            neg_tol: float = 0.0) -> np.ndarray:
    """A conditional pmf p(out | x^n) restricted to the support: shape (|out|, |supp|), columns checked to be pmfs.

    Accepts shape (|out|, |X_1|, ..., |X_n|) or (|out|, |X_1|...|X_n|) (C order). ``neg_tol`` tolerates
    round-off negatives (LP solutions).
    """
    try:
        Q = np.asarray(arr, dtype=float)
    except (TypeError, ValueError):
        raise InputTypeError(f"{name} must be an array of probabilities p({out} | x^n)") from None
    full = int(np.prod(hg.sizes))
    if Q.ndim == 1 + hg.n and tuple(Q.shape[1:]) == hg.sizes:
        Q = Q.reshape(Q.shape[0], full)
    elif not (Q.ndim == 2 and Q.shape[1] == full):
        raise InputError(
            f"{name} must have shape (|{out}|, {', '.join(map(str, hg.sizes))}) -- one axis for {out} then one per sample, "
            f"matching p_xn -- or (|{out}|, {full}); got shape {Q.shape}")
    if Q.shape[0] == 0:
        raise InputError(f"{name} has no {out} values (first axis is empty)")
    Q = Q[:, hg.flat_index]
    if not np.all(np.isfinite(Q)):
        raise DistributionError(f"{name} has NaN or infinite entries on the support of p_xn")
    if (Q < -neg_tol).any():
        raise DistributionError(f"{name} has negative entries (smallest {Q.min():.3g})")
    dev = np.abs(Q.sum(0) - 1).max()
    if dev > 1e-8:
        raise DistributionError(f"{name}[:, x^n] must sum to 1 over {out} for every x^n with p(x^n) > 0 (worst deviation {dev:.3g})")
    return Q


def _constraint_matrix(hg: SampleHypergraph, protected) -> np.ndarray:
    """Rows of the privacy constraints: P (one block per sample) or one block per protected group.

    A protected group g (tuple of sample indices) contributes one row per value of x_g seen in the
    support (Corollary 4.1 window privacy, J(W, X^n) of eq. (41))."""
    if protected is None:
        return hg.incidence.toarray().astype(float)
    groups = _check_protected(protected, hg.n)
    rows = []
    for g in groups:
        sub = hg.support[:, list(g)]
        _, inv = np.unique(sub, axis=0, return_inverse=True)
        inv = np.asarray(inv).ravel()
        B = np.zeros((inv.max() + 1, hg.n_edges))
        B[inv, np.arange(hg.n_edges)] = 1.0
        rows.append(B)
    return np.vstack(rows) if rows else np.zeros((0, hg.n_edges))


def _check_protected(protected, n: int) -> list[tuple[int, ...]]:
    out = []
    try:
        for g in protected:
            g = (int(g),) if np.isscalar(g) else tuple(int(i) for i in g)
            if not g or any(i < 0 or i >= n for i in g):
                raise InputError(f"protected groups must be non-empty tuples of sample indices in 0..{n - 1}, got {g}")
            out.append(g)
    except TypeError:
        raise InputTypeError("protected must be a list of sample-index tuples, e.g. [(0,), (1,)] or [(0, 1), (1, 2)]") from None
    if not out:
        raise InputError("protected is empty; give at least one group (None protects every sample)")
    return out


# ----------------------------------------------------------------------------------------------
# results


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

    >>> import numpy as np
    >>> p = np.array([[1, 3, 2], [2, 3, 1]]) / 12
    >>> pw = np.array([[[1, 2/3, 0], [1, 1/3, 0]], [[0, 1/3, 1], [0, 2/3, 1]]])
    >>> res = synergistic_disclosure(pw, p)
    >>> round(res.lp_value, 6), round(res.value, 6), res.n_outputs
    (0.986579, 0.013421, 3)
    >>> np.round(res.p_y, 6).tolist()
    [0.333333, 0.333333, 0.333333]
    """
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
    Two i.i.d. Bern(0.2) bits (spec §4.3 table: 0.202710 bits); two fair bits give 1 bit (Y = X_1 xor X_2):

    >>> q = 0.2; px = np.array([1 - q, q])
    >>> round(self_disclosure(np.outer(px, px)).value, 6)
    0.20271
    >>> round(self_disclosure(np.full((2, 2), 0.25)).value, 9)
    1.0
    """
    base = check_base(base)
    hg = _as_hypergraph(p_xn)
    p = hg.weights
    PW = np.eye(hg.n_edges)
    M = _constraint_matrix(hg, protected)
    u, V, lp, h_w = _disclose(PW, p, M, method=method, max_support=max_support, max_bases=max_bases,
                              max_vertices=max_vertices, base=base)
    return _assemble(hg, PW, p, M, u, V, lp, h_w, base, _prop2_bound(PW, p, hg, protected, base))


# ----------------------------------------------------------------------------------------------
# verifier, feasibility, bounds


@dataclass(frozen=True)
class SamplePrivacyCheck:
    """Outcome of :func:`verify_sample_privacy` (Lemma 1 post-condition).

    Attributes
    ----------
    is_private : bool
        Every protected sample (group) is independent of Y within ``tol``.
    leakage : tuple of float
        I(X_i; Y) per protected sample (group), in the chosen base.
    max_violation : float
        max |p(x_i, y) - p(x_i) p(y)|.
    information : float
        I(X^n; Y) -- what the mechanism discloses about the whole dataset.
    disclosure : float or None
        I(W; Y) when ``p_w_given_xn`` was given.
    """

    is_private: bool
    leakage: tuple
    max_violation: float
    information: float
    disclosure: float | None = None


def verify_sample_privacy(mapping, p_xn, *, p_w_given_xn=None, protected=None, tol: float = 1e-9, base: float = 2) -> SamplePrivacyCheck:
    """Check perfect sample privacy of any mechanism: I(X_i; Y) = 0 for every sample (paper 004, Def. 1, Lemma 1).

    Parameters
    ----------
    mapping : array_like, shape (|Y|, |X_1|...|X_n|) or (|Y|, |X_1|, ..., |X_n|)
        p(y | x^n), columns in C order; only columns with p(x^n) > 0 are read.
    p_xn : array_like or SampleHypergraph
        Joint pmf of the samples.
    p_w_given_xn : array_like, optional
        If given, also report I(W; Y).
    protected : list of tuples, optional
        Groups to check instead of single samples.
    tol : float
        Tolerance on max |p(x_i, y) - p(x_i) p(y)|.

    Examples
    --------
    Y = X_1 xor X_2 on two fair coins is sample-private and reveals 1 bit; Y = X_1 is not private:

    >>> p = np.full((2, 2), 0.25)
    >>> chk = verify_sample_privacy([[1, 0, 0, 1], [0, 1, 1, 0]], p)
    >>> chk.is_private, round(chk.information, 9)
    (True, 1.0)
    >>> verify_sample_privacy([[1, 1, 0, 0], [0, 0, 1, 1]], p).leakage
    (1.0, 0.0)
    """
    base = check_base(base)
    hg = _as_hypergraph(p_xn)
    K = _conditional_on_support(mapping, hg, "mapping", out="Y", neg_tol=1e-12)
    p = hg.weights
    joint = K * p[None, :]  # (L, E)
    p_y = joint.sum(1)
    groups = [(i,) for i in range(hg.n)] if protected is None else _check_protected(protected, hg.n)
    leak, viol = [], 0.0
    for g in groups:
        _, inv = np.unique(hg.support[:, list(g)], axis=0, return_inverse=True)
        inv = np.asarray(inv).ravel()
        jg = np.zeros((inv.max() + 1, K.shape[0]))
        np.add.at(jg, inv, joint.T)
        viol = max(viol, float(np.abs(jg - np.outer(jg.sum(1), p_y)).max()))
        leak.append(_mi(jg, base))
    info = _mi(joint, base)
    disc = None
    if p_w_given_xn is not None:
        PW = _conditional_on_support(p_w_given_xn, hg)
        disc = _mi(PW @ joint.T, base)
    return SamplePrivacyCheck(bool(viol <= tol), tuple(float(x) for x in leak), viol, info, disc)


def is_disclosure_feasible(p_w_given_xn, p_xn, *, tol: float = 1e-9) -> bool:
    """Prop. 1 of paper 004: I_s(W, X^n) > 0 iff Null(P) is not inside Null(P_{W|X^n}).

    Equivalently, some p(w | .) is not additively separable on the support. A polynomial rank test
    (no vertex enumeration).

    Examples
    --------
    >>> p = np.full((2, 2), 0.25)
    >>> is_disclosure_feasible([[1, 0, 0, 1], [0, 1, 1, 0]], p)   # W = X1 xor X2
    True
    >>> is_disclosure_feasible([[1, 1, 0, 0], [0, 0, 1, 1]], p)   # W = X1
    False
    """
    hg = _as_hypergraph(p_xn)
    PW = _conditional_on_support(p_w_given_xn, hg)
    N = hg.null_basis("svd")
    if N.shape[1] == 0:
        return False
    return bool(np.abs(PW @ N).max() > tol)


@dataclass(frozen=True)
class DisclosureBounds:
    """Bounds on I_s (paper 004): ``lower <= I_s <= upper``.

    ``upper`` is Prop. 2 / Remark 2 (I(W; X^n) - max_j I(W; X_j)), which is Lemma 6 for
    self-disclosure; ``lower`` is Corollary 1.2 (H(X^n) - log rank P) for self-disclosure and 0
    otherwise; ``feasible`` is Prop. 1.
    """

    lower: float
    upper: float
    h_w: float
    i_w_xn: float
    max_single: float
    feasible: bool


def disclosure_bounds(p_w_given_xn, p_xn, *, base: float = 2) -> DisclosureBounds:
    """Prop. 2, Remark 2 and Prop. 1 of paper 004 for a given W: cheap bounds to report next to I_s.

    Examples
    --------
    Example 2 with the model's P_{W|X^2} (spec §4.2: upper bound 0.540852 - 0.5 = 0.040852):

    >>> p = np.array([[1, 3, 2], [2, 3, 1]]) / 12
    >>> pw = np.array([[[1, 1/3, 0], [1, 2/3, 0]], [[0, 2/3, 1], [0, 1/3, 1]]])
    >>> b = disclosure_bounds(pw, p)
    >>> round(b.i_w_xn, 6), round(b.max_single, 6), round(b.upper, 6)
    (0.540852, 0.5, 0.040852)
    """
    base = check_base(base)
    hg = _as_hypergraph(p_xn)
    PW = _conditional_on_support(p_w_given_xn, hg)
    p = hg.weights
    joint = PW * p[None, :]
    i_all = _mi(joint, base)
    up = _prop2_bound(PW, p, hg, None, base)
    return DisclosureBounds(0.0, up, float(_H(PW @ p, base)), i_all, i_all - up,
                            is_disclosure_feasible(p_w_given_xn, hg))


def self_disclosure_bounds(p_xn, *, base: float = 2) -> DisclosureBounds:
    """Corollary 1.2 and Lemma 6: H(X^n) - log rank P <= Î_s(X^n) <= H(X^n) - max_j H(X_j).

    Examples
    --------
    >>> b = self_disclosure_bounds(np.full((2, 2, 2), 1 / 8))   # uniform bits: Î_s = n - 1 = 2
    >>> round(b.lower, 6), round(b.upper, 6)
    (1.0, 2.0)
    """
    base = check_base(base)
    hg = _as_hypergraph(p_xn)
    p = hg.weights
    h = float(_H(p, base))
    hmax = max(float(_H(m, base)) for m in hg.marginals())
    low = max(0.0, h - math.log(max(hg.rank, 1)) / math.log(base))
    return DisclosureBounds(low, h - hmax, h, h, hmax, hg.nullity > 0)


# ----------------------------------------------------------------------------------------------
# two binary samples: closed forms (24)-(26)


@dataclass(frozen=True, eq=False)
class TwoBinaryDisclosure:
    """Closed form of I_s for two binary samples (paper 004, Section III-B, eqs. (24)-(26)).

    ``alpha = P(X_1 = 0)``, ``beta = P(X_2 = 0)``, ``r = p(0, 1)``; the vertices are
    ``a_hi = p - (r_hi - r) n`` (weight ``lam``) and ``a_lo = p + (r - r_lo) n`` with n = [1, -1, -1, 1],
    r_lo = max(0, alpha - beta), r_hi = min(alpha, 1 - beta). For beta >= alpha these are the paper's
    a_1, a_2 with R = r_hi.
    """

    value: float
    mapping: np.ndarray = field(repr=False)
    vertices: np.ndarray = field(repr=False)
    weights: np.ndarray = field(repr=False)
    alpha: float = 0.0
    beta: float = 0.0
    r: float = 0.0
    r_lo: float = 0.0
    r_hi: float = 0.0


def two_binary_closed_form(p_w_given_xn, p_xn, *, base: float = 2) -> TwoBinaryDisclosure:
    """I_s and the optimal mapping for two binary samples in closed form (paper 004, eqs. (24)-(26)).

    The paper's formulas assume beta >= alpha (else a_2 has a negative entry, spec §6.7); this
    version uses r in [max(0, alpha - beta), min(alpha, 1 - beta)] and is valid for every full-support
    p. The mapping does not depend on W (nul(P) = 1, Prop. 4). With fewer than 4 support points
    nul(P) = 0 and I_s = 0 (a constant Y).

    Parameters
    ----------
    p_w_given_xn : array_like, shape (|W|, 2, 2) or (|W|, 4)
    p_xn : array_like, shape (2, 2)

    Examples
    --------
    >>> p = np.full((2, 2), 0.25)
    >>> round(two_binary_closed_form([[1, 0, 0, 1], [0, 1, 1, 0]], p).value, 9)
    1.0
    """
    base = check_base(base)
    P = validate_pmf(p_xn, name="p_xn")
    if P.shape != (2, 2):
        raise InputError(f"two_binary_closed_form needs p_xn of shape (2, 2), got {P.shape}; use synergistic_disclosure")
    hg = SampleHypergraph.from_pmf(P)
    PW = np.asarray(p_w_given_xn, dtype=float)
    PW = PW.reshape(PW.shape[0], 4) if PW.ndim == 3 else PW
    if PW.ndim != 2 or PW.shape[1] != 4:
        raise InputError(f"p_w_given_xn must have shape (|W|, 2, 2) or (|W|, 4), got {np.shape(p_w_given_xn)}")
    _conditional_on_support(PW, hg)
    p = P.ravel()
    alpha, beta, r = p[0] + p[1], p[0] + p[2], p[1]
    r_lo, r_hi = max(0.0, alpha - beta), min(alpha, 1 - beta)
    h_w = float(_H(PW @ p, base))
    if r - r_lo <= 1e-15 or r_hi - r <= 1e-15:
        return TwoBinaryDisclosure(0.0, np.ones((1, 4)), p[None, :].copy(), np.ones(1), alpha, beta, r, r_lo, r_hi)
    nv = np.array([1.0, -1.0, -1.0, 1.0])
    a_hi = p - (r_hi - r) * nv
    a_lo = p + (r - r_lo) * nv
    lam = (r - r_lo) / (r_hi - r_lo)
    V = np.clip(np.vstack([a_hi, a_lo]), 0, None)
    w = np.array([lam, 1 - lam])
    value = h_w - lam * float(_H(PW @ a_hi, base)) - (1 - lam) * float(_H(PW @ a_lo, base))
    mapping = w[:, None] * V / p[None, :]
    return TwoBinaryDisclosure(float(value), mapping, V, w, float(alpha), float(beta), float(r), float(r_lo), float(r_hi))


# ----------------------------------------------------------------------------------------------
# heuristics (Section V-C)


@dataclass(frozen=True, eq=False)
class HeuristicDisclosure:
    """A sample-private mechanism built by a heuristic (Y_par, Y_pre, modular sums).

    Attributes
    ----------
    name : str
    mapping : ndarray, shape (|Y|, |X_1|...|X_n|)
        p(y | x^n), C order.
    information : float
        I(X^n; Y) computed exactly from the joint.
    predicted : float or None
        The paper's formula for it (Lemma 7 for Y_par; the corrected Example 5 formula for binary
        i.i.d. Y_pre), when it applies.
    check : SamplePrivacyCheck
        Output of :func:`verify_sample_privacy` on the mechanism.
    """

    name: str
    mapping: np.ndarray = field(repr=False)
    information: float = 0.0
    predicted: float | None = None
    check: SamplePrivacyCheck | None = field(repr=False, default=None)


def _independent_marginals(p_xn, name="p_xn", atol=1e-9) -> tuple[np.ndarray, list[np.ndarray]]:
    P = validate_pmf(p_xn, name=name)
    if P.ndim < 2:
        raise InputError(f"{name} must have one axis per sample and at least 2 samples, got shape {P.shape}")
    margs = [P.sum(axis=tuple(j for j in range(P.ndim) if j != i)) for i in range(P.ndim)]
    prod = margs[0]
    for m in margs[1:]:
        prod = np.multiply.outer(prod, m)
    if np.abs(prod - P).max() > atol:
        raise InputError(f"{name} is not a product of its marginals (max deviation {np.abs(prod - P).max():.3g}): "
                         "Lemma 7 / Example 5 need mutually independent samples, and Y_par is not private otherwise")
    return P, margs


def partial_processing(p_xn, *, window: int = 2, method: str = "auto", base: float = 2, max_entries: int = 50_000_000) -> HeuristicDisclosure:
    """Partial processing Y_par (paper 004, Section V-C1, Lemma 7) for mutually independent samples.

    For each window j = 1..n-k+1 of k consecutive samples, solve the k-sample self-disclosure problem
    (Algorithms 1-2 with W = (X_j..X_{j+k-1})) and output Y_par,j from its optimal mapping, drawn
    conditionally independently given X^n. Lemma 7 (k = 2): I(Y_par; X^n) = sum_j Î_s(X_j, X_{j+1}).

    Parameters
    ----------
    p_xn : array_like, shape (|X_1|, ..., |X_n|)
        Joint pmf; must be the product of its marginals (else :class:`InputError`).
    window : int
        k >= 2 (the paper's Y_par(k)).

    Examples
    --------
    >>> q = 0.3; px = np.array([1 - q, q])
    >>> res = partial_processing(np.multiply.outer(np.outer(px, px), px))
    >>> round(res.information, 6) == round(res.predicted, 6) == round(2 * pair_self_disclosure_binary(q), 6)
    True
    >>> res.check.is_private
    True
    """
    base = check_base(base)
    P, margs = _independent_marginals(p_xn)
    n = P.ndim
    if not isinstance(window, (int, np.integer)) or window < 2 or window > n:
        raise InputError(f"window must be an integer in 2..n = {n}, got {window!r}")
    sizes = P.shape
    M = np.ones((1,) + sizes)
    predicted = 0.0
    for j in range(n - window + 1):
        sub = margs[j]
        for m in margs[j + 1:j + window]:
            sub = np.multiply.outer(sub, m)
        res = self_disclosure(sub, method=method, base=base)
        predicted += res.value
        L = res.mapping.shape[0]
        Kj = res.mapping.reshape((L,) + sizes[j:j + window])
        shape = (1, L) + (1,) * j + sizes[j:j + window] + (1,) * (n - j - window)
        if M.shape[0] * L * int(np.prod(sizes)) > max_entries:
            raise TooLargeError(f"the Y_par mapping would have more than max_entries={max_entries:,} entries")
        M = (M[:, None] * Kj.reshape(shape)).reshape((M.shape[0] * L,) + sizes)
    mapping = M.reshape(M.shape[0], -1)
    chk = verify_sample_privacy(mapping, P, base=base)
    return HeuristicDisclosure(f"Y_par(k={window})", mapping, chk.information, predicted if window == 2 else None, chk)


def uniformizing_channel(p_x) -> np.ndarray:
    """A channel P_{S|X} (shape (|X|, |X|), columns = x) with P_{S|X} p_X uniform (paper 004, Y_pre).

    Built as the north-west-corner transport plan from p_X to the uniform pmf. For a binary
    X ~ Bern(q), q <= 1/2 this is Example 5's Z-channel (1 -> 1, 0 -> 1 with probability
    beta = (1/2 - q)/(1 - q)); for q > 1/2 the roles of 0 and 1 swap. The paper does not say how to
    uniformise larger alphabets (spec §6.16); any such channel keeps Y_pre private.

    Examples
    --------
    >>> uniformizing_channel([0.8, 0.2]).round(6).tolist()
    [[0.625, 0.0], [0.375, 1.0]]
    """
    p = validate_pmf(p_x, ndim=1, name="p_x")
    m = p.size
    if (p <= 0).any():
        raise InputError("p_x must be > 0 for every value (drop values that never occur)")
    u = np.full(m, 1.0 / m)
    T = np.zeros((m, m))  # T[s, x]
    i = j = 0
    rem_x, rem_s = p.copy(), u.copy()
    while i < m and j < m:
        a = min(rem_x[i], rem_s[j])
        T[j, i] += a
        rem_x[i] -= a
        rem_s[j] -= a
        if rem_x[i] <= 1e-15:
            i += 1
        else:
            j += 1
    return T / p[None, :]


def preprocessing_mechanism(p_xn, *, base: float = 2, max_states: int = 4096) -> HeuristicDisclosure:
    """Pre-processing Y_pre (paper 004, Section V-C2, Example 5) for independent samples on a common alphabet.

    Each X_i passes through a uniformiser (:func:`uniformizing_channel`) to S_i ~ U[m]; then
    Y_pre = (S_1 + S_2, ..., S_{n-1} + S_n) mod m. For i.i.d. binary samples ``predicted`` is the
    exact value of :func:`preprocessing_information` (the corrected Example 5 formula; the paper's
    eq. (67) is a lower bound for n >= 3).

    Examples
    --------
    >>> q = 0.2; px = np.array([1 - q, q])
    >>> res = preprocessing_mechanism(np.multiply.outer(np.outer(px, px), px))
    >>> round(res.information, 6), round(res.predicted, 6), res.check.is_private
    (0.155535, 0.155535, True)
    """
    base = check_base(base)
    P, margs = _independent_marginals(p_xn)
    n, m = P.ndim, P.shape[0]
    if any(s != m for s in P.shape):
        raise InputError(f"Y_pre needs a common alphabet for all samples, got sizes {P.shape}")
    if m ** n > max_states:
        raise TooLargeError(f"Y_pre's exact mapping has {m}^{n} = {m ** n} dataset states, more than max_states={max_states}")
    U = np.ones((1, 1))
    for mg in margs:
        U = np.kron(U, uniformizing_channel(mg))  # (s^n, x^n)
    states = np.array(list(itertools.product(range(m), repeat=n)))
    l_codes = np.ravel_multi_index(tuple(((states[:, :-1] + states[:, 1:]) % m).T), (m,) * (n - 1)) if n > 1 else np.zeros(len(states), int)
    D = np.zeros((m ** (n - 1), m ** n))
    D[l_codes, np.arange(m ** n)] = 1.0
    mapping = D @ U
    chk = verify_sample_privacy(mapping, P, base=base)
    pred = None
    if m == 2 and all(np.allclose(mg, margs[0]) for mg in margs):
        pred = preprocessing_information(float(margs[0][1]), n) / math.log2(base)
    return HeuristicDisclosure("Y_pre", mapping, chk.information, pred, chk)


def preprocessing_information(q: float, n: int, *, formula: str = "exact") -> float:
    """I(Y_pre; X^n) in bits for n i.i.d. Bern(q) samples (paper 004, Example 5).

    ``formula="exact"`` (spec §4.8, the correction): (n - 1) - n (1 - q) h(beta) + (1 - q)^n c_n(beta),
    with beta = (1/2 - q)/(1 - q) and c_n(beta) = H(S^n | S_1 xor S_2, ..., S_{n-1} xor S_n) for
    S_i i.i.d. Bern(beta). ``formula="eq67"``: the paper's eq. (67),
    (n - 1)[1 - 2q(1 - q) h(beta) - (1 - q)^2 h(2 beta (1 - beta))], exact only for n = 2 or q = 1/2
    and a strict lower bound for n >= 3. For q > 1/2 the roles of 0 and 1 swap (q -> 1 - q).

    Examples
    --------
    >>> [round(preprocessing_information(0.2, n), 6) for n in (2, 3, 4, 5)]
    [0.056386, 0.155535, 0.287189, 0.44359]
    >>> round(preprocessing_information(0.2, 3, formula="eq67"), 6) < 0.155535
    True
    """
    q = float(q)
    if not 0 < q < 1:
        raise InputError(f"q must lie in (0, 1), got {q}")
    if not isinstance(n, (int, np.integer)) or n < 2:
        raise InputError(f"n must be an integer >= 2, got {n!r}")
    if q > 0.5:
        q = 1 - q
    beta = (0.5 - q) / (1 - q)
    if formula == "eq67":
        return float((n - 1) * (1 - 2 * q * (1 - q) * _hb(beta) - (1 - q) ** 2 * _hb(2 * beta * (1 - beta))))
    if formula != "exact":
        raise InputError(f"formula={formula!r} is unknown; use 'exact' or 'eq67'")
    if n > 22:
        raise TooLargeError("the exact c_n(beta) term enumerates 2^n states; n <= 22 is supported")
    states = np.array(list(itertools.product((0, 1), repeat=n)), dtype=np.int64)
    ps = np.prod(np.where(states == 1, beta, 1 - beta), axis=1)
    d = np.ravel_multi_index(tuple((states[:, :-1] ^ states[:, 1:]).T), (2,) * (n - 1))
    pd_ = np.bincount(d, weights=ps, minlength=2 ** (n - 1))
    c_n = float(_H(ps)) - float(_H(pd_))
    return float((n - 1) - n * (1 - q) * _hb(beta) + (1 - q) ** n * c_n)


def pair_self_disclosure_binary(q: float) -> float:
    """Î_s(X_1, X_2) in bits for two i.i.d. Bern(q) bits: 2h(q) - (1-q) H(1-2q, q, q) - q h(q), q <= 1/2.

    Spec §3.3/§4.3 (vertices [1-2q, q, q, 0] with weight 1-q and [1-q, 0, 0, q] with weight q);
    q > 1/2 is mapped to 1 - q.

    Examples
    --------
    >>> [round(pair_self_disclosure_binary(q), 6) for q in (0.05, 0.1, 0.5)]
    [0.017928, 0.061356, 1.0]
    """
    q = float(q)
    if not 0 <= q <= 1:
        raise InputError(f"q must lie in [0, 1], got {q}")
    q = min(q, 1 - q)
    return float(2 * _hb(q) - (1 - q) * _H(np.array([1 - 2 * q, q, q])) - q * _hb(q))


def binary_iid_asymptotic_efficiency(q: float, scheme: str = "par") -> float:
    """Asymptotic efficiency (n -> infinity) of a heuristic on i.i.d. Bern(q) bits (paper 004, Fig. 5).

    ``"par"``: Ex. 4, Î_s(X_1, X_2) / h(q); ``"pre"``: exact Y_pre, (1 - (1 - q) h(beta)) / h(q)
    (spec §4.8); ``"pre_eq67"``: the paper's eq. (67) divided by h(q) (an underestimate). The optimal
    scheme tends to 1 (Theorem 4).

    Examples
    --------
    >>> [round(binary_iid_asymptotic_efficiency(0.1, s), 4) for s in ("par", "pre", "pre_eq67")]
    [0.1308, 0.2303, 0.0249]
    """
    q = float(q)
    if not 0 < q < 1:
        raise InputError(f"q must lie in (0, 1), got {q}")
    qq = min(q, 1 - q)
    beta = (0.5 - qq) / (1 - qq)
    h = _hb(qq)
    if scheme == "par":
        return pair_self_disclosure_binary(qq) / h
    if scheme == "pre":
        return (1 - (1 - qq) * _hb(beta)) / h
    if scheme == "pre_eq67":
        return (1 - 2 * qq * (1 - qq) * _hb(beta) - (1 - qq) ** 2 * _hb(2 * beta * (1 - beta))) / h
    raise InputError(f"scheme={scheme!r} is unknown; use 'par', 'pre' or 'pre_eq67'")


def modular_sum_mechanism(sizes: Sequence[int], modulus: int) -> np.ndarray:
    """Y = X_1 + ... + X_n mod M as a deterministic mapping (paper 004, Example 1), shape (M, prod(sizes)).

    With X_1 ~ U[M], X_2 ~ U[kM] independent it is perfectly sample-private and achieves
    I_s = H(W) = log M for W = X_1 + X_2 mod M.

    Examples
    --------
    >>> modular_sum_mechanism([2, 2], 2).astype(int).tolist()
    [[1, 0, 0, 1], [0, 1, 1, 0]]
    """
    sizes = tuple(int(s) for s in sizes)
    if not sizes or any(s < 1 for s in sizes):
        raise InputError(f"sizes must be positive alphabet sizes, got {sizes}")
    if not isinstance(modulus, (int, np.integer)) or modulus < 1:
        raise InputError(f"modulus must be a positive integer, got {modulus!r}")
    grid = np.indices(sizes).reshape(len(sizes), -1)
    y = grid.sum(0) % modulus
    out = np.zeros((modulus, grid.shape[1]))
    out[y, np.arange(grid.shape[1])] = 1.0
    return out


def window_sum_mechanism(modulus: int, n: int, k: int) -> np.ndarray:
    """Example 3: L_i = Q + X_i + ... + X_{i+k-1} mod M, Q ~ U[M] independent, Y = (L_1..L_{n-k+1}).

    Returns p(y | x^n) of shape (M^{n-k+1}, M^n). Private for every window of k samples
    (Corollary 4.1) and I(X^n; Y) = (n - k) log M for uniform i.i.d. samples.

    Examples
    --------
    >>> K = window_sum_mechanism(2, 3, 2)
    >>> K.shape, verify_sample_privacy(K, np.full((2, 2, 2), 1 / 8), protected=[(0, 1), (1, 2)]).is_private
    ((4, 8), True)
    """
    for v, nm in ((modulus, "modulus"), (n, "n"), (k, "k")):
        if not isinstance(v, (int, np.integer)) or v < 1:
            raise InputError(f"{nm} must be a positive integer, got {v!r}")
    if k > n:
        raise InputError(f"k must be <= n, got k={k}, n={n}")
    if modulus ** (2 * n - k + 1) > 5e7:
        raise TooLargeError("window_sum_mechanism's mapping would be too large")
    X = np.indices((modulus,) * n).reshape(n, -1)
    L = n - k + 1
    out = np.zeros((modulus ** L, X.shape[1]))
    for q in range(modulus):
        ls = np.stack([(q + X[i:i + k].sum(0)) % modulus for i in range(L)])
        codes = np.ravel_multi_index(tuple(ls), (modulus,) * L)
        out[codes, np.arange(X.shape[1])] += 1.0 / modulus
    return out


def quantile_sum_mechanism(x1, x2, n_bins: int) -> np.ndarray:
    """Theorem 5 construction for continuous data: Y = (bin(x1) + bin(x2)) mod K with K empirical-quantile bins.

    For independent continuous X_1, X_2 each bin index is uniform, so Y is independent of each X_i
    and I(X_1, X_2; Y) = log K (unbounded in K). Returns the integer outputs for the given samples.

    Examples
    --------
    >>> rng = np.random.default_rng(0)
    >>> y = quantile_sum_mechanism(rng.normal(size=1000), rng.exponential(size=1000), 4)
    >>> np.bincount(y).tolist()
    [250, 267, 248, 235]
    """
    a = np.asarray(x1, dtype=float).ravel()
    b = np.asarray(x2, dtype=float).ravel()
    if a.shape != b.shape or a.size == 0:
        raise InputError(f"x1 and x2 must be non-empty and of equal length, got {a.size} and {b.size}")
    if not (np.isfinite(a).all() and np.isfinite(b).all()):
        raise InputError("x1 and x2 must be finite numbers")
    if not isinstance(n_bins, (int, np.integer)) or n_bins < 1:
        raise InputError(f"n_bins must be a positive integer, got {n_bins!r}")

    def bins(v):
        ranks = np.argsort(np.argsort(v, kind="stable"), kind="stable")
        return (ranks * n_bins) // v.size

    return ((bins(a) + bins(b)) % n_bins).astype(np.int64)


# ----------------------------------------------------------------------------------------------
# i.i.d. models and asymptotic quantities (Section IV)


def _check_channel(p_w, p_x_given_w):
    pw = validate_pmf(p_w, ndim=1, name="p_w")
    C = np.asarray(p_x_given_w, dtype=float)
    if C.ndim != 2 or C.shape[1] != pw.size:
        raise InputError(f"p_x_given_w must have shape (|X|, |W|) = (?, {pw.size}) with columns p(. | w), got {C.shape}")
    if not np.isfinite(C).all() or (C < 0).any() or np.abs(C.sum(0) - 1).max() > 1e-8:
        raise DistributionError("every column p_x_given_w[:, w] must be a pmf over X")
    return pw, C


def iid_samples_model(p_w, p_x_given_w, n: int) -> tuple[np.ndarray, np.ndarray]:
    """The i.i.d. model of Section IV: W ~ p_w, X_1..X_n i.i.d. given W with P_{X|W}.

    Parameters
    ----------
    p_w : array_like, shape (|W|,)
    p_x_given_w : array_like, shape (|X|, |W|)
        Column w is p(. | w) (the paper's column-stochastic P_{X|W}).
    n : int

    Returns
    -------
    p_w_given_xn : ndarray, shape (|W|, |X|, ..., |X|)
        Columns with p(x^n) = 0 are uniform.
    p_xn : ndarray, shape (|X|,) * n

    Examples
    --------
    Table I (P(W = 1) = 1/3, BSC(0.1)), n = 2: I_s = 8.34e-3 bits.

    >>> pw, px = iid_samples_model([2/3, 1/3], [[0.9, 0.1], [0.1, 0.9]], 2)
    >>> round(synergistic_disclosure(pw, px).value, 7)
    0.0083377
    """
    pw, C = _check_channel(p_w, p_x_given_w)
    if not isinstance(n, (int, np.integer)) or n < 1:
        raise InputError(f"n must be a positive integer, got {n!r}")
    m = C.shape[0]
    if m ** n * pw.size > 5e7:
        raise TooLargeError(f"the model has {m}^{n} x {pw.size} entries; too large")
    joint = pw.reshape((pw.size,) + (1,) * n)
    for i in range(n):
        shape = [1] * (n + 1)
        shape[0] = pw.size
        shape[i + 1] = m
        joint = joint * C.T.reshape(shape)
    p_xn = joint.sum(0)
    with np.errstate(invalid="ignore", divide="ignore"):
        cond = np.where(p_xn > 0, joint / np.where(p_xn > 0, p_xn, 1), 1.0 / pw.size)
    return cond, p_xn


@dataclass(frozen=True, eq=False)
class LatentReduction:
    """W̃ = T^X(W): W with values of identical p(x | w) merged (paper 004, eq. (27), Theorem 2).

    ``value`` is C_X(W) = H(W̃) = lim_n I(W; X^n); ``merge[w]`` is the W̃ value of w.
    """

    value: float
    merge: np.ndarray = field(repr=False)
    p_w_tilde: np.ndarray = field(repr=False)
    p_x_given_w_tilde: np.ndarray = field(repr=False)


def latent_reduction(p_w, p_x_given_w, *, atol: float = 1e-12, base: float = 2) -> LatentReduction:
    """Merge the values of W that have identical conditionals p(. | w): W̃ and C_X(W) (paper 004, Thm 2, Fig. 3).

    Examples
    --------
    Spec §4.5: p_W = (1/4, 1/4, 1/2), P(X = 1 | w) = (0.2, 0.2, 0.7) gives two values and H(W̃) = 1 bit.

    >>> r = latent_reduction([0.25, 0.25, 0.5], [[0.8, 0.8, 0.3], [0.2, 0.2, 0.7]])
    >>> r.merge.tolist(), round(r.value, 9)
    ([0, 0, 1], 1.0)
    """
    base = check_base(base)
    pw, C = _check_channel(p_w, p_x_given_w)
    merge = np.full(pw.size, -1, dtype=np.int64)
    reps = []
    for w in range(pw.size):
        for k, rw in enumerate(reps):
            if np.abs(C[:, w] - C[:, rw]).max() <= atol:
                merge[w] = k
                break
        else:
            merge[w] = len(reps)
            reps.append(w)
    pt = np.bincount(merge, weights=pw, minlength=len(reps))
    Ct = C[:, reps]
    return LatentReduction(float(_H(pt, base)), merge, pt, Ct)


def output_perturbation_capacity(p_w, p_x_given_w, *, base: float = 2) -> float:
    """C_1(0) of paper 004 (Def. 3): max I(W̃; Y) with X - W̃ - Y and Y ⟂ X -- the limit of I_s (Theorem 3).

    Same machinery as Algorithm 2 with P replaced by P_{X|W̃}: vertices of {t >= 0 : P_{X|W̃} t = p_X}.

    Examples
    --------
    Spec §4.5 (W uniform on 3 values, P(X = 1 | w) = 0.1, 0.5, 0.9): C_1(0) = 0.9183; the Table I
    model has C_1(0) = 0.

    >>> round(output_perturbation_capacity(np.ones(3) / 3, [[.9, .5, .1], [.1, .5, .9]]), 4)
    0.9183
    """
    base = check_base(base)
    red = latent_reduction(p_w, p_x_given_w)
    pt, Ct = red.p_w_tilde, red.p_x_given_w_tilde
    keep = pt > 0
    pt, Ct = pt[keep], Ct[:, keep]
    u, V, lp, h_w = _disclose(np.eye(pt.size), pt, Ct, method="auto", max_support=MAX_POLYTOPE_SUPPORT,
                              max_bases=MAX_BASES, max_vertices=MAX_VERTICES, base=base)
    return float(h_w - lp)


def genie_disclosure(p_w, p_x_given_w, n: int, *, base: float = 2) -> float:
    """J(W, X^n) of paper 004, eq. (41): a curator that also sees W̃; J(W, X^1) = C_2(0) (Remark 5).

    The dataset is (W̃, X^n) with only X_1..X_n protected; non-increasing in n towards C_1(0).

    Examples
    --------
    Table I model: J = 0.192494, 0.162171 for n = 1, 2 (spec §4.4).

    >>> [round(genie_disclosure([2/3, 1/3], [[.9, .1], [.1, .9]], n), 6) for n in (1, 2)]
    [0.192494, 0.162171]
    """
    base = check_base(base)
    red = latent_reduction(p_w, p_x_given_w)
    pt, Ct = red.p_w_tilde, red.p_x_given_w_tilde
    if not isinstance(n, (int, np.integer)) or n < 1:
        raise InputError(f"n must be a positive integer, got {n!r}")
    # joint pmf of (W̃, X^n)
    joint = pt.reshape((pt.size,) + (1,) * n)
    m = Ct.shape[0]
    for i in range(n):
        shape = [1] * (n + 1)
        shape[0] = pt.size
        shape[i + 1] = m
        joint = joint * Ct.T.reshape(shape)
    hg = SampleHypergraph.from_pmf(joint / joint.sum())
    PW = np.zeros((pt.size, hg.n_edges))
    PW[hg.support[:, 0], np.arange(hg.n_edges)] = 1.0
    M = _constraint_matrix(hg, [(i,) for i in range(1, n + 1)])
    u, V, lp, h_w = _disclose(PW, hg.weights, M, method="auto", max_support=MAX_POLYTOPE_SUPPORT,
                              max_bases=MAX_BASES, max_vertices=MAX_VERTICES, base=base)
    return float(h_w - lp)


@dataclass(frozen=True)
class AsymptoticBounds:
    """The chain of paper 004, Prop. 5 and Remark 5 (bits by default):

    (C_X(W) - log|X|)^+ <= C_1(0) <= C_2(0) <= H(W̃ | X) <= H(W | X),

    where C_1(0) = lim_n I_s(W, X^n) (Theorem 3) and C_2(0) = J(W, X^1).
    """

    lower: float
    c1_zero: float
    c2_zero: float
    h_wtilde_given_x: float
    h_w_given_x: float
    c_x: float


def asymptotic_bounds(p_w, p_x_given_w, *, base: float = 2) -> AsymptoticBounds:
    """Prop. 5 of paper 004 for the i.i.d. model: bounds on the limit C_1(0) of I_s(W, X^n).

    (The extracted paper prints "H(W|X) <= H(W|X)"; the chain's last step is H(W̃|X) <= H(W|X).)

    Examples
    --------
    Spec §4.5 (W uniform on 3 values, P(X = 1 | w) = 0.1, 0.5, 0.9):

    >>> b = asymptotic_bounds(np.ones(3) / 3, [[.9, .5, .1], [.1, .5, .9]])
    >>> [round(v, 4) for v in (b.lower, b.c1_zero, b.c2_zero, b.h_w_given_x)]
    [0.585, 0.9183, 1.0516, 1.231]
    """
    base = check_base(base)
    pw, C = _check_channel(p_w, p_x_given_w)
    red = latent_reduction(pw, C, base=base)
    jw = C * pw[None, :]
    jt = red.p_x_given_w_tilde * red.p_w_tilde[None, :]
    h_w_x = float(_H(jw.ravel(), base) - _H(jw.sum(1), base))
    h_t_x = float(_H(jt.ravel(), base) - _H(jt.sum(1), base))
    lower = max(0.0, red.value - math.log(C.shape[0]) / math.log(base))
    return AsymptoticBounds(lower, output_perturbation_capacity(pw, C, base=base), genie_disclosure(pw, C, 1, base=base),
                            h_t_x, h_w_x, red.value)
