"""Vertices of the polytope of private posteriors S = {t >= 0 : M t = M p} (Algorithm 1).

Rassouli, Rosas & Gündüz, *Data Disclosure under Perfect Sample Privacy*, eq. (12) and Algorithm 1.
With M the incidence matrix P of the sample hypergraph, S is the set of pmfs on the support with the
same single-sample marginals as p (the fractional perfect b-matchings of H_n with b = the weighted
degrees). Its vertices are enumerated through cddlib (``pycddlib-standalone``, optional) or a built-in
basis enumeration; both enumerate per connected component, since S factorises over the components,
and take products. Everything here works on the matrix M; :func:`graphpriv.privacy_polytope_vertices`
applies it to a :class:`~graphpriv.SampleHypergraph`.

Erratum: the paper's displayed SVD matrix A in Example 2 has a typo (-2385 for -2358); only its row
space matters, and graphpriv uses an orthonormal basis of the row space of M (or a column basis, for
circuits).
"""

from __future__ import annotations

import itertools
import math

import numpy as np
import scipy.sparse as sp
from scipy.sparse.csgraph import connected_components

from ..errors import InputError, TooLargeError

__all__ = ["MAX_POLYTOPE_SUPPORT", "MAX_VERTICES"]

#: Default size limit of exact vertex enumeration: support points per connected component of H_n.
#: Vertex counts explode past it (Table I model: 2, 9, 130, 6782 vertices for 4, 8, 16, 32 points;
#: cddlib did not finish 64 points in 20 minutes). Pass ``max_support=None`` to lift it at your own risk.
MAX_POLYTOPE_SUPPORT = 32

#: Default cap on the number of vertices returned (a (K, |supp|) float array is built).
MAX_VERTICES = 200_000

#: Default cap on the number of r-subsets the built-in basis enumeration tries (C(|supp|, rank P)).
MAX_BASES = 5_000_000

_RANK_RTOL = 1e-10


# ----------------------------------------------------------------------------------------------
# small linear-algebra helpers (private)


def _svd_split(M: np.ndarray) -> tuple[np.ndarray, np.ndarray, int]:
    """(A, N, r): orthonormal row-space basis A (r x E), null basis N (E x nul), rank r."""
    M = np.asarray(M, dtype=float)
    if M.size == 0:
        E = M.shape[1]
        return np.zeros((0, E)), np.eye(E), 0
    _, s, Vt = np.linalg.svd(M, full_matrices=True)
    r = int((s > _RANK_RTOL * max(1.0, s[0] if s.size else 0.0)).sum())
    return Vt[:r], Vt[r:].T, r


def _clean(x: np.ndarray, tol: float = 1e-12) -> np.ndarray:
    x = np.array(x, dtype=float)
    x[np.abs(x) < tol] = 0.0
    return x


def _column_basis(M: np.ndarray) -> np.ndarray:
    """Indices of a maximal set of linearly independent columns (QR with column pivoting), sorted."""
    import scipy.linalg

    if M.size == 0:
        return np.zeros(0, dtype=np.int64)
    _, R, piv = scipy.linalg.qr(M, pivoting=True, mode="economic")
    d = np.abs(np.diag(R))
    r = int((d > _RANK_RTOL * max(1.0, d[0] if d.size else 0.0)).sum())
    return np.sort(piv[:r])


# ----------------------------------------------------------------------------------------------
# Algorithm 1: vertices of S = {t >= 0 : M t = M p}


def _cdd_available() -> bool:
    try:
        import cdd  # noqa: F401
    except ImportError:
        return False
    return True


def _vertices_bases(M: np.ndarray, p: np.ndarray, tol: float, max_bases: int | None, chunk: int = 200_000) -> np.ndarray:
    """Algorithm 1 of paper 004, batched: every rank(M)-subset B of columns with A_B invertible and A_B^{-1} b >= 0."""
    A, _, r = _svd_split(M)
    E = M.shape[1]
    if r == E:
        return p[None, :].copy()
    n_sub = math.comb(E, r)
    if max_bases is not None and n_sub > max_bases:
        raise TooLargeError(
            f"basis enumeration would try C({E}, {r}) = {n_sub:,} column subsets, more than max_bases={max_bases:,}; "
            "install pycddlib-standalone and use method='cdd', or raise max_bases")
    b = A @ p
    combs = itertools.combinations(range(E), r)
    out = []
    while True:
        C = np.fromiter(itertools.chain.from_iterable(itertools.islice(combs, chunk)), dtype=np.int64)
        if C.size == 0:
            break
        C = C.reshape(-1, r)
        AB = A[:, C].transpose(1, 0, 2)
        ok = np.abs(np.linalg.det(AB)) > 1e-10
        C, AB = C[ok], AB[ok]
        if not len(C):
            continue
        X = np.linalg.solve(AB, np.broadcast_to(b, (len(C), r))[..., None])[..., 0]
        feas = (X >= -tol).all(axis=1)
        if feas.any():
            V = np.zeros((int(feas.sum()), E))
            rows = np.repeat(np.arange(V.shape[0]), r)
            V[rows, C[feas].ravel()] = np.clip(X[feas], 0, None).ravel()
            out.append(V)
    return np.vstack(out) if out else np.zeros((0, E))


