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
    return all(importlib.util.find_spec(m) is not None
               for m in ("sphinx", "numpydoc", "myst_parser", "pydata_sphinx_theme", "sphinx_gallery"))


@pytest.fixture(scope="module")
def built(tmp_path_factory):
    if not _sphinx_available():
        pytest.skip("Sphinx, numpydoc, myst-parser, pydata-sphinx-theme or sphinx-gallery not installed "
                    "(pip install -e '.[docs]')")
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
    for page in ("index", "getting_started", "api", "paper_map", "gallery", "cli", "citing", "benchmarks",
                 "guide/index", "auto_examples/index"):
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


# ---------------------------------------------------------------------------------------------------------------
# what a reader meets: every name the README or a notebook uses is in the reference; help(gp) is a grouped index
# ---------------------------------------------------------------------------------------------------------------
def _used_names() -> set[tuple[str, ...]]:
    """Dotted names the README, the user guide, the examples and the notebooks use: ``gp.X``, ``gp.X.y``, ``viz.X``, and names imported from
    graphpriv (``from graphpriv.viz.research import plot_search_gaps``), as tuples of their parts."""
    import json

    texts = [(ROOT / "README.md").read_text(encoding="utf-8")]
    texts += [p.read_text(encoding="utf-8") for p in sorted((DOCS / "guide").glob("*.md"))]       # the user guide
    texts += [p.read_text(encoding="utf-8") for p in sorted((ROOT / "examples").rglob("*.py"))]   # the gallery
    for nb in sorted((ROOT / "notebooks").glob("*.ipynb")):
        cells = json.loads(nb.read_text(encoding="utf-8"))["cells"]
        texts.append("\n".join("".join(c["source"]) for c in cells if c["cell_type"] == "code"))
    text = "\n".join(texts)
    used = {tuple(m.group(0).split(".")) for m in re.finditer(r"\b(?:gp|viz)(?:\.[A-Za-z_]\w*)+", text)}
    for mod, names in re.findall(r"from (graphpriv[\w.]*) import ([\w, ]+)", text):
        used |= {(mod, n.strip()) for n in names.split(",") if n.strip()}
    return used


def test_used_names_are_found_in_readme_and_notebooks():
    used = _used_names()
    assert ("gp", "agglomerate") in used and ("viz", "plot_trace") in used and ("gp", "JointRange", "from_pairs") in used
    assert ("gp", "JointDistribution", "from_dataframe") in used and ("viz", "plot_merge_hierarchy") in used  # guide, gallery
    assert len(used) > 40


def test_reference_lists_every_name_the_readme_and_notebooks_use(built):
    import graphpriv as gp
    import graphpriv.viz as viz

    api = (built / "api.html").read_text(encoding="utf-8")
    missing = []
    for parts in sorted(_used_names()):
        root = gp if parts[0] == "gp" else viz if parts[0] == "viz" else importlib.import_module(parts[0])
        obj, rest = root, list(parts[1:])
        while rest and inspect_module(obj):
            name = rest.pop(0)
            obj = getattr(obj, name, None)
            if obj is None:
                missing.append(".".join(parts) + " (does not exist)")
                break
            if not inspect_module(obj) and not re.search(rf"\b{re.escape(name)}\b", api):
                missing.append(".".join(parts))
        else:
            if rest:   # a method or attribute of a documented class: on the class's own page
                owner = parts[-len(rest) - 1]
                page = next(iter(sorted((built / "generated").glob(f"*.{owner}.html"))), None)
                if page is None or not re.search(rf"\b{re.escape(rest[0])}\b", page.read_text(encoding="utf-8")):
                    missing.append(".".join(parts))
    print(f"checked {len(_used_names())} names the README and notebooks use")
    new = sorted(set(missing) - set(KNOWN_UNDOCUMENTED))
    fixed = sorted(set(KNOWN_UNDOCUMENTED) - set(missing))
    assert not new, f"used in the README or a notebook but not in the API reference: {new}"
    assert not fixed, f"now in the reference; remove from KNOWN_UNDOCUMENTED: {fixed}"


#: Names the README uses that the reference cannot show yet, with why. Must become EMPTY; a listed name
#: that appears in the reference fails the test too, so the list cannot go stale.
KNOWN_UNDOCUMENTED: dict[str, str] = {  # name -> why it is not in the reference yet
}


def inspect_module(obj) -> bool:
    import types

    return isinstance(obj, types.ModuleType)


def test_help_graphpriv_is_a_grouped_index_of_every_public_name():
    """``help(gp)`` lists every public name under a heading (data, graphs, measures, mechanisms by paper, ...)."""
    import graphpriv as gp

    doc = gp.__doc__
    missing = [n for n in gp.__all__ if n not in ("viz", "reproduce", "datasets")
               and not re.search(rf"(?<![\w.]){re.escape(n)}\b", doc)]
    assert not missing, f"add these public names to the index in graphpriv/__init__.py's docstring: {missing}"
    order = ["Data", "Graphs", "Measures", "Mechanisms, Ding & Farokhi (003)", "Mechanisms, Sadeghi",
             "Mechanisms, Ding, Liu & Farokhi", "Mechanisms, Rassouli", "Analysis", "Visualisation", "Release",
             "Input and output"]
    positions = [doc.index(f"\n{h}") for h in order]
    assert positions == sorted(positions)
    for title in ("A Linear Reduction Method", "Privacy Watchdog", "Agglomerative Clustering", "Perfect Sample Privacy"):
        assert title in " ".join(doc.split()), title


