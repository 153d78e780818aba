"""What the explorer shows, as plain data: one JSON-ready payload per merge trace, linear in its size.

Everything the interactive page draws comes from :func:`explorer_data`. The payload holds the trace
once, not once per step: the public values in the leaf order of the merge hierarchy
(:func:`graphpriv.viz.labels.hierarchy_linkage`, laid out without recursion by
:func:`graphpriv.viz.tree_layout.dendrogram_coordinates`), the pairs of [[S, X]] as the sensitive rows of
every leaf, the linkage rows (one per merged pair, at the height of the step that merged it, plus the
joins that complete the tree), and per step only its scalars, title and best candidate pairs
(:func:`graphpriv.viz.merge_candidates`). The page cuts the hierarchy at step t in the browser: the
clusters of Q(t) are the subtrees whose top row is among the first ``ends[t]`` linkage rows while their
parent's is not (:func:`explorer_cut`, the same rule in Python), each a contiguous run of leaves, and
the quantised cells of the matrix are the unions of the leaves' sensitive rows over each run
(:func:`explorer_clusters`). The size of the payload grows with the number of public values and pairs,
not with steps × values.
"""

from __future__ import annotations

import math

import numpy as np

from ..hierarchy import COMPLETING, link_colour_func
from ..labels import hierarchy_linkage, label_key
from ..merges import _check_pair, measure_labels, step_status, step_title, step_why
from ..style import PALETTE, ROLE, component_color
from ..tree_layout import dendrogram_coordinates
from .candidates import candidate_table
from .components import OBJECTIVE as COMPONENTS
from .text import Labeller

__all__ = ["explorer_data", "explorer_cut", "explorer_clusters", "matrix_colors"]

#: Background of every other cluster band in the matrix.
BAND_SHADE = "#ececec"

#: Pairs of an Algorithm 1 sweep whose candidates are ranked (the first ones, in merge order).
RANKED_PAIRS = 4
#: Pairs of clusters scanned in full per step (Algorithm 2, Section V-C); beyond, the pairs holding a merged cluster.
SCANNED_PAIRS = 1_000_000
#: Pairs of a step written out in its caption.
CAPTION_PAIRS = 4


def _num(v) -> float | None:
    v = float(v)
    return None if math.isnan(v) else (v if math.isfinite(v) else (1e308 if v > 0 else -1e308))


def matrix_colors() -> list[str]:
    """Colours of the matrix cell codes of the explorer: 0 white, 1 the band shade, then per palette
    colour c (component ``k`` uses ``c = k mod len(PALETTE)``) code ``2 + 2c`` for a pair of [[S, X]] and
    ``3 + 2c`` for a pair the quantisation adds (the tint of the static matrix view)."""
    from matplotlib.colors import to_hex

    from ..graphs import _tint

    out = ["#ffffff", BAND_SHADE]
    for col in PALETTE:
        out += [to_hex(col), to_hex(_tint(col, 0.62))]
    return out


def _tree(trace, lab: Labeller):
    """The hierarchy with leaves renumbered by position: (leaf codes in order, tree dict)."""
    n = trace.n_public
    T = len(trace)
    if n < 2:
        leaves = np.arange(n, dtype=np.int64)
        return leaves, {"left": [], "right": [], "height": [], "x": [float(i) for i in range(n)], "lo": list(range(n)),
                        "hi": list(range(n)), "parent": [-1] * n, "color": [], "colors": [COMPLETING],
                        "ends": [0] * T, "completing": T}
    Z = hierarchy_linkage(trace)
    lay = dendrogram_coordinates(Z)
    leaves = lay.leaves
    pos = np.empty(n, dtype=np.int64)
    pos[leaves] = np.arange(n)
    node = np.concatenate([pos, np.arange(n, 2 * n - 1)])  # scipy node id -> explorer node id
    left, right = node[Z[:, 0].astype(np.int64)], node[Z[:, 1].astype(np.int64)]
    height = Z[:, 2].astype(np.int64)
    x = np.empty(2 * n - 1)
    x[:n] = np.arange(n)
    x[n:] = (lay.x[n:] - 5.0) / 10.0
    lo = np.concatenate([np.arange(n), np.zeros(n - 1, dtype=np.int64)])
    hi = lo.copy()
    parent = np.full(2 * n - 1, -1, dtype=np.int64)
    for i in range(n - 1):  # rows in merge order: children first
        a, b = left[i], right[i]
        lo[n + i] = min(lo[a], lo[b])
        hi[n + i] = max(hi[a], hi[b])
        parent[a] = parent[b] = n + i
    colour = link_colour_func(trace, -1, Z)
    names = [colour(n + i) for i in range(n - 1)]
    palette = sorted(set(names))
    idx = {c: k for k, c in enumerate(palette)}
    ends = np.searchsorted(height, np.arange(T), side="right")
    return leaves, {"left": left.tolist(), "right": right.tolist(), "height": height.tolist(), "x": x.tolist(),
                    "lo": lo.tolist(), "hi": hi.tolist(), "parent": parent.tolist(), "color": [idx[c] for c in names],
                    "colors": palette, "ends": ends.tolist(), "completing": T}


