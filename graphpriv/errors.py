"""Errors and warnings raised by graphpriv.

Every error a user can trigger with bad input is a :class:`GraphprivError`. Each concrete class also
subclasses the built-in exception a Python user would expect (``ValueError``, ``TypeError``,
``KeyError``), so ``except ValueError`` keeps working. Messages say what was wrong *and* how to fix it.
"""

from __future__ import annotations

__all__ = [
    "GraphprivError",
    "InputError",
    "InputTypeError",
    "MissingValueError",
    "UnknownLabelError",
    "UnknownColumnError",
    "DistributionError",
    "TooLargeError",
    "SchedulerUnreachableError",
    "GraphprivWarning",
    "DenseGraphWarning",
]


class GraphprivError(Exception):
    """Base class of every error graphpriv raises on purpose."""


class InputError(GraphprivError, ValueError):
    """A value given by the user is invalid (empty, wrong length, out of range, ...)."""


class InputTypeError(GraphprivError, TypeError):
    """A value given by the user has the wrong type (unhashable label, non-numeric distance input, ...)."""


class MissingValueError(InputError):
    """Missing values (NaN/None) were found where the chosen ``missing`` policy forbids them."""


class UnknownLabelError(GraphprivError, KeyError):
    """A label (sensitive or public value) that is not in the joint range was asked for."""

    def __str__(self) -> str:  # KeyError quotes its message; keep it readable
        return str(self.args[0]) if self.args else ""


class UnknownColumnError(UnknownLabelError):
    """A column name that is not in the table was asked for."""


class DistributionError(InputError):
    """A probability matrix or vector is invalid (negative entries, does not sum to 1, ...)."""


class TooLargeError(GraphprivError, ValueError):
    """The requested exact computation is past its documented size limit."""


class SchedulerUnreachableError(InputError):
    """No dask scheduler answers at the given address (``client=`` of a sweep, :func:`graphpriv.parallel.connect`)."""


class GraphprivWarning(UserWarning):
    """Base class of graphpriv's warnings."""


class DenseGraphWarning(GraphprivWarning):
    """Building a dense object (e.g. the confusability graph G_X) that may be very large."""
