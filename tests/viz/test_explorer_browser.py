"""The saved explorer in a real browser: headless Chromium driven by Playwright.

On the Hungarian Algorithm 1 trace (S = age, X = cholesterol, missing values dropped: 153 public
values; λ = 0.3), on a seeded random range of 2,000 text values (Algorithm 1) and on traces with no
merge or one merge: the page loads without console errors; the arrow keys and buttons move the step and
the page then shows step k's merged pair, L(k) and a different cut; hovering a cluster's band in the
matrix shows its members and sensitive set and highlights the cluster in the strip, the hierarchy and
the candidate table; the hierarchy's leaves sit over the matrix's columns pixel for pixel; wheel zoom
narrows the shared range and the URL fragment (#t=..&x0=..&x1=..) restores step and range on load;
tapping a link folds its subtree. Skipped only when Chromium (``/usr/bin/chromium``, Debian's package)
or the ``playwright`` package is missing; a line in the test output says that it ran.
"""

from __future__ import annotations

import io
import os
import shutil
import time

import numpy as np
import pytest

from conftest import announce

import graphpriv as gp
from graphpriv.viz.explorer.view import SLIDER_NAME, _fmt

CHROMIUM = os.environ.get("GRAPHPRIV_CHROMIUM", "/usr/bin/chromium")
ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking", "--disable-component-update",
        "--disable-sync", "--no-first-run"]

pytest.importorskip("bokeh", reason="bokeh (a dependency of graphpriv) is missing")
playwright_api = pytest.importorskip("playwright.sync_api", reason="playwright is not installed (pip install playwright)")
if not (os.path.exists(CHROMIUM) or shutil.which(CHROMIUM)):
    pytest.skip(f"Chromium not found at {CHROMIUM} (apt-get install chromium)", allow_module_level=True)

READY = "() => window.__gpx !== undefined && Bokeh.documents.length > 0 && Bokeh.documents[0].is_idle"


def _report(capsys, text: str) -> None:
    """A line in the test output that shows the browser test ran, whatever the capture mode."""
    announce(capsys, f"[browser] {text}")


def _text_range(n_x: int, n_s: int = 40, seed: int = 7):
    """A seeded range of ``n_x`` text public values ("Place-00012-…"), each with 1-3 of ``n_s`` regions."""
    rng = np.random.default_rng(seed)
    s_list, x_list = [], []
    groups = 6
    per = n_s // groups
    for j in range(n_x):
        g = rng.integers(0, groups)
        for s in g * per + rng.choice(per, size=rng.integers(1, 4), replace=False):
            s_list.append(f"region {s:02d}")
            x_list.append(f"Place-{j:05d}-{'abcdefgh'[j % 8] * (1 + j % 5)}")
    return gp.JointRange.from_pairs(s_list, x_list)


@pytest.fixture(scope="module")
def browser():
    with playwright_api.sync_playwright() as p:
        b = p.chromium.launch(executable_path=CHROMIUM, args=ARGS)
        yield b
        b.close()


@pytest.fixture(scope="module")
def hungarian(tmp_path_factory):
    jr = gp.datasets.hungarian_range(missing="drop")
    res = gp.agglomerate(jr, "L0", 0.3)
    path = gp.viz.explore(res, jr).save(tmp_path_factory.mktemp("explorer") / "explorer.html")
    return jr, res.trace, path


@pytest.fixture(scope="module")
def large(tmp_path_factory):
    jr = _text_range(2000)
    res = gp.agglomerate(jr, "L0", 0.1)
    ex = gp.viz.explore(res, jr)
    path = ex.save(tmp_path_factory.mktemp("explorer") / "large.html")
    return jr, res.trace, path, ex.data


def _open(browser, path, fragment: str = ""):
    page = browser.new_page(viewport={"width": 1300, "height": 1400})
    problems: list[str] = []
    page.on("console", lambda m: problems.append(f"console {m.type}: {m.text}") if m.type in ("error", "warning") else None)
    page.on("pageerror", lambda e: problems.append(f"page error: {e}"))
    page.on("requestfailed", lambda r: problems.append(f"request failed: {r.url}"))
    page.goto(path.as_uri() + fragment)
    page.wait_for_function(READY, timeout=90_000)
    return page, problems


