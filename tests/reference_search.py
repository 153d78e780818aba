"""Plain reference for the better-than-greedy searches (``search="beam"`` / ``"local"``).

The beam and local searches as first written (per-child Python loops for the Pareto pick, a full sort of
all children per depth, pure-Python capped greedy): kept unchanged so that tests can check the vectorised
implementation in :mod:`graphpriv.mechanisms.search` returns exactly the same quantisations.
Docstrings and examples are in the package.
"""

from __future__ import annotations

import math

from typing import Any

import numpy as np

from graphpriv.errors import InputError, InputTypeError
from graphpriv.mechanisms.trace import _UnionFind
from graphpriv.ranges import JointRange

_TOL = 1e-12


# ====================================================================== evaluator
class _Eval:
    """Fast evaluation of privacy, utility and L for partitions of one problem (paper-003 definitions,
    identical to :func:`graphpriv.evaluate_quantization`)."""

    def __init__(self, jr: JointRange, objective: str, lam: float, utility, values, base: float, penalty: float):
        from graphpriv.mechanisms.agglomerative import _check_lam, _Problem
        from graphpriv.mechanisms.utilities import _BoundU2

        self.lam = _check_lam(lam)
        self.prob = _Problem(jr, objective, utility, values, base)
        p = self.prob
        self.objective = p.objective
        self.n = p.n
        self.n_s = p.n_s
        m = jr.matrix.tocsc()
        self.S = m.T.toarray().astype(bool)            # (n, |S|)
        self.comp0 = p.comp0.copy()
        self.ub = p.ub
        self.is_u2 = isinstance(p.ub, _BoundU2)
        self.fast = self.is_u2 and p.ub.fast
        self.V = p.ub.V.astype(float) if self.is_u2 else None
        self.Vl = self.V.tolist() if self.fast else None
        self.lb = p.lb
        self.log_ns = math.log(p.n_s)
        self.log_n = math.log(p.n)
        self.penalty = float(penalty)
        self.masks = [int(sum(1 << int(i) for i in np.flatnonzero(row))) for row in self.S]
        self._cost_cache: dict[tuple, float] = {}

    # ---------------------------------------------------------------- scalar measures
    def priv_from(self, min_s, ncomp):
        if self.objective == "I*":
            return np.log(ncomp) / self.lb
        return (self.log_ns - np.log(min_s)) / self.lb

    def util_from(self, max_size, max_d):
        if self.is_u2:
            return -max_d
        return (self.log_n - np.log(max_size)) / self.lb

    def score_from(self, L, ncomp):
        if self.objective == "L0|I*=0":
            return L + self.penalty * np.log(ncomp) / self.lb
        return L

    def feasible(self, ncomp):
        return ncomp == 1 if self.objective == "L0|I*=0" else np.ones_like(ncomp, dtype=bool)

    def quick(self, members, components: bool = False) -> tuple[float, float, int]:
        """(privacy, utility, |P|) of a partition given as lists of codes (pure Python, cached costs).
        |P| is only computed when the objective needs it or ``components`` is True (else 1)."""
        masks = self.masks
        cl = []
        min_s = None
        for m in members:
            acc = 0
            for x in m:
                acc |= masks[x]
            cl.append(acc)
            c = acc.bit_count()
            min_s = c if min_s is None or c < min_s else min_s
        ncomp = 1
        if components or self.objective != "L0":
            # groups of clusters sharing sensitive values = components of G_X̂
            comps: list[int] = []
            for acc in cl:
                joined = acc
                rest = []
                for c in comps:
                    if c & joined:
                        joined |= c
                    else:
                        rest.append(c)
                rest.append(joined)
                comps = rest
            ncomp = len(comps)
        if self.objective == "I*":
            priv = math.log(ncomp) / self.lb
        else:
            priv = (self.log_ns - math.log(min_s)) / self.lb
        if self.is_u2:
            cache = self._cost_cache
            worst = -math.inf
            for m in members:
                key = tuple(sorted(m))
                v = cache.get(key)
                if v is None:
                    v = cache[key] = self.cost(list(key))
                worst = v if v > worst else worst
            util = -worst
        else:
            util = (self.log_n - math.log(max(len(m) for m in members))) / self.lb
        return priv, util, ncomp

    def quick_cost(self, members) -> float:
        """d̄ of a cluster, cached by its (sorted) members."""
        key = tuple(sorted(members))
        v = self._cost_cache.get(key)
        if v is None:
            v = self._cost_cache[key] = self.cost(list(key))
        return v

    def cost(self, members) -> float:
        if len(members) == 1:
            return 0.0 if self.fast else self.ub.cluster_cost(members)
        if self.fast:
            Vl = self.Vl
            v = [Vl[x] for x in members]
            c = math.fsum(v) / len(v) if len(v) > 2 else (v[0] + v[1]) / 2
            d = max(c - min(v), max(v) - c)
            return d * d if self.ub.squared else d
        return self.ub.cluster_cost(members)


