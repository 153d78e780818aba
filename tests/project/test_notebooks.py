"""Execute every notebook in ``notebooks/`` with small parameters (issue 4).

Each notebook runs top to bottom in a fresh kernel with ``GRAPHPRIV_QUICK=1`` (notebooks read it and shrink
their parameters) and ``MPLBACKEND=Agg``, from a temporary working directory, under a per-notebook timeout.
Committed notebooks must carry no outputs (they are kept small and diff-friendly).
"""

from __future__ import annotations

import os
from pathlib import Path

import pytest

nbformat = pytest.importorskip("nbformat")
nbclient = pytest.importorskip("nbclient")

NOTEBOOK_DIR = Path(__file__).resolve().parents[2] / "notebooks"
NOTEBOOKS = sorted(NOTEBOOK_DIR.glob("*.ipynb"))
#: Seconds allowed per notebook (whole run) and per cell.
NOTEBOOK_TIMEOUT = 240
CELL_TIMEOUT = 180


def test_notebooks_exist():
    names = {p.name for p in NOTEBOOKS}
    assert {"01_guided_tour.ipynb", "02_hungarian.ipynb", "03_random_ranges.ipynb"} <= names


@pytest.mark.parametrize("path", NOTEBOOKS, ids=[p.name for p in NOTEBOOKS])
def test_notebook_committed_without_outputs(path):
    nb = nbformat.read(path, as_version=4)
    nbformat.validate(nb)
    for cell in nb.cells:
        if cell.cell_type == "code":
            assert not cell.get("outputs"), f"{path.name}: a code cell was committed with outputs; clear them"
            assert cell.get("execution_count") is None, f"{path.name}: execution counts committed; clear outputs"
    assert path.stat().st_size < 200_000, f"{path.name} is bulky ({path.stat().st_size} bytes)"


@pytest.mark.parametrize("path", NOTEBOOKS, ids=[p.name for p in NOTEBOOKS])
def test_notebook_executes(path, tmp_path, monkeypatch):
    monkeypatch.setenv("GRAPHPRIV_QUICK", "1")
    monkeypatch.setenv("MPLBACKEND", "Agg")
    monkeypatch.setenv("PYTHONWARNINGS", "ignore")
    nb = nbformat.read(path, as_version=4)
    client = nbclient.NotebookClient(nb, timeout=CELL_TIMEOUT, kernel_name="python3",
                                     resources={"metadata": {"path": str(tmp_path)}})
    import signal

    def _too_slow(signum, frame):  # pragma: no cover - only on a hung kernel
        raise TimeoutError(f"{path.name} ran longer than {NOTEBOOK_TIMEOUT} s")

    old = signal.signal(signal.SIGALRM, _too_slow)
    signal.alarm(NOTEBOOK_TIMEOUT)
    try:
        client.execute()
    finally:
        signal.alarm(0)
        signal.signal(signal.SIGALRM, old)
    errors = [o for c in nb.cells if c.cell_type == "code" for o in c.get("outputs", []) if o.get("output_type") == "error"]
    assert not errors
    n_code = sum(c.cell_type == "code" for c in nb.cells)
    assert n_code and all(c.get("execution_count") for c in nb.cells if c.cell_type == "code")
    assert not list(Path(NOTEBOOK_DIR).glob("*.gif")), "a notebook wrote into notebooks/"
