"""The contraction state: G_X quotiented by a partition Q of [[X]], updated merge by merge.

Ding & Farokhi, *Developing Non-Stochastic Privacy-Preserving Policies Using Agglomerative Clustering*,
Sections V-A and V-B: a quantisation X̂ of the public data X is a partition Q of [[X]]; releasing X̂
contracts every cluster of the confusability graph G_X into one node. Every merge mechanism of the
paper (Algorithms 1 and 2, Section V-C) and every search over quantisations is a sequence of merges of
two clusters; :class:`Contraction` is the one object that carries Q, its S-sets, sizes and value
aggregates, and the component partition P(Q) through such a sequence, and records it as a
:class:`~graphpriv.MergeTrace`.
"""

from __future__ import annotations

import heapq
import math
from contextlib import contextmanager
from typing import Any

import numpy as np

from ...errors import InputError, InputTypeError, UnknownLabelError
from ..trace import MergeTrace, _UnionFind
from ..utilities import _BoundU2
from .problem import _Problem, _Traj
from .progress import report_step

__all__ = ["Contraction"]

_PRIVACY = {"L0": "L0", "I*": "I*", "I_star": "I*", "Istar": "I*"}


class _Aggregates:
    """Per-cluster value aggregates for distortion utilities (U2 and user codewords/distances).

    Scalar values with centroid codewords and the ``"abs"``/``"squared"`` distances keep
    (count, sum, min, max) per cluster, so d̄ of any union of two clusters is O(1) and vectorises over
    arrays of pairs; other settings keep the member codes and evaluate d̄ on them.
    """

    def __init__(self, prob: _Problem):
        ub = prob.ub
        self.ub = ub
        self.n = prob.n
        self.fast = bool(getattr(ub, "fast", False))
        self.squared = bool(getattr(ub, "squared", False))
        if self.fast:
            V = ub.V.astype(float)
            self.cnt = np.ones(self.n)
            self.sm = V.copy()
            self.mn = V.copy()
            self.mx = V.copy()
        self.members = {} if self.fast else {i: [i] for i in range(self.n)}   # member codes (other settings)
        self.dbar = np.zeros(self.n) if self.fast else np.array([ub.cluster_cost([i]) for i in range(self.n)])

    def pair_costs(self, I, J=None) -> np.ndarray:
        """d̄(𝒳_I[k] ⊔ 𝒳_J[k]) for arrays of cluster indices (broadcasting: I (m, 1) and J (1, n) give
        (m, n)); ``J=None`` pairs I with every slot (entries of inactive slots are meaningless)."""
        if self.fast:
            if J is None:
                sm, cnt, mn, mx = self.sm, self.cnt, self.mn, self.mx
            else:
                sm, cnt, mn, mx = self.sm[J], self.cnt[J], self.mn[J], self.mx[J]
            c = (self.sm[I] + sm) / (self.cnt[I] + cnt)
            d = np.maximum(c - np.minimum(self.mn[I], mn), np.maximum(self.mx[I], mx) - c)
            return d * d if self.squared else d
        if J is None:
            J = np.arange(self.n)
        I, J = np.broadcast_arrays(np.asarray(I), np.asarray(J))
        out = np.empty(I.shape)
        for k, (i, j) in enumerate(zip(I.ravel().tolist(), J.ravel().tolist())):
            out.flat[k] = self.ub.cluster_cost(self.members[i] + self.members[j]) if i != j and j in self.members else np.inf
        return out

    def rows(self, idx: np.ndarray, ok: np.ndarray | None = None) -> np.ndarray:
        """Cost matrix (len(idx), n) of cluster idx[r] against every slot (entries outside ``ok`` may be inf)."""
        if self.fast:
            return self.pair_costs(np.asarray(idx)[:, None])
        out = np.full((len(idx), self.n), np.inf)
        for r, i in enumerate(np.asarray(idx).tolist()):
            mi = self.members[i]
            cols = range(self.n) if ok is None else np.flatnonzero(ok[r]).tolist()
            for j in cols:
                if j in self.members and j != i:
                    out[r, j] = self.ub.cluster_cost(mi + self.members[j])
        return out

    def merge(self, r: int, o: int) -> float:
        if self.fast:
            self.cnt[r] += self.cnt[o]
            self.sm[r] += self.sm[o]
            self.mn[r] = min(self.mn[r], self.mn[o])
            self.mx[r] = max(self.mx[r], self.mx[o])
            c = self.sm[r] / self.cnt[r]
            d = max(c - self.mn[r], self.mx[r] - c)
            d = d * d if self.squared else d
        else:
            self.members[r] = self.members[r] + self.members.pop(o)
            d = self.ub.cluster_cost(self.members[r])
        self.dbar[r] = d
        return d