class _State:
    """A partition with per-cluster summaries (clusters ordered by index = smallest member code)."""

    __slots__ = ("members", "z", "Sb", "ssz", "M", "comp", "ncomp", "cnt", "sm", "mn", "mx", "dbar", "priv", "util", "L", "path")

    @classmethod
    def from_members(cls, ev: _Eval, members: list[list[int]], path: tuple = ()) -> "_State":
        st = cls()
        members = sorted((sorted(m) for m in members), key=lambda m: m[0])
        st.members = members
        k = len(members)
        st.z = np.array([len(m) for m in members], dtype=np.int64)
        st.Sb = np.array([ev.S[m].any(axis=0) for m in members], dtype=bool).reshape(k, ev.n_s)
        st.ssz = st.Sb.sum(axis=1).astype(np.int64)
        f = st.Sb.astype(np.float32)
        st.M = np.rint(f @ f.T).astype(np.int64)          # |S|𝒳_a ∩ S|𝒳_b| for every pair of clusters
        # components of G_X̂: join the original components inside every cluster
        uf = _UnionFind(int(ev.comp0.max()) + 1)
        for m in members:
            for x in m[1:]:
                uf.union(int(ev.comp0[m[0]]), int(ev.comp0[x]))
        st.comp = np.array([uf.find(int(ev.comp0[m[0]])) for m in members], dtype=np.int64)
        st.ncomp = len({uf.find(c) for c in range(len(uf.parent))})
        if ev.fast:
            st.cnt = st.z.astype(float)
            st.sm = np.array([ev.V[m].sum() for m in members])
            st.mn = np.array([ev.V[m].min() for m in members])
            st.mx = np.array([ev.V[m].max() for m in members])
        st.dbar = np.array([ev.cost(m) for m in members]) if ev.is_u2 else None
        st.priv = float(ev.priv_from(int(st.ssz.min()), st.ncomp))
        st.util = float(ev.util_from(int(st.z.max()), float(st.dbar.max()) if ev.is_u2 else 0.0))
        st.L = st.priv - ev.lam * st.util
        st.path = tuple(path)
        return st

    def key(self) -> tuple:
        return tuple(tuple(m) for m in self.members)

    def merge(self, ev: _Eval, i: int, j: int, priv: float, util: float) -> "_State":
        """Child state merging cluster positions i < j."""
        st = _State()
        mi = sorted(self.members[i] + self.members[j])
        st.members = self.members[:i] + [mi] + self.members[i + 1:j] + self.members[j + 1:]
        keep = np.ones(len(self.members), dtype=bool)
        keep[j] = False
        st.z = self.z.copy()
        st.z[i] += self.z[j]
        st.z = st.z[keep]
        Sb = self.Sb.copy()
        Sb[i] |= Sb[j]
        st.Sb = Sb[keep]
        st.ssz = self.ssz.copy()
        st.ssz[i] = int(Sb[i].sum())
        st.ssz = st.ssz[keep]
        row = st.Sb.astype(np.int64) @ st.Sb[i].astype(np.int64)      # intersections with the merged cluster
        M = self.M[keep][:, keep]
        M[i, :] = row
        M[:, i] = row
        st.M = M
        comp = self.comp.copy()
        ci, cj = comp[i], comp[j]
        if ci != cj:
            comp[comp == cj] = ci
            st.ncomp = self.ncomp - 1
        else:
            st.ncomp = self.ncomp
        st.comp = comp[keep]
        if ev.fast:
            st.cnt = self.cnt.copy(); st.cnt[i] += self.cnt[j]; st.cnt = st.cnt[keep]
            st.sm = self.sm.copy(); st.sm[i] += self.sm[j]; st.sm = st.sm[keep]
            st.mn = self.mn.copy(); st.mn[i] = min(self.mn[i], self.mn[j]); st.mn = st.mn[keep]
            st.mx = self.mx.copy(); st.mx[i] = max(self.mx[i], self.mx[j]); st.mx = st.mx[keep]
        if ev.is_u2:
            st.dbar = self.dbar.copy()
            if ev.fast:
                c = st.sm[i] / st.cnt[i]
                d = max(c - st.mn[i], st.mx[i] - c)
                st.dbar[i] = d * d if ev.ub.squared else d
            else:
                st.dbar[i] = ev.cost(mi)
            st.dbar = st.dbar[keep]
        else:
            st.dbar = None
        st.priv, st.util = priv, util
        st.L = priv - ev.lam * util
        st.path = self.path + ((self.members[i][0], self.members[j][0]),)
        return st


