"""The saved explorer in a real browser: headless Chromium driven by Playwright.

On the Hungarian Algorithm 1 trace (S = age, X = cholesterol, missing values dropped: 153 public
values; λ = 0.3): the page loads without console errors, the arrow keys move the slider to t = k and the
page then shows step k's merged pair and L(k) as the trace records them, hovering a cluster's band in the
matrix shows its members and sensitive set, and a screenshot is not blank. Skipped only when Chromium
(``/usr/bin/chromium``, Debian's package) or the ``playwright`` package is missing; a line in the test
summary says that it ran.
"""

from __future__ import annotations

import io
import os
import shutil
import time

import numpy as np
import pytest

import graphpriv as gp
from graphpriv.viz.explorer.view import SLIDER_NAME, _fmt, _short
from graphpriv.viz.labels import format_label, label_key

CHROMIUM = os.environ.get("GRAPHPRIV_CHROMIUM", "/usr/bin/chromium")
ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking", "--disable-component-update",
        "--disable-sync", "--no-first-run"]

pytest.importorskip("bokeh", reason="the explorer page needs bokeh (pip install 'graphpriv[explorer]')")
playwright_api = pytest.importorskip("playwright.sync_api", reason="playwright is not installed (pip install playwright)")
if not (os.path.exists(CHROMIUM) or shutil.which(CHROMIUM)):
    pytest.skip(f"Chromium not found at {CHROMIUM} (apt-get install chromium)", allow_module_level=True)

IDLE = "() => window.Bokeh !== undefined && Bokeh.documents.length > 0 && Bokeh.documents[0].is_idle"


def _report(request, text: str) -> None:
    """A line in the test output that shows the browser test ran, whatever the capture mode (-s or not)."""
    capman = request.config.pluginmanager.get_plugin("capturemanager")
    rep = request.config.pluginmanager.get_plugin("terminalreporter")
    if capman is None or rep is None:
        print(f"[browser] {text}")
        return
    with capman.global_and_fixture_disabled():
        rep.write_line(f"[browser] {text}")


@pytest.fixture(scope="module")
def hungarian(tmp_path_factory):
    jr = gp.datasets.hungarian_range(missing="drop")
    res = gp.agglomerate(jr, "L0", 0.3)
    path = gp.viz.explore(res, jr).save(tmp_path_factory.mktemp("explorer") / "explorer.html")
    return jr, res.trace, path


@pytest.fixture(scope="module")
def browser():
    with playwright_api.sync_playwright() as p:
        b = p.chromium.launch(executable_path=CHROMIUM, args=ARGS)
        yield b
        b.close()


def _open(browser, path):
    page = browser.new_page(viewport={"width": 1280, "height": 1250})
    problems: list[str] = []
    page.on("console", lambda m: problems.append(f"console {m.type}: {m.text}") if m.type in ("error", "warning") else None)
    page.on("pageerror", lambda e: problems.append(f"page error: {e}"))
    page.on("requestfailed", lambda r: problems.append(f"request failed: {r.url}"))
    page.goto(path.as_uri())
    page.wait_for_function(IDLE, timeout=60_000)
    return page, problems


def _slider(page) -> int:
    return int(page.evaluate(f"Bokeh.documents[0].get_model_by_name('{SLIDER_NAME}').value"))


def _div_text(page, name: str) -> str:
    """Text the bokeh Div ``name`` shows (read from its rendered view, inside its shadow root)."""
    return page.evaluate(f"""(() => {{
        const v = Bokeh.index.find_one(Bokeh.documents[0].get_model_by_name('{name}'));
        return (v.el.shadowRoot || v.el).textContent; }})()""")


def _members_text(members) -> str:
    return _short([format_label(x, math=False) for x in sorted(members, key=label_key)])


