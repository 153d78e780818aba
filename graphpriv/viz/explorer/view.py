"""An interactive explorer of a merge trace: one self-contained HTML page built with bokeh.

:func:`explore` turns a trace of Ding & Farokhi's mechanisms (*Developing Non-Stochastic
Privacy-Preserving Policies Using Agglomerative Clustering*, Algorithms 1 and 2, Section V-C) into a
page with a slider (buttons and the arrow keys) over the step t and linked views sharing one horizontal
axis, leaf under column: the merge hierarchy cut at t, the anonymity strip |[[S|x̂]]| and the matrix
view of [[S, X̂(t)]]; below, L(t), privacy and utility against t, and the best candidate pairs of step t
by the mechanism's own criterion (first column), the chosen pair first. Hovering a cluster (its band
in the matrix or the strip, or its mark on the cut of the hierarchy) shows its members and sensitive
set and highlights it in every view: its outline in the matrix and the strip, its subtree in the
hierarchy, the step that formed it on the curves, and the candidate pairs it holds. The mouse wheel
zooms into a region, dragging pans it, clicking a band zooms to its cluster and double-clicking shows
every value again (all three views); tapping a link of the hierarchy collapses
its subtree into one band labelled with its number of values, tapping the band expands it, and "fold
below the cut" folds every cluster of Q(t) at once. The step and the visible range live in the
page's URL fragment (``#t=5&x0=..&x1=..``), so a view can be shared and is restored on load.

The page ships the payload of :func:`graphpriv.viz.explorer.explorer_data` once -- the hierarchy, the pairs of
[[S, X]], the per-step scalars and candidates -- and its script (:mod:`.script`) cuts the hierarchy
at t in the browser, so its size grows with the number of public values, not with steps × values.

Why bokeh
---------
Both well-kept candidates, plotly and bokeh, were measured on the Hungarian Algorithm 1 trace (S = age,
X = cholesterol with missing values dropped: 153 public values, 37 sensitive; λ = 0.3, U1, 15 steps),
each building the same linked views into one offline HTML file (library JavaScript inlined), loaded in
headless Chromium: plotly 7.1 gave 5.70 MB and 3.2-3.5 s to load, bokeh 3.9 2.28 MB and 1.0-1.6 s, with
the same hover, linked ranges and table, so bokeh was chosen.
"""

from __future__ import annotations

import html as _html
import math
import os
from pathlib import Path

from ...errors import InputError, InputTypeError

__all__ = ["explore", "explore_components", "Explorer"]

#: Width of the plot frames that share the horizontal axis, in CSS pixels.
FRAME_WIDTH = 1100
#: Narrowest frame the page shrinks to in a narrow window (below it, the page scrolls sideways).
MIN_FRAME_WIDTH = 480
#: Left and right borders of those plots (fixed, so that their frames line up pixel for pixel).
BORDER_LEFT = 110
BORDER_RIGHT = 20
#: Whole width of the page's plots.
WIDTH = FRAME_WIDTH + BORDER_LEFT + BORDER_RIGHT
#: Characters of a sensitive label on the matrix's axis (the full label on hover).
ROW_CHARS = 14
#: Height of the tick-label panel under the matrix and the characters of a label that fit in it.
TICKS_HEIGHT = 118
TICK_CHARS = 17
#: Room left of the first and right of the last column at the whole range, in CSS pixels: the outermost
#: tick labels and pair numbers (at most ~40 px wide) are centred on their columns and must not be cut.
PAD_PX = 24

#: Model names the page's script (and tests) look up in the bokeh document.
SLIDER_NAME = "graphpriv-t"
NAMES = ("graphpriv-title", "graphpriv-caption", "graphpriv-matrix", "graphpriv-strip", "graphpriv-hierarchy",
         "graphpriv-candidates", "graphpriv-ranking")

_KEYS_JS = """<script>
// one step per key press: caught first (capture phase on the window) and kept from the slider's own key handling,
// which moved the step a second time when the slider had the focus
window.addEventListener('keydown', function (e) {
  if (e.key !== 'ArrowRight' && e.key !== 'ArrowLeft') return;
  if (!window.__gpx) return;
  const el = e.composedPath ? e.composedPath()[0] : e.target;
  if (el && (el.tagName === 'INPUT' || el.tagName === 'TEXTAREA' || el.tagName === 'SELECT' || el.isContentEditable)) return;
  e.preventDefault();
  e.stopPropagation();
  window.__gpx.step(e.key === 'ArrowRight' ? 1 : -1);
}, true);
window.addEventListener('resize', function () {
  if (!window.__gpx) return;
  clearTimeout(window.__gpx_fit);
  window.__gpx_fit = setTimeout(function () { window.__gpx.fit(); }, 100);
});
window.addEventListener('hashchange', function () { if (window.__gpx) window.__gpx.applyHash(window.__gpx.st.t); });
</script>
"""

