"""The principal-sequence panel of the analysis report: the critical values of G_X and the number of blocks
at each (:func:`graphpriv.principal_partitions`), as data, as text, Markdown and HTML rows (``graphpriv
analyze`` draws its figure with :func:`graphpriv.viz.plot_principal_partitions`).

The report stores the panel under ``"principal_partitions"``::

    {computed, graph: "confusability", weighted: false, n_critical, strength, strength_value,
     levels: [{critical_value, fraction, n_blocks, cut_weight}], n_levels_shown, note}

For a price lambda per extra piece, the optimal attack on G_X (cut edges minus lambda per extra piece)
is the partition of the last level whose critical value is at most lambda; the first critical value is
Cunningham's strength (0 exactly when G_X is disconnected, i.e. I*(S;X) > 0; paper 003, Section IV).
"""

from __future__ import annotations

__all__ = ["PSP_MAX_SECONDS", "PSP_MAX_LEVELS", "PSP_FIGURE_MIN_PUBLIC", "principal_section", "principal_text_lines",
           "principal_markdown_lines", "principal_rows", "principal_summary", "PSP_CAPTION"]

#: The panel is computed when its estimated time is at most this many seconds.
PSP_MAX_SECONDS = 10.0
#: Levels listed in the report (the first ones and the last ones past this many).
PSP_MAX_LEVELS = 24
#: The figure is drawn from this many public values (below it the G_X figure shows the same structure).
PSP_FIGURE_MIN_PUBLIC = 20
#: Caption of the figure.
PSP_CAPTION = ("The principal sequence of partitions of G_X: as the price per extra piece (down the axis) passes each "
               "critical value, blocks split into the pieces below; the first split is at the network strength "
               "(0 when G_X is disconnected). Leaves are coloured by block of the first level; single values shed "
               "at one split are drawn as one hatched leaf.")


def _fraction_text(v) -> str:
    return str(v.numerator) if v.denominator == 1 else f"{v.numerator}/{v.denominator}"


def principal_section(jr, *, max_edges: int = 200_000) -> dict:
    """The report panel for ``jr`` (see the module docstring), or ``computed: false`` with the reason.

    Skipped when G_X has fewer than two values, more than ``max_edges`` edges (upper bound), or an
    estimated run time past :data:`PSP_MAX_SECONDS`.
    """
    from ..graphs.confusability import confusability_edge_count_bound
    from ..graphs.principal import principal_partitions, psp_seconds

    empty = {"computed": False, "graph": "confusability", "weighted": False, "n_critical": None, "strength": None,
             "strength_value": None, "levels": [], "n_levels_shown": 0}
    if jr.n_public < 2:
        return {**empty, "note": "G_X has a single node: no partition into pieces"}
    bound = int(confusability_edge_count_bound(jr))
    if bound > max_edges:
        return {**empty, "note": f"G_X may have up to {bound} edges (limit {max_edges}, see --max-cut-edges)"}
    seconds = psp_seconds(jr.n_public, bound)
    if seconds > PSP_MAX_SECONDS:
        return {**empty, "note": f"estimated {seconds:.0f} s for {jr.n_public} values (limit {PSP_MAX_SECONDS:.0f} s); "
                                 "use graphpriv.principal_partitions"}
    seq = principal_partitions(jr, max_edges=max(bound, 1))
    nb = seq.n_blocks
    levels = [{"critical_value": float(v), "fraction": _fraction_text(v), "n_blocks": int(nb[i + 1]),
               "cut_weight": int(seq.cut_weights[i + 1])} for i, v in enumerate(seq.critical_values)]
    k = len(levels)
    if k > PSP_MAX_LEVELS:
        half = PSP_MAX_LEVELS // 2
        shown = levels[:half] + levels[-half:]
        note = f"{k} critical values; the first {half} and the last {half} are listed"
    else:
        shown, note = levels, ""
    return {"computed": True, "graph": "confusability", "weighted": False, "n_critical": k,
            "strength": levels[0]["fraction"], "strength_value": levels[0]["critical_value"],
            "levels": shown, "n_levels_shown": len(shown), "note": note}


def principal_rows(section: dict | None) -> list[tuple[str, str, str]]:
    """``(critical value, blocks, cut weight)`` display rows; a ``...`` row where levels were left out."""
    if not section or not section.get("computed"):
        return []
    levels = section.get("levels") or []
    rows = []
    k, shown = section.get("n_critical") or 0, len(levels)
    for i, lev in enumerate(levels):
        if shown < k and i == shown // 2:
            rows.append(("...", f"{k - shown} more levels", ""))
        value = lev["fraction"] if "/" not in lev["fraction"] else f"{lev['fraction']} ≈ {lev['critical_value']:.6g}"
        rows.append((value, str(lev["n_blocks"]), str(lev["cut_weight"])))
    return rows


def principal_summary(section: dict) -> str:
    """One sentence: how many critical values, and the strength."""
    k = section["n_critical"]
    return (f"{k} critical value{'s' if k != 1 else ''} of G_X (unit weights); strength {section['strength']} "
            f"(the first critical value: the fewest cut edges per extra piece of an attack"
            f"{', 0: G_X is disconnected' if section['strength_value'] == 0 else ''}).")


def principal_text_lines(section: dict | None) -> list[str]:
    """The panel as lines of the printed summary."""
    if not section:
        return []
    if not section.get("computed"):
        return [f"principal partitions of G_X: {section.get('note') or 'not computed'}"]
    levels = section["levels"]
    head = ", ".join(f"{lev['fraction']} ({lev['n_blocks']})" for lev in levels[:8])
    more = f", ... ({section['n_critical']} in all)" if section["n_critical"] > 8 else ""
    return [f"principal partitions of G_X: critical values (blocks) {head}{more}"]


def principal_markdown_lines(section: dict | None) -> list[str]:
    """The panel as a Markdown section (no user text in it: numbers only)."""
    if not section:
        return []
    out = ["## Principal sequence of partitions of G_X", ""]
    if not section.get("computed"):
        return out + [f"Not computed: {section.get('note') or 'unknown reason'}.", ""]
    out += [principal_summary(section), "",
            "At a price λ per extra piece, the optimal attack splits G_X into the blocks of the last level whose "
            "critical value is at most λ (graphpriv.principal_partitions).", "",
            "| critical value λ | blocks | cut edges |", "|---:|---:|---:|"]
    out += [f"| {a} | {b} | {c} |" for a, b, c in principal_rows(section)]
    if section.get("note"):
        out += ["", section["note"] + "."]
    return out + [""]
