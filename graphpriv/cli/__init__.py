"""The ``graphpriv`` command line. Each sub-command lives in its own module with ``add_parser``.

Errors a user can cause (bad file, unknown column, a mistyped option, ...) print one line
``graphpriv: error: ...; see 'graphpriv COMMAND --help'`` and exit with status 2; nothing is left
half-written. Ctrl-C (SIGINT) exits with status 130 and SIGTERM with 143, both after removing
whatever the run had staged.
"""

from __future__ import annotations

import argparse
import importlib
import logging
import re
import signal
import sys
import threading

from ..errors import GraphprivError

__all__ = ["main", "build_parser", "ArgumentParser", "Terminated"]

#: Sub-command modules, in ``--help`` order. Each defines ``add_parser(subparsers)`` that sets ``func``.
COMMANDS = ["demo", "analyze", "sanitize", "compare", "figures", "cite"]


class Terminated(BaseException):
    """Raised in the main thread when the process receives SIGTERM, so that cleanup runs (exit 143)."""


class UsageError(Exception):
    """A command-line usage error (what argparse would print with its usage block)."""

    def __init__(self, message: str, prog: str):
        super().__init__(message)
        self.prog = prog


#: What argparse takes for a negative number (an option value, not an option): ``-1``, ``-.5``, ``-1e9``,
#: ``-2.5E-3``, ``-inf``, ``-nan`` (argparse's own pattern has no exponent and no inf, so ``--min-utility
#: -1e9`` failed with "expected one argument"). No graphpriv option is spelled like a number.
NEGATIVE_NUMBER = re.compile(r"^-(\d+\.?\d*|\.\d+)([eE][-+]?\d+)?$|^-(inf|infinity|nan)$", re.IGNORECASE)


class ArgumentParser(argparse.ArgumentParser):
    """argparse with one-line errors: ``error`` raises :class:`UsageError` instead of printing the usage
    block and exiting; :func:`main` prints it as one line with a ``--help`` hint and returns 2. Negative
    numbers in any notation (:data:`NEGATIVE_NUMBER`) are values."""

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self._negative_number_matcher = NEGATIVE_NUMBER

    def error(self, message: str):  # noqa: D102 - argparse API
        raise UsageError(message, self.prog)


