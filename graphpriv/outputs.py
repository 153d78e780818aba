"""Writing files and whole output folders atomically.

Every writer here writes a temporary file in the target folder and renames it into place
(:func:`os.replace`), so a reader never sees half a file. :func:`staged_output` does the same for a
whole folder: a command writes everything into a staging folder beside ``--out``, and only when all
of it succeeded is ``--out`` replaced by the staging folder in one step (an atomic exchange of the
two folders on Linux, two renames elsewhere). Afterwards ``--out`` is either the old folder,
untouched, or the complete new output -- never a mixture:

- an existing ``--out`` written by graphpriv (it holds the marker file :data:`OUTPUT_MARKER`, and
  nothing that the marker does not list) is replaced whole, so no stale file of an earlier run survives
  beside the new one; any other non-empty folder -- including a graphpriv output into which the user
  has since put files of their own -- is refused unless ``overwrite=True`` (``--overwrite``);
- an ``--out`` that holds one of the command's inputs is refused, even with ``overwrite=True``:
  graphpriv never deletes what it reads;
- concurrent runs into one ``--out`` are serialised at the commit (a lock on the parent folder), each
  commit swapping in one whole output;
- a run that fails or is interrupted removes its staging folder; one killed outright (SIGKILL) leaves
  it behind, and the next run into the same parent folder removes it (its process is gone);
- symbolic links inside an old ``--out`` are never followed (the old folder is removed, not written
  into), and an ``--out`` that is itself a symbolic link is refused;
- files and folders get the permissions the process umask allows (``0666``/``0777`` less the umask),
  like any file the user creates.
"""

from __future__ import annotations

import contextlib
import errno
import json
import logging
import os
import shutil
import tempfile
import time
from pathlib import Path
from typing import Any, Iterator

from .errors import InputError

__all__ = [
    "OUTPUT_MARKER",
    "atomic_write",
    "write_text",
    "write_bytes",
    "staged_output",
    "current_umask",
]

logger = logging.getLogger(__name__)

#: Hidden file graphpriv writes into every output folder: what wrote it, and the files it holds.
OUTPUT_MARKER = ".graphpriv-output.json"
_STAGE_TAG = ".graphpriv-stage"
_TRASH_TAG = ".graphpriv-old"
#: How long a run waits for another run committing into the same parent folder (seconds).
LOCK_TIMEOUT = 120.0


def current_umask() -> int:
    """The process umask, read without changing it where the platform allows (Linux ``/proc``)."""
    with contextlib.suppress(OSError, ValueError):
        with open("/proc/self/status", encoding="ascii") as fh:
            for line in fh:
                if line.startswith("Umask:"):
                    return int(line.split()[1], 8)
    mask = os.umask(0o022)
    os.umask(mask)
    return mask


def _chmod_default(path: str | os.PathLike, folder: bool = False) -> None:
    os.chmod(path, (0o777 if folder else 0o666) & ~current_umask())


@contextlib.contextmanager
def atomic_write(path: str | os.PathLike, mode: str = "w", **kwargs) -> Iterator[Any]:
    """Open a temporary file next to ``path``; on success rename it to ``path`` (:func:`os.replace`).

    On an exception the temporary file is removed and ``path`` is untouched. The file gets the
    permissions the umask allows (``0666 & ~umask``), as :func:`open` would give it.

    Examples
    --------
    >>> import tempfile, os
    >>> from graphpriv.outputs import atomic_write
    >>> d = tempfile.mkdtemp()
    >>> with atomic_write(os.path.join(d, "a.txt")) as fh:
    ...     _ = fh.write("hello")
    >>> open(os.path.join(d, "a.txt")).read()
    'hello'
    """
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(prefix="." + path.name[:80] + ".", suffix=".tmp", dir=path.parent)
    try:
        with os.fdopen(fd, mode, **kwargs) as fh:
            yield fh
        _chmod_default(tmp)
        os.replace(tmp, path)
    except BaseException:
        with contextlib.suppress(OSError):
            os.unlink(tmp)
        raise