def _slider(page) -> int:
    return int(page.evaluate(f"Bokeh.documents[0].get_model_by_name('{SLIDER_NAME}').value"))


def _step(page) -> int:
    return int(page.evaluate("window.__gpx.st.t"))


def _div_text(page, name: str) -> str:
    """Text the bokeh Div ``name`` shows (read from its rendered view, inside its shadow root)."""
    return page.evaluate(f"""(() => {{
        const v = Bokeh.index.find_one(Bokeh.documents[0].get_model_by_name('{name}'));
        return (v.el.shadowRoot || v.el).textContent; }})()""")


def _go(page, k: int) -> None:
    """Step k: with the arrow keys when it is near, else by moving the slider (as a drag does)."""
    if abs(k - _step(page)) > 3:
        page.evaluate(f"Bokeh.documents[0].get_model_by_name('{SLIDER_NAME}').value = {k}")
    key = "ArrowLeft" if k < _step(page) else "ArrowRight"
    for _ in range(200):
        if _step(page) == k:
            break
        page.keyboard.press(key)
    page.wait_for_function(READY)


def _frame(page, name: str) -> list[float]:
    """[left, width, x of leaf 0, x of the last leaf] of plot ``name``'s frame, in page pixels."""
    return page.evaluate(f"""(() => {{
        const v = Bokeh.index.find_one(Bokeh.documents[0].get_model_by_name('{name}'));
        const r = v.canvas_view.el.getBoundingClientRect();
        const n = window.__gpx.n;
        return [r.left + v.frame.bbox.left, v.frame.bbox.width, r.left + v.frame.x_scale.compute(0),
                r.left + v.frame.x_scale.compute(n - 1)]; }})()""")


def _band_point(page, k: int) -> list[float]:
    """Page coordinates of the middle of band k of the current step in the matrix."""
    return page.evaluate(f"""(() => {{
        const v = Bokeh.index.find_one(Bokeh.documents[0].get_model_by_name('graphpriv-matrix'));
        const r = v.canvas_view.el.getBoundingClientRect();
        const B = window.__gpx.st.bands;
        return [r.left + v.frame.x_scale.compute((B.lo[{k}] + B.hi[{k}]) / 2),
                r.top + v.frame.bbox.top + v.frame.bbox.height / 2]; }})()""")


def _hover_band(page, k: int) -> str:
    x, y = _band_point(page, k)
    page.mouse.move(x - 40, y - 40)
    page.mouse.move(x, y)
    tip = page.locator(".bk-tooltip-content").first
    tip.wait_for(state="visible", timeout=10_000)
    return " ".join(tip.inner_text().split())


def _screenshot_ok(page) -> tuple:
    from PIL import Image

    img = np.asarray(Image.open(io.BytesIO(page.screenshot(full_page=True))).convert("RGB"))
    non_white = float((img.min(axis=2) < 235).mean())
    n_colours = len(np.unique(img.reshape(-1, 3)[::7], axis=0))
    assert img.shape[0] > 900 and non_white > 0.08 and n_colours > 50, (img.shape, non_white, n_colours)
    return img.shape, non_white


def _check_aligned(page):
    """The hierarchy, the strip and the matrix: the same frame, leaf p over column p, to the pixel; the
    matrix's last row ends on the frame's bottom edge (not clipped)."""
    m = _frame(page, "graphpriv-matrix")
    for name in ("graphpriv-hierarchy", "graphpriv-strip"):
        assert _frame(page, name) == pytest.approx(m, abs=0.51), (name, _frame(page, name), m)
    bottom, frame_bottom = page.evaluate("""(() => {
        const v = Bokeh.index.find_one(Bokeh.documents[0].get_model_by_name('graphpriv-matrix'));
        const R = window.__gpx.A.D.rows.length;
        return [v.frame.y_scale.compute(R - 0.5), v.frame.bbox.bottom]; })()""")
    assert bottom == pytest.approx(frame_bottom, abs=0.51)


