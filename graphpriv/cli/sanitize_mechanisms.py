"""``graphpriv sanitize --mechanism NAME``: the mechanisms of the registry other than ``agglomerative``.

The mechanism is looked up in :mod:`graphpriv.mechanisms.registry` by name; its options are the flags
:func:`add_mechanism_arguments` adds to the parser from the registry (an option of another mechanism is
one line and exit 2). The run writes the same release folder as the agglomerative release:

- ``sanitized.csv`` / ``.parquet`` (or ``sanitized/`` for a folder or glob): the table with the public
  column released, every other field copied (CSV byte for byte, Parquet with its schema), streamed.
  A merge (watchdog, eps-delta) replaces each merged value by its block's generalisation label; a
  randomised release (linear reduction) replaces every row's value by a draw from K(.|x) of one
  generator ``numpy.random.default_rng(--seed)`` in row order (the same seed writes the same bytes).
- ``mapping.json``: the merge's values -> released values (:class:`graphpriv.Release`), or the kernel
  with the labels, the seed and the generator (:class:`graphpriv.RandomisedRelease`).
- ``trace.json``: the merge trace (:meth:`graphpriv.MergeTrace.to_json`) when the mechanism records
  one; otherwise it is listed in ``summary.json``'s ``omitted`` with the reason.
- ``summary.json``: ``{schema_version, input, mechanism: {name, paper, options, figures (the
  mechanism's own)}, release, noop, before (the table's stochastic measures,
  :func:`graphpriv.stochastic_measures`), after (the audited figures, recomputed from the written
  table), guarantee (audited), audit, rows, files, skipped, omitted}``.
- ``explorer.html`` (merges with a MergeTrace): best effort, one warning line on failure.

Before anything is committed the release is read back and audited: merges with
:func:`graphpriv.audit_release` (rows, unchanged cells, the partition found through the released
values) and the mechanism's guarantee recomputed from the released table's empirical distribution
(:mod:`graphpriv.release.merge_audit`); randomised releases with
:func:`graphpriv.release.randomised_stream.audit_randomised` (rows, every other cell unchanged, every
released value in its row's kernel support, the kernel's exact LDP and log-lift from ``mapping.json``). A broken guarantee commits
nothing: one line, exit 2.
"""

from __future__ import annotations

import argparse
import logging
import math
from pathlib import Path

logger = logging.getLogger("graphpriv.cli")

#: The stochastic mechanisms hold the table's pmf as a dense |S| x |X| matrix (8 bytes an entry, and a few
#: matrices of that size while they run): above this many entries the run is refused with one line.
DENSE_MAX_ENTRIES = 25_000_000

#: Options the agglomerative release adds to the parser itself (sanitize.py).
AGGLOMERATIVE_FLAGS = ("objective", "utility", "lam", "min_utility", "release", "search")


def add_mechanism_arguments(p: argparse.ArgumentParser) -> None:
    """``--mechanism`` and every registered mechanism's options (default None: a flag not given is
    told apart from its default)."""
    from ..mechanisms.registry import get_mechanism, mechanism_names

    names = mechanism_names()
    p.add_argument("--mechanism", default="agglomerative", choices=names, metavar="NAME",
                   help=f"the mechanism: {', '.join(names)} (default agglomerative, paper 003)")
    seen: dict[str, tuple] = {}
    for name in names:
        spec = get_mechanism(name)
        for o in spec.options:
            if o.name in AGGLOMERATIVE_FLAGS:
                continue
            if o.name in seen:
                seen[o.name][1].append(name)
                continue
            seen[o.name] = (o, [name])
    for o, users in seen.values():
        defaults = {u: get_mechanism(u).option(o.name).default for u in users}
        shown = {u: d for u, d in defaults.items() if d is not None and not getattr(get_mechanism(u).option(o.name), "required")}
        dflt = ""
        if len(set(map(str, shown.values()))) > 1:
            dflt = "; default " + ", ".join(f"{d} for {u}" for u, d in shown.items())
        kw = {"type": o.type, "default": None, "metavar": o.name.upper().replace("_", "-") if o.choices is None else None,
              "help": f"({', '.join(users)}) {o.help}{dflt}"}
        if o.choices is not None:
            kw["choices"] = o.choices
            kw.pop("metavar")
        p.add_argument(o.flag, **kw)


def given_options(args) -> dict:
    """Every registered option that was given on the command line."""
    from ..mechanisms.registry import get_mechanism, mechanism_names

    out = {}
    for name in mechanism_names():
        for o in get_mechanism(name).options:
            v = getattr(args, o.name, None)
            if v is not None:
                out[o.name] = v
    return out


