"""Log-lift of merged sets of public symbols: the quantities every watchdog mechanism reads.

Sadeghi, Ding & Rakotoarivelo, *On Properties and Optimization of Information-theoretic Privacy
Watchdog*: merging a set B of public symbols into one super-symbol (the X-invariant randomisation of
eq. (1)) gives the block an abs-log-lift eps(B) = max_s |i(s, B)| (eq. (5)), a breach mass
Delta(eps, B) (eq. (11)), a mutual information I(X; Y) = H(X) - p(B) H(q) (eq. (8)) and a normalised
mutual-information loss NMIL(B) (eq. (9)). :class:`_Prep` holds the per-distribution quantities in
nats once, so every mechanism (the watchdog, Algorithm 1, the exhaustive optimum, the Monte-Carlo)
updates one merged column incrementally. :func:`partition_metrics` generalises the formulas to a
partition of X with several blocks.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np

from ..._validation import check_base, check_real
from ...distributions import JointDistribution, _subset_mask
from ...errors import InputError, InputTypeError, UnknownLabelError
from ...measures.stochastic import LOG_LIFT_ATOL as _ATOL, _check_eps, _joint

__all__ = ["PartitionMetrics", "partition_metrics", "partition_channel", "nmil"]


# ----------------------------------------------------------------------------- core (nats)
class _Prep:
    """Per-distribution quantities in nats; zero-mass sensitive rows dropped, zero-mass x published."""

    __slots__ = ("P", "ps", "px", "lnps", "HX", "eps_x", "_I", "px_lnpx", "live", "_PT")

    def __init__(self, P: np.ndarray, keep_matrix: bool = True):
        ps_all = P.sum(axis=1)
        if (ps_all <= 0).any():
            P = P[ps_all > 0]
        self.P = P
        self.ps = P.sum(axis=1)
        self.px = P.sum(axis=0)
        self.live = self.px > 0
        self.lnps = np.log(self.ps)
        with np.errstate(divide="ignore", invalid="ignore"):
            lnpx = np.where(self.live, np.log(np.where(self.live, self.px, 1.0)), 0.0)
            I = np.log(P)
        I -= self.lnps[:, None]
        I -= lnpx[None, :]
        np.abs(I, out=I)
        e = I.max(axis=0)
        e[~self.live] = 0.0
        self.eps_x = e
        self._I = I if keep_matrix else None
        self.px_lnpx = np.where(self.live, self.px * lnpx, 0.0)
        self.HX = float(-self.px_lnpx.sum())
        self._PT = None

    @property
    def PT(self) -> np.ndarray:
        """C-contiguous transpose: column x of P as a contiguous row (fast per-symbol updates)."""
        if self._PT is None:
            self._PT = np.ascontiguousarray(self.P.T)
        return self._PT

    def delta_x(self, eps: float) -> np.ndarray:
        """Delta(eps, x) for every x."""
        if self._I is None:
            raise RuntimeError("matrix not kept")
        return np.sum(self.P, axis=0, where=self._I > eps + _ATOL)

    def block(self, col: np.ndarray, eps: float | None) -> tuple[float, float]:
        """(eps(B), Delta(eps, B)) of a merged block with column ``col`` (nats)."""
        pb = col.sum()
        if pb <= 0:
            return 0.0, 0.0
        with np.errstate(divide="ignore"):
            a = np.abs(np.log(col) - self.lnps - math.log(pb))
        d = 0.0 if eps is None else float(col[a > eps + _ATOL].sum())
        return float(a.max()), d

    def nmil_of(self, pb: float, A: float) -> float:
        """NMIL of a block with mass pb and A = sum p(x) ln p(x) over it."""
        if pb <= 0:
            return 0.0
        if self.HX <= 0:
            return math.nan
        return max(pb * math.log(pb) - A, 0.0) / self.HX


def _mi_after_merge(prep: _Prep, rnd: np.ndarray) -> float:
    """I(X; Y) = H(X) - p(B) H(q) in nats for the X-invariant merge of B = rnd (eq. (8))."""
    pb = float(prep.px[rnd].sum())
    loss = pb * math.log(pb) - float(prep.px_lnpx[rnd].sum()) if pb > 0 else 0.0
    return max(prep.HX - max(loss, 0.0), 0.0)


def _nmil_mask(prep: _Prep, mask: np.ndarray) -> float:
    return prep.nmil_of(float(prep.px[mask].sum()), float(prep.px_lnpx[mask].sum()))


# ----------------------------------------------------------------------------- channels
def _xinv_channel(n_x: int, blocks: list[np.ndarray], R=None) -> np.ndarray:
    """Channel on Y = X: identity on singletons, p(y|x) = R_B(y) inside each block B (default merge)."""
    W = np.zeros((n_x, n_x))
    for k, b in enumerate(blocks):
        b = np.asarray(b, dtype=int)
        if b.size == 1:
            W[b[0], b[0]] = 1.0
            continue
        r = None if R is None else R[k]
        if r is None or (isinstance(r, str) and r == "merge"):
            W[b, b[0]] = 1.0
        elif isinstance(r, str) and r == "uniform":
            W[np.ix_(b, b)] = 1.0 / b.size
        else:
            rv = np.asarray(r, dtype=float)
            if rv.shape != (b.size,) or (rv < 0).any() or not np.isclose(rv.sum(), 1.0):
                raise InputError(f"R for a block of {b.size} symbols must be a pmf of length {b.size} (or 'merge'/'uniform')")
            W[np.ix_(b, b)] = rv[None, :]
    return W


def _sample(W: np.ndarray, codes: np.ndarray, rng) -> np.ndarray:
    cdf = np.cumsum(W[codes], axis=1)
    u = rng.random(len(codes))[:, None]
    return np.minimum((u > cdf).sum(axis=1), W.shape[1] - 1)


def _codes_of(values, labels: np.ndarray, name: str) -> np.ndarray:
    index = {lab: i for i, lab in enumerate(labels.tolist())}
    vals = [values] if isinstance(values, (str, bytes)) or not hasattr(values, "__iter__") else list(values)
    out = np.empty(len(vals), dtype=int)
    for k, v in enumerate(vals):
        try:
            out[k] = index[v]
        except (KeyError, TypeError):
            raise UnknownLabelError(f"{name}: {v!r} is not a known value (first labels {labels[:5].tolist()})") from None
    return out


def _check_R(R):
    if R is None or (isinstance(R, str) and R in ("merge", "uniform")):
        return R
    if isinstance(R, str):
        raise InputError(f"R={R!r} must be 'merge', 'uniform' or a pmf over the randomised symbols")
    return np.asarray(R, dtype=float)


def _base(base) -> tuple[float, float]:
    b = check_base(base)
    return b, math.log(b)


def _jsonable(v):
    if isinstance(v, np.generic):
        return v.item()
    if isinstance(v, (str, int, float, bool)) or v is None:
        return v
    return str(v)


# ----------------------------------------------------------------------------- partitions
@dataclass(frozen=True)
class PartitionMetrics:
    """Privacy/utility of merging each block of a partition of X.

    Paper 002's bi-partition formulas, eqs. (5), (8), (9) and (11), applied to each block.
    """

    eps_eff: float            # max_k eps(B_k)
    delta_total: float        # sum_k Delta(eps, B_k)  (NaN when eps is None)
    mutual_information: float  # I(X; Y) = H(X) - sum_k p(B_k) H(q_k)
    nmil: float               # sum_k NMIL(B_k)
    block_eps: tuple          # eps(B_k) per block, in the order given
    base: float


def _blocks(jd: JointDistribution, blocks) -> list[np.ndarray]:
    n = jd.n_public
    seen = np.zeros(n, dtype=bool)
    out = []
    try:
        it = list(blocks)
    except TypeError:
        raise InputTypeError("blocks must be an iterable of blocks (each an iterable of public labels or codes)") from None
    for blk in it:
        m = _subset_mask(blk, jd.public_labels, "blocks")
        if (m & seen).any():
            raise InputError(f"blocks overlap on {jd.public_labels[m & seen][:5].tolist()}; a partition needs disjoint blocks")
        seen |= m
        if m.any():
            out.append(np.flatnonzero(m))
    out += [np.array([i]) for i in np.flatnonzero(~seen)]   # uncovered symbols are published singletons
    return out


def partition_metrics(jd, blocks, eps: float | None = None, *, base: float = math.e) -> PartitionMetrics:
    """Metrics of the mechanism that merges every block of a partition of X (X-invariantly).

    The generalisation of paper 002's bi-partition formulas (by the mediant argument of Theorem 1's proof): with
    one non-singleton block they are eqs. (5), (8), (9), (11). Symbols not in any block are singletons.

    Examples
    --------
    >>> import numpy as np, graphpriv as gp
    >>> P = np.random.default_rng(7).exponential(size=(4, 8)); P /= P.sum()
    >>> m = gp.partition_metrics(P, [[0, 4, 5, 6, 7]], eps=1.0)     # the watchdog bi-partition at eps = 1
    >>> round(m.nmil, 4), round(m.eps_eff, 4), m.delta_total
    (0.5612, 0.7455, 0.0)
    """
    jd = _joint(jd)
    b, lnb = _base(base)
    e = None if eps is None else _check_eps(check_real(eps, "eps")) * lnb
    prep = _Prep(jd.P)
    bl = _blocks(jd, blocks)
    beps, dt, nm = [], 0.0, 0.0
    for blk in bl:
        col = prep.P[:, blk].sum(axis=1)
        eB, dB = prep.block(col, e)
        beps.append(eB / lnb)
        dt += dB
        nm += _nmil_mask(prep, np.isin(np.arange(jd.n_public), blk))
    HX = prep.HX
    return PartitionMetrics(eps_eff=max(beps) if beps else 0.0, delta_total=dt if e is not None else math.nan,
                            mutual_information=(HX - nm * HX) / lnb if HX > 0 else 0.0, nmil=nm,
                            block_eps=tuple(beps), base=b)


def partition_channel(jd, blocks, R=None) -> np.ndarray:
    """X-invariant channel of a partition: W[x, y], shape (|X|, |X|), identity on singletons.

    ``R`` is None/'merge' (each block into its first symbol), 'uniform', or a list with one entry
    per given block ('merge', 'uniform' or a pmf over the block).
    """
    jd = _joint(jd)
    bl = _blocks(jd, blocks)
    if R is None or isinstance(R, str):
        Rs = [R] * len(bl)
    else:
        Rs = list(R) + [None] * (len(bl) - len(list(R)))
    return _xinv_channel(jd.n_public, bl, Rs)


def nmil(jd, subset) -> float:
    """Normalised mutual-information loss NMIL(X_Q) = p(X_Q) H(q) / H(X) of merging X_Q (eq. (9)).

    Equal to H(X|Y)/H(X) for the X-invariant merge of X_Q; base-free. 0 for the empty set and
    singletons; NaN when H(X) = 0.

    Examples
    --------
    >>> import graphpriv as gp
    >>> gp.nmil([[0.25, 0.25], [0.25, 0.25]], ["x1", "x2"])
    1.0
    """
    jd = _joint(jd)
    prep = _Prep(jd.P, keep_matrix=False)
    return _nmil_mask(prep, _subset_mask(subset, jd.public_labels, "subset"))