_READY_JS = """
if (!window.__gpx) {
  A.proto_image = A.src.image.data.image[0];
  window.__gpx = gpxMake(A);
  window.__gpx.drawLinks();
  window.__gpx.applyHash(A.start);
  window.__gpx.fit();
}
"""


def _bokeh():
    try:
        import bokeh  # noqa: F401
    except ImportError:
        raise ImportError("the interactive explorer needs bokeh, a dependency of graphpriv that is missing here: "
                          "pip install 'bokeh>=3.4' (or reinstall graphpriv)") from None


class Explorer:
    """An interactive explorer of a merge trace (see :func:`explore`).

    Displays inline in Jupyter (in an isolated frame, so its arrow keys do not reach the notebook) and
    :meth:`save` writes one self-contained HTML file that works offline.

    Attributes
    ----------
    data : dict
        The payload (:func:`graphpriv.viz.explorer.explorer_data`).
    layout : bokeh.models.LayoutDOM
        The bokeh layout (slider, plots, table).
    document : bokeh.document.Document
        The document holding ``layout`` and the page's start-up callback.
    """

    def __init__(self, data: dict, layout, document=None):
        self.data = data
        self.layout = layout
        self.document = document

    def to_html(self) -> str:
        """The whole page (bokeh's JavaScript inlined, no network needed)."""
        from bokeh.embed import file_html
        from bokeh.resources import INLINE

        m = self.data["meta"]
        page = file_html(self.document if self.document is not None else self.layout, INLINE,
                         f"graphpriv explorer: {m['algorithm']}")
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
                f'style="width:{WIDTH + 40}px;height:1350px;border:0" title="graphpriv merge explorer"></iframe>')

    def __repr__(self) -> str:
        m = self.data["meta"]
        return (f"Explorer(objective={m['objective']!r}, utility={m['utility']!r}, |X|={m['n_public']}, "
                f"steps={m['n_steps']}, returned={m['returned']})")


#: Largest page built by default, in pairs of [[S, X]] plus public values (what the page holds).
MAX_CELLS = 4_000_000