class _SSets:
    """The S-sets [[S|𝒳]] of the clusters, compactly: a cluster that never merged reads its public
    value's sensitive codes from the range's CSC arrays; a merged cluster keeps a sorted tuple of codes
    (a set once it holds more than :attr:`SMALL`, so that growing it by a small cluster costs the small
    one; a set of at most two codes is kept as its integer key, :meth:`key`). No per-value Python
    object, so 10^6 public values cost the two arrays the problem already has.
    """

    SMALL = 8

    def __init__(self, ptr: np.ndarray, idx: np.ndarray, n_s: int):
        self.ptr, self.idx, self.radix = ptr, idx, n_s + 1
        self.merged: dict[int, Any] = {}

    def __getitem__(self, i: int):
        """The S-set of cluster ``i`` (a tuple, sorted, or a set)."""
        s = self.merged.get(i)
        if s is None:
            return tuple(self.idx[self.ptr[i]:self.ptr[i + 1]].tolist())
        if type(s) is int:                      # at most two codes, stored as their key
            a, b = divmod(s, self.radix)
            return (a - 1,) if not b else (a - 1, b - 1)
        return s

    def merge(self, r: int, o: int) -> int:
        """Cluster ``o`` joins ``r``: r's S-set becomes the union; return its size."""
        a, b = self[r], self[o]
        self.merged.pop(o, None)
        if type(a) is tuple and type(b) is tuple and len(a) + len(b) <= self.SMALL:
            if len(a) == 1 and len(b) == 1:
                u = a if a[0] == b[0] else ((a[0], b[0]) if a[0] < b[0] else (b[0], a[0]))
            else:
                u = tuple(sorted(set(a).union(b)))
            if len(u) <= 2:                     # kept as its key (one int object, shared with the key's users)
                self.merged[r] = (u[0] + 1) * self.radix + (u[1] + 1 if len(u) == 2 else 0)
                return len(u)
        else:
            if type(b) is set and (type(a) is not set or len(b) > len(a)):
                a, b = b, a
            u = a if type(a) is set else set(a)
            u.update(b)
        self.merged[r] = u
        return len(u)

    def key(self, i: int):
        """A hashable key equal for equal S-sets: an int for at most two codes, else the sorted tuple."""
        s = self.merged.get(i)
        if type(s) is int:
            return s
        s = self[i]
        n = len(s)
        if n <= 2:
            s = sorted(s) if type(s) is set else s
            return (s[0] + 1) * self.radix + (s[1] + 1 if n == 2 else 0)
        return tuple(sorted(s)) if type(s) is set else s     # a tuple: a fifth of a frozenset's memory

    def row_keys(self) -> tuple[np.ndarray, list]:
        """Keys (:meth:`key`) of the never-merged values: an int64 array (-1 where a value has more
        than two codes) and the keys of those longer rows as (value, key) pairs."""
        deg = np.diff(self.ptr)
        keys = np.full(len(deg), -1, dtype=np.int64)
        one = deg == 1
        keys[one] = (self.idx[self.ptr[:-1][one]].astype(np.int64) + 1) * self.radix
        two = deg == 2
        keys[two] = (self.idx[self.ptr[:-1][two]].astype(np.int64) + 1) * self.radix + self.idx[self.ptr[:-1][two] + 1] + 1
        return keys, [(i, self.key(i)) for i in np.flatnonzero(deg > 2).tolist()]

    def copy(self) -> "_SSets":
        new = _SSets.__new__(_SSets)
        new.ptr, new.idx, new.radix = self.ptr, self.idx, self.radix
        new.merged = {k: set(v) if type(v) is set else v for k, v in self.merged.items()}
        return new


