"""What a data source is: one CSV or Parquet file, a folder or glob of them, or a pyarrow Dataset.

:func:`resolve_source` turns the user's argument into a :class:`Source` (a list of files of one
format, or a pyarrow Dataset) and says clearly what is wrong when it cannot: a path that does not
exist, a glob that matches nothing, a folder without data files, files of mixed formats.

A folder (or glob) written with Hive-style partitioning (``pyarrow.parquet.write_to_dataset(...,
partition_cols=["s"])``, dask's ``to_parquet(partition_on=...)``, Spark) keeps a column in its folder
names, ``root/s=3/part-0.parquet``, and not in the files. :attr:`Source.partitions` holds, per file,
those ``key=value`` pairs (URI-decoded; ``__HIVE_DEFAULT_PARTITION__`` is a missing value), so the
readers can give the key as a column of every row of its files.
"""

from __future__ import annotations

import glob as _glob
import os
import re
from urllib.parse import unquote
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from ..errors import InputError
from .labels import _CANONICAL_INT as _CANONICAL_INT_TEXT

__all__ = ["DEFAULT_NA_VALUES", "BUILTIN_DATASETS", "HIVE_NULL", "Source", "resolve_source", "table_format", "one_line",
           "hive_type", "glob_base"]

#: Tokens read as missing values (pyarrow's defaults, the empty field and the UCI ``?``).
DEFAULT_NA_VALUES: tuple[str, ...] = (
    "", "#N/A", "#N/A N/A", "#NA", "-1.#IND", "-1.#QNAN", "-NaN", "-nan", "1.#IND", "1.#QNAN",
    "N/A", "NA", "NULL", "NaN", "n/a", "nan", "null", "?",
)

#: Names accepted in place of a file path: bundled tables.
BUILTIN_DATASETS = ("hungarian",)

PARQUET_SUFFIXES = (".parquet", ".pq", ".parq")
CSV_SUFFIXES = (".csv", ".tsv", ".tab", ".txt")
_COMPRESSED = (".gz", ".bz2", ".xz")

#: Folder value of a missing partition key (Hive, Spark and pyarrow write it for nulls).
HIVE_NULL = "__HIVE_DEFAULT_PARTITION__"
_HIVE_PART = re.compile(r"^([^=]+)=(.*)$")
_CANONICAL_INT = re.compile(_CANONICAL_INT_TEXT)


def one_line(msg: Any, limit: int = 200) -> str:
    """``msg`` on one line, at most ``limit`` characters."""
    msg = " ".join(str(msg).split())
    return msg if len(msg) <= limit else msg[: limit - 3] + "..."


def table_format(path: str | os.PathLike) -> str:
    """``"parquet"`` for ``.parquet``/``.pq``/``.parq`` files, ``"builtin"`` for a bundled dataset
    name (see :data:`BUILTIN_DATASETS`) that is not an existing file, else ``"csv"``. A folder or a
    glob has the format of the files it holds.

    Examples
    --------
    >>> from graphpriv.ingest import table_format
    >>> table_format("data.parquet"), table_format("data.csv.gz"), table_format("hungarian")
    ('parquet', 'csv', 'builtin')
    """
    p = Path(path)
    if str(path) in BUILTIN_DATASETS and not p.exists():
        return "builtin"
    if p.is_dir() or _is_glob(str(path)):
        try:
            return resolve_source(path).format
        except InputError:
            return "csv"
    return _file_format(p)


def _file_format(p: Path) -> str:
    name = p.name.lower()
    for c in _COMPRESSED:
        if name.endswith(c):
            name = name[: -len(c)]
    return "parquet" if name.endswith(PARQUET_SUFFIXES) else "csv"


def _is_data_file(p: Path) -> bool:
    name = p.name.lower()
    for c in _COMPRESSED:
        if name.endswith(c):
            name = name[: -len(c)]
    return not p.name.startswith((".", "_")) and name.endswith(PARQUET_SUFFIXES + CSV_SUFFIXES)


def _is_glob(text: str) -> bool:
    return any(ch in text for ch in "*?[") and not Path(text).exists()


