"""Explorer page: bokeh (what ``gp.viz.explore`` writes) against a plotly build of the same views.

Both pages render the payload of ``gp.viz.explorer_data`` for the Hungarian Algorithm 1 trace (S = age,
X = cholesterol with missing values dropped: 153 public values; lambda = 0.3, U1): a slider over t, the
matrix view with its anonymity strip, the merge hierarchy cut at t, L(t) / privacy / utility against t,
and the candidate table; each is one HTML file with the library's JavaScript inlined (offline). The
bokeh page swaps its column data sources in one slider callback; the plotly page has one animation
frame per step and plotly's own slider. Printed: file size, build time, and the load time in headless Chromium (median of --loads runs,
from navigation to the plot drawn).

    python benchmarks/bench_explorer_backends.py [--loads 5] [--chromium /usr/bin/chromium]
"""

from __future__ import annotations

import argparse
import html as _html
import json
import math
import os
import statistics
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

import graphpriv as gp  # noqa: E402
from graphpriv.viz.explorer.view import _cost_header, _fmt, _short  # noqa: E402
from _timing import timed  # noqa: E402

CHROMIUM_ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking",
                 "--disable-component-update", "--disable-sync", "--no-first-run"]

#: The pages are drawn: plotly's heatmap image is in the DOM; bokeh's document reports idle (all views rendered).
PLOTLY_DRAWN = "() => document.querySelector('.heatmaplayer image') !== null"
BOKEH_DRAWN = "() => window.Bokeh !== undefined && Bokeh.documents.length > 0 && Bokeh.documents[0].is_idle"


# ---------------------------------------------------------------------- the plotly build of the same views
# (graphpriv shipped this first; kept here so the comparison can be repeated)
_KEYS_JS = """
(function () {
  var gd = document.getElementById('{plot_id}');
  function go(t) {
    var steps = gd.layout.sliders[0].steps;
    t = Math.max(0, Math.min(steps.length - 1, t));
    Plotly.animate(gd, [steps[t].args[0][0]],
                   {mode: 'immediate', frame: {duration: 0, redraw: true}, transition: {duration: 0}});
  }
  document.addEventListener('keydown', function (e) {
    if (e.key !== 'ArrowRight' && e.key !== 'ArrowLeft') return;
    go(gd._fullLayout.sliders[0].active + (e.key === 'ArrowRight' ? 1 : -1));
    e.preventDefault();
  });
})();
"""


# vertical layout in pixels from the top of the plot area (converted to paper coordinates by _dom)
WIDTH = 1240
_MARGIN = dict(l=70, r=30, t=78, b=8)
_PLOT_H = 1075
HEIGHT = _PLOT_H + _MARGIN["t"] + _MARGIN["b"]
_SLIDER_Y = 0
_STRIP_PX = (78, 138)
_MATRIX_PX = (146, 446)
_LOWER_PX = (585, 830)
_CURVES_PX = [(585, 660), (670, 745), (755, 830)]
_CAPTION_PX = (870, 895)
_TABLE_PX = (905, 1075)


def _dom(px: tuple[int, int]) -> list[float]:
    """Paper-coordinate domain [bottom, top] of a band given in pixels from the top of the plot area."""
    return [1 - px[1] / _PLOT_H, 1 - px[0] / _PLOT_H]


_STRIP = _dom(_STRIP_PX)
_MATRIX = _dom(_MATRIX_PX)
_LOWER = _dom(_LOWER_PX)
_TABLE = _dom(_TABLE_PX)
_CURVES = [_dom(p) for p in _CURVES_PX]


def _hover_cluster(c: dict, n_values_line: int = 16) -> str:
    def wrap(items):
        lines = [", ".join(items[i:i + n_values_line]) for i in range(0, len(items), n_values_line)]
        return "<br>".join(lines)

    pair = f" — merged at this step (pair {c['pair']})" if c["pair"] else ""
    return (f"<b>cluster {_html.escape(c['label'])}</b>{pair}<br>{len(c['members'])} value(s): {_html.escape(wrap(c['members']))}"
            f"<br>sensitive set [[S|x̂]] ({c['anonymity']}): {_html.escape(wrap(c['sensitive']))}")


