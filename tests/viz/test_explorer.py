"""The explorer's data (no browser): the per-step payload equals the trace, the candidate pairs follow
the mechanism's own criterion (the chosen pair is the best one, its ΔL the recorded ΔL), and the page is
one offline HTML file. The page in a real browser: tests/test_explorer_browser.py."""

from __future__ import annotations

import json
import math
import os
import re
import sys

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import graphpriv as gp
from graphpriv.errors import InputError, InputTypeError
from graphpriv.viz.explorer import candidate_table, explorer_data, merge_candidates
from graphpriv.viz.labels import format_label


def _text_set(members):
    return frozenset(format_label(x, math=False) for x in members)


def _random_range(seed: int, n_s: int, n_x: int, density: float):
    rng = np.random.default_rng(seed)
    m = rng.random((n_s, n_x)) < density
    m[rng.integers(0, n_s, n_x), np.arange(n_x)] = True  # every public value has a sensitive value
    s, x = np.nonzero(m)
    return gp.JointRange.from_pairs([f"s{i}" for i in s], [f"x{j}" for j in x])


def _check_payload(trace, jr, d):
    assert d["meta"]["n_steps"] == len(trace)
    assert d["meta"]["returned"] == trace.returned
    assert d["series"]["L"] == pytest.approx(list(trace.step_L), nan_ok=True)
    n = trace.n_public
    labels = d["leaves"]["label"]
    assert sorted(labels) == sorted(format_label(x, math=False) for x in trace.public_labels)
    # the pairs of [[S, X]], once: the sensitive rows of every leaf
    ptr, rows = d["pairs"]["ptr"], d["pairs"]["row"]
    assert len(rows) == jr.matrix.nnz
    for p, code in enumerate(d["leaves"]["code"]):
        assert {d["rows"][r] for r in rows[ptr[p]:ptr[p + 1]]} == {
            format_label(s, math=False) for s in jr.conditional_range(trace.public_labels[code])}
    tree = d["tree"]
    for t, step in enumerate(d["steps"]):
        s = trace.steps[t]
        # the cut of the hierarchy at t: exactly Q(t), contiguous runs left to right
        clusters = gp.viz.explorer.explorer_clusters(d, t)
        assert {frozenset(c["members"]) for c in clusters} == {_text_set(q) for q in trace.quantization(t)}
        assert [c["lo"] for c in clusters] == sorted(c["lo"] for c in clusters)
        assert sum(c["hi"] - c["lo"] + 1 for c in clusters) == n
        # the pairs merged at t are the linkage rows r0..r1, in merge order
        assert step["r1"] - step["r0"] == (len(s.merged) if n > 1 else 0) == step["n_pairs"] * (n > 1)
        for k, (a, b) in enumerate(s.merged):
            i = step["r0"] + k
            got = {frozenset(labels[tree["lo"][v]:tree["hi"][v] + 1]) for v in (tree["left"][i], tree["right"][i])}
            assert got == {_text_set(a), _text_set(b)}
            assert tree["height"][i] == t
        assert step["L"] == pytest.approx(s.L, nan_ok=True)
        assert step["privacy"] == pytest.approx(s.privacy) and step["utility"] == pytest.approx(s.utility)
        assert step["status"] == ("rejected" if not s.accepted else "released" if t == trace.returned else "")
        assert step["n_clusters"] == s.n_clusters == len(clusters)
        # sensitive sets: S|x̂ = union of S|x over the cluster
        q = trace.quantized_range(jr, t)
        sets = {frozenset(format_label(x, math=False) for x in lab): {format_label(v, math=False) for v in q.conditional_range(lab)}
                for lab in q.public_labels.tolist()}
        for c in clusters:
            assert {d["rows"][r] for r in c["sensitive"]} == sets[frozenset(c["members"])]
            assert c["anonymity"] == len(c["sensitive"])