def check_agglomerative(args) -> None:
    """The agglomerative release needs --objective, --utility and one of --lam/--min-utility, and takes
    no option of another mechanism."""
    from ..errors import InputError
    from ..mechanisms.registry import get_mechanism

    get_mechanism("agglomerative").resolve({k: v for k, v in given_options(args).items()
                                            if k not in ("objective", "utility")} | {"objective": "L0", "utility": "U1"})
    missing = [f for f, v in (("--objective", args.objective), ("--utility", args.utility)) if v is None]
    if missing:
        raise InputError(f"--mechanism agglomerative needs {' and '.join(missing)} (e.g. --objective L0 --utility U1)")
    if args.lam is None and args.min_utility is None:
        raise InputError("--mechanism agglomerative needs --lam X or --min-utility T")


def _base_value(base: str) -> float:
    return math.e if str(base) == "e" else 2.0


def run_registered(args, helpers) -> int:
    """Run ``args.mechanism`` from the registry and write its audited release (module docstring).

    ``helpers``: the release steps shared with the agglomerative command (``prepare_output``,
    ``bundled_source``, ``row_codes``, ``write_builtin_release``)."""
    import graphpriv as gp
    from .. import io as gio
    from ..distributions import JointDistribution
    from ..errors import InputError
    from ..mechanisms.registry import AuditContext, get_mechanism
    from ..outputs import input_paths
    from ..release.audit import AuditError
    from ..release.stream import check_rows_written, part_summary
    from .analyze import Progress, apply_verbosity, input_info, load_range, progress_enabled
    bundled_source, row_codes, write_builtin_release = helpers.bundled_source, helpers.row_codes, helpers.write_builtin_release

    apply_verbosity(args)
    quiet = getattr(args, "quiet", False)
    spec = get_mechanism(args.mechanism)
    opts = spec.resolve(given_options(args))
    if args.sensitive == args.public:
        raise InputError(f"--sensitive and --public both name column {args.public!r}; choose two different columns")
    out_dir, fmt, builtin, source = helpers.prepare_output(args)
    progress = Progress(7, "sanitize", progress_enabled(args))
    bundled_dir = None
    summary: dict = {}
    try:
        loaded, jr = load_range(args, progress, frame=builtin, values=not builtin)
        df_typed, value_codes = (loaded, None) if builtin else (None, loaded)
        base = _base_value(opts.get("base", "e"))
        eps_m = float(opts.get("eps", 1.0))
        with progress.step("mechanism"):
            if jr.n_sensitive * jr.n_public > DENSE_MAX_ENTRIES:
                raise InputError(f"--mechanism {spec.name} works on the |S| x |X| pmf of the table ({jr.n_sensitive:,} x "
                                 f"{jr.n_public:,} entries, more than {DENSE_MAX_ENTRIES:,}); coarsen S or X first (e.g. "
                                 "--mechanism agglomerative, which works on the sparse range)")
            jd = JointDistribution.from_range(jr)
            result = spec.run(jd, opts)
            release = spec.release(result, opts)
            figures = spec.figures(result, opts) if spec.figures is not None else {}
            before = gp.stochastic_measures(jr, eps_m, base=base).to_dict()
        randomised = spec.release_kind == "randomised"
        n_read = len(df_typed) if builtin else jr.source.n_rows
        noop = (not randomised) and release.is_noop
        mapping_text = release.to_json(public_column=args.public, sensitive_column=args.sensitive)
        summary = {"schema_version": 2, "input": input_info(args),
                   "mechanism": {"name": spec.name, "paper": spec.paper, "options": opts, "figures": figures},
                   "release": "randomised" if randomised else "label", "noop": noop, "before": before}
        with gio.staged_output(out_dir, overwrite=args.overwrite, command="sanitize", inputs=input_paths(args.data)) as tmp:
            with progress.step("write"):
                name = "sanitized.parquet" if fmt == "parquet" else "sanitized.csv"
                if builtin:
                    import tempfile

                    bundled_dir = tempfile.TemporaryDirectory(prefix="graphpriv-bundled-")
                    bundled = bundled_source(args, Path(bundled_dir.name))
                    audit_parts = [(bundled, tmp / name)]
                    if randomised:
                        from ..release.randomised_stream import label_lookup, write_randomised_parts

                        lookup = label_lookup(release.labels)
                        per_part = write_randomised_parts([(bundled, name)], "csv", args.public, args.sensitive, release,
                                                          lookup, tmp, sep=",", encoding="utf-8", na_values=["?"])
                        stats = per_part[0]
                    else:
                        codes = row_codes(release, df_typed[args.public])
                        stats = write_builtin_release(args, release, codes, tmp / name, src=bundled)
                    parts = [{"input": str(args.data), "output": name, "read": stats["read"], "written": stats["written"]}]
                    stats = {k: stats.get(k, 0) for k in ("read", "written", "replaced", "suppressed")}
                else:
                    from ..release.stream import part_outputs, write_parts

                    outputs = part_outputs(args.data, source, name)
                    if randomised:
                        from ..release.randomised_stream import write_randomised_parts

                        per_part = write_randomised_parts(outputs, fmt, args.public, args.sensitive, release,
                                                          value_codes.codes, tmp, sep=args.sep, encoding=args.encoding,
                                                          na_values=args.na_values)
                    else:
                        per_part = write_parts(outputs, fmt, args.public, release, value_codes, None, tmp, sep=args.sep,
                                               encoding=args.encoding, na_values=args.na_values,
                                               n_dropped=jr.source.n_dropped)
                    stats, parts, audit_parts = part_summary(per_part, outputs, source, tmp)
                check_rows_written(stats, n_read, args.data)
            with progress.step("audit"):
                scan = ({"sep": ",", "encoding": "utf-8", "na_values": ["?"]} if builtin else
                        {"sep": args.sep, "encoding": args.encoding, "na_values": args.na_values})
                codes_fn = None if builtin else value_codes.codes
                if randomised:
                    from ..release.randomised import RandomisedRelease
                    from ..release.randomised_stream import audit_randomised

                    written = RandomisedRelease.from_json(mapping_text)          # the kernel as mapping.json holds it
                    rep = audit_randomised(audit_parts, written, sensitive=args.sensitive, public=args.public,
                                           missing=args.missing, codes=codes_fn, base=base, eps=eps_m,
                                           promised={"ldp": getattr(result, "ldp", None),
                                                     "log_lift": getattr(result, "log_lift", None)}, **scan)
                    ctx = AuditContext(result, opts, written, counts=jr.counts, randomised=rep)
                    audit_info = {"rows": rep["rows"], "outside_support": rep["outside_support"]}
                    after_extra = {}
                else:
                    from ..release.audit import audit_release

                    rep = audit_release(audit_parts, release, sensitive=args.sensitive, public=args.public,
                                        missing=args.missing, codes=codes_fn, **scan)
                    if rep.rows_written != n_read and rep.ok:
                        rep.problems.append(f"{rep.rows_written} rows in the released table but {n_read} were read")
                    rep.check()
                    ctx = AuditContext(result, opts, release, counts=jr.counts, partition=rep.partition)
                    audit_info = {"rows": rep.rows_written, "n_clusters": rep.n_clusters}
                    after_extra = {"n_public": rep.n_clusters, "L0": rep.L0, "I_star": rep.I_star,
                                   "k_anonymity": rep.k_anonymity}
                audited, problems = spec.audit(ctx)
                if problems:
                    more = f" (and {len(problems) - 1} more problem(s))" if len(problems) > 1 else ""
                    raise AuditError(f"release audit failed, nothing written: {problems[0]}{more}")
                summary["after"] = {**audited, **after_extra}
                summary["guarantee"] = audited.get("guarantee")
                summary["audit"] = {"verified": True, **audit_info,
                                    "how": "the written table read back beside its input; the guarantee recomputed from "
                                           "its empirical distribution"}
                summary["rows"] = {"read": n_read, "written": stats["written"], "replaced_public": stats["replaced"],
                                   "suppressed_public": stats["suppressed"], "parts": parts}
            with progress.step("mapping"):
                gio.write_text(tmp / "mapping.json", mapping_text)
                files = [p["output"] for p in parts] + ["mapping.json"]
                omitted = []
                trace = getattr(result, "trace", None)
                if isinstance(trace, gp.MergeTrace):
                    gio.write_text(tmp / "trace.json", trace.to_json() + "\n")
                    files.append("trace.json")
                else:
                    why = ("a randomised release has no merges to trace" if randomised else
                           f"this version's {spec.name} result records no MergeTrace")
                    omitted.append({"file": "trace.json", "reason": why})
                files.append("summary.json")
            with progress.step("figures"):
                summary["skipped"] = []
                files += _pictures(spec.name, result, jd, opts, jr, tmp, args, summary, noop)
            summary["files"] = files
            summary["omitted"] = omitted
            gio.write_text(tmp / "summary.json", _json(gio.to_jsonable(_named_infinities(summary))))
    finally:
        progress.close()
        if bundled_dir is not None:
            bundled_dir.cleanup()
    if noop:
        logger.warning("nothing to merge: every public value is published as it is; the release equals the input")
    if not quiet:
        _print(summary, out_dir)
    return 0


