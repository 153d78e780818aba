"""Paper 003's privacy mechanisms as merge/contract sequences: Algorithms 1 and 2 and Section V-C.

A quantisation X̂ of the public data X is a partition Q of [[X]]; releasing X̂ merges the nodes of every
cluster of G_X (contraction). :func:`agglomerate` runs

* ``objective="L0"`` -- Algorithm 1, problem (3): minimise L0(S → X̂) - λ U_i(X; X̂);
* ``objective="I*"`` -- Algorithm 2, problem (5): minimise I*(S; X̂) - λ U_i(X; X̂);
* ``objective="L0|I*=0"`` -- Section V-C, problem (10), eqs. (11)-(12): merge by argmin ΔL over Ψ
  until G_X̂ is connected (I* = 0), so the result always has I*(S; X̂) = 0.

Privacy is in bits (``base=2``). The Lagrangian recorded in traces is L = privacy - λ·utility with
privacy = L0(S → X̂) = log|S| - min_𝒳 log|S|𝒳| for Algorithm 1 (the paper writes -min log|S|𝒳| - λU,
which differs by the constant log|S| and has the same ΔL) and privacy = I*(S; X̂) = log|P| for Algorithm 2.

Tie rules and the return rule (paper 003; they reproduce the paper's Examples 1-5)
---------------------------------------------------------------------------------------------------
* A public value's index is its code (position in ``jr.public_labels``); a cluster's index is its
  smallest member's index; a pair's index is (smaller cluster index, larger), compared lexicographically.
* Algorithm 1: Π = clusters with the smallest |S|𝒳|, processed in increasing index; the partner of 𝒳 is,
  among clusters with a different S-set, the one minimising |𝒳 ⊔ 𝒳'| (U1) or d̄(𝒳 ⊔ 𝒳') (U2), ties to
  the lowest index; both leave Π after a merge (a merged cluster may still be a partner later in the
  sweep); a cluster without admissible partner leaves Π unmerged. ΔL is tested after each sweep.
  Returned: Q(t-1) when it stops on ΔL >= 0, Q(t) when one cluster is left and ΔL < 0.
* Algorithm 2: eq. (8) over Ψ (pairs in different components): U1 -- smallest |𝒳1| + |𝒳2|, ties to the
  pair joining the largest two components (compare (larger, smaller) component size, counted in original
  values), then the lowest pair index; U2 -- smallest d̄(𝒳1 ⊔ 𝒳2), ties to the lowest pair index.
  ΔL = log((|P|-1)/|P|) - λ(U(Q') - U(Q)) with the true U of the whole partition; stop when ΔL >= 0
  (Q(t) returned) or |P| = 1.
* Section V-C: argmin ΔL of eq. (12) over Ψ, ties to the smallest |S|𝒳1| + |S|𝒳2|, then the lowest pair
  index; iterate until one component (ΔL may be positive: the constraint I* = 0 is enforced).
* Costs and ΔL are compared with a tolerance: costs are rounded to multiples of 1e-9 before ties are
  decided, and a step is accepted when ΔL < -1e-12.

Errata (paper 003, tested in ``tests/test_mechanisms_paper003.py``)
-------------------------------------------------------------------
Example 2 (U2) prints the U1 run's Q(2) and returned set: its own ΔL = 0.0758 needs Q(2) = {{x1..x7}},
and it returns its own Q(1) = {{x1,x2,x4},{x3,x5},{x6,x7}}. Example 3 prints log(4/5) - λ log 2 for
-0.0219 (it is +λ log 2). Example 4 does not stop at t = 3 under its stated settings: the 4th merge
{x2} + {x7} has ΔL = -0.615 (the paper's stop needs λ >= 0.7792), so Q(4) = {{x1,x4},{x2,x7},{x3,x5,x6}}
is returned. Example 5's "|S|x2| = |S|x3| = 2" is 1 and 1.
"""

from __future__ import annotations

import heapq
import math
from dataclasses import dataclass, field
from typing import Any, Hashable, Iterable

import numpy as np
import pandas as pd

from ..errors import InputError, InputTypeError
from ..ranges import JointRange
from .quantization.problem import (_ALGORITHM, _COST_TOL, _DL_TOL, OBJECTIVES, _check_lam, _check_objective,  # noqa: F401
                                   _check_tie_rule, _Problem, _q, _Stopper, _Traj)
from .trace import MergeTrace, _UnionFind, _check_quantization, _groups
from .utilities import U1, U2, Utility, _BoundU2, as_utility
from ..citations import record_use

__all__ = ["agglomerate", "AgglomerationResult", "lagrangian", "evaluate_quantization", "OBJECTIVES"]

