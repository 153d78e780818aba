"""The API reference page (docs/api.rst): every name of ``graphpriv.__all__``, grouped by topic.

The Sphinx build renders the page from :func:`render` (docs/conf.py), so a new public name is never
missing; ``python docs/_api.py`` refreshes the committed copy, docs/api.rst, for readers of the repository.
"""

from __future__ import annotations

import inspect
import sys
from pathlib import Path

#: The order of the reference, the same as ``help(graphpriv)``: data, graphs, measures, mechanisms by paper,
#: analysis, viz, release, input/output, then citations and errors.
#: (title, intro, module prefixes). A name goes to the first group whose prefix matches its defining module.
GROUPS = [
    ("Data: joint ranges, distributions, data sets",
     "The core objects: a joint range [[S, X]] is one sparse boolean matrix; a joint distribution p(s, x) has "
     "the same support graph.",
     ["graphpriv.ranges", "graphpriv.distributions", "graphpriv._validation", "graphpriv.datasets"]),
    ("Graphs: components, the confusability graph, cuts and strength",
     "Ding & Farokhi (paper 003), Section IV: I* from the connected components; decomposability is a min cut of 0.",
     ["graphpriv.graphs.support", "graphpriv.graphs.confusability", "graphpriv.graphs.cuts",
      "graphpriv.graphs.strength"]),
    ("Graphs: hypergraphs and the privacy polytope",
     "Rassouli, Rosas & Gündüz (paper 004): the matrix P is the incidence matrix of the hypergraph H_n of n samples.",
     ["graphpriv.graphs.hypergraph", "graphpriv.graphs.polytope"]),
    ("Measures: non-stochastic",
     "H0, I0, L0, B0, k-anonymity and the maximin information I* (Ding & Farokhi, paper 003, Sections II-IV).",
     ["graphpriv.measures.nonstochastic", "graphpriv.measures.common_information"]),
    ("Measures: stochastic",
     "Log-lift, local differential privacy, mutual information and their relatives (papers 000-002).",
     ["graphpriv.measures.stochastic", "graphpriv.measures.table_measures"]),
    ("Mechanisms, Ding & Farokhi (paper 003): quantisation by merges",
     "Algorithms 1 and 2 and Section V-C as merge sequences (traces), their frontiers, the exact "
     "optimum, baselines, better-than-greedy search and side information.",
     ["graphpriv.mechanisms.quantization.agglomerative", "graphpriv.mechanisms.quantization", "graphpriv.mechanisms.trace",
      "graphpriv.mechanisms.utilities", "graphpriv.mechanisms.quantization.frontier", "graphpriv.mechanisms.quantization.exact",
      "graphpriv.mechanisms.quantization.baselines", "graphpriv.mechanisms.quantization.search", "graphpriv.mechanisms.quantization.side_information"]),
    ("Mechanisms, Sadeghi, Ding & Rakotoarivelo (paper 002): the privacy watchdog",
     "Log-lift sets, the optimal X-invariant merge, (eps, delta) partitioning.",
     ["graphpriv.mechanisms.stochastic.optimal_merge", "graphpriv.mechanisms.stochastic.eps_delta",
      "graphpriv.mechanisms.stochastic.log_lift_sets", "graphpriv.mechanisms.stochastic.monte_carlo"]),
    ("Mechanisms, Ding, Liu & Farokhi (papers 000/001): linear reduction",
     "Markov and non-Markov kernels that shrink the distance between P(x|s) and P(x) by the factor (1 - alpha).",
     ["graphpriv.mechanisms.stochastic.linear_kernels", "graphpriv.mechanisms.stochastic.linear_mechanism"]),
    ("Mechanisms, Rassouli, Rosas & Gündüz (paper 004): perfect sample privacy",
     "Optimal disclosure (Algorithms 1-2), bounds, asymptotics and heuristics.",
     ["graphpriv.mechanisms.sample_privacy"]),
    ("Mechanisms, follow-up works (ITW 2019, ICASSP 2022, arXiv:2101.10551): funnel, watchdog variants",
     "Ding & Sadeghi (ITW 2019): the agglomerative privacy funnel and information bottleneck, pairwise and subset "
     "merging; Zarrabian, Ding, Sadeghi & Rakotoarivelo (ICASSP 2022): subset merging for the watchdog; Ding, "
     "Zarrabian & Sadeghi (arXiv:2101.10551): the alpha-lift watchdog.",
     ["graphpriv.mechanisms.stochastic.funnel", "graphpriv.mechanisms.stochastic.subset_watchdog",
      "graphpriv.mechanisms.stochastic.alpha_lift_watchdog"]),
    ("Mechanism registry: the mechanisms of ``graphpriv sanitize --mechanism NAME``",
     "Every mechanism with its options, release kind (labels, codewords, randomised) and the audit of its guarantee; "
     "adding a mechanism is one module plus one entry.",
     ["graphpriv.mechanisms.registry"]),
    ("Analysis: ensembles and sweeps",
     "Random joint ranges, Monte-Carlo studies and frontier sweeps, serial, with joblib or on a dask cluster; "
     "every mechanism compared on one table.",
     ["graphpriv.analysis"]),
    ("Visualisation",
     "``import graphpriv.viz as viz``: pictures of every object above. One panel -> an Axes (``ax=`` draws into "
     "yours), several panels -> a Figure; nothing calls ``plt.show()``.",
     []),
    ("Release",
     "What a recipient reads: released values (labels, codewords), the mapping document, the CSV and Parquet "
     "writers, the streamed release of files and the audit that recomputes every figure from the written table.",
     ["graphpriv.release.labels", "graphpriv.release.mapping", "graphpriv.release.writer", "graphpriv.release.stream",
      "graphpriv.release.audit", "graphpriv.release.randomised"]),
    ("Input and output",
     "Reading CSV and Parquet tables (streamed: only the distinct (s, x) pairs are kept), atomic writes and the "
     "analysis report; ``gp.read_joint_range`` (under Data) is the one-call entry point.",
     []),
    ("Citations", "What to cite for what you ran (see :doc:`citing`).", ["graphpriv.citations"]),
    ("Errors and warnings",
     "Every error a user can cause is a :class:`~graphpriv.GraphprivError` whose message says what to fix.",
     ["graphpriv.errors"]),
]

