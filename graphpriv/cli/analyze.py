"""``graphpriv analyze``: the non-stochastic privacy measures of one table, as text, JSON, Markdown/HTML and figures.

Reads a CSV or Parquet file (only the two named columns), builds the joint range [[S, X]] and
reports row counts, range sizes, H0, I0, L0, B0, k-anonymity, I*, the components of G_X and its min
cut. With ``--out DIR`` it writes ``report.json`` (schema :data:`graphpriv.io.REPORT_SCHEMA_VERSION`),
``report.md`` and a self-contained ``report.html`` with the figures embedded, and the figures
themselves (PNG + PDF) under ``DIR/figures``; ``explorer.html``, an interactive explorer of the
components of G_X (:func:`graphpriv.viz.explore_components`, drawn with bokeh), is linked
from the report. Everything is written to a temporary folder first and
moved into ``DIR`` only when all of it succeeded. The figures and the explorer are best-effort: one
that fails is left out with one warning line on stderr, listed in ``report.json``'s ``skipped``
(``[{"file", "reason"}]``) and under "Figures left out" in report.md / report.html; the report is
written whole.
"""

from __future__ import annotations

import argparse
import math
import logging
import sys
import time
from contextlib import contextmanager
from pathlib import Path

logger = logging.getLogger("graphpriv.cli")

#: Joint ranges up to this many cells (|S| x |X|) get the joint-range grid figure.
GRID_MAX_CELLS = 60_000
#: G_X is drawn when it has at most this many nodes and (upper-bound) edges.
GX_MAX_NODES = 300
GX_MAX_EDGES = 20_000
#: Figures with value labels are drawn only when no value is longer than this (characters).
MAX_LABEL_CHARS_IN_FIGURES = 200   # graphpriv._guards.MAX_LABEL_CHARS

EXAMPLES = """\
Examples:
  graphpriv analyze hungarian --sensitive age --public chol --missing keep
  graphpriv analyze hungarian --sensitive age --public chol --missing drop --out report/
  graphpriv analyze data.csv --sensitive diagnosis --public zip --out report/
  graphpriv analyze data.parquet -s s -x x --json

DATA is a CSV file (optionally .gz; --sep for other delimiters), a Parquet file (.parquet, .pq) or
the name of a bundled table ('hungarian': UCI Hungarian heart disease; missing cholesterol is '?').
Missing values (empty field, NA, NaN, null, ?, ...) stop the run unless --missing drop|keep is given.
Errors print one line and exit with status 2; no output file is left behind.
"""


def add_common_arguments(p: argparse.ArgumentParser) -> None:
    """DATA, --sensitive, --public, --missing, --sep, --na-values, --out and verbosity (analyze and sanitize)."""
    p.add_argument("data", metavar="DATA", help="CSV or Parquet file, a folder or quoted glob of them (a partitioned "
                   "dataset; folder names key=value give the column key, its values as written; '**' and folders do not "
                   "enter symbolic links to folders), or a bundled table name ('hungarian')")
    p.add_argument("-s", "--sensitive", required=True, metavar="COL", help="column holding the sensitive variable S")
    p.add_argument("-x", "--public", required=True, metavar="COL", help="column holding the public variable X")
    p.add_argument("--missing", choices=("error", "drop", "keep"), default="error",
                   help="missing values: stop with an error (default), drop those rows (counted), or keep "
                        "'missing' as a value of its own (as JointRange.from_dataframe)")
    p.add_argument("--sep", metavar="CHAR", help="CSV delimiter (default ','; tab for .tsv)")
    p.add_argument("--encoding", default="utf-8", metavar="NAME", help="CSV text encoding (default utf-8; e.g. latin-1)")
    p.add_argument("--na-values", action="append", metavar="TOKEN",
                   help="CSV token read as missing (repeatable; replaces the defaults: empty, NA, NaN, null, ?, ...)")
    p.add_argument("--numbers", choices=("sensitive", "public", "both"), metavar="{sensitive,public,both}",
                   help="read the values of these columns as numbers (default: as written, so '007', '7' and '7.0' "
                        "are different values); two texts of one number are then an error")
    p.add_argument("--overwrite", action="store_true",
                   help="replace --out whole even when it is a non-empty folder graphpriv did not write "
                        "(an earlier graphpriv output there is always replaced whole)")
    add_verbosity_arguments(p)


