"""The principal sequence of partitions (PSP) of G_X or of the support graph: every optimal attack at
once.

:func:`~graphpriv.network_strength` and :func:`~graphpriv.attack_partition` answer one question each:
the cheapest price per extra piece, or the best attack at one price. For a price lambda >= 0 per extra
piece, an attack that splits the graph into the partition P pays ``w(delta(P)) - lambda (|P| - 1)``
(the cut edges minus the reward for the pieces), and the best attack is worth

    f(lambda) = min over partitions P of V of  w(delta(P)) - lambda (|P| - 1).

f is concave and piecewise linear. Its breakpoints ``lambda_1 < ... < lambda_k`` are the *critical
values*, and the optimal partitions form one chain ``{V} = P_0 > P_1 > ... > P_k = singletons``, each
coarser than the next: P_i is the only optimal partition for lambda strictly between lambda_i and
lambda_(i+1), and at lambda_i both P_(i-1) (the coarsest optimum) and P_i (the finest) are optimal
(Narayanan 1991, "The principal lattice of partitions of a submodular function", Linear Algebra Appl.
158; Fujishige 2009, "Theory of principal partitions revisited"). lambda_1 is Cunningham's strength
(1985, "Optimal attack and reinforcement of a network", J. ACM 32(3)); in the clustering and
communication-for-omniscience work of Ding, Sadeghi and Rakotoarivelo the blocks of the chain are the
clusters at each level.

:func:`principal_partitions` computes the whole chain exactly (rational critical values) with
O(|V|) minimum s--t cuts in practice. :class:`PrincipalSequence` holds it and reads it as a hierarchy
(:meth:`PrincipalSequence.to_linkage`); :func:`graphpriv.viz.plot_principal_partitions` draws it.
"""

from __future__ import annotations

import functools
from dataclasses import dataclass, field
from fractions import Fraction

import networkx as nx
import numpy as np
import scipy.sparse as sp

from ..errors import InputError, TooLargeError
from ..ranges import JointRange
from .strength import BRUTE_FORCE_NODES, _brute_partitions, _components_of, _cut_weight, _graph_arrays, _parts_from_membership, _renumber

__all__ = ["PrincipalSequence", "PartitionLevel", "principal_partitions", "PRINCIPAL_BACKENDS"]

#: Minimum-cut engines of :func:`principal_partitions`.
PRINCIPAL_BACKENDS = ("numba", "igraph", "networkx")


# ---------------------------------------------------------------------------------------------- result
@dataclass(frozen=True)
class PartitionLevel:
    """One level of the principal sequence: a critical value and the finest optimal partition there.

    Attributes
    ----------
    critical_value : fractions.Fraction
        lambda_i, exact.
    partition : tuple of frozenset
        P_i, the finest partition minimising ``w(delta(P)) - lambda_i (|P| - 1)`` (parts ordered by their
        first node); the only optimal partition for lambda in (lambda_i, lambda_(i+1)).
    cut_weight : int
        w(delta(P_i)): weight of the edges between different parts.
    """

    critical_value: Fraction
    partition: tuple = field(repr=False)
    cut_weight: int = 0

    @property
    def n_blocks(self) -> int:
        return len(self.partition)

    def __repr__(self) -> str:
        return f"PartitionLevel(critical_value={_fmt(self.critical_value)}, n_blocks={self.n_blocks}, cut_weight={self.cut_weight})"


