"""``graphpriv compare``: every mechanism of graphpriv on one table, on common privacy and utility axes.

Reads the two columns of DATA (CSV, Parquet, a folder of them, or a bundled table), runs
:func:`graphpriv.compare_mechanisms` on the joint counts -- paper 003's Algorithms 1, 2 and Section V-C,
the watchdog, (ε, δ) partitioning, subset merging, the α-lift watchdog, the privacy funnel (pairwise and
subset) and the linear reduction -- and prints one table: I*, L0, max |log-lift|, I(S;X̂), I(X;X̂) and U1
of each release. With ``--out DIR`` it writes ``comparison.csv`` (that table), ``frontiers.csv`` (every
point of every parameter sweep), ``comparison.md`` (a report section) and ``comparison.png`` /
``comparison.pdf`` (the figure), staged and swapped in whole.
"""

from __future__ import annotations

import argparse
import logging
import math

logger = logging.getLogger("graphpriv.cli")

EXAMPLES = """\
Examples:
  graphpriv compare hungarian -s age -x chol --missing keep
  graphpriv compare hungarian -s age -x chol --missing keep --eps 2 --out cmp/
  graphpriv compare data.csv -s diagnosis -x zip --lam-funnel 0.3 --no-frontiers

ε is in nats (the watchdog papers' unit); every reported quantity is in bits (--base 2, the default).
"""


def add_parser(sub) -> None:
    from .analyze import add_common_arguments

    p = sub.add_parser(
        "compare",
        help="run every mechanism on one table and place each on common privacy/utility axes (table + figure)",
        description="Run every mechanism of graphpriv on the columns S = --sensitive and X = --public of a table "
        "(paper 003's Algorithms 1, 2 and Section V-C with U1; the watchdog, (eps, delta), subset merging and the "
        "alpha-lift watchdog; the privacy funnel, pairwise and subset; the linear reduction) and report, for each "
        "release, I*, L0, max |log-lift|, I(S;X^), I(X;X^) and U1. With --out DIR also write comparison.csv, "
        "frontiers.csv, comparison.md and the figure comparison.png/.pdf.",
        epilog=EXAMPLES, formatter_class=argparse.RawDescriptionHelpFormatter)
    add_common_arguments(p)
    p.add_argument("--out", metavar="DIR", help="write comparison.csv, frontiers.csv, comparison.md and the figure to DIR")
    p.add_argument("--lam-003", type=float, default=0.5, metavar="LAMBDA", help="λ of paper 003's mechanisms (default 0.5)")
    p.add_argument("--eps", type=float, default=1.0, help="ε of the watchdog family, in nats (default 1)")
    p.add_argument("--delta", type=float, default=0.05, help="δ of (ε, δ) partitioning (default 0.05)")
    p.add_argument("--alpha-lift", type=float, default=math.inf, metavar="ALPHA",
                   help="α of the α-lift watchdog (default inf: the one-sided max-lift watchdog)")
    p.add_argument("--lam-funnel", type=float, default=0.5, metavar="LAMBDA", help="λ of the privacy funnel (default 0.5)")
    p.add_argument("--alpha-linear", type=float, default=0.5, metavar="ALPHA",
                   help="α in (0, 1] of the linear reduction (default 0.5)")
    p.add_argument("--base", type=float, default=2.0, help="log base of the reported quantities (default 2: bits)")
    p.add_argument("--no-frontiers", action="store_true", help="skip the parameter sweeps (faster; no figure lines)")
    p.set_defaults(func=run)


def run(args) -> int:
    from ..analysis.compare import compare_mechanisms
    from ..outputs import input_paths, staged_output
    from .analyze import Progress, apply_verbosity, load_range, progress_enabled

    apply_verbosity(args)
    progress = Progress(2 + (1 if args.out else 0), "compare", progress_enabled(args))
    try:
        _, jr = load_range(args, progress)
        with progress.step("mechanisms"):
            cmp = compare_mechanisms(jr, lam_003=args.lam_003, eps=args.eps, delta=args.delta,
                                     alpha_lift=args.alpha_lift, lam_funnel=args.lam_funnel,
                                     alpha_linear=args.alpha_linear, base=args.base,
                                     frontiers=not args.no_frontiers)
        if args.out is not None:
            with staged_output(args.out, overwrite=args.overwrite, command="compare", inputs=input_paths(args.data)) as tmp:
                with progress.step("write"):
                    _write(cmp, tmp, str(args.data), args)
    finally:
        progress.close()
    if not getattr(args, "quiet", False):
        print(_text(cmp))
        if args.out is not None:
            print(f"wrote comparison.csv, frontiers.csv, comparison.md and comparison.png/.pdf to {args.out}")
    return 0


def _text(cmp) -> str:
    cols = ["mechanism", "setting", "n_blocks", "I_star", "L0", "max_abs_log_lift", "I_S_Xhat", "I_X_Xhat", "U1"]
    head = ["mechanism", "setting", "blocks", "I*", "L0", "max|log-lift|", "I(S;X^)", "I(X;X^)", "U1"]
    rows = [dict(cmp.reference, mechanism="X released as it is", setting="")] + cmp.table.to_dict("records")

    def fmt(v):
        if isinstance(v, float):
            return "inf" if math.isinf(v) else "-" if math.isnan(v) else f"{v:.4g}"
        return str(v)

    cells = [[fmt(r[c]) for c in cols] for r in rows]
    widths = [max(len(h), *(len(c[k]) for c in cells)) for k, h in enumerate(head)]
    lines = ["  ".join(h.ljust(w) for h, w in zip(head, widths))]
    lines += ["  ".join(c.ljust(w) for c, w in zip(row, widths)) for row in cells]
    s = cmp.settings
    lines.append(f"{s['n_sensitive']} sensitive x {s['n_public']} public values; eps in nats, information in log base "
                 f"{cmp.base:g}")
    return "\n".join(lines)


def _write(cmp, out, data_name: str, args) -> None:
    import matplotlib

    matplotlib.use("Agg", force=False)
    import matplotlib.pyplot as plt

    from ..outputs import atomic_write
    from ..viz.comparison import plot_mechanism_comparison
    from ..viz.style import save_figure

    with atomic_write(out / "comparison.csv", "w") as fh:
        cmp.table.to_csv(fh, index=False)
    with atomic_write(out / "frontiers.csv", "w") as fh:
        cmp.frontiers.to_csv(fh, index=False)
    md = cmp.to_markdown(title=f"Mechanisms compared on {data_name} (S = {args.sensitive}, X = {args.public})")
    md += "\n![every mechanism on common axes](comparison.png)\n"
    with atomic_write(out / "comparison.md", "w") as fh:
        fh.write(md)
    fig = plot_mechanism_comparison(cmp)
    fig.suptitle(f"Every graphpriv mechanism on {data_name} (S = {args.sensitive}, X = {args.public})", fontsize=9)
    save_figure(fig, out / "comparison", formats=("png", "pdf"))
    plt.close(fig)
