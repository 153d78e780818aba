"""Reproductions of the papers' figures, one module per paper, and the ``graphpriv figures`` driver.

Each module registers figure builders with :func:`figure`. A builder takes a ``quick`` flag (small
parameters for tests) and returns a matplotlib Figure. :func:`build_all` runs them, writes PDF and
PNG atomically, and writes ``README.md``, the manifest (file, paper, figure, what it shows, erratum).
"""

from __future__ import annotations

import importlib
import logging
import sys
from dataclasses import dataclass
from pathlib import Path
from typing import Callable

__all__ = ["FigureSpec", "figure", "registry", "build_all", "drop_single_panel_titles", "typeset_labels", "MODULES"]

logger = logging.getLogger(__name__)

#: Modules holding figure builders, in manifest order.
MODULES = ["concepts", "paper003", "paper002", "paper000", "paper004", "research", "followups"]


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


def build_all(out_dir, *, only: list[str] | None = None, quick: bool = False, formats=("pdf", "png"),
              progress: bool | str = False) -> list[FigureSpec]:
    """Build every registered figure (or those whose name contains one of ``only``) into ``out_dir``.

    Writes ``<name>.pdf``/``<name>.png`` per figure and ``README.md`` listing every registered figure whose
    files are in ``out_dir`` (so a partial ``only=`` run keeps the rest of the manifest). Returns the specs built.
    ``progress``: True shows a tqdm bar on stderr (a terminal), ``"lines"`` prints one line per figure on
    stderr (``graphpriv: drawing paper003_fig7_pareto_frontier (9/32)...``, for logs), False nothing.
    """
    import matplotlib

    matplotlib.use("Agg", force=False)
    import matplotlib.pyplot as plt

    from ..viz.style import save_figure, style_context

    out = Path(out_dir)
    out.mkdir(parents=True, exist_ok=True)
    specs = [s for s in registry() if not only or any(o in s.name for o in only)]
    it = specs
    if progress is True:
        from tqdm.auto import tqdm

        it = tqdm(specs, desc="figures", unit="fig", file=sys.stderr)
    built = []
    for k, spec in enumerate(it, 1):
        if progress == "lines":
            print(f"graphpriv: drawing {spec.name} ({k}/{len(specs)})...", file=sys.stderr, flush=True)
        elif progress is True:
            it.set_postfix_str(spec.name)
        logger.info("building %s", spec.name)
        with style_context():
            fig = spec.build(quick=quick)
        drop_single_panel_titles(fig)
        typeset_labels(fig)
        save_figure(fig, out / spec.name, formats=formats)
        plt.close(fig)
        built.append(spec)
    # the manifest lists every registered figure present in out_dir (a partial --only run keeps the others)
    present = [s for s in registry() if all((out / f"{s.name}.{f}").exists() for f in formats)]
    _write_manifest(out, present, formats)
    return built


def drop_single_panel_titles(fig) -> bool:
    """Remove the titles of a one-panel figure (twin and inset axes do not count as panels): in a paper the
    caption (the manifest's "what it shows") says what a single panel is. Returns True when it removed any."""
    panels = {tuple(round(v, 4) for v in ax.get_position().bounds) for ax in fig.axes
              if ax.get_subplotspec() is not None and ax.get_visible()}
    if len(panels) != 1:
        return False
    for ax in fig.axes:
        for loc in ("left", "center", "right"):
            ax.set_title("", loc=loc)
    if fig._suptitle is not None:
        fig._suptitle.set_text("")
    return True


def typeset_labels(fig) -> int:
    """Pass every text of ``fig`` (titles, axis labels, legends, annotations, fixed tick labels) through
    :func:`graphpriv.viz.labels.math_text`, so all figures write I*, G_X, x_{11}, ε, "L0|I*=0" the same way.
    Returns the number of texts changed."""
    from matplotlib.ticker import FixedLocator

    from ..viz.labels import math_text

    changed = 0

    def fix(text_artist) -> None:
        nonlocal changed
        old = text_artist.get_text()
        new = math_text(old)
        if new != old:
            text_artist.set_text(new)
            changed += 1

    texts = list(fig.texts) + ([fig._suptitle] if fig._suptitle is not None else [])
    for ax in fig.axes:
        texts += [ax.title, ax._left_title, ax._right_title, ax.xaxis.label, ax.yaxis.label, *ax.texts]
        leg = ax.get_legend()
        if leg is not None:
            texts += [*leg.get_texts(), leg.get_title()]
        for axis in (ax.xaxis, ax.yaxis):   # fixed tick labels (set_xticklabels); numeric ticks are left alone
            if isinstance(axis.get_major_locator(), FixedLocator):
                ticks = axis.get_ticklabels()
                old = [t.get_text() for t in ticks]
                new = [math_text(v) for v in old]
                if new != old:
                    props = [(t.get_rotation(), t.get_fontsize(), t.get_color()) for t in ticks]
                    axis.set_ticklabels(new)
                    for t, (rot, size, col) in zip(axis.get_ticklabels(), props):
                        t.set_rotation(rot)
                        t.set_fontsize(size)
                        t.set_color(col)
                    changed += sum(a != b for a, b in zip(new, old))
    for leg in fig.legends:
        texts += list(leg.get_texts())
    for t in texts:
        fix(t)
    return changed


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
    from ..outputs import write_text

    write_text(out / "README.md", "\n".join(lines) + "\n")
