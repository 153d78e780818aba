"""Reproductions of the papers' figures, one module per paper, and the ``graphpriv figures`` driver.

Each module registers figure builders with :func:`figure`. A builder takes a ``quick`` flag (small
parameters for tests) and returns a matplotlib Figure. :func:`build_all` runs them, writes PDF and
PNG atomically, and writes ``README.md``, the manifest (file, paper, figure, what it shows, erratum).
"""

from __future__ import annotations

import importlib
import logging
import os
import tempfile
from dataclasses import dataclass
from pathlib import Path
from typing import Callable

__all__ = ["FigureSpec", "figure", "registry", "build_all", "MODULES"]

logger = logging.getLogger(__name__)

#: Modules holding figure builders, in manifest order.
MODULES = ["paper003", "paper002", "paper000", "paper004", "research"]


@dataclass(frozen=True)
class FigureSpec:
    name: str          # file stem, e.g. "paper003_fig1_joint_range"
    paper: str         # e.g. "003"
    figure: str        # e.g. "Fig. 1"
    shows: str         # one sentence: what it shows
    erratum: str       # how and why it differs from the print ("" if it does not)
    build: Callable    # build(quick: bool) -> matplotlib.figure.Figure


_REGISTRY: dict[str, FigureSpec] = {}


def figure(name: str, paper: str, number: str, shows: str, erratum: str = ""):
    """Decorator registering a figure builder ``build(quick=False) -> Figure``."""

    def deco(fn):
        _REGISTRY[name] = FigureSpec(name, paper, number, shows, erratum, fn)
        return fn

    return deco


def registry() -> list[FigureSpec]:
    """All registered figures (imports every module in :data:`MODULES` that exists)."""
    for mod in MODULES:
        try:
            importlib.import_module(f"{__name__}.{mod}")
        except ModuleNotFoundError as exc:
            if exc.name != f"{__name__}.{mod}":
                raise
    return list(_REGISTRY.values())


def build_all(out_dir, *, only: list[str] | None = None, quick: bool = False, formats=("pdf", "png"), progress: bool = False) -> list[FigureSpec]:
    """Build every registered figure (or those whose name contains one of ``only``) into ``out_dir``.

    Writes ``<name>.pdf``/``<name>.png`` per figure and ``README.md`` listing every registered figure whose
    files are in ``out_dir`` (so a partial ``only=`` run keeps the rest of the manifest). Returns the specs built.
    """
    import matplotlib

    matplotlib.use("Agg", force=False)
    import matplotlib.pyplot as plt

    from ..viz.style import save_figure, style_context

    out = Path(out_dir)
    out.mkdir(parents=True, exist_ok=True)
    specs = [s for s in registry() if not only or any(o in s.name for o in only)]
    it = specs
    if progress:
        from tqdm.auto import tqdm

        it = tqdm(specs, desc="figures", unit="fig")
    built = []
    for spec in it:
        logger.info("building %s", spec.name)
        with style_context():
            fig = spec.build(quick=quick)
        save_figure(fig, out / spec.name, formats=formats)
        plt.close(fig)
        built.append(spec)
    # the manifest lists every registered figure present in out_dir (a partial --only run keeps the others)
    present = [s for s in registry() if all((out / f"{s.name}.{f}").exists() for f in formats)]
    _write_manifest(out, present, formats)
    return built


def _write_manifest(out: Path, specs: list[FigureSpec], formats) -> None:
    lines = [
        "# graphpriv figures",
        "",
        "Regenerate with `graphpriv figures --out DIR`. Each figure is written as " + " and ".join(f.upper() for f in formats) + ".",
        "",
        "| file | paper | figure | what it shows | differences from the print |",
        "| --- | --- | --- | --- | --- |",
    ]
    def cell(text: str) -> str:  # a "|" or a line break inside a cell would break the table
        return " ".join(text.split()).replace("|", "\\|")

    for s in specs:
        files = ", ".join(f"[{s.name}.{f}]({s.name}.{f})" for f in formats)
        lines.append(f"| {files} | {cell(s.paper)} | {cell(s.figure)} | {cell(s.shows)} | {cell(s.erratum) or '—'} |")
    text = "\n".join(lines) + "\n"
    fd, tmp = tempfile.mkstemp(prefix=".README.md", dir=out)
    with os.fdopen(fd, "w") as fh:
        fh.write(text)
    os.replace(tmp, out / "README.md")
