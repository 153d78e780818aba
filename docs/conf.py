"""Sphinx configuration of graphpriv's documentation site.

Why Sphinx + numpydoc + MyST: graphpriv's docstrings are numpydoc (Parameters / Returns / Examples with the
paper's equation numbers), which numpydoc renders as written; MyST lets the narrative pages stay Markdown
like the README and the figure manifest; autosummary turns ``graphpriv.__all__`` into the API reference
without a hand-kept list; sphinx-argparse documents the command line from the same parser the program uses.

Build: ``sphinx-build -W --keep-going -b html docs docs/_build/html`` (the test suite does this).
"""

from __future__ import annotations

import os
import re
import sys
from pathlib import Path

from docutils import nodes
from docutils.parsers.rst import Directive, directives
from docutils.statemachine import StringList

DOCS = Path(__file__).resolve().parent
ROOT = DOCS.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(DOCS))
os.environ.setdefault("MPLBACKEND", "Agg")

import graphpriv  # noqa: E402

import _api  # noqa: E402  (docs/_api.py: the API page from graphpriv.__all__)

project = "graphpriv"
author = "graphpriv developers"
copyright = "2026, graphpriv developers (GPL-3.0-or-later)"
release = version = graphpriv.__version__

extensions = [
    "sphinx.ext.autodoc",
    "sphinx.ext.autosummary",
    "sphinx.ext.mathjax",
    "numpydoc",
    "myst_parser",
]
extensions.append("sphinx_gallery.gen_gallery")   # the examples gallery (examples/), executed in the build
try:  # the CLI page uses sphinx-argparse when it is installed (the docs extra), else the fallback below
    import sphinxarg.ext  # noqa: F401

    extensions.append("sphinxarg.ext")
    HAVE_SPHINXARG = True
except ImportError:  # pragma: no cover - exercised only without the docs extra
    HAVE_SPHINXARG = False

source_suffix = {".rst": "restructuredtext", ".md": "markdown"}
root_doc = "index"
exclude_patterns = ["_build", "Thumbs.db", ".DS_Store", "README.md"]
myst_enable_extensions = ["colon_fence", "dollarmath"]
myst_heading_anchors = 3

templates_path = ["_templates"]
autosummary_generate = True
autosummary_imported_members = True
autodoc_default_options = {}             # class pages list their methods (the template asks for :members:)
autodoc_typehints = "none"          # numpydoc's Parameters sections carry the types
numpydoc_show_class_members = False
numpydoc_class_members_toctree = False
numpydoc_xref_param_type = False

html_theme = "pydata_sphinx_theme"
html_title = f"graphpriv {release}"
html_theme_options = {
    "navigation_depth": 2,
    "show_toc_level": 2,
    "secondary_sidebar_items": ["page-toc"],     # the user guide's pages drop it (front matter): wide code
}
html_static_path = ["_static"]
html_css_files = ["graphpriv.css"]
# narrative pages use the full width (the paper map's tables are wide); the API pages keep their navigation
html_sidebars = {page: [] for page in ("index", "getting_started", "paper_map", "gallery", "cli", "citing",
                                        "benchmarks", "changelog")}

# ------------------------------------------------------------------------------------------------------------
# examples gallery: every examples/**/plot_*.py runs in the build (an error stops it); one picture each
# ------------------------------------------------------------------------------------------------------------
sphinx_gallery_conf = {
    "examples_dirs": str(ROOT / "examples"),
    "gallery_dirs": "auto_examples",
    "filename_pattern": r"/plot_",
    "within_subsection_order": "FileNameSortKey",
    "download_all_examples": False,
    "remove_config_comments": True,
    "abort_on_example_error": True,
    "show_memory": False,
    "min_reported_time": 1,
    "matplotlib_animations": False,
    "image_scrapers": ("_gallery.matplotlib_tight",),
    "capture_repr": ("_repr_html_",),
    "image_srcset": [],
    "default_thumb_file": str(ROOT / "figures" / "concepts_overview.png"),
}

# keep the build quiet and deterministic: no network (intersphinx is not used), no notebook execution
suppress_warnings: list[str] = []

#: Optional pages: listed in the index's table of contents (before "citing") when their file exists.
OPTIONAL_PAGES: list[str] = []   # the custom merge rule page is in the user guide's table of contents