_TRIU: dict[int, tuple[np.ndarray, np.ndarray]] = {}


def _triu(k: int) -> tuple[np.ndarray, np.ndarray]:
    if k not in _TRIU:
        _TRIU[k] = np.triu_indices(k, 1)
    return _TRIU[k]


def _excl(vals: np.ndarray, I: np.ndarray, J: np.ndarray, largest: bool) -> np.ndarray:
    """vals (W, k); for every state w and pair (I, J): min (or max) of vals[w] over positions other than I, J."""
    W, k = vals.shape
    pad = -np.inf if largest else np.inf
    order = np.argsort(-vals if largest else vals, axis=1, kind="stable")[:, :3]
    v = np.full((W, 3), pad)
    o = np.full((W, 3), -1)
    v[:, :order.shape[1]] = np.take_along_axis(vals, order, axis=1)
    o[:, :order.shape[1]] = order
    out = np.full((W, len(I)), pad)
    for r in (2, 1, 0):
        orr = o[:, r:r + 1]
        out = np.where((orr != I) & (orr != J), v[:, r:r + 1], out)
    return out


def _children(ev: _Eval, states: list) -> tuple | None:
    """All admissible merges of a list of states with the same number k of clusters, vectorised.

    Returns flat arrays (state, I, J, priv, util, L, score, ncomp, at_min) or None.
    """
    k = len(states[0].members)
    if k < 2:
        return None
    W = len(states)
    I, J = _triu(k)
    ssz = np.stack([st.ssz for st in states])                                # (W, k)
    comp = np.stack([st.comp for st in states])
    inter = np.stack([st.M for st in states])[:, I, J]                       # (W, P) |S_a ∩ S_b|
    sI, sJ = ssz[:, I], ssz[:, J]
    new_s = sI + sJ - inter
    cross = comp[:, I] != comp[:, J]
    if ev.objective == "L0":
        ok = ~((inter == sI) & (inter == sJ))                                 # Φ: different S-sets
    elif ev.objective == "I*":
        ok = cross                                                            # Ψ: different components
    else:
        ok = np.ones_like(cross)
    if not ok.any():
        return None
    ncomp = np.array([st.ncomp for st in states])[:, None] - cross.astype(np.int64)
    min_s = np.minimum(_excl(ssz.astype(float), I, J, largest=False), new_s)
    priv = ev.priv_from(min_s, ncomp)
    if ev.is_u2:
        dbar = np.stack([st.dbar for st in states])
        if ev.fast:
            cnt = np.stack([st.cnt for st in states]); sm = np.stack([st.sm for st in states])
            mn = np.stack([st.mn for st in states]); mx = np.stack([st.mx for st in states])
            c = (sm[:, I] + sm[:, J]) / (cnt[:, I] + cnt[:, J])
            d = np.maximum(c - np.minimum(mn[:, I], mn[:, J]), np.maximum(mx[:, I], mx[:, J]) - c)
            if ev.ub.squared:
                d = d * d
        else:
            d = np.full(ok.shape, np.inf)
            for w, st in enumerate(states):
                for p in np.flatnonzero(ok[w]).tolist():
                    d[w, p] = ev.cost(st.members[I[p]] + st.members[J[p]])
        util = ev.util_from(None, np.maximum(_excl(dbar, I, J, largest=True), d))
    else:
        z = np.stack([st.z for st in states]).astype(float)
        util = ev.util_from(np.maximum(_excl(z, I, J, largest=True), z[:, I] + z[:, J]), None)
    L = priv - ev.lam * util
    # secondary key (L0 objectives): how many clusters sit at the smallest |S|𝒳| after the merge -- the
    # bottleneck min |S|𝒳| rises only once all of them are merged, so fewer is progress on a plateau of L
    if ev.objective == "I*":
        at_min = np.zeros(min_s.shape, dtype=np.int64)
    else:
        srt = np.sort(ssz, axis=1)
        eq = np.empty(min_s.shape, dtype=np.int64)
        for w in range(W):
            eq[w] = np.searchsorted(srt[w], min_s[w], side="right") - np.searchsorted(srt[w], min_s[w], side="left")
        at_min = eq - (sI == min_s) - (sJ == min_s) + (new_s == min_s)
    score = ev.score_from(L, ncomp)
    w_idx, p_idx = np.nonzero(ok)
    return (w_idx, I[p_idx], J[p_idx], priv[ok], util[ok], L[ok], score[ok], ncomp[ok], at_min[ok])


