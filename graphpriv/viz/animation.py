"""Animations of merge traces to GIF (Pillow) or MP4 (ffmpeg).

:func:`animate_trace` draws one frame per recorded step of a :class:`~graphpriv.MergeTrace` with
:func:`~graphpriv.viz.plot_merge_step` (same stable layout in every frame) and writes the file
atomically: frames go to a temporary file in the target folder that replaces the target only once
complete, so an interrupted run never leaves a truncated animation.
"""

from __future__ import annotations

import contextlib
import os
import shutil
import tempfile
from pathlib import Path
from typing import Mapping

from ..errors import InputError
from .style import COLUMN_WIDTH, style_context

__all__ = ["animate_trace", "ffmpeg_available"]


def ffmpeg_available() -> bool:
    """True when matplotlib can find an ``ffmpeg`` executable (needed for MP4 output)."""
    from matplotlib import animation

    return bool(animation.writers.is_available("ffmpeg")) or shutil.which("ffmpeg") is not None


def animate_trace(trace, jr, path, *, fps: float = 1.0, format: str | None = None, steps=None,
                  layout: str | Mapping = "circle", width: float = COLUMN_WIDTH, height: float | None = None,
                  dpi: int = 120, labels="auto", seed: int = 0, view: str = "auto") -> Path:
    """Write an animation of a merge trace, one frame per step, as GIF (Pillow) or MP4 (ffmpeg).

    Each frame is :func:`~graphpriv.viz.plot_merge_step` for step t: G_X̂(t) with super-nodes labelled by
    their members, the pair merged at t ringed (numbered when a step merges several pairs), the components
    it joined shaded, |P(t)|, I* and L(t) written under the panel, all on one layout (a node moves only
    when it merges). Ranges with more than :data:`graphpriv.viz.NODE_LINK_MAX` public values get
    :func:`~graphpriv.viz.plot_merge_view` frames instead (matrix view, hierarchy cut at t, component
    graph). Frame 0 is the original G_X; titles mark the released step and a rejected tentative step, and
    when the last recorded step is not the released one a final frame shows the release again.

    Parameters
    ----------
    trace : MergeTrace
    jr : JointRange
        The joint range the trace was recorded on.
    path : str or Path
        Output file; its suffix picks the format when ``format`` is None.
    fps : float
        Frames (steps) per second.
    format : {"gif", "mp4"}, optional
        Output format (default: from the suffix of ``path``; "gif" if it has none).
    steps : sequence of int, optional
        Steps to draw (default: every recorded step 0..len(trace)-1, then the released step again when
        the last step is a rejected one).
    view : {"auto", "graph", "matrix"}
        Node-link frames ("graph"), three-view frames ("matrix") or by size ("auto").
    layout, labels, seed
        As in :func:`~graphpriv.viz.plot_merge_step`.
    width, height, dpi
        Frame size in inches and resolution.

    Returns
    -------
    pathlib.Path
        The written file.

    Raises
    ------
    InputError
        Unknown format, ``fps <= 0``, or MP4 requested without ffmpeg (install ffmpeg or use format="gif").

    Examples
    --------
    >>> import graphpriv as gp, tempfile, os
    >>> from PIL import Image
    >>> jr, _ = gp.datasets.paper_example()
    >>> tr = gp.agglomerate(jr, "I*", 0.3).trace                      # paper 003, Example 3
    >>> out = gp.viz.animate_trace(tr, jr, os.path.join(tempfile.mkdtemp(), "example3.gif"))
    >>> Image.open(out).n_frames == len(tr)                          # one frame per step, t = 0..4
    True
    """
    import matplotlib
    import matplotlib.pyplot as plt
    from matplotlib import animation

    from .graphs import graph_layout
    from .merges import _check_pair
    from .traces import plot_merge_step

    trace, jr = _check_pair(trace, jr)
    path = Path(path)
    fmt = (format or path.suffix.lstrip(".") or "gif").lower()
    if fmt not in ("gif", "mp4"):
        raise InputError(f"format={fmt!r}: animate_trace writes 'gif' or 'mp4'")
    from .._guards import check_plot_range

    check_plot_range("trace", jr)
    if not (isinstance(fps, (int, float)) and fps > 0):
        raise InputError(f"fps must be a positive number, got {fps!r}")
    if fmt == "mp4" and not ffmpeg_available():
        raise InputError("MP4 output needs ffmpeg, which was not found on PATH; install ffmpeg or use format='gif'")
    if path.suffix.lower() != "." + fmt:
        path = path.with_name(path.name + "." + fmt) if not path.suffix else path.with_suffix("." + fmt)
    if view not in ("auto", "graph", "matrix"):
        raise InputError(f"view={view!r} must be 'auto', 'graph' or 'matrix'")
    if view == "auto":
        from .overview import NODE_LINK_MAX

        view = "graph" if trace.n_public <= NODE_LINK_MAX else "matrix"
    if steps is None:
        steps = list(range(len(trace)))
        if steps[-1] != trace.returned:
            steps.append(trace.returned)   # end on the release, not on a rejected step
    else:
        steps = [trace._check_t(s) for s in steps]
    if not steps:
        raise InputError("steps is empty; give at least one step index")
    base = graph_layout(jr, layout, seed=seed)
    path.parent.mkdir(parents=True, exist_ok=True)
    with style_context():
        if view == "matrix":
            from .overview import draw_merge_view
            from .style import PAGE_WIDTH

            w = width if width != COLUMN_WIDTH else PAGE_WIDTH
            fig = plt.figure(figsize=(w, height or w * 0.8), layout="constrained")
        else:
            fig, ax = plt.subplots(figsize=(width, height or width * 0.8), layout="constrained")

        frozen: list = []      # matrix frames: panel positions solved once, on the last (most merged) frame

        if view == "matrix" and len(steps) > 1:
            # its cluster labels are the longest, so the layout fits every frame; the frames then share
            # one layout (panels do not jump), and the layout, most of a frame's drawing time, is solved once
            draw_merge_view(fig, trace, jr, steps[-1])
            fig.suptitle(fig.get_suptitle() + f"   [{len(steps)}/{len(steps)}]", fontsize=10)
            fig.get_layout_engine().execute(fig)      # the layout only, no rendering
            frozen.extend(a.get_position() for a in fig.axes)
            fig.set_layout_engine("none")

        def draw(k):
            if view == "matrix":
                fig.clear()
                draw_merge_view(fig, trace, jr, steps[k])
                fig.suptitle(fig.get_suptitle() + f"   [{k + 1}/{len(steps)}]", fontsize=10, color=fig._suptitle.get_color())
                if frozen and len(frozen) == len(fig.axes):
                    for a, pos in zip(fig.axes, frozen):
                        a.set_position(pos)
                elif frozen:                # another set of panels: lay this frame out on its own
                    fig.set_layout_engine("constrained")
                    frozen.clear()
                return []
            ax.clear()
            plot_merge_step(trace, steps[k], jr, ax, layout=base, labels=labels)
            ax.set_title(ax.get_title() + f"   [{k + 1}/{len(steps)}]", fontsize=8)
            return []

        from ..outputs import _chmod_default

        fd, tmp = tempfile.mkstemp(prefix="." + path.stem, suffix="." + fmt, dir=path.parent)
        os.close(fd)
        _chmod_default(tmp)
        try:
            # each frame is rendered once (FuncAnimation.save renders a frame three times on a
            # non-interactive canvas: its own draw, an idle redraw and the writer's savefig, which adds a
            # dry-run draw for the layout engine); frames of one size, as Animation.save makes them
            if fmt == "gif":
                _write_gif(fig, draw, len(steps), tmp, fps, dpi)
            else:
                writer = animation.FFMpegWriter(fps=fps)
                with matplotlib.rc_context({"savefig.bbox": None}), writer.saving(fig, tmp, dpi):
                    for k in range(len(steps)):
                        draw(k)
                        writer.grab_frame()
            os.replace(tmp, path)
        except BaseException:
            with contextlib.suppress(OSError):
                os.unlink(tmp)
            raise
        finally:
            plt.close(fig)
    return path


def _write_gif(fig, draw, n: int, path: str, fps: float, dpi: int) -> None:
    """Frames ``draw(0..n-1)`` of ``fig``, each rendered once on the Agg canvas at ``dpi``, as a looping GIF
    (what matplotlib's PillowWriter writes: opaque frames as RGB, ``1000 / fps`` ms each)."""
    from matplotlib.backends.backend_agg import FigureCanvasAgg
    from PIL import Image

    fig.set_dpi(dpi)
    canvas = FigureCanvasAgg(fig) if not isinstance(fig.canvas, FigureCanvasAgg) else fig.canvas
    frames = []
    for k in range(n):
        draw(k)
        canvas.draw()
        w, h = canvas.get_width_height(physical=True)
        im = Image.frombuffer("RGBA", (w, h), bytes(canvas.buffer_rgba()), "raw", "RGBA", 0, 1)
        frames.append(im if im.getextrema()[3][0] < 255 else im.convert("RGB"))   # opaque: RGB quantises better
    frames[0].save(path, format="GIF", save_all=True, append_images=frames[1:], duration=int(1000 / fps), loop=0)
