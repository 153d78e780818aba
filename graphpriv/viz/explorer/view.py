"""An interactive explorer of a merge trace: one self-contained HTML page built with bokeh.

:func:`explore` turns a trace of Ding & Farokhi's mechanisms (*Developing Non-Stochastic
Privacy-Preserving Policies Using Agglomerative Clustering*, Algorithms 1 and 2, Section V-C) into a
page with a slider (and the arrow keys) over the step t and linked views: the matrix view of
[[S, X̂(t)]] with its anonymity strip, the merge hierarchy cut at t, L(t), privacy and utility against
t with t marked, and the best candidate pairs of step t by the mechanism's own criterion, the chosen
pair first. Hovering a cluster (its band in the matrix, its bar in the strip, or its mark on the cut of
the hierarchy) shows its members and its sensitive set. Everything drawn comes from
:func:`graphpriv.viz.explorer_data`; the page holds one set of columns per step and a slider callback
of a few lines swaps them in.

Why bokeh
---------
Both well-kept candidates, plotly and bokeh, were measured by ``benchmarks/bench_explorer_backends.py``
on the Hungarian Algorithm 1 trace (S = age, X = cholesterol with missing values dropped: 153 public
values, 37 sensitive; λ = 0.3, U1, 15 steps), each building the same linked views from the same
payload into one offline HTML file (library JavaScript inlined), loaded in headless Chromium (median
of 5 loads, from navigation until the plot is drawn; two runs on a shared, busy 2-core machine):

* plotly 7.1 (one animation frame per step, plotly's own slider): 5.70 MB, 3.20 s and 3.45 s to load;
  a one-heatmap plotly page alone takes 2.1-2.9 s (parsing the 4.8 MB plotly.js bundle);
* bokeh 3.9 (this module: one slider callback swapping the column data sources): 2.28 MB, 1.03 s and
  1.61 s to load; a one-line bokeh page alone takes 0.6-1.0 s.

Bokeh's file is 2.5 times smaller and opens 2-3 times faster, with the same hover, linked ranges and
table; what it costs is the slider callback (a few lines of glue that assign precomputed columns, no
drawing code), so bokeh was chosen.
"""

from __future__ import annotations

import html as _html
import math
import os
from pathlib import Path

from ...errors import InputError, InputTypeError

__all__ = ["explore", "explore_components", "Explorer"]

#: Width of the page's plots in CSS pixels.
WIDTH = 1200

#: Model names the page's script (and tests) look up in the bokeh document.
SLIDER_NAME = "graphpriv-t"
NAMES = ("graphpriv-title", "graphpriv-caption", "graphpriv-matrix", "graphpriv-strip", "graphpriv-hierarchy")

_KEYS_JS = """<script>
document.addEventListener('keydown', function (e) {
  if (e.key !== 'ArrowRight' && e.key !== 'ArrowLeft') return;
  if (!window.Bokeh || Bokeh.documents.length === 0) return;
  var s = Bokeh.documents[0].get_model_by_name('%s');
  var v = s.value + (e.key === 'ArrowRight' ? 1 : -1);
  if (v >= s.start && v <= s.end) s.value = v;
  e.preventDefault();
});
</script>
""" % SLIDER_NAME

_STEP_JS = """
const s = steps[cb_obj.value];
for (const k in sources) { sources[k].data = s.data[k]; }
strip_y.end = s.ymax;  // the anonymity strip scaled to this step's largest |[[S|x̂]]|
table.view.change.emit();  // the table redraws on a view change only (same row count: no change)
xr.start = -0.5; xr.end = s.width - 0.5;
cut.location = s.t + 0.5;
for (const m of tlines) { m.location = s.t; }
title.text = s.title;
caption.text = s.caption;
"""


def _bokeh():
    try:
        import bokeh  # noqa: F401
    except ImportError:
        raise ImportError("the interactive explorer needs bokeh: pip install 'graphpriv[explorer]'") from None


