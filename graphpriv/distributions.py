"""Joint probability mass functions p(s, x) and their validation.

:class:`JointDistribution` is the stochastic counterpart of :class:`~graphpriv.JointRange`: a dense
(|S|, |X|) matrix of probabilities with label arrays. Its support is a JointRange
(:meth:`JointDistribution.support`), so every graph tool applies to it.

Zero-mass symbols: a sensitive or public label whose marginal probability is 0 is kept in the matrix
(so shapes match what the user passed) but is not in the support; mechanisms that need p(s) > 0 and
p(x) > 0 work on :meth:`JointDistribution.drop_zero_mass` (the lift is undefined for them).

Zero handling, in one place (papers 000/001/002 are silent; these are graphpriv's resolutions):

* a symbol with zero marginal mass is kept by the constructor; :func:`graphpriv.log_lift` and the
  other measures give NaN for its entries (the lift is undefined), and the watchdog and linear
  reduction drop it first (:meth:`JointDistribution.drop_zero_mass`) -- a symbol that never occurs can
  be published as it is;
* a pair with p(s, x) = 0 but p(s), p(x) > 0 has lift 0 and log-lift -inf (abs-log-lift +inf): it
  enters every maximum but carries probability 0 in every breach probability.
"""

from __future__ import annotations

from typing import Hashable, Sequence

import numpy as np
import pandas as pd

from ._validation import PMF_ATOL, apply_missing_policy, factorize_labels, real_array, validate_pmf
from .errors import DistributionError, InputError, InputTypeError

__all__ = ["JointDistribution", "validate_pmf"]

RANDOM_SCHEMES = ("uniform", "dirichlet", "cond_uniform")


