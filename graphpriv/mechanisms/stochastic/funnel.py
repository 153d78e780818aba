"""The agglomerative privacy funnel and information bottleneck (deterministic merges of X).

Ding & Sadeghi, *A Submodularity-based Clustering Algorithm for the Information Bottleneck and Privacy
Funnel*, IEEE Information Theory Workshop (ITW) 2019, arXiv:1901.06629. A deterministic release X̂ =
f(X) is a partition of the public alphabet. The **privacy funnel** (PF) minimises the Lagrangian

    L_PF(X̂) = I(S; X̂) - λ·I(X; X̂),      I(X; X̂) = H(X̂) for a deterministic f,

and the **information bottleneck** (IB) exchanges the roles, L_IB(X̂) = I(X; X̂) - β·I(S; X̂). Both start
from X̂ = X and merge current symbols while the Lagrangian decreases. Merging a set W of current
symbols changes the two terms by

    ΔI(S;X̂)(W) = -Σ_{x∈W} p(x)·D(p_{S|x} ‖ p_{S|W})  <= 0,
    ΔH(X̂)(W)   = -p(W)·H(X | X ∈ W)                   <= 0,

so ΔL_PF(W) = ΔI - λ·ΔH and ΔL_IB(W) = ΔH - β·ΔI. As set functions of W both are sums of
x ln x applied to modular functions (the column p(·, W) and the mass p(W)) -- supermodular terms --
minus a modular term, hence **differences of submodular functions**. Two merge rules:

* ``method="greedy"``: the iterative pairwise merge, the paper's baseline (best pair per step).
* ``method="subset"``: per step, the set W (|W| >= 2) that the paper's submodular procedure finds.
  graphpriv minimises the difference of submodular functions by majorise-minimise descents started
  from the best pair: the supermodular-submodular procedure (Narasimhan & Bilmes, *A
  supermodular-submodular procedure with applications to discriminative structure learning*, UAI
  2005) and the modular-modular procedure (Iyer & Bilmes, *Algorithms for approximate minimization of
  the difference between submodular functions*, UAI 2012), plus single add/remove moves, and keeps
  the best set any of them reached. Every descent starts from the best pair and only accepts
  decreases, so a subset step is never worse than the best pairwise step; it is not guaranteed to be
  the best subset (the problem is NP-hard in general).

All quantities are computed in nats and reported in the unit of ``base`` (bits by default); λ and β
are unitless.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field

import numpy as np
import pandas as pd

from ..._validation import check_base, check_real
from ...errors import InputError, InputTypeError
from ...measures.stochastic import _joint
from ...citations import record_use
from ..trace import MergeTrace
from ._partition_common import (BlockPartition, ComponentCounter, blocks_from_assignment, components0, measures_of_columns,
                                xlogx)

__all__ = ["FunnelResult", "FunnelFrontier", "privacy_funnel", "information_bottleneck", "funnel_frontier",
           "FUNNEL_METHODS"]

#: Merge rules of :func:`privacy_funnel` and :func:`information_bottleneck`.
FUNNEL_METHODS = ("greedy", "subset")

_TOL = 1e-13          # a step must lower L by more than this (nats) to be taken
_MAX_DESCENT = 200    # cap on majorise-minimise iterations per step


# ----------------------------------------------------------------------------- results
@dataclass(frozen=True, repr=False)
class FunnelResult(BlockPartition):
    """Output of :func:`privacy_funnel` / :func:`information_bottleneck`: a partition of X and its trace.

    Attributes
    ----------
    objective : str
        ``"privacy funnel"`` or ``"information bottleneck"``.
    lam : float
        λ (privacy funnel) or β (information bottleneck).
    method : str
        ``"greedy"`` (pairwise) or ``"subset"``.
    base : float
        Log base of every information quantity.
    public_labels : ndarray
        X in code order.
    assignment : ndarray of int
        Block id of every public code (blocks numbered by their smallest code).
    privacy : float
        I(S; X̂).
    utility : float
        I(X; X̂) = H(X̂).
    L : float
        The Lagrangian of ``objective`` at the returned partition.
    max_abs_log_lift : float
        max_{s, x̂} |log p(s, x̂) / (p(s) p(x̂))| of the release.
    mutual_information_sx, entropy_x : float
        I(S; X) and H(X): the values at X̂ = X.
    trace : MergeTrace
        Every step with its criterion (ΔL, ΔI(S;X̂), ΔI(X;X̂), |W|).
    """

    objective: str
    lam: float
    method: str
    base: float
    public_labels: np.ndarray
    assignment: np.ndarray
    privacy: float
    utility: float
    L: float
    max_abs_log_lift: float
    mutual_information_sx: float
    entropy_x: float
    trace: MergeTrace = field(repr=False)

    @property
    def blocks(self) -> list[np.ndarray]:
        """Blocks of the partition as arrays of public codes, ordered by smallest code."""
        return blocks_from_assignment(self.assignment)

    @property
    def n_blocks(self) -> int:
        return int(self.assignment.max()) + 1 if self.assignment.size else 0

    def report(self) -> dict:
        """Privacy/utility summary (JSON-able)."""
        return {"objective": self.objective, "lam": self.lam, "method": self.method, "base": self.base,
                "n_public": int(len(self.public_labels)), "n_blocks": self.n_blocks, "I_S_Xhat": self.privacy,
                "I_X_Xhat": self.utility, "L": self.L, "max_abs_log_lift": self.max_abs_log_lift,
                "I_S_X": self.mutual_information_sx, "H_X": self.entropy_x, "n_steps": len(self.trace) - 1}

    def __repr__(self) -> str:
        sym = "λ" if self.objective == "privacy funnel" else "β"
        return (f"FunnelResult({self.objective}, {sym}={self.lam:g}, method={self.method!r}, |X|={len(self.public_labels)} -> "
                f"|X̂|={self.n_blocks}, I(S;X̂)={self.privacy:.4g}, I(X;X̂)={self.utility:.4g}, L={self.L:.4g})")


@dataclass(frozen=True, repr=False)
class FunnelFrontier:
    """Privacy-utility points of a λ (or β) sweep of the funnel (or bottleneck).

    Attributes
    ----------
    frame : DataFrame
        One row per λ: ``lam, method, privacy (I(S;X̂)), utility (I(X;X̂)), L, n_blocks``.
    trajectory : DataFrame
        Every step of every run (``lam, t, privacy, utility``): each intermediate partition is itself a
        deterministic release.
    results : tuple of FunnelResult
        The run at each λ, in the order of ``frame``.
    """

    objective: str
    method: str
    base: float
    frame: pd.DataFrame
    trajectory: pd.DataFrame
    results: tuple = ()

    def pareto(self) -> pd.DataFrame:
        """The non-dominated points (lower I(S;X̂), higher I(X;X̂)) among all steps of all runs."""
        from ..quantization.frontier import pareto_filter

        tr = self.trajectory
        keep = pareto_filter(tr["privacy"].to_numpy(), tr["utility"].to_numpy())
        return tr.iloc[keep].reset_index(drop=True)

    def __len__(self) -> int:
        return len(self.frame)

    def __repr__(self) -> str:
        return f"FunnelFrontier({self.objective}, method={self.method!r}, {len(self.frame)} λ values, base={self.base:g})"


# ----------------------------------------------------------------------------- the engine
class _Engine:
    """Current clusters of a merge run (nats): columns p(·, y), masses, per-cluster g and h.

    ΔL(W) = a_g·g(c_W) + a_h·h(m_W) - Σ_{w∈W} μ_w with g(c) = Σ_s c_s ln c_s, h(m) = m ln m and μ_w =
    a_g g(c_w) + a_h h(m_w). Privacy funnel: a_g = 1, a_h = λ - 1 (from ΔI = Δ[g - h], ΔH = -Δh);
    information bottleneck: a_g = -β, a_h = β - 1.
    """

    def __init__(self, P: np.ndarray, a_g: float, a_h: float, pair_dI=None, pair_dH=None):
        self.n = P.shape[1]
        self.C = np.ascontiguousarray(P.T.copy())        # row y = column p(., y)
        self.m = self.C.sum(axis=1)
        self.g = xlogx(self.C).sum(axis=1)
        self.h = xlogx(self.m)
        self.alive = self.m > 0                           # zero-mass symbols never merge (ΔL = 0)
        self.a_g, self.a_h = float(a_g), float(a_h)
        self.members: dict[int, list[int]] = {i: [i] for i in range(self.n)}
        if pair_dI is None:
            pair_dI, pair_dH = _pair_matrices(self.C, self.m, self.g, self.h, self.alive)
        # ΔL matrix for this run: ΔI = G - Σg - (h(M) - Σh);  ΔH = -(h(M) - Σh)
        self.D = self._combine(pair_dI, pair_dH)
        np.fill_diagonal(self.D, np.inf)
        dead = ~self.alive
        self.D[dead, :] = np.inf
        self.D[:, dead] = np.inf
        # best partner of every row: the argmin is O(|X|) per step instead of O(|X|^2)
        self.rowarg = np.argmin(self.D, axis=1)
        self.rowmin = self.D[np.arange(self.n), self.rowarg]

    def _combine(self, dI, dH):
        raise NotImplementedError

    # ΔL of a set of slots (bool mask over slots, or index array)
    def delta(self, idx: np.ndarray) -> float:
        c = self.C[idx].sum(axis=0)
        M = self.m[idx].sum()
        return float(self.a_g * xlogx(c).sum() + self.a_h * xlogx(M) - (self.a_g * self.g[idx] + self.a_h * self.h[idx]).sum())

    def terms(self, idx: np.ndarray) -> tuple[float, float]:
        """(ΔI(S;X̂), ΔH(X̂)) of merging the slots ``idx`` (nats)."""
        c = self.C[idx].sum(axis=0)
        M = float(self.m[idx].sum())
        dh = float(xlogx(M) - self.h[idx].sum())
        dI = float(xlogx(c).sum() - self.g[idx].sum()) - dh
        return dI, -dh

    def best_pair(self) -> tuple[int, int, float]:
        """The pair with the smallest ΔL (ties: the lowest pair index)."""
        i = int(np.argmin(self.rowmin))
        j = int(self.rowarg[i])
        return min(i, j), max(i, j), float(self.rowmin[i])

    def merge(self, idx: np.ndarray, dI_fn) -> int:
        """Merge the slots ``idx`` into the smallest one; update the ΔL matrix row/column."""
        idx = np.sort(np.asarray(idx, dtype=np.int64))
        r = int(idx[0])
        others = idx[1:]
        self.C[r] = self.C[idx].sum(axis=0)
        self.m[r] = self.m[idx].sum()
        self.g[r] = xlogx(self.C[r]).sum()
        self.h[r] = xlogx(self.m[r])
        for o in others.tolist():
            self.members[r].extend(self.members.pop(o))
        self.alive[others] = False
        self.D[others, :] = np.inf
        self.D[:, others] = np.inf
        alive = np.flatnonzero(self.alive)
        alive = alive[alive != r]
        if alive.size:
            Cr = self.C[r][None, :] + self.C[alive]
            M = self.m[r] + self.m[alive]
            G = xlogx(Cr).sum(axis=1)
            hM = xlogx(M)
            dh = hM - self.h[r] - self.h[alive]
            dI = G - self.g[r] - self.g[alive] - dh
            row = self._combine(dI, -dh)
            self.D[r, alive] = row
            self.D[alive, r] = row
        # row minima: rows whose partner was merged are rescanned; the others may now prefer r
        self.rowmin[idx] = np.inf
        if alive.size:
            k = int(np.argmin(self.D[r]))
            self.rowarg[r], self.rowmin[r] = k, self.D[r, k]
            stale = alive[np.isin(self.rowarg[alive], idx)]
            if stale.size:
                sub = self.D[stale]
                arg = np.argmin(sub, axis=1)
                self.rowarg[stale] = arg
                self.rowmin[stale] = sub[np.arange(stale.size), arg]
            fresh = alive[~np.isin(alive, stale)]
            dr = self.D[fresh, r]
            better = (dr < self.rowmin[fresh]) | ((dr == self.rowmin[fresh]) & (r < self.rowarg[fresh]))
            self.rowarg[fresh[better]] = r
            self.rowmin[fresh[better]] = dr[better]
        return r


class _PF(_Engine):
    def __init__(self, P, lam, pair=None):
        self.lam = lam
        super().__init__(P, 1.0, lam - 1.0, *(pair or (None, None)))

    def _combine(self, dI, dH):
        return dI - self.lam * dH


class _IB(_Engine):
    def __init__(self, P, beta, pair=None):
        self.lam = beta
        super().__init__(P, -beta, beta - 1.0, *(pair or (None, None)))

    def _combine(self, dI, dH):
        return dH - self.lam * dI


def _pair_matrices(C: np.ndarray, m: np.ndarray, g: np.ndarray, h: np.ndarray, alive: np.ndarray,
                   chunk_bytes: int = 64 << 20) -> tuple[np.ndarray, np.ndarray]:
    """ΔI(S;X̂) and ΔH(X̂) of every pair of symbols (nats), computed in row chunks."""
    n, k = C.shape
    dI = np.zeros((n, n))
    dH = np.zeros((n, n))
    rows = max(1, int(chunk_bytes // max(8 * n * k, 1)))
    for a in range(0, n, rows):
        b = min(n, a + rows)
        G = xlogx(C[a:b, None, :] + C[None, :, :]).sum(axis=2)
        hM = xlogx(m[a:b, None] + m[None, :])
        dh = hM - h[a:b, None] - h[None, :]
        dI[a:b] = G - g[a:b, None] - g[None, :] - dh
        dH[a:b] = -dh
    return dI, dH


# ----------------------------------------------------------------------------- the subset step
def _subset_step(eng: _Engine, i: int, j: int, d0: float) -> tuple[np.ndarray, float, dict]:
    """Minimise ΔL(W) over subsets |W| >= 2 of the current clusters, starting from the pair {i, j}.

    Majorise-minimise descents on ΔL = f - k (f, k submodular): the modular-modular bounds of Iyer &
    Bilmes (2012) (both modular upper bounds of f, a permutation lower bound of k), the
    supermodular-submodular step of Narasimhan & Bilmes (2005) where f is a concave function of p(W)
    plus a modular term (then its minimiser is a prefix of one order, found exactly), and single
    add/remove moves. Each proposal is scored by its true ΔL over all prefixes of the order it induces;
    a proposal is taken only if it lowers ΔL, so the result is never worse than the pair.
    """
    slots = np.flatnonzero(eng.alive)
    K = slots.size
    C = eng.C[slots]                      # (K, |S|)
    m = eng.m[slots]
    a_g, a_h = eng.a_g, eng.a_h
    mu = a_g * eng.g[slots] + a_h * eng.h[slots]
    pos = {int(s): k for k, s in enumerate(slots.tolist())}
    X = np.zeros(K, dtype=bool)
    X[pos[i]] = X[pos[j]] = True
    cX = C[X].sum(axis=0)
    mX = float(m[X].sum())
    best = d0
    cV = C.sum(axis=0)
    mV = float(m.sum())

    def val(c, M, mu_sum):
        return a_g * xlogx(c).sum(axis=-1) + a_h * xlogx(M) - mu_sum

    # parts of f and k: f = fg*(-G) + fh*(-Hm) - mu, k = kg*(-G) + kh*(-Hm)
    fg, kg = (-a_g, 0.0) if a_g < 0 else (0.0, a_g)
    fh, kh = (-a_h, 0.0) if a_h < 0 else (0.0, a_h)

    def Gv(c):
        return xlogx(c).sum(axis=-1)

    def f_of(c, M, mu_sum):
        return -fg * Gv(c) - fh * xlogx(M) - mu_sum

    def k_of(c, M):
        return -kg * Gv(c) - kh * xlogx(M)

    def prefix_best(order: np.ndarray):
        """Best true ΔL over the prefixes (length >= 2) of ``order``."""
        if order.size < 2:
            return None, math.inf
        cc = np.cumsum(C[order], axis=0)
        MM = np.cumsum(m[order])
        vals = val(cc, MM, np.cumsum(mu[order]))
        vals[0] = math.inf
        t = int(np.argmin(vals))
        return order[:t + 1], float(vals[t])

    n_iter = 0
    stats = {"moves": 0}
    for n_iter in range(1, _MAX_DESCENT + 1):
        cand: list[tuple[np.ndarray, float]] = []
        inX = np.flatnonzero(X)
        outX = np.flatnonzero(~X)
        mu_X = float(mu[X].sum())
        # single additions and removals (vectorised)
        if outX.size:
            ca = cX[None, :] + C[outX]
            va = val(ca, mX + m[outX], mu_X + mu[outX])
            t = int(np.argmin(va))
            if va[t] < best - _TOL:
                Y = X.copy(); Y[outX[t]] = True
                cand.append((Y, float(va[t])))
        if inX.size > 2:
            cr = cX[None, :] - C[inX]
            vr = val(cr, mX - m[inX], mu_X - mu[inX])
            t = int(np.argmin(vr))
            if vr[t] < best - _TOL:
                Y = X.copy(); Y[inX[t]] = False
                cand.append((Y, float(vr[t])))
        # permutation lower bound of k, tight at X: X first (by decreasing mass), then the rest by added ΔL
        if outX.size:
            rest = outX[np.argsort(val(cX[None, :] + C[outX], mX + m[outX], mu_X + mu[outX]), kind="stable")]
        else:
            rest = outX
        perm = np.concatenate([inX[np.argsort(-m[inX], kind="stable")], rest])
        cc = np.cumsum(C[perm], axis=0)
        MM = np.cumsum(m[perm])
        kk = k_of(cc, MM)
        hk = np.empty(K)
        hk[perm] = np.diff(np.concatenate([[0.0], kk]))
        # modular upper bounds of f at X (Iyer & Bilmes 2012, eqs. for m^1 and m^2)
        fX = float(f_of(cX, mX, mu_X))
        w1 = np.empty(K)
        w2 = np.empty(K)
        # j in X: f(j | X \ j) and f(j | V \ j)
        cXm = cX[None, :] - C[inX]
        w1[inX] = fX - f_of(cXm, mX - m[inX], mu_X - mu[inX])
        fV = float(f_of(cV, mV, float(mu.sum())))
        w2[inX] = fV - f_of(cV[None, :] - C[inX], mV - m[inX], float(mu.sum()) - mu[inX])
        # j outside X: f(j | ∅) and f(j | X)
        w1[outX] = f_of(C[outX], m[outX], mu[outX])
        w2[outX] = f_of(cX[None, :] + C[outX], mX + m[outX], mu_X + mu[outX]) - fX
        for w in (w1, w2):
            order = np.argsort(w - hk, kind="stable")
            Y, v = prefix_best(order)
            if Y is not None and v < best - _TOL:
                Z = np.zeros(K, dtype=bool); Z[Y] = True
                cand.append((Z, v))
        # supermodular-submodular step: f = fh*(-h(p(W))) - mu is concave in p(W) plus modular (fg == 0):
        # its minimiser after subtracting hk is a prefix of the order of (v_j / m_j)
        if fg == 0.0:
            v = -mu - hk
            ratio = np.where(m > 0, v / np.where(m > 0, m, 1.0), np.inf)
            order = np.argsort(ratio, kind="stable")
            Y, vv = prefix_best(order)
            if Y is not None and vv < best - _TOL:
                Z = np.zeros(K, dtype=bool); Z[Y] = True
                cand.append((Z, vv))
        if not cand:
            break
        Y, v = min(cand, key=lambda t: t[1])
        X = Y
        cX = C[X].sum(axis=0)
        mX = float(m[X].sum())
        best = float(val(cX, mX, float(mu[X].sum())))
        stats["moves"] += 1
    stats["iterations"] = n_iter
    return slots[X], best, stats


# ----------------------------------------------------------------------------- the run
def _cluster_name(labels, members) -> str:
    """A cluster as text: its first members' labels (at most three)."""
    m = sorted(members)
    head = "+".join(str(labels[i]) for i in m[:3])
    return head + (f"+…({len(m)})" if len(m) > 3 else "")


