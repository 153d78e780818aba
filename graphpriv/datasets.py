"""Bundled datasets: the UCI Hungarian heart-disease table and paper 003's Fig. 1 example.

The Hungarian data (CC BY 4.0) ships inside the package (``graphpriv/data``, see ``CITATION.md`` there):
Janosi, Steinbrunn, Pfisterer & Detrano (1989), *Heart Disease*, UCI Machine Learning Repository,
https://doi.org/10.24432/C52P4X. Nothing is read from the network or from outside the package.
"""

from __future__ import annotations

from importlib import resources

import pandas as pd

from .errors import InputError
from .ranges import JointRange
from .citations import record_use

__all__ = ["load_hungarian", "hungarian_range", "paper_example", "PAPER_EXAMPLE_VALUES", "CITATION"]

CITATION = (
    "Janosi, A., Steinbrunn, W., Pfisterer, M., & Detrano, R. (1989). Heart Disease [Dataset]. "
    "UCI Machine Learning Repository. https://doi.org/10.24432/C52P4X (CC BY 4.0)"
)

HUNGARIAN_COLUMNS = [
    "age", "sex", "cp", "trestbps", "chol", "fbs", "restecg", "thalach", "exang", "oldpeak", "slope", "ca", "thal", "num",
]


def load_hungarian(*, drop_duplicates: bool = False) -> pd.DataFrame:
    """The UCI Hungarian heart-disease table (294 patients, 14 named columns, missing values as NaN).

    Parameters
    ----------
    drop_duplicates : bool, default False
        Drop the one exact duplicate record (``49,0,2,110,?,...``), which gives paper 003's 293 patients.

    Returns
    -------
    pandas.DataFrame
        Columns ``age, sex, cp, trestbps, chol, fbs, restecg, thalach, exang, oldpeak, slope, ca, thal, num``
        (float where the column has missing values). The source file marks missing values with ``?``.

    Notes
    -----
    Paper 003 (Section VII-B) uses S = age and X = serum cholesterol. Dropping the exact duplicate and
    keeping missing cholesterol as a value of its own (``missing="keep"``) gives its 293 patients,
    38 ages, 154 cholesterol values and 281 distinct (age, chol) pairs, 269 of them seen once.

    Examples
    --------
    >>> import graphpriv as gp
    >>> df = gp.datasets.load_hungarian(drop_duplicates=True)
    >>> jr = gp.JointRange.from_dataframe(df, sensitive="age", public="chol", missing="keep")
    >>> len(df), jr.n_sensitive, jr.n_public, jr.n_pairs, jr.n_singleton_pairs
    (293, 38, 154, 281, 269)
    """
    record_use("hungarian")  # for gp.cite()
    with resources.files("graphpriv.data").joinpath("processed.hungarian.data").open("r") as fh:
        df = pd.read_csv(fh, header=None, names=HUNGARIAN_COLUMNS, na_values=["?"])
    if drop_duplicates:
        df = df.drop_duplicates().reset_index(drop=True)
    return df


def hungarian_range(*, missing: str = "keep", sensitive: str = "age", public: str = "chol") -> JointRange:
    """Paper 003's Hungarian joint range: S = age, X = cholesterol, exact duplicate dropped."""
    return JointRange.from_dataframe(load_hungarian(drop_duplicates=True), sensitive=sensitive, public=public, missing=missing)


#: Public values of paper 003, eq. (4) (Example 2). Example 4 resets x7 to 4.
PAPER_EXAMPLE_VALUES = {"x1": 0.2, "x2": 0.1, "x3": 0.4, "x4": 0.3, "x5": 0.6, "x6": 1.5, "x7": 1.0}

_FIG1 = {
    "x1": ("s1", "s2"),
    "x2": ("s2",),
    "x3": ("s3",),
    "x4": ("s3",),
    "x5": ("s4",),
    "x6": ("s5",),
    "x7": ("s6",),
}


def paper_example(example: int | None = None) -> tuple[JointRange, dict]:
    """The Fig. 1 joint range of paper 003 and the public values of eq. (4).

    Returns ``(jr, values)``: S = {s1..s6}, X = {x1..x7} with
    S|x1={s1,s2}, S|x2={s2}, S|x3={s3}, S|x4={s3}, S|x5={s4}, S|x6={s5}, S|x7={s6}
    (reconstructed from the paper's text; the s-labels of x2, x6, x7 are not pinned by it and no
    number depends on them), and ``values`` = eq. (4). ``example=4`` returns x7 = 4 as in Example 4.

    Examples
    --------
    >>> import graphpriv as gp
    >>> jr, values = gp.datasets.paper_example()
    >>> jr, values["x7"], gp.datasets.paper_example(4)[1]["x7"]
    (JointRange(|S|=6, |X|=7, pairs=8), 1.0, 4.0)
    """
    if example not in (None, 2, 3, 4, 5):
        raise InputError(f"example must be None or one of 2, 3, 4, 5 (paper 003), got {example!r}")
    sens, pub = [], []
    for x, ss in _FIG1.items():
        for s in ss:
            sens.append(s)
            pub.append(x)
    jr = JointRange.from_pairs(sens, pub)
    values = dict(PAPER_EXAMPLE_VALUES)
    if example == 4:
        values["x7"] = 4.0
    return jr, values