def _check_edges(page):
    """At the whole range, the outermost tick labels and pair numbers lie whole inside the matrix frame:
    their centres at least half their width from either edge (labels are rotated: half their height)."""
    m = page.evaluate("""(() => {
        const v = Bokeh.index.find_one(Bokeh.documents[0].get_model_by_name('graphpriv-matrix'));
        const S = window.__gpx.A.src, L = v.frame.bbox.left, R = v.frame.bbox.right;
        const px = (x) => v.frame.x_scale.compute(x);
        const ticks = S.ticks.data.x.map(px), b = S.badges.data;
        const badges = b.x.map((x, i) => [px(x) - (6.2 * b.text[i].length + 6) / 2 - L, R - px(x) - (6.2 * b.text[i].length + 6) / 2]);
        return [Math.min(...ticks) - L, R - Math.max(...ticks), Math.min(0, ...badges.flat())]; })()""")
    assert m[0] >= 5 and m[1] >= 5 and m[2] >= 0, m
    return m


def _drawn_rows(d: dict, pxu: float) -> set:
    """Rows of the linkage the page draws at ``pxu`` pixels per leaf: not a completing join, and its
    subtree at least MIN_LINK_PX pixels wide (the page's rule, restated)."""
    from graphpriv.viz.explorer.view import MIN_LINK_PX

    t, n = d["tree"], d["meta"]["n_public"]
    return {i for i, h in enumerate(t["height"])
            if h < t["completing"] and (t["hi"][n + i] - t["lo"][n + i] + 1) * pxu >= MIN_LINK_PX}


def _inside(d: dict, v: int) -> set:
    """Rows of the linkage in the subtree of node ``v`` (``v``'s own row included)."""
    t, n = d["tree"], d["meta"]["n_public"]
    return {i for i in range(n - 1) if t["lo"][v] <= t["lo"][n + i] and t["hi"][n + i] <= t["hi"][v]}


def _check_resolution(page, d: dict) -> tuple[int, float]:
    """The hierarchy drawn at the resolution of the visible range: exactly the links whose subtree spans
    MIN_LINK_PX pixels or more (three segments each); the highlighted links of step t (all of them when
    few) and the clusters' marks on the cut among them."""
    from graphpriv.viz.explorer.view import MIN_LINK_PX

    pxu, rows, hl, marks = page.evaluate("""(() => { const A = window.__gpx.A, B = window.__gpx.st.bands;
        return [A.frame_w / (A.xr.end - A.xr.start), Array.from(A.src.links.data.row), Array.from(A.src.hl.data.row),
                A.src.marks.data.band.map((k) => B.node[k])]; })()""")
    expected = _drawn_rows(d, pxu)
    assert set(rows) == expected and len(rows) == 3 * len(expected), (len(rows), len(expected), pxu)
    fw = page.evaluate("window.__gpx.A.frame_w")
    assert set(hl) <= expected or len(set(hl)) * 2 * MIN_LINK_PX <= fw   # a step's few merges are all highlighted
    n = d["meta"]["n_public"]
    assert all(v - n in expected for v in marks)
    return len(expected), pxu


def _check_ticks(page):
    """Every tick label under the matrix starts with the first characters of its cluster's first value and
    fits in the label panel (measured in the page's font)."""
    from graphpriv.viz.explorer.view import TICKS_HEIGHT

    ticks = page.evaluate("""(() => {
        const t = window.__gpx.A.src.ticks.data, B = window.__gpx.st.bands, L = window.__gpx.A.D.leaves.label;
        const ctx = document.createElement('canvas').getContext('2d');
        ctx.font = '10px helvetica';
        return t.x.map((x, i) => {
            const k = B.lo.findIndex((a, j) => (a + B.hi[j]) / 2 === x);
            return [t.text[i], L[B.lo[k]], ctx.measureText(t.text[i]).width]; }); })()""")
    assert ticks
    for text, first, width in ticks:
        assert text.startswith(first[:3]), (text, first)
        assert width <= TICKS_HEIGHT - 6, (text, width)
    return len(ticks)


