"""The sample hypergraph H_n of paper 004 and its incidence matrix P.

Paper 004 (Rassouli, Rosas, Gündüz, "Data Disclosure under Perfect Sample Privacy"), Section III and
Remark 1: n samples X^n = (X_1, ..., X_n) with joint pmf p(x^n) give the n-uniform, n-partite
hypergraph H_n = (V, E). Its vertices are the values of every sample -- first the |X_1| values of X_1,
then the |X_2| values of X_2, and so on -- and its hyperedges are the support points
x^n = (x_1, ..., x_n) with p(x^n) > 0, each the set {(1, x_1), ..., (n, x_n)}. Its incidence matrix is
the G x |supp| binary matrix P of eq. (3), G = sum_i |X_i|, whose block i is P_{X_i|X^n}.

Conventions (the paper's, used by every example): columns (hyperedges) in C order of the full grid,
i.e. lexicographic with X_1 the slowest index; rows in sample order, values in code order.

Its polytope of private posteriors, eq. (12), S = {t >= 0 : P t = P p}, has its vertices enumerated
by :func:`privacy_polytope_vertices` (Algorithm 1, the matrix work in :mod:`graphpriv.graphs.polytope`).
"""

from __future__ import annotations

import itertools
from dataclasses import dataclass, field
from functools import cached_property
from typing import Hashable, Sequence

import numpy as np
import scipy.sparse as sp
from scipy.sparse.csgraph import connected_components

from .._validation import validate_pmf
from ..errors import InputError, InputTypeError
from .polytope import MAX_BASES, MAX_POLYTOPE_SUPPORT, MAX_VERTICES, _clean, _column_basis, _enumerate, _resolve_method, _svd_split
from .polytope import _cdd_available  # noqa: F401  (imported from here by callers that predate graphs.polytope)

__all__ = [
    "SampleHypergraph",
    "HypergraphComponents",
    "kronecker_incidence",
    "privacy_polytope_vertices",
    "MAX_POLYTOPE_SUPPORT",
    "MAX_VERTICES",
]


def kronecker_incidence(sizes: Sequence[int]) -> sp.csr_array:
    """Incidence matrix P of H_n for the full support prod_i X_i (paper 004, Kronecker form).

    Block i is ``1^T_{m_1} ⊗ ... ⊗ I_{m_i} ⊗ ... ⊗ 1^T_{m_n}``; for binary samples this is the
    paper's recursion P_{k+1} = [[1^T 0^T], [0^T 1^T], [P_k P_k]].

    Parameters
    ----------
    sizes : sequence of int
        Alphabet sizes (|X_1|, ..., |X_n|), each >= 1.

    Returns
    -------
    scipy.sparse.csr_array of int, shape (sum(sizes), prod(sizes))
        Columns in C order (X_1 slowest).

    Examples
    --------
    >>> from graphpriv import kronecker_incidence
    >>> kronecker_incidence([2, 2]).toarray()
    array([[1, 1, 0, 0],
           [0, 0, 1, 1],
           [1, 0, 1, 0],
           [0, 1, 0, 1]])
    """
    sizes = _check_sizes(sizes)
    blocks = []
    for i in range(len(sizes)):
        B = sp.csr_array(np.ones((1, 1), dtype=np.int64))
        for k, mk in enumerate(sizes):
            f = sp.identity(mk, dtype=np.int64, format="csr") if k == i else sp.csr_array(np.ones((1, mk), dtype=np.int64))
            B = sp.kron(B, f, format="csr")
        blocks.append(B)
    return sp.csr_array(sp.vstack(blocks, format="csr"))


def _check_sizes(sizes) -> tuple[int, ...]:
    try:
        out = tuple(int(m) for m in sizes)
    except (TypeError, ValueError):
        raise InputTypeError(f"sizes must be a sequence of positive integers (alphabet sizes), got {sizes!r}") from None
    if not out or any(m < 1 for m in out):
        raise InputError(f"sizes must be a non-empty sequence of integers >= 1 (alphabet sizes), got {sizes!r}")
    return out


def _guard_pmf_size(p_xn) -> None:
    """Refuse a dense pmf whose validation copies would pass the memory budget (before touching it)."""
    from .._guards import check_dense

    shape = getattr(p_xn, "shape", None)
    if shape is not None and len(shape) > 0:
        size = float(np.prod([float(k) for k in shape]))
        check_dense(f"the dense pmf of shape {tuple(shape)} (validated as float64 copies)", size, 3 * 8,
                    "SampleHypergraph.from_support with the points of positive probability")