def test_payload_equals_trace_paper_example():
    jr, values = gp.datasets.paper_example()
    for obj in ("L0", "I*", "L0|I*=0"):
        for u in ("U1", "U2"):
            tr = gp.agglomerate(jr, obj, 0.3, u, values if u == "U2" else None).trace
            d = explorer_data(tr, jr, values=values if u == "U2" else None)
            _check_payload(tr, jr, d)
            json.dumps(d)  # JSON-ready


def test_payload_equals_trace_hungarian_algorithm1():
    jr = gp.datasets.hungarian_range(missing="drop")
    tr = gp.agglomerate(jr, "L0", 0.3).trace
    d = explorer_data(tr, jr)
    _check_payload(tr, jr, d)
    # the hierarchy: one row per linkage row, at its height; leaves in hierarchy_order; node x between its children
    Z = tr.to_linkage()
    tree = d["tree"]
    assert len(tree["left"]) == len(Z) and sorted(tree["height"]) == sorted(Z[:, 2].astype(int).tolist())
    assert d["leaves"]["code"] == gp.viz.labels.hierarchy_order(tr).tolist()
    n = tr.n_public
    for i, (a, b) in enumerate(zip(tree["left"], tree["right"])):
        assert tree["x"][n + i] == pytest.approx((tree["x"][a] + tree["x"][b]) / 2)
        assert tree["parent"][a] == tree["parent"][b] == n + i
    assert tree["x"][:n] == list(range(n))  # leaf p sits at x = p, under matrix column p


def _cut_by_node(d, t):
    """A second implementation of the cut: union-find over the first ends[t] linkage rows."""
    n = d["meta"]["n_public"]
    tree = d["tree"]
    par = list(range(n))

    def find(v):
        while par[v] != v:
            par[v] = par[par[v]]
            v = par[v]
        return v

    leaf_of = list(range(n)) + [None] * max(n - 1, 0)
    for i in range(tree["ends"][t] if n > 1 else 0):
        a, b = tree["left"][i], tree["right"][i]
        ra, rb = find(leaf_of[a]), find(leaf_of[b])
        par[ra] = rb
        leaf_of[n + i] = rb
    groups = {}
    for p in range(n):
        groups.setdefault(find(p), []).append(p)
    return sorted((g[0], g[-1]) for g in groups.values())


@settings(max_examples=15, deadline=None)
@given(seed=st.integers(0, 10_000), n_x=st.integers(1, 40), obj=st.sampled_from(["L0", "I*", "L0|I*=0"]),
       lam=st.sampled_from([0.0, 0.3, 3.0]))
def test_cut_equals_quantization_and_union_find(seed, n_x, obj, lam):
    """The page's cut rule (explorer_cut) gives Q(t) at every t, equals union-find over the first ends[t] rows of
    the linkage, and the payload holds no per-step array over the values."""
    jr = _random_range(seed, 5, n_x, 0.3)
    tr = gp.agglomerate(jr, obj, lam).trace
    d = explorer_data(tr, jr)
    for t in range(len(tr)):
        cut = gp.viz.explorer.explorer_cut(d, t)
        assert [(lo, hi) for lo, hi, _ in cut] == _cut_by_node(d, t)
        got = {frozenset(d["leaves"]["label"][lo:hi + 1]) for lo, hi, _ in cut}
        assert got == {_text_set(q) for q in tr.quantization(t)}
    for step in d["steps"]:
        assert set(step) == {"t", "title", "status", "n_pairs", "r0", "r1", "caption", "L", "privacy", "utility",
                             "delta_L", "n_clusters", "n_components", "candidates"}


