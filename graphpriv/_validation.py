"""Input validation at the public boundary (scikit-learn style: validate once, trust inside)."""

from __future__ import annotations

from typing import Any, Iterable

import numpy as np
import pandas as pd

from .errors import DistributionError, InputError, InputTypeError, MissingValueError

__all__ = ["MISSING", "MISSING_POLICIES", "check_missing_policy", "factorize_labels", "check_base", "log", "validate_pmf"]

MISSING_POLICIES = ("error", "drop", "keep")


class _Missing:
    """The label a missing value gets under ``missing="keep"``: one symbol of its own.

    It is a singleton, hashable, equal only to itself, prints as ``<missing>`` and sorts after every
    other label in graphpriv's label order.
    """

    _instance = None

    def __new__(cls):
        if cls._instance is None:
            cls._instance = super().__new__(cls)
        return cls._instance

    def __repr__(self) -> str:
        return "<missing>"

    def __reduce__(self):  # keep the singleton through pickling (joblib workers)
        return (_Missing, ())


MISSING = _Missing()


def check_missing_policy(missing: str) -> str:
    if missing not in MISSING_POLICIES:
        raise InputError(f"missing={missing!r} is not a missing-value policy; use one of {MISSING_POLICIES}")
    return missing


def _as_series(values: Any, name: str) -> pd.Series:
    if isinstance(values, pd.Series):
        return values.reset_index(drop=True)
    if isinstance(values, (str, bytes)) or not isinstance(values, Iterable):
        raise InputTypeError(f"{name} must be a sequence of labels (list, array, Series), got {type(values).__name__}")
    if isinstance(values, np.ndarray):
        if values.ndim != 1:
            raise InputError(f"{name} must be one-dimensional, got an array of shape {values.shape}")
        return pd.Series(values, copy=False)
    return pd.Series(list(values), dtype=object if not isinstance(values, (list, tuple)) else None)


def missing_mask(values: pd.Series) -> np.ndarray:
    """Boolean mask of missing entries (None, NaN, NaT, pd.NA)."""
    return pd.isna(values).to_numpy(dtype=bool)


def _integral_floats_to_int(uniques: np.ndarray) -> np.ndarray:
    """Labels such as 132.0 (a float column that only held NaN as non-integer) become 132."""
    if uniques.dtype.kind == "f" and uniques.size and np.all(np.isfinite(uniques)) and np.all(uniques == np.round(uniques)):
        if np.all(np.abs(uniques) < 2**53):
            return uniques.astype(np.int64)
    return uniques


def _check_bool_number_mix(values: pd.Series, name: str) -> None:
    """Refuse a column mixing booleans with numbers: True == 1 and False == 0 in Python, so they would
    silently become one symbol."""
    if values.dtype != object or pd.api.types.infer_dtype(values, skipna=True) not in ("mixed", "mixed-integer", "mixed-integer-float"):
        return
    vals = values.tolist()
    bools = [v for v in vals if isinstance(v, (bool, np.bool_))]
    nums = [v for v in vals if isinstance(v, (int, float, np.integer, np.floating)) and not isinstance(v, (bool, np.bool_))]
    clash = {bool(b) for b in bools} & {bool(v) for v in nums if v in (0, 1)}
    if clash:
        b = sorted(clash)[0]
        raise InputTypeError(f"{name} mixes the boolean {b} with the number {int(b)}, which Python treats as one value; "
                             "convert the labels to text (e.g. df[col].astype(str)) to keep them apart")


def natural_order(texts: np.ndarray) -> np.ndarray:
    """Sort order of distinct strings: texts that read as finite numbers first, by value then text,
    then the others by text (so '9' < '10' < '10.5' < 'abc')."""
    num = pd.to_numeric(pd.Series(texts, dtype=object), errors="coerce").to_numpy(dtype=float)
    finite = np.isfinite(num)
    return np.lexsort((np.asarray(texts, dtype=str), np.where(finite, num, 0.0), ~finite))


