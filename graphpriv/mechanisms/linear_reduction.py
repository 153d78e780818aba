"""Linear reduction of LDP and log-lift (papers 000/001: Ding, Liu, Farokhi, arXiv:2101.09689).

Release Y over the public alphabet so that P_{Y|S}(x|s) = (1 - alpha) P_{X|S}(x|s) + alpha P_X(x)
(eq. (3)): P_Y = P_X (eq. (4)), every deviation P_{Y|S} - P_Y shrinks by exactly (1 - alpha) (eq.
(5)), and LDP / log-lift shrink roughly -- *not* exactly -- by (1 - alpha) (eq. (6)). Two kernels
realise the target:

* **Markov** (Lemma 1, eq. (7)): K = (1 - alpha) I + alpha 1 P_X^T -- keep x' with probability 1 - alpha,
  else draw a fresh value from P_X. ``kernel`` has shape (|X|, |Y|), rows = input x'. It is the unique
  Markov solution iff P_{X|S} has full column rank (:func:`markov_solution_is_unique`).
* **Optimal non-Markov** (Sec. III-B): for each s, a coupling of P_{X|S=s} and the target -- a
  transportation problem. TV utility: Proposition 1's closed form (north-west-corner plan by default,
  which reproduces the paper's s = 1 solution; or the proportional plan). Expected distortion:
  Proposition 2's reduced transport LP *only when d satisfies the triangle inequality*, otherwise the
  full LP (10) (the spec's counterexample shows Prop. 2 is suboptimal for a non-metric d). ``kernel``
  has shape (|S|, |X|, |Y|) holding P(y | s, x'). LPs use ``scipy.optimize.linprog(method="highs")``.

**Log base: 2 (bits) by default** -- the unit of the papers' figures (spec section 6, item 1).

Paper errors handled (spec ``linear-reduction.md`` section 6): the four utility numbers of Example 1
(I = 1.19, D_TV = 0.23 non-Markov; I = 0.36, D_TV = 0.68 Markov) do **not** reproduce under any log base,
TV normalisation, solution choice or single alpha -- graphpriv returns the values the definitions give
(0.1050 / 1.3593 bits and 0.3545 / 0.4284 bits at alpha = 0.5); D_TV is 1 - sum_x P_X(x) P_{Y|X}(x|x)
(the paper's un-halved double sum is twice that); (11d)-(11e) need Q >= 0; LP (10) needs normalisation
and non-negativity; Lemma 1's "the" Markov solution is unique only at full column rank; eq. (6) is not
an inequality in either direction -- exact closed forms are used instead.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np
import pandas as pd

from .._validation import check_base
from ..distributions import JointDistribution
from ..errors import InputError, InputTypeError
from ..measures.stochastic import _joint, ldp as _ldp, max_abs_log_lift as _mall

__all__ = [
    "target_conditional",
    "markov_kernel",
    "markov_solution_is_unique",
    "optimal_markov_kernel",
    "optimal_kernel",
    "induced_channel",
    "reduction_ldp",
    "reduction_log_lift",
    "is_metric",
    "satisfies_triangle_inequality",
    "total_variation_loss",
    "expected_distortion",
    "LinearReduction",
    "linear_reduction",
    "linear_reduction_sweep",
    "paper000_example1",
]

_TOL = 1e-12


def paper000_example1() -> JointDistribution:
    """Example 1 of papers 000/001: S = {1, 2}, X = {a, b, c, d}, P_S = (0.3, 0.7), P_{X|S} as printed.

    (The paper calls the table a "joint" probability; its rows sum to 1, so it is P_{X|S}.)

    Examples
    --------
    >>> import graphpriv as gp
    >>> gp.paper000_example1().P.round(2).tolist()
    [[0.06, 0.03, 0.15, 0.06], [0.35, 0.21, 0.07, 0.07]]
    """
    return JointDistribution.from_conditional([[0.2, 0.1, 0.5, 0.2], [0.5, 0.3, 0.1, 0.1]], [0.3, 0.7],
                                              sensitive_labels=[1, 2], public_labels=["a", "b", "c", "d"])


def _check_alpha(alpha) -> float:
    try:
        a = float(alpha)
    except (TypeError, ValueError):
        raise InputTypeError(f"alpha must be a number in (0, 1], got {alpha!r}") from None
    if not (0 < a <= 1):
        raise InputError(f"alpha must be in (0, 1] (alpha = 1 is perfect privacy; alpha = 0 releases X unchanged), got {alpha!r}")
    return a


def _parts(jd: JointDistribution):
    """(p_s, p_x, P_{X|S}) of the distribution (zero-mass rows of P_{X|S} set to P_X)."""
    ps, px = jd.p_s, jd.p_x
    pxs = jd.p_x_given_s()
    dead = ps <= 0
    if dead.any():
        pxs[dead] = px
    return ps, px, pxs


def target_conditional(jd, alpha: float) -> np.ndarray:
    """Target P_{Y|S}(x|s) = (1 - alpha) P_{X|S}(x|s) + alpha P_X(x) (eq. (3)), shape (|S|, |X|).

    Examples
    --------
    >>> import graphpriv as gp
    >>> gp.target_conditional(gp.paper000_example1(), 0.5).round(3).tolist()     # spec 7.2
    [[0.305, 0.17, 0.36, 0.165], [0.455, 0.27, 0.16, 0.115]]
    """
    jd = _joint(jd)
    a = _check_alpha(alpha)
    _, px, pxs = _parts(jd)
    return (1 - a) * pxs + a * px[None, :]


def markov_kernel(jd, alpha: float) -> np.ndarray:
    """Lemma 1 (eq. (7)): K[x', x] = P_{Y|X}(x|x') = (1 - alpha) 1[x = x'] + alpha P_X(x); rows = input x'.

    It solves P_{X|S} K = target for *any* P_{X|S} (eq. (8)).

    Examples
    --------
    >>> import graphpriv as gp
    >>> gp.markov_kernel(gp.paper000_example1(), 0.5)[0].round(3).tolist()     # spec 7.2, row x' = a
    [0.705, 0.12, 0.11, 0.065]
    """
    jd = _joint(jd)
    a = _check_alpha(alpha)
    px = jd.p_x
    return (1 - a) * np.eye(len(px)) + a * np.ones((len(px), 1)) * px[None, :]


def markov_solution_is_unique(jd) -> bool:
    """True iff Lemma 1's kernel is the only Markov solution: rank P_{X|S} = |X| (App. E, footnote 11).

    Zero-mass symbols are dropped first. Needs |S| >= |X|.

    Examples
    --------
    >>> import graphpriv as gp
    >>> gp.markov_solution_is_unique(gp.paper000_example1())      # rank 2 < |X| = 4: infinitely many
    False
    """
    jd = _joint(jd).drop_zero_mass()
    return bool(np.linalg.matrix_rank(jd.p_x_given_s()) == jd.n_public)


def optimal_markov_kernel(jd, alpha: float, utility: str = "tv", distance=None) -> np.ndarray:
    """Best Markov kernel for the target of eq. (3) -- an **extension, not in the papers**.

    Lemma 1 gives one Markov solution; when P_{X|S} is rank-deficient there are infinitely many
    (footnote 11). This LP picks the one minimising D_TV (``utility="tv"``) or E[d] over
    {K : P_{X|S} K = target, K 1 = 1, K >= 0} (``scipy.optimize.linprog(method="highs")``).

    Returns
    -------
    ndarray, shape (|X|, |X|), rows = input x'.

    Examples
    --------
    >>> import graphpriv as gp
    >>> jd = gp.paper000_example1()
    >>> K = gp.optimal_markov_kernel(jd, 0.5)
    >>> round(gp.total_variation_loss(jd, K), 4)      # spec 3.1: 0.2178 (Lemma 1: 0.3545, non-Markov: 0.1050)
    0.2178

    Notes
    -----
    One LP with |X|^2 variables and |S| |X| + |X| equality constraints.
    """
    from scipy.optimize import linprog
    from scipy import sparse

    jd = _joint(jd)
    a = _check_alpha(alpha)
    n = jd.n_public
    if utility == "tv":
        D = 1.0 - np.eye(n)
    elif utility == "distance":
        if distance is None:
            raise InputError("utility='distance' needs distance= (an |X| x |X| matrix d(x', x) or a callable)")
        D = _distance_matrix(jd, distance)
    else:
        raise InputError(f"utility={utility!r} must be 'tv' or 'distance'")
    _, px, pxs = _parts(jd)
    T = (1 - a) * pxs + a * px[None, :]
    # variable k[x' * n + x] = K[x', x]; (P K)[s, x] = sum_x' pxs[s, x'] K[x', x]
    A1 = sparse.kron(sparse.csr_matrix(pxs), sparse.eye(n))
    A2 = sparse.kron(sparse.eye(n), np.ones((1, n)))
    A = sparse.vstack([A1, A2]).tocsr()
    b = np.r_[T.ravel(), np.ones(n)]
    res = linprog((px[:, None] * D).ravel(), A_eq=A, b_eq=b, bounds=(0, None), method="highs")
    if res.status != 0:  # pragma: no cover - Lemma 1's kernel is always feasible
        raise InputError(f"Markov LP failed: {res.message}")
    K = np.clip(res.x.reshape(n, n), 0.0, None)
    return K / K.sum(axis=1, keepdims=True)


def reduction_log_lift(jd, alpha, *, base: float = 2, approx: bool = False):
    """Exact log-lift L^LL(S -> Y) of the linear reduction, as a function of alpha.

    L^LL(S -> Y) = max_{s,x} |log((1 - alpha) r(s, x) + alpha)| with r the lift of (S, X) (spec 2.2);
    ``approx=True`` gives the paper's first-order value (1 - alpha) L^LL(S -> X) (eq. (6b)). Finite for
    alpha > 0, non-increasing, 0 at alpha = 1. Same for Markov and non-Markov kernels.

    Parameters
    ----------
    alpha : float or array of floats in (0, 1]

    Examples
    --------
    >>> import graphpriv as gp
    >>> jd = gp.paper000_example1()
    >>> round(gp.reduction_log_lift(jd, 0.5), 4), round(gp.reduction_log_lift(jd, 0.5, approx=True), 4)   # spec 7.5
    (0.7105, 0.6315)
    """
    return _over_alpha(jd, alpha, base, approx, "ll")


def reduction_ldp(jd, alpha, *, base: float = 2, approx: bool = False):
    """Exact LDP L^LDP(S -> Y) of the linear reduction, as a function of alpha.

    max_x log(((1 - alpha) max_s r(s, x) + alpha) / ((1 - alpha) min_s r(s, x) + alpha)) (spec 2.2);
    ``approx=True`` gives (1 - alpha) L^LDP(S -> X) (eq. (6a)).

    Examples
    --------
    >>> import graphpriv as gp
    >>> round(gp.reduction_ldp(gp.paper000_example1(), 0.5), 4)      # log2 2.25
    1.1699
    """
    return _over_alpha(jd, alpha, base, approx, "ldp")


def _over_alpha(jd, alpha, base, approx: bool, which: str):
    jd = _joint(jd).drop_zero_mass()
    lnb = math.log(check_base(base))
    scalar = np.ndim(alpha) == 0
    alphas = np.atleast_1d(np.asarray(alpha, dtype=float))
    for a in alphas:
        _check_alpha(a)
    r = jd.lift()
    out = np.empty(alphas.shape)
    if approx:
        L0 = _mall(jd, base=base) if which == "ll" else _ldp(jd, base=base)
        out = (1 - alphas) * L0
    else:
        rmax, rmin = r.max(axis=0), r.min(axis=0)
        for k, a in enumerate(alphas):
            if which == "ll":
                out[k] = np.max(np.abs(np.log((1 - a) * r + a))) / lnb
            else:
                out[k] = np.max(np.log(((1 - a) * rmax + a) / ((1 - a) * rmin + a))) / lnb
    out = np.maximum(out, 0.0)
    return float(out[0]) if scalar else out


def _distance_matrix(jd: JointDistribution, distance) -> np.ndarray:
    n = jd.n_public
    if callable(distance):
        labs = jd.public_labels.tolist()
        try:
            D = np.array([[float(distance(a, b)) for b in labs] for a in labs])
        except Exception as exc:  # noqa: BLE001 - user callable
            raise InputError(f"distance(x', x) failed on the public labels: {exc}") from None
    else:
        try:
            D = np.asarray(distance, dtype=float)
        except (TypeError, ValueError):
            raise InputTypeError("distance must be an (|X|, |X|) matrix d(x', x) or a callable d(x', x) on public labels") from None
    if D.shape != (n, n):
        raise InputError(f"distance must have shape (|X|, |X|) = ({n}, {n}), got {D.shape}")
    if not np.all(np.isfinite(D)) or (D < 0).any():
        raise InputError("distance must be finite and >= 0")
    if np.any(np.abs(np.diag(D)) > 0):
        raise InputError("distance must have d(x, x) = 0 on the diagonal")
    return D


def satisfies_triangle_inequality(distance, *, atol: float = 1e-12) -> bool:
    """True when d(x', x) <= d(x', z) + d(z, x) for all x', z, x (what Proposition 2 needs).

    Examples
    --------
    >>> import graphpriv as gp
    >>> gp.satisfies_triangle_inequality([[0, 1, 10], [1, 0, 1], [10, 1, 0]])    # spec's counterexample
    False
    """
    D = np.asarray(distance, dtype=float)
    if D.ndim != 2 or D.shape[0] != D.shape[1]:
        raise InputError(f"distance must be a square matrix, got shape {D.shape}")
    via = (D[:, :, None] + D[None, :, :]).min(axis=1)       # min_z d(x', z) + d(z, x)
    return bool(np.all(D <= via + atol))


def is_metric(distance, *, atol: float = 1e-12) -> bool:
    """True when ``distance`` is a metric on the alphabet: >= 0, zero exactly on the diagonal, symmetric, triangle.

    Examples
    --------
    >>> import numpy as np, graphpriv as gp
    >>> gp.is_metric(np.abs(np.subtract.outer(np.arange(4), np.arange(4))))
    True
    >>> gp.is_metric(np.subtract.outer(np.arange(4), np.arange(4)) ** 2)         # (i - j)^2
    False
    """
    D = np.asarray(distance, dtype=float)
    if D.ndim != 2 or D.shape[0] != D.shape[1]:
        raise InputError(f"distance must be a square matrix, got shape {D.shape}")
    off = ~np.eye(D.shape[0], dtype=bool)
    return bool((D >= 0).all() and np.allclose(np.diag(D), 0) and (D[off] > 0).all()
                and np.allclose(D, D.T, atol=atol) and satisfies_triangle_inequality(D, atol=atol))


def _northwest(u: np.ndarray, v: np.ndarray) -> np.ndarray:
    u, v = u.astype(float).copy(), v.astype(float).copy()
    F = np.zeros((len(u), len(v)))
    i = j = 0
    while i < len(u) and j < len(v):
        m = min(u[i], v[j])
        F[i, j] = m
        u[i] -= m
        v[j] -= m
        if u[i] <= _TOL:
            i += 1
        else:
            j += 1
    return F


def _transport(u: np.ndarray, v: np.ndarray, C: np.ndarray) -> np.ndarray:
    """min <C, F> s.t. F 1 = u, F^T 1 = v, F >= 0 (balanced; HiGHS)."""
    from scipy.optimize import linprog
    from scipy import sparse

    m, n = len(u), len(v)
    rows = sparse.kron(sparse.eye(m), np.ones((1, n)))
    cols = sparse.kron(np.ones((1, m)), sparse.eye(n))
    A = sparse.vstack([rows, cols]).tocsr()
    b = np.r_[u, v]
    b[m:] *= u.sum() / v.sum() if v.sum() > 0 else 1.0      # exact balance despite rounding
    res = linprog(C.ravel(), A_eq=A, b_eq=b, bounds=(0, None), method="highs")
    if res.status != 0:  # pragma: no cover - a balanced transport problem is always feasible
        raise InputError(f"transport LP failed: {res.message}")
    return np.clip(res.x.reshape(m, n), 0.0, None)


def optimal_kernel(jd, alpha: float, utility: str = "tv", distance=None, *, method: str = "auto",
                   plan: str = "northwest") -> np.ndarray:
    """Optimal non-Markov kernel Q[s, x', y] = P_{Y|S,X}(y | s, x') for the target of eq. (3).

    Parameters
    ----------
    utility : {"tv", "distance"}
        Minimise D_TV(X, Y) = Pr[Y != X] (Proposition 1) or E[d(X, Y)] (Proposition 2 / LP (10)).
    distance : (|X|, |X|) matrix d(x', x) or callable on labels
        Needed for ``utility="distance"``; d >= 0 with d(x, x) = 0.
    method : {"auto", "transport", "lp"}
        For distances: "transport" is Proposition 2's reduced problem (senders X^-(s) to receivers
        X^+(s), diagonal saturated) and needs d to satisfy the triangle inequality -- otherwise it is
        suboptimal and graphpriv raises; "lp" solves the full LP (10) as one coupling LP per s (exact
        for any d); "auto" picks "transport" when allowed, else "lp". For TV, "lp" solves LP (10) and
        the other values use the closed form.
    plan : {"northwest", "proportional"}
        Which TV-optimal transport plan Proposition 1 returns (all have the same D_TV; they differ in
        I(X; Y)). The north-west corner reproduces the paper's s = 1 solution.

    Returns
    -------
    ndarray, shape (|S|, |X|, |X|)
        Rows Q[s, x', :] are pmfs; rows with P(s, x') = 0 are the identity (they carry no mass).

    Raises
    ------
    InputError
        alpha outside (0, 1]; unknown utility/method/plan; missing distance; ``method="transport"``
        with a distance that violates the triangle inequality.

    Examples
    --------
    Paper 000 Example 1 at alpha = 0.5: the (11a) diagonal for s = 1 and the paper's s = 1 solution.

    >>> import numpy as np, graphpriv as gp
    >>> Q = gp.optimal_kernel(gp.paper000_example1(), 0.5)
    >>> np.diag(Q[0]).round(3).tolist()
    [1.0, 1.0, 0.72, 0.825]
    >>> Q[0, 2:, :2].round(3).tolist()           # Q(a|1,c), Q(b|1,c); Q(a|1,d), Q(b|1,d)
    [[0.21, 0.07], [0.0, 0.175]]

    Notes
    -----
    Closed form: O(|S| |X|). Transport/LP: one HiGHS LP per s with up to |X|^2 variables.
    """
    jd = _joint(jd)
    a = _check_alpha(alpha)
    if utility not in ("tv", "distance"):
        raise InputError(f"utility={utility!r} must be 'tv' or 'distance'")
    if method not in ("auto", "transport", "lp"):
        raise InputError(f"method={method!r} must be 'auto', 'transport' or 'lp'")
    if plan not in ("northwest", "proportional"):
        raise InputError(f"plan={plan!r} must be 'northwest' or 'proportional'")
    n_s, n_x = jd.shape
    if utility == "distance":
        if distance is None:
            raise InputError("utility='distance' needs distance= (an |X| x |X| matrix d(x', x) or a callable)")
        D = _distance_matrix(jd, distance)
        tri = satisfies_triangle_inequality(D)
        if method == "transport" and not tri:
            raise InputError("method='transport' (Proposition 2) is only optimal when the distance satisfies the triangle "
                             "inequality, and this one does not; use method='lp' (the full LP (10)) or method='auto'")
        use_lp = method == "lp" or (method == "auto" and not tri)
    else:
        D = 1.0 - np.eye(n_x)
        use_lp = method == "lp"
    ps, px, pxs = _parts(jd)
    T = (1 - a) * pxs + a * px[None, :]
    Q = np.zeros((n_s, n_x, n_x))
    eye = np.eye(n_x)
    for s in range(n_s):
        p, q = pxs[s], T[s]
        Qs = eye.copy()
        live = p > 0
        if use_lp:
            idx = np.flatnonzero(live)
            F = _transport(p[idx], q, D[idx])
            Qs[idx] = F / p[idx, None]
        else:
            minus = np.flatnonzero(px < p - _TOL)           # senders X^-(s)
            plus = np.flatnonzero(px >= p - _TOL)           # receivers X^+(s) (ties: zero demand)
            for x in np.flatnonzero(live):
                Qs[x, x] = min(q[x] / p[x], 1.0)            # (11a)
            if minus.size:
                u = a * (p[minus] - px[minus])
                v = a * np.maximum(px[plus] - p[plus], 0.0)
                if v.sum() > 0:
                    v = v * (u.sum() / v.sum())
                if utility == "distance":
                    F = _transport(u, v, D[np.ix_(minus, plus)])
                elif plan == "northwest":
                    F = _northwest(u, v)
                else:
                    F = np.outer(u, v) / u.sum()
                Qs[np.ix_(minus, plus)] = F / p[minus, None]
                Qs[minus, minus] = np.minimum(q[minus] / p[minus], 1.0)
        Qs = np.clip(Qs, 0.0, None)
        Qs /= Qs.sum(axis=1, keepdims=True)
        Q[s] = Qs
    return Q


def induced_channel(jd, kernel) -> np.ndarray:
    """P_{Y|X}(y|x') induced by a kernel (eq. (9)): K itself for a Markov kernel, else sum_s Q[s] P(s|x').

    Rows of zero-mass x' are the identity. Shape (|X|, |X|).
    """
    jd = _joint(jd)
    K = np.asarray(kernel, dtype=float)
    if K.ndim == 2:
        return K
    psx = jd.p_s_given_x()
    out = np.einsum("sxy,sx->xy", K, psx)
    dead = jd.p_x <= 0
    if dead.any():
        out[dead] = np.eye(jd.n_public)[dead]
    return out


def total_variation_loss(jd, kernel, *, variant: str = "tv") -> float:
    """D_TV(X, Y) = 1 - sum_x P_X(x) P_{Y|X}(x|x) = Pr[Y != X] (paper 000 App. B, canonical form).

    ``variant="l1"`` gives the paper's un-halved double sum (= 2 D_TV, spec section 6 item 2).

    Examples
    --------
    >>> import graphpriv as gp
    >>> jd = gp.paper000_example1()
    >>> round(gp.total_variation_loss(jd, gp.markov_kernel(jd, 0.5)), 4)     # paper prints 0.68: erratum
    0.3545
    """
    jd = _joint(jd)
    K = induced_channel(jd, kernel)
    v = 1.0 - float(jd.p_x @ np.diag(K))
    if variant == "tv":
        return max(v, 0.0)
    if variant == "l1":
        return 2 * max(v, 0.0)
    raise InputError(f"variant={variant!r} must be 'tv' or 'l1'")


def expected_distortion(jd, kernel, distance) -> float:
    """E[d(X, Y)] = sum_{x', y} P_X(x') P_{Y|X}(y|x') d(x', y) (paper 000 Sec. III)."""
    jd = _joint(jd)
    D = _distance_matrix(jd, distance)
    K = induced_channel(jd, kernel)
    return float((jd.p_x[:, None] * K * D).sum())


def _mi_xy(px: np.ndarray, K: np.ndarray, lnb: float) -> float:
    Pxy = px[:, None] * K
    py = Pxy.sum(axis=0)
    m = Pxy > 0
    return max(float((Pxy[m] * np.log(Pxy[m] / np.outer(px, py)[m])).sum()) / lnb, 0.0)


@dataclass(frozen=True, repr=False)
class LinearReduction:
    """A linear-reduction mechanism (papers 000/001) and its privacy/utility report.

    ``kernel``: Markov (|X|, |Y|) with rows = input x', or non-Markov (|S|, |X|, |Y|) = P(y|s, x').
    ``target``: P_{Y|S} (eq. (3)). ``channel``: induced P_{Y|X} (eq. (9)). Logarithmic fields in ``base``.
    """

    alpha: float
    scheme: str
    utility: str
    method: str
    base: float
    kernel: np.ndarray
    target: np.ndarray
    channel: np.ndarray
    sensitive_labels: np.ndarray
    public_labels: np.ndarray
    ldp: float                   # L^LDP(S -> Y), exact
    log_lift: float              # L^LL(S -> Y), exact
    ldp_x: float                 # L^LDP(S -> X) (release X unchanged)
    log_lift_x: float            # L^LL(S -> X)
    mutual_information_xy: float  # I(X; Y)
    entropy_x: float             # H(X)
    tv: float                    # D_TV(X, Y) = Pr[Y != X]
    expected_distortion: float | None
    markov_unique: bool | None   # Markov scheme: is Lemma 1's kernel the only Markov solution?
    p_x_given_s: np.ndarray | None = None   # input conditional P_{X|S}, shape (|S|, |X|)

    @property
    def is_markov(self) -> bool:
        return self.kernel.ndim == 2

    @property
    def mi_loss(self) -> float:
        """H(X) - I(X; Y) = H(X|Y)."""
        return max(self.entropy_x - self.mutual_information_xy, 0.0)

    def apply(self, s, x, rng=None) -> np.ndarray:
        """Sanitise records: draw y ~ kernel[x'] (Markov; ``s`` may be None) or kernel[s, x'].

        Parameters
        ----------
        s, x : label or sequences of sensitive / public labels (same length)
        rng : int, numpy Generator or None
        """
        from .watchdog import _codes_of

        xc = _codes_of(x, self.public_labels, "x")
        gen = np.random.default_rng(rng)
        if self.is_markov:
            W = self.kernel[xc]
        else:
            if s is None:
                raise InputError("the non-Markov kernel needs the sensitive value s of every record")
            sc = _codes_of(s, self.sensitive_labels, "s")
            if sc.shape != xc.shape:
                raise InputError(f"s and x must have the same length, got {sc.size} and {xc.size}")
            W = self.kernel[sc, xc]
        cdf = np.cumsum(W, axis=1)
        y = np.minimum((gen.random(len(xc))[:, None] > cdf).sum(axis=1), W.shape[1] - 1)
        return self.public_labels[y]

    def report(self) -> dict:
        """Privacy and utility summary (JSON-able)."""
        return {
            "alpha": self.alpha, "scheme": self.scheme, "utility": self.utility, "method": self.method, "base": self.base,
            "LDP_Y": self.ldp, "LL_Y": self.log_lift, "LDP_X": self.ldp_x, "LL_X": self.log_lift_x,
            "I_XY": self.mutual_information_xy, "H_X": self.entropy_x, "MI_loss": self.mi_loss, "D_TV": self.tv,
            "E_d": self.expected_distortion, "markov_unique": self.markov_unique,
        }

    def __repr__(self) -> str:
        ed = "" if self.expected_distortion is None else f", E[d]={self.expected_distortion:.4g}"
        return (f"LinearReduction(alpha={self.alpha:g}, scheme={self.scheme!r}, kernel{self.kernel.shape}, "
                f"LDP={self.ldp:.4g}, LL={self.log_lift:.4g}, D_TV={self.tv:.4g}, I(X;Y)={self.mutual_information_xy:.4g}{ed})")


def linear_reduction(jd, alpha: float, scheme: str = "markov", utility: str = "tv", distance=None, *,
                     method: str = "auto", plan: str = "northwest", base: float = 2) -> LinearReduction:
    """Linear-reduction mechanism of papers 000/001 for reduction level ``alpha``.

    Parameters
    ----------
    jd : JointDistribution or array_like (|S|, |X|)
    alpha : float in (0, 1]
        Reduction level of eq. (3); 1 gives Y independent of S.
    scheme : {"markov", "optimal"}
        Lemma 1's Markov kernel, or the optimal non-Markov kernel (:func:`optimal_kernel`).
    utility : {"tv", "distance"}
        The utility the optimal kernel maximises (ignored by the Markov kernel, which is fixed).
    distance : matrix or callable, optional
        d(x', x); needed for ``utility="distance"``; when given, ``expected_distortion`` is reported.
    method, plan : see :func:`optimal_kernel`.
    base : float, default 2
        **Bits by default** (the figures of papers 000/001).

    Returns
    -------
    LinearReduction

    Examples
    --------
    >>> import graphpriv as gp
    >>> jd = gp.paper000_example1()
    >>> m = gp.linear_reduction(jd, 0.5)
    >>> m.kernel.shape, round(m.tv, 4), round(m.mutual_information_xy, 4)   # paper: 0.68 and 0.36 (erratum)
    ((4, 4), 0.3545, 0.4284)
    >>> o = gp.linear_reduction(jd, 0.5, scheme="optimal")
    >>> o.kernel.shape, round(o.tv, 4), round(o.mutual_information_xy, 4)   # paper: 0.23 and 1.19 (erratum)
    ((2, 4, 4), 0.105, 1.3593)
    >>> round(o.ldp, 4), round(o.log_lift, 4)
    (1.1699, 0.7105)
    """
    jd = _joint(jd)
    a = _check_alpha(alpha)
    b = check_base(base)
    lnb = math.log(b)
    if scheme == "markov":
        if utility not in ("tv", "distance"):
            raise InputError(f"utility={utility!r} must be 'tv' or 'distance'")
        K = markov_kernel(jd, a)
        unique = markov_solution_is_unique(jd)
        used = "lemma1"
    elif scheme == "optimal":
        K = optimal_kernel(jd, a, utility, distance, method=method, plan=plan)
        unique = None
        if utility == "tv":
            used = "lp" if method == "lp" else f"prop1:{plan}"
        else:
            D = _distance_matrix(jd, distance)
            used = "lp" if method == "lp" or (method == "auto" and not satisfies_triangle_inequality(D)) else "prop2:transport"
    else:
        raise InputError(f"scheme={scheme!r} must be 'markov' (Lemma 1) or 'optimal' (Propositions 1-2)")
    D = None if distance is None else _distance_matrix(jd, distance)
    Kc = induced_channel(jd, K)
    px = jd.p_x
    pxp = px[px > 0]
    HX = float(-(pxp * np.log(pxp)).sum()) / lnb
    return LinearReduction(
        alpha=a, scheme=scheme, utility=utility, method=used, base=b, kernel=K, target=target_conditional(jd, a), channel=Kc,
        sensitive_labels=jd.sensitive_labels, public_labels=jd.public_labels,
        ldp=reduction_ldp(jd, a, base=b), log_lift=reduction_log_lift(jd, a, base=b),
        ldp_x=_ldp(jd, base=b), log_lift_x=_mall(jd, base=b),
        mutual_information_xy=_mi_xy(px, Kc, lnb), entropy_x=HX,
        tv=max(1.0 - float(px @ np.diag(Kc)), 0.0),
        expected_distortion=None if D is None else float((px[:, None] * Kc * D).sum()),
        markov_unique=unique, p_x_given_s=_parts(jd)[2],
    )


def linear_reduction_sweep(jd, alphas=None, *, distance=None, base: float = 2, plan: str = "northwest",
                           method: str = "auto") -> pd.DataFrame:
    """The alpha sweep behind papers 000/001 Figs. 1-4: privacy and utility losses of both schemes.

    Columns: ``alpha``, ``ldp``, ``ldp_approx``, ``log_lift``, ``log_lift_approx`` (exact values and
    the (1 - alpha) approximations of eq. (6)); ``tv_markov``, ``tv_optimal``, ``mi_loss_markov``,
    ``mi_loss_optimal`` (H(X) - I(X; Y), optimal = TV-optimal kernel with ``plan``); with ``distance``
    also ``ed_markov``, ``ed_optimal`` (E[d] of Lemma 1 and of the distance-optimal kernel).

    Examples
    --------
    >>> import graphpriv as gp
    >>> df = gp.linear_reduction_sweep(gp.paper000_example1(), [0.1, 0.5, 1.0])
    >>> df[["alpha", "tv_markov", "tv_optimal"]].round(4).values.tolist()      # spec 7.5: 0.709a, 0.21a
    [[0.1, 0.0709, 0.021], [0.5, 0.3545, 0.105], [1.0, 0.709, 0.21]]
    """
    jd = _joint(jd)
    if alphas is None:
        alphas = np.linspace(0.01, 1.0, 100)
    alphas = np.atleast_1d(np.asarray(alphas, dtype=float))
    if alphas.size == 0:
        raise InputError("alphas is empty")
    rows = []
    for a in alphas:
        mk = linear_reduction(jd, a, "markov", distance=distance, base=base)
        op = linear_reduction(jd, a, "optimal", "tv", plan=plan, base=base)
        row = {"alpha": float(a), "ldp": mk.ldp, "ldp_approx": (1 - a) * mk.ldp_x, "log_lift": mk.log_lift,
               "log_lift_approx": (1 - a) * mk.log_lift_x, "tv_markov": mk.tv, "tv_optimal": op.tv,
               "mi_loss_markov": mk.mi_loss, "mi_loss_optimal": op.mi_loss}
        if distance is not None:
            od = linear_reduction(jd, a, "optimal", "distance", distance, method=method, base=base)
            row["ed_markov"] = mk.expected_distortion
            row["ed_optimal"] = od.expected_distortion
        rows.append(row)
    return pd.DataFrame(rows)