@dataclass(frozen=True, eq=False)
class PrincipalSequence:
    """The principal sequence of partitions of a graph: critical values and the nested optimal partitions.

    Level 0 is the partition {V}; level i (1 <= i <= k) is the finest optimal partition P_i at the
    critical value lambda_i; level k is the partition into single nodes (when |V| >= 2). For a price
    lambda per extra piece the optimal attack is

    * P_0 = {V} for lambda < lambda_1;
    * P_i for lambda_i < lambda < lambda_(i+1), the only optimum there;
    * at lambda = lambda_i both P_(i-1) (coarsest optimum) and P_i (finest optimum), and every optimum
      lies between them;
    * P_k (single nodes) for lambda > lambda_k.

    A disconnected graph has lambda_1 = 0 with P_1 its components: f separates over the components, and
    the later critical values are those of the components' own sequences, merged.

    Attributes
    ----------
    critical_values : tuple of fractions.Fraction
        lambda_1 < ... < lambda_k, exact (integer weights).
    memberships : numpy.ndarray of int, shape (k + 1, |V|)
        Row i: block of every node in P_i, blocks numbered by their first node.
    cut_weights : tuple of int
        w(delta(P_i)) for i = 0..k.
    labels : tuple
        Node labels: public labels (G_X) or ``("S", s)`` / ``("X", x)`` tuples (support graph).
    graph : str
        ``"confusability"`` or ``"support"``.
    weighted : bool
        G_X edges weighted by the number of shared sensitive values.

    Examples
    --------
    >>> import graphpriv as gp
    >>> jr = gp.JointRange.from_pairs(["a", "a", "b", "b", "c", "c"], [1, 2, 2, 3, 3, 1])
    >>> seq = gp.principal_partitions(jr)       # G_X is a triangle: it breaks all at once at 3/2
    >>> seq
    PrincipalSequence(G_X: 3 nodes, 1 critical value: 3/2; blocks 1 -> 3)
    >>> seq.partition_at(1), seq.partition_at(2)
    ((frozenset({1, 2, 3}),), (frozenset({1}), frozenset({2}), frozenset({3})))
    """

    critical_values: tuple
    memberships: np.ndarray = field(repr=False)
    cut_weights: tuple = field(repr=False)
    labels: tuple = field(repr=False)
    graph: str = "confusability"
    weighted: bool = False

    def __eq__(self, other) -> bool:
        if not isinstance(other, PrincipalSequence):
            return NotImplemented
        return (self.critical_values == other.critical_values and self.cut_weights == other.cut_weights
                and self.labels == other.labels and self.graph == other.graph and self.weighted == other.weighted
                and np.array_equal(self.memberships, other.memberships))

    def __hash__(self) -> int:
        return hash((self.critical_values, self.cut_weights, self.graph, self.weighted, len(self.labels)))

    # ------------------------------------------------------------------ views
    def __len__(self) -> int:
        return len(self.critical_values)

    @property
    def n_nodes(self) -> int:
        return len(self.labels)

    @property
    def values(self) -> np.ndarray:
        """The critical values as floats."""
        return np.array([float(v) for v in self.critical_values], dtype=float)

    @property
    def n_blocks(self) -> tuple:
        """|P_i| for i = 0..k (1 first, |V| last)."""
        return tuple(int(r.max()) + 1 if r.size else 0 for r in self.memberships)

    @property
    def strength(self) -> Fraction:
        """lambda_1: the network strength (Cunningham 1985), 0 for a disconnected graph."""
        if not self.critical_values:
            raise InputError("a graph of one node has no critical value (no partition into two or more parts)")
        return self.critical_values[0]

    @functools.cached_property
    def partitions(self) -> tuple:
        """P_0, ..., P_k as tuples of frozensets of node labels (parts ordered by their first node)."""
        return tuple(_parts_from_membership(r, list(self.labels)) for r in self.memberships)

    @property
    def levels(self) -> tuple:
        """One :class:`PartitionLevel` per critical value: (lambda_i, P_i, w(delta(P_i)))."""
        parts = self.partitions
        return tuple(PartitionLevel(lam, parts[i + 1], self.cut_weights[i + 1]) for i, lam in enumerate(self.critical_values))

    def _level_at(self, lam, finest: bool) -> int:
        lam = _as_fraction(lam, "lam")
        if lam < 0:
            raise InputError(f"lam must be >= 0 (a price per extra piece), got {lam}")
        import bisect

        cv = list(self.critical_values)
        return bisect.bisect_right(cv, lam) if finest else bisect.bisect_left(cv, lam)

    def partition_at(self, lam, *, finest: bool = True) -> tuple:
        """The optimal partition at price ``lam`` per extra piece.

        Parameters
        ----------
        lam : float or fractions.Fraction, >= 0
        finest : bool
            At a critical value lambda_i two partitions are optimal: P_i (finest, default) and P_(i-1)
            (coarsest). Elsewhere the optimum is unique and ``finest`` does not matter.

        Returns
        -------
        tuple of frozenset
        """
        return self.partitions[self._level_at(lam, finest)]

    def membership_at(self, lam, *, finest: bool = True) -> np.ndarray:
        """Block of every node (in ``labels`` order) in :meth:`partition_at`."""
        return self.memberships[self._level_at(lam, finest)].copy()

    def value_at(self, lam) -> Fraction:
        """f(lam) = min over P of w(delta(P)) - lam (|P| - 1), exact."""
        i = self._level_at(lam, True)
        lam = _as_fraction(lam, "lam")
        return Fraction(self.cut_weights[i]) - lam * (self.n_blocks[i] - 1)

    def to_frame(self):
        """A :class:`pandas.DataFrame`, one row per critical value: ``critical_value`` (float),
        ``fraction`` (exact, as text), ``n_blocks`` (|P_i|), ``cut_weight`` (w(delta(P_i)))."""
        import pandas as pd

        nb = self.n_blocks
        return pd.DataFrame({"critical_value": self.values, "fraction": [_fmt(v) for v in self.critical_values],
                             "n_blocks": list(nb[1:]), "cut_weight": list(self.cut_weights[1:])})

    def to_linkage(self) -> np.ndarray:
        """The chain as a scipy linkage matrix: the blocks of P_i merge into those of P_(i-1) at height lambda_i.

        Leaves are the nodes in ``labels`` order. A block of P_(i-1) made of r blocks of P_i becomes r - 1
        rows at height ``float(lambda_i)`` (its children joined left to right by first node). Row order and
        cluster ids follow scipy's convention (the finest splits first), so the heights *decrease* toward
        the root: a block splits at a smaller price than its sub-blocks. Read the tree top-down with the
        price axis pointing down (as :func:`graphpriv.viz.plot_principal_partitions` draws it); cut it
        with :meth:`partition_at`. For scipy tools that need heights increasing toward the root
        (``dendrogram``, ``fcluster(..., criterion="distance")``), use ``Z[:, 2] = Z[:, 2].max() - Z[:, 2]``.

        Returns
        -------
        numpy.ndarray, shape (|V| - 1, 4)
        """
        n = self.n_nodes
        Z = np.zeros((max(n - 1, 0), 4), dtype=float)
        if n < 2:
            return Z
        cluster = np.arange(n, dtype=np.int64)          # cluster id of each block of the current (finer) level
        size = {i: 1 for i in range(n)}
        row = 0
        nxt = n
        k = len(self.critical_values)
        for i in range(k, 0, -1):
            fine, coarse = self.memberships[i], self.memberships[i - 1]
            # children of each coarse block: the fine blocks inside it, ordered by first node
            first_fine = {}
            for v, b in enumerate(fine.tolist()):
                first_fine.setdefault(b, v)
            groups: dict[int, list[int]] = {}
            for b, v in sorted(first_fine.items(), key=lambda kv: kv[1]):
                groups.setdefault(int(coarse[v]), []).append(b)
            new_cluster = np.empty(int(coarse.max()) + 1, dtype=np.int64)
            for cb, children in groups.items():
                cur = int(cluster[children[0]])
                for b in children[1:]:
                    other = int(cluster[b])
                    s = size[cur] + size[other]
                    Z[row] = (cur, other, float(self.critical_values[i - 1]), s)
                    size[nxt] = s
                    cur = nxt
                    nxt += 1
                    row += 1
                new_cluster[cb] = cur
            cluster = new_cluster
        return Z

    def __repr__(self) -> str:
        what = "G_X" if self.graph == "confusability" else "support graph"
        if self.weighted:
            what += " (weighted)"
        k = len(self.critical_values)
        shown = [_fmt(v) for v in self.critical_values]
        if k > 8:
            shown = shown[:4] + ["..."] + shown[-3:]
        nb = [str(b) for b in self.n_blocks]
        if len(nb) > 8:
            nb = nb[:4] + ["..."] + nb[-3:]
        plural = "" if k == 1 else "s"
        vals = f": {', '.join(shown)}" if k else ""
        nodes = f"{self.n_nodes} node{'' if self.n_nodes == 1 else 's'}"
        return f"PrincipalSequence({what}: {nodes}, {k} critical value{plural}{vals}; blocks {' -> '.join(nb)})"