class Explorer:
    """An interactive explorer of a merge trace (see :func:`explore`).

    Displays inline in Jupyter (in an isolated frame, so its arrow keys do not reach the notebook) and
    :meth:`save` writes one self-contained HTML file that works offline.

    Attributes
    ----------
    data : dict
        The payload (:func:`graphpriv.viz.explorer_data`).
    layout : bokeh.models.LayoutDOM
        The bokeh layout (slider, plots, table).
    """

    def __init__(self, data: dict, layout):
        self.data = data
        self.layout = layout

    def to_html(self) -> str:
        """The whole page (bokeh's JavaScript inlined, no network needed)."""
        from bokeh.embed import file_html
        from bokeh.resources import INLINE

        m = self.data["meta"]
        page = file_html(self.layout, INLINE, f"graphpriv explorer: {m['algorithm']}")
        head, sep, tail = page.rpartition("</body>")  # the last one: the inlined libraries may contain the text
        return head + _KEYS_JS + sep + tail

    def save(self, path: str | os.PathLike) -> Path:
        """Write the page to ``path`` (one HTML file, atomically; permissions as the user's umask allows)."""
        from ...io import write_text

        path = Path(path)
        if path.suffix.lower() not in (".html", ".htm"):
            raise InputError(f"explorer pages are HTML: give a path ending in .html, got {str(path)!r}")
        write_text(path, self.to_html())
        mask = os.umask(0)
        os.umask(mask)
        os.chmod(path, 0o666 & ~mask)
        return path

    def _repr_html_(self) -> str:
        return (f'<iframe srcdoc="{_html.escape(self.to_html(), quote=True)}" '
                f'style="width:{WIDTH + 40}px;height:1250px;border:0" title="graphpriv merge explorer"></iframe>')

    def __repr__(self) -> str:
        m = self.data["meta"]
        return (f"Explorer(objective={m['objective']!r}, utility={m['utility']!r}, |X|={m['n_public']}, "
                f"steps={m['n_steps']}, returned={m['returned']})")


#: Largest page built by default: steps × sensitive values × public values (matrix cells over all steps).
MAX_CELLS = 4_000_000


def explore(result, jr, *, top: int = 5, utility=None, values=None, start: int | None = None,
            max_cells: int = MAX_CELLS) -> Explorer:
    """An interactive explorer of a mechanism's merges: slider over t, linked matrix, hierarchy, curves.

    Parameters
    ----------
    result : AgglomerationResult or MergeTrace
        A result of :func:`graphpriv.agglomerate` (its ``.trace`` is used) or a trace.
    jr : JointRange
        The joint range the mechanism ran on.
    top : int
        Candidate pairs listed per step (:func:`graphpriv.viz.merge_candidates`).
    utility, values
        As given to the mechanism, for the candidates' costs (only needed for a U2 run whose public labels
        are not its numeric values, or with a custom codeword or distance).
    start : int, optional
        Step shown first (default: the released step).
    max_cells : int
        Refuse (InputError) a page holding more matrix cells than this over all steps (steps × |S| × |X|;
        the Hungarian Algorithm 1 trace needs 85,000): such a page would be too large to open.

    Returns
    -------
    Explorer
        ``.save("explorer.html")`` writes the page; in Jupyter it displays inline.

    Raises
    ------
    ImportError
        When bokeh is not installed (``pip install 'graphpriv[explorer]'``).

    Examples
    --------
    >>> import graphpriv as gp
    >>> jr, _ = gp.datasets.paper_example()
    >>> ex = gp.viz.explore(gp.agglomerate(jr, "I*", 0.3), jr)        # paper 003, Example 3
    >>> ex
    Explorer(objective='I*', utility='U1', |X|=7, steps=5, returned=4)
    >>> "bokeh" in ex.to_html()
    True
    """
    from ...mechanisms.trace import MergeTrace
    from .data import explorer_data

    trace = getattr(result, "trace", result)
    if not isinstance(trace, MergeTrace):
        raise InputTypeError(f"explore needs an AgglomerationResult (gp.agglomerate(...)) or a MergeTrace, got {type(result).__name__}")
    _bokeh()
    start = trace.returned if start is None else trace._check_t(start)
    cells = len(trace) * getattr(jr, "n_sensitive", 0) * trace.n_public
    if cells > max_cells:
        raise InputError(f"this explorer would hold {cells:,} matrix cells ({len(trace)} steps × {jr.n_sensitive} sensitive × "
                         f"{trace.n_public} public values), more than max_cells={max_cells:,}; pass a larger max_cells= "
                         "to build it anyway")
    data = explorer_data(trace, jr, top=top, utility=utility, values=values)
    return Explorer(data, build_layout(data, start))


