"""The beam's depths for problems (3) and (10) of paper 003, all states of a depth in one batch.

Ding & Farokhi, *Developing Non-Stochastic Privacy-Preserving Policies Using Agglomerative Clustering*:
the beam of :func:`graphpriv.mechanisms.search.beam_search` minimises L = L0(S → X̂) - λ U (problem (3))
or ranks by L + penalty · I*(S; X̂) and keeps I* = 0 (problem (10), eq. (11)). Here the W states of a depth
live in one set of arrays (:class:`_Batch`), so a depth costs a fixed number of array operations (about
150 NumPy calls) for all its states together, instead of some hundred per state.

What is exact and what is pruned
--------------------------------
A depth with at most ``prune_above`` clusters scores every merge of every state (:func:`_all_pairs`). Every
child is scored with the arithmetic of the per-state depth (:func:`state._children`, :func:`state._score_pairs`:
the same privacy, utility, L, score and bottleneck count, to the bit) and picked as
:func:`~graphpriv.mechanisms.search._select` picks: the ``width`` best distinct partitions by (score rounded
to 1e-12, clusters at the bottleneck min |S|𝒳|, flat pair index), then up to ``pareto`` children along
the depth's (privacy, utility) front; the best feasible child is a candidate and the branch-and-bound cut
is the same. Distinct partitions are told apart by a 64-bit hash (:func:`_hash`) instead of the label
arrays. The reference tests check that this gives the first implementation's beam (same
quantisation, L, winner and trace) on random ranges up to 40 public values and on the Hungarian data with
every depth exhaustive.

A depth with more clusters expands each state only by a candidate set (:func:`_candidates`); the other
children are pruned:

* U1: the exhaustive order puts first the merges that keep the largest cluster at its lowest possible
  level, then those that shrink the bottleneck count, then index order. Candidates are the merges among
  the first ``_T`` clusters (index order) that can merge at that level, the first ``_F`` bottleneck
  clusters that can merge at the lowest level of two bottleneck clusters, and the smallest cluster of
  another component of G_X̂ (problem (10)), and the first ``_ROWS`` of those bottleneck clusters with the
  next ``_P`` - ``_F``;
* U2 (scalar values, centroid codewords): the merges of clusters within ``_R`` places of each other in
  centroid order (merging clusters far apart in value raises the largest distortion), and the merges
  among the first ``_F`` bottleneck clusters;
* both: every merge of the bottleneck clusters once at most two are left (the next merge of one of them
  can raise L0).

The candidate sets were chosen by checking which children the exhaustive beam picks on the Hungarian data
(L0, U1, λ = 0.3: 28 of 479 picks above 40 clusters fall outside the U1 sets). The result stays a
candidate of :func:`~graphpriv.mechanisms.search.beam_search` next to the greedy prefix and the capped
greedy, so it is never worse than greedy (the search tests check that, and that the returned L is the L
of the returned quantisation recomputed from scratch).
"""

from __future__ import annotations

import functools

import numpy as np

from .state import _clusters, _Eval, _popcount, _State, _triu, _words

#: Candidate-set sizes of a pruned depth (U1): bottleneck clusters paired with each other and with the
#: smallest clusters, smallest clusters (both first in index order among those that merge at the lowest
#: level), further bottleneck partners of the first rows; U2: neighbours in centroid order.
_F, _T, _P, _ROWS, _R = 4, 16, 16, 2, 2

_TOL = 1e-12
_BIG = np.iinfo(np.int64).max // 4
Z, S, COMP, FIRST, KEY, WD = 0, 1, 2, 3, 4, 5   # planes of _Batch.X (WD.. : the S-set words)
DBAR, CNT, SUM, MIN, MAX = 0, 1, 2, 3, 4        # planes of _Batch.agg
_U64 = np.uint64