def add_optional_pages(app, docname, source):
    if docname != "index":
        return
    present = [name for name in OPTIONAL_PAGES if (DOCS / f"{name}.md").is_file() or (DOCS / f"{name}.rst").is_file()]
    if present:
        source[0] = source[0].replace("\ncli\n", "\ncli\n" + "".join(f"{n}\n" for n in present), 1)


# ------------------------------------------------------------------------------------------------------------
# gallery: one figure per row of the committed manifest (figures/README.md)
# ------------------------------------------------------------------------------------------------------------
def _manifest_rows(path: Path) -> list[dict]:
    rows = []
    for line in path.read_text(encoding="utf-8").splitlines():
        if not line.startswith("| ["):
            continue
        cells = [c.strip().replace("\\|", "|") for c in re.split(r"(?<!\\)\|", line)[1:-1]]
        files, paper, number, shows, erratum = cells
        png = re.search(r"\(([^)]+\.png)\)", files)
        pdf = re.search(r"\(([^)]+\.pdf)\)", files)
        rows.append({"png": png.group(1) if png else None, "pdf": pdf.group(1) if pdf else None, "paper": paper,
                     "number": number, "shows": shows, "erratum": "" if erratum == "—" else erratum})
    return rows


class GalleryDirective(Directive):
    """``.. graphpriv-gallery::`` -- every figure of ``figures/README.md`` with what it shows and its erratum."""

    has_content = False

    def run(self):
        env = self.state.document.settings.env
        manifest = ROOT / "figures" / "README.md"
        env.note_dependency(str(manifest))
        rows = _manifest_rows(manifest)
        if not rows:
            raise self.error(f"no figures listed in {manifest}")
        lines: list[str] = []
        papers = {"003": "Paper 003 -- Ding & Farokhi, agglomerative clustering",
                  "002": "Paper 002 -- Sadeghi, Ding & Rakotoarivelo, privacy watchdog",
                  "000": "Papers 000/001 -- Ding, Liu & Farokhi, linear reduction",
                  "004": "Paper 004 -- Rassouli, Rosas & Gündüz, perfect sample privacy",
                  "research": "Research tools (not in the papers)"}
        current = None
        for row in rows:
            if row["paper"] != current:
                current = row["paper"]
                title = papers.get(current, f"Paper {current}")
                lines += ["", f".. rubric:: {title}", ""]
            if row["png"] is None or not (ROOT / "figures" / row["png"]).is_file():
                raise self.error(f"manifest row without a PNG in figures/: {row}")
            env.note_dependency(str(ROOT / "figures" / row["png"]))
            name = row["png"][:-4]
            caption = f"**{name}** ({_escape_bars(row['number'])}). {_escape_bars(row['shows'])}"
            lines += [f".. figure:: ../figures/{row['png']}", f"   :alt: {name}", "",
                      f"   {caption}", ""]
            if row["erratum"]:
                lines += [f"   *Differences from the print:* {_escape_bars(row['erratum'])}", ""]
            if row["pdf"]:
                lines += [f"   Vector version: :download:`{row['pdf']} <../figures/{row['pdf']}>`.", ""]
        node = nodes.section()
        node.document = self.state.document
        self.state.nested_parse(StringList(lines, source=str(manifest)), self.content_offset, node)
        return node.children


# ------------------------------------------------------------------------------------------------------------
# CLI fallback when sphinx-argparse is absent: the --help text of every sub-command, from build_parser()
# ------------------------------------------------------------------------------------------------------------
class HelpTextDirective(Directive):
    """``.. argparse::`` stand-in: ``--help`` of the program and of each sub-command as literal blocks."""

    has_content = False
    option_spec = {"module": directives.unchanged, "func": directives.unchanged, "prog": directives.unchanged,
                   "nodefault": directives.flag, "nosubcommands": directives.flag}

    def run(self):
        import argparse
        import importlib

        parser = getattr(importlib.import_module(self.options["module"]), self.options["func"])()
        out = [nodes.literal_block(text=parser.format_help())]
        for action in parser._actions:
            if isinstance(action, argparse._SubParsersAction):
                for name, sub in action.choices.items():
                    section = nodes.section(ids=[f"cli-{name}"])
                    section += nodes.title(text=f"graphpriv {name}")
                    section += nodes.literal_block(text=sub.format_help())
                    out.append(section)
        return out


# ------------------------------------------------------------------------------------------------------------
# docstrings are plain text with the papers' notation: |S|, [[X|s]], |log-lift| are not RST substitutions
# ------------------------------------------------------------------------------------------------------------
_LITERAL = re.compile(r"(``.+?``|`[^`]+`_?|:\w+:`[^`]+`)")