#: Default topic (a GROUPS title) for a module of these packages that GROUPS does not list.
FALLBACK = {"graphpriv.mechanisms.stochastic": "Mechanisms, Sadeghi, Ding & Rakotoarivelo (paper 002): the privacy watchdog",
            "graphpriv.mechanisms.sample_privacy": "Mechanisms, Rassouli, Rosas & Gündüz (paper 004): perfect sample privacy",
            "graphpriv.release": "Release",
            "graphpriv.mechanisms": "Mechanisms, Ding & Farokhi (paper 003): quantisation by merges",
            "graphpriv.graphs": "Graphs: components, the confusability graph, cuts and strength",
            "graphpriv.measures": "Measures: stochastic", "graphpriv.analysis": "Analysis: ensembles and sweeps"}

#: Sub-packages documented by their own ``__all__``, each shown after the topic it belongs to (None: at the end).
SUBPACKAGES = [
    ("graphpriv.datasets", "Data: joint ranges, distributions, data sets",
     "Bundled data: the Hungarian heart-disease records and paper 003's running example."),
    ("graphpriv.viz", "Visualisation",
     "One style, ``ax=`` everywhere; node-link, matrix and hierarchy views of traces, frontiers, the papers' figure "
     "types, the interactive explorer. Sizes and colours are in ``graphpriv.viz.style`` (``COLUMN_WIDTH``, "
     "``PAGE_WIDTH``, ``ROLE``, ``PALETTE``); the views' building blocks in the modules that define them."),
    ("graphpriv.io", "Input and output",
     "Reading tables, atomic writes, the analysis report (``report.json``, ``report.md``, ``report.html``)."),
    ("graphpriv.ingest", "Input and output",
     "Input: CSV or Parquet streamed as record batches, keeping only the distinct (s, x) pairs."),
    ("graphpriv.reproduce", None, "The papers' figures, one module per paper, and the ``graphpriv figures`` driver."),
    ("graphpriv.parallel", None, "Parallel maps with joblib or a dask cluster; every sweep takes ``n_jobs=`` or ``client=``."),
]


def _module_of(name: str, obj) -> str | None:
    if inspect.ismodule(obj):
        return None
    mod = getattr(obj, "__module__", None)
    if not isinstance(mod, str) or not mod.startswith("graphpriv"):
        return None
    return mod


