"""Better-than-greedy searches for paper 003's quantisation problems.

Paper 003's Algorithms 1 and 2 and its Section V-C method are greedy: one merge at a time, stop at the
first step that does not lower the Lagrangian. Its conclusion (Section VIII) asks how to do better. The
searches here minimise *the same objective under the same constraints* -- L(Q) = privacy(Q) - λ U_i(X; X̂)
with privacy L0(S → X̂) (``objective="L0"``, problem (3)), I*(S; X̂) (``"I*"``, problem (5)) or L0 under
I*(S; X̂) = 0 (``"L0|I*=0"``, problem (10); every returned Q has I* = 0) -- and are reached through the
mechanism's own entry point::

    gp.agglomerate(jr, objective, lam, utility, values, search="beam", width=4)

which calls ``SEARCHES[search](jr, objective, lam, utility=..., values=..., base=..., **options)`` and
returns the same :class:`~graphpriv.AgglomerationResult` as the greedy run.

* ``"beam"`` (:func:`beam_search`): beam search over merge sequences. From the singletons, every state
  in the beam is expanded by every admissible merge (Φ for L0: different S-sets; Ψ for I*: different
  components of G_X̂; any pair for problem (10)), the children are scored by the Lagrangian (problem (10):
  plus ``penalty`` · I*, the finite-λ' form of eq. (11)) and the ``width`` best distinct partitions are
  kept. The best feasible partition seen at any depth is a candidate. Two more candidates make the
  search never worse than greedy: the best prefix of the greedy merge order (the greedy order does not
  depend on λ, so this prefix is at least as good as what the greedy stopping rule returns; for problem
  (10) the greedy run itself), and a final local search (``local=True``) that moves single public values
  between clusters (or out to a new cluster) while the Lagrangian strictly drops and the constraints hold.
  For problem (3) a privacy-first greedy under a few utility caps (largest cluster size for U1, largest
  distortion for U2) adds candidates: L0 is a bottleneck (min over clusters of |S|𝒳|) that merge-by-merge
  ranking by L cannot see rising until every bottleneck cluster has been merged. Depths with more than
  ``prune_above`` (default 40) clusters expand each state by a candidate set of merges only (see below).
* ``"local"`` (:func:`local_search`): only the greedy candidate plus the local moves (about 2x the greedy time
  for |X| <= 10; a pass is O(|X|^2 |Q|) pure-Python work, seconds for |X| around 150).

Measured (``benchmarks/bench_search.py``, 20 seeded random ranges, |X| in [6, 9], 360 runs): mean gap to the
exact optimum 0.465 for greedy and 0.018 for ``"beam"`` (96 % of the greedy gap closed, never worse).

Exact and pruned depths. For problems (3) and (10) with U1 or U2 on scalar values (centroid codewords,
"abs"/"squared" distances) every depth holds all its states in one batch of arrays (:mod:`.pruned`): one
array operation per quantity for the whole depth instead of one per state. A depth with at most
``prune_above`` clusters scores every merge of every state and picks exactly what the per-state search
picks (the reference tests check the same quantisation, L, winning candidate and trace as the first
implementation, also with every depth of the Hungarian data batched), so ranges of at most 40 public values
get the exhaustive beam. A depth with more clusters scores only a candidate set per state -- U1: the
merges among the first clusters (in index order) that can merge at the lowest level of the largest
cluster, among the first such bottleneck clusters (min |S|𝒳|) and between the two groups, plus the
smallest cluster of another component of G_X̂ for problem (10); U2: the merges of clusters next to each
other in centroid order; both: every merge of the bottleneck clusters once at most two are left -- with
the same arithmetic and the same pick rules; the children outside the set are pruned. Checked by
``bench_search.py`` on 80 runs of random ranges with 41-100 public values (problems (3) and (10), U1 and U2,
two λ each): mean L within 0.001 of the exhaustive beam's (worse in 6 runs, better in 9), never worse than
greedy, at half its CPU time; on the Hungarian
data (|X| = 153) the same L as the exhaustive beam on 10 of 12 rows of ``bench_search.py``, problem (3)
U1 λ = 0.3 worse by 0.014 (-0.107 vs -0.121) and problem (10) U1 λ = 0.3 better by 0.006 (-0.156 vs -0.150).
``prune_above=None`` gives the exhaustive beam at every size (per-state depths, and from 200 clusters on,
U1, the block scoring of ``_block_depth``, which proves with bounds that it picks the same children).
Problem (5) (I*) and distortions without vectorised costs always take the per-state depths.

Cost. An expanded state with k clusters has k (k - 1) / 2 children (merges), (width + pareto) · |X|^3 / 6 in
all (2.0 · 10^6 on the Hungarian data, |X| = 153). A pruned depth scores a few hundred candidates per
state (U1: 1-2 · 10^2; U2: about 2k plus the bottleneck merges), so its cost is the fixed number of array
operations of a depth (about 150 NumPy calls for the whole batch, independent of the number of states).
Measured with ``benchmarks/bench_search.py`` (CPU time, random ranges with |S| = |X|/4, L0 and problem
(10), U1, λ = 0.3, three runs on a shared 2-core machine at load average 1-2): 81-177 µs per expanded
state at every |X| from 20 to 300, 280-670 ns per scored child above 40 clusters; the beam time grows like
|X|^1.0-1.2 (6-9 ms at |X| = 20, 50-87 ms at 153, 115-188 ms at 300) while the children of the expanded
states grow like |X|^3.06 (at |X| = 300 2 % of them are scored). On the Hungarian data (|X| = 153) the
default beam takes 33-115 ms of CPU for problems (3) and (10) (14-80x the greedy run, which is O(|X|)
merges with indexed partner searches, 0.7-5 ms; the exhaustive beam 120-300 ms, 41-266x) and 3-13 ms for
I* (2.5-10x).
The floor is now the number of depths (|X| - 1, each some 150 array operations of a few µs), not the
number of children.
"""

