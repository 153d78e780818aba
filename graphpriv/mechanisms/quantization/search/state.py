"""Evaluation of partitions for the searches: the problem's measures, and the beam's states and children.

:class:`_Eval` holds one problem (paper 003's objective, utility, λ) with the measures of any partition
(:meth:`_Eval.quick`, pure Python, for the local moves). :class:`_State` is the beam's picture of one
partition: per-cluster arrays (sizes, S-sets, components, value aggregates) and flat per-pair arrays
(|S|𝒳_a ∪ S|𝒳_b|, |a| + |b| or d̄(a ∪ b)) that a merge updates for the merged cluster only, so that
:func:`_children` scores every merge of every state of a depth with a few array operations. A single
sequence of merges (a replay, a trace) uses :class:`graphpriv.Contraction` instead.
"""

from __future__ import annotations

import functools
import math

import numpy as np

from ....ranges import JointRange
from ..problem import _check_lam, _Problem
from ...trace import _groups, _UnionFind
from ...utilities import _BoundU2


# ====================================================================== evaluator
class _Eval:
    """Fast evaluation of privacy, utility and L for partitions of one problem (paper-003 definitions,
    identical to :func:`graphpriv.evaluate_quantization`)."""

    def __init__(self, jr: JointRange, objective: str, lam: float, utility, values, base: float, penalty: float):
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
        # the measures as lookup tables over their integer arguments (same arithmetic as priv_from/util_from)
        with np.errstate(divide="ignore"):
            self.tab_l0 = (self.log_ns - np.log(np.arange(self.n_s + 1, dtype=float))) / self.lb
            self.tab_u1 = (self.log_n - np.log(np.arange(self.n + 1, dtype=float))) / self.lb
            self.tab_istar = np.log(np.arange(self.n + 1)) / self.lb
            self.tab_penalty = self.penalty * np.log(np.arange(self.n + 1)) / self.lb
        self._cost_cache: dict[tuple, float] = {}
        self.carry_pairs = True                        # children inherit their parent's pair arrays

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
    """A partition with per-cluster summaries (clusters ordered by index = smallest member code).

    ``lab[x]`` is the position of code x's cluster. Per-cluster integers ``iv`` (k, 3) hold the size,
    |S|𝒳| and the G_X̂ component; for U2, ``fv`` (k, 5) holds d̄ and (vectorised costs) the count, sum,
    minimum and maximum of the values. Pair quantities of the clusters (filled when the state is first
    expanded, see :meth:`pairs`) are flat arrays in the order of ``np.triu_indices(k, 1)``:
    ``U`` = |S|𝒳_a ∪ S|𝒳_b| and ``Z`` = |a| + |b| (U1) or ``D`` = d̄(a ∪ b) (U2). A merge keeps the pairs
    that do not hold the absorbed cluster (their values do not change) and recomputes only the merged
    cluster's k - 2 pairs: O(|Q|^2) copying, O(|Q| |S|) arithmetic."""

    __slots__ = ("members", "lab", "iv", "fv", "Sb", "U", "Z", "D", "ncomp", "priv", "util", "L", "path")

    # columns of iv and fv
    SIZE, SSZ, COMP = 0, 1, 2
    DBAR, CNT, SUM, MIN, MAX = 0, 1, 2, 3, 4

    @property
    def z(self):
        return self.iv[:, 0]

    @property
    def ssz(self):
        return self.iv[:, 1]

    @property
    def comp(self):
        return self.iv[:, 2]

    @property
    def dbar(self):
        return None if self.fv is None else self.fv[:, 0]

    @classmethod
    def from_members(cls, ev: _Eval, members: list[list[int]], path: tuple = ()) -> "_State":
        st = cls()
        members = sorted((sorted(m) for m in members), key=lambda m: m[0])
        st.members = members
        k = len(members)
        st.lab = np.empty(ev.n, dtype=np.int32)
        for a, m in enumerate(members):
            st.lab[m] = a
        st.Sb = np.array([ev.S[m].any(axis=0) for m in members], dtype=bool).reshape(k, ev.n_s)
        st.U = st.Z = st.D = None
        # components of G_X̂: join the original components inside every cluster
        uf = _UnionFind(int(ev.comp0.max()) + 1)
        for m in members:
            for x in m[1:]:
                uf.union(int(ev.comp0[m[0]]), int(ev.comp0[x]))
        st.iv = np.empty((k, 3), dtype=np.int64)
        st.iv[:, 0] = [len(m) for m in members]
        st.iv[:, 1] = st.Sb.sum(axis=1)
        st.iv[:, 2] = [uf.find(int(ev.comp0[m[0]])) for m in members]
        st.ncomp = len({uf.find(c) for c in range(len(uf.parent))})
        st.fv = None
        if ev.is_u2:
            st.fv = np.zeros((k, 5))
            st.fv[:, 0] = [ev.cost(m) for m in members]
            if ev.fast:
                st.fv[:, 1] = st.iv[:, 0]
                st.fv[:, 2] = [ev.V[m].sum() for m in members]
                st.fv[:, 3] = [ev.V[m].min() for m in members]
                st.fv[:, 4] = [ev.V[m].max() for m in members]
        st.priv = float(ev.priv_from(int(st.ssz.min()), st.ncomp))
        st.util = float(ev.util_from(int(st.z.max()), float(st.dbar.max()) if ev.is_u2 else 0.0))
        st.L = st.priv - ev.lam * st.util
        st.path = tuple(path)
        return st

    def key(self) -> bytes:
        return self.lab.tobytes()

    def _pair_row(self, ev: _Eval, i: int, other: np.ndarray):
        """(U, Z or D) of the pairs (i, b) for the partners b in ``other`` (increasing)."""
        U = (self.Sb[i] | self.Sb).sum(axis=1)[other]
        if not ev.is_u2:
            z = self.iv[:, 0]
            return U, (z[i] + z)[other]
        if ev.fast:
            cnt, sm, mn, mx = self.fv[:, 1], self.fv[:, 2], self.fv[:, 3], self.fv[:, 4]
            c = (sm[i] + sm) / (cnt[i] + cnt)
            d = np.maximum(c - np.minimum(mn[i], mn), np.maximum(mx[i], mx) - c)[other]
            return U, d * d if ev.ub.squared else d
        mem = self.members
        return U, np.array([ev.cost(mem[b] + mem[i]) if b < i else ev.cost(mem[i] + mem[b]) for b in other.tolist()])

    def pairs(self, ev: _Eval) -> "_State":
        """Fill the pair arrays (once per state; children of an expanded state inherit them)."""
        if self.U is None:
            I, J = _triu(len(self.members))
            # |S_a ∪ S_b| by popcounts of 64-bit words (a BLAS product S S^T is as fast when warm, but a
            # single cold call wakes the BLAS threads: 7-8 ms of CPU at |X| = 153 on a 2-core machine)
            self.U = _union_counts(_words(self.Sb), I, J)
            if not ev.is_u2:
                z = self.iv[:, 0]
                self.Z = z[I] + z[J]
            elif ev.fast:
                cnt, sm, mn, mx = self.fv[:, 1], self.fv[:, 2], self.fv[:, 3], self.fv[:, 4]
                c = (sm[I] + sm[J]) / (cnt[I] + cnt[J])
                d = np.maximum(c - np.minimum(mn[I], mn[J]), np.maximum(mx[I], mx[J]) - c)
                self.D = d * d if ev.ub.squared else d
            else:
                mem = self.members
                self.D = np.array([ev.cost(mem[a] + mem[b]) for a, b in zip(I.tolist(), J.tolist())])
        return self

    def child_lab(self, i: int, j: int) -> np.ndarray:
        lab = self.lab.copy()
        lab[lab == j] = i
        lab[lab > j] -= 1
        return lab

    def merge(self, ev: _Eval, i: int, j: int, priv: float, util: float, lab: np.ndarray | None = None) -> "_State":
        """Child state merging cluster positions i < j."""
        st = _State()
        k = len(self.members)
        mi = sorted(self.members[i] + self.members[j])
        st.members = self.members[:i] + [mi] + self.members[i + 1:j] + self.members[j + 1:]
        st.lab = self.child_lab(i, j) if lab is None else lab
        st.Sb = Sb = _drop(self.Sb, j)
        Sb[i] |= self.Sb[j]
        ai, aj = self.iv[i].tolist(), self.iv[j].tolist()
        st.iv = iv = _drop(self.iv, j)
        comp = iv[:, 2]
        if ai[2] != aj[2]:
            comp[comp == aj[2]] = ai[2]
            st.ncomp = self.ncomp - 1
        else:
            st.ncomp = self.ncomp
        iv[i, 0] = ai[0] + aj[0]
        iv[i, 1] = int(Sb[i].sum())
        st.fv = None
        if ev.is_u2:
            st.fv = fv = _drop(self.fv, j)
            if ev.fast:
                fi, fj = self.fv[i].tolist(), self.fv[j].tolist()
                cnt, sm, mn, mx = fi[1] + fj[1], fi[2] + fj[2], min(fi[3], fj[3]), max(fi[4], fj[4])
                c = sm / cnt
                d = max(c - mn, mx - c)
                fv[i] = (d * d if ev.ub.squared else d, cnt, sm, mn, mx)
            else:
                fv[i, 0] = ev.cost(mi)
        st.U = st.Z = st.D = None
        if self.U is not None and ev.carry_pairs:
            # pairs without j keep their values (triu order survives deleting j); rewrite i's pairs
            kp = _pairs_without(k, j)
            pos, other = _partner_pos(k - 1, i)
            st.U = self.U[kp]
            U_row, V_row = st._pair_row(ev, i, other)
            st.U[pos] = U_row
            if ev.is_u2:
                st.D = self.D[kp]
                st.D[pos] = V_row
            else:
                st.Z = self.Z[kp]
                st.Z[pos] = V_row
        st.priv, st.util = priv, util
        st.L = priv - ev.lam * util
        st.path = self.path + ((self.members[i][0], self.members[j][0]),)
        return st