def explore(result, jr, *, top: int = 5, utility=None, values=None, start: int | None = None,
            max_cells: int = MAX_CELLS) -> Explorer:
    """An interactive explorer of a mechanism's merges: slider over t, linked matrix, hierarchy, curves.

    Parameters
    ----------
    result : AgglomerationResult, WatchdogResult, EpsDeltaResult or MergeTrace
        A mechanism's result (its ``.trace`` is used) or a trace.
    jr : JointRange or JointDistribution
        The data the mechanism ran on (a distribution gives its support). A trace that records its
        mechanism's own criterion per step (``trace.step_criteria``) shows it as "why this step" and
        plots it by name instead of L(t).
    top : int
        Candidate pairs listed per ranked pair (:func:`graphpriv.viz.merge_candidates`).
    utility, values
        As given to the mechanism, for the candidates' costs (only needed for a U2 run whose public labels
        are not its numeric values, or with a custom codeword or distance).
    start : int, optional
        Step shown first (default: the released step; a ``#t=`` in the page's URL wins).
    max_cells : int
        Refuse (InputError) a page holding more than this many pairs of [[S, X]] plus public values (the
        page's data grows with them, not with the steps; 10^4 public values with 2 sensitive values each
        hold 30,000).

    Returns
    -------
    Explorer
        ``.save("explorer.html")`` writes the page; in Jupyter it displays inline.

    Raises
    ------
    ImportError
        When bokeh (a dependency of graphpriv) is missing.

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

    from ..merges import _check_pair

    trace = getattr(result, "trace", result)
    if not isinstance(trace, MergeTrace):
        raise InputTypeError(f"explore needs a mechanism's result (an AgglomerationResult of gp.agglomerate, a "
                             f"WatchdogResult, an EpsDeltaResult, ...) or a MergeTrace, got {type(result).__name__}")
    trace, jr = _check_pair(trace, jr)     # a JointDistribution gives its support
    _bokeh()
    start = trace.returned if start is None else trace._check_t(start)
    cells = int(getattr(getattr(jr, "matrix", None), "nnz", 0)) + trace.n_public
    if cells > max_cells:
        raise InputError(f"this explorer would hold {cells:,} pairs and public values ({jr.n_sensitive} sensitive × "
                         f"{trace.n_public} public values), more than max_cells={max_cells:,}; pass a larger max_cells= "
                         "to build it anyway")
    data = explorer_data(trace, jr, top=top, utility=utility, values=values)
    layout, doc = build_layout(data, start)
    return Explorer(data, layout, doc)


def explore_components(jr, **kwargs) -> Explorer:
    """An explorer of the components of G_X (:func:`graphpriv.viz.explorer.component_trace`), opened at t = 1 where
    every band of the matrix is one component; keyword arguments go to :func:`explore`."""
    from .components import component_trace

    return explore(component_trace(jr), jr, **kwargs)


# ---------------------------------------------------------------------- page
def _fmt(v, digits: int = 4) -> str:
    """A number as the page writes it (``digits`` significant digits; ∞; — for a missing value)."""
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
        return "criterion"
    return crit.split(" over ")[0].split(" for ")[0] + " (ranks)"


_TOOLTIP = """<div style="max-width:460px;font-size:12px">
<b>cluster @label</b> <span style="color:#882255">@merged</span><br>
<b>@n value(s):</b> @members<br>
<b>sensitive set [[S|x̂]] (@anon):</b> @sens
</div>"""


def _elide(text: str, k: int) -> str:
    """``text`` in at most ``k`` characters: its start and its end around an ellipsis (labels that share a
    prefix stay apart)."""
    if len(text) <= k:
        return text
    head = (k - 1) // 2
    return text[:head] + "…" + text[len(text) - (k - 1 - head):]


def _arrays(d: dict) -> dict:
    """The payload with its long integer/float lists as numpy arrays (sent to the page as binary)."""
    import numpy as np

    tree = dict(d["tree"])
    for key in ("left", "right", "height", "lo", "hi", "parent", "color", "ends"):
        tree[key] = np.asarray(tree[key], dtype=np.int32)
    tree["x"] = np.asarray(tree["x"], dtype=np.float64)
    leaves = dict(d["leaves"], code=np.asarray(d["leaves"]["code"], dtype=np.int32),
                  comp=np.asarray(d["leaves"]["comp"], dtype=np.int32),
                  rank=np.asarray(d["leaves"].get("rank", range(len(d["leaves"]["code"]))), dtype=np.int32))
    pairs = {"ptr": np.asarray(d["pairs"]["ptr"], dtype=np.int32), "row": np.asarray(d["pairs"]["row"], dtype=np.int32)}
    return {**d, "tree": tree, "leaves": leaves, "pairs": pairs}


def _capped(values: list) -> tuple[list, float | None]:
    """A curve's values with ±∞ (stored as ±1e308) moved to a line just above (below) the finite ones;
    the line's height, or None when every value is finite."""
    fin = [v for v in values if v is not None and abs(v) < 1e300]
    if len(fin) == sum(v is not None for v in values):
        return list(values), None
    lo, hi = (min(fin), max(fin)) if fin else (0.0, 1.0)
    gap = max(0.25 * (hi - lo), 0.1 * abs(hi), 0.5)
    return [v if v is None or abs(v) < 1e300 else (hi + gap if v > 0 else lo - gap) for v in values], hi + gap


def full_range(n: int, frame_width: int = FRAME_WIDTH) -> tuple[float, float]:
    """The shared horizontal range showing all ``n`` columns (column p spans p ± 0.5) with ``PAD_PX``
    pixels of room on either side in a frame ``frame_width`` pixels wide."""
    n = max(n, 1)
    pad = PAD_PX * n / max(frame_width - 2 * PAD_PX, 1)
    return -0.5 - pad, n - 0.5 + pad


#: The page opens on the merged values when they span less than this share of all columns.
FOCUS_SHARE = 0.6