def explorer_cut(d: dict, t: int) -> list[tuple[int, int, int]]:
    """The clusters of Q(t) as the page computes them: ``(lo, hi, node)`` runs of leaf positions, left to right.

    A node is a cluster top at step t when its own linkage row is among the first ``ends[t]`` rows (or it
    is a leaf) and its parent's row is not; the leaves of a top are the contiguous run ``lo..hi``. This is
    the rule the page's script applies (one pass over the nodes, no recursion)."""
    tree = d["tree"]
    n = d["meta"]["n_public"]
    m = tree["ends"][t]
    parent = tree["parent"]
    top_at = [-1] * n
    for v in range(n + m):
        if v >= n and v - n >= m:
            continue
        p = parent[v]
        if p < 0 or p - n >= m:
            top_at[tree["lo"][v]] = v
    out = []
    i = 0
    while i < n:
        v = top_at[i]
        out.append((i, tree["hi"][v], v))
        i = tree["hi"][v] + 1
    return out


def explorer_clusters(d: dict, t: int) -> list[dict]:
    """The clusters of Q(t) with what the page shows on hover: ``members`` (public values, in leaf order),
    ``sensitive`` (row indices of [[S|x̂]], the union of the leaves' rows) and ``anonymity`` |[[S|x̂]]|."""
    ptr, rows = d["pairs"]["ptr"], d["pairs"]["row"]
    labels = d["leaves"]["label"]
    out = []
    for lo, hi, v in explorer_cut(d, t):
        sens = sorted({r for p in range(lo, hi + 1) for r in rows[ptr[p]:ptr[p + 1]]})
        out.append({"lo": lo, "hi": hi, "node": v, "members": labels[lo:hi + 1], "sensitive": sens,
                    "anonymity": len(sens)})
    return out


def _node_of(lab_pos: np.ndarray, members, code: dict, node_at: dict) -> int:
    p = lab_pos[[code[x] for x in members]]
    return int(node_at.get((int(p.min()), int(p.max())), -1))