def _clean(v: float) -> float:
    """An information quantity with its floating-point dust (|v| < 1e-12, e.g. H of one block) read as 0."""
    return 0.0 if abs(v) < 1e-12 else float(v)


def _check_method(method) -> str:
    if not isinstance(method, str) or method not in FUNNEL_METHODS:
        raise InputError(f"method={method!r} is not a funnel merge rule; use one of {list(FUNNEL_METHODS)}")
    return method


def _check_lam(v, name: str) -> float:
    x = check_real(v, name)
    if not math.isfinite(x) or x < 0:
        raise InputError(f"{name} must be a finite number >= 0, got {v!r}")
    return float(x)


def _run(jd, objective: str, lam: float, method: str, base: float, max_steps=None, pair=None) -> FunnelResult:
    jd = _joint(jd)
    b = check_base(base)
    lnb = math.log(b)
    P = jd.P
    ps = P.sum(axis=1)
    if (ps <= 0).any():
        P = P[ps > 0]
        ps = ps[ps > 0]
    n = P.shape[1]
    eng = _PF(P, lam, pair) if objective == "privacy funnel" else _IB(P, lam, pair)
    comp0 = components0(jd)
    cc = ComponentCounter(comp0)
    H_S = float(-xlogx(ps).sum())
    HX = float(-xlogx(eng.m).sum())
    IX = float(xlogx(P).sum() - xlogx(eng.m).sum() + H_S)
    I_cur, H_cur = max(IX, 0.0), HX

    def Lval(I, H):
        return I - lam * H if objective == "privacy funnel" else H - lam * I

    merges = [()]
    priv, util, Ls, dLs, ncl, ncomp, acc, crit = [I_cur / lnb], [H_cur / lnb], [Lval(I_cur, H_cur) / lnb], [math.nan], [n], [cc.count], [True], []
    crit.append({"delta_L": math.nan, "delta_I_S": math.nan, "delta_I_X": math.nan, "size": 0, "lam": lam,
                 "decision": f"start from X̂ = X ({n} symbols): I(S;X̂) = {I_cur / lnb:.4g}, I(X;X̂) = {H_cur / lnb:.4g}"})
    n_clusters = n
    limit = n if max_steps is None else int(max_steps)
    steps = 0
    while n_clusters > 1 and steps < limit and np.isfinite(eng.D).any():
        i, j, d0 = eng.best_pair()
        if not math.isfinite(d0):
            break
        info = {}
        if method == "subset":
            W, d, info = _subset_step(eng, i, j, d0)
        else:
            W, d = np.array([i, j]), d0
        W = np.sort(W)
        dI, dH = eng.terms(W)
        accept = d < -_TOL
        r = int(W[0])
        pairs = tuple((r, int(o)) for o in W[1:])
        size = int(sum(len(eng.members[int(w)]) for w in W))
        c = {"delta_L": d / lnb, "delta_I_S": dI / lnb, "delta_I_X": dH / lnb, "size": int(W.size), "lam": lam}
        if method == "subset":
            c["pair_delta_L"] = d0 / lnb
            c["descent_moves"] = int(info.get("moves", 0))
        names = ", ".join(_cluster_name(jd.public_labels, eng.members[int(w)]) for w in W[:4])
        more = f" and {W.size - 4} more" if W.size > 4 else ""
        c["decision"] = (f"{'merge' if d < -_TOL else 'stop: no merge lowers L; best'} {{{names}{more}}}: "
                         f"ΔL = {d / lnb:.4g} (ΔI(S;X̂) = {dI / lnb:.4g}, ΔI(X;X̂) = {dH / lnb:.4g}, "
                         f"{'λ' if objective == 'privacy funnel' else 'β'} = {lam:g})")
        if not accept:
            merges.append(pairs)
            I_t, H_t = I_cur + dI, H_cur + dH
            priv.append(I_t / lnb); util.append(H_t / lnb); Ls.append(Lval(I_t, H_t) / lnb); dLs.append(d / lnb)
            ncl.append(n_clusters - W.size + 1); ncomp.append(cc.count); acc.append(False); crit.append(c)
            break
        codes = [m for w in W.tolist() for m in eng.members[w]]
        eng.merge(W, None)
        cc.join(codes)
        del size
        I_cur, H_cur = I_cur + dI, H_cur + dH
        n_clusters -= W.size - 1
        steps += 1
        merges.append(pairs)
        priv.append(I_cur / lnb); util.append(H_cur / lnb); Ls.append(Lval(I_cur, H_cur) / lnb); dLs.append(d / lnb)
        ncl.append(n_clusters); ncomp.append(cc.count); acc.append(True); crit.append(c)
    returned = max(t for t, a in enumerate(acc) if a)
    assignment = np.empty(n, dtype=np.int64)
    roots = sorted(eng.members)
    for k, r in enumerate(roots):
        assignment[eng.members[r]] = k
    meas = measures_of_columns(np.stack([eng.C[r] for r in roots], axis=1), ps)
    util_name = "I(X;X^)" if objective == "privacy funnel" else "I(X;X^)"
    trace = MergeTrace(
        objective=objective, utility=util_name, lam=float(lam), public_labels=tuple(jd.public_labels.tolist()),
        components0=tuple(int(v) for v in comp0.tolist()), step_merges=tuple(merges), step_privacy=tuple(priv),
        step_utility=tuple(util), step_L=tuple(Ls), step_delta_L=tuple(dLs), step_n_clusters=tuple(ncl),
        step_n_components=tuple(ncomp), step_accepted=tuple(acc), returned=returned, base=b,
        info={"criterion": "delta_L", "privacy_measure": "I(S;X^)", "utility_measure": "I(X;X^)", "method": method,
              "algorithm": ("pairwise greedy merge" if method == "greedy" else
                            "subset merge (difference-of-submodular descent from the best pair)"),
              "paper": "Ding & Sadeghi, ITW 2019", "multiplier": "lambda" if objective == "privacy funnel" else "beta"},
        step_criteria=tuple(crit))
    return FunnelResult(objective=objective, lam=float(lam), method=method, base=b, public_labels=jd.public_labels,
                        assignment=assignment, privacy=_clean(I_cur / lnb), utility=_clean(H_cur / lnb),
                        L=_clean(Lval(I_cur, H_cur) / lnb), max_abs_log_lift=meas["max_abs_log_lift"] / lnb,
                        mutual_information_sx=IX / lnb, entropy_x=HX / lnb, trace=trace)


