"""``graphpriv figures``: regenerate every figure graphpriv can reproduce, with a manifest."""

from __future__ import annotations

import argparse
import shutil
import sys
from pathlib import Path


def add_parser(sub) -> None:
    p = sub.add_parser(
        "figures",
        help="regenerate the papers' figures (PDF + PNG) and a README.md manifest",
        description="Regenerate every figure of the papers graphpriv reproduces into DIR, as PDF and PNG, "
        "and write DIR/README.md listing file, paper, figure number, what it shows and any erratum. "
        "Each figure drawn is shown on stderr: a progress bar on a terminal, else one line per figure "
        "('graphpriv: drawing paper003_fig7_pareto_frontier (9/32)...'); -q hides both.",
        epilog="Examples:\n  graphpriv figures --out figures\n  graphpriv figures --out /tmp/f --only paper003 --quick",
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    p.add_argument("--out", default="figures", metavar="DIR", help="output folder (default: figures)")
    p.add_argument("--only", action="append", metavar="NAME",
                   help="build only figures whose name contains NAME (repeatable; e.g. paper003, paper003_fig7, research; "
                        "see --list)")
    p.add_argument("--quick", action="store_true", help="small parameters (fast, for checks)")
    p.add_argument("--list", action="store_true", help="list the figures and exit")
    p.add_argument("--overwrite", action="store_true",
                   help="replace DIR even when it is a non-empty folder graphpriv did not write")
    from .analyze import add_verbosity_arguments

    add_verbosity_arguments(p)
    p.set_defaults(func=run)


def run(args) -> int:
    from ..reproduce import build_all, registry

    if args.list:
        for s in registry():
            print(f"{s.name}\tpaper {s.paper} {s.figure}\t{s.shows}")
        return 0
    from ..outputs import staged_output

    if args.only:
        check_only(args.only, [s.name for s in registry()])
    quiet = getattr(args, "quiet", False)
    progress = False if quiet else True if sys.stderr.isatty() else "lines"
    # DIR is rebuilt in a staging folder and swapped in whole at the end: an error or Ctrl-C leaves it as it was.
    # A partial --only run starts from DIR's current figures, so the others (and the manifest rows) are kept.
    with staged_output(args.out, overwrite=args.overwrite, command="figures") as stage:
        if args.only:
            _carry_over(Path(args.out), stage, [s.name for s in registry()])
        specs = build_all(stage, only=args.only, quick=args.quick, progress=progress)
    if not quiet:
        print(f"wrote {len(specs)} figure(s) and README.md to {args.out}")
    return 0


def check_only(only: list[str], names: list[str]) -> None:
    """Refuse an ``--only NAME`` that matches no registered figure (a typo would otherwise build nothing
    and exit 0), naming the prefixes the figure names start with."""
    from ..errors import InputError

    bad = [o for o in only if not any(o in n for n in names)]
    if bad:
        prefixes = ", ".join(dict.fromkeys(n.split("_")[0] for n in names))
        what = ", ".join(repr(b) for b in bad)
        raise InputError(f"--only {what} matches no figure; figure names start with {prefixes} (e.g. --only paper003_fig7; "
                         "'graphpriv figures --list' lists them all)")


def _carry_over(old: Path, stage: Path, names: list[str]) -> int:
    """Copy the registered figures' files of an earlier ``graphpriv figures`` output into ``stage``
    (regular files only: links are never followed). Returns the number of files copied."""
    if not old.is_dir() or old.is_symlink():
        return 0
    wanted = set(names)
    copied = 0
    for f in old.iterdir():
        if f.is_symlink() or not f.is_file() or f.stem not in wanted or f.suffix not in (".pdf", ".png", ".svg"):
            continue
        shutil.copy2(f, stage / f.name)
        copied += 1
    return copied