class _Batch:
    """The W states of one depth (k clusters each) as arrays. ``X`` (5 + words, W, k), int64 planes per
    cluster: size, |S|𝒳|, G_X̂ component, first member code, key (sum of fixed random code keys, the bits of
    a uint64) and the S-set as 64-bit words (bits of uint64); for U2 ``agg`` (5, W, k) = planes of d̄,
    count, sum, min and max of the values; per state the partition hash ``h`` (uint64), ``nc``
    (components of G_X̂), ``priv``, ``util``, ``L`` and the merge path."""

    __slots__ = ("X", "h", "agg", "nc", "priv", "util", "L", "paths")

    @classmethod
    def from_state(cls, st: _State) -> "_Batch":
        b = cls()
        k = len(st.members)
        wd = _words(st.Sb)
        X = np.empty((WD + wd.shape[1], 1, k), dtype=np.int64)
        X[:3, 0] = st.iv.T
        X[FIRST, 0] = [m[0] for m in st.members]
        rnd = _code_keys(len(st.lab))
        X[KEY, 0] = np.array([rnd[m].sum(dtype=_U64) for m in st.members], dtype=_U64).view(np.int64)
        X[WD:, 0] = wd.view(np.int64).T
        b.X = X
        # the hash: the sum, over the pairs of codes in one cluster, of the products of their keys (mod 2^64)
        r = rnd.tolist()
        b.h = np.array([sum(r[x] * r[y] for m in st.members for i, x in enumerate(m) for y in m[i + 1:]) % 2**64],
                       dtype=_U64)
        b.agg = None if st.fv is None else np.ascontiguousarray(st.fv.T[:, None, :])
        b.nc = np.array([st.ncomp], dtype=np.int64)
        b.priv, b.util, b.L = np.array([st.priv]), np.array([st.util]), np.array([st.L])
        b.paths = [st.path]
        return b


@functools.lru_cache(maxsize=8)
def _code_keys(n: int) -> np.ndarray:
    """Fixed pseudo-random odd 64-bit keys of the codes: a cluster's key is the sum of its codes' keys."""
    return np.random.default_rng(20261126).integers(0, 2**62, size=n, dtype=np.uint64) * np.uint64(2) + np.uint64(1)


def _to_state(ev: _Eval, path: tuple, priv: float, util: float) -> _State:
    """The partition reached by ``path`` as a :class:`_State` with the beam's privacy and utility."""
    st = _State.from_members(ev, _clusters(ev.n, path), path)
    st.priv, st.util = priv, util
    st.L = priv - ev.lam * util
    return st


def usable(ev: _Eval) -> bool:
    """Problems (3) and (10) with U1 or U2 on scalar values (vectorised distortions)."""
    return ev.objective != "I*" and (not ev.is_u2 or ev.fast)


@functools.lru_cache(maxsize=64)
def _pairs_of(c: int):
    return np.triu_indices(c, 1)


@functools.lru_cache(maxsize=256)
def _template(nf: int, nt: int, extra: bool):
    """Column pairs (p, q) of the U1 candidate columns [first bottleneck clusters (nf), first clusters at
    the lowest level (nt), another component's smallest cluster (if ``extra``)]: all pairs among the first
    ``_F`` bottleneck clusters, the level clusters and the extra one, and the first ``_ROWS`` bottleneck
    clusters with the further ones."""
    F = min(_F, nf)
    core = list(range(F)) + list(range(nf, nf + nt)) + ([nf + nt] if extra else [])
    pairs = [(core[i], core[j]) for i in range(len(core)) for j in range(i + 1, len(core))]
    pairs += [(i, j) for i in range(min(_ROWS, F)) for j in range(F, nf)]
    return np.array([x for x, _ in pairs], dtype=np.int64), np.array([y for _, y in pairs], dtype=np.int64)


@functools.lru_cache(maxsize=256)
def _all_pairs(W: int, k: int):
    """Every merge of W states of k clusters in flat order (state, pair of :func:`state._triu`)."""
    I, J = _triu(k)
    P = len(I)
    return np.repeat(np.arange(W), P), np.tile(I, W), np.tile(J, W)


#: rows of the per-state table of :func:`_summary`
O0, O1, V0, V1, V2, ZMAX, NC, CB, OD0, OD1 = range(10)