def add_verbosity_arguments(p: argparse.ArgumentParser) -> None:
    """``-q/--quiet`` and ``-v/--verbose`` after the sub-command too (same meaning as before it)."""
    g = p.add_mutually_exclusive_group()
    g.add_argument("-q", "--quiet", action="store_true", default=argparse.SUPPRESS, help="print only errors")
    g.add_argument("-v", "--verbose", action="store_true", default=argparse.SUPPRESS, help="log progress details")


def apply_verbosity(args) -> None:
    """Apply -q/-v (before or after the sub-command): --verbose logs graphpriv's own steps at INFO,
    never the chatter of third-party libraries (fontTools, matplotlib)."""
    from . import configure_logging

    configure_logging(getattr(args, "quiet", False), getattr(args, "verbose", False))


class Progress:
    """A step counter shown as a tqdm bar on a terminal (stderr), silent otherwise; logs each step at INFO."""

    def __init__(self, total: int, desc: str, enabled: bool):
        self._bar = None
        self._t0 = self._t = time.perf_counter()
        if enabled:
            from tqdm.auto import tqdm

            self._bar = tqdm(total=total, desc=desc, unit="step", file=sys.stderr, leave=False)

    @contextmanager
    def step(self, name: str):
        if self._bar is not None:
            self._bar.set_postfix_str(name)
        t = time.perf_counter()
        yield
        logger.info("%s: %.2f s", name, time.perf_counter() - t)
        if self._bar is not None:
            self._bar.update(1)

    #: Seconds between two redraws of the merge bar (a run can record 10^6 steps).
    MERGE_REFRESH = 0.5

    @contextmanager
    def merges(self, n_values: int):
        """While a mechanism runs, a second bar over its merges (values merged of ``n_values - 1``, components
        left), fed by :func:`graphpriv.mechanisms.quantization.progress.merge_progress`; only on a terminal."""
        if self._bar is None or n_values < 2:
            yield
            return
        from tqdm.auto import tqdm

        from ..mechanisms.quantization.progress import merge_progress

        bar = tqdm(total=n_values - 1, desc="merging", unit="merge", file=sys.stderr, leave=False, position=1)
        last = [0.0]

        def shown(n_clusters: int, n_components: int) -> None:
            now = time.perf_counter()
            if now - last[0] >= self.MERGE_REFRESH:
                last[0] = now
                bar.n = n_values - n_clusters
                bar.set_postfix_str(f"{n_components} component(s) left", refresh=False)
                bar.refresh()

        try:
            with merge_progress(shown):
                yield
        finally:
            bar.close()

    def close(self) -> None:
        if self._bar is not None:
            self._bar.close()
        logger.info("total: %.2f s", time.perf_counter() - self._t0)


def progress_enabled(args) -> bool:
    return not getattr(args, "quiet", False) and sys.stderr.isatty()