def build_parser() -> argparse.ArgumentParser:
    from .. import __version__

    parser = ArgumentParser(
        prog="graphpriv",
        description="Graph-centric analysis of information-theoretic privacy (confusability graphs, I*, mechanisms as merges).",
        epilog="Examples:\n  graphpriv demo\n  graphpriv figures --out figures\n"
        "  graphpriv analyze hungarian --sensitive age --public chol --missing keep --out report\n"
        "  graphpriv sanitize hungarian -s age -x chol --missing drop --objective 'I*' --utility U2 --lam 0.05 --out release\n\nRun 'graphpriv COMMAND --help' for a command's options.",
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    parser.add_argument("--version", action="version", version=f"graphpriv {__version__}")
    verbosity = parser.add_mutually_exclusive_group()
    verbosity.add_argument("-q", "--quiet", action="store_true", help="print only errors")
    verbosity.add_argument("-v", "--verbose", action="store_true", help="log progress details")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND", parser_class=ArgumentParser)
    for name in COMMANDS:
        try:
            mod = importlib.import_module(f".{name}", __name__)
        except ModuleNotFoundError as exc:
            if exc.name != f"{__name__}.{name}":
                raise
            continue
        mod.add_parser(sub)
    return parser


def _one_line(text: str) -> str:
    return " ".join(str(text).split())


def _error(message: str, hint: str = "graphpriv") -> int:
    """Print the one-line error and return 2. An unwritable stderr (``2>/dev/full``, a closed pipe)
    loses the line but not the status: the error is the user's, whether or not it could be shown."""
    say(f"graphpriv: error: {_one_line(message)}; see '{hint} --help'")
    return 2


def say(line: str) -> None:
    """Print ``line`` on stderr; when stderr cannot be written, drop it (and point stderr at the null
    device, so the interpreter's final flush does not fail either)."""
    try:
        print(line, file=sys.stderr, flush=True)
    except (OSError, ValueError):
        import os

        try:
            devnull = os.open(os.devnull, os.O_WRONLY)
            os.dup2(devnull, sys.stderr.fileno())
            os.close(devnull)
        except (OSError, ValueError):  # pragma: no cover - no file descriptor behind sys.stderr
            pass


def configure_logging(quiet: bool = False, verbose: bool = False) -> None:
    """graphpriv's messages at INFO with ``-v`` (WARNING by default, ERROR with ``-q``); other
    libraries (matplotlib, fontTools, PIL, ...) stay at WARNING whatever the flags."""
    root = logging.getLogger()
    if not root.handlers:
        handler = logging.StreamHandler()
        handler.setFormatter(logging.Formatter("graphpriv: %(message)s"))
        root.addHandler(handler)
    root.setLevel(logging.ERROR if quiet else logging.WARNING)
    logging.getLogger("graphpriv").setLevel(logging.ERROR if quiet else logging.INFO if verbose else logging.WARNING)
    for noisy in ("fontTools", "matplotlib", "PIL"):
        logging.getLogger(noisy).setLevel(logging.ERROR if noisy == "fontTools" else logging.WARNING)


#: Signals received during :func:`main` (a library can turn the exception a handler raises into its own:
#: pandas' C parser reports a KeyboardInterrupt inside its read callback as a ParserError).
_RECEIVED: list[int] = []


def _on_sigterm(signum, frame):  # pragma: no cover - exercised through a subprocess
    _RECEIVED.append(signum)
    raise Terminated()


def _on_sigint(signum, frame):  # pragma: no cover - exercised through a subprocess
    _RECEIVED.append(signum)
    raise KeyboardInterrupt


def _stopped_by_signal() -> int:
    """Say why the run stopped and return its exit status (130 for SIGINT, 143 for SIGTERM)."""
    if _RECEIVED and _RECEIVED[-1] == signal.SIGTERM:
        say("graphpriv: terminated")
        return 143
    say("graphpriv: interrupted")
    return 130


def main(argv: list[str] | None = None) -> int:
    """Run the command line with ``argv`` (default ``sys.argv[1:]``); return the exit status.

    SIGINT and SIGTERM end the run with status 130 and 143 after the output staging is cleaned up,
    whatever exception the signal became inside a library."""
    previous = None
    _RECEIVED.clear()
    if threading.current_thread() is threading.main_thread():
        previous = (signal.signal(signal.SIGTERM, _on_sigterm), signal.signal(signal.SIGINT, _on_sigint))
    try:
        from .._startup import interrupted_while_starting

        if interrupted_while_starting():       # Ctrl-C after the package imports, before this handler
            _RECEIVED.append(signal.SIGINT)
            return _stopped_by_signal()
        status = _main(argv)
    except (KeyboardInterrupt, Terminated):
        return _stopped_by_signal()
    except BaseException:
        if _RECEIVED:
            return _stopped_by_signal()
        raise
    finally:
        if previous is not None:
            signal.signal(signal.SIGTERM, previous[0])
            signal.signal(signal.SIGINT, previous[1])
    return _stopped_by_signal() if _RECEIVED else status


def _main(argv: list[str] | None) -> int:
    try:
        parser = build_parser()
        args = parser.parse_args(argv)
    except UsageError as exc:
        prog = exc.prog
        if prog == "graphpriv":   # e.g. an unknown option after the sub-command: point at that command's help
            command = next((a for a in (sys.argv[1:] if argv is None else argv) if str(a) in COMMANDS), None)
            prog = f"graphpriv {command}" if command else prog
        return _error(exc, prog)
    if args.command is None:
        parser.print_help()
        return 2
    hint = f"graphpriv {args.command}"
    if getattr(args, "out", None) is not None and not str(args.out).strip():
        return _error("--out is empty; give an output folder, e.g. --out report", hint)
    configure_logging(getattr(args, "quiet", False), getattr(args, "verbose", False))
    try:
        return int(args.func(args) or 0)
    except UsageError as exc:
        return _error(exc, exc.prog)
    except GraphprivError as exc:
        return _error(exc, hint)
    except FileNotFoundError as exc:
        return _error(f"file not found: {exc.filename}; check the path", hint)
    except BrokenPipeError:  # output piped into e.g. `head`: stop quietly
        import os

        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
        return 1
    except UnicodeEncodeError as exc:  # writing, not reading: the input is not to blame
        bad = exc.object[exc.start:exc.end] if isinstance(exc.object, str) else "?"
        return _error(f"{bad!r} cannot be written in the encoding {exc.encoding}; re-encode the input as UTF-8 and pass "
                      "--encoding utf-8", hint)
    except UnicodeError as exc:       # a text codec failing inside a reader (e.g. --encoding utf-16 on UTF-8 bytes)
        data = getattr(args, "data", "the input")
        enc = getattr(args, "encoding", "utf-8")
        return _error(f"data file {str(data)!r} is not valid {enc} text ({getattr(exc, 'reason', exc)}); pass the "
                      "file's encoding with --encoding, e.g. --encoding latin-1", hint)
    except MemoryError:
        return _error("out of memory; try a smaller input, fewer distinct values, or --no-figures", hint)
    except (PermissionError, IsADirectoryError, NotADirectoryError, OSError) as exc:
        where = f" ({exc.filename})" if getattr(exc, "filename", None) else ""
        return _error(f"{exc.strerror or exc}{where}; check the path, its permissions and free disk space", hint)