def groups() -> tuple[list[tuple[str, str, list[str]]], list[str]]:
    """(title, intro, names) per topic, and the names that are constants (no defining module)."""
    import graphpriv as gp

    out = [(title, intro, []) for title, intro, _ in GROUPS]
    other: list[str] = []
    out.append(("Other", "Public names of modules without a topic yet (add them to GROUPS in docs/_api.py).", other))
    constants = []
    for name in gp.__all__:
        obj = getattr(gp, name)
        if inspect.ismodule(obj):
            continue                      # datasets, viz, reproduce: listed as sub-packages
        mod = _module_of(name, obj)
        if mod is None:
            constants.append(name)
            continue
        for (title, intro, prefixes), (_, _, names) in zip(GROUPS, out):
            if any(mod == p or mod.startswith(p + ".") for p in prefixes):
                names.append(name)
                break
        else:  # a module not listed: its package's default topic
            for prefix, title in FALLBACK.items():
                if mod.startswith(prefix + "."):
                    next(names for t, _, names in out if t == title).append(name)
                    break
            else:
                other.append(name)
    return out, constants


def _describe(value) -> str:
    """A stable one-line description of a constant (functions by name, not by address)."""
    if callable(value):
        return getattr(value, "__name__", type(value).__name__)
    if isinstance(value, dict):
        return "{" + ", ".join(f"{k!r}: {_describe(v)}" for k, v in value.items()) + "}"
    if isinstance(value, (list, tuple)) and len(value) > 12:
        return f"{type(value).__name__} of {len(value)} items"
    return repr(value)


def _table(names: list[str], prefix: str = "") -> list[str]:
    lines = ["", ".. autosummary::", "   :toctree: generated", "   :nosignatures:", ""]
    lines += [f"   {prefix}{n}" for n in names]
    return lines + [""]


def _subpackage(modname: str, intro: str) -> list[str]:
    import importlib

    mod = importlib.import_module(modname)
    names = [n for n in getattr(mod, "__all__", []) if not n.startswith("_")]
    lines = ["", f"``{modname}``", "~" * (len(modname) + 4), "", intro, "", f".. currentmodule:: {modname}"]
    grouped = getattr(mod, "_GROUPS", None)       # graphpriv.viz: its names by group, as its docstring lists them
    if grouped:
        listed = [n for group in grouped.values() for n in group]
        for title, group in list(grouped.items()) + [("Other drawing functions", [n for n in names if n not in listed])]:
            if group:
                lines += ["", f".. rubric:: {title}"] + _table(group)
        return lines + ["", ".. currentmodule:: graphpriv"]
    return lines + _table(names) + ["", ".. currentmodule:: graphpriv"]


def render() -> str:
    topics, constants = groups()
    lines = [
        ".. This page is generated by docs/_api.py from graphpriv.__all__; do not edit by hand.",
        "",
        "API reference",
        "=============",
        "",
        "Everything below is importable from the top level (``import graphpriv as gp``; ``gp.agglomerate``),",
        "grouped as ``help(graphpriv)`` groups it: data, graphs, measures, mechanisms by paper, analysis,",
        "visualisation, release, input and output. Each entry's page is its docstring: the paper, section and",
        "equation it implements, its parameters, and runnable examples on the papers' data. :doc:`paper_map`",
        "goes the other way, from the papers to these functions.",
        "",
        ".. currentmodule:: graphpriv",
    ]
    for title, intro, names in topics:
        subs = [(m, i) for m, t, i in SUBPACKAGES if t == title]
        if not names and not subs:
            continue
        lines += ["", title, "-" * len(title), "", intro]
        if names:
            lines += _table(names)
        for modname, sub_intro in subs:
            lines += _subpackage(modname, sub_intro)
    if constants:
        title = "Limits and constants"
        lines += ["", title, "-" * len(title), "",
                  "Size limits and backend names used by the functions above (each can be overridden per call)."]
        lines += ["", ".. list-table::", "   :header-rows: 1", "", "   * - name", "     - value"]
        import graphpriv as gp

        for n in constants:
            value = _describe(getattr(gp, n))
            lines += [f"   * - ``gp.{n}``", f"     - ``{value}``"]
        lines.append("")
    title = "Other sub-packages"
    lines += ["", title, "-" * len(title), ""]
    for modname, where, intro in SUBPACKAGES:
        if where is None:
            lines += _subpackage(modname, intro)
    return "\n".join(lines).rstrip() + "\n"


if __name__ == "__main__":
    sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
    path = Path(__file__).with_name("api.rst")
    path.write_text(render(), encoding="utf-8")
    print(f"wrote {path}")
