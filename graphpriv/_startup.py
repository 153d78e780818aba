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

@contextlib.contextmanager
def interrupt_guard():
    """Turn a Ctrl-C during the package import into ``graphpriv: interrupted`` and exit status 130,
    in the ``graphpriv`` command only (see the module docstring)."""
    try:
        yield
    except KeyboardInterrupt:
        if not is_command_process():
            raise
        print("graphpriv: interrupted while starting; nothing was written", file=sys.stderr, flush=True)
        # nothing to clean up yet (no output exists before main() runs); exit at once with the status a shell
        # gives Ctrl-C. SystemExit would unwind through half-initialised library imports, after which CPython
        # can still end the process by re-raising SIGINT (status -2 instead of 130).
        os._exit(130)
