"""graphpriv.viz exports the drawing and explorer functions users call, grouped; constants and the views'
helpers live in their modules, and their old names under graphpriv.viz still work with a DeprecationWarning."""

from __future__ import annotations

import inspect
import re
import warnings
from pathlib import Path

import pytest

import graphpriv.viz as viz

ROOT = Path(__file__).resolve().parents[2]


def test_all_holds_only_functions_and_classes_users_call():
    assert viz.__all__, "graphpriv.viz exports nothing"
    assert len(set(viz.__all__)) == len(viz.__all__)
    constants = [n for n in viz.__all__ if n.isupper() or re.fullmatch(r"[A-Z0-9_]+", n)]
    private = [n for n in viz.__all__ if n.startswith("_")]
    assert not constants and not private, (constants, private)
    for name in viz.__all__:
        obj = getattr(viz, name)
        assert inspect.isfunction(obj) or inspect.isclass(obj), name
        assert not inspect.ismodule(obj), name
    for helper in ("BADGE_MAX", "COLUMN_WIDTH", "FOCUS_BUDGET", "NODE_LINK_MAX", "axes_or_new", "elide", "math_text",
                   "status_color", "style", "labels", "matrix", "explorer"):
        assert helper not in viz.__all__, helper
    print(f"graphpriv.viz.__all__: {len(viz.__all__)} names, e.g. {viz.__all__[:4]}")


def test_dir_lists_the_public_names_grouped_like_the_docstring():
    assert dir(viz) == sorted(viz.__all__)
    grouped = [n for names in viz._GROUPS.values() for n in names]
    assert viz.__all__[:len(grouped)] == grouped
    doc = " ".join(viz.__doc__.split())
    for name in grouped:                               # the module docstring names every public name
        assert re.search(rf"`{re.escape(name)}`", doc), name
    # every drawing function a submodule exports is public (so a new plot_* is never hidden)
    for m in viz._MODULES:
        for name in m.__all__:
            if name.startswith(("plot_", "animate_")):
                assert name in viz.__all__, name


def test_old_names_warn_and_still_work():
    assert {"BADGE_MAX", "COLUMN_WIDTH", "FOCUS_BUDGET", "NODE_LINK_MAX", "axes_or_new", "elide", "math_text",
            "status_color", "PALETTE", "ROLE", "hierarchy_order", "explorer_data"} <= set(viz._DEPRECATED)
    from graphpriv.viz import matrix, style

    with pytest.warns(DeprecationWarning, match=r"graphpriv\.viz\.BADGE_MAX is deprecated.*graphpriv\.viz\.matrix"):
        assert viz.BADGE_MAX == matrix.BADGE_MAX
    with pytest.warns(DeprecationWarning, match="graphpriv.viz.style import COLUMN_WIDTH"):
        from graphpriv.viz import COLUMN_WIDTH
    assert COLUMN_WIDTH == style.COLUMN_WIDTH
    for name, module in viz._DEPRECATED.items():
        with pytest.warns(DeprecationWarning):
            obj = getattr(viz, name)
        assert obj is getattr(__import__(module, fromlist=[name]), name), name
    with pytest.raises(AttributeError, match="no attribute 'no_such_plot'"):
        viz.no_such_plot  # noqa: B018
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        for name in viz.__all__:                      # public names never warn
            getattr(viz, name)
        assert viz.style.COLUMN_WIDTH > 0             # nor do the submodules' own names


def test_the_package_itself_uses_no_deprecated_name():
    """graphpriv's code, tests, notebooks, examples, docs and benchmarks import constants and helpers from the
    modules that define them, not from graphpriv.viz."""
    names = "|".join(sorted(viz._DEPRECATED, key=len, reverse=True))
    attr = re.compile(rf"(?<![\w.])(?:gp\.|graphpriv\.)?viz\.({names})\b")
    imports = re.compile(r"from (?:graphpriv\.viz|\.\.?viz) import \(?([^)\n]+(?:\n[^)\n]+)*?)\)?$", re.M)
    bad = []
    files = [p for d in ("graphpriv", "tests", "notebooks", "examples", "docs", "benchmarks")
             for p in (ROOT / d).rglob("*") if p.suffix in (".py", ".ipynb", ".md", ".rst")
             and "generated" not in p.parts and "auto_examples" not in p.parts and "_build" not in p.parts]
    for path in files + [ROOT / "README.md"]:
        if path.name == "test_viz_namespace.py" or path == ROOT / "graphpriv" / "viz" / "__init__.py":
            continue
        text = path.read_text(encoding="utf-8")
        bad += [f"{path.relative_to(ROOT)}: viz.{m.group(1)}" for m in attr.finditer(text)]
        for m in imports.finditer(text):
            body = re.sub(r"#[^\n]*", "", m.group(1).replace("\\n", " "))     # comments are not names
            used = {w.strip().split(" as ")[0] for w in body.split(",")}
            bad += [f"{path.relative_to(ROOT)}: from graphpriv.viz import {n}" for n in used & set(viz._DEPRECATED)]
    print(f"checked {len(files) + 1} files")
    assert not bad, bad