def test_explorer_in_chromium(hungarian, browser, request):
    jr, trace, path = hungarian
    page, problems = _open(browser, path)
    try:
        assert _slider(page) == trace.returned
        # move the slider with the arrow keys to a few steps and read what the page says
        checked = []
        assert len(trace.steps[1].merged) > 1                         # a sweep of many pairs is among them
        for k in (11, 12, 1, 3):
            key = "ArrowLeft" if k < _slider(page) else "ArrowRight"
            while _slider(page) != k:
                page.keyboard.press(key)
            page.wait_for_timeout(150)
            title = _div_text(page, "graphpriv-title")
            caption = _div_text(page, "graphpriv-caption")
            step = trace.steps[k]
            assert f"t = {k}:" in title
            assert f"L(t) = {_fmt(step.L, 6)}" in title and f"ΔL = {_fmt(step.delta_L, 4)}" in title
            assert f"merged at t = {k}:" in caption
            a, b = step.merged[0]
            assert f"{{{_members_text(a)}}} + {{{_members_text(b)}}}" in caption
            # the candidate table starts with the chosen pair, and ranks every pair merged at k
            cells = page.locator(".slick-cell").all_inner_texts()
            assert cells[0] == "1" and cells[1].endswith("chosen")
            pair = cells[2]
            numbers = page.evaluate("Bokeh.documents[0].get_model_by_name('graphpriv-candidates').source.data.number")
            assert sorted({int(v) for v in numbers}) == list(range(1, len(step.merged) + 1))
            assert {p.strip("{} ") for p in pair.split("} + {")} == {
                gp.viz.cluster_label(a, trace.public_labels, max_members=4), gp.viz.cluster_label(b, trace.public_labels, max_members=4)}
            checked.append(k)
        # hover the band of the largest cluster of Q(k) in the matrix: its members and sensitive set appear
        k = checked[-1]
        q = trace.quantization(k)
        big = max(q, key=len)
        from graphpriv.viz.matrix import matrix_cells

        cells_k = matrix_cells(trace, jr, k)
        code = {x: i for i, x in enumerate(trace.public_labels)}
        cols = np.flatnonzero(np.isin(cells_k.bands.order, [code[x] for x in big]))
        xc = float(cells_k.xpos[cols].mean())
        xy = page.evaluate(f"""(() => {{
            const m = Bokeh.documents[0].get_model_by_name('graphpriv-matrix');
            const v = Bokeh.index.find_one(m);
            const r = v.canvas_view.el.getBoundingClientRect();
            return [r.left + v.frame.x_scale.compute({xc}), r.top + v.frame.y_scale.compute({jr.n_sensitive / 2})]; }})()""")
        page.mouse.move(xy[0] - 30, xy[1])
        page.mouse.move(*xy)
        tip = page.locator(".bk-tooltip-content").first
        tip.wait_for(state="visible", timeout=10_000)
        text = tip.inner_text()
        members = [format_label(x, math=False) for x in sorted(big, key=label_key)]
        assert f"{len(big)} value(s): {', '.join(members)}" in " ".join(text.split("\n"))
        sens = sorted({s for x in big for s in jr.conditional_range(x)}, key=label_key)
        assert f"({len(sens)}): " + ", ".join(format_label(s, math=False) for s in sens) in " ".join(text.split("\n"))
        # a screenshot that is not blank: many colours, a good share of non-white pixels
        from PIL import Image

        shot = page.screenshot(full_page=True)
        img = np.asarray(Image.open(io.BytesIO(shot)).convert("RGB"))
        non_white = float((img.min(axis=2) < 235).mean())
        n_colours = len(np.unique(img.reshape(-1, 3)[::7], axis=0))
        assert img.shape[0] > 900 and non_white > 0.08 and n_colours > 50, (img.shape, non_white, n_colours)
        out = os.environ.get("GRAPHPRIV_EXPLORER_SCREENSHOT")
        if out:
            Image.fromarray(img).save(out)
        assert problems == [], problems
        _report(request, f"explorer checked in headless Chromium ({CHROMIUM}): steps {checked} of {len(trace)}, hover on "
                         f"{len(big)} members, screenshot {img.shape[1]}x{img.shape[0]} px, {non_white:.0%} non-white")
    finally:
        page.close()


def test_explorer_small_range_in_chromium(browser, tmp_path, request):
    """Paper 003's Example 3 (Algorithm 2): every step reachable, no console errors, at both ends of the slider."""
    jr, _ = gp.datasets.paper_example()
    res = gp.agglomerate(jr, "I*", 0.3)
    path = gp.viz.explore(res, jr).save(tmp_path / "explorer.html")
    page, problems = _open(browser, path)
    try:
        start = time.perf_counter()
        for _ in range(len(res.trace) + 2):  # past the left end: stays at 0
            page.keyboard.press("ArrowLeft")
        assert _slider(page) == 0
        assert "t = 0:" in _div_text(page, "graphpriv-title")
        for _ in range(len(res.trace) + 2):
            page.keyboard.press("ArrowRight")
        assert _slider(page) == len(res.trace) - 1
        assert "released" in _div_text(page, "graphpriv-title")
        assert problems == [], problems
        _report(request, f"paper example explorer: {len(res.trace)} steps stepped through in {time.perf_counter() - start:.1f} s")
    finally:
        page.close()
