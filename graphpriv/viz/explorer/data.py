"""What the explorer shows, as plain data: one JSON-ready payload per merge trace.

Everything the interactive page draws comes from :func:`explorer_data`, built from the trace and the
joint range with the same data functions as the static views: the matrix columns and bands of
:func:`graphpriv.viz.matrix_cells` in the leaf order of the merge hierarchy (so the matrix and the tree
list the values in the same order, left to right, at every step), the merge hierarchy of
:meth:`graphpriv.MergeTrace.to_linkage` (:func:`graphpriv.viz.hierarchy_linkage`) laid out by
:func:`scipy.cluster.hierarchy.dendrogram`, the words of :func:`graphpriv.viz.step_title`,
and the candidate pairs of :func:`graphpriv.viz.merge_candidates`. The page is a rendering of this
payload and nothing else, so the payload can be tested against the trace without a browser.
"""

from __future__ import annotations

import math

import numpy as np

from ..hierarchy import COMPLETING, link_colour_func
from ..labels import cluster_label, format_label, hierarchy_linkage, label_key
from ..matrix import matrix_cells
from ..merges import _check_pair, merge_events, step_status, step_title
from ..style import PALETTE, ROLE, component_color
from .candidates import candidate_table
from .components import OBJECTIVE as COMPONENTS

__all__ = ["explorer_data", "matrix_colors"]

#: Background of every other cluster band in the matrix.
BAND_SHADE = "#ececec"


def _text(x) -> str:
    return format_label(x, math=False)


def _num(v) -> float | None:
    v = float(v)
    return None if math.isnan(v) else (v if math.isfinite(v) else (1e308 if v > 0 else -1e308))


def matrix_colors() -> list[str]:
    """Colours of the matrix cell codes of :func:`explorer_data`: 0 white, 1 the band shade, then per
    palette colour c (component ``k`` uses ``c = k mod len(PALETTE)``) code ``2 + 2c`` for a pair of
    [[S, X]] and ``3 + 2c`` for a pair the quantisation adds (the tint of the static matrix view)."""
    from matplotlib.colors import to_hex

    from ..graphs import _tint

    out = ["#ffffff", BAND_SHADE]
    for col in PALETTE:
        out += [to_hex(col), to_hex(_tint(col, 0.62))]
    return out


def _dendrogram(trace):
    """Static layout of the merge hierarchy (scipy's dendrogram coordinates) and the Z row of every link."""
    from scipy.cluster.hierarchy import dendrogram

    n = trace.n_public
    if n < 2:
        return None
    Z = hierarchy_linkage(trace)
    R = dendrogram(Z, no_plot=True)
    leaves = [int(v) for v in R["leaves"]]
    x = np.zeros(2 * n - 1)
    x[leaves] = 5 + 10 * np.arange(n)
    for i, (a, b) in enumerate(Z[:, :2].astype(np.int64)):
        x[n + i] = (x[a] + x[b]) / 2
    row_of = {}
    for i, (a, b) in enumerate(Z[:, :2].astype(np.int64)):
        row_of[(round(min(x[a], x[b]), 6), round(max(x[a], x[b]), 6), float(Z[i, 2]))] = i
    rows = []
    for ic, dc in zip(R["icoord"], R["dcoord"]):
        rows.append(row_of[(round(min(ic[1], ic[2]), 6), round(max(ic[1], ic[2]), 6), float(dc[1]))])
    return Z, R, leaves, x, rows