def test_cut_in_javascript_equals_python(tmp_path):
    """The cut the page runs (script.CUT_JS) under node, on a 600-value Algorithm 1 trace, at every step."""
    import shutil
    import subprocess

    from graphpriv.viz.explorer.script import CUT_JS

    node = shutil.which("node")
    if node is None:
        pytest.skip("node is not installed (the browser test runs the same script in Chromium)")
    jr = _random_range(3, 30, 600, 0.02)
    tr = gp.agglomerate(jr, "L0", 0.2).trace
    d = explorer_data(tr, jr)
    tree, n = d["tree"], tr.n_public
    js = tmp_path / "cut.js"
    js.write_text(CUT_JS + "\nconst d = JSON.parse(require('fs').readFileSync(process.argv[2], 'utf8'));\n"
                  "const out = d.ends.map((m) => gpxCut(d.n, d.parent, d.lo, d.hi, m));\n"
                  "process.stdout.write(JSON.stringify(out));\n")
    inp = tmp_path / "tree.json"
    inp.write_text(json.dumps({"n": n, "parent": tree["parent"], "lo": tree["lo"], "hi": tree["hi"], "ends": tree["ends"]}))
    out = json.loads(subprocess.run([node, str(js), str(inp)], capture_output=True, text=True, check=True).stdout)
    assert len(out) == len(tr) > 3
    for t, cut in enumerate(out):
        assert [tuple(c) for c in cut] == gp.viz.explorer.explorer_cut(d, t)


def test_payload_grows_with_values_not_steps():
    """The payload is the values and pairs once (a constant number of characters per value and pair) plus a
    per-step part whose size does not grow with the values: linear in values + steps, not steps × values."""
    per_value, per_step = {}, {}
    for n_x in (300, 600, 1200):
        jr = _random_range(11, 25, n_x, 0.03)
        tr = gp.agglomerate(jr, "L0", 0.05).trace
        d = explorer_data(tr, jr, top=2)
        assert len(tr) >= 8
        steps = len(json.dumps(d["steps"]))
        per_value[n_x] = (len(json.dumps(d)) - steps) / (n_x + jr.matrix.nnz)
        per_step[n_x] = steps / len(tr)
    assert max(per_value.values()) < 1.25 * min(per_value.values()) and max(per_value.values()) < 60, per_value
    assert per_step[1200] < 1.5 * per_step[300], per_step


@settings(max_examples=15, deadline=None)
@given(seed=st.integers(0, 10_000), n_s=st.integers(2, 6), n_x=st.integers(3, 9), density=st.floats(0.1, 0.6),
       lam=st.sampled_from([0.0, 0.3, 1.0, 3.0]), obj=st.sampled_from(["L0", "I*", "L0|I*=0"]),
       u=st.sampled_from(["U1", "U2"]))
def test_candidates_follow_the_mechanism(seed, n_s, n_x, density, lam, obj, u):
    """The pair the mechanism merged is the best by the criterion the explorer lists, and for one-pair
    steps its 'ΔL if merged alone' (graphpriv.lagrangian) is the ΔL the trace recorded."""
    jr = _random_range(seed, n_s, n_x, density)
    values = {x: float(i) ** 1.5 for i, x in enumerate(jr.public_labels.tolist())} if u == "U2" else None
    tr = gp.agglomerate(jr, obj, lam, u, values).trace
    tab = candidate_table(tr, jr, values=values)
    for t, sc in enumerate(tab):
        if t == 0 or not tr.step_merges[t]:  # Algorithm 1 may record a (rejected) sweep without a merge
            assert sc.candidates == () and sc.note
            continue
        assert sc.chosen_rank == 0, (t, sc)
        assert len(sc.pairs) == len(tr.step_merges[t]) and all(pc.chosen_rank == 0 for pc in sc.pairs), (t, sc)
        first = sc.candidates[0]
        assert first.chosen and not any(c.chosen for c in sc.candidates[1:])
        a, b = tr.steps[t].merged[0]
        assert {first.a, first.b} == {a, b}
        costs = [c.cost for c in sc.candidates]
        assert costs[0] <= min(costs) + 1e-9
        if len(tr.steps[t].merged) == 1:
            assert first.delta_L == pytest.approx(tr.step_delta_L[t], abs=1e-9)
        # every listed pair is a real pair of distinct clusters of Q(t-1)
        prev = set(tr.quantization(t - 1))
        for c in sc.candidates:
            assert c.a in prev and c.b in prev and c.a != c.b