def factorize_labels(values: pd.Series, name: str, keep_missing: bool = False) -> tuple[np.ndarray, np.ndarray]:
    """Integer codes and label array of one column.

    Labels are sorted when they are mutually comparable (numbers; strings in natural order, see
    :func:`natural_order`), otherwise kept in order of first appearance. With ``keep_missing`` the missing entries get the label :data:`MISSING`,
    placed last.
    """
    mask = missing_mask(values) if keep_missing else None
    present = values[~mask] if mask is not None and mask.any() else values
    _check_bool_number_mix(present, name)
    try:
        try:
            codes, uniques = pd.factorize(present, sort=True)
        except TypeError:
            codes, uniques = pd.factorize(present, sort=False)
    except TypeError as exc:  # unhashable labels
        raise InputTypeError(f"{name} holds labels that cannot be used as symbols ({exc}); labels must be hashable (numbers, strings, tuples)") from None
    uniques = np.asarray(uniques)
    uniques = _integral_floats_to_int(uniques)
    codes = np.asarray(codes, dtype=np.int64)
    if uniques.dtype == object and len(uniques) > 1 and all(type(u) is str for u in uniques.tolist()):
        order = natural_order(uniques)
        if not np.array_equal(order, np.arange(len(order))):
            rank = np.empty(len(order), dtype=np.int64)
            rank[order] = np.arange(len(order))
            codes = np.where(codes >= 0, rank[np.maximum(codes, 0)], codes)
            uniques = uniques[order]
    if mask is not None and mask.any():
        full = np.empty(len(values), dtype=np.int64)
        full[~mask] = codes
        full[mask] = len(uniques)
        labels = np.empty(len(uniques) + 1, dtype=object)
        labels[:-1] = list(uniques)
        labels[-1] = MISSING
        return full, labels
    return codes, uniques


def check_base(base: float) -> float:
    if isinstance(base, str) and base == "e":
        return float(np.e)
    try:
        b = float(base)
    except (TypeError, ValueError):
        raise InputTypeError(f"base must be a number > 0 and != 1 (2 for bits, e for nats), got {base!r}") from None
    if not (b > 0 and b != 1 and np.isfinite(b)):
        raise InputError(f"base must be > 0 and != 1 (2 for bits, 'e' or math.e for nats), got {base!r}")
    return b


def log(x, base: float = 2.0):
    """Logarithm in the given base (float or array)."""
    return np.log(x) / np.log(check_base(base))


def check_pairs(sensitive: Any, public: Any) -> tuple[pd.Series, pd.Series]:
    s = _as_series(sensitive, "sensitive")
    x = _as_series(public, "public")
    if len(s) != len(x):
        raise InputError(f"sensitive and public must have the same length, got {len(s)} and {len(x)}; pass one label of each per record")
    if len(s) == 0:
        raise InputError("no records: sensitive and public are empty; a joint range needs at least one (s, x) pair")
    return s, x


def apply_missing_policy(s: pd.Series, x: pd.Series, missing: str, names: tuple[str, str] = ("sensitive", "public")):
    """Apply the missing policy to two aligned columns; return (s, x, report dict)."""
    (s, x), report = apply_missing_policy_columns([s, x], missing, names)
    return s, x, report


