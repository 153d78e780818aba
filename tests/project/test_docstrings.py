"""Project text cites papers, never documents a user does not have; docstring examples run when copied.

* Docstrings, comments, the figure manifest, the README and the docs cite papers by authors, title, section
  and equation -- not design notes, reading notes ("spec"), issue numbers or paths outside the repository.
* Every ``>>>`` example in the package defines or imports each name it uses, so pasting it into a fresh
  interpreter works (pytest's doctest run hides this: it executes examples in the module's namespace).
"""

from __future__ import annotations

import ast
import builtins
import doctest
import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
PACKAGE = ROOT / "graphpriv"

#: Citations of documents that are not part of the repository (case-insensitive).
FORBIDDEN = [
    (r"DESIGN\.md", "the design notes"),
    (r"\bspec\s*(§|section\b|E\d|\d)", "a reading-notes section ('spec §4.2', 'spec 7.5', 'spec E7')"),
    (r"§\s*\d", "a section sign (cite the paper's Section/eq. instead)"),
    (r"\b(watchdog|linear-reduction|perfect-sample-privacy|paper \d+)\s+spec\b", "a paper's reading notes"),
    (r"\bthe spec('s)?\b|\bspecs'|\bspecs of papers\b|\bits spec\b", "the reading notes"),
    (r"\b(linear-reduction(-repro)?|perfect-sample-privacy(-repro)?|watchdog_check)\.(md|py)\b|\bwatchdog\.md\b",
     "a reading-notes file"),
    (r"\bissues? #?\d+", "an issue number"),
    (r"(?-i:\(E\d{1,2}\)|, E\d{1,2}\))|, spec$", "a reading-notes erratum number ('E7') or a 'spec' cut by a line break"),
    (r"\.\./shared|/work/shared|\bshared/(papers|spec|data)\b", "a path outside the repository"),
]


def _project_text_files():
    files = sorted(PACKAGE.rglob("*.py"))
    files += [p for p in (PACKAGE / "data").glob("*.md")]
    files += [ROOT / "README.md", ROOT / "figures" / "README.md", ROOT / "CITATION.cff"]
    docs = ROOT / "docs"
    if docs.is_dir():
        files += [p for p in docs.rglob("*") if p.suffix in {".md", ".rst", ".py", ".txt"}
                  and not {"_build", "generated"} & set(p.parts)]
    return [p for p in files if p.is_file()]


def test_project_text_cites_papers_not_internal_documents():
    hits = []
    for path in _project_text_files():
        for lineno, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
            for pattern, what in FORBIDDEN:
                if re.search(pattern, line, flags=re.IGNORECASE):
                    hits.append(f"{path.relative_to(ROOT)}:{lineno}: {what}: {line.strip()[:100]}")
    n_files = len(_project_text_files())
    print(f"scanned {n_files} files for citations of documents outside the repository")
    assert n_files > 50
    assert not hits, "cite the paper (authors, title, section, equation) instead:\n" + "\n".join(hits)


def test_the_patterns_catch_what_they_are_meant_to():
    bad = ["see DESIGN.md, section 4", "(spec §4.8)", "watchdog spec 5.2", "(spec E7)", "# spec 7.2",
           "the spec's 4x8 example", "(issue 8)", "../shared/papers", "linear-reduction spec 7.1",
           "perfect-sample-privacy.md", "the specs' resolutions", "watchdog.md",
           "tied symbols enter together (E8)", "the paper leaves it open, E21)", "off by one, spec"]
    good = ["FigureSpec(name)", "for spec in specs:", "paper 003, Section IV, eq. (4)", "U2(values, self.spec)",
            "Sadeghi, Ding & Rakotoarivelo, Sec. IV", "a specification of the cut",
            "Returns the specs built", "benchmarks/bench_watchdog.py",
            'info["utility_spec"] = spec', "prep.block(x, e2)"]
    for text in bad:
        assert any(re.search(p, text, flags=re.IGNORECASE) for p, _ in FORBIDDEN), text
    for text in good:
        assert not any(re.search(p, text, flags=re.IGNORECASE) for p, _ in FORBIDDEN), text


