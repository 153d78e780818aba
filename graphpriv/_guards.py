"""Estimate first, then refuse: size guards shared by every call that can exceed a memory or time budget.

A guard computes what a call would need (bytes of a dense array, or seconds from a measured cost
model) *before* allocating or starting, and raises :class:`~graphpriv.errors.TooLargeError` with a
message saying what it would need, the limit, and what to use instead. The constants were measured
on the reference machine (2 cores); they are deliberately rough: a guard only has to tell a call of
seconds from one of hours.
"""

from __future__ import annotations

import math

from .errors import TooLargeError

__all__ = [
    "MAX_DENSE_BYTES",
    "MAX_SECONDS",
    "format_bytes",
    "format_seconds",
    "check_dense",
    "check_seconds",
    "check_count",
    "plot_seconds",
    "check_plot",
    "check_plot_range",
    "longest_label",
    "MAX_LABEL_CHARS",
]

#: Largest dense array (bytes) a guarded call allocates.
MAX_DENSE_BYTES = 2 * 1024**3
#: Longest estimated run (seconds) a guarded exact call starts.
MAX_SECONDS = 60.0


def format_bytes(n: float) -> str:
    """``n`` bytes in the largest unit that keeps it >= 1 (``'3.2 GiB'``).

    Examples
    --------
    >>> from graphpriv._guards import format_bytes
    >>> format_bytes(3 * 1024**3), format_bytes(512)
    ('3.0 GiB', '512 B')
    """
    if not math.isfinite(n):
        return "an unbounded amount of memory"
    for unit in ("B", "KiB", "MiB", "GiB", "TiB", "PiB", "EiB"):
        if abs(n) < 1024 or unit == "EiB":
            return f"{n:.0f} {unit}" if unit == "B" else f"{n:.1f} {unit}"
        n /= 1024
    return f"{n:.1f} EiB"  # pragma: no cover


def format_seconds(s: float) -> str:
    """A duration for a message (``'about 3 min'``, ``'about 2.1 days'``).

    Examples
    --------
    >>> from graphpriv._guards import format_seconds
    >>> format_seconds(5), format_seconds(400), format_seconds(3e5)
    ('about 5 s', 'about 7 min', 'about 3.5 days')
    """
    if not math.isfinite(s) or s > 3.2e9:
        return "longer than a century"
    if s < 120:
        return f"about {s:.0f} s"
    if s < 7200:
        return f"about {s / 60:.0f} min"
    if s < 2 * 86400:
        return f"about {s / 3600:.1f} h"
    if s < 2 * 365 * 86400:
        return f"about {s / 86400:.1f} days"
    return f"about {s / (365 * 86400):.0f} years"


def check_dense(what: str, n_items: float, item_bytes: float, instead: str, *,
                limit: float | None = None) -> float:
    """Raise TooLargeError when ``n_items * item_bytes`` exceeds ``limit`` (default :data:`MAX_DENSE_BYTES`);
    return the estimate in bytes otherwise.

    Examples
    --------
    >>> from graphpriv._guards import check_dense
    >>> check_dense("a test array", 10, 8, "something else")
    80.0
    >>> check_dense("the dense pmf", 2.0**40, 8, "a sparse pmf")
    Traceback (most recent call last):
    ...
    graphpriv.errors.TooLargeError: the dense pmf would need 8.0 TiB of memory (limit 2.0 GiB); use a sparse pmf
    """
    need = float(n_items) * float(item_bytes)
    cap = MAX_DENSE_BYTES if limit is None else limit
    if need > cap:
        raise TooLargeError(f"{what} would need {format_bytes(need)} of memory (limit {format_bytes(cap)}); use {instead}")
    return need


def check_seconds(what: str, seconds: float, instead: str, *, limit: float | None = None, size: str = "") -> float:
    """Raise TooLargeError when the estimated run time ``seconds`` exceeds ``limit`` (default
    :data:`MAX_SECONDS`); return the estimate otherwise. ``size`` says what the estimate is based on."""
    cap = MAX_SECONDS if limit is None else limit
    if seconds > cap:
        basis = f" for {size}" if size else ""
        raise TooLargeError(f"{what} would take {format_seconds(seconds)}{basis} (limit {format_seconds(cap)}); "
                            f"use {instead}")
    return seconds


