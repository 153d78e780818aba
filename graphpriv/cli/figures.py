"""``graphpriv figures``: regenerate every figure graphpriv can reproduce, with a manifest."""

from __future__ import annotations

import argparse
import sys


def add_parser(sub) -> None:
    p = sub.add_parser(
        "figures",
        help="regenerate the papers' figures (PDF + PNG) and a README.md manifest",
        description="Regenerate every figure of the papers graphpriv reproduces into DIR, as PDF and PNG, "
        "and write DIR/README.md listing file, paper, figure number, what it shows and any erratum.",
        epilog="Examples:\n  graphpriv figures --out figures\n  graphpriv figures --out /tmp/f --only paper003 --quick",
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    p.add_argument("--out", default="figures", metavar="DIR", help="output folder (default: figures)")
    p.add_argument("--only", action="append", metavar="NAME", help="build only figures whose name contains NAME (repeatable)")
    p.add_argument("--quick", action="store_true", help="small parameters (fast, for checks)")
    p.add_argument("--list", action="store_true", help="list the figures and exit")
    p.set_defaults(func=run)


def run(args) -> int:
    from ..reproduce import build_all, registry

    if args.list:
        for s in registry():
            print(f"{s.name}\tpaper {s.paper} {s.figure}\t{s.shows}")
        return 0
    specs = build_all(args.out, only=args.only, quick=args.quick, progress=not args.quiet and sys.stderr.isatty())
    if not args.quiet:
        print(f"wrote {len(specs)} figure(s) and README.md to {args.out}")
    return 0