# ====================================================================== result
@dataclass(frozen=True, eq=False)
class AgglomerationResult:
    """Result of a quantisation mechanism (paper 003).

    Attributes
    ----------
    quantization : list of frozenset
        The returned Q: clusters of public labels, ordered by cluster index (smallest member code).
    privacy : float
        L0(S → X̂) (objectives "L0", "L0|I*=0") or I*(S; X̂) (objective "I*"), in bits by default.
    utility : float
        U_i(X; X̂) of the returned Q.
    mapping : dict
        Public label -> released value: the cluster's codeword for U2 (centroid by default), the cluster
        number (0, 1, ... in index order) for U1.
    trace : MergeTrace
        Every step (see :class:`~graphpriv.MergeTrace`).
    objective, utility_name : str
    lam : float
    info : dict
        Algorithm name, tie rule, settings.
    """

    quantization: list
    privacy: float
    utility: float
    mapping: dict = field(repr=False)
    trace: MergeTrace = field(repr=False)
    objective: str = "L0"
    utility_name: str = "U1"
    lam: float = float("nan")
    info: dict = field(default_factory=dict, repr=False)

    @property
    def n_clusters(self) -> int:
        return len(self.quantization)

    @property
    def L(self) -> float:
        """Lagrangian privacy - λ·utility of the returned quantisation."""
        return self.privacy - self.lam * self.utility

    def transform(self, values: Iterable[Hashable], release: str | None = None, *, decimals: int | None = None):
        """Sanitise a column of public labels: replace every label by its released value.

        ``release``: ``"label"`` (default for U1: ``"[240, 260]"`` / ``"{132, 243}"``), ``"codeword"``
        (default for U2: the centroid rounded to ``decimals``, by default the precision of ``values``)
        or ``"id"`` (the cluster number of :attr:`mapping`); values alone in their cluster stay as they
        were. See :class:`graphpriv.Release`. A Series gives a Series (same index and name), an array an
        array, other iterables a list.

        Raises
        ------
        UnknownLabelError
            If a label is not a public label of the joint range the mechanism ran on.
        """
        from .release import Release, column_decimals

        if isinstance(values, (str, bytes)) or not isinstance(values, Iterable):
            raise InputTypeError("transform needs an iterable of public labels (list, array or pandas Series)")
        if not isinstance(values, (pd.Series, np.ndarray, list, tuple)):
            values = list(values)
        if decimals is None and self.utility_name == "U2":
            decimals = column_decimals(values)
        return Release.from_result(self, release, decimals=decimals).transform(values)

    def __repr__(self) -> str:
        q = ", ".join("{" + ",".join(map(str, sorted(c, key=str))) + "}" for c in self.quantization[:4])
        more = f", ... ({len(self.quantization)} clusters)" if len(self.quantization) > 4 else ""
        return (f"AgglomerationResult(objective={self.objective!r}, utility={self.utility_name!r}, lam={self.lam:g}, "
                f"privacy={self.privacy:.4f}, utility_value={self.utility:.4f}, quantization=[{q}{more}])")


# ---------------------------------------------------------------------- Algorithm 1
def _alg1(prob: _Problem, stopper: _Stopper) -> _Traj:
    n = prob.n
    ub = prob.ub
    size = [1] * n
    active = [True] * n
    sset = [prob.sset(i) for i in range(n)]
    ssize = [len(s) for s in sset]
    # S-set ids for vectorised admissibility (U2 rows)
    sid_of: dict[frozenset, int] = {}
    sid = np.array([sid_of.setdefault(s, len(sid_of)) for s in sset], dtype=np.int64)
    comp_parent = list(range(prob.n_comp0))
    comp0 = prob.comp0.tolist()

    def cfind(c):
        while comp_parent[c] != c:
            comp_parent[c] = comp_parent[comp_parent[c]]
            c = comp_parent[c]
        return c

    n_comp = prob.n_comp0
    fast = isinstance(ub, _BoundU2) and ub.fast
    members: dict[int, list] = {i: [i] for i in range(n)}
    if isinstance(ub, _BoundU2):
        V = ub.V
        if fast:
            cnt = np.ones(n)
            sm = V.astype(float).copy()
            mn = V.astype(float).copy()
            mx = V.astype(float).copy()
        dbar = [0.0] * n
        if not fast:
            dbar = [ub.cluster_cost([i]) for i in range(n)]
    act = np.ones(n, dtype=bool)
    heap = [(1, i) for i in range(n)]  # (size, index) for U1 partner search
    heapq.heapify(heap)

    def util_value():
        if isinstance(ub, _BoundU2):
            return 0.0 - max(dbar[i] for i in range(n) if active[i])
        return ub.value_from_max_size(max(size[i] for i in range(n) if active[i]))

    min_s = min(ssize)
    traj = _Traj(prob.l0(min_s), util_value(), n, n_comp)
    n_cl = n
    max_size = 1
    while n_cl > 1:
        min_s = min(ssize[i] for i in range(n) if active[i])
        pi = [i for i in range(n) if active[i] and ssize[i] == min_s]  # increasing index
        in_pi = set(pi)
        merges = []
        for x in pi:
            if x not in in_pi or not active[x]:
                continue
            # ---- partner search
            partner = -1
            if isinstance(ub, _BoundU2):
                if fast:
                    c = (sm[x] + sm) / (cnt[x] + cnt)
                    d = np.maximum(c - np.minimum(mn[x], mn), np.maximum(mx[x], mx) - c)
                    if ub.squared:
                        d = d * d
                    ok = act & (sid != sid[x])
                    ok[x] = False
                    if ok.any():
                        qd = np.where(ok, _q(d), np.inf)
                        partner = int(np.argmin(qd))
                else:
                    best = None
                    for j in range(n):
                        if active[j] and j != x and sid[j] != sid[x]:
                            key = (float(_q(ub.cluster_cost(members[x] + members[j]))), j)
                            if best is None or key < best:
                                best = key
                    if best is not None:
                        partner = best[1]
            else:
                popped = []
                while heap:
                    s, j = heap[0]
                    if not active[j] or size[j] != s:
                        heapq.heappop(heap)
                        continue
                    if j == x or sid[j] == sid[x]:
                        popped.append(heapq.heappop(heap))
                        continue
                    partner = j
                    break
                for e in popped:
                    heapq.heappush(heap, e)
            in_pi.discard(x)
            if partner < 0:
                continue
            in_pi.discard(partner)
            # ---- merge x and partner
            a, b = (x, partner) if x < partner else (partner, x)
            merges.append((x, partner))
            active[b] = False
            act[b] = False
            size[a] += size[b]
            max_size = max(max_size, size[a])
            new_s = sset[a] | sset[b]
            sset[a] = new_s
            ssize[a] = len(new_s)
            sid[a] = sid_of.setdefault(new_s, len(sid_of))
            members[a] = members[a] + members.pop(b)
            heapq.heappush(heap, (size[a], a))
            if isinstance(ub, _BoundU2):
                if fast:
                    cnt[a] += cnt[b]
                    sm[a] += sm[b]
                    mn[a] = min(mn[a], mn[b])
                    mx[a] = max(mx[a], mx[b])
                    c = sm[a] / cnt[a]
                    dd = max(c - mn[a], mx[a] - c)
                    dbar[a] = dd * dd if ub.squared else dd
                else:
                    dbar[a] = ub.cluster_cost(members[a])
            ca, cb = cfind(comp0[a]), cfind(comp0[b])
            if ca != cb:
                comp_parent[max(ca, cb)] = min(ca, cb)
                n_comp -= 1
            n_cl -= 1
        priv = prob.l0(min(ssize[i] for i in range(n) if active[i]))
        util = util_value()
        reject = stopper.reject(traj.priv[-1], traj.util[-1], priv, util) or not merges
        traj.add(merges, priv, util, n_cl, n_comp)
        if reject:
            traj.rejected = True
            return traj
    traj.rejected = False
    return traj


