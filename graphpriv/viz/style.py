"""One visual style for every graphpriv figure: colours, fonts, sizes, saving.

Sizes target a two-column paper: ``COLUMN_WIDTH`` (3.5 in) for one column, ``PAGE_WIDTH`` (7.16 in)
for a full-width figure. Colours come from the Okabe--Ito colour-blind-safe palette; every module uses
the named roles below so a concept has the same colour in every figure.
"""

from __future__ import annotations

import contextlib
from pathlib import Path

import matplotlib as mpl

__all__ = [
    "PALETTE", "ROLE", "COLUMN_WIDTH", "PAGE_WIDTH", "RC", "style_context", "component_color",
    "save_figure", "new_figure", "axes_or_new",
]

#: Okabe--Ito palette (colour-blind safe), in the order used for components.
PALETTE = ["#0072B2", "#E69F00", "#009E73", "#CC79A7", "#56B4E9", "#D55E00", "#F0E442", "#000000"]

#: Colours by meaning, shared by all figures.
ROLE = {
    "public": "#0072B2",       # public values X (nodes, columns)
    "sensitive": "#D55E00",    # sensitive values S
    "pair": "#0072B2",         # a pair in the joint range grid
    "merge": "#882255",        # the merged pair / highlighted merge (wine: outside the component palette)
    "cut": "#D55E00",          # cut edges
    "cut_side": "#332288",     # the side X' of a cut (indigo: outside the component palette)
    "cut_other": "#999933",    # the other side of a cut (olive: outside the component palette)
    "edge": "#7f7f7f",         # ordinary edges
    "frontier": "#0072B2",     # greedy frontier / main curve
    "frontier2": "#E69F00",    # second method / second utility
    "exact": "#000000",        # exact optimum
    "baseline": "#009E73",     # baselines (k-anonymity, ...)
    "grid": "#d9d9d9",
}

COLUMN_WIDTH = 3.5
PAGE_WIDTH = 7.16

RC = {
    "font.size": 8,
    "axes.titlesize": 9,
    "axes.labelsize": 8,
    "xtick.labelsize": 7,
    "ytick.labelsize": 7,
    "legend.fontsize": 7,
    "figure.titlesize": 10,
    "axes.spines.top": False,
    "axes.spines.right": False,
    "axes.grid": False,
    "lines.linewidth": 1.4,
    "lines.markersize": 4,
    "savefig.dpi": 200,
    "savefig.bbox": "tight",
    "savefig.pad_inches": 0.03,
    "pdf.fonttype": 42,
    "ps.fonttype": 42,
    "svg.fonttype": "none",
    "axes.prop_cycle": mpl.cycler(color=PALETTE),
}


@contextlib.contextmanager
def style_context():
    """Context manager applying graphpriv's rcParams."""
    with mpl.rc_context(RC):
        yield


def component_color(k: int) -> str:
    """Colour of component number ``k`` (cycles through :data:`PALETTE`)."""
    return PALETTE[k % len(PALETTE)]


def _tint(color, amount: float = 0.72):
    """Blend ``color`` with white (amount = share of white)."""
    import numpy as np
    from matplotlib.colors import to_rgb

    r = np.asarray(to_rgb(color))
    return tuple(r * (1 - amount) + amount)


def new_figure(width: float = COLUMN_WIDTH, height: float | None = None, nrows: int = 1, ncols: int = 1, **kwargs):
    """A figure with graphpriv's style and (nrows, ncols) axes; returns ``(fig, axes)``."""
    import matplotlib.pyplot as plt

    with style_context():
        fig, axes = plt.subplots(nrows, ncols, figsize=(width, height or width * 0.75), **kwargs)
    return fig, axes


def axes_or_new(ax=None, width: float = COLUMN_WIDTH, height: float | None = None):
    """``ax`` itself, or the axes of a new single-panel figure of the given size when ``ax`` is None (laid out by
    matplotlib's constrained layout, so its labels, legends and insets are never cut at the figure's edge)."""
    if ax is None:
        _, ax = new_figure(width, height, layout="constrained")
    return ax


def save_figure(fig, path, formats=("pdf", "png"), **kwargs) -> list[Path]:
    """Save ``fig`` to ``path`` with each suffix in ``formats``, atomically (temp file + rename).

    ``path`` may carry a suffix or not; returns the written paths. A failed save leaves no partial file.
    """
    path = Path(path)
    stem = path.with_suffix("") if path.suffix.lstrip(".") in ("pdf", "png", "svg") else path
    stem.parent.mkdir(parents=True, exist_ok=True)
    out = []
    from ..outputs import atomic_write

    with style_context():
        for fmt in formats:
            target = stem.with_name(stem.name + "." + fmt)
            meta = {"pdf": {"CreationDate": None}, "svg": {"Date": None}}.get(fmt)  # byte-stable output
            with atomic_write(target, "wb") as fh:
                fig.savefig(fh, format=fmt, **({"metadata": meta} if meta and "metadata" not in kwargs else {}), **kwargs)
            out.append(target)
    return out


def contain_artists(fig, pad: float = 0.2) -> None:
    """Grow ``fig`` (and shift its axes) so every title, label, note and legend drawn outside the axes lies
    inside the figure: ``fig.savefig(path)`` then keeps them without ``bbox_inches="tight"``. The axes keep
    their size in inches; a figure whose contents already fit is left unchanged."""
    from matplotlib.transforms import Bbox

    renderer = fig.canvas.get_renderer()
    bb = fig.get_tightbbox(renderer)
    if bb is None:
        return
    W, H = fig.get_size_inches()
    left, bottom = max(0.0, pad - bb.x0), max(0.0, pad - bb.y0)
    right, top = max(0.0, bb.x1 - W + pad), max(0.0, bb.y1 - H + pad)
    if max(left, bottom, right, top) <= 1e-3:
        return
    W2, H2 = W + left + right, H + bottom + top
    for ax in fig.axes:
        p = ax.get_position()
        ax.set_position(Bbox.from_extents((p.x0 * W + left) / W2, (p.y0 * H + bottom) / H2,
                                          (p.x1 * W + left) / W2, (p.y1 * H + bottom) / H2))
    fig.set_size_inches(W2, H2)


def contained(fn):
    """Decorate a single-panel plotting function: when it drew a new figure (no ``ax`` given), the figure is
    grown to contain its title, notes and legend (:func:`contain_artists`)."""
    import functools

    @functools.wraps(fn)
    def wrapper(*args, **kwargs):
        import matplotlib.pyplot as plt

        before = set(plt.get_fignums())
        out = fn(*args, **kwargs)
        fig = getattr(out, "figure", None)
        if fig is not None and getattr(fig, "number", None) not in before and len(fig.axes) == 1:
            contain_artists(fig)
        return out

    return wrapper
