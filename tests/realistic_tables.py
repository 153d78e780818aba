"""Seeded public-looking tables of realistic size and shape, for end-to-end runs of the command line and
the views (``graphpriv analyze`` / ``graphpriv sanitize`` and every view on their trace).

Each builder returns a :class:`Table` (path of what it wrote, the sensitive and public column names and
what the public column holds) and writes a CSV or a Parquet file/folder into the given folder:

- :func:`measurement_table`: a laboratory-like measurement (~600 distinct floats of mixed precision:
  ``10.3`` next to ``11.84267``) against a diagnosis of ~30 classes; each value is seen with 1-3
  diagnoses of one of four overlapping diagnosis groups, so the confusability graph G_X has a few
  components;
- :func:`places_table`: ~2,700 place names (5-40 characters: spaces, commas, hyphens, accents,
  apostrophes) against their region (7 regions, one per place: 7 components of G_X);
- :func:`parquet_folder`: a Hive-partitioned Parquet folder (``year=.../part-k.parquet``) with 5,000
  integer public values (postcode-like) against a 12-class sensitive column;
- :func:`wide_table`: 10,000 public values, numeric (``kind="numeric"``) or text (``kind="text"``).

Everything is determined by the seed; no file is shipped with the tests.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

import numpy as np
import pandas as pd

__all__ = ["Table", "measurement_table", "places_table", "parquet_folder", "wide_table", "place_names"]


@dataclass(frozen=True)
class Table:
    """A written table: ``path`` (file or folder), sensitive column ``s``, public column ``x``, number
    of distinct public values ``n_public``, ``numeric`` when the public values are numbers and the
    number of rows ``n_rows``."""

    path: Path
    s: str
    x: str
    n_public: int
    numeric: bool
    n_rows: int


def _write(df: pd.DataFrame, path: Path) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    if path.suffix == ".parquet":
        df.to_parquet(path, index=False)
    else:
        df.to_csv(path, index=False)
    return path


def _grouped_rows(rng, n_public: int, classes: list[str], n_groups: int, max_per_value: int = 3,
                  bridges: int = 0) -> list[list[str]]:
    """For each public value, the sensitive classes it is seen with: 1..max_per_value classes of one of
    ``n_groups`` groups of ``classes``; ``bridges`` values also take one class of the next group (so
    some groups join into one component)."""
    groups = np.array_split(np.arange(len(classes)), n_groups)
    out = []
    for j in range(n_public):
        g = int(rng.integers(0, n_groups))
        k = int(rng.integers(1, min(max_per_value, len(groups[g])) + 1))
        chosen = list(rng.choice(groups[g], size=k, replace=False))
        out.append([classes[c] for c in chosen])
    for j in rng.choice(n_public, size=bridges, replace=False):
        g = next(i for i, grp in enumerate(groups) if classes.index(out[j][0]) in grp)
        out[j].append(classes[int(groups[(g + 1) % n_groups][0])])
    return out


def _mixed_precision(rng, n: int, lo: float = 2.0, hi: float = 60.0) -> list[float]:
    """``n`` distinct floats in [lo, hi]: most with 1 or 2 decimals, some with 3-5 (instrument exports)."""
    seen: set[float] = set()
    out: list[float] = []
    while len(out) < n:
        v = float(np.clip(rng.lognormal(np.log(14.0), 0.45), lo, hi))
        digits = int(rng.choice([1, 1, 1, 2, 2, 3, 5]))
        v = round(v, digits)
        if v not in seen:
            seen.add(v)
            out.append(v)
    return out


def measurement_table(folder, *, n_public: int = 600, n_classes: int = 30, seed: int = 3,
                      fmt: str = "csv") -> Table:
    """~``n_public`` distinct measurement values against ``n_classes`` diagnoses (four groups, two of
    them bridged: three components), with an id, a sex and a date column; CSV or Parquet (``fmt``)."""
    rng = np.random.default_rng(seed)
    values = _mixed_precision(rng, n_public)
    diagnoses = [f"{c}{i:02d}" for c, i in zip("ABCDEFGHIJKLMNOPQRSTUVWXYZ" * 2, range(n_classes))]
    diagnoses = [f"ICD-{d[0]}{d[1:]}.{i % 7}" for i, d in enumerate(diagnoses)]
    seen_with = _grouped_rows(rng, n_public, diagnoses, n_groups=4, bridges=1)
    rows = []
    for v, ss in zip(values, seen_with):
        for s in ss:
            for _ in range(int(rng.integers(1, 4))):
                rows.append((s, v))
    order = rng.permutation(len(rows))
    df = pd.DataFrame({
        "patient_id": [f"P{100000 + i}" for i in range(len(rows))],
        "sex": rng.choice(["F", "M"], size=len(rows)),
        "diagnosis": [rows[i][0] for i in order],
        "ferritin": [rows[i][1] for i in order],
        "visit": pd.Timestamp("2021-01-01") + pd.to_timedelta(rng.integers(0, 900, size=len(rows)), unit="D"),
    })
    df["visit"] = df["visit"].dt.strftime("%Y-%m-%d")
    path = _write(df, Path(folder) / f"measurements.{fmt}")
    return Table(path, "diagnosis", "ferritin", n_public, True, len(df))


_PREFIX = ["", "", "", "", "Saint-", "Sainte-", "San ", "Santa ", "Le ", "La ", "L'", "Les ", "Bad ", "Villa ",
           "Nueva ", "Port ", "Mont-", "Val-d'", "Ó ", "Castel ", "New ", "Little ", "Upper ", "Ville-"]
_SYLL = ["ar", "bel", "cha", "dö", "en", "fa", "gou", "hé", "ir", "jo", "ka", "lé", "mar", "nö", "ol", "pé",
         "qu", "ro", "sé", "tur", "ü", "va", "wil", "xan", "yo", "zé", "bra", "cré", "dun", "flo", "gra", "hal",
         "ñan", "ç", "mont", "vill", "berg", "dorf", "ham", "ton", "ley", "ière", "ais", "ac", "ó", "ås", "øy"]
_SUFFIX = ["", "", "", "", "", "-sur-Mer", "-en-Provence", " de la Côte", " del Río", "-les-Bains", " am See",
           "-le-Château", " d'Ambrières", " upon Tyne", ", Nord", ", Sud", " Heights", " Saint-Pierre",
           "-aux-Bois", " de l'Étang", "-Ville", " Östra", " Vieux-Bourg"]


def place_names(n: int, seed: int = 11) -> list[str]:
    """``n`` distinct realistic place names of 5-40 characters (spaces, commas, hyphens, accents, apostrophes)."""
    rng = np.random.default_rng(seed)
    seen: set[str] = set()
    out: list[str] = []
    while len(out) < n:
        root = "".join(rng.choice(_SYLL, size=int(rng.integers(2, 5))))
        name = f"{rng.choice(_PREFIX)}{root.capitalize()}{rng.choice(_SUFFIX)}".strip()
        if 5 <= len(name) <= 40 and name not in seen:
            seen.add(name)
            out.append(name)
    return out


REGIONS = ["Auvergne-Rhône-Alpes", "Bourgogne-Franche-Comté", "Bretagne", "Centre-Val de Loire",
           "Grand Est", "Hauts-de-France", "Provence-Alpes-Côte d'Azur"]


def places_table(folder, *, n_public: int = 2700, seed: int = 11, fmt: str = "csv") -> Table:
    """``n_public`` place names, each in one of 7 regions (sensitive), 1-4 rows per place (events with a
    date and a count): the confusability graph has exactly 7 components, one clique per region."""
    rng = np.random.default_rng(seed)
    names = place_names(n_public, seed)
    region = rng.choice(len(REGIONS), size=n_public, p=[0.22, 0.17, 0.15, 0.14, 0.12, 0.11, 0.09])
    region[: len(REGIONS)] = np.arange(len(REGIONS))  # every region present
    reps = rng.integers(1, 5, size=n_public)
    idx = np.repeat(np.arange(n_public), reps)
    idx = idx[rng.permutation(len(idx))]
    df = pd.DataFrame({
        "event_id": np.arange(len(idx)) + 1,
        "place": [names[i] for i in idx],
        "region": [REGIONS[region[i]] for i in idx],
        "count": rng.poisson(12, size=len(idx)),
    })
    path = _write(df, Path(folder) / f"places.{fmt}")
    return Table(path, "region", "place", n_public, False, len(df))


def parquet_folder(folder, *, n_public: int = 5000, n_classes: int = 12, seed: int = 5,
                   years=(2019, 2020, 2021), files_per_year: int = 2) -> Table:
    """A Hive-partitioned Parquet folder ``folder/postcodes/year=Y/part-k.parquet`` with ``n_public``
    distinct integer postcodes (int64) against ``n_classes`` occupations (four groups: four components,
    one bridged), split over years and files."""
    rng = np.random.default_rng(seed)
    codes = np.sort(rng.choice(np.arange(10000, 99999), size=n_public, replace=False))
    classes = [f"occupation {c}" for c in ["clerk", "nurse", "farmer", "teacher", "driver", "engineer", "cook",
                                           "cleaner", "lawyer", "welder", "artist", "miner"][:n_classes]]
    seen_with = _grouped_rows(rng, n_public, classes, n_groups=4, bridges=1)
    xs, ss = [], []
    for c, group in zip(codes, seen_with):
        for s in group:
            xs += [int(c)] * int(rng.integers(1, 3))
            ss += [s] * (len(xs) - len(ss))
    order = rng.permutation(len(xs))
    df = pd.DataFrame({"postcode": np.asarray(xs, dtype="int64")[order], "occupation": np.asarray(ss)[order],
                       "income": rng.integers(900, 9000, size=len(xs))})
    root = Path(folder) / "postcodes"
    parts = np.array_split(np.arange(len(df)), len(years) * files_per_year)
    for k, rows in enumerate(parts):
        year = years[k // files_per_year]
        _write(df.iloc[rows], root / f"year={year}" / f"part-{k % files_per_year}.parquet")
    return Table(root, "occupation", "postcode", n_public, True, len(df))


def wide_table(folder, *, kind: str = "numeric", n_public: int = 10_000, seed: int = 17, fmt: str = "csv") -> Table:
    """``n_public`` public values (``kind="numeric"``: mixed-precision floats; ``"text"``: place names)
    against 40 sensitive classes in 8 groups (a few bridged), one or two rows per pair."""
    rng = np.random.default_rng(seed)
    if kind == "numeric":
        values: list = _mixed_precision(rng, n_public, lo=0.5, hi=400.0)
    elif kind == "text":
        values = place_names(n_public, seed)
    else:
        raise ValueError(f"kind must be 'numeric' or 'text', not {kind!r}")
    classes = [f"class {i:02d}" for i in range(40)]
    seen_with = _grouped_rows(rng, n_public, classes, n_groups=8, bridges=3)
    xs, ss = [], []
    for v, group in zip(values, seen_with):
        for s in group:
            k = int(rng.integers(1, 3))
            xs += [v] * k
            ss += [s] * k
    order = rng.permutation(len(xs))
    df = pd.DataFrame({"s": np.asarray(ss)[order], "x": np.asarray(xs, dtype=object)[order]})
    path = _write(df, Path(folder) / f"wide_{kind}.{fmt}")
    return Table(path, "s", "x", n_public, kind == "numeric", len(df))


if __name__ == "__main__":  # python tests/realistic_tables.py OUT: write every table (CSV and Parquet)
    import sys

    out = Path(sys.argv[1] if len(sys.argv) > 1 else "realistic_tables")
    for t in [measurement_table(out), measurement_table(out, fmt="parquet"), places_table(out),
              places_table(out, fmt="parquet"), parquet_folder(out), wide_table(out, kind="numeric"),
              wide_table(out, kind="text"), wide_table(out, kind="numeric", fmt="parquet")]:
        print(f"{t.path}\t-s {t.s} -x {t.x}\t{t.n_public} public values, {t.n_rows} rows")
