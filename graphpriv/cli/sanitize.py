"""``graphpriv sanitize``: release a table with the public column coarsened by paper 003's mechanisms.

``--mechanism NAME`` picks the mechanism from :mod:`graphpriv.mechanisms.registry`: ``agglomerative``
(the default, described below), or ``watchdog``, ``eps-delta`` and ``linear-reduction``, which
:mod:`graphpriv.cli.sanitize_mechanisms` runs, writes and audits into the same release folder.

Runs Algorithm 1 (``--objective L0``), Algorithm 2 (``I*``) or Section V-C (``L0|I*=0``) of Ding &
Farokhi's agglomerative mechanisms with utility U1 or U2 and a Lagrange multiplier given by ``--lam``,
or chosen from the privacy-utility frontier as the most private point whose utility is at least
``--min-utility``. The mechanism runs once: for Algorithms 1 and 2 one λ-free trajectory gives the
frontier, the choice of λ, the trace and the release (the merge order does not depend on λ, only where
the run stops); for Section V-C the tree of trajectories over every λ >= 0
(:func:`graphpriv.section_vc_tree`) gives them. Writes into ``--out DIR``:

- ``sanitized.csv`` (or ``.parquet`` for Parquet input): the input table with the public column
  released (``--release``): ``label`` (default for U1) replaces a merged value by its cluster's
  generalisation label, an interval ``[240, 260]`` for numbers contiguous in value order, else a set
  ``{132, 243}``; ``codeword`` (default for U2) by the cluster's centroid rounded to the precision of
  the column; ``id`` by the cluster number. Values nothing was merged into stay exactly as they were.
  Every row, every other column and every unchanged field is copied exactly: CSV byte for byte
  (only the rewritten fields change), Parquet with its schema (types, nullability, metadata). A
  folder or glob (as ``graphpriv analyze`` takes) gives ``sanitized/``: one part per input file at
  its path relative to the folder (or to the glob's fixed leading folders). Files are never held in
  memory: the analysis keeps only the distinct pairs, and each file is then copied a block of CSV
  bytes or a Parquet record batch at a time while its rows get their codes from a streamed scan of
  its public column (:mod:`graphpriv.release.stream`); the rows written are checked against those
  read, per part and in total. Compressed CSV is refused (it cannot be copied byte for byte).
- ``mapping.json``: every public value -> released value, cluster id, and the clusters' members
  (schema :data:`graphpriv.MAPPING_SCHEMA_VERSION`, ``graphpriv/schemas/mapping.schema.json``);
  ``graphpriv.Release.from_json`` reads it back and ``.transform`` of the original column gives the
  released column.
- ``trace.json``: the merge sequence (:meth:`graphpriv.MergeTrace.to_json`).
- ``summary.json``: privacy and utility before and after, λ, release form, rows, and the audit.
- ``frontier.png/.pdf``: the frontier of (privacy, utility) over λ with the chosen point;
  ``merges.gif``: an animation of the merges (small ranges only; skipped when nothing is merged);
  ``explorer.html``: the interactive merge explorer (:func:`graphpriv.viz.explore`; one offline page,
  bokeh draws it). These pictures are best-effort: each is drawn after the table,
  mapping and trace are written, and one that fails is left out with one warning line on stderr and
  an entry ``{"file", "reason"}`` of ``summary.json``'s ``skipped`` list; the release is written whole.

Before anything is committed the release is audited (:func:`graphpriv.audit_release`): the written
table is read back beside its input, streamed, its public column mapped back to clusters through the
released values, and the partition, |X̂|, L0, I*, k-anonymity, U1 and U2 (with the codewords as
released: the rounded numbers in the file) are recomputed from it, with the row count and every
non-public cell (CSV: every field's text; Parquet: the other columns' types and values). Two clusters
under one released value, another row count, a changed non-public cell or privacy worse than the
mechanism's fail the run: nothing is written, one line, exit 2. ``summary.json``'s ``after`` holds the
audited figures, ``mechanism`` the mechanism's own, and ``audit.differences`` every figure where they
differ with the reason (e.g. ``"centroid 130.5 released as 130"``: U2 of the released table is the
distortion of the rounded codeword). Codewords are written at the column's precision, raised until
no two clusters share a rounded codeword (``audit.codeword_decimals``; the mapping's ``decimals``).
The bundled table (``hungarian``) is released in its own format: its records as written (``?`` for
missing, ``243`` not ``243.0``) under a header line.

A run that merges nothing (e.g. I* is already 0) says so on stderr and in ``summary.json``
(``"noop": true``) and copies the table unchanged.

``summary.json`` (schema version 2): ``{schema_version, input, objective, utility, release, lam,
lam_chosen_by, privacy_measure, noop, before: {privacy, utility, n_public, L0, I_star, k_anonymity},
after: {...same, audited...}, mechanism: {...same, the mechanism's...}, audit: {verified, rows, n_clusters,
codeword_decimals: {column, released} | null, differences: [{measure, mechanism, audited, reason}], notes},
rows: {read, written, replaced_public, suppressed_public, dropped_from_analysis,
missing_sensitive, missing_public, parts: [{input, output, read, written}]}, frontier: [{privacy, utility,
n_clusters, lam_min, lam_max}], files, skipped: [{file, reason}]}`` (``parts``: one per input file, its output path relative to ``--out``).
"""

from __future__ import annotations

import argparse
import logging
import math
from pathlib import Path