def test_candidates_algorithm2_brute_force_order():
    """Algorithm 2 with U1 (paper 003, eq. (8)): the listed costs are |X1| + |X2| over pairs in different
    components, in increasing order, and the full candidate count is the number of such pairs."""
    jr, _ = gp.datasets.paper_example()
    tr = gp.agglomerate(jr, "I*", 0.3).trace
    for t in range(1, len(tr)):
        sc = merge_candidates(tr, jr, t, top=50)
        q = tr.quantization(t - 1)
        comp = tr.component_ids(t - 1)
        code = {x: i for i, x in enumerate(tr.public_labels)}
        pairs = [(a, b) for i, a in enumerate(q) for b in q[i + 1:] if comp[code[next(iter(a))]] != comp[code[next(iter(b))]]]
        assert sc.n_candidates == len(pairs)
        assert sorted(c.cost for c in sc.candidates) == sorted(len(a) + len(b) for a, b in pairs)[:len(sc.candidates)]
        assert [c.cost for c in sc.candidates[1:]] == sorted(c.cost for c in sc.candidates[1:])


def test_explore_page_is_one_offline_file(tmp_path):
    pytest.importorskip("bokeh", reason="bokeh (a dependency of graphpriv) is missing")
    jr, _ = gp.datasets.paper_example()
    res = gp.agglomerate(jr, "I*", 0.3)
    ex = gp.viz.explore(res, jr)
    assert gp.viz.explore(res.trace, jr).data == ex.data  # a trace works as well
    path = ex.save(tmp_path / "explorer.html")
    text = path.read_text(encoding="utf-8")
    assert path.stat().st_size > 100_000  # the library is inlined
    assert not re.search(r"<script[^>]*\ssrc=", text)  # every script inline
    assert not re.search(r"<link[^>]*\shref=", text)
    assert "ArrowRight" in text and "graphpriv-t" in text
    mask = os.umask(0)
    os.umask(mask)
    assert path.stat().st_mode & 0o777 == 0o666 & ~mask
    assert list(tmp_path.iterdir()) == [path]  # nothing else left behind
    frame = ex._repr_html_()
    assert frame.startswith("<iframe srcdoc=") and "graphpriv-t" in frame


def test_explore_errors(tmp_path, monkeypatch):
    pytest.importorskip("bokeh", reason="bokeh (a dependency of graphpriv) is missing")
    jr, _ = gp.datasets.paper_example()
    res = gp.agglomerate(jr, "I*", 0.3)
    with pytest.raises(InputTypeError, match="AgglomerationResult"):
        gp.viz.explore(jr, jr)
    other = gp.JointRange.from_pairs(["a", "b"], ["u", "v"])
    with pytest.raises(InputError, match="public labels"):
        gp.viz.explore(res, other)
    ex = gp.viz.explore(res, jr)
    with pytest.raises(InputError, match=r"\.html"):
        ex.save(tmp_path / "explorer.png")
    assert not list(tmp_path.iterdir())
    with pytest.raises(InputTypeError, match="top"):
        merge_candidates(res.trace, jr, 1, top=0)
    monkeypatch.setitem(sys.modules, "bokeh", None)
    with pytest.raises(ImportError, match=r"a dependency of graphpriv.*pip install 'bokeh"):
        gp.viz.explore(res, jr)
    with pytest.raises(InputTypeError, match="max_pairs"):
        candidate_table(res.trace, jr, max_pairs=0)


def test_candidates_of_other_mechanisms_list_the_merged_pair():
    """A trace without a per-step criterion (e.g. re-expressed search results) lists the merged pair only."""
    jr, _ = gp.datasets.paper_example()
    tr = gp.agglomerate(jr, "I*", 0.3).trace
    d = tr.to_dict()
    d["info"] = {"algorithm": "some other search"}
    other = gp.MergeTrace.from_dict(d)
    sc = merge_candidates(other, jr, 1)
    assert sc.chosen_rank == -1 and len(sc.candidates) == 1 and sc.candidates[0].chosen
    assert math.isnan(sc.candidates[0].cost) and "no per-step criterion" in sc.note