# ------------------------------------------------------------------------------------------------------------
# examples that run when copied
# ------------------------------------------------------------------------------------------------------------
class _Names(ast.NodeVisitor):
    """Names an example reads before it binds them (module-level flow, in order)."""

    def __init__(self, bound: set[str]):
        self.bound = bound
        self.unbound: list[str] = []

    def bind_target(self, node):
        for n in ast.walk(node):
            if isinstance(n, ast.Name):
                self.bound.add(n.id)

    def visit_Import(self, node):
        for a in node.names:
            self.bound.add((a.asname or a.name).split(".")[0])

    visit_ImportFrom = visit_Import

    def visit_Assign(self, node):
        self.visit(node.value)
        for t in node.targets:
            self.bind_target(t)

    def visit_AugAssign(self, node):
        self.visit(node.value)
        self.visit(node.target)

    def visit_AnnAssign(self, node):
        if node.value is not None:
            self.visit(node.value)
        self.bind_target(node.target)

    def visit_NamedExpr(self, node):
        self.visit(node.value)
        self.bind_target(node.target)

    def visit_For(self, node):
        self.visit(node.iter)
        self.bind_target(node.target)
        for stmt in node.body + node.orelse:
            self.visit(stmt)

    def visit_With(self, node):
        for item in node.items:
            self.visit(item.context_expr)
            if item.optional_vars is not None:
                self.bind_target(item.optional_vars)
        for stmt in node.body:
            self.visit(stmt)

    def _scoped(self, node, args=()):  # comprehensions and lambdas bind their own names
        inner = _Names(set(self.bound) | set(args))
        if isinstance(node, ast.Lambda):
            inner.visit(node.body)
        else:
            for gen in node.generators:
                inner.visit(gen.iter)
                inner.bind_target(gen.target)
                for cond in gen.ifs:
                    inner.visit(cond)
            for part in ("elt", "key", "value"):
                if hasattr(node, part):
                    inner.visit(getattr(node, part))
        self.unbound += inner.unbound

    def visit_ListComp(self, node):
        self._scoped(node)

    visit_SetComp = visit_GeneratorExp = visit_DictComp = visit_ListComp

    def visit_Lambda(self, node):
        self._scoped(node, [a.arg for a in node.args.args + node.args.kwonlyargs])

    def visit_FunctionDef(self, node):
        self.bound.add(node.name)

    visit_ClassDef = visit_FunctionDef

    def visit_Name(self, node):
        if isinstance(node.ctx, ast.Load) and node.id not in self.bound:
            self.unbound.append(node.id)


def _docstring_examples():
    parser = doctest.DocTestParser()
    for path in sorted(PACKAGE.rglob("*.py")):
        tree = ast.parse(path.read_text(encoding="utf-8"))
        for node in ast.walk(tree):
            if isinstance(node, (ast.Module, ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
                doc = ast.get_docstring(node, clean=True)
                if doc and ">>>" in doc:
                    name = getattr(node, "name", "<module>")
                    yield f"{path.relative_to(ROOT)}::{name}", parser.get_examples(doc)


def test_docstring_examples_run_when_copied():
    """Each example imports what it uses (checked statically: names read before any import/assignment)."""
    known = set(dir(builtins))
    problems, n = [], 0
    for where, examples in _docstring_examples():
        n += 1
        names = _Names(set(known))
        for ex in examples:
            try:
                tree = ast.parse(ex.source)
            except SyntaxError:
                continue
            for stmt in tree.body:
                names.visit(stmt)
        if names.unbound:
            problems.append(f"{where}: uses {sorted(set(names.unbound))} without importing/defining them")
    print(f"checked {n} docstrings with examples")
    assert n > 100
    assert not problems, "\n".join(problems)


def test_synergistic_disclosure_example_runs_in_a_fresh_namespace():
    import graphpriv as gp

    test = doctest.DocTestFinder().find(gp.synergistic_disclosure, "synergistic_disclosure", globs={})[0]
    test.globs = {}
    runner = doctest.DocTestRunner(optionflags=doctest.NORMALIZE_WHITESPACE | doctest.ELLIPSIS)
    result = runner.run(test)
    assert result.attempted >= 3 and result.failed == 0


def test_from_dataframe_documents_its_parameters():
    from graphpriv import JointRange

    doc = JointRange.from_dataframe.__doc__
    assert "Parameters\n        ----------" in doc
    for name in ("df :", "sensitive :", "public :", "missing :", "Returns", "Raises"):
        assert name in doc, name


@pytest.mark.parametrize("bad", ["x = undefined_name + 1", "[y for y in range(3)]; print(y)"])
def test_the_static_check_finds_unbound_names(bad):
    names = _Names(set(dir(builtins)))
    for stmt in ast.parse(bad).body:
        names.visit(stmt)
    assert names.unbound