from __future__ import annotations

import inspect
import math
from dataclasses import replace
from typing import Any, Callable

import numpy as np

from ....errors import InputError, InputTypeError
from ....ranges import JointRange
from ..contraction import Contraction
from ..result import _result_from_groups, _returned_index
from ..trajectory import _trajectory
from . import pruned as _pruned
from .state import (_clusters, _Eval, _State, _children, _first_group, _partner_pos, _popcount, _pos, _score_pairs,
                    _triu, _words)

__all__ = [
    "SEARCHES",
    "beam_search",
    "local_search",
]

_TOL = 1e-12
#: Smallest number of clusters at which a depth of the beam scores blocks of children (U1, problems (3) and
#: (10)) instead of every child: below it the O(|Q|^2) array scoring is cheaper than the per-state work.
_BLOCK_MIN = 200


# ====================================================================== candidates
def _greedy_candidate(ev: _Eval, jr, utility, values, base) -> tuple[_State, float]:
    """Best prefix of the greedy merge order (L0, I*: the λ-free order, run with λ = 0) or the greedy run
    itself (problem (10)). Returns (state, L of the greedy run at λ)."""
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
    best = _State.from_members(ev, _clusters(ev.n, path), path)
    if ev.objective == "L0":
        # Algorithm 1 merges several pairs per sweep: also try every single-merge prefix of its order
        flat = [(int(a), int(b)) for step in steps[1:] for a, b in step]
        if len(flat) > len(steps) - 1:
            Ls: list[float] = []
            _replay(ev, flat, lambda c: Ls.append(c.privacy("L0") - ev.lam * c.utility()))
            best_L, best_k = best.L, None
            for k, L in enumerate(Ls):
                if L < best_L - _TOL:
                    best_L, best_k = L, k
            if best_k is not None:
                best = _State.from_members(ev, _clusters(ev.n, flat[:best_k + 1]), tuple(flat[:best_k + 1]))
    return best, g_L


def _replay(ev: _Eval, merges, each=None) -> Contraction:
    """The contraction state after merging the clusters of the code pairs ``merges`` one by one from the
    singletons (each merge one recorded step; a pair already in one cluster is skipped). ``each``, if
    given, is called with the state after every pair."""
    c = Contraction._from_problem(ev.prob)
    labels = ev.prob.labels
    for a, b in merges:
        ra, rb = c.find(a), c.find(b)
        if ra != rb:
            c.merge(labels[min(ra, rb)], labels[max(ra, rb)])
        if each is not None:
            each(c)
    return c