class Contraction:
    """The quotient of G_X under a partition Q of [[X]], updated incrementally merge by merge.

    Ding & Farokhi, *Developing Non-Stochastic Privacy-Preserving Policies Using Agglomerative
    Clustering*, Sections V-A and V-B. A quantisation X̂ of X is a partition Q of the public values;
    the released graph G_X̂ has one node per cluster 𝒳 ∈ Q with sensitive set [[S|𝒳]] = ∪_{x ∈ 𝒳} [[S|x]],
    and its components form the partition P(Q) of [[X]]. The state starts at Q(0) = {{x} : x ∈ [[X]]}
    and :meth:`merge` contracts two clusters, updating the clusters (a union-find whose roots are the
    cluster indices), sizes |𝒳|, S-set sizes |[[S|𝒳]]|, value aggregates (for U2 codewords and
    distortions) and P(Q) in (amortised) constant time per merge. Privacy, utility, the candidate
    sets Φ(Q) (Section V-A) and Ψ(Q, P) (eq. (6)) and the merge history as a
    :class:`~graphpriv.MergeTrace` are read off it.

    Parameters
    ----------
    jr : JointRange
        The joint range [[S, X]].
    utility : "U1", "U2" or a Utility object, default "U1"
        As in :func:`graphpriv.agglomerate`: U1 = I0(X → X̂), U2 = -max distortion, or
        ``gp.U2(values, codeword=..., distance=...)`` (medoid or callable codewords and distances).
    values : mapping public label -> number (or vector), or "labels", optional
        Public values for U2.
    base : float, default 2
        Logarithm base of privacy and U1 (bits).

    Attributes
    ----------
    labels : list
        Public labels in code order; a label's *code* is its position, a cluster's *id* (index) is
        its smallest member code (the paper-003 tie-rule convention).
    n_clusters : int
        |Q|.
    n_components : int
        |P(Q)|, the number of components of G_X̂; I*(S; X̂) = log |P(Q)|.
    history : list of tuple
        Merged pairs (cluster ids before the merge) per recorded step; ``history[0]`` is ``()``.

    Examples
    --------
    Paper 003's Fig. 1 range: G_X has 5 components (I* = log2 5 bits); merging {x1} and {x3} joins two
    of them (Example 3, Fig. 4(a)).

    >>> import graphpriv as gp
    >>> jr, values = gp.datasets.paper_example()
    >>> c = gp.Contraction(jr)
    >>> c.merge("x1", "x3")
    0
    >>> c.n_components, c.privacy("I*"), round(c.utility(), 4)      # U1 = log2 7 - log2 2
    (4, 2.0, 1.8074)
    >>> [sorted(q) for q in c.quantization][:2]
    [['x1', 'x3'], ['x2']]
    >>> len(c.psi()), len(c.phi())            # Ψ(Q(1), P(1)) of eq. (9): 15 pairs minus 3
    (12, 15)
    >>> c.trace("I*").step_n_components
    (5, 4)

    Notes
    -----
    A merge costs O(1) amortised for sizes, S-set sizes across components, P(Q) and U1; O(1) for U2
    with scalar values, centroid codewords and the "abs"/"squared" distances (count, sum, min, max per
    cluster), else O(|𝒳|) to re-evaluate the merged cluster's distortion. The S-sets themselves are
    only kept once a merge inside one component (or :meth:`sensitive_set`, or Φ) needs them.
    Candidate sets are enumerated in O(|Q|^2); mechanisms use the vectorised helpers
    (:meth:`pair_costs`, :meth:`component_array`) and their own indexes on top of this state.
    """

    def __init__(self, jr, utility: Any = "U1", values: Any = None, *, base: float = 2):
        self._init(_Problem(jr, "L0", utility, values, base))

    @classmethod
    def _from_problem(cls, prob: _Problem) -> "Contraction":
        obj = cls.__new__(cls)
        obj._init(prob)
        return obj

    def _init(self, prob: _Problem) -> None:
        n = prob.n
        self.problem = prob
        self.labels = prob.labels
        self._index = prob.jr._x_index
        self._uf = _UnionFind(n)
        self.active = np.ones(n, dtype=bool)
        self.size = np.ones(n, dtype=np.int64)
        self.ssz = prob.s_deg.copy()
        self.n_clusters = n
        self.comp0 = prob.comp0
        self._comp0_list = prob.comp0.tolist()
        self._cuf = _UnionFind(prob.n_comp0)
        self.csize = np.bincount(prob.comp0, minlength=prob.n_comp0).astype(np.int64).tolist()
        self.n_components = prob.n_comp0
        self.max_size = 1 if n else 0
        # clusters per S-set size: a merged S-set is at least as large as both parts, so the smallest
        # size present only grows and a pointer finds it (no heap of |X| entries)
        self._ssz_count = np.bincount(self.ssz, minlength=2) if n else np.zeros(2, dtype=np.int64)
        self._smin_at = 0
        self.is_distortion = isinstance(prob.ub, _BoundU2) or not hasattr(prob.ub, "value_from_max_size")
        self.agg = _Aggregates(prob) if self.is_distortion else None
        self._dver = np.zeros(n, dtype=np.int64)
        self._dheap = [(-float(d), i, 0) for i, d in enumerate(self.agg.dbar.tolist())] if self.is_distortion else []
        heapq.heapify(self._dheap)
        self._ssets: _SSets | None = None
        self._comp: np.ndarray | None = None
        self.history: list[tuple] = [()]
        self._rec = [(self.min_s_size(), self.n_components, self.utility(), n)] if n else []
        self._open: list | None = None

    # ------------------------------------------------------------------ identification
    def cluster(self, a: Any) -> int:
        """Cluster id (smallest member code) of a public label or of a cluster id / code (int)."""
        if isinstance(a, (int, np.integer)) and not isinstance(a, (bool, np.bool_)) and a not in self._index:
            a = int(a)
            if not 0 <= a < self.problem.n:
                raise InputError(f"cluster id {a} is outside 0..{self.problem.n - 1}")
            return self._uf.find(a)
        try:
            code = self._index[a]
        except (KeyError, TypeError):
            raise UnknownLabelError(f"{a!r} is neither a public label of the joint range nor a cluster id") from None
        return self._uf.find(code)

    def find(self, code: int) -> int:
        """Cluster id of the public value with this code."""
        return self._uf.find(code)

    def clusters(self) -> np.ndarray:
        """Ids of the clusters of Q, increasing (= the paper's index order)."""
        return np.flatnonzero(self.active)

    def cluster_ids(self) -> np.ndarray:
        """Cluster id of every public code."""
        find = self._uf.find
        return np.array([find(i) for i in range(self.problem.n)], dtype=np.int64)

    def members(self, a: Any) -> list:
        """Public labels of the cluster of ``a``, in code order."""
        r = self.cluster(a)
        find = self._uf.find
        return [self.labels[i] for i in range(r, self.problem.n) if find(i) == r]

    @property
    def quantization(self) -> list[set]:
        """Q as a list of sets of public labels, ordered by cluster index."""
        groups: dict[int, set] = {}
        find = self._uf.find
        for i, x in enumerate(self.labels):
            groups.setdefault(find(i), set()).add(x)
        return [groups[r] for r in sorted(groups)]

    def component(self, a: Any) -> int:
        """Component of G_X̂ holding the cluster of ``a`` (an id of P(Q), stable until that component merges)."""
        return self._cuf.find(self._comp0_list[self.cluster(a)])

    def component_array(self) -> np.ndarray:
        """Component label of every cluster slot (vectorised Ψ tests: ``comp[i] != comp[j]``).

        Labels are only compared with each other (a label is not a component id of :meth:`component`).
        The array is kept up to date by later merges: a joining merge relabels the slots of the
        component with fewer original values, O(|X| log |X|) in all."""
        if self._comp is None:
            find = self._cuf.find
            roots = np.array([find(c) for c in range(self.problem.n_comp0)], dtype=np.int64)
            self._comp = roots[self.comp0]
            order = np.argsort(self._comp, kind="stable")
            labels, starts = np.unique(self._comp[order], return_index=True)
            self._comp_slots = {int(k): [part] for k, part in zip(labels.tolist(), np.split(order, starts[1:]))}
            self._comp_label = {int(k): int(k) for k in labels.tolist()}   # union-find root -> label
        return self._comp

    @property
    def partition(self) -> list[set]:
        """P(Q): the components of G_X̂ as sets of original public labels."""
        groups: dict[int, set] = {}
        find = self._cuf.find
        for x, c in zip(self.labels, self._comp0_list):
            groups.setdefault(find(c), set()).add(x)
        return sorted(groups.values(), key=lambda g: min(self._index[x] for x in g))

    # ------------------------------------------------------------------ S-sets
    def _track_ssets(self) -> _SSets:
        if self._ssets is None:
            p = self.problem
            ss = _SSets(p.s_ptr, p.s_idx, p.n_s)
            find = self._uf.find
            for i in np.flatnonzero(self.active & (self.size > 1)).tolist():
                ss.merged[i] = set()            # a cluster merged before the S-sets were kept
            if ss.merged:
                for i in range(p.n):
                    r = find(i)
                    if r in ss.merged:
                        ss.merged[r].update(p.s_idx[p.s_ptr[i]:p.s_ptr[i + 1]].tolist())
                for r, s in ss.merged.items():
                    if len(s) <= ss.SMALL:
                        ss.merged[r] = tuple(sorted(s))
            self._ssets = ss
        return self._ssets

    def sensitive_set(self, a: Any) -> frozenset:
        """[[S|𝒳]] of the cluster of ``a`` as sensitive codes (positions in ``jr.sensitive_labels``)."""
        return frozenset(self._track_ssets()[self.cluster(a)])

    def min_s_size(self) -> int:
        """min_𝒳 |[[S|𝒳]]| (the L0 term)."""
        cnt, k = self._ssz_count, self._smin_at
        while not cnt[k]:
            k += 1
        self._smin_at = k
        return k

    # ------------------------------------------------------------------ measures
    def privacy(self, measure: str = "L0") -> float:
        """L0(S → X̂) = log|S| - min_𝒳 log|[[S|𝒳]]| (``"L0"``) or I*(S; X̂) = log|P(Q)| (``"I*"``), in the base's unit."""
        m = _PRIVACY.get(measure) if isinstance(measure, str) else None
        if m is None:
            raise InputError(f"privacy measure {measure!r} is not known; use 'L0' or 'I*'")
        return self.problem.l0(self.min_s_size()) if m == "L0" else self.problem.istar(self.n_components)

    def max_distortion(self) -> float:
        """max_𝒳 d̄(𝒳) (distortion utilities only)."""
        h, act, ver = self._dheap, self.active, self._dver
        while True:
            negd, i, v = h[0]
            if act[i] and v == ver[i]:
                return -negd
            heapq.heappop(h)

    def utility(self) -> float:
        """U(X; X̂) of the current Q: U1 = log|X| - log max|𝒳|, U2 = -max_𝒳 d̄(𝒳)."""
        if self.is_distortion:
            return 0.0 - self.max_distortion()
        return self.problem.ub.value_from_max_size(self.max_size)

    def utility_of_one_cluster(self) -> float:
        """U of the one-cluster quantisation (Û2 for U2: the utility-loss normalisation of Fig. 9; 0 for U1)."""
        return self.problem.ub.partition_value([np.arange(self.problem.n)])

    def distortion(self, a: Any) -> float:
        """d̄ of the cluster of ``a`` (distortion utilities only)."""
        self._need_values()
        return float(self.agg.dbar[self.cluster(a)])

    def merged_distortion(self, a: Any, b: Any) -> float:
        """d̄(𝒳_a ⊔ 𝒳_b) without merging (distortion utilities only)."""
        self._need_values()
        return float(self.agg.pair_costs(np.array([self.cluster(a)]), np.array([self.cluster(b)]))[0])

    def pair_costs(self, I, J) -> np.ndarray:
        """d̄(𝒳_I ⊔ 𝒳_J) for arrays of cluster ids (vectorised for scalar centroid values)."""
        self._need_values()
        return self.agg.pair_costs(np.asarray(I, dtype=np.int64), np.asarray(J, dtype=np.int64))

    def codeword(self, a: Any):
        """Released value x̂ of the cluster of ``a`` (U2; None for U1)."""
        if not self.is_distortion:
            return None
        r = self.cluster(a)
        codes = [i for i in range(r, self.problem.n) if self._uf.find(i) == r]
        return self.problem.ub.codeword(codes)

    def _need_values(self):
        if not self.is_distortion:
            raise InputError("distortions need a distortion utility: build the Contraction with utility='U2' and values=")

    # ------------------------------------------------------------------ candidate sets
    def psi(self) -> list[tuple[int, int]]:
        """Ψ(Q, P) of eq. (6): pairs (a, b), a < b, of clusters in different components of G_X̂."""
        ids = self.clusters().tolist()
        comp = self.component_array()
        return [(a, b) for k, a in enumerate(ids) for b in ids[k + 1:] if comp[a] != comp[b]]

    def phi(self) -> list[tuple[int, int]]:
        """Φ(Q) of Section V-A: pairs (a, b), a < b, of clusters with different S-sets [[S|𝒳]]."""
        ss = self._track_ssets()
        ids = self.clusters().tolist()
        key = {i: ss.key(i) for i in ids}
        return [(a, b) for k, a in enumerate(ids) for b in ids[k + 1:] if key[a] != key[b]]

    # ------------------------------------------------------------------ merging
    def merge(self, a: Any, b: Any) -> int:
        """Merge the clusters of ``a`` and ``b`` (public labels or cluster ids); return the new cluster id.

        Outside a :meth:`step` block every merge is recorded as one step of the history.

        Raises
        ------
        InputError
            If both name the same cluster.
        """
        ra, rb = self.cluster(a), self.cluster(b)
        if ra == rb:
            raise InputError(f"{a!r} and {b!r} are already in one cluster (id {ra})")
        r = self._merge(ra, rb)
        if self._open is not None:
            self._open.append((ra, rb))
        else:
            self._record(((ra, rb),))
        return r

    @contextmanager
    def step(self):
        """Group the merges made inside the block into one recorded step (as Algorithm 1's sweeps)."""
        if self._open is not None:
            raise InputError("Contraction.step() blocks cannot be nested")
        self._open = []
        try:
            yield self
        finally:
            pairs, self._open = self._open, None
            if pairs:
                self._record(tuple(pairs))

    def _merge(self, a: int, b: int) -> int:
        """Contract the clusters with ids a != b (both roots); the smaller id survives."""
        r, o = (a, b) if a < b else (b, a)
        cfind = self._cuf.find
        ca, cb = cfind(self._comp0_list[r]), cfind(self._comp0_list[o])
        if self._ssets is None and ca == cb:  # one component: the S-sets may overlap, keep them from now on
            self._track_ssets()
        self._uf.parent[o] = r
        self.active[o] = False
        self.n_clusters -= 1
        s = int(self.size[r] + self.size[o])
        self.size[r] = s
        if s > self.max_size:
            self.max_size = s
        cnt = self._ssz_count
        cnt[self.ssz[r]] -= 1
        cnt[self.ssz[o]] -= 1
        if self._ssets is not None:
            self.ssz[r] = self._ssets.merge(r, o)
        else:  # different components: disjoint S-sets
            self.ssz[r] += self.ssz[o]
        if self.ssz[r] >= len(cnt):
            self._ssz_count = cnt = np.concatenate([cnt, np.zeros(max(len(cnt), int(self.ssz[r]) + 1 - len(cnt)), dtype=cnt.dtype)])
        cnt[self.ssz[r]] += 1
        if ca != cb:
            size_a, size_b = self.csize[ca], self.csize[cb]
            root = self._cuf.union(ca, cb)
            self.csize[root] = size_a + size_b
            self.n_components -= 1
            if self._comp is not None:
                self._relabel(ca, cb, root, size_a >= size_b)
        if self.agg is not None:
            d = self.agg.merge(r, o)
            self._dver[r] += 1
            heapq.heappush(self._dheap, (-float(d), r, int(self._dver[r])))
        return r

    def _relabel(self, ca: int, cb: int, root: int, a_larger: bool) -> None:
        """Components ca and cb joined under union-find root ``root``: the slots of the smaller one take
        the larger one's label."""
        la, lb = self._comp_label.pop(ca), self._comp_label.pop(cb)
        big, small = (la, lb) if a_larger else (lb, la)
        moved = self._comp_slots.pop(small)
        self._comp[np.concatenate(moved) if len(moved) > 1 else moved[0]] = big
        self._comp_slots[big].extend(moved)
        self._comp_label[root] = big

    def _record(self, pairs: tuple) -> tuple[float, float]:
        """Close a step made of ``pairs``; return its (L0, utility)."""
        self.history.append(tuple(pairs))
        rec = (self.min_s_size(), self.n_components, self.utility(), self.n_clusters)
        self._rec.append(rec)
        report_step(rec[3], rec[1])
        return rec

    def _trajectory(self, measure: str):
        """The recorded steps as a :class:`~graphpriv.mechanisms.quantization.problem._Traj` (privacy = measure)."""
        p = self.problem
        traj = _Traj.__new__(_Traj)
        traj.merges = list(self.history)
        traj.priv = [p.l0(s) if measure == "L0" else p.istar(c) for s, c, _, _ in self._rec]
        traj.util = [u for _, _, u, _ in self._rec]
        traj.ncl = [k for _, _, _, k in self._rec]
        traj.ncomp = [c for _, c, _, _ in self._rec]
        return traj

    # ------------------------------------------------------------------ history
    def trace(self, privacy: str = "L0", lam: float = 0.0, *, name: str | None = None) -> MergeTrace:
        """The recorded merges as a :class:`~graphpriv.MergeTrace` (every step accepted, the last returned).

        Parameters
        ----------
        privacy : {"L0", "I*"}
            Privacy measure recorded per step.
        lam : float, default 0
            λ of the recorded Lagrangian L = privacy - λ·utility.
        name : str, optional
            Objective name stored in the trace (default: the privacy measure).
        """
        m = _PRIVACY.get(privacy) if isinstance(privacy, str) else None
        if m is None:
            raise InputError(f"privacy measure {privacy!r} is not known; use 'L0' or 'I*'")
        if isinstance(lam, (bool, np.bool_)) or not isinstance(lam, (int, float, np.integer, np.floating)) or not math.isfinite(lam):
            raise InputTypeError(f"lam must be a finite number, got {lam!r}")
        p = self.problem
        priv = [p.l0(s) if m == "L0" else p.istar(c) for s, c, _, _ in self._rec]
        util = [u for _, _, u, _ in self._rec]
        L = [a - lam * u for a, u in zip(priv, util)]
        dL = [float("nan")] + [L[t] - L[t - 1] for t in range(1, len(L))]
        info = {"mechanism": "Contraction"}
        spec = getattr(p.utility_obj, "spec", None)
        if spec is not None:
            info["utility_spec"] = spec
        return MergeTrace(
            objective=name or m, utility=p.utility_name, lam=float(lam), public_labels=tuple(self.labels),
            components0=tuple(self._comp0_list), step_merges=tuple(self.history), step_privacy=tuple(priv),
            step_utility=tuple(util), step_L=tuple(L), step_delta_L=tuple(dL),
            step_n_clusters=tuple(r[3] for r in self._rec), step_n_components=tuple(r[1] for r in self._rec),
            step_accepted=(True,) * len(L), returned=len(L) - 1, base=p.base, info=info)

    def copy(self) -> "Contraction":
        """An independent copy of the state and its history (the joint range and utility are shared)."""
        new = Contraction.__new__(Contraction)
        new.__dict__.update(self.__dict__)
        for name in ("active", "size", "ssz", "_dver"):
            setattr(new, name, getattr(self, name).copy())
        new._uf, new._cuf = _UnionFind(0), _UnionFind(0)
        new._uf.parent, new._cuf.parent = list(self._uf.parent), list(self._cuf.parent)
        new.csize, new._ssz_count, new._dheap = list(self.csize), self._ssz_count.copy(), list(self._dheap)
        new._ssets = None if self._ssets is None else self._ssets.copy()
        new._comp = None if self._comp is None else self._comp.copy()
        if self._comp is not None:
            new._comp_slots = {k: list(v) for k, v in self._comp_slots.items()}   # slot arrays are never changed
            new._comp_label = dict(self._comp_label)
        new.history, new._rec = list(self.history), list(self._rec)
        new._open = None if self._open is None else list(self._open)
        if self.agg is not None:
            agg = _Aggregates.__new__(_Aggregates)
            agg.__dict__.update(self.agg.__dict__)
            for name in ("cnt", "sm", "mn", "mx", "dbar"):
                if hasattr(self.agg, name):
                    setattr(agg, name, getattr(self.agg, name).copy())
            agg.members = {k: list(v) for k, v in self.agg.members.items()}
            new.agg = agg
        return new

    def __repr__(self) -> str:
        return (f"Contraction(|X|={self.problem.n}, |Q|={self.n_clusters}, |P|={self.n_components}, "
                f"utility={self.problem.utility_name!r}, steps={len(self.history) - 1})")
