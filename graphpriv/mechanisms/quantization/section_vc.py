"""Section V-C of Ding & Farokhi, *Developing Non-Stochastic Privacy-Preserving Policies Using
Agglomerative Clustering*: problem (10), min L0(S → X̂) - λU s.t. I*(S; X̂) = 0, by the steepest
descent of eqs. (11)-(12): merge argmin ΔL over Ψ(Q, P) until G_X̂ is connected.

ΔL of a pair depends on the rest of Q only through the three smallest |[[S|𝒳]]| and the three largest
sizes (U1) or distortions (U2), so the clusters holding them are *special*. A pair of two non-special
clusters leaves L0 unchanged and cannot raise U, so its ΔL is >= 0: when a pair touching a special
cluster has ΔL < 0 it wins outright, and when its ΔL is 0 only non-special pairs with a smaller tie key
(|S|𝒳1| + |S|𝒳2|, then index) can beat it. Each step therefore costs O(|Q| log |Q|) vectorised work,
except when every special pair has ΔL > 0 (then all of Ψ is searched).
"""

from __future__ import annotations

import math

import numpy as np

from .contraction import Contraction
from .problem import _Problem, _q, _Traj, upper_pair_blocks

_MAX_ROW_PAIRS = 4_000_000


def problem10(prob: _Problem, lam: float) -> _Traj:
    """Section V-C: eq. (12) -- merge argmin ΔL over Ψ (ties: smallest |S|𝒳1| + |S|𝒳2|, then lowest
    pair index; the "index" rule skips the sums) -- until |P| = 1, whatever the sign of ΔL (the
    constraint I* = 0 of problem (10) is enforced)."""
    c = Contraction._from_problem(prob)
    comp = c.component_array()
    priv, util = prob.l0(c.min_s_size()), c.utility()
    while c.n_components > 1:
        (_, _, a, b), _, _ = _best_pair(prob, c, comp, lam, priv, util)
        c._merge(a, b)
        min_s, _, util, _ = c._record(((a, b),))
        priv = prob.l0(min_s)
    return c._trajectory("L0")


def _best_pair(prob, c, comp, lam, priv_old, util_old):
    """(key, privacy, utility) of eq. (12)'s pair; key = (rounded ΔL, tie sum, a, b)."""
    idx = c.clusters()
    ssz = c.ssz
    s_act = ssz[idx]
    small_s = [(s_act[p].item(), int(idx[p])) for p in _first3(s_act)]
    big_v = c.agg.dbar[idx] if c.is_distortion else c.size[idx]
    big = [(big_v[p].item(), int(idx[p])) for p in _first3(-big_v)]
    special = np.array(sorted({i for _, i in small_s} | {i for _, i in big}), dtype=np.int64)
    ev = _PairEval(prob, c, lam, small_s, big, priv_old, util_old)
    cidx = comp[idx]
    I_parts, J_parts = [], []
    for i in special.tolist():
        js = idx[(idx != i) & (cidx != comp[i])]
        I_parts.append(np.minimum(js, i))
        J_parts.append(np.maximum(js, i))
    best = ev(np.concatenate(I_parts), np.concatenate(J_parts))
    if best is not None and best[0][0] < 0:
        return best  # pairs of two non-special clusters have ΔL >= 0
    is_special = np.zeros(len(c.active), dtype=bool)
    is_special[special] = True
    rest = idx[~is_special[idx]]
    if len(rest) < 2:
        return best
    if best is not None and best[0][0] == 0:
        # a non-special pair (i < j) can only win with ΔL = 0 and a smaller (tie sum, i, j)
        tie = ssz[rest] if prob.tie_rule == "paper" else np.zeros(len(rest), dtype=np.int64)
        low = tie + tie.min()
        first = rest[(low < best[0][1]) | ((low == best[0][1]) & (rest <= best[0][2]))]
        if len(first) * len(rest) <= _MAX_ROW_PAIRS:
            return _better(best, _rows(ev, first, rest, comp))
    if not c.is_distortion:
        return _better(best, _u1_grouped(ev, rest, comp, c))
    return _better(best, _blocks(ev, rest, comp))


def _blocks(ev, idx, comp):
    """Best over all pairs of Ψ within ``idx`` (increasing), vectorised over blocks of rows."""
    k = len(idx)
    best = None
    cidx = comp[idx]
    for P, Q in upper_pair_blocks(k, 2_000_000):
        keep = cidx[P] != cidx[Q]
        if keep.any():
            best = _better(best, ev(idx[P[keep]], idx[Q[keep]], special=False))
    return best