# ====================================================================== candidates
def _greedy_candidate(ev: _Eval, jr, utility, values, base) -> tuple[_State, float]:
    """Best prefix of the greedy merge order (L0, I*: the λ-free order, run with λ = 0) or the greedy run
    itself (problem (10)). Returns (state, L of the greedy run at λ)."""
    from graphpriv.mechanisms.agglomerative import _returned_index, _trajectory

    prob = ev.prob
    if ev.objective == "L0|I*=0":
        traj = _trajectory(prob, ev.lam)
        g_t = best_t = len(traj) - 1
    else:
        traj = _trajectory(prob, None)             # the λ-free merge order of Algorithms 1 / 2
        g_t, _ = _returned_index(prob, traj, ev.lam)
        Ls = np.asarray(traj.priv) - ev.lam * np.asarray(traj.util)
        best_t = int(np.argmin(Ls))                # first minimum: the least merged among equals
    g_L = traj.priv[g_t] - ev.lam * traj.util[g_t]
    steps = traj.merges
    path = tuple((int(a), int(b)) for step in steps[1:best_t + 1] for a, b in step)
    groups = {0: [[x] for x in range(ev.n)]}
    for clusters in _replay(ev.n, path):
        groups = {0: clusters}
    best = _State.from_members(ev, groups[0], path)
    if ev.objective == "L0":
        # Algorithm 1 merges several pairs per sweep: also try every single-merge prefix of its order
        flat = [(int(a), int(b)) for step in steps[1:] for a, b in step]
        if len(flat) > len(steps) - 1:
            best_L, best_k = best.L, None
            for k, clusters in enumerate(_replay(ev.n, flat)):
                pv, ut, _ = ev.quick(clusters)
                if pv - ev.lam * ut < best_L - _TOL:
                    best_L, best_k = pv - ev.lam * ut, k
            if best_k is not None:
                clusters = list(_replay(ev.n, flat[:best_k + 1]))[-1]
                best = _State.from_members(ev, clusters, tuple(flat[:best_k + 1]))
    return best, g_L


def _replay(n: int, merges):
    """Yield the clusters (lists of codes) after each merge of (code, code) pairs."""
    where = list(range(n))
    clusters: dict[int, list[int]] = {x: [x] for x in range(n)}
    for a, b in merges:
        ra, rb = where[a], where[b]
        if ra != rb:
            r, o = min(ra, rb), max(ra, rb)
            for y in clusters[o]:
                where[y] = r
            clusters[r] = clusters[r] + clusters.pop(o)
        yield list(clusters.values())


