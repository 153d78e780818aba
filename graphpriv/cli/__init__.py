"""The ``graphpriv`` command line. Each sub-command lives in its own module with ``add_parser``.

Errors a user can cause (bad file, unknown column, ...) print one line ``graphpriv: error: ...`` and
exit with status 2; nothing is left half-written.
"""

from __future__ import annotations

import argparse
import importlib
import logging
import sys

from ..errors import GraphprivError

__all__ = ["main", "build_parser"]

#: Sub-command modules, in ``--help`` order. Each defines ``add_parser(subparsers)`` that sets ``func``.
COMMANDS = ["demo", "analyze", "sanitize", "figures"]


def build_parser() -> argparse.ArgumentParser:
    from .. import __version__

    parser = argparse.ArgumentParser(
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
    sub = parser.add_subparsers(dest="command", metavar="COMMAND")
    for name in COMMANDS:
        try:
            mod = importlib.import_module(f".{name}", __name__)
        except ModuleNotFoundError as exc:
            if exc.name != f"{__name__}.{name}":
                raise
            continue
        mod.add_parser(sub)
    return parser


def main(argv: list[str] | None = None) -> int:
    parser = build_parser()
    args = parser.parse_args(argv)
    if args.command is None:
        parser.print_help()
        return 2
    level = logging.ERROR if args.quiet else logging.INFO if args.verbose else logging.WARNING
    logging.basicConfig(level=level, format="graphpriv: %(message)s")
    logging.getLogger("fontTools").setLevel(logging.ERROR)  # font-subsetting chatter while writing PDFs
    try:
        return int(args.func(args) or 0)
    except GraphprivError as exc:
        print(f"graphpriv: error: {exc}", file=sys.stderr)
        return 2
    except FileNotFoundError as exc:
        print(f"graphpriv: error: file not found: {exc.filename}; check the path", file=sys.stderr)
        return 2
    except BrokenPipeError:  # output piped into e.g. `head`: stop quietly
        import os

        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
        return 1
    except (PermissionError, IsADirectoryError, NotADirectoryError, OSError) as exc:
        where = f" ({exc.filename})" if getattr(exc, "filename", None) else ""
        print(f"graphpriv: error: {exc.strerror or exc}{where}; check the path, its permissions and free disk space",
              file=sys.stderr)
        return 2
    except KeyboardInterrupt:  # pragma: no cover
        print("graphpriv: interrupted", file=sys.stderr)
        return 130