def write_text(path: str | os.PathLike, text: str) -> Path:
    """Write ``text`` (UTF-8) to ``path`` atomically; return the path."""
    with atomic_write(path, "w", encoding="utf-8", newline="\n") as fh:
        fh.write(text)
    return Path(path)


def write_bytes(path: str | os.PathLike, data: bytes) -> Path:
    """Write ``data`` to ``path`` atomically; return the path."""
    with atomic_write(path, "wb") as fh:
        fh.write(data)
    return Path(path)


# ---------------------------------------------------------------------- whole folders
def _check_out(out_dir) -> Path:
    if out_dir is None or not str(out_dir).strip():
        raise InputError("the output folder (--out) is empty; give a folder name, e.g. --out report")
    out = Path(out_dir)
    if out.is_symlink():
        raise InputError(f"output path {str(out)!r} is a symbolic link; give the real folder as --out "
                         "(graphpriv never writes through links)")
    if out.exists() and not out.is_dir():
        raise InputError(f"output path {str(out)!r} exists and is not a folder; choose another --out")
    if out.name in ("", ".", "..") or out.resolve() == out.resolve().parent:
        raise InputError(f"output path {str(out)!r} names no folder of its own; give a folder name, e.g. --out report")
    return out


def _foreign_entries(folder: Path) -> list[str] | None:
    """The files and folders in ``folder`` that graphpriv did not write, or None if it holds no marker.

    Only the marker file :data:`OUTPUT_MARKER` (``"written_by": "graphpriv"`` and the list of files the
    run wrote) makes a folder graphpriv's: a ``summary.json`` or ``README.md`` any tool could write does
    not. A file the marker does not list (the user's own data saved there later) is foreign.
    """
    marker = folder / OUTPUT_MARKER
    if not marker.is_file() or marker.is_symlink():
        return None
    try:
        doc = json.loads(marker.read_text(encoding="utf-8"))
    except (OSError, ValueError, UnicodeDecodeError):
        return None
    if not isinstance(doc, dict) or doc.get("written_by") != "graphpriv" or not isinstance(doc.get("files"), list):
        return None
    listed = {str(f) for f in doc["files"]} | {OUTPUT_MARKER}
    dirs = {str(Path(f).parent) for f in listed} | {"."}
    for f in list(dirs):
        dirs |= {str(p) for p in Path(f).parents}
    foreign = []
    for root, subdirs, names in os.walk(folder, followlinks=False):
        rel = Path(root).relative_to(folder)
        for d in subdirs:
            r = str(rel / d)
            if r not in dirs or (Path(root) / d).is_symlink():
                foreign.append(r)
        subdirs[:] = [d for d in subdirs if str(rel / d) in dirs and not (Path(root) / d).is_symlink()]
        foreign.extend(str(rel / n) for n in names if str(rel / n) not in listed)
    return sorted(foreign)


def _is_graphpriv_output(folder: Path) -> bool:
    return _foreign_entries(folder) == []


def input_paths(data) -> list[str]:
    """The files or folder a command's DATA argument names (a path, or the files a glob matches)."""
    import glob as _glob

    text = str(data)
    if os.path.lexists(text):
        return [text]
    if any(ch in text for ch in "*?["):
        return _glob.glob(text, recursive=True)
    return []


def _check_inputs_outside(out: Path, inputs) -> None:
    """Refuse an output folder that holds (or is) one of the command's inputs: replacing it would delete them."""
    o = out.resolve()
    for item in inputs or ():
        if item is None or not os.path.lexists(item):
            continue
        try:
            p = Path(item).resolve()
        except (OSError, RuntimeError, ValueError):
            continue
        if p == o or o in p.parents:
            raise InputError(f"--out {str(out)!r} holds the input {str(item)!r}; writing there would replace the "
                             "folder and delete the input. Choose another --out (graphpriv never deletes what it reads)")