@dataclass(frozen=True)
class Source:
    """A resolved data source: ``files`` (sorted) of one ``format``, or a pyarrow ``dataset``.

    ``base`` is the folder the files were found below (the folder, or a glob's leading folders; None
    for one file) and ``partitions`` holds, per file, its Hive partition keys and values (``((key,
    value or None), ...)``, the same keys in every file; empty when the folder names hold none)."""

    description: str
    format: str                                  # "csv" | "parquet" | "dataset"
    files: tuple[Path, ...] = ()
    dataset: Any = field(default=None, compare=False)
    base: Path | None = None
    partitions: tuple[tuple[tuple[str, str | None], ...], ...] = ()

    @property
    def n_bytes(self) -> int:
        return sum(f.stat().st_size for f in self.files)

    @property
    def partition_keys(self) -> tuple[str, ...]:
        """The Hive partition keys of the files (column names held in folder names)."""
        return tuple(k for k, _ in self.partitions[0]) if self.partitions else ()

    def partition_values(self, key: str) -> list[str | None]:
        """The value text of partition ``key`` for every file (None: missing)."""
        i = self.partition_keys.index(key)
        return [p[i][1] for p in self.partitions]

    def file(self, i: int) -> "Source":
        """The ``i``-th file alone, with its partition values (what one worker reads)."""
        return Source(description=str(self.files[i]), format=self.format, files=(self.files[i],), base=self.base,
                      partitions=self.partitions[i:i + 1])


def hive_type(values) -> str:
    """The arrow type name of a partition key whose folder values are ``values`` (None: missing):
    ``"int64"`` when every value is a canonical decimal integer (``7``, ``-12``; not ``007``), else
    ``"string"``: the folder text as written, so ``s=007``, ``s=7`` and ``s=7.0`` are three symbols, as
    the same texts in a CSV field are (:mod:`graphpriv.ingest.labels`; numbers only with ``numbers=``).
    The integers are the labels the texts themselves would get (``str(label)`` is the folder text)."""
    present = [v for v in values if v is not None]
    if present and all(_CANONICAL_INT.match(v) for v in present):
        return "int64"
    return "string"


def glob_base(pattern: str) -> Path:
    """The leading folders of ``pattern`` before the first part with a wildcard."""
    parts = Path(pattern).parts
    keep = []
    for p in parts[:-1]:
        if any(ch in p for ch in "*?["):
            break
        keep.append(p)
    return Path(*keep) if keep else Path(".")


def _hive_partitions(files, base: Path):
    """Per file, the ``key=value`` folder names between ``base`` and the file (keys every file has, in
    the first file's order); () when some file has none."""
    per = []
    for f in files:
        try:
            rel = Path(os.path.relpath(f, base)).parts[:-1]
        except ValueError:                       # another drive (Windows)
            return ()
        found = {}
        for part in rel:
            m = _HIVE_PART.match(part)
            if m and m.group(1) not in found:
                v = unquote(m.group(2))
                found[unquote(m.group(1))] = None if v in ("", HIVE_NULL) else v
        per.append(found)
    if not per or not per[0]:
        return ()
    keys = [k for k in per[0] if all(k in d for d in per)]
    return tuple(tuple((k, d[k]) for k in keys) for d in per) if keys else ()


def _file_kind(p: Path) -> str:
    """What the existing path ``p`` is when it is neither a regular file nor a folder."""
    import stat

    mode = os.stat(p).st_mode
    if stat.S_ISFIFO(mode):
        return "a named pipe (FIFO)"
    if stat.S_ISCHR(mode):
        return "a character device" + (" (the empty device)" if os.path.realpath(p) == os.devnull else "")
    if stat.S_ISBLK(mode):
        return "a block device"
    if stat.S_ISSOCK(mode):
        return "a socket"
    return "not a file or a folder"