def test_component_trace_and_explorer():
    """The component explorer: t = 1 is the partition into components of G_X, I* = log2 of their number."""
    pytest.importorskip("bokeh", reason="bokeh (a dependency of graphpriv) is missing")
    jr = gp.datasets.hungarian_range()
    tr = gp.viz.explorer.component_trace(jr)
    comps = gp.components(jr)
    assert len(tr) == 2 and tr.returned == 1 and tr.quantization(0) == [frozenset([x]) for x in jr.public_labels.tolist()]
    assert {frozenset(c) for c in tr.quantization(1)} == {frozenset(c) for c in tr.partition(0)}
    assert len(tr.quantization(1)) == comps.n_components == 2
    assert tr.step_privacy[1] == pytest.approx(gp.I_star(jr)) == pytest.approx(1.0)
    ex = gp.viz.explore_components(jr)
    d = ex.data
    assert d["meta"]["kind"] == "components" and d["meta"]["privacy_name"] == "I*"
    assert d["steps"][1]["title"] == "t = 1: one cluster per component of G_X (2 components)"
    assert sorted(len(c["members"]) for c in gp.viz.explorer.explorer_clusters(d, 1)) == [1, 153]


def test_import_graphpriv_does_not_import_bokeh():
    """bokeh is a dependency, imported only when an explorer is built."""
    import subprocess

    code = "import graphpriv, graphpriv.viz, sys; assert 'bokeh' not in sys.modules, sorted(m for m in sys.modules if 'bokeh' in m)"
    subprocess.run([sys.executable, "-c", code], check=True, env={**os.environ, "MPLBACKEND": "Agg"})


def test_bokeh_is_a_dependency():
    """pyproject lists bokeh among the dependencies; the old 'explorer' extra stays as an empty alias."""
    import pathlib
    import tomllib

    path = pathlib.Path(__file__).resolve().parents[2] / "pyproject.toml"
    if not path.exists():
        pytest.skip("not a source checkout")
    project = tomllib.loads(path.read_text())["project"]
    assert any(dep.replace(" ", "").startswith("bokeh>=") for dep in project["dependencies"])
    assert project["optional-dependencies"]["explorer"] == []


def _no_merge_traces():
    """Traces with no merge (one step: G_X already connected; one public value) and with one merge
    (rejected or released)."""
    one = gp.JointRange.from_pairs(["a", "b"], ["u", "u"])
    connected = gp.JointRange.from_pairs(["a", "b", "a", "b"], ["u", "u", "v", "v"])
    jr = gp.JointRange.from_pairs(["a", "a", "b"], ["u", "v", "w"])  # G_X: {u, v} and {w}
    out = [(gp.agglomerate(connected, "I*", 0.3).trace, connected), (gp.agglomerate(one, "L0", 0.3).trace, one),
           (gp.agglomerate(jr, "I*", 100.0).trace, jr), (gp.agglomerate(jr, "I*", 0.0).trace, jr)]
    assert [len(tr) for tr, _ in out] == [1, 1, 2, 2] and out[0][0].n_public == 2
    return out


def test_traces_with_no_or_one_merge():
    pytest.importorskip("bokeh")
    for tr, jr in _no_merge_traces():
        d = explorer_data(tr, jr)
        _check_payload(tr, jr, d)
        ex = gp.viz.explore(tr, jr)
        slider = ex.document.get_model_by_name("graphpriv-t")
        assert slider.start == 0 and slider.value <= len(tr) - 1
        assert slider.disabled == (len(tr) < 2)
        assert "gpxMake" in ex.to_html()


def test_explore_refuses_oversized_pages():
    pytest.importorskip("bokeh", reason="bokeh (a dependency of graphpriv) is missing")
    jr = gp.datasets.hungarian_range(missing="drop")
    res = gp.agglomerate(jr, "L0", 0.3)
    with pytest.raises(InputError, match="max_cells"):
        gp.viz.explore(res, jr, max_cells=400)  # 266 pairs + 153 values