def _guard_support_size(n_points: int, n_samples: int) -> None:
    from .._guards import check_dense

    check_dense(f"the support of {n_points} points x {n_samples} samples (int64 codes and their index)",
                n_points, 8 * (n_samples + 2), "SampleHypergraph.from_support with the points that matter, "
                "or fewer samples")


@dataclass(frozen=True, eq=False)
class HypergraphComponents:
    """Connected components of H_n (equivalently of its Levi graph).

    Rassouli, Rosas & Gündüz, "Data Disclosure under Perfect Sample Privacy" (paper 004), Sections III-IV:
    the component kappa(x^n) of a hyperedge is a deterministic function of every single sample X_i -- a
    common part of all samples (for n = 2 the Gács–Körner common variable).
    Perfect sample privacy forces Y ⟂ kappa, so the polytope S factorises over the components.

    Attributes
    ----------
    n_components : int
        Number of components that hold at least one hyperedge.
    edge : ndarray of int, shape (|supp|,)
        Component id of each hyperedge (support point), numbered by first hyperedge in column order.
    vertex : ndarray of int, shape (G,)
        Component id of each vertex (sample value) in row order of P; -1 for a value with zero
        marginal probability (an isolated vertex, which no hyperedge contains).
    mass : ndarray of float, shape (n_components,)
        Probability pi_k of each component (NaN when the hypergraph carries no weights).
    """

    n_components: int
    edge: np.ndarray = field(repr=False)
    vertex: np.ndarray = field(repr=False)
    mass: np.ndarray = field(repr=False)
    sizes: tuple[int, ...] = field(repr=False)

    def edge_groups(self) -> list[np.ndarray]:
        """Column indices (support positions) of each component, component order."""
        return [np.flatnonzero(self.edge == k) for k in range(self.n_components)]

    def common_part(self) -> list[np.ndarray]:
        """kappa as a function of each sample: list of n arrays, ``out[i][a]`` = component of X_i = a (-1: unused)."""
        offs = np.concatenate([[0], np.cumsum(self.sizes)[:-1]]).astype(int)
        return [self.vertex[o:o + m] for o, m in zip(offs, self.sizes)]


