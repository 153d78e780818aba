"""What the ``graphpriv`` command does while the package itself is still being imported.

Importing graphpriv (numpy, scipy, igraph, matplotlib, ...) takes a second or two, before
:func:`graphpriv.cli.main` exists to catch Ctrl-C. :func:`interrupt_guard` wraps the package's own
imports: when the process is the ``graphpriv`` command and SIGINT arrives during them, it prints one
line and exits with status 130 (nothing has been written yet), instead of a traceback from inside
some library's import. In any other process (``import graphpriv`` in Python or Jupyter) the
``KeyboardInterrupt`` propagates unchanged.

This module imports only three small standard-library modules, so it is cheap to import first; what
remains unguarded is the interpreter's own start-up (a few tens of milliseconds).
"""

from __future__ import annotations

import contextlib
import os
import sys

#: Names of the console script (``graphpriv`` on POSIX, ``graphpriv.exe`` / ``graphpriv-script.py`` on Windows).
COMMAND_NAMES = ("graphpriv", "graphpriv.exe", "graphpriv-script.py")
_MODULE_NAMES = ("graphpriv.cli", "graphpriv")


def is_command_process() -> bool:
    """True when this interpreter runs the ``graphpriv`` command (the console script, or
    ``python -m graphpriv.cli``) rather than a user's program that imports the package."""
    argv0 = sys.argv[0] if sys.argv else ""
    if os.path.basename(argv0) in COMMAND_NAMES:
        return True
    orig = list(getattr(sys, "orig_argv", []))   # ``python -m graphpriv.cli``: argv[0] is "-m" while importing
    return any(a == "-m" and b in _MODULE_NAMES for a, b in zip(orig, orig[1:])) or \
        any(a in tuple(f"-m{m}" for m in _MODULE_NAMES) for a in orig)

#: Set when SIGINT arrived while the command was starting (see :func:`interrupt_guard`).
_INTERRUPTED: list[int] = []


def _record_and_raise(signum, frame):
    _INTERRUPTED.append(signum)
    raise KeyboardInterrupt


def _record(signum, frame):
    _INTERRUPTED.append(signum)


def interrupted_while_starting() -> bool:
    """Whether SIGINT arrived while the ``graphpriv`` command was starting (:func:`graphpriv.cli.main`
    then stops at once with status 130); the record is cleared."""
    got = bool(_INTERRUPTED)
    _INTERRUPTED.clear()
    return got


def _stop() -> None:
    try:
        print("graphpriv: interrupted while starting; nothing was written", file=sys.stderr, flush=True)
    except (OSError, ValueError):
        pass
    # nothing to clean up yet (no output exists before main() runs); exit at once with the status a shell
    # gives Ctrl-C. SystemExit would unwind through half-initialised library imports, after which CPython
    # can still end the process by re-raising SIGINT (status -2 instead of 130).
    os._exit(130)


@contextlib.contextmanager
def interrupt_guard(record_after: bool = False):
    """Turn a Ctrl-C during the package import into ``graphpriv: interrupted`` and exit status 130,
    in the ``graphpriv`` command only (see the module docstring).

    A library may turn the ``KeyboardInterrupt`` into another exception (scipy reports an interrupted
    import of its HiGHS solver as an ``ImportError``) or swallow it (an optional import that fails is
    skipped): the signal itself is recorded, so either way the command stops with status 130. With
    ``record_after`` (the package's own imports), SIGINT is only recorded after the guard, until
    :func:`graphpriv.cli.main` installs its own handler (``main`` checks
    :func:`interrupted_while_starting` first); otherwise the handler before is restored."""
    import signal
    import threading

    command = is_command_process() and threading.current_thread() is threading.main_thread()
    if command:
        try:
            installed = signal.getsignal(signal.SIGINT) is signal.default_int_handler
            if installed:                      # left as is when the parent made SIGINT ignored
                signal.signal(signal.SIGINT, _record_and_raise)
        except (ValueError, OSError):  # pragma: no cover - no signals here
            installed = False
    try:
        yield
    except BaseException:
        if command and (_INTERRUPTED or sys.exc_info()[0] is KeyboardInterrupt):
            _stop()
            return
        raise
    else:
        if command and _INTERRUPTED:           # swallowed by a library's import
            _stop()
    finally:
        if command and installed:
            signal.signal(signal.SIGINT, _record if record_after else signal.default_int_handler)