def test_reference_groups_follow_the_index():
    """docs/_api.py puts the groups in the order of help(gp) and every public name in a named group."""
    sys.path.insert(0, str(DOCS))
    try:
        api = importlib.import_module("_api")
    finally:
        sys.path.remove(str(DOCS))
    topics, _ = api.groups()
    titles = [t for t, _, names in topics if names or any(w == t for _, w, _ in api.SUBPACKAGES)]
    assert titles[:4] == ["Data: joint ranges, distributions, data sets",
                          "Graphs: components, the confusability graph, cuts and strength",
                          "Graphs: hypergraphs and the privacy polytope", "Measures: non-stochastic"]
    mech = [t for t in titles if t.startswith("Mechanisms")]
    assert [m.split("(")[1].split(")")[0] for m in mech] == ["paper 003", "paper 002", "papers 000/001", "paper 004",
                                                                  "ITW 2019, ICASSP 2022, arXiv:2101.10551"]
    assert titles.index("Visualisation") < titles.index("Release") < titles.index("Input and output")
    other = next(names for t, _, names in topics if t == "Other")
    assert not other, f"public names without a topic (add their module to GROUPS in docs/_api.py): {other}"
    assert (DOCS / "api.rst").read_text(encoding="utf-8") == api.render(), "docs/api.rst is stale: run python docs/_api.py"


def test_landing_page_names_the_papers_and_explains_the_concepts():
    text = (DOCS / "index.md").read_text(encoding="utf-8")
    for title in ("A Linear Reduction Method for Local Differential Privacy and Log-lift",
                  "On Properties and Optimization of Information-theoretic Privacy Watchdog",
                  "Developing Non-Stochastic Privacy-Preserving Policies Using Agglomerative Clustering",
                  "Data Disclosure under Perfect Sample Privacy"):
        assert title in text, title
    for concept in ("Joint range", "G_X", "H0", "I0", "L0", "B0", "k", "I\\*", "U1", "U2", "λ", "L"):
        assert f"* **{concept}" in text, concept
    assert "../figures/concepts_overview.png" in text and (ROOT / "figures" / "concepts_overview.png").is_file()


def test_getting_started_python_runs():
    """The Python on the getting-started page runs as written, and its partition round trip holds."""
    blocks = re.findall(r"^```python\n(.*?)^```", (DOCS / "getting_started.md").read_text(encoding="utf-8"),
                        flags=re.S | re.M)
    assert len(blocks) >= 2
    namespace: dict = {}
    for block in blocks:
        exec(compile(block, "getting_started.md", "exec"), namespace)
    gp = namespace["gp"]
    assert namespace["q"] == gp.agglomerate(namespace["jr"], "I*", 0.3).quantization
    assert namespace["release"].transform(["x1", "x2", "x6"]) == ["{x1, x3, x7}", "{x2, x5}", "{x4, x6}"]


# ---------------------------------------------------------------------------------------------------------------
# the user guide: every page answers a question, ends with what to read next, and its snippets run as written
# ---------------------------------------------------------------------------------------------------------------
GUIDE = DOCS / "guide"
GUIDE_PAGES = ["inspect_merges", "sanitize", "read_release", "stochastic", "exact_search", "decomposability",
               "sample_privacy", "scaling"]


def _guide_blocks(page: Path) -> list[tuple[str, str]]:
    """The page's code blocks in order, as (language, code)."""
    text = page.read_text(encoding="utf-8")
    return [(m.group(1), m.group(2)) for m in re.finditer(r"^```(\w*)\n(.*?)^```", text, flags=re.S | re.M)]


def test_guide_pages_start_with_a_question_and_end_with_what_to_read_next():
    index = (GUIDE / "index.md").read_text(encoding="utf-8")
    for name in GUIDE_PAGES + ["/custom_merge_rule"]:
        assert f"\n{name}\n" in index, f"{name} is not in the guide's table of contents"
    for name in GUIDE_PAGES:
        text = (GUIDE / f"{name}.md").read_text(encoding="utf-8")
        text = re.sub(r"\A---\n.*?\n---\n", "", text, flags=re.S).lstrip()     # front matter (page options)
        assert text.startswith("# "), f"{name}: a title first"
        first = text.split("\n", 1)[1].strip().split("\n\n", 1)[0]      # the paragraph under the title
        assert first.startswith("*") and first.rstrip().endswith("?*"), f"{name}: start from the user's question"
        assert "\n## What to read next\n" in text and text.index("## What to read next") > len(text) // 2, name
    assert "guide/index" in (DOCS / "index.md").read_text(encoding="utf-8"), "the guide is one click from the index"