def test_cli_writes_the_explorers(tmp_path, capsys):
    """graphpriv sanitize writes explorer.html beside the GIF; graphpriv analyze writes a component explorer
    and links it from report.html."""
    pytest.importorskip("bokeh", reason="bokeh (a dependency of graphpriv) is missing")
    import logging

    from graphpriv.cli import main as cli_main

    def main(argv):  # the CLI sets log levels (--quiet): leave the test process as it was
        root, gplog = logging.getLogger(), logging.getLogger("graphpriv")
        saved = (root.level, list(root.handlers), gplog.level)
        try:
            return cli_main(argv)
        finally:
            root.setLevel(saved[0])
            root.handlers[:] = saved[1]
            gplog.setLevel(saved[2])

    jr, values = gp.datasets.paper_example()
    rows = "\n".join(f"{s},{x}" for s, x in jr.pairs())
    data = tmp_path / "t.csv"
    data.write_text("s,x\n" + rows + "\n")
    assert main(["sanitize", str(data), "-s", "s", "-x", "x", "--objective", "I*", "--utility", "U1", "--lam", "0.3",
                 "--out", str(tmp_path / "rel"), "--quiet"]) == 0
    summ = json.loads((tmp_path / "rel" / "summary.json").read_text())
    assert "explorer.html" in summ["files"] and "merges.gif" in summ["files"]
    page = (tmp_path / "rel" / "explorer.html").read_text(encoding="utf-8")
    assert "graphpriv-t" in page and "x1" in page
    assert main(["sanitize", str(data), "-s", "s", "-x", "x", "--objective", "I*", "--utility", "U1", "--lam", "0.3",
                 "--out", str(tmp_path / "rel2"), "--quiet", "--no-explorer"]) == 0
    assert not (tmp_path / "rel2" / "explorer.html").exists()
    assert main(["analyze", str(data), "-s", "s", "-x", "x", "--out", str(tmp_path / "rep"), "--quiet"]) == 0
    assert (tmp_path / "rep" / "explorer.html").stat().st_size > 100_000
    assert '<a href="explorer.html">' in (tmp_path / "rep" / "report.html").read_text(encoding="utf-8")
    assert "(explorer.html)" in (tmp_path / "rep" / "report.md").read_text(encoding="utf-8")


def _seeded_range(n_x: int, text: bool, seed: int = 0):
    """``n_x`` public values (numbers with 5 decimals, or place-like texts), each with 1-3 of 60 sensitive
    values of one of 7 groups (7 components of G_X at most)."""
    rng = np.random.default_rng(seed)
    s_list, x_list = [], []
    for j in range(n_x):
        g = rng.integers(0, 7)
        x = f"Place-{j:05d}-{'abcdefgh'[j % 8] * (1 + j % 5)}" if text else round(float(j) * 1.37 + 0.123456, 5)
        for s in g * 8 + rng.choice(8, size=rng.integers(1, 4), replace=False):
            s_list.append(f"region {s:02d}" if text else float(s) / 3)
            x_list.append(x)
    return gp.JointRange.from_pairs(s_list, x_list)


@pytest.mark.parametrize("n_x, text, obj, lam", [(1000, False, "L0", 0.1), (1000, True, "I*", 0.1),
                                                 (3000, True, "I*", 100.0), (10_000, False, "L0", 0.1)])
def test_explore_large_ranges(n_x, text, obj, lam):
    """10^3 and 10^4 public values, numeric and text, and a trace that stops at once (its hierarchy a chain
    of 2,999 completing joins, deeper than Python's recursion limit): the page builds, its payload is the
    cut of Q(t) and stays far below 10 MB."""
    pytest.importorskip("bokeh")
    jr = _seeded_range(n_x, text)
    tr = gp.agglomerate(jr, obj, lam).trace
    ex = gp.viz.explore(tr, jr)
    d = ex.data
    for t in (0, min(1, len(tr) - 1), tr.returned):
        assert len(gp.viz.explorer.explorer_cut(d, t)) == len(tr.quantization(t))
    html = ex.to_html()
    assert len(html.encode()) < 10_000_000
    if lam == 100.0:
        assert len(tr) <= 2 and d["tree"]["height"].count(len(tr)) >= n_x - 8  # completing joins


