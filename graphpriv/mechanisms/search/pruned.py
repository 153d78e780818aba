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

import numpy as np

from .state import _Eval, _State, _excl_at, _smallest3, _union_counts, _words

#: Candidate-set sizes of a pruned depth: bottleneck clusters (first in index order), smallest clusters
#: (U1), and neighbours in centroid order (U2).
_F, _T, _R, _I = 4, 8, 2, 0

_TOL = 1e-12


class _Batch:
    """The W states of one depth (k clusters each) as arrays: sizes ``z``, S-set sizes ``s``, component
    ids ``comp``, S-sets as 64-bit words ``wd`` (W, k, words), first (smallest) member code ``first``,
    codes' cluster positions ``lab`` (W, n), for U2 ``agg`` (W, k, 5) = (d̄, count, sum, min, max); per
    state ``nc`` (components of G_X̂), ``priv``, ``util``, ``L`` and the merge path."""

    __slots__ = ("z", "s", "comp", "wd", "first", "lab", "agg", "nc", "priv", "util", "L", "paths")

    @classmethod
    def from_state(cls, st: _State) -> "_Batch":
        b = cls()
        b.z, b.s, b.comp = st.iv[None, :, 0].copy(), st.iv[None, :, 1].copy(), st.iv[None, :, 2].copy()
        b.wd = _words(st.Sb)[None]
        b.first = np.array([[m[0] for m in st.members]], dtype=np.int64)
        b.lab = st.lab[None].astype(np.int64)
        b.agg = None if st.fv is None else st.fv[None].copy()
        b.nc = np.array([st.ncomp], dtype=np.int64)
        b.priv, b.util, b.L = np.array([st.priv]), np.array([st.util]), np.array([st.L])
        b.paths = [st.path]
        return b

    def state(self, ev: _Eval, w: int) -> _State:
        """State w as a :class:`_State` (for the exhaustive depths and the result)."""
        return _to_state(ev, self.lab[w], self.paths[w], float(self.priv[w]), float(self.util[w]),
                         None if self.agg is None else self.agg[w])


def _to_state(ev: _Eval, lab: np.ndarray, path: tuple, priv: float, util: float, agg) -> _State:
    order = np.argsort(lab, kind="stable")
    cuts = np.flatnonzero(np.diff(lab[order])) + 1
    st = _State.from_members(ev, [g.tolist() for g in np.split(order, cuts)], path)
    if agg is not None:
        st.fv = agg.copy()                              # the aggregates the merges computed (same bits as merges)
    st.priv, st.util = priv, util
    st.L = priv - ev.lam * util
    return st


def usable(ev: _Eval) -> bool:
    """Problems (3) and (10) with U1 or U2 on scalar values (vectorised distortions)."""
    return ev.objective != "I*" and (not ev.is_u2 or ev.fast)


def _candidates(ev: _Eval, b: _Batch):
    """Candidate merges of every state: (w, a, b) arrays with a < b, distinct, in flat order (w, pair)."""
    W, k = b.z.shape
    s = b.s
    m0 = s.min(axis=1)
    flag = s == m0[:, None]
    c0 = flag.sum(axis=1)
    fo = np.argsort(~flag, axis=1, kind="stable")[:, :_F]               # first bottleneck clusters
    fv = np.take_along_axis(flag, fo, axis=1)
    rows = np.arange(W)[:, None]
    if not ev.is_u2:
        t = np.argsort(b.z, axis=1, kind="stable")[:, :_T]
        cols = [fo, t, np.broadcast_to(np.arange(min(_I, k)), (W, min(_I, k)))]
        valid = [fv, np.ones(t.shape, dtype=bool), np.ones((W, min(_I, k)), dtype=bool)]
        if (b.nc > 1).any():                                             # the smallest cluster of another component
            other = b.comp != b.comp[rows, t[:, :1]]
            x = np.argmin(np.where(other, b.z, np.iinfo(np.int64).max), axis=1)[:, None]
            cols.append(x)
            valid.append(np.take_along_axis(other, x, axis=1))
        C = np.concatenate(cols, axis=1)
        V = np.concatenate(valid, axis=1)
        p, q = np.triu_indices(C.shape[1], 1)
        A, B = C[:, p], C[:, q]
        ok = V[:, p] & V[:, q] & (A != B)
        ww = np.broadcast_to(rows, A.shape)
        wa, aa, bb = ww[ok], A[ok], B[ok]
    else:
        cen = b.agg[:, :, 2] / b.agg[:, :, 1]
        o = np.argsort(cen, axis=1, kind="stable")
        parts_a, parts_b = [], []
        for d in range(1, min(_R, k - 1) + 1):
            parts_a.append(o[:, :-d])
            parts_b.append(o[:, d:])
        p, q = np.triu_indices(fo.shape[1], 1)
        parts_a.append(np.where(fv[:, p] & fv[:, q], fo[:, p], fo[:, q]))
        parts_b.append(fo[:, q])
        A, B = np.concatenate(parts_a, axis=1), np.concatenate(parts_b, axis=1)
        ok = A != B
        ww = np.broadcast_to(rows, A.shape)
        wa, aa, bb = ww[ok], A[ok], B[ok]
    few = np.flatnonzero(c0 <= 2)
    if few.size:                                                         # every merge of the bottleneck clusters
        r = np.arange(k)
        fw = np.repeat(few, 2 * k)
        fa = np.repeat(fo[few, :2], k, axis=1).ravel()
        fb = np.tile(r, 2 * few.size)
        keep = np.repeat(fv[few, :2], k, axis=1).ravel() & (fa != fb)
        wa, aa, bb = np.concatenate((wa, fw[keep])), np.concatenate((aa, fa[keep])), np.concatenate((bb, fb[keep]))
    lo, hi = np.minimum(aa, bb), np.maximum(aa, bb)
    P = k * (k - 1) // 2
    g = wa * P + lo * (2 * k - lo - 1) // 2 + (hi - lo - 1)
    g, first = np.unique(g, return_index=True)
    return wa[first], lo[first], hi[first], g