def _beam(ev: _Eval, width: int, max_depth: int | None, pareto: int = 0, stats: dict | None = None,
          prune_above: int | None = None) -> _State | None:
    """Best feasible partition seen by the beam (None if none); ``stats`` (if given) receives the number of
    states expanded and of children scored. Depths with more than ``prune_above`` clusters expand candidate
    sets only (:mod:`.pruned`; None: every depth is exhaustive)."""
    root = _State.from_members(ev, [[x] for x in range(ev.n)])
    best = root if ev.feasible(np.array([root.ncomp]))[0] else None
    beam = [root]
    depth = 0
    if prune_above is not None and _pruned.usable(ev):
        return _pruned.batched_beam(ev, root, best, width, pareto, prune_above, max_depth,
                                    stats if stats is not None else {})
    blocks = ev.objective != "I*" and not ev.is_u2
    wait = 0
    while beam and (max_depth is None or depth < max_depth):
        depth += 1
        k = len(beam[0].members)
        if stats is not None:
            stats["expanded"] = stats.get("expanded", 0) + len(beam)
            stats["children"] = stats.get("children", 0) + len(beam) * (k * (k - 1) // 2)
        new = None
        use = blocks and k >= max(_BLOCK_MIN, 3) and not wait
        wait = max(0, wait - 1)
        got = _block_depth(ev, beam, width, pareto, best) if use else None
        if got is not None:
            ch, cand, best_b = got
            if stats is not None:
                stats["scored"] = stats.get("scored", 0) + len(ch["L"])
            if cand is None:
                best = best_b
                break
            # block scoring computes the quantities of its pairs itself: children carry their parent's
            # pair arrays only for a depth that scores every child
            ev.carry_pairs = k - 1 < _BLOCK_MIN
            new = _select(ev, beam, ch, cand, width, pareto, ch["rest_key"])
            if new is not None:
                best = best_b
                if stats is not None:
                    stats["blocks"] = stats.get("blocks", 0) + 1
        if new is None:
            if use:                                # the bounds failed: score every child for a few depths
                wait = 4
            ev.carry_pairs = True
            got = _full_depth(ev, beam, best)
            if got is None:
                break
            ch, cand, best = got
            if stats is not None:
                stats["scored"] = stats.get("scored", 0) + len(ch["L"])
            if cand is None:
                break
            new = _select(ev, beam, ch, cand, width, pareto, None)
        beam = new
    return best


def _select(ev: _Eval, beam: list, ch: dict, cand: np.ndarray, width: int, pareto: int, rest_key) -> list | None:
    """The next beam: the ``width`` best distinct children of ``cand`` and a few along the Pareto front.
    ``rest_key`` (block scoring): lower bounds (rounded score, bottleneck count) of the unscored children of
    the states that have some; None when the ``width`` picks do not all come strictly before them."""
    priv, util, score, cw, ci, cj = ch["priv"], ch["util"], ch["score"], ch["w"], ch["i"], ch["j"]
    sc = score[cand]
    at = np.zeros(len(cand), dtype=np.int64) if ch["at_min"] is None else ch["at_min"][cand]
    new, keys = [], set()

    last: list = []

    def take(c):
        last.append(c)
        a = int(cand[c])
        st, i, j = beam[int(cw[a])], int(ci[a]), int(cj[a])
        lab = st.child_lab(i, j)
        key = lab.tobytes()
        if key not in keys:
            keys.add(key)
            new.append((st, i, j, a, lab))

    # the `width` best distinct children in the order (score rounded to 1e-12, clusters at the
    # bottleneck, index): walk the groups of equal (score, at_min) from the smallest. The walk runs on
    # the children within 1e-9 of the smallest score (every group there is whole) and again on all
    # children only when that subset runs out before `width` are taken.
    lo = float(sc.min())
    near = np.flatnonzero(sc <= lo + 1e-9)
    if not _take_best(near, sc, at, width, take, new, lo + 5e-10) and len(near) < len(cand):
        new.clear()
        keys.clear()
        last.clear()
        _take_best(np.arange(len(cand)), sc, at, width, take, new, np.inf)
    if rest_key is not None and len(rest_key[0]):
        if len(new) < width:
            return None
        c = last[-1]
        r, m, g = np.round(sc[c], 12), at[c], ch["gidx"][cand[c]]
        rr, rm, rg = rest_key
        if not ((r < rr) | ((r == rr) & ((m < rm) | ((m == rm) & (g < rg))))).all():
            return None
    if pareto:
        # keep a few children spread along the (privacy, utility) Pareto front of this depth, so that
        # states at other utility levels than the current best-L ones survive (the objectives are
        # bottlenecks: the optimum often needs merges that first raise L). The front, walked in the
        # order (privacy key, -utility, index), takes each child whose utility beats the last taken by
        # 1e-12; such a child has a strictly higher utility than every child before it, so only these
        # records are visited (each found by two masked minima). Every record is the first of its
        # upper set {u > t}, so none has a larger privacy key than the children of the largest
        # utility: the walk only looks at the children whose key is within 1e-8 of theirs.
        u = util[cand]
        approx = sc + ev.lam * u + 1e-6 * at
        top_u = u == u.max()
        sub = np.flatnonzero(approx <= float(approx[top_u].min()) + 1e-8)
        u = u[sub]
        pkey = np.round(sc[sub] + ev.lam * u, 9) + 1e-6 * at[sub]
        ru = np.round(u, 9)
        rest = np.arange(len(sub))
        front, best_u = [], -np.inf
        while rest.size:
            e = int(rest[np.argmax(_first_group(rest, pkey, ru, largest_secondary=True))])
            if u[e] > best_u + 1e-12:
                front.append(int(sub[e]))
                best_u = u[e]
            rest = rest[u[rest] > u[e]]
        if len(front) > pareto:
            front = [front[int(round(q))] for q in np.linspace(0, len(front) - 1, pareto)]
        for c in front:
            take(c)
    return [st.merge(ev, i, j, float(priv[a]), float(util[a]), lab) for st, i, j, a, lab in new]


def _full_depth(ev: _Eval, beam: list, best: _State | None):
    """Every child of the depth (:func:`_children`): (children, indices of the children that may enter the
    beam, best) with ``best`` updated by the best feasible child; indices None: no child can improve
    on ``best`` (stop); None: no admissible merge."""
    ch = _children(ev, beam)
    if ch is None:
        return None
    k, ok, priv, util, L = ch["k"], ch["ok"], ch["priv"], ch["util"], ch["L"]
    I, J = _triu(k)
    P = len(I)
    flat = np.arange(len(L))
    ch["w"], ch["i"], ch["j"] = flat // P, I[flat % P], J[flat % P]
    feas = ok
    if ev.objective == "L0|I*=0":
        feas = ch["ncomp"] == 1
    if feas is None or feas.any():
        a = int(np.argmin(L if feas is None else np.where(feas, L, np.inf)))
        if best is None or L[a] < best.L - _TOL:
            best = beam[a // P].merge(ev, int(I[a % P]), int(J[a % P]), float(priv[a]), float(util[a]))
    # branch and bound: merges never raise the utility and the privacy is >= 0, so no descendant of a
    # child beats -λ·U(child); drop children that cannot improve on the best feasible partition
    if best is not None:
        alive = -ev.lam * util < best.L - _TOL
        if ok is not None:
            alive &= ok
        if not alive.any():
            return ch, None, best
        return ch, np.flatnonzero(alive), best
    return ch, (flat if ok is None else np.flatnonzero(ok)), best


_BIG = np.iinfo(np.int64).max // 4


def _suffix_min(z: np.ndarray, sel: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """z on ``sel`` (a huge value elsewhere) and, at every position, the smallest of it after that position."""
    zs = np.where(sel, z, _BIG)
    return zs, np.append(np.minimum.accumulate(zs[::-1])[::-1][1:], _BIG)


def _first_pairs(z, left, right, t: int, m: int, Sp=None, equal: bool = False, rows: int = 3):
    """The first m pairs (a, b), a < b, in index order with z[a] + z[b] <= t, one cluster in ``left`` and
    the other in ``right`` (each (mask, z on it, its suffix minima) from :func:`_suffix_min`; the same for
    pairs within one set); with packed S-sets ``Sp``: only pairs of different (``equal``: equal) sets.
    Looks at most at ``rows`` first clusters a. Returns the pairs and the first cluster a not looked at
    (None when every pair was seen or m were found; then the next is after the last found)."""
    (lm, zl, nl), (rm, zr, nr) = left, right
    out: list[tuple[int, int]] = []
    hits = np.flatnonzero((zl + nr <= t) | (zr + nl <= t)).tolist()
    for n, x in enumerate(hits):
        if n == rows:
            return out, x
        ok = (rm[x + 1:] if lm[x] else False) | (lm[x + 1:] if rm[x] else False)
        ok = ok & (z[x + 1:] <= t - z[x])
        if Sp is not None:
            same = (Sp[x + 1:] == Sp[x]).all(axis=1)
            ok &= same if equal else ~same
        ys = x + 1 + np.flatnonzero(ok)
        out.extend((x, int(y)) for y in ys[:m - len(out)].tolist())
        if len(out) >= m:
            break
    return out, None


def _block_depth(ev: _Eval, beam: list, width: int, pareto: int, best: _State | None):
    """Like :func:`_full_depth` (U1 utility), but scoring only a block of the children of every state when
    bounds prove that the others cannot change the beam's picks; None otherwise (then every child is
    scored).

    Off the cluster o0 holding the bottleneck min |S|𝒳| = m0 (every merge of o0 is in the block), a merge
    of clusters a and b keeps the privacy of the state (m0 stays), its utility depends only on the level
    max(|a| + |b|, largest cluster), and its bottleneck count is c0 - [a at m0] - [b at m0] (problem (10):
    +1 for two equal S-sets at m0). So its class -- both, one or none of a, b at m0 (problem (10): and
    equal sets) -- its level and its index fix its place in the beam's order (score, count, index) and
    in the Pareto walk (privacy key, -utility, index). For every class the block holds the first
    ``width`` + 1 merges, in index order, at the class's smallest level (found from suffix minima of the
    cluster sizes, looking at three rows at most). Every other merge of the class comes after them in
    index order or lies at a higher level, which bounds its key from below in both orders and in L; and
    the block's first merge of the class precedes it in the Pareto walk and is at least as useful (when
    the class has none in the block, a block child of an earlier class must be; checked). When every
    bound comes after the ``width`` picks (checked by :func:`_select`) and after the best feasible child,
    the picks from the block are exactly the picks from all children. A depth then costs O(|Q|) per
    state instead of O(|Q|^2)."""
    W, k = len(beam), len(beam[0].members)
    I, J = _triu(k)
    P = len(I)
    pen_on = ev.objective == "L0|I*=0"
    pos, groups, loose = [], [], []                        # groups: (w, level, bottleneck count, first index)
    for w, st in enumerate(beam):
        s, z = st.iv[:, 1], st.iv[:, 0]
        if pen_on and st.ncomp > 1:
            return None
        m0 = int(s.min())
        f = s == m0
        F = np.flatnonzero(f)
        c0, zmax = len(F), int(z.max())
        A = float(ev.tab_l0[m0])
        x = (A + (float(ev.tab_penalty[st.ncomp]) if pen_on else 0.0)) * 1e9
        if abs(x - math.floor(x) - 0.5) < 1e-3:            # privacy key at a rounding boundary
            return None
        mask = np.zeros(P, dtype=bool)
        mask[_partner_pos(k, int(F[0]))[0]] = True
        m = width + 1
        nf = ~f
        sf, sn = (f, *_suffix_min(z, f)), (nf, *_suffix_min(z, nf))
        Sp = np.packbits(st.Sb, axis=1)
        classes = []                                       # (first pairs at the class's top level, level, count)
        if c0 >= 2:
            zF = np.sort(z[F])
            t = max(int(zF[0] + zF[1]), zmax)
            for cls in ((False, True) if pen_on else (False,)):
                classes.append((_first_pairs(z, sf, sf, t, m, Sp, cls), t, c0 - 2 + cls))
        if c0 >= 2 and k - c0 >= 1:
            t = max(int(z[F].min() + z[nf].min()), zmax)
            classes.append((_first_pairs(z, sf, sn, t, m), t, c0 - 1))
        if k - c0 >= 2:
            zn = np.sort(z[nf])
            t = max(int(zn[0] + zn[1]), zmax)
            classes.append((_first_pairs(z, sn, sn, t, m, Sp if ev.objective == "L0" else None), t, c0))
        for (pairs, stop), t, cnt in classes:
            if pairs:
                pp = np.array([_pos(k, x, y) for x, y in pairs], dtype=np.int64)
                mask[pp] = True
            if len(pairs) == m:                            # more merges at the top level, later in index order
                groups.append((w, t, cnt, w * P + int(pp[-1]) + 1))
            elif stop is not None:                         # and from the first cluster not looked at
                groups.append((w, t, cnt, w * P + _pos(k, stop, stop + 1)))
            if not pairs and (stop is not None or t + 1 <= ev.n):
                # the class's first of largest utility is not in the block: a block child of a class
                # before it in the Pareto walk must be at least as useful (checked below)
                loose.append((w, cnt, t if stop is not None else t + 1))
            if t + 1 <= ev.n:                              # merges below the top level
                groups.append((w, t + 1, cnt, -1))
        pos.append(np.flatnonzero(mask))
    ch = _score_pairs(ev, beam, pos)
    ok, priv, util, L, score, at_min = ch["ok"], ch["priv"], ch["util"], ch["L"], ch["score"], ch["at_min"]
    # bounds of every group of unscored merges: utility at most u_max, L and score at least those at u_max
    gw = np.array([g[0] for g in groups], dtype=np.int64)
    uR = ev.tab_u1[np.array([g[1] for g in groups], dtype=np.int64)]
    g_at = np.array([g[2] for g in groups], dtype=np.int64)
    g_ix = np.array([g[3] for g in groups], dtype=np.int64)
    m0s = np.array([int(st.iv[:, 1].min()) for st in beam], dtype=np.int64)
    L_lb = ev.tab_l0[m0s[gw]] - ev.lam * uR
    score_lb = L_lb + ev.tab_penalty[np.array([st.ncomp for st in beam], dtype=np.int64)[gw]] if pen_on else L_lb
    feas = ch["ncomp"] == 1 if pen_on else ok
    # the best feasible child: before every unscored merge in (L, index)
    a = -1
    if feas.any():
        a = int(np.argmin(np.where(feas, L, np.inf)))
    ga = int(ch["w"][a]) * P + _pos(k, int(ch["i"][a]), int(ch["j"][a])) if a >= 0 else -1
    if a >= 0 and (best is None or L[a] < best.L - _TOL):
        if not ((L_lb > L[a]) | ((L_lb == L[a]) & (g_ix > ga))).all():
            return None
        best = beam[int(ch["w"][a])].merge(ev, int(ch["i"][a]), int(ch["j"][a]), float(priv[a]), float(util[a]))
    elif best is None:
        if len(groups):
            return None
    elif not (L_lb >= best.L - _TOL).all():
        return None
    if best is None:
        alive = ok if ok is not None else np.ones(len(L), dtype=bool)
        g_alive = np.ones(len(groups), dtype=bool)
    else:
        thr = best.L - _TOL
        alive = -ev.lam * util < thr
        if ok is not None:
            alive &= ok
        g_alive = -ev.lam * uR < thr
    if not alive.any():
        return None if g_alive.any() or best is None else (ch, None, best)
    if pareto and loose:
        u = util[alive]
        pk = np.round(score[alive] + ev.lam * u, 9) + 1e-6 * at_min[alive]
        pens = ev.tab_penalty[np.array([st.ncomp for st in beam], dtype=np.int64)] if pen_on else np.zeros(W)
        for w, cnt, t in loose:
            if -ev.lam * ev.tab_u1[t] < (np.inf if best is None else best.L - _TOL) and not (
                    (pk < np.round(ev.tab_l0[m0s[w]] + pens[w], 9) + 1e-6 * cnt - 1e-9) & (u >= ev.tab_u1[t])).any():
                return None
    ch["gidx"] = ch["w"] * P + _pos(k, ch["i"], ch["j"])
    ch["rest_key"] = (np.round(score_lb[g_alive], 12), g_at[g_alive], g_ix[g_alive])
    return ch, np.flatnonzero(alive), best


def _take_best(idx: np.ndarray, sc: np.ndarray, at: np.ndarray, width: int, take, new: list, whole: float) -> bool:
    """Walk the children ``idx`` (increasing) in the order (score rounded to 1e-12, at_min, index), taking
    each until ``width`` distinct ones are in ``new``. True when done within the groups whose rounded
    score is at most ``whole`` (all of them are in ``idx``)."""
    r = np.round(sc[idx], 12)
    a = at[idx]
    rest = np.arange(len(idx))
    while rest.size and len(new) < width:
        first = _first_group(rest, r, a)
        if r[rest[first][0]] > whole:
            return False
        for c in idx[rest[first]].tolist():
            take(c)
            if len(new) >= width:
                break
        rest = rest[~first]
    return len(new) >= width


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
    if ev.is_u2:
        if ev.fast:                                # ev.cost of every pair, vectorised (same arithmetic)
            I, J = _triu(ev.n)
            c = (ev.V[I] + ev.V[J]) / 2
            d = np.maximum(c - np.minimum(ev.V[I], ev.V[J]), np.maximum(ev.V[I], ev.V[J]) - c)
            pair = np.unique(d * d if ev.ub.squared else d).tolist()
        else:
            pair = sorted({ev.cost([a, b]) for a in range(ev.n) for b in range(a + 1, ev.n)})
        full = ev.cost(list(range(ev.n)))
        caps = [c for c in np.unique(np.quantile(pair + [full], np.linspace(0, 1, n_caps))).tolist()]
    else:
        caps = list(range(2, ev.n + 1))
        if len(caps) > n_caps:
            caps = sorted({int(round(c)) for c in np.linspace(2, ev.n, n_caps)})
    best_members, best = None, best_L
    n, big = ev.n, np.iinfo(np.int64).max
    for cap in caps:
        # no quantisation within this cap can beat the best: privacy >= 0, utility <= cap's utility
        u_cap = -cap if ev.is_u2 else (ev.log_n - math.log(cap)) / ev.lb
        if -ev.lam * u_cap >= best - _TOL:
            continue
        # clusters live in slots named by their first code (slot order is cluster order); an absorbed
        # slot gets no sensitive values (so it gains nothing) and the largest count (never the smallest)
        members: list = [[x] for x in range(n)]
        Sb = _words(ev.S)                          # S-sets as 64-bit words: counts are popcounts
        count = _popcount(Sb)
        size = np.ones(n, dtype=np.int64)
        cost = np.array([ev.quick_cost([x]) for x in range(n)]) if ev.is_u2 else None
        max_size = 1
        for _ in range(n - 1):
            c = int(count.argmin())
            gain = _popcount(Sb[c] | Sb)
            if not ev.is_u2:
                # partner: most sensitive values gained, then the smallest merged cluster, then slot
                key = np.where((gain > count[c]) & (size <= cap - size[c]), gain * (n + 1) - size, -1)
                d = int(key.argmax())
                if key[d] < 0:
                    break
            else:
                # partner: most sensitive values gained, then the lowest cost within the cap, then slot
                d, cand = None, np.flatnonzero(gain > count[c])
                for g in np.unique(gain[cand])[::-1].tolist():
                    choice = None
                    for e in cand[gain[cand] == g].tolist():
                        ce = ev.quick_cost(members[c] + members[e])
                        if ce <= cap + 1e-12 and (choice is None or ce < choice[0]):
                            choice = (ce, e)
                    if choice is not None:
                        d = choice[1]
                        break
                if d is None:
                    break
            a, b = min(c, d), max(c, d)
            members[a] = members[a] + members[b]
            members[b] = None
            Sb[a] |= Sb[b]
            Sb[b] = 0
            count[a] = int(_popcount(Sb[a:a + 1])[0])
            count[b] = big
            size[a] += size[b]
            priv = (ev.log_ns - math.log(int(count.min()))) / ev.lb
            if ev.is_u2:
                cost[a] = ev.quick_cost(members[a])
                cost[b] = -np.inf
                util = -float(cost.max())
            else:
                max_size = max(max_size, int(size[a]))
                util = (ev.log_n - math.log(max_size)) / ev.lb
            L = priv - ev.lam * util
            if L < best - _TOL:
                best, best_members = L, [list(m) for m in members if m is not None]
    if best_members is None:
        return None
    best_members = sorted((sorted(m) for m in best_members), key=lambda m: m[0])
    return _State.from_members(ev, best_members, tuple((m[0], y) for m in best_members for y in m[1:]))


# ====================================================================== result
def _result(ev: _Eval, st: _State, search: str, info: dict):
    # replay the path on the contraction state: it records the per-step measures and the trace
    p = ev.prob
    c = _replay(ev, st.path)
    trace = replace(c.trace("I*" if ev.objective == "I*" else "L0", ev.lam, name=p.objective),
                    info={**p.info(), "search": search, **info})
    groups = [np.asarray(m, dtype=np.int64) for m in st.members]
    res = _result_from_groups(p, groups, trace, float(st.priv), float(st.util), ev.lam)
    res.info.update({"search": search, **info})
    return res


def _check_options(search: str, unknown: dict, fn: Callable) -> None:
    """One-line error for options a search does not have (``gp.agglomerate(..., search=..., **options)``)."""
    if unknown:
        valid = [p.name for p in inspect.signature(fn).parameters.values() if p.kind is p.KEYWORD_ONLY and p.name != "base"]
        raise InputTypeError(f"search={search!r} has no option {', '.join(map(repr, sorted(unknown)))}; "
                             f"its options are {', '.join(valid)}")


def _check_int(v, name, lo=1):
    if isinstance(v, bool) or not isinstance(v, (int, np.integer)) or v < lo:
        raise InputError(f"{name} must be an integer >= {lo}, got {v!r}")
    return int(v)


# ====================================================================== public searches
def beam_search(jr: JointRange, objective: str, lam: float, utility: Any = "U1", values: Any = None, *, base: float = 2,
                width: int = 3, pareto: int = 3, caps: int = 8, local: bool | None = None, max_passes: int = 3,
                penalty: float = 1.0, max_depth: int | None = None, prune_above: int | None = 40, **unknown):
    """Beam search over merge sequences for paper 003's problems (3), (5) and (10), never worse than greedy.

    Same objective and constraints as :func:`graphpriv.agglomerate` (see the module docstring); call it
    as ``gp.agglomerate(jr, objective, lam, utility, values, search="beam", width=...)``.

    Parameters
    ----------
    jr, objective, lam, utility, values, base
        As in :func:`graphpriv.agglomerate`.
    width : int, default 3
        Partitions kept per depth by lowest score (L; ties: fewest clusters at the bottleneck min |S|𝒳|).
        Cost grows about linearly with it.
    pareto : int, default 3
        Extra partitions kept per depth, spread along the depth's (privacy, utility) Pareto front (0: off).
    caps : int, default 8
        Problem (3) only: number of utility caps (largest cluster size for U1, largest distortion for U2)
        for which a privacy-first greedy raises the bottleneck min |S|𝒳| within the cap (0: off).
    local : bool, optional
        Finish with single-value moves between clusters (first improvement, at most ``max_passes`` passes).
        Default: on for |X| <= 40 (a pass costs O(|X|^2 |Q|) pure-Python work, seconds at |X| = 150).
    max_passes : int
    penalty : float, default 1.0
        Problem (10) only: children are ranked by L0 - λU + penalty · I* (eq. (11) with λ' = penalty);
        only partitions with I* = 0 are returned.
    max_depth : int, optional
        Stop the beam after this many merges (default: until no merge is admissible).
    prune_above : int or None, default 40
        Problems (3) and (10) with U1 or U2 on scalar values: depths of partitions with more than this many
        clusters expand each state by a candidate set of merges only (see the module notes; ranges with
        at most ``prune_above`` public values get the exhaustive beam). None: every depth expands every
        merge (the exhaustive beam, O(width · |X|^3) scored children).

    Returns
    -------
    AgglomerationResult
        Its ``trace`` replays merges that build the returned quantisation (single merges; local moves are
        re-expressed as merges of the final clusters); ``info["search"] == "beam"``,
        ``info["source"]`` says which candidate won ("greedy", "beam", "capped", "local"), and
        ``info["states_expanded"]``, ``info["children"]`` (all merges of the expanded states) and
        ``info["children_scored"]`` (those scored; fewer when depths were pruned, ``info["pruned_depths"]``,
        or blocks were scored, ``info["block_depths"]``) count the beam's work.

    Examples
    --------
    Paper 003, Example 4 setting (x7 = 4, U2, λ = 0.3), Algorithm 2: the greedy run returns
    Q(4) = {{x1,x4},{x2,x7},{x3,x5,x6}} with I* = 0 and L = 0 - 0.3 · (-1.95) = 0.585 (the paper prints Q(3)
    with I* = 1 bit, an erratum); the beam finds {{x1,x7},{x2,x4},{x3,x5,x6}}, also I* = 0, at lower
    distortion (the exact optimum, :func:`graphpriv.exact_minimum`, is 0.54):

    >>> import graphpriv as gp
    >>> jr, values = gp.datasets.paper_example(4)
    >>> g = gp.agglomerate(jr, "I*", 0.3, "U2", values)
    >>> b = gp.agglomerate(jr, "I*", 0.3, "U2", values, search="beam")
    >>> round(g.L, 4), round(b.L, 4), [sorted(c) for c in b.quantization]
    (0.585, 0.57, [['x1', 'x7'], ['x2', 'x4'], ['x3', 'x5', 'x6']])

    Problem (10) on Fig. 1 (U1, λ = 0.3): greedy L = 1.2182, the beam reaches the optimum 0 (one cluster)
    and keeps I* = 0:

    >>> r = gp.agglomerate(jr, "L0|I*=0", 0.3, "U1", search="beam")
    >>> round(gp.agglomerate(jr, "L0|I*=0", 0.3, "U1").L, 4), r.L, gp.maximin_information(gp.quantize_range(jr, r.quantization))
    (1.2182, 0.0, 0.0)

    Notes
    -----
    Each depth expands ``width`` + ``pareto`` states: below ``prune_above`` clusters by all O(|Q|^2)
    admissible merges, above it (problems (3) and (10)) by O(|Q|) candidates per state, all states of a
    depth in one batch of array operations; so the beam costs O(|X|) depths of a fixed number of array
    operations plus O(width · prune_above^3) scored children, the greedy run and the local moves
    (O(|X| · |Q|) evaluations per pass). With ``prune_above=None`` it scores up to O(width · |X|^3)
    children. Practical to a few hundred public values; for larger ranges use ``search="local"``.
    """
    _check_options("beam", unknown, beam_search)
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
    if prune_above is not None:
        prune_above = _check_int(prune_above, "prune_above", 3)
    ev = _Eval(jr, objective, lam, utility, values, base, penalty)
    greedy, greedy_L = _greedy_candidate(ev, jr, utility, values, base)
    best, source = greedy, "greedy"
    stats: dict = {}
    found = _beam(ev, width, max_depth, pareto, stats, prune_above)
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
    return _result(ev, best, "beam", {"source": source, "width": width, "pareto": pareto, "greedy_L": float(greedy_L),
                                      "states_expanded": stats.get("expanded", 0), "children": stats.get("children", 0),
                                      "children_scored": stats.get("scored", 0), "block_depths": stats.get("blocks", 0),
                                      "pruned_depths": stats.get("pruned", 0)})


def local_search(jr: JointRange, objective: str, lam: float, utility: Any = "U1", values: Any = None, *, base: float = 2,
                 max_passes: int = 3, **unknown):
    """Greedy (best prefix of its merge order) followed by single-value moves between clusters.

    Cheaper than :func:`beam_search` (no beam); never worse than greedy. Call it as
    ``gp.agglomerate(..., search="local")``.

    Examples
    --------
    >>> import graphpriv as gp
    >>> jr, values = gp.datasets.paper_example(4)
    >>> r = gp.agglomerate(jr, "I*", 0.3, "U2", values, search="local")
    >>> r.L <= gp.agglomerate(jr, "I*", 0.3, "U2", values).L
    True
    """
    _check_options("local", unknown, local_search)
    max_passes = _check_int(max_passes, "max_passes", 0)
    ev = _Eval(jr, objective, lam, utility, values, base, 1.0)
    greedy, greedy_L = _greedy_candidate(ev, jr, utility, values, base)
    best, source = greedy, "greedy"
    if max_passes:
        loc = _local(ev, greedy, max_passes)
        if loc.L < best.L - _TOL:
            best, source = loc, "local"
    return _result(ev, best, "local", {"source": source, "greedy_L": float(greedy_L)})


#: Searches reachable through ``gp.agglomerate(..., search=name)``.
SEARCHES: dict[str, Callable] = {"beam": beam_search, "local": local_search}

#: Names this module held before the exhaustive minimum and the search comparison got modules of their own;
#: forwarded on first use so old imports keep working (a forwarding table, not a dependency of the search).
_MOVED = {"exact_minimum": "graphpriv.mechanisms.exact", "compare_searches": "graphpriv.mechanisms.comparison"}


def __getattr__(name: str):
    if name in _MOVED:
        import importlib

        return getattr(importlib.import_module(_MOVED[name]), name)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
