"""``graphpriv cite``: the BibTeX to cite graphpriv and the papers whose methods a study used."""

from __future__ import annotations

import argparse


def add_parser(sub) -> None:
    p = sub.add_parser(
        "cite",
        help="print BibTeX for graphpriv and the papers it implements",
        description="Print the BibTeX entry of graphpriv, followed by the entries NAME... (paper numbers, "
        "aliases or BibTeX keys: 003 = Ding & Farokhi's agglomerative clustering (L0, I*, Algorithms 1-2, "
        "Section V-C), 002 = the privacy watchdog, 000 = linear reduction / log-lift, 004 = perfect sample "
        "privacy, funnel = Ding & Sadeghi's privacy funnel, watchdog-subset = subset merging for the watchdog, "
        "alpha-watchdog = the alpha-lift watchdog, hungarian = the UCI heart-disease data). In Python, gp.cite() lists the papers whose methods "
        "ran in the session.",
        epilog="Examples:\n  graphpriv cite 003 hungarian\n  graphpriv cite --all > references.bib\n  graphpriv cite --list",
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    p.add_argument("names", nargs="*", metavar="NAME", help="papers to cite besides graphpriv (see --list)")
    group = p.add_mutually_exclusive_group()
    group.add_argument("--all", action="store_true", help="every entry of graphpriv's bibliography")
    group.add_argument("--list", action="store_true", help="list the BibTeX keys and the names that select them")
    p.set_defaults(func=run)


def run(args) -> int:
    from ..citations import ALIASES, bibtex, citation_keys

    if args.list:
        for key in citation_keys():
            names = sorted(a for a, k in ALIASES.items() if k == key and a != key)
            print(f"{key}\t{', '.join(names)}")
        return 0
    if args.all:
        print(bibtex(*citation_keys()), end="")
        return 0
    print(bibtex("graphpriv", *args.names), end="")
    return 0
