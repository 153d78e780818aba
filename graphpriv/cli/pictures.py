"""The picture stage of ``graphpriv sanitize`` and ``graphpriv analyze``: best effort, after the data.

A release or a report never depends on a picture. Every figure, animation and explorer page is drawn
by :meth:`Pictures.draw` in its own guard: any exception (a ``RecursionError`` deep inside a plotting
library, a ``MemoryError``, a bug) becomes one warning line on stderr naming the file and the reason,

    graphpriv: warning: merges.gif skipped: RecursionError: maximum recursion depth exceeded

whatever the picture had begun to write is removed, and ``{"file", "reason"}`` is added to
:attr:`Pictures.skipped`, which the command writes into ``summary.json`` / ``report.json`` and the
report. Pictures left out on purpose (a range too large for a legible drawing, a missing optional
dependency) are recorded the same way by :meth:`Pictures.skip`, logged at INFO unless ``warn``.

While drawing, the stage says what it draws: a tqdm bar on a terminal, else (for long runs, or with
``-v``) one line per picture, ``graphpriv: drawing explorer.html (3/3)...``.
"""

from __future__ import annotations

import logging
import sys
from pathlib import Path
from typing import Callable, Iterable

__all__ = ["Pictures", "reason_of", "ANNOUNCE_MIN_PUBLIC"]

logger = logging.getLogger("graphpriv.cli")

#: Off a terminal, runs on ranges with at least this many public values announce every picture they draw
#: (smaller ones draw in a second or two and stay silent unless ``-v``).
ANNOUNCE_MIN_PUBLIC = 1000

#: Longest reason kept (characters), so one line stays one line.
MAX_REASON = 300


def reason_of(exc: BaseException) -> str:
    """``"TypeName: message"`` on one line (the message cut to :data:`MAX_REASON` characters)."""
    msg = " ".join(str(exc).split())
    if len(msg) > MAX_REASON:
        msg = msg[:MAX_REASON - 3] + "..."
    return f"{type(exc).__name__}: {msg}" if msg else type(exc).__name__


class Pictures:
    """Draws a run's pictures one by one, each best-effort, and keeps what was written and skipped.

    Parameters
    ----------
    out_dir : path
        The (staging) folder the pictures are written into; file names are relative to it.
    total : int
        How many pictures the run means to draw (for the "(k/total)" count and the bar).
    bar : bool
        Show a tqdm bar on stderr (a terminal).
    announce : bool
        Print ``graphpriv: drawing NAME (k/total)...`` on stderr before each picture (off a terminal).
    """

    def __init__(self, out_dir, total: int = 0, *, bar: bool = False, announce: bool = False):
        self.out_dir = Path(out_dir)
        self.total = max(int(total), 0)
        self.written: list[str] = []
        self.skipped: list[dict] = []
        self._k = 0
        self._announce = announce and not bar
        self._bar = None
        if bar and self.total:
            from tqdm.auto import tqdm

            self._bar = tqdm(total=self.total, desc="figures", unit="fig", file=sys.stderr, leave=False, position=1)

    def draw(self, name: str, files: Iterable[str], fn: Callable[[], object]) -> list[str]:
        """Run ``fn()``, which writes ``files`` (relative to ``out_dir``; ``name`` is how the warning calls
        them). ``fn`` may return the list of files it actually wrote (``[]``: nothing, without an error).
        Returns the files written; on an exception, ``[]`` after the warning and the ``skipped`` entry."""
        files = list(files)
        self._k += 1
        if self._bar is not None:
            self._bar.set_postfix_str(name)
        elif self._announce:
            count = f" ({self._k}/{self.total})" if self.total >= self._k else ""
            print(f"graphpriv: drawing {name}{count}...", file=sys.stderr, flush=True)
        else:
            logger.info("drawing %s", name)
        try:
            got = fn()
        except Exception as exc:  # noqa: BLE001 - a picture must never sink the release or the report
            self._discard(files)
            self.skip(name, reason_of(exc), warn=True)
            got = []
        else:
            got = files if got is None else list(got)
        finally:
            if self._bar is not None:
                self._bar.update(1)
        self.written += got
        return got

    def skip(self, name: str, reason: str, *, warn: bool = False) -> None:
        """Record ``name`` as skipped for ``reason``: a warning line when ``warn``, else an INFO log line."""
        reason = " ".join(str(reason).split())
        self.skipped.append({"file": name, "reason": reason})
        if warn:
            logger.warning("warning: %s skipped: %s", name, reason)
        else:
            logger.info("%s skipped: %s", name, reason)

    def _discard(self, files: list[str]) -> None:
        """Close the figures a failed drawing left open and remove what it had begun to write."""
        try:
            import matplotlib.pyplot as plt

            plt.close("all")
        except Exception:  # noqa: BLE001 - cleaning up must not raise in turn
            pass
        for f in files:
            p = self.out_dir / f
            try:
                if p.is_file() or p.is_symlink():
                    p.unlink()
            except OSError:
                pass

    def close(self) -> None:
        if self._bar is not None:
            self._bar.close()
            self._bar = None