def _score(ev: _Eval, b: _Batch, w, a, c) -> dict:
    """Scores of the merges (w, a, c) with the arithmetic of :func:`state._children` / :func:`state._score_pairs`."""
    W, k = b.z.shape
    s = b.s
    U = _union_counts(b.wd, (w, a), (w, c))
    sa, sc = s[w, a], s[w, c]
    ncomp = b.nc[w] - (b.comp[w, a] != b.comp[w, c]) if ev.objective != "L0" else b.nc[w]
    ok = 2 * U > sa + sc if ev.objective == "L0" else None
    order, v = _smallest3(s)
    ms = np.minimum(U, _excl_at(order, v, w, a, c)).astype(np.int64)
    priv = ev.tab_l0[ms]
    width = ev.n_s + 2
    cnt_s = np.bincount((s + width * np.arange(W)[:, None]).ravel(), minlength=W * width)
    at_min = cnt_s[ms + width * w] - (sa == ms) - (sc == ms) + (U == ms)
    if ev.is_u2:
        f = b.agg
        cnt, sm = f[w, a, 1] + f[w, c, 1], f[w, a, 2] + f[w, c, 2]
        mn, mx = np.minimum(f[w, a, 3], f[w, c, 3]), np.maximum(f[w, a, 4], f[w, c, 4])
        cen = sm / cnt
        d = np.maximum(cen - mn, mx - cen)
        D = d * d if ev.ub.squared else d
        o2, v2 = _smallest3(-f[:, :, 0])
        util = -np.maximum(D, -_excl_at(o2, v2, w, a, c))
        merged = (D, cnt, sm, mn, mx)
    else:
        zz = b.z[w, a] + b.z[w, c]
        util = ev.tab_u1[np.maximum(zz, b.z.max(axis=1)[w])]
        merged = (zz,)
    L = priv - ev.lam * util
    score = L + ev.tab_penalty[ncomp] if ev.objective == "L0|I*=0" else L
    return {"U": U, "ok": ok, "ncomp": ncomp, "priv": priv, "util": util, "L": L, "score": score, "at_min": at_min,
            "merged": merged}


def _child_labs(b: _Batch, w, a, c) -> np.ndarray:
    lab = b.lab[w]
    lab = np.where(lab == c[:, None], a[:, None], lab)
    return lab - (lab > c[:, None])


def _pick(ev: _Eval, b: _Batch, w, a, c, g, ch: dict, alive: np.ndarray, width: int, pareto: int):
    """Indices of the picked children (into the candidate arrays) and their labs."""
    idx = np.flatnonzero(alive)
    sc, at = ch["score"][idx], ch["at_min"][idx]
    order = idx[np.lexsort((g[idx], at, np.round(sc, 12)))]
    picks, labs, keys = [], [], set()

    def walk(sel):
        step = max(4, 2 * width)
        for s0 in range(0, len(sel), step):
            part = sel[s0:s0 + step]
            lb = _child_labs(b, w[part], a[part], c[part])
            for r, e in enumerate(part.tolist()):
                key = lb[r].tobytes()
                if key not in keys:
                    keys.add(key)
                    picks.append(e)
                    labs.append(lb[r])
                    if len(picks) >= goal[0]:
                        return

    goal = [width]
    walk(order)
    if pareto:
        u = ch["util"][idx]
        scr = ch["score"][idx]
        atm = at
        approx = scr + ev.lam * u + 1e-6 * atm
        top = u == u.max()
        sub = np.flatnonzero(approx <= float(approx[top].min()) + 1e-8)
        us = u[sub]
        pkey = np.round(scr[sub] + ev.lam * us, 9) + 1e-6 * atm[sub]
        o = np.lexsort((g[idx[sub]], -np.round(us, 9), pkey))
        uo = us[o]
        prev = np.concatenate(([-np.inf], np.maximum.accumulate(uo)[:-1]))
        front = o[uo > prev + 1e-12]
        if len(front) > pareto:
            front = front[np.round(np.linspace(0, len(front) - 1, pareto)).astype(np.int64)]
        goal[0] = len(picks) + len(front)
        n0 = len(picks)
        walk(idx[sub[front]])
        del n0
    return np.array(picks, dtype=np.int64), labs


