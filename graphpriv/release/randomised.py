"""A randomised release: every row's public value replaced by a draw from a kernel K(y|x), reproducibly.

The linear reduction of Ding, Liu & Farokhi (*A Linear Reduction Method for Local Differential Privacy
and Log-lift*, ISIT 2021) releases Y with P_{Y|S} = (1 - alpha) P_{X|S} + alpha P_X (their eq. (3)),
through Lemma 1's Markov kernel K(y|x) = (1 - alpha) 1[y = x] + alpha P_X(y) or the optimal non-Markov
kernel Q(y|s, x) of their Sec. III-B. :class:`RandomisedRelease` holds that kernel over the table's
public labels (outputs are public labels too) and the seed, and draws the released values:

* **one draw per row, in row order**: ``u = numpy.random.default_rng(seed).random(n)`` consumed a
  batch at a time (the stream of doubles does not depend on how the rows are batched), and
  y = the smallest label code whose cumulative kernel probability exceeds u (inverse CDF). A missing
  public value without a label of its own, or a value outside the labels, consumes its draw and
  stays missing (suppressed). The same seed gives the same released column -- in Python
  (:meth:`RandomisedRelease.transform`) and in ``graphpriv sanitize`` (:func:`write_randomised_parts`,
  streamed like the merge releases) -- and the same bytes.
* **the Markov kernel is never made dense**: its inverse CDF is two binary searches in the cumulative
  P_X, so 10^4 public values cost O(|X|) memory, not |X|^2.
* **the non-Markov kernel** is stored as its non-zero entries (rows (s, x)); a row whose sensitive
  value has no label draws from the induced channel P_{Y|X} (their eq. (9)).

``mapping.json`` of a randomised release (:meth:`RandomisedRelease.to_dict`) holds the labels, the
kernel, the seed and the generator's name; :meth:`RandomisedRelease.from_json` reads it back.
"""

from __future__ import annotations

import json
import math
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Sequence

import numpy as np

from ..errors import InputError, InputTypeError
from .labels import decode_value, encode_value

__all__ = ["RandomisedRelease", "RANDOMISED_SCHEMA", "GENERATOR"]

#: ``schema`` field of a randomised release's ``mapping.json``.
RANDOMISED_SCHEMA = "graphpriv.randomised_release/1"
#: The generator every randomised release draws from.
GENERATOR = "numpy.random.default_rng(seed) [PCG64], one random() double per row in row order, inverse CDF"