# ---------------------------------------------------------------------- Algorithm 2, U1
def _alg2_u1(prob: _Problem, stopper: _Stopper) -> _Traj:
    n = prob.n
    ub = prob.ub
    size_rule = 1 if prob.tie_rule == "paper" else 0  # "index": ignore component sizes in ties
    size = np.ones(n, dtype=np.int64)
    active = np.ones(n, dtype=bool)
    comp0 = prob.comp0
    ncomp = prob.n_comp0
    # component structures keyed by component id (= union-find root over original component ids)
    cparent = list(range(ncomp))
    csize = np.bincount(comp0, minlength=ncomp).astype(np.int64).tolist()
    cheap: list[list] = [[] for _ in range(ncomp)]
    for i in range(n):
        cheap[int(comp0[i])].append((1, i))
    for h in cheap:
        heapq.heapify(h)
    cver = [0] * ncomp

    def cfind(c):
        while cparent[c] != c:
            cparent[c] = cparent[cparent[c]]
            c = cparent[c]
        return c

    def ctop(c):
        h = cheap[c]
        while True:
            s, i = h[0]
            if active[i] and size[i] == s:
                return s, i
            heapq.heappop(h)

    gheap = []
    for c in range(ncomp):
        s, i = ctop(c)
        gheap.append((s, -csize[c] * size_rule, i, c, 0))
    heapq.heapify(gheap)

    def gpop():
        while True:
            e = heapq.heappop(gheap)
            if cver[e[3]] == e[4]:
                return e

    max_size = 1
    traj = _Traj(prob.istar(ncomp), ub.value_from_max_size(1), n, ncomp)
    n_cl = n
    while ncomp > 1:
        e1 = gpop()
        e2 = gpop()
        a, b = e1[2], e2[2]
        c1, c2 = e1[3], e2[3]
        # merge clusters
        r, o = (a, b) if a < b else (b, a)
        active[o] = False
        size[r] = size[a] + size[b] if r == a else size[b] + size[a]
        max_size = max(max_size, int(size[r]))
        n_cl -= 1
        # merge components (small-to-large heaps)
        big, small = (c1, c2) if len(cheap[c1]) >= len(cheap[c2]) else (c2, c1)
        hb = cheap[big]
        for ent in cheap[small]:
            heapq.heappush(hb, ent)
        cheap[small] = []
        heapq.heappush(hb, (int(size[r]), r))
        cparent[small] = big
        csize[big] += csize[small]
        cver[big] += 1
        cver[small] += 1
        ncomp -= 1
        priv = prob.istar(ncomp)
        util = ub.value_from_max_size(max_size)
        reject = stopper.reject(traj.priv[-1], traj.util[-1], priv, util)
        traj.add(((a, b),), priv, util, n_cl, ncomp)
        if reject:
            traj.rejected = True
            return traj
        if ncomp > 1:
            s, i = ctop(big)
            heapq.heappush(gheap, (s, -csize[big] * size_rule, i, big, cver[big]))
    traj.rejected = False
    return traj


# ---------------------------------------------------------------------- Algorithm 2, U2 (and generic utilities)
class _PairCosts:
    """d̄(𝒳_i ⊔ 𝒳_j) for a cluster i against all slots j (vectorised for scalar centroid values)."""

    def __init__(self, prob: _Problem):
        ub = prob.ub
        self.ub = ub
        self.n = prob.n
        self.fast = ub.fast
        if self.fast:
            V = ub.V.astype(float)
            self.cnt = np.ones(self.n)
            self.sm = V.copy()
            self.mn = V.copy()
            self.mx = V.copy()
        self.members = {i: [i] for i in range(self.n)}
        self.dbar = np.zeros(self.n) if self.fast else np.array([ub.cluster_cost([i]) for i in range(self.n)])

    def rows(self, idx: np.ndarray, ok: np.ndarray | None = None) -> np.ndarray:
        """Cost matrix (len(idx), n)."""
        if self.fast:
            c = (self.sm[idx, None] + self.sm[None, :]) / (self.cnt[idx, None] + self.cnt[None, :])
            d = np.maximum(c - np.minimum(self.mn[idx, None], self.mn[None, :]), np.maximum(self.mx[idx, None], self.mx[None, :]) - c)
            return d * d if self.ub.squared else d
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
            d = d * d if self.ub.squared else d
        else:
            self.members[r] = self.members[r] + self.members.pop(o)
            d = self.ub.cluster_cost(self.members[r])
        self.dbar[r] = d
        return d