def _beam(ev: _Eval, width: int, max_depth: int | None, pareto: int = 0) -> _State | None:
    root = _State.from_members(ev, [[x] for x in range(ev.n)])
    best = root if ev.feasible(np.array([root.ncomp]))[0] else None
    beam = [root]
    depth = 0
    while beam and (max_depth is None or depth < max_depth):
        depth += 1
        ch = _children(ev, beam)
        if ch is None:
            break
        B, I, J, priv, util, L, score, ncomp, at_min = ch
        if ev.objective == "I*":
            at_min = np.zeros(len(score))
        feas = ev.feasible(ncomp)
        if feas.any():
            Lf = np.where(feas, L, np.inf)
            a = int(np.argmin(Lf))
            if best is None or Lf[a] < best.L - _TOL:
                best = beam[B[a]].merge(ev, int(I[a]), int(J[a]), float(priv[a]), float(util[a]))
        # branch and bound: merges never raise the utility and the privacy is >= 0, so no descendant of a
        # child beats -λ·U(child); drop children that cannot improve on the best feasible partition
        if best is not None:
            alive = -ev.lam * util < best.L - _TOL
            if not alive.any():
                break
        else:
            alive = np.ones(len(score), dtype=bool)
        order = np.lexsort((np.arange(len(score)), at_min, np.round(score, 12)))
        order = order[alive[order]]
        new, keys = [], set()

        def take(a):
            st, i, j = beam[B[a]], int(I[a]), int(J[a])
            mem = st.members
            key = tuple(tuple(m) for m in mem[:i]) + (tuple(sorted(mem[i] + mem[j])),) + \
                tuple(tuple(m) for m in mem[i + 1:j]) + tuple(tuple(m) for m in mem[j + 1:])
            if key not in keys:
                keys.add(key)
                new.append(st.merge(ev, i, j, float(priv[a]), float(util[a])))

        for a in order.tolist():
            take(a)
            if len(new) >= width:
                break
        if pareto:
            # keep a few children spread along the (privacy, utility) Pareto front of this depth, so that
            # states at other utility levels than the current best-L ones survive (the objectives are
            # bottlenecks: the optimum often needs merges that first raise L)
            pkey = np.round(score + ev.lam * util, 9) + 1e-6 * at_min
            o = np.lexsort((np.arange(len(pkey)), -np.round(util, 9), pkey))
            o = o[alive[o]]
            front, best_u = [], -np.inf
            for a in o.tolist():
                if util[a] > best_u + 1e-12:
                    front.append(a)
                    best_u = util[a]
            if len(front) > pareto:
                front = [front[int(round(q))] for q in np.linspace(0, len(front) - 1, pareto)]
            for a in front:
                take(a)
        beam = new
    return best


def _local(ev: _Eval, st: _State, max_passes: int) -> _State:
    """First-improvement local search: move one public value to another cluster or to a new one,
    keeping the constraint (problem (10): I* = 0), while L strictly drops."""
    members = [list(m) for m in st.members]
    cur_L = st.L
    need_connected = ev.objective == "L0|I*=0"
    improved_any = False
    for _ in range(max_passes):
        improved = False
        for x in range(ev.n):
            src = next(a for a, m in enumerate(members) if x in m)
            targets = [a for a in range(len(members)) if a != src] + ([-1] if len(members[src]) > 1 else [])
            for dst in targets:
                trial = [m if a != src else [y for y in m if y != x] for a, m in enumerate(members)]
                if dst == -1:
                    trial.append([x])
                else:
                    trial[dst] = trial[dst] + [x]
                trial = [m for m in trial if m]
                pv, ut, nc = ev.quick(trial)
                if need_connected and nc != 1:
                    continue
                L = pv - ev.lam * ut
                if L < cur_L - 1e-9:
                    members, cur_L = trial, L
                    improved = improved_any = True
                    break
        if not improved:
            break
    if not improved_any:
        return st
    members = sorted((sorted(m) for m in members), key=lambda m: m[0])
    # express the final partition as merges from singletons (cluster index, member), for the trace
    path = tuple((m[0], y) for m in members for y in m[1:])
    return _State.from_members(ev, members, path)