def _fmt(v: Fraction) -> str:
    return str(v.numerator) if v.denominator == 1 else f"{v.numerator}/{v.denominator}"


def _as_fraction(x, name: str) -> Fraction:
    if isinstance(x, Fraction):
        return x
    if isinstance(x, (bool, np.bool_)) or not isinstance(x, (int, float, np.integer, np.floating)):
        raise InputError(f"{name} must be a number, got {type(x).__name__}")
    if not np.isfinite(x):
        raise InputError(f"{name} must be finite, got {x!r}")
    return Fraction(x) if isinstance(x, (int, np.integer)) else Fraction(float(x)).limit_denominator(10**9)


# ---------------------------------------------------------------------------------------------- one price: Dilworth truncation
def _cut_engine(backend: str):
    """A function (n, eu, ev, cf, cb, s, t) -> (flow value, source-side mask) for the chosen engine."""
    if backend == "numba":
        from .flow_kernels import push_relabel_cut

        return push_relabel_cut
    if backend == "igraph":
        import igraph as ig

        def igraph_cut(n, eu, ev, cf, cb, s, t):
            back = cb > 0
            tails = np.concatenate([eu, ev[back]]).tolist()
            heads = np.concatenate([ev, eu[back]]).tolist()
            caps = np.concatenate([cf, cb[back]]).astype(float).tolist()
            g = ig.Graph(n=n, edges=list(zip(tails, heads)), directed=True)
            cut = g.mincut(s, t, capacity=caps)
            mask = np.zeros(n, dtype=bool)
            mask[cut.partition[0]] = True
            if not mask[s]:
                mask = ~mask
            return int(round(cut.value)), mask

        return igraph_cut

    def networkx_cut(n, eu, ev, cf, cb, s, t):
        G = nx.DiGraph()
        G.add_nodes_from(range(n))
        for a, b, c, d in zip(eu.tolist(), ev.tolist(), cf.tolist(), cb.tolist()):
            for u, v, cap in ((a, b, c), (b, a, d)):
                if cap > 0:
                    if G.has_edge(u, v):
                        G[u][v]["capacity"] += cap
                    else:
                        G.add_edge(u, v, capacity=cap)
        value, (left, _) = nx.minimum_cut(G, s, t, capacity="capacity")
        mask = np.zeros(n, dtype=bool)
        mask[list(left)] = True
        return int(value), mask

    return networkx_cut