def _vertices_cdd(M: np.ndarray, p: np.ndarray) -> np.ndarray:
    """Vertices through cddlib's double description (float arithmetic)."""
    import cdd

    G, E = M.shape
    b = M @ p
    rows = np.vstack([np.hstack([b[:, None], -M]), np.hstack([np.zeros((E, 1)), np.eye(E)])])
    mat = cdd.matrix_from_array(rows.tolist(), lin_set=set(range(G)), rep_type=cdd.RepType.INEQUALITY)
    gen = cdd.copy_generators(cdd.polyhedron_from_matrix(mat))
    arr = np.array(gen.array, dtype=float).reshape(-1, E + 1)
    return arr[arr[:, 0] > 0.5, 1:]


def _polish(M: np.ndarray, p: np.ndarray, V: np.ndarray, tol: float) -> np.ndarray:
    """Clip, re-solve each vertex on its support (least squares) and deduplicate."""
    if V.shape[0] == 0:
        return V
    b = M @ p
    V = np.where(V > tol, V, 0.0)
    bad = np.abs(V @ M.T - b[None, :]).max(axis=1) > 1e-12
    for k in np.flatnonzero(bad):  # re-solve only the vertices that are not accurate already
        F = np.flatnonzero(V[k] > 0)
        x, *_ = np.linalg.lstsq(M[:, F], b, rcond=None)
        V[k] = 0.0
        V[k, F] = np.clip(x, 0, None)
    out = {}
    scale = max(tol, 1e-12)
    for key, t in zip(map(tuple, np.round(V / scale).astype(np.int64)), V):
        out.setdefault(key, t)
    W = np.array(list(out.values()))
    keys = np.round(W, 9)
    return W[np.lexsort(keys.T[::-1])][::-1]


def _factor_groups(M: np.ndarray, E: int) -> list[np.ndarray]:
    """Column groups over which {t >= 0 : M t = M p} factorises (components of M's pattern whose
    indicator vector lies in the row space), else one group."""
    pat = sp.csr_array(np.abs(M) > 0)
    R = M.shape[0]
    adj = sp.bmat([[None, pat], [pat.T, None]], format="csr")
    _, lab = connected_components(adj, directed=False)
    col = lab[R:]
    groups = [np.flatnonzero(col == c) for c in np.unique(col)]
    if len(groups) == 1:
        return groups
    A, _, _ = _svd_split(M)
    for g in groups:
        ind = np.zeros(E)
        ind[g] = 1.0
        if np.linalg.norm(ind - A.T @ (A @ ind)) > 1e-8 * math.sqrt(E):
            return [np.arange(E)]
    return groups


def _enumerate(M: np.ndarray, p: np.ndarray, *, method: str, max_support: int | None, max_bases: int | None,
               max_vertices: int | None, tol: float) -> np.ndarray:
    M = np.asarray(M, dtype=float)
    E = M.shape[1]
    groups = _factor_groups(M, E)
    per = []
    for g in groups:
        if max_support is not None and g.size > max_support:
            raise TooLargeError(
                f"exact vertex enumeration of the privacy polytope is limited to {max_support} support points per "
                f"connected component, this one has {g.size}; vertex counts explode past it (about 25 points is the "
                "practical ceiling of the basis method). Pass max_support=None to try anyway")
        rows = np.flatnonzero(np.abs(M[:, g]).sum(axis=1) > 0)
        Mg = M[np.ix_(rows, g)]
        mass = p[g].sum()
        pg = p[g] / mass
        if method == "cdd":
            V = _vertices_cdd(Mg, pg)
        else:
            V = _vertices_bases(Mg, pg, tol, max_bases)
        V = _polish(Mg, pg, V, tol)
        if V.shape[0] == 0:  # pragma: no cover - p is always in S
            raise RuntimeError("vertex enumeration found no vertex although p is feasible")
        per.append((g, mass, V))
    total = int(np.prod([V.shape[0] for _, _, V in per], dtype=object))
    if max_vertices is not None and total > max_vertices:
        raise TooLargeError(f"the privacy polytope has {total:,} vertices (product over components), more than max_vertices={max_vertices:,}")
    out = np.zeros((total, E))
    for k, combo in enumerate(itertools.product(*[range(V.shape[0]) for _, _, V in per])):
        for (g, mass, V), c in zip(per, combo):
            out[k, g] = mass * V[c]
    return out


def _resolve_method(method: str) -> str:
    if method not in ("auto", "cdd", "bases"):
        raise InputError(f"method={method!r} is not a vertex-enumeration method; use 'auto', 'cdd' or 'bases'")
    if method == "auto":
        return "cdd" if _cdd_available() else "bases"
    if method == "cdd" and not _cdd_available():
        raise ImportError("method='cdd' needs the optional package pycddlib-standalone (import name cdd); use method='bases'")
    return method
