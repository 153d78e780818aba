"""The API reference page (docs/api.rst): every name of ``graphpriv.__all__``, grouped by topic.

The Sphinx build renders the page from :func:`render` (docs/conf.py), so a new public name is never
missing; ``python docs/_api.py`` refreshes the committed copy, docs/api.rst, for readers of the repository.
"""

from __future__ import annotations

import inspect
import sys
from pathlib import Path

#: (title, intro, module prefixes). A name goes to the first group whose prefix matches its defining module.
GROUPS = [
    ("Data: joint ranges, distributions, data sets",
     "The core objects: a joint range [[S, X]] is one sparse boolean matrix; a joint distribution p(s, x) has "
     "the same support graph.",
     ["graphpriv.ranges", "graphpriv.distributions", "graphpriv._validation", "graphpriv.datasets"]),
    ("Graphs: components, the confusability graph, cuts and strength",
     "Ding & Farokhi, Section IV: I* from the connected components; decomposability is a min cut of 0.",
     ["graphpriv.graphs.support", "graphpriv.graphs.confusability", "graphpriv.graphs.cuts",
      "graphpriv.graphs.strength"]),
    ("Hypergraphs and the privacy polytope",
     "Rassouli, Rosas & Gündüz: the matrix P is the incidence matrix of the hypergraph H_n of n samples.",
     ["graphpriv.graphs.hypergraph", "graphpriv.graphs.polytope"]),
    ("Non-stochastic measures",
     "H0, I0, L0, B0, k-anonymity and the maximin information I* (Ding & Farokhi, Sections II-IV).",
     ["graphpriv.measures.nonstochastic", "graphpriv.measures.common_information"]),
    ("Stochastic measures",
     "Log-lift, local differential privacy, mutual information and their relatives (papers 000-002).",
     ["graphpriv.measures.stochastic"]),
    ("Quantisation mechanisms (merges)",
     "Ding & Farokhi's Algorithms 1 and 2 and Section V-C as merge sequences, their frontiers, the exact "
     "optimum, baselines, better-than-greedy search and side information.",
     ["graphpriv.mechanisms.quantization.agglomerative", "graphpriv.mechanisms.quantization", "graphpriv.mechanisms.trace",
      "graphpriv.mechanisms.utilities", "graphpriv.mechanisms.quantization.frontier", "graphpriv.mechanisms.quantization.exact",
      "graphpriv.mechanisms.quantization.baselines", "graphpriv.mechanisms.quantization.search", "graphpriv.mechanisms.quantization.side_information"]),
    ("Release",
     "What a recipient reads: released values (labels, codewords), the mapping document, the CSV and Parquet "
     "writers, the streamed release of files and the audit that recomputes every figure from the written table.",
     ["graphpriv.release.labels", "graphpriv.release.mapping", "graphpriv.release.writer", "graphpriv.release.stream",
      "graphpriv.release.audit"]),
    ("Privacy watchdog",
     "Sadeghi, Ding & Rakotoarivelo: log-lift sets, the optimal X-invariant merge, (eps, delta) partitioning.",
     ["graphpriv.mechanisms.stochastic.optimal_merge", "graphpriv.mechanisms.stochastic.eps_delta",
      "graphpriv.mechanisms.stochastic.log_lift_sets", "graphpriv.mechanisms.stochastic.monte_carlo"]),
    ("Linear reduction",
     "Ding, Liu & Farokhi: Markov and non-Markov kernels that shrink the distance between P(x|s) and P(x) by the factor (1 - alpha).",
     ["graphpriv.mechanisms.stochastic.linear_kernels", "graphpriv.mechanisms.stochastic.linear_mechanism"]),
    ("Perfect sample privacy",
     "Rassouli, Rosas & Gündüz: optimal disclosure (Algorithms 1-2), bounds, asymptotics and heuristics.",
     ["graphpriv.mechanisms.sample_privacy"]),
    ("Analysis: ensembles and sweeps",
     "Random joint ranges, Monte-Carlo studies and frontier sweeps, serial, with joblib or on a dask cluster.",
     ["graphpriv.analysis"]),
    ("Citations", "What to cite for what you ran (see :doc:`citing`).", ["graphpriv.citations"]),
    ("Errors and warnings",
     "Every error a user can cause is a :class:`~graphpriv.GraphprivError` whose message says what to fix.",
     ["graphpriv.errors"]),
]

#: Default topic (index into GROUPS) for a module of these packages that GROUPS does not list.
FALLBACK = {"graphpriv.mechanisms.stochastic": 7, "graphpriv.mechanisms.sample_privacy": 9, "graphpriv.release": 6,
            "graphpriv.mechanisms": 5, "graphpriv.graphs": 1, "graphpriv.measures": 4, "graphpriv.analysis": 10}

SUBPACKAGES = [
    ("graphpriv.datasets", "Bundled data: the Hungarian heart-disease records and paper 003's running example."),
    ("graphpriv.viz", "Pictures: one style, ``ax=`` everywhere; node-link, matrix and hierarchy views of traces."),
    ("graphpriv.reproduce", "The papers' figures, one module per paper, and the ``graphpriv figures`` driver."),
    ("graphpriv.ingest", "Reading tables: CSV or Parquet streamed as record batches, keeping only the distinct (s, x) pairs."),
    ("graphpriv.parallel", "Parallel maps with joblib or a dask cluster; every sweep takes ``n_jobs=`` or ``client=``."),
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
            for prefix, index in FALLBACK.items():
                if mod.startswith(prefix + "."):
                    out[index][2].append(name)
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


def render() -> str:
    import importlib

    topics, constants = groups()
    lines = [
        ".. This page is generated by docs/_api.py from graphpriv.__all__; do not edit by hand.",
        "",
        "API reference",
        "=============",
        "",
        "Everything below is importable from the top level (``import graphpriv as gp``; ``gp.agglomerate``).",
        "Each entry's page is its docstring: the paper, section and equation it implements, its parameters,",
        "and runnable examples on the papers' data. :doc:`paper_map` goes the other way, from the papers to",
        "these functions.",
        "",
        ".. currentmodule:: graphpriv",
    ]
    for title, intro, names in topics:
        if not names:
            continue
        lines += ["", title, "-" * len(title), "", intro]
        lines += _table(names)
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
    title = "Sub-packages"
    lines += ["", title, "-" * len(title), ""]
    for modname, intro in SUBPACKAGES:
        mod = importlib.import_module(modname)
        names = [n for n in getattr(mod, "__all__", []) if not n.startswith("_")]
        lines += ["", f"``{modname}``", "~" * (len(modname) + 4), "", intro, "",
                  f".. currentmodule:: {modname}"]
        lines += _table(names)
    return "\n".join(lines).rstrip() + "\n"


if __name__ == "__main__":
    sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
    path = Path(__file__).with_name("api.rst")
    path.write_text(render(), encoding="utf-8")
    print(f"wrote {path}")