def check_count(what: str, count: float, limit: float, instead: str, unit: str = "items") -> float:
    """Raise TooLargeError when an enumeration would produce more than ``limit`` ``unit``."""
    if count > limit:
        shown = f"{count:.3g}" if count >= 1e6 else f"{int(count)}"
        raise TooLargeError(f"{what} would enumerate {shown} {unit} (limit {limit:.3g}); use {instead}")
    return count


# ---------------------------------------------------------------------- plots
#: Measured cost models of the drawings (seconds on the reference machine, 2 cores, Agg backend).
_PLOT_MODELS = {
    # the joint-range grid: one patch per pair, tick labels per row/column (7 s at |S| = |X| = 500)
    "joint_range": lambda ns, nx: 0.01 * (ns + nx) + 1e-6 * ns * nx,
    # node-link drawing of G_X: layout and one artist per node and edge (24 s at |X| = 500)
    "confusability": lambda ns, nx: 2.2e-3 * nx ** 1.5,
    # merge-step panels (focus + context matrix views past a few dozen public values: about 1.5 s a panel at
    # |X| = 10^4, |S| = 35; the dense |S| x |X| cells of each panel dominate for many sensitive values)
    "trace": lambda ns, nx: 0.5 + 3e-4 * (ns + nx) + 3e-7 * ns * nx,
}
_PLOT_INSTEAD = {
    "joint_range": "gp.components / gp.analysis report figures (component sizes and anonymity-set sizes), or plot a "
                   "subset: gp.JointRange.from_dataframe on fewer rows or a coarsened public column",
    "confusability": "the component sizes (gp.components(jr)) or plot one component: build a JointRange of the rows "
                     "whose public value lies in it",
    "trace": "trace.to_linkage() with scipy's dendrogram, or the summary of each step (trace.to_json())",
}


def plot_seconds(kind: str, n_sensitive: int, n_public: int) -> float:
    """Estimated seconds to draw ``kind`` ("joint_range", "confusability", "trace") for the sizes given."""
    return float(_PLOT_MODELS[kind](float(n_sensitive), float(n_public)))


def check_plot(kind: str, n_sensitive: int, n_public: int, *, limit: float | None = None) -> None:
    """Refuse a drawing estimated past the time budget (:data:`MAX_SECONDS`), saying what to draw instead.

    Examples
    --------
    >>> from graphpriv._guards import check_plot
    >>> check_plot("confusability", 10, 50)
    >>> check_plot("confusability", 10, 10**5)
    Traceback (most recent call last):
    ...
    graphpriv.errors.TooLargeError: drawing G_X (node-link) would take about 19.4 h for |[[S]]| = 10, |[[X]]| = 100000 (limit about 60 s); use the component sizes (gp.components(jr)) or plot one component: build a JointRange of the rows whose public value lies in it
    """
    what = {"joint_range": "drawing the joint-range grid", "confusability": "drawing G_X (node-link)",
            "trace": "drawing the merge trace"}[kind]
    check_seconds(what, plot_seconds(kind, n_sensitive, n_public), _PLOT_INSTEAD[kind], limit=limit,
                  size=f"|[[S]]| = {n_sensitive}, |[[X]]| = {n_public}")


#: Figures refuse values longer than this many characters (a label cannot be drawn legibly).
MAX_LABEL_CHARS = 200


def longest_label(labels) -> int:
    """Length of the longest label as text (numbers are short and skipped); 0 for none."""
    best = 0
    for v in labels:
        if isinstance(v, str):
            if len(v) > best:
                best = len(v)
        elif not isinstance(v, (int, float)):
            best = max(best, len(str(v)))
    return best


def check_plot_range(kind: str, jr, *, extra_nodes: int = 0) -> None:
    """:func:`check_plot` for a joint range, and refuse labels longer than :data:`MAX_LABEL_CHARS`
    (drawing a megabyte of text as a tick label takes minutes and gigabytes)."""
    check_plot(kind, jr.n_sensitive, jr.n_public + extra_nodes)
    check_plot_labels(jr)


def check_plot_labels(jr) -> None:
    """Refuse a joint range whose values are longer than :data:`MAX_LABEL_CHARS` characters (figures that
    draw a bounded number of values, such as the two sides of a cut, need only this check)."""
    longest = max(longest_label(jr.sensitive_labels.tolist()), longest_label(jr.public_labels.tolist()))
    if longest > MAX_LABEL_CHARS:
        raise TooLargeError(f"a value of this joint range is {longest} characters long; figures draw values of at "
                            f"most {MAX_LABEL_CHARS} characters; shorten or recode the values (e.g. "
                            "pd.factorize the column) before plotting")