class JointDistribution:
    """Joint pmf p(s, x) over finite alphabets, as an (|S|, |X|) matrix with labels.

    Parameters
    ----------
    P : array_like, shape (|S|, |X|)
        Probabilities; validated (finite, >= 0, sums to 1 within ``atol``).
    sensitive_labels, public_labels : sequences, optional
        Default ``s1, s2, ...`` and ``x1, x2, ...``.

    Examples
    --------
    >>> import graphpriv as gp
    >>> jd = gp.JointDistribution([[0.25, 0.25], [0.0, 0.5]])
    >>> jd.p_x.tolist()
    [0.25, 0.75]
    >>> jd.support()
    JointRange(|S|=2, |X|=2, pairs=3)
    """

    def __init__(self, P, sensitive_labels: Sequence[Hashable] | None = None, public_labels: Sequence[Hashable] | None = None, *, atol: float = PMF_ATOL):
        from .ranges import _label_array

        p = validate_pmf(P, ndim=2, atol=atol, name="P")
        self.P = p / p.sum()
        self.P.setflags(write=False)
        self.sensitive_labels = _label_array(sensitive_labels, p.shape[0], "s", "sensitive_labels")
        self.public_labels = _label_array(public_labels, p.shape[1], "x", "public_labels")

    # -------------------------------------------------------------- constructors
    @classmethod
    def from_counts(cls, counts, sensitive_labels=None, public_labels=None) -> "JointDistribution":
        """Empirical pmf from a matrix of non-negative counts."""
        c = real_array(counts, "counts")
        if c.ndim != 2:
            raise InputError(f"counts must be a 2-D (|S| x |X|) matrix, got shape {c.shape}")
        if not np.all(np.isfinite(c)) or (c < 0).any():
            raise DistributionError("counts must be finite and non-negative")
        total = c.sum()
        if total <= 0:
            raise DistributionError("counts sum to 0; there is nothing to estimate a distribution from")
        return cls(c / total, sensitive_labels, public_labels)

    @classmethod
    def from_dataframe(cls, df: pd.DataFrame, sensitive: Hashable, public: Hashable, *, missing: str = "error") -> "JointDistribution":
        """Empirical pmf of two columns of a table (``missing`` as in ``JointRange.from_dataframe``)."""
        from .ranges import _column

        if not isinstance(df, pd.DataFrame):
            raise InputTypeError(f"df must be a pandas DataFrame, got {type(df).__name__}")
        if len(df) == 0:
            raise InputError("the table has no rows")
        s, x, _ = apply_missing_policy(_column(df, sensitive, "sensitive"), _column(df, public, "public"), missing, names=(str(sensitive), str(public)))
        sc, sl = factorize_labels(s, str(sensitive), keep_missing=missing == "keep")
        xc, xl = factorize_labels(x, str(public), keep_missing=missing == "keep")
        counts = np.zeros((len(sl), len(xl)))
        np.add.at(counts, (sc, xc), 1.0)
        return cls.from_counts(counts, sl, xl)

    @classmethod
    def from_range(cls, jr, weights: str = "counts") -> "JointDistribution":
        """Empirical pmf of a JointRange built from records (``weights="counts"``) or uniform on its support."""
        if weights == "counts" and jr.counts is not None:
            return cls.from_counts(jr.counts.toarray(), jr.sensitive_labels, jr.public_labels)
        if weights not in ("counts", "uniform"):
            raise InputError(f"weights must be 'counts' or 'uniform', got {weights!r}")
        m = jr.matrix.toarray().astype(float)
        return cls(m / m.sum(), jr.sensitive_labels, jr.public_labels)


    @classmethod
    def from_conditional(cls, p_x_given_s, p_s, sensitive_labels=None, public_labels=None) -> "JointDistribution":
        """Joint pmf p(s, x) = p(s) p(x|s) from a row-stochastic matrix p(x|s) and a marginal p(s).

        Papers 000/001 state Example 1 this way.

        Examples
        --------
        >>> import graphpriv as gp
        >>> jd = gp.JointDistribution.from_conditional([[0.2, 0.1, 0.5, 0.2], [0.5, 0.3, 0.1, 0.1]], [0.3, 0.7])
        >>> jd.p_x.round(4).tolist()                # paper 000, Example 1: P_X
        [0.41, 0.24, 0.22, 0.13]
        """
        ps = validate_pmf(p_s, ndim=1, name="p_s")
        c = real_array(p_x_given_s, "p_x_given_s")
        if c.ndim != 2 or c.shape[0] != ps.shape[0]:
            raise InputError(f"p_x_given_s must be a 2-D matrix with one row per entry of p_s ({ps.shape[0]}), got shape {c.shape}")
        for i, row in enumerate(c):
            validate_pmf(row, ndim=1, name=f"p_x_given_s row {i}")
        return cls(ps[:, None] * c, sensitive_labels, public_labels)

    @classmethod
    def random(cls, n_sensitive: int, n_public: int, scheme: str = "uniform", seed=None) -> "JointDistribution":
        """A random joint pmf, for Monte-Carlo studies.

        Parameters
        ----------
        n_sensitive, n_public : int
            |S| and |X| (both >= 1).
        scheme : {"uniform", "dirichlet", "cond_uniform"}
            ``"uniform"``: i.i.d. U(0, 1) entries, normalised -- the law that reproduces paper 002's
            Figs. 1-2 (a flat Dirichlet does not); ``"dirichlet"``: flat Dirichlet on the joint
            (normalised Exp(1) entries); ``"cond_uniform"``: p(s) and each row p(x|s) uniform-normalised.
        seed : int, numpy Generator or None
            Randomness source (``numpy.random.default_rng(seed)``).

        Examples
        --------
        >>> import graphpriv as gp
        >>> gp.JointDistribution.random(15, 20, seed=0).shape
        (15, 20)
        """
        n_s, n_x = _positive_int(n_sensitive, "n_sensitive"), _positive_int(n_public, "n_public")
        rng = np.random.default_rng(seed)
        if scheme == "uniform":
            P = rng.random((n_s, n_x))
        elif scheme == "dirichlet":
            P = rng.exponential(size=(n_s, n_x))
        elif scheme == "cond_uniform":
            ps = rng.random(n_s)
            c = rng.random((n_s, n_x))
            P = (ps / ps.sum())[:, None] * c / c.sum(axis=1, keepdims=True)
        else:
            raise InputError(f"scheme={scheme!r} is not a random scheme; use one of {RANDOM_SCHEMES}")
        return cls(P / P.sum())

    # -------------------------------------------------------------- marginals
    @property
    def shape(self) -> tuple[int, int]:
        return self.P.shape

    @property
    def p_s(self) -> np.ndarray:
        """Marginal p(s)."""
        return self.P.sum(axis=1)

    @property
    def p_x(self) -> np.ndarray:
        """Marginal p(x)."""
        return self.P.sum(axis=0)

    def p_x_given_s(self) -> np.ndarray:
        """Matrix p(x|s), rows indexed by s (rows of zero-mass s are 0)."""
        ps = self.p_s[:, None]
        return np.divide(self.P, ps, out=np.zeros_like(self.P), where=ps > 0)

    def p_s_given_x(self) -> np.ndarray:
        """Matrix p(s|x), shape (|S|, |X|), columns indexed by x (columns of zero-mass x are 0)."""
        px = self.p_x[None, :]
        return np.divide(self.P, px, out=np.zeros_like(self.P), where=px > 0)

    @property
    def n_sensitive(self) -> int:
        """|S| (including zero-mass symbols)."""
        return self.P.shape[0]

    @property
    def n_public(self) -> int:
        """|X| (including zero-mass symbols)."""
        return self.P.shape[1]

    @property
    def has_zero_mass(self) -> bool:
        """True when some sensitive or public symbol has marginal probability 0."""
        return bool((self.p_s <= 0).any() or (self.p_x <= 0).any())

    def lift(self) -> np.ndarray:
        """Lift matrix l(s, x) = p(s, x) / (p(s) p(x)) (the r(s, x) of papers 000/001); NaN for zero-mass symbols.

        Examples
        --------
        >>> import graphpriv as gp
        >>> gp.JointDistribution([[0.25, 0.25], [0.0, 0.5]]).lift().round(3).tolist()
        [[2.0, 0.667], [0.0, 1.333]]
        """
        denom = np.outer(self.p_s, self.p_x)
        out = np.full(self.P.shape, np.nan)
        np.divide(self.P, denom, out=out, where=denom > 0)
        return out

    def public_mask(self, subset) -> np.ndarray:
        """Boolean mask over X for ``subset``: a boolean mask, integer codes, or public labels.

        Raises :class:`~graphpriv.errors.UnknownLabelError` for a label that is not a public value.
        """
        return _subset_mask(subset, self.public_labels, "subset")

    def to_frame(self) -> pd.DataFrame:
        """Long table with columns ``sensitive``, ``public``, ``p`` (one row per pair with p > 0)."""
        si, xi = np.nonzero(self.P > 0)
        return pd.DataFrame({"sensitive": self.sensitive_labels[si], "public": self.public_labels[xi], "p": self.P[si, xi]})

    def support(self):
        """The joint range [[S, X]] = {(s, x): p(s, x) > 0} (zero-mass symbols are not in it)."""
        from .ranges import JointRange

        return JointRange.from_pmf(self.P, self.sensitive_labels, self.public_labels)

    def drop_zero_mass(self) -> "JointDistribution":
        """The same distribution without symbols of zero marginal probability."""
        ks, kx = self.p_s > 0, self.p_x > 0
        if ks.all() and kx.all():
            return self
        return JointDistribution(self.P[np.ix_(ks, kx)], self.sensitive_labels[ks], self.public_labels[kx])

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, JointDistribution):
            return NotImplemented
        return (self.P.shape == other.P.shape and np.allclose(self.P, other.P, atol=1e-12)
                and np.array_equal(self.sensitive_labels, other.sensitive_labels)
                and np.array_equal(self.public_labels, other.public_labels))

    __hash__ = None  # type: ignore[assignment]

    def __repr__(self) -> str:
        return f"JointDistribution(|S|={self.P.shape[0]}, |X|={self.P.shape[1]})"