def _escape_bars(text: str) -> str:
    parts = _LITERAL.split(text)
    return "".join(p if i % 2 else p.replace("|", "\\|") for i, p in enumerate(parts))


def escape_plain_math(app, what, name, obj, options, lines):
    """Escape '|' outside code, doctests and literal blocks, so |S| renders as written."""
    in_doctest = False
    literal_indent = None
    for i, line in enumerate(lines):
        stripped = line.lstrip()
        indent = len(line) - len(stripped)
        if literal_indent is not None:
            if stripped and indent <= literal_indent:
                literal_indent = None
            else:
                continue
        if stripped.startswith(">>>"):
            in_doctest = True
        if in_doctest:
            if not stripped:
                in_doctest = False
            continue
        if stripped.startswith(("+-", "+=")) or (stripped.startswith("| ") and stripped.endswith(" |")):
            continue                                  # an RST grid table: leave as written
        lines[i] = _escape_bars(line)
        if line.rstrip().endswith("::"):
            literal_indent = indent


# ------------------------------------------------------------------------------------------------------------
# internal links: docstrings say :func:`watchdog` inside their own module; the reference documents every public
# name once, as graphpriv.<name>. Resolve such short references there, and treat an unresolved reference to
# anything in graphpriv as a broken internal link (a warning, hence an error under -W).
# ------------------------------------------------------------------------------------------------------------
def _exists(dotted: str) -> bool:
    """Whether ``dotted`` names an importable module or an attribute of one (graphpriv.x.y.z)."""
    import importlib

    parts = dotted.split(".")
    for i in range(len(parts), 0, -1):
        try:
            obj = importlib.import_module(".".join(parts[:i]))
        except ImportError:
            continue
        try:
            for attr in parts[i:]:
                obj = getattr(obj, attr)
        except AttributeError:
            return False
        return True
    return False


def resolve_internal(app, env, node, contnode):
    if node.get("refdomain") != "py":
        return None
    target = node.get("reftarget", "")
    objects = env.get_domain("py").objects
    short = target.lstrip("~.").split(".")[-1]
    for candidate in (f"graphpriv.{short}", f"graphpriv.viz.{short}", f"graphpriv.reproduce.{short}",
                      f"graphpriv.datasets.{short}"):
        if candidate in objects:
            from sphinx.util.nodes import make_refnode

            entry = objects[candidate]
            return make_refnode(app.builder, node["refdoc"], entry.docname, entry.node_id, contnode, candidate)
    if node.get("reftype") == "mod":      # modules are not pages of their own: plain text when they exist
        import importlib.util

        try:
            if importlib.util.find_spec(target.lstrip("~.")) is not None:
                return contnode
        except ModuleNotFoundError:
            pass
    if target.lstrip("~.").startswith("graphpriv"):
        if _exists(target.lstrip("~.")):   # real but not public (a private helper): plain text, not a link
            return contnode
        from sphinx.util import logging as sphinx_logging

        sphinx_logging.getLogger(__name__).warning(
            "broken internal reference %s:%s (not in the API reference)", node.get("reftype"), target,
            location=node)
    return None


def cli_parser():
    """graphpriv's argument parser with '|' in help texts escaped (sphinx-argparse reads them as RST)."""
    import argparse

    from graphpriv.cli import build_parser

    def escape(parser):
        for attr in ("description", "epilog"):
            if getattr(parser, attr):
                setattr(parser, attr, getattr(parser, attr).replace("|", "\\|"))
        for action in parser._actions:
            if action.help:
                action.help = action.help.replace("|", "\\|")
            if isinstance(action, argparse._SubParsersAction):
                for sub in action.choices.values():
                    escape(sub)
        return parser

    return escape(build_parser())


def setup(app):
    app.connect("source-read", add_optional_pages)
    app.connect("missing-reference", resolve_internal)
    app.connect("autodoc-process-docstring", escape_plain_math, priority=400)
    app.add_directive("graphpriv-gallery", GalleryDirective)
    if not HAVE_SPHINXARG:
        app.add_directive("argparse", HelpTextDirective)
    app.connect("source-read", render_api_page)
    return {"parallel_read_safe": True}


def render_api_page(app, docname, source):
    """The API page is rendered from graphpriv.__all__ at build time, so a new public name is never missing.

    docs/api.rst holds the same text for readers of the repository (refresh it with ``python docs/_api.py``).
    """
    if docname == "api":
        source[0] = _api.render()
