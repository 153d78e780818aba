import os

os.environ.setdefault("MPLBACKEND", "Agg")

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