def _alg2_u2(prob: _Problem, stopper: _Stopper) -> _Traj:
    n = prob.n
    pc = _PairCosts(prob)
    active = np.ones(n, dtype=bool)
    comp = prob.comp0.copy()  # current component label of every slot
    ncomp = prob.n_comp0
    bp = np.full(n, -1, dtype=np.int64)
    bq = np.full(n, np.inf)
    ver = np.zeros(n, dtype=np.int64)
    heap: list = []
    dheap = [(-float(pc.dbar[i]), i, 0) for i in range(n)]
    heapq.heapify(dheap)

    def max_dbar():
        while True:
            negd, i, v = dheap[0]
            if active[i] and v == ver[i]:
                return -negd
            heapq.heappop(dheap)

    def recompute(idx: np.ndarray):
        chunk = max(1, 2_000_000 // max(n, 1))
        for s0 in range(0, len(idx), chunk):
            part = idx[s0:s0 + chunk]
            ok = active[None, :] & (comp[None, :] != comp[part, None])
            costs = pc.rows(part, ok if not pc.fast else None)
            q = np.where(ok, _q(costs), np.inf)
            j = np.argmin(q, axis=1)
            qmin = q[np.arange(len(part)), j]
            for i, jj, qq in zip(part.tolist(), j.tolist(), qmin.tolist()):
                bp[i] = jj if qq < np.inf else -1
                bq[i] = qq
                if qq < np.inf:
                    heapq.heappush(heap, (qq, min(i, jj), max(i, jj), i, int(ver[i])))

    recompute(np.arange(n))
    stale = np.zeros(n, dtype=bool)  # cached best partner invalid; the cached key is a lower bound
    traj = _Traj(prob.istar(ncomp), 0.0 - max_dbar(), n, ncomp)
    n_cl = n
    while ncomp > 1:
        while True:
            qq, lo, hi, i, v = heapq.heappop(heap)
            if v != ver[i] or not active[i]:
                continue
            if stale[i]:  # lazy re-evaluation: the true key is >= the cached one
                stale[i] = False
                ver[i] += 1
                recompute(np.array([i]))
                continue
            if bp[i] >= 0 and bq[i] == qq:
                break
        a, b = lo, hi
        r, o = a, b
        A, B = comp[a], comp[b]
        active[o] = False
        stale[o] = False
        ver[o] += 1
        ver[r] += 1
        pc.merge(r, o)
        heapq.heappush(dheap, (-float(pc.dbar[r]), r, int(ver[r])))
        comp[comp == B] = A
        ncomp -= 1
        n_cl -= 1
        priv = prob.istar(ncomp)
        util = 0.0 - max_dbar()
        reject = stopper.reject(traj.priv[-1], traj.util[-1], priv, util)
        traj.add(((a, b),), priv, util, n_cl, ncomp)
        if reject:
            traj.rejected = True
            return traj
        if ncomp == 1:
            break
        # clusters whose cached partner vanished or now lies in their own component become stale;
        # their best over the remaining options is >= the cached key, the new cluster r is the only new option
        bpc = np.where(bp >= 0, comp[np.maximum(bp, 0)], -1)
        newly = active & ~stale & ((bp == a) | (bp == b) | ((comp == A) & (bpc == A)))
        newly[r] = False
        stale |= newly
        row_ok = active & (comp != A)
        costs_r = pc.rows(np.array([r]), row_ok[None, :] if not pc.fast else None)[0]
        q_r = np.where(row_ok, _q(costs_r), np.inf)
        better = row_ok & ((q_r < bq) | ((q_r == bq) & (r < bp)))
        for j in np.flatnonzero(better).tolist():
            ver[j] += 1
            stale[j] = False
            bp[j] = r
            bq[j] = q_r[j]
            heapq.heappush(heap, (float(q_r[j]), min(j, r), max(j, r), j, int(ver[j])))
        # r itself
        stale[r] = False
        recompute(np.array([r]))
    traj.rejected = False
    return traj


# ---------------------------------------------------------------------- Section V-C, problem (10)
def _problem10(prob: _Problem, lam: float) -> _Traj:
    n = prob.n
    ub = prob.ub
    is_u2 = isinstance(ub, _BoundU2)
    pc = _PairCosts(prob) if is_u2 else None
    active = np.ones(n, dtype=bool)
    size = np.ones(n, dtype=np.int64)
    ssz = prob.s_deg.copy()
    comp = prob.comp0.copy()
    ncomp = prob.n_comp0
    n_cl = n

    def util_of(max_size=None, max_d=None):
        return -max_d if is_u2 else ub.value_from_max_size(max_size)

    def cur_util():
        if is_u2:
            return 0.0 - float(pc.dbar[active].max())
        return ub.value_from_max_size(int(size[active].max()))

    traj = _Traj(prob.l0(int(ssz.min())), cur_util(), n, ncomp)
    while ncomp > 1:
        idx = np.flatnonzero(active)
        k = len(idx)
        priv_old, util_old = traj.priv[-1], traj.util[-1]
        # second-order statistics excluding up to two clusters
        s_act = ssz[idx]
        order_s = np.argsort(s_act, kind="stable")[:3]
        small_s = [(int(s_act[p]), int(idx[p])) for p in order_s]
        if is_u2:
            d_act = pc.dbar[idx]
            order_d = np.argsort(-d_act, kind="stable")[:3]
            big_d = [(float(d_act[p]), int(idx[p])) for p in order_d]
        else:
            z_act = size[idx]
            order_z = np.argsort(-z_act, kind="stable")[:3]
            big_z = [(int(z_act[p]), int(idx[p])) for p in order_z]
        best = None
        if not is_u2:
            best = _p10_u1_search(prob, lam, idx, comp, ssz, size, small_s, big_z, priv_old, util_old)
        elif pc.fast:
            best = _p10_block_search(prob, lam, idx, comp, ssz, size, pc, small_s, big_d, priv_old, util_old)
        for p in range(k - 1 if best is None else 0):
            i = int(idx[p])
            js = idx[p + 1:]
            js = js[comp[js] != comp[i]]
            if not len(js):
                continue
            # min |S| of the other clusters (excluding i and j)
            def excl_min(j_arr):
                out = np.full(len(j_arr), np.inf)
                for val, c in reversed(small_s):
                    if c == i:
                        continue
                    out = np.where(j_arr != c, val, out)
                return out
            others_min_s = excl_min(js)
            new_s = ssz[i] + ssz[js]
            min_s_new = np.minimum(others_min_s, new_s)
            priv_new = (math.log(prob.n_s) - np.log(min_s_new)) / prob.lb
            if is_u2:
                cst = pc.rows(np.array([i]), None if pc.fast else np.isin(np.arange(n), js)[None, :])[0][js]
                others_max = np.full(len(js), -np.inf)
                for val, c in reversed(big_d):
                    if c == i:
                        continue
                    others_max = np.where(js != c, val, others_max)
                util_new = 0.0 - np.maximum(others_max, cst)
            else:
                others_max = np.full(len(js), -np.inf)
                for val, c in reversed(big_z):
                    if c == i:
                        continue
                    others_max = np.where(js != c, val, others_max)
                mz = np.maximum(others_max, size[i] + size[js])
                util_new = (math.log(n) - np.log(mz)) / prob.lb
            dl = (priv_new - priv_old) - lam * (util_new - util_old)
            keys_q = _q(dl)
            sums = ssz[i] + ssz[js] if prob.tie_rule == "paper" else np.zeros(len(js), dtype=np.int64)
            # lexicographic (q ΔL, |S1|+|S2|, i, j): i fixed, js increasing
            m = keys_q.min()
            cand = np.flatnonzero(keys_q == m)
            c2 = cand[np.argmin(sums[cand])]  # first = smallest j among the smallest sums
            key = (float(m), int(sums[c2]), i, int(js[c2]))
            if best is None or key < best[0]:
                best = (key, float(priv_new[c2]), float(util_new[c2]))
        (_, _, a, b), priv, util = best
        A, B = comp[a], comp[b]
        active[b] = False
        size[a] += size[b]
        ssz[a] += ssz[b]
        if is_u2:
            pc.merge(a, b)
        comp[comp == B] = A
        ncomp -= 1
        n_cl -= 1
        traj.add(((a, b),), prob.l0(int(ssz[active].min())), cur_util(), n_cl, ncomp)
    traj.rejected = False
    return traj


def _excl(vals_codes, I, J, fill):
    """Per pair (I[k], J[k]): the first (val, code) of ``vals_codes`` whose code is neither I[k] nor J[k]."""
    out = np.full(len(I), fill, dtype=float)
    for val, c in reversed(vals_codes):
        out = np.where((I != c) & (J != c), val, out)
    return out


def _p10_eval_pairs(prob, lam, I, J, ssz, size, pc, small_s, big, priv_old, util_old):
    """Best (key, privacy, utility) of eq. (12) over the candidate pairs I[k] < J[k] (cluster indices)."""
    new_s = ssz[I] + ssz[J]
    min_s_new = np.minimum(_excl(small_s, I, J, np.inf), new_s)
    priv_new = (math.log(prob.n_s) - np.log(min_s_new)) / prob.lb
    if pc is not None:
        c = (pc.sm[I] + pc.sm[J]) / (pc.cnt[I] + pc.cnt[J])
        d = np.maximum(c - np.minimum(pc.mn[I], pc.mn[J]), np.maximum(pc.mx[I], pc.mx[J]) - c)
        if pc.ub.squared:
            d = d * d
        util_new = 0.0 - np.maximum(_excl(big, I, J, -np.inf), d)
    else:
        mz = np.maximum(_excl(big, I, J, -np.inf), size[I] + size[J])
        util_new = (math.log(prob.n) - np.log(mz)) / prob.lb
    dl = (priv_new - priv_old) - lam * (util_new - util_old)
    qd = _q(dl)
    sums = new_s if prob.tie_rule == "paper" else np.zeros(len(I), dtype=np.int64)
    m = qd.min()
    cand = np.flatnonzero(qd == m)
    c0 = cand[np.lexsort((J[cand], I[cand], sums[cand]))[0]]
    return (float(m), int(sums[c0]), int(I[c0]), int(J[c0])), float(priv_new[c0]), float(util_new[c0])


def _better(a, b):
    return b if a is None or (b is not None and b[0] < a[0]) else a


def _p10_block_search(prob, lam, idx, comp, ssz, size, pc, small_s, big, priv_old, util_old):
    """argmin of eq. (12) over all of Ψ, vectorised over blocks of cluster pairs."""
    k = len(idx)
    best = None
    rows_per_block = max(1, 2_000_000 // max(k, 1))
    cidx = comp[idx]
    for r0 in range(0, k - 1, rows_per_block):
        r1 = min(k - 1, r0 + rows_per_block)
        counts = k - 1 - np.arange(r0, r1)
        P = np.repeat(np.arange(r0, r1), counts)
        starts = np.cumsum(counts) - counts
        Q = np.arange(counts.sum()) - np.repeat(starts, counts) + P + 1
        keep = cidx[P] != cidx[Q]
        if keep.any():
            best = _better(best, _p10_eval_pairs(prob, lam, idx[P[keep]], idx[Q[keep]], ssz, size, pc, small_s, big,
                                                 priv_old, util_old))
    return best


def _p10_u1_search(prob, lam, idx, comp, ssz, size, small_s, big, priv_old, util_old):
    """argmin of eq. (12) over Ψ for U1 without enumerating Ψ.

    Pairs touching one of the (at most six) clusters holding the three smallest |S| or three largest
    sizes are evaluated row by row. For every other pair ΔL depends only on (|S| , size) of its two
    clusters, so clusters are grouped by (|S|, size) and each group contributes its lowest-index cluster
    and its lowest-index cluster in another component; the best pair between two groups is among those
    (the pair index is monotone in each member), giving O(|Q| + G^2) work for G groups.
    """
    special = sorted({c for _, c in small_s} | {c for _, c in big})
    I_parts, J_parts = [], []
    cidx = comp[idx]
    for i in special:
        js = idx[(idx != i) & (cidx != comp[i])]
        I_parts.append(np.minimum(js, i))
        J_parts.append(np.maximum(js, i))
    rest = idx[~np.isin(idx, special)]
    first: dict = {}
    second: dict = {}
    for c, sv, zv, cc in zip(rest.tolist(), ssz[rest].tolist(), size[rest].tolist(), comp[rest].tolist()):
        g = (sv, zv)
        f = first.get(g)
        if f is None:
            first[g] = (c, cc)
        elif g not in second and cc != f[1]:
            second[g] = (c, cc)
    reps = [[first[g]] + ([second[g]] if g in second else []) for g in first]
    ci, cj = [], []
    for a in range(len(reps)):
        for b in range(a, len(reps)):
            for (x, cx) in reps[a]:
                for (y, cy) in reps[b]:
                    if x != y and cx != cy:
                        ci.append(min(x, y))
                        cj.append(max(x, y))
    if ci:
        I_parts.append(np.asarray(ci, dtype=np.int64))
        J_parts.append(np.asarray(cj, dtype=np.int64))
    I = np.concatenate(I_parts) if I_parts else np.zeros(0, dtype=np.int64)
    J = np.concatenate(J_parts) if J_parts else np.zeros(0, dtype=np.int64)
    if len(I) == 0:
        return None
    return _p10_eval_pairs(prob, lam, I, J, ssz, size, None, small_s, big, priv_old, util_old)


def _trajectory(prob: _Problem, lam: float | None) -> _Traj:
    """Run the mechanism. ``lam=None`` gives the full λ-free trajectory of Algorithms 1/2."""
    if prob.objective == "L0":
        return _alg1(prob, _Stopper(lam))
    if prob.objective == "I*":
        if isinstance(prob.ub, _BoundU2) or not hasattr(prob.ub, "value_from_max_size"):
            return _alg2_u2(prob, _Stopper(lam))
        return _alg2_u1(prob, _Stopper(lam))
    return _problem10(prob, 0.0 if lam is None else lam)


def _returned_index(prob: _Problem, traj: _Traj, lam: float) -> tuple[int, list[bool]]:
    """Accepted flags and returned t of a λ-run on a (possibly longer) trajectory."""
    if prob.objective == "L0|I*=0":
        return len(traj) - 1, [True] * len(traj)
    acc = [True]
    for t in range(1, len(traj)):
        dl = (traj.priv[t] - traj.priv[t - 1]) - lam * (traj.util[t] - traj.util[t - 1])
        ok = dl < -_DL_TOL and len(traj.merges[t]) > 0
        acc.append(ok)
        if not ok:
            return t - 1, acc
    return len(traj) - 1, acc


def _build_trace(prob: _Problem, traj: _Traj, lam: float, upto: int | None = None) -> MergeTrace:
    returned, acc = _returned_index(prob, traj, lam)
    last = len(acc) - 1 if upto is None else upto
    priv = traj.priv[:last + 1]
    util = traj.util[:last + 1]
    L = [p - lam * u for p, u in zip(priv, util)]
    dL = [float("nan")] + [L[t] - L[t - 1] for t in range(1, len(L))]
    return MergeTrace(
        objective=prob.objective, utility=prob.utility_name, lam=float(lam), public_labels=tuple(prob.labels),
        components0=tuple(prob.comp0.tolist()), step_merges=tuple(traj.merges[:last + 1]), step_privacy=tuple(priv),
        step_utility=tuple(util), step_L=tuple(L), step_delta_L=tuple(dL), step_n_clusters=tuple(traj.ncl[:last + 1]),
        step_n_components=tuple(traj.ncomp[:last + 1]), step_accepted=tuple(acc[:last + 1]), returned=returned,
        base=prob.base, info=prob.info(),
    )


def _result_from_trace(prob: _Problem, trace: MergeTrace, t: int | None = None) -> AgglomerationResult:
    t = trace.returned if t is None else t
    ids = trace.cluster_ids(t)
    groups = _groups(ids)
    return _result_from_groups(prob, groups, trace, float(trace.step_privacy[t]), float(trace.step_utility[t]), trace.lam)


def _result_from_groups(prob, groups, trace, privacy, utility, lam) -> AgglomerationResult:
    labels = prob.labels
    quantization = [frozenset(labels[i] for i in g.tolist()) for g in groups]
    mapping = {}
    for k, g in enumerate(groups):
        cw = prob.ub.codeword(g) if isinstance(prob.ub, _BoundU2) else None
        val = k if cw is None else cw
        for i in g.tolist():
            mapping[labels[i]] = val
    return AgglomerationResult(quantization=quantization, privacy=privacy, utility=utility, mapping=mapping, trace=trace,
                               objective=prob.objective if trace is None else trace.objective,
                               utility_name=prob.utility_name, lam=float(lam), info=prob.info())


# ====================================================================== public API
def agglomerate(jr: JointRange, objective: str, lam: float, utility: Any = "U1", values: Any = None, *,
                search: str = "greedy", base: float = 2, tie_rule: str = "paper", **search_options: Any) -> AgglomerationResult:
    """Quantise X by agglomerative merging (paper 003, Algorithms 1 and 2, Section V-C).

    Parameters
    ----------
    jr : JointRange
        The joint range [[S, X]].
    objective : {"L0", "I*", "L0|I*=0"}
        "L0": Algorithm 1 for problem (3), min L0(S → X̂) - λU; "I*": Algorithm 2 for problem (5),
        min I*(S; X̂) - λU; "L0|I*=0": Section V-C, problem (10) with eqs. (11)-(12) (always returns a
        quantisation with I*(S; X̂) = 0).
    lam : float >= 0
        Lagrange multiplier λ.
    utility : "U1", "U2" or a Utility object (``gp.U1()``, ``gp.U2(values, codeword=..., distance=...)``)
        U1 = I0(X → X̂); U2 = -max distortion (centroid codewords, d = |x - x̂| by default).
    values : mapping public label -> number (or vector), or "labels"
        Public values for U2 (e.g. eq. (4) of paper 003). Every public label needs a number: a range
        built with ``missing="keep"`` has a MISSING label without one -- build it with ``missing="drop"``.
    search : str, default "greedy"
        "greedy" runs the paper's algorithm; any other name is looked up in
        ``graphpriv.mechanisms.search.SEARCHES`` and called with the same arguments plus ``**search_options``.
    base : float, default 2
        Logarithm base of L0, I* and U1 (bits).
    tie_rule : {"paper", "index"}, default "paper"
        "paper": the rules above (they reproduce Examples 2-5). "index": ties of eq. (8) (Algorithm 2,
        U1) and of eq. (12) (Section V-C) go to the lowest pair index only, ignoring component sizes
        resp. |S|𝒳1| + |S|𝒳2|. Other ties are decided by the lowest index under both rules.

    Returns
    -------
    AgglomerationResult
        ``.quantization``, ``.privacy``, ``.utility``, ``.mapping``, ``.transform(column)``, ``.trace``.

    Raises
    ------
    InputError
        Unknown objective or search, λ < 0 or not finite, U2 without values or a label without a value.
    InputTypeError
        Non-numeric values, a utility of the wrong type, jr not a JointRange.

    Examples
    --------
    Paper 003, Example 2 (Algorithm 1, U1, λ = 0.3) and Example 3 (Algorithm 2, U1, λ = 0.3):

    >>> import graphpriv as gp
    >>> jr, values = gp.datasets.paper_example()
    >>> r = gp.agglomerate(jr, "L0", 0.3)
    >>> [round(s.delta_L, 4) for s in r.trace.steps[1:]]
    [-0.5245, -0.4605, -0.7579]
    >>> len(r.quantization)
    1
    >>> r = gp.agglomerate(jr, "I*", 0.3)
    >>> [sorted(c) for c in r.quantization]
    [['x1', 'x3', 'x7'], ['x2', 'x5'], ['x4', 'x6']]
    >>> r.privacy, round(r.utility, 4)        # I* = 0 at U1 = log2(7/3), the Fig. 7 point
    (0.0, 1.2224)
    >>> r = gp.agglomerate(jr, "L0", 2.5, "U2", values)   # Example 2 (U2): returns its Q(1)
    >>> [sorted(c) for c in r.quantization]
    [['x1', 'x2', 'x4'], ['x3', 'x5'], ['x6', 'x7']]
    >>> r.transform(["x1", "x6"], decimals=2)   # centroids, to 2 decimals (labels are text: no precision to infer)
    [0.2, 1.25]
    >>> r1 = gp.agglomerate(jr, "I*", 0.3)
    >>> r1.transform(["x1", "x2", "x3"])            # U1 releases generalisation labels by default
    ['{x1, x3, x7}', '{x2, x5}', '{x1, x3, x7}']

    Side information and quantising Y = (S, X) (end of Section V-C): build the joint range whose
    public labels are the pairs and run the same entry point, e.g. for Y = (S, X)

    >>> df = jr.to_frame()
    >>> jy = gp.JointRange.from_pairs(df.iloc[:, 0], list(zip(df.iloc[:, 0], df.iloc[:, 1])))
    >>> jy.n_public, gp.agglomerate(jy, "I*", 0.0).privacy
    (8, 0.0)

    For an adversary with side information A, pass a :class:`~graphpriv.SideInformationRange` (triples
    (s, x, a)) instead of a JointRange: X alone is quantised and privacy is L0(S → X̂ | A) or
    I*(S; X̂, A) (steepest-descent search, see :mod:`graphpriv.mechanisms.side_information`)

    >>> sir = gp.SideInformationRange.from_triples(["s1", "s2", "s2", "s3"], ["x1", "x1", "x2", "x3"], ["a", "a", "b", "b"])
    >>> r = gp.agglomerate(sir, "I*", 0.1)
    >>> [sorted(c) for c in r.quantization], r.privacy
    ([['x1'], ['x2', 'x3']], 0.0)

    Notes
    -----
    Algorithm 2 keeps components in a union-find; with U1 every component keeps a heap of its clusters
    by (size, index) and a global heap orders components by (smallest cluster size, -component size,
    index), so each iteration costs O(log |X|) amortised (small-to-large heap merges). With U2 every
    cluster caches its best partner in another component; after a merge only the new cluster and the
    clusters whose cached partner vanished or joined their component are recomputed (vectorised over the
    clusters for scalar centroid values). Algorithm 1 costs O(|Q|) vectorised work per cluster in Π.
    Section V-C with U1 evaluates eq. (12) only for pairs touching the (at most six) clusters that hold
    the extreme |S| or sizes, plus one candidate pair per two groups of clusters with equal (|S|, size):
    O(|Q| + G^2) per iteration (2,000 public values in about a second). With U2 every pair of Ψ is
    evaluated, vectorised: O(|Q|^2) per iteration (1,000 public values in about 20 s).
    """
    record_use("agglomerative")  # for gp.cite()
    from .side_information import SideInformationRange, agglomerate_side_information

    if isinstance(jr, SideInformationRange):
        if search != "greedy" or search_options:
            raise InputError("under side information only search='greedy' (steepest descent) is available")
        return agglomerate_side_information(jr, objective, lam, utility, values, base=base)
    if not isinstance(search, str):
        raise InputTypeError(f"search must be a string naming a search method, got {type(search).__name__}")
    if search != "greedy":
        from . import search as _search_mod

        searches = getattr(_search_mod, "SEARCHES", {})
        if search not in searches:
            raise InputError(f"search={search!r} is not available; choose one of {['greedy', *sorted(searches)]}")
        return searches[search](jr, objective, lam, utility=utility, values=values, base=base, **search_options)
    if search_options:
        raise InputError(f"unexpected options {sorted(search_options)} for search='greedy'")
    lam = _check_lam(lam)
    prob = _Problem(jr, objective, utility, values, base)
    prob.tie_rule = _check_tie_rule(tie_rule)
    traj = _trajectory(prob, lam)
    trace = _build_trace(prob, traj, lam)
    return _result_from_trace(prob, trace)


def evaluate_quantization(jr: JointRange, quantization, objective: str, utility: Any = "U1", values: Any = None, *,
                          base: float = 2) -> tuple[float, float]:
    """(privacy, utility) of a quantisation: privacy = L0(S → X̂) ("L0", "L0|I*=0") or I*(S; X̂) ("I*").

    Examples
    --------
    >>> import graphpriv as gp
    >>> jr, _ = gp.datasets.paper_example()
    >>> p, u = gp.evaluate_quantization(jr, [{"x1", "x3", "x7"}, {"x2", "x5"}, {"x4", "x6"}], "I*")
    >>> p, round(u, 4)
    (0.0, 1.2224)
    """
    prob = _Problem(jr, objective, utility, values, base)
    cid = _check_quantization(prob.labels, quantization, jr._x_index)
    groups = _groups(cid)
    return _evaluate_groups(prob, groups)


def _evaluate_groups(prob: _Problem, groups) -> tuple[float, float]:
    util = prob.ub.partition_value(groups)
    if prob.objective == "I*":
        # components of clusters: join the original components inside each cluster
        uf = _UnionFind(prob.n_comp0)
        for g in groups:
            cs = prob.comp0[g].tolist()
            for c in cs[1:]:
                uf.union(cs[0], c)
        ncomp = len({uf.find(c) for c in range(prob.n_comp0)})
        return prob.istar(ncomp), util
    min_s = min(len(set().union(*(prob.sset(i) for i in g.tolist()))) for g in groups)
    return prob.l0(min_s), util


def lagrangian(jr: JointRange, quantization, objective: str, lam: float, utility: Any = "U1", values: Any = None, *,
               base: float = 2) -> float:
    """L(Q, λ) = privacy(Q) - λ·U(Q) (paper 003 sign convention; privacy as in :func:`evaluate_quantization`).

    For ``objective="L0|I*=0"`` this is eq. (11) with λ' → ∞: L0 - λU when I*(S; X̂) = 0, +inf otherwise.

    Examples
    --------
    >>> import graphpriv as gp
    >>> jr, _ = gp.datasets.paper_example()
    >>> q0 = [{x} for x in jr.public_labels]
    >>> q1 = [{"x1", "x2", "x7"}, {"x3", "x5"}, {"x4", "x6"}]
    >>> round(gp.lagrangian(jr, q1, "L0", 0.3) - gp.lagrangian(jr, q0, "L0", 0.3), 4)   # Example 2
    -0.5245
    """
    lam = _check_lam(lam)
    prob = _Problem(jr, objective, utility, values, base)
    cid = _check_quantization(prob.labels, quantization, jr._x_index)
    groups = _groups(cid)
    priv, util = _evaluate_groups(prob, groups)
    if prob.objective == "L0|I*=0":
        prob_i = _Problem(jr, "I*", U1(), None, base)
        istar, _ = _evaluate_groups(prob_i, groups)
        if istar > 0:
            return math.inf
    return priv - lam * util
