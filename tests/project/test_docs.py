"""The documentation site builds with warnings as errors, and its internal references resolve.

``sphinx-build -W --keep-going -b html docs <tmp>``: docs/conf.py turns every reference to a graphpriv
name that does not exist into a warning (so -W fails on a broken internal link), Sphinx itself warns on an unknown
:doc: or :ref: target, and the API page (rendered from ``graphpriv.__all__``) lists every public name. Skipped only when
Sphinx (the ``docs`` extra) is not installed.
"""

from __future__ import annotations

import importlib
import importlib.util
import os
import re
import subprocess
import sys
import time
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
DOCS = ROOT / "docs"


def _sphinx_available() -> bool:
    return all(importlib.util.find_spec(m) is not None for m in ("sphinx", "numpydoc", "myst_parser", "pydata_sphinx_theme"))


@pytest.fixture(scope="module")
def built(tmp_path_factory):
    if not _sphinx_available():
        pytest.skip("Sphinx, numpydoc, myst-parser or pydata-sphinx-theme not installed (pip install -e '.[docs]')")
    out = tmp_path_factory.mktemp("html")
    doctrees = tmp_path_factory.mktemp("doctrees")
    start = time.perf_counter()
    proc = subprocess.run(
        [sys.executable, "-m", "sphinx", "-W", "--keep-going", "-q", "-b", "html", "-d", str(doctrees), str(DOCS), str(out)],
        capture_output=True, text=True, cwd=ROOT, env={**os.environ, "MPLBACKEND": "Agg"},
    )
    seconds = time.perf_counter() - start
    print(f"sphinx-build -W --keep-going -b html docs: exit {proc.returncode} in {seconds:.1f} s")
    assert proc.returncode == 0, f"documentation build failed (warnings are errors):\n{proc.stderr[-6000:]}"
    return out


def test_site_builds_without_warnings(built):
    for page in ("index", "getting_started", "api", "paper_map", "gallery", "cli", "citing"):
        assert (built / f"{page}.html").is_file(), page


def test_api_reference_covers_every_public_name(built):
    import graphpriv as gp

    text = (built / "api.html").read_text(encoding="utf-8")     # the page as built (rendered from __all__)
    missing = [n for n in gp.__all__ if n not in ("viz", "reproduce", "datasets") and not re.search(rf"\b{re.escape(n)}\b", text)]
    assert not missing, missing
    # one page per documented object, e.g. the watchdog's, with its numpydoc sections rendered
    page = (built / "generated" / "graphpriv.watchdog.html").read_text(encoding="utf-8")
    assert "Parameters" in page and "Theorem 1" in page


def test_internal_links_resolve(built):
    """Every local href in the built site points at a file that exists (anchors are Sphinx's own)."""
    broken = []
    pages = [p for p in built.rglob("*.html") if "_static" not in p.parts]   # theme templates live in _static
    for page in pages:
        for href in re.findall(r'(?:href|src)="([^"#:?]+)(?:[?#][^"]*)?"', page.read_text(encoding="utf-8")):
            if href.startswith(("http", "mailto", "//")):
                continue
            if not (page.parent / href).resolve().exists():
                broken.append(f"{page.relative_to(built)} -> {href}")
    print(f"checked local links of {len(pages)} pages")
    assert not broken, broken[:20]


def test_gallery_shows_every_committed_figure(built):
    manifest = (ROOT / "figures" / "README.md").read_text(encoding="utf-8")
    pngs = sorted(set(re.findall(r"\(([^)]+\.png)\)", manifest)))
    html = (built / "gallery.html").read_text(encoding="utf-8")
    assert pngs and all(p in html for p in pngs), [p for p in pngs if p not in html]
    assert all((built / "_images" / p).is_file() for p in pngs)


def test_cli_reference_has_every_command(built):
    html = (built / "cli.html").read_text(encoding="utf-8")
    for command in ("demo", "analyze", "sanitize", "figures"):
        assert f"graphpriv {command}" in html or f">{command}<" in html, command
    for option in ("--sensitive", "--objective", "--min-utility", "--only"):
        assert option in html, option


def test_paper_map_cites_functions_and_tests_that_exist():
    """Every function and test the paper map names exists (checked without building)."""
    text = (DOCS / "paper_map.md").read_text(encoding="utf-8")
    funcs = re.findall(r"\{(?:func|class|data)\}`([^`]+)`", text)
    assert len(funcs) > 80
    for dotted in funcs:
        parts = dotted.split(".")
        obj = importlib.import_module(parts[0])
        for p in parts[1:]:
            assert hasattr(obj, p), dotted
            obj = getattr(obj, p)
    n_tests = 0
    for line in text.splitlines():
        current = None
        for m in re.finditer(r"`(?:(test_\w+\.py))?::(test_\w+)`", line):
            current = m.group(1) or current
            assert current, line
            source = next((ROOT / "tests").rglob(current)).read_text(encoding="utf-8")  # tests mirror the package
            assert f"def {m.group(2)}(" in source, f"{current}::{m.group(2)}"
            n_tests += 1
    assert n_tests > 60
    for title in ("A Linear Reduction Method for Local Differential Privacy and Log-lift",
                  "On Properties and Optimization of Information-theoretic Privacy Watchdog",
                  "Developing Non-Stochastic Privacy-Preserving Policies Using Agglomerative Clustering",
                  "Data Disclosure under Perfect Sample Privacy"):
        assert title in text, title


def test_reference_check_tells_broken_from_private():
    if not _sphinx_available():
        pytest.skip("Sphinx not installed")
    sys.path.insert(0, str(DOCS))
    try:
        conf = importlib.import_module("conf")
    finally:
        sys.path.remove(str(DOCS))
    assert conf._exists("graphpriv.watchdog") and conf._exists("graphpriv.ingest.csvfile")
    assert not conf._exists("graphpriv.no_such_function") and not conf._exists("graphpriv.watchdog.nope")


def test_custom_merge_rule_page_runs():
    """The Python on the custom-merge-rule page runs as written (in a fresh namespace)."""
    page = DOCS / "custom_merge_rule.md"
    if not page.is_file():
        pytest.skip("no custom merge rule page")
    blocks = re.findall(r"^```python\n(.*?)^```", page.read_text(encoding="utf-8"), flags=re.S | re.M)
    assert blocks
    namespace: dict = {}
    for block in blocks:
        exec(compile(block, str(page), "exec"), namespace)
    print(f"ran {len(blocks)} Python block(s) of {page.name}")
