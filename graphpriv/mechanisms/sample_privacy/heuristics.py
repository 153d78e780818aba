"""Sample-private mechanisms built by heuristics: partial processing, pre-processing, modular sums.

Rassouli, Rosas & Gündüz, *Data Disclosure under Perfect Sample Privacy*, Section V-C (Lemma 7, Example 5, Fig. 5), Examples 1 and 3 and Theorem 5. Lemma 7 (Y_par)
needs mutually independent samples and conditionally independent Y_par,j: :func:`partial_processing`
enforces the first and builds the second. Example 5's eq. (67) is exact only for n = 2 (or q = 1/2)
and a strict lower bound for n >= 3; :func:`preprocessing_information` gives the exact value
(n - 1) - n (1 - q) h(beta) + (1 - q)^n c_n(beta).
"""

from __future__ import annotations

import itertools
import math
from dataclasses import dataclass, field
from typing import Sequence

import numpy as np

from ..._validation import check_base, validate_pmf
from ...errors import InputError, TooLargeError
from .bounds import SamplePrivacyCheck, verify_sample_privacy
from .capacity import self_disclosure
from .constraints import _H, _hb

__all__ = ["HeuristicDisclosure", "partial_processing", "preprocessing_mechanism", "uniformizing_channel",
           "preprocessing_information", "pair_self_disclosure_binary", "binary_iid_asymptotic_efficiency",
           "modular_sum_mechanism", "window_sum_mechanism", "quantile_sum_mechanism"]


@dataclass(frozen=True, eq=False)
class HeuristicDisclosure:
    """A sample-private mechanism built by a heuristic (Y_par, Y_pre, modular sums).

    Attributes
    ----------
    name : str
    mapping : ndarray, shape (|Y|, |X_1|...|X_n|)
        p(y | x^n), C order.
    information : float
        I(X^n; Y) computed exactly from the joint.
    predicted : float or None
        The paper's formula for it (Lemma 7 for Y_par; the corrected Example 5 formula for binary
        i.i.d. Y_pre), when it applies.
    check : SamplePrivacyCheck
        Output of :func:`verify_sample_privacy` on the mechanism.
    """

    name: str
    mapping: np.ndarray = field(repr=False)
    information: float = 0.0
    predicted: float | None = None
    check: SamplePrivacyCheck | None = field(repr=False, default=None)


def _independent_marginals(p_xn, name="p_xn", atol=1e-9) -> tuple[np.ndarray, list[np.ndarray]]:
    P = validate_pmf(p_xn, name=name)
    if P.ndim < 2:
        raise InputError(f"{name} must have one axis per sample and at least 2 samples, got shape {P.shape}")
    margs = [P.sum(axis=tuple(j for j in range(P.ndim) if j != i)) for i in range(P.ndim)]
    prod = margs[0]
    for m in margs[1:]:
        prod = np.multiply.outer(prod, m)
    if np.abs(prod - P).max() > atol:
        raise InputError(f"{name} is not a product of its marginals (max deviation {np.abs(prod - P).max():.3g}): "
                         "Lemma 7 / Example 5 need mutually independent samples, and Y_par is not private otherwise")
    return P, margs


