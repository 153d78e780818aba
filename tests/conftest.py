import os
import sys
from pathlib import Path

os.environ.setdefault("MPLBACKEND", "Agg")

# The suite's folders mirror the package (tests/viz, tests/release, ...); test modules share helpers by
# module name (``from test_cli_analyze import run_cli``, ``import reference_agglomerative``), so every
# folder of the suite is importable whichever file pytest collects first.
_TESTS = Path(__file__).resolve().parent
for _d in [_TESTS, *sorted(p for p in _TESTS.rglob("*") if p.is_dir() and p.name not in ("data", "__pycache__"))]:
    if str(_d) not in sys.path:
        sys.path.insert(0, str(_d))

import matplotlib  # noqa: E402

matplotlib.use("Agg")

from hypothesis import HealthCheck, settings  # noqa: E402

settings.register_profile("default", deadline=None, max_examples=60, suppress_health_check=[HealthCheck.too_slow])
settings.register_profile("ci", deadline=None, max_examples=60, suppress_health_check=[HealthCheck.too_slow])
settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE", "default"))

from dask_fixtures import dask_client, dask_cluster  # noqa: E402,F401  (shared session fixtures)

import pytest  # noqa: E402


@pytest.fixture
def close_figures():
    """Close every matplotlib figure after the test (figure tests use it through ``pytestmark``)."""
    yield
    import matplotlib.pyplot as plt

    plt.close("all")


#: Doctests of the package that need an optional extra (installed in CI): module -> what to install.
_DOCTEST_NEEDS = {
    "graphpriv.ranges.JointRange.from_dask": ("dask.dataframe", "pip install 'graphpriv[dask]'"),
    "graphpriv.viz.explorer.view.explore": ("bokeh", "bokeh is a dependency of graphpriv: pip install 'bokeh>=3.4'"),
}


def pytest_collection_modifyitems(config, items):
    """Skip the doctests of :data:`_DOCTEST_NEEDS` where their extra is not installed (``pip install -e
    ".[test]"`` alone); CI installs every extra, so there they run."""
    import importlib.util

    for item in items:
        need = _DOCTEST_NEEDS.get(item.name)
        if need is None or type(item).__name__ != "DoctestItem":
            continue
        root = need[0].split(".")[0]
        if importlib.util.find_spec(root) is None or importlib.util.find_spec(need[0]) is None:
            item.add_marker(pytest.mark.skip(reason=f"needs {need[0]} ({need[1]})"))


# ---------------------------------------------------------------------- lines that show optional parts ran
def announce(capsys, text: str) -> None:
    """A line in the test output that shows an optional part (a dask cluster, the browser) ran: printed at once
    when the test runs in this process, and listed again at the end of the run (under pytest-xdist a worker's
    own prints are not shown; the test's ``user_properties`` travel to the controller)."""
    with capsys.disabled():
        print(f"\n{text}")
    capsys.request.node.user_properties.append(("ran", text))


def pytest_terminal_summary(terminalreporter):
    lines = [v for key in ("passed", "failed") for rep in terminalreporter.stats.get(key, [])
             if getattr(rep, "when", "call") == "call" for k, v in getattr(rep, "user_properties", []) if k == "ran"]
    if lines:
        terminalreporter.section("optional parts that ran")
        for line in lines:
            terminalreporter.write_line(line)