def _summary(ev: _Eval, b: _Batch) -> dict:
    """Per state: a table ``T`` (rows O0, O1: positions of the two smallest |S|𝒳| in stable order; V0-V2:
    the three smallest values; ZMAX: the largest cluster; NC: components; CB: the state's offset in the
    counts ``cnt`` of the |S|𝒳| values; U2: OD0, OD1 the positions of the two largest d̄, and ``VD`` the
    three largest d̄), the bottleneck flags and counts. k < 3 pads with position -1 and value +inf."""
    s = b.X[S]
    W, k = s.shape
    width = ev.n_s + 2
    T = np.empty((10 if ev.is_u2 else 8, W), dtype=np.int64)
    o = s.argsort(axis=1, kind="stable")[:, :3]
    v = s[np.arange(W)[:, None], o]
    m = min(k, 3)
    T[O0:O0 + min(k, 2)] = o[:, :2].T
    T[V0:V0 + m] = v.T
    if k < 3:
        T[V0 + m:V2 + 1] = _BIG
        if k < 2:
            T[O1] = -1
    T[ZMAX] = b.X[Z].max(axis=1)
    T[NC] = b.nc
    T[CB] = width * np.arange(W)
    cnt = np.bincount((s + T[CB][:, None]).ravel(), minlength=W * width)
    flag = s == v[:, :1]
    out = {"T": T, "cnt": cnt, "flag": flag, "c0": cnt[v[:, 0] + T[CB]]}
    if ev.is_u2:
        d = b.agg[DBAR]
        od = (-d).argsort(axis=1, kind="stable")[:, :3]
        vd = np.full((3, W), -np.inf)
        vd[:m] = d[np.arange(W)[:, None], od].T
        T[OD0:OD0 + min(k, 2)] = od[:, :2].T
        out["VD"] = vd
    return out


def _candidates(ev: _Eval, b: _Batch, sm: dict):
    """Candidate merges of every state of a pruned depth: arrays (w, a, c), a < c, sorted by (w, a, c) (the
    order of the flat pair index); repeats are possible. Slots of the candidate
    template that hold no candidate (a cluster paired with itself, a bottleneck slot past the bottleneck
    clusters) are dropped here, before scoring: a pair a = c would be scored as a cluster of twice its size."""
    W, k = b.X.shape[1:]
    flag, c0 = sm["flag"], sm["c0"]
    rows = np.arange(W)[:, None]
    if not ev.is_u2:
        # the exhaustive order puts first the merges at the lowest level of the largest cluster, then by
        # bottleneck count and index: candidates are the clusters first in index order that can merge at
        # that level (for the bottleneck clusters: at the lowest level of two bottleneck clusters)
        z = b.X[Z]
        zmax = sm["T"][ZMAX][:, None]
        two = np.partition(z, 1, axis=1)[:, :2]
        free = z + two[:, :1] <= np.maximum(zmax, two[:, :1] + two[:, 1:])
        twof = np.partition(np.where(flag, z, _BIG), 1, axis=1)[:, :2]
        ffree = flag & (z + twof[:, :1] <= np.maximum(zmax, twof[:, :1] + twof[:, 1:]))
        fo = (~ffree).argsort(axis=1, kind="stable")[:, :max(_F, _P)]
        t = (~free).argsort(axis=1, kind="stable")[:, :_T]
        cols, valid = [fo, t], [ffree[rows, fo], free[rows, t]]
        extra = ev.objective != "L0" and bool((b.nc > 1).any())
        if extra:                                                        # the smallest cluster of another component
            comp = b.X[COMP]
            other = comp != comp[rows, t[:, :1]]
            x = np.argmin(np.where(other, z, _BIG), axis=1)[:, None]
            cols.append(x)
            valid.append(other[rows, x])
        C = np.concatenate(cols, axis=1)
        V = np.concatenate(valid, axis=1)
        p, q = _template(fo.shape[1], t.shape[1], extra)
        A, B, ok = C.take(p, axis=1), C.take(q, axis=1), V.take(p, axis=1) & V.take(q, axis=1)
    else:
        fo = (~flag).argsort(axis=1, kind="stable")[:, :_F]            # first bottleneck clusters
        fv = flag[rows, fo]
        o = (b.agg[SUM] / b.agg[CNT]).argsort(axis=1, kind="stable")   # centroid order
        pa, pb = [], []
        for d in range(1, min(_R, k - 1) + 1):
            pa.append(o[:, :-d])
            pb.append(o[:, d:])
        p, q = _pairs_of(fo.shape[1])
        pa.append(fo[:, p])
        pb.append(fo[:, q])
        A, B = np.concatenate(pa, axis=1), np.concatenate(pb, axis=1)
        ok = np.concatenate((np.ones((W, A.shape[1] - len(p)), dtype=bool), fv[:, p] & fv[:, q]), axis=1)
    few = (c0 <= 2).nonzero()[0]
    if few.size:                                                         # every merge of the bottleneck clusters
        f2 = np.argsort(~flag[few], axis=1, kind="stable")[:, :2]
        A3 = np.full((W, 2 * k), 0)
        B3 = np.full((W, 2 * k), 0)
        ok3 = np.zeros((W, 2 * k), dtype=bool)
        A3[few] = np.repeat(f2, k, axis=1)
        B3[few] = np.tile(np.arange(k), 2)
        ok3[few] = np.repeat(flag[few[:, None], f2], k, axis=1)
        A, B, ok = np.concatenate((A, A3), axis=1), np.concatenate((B, B3), axis=1), np.concatenate((ok, ok3), axis=1)
    w = np.repeat(np.arange(W), A.shape[1])
    a, c = np.minimum(A, B).ravel(), np.maximum(A, B).ravel()
    keep = ok.ravel() & (a != c)
    w, a, c = w[keep], a[keep], c[keep]
    g = (w * k + a) * k + c                                              # the order of the flat pair index
    o = g.argsort(kind="stable")                                         # candidates in index order
    return w[o], a[o], c[o]