@pytest.mark.parametrize("name", GUIDE_PAGES)
def test_guide_snippets_run(name, tmp_path, monkeypatch, capsys):
    """Python blocks run in one fresh namespace per page; ``graphpriv ...`` lines run through the CLI in a
    folder that holds what a fresh clone has (the package data)."""
    import shlex
    import shutil

    import matplotlib.pyplot as plt

    from graphpriv.cli import main

    blocks = _guide_blocks(GUIDE / f"{name}.md")
    python = [b for lang, b in blocks if lang == "python"]
    assert python, f"{name}: no Python to check"
    shutil.copytree(ROOT / "graphpriv" / "data", tmp_path / "graphpriv" / "data")
    monkeypatch.chdir(tmp_path)
    monkeypatch.setenv("MPLBACKEND", "Agg")
    namespace: dict = {"__name__": f"__guide_{name}__"}
    commands = []
    for lang, block in blocks:             # in the page's order: a command's output is read by the Python after it
        if lang == "python":
            if "from dask" in block and importlib.util.find_spec("distributed") is None:
                print(f"{name}: a dask block not run (pip install -e '.[dask]')")
                continue
            exec(compile(block, f"docs/guide/{name}.md", "exec"), namespace)
            plt.close("all")
            continue
        if lang not in ("bash", "shell"):
            continue
        for line in block.splitlines():
            words = shlex.split(line, comments=True)
            if not words:
                continue
            assert words[0] == "graphpriv", f"{name}: only graphpriv commands can be checked: {line}"
            code = main(words[1:])
            out = capsys.readouterr()
            assert code in (0, None), f"{name}: {line}\n{out.err}"
            commands.append(words[1])
    print(f"{name}: ran {len(python)} Python block(s) and {len(commands)} command(s) {commands}")


# ---------------------------------------------------------------------------------------------------------------
# the examples gallery: executed by the build above (sphinx-gallery), one picture per example
# ---------------------------------------------------------------------------------------------------------------
EXAMPLES = ROOT / "examples"


def test_gallery_examples_ran_and_each_drew_a_picture(built):
    scripts = sorted(EXAMPLES.rglob("plot_*.py"))
    assert len(scripts) >= 12, [s.name for s in scripts]
    pictures = 0
    for script in scripts:
        rel = script.relative_to(EXAMPLES).with_suffix("")
        page = built / "auto_examples" / rel.parent / f"{rel.name}.html"
        assert page.is_file(), f"{rel}: not rendered"
        html = page.read_text(encoding="utf-8")
        images = re.findall(r'src="([^"]*sphx_glr_{}_\d+\.png)"'.format(re.escape(rel.name)), html)
        assert images, f"{rel}: drew no picture"
        assert all((page.parent / src).resolve().is_file() for src in images), rel
        assert "Traceback" not in html, f"{rel}: raised"
        pictures += len(images)
    index = (built / "auto_examples" / "index.html").read_text(encoding="utf-8")
    thumbs = re.findall(r'class="sphx-glr-thumbcontainer"', index)
    print(f"gallery: {len(scripts)} examples executed in the build, {pictures} pictures, {len(thumbs)} thumbnails")
    assert len(thumbs) >= 12


def test_gallery_covers_every_paper_the_explorer_the_audit_and_the_exact_frontier():
    texts = {p.stem: p.read_text(encoding="utf-8") for p in EXAMPLES.rglob("plot_*.py")}
    for paper in ("000", "001", "002", "003", "004"):
        assert any(re.search(rf"\b{paper}\b", t) for t in texts.values()), f"no example of paper {paper}"
    assert any("viz.explore(" in t and t.rstrip().endswith("explorer") for t in texts.values()), "the explorer"
    assert any("summary.json" in t and '"audit"' in t for t in texts.values()), "the release audit"
    assert any("gp.exact_frontier(" in t for t in texts.values()), "the exact frontier"
    for name, text in texts.items():         # each example: a title, then what it shows and where it comes from
        assert text.startswith('"""\n') and "\n====" in text.split('"""')[1], name
        assert text.count("plt.show()") == 0, name


def test_gallery_embeds_the_live_explorer(built):
    html = (built / "auto_examples" / "merges" / "plot_explorer.html").read_text(encoding="utf-8")
    assert "<iframe" in html and "bokeh" in html, "the explorer page is embedded in the example"


def test_every_task_page_is_two_clicks_from_the_index(built):
    index = (built / "index.html").read_text(encoding="utf-8")
    assert 'href="guide/index.html"' in index and 'href="auto_examples/index.html"' in index
    assert 'href="benchmarks.html"' in index
    guide = (built / "guide" / "index.html").read_text(encoding="utf-8")
    for page in GUIDE_PAGES:
        assert f'href="{page}.html"' in guide, page
    assert 'href="../custom_merge_rule.html"' in guide