@dataclass(frozen=True, eq=False, repr=False)
class RandomisedRelease:
    """A randomised release of a public column: a kernel K(y|x) (or Q(y|s, x)) over its labels and a seed.

    Attributes
    ----------
    labels : tuple
        The public labels in code order; inputs x and outputs y are both codes into it.
    seed : int
        The seed of ``numpy.random.default_rng``.
    form : {"markov", "conditional"}
        ``"markov"``: K(y|x) = (1 - alpha) 1[y = x] + alpha p_x(y); ``"conditional"``: Q(y|s, x),
        rows (s, x) stored sparse in ``kernel`` (CSR, row s * |X| + x).
    alpha : float
        The reduction level.
    p_x : ndarray or None
        P_X of the Markov kernel.
    kernel, channel : scipy.sparse.csr_array or None
        The conditional kernel Q (|S| |X| x |X|) and the induced channel P_{Y|X} (|X| x |X|).
    sensitive_labels : tuple or None
        S in code order (conditional kernels).
    mechanism, scheme : str
    """

    labels: tuple
    seed: int
    form: str
    alpha: float
    p_x: np.ndarray | None = field(default=None)
    kernel: Any = field(default=None)
    channel: Any = field(default=None)
    sensitive_labels: tuple | None = None
    mechanism: str = "linear-reduction"
    scheme: str = "markov"

    # ------------------------------------------------------------------ construction
    @classmethod
    def from_result(cls, result, seed: int) -> "RandomisedRelease":
        """The release of a linear reduction (:func:`graphpriv.linear_reduction`) drawn with ``seed``.

        Examples
        --------
        >>> import graphpriv as gp
        >>> lr = gp.linear_reduction(gp.paper000_example1(), 0.5)
        >>> rel = gp.RandomisedRelease.from_result(lr, seed=1)
        >>> rel
        RandomisedRelease(linear-reduction, markov kernel, alpha=0.5, |X|=4, seed=1)
        >>> rel.transform(["a", "b", "c", "d", "a", "a"])          # the same seed, the same draws
        ['a', 'd', 'a', 'd', 'a', 'a']
        """
        import scipy.sparse as sp

        seed = _check_seed(seed)
        if not hasattr(result, "alpha") or not hasattr(result, "public_labels"):
            raise InputTypeError(f"a randomised release needs a kernel result (gp.linear_reduction), got {type(result).__name__}")
        labels = tuple(np.asarray(result.public_labels).tolist())
        a = float(result.alpha)
        K = getattr(result, "kernel", None)
        if K is None or np.ndim(K) == 2:
            px = getattr(result, "p_x", None)
            if px is None:
                raise InputError("the result carries no P_X; run gp.linear_reduction again")
            px = np.asarray(px, dtype=float)
            return cls(labels, seed, "markov", a, p_x=px / px.sum(), scheme=getattr(result, "scheme", "markov"))
        K = np.asarray(K, dtype=float)
        n_s, n_x, _ = K.shape
        Q = sp.csr_array(K.reshape(n_s * n_x, n_x))
        Q.eliminate_zeros()
        W = sp.csr_array(np.asarray(result.channel, dtype=float))
        W.eliminate_zeros()
        return cls(labels, seed, "conditional", a, kernel=Q, channel=W,
                   sensitive_labels=tuple(np.asarray(result.sensitive_labels).tolist()),
                   scheme=getattr(result, "scheme", "optimal"))

    def __repr__(self) -> str:
        return (f"RandomisedRelease({self.mechanism}, {self.form} kernel, alpha={self.alpha:g}, |X|={len(self.labels)}, "
                f"seed={self.seed})")

    def __len__(self) -> int:
        return len(self.labels)

    @property
    def is_conditional(self) -> bool:
        """Whether the kernel depends on the sensitive value (then every row's s is needed)."""
        return self.form == "conditional"

    # ------------------------------------------------------------------ sampling
    def generator(self) -> np.random.Generator:
        """A fresh generator of this release (``numpy.random.default_rng(seed)``)."""
        return np.random.default_rng(self.seed)

    def draw(self, x_codes, u, s_codes=None) -> np.ndarray:
        """Released codes y for input codes x and uniforms u (one per row; negative x codes kept).

        ``s_codes`` (conditional kernels): the sensitive code of every row (-1 for a value without a
        label: its row draws from the induced channel).
        """
        x = np.asarray(x_codes, dtype=np.int64)
        u = np.asarray(u, dtype=float)
        out = x.copy()
        ok = x >= 0
        if not ok.any():
            return out
        xv, uv = x[ok], u[ok]
        n = len(self.labels)
        if self.form == "markov":
            a = self.alpha
            cum = a * np.cumsum(self.p_x)
            y1 = np.searchsorted(cum, uv, side="right")
            y2 = np.maximum(np.searchsorted(cum, uv - (1 - a), side="right"), xv)
            y = np.where(y1 < xv, y1, y2)
            # a draw landing past the last cumulative value (rounding) takes the last symbol of its row
            y = np.where(y >= n, np.where(xv == n - 1, xv, _last_positive(self.p_x)), y)
        else:
            s = np.full(len(xv), -1, dtype=np.int64) if s_codes is None else np.asarray(s_codes, dtype=np.int64)[ok]
            y = np.empty(len(xv), dtype=np.int64)
            has_s = s >= 0
            if has_s.any():
                y[has_s] = _csr_draw(self.kernel, s[has_s] * n + xv[has_s], uv[has_s])
            if (~has_s).any():
                y[~has_s] = _csr_draw(self.channel, xv[~has_s], uv[~has_s])
        out[ok] = y
        return out

    def transform(self, column, sensitive=None) -> list:
        """The released column for ``column`` (public labels, row order), drawn with the release's seed.

        ``sensitive`` (the rows' sensitive labels) is needed by a conditional kernel. Gives the values
        ``graphpriv sanitize`` writes for the same table and seed. A missing or unknown value stays
        missing (``None``).
        """
        x = _codes(column, self.labels)
        s = None
        if self.is_conditional:
            if sensitive is None:
                raise InputError("this kernel depends on the sensitive value: pass sensitive= (one label per row)")
            s = _codes(sensitive, self.sensitive_labels)
            if len(s) != len(x):
                raise InputError(f"sensitive has {len(s)} values for {len(x)} rows")
        y = self.draw(x, self.generator().random(len(x)), s)
        return [self.labels[k] if k >= 0 else None for k in y.tolist()]

    # ------------------------------------------------------------------ guarantees
    def support(self, x_codes, y_codes, s_codes=None) -> np.ndarray:
        """Per row: whether y is in the support of K(.|x) (of Q(.|s, x) with ``s_codes``)."""
        x = np.asarray(x_codes, dtype=np.int64)
        y = np.asarray(y_codes, dtype=np.int64)
        if self.form == "markov":
            return (y == x) | ((self.alpha > 0) & (self.p_x[np.clip(y, 0, None)] > 0) & (y >= 0))
        n = len(self.labels)
        rows_s = None if s_codes is None else np.asarray(s_codes, dtype=np.int64)
        ok = np.zeros(len(x), dtype=bool)
        for M, r, sel in ((self.kernel, None if rows_s is None else rows_s * n + x, None if rows_s is None else rows_s >= 0),
                          (self.channel, x, None if rows_s is None else rows_s < 0)):
            if r is None:
                r, sel = x, np.ones(len(x), dtype=bool)
            if not sel.any():
                continue
            vals = M[r[sel], y[sel]]
            ok[sel] = np.asarray(vals).ravel() > 0
        return ok

    def conditional(self, P) -> np.ndarray:
        """P_{Y|S} of this kernel applied to a joint pmf ``P`` (|S| x |X|) of the release's labels.

        Markov: P_{X|S} K = (1 - alpha) P_{X|S} + alpha P_X (eq. (3) of Ding, Liu & Farokhi with this
        kernel's P_X); conditional: sum_x P(x|s) Q(y|s, x). Rows of zero-mass s are NaN.
        """
        P = np.asarray(P, dtype=float)
        ps = P.sum(axis=1)
        with np.errstate(invalid="ignore", divide="ignore"):
            pxs = P / ps[:, None]
        if self.form == "markov":
            return (1 - self.alpha) * pxs + self.alpha * self.p_x[None, :]
        n_s, n = P.shape
        out = np.zeros((n_s, n))
        Q = self.kernel
        for s in range(n_s):
            if ps[s] > 0:
                out[s] = Q[s * n:(s + 1) * n].T @ pxs[s]
            else:
                out[s] = np.nan
        return out

    # ------------------------------------------------------------------ mapping document
    def to_dict(self, *, public_column: str | None = None, sensitive_column: str | None = None) -> dict:
        """The ``mapping.json`` document: labels, kernel (Markov: alpha and P_X; conditional: its
        non-zero entries), seed and generator."""
        doc = {"schema": RANDOMISED_SCHEMA, "release": "randomised", "mechanism": self.mechanism, "scheme": self.scheme,
               "public_column": public_column, "sensitive_column": sensitive_column, "seed": self.seed,
               "generator": GENERATOR, "labels": [encode_value(v) for v in self.labels]}
        if self.form == "markov":
            doc["kernel"] = {"form": "markov", "alpha": self.alpha,
                             "definition": "K(y|x) = (1 - alpha) 1[y = x] + alpha p_x(y)", "p_x": self.p_x.tolist()}
        else:
            def entries(M):
                c = M.tocoo()
                return {"row": c.row.tolist(), "y": c.col.tolist(), "p": c.data.tolist()}

            doc["sensitive_labels"] = [encode_value(v) for v in self.sensitive_labels]
            doc["kernel"] = {"form": "conditional", "alpha": self.alpha,
                             "definition": "Q(y|s, x) at row s * |X| + x; channel(y|x) for rows without a sensitive label",
                             "entries": entries(self.kernel), "channel": entries(self.channel)}
        return doc

    def to_json(self, **kw) -> str:
        """:meth:`to_dict` as JSON text."""
        return json.dumps(self.to_dict(**kw), ensure_ascii=False) + "\n"

    @classmethod
    def from_dict(cls, doc: dict) -> "RandomisedRelease":
        """Read a randomised release's mapping document."""
        import scipy.sparse as sp

        if not isinstance(doc, dict) or doc.get("schema") != RANDOMISED_SCHEMA:
            raise InputError(f"not a randomised release mapping (schema {RANDOMISED_SCHEMA!r} expected)")
        try:
            labels = tuple(decode_value(v) for v in doc["labels"])
            k = doc["kernel"]
            seed = _check_seed(doc["seed"])
            if k["form"] == "markov":
                px = np.asarray(k["p_x"], dtype=float)
                if px.shape != (len(labels),) or (px < 0).any() or not math.isclose(px.sum(), 1.0, abs_tol=1e-9):
                    raise InputError("mapping: p_x must be a pmf over the labels")
                return cls(labels, seed, "markov", float(k["alpha"]), p_x=px, mechanism=doc.get("mechanism", ""),
                           scheme=doc.get("scheme", "markov"))
            s_labels = tuple(decode_value(v) for v in doc["sensitive_labels"])
            n = len(labels)

            def matrix(e, n_rows):
                return sp.csr_array((np.asarray(e["p"], dtype=float), (np.asarray(e["row"], dtype=np.int64),
                                                                        np.asarray(e["y"], dtype=np.int64))),
                                    shape=(n_rows, n))

            return cls(labels, seed, "conditional", float(k["alpha"]), kernel=matrix(k["entries"], len(s_labels) * n),
                       channel=matrix(k["channel"], n), sensitive_labels=s_labels, mechanism=doc.get("mechanism", ""),
                       scheme=doc.get("scheme", "optimal"))
        except (KeyError, TypeError, ValueError) as exc:
            raise InputError(f"randomised release mapping is malformed ({exc!r})") from None

    @classmethod
    def from_json(cls, text: str) -> "RandomisedRelease":
        """Read a randomised release's ``mapping.json`` text."""
        try:
            return cls.from_dict(json.loads(text))
        except json.JSONDecodeError as exc:
            raise InputError(f"mapping is not valid JSON ({exc.msg})") from None