def _named_infinities(obj):
    """``inf`` as ``"Infinity"`` (and ``-inf`` as ``"-Infinity"``) everywhere in ``obj``: JSON has no
    infinity, and an infinite eps_eff or LDP must not read as missing (NaN stays null)."""
    if isinstance(obj, dict):
        return {k: _named_infinities(v) for k, v in obj.items()}
    if isinstance(obj, (list, tuple)):
        return [_named_infinities(v) for v in obj]
    if isinstance(obj, float) and math.isinf(obj):
        return "Infinity" if obj > 0 else "-Infinity"
    return obj


def _json(doc) -> str:
    import json

    return json.dumps(doc, indent=1, ensure_ascii=False, allow_nan=True) + "\n"


#: Largest |X| the critical-sweep figure is drawn for (one marker per critical threshold).
SWEEP_MAX_PUBLIC = 5000


def _sweep_view(result, jd, opts, tmp: Path) -> list[str]:
    """``frontier.png/.pdf`` of a watchdog release: eps_eff, eps^c and NMIL at every critical threshold
    (Sadeghi, Ding & Rakotoarivelo, Sec. IV), the released eps marked."""
    import matplotlib.pyplot as plt

    from ..mechanisms.stochastic.optimal_merge import critical_sweep
    from ..viz import plot_critical_sweep
    from ..viz.style import COLUMN_WIDTH, ROLE, new_figure, save_figure, style_context

    if jd.n_public > SWEEP_MAX_PUBLIC:
        raise _Skip(f"{jd.n_public} public values, more than the {SWEEP_MAX_PUBLIC} the critical sweep draws legibly")
    sweep = critical_sweep(jd, base=_base_value(opts["base"]))
    finite = [lv for lv in sweep.levels if math.isfinite(lv.eps) and math.isfinite(lv.eps_eff)]
    if len(finite) < 2:
        raise _Skip("fewer than two finite critical thresholds (some public value never occurs with some sensitive "
                    "value: its log-lift is infinite)")
    sweep = type(sweep)(base=sweep.base, levels=tuple(finite))
    fig, ax = new_figure(COLUMN_WIDTH, COLUMN_WIDTH * 0.9)
    with style_context():
        plot_critical_sweep(sweep, ax)
        ax.set_title("")                                    # the legend sits above the axes: the title above it
        fig.suptitle(f"Watchdog over eps (dotted: released at eps = {opts['eps']:g})", fontsize=8)
        ax.axvline(opts["eps"], color=ROLE["cut"], lw=0.8, ls=":", zorder=0)
        fig.tight_layout()
    save_figure(fig, tmp / "frontier")
    plt.close(fig)
    return ["frontier.png", "frontier.pdf"]