from .analyze import Progress, add_common_arguments, apply_verbosity, input_info, load_range, progress_enabled
from .sanitize_mechanisms import add_mechanism_arguments, check_agglomerative, run_registered

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
  graphpriv sanitize hungarian -s age -x chol --missing drop --objective 'I*' --utility U1 --lam 0 --release id --out release/
  graphpriv sanitize hungarian -s age -x chol --missing drop --mechanism watchdog --eps 1 --out release/
  graphpriv sanitize hungarian -s age -x chol --missing drop --mechanism eps-delta --eps 1 --delta 0.05 --out release/
  graphpriv sanitize hungarian -s age -x chol --missing drop --mechanism linear-reduction --alpha 0.5 --seed 7 --out release/

--mechanism: agglomerative (paper 003, the default; the options below), watchdog (--eps, --base e|2:
publish the values with max |log-lift| <= eps, merge the rest), eps-delta (--eps, --delta, --eps-bar,
--base) or linear-reduction (--alpha, --scheme markov|optimal, --seed, --base: a seeded randomised
release). An option of another mechanism is an error.

--objective: L0 (Algorithm 1, problem (3)), I* (Algorithm 2, problem (5)) or L0|I*=0 (Section V-C,
problem (10): the release always has I* = 0). Quote them in a shell ('I*').
--utility: U1 = I0(X -> X^) in bits (worst-case resolution kept); U2 = -(largest |x - codeword|) with
centroid codewords (needs numeric public values; missing values must be dropped: --missing drop).
--lam X runs with multiplier X; --min-utility T picks, from the frontier over λ
(graphpriv.pareto_frontier: exact over every λ >= 0 for all three objectives), the most private
release with utility >= T (U1: bits, e.g. 3; U2: minus the allowed distortion, e.g. -10). One run of
the mechanism gives the frontier, the chosen λ, the trace and the release.
--release: label (default for U1) writes "[240, 260]" for a cluster of numbers contiguous in value
order, else "{132, 243}"; codeword (default for U2) the cluster centroid rounded to the column's
precision (more digits when two clusters would share a codeword); id the cluster number. Values nothing was merged into stay as they were (label, codeword).
Parquet columns of dates, times or timestamps are released as intervals of time ("[2020-01-03,
2020-01-07]", U1); decimal and float32 columns as numbers in their own type.
The sanitised table keeps every row, every other column and every unchanged field exactly (CSV byte
for byte, Parquet with its schema); rows whose public value is missing stay missing (with --missing
drop a public value that occurs only in dropped rows is suppressed, i.e. left empty, and counted).
"""


def add_parser(sub) -> None:
    p = sub.add_parser(
        "sanitize",
        help="release the table with the public column merged (paper 003, the watchdog) or randomised (linear reduction)",
        description="Run a privacy mechanism (--mechanism: paper 003's agglomerative clustering by default, the "
        "privacy watchdog, (eps, delta) log-lift partitioning or the linear reduction) on the columns S = "
        "--sensitive and X = --public, replace X in a copy of the table, audit the written table, and write the "
        "sanitised table, the mapping, the merge trace, a frontier plot and (merges) an animation and explorer; "
        "print privacy and utility before and after.",
        epilog=EXAMPLES,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    add_common_arguments(p)
    p.add_argument("--objective", choices=("L0", "I*", "L0|I*=0"),
                   help="(agglomerative, required) privacy objective: L0 (Algorithm 1), I* (Algorithm 2), L0|I*=0 (Section V-C)")
    p.add_argument("--utility", choices=("U1", "U2"),
                   help="(agglomerative, required) utility: U1 = I0(X->X^), U2 = -max distortion")
    g = p.add_mutually_exclusive_group()
    g.add_argument("--lam", type=float, metavar="X", help="Lagrange multiplier λ >= 0")
    g.add_argument("--min-utility", type=float, metavar="T",
                   help="choose λ from the frontier: the most private release with utility >= T")
    p.add_argument("--release", choices=("label", "codeword", "id"),
                   help="what replaces a merged value: label (default for U1: '[240, 260]' or '{132, 243}'), "
                        "codeword (default for U2: the cluster centroid at the column's precision) or id (cluster number)")
    p.add_argument("--search", choices=("greedy", "interval"), default=None,
                   help="greedy: the paper's mechanism (default); interval: the optimal partition of the ordered "
                        "values into intervals (exact dynamic programming), released with '[a, b]' labels")
    p.add_argument("--out", metavar="DIR", help="output folder (default: <DATA stem>_sanitized)")
    p.add_argument("--no-animation", action="store_true", help="skip the merge animation")
    p.add_argument("--no-explorer", action="store_true", help="skip the interactive merge explorer (explorer.html)")
    add_mechanism_arguments(p)
    p.set_defaults(func=run)


# ---------------------------------------------------------------------- helpers
def numeric_values(jr, column: str, utility: str):
    """``{label: float}`` for U2 (None for U1): the rule of :func:`graphpriv.agglomerate` for U2 without
    values (:func:`graphpriv.mechanisms.quantization.problem.public_numbers`), so the command line and
    the Python API read the same numbers or refuse alike."""
    from ..mechanisms.quantization.problem import public_numbers

    if utility != "U2":
        return None
    return public_numbers(jr.public_labels.tolist(), column)


def result_at(jr, frontier, objective: str, utility: str, values, lam: float):
    """The result of ``graphpriv.agglomerate(jr, objective, lam, utility, values)``, read off the work
    the frontier already did: Algorithms 1 and 2 from the λ-free trajectory (the merge order does not
    depend on λ, only the step where ΔL >= 0 stops the run); Section V-C from the leaf of the tree of
    trajectories (:func:`graphpriv.section_vc_tree`) whose λ range holds ``lam``. Only a frontier with
    neither (a λ grid) runs the mechanism again."""
    import dataclasses

    import numpy as np

    import graphpriv as gp
    from ..mechanisms.quantization.agglomerative import _DL_TOL

    full = frontier.trace
    if full is None:
        if frontier.tree is not None:
            return frontier.tree.result_at(lam)
        return gp.agglomerate(jr, objective, lam, utility, values)
    priv = np.asarray(full.step_privacy, dtype=float)
    util = np.asarray(full.step_utility, dtype=float)
    T = len(priv) - 1
    nonempty = np.array([len(m) > 0 for m in full.step_merges[1:]], dtype=bool)
    with np.errstate(over="ignore"):     # λ·U overflowing to ±inf at a huge λ (--lam 1e308) is the value meant
        acc = ((np.diff(priv) - lam * np.diff(util)) < -_DL_TOL) & nonempty
        rejected = np.flatnonzero(~acc)
        returned = int(rejected[0]) if len(rejected) else T
        last = returned + 1 if len(rejected) else T          # a stopped run records its rejected step
        L = priv[:last + 1] - lam * util[:last + 1]
    trace = dataclasses.replace(
        full, lam=float(lam), step_merges=full.step_merges[:last + 1], step_privacy=full.step_privacy[:last + 1],
        step_utility=full.step_utility[:last + 1], step_L=tuple(L.tolist()),
        step_delta_L=(float("nan"),) + tuple(np.diff(L).tolist()), step_n_clusters=full.step_n_clusters[:last + 1],
        step_n_components=full.step_n_components[:last + 1],
        step_accepted=(True,) + tuple(acc[:last].tolist()), returned=returned)
    first, cid = np.unique(trace.cluster_ids(returned), return_inverse=True)   # clusters by smallest member code
    order = np.argsort(cid, kind="stable")
    bounds = np.concatenate([[0], np.cumsum(np.bincount(cid, minlength=len(first)))]).tolist()
    labels = full.public_labels
    by_code = [labels[i] for i in order.tolist()]
    quantization = [frozenset(by_code[bounds[k]:bounds[k + 1]]) for k in range(len(first))]
    if values is None:
        per_cluster = list(range(len(first)))
    else:                       # centroids as the mechanism computes them (mean of the members in code order)
        v = np.array([values[x] for x in labels], dtype=float)[order]
        per_cluster = [float(v[bounds[k]:bounds[k + 1]].mean()) for k in range(len(first))]
    mapping = dict(zip(labels, [per_cluster[k] for k in cid.tolist()]))
    return gp.AgglomerationResult(quantization=quantization, privacy=float(priv[returned]), utility=float(util[returned]),
                                  mapping=mapping, trace=trace, objective=full.objective, utility_name=full.utility,
                                  lam=float(lam), info=dict(full.info))


def interval_or_greedy(jr, frontier, result, lam: float, args, values):
    """The interval release, or the greedy mechanism's when that is better at the same λ / utility floor.

    The interval frontier (:func:`graphpriv.interval_frontier`) is exact over interval partitions for L0,
    but for I* and problem (10) some levels may only be bounded (``status="feasible"``), and a partition
    that is not an interval may beat every interval one. So the greedy frontier (Algorithms 1, 2 and
    Section V-C of Ding & Farokhi, *Developing Non-Stochastic Privacy-Preserving Policies Using
    Agglomerative Clustering*) is read at the same λ (``--lam``: the smaller Lagrangian wins) or floor
    (``--min-utility``: the more private release with utility >= the floor wins; ties keep the interval
    one), and the better result is released. Returns ``(result, lam, info)``; ``info`` says whether the
    interval frontier and the released point are certified, the proven gap, the greedy point and which was
    released, for ``summary.json`` and the printed summary."""
    import graphpriv as gp
    from ..errors import InputError

    gfront = gp.pareto_frontier(jr, args.objective, args.utility, values)
    chosen, chosen_lam, released = result, lam, "interval"
    if args.lam is not None:
        greedy = result_at(jr, gfront, args.objective, args.utility, values, lam)
        if greedy.privacy - lam * greedy.utility < result.privacy - lam * result.utility - 1e-9:
            chosen, released = greedy, "greedy"
    else:
        try:
            greedy, g_lam = choose_release(jr, gfront, args.objective, args.utility, values, args.min_utility)
        except InputError:
            greedy = None
        if greedy is not None and (greedy.privacy < result.privacy - 1e-9 or (
                abs(greedy.privacy - result.privacy) <= 1e-9 and greedy.utility > result.utility + 1e-9)):
            chosen, chosen_lam, released = greedy, g_lam, "greedy"
    point = min(frontier.points, key=lambda p: abs(p.privacy - result.privacy) + abs(p.utility - result.utility))
    gap = frontier.gap
    info = {"certified": bool(frontier.certified), "gap": None if not math.isfinite(gap) else float(gap),
            "point_status": point.status, "point_bound": float(point.bound),
            "interval": {"privacy": result.privacy, "utility": result.utility},
            "greedy": None if greedy is None else {"privacy": greedy.privacy, "utility": greedy.utility},
            "released": released}
    notes = []
    if point.status != "optimal":
        notes.append(f"the interval point is not certified optimal among interval partitions: its utility "
                     f"{point.utility:.4g} may be below the best by up to {point.bound - point.utility:.4g} "
                     f"(proven bound {point.bound:.4g}; whole frontier's gap {gap:.3g} of the utility range)")
    if released == "greedy":
        notes.append(f"the greedy mechanism does better here (privacy {greedy.privacy:.4g}, utility "
                     f"{greedy.utility:.4g} against the interval partition's {result.privacy:.4g}, "
                     f"{result.utility:.4g}): the greedy release is written, its clusters need not be intervals")
    info["notes"] = notes
    for note in notes:
        logger.warning("--search interval: %s", note)
    return chosen, chosen_lam, info


def choose_release(jr, frontier, objective: str, utility: str, values, min_utility: float):
    """The most private frontier point with utility >= ``min_utility``, released at a λ that selects it.

    ``frontier`` is :func:`graphpriv.pareto_frontier`'s result: each point carries the λ range
    [lam_min, lam_max) selecting it. Ties in privacy go to the larger utility. Returns ``(result, lam)``.

    Raises
    ------
    InputError
        When no release reaches ``min_utility`` (the threshold is above the utility of X itself).
    """
    from ..errors import InputError

    pts = [p for p in frontier.points if p.utility >= min_utility - 1e-12]
    if not pts:
        best = max(p.utility for p in frontier.points)
        raise InputError(f"no release reaches --min-utility {min_utility:g}; the most useful one has utility {best:.4g} "
                         "(the original data); lower the threshold")
    point = min(pts, key=lambda p: (round(p.privacy, 12), -p.utility))
    lo, hi = point.lam_min, point.lam_max
    # the middle of the λ range first: at its ends ΔL ties (a breakpoint, or λ ~ 0 where only the tie
    # key decides), and a run at the λ written to summary.json must give this same release
    mid = (lo + hi) / 2 if math.isfinite(hi) else max(lo * 2, 1.0)
    candidates = [lam for lam in (mid, lo, hi * (1 - 1e-9)) if math.isfinite(lam) and lam >= 0]
    fallback = None
    for lam in candidates:
        r = result_at(jr, frontier, objective, utility, values, lam)
        if abs(r.privacy - point.privacy) <= 1e-9 and abs(r.utility - point.utility) <= 1e-9:
            return r, lam
        if r.utility >= min_utility - 1e-12 and (fallback is None or r.privacy < fallback[0].privacy):
            fallback = (r, lam)
    if fallback is None:  # pragma: no cover - a frontier point is always selected by its own λ range
        raise InputError(f"no λ reproduces the frontier point with utility {point.utility:.4g}; pass --lam instead")
    logger.warning("λ = %g gives privacy %.4f, not the frontier's %.4f", fallback[1], fallback[0].privacy, point.privacy)
    return fallback


def public_decimals(args, fmt: str, typed_column, jr=None):
    """Precision of the public column: digits after the point as written (CSV), the scale of a
    decimal or 0 for an integer type (Parquet), else from the values' shortest form.

    For CSV the texts as written are the joint range's public labels when every row is in the range
    (none dropped) and the labels are text or integers: then the file is not read again. Otherwise a
    file's column is scanned batch by batch (:func:`graphpriv.release.stream.scan_decimals`: the
    distinct raw texts of each batch); ``typed_column`` (the bundled table's column) is read in memory."""
    import numpy as np
    import pandas as pd

    from ..release.labels import column_decimals

    if fmt == "csv" and jr is not None and jr.source is not None and jr.source.n_dropped == 0:
        labels = jr.public_labels
        # integer labels are read from canonical integer text ("7", "-12": no digits after a point)
        if labels.dtype.kind in "iu" or all(isinstance(v, str) or (isinstance(v, (int, np.integer)) and not isinstance(v, bool))
                                            for v in labels.tolist()):
            return column_decimals(labels)
    if fmt == "parquet":
        import pyarrow as pa
        import pyarrow.parquet as pq

        from ..ingest import resolve_source

        t = pq.read_schema(str(resolve_source(args.data).files[0])).field(args.public).type
        if pa.types.is_integer(t):
            return 0
        if pa.types.is_decimal(t):
            return int(t.scale)
    if typed_column is None:
        from ..release.stream import scan_decimals

        return scan_decimals(args.data, args.public, fmt, sep=args.sep, encoding=args.encoding)
    return column_decimals(pd.unique(pd.Series(typed_column).dropna().to_numpy(dtype=object)))


def row_codes(release, typed_column):
    """Per row: the code of its public value in ``release.labels``; CODE_MISSING for a missing value
    without a label of its own, CODE_SUPPRESSED for a value outside the labels. Vectorised."""
    import numpy as np
    import pandas as pd

    from ..release.writer import CODE_MISSING, CODE_SUPPRESSED

    col = pd.Series(typed_column).reset_index(drop=True)
    codes = release.codes(col, unknown="ignore")
    na = col.isna().to_numpy()
    out = np.where(codes >= 0, codes, np.where(na, CODE_MISSING, CODE_SUPPRESSED))
    return out.astype(np.int64)


def bundled_source(args, folder: Path) -> Path:
    """The bundled table as the CSV file it is released as: its header line, then the bundled file's
    records byte for byte (missing values as ``?``, numbers as written)."""
    from importlib import resources

    from ..datasets import HUNGARIAN_COLUMNS

    raw = resources.files("graphpriv.data").joinpath("processed.hungarian.data").read_bytes()
    path = folder / "hungarian.csv"
    path.write_bytes((",".join(HUNGARIAN_COLUMNS) + "\n").encode() + raw)
    return path


#: Missing-value token of the bundled table.
BUNDLED_NA = ("?",)


def write_builtin_release(args, release, codes, path: Path, src: Path | None = None) -> dict:
    """Write the release of the bundled table to ``path`` in the bundled file's own format (CSV with a
    header line, every field as written, ``?`` for missing; only the public fields of changed rows are
    rewritten). ``src`` is :func:`bundled_source`'s file (made here when not given). Returns the row
    counts."""
    import tempfile

    from ..release import writer as rw

    with tempfile.TemporaryDirectory(prefix="graphpriv-bundled-") as tmp:
        src = bundled_source(args, Path(tmp)) if src is None else src
        texts = [rw.released_text(v, release.decimals) if c else "" for v, c in zip(release.released, release.changed.tolist())]
        replaced = release.changed[release.cluster]
        return rw.write_csv_release(src, path, args.public, [codes], replaced, texts, text_index=release.cluster, sep=",",
                                    encoding="utf-8")


def _default_out(data) -> Path:
    """``<DATA stem>_sanitized``; for a glob, the name of its fixed leading folder."""
    from ..ingest.sources import _is_glob, glob_base

    p = Path(str(data))
    if _is_glob(str(data)):
        p = glob_base(str(data)).resolve()
    return Path(f"{p.name.split('.')[0] or 'data'}_sanitized")


def _check_out_outside(args, out_dir: Path) -> None:
    """Refuse an output folder inside the input folder, or below the fixed folders of a recursive glob
    (``**``): a later run would read the release as input."""
    from ..errors import InputError
    from ..ingest.sources import _is_glob, glob_base

    data = Path(str(args.data))
    base = data if data.is_dir() else glob_base(str(args.data)) if _is_glob(str(args.data)) and "**" in str(args.data) \
        else None
    if base is not None:
        d, o = base.resolve(), out_dir.resolve()
        if o == d or d in o.parents:
            raise InputError(f"--out {str(out_dir)!r} is inside the input folder {str(args.data)!r}; write the release "
                             "outside it (a later run would read the release as input)")


def prepare_output(args) -> tuple:
    """``(out_dir, fmt, builtin, source)`` of a sanitize run: the output folder (``--out`` or the default), the
    input's format, whether it is bundled data, and the checked source of a file input. A compressed CSV, a
    public column held in folder names, or an ``--out`` inside the input folder is refused before anything is
    read."""
    from .. import io as gio

    out_dir = Path(args.out) if args.out is not None else _default_out(args.data)
    fmt = gio.table_format(args.data)
    builtin = fmt == "builtin"
    source = None
    if not builtin:
        from ..release.stream import check_writable

        source = check_writable(args.data, args.public, sep=args.sep, encoding=args.encoding)
        _check_out_outside(args, out_dir)
    return out_dir, fmt, builtin, source


# ---------------------------------------------------------------------- main
def run(args) -> int:
    import graphpriv as gp
    from .. import io as gio
    from ..outputs import input_paths
    from ..errors import InputError
    from ..release.labels import default_release
    from ..release.mapping import Release, json_document
    from ..release.stream import check_rows_written, part_summary

    apply_verbosity(args)
    if getattr(args, "mechanism", "agglomerative") != "agglomerative":     # the registry's other mechanisms
        from types import SimpleNamespace

        return run_registered(args, SimpleNamespace(prepare_output=prepare_output,
                                                    bundled_source=bundled_source, row_codes=row_codes,
                                                    write_builtin_release=write_builtin_release))
    check_agglomerative(args)
    quiet = getattr(args, "quiet", False)
    if args.lam is not None and not (math.isfinite(args.lam) and args.lam >= 0):
        raise InputError(f"--lam must be a finite number >= 0, got {args.lam}")
    if args.min_utility is not None and not math.isfinite(args.min_utility):
        raise InputError(f"--min-utility must be a finite number, got {args.min_utility}")
    if args.sensitive == args.public:
        raise InputError(f"--sensitive and --public both name column {args.public!r}; the release would overwrite the "
                         "sensitive column -- choose two different columns")
    interval = getattr(args, "search", "greedy") == "interval"
    mode = getattr(args, "release", None) or ("label" if interval else default_release(args.utility))
    if mode == "codeword" and args.utility != "U2":
        raise InputError("--release codeword needs --utility U2 (codewords are cluster centroids); use --release label or id")
    out_dir, fmt, builtin, source = prepare_output(args)
    progress = Progress(8, "sanitize", progress_enabled(args))
    bundled_dir = None
    try:
        # files: streamed, the rows are never held (value_codes gives each batch its codes while writing)
        loaded, jr = load_range(args, progress, frame=builtin, values=not builtin)
        df_typed, value_codes = (loaded, None) if builtin else (None, loaded)
        del loaded
        values = numeric_values(jr, args.public, args.utility)
        with progress.step("mechanism"), progress.merges(jr.n_public):
            if interval:   # the optimal interval partition (exact DP) at λ or the utility floor
                frontier = gp.interval_frontier(jr, args.objective, args.utility, values)
                result = gp.interval_release(jr, args.objective, args.lam, args.utility, values,
                                             min_utility=args.min_utility, frontier=frontier)
                lam = result.lam
                # never worse than the paper's greedy mechanism at the same λ (or utility floor)
                result, lam, interval_info = interval_or_greedy(jr, frontier, result, lam, args, values)
            elif args.lam is not None:
                frontier = gp.pareto_frontier(jr, args.objective, args.utility, values)
                lam = args.lam
                result = result_at(jr, frontier, args.objective, args.utility, values, lam)
            else:
                frontier = gp.pareto_frontier(jr, args.objective, args.utility, values)
                result, lam = choose_release(jr, frontier, args.objective, args.utility, values, args.min_utility)
            qjr = gp.quantize_range(jr, result.quantization)
            measures_before = {"L0": gp.L0(jr), "I_star": gp.maximin_information(jr), "k_anonymity": gp.k_anonymity(jr)}
            measures_after = {"L0": gp.L0(qjr), "I_star": gp.maximin_information(qjr), "k_anonymity": gp.k_anonymity(qjr)}
        with progress.step("release"):
            typed = df_typed[args.public] if builtin else None
            decimals = public_decimals(args, fmt, typed, jr) if mode == "codeword" else None
            release = Release.from_result(result, mode, decimals=decimals)
            codes = row_codes(release, typed) if builtin else None
            n_read = len(df_typed) if builtin else jr.source.n_rows
            del df_typed, typed
            mapping_text = release.to_json(public_column=args.public, sensitive_column=args.sensitive)
            noop = release.is_noop
            privacy_name = "I*" if args.objective == "I*" else "L0"
            summary = {
                "schema_version": 2,
                "input": input_info(args),
                "objective": args.objective, "utility": args.utility, "release": mode, "lam": lam,
                "lam_chosen_by": "--lam" if args.lam is not None else f"--min-utility {args.min_utility:g} (frontier)",
                "privacy_measure": privacy_name,
                "noop": noop,
                "before": {"privacy": frontier.privacy_of_x, "utility": frontier.utility_of_x, "n_public": jr.n_public,
                           **measures_before},
                "after": {"privacy": result.privacy, "utility": result.utility, "n_public": result.n_clusters, **measures_after},
                "frontier": [{"privacy": p.privacy, "utility": p.utility, "n_clusters": _n_clusters(frontier, p),
                              "lam_min": p.lam_min, "lam_max": p.lam_max} for p in frontier.points],
            }
        if interval:   # the release is the optimal interval partition, not the greedy mechanism's
            summary["search"] = "interval"
            summary["interval_search"] = interval_info
        with gio.staged_output(out_dir, overwrite=args.overwrite, command="sanitize",
                                inputs=input_paths(args.data)) as tmp:
            with progress.step("write"):
                name = "sanitized.parquet" if fmt == "parquet" else "sanitized.csv"
                if builtin:
                    import tempfile

                    bundled_dir = tempfile.TemporaryDirectory(prefix="graphpriv-bundled-")
                    bundled = bundled_source(args, Path(bundled_dir.name))
                    stats = write_builtin_release(args, release, codes, tmp / name, src=bundled)
                    parts = [{"input": str(args.data), "output": name, "read": stats["read"], "written": stats["written"]}]
                    audit_parts = [(bundled, tmp / name)]
                else:
                    from ..release.stream import part_outputs, write_parts

                    outputs = part_outputs(args.data, source, name)
                    per_part = write_parts(outputs, fmt, args.public, release, value_codes, release.decimals, tmp,
                                           sep=args.sep, encoding=args.encoding, na_values=args.na_values,
                                           n_dropped=jr.source.n_dropped)
                    stats, parts, audit_parts = part_summary(per_part, outputs, source, tmp)
                check_rows_written(stats, n_read, args.data)
            with progress.step("audit"):
                report = audit_written(args, release, result, audit_parts, builtin, value_codes, codes, values, n_read)
                summary["mechanism"] = summary["after"]
                summary["after"] = report.measures(args.utility, args.objective)
                summary["audit"] = audit_summary(report, summary["mechanism"], summary["after"], release, decimals,
                                                 args.utility)
                summary["rows"] = {"read": n_read, "written": stats["written"], "replaced_public": stats["replaced"],
                                   "suppressed_public": stats["suppressed"],
                                   **({} if jr.source is None else {"dropped_from_analysis": jr.source.n_dropped,
                                                                    "missing_sensitive": jr.source.n_missing_sensitive,
                                                                    "missing_public": jr.source.n_missing_public}),
                                   "parts": parts}
            with progress.step("mapping"):
                gio.write_text(tmp / "mapping.json", mapping_text)
                trace = result.trace
                # indented when small: json's indenting encoder is pure Python (19 s for a trace of 10^6 merges
                # in 12 steps, against 3 s compact), so the size is the number of merges, not of steps
                small = sum(len(m) for m in trace.step_merges) <= 2000
                gio.write_text(tmp / "trace.json", trace.to_json(**({"indent": 1} if small else {})) + "\n")
                summary["files"] = [p["output"] for p in parts] + ["mapping.json", "trace.json", "summary.json"]
            with progress.step("figures"):
                summary["files"] += _pictures(frontier, lam, result, jr, values, args, tmp, noop, summary)
            frontier_rows = summary.pop("frontier")
            columns = {k: [None if isinstance(p[k], float) and not math.isfinite(p[k]) else p[k] for p in frontier_rows]
                       for k in ("privacy", "utility", "n_clusters", "lam_min", "lam_max")}
            gio.write_text(tmp / "summary.json", json_document(gio.to_jsonable(summary), {"frontier": columns}))
    finally:
        progress.close()
        if bundled_dir is not None:
            bundled_dir.cleanup()
    for note in summary["audit"]["notes"]:
        logger.info("%s", note)
    if noop:
        logger.warning("nothing to merge: %s", _noop_reason(result, measures_before, args))
    if not quiet:
        _print_quietly_failing(summary, args, out_dir)
    return 0


def _print_quietly_failing(summary: dict, args, out_dir: Path) -> None:
    """Print the summary; the release is committed by now, so an unwritable stdout (a full disk, a
    closed pipe) must not turn the run into a failure: the print is dropped (stdout then goes to
    the null device, so the interpreter's final flush does not fail either)."""
    import os
    import sys

    try:
        _print_summary(summary, args, out_dir)
        sys.stdout.flush()
    except (OSError, ValueError):
        try:
            devnull = os.open(os.devnull, os.O_WRONLY)
            os.dup2(devnull, sys.stdout.fileno())
            os.close(devnull)
        except (OSError, ValueError):  # pragma: no cover - no file descriptor behind sys.stdout
            pass
        logger.info("the summary could not be printed (stdout is not writable); the release is in %s", out_dir)


def audit_written(args, release, result, parts, builtin: bool, value_codes, codes, values, n_read: int):
    """Audit the staged release (:func:`graphpriv.audit_release`): the written parts read back beside
    their inputs, the public values found by the codes the writer used (ingestion's for files, the
    bundled table's row codes); raises :class:`graphpriv.release.audit.AuditError` on a failure."""
    import numpy as np

    from ..release.audit import audit_release

    if builtin:
        done = [0]

        def lookup(arr):
            a = done[0]
            done[0] += len(arr)
            return np.asarray(codes[a:done[0]])

        opts = {"sep": ",", "encoding": "utf-8", "na_values": list(BUNDLED_NA)}
    else:
        lookup = value_codes.codes
        opts = {"sep": args.sep, "encoding": args.encoding, "na_values": args.na_values}
    report = audit_release(parts, release, sensitive=args.sensitive, public=args.public, missing=args.missing,
                           codes=lookup, values=values, objective=args.objective, promised_privacy=result.privacy, **opts)
    if report.rows_written != n_read and report.ok:
        report.problems.append(f"{report.rows_written} rows in the released table but {n_read} were read")
    if report.ok and report.n_clusters != result.n_clusters:
        report.problems.append(f"the released table has {report.n_clusters} released values but the mechanism "
                               f"{result.n_clusters} clusters")
    return report.check()


def audit_summary(report, mechanism: dict, audited: dict, release, column_decimals, utility: str) -> dict:
    """``summary.json``'s ``audit``: what was checked, and every figure where the file and the mechanism
    differ, with the reason (e.g. a centroid rounded when released)."""
    notes = []
    if release.mode == "codeword" and release.decimals != column_decimals:
        notes.append(f"codewords written with {release.decimals} decimal(s), not the column's {column_decimals}: at "
                     "the column's precision two clusters would have had one codeword")
    rounded = [(k, cw["centroid"], release.released[k]) for k, cw in sorted(report.codewords.items())
               if cw["from"] == "file" and abs(cw["centroid"] - cw["codeword"]) > 1e-12 * max(1.0, abs(cw["centroid"]))]
    differences = []
    for key in ("privacy", "utility", "n_public", "L0", "I_star", "k_anonymity"):
        m, a = mechanism.get(key), audited.get(key)
        if m is None or a is None or (isinstance(m, float) and isinstance(a, float) and abs(m - a) <= 1e-9) or m == a:
            continue
        if key == "utility" and utility == "U2" and rounded:
            shown = ", ".join(f"centroid {c:.10g} released as {r}" for _, c, r in rounded[:3])
            reason = f"U2 with the codewords as released: {shown}" + (f" (and {len(rounded) - 3} more)" if len(rounded) > 3 else "")
        else:
            reason = "recomputed from the released table"
        differences.append({"measure": key, "mechanism": m, "audited": a, "reason": reason})
    for d in differences:
        notes.append(f"{d['measure']}: {d['audited']:.6g} in the released table, {d['mechanism']:.6g} by the mechanism "
                     f"({d['reason']})")
    return {"verified": True, "rows": report.rows_written, "n_clusters": report.n_clusters,
            "codeword_decimals": ({"column": column_decimals, "released": release.decimals}
                                  if release.mode == "codeword" else None),
            "differences": differences, "notes": notes}


def _n_clusters(frontier, point) -> int:
    """|Q| of a frontier point, read off the shared trajectory when there is one (no replay)."""
    if frontier.trace is not None and point.t is not None:
        return int(frontier.trace.step_n_clusters[point.t])
    return point.n_clusters


def _noop_reason(result, measures_before, args) -> str:
    if args.objective == "I*" and measures_before["I_star"] == 0:
        why = "I* is already 0 (G_X is connected)"
    elif result.trace is not None and len(result.trace) == 1:
        why = "the range has a single public value" if result.n_clusters == 1 else "no merge lowers the Lagrangian"
    else:
        why = f"no merge lowers the Lagrangian at λ = {result.lam:g}"
    return f"{why}; the release equals the input (no animation)"


def _print_summary(summary: dict, args, out_dir: Path) -> None:
    b, a = summary["before"], summary["after"]
    print(f"graphpriv sanitize: {args.objective} with {args.utility}, λ = {summary['lam']:.6g} ({summary['lam_chosen_by']}), "
          f"release: {summary['release']}")
    for name, d, size in (("before:", b, "|X|"), ("after: ", a, "|X^|")):
        d = {k: (v + 0.0 if isinstance(v, float) else v) for k, v in d.items()}   # no "-0.0000"
        others = ", ".join(f"{m} = {d[k]:.4f}" for m, k in (("L0", "L0"), ("I*", "I_star")) if m != summary["privacy_measure"])
        print(f"{name} {summary['privacy_measure']} = {d['privacy']:.4f} bits, {args.utility} = {d['utility']:.4f}, "
              f"{size} = {d['n_public']}, {others}, k = {d['k_anonymity']}")
    search = summary.get("interval_search")
    if search is not None:
        proof = "certified optimal among interval partitions" if search["point_status"] == "optimal" else \
            f"NOT certified (utility bound {search['point_bound']:.4g})"
        print(f"search: interval ({proof}); released the {search['released']} partition"
              + ("" if search["greedy"] is None else f" (greedy at the same setting: privacy "
                 f"{search['greedy']['privacy']:.4f}, utility {search['greedy']['utility']:.4f})"))
    rows = summary["rows"]
    print(f"rows: {rows['read']} read, {rows['written']} written (same order), {rows['replaced_public']} public value(s) "
          "replaced" + (f", {rows['suppressed_public']} suppressed" if rows["suppressed_public"] else "")
          + (" -- nothing merged, the table is unchanged" if summary["noop"] else ""))
    audit = summary.get("audit")
    if audit is not None:
        diffs = "".join(f"; {d['measure']} = {d['audited']:.4g} (mechanism: {d['mechanism']:.4g}, {d['reason']})"
                        for d in audit["differences"])
        dec = audit.get("codeword_decimals") or {}
        if dec and dec["released"] != dec["column"]:
            diffs += f"; codewords written with {dec['released']} decimal(s), not the column's {dec['column']}, so no " \
                     "two clusters share one"
        print(f"audit: the released table read back, {audit['rows']} rows, |X^| = {audit['n_clusters']}: the figures "
              f"'after' are the table's{diffs}")
    files = [f for f in summary["files"] if not f.startswith("sanitized/")]
    n_parts = len(summary["files"]) - len(files)
    if n_parts:
        files.insert(0, f"sanitized/ ({n_parts} part{'s' if n_parts != 1 else ''})")
    from ..report.glossary import glossary_lines
    print("\n".join(glossary_lines(["L0", "I*", args.utility, "k", "lambda", "L"])))
    print(f"wrote {', '.join(files)} to {out_dir}")


def _frontier_figure(frontier, lam, result, args, tmp: Path) -> list[str]:
    """The frontier (privacy in bits against utility) with the released point starred."""
    import matplotlib.pyplot as plt

    from ..viz import plot_frontier
    from ..viz.frontiers import legend_clear_of_lines
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
        over = "a grid of λ" if frontier.method == "greedy-per-lambda" else "every λ ≥ 0"
        ax.set_title(f"{args.objective} with {args.utility}: privacy-utility frontier over {over}")
        ax.locator_params(axis="x", nbins=4)       # long utility ticks (-0.000245) never overprint
        fig.tight_layout()
        legend_clear_of_lines(ax, frameon=False)   # placed on the final layout, clear of the frontier line
    save_figure(fig, tmp / "frontier")
    plt.close(fig)
    return ["frontier.png", "frontier.pdf"]


def _animation(result, jr, tmp: Path) -> list[str]:
    """``merges.gif``: the merges frame by frame (at most :data:`ANIMATION_MAX_FRAMES` steps)."""
    from ..viz import animate_trace
    from ..viz.overview import NODE_LINK_MAX
    from ..viz.style import COLUMN_WIDTH, PAGE_WIDTH

    trace = result.trace
    n = len(trace)
    steps = list(range(n))
    if n > ANIMATION_MAX_FRAMES:
        steps = sorted({round(i * (n - 1) / (ANIMATION_MAX_FRAMES - 1)) for i in range(ANIMATION_MAX_FRAMES)} | {trace.returned})
    width = COLUMN_WIDTH if jr.n_public <= 30 else PAGE_WIDTH * 0.75 if jr.n_public <= NODE_LINK_MAX else PAGE_WIDTH
    animate_trace(trace, jr, tmp / "merges.gif", fps=1.5, steps=steps, width=width)
    return ["merges.gif"]


def _explorer(result, jr, values, tmp: Path) -> list[str]:
    """``explorer.html``: the interactive merge explorer (:func:`graphpriv.viz.explore`)."""
    from ..viz import explore

    explore(result, jr, values=values).save(tmp / "explorer.html")
    return ["explorer.html"]


def _pictures(frontier, lam, result, jr, values, args, tmp: Path, noop: bool, summary: dict) -> list[str]:
    """Draw the frontier figure, the merge animation and the explorer, each best-effort
    (:class:`graphpriv.cli.pictures.Pictures`): a failure is one warning line and an entry of
    ``summary["skipped"]`` (``{"file", "reason"}``); what was drawn is returned (file names)."""
    from ..errors import InputError
    from .analyze import progress_enabled
    from .pictures import ANNOUNCE_MIN_PUBLIC, Pictures

    animation = not args.no_animation and not noop
    explorer = not getattr(args, "no_explorer", False) and not noop
    quiet = getattr(args, "quiet", False)
    too_many = jr.n_public > ANIMATION_MAX_PUBLIC
    pics = Pictures(tmp, 1 + (animation and not too_many) + explorer, bar=progress_enabled(args),
                    announce=not quiet and jr.n_public >= ANNOUNCE_MIN_PUBLIC)
    try:
        pics.draw("frontier.png", ["frontier.png", "frontier.pdf"], lambda: _frontier_figure(frontier, lam, result, args, tmp))
        if noop:  # nothing to animate or explore; said once on stderr, listed here with the reason
            for name, asked in (("merges.gif", not args.no_animation), ("explorer.html", not getattr(args, "no_explorer", False))):
                if asked:
                    pics.skip(name, "nothing was merged (the release equals the input)")
        if animation:
            if too_many:
                pics.skip("merges.gif", f"{jr.n_public} public values, more than the {ANIMATION_MAX_PUBLIC} the animation "
                                        "draws legibly")
            else:
                pics.draw("merges.gif", ["merges.gif"], lambda: _animation(result, jr, tmp))
        if explorer:
            def page():
                try:                            # any other error (no bokeh included) is a warning
                    return _explorer(result, jr, values, tmp)
                except InputError as exc:       # too large for one page: left out on purpose
                    pics.skip("explorer.html", str(exc))
                    return []

            pics.draw("explorer.html", ["explorer.html"], page)
    finally:
        pics.close()
    summary["skipped"] = pics.skipped
    return pics.written