def partial_processing(p_xn, *, window: int = 2, method: str = "auto", base: float = 2, max_entries: int = 50_000_000) -> HeuristicDisclosure:
    """Partial processing Y_par (paper 004, Section V-C1, Lemma 7) for mutually independent samples.

    For each window j = 1..n-k+1 of k consecutive samples, solve the k-sample self-disclosure problem
    (Algorithms 1-2 with W = (X_j..X_{j+k-1})) and output Y_par,j from its optimal mapping, drawn
    conditionally independently given X^n. Lemma 7 (k = 2): I(Y_par; X^n) = sum_j Î_s(X_j, X_{j+1}).

    Parameters
    ----------
    p_xn : array_like, shape (|X_1|, ..., |X_n|)
        Joint pmf; must be the product of its marginals (else :class:`InputError`).
    window : int
        k >= 2 (the paper's Y_par(k)).

    Examples
    --------
    >>> import numpy as np
    >>> from graphpriv import partial_processing, pair_self_disclosure_binary
    >>> q = 0.3; px = np.array([1 - q, q])
    >>> res = partial_processing(np.multiply.outer(np.outer(px, px), px))
    >>> round(res.information, 6) == round(res.predicted, 6) == round(2 * pair_self_disclosure_binary(q), 6)
    True
    >>> res.check.is_private
    True
    """
    base = check_base(base)
    P, margs = _independent_marginals(p_xn)
    n = P.ndim
    if not isinstance(window, (int, np.integer)) or window < 2 or window > n:
        raise InputError(f"window must be an integer in 2..n = {n}, got {window!r}")
    sizes = P.shape
    M = np.ones((1,) + sizes)
    predicted = 0.0
    for j in range(n - window + 1):
        sub = margs[j]
        for m in margs[j + 1:j + window]:
            sub = np.multiply.outer(sub, m)
        res = self_disclosure(sub, method=method, base=base)
        predicted += res.value
        L = res.mapping.shape[0]
        Kj = res.mapping.reshape((L,) + sizes[j:j + window])
        shape = (1, L) + (1,) * j + sizes[j:j + window] + (1,) * (n - j - window)
        if M.shape[0] * L * int(np.prod(sizes)) > max_entries:
            raise TooLargeError(f"the Y_par mapping would have more than max_entries={max_entries:,} entries")
        M = (M[:, None] * Kj.reshape(shape)).reshape((M.shape[0] * L,) + sizes)
    mapping = M.reshape(M.shape[0], -1)
    chk = verify_sample_privacy(mapping, P, base=base)
    return HeuristicDisclosure(f"Y_par(k={window})", mapping, chk.information, predicted if window == 2 else None, chk)


def uniformizing_channel(p_x) -> np.ndarray:
    """A channel P_{S|X} (shape (|X|, |X|), columns = x) with P_{S|X} p_X uniform (paper 004, Y_pre).

    Built as the north-west-corner transport plan from p_X to the uniform pmf. For a binary
    X ~ Bern(q), q <= 1/2 this is Example 5's Z-channel (1 -> 1, 0 -> 1 with probability
    beta = (1/2 - q)/(1 - q)); for q > 1/2 the roles of 0 and 1 swap. The paper does not say how to
    uniformise larger alphabets (Section V-C); any such channel keeps Y_pre private.

    Examples
    --------
    >>> from graphpriv import uniformizing_channel
    >>> uniformizing_channel([0.8, 0.2]).round(6).tolist()
    [[0.625, 0.0], [0.375, 1.0]]
    """
    p = validate_pmf(p_x, ndim=1, name="p_x")
    m = p.size
    if (p <= 0).any():
        raise InputError("p_x must be > 0 for every value (drop values that never occur)")
    u = np.full(m, 1.0 / m)
    T = np.zeros((m, m))  # T[s, x]
    i = j = 0
    rem_x, rem_s = p.copy(), u.copy()
    while i < m and j < m:
        a = min(rem_x[i], rem_s[j])
        T[j, i] += a
        rem_x[i] -= a
        rem_s[j] -= a
        if rem_x[i] <= 1e-15:
            i += 1
        else:
            j += 1
    return T / p[None, :]