def _step_traces(go, d: dict, t: int, ticks_px: float, n_pairs: int) -> tuple[list, dict]:
    """Traces (in the order of the frame's ``traces``) and layout of step t.

    Animation frames update layout arrays element by element, so every step gets the same number of
    shapes and annotations (``n_pairs`` = most pairs merged in one step; unused ones are hidden)."""
    from graphpriv.viz.matrix import _pick_ticks

    s = d["steps"][t]
    meta = d["meta"]
    merge = meta["merge_color"]
    cl = s["clusters"]
    R = len(d["rows"])
    centres = [(c["x0"] + c["x1"]) / 2 for c in cl]
    widths = [c["x1"] - c["x0"] + 0.9 for c in cl]
    hover = [_hover_cluster(c) for c in cl]
    strip = go.Bar(x=centres, y=[c["anonymity"] for c in cl], width=widths, xaxis="x", yaxis="y",
                   marker=dict(color=[merge if c["pair"] else "#8c8c8c" for c in cl], line=dict(width=0)),
                   hovertext=hover, hoverinfo="text", name="|[[S|x̂]]|", showlegend=False)
    colors = d["colors"]
    N = len(colors)
    scale = []
    for i, col in enumerate(colors):
        scale += [[i / N, col], [(i + 1) / N, col]]
    heat = go.Heatmap(z=s["z"], x0=0, dx=1, y0=0, dy=1, xaxis="x", yaxis="y2", zmin=-0.5, zmax=N - 0.5, colorscale=scale,
                      showscale=False, hoverinfo="skip", name="matrix")
    overlay = go.Bar(x=centres, y=[R] * len(cl), base=[-0.5] * len(cl), width=widths, xaxis="x", yaxis="y2",
                     marker=dict(color="rgba(0,0,0,0)", line=dict(width=0)), hovertext=hover, hoverinfo="text",
                     name="clusters", showlegend=False)
    # hierarchy: links merged at t, the cut, the clusters at the cut
    dend = d["dendrogram"]
    hx, hy = [], []
    if dend is not None:
        for link in dend["links"]:
            if link["height"] == t and t > 0:
                hx += link["x"] + [None]
                hy += link["y"] + [None]
    merged_links = go.Scatter(x=hx, y=hy, mode="lines", line=dict(color=merge, width=3), xaxis="x3", yaxis="y3",
                              hoverinfo="skip", name=f"merged at t={t}", showlegend=False)
    xmax = 10 * meta["n_public"]
    cut = go.Scatter(x=[0, xmax], y=[t + 0.5, t + 0.5], mode="lines", line=dict(color=merge, width=1.5, dash="dash"),
                     xaxis="x3", yaxis="y3", hoverinfo="skip", showlegend=False, name="cut")
    marks = go.Scatter(x=[c.get("tree_x", 0) for c in cl], y=[t + 0.5] * len(cl), mode="markers", xaxis="x3", yaxis="y3",
                       marker=dict(size=7, color=[merge if c["pair"] else "#505050" for c in cl], symbol="line-ns-open",
                                   line=dict(width=1.5)),
                       hovertext=hover, hoverinfo="text", showlegend=False, name="clusters at the cut")
    # current t on the curves
    ser = d["series"]
    points = []
    for k, key in enumerate(("L", "privacy", "utility")):
        v = ser[key][t]
        points.append(go.Scatter(x=[t], y=[v], mode="markers", xaxis="x4", yaxis=f"y{4 + k}",
                                 marker=dict(size=10, color=merge, line=dict(color="white", width=1)),
                                 hovertemplate=f"t = {t}<br>{key} = {_fmt(v, 6)}<extra></extra>", showlegend=False))
    # candidates
    cands = s["candidates"]
    rows = cands["rows"]
    table = go.Table(
        domain=dict(x=[0, 1], y=list(_TABLE)),
        columnwidth=[1.0, 5, 1.4, 1.4],
        header=dict(values=["rank", "candidate pair at Q(t−1)", _html.escape(_cost_header(cands)), "ΔL if merged alone"],
                    align="left", fill_color="#f0f0f0", font=dict(size=12)),
        cells=dict(values=[[(f"{r['rank'] or '–'} ✔ chosen" if r["chosen"] else f"{r['rank']}") for r in rows],
                           [f"{{{r['a_label']}}} + {{{r['b_label']}}}" for r in rows],
                           [_fmt(r["cost"], 6) for r in rows], [_fmt(r["delta_L"], 4) for r in rows]],
                   align="left", height=22, font=dict(size=12),
                   fill_color=[["#f6e8ef" if r["chosen"] else "white" for r in rows]]),
    )
    # layout of the step: title, outlines of the merged clusters, ticks, the t line on the curves, texts
    status = s["status"]
    badge = {"released": " — <b>released</b>", "rejected": " — <b>rejected</b> (ΔL ≥ 0)"}.get(status, "")
    title_core = s["title"].split(" — ")[0]
    title = (f"{_html.escape(title_core)}{badge}<br><span style='font-size:13px'>L(t) = {_fmt(s['L'], 6)}, "
             f"ΔL = {_fmt(s['delta_L'], 4)}, privacy = {_fmt(s['privacy'], 4)}, utility = {_fmt(s['utility'], 4)}, "
             f"|Q(t)| = {s['n_clusters']}, components = {s['n_components']}</span>")
    shapes = []
    for c in cl:
        if c["pair"]:
            shapes.append(dict(type="rect", xref="x", yref="y2", x0=c["x0"] - 0.5, x1=c["x1"] + 0.5, y0=-0.5, y1=R - 0.5,
                               fillcolor="rgba(0,0,0,0)", opacity=1, visible=True,
                               line=dict(color=merge, width=2, dash="dot" if status == "rejected" else "solid")))
    shapes += [dict(type="rect", xref="x", yref="y2", x0=0, x1=0, y0=0, y1=0, visible=False)] * (n_pairs - len(shapes))
    for k in range(3):
        shapes.append(dict(type="line", xref="x4", yref=f"y{4 + k} domain", x0=t, x1=t, y0=0, y1=1,
                           fillcolor="rgba(0,0,0,0)", opacity=1, line=dict(color=merge, width=1, dash="dot")))
    texts = [c["label"] for c in cl]
    prio = [bool(c["pair"]) for c in cl]
    keep = _pick_ticks(centres, texts, prio, 13.0, ticks_px / max(1, s["width"]))
    merged_txt = "; ".join(f"{{{_short(a)}}} + {{{_short(b)}}}" for a, b in s["merged"][:4])
    if len(s["merged"]) > 4:
        merged_txt += f"; … ({len(s['merged'])} pairs, numbered on the matrix)"
    annotations = [
        dict(text=f"<b>merged at t = {t}:</b> {_html.escape(merged_txt) if merged_txt else 'nothing (initial state)'}",
             x=0, y=_TABLE[1] + 2 / _PLOT_H, xref="paper", yref="paper", xanchor="left", yanchor="bottom", showarrow=False,
             font=dict(size=12)),
        dict(text=_html.escape(_candidate_caption(cands)), x=0, y=_dom(_CAPTION_PX)[1], xref="paper", yref="paper",
             xanchor="left", yanchor="top", showarrow=False, font=dict(size=11, color="#505050")),
    ]
    for c in cl:
        if c["pair"] and len(s["merged"]) > 1:
            annotations.append(dict(text=str(c["pair"]), x=(c["x0"] + c["x1"]) / 2, y=-0.5, xref="x", yref="y2",
                                    yanchor="bottom", showarrow=False, font=dict(size=9, color="white"), bgcolor=merge,
                                    borderpad=1, visible=True))
    annotations += [dict(text="", x=0, y=0, xref="x", yref="y2", showarrow=False, visible=False)] * (n_pairs + 2 - len(annotations))
    layout = dict(
        title=dict(text=title),
        shapes=shapes,
        annotations=annotations,
        xaxis=dict(tickvals=[centres[i] for i in keep], ticktext=[texts[i] for i in keep], range=[-0.5, s["width"] - 0.5]),
    )
    return [strip, heat, overlay, merged_links, cut, marks, *points, table], layout