def add_parser(sub) -> None:
    p = sub.add_parser(
        "analyze",
        help="privacy measures, components and min cut of a table (CSV/Parquet) with report and figures",
        description="Report row counts (read, dropped, missing), range sizes, H0, I0, L0, B0, k-anonymity, "
        "I*(S;X), the components of the confusability graph G_X and its min cut (paper 003) for the "
        "columns S = --sensitive and X = --public of a table. With --out DIR also write report.json, "
        "report.md, report.html and the figures (PNG + PDF).",
        epilog=EXAMPLES,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    add_common_arguments(p)
    p.add_argument("--out", metavar="DIR", help="write report.json, report.md, report.html and figures/ to DIR")
    p.add_argument("--json", action="store_true", help="print the JSON report to stdout instead of the text summary")
    p.add_argument("--no-figures", action="store_true", help="skip the figures (with --out)")
    p.add_argument("--scheduler", metavar="ADDRESS", default=None,
                   help="read the data on this dask cluster (e.g. tcp://host:8786; default: the environment variable "
                        "DASK_SCHEDULER_ADDRESS, else this machine); the workers must see the files at the same paths")
    p.add_argument("--eps", type=float, default=1.0, metavar="E",
                   help="log-lift threshold of the stochastic measures (share of public values above it, the watchdog's "
                        "NMIL at it), in the unit of --base (default 1)")
    p.add_argument("--base", choices=("e", "2"), default="e",
                   help="log base of the stochastic measures: e (nats, default) or 2 (bits); the non-stochastic ones are in bits")
    p.add_argument("--max-cut-edges", type=int, default=200_000, metavar="N",
                   help="compute the explicit min cut of G_X only up to N edges (default 200000); beyond, "
                        "decomposability comes from the components")
    p.set_defaults(func=run)


class ReadProgress:
    """A tqdm bar over the bytes (CSV) or rows (Parquet) read, shown on a terminal only."""

    def __init__(self, enabled: bool):
        self.enabled = enabled
        self._bar = None

    def __call__(self, done: int, total, unit: str) -> None:
        if not self.enabled:
            return
        if self._bar is None:
            from tqdm.auto import tqdm

            self._bar = tqdm(total=total, desc="read", unit=unit, unit_scale=True, file=sys.stderr, leave=False)
        self._bar.update(done - self._bar.n)

    def close(self) -> None:
        if self._bar is not None:
            self._bar.close()
            self._bar = None


def scheduler_address(args) -> str | None:
    """``--scheduler``, else the environment variable ``DASK_SCHEDULER_ADDRESS``, else None."""
    import os

    addr = getattr(args, "scheduler", None)
    if addr is None:
        addr = os.environ.get("DASK_SCHEDULER_ADDRESS") or None
    return addr


def _numbers(args) -> tuple[str, ...]:
    v = getattr(args, "numbers", None)
    return () if not v else ("sensitive", "public") if v == "both" else (v,)


def load_range(args, progress: Progress, frame: bool = False, values: bool = False):
    """Read the two columns of ``args.data`` and build the joint range (shared with sanitize).

    Files are streamed (:func:`graphpriv.read_joint_range`: only the distinct pairs are kept), on the
    dask cluster of :func:`scheduler_address` when there is one. Returns ``(frame, jr)``: with
    ``frame=True`` also the two columns as a DataFrame whose values are the range's labels (else None);
    with ``values=True`` (files only) a :class:`graphpriv.ingest.values.ValueCodes` in place of the frame,
    which gives the rows of any batch of the public column their label codes as ingestion assigned them.
    """
    import graphpriv as gp
    from .. import io as gio
    from ..errors import MissingValueError

    builtin = gio.table_format(args.data) == "builtin"
    numbers = _numbers(args)
    df = None
    with progress.step("read"):
        if builtin or frame:
            df = gio.read_columns(args.data, [args.sensitive, args.public], roles=["sensitive", "public"],
                                  na_values=args.na_values, sep=args.sep, encoding=args.encoding)
            if numbers and not builtin:
                df = _as_numbers(df, [c for role, c in (("sensitive", args.sensitive), ("public", args.public)) if role in numbers])
            logger.info("read %d rows of %s", len(df), args.data)
    with progress.step("joint range"):
        try:
            if builtin:
                jr = gp.JointRange.from_dataframe(df, sensitive=args.sensitive, public=args.public, missing=args.missing)
            else:
                address = scheduler_address(args)
                bar = ReadProgress(progress_enabled(args) and address is None)
                try:
                    if values:
                        from ..ingest.values import ValueCodes
                        from ..ranges import _read_pair_table

                        pt = _read_pair_table(args.data, args.sensitive, args.public, args.missing, sep=args.sep,
                                              encoding=args.encoding, na_values=args.na_values, numbers=numbers,
                                              client=address, on_progress=bar, keep_values=True)
                        df = ValueCodes.from_pair_table(pt, args.public)
                        jr = gp.JointRange._from_pair_table(pt)
                        del pt
                    else:
                        jr = gp.read_joint_range(args.data, sensitive=args.sensitive, public=args.public,
                                                 missing=args.missing, sep=args.sep, encoding=args.encoding,
                                                 na_values=args.na_values, numbers=numbers, client=address,
                                                 on_progress=bar)
                finally:
                    bar.close()
                logger.info("read %d rows of %s", jr.source.n_rows, args.data)
        except MissingValueError as exc:  # say the fix in command-line terms
            msg = str(exc).replace("Pass missing='drop'", "Pass --missing drop").replace("missing='keep'", "--missing keep")
            raise MissingValueError(f"{args.data}: {msg} (row numbers count data rows from 0)") from None
    return df, jr


def _as_numbers(df, columns):
    """``df`` with the text values of ``columns`` parsed as numbers (distinct texts of one number refused)."""
    import pandas as pd

    from ..ingest import parse_numbers

    for c in dict.fromkeys(columns):
        col = df[c]
        present = pd.unique(col[col.notna()].astype(str))
        nums = parse_numbers(list(present), c)
        lookup = dict(zip(present.tolist(), nums.tolist()))
        df[c] = [None if pd.isna(v) else lookup[str(v)] for v in col.tolist()]
    return df


def input_info(args) -> dict:
    from .. import io as gio

    return {"path": str(args.data), "format": gio.table_format(args.data), "sensitive": args.sensitive,
            "public": args.public, "missing": args.missing}


def run(args) -> int:
    import json

    from .. import io as gio
    from ..outputs import input_paths

    apply_verbosity(args)
    if args.max_cut_edges < 0:
        from ..errors import InputError

        raise InputError(f"--max-cut-edges must be >= 0, got {args.max_cut_edges}")
    if not (math.isfinite(args.eps) and args.eps >= 0):
        from ..errors import InputError

        raise InputError(f"--eps must be a finite number >= 0 (a log-lift threshold), got {args.eps}")
    n_steps = 3 + (2 if args.out is not None else 0)
    progress = Progress(n_steps, "analyze", progress_enabled(args))
    try:
        _, jr = load_range(args, progress)
        with progress.step("measures"):
            report = gio.analysis_report(jr, input_info=input_info(args), max_cut_edges=args.max_cut_edges,
                                         eps=args.eps, base=math.e if args.base == "e" else 2.0)
        if args.out is not None:
            with gio.staged_output(args.out, overwrite=args.overwrite, command="analyze",
                                    inputs=input_paths(args.data)) as tmp:
                with progress.step("figures"):
                    omitted: list[dict] = []
                    skipped: list[dict] = []
                    if args.no_figures:
                        figures, explorer = [], None
                        omitted.append({"figure": "all", "reason": "--no-figures was given"})
                    else:
                        figures, explorer = _pictures(jr, tmp, report, omitted, skipped, args)
                report["figures"] = figures
                report["figures_omitted"] = omitted
                report["skipped"] = skipped
                report["explorer"] = explorer
                with progress.step("write"):
                    gio.write_json(tmp / "report.json", report)
                    gio.write_text(tmp / "report.md", gio.report_markdown(report))
                    gio.write_text(tmp / "report.html", gio.report_html(report, tmp))
    finally:
        progress.close()
    if not getattr(args, "quiet", False):
        if args.json:
            print(json.dumps(gio.to_jsonable(report), indent=2))
        else:
            print("\n".join(gio.report_lines(report)))
            if args.out is not None:
                print(f"wrote report.json, report.md, report.html{' and figures' if report.get('figures') else ''} to {args.out}")
    return 0


# ---------------------------------------------------------------------- figures
def _pictures(jr, out_dir: Path, report: dict, omitted: list, skipped: list, args) -> tuple[list[dict], str | None]:
    """The figures and the component explorer, each best-effort (:class:`graphpriv.cli.pictures.Pictures`):
    one that fails is one warning line, an entry ``{"file", "reason"}`` of ``skipped`` and one
    ``{"figure", "reason"}`` of ``omitted`` (listed in report.md / report.html). Returns ``(figures, explorer)``."""
    from .pictures import ANNOUNCE_MIN_PUBLIC, Pictures

    from .pictures import reason_of

    try:                  # deciding what to draw can fail too (e.g. out of memory bounding the edges of G_X)
        plan, left_out = _figure_plan(jr, report)
    except Exception as exc:  # noqa: BLE001 - figures must not sink the report
        plan, left_out = [], []
        failed = Pictures(out_dir)
        failed.skip("figures/", reason_of(exc), warn=True)
        skipped += failed.skipped
        omitted.append({"figure": "figures", "reason": failed.skipped[0]["reason"]})
    pics = Pictures(out_dir, len(plan) + 1, bar=progress_enabled(args),
                    announce=not getattr(args, "quiet", False) and jr.n_public >= ANNOUNCE_MIN_PUBLIC)
    try:
        figures = make_figures(jr, out_dir / "figures", report, omitted=omitted, pictures=pics, plan=(plan, left_out))
        n_skipped = len(pics.skipped)
        explorer = _component_explorer(jr, out_dir, pics)
        omitted += [{"figure": e["file"], "reason": e["reason"]} for e in pics.skipped[n_skipped:]]
    finally:
        pics.close()
    skipped += pics.skipped
    return figures, explorer


def _figure_plan(jr, report: dict | None):
    """What :func:`make_figures` draws for this range: ``([(stem, builder, caption)], [(stem, reason)])``,
    the figures to draw and those left out on purpose (too large or unlabelled to be legible)."""
    from ..graphs.confusability import confusability_edge_count_bound

    plan = [("overview", _overview_figure, "Left: number of components of G_X by size (public values per component); "
             "right: number of public values x by anonymity-set size |[[S|x]]| (k-anonymity is the smallest).")]
    left_out = []
    longest = _longest_label(jr)
    cells = jr.n_sensitive * jr.n_public
    cut = (report or {}).get("min_cut") or {}
    if longest > MAX_LABEL_CHARS_IN_FIGURES:
        stems = ("joint_range", "confusability") + (("min_cut",) if cut.get("value") != 0 else ())
        left_out += [(stem, f"a value is {longest} characters long (labelled figures need values of at most "
                            f"{MAX_LABEL_CHARS_IN_FIGURES})") for stem in stems]
        return plan, left_out
    if cells <= GRID_MAX_CELLS:
        plan.append(("joint_range", _joint_range_figure,
                     "The joint range [[S,X]]: one filled cell per (s, x) pair that occurs, coloured by component of G_X."))
    else:
        left_out.append(("joint_range", f"|[[S]]| x |[[X]]| = {cells} cells, more than the {GRID_MAX_CELLS} a legible "
                                        "grid can show"))
    bound = confusability_edge_count_bound(jr)
    if jr.n_public <= GX_MAX_NODES and bound <= GX_MAX_EDGES:
        plan.append(("confusability", _confusability_figure,
                     "The confusability graph G_X: public values joined when they share a sensitive value; "
                     "one colour per component (I* = log2 of their number)."))
    else:
        why = (f"G_X has {jr.n_public} nodes (limit {GX_MAX_NODES})" if jr.n_public > GX_MAX_NODES
               else f"G_X has up to {bound} edges (limit {GX_MAX_EDGES})")
        left_out.append(("confusability", why + ", too many to draw legibly"))
    if cut.get("computed") and cut.get("value"):
        from ..viz.graphs import NODE_LINK_MAX_NODES

        if jr.n_public <= NODE_LINK_MAX_NODES:
            how = "edge(s) (dashed) must be removed to disconnect it"
        else:
            how = ("edge(s) must be removed to disconnect it: the two sides are drawn as discs (area proportional to their "
                   "number of public values) and the cut edges are listed with the sensitive values they share")
        plan.append(("min_cut", _min_cut_figure,
                     f"G_X split by a global minimum cut: {cut['value']} {how}, so G_X is not decomposable; the side X' "
                     "(holding the first public value) is drawn in indigo, the other side in olive."))
    elif not cut.get("computed") and cut.get("value") != 0:
        left_out.append(("min_cut", "the min cut of G_X was not computed (see --max-cut-edges)"))
    _plan_principal_partitions(jr, report, plan, left_out)
    return plan, left_out


def _plan_principal_partitions(jr, report: dict | None, plan: list, left_out: list) -> None:
    """The principal-sequence tree (graphpriv.report.principal), from 20 public values when the panel was computed."""
    from ..report.principal import PSP_CAPTION, PSP_FIGURE_MIN_PUBLIC

    psp = (report or {}).get("principal_partitions") or {}
    if psp.get("computed") and jr.n_public >= PSP_FIGURE_MIN_PUBLIC:
        plan.append(("principal_partitions", _principal_partitions_figure, PSP_CAPTION))
    elif psp and not psp.get("computed") and jr.n_public >= PSP_FIGURE_MIN_PUBLIC:
        left_out.append(("principal_partitions", f"the principal sequence was not computed ({psp.get('note')})"))


def _principal_partitions_figure(jr):
    from ..graphs.principal import principal_partitions
    from ..viz.principal import plot_principal_partitions

    return plot_principal_partitions(principal_partitions(jr)).figure


def make_figures(jr, fig_dir: Path, report: dict | None = None, omitted: list | None = None, *, pictures=None,
                 plan=None) -> list[dict]:
    """Draw what is legible for this range into ``fig_dir`` (PNG + PDF); return ``[{file, pdf, caption}]``.

    Always: the component-size histogram and the anonymity-set sizes |[[S|x]]|. Small ranges also get
    the joint-range grid and the confusability graph G_X, and, when G_X is connected and its min cut
    was computed, G_X split by that cut (helper functions of :mod:`graphpriv.viz`). G_X is never built
    for large ranges. Each figure left out is appended to ``omitted`` as ``{figure, reason}``; each is
    drawn best-effort (``pictures``, a :class:`graphpriv.cli.pictures.Pictures` over ``fig_dir``'s parent:
    one that fails is a warning and a ``skipped`` entry, never an error).
    """
    import matplotlib.pyplot as plt

    from .pictures import Pictures

    out = []
    omitted = [] if omitted is None else omitted
    own = pictures is None
    pics = Pictures(fig_dir.parent) if own else pictures
    plan, left_out = _figure_plan(jr, report) if plan is None else plan
    rel = fig_dir.name

    def draw(stem, builder, caption):
        from ..viz.style import save_figure

        fig = builder(jr)
        if fig is None:
            omitted.append({"figure": stem, "reason": "the plotting helpers are not available"})
            return []
        try:
            save_figure(fig, fig_dir / stem)
        finally:
            plt.close(fig)
        out.append({"file": f"{rel}/{stem}.png", "pdf": f"{rel}/{stem}.pdf", "caption": caption})
        return None

    for stem, builder, caption in plan:
        n_skipped = len(pics.skipped)
        pics.draw(f"{rel}/{stem}.png", [f"{rel}/{stem}.png", f"{rel}/{stem}.pdf"],
                  lambda b=builder, s=stem, c=caption: draw(s, b, c))
        for entry in pics.skipped[n_skipped:]:
            omitted.append({"figure": stem, "reason": f"drawing failed ({entry['reason']})"})
    for stem, reason in left_out:
        omitted.append({"figure": stem, "reason": reason})
        logger.info("figure %s left out: %s", stem, reason)
    return out


def _component_explorer(jr, out_dir: Path, pictures=None) -> str | None:
    """``explorer.html``: the components of G_X in the interactive explorer, best-effort; None when it was
    not written (too large for one page: an INFO line; any failure, no bokeh included: a warning)."""
    from ..errors import InputError
    from .pictures import Pictures

    pics = Pictures(out_dir) if pictures is None else pictures

    def page():
        from ..viz import explore_components

        try:
            explore_components(jr).save(out_dir / "explorer.html")
        except InputError as exc:
            pics.skip("explorer.html", str(exc))
            return []
        return None

    got = pics.draw("explorer.html", ["explorer.html"], page)
    if pictures is None:
        pics.close()
    return "explorer.html" if got else None


def _longest_label(jr) -> int:
    """Length of the longest sensitive or public label as text (0 for none)."""
    from .._guards import longest_label

    return max(longest_label(jr.sensitive_labels.tolist()), longest_label(jr.public_labels.tolist()))


def _overview_figure(jr):
    import numpy as np

    import graphpriv as gp
    from ..viz.style import PAGE_WIDTH, ROLE, new_figure, style_context

    comps = gp.components(jr)
    sizes = np.bincount(comps.public, minlength=comps.n_components)
    deg = jr.public_degrees
    fig, (a1, a2) = new_figure(PAGE_WIDTH, 2.4, ncols=2)
    with style_context():
        for ax, values, color, xlabel, title in (
            (a1, sizes, ROLE["public"], "component size (public values)", f"{comps.n_components} component{'s' if comps.n_components != 1 else ''} of $G_X$, "
             f"$I^*$ = {np.log2(comps.n_components):.2f} bits"),
            (a2, deg, ROLE["sensitive"], r"anonymity set size $|[\![S|x]\!]|$", f"k-anonymity: k = {int(deg.min())}"),
        ):
            u, c = np.unique(values, return_counts=True)
            if u.size <= 60:
                ax.bar(np.arange(u.size), c, color=color, width=0.8)
                step = max(1, int(np.ceil(u.size / 15)))
                ax.set_xticks(np.arange(u.size)[::step], [str(v) for v in u[::step]])
            else:
                bins = np.unique(np.geomspace(1, values.max() + 1, 40).astype(int))
                ax.hist(values, bins=bins, color=color)
                ax.set_xscale("log")
            if c.max() > 50 * max(1, c.min()):
                ax.set_yscale("log")
            else:
                from matplotlib.ticker import MaxNLocator

                ax.yaxis.set_major_locator(MaxNLocator(integer=True))
            ax.set_xlabel(xlabel)
            ax.set_ylabel("count")
            ax.set_title(title)
        fig.tight_layout()
    return fig


def _joint_range_figure(jr):
    from ..viz.style import PAGE_WIDTH, new_figure, style_context

    try:
        from ..viz import plot_joint_range
    except ImportError:  # pragma: no cover - viz helpers missing
        return None
    from ..viz.graphs import TICK_LABEL_CHARS

    w = min(PAGE_WIDTH, max(3.5, 0.25 * jr.n_public + 1.0))
    # the matrix rows (at least 0.16 in each, up to 5 in), the title and axis label, and the room of the rotated
    # public labels (elided to TICK_LABEL_CHARS characters, ~0.06 in each): long place names never take the
    # matrix's height
    longest = min(TICK_LABEL_CHARS, max(len(str(v)) for v in jr.public_labels.tolist()))
    labels_in = 0.06 * longest if jr.n_public > 12 else 0.25
    h = min(5.0, max(1.2, 0.16 * jr.n_sensitive)) + 0.9 + labels_in
    fig, ax = new_figure(w, h)
    with style_context():
        plot_joint_range(jr, ax, color_by="component", title=True)
        fig.tight_layout()
    return fig


def _min_cut_figure(jr):
    from ..viz.style import COLUMN_WIDTH, PAGE_WIDTH, new_figure, style_context

    from ..viz import plot_min_cut

    from ..viz.graphs import NODE_LINK_MAX_NODES

    if jr.n_public > NODE_LINK_MAX_NODES:  # the two sides of the cut and its edges, on a figure sized to fit them
        return plot_min_cut(jr, None, None, title=True).figure
    w = COLUMN_WIDTH if jr.n_public <= 30 else PAGE_WIDTH
    fig, ax = new_figure(w, w * 0.8)
    with style_context():
        plot_min_cut(jr, None, ax, labels=jr.n_public <= 40 or "auto", title=True)
        fig.tight_layout()
    return fig


def _confusability_figure(jr):
    from ..viz.style import COLUMN_WIDTH, PAGE_WIDTH, new_figure, style_context

    try:
        from ..viz import plot_confusability
    except ImportError:  # pragma: no cover
        return None
    w = COLUMN_WIDTH if jr.n_public <= 30 else PAGE_WIDTH
    fig, ax = new_figure(w, w * 0.8)
    with style_context():
        plot_confusability(jr, ax, title=True)
        fig.tight_layout()
    return fig