def _clusters(n: int, merges) -> list[list[int]]:
    """Clusters (lists of codes) after merging the clusters of the code pairs ``merges`` from the singletons."""
    uf = _UnionFind(n)
    for a, b in merges:
        uf.union(a, b)
    return [g.tolist() for g in _groups(np.array([uf.find(x) for x in range(n)]))]


# ---------------------------------------------------------------------- scoring every child of a depth
_TRIU: dict[int, tuple[np.ndarray, np.ndarray, np.ndarray]] = {}


def _triu(k: int) -> tuple[np.ndarray, np.ndarray]:
    """Pairs (a, b), a < b, of k clusters in flat order (cached)."""
    if k not in _TRIU:
        I, J = np.triu_indices(k, 1)
        _TRIU[k] = (I, J, np.arange(k - 1, -1, -1))
    return _TRIU[k][:2]


def _at_pairs(vals: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """vals (W, k) read at the first and at the second cluster of every pair of :func:`_triu` (W, P)."""
    k = vals.shape[1]
    I, J = _triu(k)
    return np.repeat(vals, _TRIU[k][2], axis=1), np.take(vals, J, axis=1)


def _words(Sb: np.ndarray) -> np.ndarray:
    """Boolean S-sets (..., |S|) as 64-bit words (..., ceil(|S| / 64)), bit t of word q = member 64 q + t."""
    by = np.packbits(Sb, axis=-1, bitorder="little")
    pad = -by.shape[-1] % 8
    if pad:
        by = np.concatenate((by, np.zeros(by.shape[:-1] + (pad,), dtype=np.uint8)), axis=-1)
    return np.ascontiguousarray(by).view(np.uint64)


def _popcount(words: np.ndarray) -> np.ndarray:
    """Set sizes (int64) of bit sets stored along the last axis (the 64-bit words of :func:`_words`, or bytes)."""
    u = np.bitwise_count(words)
    return (u[..., 0] if u.shape[-1] == 1 else u.sum(axis=-1)).astype(np.int64)


def _union_counts(wd: np.ndarray, a, b) -> np.ndarray:
    """|S_a ∪ S_b| (int64) for index arrays a, b into the first axes of the words ``wd`` of :func:`_words`."""
    return _popcount(wd[a] | wd[b])


def _pos(k: int, a, b):
    """Flat position of the pair (a, b), a < b, among the k (k - 1) / 2 pairs of :func:`_triu`."""
    return a * (2 * k - a - 1) // 2 + (b - a - 1)


def _drop(a: np.ndarray, j: int) -> np.ndarray:
    """A copy of ``a`` without row j."""
    return np.concatenate((a[:j], a[j + 1:]))


@functools.lru_cache(maxsize=1024)
def _pairs_without(k: int, j: int) -> np.ndarray:
    """Mask over the pairs of k clusters: True for the pairs that do not hold cluster j."""
    kp = np.ones(k * (k - 1) // 2, dtype=bool)
    kp[_partner_pos(k, j)[0]] = False
    return kp


def _partner_pos(k: int, o):
    """For cluster position(s) ``o`` (scalar or (W,) array): the flat positions of the pairs (o, b) for every
    b != o, and the partners b, in increasing b (shape (k - 1,) or (W, k - 1))."""
    if np.ndim(o) == 0:
        return _partner_pos_one(k, int(o))
    o = np.asarray(o)
    r = np.arange(k - 1)
    other = r + (r >= o[..., None])
    lo, hi = np.minimum(other, o[..., None]), np.maximum(other, o[..., None])
    return _pos(k, lo, hi), other


@functools.lru_cache(maxsize=4096)
def _partner_pos_one(k: int, o: int):
    other = np.delete(np.arange(k), o)
    lo, hi = np.minimum(other, o), np.maximum(other, o)
    return _pos(k, lo, hi), other


def _with_excl(vals: np.ndarray, pair: np.ndarray, largest: bool) -> np.ndarray:
    """For every state w (rows of ``vals``, shape (W, k)) and pair p = (a, b) of :func:`_triu`: the min
    (or max) of ``pair[w, p]`` and of vals[w] over the clusters other than a and b.

    Only the pairs that contain a state's extreme cluster see anything but that extreme, so the result
    is one broadcast min/max plus a fix-up of k - 1 pairs per state."""
    W, k = vals.shape
    order = np.argsort(-vals if largest else vals, axis=1, kind="stable")[:, :3]
    v = np.take_along_axis(vals, order, axis=1)
    out = np.maximum(pair, v[:, :1]) if largest else np.minimum(pair, v[:, :1])
    if k == 2:                                   # the only pair holds both clusters: nothing else to compare
        out[:] = pair
        return out
    pos, other = _partner_pos(k, order[:, 0])    # pairs holding the extreme cluster o0
    ex = np.where(other == order[:, 1:2], v[:, 2:3], v[:, 1:2])   # the pair (o0, o1) leaves the third value
    rows = np.arange(W)[:, None]
    out[rows, pos] = np.maximum(pair[rows, pos], ex) if largest else np.minimum(pair[rows, pos], ex)
    return out


def _children(ev: _Eval, states: list) -> dict | None:
    """Scores of every merge of every state of a depth (all states have k clusters), vectorised.

    Returns flat arrays over (state, pair) in the order state-major, pairs as in :func:`_triu`:
    ``ok`` (admissible merge; None: all are), ``priv``, ``util``, ``L``, ``score``, ``ncomp`` (None for L0),
    ``at_min`` (None for I*; for L0 only meaningful where ``ok``), and k; or None when no merge is admissible.
    """
    k = len(states[0].members)
    if k < 2:
        return None
    W = len(states)
    for st in states:
        st.pairs(ev)
    iv = np.stack([st.iv for st in states])                                 # (W, k, 3)
    ssz = iv[:, :, 1]
    new_s = np.stack([st.U for st in states])                                # (W, P) |S_a ∪ S_b|
    P = new_s.shape[1]
    nc = np.array([st.ncomp for st in states])
    ncomp = ok = cross = None
    if ev.objective != "L0":
        if (nc == 1).all():                     # one component: no merge joins two
            ncomp = np.ones((W, P), dtype=np.int64)
        else:
            cI, cJ = _at_pairs(np.ascontiguousarray(iv[:, :, 2]))
            cross = cI != cJ
            ncomp = nc[:, None] - cross
    if ev.objective == "I*":
        ok = cross if cross is not None else np.zeros((W, P), dtype=bool)     # Ψ: different components
        if not ok.any():
            return None
        priv = ev.tab_istar[ncomp]
    else:
        # min over the clusters after the merge of |S|𝒳|: |S_a ∪ S_b| >= |S_a|, |S_b| >= the state's minimum m0,
        # so every pair sees m0 except the pairs holding the cluster at the minimum (fixed up below)
        order = np.argsort(ssz, axis=1, kind="stable")[:, :3]
        v = np.take_along_axis(ssz, order, axis=1)
        m0 = v[:, 0]
        rows = np.arange(W)[:, None]
        flag = (ssz == m0[:, None]).view(np.int8)
        fI, fJ = _at_pairs(flag)
        if ev.objective == "L0":
            # Φ: different S-sets; |S_a ∪ S_b| equals both |S_a| and |S_b| only for equal sets, which is
            # 2 |S_a ∪ S_b| = |S_a| + |S_b| (else it exceeds the larger of the two)
            sI, sJ = _at_pairs(ssz)
            ok = 2 * new_s > sI + sJ
            if not ok.any():
                return None
        c0 = flag.sum(axis=1, dtype=np.int64)
        at_min = c0[:, None] - fI - fJ                                        # pairs that see m0
        if ev.objective != "L0":                                              # (for L0 only equal sets reach m0)
            at_min += new_s == m0[:, None]
        priv = np.repeat(ev.tab_l0[m0], P).reshape(W, P)
        if k > 2:
            pos, other = _partner_pos(k, order[:, 0])                         # pairs holding the minimum cluster
            ex = np.where(other == order[:, 1:2], v[:, 2:3], v[:, 1:2])
            ms = np.minimum(new_s[rows, pos], ex)
        else:
            pos, other = np.zeros((W, 1), dtype=np.int64), order[:, 1:2]
            ms = new_s[:, :1].copy()
        priv[rows, pos] = ev.tab_l0[ms]
        # the count at the new minimum of the pairs holding the minimum cluster, as in the general formula
        width = ev.n_s + 2
        cnt_s = np.bincount((ssz + width * np.arange(W)[:, None]).ravel(), minlength=W * width)
        eq = cnt_s[ms + width * np.arange(W)[:, None]]
        s_o = np.take_along_axis(ssz, order[:, :1], axis=1)
        s_b = np.take_along_axis(ssz, other, axis=1)
        at_min[rows, pos] = eq - (s_o == ms) - (s_b == ms) + (new_s[rows, pos] == ms)
    if ev.is_u2:
        util = -_with_excl(np.stack([st.fv[:, 0] for st in states]), np.stack([st.D for st in states]), largest=True)
    else:
        # |a| + |b| exceeds every cluster it replaces, so the largest cluster after the merge is max(|a| + |b|, max z)
        Z = np.stack([st.Z for st in states])
        util = ev.tab_u1[np.maximum(Z, iv[:, :, 0].max(axis=1)[:, None])]
    L = priv - ev.lam * util
    if ev.objective == "I*":
        at_min = None
    score = L + ev.tab_penalty[ncomp] if ev.objective == "L0|I*=0" else L
    return {"k": k, "ok": None if ok is None else ok.ravel(), "priv": priv.ravel(), "util": util.ravel(), "L": L.ravel(),
            "score": score.ravel(), "ncomp": None if ncomp is None else ncomp.ravel(),
            "at_min": None if at_min is None else at_min.ravel()}


def _first_group(idx: np.ndarray, primary: np.ndarray, secondary: np.ndarray, largest_secondary: bool = False) -> np.ndarray:
    """Mask over positions ``idx`` (increasing) of those with the smallest ``primary`` and, among them, the
    smallest (largest) ``secondary``: the first group of the lexicographic order (primary, secondary, index)."""
    p = primary[idx]
    m = p == p.min()
    s = secondary[idx]
    best = s[m].max() if largest_secondary else s[m].min()
    return m & (s == best)


def _smallest3(vals: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Per state (rows of ``vals``, (W, k), k >= 3): the positions of the three smallest values (stable
    order) and the values."""
    order = np.argsort(vals, axis=1, kind="stable")[:, :3]
    return order, np.take_along_axis(vals, order, axis=1)


def _excl_at(order: np.ndarray, v: np.ndarray, w: np.ndarray, a: np.ndarray, b: np.ndarray) -> np.ndarray:
    """The smallest value over the clusters other than a and b of state w, from :func:`_smallest3`."""
    o0, o1 = order[w, 0], order[w, 1]
    first = (o0 != a) & (o0 != b)
    second = (o1 != a) & (o1 != b)
    return np.where(first, v[w, 0], np.where(second, v[w, 1], v[w, 2]))


def _score_pairs(ev: _Eval, states: list, pos: list) -> dict:
    """Scores of the merges ``pos[w]`` (increasing flat pair positions of :func:`_triu`) of every state w,
    with the same arithmetic as :func:`_children` (the same floats for every child), as flat arrays in the
    order (state, position). Objectives "L0" and "L0|I*=0", utility U1. Returns the arrays of :func:`_children`
    plus ``w``, ``i``, ``j`` (the state and the merged cluster positions of every child)."""
    k = len(states[0].members)
    I, J = _triu(k)
    w = np.repeat(np.arange(len(states)), [len(q) for q in pos])
    p = np.concatenate(pos)
    a, b = I[p], J[p]
    iv = np.stack([st.iv for st in states])                                 # (W, k, 3)
    ssz = iv[:, :, 1]
    # the pair quantities of :meth:`_State.pairs`, for these pairs only (same arithmetic, same values)
    Sp = np.packbits(np.stack([st.Sb for st in states]), axis=2)              # (W, k, bytes)
    U = _popcount(Sp[w, a] | Sp[w, b])
    sa, sb = ssz[w, a], ssz[w, b]
    nc = np.array([st.ncomp for st in states])
    if ev.objective != "L0" and (nc > 1).any():
        comp = iv[:, :, 2]
        cross = comp[w, a] != comp[w, b]
        ncomp = nc[w] - cross
    else:
        ncomp = nc[w]
    ok = 2 * U > sa + sb if ev.objective == "L0" else None
    order, v = _smallest3(ssz)
    ms = np.minimum(U, _excl_at(order, v, w, a, b)).astype(np.int64)
    priv = ev.tab_l0[ms]
    width = ev.n_s + 2
    W = len(states)
    cnt_s = np.bincount((ssz + width * np.arange(W)[:, None]).ravel(), minlength=W * width)
    at_min = cnt_s[ms + width * w] - (sa == ms) - (sb == ms) + (U == ms)
    util = ev.tab_u1[np.maximum(iv[w, a, 0] + iv[w, b, 0], iv[:, :, 0].max(axis=1)[w])]
    L = priv - ev.lam * util
    score = L + ev.tab_penalty[ncomp] if ev.objective == "L0|I*=0" else L
    return {"k": k, "ok": ok, "priv": priv, "util": util, "L": L, "score": score,
            "ncomp": ncomp if ev.objective != "L0" else None, "at_min": at_min, "w": w, "i": a, "j": b}
