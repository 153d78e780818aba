"""The beam's depths with many clusters, batched and pruned (problems (3) and (10) of paper 003).

Ding & Farokhi, *Developing Non-Stochastic Privacy-Preserving Policies Using Agglomerative Clustering*:
the beam of :func:`graphpriv.mechanisms.search.beam_search` minimises L = L0(S → X̂) - λ U (problem (3))
or ranks by L + penalty · I*(S; X̂) and keeps I* = 0 (problem (10), eq. (11)). While the partition has
more than ``prune_above`` clusters, a depth here expands each state of the beam only by a *candidate set*
of merges and holds all states of the depth in one set of arrays (one array operation per quantity for
the whole depth, not one per state), so a depth costs O(states · candidates) array work in some fifty
NumPy calls instead of O(states · |Q|^2).

What is exact and what is pruned
--------------------------------
Every candidate child is scored with the same arithmetic as the exhaustive depth (same privacy, utility,
L, score and bottleneck count, to the bit), and the picks follow the same order: the ``width`` best
distinct partitions by (score rounded to 1e-12, clusters at the bottleneck min |S|𝒳|, flat pair index),
then up to ``pareto`` children along the depth's (privacy, utility) front, the best feasible child is a
candidate, and the branch-and-bound cut is the same. Pruned: the children outside the candidate set,
which are

* U1: all merges among the clusters of a set C (the first ``_F`` clusters at the bottleneck, in index
  order; the ``_T`` smallest clusters, ties by index; for problem (10) with several components of G_X̂
  the smallest cluster outside the smallest cluster's component);
* U2 (scalar values, centroid codewords): the merges of clusters within ``_R`` places of each other in
  the order of their centroids (merges far apart in value raise the largest distortion), and the merges
  among the first ``_F`` clusters at the bottleneck;
* both: when at most two clusters hold the bottleneck (the next merge of one of them can raise L0),
  every merge of those clusters.

The U1 set holds the merges of the smallest merged size (the utility key: a merge keeps U1 when
|a| + |b| stays within the largest cluster) and the merges that shrink the bottleneck count first in index
order, i.e. the top of the exhaustive order in the common case; the Pareto front is taken over the
candidates only. Below ``prune_above`` clusters every depth is exhaustive, so ranges with at most
``prune_above`` public values get exactly the exhaustive beam. How it was checked: the hypothesis tests
(tests/test_search.py) check that the pruned beam is never worse than greedy and that its L is the L of
its partition recomputed from scratch; ``benchmarks/bench_search.py`` prints the Hungarian rows (|X| = 153)
of the pruned and the exhaustive beam side by side.
"""

from __future__ import annotations

import functools

import numpy as np

from .state import _Eval, _State, _union_counts, _words

#: Candidate-set sizes of a pruned depth: bottleneck clusters (first in index order), smallest clusters
#: (U1), and neighbours in centroid order (U2).
_F, _T, _R, _P, _ROWS = 4, 16, 2, 16, 2

_TOL = 1e-12
_BIG = np.iinfo(np.int64).max // 4


class _Batch:
    """The W states of one depth (k clusters each) as arrays: ``iv`` (W, k, 4) = (size, |S|𝒳|, component,
    first member code) per cluster, S-sets as 64-bit words ``wd`` (W, k, words), the codes' cluster
    positions ``lab`` (W, n), for U2 ``agg`` (W, k, 5) = (d̄, count, sum, min, max); per state ``nc``
    (components of G_X̂), ``priv``, ``util``, ``L`` and the merge path."""

    __slots__ = ("iv", "wd", "key", "h", "agg", "nc", "priv", "util", "L", "paths")

    @classmethod
    def from_state(cls, st: _State) -> "_Batch":
        b = cls()
        iv = np.empty((1, len(st.members), 4), dtype=np.int64)
        iv[0, :, :3] = st.iv
        iv[0, :, 3] = [m[0] for m in st.members]
        b.iv = iv
        b.wd = _words(st.Sb)[None]
        rnd = _code_keys(len(st.lab))
        b.key = np.array([[rnd[m].sum(dtype=np.uint64) for m in st.members]], dtype=np.uint64)
        b.h = _mix(b.key).sum(axis=1, dtype=np.uint64)
        b.agg = None if st.fv is None else st.fv[None].copy()
        b.nc = np.array([st.ncomp], dtype=np.int64)
        b.priv, b.util, b.L = np.array([st.priv]), np.array([st.util]), np.array([st.L])
        b.paths = [st.path]
        return b

    def state(self, ev: _Eval, w: int) -> _State:
        """State w as a :class:`_State` (for the exhaustive depths and the result)."""
        return _to_state(ev, self.paths[w], float(self.priv[w]), float(self.util[w]),
                         None if self.agg is None else self.agg[w])