def _candidate_caption(c: dict) -> str:
    if not c["criterion"]:
        return f"Candidates: {c['note']}"
    txt = f"Candidates ranked by {c['criterion']} ({c['n']} pairs), best few, the chosen pair first"
    if c["note"]:
        txt += f". {c['note']}"
    return txt


def _static_traces(go, d: dict) -> list:
    meta = d["meta"]
    out = []
    dend = d["dendrogram"]
    if dend is not None:
        by_colour: dict[str, tuple[list, list]] = {}
        for link in dend["links"]:
            xs, ys = by_colour.setdefault(link["color"], ([], []))
            xs += link["x"] + [None]
            ys += link["y"] + [None]
        for col, (xs, ys) in by_colour.items():
            out.append(go.Scatter(x=xs, y=ys, mode="lines", line=dict(color=col, width=1), xaxis="x3", yaxis="y3",
                                  hoverinfo="skip", showlegend=False))
        n = meta["n_public"]
        out.append(go.Scatter(x=[5 + 10 * i for i in range(n)], y=[-0.35] * n, mode="markers", xaxis="x3", yaxis="y3",
                              marker=dict(symbol="square", size=5, color=dend["leaf_colors"]),
                              hovertext=[f"public value {v}" for v in dend["leaf_labels"]], hoverinfo="text", showlegend=False))
    ser = d["series"]
    ts = ser["t"]
    for k, key in enumerate(("L", "privacy", "utility")):
        ys = ser[key]
        acc = ser["accepted"]
        out.append(go.Scatter(x=ts, y=ys, mode="lines+markers", xaxis="x4", yaxis=f"y{4 + k}",
                              line=dict(color=meta["release_color"], width=1.5), marker=dict(size=4),
                              hovertemplate=f"t = %{{x}}<br>{key} = %{{y:.5g}}<extra></extra>", showlegend=False))
        rej = [i for i, a in enumerate(acc) if not a]
        if rej:
            out.append(go.Scatter(x=rej, y=[ys[i] for i in rej], mode="markers", xaxis="x4", yaxis=f"y{4 + k}",
                                  marker=dict(symbol="x", size=9, color="#D55E00"), showlegend=False,
                                  hovertemplate="rejected step t = %{x}<extra></extra>"))
        r = meta["returned"]
        out.append(go.Scatter(x=[r], y=[ys[r]], mode="markers", xaxis="x4", yaxis=f"y{4 + k}",
                              marker=dict(symbol="star", size=11, color=meta["release_color"], line=dict(color="white", width=0.5)),
                              showlegend=False, hovertemplate="released step t = %{x}<extra></extra>"))
    return out