def _score(ev: _Eval, b: _Batch, sm: dict, w, a, c) -> dict:
    """Scores of the merges (w, a, c) with the arithmetic of :func:`state._score_pairs` (U1) and
    :func:`state._children` (U2): the same privacy, utility, L, score and bottleneck count. The smallest
    |S|𝒳| over the clusters other than a and c is the first of the state's three smallest whose cluster is
    neither (the largest d̄ likewise)."""
    NP, W, k = b.X.shape
    fa, fc = w * k + a, w * k + c                       # flat cluster indices
    Xf = b.X.reshape(NP, W * k)
    Xa, Xc = Xf.take(fa, axis=1), Xf.take(fc, axis=1)
    T = sm["T"].take(w, axis=1)
    U = _popcount((Xa[WD:] | Xc[WD:]).view(_U64).T)    # the S-set words are planes: one row per merge
    sa, sc = Xa[S], Xc[S]
    o0, o1 = T[O0], T[O1]
    hit0, hit1 = (a == o0) | (c == o0), (a == o1) | (c == o1)
    ms = np.minimum(U, np.where(hit0, np.where(hit1, T[V2], T[V1]), T[V0]))
    priv = ev.tab_l0[ms]
    at_min = sm["cnt"][ms + T[CB]] - (sa == ms) - (sc == ms) + (U == ms)
    ncomp = T[NC] - (Xa[COMP] != Xc[COMP]) if ev.objective != "L0" else None
    zz = Xa[Z] + Xc[Z]
    merged = None
    if ev.is_u2:
        Af = b.agg.reshape(5, W * k)
        Aa, Ac = Af.take(fa, axis=1), Af.take(fc, axis=1)
        cnt, sums = Aa[CNT] + Ac[CNT], Aa[SUM] + Ac[SUM]
        mn, mx = np.minimum(Aa[MIN], Ac[MIN]), np.maximum(Aa[MAX], Ac[MAX])
        cen = sums / cnt
        d = np.maximum(cen - mn, mx - cen)
        D = d * d if ev.ub.squared else d
        vd = sm["VD"].take(w, axis=1)
        od0, od1 = T[OD0], T[OD1]
        h0, h1 = (a == od0) | (c == od0), (a == od1) | (c == od1)
        util = -np.maximum(D, np.where(h0, np.where(h1, vd[2], vd[1]), vd[0]))
        merged = (D, cnt, sums, mn, mx)
    else:
        util = ev.tab_u1[np.maximum(zz, T[ZMAX])]
    L = priv - ev.lam * util
    score = L + ev.tab_penalty[ncomp] if ev.objective == "L0|I*=0" else L
    return {"U": U, "ok": 2 * U > sa + sc if ev.objective == "L0" else None, "ncomp": ncomp, "priv": priv,
            "util": util, "L": L, "score": score, "at_min": at_min, "merged": merged, "zz": zz, "Xa": Xa, "Xc": Xc}