def opening_range(d: dict, t: int, frame_width: int = FRAME_WIDTH) -> tuple[float, float]:
    """The shared horizontal range the page opens on at step t: the columns of the clusters of Q(t) with two or
    more values (where the merges are) and a margin of half their span (at least 8 columns) either side, when
    they cover less than :data:`FOCUS_SHARE` of the columns; else every column (:func:`full_range`). Among
    thousands of values a few merges are then drawn wide, not as a sliver; "whole range" shows every value."""
    from .data import explorer_cut

    n = d["meta"]["n_public"]
    x0, x1 = full_range(n, frame_width)
    if n < 2 or d["meta"].get("kind") == "components":
        return x0, x1
    runs = [(a, b) for a, b, _ in explorer_cut(d, t) if b > a]
    if not runs:
        return x0, x1
    lo, hi = min(a for a, _ in runs), max(b for _, b in runs)
    span = hi - lo + 1
    if span >= FOCUS_SHARE * n:
        return x0, x1
    pad = max(8.0, span / 2)
    width = span + 2 * pad
    edge = PAD_PX * width / max(frame_width - 2 * PAD_PX, 1)   # room for the outermost labels, as full_range keeps
    a, b = lo - 0.5 - pad, hi + 0.5 + pad
    if a < -0.5 - edge:       # no empty room left of the first column: the window slides right
        a, b = -0.5 - edge, b + (-0.5 - edge - a)
    if b > n - 0.5 + edge:
        a, b = a - (b - (n - 0.5 + edge)), n - 0.5 + edge
    return max(x0, a), min(x1, b)


#: Narrowest subtree of the hierarchy drawn, in CSS pixels (narrower ones are drawn when zoomed in).
MIN_LINK_PX = 4
#: Height of the hierarchy's plot: the most, and the least (a trace with few merges for its values).
HIER_HEIGHT = 250
HIER_MIN_HEIGHT = 90


def hierarchy_height(tree: dict, n: int) -> int:
    """Pixel height of the hierarchy's plot: ``HIER_HEIGHT`` when at least a quarter of the ``n`` public
    values take part in a drawn merge, shrinking linearly to ``HIER_MIN_HEIGHT`` for a trace that merges
    none (the joins that only complete the tree are not drawn)."""
    merges = sum(1 for h in tree["height"] if h < tree["completing"])
    share = min(1.0, 4.0 * merges / max(n - 1, 1))
    return int(round(HIER_MIN_HEIGHT + (HIER_HEIGHT - HIER_MIN_HEIGHT) * share))