def _figure(go, d: dict, start: int):
    meta = d["meta"]
    T = meta["n_steps"]
    R = len(d["rows"])
    margin = _MARGIN
    ticks_px = (WIDTH - margin["l"] - margin["r"]) * 0.75  # pixels per matrix width, in points for tick spacing
    frames = []
    n_pairs = max(len(s["merged"]) for s in d["steps"])
    for t in range(T):
        traces, lay = _step_traces(go, d, t, ticks_px, n_pairs)
        frames.append(go.Frame(name=str(t), data=traces, layout=lay, traces=list(range(len(traces)))))
    start_traces, start_layout = _step_traces(go, d, start, ticks_px, n_pairs)
    fig = go.Figure(data=[*start_traces, *_static_traces(go, d)], frames=frames)
    rows = d["rows"]
    step_r = max(1, math.ceil(R / 25))
    ser = d["series"]
    util_name = meta["utility"]
    priv_name = "I* (bits)" if meta["objective"] == "I*" else "L0 (bits)"
    unit = "bits" if util_name == "U1" else "distortion"
    fig.update_layout(
        width=WIDTH, height=HEIGHT, margin=margin, template="simple_white", hovermode="closest",
        font=dict(family="Helvetica, Arial, sans-serif", size=12),
        barmode="overlay",
        title=dict(x=0.01, xanchor="left", y=1, yref="container", yanchor="top", pad=dict(t=14), font=dict(size=16), **start_layout["title"]),
        shapes=start_layout["shapes"], annotations=start_layout["annotations"],
        xaxis=dict(domain=[0, 1], anchor="y2", tickangle=-90, tickfont=dict(size=9), ticks="", showline=True, mirror=True,
                   title=dict(text="public X, by component, cluster, value — dark: (s, x) ∈ [[S, X]], light: added by X̂",
                              font=dict(size=11), standoff=4),
                   **start_layout["xaxis"]),
        yaxis=dict(domain=list(_STRIP), anchor="x", title=dict(text="|[[S|x̂]]|", font=dict(size=11)), rangemode="tozero",
                   nticks=3),
        yaxis2=dict(domain=list(_MATRIX), anchor="x", autorange="reversed", title=dict(text="sensitive S", font=dict(size=11)),
                    tickvals=list(range(0, R, step_r)), ticktext=rows[::step_r], tickfont=dict(size=9), showline=True,
                    mirror=True, matches=None),
        xaxis3=dict(domain=[0, 0.60], anchor="y3", range=[0, 10 * meta["n_public"]], showticklabels=False, ticks="",
                    title=dict(text=f"merge hierarchy: {meta['n_public']} public values (leaves, coloured by component of G_X); "
                                    "dashed: the cut at t", font=dict(size=11), standoff=2)),
        yaxis3=dict(domain=list(_LOWER), anchor="x3", range=[-0.8, T + 0.6], title=dict(text="step t", font=dict(size=11)),
                    dtick=max(1, round(T / 8))),
        xaxis4=dict(domain=[0.68, 1], anchor="y6", range=[-0.5, T - 0.5], title=dict(text="step t", font=dict(size=11),
                                                                                      standoff=2),
                    dtick=max(1, round(T / 8))),
        yaxis4=dict(domain=list(_CURVES[0]), anchor="x4", title=dict(text="L(t)", font=dict(size=11)), nticks=4),
        yaxis5=dict(domain=list(_CURVES[1]), anchor="x4", title=dict(text=priv_name, font=dict(size=11)), nticks=4),
        yaxis6=dict(domain=list(_CURVES[2]), anchor="x4", title=dict(text=f"{util_name} ({unit})", font=dict(size=11)),
                    nticks=4),
        sliders=[dict(
            active=start, x=0.0, len=1.0, y=1.0, yanchor="top", pad=dict(t=0, b=0, l=0, r=0),
            currentvalue=dict(prefix="step t = ", font=dict(size=13)),
            steps=[dict(label=str(t) + ("★" if t == meta["returned"] else ("✗" if not ser["accepted"][t] else "")),
                        method="animate",
                        args=[[str(t)], dict(mode="immediate", frame=dict(duration=0, redraw=True), transition=dict(duration=0))])
                   for t in range(T)],
        )],
    )
    return fig