def _hash(b: _Batch, w, ch: dict, e: np.ndarray) -> np.ndarray:
    """Hashes of the partitions of the children ``e`` (indices into the candidate arrays): merging clusters
    with keys ka and kc adds the products of their codes' keys across, ka · kc (mod 2^64)."""
    return b.h[w[e]] + ch["Xa"][KEY][e].view(_U64) * ch["Xc"][KEY][e].view(_U64)


def _pick(ev: _Eval, b: _Batch, w, ch: dict, alive: np.ndarray, width: int, pareto: int) -> list:
    """The picked children (indices into the candidate arrays), as :func:`~graphpriv.mechanisms.search._select`
    picks them: the ``width`` best distinct partitions in the order (score rounded to 1e-12, bottleneck count, flat index),
    then up to ``pareto`` along the front of (privacy key, -utility, index). Partitions are told apart by a
    64-bit hash (:func:`_hash`: the sum, over the pairs of codes in one cluster, of products of fixed random
    odd 64-bit code keys, mod 2^64)."""
    idx = alive.nonzero()[0]
    sc, at = ch["score"][idx], ch["at_min"][idx]
    picks: list = []
    seen: set = set()

    def walk(sub, whole):
        """Take from the children idx[sub] in the order (rounded score, bottleneck count, index) until
        ``width`` are taken; False when the groups up to the rounded score ``whole`` ran out first."""
        r, a = sc[sub].round(12), at[sub]
        rest = np.arange(len(sub))
        while rest.size and len(picks) < width:         # groups of equal (rounded score, bottleneck count)
            rr = r[rest]
            m = rr == rr.min()
            if rr[m][0] > whole:
                return False
            am = a[rest]
            m &= am == am[m].min()
            grp = idx[sub[rest[m]]]                     # in index order: the candidates are sorted by it
            for s0 in range(0, len(grp), 2 * width):
                part = grp[s0:s0 + 2 * width]
                for e, he in zip(part.tolist(), _hash(b, w, ch, part).tolist()):
                    if he not in seen:
                        seen.add(he)
                        picks.append(e)
                        if len(picks) >= width:
                            return True
            rest = rest[~m]
        return len(picks) >= width

    # first on the children within 1e-9 of the best score (every group there is whole), as the search's _select
    lo = float(sc.min())
    near = (sc <= lo + 1e-9).nonzero()[0]
    if not walk(near, lo + 5e-10) and len(near) < len(idx):
        picks.clear()
        seen.clear()
        walk(np.arange(len(idx)), np.inf)
    if pareto:
        u = ch["util"][idx]
        approx = sc + ev.lam * u + 1e-6 * at
        sub = np.flatnonzero(approx <= float(approx[u == u.max()].min()) + 1e-8)
        u = u[sub]
        pkey = (sc[sub] + ev.lam * u).round(9) + 1e-6 * at[sub]
        ru = u.round(9)
        rest = np.arange(len(sub))
        front, best_u = [], -np.inf
        while rest.size:
            pk = pkey[rest]
            m = pk == pk.min()
            rs = ru[rest]
            grp = rest[m & (rs == rs[m].max())]
            e = int(grp[0])                             # the first in index order
            if u[e] > best_u + 1e-12:
                front.append(int(idx[sub[e]]))
                best_u = u[e]
            rest = rest[u[rest] > u[e]]
        if len(front) > pareto:
            step = (len(front) - 1) / (pareto - 1) if pareto > 1 else 0.0   # np.linspace(0, len - 1, pareto)
            front = [front[int(round(i * step))] for i in range(pareto)]
        for e, he in zip(front, _hash(b, w, ch, np.array(front, dtype=np.int64)).tolist()):
            if he not in seen:
                seen.add(he)
                picks.append(e)
    return picks