@functools.lru_cache(maxsize=8)
def _code_keys(n: int) -> np.ndarray:
    """Fixed pseudo-random 64-bit keys of the codes: a cluster's key is the sum of its codes' keys."""
    return np.random.default_rng(20261126).integers(0, 2**63, size=n, dtype=np.uint64) * np.uint64(2) + np.uint64(1)


def _mix(x: np.ndarray) -> np.ndarray:
    """A 64-bit mixing of cluster keys (splitmix64 finaliser); a partition's hash is the sum over its
    clusters, so a merge updates it with three mixes."""
    x = (x ^ (x >> np.uint64(30))) * np.uint64(0xBF58476D1CE4E5B9)
    x = (x ^ (x >> np.uint64(27))) * np.uint64(0x94D049BB133111EB)
    return x ^ (x >> np.uint64(31))


def _to_state(ev: _Eval, path: tuple, priv: float, util: float, agg) -> _State:
    from . import _clusters                             # the clusters after the path's merges
    st = _State.from_members(ev, _clusters(ev.n, path), path)
    if agg is not None:
        st.fv = agg.copy()                              # the aggregates the merges computed (same bits as merges)
    st.priv, st.util = priv, util
    st.L = priv - ev.lam * util
    return st


def usable(ev: _Eval) -> bool:
    """Problems (3) and (10) with U1 or U2 on scalar values (vectorised distortions)."""
    return ev.objective != "I*" and (not ev.is_u2 or ev.fast)


@functools.lru_cache(maxsize=64)
def _pairs_of(c: int):
    return np.triu_indices(c, 1)


@functools.lru_cache(maxsize=1024)
def _cols(k: int) -> np.ndarray:
    return np.arange(k - 1)


def _summary(ev: _Eval, b: _Batch) -> dict:
    """Per state: bottleneck m0, its count c0 and flags, the next |S|𝒳| value m1 and its count c1, the
    largest cluster (U1) or the largest d̄, its count and the next d̄ (U2)."""
    s = b.iv[:, :, 1]
    m0 = s.min(axis=1)
    flag = s == m0[:, None]
    sb = np.where(flag, _BIG, s)
    m1 = sb.min(axis=1)
    out = {"m0": m0, "flag": flag, "c0": flag.sum(axis=1), "m1": m1, "c1": (sb == m1[:, None]).sum(axis=1)}
    if ev.is_u2:
        d = b.agg[:, :, 0]
        dmax = d.max(axis=1)
        fd = d == dmax[:, None]
        out.update(dmax=dmax, cd=fd.sum(axis=1), d1=np.where(fd, -np.inf, d).max(axis=1))
    else:
        out["zmax"] = b.iv[:, :, 0].max(axis=1)
    return out