def test_whole_range_leaves_room_for_the_outermost_labels():
    """The shared horizontal range is padded by PAD_PX pixels of the frame on either side (the first and
    last tick labels and pair numbers are centred on their columns), and the hierarchy, strip and matrix
    share it."""
    pytest.importorskip("bokeh")
    from graphpriv.viz.explorer.view import FRAME_WIDTH, PAD_PX, full_range

    for n in (1, 7, 153, 2700, 10_000):
        x0, x1 = full_range(n)
        pxu = FRAME_WIDTH / (x1 - x0)
        assert (-0.5 - x0) * pxu == pytest.approx(PAD_PX) and (x1 - (n - 0.5)) * pxu == pytest.approx(PAD_PX)
    jr = gp.datasets.hungarian_range(missing="drop")
    ex = gp.viz.explore(gp.agglomerate(jr, "L0", 0.3), jr)
    ranges = {ex.document.get_model_by_name(f"graphpriv-{k}").x_range for k in ("hierarchy", "strip", "matrix")}
    (xr,) = ranges
    assert (xr.start, xr.end) == tuple(xr.bounds) == full_range(jr.n_public)


def test_hierarchy_shrinks_with_few_merges():
    """A trace that merges few of its values gets a short hierarchy (nothing to show above its leaves);
    one that merges a quarter or more gets the full height."""
    pytest.importorskip("bokeh")
    from graphpriv.viz.explorer.view import HIER_HEIGHT, HIER_MIN_HEIGHT, hierarchy_height

    jr = gp.datasets.hungarian_range(missing="drop")
    heights = {}
    for lam in ("L0", "I*"):   # Algorithm 1 merges many pairs per step, Algorithm 2 one
        tr = gp.agglomerate(jr, lam, 0.3).trace
        d = explorer_data(tr, jr)
        merges = sum(1 for h in d["tree"]["height"] if h < d["tree"]["completing"])
        heights[lam] = hierarchy_height(d["tree"], jr.n_public)
        assert HIER_MIN_HEIGHT <= heights[lam] <= HIER_HEIGHT
        assert (heights[lam] == HIER_HEIGHT) == (4 * merges >= jr.n_public - 1)
        assert (heights[lam] == HIER_MIN_HEIGHT) == (merges == 0)
        assert gp.viz.explore(tr, jr).document.get_model_by_name("graphpriv-hierarchy").height == heights[lam]
    assert heights["L0"] > heights["I*"]
    tr, one = _no_merge_traces()[0]  # no merge at all: the lowest hierarchy
    assert len(tr) == 1 and hierarchy_height(explorer_data(tr, one)["tree"], tr.n_public) == HIER_MIN_HEIGHT


def test_page_fits_its_width_to_the_window():
    """The page refits its plots to the window on load and on resize; the hierarchy's caption is a Div
    (it wraps in a narrow window) and the plots sharing the axis have equal left and right borders."""
    pytest.importorskip("bokeh")
    from graphpriv.viz.explorer.view import BORDER_LEFT, BORDER_RIGHT

    jr, _ = gp.datasets.paper_example()
    ex = gp.viz.explore(gp.agglomerate(jr, "I*", 0.3), jr)
    page = ex.to_html()
    assert "addEventListener('resize'" in page and "window.__gpx.fit()" in page
    note = ex.document.get_model_by_name("graphpriv-hierarchy-note")
    assert note.text.startswith("merge hierarchy: 7 public values")
    plots = [ex.document.get_model_by_name(f"graphpriv-{k}") for k in ("hierarchy", "strip", "matrix")]
    assert {(p.min_border_left, p.min_border_right, p.frame_width) for p in plots} == {(BORDER_LEFT, BORDER_RIGHT, plots[0].frame_width)}
