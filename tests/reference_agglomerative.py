"""Plain reference implementation of paper 003's Algorithms 1, 2 and Section V-C (problem (10)).

Obviously correct and slow: every iteration recomputes S-sets, components, utilities and ΔL from the
whole partition, and enumerates every candidate pair. Tie rules are those documented in
``graphpriv.mechanisms.agglomerative`` (DESIGN.md section 4). Used by the tests to cross-check the
fast implementation and by ``benchmarks/bench_agglomerate.py`` as the speed baseline.

A run returns a list of steps ``(merges, privacy, utility)``; ``merges`` is a list of (i, j) pairs of
cluster indices (smallest member codes) in merge order; step 0 has no merges.
"""

from __future__ import annotations

import math
import time

import numpy as np

TOL = 1e-9
DL_TOL = 1e-12


def q(x: float) -> float:
    return float(np.round(x / TOL))


class Ref:
    def __init__(self, ssets, values=None, squared=False):
        """ssets: list (per public code) of sets of sensitive codes; values: list of floats or None."""
        self.ssets = [frozenset(s) for s in ssets]
        self.n = len(ssets)
        self.n_s = len(set().union(*self.ssets))
        self.values = values
        self.squared = squared

    # ---------------------------------------------------------------- measures
    def S(self, cluster):
        return frozenset().union(*(self.ssets[i] for i in cluster))

    def components(self, Q):
        """Components of G_X̂ as lists of cluster positions (brute force over pairs)."""
        k = len(Q)
        S = [self.S(c) for c in Q]
        comp = list(range(k))
        changed = True
        while changed:
            changed = False
            for i in range(k):
                for j in range(k):
                    if comp[i] != comp[j] and S[i] & S[j]:
                        lo = min(comp[i], comp[j])
                        comp[i] = comp[j] = lo
                        changed = True
        return comp

    def n_comp(self, Q):
        return len(set(self.components(Q)))

    def L0(self, Q):
        return math.log2(self.n_s) - math.log2(min(len(self.S(c)) for c in Q))

    def Istar(self, Q):
        return math.log2(self.n_comp(Q))

    def dbar(self, cluster):
        vals = [self.values[i] for i in cluster]
        c = sum(vals) / len(vals)
        d = max(abs(v - c) for v in vals)
        return d * d if self.squared else d

    def U(self, Q):
        if self.values is None:
            return math.log2(self.n) - math.log2(max(len(c) for c in Q))
        return -max(self.dbar(c) for c in Q)

    # ---------------------------------------------------------------- helpers
    @staticmethod
    def merge(Q, a, b):
        """Q with the clusters of indices a and b merged; clusters kept sorted by index."""
        A = next(c for c in Q if c[0] == a)
        B = next(c for c in Q if c[0] == b)
        new = sorted(A + B)
        out = [c for c in Q if c[0] not in (a, b)] + [new]
        return sorted(out, key=lambda c: c[0])

    # ---------------------------------------------------------------- Algorithm 1
    def alg1(self, lam=None):
        Q = [[i] for i in range(self.n)]
        steps = [([], self.L0(Q), self.U(Q))]
        while len(Q) > 1:
            min_s = min(len(self.S(c)) for c in Q)
            Pi = [c[0] for c in Q if len(self.S(c)) == min_s]
            merges = []
            for x in Pi:
                if x not in Pi:
                    continue
                X = next((c for c in Q if c[0] == x), None)
                if X is None:
                    continue
                best = None
                for Y in Q:
                    if Y[0] == x or self.S(Y) == self.S(X):
                        continue
                    cost = len(X) + len(Y) if self.values is None else self.dbar(X + Y)
                    key = (q(cost), Y[0])
                    if best is None or key < best:
                        best = key
                Pi = [p for p in Pi if p != x]
                if best is None:
                    continue
                y = best[1]
                Pi = [p for p in Pi if p != y]
                merges.append((x, y))
                Q = self.merge(Q, min(x, y), max(x, y))
            p, u = self.L0(Q), self.U(Q)
            steps.append((merges, p, u))
            if not merges:
                break
            if lam is not None and not (p - steps[-2][1]) - lam * (u - steps[-2][2]) < -DL_TOL:
                break
        return steps

    # ---------------------------------------------------------------- Algorithm 2
    def alg2(self, lam=None, tie_rule="paper", deadline=None):
        """Algorithm 2; ``deadline`` (a time.perf_counter() value) stops early, for benchmarks."""
        Q = [[i] for i in range(self.n)]
        steps = [([], self.Istar(Q), self.U(Q))]
        while True:
            comp = self.components(Q)
            ncomp = len(set(comp))
            if ncomp == 1:
                break
            csize = {}
            for c, cl in zip(comp, Q):
                csize[c] = csize.get(c, 0) + len(cl)
            best = None
            for i in range(len(Q)):
                for j in range(i + 1, len(Q)):
                    if comp[i] == comp[j]:
                        continue
                    a, b = Q[i][0], Q[j][0]
                    if self.values is None:
                        s1, s2 = csize[comp[i]], csize[comp[j]]
                        if tie_rule == "paper":
                            key = (len(Q[i]) + len(Q[j]), -max(s1, s2), -min(s1, s2), a, b)
                        else:
                            key = (len(Q[i]) + len(Q[j]), a, b)
                    else:
                        key = (q(self.dbar(Q[i] + Q[j])), a, b)
                    if best is None or key < best:
                        best = key
            a, b = best[-2], best[-1]
            Q = self.merge(Q, a, b)
            p, u = self.Istar(Q), self.U(Q)
            steps.append(([(a, b)], p, u))
            if lam is not None and not (p - steps[-2][1]) - lam * (u - steps[-2][2]) < -DL_TOL:
                break
            if deadline is not None and time.perf_counter() > deadline:
                break
        return steps

    # ---------------------------------------------------------------- Section V-C, problem (10)
    def problem10(self, lam, tie_rule="paper"):
        Q = [[i] for i in range(self.n)]
        steps = [([], self.L0(Q), self.U(Q))]
        while True:
            comp = self.components(Q)
            if len(set(comp)) == 1:
                break
            p0, u0 = steps[-1][1], steps[-1][2]
            best = None
            for i in range(len(Q)):
                for j in range(i + 1, len(Q)):
                    if comp[i] == comp[j]:
                        continue
                    a, b = Q[i][0], Q[j][0]
                    Q2 = self.merge(Q, a, b)
                    dl = (self.L0(Q2) - p0) - lam * (self.U(Q2) - u0)
                    ssum = len(self.S(Q[i])) + len(self.S(Q[j])) if tie_rule == "paper" else 0
                    key = (q(dl), ssum, a, b)
                    if best is None or key < best:
                        best = key
            a, b = best[-2], best[-1]
            Q = self.merge(Q, a, b)
            steps.append(([(a, b)], self.L0(Q), self.U(Q)))
        return steps


def ref_from_range(jr, values=None, squared=False):
    """Reference object for a graphpriv JointRange (values: mapping label -> number)."""
    m = jr.matrix.tocsc()
    ssets = [set(m.indices[m.indptr[j]:m.indptr[j + 1]].tolist()) for j in range(jr.n_public)]
    vals = None if values is None else [float(values[x]) for x in jr.public_labels.tolist()]
    return Ref(ssets, vals, squared)