def _peel(n: int, edges: np.ndarray, w: np.ndarray, p: int, q: int) -> np.ndarray:
    """Nodes left after repeatedly removing those of weighted degree <= p/q (they are single-node blocks of
    the finest optimal partition at price p/q: splitting one off gains at least the price minus its degree)."""
    alive = np.ones(n, dtype=bool)
    if not len(edges):
        alive[:] = False
        return alive
    deg = (np.bincount(edges[:, 0], w, n) + np.bincount(edges[:, 1], w, n)).astype(np.int64)
    low = np.flatnonzero(q * deg <= p)
    if not len(low):
        return alive
    adj = sp.csr_array((np.concatenate([w, w]), (np.concatenate([edges[:, 0], edges[:, 1]]),
                                                  np.concatenate([edges[:, 1], edges[:, 0]]))), shape=(n, n))
    indptr, indices, data = adj.indptr, adj.indices, adj.data.astype(np.int64)
    stack = low.tolist()
    alive[low] = False
    while stack:
        u = stack.pop()
        for k in range(indptr[u], indptr[u + 1]):
            v = indices[k]
            if alive[v]:
                deg[v] -= data[k]
                if q * deg[v] <= p:
                    alive[v] = False
                    stack.append(int(v))
    return alive


def _truncation(n: int, edges: np.ndarray, w: np.ndarray, p: int, q: int, cut) -> np.ndarray:
    """Membership of a partition minimising w(delta(P)) - (p/q) |P| on a connected graph.

    The greedy algorithm of the Dilworth truncation (Lovász 1983; Cunningham 1985, Section 4; Narayanan
    1991, Section 3): with f(X) = q w(delta(X)) - 2p, intersecting-submodular, add the nodes v_1, v_2, ...
    one at a time and set x(v_i) = min { f(X) - x(X - v_i) : v_i in X, X within {v_1..v_i} } -- one
    minimum s--t cut. Then x(V) = min over partitions of the sum of f over the blocks, and the tight sets
    (x(X) = f(X)) found on the way, merged when they meet, are the blocks of an optimal partition. A tight
    set never needs to be split again (its union with a minimiser is a minimiser), so every network is the
    graph with the current blocks contracted; and when v_i's edges to the earlier nodes weigh at most p/q,
    {v_i} is a minimiser and no cut is needed. Integer capacities throughout (weights scaled by q).
    """
    from scipy.sparse.csgraph import breadth_first_order

    adj = sp.csr_array((np.ones(2 * len(edges)), (np.concatenate([edges[:, 0], edges[:, 1]]),
                                                  np.concatenate([edges[:, 1], edges[:, 0]]))), shape=(n, n))
    order = breadth_first_order(adj, 0, directed=False, return_predecessors=False)
    rank = np.empty(n, dtype=np.int64)
    rank[order] = np.arange(n)
    e = np.sort(rank[edges], axis=1)
    srt = np.argsort(e[:, 1], kind="stable")
    e = e[srt]
    W = (q * w[srt]).astype(np.int64)
    ends = np.searchsorted(e[:, 1], np.arange(n), side="right")
    deg = (np.bincount(e[:, 0], W, n) + np.bincount(e[:, 1], W, n)).astype(np.int64)
    L = 2 * p
    blk = np.arange(n, dtype=np.int64)          # representative (latest node) of each node's block
    isrep = np.zeros(n, dtype=bool)
    out_b = np.zeros(n, dtype=np.int64)         # w(B, V minus V_i) of every block B, at its representative
    x_b = np.zeros(n, dtype=np.int64)           # x(B)
    ca = np.zeros(0, dtype=np.int64)            # contracted edges between blocks (representatives)
    cb = np.zeros(0, dtype=np.int64)
    cw = np.zeros(0, dtype=np.int64)
    loc = np.zeros(n + 2, dtype=np.int64)
    for i in range(n):
        lo = ends[i - 1] if i else 0
        nb, nw = e[lo:ends[i], 0], W[lo:ends[i]]
        nbb = blk[nb]
        np.subtract.at(out_b, nbb, nw)
        inner = int(nw.sum())
        own_out = int(deg[i]) - inner
        isrep[i] = True
        if 2 * inner <= L:                      # {v_i} is a minimiser
            out_b[i], x_b[i] = own_out, int(deg[i]) - L
            if len(nbb):
                ca, cb, cw = np.concatenate([ca, nbb]), np.concatenate([cb, np.full(len(nbb), i)]), np.concatenate([cw, nw])
            continue
        reps = np.flatnonzero(isrep[:i])
        k = len(reps)
        loc[reps] = np.arange(k)
        src, snk = k, k + 1
        a = out_b[reps] - x_b[reps]             # cost of putting block B on v_i's side: w(B, outside) - x(B)
        up, dn = np.flatnonzero(a > 0), np.flatnonzero(a < 0)
        nl = loc[nbb]
        eu = np.concatenate([loc[ca], nl, up, np.full(len(dn), src)])
        ev = np.concatenate([loc[cb], np.full(len(nl), src), np.full(len(up), snk), dn])
        cf = np.concatenate([cw, nw, a[up], -a[dn]])
        cbk = np.concatenate([cw, nw, np.zeros(len(up) + len(dn), dtype=np.int64)])
        value, mask = cut(k + 2, eu, ev, cf, cbk, src, snk)
        x_i = int(value) + own_out + int(a[dn].sum()) - L
        chosen = reps[np.flatnonzero(mask[:k])]
        out_b[i] = own_out + int(out_b[chosen].sum())
        x_b[i] = x_i + int(x_b[chosen].sum())
        ca, cb, cw = np.concatenate([ca, nbb]), np.concatenate([cb, np.full(len(nbb), i)]), np.concatenate([cw, nw])
        if len(chosen):
            isrep[chosen] = False
            mark = np.zeros(n, dtype=bool)
            mark[chosen] = True
            head = blk[:i]
            head[mark[head]] = i
            ca, cb = np.where(mark[ca], i, ca), np.where(mark[cb], i, cb)
            keep = ca != cb
            lo_, hi_ = np.minimum(ca[keep], cb[keep]), np.maximum(ca[keep], cb[keep])
            uk, inv = np.unique(lo_ * n + hi_, return_inverse=True)
            cw = np.bincount(inv, cw[keep]).astype(np.int64)
            ca, cb = uk // n, uk % n
    _, memb = np.unique(blk, return_inverse=True)
    return memb[rank]