def preprocessing_mechanism(p_xn, *, base: float = 2, max_states: int = 4096) -> HeuristicDisclosure:
    """Pre-processing Y_pre (paper 004, Section V-C2, Example 5) for independent samples on a common alphabet.

    Each X_i passes through a uniformiser (:func:`uniformizing_channel`) to S_i ~ U[m]; then
    Y_pre = (S_1 + S_2, ..., S_{n-1} + S_n) mod m. For i.i.d. binary samples ``predicted`` is the
    exact value of :func:`preprocessing_information` (the corrected Example 5 formula; the paper's
    eq. (67) is a lower bound for n >= 3).

    Examples
    --------
    >>> import numpy as np
    >>> from graphpriv import preprocessing_mechanism
    >>> q = 0.2; px = np.array([1 - q, q])
    >>> res = preprocessing_mechanism(np.multiply.outer(np.outer(px, px), px))
    >>> round(res.information, 6), round(res.predicted, 6), res.check.is_private
    (0.155535, 0.155535, True)
    """
    base = check_base(base)
    P, margs = _independent_marginals(p_xn)
    n, m = P.ndim, P.shape[0]
    if any(s != m for s in P.shape):
        raise InputError(f"Y_pre needs a common alphabet for all samples, got sizes {P.shape}")
    if m ** n > max_states:
        raise TooLargeError(f"Y_pre's exact mapping has {m}^{n} = {m ** n} dataset states, more than max_states={max_states}")
    U = np.ones((1, 1))
    for mg in margs:
        U = np.kron(U, uniformizing_channel(mg))  # (s^n, x^n)
    states = np.array(list(itertools.product(range(m), repeat=n)))
    l_codes = np.ravel_multi_index(tuple(((states[:, :-1] + states[:, 1:]) % m).T), (m,) * (n - 1)) if n > 1 else np.zeros(len(states), int)
    D = np.zeros((m ** (n - 1), m ** n))
    D[l_codes, np.arange(m ** n)] = 1.0
    mapping = D @ U
    chk = verify_sample_privacy(mapping, P, base=base)
    pred = None
    if m == 2 and all(np.allclose(mg, margs[0]) for mg in margs):
        pred = preprocessing_information(float(margs[0][1]), n) / math.log2(base)
    return HeuristicDisclosure("Y_pre", mapping, chk.information, pred, chk)


def preprocessing_information(q: float, n: int, *, formula: str = "exact") -> float:
    """I(Y_pre; X^n) in bits for n i.i.d. Bern(q) samples (paper 004, Example 5).

    ``formula="exact"`` (graphpriv's correction of eq. (67), equal to brute force for n = 2..5):
    (n - 1) - n (1 - q) h(beta) + (1 - q)^n c_n(beta), with beta = (1/2 - q)/(1 - q) and
    c_n(beta) = H(S^n | S_1 xor S_2, ..., S_{n-1} xor S_n) for S_i i.i.d. Bern(beta).
    ``formula="eq67"``: the paper's eq. (67), (n - 1)[1 - 2q(1 - q) h(beta) - (1 - q)^2 h(2 beta (1 - beta))],
    exact only for n = 2 or q = 1/2 and a strict lower bound for n >= 3. For q > 1/2 the roles of 0 and 1
    swap (q -> 1 - q).

    Examples
    --------
    >>> from graphpriv import preprocessing_information
    >>> [round(preprocessing_information(0.2, n), 6) for n in (2, 3, 4, 5)]
    [0.056386, 0.155535, 0.287189, 0.44359]
    >>> round(preprocessing_information(0.2, 3, formula="eq67"), 6) < 0.155535
    True
    """
    q = float(q)
    if not 0 < q < 1:
        raise InputError(f"q must lie in (0, 1), got {q}")
    if not isinstance(n, (int, np.integer)) or n < 2:
        raise InputError(f"n must be an integer >= 2, got {n!r}")
    if q > 0.5:
        q = 1 - q
    beta = (0.5 - q) / (1 - q)
    if formula == "eq67":
        return float((n - 1) * (1 - 2 * q * (1 - q) * _hb(beta) - (1 - q) ** 2 * _hb(2 * beta * (1 - beta))))
    if formula != "exact":
        raise InputError(f"formula={formula!r} is unknown; use 'exact' or 'eq67'")
    if n > 22:
        raise TooLargeError("the exact c_n(beta) term enumerates 2^n states; n <= 22 is supported")
    states = np.array(list(itertools.product((0, 1), repeat=n)), dtype=np.int64)
    ps = np.prod(np.where(states == 1, beta, 1 - beta), axis=1)
    d = np.ravel_multi_index(tuple((states[:, :-1] ^ states[:, 1:]).T), (2,) * (n - 1))
    pd_ = np.bincount(d, weights=ps, minlength=2 ** (n - 1))
    c_n = float(_H(ps)) - float(_H(pd_))
    return float((n - 1) - n * (1 - q) * _hb(beta) + (1 - q) ** n * c_n)


