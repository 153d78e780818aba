"""The constraint system of perfect sample privacy, and the entropies every module reads.

Rassouli, Rosas & Gündüz, *Data Disclosure under Perfect Sample Privacy*, Def. 1 and eq. (3): a mapping p(y | x^n) keeps every sample private when P t = P p for the
posterior t of every output, P the incidence matrix of the sample hypergraph H_n
(:class:`~graphpriv.SampleHypergraph`); with protected groups of samples (Corollary 4.1) one block of
rows per group instead. Conditional pmfs p(w | x^n) are checked and restricted to the support here.
"""

from __future__ import annotations

import math

import numpy as np

from ...errors import DistributionError, InputError, InputTypeError
from ...graphs.hypergraph import SampleHypergraph

__all__: list[str] = []


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
