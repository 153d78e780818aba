"""Section V-C for every λ at once: one tree of trajectories, split only where eq. (12)'s winner changes.

Ding & Farokhi, *Developing Non-Stochastic Privacy-Preserving Policies Using Agglomerative Clustering*,
Section V-C, problem (10) (min L0 - λU s.t. I* = 0) and its steepest descent, eqs. (11)-(12). At a
state Q every pair of Ψ(Q, P) has ΔL(λ) = ΔL0 - λ ΔU, a line in λ, and eq. (12) merges the pair on the
lower envelope of these lines. The envelope is concave, so a pair winning at both ends of an interval of
λ wins on all of it, and the range of λ is split only where the winners at the two ends differ, at the
crossing λ* = (ΔL0_r - ΔL0_p) / (ΔU_r - ΔU_p) of their lines, computed exactly from the two lines (the
parametric search of Eisner & Severance, *Mathematical techniques for efficient record segmentation in
large shared databases*, J. ACM 1976). The winner at λ* is asked in turn: if its ΔL there lies more than
twice the tie tolerance below the two lines, it is a new piece of the envelope and both sides are
searched again; otherwise λ* is a breakpoint: p to its left, r from it on. The pieces of λ with the
same winner share the state (one merge for all of them); the state is copied only where they part, so
common prefixes of the trajectories are merged once. Per state, what does not depend on λ (extreme
clusters, the lines of the pairs holding them, orders) is computed once for all the λ asked; and on
(0, hi) the winner at hi alone settles the step when its ΔL0 is the smallest ΔL0 over Ψ (a line through
the envelope's intercept that wins at hi wins on all of (0, hi]), so a branch of λ > 0 usually costs
one evaluation per step. There is no λ grid: every λ >= 0 gets its
trajectory, and the breakpoints are those of the envelopes themselves (as the thresholds of Algorithms 1
and 2 in :func:`graphpriv.pareto_frontier`).

The winners are asked of the single run's own step function
(:func:`~graphpriv.mechanisms.quantization.section_vc.step_winner`), which compares ΔL rounded to the
tie tolerance ``_COST_TOL`` = 1e-9 and breaks ties by (|S|𝒳1| + |S|𝒳2|, pair index). The tree follows
the exact envelope instead:

* λ = 0 is its own point, decided by the single run's rule (smallest rounded ΔL0, then the tie key);
* right of 0 the envelope is decided exactly: among pairs whose ΔL0 tie after rounding the larger ΔU
  wins for every λ > 0, so (0, first breakpoint) is one branch (the rounded costs of a single run at
  0 < λ < ~1e-8 tie there and the tie key decides, which the tree does not follow);
* two lines within the tolerance of each other at an end of an interval cross there (no sliver of
  width below ``_COST_TOL / |ΔU_p - ΔU_r|`` is split off), and two lines that stay within the
  tolerance over a whole interval are one tie, decided by the rounded ΔL and the tie key at its middle.

Consequence: a rounded winner lies within one tolerance of the exact lower envelope, so at every λ the
pair the tree merges has ΔL within 3 tie tolerances of it (one at the ends of an interval, up to three
where an envelope piece shallower than two tolerances is not split off), and a single run
(:func:`~graphpriv.mechanisms.quantization.section_vc.problem10`) at λ takes the same trajectory
unless at some step the two pairs' ΔL(λ) lie within 3 · 1e-9 of each other -- λ within about
``1e-9 / |ΔU_p - ΔU_r|`` of a breakpoint between pairs p and r, including the band
right of 0 where the rounded costs of pairs with equal ΔL0 tie. There the single run resolves the
near-tie by the rounded cost and the tie key and may take the other branch; everywhere else its
trajectory is the tree's.

For U1 no two lines cross above :func:`lam_top` (bounds on ΔL0 and on the gaps between values of ΔU1),
so the search is exact on [0, inf). For distortion utilities (U2) the gaps between values of ΔU have
no lower bound: the search runs up to ``LAM_TOP_DISTORTION`` = 1e6 and the trajectory found there is
reported for every larger λ.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field

import numpy as np

from ...errors import InputError
from ..utilities import _BoundU2
from .contraction import Contraction
from .problem import _COST_TOL, _check_lam, _Problem, _Traj
from .result import AgglomerationResult, _build_trace, _result_from_trace
from .section_vc import min_delta_l0, step_winners

__all__ = ["VCTree", "VCLeaf", "problem10_tree", "lam_top"]

#: Upper end of the searched λ range for distortion utilities (U2); the trajectory at it is reported for
#: every larger λ. For U1 the range is exact on [0, inf) (see :func:`lam_top`).
LAM_TOP_DISTORTION = 1e6

_MARGIN = _COST_TOL  # lines closer than this at an end of an interval cross there (a near-tie)
_NEW_PIECE = 2 * _COST_TOL  # a winner this far below a crossing of two lines is a new envelope piece
_MAX_DEPTH = 200  # nested crossings per interval and step (a safeguard; real ranges stay far below)


@dataclass(frozen=True, eq=False)
class VCLeaf:
    """One Section V-C trajectory and the set of λ that follow it.

    Attributes
    ----------
    segments : tuple of (float, float)
        The λ sets: ``(0.0, 0.0)`` is the point λ = 0; ``(lo, hi)`` with ``lo > 0`` is [lo, hi);
        ``(0.0, hi)`` with ``hi > 0`` is the open (0, hi); ``hi`` is inf for the last piece.
    traj : _Traj
        The per-step record of the run (merges, privacy L0, utility, |Q|, |P|).
    ids : numpy.ndarray
        Cluster id (smallest member code) of every public code at the end (I* = 0).
    """

    segments: tuple
    traj: _Traj = field(repr=False)
    ids: np.ndarray = field(repr=False)

    @property
    def lam_min(self) -> float:
        return min(lo for lo, _ in self.segments)

    @property
    def lam_max(self) -> float:
        return max(hi for _, hi in self.segments)

    @property
    def privacy(self) -> float:
        return float(self.traj.priv[-1])

    @property
    def utility(self) -> float:
        return float(self.traj.util[-1])

    def contains(self, lam: float) -> bool:
        for lo, hi in self.segments:
            if lo == hi == 0.0:
                if lam == 0.0:
                    return True
            elif (lo < lam if lo == 0.0 else lo <= lam) and lam < hi:
                return True
        return False


@dataclass(frozen=True, eq=False)
class VCTree:
    """Every Section V-C trajectory of problem (10) over λ >= 0, as the leaves of one tree.

    Ding & Farokhi, *Developing Non-Stochastic Privacy-Preserving Policies Using Agglomerative
    Clustering*, Section V-C, eqs. (11)-(12); built by :func:`graphpriv.section_vc_tree` (see the notes
    of :mod:`graphpriv.mechanisms.quantization.vc_tree` for how the λ range is split exactly).

    Attributes
    ----------
    leaves : tuple of VCLeaf
        One per distinct trajectory, ordered by smallest λ; their ``segments`` tile [0, inf).
    breakpoints : tuple of float
        Every λ > 0 where the trajectory changes, increasing.
    """

    leaves: tuple
    problem: _Problem = field(repr=False)

    @property
    def breakpoints(self) -> tuple:
        return tuple(sorted({lo for leaf in self.leaves for lo, hi in leaf.segments if lo > 0}))

    def leaf_at(self, lam: float) -> VCLeaf:
        """The leaf whose λ segments hold ``lam``."""
        lam = _check_lam(lam)
        for leaf in self.leaves:
            if leaf.contains(lam):
                return leaf
        raise InputError(f"no leaf holds λ = {lam!r}")  # pragma: no cover - the segments tile [0, inf)

    def result_at(self, lam: float) -> AgglomerationResult:
        """Section V-C's result at ``lam`` from the tree's trajectory: that of ``graphpriv.agglomerate(jr,
        "L0|I*=0", lam, ...)`` except within the near-tie bands of the module notes."""
        prob = self.problem
        return _result_from_trace(prob, _build_trace(prob, self.leaf_at(lam).traj, float(lam)))

    def __len__(self) -> int:
        return len(self.leaves)

    def __repr__(self) -> str:
        return f"VCTree(leaves={len(self.leaves)}, breakpoints={len(self.breakpoints)})"


class _Stats:
    """Counters of one tree: winner evaluations, branches, merge steps (all nodes), steps before the first split."""

    def __init__(self):
        self.evaluations = 0
        self.branches = 1
        self.steps = 0
        self.first_split = None

    def __repr__(self) -> str:
        return (f"evaluations={self.evaluations} branches={self.branches} steps={self.steps} "
                f"first_split={self.first_split}")


def lam_top(prob: _Problem) -> float:
    """λ beyond which no two lines of eq. (12) cross (U1), or ``LAM_TOP_DISTORTION`` (distortion utilities).

    For U1 a pair's ΔL0 lies in [-L0(Q), 0] and L0 <= log|S|, while two different ΔU1 = log(M/M') of
    integer cluster sizes M, M' <= |X| differ by at least log(|X| / (|X| - 1)); two lines therefore
    cross below log|S| / log(|X| / (|X| - 1)) (any logarithm base). The returned λ is twice that plus
    one, so that the last piece [lam_top, inf) is exact as well.
    """
    if not _is_distortion(prob) and prob.n >= 2:
        return 2.0 * math.log(max(prob.n_s, 2)) / math.log(prob.n / (prob.n - 1)) + 1.0
    return LAM_TOP_DISTORTION


def _is_distortion(prob: _Problem) -> bool:
    return isinstance(prob.ub, _BoundU2) or not hasattr(prob.ub, "value_from_max_size")


def problem10_tree(prob: _Problem, *, stats: _Stats | None = None) -> list[VCLeaf]:
    """Every Section V-C trajectory (problem (10)) for λ in [0, inf), sharing common prefixes.

    Returns the leaves ordered by their smallest λ; their segments tile [0, inf) (see :class:`VCLeaf`).
    """
    st = stats if stats is not None else _Stats()
    top = lam_top(prob)
    c0 = Contraction._from_problem(prob)
    stack = [(c0, [(0.0, 0.0), (0.0, top)], prob.l0(c0.min_s_size()), c0.utility())]
    leaves = []
    while stack:
        c, segs, priv, util = stack.pop()
        comp = c.component_array()
        while c.n_components > 1:
            st.steps += 1
            groups = _split(prob, c, comp, segs, priv, util, st)
            if len(groups) > 1 and st.first_split is None:
                st.first_split = len(c.history) - 1
            for (a, b), gsegs in groups[1:]:
                child = c.copy()
                child._merge(a, b)
                min_s, _, u, _ = child._record(((a, b),))
                stack.append((child, gsegs, prob.l0(min_s), u))
                st.branches += 1
            (a, b), segs = groups[0]
            c._merge(a, b)
            min_s, _, util, _ = c._record(((a, b),))
            priv = prob.l0(min_s)
        segs = [(lo, math.inf if hi == top and hi > lo else hi) for lo, hi in segs]
        leaves.append(VCLeaf(tuple(segs), c._trajectory("L0"), c.cluster_ids()))
    leaves.sort(key=lambda leaf: (leaf.lam_min, leaf.lam_max))
    return leaves


class _Line:
    """The single run's winner at one λ: its key and the line ΔL(λ) = dp - λ du of its pair."""

    __slots__ = ("key", "pair", "dp", "du")

    def __init__(self, best, priv, util):
        key, p_new, u_new = best
        self.key = key
        self.pair = (int(key[2]), int(key[3]))
        self.dp = p_new - priv
        self.du = u_new - util

    def at(self, lam: float) -> float:
        return self.dp - lam * self.du