def privacy_funnel(jd, lam: float, method: str = "greedy", *, base: float = 2, max_steps: int | None = None) -> FunnelResult:
    """Agglomerative privacy funnel: merge public symbols while I(S; X̂) - λ·I(X; X̂) decreases.

    Ding & Sadeghi, *A Submodularity-based Clustering Algorithm for the Information Bottleneck and
    Privacy Funnel* (IEEE ITW 2019), Sec. III (the merge cost of a set W, a difference of submodular
    functions) and Sec. IV (the agglomerative algorithm; pairwise merging is the baseline). Starting
    from X̂ = X, each step merges the set W of current symbols with the smallest

        ΔL(W) = -Σ_{x∈W} p(x) D(p_{S|x} ‖ p_{S|W}) + λ·p(W)·H(X | X ∈ W)

    and the run stops when no merge lowers L (ΔL >= 0).

    Parameters
    ----------
    jd : JointDistribution or array_like (|S|, |X|)
        The joint pmf p(s, x).
    lam : float >= 0
        λ, the price of utility. Since a merge never lowers I(S; X̂) by more than it lowers H(X̂),
        nothing is merged at λ >= 1; at λ = 0 everything is.
    method : {"greedy", "subset"}
        ``"greedy"``: the best pair per step (the paper's baseline). ``"subset"``: the best set the
        difference-of-submodular descent reaches from the best pair (never worse than the pair).
    base : float, default 2
        Log base of the reported information quantities (λ is unitless).
    max_steps : int, optional
        Stop after this many merges.

    Returns
    -------
    FunnelResult
        The partition, I(S; X̂), I(X; X̂) = H(X̂), L and the :class:`~graphpriv.MergeTrace`.

    Raises
    ------
    InputError
        λ < 0 or not finite, unknown method.

    Examples
    --------
    >>> import graphpriv as gp
    >>> jd = gp.JointDistribution([[0.2, 0.2, 0.05, 0.05], [0.05, 0.05, 0.2, 0.2]])
    >>> r = gp.privacy_funnel(jd, 0.2)         # merges x1 with x3, x2 with x4: X̂ independent of S
    >>> [sorted(b) for b in r.partition], round(r.privacy, 4), round(r.utility, 4)
    ([['x1', 'x3'], ['x2', 'x4']], 0.0, 1.0)
    >>> r.trace.criterion("delta_L").round(4).tolist()[1:]     # the last step is tried and rejected
    [-0.039, -0.039, 0.2]

    Notes
    -----
    Greedy: O(|X|^2 |S|) time and three |X| x |X| float matrices for the initial pairs, then O(|X| |S|)
    per merge (one row of the matrix is recomputed; each row keeps its best partner, rescanned only when
    that partner merged). Subset: each step adds O(iterations · |X| |S|) for the
    descent. Zero-mass public symbols are never merged (their ΔL is 0). The paper's exact descent
    routine is not reproduced: the set minimisers used here are Narasimhan & Bilmes (2005) and Iyer &
    Bilmes (2012); on small random pmfs the best-subset rule does not end at a lower L than pairwise
    merging more often than at a higher one (see the paper map).
    """
    record_use("privacy_funnel")
    return _run(jd, "privacy funnel", _check_lam(lam, "lam"), _check_method(method), base, max_steps)


