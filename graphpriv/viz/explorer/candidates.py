"""Why a pair merged: the best candidate pairs of a step by the mechanism's own criterion.

At step t the greedy mechanisms of Ding & Farokhi (*Developing Non-Stochastic Privacy-Preserving
Policies Using Agglomerative Clustering*) compare candidate pairs of clusters of Q(t-1):

* Algorithm 1 (objective "L0", Section V-A): Π holds the clusters with the smallest |[[S|𝒳]]|; the
  first cluster 𝒳 of Π takes the partner 𝒳' with a different sensitive set minimising |𝒳 ⊔ 𝒳'| (U1)
  or d̄(𝒳 ⊔ 𝒳') (U2), ties to the lowest index;
* Algorithm 2 (objective "I*", eq. (8)): pairs in different components of G_X̂(t-1) (Ψ), minimising
  |𝒳1| + |𝒳2| (U1, ties to the pair joining the two largest components) or d̄(𝒳1 ⊔ 𝒳2) (U2);
* Section V-C (objective "L0|I*=0", eq. (12)): pairs of Ψ minimising ΔL, ties to the smallest
  |[[S|𝒳1]]| + |[[S|𝒳2]]|.

Every candidate of the step is ranked by that criterion with one vectorised evaluation over the
candidate set; the best few then get ΔL = L(Q') - L(Q(t-1)) of merging that pair alone, computed by
the package's objective evaluation (:func:`graphpriv.lagrangian`), so the list can be compared with
the recorded ΔL of the step. A sweep of Algorithm 1 merges many pairs in one step (77 at t = 1 on the
Hungarian data): each pair gets its own ranking (:class:`PairCandidates`), made on the clusters as they
were when its cluster of Π was processed -- after the earlier pairs of the same sweep -- which is the
state the mechanism compared partners in. Other mechanisms (k-anonymity, beam or exact searches) have no
per-step criterion: their steps list only the merged pairs.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, replace

import numpy as np
import scipy.sparse as sp

from ...errors import InputError

__all__ = ["Candidate", "PairCandidates", "StepCandidates", "merge_candidates", "candidate_table"]

#: Pairs costed one by one (custom U2 codeword or distance) at most; beyond, a step is not ranked.
_MAX_SLOW_PAIRS = 20_000
_CHUNK = 1_000_000


@dataclass(frozen=True)
class Candidate:
    """One candidate pair of clusters of Q(t-1).

    Attributes
    ----------
    a, b : frozenset
        The two clusters (a holds the smaller public code).
    cost : float
        The mechanism's criterion for the pair (see :attr:`StepCandidates.criterion`).
    delta_L : float
        L(Q') - L(Q(t-1)) when this pair alone is merged (:func:`graphpriv.lagrangian`).
    chosen : bool
        True for the pair the mechanism merged (the first pair of the step).
    rank : int
        1-based position in the criterion's order (0 when the pair was not ranked).
    """

    a: frozenset
    b: frozenset
    cost: float
    delta_L: float
    chosen: bool
    rank: int = 0


@dataclass(frozen=True)
class PairCandidates:
    """The ranking behind one pair merged at step t (one of the pairs of an Algorithm 1 sweep).

    Attributes
    ----------
    number : int
        1-based position of the pair in the step's merge order (the number on the matrix view).
    a, b : frozenset
        The merged clusters; for Algorithm 1, ``a`` is the cluster of Π being processed and ``b`` its partner.
    candidates : tuple of Candidate
        The merged pair first, then the best other pairs by the criterion, compared on the clusters as they
        were just before this pair merged.
    n_candidates : int
        Size of the ranked candidate set.
    chosen_rank : int
        Position of the merged pair in the criterion's order (0: the best; -1: no criterion).
    note : str
        Context (for Algorithm 1: the cluster of Π and its |[[S|𝒳]]|).
    """

    number: int
    a: frozenset
    b: frozenset
    candidates: tuple
    n_candidates: int
    chosen_rank: int
    note: str = ""


@dataclass(frozen=True)
class StepCandidates:
    """The best candidate pairs of step t, the chosen pair first.

    Attributes
    ----------
    t : int
    criterion : str
        What ``cost`` measures, in words (empty when the mechanism has no per-step criterion).
    candidates : tuple of Candidate
        The chosen pair first, then the best others by the criterion.
    n_candidates : int
        Size of the candidate set that was ranked.
    chosen_rank : int
        Position of the chosen pair in the criterion's order (0 when the mechanism picked the best pair;
        -1 when there is no criterion).
    note : str
        Extra context (e.g. the cluster whose partners are compared, or why nothing was ranked).
    pairs : tuple of PairCandidates
        One ranking per pair merged at t, in merge order (``candidates``, ``n_candidates``,
        ``chosen_rank`` and ``note`` above are those of the first); a step of Algorithm 2 or Section V-C
        has one.
    """

    t: int
    criterion: str
    candidates: tuple
    n_candidates: int
    chosen_rank: int
    note: str = ""
    pairs: tuple = ()


class _Context:
    """Inputs shared by every step: the bound utility, the S-incidence, the tie rule, the size limits."""

    def __init__(self, trace, jr, utility, values, max_pairs=None, max_scan=None):
        from ...mechanisms.quantization.agglomerative import _ALGORITHM, _Problem

        self.trace = trace
        self.jr = jr
        self.max_pairs = max_pairs
        self.max_scan = max_scan
        from .text import Labeller

        self.labeller = Labeller.of(trace.public_labels)
        obj = trace.objective
        self.greedy = obj in _ALGORITHM and trace.info.get("algorithm") == _ALGORITHM[obj]
        self.prob = None
        self.values = values
        if not self.greedy:
            return
        if utility is None:
            utility = trace.utility
            if utility == "U2":
                from ...mechanisms.utilities import U2

                spec = dict(kv.split("=", 1) for kv in str(trace.info.get("utility_spec", "")).split(", ") if "=" in kv)
                try:
                    utility = U2(codeword=spec.get("codeword", "centroid"), distance=spec.get("distance", "abs"))
                except InputError:
                    raise InputError("this trace's U2 uses a custom codeword or distance: pass utility=gp.U2(...) "
                                     "as the mechanism ran it") from None
        if values is None and getattr(utility, "name", utility) == "U2":
            values = "labels"
        self.values = values
        try:
            self.prob = _Problem(jr, obj, utility, values, trace.base)
        except InputError as exc:
            raise InputError(f"cannot evaluate this trace's candidate pairs: {exc} (pass values= as the mechanism ran with)") from None
        self.prob.tie_rule = trace.info.get("tie_rule", "paper")
        self.utility = self.prob.utility_obj
        self.S = sp.csr_array(jr.matrix).astype(np.int32)


def _clusters(ids: np.ndarray):
    """(ids, cluster heads in increasing order, position of every code's cluster among the heads)."""
    idx = np.unique(ids)
    pos = np.full(len(ids), -1, dtype=np.int64)
    pos[idx] = np.arange(len(idx))
    return ids, idx, pos[ids]


def _pair_chunks(k: int, rows: np.ndarray | None = None):
    """(I, J) position pairs i < j (or rows × all when ``rows`` is given), in chunks of about _CHUNK pairs."""
    if rows is not None:
        done: list[int] = []
        for r in rows.tolist():
            J = np.arange(k)
            J = J[(J != r) & ~np.isin(J, done)]
            done.append(r)
            yield np.full(len(J), r, dtype=np.int64), J
        return
    from ...mechanisms.quantization.problem import upper_pair_blocks

    yield from upper_pair_blocks(k, _CHUNK)


class _Stats:
    """Per-cluster statistics of a partition (cluster id = smallest member code of every public code) for
    vectorised pair costs; ``comp`` (component id of every code) is needed for the pairs of Ψ only."""

    def __init__(self, ctx: _Context, ids: np.ndarray, comp: np.ndarray | None = None):
        tr = ctx.trace
        self.ids, self.idx, rank = _clusters(ids)
        k = self.k = len(self.idx)
        n = tr.n_public
        self.size = np.bincount(rank, minlength=k)
        if comp is not None:
            self.comp = comp[self.idx]
            self.comp_size = np.bincount(comp, minlength=n)[self.comp]
        ind = sp.csr_array((np.ones(n, dtype=np.int32), (np.arange(n), rank)), shape=(n, k))
        self.C = ((ctx.S @ ind) > 0).astype(np.int32).tocsc()
        self.ssz = np.asarray(self.C.sum(axis=0)).ravel()
        self.rank = rank
        ub = ctx.prob.ub
        self.ub = ub
        self.fast = getattr(ub, "fast", False)
        if self.fast:
            V = ub.V.astype(float)
            self.cnt = self.size.astype(float)
            self.sm = np.bincount(rank, weights=V, minlength=k)
            self.mn = np.full(k, np.inf)
            np.minimum.at(self.mn, rank, V)
            self.mx = np.full(k, -np.inf)
            np.maximum.at(self.mx, rank, V)
        self.members = None

    def members_of(self, p: int) -> np.ndarray:
        """Public codes of the cluster at position p (one sort of the codes, then a slice per call)."""
        if self.members is None:
            order = np.argsort(self.rank, kind="stable")
            self.members = (order, np.searchsorted(self.rank[order], np.arange(self.k + 1)))
        order, cuts = self.members
        return order[cuts[p]:cuts[p + 1]]

    def dbar(self, I: np.ndarray, J: np.ndarray) -> np.ndarray:
        """d̄(𝒳_I ⊔ 𝒳_J) (the largest distance to the merged cluster's codeword)."""
        if self.fast:
            c = (self.sm[I] + self.sm[J]) / (self.cnt[I] + self.cnt[J])
            d = np.maximum(c - np.minimum(self.mn[I], self.mn[J]), np.maximum(self.mx[I], self.mx[J]) - c)
            return d * d if self.ub.squared else d
        return np.array([self.ub.cluster_cost(np.concatenate([self.members_of(i), self.members_of(j)]))
                         for i, j in zip(I.tolist(), J.tolist())], dtype=float)

    def dbar_all(self) -> np.ndarray:
        if self.fast:
            return self.dbar(np.arange(self.k), np.arange(self.k)) if self.k else np.zeros(0)
        return np.array([self.ub.cluster_cost(self.members_of(i)) for i in range(self.k)], dtype=float)


def _top(keys: list[np.ndarray], m: int):
    """Indices of the m smallest pairs in lexicographic order of ``keys`` (first key most significant)."""
    order = np.lexsort(tuple(reversed(keys)))
    return order[:m]


def _criterion_alg1(is_u2: bool) -> str:
    return ("d̄(𝒳 ⊔ 𝒳')" if is_u2 else "|𝒳 ⊔ 𝒳'|") + " for partners 𝒳' of 𝒳 (ties: lowest index)"


def _rank_alg1(ctx: _Context, st: _Stats, x: int, m: int):
    """Algorithm 1, step 7, for the cluster at position x (in Π): (n_candidates, best [(key, i, j, cost)]) over
    its admissible partners (another sensitive set), or None when a custom U2 makes that too slow."""
    from ...mechanisms.quantization.agglomerative import _q

    is_u2 = hasattr(st.ub, "cluster_cost")
    inter = np.asarray((st.C[:, [x]].T @ st.C).todense()).ravel()
    ok = ~((st.ssz == st.ssz[x]) & (inter == st.ssz[x]))
    ok[x] = False
    J = np.flatnonzero(ok)
    I = np.full(len(J), x, dtype=np.int64)
    if is_u2 and not st.fast and len(J) > _MAX_SLOW_PAIRS:
        return None
    cost = st.dbar(I, J) if is_u2 else (st.size[I] + st.size[J]).astype(float)
    sel = _top([_q(cost), st.idx[J]], m)
    return len(J), [(None, int(I[s]), int(J[s]), float(cost[s])) for s in sel]


def _rank_psi(ctx: _Context, st: _Stats, t: int, m: int, rows: np.ndarray | None = None):
    """Algorithm 2 (eq. (8)) and Section V-C (eq. (12)) over the pairs of Ψ at Q(t-1):
    (criterion, n_candidates, best [(key, i, j, cost)]), or None when a custom U2 makes that too slow.
    With ``rows`` (cluster positions), only the pairs holding one of those clusters are ranked."""
    from ...mechanisms.quantization.agglomerative import _excl, _q

    tr = ctx.trace
    is_u2 = hasattr(st.ub, "cluster_cost")
    paper = ctx.prob.tie_rule == "paper"
    obj = tr.objective
    best: list[tuple] = []  # (key tuple, i, j, cost)
    n_cand = 0
    if obj == "L0|I*=0":
        priv_old, util_old = float(tr.step_privacy[t - 1]), float(tr.step_utility[t - 1])
        o_s = np.argsort(st.ssz, kind="stable")[:3]
        small_s = [(int(st.ssz[p]), int(p)) for p in o_s]
        if is_u2:
            d_all = st.dbar_all()
            o_d = np.argsort(-d_all, kind="stable")[:3]
            big = [(float(d_all[p]), int(p)) for p in o_d]
        else:
            o_z = np.argsort(-st.size, kind="stable")[:3]
            big = [(int(st.size[p]), int(p)) for p in o_z]
        lam = tr.lam
        lb = math.log(tr.base)
    for I, J in _pair_chunks(st.k, rows):
        keep = st.comp[I] != st.comp[J]
        I, J = I[keep], J[keep]
        if not len(I):
            continue
        n_cand += len(I)
        if is_u2 and not st.fast and n_cand > _MAX_SLOW_PAIRS:
            return None
        lo, hi = np.minimum(st.idx[I], st.idx[J]), np.maximum(st.idx[I], st.idx[J])
        if obj == "I*":
            if is_u2:
                cost = st.dbar(I, J)
                keys = [_q(cost), lo, hi]
            else:
                cost = (st.size[I] + st.size[J]).astype(float)
                big_c = np.maximum(st.comp_size[I], st.comp_size[J]) if paper else np.zeros(len(I))
                small_c = np.minimum(st.comp_size[I], st.comp_size[J]) if paper else np.zeros(len(I))
                keys = [_q(cost), -big_c, -small_c, lo, hi]
        else:
            new_s = st.ssz[I] + st.ssz[J]
            priv_new = (math.log(ctx.prob.n_s) - np.log(np.minimum(_excl(small_s, I, J, np.inf), new_s))) / lb
            if is_u2:
                util_new = 0.0 - np.maximum(_excl(big, I, J, -np.inf), st.dbar(I, J))
            else:
                mz = np.maximum(_excl(big, I, J, -np.inf), st.size[I] + st.size[J])
                util_new = (math.log(tr.n_public) - np.log(mz)) / lb
            cost = (priv_new - priv_old) - lam * (util_new - util_old)
            keys = [_q(cost), new_s if paper else np.zeros(len(I)), lo, hi]
        sel = _top(keys, m)
        best.extend((tuple(float(k[s]) for k in keys), int(I[s]), int(J[s]), float(cost[s])) for s in sel)
    best.sort(key=lambda e: e[0])
    best = best[:m]
    if obj == "I*":
        crit = ("d̄(𝒳1 ⊔ 𝒳2) over pairs in different components (eq. (8); ties: lowest index)" if is_u2 else
                "|𝒳1| + |𝒳2| over pairs in different components (eq. (8); ties: "
                + ("the two largest components joined, then " if paper else "") + "lowest index)")
    else:
        crit = ("ΔL of eq. (12) over pairs in different components (ties: "
                + ("smallest |[[S|𝒳1]]| + |[[S|𝒳2]]|, then " if paper else "") + "lowest index)")
    return crit, n_cand, best


def _members(trace, st: _Stats, p: int) -> list:
    labels = trace.public_labels
    return [labels[i] for i in st.members_of(p).tolist()]


def _partition(trace, st: _Stats) -> list[frozenset]:
    labels = trace.public_labels
    return [frozenset(labels[i] for i in st.members_of(p).tolist()) for p in range(st.k)]


def _extremes(st: _Stats) -> dict:
    """The three smallest |[[S|𝒳]]| and the three largest sizes (or d̄) of the clusters of ``st``, with their
    positions, and the number of components: what L needs after merging any pair, in O(1) per pair."""
    ex = getattr(st, "_extremes", None)
    if ex is None:
        def first3(v, largest):
            o = np.argsort(-v if largest else v, kind="stable")[:3]
            return [(float(v[p]), int(p)) for p in o]

        ex = {"ssz": first3(st.ssz, False), "size": first3(st.size, True)}
        if hasattr(st.ub, "cluster_cost") and st.fast:
            ex["dbar"] = first3(st.dbar_all(), True)
        if getattr(st, "comp", None) is not None:
            ex["ncomp"] = len(np.unique(st.comp))
        st._extremes = ex
    return ex


def _other(top3, i, j, fill):
    """The first value of ``top3`` [(value, position)] whose position is neither i nor j."""
    return next((v for v, p in top3 if p != i and p != j), fill)


def _L_fast(ctx: _Context, st: _Stats, i: int | None = None, j: int | None = None) -> float | None:
    """L = privacy - λ·utility of the partition of ``st`` (clusters ``i`` and ``j`` merged, when given) from the
    per-cluster statistics, as :func:`graphpriv.lagrangian` computes it with privacy L0 (objectives "L0" and
    "L0|I*=0") or I* (objective "I*"); None for a utility without a fast path (custom U2)."""
    tr, prob, ub = ctx.trace, ctx.prob, st.ub
    is_u2 = hasattr(ub, "cluster_cost")
    if is_u2 and not st.fast:
        return None
    ex = _extremes(st)
    if is_u2:
        worst = _other(ex["dbar"], i, j, -math.inf)
        if i is not None:
            worst = max(worst, float(ub.cluster_cost(np.concatenate([st.members_of(i), st.members_of(j)]))))
        util = 0.0 - worst
    else:
        big = int(_other(ex["size"], i, j, 0))
        if i is not None:
            big = max(big, int(st.size[i] + st.size[j]))
        util = ub.value_from_max_size(big)
    if tr.objective == "I*":
        ncomp = ex["ncomp"] - (0 if i is None or st.comp[i] == st.comp[j] else 1)
        priv = prob.istar(ncomp)
    else:
        small = _other(ex["ssz"], i, j, math.inf)
        if i is not None:
            C = st.C
            both = len(np.intersect1d(C.indices[C.indptr[i]:C.indptr[i + 1]], C.indices[C.indptr[j]:C.indptr[j + 1]]))
            small = min(small, int(st.ssz[i] + st.ssz[j]) - both)
        priv = prob.l0(int(small))
    return priv - tr.lam * util


def _finish(ctx: _Context, st: _Stats, best: list, pa: int, pb: int, L_prev: float, top: int):
    """The listed candidates (the merged pair first, then the best others) with their ΔL from L_prev, and the
    merged pair's position in the criterion's order."""
    from ...mechanisms.quantization.agglomerative import lagrangian

    tr = ctx.trace
    chosen_rank = next((r for r, e in enumerate(best) if {e[1], e[2]} == {pa, pb}), -1)
    rank_of = {id(e): r + 1 for r, e in enumerate(best)}
    if chosen_rank < 0:  # not among the best few by the criterion (only for a mechanism that broke its own rule)
        best = [(None, pa, pb, math.nan)] + best
        chosen = best[0]
    else:
        chosen = best[chosen_rank]
    rest = [e for e in best if e is not chosen][:max(0, top - 1)]
    fast = _L_fast(ctx, st) is not None
    base_q = None if fast else _partition(tr, st)
    obj = "L0" if tr.objective == "L0|I*=0" else tr.objective
    out = []
    for e in [chosen, *rest]:
        i, j = e[1], e[2]
        lo, hi = (i, j) if st.idx[i] < st.idx[j] else (j, i)
        if fast:
            dl = _L_fast(ctx, st, i, j) - L_prev
            a, b = frozenset(_members(tr, st, lo)), frozenset(_members(tr, st, hi))
        else:
            q = [c for p, c in enumerate(base_q) if p not in (i, j)] + [base_q[i] | base_q[j]]
            dl = lagrangian(ctx.jr, q, obj, tr.lam, ctx.utility, ctx.values, base=tr.base) - L_prev
            a, b = base_q[lo], base_q[hi]
        out.append(Candidate(a, b, e[3], float(dl), e is chosen, rank_of.get(id(e), 0)))
    return tuple(out), chosen_rank


def _unranked(number: int, a: frozenset, b: frozenset, note: str) -> PairCandidates:
    return PairCandidates(number, a, b, (Candidate(a, b, math.nan, math.nan, True),), 0, -1, note)


def _alg1_pairs(ctx: _Context, t: int, top: int, m: int) -> list[PairCandidates]:
    """One ranking per pair of an Algorithm 1 sweep, replaying the sweep: pair k is ranked on Q(t-1) with
    the pairs 1..k-1 already merged, as the mechanism compared partners (Ding & Farokhi, Algorithm 1,
    steps 5-10)."""
    from ...mechanisms.quantization.agglomerative import lagrangian

    tr = ctx.trace
    ids = tr.cluster_ids(t - 1).copy()
    L_prev = float(tr.step_L[t - 1])
    many = len(tr.step_merges[t]) > 1
    out = []
    merges = tr.step_merges[t]
    limit = len(merges) if ctx.max_pairs is None else min(len(merges), ctx.max_pairs)
    for k, (a, b) in enumerate(merges[:limit]):
        st = _Stats(ctx, ids)
        pa, pb = int(st.rank[a]), int(st.rank[b])
        A, B = frozenset(_members(tr, st, pa)), frozenset(_members(tr, st, pb))
        if k:
            L_prev = _L_fast(ctx, st)
            if L_prev is None:
                L_prev = lagrangian(ctx.jr, _partition(tr, st), "L0", tr.lam, ctx.utility, ctx.values, base=tr.base)
        ranked = _rank_alg1(ctx, st, pa, m)
        if ranked is None:
            out.append(_unranked(k + 1, A, B, f"more than {_MAX_SLOW_PAIRS} partners under a custom U2: not ranked"))
        else:
            n_cand, best = ranked
            cands, chosen_rank = _finish(ctx, st, best, pa, pb, L_prev, top)
            note = (f"𝒳 = {{{ctx.labeller.cluster(st.members_of(pa), max_members=6)}}} is in Π "
                    f"(|[[S|𝒳]]| = {int(st.ssz[pa])}); partners need a different sensitive set")
            if k:
                note += f"; ranked after pairs 1–{k} of this sweep merged" if k > 1 else "; ranked after pair 1 of this sweep merged"
            out.append(PairCandidates(k + 1, A, B, cands, n_cand, chosen_rank, note))
        lo, hi = sorted((int(ids[a]), int(ids[b])))
        ids[ids == hi] = lo
    if limit < len(merges):  # the rest of the sweep: the merged pairs, unranked
        note = f"pairs after the first {limit} of this sweep are not ranked (at most {limit} ranked per step)"
        out += [_unranked(limit + 1 + k, frozenset(a), frozenset(b), note)
                for k, (a, b) in enumerate(tr.steps[t].merged[limit:])]
    if many:
        out[0] = replace(out[0], note=out[0].note + f"; this sweep merged {len(merges)} pairs")
    return out


def _step(ctx: _Context, t: int, top: int) -> StepCandidates:
    tr = ctx.trace
    if t == 0 or not tr.step_merges[t]:
        return StepCandidates(t, "", (), 0, -1, "initial state: no merge" if t == 0 else "no merge at this step")
    merged = tr.steps[t].merged
    if not ctx.greedy:
        note = f"{tr.objective!r} traces of this mechanism have no per-step criterion; the merged pair is shown"
        pairs = tuple(_unranked(k + 1, a, b, note) for k, (a, b) in enumerate(merged))
        return StepCandidates(t, "", pairs[0].candidates, 0, -1, note, pairs)
    m = max(top * 3, top + 5)
    if tr.objective == "L0":
        crit = _criterion_alg1(hasattr(ctx.prob.ub, "cluster_cost"))
        pairs = tuple(_alg1_pairs(ctx, t, top, m))
    else:
        st = _Stats(ctx, tr.cluster_ids(t - 1), tr.component_ids(t - 1))
        a_code, b_code = tr.step_merges[t][0]
        pa, pb = int(st.rank[a_code]), int(st.rank[b_code])
        A, B = frozenset(_members(tr, st, pa)), frozenset(_members(tr, st, pb))
        rows = None
        # the candidates are the pairs of clusters in different components (eq. (8), Ψ): only when there are more
        # of them than max_scan are the pairs ranked reduced to those holding a merged cluster
        cs = np.bincount(st.comp).astype(np.int64)
        total = (st.k * st.k - int((cs ** 2).sum())) // 2
        if ctx.max_scan is not None and total > ctx.max_scan:
            rows = np.array([pa, pb], dtype=np.int64)
        ranked = _rank_psi(ctx, st, t, m, rows)
        if ranked is None:
            note = f"more than {_MAX_SLOW_PAIRS} candidate pairs under a custom U2: not ranked"
            pairs = (_unranked(1, A, B, note),)
            return StepCandidates(t, "", pairs[0].candidates, 0, -1, note, pairs)
        crit, n_cand, best = ranked
        cands, chosen_rank = _finish(ctx, st, best, pa, pb, float(tr.step_L[t - 1]), top)
        note = ""
        if rows is not None:
            note = (f"ranked among the {n_cand:,} pairs that hold one of the merged clusters ({total:,} candidate pairs "
                    f"in all, more than the {ctx.max_scan:,} scanned per step)")
        pairs = (PairCandidates(1, A, B, cands, n_cand, chosen_rank, note),)
    first = pairs[0]
    if first.chosen_rank == -1 and first.n_candidates == 0:  # not ranked (custom U2)
        return StepCandidates(t, "", first.candidates, 0, -1, first.note, pairs)
    return StepCandidates(t, crit, first.candidates, first.n_candidates, first.chosen_rank, first.note, pairs)


def merge_candidates(trace, jr, t: int, *, top: int = 5, utility=None, values=None, max_pairs: int | None = None,
                     max_scan: int | None = None) -> StepCandidates:
    """The best ``top`` candidate pairs of step t by the mechanism's criterion, the chosen pair first.

    Parameters
    ----------
    trace : MergeTrace
        A trace of :func:`graphpriv.agglomerate` (greedy search).
    jr : JointRange
        The joint range the trace was recorded on.
    t : int
        Step (>= 1; step 0 has no merge).
    top : int
        Number of pairs listed.
    utility, values
        As given to :func:`graphpriv.agglomerate` (default: the trace's utility; U2 values default to the
        public labels when they are numbers).
    max_pairs : int, optional
        Rank at most this many pairs of an Algorithm 1 sweep (the first ones, in merge order); the later
        pairs are listed unranked. Default: all.
    max_scan : int, optional
        When a step of Algorithm 2 or Section V-C has more pairs of clusters than this, rank only the pairs
        holding one of the two merged clusters (the note says so). Default: every pair.

    Returns
    -------
    StepCandidates

    Examples
    --------
    >>> import graphpriv as gp
    >>> jr, _ = gp.datasets.paper_example()
    >>> sc = gp.viz.merge_candidates(gp.agglomerate(jr, "I*", 0.3).trace, jr, 1)   # paper 003, Example 3
    >>> [(sorted(c.a | c.b), c.cost, c.chosen) for c in sc.candidates[:2]]
    [(['x1', 'x3'], 2.0, True), (['x1', 'x4'], 2.0, False)]
    >>> sc.chosen_rank
    0
    """
    trace, jr = _check(trace, jr, top, max_pairs, max_scan)
    t = trace._check_t(t)
    return _step(_Context(trace, jr, utility, values, max_pairs, max_scan), t, top)


def candidate_table(trace, jr, *, top: int = 5, utility=None, values=None, steps=None, max_pairs: int | None = None,
                    max_scan: int | None = None) -> list[StepCandidates]:
    """:func:`merge_candidates` for every step (or the given ``steps``), sharing one set-up."""
    trace, jr = _check(trace, jr, top, max_pairs, max_scan)
    ctx = _Context(trace, jr, utility, values, max_pairs, max_scan)
    ts = range(len(trace)) if steps is None else [trace._check_t(int(t)) for t in steps]
    return [_step(ctx, t, top) for t in ts]


def _check(trace, jr, top, max_pairs=None, max_scan=None):
    from ...errors import InputTypeError
    from ..merges import _check_pair

    trace, jr = _check_pair(trace, jr)
    for name, v, what in (("top", top, "number of candidate pairs listed"), ("max_pairs", max_pairs, "pairs of a sweep ranked"),
                          ("max_scan", max_scan, "candidate pairs scanned per step")):
        if v is None and name != "top":
            continue
        if isinstance(v, bool) or not isinstance(v, (int, np.integer)) or v < 1:
            raise InputTypeError(f"{name} must be a positive integer ({what}), got {v!r}")
    return trace, jr