def _first3(v: np.ndarray) -> list[int]:
    """Positions of the three smallest entries of v, ties to the lowest position (= a stable argsort's first three)."""
    k = min(3, len(v))
    third = np.partition(v, k - 1)[k - 1]
    below = np.flatnonzero(v < third)
    below = below[np.argsort(v[below], kind="stable")].tolist()
    return below + np.flatnonzero(v == third)[:k - len(below)].tolist()


def _better(a, b):
    return b if a is None or (b is not None and b[0] < a[0]) else a


def _rows(ev, first, rest, comp):
    """Best over the pairs (i, j) of Ψ with i in ``first``, j in ``rest``, i < j (blocks of rows)."""
    best = None
    crest = comp[rest]
    rows = max(1, _MAX_ROW_PAIRS // max(len(rest), 1))
    for r0 in range(0, len(first), rows):
        fi = first[r0:r0 + rows]
        ok = (rest[None, :] > fi[:, None]) & (crest[None, :] != comp[fi][:, None])
        r, k = np.nonzero(ok)
        if len(r):
            best = _better(best, ev(fi[r], rest[k], special=False))
    return best


def _u1_grouped(ev, rest, comp, c):
    """Best pair of two non-special clusters for U1 without enumerating them: ΔL and the tie sum depend
    only on (|S|, size) of the two clusters, so each group of equal (|S|, size) contributes its
    lowest-index cluster and its lowest-index cluster in another component (the pair index is
    monotone in each member): O(|Q| + G^2) for G groups."""
    first: dict = {}
    second: dict = {}
    for i, sv, zv, cc in zip(rest.tolist(), c.ssz[rest].tolist(), c.size[rest].tolist(), comp[rest].tolist()):
        f = first.get((sv, zv))
        if f is None:
            first[(sv, zv)] = (i, cc)
        elif (sv, zv) not in second and cc != f[1]:
            second[(sv, zv)] = (i, cc)
    reps = [[first[g]] + ([second[g]] if g in second else []) for g in first]
    ci, cj = [], []
    for a in range(len(reps)):
        for b in range(a, len(reps)):
            for (x, cx) in reps[a]:
                for (y, cy) in reps[b]:
                    if x != y and cx != cy:
                        ci.append(min(x, y))
                        cj.append(max(x, y))
    if not ci:
        return None
    return ev(np.asarray(ci, dtype=np.int64), np.asarray(cj, dtype=np.int64), special=False)


class _PairEval:
    """ΔL of eq. (12) for arrays of pairs I[k] < J[k]; returns the best (key, privacy, utility)."""

    def __init__(self, prob, c, lam, small_s, big, priv_old, util_old):
        self.prob, self.c, self.lam = prob, c, lam
        self.small_s, self.big = small_s, big
        self.priv_old, self.util_old = priv_old, util_old

    def __call__(self, I, J, special: bool = True):
        """``special=False``: neither I[k] nor J[k] is special, so L0 is unchanged and only U moves."""
        if len(I) == 0:
            return None
        prob, c = self.prob, self.c
        new_s = c.ssz[I] + c.ssz[J]
        if special:
            min_s_new = np.minimum(_excl(self.small_s, I, J, np.inf), new_s)
            priv_new = (math.log(prob.n_s) - np.log(min_s_new)) / prob.lb
            top = _excl(self.big, I, J, -np.inf)
        else:
            priv_new = np.full(len(I), self.priv_old)
            top = self.big[0][0]
        if c.is_distortion:
            util_new = 0.0 - np.maximum(top, c.agg.pair_costs(I, J))
        else:
            util_new = (math.log(prob.n) - np.log(np.maximum(top, c.size[I] + c.size[J]))) / prob.lb
        qd = _q((priv_new - self.priv_old) - self.lam * (util_new - self.util_old))
        sums = new_s if prob.tie_rule == "paper" else np.zeros(len(I), dtype=np.int64)
        cand = np.flatnonzero(qd == qd.min())
        if len(cand) > 1:  # lexicographic (tie sum, I, J) by successive filters
            cand = cand[sums[cand] == sums[cand].min()]
            cand = cand[I[cand] == I[cand].min()]
        k = cand[np.argmin(J[cand])]
        return (float(qd[k]), int(sums[k]), int(I[k]), int(J[k])), float(priv_new[k]), float(util_new[k])


def _excl(vals_codes, I, J, fill):
    """Per pair (I[k], J[k]): the first (val, code) of ``vals_codes`` whose code is neither I[k] nor J[k]."""
    out = np.full(len(I), fill, dtype=float)
    for val, code in reversed(vals_codes):
        out = np.where((I != code) & (J != code), val, out)
    return out