def explore_components(jr, **kwargs) -> Explorer:
    """An explorer of the components of G_X (:func:`graphpriv.viz.component_trace`), opened at t = 1 where
    every band of the matrix is one component; keyword arguments go to :func:`explore`."""
    from .components import component_trace

    return explore(component_trace(jr), jr, **kwargs)


# ---------------------------------------------------------------------- per-step columns
def _fmt(v, digits: int = 4) -> str:
    if v is None or (isinstance(v, float) and math.isnan(v)):
        return "—"
    if abs(v) >= 1e300:
        return "∞" if v > 0 else "−∞"
    return f"{v:.{digits}g}"


def _short(members: list) -> str:
    if len(members) <= 4:
        return ", ".join(members)
    return f"{members[0]}, {members[1]}, …, {members[-1]} ({len(members)})"


#: Rows of the candidate table shown at once (more scroll).
TABLE_ROWS = 12


def _cost_header(c: dict) -> str:
    crit = c["criterion"]
    if not crit:
        return "cost"
    return crit.split(" over ")[0].split(" for ")[0]


#: Rows of pair-number badges above the matrix (a sweep of Algorithm 1 numbers up to ~n/2 pairs side by side).
BADGE_LEVELS = 3
#: Height of one row of badges, in pixels.
BADGE_PX = 14


def _badges(clusters: list, px_per_col: float, width: int, rows_per_level: float) -> dict:
    """Pair-number badges of the clusters merged at t, packed left to right into :data:`BADGE_LEVELS` rows above
    the matrix (the first row where the badge does not touch the previous one), kept inside the plot."""
    x, y, text = [], [], []
    right: list[float] = []
    for c in sorted(clusters, key=lambda c: c["x0"]):
        label = ",".join(map(str, c.get("pairs") or [c["pair"]]))
        half = (6.2 * len(label) + 6) / 2 / max(px_per_col, 1e-9)  # half the badge width, in columns
        xc = min(max((c["x0"] + c["x1"]) / 2, -0.5 + half), width - 0.5 - half)
        level = next((k for k, e in enumerate(right) if e + 1 / max(px_per_col, 1e-9) <= xc - half), None)
        if level is None:
            level = len(right) if len(right) < BADGE_LEVELS else min(range(len(right)), key=right.__getitem__)
            if level == len(right):
                right.append(-math.inf)
        right[level] = xc + half
        x.append(xc)
        y.append(-0.5 - (level + 1) * rows_per_level)
        text.append(label)
    return dict(x=x, y=y, text=text)