def build_layout(d: dict, start: int):
    """The bokeh layout and document of the payload ``d`` (:func:`graphpriv.viz.explorer.explorer_data`), opening at
    step ``start`` (unless the URL fragment names another)."""
    import numpy as np
    from bokeh.document import Document
    from bokeh.events import DocumentReady
    from bokeh.layouts import column, row
    from bokeh.models import (BoxZoomTool, Button, ColumnDataSource, CustomJS, DataTable, Div, HoverTool, HTMLTemplateFormatter, FixedTicker,
                              LinearColorMapper, Range1d, ResetTool, SingleIntervalTicker, Slider, Span, TableColumn,
                              TapTool, WheelZoomTool, PanTool)
    from bokeh.plotting import figure

    from .script import PAGE_JS

    meta = d["meta"]
    T = meta["n_steps"]
    R = max(len(d["rows"]), 1)
    n = meta["n_public"]
    merge = meta["merge_color"]
    comp_kind = meta["kind"] == "components"
    many_pairs = any(s["n_pairs"] > 1 for s in d["steps"]) and not comp_kind
    x0, x1 = full_range(n)
    f0, f1 = opening_range(d, start)
    xr = Range1d(f0, f1, bounds=(x0, x1), min_interval=min(5.0, max(n, 1)))

    src = {k: ColumnDataSource(v) for k, v in {
        "image": dict(image=[np.zeros((1, 1), dtype=np.uint8)], x=[-0.5], y=[-0.5], dw=[1], dh=[1]),
        "bands": dict(x=[], w=[], top=[], col=[], label=[], n=[], members=[], sens=[], anon=[], merged=[], y=[], h=[]),
        "marks": dict(x=[], y=[], col=[], label=[], n=[], members=[], sens=[], anon=[], merged=[], band=[]),
        "links": dict(x0=[], y0=[], x1=[], y1=[], row=[], c=[]),
        "hl": dict(x0=[], y0=[], x1=[], y1=[], row=[]),
        "hov_links": dict(x0=[], y0=[], x1=[], y1=[], row=[]),
        "folds": dict(xs=[], ys=[], node=[], text=[], tx=[], ty=[]),
        "hov": dict(left=[], right=[], top=[], bottom=[], stop=[]),
        "ticks": dict(x=[], text=[], col=[]),
        "badges": dict(x=[], y=[], text=[]),
        "cur": dict(t=[], L=[], privacy=[], utility=[], criterion=[]),
    }.items()}

    def fig(height: int, **kw):
        f = figure(toolbar_location=None, tools="", frame_width=FRAME_WIDTH, height=height, **kw)
        f.grid.visible = False
        f.outline_line_color = None
        f.min_border_left = BORDER_LEFT
        f.min_border_right = BORDER_RIGHT
        f.min_border_top = 4
        f.min_border_bottom = 4
        return f

    def zoom_tools(f):
        wheel, pan = WheelZoomTool(dimensions="width"), PanTool(dimensions="width")
        f.add_tools(wheel, pan, BoxZoomTool(dimensions="width"), ResetTool())
        f.toolbar.active_scroll = wheel
        f.toolbar.active_drag = pan

    hover_cb = CustomJS(code="if (window.__gpx) { const i = cb_data.index.indices; window.__gpx.highlight(i.length ? i[0] : -1); }")

    # merge hierarchy (leaves at the bottom, over their columns)
    tree = d["tree"]
    hier_h = hierarchy_height(tree, n)
    hier = fig(hier_h, name="graphpriv-hierarchy", x_range=xr, y_range=Range1d(-0.6, T + 0.6))
    hier.xaxis.visible = False
    hier.yaxis.axis_label = "step t"
    hier.yaxis.ticker = SingleIntervalTicker(interval=max(1, math.ceil(T / max(2, min(8, (hier_h - 40) // 22)))),
                                             num_minor_ticks=0)
    completing = sum(1 for h in tree["height"] if h >= tree["completing"])
    # its caption in a Div above it, which wraps when the window is narrow
    hier_note = Div(name="graphpriv-hierarchy-note", width=FRAME_WIDTH,
                    styles={"font-size": "12px", "margin-left": f"{BORDER_LEFT}px"}, text=_html.escape(
                        f"merge hierarchy: {n} public values as leaves, coloured by component of G_X; dashed: the cut "
                        "at t; tap a link: fold its subtree, a fold: unfold"
                        + ("; narrow subtrees show when zoomed in" if n * MIN_LINK_PX > FRAME_WIDTH else "")
                        + (f"; the {completing} join(s) that only complete the tree are not drawn" if completing else "")))
    cut = Span(location=start + 0.5, dimension="width", line_dash="dashed", line_color=merge, line_width=1.5)
    hier.add_layout(cut)
    link_map = LinearColorMapper(palette=list(tree["colors"]) + ["#000000"] * max(0, 3 - len(tree["colors"])),
                                 low=-0.5, high=max(len(tree["colors"]), 3) - 0.5)
    links = hier.segment("x0", "y0", "x1", "y1", source=src["links"], line_width=1,
                         line_color={"field": "c", "transform": link_map}, nonselection_alpha=1.0,
                         selection_line_color={"field": "c", "transform": link_map})
    folds = hier.patches("xs", "ys", source=src["folds"], fill_color="#bdbdbd", line_color="#606060", fill_alpha=0.8,
                         nonselection_fill_alpha=0.8, selection_fill_color="#bdbdbd")
    hier.text(x="tx", y="ty", text="text", source=src["folds"], text_font_size="9px", text_align="center",
              text_baseline="middle", text_color="#202020")
    hier.segment("x0", "y0", "x1", "y1", source=src["hl"], line_width=3, line_color=merge)
    hier.segment("x0", "y0", "x1", "y1", source=src["hov_links"], line_width=2.5, line_color="#000000", line_alpha=0.8)
    marks = hier.scatter(x="x", y="y", source=src["marks"], marker="dash", angle=math.pi / 2, size=11, line_width=2,
                         color="col")
    hier.add_tools(HoverTool(renderers=[marks], tooltips=_TOOLTIP, callback=CustomJS(code=(
        "if (window.__gpx) { const i = cb_data.index.indices; "
        "window.__gpx.highlight(i.length ? window.__gpx.A.src.marks.data.band[i[0]] : -1); }"))))
    tap = TapTool(renderers=[links, folds])
    hier.add_tools(tap)
    src["links"].selected.js_on_change("indices", CustomJS(code="""
const i = cb_obj.indices; if (!i.length || !window.__gpx) return;
const row = window.__gpx_links.data.row[i[0]]; cb_obj.indices = []; window.__gpx.collapse(window.__gpx.n + row);"""))
    src["folds"].selected.js_on_change("indices", CustomJS(code="""
const i = cb_obj.indices; if (!i.length || !window.__gpx) return;
const v = window.__gpx_folds.data.node[i[0]]; cb_obj.indices = []; window.__gpx.collapse(v);"""))
    zoom_tools(hier)

    # anonymity strip
    strip_y = Range1d(0, 1)
    strip = fig(80, name="graphpriv-strip", x_range=xr, y_range=strip_y)
    strip.yaxis.axis_label = "|[[S|x̂]]|"
    strip.xaxis.visible = False
    strip.yaxis.ticker.desired_num_ticks = 3
    strip.yaxis.minor_tick_line_color = None
    bars = strip.vbar(x="x", width="w", top="top", bottom=0, fill_color="col", line_color=None, source=src["bands"],
                      nonselection_alpha=1.0)
    strip.quad(left="left", right="right", top="stop", bottom=0, source=src["hov"], fill_alpha=0, line_color="#000000",
               line_width=2)
    strip.add_tools(HoverTool(renderers=[bars], tooltips=_TOOLTIP, callback=hover_cb))
    zoom_tools(strip)

    # matrix
    badge_rows = (16 * R / 300) if many_pairs else 0.0
    frame_h = int(min(380, max(150, 6 * R)))
    mat = fig(frame_h + 8, name="graphpriv-matrix", x_range=xr, y_range=Range1d(R - 0.5, -0.5 - badge_rows))
    mat.frame_height = frame_h
    mat.height = None
    mapper = LinearColorMapper(palette=d["colors"], low=-0.5, high=len(d["colors"]) - 0.5)
    mat.image(image="image", x="x", y="y", dw="dw", dh="dh", color_mapper=mapper, source=src["image"])
    cells = mat.rect(x="x", y="y", width="w", height="h", fill_alpha=0, line_alpha=0, source=src["bands"],
                     hover_fill_color="black", hover_fill_alpha=0.05, hover_line_alpha=0)
    mat.add_tools(HoverTool(renderers=[cells], tooltips=_TOOLTIP, callback=hover_cb), TapTool(renderers=[cells]))
    src["bands"].selected.js_on_change("indices", CustomJS(code="""
const i = cb_obj.indices; if (!i.length || !window.__gpx) return;
cb_obj.indices = []; window.__gpx.zoomTo(i[0]);"""))
    mat.quad(left="left", right="right", top="top", bottom="bottom", source=src["hov"], fill_alpha=0, line_color="#000000",
             line_width=2)
    mat.text(x="x", y="y", text="text", source=src["badges"], text_color="white", text_font_size="10px",
             text_align="center", text_baseline="middle", background_fill_color=merge, padding=1)
    step_r = max(1, math.ceil(R / max(1, frame_h // 13)))
    mat.yaxis.ticker = list(range(0, R, step_r))
    mat.yaxis.major_label_overrides = {i: _elide(d["rows"][i], ROW_CHARS) for i in range(0, len(d["rows"]), step_r)}
    mat.yaxis.axis_label = "sensitive S"
    mat.xaxis.visible = False
    mat.outline_line_color = "#808080"
    zoom_tools(mat)
    for f in (hier, strip, mat):
        f.js_on_event("doubletap", CustomJS(code="window.__gpx && window.__gpx.resetZoom();"))

    ticks = fig(TICKS_HEIGHT, x_range=xr, y_range=Range1d(-1, 0))
    ticks.text(x="x", y=0, text="text", angle=-math.pi / 2, text_align="left", text_baseline="middle",
               text_font_size="10px", text_color="col", source=src["ticks"])
    ticks.axis.visible = False
    xlab = Div(text="public X, in the order of the merge hierarchy's leaves (the same at every step; each cluster a band) "
                    "&mdash; dark cell: (s, x) ∈ [[S, X]]; light: added by the quantisation X̂ (S|x̂ = ∪ S|x over the "
                    "cluster); grey bands alternate clusters. Wheel: zoom; drag: pan; click a band: zoom to its cluster and "
                    "neighbours; double-click or “whole range”: every value.",
               width=FRAME_WIDTH, styles={"font-size": "12px", "margin-left": f"{BORDER_LEFT}px"})

    # L(t), privacy, utility
    ser = d["series"]
    tr_ = Range1d(-0.5, max(T, 1) - 0.5)
    curves, tlines, formed = [], [], []
    priv_name = meta.get("privacy_label") or f"{meta['privacy_name']} (bits)"
    util_name = meta.get("utility_label") or f"{meta['utility']} ({'bits' if meta['utility'] == 'U1' else 'distortion'})"
    # a trace with its own per-step criterion (no Lagrangian) plots that criterion by name instead of L(t)
    first = ("criterion", meta["criterion_label"]) if meta.get("criterion") else ("L", "L(t)")
    rej = [i for i, a in enumerate(ser["accepted"]) if not a]
    r = meta["returned"]
    plotted: dict = {}
    for key, name in (first, ("privacy", priv_name), ("utility", util_name)):
        f = figure(toolbar_location=None, tools="", width=WIDTH // 3, height=170, x_range=tr_)
        f.grid.visible = False
        f.outline_line_color = None
        f.yaxis.axis_label = name
        f.yaxis.ticker.desired_num_ticks = 3
        f.yaxis.minor_tick_line_color = None
        f.xaxis.ticker = SingleIntervalTicker(interval=max(1, math.ceil(T / 8)), num_minor_ticks=0)
        f.xaxis.axis_label = "step t"
        ys, top = _capped(ser[key])      # ±∞ (a pair of probability 0 has |log-lift| = ∞) drawn on a line
        ys = np.asarray([math.nan if v is None else v for v in ys], dtype=float)    # a step without the value: a gap
        if not np.isfinite(ys).any():     # nothing to draw (e.g. a criterion of a trace without merges): a fixed range
            f.y_range = Range1d(-0.5, 0.5)
        plotted[key] = ys
        f.line(ser["t"], ys, color=meta["release_color"], line_width=1.5)
        pts = f.scatter(ser["t"], ys, color=meta["release_color"], size=5)
        if top is None:
            pts.data_source.data["v"] = ser[key]
            f.add_tools(HoverTool(renderers=[pts], tooltips=f"t = @x, {key} = @v{{0.00000}}"))
        else:
            pts.data_source.data["v"] = [_fmt(v, 6) for v in ser[key]]
            f.add_tools(HoverTool(renderers=[pts], tooltips=f"t = @x, {key} = @v"))
            f.add_layout(Span(location=top, dimension="width", line_dash="dotted", line_color="#999999", line_width=1))
            from matplotlib.ticker import MaxNLocator

            fin = [float(v) for v in ys if v == v and v < top]
            lo_, hi_ = (min(fin), max(fin)) if fin else (0.0, 0.0)
            yt = [float(v) for v in MaxNLocator(3).tick_values(lo_, hi_) if lo_ - 1e-12 <= v <= hi_ + 1e-12] if hi_ > lo_ else [lo_]
            f.yaxis.ticker = FixedTicker(ticks=yt + [top])
            f.yaxis.major_label_overrides = {top: "∞"}
        if rej:
            f.scatter(rej, [float(ys[i]) for i in rej], marker="x", size=10, line_width=2, color="#D55E00")
        f.scatter([r], [float(ys[r])], marker="star", size=13, color=meta["release_color"])
        f.scatter(x="t", y=key, source=src["cur"], size=11, color=merge, line_color="white")
        line = Span(location=start, dimension="height", line_dash="dotted", line_color=merge, line_width=1.2)
        made = Span(location=0, dimension="height", line_color="#000000", line_width=1.5, visible=False)
        f.add_layout(line)
        f.add_layout(made)
        tlines.append(line)
        formed.append(made)
        curves.append(f)

    steps = d["steps"]
    crit = next((s["candidates"] for s in steps if s["candidates"]["criterion"]), steps[0]["candidates"])
    n_rows = max(2, max(len(s["candidates"]["rows"]) for s in steps))
    table_src = ColumnDataSource(dict(cost=[], rank=[], pair=[], dl=[], number=[]))
    table = DataTable(name="graphpriv-candidates", source=table_src, width=WIDTH, height=30 + 26 * min(n_rows, TABLE_ROWS),
                      index_position=None, sortable=False, reorderable=False, columns=[
                          TableColumn(field="cost", title=_cost_header(crit), width=190),
                          TableColumn(field="rank", title="rank", width=90),
                          TableColumn(field="pair", title="candidate pair", width=600, formatter=HTMLTemplateFormatter(
                              template='<span title="<%- value %>"><%- value %></span>')),
                          TableColumn(field="dl", title="ΔL of this merge alone", width=170),
                          TableColumn(field="number", title="merged pair no.", width=110)])
    table.visible = not comp_kind and not meta.get("criterion")      # criterion traces rank no candidate pairs
    title = Div(name="graphpriv-title", text="", width=WIDTH)
    caption = Div(name="graphpriv-caption", text="", width=WIDTH)
    ranking = Div(name="graphpriv-ranking", text="", width=WIDTH)
    badge_note = Div(text="", width=FRAME_WIDTH, styles={"margin-left": f"{BORDER_LEFT}px"})
    slider = Slider(name=SLIDER_NAME, start=0, end=max(T - 1, 1), value=min(start, max(T - 1, 0)), step=1,
                    width=FRAME_WIDTH - 380,
                    title="step t (← → keys" + ("" if comp_kind else f"; released: t = {r}")
                    + (f"; rejected: t = {', '.join(map(str, rej))}" if rej else "")
                    + ("; no merge in this trace" if T < 2 else "") + ")",
                    disabled=T < 2)
    prev_b = Button(label="◀", width=40, disabled=T < 2)
    next_b = Button(label="▶", width=40, disabled=T < 2)
    reset_b = Button(label="whole range", width=110)
    unfold_b = Button(label="unfold all", width=90)
    fold_b = Button(label="fold below the cut", width=140)
    slider.js_on_change("value", CustomJS(code="if (window.__gpx && window.__gpx.st.t !== window.__gpx.clampT(cb_obj.value)) "
                                               "window.__gpx.setStep(cb_obj.value); "
                                               "else if (window.__gpx && cb_obj.value !== window.__gpx.st.t) cb_obj.value = window.__gpx.st.t;"))
    prev_b.js_on_click(CustomJS(code="window.__gpx && window.__gpx.step(-1);"))
    next_b.js_on_click(CustomJS(code="window.__gpx && window.__gpx.step(1);"))
    reset_b.js_on_click(CustomJS(code="window.__gpx && window.__gpx.resetZoom();"))
    unfold_b.js_on_click(CustomJS(code="window.__gpx && window.__gpx.expandAll();"))
    fold_b.js_on_click(CustomJS(code="window.__gpx && window.__gpx.foldCut();"))
    on_range = CustomJS(code="window.__gpx && window.__gpx.scheduleView();")
    xr.js_on_change("start", on_range)
    xr.js_on_change("end", on_range)

    args = dict(D=_arrays(d), PS=plotted, src=src, xr=xr, strip_y=strip_y, cut=cut, tlines=tlines, formed=formed, title=title,
                caption=caption, ranking=ranking, badge_note=badge_note, table=table, table_src=table_src, slider=slider,
                start=int(start), frame_w=FRAME_WIDTH, frame_h=frame_h, tick_chars=TICK_CHARS, width=WIDTH,
                badge_y=-0.5 - badge_rows / 2, x0=x0, x1=x1,
                min_px=MIN_LINK_PX, plots=[hier, strip, mat, ticks], curves=curves, wide=[title, caption, ranking, table],
                framed=[hier_note, xlab, badge_note], border_right=BORDER_RIGHT, min_frame_w=MIN_FRAME_WIDTH)
    ready = CustomJS(args=dict(A=args), code=PAGE_JS + "\nwindow.__gpx_links = A.src.links; window.__gpx_folds = A.src.folds;\n"
                     + _READY_JS)
    controls = row(prev_b, slider, next_b, reset_b, fold_b, unfold_b, styles={"margin-left": f"{BORDER_LEFT - 50}px"})
    if meta.get("criterion"):   # the mechanism's reason for the step right under what it merged
        layout = column(title, controls, hier_note, hier, strip, mat, badge_note, ticks, xlab, caption, ranking, row(*curves), table)
    else:
        layout = column(title, controls, hier_note, hier, strip, mat, badge_note, ticks, xlab, caption, row(*curves), ranking, table)
    doc = Document()
    doc.add_root(layout)
    doc.js_on_event(DocumentReady, ready)
    return layout, doc