def _split(prob, c, comp, segs, priv, util, st) -> list:
    """[(pair, segments)] of eq. (12)'s winners over the λ segments ``segs`` of one state."""
    cache: dict = {}

    def win(*lams: float) -> list:
        todo = [lam for lam in lams if lam not in cache]
        if todo:
            st.evaluations += len(todo)
            for lam, best in zip(todo, step_winners(prob, c, comp, todo, priv, util)):
                cache[lam] = _Line(best, priv, util)
        return [cache[lam] for lam in lams]

    pieces: list = []
    if (0.0, 0.0) not in segs:
        # (0, hi) without the point 0: if the winner at hi has the smallest ΔL0 (the envelope's intercept,
        # up to rounding) it wins on all of (0, hi] -- a line of larger slope through that intercept would
        # beat it at hi -- and the winner at 0 need not be asked
        for lo, hi in segs:
            if lo == 0.0:
                w_hi, = win(hi)
                if round(w_hi.dp / _COST_TOL) == min_delta_l0(prob, c, comp, priv):
                    pieces.append((lo, hi, w_hi.pair))
                    segs = [seg for seg in segs if seg[0] != 0.0]
                break
    win(*sorted({x for seg in segs for x in seg}))  # the ends of every segment (shared per-state preparation)
    for lo, hi in segs:
        if lo == hi:  # the point λ = 0: the single run's own rule
            pieces.append((lo, hi, cache[lo].pair))
        else:
            _gap(lo, hi, cache[lo], cache[hi], win, pieces, 0)
    pieces.sort(key=lambda piece: (piece[0], piece[1]))
    groups: dict = {}
    for lo, hi, pair in pieces:
        got = groups.setdefault(pair, [])
        if got and got[-1][1] == lo and got[-1][0] != got[-1][1] and lo != hi:
            got[-1] = (got[-1][0], hi)  # adjacent intervals of one winner
        else:
            got.append((lo, hi))
    return list(groups.items())