def apply_missing_policy_columns(columns: list[pd.Series], missing: str, names: tuple[str, ...]):
    """Apply the missing policy to aligned columns (the first is S, the second X); return (columns, report).

    ``error`` raises naming every column with missing values and the first rows; ``drop`` removes every
    row with a missing value in any column and counts them; ``keep`` changes nothing (the labels are
    made :data:`MISSING` when factorised).
    """
    check_missing_policy(missing)
    masks = [missing_mask(c) for c in columns]
    report = {"n_rows": len(columns[0]), "n_missing_sensitive": int(masks[0].sum()), "n_missing_public": int(masks[1].sum()), "n_dropped": 0}
    anym = np.logical_or.reduce(masks)
    if anym.any():
        if missing == "error":
            parts = []
            for name, m in zip(names, masks):
                if m.any():
                    rows = np.flatnonzero(m)
                    shown = ", ".join(str(r) for r in rows[:5]) + (", ..." if rows.size > 5 else "")
                    parts.append(f"column {name!r} has {int(m.sum())} missing value(s) (rows {shown})")
            raise MissingValueError(
                "; ".join(parts) + ". Pass missing='drop' to remove those rows or missing='keep' to treat a missing value as a symbol of its own"
            )
        if missing == "drop":
            keep = ~anym
            columns = [c[keep].reset_index(drop=True) for c in columns]
            report["n_dropped"] = int(anym.sum())
            if len(columns[0]) == 0:
                raise InputError("every row has a missing value, nothing is left after missing='drop'; use missing='keep'")
    return columns, report


def check_integer(value: Any, name: str, *, minimum: int | None = None) -> int:
    """``value`` as an int: an integer (not a bool, float, string or range) of at least ``minimum``.

    Raises :class:`~graphpriv.errors.InputTypeError` for a non-integer and
    :class:`~graphpriv.errors.InputError` below ``minimum``, each one line naming ``name``."""
    if isinstance(value, (bool, np.bool_)) or not isinstance(value, (int, np.integer)):
        raise InputTypeError(f"{name} must be an integer, got {value!r} ({type(value).__name__})")
    value = int(value)
    if minimum is not None and value < minimum:
        raise InputError(f"{name} must be an integer >= {minimum}, got {value}")
    return value


def check_real(value: Any, name: str) -> float:
    """``value`` as a float: a real number (int, float or numpy number; not a bool, string or complex).

    Raises :class:`~graphpriv.errors.InputTypeError` (one line naming ``name``); range checks are the
    caller's."""
    if isinstance(value, (bool, np.bool_)) or not isinstance(value, (int, float, np.integer, np.floating)):
        raise InputTypeError(f"{name} must be a real number, got {value!r} ({type(value).__name__})")
    try:
        return float(value)
    except OverflowError:
        raise InputError(f"{name} is an integer beyond the float range (about 1.8e308), got one of "
                         f"{int(value).bit_length()} bits") from None


def real_array(values: Any, name: str) -> np.ndarray:
    """``values`` as a float array; complex entries (even with zero imaginary parts), text and objects
    that are not numbers are refused with one :class:`~graphpriv.errors.InputTypeError` line."""
    try:
        raw = np.asarray(values)
    except (TypeError, ValueError):
        raise InputTypeError(f"{name} must be an array of real numbers, got {type(values).__name__}") from None
    if np.iscomplexobj(raw):
        raise InputTypeError(f"{name} holds complex numbers ({raw.dtype}); probabilities and counts are real numbers")
    if raw.dtype.kind in "USV":
        raise InputTypeError(f"{name} must be an array of real numbers, got {raw.dtype.kind == 'U' and 'text' or raw.dtype}")
    if raw.dtype == object and any(isinstance(v, complex) for v in raw.ravel().tolist()):
        raise InputTypeError(f"{name} holds complex numbers; probabilities and counts are real numbers")
    try:
        return np.asarray(raw, dtype=float)
    except (TypeError, ValueError):
        raise InputTypeError(f"{name} must be an array of real numbers, got {type(values).__name__}") from None


PMF_ATOL = 1e-9


def validate_pmf(pmf, *, ndim: int | None = None, atol: float = PMF_ATOL, name: str = "pmf") -> np.ndarray:
    """Return ``pmf`` as a float array after checking it is a probability mass function.

    Raises :class:`~graphpriv.errors.DistributionError` when an entry is negative, NaN or infinite,
    or when the entries do not sum to 1 within ``atol``; the message gives the offending value.
    """
    p = real_array(pmf, name)
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