@dataclass(frozen=True, eq=False)
class SampleHypergraph:
    """The hypergraph H_n of n samples and its incidence matrix P (paper 004, eq. (3), Remark 1).

    Build it with :meth:`from_pmf` (a joint pmf with one axis per sample), :meth:`from_support`
    or :meth:`from_dataframe` (a dataset's n columns).

    Attributes
    ----------
    sizes : tuple of int
        Alphabet sizes (|X_1|, ..., |X_n|).
    support : ndarray of int, shape (|supp|, n)
        Support points x^n (value codes), in C order of the full grid (X_1 slowest).
    weights : ndarray of float, shape (|supp|,) or None
        p(x^n) on the support (sums to 1), or None for an unweighted hypergraph.
    labels : tuple of ndarray
        Value labels of each sample (default: the codes 0..|X_i|-1).
    names : tuple of str
        Sample names (default "X1", ..., "Xn").

    Examples
    --------
    Paper 004, Example 2 (X_1 = BSC(2/3)(W), X_2 = BEC(1/2)(W), W ~ Bern(1/2)):

    >>> from graphpriv import SampleHypergraph
    >>> import numpy as np
    >>> hg = SampleHypergraph.from_pmf(np.array([[1, 3, 2], [2, 3, 1]]) / 12)
    >>> hg
    SampleHypergraph(n=2, sizes=(2, 3), support=6, rank=4, nullity=2, components=1)
    >>> hg.incidence.toarray()
    array([[1, 1, 1, 0, 0, 0],
           [0, 0, 0, 1, 1, 1],
           [1, 0, 0, 1, 0, 0],
           [0, 1, 0, 0, 1, 0],
           [0, 0, 1, 0, 0, 1]])
    """

    sizes: tuple[int, ...]
    support: np.ndarray = field(repr=False)
    weights: np.ndarray | None = field(repr=False, default=None)
    labels: tuple = field(repr=False, default=())
    names: tuple = field(repr=False, default=())

    def __post_init__(self):
        if not self.labels:
            object.__setattr__(self, "labels", tuple(np.arange(m) for m in self.sizes))
        if not self.names:
            object.__setattr__(self, "names", tuple(f"X{i + 1}" for i in range(len(self.sizes))))

    # ------------------------------------------------------------------ constructors
    @classmethod
    def from_pmf(cls, p_xn, *, labels: Sequence[Sequence[Hashable]] | None = None, names: Sequence[str] | None = None, atol: float = 1e-9) -> "SampleHypergraph":
        """H_n of a joint pmf given as an n-dimensional array, one axis per sample.

        Parameters
        ----------
        p_xn : array_like, shape (|X_1|, ..., |X_n|)
            Joint pmf p(x_1, ..., x_n); must be >= 0, finite and sum to 1 (within ``atol``).
            A 1-D array is one sample (n = 1).
        labels : sequence of sequences, optional
            Value labels per sample (lengths must match the axes).
        names : sequence of str, optional
            Sample names.
        atol : float
            Tolerance of the sum-to-one check.

        Returns
        -------
        SampleHypergraph
            Hyperedges = entries with p > 0, in C order.

        Raises
        ------
        DistributionError
            Negative / NaN entries, or entries not summing to 1.
        InputError
            ``labels`` or ``names`` do not match the axes.
        TooLargeError
            The dense pmf or its support table (|support| x n codes) would pass the memory budget,
            e.g. a full-support pmf on (2,)^24; build it with :meth:`from_support` from the points
            that occur instead.

        Examples
        --------
        >>> from graphpriv import SampleHypergraph
        >>> hg = SampleHypergraph.from_pmf([[0.5, 0.0], [0.25, 0.25]])
        >>> hg.support.tolist()
        [[0, 0], [1, 0], [1, 1]]
        >>> hg.weights.tolist()
        [0.5, 0.25, 0.25]
        """
        _guard_pmf_size(p_xn)
        p = validate_pmf(p_xn, atol=atol, name="p_xn")
        if p.ndim == 0:
            raise InputError("p_xn must have one axis per sample, got a scalar")
        _guard_support_size(int(np.count_nonzero(p > 0)), p.ndim)
        flat = np.flatnonzero(p.ravel() > 0)
        support = np.stack(np.unravel_index(flat, p.shape), axis=1).astype(np.int64)
        return cls._make(p.shape, support, p.ravel()[flat] / p.sum(), labels, names)

    @classmethod
    def from_support(cls, sizes: Sequence[int], support, weights=None, *, labels=None, names=None) -> "SampleHypergraph":
        """H_n from alphabet sizes and a list of support points (value codes), optionally weighted.

        The support is sorted into C order and duplicates are rejected.

        Examples
        --------
        >>> from graphpriv import SampleHypergraph
        >>> hg = SampleHypergraph.from_support([2, 2, 2], [(0, 0, 0), (0, 0, 1), (1, 1, 0)])
        >>> hg.rank, hg.nullity, hg.components().n_components
        (3, 0, 1)
        """
        sizes = _check_sizes(sizes)
        sup = np.asarray(support)
        if sup.ndim != 2 or sup.shape[1] != len(sizes) or sup.shape[0] == 0:
            raise InputError(f"support must be a non-empty list of {len(sizes)}-tuples (one code per sample), got shape {sup.shape}")
        if not np.issubdtype(sup.dtype, np.integer):
            raise InputTypeError("support must hold integer value codes 0..|X_i|-1")
        if (sup < 0).any() or (sup >= np.array(sizes)).any():
            raise InputError(f"support codes must lie in 0..|X_i|-1 for sizes {sizes}")
        flat = np.ravel_multi_index(tuple(sup.T), sizes)
        if np.unique(flat).size != flat.size:
            raise InputError("support has duplicate points; list each x^n once")
        order = np.argsort(flat)
        w = None
        if weights is not None:
            w = validate_pmf(weights, ndim=1, name="weights")
            if w.size != sup.shape[0]:
                raise InputError(f"weights has {w.size} entries but support has {sup.shape[0]} points")
            if (w <= 0).any():
                raise InputError("weights must be > 0 on the support (drop points with zero probability)")
            w = w[order]
        return cls._make(sizes, sup[order].astype(np.int64), w, labels, names)

    @classmethod
    def from_dataframe(cls, df, columns: Sequence[Hashable], *, missing: str = "error") -> "SampleHypergraph":
        """H_n of the empirical joint pmf of a dataset's n columns (one sample per column).

        Parameters
        ----------
        df : pandas.DataFrame
        columns : sequence of column names
            The n sample columns, in sample order.
        missing : {"error", "drop", "keep"}
            Missing-value policy (``"keep"`` makes a missing value a symbol of its own).

        Examples
        --------
        >>> from graphpriv import SampleHypergraph
        >>> import pandas as pd
        >>> df = pd.DataFrame({"a": [0, 0, 1, 1], "b": ["u", "v", "u", "u"]})
        >>> hg = SampleHypergraph.from_dataframe(df, ["a", "b"])
        >>> hg.support.tolist(), hg.weights.tolist()
        ([[0, 0], [0, 1], [1, 0]], [0.25, 0.25, 0.5])
        >>> [l.tolist() for l in hg.labels]
        [[0, 1], ['u', 'v']]
        """
        import pandas as pd

        from .._validation import check_missing_policy, factorize_labels, missing_mask
        from ..errors import MissingValueError, UnknownColumnError

        if not isinstance(df, pd.DataFrame):
            raise InputTypeError(f"df must be a pandas DataFrame, got {type(df).__name__}")
        cols = list(columns)
        if not cols:
            raise InputError("columns is empty; pass the names of the n sample columns")
        for c in cols:
            if c not in df.columns:
                raise UnknownColumnError(f"column {c!r} is not in the table; available: {list(df.columns)}")
        check_missing_policy(missing)
        sub = df[cols].reset_index(drop=True)
        mask = np.zeros(len(sub), dtype=bool)
        for c in cols:
            mask |= missing_mask(sub[c])
        if mask.any() and missing == "error":
            raise MissingValueError(f"{int(mask.sum())} row(s) have missing values in {cols}; pass missing='drop' or missing='keep'")
        if mask.any() and missing == "drop":
            sub = sub[~mask].reset_index(drop=True)
        if len(sub) == 0:
            raise InputError("no rows left to build the hypergraph from")
        codes, labels = [], []
        for c in cols:
            cc, lab = factorize_labels(sub[c], str(c), keep_missing=(missing == "keep"))
            codes.append(cc)
            labels.append(lab)
        sizes = tuple(len(lab) for lab in labels)
        flat = np.ravel_multi_index(tuple(codes), sizes)
        uniq, counts = np.unique(flat, return_counts=True)
        support = np.stack(np.unravel_index(uniq, sizes), axis=1).astype(np.int64)
        return cls._make(sizes, support, counts / counts.sum(), labels, [str(c) for c in cols])

    @classmethod
    def from_joint_range(cls, jr, weights: str | None = "counts") -> "SampleHypergraph":
        """H_2 of a :class:`~graphpriv.JointRange`: samples (S, X), one hyperedge per pair of [[S, X]].

        Its Levi graph is the subdivided bipartite support graph, so its components are the
        components of paper 003's support graph (the finest decomposition of G_X).

        Parameters
        ----------
        jr : JointRange
        weights : {"counts", "uniform", None}
            ``"counts"``: empirical pmf when the range was built from records (else uniform);
            ``"uniform"``: uniform on the pairs; None: unweighted.

        Examples
        --------
        >>> from graphpriv import SampleHypergraph
        >>> from graphpriv.datasets import paper_example
        >>> jr, _ = paper_example()
        >>> hg = SampleHypergraph.from_joint_range(jr)
        >>> hg.sizes, hg.n_edges, hg.components().n_components
        ((6, 7), 8, 5)
        """
        from ..ranges import JointRange

        if not isinstance(jr, JointRange):
            raise InputTypeError(f"jr must be a JointRange, got {type(jr).__name__}")
        if weights not in ("counts", "uniform", None):
            raise InputError(f"weights must be 'counts', 'uniform' or None, got {weights!r}")
        coo = jr.matrix.tocoo()
        sizes = tuple(int(m) for m in jr.matrix.shape)
        flat = np.ravel_multi_index((coo.row, coo.col), sizes)
        order = np.argsort(flat)
        support = np.stack([coo.row[order], coo.col[order]], axis=1).astype(np.int64)
        w = None
        if weights is not None:
            if weights == "counts" and jr.counts is not None:
                c = np.asarray(jr.counts[support[:, 0], support[:, 1]], dtype=float).ravel()
            else:
                c = np.ones(len(support))
            w = c / c.sum()
        return cls._make(sizes, support, w, (jr.sensitive_labels, jr.public_labels), ("S", "X"))

    @classmethod
    def from_distribution(cls, dist) -> "SampleHypergraph":
        """H_2 of a :class:`~graphpriv.JointDistribution` p(s, x) (samples S and X).

        Examples
        --------
        >>> from graphpriv import SampleHypergraph
        >>> import numpy as np
        >>> from graphpriv import JointDistribution
        >>> SampleHypergraph.from_distribution(JointDistribution(np.full((2, 2), 0.25))).nullity
        1
        """
        from ..distributions import JointDistribution

        if not isinstance(dist, JointDistribution):
            raise InputTypeError(f"dist must be a JointDistribution, got {type(dist).__name__}")
        return cls.from_pmf(dist.P, labels=[dist.sensitive_labels, dist.public_labels], names=["S", "X"])

    @classmethod
    def _make(cls, sizes, support, weights, labels, names) -> "SampleHypergraph":
        sizes = tuple(int(m) for m in sizes)
        if labels is None:
            labels = tuple(np.arange(m) for m in sizes)
        else:
            labels = tuple(np.asarray(l) if not isinstance(l, np.ndarray) else l for l in labels)
            if len(labels) != len(sizes) or any(len(l) != m for l, m in zip(labels, sizes)):
                raise InputError(f"labels must give one label per value of each sample (sizes {sizes}), got lengths {[len(l) for l in labels]}")
        if names is None:
            names = tuple(f"X{i + 1}" for i in range(len(sizes)))
        else:
            names = tuple(str(n) for n in names)
            if len(names) != len(sizes):
                raise InputError(f"names must have one entry per sample ({len(sizes)}), got {len(names)}")
        w = None if weights is None else np.asarray(weights, dtype=float)
        return cls(sizes, support, w, labels, names)

    # ------------------------------------------------------------------ basic properties
    @property
    def n(self) -> int:
        """Number of samples n (the uniformity of H_n)."""
        return len(self.sizes)

    @property
    def n_edges(self) -> int:
        """Number of hyperedges |supp| (columns of P)."""
        return int(self.support.shape[0])

    @property
    def n_vertices(self) -> int:
        """Number of vertices G = sum_i |X_i| (rows of P)."""
        return int(sum(self.sizes))

    @cached_property
    def offsets(self) -> np.ndarray:
        """Row offset of each sample's block in P."""
        return np.concatenate([[0], np.cumsum(self.sizes)[:-1]]).astype(np.int64)

    @cached_property
    def flat_index(self) -> np.ndarray:
        """Position of each support point in the C-ordered full grid (length prod(sizes))."""
        return np.ravel_multi_index(tuple(self.support.T), self.sizes).astype(np.int64)

    @cached_property
    def incidence(self) -> sp.csr_array:
        """Incidence matrix P, shape (G, |supp|), eq. (3): ``P[offset_i + a, j] = 1{x_i = a}`` for support point j."""
        E, n = self.support.shape
        rows = (self.support + self.offsets[None, :]).ravel()
        cols = np.repeat(np.arange(E), n)
        return sp.csr_array((np.ones(E * n, dtype=np.int64), (rows, cols)), shape=(self.n_vertices, E))

    @cached_property
    def _svd(self):
        return _svd_split(self.incidence.toarray())

    @property
    def rank(self) -> int:
        """rank(P) (numerical rank, singular values > 1e-10 s_1)."""
        return self._svd[2]

    @property
    def nullity(self) -> int:
        """nul(P) = |supp| - rank(P) = dim S (paper 004, Prop. 3: |Y| <= nul(P) + 1 suffices)."""
        return self.n_edges - self.rank

    def row_basis(self) -> np.ndarray:
        """The paper's matrix A: orthonormal rows spanning the row space of P (rank(P) x |supp|).

        A is not unique when singular values repeat (Example 2: sqrt 2 twice); only its row space matters.
        """
        return self._svd[0].copy()

    def null_basis(self, kind: str = "svd") -> np.ndarray:
        """A basis of Null(P), shape (|supp|, nul(P)).

        Parameters
        ----------
        kind : {"svd", "circuits"}
            ``"svd"``: orthonormal columns (right singular vectors past the rank).
            ``"circuits"``: fundamental circuits -- for every support point outside a column basis
            of P, the dependency expressing it in the basis (sparse; for n = 2 these are the
            alternating +-1 cycles of the bipartite support graph).

        Examples
        --------
        >>> from graphpriv import SampleHypergraph
        >>> import numpy as np
        >>> hg = SampleHypergraph.from_pmf(np.full((2, 2), 0.25))
        >>> hg.null_basis("circuits").ravel().tolist()
        [1.0, -1.0, -1.0, 1.0]
        """
        if kind == "svd":
            return self._svd[1].copy()
        if kind != "circuits":
            raise InputError(f"kind={kind!r} is not a null-basis kind; use 'svd' or 'circuits'")
        P = self.incidence.toarray().astype(float)
        basis = _column_basis(P)
        nonbasis = np.setdiff1d(np.arange(self.n_edges), basis)
        N = np.zeros((self.n_edges, nonbasis.size))
        if nonbasis.size:
            coef, *_ = np.linalg.lstsq(P[:, basis], P[:, nonbasis], rcond=None)
            N[basis, :] = -coef
            N[nonbasis, np.arange(nonbasis.size)] = 1.0
            # sign convention: first nonzero entry positive
            for k in range(N.shape[1]):
                first = N[np.flatnonzero(np.abs(N[:, k]) > 1e-12)[0], k]
                if first < 0:
                    N[:, k] = -N[:, k]
        return _clean(np.round(N, 12))

    def marginals(self) -> list[np.ndarray]:
        """Single-sample marginals p_{X_i} = block i of P p (weighted vertex degrees)."""
        w = self._require_weights("marginals")
        d = self.incidence @ w
        return [d[o:o + m] for o, m in zip(self.offsets, self.sizes)]

    def pmf(self) -> np.ndarray:
        """The joint pmf as an n-dimensional array of shape ``sizes`` (zeros off the support)."""
        w = self._require_weights("pmf")
        out = np.zeros(int(np.prod(self.sizes)))
        out[self.flat_index] = w
        return out.reshape(self.sizes)

    def _require_weights(self, what: str) -> np.ndarray:
        if self.weights is None:
            raise InputError(f"{what} needs a weighted hypergraph; build it with from_pmf or pass weights to from_support")
        return self.weights

    # ------------------------------------------------------------------ components
    def components(self) -> HypergraphComponents:
        """Connected components of H_n (of its Levi graph), via scipy in O(G + n |supp|).

        Examples
        --------
        >>> import numpy as np
        >>> from graphpriv import SampleHypergraph
        >>> p = np.zeros((3, 3)); p[0, 0] = p[1, 1] = p[1, 2] = p[2, 1] = 0.25
        >>> c = SampleHypergraph.from_pmf(p).components()
        >>> c.n_components, c.edge.tolist(), [a.tolist() for a in c.common_part()]
        (2, [0, 1, 1, 1], [[0, 1, 1], [0, 1, 1]])
        """
        return self._components

    @cached_property
    def _components(self) -> HypergraphComponents:
        G, E = self.n_vertices, self.n_edges
        P = self.incidence
        adj = sp.bmat([[None, P], [P.T, None]], format="csr")
        _, lab = connected_components(adj, directed=False)
        edge_lab = lab[G:]
        # renumber by first hyperedge
        _, first = np.unique(edge_lab, return_index=True)
        order = np.argsort(first)
        remap = {int(edge_lab[first[o]]): k for k, o in enumerate(order)}
        edge = np.array([remap[int(l)] for l in edge_lab], dtype=np.int64)
        deg = np.asarray(P.sum(axis=1)).ravel()
        vertex = np.array([remap.get(int(l), -1) if deg[v] > 0 else -1 for v, l in enumerate(lab[:G])], dtype=np.int64)
        k = len(remap)
        if self.weights is None:
            mass = np.full(k, np.nan)
        else:
            mass = np.bincount(edge, weights=self.weights, minlength=k)
        return HypergraphComponents(k, edge, vertex, mass, self.sizes)

    def restrict(self, edges) -> "SampleHypergraph":
        """Sub-hypergraph on the given support positions (weights renormalised), same alphabets."""
        idx = np.sort(np.asarray(edges, dtype=np.int64))
        if idx.size == 0:
            raise InputError("edges is empty; pass at least one support position")
        w = None if self.weights is None else self.weights[idx] / self.weights[idx].sum()
        return SampleHypergraph(self.sizes, self.support[idx], w, self.labels, self.names)

    # ------------------------------------------------------------------ exports
    def vertex_nodes(self) -> list[tuple[int, int]]:
        """Vertex keys ``(i, a)`` (sample index, value code) in row order of P."""
        return [(i, a) for i, m in enumerate(self.sizes) for a in range(m)]

    def levi_graph(self):
        """The bipartite (Levi) graph of H_n as a networkx Graph.

        Value nodes are ``("x", i, a)`` (attributes ``bipartite=0``, ``sample``, ``label``,
        ``weight`` = marginal when weighted); hyperedge nodes are ``("e", j)`` for support position j
        (``bipartite=1``, ``point`` = codes, ``weight`` = p(x^n)). Zero-marginal values are kept as
        isolated nodes.
        """
        import networkx as nx

        g = nx.Graph()
        marg = self.marginals() if self.weights is not None else None
        for i, m in enumerate(self.sizes):
            for a in range(m):
                attrs = dict(bipartite=0, sample=i, label=self.labels[i][a])
                if marg is not None:
                    attrs["weight"] = float(marg[i][a])
                g.add_node(("x", i, a), **attrs)
        for j, pt in enumerate(self.support):
            attrs = dict(bipartite=1, point=tuple(int(v) for v in pt))
            if self.weights is not None:
                attrs["weight"] = float(self.weights[j])
            g.add_node(("e", j), **attrs)
            g.add_edges_from((("x", i, int(a)), ("e", j)) for i, a in enumerate(pt))
        return g

    def to_networkx(self, kind: str = "levi"):
        """networkx export: ``"levi"`` (bipartite vertex/hyperedge graph), ``"support"`` (n = 2 only:
        the bipartite support graph X_1 -- X_2, one edge per support point) or ``"line"`` (support
        points adjacent when they share a sample value; same components as H_n)."""
        import networkx as nx

        if kind == "levi":
            return self.levi_graph()
        if kind == "support":
            if self.n != 2:
                raise InputError(f"kind='support' needs n = 2 samples, this hypergraph has n = {self.n}; use kind='levi'")
            g = nx.Graph()
            for i in range(2):
                for a in range(self.sizes[i]):
                    g.add_node(("x", i, a), bipartite=i, label=self.labels[i][a])
            for j, (a, b) in enumerate(self.support):
                w = {} if self.weights is None else {"weight": float(self.weights[j])}
                g.add_edge(("x", 0, int(a)), ("x", 1, int(b)), index=j, **w)
            return g
        if kind == "line":
            g = nx.Graph()
            g.add_nodes_from(range(self.n_edges))
            for i in range(self.n):
                col = self.support[:, i]
                for a in np.unique(col):
                    members = np.flatnonzero(col == a)
                    g.add_edges_from(itertools.combinations(members.tolist(), 2))
            return g
        raise InputError(f"kind={kind!r} is not a networkx export; use 'levi', 'support' or 'line'")

    def to_xgi(self):
        """Export to an ``xgi.Hypergraph`` (optional dependency ``xgi``).

        Nodes are ``(i, a)`` tuples (all values, including isolated ones); hyperedge ids are the
        support positions, with attribute ``weight`` = p(x^n) when weighted.
        """
        try:
            import xgi
        except ImportError as exc:  # pragma: no cover - depends on the environment
            raise ImportError("to_xgi needs the optional package 'xgi' (pip install xgi)") from exc
        h = xgi.Hypergraph()
        h.add_nodes_from(self.vertex_nodes())
        for j, pt in enumerate(self.support):
            h.add_edge([(i, int(a)) for i, a in enumerate(pt)], idx=j)
            if self.weights is not None:
                h.edges[j]["weight"] = float(self.weights[j])
        return h

    def to_hypernetx(self):
        """Export to a ``hypernetx.Hypergraph`` (optional dependency ``hypernetx``).

        Hyperedge ids are the support positions; values with zero marginal (isolated vertices) are
        not in a HyperNetX hypergraph. Never compute components through HyperNetX: its default drops
        singleton components; use :meth:`components`. (Checked with HyperNetX 2.4.3, which needs
        pandas < 3.)
        """
        try:
            import hypernetx as hnx
        except ImportError as exc:  # pragma: no cover - depends on the environment
            raise ImportError("to_hypernetx needs the optional package 'hypernetx' (pip install hypernetx)") from exc
        return hnx.Hypergraph({int(j): [(i, int(a)) for i, a in enumerate(pt)] for j, pt in enumerate(self.support)})

    def __repr__(self) -> str:
        return (f"SampleHypergraph(n={self.n}, sizes={self.sizes}, support={self.n_edges}, rank={self.rank}, "
                f"nullity={self.nullity}, components={self.components().n_components})")