def explorer_data(trace, jr, *, top: int = 5, utility=None, values=None) -> dict:
    """The explorer's payload: the hierarchy, the pairs of [[S, X]] and the series once; per step its
    scalars, words and candidate pairs.

    Parameters
    ----------
    trace : MergeTrace
    jr : JointRange or JointDistribution
        The data the trace was recorded on (a distribution gives its support).
    top : int
        Candidate pairs listed per ranked pair (:func:`graphpriv.viz.merge_candidates`).
    utility, values
        As given to the mechanism (only needed for a U2 trace whose public labels are not its values).

    Returns
    -------
    dict
        JSON-ready: ``meta``; ``series`` (t, L, privacy, utility, delta_L, accepted, n_clusters,
        n_components); ``rows`` (sensitive labels, top to bottom, :func:`~graphpriv.viz.labels.label_key`
        order); ``colors`` (:func:`matrix_colors`); ``leaves`` (``label``, ``code`` and palette index
        ``comp`` of every leaf position, left to right); ``pairs`` (``ptr``/``row``: the sensitive rows of
        every leaf position, compressed); ``tree`` (linkage rows ``left``, ``right``, ``height``, their
        palette index ``color`` into ``colors``; per node ``x``, leaf run ``lo``..``hi`` and ``parent``;
        ``ends[t]`` = rows with height <= t; ``completing`` = the height of the joins that only complete
        the tree) and ``steps``: per t the ``title``, ``status``, scalars, ``n_pairs`` merged, the rows
        ``r0``..``r1`` of the linkage they are, the ``caption`` words of the first pairs and ``candidates``
        (criterion, note and rows with the tree nodes ``a_node``/``b_node`` of both clusters). A trace that
        records its mechanism's own criterion per step (``trace.step_criteria``) ranks no candidates: its
        steps add ``why`` (:func:`step_why`), ``series`` adds ``criterion`` and ``meta`` the measure names
        (:func:`measure_labels`).

    Examples
    --------
    >>> import graphpriv as gp
    >>> jr, _ = gp.datasets.paper_example()
    >>> d = gp.viz.explorer.explorer_data(gp.agglomerate(jr, "I*", 0.3).trace, jr)     # paper 003, Example 3
    >>> d["steps"][1]["caption"], d["steps"][1]["L"] == d["series"]["L"][1]
    ('{x1} + {x3}', True)
    >>> [c["members"] for c in gp.viz.explorer.explorer_clusters(d, 1)][:2]
    [['x1', 'x3'], ['x7']]
    """
    trace, jr = _check_pair(trace, jr)
    n = trace.n_public
    T = len(trace)
    labels = trace.public_labels
    lab = Labeller.of(labels)
    s_labels = jr.sensitive_labels.tolist()
    s_order = sorted(range(len(s_labels)), key=lambda i: label_key(s_labels[i]))
    s_row = np.empty(len(s_labels), dtype=np.int64)
    s_row[s_order] = np.arange(len(s_labels))
    components_kind = trace.objective == COMPONENTS
    leaves, tree = _tree(trace, lab)
    pos = np.empty(n, dtype=np.int64)
    pos[leaves] = np.arange(n)
    # sensitive rows of every leaf position (CSR over positions)
    S = jr.matrix.tocsc()
    S.sort_indices()
    cnt = np.diff(S.indptr)[leaves]
    ptr = np.concatenate([[0], np.cumsum(cnt)])
    rows = np.concatenate([s_row[S.indices[S.indptr[c]:S.indptr[c + 1]]] for c in leaves.tolist()]) if n else np.zeros(0, int)
    comp0 = np.asarray(trace.components0, dtype=np.int64)
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
    code = {x: i for i, x in enumerate(labels)}
    node_at = {(int(a), int(b)): v for v, (a, b) in enumerate(zip(tree["lo"], tree["hi"]))}
    # a trace that records its mechanism's own criterion per step (the watchdog, (eps, delta) partitioning, ...)
    # says why each step merged in that criterion's words; paper 003's traces rank candidate pairs instead
    criterion_kind = trace.has_criteria
    if criterion_kind:
        series["criterion"] = [_num(v) for v in trace.criterion()]
        for key in ("privacy", "utility", "criterion"):     # rounding noise of a log of 1 (4e-16) reads 0
            series[key] = [0.0 if v is not None and abs(v) < 1e-12 else v for v in series[key]]
    cands = (candidate_table(trace, jr, top=top, utility=utility, values=values, max_pairs=RANKED_PAIRS,
                             max_scan=SCANNED_PAIRS) if not (components_kind or criterion_kind) else None)
    steps = []
    for t in range(T):
        merges = trace.step_merges[t]
        r0 = tree["ends"][t - 1] if t else 0
        r1 = tree["ends"][t] if n > 1 else 0
        status = step_status(trace, t)
        # a criterion trace (one pair per step, often thousands of steps) is titled from the tree in O(pair), not
        # by step_title, which replays the components at every step
        title = "" if criterion_kind else step_title(trace, t, math=False)
        n_comp = series["n_components"][t]
        if components_kind:
            title = ("t = 0: every public value alone" if t == 0 else
                     f"t = 1: one cluster per component of G_X ({series['n_clusters'][t]} components)")
            status = ""
        # the first pairs in words (members read off the tree: each merged cluster is a node)
        words = []
        for i in range(r0, min(r1, r0 + CAPTION_PAIRS)) if not components_kind else ():
            a, b = tree["left"][i], tree["right"][i]
            words.append(" + ".join("{" + _members_text(lab, leaves, tree, v) + "}" for v in (a, b)))
        caption = "; ".join(words)
        if criterion_kind:
            joined = t > 0 and len(merges) == 1 and n_comp < series["n_components"][t - 1]
            body = ("G_X, no merge yet" if t == 0 else "no merge" if not merges else
                    " + ".join(_members_text(lab, leaves, tree, v) for v in (tree["left"][r0], tree["right"][r0]))
                    if len(merges) == 1 else f"{len(merges)} pairs merged (numbered)")
            title = (f"t = {t}: {body}" + (", joins 2 components" if joined else "")
                     + (" — released" if status == "released" else ""))
        if len(merges) > CAPTION_PAIRS and not components_kind:
            caption += f"; … ({len(merges)} pairs, numbered on the matrix)"
        step = {"t": t, "title": title, "status": status, "n_pairs": len(merges), "r0": int(r0), "r1": int(r1),
                "caption": caption, "L": series["L"][t], "privacy": series["privacy"][t],
                "utility": series["utility"][t], "delta_L": series["delta_L"][t],
                "n_clusters": series["n_clusters"][t], "n_components": n_comp}
        if criterion_kind:
            step["why"] = step_why(trace, t)
        if cands is not None:
            sc = cands[t]
            ranked = [pc for pc in sc.pairs if pc.chosen_rank != -1 or pc.n_candidates]
            step["candidates"] = {
                "criterion": sc.criterion, "note": sc.note, "n": int(sc.n_candidates), "chosen_rank": int(sc.chosen_rank),
                "n_pairs": len(sc.pairs), "n_ranked": len(ranked),
                "pairs": [{"number": pc.number, "note": pc.note, "n": int(pc.n_candidates), "chosen_rank": int(pc.chosen_rank)}
                          for pc in (ranked or sc.pairs[:1])],
                "rows": [{"pair": pc.number,
                          "a_label": lab.cluster([code[x] for x in cd.a]), "b_label": lab.cluster([code[x] for x in cd.b]),
                          "a_node": _node_of(pos, cd.a, code, node_at), "b_node": _node_of(pos, cd.b, code, node_at),
                          "cost": _num(cd.cost), "delta_L": _num(cd.delta_L), "chosen": bool(cd.chosen),
                          "rank": int(cd.rank)} for pc in (ranked or sc.pairs[:1]) for cd in pc.candidates],
            }
        else:
            step["candidates"] = {"criterion": "", "note": "", "n": 0, "chosen_rank": -1, "n_pairs": 0, "n_ranked": 0,
                                  "pairs": [], "rows": []}
        steps.append(step)
    return {
        "meta": {
            "objective": trace.objective, "utility": trace.utility, "lam": _num(trace.lam), "base": _num(trace.base),
            "returned": int(trace.returned), "n_public": n, "n_sensitive": len(s_labels), "n_steps": T,
            "n_pairs": len(rows),
            "algorithm": str(trace.info.get("algorithm", trace.objective)),
            "kind": "components" if components_kind else "mechanism",
            "privacy_name": ("I*" if trace.objective in ("I*", COMPONENTS) else
                             str(trace.info.get("privacy_measure", "L0")) if criterion_kind else "L0"),
            **(measure_labels(trace) if criterion_kind else {}),
            "merge_color": ROLE["merge"], "release_color": ROLE["frontier"],
            "n_palette": len(PALETTE),
        },
        "series": series,
        "rows": [lab_text(s_labels[i]) for i in s_order],
        "colors": matrix_colors(),
        "leaves": {"label": [lab.text(c) for c in leaves.tolist()], "code": leaves.tolist(),
                   # label_key rank of every leaf: a cluster's label names its smallest and largest value
                   "rank": _leaf_ranks(labels, leaves),
                   "comp": (comp0[leaves] % len(PALETTE)).tolist(),
                   "comp_colors": [component_color(k) for k in range(len(PALETTE))]},
        "pairs": {"ptr": ptr.tolist(), "row": rows.tolist()},
        "tree": tree,
        "steps": steps,
    }