def _step_columns(d: dict, t: int, tick_px: float) -> dict:
    """Everything that changes with t: column data of every per-step source, title, caption, width."""
    import numpy as np

    from ..matrix import _pick_ticks

    s = d["steps"][t]
    meta = d["meta"]
    merge = meta["merge_color"]
    cl = s["clusters"]
    R = len(d["rows"])
    centres = [(c["x0"] + c["x1"]) / 2 for c in cl]
    common = dict(
        x=centres, w=[c["x1"] - c["x0"] + 0.9 for c in cl], label=[c["label"] for c in cl],
        n=[len(c["members"]) for c in cl], members=[", ".join(c["members"]) for c in cl],
        sens=[", ".join(c["sensitive"]) for c in cl], anon=[c["anonymity"] for c in cl],
        merged=[f"merged at t = {t} (pair {', '.join(map(str, c.get('pairs') or [c['pair']]))})" if c["pair"] else ""
                for c in cl],
    )
    bars = dict(common, col=[merge if c["pair"] else "#8c8c8c" for c in cl])
    cells = dict(common, y=[(R - 1) / 2] * len(cl), h=[R] * len(cl))
    marks = dict(common, x=[c.get("tree_x", 0.0) for c in cl], y=[t + 0.5] * len(cl),
                 col=[merge if c["pair"] else "#505050" for c in cl])
    out_l = [c["x0"] - 0.5 for c in cl if c["pair"]]
    out_r = [c["x1"] + 0.5 for c in cl if c["pair"]]
    outlines = dict(left=out_l, right=out_r, top=[-0.5] * len(out_l), bottom=[R - 0.5] * len(out_l))
    many = len(s["merged"]) > 1
    badges = _badges([c for c in cl if c["pair"] and many], tick_px / max(1, s["width"]), s["width"],
                     d.get("badge_rows", 0.0))
    keep = _pick_ticks(centres, common["label"], [bool(c["pair"]) for c in cl], 12.0, tick_px / max(1, s["width"]))
    ticks = dict(x=[centres[i] for i in keep], text=[common["label"][i] for i in keep],
                 col=[merge if cl[i]["pair"] else "#303030" for i in keep])
    hx, hy = [], []
    if d["dendrogram"] is not None and t > 0:
        for link in d["dendrogram"]["links"]:
            if link["height"] == t:
                hx.append(link["x"])
                hy.append(link["y"])
    ser = d["series"]
    cur = dict(t=[t], L=[ser["L"][t]], privacy=[ser["privacy"][t]], utility=[ser["utility"][t]])
    ymax = max(1, max((c["anonymity"] for c in cl), default=1)) * 1.2
    cands = s["candidates"]
    rows = cands["rows"]
    table = dict(number=[str(r["pair"]) for r in rows],
                 rank=[(f"{r['rank'] or '–'} ✔ chosen" if r["chosen"] else str(r["rank"])) for r in rows],
                 pair=[f"{{{r['a_label']}}} + {{{r['b_label']}}}" for r in rows],
                 cost=[_fmt(r["cost"], 6) for r in rows], dl=[_fmt(r["delta_L"], 4) for r in rows])
    status = s["status"]
    badge = {"released": ' — <b style="color:%s">released</b>' % meta["release_color"],
             "rejected": ' — <b style="color:#D55E00">rejected</b> (ΔL ≥ 0: the mechanism stopped)'}.get(status, "")
    title_core = _html.escape(s["title"].split(" — ")[0])
    title = (f'<div style="font-size:17px">{title_core}{badge}</div>'
             f'<div style="font-size:13px">L(t) = {_fmt(s["L"], 6)}, ΔL = {_fmt(s["delta_L"], 4)}, '
             f'privacy = {_fmt(s["privacy"], 4)}, utility = {_fmt(s["utility"], 4)}, |Q(t)| = {s["n_clusters"]}, '
             f'components = {s["n_components"]}</div>')
    if meta["kind"] == "components":
        caption = ('<div style="font-size:13px">Each band of the matrix is one component of G_X (values joined when they '
                   'share a sensitive value; I* = log2 of their number). Hover a band for its values and sensitive set.</div>')
        return {"t": t, "width": s["width"], "ymax": ymax, "title": title, "caption": caption, "cost_header": "cost",
                "data": {"image": dict(image=[np.asarray(s["z"], dtype=np.uint8)], dw=[s["width"]], dh=[R]), "bars": bars,
                         "cells": cells, "marks": marks, "outlines": dict(left=[], right=[], top=[], bottom=[]),
                         "badges": dict(x=[], y=[], text=[]), "ticks": ticks, "hl": dict(xs=hx, ys=hy), "cur": cur,
                         "table": dict(number=[], rank=[], pair=[], cost=[], dl=[])}}
    pairs = "; ".join(f"{{{_short(a)}}} + {{{_short(b)}}}" for a, b in s["merged"][:4])
    if len(s["merged"]) > 4:
        pairs += f"; … ({len(s['merged'])} pairs, numbered on the matrix)"
    if cands["criterion"] and cands["n_pairs"] > 1:
        crit = (f"This sweep merged {cands['n_pairs']} pairs, numbered as on the matrix. The table lists, for each pair "
                f"in turn, the cluster 𝒳 of Π and its partners ranked by {cands['criterion']} among the clusters left by "
                "the earlier pairs of the sweep, the chosen partner first (scroll the table).")
    else:
        crit = (f"Candidates at Q(t−1) ranked by {cands['criterion']} ({cands['n']} pairs): the best few, the chosen pair first."
                if cands["criterion"] else f"Candidates: {cands['note']}")
        if cands["criterion"] and cands["note"]:
            crit += f" {cands['note']}."
    caption = (f'<div style="font-size:13px"><b>merged at t = {t}:</b> {_html.escape(pairs) if pairs else "nothing (initial state)"}</div>'
               f'<div style="font-size:12px;color:#505050">{_html.escape(crit)}</div>')
    image = np.asarray(s["z"], dtype=np.uint8)
    return {
        "t": t, "width": s["width"], "ymax": ymax, "title": title, "caption": caption, "cost_header": _cost_header(cands),
        "data": {"image": dict(image=[image], dw=[s["width"]], dh=[R]), "bars": bars, "cells": cells, "marks": marks,
                 "outlines": outlines, "badges": badges, "ticks": ticks, "hl": dict(xs=hx, ys=hy), "cur": cur,
                 "table": table},
    }