def _capped(ev: _Eval, best_L: float, n_caps: int) -> _State | None:
    """Problem (3) only: for a few utility caps (max cluster size for U1, max distortion for U2), raise the
    bottleneck min |S|𝒳| greedily -- merge the cluster with the fewest sensitive values into the partner
    that adds the most sensitive values while the merged cluster stays within the cap -- and keep the best
    L seen. Algorithm 1 picks the partner by utility alone; this picks it by privacy under a utility cap,
    which reaches the bottleneck optima the merge-by-merge beam misses."""
    if ev.objective != "L0" or ev.n < 3:
        return None
    masks = ev.masks
    if ev.is_u2:
        V = ev.V if ev.fast else None
        pair = sorted({ev.cost([a, b]) for a in range(ev.n) for b in range(a + 1, ev.n)})
        full = ev.cost(list(range(ev.n)))
        caps = [c for c in np.unique(np.quantile(pair + [full], np.linspace(0, 1, n_caps))).tolist()]
    else:
        caps = list(range(2, ev.n + 1))
        if len(caps) > n_caps:
            caps = sorted({int(round(c)) for c in np.linspace(2, ev.n, n_caps)})
    best_members, best = None, best_L
    for cap in caps:
        # no quantisation within this cap can beat the best: privacy >= 0, utility <= cap's utility
        u_cap = -cap if ev.is_u2 else (ev.log_n - math.log(cap)) / ev.lb
        if -ev.lam * u_cap >= best - _TOL:
            continue
        members = [[x] for x in range(ev.n)]
        cl = list(masks)
        while len(members) > 1:
            counts = [m.bit_count() for m in cl]
            c = min(range(len(members)), key=lambda a: (counts[a], a))
            choice = None
            for d in range(len(members)):
                if d == c:
                    continue
                gain = (cl[c] | cl[d]).bit_count()
                if gain <= counts[c]:
                    continue
                if ev.is_u2:
                    cost = ev.quick_cost(members[c] + members[d])
                    if cost > cap + 1e-12:
                        continue
                    tie = cost
                else:
                    size = len(members[c]) + len(members[d])
                    if size > cap:
                        continue
                    tie = size
                key = (-gain, tie, d)
                if choice is None or key < choice[0]:
                    choice = (key, d)
            if choice is None:
                break
            d = choice[1]
            a, b = min(c, d), max(c, d)
            members[a] = members[a] + members[b]
            cl[a] |= cl[b]
            del members[b], cl[b]
            pv, ut, _ = ev.quick(members)
            L = pv - ev.lam * ut
            if L < best - _TOL:
                best, best_members = L, [list(m) for m in members]
    if best_members is None:
        return None
    best_members = sorted((sorted(m) for m in best_members), key=lambda m: m[0])
    return _State.from_members(ev, best_members, tuple((m[0], y) for m in best_members for y in m[1:]))


