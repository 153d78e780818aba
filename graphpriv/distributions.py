"""Joint probability mass functions p(s, x) and their validation.

:class:`JointDistribution` is the stochastic counterpart of :class:`~graphpriv.JointRange`: a dense
(|S|, |X|) matrix of probabilities with label arrays. Its support is a JointRange
(:meth:`JointDistribution.support`), so every graph tool applies to it.

Zero-mass symbols: a sensitive or public label whose marginal probability is 0 is kept in the matrix
(so shapes match what the user passed) but is not in the support; mechanisms that need p(s) > 0 and
p(x) > 0 work on :meth:`JointDistribution.drop_zero_mass`, as the specs of papers 000/001/002 prescribe.
"""

from __future__ import annotations

from typing import Hashable, Sequence

import numpy as np
import pandas as pd

from ._validation import apply_missing_policy, factorize_labels
from .errors import DistributionError, InputError, InputTypeError

__all__ = ["JointDistribution", "validate_pmf"]

PMF_ATOL = 1e-9


def validate_pmf(pmf, *, ndim: int | None = None, atol: float = PMF_ATOL, name: str = "pmf") -> np.ndarray:
    """Return ``pmf`` as a float array after checking it is a probability mass function.

    Raises :class:`~graphpriv.errors.DistributionError` when an entry is negative, NaN or infinite,
    or when the entries do not sum to 1 within ``atol``; the message gives the offending value.
    """
    try:
        p = np.asarray(pmf, dtype=float)
    except (TypeError, ValueError):
        raise InputTypeError(f"{name} must be an array of probabilities (numbers), got {type(pmf).__name__}") from None
    if ndim is not None and p.ndim != ndim:
        raise InputError(f"{name} must be {ndim}-dimensional, got an array of shape {p.shape}")
    if p.size == 0:
        raise InputError(f"{name} is empty")
    if not np.all(np.isfinite(p)):
        raise DistributionError(f"{name} has NaN or infinite entries ({int((~np.isfinite(p)).sum())} of them); every probability must be a finite number")
    if (p < 0).any():
        raise DistributionError(f"{name} has negative entries (smallest {p.min():.3g}); probabilities must be >= 0")
    total = p.sum()
    if abs(total - 1.0) > atol:
        raise DistributionError(f"{name} sums to {total:.12g}, not 1 (tolerance {atol:g}); normalise it (p / p.sum()) or use from_counts")
    return p


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
        c = np.asarray(counts, dtype=float)
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