def privacy_polytope_vertices(hypergraph: SampleHypergraph, *, method: str = "auto", max_support: int | None = MAX_POLYTOPE_SUPPORT,
                              max_bases: int | None = MAX_BASES, max_vertices: int | None = MAX_VERTICES, tol: float = 1e-9) -> np.ndarray:
    """Vertices of the polytope S = {t >= 0 : P t = P p} of private posteriors (paper 004, eq. (12), Algorithm 1).

    S is the set of pmfs on the support with the same single-sample marginals as p. Enumeration runs
    per connected component of H_n (S is the product of the scaled component polytopes),
    deduplicates degenerate vertices (several bases give one vertex) and re-solves each vertex on its
    support so all methods return the same numbers.

    Parameters
    ----------
    hypergraph : SampleHypergraph
        Weighted hypergraph (from :meth:`SampleHypergraph.from_pmf`).
    method : {"auto", "cdd", "bases"}
        ``"cdd"``: cddlib's double description (optional package ``pycddlib-standalone``,
        import name ``cdd``); ``"bases"``: the paper's Algorithm 1 -- every rank(P)-subset of columns
        with invertible A_B and A_B^{-1} A p >= 0 -- batched in numpy; ``"auto"``: cdd if importable.
    max_support : int or None
        Size limit: support points per component (default :data:`MAX_POLYTOPE_SUPPORT` = 32).
    max_bases : int or None
        Limit on the number of column subsets the basis method tries.
    max_vertices : int or None
        Limit on the number of vertices returned (product over components; default
        :data:`MAX_VERTICES` = 200,000).
    tol : float
        Feasibility / deduplication tolerance.

    Returns
    -------
    ndarray, shape (K, |supp|)
        One vertex per row (a pmf on the support, same column order as ``hypergraph.support``),
        sorted in decreasing lexicographic order.

    Raises
    ------
    TooLargeError
        A component has more than ``max_support`` points, the basis method would try more than
        ``max_bases`` subsets, or there are more than ``max_vertices`` vertices.
    InputError
        Unweighted hypergraph or unknown method.

    Notes
    -----
    The basis method costs C(|supp|, r) r^3 with r = rank P (binary full support, n = 4: 4368
    subsets, milliseconds; n = 5: 906,192 subsets, about 10 s). cddlib does n = 5 in well under a
    second. Vertex counts for the Table I model: 2, 9, 130, 6782 for n = 2..5.

    Examples
    --------
    Paper 004, Example 2 -- four vertices p_1..p_4:

    >>> from graphpriv import SampleHypergraph
    >>> import numpy as np
    >>> from graphpriv import privacy_polytope_vertices
    >>> hg = SampleHypergraph.from_pmf(np.array([[1, 3, 2], [2, 3, 1]]) / 12)
    >>> V = privacy_polytope_vertices(hg, method="bases")
    >>> (V * 4).round(6).tolist()
    [[1.0, 1.0, 0.0, 0.0, 1.0, 1.0], [1.0, 0.0, 1.0, 0.0, 2.0, 0.0], [0.0, 2.0, 0.0, 1.0, 0.0, 1.0], [0.0, 1.0, 1.0, 1.0, 1.0, 0.0]]
    """
    if not isinstance(hypergraph, SampleHypergraph):
        raise InputTypeError(f"hypergraph must be a SampleHypergraph, got {type(hypergraph).__name__}")
    p = hypergraph._require_weights("privacy_polytope_vertices")
    method = _resolve_method(method)
    return _enumerate(hypergraph.incidence.toarray().astype(float), p, method=method, max_support=max_support,
                      max_bases=max_bases, max_vertices=max_vertices, tol=tol)
