"""``graphpriv sanitize``: release a table with the public column coarsened by paper 003's mechanisms.

Runs :func:`graphpriv.agglomerate` (Algorithm 1 for ``--objective L0``, Algorithm 2 for ``I*``,
Section V-C for ``L0|I*=0``) with utility U1 or U2 and a Lagrange multiplier given by ``--lam``, or
chosen from the privacy-utility frontier as the most private point whose utility is at least
``--min-utility``. Writes into ``--out DIR``:

- ``sanitized.csv`` (or ``.parquet`` for Parquet input): the input table with the public column
  replaced by codewords (U2: the cluster's centroid; U1: the cluster number) -- every other column and
  every row untouched, same order. CSV fields of the other columns are copied as the exact text of
  the input.
- ``mapping.json``: every public value -> codeword, and the clusters.
- ``trace.json``: the merge sequence (:meth:`graphpriv.MergeTrace.to_json`).
- ``summary.json``: privacy and utility before and after, λ, rows.
- ``frontier.png/.pdf``: the frontier of (privacy, utility) over λ with the chosen point;
  ``merges.gif``: an animation of the merges (small ranges only).

All files are staged in a temporary folder and moved into DIR only after everything succeeded.

JSON schemas (version 1):

- ``mapping.json``: ``{schema_version, public_column, sensitive_column, objective, utility, codeword,
  missing_value, values: [{value, codeword, cluster}], clusters: [{id, codeword, members}]}``;
  ``value``/``members`` are the original public values (``null`` = missing, with ``--missing keep``).
- ``summary.json``: ``{schema_version, input, objective, utility, lam, lam_chosen_by, privacy_measure,
  before: {privacy, utility, n_public, L0, I_star, k_anonymity}, after: {...same...},
  rows: {read, written, suppressed_public, dropped_from_analysis, missing_sensitive, missing_public},
  frontier: [{privacy, utility, n_clusters, lam_min, lam_max}], files}``.
"""

from __future__ import annotations

import argparse
import logging
import math
from pathlib import Path

from .analyze import Progress, add_common_arguments, apply_verbosity, input_info, load_range, progress_enabled

logger = logging.getLogger("graphpriv.cli")

#: The merge animation is drawn for ranges up to this many public values ...
ANIMATION_MAX_PUBLIC = 200
#: ... with at most this many frames (steps are subsampled beyond).
ANIMATION_MAX_FRAMES = 40

EXAMPLES = """\
Examples:
  graphpriv sanitize hungarian -s age -x chol --missing drop --objective 'I*' --utility U2 --lam 0.05 --out release/
  graphpriv sanitize hungarian -s age -x chol --missing keep --objective L0 --utility U1 --min-utility 3 --out release/
  graphpriv sanitize data.csv -s diagnosis -x zip --objective 'L0|I*=0' --utility U1 --lam 1 --out release/

--objective: L0 (Algorithm 1, problem (3)), I* (Algorithm 2, problem (5)) or L0|I*=0 (Section V-C,
problem (10): the release always has I* = 0). Quote them in a shell ('I*').
--utility: U1 = I0(X -> X^) in bits (worst-case resolution kept); U2 = -(largest |x - codeword|) with
centroid codewords (needs numeric public values; missing values must be dropped: --missing drop).
--lam X runs with multiplier X; --min-utility T picks, from the frontier over λ
(graphpriv.pareto_frontier: exact over every λ for L0 and I*, a λ grid for L0|I*=0), the most private
release with utility >= T (U1: bits, e.g. 3; U2: minus the allowed distortion, e.g. -10).
The sanitised table keeps every row and every other column unchanged; rows whose public value is
missing stay missing (with --missing drop a public value that occurs only in dropped rows is
suppressed, i.e. left empty, and counted).
"""