def _check_replaceable(out: Path, overwrite: bool) -> None:
    if not out.is_dir() or overwrite:
        return
    try:
        entries = os.listdir(out)
    except OSError as exc:
        raise InputError(f"cannot read the output folder {str(out)!r} ({exc.strerror}); choose another --out") from None
    if not entries:
        return
    foreign = _foreign_entries(out)
    if foreign is None:
        raise InputError(f"output folder {str(out)!r} is not empty and was not written by graphpriv; choose a new "
                         "or empty --out, or pass --overwrite to replace it whole")
    if foreign:
        shown = ", ".join(repr(f) for f in foreign[:3]) + (f" and {len(foreign) - 3} more" if len(foreign) > 3 else "")
        raise InputError(f"output folder {str(out)!r} was written by graphpriv but now also holds {shown}, which "
                         "graphpriv did not write; move them out, choose another --out, or pass --overwrite to "
                         "replace the folder whole")


def _pid_alive(pid: int) -> bool:
    if pid <= 0:
        return False
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True
    return True


def _clean_leftovers(parent: Path, name: str) -> None:
    """Remove staging/old folders of ``name`` left by runs that were killed (their process is gone)."""
    prefix = f".{name}."
    try:
        entries = os.listdir(parent)
    except OSError:
        return
    for entry in entries:
        if not entry.startswith(prefix) or not (entry.endswith(_STAGE_TAG) or entry.endswith(_TRASH_TAG)):
            continue
        middle = entry[len(prefix):].split(".")
        pid = int(middle[0]) if middle and middle[0].isdigit() else -1
        if _pid_alive(pid):
            continue
        path = parent / entry
        if path.is_symlink() or not path.is_dir():
            continue
        if entry.endswith(_TRASH_TAG) and not (parent / name).exists():
            # killed between the two renames of the non-atomic commit: the old output comes back
            with contextlib.suppress(OSError):
                os.rename(path, parent / name)
                logger.warning("restored %s from an interrupted run", parent / name)
                continue
        shutil.rmtree(path, ignore_errors=True)
        logger.info("removed %s, left by an interrupted run", path)


@contextlib.contextmanager
def _parent_lock(parent: Path, out: Path, timeout: float = LOCK_TIMEOUT):
    """An exclusive ``flock`` on the parent folder (no lock file is left behind); a no-op where
    ``fcntl`` is unavailable."""
    try:
        import fcntl
    except ImportError:  # pragma: no cover - not POSIX
        yield
        return
    fd = os.open(parent, os.O_RDONLY)
    try:
        deadline = time.monotonic() + timeout
        waited = False
        while True:
            try:
                fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
                break
            except OSError as exc:
                if exc.errno not in (errno.EAGAIN, errno.EACCES, errno.EWOULDBLOCK):
                    raise
                if time.monotonic() > deadline:
                    raise InputError(f"another graphpriv run has been writing next to {str(out)!r} for over "
                                     f"{timeout:.0f} s; wait for it to finish or choose another --out") from None
                if not waited:
                    logger.info("waiting for another graphpriv run writing next to %s", out)
                    waited = True
                time.sleep(0.05)
        yield
    finally:
        os.close(fd)  # releases the lock


def _exchange(a: Path, b: Path) -> bool:
    """Atomically swap two existing paths (Linux ``renameat2(RENAME_EXCHANGE)``); False if unsupported."""
    try:
        import ctypes

        libc = ctypes.CDLL(None, use_errno=True)
        fn = libc.renameat2
    except (OSError, AttributeError):
        return False
    fn.argtypes = [ctypes.c_int, ctypes.c_char_p, ctypes.c_int, ctypes.c_char_p, ctypes.c_uint]
    fn.restype = ctypes.c_int
    at_fdcwd, rename_exchange = -100, 2
    if fn(at_fdcwd, os.fsencode(a), at_fdcwd, os.fsencode(b), rename_exchange) == 0:
        return True
    err = ctypes.get_errno()
    if err in (errno.ENOSYS, errno.EINVAL, errno.ENOTSUP, errno.EOPNOTSUPP):
        return False
    raise OSError(err, os.strerror(err), str(b))


def _commit(stage: Path, out: Path, overwrite: bool, inputs=()) -> None:
    parent = out.parent
    with _parent_lock(parent, out):
        if out.is_symlink() or (out.exists() and not out.is_dir()):
            raise InputError(f"output path {str(out)!r} changed into a link or file while graphpriv ran; "
                             "choose another --out")
        _check_inputs_outside(out, inputs)
        _check_replaceable(out, overwrite)
        if not out.exists():
            os.rename(stage, out)
            return
        if _exchange(stage, out):          # stage now holds the old output
            old = stage
        else:
            old = parent / f".{out.name}.{os.getpid()}.{os.urandom(4).hex()}{_TRASH_TAG}"
            os.rename(out, old)
            os.rename(stage, out)
    shutil.rmtree(old, ignore_errors=True)