def explorer_data(trace, jr, *, top: int = 5, utility=None, values=None) -> dict:
    """The explorer's payload: per step the matrix view, the cut of the hierarchy, the merged pairs, the
    scalars and the candidate pairs; once the hierarchy layout and the L(t), privacy, utility series.

    Parameters
    ----------
    trace : MergeTrace
    jr : JointRange
        The joint range the trace was recorded on.
    top : int
        Candidate pairs listed per step (:func:`graphpriv.viz.merge_candidates`).
    utility, values
        As given to the mechanism (only needed for a U2 trace whose public labels are not its values).

    Returns
    -------
    dict
        JSON-ready: ``meta``, ``series`` (t, L, privacy, utility, delta_L, accepted, n_clusters,
        n_components), ``rows`` (sensitive labels, top to bottom), ``colors`` (:func:`matrix_colors`),
        ``dendrogram`` (links with scipy's coordinates, leaves) and ``steps``: per t the ``title``,
        ``status``, ``merged`` pairs (member lists), ``clusters`` (members, sensitive set, anonymity
        |[[S|x̂]]|, drawing columns [x0, x1], component, ``pair`` (the first pair number that formed it at t,
        0 if none) and ``pairs`` (all of them: a sweep may merge into one cluster twice), position at the
        cut of the hierarchy), the matrix cell codes ``z``, column ``ticks`` and ``candidates`` (rows for
        every pair merged at t, each row with its ``pair`` number, the merged pair of each first).

    Examples
    --------
    >>> import graphpriv as gp
    >>> jr, _ = gp.datasets.paper_example()
    >>> d = gp.viz.explorer_data(gp.agglomerate(jr, "I*", 0.3).trace, jr)     # paper 003, Example 3
    >>> d["steps"][1]["merged"], d["steps"][1]["L"] == d["series"]["L"][1]
    ([[['x1'], ['x3']]], True)
    >>> [c["members"] for c in d["steps"][1]["clusters"]][:2]
    [['x1', 'x3'], ['x7']]
    """
    _check_pair(trace, jr)
    n = trace.n_public
    T = len(trace)
    labels = trace.public_labels
    s_labels = jr.sensitive_labels.tolist()
    S = jr.matrix.tocsc()
    cands = candidate_table(trace, jr, top=top, utility=utility, values=values)
    dend = _dendrogram(trace)
    frame = trace.to_frame()
    series = {
        "t": frame["t"].tolist(),
        "L": [_num(v) for v in frame["L"]],
        "privacy": [_num(v) for v in frame["privacy"]],
        "utility": [_num(v) for v in frame["utility"]],
        "delta_L": [_num(v) for v in frame["delta_L"]],
        "accepted": [bool(v) for v in frame["accepted"]],
        "n_clusters": [int(v) for v in frame["n_clusters"]],
        "n_components": [int(v) for v in frame["n_components"]],
    }
    comp0 = np.asarray(trace.components0, dtype=np.int64)
    components_kind = trace.objective == COMPONENTS
    steps = []
    rows = None
    for t in range(T):
        cells = matrix_cells(trace, jr, t, order="hierarchy")
        b = cells.bands
        if rows is None:
            rows = [_text(s_labels[i]) for i in cells.sensitive_order.tolist()]
        xpos = cells.xpos
        # matrix cell codes
        z = np.zeros((len(rows), cells.width), dtype=np.int64)
        for k, (a, c) in enumerate(b.cluster_bounds):
            if k % 2:
                z[:, xpos[a]:xpos[c - 1] + 1] = 1
        pal = (comp0[b.order] % len(PALETTE)).astype(np.int64)
        for j in range(n):
            z[cells.quantized[:, j], xpos[j]] = 3 + 2 * pal[j]
            z[cells.original[:, j], xpos[j]] = 2 + 2 * pal[j]
        events = merge_events(trace, t)
        code = {x: i for i, x in enumerate(labels)}
        pair_of = {}
        for e in ([] if components_kind else events):
            pair_of.setdefault(int(b.cluster[np.flatnonzero(b.order == code[next(iter(e.a))])[0]]), []).append(e.number)
        clusters = []
        for k, (a, c) in enumerate(b.cluster_bounds):
            members = sorted((labels[i] for i in b.order[a:c].tolist()), key=label_key)
            head = int(b.cluster[a])
            sset = sorted({s_labels[s] for i in b.order[a:c].tolist() for s in S.indices[S.indptr[i]:S.indptr[i + 1]].tolist()},
                          key=label_key)
            clusters.append({
                "index": head,
                "label": cluster_label(members, labels, max_members=4),
                "members": [_text(x) for x in members],
                "sensitive": [_text(s) for s in sset],
                "anonymity": int(cells.anonymity[k]),
                "x0": int(xpos[a]), "x1": int(xpos[c - 1]),
                "component": int(b.component[a]),
                "pair": int(min(pair_of.get(head, [0]))),
                "pairs": sorted(pair_of.get(head, [])),
            })
        if dend is not None:
            _attach_cut(trace, t, dend, clusters)
        sc = cands[t]
        title, status = step_title(trace, t, math=False), step_status(trace, t)
        if components_kind:
            title = ("t = 0: every public value alone" if t == 0 else
                     f"t = 1: one cluster per component of G_X ({len(clusters)} components)")
            status = ""
        steps.append({
            "t": t,
            "title": title,
            "status": status,
            "merged": [[[_text(x) for x in sorted(a, key=label_key)], [_text(x) for x in sorted(bb, key=label_key)]]
                       for a, bb in trace.steps[t].merged],
            "joined": [bool(e.joined) for e in events],
            "L": series["L"][t], "privacy": series["privacy"][t], "utility": series["utility"][t],
            "delta_L": series["delta_L"][t],
            "n_clusters": series["n_clusters"][t], "n_components": series["n_components"][t],
            "clusters": clusters,
            "z": z.tolist(),
            "width": int(cells.width),
            "candidates": {
                "criterion": sc.criterion, "note": sc.note, "n": int(sc.n_candidates), "chosen_rank": int(sc.chosen_rank),
                "n_pairs": len(sc.pairs),
                "pairs": [{"number": pc.number, "note": pc.note, "n": int(pc.n_candidates), "chosen_rank": int(pc.chosen_rank)}
                          for pc in sc.pairs],
                "rows": [{"pair": pc.number,
                          "a": [_text(x) for x in sorted(cd.a, key=label_key)], "b": [_text(x) for x in sorted(cd.b, key=label_key)],
                          "a_label": cluster_label(cd.a, labels, max_members=4), "b_label": cluster_label(cd.b, labels, max_members=4),
                          "cost": _num(cd.cost), "delta_L": _num(cd.delta_L), "chosen": bool(cd.chosen),
                          "rank": int(cd.rank)} for pc in sc.pairs for cd in pc.candidates],
            },
        })
    dendro = None
    if dend is not None:
        Z, R, leaves, x, link_rows = dend
        colour = link_colour_func(trace, -1, Z)  # colours apart from the merged-at-t highlight
        links = []
        for ic, dc, r in zip(R["icoord"], R["dcoord"], link_rows):
            links.append({"x": [float(v) for v in ic], "y": [float(v) for v in dc], "height": float(Z[r, 2]),
                          "node": int(n + r), "color": colour(n + r)})
        dendro = {"links": links, "leaves": leaves, "leaf_labels": [_text(labels[i]) for i in leaves],
                  "leaf_colors": [component_color(int(comp0[i])) for i in leaves], "completing_height": T,
                  "completing_color": COMPLETING}
    return {
        "meta": {
            "objective": trace.objective, "utility": trace.utility, "lam": _num(trace.lam), "base": _num(trace.base),
            "returned": int(trace.returned), "n_public": n, "n_sensitive": len(s_labels), "n_steps": T,
            "algorithm": str(trace.info.get("algorithm", trace.objective)),
            "kind": "components" if components_kind else "mechanism",
            "privacy_name": "I*" if trace.objective in ("I*", COMPONENTS) else "L0",
            "merge_color": ROLE["merge"], "release_color": ROLE["frontier"],
        },
        "series": series,
        "rows": rows,
        "colors": matrix_colors(),
        "dendrogram": dendro,
        "steps": steps,
    }


def _attach_cut(trace, t, dend, clusters):
    """Where each cluster of Q(t) sits in the hierarchy: x of its subtree's top and its height."""
    Z, R, leaves, x, _ = dend
    n = trace.n_public
    top_node = {}
    top_h = {}
    ids = trace.cluster_ids(t)
    # replay the linkage rows up to height t: the last row touching a cluster is its top
    parent = list(range(2 * n - 1))
    for i, (a, b, h, _) in enumerate(Z.tolist()):
        if h > t:
            break
        parent[int(a)] = parent[int(b)] = n + i

    def root(v):
        while parent[v] != v:
            v = parent[v]
        return v

    for code in range(n):
        r = root(code)
        c = int(ids[code])
        top_node[c] = r
        top_h[c] = float(Z[r - n, 2]) if r >= n else 0.0
    for cl in clusters:
        r = top_node[cl["index"]]
        cl["tree_x"] = float(x[r])
        cl["tree_y"] = top_h[cl["index"]]