def _next(ev: _Eval, b: _Batch, w, a, c, ch: dict, sel: np.ndarray, labs: list) -> _Batch:
    """The batch of the picked children ``sel`` (indices into the candidate arrays)."""
    pw, ia, jb = w[sel], a[sel], c[sel]
    n = len(sel)
    k = b.z.shape[1]
    r = np.arange(k - 1)
    cols = r + (r >= jb[:, None])
    rows = pw[:, None]
    out = _Batch()
    R = np.arange(n)
    out.z = b.z[rows, cols]
    out.s = b.s[rows, cols]
    out.comp = b.comp[rows, cols]
    out.first = b.first[rows, cols]
    out.wd = b.wd[rows, cols]
    out.wd[R, ia] = b.wd[pw, ia] | b.wd[pw, jb]
    out.s[R, ia] = ch["U"][sel]
    ci, cj = b.comp[pw, ia], b.comp[pw, jb]
    out.comp = np.where(out.comp == cj[:, None], ci[:, None], out.comp)
    out.nc = b.nc[pw] - (ci != cj)
    if ev.is_u2:
        out.agg = b.agg[rows, cols]
        for q, col in enumerate(ch["merged"]):
            out.agg[R, ia, q] = col[sel]
        out.z[R, ia] = b.z[pw, ia] + b.z[pw, jb]
    else:
        out.agg = None
        out.z[R, ia] = ch["merged"][0][sel]
    out.lab = np.stack(labs)
    out.priv, out.util, out.L = ch["priv"][sel], ch["util"][sel], ch["L"][sel]
    fi, fj = b.first[pw, ia].tolist(), b.first[pw, jb].tolist()
    out.paths = [b.paths[x] + ((y, z),) for x, y, z in zip(pw.tolist(), fi, fj)]
    return out


def pruned_depths(ev: _Eval, root: _State, best, width: int, pareto: int, prune_above: int, max_depth, stats: dict):
    """Run the beam from ``root`` while the states have more than ``prune_above`` clusters.

    Returns (beam as a list of :class:`_State` or None when the search ended, best feasible state or
    None, depths run)."""
    b = _Batch.from_state(root)
    best_t = None                                      # (L, lab, path, priv, util, agg)
    best_L = np.inf if best is None else best.L
    depth = 0
    while b.z.shape[1] > max(prune_above, 3) and (max_depth is None or depth < max_depth):
        depth += 1
        W, k = b.z.shape
        stats["expanded"] = stats.get("expanded", 0) + W
        stats["children"] = stats.get("children", 0) + W * (k * (k - 1) // 2)
        stats["pruned"] = stats.get("pruned", 0) + 1
        w, a, c, g = _candidates(ev, b)
        stats["scored"] = stats.get("scored", 0) + len(w)
        ch = _score(ev, b, w, a, c)
        ok, L = ch["ok"], ch["L"]
        feas = (ch["ncomp"] == 1) if ev.objective == "L0|I*=0" else ok
        if feas.any():
            e = int(np.argmin(np.where(feas, L, np.inf)))
            if L[e] < best_L - _TOL:
                best_L = float(L[e])
                lb = _child_labs(b, w[e:e + 1], a[e:e + 1], c[e:e + 1])[0]
                ag = None
                if ev.is_u2:
                    ag = np.delete(b.agg[w[e]], c[e], axis=0)
                    ag[a[e]] = [col[e] for col in ch["merged"]]
                best_t = (lb, b.paths[w[e]] + ((int(b.first[w[e], a[e]]), int(b.first[w[e], c[e]])),),
                          float(ch["priv"][e]), float(ch["util"][e]), ag)
        alive = -ev.lam * ch["util"] < best_L - _TOL if np.isfinite(best_L) else np.ones(len(L), dtype=bool)
        if ok is not None:
            alive &= ok
        if not alive.any():
            b = None
            break
        sel, labs = _pick(ev, b, w, a, c, g, ch, alive, width, pareto)
        b = _next(ev, b, w, a, c, ch, sel, labs)
    if best_t is not None:
        best = _to_state(ev, *best_t)
    beam = None if b is None else [b.state(ev, x) for x in range(b.z.shape[0])]
    return beam, best, depth