@contextlib.contextmanager
def staged_output(out_dir: str | os.PathLike, *, overwrite: bool = False, command: str | None = None,
                  inputs=()) -> Iterator[Path]:
    """Collect a command's output files in a staging folder next to ``out_dir``; swap it in at the end.

    Yields the staging folder. When the block finishes without an exception, the marker file
    :data:`OUTPUT_MARKER` (command, file list) is added and ``out_dir`` becomes the staging folder in
    one step, replacing an earlier graphpriv output there whole. On an exception (including
    ``KeyboardInterrupt`` and the CLI's SIGTERM) the staging folder is deleted and ``out_dir`` is left
    as it was. See the module docstring for the rules (locks, leftovers, links, permissions).

    Parameters
    ----------
    out_dir : path
        The output folder. Must not be empty, a symbolic link or a file.
    overwrite : bool
        Replace ``out_dir`` even when it is a non-empty folder that graphpriv did not write.
    command : str, optional
        Recorded in the marker file.
    inputs : iterable of paths, optional
        The files and folders the command reads. An ``out_dir`` that is or holds one of them is
        refused, whatever ``overwrite`` says.

    Raises
    ------
    InputError
        ``out_dir`` is empty, a link, a file, not writable, holds an input, or is a non-empty folder
        with files graphpriv did not write (without ``overwrite``).

    Examples
    --------
    >>> import tempfile, os
    >>> from graphpriv.outputs import staged_output, write_text
    >>> target = os.path.join(tempfile.mkdtemp(), "out")
    >>> with staged_output(target) as tmp:
    ...     _ = write_text(tmp / "report.md", "# hi")
    >>> sorted(os.listdir(target))
    ['.graphpriv-output.json', 'report.md']
    """
    out = _check_out(out_dir)
    _check_inputs_outside(out, inputs)
    _check_replaceable(out, overwrite)
    parent = out.absolute().parent
    out = parent / out.name
    created = []                      # parent folders made here, removed again on failure
    p = parent
    while not p.exists():
        created.append(p)
        p = p.parent
    try:
        parent.mkdir(parents=True, exist_ok=True)
        for folder in reversed(created):
            _chmod_default(folder, folder=True)
        _clean_leftovers(parent, out.name)
    except OSError as exc:
        _remove_empty(created)
        raise InputError(f"cannot create the output folder {str(out)!r} ({exc.strerror}); choose a writable --out") from None
    ok = False
    # named before it exists and made inside the try: an interrupt at any point still removes it
    stage = parent / f".{out.name}.{os.getpid()}.{os.urandom(6).hex()}{_STAGE_TAG}"
    try:
        try:
            os.mkdir(stage, 0o700)
        except OSError as exc:
            raise InputError(f"cannot create the output folder {str(out)!r} ({exc.strerror}); choose a writable --out") from None
        yield stage
        files = sorted(str(f.relative_to(stage)) for f in stage.rglob("*") if f.is_file())
        from . import __version__

        marker = {"written_by": "graphpriv", "graphpriv_version": __version__, "command": command,
                  "files": files}
        write_text(stage / OUTPUT_MARKER, json.dumps(marker, indent=1, ensure_ascii=False) + "\n")
        for f in [stage, *stage.rglob("*")]:   # whatever wrote them (mkstemp gives 0600), honour the umask
            if not f.is_symlink():
                _chmod_default(f, folder=f.is_dir())
        _commit(stage, out, overwrite, inputs)
        ok = True
    finally:
        if stage.exists() and not ok:
            shutil.rmtree(stage, ignore_errors=True)
        if not ok:
            _remove_empty(created)


def _remove_empty(folders: list[Path]) -> None:
    for f in folders:                 # deepest first
        with contextlib.suppress(OSError):
            f.rmdir()