def _positive_int(v, name: str) -> int:
    if isinstance(v, (bool, np.bool_)) or not isinstance(v, (int, np.integer)):
        raise InputTypeError(f"{name} must be a positive integer, got {v!r}")
    if v < 1:
        raise InputError(f"{name} must be >= 1, got {v}")
    return int(v)


def _subset_mask(subset, labels: np.ndarray, name: str) -> np.ndarray:
    """Boolean mask over ``labels`` from a mask, integer codes or labels."""
    from .errors import UnknownLabelError

    n = len(labels)
    if isinstance(subset, (str, bytes)) or not hasattr(subset, "__iter__"):
        subset = [subset]
    arr = np.asarray(list(subset) if not isinstance(subset, np.ndarray) else subset)
    if arr.dtype == bool:
        if arr.shape != (n,):
            raise InputError(f"{name} as a boolean mask must have length {n}, got shape {arr.shape}")
        return arr.copy()
    mask = np.zeros(n, dtype=bool)
    if arr.size == 0:
        return mask
    index = {lab: i for i, lab in enumerate(labels.tolist())}
    values = arr.tolist()
    if all(_hashable(v) and v in index for v in values):  # labels first
        mask[[index[v] for v in values]] = True
        return mask
    if arr.dtype.kind in "iu" and ((arr >= 0) & (arr < n)).all():  # then integer codes
        mask[arr] = True
        return mask
    bad = next(v for v in values if not (_hashable(v) and v in index))
    raise UnknownLabelError(f"{name}: {bad!r} is not a public value (labels {labels[:5].tolist()}{'...' if n > 5 else ''}) nor a code in 0..{n - 1}")


def _hashable(v) -> bool:
    try:
        hash(v)
    except TypeError:
        return False
    return True