def pair_self_disclosure_binary(q: float) -> float:
    """Î_s(X_1, X_2) in bits for two i.i.d. Bern(q) bits: 2h(q) - (1-q) H(1-2q, q, q) - q h(q), q <= 1/2.

    Example 4 (the polytope's vertices [1-2q, q, q, 0] with weight 1-q and [1-q, 0, 0, q] with weight q);
    q > 1/2 is mapped to 1 - q.

    Examples
    --------
    >>> from graphpriv import pair_self_disclosure_binary
    >>> [round(pair_self_disclosure_binary(q), 6) for q in (0.05, 0.1, 0.5)]
    [0.017928, 0.061356, 1.0]
    """
    q = float(q)
    if not 0 <= q <= 1:
        raise InputError(f"q must lie in [0, 1], got {q}")
    q = min(q, 1 - q)
    return float(2 * _hb(q) - (1 - q) * _H(np.array([1 - 2 * q, q, q])) - q * _hb(q))


def binary_iid_asymptotic_efficiency(q: float, scheme: str = "par") -> float:
    """Asymptotic efficiency (n -> infinity) of a heuristic on i.i.d. Bern(q) bits (paper 004, Fig. 5).

    ``"par"``: Ex. 4, Î_s(X_1, X_2) / h(q); ``"pre"``: exact Y_pre, (1 - (1 - q) h(beta)) / h(q)
    (the exact limit; eq. (67) assumes the D_k = S_k xor S_{k+1} are conditionally independent given
    X^n, which they are not); ``"pre_eq67"``: the paper's eq. (67) divided by h(q) (an underestimate).
    The optimal scheme tends to 1 (Theorem 4).

    Examples
    --------
    >>> from graphpriv import binary_iid_asymptotic_efficiency
    >>> [round(binary_iid_asymptotic_efficiency(0.1, s), 4) for s in ("par", "pre", "pre_eq67")]
    [0.1308, 0.2303, 0.0249]
    """
    q = float(q)
    if not 0 < q < 1:
        raise InputError(f"q must lie in (0, 1), got {q}")
    qq = min(q, 1 - q)
    beta = (0.5 - qq) / (1 - qq)
    h = _hb(qq)
    if scheme == "par":
        return pair_self_disclosure_binary(qq) / h
    if scheme == "pre":
        return (1 - (1 - qq) * _hb(beta)) / h
    if scheme == "pre_eq67":
        return (1 - 2 * qq * (1 - qq) * _hb(beta) - (1 - qq) ** 2 * _hb(2 * beta * (1 - beta))) / h
    raise InputError(f"scheme={scheme!r} is unknown; use 'par', 'pre' or 'pre_eq67'")


def modular_sum_mechanism(sizes: Sequence[int], modulus: int) -> np.ndarray:
    """Y = X_1 + ... + X_n mod M as a deterministic mapping (paper 004, Example 1), shape (M, prod(sizes)).

    With X_1 ~ U[M], X_2 ~ U[kM] independent it is perfectly sample-private and achieves
    I_s = H(W) = log M for W = X_1 + X_2 mod M.

    Examples
    --------
    >>> from graphpriv import modular_sum_mechanism
    >>> modular_sum_mechanism([2, 2], 2).astype(int).tolist()
    [[1, 0, 0, 1], [0, 1, 1, 0]]
    """
    sizes = tuple(int(s) for s in sizes)
    if not sizes or any(s < 1 for s in sizes):
        raise InputError(f"sizes must be positive alphabet sizes, got {sizes}")
    if not isinstance(modulus, (int, np.integer)) or modulus < 1:
        raise InputError(f"modulus must be a positive integer, got {modulus!r}")
    grid = np.indices(sizes).reshape(len(sizes), -1)
    y = grid.sum(0) % modulus
    out = np.zeros((modulus, grid.shape[1]))
    out[y, np.arange(grid.shape[1])] = 1.0
    return out