def plotly_page(d: dict) -> str:
    """The same linked views with plotly: one animation frame per step, plotly's slider, arrow keys."""
    import plotly.graph_objects as go

    fig = _figure(go, d, d["meta"]["returned"])
    return fig.to_html(include_plotlyjs=True, full_html=True, post_script=_KEYS_JS, auto_play=False,
                       config={"displaylogo": False}, div_id="graphpriv-explorer")


def load_times(path: Path, selector: str, loads: int, chromium: str) -> list[float]:
    """Seconds from navigation until the JavaScript predicate ``selector`` holds (the plot is drawn)."""
    from playwright.sync_api import sync_playwright

    out = []
    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=chromium, args=CHROMIUM_ARGS)
        for _ in range(loads):
            page = browser.new_page(viewport={"width": 1280, "height": 1200})
            t0 = time.perf_counter()
            page.goto(path.as_uri())
            page.wait_for_function(selector)
            out.append(time.perf_counter() - t0)
            page.close()
        browser.close()
    return out


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--loads", type=int, default=5)
    ap.add_argument("--chromium", default="/usr/bin/chromium")
    args = ap.parse_args(argv)
    jr = gp.datasets.hungarian_range(missing="drop")
    trace = gp.agglomerate(jr, "L0", 0.3).trace
    ex, t_bokeh = timed(lambda: gp.viz.explore(trace, jr).to_html())
    ex = gp.viz.explore(trace, jr)
    html_p, t_plotly = timed(plotly_page, ex.data)
    with tempfile.TemporaryDirectory() as tmp:
        p_bokeh = ex.save(Path(tmp) / "bokeh.html")
        p_plotly = Path(tmp) / "plotly.html"
        p_plotly.write_text(html_p, encoding="utf-8")
        rows = []
        for name, path, sel, build in (("plotly", p_plotly, PLOTLY_DRAWN, t_plotly),
                                       ("bokeh", p_bokeh, BOKEH_DRAWN, t_bokeh)):
            times = load_times(path, sel, args.loads, args.chromium) if os.path.exists(args.chromium) else []
            rows.append((name, os.path.getsize(path), build, statistics.median(times) if times else float("nan")))
    print(f"Hungarian Algorithm 1 trace: {trace.n_public} public values, {len(trace)} steps; payload "
          f"{len(json.dumps(ex.data)) / 1e6:.2f} MB of JSON")
    print(f"{'library':8s} {'file MB':>8s} {'build s':>8s} {'load s (median)':>16s}")
    for name, size, build, load in rows:
        print(f"{name:8s} {size / 1e6:8.2f} {build:8.2f} {load:16.2f}")
    (_, s1, _, l1), (_, s2, _, l2) = rows
    print(f"ratio plotly/bokeh: size {s1 / s2:.2f}, load {l1 / l2:.2f}")
    if os.path.exists(args.chromium):  # the libraries alone: a one-plot page of each
        import plotly.graph_objects as go
        from bokeh.embed import file_html
        from bokeh.plotting import figure
        from bokeh.resources import INLINE

        with tempfile.TemporaryDirectory() as tmp:
            pp, pb = Path(tmp) / "p.html", Path(tmp) / "b.html"
            pp.write_text(go.Figure(go.Heatmap(z=[[1, 2], [3, 4]])).to_html(include_plotlyjs=True), encoding="utf-8")
            f = figure()
            f.line([1, 2], [3, 4])
            pb.write_text(file_html(f, INLINE, "b"), encoding="utf-8")
            lp = statistics.median(load_times(pp, PLOTLY_DRAWN, args.loads, args.chromium))
            lb = statistics.median(load_times(pb, BOKEH_DRAWN, args.loads, args.chromium))
        print(f"one-plot page alone (the library's own load): plotly {lp:.2f} s, bokeh {lb:.2f} s")


if __name__ == "__main__":
    main()
