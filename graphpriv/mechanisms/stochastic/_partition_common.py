"""Shared pieces of the deterministic merge mechanisms on a joint pmf (funnel, subset and alpha-lift watchdogs).

A deterministic merge is a partition of the public alphabet into blocks; the release X̂ is the block of
X. This module holds the per-block quantities in nats (column sums of the joint pmf), the component
ids of the support graph that a :class:`~graphpriv.MergeTrace` starts from, the union-find that counts
the components of G_X̂(t) while a mechanism merges, and the measures of a finished partition on the
common axes (I(S;X̂), I(X;X̂) = H(X̂), max |log-lift|).
"""

from __future__ import annotations

import math

import numpy as np

from ...distributions import JointDistribution


_TINY = 1e-300   # ln(_TINY) is finite, so 0 * ln(max(0, _TINY)) = 0 without a mask


def xlogx(a):
    """Elementwise a ln a with 0 ln 0 = 0 (nats); a >= 0 (floating-point dust below 0 gives ~0)."""
    a = np.asarray(a, dtype=float)
    if a.ndim == 0:
        return np.float64(a * math.log(a)) if a > 0 else np.float64(0.0)
    out = np.maximum(a, _TINY)
    np.log(out, out=out)
    out *= a
    return out


def sum_xlogx(a, axis=-1):
    """Σ a ln a along ``axis`` (0 ln 0 = 0), with one temporary array."""
    return xlogx(a).sum(axis=axis)


def components0(jd: JointDistribution) -> np.ndarray:
    """Component id of every public code in the support graph of ``jd`` (zero-mass symbols: own ids)."""
    from ...graphs.support import support_components
    import scipy.sparse as sp

    P = jd.P
    ks = jd.p_s > 0
    M = sp.csr_array((P[ks] > 0).astype(np.int8))
    comp = support_components(M)
    pub = np.asarray(comp.public, dtype=np.int64)
    # support_components numbers every column; a zero-mass column is an isolated node: its own component
    return pub


class ComponentCounter:
    """Union-find over the support-graph components; counts |P(t)| while clusters merge."""

    __slots__ = ("parent", "count", "comp")

    def __init__(self, comp0: np.ndarray):
        self.comp = np.asarray(comp0, dtype=np.int64)
        k = int(self.comp.max()) + 1 if self.comp.size else 0
        self.parent = list(range(k))
        self.count = len(set(self.comp.tolist()))

    def _find(self, a: int) -> int:
        p = self.parent
        while p[a] != a:
            p[a] = p[p[a]]
            a = p[a]
        return a

    def join(self, codes) -> None:
        roots = {self._find(int(self.comp[c])) for c in codes}
        if len(roots) > 1:
            r = min(roots)
            for q in roots:
                self.parent[q] = r
            self.count -= len(roots) - 1


def block_measures(P: np.ndarray, assignment: np.ndarray, n_blocks: int) -> dict:
    """I(S;X̂), H(X̂) and max |log-lift| (nats) of the merge that sends code x to block assignment[x]."""
    ps = P.sum(axis=1)
    Q = np.zeros((P.shape[0], n_blocks))
    np.add.at(Q.T, assignment, P.T)
    return measures_of_columns(Q, ps)


def measures_of_columns(Q: np.ndarray, ps: np.ndarray) -> dict:
    """I(S;Y), H(Y), max_{s,y} |log l(s,y)| (nats) of a joint pmf given as columns Q (|S|, |Y|)."""
    m = Q.sum(axis=0)
    live_s = ps > 0
    Q = Q[live_s]
    ps = ps[live_s]
    live = m > 0
    Qm, mm = Q[:, live], m[live]
    H = float(-xlogx(mm).sum())
    I = float(xlogx(Qm).sum() - xlogx(mm).sum() - xlogx(ps).sum())
    with np.errstate(divide="ignore"):
        ll = np.log(Qm) - np.log(ps)[:, None] - np.log(mm)[None, :]
    mx = float(np.abs(ll).max()) if ll.size else 0.0
    return {"I_S": max(I, 0.0), "H": max(H, 0.0), "max_abs_log_lift": mx}


def blocks_from_assignment(assignment: np.ndarray) -> list[np.ndarray]:
    """Blocks (arrays of codes, increasing) ordered by their smallest code."""
    a = np.asarray(assignment)
    order = np.argsort(a, kind="stable")
    cuts = np.flatnonzero(np.diff(a[order])) + 1
    groups = np.split(order, cuts)
    groups = [np.sort(g) for g in groups if g.size]
    groups.sort(key=lambda g: int(g[0]))
    return groups


def partition_channel_matrix(n: int, blocks: list[np.ndarray]) -> np.ndarray:
    """Deterministic channel W[x, k] = 1 when x is in block k, shape (n, len(blocks))."""
    W = np.zeros((n, len(blocks)))
    for k, b in enumerate(blocks):
        W[b, k] = 1.0
    return W


def clean(v: float) -> float:
    """A computed information quantity with floating-point dust (|v| < 1e-12, e.g. H of one block) read as 0."""
    v = float(v)
    return 0.0 if abs(v) < 1e-12 else v


def to_base(v: float, lnb: float) -> float:
    return float(v) / lnb + 0.0 if math.isfinite(v) else float(v)


class BlockPartition:
    """What every deterministic merge result derives from its ``blocks`` (arrays of public codes) and
    ``public_labels``: the partition as label sets, the block id of every code, the channel and the map
    of labels to block ids. Mixed into the result classes of the funnel and the watchdog variants."""

    @property
    def partition(self) -> list[frozenset]:
        """Blocks as frozensets of public labels (ready for :meth:`graphpriv.Release.from_partition`)."""
        lab = self.public_labels
        return [frozenset(lab[b].tolist()) for b in self.blocks]

    def _block_ids(self) -> np.ndarray:
        a = np.empty(len(self.public_labels), dtype=np.int64)
        for k, b in enumerate(self.blocks):
            a[b] = k
        return a

    @property
    def channel(self) -> np.ndarray:
        """Deterministic channel W[x, k] = 1 when x is in block k, shape (|X|, |X̂|)."""
        return partition_channel_matrix(len(self.public_labels), self.blocks)

    def apply(self, x) -> np.ndarray:
        """Block id of each public label in ``x`` (the order of :attr:`blocks`)."""
        from .log_lift_sets import _codes_of

        return self.assignment[_codes_of(x, self.public_labels, "x")]


class WatchdogBlocks(BlockPartition):
    """:class:`BlockPartition` of a watchdog variant: ``published`` marks the symbols released as they are,
    the block ids follow :attr:`blocks`."""

    @property
    def randomized(self) -> np.ndarray:
        return ~self.published

    @property
    def assignment(self) -> np.ndarray:
        """Block id of every public code (the order of :attr:`blocks`)."""
        return self._block_ids()