def _glob_files(pattern: str) -> list[Path]:
    """The paths matching ``pattern`` (:func:`glob.glob` rules: ``*``, ``?`` and ``[...]`` within a name,
    names starting with ``.`` only when the pattern's part does). A ``**`` part matches zero or more
    folders and does not enter folders that are symbolic links, as a folder argument does not, so a link
    to a parent folder cannot make the search endless; parts without ``**`` follow links as usual."""
    from fnmatch import fnmatchcase

    parts = Path(pattern).parts
    if "**" not in parts:
        return [Path(f) for f in _glob.glob(pattern)]
    i = parts.index("**")
    heads = [Path(f) for f in _glob.glob(str(Path(*parts[:i])))] if i else [Path(".")]
    rest = parts[i + 1:]
    out = []

    def visible(name: str, pat: str) -> bool:
        return not name.startswith(".") or pat.startswith(".")

    def match(names: tuple[str, ...], pats: tuple[str, ...]) -> bool:
        if not pats:
            return not names
        if pats[0] == "**":
            return any(match(names[k:], pats[1:]) for k in range(len(names) + 1)
                       if all(not n.startswith(".") for n in names[:k]))
        return bool(names) and visible(names[0], pats[0]) and fnmatchcase(names[0], pats[0]) and match(names[1:], pats[1:])

    for head in heads:
        if not head.is_dir():
            continue
        for folder, dirs, names in os.walk(head, followlinks=False):
            dirs.sort()
            rel = Path(os.path.relpath(folder, head)).parts
            rel = () if rel == (".",) else rel
            for name in names:
                if match(rel + (name,), ("**",) + rest):
                    out.append((head / Path(*rel, name)) if i else Path(*rel, name))
    return out


def resolve_source(source: Any) -> Source:
    """The files (or the pyarrow Dataset) behind ``source``.

    ``source`` is a path to a CSV or Parquet file, a folder (every ``.csv``/``.tsv``/``.parquet``
    file below it, recursively, in sorted order, skipping hidden and ``_``-prefixed files such as
    ``_SUCCESS``), a glob pattern (``"data/part-*.parquet"``, ``"**"`` recurses; like a folder, it does
    not enter folders that are symbolic links, so a link to a parent folder cannot loop) or a
    ``pyarrow.dataset.Dataset``. Folder names ``key=value`` below the folder (or below a glob's
    leading folders) are Hive partition keys (:attr:`Source.partitions`).

    Raises
    ------
    InputError
        The path does not exist or is not a regular file (a device, a named pipe), the glob matches no
        file, a folder holds no data file, or the files mix CSV and Parquet.
    """
    try:
        import pyarrow.dataset as pads
    except ImportError:  # pragma: no cover - pyarrow is a core dependency
        pads = None
    if isinstance(source, Source):
        return source
    if pads is not None and isinstance(source, pads.Dataset):
        return Source(description=f"pyarrow {type(source).__name__}", format="dataset", dataset=source)
    if not isinstance(source, (str, os.PathLike)):
        raise InputError(f"a data source must be a path, a folder, a glob or a pyarrow Dataset, got {type(source).__name__}")
    text = os.fspath(source)
    if not text:
        raise InputError("the data path is empty; give a CSV or Parquet file, a folder or a glob")
    p = Path(text)
    if p.is_file():
        if p.stat().st_size == 0:
            raise InputError(f"data file {text!r} is empty; it needs a header line and at least one data row")
        return Source(description=text, format=_file_format(p), files=(p,))
    if p.is_dir():
        base = p
        files = sorted(f for f in p.rglob("*") if f.is_file() and _is_data_file(f)
                       and not any(part.startswith((".", "_")) for part in f.relative_to(p).parts[:-1]))
        if not files:
            raise InputError(f"data path {text!r} is a folder with no CSV or Parquet file in it (.csv, .tsv, .parquet, "
                             ".pq); give a file, or a folder of data files")
    elif _is_glob(text):
        base = glob_base(text)
        files = sorted(f for f in _glob_files(text) if f.is_file())
        if not files:
            raise InputError(f"the pattern {text!r} matches no file; check the path and the quoting of the pattern")
    elif os.path.exists(text):
        raise InputError(f"data path {text!r} is {_file_kind(p)}, not a regular file; save the data to a CSV or Parquet "
                         "file and give its path")
    else:
        raise InputError(f"data file {text!r} does not exist; check the path (bundled data: {', '.join(BUILTIN_DATASETS)})")
    formats = {_file_format(f) for f in files}
    if len(formats) > 1:
        ex = {fmt: next(str(f) for f in files if _file_format(f) == fmt) for fmt in sorted(formats)}
        raise InputError(f"{text!r} mixes CSV and Parquet files (e.g. {ex['csv']!r} and {ex['parquet']!r}); "
                         "give a folder or pattern of one format")
    files = [f for f in files if f.stat().st_size > 0] or files
    return Source(description=text, format=formats.pop(), files=tuple(files), base=base,
                  partitions=_hive_partitions(files, base))
