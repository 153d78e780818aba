"""Kernels that realise the linear reduction's target conditional (eq. (3)).

Ding, Liu & Farokhi, *A Linear Reduction Method for Local Differential Privacy and Log-lift*: the
release Y must satisfy P_{Y|S}(x|s) = (1 - alpha) P_{X|S}(x|s) + alpha P_X(x) (eq. (3)). Two kernels
realise it:

* **Markov** (Lemma 1, eq. (7)): K = (1 - alpha) I + alpha 1 P_X^T -- keep x' with probability 1 - alpha,
  else draw a fresh value from P_X. Shape (|X|, |Y|), rows = input x'. It is the unique Markov solution
  iff P_{X|S} has full column rank (:func:`markov_solution_is_unique`; Lemma 1's "the" needs it).
* **Optimal non-Markov** (Sec. III-B): for each s, a coupling of P_{X|S=s} and the target -- a
  transportation problem. TV utility: Proposition 1's closed form (north-west-corner plan by default,
  which reproduces the paper's s = 1 solution; or the proportional plan). Expected distortion:
  Proposition 2's reduced transport LP *only when d satisfies the triangle inequality*, otherwise the
  full LP (10) (Proposition 2 is suboptimal for a non-metric d; (11d)-(11e) need Q >= 0 and LP (10)
  needs normalisation and non-negativity). Shape (|S|, |X|, |Y|) holding P(y | s, x'). LPs use
  ``scipy.optimize.linprog(method="highs")``.
"""

from __future__ import annotations

import numpy as np

from ..._validation import check_real
from ...distributions import JointDistribution
from ...errors import InputError, InputTypeError
from ...measures.stochastic import _joint

__all__ = ["target_conditional", "markov_kernel", "markov_solution_is_unique", "optimal_markov_kernel", "optimal_kernel",
           "induced_channel", "is_metric", "satisfies_triangle_inequality"]

_TOL = 1e-12


def _check_alpha(alpha) -> float:
    try:
        a = check_real(alpha, "alpha")          # a number: not a text such as '0.5', nor a bool
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
    >>> gp.target_conditional(gp.paper000_example1(), 0.5).round(3).tolist()     # Example 1, alpha = 0.5
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
    >>> gp.markov_kernel(gp.paper000_example1(), 0.5)[0].round(3).tolist()     # Example 1, alpha = 0.5, row x' = a
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
    >>> round(gp.total_variation_loss(jd, K), 4)      # Example 1: 0.2178 (Lemma 1: 0.3545, non-Markov: 0.1050)
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
    >>> gp.satisfies_triangle_inequality([[0, 1, 10], [1, 0, 1], [10, 1, 0]])    # not a metric: Prop. 2 does not apply
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