def information_bottleneck(jd, beta: float, method: str = "greedy", *, base: float = 2,
                           max_steps: int | None = None) -> FunnelResult:
    """Agglomerative information bottleneck: merge public symbols while I(X; X̂) - β·I(S; X̂) decreases.

    Ding & Sadeghi, *A Submodularity-based Clustering Algorithm for the Information Bottleneck and
    Privacy Funnel* (IEEE ITW 2019), Sec. III: the bottleneck keeps what X says about S (the relevant
    variable) and compresses X; merging W changes the Lagrangian by

        ΔL(W) = -p(W)·H(X | X ∈ W) + β·Σ_{x∈W} p(x) D(p_{S|x} ‖ p_{S|W}).

    Parameters
    ----------
    jd : JointDistribution or array_like (|S|, |X|)
    beta : float >= 0
        β, the value of relevant information. At β <= 1 everything merges.
    method : {"greedy", "subset"}
    base : float, default 2
    max_steps : int, optional

    Returns
    -------
    FunnelResult
        With ``objective="information bottleneck"``; ``privacy`` is I(S; X̂) (the relevant information).

    Examples
    --------
    >>> import graphpriv as gp
    >>> jd = gp.JointDistribution([[0.2, 0.2, 0.05, 0.05], [0.05, 0.05, 0.2, 0.2]])
    >>> r = gp.information_bottleneck(jd, 5.0)
    >>> [sorted(b) for b in r.partition]
    [['x1', 'x2'], ['x3', 'x4']]

    Notes
    -----
    The same engine and complexity as :func:`privacy_funnel`.
    """
    record_use("privacy_funnel")
    return _run(jd, "information bottleneck", _check_lam(beta, "beta"), _check_method(method), base, max_steps)