def lab_text(x) -> str:
    from ..labels import format_label

    return format_label(x, math=False)


def _leaf_ranks(labels, leaves) -> list:
    """Rank of every leaf (hierarchy order) among the public values in label order (numbers numerically)."""
    from ..labels import label_ranks

    return label_ranks(tuple(labels))[np.asarray(leaves, dtype=np.int64)].tolist() if len(labels) else []


def _members_text(lab: Labeller, leaves: np.ndarray, tree: dict, v: int) -> str:
    """The members of node v, written out up to 4, else first, second, …, last (count)."""
    lo, hi = tree["lo"][v], tree["hi"][v]
    codes = leaves[lo:hi + 1]
    if len(codes) <= 4:
        return ", ".join(lab.text(c) for c in lab.sorted_codes(codes).tolist())
    # first, second and last in label order without sorting the cluster (O(size): a cluster of a long chain of
    # merges is captioned at every step)
    rank = lab.rank[codes]
    two = np.argpartition(rank, 1)[:2]
    first, second = (codes[two[0]], codes[two[1]]) if rank[two[0]] < rank[two[1]] else (codes[two[1]], codes[two[0]])
    last = codes[int(np.argmax(rank))]
    return f"{lab.text(first)}, {lab.text(second)}, …, {lab.text(last)} ({len(codes)})"