def add_parser(sub) -> None:
    p = sub.add_parser(
        "sanitize",
        help="coarsen the public column with paper 003's mechanisms and write the sanitised table",
        description="Run an agglomerative privacy mechanism (paper 003) on the columns S = --sensitive and "
        "X = --public, replace X by codewords in a copy of the table, and write the sanitised table, the "
        "mapping, the merge trace, a frontier plot and a merge animation; print privacy and utility before "
        "and after.",
        epilog=EXAMPLES,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    add_common_arguments(p)
    p.add_argument("--objective", required=True, choices=("L0", "I*", "L0|I*=0"),
                   help="privacy objective: L0 (Algorithm 1), I* (Algorithm 2), L0|I*=0 (Section V-C)")
    p.add_argument("--utility", required=True, choices=("U1", "U2"), help="utility: U1 = I0(X->X^), U2 = -max distortion")
    g = p.add_mutually_exclusive_group(required=True)
    g.add_argument("--lam", type=float, metavar="X", help="Lagrange multiplier λ >= 0")
    g.add_argument("--min-utility", type=float, metavar="T",
                   help="choose λ from the frontier: the most private release with utility >= T")
    p.add_argument("--out", metavar="DIR", help="output folder (default: <DATA stem>_sanitized)")
    p.add_argument("--no-animation", action="store_true", help="skip the merge animation")
    p.set_defaults(func=run)


# ---------------------------------------------------------------------- helpers
def numeric_values(jr, column: str, utility: str):
    """``{label: float}`` for U2 (None for U1); raises a clear error for non-numeric or missing labels."""
    from .._validation import MISSING
    from ..errors import InputError, InputTypeError

    if utility != "U2":
        return None
    values = {}
    for lab in jr.public_labels.tolist():
        if lab is MISSING:
            raise InputError(f"column {column!r} has missing values, which have no number for U2; use --missing drop "
                             "(or --utility U1)")
        try:
            v = float(lab)
        except (TypeError, ValueError):
            raise InputTypeError(f"column {column!r} holds non-numeric values (e.g. {lab!r}); U2 needs numbers -- "
                                 "clean the column or use --utility U1") from None
        if isinstance(lab, bool) or not math.isfinite(v):
            raise InputTypeError(f"column {column!r} holds the value {lab!r}; U2 needs finite numbers -- clean the "
                                 "column or use --utility U1")
        values[lab] = v
    return values


def choose_release(jr, frontier, objective: str, utility: str, values, min_utility: float):
    """Run the mechanism at a λ that selects the most private frontier point with utility >= ``min_utility``.

    ``frontier`` is :func:`graphpriv.pareto_frontier`'s result: each point carries the λ range
    [lam_min, lam_max) selecting it. Ties in privacy go to the larger utility. Returns ``(result, lam)``.

    Raises
    ------
    InputError
        When no release reaches ``min_utility`` (the threshold is above the utility of X itself).
    """
    import graphpriv as gp
    from ..errors import InputError

    pts = [p for p in frontier.points if p.utility >= min_utility - 1e-12]
    if not pts:
        best = max(p.utility for p in frontier.points)
        raise InputError(f"no release reaches --min-utility {min_utility:g}; the most useful one has utility {best:.4g} "
                         "(the original data); lower the threshold")
    point = min(pts, key=lambda p: (round(p.privacy, 12), -p.utility))
    lo, hi = point.lam_min, point.lam_max
    candidates = [lam for lam in (lo, (lo + hi) / 2 if math.isfinite(hi) else lo * 2 + 1.0, hi * (1 - 1e-9))
                  if math.isfinite(lam) and lam >= 0]
    fallback = None
    for lam in candidates:
        r = gp.agglomerate(jr, objective, lam, utility, values)
        if abs(r.privacy - point.privacy) <= 1e-9 and abs(r.utility - point.utility) <= 1e-9:
            return r, lam
        if r.utility >= min_utility - 1e-12 and (fallback is None or r.privacy < fallback[0].privacy):
            fallback = (r, lam)
    if fallback is None:  # pragma: no cover - a frontier point is always selected by its own λ range
        raise InputError(f"no λ reproduces the frontier point with utility {point.utility:.4g}; pass --lam instead")
    logger.warning("λ = %g gives privacy %.4f, not the frontier's %.4f", fallback[1], fallback[0].privacy, point.privacy)
    return fallback


def sanitized_column(typed, mapping: dict, missing_policy: str):
    """The released public column: codewords for values in the range, missing stays missing, values
    outside the range (only after --missing drop) are suppressed. Returns (list, n_suppressed).

    Vectorised (a pandas hash lookup); float cells such as 132.0 find the label 132 (equal hashes).
    """
    import pandas as pd

    from .._validation import MISSING

    typed = pd.Series(typed).reset_index(drop=True)
    na = typed.isna().to_numpy()
    plain = {k: v for k, v in mapping.items() if k is not MISSING}
    res = typed.map(pd.Series(list(plain.values()), index=pd.Index(list(plain.keys()), dtype=object), dtype=object))
    res = res.astype(object).where(res.notna(), None)
    if missing_policy == "keep" and MISSING in mapping and na.any():
        res[na] = mapping[MISSING]
    suppressed = int((~na & res.isna().to_numpy()).sum())
    return res.tolist(), suppressed


def _fmt_codeword(c) -> str:
    if c is None:
        return ""
    if isinstance(c, float):
        return repr(c) if not c.is_integer() else repr(c)
    return str(c)


# ---------------------------------------------------------------------- main
def run(args) -> int:
    import pandas as pd

    import graphpriv as gp
    from .. import io as gio
    from ..errors import InputError

    apply_verbosity(args)
    quiet = getattr(args, "quiet", False)
    if args.lam is not None and not (math.isfinite(args.lam) and args.lam >= 0):
        raise InputError(f"--lam must be a finite number >= 0, got {args.lam}")
    if args.min_utility is not None and not math.isfinite(args.min_utility):
        raise InputError(f"--min-utility must be a finite number, got {args.min_utility}")
    out_dir = Path(args.out) if args.out else Path(f"{Path(str(args.data)).name.split('.')[0]}_sanitized")
    fmt = gio.table_format(args.data)
    progress = Progress(6, "sanitize", progress_enabled(args))
    try:
        df_typed, jr = load_range(args, progress)
        values = numeric_values(jr, args.public, args.utility)
        with progress.step("mechanism"):
            frontier = gp.pareto_frontier(jr, args.objective, args.utility, values)
            if args.lam is not None:
                result = gp.agglomerate(jr, args.objective, args.lam, args.utility, values)
                lam = args.lam
            else:
                result, lam = choose_release(jr, frontier, args.objective, args.utility, values, args.min_utility)
            singletons = [{x} for x in jr.public_labels.tolist()]
            before = gp.evaluate_quantization(jr, singletons, args.objective, args.utility, values)
            qjr = gp.quantize_range(jr, result.quantization)
            measures_before = {"L0": gp.L0(jr), "I_star": gp.maximin_information(jr), "k_anonymity": gp.k_anonymity(jr)}
            measures_after = {"L0": gp.L0(qjr), "I_star": gp.maximin_information(qjr), "k_anonymity": gp.k_anonymity(qjr)}
        with progress.step("sanitise"):
            table = gio.read_columns(args.data, None, na_values=args.na_values, sep=args.sep, raw=True,
                                     encoding=args.encoding) if fmt == "csv" \
                else gio.read_columns(args.data, None, na_values=args.na_values, sep=args.sep)
            if len(table) != len(df_typed):
                raise InputError(f"{args.data}: read {len(table)} rows as text but {len(df_typed)} as values; the file "
                                 "changed while reading or is malformed")
            column, n_suppressed = sanitized_column(df_typed[args.public], result.mapping, args.missing)
            if fmt == "csv":
                table[args.public] = [_fmt_codeword(c) for c in column]
            elif all(c is None or (isinstance(c, int) and not isinstance(c, bool)) for c in column):
                table[args.public] = pd.array(column, dtype="Int64")      # U1 cluster ids stay integers
            else:
                table[args.public] = column
            mapping_doc = _mapping_doc(jr, result, args)
            privacy_name = "I*" if args.objective == "I*" else "L0"
            summary = {
                "schema_version": 1,
                "input": input_info(args),
                "objective": args.objective, "utility": args.utility, "lam": lam,
                "lam_chosen_by": "--lam" if args.lam is not None else f"--min-utility {args.min_utility:g} (frontier)",
                "privacy_measure": privacy_name,
                "before": {"privacy": before[0], "utility": before[1], "n_public": jr.n_public, **measures_before},
                "after": {"privacy": result.privacy, "utility": result.utility, "n_public": result.n_clusters, **measures_after},
                "rows": {"read": len(table), "written": len(table), "suppressed_public": n_suppressed,
                         **({} if jr.source is None else {"dropped_from_analysis": jr.source.n_dropped,
                                                          "missing_sensitive": jr.source.n_missing_sensitive,
                                                          "missing_public": jr.source.n_missing_public})},
                "frontier": [{"privacy": p.privacy, "utility": p.utility, "n_clusters": p.n_clusters,
                              "lam_min": p.lam_min, "lam_max": p.lam_max} for p in frontier.points],
            }
        with gio.staged_output(out_dir) as tmp:
            with progress.step("write"):
                name = "sanitized.parquet" if fmt == "parquet" else "sanitized.csv"
                gio.write_table(tmp / name, table, fmt="parquet" if fmt == "parquet" else "csv",
                                sep=args.sep or ("\t" if str(args.data).lower().endswith((".tsv", ".tab")) else ","))
                gio.write_json(tmp / "mapping.json", mapping_doc)
                gio.write_text(tmp / "trace.json", result.trace.to_json(indent=1) + "\n")
                summary["files"] = [name, "mapping.json", "trace.json", "summary.json"]
            with progress.step("figures"):
                summary["files"] += _frontier_figure(frontier, lam, result, args, tmp)
                if not args.no_animation:
                    summary["files"] += _animation(result, jr, tmp)
            gio.write_json(tmp / "summary.json", summary)
    finally:
        progress.close()
    if not quiet:
        b, a = summary["before"], summary["after"]
        print(f"graphpriv sanitize: {args.objective} with {args.utility}, λ = {lam:.6g} ({summary['lam_chosen_by']})")
        b = {k: (v + 0.0 if isinstance(v, float) else v) for k, v in b.items()}   # no "-0.0000"
        a = {k: (v + 0.0 if isinstance(v, float) else v) for k, v in a.items()}
        print(f"before: {privacy_name} = {b['privacy']:.4f} bits, {args.utility} = {b['utility']:.4f}, |X| = {b['n_public']}, "
              f"L0 = {b['L0']:.4f}, I* = {b['I_star']:.4f}, k = {b['k_anonymity']}")
        print(f"after:  {privacy_name} = {a['privacy']:.4f} bits, {args.utility} = {a['utility']:.4f}, |X^| = {a['n_public']}, "
              f"L0 = {a['L0']:.4f}, I* = {a['I_star']:.4f}, k = {a['k_anonymity']}")
        print(f"rows: {summary['rows']['written']} written (same order)"
              + (f", {n_suppressed} public value(s) suppressed" if n_suppressed else ""))
        print(f"wrote {', '.join(summary['files'])} to {out_dir}")
    return 0


def _mapping_doc(jr, result, args) -> dict:
    from .. import io as gio

    clusters = []
    pos = {}
    for k, cl in enumerate(result.quantization):
        members = sorted(cl, key=jr.public_code)                      # code order
        cw = result.mapping[members[0]]
        clusters.append({"id": k, "codeword": gio.label_to_json(cw), "members": [gio.label_to_json(m) for m in members]})
        for m in members:
            pos[m] = k
    return {
        "schema_version": 1,
        "public_column": args.public,
        "sensitive_column": args.sensitive,
        "objective": args.objective,
        "utility": args.utility,
        "codeword": "centroid of the cluster's values" if args.utility == "U2" else "cluster id (0, 1, ... in cluster index order)",
        "missing_value": "null stands for a missing public value (--missing keep)",
        "values": [{"value": gio.label_to_json(x), "codeword": gio.label_to_json(result.mapping[x]), "cluster": pos[x]}
                   for x in jr.public_labels.tolist()],
        "clusters": clusters,
    }


def _frontier_figure(frontier, lam, result, args, tmp: Path) -> list[str]:
    """The frontier (privacy in bits against utility) with the released point starred."""
    import matplotlib.pyplot as plt

    from ..viz import plot_frontier
    from ..viz.style import COLUMN_WIDTH, ROLE, new_figure, save_figure, style_context

    fig, ax = new_figure(COLUMN_WIDTH, COLUMN_WIDTH * 0.85)
    with style_context():
        pname = r"$I^*(S;\hat X)$" if args.objective == "I*" else r"$L_0(S\to\hat X)$"
        uname = r"$U_1 = I_0(X\to\hat X)$ (bits)" if args.utility == "U1" else r"$U_2 = -$max distortion"
        plot_frontier(frontier, ax, normalized=False, marks={f"released (λ = {lam:.3g})": result},
                      labels=[f"frontier over λ ({args.objective}, {args.utility})"],
                      xlabel=uname, ylabel=f"privacy leakage {pname} (bits)", legend=False)
        if args.min_utility is not None:
            ax.axvline(args.min_utility, color=ROLE["cut"], lw=0.8, ls="--", label=f"--min-utility {args.min_utility:g}")
        ax.legend(frameon=False, loc="upper left")
        ax.set_title(f"{frontier.method} frontier, objective {args.objective}")
        fig.tight_layout()
    save_figure(fig, tmp / "frontier")
    plt.close(fig)
    return ["frontier.png", "frontier.pdf"]


def _animation(result, jr, tmp: Path) -> list[str]:
    trace = result.trace
    n = len(trace)
    if jr.n_public > ANIMATION_MAX_PUBLIC:
        logger.info("merge animation skipped: %d public values (limit %d)", jr.n_public, ANIMATION_MAX_PUBLIC)
        return []
    try:
        from ..viz import animate_trace
    except ImportError:  # pragma: no cover
        return []
    steps = list(range(n))
    if n > ANIMATION_MAX_FRAMES:
        steps = sorted({round(i * (n - 1) / (ANIMATION_MAX_FRAMES - 1)) for i in range(ANIMATION_MAX_FRAMES)} | {trace.returned})
    try:
        from ..viz.style import COLUMN_WIDTH, PAGE_WIDTH

        animate_trace(trace, jr, tmp / "merges.gif", fps=1.5, steps=steps, width=COLUMN_WIDTH if jr.n_public <= 30 else PAGE_WIDTH * 0.75)
    except Exception as exc:  # noqa: BLE001 - an animation must not sink the release
        logger.warning("merge animation skipped: %s", exc)
        return []
    return ["merges.gif"]