def _next(ev: _Eval, b: _Batch, w, a, c, ch: dict, sel: list) -> _Batch:
    """The batch of the picked children ``sel`` (indices into the candidate arrays)."""
    sel = np.array(sel, dtype=np.int64)
    pw, ia, jb = w[sel], a[sel], c[sel]
    NP, W, k = b.X.shape
    n = len(sel)
    r = np.arange(k - 1)
    keep = ((pw * k)[:, None] + r + (r >= jb[:, None])).ravel()       # flat indices of the kept clusters
    to = np.arange(n) * (k - 1) + ia                                   # flat index of the merged cluster
    Xa, Xc = ch["Xa"][:, sel], ch["Xc"][:, sel]
    M = Xa.copy()                                                      # the merged clusters (first code: a's)
    M[Z] = ch["zz"][sel]
    M[S] = ch["U"][sel]
    M[KEY] = (Xa[KEY].view(_U64) + Xc[KEY].view(_U64)).view(np.int64)
    M[WD:] = Xa[WD:] | Xc[WD:]
    X = b.X.reshape(NP, W * k).take(keep, axis=1)
    X[:, to] = M
    out = _Batch()
    out.nc = b.nc[pw]
    if ev.objective != "L0":
        ci, cj = Xa[COMP], Xc[COMP]
        if (ci != cj).any():
            cc = X[COMP].reshape(n, k - 1)
            X[COMP] = np.where(cc == cj[:, None], ci[:, None], cc).ravel()
            out.nc = out.nc - (ci != cj)
    out.X = X.reshape(NP, n, k - 1)
    out.agg = None
    if ev.is_u2:
        agg = b.agg.reshape(5, W * k).take(keep, axis=1)
        agg[:, to] = np.array([x[sel] for x in ch["merged"]])
        out.agg = agg.reshape(5, n, k - 1)
    out.h = b.h[pw] + Xa[KEY].view(_U64) * Xc[KEY].view(_U64)
    out.priv, out.util, out.L = ch["priv"][sel], ch["util"][sel], ch["L"][sel]
    out.paths = [b.paths[x] + ((y, z),) for x, y, z in zip(pw.tolist(), Xa[FIRST].tolist(), Xc[FIRST].tolist())]
    return out


def batched_beam(ev: _Eval, root: _State, best, width: int, pareto: int, prune_above: int, max_depth, stats: dict):
    """The beam from ``root`` to the end, every depth's states in one batch: depths with more than
    ``prune_above`` clusters expand candidate sets (:func:`_candidates`), the others every merge, picked
    as :func:`~graphpriv.mechanisms.search._select` picks them. Returns the best feasible state seen (or
    ``best`` if none beats it)."""
    b = _Batch.from_state(root)
    best_t = None                                      # (path, priv, util) of the best feasible child
    best_L = np.inf if best is None else best.L
    depth = 0
    while b.X.shape[2] >= 2 and (max_depth is None or depth < max_depth):
        depth += 1
        W, k = b.X.shape[1:]
        stats["expanded"] = stats.get("expanded", 0) + W
        stats["children"] = stats.get("children", 0) + W * (k * (k - 1) // 2)
        sm = _summary(ev, b)
        if k > prune_above:
            stats["pruned"] = stats.get("pruned", 0) + 1
            w, a, c = _candidates(ev, b, sm)
            if not len(w):
                break
        else:
            w, a, c = _all_pairs(W, k)
        stats["scored"] = stats.get("scored", 0) + len(w)
        ch = _score(ev, b, sm, w, a, c)
        ok, L = ch["ok"], ch["L"]
        feas = (ch["ncomp"] == 1) if ev.objective == "L0|I*=0" else ok
        e = int((L if feas is None else np.where(feas, L, np.inf)).argmin())
        if (feas is None or feas[e]) and L[e] < best_L - _TOL:
            best_L = float(L[e])
            best_t = (b.paths[w[e]] + ((int(ch["Xa"][FIRST, e]), int(ch["Xc"][FIRST, e])),),
                      float(ch["priv"][e]), float(ch["util"][e]))
        alive = -ev.lam * ch["util"] < best_L - _TOL
        if ok is not None:
            alive &= ok
        if not alive.any():
            break
        b = _next(ev, b, w, a, c, ch, _pick(ev, b, w, ch, alive, width, pareto))
    return best if best_t is None else _to_state(ev, *best_t)