def _alpha_view(result, jd, opts, tmp: Path) -> list[str]:
    """``frontier.png/.pdf`` of a linear reduction: exact LDP and log-lift of Y against alpha (Ding, Liu &
    Farokhi, Fig. 1; O(|S| |X|) per alpha), the released alpha marked."""
    import matplotlib.pyplot as plt
    import numpy as np
    import pandas as pd

    from ..mechanisms.stochastic.linear_mechanism import reduction_ldp, reduction_log_lift
    from ..viz.stochastic import plot_reduction_privacy
    from ..viz.style import COLUMN_WIDTH, ROLE, new_figure, save_figure, style_context

    b = _base_value(opts["base"])
    alphas = np.linspace(0.02, 1.0, 50)
    with np.errstate(invalid="ignore"):          # (1 - alpha) * inf at alpha = 1
        df = pd.DataFrame({"alpha": alphas, "ldp": reduction_ldp(jd, alphas, base=b),
                           "ldp_approx": reduction_ldp(jd, alphas, base=b, approx=True),
                           "log_lift": reduction_log_lift(jd, alphas, base=b),
                           "log_lift_approx": reduction_log_lift(jd, alphas, base=b, approx=True)})
    if not np.isfinite(df[["ldp", "log_lift"]].to_numpy()).all():
        raise _Skip("the LDP of the table is infinite at some alpha")
    df["ldp_approx"] = df["ldp_approx"].where(np.isfinite(df["ldp_approx"]))
    df["log_lift_approx"] = df["log_lift_approx"].where(np.isfinite(df["log_lift_approx"]))
    fig, ax = new_figure(COLUMN_WIDTH, COLUMN_WIDTH * 0.85)
    with style_context():
        plot_reduction_privacy(df, ax, unit="bits" if b == 2 else "nats",
                               title=f"Linear reduction: released at alpha = {opts['alpha']:g}")
        gone = [ln for ln in ax.get_lines() if not np.isfinite(np.asarray(ln.get_ydata(), dtype=float)).any()]
        for ln in gone:                         # X itself has infinite LDP / log-lift: no (1 - alpha) approximation
            ln.remove()
        if gone:
            ax.legend(frameon=False, loc="upper right", title="X itself: infinite (no first-order line)",
                      title_fontsize=6.5)
        ax.axvline(opts["alpha"], color=ROLE["cut"], lw=0.8, ls=":", zorder=0)
        fig.tight_layout()
    save_figure(fig, tmp / "frontier")
    plt.close(fig)
    return ["frontier.png", "frontier.pdf"]