def test_hungarian_explorer_in_chromium(hungarian, browser, capsys):
    jr, trace, path = hungarian
    page, problems = _open(browser, path)
    try:
        assert _slider(page) == _step(page) == trace.returned
        _check_aligned(page)
        _check_edges(page)
        checked = []
        for k in (11, 12, 1, 3):
            _go(page, k)
            assert _slider(page) == k
            title = _div_text(page, "graphpriv-title")
            caption = _div_text(page, "graphpriv-caption")
            step = trace.steps[k]
            assert f"t = {k}:" in title
            assert f"L(t) = {_fmt(step.L, 6)}" in title and f"ΔL = {_fmt(step.delta_L, 4)}" in title
            assert f"merged at t = {k}:" in caption
            # the page's cut is Q(k): as many bands as clusters
            assert page.evaluate("window.__gpx.st.bands.lo.length") == len(trace.quantization(k))
            # the table: the criterion's column first, the chosen pair first
            cells = page.locator(".slick-cell").all_inner_texts()
            assert cells[1].endswith("chosen") and cells[4] == "1"
            headers = page.locator(".slick-header-column").all_inner_texts()
            assert headers[0].startswith("|𝒳 ⊔ 𝒳'|") and "ranks" in headers[0]
            assert "Ranked by |𝒳 ⊔ 𝒳'|" in _div_text(page, "graphpriv-ranking")
            checked.append(k)
        # hover the largest cluster of Q(k): members and sensitive set, highlighted in every view
        k = checked[-1]
        sizes = page.evaluate("(() => { const B = window.__gpx.st.bands; return B.lo.map((a, i) => B.hi[i] - a + 1); })()")
        big = int(np.argmax(sizes))
        text = _hover_band(page, big)
        lo, hi = page.evaluate(f"[window.__gpx.st.bands.lo[{big}], window.__gpx.st.bands.hi[{big}]]")
        d = gp.viz.explorer.explorer_data(trace, jr)
        (cl,) = [c for c in gp.viz.explorer.explorer_clusters(d, k) if c["lo"] == lo]
        assert f"{len(cl['members'])} value(s): {', '.join(cl['members'])}" in text
        assert f"({cl['anonymity']}): " + ", ".join(d["rows"][r] for r in cl["sensitive"]) in text
        assert page.evaluate("window.__gpx.A.src.hov.data.left.length") == 1
        assert page.evaluate("window.__gpx.A.src.hov_links.data.row.length") == 3 * (hi - lo)  # its subtree's links
        # hovering the cluster the step's first pair made selects that pair's rows in the candidate table
        band = page.evaluate("""(() => { const r = window.__gpx.A.D.steps[window.__gpx.st.t].candidates.rows[0];
            const lo = window.__gpx.A.D.tree.lo[r.a_node], B = window.__gpx.st.bands;
            return B.lo.findIndex((a, j) => a <= lo && lo <= B.hi[j]); })()""")
        _hover_band(page, band)
        assert 0 in page.evaluate("window.__gpx.A.table_src.selected.indices")
        assert page.evaluate("window.__gpx.A.formed[0].visible") is True  # the step that formed it, on the curves
        n_ticks = _check_ticks(page)
        _screenshot_ok(page)
        assert problems == [], problems
        _report(capsys, f"Hungarian explorer in headless Chromium ({CHROMIUM}): steps {checked} of {len(trace)}, "
                        f"hover on {len(cl['members'])} members, frames aligned, {n_ticks} tick labels whole")
    finally:
        page.close()