# ====================================================================== result
def _result(ev: _Eval, st: _State, search: str, info: dict):
    from graphpriv.mechanisms.agglomerative import _result_from_groups
    from graphpriv.mechanisms.trace import MergeTrace

    n = ev.n
    # replay the path to record per-step scalars
    cur = [[x] for x in range(n)]
    where = list(range(n))
    privs, utils, ncl, ncomps = [], [], [], []
    pv, ut, nc = ev.quick(cur, components=True)
    privs.append(pv); utils.append(ut); ncl.append(n); ncomps.append(nc)
    merges = [()]
    for a, b in st.path:
        ra, rb = where[a], where[b]
        r, o = min(ra, rb), max(ra, rb)
        for y in cur[o]:
            where[y] = r
        cur[r] = sorted(cur[r] + cur[o])
        cur[o] = []
        merges.append(((r, o),))
        live = [m for m in cur if m]
        pv, ut, nc = ev.quick(live, components=True)
        privs.append(pv); utils.append(ut); ncl.append(len(live)); ncomps.append(nc)
    L = [p - ev.lam * u for p, u in zip(privs, utils)]
    dL = [float("nan")] + [L[t] - L[t - 1] for t in range(1, len(L))]
    p = ev.prob
    trace = MergeTrace(
        objective=p.objective, utility=p.utility_name, lam=float(ev.lam), public_labels=tuple(p.labels),
        components0=tuple(int(c) for c in p.comp0.tolist()), step_merges=tuple(merges), step_privacy=tuple(privs),
        step_utility=tuple(utils), step_L=tuple(L), step_delta_L=tuple(dL), step_n_clusters=tuple(ncl),
        step_n_components=tuple(ncomps), step_accepted=(True,) * len(merges), returned=len(merges) - 1,
        base=p.base, info={**p.info(), "search": search, **info},
    )
    groups = [np.asarray(m, dtype=np.int64) for m in st.members]
    res = _result_from_groups(p, groups, trace, float(st.priv), float(st.util), ev.lam)
    res.info.update({"search": search, **info})
    return res


def _check_int(v, name, lo=1):
    if isinstance(v, bool) or not isinstance(v, (int, np.integer)) or v < lo:
        raise InputError(f"{name} must be an integer >= {lo}, got {v!r}")
    return int(v)


# ====================================================================== public searches
def beam_search(jr: JointRange, objective: str, lam: float, utility: Any = "U1", values: Any = None, *, base: float = 2,
                width: int = 3, pareto: int = 3, caps: int = 8, local: bool | None = None, max_passes: int = 3,
                penalty: float = 1.0, max_depth: int | None = None):
    """Reference copy of :func:`graphpriv.mechanisms.search.beam_search`."""
    width = _check_int(width, "width")
    pareto = _check_int(pareto, "pareto", 0)
    caps = _check_int(caps, "caps", 0)
    max_passes = _check_int(max_passes, "max_passes", 0)
    if max_depth is not None:
        max_depth = _check_int(max_depth, "max_depth", 0)
    try:
        penalty = float(penalty)
    except (TypeError, ValueError):
        raise InputTypeError(f"penalty must be a number >= 0, got {penalty!r}") from None
    if not (penalty >= 0 and math.isfinite(penalty)):
        raise InputError(f"penalty must be a finite number >= 0, got {penalty!r}")
    ev = _Eval(jr, objective, lam, utility, values, base, penalty)
    greedy, greedy_L = _greedy_candidate(ev, jr, utility, values, base)
    best, source = greedy, "greedy"
    found = _beam(ev, width, max_depth, pareto)
    if found is not None and found.L < best.L - _TOL:
        best, source = found, "beam"
    capped = _capped(ev, best.L, caps) if caps else None
    if capped is not None and capped.L < best.L - _TOL:
        best, source = capped, "capped"
    if local is None:
        local = ev.n <= 40
    if local and max_passes:
        starts = [greedy] if found is None or found.key() == greedy.key() else [greedy, found]
        if capped is not None and capped is best:
            starts.append(capped)
        for start in starts:
            loc = _local(ev, start, max_passes)
            if loc.L < best.L - _TOL:
                best, source = loc, "local"
    return _result(ev, best, "beam", {"source": source, "width": width, "pareto": pareto, "greedy_L": float(greedy_L)})


def local_search(jr: JointRange, objective: str, lam: float, utility: Any = "U1", values: Any = None, *, base: float = 2,
                 max_passes: int = 3):
    """Reference copy of :func:`graphpriv.mechanisms.search.local_search`."""
    max_passes = _check_int(max_passes, "max_passes", 0)
    ev = _Eval(jr, objective, lam, utility, values, base, 1.0)
    greedy, greedy_L = _greedy_candidate(ev, jr, utility, values, base)
    best, source = greedy, "greedy"
    if max_passes:
        loc = _local(ev, greedy, max_passes)
        if loc.L < best.L - _TOL:
            best, source = loc, "local"
    return _result(ev, best, "local", {"source": source, "greedy_L": float(greedy_L)})