_TOOLTIP = """<div style="max-width:460px;font-size:12px">
<b>cluster @label</b> <span style="color:#882255">@merged</span><br>
<b>@n value(s):</b> @members<br>
<b>sensitive set [[S|x̂]] (@anon):</b> @sens
</div>"""


def build_layout(d: dict, start: int):
    """The bokeh layout of the payload ``d`` (:func:`graphpriv.viz.explorer_data`), showing step ``start``."""
    from bokeh.layouts import column, row
    from bokeh.models import (ColumnDataSource, CustomJS, DataTable, Div, HoverTool, LinearColorMapper, Range1d,
                              SingleIntervalTicker, Slider, Span, TableColumn)
    from bokeh.plotting import figure

    meta = d["meta"]
    T = meta["n_steps"]
    R = len(d["rows"])
    n = meta["n_public"]
    merge = meta["merge_color"]
    # rows of the matrix's y axis given to each level of pair badges, when a step merged several pairs
    badge_rows = 0.0
    if meta["kind"] != "components" and any(len(s_["merged"]) > 1 for s_ in d["steps"]):
        badge_rows = BADGE_PX * R / (330 - 40 - BADGE_LEVELS * BADGE_PX)
    d = {**d, "badge_rows": badge_rows}
    steps = [_step_columns(d, t, WIDTH - 80) for t in range(T)]
    st = steps[start]
    src = {k: ColumnDataSource(v) for k, v in st["data"].items()}
    xr = Range1d(-0.5, st["width"] - 0.5)

    def fig(**kw):
        f = figure(toolbar_location=None, tools="", **kw)
        f.grid.visible = False
        f.outline_line_color = None
        f.min_border_left = 70
        f.min_border_right = 10
        return f

    strip_y = Range1d(0, st["ymax"])
    strip = fig(name="graphpriv-strip", width=WIDTH, height=95, x_range=xr, y_range=strip_y)
    strip.yaxis.axis_label = "|[[S|x̂]]|"
    strip.xaxis.visible = False
    strip.yaxis.ticker.desired_num_ticks = 3
    strip.yaxis.minor_tick_line_color = None
    strip.min_border_bottom = 0
    bars = strip.vbar(x="x", width="w", top="anon", bottom=0, color="col", source=src["bars"])
    strip.add_tools(HoverTool(renderers=[bars], tooltips=_TOOLTIP))

    mat = fig(name="graphpriv-matrix", width=WIDTH, height=330, x_range=xr,
              y_range=Range1d(R - 0.5, -0.5 - BADGE_LEVELS * badge_rows))
    mapper = LinearColorMapper(palette=d["colors"], low=-0.5, high=len(d["colors"]) - 0.5)
    mat.image(image="image", x=-0.5, y=-0.5, dw="dw", dh="dh", color_mapper=mapper, source=src["image"])
    cells = mat.rect(x="x", y="y", width="w", height="h", fill_alpha=0, line_alpha=0, source=src["cells"],
                     hover_fill_color="black", hover_fill_alpha=0.06, hover_line_alpha=0)
    mat.add_tools(HoverTool(renderers=[cells], tooltips=_TOOLTIP))
    mat.quad(left="left", right="right", top="top", bottom="bottom", fill_alpha=0, line_color=merge, line_width=2.5,
             source=src["outlines"])
    mat.text(x="x", y="y", text="text", source=src["badges"], text_color="white", text_font_size="10px",
             text_align="center", text_baseline="top", background_fill_color=merge, padding=1)
    step_r = max(1, math.ceil(R / 19))
    mat.yaxis.ticker = list(range(0, R, step_r))
    mat.yaxis.major_label_overrides = {i: d["rows"][i] for i in range(0, R, step_r)}
    mat.yaxis.axis_label = "sensitive S"
    mat.xaxis.visible = False
    mat.min_border_bottom = 0
    mat.outline_line_color = "#808080"

    ticks = fig(width=WIDTH, height=125, x_range=xr, y_range=Range1d(-1, 0))
    ticks.text(x="x", y=0, text="text", angle=math.pi / 2, text_align="right", text_baseline="middle",
               text_font_size="10px", text_color="col", source=src["ticks"])
    ticks.axis.visible = False
    ticks.min_border_top = 2
    ticks.title.text = ""
    xlab = Div(text="public X, in the order of the merge hierarchy's leaves below (the same at every step; each cluster "
                    "a band) &mdash; dark cell: (s, x) ∈ [[S, X]]; light: added by "
                    "the quantisation X̂ (S|x̂ = ∪ S|x over the cluster); grey bands alternate clusters", width=WIDTH,
               styles={"font-size": "12px", "margin-left": "70px"})

    # merge hierarchy
    hier = fig(name="graphpriv-hierarchy", width=int(WIDTH * 0.6), height=300, x_range=Range1d(0, 10 * max(n, 1)),
               y_range=Range1d(-1.0, T + 0.8))
    hier.xaxis.visible = False
    hier.yaxis.axis_label = "step t"
    hier.yaxis.ticker = SingleIntervalTicker(interval=max(1, round(T / 8)), num_minor_ticks=0)
    hier.title.text = f"merge hierarchy ({n} public values as leaves, coloured by component of G_X); dashed: the cut at t"
    hier.title.text_font_style = "normal"
    cut = Span(location=start + 0.5, dimension="width", line_dash="dashed", line_color=merge, line_width=1.5)
    dend = d["dendrogram"]
    if dend is not None:
        links = dend["links"]
        hier.multi_line([lk["x"] for lk in links], [lk["y"] for lk in links], color=[lk["color"] for lk in links],
                        line_width=1)
        leaves = hier.scatter([5 + 10 * i for i in range(n)], [-0.45] * n, marker="square", size=5, line_width=0,
                              color=dend["leaf_colors"])
        leaves.data_source.data["value"] = dend["leaf_labels"]
        hier.add_tools(HoverTool(renderers=[leaves], tooltips="public value @value"))
        hier.multi_line("xs", "ys", source=src["hl"], color=merge, line_width=3.5)
        marks = hier.scatter(x="x", y="y", source=src["marks"], marker="dash", angle=math.pi / 2, size=12, line_width=2,
                             color="col")
        hier.add_tools(HoverTool(renderers=[marks], tooltips=_TOOLTIP))
    hier.add_layout(cut)

    # L(t), privacy, utility
    ser = d["series"]
    tr_ = Range1d(-0.5, T - 0.5)
    curves, tlines = [], []
    priv_name = f"{meta['privacy_name']} (bits)"
    util_name = f"{meta['utility']} ({'bits' if meta['utility'] == 'U1' else 'distortion'})"
    rej = [i for i, a in enumerate(ser["accepted"]) if not a]
    r = meta["returned"]
    for k, (key, name) in enumerate((("L", "L(t)"), ("privacy", priv_name), ("utility", util_name))):
        f = fig(width=int(WIDTH * 0.4), height=100 if k < 2 else 125, x_range=tr_)
        f.yaxis.axis_label = name
        f.yaxis.ticker.desired_num_ticks = 3
        f.yaxis.minor_tick_line_color = None
        f.xaxis.ticker = SingleIntervalTicker(interval=max(1, round(T / 8)), num_minor_ticks=0)
        f.xaxis.visible = k == 2
        if k == 2:
            f.xaxis.axis_label = "step t"
        f.line(ser["t"], ser[key], color=meta["release_color"], line_width=1.5)
        pts = f.scatter(ser["t"], ser[key], color=meta["release_color"], size=5)
        pts.data_source.data["v"] = ser[key]
        f.add_tools(HoverTool(renderers=[pts], tooltips=f"t = @x, {key} = @v{{0.00000}}"))
        if rej:
            f.scatter(rej, [ser[key][i] for i in rej], marker="x", size=10, line_width=2, color="#D55E00")
        f.scatter([r], [ser[key][r]], marker="star", size=13, color=meta["release_color"])
        f.scatter(x="t", y=key, source=src["cur"], size=11, color=merge, line_color="white")
        line = Span(location=start, dimension="height", line_dash="dotted", line_color=merge, line_width=1.2)
        f.add_layout(line)
        tlines.append(line)
        curves.append(f)

    n_rows = max(2, max(len(s["candidates"]["rows"]) for s in d["steps"]))
    table = DataTable(name="graphpriv-candidates", source=src["table"], width=WIDTH, height=30 + 26 * min(n_rows, TABLE_ROWS),
                      index_position=None, sortable=False, reorderable=False, columns=[
                          TableColumn(field="number", title="merged pair no.", width=110),
                          TableColumn(field="rank", title="rank", width=90),
                          TableColumn(field="pair", title="candidate pair", width=590),
                          TableColumn(field="cost", title=next((s["cost_header"] for s in steps if s["cost_header"] != "cost"), "cost"),
                                      width=160),
                          TableColumn(field="dl", title="ΔL of this merge alone", width=160)])
    table.visible = meta["kind"] != "components"
    title = Div(name="graphpriv-title", text=st["title"], width=WIDTH)
    caption = Div(name="graphpriv-caption", text=st["caption"], width=WIDTH)
    slider = Slider(name=SLIDER_NAME, start=0, end=max(T - 1, 1), value=start, step=1, width=WIDTH - 70,
                    title="step t (← → keys" + ("" if meta["kind"] == "components" else f"; released: t = {r}")
                    + (f"; rejected: t = {', '.join(map(str, rej))}" if rej else "") + ")",
                    margin=(5, 10, 5, 70), disabled=T < 2)
    slider.js_on_change("value", CustomJS(args=dict(steps=steps, sources=src, xr=xr, cut=cut, tlines=tlines, title=title,
                                                    caption=caption, table=table, strip_y=strip_y), code=_STEP_JS))
    return column(title, slider, strip, mat, ticks, xlab, row(hier, column(*curves)), caption, table)