def _check_seed(seed) -> int:
    if isinstance(seed, (bool, np.bool_)) or not isinstance(seed, (int, np.integer)) or seed < 0:
        raise InputError(f"seed must be an integer >= 0, got {seed!r}")
    return int(seed)


def _last_positive(p: np.ndarray) -> int:
    nz = np.flatnonzero(p > 0)
    return int(nz[-1]) if len(nz) else len(p) - 1


def _csr_draw(M, rows: np.ndarray, u: np.ndarray) -> np.ndarray:
    """Inverse-CDF draws from the rows ``rows`` of a row-stochastic CSR matrix: within each row the
    columns in increasing order; one binary search over row index + cumulative probability."""
    indptr = M.indptr
    data = M.data
    row_of = np.repeat(np.arange(len(indptr) - 1), np.diff(indptr))
    # cumulative probability within each row, normalised so that every row ends at exactly 1
    csum = np.cumsum(data)
    starts = indptr[:-1]
    base = np.where(np.diff(indptr) > 0, np.r_[0.0, csum][starts], 0.0)
    totals = np.r_[0.0, csum][indptr[1:]] - base
    within = (csum - base[row_of]) / np.where(totals[row_of] > 0, totals[row_of], 1.0)
    keys = row_of + within
    pos = np.searchsorted(keys, rows + u, side="right")
    pos = np.minimum(pos, indptr[rows + 1] - 1)
    if (indptr[rows + 1] <= indptr[rows]).any():
        raise InputError("the kernel has an empty row for a value that occurs in the table")
    return M.indices[pos].astype(np.int64)


def _codes(column, labels: Sequence) -> np.ndarray:
    import pandas as pd

    idx = pd.Index(list(labels))
    vals = list(column) if not isinstance(column, (list, tuple)) else column
    codes = np.asarray(idx.get_indexer(pd.Index(vals, dtype=object)), dtype=np.int64)
    return codes