def funnel_frontier(jd, lams=None, method: str = "greedy", *, objective: str = "privacy funnel",
                    base: float = 2) -> FunnelFrontier:
    """Privacy-utility frontier of the agglomerative funnel (or bottleneck): one run per λ.

    Ding & Sadeghi (IEEE ITW 2019), Sec. V: sweeping λ traces the privacy-utility trade-off. The
    pairwise greedy order (and the subset step) **depend on λ** -- the pair with the smallest ΔI - λΔH
    changes with λ -- so, unlike paper 003's Algorithms 1 and 2, one trajectory cannot serve every λ:
    this function runs the mechanism once per λ. The λ-free part is shared: the pairwise matrices of
    ΔI(S;X̂) and ΔH(X̂) are computed once and each run combines them. Every intermediate partition of
    every run is kept in :attr:`FunnelFrontier.trajectory` (each is a deterministic release), and
    :meth:`FunnelFrontier.pareto` filters the non-dominated ones.

    Parameters
    ----------
    jd : JointDistribution or array_like (|S|, |X|)
    lams : sequence of float, optional
        λ values (β for the bottleneck). Default: 21 values 0, 0.05, ..., 1 for the funnel (nothing
        merges at λ >= 1); for the bottleneck β = 1/λ for the 20 non-zero ones: 1, 1/0.95, ..., 20
        (everything merges at β <= 1).
    method : {"greedy", "subset"}
    objective : {"privacy funnel", "information bottleneck"}
    base : float, default 2

    Returns
    -------
    FunnelFrontier

    Examples
    --------
    >>> import graphpriv as gp
    >>> jd = gp.JointDistribution.random(3, 6, seed=1)
    >>> fr = gp.funnel_frontier(jd, [0.0, 0.1, 0.2, 1.0])
    >>> fr.frame[["lam", "n_blocks", "privacy", "utility"]].round(4).values.tolist()
    [[0.0, 1.0, 0.0, 0.0], [0.1, 4.0, 0.0309, 1.9227], [0.2, 5.0, 0.07, 2.2445], [1.0, 6.0, 0.1801, 2.5413]]
    >>> len(fr.pareto())            # every step of the λ = 0 run is a non-dominated release here
    6

    Notes
    -----
    O(|X|^2 |S|) once, then one run per λ.
    """
    record_use("privacy_funnel")
    method = _check_method(method)
    if objective not in ("privacy funnel", "information bottleneck"):
        raise InputError(f"objective={objective!r}; use 'privacy funnel' or 'information bottleneck'")
    jd = _joint(jd)
    if lams is None:
        grid = np.linspace(0.0, 1.0, 21)
        lams = grid if objective == "privacy funnel" else 1.0 / grid[::-1][:-1]
    try:
        lam_list = [_check_lam(v, "lams") for v in np.atleast_1d(np.asarray(lams, dtype=float)).tolist()]
    except (TypeError, ValueError):
        raise InputTypeError(f"lams must be a sequence of numbers, got {lams!r}") from None
    if not lam_list:
        raise InputError("lams is empty; give at least one λ")
    P = jd.P[jd.p_s > 0]
    C = np.ascontiguousarray(P.T)
    m = C.sum(axis=1)
    pair = _pair_matrices(C, m, xlogx(C).sum(axis=1), xlogx(m), m > 0)
    rows, traj, results = [], [], []
    for lam in lam_list:
        r = _run(jd, objective, lam, method, base, None, pair)
        results.append(r)
        rows.append({"lam": lam, "method": method, "privacy": r.privacy, "utility": r.utility, "L": r.L,
                     "n_blocks": r.n_blocks, "max_abs_log_lift": r.max_abs_log_lift})
        tr = r.trace
        for t in range(len(tr)):
            if tr.step_accepted[t]:
                traj.append({"lam": lam, "t": t, "privacy": tr.step_privacy[t], "utility": tr.step_utility[t],
                             "n_blocks": tr.step_n_clusters[t]})
    frame = pd.DataFrame(rows)
    frame["n_blocks"] = frame["n_blocks"].astype(float)
    return FunnelFrontier(objective=objective, method=method, base=check_base(base), frame=frame,
                          trajectory=pd.DataFrame(traj), results=tuple(results))