class _Skip(Exception):
    """A picture left out on purpose (its reason goes to ``skipped``)."""


#: The privacy-utility view (``frontier.png``) of each mechanism; a mechanism without one draws none.
VIEWS = {"watchdog": _sweep_view, "eps-delta": _sweep_view, "linear-reduction": _alpha_view}


def _pictures(name, result, jd, opts, jr, tmp: Path, args, summary: dict, noop: bool) -> list[str]:
    """``frontier.png`` (:data:`VIEWS`) and ``explorer.html`` of a merge trace, best effort (one warning
    line and a ``skipped`` entry on failure)."""
    import graphpriv as gp
    from ..errors import InputError
    from .pictures import Pictures

    trace = getattr(result, "trace", None)
    view = VIEWS.get(name)
    pics = Pictures(tmp, (view is not None) + (not getattr(args, "no_explorer", False)))
    try:
        if view is not None:
            def draw():
                try:
                    return view(result, jd, opts, tmp)
                except _Skip as exc:
                    pics.skip("frontier.png", str(exc))
                    return []

            pics.draw("frontier.png", ["frontier.png", "frontier.pdf"], draw)
        if getattr(args, "no_explorer", False):
            pass
        elif noop:
            pics.skip("explorer.html", "nothing was merged (the release equals the input)")
        elif not isinstance(trace, gp.MergeTrace):
            pics.skip("explorer.html", "the mechanism records no merge trace to explore")
        else:
            def page():
                from ..viz import explore

                try:
                    explore(trace, jd).save(tmp / "explorer.html")     # a stochastic trace is read with its pmf
                except InputError as exc:
                    pics.skip("explorer.html", str(exc))
                    return []
                return ["explorer.html"]

            pics.draw("explorer.html", ["explorer.html"], page)
    finally:
        pics.close()
    summary["skipped"] = pics.skipped
    return pics.written


def _fmt(v) -> str:
    if isinstance(v, float):
        return "inf" if v == math.inf else f"{v:.4g}"
    return str(v)


def _print(summary: dict, out_dir: Path) -> None:
    from ..report.glossary import stochastic_glossary_lines

    m = summary["mechanism"]
    b, a = summary["before"], summary["after"]
    opts = ", ".join(f"{k} = {_fmt(v)}" for k, v in m["options"].items())
    print(f"graphpriv sanitize: {m['name']} ({opts}), release: {summary['release']}")
    print(f"  {m['paper']}")
    print(f"before ({b['unit']}): max |log-lift| = {_fmt(b['max_abs_log_lift'])}, I(S;X) = {_fmt(b['mutual_information'])}, "
          f"LDP = {_fmt(b['ldp'])}, |X| = {b['n_public']}")
    shown = {k: v for k, v in a.items() if isinstance(v, (int, float)) and not isinstance(v, bool) and k not in m["options"]}
    print("after (audited, from the written table): " + ", ".join(f"{k} = {_fmt(v)}" for k, v in shown.items()))
    if summary.get("guarantee"):
        print(f"guarantee: {summary['guarantee']}")
    rows = summary["rows"]
    print(f"rows: {rows['read']} read, {rows['written']} written (same order), {rows['replaced_public']} public value(s) "
          "rewritten" + (" -- nothing merged, the table is unchanged" if summary["noop"] else ""))
    print("\n".join(stochastic_glossary_lines()))
    print(f"wrote {', '.join(summary['files'])} to {out_dir}")


__all__ = ["add_mechanism_arguments", "run_registered", "check_agglomerative", "given_options"]