def _candidates(ev: _Eval, b: _Batch, sm: dict):
    """Candidate merges of every state: arrays (w, a, c, flat index) with a < c (repeats possible)."""
    W, k = b.iv.shape[:2]
    flag, c0 = sm["flag"], sm["c0"]
    rows = np.arange(W)[:, None]
    if not ev.is_u2:
        # the merges that keep the lowest level of the largest cluster come first in the exhaustive order,
        # then by index: candidate clusters are the first (in index order) that can merge at that level
        z = b.iv[:, :, 0]
        zmax = sm["zmax"]
        two = np.partition(z, 1, axis=1)[:, :2]
        free = z + two[:, :1] <= np.maximum(zmax, two.sum(axis=1))[:, None]
        zf = np.where(flag, z, _BIG)
        twof = np.partition(zf, 1, axis=1)[:, :2]
        ffree = flag & (z + twof[:, :1] <= np.maximum(zmax, twof.sum(axis=1))[:, None])
        fo_all = np.argsort(~ffree, axis=1, kind="stable")[:, :max(_F, _P)]
        fv_all = ffree[rows, fo_all]
        fo, fv = fo_all[:, :_F], fv_all[:, :_F]
        t = np.argsort(~free, axis=1, kind="stable")[:, :_T]
        cols, valid = [fo, t], [fv, free[rows, t]]
        if ev.objective != "L0" and (b.nc > 1).any():                     # the smallest cluster of another component
            comp = b.iv[:, :, 2]
            other = comp != comp[rows, t[:, :1]]
            x = np.argmin(np.where(other, z, _BIG), axis=1)[:, None]
            cols.append(x)
            valid.append(other[rows, x])
        C = np.concatenate(cols, axis=1)
        V = np.concatenate(valid, axis=1)
        p, q = _pairs_of(C.shape[1])
        A, B = C[:, p], C[:, q]
        ok = V[:, p] & V[:, q] & (A != B)
        if fo_all.shape[1] > _F:                                         # the first rows with more bottleneck partners
            nr, extra = min(_ROWS, _F), fo_all.shape[1] - _F
            A2 = np.repeat(fo[:, :nr], extra, axis=1)
            B2 = np.tile(fo_all[:, _F:], (1, nr))
            ok2 = np.repeat(fv[:, :nr], extra, axis=1) & np.tile(fv_all[:, _F:], (1, nr))
            A, B, ok = np.concatenate((A, A2), axis=1), np.concatenate((B, B2), axis=1), np.concatenate((ok, ok2), axis=1)
        wi, ci = np.nonzero(ok)
        w, a, c = wi, A[wi, ci], B[wi, ci]
    else:
        fo = np.argsort(~flag, axis=1, kind="stable")[:, :_F]            # first bottleneck clusters
        fv = flag[rows, fo]
        cen = b.agg[:, :, 2] / b.agg[:, :, 1]
        o = np.argsort(cen, axis=1, kind="stable")
        pa, pb = [], []
        for d in range(1, min(_R, k - 1) + 1):
            pa.append(o[:, :-d])
            pb.append(o[:, d:])
        p, q = _pairs_of(fo.shape[1])
        pa.append(np.where(fv[:, p] & fv[:, q], fo[:, p], fo[:, q]))   # invalid pairs become (x, x)
        pb.append(fo[:, q])
        A, B = np.concatenate(pa, axis=1), np.concatenate(pb, axis=1)
        wi, ci = np.nonzero(A != B)
        w, a, c = wi, A[wi, ci], B[wi, ci]
    few = np.flatnonzero(c0 <= 2)
    if few.size:                                                         # every merge of the bottleneck clusters
        f2 = np.argsort(~flag[few], axis=1, kind="stable")[:, :2]
        fw = np.repeat(few, 2 * k)
        fa = np.repeat(f2, k, axis=1).ravel()
        fb = np.tile(np.arange(k), 2 * few.size)
        keep = np.repeat(flag[few[:, None], f2], k, axis=1).ravel() & (fa != fb)
        w, a, c = np.concatenate((w, fw[keep])), np.concatenate((a, fa[keep])), np.concatenate((c, fb[keep]))
    lo, hi = np.minimum(a, c), np.maximum(a, c)
    g = w * (k * (k - 1) // 2) + lo * (2 * k - lo - 1) // 2 + (hi - lo - 1)
    return w, lo, hi, g


def _score(ev: _Eval, b: _Batch, sm: dict, w, a, c) -> dict:
    """Scores of the merges (w, a, c), the same numbers as :func:`state._children` gives these children:
    the min |S|𝒳| over the clusters other than a and c is m0 while a cluster at m0 is left, else m1, and
    the count at the new minimum comes from c0, c1 (U2: the largest d̄ over the others likewise)."""
    W, k = b.iv.shape[:2]
    fa, fc = w * k + a, w * k + c                       # flat cluster indices
    ivf = b.iv.reshape(W * k, 4)
    ra, rc = ivf[fa], ivf[fc]
    sa, sc = ra[:, 1], rc[:, 1]
    wdf = b.wd.reshape(W * k, -1)
    U = np.bitwise_count(wdf[fa] | wdf[fc])
    U = (U[:, 0] if U.shape[1] == 1 else U.sum(axis=1)).astype(np.int64)
    m0, m1, c0 = sm["m0"][w], sm["m1"][w], sm["c0"][w]
    ms = np.minimum(U, np.where(c0 > (sa == m0) + (sc == m0), m0, m1))
    priv = ev.tab_l0[ms]
    at_min = np.where(ms == m0, c0, np.where(ms == m1, sm["c1"][w], 0)) - (sa == ms) - (sc == ms) + (U == ms)
    ncomp = b.nc[w] - (ra[:, 2] != rc[:, 2]) if ev.objective != "L0" else None
    if ev.is_u2:
        ff = b.agg.reshape(W * k, 5)
        xa, xc = ff[fa], ff[fc]
        cnt, sums = xa[:, 1] + xc[:, 1], xa[:, 2] + xc[:, 2]
        mn, mx = np.minimum(xa[:, 3], xc[:, 3]), np.maximum(xa[:, 4], xc[:, 4])
        cen = sums / cnt
        d = np.maximum(cen - mn, mx - cen)
        D = d * d if ev.ub.squared else d
        dmax = sm["dmax"][w]
        others = np.where(sm["cd"][w] > (xa[:, 0] == dmax) + (xc[:, 0] == dmax), dmax, sm["d1"][w])
        util = -np.maximum(D, others)
        merged = np.stack((D, cnt, sums, mn, mx), axis=1)
        zz = ra[:, 0] + rc[:, 0]
    else:
        zz = ra[:, 0] + rc[:, 0]
        util = ev.tab_u1[np.maximum(zz, sm["zmax"][w])]
        merged = None
    L = priv - ev.lam * util
    score = L + ev.tab_penalty[ncomp] if ev.objective == "L0|I*=0" else L
    kf = b.key.ravel()
    ka, kc = kf[fa], kf[fc]
    km = ka + kc
    h = b.h[w] - _mix(ka) - _mix(kc) + _mix(km)
    return {"h": h, "km": km, "U": U, "ok": 2 * U > sa + sc if ev.objective == "L0" else None, "ncomp": ncomp,
            "priv": priv, "util": util, "L": L, "score": score, "at_min": at_min, "merged": merged, "zz": zz,
            "first": (ra[:, 3], rc[:, 3])}


def _pick(ev: _Eval, g, ch: dict, alive: np.ndarray, width: int, pareto: int) -> list:
    """The picked children (indices into the candidate arrays): the ``width`` best distinct partitions by
    (score rounded to 1e-12, bottleneck count, flat index), then up to ``pareto`` along the front (the
    walk of :func:`beam._select`). Partitions are told apart by a 64-bit hash (sum over clusters of
    mixed sums of fixed random code keys; two distinct partitions collide with probability about 2^-64)."""
    idx = np.flatnonzero(alive)
    sc, at, h = ch["score"][idx], ch["at_min"][idx], ch["h"]
    r = sc.round(12)
    picks: list = []
    seen: set = set()
    rest = np.arange(len(idx))
    while rest.size and len(picks) < width:             # groups of equal (rounded score, bottleneck count)
        rr = r[rest]
        m = rr == rr.min()
        am = at[rest]
        grp = rest[m & (am == am[m].min())]
        grp = idx[grp[np.argsort(g[idx[grp]], kind="stable")]]
        for e, he in zip(grp.tolist(), h[grp].tolist()):
            if he not in seen:
                seen.add(he)
                picks.append(e)
                if len(picks) >= width:
                    break
        rest = rest[~(m & (am == am[m].min()))]
    if pareto:
        u = ch["util"][idx]
        approx = sc + ev.lam * u + 1e-6 * at
        sub = np.flatnonzero(approx <= float(approx[u == u.max()].min()) + 1e-8)
        u = u[sub]
        pkey = (sc[sub] + ev.lam * u).round(9) + 1e-6 * at[sub]
        ru = u.round(9)
        gs = g[idx[sub]]
        rest = np.arange(len(sub))
        front, best_u = [], -np.inf
        while rest.size:
            pk = pkey[rest]
            m = pk == pk.min()
            rs = ru[rest]
            grp = rest[m & (rs == rs[m].max())]
            e = int(grp[np.argmin(gs[grp])])
            if u[e] > best_u + 1e-12:
                front.append(int(idx[sub[e]]))
                best_u = u[e]
            rest = rest[u[rest] > u[e]]
        if len(front) > pareto:
            front = [front[int(round(q))] for q in np.linspace(0, len(front) - 1, pareto).tolist()]
        for e, he in zip(front, h[front].tolist()):
            if he not in seen:
                seen.add(he)
                picks.append(e)
    return picks


def _next(ev: _Eval, b: _Batch, w, a, c, ch: dict, sel: list) -> _Batch:
    """The batch of the picked children ``sel`` (indices into the candidate arrays)."""
    sel = np.array(sel, dtype=np.int64)
    pw, ia, jb = w[sel], a[sel], c[sel]
    k = b.iv.shape[1]
    r = _cols(k)
    cols = r + (r >= jb[:, None])
    rows = pw[:, None]
    R = np.arange(len(sel))
    out = _Batch()
    out.iv = iv = b.iv[rows, cols]
    iv[R, ia, 0] = ch["zz"][sel]
    iv[R, ia, 1] = ch["U"][sel]
    out.nc = b.nc[pw]
    if ev.objective != "L0":
        ci, cj = b.iv[pw, ia, 2], b.iv[pw, jb, 2]
        if (ci != cj).any():
            iv[:, :, 2] = np.where(iv[:, :, 2] == cj[:, None], ci[:, None], iv[:, :, 2])
            out.nc = out.nc - (ci != cj)
    out.wd = b.wd[rows, cols]
    out.wd[R, ia] = b.wd[pw, ia] | b.wd[pw, jb]
    out.agg = None
    if ev.is_u2:
        out.agg = b.agg[rows, cols]
        out.agg[R, ia] = ch["merged"][sel]
    out.key = b.key[rows, cols]
    out.key[R, ia] = ch["km"][sel]
    out.h = ch["h"][sel]
    out.priv, out.util, out.L = ch["priv"][sel], ch["util"][sel], ch["L"][sel]
    fi, fj = ch["first"][0][sel].tolist(), ch["first"][1][sel].tolist()
    out.paths = [b.paths[x] + ((y, z),) for x, y, z in zip(pw.tolist(), fi, fj)]
    return out


def pruned_depths(ev: _Eval, root: _State, best, width: int, pareto: int, prune_above: int, max_depth, stats: dict):
    """Run the beam from ``root`` while the states have more than ``prune_above`` clusters.

    Returns (beam as a list of :class:`_State`, or None when the search ended; best feasible state or None;
    depths run)."""
    b = _Batch.from_state(root)
    best_t = None                                      # (path, priv, util, agg) of the best feasible child
    best_L = np.inf if best is None else best.L
    depth = 0
    while b.iv.shape[1] > max(prune_above, 3) and (max_depth is None or depth < max_depth):
        depth += 1
        W, k = b.iv.shape[:2]
        stats["expanded"] = stats.get("expanded", 0) + W
        stats["children"] = stats.get("children", 0) + W * (k * (k - 1) // 2)
        stats["pruned"] = stats.get("pruned", 0) + 1
        sm = _summary(ev, b)
        w, a, c, g = _candidates(ev, b, sm)
        stats["scored"] = stats.get("scored", 0) + len(w)
        ch = _score(ev, b, sm, w, a, c)
        ok, L = ch["ok"], ch["L"]
        feas = (ch["ncomp"] == 1) if ev.objective == "L0|I*=0" else ok
        e = int(np.argmin(np.where(feas, L, np.inf)))
        if feas[e] and L[e] < best_L - _TOL:
            best_L = float(L[e])
            ag = None
            if ev.is_u2:
                ag = np.delete(b.agg[w[e]], c[e], axis=0)
                ag[a[e]] = ch["merged"][e]
            best_t = (b.paths[w[e]] + ((int(ch["first"][0][e]), int(ch["first"][1][e])),),
                      float(ch["priv"][e]), float(ch["util"][e]), ag)
        alive = -ev.lam * ch["util"] < best_L - _TOL
        if ok is not None:
            alive &= ok
        if not alive.any():
            b = None
            break
        b = _next(ev, b, w, a, c, ch, _pick(ev, g, ch, alive, width, pareto))
    if best_t is not None:
        best = _to_state(ev, *best_t)
    beam = None if b is None else [b.state(ev, x) for x in range(b.iv.shape[0])]
    return beam, best, depth