def _attack_at(n: int, edges: np.ndarray, w: np.ndarray, lam: Fraction, cut) -> np.ndarray:
    """Membership of an optimal partition at price lam on a connected graph: peel the nodes of degree <= lam
    (single blocks), then one Dilworth truncation per connected component of what is left."""
    p, q = lam.numerator, lam.denominator
    alive = _peel(n, edges, w, p, q)
    memb = np.full(n, -1, dtype=np.int64)
    dead = np.flatnonzero(~alive)
    memb[dead] = np.arange(len(dead))
    nxt = len(dead)
    core = np.flatnonzero(alive)
    if not len(core):
        return memb
    keep = alive[edges[:, 0]] & alive[edges[:, 1]]
    idx = np.full(n, -1, dtype=np.int64)
    idx[core] = np.arange(len(core))
    ce, cw = idx[edges[keep]], w[keep]
    ncomp, lab = _components_of(len(core), ce)
    for c in range(ncomp):
        nodes = np.flatnonzero(lab == c)
        if len(nodes) == 1:
            memb[core[nodes]] = nxt
            nxt += 1
            continue
        local = np.full(len(core), -1, dtype=np.int64)
        local[nodes] = np.arange(len(nodes))
        sel = lab[ce[:, 0]] == c
        mb = _truncation(len(nodes), local[ce[sel]], cw[sel], p, q, cut)
        memb[core[nodes]] = nxt + mb
        nxt += int(mb.max()) + 1
    return memb