def test_large_explorer_in_chromium(large, browser, capsys):
    """2,000 text values: the step moves the cut, hover, fold, zoom and the URL fragment."""
    _, trace, path, d = large
    assert trace.n_public >= 2000
    start = time.perf_counter()
    page, problems = _open(browser, path)
    load = time.perf_counter() - start
    try:
        _check_aligned(page)
        whole, pxu = _check_resolution(page, d)
        assert pxu < 1 and whole < trace.n_public * 0.75   # fewer pixels than leaves: the small subtrees are not drawn
        seen = {}
        for k in (1, 2, len(trace) // 2, trace.returned):
            _go(page, k)
            _check_ticks(page)
            _check_edges(page)
            n_bands = page.evaluate("window.__gpx.st.bands.lo.length")
            assert n_bands == len(trace.quantization(k))
            assert f"t = {k}:" in _div_text(page, "graphpriv-title")
            seen[k] = n_bands
        assert len(set(seen.values())) == len(seen)  # each step draws a different cut
        # hover a merged cluster: its members appear
        _go(page, 2)
        k = page.evaluate("window.__gpx.st.bands.merged.indexOf(true)")
        text = _hover_band(page, k)
        lo = page.evaluate(f"window.__gpx.st.bands.lo[{k}]")
        (cl,) = [c for c in gp.viz.explorer.explorer_clusters(d, 2) if c["lo"] == lo]
        assert ", ".join(cl["members"][:5]) in text and "merged at t = 2" in text
        # a tap on a top link of the hierarchy folds its subtree into one band; "unfold all" undoes it
        xy = page.evaluate("""(() => {
            const v = Bokeh.index.find_one(Bokeh.documents[0].get_model_by_name('graphpriv-hierarchy'));
            const r = v.canvas_view.el.getBoundingClientRect();
            const D = window.__gpx.A.D, n = window.__gpx.n;
            let i = n - 2;
            while (D.tree.height[i] >= D.tree.completing) i--;  // the top link drawn (completing joins are not)
            const x = (D.tree.x[D.tree.left[i]] + D.tree.x[D.tree.right[i]]) / 2;
            return [r.left + v.frame.x_scale.compute(x), r.top + v.frame.y_scale.compute(D.tree.height[i])]; })()""")
        page.mouse.click(*xy)
        page.wait_for_function("window.__gpx.A.src.folds.data.node.length === 1", timeout=10_000)
        v = page.evaluate("window.__gpx.A.src.folds.data.node[0]")
        inner = d["tree"]["hi"][v] - d["tree"]["lo"][v]  # rows of the folded subtree
        assert v >= trace.n_public and inner > 100
        pxu = page.evaluate("window.__gpx.st.drawnPxu")
        assert page.evaluate("window.__gpx.A.src.links.data.row.length") == 3 * len(_drawn_rows(d, pxu) - _inside(d, v))
        page.get_by_role("button", name="unfold all").click()
        page.wait_for_function(f"window.__gpx.A.src.links.data.row.length === {3 * len(_drawn_rows(d, pxu))}",
                               timeout=10_000)
        # "fold below the cut": every cluster of Q(2) one band, only the links above the cut drawn
        page.get_by_role("button", name="fold below the cut").click()
        ends = d["tree"]["ends"][2]
        above = {i for i in _drawn_rows(d, pxu) if i >= ends}
        page.wait_for_function(f"window.__gpx.A.src.links.data.row.length === {3 * len(above)}", timeout=10_000)
        tops = [c for c in gp.viz.explorer.explorer_clusters(d, 2) if c["hi"] > c["lo"]]
        assert page.evaluate("window.__gpx.A.src.folds.data.node.length") == len(tops)
        page.get_by_role("button", name="unfold all").click()
        # a click on a band zooms to its cluster and neighbours; a double-click shows every value again
        mx, my = _band_point(page, k)
        page.mouse.click(mx, my)
        page.wait_for_function(f"window.__gpx.A.xr.end - window.__gpx.A.xr.start < {trace.n_public / 4}", timeout=10_000)
        x0, x1 = page.evaluate("[window.__gpx.A.xr.start, window.__gpx.A.xr.end]")
        assert x0 < cl["lo"] and cl["hi"] < x1
        mx, my = _band_point(page, k)
        page.mouse.dblclick(mx, my)
        page.wait_for_function("window.__gpx.A.xr.start === window.__gpx.A.x0 && window.__gpx.A.xr.end === window.__gpx.A.x1",
                               timeout=10_000)
        # the wheel zooms the shared range; the fragment follows; reloading the fragment restores step and range
        mx, my = _band_point(page, 0)
        page.mouse.move(mx + 300, my)
        for _ in range(6):
            page.mouse.wheel(0, -300)
        page.wait_for_timeout(400)
        x0, x1 = page.evaluate("[window.__gpx.A.xr.start, window.__gpx.A.xr.end]")
        assert x1 - x0 < trace.n_public * 0.8
        _check_aligned(page)
        zoomed, _ = _check_resolution(page, d)
        assert zoomed > whole
        _check_ticks(page)
        frag = page.evaluate("location.hash")
        assert frag.startswith("#t=2&") and f"x0={x0:.2f}" in frag
        page2, problems2 = _open(browser, path, "#t=3&x0=100&x1=300")
        try:
            assert _slider(page2) == _step(page2) == 3
            assert page2.evaluate("[window.__gpx.A.xr.start, window.__gpx.A.xr.end]") == [100, 300]
            assert page2.evaluate("window.__gpx.st.bands.lo.length") == len(trace.quantization(3))
            page2.evaluate("location.hash = '#t=4&x0=10&x1=50'")
            page2.wait_for_function("window.__gpx.st.t === 4")
            assert problems2 == [], problems2
        finally:
            page2.close()
        _screenshot_ok(page)
        assert problems == [], problems
        _report(capsys, f"hierarchy at the visible range's resolution: {whole} links drawn at the whole range, "
                        f"{zoomed} zoomed in")
        _report(capsys, f"{trace.n_public}-value explorer ({path.stat().st_size / 1e6:.1f} MB, loaded in {load:.1f} s): "
                        f"cuts {seen}, hover, fold, zoom to [{x0:.0f}, {x1:.0f}], fragment restored")
    finally:
        page.close()


def test_traces_with_no_or_one_merge_in_chromium(browser, tmp_path, capsys):
    """Traces with no merge (G_X connected; one public value) and one merge (rejected; released): both arrow
    keys and both buttons at both ends keep the step in range, a fragment past the end is clamped, and no
    script error."""
    one = gp.JointRange.from_pairs(["a", "b"], ["u", "u"])
    connected = gp.JointRange.from_pairs(["a", "b", "a", "b"], ["u", "u", "v", "v"])
    jr = gp.JointRange.from_pairs(["a", "a", "b"], ["u", "v", "w"])
    cases = {"no merge": (gp.agglomerate(connected, "I*", 0.3).trace, connected),
             "one value": (gp.agglomerate(one, "L0", 0.3).trace, one),
             "one merge, rejected": (gp.agglomerate(jr, "I*", 100.0).trace, jr),
             "one merge": (gp.agglomerate(jr, "I*", 0.0).trace, jr)}
    done = []
    for case, (tr, jr_) in cases.items():
        path = gp.viz.explore(tr, jr_).save(tmp_path / f"{len(done)}.html")
        page, problems = _open(browser, path, "#t=7")  # a step past the end is clamped
        try:
            T = len(tr)
            assert _step(page) == _slider(page) == T - 1
            for key in ("ArrowRight", "ArrowRight", "ArrowLeft", "ArrowLeft", "ArrowLeft", "ArrowRight"):
                page.keyboard.press(key)
                assert 0 <= _step(page) <= T - 1 and _slider(page) == _step(page)
            for label in ("▶", "▶", "◀", "◀"):
                button = page.get_by_role("button", name=label)
                assert button.is_enabled() == (T > 1)
                if T > 1:
                    button.click()
                assert 0 <= _step(page) <= T - 1
            assert f"t = {_step(page)}:" in _div_text(page, "graphpriv-title")
            assert problems == [], (case, problems)
            done.append(f"{case} ({T} step(s), {tr.n_public} value(s))")
        finally:
            page.close()
    _report(capsys, "keys, buttons and #t=7 without errors on: " + "; ".join(done))


def test_page_fits_the_window_width(hungarian, browser, capsys):
    """The page is no wider than the window (1,000 and 1,600 px wide), its frames fill it and stay aligned,
    and a resized window refits it."""
    _, trace, path = hungarian
    widths = {}
    for vw in (1000, 1600):
        page = browser.new_page(viewport={"width": vw, "height": 1200})
        try:
            page.goto(path.as_uri())
            page.wait_for_function(READY, timeout=90_000)
            page.wait_for_function(f"document.documentElement.scrollWidth <= {vw}", timeout=10_000)
            _check_aligned(page)
            _check_edges(page)
            left, width = _frame(page, "graphpriv-matrix")[:2]
            assert vw - 60 <= left + width <= vw, (vw, left, width)
            widths[vw] = width
            if vw == 1600:   # a narrower window: the page follows
                page.set_viewport_size({"width": 1200, "height": 1200})
                page.wait_for_function("document.documentElement.scrollWidth <= 1200", timeout=10_000)
                page.wait_for_timeout(300)
                _check_aligned(page)
                assert _frame(page, "graphpriv-matrix")[1] < width
        finally:
            page.close()
    assert widths[1600] - widths[1000] == pytest.approx(600, abs=2)
    _report(capsys, f"page fits the window: frame {widths[1000]:.0f} px at 1000 px, {widths[1600]:.0f} px at 1600 px, refits on resize")


def test_watchdog_explorers_in_chromium(browser, tmp_path, capsys):
    """The explorers of the privacy watchdog and of (ε, δ) log-lift partitioning (Sadeghi, Ding & Rakotoarivelo,
    Theorem 1 and Algorithm 1) on the Hungarian table as a distribution load without console errors, say why
    each step merged (the step's criterion, not ΔL) and follow the arrow keys; a watchdog trace without any merge
    (every symbol published) loads too."""
    jd = gp.JointDistribution.from_range(gp.datasets.hungarian_range())
    small = gp.JointDistribution(np.full((2, 3), 1 / 6))
    cases = {"watchdog": (gp.watchdog(jd, 1.0), jd, 40), "eps-delta": (gp.watchdog_eps_delta(jd, 1.0, 0.1), jd, 60),
             "watchdog, nothing merged": (gp.watchdog(small, 0.5), small, 0)}
    done = []
    for case, (res, data, start) in cases.items():
        tr = res.trace
        path = gp.viz.explore(res, data, start=start).save(tmp_path / f"{len(done)}.html")
        page, problems = _open(browser, path)
        try:
            assert _step(page) == start
            why = _div_text(page, "graphpriv-ranking")
            if len(tr) > 1:
                assert "Why this step: " + tr.step_criteria[start]["decision"] in why
            title = _div_text(page, "graphpriv-title")
            assert tr.info["privacy_measure"] in title and "L(t)" not in title
            if len(tr) > 2:
                _go(page, start + 1)
                assert tr.step_criteria[start + 1]["decision"] in _div_text(page, "graphpriv-ranking")
            assert problems == [], (case, problems)
            done.append(f"{case} ({len(tr)} steps)")
        finally:
            page.close()
    _report(capsys, "criterion explorers without console errors: " + "; ".join(done))


def test_inline_explorer_stays_in_its_frame(browser, tmp_path, capsys):
    """Shown inline (an iframe's srcdoc, as Jupyter and the documentation's gallery show it), the page keeps its
    step in memory: writing the URL fragment must not load the host page into the frame."""
    jr, _ = gp.datasets.paper_example()
    ex = gp.viz.explore(gp.agglomerate(jr, "I*", 0.3), jr)
    host = tmp_path / "host.html"
    host.write_text(f"<!DOCTYPE html><html><head><title>host page</title></head><body>{ex._repr_html_()}</body></html>",
                    encoding="utf-8")
    page = browser.new_page(viewport={"width": 1400, "height": 1600})
    page.goto(host.as_uri())
    frame = next(f for f in page.frames if f is not page.main_frame)
    frame.wait_for_function(READY, timeout=90_000)
    t0 = int(frame.evaluate("window.__gpx.st.t"))
    frame.evaluate("window.__gpx.step(-1)")          # a new step writes the URL fragment
    page.wait_for_timeout(1500)
    frames = [f for f in page.frames if f is not page.main_frame]
    assert len(frames) == 1 and frames[0].url == "about:srcdoc", [f.url for f in frames]
    assert frames[0].evaluate("document.title").startswith("graphpriv explorer"), "the host page was loaded into the frame"
    assert frames[0].evaluate("window.__gpx !== undefined") and int(frames[0].evaluate("window.__gpx.st.t")) == t0 - 1
    _report(capsys, f"inline explorer: frame {frames[0].url}, title {frames[0].evaluate('document.title')!r}")
    page.close()


def _table_cells(page) -> list[str]:
    """The candidate table's cells as drawn (row by row), read from the page, not from the data source."""
    return page.evaluate("""(() => {
        const v = Bokeh.index.find_one(Bokeh.documents[0].get_model_by_name('graphpriv-candidates'));
        const root = v.el.shadowRoot || v.el;
        const rows = [...root.querySelectorAll('.slick-row')].sort(
            (a, b) => parseFloat(a.style.top || a.style.transform.replace(/[^0-9.]/g, '') || 0)
                    - parseFloat(b.style.top || b.style.transform.replace(/[^0-9.]/g, '') || 0));
        return rows.map((r) => [...r.querySelectorAll('.slick-cell')].map((c) => c.textContent).join(' | ')); })()""")


def _expected_pairs(d: dict, t: int) -> list[str]:
    return ["{" + r["a_label"] + "} + {" + r["b_label"] + "}" for r in d["steps"][t]["candidates"]["rows"]]


def test_table_rows_change_between_steps_with_as_many_candidates(hungarian, browser, capsys):
    """Two steps with the same number of candidate rows but other pairs: the table shows the new step's rows
    (bokeh's DataTable did not redraw when the number of rows stayed the same, so the earlier step's rows
    stayed on screen). One arrow-key press with the slider focused moves one step, not two."""
    jr, trace, path = hungarian
    d = gp.viz.explorer.explorer_data(trace, jr)
    by_len: dict[int, list[int]] = {}
    for t in range(1, len(trace)):
        by_len.setdefault(len(d["steps"][t]["candidates"]["rows"]), []).append(t)
    pairs = [(a, b) for ts in by_len.values() for a, b in zip(ts, ts[1:]) if _expected_pairs(d, a) != _expected_pairs(d, b)]
    assert pairs, "the Hungarian trace has two steps with as many candidates"
    t1, t2 = pairs[0]
    page, problems = _open(browser, path)
    try:
        for t in (t1, t2, t1):   # by the slider (a drag), then back
            page.evaluate(f"Bokeh.documents[0].get_model_by_name('{SLIDER_NAME}').value = {t}")
            page.wait_for_function(READY)
            page.wait_for_timeout(150)
            assert _step(page) == t
            drawn = _table_cells(page)
            want = _expected_pairs(d, t)
            assert len(drawn) == len(want), (t, drawn, want)
            for row, pair in zip(drawn, want):
                assert pair in row, (t, row, pair)
        # a neighbour with as many rows, reached by the arrow key with the slider's handle focused: one step
        a, b = next(((a, b) for a, b in pairs if abs(a - b) == 1), (t1, t1 + 1 if t1 + 1 < len(trace) else t1 - 1))
        page.evaluate(f"Bokeh.documents[0].get_model_by_name('{SLIDER_NAME}').value = {a}")
        page.wait_for_function(READY)
        page.evaluate(f"""(() => {{
            const v = Bokeh.index.find_one(Bokeh.documents[0].get_model_by_name('{SLIDER_NAME}'));
            const h = (v.el.shadowRoot || v.el).querySelector('.noUi-handle'); h.focus(); }})()""")
        page.keyboard.press("ArrowRight" if b > a else "ArrowLeft")
        page.wait_for_function(READY)
        page.wait_for_timeout(150)
        assert _step(page) == _slider(page) == b
        drawn = _table_cells(page)
        for row, pair in zip(drawn, _expected_pairs(d, b)):
            assert pair in row
        assert problems == [], problems
        _report(capsys, f"candidate table redrawn between steps {t1} and {t2} ({len(_expected_pairs(d, t1))} rows each); "
                        f"one key press: step {a} -> {b}")
    finally:
        page.close()