def window_sum_mechanism(modulus: int, n: int, k: int) -> np.ndarray:
    """Example 3: L_i = Q + X_i + ... + X_{i+k-1} mod M, Q ~ U[M] independent, Y = (L_1..L_{n-k+1}).

    Returns p(y | x^n) of shape (M^{n-k+1}, M^n). Private for every window of k samples
    (Corollary 4.1) and I(X^n; Y) = (n - k) log M for uniform i.i.d. samples.

    Examples
    --------
    >>> from graphpriv import window_sum_mechanism, verify_sample_privacy
    >>> import numpy as np
    >>> K = window_sum_mechanism(2, 3, 2)
    >>> K.shape, verify_sample_privacy(K, np.full((2, 2, 2), 1 / 8), protected=[(0, 1), (1, 2)]).is_private
    ((4, 8), True)
    """
    for v, nm in ((modulus, "modulus"), (n, "n"), (k, "k")):
        if not isinstance(v, (int, np.integer)) or v < 1:
            raise InputError(f"{nm} must be a positive integer, got {v!r}")
    if k > n:
        raise InputError(f"k must be <= n, got k={k}, n={n}")
    if modulus ** (2 * n - k + 1) > 5e7:
        raise TooLargeError("window_sum_mechanism's mapping would be too large")
    X = np.indices((modulus,) * n).reshape(n, -1)
    L = n - k + 1
    out = np.zeros((modulus ** L, X.shape[1]))
    for q in range(modulus):
        ls = np.stack([(q + X[i:i + k].sum(0)) % modulus for i in range(L)])
        codes = np.ravel_multi_index(tuple(ls), (modulus,) * L)
        out[codes, np.arange(X.shape[1])] += 1.0 / modulus
    return out


def quantile_sum_mechanism(x1, x2, n_bins: int) -> np.ndarray:
    """Theorem 5 construction for continuous data: Y = (bin(x1) + bin(x2)) mod K with K empirical-quantile bins.

    For independent continuous X_1, X_2 each bin index is uniform, so Y is independent of each X_i
    and I(X_1, X_2; Y) = log K (unbounded in K). Returns the integer outputs for the given samples.

    Examples
    --------
    >>> import numpy as np
    >>> from graphpriv import quantile_sum_mechanism
    >>> rng = np.random.default_rng(0)
    >>> y = quantile_sum_mechanism(rng.normal(size=1000), rng.exponential(size=1000), 4)
    >>> np.bincount(y).tolist()
    [250, 267, 248, 235]
    """
    a = np.asarray(x1, dtype=float).ravel()
    b = np.asarray(x2, dtype=float).ravel()
    if a.shape != b.shape or a.size == 0:
        raise InputError(f"x1 and x2 must be non-empty and of equal length, got {a.size} and {b.size}")
    if not (np.isfinite(a).all() and np.isfinite(b).all()):
        raise InputError("x1 and x2 must be finite numbers")
    if not isinstance(n_bins, (int, np.integer)) or n_bins < 1:
        raise InputError(f"n_bins must be a positive integer, got {n_bins!r}")

    def bins(v):
        ranks = np.argsort(np.argsort(v, kind="stable"), kind="stable")
        return (ranks * n_bins) // v.size

    return ((bins(a) + bins(b)) % n_bins).astype(np.int64)