# ---------------------------------------------------------------------------------------------- all prices
def _psp_events(n: int, edges: np.ndarray, w: np.ndarray, cut) -> list:
    """Split events (lambda, pieces) of a connected graph: at lambda the union of ``pieces`` (arrays of node
    ids) splits into them. Eisner--Severance search on the lines of f, with contraction.

    A subproblem is a connected graph H (nodes = groups of original nodes) whose coarse partition is {H}
    and fine partition is single nodes; their lines 0 and w(E(H)) - lambda (m - 1) cross at
    lambda* = w(E(H)) / (m - 1). An optimal partition P* at lambda* either lies on both lines (then f_H is
    those two lines and lambda* is H's only critical value) or strictly below; then every optimum at a
    smaller price is coarser than P* and every optimum at a larger price finer (Narayanan 1991, the
    principal lattice is a chain), so H's sequence is that of H / P* (blocks contracted) followed by those
    of the blocks of P* (induced subgraphs). Each subproblem costs one optimal-attack computation.
    """
    events = []
    stack = [(n, edges, w, [np.array([v], dtype=np.int64) for v in range(n)])]
    while stack:
        m, E, W, groups = stack.pop()
        total = int(W.sum())
        lam = Fraction(total, m - 1)
        memb = _attack_at(m, E, W, lam, cut)
        r = int(memb.max()) + 1
        if r == 1 or r == m or _cut_weight(memb, E, W) - lam * (r - 1) == 0:
            events.append((lam, groups))
            continue
        # coarse side: contract the blocks of P*
        ce = memb[E]
        keep = ce[:, 0] != ce[:, 1]
        ce = np.sort(ce[keep], axis=1)
        uk, inv = np.unique(ce[:, 0] * r + ce[:, 1], return_inverse=True)
        members = [np.flatnonzero(memb == b) for b in range(r)]
        stack.append((r, np.column_stack([uk // r, uk % r]), np.bincount(inv, W[keep]).astype(np.int64),
                      [np.concatenate([groups[j] for j in mem]) for mem in members]))
        # fine side: each block of P* on its own
        for b, mem in enumerate(members):
            if len(mem) < 2:
                continue
            local = np.full(m, -1, dtype=np.int64)
            local[mem] = np.arange(len(mem))
            sel = (memb[E[:, 0]] == b) & (memb[E[:, 1]] == b)
            stack.append((len(mem), local[E[sel]], W[sel], [groups[j] for j in mem]))
    return events


def _levels_from_events(n: int, events: list) -> tuple[list, np.ndarray]:
    """(critical values, memberships) from split events: P_i is the meet of the splits at prices <= lambda_i."""
    values = sorted({lam for lam, _ in events})
    rows = [np.zeros(n, dtype=np.int64)]
    cur = rows[0].copy()
    by_value: dict[Fraction, list] = {}
    for lam, pieces in events:
        by_value.setdefault(lam, []).append(pieces)
    for lam in values:
        for pieces in by_value[lam]:
            nodes = np.concatenate(pieces)
            piece = np.concatenate([np.full(len(g), j, dtype=np.int64) for j, g in enumerate(pieces)])
            _, new = np.unique(cur[nodes] * len(pieces) + piece, return_inverse=True)
            cur[nodes] = int(cur.max()) + 1 + new
        cur = _renumber(cur)
        rows.append(cur.copy())
    return values, np.array(rows, dtype=np.int32).reshape(len(rows), n)


def _brute_levels(n: int, edges: np.ndarray, w: np.ndarray) -> tuple[list, np.ndarray]:
    """Critical values and partitions by enumeration: m_j = least cut over partitions into j + 1 blocks;
    the critical values are the slopes of the lower convex hull of the points (j, m_j)."""
    if n > BRUTE_FORCE_NODES:
        raise TooLargeError(f"method='brute' enumerates every set partition; {n} nodes is past the limit {BRUTE_FORCE_NODES}")
    P = _brute_partitions(n).astype(np.int64)
    nparts = P.max(axis=1) + 1
    cut = ((P[:, edges[:, 0]] != P[:, edges[:, 1]]) * w[None, :]).sum(axis=1) if len(edges) else np.zeros(len(P), dtype=np.int64)
    best = {}
    for j in range(1, n + 1):
        sel = np.flatnonzero(nparts == j)
        best[j - 1] = sel[np.argmin(cut[sel])]
    pts = [(j, int(cut[best[j]])) for j in range(n)]
    hull = [pts[0]]
    for pt in pts[1:]:                  # lower convex hull (m_j is convex along the hull), left to right
        while len(hull) >= 2 and (hull[-1][1] - hull[-2][1]) * (pt[0] - hull[-1][0]) >= (pt[1] - hull[-1][1]) * (hull[-1][0] - hull[-2][0]):
            hull.pop()
        hull.append(pt)
    values = [Fraction(b[1] - a[1], b[0] - a[0]) for a, b in zip(hull, hull[1:])]
    rows = [_renumber(P[best[j]]) for j, _ in hull]
    return values, np.array(rows, dtype=np.int32).reshape(len(rows), n)


def psp_seconds(n: int, m: int) -> float:
    """Estimated seconds of :func:`principal_partitions` (about 3 |V| cuts on contracted graphs), measured on
    the reference machine (2 cores, loaded): 2.4 s at |V| = 1,000, |E| = 43,000; 2.4 s on a band of 1,000
    values of degree 8; 6.5 s at |V| = 3,000, |E| = 28,000."""
    return 1e-7 * n * max(n, m) + 5e-7 * n * n


def principal_partitions(jr: JointRange, *, graph: str = "confusability", weighted: bool = False, backend: str = "numba",
                         method: str = "truncation", max_edges: int | None = None) -> PrincipalSequence:
    """The principal sequence of partitions of G_X (or of the support graph): every critical value and the
    optimal attack partition at each, nested from {V} to single nodes.

    For a price lambda >= 0 per extra piece, f(lambda) = min over partitions P of
    ``w(delta(P)) - lambda (|P| - 1)``; its breakpoints are the critical values lambda_1 < ... < lambda_k
    and the optimal partitions form a chain (Narayanan 1991, "The principal lattice of partitions of a
    submodular function"; Kolmogorov 2010, "A faster algorithm for computing the principal sequence of
    partitions of a graph", Algorithmica 56). lambda_1 is the network strength
    (:func:`~graphpriv.network_strength`, Cunningham 1985) and P_i is the optimal attack
    (:func:`~graphpriv.attack_partition`) at every price in (lambda_i, lambda_(i+1)). A disconnected graph
    has lambda_1 = 0 and P_1 = its components (I*(S;X) > 0 exactly when G_X has lambda_1 = 0, paper 003,
    Section IV).

    Parameters
    ----------
    jr : JointRange
    graph : {"confusability", "support"}
        G_X (nodes: public values) or the bipartite support graph (nodes ``("S", s)``, ``("X", x)``; one
        edge per (s, x) pair), as in :func:`~graphpriv.network_strength`.
    weighted : bool
        G_X only: weight x -- x' by the number of shared sensitive values (as in
        :func:`~graphpriv.network_strength`, the support graph's edges keep weight 1 and the result records
        ``weighted=False``).
    backend : {"numba", "igraph", "networkx"}
        Engine of the minimum s--t cuts: the preflow-push algorithm compiled with numba (default; the
        networks are small and many, and building an igraph graph for each costs more than solving it),
        igraph's push-relabel, or networkx's preflow-push. All give the same, exact result.
    method : {"truncation", "cunningham", "brute"}
        ``"truncation"`` (default; ``"cunningham"`` is accepted as for :func:`~graphpriv.network_strength`,
        whose attack step this is) or ``"brute"``, which enumerates every set partition (test oracle; at
        most 12 nodes).
    max_edges : int, optional
        Passed to :func:`~graphpriv.confusability_adjacency`.

    Returns
    -------
    PrincipalSequence
        Critical values (exact fractions), the partitions P_0 = {V}, ..., P_k, their cut weights;
        :meth:`~PrincipalSequence.partition_at`, :meth:`~PrincipalSequence.to_linkage`.

    Raises
    ------
    InputError
        Unknown ``graph``, ``backend`` or ``method``.
    TooLargeError
        Estimated past a minute (about |V| = 6,000 on a sparse graph), or ``method="brute"`` past 12 nodes.

    Examples
    --------
    >>> import graphpriv as gp
    >>> jr = gp.JointRange.from_pairs(["a", "a", "b", "b", "c"], [1, 2, 2, 3, 4])
    >>> seq = gp.principal_partitions(jr)      # G_X: the path 1-2-3 and the isolated value 4
    >>> seq.critical_values                    # 0: disconnected; 1: the path's bridges
    (Fraction(0, 1), Fraction(1, 1))
    >>> seq.partition_at(0.5)
    (frozenset({1, 2, 3}), frozenset({4}))
    >>> seq.n_blocks
    (1, 2, 4)
    >>> gp.principal_partitions(gp.datasets.hungarian_range()).strength    # paper 003's data: decomposable
    Fraction(0, 1)

    Notes
    -----
    The critical values are found by an Eisner--Severance search over the lines of f: the lines of the
    coarsest and finest partitions cross at lambda* = w(E) / (|V| - 1); one optimal attack at lambda*
    either confirms that f is those two lines or gives a partition P* strictly between, and then the
    search continues on the graph with P*'s blocks contracted (prices below lambda*) and on each block of
    P* (prices above): every subproblem is smaller, and in practice there are about twice as many as
    there are critical values (27 critical values and 53 subproblems on a random G_X of 1,000 values). Each optimal attack peels the nodes of degree <= lambda (always single
    blocks) and runs the greedy Dilworth truncation (Cunningham 1985, "Optimal attack and reinforcement of
    a network", Section 4) on what is left: one minimum s--t cut per node, on the graph of the blocks
    found so far, skipped when the node's edges to the earlier nodes weigh at most lambda. In practice
    about 3 |V| cut problems in all, half of them skipped (1-3 s at |V| = 1,000); Kolmogorov's
    parametric algorithm bounds the worst case by O(|V|) max-flows. Arithmetic is exact: lambda = p / q
    and every capacity is an integer multiple of 1/q.
    """
    if backend not in PRINCIPAL_BACKENDS:
        raise InputError(f"backend={backend!r} must be one of {PRINCIPAL_BACKENDS}")
    if method not in ("truncation", "cunningham", "brute"):
        raise InputError(f"method={method!r} must be 'truncation' (or its alias 'cunningham') or 'brute'")
    n, edges, w, labels, _ = _graph_arrays(jr, graph, weighted, max_edges)
    w = np.asarray(w, dtype=np.int64)
    if method == "brute":
        values, rows = _brute_levels(n, edges, w)
    else:
        from .._guards import check_seconds

        check_seconds("the principal sequence of partitions", psp_seconds(n, len(edges)),
                      size=f"|V| = {n}, |E| = {len(edges)}",
                      instead="gp.network_strength (its first critical value) or gp.attack_partition at one price, "
                              "or a smaller range")
        cut = _cut_engine(backend)
        ncomp, comp = _components_of(n, edges)
        events = []
        if ncomp > 1:
            events.append((Fraction(0), [np.flatnonzero(comp == c) for c in range(ncomp)]))
        for c in range(ncomp):
            nodes = np.flatnonzero(comp == c)
            if len(nodes) < 2:
                continue
            local = np.full(n, -1, dtype=np.int64)
            local[nodes] = np.arange(len(nodes))
            sel = comp[edges[:, 0]] == c
            for lam, pieces in _psp_events(len(nodes), local[edges[sel]], w[sel], cut):
                events.append((lam, [nodes[g] for g in pieces]))
        values, rows = _levels_from_events(n, events)
    cuts = tuple(_cut_weight(r, edges, w) for r in rows)
    return PrincipalSequence(tuple(values), rows, cuts, tuple(labels), graph, bool(weighted) and graph == "confusability")