def _gap(a: float, b: float, wa: _Line, wb: _Line, win, out: list, depth: int) -> None:
    """Append (lo, hi, pair) pieces tiling the interval from a to b, whose end winners are wa and wb."""
    if wa.pair == wb.pair:
        out.append((a, b, wa.pair))
        return
    if depth < _MAX_DEPTH and wb.at(a) - wa.at(a) > _MARGIN and wa.at(b) - wb.at(b) > _MARGIN:
        x = (wb.dp - wa.dp) / (wb.du - wa.du)  # wa is lower at a, wb at b: they cross inside
        if a < x < b:
            wx, = win(x)
            if wx.at(x) < wa.at(x) - _NEW_PIECE:  # a new piece of the envelope below the crossing
                _gap(a, x, wa, wx, win, out, depth + 1)
                _gap(x, b, wx, wb, win, out, depth + 1)
            else:
                out.append((a, x, wa.pair))
                out.append((x, b, wb.pair))
            return
    # no crossing inside (up to the tolerance): one line is the lower one (or within the tolerance of
    # it) over the whole interval; the rounded ΔL and the tie key at the middle decide, as a single run
    m = 0.5 * (a + b)
    ka = (round(wa.at(m) / _COST_TOL), wa.key[1:])
    kb = (round(wb.at(m) / _COST_TOL), wb.key[1:])
    out.append((a, b, (wa if ka <= kb else wb).pair))
